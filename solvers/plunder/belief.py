"""Plunder: one player's exact belief over the deals, updated turn by turn (fast, for bots).

Implements docs/plunder.md ("Fast beliefs for bots"; seed
``seeds/003_cfc377110defcf34.txt``): the consistent deals as seen by a player
who knows their own code, kept as an explicit set and filtered by each new
turn; the same posterior and answer distributions as the counting passes
(:mod:`~isles.solvers.plunder.counting`, :mod:`~isles.solvers.plunder.flips`), and exact
draws of deals.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache

import numpy as np
import numpy.typing as npt

from isles.models.errors import InvalidInput, expect
from isles.models.plunder.codes import CATEGORIES, CODES, COPIES, VALUES, Code, answer
from isles.models.plunder.record import Observation, Record
from isles.solvers.plunder.posterior import Posterior

__all__ = ["Belief"]

IndexArray = npt.NDArray[np.intp]
BitArray = npt.NDArray[np.uint8]


@cache
def _partial_permutations(opponents: int) -> npt.NDArray[np.int8]:
    """Every injective map of ``opponents`` players into 5 values: shape (count, opponents).

    The other players' values in one category, as indices into the five
    values I do not hold (built once per process).
    """
    rows = list(itertools.permutations(range(VALUES - 1), opponents))
    return np.array(rows, dtype=np.int8).reshape(len(rows), opponents)


@dataclass(frozen=True)
class _Tables:
    """Per category, rows contiguous for ``take``: each partial permutation's part of
    opponent j's code index, and which opponent holds value v (one bit each)."""

    code_part: tuple[npt.NDArray[np.intp], ...]  # (opponents, perms): value * 36, * 6 or * 1
    holder: tuple[BitArray, ...]  # (6, perms): bit j set when opponent j holds value v


@cache
def _tables(opponents: int, code: Code) -> _Tables:
    perms = _partial_permutations(opponents).astype(np.intp)
    parts, holder = [], []
    for k in range(len(CATEGORIES)):
        rest = np.array([v for v in range(VALUES) if v != code.values[k]], dtype=np.intp)
        real = rest[perms]  # (perms, opponents)
        bits = np.zeros((VALUES, len(perms)), dtype=np.uint8)
        for j in range(opponents):
            bits[real[:, j], np.arange(len(perms))] |= np.uint8(1 << j)
        parts.append(np.ascontiguousarray(real.T * VALUES ** (2 - k)))
        holder.append(bits)
    return _Tables(tuple(parts), tuple(holder))


@cache
def _all_codes() -> tuple[Code, ...]:
    """Every code, by index (built once: a Code checks its values when made)."""
    return tuple(Code.from_index(i) for i in range(CODES))


def _entropy(counts: npt.NDArray[np.int64]) -> float:
    total = int(counts.sum())
    return sum(int(n) / total * math.log2(total / int(n)) for n in counts if n) if total else 0.0


