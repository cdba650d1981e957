"""The lighthouse advisor's jobs and checks (docs/serve.md, "Endpoints"; docs/lighthouse.md)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import isles
from isles.models.lighthouse.questions import KitChoice, LighthouseAdvice, LighthousePosition
from isles.web.tasks.base import Task

__all__ = ["TASKS", "check_position", "lighthouse_kit"]


def lighthouse_kit(body: object) -> dict[str, Any]:
    """The kit a lighthouse request names, in the kit format (docs/lighthouse.md, "Formats").

    Read with the library's declaration
    :class:`~isles.models.lighthouse.questions.KitChoice`.

    Parameters
    ----------
    body : object
        ``{"players": 2..4}``, ``{"islands": 1..8}`` or ``{"kit": KIT}`` (a kit's
        JSON, or a name of the registry, docs/lighthouse.md "Named kits"), each with an optional
        ``sea_cards``; ``{}`` is the real game for 2 players.

    Returns
    -------
    dict
        ``Kit.to_dict()``.

    Raises
    ------
    InvalidInput
        Naming the field.

    Examples
    --------
    >>> lighthouse_kit({"islands": 2, "sea_cards": 3})["islands"]
    [['red', 'blue'], ['green', 'orange']]
    >>> len(lighthouse_kit({})["islands"]), len(lighthouse_kit({"kit": "game-3"})["islands"])
    (8, 6)
    """
    return KitChoice.read(body, spelling="key").chosen_kit().to_dict()


def check_position(body: object) -> dict[str, Any]:
    """An uploaded lighthouse position, checked against its kit (docs/lighthouse.md, "Formats").

    Parameters
    ----------
    body : object
        The kit as for :func:`lighthouse_kit`, and ``position``.

    Returns
    -------
    dict
        ``Position.to_dict()``.

    Raises
    ------
    InvalidInput
        Naming the field (``position.boat``).

    Examples
    --------
    >>> check_position({"islands": 1, "position": {"discs": [[]], "boat": 0, "maurice": 0}})
    {'discs': [[]], 'boat': 0, 'maurice': 0}
    """
    question = LighthousePosition.read(body, spelling="key")
    return question.chosen_position(question.chosen_kit()).to_dict()


def _read_lighthouse(body: object) -> dict[str, Any]:
    """The advice request, read with the library's declaration, its position and roll
    checked against the kit before any job starts."""
    question = LighthouseAdvice.read(body, spelling="key")
    kit = question.chosen_kit()
    position, roll = question.chosen_position(kit), question.chosen_roll(kit)
    return {"advice": question.model_copy(update={"kit": kit, "position": position, "roll": roll})}


def _run_lighthouse(args: dict[str, Any]) -> dict[str, Any]:
    """The advice; never a progress bar (it would print on the server's console)."""
    question: LighthouseAdvice = args["advice"]
    return isles.answer(question, progress=False).to_dict()


def _resident(report: Callable[[float], None]) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """The advice of a process that stays between jobs: the library keeps the last kit's
    table in memory there (``isles.lighthouse.best_move``), and ``report`` is told the
    fraction of a table's solve done (no progress bar on the server's console).

    Examples
    --------
    >>> from isles import lighthouse
    >>> advise = _resident(lambda done: None)
    >>> body = {"islands": 1, "sea_cards": 2, "roll": ["red", "red"],
    ...         "position": {"discs": [[]], "boat": 0, "maurice": 0}}
    >>> kit = lighthouse.default_kit(1, 2)
    >>> roll = lighthouse.Roll.from_faces(kit, ("red", "red"))
    >>> same = lighthouse.best_move(kit, lighthouse.Position(((),), boat=0, maurice=0), roll)
    >>> asked = _read_lighthouse(body)
    >>> advise(asked) == same.to_dict() and advise(asked) == same.to_dict()
    True
    """

    def advise(args: dict[str, Any]) -> dict[str, Any]:
        question: LighthouseAdvice = args["advice"]
        return isles.answer(question, progress=report).to_dict()

    return advise


TASKS = {"lighthouse": Task(_read_lighthouse, _run_lighthouse, 300.0, _resident)}
