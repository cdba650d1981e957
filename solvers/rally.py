"""Cheapest car routes for the Catan car rally: cards, turns, expected turns, budgets.

Implements docs/rally.md (seeds/002_8684547a41c0941c.txt, RULES.md section 2) on a
NetworkX directed hex graph; integer objectives run on its SciPy CSR form.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal, get_args

import networkx as nx
import numpy as np
import numpy.typing as npt
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

from models.catan import Board, Resource, Terrain, Tile
from models.errors import InvalidInput
from models.hexgrid import Edge, Hex, distance, edge, neighbours
from models.rally import default_goals, desert_exit_probability, entry_cost, start_group

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
RouteStatus = Literal["optimal", "unreachable", "unaffordable"]
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
    >>> from models.catan import beginner_board
    >>> rg = build_graph(beginner_board())
    >>> rg.graph.number_of_nodes(), rg.graph[Hex(0, -3)][Hex(0, -2)]["cards"]
    (37, 10)
    """
    road_set: set[Edge] = set()
    for i, road in enumerate(roads):
        e = edge(*road)
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

    >>> from models.catan import beginner_board
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
    status : "optimal" | "unreachable" | "unaffordable"
        ``optimal``: ``path`` ends on a goal and no route is better for the
        objective (proven: exact shortest path). ``unreachable``: no goal can
        be reached at any price. ``unaffordable``: with ``budget``, no goal is
        affordable; ``path`` then leads to the affordable hex closest to a
        goal (hex distance), cheapest first.
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
        exact = Fraction(str(v)) if isinstance(v, float) else Fraction(v)
        if v != v or v in (float("inf"), float("-inf")) or exact < 0:
            raise InvalidInput(f"values.{r.value}", v, "a finite number >= 0")
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
        (:func:`models.rally.default_goals` of ``group``, itself defaulting to
        :func:`models.rally.start_group`).
    roads : iterable of edges
        The player's own roads (halve the cost of crossing them, rounded up).
    objective : "cards" | "turns" | "expected_turns" | "weighted"
        ``cards``: fewest cards, ties by fewer moves. ``turns``: fewest moves,
        ties by fewer cards. ``expected_turns``: fewest expected turns (each
        desert exit try is a turn; a roll of ``<= n`` succeeds), ties by cards.
        ``weighted``: least total card value (``values``, default 1 per card;
        gold paid in the least valued resource), ties by moves.
    values : mapping resource -> number >= 0
        Card values for ``weighted`` (floats are read exactly from their decimal text).
    budget : mapping resource -> int, optional
        Cards the player can spend (hand plus fuel reserve) per resource: the
        best route payable now, by an exact label-setting search over Pareto
        labels (objective, cards spent per resource). Gold may be paid from
        any one resource; the search tries each.
    group : sequence of (q, r), optional
        The start group used for default goals.

    Returns
    -------
    Route
        ``status`` "optimal", or "unreachable" / "unaffordable" (see :class:`Route`).

    Raises
    ------
    InvalidInput
        Off-board start, a goal off the board or on the sea, an unknown
        objective or resource, a negative value or budget, a bad road.

    Notes
    -----
    All answers are exact shortest paths (Dijkstra; label setting with a
    budget). Ties beyond the stated second key are broken deterministically:
    the same query always returns the same route.

    Examples
    --------
    >>> from models.catan import beginner_board
    >>> r = plan_route(beginner_board(), (0, -3), goals=[(0, 0)])
    >>> r.status, [str(h) for h in r.path], r.total_cards
    ('optimal', ['0,-3', '0,-2', '0,-1', '0,0'], 16)
    """
    if objective not in OBJECTIVES:
        raise InvalidInput("objective", objective, " | ".join(OBJECTIVES))
    if isinstance(board, RallyGraph):
        if list(roads):
            raise InvalidInput(
                "roads", "given with a prebuilt graph", "roads passed to build_graph"
            )
        rg = board
    else:
        rg = build_graph(board, roads)
    start_h = Hex(*start)
    if start_h not in rg.index:
        raise InvalidInput("start", str(start_h), "a hex on the board")
    goal_list = _goal_list(rg, start_h, goals, group)
    weights = _values(values)
    budget_r = _budget(budget) if budget is not None else None
    if budget_r is not None:
        return _plan_with_budget(rg, start_h, goal_list, objective, weights, budget_r)
    if objective in ("cards", "turns"):
        f = cost_field(rg, start_h, "cards" if objective == "cards" else "turns")
        reached = [rg.index[g] for g in goal_list if f.moves[rg.index[g]] >= 0]
        if not reached:
            return _no_route(rg, start_h, goal_list, objective, "unreachable", None)
        key = (
            (lambda i: (f.cards[i], f.moves[i]))
            if objective == "cards"
            else (lambda i: (f.moves[i], f.cards[i]))
        )
        best = min(reached, key=key)  # goal_list order breaks remaining ties
        return _route(
            rg,
            start_h,
            goal_list,
            [rg.hexes[i] for i in f.path_to(best)],
            objective,
            weights,
            "optimal",
            None,
        )
    return _plan_exact_dijkstra(rg, start_h, goal_list, objective, weights)


def _goal_list(
    rg: RallyGraph,
    start: Hex,
    goals: Sequence[tuple[int, int]] | None,
    group: Sequence[tuple[int, int]] | None,
) -> list[Hex]:
    if goals is None:
        if group is not None:
            members = [Hex(*h) for h in group]
            for i, h in enumerate(members):
                if h not in rg.index:
                    raise InvalidInput(f"group[{i}]", str(h), "a hex on the board")
            if start not in members:
                members.insert(0, start)
        else:
            members = start_group(rg.board, start)
        return default_goals(rg.board, members)
    out: list[Hex] = []
    for i, g in enumerate(goals):
        h = Hex(*g)
        if h not in rg.index:
            raise InvalidInput(f"goals[{i}]", str(h), "a hex on the board")
        if not rg.board.terrain(h).is_land:
            raise InvalidInput(f"goals[{i}]", str(h), "a land hex (cars never enter the sea)")
        if h not in out:
            out.append(h)
    if not out:
        raise InvalidInput("goals", [], "at least one goal hex")
    return out


def _arc_cost(
    data: Mapping[str, Any], objective: Objective, values: Mapping[Resource, Fraction]
) -> tuple[Fraction, Resource | None]:
    """Primary cost of one arc for the Fraction-valued objectives, and the resource paid."""
    cards: int = data["cards"]
    resource: Resource | None = data["resource"]
    if objective == "expected_turns":
        return 1 / data["p_exit"], resource
    if objective == "weighted":
        if resource is None and cards:  # gold: pay with the least valued resource
            resource = min(Resource, key=lambda r: (values[r], list(Resource).index(r)))
        return cards * values[resource] if resource else Fraction(0), resource
    if objective == "turns":
        return Fraction(1), resource
    return Fraction(cards), resource


def _plan_exact_dijkstra(
    rg: RallyGraph,
    start: Hex,
    goals: list[Hex],
    objective: Objective,
    values: Mapping[Resource, Fraction],
) -> Route:
    """Dijkstra over exact (Fraction) keys: (objective, cards or moves, moves)."""
    goal_set = set(goals)
    order = rg.index
    best: dict[Hex, tuple[Fraction, int, int]] = {start: (Fraction(0), 0, 0)}
    pred: dict[Hex, Hex] = {}
    done: set[Hex] = set()
    heap: list[tuple[Fraction, int, int, int, Hex]] = [(Fraction(0), 0, 0, order[start], start)]
    succ = rg.graph.succ
    while heap:
        c, k2, k3, _, u = heapq.heappop(heap)
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
            dc, _ = _arc_cost(data, objective, values)
            key = (
                (c + dc, k2 + data["cards"], k3 + 1)
                if objective == "expected_turns"
                else (c + dc, k2 + 1, k3 + data["cards"])
            )
            if v not in best or key < best[v]:
                best[v] = key
                pred[v] = u
                heapq.heappush(heap, (*key, order[v], v))
    return _no_route(rg, start, goals, objective, "unreachable", None)


def _plan_with_budget(
    rg: RallyGraph,
    start: Hex,
    goals: list[Hex],
    objective: Objective,
    values: Mapping[Resource, Fraction],
    budget: Mapping[Resource, int],
) -> Route:
    """Resource-constrained shortest path: label setting over Pareto labels.

    A label is (key, spent per resource, hex, parent label); a label at a hex
    is discarded when an earlier settled label there has key <= and spent <=
    in every resource (it dominates). Labels leave the queue in key order, so
    the first goal label is optimal; only affordable labels are created.
    """
    resources = list(Resource)
    cap = tuple(budget[r] for r in resources)
    goal_set = set(goals)
    settled: dict[Hex, list[tuple[tuple[Fraction, int, int], tuple[int, ...]]]] = {}
    counter = itertools.count()
    Label = tuple[tuple[Fraction, int, int], tuple[int, ...], Hex, int]
    labels: list[Label] = []
    parents: list[int] = []
    heap: list[tuple[tuple[Fraction, int, int], int, int]] = []

    def push(key: tuple[Fraction, int, int], spent: tuple[int, ...], h: Hex, parent: int) -> None:
        labels.append((key, spent, h, parent))
        parents.append(parent)
        heapq.heappush(heap, (key, next(counter), len(labels) - 1))

    push((Fraction(0), 0, 0), (0,) * len(resources), start, -1)
    found: int | None = None
    kept: list[int] = []
    while heap:
        _, _, li = heapq.heappop(heap)
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
            primary, resource = _arc_cost(data, objective, values)
            cards: int = data["cards"]
            payers = [resource] if resource is not None or cards == 0 else resources
            for payer in payers:
                new_spent = list(spent)
                if payer is not None:
                    j = resources.index(payer)
                    new_spent[j] += cards
                    if new_spent[j] > cap[j]:
                        continue
                if objective == "expected_turns":
                    nk = (key[0] + primary, key[1] + cards, key[2] + 1)
                else:
                    nk = (
                        key[0] + primary,
                        key[1] + (cards if objective == "turns" else 1),
                        key[2] + (1 if objective == "turns" else cards),
                    )
                push(nk, tuple(new_spent), v, li)
    budget_out = {r.value: budget[r] for r in resources}
    if found is None:
        field = cost_field(rg, start)
        if all(field.moves[rg.index[g]] < 0 for g in goals):
            return _no_route(rg, start, goals, objective, "unreachable", budget_out)

        # No goal affordable: the affordable hex closest to a goal, cheapest first.
        def closeness(li: int) -> tuple[int, tuple[Fraction, int, int], int]:
            key, _, h, _ = labels[li]
            return (min(distance(h, g) for g in goals), key, rg.index[h])

        found = min(kept, key=closeness)
        status: RouteStatus = "unaffordable"
    else:
        status = "optimal"
    chain = [found]
    while parents[chain[-1]] >= 0:
        chain.append(parents[chain[-1]])
    chain.reverse()
    path = [labels[li][2] for li in chain]
    # The resource each gold step was paid in, read from the spent vectors.
    paid: list[Resource | None] = []
    for a, b in itertools.pairwise(chain):
        diff = [y - x for x, y in zip(labels[a][1], labels[b][1], strict=True)]
        paid.append(next((resources[j] for j, d in enumerate(diff) if d), None))
    return _route(rg, start, goals, path, objective, values, status, budget_out, paid)


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
        _, resource = _arc_cost(data, "weighted" if objective == "weighted" else "cards", values)
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
