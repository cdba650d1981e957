"""One car's best route, the question read: its graph, its goals, each objective to its core.

Implements docs/rally.md ("What the planner minimises", "Start groups and goals";
seed 002_8684547a41c0941c.txt) for a :class:`~isles.models.rally.questions.Trip`
with a start: the roads and the graph, the goals given or by default, then
Dijkstra (:mod:`~isles.solvers.rally.shortest`) or the budget search
(:mod:`~isles.solvers.rally.budget`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from fractions import Fraction

from isles.models.board import Board
from isles.models.catan import Resource
from isles.models.errors import InvalidInput
from isles.models.hexgrid import Edge, Hex
from isles.models.rally.questions import Trip
from isles.models.rally.rim import default_goals, start_group
from isles.models.rally.rules import Objective, card_values, player_roads
from isles.solvers.rally.budget import plan_with_budget
from isles.solvers.rally.field import CostField
from isles.solvers.rally.graph import RallyGraph, Road, build_graph
from isles.solvers.rally.route import Route
from isles.solvers.rally.shortest import plan_exact_dijkstra, plan_on_csr
from isles.solvers.work import Progress

__all__ = ["goal_list", "plan_on", "route_of", "trip_graph", "trip_values"]


def route_of(trip: Trip, *, progress: Progress = None) -> Route:
    """The route a validated :class:`Trip` with a start asks for (:func:`isles.rally.plan_route`).

    Parameters
    ----------
    trip : Trip
        The question, read by :meth:`Trip.read` (or built by ``Trip.ask``).
    progress : bool, None or callable
        A bar on stderr while a budget search runs (seconds against its time
        limit): True shows it, False never, None on a terminal once the search
        has taken a second (:mod:`isles.solvers.work`).

    Returns
    -------
    Route

    Raises
    ------
    InvalidInput
        As :func:`isles.rally.plan_route`: what only the board can say (a start
        or a goal off the board, a road that is no side of it).

    Examples
    --------
    >>> from isles.models.board import beginner_board
    >>> route_of(Trip.read({"board": beginner_board(), "start": (0, -3)})).total_cards
    24
    """
    if trip.start is None:
        raise InvalidInput("start", None, "the car's hex", problem="missing")
    rg = trip_graph(trip)
    start = trip.start  # on the board, as its goals and group: the question checked them
    goals = goal_list(rg, start, trip.goals, trip.group)
    limit = trip.time_limit if trip.budget is not None else None
    return plan_on(
        rg, start, goals, trip.objective, trip_values(trip), trip.budget, limit, progress=progress
    )


def trip_values(trip: Trip) -> dict[Resource, Fraction]:
    """The card values of a trip: its own, else 1 each."""
    return trip.values if trip.values is not None else card_values(None)


def trip_graph(trip: Trip) -> RallyGraph:
    """The graph to plan on: a prebuilt one (then no roads), or the board's with the
    trip's roads and the player's own on the board."""
    roads: list[Edge] = list(trip.roads)
    board: Board | RallyGraph = trip.board
    if trip.player is not None:
        named = board.board if isinstance(board, RallyGraph) else board
        roads += [e for e in player_roads(named, trip.player) if e not in roads]
    return _graph_of(board, roads)


def _graph_of(board: Board | RallyGraph, roads: Iterable[Road]) -> RallyGraph:
    if isinstance(board, RallyGraph):
        if list(roads):
            raise InvalidInput(
                "roads", "given with a prebuilt graph", "roads passed to build_graph"
            )
        return board
    return build_graph(board, roads)


def plan_on(
    rg: RallyGraph,
    start: Hex,
    goals: list[Hex],
    objective: Objective,
    weights: Mapping[Resource, Fraction],
    budget: Mapping[Resource, int] | None,
    time_limit: float | None,
    field: CostField | None = None,
    progress: Progress = False,
) -> Route:
    """The one dispatch of every planner: each objective to its core.

    ``field`` is the cost field from ``start`` for the objective, when the caller
    has it (the best start reuses a car's field for each of its groups).
    """
    if budget is not None:
        route = plan_with_budget(rg, start, goals, objective, weights, budget, time_limit, progress)
        return dataclasses.replace(route, time_limit=time_limit)
    if objective == "cards" or objective == "turns":
        return plan_on_csr(rg, start, goals, objective, weights, field)
    return plan_exact_dijkstra(rg, start, goals, objective, weights)


def goal_list(
    rg: RallyGraph, start: Hex, goals: list[Hex] | None, group: list[Hex] | None
) -> list[Hex]:
    """The goals of a trip: those given (each once, on the board's land), else the
    default goals of ``group`` or of the start's own start group."""
    if goals is None:
        if group is None:  # the question checked that the start is a rim start
            return default_goals(rg.board, start_group(rg.board, start))
        # A car still on the sea stands in its group; one under way does not.
        members = list(group)
        if start not in members and not rg.board.terrain(start).is_land:
            members.insert(0, start)
        return default_goals(rg.board, members)
    return list(dict.fromkeys(goals))
