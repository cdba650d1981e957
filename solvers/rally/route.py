"""Cheapest car routes for the Catan car rally: cards, turns, expected turns, budgets.

Implements docs/rally.md ("What the planner minimises", "Answers") on the rules of
seeds/002_8684547a41c0941c.txt as :mod:`isles.models.rally.rules` reads them: a
NetworkX directed hex graph, whose integer objectives run on its SciPy CSR form.

References
----------
.. [1] E. W. Dijkstra, "A note on two problems in connexion with graphs",
   Numerische Mathematik 1, 269-271, 1959.
.. [2] P. E. Hart, N. J. Nilsson, B. Raphael, "A formal basis for the heuristic
   determination of minimum cost paths", IEEE Transactions on Systems Science
   and Cybernetics 4(2), 100-107, 1968 (A*).
.. [3] S. Irnich, G. Desaulniers, "Shortest path problems with resource
   constraints", in Column Generation, Springer, 33-65, 2005 (label setting
   over Pareto labels).
.. [4] P. Virtanen et al., "SciPy 1.0: fundamental algorithms for scientific
   computing in Python", Nature Methods 17, 261-272, 2020
   (``scipy.sparse.csgraph``).
.. [5] A. A. Hagberg, D. A. Schult, P. J. Swart, "Exploring network structure,
   dynamics, and function using NetworkX", SciPy 2008.
"""

from __future__ import annotations

import dataclasses
import functools
import heapq
import itertools
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

import numpy as np
import numpy.typing as npt
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

from isles.models.catan import Board, Resource, Terrain, Tile
from isles.models.errors import InvalidInput, expect
from isles.models.hexgrid import DIRECTIONS, Edge, Hex, as_hex, distance, edge
from isles.models.jsonio import edge_json, exact_text, float_or_none, hex_json, probability_json
from isles.models.rally.questions import Trip
from isles.models.rally.rules import (
    GROUP_SIZE,
    OBJECTIVES,
    Objective,
    Rim,
    card_values,
    default_goals,
    desert_exit_probability,
    entry_cost,
    is_rim_start,
    no_default_goals,
    player_roads,
    start_group,
)
from isles.models.status import Status

if TYPE_CHECKING:
    import networkx as nx

__all__ = [
    "OBJECTIVES",
    "CostField",
    "GroupPlan",
    "Objective",
    "RallyGraph",
    "Route",
    "StartChoice",
    "Step",
    "build_graph",
    "choose_start",
    "cost_field",
    "plan_route",
]

ANY = "any"  # key of gold cards, payable in any single resource


