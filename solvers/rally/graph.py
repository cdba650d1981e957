"""The rally's graph: a board and one player's roads as arcs, and what each move costs.

Implements docs/rally.md ("Moving", "Big boards") on the rules of
seeds/002_8684547a41c0941c.txt as :mod:`isles.models.rally.rules` reads them: the
arcs in bulk (CSR arrays), each arc's cost from the rules once per kind of tile,
and the NetworkX graph of the board on demand.

References
----------
.. [1] P. Virtanen et al., "SciPy 1.0: fundamental algorithms for scientific
   computing in Python", Nature Methods 17, 261-272, 2020
   (``scipy.sparse.csgraph``).
.. [2] A. A. Hagberg, D. A. Schult, P. J. Swart, "Exploring network structure,
   dynamics, and function using NetworkX", SciPy 2008.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Literal, NamedTuple

import numpy as np
import numpy.typing as npt
from scipy.sparse import csr_matrix

from isles.models.board import Board
from isles.models.catan import Resource, Terrain, Tile
from isles.models.errors import InvalidInput
from isles.models.hexgrid import DIRECTIONS, Edge, EdgeLike, Hex, as_hex, distance, edge
from isles.models.rally.rules import desert_exit_probability, entry_cost

if TYPE_CHECKING:
    import networkx as nx

__all__ = ["Arc", "RallyGraph", "Road", "build_graph"]

#: A road as a caller may give it: an :class:`Edge`, or a pair of hexes ``(q, r)``.
Road = EdgeLike


class Arc(NamedTuple):
    """One move ``tail -> head`` (hex indices) and what it costs: the planner's unit of work."""

    tail: int
    head: int
    cards: int
    resource: Resource | None  # None for a desert, and for gold (paid in any resource)
    halved: bool
    p_exit: Fraction  # chance one try succeeds: P(2d6 <= n) leaving a desert, else 1


