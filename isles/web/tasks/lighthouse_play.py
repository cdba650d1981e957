"""The lighthouse advisor's "play this move": the position after a decision (docs/serve.md).

The page follows a whole game: after the advice it plays the chosen decision
with the library's own turn (:func:`isles.models.lighthouse.rules.play_turn`), never a
copy of the rules in the browser.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from isles import lighthouse
from isles.models.errors import InvalidInput
from isles.models.lighthouse.questions import LighthouseAdvice
from isles.models.lighthouse.rules import play_turn

__all__ = ["play_move"]


def _island(value: object, field: str, islands: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < islands:
        raise InvalidInput(field, value, f"an island index 0..{islands - 1}")
    return value


def _colour(value: object, field: str) -> str:
    if not isinstance(value, str):
        raise InvalidInput(field, value, "a colour name")
    return value


def _decision(raw: object, islands: int) -> lighthouse.Decision:
    """A decision as ``Decision.to_dict()`` writes it (an advice's ``best`` or alternative)."""
    if not isinstance(raw, Mapping) or set(raw) - {"placements", "bonus"}:
        raise InvalidInput("decision", raw, '{"placements": [[colour, island or null], ...]}')
    placements = raw.get("placements")
    if not isinstance(placements, list):
        raise InvalidInput("decision.placements", placements, "a list of [colour, island or null]")
    out: list[tuple[str, int | None]] = []
    for k, pair in enumerate(placements):
        field = f"decision.placements[{k}]"
        if not isinstance(pair, list) or len(pair) != 2:
            raise InvalidInput(field, pair, "[colour, island or null]")
        island = None if pair[1] is None else _island(pair[1], field, islands)
        out.append((_colour(pair[0], field), island))
    bonus = raw.get("bonus")
    if bonus is not None:
        if not isinstance(bonus, list) or len(bonus) != 2:
            raise InvalidInput("decision.bonus", bonus, "[colour, island] or null")
        bonus = (_colour(bonus[0], "decision.bonus"), _island(bonus[1], "decision.bonus", islands))
    return lighthouse.Decision(tuple(out), bonus)


def play_move(body: object) -> dict[str, Any]:
    """The position after ``decision`` on ``roll`` (docs/lighthouse.md, "How we read the rules").

    Parameters
    ----------
    body : object
        The advice request (the kit, ``position``, ``roll``) and ``decision``, as
        an advice's ``best`` or one of its ``alternatives`` writes it.

    Returns
    -------
    dict
        ``{"position": Position.to_dict(), "outcome": "playing" or "won" or "lost"}``.

    Raises
    ------
    InvalidInput
        Naming the field: the kit, position or roll as the advice reads them, or
        ``decision`` when it is not a legal decision of this roll.

    Examples
    --------
    >>> body = {"islands": 1, "sea_cards": 2, "roll": ["red", "blue"],
    ...         "position": {"discs": [[]], "boat": 0, "maurice": 0}}
    >>> play_move({**body, "decision": {"placements": [["red", 0], ["blue", 0]], "bonus": None}})
    {'position': {'discs': [['red', 'blue']], 'boat': 0, 'maurice': 0}, 'outcome': 'playing'}
    """
    if not isinstance(body, Mapping) or "decision" not in body:
        raise InvalidInput("decision", None, "the decision to play", problem="missing")
    rest = {k: v for k, v in body.items() if k != "decision"}
    question = LighthouseAdvice.read(rest, spelling="key")
    kit = question.chosen_kit()
    position, roll = question.chosen_position(kit), question.chosen_roll(kit)
    decision = _decision(body["decision"], len(kit.islands))
    result = play_turn(kit, position, roll, decision)
    return {"position": result.position.to_dict(), "outcome": str(result.outcome)}
