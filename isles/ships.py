"""Ships under winds (seed 004_644cf972d8964df4.txt; docs/ships.md).

The public entry points, one call each behind a command:

- :func:`sail`: steer one ship to a target in the fewest expected rolls
  (``isles sail --from E``);
- :func:`fleet`: every ship of a fleet of 2 or 3 on a scoring edge at once:
  the best chance within R rolls, the fewest expected rolls, the first move
  (``isles sail --from E1 --from E2 ... --within R``);
- :func:`risk`: collision and pirate odds (``isles risk``);
- :func:`convert`: a paid ship becoming a settlement, soonest (rule 10;
  ``isles ships convert``);
- :func:`harvest_course`: the cargo picked up on the way (rule 7;
  ``isles ships harvest``);
- :func:`check_log`: replay a log book (rule 13; ``isles ships check``), read
  by :meth:`LogBook.load` / :func:`read_log`.

The questions (docs/json.md, "Questions"): :class:`Sail`, :class:`Fleet`,
:class:`Risk`, :class:`Convert`, :class:`Harvest` and :class:`LogCheck`
declare each call's parameters once, answered by :func:`sail_voyage`,
:func:`fleet_voyage`, :func:`risk_report`, :func:`conversion`,
:func:`harvest_outlook` and :func:`log_replay`. This catalogue lists what a
user calls; the engine (the navigation of every edge, the arrival odds, the
fleet's dynamic programmes, the ports, the pirate's reach) stays reachable
under :mod:`isles.solvers.ships.sailing`, :mod:`isles.solvers.ships.fleet` and
:mod:`isles.models.ships.rules`.

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
>>> log = ships.read_log({"player": "red", "ships": [{"ship": 1, "edge": [[0, 0], [0, 1]]}],
...                       "rolls": [{"roll": 2, "events": [
...                           {"event": "wind", "ship": 1, "to": [[-1, 1], [0, 1]]}]}]})
>>> ships.check_log(board, log).status
<Status.EXACT: 'exact'>
"""

from isles.models.ships.coordinates import parse_settlement
from isles.models.ships.demo import demo_board
from isles.models.ships.encounters import Encounter
from isles.models.ships.harbours import Port
from isles.models.ships.logbook import LogBook, read_log
from isles.models.ships.questions import Convert, Fleet, Harvest, LogCheck, Risk, Sail
from isles.models.ships.winds import ship_options
from isles.solvers.ships.conversion import Conversion, conversion, convert
from isles.solvers.ships.fleet import FleetVoyage, fleet, fleet_voyage
from isles.solvers.ships.harvest import HarvestOutlook, harvest_course, harvest_outlook
from isles.solvers.ships.logbook import LogReplay, check_log, log_replay
from isles.solvers.ships.sailing import (
    Navigation,
    RiskReport,
    Voyage,
    risk,
    risk_report,
    sail,
    sail_voyage,
)

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
    "Navigation",
    "Port",
    "Risk",
    "RiskReport",
    "Sail",
    "Voyage",
    "check_log",
    "conversion",
    "convert",
    "demo_board",
    "fleet",
    "fleet_voyage",
    "harvest_course",
    "harvest_outlook",
    "log_replay",
    "parse_settlement",
    "read_log",
    "risk",
    "risk_report",
    "sail",
    "sail_voyage",
    "ship_options",
]
