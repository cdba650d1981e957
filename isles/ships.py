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

Below them: the navigation of every edge (:func:`navigate`), the arrival odds
(:func:`arrival_odds`, :func:`arrival_distribution`), the fleet's dynamic
programmes (:func:`fleet_odds`, :func:`fleet_navigate` over a :func:`fleet_space`),
the ports (:func:`ports`, :class:`Port`), the cargo outlook and the pirate's reach.

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

from isles.models.fleet import MAX_FLEET_ROLLS, Rollers, fleet_targets, scoring_edges
from isles.models.logbook import LogBook, read_log
from isles.models.ships import (
    CARGO_LIMIT,
    MAX_PLAYERS,
    MIN_PLAYERS,
    Encounter,
    Outcome,
    Port,
    conversion_edges,
    corner_edges,
    demo_board,
    outcome_table,
    parse_settlement,
    port_edges,
    ports,
    settlement_edges,
    ship_edges,
    ship_options,
)
from isles.solvers.conversion import Conversion, convert
from isles.solvers.fleet import (
    FleetNavigation,
    FleetOdds,
    FleetSpace,
    FleetVoyage,
    fleet,
    fleet_navigate,
    fleet_odds,
    fleet_space,
)
from isles.solvers.harvest import HarvestOutlook, harvest_course
from isles.solvers.logbook import LogReplay, check_log
from isles.solvers.sailing import (
    MAX_ENCOUNTERS,
    MAX_REACH_ROLLS,
    MAX_SHIP_EDGES,
    MAX_WITHIN,
    Arrival,
    CargoOutlook,
    Navigation,
    PirateReach,
    Reach,
    RiskReport,
    Steering,
    Voyage,
    WindGraph,
    arrival_distribution,
    arrival_odds,
    cargo_outlook,
    expected_harvest,
    navigate,
    pirate_reach_probability,
    risk,
    sail,
    target_edges,
    wind_graph,
)

__all__ = [
    "CARGO_LIMIT",
    "MAX_ENCOUNTERS",
    "MAX_FLEET_ROLLS",
    "MAX_PLAYERS",
    "MAX_REACH_ROLLS",
    "MAX_SHIP_EDGES",
    "MAX_WITHIN",
    "MIN_PLAYERS",
    "Arrival",
    "CargoOutlook",
    "Conversion",
    "Encounter",
    "FleetNavigation",
    "FleetOdds",
    "FleetSpace",
    "FleetVoyage",
    "HarvestOutlook",
    "LogBook",
    "LogReplay",
    "Navigation",
    "Outcome",
    "PirateReach",
    "Port",
    "Reach",
    "RiskReport",
    "Rollers",
    "Steering",
    "Voyage",
    "WindGraph",
    "arrival_distribution",
    "arrival_odds",
    "cargo_outlook",
    "check_log",
    "conversion_edges",
    "convert",
    "corner_edges",
    "demo_board",
    "expected_harvest",
    "fleet",
    "fleet_navigate",
    "fleet_odds",
    "fleet_space",
    "fleet_targets",
    "harvest_course",
    "navigate",
    "outcome_table",
    "parse_settlement",
    "pirate_reach_probability",
    "port_edges",
    "ports",
    "read_log",
    "risk",
    "sail",
    "scoring_edges",
    "settlement_edges",
    "ship_edges",
    "ship_options",
    "target_edges",
    "wind_graph",
]
