"""Cheapest car routes for the Catan car rally: cards, turns, expected turns, budgets.

Implements docs/rally.md (seeds/002_8684547a41c0941c.txt, RULES.md section 2) on a
NetworkX directed hex graph; integer objectives run on its SciPy CSR form.
"""

from __future__ import annotations

import heapq
import itertools
import math
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal, get_args

import networkx as nx
import numpy as np
import numpy.typing as npt
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

from isles.models.catan import Board, Resource, Terrain, Tile
from isles.models.errors import InvalidInput
from isles.models.hexgrid import Edge, Hex, as_hex, distance, edge, neighbours
from isles.models.rally import default_goals, desert_exit_probability, entry_cost, start_group

__all__ = [
    "CostField",
    "Objective",
    "RallyGraph",
    "Route",
    "RouteStatus",
    "Step",
    "build_graph",
    "cost_field",
    "plan_route",
]

Objective = Literal["cards", "turns", "expected_turns", "weighted"]
RouteStatus = Literal["optimal", "unreachable", "unaffordable", "timed_out"]
OBJECTIVES: tuple[str, ...] = get_args(Objective)
ANY = "any"  # key of gold cards, payable in any single resource


@dataclass(frozen=True)
class RallyGraph:
    """A board and one player's roads as a NetworkX directed graph (and its CSR form).

    Nodes are the board's hexes, with attributes ``terrain`` and ``number``.
    An arc ``u -> v`` exists when ``v`` is land (cars never enter the sea);
    its attributes are ``cards`` (the cost of entering ``v`` across that edge),
    ``resource`` (a :class:`Resource`, or None for desert and gold), ``halved``
    (an own road on the edge) and ``p_exit`` (the chance one try succeeds:
    ``P(2d6 <= n)`` when leaving a desert for a numbered hex, else 1).

    Build with :func:`build_graph`; the CSR arrays serve the integer
    objectives (``scipy.sparse.csgraph``), converted once here.
    """

    board: Board
    roads: frozenset[Edge]
    graph: nx.DiGraph
    hexes: tuple[Hex, ...]
    index: Mapping[Hex, int]
    _tail: npt.NDArray[np.int64] = field(repr=False)
    _head: npt.NDArray[np.int64] = field(repr=False)
    _cards: npt.NDArray[np.int64] = field(repr=False)

    def packed_csr(self, objective: Literal["cards", "turns"]) -> tuple[int, csr_matrix]:
        """The CSR matrix of packed integer weights for an objective, and its packing base.

        ``"cards"``: weight = cards * base + 1 with base = nodes + 1 > any move count;
        ``"turns"``: weight = base + cards with base = 12 * nodes + 1 > any card total.
        Built once per graph and objective (cached).
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


def build_graph(board: Board, roads: Iterable[Edge | tuple[Any, Any]] = ()) -> RallyGraph:
    """Build the rally graph of ``board`` for a player owning ``roads``.

    Parameters
    ----------
    board : Board
        Any board; sea hexes are nodes (cars start there) but never arc heads.
    roads : iterable of Edge or pairs of hexes
        The mover's own roads; crossing one halves the entry cost (rounded up).

    Raises
    ------
    InvalidInput
        A road whose hexes are not adjacent or not both on the board.

    Examples
    --------
    >>> from isles.models.catan import beginner_board
    >>> rg = build_graph(beginner_board())
    >>> rg.graph.number_of_nodes(), rg.graph[Hex(0, -3)][Hex(0, -2)]["cards"]
    (37, 10)
    """
    road_set: set[Edge] = set()
    for i, road in enumerate(roads):
        if not (isinstance(road, tuple | list) and len(road) == 2):
            raise InvalidInput(f"roads[{i}]", road, "an edge: a pair of adjacent hexes")
        e = edge(as_hex(road[0], f"roads[{i}]"), as_hex(road[1], f"roads[{i}]"))
        for h in e:
            if h not in board:
                raise InvalidInput(f"roads[{i}]", str(e), "an edge between two hexes on the board")
        road_set.add(e)
    hexes = tuple(board)
    index = {h: i for i, h in enumerate(hexes)}
    g = nx.DiGraph()
    for h, tile in board.tiles.items():
        g.add_node(h, terrain=tile.terrain, number=tile.number)
    arcs: list[tuple[Hex, Hex, dict[str, Any]]] = []
    tiles = board.tiles
    certain = Fraction(1)
    # Arc attributes depend only on (head tile, own road, leaving a desert): share them.
    shared: dict[tuple[Tile, bool, bool], dict[str, Any]] = {}
    for u, tile_u in tiles.items():
        leaving_desert = tile_u.terrain is Terrain.DESERT
        for v in neighbours(u):
            tile_v = tiles.get(v)
            if tile_v is None or tile_v.terrain is Terrain.SEA:
                continue
            on_road = bool(road_set) and edge(u, v) in road_set
            key = (tile_v, on_road, leaving_desert)
            attrs = shared.get(key)
            if attrs is None:
                cost = entry_cost(tile_v, on_road)
                attrs = shared[key] = {
                    "cards": cost.cards,
                    "resource": cost.resource,
                    "halved": cost.halved,
                    "p_exit": desert_exit_probability(tile_v) if leaving_desert else certain,
                }
            arcs.append((u, v, attrs))
    g.add_edges_from(arcs)
    return RallyGraph(
        board=board,
        roads=frozenset(road_set),
        graph=g,
        hexes=hexes,
        index=index,
        _tail=np.fromiter((index[u] for u, _, _ in arcs), dtype=np.int64, count=len(arcs)),
        _head=np.fromiter((index[v] for _, v, _ in arcs), dtype=np.int64, count=len(arcs)),
        _cards=np.fromiter((d["cards"] for _, _, d in arcs), dtype=np.int64, count=len(arcs)),
    )


@dataclass(frozen=True)
class CostField:
    """Cheapest costs from one start hex to every hex (an integer objective).

    ``cards[i]`` and ``moves[i]`` are the totals of the best route to
    ``hexes[i]`` (-1 where unreachable); ``predecessor[i]`` is the index of
    the previous hex on it (-1 at the start and where unreachable).
    Objective ``"cards"`` orders routes by (cards, moves), ``"turns"`` by
    (moves, cards). Exact: the two keys are packed into one integer weight
    below 2**53, so float64 sums are exact.
    """

    objective: Literal["cards", "turns"]
    start: Hex
    hexes: tuple[Hex, ...]
    cards: npt.NDArray[np.int64]
    moves: npt.NDArray[np.int64]
    predecessor: npt.NDArray[np.int64]

    def path_to(self, target: int) -> list[int]:
        """Indices of the hexes on the best route to ``hexes[target]``, start first."""
        if self.moves[target] < 0:
            return []
        out = [target]
        while self.predecessor[out[-1]] >= 0:
            out.append(int(self.predecessor[out[-1]]))
        return out[::-1]


def cost_field(
    rg: RallyGraph, start: Hex, objective: Literal["cards", "turns"] = "cards"
) -> CostField:
    """Cheapest routes from ``start`` to every hex with ``scipy.sparse.csgraph.dijkstra``.

    Integer objectives only (``"cards"`` or ``"turns"``, see :class:`CostField`).
    This is the planner's fast core: one Dijkstra over the CSR form.

    Raises
    ------
    InvalidInput
        If ``start`` is not on the board.

    >>> from isles.models.catan import beginner_board
    >>> f = cost_field(build_graph(beginner_board()), Hex(0, -3))
    >>> int(f.cards[f.hexes.index(Hex(0, 0))])  # 10 ore, 6 brick, then the free desert
    16
    """
    if start not in rg.index:
        raise InvalidInput("start", str(start), "a hex on the board")
    if objective not in ("cards", "turns"):
        raise InvalidInput("objective", objective, "cards or turns")
    big, matrix = rg.packed_csr(objective)
    dist, pred = dijkstra(matrix, directed=True, indices=rg.index[start], return_predecessors=True)
    reach = np.isfinite(dist)
    packed = np.where(reach, dist, 0).astype(np.int64)
    hi, lo = np.divmod(packed, big)
    cards, moves = (hi, lo) if objective == "cards" else (lo, hi)
    cards = np.where(reach, cards, -1)
    moves = np.where(reach, moves, -1)
    pred = np.where(pred < 0, -1, pred).astype(np.int64)
    return CostField(objective, start, rg.hexes, cards, moves, pred)


@dataclass(frozen=True)
class Step:
    """One move of a route: entering ``hex``.

    ``resource`` is the card type paid (None for a desert, or for gold when
    the choice is left to the player); ``cards`` how many; ``halved`` whether
    an own road halved the cost; ``number`` is the hex's number token;
    ``exit_probability`` the chance of one try
    when leaving a desert by a roll (None otherwise); ``expected_turns`` the
    expected number of turns this move takes (``1 / exit_probability``, or 1).
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
        return {
            "hex": [self.hex.q, self.hex.r],
            "terrain": self.terrain.value,
            "number": self.number,
            "resource": self.resource.value if self.resource else (ANY if self.cards else None),
            "cards": self.cards,
            "halved": self.halved,
            "exit_probability": _fraction_str(self.exit_probability),
            "expected_turns": float(self.expected_turns),
        }