class _Arc(NamedTuple):
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

    Build with :func:`build_graph`; pass it to :func:`plan_route` or
    :func:`cost_field` to plan many routes on one board without rebuilding.

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

    Notes
    -----
    The planner reads the arc arrays only: arcs in board order of their tail,
    then in neighbour direction order (docs/boards.md, "Coordinates"), which
    is also the order of the NetworkX graph's arcs. The arrays are built from
    the board in bulk (axial coordinates to indices by one sorted search), as
    SciPy's csgraph works [4]_: model to arrays at the boundary, bulk
    computation, results back once. NetworkX [5]_ costs most of the build on
    big boards, so it is made only when something reads :attr:`graph`.

    References
    ----------
    .. [4] P. Virtanen et al., "SciPy 1.0: fundamental algorithms for
       scientific computing in Python", Nature Methods 17, 261-272, 2020.
    .. [5] A. A. Hagberg, D. A. Schult, P. J. Swart, "Exploring network
       structure, dynamics, and function using NetworkX", SciPy 2008.

    Examples
    --------
    >>> from isles.models.catan import beginner_board
    >>> rg = build_graph(beginner_board())
    >>> len(rg.hexes), rg.graph.number_of_edges()
    (37, 114)
    """

    board: Board
    roads: frozenset[Edge]
    hexes: tuple[Hex, ...]
    index: Mapping[Hex, int]
    _tail: npt.NDArray[np.int64] = field(repr=False)
    _head: npt.NDArray[np.int64] = field(repr=False)
    _cards: npt.NDArray[np.int64] = field(repr=False)
    _on_road: npt.NDArray[np.bool_] = field(repr=False)  # the arc crosses an own road
    # Arcs leaving hex i: positions _first[i] to _first[i + 1] - 1 of the arrays above.
    _first: npt.NDArray[np.int64] = field(repr=False)

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
            for u, v, k in zip(self._tail.tolist(), self._head.tolist(), arc_kind, strict=True)
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
        >>> from isles.models.catan import beginner_board
        >>> base, matrix = build_graph(beginner_board()).packed_csr("cards")
        >>> base, matrix.shape
        (38, (37, 37))
        """
        cache: dict[str, tuple[int, csr_matrix]] = self.__dict__.setdefault("_csr_cache", {})
        if objective not in cache:
            n = len(self.hexes)
            if objective == "cards":
                base, weight = n + 1, self._cards * (n + 1) + 1
            else:
                base = 12 * n + 1
                weight = self._cards + base
            matrix = csr_matrix((weight.astype(np.float64), (self._tail, self._head)), shape=(n, n))
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
        kind = (code[self._head] * 2 + self._on_road) * 2 + desert[self._tail]
        kinds, arc_kind = np.unique(kind, return_inverse=True)
        by_id = list(tile_ids)
        table = [_arc_cost(by_id[k // 4], bool(k // 2 % 2), bool(k % 2)) for k in kinds.tolist()]
        return arc_kind.reshape(-1).tolist(), table

    def _arc(self, a: int) -> _Arc:
        """Arc number ``a`` (one at a time: the bulk table is for searches that read all)."""
        tail, head, on_road = int(self._tail[a]), int(self._head[a]), bool(self._on_road[a])
        tile_v = self.board.tiles[self.hexes[head]]
        leaving_desert = self.board.tiles[self.hexes[tail]].terrain is Terrain.DESERT
        return _Arc(tail, head, *_arc_cost(tile_v, on_road, leaving_desert))

    def _arcs_from(self, u: int) -> list[_Arc]:
        """The arcs leaving hex ``u``, in neighbour direction order."""
        arc_kind, table = self._costs
        lo, hi = int(self._first[u]), int(self._first[u + 1])
        heads = self._head[lo:hi].tolist()
        return [_Arc(u, v, *table[k]) for v, k in zip(heads, arc_kind[lo:hi], strict=True)]

    def _arcs_into(self, v: int) -> list[_Arc]:
        """The arcs entering hex ``v``, by tail in board order."""
        first, order = self._reverse
        return [self._arc(a) for a in order[first[v] : first[v + 1]].tolist()]

    @functools.cached_property
    def _reverse(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """Arcs by head: those entering ``v`` are ``order[first[v]:first[v + 1]]``."""
        order = np.argsort(self._head, kind="stable").astype(np.int64)
        counts = np.bincount(self._head, minlength=len(self.hexes))
        first = np.zeros(len(self.hexes) + 1, dtype=np.int64)
        np.cumsum(counts, out=first[1:])
        return first, order

    def _arc_between(self, u: int, v: int) -> _Arc:
        """The arc ``u -> v`` (hex indices), which must exist."""
        lo, hi = int(self._first[u]), int(self._first[u + 1])
        (found,) = np.flatnonzero(self._head[lo:hi] == v)
        return self._arc(lo + int(found))


_CERTAIN = Fraction(1)


@functools.cache
def _arc_cost(
    tile_v: Tile, on_road: bool, leaving_desert: bool
) -> tuple[int, Resource | None, bool, Fraction]:
    """What a move into ``tile_v`` costs: (cards, resource, halved, p_exit), from the rules."""
    entry = entry_cost(tile_v, on_road)
    p_exit = desert_exit_probability(tile_v) if leaving_desert else _CERTAIN
    return entry.cards, entry.resource, entry.halved, p_exit


def _read_roads(board: Board, roads: Iterable[Edge | tuple[Any, Any]]) -> frozenset[Edge]:
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


def build_graph(board: Board, roads: Iterable[Edge | tuple[Any, Any]] = ()) -> RallyGraph:
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
    >>> from isles.models.catan import beginner_board
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
        _tail=tail,
        _head=head,
        _cards=cards,
        _on_road=on_road,
        _first=first,
    )


@dataclass(frozen=True)
class CostField:
    """Cheapest costs from one start hex to every hex (an integer objective).

    The answer of :func:`cost_field`; always exact (``status`` optimal).

    Attributes
    ----------
    objective : "cards" or "turns"
        ``"cards"`` orders routes by (cards, moves), ``"turns"`` by (moves, cards).
    start : Hex
    hexes : tuple of Hex
        The board's hexes, in board order.
    cards, moves : numpy.ndarray of int64
        The totals of the best route to ``hexes[i]``; -1 where unreachable.
    predecessor : numpy.ndarray of int64
        The index of the previous hex on that route; -1 at the start and
        where unreachable.

    Notes
    -----
    Exact: the two keys are packed into one integer weight below 2**53, so
    float64 sums are exact (see :meth:`RallyGraph.packed_csr`).

    Examples
    --------
    >>> from isles.models.catan import beginner_board
    >>> f = cost_field(build_graph(beginner_board()), Hex(0, -3))
    >>> f.status, f.cost((0, 0)), f.cost((1, -3))
    (<Status.OPTIMAL: 'optimal'>, (16, 3), None)
    """

    objective: Literal["cards", "turns"]
    start: Hex
    hexes: tuple[Hex, ...]
    cards: npt.NDArray[np.int64]
    moves: npt.NDArray[np.int64]
    predecessor: npt.NDArray[np.int64]

    @property
    def status(self) -> Status:
        """Always :attr:`Status.OPTIMAL`: every reachable hex has its proven best cost."""
        return Status.OPTIMAL

    def cost(self, h: tuple[int, int]) -> tuple[int, int] | None:
        """The cost of the best route to hex ``h``.

        Parameters
        ----------
        h : (q, r)
            A hex on the board.

        Returns
        -------
        (cards, moves) or None
            None where ``h`` cannot be reached.

        Raises
        ------
        InvalidInput
            If ``h`` is not on the board.

        Examples
        --------
        >>> from isles.models.catan import beginner_board
        >>> cost_field(beginner_board(), (0, -3), "turns").cost((0, 2))
        (31, 5)
        """
        i = self._position(h)
        if self.moves[i] < 0:
            return None
        return int(self.cards[i]), int(self.moves[i])

    def path_to(self, target: int) -> list[int]:
        """Indices of the hexes on the best route to ``hexes[target]``, start first.

        Parameters
        ----------
        target : int
            An index into ``hexes``.

        Returns
        -------
        list of int
            Empty when the target is unreachable; ``[start]`` for the start.

        Examples
        --------
        >>> from isles.models.catan import beginner_board
        >>> f = cost_field(build_graph(beginner_board()), Hex(0, -3))
        >>> [str(f.hexes[i]) for i in f.path_to(f.hexes.index(Hex(0, 0)))]
        ['0,-3', '0,-2', '0,-1', '0,0']
        """
        if self.moves[target] < 0:
            return []
        out = [target]
        while self.predecessor[out[-1]] >= 0:
            out.append(int(self.predecessor[out[-1]]))
        return out[::-1]

    def _position(self, h: tuple[int, int]) -> int:
        try:
            return self.hexes.index(Hex(*h))
        except ValueError:
            raise InvalidInput("hex", str(Hex(*h)), "a hex on the board") from None

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data (docs/rally.md, "Answers"): one entry per hex, in board order.

        Returns
        -------
        dict
            ``status`` (always ``"optimal"``), ``objective``, ``start`` and
            ``hexes``: one ``{"hex", "cards", "moves", "previous"}`` per hex,
            ``previous`` being the hex before it on the best route. ``cards``,
            ``moves`` and ``previous`` are None where the hex cannot be
            reached, and ``previous`` at the start.

        Examples
        --------
        >>> from isles.models.catan import beginner_board
        >>> d = cost_field(build_graph(beginner_board()), Hex(0, -3)).to_dict()
        >>> d["status"], d["start"], d["hexes"][0]
        ('optimal', [0, -3], {'hex': [0, -3], 'cards': 0, 'moves': 0, 'previous': None})
        """
        entries = []
        for i, h in enumerate(self.hexes):
            reached = bool(self.moves[i] >= 0)
            before = int(self.predecessor[i])
            entries.append(
                {
                    "hex": hex_json(h),
                    "cards": int(self.cards[i]) if reached else None,
                    "moves": int(self.moves[i]) if reached else None,
                    "previous": hex_json(self.hexes[before]) if before >= 0 else None,
                }
            )
        return {
            "status": self.status.value,
            "objective": self.objective,
            "start": hex_json(self.start),
            "hexes": entries,
        }


def cost_field(
    rg: RallyGraph | Board, start: tuple[int, int], objective: Literal["cards", "turns"] = "cards"
) -> CostField:
    """Cheapest routes from ``start`` to every hex, by ``scipy.sparse.csgraph.dijkstra``.

    Parameters
    ----------
    rg : RallyGraph or Board
        The graph (:func:`build_graph`); a board is built without roads.
    start : (q, r)
        Any hex on the board.
    objective : "cards" or "turns", default "cards"
        Integer objectives only (see :class:`CostField`).

    Returns
    -------
    CostField

    Raises
    ------
    InvalidInput
        If ``start`` is not on the board, or the objective is neither.

    Notes
    -----
    The planner's fast core: one Dijkstra [1]_ over the CSR form, with the two
    keys packed into one exact integer weight. Ties on both keys keep SciPy's
    choice of predecessor.

    References
    ----------
    .. [1] E. W. Dijkstra, "A note on two problems in connexion with graphs",
       Numerische Mathematik 1, 269-271, 1959.

    Examples
    --------
    >>> from isles.models.catan import beginner_board
    >>> f = cost_field(beginner_board(), (0, -3))
    >>> f.cost((0, 0))  # 10 ore, 6 brick, then the free desert: 16 cards in 3 moves
    (16, 3)
    """

    expect(rg, (Board, RallyGraph), "rg", "a Board or a RallyGraph")
    if isinstance(rg, Board):
        rg = build_graph(rg)
    start_h = as_hex(start, "start")
    if start_h not in rg.index:
        raise InvalidInput("start", str(start_h), "a hex on the board")
    if objective not in ("cards", "turns"):
        raise InvalidInput("objective", objective, "cards or turns")
    big, matrix = rg.packed_csr(objective)
    dist, pred = dijkstra(
        matrix, directed=True, indices=rg.index[start_h], return_predecessors=True
    )
    reach = np.isfinite(dist)
    packed = np.where(reach, dist, 0).astype(np.int64)
    hi, lo = np.divmod(packed, big)
    cards, moves = (hi, lo) if objective == "cards" else (lo, hi)
    cards = np.where(reach, cards, -1)
    moves = np.where(reach, moves, -1)
    pred = np.where(pred < 0, -1, pred).astype(np.int64)
    return CostField(objective, start_h, rg.hexes, cards, moves, pred)


@dataclass(frozen=True)
class Step:
    """One move of a route: entering ``hex``.

    Attributes
    ----------
    hex : Hex
    terrain : Terrain
    number : int or None
        The hex's number token.
    resource : Resource or None
        The card type paid: None for a desert, or for gold when the choice is
        left to the player (JSON ``"any"``).
    cards : int
        How many cards.
    halved : bool
        Whether an own road halved the cost.
    exit_probability : Fraction or None
        The chance one try succeeds when this move leaves a desert by a roll;
        None otherwise.
    expected_turns : Fraction
        The expected number of turns this move takes (``1 / exit_probability``, or 1).

    Examples
    --------
    >>> from isles.models.catan import beginner_board
    >>> route = plan_route(beginner_board(), (0, 0), goals=[(1, 0)])  # from the desert
    >>> route.steps[0].to_dict()["exit_probability_exact"]
    '1/12'
    """

    hex: Hex
    terrain: Terrain
    number: int | None
    resource: Resource | None
    cards: int
    halved: bool
    exit_probability: Fraction | None
    expected_turns: Fraction

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data (docs/rally.md, "Answers").

        Returns
        -------
        dict
            ``hex`` ``[q, r]``, ``terrain``, ``number``, ``resource`` (``"any"``
            for gold left to the player), ``cards``, ``halved``, and the odds
            and expected turns each as a float with its exact ``"p/q"`` beside
            it (``exit_probability`` None when no roll is needed).

        Examples
        --------
        >>> from isles.models.catan import beginner_board
        >>> plan_route(beginner_board(), (0, -3), goals=[(0, -2)]).steps[0].to_dict()
        ... # doctest: +NORMALIZE_WHITESPACE
        {'hex': [0, -2], 'terrain': 'mountains', 'number': 10, 'resource': 'ore', 'cards': 10,
         'halved': False, 'exit_probability': None, 'exit_probability_exact': None,
         'expected_turns': 1.0, 'expected_turns_exact': '1/1'}
        """
        return {
            "hex": hex_json(self.hex),
            "terrain": self.terrain.value,
            "number": self.number,
            "resource": self.resource.value if self.resource else (ANY if self.cards else None),
            "cards": self.cards,
            "halved": self.halved,
            **probability_json("exit_probability", self.exit_probability),
            **probability_json("expected_turns", self.expected_turns),
        }


@dataclass(frozen=True)
class Route:
    """A planned car route, or the answer that none exists (docs/rally.md, "Answers").

    Attributes
    ----------
    status : Status
        ``optimal``: ``path`` ends on a goal and no route is better for the
        objective (proven: exact shortest path). ``unreachable``: no goal can
        be reached at any price; ``timed_out``: a budget search reached its
        time limit before proving an answer; in both, the route's values
        (``path``, ``steps``, ``cards``, ``total_cards``, ``turns``,
        ``expected_turns``, ``value``) are None. ``unaffordable``: with
        ``budget``, no goal is affordable; ``path`` and its values then
        describe the best affordable route to :attr:`end`, the affordable hex
        closest to a goal (hex distance :attr:`distance_to_goal`).
    objective : "cards" | "turns" | "expected_turns" | "weighted"
    start : Hex
    goals : tuple of Hex
        The goals planned for, given or default.
    path : tuple of Hex or None
        Start first; one hex per move.
    steps : tuple of Step or None
        One per move.
    cards : dict or None
        Cards per resource name (``"any"`` for gold paid in a resource of the
        player's choice), only resources actually paid.
    total_cards, turns : int or None
        Cards paid in all; moves (turns if every desert roll succeeds).
    expected_turns : Fraction or None
        Expected turns, each desert exit try counting one turn.
    value : Fraction or None
        The objective's value (cards, turns, expected turns, or weighted cards).
    budget : dict or None
        Cards the player could spend per resource, when planned with a budget.
    roads : tuple of Edge
        The mover's own roads, sorted.
    time_limit : float or None
        The budget search's time limit in seconds (None: none, or no budget).

    Examples
    --------
    >>> from isles.models.catan import beginner_board
    >>> route = plan_route(beginner_board(), (0, -3), budget={"ore": 10, "brick": 6})
    >>> route.status, route.end, route.distance_to_goal, route.total_cards
    (<Status.UNAFFORDABLE: 'unaffordable'>, Hex(q=0, r=0), 2, 16)
    """

    status: Status
    objective: Objective
    start: Hex
    goals: tuple[Hex, ...]
    path: tuple[Hex, ...] | None
    steps: tuple[Step, ...] | None
    cards: Mapping[str, int] | None
    total_cards: int | None
    turns: int | None
    expected_turns: Fraction | None
    value: Fraction | None
    budget: Mapping[str, int] | None = None
    roads: tuple[Edge, ...] = ()
    time_limit: float | None = None

    @property
    def reached(self) -> bool:
        """Whether the route reaches a goal (status optimal)."""
        return self.status is Status.OPTIMAL

    @property
    def end(self) -> Hex | None:
        """The last hex of ``path`` (a goal when reached), or None when there is no path."""
        return None if self.path is None else self.path[-1]

    @property
    def distance_to_goal(self) -> int | None:
        """Hex distance from :attr:`end` to the nearest goal (0 when reached), or None."""
        end = self.end
        return None if end is None else min(distance(end, g) for g in self.goals)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data, what ``isles rally --json`` prints (docs/rally.md, "Answers").

        Returns
        -------
        dict
            Keys ``status``, ``objective``, ``start``, ``goals``, ``roads``,
            ``budget``, ``time_limit``, ``end``, ``distance_to_goal``,
            ``path``, ``steps``, ``cards``, ``total_cards``, ``turns``,
            ``expected_turns`` and ``value`` (each with its exact ``"p/q"``
            beside it). Hexes are ``[q, r]``, roads ``[[q, r], [q, r]]``; the
            values of a route that does not exist are None (JSON null).

        Examples
        --------
        >>> from isles.models.catan import Board, Tile, Terrain
        >>> islands = Board({(0, 0): Tile(Terrain.FOREST, 3), (2, 0): Tile(Terrain.HILLS, 4)})
        >>> d = plan_route(islands, (0, 0), goals=[(2, 0)]).to_dict()
        >>> d["status"], d["path"], d["total_cards"], d["expected_turns"]
        ('unreachable', None, None, None)
        """
        return {
            "status": self.status.value,
            "objective": self.objective,
            "start": hex_json(self.start),
            "goals": [hex_json(g) for g in self.goals],
            "roads": [edge_json(e) for e in self.roads],
            "budget": dict(self.budget) if self.budget is not None else None,
            "time_limit": self.time_limit,
            "end": None if self.end is None else hex_json(self.end),
            "distance_to_goal": self.distance_to_goal,
            "path": None if self.path is None else [hex_json(h) for h in self.path],
            "steps": None if self.steps is None else [s.to_dict() for s in self.steps],
            "cards": None if self.cards is None else dict(self.cards),
            "total_cards": self.total_cards,
            "turns": self.turns,
            "expected_turns": float_or_none(self.expected_turns),
            "expected_turns_exact": exact_text(self.expected_turns),
            "value": float_or_none(self.value),
            "value_exact": exact_text(self.value),
        }


# -- the planner ---------------------------------------------------------------------


def plan_route(
    board: Board | RallyGraph,
    start: tuple[int, int],
    goals: Sequence[tuple[int, int]] | None = None,
    roads: Iterable[Edge | tuple[Any, Any]] = (),
    objective: Objective = "cards",
    values: Mapping[Any, float | int | Fraction] | None = None,
    budget: Mapping[Any, int] | None = None,
    group: Sequence[tuple[int, int]] | None = None,
    time_limit: float | None = None,
    player: str | None = None,
) -> Route:
    """Plan a car's best route from ``start`` to the nearest of ``goals``.

    Parameters
    ----------
    board : Board or RallyGraph
        The board (a prebuilt :class:`RallyGraph` skips the graph build; then
        ``roads`` must be empty, the graph's own roads apply).
    start : (q, r)
        The car's hex: a rim start at the beginning of the game (a sea hex on
        the board's rim next to land), or any hex of a car under way.
    goals : sequence of (q, r), optional
        Land hexes. Default (docs/rally.md, "Start groups and goals"): the
        land next to the rim starts opposite the start group
        (:func:`isles.models.rally.rules.default_goals` of ``group``, itself
        defaulting to :func:`isles.models.rally.rules.start_group` of a rim start).
        Required when ``start`` is not a rim start and no ``group`` is given.
    roads : iterable of edges
        The player's own roads (halve the cost of crossing them, rounded up).
    objective : "cards" | "turns" | "expected_turns" | "weighted"
        Routes are ordered by three keys, compared in turn:

        - ``cards``: cards, moves, expected turns;
        - ``turns``: moves, cards, expected turns;
        - ``expected_turns``: expected turns (each desert exit try is a turn;
          a roll of ``<= n`` succeeds), cards, moves;
        - ``weighted``: total card value (``values``; gold paid in the least
          valued resource), moves, expected turns.
    values : mapping resource -> number, optional
        Card values in ``0..MAX_CARD_VALUE`` for ``weighted`` only (default 1
        each; floats are read exactly from their decimal text); see
        :func:`isles.models.rally.rules.card_values`.
    budget : mapping resource -> int, optional
        Cards the player can spend (hand plus fuel reserve) per resource: the
        best route payable now (see Notes). Gold may be paid from any one
        resource; the search tries each.
    group : sequence of (q, r), optional
        The start group (sea hexes) to take the default goals from, only
        without ``goals``; a sea ``start`` joins it.
    time_limit : float, optional
        Seconds allowed for a budget search (None: the declared default,
        :data:`isles.models.rally.questions.DEFAULT_TIME_LIMIT`, 60 s); past it
        the answer is ``timed_out``. Only with ``budget``: the searches
        without a budget always finish in near-linear time.
    player : str, optional
        A player named by the board: their roads on the board are their own
        (added to ``roads``).

    Returns
    -------
    Route
        Status ``optimal``, or ``unreachable`` / ``unaffordable`` /
        ``timed_out`` (see :class:`Route`).

    Raises
    ------
    InvalidInput
        Naming the parameter: an off-board or malformed start; a goal off the
        board or on the sea; no goals for a start that is not a rim start; an
        unknown objective or resource; ``values`` without ``weighted``, or a
        value that is not a number in ``0..MAX_CARD_VALUE``; a negative or
        fractional budget; a bad road or group; ``group`` with ``goals``; a
        time limit that is not a number of seconds > 0, or without ``budget``;
        a player the board does not name. The checks of the parameters alone
        are those of the declaration :class:`isles.models.questions.Trip`.

    See Also
    --------
    cost_field : the cheapest costs to every hex at once.

    Notes
    -----
    All answers are exact. ``cards`` and ``turns`` run Dijkstra [1]_ on the
    CSR form (SciPy csgraph [4]_, the first two keys packed into one exact
    integer weight), then pick the least expected turns among the tied
    shortest paths by dynamic programming over their DAG; the other
    objectives run Dijkstra over exact Fraction keys on the NetworkX graph
    [5]_. A budget turns the question into a resource-constrained shortest
    path: a label-setting search [3]_ over Pareto labels (keys, cards spent
    per resource), ordered as in A* [2]_ by exact lower bounds (a backward
    Dijkstra from the goals). Ties on all three keys go to the hex earliest
    in board order, so the same query always returns the same route.

    References
    ----------
    .. [1] E. W. Dijkstra, "A note on two problems in connexion with graphs",
       Numerische Mathematik 1, 269-271, 1959.
    .. [2] P. E. Hart, N. J. Nilsson, B. Raphael, "A formal basis for the
       heuristic determination of minimum cost paths", IEEE Transactions on
       Systems Science and Cybernetics 4(2), 100-107, 1968.
    .. [3] S. Irnich, G. Desaulniers, "Shortest path problems with resource
       constraints", in Column Generation, Springer, 33-65, 2005.
    .. [4] P. Virtanen et al., "SciPy 1.0: fundamental algorithms for
       scientific computing in Python", Nature Methods 17, 261-272, 2020.
    .. [5] A. A. Hagberg, D. A. Schult, P. J. Swart, "Exploring network
       structure, dynamics, and function using NetworkX", SciPy 2008.

    Examples
    --------
    >>> from isles.models.catan import beginner_board
    >>> r = plan_route(beginner_board(), (0, -3), goals=[(0, 0)])
    >>> str(r.status), [str(h) for h in r.path], r.total_cards
    ('optimal', ['0,-3', '0,-2', '0,-1', '0,0'], 16)
    >>> plan_route(beginner_board(), (1, -1))
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: goals: required: the car's start is not a rim start, ...
    """
    # The parameters, as given, are the question's fields (isles.models.questions.Trip).
    return plan_trip(Trip.ask(**locals()))


def plan_trip(trip: Trip, *, progress: bool | None = None) -> Route:
    """The route a validated :class:`Trip` with a start asks for (:func:`plan_route`).

    Parameters
    ----------
    trip : Trip
        The question, read by :meth:`Trip.read`.
    progress : bool or None
        A tqdm bar on stderr while a budget search runs (seconds against its
        time limit): True shows it, False never, None (the default) on a
        terminal once the search has taken :data:`PROGRESS_DELAY` seconds.

    Returns
    -------
    Route

    Raises
    ------
    InvalidInput
        As :func:`plan_route`.

    Examples
    --------
    >>> from isles.models.catan import beginner_board
    >>> plan_trip(Trip.read({"board": beginner_board(), "start": (0, -3)})).total_cards
    24
    """
    if trip.start is None:
        raise InvalidInput("start", None, "the car's hex", problem="missing")
    rg = _graph_of(trip.board, _trip_roads(trip))
    start_h = trip.start
    if start_h not in rg.index:
        raise InvalidInput("start", str(start_h), "a hex on the board")
    goal_list = _goal_list(rg, start_h, trip.goals, trip.group)
    weights = trip.values if trip.values is not None else card_values(None)
    limit = trip.time_limit if trip.budget is not None else None
    return _plan(
        rg, start_h, goal_list, trip.objective, weights, trip.budget, limit, progress=progress
    )


def _trip_roads(trip: Trip) -> list[Edge]:
    """The trip's roads, the player's own on the board added."""
    roads = list(trip.roads)
    if trip.player is not None:
        board = trip.board
        named = board.board if isinstance(board, RallyGraph) else board
        roads += [e for e in player_roads(named, trip.player) if e not in roads]
    return roads


def _graph_of(board: Board | RallyGraph, roads: Iterable[Edge | tuple[Any, Any]]) -> RallyGraph:
    """The graph to plan on: a prebuilt one (then no roads), or the board's."""
    if isinstance(board, RallyGraph):
        if list(roads):
            raise InvalidInput(
                "roads", "given with a prebuilt graph", "roads passed to build_graph"
            )
        return board
    return build_graph(board, roads)


def _plan(
    rg: RallyGraph,
    start: Hex,
    goals: list[Hex],
    objective: Objective,
    weights: Mapping[Resource, Fraction],
    budget: Mapping[Resource, int] | None,
    time_limit: float | None,
    field: CostField | None = None,
    progress: bool | None = False,
) -> Route:
    """The one dispatch of every planner: each objective to its core."""
    if budget is not None:
        route = _plan_with_budget(
            rg, start, goals, objective, weights, budget, time_limit, progress
        )
        return dataclasses.replace(route, time_limit=time_limit)
    if objective == "cards" or objective == "turns":
        return _plan_on_csr(rg, start, goals, objective, weights, field)
    return _plan_exact_dijkstra(rg, start, goals, objective, weights)


def _goal_list(
    rg: RallyGraph,
    start: Hex,
    goals: Sequence[tuple[int, int]] | None,
    group: Sequence[tuple[int, int]] | None,
) -> list[Hex]:
    if goals is not None and group is not None:
        raise InvalidInput(
            "group",
            [str(as_hex(h, f"group[{i}]")) for i, h in enumerate(group)],
            "a start group only without goals (it only chooses the default goals)",
        )
    if goals is None:
        if group is not None:
            members = [as_hex(h, f"group[{i}]") for i, h in enumerate(group)]
            for i, h in enumerate(members):
                if h not in rg.index or rg.board.terrain(h).is_land:
                    raise InvalidInput(f"group[{i}]", str(h), "a sea hex on the board (a start)")
            if not members:
                raise InvalidInput("group", [], "at least one sea hex")
            # A car still on the sea stands in its group; one under way does not.
            if start not in members and not rg.board.terrain(start).is_land:
                members.insert(0, start)
        elif is_rim_start(rg.board, start):
            members = start_group(rg.board, start)
        else:
            raise no_default_goals(group=True)
        return default_goals(rg.board, members)
    out: list[Hex] = []
    for i, g in enumerate(goals):
        h = as_hex(g, f"goals[{i}]")
        if h not in rg.index:
            raise InvalidInput(f"goals[{i}]", str(h), "a hex on the board")
        if not rg.board.terrain(h).is_land:
            raise InvalidInput(f"goals[{i}]", str(h), "a land hex (cars never enter the sea)")
        if h not in out:
            out.append(h)
    if not out:
        raise InvalidInput("goals", [], "at least one goal hex")
    return out


# -- the best start ------------------------------------------------------------------


@dataclass(frozen=True)
class GroupPlan:
    """One start group and the route of its best car (an entry of :class:`StartChoice`).

    Attributes
    ----------
    group : tuple of Hex
        The group's sea hexes, one car each (docs/rally.md, "Start groups and goals").
    route : Route
        The best of the cars' routes to the group's default goals (``route.start``
        is that car's hex, ``route.goals`` the goals); its status says whether it
        reaches a goal.

    Examples
    --------
    >>> from isles.models.catan import beginner_board
    >>> plan = choose_start(beginner_board()).groups[0]
    >>> [str(h) for h in plan.group], str(plan.route.start), plan.route.total_cards
    (['3,0', '3,-1', '3,-2', '3,-3'], '3,0', 19)
    """

    group: tuple[Hex, ...]
    route: Route

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data: ``group`` (hexes ``[q, r]``) and ``route`` (:meth:`Route.to_dict`).

        Returns
        -------
        dict

        Examples
        --------
        >>> from isles.models.catan import beginner_board
        >>> d = choose_start(beginner_board()).groups[0].to_dict()
        >>> d["group"], d["route"]["start"], d["route"]["goals"]
        ([[3, 0], [3, -1], [3, -2], [3, -3]], [3, 0], [[-2, 0], [-2, 1], [-2, 2]])
        """
        return {"group": [hex_json(h) for h in self.group], "route": self.route.to_dict()}


@dataclass(frozen=True)
class StartChoice:
    """The best start on a board: each start group's best car, and the best of all.

    The answer of :func:`choose_start` (docs/rally.md, "The best start").

    Attributes
    ----------
    status : Status
        ``optimal``: :attr:`route` reaches its goals and no car of any group
        does better for the objective (proven: each route is exact).
        ``unaffordable``: with a budget, no car can afford its goals;
        :attr:`route` is the affordable route closest to its goals.
        ``unreachable``: no car can reach its goals at any price;
        ``timed_out``: the time limit ended the search; :attr:`best` is then None.
    objective : "cards" | "turns" | "expected_turns" | "weighted"
    groups : tuple of GroupPlan
        One per start group, in rim order (or the one group given).
    best : int or None
        The index in :attr:`groups` of the best group.
    time_limit : float or None
        The seconds the search was allowed (None: no limit).

    Examples
    --------
    >>> from isles.models.catan import beginner_board
    >>> choice = choose_start(beginner_board())
    >>> str(choice.status), len(choice.groups), str(choice.route.start), choice.route.total_cards
    ('optimal', 18, '2,-3', 14)
    """

    status: Status
    objective: Objective
    groups: tuple[GroupPlan, ...]
    best: int | None
    time_limit: float | None = None

    @property
    def route(self) -> Route | None:
        """The best group's route, or None (see :attr:`status`)."""
        return None if self.best is None else self.groups[self.best].route

    @property
    def group(self) -> tuple[Hex, ...] | None:
        """The best group's hexes, or None."""
        return None if self.best is None else self.groups[self.best].group

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data, what ``isles rally --json`` prints without ``--start``.

        Returns
        -------
        dict
            ``status``, ``objective``, ``time_limit``, ``best`` (an index into
            ``groups``, or null) and ``groups``: one :meth:`GroupPlan.to_dict`
            per group. The best route is ``groups[best].route``.

        Examples
        --------
        >>> from isles.models.catan import beginner_board
        >>> d = choose_start(beginner_board()).to_dict()
        >>> d["status"], d["best"], d["groups"][d["best"]]["route"]["total_cards"]
        ('optimal', 4, 14)
        """
        return {
            "status": self.status.value,
            "objective": self.objective,
            "time_limit": self.time_limit,
            "best": self.best,
            "groups": [g.to_dict() for g in self.groups],
        }


def _route_rank(route: Route) -> tuple[Any, ...] | None:
    """How good a route is, smaller first, for :func:`choose_start`: reaching a goal
    first, then (unaffordable routes) the distance left to a goal, then the three
    keys of the objective (as :func:`plan_route` orders routes); None: no route."""
    if route.path is None:
        return None
    assert route.total_cards is not None and route.expected_turns is not None
    assert route.value is not None and route.turns is not None
    cards, turns, expected = route.total_cards, route.turns, route.expected_turns
    keys = {
        "cards": (cards, turns, expected),
        "turns": (turns, cards, expected),
        "expected_turns": (expected, cards, turns),
        "weighted": (route.value, turns, expected),
    }[route.objective]
    return (0 if route.reached else route.distance_to_goal, *keys)


def choose_start(
    board: Board | RallyGraph,
    roads: Iterable[Edge | tuple[Any, Any]] = (),
    objective: Objective = "cards",
    values: Mapping[Any, float | int | Fraction] | None = None,
    budget: Mapping[Any, int] | None = None,
    group: Sequence[tuple[int, int]] | None = None,
    time_limit: float | None = None,
    progress: bool = False,
    player: str | None = None,
) -> StartChoice:
    """The best start of a car: every start group of the board, its best car, the best of all.

    Before the race each player puts a car on one of the four adjacent rim
    sea hexes of the start group (seed 002, "MISE EN PLACE"). For each start
    group of the board (:func:`isles.models.rally.rules.start_groups`: one per rim
    start, in rim order), or only for ``group``, this plans the route of the
    car on each of its hexes to the group's default goals
    (:func:`isles.models.rally.rules.default_goals`) and keeps the best car; the
    answer's :attr:`StartChoice.route` is the best of all groups.

    Parameters
    ----------
    board : Board or RallyGraph
        The board (a base or 5-6 player board in its sea frame, or any board
        with sea on its rim next to land).
    roads, objective, values, budget
        As for :func:`plan_route`; routes are compared by the objective's
        three keys, a route that reaches a goal before one that does not.
    group : sequence of (q, r), optional
        One start group (sea hexes of the board) instead of all of them:
        which of its hexes is the best start.
    time_limit : float, optional
        Seconds allowed for the whole search (None: the declared default,
        60 s); past it the answer is ``timed_out``.
    progress : bool, default False
        Show a tqdm progress bar over the groups on stderr.
    player : str, optional
        As for :func:`plan_route`.

    Returns
    -------
    StartChoice
        One :class:`GroupPlan` per group; ties go to the car and then the
        group earliest in rim order.

    Raises
    ------
    InvalidInput
        As :func:`plan_route`, and naming ``board`` when the board has no rim
        start (no sea hex on its rim next to land: nowhere to start) and no
        ``group`` is given; naming ``group[i]`` for a hex that is not a sea
        hex of the board.

    See Also
    --------
    plan_route : the best route of one car.

    Notes
    -----
    One :func:`plan_route` per car and group, exact as it is; on the integer
    objectives a car's cheapest costs (one Dijkstra [1]_) serve every group
    the car belongs to. A board of ``R`` rim starts costs about ``R``
    searches: well under a second on a base or 5-6 player board.

    References
    ----------
    .. [1] E. W. Dijkstra, "A note on two problems in connexion with graphs",
       Numerische Mathematik 1, 269-271, 1959.

    Examples
    --------
    >>> from isles.models.catan import beginner_board
    >>> choice = choose_start(beginner_board(), objective="expected_turns")
    >>> str(choice.status), [str(h) for h in choice.group], str(choice.route.start)
    ('optimal', ['2,-3', '1,-3', '0,-3', '-1,-2'], '2,-3')
    >>> float(choice.route.expected_turns), choice.route.total_cards
    (4.0, 14)
    """
    given = {k: v for k, v in locals().items() if k != "progress"}
    return choose_trip(Trip.ask(**given), progress=progress)


def choose_trip(trip: Trip, *, progress: bool = False) -> StartChoice:
    """The best start a validated :class:`Trip` without a start asks for (:func:`choose_start`)."""
    if trip.start is not None:
        raise InvalidInput("start", str(trip.start), "no start: the best start is the question")
    objective = trip.objective
    weights = trip.values if trip.values is not None else card_values(None)
    time_limit = trip.time_limit
    deadline = time.monotonic() + time_limit
    rg = _graph_of(trip.board, _trip_roads(trip))
    budget_r = trip.budget
    group = trip.group
    rim = Rim(rg.board)  # read once for every group
    if group is not None:
        members = list(group)
        for i, h in enumerate(members):
            if h not in rg.index or rg.board.terrain(h).is_land:
                raise InvalidInput(f"group[{i}]", str(h), "a sea hex on the board (a start)")
        if not members:
            raise InvalidInput("group", [], "at least one sea hex")
        groups = [list(dict.fromkeys(members))]
    else:
        groups = rim.groups()
        if not groups:
            raise InvalidInput(
                "board",
                "no rim start",
                "a board with sea on its rim next to land, where the cars start "
                "(or give the start and the goals)",
            )
    # A car's cost field serves each of the (at most GROUP_SIZE) groups it is in.
    fields: dict[Hex, CostField] = {}
    plans: list[GroupPlan] = []
    bar = _progress_bar(len(groups), progress)
    for members in groups:
        goals = rim.goals(members)
        routes = []
        for car in members:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                bar.close()
                return _timed_out(objective, plans, time_limit)
            field = None
            if budget_r is None and objective in ("cards", "turns"):
                if car not in fields:
                    if len(fields) > 2 * GROUP_SIZE:
                        del fields[next(iter(fields))]
                    fields[car] = cost_field(rg, car, objective)
                field = fields[car]
            route = _plan(rg, car, goals, objective, weights, budget_r, left, field)
            if route.status is Status.TIMED_OUT:
                bar.close()
                return _timed_out(objective, plans, time_limit)
            routes.append(route)
        ranked = [(rank, i) for i, r in enumerate(routes) if (rank := _route_rank(r)) is not None]
        best_car = min(ranked)[1] if ranked else 0
        limit = None if budget_r is None else time_limit  # a route's limit: its budget search's
        plans.append(GroupPlan(tuple(members), replace(routes[best_car], time_limit=limit)))
        bar.update(1)
    bar.close()
    ranked_groups = [
        (rank, i) for i, plan in enumerate(plans) if (rank := _route_rank(plan.route)) is not None
    ]
    if not ranked_groups:
        return StartChoice(Status.UNREACHABLE, objective, tuple(plans), None, time_limit)
    best = min(ranked_groups)[1]
    status = Status.OPTIMAL if plans[best].route.reached else Status.UNAFFORDABLE
    return StartChoice(status, objective, tuple(plans), best, time_limit)


def _timed_out(
    objective: Objective, plans: list[GroupPlan], time_limit: float | None
) -> StartChoice:
    return StartChoice(Status.TIMED_OUT, objective, tuple(plans), None, time_limit)


class _NoBar:
    """Stands in for a tqdm bar when none is shown."""

    def update(self, n: int) -> None:
        pass

    def close(self) -> None:
        pass


#: Seconds a budget search runs before its bar shows when progress is automatic (None).
PROGRESS_DELAY = 1.0


@contextmanager
def _timer(time_limit: float | None, progress: bool | None) -> Iterator[Callable[[], None]]:
    """A deadline bar on stderr over a budget search's seconds; yields its ``tick``.

    True shows it at once, None on a terminal after :data:`PROGRESS_DELAY`
    seconds, False (or no time limit) never.
    """
    automatic = progress is None
    shown = bool(getattr(sys.stderr, "isatty", lambda: False)()) if automatic else progress
    if not shown or time_limit is None:
        yield lambda: None
        return
    from tqdm import tqdm  # loaded only when a bar is shown

    limit = time_limit
    start = time.monotonic()
    with tqdm(
        total=limit,
        desc="budget search",
        delay=PROGRESS_DELAY if automatic else 0.0,
        leave=False,
        file=sys.stderr,
        bar_format="{desc}: {percentage:3.0f}%|{bar}| {n:.0f}/{total:.0f} s",
    ) as bar:

        def tick() -> None:
            bar.update(min(time.monotonic() - start, limit) - bar.n)

        yield tick


def _progress_bar(total: int, shown: bool) -> Any:
    if not shown:
        return _NoBar()
    from tqdm import tqdm  # loaded only when a bar is shown

    return tqdm(total=total, desc="start groups", unit="group", file=sys.stderr)


Key = tuple[Fraction, Fraction, Fraction]
ZERO_KEY: Key = (Fraction(0), Fraction(0), Fraction(0))


def _cheapest_resource(values: Mapping[Resource, Fraction]) -> Resource:
    return min(Resource, key=lambda r: (values[r], list(Resource).index(r)))


def _arc_key(
    arc: _Arc,
    objective: Objective,
    values: Mapping[Resource, Fraction],
    payer: Resource | None = None,
) -> Key:
    """The three keys (see :func:`plan_route`) of one move; ``payer`` pays for gold."""
    cards = Fraction(arc.cards)
    turns = 1 / arc.p_exit
    one = Fraction(1)
    if objective == "cards":
        return cards, one, turns
    if objective == "turns":
        return one, cards, turns
    if objective == "expected_turns":
        return turns, cards, one
    resource = arc.resource
    if resource is None and cards:  # gold
        resource = payer or _cheapest_resource(values)
    return (cards * values[resource] if resource else Fraction(0)), one, turns


def _add(a: Key, b: Key) -> Key:
    return a[0] + b[0], a[1] + b[1], a[2] + b[2]


def _plan_on_csr(
    rg: RallyGraph,
    start: Hex,
    goals: list[Hex],
    objective: Literal["cards", "turns"],
    values: Mapping[Resource, Fraction],
    field: CostField | None = None,
) -> Route:
    """Integer objectives: csgraph Dijkstra (or ``field``, its answer from ``start``
    for ``objective``), then least expected turns among the ties."""
    f = cost_field(rg, start, objective) if field is None else field
    reached = [rg.index[g] for g in goals if f.moves[rg.index[g]] >= 0]
    if not reached:
        return _no_route(rg, start, goals, objective, Status.UNREACHABLE, None)

    def two_keys(i: int) -> tuple[int, int]:
        c, m = int(f.cards[i]), int(f.moves[i])
        return (c, m) if objective == "cards" else (m, c)

    best = min(two_keys(i) for i in reached)
    tied = [i for i in reached if two_keys(i) == best]
    # The tight arcs (on some best route to their head), found in bulk, grouped by head.
    tail, head = rg._tail, rg._head
    tight = np.flatnonzero(
        (f.moves[tail] >= 0)
        & (f.moves[head] == f.moves[tail] + 1)
        & (f.cards[head] == f.cards[tail] + rg._cards)
    )
    tight = tight[np.argsort(head[tight], kind="stable")]
    tight_heads = head[tight]

    def tight_into(v: int) -> list[int]:
        lo, hi = np.searchsorted(tight_heads, [v, v + 1])
        return tight[lo:hi].tolist()  # type: ignore[no-any-return]

    # The DAG of the tight arcs that lead to a tied goal.
    members: set[int] = set(tied)
    stack = list(tied)
    into: dict[int, list[_Arc]] = {}
    while stack:
        v = stack.pop()
        into[v] = [rg._arc(a) for a in tight_into(v)]
        for arc in into[v]:
            if arc.tail not in members:
                members.add(arc.tail)
                stack.append(arc.tail)
    expected: dict[int, Fraction] = {}
    parent: dict[int, int] = {}
    first = rg.index[start]
    for v in sorted(members, key=lambda i: (int(f.moves[i]), i)):  # moves grow along arcs
        if v == first:
            expected[v] = Fraction(0)
            continue
        expected[v], parent[v] = min((expected[a.tail] + 1 / a.p_exit, a.tail) for a in into[v])
    hexes = rg.hexes
    goal = min(tied, key=lambda i: (expected[i], goals.index(hexes[i])))
    path = [goal]
    while path[-1] in parent:
        path.append(parent[path[-1]])
    return _route(
        rg,
        start,
        goals,
        [hexes[i] for i in reversed(path)],
        objective,
        values,
        Status.OPTIMAL,
        None,
    )


def _plan_exact_dijkstra(
    rg: RallyGraph,
    start: Hex,
    goals: list[Hex],
    objective: Objective,
    values: Mapping[Resource, Fraction],
) -> Route:
    """Dijkstra over exact (Fraction) three-part keys; first goal settled is the best.

    Hexes are their board-order indices, so the heap and the ties order them
    by board order.
    """
    goal_set = {rg.index[g] for g in goals}
    first = rg.index[start]
    best: dict[int, Key] = {first: ZERO_KEY}
    pred: dict[int, int] = {}
    done: set[int] = set()
    heap: list[tuple[Key, int]] = [(ZERO_KEY, first)]
    while heap:
        key, u = heapq.heappop(heap)
        if u in done:
            continue
        done.add(u)
        if u in goal_set:
            path = [u]
            while path[-1] in pred:
                path.append(pred[path[-1]])
            hexes = [rg.hexes[i] for i in reversed(path)]
            return _route(rg, start, goals, hexes, objective, values, Status.OPTIMAL, None)
        for arc in rg._arcs_from(u):
            v = arc.head
            if v in done:
                continue
            new = _add(key, _arc_key(arc, objective, values))
            if v not in best or (new, u) < (best[v], pred.get(v, v)):
                best[v] = new
                pred[v] = u
                heapq.heappush(heap, (new, v))
    return _no_route(rg, start, goals, objective, Status.UNREACHABLE, None)


def _lower_bounds(
    rg: RallyGraph, goals: list[Hex], objective: Objective, values: Mapping[Resource, Fraction]
) -> dict[int, Fraction]:
    """Exact least first key from every hex (by index) to the nearest goal, ignoring any budget.

    Dijkstra backwards from the goals; the A* heuristic of the budget search
    (admissible and consistent, since it is a true distance). Gold is priced
    at its cheapest payer.
    """
    dist: dict[int, Fraction] = {}
    heap: list[tuple[Fraction, int]] = [(Fraction(0), rg.index[g]) for g in goals]
    heapq.heapify(heap)
    while heap:
        d, v = heapq.heappop(heap)
        if v in dist:
            continue
        dist[v] = d
        for arc in rg._arcs_into(v):
            if arc.tail not in dist:
                heapq.heappush(heap, (d + _arc_key(arc, objective, values)[0], arc.tail))
    return dist


def _plan_with_budget(
    rg: RallyGraph,
    start: Hex,
    goals: list[Hex],
    objective: Objective,
    values: Mapping[Resource, Fraction],
    budget: Mapping[Resource, int],
    time_limit: float | None,
    progress: bool | None = False,
) -> Route:
    """Resource-constrained shortest path: A* label setting over Pareto labels.

    A label is (keys, cards spent per resource, hex, parent label). Labels
    leave the queue by (first key + exact lower bound to a goal, keys), so the
    first goal label is optimal; a label at a hex is dropped when a label
    settled there earlier has keys <= and spends <= in every resource (it
    dominates). Only affordable labels are made. When no goal is affordable
    the search runs to exhaustion to find the affordable hex closest to a goal.
    """
    resources = list(Resource)
    cap = tuple(budget[r] for r in resources)
    budget_out = {r.value: budget[r] for r in resources}
    bound = _lower_bounds(rg, goals, objective, values)
    if rg.index[start] not in bound:
        return _no_route(rg, start, goals, objective, Status.UNREACHABLE, budget_out)
    # Cheap first answer: the unconstrained best route, when it is affordable as it stands.
    if objective == "cards" or objective == "turns":
        free = _plan_on_csr(rg, start, goals, objective, values)
    else:
        free = _plan_exact_dijkstra(rg, start, goals, objective, values)
    assert free.path is not None and free.cards is not None  # the start reaches a goal
    if ANY not in free.cards and all(free.cards.get(r.value, 0) <= budget[r] for r in resources):
        return _route(
            rg, start, goals, list(free.path), objective, values, Status.OPTIMAL, budget_out
        )

    deadline = None if time_limit is None else time.monotonic() + time_limit
    goal_set = {rg.index[g] for g in goals}
    settled: dict[int, list[tuple[Key, tuple[int, ...]]]] = {}
    labels: list[tuple[Key, tuple[int, ...], int, int]] = []
    heap: list[tuple[Fraction, Key, int, int]] = []
    counter = itertools.count()

    def push(key: Key, spent: tuple[int, ...], h: int, parent: int) -> None:
        labels.append((key, spent, h, parent))
        if h in bound:  # a hex that cannot reach a goal still counts for "closest"
            heapq.heappush(heap, (key[0] + bound[h], key, next(counter), len(labels) - 1))
        else:
            heapq.heappush(heap, (key[0] + _FAR, key, next(counter), len(labels) - 1))

    push(ZERO_KEY, (0,) * len(resources), rg.index[start], -1)
    found: int | None = None
    kept: list[int] = []
    pops = 0
    with _timer(time_limit, progress) as tick:
        while heap:
            pops += 1
            if deadline is not None and pops % 512 == 0:
                tick()
                if time.monotonic() > deadline:
                    return _no_route(rg, start, goals, objective, Status.TIMED_OUT, budget_out)
            _, _, _, li = heapq.heappop(heap)
            key, spent, u, _ = labels[li]
            here = settled.setdefault(u, [])
            if any(
                k <= key and all(a <= b for a, b in zip(s, spent, strict=True)) for k, s in here
            ):
                continue
            here.append((key, spent))
            kept.append(li)
            if u in goal_set:
                found = li
                break
            for arc in rg._arcs_from(u):
                payers: list[Resource | None] = (
                    list(resources) if arc.resource is None and arc.cards else [arc.resource]
                )
                for payer in payers:
                    new_spent = list(spent)
                    if payer is not None:
                        j = resources.index(payer)
                        new_spent[j] += arc.cards
                        if new_spent[j] > cap[j]:
                            continue
                    new_key = _add(key, _arc_key(arc, objective, values, payer))
                    push(new_key, tuple(new_spent), arc.head, li)
    if found is None:
        # No goal affordable: the affordable hex closest to a goal, best keys first.
        def closeness(li: int) -> tuple[int, Key, int]:
            key, _, h, _ = labels[li]
            return (min(distance(rg.hexes[h], g) for g in goals), key, h)

        found = min(kept, key=closeness)
        status = Status.UNAFFORDABLE
    else:
        status = Status.OPTIMAL
    chain = [found]
    while labels[chain[-1]][3] >= 0:
        chain.append(labels[chain[-1]][3])
    chain.reverse()
    path = [rg.hexes[labels[li][2]] for li in chain]
    # The resource each gold step was paid in, read from the spent vectors.
    paid: list[Resource | None] = []
    for a, b in itertools.pairwise(chain):
        diff = [y - x for x, y in zip(labels[a][1], labels[b][1], strict=True)]
        paid.append(next((resources[j] for j, d in enumerate(diff) if d), None))
    return _route(rg, start, goals, path, objective, values, status, budget_out, paid)


# Priority offset for labels on hexes that cannot reach any goal: explored last.
_FAR = Fraction(10**18)


def _route(
    rg: RallyGraph,
    start: Hex,
    goals: list[Hex],
    path: list[Hex],
    objective: Objective,
    values: Mapping[Resource, Fraction],
    status: Status,
    budget: Mapping[str, int] | None,
    paid: Sequence[Resource | None] | None = None,
) -> Route:
    steps: list[Step] = []
    cards: dict[str, int] = {}
    for i, (u, v) in enumerate(itertools.pairwise(path)):
        arc = rg._arc_between(rg.index[u], rg.index[v])
        resource = arc.resource
        if resource is None and arc.cards and objective == "weighted":
            resource = _cheapest_resource(values)
        if paid is not None and paid[i] is not None:
            resource = paid[i]
        rolled = rg.board.terrain(u) is Terrain.DESERT and rg.board.number(v) is not None
        step = Step(
            hex=v,
            terrain=rg.board.terrain(v),
            number=rg.board.number(v),
            resource=resource,
            cards=arc.cards,
            halved=arc.halved,
            exit_probability=arc.p_exit if rolled else None,
            expected_turns=1 / arc.p_exit,
        )
        steps.append(step)
        if step.cards:
            name = resource.value if resource else ANY
            cards[name] = cards.get(name, 0) + step.cards
    total = sum(s.cards for s in steps)
    expected = sum((s.expected_turns for s in steps), Fraction(0))
    if objective == "cards":
        value = Fraction(total)
    elif objective == "turns":
        value = Fraction(len(steps))
    elif objective == "expected_turns":
        value = expected
    else:
        value = sum(
            (s.cards * values[s.resource] for s in steps if s.resource is not None), Fraction(0)
        )
    ordered: dict[str, int] = {r.value: cards[r.value] for r in Resource if r.value in cards}
    if ANY in cards:
        ordered[ANY] = cards[ANY]
    return Route(
        status=status,
        objective=objective,
        start=start,
        goals=tuple(goals),
        path=tuple(path),
        steps=tuple(steps),
        cards=ordered,
        total_cards=total,
        turns=len(steps),
        expected_turns=expected,
        value=value,
        budget=budget,
        roads=tuple(sorted(rg.roads)),
    )


def _no_route(
    rg: RallyGraph,
    start: Hex,
    goals: list[Hex],
    objective: Objective,
    status: Status,
    budget: Mapping[str, int] | None,
) -> Route:
    """The answer without a route (unreachable, timed out): every route value is None."""
    return Route(
        status=status,
        objective=objective,
        start=start,
        goals=tuple(goals),
        path=None,
        steps=None,
        cards=None,
        total_cards=None,
        turns=None,
        expected_turns=None,
        value=None,
        budget=budget,
        roads=tuple(sorted(rg.roads)),
    )
