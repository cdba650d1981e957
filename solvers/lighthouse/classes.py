"""Lighthouses: the layered graph of classes, one disc at a time, with each successor's frame.

Implements docs/lighthouse.md ("Classes", "Successors and their frame"; seed
000_aeb701e368f40145.txt).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from isles.models.errors import InvalidInput
from isles.models.lighthouse.kit import DISCS_PER_LIGHTHOUSE, Kit
from isles.models.lighthouse.position import Position
from isles.solvers.compiled import HAVE_NUMBA, compiled, in_parallel
from isles.solvers.lighthouse.symmetry import POOLED, ClassCoding

__all__ = ["ClassGraph", "ClassIndex", "ClassLayer", "class_graph", "warm_up_graph"]

# Laying a colour on an open lighthouse: (state before, state after) when the
# colour is the island's first (side 0) or second (side 1). A third disc makes
# the lighthouse pooled: it then needs the other colour.
_LAY = {
    0: ((0, 1), (2, 3), (4, POOLED)),
    1: ((0, 2), (1, 4), (3, POOLED)),
}


@dataclass(frozen=True, eq=False)
class ClassLayer:
    """The classes with ``discs`` discs laid and their one-disc successors.

    ``keys`` are canonical keys in increasing order (a class's index in the
    layer is its rank). For class ``j`` and colour ``c`` (in the class's own
    frame), the entries ``ptr[j * C + c] .. ptr[j * C + c + 1] - 1`` list the
    distinct classes one disc of ``c`` can lead to: ``succ`` (index in the
    next layer), ``frame`` (the group element that carries the raw successor
    to its canonical form) and ``count`` (how many lighthouses of the class's
    representative lead there through that frame: random play weighs its
    options by it). No entry: no lighthouse takes ``c``.
    """

    discs: int
    keys: npt.NDArray[np.int64] = field(repr=False)
    ptr: npt.NDArray[np.int64] = field(repr=False)
    succ: npt.NDArray[np.int32] = field(repr=False)
    frame: npt.NDArray[np.int8] = field(repr=False)
    count: npt.NDArray[np.int8] = field(repr=False)

    @property
    def size(self) -> int:
        """Number of classes in the layer."""
        return int(self.keys.size)


@dataclass(frozen=True, eq=False)
class ClassIndex:
    """Where each class's values sit: the canonical keys of every layer, in order.

    ``keys[k]`` are the keys of the classes with ``first_discs + k`` discs laid,
    increasing; ``offsets[k]`` is the global index of the first of them (a
    value table has one row per class in that order).
    """

    coding: ClassCoding
    first_discs: int
    keys: tuple[npt.NDArray[np.int64], ...] = field(repr=False)
    offsets: npt.NDArray[np.int64] = field(repr=False)

    @property
    def size(self) -> int:
        """Number of classes."""
        return int(self.offsets[-1])

    @property
    def widest(self) -> int:
        """Classes in the widest layer."""
        return max(int(k.size) for k in self.keys)

    @property
    def group_size(self) -> int:
        """Elements of the colour group the classes are orbits of."""
        return self.coding.group.size

    def row(self, kit: Kit, position: Position) -> int:
        """The row of ``position``'s class, or -1 when the index does not hold it.

        Examples
        --------
        >>> from isles.models.lighthouse.kit import default_kit
        >>> from isles.solvers.lighthouse.symmetry import colour_group
        >>> kit = default_kit(2)
        >>> graph = class_graph(ClassCoding(colour_group(kit)), 0, 0)
        >>> first = Position((("red",), ()))
        >>> graph.index.row(kit, Position.start(kit)), graph.index.row(kit, first)
        (0, 1)
        """
        key, _ = self.coding.position_class(kit, position)
        return self.index(key, position.discs_laid)

    def index(self, key: int, discs: int) -> int:
        """Global index of the class with canonical ``key`` and ``discs`` laid, or -1."""
        k = discs - self.first_discs
        if not 0 <= k < len(self.keys):
            return -1
        keys = self.keys[k]
        j = int(np.searchsorted(keys, key))
        if j == keys.size or int(keys[j]) != key:
            return -1
        return int(self.offsets[k]) + j

    def indices(
        self, keys: npt.NDArray[np.int64], discs: npt.NDArray[np.int64]
    ) -> npt.NDArray[np.int64]:
        """Vectorised :meth:`index` (-1 where a class is absent)."""
        out = np.full(keys.size, -1, dtype=np.int64)
        for k, layer_keys in enumerate(self.keys):
            rows = np.flatnonzero(discs == self.first_discs + k)
            if rows.size == 0:
                continue
            j = np.minimum(np.searchsorted(layer_keys, keys[rows]), layer_keys.size - 1)
            found = layer_keys[j] == keys[rows]
            out[rows[found]] = self.offsets[k] + j[found]
        return out


@dataclass(frozen=True, eq=False)
class ClassGraph:
    """Every class reachable from a first class, layer by layer of discs laid.

    ``layers[k]`` holds the classes with ``index.first_discs + k`` discs laid;
    the last layer is the finished class alone.
    """

    index: ClassIndex
    layers: tuple[ClassLayer, ...]

    @property
    def size(self) -> int:
        """Number of classes."""
        return self.index.size


def _successors(
    coding: ClassCoding, keys: npt.NDArray[np.int64]
) -> tuple[
    npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]
]:
    """(row * C + colour, canonical successor key, frame, lighthouses) of every placement.

    A placement on a pooled lighthouse stands for every nearly full lighthouse
    that needs the colour: ``lighthouses`` counts them (1 for an open one).
    """
    size = coding.colours
    open_states, pool = coding.decode(keys)
    seen = coding.keys_under_group(open_states, pool)
    ow, pw = coding.open_weight, coding.pool_weight
    rowcol: list[npt.NDArray[np.int64]] = []
    succ: list[npt.NDArray[np.int64]] = []
    frames: list[npt.NDArray[np.int64]] = []
    weights: list[npt.NDArray[np.int64]] = []

    def add(
        rows: npt.NDArray[np.int64],
        colour: int,
        delta: npt.NDArray[np.int64],
        weight: npt.NDArray[np.int64],
    ) -> None:
        if rows.size == 0:
            return
        cand = seen[rows] + delta[None, :]
        frame = np.argmin(cand, axis=1)
        rowcol.append(rows * size + colour)
        succ.append(cand[np.arange(rows.size), frame])
        frames.append(frame)
        weights.append(weight)

    for i in range(coding.n):
        for side in (0, 1):
            colour, other = int(coding.pairs[i, side]), int(coding.pairs[i, 1 - side])
            for before, after in _LAY[side]:
                delta = ow[:, i, after] - ow[:, i, before]
                if after == POOLED:
                    delta = delta + pw[:, other]
                rows = np.flatnonzero(open_states[:, i] == before)
                add(rows, colour, delta, np.ones(rows.size, dtype=np.int64))
    for colour in range(size):
        rows = np.flatnonzero(pool[:, colour] > 0)
        add(rows, colour, -pw[:, colour], pool[rows, colour])
    if not rowcol:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty, empty
    return (
        np.concatenate(rowcol),
        np.concatenate(succ),
        np.concatenate(frames),
        np.concatenate(weights),
    )


def _sorted_unique(values: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Sorted distinct values (a sort and a mask: faster here than hashing)."""
    ordered = np.sort(values)
    keep = np.ones(ordered.size, dtype=bool)
    keep[1:] = ordered[1:] != ordered[:-1]
    return ordered[keep]


