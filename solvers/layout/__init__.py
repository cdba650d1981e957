"""The Catan boards' solvers: lay a board under rules, prove it best (docs/layout.md).

Seeds 002_8684547a41c0941c.txt and 004_644cf972d8964df4.txt. :data:`ANSWERS`
maps the question of :mod:`isles.models.layout.questions` to the function that
answers it (``isles.answer`` reads it); the catalogue :mod:`isles.layout` lists
what a user calls. The modules, in the order they build on each other:

- ``cpsat``: every CP-SAT solve: its time limit, its bar, Ctrl-C (isles.solvers.work).
- ``results``: the answers: ``LayoutResult``, ``LayoutSeries``, ``NextMove``.
- ``model``: the CP-SAT model of a request, one constraint group per literal.
- ``relaxations``: land alone (the colourfulness bound), land and pips alone.
- ``feasibility``: whether a board exists, any legal board, else the conflict.
- ``variety``: another board of the same optimum, by seed.
- ``colourful``: the colourfulness search (the ships scenario's first objective).
- ``board``: the best board, most colourful then fairest in pips (``solve_layout``).
- ``series``: several different boards, each the fairest left (``layout_boards``).
- ``move``: where to lay the two tiles in hand (``next_move``).
- ``answer``: the question ``Layout`` answered (``answer_layout``), and its keyword
  forms beside it (``base_board``, ``extension_board``: the islands at once).
"""

from collections.abc import Callable, Mapping

from isles.models.contract import Question
from isles.models.layout.questions import Layout
from isles.models.status import Answer
from isles.solvers.layout.answer import answer_layout

__all__ = ["ANSWERS"]

#: The function that answers each question of the boards.
ANSWERS: Mapping[type[Question], Callable[..., Answer]] = {Layout: answer_layout}
