"""Ships under winds: where a ship stands, how the 2d6 winds move it, what it risks and earns.

Implements docs/ships.md (seed 004_644cf972d8964df4.txt, rules 2 to 13): the rules
as pure functions; the questions asked of them are answered in solvers/ships/sailing.py.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from importlib import resources
from types import MappingProxyType
from typing import cast

from isles.models.catan import Board, HarbourKind, Resource, Terrain, Tile, pips
from isles.models.errors import InvalidInput
from isles.models.hexgrid import (
    Edge,
    Hex,
    Vertex,
    as_hex,
    distance,
    edge,
    neighbours,
    parse_hex,
    vertex,
)
from isles.models.jsonio import edge_json, parse_json

__all__ = [
    "CARGO_LIMIT",
    "MAX_ENCOUNTERS",
    "MAX_PLAYERS",
    "MAX_REACH_ROLLS",
    "MAX_SHIPS",
    "MAX_SHIP_EDGES",
    "MAX_WITHIN",
    "MIN_PLAYERS",
    "ROLLS",
    "SHIP_COST",
    "Encounter",
    "Outcome",
    "Port",
    "Waters",
    "as_corner",
    "as_edge",
    "board_or_demo",
    "building_owners",
    "capacity",
    "cargo_after",
    "check_players",
    "check_ship_edge",
    "conversion_edges",
    "converts",
    "corner_edges",
    "demo_board",
    "edge_vertices",
    "harvest",
    "harvest_refusal",
    "is_ship_edge",
    "land_hex",
    "outcome_rolls",
    "outcome_table",
    "parse_settlement",
    "pirate_options",
    "placement_edges",
    "port_edges",
    "ports",
    "rolls_to_rounds",
    "scoring_ship",
    "settlement_edges",
    "ship_edge_count",
    "ship_edges",
    "ship_options",
    "ship_points",
    "waters",
    "wind_moves",
]

#: The eleven 2d6 sums, 2..12 (a 7 moves no ship, but it still is a roll).
ROLLS: tuple[int, ...] = tuple(range(2, 13))

#: Most cards a ship carries (seed rule 4).
CARGO_LIMIT = 3

#: Most ships a player owns (seed rule 2).
MAX_SHIPS = 3

#: The seed's player count, 3 to 6 (one roll per player turn turns rolls into rounds).
MIN_PLAYERS, MAX_PLAYERS = 3, 6
#: Most encounters the cargo outlook takes: its exact fractions grow with each one.
MAX_ENCOUNTERS = 100
#: Most rolls the pirate reach takes: its exact fractions grow with each one.
MAX_REACH_ROLLS = 200
#: Largest horizon of the exact arrival odds (``sail(within=...)``).
MAX_WITHIN = 100
#: Most ship edges of a board the ships' solvers take (one ship's navigation tables
#: every edge): at the limit ``isles sail`` takes 6 to 10 s and 0.3 GB (docs/ships.md,
#: "Inputs and limits"); a bigger board is refused before any table is built.
MAX_SHIP_EDGES = 100_000

#: Cost of one ship (seed rule 2): 1 wool, 1 lumber, 1 grain.
SHIP_COST: Mapping[Resource, int] = MappingProxyType(
    {Resource.WOOL: 1, Resource.LUMBER: 1, Resource.GRAIN: 1}
)


class Waters(StrEnum):
    """Where a ship edge lies: both hexes sea (``high_sea``), or one land hex (``coast``).

    Examples
    --------
    >>> [w.value for w in Waters]
    ['high_sea', 'coast']
    """

    HIGH_SEA = "high_sea"
    COAST = "coast"


# -- edges and corners given by a caller ---------------------------------------------


def _shown(value: object) -> object:
    """An edge or corner as its ``Q,R:Q,R`` text in messages, anything else as given."""
    if isinstance(value, Edge | Vertex):
        return ":".join(str(h) for h in value)
    return value


def as_edge(value: object, field: str = "edge") -> Edge:
    """An edge from an :class:`~isles.models.hexgrid.Edge` or any pair of two adjacent hexes.

    Parameters
    ----------
    value : object
        An ``Edge``, or a pair ``((q, r), (q, r))`` (tuples or lists, in any order),
        as a caller of the library or a JSON file gives it.
    field : str
        Where it comes from, for messages (``"start"``, ``"targets[2]"``).

    Returns
    -------
    Edge
        The edge, its two hexes sorted.

    Raises
    ------
    InvalidInput
        Naming ``field`` when ``value`` is not two adjacent hexes of integer coordinates.

    Examples
    --------
    >>> as_edge([[1, 0], [0, 0]], "start")
    Edge(a=Hex(q=0, r=0), b=Hex(q=1, r=0))
    >>> as_edge([[0, 0], [2, 0]], "start")
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: start: [[0, 0], [2, 0]] is invalid; expected an edge: ...
    """
    if isinstance(value, tuple | list) and len(value) == 2:
        try:
            a, b = as_hex(value[0], field), as_hex(value[1], field)
        except InvalidInput:
            pass
        else:
            if distance(a, b) == 1:
                return edge(a, b)
    raise InvalidInput(field, _shown(value), "an edge: two adjacent hexes ((q, r), (q, r))")


def as_corner(value: object, field: str = "corner") -> Vertex:
    """A corner from a :class:`~isles.models.hexgrid.Vertex` or three pairwise adjacent hexes.

    Parameters
    ----------
    value : object
        A ``Vertex``, or three hexes ``((q, r), (q, r), (q, r))`` in any order.
    field : str
        Where it comes from, for messages (``"near[0]"``).

    Returns
    -------
    Vertex
        The corner, its three hexes sorted.

    Raises
    ------
    InvalidInput
        Naming ``field`` when ``value`` is not three pairwise adjacent hexes.

    Examples
    --------
    >>> as_corner([[0, 3], [0, 2], [1, 2]], "near[0]")
    Vertex(a=Hex(q=0, r=2), b=Hex(q=0, r=3), c=Hex(q=1, r=2))
    """
    if isinstance(value, tuple | list) and len(value) == 3:
        try:
            a, b, c = (as_hex(h, field) for h in value)
            return vertex(a, b, c)
        except InvalidInput:
            pass
    raise InvalidInput(
        field, _shown(value), "a corner: three pairwise adjacent hexes ((q, r), (q, r), (q, r))"
    )


def parse_settlement(text: str, field: str = "settlement") -> Vertex:
    """Parse a corner written ``"Q,R:Q,R:Q,R"`` (the command line's text form).

    Parameters
    ----------
    text : str
        Three pairwise adjacent hexes, in any order.
    field : str
        The option or field it comes from, for messages (``"--near"``).

    Returns
    -------
    Vertex
        The corner, its hexes sorted.

    Raises
    ------
    InvalidInput
        Naming ``field`` when the text is malformed or the hexes are not pairwise adjacent.

    Examples
    --------
    >>> parse_settlement("0,0:1,0:1,-1")
    Vertex(a=Hex(q=0, r=0), b=Hex(q=1, r=-1), c=Hex(q=1, r=0))
    """
    parts = text.split(":")
    if len(parts) != 3:
        raise InvalidInput(field, text, "three pairwise adjacent hexes as Q,R:Q,R:Q,R")
    hexes = [parse_hex(p, field) for p in parts]
    try:
        return vertex(hexes[0], hexes[1], hexes[2])
    except InvalidInput:
        raise InvalidInput(field, text, "three pairwise adjacent hexes as Q,R:Q,R:Q,R") from None


# -- where ships stand (seed rules 3 and 6; docs/ships.md "Edges inside the board") ----


def is_ship_edge(board: Board, e: Edge) -> bool:
    """Whether a ship can stand on ``e``: both hexes on ``board``, at least one sea.

    Parameters
    ----------
    board : Board
        The board.
    e : Edge
        Any edge (two adjacent hexes).

    Returns
    -------
    bool

    Examples
    --------
    >>> from isles.models.catan import beginner_board
    >>> b = beginner_board()
    >>> is_ship_edge(b, edge((0, 3), (1, 2))), is_ship_edge(b, edge((0, 0), (1, 0)))
    (True, False)
    """
    if e.a not in board or e.b not in board:
        return False
    return board.terrain(e.a) is Terrain.SEA or board.terrain(e.b) is Terrain.SEA


def check_ship_edge(board: Board, e: object, field: str = "edge") -> Edge:
    """Return ``e`` as an :class:`~isles.models.hexgrid.Edge` if a ship can stand on it.

    Parameters
    ----------
    board : Board
        The board.
    e : Edge or pair of hexes
        The edge (anything :func:`as_edge` accepts).
    field : str
        Where it comes from, for messages (``"start"``, ``"pirate"``).

    Returns
    -------
    Edge

    Raises
    ------
    InvalidInput
        Naming ``field`` when ``e`` is not an edge, a hex of it is off the board or
        both hexes are land.

    Examples
    --------
    >>> from isles.models.catan import beginner_board
    >>> check_ship_edge(beginner_board(), ((0, 0), (1, 0)), "start")
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: start: '0,0:1,0' is invalid; expected an edge with ...
    """
    e = as_edge(e, field)
    for h in (e.a, e.b):
        if h not in board:
            raise InvalidInput(
                field, _shown(e), f"an edge of two board hexes ({h} is not on the board)"
            )
    if not is_ship_edge(board, e):
        raise InvalidInput(field, _shown(e), "an edge with at least one sea hex")
    return e


def ship_edges(board: Board) -> list[Edge]:
    """Every edge a ship can stand on: both hexes on the board, at least one sea; sorted.

    Parameters
    ----------
    board : Board

    Returns
    -------
    list of Edge

    Examples
    --------
    >>> from isles.models.catan import beginner_board
    >>> len(ship_edges(beginner_board()))  # 18 high-sea edges + 30 along the coast
    48
    """
    out: set[Edge] = set()
    for h in board.sea():
        for n in board.neighbours(h):
            out.add(edge(h, n))
    return sorted(out)


def ship_edge_count(board: Board) -> int:
    """How many ship edges the board has (``len(ship_edges(board))``), counted cheaply.

    One pass over the hexes and three of their sides, nothing built: a board of
    a million hexes is counted in about 2 s, where listing its edges takes 40 s.

    Examples
    --------
    >>> from isles.models.catan import beginner_board
    >>> b = beginner_board()
    >>> ship_edge_count(b) == len(ship_edges(b)) == 48
    True
    """
    # Plain (q, r) keys find the same tiles as Hex keys (a Hex is a tuple), faster.
    tiles = cast("Mapping[tuple[int, int], Tile]", board.tiles)
    count = 0
    for (q, r), tile in tiles.items():
        sea = not tile.terrain.is_land
        for other in (tiles.get((q + 1, r)), tiles.get((q + 1, r - 1)), tiles.get((q, r - 1))):
            if other is not None and (sea or not other.terrain.is_land):
                count += 1
    return count


def waters(board: Board, e: Edge) -> Waters:
    """High sea (both hexes sea) or coast (one land hex).

    Parameters
    ----------
    board : Board
    e : Edge
        A ship edge.

    Returns
    -------
    Waters

    Raises
    ------
    InvalidInput
        If ``e`` is not a ship edge of ``board``.

    Examples
    --------
    >>> from isles.models.catan import beginner_board
    >>> waters(beginner_board(), edge((0, 2), (0, 3)))
    <Waters.COAST: 'coast'>
    """
    check_ship_edge(board, e)
    both = board.terrain(e.a) is Terrain.SEA and board.terrain(e.b) is Terrain.SEA
    return Waters.HIGH_SEA if both else Waters.COAST


def capacity(board: Board, e: Edge) -> int:
    """Ships that share ``e`` without a collision: 2 on the high sea, 1 along a coast.

    Seed rule 11 (docs/ships.md, "Collisions and pirates").

    Parameters
    ----------
    board : Board
    e : Edge
        A ship edge.

    Returns
    -------
    int

    Raises
    ------
    InvalidInput
        If ``e`` is not a ship edge of ``board``.

    Examples
    --------
    >>> from isles.models.catan import beginner_board
    >>> capacity(beginner_board(), edge((0, 3), (1, 2)))
    2
    """
    return 2 if waters(board, e) is Waters.HIGH_SEA else 1


def _common_neighbours(e: Edge) -> tuple[Hex, Hex]:
    shared = sorted(set(neighbours(e.a)) & set(neighbours(e.b)))
    return shared[0], shared[1]


def edge_vertices(e: Edge) -> tuple[Vertex, Vertex]:
    """The two corners at the ends of edge ``e`` (geometric: off-board hexes allowed).

    Parameters
    ----------
    e : Edge

    Returns
    -------
    tuple of two Vertex

    Examples
    --------
    >>> [len(v) for v in edge_vertices(edge((0, 0), (1, 0)))]
    [3, 3]
    """
    x, y = _common_neighbours(e)
    return vertex(e.a, e.b, x), vertex(e.a, e.b, y)


def _moves_along(board: Board, e: Edge, h: Hex) -> tuple[Edge, ...]:
    return tuple(edge(h, x) for x in _common_neighbours(e) if x in board)


def wind_moves(board: Board, e: Edge, roll: int) -> tuple[Edge, ...]:
    """The edges the wind of ``roll`` lets a ship on ``e`` reach (seed rule 6).

    For every sea hex ``H`` of ``e`` carrying ``roll``: the edges ``{H, X}`` where
    ``X`` is on the board and adjacent to both hexes of ``e``. Empty when the wind
    does not blow there (a 7, or no sea hex of ``e`` carries ``roll``): the ship
    stays.

    Parameters
    ----------
    board : Board
    e : Edge
        A ship edge.
    roll : int
        A 2d6 sum, 2..12.

    Returns
    -------
    tuple of Edge
        Sorted, without repeats; at most four.

    Raises
    ------
    InvalidInput
        If ``e`` is not a ship edge or ``roll`` is not in 2..12.

    Notes
    -----
    docs/ships.md, "Which tokens blow": only sea tokens blow; a land token never
    moves a ship.

    Examples
    --------
    >>> from isles.models.catan import Board, Tile
    >>> sea = Tile(Terrain.SEA, 5)
    >>> b = Board({(0, 0): sea, (1, 0): Tile(Terrain.SEA), (1, -1): Tile(Terrain.SEA)})
    >>> [str(m) for m in wind_moves(b, edge((0, 0), (1, 0)), 5)]
    ['0,0:1,-1']
    >>> wind_moves(b, edge((0, 0), (1, 0)), 7)
    ()
    """
    check_ship_edge(board, e)
    pips(roll)
    out: set[Edge] = set()
    for h in (e.a, e.b):
        tile = board[h]
        if tile.terrain is Terrain.SEA and tile.number == roll:
            out.update(_moves_along(board, e, h))
    return tuple(sorted(out))


def ship_options(board: Board, e: Edge, roll: int, may_stay: bool = False) -> tuple[Edge, ...]:
    """Where the owner of a ship on ``e`` may put it after ``roll``: never empty.

    Moving is compulsory when the wind allows (seed rule 6); with ``may_stay``
    (the seed's variant) a ship along a coast may also stay. When the wind allows
    no move, the only option is ``(e,)``.

    Parameters
    ----------
    board : Board
    e : Edge
        A ship edge.
    roll : int
        A 2d6 sum, 2..12.
    may_stay : bool
        The seed's variant: a ship along a coast may stay.

    Returns
    -------
    tuple of Edge
        Sorted; ``e`` itself means the ship stays.

    Raises
    ------
    InvalidInput
        If ``e`` is not a ship edge or ``roll`` is not in 2..12.

    Examples
    --------
    >>> from isles.models.catan import Board, Tile
    >>> b = Board({(0, 0): Tile(Terrain.SEA, 5), (1, 0): Tile(Terrain.SEA)})
    >>> ship_options(b, edge((0, 0), (1, 0)), 5)  # no third hex: nowhere to go
    (Edge(a=Hex(q=0, r=0), b=Hex(q=1, r=0)),)
    """
    moves = wind_moves(board, e, roll)
    if not moves:
        return (e,)
    if may_stay and waters(board, e) is Waters.COAST:
        return tuple(sorted({*moves, e}))
    return moves


def pirate_options(board: Board, e: Edge, roll: int, may_stay: bool = False) -> tuple[Edge, ...]:
    """Where the pirate ship on ``e`` may go after ``roll`` (seed rule 12).

    Like a ship (:func:`ship_options`), and on a 7 one edge along any sea hex of
    ``e``, compulsory when it can move (docs/ships.md, "The pirate ship").

    Parameters
    ----------
    board : Board
    e : Edge
        The pirate's ship edge.
    roll : int
        A 2d6 sum, 2..12.
    may_stay : bool
        The seed's variant for winds (a 7 always moves the pirate when it can).

    Returns
    -------
    tuple of Edge
        Sorted, never empty; ``(e,)`` when it cannot move.

    Raises
    ------
    InvalidInput
        If ``e`` is not a ship edge or ``roll`` is not in 2..12.

    Examples
    --------
    >>> from isles.models.catan import Board, Tile
    >>> b = Board({(0, 0): Tile(Terrain.SEA), (1, 0): Tile(Terrain.SEA),
    ...            (1, -1): Tile(Terrain.FOREST, 3)})
    >>> [str(o) for o in pirate_options(b, edge((0, 0), (1, 0)), 7)]
    ['0,0:1,-1', '1,-1:1,0']
    """
    if roll != 7:
        return ship_options(board, e, roll, may_stay)
    check_ship_edge(board, e)
    out: set[Edge] = set()
    for h in (e.a, e.b):
        if board.terrain(h) is Terrain.SEA:
            out.update(_moves_along(board, e, h))
    return tuple(sorted(out)) or (e,)


def check_players(players: object, field: str = "players") -> int:
    """The player count, checked: an integer in 3..6 (the seed's count).

    Parameters
    ----------
    players : object
        The value given.
    field : str
        Where it comes from, for messages.

    Returns
    -------
    int

    Raises
    ------
    InvalidInput
        If ``players`` is not an integer (a bool is not one) in 3..6.

    Examples
    --------
    >>> check_players(9)
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: players: 9 is invalid; expected a player count in 3..6
    """
    if (
        isinstance(players, bool)
        or not isinstance(players, int)
        or not MIN_PLAYERS <= players <= MAX_PLAYERS
    ):
        raise InvalidInput(field, players, f"a player count in {MIN_PLAYERS}..{MAX_PLAYERS}")
    return players


def rolls_to_rounds(rolls: float, players: int) -> float:
    """Rounds of play taken by ``rolls`` rolls: every player's turn is one roll.

    Parameters
    ----------
    rolls : float
        A number of rolls.
    players : int
        Players at the table, 3..6.

    Returns
    -------
    float
        ``rolls / players``.

    Raises
    ------
    InvalidInput
        If ``players`` is not in 3..6 (the seed's player count).

    Examples
    --------
    >>> rolls_to_rounds(12.0, 4)
    3.0
    """
    return rolls / check_players(players)


# -- collisions and pirates (seed rules 11 and 12) ------------------------------------


class Encounter(StrEnum):
    """What makes a ship roll for its fate: a ``collision`` (rule 11) or the ``pirate`` (12).

    Examples
    --------
    >>> Encounter("pirate") is Encounter.PIRATE
    True
    """

    COLLISION = "collision"
    PIRATE = "pirate"


class Outcome(StrEnum):
    """What one encounter roll does to a ship.

    The values are the names written in JSON; :attr:`label` is the phrase of the
    text output.

    Examples
    --------
    >>> [o.value for o in Outcome]
    ['sinks', 'loses_all_cargo', 'loses_2_cards', 'loses_1_card', 'unharmed']
    """

    SINKS = "sinks"
    LOSES_ALL = "loses_all_cargo"
    LOSES_TWO = "loses_2_cards"
    LOSES_ONE = "loses_1_card"
    UNHARMED = "unharmed"

    @property
    def label(self) -> str:
        """The outcome in words (``"loses all cargo"``).

        >>> Outcome.LOSES_ALL.label
        'loses all cargo'
        """
        return self.value.replace("_", " ")


_OUTCOME_ROLLS: Mapping[Encounter, Mapping[Outcome, tuple[int, ...]]] = MappingProxyType(
    {
        Encounter.COLLISION: MappingProxyType(
            {
                Outcome.SINKS: (2,),
                Outcome.LOSES_ALL: (3,),
                Outcome.LOSES_TWO: (4,),
                Outcome.LOSES_ONE: (5,),
                Outcome.UNHARMED: tuple(range(6, 13)),
            }
        ),
        Encounter.PIRATE: MappingProxyType(
            {
                Outcome.SINKS: (11, 12),
                Outcome.LOSES_ALL: tuple(range(5, 11)),
                Outcome.UNHARMED: (2, 3, 4),
            }
        ),
    }
)


def outcome_rolls(encounter: Encounter) -> Mapping[Outcome, tuple[int, ...]]:
    """The 2d6 sums giving each outcome of ``encounter`` (seed rules 11 and 12).

    Parameters
    ----------
    encounter : Encounter or str

    Returns
    -------
    Mapping of Outcome to tuple of int

    Raises
    ------
    ValueError
        If ``encounter`` is not ``"collision"`` or ``"pirate"``.

    Examples
    --------
    >>> outcome_rolls(Encounter.PIRATE)[Outcome.SINKS]
    (11, 12)
    """
    return _OUTCOME_ROLLS[Encounter(encounter)]


def outcome_table(encounter: Encounter) -> Mapping[Outcome, Fraction]:
    """Exact probability of each outcome of ``encounter``; the values sum to 1.

    Parameters
    ----------
    encounter : Encounter or str

    Returns
    -------
    Mapping of Outcome to Fraction
        In the order of the seed's table.

    Raises
    ------
    ValueError
        If ``encounter`` is not ``"collision"`` or ``"pirate"``.

    Examples
    --------
    >>> t = outcome_table(Encounter.COLLISION)
    >>> t[Outcome.SINKS], t[Outcome.UNHARMED], sum(t.values())
    (Fraction(1, 36), Fraction(13, 18), Fraction(1, 1))
    """
    return {o: Fraction(sum(pips(n) for n in ns), 36) for o, ns in outcome_rolls(encounter).items()}


def cargo_after(outcome: Outcome, cargo: int) -> int | None:
    """Cards left on board after ``outcome`` for a ship holding ``cargo``; None if sunk.

    Parameters
    ----------
    outcome : Outcome
    cargo : int
        Cards on board, 0..3.

    Returns
    -------
    int or None
        Cards left (losing 2 with 1 on board leaves 0), or None when the ship sank.

    Raises
    ------
    InvalidInput
        If ``cargo`` is not an integer in 0..3.

    Examples
    --------
    >>> cargo_after(Outcome.LOSES_TWO, 1), cargo_after(Outcome.SINKS, 3)
    (0, None)
    """
    if isinstance(cargo, bool) or not isinstance(cargo, int) or not 0 <= cargo <= CARGO_LIMIT:
        raise InvalidInput("cargo", cargo, f"a card count in 0..{CARGO_LIMIT}")
    lost = {
        Outcome.SINKS: None,
        Outcome.LOSES_ALL: cargo,
        Outcome.LOSES_TWO: 2,
        Outcome.LOSES_ONE: 1,
        Outcome.UNHARMED: 0,
    }[Outcome(outcome)]
    return None if lost is None else max(0, cargo - lost)


# -- settlements, harvest, building, points (seed rules 2, 3, 5, 7, 9, end) -----------


def settlement_edges(board: Board, settlement: Vertex) -> list[Edge]:
    """Coast edges at the corner ``settlement``: where a ship reaches it (seed rule 5).

    The seed's ship "reaches" a settlement on the sea, along a side of a land hex
    next to it; so the high-sea edge at a corner does not count (docs/ships.md,
    "Next to a settlement").

    Parameters
    ----------
    board : Board
    settlement : Vertex
        The settlement's corner.

    Returns
    -------
    list of Edge
        Sorted; empty when the corner touches no coast.

    Examples
    --------
    >>> from isles.models.catan import beginner_board
    >>> [str(e) for e in settlement_edges(beginner_board(), parse_settlement("0,2:0,3:1,2"))]
    ['0,2:0,3', '0,2:1,2']
    """
    return [e for e in corner_edges(board, settlement) if waters(board, e) is Waters.COAST]


def corner_edges(board: Board, corner: Vertex) -> list[Edge]:
    """The ship edges at ``corner`` (high sea and coast alike): where a ship is next to it.

    A ship on one of these edges scores for a building or road end at ``corner``
    (the end of the game) and may be launched from a settlement there (rule 3).

    Parameters
    ----------
    board : Board
    corner : Vertex

    Returns
    -------
    list of Edge
        Sorted; at most three, empty when the corner touches no sea.

    Examples
    --------
    >>> from isles.models.catan import beginner_board
    >>> [str(e) for e in corner_edges(beginner_board(), parse_settlement("0,2:0,3:1,2"))]
    ['0,2:0,3', '0,2:1,2', '0,3:1,2']
    """
    hs = (corner.a, corner.b, corner.c)
    out = [edge(hs[i], hs[j]) for i in range(3) for j in range(i + 1, 3)]
    return sorted(e for e in out if is_ship_edge(board, e))


def building_owners(board: Board) -> dict[Vertex, str]:
    """Every building's corner and owner (settlements and cities alike), from the board file.

    The form the rules of harvest and scoring take (:func:`harvest`,
    :func:`scoring_ship`).

    Examples
    --------
    >>> from isles.models.catan import Building, beginner_board
    >>> v = parse_settlement("0,2:0,3:1,2")
    >>> building_owners(beginner_board().replace(buildings={v: Building("red")})) == {v: "red"}
    True
    """
    return {v: b.player for v, b in board.buildings.items()}


def placement_edges(
    board: Board, settlement: Vertex, player: str, roads: Mapping[Edge, str]
) -> list[Edge]:
    """Where ``player`` may launch a ship built at its ``settlement`` (seed rule 3).

    The ship edges at the settlement's corner (high sea or coast), except those
    along an enemy road.

    Parameters
    ----------
    board : Board
    settlement : Vertex
    player : str
        The builder.
    roads : Mapping of Edge to str
        Every road and its owner.

    Returns
    -------
    list of Edge
        Sorted; empty when the settlement does not touch the sea.

    Examples
    --------
    >>> from isles.models.catan import beginner_board
    >>> v = parse_settlement("0,2:0,3:1,2")
    >>> blue_road = {edge((0, 2), (0, 3)): "blue"}
    >>> [str(e) for e in placement_edges(beginner_board(), v, "red", blue_road)]
    ['0,2:1,2', '0,3:1,2']
    """
    return [e for e in corner_edges(board, settlement) if roads.get(e, player) == player]


def harvest(
    board: Board,
    e: Edge,
    roll: int,
    player: str,
    buildings: Mapping[Vertex, str],
    roads: Mapping[Edge, str],
) -> Terrain | None:
    """The land terrain whose card a ship of ``player`` on ``e`` takes after ``roll``.

    Seed rule 7 (docs/ships.md, "Harvest"): the ship lies along a producing land
    hex carrying ``roll``, no enemy building touches that hex, no enemy road runs
    along ``e``, and at most one building stands around that hex.

    Parameters
    ----------
    board : Board
    e : Edge
        The ship's edge.
    roll : int
        A 2d6 sum, 2..12.
    player : str
        The ship's owner.
    buildings : Mapping of Vertex to str
        Corners to owners (settlements and cities alike).
    roads : Mapping of Edge to str
        Edges to owners.

    Returns
    -------
    Terrain or None
        The terrain of the card taken, or None when the ship takes nothing.

    Raises
    ------
    InvalidInput
        If ``e`` is not a ship edge or ``roll`` is not in 2..12.

    Examples
    --------
    >>> from isles.models.catan import beginner_board
    >>> b = beginner_board()
    >>> harvest(b, edge((0, 2), (0, 3)), 11, "red", {}, {})
    <Terrain.PASTURE: 'pasture'>
    """
    if harvest_refusal(board, e, roll, player, buildings, roads) is not None:
        return None
    h = land_hex(board, e)
    assert h is not None  # a ship that takes a card lies along land
    return board.terrain(h)


def land_hex(board: Board, e: Edge) -> Hex | None:
    """The land hex a ship on ``e`` lies along, or None on the high sea.

    Examples
    --------
    >>> from isles.models.catan import beginner_board
    >>> land_hex(beginner_board(), edge((0, 2), (0, 3)))
    Hex(q=0, r=2)
    """
    check_ship_edge(board, e)
    land = [h for h in (e.a, e.b) if board.terrain(h) is not Terrain.SEA]
    return land[0] if land else None


def harvest_refusal(
    board: Board,
    e: Edge,
    roll: int,
    player: str,
    buildings: Mapping[Vertex, str],
    roads: Mapping[Edge, str],
) -> str | None:
    """Why a ship of ``player`` on ``e`` takes no card after ``roll`` (rule 7); None if it does.

    The one definition of the harvest rule (docs/ships.md, "Harvest"): the ship
    lies along a producing land hex carrying ``roll``; no enemy road runs along
    ``e``; no enemy building touches the hex; at most one building stands
    around it.

    Parameters
    ----------
    board, e, roll, player, buildings, roads
        As :func:`harvest`.

    Returns
    -------
    str or None
        The reason in words, or None when the ship takes a card.

    Raises
    ------
    InvalidInput
        If ``e`` is not a ship edge or ``roll`` is not in 2..12.

    Examples
    --------
    >>> from isles.models.catan import beginner_board
    >>> b = beginner_board()
    >>> harvest_refusal(b, edge((0, 2), (0, 3)), 11, "red", {}, {}) is None
    True
    >>> harvest_refusal(b, edge((0, 2), (0, 3)), 11, "red", {}, {edge((0, 2), (0, 3)): "blue"})
    "an enemy road (blue's) runs along 0,2:0,3"
    """
    check_ship_edge(board, e)
    pips(roll)
    if roll == 7:
        return "a 7 hands out no resources"
    h = land_hex(board, e)
    if h is None:
        return f"{e} lies on the high sea, along no land hex"
    tile = board[h]
    if not tile.terrain.produces:
        return f"the land hex {h} ({tile.terrain.value}) produces nothing"
    if tile.number != roll:
        return f"the land hex {h} ({tile.terrain.value}) carries {tile.number}, not {roll}"
    owner = roads.get(e, player)
    if owner != player:
        return f"an enemy road ({owner}'s) runs along {e}"
    around = sorted(owner for v, owner in buildings.items() if h in (v.a, v.b, v.c))
    enemies = [o for o in around if o != player]
    if enemies:
        return f"an enemy building ({enemies[0]}'s) touches {h}"
    if len(around) > 1:
        return f"{len(around)} buildings stand around {h}: more than one, the hex is worked out"
    return None


# -- a ship becomes a settlement (rule 10) --------------------------------------------


def _yields(board: Board, h: Hex, missing: Resource) -> bool:
    terrain = board.terrain(h)
    return terrain is Terrain.GOLD or terrain.resource is missing


def conversion_edges(board: Board, missing: Resource) -> list[Edge]:
    """The ship edges where a paid ship can become a settlement lacking ``missing`` (rule 10).

    The ship must lie along a land hex that yields the missing resource (a gold
    hex yields any) and carries a number: the coast edges of such hexes
    (docs/ships.md, "A ship becomes a settlement").

    Examples
    --------
    >>> [str(e) for e in conversion_edges(demo_board(), Resource.BRICK)]
    ['-1,3:0,3', '0,2:0,3', '0,3:1,2', '2,-1:3,-1', '3,-1:3,0']
    """
    missing = Resource(missing)
    out = []
    for e in ship_edges(board):
        h = land_hex(board, e)
        if h is not None and board[h].number is not None and _yields(board, h, missing):
            out.append(e)
    return out


def converts(board: Board, e: Edge, roll: int, missing: Resource) -> bool:
    """Whether a paid ship on ``e`` becomes a settlement on ``roll`` (rule 10).

    The roll must be the number of the land hex the ship lies along, and that
    hex must yield ``missing``. Resources come before the ships move (rule 6),
    so the roll finds the ship on ``e``, where it stood before the roll.

    Examples
    --------
    >>> from isles.models.hexgrid import edge
    >>> converts(demo_board(), edge((0, 2), (0, 3)), 5, Resource.BRICK)
    True
    >>> converts(demo_board(), edge((0, 2), (0, 3)), 5, Resource.ORE)
    False
    """
    check_ship_edge(board, e)
    pips(roll)
    h = land_hex(board, e)
    return h is not None and board[h].number == roll and _yields(board, h, Resource(missing))


# -- ports (rule 8) ---------------------------------------------------------------------


@dataclass(frozen=True)
class Port:
    """A harbour a ship may reach, and the trade it allows there (seed rule 8).

    A ship on a harbour's side trades at that harbour's rate, and only cards of
    its cargo (docs/ships.md, "Ports"): a generic harbour takes 3 cards of one
    resource for 1 card of any resource, a resource harbour 2 cards of its
    resource for 1 of any. A ship carries at most 3 cards, so a generic trade
    takes a full hold of one resource.

    Attributes
    ----------
    edge : Edge
        The harbour's side (a coast edge: one sea hex, one land hex).
    kind : HarbourKind
        What the harbour trades (docs/boards.md, "Harbours").

    Examples
    --------
    >>> from isles.models.hexgrid import edge
    >>> p = Port(edge((0, 2), (0, 3)), HarbourKind.WOOL)
    >>> p.trade
    '2 wool of the cargo for 1 card of any resource'
    >>> p.tradable([Resource.WOOL, Resource.WOOL, Resource.ORE])
    (<Resource.WOOL: 'wool'>,)
    """

    edge: Edge
    kind: HarbourKind

    @property
    def trade(self) -> str:
        """The trade in words."""
        give = self.kind.resource
        what = "cards of one resource" if give is None else give.value
        return f"{self.kind.ratio} {what} of the cargo for 1 card of any resource"

    def tradable(self, cargo: Iterable[Resource]) -> tuple[Resource, ...]:
        """The resources of ``cargo`` the ship can trade here (enough cards at the rate), sorted.

        Raises
        ------
        InvalidInput
            If ``cargo`` holds more than :data:`CARGO_LIMIT` cards or a non-resource.
        """
        cards = list(cargo)
        if len(cards) > CARGO_LIMIT:
            raise InvalidInput("cargo", len(cards), f"at most {CARGO_LIMIT} cards (seed rule 4)")
        for i, c in enumerate(cards):
            if not isinstance(c, Resource):
                raise InvalidInput(f"cargo[{i}]", c, "a resource")
        counts = Counter(cards)
        want = self.kind.resource
        return tuple(
            sorted(
                (r for r, n in counts.items() if n >= self.kind.ratio and want in (None, r)),
                key=list(Resource).index,
            )
        )

    def to_dict(self) -> dict[str, object]:
        """``{"edge", "kind", "ratio", "resource" (null when generic), "trade"}``."""
        give = self.kind.resource
        return {
            "edge": edge_json(self.edge),
            "kind": self.kind.value,
            "ratio": self.kind.ratio,
            "resource": None if give is None else give.value,
            "trade": self.trade,
        }


def ports(board: Board, edges: Iterable[Edge] | None = None) -> tuple[Port, ...]:
    """The harbours of ``board`` (on ``edges`` only, when given) as ports, sorted by edge.

    Harbours come from the board file (docs/boards.md, "Harbours, buildings and
    roads"); a ship reaching a harbour's side may trade there (seed rule 8).

    Examples
    --------
    >>> from isles.models.hexgrid import edge
    >>> e = edge((0, 2), (0, 3))
    >>> board = demo_board().replace(harbours={e: HarbourKind.GENERIC})
    >>> [(str(p.edge), p.kind.value) for p in ports(board)]
    [('0,2:0,3', 'generic')]
    >>> ports(board, [edge((0, 2), (1, 2))])
    ()
    """
    wanted = None if edges is None else set(edges)
    return tuple(
        Port(e, kind) for e, kind in sorted(board.harbours.items()) if wanted is None or e in wanted
    )


def port_edges(board: Board, kinds: Iterable[str], field: str = "port") -> frozenset[Edge]:
    """The sides of the board's harbours of ``kinds`` (``any`` for every harbour): port targets.

    Raises
    ------
    InvalidInput
        Naming ``field[i]``: a kind that is not ``any`` or a harbour kind, or one the
        board has no harbour of.

    Examples
    --------
    >>> from isles.models.hexgrid import edge
    >>> e = edge((0, 2), (0, 3))
    >>> board = demo_board().replace(harbours={e: HarbourKind.ORE})
    >>> [str(x) for x in port_edges(board, ["ore"])]
    ['0,2:0,3']
    >>> port_edges(board, ["wool"])
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: port[0]: 'wool' is invalid; expected a kind of harbour on \
the board: ore, or any
    """
    have = sorted({k.value for k in board.harbours.values()})
    valid = ", ".join(have) + ", or any" if have else "none: the board has no harbours"
    out: set[Edge] = set()
    for i, raw in enumerate(kinds):
        if (raw != "any" or not have) and raw not in have:
            raise InvalidInput(f"{field}[{i}]", raw, f"a kind of harbour on the board: {valid}")
        out.update(e for e, k in board.harbours.items() if raw in ("any", k.value))
    return frozenset(out)


def scoring_ship(
    e: Edge, player: str, buildings: Mapping[Vertex, str], roads: Mapping[Edge, str]
) -> bool:
    """Whether a ship of ``player`` on ``e`` lies next to its building or road (end rule).

    Next to a building: the building stands on an end of ``e``. Next to a road:
    the road is ``e`` itself or shares an end with ``e`` (docs/ships.md, "Points").

    Parameters
    ----------
    e : Edge
        The ship's edge.
    player : str
        The ship's owner.
    buildings : Mapping of Vertex to str
    roads : Mapping of Edge to str

    Returns
    -------
    bool

    Examples
    --------
    >>> v = parse_settlement("0,2:0,3:1,2")
    >>> scoring_ship(edge((0, 2), (0, 3)), "red", {v: "red"}, {})
    True
    """
    ends = set(edge_vertices(e))
    if any(buildings.get(v) == player for v in ends):
        return True
    return any(
        owner == player and (r == e or bool(ends & set(edge_vertices(r))))
        for r, owner in roads.items()
    )


def ship_points(scoring_ships: int) -> int:
    """Victory points for ships next to own buildings or roads: 2 ships 1, 3 ships 2.

    Parameters
    ----------
    scoring_ships : int
        Ships of one player that score (:func:`scoring_ship`), 0..3.

    Returns
    -------
    int

    Raises
    ------
    InvalidInput
        If ``scoring_ships`` is not an integer in 0..3.

    Examples
    --------
    >>> [ship_points(n) for n in range(4)]
    [0, 0, 1, 2]
    """
    if (
        isinstance(scoring_ships, bool)
        or not isinstance(scoring_ships, int)
        or not 0 <= scoring_ships <= MAX_SHIPS
    ):
        raise InvalidInput("scoring_ships", scoring_ships, f"a ship count in 0..{MAX_SHIPS}")
    return max(0, scoring_ships - 1)


def demo_board() -> Board:
    """The embedded ships board: radius-3 hexagon, 12 land and 25 sea hexes, all tokened.

    It follows the seed's set-up (docs/ships.md, "The demo board"); its file is
    ``models/data/ships_demo.json``, in the board format of docs/boards.md.

    Returns
    -------
    Board

    Examples
    --------
    >>> b = demo_board()
    >>> len(b.land()), len(b.sea()), all(b.number(h) for h in b.sea())
    (12, 25, True)
    """
    data = resources.files("isles.models").joinpath("data/ships_demo.json")
    text = data.read_text(encoding="utf-8")
    return Board.from_dict(parse_json(text, "ships_demo.json"), source="ships_demo.json")


def board_or_demo(path: str | None) -> Board:
    """The board file at ``path`` (``-``: standard input), or the demo board when None.

    The ships commands' ``--board FILE`` (docs/ships.md, "The demo board").

    Parameters
    ----------
    path : str or None
        A board file (docs/boards.md), or None.

    Returns
    -------
    Board

    Raises
    ------
    InvalidInput
        A file that cannot be read or is not a board, naming the file.

    Examples
    --------
    >>> board_or_demo(None) == demo_board()
    True
    """
    return demo_board() if path is None else Board.load(path)
