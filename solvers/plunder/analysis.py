"""Plunder deduction: what the answers prove, the exact posterior, and what to do next.

Implements docs/plunder.md (seed ``seeds/003_cfc377110defcf34.txt``): exact
counting of deals by dynamic programming over used values, Z3 for the
smallest conflict and the proofs of forced values (implicit hitting sets,
under a time limit), flip advice in bits, guess advice, and :func:`analyse`,
the one call behind ``isles plunder``.
"""

from __future__ import annotations

import math
import signal
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
import z3
from scipy import sparse

from isles.models.errors import InvalidInput, expect
from isles.models.jsonio import probability_json
from isles.models.plunder.codes import CATEGORIES, CODES, COPIES, VALUES, Category, Code, answer
from isles.models.plunder.questions import ANALYSIS_TIME_LIMIT, RecordAnalysis
from isles.models.plunder.record import Record
from isles.models.plunder.scoring import dig_points
from isles.models.status import Status
from isles.solvers.plunder.answers import answer_counts, named_values
from isles.solvers.plunder.belief import Belief
from isles.solvers.plunder.posterior import CODE_VALUES as _CODE_VALUES
from isles.solvers.plunder.posterior import Posterior

__all__ = [
    "DEFAULT_TIME_LIMIT",
    "ENTROPY_ERROR_BITS",
    "Advice",
    "Analysis",
    "AnswerId",
    "Deduction",
    "FlipAdvice",
    "FlipOption",
    "ForcedValue",
    "Guess",
    "Posterior",
    "ProofKind",
    "allowed_codes",
    "analyse",
    "analyse_question",
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

DEFAULT_TIME_LIMIT = ANALYSIS_TIME_LIMIT
"""Seconds :func:`deduce` and :func:`analyse` spend, by default, proving that
proofs and conflicts are smallest; past it they keep proofs minimal by inclusion
(docs/plunder.md, "Time limit"). Declared once, by
:class:`isles.models.questions.RecordAnalysis`."""

ProofKind = Literal["smallest", "minimal"]
"""What a conflict or a proof is: ``smallest`` (no set of fewer answers does
it, proven) or ``minimal`` (no answer of it can be dropped; a smaller set may
exist)."""


def _check_time_limit(time_limit: float | None) -> float | None:
    if time_limit is None:
        return None
    if (
        isinstance(time_limit, bool)
        or not isinstance(time_limit, int | float)
        or not math.isfinite(time_limit)
        or time_limit <= 0
    ):
        raise InvalidInput("time_limit", time_limit, "a number of seconds > 0, or None")
    return float(time_limit)


def _check_active(record: Record, active: object, where: str = "active") -> int:
    if isinstance(active, bool) or not isinstance(active, int) or not 0 <= active < record.players:
        raise InvalidInput(where, active, f"a player index in 0..{record.players - 1}")
    return active


@dataclass(frozen=True, order=True)
class AnswerId:
    """One answer of the record: ``player``'s answer in ``observations[observation]``.

    Examples
    --------
    >>> AnswerId(3, 1).to_dict()
    {'observation': 3, 'player': 1}
    """

    observation: int
    player: int

    def to_dict(self) -> dict[str, int]:
        """``{"observation": i, "player": p}``."""
        return {"observation": self.observation, "player": self.player}


@dataclass(frozen=True)
class ForcedValue:
    """A value that every consistent deal gives to a player, with its proof.

    Attributes
    ----------
    player : int
        The player.
    category : Category
        The category.
    value : int
        The forced value (index 0..5).
    proof : tuple of AnswerId
        A set of answers that forces it, with the distinctness of cards and my
        own code as known facts. Dropping any one answer lets the player hold
        another value (the proof is minimal).
    smallest : bool
        Whether the proof is also proven smallest: no fewer answers force the
        value. False when the time limit ran out first (docs/plunder.md,
        "Time limit").

    Examples
    --------
    >>> ForcedValue(1, Category.TRAP, 0, (AnswerId(0, 1),)).to_dict()
    {'player': 1, 'category': 'trap', 'value': 0, 'proof': [{'observation': 0, 'player': 1}], \
'proof_kind': 'smallest'}
    """

    player: int
    category: Category
    value: int
    proof: tuple[AnswerId, ...]
    smallest: bool = True

    @property
    def proof_kind(self) -> ProofKind:
        """``"smallest"`` or ``"minimal"``."""
        return "smallest" if self.smallest else "minimal"

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of docs/plunder.md ("JSON output")."""
        return {
            "player": self.player,
            "category": self.category.value,
            "value": self.value,
            "proof": [a.to_dict() for a in self.proof],
            "proof_kind": self.proof_kind,
        }


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
    """The codes each player may hold on their own, as a 0/1 array.

    A code is allowed for a player when it agrees with that player's answers
    (and equals my code, for me). Distinctness between players is not applied.

    Parameters
    ----------
    record : Record
        The record.

    Returns
    -------
    numpy.ndarray
        Shape ``(players, 216)``, dtype int64; column ``c`` is the code of
        index ``c`` (``Code.index``).

    Examples
    --------
    >>> from isles.models.plunder.record import Observation
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
    in int64 on counts at most 720**3, so it is exact. docs/plunder.md, "How
    the posterior is computed".

    Examples
    --------
    >>> posterior(Record(6)).deals
    373248000
    >>> posterior(Record(2)).code_probability(0, Code(1, 2, 3))
    Fraction(1, 216)
    """

    expect(record, Record, "record", "a Record (Record.load reads a file)")
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


class _OutOfTime(Exception):
    """The deadline passed during a search for a smallest set."""


# Answers tried together when growing a satisfiable set (see _Z3Record._correction_set).
_GROW_BLOCK = 16

# Z3's "no timeout" (the largest unsigned 32-bit value, in milliseconds).
_NO_TIMEOUT = 2**32 - 1


# Seconds before the deadline at which Z3's own timeout may already fire (it counts
# whole milliseconds from a slightly earlier start).
_SLACK = 0.05


def _interrupted() -> None:
    """Z3 says it was interrupted: re-raise the interrupt, never report a result.

    With ``ctrl_c`` off (:class:`_Z3Record`) Z3 does not catch SIGINT; should it
    still answer ``unknown`` "interrupted from keyboard" or "canceled" before
    the deadline, that is an interrupt, not the time limit. The signal is
    raised again for Python's handler (the command line's records it; the
    default one raises KeyboardInterrupt); KeyboardInterrupt is raised
    whatever that handler does.
    """
    if threading.current_thread() is threading.main_thread():
        signal.raise_signal(signal.SIGINT)
    raise KeyboardInterrupt


def _deadline(time_limit: float | None) -> float | None:
    return None if time_limit is None else time.monotonic() + time_limit


class _Z3Record:
    """The record as Z3 constraints: one Int per player and category, one
    assumption literal per answer of a player other than me, my code and
    distinctness as facts.

    Two answers of the same player to the same clue are the same constraint:
    only the first gets a literal (a smallest or minimal set never needs both).
    """

    def __init__(self, record: Record) -> None:
        self.record = record
        # A fresh Z3 context per record: answers do not depend on earlier queries.
        self.ctx = z3.Context()
        self.solver = z3.Solver(ctx=self.ctx)
        # Z3's own Ctrl-C handler would cancel the check and answer "unknown", which
        # can be lost (a check that finishes anyway) or read as the time limit: off,
        # Ctrl-C reaches Python's handler, which raises when the check returns
        # (every check here takes milliseconds: 18 small integers).
        self.solver.set("ctrl_c", False)
        self.x = [
            [z3.Int(f"p{p}_{c.value}", self.ctx) for c in CATEGORIES] for p in range(record.players)
        ]
        for row in self.x:
            for v in row:
                self.solver.add(v >= 0, v < VALUES)
        for k in range(len(CATEGORIES)):
            self.solver.add(z3.Distinct(*(row[k] for row in self.x)))
        me = record.me.player if record.me is not None else None
        if record.me is not None:
            for k, v in enumerate(record.me.code.values):
                self.solver.add(self.x[record.me.player][k] == v)
        self.literal: dict[AnswerId, Any] = {}
        first: set[tuple[int, Code, bool]] = set()
        for i, obs in enumerate(record.observations):
            for p, a in obs.answers.items():
                # My answers agree with my code (checked by Record): facts, never needed.
                if p == me or (p, obs.clue, a) in first:
                    continue
                first.add((p, obs.clue, a))
                lit = z3.Bool(f"answer_{i}_{p}", self.ctx)
                hit = z3.Or(*(self.x[p][k] == obs.clue.values[k] for k in range(3)))
                self.solver.add(z3.Implies(lit, hit if a else z3.Not(hit)))
                self.literal[AnswerId(i, p)] = lit
        self.answers = sorted(self.literal)
        self.grown = 0  # blocks tried by _correction_set (names its literals)

    # Solver.check and Solver.add cast every literal in Python (a sort check each):
    # with hundreds of answer literals per call on long records that cost several
    # times the solving itself, so _check and _assert pass the ASTs to Z3 directly.

    def _check(self, lits: Sequence[Any], deadline: float | None = None) -> Any:
        """Check the record with ``lits`` assumed; past ``deadline``, raise _OutOfTime."""
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0:
                raise _OutOfTime
            # whole milliseconds, at most Z3's "none" (a limit of 1e308 s is none)
            self.solver.set("timeout", max(1, min(_NO_TIMEOUT, int(min(left, 1e10) * 1000))))
        asts = (z3.Ast * len(lits))(*(lit.as_ast() for lit in lits))
        result = z3.CheckSatResult(
            z3.Z3_solver_check_assumptions(self.ctx.ref(), self.solver.solver, len(lits), asts)
        )
        if result == z3.unknown:
            reason = self.solver.reason_unknown()
            out_of_time = deadline is not None and time.monotonic() >= deadline - _SLACK
            if "interrupt" in reason or ("cancel" in reason and not out_of_time):
                _interrupted()
            if reason == "timeout" or out_of_time:
                raise _OutOfTime
            raise AssertionError(f"Z3 gave up: {reason}")  # pragma: no cover
        return result

    def _assert(self, lits: Sequence[Any]) -> None:
        """Add ``lits`` as facts (until the next pop)."""
        for lit in lits:
            z3.Z3_solver_assert(self.ctx.ref(), self.solver.solver, lit.as_ast())

    def _any_of(self, lits: Sequence[Any]) -> Any:
        """The disjunction of ``lits`` (``z3.Or`` without the casts)."""
        asts = (z3.Ast * len(lits))(*(lit.as_ast() for lit in lits))
        return z3.BoolRef(z3.Z3_mk_or(self.ctx.ref(), len(lits), asts), self.ctx)

    def core(self, answers: Sequence[AnswerId], extra: Sequence[Any] = ()) -> list[AnswerId] | None:
        """An unsat core among ``answers`` (with ``extra`` always assumed), or None if sat."""
        lits = [self.literal[a] for a in answers] + list(extra)
        if self._check(lits) != z3.unsat:
            return None
        ids = {lit.get_id() for lit in self.solver.unsat_core()}
        return [a for a in answers if self.literal[a].get_id() in ids]

    def minimal_core(self, extra: Sequence[Any] = ()) -> tuple[AnswerId, ...] | None:
        """A minimal unsat set of answers (deletion-based shrinking), or None if sat."""
        core = self.core(self.answers, extra)
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
        observations = self.record.observations
        return {
            aid
            for aid in self.literal
            if answer(codes[aid.player], observations[aid.observation].clue)
            == observations[aid.observation].answers[aid.player]
        }

    def _correction_set(self, extra: Sequence[Any], deadline: float | None) -> list[AnswerId]:
        """A minimal correction set: the answers left out of a maximal satisfiable set
        grown from the current model (which must exist).

        The answers left out are taken in record order, a block of
        :data:`_GROW_BLOCK` at a time: one call asks for a model satisfying some
        answer of the block (one clause) and keeps every answer that model
        satisfies; when none can be satisfied, the whole block is in the
        correction set (the kept set only grows). Answer by answer gives better
        correction sets for the hitting-set search but costs one call per
        answer, all at once few calls but worse sets; blocks of 16 were the
        best of both on 15- to 200-turn records (docs/plunder.md, "Benchmark").
        """
        kept = self._satisfied()
        rest = [a for a in self.answers if a not in kept]
        self.solver.push()  # kept answers become facts until pop: fewer assumptions
        try:
            self._assert([*(self.literal[b] for b in kept), *extra])
            start = 0
            while start < len(rest):
                block = [a for a in rest[start : start + _GROW_BLOCK] if a not in kept]
                if not block:
                    start += _GROW_BLOCK
                    continue
                # "some answer of the block" behind a fresh literal: no inner push/pop
                self.grown += 1
                some = z3.Bool(f"some_{self.grown}", self.ctx)
                self._assert([self._any_of([z3.Not(some), *(self.literal[a] for a in block)])])
                found = self._check([some], deadline) == z3.sat
                more = self._satisfied() - kept if found else set()
                if found:
                    self._assert([self.literal[b] for b in more])
                    kept |= more
                else:
                    start += _GROW_BLOCK
        finally:
            self.solver.pop()
        return [a for a in rest if a not in kept]

    def smallest_core(
        self,
        extra: Sequence[Any] = (),
        minimal: tuple[AnswerId, ...] | None = None,
        deadline: float | None = None,
        tick: Callable[[], None] | None = None,
    ) -> tuple[tuple[AnswerId, ...] | None, bool]:
        """A smallest unsat set of answers (minimum cardinality), or None if sat.

        Returns the set and whether it is proven smallest: past ``deadline``,
        the minimal set (``minimal``, or :meth:`minimal_core`) and False.

        Implicit hitting-set duality (Ignatiev, Previti, Liffiton, Marques-Silva,
        "Smallest MUS extraction with minimal hitting set dualization", CP 2015):
        every unsat set of answers hits every minimal correction set (MCS), so a
        minimum hitting set H of some MCSes is no larger than a smallest unsat
        set. Loop: H = a minimum hitting set of the MCSes found so far (branch
        and bound on bit masks, :func:`_hitting_set`, under "at most k", k
        raised from the last optimum, which only grows as MCSes are added); if
        the answers in H are unsat together, H is a smallest unsat set; else
        grow H to a maximal satisfiable set and add its complement (a new MCS,
        not hit by H) to the collection. A minimal core found first is an upper
        bound: once k reaches its size, that core is smallest.
        """
        best = self.minimal_core(extra) if minimal is None else minimal
        if best is None:
            return None, True
        if len(best) <= 1:
            # Deletion checked the empty set: a minimal set of 0 or 1 answers is smallest.
            return best, True
        index = {a: i for i, a in enumerate(self.answers)}
        mcses: list[int] = []  # bit i: self.answers[i]
        k = 0  # no hitting set has fewer than k answers
        try:
            while k < len(best):
                if tick is not None:
                    tick()
                chosen = _hitting_set(mcses, k, deadline)
                if chosen is None:
                    k += 1  # no hitting set of size k: a smallest unsat set has more
                    continue
                h = [self.answers[i] for i in _bits(chosen)]
                lits = [self.literal[a] for a in h] + list(extra)
                if self._check(lits, deadline) == z3.unsat:
                    return tuple(h), True
                mcs = self._correction_set(extra, deadline)
                mcses.append(sum(1 << index[a] for a in mcs))
        except _OutOfTime:
            return best, False
        finally:
            self.solver.set("timeout", _NO_TIMEOUT)
        return best, True


def _bits(mask: int) -> list[int]:
    """The positions of the set bits of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _hitting_set(sets: Sequence[int], k: int, deadline: float | None) -> int | None:
    """A set of at most ``k`` elements meeting every one of ``sets``, or None if none exists.

    Sets and the answer are bit masks. Branch and bound: branch on the
    elements of the smallest set not yet met (most frequent first; an element
    tried before is left out of the later branches), prune when more sets than
    the budget left are pairwise disjoint (each needs its own element).
    Raises _OutOfTime past ``deadline``.
    """
    nodes = 0

    def search(live: list[int], budget: int, chosen: int) -> int | None:
        nonlocal nodes
        if not live:
            return chosen
        if budget == 0:
            return None
        nodes += 1
        if deadline is not None and nodes % 512 == 0 and time.monotonic() > deadline:
            raise _OutOfTime
        used = disjoint = 0
        for s in live:  # smallest sets first: a good greedy packing
            if not s & used:
                used |= s
                disjoint += 1
                if disjoint > budget:
                    return None
        elements = _bits(live[0])
        elements.sort(key=lambda e: -sum(s >> e & 1 for s in live))
        banned = 0
        for e in elements:
            bit = 1 << e
            rest = [s & ~banned for s in live if not s & bit]
            if all(rest):
                rest.sort(key=int.bit_count)
                found = search(rest, budget - 1, chosen | bit)
                if found is not None:
                    return found
            banned |= bit
        return None

    return search(sorted(sets, key=int.bit_count), k, 0)


