"""A ship next to a building: unloading, launching, harvest, points, and becoming a settlement.

Implements docs/ships.md ("Next to a settlement", "Harvest", "Points", "A ship becomes
a settlement"; seed 004_644cf972d8964df4.txt, rules 3, 5, 7, 10 and the end of the game).
"""

from __future__ import annotations

from collections.abc import Mapping

from isles.models.board import Board
from isles.models.catan import Resource, Terrain, pips
from isles.models.errors import InvalidInput
from isles.models.hexgrid import Edge, Hex, Vertex, edge
from isles.models.ships.limits import MAX_SHIPS
from isles.models.ships.winds import (
    Waters,
    check_ship_edge,
    edge_vertices,
    is_ship_edge,
    ship_edges,
    waters,
)

__all__ = [
    "building_owners",
    "conversion_edges",
    "converts",
    "corner_edges",
    "harvest",
    "harvest_refusal",
    "harvest_rolls",
    "land_hex",
    "placement_edges",
    "scoring_ship",
    "settlement_edges",
    "ship_points",
]


# -- next to a building: unloading, launching, harvest (rules 3, 5, 7) ---------------


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
    >>> from isles.models.ships.coordinates import parse_settlement
    >>> from isles.models.board import beginner_board
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
    >>> from isles.models.ships.coordinates import parse_settlement
    >>> from isles.models.board import beginner_board
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
    >>> from isles.models.ships.coordinates import parse_settlement
    >>> from isles.models.board import beginner_board
    >>> from isles.models.catan import Building
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
    >>> from isles.models.ships.coordinates import parse_settlement
    >>> from isles.models.board import beginner_board
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
    >>> from isles.models.board import beginner_board
    >>> b = beginner_board()
    >>> harvest(b, edge((0, 2), (0, 3)), 11, "red", {}, {})
    <Terrain.PASTURE: 'pasture'>
    """
    if harvest_refusal(board, e, roll, player, buildings, roads) is not None:
        return None
    h = _land(board, e)
    assert h is not None  # a ship that takes a card lies along land
    return board.terrain(h)


def harvest_rolls(
    board: Board, player: str, buildings: Mapping[Vertex, str], roads: Mapping[Edge, str]
) -> dict[Edge, tuple[int, Terrain]]:
    """Every ship edge where a ship of ``player`` takes a card (rule 7): the roll, the terrain.

    :func:`harvest` for every ship edge of the board at once, each edge read once:
    the one roll that can give a card there is the number of the land hex the
    edge lies along.

    Parameters
    ----------
    board : Board
    player : str
        The ships' owner.
    buildings, roads
        As :func:`harvest`.

    Returns
    -------
    dict of Edge to (int, Terrain)
        The edges where a ship takes a card, with the roll that gives it and the
        terrain whose card it is; the other ship edges are absent.

    Examples
    --------
    >>> from isles.models.board import beginner_board
    >>> b = beginner_board()
    >>> rolls = harvest_rolls(b, "red", {}, {})
    >>> rolls[edge((0, 2), (0, 3))]
    (11, <Terrain.PASTURE: 'pasture'>)
    >>> all(harvest(b, e, n, "red", {}, {}) is t for e, (n, t) in rolls.items())
    True
    """
    out: dict[Edge, tuple[int, Terrain]] = {}
    for e in ship_edges(board):
        h = _land(board, e)
        number = None if h is None else board[h].number
        if h is None or number is None:
            continue
        if _refusal(board, e, number, player, buildings, roads) is None:
            out[e] = (number, board.terrain(h))
    return out


def land_hex(board: Board, e: Edge) -> Hex | None:
    """The land hex a ship on ``e`` lies along, or None on the high sea.

    Examples
    --------
    >>> from isles.models.board import beginner_board
    >>> land_hex(beginner_board(), edge((0, 2), (0, 3)))
    Hex(q=0, r=2)
    """
    check_ship_edge(board, e)
    return _land(board, e)


def _land(board: Board, e: Edge) -> Hex | None:
    """:func:`land_hex` of a ship edge already checked."""
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
    >>> from isles.models.board import beginner_board
    >>> b = beginner_board()
    >>> harvest_refusal(b, edge((0, 2), (0, 3)), 11, "red", {}, {}) is None
    True
    >>> harvest_refusal(b, edge((0, 2), (0, 3)), 11, "red", {}, {edge((0, 2), (0, 3)): "blue"})
    "an enemy road (blue's) runs along 0,2:0,3"
    """
    check_ship_edge(board, e)
    pips(roll)
    return _refusal(board, e, roll, player, buildings, roads)


def _refusal(
    board: Board,
    e: Edge,
    roll: int,
    player: str,
    buildings: Mapping[Vertex, str],
    roads: Mapping[Edge, str],
) -> str | None:
    """:func:`harvest_refusal` of a ship edge and a roll already checked."""
    if roll == 7:
        return "a 7 hands out no resources"
    h = _land(board, e)
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
    >>> from isles.models.ships.demo import demo_board
    >>> [str(e) for e in conversion_edges(demo_board(), Resource.BRICK)]
    ['-1,3:0,3', '0,2:0,3', '0,3:1,2', '2,-1:3,-1', '3,-1:3,0']
    """
    missing = Resource(missing)
    out = []
    for e in ship_edges(board):
        h = _land(board, e)
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
    >>> from isles.models.ships.demo import demo_board
    >>> from isles.models.hexgrid import edge
    >>> converts(demo_board(), edge((0, 2), (0, 3)), 5, Resource.BRICK)
    True
    >>> converts(demo_board(), edge((0, 2), (0, 3)), 5, Resource.ORE)
    False
    """
    check_ship_edge(board, e)
    pips(roll)
    h = _land(board, e)
    return h is not None and board[h].number == roll and _yields(board, h, Resource(missing))


# -- points (the end of the game) -----------------------------------------------------


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
    >>> from isles.models.ships.coordinates import parse_settlement
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
