"""The board set-up's jobs and checks (docs/serve.md, "Endpoints"; docs/layout.md)."""

from __future__ import annotations

from typing import Any

from isles import layout, rally
from isles.models.errors import SEED_MAX, InvalidInput
from isles.models.jsonio import read_bool, read_int, read_list, read_object
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


def _read_rules(raw: object) -> dict[str, bool]:
    names = [rule.value for rule in layout.Rule]
    switches = read_object(raw, "rules", [], names)
    return {name: read_bool(on, f"rules.{name}") for name, on in switches.items()}


def _read_layout(body: object) -> dict[str, Any]:
    raw = read_object(body, "request", ["game"], ["radius", "rules", "seed", "fixed"])
    game = raw["game"]
    games = [g.value for g in layout.Game]
    if game not in games:
        raise InvalidInput("game", game, "one of " + ", ".join(games))
    rules = _read_rules(raw.get("rules", {}))
    seed = read_int(raw.get("seed", 0), "seed", 0, SEED_MAX)
    options: dict[str, Any] = {"game": game, "rules": rules}
    if raw.get("radius") is not None:
        options["radius"] = read_int(raw["radius"], "radius", 0, layout.MAX_RADIUS)
    if raw.get("fixed") is not None:
        fixed = rally.Board.from_dict(raw["fixed"])
        options["fixed"] = fixed
    request = layout.setup_request(**options)
    return {"request": request, "seed": seed}


def _run_layout(args: dict[str, Any]) -> dict[str, Any]:
    result = layout.solve_layout(args["request"], seed=args["seed"], time_limit=LAYOUT_SECONDS)
    return result.to_dict()


def _read_next_move(body: object) -> dict[str, Any]:
    raw = read_object(body, "request", ["holding"], ["radius", "rules", "fixed"])
    holding = read_list(raw["holding"], "holding")
    terrains = [t.value for t in layout.Terrain]
    if len(holding) != 2 or not all(isinstance(t, str) and t in terrains for t in holding):
        raise InvalidInput("holding", holding, "two terrains: " + ", ".join(terrains))
    options: dict[str, Any] = {"game": "ships", "rules": _read_rules(raw.get("rules", {}))}
    if raw.get("radius") is not None:
        options["radius"] = read_int(raw["radius"], "radius", 0, layout.MAX_RADIUS)
    if raw.get("fixed") is not None:
        options["fixed"] = rally.Board.from_dict(raw["fixed"])
    request = layout.setup_request(**options)
    return {"request": request, "holding": (str(holding[0]), str(holding[1]))}


def _run_next_move(args: dict[str, Any]) -> dict[str, Any]:
    return layout.next_move(args["request"], args["holding"], time_limit=LAYOUT_SECONDS).to_dict()


TASKS = {
    "layout": Task(_read_layout, _run_layout, 120.0),
    "next-move": Task(_read_next_move, _run_next_move, 120.0),
}
