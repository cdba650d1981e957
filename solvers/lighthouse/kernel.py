"""Lighthouses: the values of one layer of classes from the layer above (the class kernel).

Implements docs/lighthouse.md ("The layer kernel"; seed 000_aeb701e368f40145.txt)
for optimal and random play over the classes of classes.py: a numba version,
compiled and run in parallel over a layer, and a NumPy one (the fallback without
numba, the reference in the tests, and the only one for Fractions); both compute
the same numbers, operation for operation. Also the ground the code kernel
(code_kernel.py, greedy play) shares: the backends, the roll table, and the
compiled helpers :func:`put` and :func:`within_card`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal, cast

import numpy as np
import numpy.typing as npt

from isles.models.errors import InvalidInput
from isles.models.lighthouse.caps import Policy
from isles.models.lighthouse.kit import Kit
from isles.models.lighthouse.rules import roll_outcomes
from isles.solvers.compiled import HAVE_NUMBA, compiled, in_parallel
from isles.solvers.lighthouse.classes import ClassLayer

__all__ = [
    "BACKENDS",
    "BOAT_AND_COLOUR",
    "BOAT_ONLY",
    "HAVE_NUMBA",
    "TWO_COLOURS",
    "Backend",
    "RollTable",
    "class_kernel",
    "finished_layer",
    "layer_values",
    "numpy_within",
    "one_more_width",
    "pick_backend",
    "put",
    "roll_table",
    "within_card",
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
            class_kernel(
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


def _filled(shape: tuple[int, ...], dtype: Any, zero: Any) -> npt.NDArray[Any]:
    """Zeros of ``dtype`` (Fraction zeros in an object array)."""
    out = np.zeros(shape, dtype=dtype)
    if out.dtype == object:
        out[...] = zero
    return out


class _NumpyLayer:
    """One layer of the NumPy class kernel: its successor arrays and the choices they make.

    The steps of :func:`_numpy_layer`, in the order of the numba kernel's (each
    colour's placement and the bonus, the rolls, the turns that lay no disc),
    with the same operations.
    """

    def __init__(
        self,
        layer: ClassLayer,
        perms: npt.NDArray[np.int64],
        width: int,
        colours: int,
        random: bool,
        dtype: Any,
    ) -> None:
        self.size, self.width, self.colours, self.random = layer.size, width, colours, random
        self.perms, self.dtype = perms, dtype
        self.exact = np.dtype(dtype).kind == "O"
        self.zero: Any = Fraction(0) if self.exact else 0.0
        self.succ, self.frame, count = _padded(layer, colours)
        self.weight: npt.NDArray[Any] = (
            count.astype(object) if self.exact else count.astype(np.float64)
        )
        self.takeable = self.succ[:, :, 0] >= 0
        self.totals = self.weight.sum(axis=2)
        self.none = np.zeros(self.size, dtype=bool)
        self.pairs: dict[tuple[int, int], npt.NDArray[Any]] = {}

    def combine(self, c: int, table: Any, slot: int | None) -> npt.NDArray[Any]:
        """Colour c's placements: the best (optimal) or weighted sum (random) of table rows."""
        succ, frame, weight = self.succ, self.frame, self.weight
        out = _filled((self.size, self.width), self.dtype, self.zero)
        for p in range(succ.shape[2]):
            rows = np.flatnonzero(succ[:, c, p] >= 0)
            if slot is None:
                vals = table[succ[rows, c, p]]
            else:
                vals = table[succ[rows, c, p], self.perms[frame[rows, c, p], slot]]
            if self.random:
                vals = weight[rows, c, p][:, None] * vals
                out[rows] = vals if p == 0 else out[rows] + vals
            else:
                out[rows] = vals if p == 0 else np.maximum(out[rows], vals)
        return out

    def placements(self, v_next: npt.NDArray[Any], g0: npt.NDArray[Any]) -> npt.NDArray[Any]:
        """Each colour's placement into ``g0[:, c]``; return the bonus disc's value."""
        takeable, totals = self.takeable, self.totals
        bonus = _filled((self.size, self.width), self.dtype, self.zero)
        for c in range(self.colours):
            placed = self.combine(c, v_next, None)
            tk = takeable[:, c]
            if self.random:
                bonus[tk] += placed[tk]
                placed[tk] = placed[tk] / totals[tk, c][:, None]
            g0[:, c] = placed
        if self.random:
            btotal = totals.sum(axis=1)
            has = btotal > 0
            bonus[has] = bonus[has] / btotal[has][:, None]
        else:
            # The best over the colours that some lighthouse takes (values are >= 0).
            bonus[...] = -1
            for c in range(self.colours):
                tk = takeable[:, c]
                bonus[tk] = np.maximum(bonus[tk], g0[tk, c])
        return bonus

    def pair(self, g0_next: npt.NDArray[Any], u: int, v: int) -> npt.NDArray[Any]:
        """Lay u (the policy's placement), then handle v: from the next layer's g0."""
        if (u, v) not in self.pairs:
            value = self.combine(u, g0_next, v)
            if self.random:
                tk = self.takeable[:, u]
                value[tk] = value[tk] / self.totals[tk, u][:, None]
            self.pairs[u, v] = value
        return self.pairs[u, v]

    def order(self, g0_next: npt.NDArray[Any], x: int, y: int) -> npt.NDArray[Any]:
        """Discs x then y: lay x and handle y; if no lighthouse takes x, y alone, walked one."""
        colours = self.colours
        out = _filled((self.size, self.width), self.dtype, self.zero)
        tx = self.takeable[:, x] if x < colours else self.none
        ty = self.takeable[:, y] if y < colours else self.none
        if x < colours:
            out[tx] = self.pair(g0_next, x, y)[tx]
        if y < colours:
            alone = ~tx & ty
            out[alone] = self.pair(g0_next, y, colours)[alone]
        return out

    def rolls(
        self, rolls: RollTable, g0: npt.NDArray[Any], g0_next: npt.NDArray[Any], n: int
    ) -> tuple[npt.NDArray[Any], list[npt.NDArray[Any]]]:
        """The rolls' sum over the decisions that lay discs, and the chances of those that
        lay none (``q``: the boat alone, one unusable colour and the boat, two unusable)."""
        size, width, colours, none = self.size, self.width, self.colours, self.none
        boats = width // n
        half: Any = Fraction(1, 2) if self.exact else 0.5
        acc = _filled((size, width), self.dtype, self.zero)
        q = [_filled((size,), self.dtype, self.zero) for _ in range(3)]
        for r in range(rolls.size):
            prob: Any = rolls.exact[r] if self.exact else float(rolls.probability[r])
            kind, u, v = int(rolls.kind[r]), int(rolls.first[r]), int(rolls.second[r])
            if kind == BOAT_ONLY:
                q[0] += prob
                continue
            if kind == BOAT_AND_COLOUR:
                lay = self.takeable[:, u] if u < colours else none
                rows = np.flatnonzero(lay)
                ahead = g0[rows, u].reshape(rows.size, boats, n)[:, 1:]
                acc[rows, : width - n] += prob * ahead.reshape(rows.size, width - n)
                q[1][~lay] += prob
                continue
            tu = self.takeable[:, u] if u < colours else none
            tv = self.takeable[:, v] if v < colours else none
            some = tu | tv
            best = self.order(g0_next, u, v)
            if u != v:
                other = self.order(g0_next, v, u)
                best = (best + other) * half if self.random else np.maximum(best, other)
            acc[some] += prob * best[some]
            q[2][~some] += prob
        return acc, q


