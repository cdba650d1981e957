"""Ships under winds: where a ship stands, how the 2d6 winds move it, what it risks and earns.

Implements RULES.md section 4 (seed 004_644cf972d8964df4.txt, rules 2 to 13); the
decisions the seed leaves open are in docs/ships.md.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from enum import StrEnum
from fractions import Fraction
from importlib import resources
from types import MappingProxyType

from isles.models.catan import Board, Resource, Terrain, pips
from isles.models.errors import InvalidInput
from isles.models.hexgrid import Edge, Hex, Vertex, edge, neighbours, parse_hex, vertex

__all__ = [
    "CARGO_LIMIT",
    "MAX_SHIPS",
    "ROLLS",
    "SHIP_COST",
    "Encounter",
    "Outcome",
    "Waters",
    "capacity",
    "cargo_after",
    "check_ship_edge",
    "demo_board",
    "edge_vertices",
    "harvest",
    "is_ship_edge",
    "outcome_rolls",
    "outcome_table",
    "parse_settlement",
    "pirate_options",
    "placement_edges",
    "rolls_to_rounds",
    "scoring_ship",
    "settlement_edges",
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

#: Cost of one ship (seed rule 2): 1 wool, 1 lumber, 1 grain.
SHIP_COST: Mapping[Resource, int] = MappingProxyType(
    {Resource.WOOL: 1, Resource.LUMBER: 1, Resource.GRAIN: 1}
)


class Waters(StrEnum):
    """Where a ship edge lies: both hexes sea, or one land hex (a coast)."""

    HIGH_SEA = "high sea"
    COAST = "coast"


def is_ship_edge(board: Board, e: Edge) -> bool:
    """True when both hexes of ``e`` are on ``board`` and at least one is sea.

    >>> from isles.models.catan import beginner_board
    >>> b = beginner_board()
    >>> is_ship_edge(b, edge((0, 3), (1, 2))), is_ship_edge(b, edge((0, 0), (1, 0)))
    (True, False)
    """
    if e.a not in board or e.b not in board:
        return False
    return board.terrain(e.a) is Terrain.SEA or board.terrain(e.b) is Terrain.SEA


def check_ship_edge(board: Board, e: Edge, field: str = "edge") -> Edge:
    """Return ``e`` if a ship can stand on it, else raise.

    Raises
    ------
    InvalidInput
        Naming ``field`` when a hex of ``e`` is off the board or both are land.
    """
    for h in (e.a, e.b):
        if h not in board:
            raise InvalidInput(field, str(e), f"an edge of two board hexes ({h} is not on it)")
    if not is_ship_edge(board, e):
        raise InvalidInput(field, str(e), "an edge with at least one sea hex")
    return e


def ship_edges(board: Board) -> list[Edge]:
    """Every edge a ship can stand on: both hexes on the board, at least one sea; sorted.

    >>> from isles.models.catan import beginner_board
    >>> len(ship_edges(beginner_board()))  # 18 high-sea edges + 30 along the coast
    48
    """
    out: set[Edge] = set()
    for h in board.sea():
        for n in board.neighbours(h):
            out.add(edge(h, n))
    return sorted(out)


def waters(board: Board, e: Edge) -> Waters:
    """High sea (both hexes sea) or coast (one land hex); ``e`` must be a ship edge."""
    check_ship_edge(board, e)
    both = board.terrain(e.a) is Terrain.SEA and board.terrain(e.b) is Terrain.SEA
    return Waters.HIGH_SEA if both else Waters.COAST


def capacity(board: Board, e: Edge) -> int:
    """Ships that share ``e`` without a collision: 2 on high sea, 1 along a coast (rule 11).

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

    >>> [len(v) for v in edge_vertices(edge((0, 0), (1, 0)))]
    [3, 3]
    """
    x, y = _common_neighbours(e)
    return vertex(e.a, e.b, x), vertex(e.a, e.b, y)


def _moves_along(board: Board, e: Edge, h: Hex) -> tuple[Edge, ...]:
    return tuple(edge(h, x) for x in _common_neighbours(e) if x in board)


def wind_moves(board: Board, e: Edge, roll: int) -> tuple[Edge, ...]:
    """The edges the wind of ``roll`` allows a ship on ``e`` to reach (rule 6).

    For every sea hex ``H`` of ``e`` carrying ``roll``: the edges ``{H, X}`` where
    ``X`` is on the board and adjacent to both hexes of ``e``. Empty when the wind
    does not blow there (a 7, or no sea hex of ``e`` carries ``roll``): the ship
    stays. Sorted, without repeats.

    Raises
    ------
    InvalidInput
        If ``e`` is not a ship edge or ``roll`` is not in 2..12.

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

    Moving is compulsory when the wind allows; with ``may_stay`` (the seed's
    variant) a ship along a coast may also stay. When the wind allows no move,
    the only option is ``(e,)``.

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
    """Where the pirate ship on ``e`` may go after ``roll`` (rule 12).

    Like a ship, and on a 7 one edge along any sea hex of ``e`` (docs/ships.md).
    """
    if roll != 7:
        return ship_options(board, e, roll, may_stay)
    check_ship_edge(board, e)
    out: set[Edge] = set()
    for h in (e.a, e.b):
        if board.terrain(h) is Terrain.SEA:
            out.update(_moves_along(board, e, h))
    return tuple(sorted(out)) or (e,)


