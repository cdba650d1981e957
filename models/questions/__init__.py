"""Every question isles answers, declared once (docs/json.md, "Questions").

One module per game (``isles.models.questions.rally``, ``.plunder``, ``.layout``,
``.lighthouse``, ``.ships``), each with its questions and its own ``QUESTIONS``;
:data:`QUESTIONS` here gathers them, importing each game's module on first use
(a command imports its own game's declarations only, for a quick start-up). The
library validates a call with the declaration, the command line derives its
options from it (``isles.options``) and the web app reads its requests with it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from isles.models.contract import Question

__all__ = ["GAMES", "QUESTIONS"]

#: The modules of the questions, one per game.
GAMES = ("rally", "plunder", "layout", "lighthouse", "ships")


def __getattr__(name: str) -> dict[str, type[Question]]:
    # QUESTIONS: every game's questions by name, gathered on first use.
    if name != "QUESTIONS":
        raise AttributeError(f"module 'isles.models.questions' has no attribute {name!r}")
    gathered: dict[str, type[Question]] = {}
    for game in GAMES:
        gathered.update(importlib.import_module(f"isles.models.questions.{game}").QUESTIONS)
    return gathered
