"""Lighthouses: which positions have the same value? A kit's colour group, canonical classes.

Implements docs/lighthouse.md ("The colour group", "Classes") for the
cooperative game of docs/lighthouse.md (seed 000_aeb701e368f40145.txt).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import product

import numpy as np
import numpy.typing as npt

from isles.models.errors import InvalidInput
from isles.models.lighthouse.kit import BOAT, DISCS_PER_LIGHTHOUSE, Kit
from isles.models.lighthouse.position import Position

__all__ = [
    "MAX_GROUP_SIZE",
    "OPEN_STATES",
    "POOLED",
    "ClassCoding",
    "ColourGroup",
    "colour_group",
]

MAX_GROUP_SIZE = 64
"""Largest group used for canonical forms; beyond it, a stabiliser subgroup (see Notes)."""

POOLED = 5
"""Open state of a lighthouse with three or four discs: it lives in the pool counts."""

OPEN_STATES = 6
"""Open states: 0 empty; 1 / 2 one disc, first / second colour on top; 3 / 4 two
discs, first / second colour on top; 5 pooled."""

# Discs on a lighthouse in each open state (a pooled one is counted by the pool).
_OPEN_DISCS = np.array([0, 1, 1, 2, 2, 0], dtype=np.int64)
# The open state after swapping the island's two colours (a flip of the frame).
_FLIPPED = np.array([0, 2, 1, 4, 3, 5], dtype=np.int64)


@dataclass(frozen=True, eq=False)
class ColourGroup:
    """Colour permutations that are symmetries of a kit, with the island permutation of each.

    Parameters
    ----------
    colours : tuple of str
        The island colours, in the kit's order of first appearance (index ``c``).
        Index ``len(colours)`` stands for every die colour no island has (the
        *null* colour: such a disc always goes back).
    islands : tuple of (int, int)
        Each island's two colours as indices, Maurice's island first.
    colour_perms : ndarray of int64, shape (size, len(colours) + 1)
        ``colour_perms[g, c]`` is the image of colour ``c`` under element ``g``
        (the null colour is fixed). Element 0 is the identity.
    island_perms : ndarray of int64, shape (size, n)
        ``island_perms[g, i]`` is the island that island ``i`` is sent to.
    flips : ndarray of bool, shape (size, n)
        Whether island ``i``'s first colour goes to the second colour of its image.

    Notes
    -----
    An element is a permutation of the island colours that maps the kit's
    multiset of islands (unordered colour pairs) onto itself and leaves the
    distribution of a roll (boat or not, the multiset of colours, any colour
    no island has counted as null) unchanged. Maurice is a counter of islands
    walked, so which island is his does not matter, and the island order only
    matters to the greedy policy's tie-breaks (docs/lighthouse.md, "The simple
    policies"): the group is for optimal play only. Islands with the same
    pair are matched in their order, which keeps the set closed under composition.

    Examples
    --------
    >>> from isles.models.lighthouse.kit import default_kit
    >>> group = colour_group(default_kit(2))
    >>> group.size, group.colours
    (8, ('red', 'blue', 'green', 'orange'))
    >>> group.island_perms[group.size - 1].tolist()  # the last element swaps the islands
    [1, 0]
    """

    colours: tuple[str, ...]
    islands: tuple[tuple[int, int], ...]
    colour_perms: npt.NDArray[np.int64] = field(repr=False)
    island_perms: npt.NDArray[np.int64] = field(repr=False)
    flips: npt.NDArray[np.bool_] = field(repr=False)

    @property
    def size(self) -> int:
        """Number of elements (1 for the identity group)."""
        return int(self.colour_perms.shape[0])

    def images(self, g: int) -> dict[str, str]:
        """Element ``g`` as a mapping of colour names (for reading and for tests).

        Examples
        --------
        >>> from isles.models.lighthouse.kit import default_kit
        >>> group = colour_group(default_kit(8))
        >>> sorted(group.images(0).items())[:2]
        [('blue', 'blue'), ('green', 'green')]
        """
        perm = self.colour_perms[g]
        return {c: self.colours[int(perm[k])] for k, c in enumerate(self.colours)}


def _roll_distribution(
    kit: Kit, colours: Sequence[str]
) -> dict[tuple[bool, tuple[int, ...]], Fraction]:
    """Rolls as (boat shown, sorted colour indices with null = len(colours)) -> probability."""
    null = len(colours)
    index = {c: k for k, c in enumerate(colours)}
    weight = Fraction(1, len(kit.dice[0]) * len(kit.dice[1]))
    dist: dict[tuple[bool, tuple[int, ...]], Fraction] = {}
    for f1, f2 in product(*kit.dice):
        faces = [index.get(f, null) for f in (f1, f2) if f != BOAT]
        key = (BOAT in (f1, f2), tuple(sorted(faces)))
        dist[key] = dist.get(key, Fraction(0)) + weight
    return dist


def _pair_automorphisms(
    pairs: npt.NDArray[np.int64], size: int, fixed: int, cap: int
) -> list[list[int]] | None:
    """Permutations of ``size`` colours preserving the pair multiplicities, fixing ``0..fixed-1``.

    None when there are more than ``cap`` (the caller then fixes more colours).
    """
    adj = np.zeros((size, size), dtype=np.int64)
    for a, b in pairs:
        adj[a, b] += 1
        adj[b, a] += 1
    degree = adj.sum(axis=1)
    found: list[list[int]] = []
    image = [-1] * size
    used = [False] * size

    def extend(x: int) -> bool:
        if x == size:
            found.append(list(image))
            return len(found) <= cap
        candidates = [x] if x < fixed else range(size)
        for y in candidates:
            if used[y] or degree[y] != degree[x]:
                continue
            if any(adj[y, image[z]] != adj[x, z] for z in range(x)) or adj[y, y] != adj[x, x]:
                continue
            image[x], used[y] = y, True
            ok = extend(x + 1)
            image[x], used[y] = -1, False
            if not ok:
                return False
        return True

    return found if extend(0) else None


def colour_group(
    kit: Kit, *, symmetric: bool = True, max_size: int = MAX_GROUP_SIZE
) -> ColourGroup:
    """The colour symmetries of ``kit`` (or the identity alone when ``symmetric`` is False).

    Parameters
    ----------
    kit : Kit
        Any kit of docs/lighthouse.md ("Formats").
    symmetric : bool
        False forces the identity group (every class is one lighthouse code,
        up to the pooling of full and nearly full lighthouses).
    max_size : int
        Largest group kept. A larger group is replaced by the subgroup fixing
        its first colours one by one until it fits (a pointwise stabiliser is
        a subgroup, so the classes stay orbits; there are just more of them).

    Returns
    -------
    ColourGroup
        Element 0 is the identity; the others in lexicographic order of images.

    Raises
    ------
    InvalidInput
        ``max_size`` below 1.

    Notes
    -----
    The default 8-island kit has 8 elements: its islands use every pair of
    the five colours but red-orange and blue-purple, so the symmetries are the
    permutations of red, orange, blue and purple that keep those two missing
    pairs (a dihedral group of order 8) with green fixed; its dice show each
    colour once, so every such permutation keeps the roll distribution. The
    automorphisms of the colour multigraph (islands as edges) are found by
    backtracking over colours, pruned by degree and by the edges to the colours
    already placed; those that change the roll distribution are dropped.

    References
    ----------
    .. [1] B. D. McKay and A. Piperno, "Practical graph isomorphism, II",
       J. Symbolic Computation 60 (2014): automorphism groups by backtracking
       with refinement (here the plain backtracking, graphs of a few vertices).
    .. [2] docs/lighthouse.md, "The colour group".

    Examples
    --------
    >>> from isles.models.lighthouse.kit import default_kit
    >>> colour_group(default_kit(8)).size, colour_group(default_kit(8), symmetric=False).size
    (8, 1)
    """
    if max_size < 1:
        raise InvalidInput("max_size", max_size, "at least 1")
    colours = kit.colours
    index = {c: k for k, c in enumerate(colours)}
    islands = tuple((index[a], index[b]) for a, b in kit.islands)
    pairs = np.array(islands, dtype=np.int64).reshape(-1, 2)
    size = len(colours)
    perms: list[list[int]] = [list(range(size))]
    if symmetric:
        dist = _roll_distribution(kit, colours)
        for fixed in range(size + 1):
            found = _pair_automorphisms(pairs, size, fixed, 10 * max_size)
            if found is None:
                continue
            kept = [p for p in found if _keeps_rolls(p, dist)]
            if len(kept) <= max_size:
                perms = sorted(kept, key=lambda p: (p != list(range(size)), p))
                break
    n = len(islands)
    cperm = np.empty((len(perms), size + 1), dtype=np.int64)
    iperm = np.empty((len(perms), n), dtype=np.int64)
    flips = np.zeros((len(perms), n), dtype=bool)
    for g, perm in enumerate(perms):
        cperm[g, :size] = perm
        cperm[g, size] = size
        taken = [False] * n
        for i, (a, b) in enumerate(islands):
            target = {perm[a], perm[b]}
            j = next(j for j in range(n) if not taken[j] and set(islands[j]) == target)
            taken[j] = True
            iperm[g, i] = j
            flips[g, i] = perm[a] != islands[j][0]
    return ColourGroup(colours, islands, cperm, iperm, flips)


def _keeps_rolls(perm: list[int], dist: dict[tuple[bool, tuple[int, ...]], Fraction]) -> bool:
    null = len(perm)
    for (boat, faces), p in dist.items():
        moved = tuple(sorted(perm[f] if f < null else null for f in faces))
        if dist.get((boat, moved)) != p:
            return False
    return True


@dataclass(frozen=True, eq=False)
class ClassCoding:
    """Integer keys of lighthouse classes, their decoding and their canonical form.

    A class describes the lighthouses of a position up to what can matter for
    optimal play (docs/lighthouse.md, "Classes"): the *open* state of
    each lighthouse with at most two discs (:data:`OPEN_STATES`), and for the
    others only the *pool*: how many lighthouses with one disc left need each
    colour (a lighthouse with three discs needs exactly the colour opposite
    its top disc, whatever its island), the finished ones being what is left.

    ``key = sum(open[i] * 6**i) + 6**n * sum(pool[c] * radix[c])`` where
    ``radix`` is the mixed radix of the pool counts (``pool[c]`` is at most
    the number of islands of colour ``c``). The canonical key of a class is
    the least key of its images under the group; the element reaching it is
    the class's *frame*: a colour ``c`` of the raw position is colour
    ``colour_perms[frame, c]`` of the canonical one.

    Parameters
    ----------
    group : ColourGroup
        The symmetries used (the identity group gives no merging beyond the pool).

    Raises
    ------
    InvalidInput
        A kit whose keys would not fit in 62 bits (never up to 8 islands).

    References
    ----------
    .. [1] B. D. McKay, "Isomorph-free exhaustive generation", J. Algorithms 26
       (1998): canonical forms as the least image under a group.

    Examples
    --------
    >>> from isles.models.lighthouse.kit import default_kit
    >>> kit = default_kit(2)
    >>> coding = ClassCoding(colour_group(kit))
    >>> open_states, pool = coding.state_of(kit, (("red", "blue", "red"), ("green",)))
    >>> open_states.tolist(), pool.tolist()  # island 0 pooled: it needs blue
    ([5, 1], [0, 1, 0, 0])
    """

    group: ColourGroup
    n: int = field(init=False)
    colours: int = field(init=False)
    pairs: npt.NDArray[np.int64] = field(init=False, repr=False)
    radix: npt.NDArray[np.int64] = field(init=False, repr=False)
    caps: npt.NDArray[np.int64] = field(init=False, repr=False)
    base: int = field(init=False)
    open_weight: npt.NDArray[np.int64] = field(init=False, repr=False)
    pool_weight: npt.NDArray[np.int64] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        group = self.group
        n, size = len(group.islands), len(group.colours)
        pairs = np.array(group.islands, dtype=np.int64).reshape(n, 2)
        caps = np.bincount(pairs.ravel(), minlength=size).astype(np.int64)
        radix = np.cumprod(np.concatenate(([1], caps[:-1] + 1))).astype(np.int64)
        base = OPEN_STATES**n
        if base * int(np.prod(caps + 1, dtype=object)) >= 2**62:
            raise InvalidInput("islands", n, "a kit whose class keys fit in 62 bits")
        powers = OPEN_STATES ** np.arange(n, dtype=np.int64)
        states = np.arange(OPEN_STATES, dtype=np.int64)
        # open_weight[g, i, s]: the key contribution of state s on island i, seen through g.
        ow = np.empty((group.size, n, OPEN_STATES), dtype=np.int64)
        for g in range(group.size):
            for i in range(n):
                mapped = _FLIPPED[states] if group.flips[g, i] else states
                ow[g, i] = mapped * powers[group.island_perms[g, i]]
        pw = base * radix[group.colour_perms[:, :size]]
        for name, value in (
            ("n", n),
            ("colours", size),
            ("pairs", pairs),
            ("radix", radix),
            ("caps", caps),
            ("base", base),
            ("open_weight", ow),
            ("pool_weight", pw),
        ):
            object.__setattr__(self, name, value)

    # --- keys ---------------------------------------------------------------------------

    def keys_under_group(
        self, open_states: npt.NDArray[np.int64], pool: npt.NDArray[np.int64]
    ) -> npt.NDArray[np.int64]:
        """Keys of the images of each class under each element, shape (N, group size)."""
        out = (pool @ self.pool_weight.T).astype(np.int64)
        for i in range(self.n):
            out += self.open_weight[:, i, :][:, open_states[:, i]].T
        return out

    def canonical(
        self, open_states: npt.NDArray[np.int64], pool: npt.NDArray[np.int64]
    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """Canonical keys and frames of raw classes given as (open, pool) rows.

        Examples
        --------
        >>> from isles.models.lighthouse.kit import default_kit
        >>> coding = ClassCoding(colour_group(default_kit(8)))
        >>> o, p = coding.state_of(default_kit(8), Position.start(default_kit(8)).discs)
        >>> coding.canonical(o[None], p[None])[0].tolist()
        [0]
        """
        keys = self.keys_under_group(open_states, pool)
        frame = np.argmin(keys, axis=1).astype(np.int64)
        least: npt.NDArray[np.int64] = keys[np.arange(keys.shape[0]), frame]
        return least, frame

    def decode(
        self, keys: npt.NDArray[np.int64]
    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """(open states (N, n), pool counts (N, colours)) of keys."""
        keys = np.asarray(keys, dtype=np.int64)
        open_states = np.empty((keys.size, self.n), dtype=np.int64)
        rest = keys.copy()
        for i in range(self.n):
            open_states[:, i] = rest % OPEN_STATES
            rest //= OPEN_STATES
        pool = (rest[:, None] // self.radix[None, :]) % (self.caps[None, :] + 1)
        return open_states, pool.astype(np.int64)

    def discs_laid(
        self, open_states: npt.NDArray[np.int64], pool: npt.NDArray[np.int64]
    ) -> npt.NDArray[np.int64]:
        """Discs laid in each class: open discs, 4 per pooled lighthouse, less the pool."""
        pooled = (open_states == POOLED).sum(axis=1)
        laid = _OPEN_DISCS[open_states].sum(axis=1) + DISCS_PER_LIGHTHOUSE * pooled
        out: npt.NDArray[np.int64] = (laid - pool.sum(axis=1)).astype(np.int64)
        return out

    # --- positions ----------------------------------------------------------------------

    def state_of(
        self, kit: Kit, discs: Sequence[Sequence[str]]
    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """The raw (open, pool) of a position's lighthouses (bottom-to-top discs per island)."""
        index = {c: k for k, c in enumerate(self.group.colours)}
        open_states = np.zeros(self.n, dtype=np.int64)
        pool = np.zeros(self.colours, dtype=np.int64)
        for i, (island, stack) in enumerate(zip(kit.islands, discs, strict=True)):
            height = len(stack)
            if height >= DISCS_PER_LIGHTHOUSE - 1:
                open_states[i] = POOLED
                if height == DISCS_PER_LIGHTHOUSE - 1:
                    need = island[1] if stack[-1] == island[0] else island[0]
                    pool[index[need]] += 1
            elif height:
                open_states[i] = 2 * height - (1 if stack[-1] == island[0] else 0)
        return open_states, pool

    def codes_to_state(
        self, codes: npt.NDArray[np.int64]
    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """Raw (open, pool) of lighthouse codes ``sum(state_i * 8**i)`` of docs/lighthouse.md.

        The 8 states of a lighthouse (``position_index`` of the full-table DP):
        0 empty; ``2c - 1`` / ``2c``: ``c`` discs, first / second colour on top;
        7 finished.
        """
        codes = np.asarray(codes, dtype=np.int64)
        open_states = np.empty((codes.size, self.n), dtype=np.int64)
        pool = np.zeros((codes.size, self.colours), dtype=np.int64)
        rows = np.arange(codes.size)
        for i in range(self.n):
            state = (codes // 8**i) % 8
            open_states[:, i] = np.where(state >= 5, POOLED, state)
            a, b = self.pairs[i]
            # Three discs, first colour on top (5) needs the second colour, and vice versa.
            np.add.at(pool, (rows[state == 5], b), 1)
            np.add.at(pool, (rows[state == 6], a), 1)
        return open_states, pool

    def position_class(self, kit: Kit, position: Position) -> tuple[int, int]:
        """(canonical key, frame) of a position's lighthouses.

        Examples
        --------
        >>> from isles.models.lighthouse.kit import default_kit
        >>> kit = default_kit(8)
        >>> coding = ClassCoding(colour_group(kit))
        >>> blue = Position((("blue",), *[()] * 7))
        >>> purple = Position(((), (), ("purple",), *[()] * 5))
        >>> coding.position_class(kit, blue)[0] == coding.position_class(kit, purple)[0]
        True
        """
        o, p = self.state_of(kit, position.discs)
        key, frame = self.canonical(o[None], p[None])
        return int(key[0]), int(frame[0])
