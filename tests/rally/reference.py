"""The NetworkX rally planner that the array engine replaced, kept as a test oracle.

``solvers/rally/route.py`` as of commit 1206ed5 (docstrings removed): it builds the
NetworkX graph arc by arc and plans on it. tests/rally/test_rally_engine.py checks the
array engine against it, route by route and graph by graph.
"""

from __future__ import annotations

import dataclasses
import heapq
import itertools
import math
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

import networkx as nx
import numpy as np
import numpy.typing as npt
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

from isles.models.board import Board
from isles.models.catan import Resource, Terrain, Tile
from isles.models.errors import InvalidInput
from isles.models.hexgrid import Edge, Hex, as_hex, distance, edge, neighbours
from isles.models.jsonio import edge_json, exact_text, float_or_none, hex_json, probability_json
from isles.models.rally.rim import default_goals, is_rim_start, start_group
from isles.models.rally.rules import (
    OBJECTIVES,
    Objective,
    card_values,
    desert_exit_probability,
    entry_cost,
    spending_budget,
)
from isles.models.status import Status

ANY = "any"


@dataclass(frozen=True)
class RallyGraph:
    board: Board
    roads: frozenset[Edge]
    graph: nx.DiGraph
    hexes: tuple[Hex, ...]
    index: Mapping[Hex, int]
    _tail: npt.NDArray[np.int64] = field(repr=False)
    _head: npt.NDArray[np.int64] = field(repr=False)
    _cards: npt.NDArray[np.int64] = field(repr=False)

    def packed_csr(self, objective: Literal["cards", "turns"]) -> tuple[int, csr_matrix]:
        cache: dict[str, tuple[int, csr_matrix]] = self.__dict__.setdefault("_csr_cache", {})
        if objective not in cache:
            n = len(self.hexes)
            if objective == "cards":
                base, weight = (n + 1, self._cards * (n + 1) + 1)
            else:
                base = 12 * n + 1
                weight = self._cards + base
            matrix = csr_matrix((weight.astype(np.float64), (self._tail, self._head)), shape=(n, n))
            cache[objective] = (base, matrix)
        return cache[objective]


def build_graph(board: Board, roads: Iterable[Edge | tuple[Any, Any]] = ()) -> RallyGraph:
    road_set: set[Edge] = set()
    for i, road in enumerate(roads):
        where = f"roads[{i}]"
        if not (isinstance(road, tuple | list) and len(road) == 2):
            raise InvalidInput(where, road, "an edge: a pair of adjacent hexes")
        a, b = (as_hex(road[0], where), as_hex(road[1], where))
        if distance(a, b) != 1:
            raise InvalidInput(where, f"{a}:{b}", "an edge: a pair of adjacent hexes")
        e = edge(a, b)
        for h in e:
            if h not in board:
                raise InvalidInput(where, str(e), "an edge between two hexes on the board")
        road_set.add(e)
    hexes = tuple(board)
    index = {h: i for i, h in enumerate(hexes)}
    g = nx.DiGraph()
    for h, tile in board.tiles.items():
        g.add_node(h, terrain=tile.terrain, number=tile.number)
    arcs: list[tuple[Hex, Hex, dict[str, Any]]] = []
    tiles = board.tiles
    certain = Fraction(1)
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
    objective: Literal["cards", "turns"]
    start: Hex
    hexes: tuple[Hex, ...]
    cards: npt.NDArray[np.int64]
    moves: npt.NDArray[np.int64]
    predecessor: npt.NDArray[np.int64]

    @property
    def status(self) -> Status:
        return Status.OPTIMAL

    def cost(self, h: tuple[int, int]) -> tuple[int, int] | None:
        i = self._position(h)
        if self.moves[i] < 0:
            return None
        return (int(self.cards[i]), int(self.moves[i]))

    def path_to(self, target: int) -> list[int]:
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
            "hex": hex_json(self.hex),
            "terrain": self.terrain.value,
            "number": self.number,
            "resource": self.resource.value if self.resource else ANY if self.cards else None,
            "cards": self.cards,
            "halved": self.halved,
            **probability_json("exit_probability", self.exit_probability),
            **probability_json("expected_turns", self.expected_turns),
        }


