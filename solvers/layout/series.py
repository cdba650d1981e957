"""Several different boards, each the fairest left: a game night, a tournament.

Implements docs/layout.md ("Several boards") for seeds/002_8684547a41c0941c.txt
and seeds/004_644cf972d8964df4.txt ("MISE EN PLACE"): incremental no-good cuts
on one CP-SAT model, each board differing from every earlier one and its images
under the board's symmetries; on an island the tokens guessed first.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from ortools.sat.python import cp_model

from isles.models.board import Board
from isles.models.catan import NUMBER_TOKENS, Terrain
from isles.models.errors import InvalidInput
from isles.models.hexgrid import Hex
from isles.models.layout.games import spiral_numbers
from isles.models.layout.groups import constraint_groups
from isles.models.layout.objectives import colourfulness, pip_spread
from isles.models.layout.questions import DEFAULT_SEED, DEFAULT_TIME_LIMIT, DEFAULT_WORKERS, Series
from isles.models.layout.request import SetupRequest
from isles.models.status import Status
from isles.solvers.layout.board import lay_board, spread_floor
from isles.solvers.layout.cpsat import FOUND, new_solver, showing
from isles.solvers.layout.model import BoardModel
from isles.solvers.layout.results import LayoutResult, LayoutSeries
from isles.solvers.layout.variety import TWIN_TOKENS, shuffle_harbours
from isles.solvers.work import Bar, Progress

__all__ = ["default_difference", "lay_series", "layout_boards"]


def default_difference(request: SetupRequest) -> int:
    """The default ``min_difference`` of :func:`layout_boards`: a third of the hexes.

    Parameters
    ----------
    request : SetupRequest

    Returns
    -------
    int
        ``ceil(hexes / 3)``: 7 of the base island's 19, 10 of the extension's 30.

    Examples
    --------
    >>> default_difference(SetupRequest.hexagon(2, land=19))
    7
    """
    return -(-request.board_size // 3)


def layout_boards(
    request: SetupRequest,
    count: int,
    *,
    min_difference: int | None = None,
    seed: int = DEFAULT_SEED,
    time_limit: float = DEFAULT_TIME_LIMIT,
    workers: int = DEFAULT_WORKERS,
    progress: Progress = None,
) -> LayoutSeries:
    """``count`` different legal boards, each the fairest left (a game night, a tournament).

    Parameters
    ----------
    request : SetupRequest
    count : int
        Boards wanted, 1..:data:`~isles.models.layout.questions.MAX_COUNT`.
    min_difference : int or None
        Hexes in which every board must differ from each earlier one and
        from each of its images under the board's symmetries (a hex differs
        when its terrain or its number does); default
        :func:`default_difference`, at least 1.
    seed : int
        As :func:`solve_layout` (the first board's variety).
    time_limit : float
        Seconds per CP-SAT solve.
    workers : int
        CP-SAT workers (one: deterministic).
    progress : bool, None or callable
        A tqdm bar on stderr over the boards, and one while each CP-SAT solve
        runs: True shows them, False never, None (the default) on a terminal
        once the work has taken a second (:func:`solve_layout`); a callable
        is told the fraction of the boards laid.

    Returns
    -------
    LayoutSeries

    Raises
    ------
    InvalidInput
        If ``count`` or ``min_difference`` is out of range, or as
        :func:`solve_layout`.

    Notes
    -----
    Incremental no-good cuts [1]_ on one CP-SAT model: after each board a
    linear constraint asks the next to differ from it, and from each of its
    rotations and reflections, in ``min_difference`` hexes; each new board
    is the fairest (least pip spread) left, at the first board's
    colourfulness for the ships scenario. On an island the previous board's
    tokens, turned by a symmetry of the board and with twin tokens swapped,
    are tried first with only the terrains searched again, which reaches the
    divisibility bound in hundredths of a second; the harbours are dealt
    anew when no rule looks at them (docs/layout.md, "Several boards").

    References
    ----------
    .. [1] L. Perron and F. Didier, "CP-SAT", Google OR-Tools,
       https://developers.google.com/optimization/cp/cp_solver

    Examples
    --------
    >>> series = layout_boards(SetupRequest.hexagon(1), 2, time_limit=5)
    >>> series.status.value, len(series.boards), series.min_difference
    ('optimal', 2, 3)
    """
    Series.ask(
        count=count,
        min_difference=min_difference,
        seed=seed,
        time_limit=time_limit,
        workers=workers,
    )
    with showing(progress):
        return lay_series(
            request,
            count,
            min_difference=min_difference,
            seed=seed,
            time_limit=time_limit,
            workers=workers,
            progress=progress,
        )


def lay_series(
    request: SetupRequest,
    count: int,
    *,
    min_difference: int | None,
    seed: int,
    time_limit: float,
    workers: int,
    progress: Progress,
) -> LayoutSeries:
    """:func:`layout_boards` on a series already checked: its bar over the boards."""
    size = request.board_size
    differ = default_difference(request) if min_difference is None else min_difference
    if differ > size:
        raise InvalidInput("min_difference", differ, f"an integer in 1..{size} (hexes)")
    with Bar(count, "boards", progress, unit="board") as bar:
        first = lay_board(request, seed=seed, time_limit=time_limit, workers=workers)
        bar.update(1)
        status, boards = first.status, [first]
        if first.board is None:
            boards = []
        else:
            status, boards = _more_boards(
                request,
                first,
                count,
                differ,
                seed=seed,
                time_limit=time_limit,
                workers=workers,
                bar=bar,
            )
    return LayoutSeries(
        status,
        tuple(boards),
        count,
        differ,
        first.conflict,
        first.conflict_minimal,
        request.game,
    )


def _more_boards(
    request: SetupRequest,
    first: LayoutResult,
    count: int,
    differ: int,
    *,
    seed: int,
    time_limit: float,
    workers: int,
    bar: Bar,
) -> tuple[Status, list[LayoutResult]]:
    """The boards after the first of a series, each the fairest left (see layout_boards)."""
    boards = [first]
    groups = constraint_groups(request)
    model = BoardModel(request, groups, symmetry=False)
    if request.colourful and first.colourfulness is not None:
        model.cp.add(model.colour >= first.colourfulness)
    model.cp.minimize(model.spread)
    floor = spread_floor(request, groups)
    moves: list[Callable[[Hex], Hex]] = [lambda h: h, *request.symmetries()]
    if request.has_fixed:
        moves = moves[:1]
    rng = random.Random(seed)
    while len(boards) < count:
        previous = boards[-1].board
        assert previous is not None
        for move in moves:
            _differ_from(model, previous, move, differ)
        turn = moves[len(boards) % len(moves)]
        board, status = _next_fairest(
            model, previous, request, floor, time_limit, workers, seed, turn, rng
        )
        if board is None:
            return Status.INFEASIBLE if status == cp_model.INFEASIBLE else Status.TIMED_OUT, boards
        # At the divisibility floor no board is fairer: proven whatever CP-SAT's status.
        proven = first.status is Status.OPTIMAL and (
            status == cp_model.OPTIMAL or pip_spread(board) <= floor
        )
        board = shuffle_harbours(board, request, rng)
        boards.append(
            LayoutResult(
                Status.OPTIMAL if proven else Status.FEASIBLE,
                board=board,
                colourfulness=colourfulness(board) if request.colourful else None,
                colourfulness_bound=first.colourfulness_bound,
                pip_spread=pip_spread(board),
                pip_spread_bound=pip_spread(board) if proven else floor,
                fixed=tuple(request.fixed),
                game=request.game,
            )
        )
        bar.update(1)
    optimal = all(b.status is Status.OPTIMAL for b in boards)
    return Status.OPTIMAL if optimal else Status.FEASIBLE, boards


def _differ_from(model: BoardModel, board: Board, move: Callable[[Hex], Hex], least: int) -> None:
    """A no-good cut: differ from the image of ``board`` under ``move`` in ``least`` hexes.

    One literal per (hex, terrain, number), shared by every cut that asks
    about it, is true whenever the hex holds that tile.
    """
    cp = model.cp
    same: list[cp_model.IntVar] = []
    for h in model.pos:
        tile = board.tiles.get(h)
        if tile is None:
            continue
        at = move(h)
        if (at, tile.terrain) not in model.terrain:
            continue
        key = (at, tile.terrain, tile.number)
        x = model.holds.get(key)
        if x is None:
            x = cp.new_bool_var(f"holds[{at},{tile.terrain.value},{tile.number}]")
            clause = [model.terrain[at, tile.terrain].Not(), x]
            if tile.number is not None:
                tok = model.sea_token if tile.terrain is Terrain.SEA else model.land_token
                clause.append(tok[at, tile.number].Not())
            cp.add_bool_or(clause)  # x is true whenever the hex holds the tile
            model.holds[key] = x
        same.append(x)
    cp.add(len(model.pos) - sum(same) >= least)


def _next_fairest(
    model: BoardModel,
    previous: Board,
    request: SetupRequest,
    floor: int,
    time_limit: float,
    workers: int,
    seed: int,
    move: Callable[[Hex], Hex],
    rng: random.Random,
) -> tuple[Board | None, Any]:
    """The fairest board left.

    On an island, tokens are first laid as a guess and only the terrains
    searched (hundredths of a second); a board reaching the divisibility
    bound is optimal. Without a spiral the guess is the previous board's
    deserts and tokens, turned by the board symmetry ``move`` and with twin
    tokens (6/8, 5/9, ...) swapped at random (no rule and no pip total sees
    either); with a spiral, deserts drawn at random and the letters laid
    along the spiral around them (a few draws). Otherwise the full search.
    """
    found: Board | None = None
    if not request.colourful:
        for guess in _token_guesses(previous, request, move, rng):
            model.cp.clear_hints()  # type: ignore[no-untyped-call]
            for h in model.pos:
                number = guess[h]
                desert = number is None
                model.cp.add_hint(model.land[h], True)
                if Terrain.DESERT in request.inventory:
                    model.cp.add_hint(model.terrain[h, Terrain.DESERT], desert)
                for v in NUMBER_TOKENS:
                    model.cp.add_hint(model.land_token[h, v], number == v)
            quick = new_solver(time_limit, workers, seed)
            quick.parameters.fix_variables_to_their_hinted_value = True
            if quick.solve(model.cp) in FOUND:
                found = model.board(quick)
                if pip_spread(found) == floor:
                    return found, cp_model.OPTIMAL
                break
    model.hint(found if found is not None else previous)
    solver = new_solver(time_limit, workers, seed)
    status = solver.solve(model.cp)
    if status in FOUND:
        board = model.board(solver)
        if found is None or pip_spread(board) <= pip_spread(found):
            return board, status
    if found is not None:
        return found, cp_model.FEASIBLE
    return None, status


#: Random desert draws tried for the next board of a spiral series.
_SPIRAL_DRAWS = 4


def _token_guesses(
    previous: Board, request: SetupRequest, move: Callable[[Hex], Hex], rng: random.Random
) -> list[dict[Hex, int | None]]:
    """Token layouts (None: desert) to try for an island's next board (see _next_fairest)."""
    if any(not previous.terrain(h).is_land for h in request.positions):
        return []  # an island only
    if request.spiral:
        deserts = sum(1 for h in request.positions if previous.terrain(h) is Terrain.DESERT)
        guesses = []
        for _ in range(_SPIRAL_DRAWS):
            drawn = rng.sample(list(request.positions), deserts)
            laid = spiral_numbers(request.spiral, request.letters, drawn)
            guesses.append({h: None if t is None else t[1] for h, t in laid.items()})
        return guesses
    twins = {v: v for v in NUMBER_TOKENS}
    for a, b in TWIN_TOKENS:
        twin = request.land_tokens.count(a) == request.land_tokens.count(b)
        if twin and rng.random() < 0.5 and request.keeps("twins"):
            twins[a], twins[b] = b, a
    guess: dict[Hex, int | None] = {}
    for h in request.positions:
        number = previous.number(h)
        guess[move(h)] = None if number is None else twins[number]
    return [guess]
