"""The rally planner's jobs and checks (docs/serve.md, "Endpoints"; docs/rally.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import isles
from isles import rally
from isles.models.board import Board
from isles.models.errors import InvalidInput
from isles.models.hexgrid import as_hex
from isles.models.jsonio import read_object
from isles.models.rally.rim import Rim
from isles.models.rally.towns import towns_board
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
    without a board file: :func:`isles.models.rally.towns.towns_board`.

    Examples
    --------
    >>> sorted({b["player"] for b in rally_towns()["buildings"]})
    ['blue', 'red']
    """
    return towns_board().to_dict()


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
    return Board.from_dict(raw["board"]).to_dict()


def rally_goals(body: object) -> dict[str, Any]:
    """The goals a route from ``start`` takes when the player names none (docs/rally.md).

    The planner marks them on the board as soon as the start is tapped: the
    library's own start group of a rim start and its default goals
    (:func:`isles.models.rally.rim.default_goals`), the ones
    :func:`isles.rally.plan_route` then uses.

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
    board = Board.from_dict(raw["board"])
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
    """The route request, read with the library's own declaration of the question (a start
    without goals is a rim start: the question refuses it, before any job).

    The page plans one car's route: a trip without a start (the best start) is not
    what it asks, and is refused here.
    """
    if isinstance(body, Mapping) and body.get("budget") is not None and "time_limit" not in body:
        body = {**body, "time_limit": ROUTE_SECONDS}
    trip = rally.Trip.read(body, spelling="key")
    if trip.start is None:
        raise InvalidInput("start", None, "the car's hex", problem="missing")
    return {"question": trip}


def _answer(args: dict[str, Any]) -> dict[str, Any]:
    """The library's answer to the question read, as JSON (no bars in the log)."""
    answer: dict[str, Any] = isles.answer(args["question"], progress=False).to_dict()
    return answer


#: Seconds the web app gives one car's plan as it is played (``Drive``): the
#: base boards' plans with trades take tens of seconds on a slow machine.
INCOME_SECONDS = 120.0
#: Seconds for a race's games when the request gives none (its cars' plans come first).
RACE_SECONDS = 20.0


def _read_income(body: object) -> dict[str, Any]:
    """The plan as it is played, read with the library's declaration (``Drive``)."""
    return {"question": rally.Drive.read(body, spelling="key")}


def _read_race(body: object) -> dict[str, Any]:
    """The race, read with the library's declaration (``Race``)."""
    if isinstance(body, Mapping) and "time_limit" not in body:
        body = {**body, "time_limit": RACE_SECONDS}
    return {"question": rally.Race.read(body, spelling="key")}


TASKS = {
    "route": Task(_read_route, _answer, 60.0),
    "income": Task(_read_income, _answer, INCOME_SECONDS),
    "race": Task(_read_race, _answer, 2 * INCOME_SECONDS),
}
