"""The compiled loops of the rally as it is played: a waiting window split at a level, and
one level's sweeps.

Part of docs/rally.md ("How it is solved"; seed 002_8684547a41c0941c.txt): the
loops of :mod:`~isles.solvers.rally.windows` and :mod:`~isles.solvers.rally.position`
written out for numba (:mod:`isles.solvers.compiled`, cached in the user's cache
directory), the same operations in the same order as their NumPy forms.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from isles.solvers.compiled import compiled

__all__ = ["level_sweeps", "split_window", "sweeps_kernel", "window_kernel"]


def split_window(
    reserve: npt.NDArray[np.int64],
    group: npt.NDArray[np.int64],
    win_off: npt.NDArray[np.int64],
    win_cards: npt.NDArray[np.int64],
    win_wild: npt.NDArray[np.int64],
    win_prob: npt.NDArray[np.float64],
    cap: npt.NDArray[np.int64],
    strides: npt.NDArray[np.int64],
    level: npt.NDArray[np.int64],
    top: int,
    values: npt.NDArray[np.float64],
    comp_off: npt.NDArray[np.int64],
    comps: npt.NDArray[np.int64],
    fixed: npt.NDArray[np.float64],
    leaves: npt.NDArray[np.bool_],
    mass: npt.NDArray[np.float64],
    inner_row: npt.NDArray[np.int64],
    inner_col: npt.NDArray[np.int64],
    inner_p: npt.NDArray[np.float64],
    gold_row: npt.NDArray[np.int64],
    gold_col: npt.NDArray[np.int64],
    gold_k: npt.NDArray[np.int64],
    gold_p: npt.NDArray[np.float64],
) -> tuple[int, int]:
    """The waiting window of each row (its reserve, its hand's window), split at a level.

    Outcomes that reach a state of level ``top`` are listed (``inner``; ``gold``:
    those with gold cards still to name, the state before naming them); the
    others are summed with ``values`` into ``fixed`` (inf: a positive chance of
    an unreachable state). The listing arrays are long enough for every outcome.
    Returns the counts (inner, gold).
    """
    n_inner = 0
    n_gold = 0
    nr = len(cap)
    total = np.zeros(nr, np.int64)
    for i in range(len(group)):
        g = group[i]
        acc = 0.0
        for m in range(win_off[g], win_off[g + 1]):
            t = 0
            for j in range(nr):
                c = reserve[i, j] + win_cards[m, j]
                c = min(max(c, 0), cap[j])
                total[j] = c
                t += c * strides[j]
            k = win_wild[m]
            p = win_prob[m]
            if k == 0:
                if level[t] == top:
                    inner_row[n_inner] = i
                    inner_col[n_inner] = t
                    inner_p[n_inner] = p
                    mass[i] += p
                    n_inner += 1
                else:
                    acc += p * values[t]
                    if values[t] < np.inf:
                        leaves[i] = True
                continue
            best = np.inf
            inside = False
            for c_row in range(comp_off[k], comp_off[k + 1]):
                u = 0
                for j in range(nr):
                    u += min(total[j] + comps[c_row, j], cap[j]) * strides[j]
                if level[u] == top:
                    inside = True
                    break
                best = min(best, values[u])
            if inside:
                gold_row[n_gold] = i
                gold_col[n_gold] = t
                gold_k[n_gold] = k
                gold_p[n_gold] = p
                mass[i] += p
                n_gold += 1
            else:
                acc += p * best
                if best < np.inf:
                    leaves[i] = True
        fixed[i] += acc
    return n_inner, n_gold


def level_sweeps(
    rows: npt.NDArray[np.int64],
    current: npt.NDArray[np.float64],
    values: npt.NDArray[np.float64],
    best: npt.NDArray[np.float64],
    waiting: npt.NDArray[np.float64],
    fixed: npt.NDArray[np.float64],
    distinct: npt.NDArray[np.int64],
    indptr: npt.NDArray[np.int32],
    indices: npt.NDArray[np.int32],
    data: npt.NDArray[np.float64],
    bases: npt.NDArray[np.float64],
    weights: npt.NDArray[np.float64],
    post: npt.NDArray[np.int64],
    inside: npt.NDArray[np.bool_],
    above: npt.NDArray[np.float64],
    selfish: npt.NDArray[np.int64],
    diag: npt.NDArray[np.float64],
    tolerance: float,
    sweeps: int,
) -> int:
    """Value iteration over one level of a position (no gold cards to name), in place.

    The sweeps of :func:`isles.solvers.rally.position.solve_position` written out, the
    same operations in the same order (the waiting window ``fixed + inner @ values``,
    the best option of each post-trade state, the best trade, the states deciding at themselves
    solved exactly), until no value moves by more than ``tolerance``; then the
    waiting values and the best options of the level. Returns the sweeps made.
    """
    n = len(rows)
    n_opt = bases.shape[0]
    width = post.shape[1]
    stay = np.empty(n)
    new = np.empty(n)
    waits = np.empty(len(indptr) - 1)
    made = 0
    final = False
    while True:
        for i in range(n):
            values[rows[i]] = current[i]
        for u in range(len(waits)):
            acc = 0.0
            for jj in range(indptr[u], indptr[u + 1]):
                acc += data[jj] * values[rows[indices[jj]]]
            waits[u] = acc
        for i in range(n):
            stay[i] = fixed[i] + waits[distinct[i]]
        for i in range(n):
            s = rows[i]
            b = stay[i]
            for o in range(n_opt):
                w = weights[o, s]
                cand = bases[o, s] + (w * stay[i] if w > 0 else 0.0)
                if cand < b:
                    b = cand
            best[s] = b
        if final:  # the values are final: their waiting and best options are set
            break
        for i in range(n):
            m = above[i]
            for c in range(width):
                if inside[i, c]:
                    x = best[post[i, c]]
                    if x < m:
                        m = x
            new[i] = m + 1.0
        for q in range(len(selfish)):
            i = selfish[q]
            d = diag[q]
            rest = stay[i] - d * current[i]
            out = (1 + rest) / (1 - d) if d < 1 else np.inf
            s = rows[i]
            for o in range(n_opt):
                w = weights[o, s]
                base = bases[o, s]
                if w > 0:
                    cand = (1 + base + w * rest) / (1 - w * d) if w * d < 1 else np.inf
                else:
                    cand = 1 + base
                if cand < out:
                    out = cand
            new[i] = out
        delta = 0.0
        same = True
        for i in range(n):
            a, b = new[i], current[i]
            fa, fb = np.isfinite(a), np.isfinite(b)
            if fa and fb:
                if abs(a - b) > delta:
                    delta = abs(a - b)
            elif fa != fb:
                same = False
            current[i] = a
        made += 1
        final = (delta <= tolerance and same) or made >= sweeps
    for i in range(n):
        waiting[rows[i]] = stay[i]
    return made


@functools.cache
def sweeps_kernel() -> Callable[..., int]:
    """:func:`level_sweeps`, compiled (numba, cached in the user's cache directory)."""
    return compiled(level_sweeps)


@functools.cache
def window_kernel() -> Callable[..., tuple[int, int]]:
    """:func:`split_window`, compiled (numba, cached in the user's cache directory)."""
    return compiled(split_window)