@dataclass(frozen=True)
class Belief:
    """The deals a player who knows their own code still thinks possible, all equally likely.

    Build it with :meth:`from_record`; :meth:`observe` gives the belief after
    one more turn (the set is filtered, never rebuilt). Every count is exact.

    Attributes
    ----------
    players : int
    player : int
        Whose belief it is.
    code : Code
        Their code.
    turns : int
        Observations taken in.

    Notes
    -----
    My code fixed, the others hold, in each category, distinct values among
    the five I do not hold: a deal is three partial permutations ``(a, b,
    c)`` (at most 120 each). Before the first turn every triple is possible
    and nothing is stored (counts factorise); the first turn keeps the triples
    whose answers agree, found per group of permutations with the same holder
    of the clue's value (at most ``(players)**3`` groups); each later turn
    filters the kept triples. An answer vector is the OR of the three holder
    bits. docs/plunder.md, "Fast beliefs for bots".

    Examples
    --------
    >>> from isles.models.plunder.record import Me
    >>> r = Record(3, (Observation(1, Code(1, 2, 3), {0: False, 2: True}),), Me(0, Code(0, 0, 0)))
    >>> b = Belief.from_record(r)
    >>> b.deals
    3904
    >>> from isles.solvers.plunder.counting import posterior
    >>> b.posterior() == posterior(r)
    True
    """

    players: int
    player: int
    code: Code
    turns: int
    _abc: tuple[IndexArray, IndexArray, IndexArray] | None  # None: every triple
    # The opponents' code indices per stored deal, (opponents, deals), once asked for:
    # a later turn filters it instead of looking every code up again.
    _codes: list[npt.NDArray[np.int16]] = field(default_factory=list, compare=False, repr=False)
    # Their code counts, (opponents, 216), once asked for (bots ask for every target).
    _counts: list[npt.NDArray[np.intp]] = field(default_factory=list, compare=False, repr=False)

    @classmethod
    def start(cls, players: int, player: int, code: Code) -> Belief:
        """The belief before any turn.

        >>> Belief.start(6, 0, Code(0, 0, 0)).deals
        1728000
        """
        Record(players, (), None)  # checks players
        if not isinstance(code, Code):
            raise InvalidInput("code", code, "a Code")
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < players:
            raise InvalidInput("player", player, f"a player index in 0..{players - 1}")
        return cls(players, player, code, 0, None)

    @classmethod
    def from_record(cls, record: Record) -> Belief:
        """The belief of the record's writer (``record.me`` is required).

        Raises
        ------
        InvalidInput
            A record with no ``me``.
        """
        expect(record, Record, "record", "a Record")  # once, at the boundary
        if record.me is None:
            raise InvalidInput("record.me", None, "the player and code the belief is about")
        belief = cls.start(record.players, record.me.player, record.me.code)
        for obs in record.observations:
            belief = belief.observe(obs)
        return belief

    # -- structure ------------------------------------------------------------

    @property
    def opponents(self) -> tuple[int, ...]:
        """The other players, in index order (bit j of an answer vector is opponents[j])."""
        return tuple(p for p in range(self.players) if p != self.player)

    @property
    def _t(self) -> _Tables:
        return _tables(self.players - 1, self.code)

    @property
    def _perms(self) -> int:
        return len(_partial_permutations(self.players - 1))

    @property
    def deals(self) -> int:
        """Deals still possible (exact)."""
        return self._perms**3 if self._abc is None else len(self._abc[0])

    def _mask(self, active: int) -> int:
        return sum(1 << j for j, p in enumerate(self.opponents) if p != active)

    def _bits(self, clue: Code) -> BitArray:
        """The others' answer vector to ``clue`` in every stored deal."""
        assert self._abc is not None
        h = self._t.holder
        a, b, c = self._abc
        out: BitArray = h[0][clue.island].take(a) | h[1][clue.marker].take(b)
        out |= h[2][clue.trap].take(c)
        return out

    # -- turns ----------------------------------------------------------------

    def observe(self, obs: Observation) -> Belief:
        """The belief after one more turn.

        The observation is trusted: a turn of a checked :class:`Record` (its answers
        complete and mine agreeing with my code) or of a game played by the rules;
        nothing is checked again here, the bots' hot loop (docs/architecture.md,
        "Check once, at the boundary").
        """
        mask = target = 0
        for j, p in enumerate(self.opponents):
            if p == obs.active:
                continue
            mask |= 1 << j
            target |= int(obs.answers[p]) << j
        if self._abc is None:
            abc = self._first_filter(obs.clue, mask, target)
        else:
            keep = np.flatnonzero((self._bits(obs.clue) & mask) == target)
            a, b, c = self._abc
            abc = (a[keep], b[keep], c[keep])
            if self._codes:
                return Belief(
                    self.players,
                    self.player,
                    self.code,
                    self.turns + 1,
                    abc,
                    [self._codes[0][:, keep]],
                )
        return Belief(self.players, self.player, self.code, self.turns + 1, abc)

    def _first_filter(
        self, clue: Code, mask: int, target: int
    ) -> tuple[IndexArray, IndexArray, IndexArray]:
        """The triples agreeing with the first turn, built group by group (no full product)."""
        groups = []
        for k in range(len(CATEGORIES)):
            col = self._t.holder[k][clue.values[k]].astype(np.int64)
            groups.append({int(x): np.flatnonzero(col == x) for x in np.unique(col)})
        parts: list[tuple[IndexArray, ...]] = []
        for x, y, z in itertools.product(*(sorted(g) for g in groups)):
            if (x | y | z) & mask != target:
                continue
            ga, gb, gc = groups[0][x], groups[1][y], groups[2][z]
            a = np.repeat(ga, len(gb) * len(gc))
            b = np.tile(np.repeat(gb, len(gc)), len(ga))
            c = np.tile(gc, len(ga) * len(gb))
            parts.append((a, b, c))
        if not parts:
            empty = np.zeros(0, dtype=np.intp)
            return (empty, empty, empty)
        a, b, c = (np.concatenate([p[k] for p in parts]) for k in range(3))
        return (a, b, c)

    # -- answers --------------------------------------------------------------

    def code_counts(self, player: int) -> npt.NDArray[np.int64]:
        """Deals in which ``player`` holds each code (216 counts).

        >>> b = Belief.start(2, 0, Code(0, 0, 0))
        >>> int(b.code_counts(1).sum()), int(b.code_counts(1)[Code(1, 1, 1).index])
        (125, 1)
        """
        if player == self.player:
            out = np.zeros(CODES, dtype=np.int64)
            out[self.code.index] = self.deals
            return out
        j = self.opponents.index(player)
        part = self._t.code_part
        if self._abc is None:
            counts = [np.bincount(part[k][j], minlength=CODES) for k in range(3)]
            out = np.zeros(CODES, dtype=np.int64)
            for x in np.flatnonzero(counts[0]):
                for y in np.flatnonzero(counts[1]):
                    for z in np.flatnonzero(counts[2]):
                        out[x + y + z] = counts[0][x] * counts[1][y] * counts[2][z]
            return out
        if not self._codes:
            a, b, c = self._abc
            codes = np.empty((self.players - 1, len(a)), dtype=np.int16)
            for i in range(self.players - 1):
                codes[i] = part[0][i].take(a) + part[1][i].take(b) + part[2][i].take(c)
            self._codes.append(codes)
        if not self._counts:
            m = len(self.opponents)
            flat = self._codes[0].astype(np.intp) + (np.arange(m, dtype=np.intp) * CODES)[:, None]
            self._counts.append(np.bincount(flat.ravel(), minlength=m * CODES).reshape(m, CODES))
        row: npt.NDArray[np.int64] = self._counts[0][j].astype(np.int64)
        return row

    def best_code(self, player: int) -> tuple[Code, int]:
        """The most likely code of ``player`` (ties by code index) and its deal count."""
        counts = self.code_counts(player)
        c = int(np.argmax(counts))
        return _all_codes()[c], int(counts[c])

    def posterior(self) -> Posterior:
        """The same :class:`~isles.solvers.plunder.posterior.Posterior` as ``posterior(record)``."""
        counts = tuple(tuple(int(x) for x in self.code_counts(p)) for p in range(self.players))
        return Posterior(self.players, self.deals, counts)

    def answer_counts(self, clue: Code, active: int) -> npt.NDArray[np.int64]:
        """Deals per answer vector of the opponents other than ``active`` (bit j: opponents[j])."""
        mask = self._mask(active)
        size = 1 << (self.players - 1)
        if self._abc is not None:
            return np.bincount(self._bits(clue) & mask, minlength=size).astype(np.int64)
        # Every triple possible: the three categories are independent, OR-convolve them.
        dists = [
            np.bincount(self._t.holder[k][clue.values[k]] & mask, minlength=size) for k in range(3)
        ]
        out = np.zeros(size, dtype=np.int64)
        nz = [np.flatnonzero(d) for d in dists]
        for x in nz[0]:
            for y in nz[1]:
                for z in nz[2]:
                    out[x | y | z] += int(dists[0][x]) * int(dists[1][y]) * int(dists[2][z])
        return out

    def answer_distribution(self, clue: Code, active: int) -> dict[tuple[bool, ...], int]:
        """As :func:`isles.solvers.plunder.flips.answer_distribution` (my own answer included).

        >>> from isles.solvers.plunder.flips import answer_distribution
        >>> r = Record(3, (), None)
        >>> from isles.models.plunder.record import Me
        >>> r = Record(3, (), Me(2, Code(0, 1, 2)))
        >>> b = Belief.from_record(r)
        >>> b.answer_distribution(Code(0, 0, 0), 0) == answer_distribution(r, Code(0, 0, 0), 0)
        True
        """
        counts = self.answer_counts(clue, active)
        mine = answer(self.code, clue)
        answerers = [p for p in range(self.players) if p != active]
        out: dict[tuple[bool, ...], int] = {}
        for bits, n in enumerate(counts):
            if not n:
                continue
            vec = tuple(
                mine if p == self.player else bool(bits >> self.opponents.index(p) & 1)
                for p in answerers
            )
            out[vec] = int(n)
        return dict(sorted(out.items()))

    def flip_bits(
        self, clue: Code, active: int, seen: Sequence[Sequence[int]]
    ) -> list[tuple[int | None, float, list[tuple[int, int, int, float]]]]:
        """Expected bits of no flip and of each deck with a card left.

        Returns ``[(deck index or None, expected bits, [(value, copies left,
        copies in deck, bits), ...]), ...]`` in the order none, island, marker,
        trap; the card probabilities are ``left / in deck`` (docs/plunder.md,
        rule decision 6).
        """
        out: list[tuple[int | None, float, list[tuple[int, int, int, float]]]] = []
        if self._abc is not None:
            return self._flip_bits_stored(clue, active, seen)
        cache: dict[Code, float] = {}

        def bits(c: Code) -> float:
            if c not in cache:
                cache[c] = _entropy(self.answer_counts(c, active))
            return cache[c]

        out.append((None, bits(clue), []))
        for k in range(3):
            left = [COPIES - seen[k][v] for v in range(VALUES)]
            total = sum(left)
            if not total:
                continue
            cards = [
                (v, left[v], total, bits(clue.replace(CATEGORIES[k], v)))
                for v in range(VALUES)
                if left[v]
            ]
            out.append((k, sum(n / total * b for _, n, _, b in cards), cards))
        return out

    def _flip_bits_stored(
        self, clue: Code, active: int, seen: Sequence[Sequence[int]]
    ) -> list[tuple[int | None, float, list[tuple[int, int, int, float]]]]:
        """:meth:`flip_bits` on stored deals: per deck, the answer vectors for all six
        values at once (one gather and one count per deck, not three per value)."""
        assert self._abc is not None
        mask = self._mask(active)
        size = 1 << (self.players - 1)
        h = self._t.holder
        cols = [h[k].take(self._abc[k], axis=1) for k in range(3)]  # (6, deals) each
        now = [cols[k][clue.values[k]] for k in range(3)]
        out: list[tuple[int | None, float, list[tuple[int, int, int, float]]]] = []
        out.append(
            (None, _entropy(np.bincount((now[0] | now[1] | now[2]) & mask, minlength=size)), [])
        )
        offsets = (np.arange(VALUES, dtype=np.intp) * size)[:, None]
        for k in range(3):
            left = [COPIES - seen[k][v] for v in range(VALUES)]
            total = sum(left)
            if not total:
                continue
            rest = now[(k + 1) % 3] | now[(k + 2) % 3]
            vec = ((cols[k] | rest) & mask).astype(np.intp) + offsets
            counts = np.bincount(vec.ravel(), minlength=VALUES * size).reshape(VALUES, size)
            cards = [
                (v, left[v], total, _entropy(counts[v].astype(np.int64)))
                for v in range(VALUES)
                if left[v]
            ]
            out.append((k, sum(n / total * b for _, n, _, b in cards), cards))
        return out

    def sample(self, rng: np.random.Generator, size: int) -> list[tuple[Code, ...]]:
        """``size`` deals drawn uniformly (with replacement) from the possible ones: exact draws.

        >>> deals = Belief.start(2, 0, Code(0, 0, 0)).sample(np.random.default_rng(0), 2)
        >>> len(deals), deals[0][0]
        (2, Code(island=0, marker=0, trap=0))
        """
        if not self.deals:
            raise InvalidInput("belief", "inconsistent", "a consistent record to sample from")
        return self.deals_at(rng.integers(0, self.deals, size=size))

    def deals_at(self, rows: Sequence[int] | npt.NDArray[np.int64]) -> list[tuple[Code, ...]]:
        """The possible deals numbered ``rows`` (0 .. deals - 1, in the belief's order).

        >>> b = Belief.start(2, 0, Code(0, 0, 0))
        >>> len(b.deals_at(range(b.deals))) == b.deals == 125
        True
        """
        part = self._t.code_part
        r = np.asarray(rows, dtype=np.int64).reshape(-1)
        if self._abc is None:
            p = self._perms
            a, b, c = r // (p * p), r // p % p, r % p
        else:
            a, b, c = (np.asarray(x)[r] for x in self._abc)
        index = np.full((self.players, len(r)), self.code.index, dtype=np.int64)
        for j, q in enumerate(self.opponents):
            index[q] = part[0][j, a] + part[1][j, b] + part[2][j, c]
        codes = _all_codes()
        return [tuple(codes[i] for i in deal) for deal in index.T.tolist()]