def class_graph(
    coding: ClassCoding,
    first_key: int,
    first_discs: int,
    progress: Callable[[int], None] | None = None,
    backend: str = "auto",
) -> ClassGraph:
    """The classes reachable from one class by laying discs, with their successor lists.

    Parameters
    ----------
    coding : ClassCoding
        The keys and the group.
    first_key : int
        Canonical key of the first class (0: every lighthouse empty).
    first_discs : int
        Discs laid in the first class.
    progress : callable, optional
        Called with the number of classes of each layer once it is built.
    backend : {"auto", "numba", "numpy"}
        Build with numba (parallel candidates, a hash table) or NumPy; the
        graphs are the same up to the order of each successor list.

    Returns
    -------
    ClassGraph
        Layers ``first_discs .. 4n``.

    Raises
    ------
    InvalidInput
        An unknown backend, or ``numba`` where numba is missing.

    Notes
    -----
    Every lighthouse configuration is built by laying discs one at a time, so
    a forward sweep from the empty class meets every class. From any other
    class it meets exactly the classes of the configurations that contain it,
    up to symmetry: if ``g`` carries a configuration ``S`` to its canonical
    form, it carries ``S`` plus a disc of colour ``c`` to the canonical form
    plus a disc of ``g(c)``, so canonical forms of successors are successors of
    canonical forms (orbits of a group, not of an arbitrary set of maps).

    References
    ----------
    .. [1] W. Burnside, *Theory of Groups of Finite Order*, 1897 (orbits of a
       permutation group acting on configurations).

    Examples
    --------
    >>> from isles.models.lighthouse.kit import default_kit
    >>> from isles.solvers.lighthouse.symmetry import colour_group
    >>> graph = class_graph(ClassCoding(colour_group(default_kit(2))), 0, 0)
    >>> [layer.size for layer in graph.layers]
    [1, 1, 2, 2, 3, 2, 2, 1, 1]
    """
    last = DISCS_PER_LIGHTHOUSE * coding.n
    expand = _expand_numba if _use_numba(backend) else _expand_numpy
    layers: list[ClassLayer] = []
    keys = np.array([first_key], dtype=np.int64)
    for discs in range(first_discs, last + 1):
        if progress is not None:
            progress(int(keys.size))
        nxt, ptr, succ, frame, count = expand(coding, keys)
        layers.append(ClassLayer(discs, keys, ptr, succ, frame, count))
        keys = nxt
    offsets = np.concatenate(([0], np.cumsum([layer.size for layer in layers]))).astype(np.int64)
    index = ClassIndex(coding, first_discs, tuple(layer.keys for layer in layers), offsets)
    return ClassGraph(index, tuple(layers))