@dataclass(frozen=True)
class Route:
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
        return self.status is Status.OPTIMAL

    @property
    def end(self) -> Hex | None:
        return None if self.path is None else self.path[-1]

    @property
    def distance_to_goal(self) -> int | None:
        end = self.end
        return None if end is None else min(distance(end, g) for g in self.goals)

    def to_dict(self) -> dict[str, Any]:
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
    if objective not in OBJECTIVES:
        raise InvalidInput("objective", objective, " | ".join(OBJECTIVES))
    if values is not None and objective != "weighted":
        raise InvalidInput("values", dict(values), "card values only with objective 'weighted'")
    if time_limit is not None and (
        isinstance(time_limit, bool)
        or not isinstance(time_limit, int | float)
        or (not math.isfinite(time_limit))
        or (time_limit <= 0)
    ):
        raise InvalidInput("time_limit", time_limit, "a number of seconds > 0, or None")
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
    weights = card_values(values)
    if budget is not None:
        budget_r = spending_budget(budget)
        route = _plan_with_budget(rg, start_h, goal_list, objective, weights, budget_r, time_limit)
        return dataclasses.replace(route, time_limit=time_limit)
    if objective in ("cards", "turns"):
        return _plan_on_csr(rg, start_h, goal_list, objective, weights)
    return _plan_exact_dijkstra(rg, start_h, goal_list, objective, weights)


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
            if start not in members and (not rg.board.terrain(start).is_land):
                members.insert(0, start)
        elif is_rim_start(rg.board, start):
            members = start_group(rg.board, start)
        else:
            raise InvalidInput(
                "goals",
                None,
                "goal hexes, or the start group to take the default goals from "
                "(docs/rally.md, 'Default goals')",
                problem=f"required, since the start {start} is not a rim start "
                "(a sea hex on the board's rim next to land)",
            )
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
    cards = Fraction(data["cards"])
    turns = 1 / data["p_exit"]
    one = Fraction(1)
    if objective == "cards":
        return (cards, one, turns)
    if objective == "turns":
        return (one, cards, turns)
    if objective == "expected_turns":
        return (turns, cards, one)
    resource: Resource | None = data["resource"]
    if resource is None and cards:
        resource = payer or _cheapest_resource(values)
    return (cards * values[resource] if resource else Fraction(0), one, turns)


def _add(a: Key, b: Key) -> Key:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def _plan_on_csr(
    rg: RallyGraph,
    start: Hex,
    goals: list[Hex],
    objective: Literal["cards", "turns"],
    values: Mapping[Resource, Fraction],
) -> Route:
    f = cost_field(rg, start, objective)
    reached = [rg.index[g] for g in goals if f.moves[rg.index[g]] >= 0]
    if not reached:
        return _no_route(rg, start, goals, objective, Status.UNREACHABLE, None)

    def two_keys(i: int) -> tuple[int, int]:
        c, m = (int(f.cards[i]), int(f.moves[i]))
        return (c, m) if objective == "cards" else (m, c)

    best = min(two_keys(i) for i in reached)
    tied = [i for i in reached if two_keys(i) == best]
    index, hexes, succ_pred = (rg.index, rg.hexes, rg.graph.pred)
    members: set[int] = set(tied)
    stack = list(tied)
    while stack:
        v = stack.pop()
        for u_hex, data in succ_pred[hexes[v]].items():
            u = index[u_hex]
            if (
                u not in members
                and f.moves[u] >= 0
                and (f.moves[u] + 1 == f.moves[v])
                and (f.cards[u] + data["cards"] == f.cards[v])
            ):
                members.add(u)
                stack.append(u)
    expected: dict[int, Fraction] = {}
    parent: dict[int, int] = {}
    for v in sorted(members, key=lambda i: (int(f.moves[i]), i)):
        if hexes[v] == start:
            expected[v] = Fraction(0)
            continue
        options = [
            (expected[index[u_hex]] + 1 / data["p_exit"], index[u_hex])
            for u_hex, data in succ_pred[hexes[v]].items()
            if index[u_hex] in expected
            and f.moves[index[u_hex]] + 1 == f.moves[v]
            and (f.cards[index[u_hex]] + data["cards"] == f.cards[v])
        ]
        expected[v], parent[v] = min(options)
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
            return _route(rg, start, goals, path[::-1], objective, values, Status.OPTIMAL, None)
        for v, data in succ[u].items():
            if v in done:
                continue
            new = _add(key, _arc_key(data, objective, values))
            if v not in best or (new, order[u]) < (best[v], order[pred.get(v, v)]):
                best[v] = new
                pred[v] = u
                heapq.heappush(heap, (new, order[v], v))
    return _no_route(rg, start, goals, objective, Status.UNREACHABLE, None)


