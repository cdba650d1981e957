"""The whole policy space of the rally as it is played (docs/rally.md, "The whole policy space").

The solver against a plain value iteration over (hex, hand, reserve) written here
from the rules (plain dicts, every choice enumerated), and a property: the whole
space is never slower than the committed routes.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from isles.models.board import Board
from isles.models.catan import Building, BuildingKind, HarbourKind, Resource, Terrain, Tile
from isles.models.hexgrid import Hex, edge, vertex
from isles.models.rally.rules import (
    ROLLS,
    TradeMode,
    desert_exit_probability,
    entry_cost,
    player_roads,
    roll_income,
    trade_ratios,
)
from isles.solvers.rally.drive import plan_income
from isles.solvers.rally.full_space import FullGame, full_states
from isles.solvers.rally.full_values import ERROR_BOUND, FullAnswer, cap_lost, solve_full
from isles.solvers.rally.income import solve_income
from tests.rally.test_rally_income import tokens_board

P2D6 = {n: (6 - abs(7 - n)) / 36 for n in ROLLS}
RES = list(Resource)

State = tuple[Hex, tuple[int, ...], tuple[int, ...]]


def plain_full(
    board: Board,
    start: Hex,
    goals: Sequence[Hex],
    players: int,
    trade: str,
    discard: bool,
    caps: Sequence[int],
) -> float:
    """Fewest expected turns by plain value iteration, every choice of a turn enumerated.

    A state is (hex, hand, reserve), at most ``caps[j]`` cards of resource j held
    (income beyond leaves the hand). A turn: the owner's choices (any chain of
    trades, any cards from hand to reserve, a wait or a move to any adjacent land
    hex paid from hand and reserve in any split, leaving a desert a roll that may
    fail), then ``players`` rolls, each giving the income, a gold card named as
    rolled, on a 7 a chosen half of a hand over 7 discarded.
    """
    goal_set = set(goals)
    roads = set(player_roads(board, "red"))
    income = roll_income(board, "red")
    ratios = trade_ratios(board, "red", trade)
    kinds = [j for j in range(5) if caps[j] > 0]
    land = [h for h in board.tiles if board.tiles[h].terrain.is_land]
    hexes = [h for h in [start, *land] if h not in goal_set]

    def cards(hand: tuple[int, ...], reserve: tuple[int, ...]) -> list[int]:
        return [a + b for a, b in zip(hand, reserve, strict=True)]

    per_kind = [
        [(h, r) for h in range(caps[j] + 1) for r in range(caps[j] + 1 - h)]
        if caps[j]
        else [(0, 0)]
        for j in range(5)
    ]
    states: list[State] = []
    for v in hexes:
        for combo in itertools.product(*per_kind):
            states.append((v, tuple(c[0] for c in combo), tuple(c[1] for c in combo)))

    def clip(v: Hex, hand: list[int], reserve: tuple[int, ...]) -> State:
        hand = [min(h, caps[j] - reserve[j]) for j, h in enumerate(hand)]
        return (v, tuple(hand), reserve)

    def after_roll(s: State, roll: int) -> list[State]:
        v, hand, reserve = s
        if roll == 7:
            total = sum(hand)
            if not discard or total <= 7:
                return [s]
            k = total // 2
            return [
                (v, tuple(h - d for h, d in zip(hand, drop, strict=True)), reserve)
                for drop in itertools.product(*(range(h + 1) for h in hand))
                if sum(drop) == k
            ]
        i = ROLLS.index(roll)
        base = [h + c for h, c in zip(hand, income.cards[i], strict=True)]
        out = []
        for named in itertools.combinations_with_replacement(kinds, income.gold[i]):
            hand2 = list(base)
            for j in named:
                hand2[j] += 1
            out.append(clip(v, hand2, reserve))
        return out

    rolls = {s: {n: after_roll(s, n) for n in ROLLS} for s in states}

    def trades(s: State) -> set[State]:
        seen = {s}
        todo = [s]
        while todo and ratios is not None:
            v, hand, reserve = todo.pop()
            for i in kinds:
                if hand[i] < ratios[i]:
                    continue
                for k in kinds:
                    if k != i and hand[k] + reserve[k] < caps[k]:
                        h2 = list(hand)
                        h2[i] -= ratios[i]
                        h2[k] += 1
                        t = (v, tuple(h2), reserve)
                        if t not in seen:
                            seen.add(t)
                            todo.append(t)
        return seen

    def kept(s: State) -> set[State]:
        v, hand, reserve = s
        out = set()
        for put in itertools.product(*(range(h + 1) for h in hand)):
            h2 = tuple(h - a for h, a in zip(hand, put, strict=True))
            r2 = tuple(r + a for r, a in zip(reserve, put, strict=True))
            out.add((v, h2, r2))
        return out

    # the turn's options of each state: (chance of the move, states it may end in, or None
    # for a goal; the state a failed try ends in)
    Option = tuple[float, tuple[State, ...] | None, State]
    options: dict[State, list[Option]] = {}
    for s in states:
        ends: set[Option] = set()
        for t in trades(s):
            for u in kept(t):
                v, hand, reserve = u
                ends.add((0.0, (), u))
                for w in board.neighbours(v):
                    tile = board.tiles[w]
                    if not tile.terrain.is_land:
                        continue
                    cost = entry_cost(tile, edge(v, w) in roads)
                    p = (
                        float(desert_exit_probability(tile))
                        if board.tiles[v].terrain is Terrain.DESERT
                        else 1.0
                    )
                    if cost.cards == 0:
                        payers: list[int | None] = [None]
                    elif cost.resource is None:
                        payers = list(kinds)
                    else:
                        payers = [RES.index(cost.resource)]
                    for j in payers:
                        if j is not None and (caps[j] == 0 or cards(hand, reserve)[j] < cost.cards):
                            continue
                        if w in goal_set:
                            ends.add((p, None, u))
                            continue
                        paid = set()
                        for b in range(cost.cards + 1) if j is not None else [0]:
                            h2, r2 = list(hand), list(reserve)
                            if j is not None:
                                h2[j] -= b
                                r2[j] -= cost.cards - b
                            if min(h2) >= 0 and min(r2) >= 0:
                                paid.add((w, tuple(h2), tuple(r2)))
                        ends.add((p, tuple(sorted(paid)), u))
        options[s] = sorted(ends, key=repr)

    first = (start, (0,) * 5, (0,) * 5)

    def at_start(value: dict[State, float]) -> float:
        return sum(P2D6[n] * min(value[c] for c in rolls[first][n]) for n in ROLLS)

    # States that cannot reach a goal (a reserve full of a card no move burns) rise
    # forever: the iteration stops when the start's value stops moving.
    value = dict.fromkeys(states, 0.0)
    last = 0.0
    for _ in range(20_000):
        window = value
        for _ in range(players):
            window = {
                s: sum(P2D6[n] * min(window[c] for c in rolls[s][n]) for n in ROLLS) for s in states
            }
        new = {}
        for s in states:
            best = float("inf")
            for p, moved, failed in options[s]:
                there = 0.0 if moved is None else min((window[x] for x in moved), default=0.0)
                cand = p * there + (1 - p) * window[failed] if p else window[failed]
                best = min(best, cand)
            new[s] = 1.0 + best
        value = new
        now = at_start(value)
        if now - last < 1e-12:
            break
        last = now
    return sum(P2D6[n] * min(value[c] for c in rolls[first][n]) for n in ROLLS)


def full_value(
    board: Board,
    start: Hex,
    goals: Sequence[Hex],
    players: int,
    trade: str,
    discard: bool,
    caps: Sequence[int],
) -> tuple[float, float, int]:
    zero = np.zeros(5, np.int64)
    game = full_states(
        board,
        "red",
        start,
        goals,
        players=players,
        hand=zero,
        reserve=zero,
        trade=trade,
        discard=discard,
        caps=np.array(caps, np.int64),
    )
    answer = solve_full(game, board, zero, zero)
    return answer.lower, answer.upper, game.n


def _caps(**kw: int) -> list[int]:
    out = [0] * 5
    for name, k in kw.items():
        out[RES.index(Resource(name))] = k
    return out


def corridor(
    kind: BuildingKind = BuildingKind.SETTLEMENT, road: bool = False, desert: bool = False
) -> Board:
    """Sea (0,0); hills 2 (or a desert) at (1,0); the goal fields 3 (2,0); income on 6, 8."""
    tiles = {
        Hex(0, 0): Tile(Terrain.SEA),
        Hex(1, 0): Tile(Terrain.DESERT) if desert else Tile(Terrain.HILLS, 2),
        Hex(2, 0): Tile(Terrain.FIELDS, 3),
        Hex(1, -1): Tile(Terrain.HILLS, 6),
        Hex(2, -1): Tile(Terrain.FIELDS, 8),
    }
    roads = {edge((1, 0), (2, 0)): "red"} if road else {}
    buildings = {vertex((1, 0), (1, -1), (2, -1)): Building("red", kind)}
    return Board(tiles, buildings=buildings, roads=roads)


def two_routes() -> Board:
    """Hills 2 or forest 2 to a desert goal; brick comes on 6, lumber on 8."""
    tiles = {
        Hex(0, 0): Tile(Terrain.SEA),
        Hex(1, 0): Tile(Terrain.HILLS, 2),
        Hex(1, -1): Tile(Terrain.FOREST, 2),
        Hex(2, -1): Tile(Terrain.DESERT),
        Hex(2, -2): Tile(Terrain.HILLS, 6),
        Hex(2, 0): Tile(Terrain.FOREST, 8),
    }
    towns = [vertex((1, -1), (2, -1), (2, -2)), vertex((1, 0), (2, -1), (2, 0))]
    return Board(tiles, buildings={c: Building("red") for c in towns})


def harbour(kind: HarbourKind | None, building: BuildingKind = BuildingKind.CITY) -> Board:
    """Brick income only (6 and 8), the goal fields 2 costs grain: trades or nothing."""
    tiles = {
        Hex(0, 0): Tile(Terrain.SEA),
        Hex(1, 0): Tile(Terrain.FIELDS, 2),
        Hex(1, -1): Tile(Terrain.HILLS, 6),
        Hex(2, -1): Tile(Terrain.HILLS, 8),
        Hex(2, -2): Tile(Terrain.SEA),
    }
    sides = {} if kind is None else {edge((2, -1), (2, -2)): kind}
    return Board(
        tiles,
        buildings={vertex((1, -1), (2, -1), (2, -2)): Building("red", building)},
        harbours=sides,
    )


def wool_city() -> Board:
    """A city on pasture 6 (wool burnt nowhere) beside fields 8; the goal fields 2."""
    tiles = {
        Hex(0, 0): Tile(Terrain.SEA),
        Hex(1, 0): Tile(Terrain.FIELDS, 2),
        Hex(1, -1): Tile(Terrain.PASTURE, 6),
        Hex(2, -1): Tile(Terrain.FIELDS, 8),
        Hex(2, -2): Tile(Terrain.SEA),
    }
    city = Building("red", BuildingKind.CITY)
    return Board(tiles, buildings={vertex((1, -1), (2, -1), (2, -2)): city})


def gold_routes() -> Board:
    """Two routes to a desert goal, the second through gold 3; income from gold 6 and hills 8."""
    tiles = {
        Hex(0, 0): Tile(Terrain.SEA),
        Hex(1, 0): Tile(Terrain.HILLS, 2),
        Hex(1, -1): Tile(Terrain.GOLD, 3),
        Hex(2, -1): Tile(Terrain.DESERT),
        Hex(2, -2): Tile(Terrain.GOLD, 6),
        Hex(2, 0): Tile(Terrain.HILLS, 8),
    }
    towns = [vertex((1, -1), (2, -1), (2, -2)), vertex((1, 0), (2, -1), (2, 0))]
    return Board(tiles, buildings={c: Building("red") for c in towns})


CASES = [
    # board, goal, players, trade, discard, caps
    ("corridor", corridor(), Hex(2, 0), 4, "none", True, _caps(brick=2, grain=3)),
    ("corridor P=3", corridor(), Hex(2, 0), 3, "none", False, _caps(brick=2, grain=3)),
    ("road", corridor(road=True), Hex(2, 0), 5, "none", True, _caps(brick=2, grain=2)),
    ("city", corridor(BuildingKind.CITY), Hex(2, 0), 6, "none", True, _caps(brick=2, grain=3)),
    ("desert exit", corridor(desert=True), Hex(2, 0), 4, "none", True, _caps(grain=3)),
    ("two routes", two_routes(), Hex(2, -1), 4, "none", True, _caps(brick=2, lumber=2)),
    ("bank", harbour(None), Hex(1, 0), 4, "bank", True, _caps(brick=4, grain=2)),
    ("3:1", harbour(HarbourKind.GENERIC), Hex(1, 0), 3, "harbours", True, _caps(brick=3, grain=2)),
    ("2:1", harbour(HarbourKind.BRICK), Hex(1, 0), 5, "harbours", True, _caps(brick=3, grain=2)),
    ("7 rule, bank", wool_city(), Hex(1, 0), 6, "bank", True, _caps(wool=9, grain=2)),
    ("gold", gold_routes(), Hex(2, -1), 3, "none", True, _caps(brick=2, grain=1, ore=1)),
]


@pytest.mark.parametrize(
    ("board", "goal", "players", "trade", "discard", "caps"),
    [c[1:] for c in CASES],
    ids=[c[0] for c in CASES],
)
def test_whole_space_matches_plain_value_iteration(
    board: Board, goal: Hex, players: int, trade: str, discard: bool, caps: list[int]
) -> None:
    lower, upper, _ = full_value(board, Hex(0, 0), [goal], players, trade, discard, caps)
    expected = plain_full(board, Hex(0, 0), [goal], players, trade, discard, caps)
    assert upper - lower <= ERROR_BOUND
    # both iterations rise from 0: the plain one is a lower bound too, near its limit
    assert expected <= upper + 1e-9
    assert expected == pytest.approx(lower, abs=1e-6)


def test_trades_and_harbours_speed_the_car() -> None:
    """Brick only comes in: the bank takes 8 brick for 2 grain, a 3:1 harbour 6, a 2:1 one 4."""
    caps = _caps(brick=4, grain=2)
    turns = [
        full_value(harbour(k), Hex(0, 0), [Hex(1, 0)], 4, t, True, caps)[0]
        for k, t in [
            (None, "bank"),
            (HarbourKind.GENERIC, "harbours"),
            (HarbourKind.BRICK, "harbours"),
        ]
    ]
    assert turns[0] > turns[1] > turns[2]


def test_the_choice_of_route_waits_for_the_roll() -> None:
    """Two routes: the whole space beats either route committed to."""
    board = two_routes()
    free = plan_income(board, "red", (0, 0), [(2, -1)], trade="none", discard="off")
    assert str(free.status) == "optimal" and free.method == "full"
    assert free.error_bound is not None and free.error_bound <= ERROR_BOUND
    committed = [
        solve_income(board, "red", (0, 0), [(2, -1)], trade="none", discard=False, route=r)
        for r in ([Hex(0, 0), Hex(1, 0)], [Hex(0, 0), Hex(1, -1)])
    ]
    assert free.expected_turns is not None
    assert all(c.expected_turns is not None for c in committed)
    assert free.expected_turns < min(c.expected_turns or 0 for c in committed) - 0.3
    assert free.within[-1] == pytest.approx(1.0, abs=1e-3)


def test_unreachable_in_the_whole_space() -> None:
    board = harbour(None)
    plan = plan_income(board, "red", (0, 0), [(1, 0)], trade="none")
    assert str(plan.status) == "unreachable" and plan.method == "full"
    assert plan.expected_turns is None


TOKENS = st.sampled_from([2, 3, 4, 5, 6, 8, 9, 10, 11, 12])


@settings(max_examples=5, deadline=None)
@given(
    a=TOKENS,
    b=TOKENS,
    c=TOKENS,
    d=TOKENS,
    players=st.integers(3, 6),
    discard=st.sampled_from(["on", "off"]),
)
def test_whole_space_never_slower_than_committed_routes(
    a: int, b: int, c: int, d: int, players: int, discard: str
) -> None:
    board = tokens_board(a, b, c, d, BuildingKind.SETTLEMENT)
    table: dict[str, Any] = {"players": players, "trade": "none", "discard": discard}
    full = plan_income(board, "red", (0, 0), [(2, 0)], **table)
    if full.method != "full":  # too many states: the committed route is the answer
        return
    routed = plan_income(board, "red", (0, 0), [(2, 0)], method="route", **table)
    assert (full.expected_turns is None) == (routed.expected_turns is None)
    if full.expected_turns is not None and routed.expected_turns is not None:
        assert full.error_bound is not None
        assert full.expected_turns <= routed.expected_turns + 1e-7


@pytest.mark.parametrize(
    ("kind", "trade"),
    [(None, "bank"), (HarbourKind.GENERIC, "harbours"), (HarbourKind.BRICK, "harbours")],
)
def test_whole_space_never_slower_with_trades(kind: HarbourKind | None, trade: TradeMode) -> None:
    board = harbour(kind)
    full = plan_income(board, "red", (0, 0), [(1, 0)], trade=trade)
    routed = plan_income(board, "red", (0, 0), [(1, 0)], trade=trade, method="route")
    assert full.method == "full" and full.expected_turns is not None
    assert routed.expected_turns is not None
    assert full.expected_turns <= routed.expected_turns + 1e-7


def test_three_cards_more_of_each_change_nothing() -> None:
    """The card caps do not bind here: a larger card space gives the same fewest turns."""
    board = harbour(HarbourKind.BRICK, BuildingKind.SETTLEMENT)
    zero = np.zeros(5, np.int64)
    game = full_states(
        board, "red", Hex(0, 0), [Hex(1, 0)], players=4, hand=zero, reserve=zero,
        trade="harbours", discard=True,
    )  # fmt: skip
    caps = [int(c) for c in game.caps]
    wider = [c + 3 if c else 0 for c in caps]
    low, _, n = full_value(board, Hex(0, 0), [Hex(1, 0)], 4, "harbours", True, caps)
    wide, _, n_wide = full_value(board, Hex(0, 0), [Hex(1, 0)], 4, "harbours", True, wider)
    assert n_wide > 2 * n
    assert wide == pytest.approx(low, abs=1e-8)


def plain_cap_lost(game: FullGame, answer: FullAnswer) -> bool:
    """Play the certified policy at the table (plain BFS over (rolls left, state, extras)):
    the cards the caps take away kept in hand as extras, discarded first on a 7, put in the
    reserve at the owner's turn; True when a 7 must take a card the policy keeps."""
    pol = answer.certified
    assert pol is not None
    income = game.income
    n = game.n
    seen: set[tuple[int, int, int]] = set()
    todo = [(0, answer.start, 0)]  # (rolls left - 1, capped state before the roll, extras)
    while todo:
        k, s, extra = todo.pop()
        if (k, s, extra) in seen:
            continue
        seen.add((k, s, extra))
        for i, roll in enumerate(ROLLS):
            t = int(pol.layers[k][i, s])
            if roll == 7:
                hand = int(game.hand[s].sum())
                must = (hand + extra) // 2 if hand + extra > 7 else 0
                own = hand // 2 if hand > 7 else 0  # what the policy discards itself
                if must > extra + own:
                    return True  # the half discarded reaches the policy's own cards
                after = extra - (must - own)  # the policy's discards, then extras
            else:
                assert not income.gold[i]  # boards without gold: income fixed per roll
                held = game.hand[s] + game.reserve[s] + np.array(income.cards[i])
                after = extra + sum(max(0, int(held[j] - game.caps[j])) for j in range(5))
            if k > 0:
                todo.append((k - 1, t, after))
                continue
            u = int(pol.keep[t])  # the owner's turn: the extras go to the reserve
            o = int(pol.option[u])
            p = game.options[o].p if o >= 0 else 0.0
            if o >= 0 and int(pol.to[u]) < n:
                todo.append((game.players - 1, int(pol.to[u]), 0))
            if p < 1:
                todo.append((game.players - 1, u, 0))
    return False