def z3_consistent(record: Record) -> bool:
    """Whether some deal agrees with the record, decided by Z3 (one check).

    An independent check of :func:`posterior` (``posterior(r).deals > 0``).

    Parameters
    ----------
    record : Record
        The record.

    Returns
    -------
    bool

    Examples
    --------
    >>> z3_consistent(Record(6))
    True
    """
    model = _Z3Record(record)
    return bool(model._check(list(model.literal.values())) == z3.sat)


def smallest_conflict(record: Record) -> tuple[AnswerId, ...]:
    """A smallest set of answers that cannot all be true; empty when consistent.

    No time limit: on long records (dozens of turns, 5-6 players) this can
    take minutes. :func:`deduce` bounds it with ``time_limit``;
    :func:`minimal_conflict` is the fast, minimal-only variant.

    Parameters
    ----------
    record : Record
        The record.

    Returns
    -------
    tuple of AnswerId
        Sorted. No set with fewer answers is inconsistent (with my code and the
        distinctness of cards as facts), so every proper subset is consistent
        too: the set is both smallest and minimal (docs/plunder.md, rule
        decision 4).

    See Also
    --------
    minimal_conflict, deduce

    Notes
    -----
    Minimum-cardinality unsatisfiable subset by implicit hitting-set duality
    on a Z3 model with one assumption literal per answer, seeded with a
    minimal unsat core (Z3 unsat core shrunk by deletion) as the upper bound.
    docs/plunder.md, "Smallest conflicts".

    References
    ----------
    .. [1] A. Ignatiev, A. Previti, M. Liffiton, J. Marques-Silva, "Smallest
       MUS extraction with minimal hitting set dualization", CP 2015, LNCS 9255.
    .. [2] J. Marques-Silva, F. Heras, M. Janota, A. Previti, A. Belov, "On
       computing minimal correction subsets", IJCAI 2013.

    Examples
    --------
    >>> from isles.models.plunder.record import Observation
    >>> r = Record(2, (Observation(0, Code(0, 0, 0), {1: True}),
    ...                Observation(0, Code(0, 1, 1), {1: False}),
    ...                Observation(0, Code(1, 0, 1), {1: False}),
    ...                Observation(0, Code(1, 1, 0), {1: False}),
    ...                Observation(0, Code(0, 0, 0), {1: False})))
    >>> smallest_conflict(r)
    (AnswerId(observation=0, player=1), AnswerId(observation=4, player=1))
    """
    core, _ = _Z3Record(record).smallest_core()
    return core if core is not None else ()


