"""The car rally's solvers (docs/rally.md; seed 002_8684547a41c0941c.txt), one module per job.

A route (:class:`~isles.models.rally.questions.Trip`):

- ``graph``: the board and a player's roads as arcs (CSR), each move's cost;
- ``field``: the cheapest cost of every hex from one start (one Dijkstra);
- ``route``: the answer (``Route`` of ``Step``) and the keys routes are ordered by;
- ``shortest``: the best route without a budget (Dijkstra, exact to the last tie);
- ``budget``: the best route the cards in hand pay for (label setting, A*);
- ``planner``: one car's route, the question read (its graph, its goals);
- ``start``: the best start of every start group (``StartChoice``);
- ``trip``: ``plan_route``, ``choose_start`` and ``answer_trip``.

The rally as it is played (:class:`~isles.models.rally.questions.Drive`):

- ``game``: the chain solved (positions, moves, card grids, the owner's table);
- ``windows``: the hands between two decisions, roll by roll;
- ``kernels``: the compiled loops (numba);
- ``position``: one position's Bellman equation, a level of reserve at a time;
- ``forward``: the policy followed forward (arrivals, route, turn 1's advice);
- ``income``: the forward routes solved (``solve_income``), or one committed to;
- ``full_space``, ``full_values``, ``full_plan``: the whole policy space, its
  states, its values with a certified gap, its answer;
- ``income_plan``: the answer (``IncomePlan`` of ``TurnAdvice``);
- ``drive``: ``plan_income`` and ``answer_drive``.

A race (:class:`~isles.models.rally.questions.Race`):

- ``simulation``: one car played over many games (or states);
- ``race_exact``: the cars' joint chain, exact where it fits;
- ``race_result``: the answer (``RaceResult`` of ``RaceCar``);
- ``race``: ``race_cars`` and ``answer_race`` (the Monte Carlo).

:data:`ANSWERS` maps each question of :mod:`isles.models.rally.questions` to the
function that answers it (``isles.answer`` reads it); the catalogue
:mod:`isles.rally` lists what a user calls.
"""

from collections.abc import Callable, Mapping

from isles.models.contract import Question
from isles.models.rally.questions import Drive, Race, Trip
from isles.models.status import Answer
from isles.solvers.rally.drive import answer_drive
from isles.solvers.rally.race import answer_race
from isles.solvers.rally.trip import answer_trip

__all__ = ["ANSWERS"]

#: The function that answers each question of the rally.
ANSWERS: Mapping[type[Question], Callable[..., Answer]] = {
    Trip: answer_trip,
    Drive: answer_drive,
    Race: answer_race,
}
