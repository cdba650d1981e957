"""The ships' questions: one ship, a fleet, the risks, a conversion, a harvest, a log book.

Implements docs/ships.md ("Questions"; seed 004_644cf972d8964df4.txt). Each
declaration serves one library call and its command: :class:`Sail` is
:func:`isles.ships.sail` and ``isles sail`` with one ``--from``, :class:`Fleet`
is :func:`isles.ships.fleet` and ``isles sail`` with two or three,
:class:`Risk` is ``isles risk``, :class:`Convert`, :class:`Harvest` and
:class:`LogCheck` are ``isles ships convert``, ``harvest`` and ``check``.

The library validates a call with the declaration (the checks of the
parameters alone), then checks what needs the board (an edge on it, a
harbour of that kind); the command line's options are derived from it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Self

from pydantic import PlainValidator, model_validator

from isles.models.board import Board
from isles.models.catan import Resource
from isles.models.contract import AnyOf, Given, OnlyWith, Question, Requires, param
from isles.models.errors import InvalidInput
from isles.models.hexgrid import Edge, Vertex
from isles.models.ships.coordinates import as_corner, as_edge
from isles.models.ships.fleet import MAX_FLEET_ROLLS, Rollers
from isles.models.ships.limits import (
    CARGO_LIMIT,
    MAX_ENCOUNTERS,
    MAX_PLAYERS,
    MAX_REACH_ROLLS,
    MAX_WITHIN,
    MIN_PLAYERS,
)
from isles.models.ships.logbook import LogBook, read_log

__all__ = [
    "DEFAULT_FLEET_ROLLS",
    "DEFAULT_HORIZONS",
    "DEFAULT_REACH_ROLLS",
    "Convert",
    "Fleet",
    "Harvest",
    "LogCheck",
    "Risk",
    "Sail",
]

#: Horizons, in rolls, of the exact arrival (or conversion) odds a Python call asks by default.
DEFAULT_HORIZONS = (5, 10, 20)
#: Rolls of the pirate's reach when none are given.
DEFAULT_REACH_ROLLS = 10
#: The horizon, in rolls, :func:`isles.ships.fleet` asks when its caller gives none (the
#: question itself requires one: ``isles sail`` with a fleet needs ``--within``).
DEFAULT_FLEET_ROLLS = 10


def _ship_edge(value: object) -> Edge:
    return as_edge(value, "")


def _corner(value: object) -> Vertex:
    return as_corner(value, "")


def _roll_count(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_WITHIN:
        raise InvalidInput("", value, f"an integer in 0..{MAX_WITHIN}")
    return value


def _board_of(value: object, what: str, prebuilt: tuple[str, ...]) -> Any:
    """A board, a board's JSON (the web app), or a prebuilt graph or table named in ``prebuilt``."""
    if isinstance(value, Board) or type(value).__name__ in prebuilt:
        return value
    if isinstance(value, Mapping):
        return Board.from_dict(value)
    raise InvalidInput("", value, what)


def _plain_board(value: object) -> Any:
    return _board_of(value, "a Board", ())


def _sail_board(value: object) -> Any:
    return _board_of(value, "a Board or a WindGraph", ("WindGraph",))


def _fleet_board(value: object) -> Any:
    return _board_of(value, "a Board, a WindGraph or a FleetSpace", ("WindGraph", "FleetSpace"))


def _player(value: object) -> str:
    if not isinstance(value, str) or not 1 <= len(value) <= 40:
        raise InvalidInput("", value, "a player name of 1 to 40 characters")
    return value


def _log(value: object) -> LogBook:
    """A log book, or its JSON (docs/ships.md, "The log book"), read as a file is."""
    if isinstance(value, LogBook):
        return value
    if isinstance(value, Mapping):
        return read_log(value, "")
    raise InvalidInput(
        "", type(value).__name__, "a LogBook (LogBook.load or read_log reads one) or its JSON"
    )


def _enum(kind: type[Rollers] | type[Resource]) -> Any:
    return PlainValidator(lambda value: kind(value))


#: A ship edge: an :class:`Edge`, or two adjacent hexes in any order.
ShipEdge = Annotated[Edge, PlainValidator(_ship_edge)]
#: A building's corner: a :class:`Vertex`, or three pairwise adjacent hexes.
Corner = Annotated[Vertex, PlainValidator(_corner)]
#: A number of rolls of the exact odds, 0..MAX_WITHIN.
RollCount = Annotated[int, PlainValidator(_roll_count)]
#: A board (or its JSON).
PlainBoard = Annotated[Any, PlainValidator(_plain_board)]
#: A board, or its prebuilt wind graph (whose own ``may_stay`` holds).
SailBoard = Annotated[Any, PlainValidator(_sail_board)]
#: A board, its wind graph or a fleet's joint table.
FleetBoard = Annotated[Any, PlainValidator(_fleet_board)]
#: A player's name, as a board file spells it.
PlayerName = Annotated[str, PlainValidator(_player)]
#: Who rolls in a collision.
RollersValue = Annotated[Rollers, _enum(Rollers)]
#: A resource.
ResourceValue = Annotated[Resource, _enum(Resource)]

