"""Plunder deduction: what the answers prove, the exact posterior, and what to do next.

Implements RULES.md section 3 (seed 003_cfc377110defcf34.txt): Z3 for the
smallest conflict and the proofs of forced values, exact counting of deals by
dynamic programming over used values, flip advice in bits, guess advice.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt
import z3
from scipy import sparse

from isles.models.errors import InvalidInput
from isles.models.plunder import (
    CATEGORIES,
    CODES,
    COPIES,
    VALUES,
    Category,
    Code,
    Record,
    answer,
    dig_points,
)

__all__ = [
    "ENTROPY_ERROR_BITS",
    "AnswerId",
    "Deduction",
    "FlipAdvice",
    "FlipOption",
    "ForcedValue",
    "Guess",
    "Posterior",
    "Status",
    "allowed_codes",
    "answer_distribution",
    "deduce",
    "flip_advice",
    "forced_values",
    "guess_advice",
    "minimal_conflict",
    "posterior",
    "smallest_conflict",
    "z3_consistent",
]

IntArray = npt.NDArray[np.int64]

ENTROPY_ERROR_BITS = 1e-9
"""Bound on the absolute error of every entropy / information gain (float64 from
exact integer counts: at most 2**5 terms, each with relative error ~1e-15)."""

# Value of every code index per category, shape (3, 216).
_CODE_VALUES: IntArray = np.array(
    [[Code.from_index(c).values[k] for c in range(CODES)] for k in range(3)], dtype=np.int64
)


class Status(StrEnum):
    """Whether some deal agrees with the whole record (decided exactly)."""

    CONSISTENT = "consistent"
    INCONSISTENT = "inconsistent"


@dataclass(frozen=True, order=True)
class AnswerId:
    """One answer of the record: ``player``'s answer in ``observations[observation]``."""

    observation: int
    player: int


@dataclass(frozen=True)
class ForcedValue:
    """A value that every consistent deal gives to a player, with its proof.

    ``proof`` is a smallest set of answers that forces it (with the distinctness
    of cards and my own code as known facts): no fewer answers force it, and
    dropping any one of them lets the player hold another value.
    """

    player: int
    category: Category
    value: int
    proof: tuple[AnswerId, ...]


# -- allowed codes -------------------------------------------------------------


def _hits(clue: Code) -> npt.NDArray[np.bool_]:
    """Which of the 216 codes answer yes to ``clue``."""
    hit: npt.NDArray[np.bool_] = (
        (_CODE_VALUES[0] == clue.island)
        | (_CODE_VALUES[1] == clue.marker)
        | (_CODE_VALUES[2] == clue.trap)
    )
    return hit


def allowed_codes(record: Record) -> IntArray:
    """0/1 array, shape (players, 216): the codes each player may hold on their own.

    A code is allowed for a player when it agrees with that player's answers
    (and equals my code, for me). Distinctness between players is not applied.

    Examples
    --------
    >>> from isles.models.plunder import Observation
    >>> r = Record(2, (Observation(0, Code(0, 0, 0), {1: False}),))
    >>> allowed_codes(r).sum(axis=1).tolist()
    [216, 125]
    """
    w = np.ones((record.players, CODES), dtype=np.int64)
    if record.me is not None:
        w[record.me.player] = 0
        w[record.me.player, record.me.code.index] = 1
    for obs in record.observations:
        hit = _hits(obs.clue)
        for p, a in obs.answers.items():
            w[p] &= hit if a else ~hit
    return w


# -- counting deals: dynamic programming over the sets of used values ------------


@dataclass(frozen=True)
class _Layer:
    """Transitions from players 0..k-1 placed to players 0..k placed.

    A state is the triple of sets of used values (island, marker, trap), each a
    k-subset of 0..5, indexed compactly. Each edge adds one code whose values
    are all unused. The sparse 0/1 matrices sum edge values into the target
    state, the source state or the code.
    """

    src: IntArray
    dst: IntArray
    code: IntArray
    to_dst: sparse.csr_matrix
    to_src: sparse.csr_matrix
    to_code: sparse.csr_matrix