@dataclass(frozen=True)
class Route:
    """A planned car route, or the answer that none exists.

    Attributes
    ----------
    status : "optimal" | "unreachable" | "unaffordable" | "timed_out"
        ``optimal``: ``path`` ends on a goal and no route is better for the
        objective (proven: exact shortest path). ``unreachable``: no goal can
        be reached at any price. ``unaffordable``: with ``budget``, no goal is
        affordable; ``path`` then leads to the affordable hex closest to a
        goal (hex distance), cheapest first. ``timed_out``: a budget search
        reached its time limit before proving an answer.
    path : tuple of Hex
        Start first; one hex per move.
    cards : dict
        Cards per resource name (``"any"`` for gold paid in a resource of the
        player's choice), only resources actually paid.
    total_cards, turns : int
        Cards paid in all; moves (turns if every desert roll succeeds).
    expected_turns : Fraction
        Expected turns, each desert exit try counting one turn.
    value : Fraction
        The objective's value (cards, turns, expected turns, or weighted cards).
    """

    status: RouteStatus
    objective: Objective
    start: Hex
    goals: tuple[Hex, ...]
    path: tuple[Hex, ...]
    steps: tuple[Step, ...]
    cards: Mapping[str, int]
    total_cards: int
    turns: int
    expected_turns: Fraction
    value: Fraction
    budget: Mapping[str, int] | None = None

    @property
    def reached(self) -> bool:
        return self.status == "optimal"

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data (the CLI's ``--json``); exact values as ``"p/q"`` strings too."""
        return {
            "status": self.status,
            "objective": self.objective,
            "start": [self.start.q, self.start.r],
            "goals": [[g.q, g.r] for g in self.goals],
            "path": [[h.q, h.r] for h in self.path],
            "steps": [s.to_dict() for s in self.steps],
            "cards": dict(self.cards),
            "total_cards": self.total_cards,
            "turns": self.turns,
            "expected_turns": float(self.expected_turns),
            "expected_turns_exact": _fraction_str(self.expected_turns),
            "value": float(self.value),
            "value_exact": _fraction_str(self.value),
            "budget": dict(self.budget) if self.budget is not None else None,
        }


def _fraction_str(x: Fraction | None) -> str | None:
    return None if x is None else f"{x.numerator}/{x.denominator}"


# -- parameter checking -------------------------------------------------------------


def _resource(name: object, field_name: str) -> Resource:
    if isinstance(name, Resource):
        return name
    try:
        return Resource(str(name))
    except ValueError:
        raise InvalidInput(
            field_name, name, "a resource: " + ", ".join(r.value for r in Resource)
        ) from None


def _values(values: Mapping[Any, float | int | Fraction] | None) -> dict[Resource, Fraction]:
    out = dict.fromkeys(Resource, Fraction(1))
    for key, v in (values or {}).items():
        r = _resource(key, "values")
        if isinstance(v, bool) or not isinstance(v, int | float | Fraction):
            raise InvalidInput(f"values.{r.value}", v, "a number >= 0")
        if (isinstance(v, float) and not math.isfinite(v)) or v < 0:
            raise InvalidInput(f"values.{r.value}", v, "a finite number >= 0")
        exact = Fraction(str(v)) if isinstance(v, float) else Fraction(v)
        out[r] = exact
    return out


def _budget(budget: Mapping[Any, int]) -> dict[Resource, int]:
    out = dict.fromkeys(Resource, 0)
    for key, v in budget.items():
        r = _resource(key, "budget")
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise InvalidInput(f"budget.{r.value}", v, "a whole number of cards >= 0")
        out[r] = v
    return out


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
) -> Route:
    """Plan a car's best route from ``start`` to the nearest of ``goals``.

    Parameters
    ----------
    board : Board or RallyGraph
        The board (a prebuilt :class:`RallyGraph` skips the graph build; then
        ``roads`` must be empty, the graph's own roads apply).
    start : (q, r)
        The car's hex: a rim sea hex at the start of the game, or any hex.
    goals : sequence of (q, r), optional
        Land hexes; default: RULES.md section 2 from the start's group
        (:func:`isles.models.rally.default_goals` of ``group``, itself defaulting to
        :func:`isles.models.rally.start_group`).
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
    values : mapping resource -> number >= 0, optional
        Card values for ``weighted`` only (default 1 each; floats are read
        exactly from their decimal text).
    budget : mapping resource -> int, optional
        Cards the player can spend (hand plus fuel reserve) per resource: the
        best route payable now, by an exact label-setting search (A* with
        exact lower bounds) over Pareto labels (keys, cards spent per
        resource). Gold may be paid from any one resource; the search tries each.
    group : sequence of (q, r), optional
        The start group (sea hexes) used for default goals.
    time_limit : float, optional
        Seconds allowed for a budget search (None: no limit); past it the
        answer is ``status="timed_out"``.

    Returns
    -------
    Route
        ``status`` "optimal", or "unreachable" / "unaffordable" / "timed_out"
        (see :class:`Route`).

    Raises
    ------
    InvalidInput
        Off-board or malformed start, a goal off the board or on the sea, an
        unknown objective or resource, ``values`` without ``weighted``, a
        negative value or budget, a bad road or group.

    Notes
    -----
    All answers are exact. ``cards`` and ``turns`` run Dijkstra on the CSR
    form (SciPy csgraph, the first two keys packed into one exact integer
    weight), then pick the least expected turns among the tied shortest paths
    by dynamic programming over their DAG; the other objectives run Dijkstra
    over exact Fraction keys. Ties on all three keys go to the hex earliest
    in board order, so the same query always returns the same route.

    Examples
    --------
    >>> from isles.models.catan import beginner_board
    >>> r = plan_route(beginner_board(), (0, -3), goals=[(0, 0)])
    >>> r.status, [str(h) for h in r.path], r.total_cards
    ('optimal', ['0,-3', '0,-2', '0,-1', '0,0'], 16)
    """
    if objective not in OBJECTIVES:
        raise InvalidInput("objective", objective, " | ".join(OBJECTIVES))
    if values is not None and objective != "weighted":
        raise InvalidInput("values", dict(values), "card values only with objective 'weighted'")
    if isinstance(board, RallyGraph):
        if list(roads):
            raise InvalidInput(
                "roads", "given with a prebuilt graph", "roads passed to build_graph"
            )
        rg = board
    else:
        rg = build_graph(board, roads)
    start_h = as_hex(start, "start")
    if start_h not in rg.index:
        raise InvalidInput("start", str(start_h), "a hex on the board")
    goal_list = _goal_list(rg, start_h, goals, group)
    weights = _values(values)
    if budget is not None:
        budget_r = _budget(budget)
        return _plan_with_budget(rg, start_h, goal_list, objective, weights, budget_r, time_limit)
    if objective in ("cards", "turns"):
        return _plan_on_csr(rg, start_h, goal_list, objective, weights)
    return _plan_exact_dijkstra(rg, start_h, goal_list, objective, weights)


