"""The answer of the rally as it is played over the whole policy space, where it fits.

Implements docs/rally.md ("The whole policy space", "The card caps"; seed
002_8684547a41c0941c.txt): the states of :mod:`~isles.solvers.rally.full_space`
counted against :data:`~isles.models.rally.questions.MAX_FULL_STATES`, solved by
:mod:`~isles.solvers.rally.full_values`, read back as an :class:`IncomePlan`: the
route the policy heads for, turn 1's advice with its chain of trades, the gap
certified and whether the caps lose a card.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from isles.models.board import Board
from isles.models.catan import Resource
from isles.models.errors import InvalidInput
from isles.models.hexgrid import Hex
from isles.models.rally.questions import MAX_FULL_STATES
from isles.models.rally.rules import ROLLS
from isles.models.status import Status
from isles.solvers.rally.full_space import FullGame, build, count_states, full_states
from isles.solvers.rally.full_values import (
    ERROR_BOUND,
    FullAnswer,
    arrivals,
    can_reach,
    cap_lost,
    solve_full,
)
from isles.solvers.rally.game import NR, RESOURCES, card_names, card_vector
from isles.solvers.rally.income_plan import IncomePlan, TurnAdvice

__all__ = ["full_plan"]


def _trades(game: FullGame, s: int, t: int) -> list[dict[str, Any]]:
    """The trades from state ``s`` to state ``t`` (a shortest chain of them)."""
    level = game.level
    paths: dict[int, list[dict[str, Any]]] = {s: []}
    queue = [s]
    while queue:
        cur = queue.pop(0)
        if cur == t:
            return paths[cur]
        for src, tgt, i, k in game.trade_steps[int(level[cur])]:
            at = int(np.searchsorted(src, cur))
            if at < len(src) and src[at] == cur and int(tgt[at]) not in paths:
                ratios = game.ratios or ()
                step = {"give": RESOURCES[i].value, "cards": ratios[i], "take": RESOURCES[k].value}
                paths[int(tgt[at])] = [*paths[cur], step]
                queue.append(int(tgt[at]))
    return []  # pragma: no cover - t is always reached from s by trades


def _first_turn(answer: FullAnswer) -> tuple[TurnAdvice, ...]:
    """Turn 1's advice for each roll of the owner, as the greedy policy plays it."""
    game, pol = answer.game, answer.policy
    out = []
    for i, roll in enumerate(ROLLS):
        s = int(pol.layers[0][i, answer.start])
        t = int(pol.trade[s])
        u = int(pol.keep[s])
        o = int(pol.option[u])
        reserve = game.reserve[u].copy()
        move = None
        if o >= 0:
            opt = game.options[o]
            move = opt.hex
            to = int(pol.to[u])
            if to < game.n:
                reserve = game.reserve[to].copy()
            elif opt.payer >= 0:
                reserve[opt.payer] -= max(0, opt.cards - int(game.hand[u, opt.payer]))
        cards = game.hand[s] + game.reserve[s]
        advice = TurnAdvice(
            roll,
            card_names(cards),
            _trades(game, s, t),
            card_names(reserve),
            move,
            float(pol.values[s]),
        )
        out.append(advice)
    return tuple(out)


def _route(game: FullGame, flows: dict[tuple[int, Hex], float]) -> tuple[Hex, ...]:
    """The hexes the policy heads for: from the start, the most likely next hex each time."""
    index = {h: i for i, h in enumerate(game.hexes)}
    path = [game.hexes[0]]
    v = 0
    seen = {0}
    while True:
        options = {to: m for (u, to), m in flows.items() if u == v}
        if not options:
            break
        to = max(options, key=lambda h: (options[h], -h[1], -h[0]))
        path.append(to)
        if to not in index or index[to] in seen:
            break
        v = index[to]
        seen.add(v)
    return tuple(path)


