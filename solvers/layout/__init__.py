"""The Catan boards' solvers: lay a board under rules, prove it best (docs/layout.md).

Seeds 002_8684547a41c0941c.txt and 004_644cf972d8964df4.txt. :data:`ANSWERS`
maps each question of :mod:`isles.models.layout.questions` to the function that
answers it (``isles.answer`` reads it); the catalogue :mod:`isles.layout` lists
what a user calls.
"""

from collections.abc import Callable, Mapping

from isles.models.contract import Question
from isles.models.layout.questions import Layout
from isles.models.status import Answer
from isles.solvers.layout.solve import LayoutResult, LayoutSeries, NextMove, lay_out
from isles.solvers.work import Progress

__all__ = ["ANSWERS"]


def _answer_layout(
    question: Layout, *, progress: Progress = None
) -> LayoutResult | LayoutSeries | NextMove:
    return lay_out(question, progress=progress if progress is None else progress is True)


#: The function that answers each question of the boards.
ANSWERS: Mapping[type[Question], Callable[..., Answer]] = {Layout: _answer_layout}
