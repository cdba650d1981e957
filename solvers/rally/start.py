"""The best start of a car: every start group of the board, its best car, the best of all.

Implements docs/rally.md ("The best start", "Start groups and goals"; seed
002_8684547a41c0941c.txt) for a :class:`~isles.models.rally.questions.Trip`
without a start: one route per car and group, a car's cost field shared by the
groups it stands in, within the trip's time limit.

References
----------
.. [1] E. W. Dijkstra, "A note on two problems in connexion with graphs",
   Numerische Mathematik 1, 269-271, 1959.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from isles.models.errors import InvalidInput
from isles.models.hexgrid import Hex
from isles.models.jsonio import hex_json
from isles.models.rally.questions import Trip
from isles.models.rally.rim import GROUP_SIZE, Rim
from isles.models.rally.rules import Objective
from isles.models.status import Status
from isles.solvers.rally.field import CostField, cost_field
from isles.solvers.rally.graph import RallyGraph
from isles.solvers.rally.planner import plan_on, trip_graph, trip_values
from isles.solvers.rally.route import Route
from isles.solvers.work import Bar, Deadline, Progress

__all__ = ["GroupPlan", "StartChoice", "best_start", "route_rank"]


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
    >>> from isles.rally import beginner_board, choose_start
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
        >>> from isles.rally import beginner_board, choose_start
        >>> d = choose_start(beginner_board()).groups[0].to_dict()
        >>> d["group"], d["route"]["start"], d["route"]["goals"]
        ([[3, 0], [3, -1], [3, -2], [3, -3]], [3, 0], [[-2, 0], [-2, 1], [-2, 2]])
        """
        return {"group": [hex_json(h) for h in self.group], "route": self.route.to_dict()}


@dataclass(frozen=True)
class StartChoice:
    """The best start on a board: each start group's best car, and the best of all.

    The answer of :func:`isles.rally.choose_start` (docs/rally.md, "The best start").

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
    >>> from isles.rally import beginner_board, choose_start
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
        >>> from isles.rally import beginner_board, choose_start
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


def route_rank(route: Route) -> tuple[Any, ...] | None:
    """How good a route is, smaller first, for the best start: reaching a goal
    first, then (unaffordable routes) the distance left to a goal, then the three
    keys of the objective (as :func:`isles.rally.plan_route` orders routes); None: no route."""
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


def best_start(trip: Trip, *, progress: Progress = False) -> StartChoice:
    """The best start a validated :class:`Trip` without a start asks for
    (:func:`isles.rally.choose_start`).

    Parameters
    ----------
    trip : Trip
        The question, its ``start`` not given.
    progress : bool, None or callable
        A bar over the start groups (:mod:`isles.solvers.work`): True on stderr
        at once, None on a terminal after a second, False none.

    Returns
    -------
    StartChoice

    Raises
    ------
    InvalidInput
        As :func:`isles.rally.choose_start`.

    Examples
    --------
    >>> from isles.models.board import beginner_board
    >>> best_start(Trip.read({"board": beginner_board()})).route.total_cards
    14
    """
    if trip.start is not None:
        raise InvalidInput("start", str(trip.start), "no start: the best start is the question")
    deadline = Deadline(trip.time_limit)
    rg = trip_graph(trip)
    rim = Rim(rg.board)  # read once for every group
    groups = _start_groups(trip, rg, rim)
    fields: dict[Hex, CostField] = {}  # a car's cost field serves each group it is in
    plans: list[GroupPlan] = []
    with Bar(len(groups), "start groups", progress, unit="group") as bar:
        for members in groups:
            plan = _best_car(trip, rg, members, rim.goals(members), fields, deadline)
            if plan is None:
                return StartChoice(
                    Status.TIMED_OUT, trip.objective, tuple(plans), None, trip.time_limit
                )
            plans.append(plan)
            bar.update(1)
    ranked = [(rank, i) for i, p in enumerate(plans) if (rank := route_rank(p.route)) is not None]
    if not ranked:
        return StartChoice(Status.UNREACHABLE, trip.objective, tuple(plans), None, trip.time_limit)
    best = min(ranked)[1]
    status = Status.OPTIMAL if plans[best].route.reached else Status.UNAFFORDABLE
    return StartChoice(status, trip.objective, tuple(plans), best, trip.time_limit)


def _start_groups(trip: Trip, rg: RallyGraph, rim: Rim) -> list[list[Hex]]:
    """The groups to search: the trip's own, or every start group of the board."""
    if trip.group is not None:  # sea hexes of the board: the question checked them
        return [list(dict.fromkeys(trip.group))]
    groups = rim.groups()
    if not groups:
        raise InvalidInput(
            "board",
            "no rim start",
            "a board with sea on its rim next to land, where the cars start "
            "(or give the start and the goals)",
        )
    return groups


def _best_car(
    trip: Trip,
    rg: RallyGraph,
    members: list[Hex],
    goals: list[Hex],
    fields: dict[Hex, CostField],
    deadline: Deadline,
) -> GroupPlan | None:
    """The best car of one group (None: the time ran out first)."""
    objective, budget = trip.objective, trip.budget
    routes = []
    for car in members:
        if deadline.passed():
            return None
        field = None
        if budget is None and (objective == "cards" or objective == "turns"):
            if car not in fields:
                if len(fields) > 2 * GROUP_SIZE:
                    del fields[next(iter(fields))]
                fields[car] = cost_field(rg, car, objective)
            field = fields[car]
        left = deadline.left()
        route = plan_on(rg, car, goals, objective, trip_values(trip), budget, left, field)
        if route.status is Status.TIMED_OUT:
            return None
        routes.append(route)
    ranked = [(rank, i) for i, r in enumerate(routes) if (rank := route_rank(r)) is not None]
    best = min(ranked)[1] if ranked else 0
    limit = None if budget is None else trip.time_limit  # a route's limit: its budget search's
    return GroupPlan(tuple(members), replace(routes[best], time_limit=limit))
