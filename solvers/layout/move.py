"""The next move: where to lay the two tiles in hand so that the best completion stays reachable.

Implements docs/layout.md ("Rule decisions": next move) for
seeds/004_644cf972d8964df4.txt ("MISE EN PLACE": "chacun pose deux hexagones à
tour de rôle", each "adjacent à des hexagones déjà posés"): two CP-SAT
optimisations, the best completion before and after the move.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ortools.sat.python import cp_model

from isles.models.catan import Terrain
from isles.models.errors import InvalidInput, expect
from isles.models.hexgrid import Hex, neighbours
from isles.models.layout.groups import constraint_groups
from isles.models.layout.objectives import colourfulness
from isles.models.layout.questions import DEFAULT_TIME_LIMIT, DEFAULT_WORKERS, Move
from isles.models.layout.request import SetupRequest
from isles.models.status import Status
from isles.solvers.layout.board import lay_board
from isles.solvers.layout.colourful import maximise_colour
from isles.solvers.layout.cpsat import FOUND, showing
from isles.solvers.layout.feasibility import find_conflict
from isles.solvers.layout.model import BoardModel
from isles.solvers.layout.results import NextMove
from isles.solvers.work import Progress

__all__ = ["lay_move", "next_move"]


def next_move(
    request: SetupRequest,
    holding: tuple[Terrain | str, Terrain | str],
    *,
    time_limit: float = DEFAULT_TIME_LIMIT,
    workers: int = DEFAULT_WORKERS,
    progress: Progress = None,
) -> NextMove:
    """Where to lay the two tiles in hand so that the best completion stays reachable.

    The fixed tiles of ``request`` are the tiles already down. The first tile
    goes next to a tile already down, the second next to a tile already down
    or to the first (seed 004: "chacun pose deux hexagones à tour de rôle",
    each "adjacent à des hexagones déjà posés"; docs/layout.md, "Next move").
    With nothing down yet the first tile goes anywhere, the second next to it.

    Parameters
    ----------
    request : SetupRequest
        The set-up; its fixed tiles are the tiles already down.
    holding : pair of Terrain (or terrain names)
        The two tiles in hand, in laying order: sea or a land terrain of the
        request's inventory.
    time_limit : float
        Seconds per CP-SAT solve.
    workers : int
        CP-SAT workers (one: deterministic).
    progress : bool, None or callable
        Bars while the solves run, as :func:`~isles.layout.solve_layout`.

    Returns
    -------
    NextMove
        The two placements, the colourfulness reachable after them, and the
        best reachable without the move (``best_overall``); ``infeasible`` when
        the tiles in hand cannot be laid legally, with the conflict named.

    Raises
    ------
    InvalidInput
        If the request is an island's (base or extension: no colourfulness to
        keep), ``holding`` is not two terrains, a held tile is neither sea nor
        a land terrain of the inventory, no position is free, or
        ``time_limit`` or ``workers`` is out of range.

    Notes
    -----
    Two CP-SAT optimisations: the best completion of the tiles down, then the
    best completion that also places the two tiles in hand where the laying
    order allows (two one-hot position vectors added to the same model).
    Number tokens are not part of the move; the completion chooses them.

    References
    ----------
    .. [1] L. Perron and F. Didier, "CP-SAT", Google OR-Tools,
       https://developers.google.com/optimization/cp/cp_solver

    Examples
    --------
    >>> from isles.models.catan import Tile
    >>> req = SetupRequest.hexagon(1, fixed={Hex(0, 0): Tile(Terrain.SEA, 5)})
    >>> mv = next_move(req, (Terrain.FOREST, Terrain.SEA), time_limit=5)
    >>> mv.best_after == mv.best_overall
    True
    """

    expect(request, SetupRequest, "request", "a SetupRequest (setup_request builds one)")
    hand = Move.ask(holding=holding, time_limit=time_limit, workers=workers).holding
    if hand is None:
        raise InvalidInput("holding", None, "two terrains (the tiles in hand)", problem="missing")
    with showing(progress):
        return lay_move(request, hand, time_limit=time_limit, workers=workers)


def lay_move(
    request: SetupRequest, hand: tuple[Terrain, Terrain], *, time_limit: float, workers: int
) -> NextMove:
    """:func:`next_move` on tiles in hand and limits already checked."""
    free = _free_positions(request, hand)
    overall = lay_board(request, seed=0, time_limit=time_limit, workers=workers, explain=False)
    down = set(request.fixed)
    place = _Hand(free, down, hand)
    groups = constraint_groups(request)
    model = BoardModel(request, groups)
    place(model)
    status, solver, proven, _ = maximise_colour(
        model, request, groups, time_limit=time_limit, workers=workers, seed=0
    )
    if status == cp_model.INFEASIBLE:
        conflict, minimal = find_conflict(request, groups, time_limit, place)
        return NextMove(
            Status.INFEASIBLE, conflict=conflict, conflict_minimal=minimal, fixed=tuple(down)
        )
    if status not in FOUND:
        return NextMove(Status.TIMED_OUT, fixed=tuple(down))
    first, second = place.chosen[0]
    h1 = next(h for h in free if solver.boolean_value(first[h]))
    h2 = next(h for h in free if solver.boolean_value(second[h]))
    completion = model.board(solver)
    proven = proven and overall.status is Status.OPTIMAL
    return NextMove(
        Status.OPTIMAL if proven else Status.FEASIBLE,
        placements=((h1, hand[0]), (h2, hand[1])),
        best_after=colourfulness(completion),
        best_overall=overall.colourfulness,
        completion=completion,
        fixed=tuple(down),
    )


def _free_positions(request: SetupRequest, hand: tuple[Terrain, Terrain]) -> list[Hex]:
    """The positions still free, once the request is known to take the tiles in hand."""
    if not request.colourful:
        raise InvalidInput(
            "request",
            f"game {request.game.value}",
            "a ships-scenario request (the advice keeps the most colourful completion)",
        )
    kinds = ", ".join(["sea", *(k.value for k in request.inventory)])
    for i, k in enumerate(hand):
        if k not in {Terrain.SEA, *request.inventory}:
            raise InvalidInput(f"holding[{i}]", k.value, f"sea or a land terrain of: {kinds}")
    free = [h for h in request.positions if h not in request.fixed]
    if len(free) < 2:
        raise InvalidInput(
            "fixed",
            f"{len(request.fixed)} tiles down",
            "at least two free positions for the two tiles",
        )
    return free


@dataclass
class _Hand:
    """The two tiles in hand laid where the laying order allows (added to a model)."""

    free: list[Hex]
    down: set[Hex]
    holding: tuple[Terrain, Terrain]
    chosen: list[tuple[dict[Hex, Any], dict[Hex, Any]]] = field(default_factory=list)

    def __call__(self, model: BoardModel) -> None:
        """Add two one-hot position vectors: the first tile next to one down, the second
        next to one down or to the first (anywhere, then next to it, with nothing down)."""
        cp, free, down = model.cp, self.free, self.down
        first = {h: cp.new_bool_var(f"first[{h}]") for h in free}
        second = {h: cp.new_bool_var(f"second[{h}]") for h in free}
        cp.add_exactly_one(first.values())
        cp.add_exactly_one(second.values())
        for h in free:
            cp.add_implication(first[h], model.terrain[h, self.holding[0]])
            cp.add_implication(second[h], model.terrain[h, self.holding[1]])
            cp.add_bool_or([first[h].Not(), second[h].Not()])
            near_first = [first[n] for n in neighbours(h) if n in first]
            if not down:
                cp.add_bool_or([second[h].Not(), *near_first])
            elif not any(n in down for n in neighbours(h)):
                cp.add(first[h] == 0)
                cp.add_bool_or([second[h].Not(), *near_first])
        self.chosen.append((first, second))