def warm_up_graph(coding: ClassCoding) -> None:
    """Compile (or load from numba's cache) the graph kernels, expanding the empty class.

    A solve calls it first, so that compiling is a phase of its own progress.

    Examples
    --------
    >>> from isles.models.lighthouse.kit import default_kit
    >>> from isles.solvers.lighthouse.symmetry import colour_group
    >>> warm_up_graph(ClassCoding(colour_group(default_kit(2))))
    """
    if HAVE_NUMBA:
        _expand_numba(coding, np.zeros(1, dtype=np.int64))


Expansion = tuple[
    npt.NDArray[np.int64],
    npt.NDArray[np.int64],
    npt.NDArray[np.int32],
    npt.NDArray[np.int8],
    npt.NDArray[np.int8],
]


def _use_numba(backend: str) -> bool:
    if backend not in ("auto", "numba", "numpy"):
        raise InvalidInput("backend", backend, "one of ['auto', 'numba', 'numpy']")
    if backend == "numba" and not HAVE_NUMBA:
        raise InvalidInput("backend", backend, "numpy (numba is not installed)")
    return HAVE_NUMBA and backend != "numpy"


def _expand_numpy(coding: ClassCoding, keys: npt.NDArray[np.int64]) -> Expansion:
    """(next layer's keys, ptr, succ, frame, count) of one layer, vectorised over its classes."""
    size = coding.colours
    rowcol, succ_keys, frames, weights = _successors(coding, keys)
    nxt = _sorted_unique(succ_keys)
    sidx = np.searchsorted(nxt, succ_keys)
    # One entry per (class, colour, successor, frame). Two raw successors in one
    # orbit reach it through different frames and are different options for the
    # turn's second disc (its colour is translated by the frame), so both stay.
    width = max(nxt.size, 1)
    groups = coding.group.size
    combo, where = np.unique((rowcol * width + sidx) * groups + frames, return_inverse=True)
    count = np.bincount(where.ravel(), weights=weights, minlength=combo.size)
    rc = combo // (width * groups)
    ptr = np.searchsorted(rc, np.arange(keys.size * size + 1)).astype(np.int64)
    return (
        nxt,
        ptr,
        ((combo // groups) % width).astype(np.int32),
        (combo % groups).astype(np.int8),
        count.astype(np.int8),
    )


def _expand_numba(coding: ClassCoding, keys: npt.NDArray[np.int64]) -> Expansion:
    """The same as :func:`_expand_numpy`, compiled: candidates in parallel, then a hash."""
    colour_ptr, colour_island, colour_side = _colour_lists(coding)
    # Slots per class: at most one per (island, side) and one per pool colour.
    slots = int(colour_ptr[-1]) + coding.colours
    cand_key = np.empty(keys.size * slots, dtype=np.int64)
    cand_frame = np.empty(keys.size * slots, dtype=np.int8)
    cand_count = np.empty(keys.size * slots, dtype=np.int8)
    counts = np.zeros(keys.size * coding.colours, dtype=np.int64)

    def body(lo: int, hi: int) -> None:
        # The kernel's scratch: a class's open states, its pool, its keys under the group.
        work = np.empty(coding.n + coding.colours + coding.group.size, dtype=np.int64)
        _candidates_kernel(
            lo,
            hi,
            keys,
            coding.n,
            coding.colours,
            coding.radix,
            coding.caps,
            coding.open_weight,
            coding.pool_weight,
            coding.pairs,
            colour_ptr,
            colour_island,
            colour_side,
            _LAY_TABLE,
            cand_key,
            cand_frame,
            cand_count,
            counts,
            work,
        )

    in_parallel(keys.size, body)
    # The kernels' arrays are made here: NumPy's allocators, compiled into a kernel, each
    # cost a fraction of a second of compiling on a first run.
    ptr = np.zeros(counts.size + 1, dtype=np.int64)
    np.cumsum(counts, out=ptr[1:])
    total = int(ptr[-1])
    bits = max(1, (2 * total + 1).bit_length())  # a table of at least 2 * total + 2 slots
    table = np.full((1 << bits, 2), -1, dtype=np.int64)
    found = np.empty(total, dtype=np.int64)
    ident = np.empty(total, dtype=np.int64)
    frame = np.empty(total, dtype=np.int8)
    count = np.empty(total, dtype=np.int8)
    distinct = _assemble_kernel(
        cand_key, cand_frame, cand_count, ptr, coding.colours, bits, table, found, ident, frame,
        count,
    )  # fmt: skip
    found = found[:distinct]
    # Rank the distinct keys (NumPy's sort: compiling numba's would cost seconds).
    order = np.argsort(found)
    rank = np.empty(found.size, dtype=np.int32)
    rank[order] = np.arange(found.size, dtype=np.int32)
    return found[order], ptr, rank[ident], frame, count


# _LAY as a table: _LAY_TABLE[side, before] = after, or -1 when the lighthouse cannot take it.
_LAY_TABLE = np.full((2, POOLED + 1), -1, dtype=np.int64)
for _side, _moves in _LAY.items():
    for _before, _after in _moves:
        _LAY_TABLE[_side, _before] = _after


def _colour_lists(
    coding: ClassCoding,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """For each colour, the (island, side) pairs that show it, as CSR arrays."""
    islands: list[int] = []
    sides: list[int] = []
    ptr = [0]
    for colour in range(coding.colours):
        for i in range(coding.n):
            for side in (0, 1):
                if int(coding.pairs[i, side]) == colour:
                    islands.append(i)
                    sides.append(side)
        ptr.append(len(islands))
    return (
        np.array(ptr, dtype=np.int64),
        np.array(islands, dtype=np.int64),
        np.array(sides, dtype=np.int64),
    )


def _candidates(  # pragma: no cover - compiled by numba
    lo: int,
    hi: int,
    keys: Any,
    n: int,
    colours: int,
    radix: Any,
    caps: Any,
    ow: Any,
    pw: Any,
    pairs: Any,
    colour_ptr: Any,
    colour_island: Any,
    colour_side: Any,
    lay: Any,
    cand_key: Any,
    cand_frame: Any,
    cand_count: Any,
    counts: Any,
    work: Any,
) -> None:
    """Every distinct (successor key, frame) per (class, colour) of classes lo..hi-1.

    Class ``j``'s candidates fill ``cand_*[j * slots ...]``, colour by colour, with
    how many placements reach each; ``counts[j * colours + c]`` says how many
    candidates colour ``c`` has. ``work``: ``n + colours + group size`` scratch integers.
    """
    groups = ow.shape[0]
    slots = colour_ptr[colours] + colours
    open_states = work[:n]
    pool = work[n : n + colours]
    seen = work[n + colours : n + colours + groups]
    for j in range(lo, hi):
        rest = keys[j]
        for i in range(n):
            open_states[i] = rest % 6
            rest //= 6
        for c in range(colours):
            pool[c] = (rest // radix[c]) % (caps[c] + 1)
        for g in range(groups):
            total = 0
            for i in range(n):
                total += ow[g, i, open_states[i]]
            for c in range(colours):
                total += pw[g, c] * pool[c]
            seen[g] = total
        at = j * slots
        for c in range(colours):
            first = at
            for k in range(colour_ptr[c], colour_ptr[c + 1] + 1):
                best = -1
                frame = 0
                if k < colour_ptr[c + 1]:
                    i, side = colour_island[k], colour_side[k]
                    before = open_states[i]
                    after = lay[side, before]
                    if after < 0:
                        continue
                    other = pairs[i, 1 - side]
                    for g in range(groups):
                        shift = ow[g, i, after] - ow[g, i, before]
                        if after == 5:
                            shift += pw[g, other]
                        key = seen[g] + shift
                        if best < 0 or key < best:
                            best, frame = key, g
                else:
                    if pool[c] == 0:
                        continue
                    for g in range(groups):
                        key = seen[g] - pw[g, c]
                        if best < 0 or key < best:
                            best, frame = key, g
                # A pooled placement stands for every nearly full lighthouse needing c.
                weight = 1 if k < colour_ptr[c + 1] else pool[c]
                duplicate = False
                for e in range(first, at):
                    if cand_key[e] == best and cand_frame[e] == frame:
                        cand_count[e] += weight
                        duplicate = True
                if not duplicate:
                    cand_key[at] = best
                    cand_frame[at] = frame
                    cand_count[at] = weight
                    at += 1
            counts[j * colours + c] = at - first


def _assemble(
    cand_key: Any,
    cand_frame: Any,
    cand_count: Any,
    ptr: Any,
    colours: int,
    bits: int,
    table: Any,
    found: Any,
    ident: Any,
    frame: Any,
    count: Any,
) -> int:  # pragma: no cover - compiled by numba
    """Hash the candidates (``ptr``: where each (class, colour) starts); return the distinct keys.

    Fills ``found`` (the distinct keys, in the order met), ``ident`` (each
    entry's index among them), ``frame`` and ``count``; ``table`` (``2**bits``
    rows of -1, at least twice the entries) is the open-addressing table:
    ``table[h, 0]`` a key, ``table[h, 1]`` its index in ``found`` (-1: empty).
    """
    size = (ptr.size - 1) // colours if colours else 0
    slots = cand_key.size // size if size else 0
    mask = (1 << bits) - 1
    distinct = 0
    out = 0
    for j in range(size):
        at = j * slots
        used = ptr[(j + 1) * colours] - ptr[j * colours]
        for e in range(at, at + used):
            key = cand_key[e]
            h = np.int64((np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(64 - bits))
            while table[h, 1] >= 0 and table[h, 0] != key:
                h = (h + 1) & mask
            if table[h, 1] < 0:
                table[h, 0] = key
                table[h, 1] = distinct
                found[distinct] = key
                distinct += 1
            ident[out] = table[h, 1]
            frame[out] = cand_frame[e]
            count[out] = cand_count[e]
            out += 1
    return distinct


_candidates_kernel = compiled(_candidates)
_assemble_kernel = compiled(_assemble)