def minimal_conflict(record: Record) -> tuple[AnswerId, ...]:
    """A set of answers that cannot all be true, minimal by inclusion; empty when consistent.

    Dropping any one answer of the set makes it consistent, but a set with
    fewer answers may exist elsewhere in the record (see
    :func:`smallest_conflict`). Fast: a Z3 unsat core shrunk by deletion.

    Parameters
    ----------
    record : Record
        The record.

    Returns
    -------
    tuple of AnswerId
        Sorted.

    Examples
    --------
    >>> from isles.models.plunder.record import Observation
    >>> r = Record(2, (Observation(0, Code(0, 0, 0), {1: True}),
    ...                Observation(0, Code(0, 0, 0), {1: False})))
    >>> minimal_conflict(r), minimal_conflict(Record(3))
    ((AnswerId(observation=0, player=1), AnswerId(observation=1, player=1)), ())
    """
    core = _Z3Record(record).minimal_core()
    return core if core is not None else ()


class _Progress:
    """A tqdm bar on stderr over the sets searched, shown once the search has taken
    ``DELAY`` seconds (quick answers print nothing)."""

    DELAY = 1.0

    def __init__(self, total: int, enabled: bool, desc: str = "smallest proofs") -> None:
        self.bar: Any = None
        if enabled and total:
            from tqdm import tqdm

            self.bar = tqdm(
                total=total,
                desc=desc,
                unit="set",
                delay=self.DELAY,
                leave=False,
                file=sys.stderr,
            )

    def tick(self) -> None:
        if self.bar is not None:
            self.bar.update(0)  # redraws the elapsed time (after the delay only)

    def done(self) -> None:
        if self.bar is not None:
            self.bar.update(1)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def _forced_values(
    record: Record,
    post: Posterior,
    smallest: bool,
    deadline: float | None,
    progress: bool,
) -> tuple[ForcedValue, ...]:
    if not post.deals:
        return ()
    model = _Z3Record(record)
    found: list[tuple[int, Category, int, Any, tuple[AnswerId, ...]]] = []
    for p in range(record.players):
        if record.me is not None and p == record.me.player:
            continue
        for k, cat in enumerate(CATEGORIES):
            v = post.forced(p, cat)
            if v is None:
                continue
            guard = z3.Bool(f"not_{p}_{cat.value}_{v}", model.ctx)
            model.solver.add(z3.Implies(guard, model.x[p][k] != v))
            proof = model.minimal_core([guard])
            if proof is None:  # pragma: no cover - the count and Z3 disagree
                raise AssertionError(f"Z3 does not confirm forced value {p} {cat} {v}")
            found.append((p, cat, v, guard, proof))
    if not smallest:
        return tuple(
            ForcedValue(p, cat, v, proof, len(proof) <= 1) for p, cat, v, _, proof in found
        )
    # Short minimal proofs first: they are the quick searches, so a time limit
    # leaves as few proofs as possible unproven.
    order = sorted(range(len(found)), key=lambda i: (len(found[i][4]), i))
    out: dict[int, ForcedValue] = {}
    bar = _Progress(len(found), progress)
    try:
        for i in order:
            p, cat, v, guard, proof = found[i]
            best, proven = model.smallest_core([guard], proof, deadline, bar.tick)
            assert best is not None
            out[i] = ForcedValue(p, cat, v, best, proven)
            bar.done()
    finally:
        bar.close()
    return tuple(out[i] for i in range(len(found)))


