"""Catan board set-up for the ships scenario (seeds/004_644cf972d8964df4.txt; docs/layout.md).

The public entry points: build a request with the defaults of docs/layout.md
(:func:`setup_request`), the most colourful legal board, proven optimal
(:func:`solve_layout`), any legal board (:func:`first_board`), the next two
tiles to lay (:func:`next_move`), and the rules as pure functions
(:func:`rule_violations`, :func:`colourfulness`, :func:`pip_spread`). A tile
already on the table is a :class:`Tile` of a :class:`Terrain` (and its number).

Examples
--------
>>> from isles import layout
>>> request = layout.setup_request(radius=1)
>>> result = layout.solve_layout(request, time_limit=5)
>>> result.status, result.colourfulness, layout.rule_violations(request, result.board)
(<Status.OPTIMAL: 'optimal'>, 8, [])
"""

from isles.models.catan import Terrain, Tile
from isles.models.setup import (
    DEFAULT_RULES,
    MAX_PLAYERS,
    MAX_RADIUS,
    TILES_PER_PLAYER,
    Rule,
    SetupRequest,
    colourfulness,
    pip_spread,
    resource_pips,
    rule_violations,
    setup_request,
)
from isles.solvers.layout import (
    LayoutResult,
    NextMove,
    constraint_groups,
    first_board,
    next_move,
    solve_layout,
)

__all__ = [
    "DEFAULT_RULES",
    "MAX_PLAYERS",
    "MAX_RADIUS",
    "TILES_PER_PLAYER",
    "LayoutResult",
    "NextMove",
    "Rule",
    "SetupRequest",
    "Terrain",
    "Tile",
    "colourfulness",
    "constraint_groups",
    "first_board",
    "next_move",
    "pip_spread",
    "resource_pips",
    "rule_violations",
    "setup_request",
    "solve_layout",
]