@pytest.mark.parametrize(
    ("board", "goal", "players", "trade", "caps", "lost"),
    [
        (harbour(None), Hex(1, 0), 4, "bank", _caps(brick=4, grain=2), False),
        (harbour(None), Hex(1, 0), 4, "bank", None, False),
        (wool_city(), Hex(1, 0), 6, "bank", _caps(wool=9, grain=2), True),
        (corridor(), Hex(2, 0), 4, "none", _caps(brick=2, grain=3), False),
        (corridor(), Hex(2, 0), 4, "none", None, True),
        (corridor(BuildingKind.CITY), Hex(2, 0), 6, "none", _caps(brick=2, grain=3), True),
    ],
    ids=["bank, small caps", "bank", "wool city", "7 rule, small caps", "7 rule", "city"],
)
def test_cap_lost_against_a_plain_walk_of_the_policy(
    board: Board, goal: Hex, players: int, trade: str, caps: list[int] | None, lost: bool
) -> None:
    zero = np.zeros(5, np.int64)
    game = full_states(
        board, "red", Hex(0, 0), [goal], players=players, hand=zero, reserve=zero, trade=trade,
        discard=True, caps=None if caps is None else np.array(caps, np.int64),
    )  # fmt: skip
    answer = solve_full(game, board, zero, zero)
    assert answer.certified is not None
    assert cap_lost(game, answer.certified, answer.start) is lost
    assert plain_cap_lost(game, answer) is lost


