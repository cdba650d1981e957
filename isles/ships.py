"""Ships under winds (seed 004_644cf972d8964df4.txt; docs/ships.md).

The public entry points: steer a ship to a target in the fewest expected rolls
(:func:`sail`, one call: the answer of ``isles sail``), collision and pirate risk
(:func:`risk`, the answer of ``isles risk``); below them the navigation of every
edge (:func:`navigate`), the arrival odds (:func:`arrival_odds`,
:func:`arrival_distribution`), the cargo outlook and the pirate's reach.

Examples
--------
>>> from isles import ships
>>> v = ships.sail(ships.demo_board(), ((0, 1), (0, 2)), near=[((0, 2), (0, 3), (1, 2))])
>>> v.status, round(v.expected_rolls, 2), v.to_dict()["arrival_within"][0]["rolls"]
(<Status.OPTIMAL: 'optimal'>, 34.11, 5)
>>> ships.risk(cargo=3, encounters=1).to_dict()["cargo_outlook"]["pirate"]["sunk_exact"]
'1/12'
"""

from isles.models.ships import (
    CARGO_LIMIT,
    MAX_PLAYERS,
    MIN_PLAYERS,
    Encounter,
    Outcome,
    demo_board,
    outcome_table,
    parse_settlement,
    settlement_edges,
    ship_edges,
    ship_options,
)
from isles.solvers.sailing import (
    MAX_ENCOUNTERS,
    MAX_REACH_ROLLS,
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
    "MAX_PLAYERS",
    "MAX_REACH_ROLLS",
    "MAX_WITHIN",
    "MIN_PLAYERS",
    "Arrival",
    "CargoOutlook",
    "Encounter",
    "Navigation",
    "Outcome",
    "PirateReach",
    "Reach",
    "RiskReport",
    "Steering",
    "Voyage",
    "WindGraph",
    "arrival_distribution",
    "arrival_odds",
    "cargo_outlook",
    "demo_board",
    "expected_harvest",
    "navigate",
    "outcome_table",
    "parse_settlement",
    "pirate_reach_probability",
    "risk",
    "sail",
    "settlement_edges",
    "ship_edges",
    "ship_options",
    "target_edges",
    "wind_graph",
]
