"""The Catan car rally (seed 002_8684547a41c0941c.txt): routes, the best start, the rally
as it is played, races.

The rules as isles reads them are in docs/rally.md, the boards, coordinates and
board files in docs/boards.md (the boards themselves are :class:`isles.Board`,
:class:`isles.Tile`, ...); every answer has ``to_dict()`` in the dialect of
docs/json.md. This catalogue lists what a user calls, one function per question;
``isles.answer`` answers the same questions built as objects. The rules and the
engine stay reachable under :mod:`isles.models.rally` and
:mod:`isles.solvers.rally`.

Routes (the question :class:`Trip`)
    :func:`plan_route` (the best route of a car, for cards, turns, expected
    turns or weighted card values, under a budget or not; the objectives are
    :data:`OBJECTIVES`) returning a :class:`Route` of :class:`Step`;
    :func:`choose_start` (the best start: each start group's best car, and the
    best of all; the groups are :func:`start_groups`) returning a
    :class:`StartChoice` of :class:`GroupPlan`; :func:`cost_field` (the
    cheapest cost of every hex at once) returning a :class:`CostField`.
The rally as it is played (the question :class:`Drive`)
    :func:`plan_income` (fewest expected turns when the cards come in roll by
    roll from the player's buildings; P(arrived within t); the turn's advice)
    returning an :class:`IncomePlan` of :class:`TurnAdvice`.
Races (the question :class:`Race`, of :class:`Car`)
    :func:`race_cars` (two to four cars under the same rolls: each one's
    chance of arriving first, exact where the cars' joint chain fits, else
    Monte Carlo with 95% intervals) returning a :class:`RaceResult` of
    :class:`RaceCar`.
Boards
    :func:`beginner_board`, the board every example starts from.

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

from isles.models.board import beginner_board
from isles.models.rally.questions import Car, Drive, Race, Trip
from isles.models.rally.rim import start_groups
from isles.models.rally.rules import OBJECTIVES
from isles.solvers.rally.drive import plan_income
from isles.solvers.rally.field import CostField, cost_field
from isles.solvers.rally.income_plan import IncomePlan, TurnAdvice
from isles.solvers.rally.race import race_cars
from isles.solvers.rally.race_result import RaceCar, RaceResult
from isles.solvers.rally.route import Route, Step
from isles.solvers.rally.start import GroupPlan, StartChoice
from isles.solvers.rally.trip import choose_start, plan_route

__all__ = [
    "OBJECTIVES",
    "Car",
    "CostField",
    "Drive",
    "GroupPlan",
    "IncomePlan",
    "Race",
    "RaceCar",
    "RaceResult",
    "Route",
    "StartChoice",
    "Step",
    "Trip",
    "TurnAdvice",
    "beginner_board",
    "choose_start",
    "cost_field",
    "plan_income",
    "plan_route",
    "race_cars",
    "start_groups",
]
