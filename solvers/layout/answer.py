"""The question of ``isles layout``, answered: a board, several boards, or the next move.

Implements docs/layout.md ("The command line", "Answers that never lie") for
seeds/004_644cf972d8964df4.txt and seeds/002_8684547a41c0941c.txt ("MISE EN
PLACE"): a validated :class:`~isles.models.layout.questions.Layout` turned into
its request and laid by the engine it asks for (:func:`answer_layout`), and the
question's keyword forms for the islands, :func:`base_board` and :func:`extension_board`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from isles.models.layout.board_rule import BoardRule
from isles.models.layout.games import Game
from isles.models.layout.questions import DEFAULT_SEED, DEFAULT_TIME_LIMIT, DEFAULT_WORKERS, Layout
from isles.models.layout.request import Rule
from isles.models.layout.setup import request_of
from isles.solvers.layout.board import lay_board
from isles.solvers.layout.cpsat import showing
from isles.solvers.layout.move import lay_move
from isles.solvers.layout.results import LayoutResult, LayoutSeries, NextMove
from isles.solvers.layout.series import lay_series
from isles.solvers.work import Progress

__all__ = ["answer_layout", "base_board", "extension_board"]


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
        Your own rules (:func:`~isles.layout.load_rules`, :func:`~isles.layout.read_rules`).
    seed : int
        Variety: another board of the same optimum (0..2**31-1).
    time_limit : float
        Seconds per CP-SAT solve.
    workers : int
        CP-SAT workers, 1..8 (one: deterministic).
    progress : bool, None or callable
        Bars while the solves run, as :func:`~isles.layout.solve_layout`.

    Returns
    -------
    LayoutResult
        ``game`` ``base``; the board carries the frame and the harbours.

    Raises
    ------
    InvalidInput
        As :class:`Layout` and :func:`~isles.layout.setup_request`, naming the parameter.

    See Also
    --------
    extension_board, isles.layout.setup_request, isles.layout.solve_layout

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
        Your own rules (:func:`~isles.layout.load_rules`, :func:`~isles.layout.read_rules`).
    seed : int
        Variety: another board of the same optimum (0..2**31-1).
    time_limit : float
        Seconds per CP-SAT solve.
    workers : int
        CP-SAT workers, 1..8 (one: deterministic).
    progress : bool, None or callable
        Bars while the solves run, as :func:`~isles.layout.solve_layout`.

    Returns
    -------
    LayoutResult
        ``game`` ``extension``; 30 land hexes, 22 frame hexes, 11 harbours.

    Raises
    ------
    InvalidInput
        As :class:`Layout` and :func:`~isles.layout.setup_request`, naming the parameter.

    See Also
    --------
    base_board, isles.layout.setup_request, isles.layout.solve_layout

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