@cache
def _layer(k: int) -> _Layer:
    masks = [m for m in range(1 << VALUES) if m.bit_count() == k]
    masks_next = [m for m in range(1 << VALUES) if m.bit_count() == k + 1]
    pos_next = {m: i for i, m in enumerate(masks_next)}
    pairs = np.array(
        [
            (i, v, pos_next[m | 1 << v])
            for i, m in enumerate(masks)
            for v in range(VALUES)
            if not m >> v & 1
        ],
        dtype=np.int64,
    )
    q = len(pairs)
    a, b, c = (g.ravel() for g in np.meshgrid(*(np.arange(q),) * 3, indexing="ij"))
    n, n_next = len(masks), len(masks_next)
    src = (pairs[a, 0] * n + pairs[b, 0]) * n + pairs[c, 0]
    code = (pairs[a, 1] * VALUES + pairs[b, 1]) * VALUES + pairs[c, 1]
    dst = (pairs[a, 2] * n_next + pairs[b, 2]) * n_next + pairs[c, 2]
    edges = np.arange(len(src))
    ones = np.ones(len(src), dtype=np.int64)

    def incidence(rows: IntArray, size: int) -> sparse.csr_matrix:
        return sparse.csr_matrix((ones, (rows, edges)), shape=(size, len(src)))

    return _Layer(
        src,
        dst,
        code,
        incidence(dst, n_next**3),
        incidence(src, n**3),
        incidence(code, CODES),
    )


def _forward(w: IntArray) -> list[IntArray]:
    """``f[k][s]``: ways to give players 0..k-1 allowed codes using exactly state s."""
    f = [np.ones(1, dtype=np.int64)]
    for k in range(len(w)):
        lay = _layer(k)
        f.append(np.asarray(lay.to_dst @ (f[k][lay.src] * w[k][lay.code]), dtype=np.int64))
    return f


def _backward(w: IntArray) -> list[IntArray]:
    """``b[k][s]``: ways to give players k..n-1 allowed codes after state s."""
    n = len(w)
    b: list[IntArray] = [np.zeros(0, dtype=np.int64)] * n
    b.append(np.ones(_layer(n - 1).to_dst.shape[0], dtype=np.int64))
    for k in range(n - 1, -1, -1):
        lay = _layer(k)
        b[k] = np.asarray(lay.to_src @ (w[k][lay.code] * b[k + 1][lay.dst]), dtype=np.int64)
    return b


def _count_deals(w: IntArray) -> int:
    return int(_forward(w)[-1].sum())


@dataclass(frozen=True)
class Posterior:
    """The exact posterior over deals under the uniform prior.

    Attributes
    ----------
    players : int
        Number of players.
    deals : int
        Number of deals consistent with the record (exact).
    code_counts : tuple of tuple of int
        ``code_counts[p][c]``: consistent deals in which player p holds the code
        of index c (``Code.index``), shape (players, 216).

    Notes
    -----
    Every probability is a ``Fraction`` of two exact counts; all of them are 0
    when ``deals == 0`` (an inconsistent record).
    """

    players: int
    deals: int
    code_counts: tuple[tuple[int, ...], ...]

    @property
    def status(self) -> Status:
        """Consistent when at least one deal remains."""
        return Status.CONSISTENT if self.deals else Status.INCONSISTENT

    def _check_player(self, player: int) -> None:
        if not 0 <= player < self.players:
            raise InvalidInput("player", player, f"a player index in 0..{self.players - 1}")

    def code_probability(self, player: int, code: Code) -> Fraction:
        """P(player holds exactly ``code``)."""
        self._check_player(player)
        if not self.deals:
            return Fraction(0)
        return Fraction(self.code_counts[player][code.index], self.deals)

    def value_counts(self, player: int, category: Category) -> tuple[int, ...]:
        """Consistent deals giving ``player`` each value 0..5 of ``category``."""
        self._check_player(player)
        k = CATEGORIES.index(category)
        counts = [0] * VALUES
        for c, n in enumerate(self.code_counts[player]):
            counts[int(_CODE_VALUES[k, c])] += n
        return tuple(counts)

    def value_probability(self, player: int, category: Category, value: int) -> Fraction:
        """P(player holds ``value`` in ``category``)."""
        if not self.deals:
            return Fraction(0)
        return Fraction(self.value_counts(player, category)[value], self.deals)

    def marginals(self, player: int) -> dict[Category, tuple[Fraction, ...]]:
        """Per category, the probabilities of the six values."""
        return {
            cat: tuple(
                Fraction(n, self.deals) if self.deals else Fraction(0)
                for n in self.value_counts(player, cat)
            )
            for cat in CATEGORIES
        }

    def possible(self, player: int, category: Category) -> tuple[int, ...]:
        """The values the player can still hold (positive probability)."""
        return tuple(v for v, n in enumerate(self.value_counts(player, category)) if n)

    def forced(self, player: int, category: Category) -> int | None:
        """The value the player must hold, if the record forces one."""
        vals = self.possible(player, category)
        return vals[0] if len(vals) == 1 else None

    def codes(self, player: int) -> list[tuple[Code, Fraction]]:
        """The codes the player can hold, most likely first (ties by index)."""
        self._check_player(player)
        counts = self.code_counts[player]
        order = sorted((c for c in range(CODES) if counts[c]), key=lambda c: (-counts[c], c))
        return [(Code.from_index(c), Fraction(counts[c], self.deals)) for c in order]


