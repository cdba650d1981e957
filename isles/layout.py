"""Catan board set-up (seed 004_644cf972d8964df4.txt; docs/layout.md).

The public entry points: the most colourful legal board (:func:`solve_layout`),
the next two tiles to lay (:func:`next_move`), the request and its rules.
"""

from isles.models.setup import DEFAULT_RULES, Rule, SetupRequest, rule_violations
from isles.solvers.layout import LayoutResult, NextMove, next_move, solve_layout

__all__ = [
    "DEFAULT_RULES",
    "LayoutResult",
    "NextMove",
    "Rule",
    "SetupRequest",
    "next_move",
    "rule_violations",
    "solve_layout",
]
