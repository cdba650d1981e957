"""Lighthouses: the values of one layer of classes from the layer above (the layer kernel).

Implements docs/lighthouse-engine.md ("The layer kernel") over the classes of
classes.py; the recurrence is docs/lighthouse.md's ("The dynamic programme"),
seed 000_aeb701e368f40145.txt. A numba kernel, parallel over a layer's classes,
and a NumPy one (the fallback without numba, the reference in the tests, and
the only one for Fractions) compute the same numbers, operation for operation.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal, cast

import numpy as np
import numpy.typing as npt

from isles.models.errors import InvalidInput
from isles.models.lighthouse import Kit, roll_outcomes
from isles.solvers.lighthouse_engine.classes import ClassLayer
from isles.solvers.lighthouse_engine.compiled import HAVE_NUMBA, compiled, in_parallel

__all__ = [
    "BACKENDS",
    "HAVE_NUMBA",
    "Backend",
    "RollTable",
    "finished_layer",
    "layer_values",
    "roll_table",
]

Backend = Literal["auto", "numba", "numpy"]
BACKENDS: tuple[Backend, ...] = ("auto", "numba", "numpy")

BOAT_ONLY, BOAT_AND_COLOUR, TWO_COLOURS = 0, 1, 2


@dataclass(frozen=True, eq=False)
class RollTable:
    """The roll outcomes of a kit in the order of ``roll_outcomes``, as kernel arrays.

    ``kind[r]``: 0 boat alone, 1 boat and one colour, 2 two colours (no boat);
    ``first[r]``, ``second[r]``: colour indices (the null index for a colour no
    island has, -1 when absent); ``probability`` as floats and as Fractions.
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
    >>> from isles.models.lighthouse import default_kit
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