def forced_values(
    record: Record,
    post: Posterior | None = None,
    *,
    smallest: bool = True,
    time_limit: float | None = None,
    progress: bool = False,
) -> tuple[ForcedValue, ...]:
    """Every value forced on a player other than me, each with a proof.

    Parameters
    ----------
    record : Record
        The record.
    post : Posterior, optional
        The posterior of ``record`` (computed when omitted).
    smallest : bool, default True
        Search for proofs of minimum cardinality. With False, proofs are
        only minimal by inclusion (a Z3 unsat core shrunk by deletion),
        which is much faster on long records (docs/plunder.md, "Benchmark").
    time_limit : float or None, default None
        Seconds for the searches for smallest proofs (all together); a proof
        not proven smallest by then stays minimal, with ``smallest=False``.
        None: no limit (minutes on long 6-player records).
    progress : bool, default False
        Show a tqdm progress bar on stderr over the proofs, once the search
        has taken a second.

    Returns
    -------
    tuple of ForcedValue
        By player, then category; ``()`` for an inconsistent record.

    Raises
    ------
    InvalidInput
        A ``time_limit`` that is not a number of seconds > 0.

    Notes
    -----
    A value is forced when no consistent deal gives the player another one
    (read from the exact posterior). Its proof is first a minimal set of
    answers under which "the player does not hold it" is unsatisfiable (Z3
    unsat core shrunk by deletion); then, shortest first, each is replaced
    by a smallest such set (the hitting-set search of
    :func:`smallest_conflict` with that negation as an extra fact) while
    time remains.

    References
    ----------
    .. [1] A. Ignatiev, A. Previti, M. Liffiton, J. Marques-Silva, "Smallest
       MUS extraction with minimal hitting set dualization", CP 2015, LNCS 9255.
    .. [2] J. Marques-Silva, F. Heras, M. Janota, A. Previti, A. Belov, "On
       computing minimal correction subsets", IJCAI 2013.

    Examples
    --------
    >>> from isles.models.plunder.record import Observation
    >>> r = Record(2, (Observation(0, Code(4, 0, 0), {1: True}),
    ...                Observation(0, Code(5, 0, 0), {1: False})))
    >>> [(f.player, f.category.value, f.value, len(f.proof), f.smallest) for f in forced_values(r)]
    [(1, 'island', 4, 2, True)]
    """
    deadline = _deadline(_check_time_limit(time_limit))
    post = post or posterior(record)
    return _forced_values(record, post, smallest, deadline, progress)


