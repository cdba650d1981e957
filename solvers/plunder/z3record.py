"""Plunder: the record as Z3 constraints, and its unsat sets of answers, minimal and smallest.

Implements docs/plunder.md ("Smallest conflicts", "Time limit"; seed
``seeds/003_cfc377110defcf34.txt``): one Int per player and category, one assumption
literal per answer; a minimal unsat set by deletion, a smallest one by implicit
hitting-set duality, under a :class:`~isles.solvers.work.Deadline`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import z3

from isles.models.plunder.codes import CATEGORIES, VALUES, Code, answer
from isles.models.plunder.record import Record
from isles.solvers.work import Deadline, raise_interrupt

__all__ = ["AnswerId", "OutOfTime", "Z3Record", "hitting_set"]


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


class OutOfTime(Exception):
    """The deadline passed during a search for a smallest set (caught by the searches,
    which then keep the minimal set they had)."""


# Answers tried together when growing a satisfiable set (see Z3Record._correction_set).
_GROW_BLOCK = 16

# Z3's "no timeout" (the largest unsigned 32-bit value, in milliseconds).
_NO_TIMEOUT = 2**32 - 1


# Seconds before the deadline at which Z3's own timeout may already fire (it counts
# whole milliseconds from a slightly earlier start).
_SLACK = 0.05


class Z3Record:
    """The record as Z3 constraints: one Int per player and category, one
    assumption literal per answer of a player other than me, my code and
    distinctness as facts.

    Two answers of the same player to the same clue are the same constraint:
    only the first gets a literal (a smallest or minimal set never needs both).

    Parameters
    ----------
    record : Record
        The record (checked).

    Examples
    --------
    >>> from isles.models.plunder.record import Observation
    >>> r = Record(2, (Observation(0, Code(0, 0, 0), {1: True}),
    ...                Observation(0, Code(0, 0, 0), {1: False})))
    >>> Z3Record(r).minimal_core()
    (AnswerId(observation=0, player=1), AnswerId(observation=1, player=1))
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
    # times the solving itself, so check and _assert pass the ASTs to Z3 directly.

    def check(self, lits: Sequence[Any], deadline: Deadline | None = None) -> Any:
        """Check the record with ``lits`` assumed; past ``deadline``, raise OutOfTime.

        An interrupt that Z3 reports ("unknown", interrupted or canceled before the
        deadline) goes on as one (:func:`~isles.solvers.work.raise_interrupt`), never
        as the time limit.
        """
        if deadline is not None:
            left = deadline.left()
            if left <= 0:
                raise OutOfTime
            # whole milliseconds, at most Z3's "none" (a limit of 1e308 s is none)
            self.solver.set("timeout", max(1, min(_NO_TIMEOUT, int(min(left, 1e10) * 1000))))
        asts = (z3.Ast * len(lits))(*(lit.as_ast() for lit in lits))
        result = z3.CheckSatResult(
            z3.Z3_solver_check_assumptions(self.ctx.ref(), self.solver.solver, len(lits), asts)
        )
        if result == z3.unknown:
            reason = self.solver.reason_unknown()
            out_of_time = deadline is not None and deadline.left() <= _SLACK
            if "interrupt" in reason or ("cancel" in reason and not out_of_time):
                raise_interrupt()
            if reason == "timeout" or out_of_time:
                raise OutOfTime
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
        if self.check(lits) != z3.unsat:
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

    def _correction_set(self, extra: Sequence[Any], deadline: Deadline | None) -> list[AnswerId]:
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
                found = self.check([some], deadline) == z3.sat
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
        deadline: Deadline | None = None,
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
        and bound on bit masks, :func:`hitting_set`, under "at most k", k
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
                chosen = hitting_set(mcses, k, deadline)
                if chosen is None:
                    k += 1  # no hitting set of size k: a smallest unsat set has more
                    continue
                h = [self.answers[i] for i in _bits(chosen)]
                lits = [self.literal[a] for a in h] + list(extra)
                if self.check(lits, deadline) == z3.unsat:
                    return tuple(h), True
                mcs = self._correction_set(extra, deadline)
                mcses.append(sum(1 << index[a] for a in mcs))
        except OutOfTime:
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


def hitting_set(sets: Sequence[int], k: int, deadline: Deadline | None) -> int | None:
    """A set of at most ``k`` elements meeting every one of ``sets``, or None if none exists.

    Sets and the answer are bit masks. Branch and bound: branch on the
    elements of the smallest set not yet met (most frequent first; an element
    tried before is left out of the later branches), prune when more sets than
    the budget left are pairwise disjoint (each needs its own element).
    Raises OutOfTime past ``deadline``.

    Examples
    --------
    >>> hitting_set([0b011, 0b110], 1, None), hitting_set([0b001, 0b110], 1, None)
    (2, None)
    """
    nodes = 0

    def search(live: list[int], budget: int, chosen: int) -> int | None:
        nonlocal nodes
        if not live:
            return chosen
        if budget == 0:
            return None
        nodes += 1
        if deadline is not None and nodes % 512 == 0 and deadline.passed():
            raise OutOfTime
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
