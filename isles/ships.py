"""Ships under winds (seed 004_644cf972d8964df4.txt; docs/ships.md).

One call per question; each builds its question and answers it:

- :func:`sail` (:class:`Sail`, answered by a :class:`Voyage`): steer one ship to a
  target in the fewest expected rolls (``isles sail --from E``);
- :func:`fleet` (:class:`Fleet`, a :class:`FleetVoyage`): every ship of a fleet of
  2 or 3 on a scoring edge at once: the best chance within R rolls, the fewest
  expected rolls, the first move (``isles sail --from E1 --from E2 ... --within R``);
  :class:`Rollers` says which ships roll in a collision;
- :func:`risk` (:class:`Risk`, a :class:`RiskReport`): collision and pirate odds
  (``isles risk``), its tables by :class:`Encounter`;
- :func:`convert` (:class:`Convert`, a :class:`Conversion`): a paid ship becoming a
  settlement, soonest (rule 10; ``isles ships convert``);
- :func:`harvest_course` (:class:`Harvest`, a :class:`HarvestOutlook`): the cargo
  picked up on the way (rule 7; ``isles ships harvest``);
- :func:`check_log` (:class:`LogCheck`, a :class:`LogReplay`): replay a log book
  (rule 13; ``isles ships check``), a :class:`LogBook` read by :meth:`LogBook.load`
  (a file) or :meth:`LogBook.from_dict` (its JSON);
- :func:`demo_board`: the embedded ships board.

A question object (docs/json.md, "Questions"), built with its ``read`` or
``ask``, is answered by :func:`isles.answer`, as the call of the same name
answers it. This catalogue lists what a user calls; the engine (the wind graph,
the navigation of every edge, the arrival odds, the fleet's dynamic programmes,
the ports, the pirate's reach) stays reachable under :mod:`isles.solvers.ships`
(its modules are listed there) and the rules under :mod:`isles.models.ships`.

Examples
--------
>>> from isles import ships
>>> board = ships.demo_board()
>>> v = ships.sail(board, ((0, 1), (0, 2)), near=[((0, 2), (0, 3), (1, 2))])
>>> v.status, round(v.expected_rolls, 2), v.to_dict()["arrival_within"][0]["rolls"]
(<Status.OPTIMAL: 'optimal'>, 34.11, 5)
>>> ships.risk(cargo=3, encounters=1).to_dict()["cargo_outlook"]["pirate"]["sunk_exact"]
'1/12'

Two ships home at once, next to red's settlements, within 10 rolls:

>>> f = ships.fleet(board, [((0, 0), (0, 1)), ((1, 1), (1, 2))],
...                 near=[((0, 1), (0, 2), (1, 1)), ((-1, 0), (0, 0), (-1, 1))], within=10)
>>> round(f.odds.probability(), 4), f.reach.value, round(f.expected_rolls, 2)
(0.1214, 'reachable', 42.56)

A ship lacking brick for its settlement, with and without the variant:

>>> c = ships.convert(board, ((0, 1), (0, 2)), "brick")
>>> round(c.expected_rolls, 2), str(c.best_spot.edge)
(42.87, '-1,3:0,3')
>>> round(ships.convert(board, ((0, 1), (0, 2)), "brick", on_turn=True).expected_rolls, 2)
31.59

The cargo on the way to a settlement, and a log book replayed:

>>> h = ships.harvest_course(board, ((1, 1), (1, 2)), near=[((0, 2), (0, 3), (1, 2))],
...                          player="red", rolls=10)
>>> round(float(h.expected_cargo), 3)
0.647
>>> log = ships.LogBook.from_dict({
...     "player": "red", "ships": [{"ship": 1, "edge": [[0, 0], [0, 1]]}],
...     "rolls": [{"roll": 2, "events": [{"event": "wind", "ship": 1, "to": [[-1, 1], [0, 1]]}]}]})
>>> ships.check_log(board, log).status
<Status.EXACT: 'exact'>

The same question, asked as an object:

>>> import isles
>>> isles.answer(ships.Sail.read({"board": board, "start": [[0, 1], [0, 2]],
...                               "near": [[[0, 2], [0, 3], [1, 2]]]})).to_dict() == v.to_dict()
True
"""

from isles.models.ships.demo import demo_board
from isles.models.ships.encounters import Encounter
from isles.models.ships.fleet import Rollers
from isles.models.ships.logbook import LogBook
from isles.models.ships.questions import Convert, Fleet, Harvest, LogCheck, Risk, Sail
from isles.solvers.ships.conversion import Conversion, convert
from isles.solvers.ships.fleet import FleetVoyage, fleet
from isles.solvers.ships.harvest import HarvestOutlook, harvest_course
from isles.solvers.ships.logbook import LogReplay, check_log
from isles.solvers.ships.risk import RiskReport, risk
from isles.solvers.ships.voyage import Voyage, sail

__all__ = [
    "Conversion",
    "Convert",
    "Encounter",
    "Fleet",
    "FleetVoyage",
    "Harvest",
    "HarvestOutlook",
    "LogBook",
    "LogCheck",
    "LogReplay",
    "Risk",
    "RiskReport",
    "Rollers",
    "Sail",
    "Voyage",
    "check_log",
    "convert",
    "demo_board",
    "fleet",
    "harvest_course",
    "risk",
    "sail",
]