@dataclass(frozen=True)
class Deduction:
    """Everything the record proves: status, posterior, conflict, forced values.

    Attributes
    ----------
    status : Status
        ``exact`` (the record is consistent; the posterior is exact) or
        ``inconsistent`` (no deal agrees with every answer).
    posterior : Posterior
        The exact posterior (no deal when inconsistent).
    conflict : tuple of AnswerId
        For an inconsistent record, a set of answers that cannot all be true
        (smallest when ``proofs == "smallest"``, else minimal); else empty.
    forced : tuple of ForcedValue
        The forced values of the players other than me, with their proofs.
    proofs : "smallest" or "minimal"
        ``smallest`` when the conflict and every proof are proven smallest;
        ``minimal`` when the time limit ran out first (each is then still
        minimal by inclusion; see each ``ForcedValue.smallest``).
    time_limit : float or None
        The time limit the search had, in seconds.

    Examples
    --------
    >>> d = deduce(Record(3))
    >>> d.to_dict()["status"], d.to_dict()["deals"], d.proofs
    ('exact', 1728000, 'smallest')
    """

    status: Status
    posterior: Posterior
    conflict: tuple[AnswerId, ...]
    forced: tuple[ForcedValue, ...]
    proofs: ProofKind = "smallest"
    time_limit: float | None = None

    def to_dict(self) -> dict[str, Any]:
        """The deduction as JSON (docs/plunder.md, "JSON output")."""
        return {
            **self.posterior.to_dict(),
            "status": str(self.status),
            "conflict": [a.to_dict() for a in self.conflict],
            "forced": [f.to_dict() for f in self.forced],
            "proofs": self.proofs,
            "time_limit": self.time_limit,
        }


def deduce(
    record: Record,
    *,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    progress: bool = False,
) -> Deduction:
    """The posterior, then a smallest conflict (inconsistent) or the forced values' proofs.

    Parameters
    ----------
    record : Record
        The record.
    time_limit : float or None, default DEFAULT_TIME_LIMIT (3 s)
        Seconds for the searches for smallest sets (the conflict, or all the
        proofs together). Past it, sets stay minimal by inclusion and
        ``proofs`` says ``"minimal"``. The posterior and the minimal sets are
        always computed (about a second on a 200-turn 6-player record).
        None: no limit.
    progress : bool, default False
        A tqdm progress bar on stderr over the proofs, once the search has
        taken a second.

    Returns
    -------
    Deduction

    Raises
    ------
    InvalidInput
        A ``time_limit`` that is not a number of seconds > 0.

    See Also
    --------
    analyse : the deduction with flip and guess advice (``isles plunder``).

    Notes
    -----
    docs/plunder.md: "How the posterior is computed", "Smallest conflicts",
    "Time limit".

    References
    ----------
    .. [1] A. Ignatiev, A. Previti, M. Liffiton, J. Marques-Silva, "Smallest
       MUS extraction with minimal hitting set dualization", CP 2015, LNCS 9255.
    .. [2] J. Marques-Silva, F. Heras, M. Janota, A. Previti, A. Belov, "On
       computing minimal correction subsets", IJCAI 2013.

    Examples
    --------
    >>> d = deduce(Record(3))
    >>> d.status.value, d.posterior.deals, d.conflict, d.forced, d.proofs
    ('exact', 1728000, (), (), 'smallest')
    """

    expect(record, Record, "record", "a Record (Record.load reads a file)")
    time_limit = _check_time_limit(time_limit)
    deadline = _deadline(time_limit)
    post = posterior(record)
    if post.deals:
        forced = _forced_values(record, post, True, deadline, progress)
        kind: ProofKind = "smallest" if all(f.smallest for f in forced) else "minimal"
        return Deduction(Status.EXACT, post, (), forced, kind, time_limit)
    bar = _Progress(1, progress, "smallest conflict")
    try:
        core, proven = _Z3Record(record).smallest_core(deadline=deadline, tick=bar.tick)
        bar.done()
    finally:
        bar.close()
    if core is None:  # pragma: no cover - the count and Z3 disagree
        raise AssertionError("Z3 finds a deal where the count finds none")
    kind = "smallest" if proven else "minimal"
    return Deduction(Status.INCONSISTENT, post, core, (), kind, time_limit)