_BOARD_HELP = "board JSON file, - for standard input (default: the demo board)"
_EDGE = "Q,R:Q,R"
_SHIP_EDGE = "a ship edge: two adjacent hexes, at least one of them sea"
_CORNER = "Q,R:Q,R:Q,R"


def _board(help: str = _BOARD_HELP, default: Any = ..., expected: str = "a Board") -> Any:
    return param(default, help=help, metavar="FILE", cli=False, expected=expected)


def _targets() -> Any:
    return param([], help="target edge (repeatable)", option="--to", metavar=_EDGE, repeat=True)


def _ports() -> Any:
    return param(
        [],
        help="target: the board's harbours of this kind (generic, wool, ..., or any; repeatable)",
        option="--port",
        metavar="KIND",
        repeat=True,
    )


def _players(help: str) -> Any:
    return param(4, help=f"{help} ({MIN_PLAYERS}..{MAX_PLAYERS})", ge=MIN_PLAYERS, le=MAX_PLAYERS)


def _may_stay(help: str = "variant: a ship along a coast may stay") -> Any:
    return param(False, help=help)


class Sail(Question):
    """One ship's voyage to its targets, in the fewest expected rolls (``isles sail``).

    Examples
    --------
    >>> from isles.models.ships.demo import demo_board
    >>> q = Sail.read({"board": demo_board(), "start": ((0, 1), (0, 2)), "targets": [],
    ...                "players": 7})
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: players: 7 is invalid; expected an integer in 3..6
    >>> Sail.read({"board": demo_board(), "start": ((0, 1), (0, 2))}, spelling="option")
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: --to: missing; expected at least one of --to, --near or --port
    """

    board: SailBoard = _board(expected="a Board or a WindGraph")
    start: ShipEdge = param(help="ship edge", option="--from", metavar=_EDGE, expected=_SHIP_EDGE)
    targets: list[ShipEdge] = _targets()
    near: list[Corner] = param(
        [],
        help="target: the coast edges next to this settlement's corner (repeatable)",
        metavar=_CORNER,
        repeat=True,
        text="corner",
    )
    ports: list[str] = _ports()
    may_stay: bool = _may_stay()
    players: int = _players("one ship: players, to turn rolls into rounds")
    within: list[RollCount] = param(
        list(DEFAULT_HORIZONS),
        help="horizons, in rolls, of the exact arrival odds",
        expected=f"a list of roll counts in 0..{MAX_WITHIN}",
        cli=False,
    )

    together = (AnyOf("targets", "near", "ports"),)


class Fleet(Question):
    """Every ship of a fleet of 1 to 3 on a scoring edge at once (``isles sail``, 2-3 ``--from``).

    ``within`` is required here; :func:`isles.ships.fleet` asks 10 rolls when
    its caller gives none.

    Examples
    --------
    >>> from isles.models.ships.demo import demo_board
    >>> Fleet.read({"board": demo_board(), "ships": [((0, 0), (0, 1))], "targets": [
    ...     ((0, 2), (0, 3))]}, spelling="option")
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: --within: missing; expected an integer in 0..1000
    """

    board: FleetBoard = _board(expected="a Board, a WindGraph or a FleetSpace")
    ships: list[ShipEdge] = param(
        help="ship edge (repeat for a fleet of 2 or 3 ships)",
        option="--from",
        expected=f"1..3 ship edges, each {_SHIP_EDGE}",
        metavar=_EDGE,
        repeat=True,
    )
    targets: list[ShipEdge] = _targets()
    near: list[Corner] = param(
        [],
        help="target: the edges next to this building's corner (repeatable; one ship: the coast)",
        metavar=_CORNER,
        repeat=True,
        text="corner",
    )
    ports: list[str] = _ports()
    within: int = param(
        help=f"fleet: the horizon in rolls (0..{MAX_FLEET_ROLLS}; needed with 2-3 --from)",
        metavar="R",
        ge=0,
        le=MAX_FLEET_ROLLS,
    )
    may_stay: bool | None = param(None, help="variant: a ship along a coast may stay")
    rollers: RollersValue | None = param(
        None,
        help="fleet: who rolls in a collision: each ship over the limit (excess, default) "
        "or every ship on the edge (all, a variant)",
    )
    exact: bool = param(False, help="exact Fractions (small tables only)", cli=False)

    together = (AnyOf("targets", "near", "ports"),)


