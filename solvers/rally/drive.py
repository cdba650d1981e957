"""A Drive answered: the fewest expected turns when a car's cards come in roll by roll.

Implements docs/rally.md ("The rally as it is played", "The whole policy space";
seed 002_8684547a41c0941c.txt): the keyword form of the question
:class:`~isles.models.rally.questions.Drive` (:func:`plan_income`) and
:func:`answer_drive`: the whole policy space where it fits
(:mod:`~isles.solvers.rally.full_plan`), else the forward routes
(:mod:`~isles.solvers.rally.income`), beside the route cheapest in cards.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any

from isles.models.board import Board
from isles.models.hexgrid import Hex
from isles.models.jsonio import float_or_none, hex_json
from isles.models.rally.questions import Drive, IncomeMethod, Switch
from isles.models.rally.rules import TradeMode, player_roads
from isles.solvers.rally.full_plan import full_plan
from isles.solvers.rally.game import Pos
from isles.solvers.rally.income import read_goals, solve_income
from isles.solvers.rally.income_plan import IncomePlan
from isles.solvers.rally.trip import CardCounts, plan_route
from isles.solvers.work import Progress

__all__ = ["answer_drive", "plan_income"]

#: The question's fields, whose defaults the keyword form reads.
_DRIVE = Drive.model_fields


def answer_drive(drive: Drive, *, progress: Progress = None) -> IncomePlan:
    """The answer to a validated :class:`Drive` (see :func:`plan_income`).

    Parameters
    ----------
    drive : Drive
        The question (``Drive.read`` or ``Drive.ask``), its player, start and
        goals checked on its board.
    progress : bool, None or callable
        Unused: the drive shows no bar.

    Returns
    -------
    IncomePlan

    Examples
    --------
    >>> from isles.models.rally.towns import towns_board
    >>> drive = Drive.read({"board": towns_board(), "player": "red", "start": (0, -3),
    ...                     "goals": [(0, -2)], "trade": "none"})
    >>> plan = answer_drive(drive)
    >>> str(plan.status), plan.method, plan.to_dict()["cheapest_cards_route"]["total_cards"]
    ('feasible', 'full', 10)
    """
    memo: dict[Any, Pos] = {}
    plan = None
    if drive.method != "route":
        goals = read_goals(drive.board, drive.start, drive.goals)
        if drive.start not in goals:
            plan = full_plan(
                drive.board,
                drive.player,
                drive.start,
                goals,
                players=drive.players,
                hand=drive.hand,
                reserve=drive.reserve,
                trade=drive.trade,
                discard=drive.discard == "on",
                within=drive.within,
                method=drive.method,
            )
    if plan is None:
        plan = _on_routes(drive, drive.goals, memo)
    return dataclasses.replace(plan, cheapest=_cheapest(drive, plan, memo))


def _on_routes(
    drive: Drive,
    goals: Iterable[object] | None,
    memo: dict[Any, Pos],
    route: tuple[Hex, ...] | None = None,
) -> IncomePlan:
    """The drive on its forward routes (``route``: committed to that one, its value only)."""
    return solve_income(
        drive.board,
        drive.player,
        drive.start,
        goals,
        players=drive.players,
        hand=drive.hand,
        reserve=drive.reserve,
        trade=drive.trade,
        discard=drive.discard == "on",
        within=drive.within,
        route=route,
        value_only=route is not None,
        memo=memo,
    )


def _cheapest(drive: Drive, plan: IncomePlan, memo: dict[Any, Pos]) -> dict[str, Any] | None:
    """The route cheapest in cards, and the expected turns of a car committed to it."""
    board: Board = drive.board
    roads = player_roads(board, drive.player)
    cheapest = plan_route(board, drive.start, goals=list(plan.goals), roads=roads)
    if cheapest.path is None:
        return None
    committed = _on_routes(drive, plan.goals, memo, tuple(cheapest.path))
    return {
        "path": [hex_json(h) for h in cheapest.path],
        "total_cards": cheapest.total_cards,
        "expected_turns": float_or_none(committed.expected_turns),
    }


def plan_income(
    board: Board,
    player: str,
    start: tuple[int, int],
    goals: Iterable[tuple[int, int]] | None = None,
    *,
    players: int = _DRIVE["players"].default,
    hand: CardCounts | None = None,
    reserve: CardCounts | None = None,
    trade: TradeMode = _DRIVE["trade"].default,
    discard: Switch = _DRIVE["discard"].default,
    within: int = _DRIVE["within"].default,
    method: IncomeMethod = _DRIVE["method"].default,
) -> IncomePlan:
    """Fewest expected turns to a goal, when the cards come in roll by roll (docs/rally.md).

    Parameters
    ----------
    board : Board
        With the player's ``buildings`` (and roads, harbours) from the board file.
    player : str
        One of ``board.players()``.
    start : (q, r)
        The car's hex.
    goals : iterable of (q, r), optional
        Default: the land opposite the start group (a rim start).
    players, hand, reserve, trade, discard, within, method
        The rest of the question, as the declaration
        :class:`isles.models.rally.questions.Drive` has them (the one place
        their defaults, ranges and help live): ``players`` (the table, 3 to 6),
        ``hand`` and ``reserve`` (cards at the start, by resource or its name),
        ``trade`` (``none``, ``bank`` or ``harbours``), ``discard`` (the 7-card
        rule, ``on`` or ``off``), ``within`` (``within[t - 1]`` = P(arrived
        within t turns)) and ``method`` (``auto``, ``route`` or ``full``: the
        policy space).

    Returns
    -------
    IncomePlan
        With the cheapest-cards route of :func:`isles.rally.plan_route` and its
        expected turns when the car commits to it (``cheapest_cards_route``).

    Raises
    ------
    InvalidInput
        Naming the parameter; the checks are those of the declaration
        :class:`isles.models.rally.questions.Drive`.

    Notes
    -----
    Where the whole policy space (any adjacent hex, trade, reserve, discard)
    has at most :data:`~isles.models.rally.questions.MAX_FULL_STATES` states
    (``method`` ``auto`` or ``full``), value iteration over all of them with a
    certified error bound (:mod:`isles.solvers.rally.full_plan`; docs/rally.md,
    "The whole policy space"): status ``optimal``, ``error_bound`` stated.
    Else (or ``method`` ``route``) value iteration over (hex, cards) of committed
    routes, each hex solved one level of reserve cards at a time (docs/rally.md,
    "How it is solved"), in a restricted policy space whose restrictions the
    answer lists (docs/rally.md, "What is solved, and what is restricted"):
    status ``feasible``, not ``optimal``.

    Examples
    --------
    >>> from isles.models.board import Board
    >>> from isles.models.catan import Building, Terrain, Tile
    >>> from isles.models.hexgrid import vertex
    >>> board = Board({(0, 0): Tile(Terrain.SEA), (1, 0): Tile(Terrain.HILLS, 4),
    ...                (2, 0): Tile(Terrain.FIELDS, 3), (1, -1): Tile(Terrain.HILLS, 6),
    ...                (2, -1): Tile(Terrain.FIELDS, 8)},
    ...               buildings={vertex((1, 0), (1, -1), (2, -1)): Building("red")})
    >>> plan = plan_income(board, "red", (0, 0), [(2, 0)], trade="none", discard="off")
    >>> str(plan.status), round(plan.expected_turns, 3), [str(h) for h in plan.route]
    ('optimal', 8.044, ['0,0', '1,0', '2,0'])
    >>> plan.method, plan.error_bound < 1e-6, plan.restrictions
    ('full', True, ())
    >>> ruled = plan_income(board, "red", (0, 0), [(2, 0)], trade="none")  # the 7-card rule
    >>> str(ruled.status), ruled.restrictions, ruled.cap_lost
    ('feasible', ('card_cap',), True)
    >>> str(plan_income(board, "red", (0, 0), [(2, 0)], trade="none", method="route").status)
    'feasible'
    """
    drive = Drive.ask(
        board=board,
        player=player,
        start=start,
        goals=goals,
        players=players,
        hand=hand,
        reserve=reserve,
        trade=trade,
        discard=discard,
        within=within,
        method=method,
    )
    return answer_drive(drive)
