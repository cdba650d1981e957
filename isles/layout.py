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
  (:func:`load_rules`, :func:`read_rules`, or :class:`BoardRule` objects; the
  kinds in :data:`RULE_KINDS`), an independent check of a board
  (:func:`rule_violations`) and its two objectives (:func:`colourfulness`,
  :func:`pip_spread`);
- the question of ``isles layout`` and the web app, declared once
  (:class:`Layout`: ``isles.answer(Layout.read({...}))``), and its answers
  (:class:`LayoutResult`, :class:`LayoutSeries`, :class:`NextMove`).

A tile already on the table is an ``isles.Tile`` of an ``isles.Terrain`` (and
its number). The engine stays reachable under :mod:`isles.solvers.layout` and
:mod:`isles.models.layout` without being listed here (the games' boxes and the
variable set-up's spiral: ``isles.models.layout.games.game_setup`` and
``spiral_order``).

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

from isles.models.layout.board_rule import BoardRule
from isles.models.layout.board_rules import RULE_KINDS
from isles.models.layout.checker import rule_violations
from isles.models.layout.games import Game
from isles.models.layout.objectives import colourfulness, pip_spread
from isles.models.layout.questions import Layout
from isles.models.layout.request import Rule, SetupRequest
from isles.models.layout.rules_file import load_rules, read_rules
from isles.models.layout.setup import setup_request
from isles.solvers.layout.answer import base_board, extension_board
from isles.solvers.layout.board import solve_layout
from isles.solvers.layout.feasibility import first_board
from isles.solvers.layout.move import next_move
from isles.solvers.layout.results import LayoutResult, LayoutSeries, NextMove
from isles.solvers.layout.series import layout_boards

__all__ = [
    "RULE_KINDS",
    "BoardRule",
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
    "layout_boards",
    "load_rules",
    "next_move",
    "pip_spread",
    "read_rules",
    "rule_violations",
    "setup_request",
    "solve_layout",
]