def numpy_within(
    vals: npt.NDArray[Any],
    total: npt.NDArray[Any],
    home: npt.NDArray[Any],
    q: list[npt.NDArray[Any]],
    zero: Any,
) -> None:
    """The turns that lay no disc, vectorised over rows: :func:`within_card`'s NumPy twin.

    ``vals``, ``total`` and ``home`` have the shape (rows, boats, n): ``vals[:, b, m] =
    total + q0 * stay + q1 * walk1 + q2 * walk2``, from the last card and the last
    Maurice offset down (the boat moves, or Maurice walks without reaching home).
    """
    size, boats, n = vals.shape
    zeros = _filled((size,), vals.dtype, zero)
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
    step = _NumpyLayer(layer, perms, width, colours, random, v_out.dtype)
    bonus = step.placements(v_next, g0)
    acc, q = step.rolls(rolls, g0, g0_next, n)
    vals = v_out.reshape(size, boats, n)
    home = bonus.reshape(size, boats, n)
    numpy_within(vals, acc.reshape(size, boats, n), home, q, step.zero)
    walk1 = np.empty((size, boats, n), dtype=v_out.dtype)
    walk1[:, :, : n - 1] = vals[:, :, 1:]
    walk1[:, :, n - 1] = home[:, :, 0]
    walk1 = walk1.reshape(size, width)
    for c in range(colours):
        g0[:, c] = np.where(step.takeable[:, c, None], g0[:, c], walk1)
    g0[:, colours] = walk1


# --- numba: one class per iteration, parallel over chunks of the layer ------------------------


def put(dst: Any, src: Any, off: int, w: float, mode: int) -> None:  # pragma: no cover - numba
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


def within_card(
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


# This loop must stay whole: it is the class DP's hot loop (every class of every layer),
# and its steps split into compiled functions of their own cost 2-4% more CPU per solve
# (7 islands, 16 alternating runs, the same floats): numba calls them, it does not inline.
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
    # put's modes as run-time integers: numba compiles it once for them all (a
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
                put(row, v_next[s], 0, w, mode)
                blk = g0_next[s]
                if f == 0:
                    # The identity frame (three entries in four): the whole block at once.
                    put(flat_pair[c, :homes], blk, 0, w, mode)
                else:
                    for v in range(colours):
                        put(pair[c, v], blk, perms[f, v] * width, w, mode)
                if used == slots:
                    # The null disc (no frame moves it): s's walk of one, its home at a card's end.
                    got = v_next[s]
                    for b in range(boats):
                        for m in range(n - 1):
                            walk[b * n + m] = got[b * n + m + 1]
                        walk[b * n + n - 1] = blk[homes + b]
                    put(pair[c, null], walk, 0, w, mode)
                here += w
            if random:
                put(bonus, row, 0, 1.0, 3 if have_bonus else 0)
                btotal += here
                for e in range(width):
                    row[e] = row[e] / here
                for v in range(used):
                    line = pair[c, v]
                    for e in range(width):
                        line[e] = line[e] / here
            else:
                put(bonus, row, 0, 1.0, 1 if have_bonus else 0)
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
                    put(acc, a, 0, p, add)
                    continue
                b = pair[v, u] if tv else pair[u, null]
                if random:
                    for e in range(width):
                        both[e] = (a[e] + b[e]) * 0.5
                else:
                    put(both, a, 0, 1.0, copy)
                    put(both, b, 0, 1.0, best)
                put(acc, both, 0, p, add)
        # 3. Within the class, from the last card and the last Maurice offset down.
        within_card(v_out[j], acc, bonus, q0, q1, q2, n, chain)
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


# --- compiled versions --------------------------------------------------------------------------

put = compiled(put)
within_card = compiled(within_card)
class_kernel = compiled(_class_loop)
"""The class kernel compiled (numba's dispatcher; ``_class_loop`` itself without numba)."""
