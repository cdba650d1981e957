"""Every question isles answers, declared once (docs/json.md, "Questions").

Each game declares its questions in its own module (``isles.models.rally.questions``,
``isles.models.plunder.questions``, ...), with a ``QUESTIONS`` table by name;
:func:`questions` gathers them, importing each game's declarations only when asked
(a command imports its own game's declarations only, for a quick start-up). The
library validates a call with the declaration, the command line derives its
options from it (``isles.options``) and the web app reads its requests with it.
"""

from __future__ import annotations

import importlib

from isles.models.contract import Question
from isles.models.errors import InvalidInput

__all__ = ["GAMES", "game_of", "questions"]

#: The games, each with its package of models (``isles.models.<game>``) and of solvers.
GAMES = ("rally", "plunder", "layout", "lighthouse", "ships")


def questions() -> dict[str, type[Question]]:
    """Every game's questions by name (``"trip"``, ``"drive"``, ...).

    Examples
    --------
    >>> table = questions()
    >>> table["trip"].__name__, table["sail"].__module__
    ('Trip', 'isles.models.ships.questions')
    """
    gathered: dict[str, type[Question]] = {}
    for game in GAMES:
        gathered.update(importlib.import_module(f"isles.models.{game}.questions").QUESTIONS)
    return gathered


def game_of(question: type[Question]) -> str:
    """The game a question belongs to: the package its declaration stands in.

    Examples
    --------
    >>> from isles.models.rally.questions import Trip
    >>> game_of(Trip)
    'rally'
    """
    parts = question.__module__.split(".")
    if parts[:2] != ["isles", "models"] or len(parts) < 3 or parts[2] not in GAMES:
        raise InvalidInput(
            "question",
            question.__name__,
            "a question of a game's catalogue (isles.rally.Trip, ...)",
        )
    return parts[2]