def rolls_to_rounds(rolls: float, players: int) -> float:
    """Rounds of play taken by ``rolls`` rolls: every player's turn is one roll.

    Raises
    ------
    InvalidInput
        If ``players`` is not in 3..6 (the seed's player count).

    >>> rolls_to_rounds(12.0, 4)
    3.0
    """
    if isinstance(players, bool) or not isinstance(players, int) or not 3 <= players <= 6:
        raise InvalidInput("players", players, "a player count in 3..6")
    return rolls / players


# -- collisions and pirates (rules 11 and 12) ------------------------------------


class Encounter(StrEnum):
    """What makes a ship roll for its fate."""

    COLLISION = "collision"
    PIRATE = "pirate"


class Outcome(StrEnum):
    """What one encounter roll does to a ship."""

    SINKS = "sinks"
    LOSES_ALL = "loses all cargo"
    LOSES_TWO = "loses 2 cards"
    LOSES_ONE = "loses 1 card"
    UNHARMED = "unharmed"


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

    >>> outcome_rolls(Encounter.PIRATE)[Outcome.SINKS]
    (11, 12)
    """
    return _OUTCOME_ROLLS[Encounter(encounter)]


def outcome_table(encounter: Encounter) -> Mapping[Outcome, Fraction]:
    """Exact probability of each outcome of ``encounter``; the values sum to 1.

    >>> t = outcome_table(Encounter.COLLISION)
    >>> t[Outcome.SINKS], t[Outcome.UNHARMED], sum(t.values())
    (Fraction(1, 36), Fraction(13, 18), Fraction(1, 1))
    """
    return {o: Fraction(sum(pips(n) for n in ns), 36) for o, ns in outcome_rolls(encounter).items()}


def cargo_after(outcome: Outcome, cargo: int) -> int | None:
    """Cards left on board after ``outcome`` for a ship holding ``cargo``; None if sunk.

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


# -- settlements, harvest, building, points (rules 2, 3, 5, 7, 9, end) -----------


