"""Compiled loops of the competitive solver: one Bellman sweep and the reachable positions.

Implements the sweeps of docs/lighthouse.md ("Competitive variant"; seed
000_aeb701e368f40145.txt) over the tables that solvers/lighthouse/competitive_tables.py
builds from models/lighthouse/competitive.py.

A position is ``(x, t, b, m)``: ``x`` the lighthouse code (one base-8 digit per
island, in the kit's order: 0 empty, ``1 + 2 (discs - 1) + top`` for 1-3 discs,
7 finished), ``t`` the seat to play, ``b`` the boat, ``m`` Maurice. Values live
in ``V[a, x, t, b, m]``, ``a`` a component (a seat's chance, or the expected
number of turns). The rules enter only through the tables:

- Maurice's class ``wclass[m]``: 0 when a walk of 2 cannot reach his island
  (``m < n - 2``), 1 when only a walk of 2 can (``m = n - 2``), 2 when a walk
  of 1 can (``m = n - 1``);
- for seat ``t`` with own lighthouse code ``c`` and class ``w``, groups ``g`` of
  rolls: ``group_p[t, c, g, w]`` (probability), ``group_boat`` (whether they
  move the boat), ``group_max`` (whether the seat chooses among the results,
  else they are averaged), and the results ``own_c/own_r/own_p[t, c, g, w, o]``
  (new own code, discs sent back, probability within the group) of which there
  are ``own_n[t, c, g, w]``;
- ``rem_n[t, y]``, ``rem_d/rem_p[t, y, j]``: the landing's removals for the other
  seats' code ``y`` (the change of ``x``, probability; one option of change 0
  when nothing can be removed).

Each function runs compiled by numba when it is installed (``parallel`` over the
lighthouse codes of a layer), and as plain Python otherwise (small kits only).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from isles.solvers.compiled import HAVE_NUMBA, compiled, prange

__all__ = [
    "HAVE_NUMBA",
    "reachable",
    "reachable_python",
    "sweep",
    "sweep_python",
    "sweep_serial",
]

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]
Flags = npt.NDArray[np.bool_]


# The sweep is the compiled parallel kernel and the plain-Python reference the tests check
# it with (sweep_python): helpers would be compiled (the reference no longer plain Python)
# or not (the kernel could not call them), so it must stay whole, as the DP's loops do.
def _sweep(
    V: Floats,
    write: bool,
    order: Ints,
    bounds: Ints,
    k: int,
    n: int,
    seats: int,
    codes: int,
    cpow: Ints,
    group_p: Floats,
    group_boat: Flags,
    group_max: Flags,
    own_n: Ints,
    own_c: Ints,
    own_r: Ints,
    own_p: Floats,
    rem_n: Ints,
    rem_d: Ints,
    rem_p: Floats,
    wclass: Ints,
    sign: Floats,
    reward: float,
    bmin: int,
) -> float:
    """One Gauss-Seidel sweep (``write``) or the residual pass; the largest change.

    Only the positions with the boat on ``bmin`` or later are updated: those on
    ``k - 1`` and ``k`` hold every cycle of the game (the boat moves back only
    from ``k`` to ``k - 1``), the others need one sweep once these are final.

    ``V[:, x]`` of an end code ``x`` (a seat has finished) holds the end's value
    and is never written. ``sign[t]`` is 0 for a seat that plays its tables'
    probabilities; a seat with ``sign[t] = +-1`` chooses (in its choosing groups,
    and the disc a landing removes) the result of largest ``sign[t] * V[0]``
    (``V`` then has one component).

    Order. Layers of ``order`` (between ``bounds``) hold the codes with the same
    discs laid, most discs first; for each code the boat goes down, then
    Maurice. A turn that does not land the boat lays discs (a code of an
    earlier layer) or keeps the code and moves the boat or Maurice on (done
    just before, in this code's own loop), so every such successor is final
    when it is read. A landing's successor (boat on ``k - 1``, a disc fewer) is
    read from the values as they stood at the start of the sweep, so the codes
    of a layer are independent: the layer runs in parallel and the result does
    not depend on the threads. The sweeps repeat until nothing changes.

    Work. For each code, seat, group and result, the successor's values are
    read for every (boat, Maurice) the result applies to at once (Maurice in
    class 0 never walks round, so the values are contiguous). The averaged
    results that keep the code (nothing laid) are added afterwards, position by
    position, in the order above.
    """
    comps = V.shape[0]
    k1 = k + 1
    row = k1 * n
    landed = V[:, :, :, k - 1, :].copy()
    flat = V.reshape(comps, -1)
    flat_landed = landed.reshape(comps, -1)
    groups = own_n.shape[2]
    m_lo = np.empty(3, dtype=np.int64)
    m_hi = np.empty(3, dtype=np.int64)
    m_lo[0], m_hi[0] = 0, max(n - 2, 0)
    m_lo[1], m_hi[1] = max(n - 2, 0), max(n - 1, 0)
    m_lo[2], m_hi[2] = n - 1, n
    worst = 0.0
    for layer in range(bounds.shape[0] - 1):
        lo = bounds[layer]
        hi = bounds[layer + 1]
        if hi == lo:
            continue
        change = np.zeros(hi - lo)
        for i in prange(lo, hi):
            x = order[i]
            total = np.full((comps, seats, k1, n), reward)
            same = np.zeros((seats, 2, 3, 3))
            best = np.empty((k1, n))
            for t in range(seats):
                c = (x // cpow[t]) % codes
                y = x % cpow[t] + (x // cpow[t + 1]) * cpow[t]
                t2 = (t + 1) % seats
                for w in range(3):
                    mlo = m_lo[w]
                    mhi = m_hi[w]
                    if mhi == mlo:
                        continue
                    for g in range(groups):
                        no = own_n[t, c, g, w]
                        if no == 0:
                            continue
                        boat = group_boat[t, c, g, w]
                        pg = group_p[t, c, g, w]
                        choose = group_max[t, c, g, w]
                        nj = rem_n[t, y] if boat else 0
                        rows = k if boat else k1
                        shift = 1 if boat else 0
                        if choose:
                            for b in range(bmin, k1):
                                for m in range(mlo, mhi):
                                    best[b, m] = -np.inf
                        for o in range(no):
                            c2 = own_c[t, c, g, w, o]
                            r = own_r[t, c, g, w, o]
                            q = pg * own_p[t, c, g, w, o]
                            x2 = x + (c2 - c) * cpow[t]
                            if c2 == c and not choose:
                                same[t, shift, w, r] += q
                            elif w == 0:
                                base = (x2 * seats + t2) * row + shift * n + r
                                for b in range(bmin, rows):
                                    at = base + b * n
                                    if choose:
                                        for m in range(mlo, mhi):
                                            v = sign[t] * flat[0, at + m]
                                            if v > best[b, m]:
                                                best[b, m] = v
                                    else:
                                        for a in range(comps):
                                            for m in range(mlo, mhi):
                                                total[a, t, b, m] += q * flat[a, at + m]
                            else:
                                m2 = (mlo + r) % n
                                base = (x2 * seats + t2) * row + shift * n + m2
                                for b in range(bmin, rows):
                                    at = base + b * n
                                    if choose:
                                        v = sign[t] * flat[0, at]
                                        if v > best[b, mlo]:
                                            best[b, mlo] = v
                                    else:
                                        for a in range(comps):
                                            total[a, t, b, mlo] += q * flat[a, at]
                            if nj and sign[t] != 0.0:
                                # The seat chooses the disc the landing removes.
                                for m in range(mlo, mhi):
                                    top = -np.inf
                                    for j in range(nj):
                                        at = (x2 + rem_d[t, y, j]) * seats + t2
                                        v = sign[t] * flat_landed[0, at * n + (m + r) % n]
                                        top = max(top, v)
                                    if choose:
                                        best[k, m] = max(best[k, m], top)
                                    else:
                                        total[0, t, k, m] += q * sign[t] * top
                            else:
                                for j in range(nj):
                                    qj = q * rem_p[t, y, j]
                                    base = ((x2 + rem_d[t, y, j]) * seats + t2) * n
                                    for m in range(mlo, mhi):
                                        at = base + (m + r) % n
                                        for a in range(comps):
                                            total[a, t, k, m] += qj * flat_landed[a, at]
                        if choose:
                            for b in range(bmin, k1):
                                for m in range(mlo, mhi):
                                    total[0, t, b, m] += pg * sign[t] * best[b, m]
            most = 0.0
            for b in range(k, bmin - 1, -1):
                for m in range(n - 1, -1, -1):
                    w = wclass[m]
                    for t in range(seats):
                        t2 = (t + 1) % seats
                        for r in range(3):
                            m2 = (m + r) % n
                            q = same[t, 0, w, r]
                            if q != 0.0:
                                for a in range(comps):
                                    total[a, t, b, m] += q * V[a, x, t2, b, m2]
                            q = same[t, 1, w, r]
                            if q != 0.0 and b < k:
                                for a in range(comps):
                                    total[a, t, b, m] += q * V[a, x, t2, b + 1, m2]
                        for a in range(comps):
                            most = max(most, abs(total[a, t, b, m] - V[a, x, t, b, m]))
                            if write:
                                V[a, x, t, b, m] = total[a, t, b, m]
            change[i - lo] = most
        worst = max(worst, change.max())
    return worst


sweep_python = _sweep
"""The plain-Python :func:`_sweep` (the fallback without numba, and the tests' reference)."""

sweep = compiled(_sweep, parallel=True)
"""Compiled :func:`_sweep` (plain Python without numba)."""

sweep_serial = compiled(_sweep)
"""Compiled :func:`_sweep` on one thread (small kits: no thread start-up per layer)."""


def _reachable(
    start: int,
    k: int,
    n: int,
    seats: int,
    codes: int,
    cpow: Ints,
    is_end: Flags,
    group_boat: Flags,
    own_n: Ints,
    own_c: Ints,
    own_r: Ints,
    rem_n: Ints,
    rem_d: Ints,
    wclass: Ints,
) -> int:
    """Breadth-first search from lighthouse code ``start`` (seat 0, boat 0, Maurice 0).

    Returns the number of positions in play it reaches (the start included).
    Every result of the tables is followed (a fixed policy's tables list only
    what it may play; an optimising seat's, every legal result).
    """
    k1 = k + 1
    size = is_end.shape[0] * seats * k1 * n
    seen = np.zeros(size, dtype=np.uint8)
    queue = np.empty(size, dtype=np.int64)
    seen[start * seats * k1 * n] = 1
    queue[0] = start * seats * k1 * n
    head = 0
    tail = 1
    groups = own_n.shape[2]
    while head < tail:
        f = queue[head]
        head += 1
        m = f % n
        b = (f // n) % k1
        t = (f // (n * k1)) % seats
        x = f // (n * k1 * seats)
        c = (x // cpow[t]) % codes
        y = x % cpow[t] + (x // cpow[t + 1]) * cpow[t]
        w = wclass[m]
        t2 = (t + 1) % seats
        for g in range(groups):
            boat = group_boat[t, c, g, w]
            land = boat and b == k
            b2 = k - 1 if land else b + 1 if boat else b
            for o in range(own_n[t, c, g, w]):
                m2 = (m + own_r[t, c, g, w, o]) % n
                x2 = x + (own_c[t, c, g, w, o] - c) * cpow[t]
                for j in range(rem_n[t, y] if land else 1):
                    x3 = x2 + rem_d[t, y, j] if land else x2
                    if is_end[x3]:
                        continue
                    f2 = ((x3 * seats + t2) * k1 + b2) * n + m2
                    if seen[f2] == 0:
                        seen[f2] = 1
                        queue[tail] = f2
                        tail += 1
    return tail


reachable_python = _reachable
"""The plain-Python :func:`_reachable`."""

reachable = compiled(_reachable)
"""Compiled :func:`_reachable` (plain Python without numba)."""