def _goal_list(
    rg: RallyGraph,
    start: Hex,
    goals: Sequence[tuple[int, int]] | None,
    group: Sequence[tuple[int, int]] | None,
) -> list[Hex]:
    if goals is None:
        if group is not None:
            members = [as_hex(h, f"group[{i}]") for i, h in enumerate(group)]
            for i, h in enumerate(members):
                if h not in rg.index or rg.board.terrain(h).is_land:
                    raise InvalidInput(f"group[{i}]", str(h), "a sea hex on the board (a start)")
            if start not in members:
                members.insert(0, start)
        else:
            members = start_group(rg.board, start)
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


Key = tuple[Fraction, Fraction, Fraction]
ZERO_KEY: Key = (Fraction(0), Fraction(0), Fraction(0))


def _cheapest_resource(values: Mapping[Resource, Fraction]) -> Resource:
    return min(Resource, key=lambda r: (values[r], list(Resource).index(r)))


def _arc_key(
    data: Mapping[str, Any],
    objective: Objective,
    values: Mapping[Resource, Fraction],
    payer: Resource | None = None,
) -> Key:
    """The three keys (see :func:`plan_route`) of one move; ``payer`` pays for gold."""
    cards = Fraction(data["cards"])
    turns = 1 / data["p_exit"]
    one = Fraction(1)
    if objective == "cards":
        return cards, one, turns
    if objective == "turns":
        return one, cards, turns
    if objective == "expected_turns":
        return turns, cards, one
    resource: Resource | None = data["resource"]
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
) -> Route:
    """Integer objectives: csgraph Dijkstra, then least expected turns among the ties."""
    f = cost_field(rg, start, objective)
    reached = [rg.index[g] for g in goals if f.moves[rg.index[g]] >= 0]
    if not reached:
        return _no_route(rg, start, goals, objective, "unreachable", None)

    def two_keys(i: int) -> tuple[int, int]:
        c, m = int(f.cards[i]), int(f.moves[i])
        return (c, m) if objective == "cards" else (m, c)

    best = min(two_keys(i) for i in reached)
    tied = [i for i in reached if two_keys(i) == best]
    # The DAG of tight arcs (on some shortest path) that lead to a tied goal.
    index, hexes, succ_pred = rg.index, rg.hexes, rg.graph.pred
    members: set[int] = set(tied)
    stack = list(tied)
    while stack:
        v = stack.pop()
        for u_hex, data in succ_pred[hexes[v]].items():
            u = index[u_hex]
            if (
                u not in members
                and f.moves[u] >= 0
                and f.moves[u] + 1 == f.moves[v]
                and f.cards[u] + data["cards"] == f.cards[v]
            ):
                members.add(u)
                stack.append(u)
    expected: dict[int, Fraction] = {}
    parent: dict[int, int] = {}
    for v in sorted(members, key=lambda i: (int(f.moves[i]), i)):  # moves grow along arcs
        if hexes[v] == start:
            expected[v] = Fraction(0)
            continue
        options = [
            (expected[index[u_hex]] + 1 / data["p_exit"], index[u_hex])
            for u_hex, data in succ_pred[hexes[v]].items()
            if index[u_hex] in expected
            and f.moves[index[u_hex]] + 1 == f.moves[v]
            and f.cards[index[u_hex]] + data["cards"] == f.cards[v]
        ]
        expected[v], parent[v] = min(options)
    goal = min(tied, key=lambda i: (expected[i], goals.index(hexes[i])))
    path = [goal]
    while path[-1] in parent:
        path.append(parent[path[-1]])
    return _route(
        rg, start, goals, [hexes[i] for i in reversed(path)], objective, values, "optimal", None
    )


