"""The board set-up's jobs and checks (docs/serve.md, "Endpoints"; docs/layout.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import isles
from isles import layout
from isles.models.errors import InvalidInput
from isles.models.layout.board_rules import RULE_KINDS
from isles.models.layout.groups import (
    BOARD_SHAPE,
    HARBOUR_KINDS,
    LAND_COUNT,
    LAND_INVENTORY,
    LAND_TOKENS,
    SEA_NUMBERS,
    SPIRAL,
)
from isles.models.layout.request import DEFAULT_RULES, GAME_RULES, MAX_RADIUS
from isles.models.layout.setup import request_of
from isles.web.tasks.base import Task

__all__ = ["LAYOUT_SECONDS", "REQUIREMENTS", "TASKS", "layout_rules"]

#: The requirements a conflict may name besides the rules (docs/layout.md, "Rule
#: decisions"), in players' words; ``fixed Q,R`` is the tile already down at Q,R.
REQUIREMENTS = {
    LAND_COUNT: "the number of land hexes",
    LAND_INVENTORY: "the land tiles in the box",
    LAND_TOKENS: "the number tokens in the box",
    SEA_NUMBERS: "the numbers sea tokens may show",
    HARBOUR_KINDS: "the game's harbours",
    SPIRAL: "the rulebook's spiral of lettered tokens",
    BOARD_SHAPE: "the board's shape",
}

#: Seconds each CP-SAT solve of a board may take (docs/layout.md); a job's own
#: limit (docs/serve.md) is larger.
LAYOUT_SECONDS = 20.0


def _radius_facts(radius: int) -> dict[str, Any]:
    """What the ships set-up of ``radius`` asks with the defaults: hexes, land, tiles."""
    request = layout.setup_request(radius=radius)
    return {
        "radius": radius,
        "positions": request.board_size,
        "land": request.land,
        "land_tiles": sum(request.inventory.values()),
    }


def layout_rules() -> dict[str, Any]:
    """The rules a board set-up may switch, in words, and each game's defaults (docs/layout.md).

    Returns
    -------
    dict
        ``rules`` (the switchable rules' names), ``titles`` (every rule kind's
        title, :attr:`BoardRule.title`), ``requirements`` (the other names a
        conflict may hold, in words), ``defaults`` (each game's rules on),
        ``games``, ``max_radius`` and ``radii``: for each ships radius, its
        positions, the land hexes the defaults ask (``land``) and the land
        tiles of the box (``land_tiles``): a radius whose ``land`` exceeds
        ``land_tiles`` cannot be laid with the defaults.

    Examples
    --------
    >>> catalogue = layout_rules()
    >>> catalogue["defaults"]["base"], catalogue["titles"]["six-eight-apart"]
    (['six-eight-apart'], '6s and 8s never side by side')
    >>> catalogue["radii"][4]
    {'radius': 4, 'positions': 61, 'land': 20, 'land_tiles': 19}
    """
    return {
        "rules": [rule.value for rule in layout.Rule],
        "titles": {kind: rule.title for kind, rule in RULE_KINDS.items()},
        "requirements": REQUIREMENTS,
        "radii": [_radius_facts(radius) for radius in range(MAX_RADIUS + 1)],
        "defaults": {
            "ships": sorted(rule.value for rule in DEFAULT_RULES),
            "base": sorted(rule.value for rule in GAME_RULES),
            "extension": sorted(rule.value for rule in GAME_RULES),
        },
        "games": [game.value for game in layout.Game],
        "max_radius": MAX_RADIUS,
    }


def _read(body: object) -> layout.Layout:
    """A set-up request, read with the library's own declaration of the question."""
    if isinstance(body, Mapping) and "time_limit" not in body:
        body = {**body, "time_limit": LAYOUT_SECONDS}
    return layout.Layout.read(body, spelling="key")


def _checked(question: layout.Layout) -> dict[str, Any]:
    """The question, once what needs the game or the board is checked too (before the job)."""
    request_of(question.set_up())
    return {"question": question}


def _read_layout(body: object) -> dict[str, Any]:
    question = _read(body)
    if question.holding is not None:
        raise InvalidInput("holding", "given", "the next-move job for the tiles in hand")
    return _checked(question)


def _run_layout(args: dict[str, Any]) -> dict[str, Any]:
    question: layout.Layout = args["question"]
    return isles.answer(question, progress=False).to_dict()  # no bars in the log


def _read_next_move(body: object) -> dict[str, Any]:
    question = _read(body)
    if question.holding is None:
        raise InvalidInput("holding", None, "two terrains (the tiles in hand)", problem="missing")
    return _checked(question)


TASKS = {
    "layout": Task(_read_layout, _run_layout, 120.0),
    "next-move": Task(_read_next_move, _run_layout, 120.0),
}
