"""Ships under winds (seed 004_644cf972d8964df4.txt; docs/ships.md).

The public entry points: steer a ship to a target (:func:`navigate`), the
arrival odds (:func:`arrival_distribution`), collision and pirate risk.
"""

from isles.models.ships import demo_board, outcome_table, parse_settlement
from isles.solvers.sailing import (
    Arrival,
    CargoOutlook,
    Navigation,
    arrival_distribution,
    cargo_outlook,
    expected_harvest,
    navigate,
    pirate_reach_probability,
    target_edges,
)

__all__ = [
    "Arrival",
    "CargoOutlook",
    "Navigation",
    "arrival_distribution",
    "cargo_outlook",
    "demo_board",
    "expected_harvest",
    "navigate",
    "outcome_table",
    "parse_settlement",
    "pirate_reach_probability",
    "target_edges",
]