def _plan_exact_dijkstra(
    rg: RallyGraph,
    start: Hex,
    goals: list[Hex],
    objective: Objective,
    values: Mapping[Resource, Fraction],
) -> Route:
    """Dijkstra over exact (Fraction) three-part keys; first goal settled is the best."""
    goal_set = set(goals)
    order = rg.index
    best: dict[Hex, Key] = {start: ZERO_KEY}
    pred: dict[Hex, Hex] = {}
    done: set[Hex] = set()
    heap: list[tuple[Key, int, Hex]] = [(ZERO_KEY, order[start], start)]
    succ = rg.graph.succ
    while heap:
        key, _, u = heapq.heappop(heap)
        if u in done:
            continue
        done.add(u)
        if u in goal_set:
            path = [u]
            while path[-1] in pred:
                path.append(pred[path[-1]])
            return _route(rg, start, goals, path[::-1], objective, values, "optimal", None)
        for v, data in succ[u].items():
            if v in done:
                continue
            new = _add(key, _arc_key(data, objective, values))
            if v not in best or (new, order[u]) < (best[v], order[pred.get(v, v)]):
                best[v] = new
                pred[v] = u
                heapq.heappush(heap, (new, order[v], v))
    return _no_route(rg, start, goals, objective, "unreachable", None)


