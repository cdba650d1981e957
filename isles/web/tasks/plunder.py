"""The Plunder notepad's jobs and checks (docs/serve.md, "Endpoints"; docs/plunder.md)."""

from __future__ import annotations

import time
from typing import Any

import isles
from isles import plunder
from isles.models.errors import InvalidInput, IslesError
from isles.models.jsonio import read_object
from isles.web.tasks.base import Task

__all__ = ["DIG_POLICY_KEY", "DIG_SAMPLES", "TASKS", "check_record", "plunder_example"]


#: The notepad's request key naming the policy of its dig advice's games played on
#: (read as the dig advice's own ``policy``; with ``advise`` only).
DIG_POLICY_KEY = "dig_policy"


def _read_plunder(body: object) -> dict[str, Any]:
    """The notepad's request, read with the library's own declarations: the analysis
    (:class:`plunder.RecordAnalysis`) and, with ``advise``, the dig advice's policy
    (``dig_policy``, :class:`plunder.DigQuestion`'s ``policy`` and its default).

    Examples
    --------
    >>> from isles.models.plunder.record import example_record
    >>> record = example_record().to_dict()
    >>> _read_plunder({"record": record, "advise": True, "dig_policy": "search"})["dig_policy"]
    'search'
    >>> _read_plunder({"record": record, "advise": True})["dig_policy"]
    'threshold'
    >>> try:
    ...     _read_plunder({"record": record, "dig_policy": "search"})
    ... except InvalidInput as exc:
    ...     print(exc.field, "|", exc.expected)
    dig_policy | dig_policy only with advise
    """
    fields = dict(body) if isinstance(body, dict) else body
    given = isinstance(fields, dict) and DIG_POLICY_KEY in fields
    policy = fields.pop(DIG_POLICY_KEY) if isinstance(fields, dict) and given else None
    question = plunder.RecordAnalysis.read(fields, spelling="key")
    if given and not question.advise:
        raise InvalidInput(DIG_POLICY_KEY, policy, f"{DIG_POLICY_KEY} only with advise")
    default = plunder.DigQuestion.model_fields["policy"].default
    if given:
        if not isinstance(policy, str):
            raise InvalidInput(DIG_POLICY_KEY, policy, "a built-in policy's name, name[:ARG]")
        plunder.policy_by_name(policy, DIG_POLICY_KEY)  # refused here, named, if unknown
    return {"question": question, "dig_policy": policy if given else default}


#: Games played on for the notepad's dig-now-or-wait advice, which it adds to the
#: advice (``advise``) when the record says who I am: the web app's own choice
#: (about 2 s for 4 players, for a player waiting at a phone), docs/serve.md.
DIG_SAMPLES = 200

#: The notepad's whole budget (seconds), the Task's time limit below.
PLUNDER_SECONDS = 60.0

#: Seconds the dig advice may take at most (its own budget inside the job's): past
#: them it stands on the games played so far, and says so (``stopped_at_time_limit``),
#: so that the flip and guess advice always come back (5-6 players), docs/serve.md.
DIG_SECONDS = 15.0


def _dig_seconds(elapsed: float) -> float:
    """The dig advice's budget after ``elapsed`` seconds of analysis: at most
    DIG_SECONDS, and a quarter of the job's budget left to spare.

    >>> _dig_seconds(0.0), _dig_seconds(40.0), _dig_seconds(59.0)
    (15.0, 5.0, 0.5)
    """
    return max(0.5, min(DIG_SECONDS, PLUNDER_SECONDS * 0.75 - elapsed))


def _run_plunder(args: dict[str, Any]) -> dict[str, Any]:
    question, policy = args["question"], args["dig_policy"]
    record = question.record
    started = time.monotonic()
    answer = isles.answer(question, progress=False)
    out = answer.to_dict()
    advice = out.get("advice")
    if isinstance(advice, dict) and record.me is not None and answer.status == "exact":
        seconds = _dig_seconds(time.monotonic() - started)
        try:
            advice["dig"] = plunder.dig_advice(
                record, policy=policy, samples=DIG_SAMPLES, time_limit=seconds
            ).to_dict()
        except InvalidInput as exc:  # flip and guess advice stand without it
            if exc.field == "time_limit":  # the web app's own budget, not the user's:
                # said of what the request chose, the policy (a search's first game
                # was still going at the dig advice's budget)
                exc = InvalidInput(
                    DIG_POLICY_KEY,
                    policy,
                    f"a policy that plays a game in less than the dig advice's {seconds:g} s",
                )
            exc = exc.in_json()  # the request's values as JSON spells them
            advice["dig_error"] = {
                "field": exc.field,
                "expected": exc.expected,
                "message": str(exc),
            }
        except IslesError as exc:
            advice["dig_error"] = {
                "field": getattr(exc, "field", None),
                "expected": getattr(exc, "expected", None),
                "message": str(exc),
            }
    return out


def plunder_example() -> dict[str, Any]:
    """The example record (docs/plunder.md) in the record format.

    Examples
    --------
    >>> plunder_example()["players"]
    4
    """
    return plunder.example_record().to_dict()


def check_record(body: object) -> dict[str, Any]:
    """An uploaded Plunder record, checked and written back (docs/plunder.md, "The record format").

    Parameters
    ----------
    body : object
        ``{"record": RECORD}``.

    Returns
    -------
    dict
        ``Record.to_dict()``.

    Raises
    ------
    InvalidInput
        As :meth:`Record.from_dict`, naming the field (``record.observations[2].answers``).

    Examples
    --------
    >>> check_record({"record": {"players": 3}})
    {'players': 3, 'observations': []}
    """
    raw = read_object(body, "request", ["record"])
    # The reader of the notepad's analysis (one declaration): a record this check
    # accepts is one the analysis and its advice accept.
    question: plunder.RecordAnalysis = _read_plunder({"record": raw["record"]})["question"]
    return question.record.to_dict()


TASKS = {"plunder": Task(_read_plunder, _run_plunder, PLUNDER_SECONDS)}
