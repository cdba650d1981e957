"""The Catan car rally and the boards it is played on (seed 002_8684547a41c0941c.txt).

The rules as isles reads them are in docs/rally.md, the boards, coordinates and
board files in docs/boards.md; every answer has ``to_dict()`` in the dialect of
docs/json.md. This catalogue lists what a user calls; the rules and the engine
behind it stay reachable under :mod:`isles.models.rally.rules`,
:mod:`isles.models.hexgrid` and :mod:`isles.solvers.rally.route`.

Routes
    :func:`plan_route` (the best route of a car, for cards, turns, expected
    turns or weighted card values, under a budget or not) returning a
    :class:`Route` of :class:`Step`; :func:`choose_start` (the best start:
    each start group's best car, and the best of all) returning a
    :class:`StartChoice` of :class:`GroupPlan`; :func:`cost_field` (the
    cheapest cost of every hex at once) returning a :class:`CostField`.
The rally as it is played
    :func:`plan_income` (fewest expected turns when the cards come in roll by
    roll from the player's buildings; P(arrived within t); the turn's advice)
    returning an :class:`IncomePlan` of :class:`TurnAdvice`; its declaration
    :class:`Drive`, answered by :func:`plan_drive`. :func:`race_cars` (two to
    four cars under the same rolls: each one's chance of arriving first, exact
    where the cars' joint chain fits, else Monte Carlo with 95% intervals)
    returning a :class:`RaceResult` of :class:`RaceCar`; its declaration
    :class:`Race` (of :class:`Car`), answered by :func:`plan_race`.
The question
    :class:`Trip`, the one declaration of a route's or a start's parameters
    (docs/json.md, "Questions"), answered by :func:`plan_trip` and
    :func:`choose_trip`; :data:`OBJECTIVES`.
Boards
    :class:`Board` of :class:`Tile` (:class:`Terrain`, :class:`Resource`),
    harbours (:class:`HarbourKind`), buildings (:class:`Building`,
    :class:`BuildingKind`) and roads (:class:`Edge` between two :class:`Hex`),
    :func:`beginner_board`, and the start groups and their goals
    (:func:`start_groups`, :func:`default_goals`, :func:`player_roads`).

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
    Board,
    Building,
    BuildingKind,
    HarbourKind,
    Resource,
    Terrain,
    Tile,
    beginner_board,
)
from isles.models.hexgrid import Edge, Hex
from isles.models.rally.questions import Car, Drive, Race, Trip
from isles.models.rally.rules import OBJECTIVES, default_goals, player_roads, start_groups
from isles.solvers.rally.income import IncomePlan, TurnAdvice, plan_drive, plan_income
from isles.solvers.rally.race import RaceCar, RaceResult, plan_race, race_cars
from isles.solvers.rally.route import (
    CostField,
    GroupPlan,
    Route,
    StartChoice,
    Step,
    choose_start,
    choose_trip,
    cost_field,
    plan_route,
    plan_trip,
)

__all__ = [
    "OBJECTIVES",
    "Board",
    "Building",
    "BuildingKind",
    "Car",
    "CostField",
    "Drive",
    "Edge",
    "GroupPlan",
    "HarbourKind",
    "Hex",
    "IncomePlan",
    "Race",
    "RaceCar",
    "RaceResult",
    "Resource",
    "Route",
    "StartChoice",
    "Step",
    "Terrain",
    "Tile",
    "Trip",
    "TurnAdvice",
    "beginner_board",
    "choose_start",
    "choose_trip",
    "cost_field",
    "default_goals",
    "plan_drive",
    "plan_income",
    "plan_race",
    "plan_route",
    "plan_trip",
    "player_roads",
    "race_cars",
    "start_groups",
]
