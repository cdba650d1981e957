"""The board set-up's jobs and checks (docs/serve.md, "Endpoints"; docs/layout.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from isles import layout
from isles.models.errors import InvalidInput
from isles.web.tasks.base import Task

__all__ = ["LAYOUT_SECONDS", "TASKS", "layout_rules"]

#: Seconds each CP-SAT solve of a board may take (docs/layout.md); a job's own
#: limit (docs/serve.md) is larger.
LAYOUT_SECONDS = 20.0


def layout_rules() -> dict[str, Any]:
    """The rules a board set-up may switch, and each game's defaults (docs/layout.md).

    Examples
    --------
    >>> layout_rules()["defaults"]["base"]
    ['six-eight-apart']
    """
    return {
        "rules": [rule.value for rule in layout.Rule],
        "defaults": {
            "ships": sorted(rule.value for rule in layout.DEFAULT_RULES),
            "base": sorted(rule.value for rule in layout.GAME_RULES),
            "extension": sorted(rule.value for rule in layout.GAME_RULES),
        },
        "games": [game.value for game in layout.Game],
        "max_radius": layout.MAX_RADIUS,
    }


def _read(body: object) -> layout.Layout:
    """A set-up request, read with the library's own declaration of the question."""
    if isinstance(body, Mapping) and "time_limit" not in body:
        body = {**body, "time_limit": LAYOUT_SECONDS}
    return layout.Layout.read(body, spelling="key")


def _read_layout(body: object) -> dict[str, Any]:
    question = _read(body)
    if question.holding is not None:
        raise InvalidInput("holding", "given", "the next-move job for the tiles in hand")
    return {"question": question, "request": layout.request_of(question.set_up())}


def _run_layout(args: dict[str, Any]) -> dict[str, Any]:
    return layout.lay_out(args["question"], progress=False).to_dict()  # no bars in the log


def _read_next_move(body: object) -> dict[str, Any]:
    question = _read(body)
    if question.holding is None:
        raise InvalidInput("holding", None, "two terrains (the tiles in hand)", problem="missing")
    return {"question": question, "request": layout.request_of(question.set_up())}


TASKS = {
    "layout": Task(_read_layout, _run_layout, 120.0),
    "next-move": Task(_read_next_move, _run_layout, 120.0),
}
