"""Harvest on a course (seed rule 7): the exact cargo distribution against an enumeration of
every roll sequence, rule 7's conditions read from the board file, the command line."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from isles.cli import main
from isles.models.board import Board
from isles.models.catan import pips
from isles.models.errors import InvalidInput
from isles.models.hexgrid import Edge, edge
from isles.models.ships.coordinates import parse_settlement
from isles.models.ships.demo import demo_board
from isles.models.ships.limits import ROLLS
from isles.models.ships.settlements import building_owners, harvest, harvest_rolls
from isles.models.ships.winds import ship_edges
from isles.ships import harvest_course
from isles.solvers.ships.graph import target_edges
from isles.solvers.ships.navigation import navigate

BOARD = Path(__file__).parent / "fixtures" / "logbook" / "board.json"


def enumerated(
    board: Board, start: Edge, goal: frozenset[Edge], player: str, rolls: int, cargo: int
) -> list[Fraction]:
    """Every sequence of ``rolls`` rolls, the navigator's steering, ``harvest`` per roll."""
    nav = navigate(board, goal)
    owners, roads = building_owners(board), dict(board.roads)
    out = [Fraction(0)] * 4

    def go(e: Edge, held: int, left: int, p: Fraction) -> None:
        if e in goal or left == 0:
            out[held] += p
            return
        for r, n in enumerate(ROLLS):
            got = harvest(board, e, n, player, owners, roads) if n != 7 else None
            nxt = nav.graph.edges[int(nav.choice[nav.graph.index[e], r])]
            go(nxt, min(3, held + (got is not None)), left - 1, p * Fraction(pips(n), 36))

    go(start, cargo, rolls, Fraction(1))
    return out


@pytest.mark.parametrize("player", ["red", "blue"])
@pytest.mark.parametrize(("start", "cargo"), [("-1,0:-1,1", 0), ("1,1:1,2", 2), ("0,2:0,3", 1)])
def test_against_every_roll_sequence(player: str, start: str, cargo: int) -> None:
    board = Board.load(BOARD)
    e = edge(*[tuple(int(x) for x in h.split(",")) for h in start.split(":")])  # type: ignore[arg-type]
    corner = parse_settlement("0,2:0,3:1,2")
    goal = target_edges(board, near=[corner])
    for rolls in (0, 1, 3):
        out = harvest_course(board, e, near=[corner], player=player, rolls=rolls, start_cargo=cargo)
        assert list(out.cargo) == enumerated(board, e, goal, player, rolls, cargo)
        assert sum(out.cargo) == 1


@pytest.mark.parametrize("player", ["red", "blue", "green"])
def test_the_table_of_harvests_is_rule_7_for_every_edge_and_roll(player: str) -> None:
    """harvest_rolls reads each edge once; harvest, per edge and roll, is the rule itself."""
    for board in (Board.load(BOARD), demo_board()):
        owners, roads = building_owners(board), dict(board.roads)
        table = harvest_rolls(board, player, owners, roads)
        for e in ship_edges(board):
            for n in ROLLS:
                got = table.get(e)
                want = got[1] if got is not None and got[0] == n else None
                assert harvest(board, e, n, player, owners, roads) is want, (e, n)


def test_rule_7_from_the_board_file() -> None:
    board = Board.load(BOARD)
    start, to = edge((-1, 0), (-1, 1)), [edge((0, 2), (0, 3))]
    red = harvest_course(board, start, to, player="red", rolls=5)
    blue = harvest_course(board, start, to, player="blue", rolls=5)
    assert "wool" not in red.taken and blue.taken["wool"] > 0  # blue's road and settlement
    plain = harvest_course(demo_board(), start, to, player="red", rolls=5)
    assert plain.taken["wool"] == blue.taken["wool"]


def test_cli_json_and_refusals(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["ships", "harvest", "--from", "1,1:1,2", "--near", "0,2:0,3:1,2"]
    status = main([*argv, "--player", "red", "--rolls", "4", "--json"])
    out, err = capsys.readouterr()
    assert status == 0 and err == ""
    want = harvest_course(
        demo_board(),
        edge((1, 1), (1, 2)),
        near=[parse_settlement("0,2:0,3:1,2")],
        player="red",
        rolls=4,
    )
    assert json.loads(out) == want.to_dict()
    with pytest.raises(InvalidInput, match="player"):
        harvest_course(
            demo_board(), edge((1, 1), (1, 2)), [edge((0, 2), (0, 3))], player="", rolls=1
        )
    with pytest.raises(InvalidInput, match="rolls"):
        harvest_course(
            demo_board(), edge((1, 1), (1, 2)), [edge((0, 2), (0, 3))], player="red", rolls=101
        )


@settings(max_examples=20, deadline=None)
@given(
    start=st.sampled_from(["-1,0:-1,1", "1,1:1,2", "0,1:0,2", "2,-2:2,-1"]),
    rolls=st.integers(0, 12),
    cargo=st.integers(0, 3),
    player=st.sampled_from(["red", "blue"]),
)
def test_properties(start: str, rolls: int, cargo: int, player: str) -> None:
    """A distribution over 0..3 cards; never fewer cards than at the start (no loss on the
    way); at most one card per roll; more rolls never lower the expected cargo."""
    board = Board.load(BOARD)
    e = edge(*[tuple(int(x) for x in h.split(",")) for h in start.split(":")])  # type: ignore[arg-type]
    corner = [parse_settlement("0,2:0,3:1,2")]
    out = harvest_course(board, e, near=corner, player=player, rolls=rolls, start_cargo=cargo)
    assert sum(out.cargo) == 1 and all(p >= 0 for p in out.cargo)
    assert all(p == 0 for p in out.cargo[:cargo])
    assert out.expected_cargo <= min(3, cargo + rolls)
    more = harvest_course(board, e, near=corner, player=player, rolls=rolls + 1, start_cargo=cargo)
    assert more.expected_cargo >= out.expected_cargo and more.arrived >= out.arrived