# -- flip advice -------------------------------------------------------------------


def answer_distribution(record: Record, clue: Code, active: int) -> dict[tuple[bool, ...], int]:
    """How many consistent deals give each answer vector to ``clue``.

    Parameters
    ----------
    record : Record
        The record.
    clue : Code
        The combination on the table.
    active : int
        The active player (who does not answer).

    Returns
    -------
    dict
        Answer vector of the other players (in player order) -> number of
        consistent deals giving it; vectors with no deal are left out.

    Raises
    ------
    InvalidInput
        ``clue`` not a Code, or ``active`` not a player index.

    Notes
    -----
    A forward pass over players with one column per answer prefix, the
    values no clue names lumped into one class per category
    (:func:`~isles.solvers.plunder.answers.answer_counts`): exact int64
    counts. docs/plunder.md, "Answer vectors with the unnamed values lumped";
    seed ``seeds/003_cfc377110defcf34.txt``.

    Examples
    --------
    >>> answer_distribution(Record(2), Code(0, 0, 0), 0)
    {(False,): 15625, (True,): 11375}
    """
    active = _check_active(record, active)
    if not isinstance(clue, Code):
        raise InvalidInput("clue", clue, "a Code")
    (counts,) = answer_counts(allowed_codes(record), named_values(record), active, [clue])
    return _as_distribution(counts, record.players - 1)


def _as_distribution(counts: IntArray, answerers: int) -> dict[tuple[bool, ...], int]:
    """Answer vector -> deals, from counts indexed by vectors (bit j: j-th answerer)."""
    out = {
        tuple(bool(idx >> j & 1) for j in range(answerers)): int(n)
        for idx, n in enumerate(counts)
        if n
    }
    return dict(sorted(out.items()))


def _entropy_bits(counts: Sequence[int]) -> float:
    total = sum(counts)
    return sum(n / total * math.log2(total / n) for n in counts if n) if total else 0.0


@dataclass(frozen=True)
class FlipOption:
    """One choice of the active player: no flip (``deck`` None) or flip one deck.

    Attributes
    ----------
    deck : Category or None
        The deck flipped, or None for no flip.
    expected_bits : float
        The expected information (bits) the answers will give about the
        opponents' codes, averaged over the card that can come up; absolute
        error below :data:`ENTROPY_ERROR_BITS`.
    cards : tuple of (int, Fraction, float)
        ``(value, probability of that card, bits with it)`` for each card
        that can come up (empty for no flip).

    Examples
    --------
    >>> FlipOption(None, 1.5, ()).to_dict()
    {'deck': None, 'expected_bits': 1.5, 'cards': []}
    """

    deck: Category | None
    expected_bits: float
    cards: tuple[tuple[int, Fraction, float], ...]

    def to_dict(self) -> dict[str, Any]:
        """The option as JSON; card probabilities as ``p`` and ``p_exact``."""
        return {
            "deck": self.deck.value if self.deck else None,
            "expected_bits": self.expected_bits,
            "cards": [
                {"value": v, **probability_json("p", x), "bits": b} for v, x, b in self.cards
            ],
        }


@dataclass(frozen=True)
class FlipAdvice:
    """Which deck to flip: the options, best first (ties keep the order none, island,
    marker, trap).

    Attributes
    ----------
    clue : Code
        The combination on the table before the choice.
    active : int
        The active player.
    options : tuple of FlipOption
        No flip and each deck that is not exhausted, most expected bits first.

    Examples
    --------
    >>> adv = flip_advice(Record(2), Code(0, 0, 0), 0)
    >>> adv.to_dict()["status"], adv.best.deck
    ('exact', None)
    """

    clue: Code
    active: int
    options: tuple[FlipOption, ...]

    @property
    def status(self) -> Status:
        """``exact``: exact counts; the floats carry :data:`ENTROPY_ERROR_BITS`."""
        return Status.EXACT

    @property
    def best(self) -> FlipOption:
        """The option with the most expected bits."""
        return self.options[0]

    def to_dict(self) -> dict[str, Any]:
        """The advice as JSON, with the ``error_bound`` (bits) of every float."""
        return {
            "status": str(self.status),
            "clue": self.clue.to_dict(),
            "active": self.active,
            "error_bound": ENTROPY_ERROR_BITS,
            "options": [o.to_dict() for o in self.options],
        }


def _deck_odds(seen: Sequence[int]) -> list[tuple[int, Fraction]]:
    left = [COPIES - seen[v] for v in range(VALUES)]
    total = sum(left)
    return [(v, Fraction(left[v], total)) for v in range(VALUES) if left[v]]