@dataclass(frozen=True)
class RallyGraph:
    """A board and one player's roads as arc arrays (CSR), and as a NetworkX graph on demand.

    Build with :func:`build_graph`; pass it to :func:`isles.rally.plan_route` or
    :func:`isles.rally.cost_field` to plan many routes on one board without rebuilding.

    Attributes
    ----------
    board : Board
    roads : frozenset of Edge
        The mover's own roads.
    hexes : tuple of Hex
        The board's hexes in board order: node ``i`` of the CSR form.
    index : mapping of Hex to int
        The inverse of ``hexes``.
    graph : networkx.DiGraph
        The public model of the board (built on first use, then kept): nodes
        are the board's hexes, with attributes ``terrain`` and ``number``. An
        arc ``u -> v`` exists when ``v`` is land (cars never enter the sea);
        its attributes are ``cards`` (the cost of entering ``v`` across that
        edge), ``resource`` (a :class:`Resource`, or None for desert and gold),
        ``halved`` (an own road on the edge) and ``p_exit`` (the chance one try
        succeeds: ``P(2d6 <= n)`` when leaving a desert for a numbered hex, else 1).
    tail, head, arc_cards : numpy.ndarray of int64
        Each arc's tail and head (hex indices) and the cards entering its head costs.
    on_road : numpy.ndarray of bool
        Whether each arc crosses one of the mover's own roads.
    first_arc : numpy.ndarray of int64
        The arcs leaving hex ``i`` are ``first_arc[i]`` to ``first_arc[i + 1] - 1``.

    Notes
    -----
    The planner reads the arc arrays only: arcs in board order of their tail,
    then in neighbour direction order (docs/boards.md, "Coordinates"), which
    is also the order of the NetworkX graph's arcs. The arrays are built from
    the board in bulk (axial coordinates to indices by one sorted search), as
    SciPy's csgraph works [1]_: model to arrays at the boundary, bulk
    computation, results back once. NetworkX [2]_ costs most of the build on
    big boards, so it is made only when something reads :attr:`graph`.

    References
    ----------
    .. [1] P. Virtanen et al., "SciPy 1.0: fundamental algorithms for
       scientific computing in Python", Nature Methods 17, 261-272, 2020.
    .. [2] A. A. Hagberg, D. A. Schult, P. J. Swart, "Exploring network
       structure, dynamics, and function using NetworkX", SciPy 2008.

    Examples
    --------
    >>> from isles.models.board import beginner_board
    >>> rg = build_graph(beginner_board())
    >>> len(rg.hexes), rg.graph.number_of_edges()
    (37, 114)
    """

    board: Board
    roads: frozenset[Edge]
    hexes: tuple[Hex, ...]
    index: Mapping[Hex, int]
    tail: npt.NDArray[np.int64] = field(repr=False)
    head: npt.NDArray[np.int64] = field(repr=False)
    arc_cards: npt.NDArray[np.int64] = field(repr=False)
    on_road: npt.NDArray[np.bool_] = field(repr=False)
    first_arc: npt.NDArray[np.int64] = field(repr=False)

    @functools.cached_property
    def graph(self) -> nx.DiGraph:
        """The NetworkX directed graph of the board (see the class docstring), built once."""
        import networkx as nx  # NetworkX loads only when a caller reads the graph

        g = nx.DiGraph()
        for h, tile in self.board.tiles.items():
            g.add_node(h, terrain=tile.terrain, number=tile.number)
        arc_kind, table = self._costs
        attributes = [
            {"cards": cards, "resource": resource, "halved": halved, "p_exit": p_exit}
            for cards, resource, halved, p_exit in table
        ]
        hexes = self.hexes
        g.add_edges_from(
            (hexes[u], hexes[v], attributes[k])
            for u, v, k in zip(self.tail.tolist(), self.head.tolist(), arc_kind, strict=True)
        )
        return g

    def packed_csr(self, objective: Literal["cards", "turns"]) -> tuple[int, csr_matrix]:
        """The CSR matrix of packed integer weights for an objective, and its packing base.

        Parameters
        ----------
        objective : "cards" or "turns"
            ``"cards"``: weight = cards * base + 1 with base = nodes + 1 > any
            move count; ``"turns"``: weight = base + cards with base = 12 *
            nodes + 1 > any card total. Either way a path's total weight
            unpacks exactly into its two keys.

        Returns
        -------
        base : int
            The packing base.
        matrix : scipy.sparse.csr_matrix
            float64 weights, exact while every total stays below 2**53.

        Notes
        -----
        Built once per graph and objective (cached).

        Examples
        --------
        >>> from isles.models.board import beginner_board
        >>> base, matrix = build_graph(beginner_board()).packed_csr("cards")
        >>> base, matrix.shape
        (38, (37, 37))
        """
        cache: dict[str, tuple[int, csr_matrix]] = self.__dict__.setdefault("_csr_cache", {})
        if objective not in cache:
            n = len(self.hexes)
            if objective == "cards":
                base, weight = n + 1, self.arc_cards * (n + 1) + 1
            else:
                base = 12 * n + 1
                weight = self.arc_cards + base
            matrix = csr_matrix((weight.astype(np.float64), (self.tail, self.head)), shape=(n, n))
            cache[objective] = (base, matrix)
        return cache[objective]

    # -- arcs, for the exact (Fraction) searches ---------------------------------------
    @functools.cached_property
    def _costs(self) -> tuple[list[int], list[tuple[int, Resource | None, bool, Fraction]]]:
        """Each arc's kind, and the cost of each kind: (cards, resource, halved, p_exit).

        An arc's cost depends only on its head's tile, whether it crosses an own
        road and whether it leaves a desert: the rules run once per kind.
        """
        tiles = list(self.board.tiles.values())
        tile_ids: dict[Tile, int] = {}
        code = np.fromiter(
            (tile_ids.setdefault(t, len(tile_ids)) for t in tiles), dtype=np.int64, count=len(tiles)
        )
        desert = np.fromiter(
            (t.terrain is Terrain.DESERT for t in tiles), dtype=np.bool_, count=len(tiles)
        )
        kind = (code[self.head] * 2 + self.on_road) * 2 + desert[self.tail]
        kinds, arc_kind = np.unique(kind, return_inverse=True)
        by_id = list(tile_ids)
        table = [_arc_cost(by_id[k // 4], bool(k // 2 % 2), bool(k % 2)) for k in kinds.tolist()]
        return arc_kind.reshape(-1).tolist(), table

    def arc(self, a: int) -> Arc:
        """Arc number ``a`` (one at a time: the bulk table is for searches that read all)."""
        tail, head, on_road = int(self.tail[a]), int(self.head[a]), bool(self.on_road[a])
        tile_v = self.board.tiles[self.hexes[head]]
        leaving_desert = self.board.tiles[self.hexes[tail]].terrain is Terrain.DESERT
        return Arc(tail, head, *_arc_cost(tile_v, on_road, leaving_desert))

    def arcs_from(self, u: int) -> list[Arc]:
        """The arcs leaving hex ``u``, in neighbour direction order."""
        arc_kind, table = self._costs
        lo, hi = int(self.first_arc[u]), int(self.first_arc[u + 1])
        heads = self.head[lo:hi].tolist()
        return [Arc(u, v, *table[k]) for v, k in zip(heads, arc_kind[lo:hi], strict=True)]

    def arcs_into(self, v: int) -> list[Arc]:
        """The arcs entering hex ``v``, by tail in board order."""
        first, order = self._reverse
        return [self.arc(a) for a in order[first[v] : first[v + 1]].tolist()]

    @functools.cached_property
    def _reverse(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """Arcs by head: those entering ``v`` are ``order[first[v]:first[v + 1]]``."""
        order = np.argsort(self.head, kind="stable").astype(np.int64)
        counts = np.bincount(self.head, minlength=len(self.hexes))
        first = np.zeros(len(self.hexes) + 1, dtype=np.int64)
        np.cumsum(counts, out=first[1:])
        return first, order

    def arc_between(self, u: int, v: int) -> Arc:
        """The arc ``u -> v`` (hex indices), which must exist."""
        lo, hi = int(self.first_arc[u]), int(self.first_arc[u + 1])
        (found,) = np.flatnonzero(self.head[lo:hi] == v)
        return self.arc(lo + int(found))


_CERTAIN = Fraction(1)


@functools.cache
def _arc_cost(
    tile_v: Tile, on_road: bool, leaving_desert: bool
) -> tuple[int, Resource | None, bool, Fraction]:
    """What a move into ``tile_v`` costs: (cards, resource, halved, p_exit), from the rules."""
    entry = entry_cost(tile_v, on_road)
    p_exit = desert_exit_probability(tile_v) if leaving_desert else _CERTAIN
    return entry.cards, entry.resource, entry.halved, p_exit


def _read_roads(board: Board, roads: Iterable[Road]) -> frozenset[Edge]:
    """Check the mover's roads (``roads[i]`` in messages): edges of the board."""
    road_set: set[Edge] = set()
    for i, road in enumerate(roads):
        where = f"roads[{i}]"
        if not (isinstance(road, tuple | list) and len(road) == 2):
            raise InvalidInput(where, road, "an edge: a pair of adjacent hexes")
        a, b = as_hex(road[0], where), as_hex(road[1], where)
        if distance(a, b) != 1:
            raise InvalidInput(where, f"{a}:{b}", "an edge: a pair of adjacent hexes")
        e = edge(a, b)
        for h in e:
            if h not in board:
                raise InvalidInput(where, str(e), "an edge between two hexes on the board")
        if not any(board.tiles[h].terrain.is_land for h in e):
            raise InvalidInput(where, str(e), "a side touching land (not between two seas)")
        if e in road_set:
            raise InvalidInput(where, str(e), "each road once")
        road_set.add(e)
    return frozenset(road_set)


def build_graph(board: Board, roads: Iterable[Road] = ()) -> RallyGraph:
    """Build the rally graph of ``board`` for a player owning ``roads``.

    Parameters
    ----------
    board : Board
        Any board; sea hexes are nodes (cars start there) but never arc heads.
    roads : iterable of Edge or pairs of hexes
        The mover's own roads; crossing one halves the entry cost (rounded up).

    Returns
    -------
    RallyGraph

    Raises
    ------
    InvalidInput
        Naming ``roads[i]``: a road that is not a pair of hexes, whose hexes
        are not adjacent, or not both on the board.

    Notes
    -----
    Linear in the board's size and done in bulk with NumPy: each hex's six
    neighbours are found among the board's hexes by one sorted search over
    integer keys of their axial coordinates (board order is the keys'
    order); the arc costs come from :func:`isles.models.rally.rules.entry_cost`,
    once per kind of tile.

    Examples
    --------
    >>> from isles.models.board import beginner_board
    >>> rg = build_graph(beginner_board())
    >>> rg.graph.number_of_nodes(), rg.graph[Hex(0, -3)][Hex(0, -2)]["cards"]
    (37, 10)
    """
    road_set = _read_roads(board, roads)
    tiles = board.tiles
    hexes = tuple(tiles)
    n = len(hexes)
    index = {h: i for i, h in enumerate(hexes)}
    q = np.fromiter((h[0] for h in hexes), dtype=np.int64, count=n)
    r = np.fromiter((h[1] for h in hexes), dtype=np.int64, count=n)
    # Cards to enter each hex, at full price and across an own road; -1: never (sea).
    kinds = set(tiles.values())
    prices = {t: entry_cost(t).cards if t.terrain.is_land else -1 for t in kinds}
    road_prices = {
        t: entry_cost(t, own_road=True).cards if t.terrain.is_land else -1 for t in kinds
    }
    price = np.fromiter((prices[t] for t in tiles.values()), dtype=np.int64, count=n)
    road_price = np.fromiter((road_prices[t] for t in tiles.values()), dtype=np.int64, count=n)
    # Key of (q, r): rows of width w, with a spare column and row on every side so that
    # each neighbour of a board hex has its own key. Board order (r, then q) sorts the keys.
    q_low, r_low = q.min(initial=0), r.min(initial=0)
    w = int(q.max(initial=0) - q_low) + 3
    key = (r - r_low + 1) * w + (q - q_low + 1)
    steps = np.array([dr * w + dq for dq, dr in DIRECTIONS], dtype=np.int64)
    wanted = key[:, None] + steps[None, :]  # (n, 6): the keys of every hex's neighbours
    where = np.minimum(np.searchsorted(key, wanted), n - 1)
    valid = (key[where] == wanted) & (price[where] >= 0)  # arcs lead into land only
    road_all = np.zeros((n, 6), dtype=np.bool_)
    for e in road_set:
        d = DIRECTIONS.index(Hex(e.b.q - e.a.q, e.b.r - e.a.r))
        road_all[index[e.a], d] = road_all[index[e.b], (d + 3) % 6] = True
    tail = np.repeat(np.arange(n, dtype=np.int64), 6).reshape(n, 6)[valid]
    head = where[valid].astype(np.int64)
    on_road = road_all[valid]
    cards = np.where(on_road, road_price[head], price[head])
    first = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(valid.sum(axis=1), out=first[1:])
    return RallyGraph(
        board=board,
        roads=road_set,
        hexes=hexes,
        index=index,
        tail=tail,
        head=head,
        arc_cards=cards,
        on_road=on_road,
        first_arc=first,
    )
