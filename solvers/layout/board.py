"""The best board for a request: the most colourful, then the fairest in pips, proven.

Implements docs/layout.md ("What is asked", "Answers that never lie", "Why the
proofs are fast") for seeds/004_644cf972d8964df4.txt ("MISE EN PLACE": the
ships scenario's mosaic) and seeds/002_8684547a41c0941c.txt (the base and
extension islands, fairest in pips): a lexicographic optimisation with CP-SAT.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import replace

from ortools.sat.python import cp_model

from isles.models.board import Board
from isles.models.errors import expect
from isles.models.layout.groups import LAND_COUNT, LAND_INVENTORY, LAND_TOKENS, constraint_groups
from isles.models.layout.objectives import colourfulness, pip_spread
from isles.models.layout.questions import DEFAULT_SEED, DEFAULT_TIME_LIMIT, DEFAULT_WORKERS, Search
from isles.models.layout.request import SetupRequest, pip_spread_floor
from isles.models.status import Status
from isles.solvers.layout.colourful import maximise_colour
from isles.solvers.layout.cpsat import FOUND, new_solver, showing
from isles.solvers.layout.feasibility import find_conflict
from isles.solvers.layout.model import BoardModel
from isles.solvers.layout.relaxations import pip_hint, pip_relaxation
from isles.solvers.layout.results import LayoutResult
from isles.solvers.layout.variety import vary
from isles.solvers.work import Progress

__all__ = ["lay_board", "solve_layout", "spread_floor"]


def solve_layout(
    request: SetupRequest,
    *,
    seed: int = DEFAULT_SEED,
    time_limit: float = DEFAULT_TIME_LIMIT,
    workers: int = DEFAULT_WORKERS,
    explain: bool = True,
    progress: Progress = None,
) -> LayoutResult:
    """The most colourful legal board for ``request``, then the fairest pips.

    Parameters
    ----------
    request : SetupRequest
        Positions, counts, tiles, tokens, rules, fixed tiles (docs/layout.md;
        build one with :func:`~isles.models.layout.setup.setup_request`).
    seed : int
        Variety, 0..2**31-1: when nothing is fixed, different seeds give
        different boards of the same optimum (docs/layout.md, "Variety and
        determinism"); CP-SAT's random seed too.
    time_limit : float
        Seconds per CP-SAT solve (wall clock), finite and > 0.
    workers : int
        CP-SAT workers. One (the default) makes the search deterministic: the
        same request and seed give the same board whenever no time limit is
        hit. More workers may prove hard requests sooner, without that promise.
    explain : bool
        When infeasible, name a minimal set of constraint groups in ``conflict``.
    progress : bool, None or callable
        A tqdm bar on stderr while each CP-SAT solve runs (seconds against
        ``time_limit``, the best objective and bound): True shows it, False
        never, None (the default) on a terminal once a solve has taken a
        second (:data:`~isles.solvers.work.PROGRESS_DELAY`). A callable is
        told nothing: a proof cannot say how far it is.

    Returns
    -------
    LayoutResult
        Status never overstated: ``optimal`` only when both objectives are
        proven; ``feasible`` with the bounds when a time limit stopped a
        proof; ``infeasible`` with the conflict; ``timed_out`` when no board
        was found and none proven impossible.

    Raises
    ------
    InvalidInput
        If ``time_limit``, ``workers`` or ``seed`` is out of range.

    See Also
    --------
    first_board : any legal board, no optimisation.
    next_move : where to lay the two tiles in hand.

    Notes
    -----
    A lexicographic optimisation with CP-SAT [1]_. Each constraint group
    (:func:`constraint_groups`) enters the model behind one Boolean literal.
    Phase 1 maximises colourfulness; a small model over the land positions
    alone gives an upper bound (colourfulness is at most the land degrees
    minus the land-land edges) and a first land set, and a lex-leader
    constraint removes the board's rotations and reflections when nothing is
    fixed. Phase 2 fixes that colourfulness and minimises the pip spread.
    When no board exists, the conflict comes from CP-SAT's sufficient
    assumptions for infeasibility, shrunk by a deletion filter [2]_ into a
    minimal unsatisfiable subset of the groups: a group stays only if the
    others alone are satisfiable. docs/layout.md ("Answers that never lie",
    "Why the proofs are fast") says more.

    References
    ----------
    .. [1] L. Perron and F. Didier, "CP-SAT", Google OR-Tools,
       https://developers.google.com/optimization/cp/cp_solver
    .. [2] J. W. Chinneck and E. W. Dravnieks, "Locating minimal infeasible
       constraint sets in linear programs", ORSA Journal on Computing 3(2),
       157-168, 1991 (the deletion filter).

    Examples
    --------
    >>> res = solve_layout(SetupRequest.hexagon(1), time_limit=5)
    >>> res.status.value, res.colourfulness, len(res.board.land())
    ('optimal', 8, 2)
    >>> solve_layout(SetupRequest.hexagon(1, land=7), time_limit=5).conflict
    ('no-land-triangle', 'land count')
    """

    expect(request, SetupRequest, "request", "a SetupRequest (setup_request builds one)")
    Search.ask(seed=seed, time_limit=time_limit, workers=workers)
    with showing(progress):
        return lay_board(
            request, seed=seed, time_limit=time_limit, workers=workers, explain=explain
        )


def lay_board(
    request: SetupRequest, *, seed: int, time_limit: float, workers: int, explain: bool = True
) -> LayoutResult:
    """:func:`solve_layout` on limits already checked (its bars as the caller's call shows)."""
    result = _solve(
        request,
        constraint_groups(request),
        seed=seed,
        time_limit=time_limit,
        workers=workers,
        explain=explain,
    )
    return replace(result, game=request.game)


def _solve(
    request: SetupRequest,
    active: Collection[str],
    *,
    seed: int,
    time_limit: float,
    workers: int,
    explain: bool,
) -> LayoutResult:
    def infeasible() -> LayoutResult:
        conflict, minimal = (
            find_conflict(request, active, time_limit, None) if explain else ((), False)
        )
        return LayoutResult(
            Status.INFEASIBLE,
            conflict=conflict,
            conflict_minimal=minimal,
            fixed=tuple(request.fixed),
        )

    if pip_relaxation(request, active, time_limit)[0] is False:
        return infeasible()
    model = BoardModel(request, active)
    floor = spread_floor(request, active)
    if not request.colourful:
        return _fairest(model, request, active, floor, seed, time_limit, workers, infeasible)
    status, solver, colour_proven, colour_bound = maximise_colour(
        model, request, active, time_limit=time_limit, workers=workers, seed=seed
    )
    if status == cp_model.INFEASIBLE:
        return infeasible()
    if status not in FOUND:
        return LayoutResult(Status.TIMED_OUT, fixed=tuple(request.fixed))
    board = model.board(solver)
    best_colour = colourfulness(board)

    # phase 2: fairest pips at this colourfulness
    model.cp.add(model.colour >= best_colour)
    model.cp.minimize(model.spread)
    # First on the land set found (land and shape fixed, fast); a spread of 0
    # needs no further proof, anything else goes to the full search as a hint.
    model.cp.clear_hints()  # type: ignore[no-untyped-call]
    for h in model.pos:
        model.cp.add_hint(model.present[h], h in board)
        model.cp.add_hint(model.land[h], h in board and board.terrain(h).is_land)
    quick = new_solver(time_limit, workers, seed)
    quick.parameters.fix_variables_to_their_hinted_value = True
    if quick.solve(model.cp) in FOUND:
        board = model.board(quick)
    spread_proven = pip_spread(board) == floor
    spread_bound: int | None = floor if spread_proven else None
    if not spread_proven:
        model.hint(board)
        for h in model.pos:
            model.cp.add_hint(model.present[h], h in board)
        second = new_solver(time_limit, workers, seed)
        status = second.solve(model.cp)
        if status in FOUND and pip_spread(model.board(second)) <= pip_spread(board):
            board = model.board(second)
            spread_proven = status == cp_model.OPTIMAL
            spread_bound = max(floor, round(second.best_objective_bound))
    board = vary(board, request, seed)
    optimal = colour_proven and spread_proven
    return LayoutResult(
        Status.OPTIMAL if optimal else Status.FEASIBLE,
        board=board,
        colourfulness=colourfulness(board),
        colourfulness_bound=colour_bound,
        pip_spread=pip_spread(board),
        pip_spread_bound=spread_bound,
        fixed=tuple(request.fixed),
    )


def spread_floor(request: SetupRequest, active: Collection[str]) -> int:
    """:func:`pip_spread_floor` when the requirements it rests on are all active, else 0."""
    if all(n in active for n in (LAND_COUNT, LAND_INVENTORY, LAND_TOKENS)):
        return pip_spread_floor(request)
    return 0


def _fairest(
    model: BoardModel,
    request: SetupRequest,
    active: Collection[str],
    floor: int,
    seed: int,
    time_limit: float,
    workers: int,
    infeasible: Callable[[], LayoutResult],
) -> LayoutResult:
    """An island (no colourfulness): the board of least pip spread.

    First the pip relaxation's land, desert and tokens are laid as they are
    and only the terrains and harbours searched (a small partition problem,
    hundredths of a second); when that board reaches the divisibility bound
    (:func:`pip_spread_floor`) it is optimal, proven. Otherwise it hints the
    full search, whose bound closes the proof.
    """
    model.cp.minimize(model.spread)
    relaxed = pip_hint(model, request, active, time_limit)
    if relaxed is False:
        return infeasible()
    board: Board | None = None
    if relaxed:
        quick = new_solver(time_limit, workers, seed)
        quick.parameters.fix_variables_to_their_hinted_value = True
        if quick.solve(model.cp) in FOUND:
            board = model.board(quick)
            if pip_spread(board) == floor:
                return _island_result(board, request, seed, True, floor)
            model.hint(board)
    solver = new_solver(time_limit, workers, seed)
    status = solver.solve(model.cp)
    if status == cp_model.INFEASIBLE:
        return infeasible()
    if status in FOUND and (board is None or pip_spread(model.board(solver)) <= pip_spread(board)):
        board = model.board(solver)
    if board is None:
        return LayoutResult(Status.TIMED_OUT, fixed=tuple(request.fixed), game=request.game)
    bound = max(floor, round(solver.best_objective_bound)) if status in FOUND else floor
    return _island_result(board, request, seed, status == cp_model.OPTIMAL, bound)


def _island_result(
    board: Board, request: SetupRequest, seed: int, proven: bool, bound: int
) -> LayoutResult:
    board = vary(board, request, seed)
    return LayoutResult(
        Status.OPTIMAL if proven else Status.FEASIBLE,
        board=board,
        pip_spread=pip_spread(board),
        pip_spread_bound=bound,
        fixed=tuple(request.fixed),
        game=request.game,
    )