def test_the_card_caps_restrict_unless_no_trades_and_no_7_rule() -> None:
    banked = plan_income(harbour(None), "red", (0, 0), [(1, 0)], trade="bank")
    assert str(banked.status) == "feasible" and banked.method == "full"
    assert banked.restrictions == ("card_cap",) and banked.cap_lost is False
    assert banked.error_bound is not None and banked.error_bound <= ERROR_BOUND
    free = plan_income(corridor(), "red", (0, 0), [(2, 0)], trade="none", discard="off")
    assert str(free.status) == "optimal" and free.restrictions == () and free.cap_lost is None


@pytest.mark.parametrize("players", [3, 5])
def test_no_trades_no_7_rule_cards_beyond_the_caps_are_of_no_use(players: int) -> None:
    """The proof's claim (docs/rally.md, "The card caps"), by the plain value iteration:
    two cards more of each resource than the costliest route burns change nothing."""
    board = corridor()
    tight = plain_full(
        board, Hex(0, 0), [Hex(2, 0)], players, "none", False, _caps(brick=2, grain=3)
    )
    wide = plain_full(
        board, Hex(0, 0), [Hex(2, 0)], players, "none", False, _caps(brick=4, grain=5)
    )
    assert wide == pytest.approx(tight, abs=1e-9)
    lower, _, _ = full_value(
        board, Hex(0, 0), [Hex(2, 0)], players, "none", False, _caps(brick=2, grain=3)
    )
    assert lower == pytest.approx(tight, abs=1e-6)


@settings(max_examples=4, deadline=None)
@given(a=TOKENS, b=TOKENS, c=TOKENS, d=TOKENS, players=st.integers(3, 6))
def test_a_city_never_slower_without_the_7_rule(
    a: int, b: int, c: int, d: int, players: int
) -> None:
    """The issue's properties, where they are proven (no 7-card rule: a card may go unused):
    a city never slower than a settlement on the same corner."""
    boards = {
        "town": tokens_board(a, b, c, d, BuildingKind.SETTLEMENT),
        "city": tokens_board(a, b, c, d, BuildingKind.CITY),
    }
    table: dict[str, Any] = {"players": players, "trade": "none", "discard": "off"}
    turns = {}
    for name, board in boards.items():
        plan = plan_income(board, "red", (0, 0), [(2, 0)], **table)
        assert str(plan.status) == "optimal" and plan.expected_turns is not None
        turns[name] = plan.expected_turns
    assert turns["city"] <= turns["town"] + 1e-6