def posterior(record: Record) -> Posterior:
    """Count the consistent deals and the deals giving each player each code.

    Parameters
    ----------
    record : Record
        The game record (2..6 players).

    Returns
    -------
    Posterior
        Exact counts; probabilities as Fractions.

    Notes
    -----
    Answers constrain each player's code on its own (216 codes each); only the
    distinctness of cards within a category couples players. A forward and a
    backward pass over players, with state = the sets of used values per
    category (at most C(6,3)**3 = 8000 states), count the deals and, per
    player and code, the deals through that code, without enumerating deals
    (6 players with nothing known have 720**3 = 373,248,000). All arithmetic is
    in int64 on counts at most 720**3, so it is exact.

    Examples
    --------
    >>> posterior(Record(6)).deals
    373248000
    >>> posterior(Record(2)).code_probability(0, Code(1, 2, 3))
    Fraction(1, 216)
    """
    w = allowed_codes(record)
    f = _forward(w)
    b = _backward(w)
    deals = int(f[-1].sum())
    counts = []
    for k in range(record.players):
        lay = _layer(k)
        through = np.asarray(lay.to_code @ (f[k][lay.src] * b[k + 1][lay.dst]), dtype=np.int64)
        counts.append(tuple(int(x) for x in through * w[k]))
    return Posterior(record.players, deals, tuple(counts))


# -- Z3: smallest conflict and proofs of forced values --------------------------