def parse_settlement(text: str, field: str = "settlement") -> Vertex:
    """Parse a corner ``"Q,R:Q,R:Q,R"`` (three pairwise adjacent hexes) into a Vertex.

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


def settlement_edges(board: Board, settlement: Vertex) -> list[Edge]:
    """Coast edges at the corner ``settlement``: where a ship reaches it (rule 5).

    The seed's ship "reaches" a settlement on the sea, along a side of a land hex
    next to it; so the high-sea edge at a corner does not count (docs/ships.md).

    >>> from isles.models.catan import beginner_board
    >>> [str(e) for e in settlement_edges(beginner_board(), parse_settlement("0,2:0,3:1,2"))]
    ['0,2:0,3', '0,2:1,2']
    """
    return [e for e in _corner_edges(board, settlement) if waters(board, e) is Waters.COAST]


def _corner_edges(board: Board, settlement: Vertex) -> list[Edge]:
    hs = (settlement.a, settlement.b, settlement.c)
    out = [edge(hs[i], hs[j]) for i in range(3) for j in range(i + 1, 3)]
    return sorted(e for e in out if is_ship_edge(board, e))


def placement_edges(
    board: Board, settlement: Vertex, player: str, roads: Mapping[Edge, str]
) -> list[Edge]:
    """Where ``player`` may launch a ship built at its ``settlement`` (rule 3).

    The ship edges at the settlement's corner (high sea or coast), except those
    along an enemy road. Empty when the settlement does not touch the sea.

    >>> from isles.models.catan import beginner_board
    >>> v = parse_settlement("0,2:0,3:1,2")
    >>> blue_road = {edge((0, 2), (0, 3)): "blue"}
    >>> [str(e) for e in placement_edges(beginner_board(), v, "red", blue_road)]
    ['0,2:1,2', '0,3:1,2']
    """
    return [e for e in _corner_edges(board, settlement) if roads.get(e, player) == player]


def harvest(
    board: Board,
    e: Edge,
    roll: int,
    player: str,
    buildings: Mapping[Vertex, str],
    roads: Mapping[Edge, str],
) -> Terrain | None:
    """The land terrain whose card a ship of ``player`` on ``e`` takes after ``roll``.

    RULES.md section 4 (seed rule 7): the ship lies along a producing land hex
    carrying ``roll``, no enemy building touches that hex, no enemy road runs
    along ``e``, and at most one building stands around that hex. ``buildings``
    maps corners to owners (settlements and cities alike); ``roads`` maps edges
    to owners. None when the ship takes nothing.

    >>> from isles.models.catan import beginner_board
    >>> b = beginner_board()
    >>> harvest(b, edge((0, 2), (0, 3)), 11, "red", {}, {})
    <Terrain.PASTURE: 'pasture'>
    """
    check_ship_edge(board, e)
    pips(roll)
    land = [h for h in (e.a, e.b) if board.terrain(h) is not Terrain.SEA]
    if not land:
        return None
    h = land[0]
    tile = board[h]
    if not tile.terrain.produces or tile.number != roll:
        return None
    if roads.get(e, player) != player:
        return None
    around = [owner for v, owner in buildings.items() if h in (v.a, v.b, v.c)]
    if len(around) > 1 or any(owner != player for owner in around):
        return None
    return tile.terrain


def scoring_ship(
    e: Edge, player: str, buildings: Mapping[Vertex, str], roads: Mapping[Edge, str]
) -> bool:
    """True when a ship of ``player`` on ``e`` lies next to its building or road (end rule).

    Next to a building: the building stands on an end of ``e``. Next to a road:
    the road is ``e`` itself or shares an end with ``e``.
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

    >>> [ship_points(n) for n in range(4)]
    [0, 0, 1, 2]
    """
    if isinstance(scoring_ships, bool) or not isinstance(scoring_ships, int):
        raise InvalidInput("scoring_ships", scoring_ships, f"a ship count in 0..{MAX_SHIPS}")
    if not 0 <= scoring_ships <= MAX_SHIPS:
        raise InvalidInput("scoring_ships", scoring_ships, f"a ship count in 0..{MAX_SHIPS}")
    return max(0, scoring_ships - 1)


def demo_board() -> Board:
    """The embedded ships board: radius-3 hexagon, 12 land and 25 sea hexes, all tokened.

    >>> b = demo_board()
    >>> len(b.land()), len(b.sea()), all(b.number(h) for h in b.sea())
    (12, 25, True)
    """
    data = resources.files("isles.models").joinpath("data/ships_demo.json")
    text = data.read_text(encoding="utf-8")
    return Board.from_dict(json.loads(text), source="ships_demo.json")
