"""The question of ``isles layout``, answered: a board, several boards, or the next move.

Implements docs/layout.md ("The command line", "Answers that never lie") for
seeds/004_644cf972d8964df4.txt and seeds/002_8684547a41c0941c.txt ("MISE EN
PLACE"): a validated :class:`~isles.models.layout.questions.Layout` turned into
its request and laid by the engine it asks for.
"""

from __future__ import annotations

from isles.models.layout.questions import Layout
from isles.models.layout.setup import request_of
from isles.solvers.layout.board import lay_board
from isles.solvers.layout.cpsat import showing
from isles.solvers.layout.move import lay_move
from isles.solvers.layout.results import LayoutResult, LayoutSeries, NextMove
from isles.solvers.layout.series import lay_series
from isles.solvers.work import Progress

__all__ = ["answer_layout"]


def answer_layout(
    question: Layout, *, progress: Progress = None
) -> LayoutResult | LayoutSeries | NextMove:
    """What a validated :class:`~isles.models.layout.questions.Layout` asks (``isles layout``).

    Parameters
    ----------
    question : Layout
        The set-up, the search and what to lay, read by :meth:`Layout.read`
        or built by :meth:`Layout.ask` (``isles.answer`` calls this).
    progress : bool, None or callable
        Bars on stderr while the solves run (and over the boards of a
        series), as :func:`~isles.layout.solve_layout`: None (the default) on
        a terminal after a second; a callable is told the fraction of a
        series' boards laid.

    Returns
    -------
    LayoutResult, LayoutSeries or NextMove
        The next move with ``holding`` (``next_move``), ``count`` different
        boards with ``count`` (``layout_boards``), the best board otherwise
        (``solve_layout``).

    Raises
    ------
    InvalidInput
        What needs the game or the board
        (:func:`~isles.models.layout.setup.request_of`), a ``min_difference``
        above the board's hexes, tiles in hand the request cannot take.

    Examples
    --------
    >>> answer_layout(Layout.read({"radius": 1, "time_limit": 5})).colourfulness
    8
    """
    request = request_of(question.set_up())
    time_limit, workers = question.time_limit, question.workers
    with showing(progress):
        if question.holding is not None:
            return lay_move(request, question.holding, time_limit=time_limit, workers=workers)
        if question.count is not None:
            return lay_series(
                request,
                question.count,
                min_difference=question.min_difference,
                seed=question.seed,
                time_limit=time_limit,
                workers=workers,
                progress=progress,
            )
        return lay_board(request, seed=question.seed, time_limit=time_limit, workers=workers)
