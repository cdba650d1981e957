"""A car's best route it can pay for now: the budget search.

Implements docs/rally.md ("Card values and budgets"; seed 002_8684547a41c0941c.txt):
a resource-constrained shortest path, by label setting over Pareto labels (keys,
cards spent per resource) ordered as in A* by exact lower bounds, within a time
limit (:class:`isles.solvers.work.Deadline`).

References
----------
.. [1] P. E. Hart, N. J. Nilsson, B. Raphael, "A formal basis for the heuristic
   determination of minimum cost paths", IEEE Transactions on Systems Science
   and Cybernetics 4(2), 100-107, 1968 (A*).
.. [2] S. Irnich, G. Desaulniers, "Shortest path problems with resource
   constraints", in Column Generation, Springer, 33-65, 2005 (label setting
   over Pareto labels).
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from isles.models.catan import Resource
from isles.models.hexgrid import Hex, distance
from isles.models.rally.rules import Objective
from isles.models.status import Status
from isles.solvers.rally.graph import RallyGraph
from isles.solvers.rally.route import (
    ANY,
    ZERO_KEY,
    Key,
    Route,
    add_keys,
    arc_key,
    no_route,
    route_along,
)
from isles.solvers.rally.shortest import plan_exact_dijkstra, plan_on_csr
from isles.solvers.work import Deadline, Progress

__all__ = ["lower_bounds", "plan_with_budget"]

RESOURCES: tuple[Resource, ...] = tuple(Resource)
#: Priority offset for labels on hexes that cannot reach any goal: explored last.
_FAR = Fraction(10**18)
#: Labels taken from the queue between two looks at the clock.
_CHECK_EVERY = 512


def lower_bounds(
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
        for arc in rg.arcs_into(v):
            if arc.tail not in dist:
                heapq.heappush(heap, (d + arc_key(arc, objective, values)[0], arc.tail))
    return dist


@dataclass
class _Labels:
    """The labels of one budget search: (keys, cards spent per resource, hex, parent label),
    the queue ordered by first key plus lower bound, and the labels settled at each hex."""

    bound: dict[int, Fraction]
    labels: list[tuple[Key, tuple[int, ...], int, int]] = field(default_factory=list)
    heap: list[tuple[Fraction, Key, int, int]] = field(default_factory=list)
    settled: dict[int, list[tuple[Key, tuple[int, ...]]]] = field(default_factory=dict)
    kept: list[int] = field(default_factory=list)
    counter: itertools.count[int] = field(default_factory=itertools.count)

    def push(self, key: Key, spent: tuple[int, ...], h: int, parent: int) -> None:
        """A new label; a hex that cannot reach a goal still counts for "closest"."""
        self.labels.append((key, spent, h, parent))
        ahead = self.bound.get(h, _FAR)
        heapq.heappush(self.heap, (key[0] + ahead, key, next(self.counter), len(self.labels) - 1))

    def settle(self) -> int | None:
        """The next label not dominated by one settled at its hex (None: dominated)."""
        _, _, _, li = heapq.heappop(self.heap)
        key, spent, u, _ = self.labels[li]
        here = self.settled.setdefault(u, [])
        if any(k <= key and all(a <= b for a, b in zip(s, spent, strict=True)) for k, s in here):
            return None
        here.append((key, spent))
        self.kept.append(li)
        return li

    def chain(self, last: int) -> list[int]:
        """The labels from the start to ``last``."""
        out = [last]
        while self.labels[out[-1]][3] >= 0:
            out.append(self.labels[out[-1]][3])
        return out[::-1]


def plan_with_budget(
    rg: RallyGraph,
    start: Hex,
    goals: list[Hex],
    objective: Objective,
    values: Mapping[Resource, Fraction],
    budget: Mapping[Resource, int],
    time_limit: float | None,
    progress: Progress = False,
) -> Route:
    """Resource-constrained shortest path: A* label setting over Pareto labels.

    A label is (keys, cards spent per resource, hex, parent label). Labels
    leave the queue by (first key + exact lower bound to a goal, keys), so the
    first goal label is optimal; a label at a hex is dropped when a label
    settled there earlier has keys <= and spends <= in every resource (it
    dominates). Only affordable labels are made. When no goal is affordable
    the search runs to exhaustion to find the affordable hex closest to a goal.
    ``progress`` shows the seconds spent against ``time_limit`` (no bar without one).
    """
    budget_out = {r.value: budget[r] for r in RESOURCES}
    bound = lower_bounds(rg, goals, objective, values)
    if rg.index[start] not in bound:
        return no_route(rg, start, goals, objective, Status.UNREACHABLE, budget_out)
    # Cheap first answer: the unconstrained best route, when it is affordable as it stands.
    if objective == "cards" or objective == "turns":
        free = plan_on_csr(rg, start, goals, objective, values)
    else:
        free = plan_exact_dijkstra(rg, start, goals, objective, values)
    assert free.path is not None and free.cards is not None  # the start reaches a goal
    if ANY not in free.cards and all(free.cards.get(r.value, 0) <= budget[r] for r in RESOURCES):
        path = list(free.path)
        return route_along(rg, start, goals, path, objective, values, Status.OPTIMAL, budget_out)
    search = _Labels(bound)
    search.push(ZERO_KEY, (0,) * len(RESOURCES), rg.index[start], -1)
    deadline = Deadline(time_limit)
    with deadline.bar("budget search", progress) as bar:
        found = _search(
            rg, goals, objective, values, budget, search, deadline, lambda: deadline.tick(bar)
        )
    if found is None:
        return no_route(rg, start, goals, objective, Status.TIMED_OUT, budget_out)
    status = Status.OPTIMAL
    if found < 0:
        # No goal affordable: the affordable hex closest to a goal, best keys first.
        def closeness(li: int) -> tuple[int, Key, int]:
            key, _, h, _ = search.labels[li]
            return (min(distance(rg.hexes[h], g) for g in goals), key, h)

        found = min(search.kept, key=closeness)
        status = Status.UNAFFORDABLE
    chain = search.chain(found)
    path = [rg.hexes[search.labels[li][2]] for li in chain]
    # The resource each gold step was paid in, read from the spent vectors.
    paid: list[Resource | None] = []
    for a, b in itertools.pairwise(chain):
        diff = [y - x for x, y in zip(search.labels[a][1], search.labels[b][1], strict=True)]
        paid.append(next((RESOURCES[j] for j, d in enumerate(diff) if d), None))
    return route_along(rg, start, goals, path, objective, values, status, budget_out, paid)


def _search(
    rg: RallyGraph,
    goals: list[Hex],
    objective: Objective,
    values: Mapping[Resource, Fraction],
    budget: Mapping[Resource, int],
    search: _Labels,
    deadline: Deadline,
    tick: Callable[[], None],
) -> int | None:
    """Settle labels until a goal's (its label), no label is left (-1), or the time is up (None)."""
    cap = tuple(budget[r] for r in RESOURCES)
    goal_set = {rg.index[g] for g in goals}
    pops = 0
    while search.heap:
        pops += 1
        if pops % _CHECK_EVERY == 0:
            tick()
            if deadline.passed():
                return None
        li = search.settle()
        if li is None:
            continue
        key, spent, u, _ = search.labels[li]
        if u in goal_set:
            return li
        for arc in rg.arcs_from(u):
            gold = arc.resource is None and arc.cards
            for payer in RESOURCES if gold else (arc.resource,):
                new_spent = list(spent)
                if payer is not None:
                    j = RESOURCES.index(payer)
                    new_spent[j] += arc.cards
                    if new_spent[j] > cap[j]:
                        continue
                new_key = add_keys(key, arc_key(arc, objective, values, payer))
                search.push(new_key, tuple(new_spent), arc.head, li)
    return -1
