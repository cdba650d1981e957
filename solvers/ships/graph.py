"""The wind graph: every ship edge of a board and where each roll lets a ship go, as arrays.

Implements docs/ships.md ("Edges inside the board", "Which tokens blow"; seed
004_644cf972d8964df4.txt, rules 6 and 12): the engine every ships solver steers on (one
ship, a fleet, a conversion, a harvest, the pirate), with the rolls' probabilities and
the breadth-first layers they share.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp
from scipy.sparse.csgraph import dijkstra

from isles.models.board import Board
from isles.models.catan import Terrain, pips, roll_probability
from isles.models.errors import InvalidInput
from isles.models.hexgrid import DIRECTIONS, Edge, Hex
from isles.models.ships.coordinates import as_corner
from isles.models.ships.limits import MAX_SHIP_EDGES, ROLLS
from isles.models.ships.settlements import settlement_edges
from isles.models.ships.winds import check_ship_edge, ship_edge_count, ship_edges

__all__ = [
    "ROLL_INDEX",
    "ROLL_P",
    "ROLL_PIPS",
    "UNIT_ROUNDOFF",
    "WindGraph",
    "layers",
    "target_edges",
    "wind_graph",
]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]

#: Probability of each roll in ROLLS order, as floats for the linear algebra.
ROLL_P: FloatArray = np.array([float(roll_probability(n)) for n in ROLLS])
#: Ways to roll each sum in ROLLS order (probability = pips / 36), for exact integer sums.
ROLL_PIPS: tuple[int, ...] = tuple(pips(n) for n in ROLLS)
#: A roll's index in ROLLS (the second axis of :attr:`WindGraph.options`).
ROLL_INDEX: dict[int, int] = {n: i for i, n in enumerate(ROLLS)}
#: Unit roundoff of float64: the slack added to a computed Bellman residual.
UNIT_ROUNDOFF = 2.0**-53
_SEVEN = ROLL_INDEX[7]
_DIRECTION_INDEX: dict[tuple[int, int], int] = {(d.q, d.r): k for k, d in enumerate(DIRECTIONS)}


@dataclass(frozen=True, eq=False)
class WindGraph:
    """The wind moves of every ship edge of a board, as arrays (built once per board).

    Attributes
    ----------
    board : Board
        The board the graph was built from.
    edges : tuple of Edge
        The ship edges (:func:`isles.models.ships.winds.ship_edges`), indexed 0..N-1.
    index : Mapping of Edge to int
        Edge -> its index.
    options : ndarray of int, shape (N, 11, K)
        ``options[i, r]`` = indices of the edges a ship on edge ``i`` may end on
        after roll ``ROLLS[r]`` (padded by repeating the first option).
    may_stay : bool
        Whether the seed's variant (a ship along a coast may stay) is in force.
    pirate : bool
        Whether these are the pirate's moves (one edge on every 7 as well).

    See Also
    --------
    wind_graph : builds one from a board.

    Examples
    --------
    >>> from isles.models.ships.demo import demo_board
    >>> g = wind_graph(demo_board())
    >>> i = g.index[Edge(Hex(0, 2), Hex(1, 2))]
    >>> [str(g.edges[j]) for j in sorted(set(g.options[i, ROLLS.index(10)]))]
    ['0,2:0,3', '0,2:1,1']
    """

    board: Board
    edges: tuple[Edge, ...]
    index: Mapping[Edge, int]
    options: IntArray
    may_stay: bool
    pirate: bool = False

    def __len__(self) -> int:
        return len(self.edges)


def wind_graph(board: Board, may_stay: bool = False, pirate: bool = False) -> WindGraph:
    """Tabulate the moves of :func:`isles.models.ships.winds.ship_options` for every ship edge.

    Built directly from the geometry (one pass over the edges, no per-roll calls)
    so that boards of 100,000 edges take a few seconds; the test suite checks it
    against :func:`isles.models.ships.winds.ship_options` and
    :func:`isles.models.ships.winds.pirate_options` on small boards.

    Parameters
    ----------
    board : Board
        Any board with a sea hex next to another hex.
    may_stay : bool
        The seed's variant: a ship along a coast may stay.
    pirate : bool
        Tabulate the pirate ship's moves instead (a 7 moves it one edge along any
        sea hex of its edge, docs/ships.md "The pirate ship").

    Returns
    -------
    WindGraph

    Raises
    ------
    InvalidInput
        If the board has no ship edge (no sea hex next to another hex), or more
        than ``MAX_SHIP_EDGES`` (the message gives the count and the limit;
        nothing is built).

    Examples
    --------
    >>> from isles.models.ships.demo import demo_board
    >>> g = wind_graph(demo_board())
    >>> len(g), g.options.shape[:2]
    (83, (83, 11))
    """
    count = ship_edge_count(board)
    if count > MAX_SHIP_EDGES:
        raise InvalidInput(
            "board",
            f"{count:,} ship edges",
            f"a board of at most {MAX_SHIP_EDGES:,} ship edges",
            problem=f"the board has {count:,} ship edges",
        )
    edges = tuple(ship_edges(board))
    if not edges:
        raise InvalidInput(
            "board", repr(board), "a board with at least one ship edge (a sea hex next to a hex)"
        )
    index = {e: i for i, e in enumerate(edges)}
    tiles = board.tiles
    per_edge: list[dict[int, list[int]]] = []
    width = 1
    for i, e in enumerate(edges):
        # The hexes next to both a and b = a + D[k] are a + D[k - 1] and a + D[k + 1].
        k = _DIRECTION_INDEX[(e.b.q - e.a.q, e.b.r - e.a.r)]
        shared = [
            x
            for d in (DIRECTIONS[(k + 1) % 6], DIRECTIONS[(k - 1) % 6])
            if (x := Hex(e.a.q + d.q, e.a.r + d.r)) in tiles
        ]
        moves: dict[int, list[int]] = {}
        coast = False
        sevens: set[int] = set()
        for h in (e.a, e.b):
            tile = tiles[h]
            if tile.terrain is not Terrain.SEA:
                coast = True
                continue
            sevens.update(index[_edge(h, x)] for x in shared)
            if tile.number is None:
                continue
            bucket = moves.setdefault(ROLL_INDEX[tile.number], [])
            bucket.extend(index[_edge(h, x)] for x in shared)
        for r, bucket in list(moves.items()):
            unique = sorted(set(bucket))
            if not unique:
                del moves[r]
                continue
            if may_stay and coast:
                unique = sorted({*unique, i})
            moves[r] = unique
        if pirate and sevens:
            moves[_SEVEN] = sorted(sevens)
        width = max([width, *(len(m) for m in moves.values())])
        per_edge.append(moves)
    options = np.empty((len(edges), len(ROLLS), width), dtype=np.int64)
    options[:] = np.arange(len(edges), dtype=np.int64)[:, None, None]
    for i, moves in enumerate(per_edge):
        for r, targets in moves.items():
            options[i, r, :] = targets[0]
            options[i, r, : len(targets)] = targets
    return WindGraph(board, edges, index, options, may_stay, pirate)


def _edge(a: Hex, b: Hex) -> Edge:
    return Edge(a, b) if a < b else Edge(b, a)


def target_edges(
    board: Board, targets: Iterable[object] = (), near: Iterable[object] = ()
) -> frozenset[Edge]:
    """The target set: the given ship edges plus the coast edges next to the settlements.

    Parameters
    ----------
    board : Board
    targets : iterable of Edge
        Target ship edges (an ``Edge`` or a pair of hexes each).
    near : iterable of Vertex
        Settlement corners (a ``Vertex`` or three hexes each); a ship reaches a
        settlement on the coast edges at its corner (seed rule 5,
        :func:`isles.models.ships.settlements.settlement_edges`).

    Returns
    -------
    frozenset of Edge

    Raises
    ------
    InvalidInput
        Naming ``targets[i]`` or ``near[i]``: not a ship edge of ``board``, a
        corner next to no coast; or both empty.

    Examples
    --------
    >>> from isles.models.ships.demo import demo_board
    >>> sorted(map(str, target_edges(demo_board(), near=[((0, 3), (0, 2), (1, 2))])))
    ['0,2:0,3', '0,3:1,2']
    """
    out = {check_ship_edge(board, e, f"targets[{i}]") for i, e in enumerate(targets)}
    for i, value in enumerate(near):
        v = as_corner(value, f"near[{i}]")
        found = settlement_edges(board, v)
        if not found:
            raise InvalidInput(
                f"near[{i}]", ":".join(map(str, v)), "a corner next to a coast of the board"
            )
        out.update(found)
    if not out:
        raise InvalidInput("targets", [], "at least one target edge or settlement (near)")
    return frozenset(out)


def layers(n: int, src: IntArray, dst: IntArray, keep: BoolArray, targets: IntArray) -> FloatArray:
    """Fewest arcs from each of ``n`` states to ``targets`` along the arcs ``src -> dst``
    where ``keep``; inf where none leads there (a breadth-first search, backward).

    Examples
    --------
    >>> arcs = np.array([0, 1]), np.array([1, 2])
    >>> layers(3, *arcs, np.array([True, True]), np.array([2])).tolist()
    [2.0, 1.0, 0.0]
    """
    # Reverse the arcs (dst -> src) and add a super source n -> every target.
    rows = np.concatenate([dst[keep], np.full(len(targets), n, dtype=np.int64)])
    cols = np.concatenate([src[keep], targets])
    graph = sp.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(n + 1, n + 1))
    dist = dijkstra(graph, directed=True, indices=n, unweighted=True)
    return np.asarray(dist[:n], dtype=np.float64) - 1.0
