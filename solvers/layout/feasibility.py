"""Feasibility: whether any board obeys a request, any legal board, and else the conflict.

Implements docs/layout.md ("Answers that never lie": an infeasible request names
the groups that cannot hold together, shrunk to a minimal set) for
seeds/004_644cf972d8964df4.txt and seeds/002_8684547a41c0941c.txt ("MISE EN
PLACE"): CP-SAT's sufficient assumptions, then a deletion filter.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from ortools.sat.python import cp_model

from isles.models.layout.groups import BOARD_SHAPE, constraint_groups
from isles.models.layout.objectives import colourfulness, pip_spread
from isles.models.layout.questions import DEFAULT_SEED, DEFAULT_WORKERS, Search, Solving
from isles.models.layout.request import SetupRequest
from isles.models.status import Status
from isles.solvers.layout.cpsat import FOUND, new_solver
from isles.solvers.layout.model import BoardModel
from isles.solvers.layout.relaxations import pip_hint, pip_relaxation
from isles.solvers.layout.results import LayoutResult

__all__ = ["feasible", "find_conflict", "first_board", "is_feasible"]


def is_feasible(
    request: SetupRequest,
    active: Collection[str] | None = None,
    *,
    time_limit: float = 10.0,
    extra: Callable[[BoardModel], None] | None = None,
) -> bool | None:
    """Whether some board obeys the constraint groups ``active`` (default: all).

    Parameters
    ----------
    request : SetupRequest
    active : collection of str or None
        Names of :func:`constraint_groups` to enforce; the others are dropped.
    time_limit : float
        Seconds per CP-SAT solve.
    extra : callable or None
        Adds constraints to the model before solving (next-move advice uses it).

    Returns
    -------
    bool or None
        True / False when proven, None when the time limit ran out.

    Raises
    ------
    InvalidInput
        If ``time_limit`` is not a finite number of seconds > 0.

    Notes
    -----
    A cheap relaxation (land positions and land pips alone) is tried first:
    when it is infeasible, so is the request.

    Examples
    --------
    >>> is_feasible(SetupRequest.hexagon(1, land=7))
    False
    >>> is_feasible(SetupRequest.hexagon(1, land=7), ["land count"])
    True
    """
    Solving.ask(time_limit=time_limit)
    return feasible(request, active, time_limit=time_limit, extra=extra)


def feasible(
    request: SetupRequest,
    active: Collection[str] | None = None,
    *,
    time_limit: float,
    extra: Callable[[BoardModel], None] | None = None,
) -> bool | None:
    """:func:`is_feasible` on a time limit already checked (the deletion filter's question)."""
    groups = constraint_groups(request) if active is None else active
    if pip_relaxation(request, groups, time_limit)[0] is False:
        return False
    model = BoardModel(request, groups, objectives=False)
    if extra is not None:
        extra(model)
    status = new_solver(time_limit, 2, 0).solve(model.cp)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return True
    if status == cp_model.INFEASIBLE:
        return False
    return None


def first_board(
    request: SetupRequest,
    *,
    time_limit: float = 10.0,
    workers: int = DEFAULT_WORKERS,
    seed: int = DEFAULT_SEED,
) -> LayoutResult:
    """Any legal board for ``request``, no optimisation (the benchmark's question).

    Parameters
    ----------
    request : SetupRequest
    time_limit : float
        Seconds per CP-SAT solve.
    workers : int
        CP-SAT workers (at least one).
    seed : int
        CP-SAT's random seed, 0..2**31-1.

    Returns
    -------
    LayoutResult
        ``feasible`` with a board (objectives measured, no bounds claimed),
        ``infeasible`` with a conflict, or ``timed_out``.

    Raises
    ------
    InvalidInput
        If ``time_limit``, ``workers`` or ``seed`` is out of range.

    Examples
    --------
    >>> first_board(SetupRequest.hexagon(1)).status.value
    'feasible'
    """
    Search.ask(time_limit=time_limit, workers=workers, seed=seed)
    groups = constraint_groups(request)
    # no symmetry breaking: the relaxation's board is hinted as it is
    model = BoardModel(request, groups, objectives=False, symmetry=False)
    relaxed = pip_hint(model, request, groups, time_limit)
    if relaxed is not False:
        solver = new_solver(time_limit, workers, seed)
        status = cp_model.UNKNOWN
        if relaxed:
            # the relaxation's land, desert and tokens often complete as they are
            solver.parameters.fix_variables_to_their_hinted_value = True
            status = solver.solve(model.cp)
            solver.parameters.fix_variables_to_their_hinted_value = False
        if status not in FOUND:
            status = solver.solve(model.cp)
        if status in FOUND:
            board = model.board(solver)
            return LayoutResult(
                Status.FEASIBLE,
                board=board,
                colourfulness=colourfulness(board) if request.colourful else None,
                pip_spread=pip_spread(board),
                fixed=tuple(request.fixed),
                game=request.game,
            )
        if status != cp_model.INFEASIBLE:
            return LayoutResult(Status.TIMED_OUT, fixed=tuple(request.fixed), game=request.game)
    conflict, minimal = find_conflict(request, groups, time_limit, None)
    return LayoutResult(
        Status.INFEASIBLE,
        conflict=conflict,
        conflict_minimal=minimal,
        fixed=tuple(request.fixed),
        game=request.game,
    )


def find_conflict(
    request: SetupRequest,
    active: Collection[str],
    time_limit: float,
    extra: Callable[[BoardModel], None] | None,
) -> tuple[tuple[str, ...], bool]:
    """A small set of constraint groups that cannot hold together.

    CP-SAT's sufficient assumptions for infeasibility give a first core; each
    name is then dropped in turn and kept only if the rest becomes feasible
    (deletion filter), so the answer is minimal when every check is proven.
    """
    answer, relaxed_core = pip_relaxation(request, active, time_limit)
    if answer is False:
        core = list(relaxed_core)
    else:
        model = BoardModel(request, active, assume=True, objectives=False)
        if extra is not None:
            extra(model)
        solver = new_solver(time_limit, 1, 0)
        status = solver.solve(model.cp)
        names = {lit.index: name for name, lit in model.group_lit.items()}
        if status != cp_model.INFEASIBLE:
            return tuple(sorted(active)), False
        core = [names[i] for i in solver.sufficient_assumptions_for_infeasibility() if i in names]
    if not core:
        if feasible(request, (), time_limit=time_limit, extra=extra) is False:
            return (BOARD_SHAPE,), True
        core = list(active)
    minimal = True
    current = list(core)
    for name in list(core):
        trial = [n for n in current if n != name]
        answer = feasible(request, trial, time_limit=time_limit, extra=extra)
        if answer is False:
            current = trial
        elif answer is None:
            minimal = False
    if not current:
        return (BOARD_SHAPE,), minimal
    return tuple(current), minimal
