"""How many turns until a car arrives, its cards coming in roll by roll: the forward routes.

Implements docs/rally.md ("The rally as it is played", "How it is solved", "What
is solved exactly"; seed 002_8684547a41c0941c.txt): a Markov decision process over
(car's hex, cards) on the car's forward moves, each hex solved one level of
reserve cards at a time (:mod:`~isles.solvers.rally.position`), minimising the
expected turns to a goal; the car commits to one route where every route at once
has too many card states.

References
----------
.. [1] R. Bellman, "A Markovian decision process", Journal of Mathematics and
   Mechanics 6(5), 679-684, 1957 (value iteration).
.. [2] D. P. Bertsekas, J. N. Tsitsiklis, "An analysis of stochastic shortest
   path problems", Mathematics of Operations Research 16(3), 580-595, 1991.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from isles.models.board import Board
from isles.models.catan import Resource
from isles.models.errors import InvalidInput
from isles.models.hexgrid import Edge, Hex, as_hex
from isles.models.rally.questions import Drive
from isles.models.rally.rim import default_goals, is_rim_start, no_default_goals, start_group
from isles.models.rally.rules import Income, player_roads, roll_income, trade_ratios
from isles.models.status import Status
from isles.solvers.rally import position
from isles.solvers.rally.forward import first_turn, heading, within
from isles.solvers.rally.game import NR, Game, Pos, card_vector, positions
from isles.solvers.rally.income_plan import IncomePlan, TurnAdvice
from isles.solvers.rally.position import TOLERANCE
from isles.solvers.rally.windows import window_values

__all__ = [
    "FULL_STATES",
    "FULL_STATES_NO_TRADE",
    "MAX_ROUTES",
    "MAX_STATES",
    "read_goals",
    "solve_income",
]

#: The defaults of the question, from its one declaration.
_DEFAULT: dict[str, Any] = {name: f.default for name, f in Drive.model_fields.items()}
#: States of one hex's card grid above which the solver refuses before any work.
MAX_STATES = 3_000_000
#: Card states over all hexes above which the car commits to one route.
FULL_STATES = 60_000
#: The same without trades: then every route at once is never slower than any one of them
#: (a card beyond a route's need is of no use to it), so it is solved whenever it fits.
FULL_STATES_NO_TRADE = 1_000_000
#: Routes tried, at most, when the car commits to one.
MAX_ROUTES = 8


@dataclass
class _Table:
    """What the owner's table and the start bring: one question's settings, for every route."""

    players: int
    hand: Mapping[Resource, int] | None
    reserve: Mapping[Resource, int] | None
    trade: str
    discard: bool
    within: int
    memo: dict[Any, Pos] = field(default_factory=dict)


def read_goals(board: Board, start: Hex, goals: Iterable[object] | None) -> tuple[Hex, ...]:
    """The goals of a drive, sorted: those given (on the board's land), else the default
    goals of the start's group (a rim start)."""
    if goals is None:
        if not is_rim_start(board, start):
            raise no_default_goals()
        return tuple(default_goals(board, start_group(board, start)))
    out = []
    for i, g in enumerate(goals):
        h = as_hex(g, f"goals[{i}]")
        if h not in board or not board.tiles[h].terrain.is_land:
            raise InvalidInput(f"goals[{i}]", str(h), "a land hex of the board")
        out.append(h)
    if not out:
        raise InvalidInput("goals", [], "at least one goal hex")
    return tuple(sorted(set(out)))


def solve_income(
    board: Board,
    player: str,
    start: object,
    goals: Iterable[object] | None = None,
    *,
    players: int = _DEFAULT["players"],
    hand: Mapping[Resource, int] | None = None,
    reserve: Mapping[Resource, int] | None = None,
    trade: str = _DEFAULT["trade"],
    discard: bool = _DEFAULT["discard"] == "on",
    within: int = _DEFAULT["within"],
    route: Sequence[Hex] | None = None,
    value_only: bool = False,
    memo: dict[Any, Pos] | None = None,
) -> IncomePlan:
    """The fewest expected turns to a goal with cards from income, forward moves only.

    The engine behind :func:`isles.rally.plan_income` with ``method="route"``
    (:func:`isles.solvers.rally.drive.answer_drive` reads the question). ``route``
    restricts the car to these hexes (a committed route); ``memo`` keeps the
    solved hexes of committed routes for the next call (routes that end alike
    share them); ``value_only`` answers the value and the policy (``policy``,
    which the race plays), not the arrival chances and the advice.

    Examples
    --------
    >>> from isles.models.board import Board
    >>> from isles.models.catan import Building, Terrain, Tile
    >>> from isles.models.hexgrid import vertex
    >>> board = Board({(0, 0): Tile(Terrain.SEA), (1, 0): Tile(Terrain.HILLS, 4),
    ...                (2, 0): Tile(Terrain.FIELDS, 3), (1, -1): Tile(Terrain.HILLS, 6),
    ...                (2, -1): Tile(Terrain.FIELDS, 8)},
    ...               buildings={vertex((1, 0), (1, -1), (2, -1)): Building("red")})
    >>> plan = solve_income(board, "red", (0, 0), [(2, 0)], trade="none", discard=False)
    >>> str(plan.status), round(plan.expected_turns, 3), plan.method
    ('feasible', 8.044, 'route')
    """
    table = _Table(players, hand, reserve, trade, discard, within, {} if memo is None else memo)
    start_hex = as_hex(start, "start")
    if start_hex not in board:
        raise InvalidInput("start", str(start_hex), "a hex of the board")
    goal_hexes = read_goals(board, start_hex, goals)
    roads = frozenset(player_roads(board, player))
    game, excess = _game(board, player, start_hex, goal_hexes, roads, route, table)
    total = sum(p.size for p in game.positions)
    limit = FULL_STATES if game.ratios is not None else FULL_STATES_NO_TRADE
    arrived = start_hex in goal_hexes
    committing = route is None and game.start >= 0 and total > limit and not arrived
    if not committing:  # a route checks its own
        _check_size(game.positions)
    if arrived:
        done = tuple(1.0 for _ in range(within))
        return _plan(game, start_hex, player, table, 0.0, done, (start_hex,), 0)
    if committing:
        return _best_committed(board, player, start_hex, goal_hexes, game, table, value_only)
    if game.start < 0:
        never = tuple(0.0 for _ in range(within))
        return _plan(game, start_hex, player, table, None, never, (), 0)
    _solve(game, (roads, tuple(excess)), route, table)
    return _answer(game, start_hex, player, table, route, total, value_only)


def _game(
    board: Board,
    player: str,
    start: Hex,
    goals: tuple[Hex, ...],
    roads: frozenset[Edge],
    route: Sequence[Hex] | None,
    table: _Table,
) -> tuple[Game, npt.NDArray[np.int64]]:
    """The car's chain: its positions with their card caps, its owner's table; and the
    cards beyond need each position keeps (its cap less its need)."""
    inc = roll_income(board, player)
    ratios = trade_ratios(board, player, table.trade)
    found, s0 = positions(board, start, goals, roads, route)
    fodder, excess = _caps(inc, card_vector(table.hand), ratios)
    for pos in found:
        pos.cap = pos.need + excess
    restrictions = _restrictions(route, ratios, table.discard, inc)
    game = Game(
        board,
        found,
        s0,
        goals,
        inc.cards,
        inc.gold,
        table.players,
        table.discard,
        ratios,
        fodder,
        restrictions,
    )
    return game, excess


def _restrictions(
    route: Sequence[Hex] | None, ratios: tuple[int, ...] | None, discard: bool, inc: Income
) -> set[str]:
    """The restrictions of the policy space solved (keys of ``RESTRICTIONS``)."""
    restrictions = {"forward"} | ({"committed_route"} if route is not None else set())
    if ratios is not None or discard:
        # Without trades and without the 7-card rule a card in hand is as good as one in
        # the reserve (neither is traded or discarded): the reserve rule then costs nothing.
        restrictions.add("reserve")
        # Without trades a card beyond need is of no use, unless the 7-card rule makes it
        # count: it may take a discard's place, or push the hand over 7.
        restrictions.add("card_cap")
    if ratios is not None:
        restrictions.add("trade_at_once")
    if discard:
        restrictions.add("discard_rule")
    if any(inc.gold):
        restrictions.add("gold_choice")
    return restrictions


def _caps(
    inc: Income, hand: npt.NDArray[np.int64], ratios: tuple[int, ...] | None
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The cards beyond need kept in hand (``fodder``) and beyond need in all (``excess``).

    Cards beyond need exist only in resources with income (or in the starting
    hand); they are kept up to one full ratio plus one roll's income (restriction
    card_cap): beyond that they are lost, which may err either way (docs/rally.md).
    """
    if ratios is None:
        return np.zeros(NR, np.int64), np.zeros(NR, np.int64)
    per_roll = np.array(inc.per_roll_max(), np.int64)
    earns = (per_roll > 0) | (hand > 0)
    fodder = np.where(earns, np.array(ratios, np.int64) - 1, 0)
    return fodder, np.where(earns, fodder + per_roll, 0)


def _check_size(found: list[Pos]) -> None:
    """Refuse before any work a hex whose card grid is too big."""
    if any(p.size > MAX_STATES for p in found):
        biggest = max(p.size for p in found)
        raise InvalidInput(
            "board",
            f"{biggest:,} card states on one hex",
            f"at most {MAX_STATES:,} (fewer --players, --trade none, or nearer goals)",
        )


def _solve(game: Game, car: tuple[object, ...], route: Sequence[Hex] | None, table: _Table) -> None:
    """Solve every position, nearest the goals first (a committed route's from the memo,
    ``car``: its roads and card caps, what a solved hex depends on besides the table)."""
    found = game.positions
    roads, excess = car
    key = (
        game.players,
        game.discard,
        game.ratios,
        game.income,
        game.gold,
        tuple(game.fodder),
        excess,
    )
    for v in range(len(found)):
        # a committed route's hex depends on the route from it on only
        at = (key, roads, tuple(p.hex for p in found[: v + 1]))
        if route is not None and at in table.memo:
            found[v] = table.memo[at]
            continue
        position.solve_position(game, v)  # through its module: a baseline may stand in
        if route is not None:
            table.memo[at] = found[v]
    game.offsets = [0, *itertools.accumulate(p.size for p in found)]


def _answer(
    game: Game,
    start: Hex,
    player: str,
    table: _Table,
    route: Sequence[Hex] | None,
    total: int,
    value_only: bool,
) -> IncomePlan:
    """The solved chain's answer: its value, and (unless ``value_only``) its chances and advice."""
    pos = game.positions[game.start]
    reserve_v, hand_v = card_vector(table.reserve), card_vector(table.hand)
    r0 = np.minimum(reserve_v, pos.need)[None, :]
    value = float(window_values(game, pos, 1, r0, hand_v[None, :])[0])
    expected = value if np.isfinite(value) else None
    if value_only:  # the value and the policy (the race plays it), not the answer's tables
        shown = tuple(route or ())
        if route is None and expected is not None:  # few states (no committed route): cheap
            seen: dict[tuple[int, Hex], float] = {}
            within(game, r0[0], hand_v, 1, seen)
            shown = heading(game, seen)
        return _plan(game, start, player, table, expected, (), shown, total, policy=game)
    flow: dict[tuple[int, Hex], float] = {}
    arrive = within(game, r0[0], hand_v, table.within, flow)
    advice = first_turn(game, r0[0], hand_v, reserve_v)
    route_shown = heading(game, flow)
    return _plan(game, start, player, table, expected, arrive, route_shown, total, advice, game)


def _plan(
    game: Game,
    start: Hex,
    player: str,
    table: _Table,
    expected: float | None,
    arrive: tuple[float, ...],
    route: tuple[Hex, ...],
    states: int,
    advice: tuple[TurnAdvice, ...] = (),
    policy: Game | None = None,
) -> IncomePlan:
    """The answer: ``feasible`` where the car arrives, else ``unreachable``."""
    status = Status.FEASIBLE if expected is not None else Status.UNREACHABLE
    return IncomePlan(
        status,
        start,
        game.goals,
        player,
        game.players,
        table.trade,
        game.discard,
        expected,
        arrive,
        route,
        advice,
        tuple(sorted(game.restrictions)),
        states,
        TOLERANCE,
        policy=policy,
    )


def _forward_paths(found: list[Pos], s0: int) -> list[tuple[Hex, ...]]:
    """The shortest routes in moves from the start, at most MAX_ROUTES, cheapest first."""
    out: list[tuple[int, tuple[Hex, ...]]] = []
    stack: list[tuple[int, tuple[Hex, ...], int]] = [(s0, (found[s0].hex,), 0)]
    while stack and len(out) < 4 * MAX_ROUTES:
        v, path, cost = stack.pop()
        for move in found[v].moves:
            step = (*path, move.hex)
            if move.target < 0:
                out.append((cost + move.cards, step))
            else:
                stack.append((move.target, step, cost + move.cards))
    out.sort()
    return [p for _, p in out[:MAX_ROUTES]]


def _best_committed(
    board: Board,
    player: str,
    start: Hex,
    goals: tuple[Hex, ...],
    game: Game,
    table: _Table,
    value_only: bool,
) -> IncomePlan:
    """The best of the committed routes (restriction ``committed_route``)."""
    paths = _forward_paths(game.positions, game.start)

    def along(path: tuple[Hex, ...], value_only: bool) -> IncomePlan:
        return solve_income(
            board,
            player,
            start,
            goals,
            players=table.players,
            hand=table.hand,
            reserve=table.reserve,
            trade=table.trade,
            discard=table.discard,
            within=table.within,
            route=path,
            value_only=value_only,
            memo=table.memo,
        )

    best, best_value = paths[0], float("inf")
    for path in paths:
        plan = along(path, True)
        if plan.expected_turns is not None and plan.expected_turns < best_value:
            best, best_value = path, plan.expected_turns
    return along(best, value_only)
