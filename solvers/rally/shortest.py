"""A car's best route without a budget: Dijkstra on the graph, exact to the last tie.

Implements docs/rally.md ("What the planner minimises"; seed
002_8684547a41c0941c.txt): the integer objectives on the cost field (SciPy
csgraph), the least expected turns among its tied routes by dynamic programming;
the other objectives by Dijkstra over exact Fraction keys.

References
----------
.. [1] E. W. Dijkstra, "A note on two problems in connexion with graphs",
   Numerische Mathematik 1, 269-271, 1959.
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping
from fractions import Fraction
from typing import Literal

import numpy as np

from isles.models.catan import Resource
from isles.models.hexgrid import Hex
from isles.models.rally.rules import Objective
from isles.models.status import Status
from isles.solvers.rally.field import CostField, cost_field
from isles.solvers.rally.graph import Arc, RallyGraph
from isles.solvers.rally.route import ZERO_KEY, Key, Route, add_keys, arc_key, no_route, route_along

__all__ = ["plan_exact_dijkstra", "plan_on_csr"]


def plan_on_csr(
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
        return no_route(rg, start, goals, objective, Status.UNREACHABLE, None)

    def two_keys(i: int) -> tuple[int, int]:
        c, m = int(f.cards[i]), int(f.moves[i])
        return (c, m) if objective == "cards" else (m, c)

    best = min(two_keys(i) for i in reached)
    tied = [i for i in reached if two_keys(i) == best]
    # The tight arcs (on some best route to their head), found in bulk, grouped by head.
    tail, head = rg.tail, rg.head
    tight = np.flatnonzero(
        (f.moves[tail] >= 0)
        & (f.moves[head] == f.moves[tail] + 1)
        & (f.cards[head] == f.cards[tail] + rg.arc_cards)
    )
    tight = tight[np.argsort(head[tight], kind="stable")]
    tight_heads = head[tight]

    def tight_into(v: int) -> list[int]:
        lo, hi = np.searchsorted(tight_heads, [v, v + 1])
        arcs: list[int] = tight[lo:hi].tolist()
        return arcs

    # The DAG of the tight arcs that lead to a tied goal.
    members: set[int] = set(tied)
    stack = list(tied)
    into: dict[int, list[Arc]] = {}
    while stack:
        v = stack.pop()
        into[v] = [rg.arc(a) for a in tight_into(v)]
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
    return route_along(
        rg,
        start,
        goals,
        [hexes[i] for i in reversed(path)],
        objective,
        values,
        Status.OPTIMAL,
        None,
    )


def plan_exact_dijkstra(
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
            return route_along(rg, start, goals, hexes, objective, values, Status.OPTIMAL, None)
        for arc in rg.arcs_from(u):
            v = arc.head
            if v in done:
                continue
            new = add_keys(key, arc_key(arc, objective, values))
            if v not in best or (new, u) < (best[v], pred.get(v, v)):
                best[v] = new
                pred[v] = u
                heapq.heappush(heap, (new, v))
    return no_route(rg, start, goals, objective, Status.UNREACHABLE, None)
