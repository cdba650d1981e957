"""The colourfulness search: the most colourful board of the ships scenario, with its bound.

Implements docs/layout.md ("What is asked": colourfulness first; "Why the proofs
are fast": the land-position bound tried first) for
seeds/004_644cf972d8964df4.txt ("MISE EN PLACE": "la mosaïque la plus colorée
possible"), on a fixed shape or a free one (the most compact start first).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import replace
from typing import Any

from ortools.sat.python import cp_model

from isles.models.hexgrid import Hex, neighbours
from isles.models.layout.request import SetupRequest
from isles.solvers.layout.cpsat import FOUND, new_solver
from isles.solvers.layout.model import BoardModel
from isles.solvers.layout.relaxations import land_bound

__all__ = ["maximise_colour"]


def maximise_colour(
    model: BoardModel,
    request: SetupRequest,
    active: Collection[str],
    *,
    time_limit: float,
    workers: int,
    seed: int,
) -> tuple[Any, cp_model.CpSolver, bool, int | None]:
    """Phase 1: maximise colourfulness. Returns (status, solver, proven, bound).

    On a fixed shape the land-position bound comes first: its land set is
    tried as is (hinted variables fixed); reaching the bound proves optimality.
    """
    cap: int | None = None
    land_set: frozenset[Hex] = frozenset()
    if request.size is None:
        cap, land_set = land_bound(request, active, time_limit, workers, seed)
        if cap is not None:
            model.cp.add(model.colour <= cap)
    model.cp.maximize(model.colour)
    if land_set:
        for h in model.pos:
            model.cp.add_hint(model.land[h], h in land_set)
        quick = new_solver(time_limit, workers, seed)
        quick.parameters.fix_variables_to_their_hinted_value = True
        status = quick.solve(model.cp)
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE) and round(quick.objective_value) == cap:
            return status, quick, True, cap
    start: tuple[Any, cp_model.CpSolver] | None = None
    if request.size is not None:
        start = _compact_start(model, request, active, time_limit=time_limit, workers=workers)
    solver = new_solver(time_limit, workers, seed)
    status = solver.solve(model.cp)
    if start is not None and (
        status not in FOUND or solver.objective_value < start[1].objective_value
    ):
        # the search lost the compact start (time limit): keep the start
        bound = round(solver.best_objective_bound) if status in FOUND else None
        return start[0], start[1], False, bound
    proven = status == cp_model.OPTIMAL
    bound = round(solver.best_objective_bound) if status in FOUND else None
    if cap is not None and bound is not None:
        bound = min(bound, cap)
    return status, solver, proven, bound


def _compact_start(
    model: BoardModel,
    request: SetupRequest,
    active: Collection[str],
    *,
    time_limit: float,
    workers: int,
) -> tuple[Any, cp_model.CpSolver] | None:
    """Free shape: start from the most compact board (breadth-first from the root).

    Its land set comes from the land-position bound on that fixed shape; the
    board completed on it is hinted to the full search, which can only improve.
    Returns the (status, solver) of the start, or None without one.
    """
    assert request.size is not None
    present = set(request.positions)
    order = [request.root]
    seen = {request.root}
    for h in order:
        for n in neighbours(h):
            if n in present and n not in seen:
                seen.add(n)
                order.append(n)
    compact = order[: request.size]
    if len(compact) < request.size or not set(request.fixed) <= set(compact):
        return None
    shape = replace(request, positions=tuple(compact), size=None)
    _, land_set = land_bound(shape, active, time_limit, workers, 0)
    if not land_set:
        return None
    if not request.fixed:
        # the full model keeps only lex-leaders of the land vector: move the start
        # to the lex-largest of its images so that it stays a solution
        moves: list[Callable[[Hex], Hex]] = [lambda h: h, *request.symmetries()]

        def key(g: Callable[[Hex], Hex]) -> list[bool]:
            image = {g(h) for h in land_set}
            return [h in image for h in model.pos]

        best = max(moves, key=key)
        compact = [best(h) for h in compact]
        land_set = frozenset(best(h) for h in land_set)
    for h in model.pos:
        model.cp.add_hint(model.present[h], h in compact)
        model.cp.add_hint(model.land[h], h in land_set)
    quick = new_solver(time_limit, workers, 0)
    quick.parameters.fix_variables_to_their_hinted_value = True
    status = quick.solve(model.cp)
    model.cp.clear_hints()  # type: ignore[no-untyped-call]
    if status not in FOUND:
        return None
    model.hint(model.board(quick))
    for h in model.pos:
        model.cp.add_hint(model.present[h], h in compact)
    return status, quick
