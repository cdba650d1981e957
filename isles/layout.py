"""Catan board set-up: the ships mosaic, the base and extension islands (docs/layout.md).

Seeds: seeds/004_644cf972d8964df4.txt (the ships scenario's mosaic) and
seeds/002_8684547a41c0941c.txt (a board laid by the base rules, with or
without the 5-6 player extension). What a user calls:

- the islands at once: the base island with its frame and 9 harbours
  (:func:`base_board`), the extension's with 11 (:func:`extension_board`),
  both fairest in pips and proven optimal;
- any set-up: a request built with the defaults of docs/layout.md
  (:func:`setup_request`, ``game`` one of :class:`Game`; or a
  :class:`SetupRequest` stated in full), then its best board
  (:func:`solve_layout`), several different boards (:func:`layout_boards`),
  any legal board (:func:`first_board`) or the next two tiles to lay
  (:func:`next_move`);
- the rules: the switches (:class:`Rule`), your own rules from a rules file
  (:func:`load_rules`, :func:`read_rules`; the kinds in :data:`RULE_KINDS`),
  an independent check of a board (:func:`rule_violations`) and its two
  objectives (:func:`colourfulness`, :func:`pip_spread`);
- the games' boxes and the variable set-up's spiral (:func:`game_setup`,
  :func:`spiral_order`);
- the question of ``isles layout`` and the web app, declared once
  (:class:`Layout`: ``isles.answer(Layout.read({...}))``), and its answers
  (:class:`LayoutResult`, :class:`LayoutSeries`, :class:`NextMove`).

A tile already on the table is an ``isles.Tile`` of an ``isles.Terrain`` (and
its number). The engine stays reachable under :mod:`isles.solvers.layout` and
:mod:`isles.models.layout` without being listed here.

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

from collections.abc import Iterable, Mapping

from isles.models.layout.board_rule import BoardRule
from isles.models.layout.board_rules import RULE_KINDS
from isles.models.layout.checker import rule_violations
from isles.models.layout.games import Game, game_setup, spiral_order
from isles.models.layout.objectives import colourfulness, pip_spread
from isles.models.layout.questions import DEFAULT_SEED, DEFAULT_TIME_LIMIT, DEFAULT_WORKERS, Layout
from isles.models.layout.request import Rule, SetupRequest
from isles.models.layout.rules_file import load_rules, read_rules
from isles.models.layout.setup import setup_request
from isles.solvers.layout.answer import answer_layout
from isles.solvers.layout.board import solve_layout
from isles.solvers.layout.feasibility import first_board
from isles.solvers.layout.move import next_move
from isles.solvers.layout.results import LayoutResult, LayoutSeries, NextMove
from isles.solvers.layout.series import layout_boards
from isles.solvers.work import Progress

__all__ = [
    "RULE_KINDS",
    "Game",
    "Layout",
    "LayoutResult",
    "LayoutSeries",
    "NextMove",
    "Rule",
    "SetupRequest",
    "base_board",
    "colourfulness",
    "extension_board",
    "first_board",
    "game_setup",
    "layout_boards",
    "load_rules",
    "next_move",
    "pip_spread",
    "read_rules",
    "rule_violations",
    "setup_request",
    "solve_layout",
    "spiral_order",
]


def base_board(
    *,
    rules: Mapping[Rule, bool] | Mapping[str, bool] | None = None,
    spiral: str | tuple[int, int] | None = None,
    max_pips: int | None = None,
    max_group: int | None = None,
    min_corner_pips: int | None = None,
    extra_rules: Iterable[BoardRule] | Mapping[str, object] = (),
    seed: int = DEFAULT_SEED,
    time_limit: float = DEFAULT_TIME_LIMIT,
    workers: int = DEFAULT_WORKERS,
    progress: Progress = None,
) -> LayoutResult:
    """The base game's island, its frame and 9 harbours, fairest in pips, proven optimal.

    The question :class:`Layout` with ``game="base"``: every parameter but
    ``progress`` is one of its fields, read and checked by its declaration.

    Parameters
    ----------
    rules : mapping Rule (or its name) -> bool, or None
        Switches on top of the islands' defaults (six-eight-apart on).
    spiral : str or (q, r), or None
        The variable set-up: the lettered tokens along the spiral from this
        corner (``"top-left"``, ...), deserts skipped.
    max_pips, max_group, min_corner_pips : int or None
        The limits ``K``, ``G`` and ``L`` of the rules vertex-pips,
        terrain-groups and corner-pips-min; giving one switches its rule on.
    extra_rules : sequence of rules, or a rules file's JSON
        Your own rules (:func:`load_rules`, :func:`read_rules`).
    seed : int
        Variety: another board of the same optimum (0..2**31-1).
    time_limit : float
        Seconds per CP-SAT solve.
    workers : int
        CP-SAT workers, 1..8 (one: deterministic).
    progress : bool, None or callable
        Bars while the solves run, as :func:`solve_layout`.

    Returns
    -------
    LayoutResult
        ``game`` ``base``; the board carries the frame and the harbours.

    Raises
    ------
    InvalidInput
        As :class:`Layout` and :func:`setup_request`, naming the parameter.

    See Also
    --------
    extension_board, setup_request, solve_layout

    Examples
    --------
    >>> result = base_board(spiral="top-left")
    >>> result.status.value, result.pip_spread, result.pip_spread_bound
    ('optimal', 1, 1)
    """
    return _island_board(
        Game.BASE,
        progress,
        rules=rules,
        spiral=spiral,
        max_pips=max_pips,
        max_group=max_group,
        min_corner_pips=min_corner_pips,
        extra_rules=extra_rules,
        seed=seed,
        time_limit=time_limit,
        workers=workers,
    )


def extension_board(
    *,
    rules: Mapping[Rule, bool] | Mapping[str, bool] | None = None,
    spiral: str | tuple[int, int] | None = None,
    max_pips: int | None = None,
    max_group: int | None = None,
    min_corner_pips: int | None = None,
    extra_rules: Iterable[BoardRule] | Mapping[str, object] = (),
    seed: int = DEFAULT_SEED,
    time_limit: float = DEFAULT_TIME_LIMIT,
    workers: int = DEFAULT_WORKERS,
    progress: Progress = None,
) -> LayoutResult:
    """The 5-6 player extension's island, its frame and 11 harbours, fairest in pips.

    The question :class:`Layout` with ``game="extension"``: every parameter
    but ``progress`` is one of its fields, read and checked by its declaration.

    Parameters
    ----------
    rules : mapping Rule (or its name) -> bool, or None
        Switches on top of the islands' defaults (six-eight-apart on).
    spiral : str or (q, r), or None
        The variable set-up from this corner (letters A to Zc), deserts skipped.
    max_pips, max_group, min_corner_pips : int or None
        The limits ``K``, ``G`` and ``L`` of the rules vertex-pips,
        terrain-groups and corner-pips-min; giving one switches its rule on.
    extra_rules : sequence of rules, or a rules file's JSON
        Your own rules (:func:`load_rules`, :func:`read_rules`).
    seed : int
        Variety: another board of the same optimum (0..2**31-1).
    time_limit : float
        Seconds per CP-SAT solve.
    workers : int
        CP-SAT workers, 1..8 (one: deterministic).
    progress : bool, None or callable
        Bars while the solves run, as :func:`solve_layout`.

    Returns
    -------
    LayoutResult
        ``game`` ``extension``; 30 land hexes, 22 frame hexes, 11 harbours.

    Raises
    ------
    InvalidInput
        As :class:`Layout` and :func:`setup_request`, naming the parameter.

    See Also
    --------
    base_board, setup_request, solve_layout

    Examples
    --------
    >>> result = extension_board()
    >>> result.status.value, len(result.board.land()), len(result.board.harbours)
    ('optimal', 30, 11)
    """
    return _island_board(
        Game.EXTENSION,
        progress,
        rules=rules,
        spiral=spiral,
        max_pips=max_pips,
        max_group=max_group,
        min_corner_pips=min_corner_pips,
        extra_rules=extra_rules,
        seed=seed,
        time_limit=time_limit,
        workers=workers,
    )


def _island_board(
    game: Game,
    progress: Progress,
    *,
    rules: Mapping[Rule, bool] | Mapping[str, bool] | None,
    spiral: str | tuple[int, int] | None,
    max_pips: int | None,
    max_group: int | None,
    min_corner_pips: int | None,
    extra_rules: Iterable[BoardRule] | Mapping[str, object],
    seed: int,
    time_limit: float,
    workers: int,
) -> LayoutResult:
    """An island's board: the question :class:`Layout` asked with ``game``, answered."""
    question = Layout.ask(
        game=game,
        rules=rules,
        spiral=spiral,
        max_pips=max_pips,
        max_group=max_group,
        min_corner_pips=min_corner_pips,
        extra_rules=extra_rules if isinstance(extra_rules, Mapping) else tuple(extra_rules),
        seed=seed,
        time_limit=time_limit,
        workers=workers,
    )
    answer = answer_layout(question, progress=progress)
    assert isinstance(answer, LayoutResult)  # neither count nor holding: one board
    return answer