def layer_values(
    layer: ClassLayer,
    perms: npt.NDArray[np.int64],
    rolls: RollTable,
    v_next: npt.NDArray[Any],
    g0_next: npt.NDArray[Any],
    v_out: npt.NDArray[Any],
    n: int,
    colours: int,
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
    g0_next : ndarray, shape (N', colours + 1, E)
        The next layer's one-more-disc table (see Returns).
    v_out : ndarray, shape (N, E)
        Filled with the values of this layer (float64, or object for Fractions).
    n, colours : int
        Islands and island colours.
    backend : {"auto", "numba", "numpy"}
        ``auto`` is numba when installed and the values are floats.
    out : ndarray, optional
        A contiguous scratch buffer of at least ``N * (colours + 1) * E`` values
        of ``v_out``'s dtype to hold the result (reused from layer to layer, it
        saves allocating and faulting in a large table per layer).

    Returns
    -------
    ndarray, shape (N, colours + 1, E)
        ``g0[j, c]``: the value of handling one more disc of colour ``c`` in
        class ``j`` before anything went back this turn: the best placement,
        or Maurice's walk of one when no lighthouse takes it (always for the
        null colour ``colours``). It is what the previous layer reads for the
        second disc of a roll.

    Raises
    ------
    InvalidInput
        ``backend`` is ``numba`` without numba, or with object (Fraction) values.

    Notes
    -----
    The arithmetic is that of docs/lighthouse.md's full-table DP, term for term:
    the rolls' contributions are added in the order of ``roll_outcomes``, then
    ``acc + q0 * stay + q1 * walk1 + q2 * walk2`` for the turns that lay no
    disc; maxima are exact. So both kernels give the full tables' floats.
    """
    use = _pick(backend, v_out.dtype)
    if use == "numba":
        g0 = _buffer(out, (layer.size, colours + 1, v_out.shape[1]), np.float64)
        flat_next = g0_next.reshape(g0_next.shape[0], -1)
        flat = g0.reshape(layer.size, -1)

        def body(lo: int, hi: int) -> None:
            _layer_kernel(
                lo,
                hi,
                layer.ptr,
                layer.succ,
                layer.frame,
                perms,
                rolls.kind,
                rolls.first,
                rolls.second,
                rolls.probability,
                v_next,
                flat_next,
                n,
                colours,
                v_out,
                flat,
            )

        in_parallel(layer.size, body, grain=2048)
        return cast(npt.NDArray[Any], g0)
    g0 = _buffer(out, (layer.size, colours + 1, v_out.shape[1]), v_out.dtype)
    _numpy_layer(layer, perms, rolls, v_next, g0_next, v_out, n, colours, g0)
    return cast(npt.NDArray[Any], g0)


def _buffer(out: npt.NDArray[Any] | None, shape: tuple[int, int, int], dtype: Any) -> Any:
    """A view of ``out`` with ``shape`` (a scratch buffer reused across layers), or a new array."""
    if out is None:
        return np.empty(shape, dtype=dtype)
    count = shape[0] * shape[1] * shape[2]
    return out.reshape(-1)[:count].reshape(shape)


def finished_layer(size: int, colours: int, width: int, dtype: Any) -> npt.NDArray[Any]:
    """The one-more-disc table of the finished class: every lighthouse full, value 1."""
    g0 = np.empty((size, colours + 1, width), dtype=dtype)
    g0[...] = Fraction(1) if np.dtype(dtype).kind == "O" else 1.0
    return g0


def _pick(backend: str, dtype: Any) -> str:
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


# --- NumPy: vectorised over the classes of the layer ---------------------------------------


def _padded(layer: ClassLayer, colours: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Successor lists as (N, colours, P) arrays of next-layer indices and frames (-1: none)."""
    counts = np.diff(layer.ptr).reshape(layer.size, colours)
    width = max(int(counts.max(initial=0)), 1)
    succ = np.full((layer.size, colours, width), -1, dtype=np.int64)
    frame = np.zeros((layer.size, colours, width), dtype=np.int64)
    entry = np.arange(layer.succ.size)
    owner = np.repeat(np.arange(layer.size * colours), np.diff(layer.ptr))
    rank = entry - layer.ptr[owner]
    succ[owner // colours, owner % colours, rank] = layer.succ
    frame[owner // colours, owner % colours, rank] = layer.frame
    return succ, frame


def _numpy_layer(
    layer: ClassLayer,
    perms: npt.NDArray[np.int64],
    rolls: RollTable,
    v_next: npt.NDArray[Any],
    g0_next: npt.NDArray[Any],
    v_out: npt.NDArray[Any],
    n: int,
    colours: int,
    g0: npt.NDArray[Any],
) -> None:
    """The NumPy layer kernel: ``v_out`` and the one-more-disc table ``g0`` of the layer."""
    size, width = layer.size, v_out.shape[1]
    boats = width // n
    exact = v_out.dtype == object
    dtype = v_out.dtype
    zero: Any = Fraction(0) if exact else 0.0
    succ, frame = _padded(layer, colours)
    takeable = succ[:, :, 0] >= 0
    # The best placement of one disc of each colour, over the next layer's values.
    for c in range(colours):
        best = np.full((size, width), -1, dtype=dtype)
        for p in range(succ.shape[2]):
            rows = np.flatnonzero(succ[:, c, p] >= 0)
            best[rows] = np.maximum(best[rows], v_next[succ[rows, c, p]])
        g0[:, c] = best
    bonus = np.full((size, width), -1, dtype=dtype)
    for c in range(colours):
        bonus = np.where(takeable[:, c, None], np.maximum(bonus, g0[:, c]), bonus)

    def ordered(u: int, v: int) -> tuple[npt.NDArray[Any], npt.NDArray[np.bool_]]:
        """Discs u then v: lay u and handle v, else (u goes back) lay v alone, walked one."""
        val = np.full((size, width), -1, dtype=dtype)
        lay_u = takeable[:, u] if u < colours else np.zeros(size, dtype=bool)
        lay_v = (takeable[:, v] if v < colours else np.zeros(size, dtype=bool)) & ~lay_u
        for p in range(succ.shape[2]):
            if u < colours:
                rows = np.flatnonzero(lay_u & (succ[:, u, p] >= 0))
                col = perms[frame[rows, u, p], v]
                val[rows] = np.maximum(val[rows], g0_next[succ[rows, u, p], col])
            if v < colours:
                rows = np.flatnonzero(lay_v & (succ[:, v, p] >= 0))
                val[rows] = np.maximum(val[rows], g0_next[succ[rows, v, p], colours])
        return val, lay_u | lay_v

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
            lay = takeable[:, u] if u < colours else np.zeros(size, dtype=bool)
            rows = np.flatnonzero(lay)
            ahead = g0[rows, u].reshape(rows.size, boats, n)[:, 1:].reshape(rows.size, width - n)
            acc[rows, : width - n] += prob * ahead
            q[1][~lay] += prob
            continue
        best, any_order = ordered(u, v)
        if u != v:
            other, other_any = ordered(v, u)
            both = any_order & other_any
            best[both] = np.maximum(best[both], other[both])
            only = other_any & ~any_order
            best[only] = other[only]
            any_order = any_order | other_any
        acc[any_order] += prob * best[any_order]
        q[2][~any_order] += prob

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


def _copy_row(out: Any, src: Any, row: int, off: int) -> None:  # pragma: no cover - numba
    line = src[row, off : off + out.size]
    for e in range(out.size):
        out[e] = line[e]


def _max_row(out: Any, src: Any, row: int, off: int) -> None:  # pragma: no cover - numba
    # "+ 0.0" is exact here (no value is -0.0) and keeps LLVM from turning the select
    # into a masked store, which is slow: the maxima run twice as fast with it.
    line = src[row, off : off + out.size]
    for e in range(out.size):
        x = line[e]
        y = out[e]
        out[e] = (y if y >= x else x) + 0.0


def _best_of(
    out: Any, lo: int, hi: int, succ: Any, frame: Any, perms: Any, slot: int, width: int, src: Any
) -> None:  # pragma: no cover - numba
    """out = the maximum over entries lo..hi-1 of the rows src[succ[k]] (slot translated)."""
    for k in range(lo, hi):
        off = (perms[frame[k], slot] * width) if slot >= 0 else 0
        if k == lo:
            _copy_row(out, src, succ[k], off)
        else:
            _max_row(out, src, succ[k], off)


def _layer_loop(  # pragma: no cover - compiled by numba
    lo: int,
    hi: int,
    ptr: Any,
    succ: Any,
    frame: Any,
    perms: Any,
    kind: Any,
    first: Any,
    second: Any,
    prob: Any,
    v_next: Any,
    g0_next: Any,
    n: int,
    colours: int,
    v_out: Any,
    g0_out: Any,
) -> None:
    width = v_out.shape[1]
    boats = width // n
    null = colours
    acc = np.empty(width)
    best = np.empty(width)
    other = np.empty(width)
    bonus = np.empty(width)
    alone = np.empty((colours, width))
    have_alone = np.zeros(colours, dtype=np.bool_)
    takeable = np.zeros(colours + 1, dtype=np.bool_)
    for j in range(lo, hi):
        base = j * colours
        for e in range(width):
            acc[e] = 0.0
            bonus[e] = -1.0
        for c in range(colours):
            start, stop = ptr[base + c], ptr[base + c + 1]
            takeable[c] = start < stop
            have_alone[c] = False
            if start < stop:
                row = g0_out[j, c * width : (c + 1) * width]
                _best_of(row, start, stop, succ, frame, perms, -1, width, v_next)
                for e in range(width):
                    x = row[e]
                    y = bonus[e]
                    bonus[e] = (y if y >= x else x) + 0.0
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
                found = _ordered(
                    j,
                    u,
                    v,
                    takeable,
                    have_alone,
                    alone,
                    ptr,
                    succ,
                    frame,
                    perms,
                    g0_next,
                    colours,
                    best,
                )
                if u != v and _ordered(
                    j,
                    v,
                    u,
                    takeable,
                    have_alone,
                    alone,
                    ptr,
                    succ,
                    frame,
                    perms,
                    g0_next,
                    colours,
                    other,
                ):
                    if found:
                        for e in range(width):
                            x = other[e]
                            y = best[e]
                            best[e] = (y if y >= x else x) + 0.0
                    else:
                        for e in range(width):
                            best[e] = other[e]
                        found = True
                if found:
                    for e in range(width):
                        acc[e] += p * best[e]
                else:
                    q2 += p
        for b in range(boats - 1, -1, -1):
            for m in range(n - 1, -1, -1):
                stay = 0.0
                w1 = 0.0
                if b + 1 < boats:
                    stay = v_out[j, (b + 1) * n + m]
                    if m + 1 < n:
                        w1 = v_out[j, (b + 1) * n + m + 1]
                    else:
                        w1 = bonus[(b + 1) * n + (m + 1) % n]
                w2 = v_out[j, b * n + m + 2] if m + 2 < n else bonus[b * n + (m + 2) % n]
                v_out[j, b * n + m] = acc[b * n + m] + q0 * stay + q1 * w1 + q2 * w2
        for c in range(colours + 1):
            if c < null and takeable[c]:
                continue
            off = c * width
            for b in range(boats):
                for m in range(n - 1):
                    g0_out[j, off + b * n + m] = v_out[j, b * n + m + 1]
                g0_out[j, off + b * n + n - 1] = bonus[b * n]


def _ordered_loop(  # pragma: no cover - compiled by numba
    j: int,
    u: int,
    v: int,
    takeable: Any,
    have_alone: Any,
    alone: Any,
    ptr: Any,
    succ: Any,
    frame: Any,
    perms: Any,
    g0_next: Any,
    colours: int,
    out: Any,
) -> bool:
    """Discs u then v: lay u and handle v, else (u went back) lay v alone and walk one."""
    width = out.size
    if takeable[u]:
        _best_of(
            out,
            ptr[j * colours + u],
            ptr[j * colours + u + 1],
            succ,
            frame,
            perms,
            v,
            width,
            g0_next,
        )
        return True
    if takeable[v]:
        if not have_alone[v]:
            # The null slot (Maurice walks one) is fixed by every frame.
            _best_of(
                alone[v],
                ptr[j * colours + v],
                ptr[j * colours + v + 1],
                succ,
                frame,
                perms,
                colours,
                width,
                g0_next,
            )
            have_alone[v] = True
        for e in range(width):
            out[e] = alone[v, e]
        return True
    return False


_copy_row = compiled(_copy_row, inline=True)
_max_row = compiled(_max_row, inline=True)
_best_of = compiled(_best_of, inline=True)
_ordered = compiled(_ordered_loop, inline=True)
_layer_kernel = compiled(_layer_loop)
