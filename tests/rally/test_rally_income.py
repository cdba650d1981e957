"""The rally as it is played (docs/rally.md): the MDP against a plain value iteration."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from isles.models.board import Board
from isles.models.catan import Building, BuildingKind, Resource, Terrain, Tile
from isles.models.hexgrid import Hex, edge, vertex
from isles.models.rally.rules import ROLLS, discard_count, roll_income
from isles.solvers.rally.income import solve_income
from isles.solvers.rally.income_plan import IncomePlan

P2D6 = {n: (6 - abs(7 - n)) / 36 for n in ROLLS}


def corridor(kind: BuildingKind = BuildingKind.SETTLEMENT, road: bool = False) -> Board:
    """A car on sea (0,0); hills 4 at (1,0), then the goal fields 3 at (2,0)."""
    tiles = {
        Hex(0, 0): Tile(Terrain.SEA),
        Hex(1, 0): Tile(Terrain.HILLS, 4),
        Hex(2, 0): Tile(Terrain.FIELDS, 3),
        Hex(1, -1): Tile(Terrain.HILLS, 6),
        Hex(2, -1): Tile(Terrain.FIELDS, 8),
    }
    buildings = {vertex((1, 0), (1, -1), (2, -1)): Building("red", kind)}
    roads = {edge((1, 0), (2, 0)): "red"} if road else {}
    return Board(tiles, buildings=buildings, roads=roads)


def plain_value(
    costs: list[tuple[int, int]],
    board: Board,
    players: int,
    discard: bool,
    exits: list[float] | None = None,
    gold_to: int | None = None,
) -> float:
    """Plain value iteration over (hex of the corridor, cards held), the rules read directly.

    ``costs[i]`` = (resource index, cards) of the i-th move; ``exits[i]`` the chance
    the i-th move succeeds (leaving a desert; default 1). No trades: every card
    goes to the reserve at the end of a turn, so the hand holds only the cards
    rolled since; on a 7 a hand over 7 loses half, each from the largest pile.
    ``gold_to``: a gold card is named as this resource when it is rolled (the only
    resource the corridor burns).
    """
    rolled = roll_income(board, "red")
    income = [list(row) for row in rolled.cards]
    if gold_to is not None:
        for k, g in enumerate(rolled.gold):
            income[k][gold_to] += g
    odds = exits or [1.0] * len(costs)
    need = [[0] * 5 for _ in range(len(costs) + 1)]
    for i in range(len(costs) - 1, -1, -1):
        need[i] = list(need[i + 1])
        need[i][costs[i][0]] += costs[i][1]

    def window(reserve: tuple[int, ...], rolls: int, i: int) -> dict[tuple[int, ...], float]:
        dist: dict[tuple[int, ...], float] = {(0,) * 5: 1.0}
        for _ in range(rolls):
            nxt: dict[tuple[int, ...], float] = {}
            for hand, m in dist.items():
                for k, n in enumerate(ROLLS):
                    out = list(hand)
                    if n == 7:
                        for _ in range(discard_count(sum(hand)) if discard else 0):
                            j = max(range(5), key=lambda x: (out[x], -x))
                            out[j] -= 1
                    else:
                        out = [a + b for a, b in zip(hand, income[k], strict=True)]
                    key = tuple(out)
                    nxt[key] = nxt.get(key, 0.0) + m * P2D6[n]
            dist = nxt
        end: dict[tuple[int, ...], float] = {}
        for hand, m in dist.items():
            key = tuple(min(r + h, c) for r, h, c in zip(reserve, hand, need[i], strict=True))
            end[key] = end.get(key, 0.0) + m
        return end

    states = {
        i: list(itertools.product(*(range(c + 1) for c in need[i]))) for i in range(len(costs))
    }
    value = {(i, s): 0.0 for i in states for s in states[i]}
    for _ in range(5000):
        change = 0.0
        for i in reversed(range(len(costs))):
            for s in states[i]:
                stay = sum(m * value[(i, t)] for t, m in window(s, players, i).items())
                best = stay
                res, cards = costs[i]
                if s[res] >= cards:
                    paid = list(s)
                    paid[res] -= cards
                    if i + 1 == len(costs):
                        moved = 0.0
                    else:
                        after = tuple(min(a, c) for a, c in zip(paid, need[i + 1], strict=True))
                        moved = sum(
                            m * value[(i + 1, t)] for t, m in window(after, players, i + 1).items()
                        )
                    # a try that fails (leaving a desert) keeps the cards: the stay window
                    best = min(best, odds[i] * moved + (1 - odds[i]) * stay)
                new = 1.0 + best
                change = max(change, abs(new - value[(i, s)]))
                value[(i, s)] = new
        if change < 1e-11:
            break
    first = window((0,) * 5, 1, 0)
    return sum(m * value[(0, t)] for t, m in first.items())


BRICK, GRAIN = list(Resource).index(Resource.BRICK), list(Resource).index(Resource.GRAIN)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_corridor_matches_plain_value_iteration(players: int) -> None:
    board = corridor()
    plan = solve_income(
        board, "red", (0, 0), [(2, 0)], players=players, trade="none", discard=False
    )
    expected = plain_value([(BRICK, 4), (GRAIN, 3)], board, players, False)
    assert plan.expected_turns == pytest.approx(expected, abs=1e-7)


@pytest.mark.parametrize(
    ("kind", "road", "discard", "players"),
    [
        (BuildingKind.CITY, False, True, 6),  # 5 rolls of 2 cards: a 7 can find 8 in hand
        (BuildingKind.CITY, True, False, 4),
        (BuildingKind.SETTLEMENT, True, True, 4),
    ],
)
def test_cities_roads_and_the_7_rule_match_plain_value_iteration(
    kind: BuildingKind, road: bool, discard: bool, players: int
) -> None:
    board = corridor(kind, road)
    plan = solve_income(
        board, "red", (0, 0), [(2, 0)], players=players, trade="none", discard=discard
    )
    costs = [(BRICK, 4), (GRAIN, 2 if road else 3)]
    expected = plain_value(costs, board, players, discard)
    assert plan.expected_turns == pytest.approx(expected, abs=1e-7)


def test_the_7_rule_slows_a_city_at_a_table_of_six() -> None:
    board = corridor(BuildingKind.CITY)
    kept = solve_income(board, "red", (0, 0), [(2, 0)], players=6, trade="none", discard=False)
    lost = solve_income(board, "red", (0, 0), [(2, 0)], players=6, trade="none", discard=True)
    assert kept.expected_turns is not None and lost.expected_turns is not None
    assert lost.expected_turns > kept.expected_turns


def test_without_trades_the_card_caps_restrict_only_with_the_7_rule() -> None:
    # Without trades a card beyond the need is of no use, so losing it changes nothing;
    # with the 7-card rule it counts towards the 7 cards, and the answer must say so.
    board = corridor(BuildingKind.CITY)
    kept = solve_income(board, "red", (0, 0), [(2, 0)], players=6, trade="none", discard=False)
    ruled = solve_income(board, "red", (0, 0), [(2, 0)], players=6, trade="none", discard=True)
    assert "card_cap" not in kept.restrictions
    assert "card_cap" in ruled.restrictions


def test_within_is_the_arrival_distribution_of_the_policy() -> None:
    plan = solve_income(
        corridor(), "red", (0, 0), [(2, 0)], trade="none", discard=False, within=200
    )
    assert plan.within[0] == 0.0  # two moves take two turns at least
    assert all(a <= b + 1e-15 for a, b in itertools.pairwise(plan.within))
    tail = sum(1 - p for p in plan.within)  # E[T] = sum over t >= 0 of P(T > t)
    assert plan.expected_turns == pytest.approx(1 + tail, abs=1e-6)
    assert plan.route == (Hex(0, 0), Hex(1, 0), Hex(2, 0))


def test_a_city_is_never_slower_than_a_settlement() -> None:
    town = solve_income(corridor(), "red", (0, 0), [(2, 0)], trade="none", discard=True)
    city = solve_income(
        corridor(BuildingKind.CITY), "red", (0, 0), [(2, 0)], trade="none", discard=True
    )
    assert town.expected_turns is not None and city.expected_turns is not None
    assert city.expected_turns < town.expected_turns


def test_the_reserve_rule_is_listed_only_where_it_can_cost() -> None:
    # No trades, no 7-card rule: hand and reserve are alike, the answer is the plain
    # recursion's and names only `forward` (it also listed `reserve`, which cost nothing).
    board = corridor()
    free = solve_income(board, "red", (0, 0), [(2, 0)], trade="none", discard=False)
    assert free.restrictions == ("forward",)
    assert free.expected_turns == pytest.approx(
        plain_value([(BRICK, 4), (GRAIN, 3)], board, 4, False), abs=1e-7
    )
    ruled = solve_income(board, "red", (0, 0), [(2, 0)], trade="none", discard=True)
    traded = solve_income(board, "red", (0, 0), [(2, 0)], trade="bank", discard=False)
    assert "reserve" in ruled.restrictions and "reserve" in traded.restrictions


def test_no_income_of_a_needed_resource_is_unreachable() -> None:
    tiles = dict(corridor().tiles)
    tiles[Hex(2, -1)] = Tile(Terrain.HILLS, 8)  # no grain at all: the goal costs grain
    board = Board(tiles, buildings=dict(corridor().buildings))
    plan = solve_income(board, "red", (0, 0), [(2, 0)], trade="none", discard=False)
    assert str(plan.status) == "unreachable" and plan.expected_turns is None
    # the bank's 4:1 trade turns spare brick into grain
    traded = solve_income(board, "red", (0, 0), [(2, 0)], trade="bank", discard=False)
    assert str(traded.status) == "feasible" and traded.expected_turns is not None


def tokens_board(a: int, b: int, c: int, d: int, kind: BuildingKind) -> Board:
    """Sea at 0,0, hills and fields in two rows with the tokens given, red's building on
    the corner of 1,0, 1,-1 and 2,-1 (the hypothesis boards of these tests)."""
    tiles = {
        Hex(0, 0): Tile(Terrain.SEA),
        Hex(1, 0): Tile(Terrain.HILLS, a),
        Hex(2, 0): Tile(Terrain.FIELDS, b),
        Hex(1, -1): Tile(Terrain.HILLS, c),
        Hex(2, -1): Tile(Terrain.FIELDS, d),
    }
    return Board(tiles, buildings={vertex((1, 0), (1, -1), (2, -1)): Building("red", kind)})


TOKENS = st.sampled_from([2, 3, 4, 5, 6, 8, 9, 10, 11, 12])


@settings(max_examples=6, deadline=None)
@given(a=TOKENS, b=TOKENS, c=TOKENS, d=TOKENS, players=st.integers(3, 6))
def test_a_city_never_slower_and_more_players_never_slower(
    a: int, b: int, c: int, d: int, players: int
) -> None:
    def turns(kind: BuildingKind, p: int) -> float:
        plan = solve_income(
            tokens_board(a, b, c, d, kind),
            "red",
            (0, 0),
            [(2, 0)],
            players=p,
            trade="none",
            discard=False,
        )
        assert plan.expected_turns is not None  # both resources come in
        return plan.expected_turns

    town = turns(BuildingKind.SETTLEMENT, players)
    assert turns(BuildingKind.CITY, players) <= town + 1e-9
    if players < 6:  # one more player at the table: one more roll of income per turn
        assert turns(BuildingKind.SETTLEMENT, players + 1) <= town + 1e-9


def test_two_routes_the_choice_depends_on_what_was_rolled() -> None:
    """Hills 5 or forest 9 to a desert goal: going where the cards came first beats committing."""
    tiles = {
        Hex(0, 0): Tile(Terrain.SEA),
        Hex(1, 0): Tile(Terrain.HILLS, 5),
        Hex(1, -1): Tile(Terrain.FOREST, 9),
        Hex(2, -1): Tile(Terrain.DESERT),
        Hex(2, 0): Tile(Terrain.FIELDS, 6),
    }
    board = Board(tiles, buildings={vertex((1, 0), (1, -1), (2, -1)): Building("red")})

    def turns(route: list[Hex] | None) -> float:
        plan = solve_income(
            board, "red", (0, 0), [(2, -1)], trade="none", discard=False, route=route
        )
        assert plan.expected_turns is not None
        return plan.expected_turns

    free = turns(None)
    by_hills, by_forest = turns([Hex(0, 0), Hex(1, 0)]), turns([Hex(0, 0), Hex(1, -1)])
    assert free < min(by_hills, by_forest) - 0.5
    assert by_hills < by_forest  # the hills cost 5 brick, the forest 9 lumber


def test_a_desert_exit_matches_plain_value_iteration() -> None:
    """Sea -> desert (free) -> fields 3: leaving the desert takes P(2d6 <= 3) = 1/12 a try."""
    tiles = {
        Hex(0, 0): Tile(Terrain.SEA),
        Hex(1, 0): Tile(Terrain.DESERT),
        Hex(2, 0): Tile(Terrain.FIELDS, 3),
        Hex(1, -1): Tile(Terrain.HILLS, 6),
        Hex(2, -1): Tile(Terrain.FIELDS, 8),
    }
    board = Board(tiles, buildings={vertex((1, 0), (1, -1), (2, -1)): Building("red")})
    plan = solve_income(board, "red", (0, 0), [(2, 0)], players=4, trade="none", discard=True)
    expected = plain_value([(BRICK, 0), (GRAIN, 3)], board, 4, True, exits=[1.0, 3 / 36])
    assert plan.expected_turns == pytest.approx(expected, abs=1e-7)
    assert plan.route == (Hex(0, 0), Hex(1, 0), Hex(2, 0))


def test_gold_income_matches_plain_value_iteration() -> None:
    """A settlement on a gold hex 8 and fields 6: gold is named as grain, all the route burns."""
    tiles = {
        Hex(0, 0): Tile(Terrain.SEA),
        Hex(1, 0): Tile(Terrain.FIELDS, 4),
        Hex(2, 0): Tile(Terrain.FIELDS, 3),
        Hex(1, -1): Tile(Terrain.FIELDS, 6),
        Hex(2, -1): Tile(Terrain.GOLD, 8),
    }
    board = Board(tiles, buildings={vertex((1, 0), (1, -1), (2, -1)): Building("red")})
    plan = solve_income(board, "red", (0, 0), [(2, 0)], players=4, trade="none", discard=True)
    assert "gold_choice" in plan.restrictions
    expected = plain_value([(GRAIN, 4), (GRAIN, 3)], board, 4, True, gold_to=GRAIN)
    assert plan.expected_turns == pytest.approx(expected, abs=1e-7)


def test_a_two_to_one_harbour_is_faster_than_the_bank() -> None:
    """Brick income only, 4 grain to pay: the bank takes 16 brick, red's 2:1 brick harbour 8."""
    from isles.models.catan import HarbourKind

    tiles = {
        Hex(0, 0): Tile(Terrain.SEA),
        Hex(1, 0): Tile(Terrain.FIELDS, 4),
        Hex(1, -1): Tile(Terrain.HILLS, 6),
        Hex(2, -1): Tile(Terrain.HILLS, 8),
        Hex(2, -2): Tile(Terrain.SEA),
    }
    board = Board(
        tiles,
        buildings={vertex((1, -1), (2, -1), (2, -2)): Building("red")},
        harbours={edge((2, -1), (2, -2)): HarbourKind.BRICK},
    )
    bank, port, none = (
        solve_income(board, "red", (0, 0), [(1, 0)], trade=t, discard=False)
        for t in ("bank", "harbours", "none")
    )
    assert str(none.status) == "unreachable"
    assert bank.expected_turns is not None and port.expected_turns is not None
    # 5/36 + 5/36 brick a roll, 4 rolls a turn: 16 brick take over 14 turns, 8 over 7
    assert port.expected_turns < bank.expected_turns - 2


