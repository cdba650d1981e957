"""The Plunder notepad's jobs and checks (docs/serve.md, "Endpoints"; docs/plunder.md)."""

from __future__ import annotations

from typing import Any

import isles
from isles import plunder
from isles.models.jsonio import read_object
from isles.web.tasks.base import Task

__all__ = ["DIG_POLICY_KEY", "DIG_SAMPLES", "TASKS", "check_record", "plunder_example"]


#: The notepad's request key naming the policy of its dig advice's games played on:
#: the question's own ``dig_policy`` (with ``advise`` only).
DIG_POLICY_KEY = "dig_policy"

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

#: The share of the job's budget by which the dig advice ends, the analysis's time
#: counted: a quarter of it left to spare.
DIG_SHARE = 0.75


def _read_plunder(body: object) -> dict[str, Any]:
    """The notepad's request, read with the library's declaration
    (:class:`plunder.RecordAnalysis`, JSON keys as its fields).

    With ``advise``, the notepad's advice weighs digging now or waiting too: the
    request's ``dig_policy`` (default :class:`plunder.DigQuestion`'s ``policy``), on
    the web app's own games and budget (:data:`DIG_SAMPLES`, :data:`DIG_SECONDS`,
    :data:`DIG_SHARE` of :data:`PLUNDER_SECONDS`). A policy's name is looked up in
    the registry here, so that a bad one is refused with the request.

    Examples
    --------
    >>> from isles.models.errors import InvalidInput
    >>> record = plunder.example_record().to_dict()
    >>> asked = _read_plunder({"record": record, "advise": True, "dig_policy": "search"})
    >>> asked["question"].dig_policy, asked["question"].dig_samples
    ('search', 200)
    >>> _read_plunder({"record": record, "advise": True})["question"].dig_policy
    'threshold'
    >>> try:
    ...     _read_plunder({"record": record, "dig_policy": "search"})
    ... except InvalidInput as exc:
    ...     print(exc.field, "|", exc.expected)
    dig_policy | dig_policy only with advise = true
    """
    fields = body
    if isinstance(body, dict) and body.get("advise") is True:
        fields = {
            DIG_POLICY_KEY: plunder.DigQuestion.model_fields["policy"].default,
            "dig_samples": DIG_SAMPLES,
            "dig_time_limit": DIG_SECONDS,
            "dig_deadline": PLUNDER_SECONDS * DIG_SHARE,
            **body,
        }
    question = plunder.RecordAnalysis.read(fields, spelling="key")
    if isinstance(question.dig_policy, str):  # refused here, named, if unknown
        plunder.policy_by_name(question.dig_policy, DIG_POLICY_KEY)
    return {"question": question}


def _run_plunder(args: dict[str, Any]) -> dict[str, Any]:
    question: plunder.RecordAnalysis = args["question"]
    return isles.answer(question, progress=False).to_dict()


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
