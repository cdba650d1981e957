"""Plunder: what ``isles plunder RECORD`` answers: the deduction, then advice when asked.

Implements docs/plunder.md ("JSON output", rule decisions 6 and 7, "Dig now or wait";
seed ``seeds/003_cfc377110defcf34.txt``): the answer to
:class:`~isles.models.plunder.questions.RecordAnalysis`, what the record proves
(:mod:`~isles.solvers.plunder.deduction`), then flip and guess advice, and dig now or
wait (:mod:`~isles.solvers.plunder.dig`) within its share of the time: the web
notepad's one call (docs/serve.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from isles.models.errors import InvalidInput, IslesError
from isles.models.plunder.codes import Code
from isles.models.plunder.play import Policy
from isles.models.plunder.questions import DigQuestion, RecordAnalysis
from isles.models.plunder.record import Record
from isles.models.status import Status
from isles.solvers.plunder.deduction import DEFAULT_TIME_LIMIT, Deduction, prove
from isles.solvers.plunder.dig import DigAdvice, answer_dig_question
from isles.solvers.plunder.flips import FlipAdvice, rank_flips
from isles.solvers.plunder.guesses import Guess, rank_guesses
from isles.solvers.plunder.registry import as_policy
from isles.solvers.work import Deadline, Progress

__all__ = ["MIN_DIG_SECONDS", "Advice", "Analysis", "analyse", "answer_record_analysis"]

MIN_DIG_SECONDS = 0.5
"""The least time the dig advice of an analysis has, however near its ``dig_deadline``:
a game or two played on (one at least is always played)."""


@dataclass(frozen=True)
class Advice:
    """What to do next: flip advice for the clue on the table, guesses, dig now or wait.

    Attributes
    ----------
    flip : FlipAdvice or None
        None when no clue is on the table (no observation and no ``clue``).
    guesses : tuple of Guess
        One per opponent, best expected points first.
    dig : DigAdvice or None
        Dig now or wait, when the question names a ``dig_policy`` and the record
        says who I am; None otherwise, or when it could not be given (``dig_error``).
    dig_error : IslesError or None
        Why the dig advice asked for could not be given (a finished game, a policy
        whose first game outlasts the dig advice's time): the flip and guess advice
        stand without it.

    Examples
    --------
    >>> Advice(None, ()).to_dict()
    {'flip': None, 'guesses': []}
    >>> error = InvalidInput("dig_policy", "search:10000", "a quicker policy")
    >>> Advice(None, (), dig_error=error).to_dict()["dig_error"]["message"]
    'dig_policy: "search:10000" is invalid; expected a quicker policy'
    """

    flip: FlipAdvice | None
    guesses: tuple[Guess, ...]
    dig: DigAdvice | None = None
    dig_error: IslesError | None = None

    def to_dict(self) -> dict[str, Any]:
        """The advice as JSON; ``dig`` and ``dig_error`` only when there (a dig advice's
        error spelt as JSON spells the request's values, as the web app's refusals)."""
        out: dict[str, Any] = {
            "flip": self.flip.to_dict() if self.flip is not None else None,
            "guesses": [g.to_dict() for g in self.guesses],
        }
        if self.dig is not None:
            out["dig"] = self.dig.to_dict()
        if self.dig_error is not None:
            error = self.dig_error
            if isinstance(error, InvalidInput):
                error = error.in_json()
            out["dig_error"] = {
                "field": getattr(error, "field", None),
                "expected": getattr(error, "expected", None),
                "message": str(error),
            }
        return out


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
    dig_policy: Policy | str | None = None,
    dig_samples: int | None = None,
    dig_time_limit: float | None = None,
    dig_deadline: float | None = None,
    progress: Progress = None,
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
        As :func:`deduce`: for the searches for smallest sets. Flip and guess
        advice are not limited (a second at most).
    dig_policy : Policy or str, optional
        Add dig now or wait (for a record with ``me``), its games played on by
        this policy (as :func:`dig_advice`'s ``policy``). Only with ``advise``.
    dig_samples : int, optional
        The games the dig advice plays on (default the declaration's, 200). Only
        with ``dig_policy``.
    dig_time_limit : float, optional
        Seconds the dig advice plays at most (past them it stands on the games
        played so far, and says so). Only with ``dig_policy``.
    dig_deadline : float, optional
        Seconds after the call by which the dig advice ends, if sooner than
        ``dig_time_limit`` (the analysis's own time counts; it keeps
        :data:`MIN_DIG_SECONDS` at least). Only with ``dig_policy``.
    progress : bool, None or callable, default None
        A progress bar (:data:`isles.solvers.work.Progress`), as :func:`deduce`.

    Returns
    -------
    Analysis

    Raises
    ------
    InvalidInput
        ``clue``, ``active``, ``earlier_digs`` or ``dig_policy`` without ``advise``,
        a bad ``active``, ``clue`` or ``time_limit``: the checks of the declaration
        :class:`isles.models.plunder.questions.RecordAnalysis`; an unknown
        ``dig_policy``. What only the games played on find (a finished game) is the
        advice's ``dig_error``.

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
    >>> dug = analyse(example_record(), advise=True, dig_policy="threshold", dig_samples=20)
    >>> dug.advice.dig.samples, [t.target for t in dug.advice.dig.targets]
    (20, [1, 2, 3])
    >>> analyse(example_record(), active=1)
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: active: 1 is invalid; expected active only with advise = True
    """
    optional = {
        "clue": clue,
        "active": active,
        "earlier_digs": earlier_digs,
        "dig_policy": dig_policy,
        "dig_samples": dig_samples,
        "dig_time_limit": dig_time_limit,
        "dig_deadline": dig_deadline,
    }
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
    began = Deadline(question.dig_deadline)  # the dig advice's deadline counts from here
    record = question.record
    policy = None if question.dig_policy is None else as_policy(question.dig_policy, "dig_policy")
    deduction = prove(record, question.time_limit, progress)
    advice = None
    if question.advise and deduction.status is Status.EXACT:
        table = question.clue if question.clue is not None else _table_clue(record)
        who = question.active if question.active is not None else _default_active(record)
        flip = rank_flips(record, table, who, record.seen) if table is not None else None
        guesses = rank_guesses(record, deduction.posterior, question.earlier_digs or {})
        dig, error = None, None
        if policy is not None and record.me is not None:
            dig, error = _dig(question, policy, began, progress)
        advice = Advice(flip, guesses, dig, error)
    return Analysis(record, deduction, advice)


def _dig(
    question: RecordAnalysis, policy: Policy, began: Deadline, progress: Progress
) -> tuple[DigAdvice | None, IslesError | None]:
    """Dig now or wait within the analysis's share of the time, or why not.

    The seconds are ``dig_time_limit``, and what is left of ``dig_deadline`` (at least
    :data:`MIN_DIG_SECONDS`) if less. Seconds in which not even one game played on ends
    (a search of a large budget) are the analysis's share of the time, not a field of
    the dig advice's own: the refusal is said of the policy chosen, ``dig_policy``.
    """
    seconds = question.dig_time_limit
    if question.dig_deadline is not None:
        left = max(MIN_DIG_SECONDS, began.left())
        seconds = left if seconds is None else min(seconds, left)
    try:
        asked = DigQuestion.read(
            {
                "record": question.record,
                "policy": policy,
                "samples": question.dig_samples,
                "time_limit": seconds,
            }
        )
        return answer_dig_question(asked, progress=progress), None
    except InvalidInput as exc:
        if exc.field != "time_limit":
            return None, exc
        expected = f"a policy that plays a game in less than the dig advice's {seconds:g} s"
        return None, InvalidInput("dig_policy", question.dig_policy, expected)
    except IslesError as exc:
        return None, exc