def _harbour_board() -> Board:
    """Brick income only, grain to pay: red's settlement on a 2:1 brick harbour."""
    from isles.models.catan import HarbourKind

    tiles = {
        Hex(0, 0): Tile(Terrain.SEA),
        Hex(1, 0): Tile(Terrain.FIELDS, 4),
        Hex(1, -1): Tile(Terrain.HILLS, 6),
        Hex(2, -1): Tile(Terrain.HILLS, 8),
        Hex(2, -2): Tile(Terrain.SEA),
    }
    return Board(
        tiles,
        buildings={vertex((1, -1), (2, -1), (2, -2)): Building("red")},
        harbours={edge((2, -1), (2, -2)): HarbourKind.BRICK},
    )


def _two_routes_gold() -> Board:
    """Two routes to a desert goal, a gold hex among red's corners (every rule at once)."""
    tiles = {
        Hex(0, 0): Tile(Terrain.SEA),
        Hex(1, 0): Tile(Terrain.HILLS, 3),
        Hex(1, -1): Tile(Terrain.FOREST, 4),
        Hex(2, -1): Tile(Terrain.DESERT),
        Hex(2, 0): Tile(Terrain.GOLD, 6),
    }
    return Board(tiles, buildings={vertex((1, 0), (1, -1), (2, -1)): Building("red")})


