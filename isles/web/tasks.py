"""What each page of ``isles serve`` asks the library: request JSON in, ``to_dict()`` out.

Implements docs/serve.md ("Endpoints"): every request is read with the library's
own readers (unknown and missing keys refused, errors naming the field), every
answer is exactly a catalogue result's ``to_dict()`` (docs/json.md).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from isles import layout, lighthouse, plunder, rally
from isles.models.errors import SEED_MAX, InvalidInput
from isles.models.jsonio import read_bool, read_int, read_list, read_object

__all__ = [
    "BOARD_SOURCES",
    "TASKS",
    "LighthouseTables",
    "Task",
    "check_board",
    "check_position",
    "check_record",
    "layout_rules",
    "lighthouse_kit",
    "plunder_example",
    "rally_beginner",
]

#: Where the rally planner's board comes from: the beginner board, or a board laid
#: by the base or extension rules (docs/layout.md, "Games").
BOARD_SOURCES = ("beginner", "base", "extension")

#: Seconds each CP-SAT solve of a board may take (docs/layout.md); a job's own
#: limit (docs/serve.md) is larger.
LAYOUT_SECONDS = 20.0


@dataclass(frozen=True)
class Task:
    """One kind of job: its request reader, its solver call and its time limit.

    Attributes
    ----------
    read : callable
        Checks the request (raises :class:`InvalidInput`), returns the call's arguments.
    run : callable
        The library call on those arguments, returning ``to_dict()``.
    seconds : float
        The job's time limit: past it the job is stopped and answers ``timed_out``.
    resident : callable, optional
        Makes the callable (request -> ``to_dict()``) of a process that stays
        between jobs and keeps a cache (:class:`LighthouseTables`).
    """

    read: Callable[[object], dict[str, Any]]
    run: Callable[[dict[str, Any]], dict[str, Any]]
    seconds: float
    resident: Callable[[], Callable[[object], dict[str, Any]]] | None = None


# Plunder --------------------------------------------------------------------------


def _read_plunder(body: object) -> dict[str, Any]:
    raw = read_object(body, "request", ["record"], ["advise"])
    record = plunder.Record.from_dict(raw["record"])
    advise = read_bool(raw.get("advise", False), "advise")
    return {"record": record, "advise": advise}


#: Games simulated for the notepad's dig-now-or-wait advice (about 2 s for 4 players).
DIG_SAMPLES = 200


def _run_plunder(args: dict[str, Any]) -> dict[str, Any]:
    record = args["record"]
    answer = plunder.analyse(record, advise=args["advise"])
    out = answer.to_dict()
    advice = out.get("advice")
    if isinstance(advice, dict) and record.me is not None and answer.status == "exact":
        advice["dig"] = plunder.dig_advice(record, samples=DIG_SAMPLES).to_dict()
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
    return plunder.Record.from_dict(raw["record"]).to_dict()


# Lighthouse -----------------------------------------------------------------------


def _read_kit(raw: Mapping[str, object]) -> lighthouse.Kit:
    if "kit" in raw:
        if "players" in raw or "islands" in raw:
            raise InvalidInput("kit", "kit with players or islands", "one of kit, players, islands")
        return lighthouse.Kit.from_dict(raw["kit"])
    sea_cards = read_int(raw.get("sea_cards", 8), "sea_cards", 1, lighthouse.MAX_SEA_CARDS)
    if "players" in raw:
        if "islands" in raw:
            raise InvalidInput("islands", raw["islands"], "players or islands, not both")
        return lighthouse.players_kit(read_int(raw["players"], "players", 2, 4), sea_cards)
    return lighthouse.default_kit(read_int(raw.get("islands", 6), "islands", 1, 8), sea_cards)


def lighthouse_kit(body: object) -> dict[str, Any]:
    """The kit a lighthouse request names, in the kit format (docs/lighthouse.md, "Formats").

    Parameters
    ----------
    body : object
        ``{"players": 2..4}``, ``{"islands": 1..8}`` or ``{"kit": KIT}``, each
        with an optional ``sea_cards`` (not with ``kit``).

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
    """
    raw = read_object(body, "request", [], ["players", "islands", "sea_cards", "kit"])
    if "kit" in raw and "sea_cards" in raw:
        raise InvalidInput("sea_cards", raw["sea_cards"], "sea_cards inside the kit")
    return _read_kit(raw).to_dict()


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
    raw = read_object(body, "request", ["position"], ["players", "islands", "sea_cards", "kit"])
    kit = _read_kit(raw)
    return lighthouse.Position.from_dict(raw["position"], kit).to_dict()


def _read_lighthouse(body: object) -> dict[str, Any]:
    raw = read_object(
        body, "request", ["position", "roll"], ["players", "islands", "sea_cards", "kit"]
    )
    if "kit" in raw and "sea_cards" in raw:
        raise InvalidInput("sea_cards", raw["sea_cards"], "sea_cards inside the kit")
    kit = _read_kit(raw)
    position = lighthouse.Position.from_dict(raw["position"], kit)
    faces = read_list(raw["roll"], "roll")
    if not all(isinstance(face, str) for face in faces):
        raise InvalidInput("roll", faces, "two faces, one per die, e.g. ['boat', 'red']")
    roll = lighthouse.Roll.from_faces(kit, [str(face) for face in faces])
    return {"kit": kit, "position": position, "roll": roll}


def _run_lighthouse(args: dict[str, Any]) -> dict[str, Any]:
    return lighthouse.best_move(args["kit"], args["position"], args["roll"]).to_dict()


class LighthouseTables:
    """Lighthouse advice that keeps the last kit's optimal table between requests.

    The table of a kit comes from the user's cache when it is there
    (:func:`isles.lighthouse.load_table`); a kit of up to 7 islands is solved
    whole and saved the first time (:func:`isles.lighthouse.solve_cached`, a
    few seconds). The 8 islands of the real game take about 30 s to solve
    whole (``isles lighthouse`` does it once and caches it); until then each
    roll is answered by :func:`isles.lighthouse.best_move` from the positions
    that can follow (seconds early in the game, milliseconds later). Every
    answer is the one ``best_move`` gives.

    Examples
    --------
    >>> tables = LighthouseTables()
    >>> body = {"islands": 1, "sea_cards": 2, "roll": ["red", "red"],
    ...         "position": {"discs": [[]], "boat": 0, "maurice": 0}}
    >>> kit = lighthouse.default_kit(1, 2)
    >>> roll = lighthouse.Roll.from_faces(kit, ("red", "red"))
    >>> same = lighthouse.best_move(kit, lighthouse.Position(((),), boat=0, maurice=0), roll)
    >>> tables(body) == same.to_dict() and tables(body) == same.to_dict()
    True
    """

    def __init__(self) -> None:
        self._kit: lighthouse.Kit | None = None
        self._solution: lighthouse.LighthouseSolution | None = None

    def __call__(self, body: object) -> dict[str, Any]:
        args = _read_lighthouse(body)
        kit = args["kit"]
        if self._solution is None or kit != self._kit:
            self._solution = None  # the old table goes before the new one is read
            self._kit = kit
            self._solution = lighthouse.load_table(kit)
            if self._solution is None and len(kit.islands) <= SOLVE_WHOLE_ISLANDS:
                self._solution = lighthouse.solve_cached(kit)
        if self._solution is None:
            return _run_lighthouse(args)
        return lighthouse.advise(self._solution, args["position"], args["roll"]).to_dict()


#: Kits of at most this many islands are solved whole on their first request (7
#: islands: about 5 s of CPU); larger ones are answered position by position.
SOLVE_WHOLE_ISLANDS = 7


# Rally ----------------------------------------------------------------------------


def rally_beginner() -> dict[str, Any]:
    """The beginner board in the board format (docs/boards.md).

    Examples
    --------
    >>> len(rally_beginner()["hexes"])
    37
    """
    return rally.beginner_board().to_dict()


def check_board(body: object) -> dict[str, Any]:
    """An uploaded board file, checked and written back (docs/boards.md, "Board files").

    Parameters
    ----------
    body : object
        ``{"board": BOARD}``.

    Returns
    -------
    dict
        ``Board.to_dict()``: the same board, sorted, as isles writes it.

    Raises
    ------
    InvalidInput
        As :meth:`Board.from_dict`, naming the entry (``board.hexes[3].number``).

    Examples
    --------
    >>> check_board({"board": {"hexes": [{"hex": [0, 0], "terrain": "desert"}]}})["hexes"]
    [{'hex': [0, 0], 'terrain': 'desert', 'number': None}]
    """
    raw = read_object(body, "request", ["board"])
    return rally.Board.from_dict(raw["board"]).to_dict()


#: Seconds a route's budget search may take from the web app, when the request
#: gives none: shorter than the library's default, for a player waiting at a phone.
ROUTE_SECONDS = 20.0


def _read_route(body: object) -> dict[str, Any]:
    """The route request, read with the library's own declaration of the question."""
    if isinstance(body, Mapping) and "budget" in body and "time_limit" not in body:
        body = {**body, "time_limit": ROUTE_SECONDS}
    return {"trip": rally.Trip.read(body, spelling="key")}


def _run_route(args: dict[str, Any]) -> dict[str, Any]:
    return rally.plan_trip(args["trip"]).to_dict()


# Layout ---------------------------------------------------------------------------


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


#: Every kind of job, by the name in its endpoint (``POST /api/solve/<name>``).
TASKS: dict[str, Task] = {
    "plunder": Task(_read_plunder, _run_plunder, 60.0),
    "lighthouse": Task(_read_lighthouse, _run_lighthouse, 300.0, LighthouseTables),
    "route": Task(_read_route, _run_route, 60.0),
    "layout": Task(_read_layout, _run_layout, 120.0),
    "next-move": Task(_read_next_move, _run_next_move, 120.0),
}
