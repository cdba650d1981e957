"""Where a ship stands and where the 2d6 winds let it go: ship edges, coasts, wind moves.

Implements docs/ships.md ("Edges inside the board", "Which tokens blow"; seed
004_644cf972d8964df4.txt, rules 3, 6, 11 and 12): the rules of one ship as pure functions.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import cast

from isles.models.board import Board
from isles.models.catan import Terrain, Tile, pips
from isles.models.errors import InvalidInput
from isles.models.hexgrid import Edge, Hex, Vertex, edge, neighbours, vertex
from isles.models.ships.coordinates import as_edge

__all__ = [
    "Waters",
    "capacity",
    "check_ship_edge",
    "edge_vertices",
    "is_ship_edge",
    "pirate_options",
    "ship_edge_count",
    "ship_edges",
    "ship_options",
    "waters",
    "wind_moves",
]


class Waters(StrEnum):
    """Where a ship edge lies: both hexes sea (``high_sea``), or one land hex (``coast``).

    Examples
    --------
    >>> [w.value for w in Waters]
    ['high_sea', 'coast']
    """

    HIGH_SEA = "high_sea"
    COAST = "coast"


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
    >>> from isles.models.board import beginner_board
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
    >>> from isles.models.board import beginner_board
    >>> check_ship_edge(beginner_board(), ((0, 0), (1, 0)), "start")
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: start: '0,0:1,0' is invalid; expected an edge with ...
    """
    e = as_edge(e, field)
    for h in (e.a, e.b):
        if h not in board:
            raise InvalidInput(
                field, str(e), f"an edge of two board hexes ({h} is not on the board)"
            )
    if not is_ship_edge(board, e):
        raise InvalidInput(field, str(e), "an edge with at least one sea hex")
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
    >>> from isles.models.board import beginner_board
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
    >>> from isles.models.board import beginner_board
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
    >>> from isles.models.board import beginner_board
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
    >>> from isles.models.board import beginner_board
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
    >>> from isles.models.board import Board
    >>> from isles.models.catan import Tile
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
    >>> from isles.models.board import Board
    >>> from isles.models.catan import Tile
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
    >>> from isles.models.board import Board
    >>> from isles.models.catan import Tile
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