def _lower_bounds(
    rg: RallyGraph, goals: list[Hex], objective: Objective, values: Mapping[Resource, Fraction]
) -> dict[Hex, Fraction]:
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
    resources = list(Resource)
    cap = tuple(budget[r] for r in resources)
    budget_out = {r.value: budget[r] for r in resources}
    bound = _lower_bounds(rg, goals, objective, values)
    if start not in bound:
        return _no_route(rg, start, goals, objective, Status.UNREACHABLE, budget_out)
    if objective == "cards" or objective == "turns":
        free = _plan_on_csr(rg, start, goals, objective, values)
    else:
        free = _plan_exact_dijkstra(rg, start, goals, objective, values)
    assert free.path is not None and free.cards is not None
    if ANY not in free.cards and all(free.cards.get(r.value, 0) <= budget[r] for r in resources):
        return _route(
            rg, start, goals, list(free.path), objective, values, Status.OPTIMAL, budget_out
        )
    deadline = None if time_limit is None else time.monotonic() + time_limit
    goal_set = set(goals)
    settled: dict[Hex, list[tuple[Key, tuple[int, ...]]]] = {}
    labels: list[tuple[Key, tuple[int, ...], Hex, int]] = []
    heap: list[tuple[Fraction, Key, int, int]] = []
    counter = itertools.count()

    def push(key: Key, spent: tuple[int, ...], h: Hex, parent: int) -> None:
        labels.append((key, spent, h, parent))
        if h in bound:
            heapq.heappush(heap, (key[0] + bound[h], key, next(counter), len(labels) - 1))
        else:
            heapq.heappush(heap, (key[0] + _FAR, key, next(counter), len(labels) - 1))

    push(ZERO_KEY, (0,) * len(resources), start, -1)
    found: int | None = None
    kept: list[int] = []
    pops = 0
    while heap:
        pops += 1
        if deadline is not None and pops % 512 == 0 and (time.monotonic() > deadline):
            return _no_route(rg, start, goals, objective, Status.TIMED_OUT, budget_out)
        _, _, _, li = heapq.heappop(heap)
        key, spent, u, _ = labels[li]
        here = settled.setdefault(u, [])
        if any(
            (k <= key and all((a <= b for a, b in zip(s, spent, strict=True))) for k, s in here)
        ):
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

        def closeness(li: int) -> tuple[int, Key, int]:
            key, _, h, _ = labels[li]
            return (min(distance(h, g) for g in goals), key, rg.index[h])

        found = min(kept, key=closeness)
        status = Status.UNAFFORDABLE
    else:
        status = Status.OPTIMAL
    chain = [found]
    while labels[chain[-1]][3] >= 0:
        chain.append(labels[chain[-1]][3])
    chain.reverse()
    path = [labels[li][2] for li in chain]
    paid: list[Resource | None] = []
    for a, b in itertools.pairwise(chain):
        diff = [y - x for x, y in zip(labels[a][1], labels[b][1], strict=True)]
        paid.append(next((resources[j] for j, d in enumerate(diff) if d), None))
    return _route(rg, start, goals, path, objective, values, status, budget_out, paid)


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
        data = rg.graph[u][v]
        resource: Resource | None = data["resource"]
        if resource is None and data["cards"] and (objective == "weighted"):
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