def full_plan(
    board: Board,
    player: str,
    start: Hex,
    goals: Sequence[Hex],
    *,
    players: int,
    hand: Mapping[Resource, int] | None,
    reserve: Mapping[Resource, int] | None,
    trade: str,
    discard: bool,
    within: int,
    method: str,
) -> IncomePlan | None:
    """The answer over the whole policy space, or None where it has too many states (auto).

    Called by :func:`isles.solvers.rally.drive.answer_drive` (``method`` ``auto``
    or ``full``), which validated the question
    (:class:`~isles.models.rally.questions.Drive`); docs/rally.md, "The whole
    policy space"; seed 002_8684547a41c0941c.txt.

    Parameters
    ----------
    board, player, start, goals
        The car: the goals read (never the start).
    players, hand, reserve, trade, discard, within, method
        As :class:`~isles.models.rally.questions.Drive` declares them
        (``discard`` as a bool).

    Returns
    -------
    IncomePlan or None
        Status ``optimal`` (no trades, no 7-card rule, gap at most
        ``ERROR_BOUND``), ``feasible`` (with trades or the 7-card rule:
        restriction ``card_cap`` and ``cap_lost`` from :func:`cap_lost`; or the
        sweeps ran out), or ``unreachable``; ``method`` ``full``,
        ``error_bound``, ``card_cap``.
        None: more than ``MAX_FULL_STATES`` states and ``method`` ``auto``.

    Raises
    ------
    InvalidInput
        Naming ``method``: ``full`` asked for a space of more than
        :data:`~isles.models.rally.questions.MAX_FULL_STATES` states.

    Examples
    --------
    >>> from isles.models.board import Board
    >>> from isles.models.catan import Building, Terrain, Tile
    >>> from isles.models.hexgrid import Hex, vertex
    >>> board = Board({(0, 0): Tile(Terrain.SEA), (1, 0): Tile(Terrain.HILLS, 4),
    ...                (2, 0): Tile(Terrain.FIELDS, 3), (1, -1): Tile(Terrain.HILLS, 6),
    ...                (2, -1): Tile(Terrain.FIELDS, 8)},
    ...               buildings={vertex((1, 0), (1, -1), (2, -1)): Building("red")})
    >>> plan = full_plan(board, "red", Hex(0, 0), [Hex(2, 0)], players=4, hand=None,
    ...                  reserve=None, trade="none", discard=False, within=10, method="auto")
    >>> str(plan.status), round(plan.expected_turns, 3), plan.card_cap
    ('optimal', 8.044, {'grain': 11, 'brick': 10})
    >>> capped = full_plan(board, "red", Hex(0, 0), [Hex(2, 0)], players=4, hand=None,
    ...                    reserve=None, trade="none", discard=True, within=10, method="auto")
    >>> str(capped.status), capped.restrictions, capped.cap_lost  # the 7-card rule
    ('feasible', ('card_cap',), True)
    """
    h0, r0 = card_vector(hand), card_vector(reserve)
    game = full_states(
        board,
        player,
        start,
        goals,
        players=players,
        hand=h0,
        reserve=r0,
        trade=trade,
        discard=discard,
    )
    count = count_states(game)
    if count > MAX_FULL_STATES:
        if method == "full":
            raise InvalidInput(
                "method",
                "full",
                f"at most {MAX_FULL_STATES:,} states (hex, hand, reserve) for the whole policy "
                f"space; this question has {'at least ' if game.at_least else ''}{count:,} "
                "(method auto or route)",
            )
        return None
    build(game, board)
    s0 = int(game.index(np.zeros(1, np.int64), h0[None, :], r0[None, :])[0])
    caps = {RESOURCES[j].value: int(game.caps[j]) for j in range(NR) if game.caps[j]}
    never = IncomePlan(
        Status.UNREACHABLE,
        start,
        game.goals,
        player,
        players,
        trade,
        discard,
        None,
        tuple(0.0 for _ in range(within)),
        (),
        (),
        (),
        count,
        ERROR_BOUND,
        method="full",
        card_cap=caps,
    )
    if not can_reach(game, s0):
        return never
    return _solved(never, game, board, h0, r0, s0)


def _solved(
    never: IncomePlan,
    game: FullGame,
    board: Board,
    hand: npt.NDArray[np.int64],
    reserve: npt.NDArray[np.int64],
    s0: int,
) -> IncomePlan:
    """The whole space solved from the start ``s0``: ``never`` (its answer when the car
    cannot arrive) with the values, chances, route and advice of the greedy policy."""
    answer = solve_full(game, board, hand, reserve)
    gap = answer.upper - answer.lower
    arrive, flows = arrivals(answer, len(never.within))
    # docs/rally.md, "The card caps": without trades and the 7-card rule no card beyond
    # the caps is of any use (proven there), so the capped space is the table's game;
    # else the caps restrict it, and whether the certified policy ever loses a card to
    # them says whether its bound holds at the table.
    exact_caps = not game.track_hand
    lost = None
    if not exact_caps:
        lost = answer.certified is None or cap_lost(game, answer.certified, s0)
    return dataclasses.replace(
        never,
        status=Status.OPTIMAL if gap <= ERROR_BOUND and exact_caps else Status.FEASIBLE,
        expected_turns=answer.lower,
        within=arrive,
        route=_route(game, flows),
        first_turn=_first_turn(answer),
        restrictions=() if exact_caps else ("card_cap",),
        error_bound=gap if np.isfinite(gap) else None,
        cap_lost=lost,
        policy=answer,
    )
