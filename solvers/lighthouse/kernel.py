"""Lighthouses: the values of one layer of positions from the layers above (the layer kernels).

Implements docs/lighthouse.md ("The layer kernel", "Greedy play, layer by layer";
seed 000_aeb701e368f40145.txt): the class kernel (optimal and random play over
the classes of classes.py) and the code kernel (greedy play over lighthouse
codes). Each has a numba version, compiled and run in parallel over a layer,
and a NumPy one (the fallback without numba, the reference in the tests, and
the only one for Fractions); both compute the same numbers, operation for
operation. The policies are those of policies.py.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, Literal, Protocol, cast

import numpy as np
import numpy.typing as npt

from isles.models.errors import InvalidInput
from isles.models.lighthouse.caps import Policy
from isles.models.lighthouse.kit import Kit
from isles.models.lighthouse.rules import roll_outcomes
from isles.solvers.compiled import HAVE_NUMBA, compiled, in_parallel, threads
from isles.solvers.lighthouse.classes import ClassLayer
from isles.solvers.lighthouse.codes import DISCS, TRANS
from isles.solvers.lighthouse.policies import greedy_bonus_rank, greedy_lay_rank, greedy_swaps

__all__ = [
    "BACKENDS",
    "HAVE_NUMBA",
    "Backend",
    "RollTable",
    "Wait",
    "finished_layer",
    "greedy_layer",
    "layer_values",
    "one_more_width",
    "pick_backend",
    "roll_table",
    "start_warm_up",
    "warm_up",
]

Backend = Literal["auto", "numba", "numpy"]
BACKENDS: tuple[Backend, ...] = ("auto", "numba", "numpy")

BOAT_ONLY, BOAT_AND_COLOUR, TWO_COLOURS = 0, 1, 2


@dataclass(frozen=True, eq=False)
class RollTable:
    """The roll outcomes of a kit in the order of ``roll_outcomes``, as kernel arrays.

    ``kind[r]``: 0 boat alone, 1 boat and one colour, 2 two colours (no boat);
    ``first[r]``, ``second[r]``: colour indices (the null index for a colour no
    island has, -1 when absent), the roll's alphabetical order; ``probability``
    as floats and as Fractions.
    """

    kind: npt.NDArray[np.int64]
    first: npt.NDArray[np.int64]
    second: npt.NDArray[np.int64]
    probability: npt.NDArray[np.float64]
    exact: tuple[Fraction, ...]

    @property
    def size(self) -> int:
        """Number of roll outcomes."""
        return int(self.kind.size)


def roll_table(kit: Kit, colours: tuple[str, ...]) -> RollTable:
    """The kit's roll outcomes with colours as indices into ``colours`` (others: null).

    Examples
    --------
    >>> from isles.models.lighthouse.kit import default_kit
    >>> table = roll_table(default_kit(2), ("red", "blue", "green", "orange"))
    >>> table.size, int(table.kind[0]), int(table.first[0]), int(table.second[0])
    (21, 2, 1, 1)
    """
    index = {c: k for k, c in enumerate(colours)}
    null = len(colours)
    kind, first, second, exact = [], [], [], []
    for roll in roll_outcomes(kit):
        faces = [index.get(c, null) for c in roll.colours]
        if roll.boat:
            kind.append(BOAT_AND_COLOUR if faces else BOAT_ONLY)
        else:
            kind.append(TWO_COLOURS)
        first.append(faces[0] if faces else -1)
        second.append(faces[1] if len(faces) > 1 else -1)
        exact.append(roll.probability)
    return RollTable(
        np.array(kind, dtype=np.int64),
        np.array(first, dtype=np.int64),
        np.array(second, dtype=np.int64),
        np.array([float(p) for p in exact], dtype=np.float64),
        tuple(exact),
    )


def pick_backend(backend: str, dtype: Any) -> str:
    """``numba`` or ``numpy`` for ``backend`` and values of ``dtype`` (objects: NumPy).

    Raises
    ------
    InvalidInput
        An unknown backend; ``numba`` where numba is missing or for Fractions.

    Examples
    --------
    >>> pick_backend("numpy", np.float64)
    'numpy'
    """
    if backend not in BACKENDS:
        raise InvalidInput("backend", backend, f"one of {list(BACKENDS)}")
    if backend == "numba":
        if not HAVE_NUMBA:
            raise InvalidInput("backend", backend, "numpy (numba is not installed)")
        if np.dtype(dtype).kind == "O":
            raise InvalidInput("backend", backend, "numpy for Fractions (numba computes floats)")
        return "numba"
    if backend == "auto" and HAVE_NUMBA and np.dtype(dtype).kind != "O":
        return "numba"
    return "numpy"


def _buffer(out: npt.NDArray[Any] | None, shape: tuple[int, ...], dtype: Any) -> Any:
    """A view of ``out`` with ``shape`` (a scratch buffer reused across layers), or a new array."""
    if out is None:
        return np.empty(shape, dtype=dtype)
    count = int(np.prod(shape))
    return out.reshape(-1)[:count].reshape(shape)


def one_more_width(colours: int, width: int, n: int) -> int:
    """Values of a class's row of the one-more-disc table: a vector per colour, then its homes.

    Each island colour's vector (``width = boats * n`` values), then the
    class's home value on each boat column (``width // n`` values): the
    null colour's vector, Maurice's walk of one, is not kept, as it is the
    class's values moved by one island, its home value at a card's end.

    Examples
    --------
    >>> one_more_width(5, 72, 8)  # 8 islands, 8 sea cards
    369
    """
    return colours * width + width // n


def finished_layer(size: int, colours: int, width: int, n: int, dtype: Any) -> npt.NDArray[Any]:
    """The one-more-disc table of the finished class: every lighthouse full, value 1."""
    g0 = np.empty((size, one_more_width(colours, width, n)), dtype=dtype)
    g0[...] = Fraction(1) if np.dtype(dtype).kind == "O" else 1.0
    return g0


def _with_null_slot(
    g0: npt.NDArray[Any], v: npt.NDArray[Any], colours: int, n: int
) -> npt.NDArray[Any]:
    """A layer's one-more-disc table with the null colour's vector, shape (N, colours + 1, E)."""
    size, width = v.shape
    boats = width // n
    full = np.empty((size, colours + 1, width), dtype=g0.dtype)
    full[:, :colours] = g0[:, : colours * width].reshape(size, colours, width)
    walk = full[:, colours].reshape(size, boats, n)
    walk[:, :, : n - 1] = v.reshape(size, boats, n)[:, :, 1:]
    walk[:, :, n - 1] = g0[:, colours * width :]
    return full


# --- the class kernel: optimal and random play ------------------------------------------------


def layer_values(
    layer: ClassLayer,
    perms: npt.NDArray[np.int64],
    rolls: RollTable,
    v_next: npt.NDArray[Any],
    g0_next: npt.NDArray[Any],
    v_out: npt.NDArray[Any],
    n: int,
    colours: int,
    policy: Policy = "optimal",
    backend: Backend = "auto",
    out: npt.NDArray[Any] | None = None,
) -> npt.NDArray[Any]:
    """Fill ``v_out`` with the values of ``layer``'s classes; return its one-more-disc table.

    Parameters
    ----------
    layer : ClassLayer
        The classes and their successor lists (``layer.discs < 4n``).
    perms : ndarray, shape (group size, colours + 1)
        The group's colour permutations (frames of successors).
    rolls : RollTable
        The roll outcomes.
    v_next : ndarray, shape (N', E)
        Values of the next layer's classes, ``E = boats * n`` per class:
        ``v[j, b * n + m]`` with the boat on the ``b``-th boat column and
        Maurice ``m`` islands past his own.
    g0_next : ndarray, shape (N', colours * E + E / n)
        The next layer's one-more-disc table (see Returns).
    v_out : ndarray, shape (N, E)
        Filled with the values of this layer (float64, or object for Fractions).
    n, colours : int
        Islands and island colours.
    policy : {"optimal", "random"}
        ``optimal``: the maximum at each choice point; ``random``: the mean,
        each lighthouse (entry ``count``) an option (docs/lighthouse.md, "The
        simple policies").
    backend : {"auto", "numba", "numpy"}
        ``auto`` is numba when installed and the values are floats.
    out : ndarray, optional
        A contiguous scratch buffer of at least ``N * one_more_width(colours, E, n)`` values
        of ``v_out``'s dtype to hold the result (reused from layer to layer, it
        saves allocating and faulting in a large table per layer).

    Returns
    -------
    ndarray, shape (N, colours * E + E / n)
        ``g0[j, c * E : (c + 1) * E]``: the value of handling one more disc of
        colour ``c`` in class ``j`` before anything went back this turn: the
        policy's placement, or Maurice's walk of one when no lighthouse takes
        it. It is what the previous layer reads for the second disc of a
        roll. Then the class's home value on each boat column (``g0[j,
        colours * E + b]``, Maurice back on his island with the bonus disc):
        with the class's values it gives the null colour's walk of one, which
        is not kept (:func:`one_more_width`).

    Raises
    ------
    InvalidInput
        ``backend`` is ``numba`` without numba or with Fractions; greedy play
        (its ties follow the island order: :func:`greedy_layer`).

    Notes
    -----
    The arithmetic is that of docs/lighthouse.md's dynamic programme, term for
    term: the rolls' contributions are added in the order of ``roll_outcomes``,
    then ``acc + q0 * stay + q1 * walk1 + q2 * walk2`` for the turns that lay no
    disc; maxima are exact, and random play's means are weighted sums divided
    once. Both kernels give the same floats.
    """
    if policy not in ("optimal", "random"):
        raise InvalidInput("policy", policy, "optimal or random over classes (greedy: codes)")
    use = pick_backend(backend, v_out.dtype)
    random = policy == "random"
    if use == "numba":
        g0 = _buffer(out, (layer.size, one_more_width(colours, v_out.shape[1], n)), np.float64)

        def body(lo: int, hi: int) -> None:
            # The kernel's scratch, made here: NumPy's allocators compiled into the kernel
            # would cost a fraction of a second each to compile on a first run.
            vectors = np.empty((5, v_out.shape[1]))
            pair = np.empty((colours, colours + 1, v_out.shape[1]))
            takeable = np.zeros(colours + 1, dtype=np.bool_)
            _class_kernel(
                lo,
                hi,
                layer.ptr,
                layer.succ,
                layer.frame,
                layer.count,
                perms,
                rolls.kind,
                rolls.first,
                rolls.second,
                rolls.probability,
                v_next,
                g0_next,
                n,
                colours,
                random,
                v_out,
                g0,
                vectors,
                pair,
                takeable,
            )

        in_parallel(layer.size, body, grain=1024)
        return cast(npt.NDArray[Any], g0)
    width = v_out.shape[1]
    full = np.empty((layer.size, colours + 1, width), dtype=v_out.dtype)
    full_next = _with_null_slot(g0_next, v_next, colours, n)
    _numpy_layer(layer, perms, rolls, v_next, full_next, v_out, n, colours, random, full)
    g0 = _buffer(out, (layer.size, one_more_width(colours, width, n)), v_out.dtype)
    g0[:, : colours * width] = full[:, :colours].reshape(layer.size, colours * width)
    g0[:, colours * width :] = full[:, colours, n - 1 :: n]  # the walk of one at a card's end
    return cast(npt.NDArray[Any], g0)


# --- NumPy: vectorised over the classes of the layer ---------------------------------------


def _padded(
    layer: ClassLayer, colours: int
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Successor lists as (N, colours, P) arrays: next-layer index (-1: none), frame, count."""
    counts = np.diff(layer.ptr).reshape(layer.size, colours)
    width = max(int(counts.max(initial=0)), 1)
    succ = np.full((layer.size, colours, width), -1, dtype=np.int64)
    frame = np.zeros((layer.size, colours, width), dtype=np.int64)
    count = np.zeros((layer.size, colours, width), dtype=np.int64)
    entry = np.arange(layer.succ.size)
    owner = np.repeat(np.arange(layer.size * colours), np.diff(layer.ptr))
    rank = entry - layer.ptr[owner]
    succ[owner // colours, owner % colours, rank] = layer.succ
    frame[owner // colours, owner % colours, rank] = layer.frame
    count[owner // colours, owner % colours, rank] = layer.count
    return succ, frame, count


def _numpy_layer(
    layer: ClassLayer,
    perms: npt.NDArray[np.int64],
    rolls: RollTable,
    v_next: npt.NDArray[Any],
    g0_next: npt.NDArray[Any],
    v_out: npt.NDArray[Any],
    n: int,
    colours: int,
    random: bool,
    g0: npt.NDArray[Any],
) -> None:
    """The NumPy class kernel: ``v_out`` and the one-more-disc table ``g0`` of the layer."""
    size, width = layer.size, v_out.shape[1]
    boats = width // n
    exact = v_out.dtype == object
    dtype = v_out.dtype
    zero: Any = Fraction(0) if exact else 0.0
    succ, frame, count = _padded(layer, colours)
    weight: npt.NDArray[Any] = count.astype(object) if exact else count.astype(np.float64)
    takeable = succ[:, :, 0] >= 0
    null = colours
    none = np.zeros(size, dtype=bool)

    def combine(c: int, table: Any, slot: int | None) -> npt.NDArray[Any]:
        """Colour c's placements: the best (optimal) or weighted sum (random) of table rows."""
        out = np.zeros((size, width), dtype=dtype)
        if exact:
            out[...] = zero
        for p in range(succ.shape[2]):
            rows = np.flatnonzero(succ[:, c, p] >= 0)
            if slot is None:
                vals = table[succ[rows, c, p]]
            else:
                vals = table[succ[rows, c, p], perms[frame[rows, c, p], slot]]
            if random:
                vals = weight[rows, c, p][:, None] * vals
                out[rows] = vals if p == 0 else out[rows] + vals
            else:
                out[rows] = vals if p == 0 else np.maximum(out[rows], vals)
        return out

    totals = weight.sum(axis=2)
    bonus = np.zeros((size, width), dtype=dtype)
    if exact:
        bonus[...] = zero
    for c in range(colours):
        placed = combine(c, v_next, None)
        tk = takeable[:, c]
        if random:
            bonus[tk] += placed[tk]
            placed[tk] = placed[tk] / totals[tk, c][:, None]
        g0[:, c] = placed
    if random:
        btotal = totals.sum(axis=1)
        has = btotal > 0
        bonus[has] = bonus[has] / btotal[has][:, None]
    else:
        # The best over the colours that some lighthouse takes (values are >= 0).
        bonus[...] = -1
        for c in range(colours):
            tk = takeable[:, c]
            bonus[tk] = np.maximum(bonus[tk], g0[tk, c])

    pairs: dict[tuple[int, int], npt.NDArray[Any]] = {}

    def pair(u: int, v: int) -> npt.NDArray[Any]:
        """Lay u (the policy's placement), then handle v: from the next layer's g0."""
        if (u, v) not in pairs:
            value = combine(u, g0_next, v)
            if random:
                tk = takeable[:, u]
                value[tk] = value[tk] / totals[tk, u][:, None]
            pairs[u, v] = value
        return pairs[u, v]

    def order(x: int, y: int) -> npt.NDArray[Any]:
        """Discs x then y: lay x and handle y; if no lighthouse takes x, y alone, walked one."""
        out = np.zeros((size, width), dtype=dtype)
        if exact:
            out[...] = zero
        tx = takeable[:, x] if x < colours else none
        ty = takeable[:, y] if y < colours else none
        if x < colours:
            out[tx] = pair(x, y)[tx]
        if y < colours:
            alone = ~tx & ty
            out[alone] = pair(y, null)[alone]
        return out

    half: Any = Fraction(1, 2) if exact else 0.5
    acc = np.zeros((size, width), dtype=dtype)
    if exact:
        acc[...] = zero
    q = [np.zeros(size, dtype=dtype) for _ in range(3)]
    for qk in q:
        qk[...] = zero
    for r in range(rolls.size):
        prob: Any = rolls.exact[r] if exact else float(rolls.probability[r])
        kind, u, v = int(rolls.kind[r]), int(rolls.first[r]), int(rolls.second[r])
        if kind == BOAT_ONLY:
            q[0] += prob
            continue
        if kind == BOAT_AND_COLOUR:
            lay = takeable[:, u] if u < colours else none
            rows = np.flatnonzero(lay)
            ahead = g0[rows, u].reshape(rows.size, boats, n)[:, 1:].reshape(rows.size, width - n)
            acc[rows, : width - n] += prob * ahead
            q[1][~lay] += prob
            continue
        tu = takeable[:, u] if u < colours else none
        tv = takeable[:, v] if v < colours else none
        some = tu | tv
        best = order(u, v)
        if u != v:
            other = order(v, u)
            best = (best + other) * half if random else np.maximum(best, other)
        acc[some] += prob * best[some]
        q[2][~some] += prob

    # Turns that lay no disc: the boat moves, or Maurice walks without reaching home.
    vals = v_out.reshape(size, boats, n)
    home = bonus.reshape(size, boats, n)
    total = acc.reshape(size, boats, n)
    zeros = np.zeros(size, dtype=dtype)
    zeros[...] = zero
    for b in range(boats - 1, -1, -1):
        for m in range(n - 1, -1, -1):
            stay = vals[:, b + 1, m] if b + 1 < boats else zeros
            if b + 1 >= boats:
                w1 = zeros
            elif m + 1 < n:
                w1 = vals[:, b + 1, m + 1]
            else:
                w1 = home[:, b + 1, (m + 1) % n]
            w2 = vals[:, b, m + 2] if m + 2 < n else home[:, b, (m + 2) % n]
            vals[:, b, m] = total[:, b, m] + q[0] * stay + q[1] * w1 + q[2] * w2
    walk1 = np.empty((size, boats, n), dtype=dtype)
    walk1[:, :, : n - 1] = vals[:, :, 1:]
    walk1[:, :, n - 1] = home[:, :, 0]
    walk1 = walk1.reshape(size, width)
    for c in range(colours):
        g0[:, c] = np.where(takeable[:, c, None], g0[:, c], walk1)
    g0[:, colours] = walk1


# --- numba: one class per iteration, parallel over chunks of the layer ------------------------


def _put(dst: Any, src: Any, off: int, w: float, mode: int) -> None:  # pragma: no cover - numba
    """dst = src (mode 0), max(dst, src) (1), w * src (2), dst + w * src (3); src from off."""
    size = dst.size
    if mode == 0:
        for e in range(size):
            dst[e] = src[off + e]
    elif mode == 1:
        # "+ 0.0" is exact here (no value is -0.0) and keeps LLVM from turning the select
        # into a masked store, which is slow.
        for e in range(size):
            x = src[off + e]
            y = dst[e]
            dst[e] = (y if y >= x else x) + 0.0
    elif mode == 2:
        for e in range(size):
            dst[e] = w * src[off + e]
    else:
        for e in range(size):
            dst[e] += w * src[off + e]


def _within(
    v: Any, acc: Any, home: Any, q0: float, q1: float, q2: float, n: int, base: Any
) -> None:  # pragma: no cover - compiled by numba
    """A position's values from the last card and the last Maurice offset down.

    ``v[b*n + m] = acc + q0 * stay + q1 * walk1 + q2 * walk2`` (docs/lighthouse.md,
    "The dynamic programme"): the boat alone moves (stay, one card on), an
    unusable colour with the boat walks Maurice one (walk1, one card on), two
    unusable colours walk him two (walk2, same card); a walk reaching his
    island reads ``home``, the value once the bonus disc is earned. The first
    three terms need the next card only (a vector loop); the last chains
    along the card, in the same order of operations.
    """
    boats = v.size // n
    for b in range(boats - 1, -1, -1):
        at = b * n
        if b + 1 < boats:
            up = at + n
            for m in range(n - 1):
                base[m] = acc[at + m] + q0 * v[up + m] + q1 * v[up + m + 1]
            base[n - 1] = acc[at + n - 1] + q0 * v[up + n - 1] + q1 * home[up]
        else:
            for m in range(n):
                base[m] = acc[at + m] + q0 * 0.0 + q1 * 0.0
        for m in range(n - 1, -1, -1):
            w2 = v[at + m + 2] if m + 2 < n else home[at + (m + 2) % n]
            v[at + m] = base[m] + q2 * w2


def _class_loop(  # pragma: no cover - compiled by numba
    lo: int,
    hi: int,
    ptr: Any,
    succ: Any,
    frame: Any,
    count: Any,
    perms: Any,
    kind: Any,
    first: Any,
    second: Any,
    prob: Any,
    v_next: Any,
    g0_next: Any,
    n: int,
    colours: int,
    random: bool,
    v_out: Any,
    g0_out: Any,
    vectors: Any,
    pair: Any,
    takeable: Any,
) -> None:
    """Classes ``lo..hi-1`` of a layer (:func:`layer_values`); the last three: scratch.

    ``vectors`` (5, E), ``pair`` (colours, colours + 1, E), ``takeable`` (colours + 1).
    """
    width = v_out.shape[1]
    boats = width // n
    null = colours
    slots = colours + 1
    homes = colours * width  # where a one-more-disc row's home values start
    # _put's modes as run-time integers: numba compiles it once for them all (a
    # constant would be a specialisation of its own to compile).
    copy: Any = np.int64(0)
    best: Any = np.int64(1)
    add: Any = np.int64(3)
    acc = vectors[0]
    bonus = vectors[1]
    both = vectors[2]
    walk = vectors[3]
    chain = vectors[4]
    flat_pair = pair.reshape(colours, slots * width)
    # A roll with a colour no island has reads "lay v, then the null disc" in every class.
    null_rolls = False
    for r in range(kind.size):
        if kind[r] == 2 and (first[r] == null or second[r] == null):
            null_rolls = True
    for j in range(lo, hi):
        base = j * colours
        btotal = 0.0
        have_bonus = False
        # "Lay c, then the null disc" (pair[c, null]) is read only when a disc of the
        # roll goes back: where every colour is taken and no roll has a null colour,
        # it is skipped (otherwise it is the successors' walk of one, from their rows).
        used = colours if not null_rolls else slots
        for c in range(colours):
            if ptr[base + c] == ptr[base + c + 1]:
                used = slots
        # 1. Each colour's placement (g0), the bonus, and "lay u then handle v" (pair).
        for c in range(colours):
            start, stop = ptr[base + c], ptr[base + c + 1]
            takeable[c] = start < stop
            if start == stop:
                continue
            row = g0_out[j, c * width : (c + 1) * width]
            here = 0.0
            for k in range(start, stop):
                s = succ[k]
                f = frame[k]
                w = float(count[k])
                mode = (2 if k == start else 3) if random else (0 if k == start else 1)
                _put(row, v_next[s], 0, w, mode)
                blk = g0_next[s]
                if f == 0:
                    # The identity frame (three entries in four): the whole block at once.
                    _put(flat_pair[c, :homes], blk, 0, w, mode)
                else:
                    for v in range(colours):
                        _put(pair[c, v], blk, perms[f, v] * width, w, mode)
                if used == slots:
                    # The null disc (no frame moves it): s's walk of one, its home at a card's end.
                    got = v_next[s]
                    for b in range(boats):
                        for m in range(n - 1):
                            walk[b * n + m] = got[b * n + m + 1]
                        walk[b * n + n - 1] = blk[homes + b]
                    _put(pair[c, null], walk, 0, w, mode)
                here += w
            if random:
                _put(bonus, row, 0, 1.0, 3 if have_bonus else 0)
                btotal += here
                for e in range(width):
                    row[e] = row[e] / here
                for v in range(used):
                    line = pair[c, v]
                    for e in range(width):
                        line[e] = line[e] / here
            else:
                _put(bonus, row, 0, 1.0, 1 if have_bonus else 0)
            have_bonus = True
        if random and have_bonus:
            for e in range(width):
                bonus[e] = bonus[e] / btotal
        takeable[null] = False
        # 2. The rolls, in the order of roll_outcomes.
        for e in range(width):
            acc[e] = 0.0
        q0 = 0.0
        q1 = 0.0
        q2 = 0.0
        for r in range(kind.size):
            p = prob[r]
            if kind[r] == 0:
                q0 += p
            elif kind[r] == 1:
                c = first[r]
                if takeable[c]:
                    off = c * width + n
                    for e in range(width - n):
                        acc[e] += p * g0_out[j, off + e]
                else:
                    q1 += p
            else:
                u, v = first[r], second[r]
                tu, tv = takeable[u], takeable[v]
                if not (tu or tv):
                    q2 += p
                    continue
                # Order (u, v): lay u and handle v; if no lighthouse takes u, v alone, walk one.
                a = pair[u, v] if tu else pair[v, null]
                if u == v:
                    _put(acc, a, 0, p, add)
                    continue
                b = pair[v, u] if tv else pair[u, null]
                if random:
                    for e in range(width):
                        both[e] = (a[e] + b[e]) * 0.5
                else:
                    _put(both, a, 0, 1.0, copy)
                    _put(both, b, 0, 1.0, best)
                _put(acc, both, 0, p, add)
        # 3. Within the class, from the last card and the last Maurice offset down.
        _within(v_out[j], acc, bonus, q0, q1, q2, n, chain)
        # 4. The one-more-disc table: Maurice walks one where no lighthouse takes the colour;
        # then the home values (the null colour's walk of one is rebuilt from them).
        for c in range(colours):
            if takeable[c]:
                continue
            off = c * width
            for b in range(boats):
                for m in range(n - 1):
                    g0_out[j, off + b * n + m] = v_out[j, b * n + m + 1]
                g0_out[j, off + b * n + n - 1] = bonus[b * n]
        for b in range(boats):
            g0_out[j, homes + b] = bonus[b * n]


# --- the code kernel: greedy play over lighthouse codes ----------------------------------------


def greedy_layer(
    codes: npt.NDArray[np.int64],
    position: npt.NDArray[np.int32],
    colour_side: npt.NDArray[np.int64],
    rolls: RollTable,
    v_next: npt.NDArray[Any],
    v_after: npt.NDArray[Any],
    v_out: npt.NDArray[Any],
    n: int,
    backend: Backend = "auto",
) -> None:
    """Fill ``v_out`` with greedy play's values of the lighthouse codes of one layer.

    Parameters
    ----------
    codes : ndarray of int64
        The codes with ``d`` discs laid (``d < 4n``), increasing.
    position : ndarray of int32, shape (8**n,)
        Each code's row in its layer's value table.
    colour_side : ndarray, shape (colours, n)
        0 / 1 when colour ``c`` is island ``i``'s first / second colour, else -1
        (the island colours only; the roll table's null index is any other).
    rolls : RollTable
        The roll outcomes, colours as indices into the island colours.
    v_next, v_after : ndarray, shape (N', E), (N'', E)
        Greedy values of the codes with ``d + 1`` and ``d + 2`` discs laid.
    v_out : ndarray, shape (N, E)
        Filled with the values of ``codes`` (float64, or object for Fractions).
    n : int
        Islands.
    backend : {"auto", "numba", "numpy"}
        ``auto`` is numba when installed and the values are floats.

    Raises
    ------
    InvalidInput
        ``numba`` without numba or with Fractions.

    Notes
    -----
    Greedy play breaks ties by island order, so codes cannot be merged by the
    colour group or pooled (its bonus goes to the first of the nearly full
    lighthouses, whatever colour that one needs): one row per code. Its choices
    for a roll make a single position, so a layer reads the values of the two
    layers above directly (a turn lays at most two discs, or one and the
    bonus) and needs no one-more-disc table (docs/lighthouse.md, "Greedy play,
    layer by layer").
    """
    use = pick_backend(backend, v_out.dtype)
    if use == "numba":
        lay_after, lay_rank, bonus_after, bonus_rank = greedy_tables(colour_side)

        def body(lo: int, hi: int) -> None:
            _greedy_kernel(
                lo,
                hi,
                codes,
                position,
                lay_after,
                lay_rank,
                bonus_after,
                bonus_rank,
                rolls.kind,
                rolls.first,
                rolls.second,
                rolls.probability,
                v_next,
                v_after,
                n,
                v_out,
            )

        in_parallel(codes.size, body, grain=4096)
        return
    _numpy_greedy(codes, position, colour_side, rolls, v_next, v_after, v_out, n)


NO_RANK = -(1 << 40)
"""The rank of a lighthouse that cannot take the disc (below every greedy rank)."""


def greedy_tables(
    colour_side: npt.NDArray[np.int64],
) -> tuple[
    npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]
]:
    """Greedy's choices as tables over (colour, island, state) for the compiled kernel.

    Returns ``lay_after[c, i, s]`` (the state after a disc of colour ``c`` on
    island ``i`` in state ``s``, -1 when it cannot take it; the last colour is
    the null one), ``lay_rank[c, i, s]`` (:func:`greedy_lay_rank`, or
    :data:`NO_RANK`), and the same for the bonus disc over the island's
    colours, ``bonus_after[i, side, s]`` and ``bonus_rank[i, side, s]``
    (:func:`greedy_bonus_rank`).

    Examples
    --------
    >>> side = np.array([[0, -1], [1, 0], [-1, 1]])  # red (0, -), blue (1, 0), green (-, 1)
    >>> lay_after, lay_rank, _, _ = greedy_tables(side)
    >>> int(lay_after[1, 0, 0]), int(lay_after[1, 1, 1])  # blue: on an empty red-blue; on blue
    (2, -1)
    """
    colours, n = colour_side.shape
    states = np.arange(DISCS.size)
    lay_after = np.full((colours + 1, n, states.size), -1, dtype=np.int64)
    lay_rank = np.full((colours + 1, n, states.size), NO_RANK, dtype=np.int64)
    for c in range(colours):
        for i in range(n):
            side = int(colour_side[c, i])
            if side < 0:
                continue
            after = TRANS[states, side]
            lay_after[c, i] = after
            lay_rank[c, i] = np.where(after >= 0, greedy_lay_rank(DISCS[states], i), NO_RANK)
    bonus_after = np.full((n, 2, states.size), -1, dtype=np.int64)
    bonus_rank = np.full((n, 2, states.size), NO_RANK, dtype=np.int64)
    for i in range(n):
        for side in (0, 1):
            after = TRANS[states, side]
            bonus_after[i, side] = after
            bonus_rank[i, side] = np.where(
                after >= 0, greedy_bonus_rank(DISCS[states], i, side), NO_RANK
            )
    return lay_after, lay_rank, bonus_after, bonus_rank


def _best_two(ranks: Any, states: Any, top: Any) -> None:  # pragma: no cover - numba
    """The two islands of highest rank ``ranks[i, states[i]]`` into ``top`` (-1: none)."""
    r1 = NO_RANK
    r2 = NO_RANK
    i1 = -1
    i2 = -1
    for i in range(states.size):
        r = ranks[i, states[i]]
        if r > r1:
            r2, i2 = r1, i1
            r1, i1 = r, i
        elif r > r2:
            r2, i2 = r, i
    top[0] = i1 if r1 > NO_RANK else -1
    top[1] = i2 if r2 > NO_RANK else -1


def _bonus_best(bonus_rank: Any, i: int, state: int) -> Any:  # pragma: no cover - numba
    """(rank, side) of the best bonus disc on island ``i`` in ``state``."""
    r0 = bonus_rank[i, 0, state]
    r1 = bonus_rank[i, 1, state]
    return (r0, 0) if r0 >= r1 else (r1, 1)


def _greedy_loop(  # pragma: no cover - compiled by numba
    lo: int,
    hi: int,
    codes: Any,
    position: Any,
    lay_after: Any,
    lay_rank: Any,
    bonus_after: Any,
    bonus_rank: Any,
    kind: Any,
    first: Any,
    second: Any,
    prob: Any,
    v_next: Any,
    v_after: Any,
    n: int,
    v_out: Any,
) -> None:
    width = v_out.shape[1]
    boats = width // n
    slots = lay_rank.shape[0]  # the island colours and the null one
    states = np.empty(n, dtype=np.int64)
    acc = np.empty(width)
    # top[c]: greedy's best and second-best island for a disc of colour c.
    top = np.empty((slots, 2), dtype=np.int64)
    # The best bonus island by its best side, and the second (over islands).
    island_rank = np.empty(n, dtype=np.int64)
    chain = np.empty(n)
    for j in range(lo, hi):
        code = codes[j]
        for i in range(n):
            states[i] = (code >> (3 * i)) & 7
        for c in range(slots):
            _best_two(lay_rank[c], states, top[c])
        b1 = -1
        b2 = -1
        for i in range(n):
            island_rank[i], _ = _bonus_best(bonus_rank, i, states[i])
            if b1 < 0 or island_rank[i] > island_rank[b1]:
                b2 = b1
                b1 = i
            elif b2 < 0 or island_rank[i] > island_rank[b2]:
                b2 = i
        _, side = _bonus_best(bonus_rank, b1, states[b1])
        home = v_next[
            position[code + ((bonus_after[b1, side, states[b1]] - states[b1]) << (3 * b1))]
        ]
        for e in range(width):
            acc[e] = 0.0
        q0 = 0.0
        q1 = 0.0
        q2 = 0.0
        for r in range(kind.size):
            p = prob[r]
            if kind[r] == 0:
                q0 += p
                continue
            if kind[r] == 1:
                c = first[r]
                ic = top[c, 0]
                if ic < 0:
                    q1 += p
                    continue
                one = code + ((lay_after[c, ic, states[ic]] - states[ic]) << (3 * ic))
                row = v_next[position[one]]
                for e in range(width - n):
                    acc[e] += p * row[n + e]
                continue
            u, v = first[r], second[r]
            cu, cv = top[u, 0] >= 0, top[v, 0] >= 0
            if not (cu or cv):
                q2 += p
                continue
            x, y = (v, u) if _swaps(cu, cv) else (u, v)
            # x is laid (greedy puts a disc that can be laid first), on island ix; then y.
            ix = top[x, 0]
            sx = lay_after[x, ix, states[ix]]
            one = code + ((sx - states[ix]) << (3 * ix))
            # Greedy's island for y after x: the best other island, or ix in its new state.
            other = top[y, 0] if top[y, 0] != ix else top[y, 1]
            iy = ix
            if other >= 0 and lay_rank[y, other, states[other]] > lay_rank[y, ix, sx]:
                iy = other
            before = sx if iy == ix else states[iy]
            if lay_rank[y, iy, before] > NO_RANK:
                two = one + ((lay_after[y, iy, before] - before) << (3 * iy))
                _put(acc, v_after[position[two]], 0, p, 3)
                continue
            # y goes back: Maurice walks one from the position after x, and where his
            # walk reaches his island, the bonus after x (none if x finished the game).
            row = v_next[position[one]]
            last = row
            other = b1 if b1 != ix else b2
            rank_x, side_x = _bonus_best(bonus_rank, ix, sx)
            ib, sb = ix, side_x
            if other >= 0:
                rank_o, side_o = _bonus_best(bonus_rank, other, states[other])
                if rank_o > rank_x:
                    ib, sb = other, side_o
            before = sx if ib == ix else states[ib]
            if bonus_rank[ib, sb, before] > NO_RANK:
                last = v_after[position[one + ((bonus_after[ib, sb, before] - before) << (3 * ib))]]
            for b in range(boats):
                for m in range(n - 1):
                    acc[b * n + m] += p * row[b * n + m + 1]
                acc[b * n + n - 1] += p * last[b * n]
        _within(v_out[j], acc, home, q0, q1, q2, n, chain)


def _numpy_greedy(
    codes: npt.NDArray[np.int64],
    position: npt.NDArray[np.int32],
    colour_side: npt.NDArray[np.int64],
    rolls: RollTable,
    v_next: npt.NDArray[Any],
    v_after: npt.NDArray[Any],
    v_out: npt.NDArray[Any],
    n: int,
) -> None:
    """The NumPy code kernel (greedy play), vectorised over the codes of a layer."""
    size, width = codes.size, v_out.shape[1]
    boats = width // n
    exact = v_out.dtype == object
    dtype = v_out.dtype
    zero: Any = Fraction(0) if exact else 0.0
    colours = colour_side.shape[0]
    power = 8 ** np.arange(n, dtype=np.int64)
    states = (codes[:, None] // power[None, :]) % 8

    def place(st: npt.NDArray[np.int64], colour: int) -> npt.NDArray[np.int64]:
        """Greedy's code after a disc of ``colour`` on positions ``st``, -1 where none takes it."""
        best_rank = np.full(st.shape[0], -(1 << 30), dtype=np.int64)
        out = np.full(st.shape[0], -1, dtype=np.int64)
        if colour >= colours:
            return out
        code = (st * power).sum(axis=1)
        for i in range(n):
            side = colour_side[colour, i]
            if side < 0:
                continue
            t = TRANS[st[:, i], side]
            rank = greedy_lay_rank(DISCS[st[:, i]], i)
            better = (t >= 0) & (rank > best_rank)
            best_rank[better] = rank[better]
            out[better] = code[better] + (t[better] - st[better, i]) * power[i]
        return out

    def bonus(st: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        best_rank = np.full(st.shape[0], -(1 << 30), dtype=np.int64)
        out = np.full(st.shape[0], -1, dtype=np.int64)
        code = (st * power).sum(axis=1)
        for i in range(n):
            for side in range(2):
                t = TRANS[st[:, i], side]
                rank = greedy_bonus_rank(DISCS[st[:, i]], i, side)
                better = (t >= 0) & (rank > best_rank)
                best_rank[better] = rank[better]
                out[better] = code[better] + (t[better] - st[better, i]) * power[i]
        return out

    def states_of(code: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        return (code[:, None] // power[None, :]) % 8

    lay = [place(states, c) for c in range(colours)]
    home = v_next[position[bonus(states)]]
    acc = np.zeros((size, width), dtype=dtype)
    if exact:
        acc[...] = zero
    q = [np.zeros(size, dtype=dtype) for _ in range(3)]
    for qk in q:
        qk[...] = zero
    nowhere = np.full(size, -1, dtype=np.int64)
    for r in range(rolls.size):
        prob: Any = rolls.exact[r] if exact else float(rolls.probability[r])
        kind, u, v = int(rolls.kind[r]), int(rolls.first[r]), int(rolls.second[r])
        if kind == BOAT_ONLY:
            q[0] += prob
            continue
        if kind == BOAT_AND_COLOUR:
            target = lay[u] if u < colours else nowhere
            rows = np.flatnonzero(target >= 0)
            acc[rows, : width - n] += prob * v_next[position[target[rows]], n:]
            q[1][target < 0] += prob
            continue
        lu = lay[u] if u < colours else nowhere
        lv = lay[v] if v < colours else nowhere
        cu, cv = lu >= 0, lv >= 0
        q[2][~(cu | cv)] += prob
        swap = greedy_swaps(cu, cv)
        for rows, x_code, y in (
            (np.flatnonzero(cu & ~swap), lu, v),
            (np.flatnonzero(swap), lv, u),
        ):
            if rows.size == 0:
                continue
            one = x_code[rows]
            two = place(states_of(one), y)
            done = two >= 0
            acc[rows[done]] += prob * v_after[position[two[done]]]
            back = rows[~done]
            if back.size:
                row = v_next[position[one[~done]]].reshape(back.size, boats, n)
                home_code = bonus(states_of(one[~done]))
                extra = row.copy()  # x finished the last lighthouse: won whatever y does
                went = home_code >= 0
                extra[went] = v_after[position[home_code[went]]].reshape(-1, boats, n)
                walked = np.empty((back.size, boats, n), dtype=dtype)
                walked[:, :, : n - 1] = row[:, :, 1:]
                walked[:, :, n - 1] = extra[:, :, 0]
                acc[back] += prob * walked.reshape(back.size, width)
    vals = v_out.reshape(size, boats, n)
    hm = home.reshape(size, boats, n)
    total = acc.reshape(size, boats, n)
    zeros = np.zeros(size, dtype=dtype)
    zeros[...] = zero
    for b in range(boats - 1, -1, -1):
        for m in range(n - 1, -1, -1):
            stay = vals[:, b + 1, m] if b + 1 < boats else zeros
            if b + 1 >= boats:
                w1 = zeros
            elif m + 1 < n:
                w1 = vals[:, b + 1, m + 1]
            else:
                w1 = hm[:, b + 1, (m + 1) % n]
            w2 = vals[:, b, m + 2] if m + 2 < n else hm[:, b, (m + 2) % n]
            vals[:, b, m] = total[:, b, m] + q[0] * stay + q[1] * w1 + q[2] * w2


# --- compiled versions and warming up ----------------------------------------------------------

_put = compiled(_put)
_within = compiled(_within)
_class_kernel = compiled(_class_loop)
# The policies' order rule, compiled for the greedy kernel (its ranks come as tables built
# from the policies' rank functions: greedy_tables).
_swaps = compiled(greedy_swaps)
_best_two = compiled(_best_two)
_bonus_best = compiled(_bonus_best)
_greedy_kernel = compiled(_greedy_loop)


def warm_up(policy: Policy, width: int = 2) -> None:
    """Compile (or load from numba's cache) the kernel ``policy`` uses, on empty arguments.

    Run in a thread while the class graph is built, it overlaps the first
    run's compilation with that work (the compiler releases the GIL for most of
    its time).

    Examples
    --------
    >>> warm_up("optimal")
    """
    if not HAVE_NUMBA:  # pragma: no cover
        return
    i64 = np.zeros(1, dtype=np.int64)
    f64 = np.zeros(1, dtype=np.float64)
    table = np.zeros((1, width), dtype=np.float64)
    if policy == "greedy":
        cube = np.zeros((1, 1, 8), dtype=np.int64)
        _greedy_kernel(
            0, 0, i64, np.zeros(1, dtype=np.int32), cube, cube, np.zeros((1, 2, 8), np.int64),
            np.zeros((1, 2, 8), np.int64), i64, i64, i64, f64, table, table, 1, table,
        )  # fmt: skip
        return
    _class_kernel(
        0, 0, i64, np.zeros(1, dtype=np.int32), np.zeros(1, dtype=np.int8),
        np.zeros(1, dtype=np.int8), np.zeros((1, 1), dtype=np.int64), i64, i64, i64, f64,
        table, table, 1, 1, policy == "random", table, table, np.zeros((5, width)),
        np.zeros((1, 2, width)), np.zeros(2, dtype=np.bool_),
    )  # fmt: skip


def _cached_on_disk(dispatcher: Any) -> bool | None:
    """Whether numba's on-disk cache holds ``dispatcher``'s machine code (None: no disk cache)."""
    try:
        index = Path(dispatcher._cache._cache_file._index_path)
    except AttributeError:  # no on-disk cache (numba's null cache), or another numba
        return None
    return index.exists()


def _core_to_spare() -> bool:
    """Whether a core is idle now: the 1-minute load average below the usable cores less one."""
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):  # pragma: no cover - no load average (Windows)
        return True
    return load <= threads() - 1


class Wait(Protocol):
    """Waits until a kernel is compiled, doing ``meanwhile()`` until it is or that says done."""

    def __call__(self, meanwhile: Callable[[], bool] | None = None) -> None:
        """Wait; ``meanwhile()`` (a short piece of work, False when none is left) runs first."""


def start_warm_up(policy: Policy, *, big: bool = False) -> Wait:
    """Start compiling (or loading) ``policy``'s layer kernel; return the call that waits for it.

    Parameters
    ----------
    policy : {"optimal", "random", "greedy"}
        The kernel to get ready.
    big : bool
        The solve is long (7 or 8 islands): when the kernel is not in numba's
        on-disk cache yet and a core is idle (the load average is below the
        cores this process may use, less one), another Python process compiles
        it into the cache while this one builds the class graph (numba compiles
        one function at a time per process, under its compiler lock, so a
        thread would wait for the graph kernels' compiling); the first call
        here then loads it. That process costs about 2 s of CPU more (its own
        start and numba's), a loss on a machine with no core to spare, where a
        thread compiles instead.

    Returns
    -------
    Wait
        Waits until the kernel is ready (an interrupt stops the other process
        and propagates), calling its argument ``meanwhile`` while it is not,
        until that returns False: work the caller would do later anyway (the
        class DP touches its tables' memory). Where the other process failed,
        the first call compiles the kernel itself: the answer never depends on it.

    Examples
    --------
    >>> start_warm_up("optimal")()
    """
    if not HAVE_NUMBA:  # pragma: no cover
        return lambda meanwhile=None: None
    kernel = _greedy_kernel if policy == "greedy" else _class_kernel
    if big and _cached_on_disk(kernel) is False and _core_to_spare():
        env = dict(os.environ)  # the child imports isles from where this process did
        env["PYTHONPATH"] = os.pathsep.join(filter(None, sys.path))
        code = f"from isles.solvers.lighthouse.kernel import warm_up; warm_up({policy!r})"
        try:
            process = subprocess.Popen(
                [sys.executable, "-c", code],
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        except OSError:
            process = None
        if process is not None:

            def wait(meanwhile: Callable[[], bool] | None = None) -> None:
                try:
                    while meanwhile is not None and process.poll() is None and meanwhile():
                        pass
                    process.wait()
                except BaseException:
                    process.kill()
                    process.wait()
                    raise

            return wait
    thread = threading.Thread(target=warm_up, args=(policy,), daemon=True)
    thread.start()

    def join(meanwhile: Callable[[], bool] | None = None) -> None:
        while meanwhile is not None and thread.is_alive() and meanwhile():
            pass
        thread.join()

    return join