class _Z3Record:
    """The record as Z3 constraints: one Int per player and category, one
    assumption literal per answer (tracked), my code and distinctness as facts."""

    def __init__(self, record: Record) -> None:
        self.record = record
        # A fresh Z3 context per record: answers do not depend on earlier queries.
        self.ctx = z3.Context()
        self.solver = z3.Solver(ctx=self.ctx)
        self.x = [
            [z3.Int(f"p{p}_{c.value}", self.ctx) for c in CATEGORIES] for p in range(record.players)
        ]
        for row in self.x:
            for v in row:
                self.solver.add(v >= 0, v < VALUES)
        for k in range(len(CATEGORIES)):
            self.solver.add(z3.Distinct(*(row[k] for row in self.x)))
        if record.me is not None:
            for k, v in enumerate(record.me.code.values):
                self.solver.add(self.x[record.me.player][k] == v)
        self.literal: dict[AnswerId, Any] = {}
        for i, obs in enumerate(record.observations):
            for p, a in obs.answers.items():
                lit = z3.Bool(f"answer_{i}_{p}", self.ctx)
                hit = z3.Or(*(self.x[p][k] == obs.clue.values[k] for k in range(3)))
                self.solver.add(z3.Implies(lit, hit if a else z3.Not(hit)))
                self.literal[AnswerId(i, p)] = lit
        self.by_name = {str(lit): aid for aid, lit in self.literal.items()}

    def core(self, answers: Sequence[AnswerId], extra: Sequence[Any] = ()) -> list[AnswerId] | None:
        """An unsat core among ``answers`` (with ``extra`` always assumed), or None if sat."""
        lits = [self.literal[a] for a in answers] + list(extra)
        if self.solver.check(*lits) != z3.unsat:
            return None
        ids = {lit.get_id() for lit in self.solver.unsat_core()}
        return [a for a in answers if self.literal[a].get_id() in ids]

    def minimal_core(self, extra: Sequence[Any] = ()) -> tuple[AnswerId, ...] | None:
        """A minimal unsat set of answers (deletion-based shrinking), or None if sat."""
        core = self.core(sorted(self.literal), extra)
        if core is None:
            return None
        i = 0
        while i < len(core):
            trial = core[:i] + core[i + 1 :]
            smaller = self.core(trial, extra)
            if smaller is None:
                i += 1  # core[i] is necessary, and stays so in every subset
            else:
                # Elements before i were necessary in a superset, hence still are.
                i = sum(1 for a in core[:i] if a in smaller)
                core = [a for a in core if a in smaller]
        return tuple(core)

    def _satisfied(self) -> set[AnswerId]:
        """The answers that the solver's current model makes true."""
        m = self.solver.model()
        codes = [Code(*(m.eval(v, model_completion=True).as_long() for v in row)) for row in self.x]
        return {
            aid
            for aid in self.literal
            if answer(codes[aid.player], self.record.observations[aid.observation].clue)
            == self.record.observations[aid.observation].answers[aid.player]
        }

    def _correction_set(self, extra: Sequence[Any]) -> list[AnswerId]:
        """A minimal correction set: the complement of a maximal satisfiable set of
        answers grown greedily from the current model (which must exist)."""
        kept = self._satisfied()
        self.solver.push()  # kept answers become facts until pop: fewer assumptions
        self.solver.add(*(self.literal[b] for b in kept), *extra)
        for a in sorted(self.literal):
            if a not in kept and self.solver.check(self.literal[a]) == z3.sat:
                more = self._satisfied() - kept  # contains a
                self.solver.add(*(self.literal[b] for b in more))
                kept |= more
        self.solver.pop()
        return sorted(set(self.literal) - kept)

    def smallest_core(self, extra: Sequence[Any] = ()) -> tuple[AnswerId, ...] | None:
        """A smallest unsat set of answers (minimum cardinality), or None if sat.

        Implicit hitting-set duality (Ignatiev, Previti, Liffiton, Marques-Silva,
        "Smallest MUS extraction with minimal hitting set dualization", CP 2015):
        every unsat set of answers hits every minimal correction set (MCS), so a
        minimum hitting set H of some MCSes is no larger than a smallest unsat
        set. Loop: H = a minimum hitting set of the MCSes found so far (a Z3
        search under "at most k picked", k raised from the last optimum, which
        only grows as MCSes are added); if the answers in H are unsat together, H is a
        smallest unsat set; else grow H to a maximal satisfiable set and add its
        complement (a new MCS, not hit by H) to the collection. A minimal core
        found first is an upper bound: once H is as large, that core is smallest.
        """
        best = self.minimal_core(extra)
        if best is None:
            return None
        answers = sorted(self.literal)
        ctx = z3.Context()
        pick = [z3.Bool(f"pick_{a.observation}_{a.player}", ctx) for a in answers]
        hitting = z3.Solver(ctx=ctx)
        k = 0
        at_most = z3.Bool("at_most_0", ctx)
        hitting.add(z3.Implies(at_most, z3.AtMost(*pick, 0)))
        while k < len(best):
            if hitting.check(at_most) == z3.unsat:
                k += 1  # no hitting set of size k: a smallest unsat set has more
                at_most = z3.Bool(f"at_most_{k}", ctx)
                hitting.add(z3.Implies(at_most, z3.AtMost(*pick, k)))
                continue
            m = hitting.model()
            h = [a for a, b in zip(answers, pick, strict=True) if z3.is_true(m.eval(b))]
            if self.solver.check(*(self.literal[a] for a in h), *extra) == z3.unsat:
                return tuple(h)
            mcs = set(self._correction_set(extra))
            hitting.add(z3.Or(*(b for a, b in zip(answers, pick, strict=True) if a in mcs)))
        return best