class Risk(Question):
    """Collision and pirate tables, the cargo left, the pirate's reach (``isles risk``).

    Examples
    --------
    >>> Risk.read({"rolls": 5}, spelling="option")
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: --rolls: 5 is invalid; expected --rolls only with --pirate
    """

    cargo: int = param(3, help=f"cards on board (0..{CARGO_LIMIT})", ge=0, le=CARGO_LIMIT)
    encounters: int = param(
        1, help=f"encounters in a row (0..{MAX_ENCOUNTERS})", ge=0, le=MAX_ENCOUNTERS
    )
    board: PlainBoard | None = _board(
        help="board JSON file, - for stdin, with --pirate (default: the demo board)",
        default=None,
    )
    pirate: ShipEdge | None = param(None, help="pirate ship edge", metavar=_EDGE)
    edge: ShipEdge | None = param(None, help="edge the pirate might reach", metavar=_EDGE)
    rolls: int = param(
        DEFAULT_REACH_ROLLS,
        help=f"rolls for the pirate reach, with --pirate (0..{MAX_REACH_ROLLS})",
        ge=0,
        le=MAX_REACH_ROLLS,
    )
    may_stay: bool = _may_stay("variant: coast may stay, with --pirate")

    together = (
        OnlyWith("edge", Given("pirate")),
        OnlyWith("board", Given("pirate")),
        OnlyWith("rolls", Given("pirate")),
        OnlyWith("may_stay", Given("pirate")),
        Requires("edge", Given("pirate")),
        Requires("board", Given("pirate")),
    )


class Convert(Question):
    """A paid ship becoming a settlement in the fewest expected rolls (``isles ships convert``).

    ``within`` defaults to :data:`DEFAULT_HORIZONS` (5, 10 and 20 rolls), in
    Python and on the command line alike.

    Examples
    --------
    >>> from isles.models.ships.demo import demo_board
    >>> Convert.read({"board": demo_board(), "start": ((0, 1), (0, 2)), "missing": "gold"})
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: missing: 'gold' is invalid; expected one of lumber, ...
    """

    board: SailBoard = _board(expected="a Board or a WindGraph")
    start: ShipEdge = param(help="ship edge", option="--from", metavar=_EDGE, expected=_SHIP_EDGE)
    missing: ResourceValue = param(help="the settlement card not paid")
    on_turn: bool = param(
        False, help="variant: on its owner's turn a ship on a spot converts at once"
    )
    players: int = _players("players, one roll each")
    rolls_to_turn: int = param(
        0,
        help=f"rolls before the owner's own roll (0: the next roll; 0..players-1, at most "
        f"{MAX_PLAYERS - 1})",
        ge=0,
        le=MAX_PLAYERS - 1,
    )
    may_stay: bool = _may_stay()
    within: list[RollCount] = param(
        list(DEFAULT_HORIZONS),
        help=f"horizon of the exact odds (0..{MAX_WITHIN}; repeatable)",
        metavar="R",
        repeat=True,
        expected=f"a list of roll counts in 0..{MAX_WITHIN}",
        item=f"an integer in 0..{MAX_WITHIN}",
    )
    max_iterations: int = param(1000, help="cap on policy-iteration rounds", ge=1, cli=False)

    @model_validator(mode="after")
    def _before_the_turn(self) -> Self:
        """The owner's roll comes within one round: ``rolls_to_turn`` below ``players``."""
        if self.rolls_to_turn >= self.players:
            raise InvalidInput(
                "rolls_to_turn", self.rolls_to_turn, f"an integer in 0..{self.players - 1}"
            )
        return self


class Harvest(Question):
    """The exact cargo of a ship on its course to a target after some rolls (``isles ships
    harvest``).

    Examples
    --------
    >>> from isles.models.ships.demo import demo_board
    >>> Harvest.read({"board": demo_board(), "start": ((1, 1), (1, 2)), "player": "red",
    ...               "rolls": 4}, spelling="option")
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: --to: missing; expected at least one of --to or --near
    """

    board: PlainBoard = _board(
        help="board JSON file with buildings and roads, - for stdin (default: the demo board)"
    )
    start: ShipEdge = param(help="ship edge", option="--from", metavar=_EDGE, expected=_SHIP_EDGE)
    targets: list[ShipEdge] = _targets()
    near: list[Corner] = param(
        [],
        help="target: the coast edges next to this settlement corner (repeatable)",
        metavar=_CORNER,
        repeat=True,
        text="corner",
    )
    player: PlayerName = param(help="the ship's owner (as in the board file)")
    rolls: int = param(help=f"rolls to follow the course (0..{MAX_WITHIN})", ge=0, le=MAX_WITHIN)
    start_cargo: int = param(
        0,
        help=f"cards on board at the start (0..{CARGO_LIMIT})",
        option="--cargo",
        expected=f"a card count in 0..{CARGO_LIMIT}",
        ge=0,
        le=CARGO_LIMIT,
    )
    may_stay: bool = _may_stay()

    together = (AnyOf("targets", "near"),)


class LogCheck(Question):
    """A ships' log book replayed against the rules (``isles ships check``).

    Both fields are read from files by the command (``LOG`` and ``--board``).
    """

    board: PlainBoard = _board(
        help="board JSON file with the players' buildings and roads (default: the demo board)"
    )
    log: Annotated[LogBook, PlainValidator(_log)] = param(
        help="log book JSON file, - for stdin", metavar="LOG", cli=False
    )


#: This game's questions, by name (gathered by isles.models.questions.questions()).
QUESTIONS: dict[str, type[Question]] = {
    "sail": Sail,
    "fleet": Fleet,
    "risk": Risk,
    "convert": Convert,
    "harvest": Harvest,
    "log_check": LogCheck,
}
