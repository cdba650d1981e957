"""Plunder: what ``isles plunder RECORD`` answers: the deduction, then advice when asked.

Implements docs/plunder.md ("JSON output", rule decisions 6 and 7; seed
``seeds/003_cfc377110defcf34.txt``): the answer to
:class:`~isles.models.plunder.questions.RecordAnalysis`, what the record proves
(:mod:`~isles.solvers.plunder.deduction`), then flip and guess advice.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from isles.models.plunder.codes import Code
from isles.models.plunder.questions import RecordAnalysis
from isles.models.plunder.record import Record
from isles.models.status import Status
from isles.solvers.plunder.deduction import DEFAULT_TIME_LIMIT, Deduction, prove
from isles.solvers.plunder.flips import FlipAdvice, rank_flips
from isles.solvers.plunder.guesses import Guess, rank_guesses
from isles.solvers.work import Progress

__all__ = ["Advice", "Analysis", "analyse", "answer_record_analysis"]


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
    progress: Progress = False,
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
    progress : bool, None or callable, default False
        A progress bar (:data:`isles.solvers.work.Progress`), as :func:`deduce`.

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
    deduce, flip_advice, guess_advice, isles.answer

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
    # time_limit always given: None is no limit, not the default
    question = RecordAnalysis.read(
        {"record": record, "advise": advise, "time_limit": time_limit, **given}
    )
    return answer_record_analysis(question, progress=progress)


def answer_record_analysis(question: RecordAnalysis, *, progress: Progress = None) -> Analysis:
    """The analysis a validated :class:`~isles.models.plunder.questions.RecordAnalysis`
    asks for: what :func:`analyse` answers, and ``isles.answer`` for this question.

    Examples
    --------
    >>> from isles.models.plunder.record import example_record
    >>> q = RecordAnalysis.read({"record": example_record(), "time_limit": None})
    >>> answer_record_analysis(q).deduction.proofs
    'smallest'
    """
    record = question.record
    deduction = prove(record, question.time_limit, progress)
    advice = None
    if question.advise and deduction.status is Status.EXACT:
        table = question.clue if question.clue is not None else _table_clue(record)
        who = question.active if question.active is not None else _default_active(record)
        flip = rank_flips(record, table, who, record.seen) if table is not None else None
        guesses = rank_guesses(record, deduction.posterior, question.earlier_digs or {})
        advice = Advice(flip, guesses)
    return Analysis(record, deduction, advice)