def z3_consistent(record: Record) -> bool:
    """Whether some deal agrees with the record, decided by Z3 (one check).

    Examples
    --------
    >>> z3_consistent(Record(6))
    True
    """
    model = _Z3Record(record)
    return bool(model.solver.check(*model.literal.values()) == z3.sat)


def smallest_conflict(record: Record) -> tuple[AnswerId, ...]:
    """A smallest set of answers that cannot all be true; empty when consistent.

    Parameters
    ----------
    record : Record

    Returns
    -------
    tuple of AnswerId
        Sorted. No set with fewer answers is inconsistent (with my code and the
        distinctness of cards as facts), so every proper subset is consistent
        too: the set is both smallest and minimal (RULES.md section 3: "the
        smallest set of answers that cannot all be true").

    Notes
    -----
    Minimum-cardinality unsatisfiable subset by implicit hitting-set duality
    (Ignatiev, Previti, Liffiton, Marques-Silva, "Smallest MUS extraction with
    minimal hitting set dualization", CP 2015), on a Z3 model with one
    assumption literal per answer; seeded with a minimal unsat core (Z3 unsat
    core shrunk by deletion) as the upper bound. See docs/plunder.md.

    Examples
    --------
    >>> from isles.models.plunder import Observation
    >>> r = Record(2, (Observation(0, Code(0, 0, 0), {1: True}),
    ...                Observation(0, Code(0, 1, 1), {1: False}),
    ...                Observation(0, Code(1, 0, 1), {1: False}),
    ...                Observation(0, Code(1, 1, 0), {1: False}),
    ...                Observation(0, Code(0, 0, 0), {1: False})))
    >>> smallest_conflict(r)
    (AnswerId(observation=0, player=1), AnswerId(observation=4, player=1))
    """
    core = _Z3Record(record).smallest_core()
    return core if core is not None else ()


def minimal_conflict(record: Record) -> tuple[AnswerId, ...]:
    """Alias of :func:`smallest_conflict` (a smallest conflict is also minimal).

    Examples
    --------
    >>> minimal_conflict(Record(3))
    ()
    """
    return smallest_conflict(record)


def forced_values(
    record: Record, post: Posterior | None = None, *, smallest: bool = True
) -> tuple[ForcedValue, ...]:
    """Every value forced on a player other than me, each with a smallest proof.

    Parameters
    ----------
    record : Record
    post : Posterior, optional
        The posterior of ``record`` (computed when omitted).
    smallest : bool, default True
        Proofs of minimum cardinality. With False, proofs are only minimal by
        inclusion (a Z3 unsat core shrunk by deletion): about ten times faster
        on 15-turn records (docs/plunder.md, benchmark).

    Returns
    -------
    tuple of ForcedValue
        ``()`` for an inconsistent record.

    Notes
    -----
    A value is forced when no consistent deal gives the player another one
    (read from the exact posterior); its proof is a smallest set of answers
    under which "the player does not hold it" is unsatisfiable (Z3, the
    hitting-set search of :func:`smallest_conflict` with that negation as an
    extra fact), hence also minimal.

    Examples
    --------
    >>> from isles.models.plunder import Observation
    >>> r = Record(2, (Observation(0, Code(4, 0, 0), {1: True}),
    ...                Observation(0, Code(5, 0, 0), {1: False})))
    >>> [(f.player, f.category.value, f.value, len(f.proof)) for f in forced_values(r)]
    [(1, 'island', 4, 2)]
    """
    post = post or posterior(record)
    if not post.deals:
        return ()
    model = _Z3Record(record)
    out = []
    for p in range(record.players):
        if record.me is not None and p == record.me.player:
            continue
        for k, cat in enumerate(CATEGORIES):
            v = post.forced(p, cat)
            if v is None:
                continue
            guard = z3.Bool(f"not_{p}_{cat.value}_{v}", model.ctx)
            model.solver.add(z3.Implies(guard, model.x[p][k] != v))
            proof = (model.smallest_core if smallest else model.minimal_core)([guard])
            if proof is None:  # pragma: no cover - the count and Z3 disagree
                raise AssertionError(f"Z3 does not confirm forced value {p} {cat} {v}")
            out.append(ForcedValue(p, cat, v, proof))
    return tuple(out)