def _lower_bounds(
    rg: RallyGraph, goals: list[Hex], objective: Objective, values: Mapping[Resource, Fraction]
) -> dict[Hex, Fraction]:
    """Exact least first key from every hex to the nearest goal, ignoring any budget.

    Dijkstra backwards from the goals; the A* heuristic of the budget search
    (admissible and consistent, since it is a true distance). Gold is priced
    at its cheapest payer.
    """
    dist: dict[Hex, Fraction] = {}
    heap: list[tuple[Fraction, int, Hex]] = [(Fraction(0), rg.index[g], g) for g in goals]
    heapq.heapify(heap)
    pred = rg.graph.pred
    while heap:
        d, _, v = heapq.heappop(heap)
        if v in dist:
            continue
        dist[v] = d
        for u, data in pred[v].items():
            if u not in dist:
                heapq.heappush(heap, (d + _arc_key(data, objective, values)[0], rg.index[u], u))
    return dist


def _plan_with_budget(
    rg: RallyGraph,
    start: Hex,
    goals: list[Hex],
    objective: Objective,
    values: Mapping[Resource, Fraction],
    budget: Mapping[Resource, int],
    time_limit: float | None,
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
    if start not in bound:
        return _no_route(rg, start, goals, objective, "unreachable", budget_out)
    # Cheap first answer: the unconstrained best route, when it is affordable as it stands.
    if objective == "cards" or objective == "turns":
        free = _plan_on_csr(rg, start, goals, objective, values)
    else:
        free = _plan_exact_dijkstra(rg, start, goals, objective, values)
    if ANY not in free.cards and all(free.cards.get(r.value, 0) <= budget[r] for r in resources):
        return _route(rg, start, goals, list(free.path), objective, values, "optimal", budget_out)

    deadline = None if time_limit is None else time.monotonic() + time_limit
    goal_set = set(goals)
    settled: dict[Hex, list[tuple[Key, tuple[int, ...]]]] = {}
    labels: list[tuple[Key, tuple[int, ...], Hex, int]] = []
    heap: list[tuple[Fraction, Key, int, int]] = []
    counter = itertools.count()

    def push(key: Key, spent: tuple[int, ...], h: Hex, parent: int) -> None:
        labels.append((key, spent, h, parent))
        if h in bound:  # a hex that cannot reach a goal still counts for "closest"
            heapq.heappush(heap, (key[0] + bound[h], key, next(counter), len(labels) - 1))
        else:
            heapq.heappush(heap, (key[0] + _FAR, key, next(counter), len(labels) - 1))

    push(ZERO_KEY, (0,) * len(resources), start, -1)
    found: int | None = None
    kept: list[int] = []
    pops = 0
    while heap:
        pops += 1
        if deadline is not None and pops % 512 == 0 and time.monotonic() > deadline:
            return _no_route(rg, start, goals, objective, "timed_out", budget_out)
        _, _, _, li = heapq.heappop(heap)
        key, spent, u, _ = labels[li]
        here = settled.setdefault(u, [])
        if any(k <= key and all(a <= b for a, b in zip(s, spent, strict=True)) for k, s in here):
            continue
        here.append((key, spent))
        kept.append(li)
        if u in goal_set:
            found = li
            break
        for v, data in rg.graph.succ[u].items():
            cards: int = data["cards"]
            resource: Resource | None = data["resource"]
            payers: list[Resource | None] = (
                list(resources) if resource is None and cards else [resource]
            )
            for payer in payers:
                new_spent = list(spent)
                if payer is not None:
                    j = resources.index(payer)
                    new_spent[j] += cards
                    if new_spent[j] > cap[j]:
                        continue
                push(_add(key, _arc_key(data, objective, values, payer)), tuple(new_spent), v, li)
    if found is None:
        # No goal affordable: the affordable hex closest to a goal, best keys first.
        def closeness(li: int) -> tuple[int, Key, int]:
            key, _, h, _ = labels[li]
            return (min(distance(h, g) for g in goals), key, rg.index[h])

        found = min(kept, key=closeness)
        status: RouteStatus = "unaffordable"
    else:
        status = "optimal"
    chain = [found]
    while labels[chain[-1]][3] >= 0:
        chain.append(labels[chain[-1]][3])
    chain.reverse()
    path = [labels[li][2] for li in chain]
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
    status: RouteStatus,
    budget: Mapping[str, int] | None,
    paid: Sequence[Resource | None] | None = None,
) -> Route:
    steps: list[Step] = []
    cards: dict[str, int] = {}
    for i, (u, v) in enumerate(itertools.pairwise(path)):
        data = rg.graph[u][v]
        resource: Resource | None = data["resource"]
        if resource is None and data["cards"] and objective == "weighted":
            resource = _cheapest_resource(values)
        if paid is not None and paid[i] is not None:
            resource = paid[i]
        p = data["p_exit"]
        rolled = rg.board.terrain(u) is Terrain.DESERT and rg.board.number(v) is not None
        step = Step(
            hex=v,
            terrain=rg.board.terrain(v),
            number=rg.board.number(v),
            resource=resource,
            cards=data["cards"],
            halved=data["halved"],
            exit_probability=p if rolled else None,
            expected_turns=1 / p,
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
        status,
        objective,
        start,
        tuple(goals),
        tuple(path),
        tuple(steps),
        ordered,
        total,
        len(steps),
        expected,
        value,
        budget,
    )


def _no_route(
    rg: RallyGraph,
    start: Hex,
    goals: list[Hex],
    objective: Objective,
    status: RouteStatus,
    budget: Mapping[str, int] | None,
) -> Route:
    return Route(
        status,
        objective,
        start,
        tuple(goals),
        (start,),
        (),
        {},
        0,
        0,
        Fraction(0),
        Fraction(0),
        budget,
    )
