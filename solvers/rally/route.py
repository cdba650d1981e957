"""A car's route as an answer: its steps, its totals, and the three keys routes are ordered by.

Implements docs/rally.md ("What the planner minimises", "Answers"; seed
002_8684547a41c0941c.txt): the :class:`Route` every planner of the rally returns,
built from a path on the graph, and the exact keys of a move for each objective.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from isles.models.catan import Resource, Terrain
from isles.models.hexgrid import Edge, Hex, distance
from isles.models.jsonio import edge_json, exact_text, float_or_none, hex_json, probability_json
from isles.models.rally.rules import Objective
from isles.models.status import Status
from isles.solvers.rally.graph import Arc, RallyGraph

__all__ = [
    "ANY",
    "ZERO_KEY",
    "Key",
    "Route",
    "Step",
    "add_keys",
    "arc_key",
    "cheapest_resource",
    "no_route",
    "route_along",
]

ANY = "any"  # key of gold cards, payable in any single resource


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
    >>> from isles.rally import beginner_board, plan_route
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
        >>> from isles.rally import beginner_board, plan_route
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
    >>> from isles.rally import beginner_board, plan_route
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
        >>> from isles.models.board import Board
        >>> from isles.models.catan import Tile, Terrain
        >>> from isles.rally import plan_route
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


Key = tuple[Fraction, Fraction, Fraction]
ZERO_KEY: Key = (Fraction(0), Fraction(0), Fraction(0))


def cheapest_resource(values: Mapping[Resource, Fraction]) -> Resource:
    """The resource of least card value (ties: the first in resource order): gold's payer."""
    return min(Resource, key=lambda r: (values[r], list(Resource).index(r)))


def arc_key(
    arc: Arc,
    objective: Objective,
    values: Mapping[Resource, Fraction],
    payer: Resource | None = None,
) -> Key:
    """The three keys (see :func:`isles.rally.plan_route`) of one move; ``payer`` pays for gold."""
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
        resource = payer or cheapest_resource(values)
    return (cards * values[resource] if resource else Fraction(0)), one, turns


def add_keys(a: Key, b: Key) -> Key:
    """The keys of two moves, one after the other."""
    return a[0] + b[0], a[1] + b[1], a[2] + b[2]


def route_along(
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
    """The route along ``path`` (hexes, start first), its steps and totals.

    ``paid`` names the resource each gold step was paid in (a budget search's
    choice); without it gold is paid in the cheapest resource for ``weighted``,
    else in any (``"any"``).
    """
    steps: list[Step] = []
    cards: dict[str, int] = {}
    for i, (u, v) in enumerate(itertools.pairwise(path)):
        arc = rg.arc_between(rg.index[u], rg.index[v])
        resource = arc.resource
        if resource is None and arc.cards and objective == "weighted":
            resource = cheapest_resource(values)
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


def no_route(
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
