"""The rally planner's jobs and checks (docs/serve.md, "Endpoints"; docs/rally.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from isles import rally
from isles.models.hexgrid import as_hex, vertex
from isles.models.jsonio import read_object
from isles.models.rally.rules import Rim
from isles.web.tasks.base import Task

__all__ = [
    "BOARD_SOURCES",
    "INCOME_SECONDS",
    "RACE_SECONDS",
    "ROUTE_SECONDS",
    "TASKS",
    "check_board",
    "rally_beginner",
    "rally_defaults",
    "rally_goals",
    "rally_towns",
]

#: Where the rally planner's board comes from: the beginner board, or a board laid
#: by the base or extension rules (docs/layout.md, "Games").
BOARD_SOURCES = ("beginner", "base", "extension")


def rally_beginner() -> dict[str, Any]:
    """The beginner board in the board format (docs/boards.md).

    Examples
    --------
    >>> len(rally_beginner()["hexes"])
    37
    """
    return rally.beginner_board().to_dict()


def rally_towns() -> dict[str, Any]:
    """The beginner board with two settlements each of red and blue (``isles demo``'s race).

    A board to try the rally as it is played (``--income``, ``--race``) on
    without a board file: the buildings of :data:`isles.commands.rally.DEMO_TOWNS`.

    Examples
    --------
    >>> sorted({b["player"] for b in rally_towns()["buildings"]})
    ['blue', 'red']
    """
    from isles.commands.rally import DEMO_TOWNS  # the demo's own towns, defined once

    towns = {
        vertex(*corner): rally.Building(player)
        for player, corners in DEMO_TOWNS.items()
        for corner in corners
    }
    return rally.beginner_board().replace(buildings=towns).to_dict()


def rally_defaults() -> dict[str, dict[str, Any]]:
    """The defaults of the rally's questions as it is played, from their declarations.

    The page shows them in its fields and leaves out of a request what the
    player did not change: a default exists once, in
    :class:`isles.models.rally.questions.Drive` and ``Race``.

    Returns
    -------
    dict
        ``{"income": {field: default}, "race": {field: default}}``, the fields
        with a plain default (numbers and words).

    Examples
    --------
    >>> rally_defaults()["income"]["players"], rally_defaults()["race"]["trade"]
    (4, 'bank')
    """
    out: dict[str, dict[str, Any]] = {}
    for kind, question in (("income", rally.Drive), ("race", rally.Race)):
        out[kind] = {
            name: field.default
            for name, field in question.model_fields.items()
            if isinstance(field.default, int | float | str) and not field.is_required()
        }
    return out


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


def rally_goals(body: object) -> dict[str, Any]:
    """The goals a route from ``start`` takes when the player names none (docs/rally.md).

    The planner marks them on the board as soon as the start is tapped: the
    library's own start group of a rim start and its default goals
    (:func:`isles.rally.default_goals`), the ones :func:`isles.rally.plan_route`
    then uses.

    Parameters
    ----------
    body : object
        ``{"board": BOARD, "start": [q, r]}``.

    Returns
    -------
    dict
        ``{"start": [q, r], "group": [[q, r], ...], "goals": [[q, r], ...]}``.

    Raises
    ------
    InvalidInput
        Naming ``board``'s entry, or ``start`` when it is no rim start (an inland
        hex has no start group: the goals must be tapped).

    Examples
    --------
    >>> board = rally_beginner()
    >>> rally_goals({"board": board, "start": [0, -3]})["goals"]
    [[2, 0], [1, 1], [0, 2]]
    >>> rally_goals({"board": board, "start": [1, -1]})
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: start: '1,-1' is invalid; expected a rim start: ...
    """
    raw = read_object(body, "request", ["board", "start"])
    board = rally.Board.from_dict(raw["board"])
    start = as_hex(raw["start"], "start")
    rim = Rim(board)
    group = rim.start_group(start)
    return {
        "start": list(start),
        "group": [list(h) for h in group],
        "goals": [list(h) for h in rim.goals(group)],
    }


#: Seconds a route's budget search may take from the web app, when the request
#: gives none: shorter than the library's default, for a player waiting at a phone.
ROUTE_SECONDS = 20.0


def _read_route(body: object) -> dict[str, Any]:
    """The route request, read with the library's own declaration of the question."""
    if isinstance(body, Mapping) and body.get("budget") is not None and "time_limit" not in body:
        body = {**body, "time_limit": ROUTE_SECONDS}
    trip = rally.Trip.read(body, spelling="key")
    if trip.start is not None and trip.goals is None and trip.group is None:
        # The default goals need a rim start: refused here (400), before any job,
        # in the words of the planner's goals check (rally_goals).
        board = trip.board if isinstance(trip.board, rally.Board) else None
        if board is not None:
            Rim(board).start_group(as_hex(trip.start, "start"))
    return {"trip": trip}


def _run_route(args: dict[str, Any]) -> dict[str, Any]:
    return rally.plan_trip(args["trip"], progress=False).to_dict()  # no bars in the log


#: Seconds the web app gives one car's plan as it is played (``plan_drive``): the
#: base boards' plans with trades take tens of seconds on a slow machine.
INCOME_SECONDS = 120.0
#: Seconds for a race's games when the request gives none (its cars' plans come first).
RACE_SECONDS = 20.0


def _read_income(body: object) -> dict[str, Any]:
    """The plan as it is played, read with the library's declaration (``Drive``)."""
    return {"drive": rally.Drive.read(body, spelling="key")}


def _run_income(args: dict[str, Any]) -> dict[str, Any]:
    return rally.plan_drive(args["drive"]).to_dict()


def _read_race(body: object) -> dict[str, Any]:
    """The race, read with the library's declaration (``Race``)."""
    if isinstance(body, Mapping) and "time_limit" not in body:
        body = {**body, "time_limit": RACE_SECONDS}
    return {"race": rally.Race.read(body, spelling="key")}


def _run_race(args: dict[str, Any]) -> dict[str, Any]:
    return rally.plan_race(args["race"], progress=False).to_dict()  # no bars in the log


TASKS = {
    "route": Task(_read_route, _run_route, 60.0),
    "income": Task(_read_income, _run_income, INCOME_SECONDS),
    "race": Task(_read_race, _run_race, 2 * INCOME_SECONDS),
}