@dataclass(frozen=True)
class Deduction:
    """Everything the record proves: status, posterior, conflict, forced values."""

    status: Status
    posterior: Posterior
    conflict: tuple[AnswerId, ...]
    forced: tuple[ForcedValue, ...]


def deduce(record: Record) -> Deduction:
    """Posterior, then a smallest conflict (inconsistent) or the forced values' proofs.

    Examples
    --------
    >>> d = deduce(Record(3))
    >>> d.status.value, d.posterior.deals, d.conflict, d.forced
    ('consistent', 1728000, (), ())
    """
    post = posterior(record)
    if post.deals:
        return Deduction(Status.CONSISTENT, post, (), forced_values(record, post))
    return Deduction(Status.INCONSISTENT, post, smallest_conflict(record), ())


# -- flip advice -------------------------------------------------------------------


def answer_distribution(record: Record, clue: Code, active: int) -> dict[tuple[bool, ...], int]:
    """How many consistent deals give each answer vector to ``clue``.

    Parameters
    ----------
    record : Record
    clue : Code
        The combination on the table.
    active : int
        The active player (who does not answer).

    Returns
    -------
    dict
        Answer vector of the other players (in player order) -> number of
        consistent deals giving it; vectors with no deal are left out.

    Examples
    --------
    >>> answer_distribution(Record(2), Code(0, 0, 0), 0)
    {(False,): 15625, (True,): 11375}
    """
    if not 0 <= active < record.players:
        raise InvalidInput("active", active, f"a player index in 0..{record.players - 1}")
    w = allowed_codes(record)
    hit = _hits(clue).astype(np.int64)
    f = np.ones((1, 1), dtype=np.int64)  # (states, answer-prefix vectors)
    for k in range(record.players):
        lay = _layer(k)
        head = f[lay.src]
        if k == active:
            f = np.asarray(lay.to_dst @ (head * w[k][lay.code][:, None]), dtype=np.int64)
        else:
            parts = [
                np.asarray(lay.to_dst @ (head * (w[k] * h)[lay.code][:, None]), dtype=np.int64)
                for h in (1 - hit, hit)
            ]
            # Answer-vector index: bit j is the answer of the j-th answerer.
            f = np.concatenate(parts, axis=1)
    totals = f.sum(axis=0)
    answerers = record.players - 1
    out: dict[tuple[bool, ...], int] = {}
    for idx in range(1 << answerers):
        if totals[idx]:
            vec = tuple(bool(idx >> j & 1) for j in range(answerers))
            out[vec] = int(totals[idx])
    return dict(sorted(out.items()))


def _entropy_bits(counts: Sequence[int]) -> float:
    total = sum(counts)
    return sum(n / total * math.log2(total / n) for n in counts if n) if total else 0.0


@dataclass(frozen=True)
class FlipOption:
    """One choice of the active player: no flip (``deck`` None) or flip one deck.

    ``expected_bits`` is the expected information (bits) the answers will give
    about the opponents' codes, averaged over the card that can come up;
    ``cards`` lists ``(value, probability of that card, bits with it)``.
    Floats carry an absolute error below ``ENTROPY_ERROR_BITS``.
    """

    deck: Category | None
    expected_bits: float
    cards: tuple[tuple[int, Fraction, float], ...]


@dataclass(frozen=True)
class FlipAdvice:
    """The options, best first (ties keep the order none, island, marker, trap)."""

    clue: Code
    active: int
    options: tuple[FlipOption, ...]

    @property
    def best(self) -> FlipOption:
        return self.options[0]


def _deck_odds(category: Category, seen: Sequence[int]) -> list[tuple[int, Fraction]]:
    left = [COPIES - seen[v] for v in range(VALUES)]
    total = sum(left)
    return [(v, Fraction(left[v], total)) for v in range(VALUES) if left[v]]


