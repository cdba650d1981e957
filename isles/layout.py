"""Catan board set-up: the ships mosaic, the base and extension islands (docs/layout.md).

Seeds: seeds/004_644cf972d8964df4.txt (the ships scenario's mosaic) and
seeds/002_8684547a41c0941c.txt (a board laid by the base rules, with or
without the 5-6 player extension). The public entry points: the base island
with its frame and 9 harbours (:func:`base_board`), the extension's with 11
(:func:`extension_board`), both fairest in pips and proven optimal; any
request built with the defaults of docs/layout.md (:func:`setup_request`,
``game="ships"``, ``"base"`` or ``"extension"``) solved by
:func:`solve_layout`; several different boards (:func:`layout_boards`); any
legal board (:func:`first_board`); the next two tiles to lay
(:func:`next_move`); your own rules from a rules file (:func:`load_rules`,
:func:`read_rules`; the kinds in :data:`RULE_KINDS`); the questions declared
once (:class:`SetUp`, :class:`Layout`, answered by :func:`lay_out`); the
rules as pure functions (:func:`rule_violations`, :func:`colourfulness`,
:func:`pip_spread`); the games' boxes and the variable set-up's spiral
(:func:`game_setup`, :func:`spiral_order`). A tile already on the table is
a :class:`Tile` of a :class:`Terrain` (and its number). This catalogue lists
what a user calls; the engine stays reachable under
:mod:`isles.solvers.layout.solve` and :mod:`isles.models.layout.setup`.

Examples
--------
>>> from isles import layout
>>> request = layout.setup_request(radius=1)
>>> result = layout.solve_layout(request, time_limit=5)
>>> result.status, result.colourfulness, layout.rule_violations(request, result.board)
(<Status.OPTIMAL: 'optimal'>, 8, [])
>>> base = layout.base_board(seed=1)
>>> base.status.value, base.pip_spread, len(base.board.harbours)
('optimal', 1, 9)
"""

from __future__ import annotations

from collections.abc import Mapping

from isles.models.catan import Terrain, Tile
from isles.models.layout.board_rules import RULE_KINDS, BoardRule, load_rules, read_rules
from isles.models.layout.games import (
    Game,
    game_setup,
    spiral_order,
)
from isles.models.layout.questions import Layout, Move, Search, Series, SetUp
from isles.models.layout.setup import (
    DEFAULT_RULES,
    GAME_RULES,
    MAX_RADIUS,
    Rule,
    SetupRequest,
    colourfulness,
    pip_spread,
    request_of,
    rule_violations,
    setup_request,
)
from isles.solvers.layout.solve import (
    LayoutResult,
    LayoutSeries,
    NextMove,
    first_board,
    lay_out,
    layout_boards,
    next_move,
    solve_layout,
)

__all__ = [
    "DEFAULT_RULES",
    "GAME_RULES",
    "MAX_RADIUS",
    "RULE_KINDS",
    "BoardRule",
    "Game",
    "Layout",
    "LayoutResult",
    "LayoutSeries",
    "Move",
    "NextMove",
    "Rule",
    "Search",
    "Series",
    "SetUp",
    "SetupRequest",
    "Terrain",
    "Tile",
    "base_board",
    "colourfulness",
    "extension_board",
    "first_board",
    "game_setup",
    "lay_out",
    "layout_boards",
    "load_rules",
    "next_move",
    "pip_spread",
    "read_rules",
    "request_of",
    "rule_violations",
    "setup_request",
    "solve_layout",
    "spiral_order",
]


def base_board(
    *,
    rules: Mapping[Rule, bool] | Mapping[str, bool] | None = None,
    spiral: str | tuple[int, int] | None = None,
    seed: int = 0,
    time_limit: float = 20.0,
    **limits: int,
) -> LayoutResult:
    """The base game's island, its frame and 9 harbours, fairest in pips, proven optimal.

    Parameters
    ----------
    rules : mapping Rule (or its name) -> bool, or None
        Switches on top of :data:`GAME_RULES` (six-eight-apart on).
    spiral : str or (q, r), or None
        The variable set-up: the lettered tokens along the spiral from this
        corner (``"top-left"``, ...), deserts skipped.
    seed : int
        Variety: another board of the same optimum (0..2**31-1).
    time_limit : float
        Seconds per CP-SAT solve.
    **limits : int
        ``max_pips``, ``max_group``, ``min_corner_pips`` (each switches its rule on).

    Returns
    -------
    LayoutResult
        ``game`` ``base``; the board carries the frame and the harbours.

    Raises
    ------
    InvalidInput
        As :func:`setup_request` and :func:`solve_layout`.

    See Also
    --------
    extension_board, setup_request, solve_layout

    Examples
    --------
    >>> result = base_board(spiral="top-left")
    >>> result.status.value, result.pip_spread, result.pip_spread_bound
    ('optimal', 1, 1)
    """
    request = setup_request(game=Game.BASE, rules=rules, spiral=spiral, **limits)  # type: ignore[arg-type]
    return solve_layout(request, seed=seed, time_limit=time_limit)


def extension_board(
    *,
    rules: Mapping[Rule, bool] | Mapping[str, bool] | None = None,
    spiral: str | tuple[int, int] | None = None,
    seed: int = 0,
    time_limit: float = 20.0,
    **limits: int,
) -> LayoutResult:
    """The 5-6 player extension's island, its frame and 11 harbours, fairest in pips.

    Parameters
    ----------
    rules : mapping Rule (or its name) -> bool, or None
        Switches on top of :data:`GAME_RULES` (six-eight-apart on).
    spiral : str or (q, r), or None
        The variable set-up from this corner (letters A to Zc), deserts skipped.
    seed : int
        Variety: another board of the same optimum (0..2**31-1).
    time_limit : float
        Seconds per CP-SAT solve.
    **limits : int
        ``max_pips``, ``max_group``, ``min_corner_pips`` (each switches its rule on).

    Returns
    -------
    LayoutResult
        ``game`` ``extension``; 30 land hexes, 22 frame hexes, 11 harbours.

    Raises
    ------
    InvalidInput
        As :func:`setup_request` and :func:`solve_layout`.

    See Also
    --------
    base_board, setup_request, solve_layout

    Examples
    --------
    >>> result = extension_board()
    >>> result.status.value, len(result.board.land()), len(result.board.harbours)
    ('optimal', 30, 11)
    """
    request = setup_request(game=Game.EXTENSION, rules=rules, spiral=spiral, **limits)  # type: ignore[arg-type]
    return solve_layout(request, seed=seed, time_limit=time_limit)