@pytest.mark.parametrize(
    ("board", "goal", "trade", "players"),
    [
        (_harbour_board(), Hex(1, 0), "harbours", 4),
        (_harbour_board(), Hex(1, 0), "bank", 3),
        (corridor(BuildingKind.CITY), Hex(2, 0), "bank", 6),
        (_two_routes_gold(), Hex(2, -1), "bank", 4),
    ],
)
def test_levels_match_whole_grid_sweeps_with_trades(
    board: Board, goal: Hex, trade: str, players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Solving one level of reserve cards at a time gives what sweeping each whole grid gives."""
    from isles.solvers.rally import position
    from tests.rally.income_sweeps import sweep_position

    def solve() -> IncomePlan:
        return solve_income(
            board, "red", (0, 0), [goal], players=players, trade=trade, discard=True, within=30
        )

    levels = solve()
    monkeypatch.setattr(position, "solve_position", sweep_position)
    sweeps = solve()
    assert levels.expected_turns is not None and sweeps.expected_turns is not None
    assert levels.expected_turns == pytest.approx(sweeps.expected_turns, abs=1e-7)
    assert levels.within == pytest.approx(sweeps.within, abs=1e-7)
    assert levels.route == sweeps.route


def test_turn_1_advice_shows_the_cards_at_the_table_not_the_capped_ones() -> None:
    # 10 brick in hand, 4 needed: the committed route's advice showed brick=4 (its capped
    # state); the owner holds 10, 11 after a 6 (hills 6), 5 after a 7 (half of 10 discarded)
    board = corridor()
    hand = {Resource.BRICK: 10}
    plan = solve_income(board, "red", (0, 0), [(2, 0)], trade="none", hand=hand)
    assert plan.method == "route"
    by_roll = {a.roll: a.cards for a in plan.first_turn}
    assert by_roll[2] == {"brick": 10} and by_roll[6] == {"brick": 11}
    assert by_roll[7] == {"brick": 5} and by_roll[8] == {"grain": 1, "brick": 10}
    kept = solve_income(board, "red", (0, 0), [(2, 0)], trade="none", reserve={Resource.BRICK: 9})
    assert {a.roll: a.cards for a in kept.first_turn}[7] == {"brick": 9}  # the reserve is safe