def flip_advice(
    record: Record,
    clue: Code,
    active: int,
    seen: Sequence[Sequence[int]] | None = None,
) -> FlipAdvice:
    """Which deck to flip (or none) to learn the most from the answers.

    Parameters
    ----------
    record : Record
        A consistent record.
    clue : Code
        The combination on the table before the active player's choice.
    active : int
        The active player.
    seen : three sequences of six ints, optional
        Cards of each value already out of each deck (default: ``record.seen``).
        With all zeros the flipped card is uniform over the six values; else a
        value comes up with probability proportional to its copies left (3 -
        seen). An exhausted deck is not an option.

    Returns
    -------
    FlipAdvice
        Options sorted by expected information gain, best first.

    Notes
    -----
    Answers are a function of the deal, so the information they give about the
    deal (hence about the opponents' codes, my own being known) is the entropy
    of the answer vector, computed from the exact counts of
    :func:`answer_distribution`.

    Raises
    ------
    InvalidInput
        An inconsistent record or a bad ``active``/``seen``.

    Examples
    --------
    >>> adv = flip_advice(Record(2), Code(0, 0, 0), 0)
    >>> [o.deck for o in adv.options][0] is None
    True
    """
    seen_rows = [list(row) for row in (record.seen if seen is None else seen)]
    if len(seen_rows) != 3 or any(len(r) != VALUES for r in seen_rows):
        raise InvalidInput("seen", seen_rows, "three rows of six counts")
    if any(not 0 <= n <= COPIES for r in seen_rows for n in r):
        raise InvalidInput("seen", seen_rows, f"counts in 0..{COPIES}")
    cache_bits: dict[Code, float] = {}

    def bits(c: Code) -> float:
        if c not in cache_bits:
            dist = answer_distribution(record, c, active)
            if not dist:
                raise InvalidInput("record", "inconsistent", "a consistent record for advice")
            cache_bits[c] = _entropy_bits(list(dist.values()))
        return cache_bits[c]

    options = [FlipOption(None, bits(clue), ())]
    for cat, row in zip(CATEGORIES, seen_rows, strict=True):
        odds = _deck_odds(cat, row)
        if not odds:
            continue
        cards = tuple((v, p, bits(clue.replace(cat, v))) for v, p in odds)
        options.append(FlipOption(cat, sum(float(p) * b for _, p, b in cards), cards))
    order = sorted(range(len(options)), key=lambda i: (-round(options[i].expected_bits, 9), i))
    return FlipAdvice(clue, active, tuple(options[i] for i in order))


# -- guess advice ------------------------------------------------------------------


@dataclass(frozen=True)
class Guess:
    """The best crew card on one opponent now.

    ``expected_points`` = probability x points of a correct dig after
    ``earlier_digs`` correct digs by others on that treasure (3, 2, 1, 0).
    """

    target: int
    code: Code
    probability: Fraction
    earlier_digs: int
    expected_points: Fraction


def guess_advice(
    record: Record,
    post: Posterior | None = None,
    earlier_digs: Mapping[int, int] | None = None,
) -> tuple[Guess, ...]:
    """For each opponent, the most likely code, its probability, its expected points.

    Parameters
    ----------
    record : Record
    post : Posterior, optional
        The posterior of ``record`` (computed when omitted).
    earlier_digs : mapping player -> int, optional
        Correct digs already made on each target's treasure (default 0: I
        would be the first, worth 3 points).

    Returns
    -------
    tuple of Guess
        One per opponent (every player but me), best expected points first.
        Empty for an inconsistent record.

    Examples
    --------
    >>> g = guess_advice(Record(2))[0]
    >>> g.probability, g.expected_points
    (Fraction(1, 216), Fraction(1, 72))
    """
    post = post or posterior(record)
    if not post.deals:
        return ()
    digs = dict(earlier_digs or {})
    out = []
    for p in range(record.players):
        if record.me is not None and p == record.me.player:
            continue
        code, prob = post.codes(p)[0]
        k = digs.get(p, 0)
        out.append(Guess(p, code, prob, k, prob * dig_points(k)))
    return tuple(sorted(out, key=lambda g: (-g.expected_points, g.target)))
