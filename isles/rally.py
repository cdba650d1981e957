"""The Catan car rally and the boards it is played on (seed 002_8684547a41c0941c.txt).

The rules as isles reads them are in docs/rally.md, the boards, coordinates and
board files in docs/boards.md; every answer has ``to_dict()`` in the dialect of
docs/json.md.

Routes
    :func:`plan_route` (the best route of a car, for cards, turns, expected
    turns or weighted card values, under a budget or not) returning a
    :class:`Route` of :class:`Step`; :func:`choose_start` (the best start:
    each start group's best car, and the best of all) returning a
    :class:`StartChoice` of :class:`GroupPlan`; :func:`cost_field` (the
    cheapest cost of every hex at once) returning a :class:`CostField`;
    :func:`build_graph` (a :class:`RallyGraph` to plan many routes on one board).
Rules
    :func:`entry_cost` (:class:`EntryCost`), :func:`desert_exit_probability`,
    :func:`rim_sea`, :func:`rim_starts`, :func:`is_rim_start` (all read once
    for many groups by :class:`Rim`),
    :func:`start_group`, :func:`start_groups`, :func:`opposite_starts`,
    :func:`default_goals`, :func:`player_roads`, :func:`card_values`,
    :func:`spending_budget`, :data:`OBJECTIVES`.
Boards
    :class:`Board` of :class:`Tile` (:class:`Terrain`, :class:`Resource`),
    :func:`beginner_board`, the 2d6 odds :func:`roll_probability` and
    :func:`pips`, and the hex grid: :class:`Hex`, :class:`Edge`, :func:`edge`,
    :func:`hexagon`, :func:`ring`, :func:`distance`, :func:`neighbours`.

Examples
--------
>>> from isles import rally
>>> route = rally.plan_route(rally.beginner_board(), (0, -3), objective="expected_turns")
>>> str(route.status), route.total_cards, route.expected_turns
('optimal', 24, Fraction(5, 1))
>>> rally.plan_route(rally.beginner_board(), (1, -1), goals=[(0, 2)]).to_dict()["path"]
[[1, -1], [0, 0], [0, 1], [0, 2]]
>>> choice = rally.choose_start(rally.beginner_board())
>>> str(choice.route.start), choice.route.total_cards
('2,-3', 14)
"""

from isles.models.catan import (
    NUMBER_TOKENS,
    Board,
    Building,
    BuildingKind,
    HarbourKind,
    Resource,
    Terrain,
    Tile,
    beginner_board,
    pips,
    roll_probability,
)
from isles.models.hexgrid import Edge, Hex, distance, edge, hexagon, neighbours, ring
from isles.models.questions.rally import Trip
from isles.models.rally import (
    MAX_CARD_VALUE,
    OBJECTIVES,
    EntryCost,
    Objective,
    Rim,
    card_values,
    default_goals,
    desert_exit_probability,
    entry_cost,
    is_rim_start,
    opposite_starts,
    player_roads,
    rim_sea,
    rim_starts,
    spending_budget,
    start_group,
    start_groups,
)
from isles.solvers.rally import (
    CostField,
    GroupPlan,
    RallyGraph,
    Route,
    StartChoice,
    Step,
    build_graph,
    choose_start,
    choose_trip,
    cost_field,
    plan_route,
    plan_trip,
)

__all__ = [
    "MAX_CARD_VALUE",
    "NUMBER_TOKENS",
    "OBJECTIVES",
    "Board",
    "Building",
    "BuildingKind",
    "CostField",
    "Edge",
    "EntryCost",
    "GroupPlan",
    "HarbourKind",
    "Hex",
    "Objective",
    "RallyGraph",
    "Resource",
    "Rim",
    "Route",
    "StartChoice",
    "Step",
    "Terrain",
    "Tile",
    "Trip",
    "beginner_board",
    "build_graph",
    "card_values",
    "choose_start",
    "choose_trip",
    "cost_field",
    "default_goals",
    "desert_exit_probability",
    "distance",
    "edge",
    "entry_cost",
    "hexagon",
    "is_rim_start",
    "neighbours",
    "opposite_starts",
    "pips",
    "plan_route",
    "plan_trip",
    "player_roads",
    "rim_sea",
    "rim_starts",
    "ring",
    "roll_probability",
    "spending_budget",
    "start_group",
    "start_groups",
]