def _check_seen(seen: object) -> list[list[int]]:
    shape = f"three rows (island, marker, trap) of six counts in 0..{COPIES}"
    if isinstance(seen, str | bytes) or not isinstance(seen, Sequence) or len(seen) != 3:
        raise InvalidInput("seen", seen, shape)
    rows = []
    for row in seen:
        if isinstance(row, str | bytes) or not isinstance(row, Sequence) or len(row) != VALUES:
            raise InvalidInput("seen", seen, shape)
        for n in row:
            if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= COPIES:
                raise InvalidInput("seen", seen, shape)
        rows.append(list(row))
    return rows


def _clue_bits(record: Record, active: int, clues: Sequence[Code]) -> dict[Code, float]:
    """The entropy (bits) of the answers to each clue: from a :class:`Belief` when the
    record has ``me``, else from :func:`~isles.solvers.plunder.answers.answer_counts`
    (all the clues in a few passes)."""
    unique = list(dict.fromkeys(clues))
    if record.me is not None:
        belief = Belief.from_record(record)
        dists = [belief.answer_distribution(c, active) for c in unique]
    else:
        counts = answer_counts(allowed_codes(record), named_values(record), active, unique)
        dists = [_as_distribution(row, record.players - 1) for row in counts]
    if not dists[0]:
        raise InvalidInput("record", "inconsistent", "a consistent record for advice")
    return {c: _entropy_bits(list(d.values())) for c, d in zip(unique, dists, strict=True)}


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

    Raises
    ------
    InvalidInput
        An inconsistent record or a bad ``clue``/``active``/``seen``.

    Notes
    -----
    Answers are a function of the deal, so the information they give about the
    deal (hence about the opponents' codes, my own being known) is the entropy
    of the answer vector, computed from the exact counts of
    :func:`answer_distribution`: with ``record.me`` given, taken from a
    :class:`~isles.solvers.plunder.belief.Belief`; else every clue an option
    can give counted in one lumped pass per deck
    (:func:`~isles.solvers.plunder.answers.answer_counts`). Both take
    milliseconds for 6 players (the passes over every value took 0.35 to
    0.6 s). docs/plunder.md, rule decision 6 and "Answer vectors with the
    unnamed values lumped".

    Examples
    --------
    >>> adv = flip_advice(Record(2), Code(0, 0, 0), 0)
    >>> [o.deck for o in adv.options][0] is None
    True
    """

    expect(record, Record, "record", "a Record (Record.load reads a file)")
    active = _check_active(record, active)
    if not isinstance(clue, Code):
        raise InvalidInput("clue", clue, "a Code")
    seen_rows = _check_seen(record.seen if seen is None else seen)
    decks = [(cat, _deck_odds(row)) for cat, row in zip(CATEGORIES, seen_rows, strict=True)]
    bits = _clue_bits(
        record, active, [clue, *(clue.replace(cat, v) for cat, odds in decks for v, _ in odds)]
    )
    options = [FlipOption(None, bits[clue], ())]
    for cat, odds in decks:
        if not odds:
            continue
        cards = tuple((v, p, bits[clue.replace(cat, v)]) for v, p in odds)
        options.append(FlipOption(cat, sum(float(p) * b for _, p, b in cards), cards))
    order = sorted(range(len(options)), key=lambda i: (-round(options[i].expected_bits, 9), i))
    return FlipAdvice(clue, active, tuple(options[i] for i in order))


# -- guess advice ------------------------------------------------------------------


@dataclass(frozen=True)
class Guess:
    """The best crew card on one opponent now.

    Attributes
    ----------
    target : int
        The opponent.
    code : Code
        Their most likely code (ties by code index).
    probability : Fraction
        P(target holds ``code``), exact.
    earlier_digs : int
        Correct digs by others on that treasure before mine.
    expected_points : Fraction
        ``probability`` x the points of a correct dig after ``earlier_digs``
        (3, 2, 1, 0).

    Examples
    --------
    >>> g = Guess(1, Code(4, 4, 4), Fraction(1, 2), 0, Fraction(3, 2))
    >>> g.to_dict()["expected_points_exact"]
    '3/2'
    """

    target: int
    code: Code
    probability: Fraction
    earlier_digs: int
    expected_points: Fraction

    def to_dict(self) -> dict[str, Any]:
        """The guess as JSON: ``p``, ``expected_points`` and their exact ``"p/q"``."""
        return {
            "target": self.target,
            "code": self.code.to_dict(),
            **probability_json("p", self.probability),
            "earlier_digs": self.earlier_digs,
            **probability_json("expected_points", self.expected_points),
        }


def _check_digs(record: Record, earlier_digs: Mapping[int, int] | None) -> dict[int, int]:
    if earlier_digs is None:
        return {}
    if not isinstance(earlier_digs, Mapping):
        raise InvalidInput("earlier_digs", earlier_digs, "a mapping of player index to a count")
    for p, k in earlier_digs.items():
        _check_active(record, p, "earlier_digs")
        if isinstance(k, bool) or not isinstance(k, int) or k < 0:
            raise InvalidInput(f"earlier_digs.{p}", k, "a count >= 0")
    return dict(earlier_digs)


def guess_advice(
    record: Record,
    post: Posterior | None = None,
    earlier_digs: Mapping[int, int] | None = None,
) -> tuple[Guess, ...]:
    """For each opponent, the most likely code, its probability, its expected points.

    Parameters
    ----------
    record : Record
        The record.
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

    Raises
    ------
    InvalidInput
        ``earlier_digs`` naming a player out of range or a count below 0.

    Notes
    -----
    Myopic: the crew card now, not whether to keep it for later
    (docs/plunder.md, rule decision 7).

    Examples
    --------
    >>> g = guess_advice(Record(2))[0]
    >>> g.probability, g.expected_points
    (Fraction(1, 216), Fraction(1, 72))
    """

    expect(record, Record, "record", "a Record (Record.load reads a file)")
    digs = _check_digs(record, earlier_digs)
    post = post or posterior(record)
    if not post.deals:
        return ()
    out = []
    for p in range(record.players):
        if record.me is not None and p == record.me.player:
            continue
        code, prob = post.codes(p)[0]
        k = digs.get(p, 0)
        out.append(Guess(p, code, prob, k, prob * dig_points(k)))
    return tuple(sorted(out, key=lambda g: (-g.expected_points, g.target)))


# -- the whole analysis ------------------------------------------------------------


@dataclass(frozen=True)
class Advice:
    """What to do next: flip advice for the clue on the table, and guesses.

    Attributes
    ----------
    flip : FlipAdvice or None
        None when no clue is on the table (no observation and no ``clue``).
    guesses : tuple of Guess
        One per opponent, best expected points first.

    Examples
    --------
    >>> Advice(None, ()).to_dict()
    {'flip': None, 'guesses': []}
    """

    flip: FlipAdvice | None
    guesses: tuple[Guess, ...]

    def to_dict(self) -> dict[str, Any]:
        """The advice as JSON."""
        return {
            "flip": self.flip.to_dict() if self.flip is not None else None,
            "guesses": [g.to_dict() for g in self.guesses],
        }


@dataclass(frozen=True)
class Analysis:
    """The answer of ``isles plunder``: the deduction, and advice when asked.

    Attributes
    ----------
    record : Record
        The record analysed.
    deduction : Deduction
        What the record proves.
    advice : Advice or None
        Flip and guess advice; None when not asked for, or when the record is
        inconsistent (no deal to advise on).

    Examples
    --------
    >>> a = analyse(Record(2), advise=True)
    >>> a.status, a.advice.flip, len(a.advice.guesses)
    (<Status.EXACT: 'exact'>, None, 2)
    """

    record: Record
    deduction: Deduction
    advice: Advice | None

    @property
    def status(self) -> Status:
        """The deduction's: ``exact`` or ``inconsistent``."""
        return self.deduction.status

    def to_dict(self) -> dict[str, Any]:
        """The ``--json`` object of ``isles plunder`` (docs/plunder.md, "JSON output")."""
        return {
            **self.deduction.to_dict(),
            "advice": self.advice.to_dict() if self.advice is not None else None,
        }


def _table_clue(record: Record) -> Code | None:
    """The clue on the table: the last observation's (the combination persists)."""
    return record.observations[-1].clue if record.observations else None


def _default_active(record: Record) -> int:
    """Who is about to play: me, else the player after the last active one, else 0."""
    if record.me is not None:
        return record.me.player
    if record.observations:
        return (record.observations[-1].active + 1) % record.players
    return 0


def analyse(
    record: Record,
    *,
    advise: bool = False,
    clue: Code | None = None,
    active: int | None = None,
    earlier_digs: Mapping[int, int] | None = None,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    progress: bool = False,
) -> Analysis:
    """Everything ``isles plunder`` answers, in one call: deduction, then advice.

    Parameters
    ----------
    record : Record
        The record.
    advise : bool, default False
        Add flip advice and guess advice (for a consistent record).
    clue : Code, optional
        The combination on the table for flip advice (default: the last
        observation's clue; none with no observation, and then no flip
        advice). Only with ``advise``.
    active : int, optional
        The active player for flip advice (default: me, else the player after
        the last active one, else 0). Only with ``advise``.
    earlier_digs : mapping player -> int, optional
        Correct digs already made on each treasure, for guess advice. Only
        with ``advise``.
    time_limit : float or None, default DEFAULT_TIME_LIMIT (3 s)
        As :func:`deduce`: for the searches for smallest sets. Advice is not
        limited (a second at most).
    progress : bool, default False
        As :func:`deduce`.

    Returns
    -------
    Analysis

    Raises
    ------
    InvalidInput
        ``clue``, ``active`` or ``earlier_digs`` without ``advise``, a bad
        ``active``, ``clue`` or ``time_limit``: the checks of the declaration
        :class:`isles.models.questions.RecordAnalysis`.

    See Also
    --------
    deduce, flip_advice, guess_advice, analyse_question

    Notes
    -----
    The defaults are the rule decisions of docs/plunder.md (6: the combination
    on the table persists between turns; 7: guesses are myopic).

    Examples
    --------
    >>> from isles.models.plunder.record import example_record
    >>> a = analyse(example_record(), advise=True)
    >>> a.status.value, a.deduction.posterior.deals, a.advice.flip.active
    ('exact', 162, 0)
    >>> analyse(example_record(), active=1)
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: active: 1 is invalid; expected active only with advise = True
    """
    optional = {"clue": clue, "active": active, "earlier_digs": earlier_digs}
    given = {k: v for k, v in optional.items() if v is not None}
    question = RecordAnalysis.read(
        {"record": record, "advise": advise, "time_limit": time_limit, **given}
    )
    return analyse_question(question, progress=progress)


def analyse_question(question: RecordAnalysis, *, progress: bool = False) -> Analysis:
    """The analysis a validated :class:`~isles.models.questions.RecordAnalysis` asks for.

    What :func:`analyse` answers; the command line and the web app read the
    question from their options or request and call this.

    Examples
    --------
    >>> from isles.models.plunder.record import example_record
    >>> q = RecordAnalysis.read({"record": example_record(), "time_limit": None})
    >>> analyse_question(q).deduction.proofs
    'smallest'
    """
    record = question.record
    deduction = deduce(record, time_limit=question.time_limit, progress=progress)
    advice = None
    if question.advise and deduction.status is Status.EXACT:
        table = question.clue if question.clue is not None else _table_clue(record)
        who = question.active if question.active is not None else _default_active(record)
        flip = flip_advice(record, table, who) if table is not None else None
        guesses = guess_advice(record, deduction.posterior, question.earlier_digs)
        advice = Advice(flip, guesses)
    return Analysis(record, deduction, advice)
