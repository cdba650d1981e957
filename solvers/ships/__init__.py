"""Ships under winds: the solvers (docs/ships.md; seed 004_644cf972d8964df4.txt).

One module per question or engine; the engines first, the answers they give after:

- ``graph``: the wind graph (every ship edge and its moves per roll, as arrays),
  the target edges, the rolls' probabilities;
- ``navigation``: one ship's fewest expected rolls from every edge and the
  steering (policy iteration over the almost-sure reachable set);
- ``arrival``: the exact odds of arriving within a few rolls, the whole
  arrival distribution;
- ``voyage``: one ship's voyage, the answer to ``Sail`` (``answer_sail``, ``sail``);
- ``risk``: collision and pirate tables, the cargo left, the pirate's reach,
  the answer to ``Risk`` (``answer_risk``, ``risk``);
- ``joint_states``: a fleet's joint positions and their moves (the joint table);
- ``fleet_chance``: the best chance that every ship scores at once within R rolls;
- ``fleet_navigation``: the fewest expected rolls to that moment;
- ``fleet``: the fleet's voyage, the answer to ``Fleet`` (``answer_fleet``, ``fleet``);
- ``conversion``: a paid ship becoming a settlement soonest, the answer to ``Convert``
  (``answer_convert``, ``convert``);
- ``harvest``: the cargo picked up on a course, the answer to ``Harvest``
  (``answer_harvest``, ``harvest_course``);
- ``logbook``: a log book replayed against the rules, the answer to ``LogCheck``
  (``answer_log_check``, ``check_log``).

:data:`ANSWERS` maps each question of :mod:`isles.models.ships.questions` to the
function that answers it (``isles.answer`` reads it); the keyword form of each
question (``sail``, ...) stands beside its ``answer_<question>``, and the catalogue
:mod:`isles.ships` lists what a user calls.
"""

from collections.abc import Callable, Mapping

from isles.models.contract import Question
from isles.models.ships.questions import Convert, Fleet, Harvest, LogCheck, Risk, Sail
from isles.models.status import Answer
from isles.solvers.ships.conversion import answer_convert
from isles.solvers.ships.fleet import answer_fleet
from isles.solvers.ships.harvest import answer_harvest
from isles.solvers.ships.logbook import answer_log_check
from isles.solvers.ships.risk import answer_risk
from isles.solvers.ships.voyage import answer_sail

__all__ = ["ANSWERS"]

#: The function that answers each question of the ships.
ANSWERS: Mapping[type[Question], Callable[..., Answer]] = {
    Sail: answer_sail,
    Fleet: answer_fleet,
    Risk: answer_risk,
    Convert: answer_convert,
    Harvest: answer_harvest,
    LogCheck: answer_log_check,
}
