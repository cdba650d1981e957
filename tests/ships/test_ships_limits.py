"""Issue 18, ships: --player against the board's players, one standard input, a log book's
broken start entry named, and the ship-edge cap of every ships solver (refused before work)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings

from isles.cli import main
from isles.models.board import Board, beginner_board
from isles.models.catan import Terrain, Tile
from isles.models.errors import InvalidInput
from isles.models.hexgrid import edge, hexagon
from isles.models.ships.coordinates import parse_settlement
from isles.models.ships.demo import demo_board
from isles.models.ships.limits import MAX_SHIP_EDGES
from isles.models.ships.logbook import read_log
from isles.models.ships.winds import ship_edge_count, ship_edges
from isles.models.status import Status
from isles.ships import check_log, harvest_course, sail
from isles.solvers import work
from isles.solvers.ships import graph
from isles.solvers.ships.graph import wind_graph
from tests.ships.test_sail_solver import small_boards

FIXTURES = Path(__file__).parent / "fixtures" / "logbook"
BOARD = FIXTURES / "board.json"  # buildings of blue and red, a road of blue
HARVEST = ["ships", "harvest", "--from", "1,1:1,2", "--near", "0,2:0,3:1,2", "--rolls", "4"]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        status = main(list(argv))
    except SystemExit as exc:
        status = int(exc.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


# -- 1. --player is one of the board's players --------------------------------------------


@pytest.mark.parametrize("player", ["Red", "nobody"])
def test_harvest_refuses_a_player_the_board_does_not_name(
    capsys: pytest.CaptureFixture[str], player: str
) -> None:
    status, out, err = run(capsys, *HARVEST, "--board", str(BOARD), "--player", player)
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1
    assert f"--player: '{player}' is invalid" in err
    assert "a player of the board: blue, red" in err
    with pytest.raises(InvalidInput, match=f"player: '{player}'.*blue, red"):
        harvest_course(
            Board.load(BOARD),
            edge((1, 1), (1, 2)),
            near=[parse_settlement("0,2:0,3:1,2")],
            player=player,
            rolls=4,
        )


def test_harvest_takes_the_board_players_and_any_name_on_a_board_naming_none(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, _, err = run(capsys, *HARVEST, "--board", str(BOARD), "--player", "red")
    assert status == 0 and err == ""
    # The demo board has no buildings or roads: rule 7 reads nothing against the owner.
    status, _, err = run(capsys, *HARVEST, "--player", "anyone")
    assert status == 0 and err == ""


def test_rally_and_harvest_share_one_check() -> None:
    from isles.models.rally.rules import player_roads

    board = Board.load(BOARD)
    with pytest.raises(InvalidInput) as rally:
        player_roads(board, "Red")
    with pytest.raises(InvalidInput) as shared:
        board.check_player("Red")
    assert str(rally.value) == str(shared.value)
    assert board.players() == ["blue", "red"]


# -- 3. two standard inputs -----------------------------------------------------------------


def test_check_refuses_the_log_and_the_board_both_from_stdin(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = run(capsys, "ships", "check", "-", "--board", "-")
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1
    assert "--board: '-' is invalid" in err and "standard input" in err and "LOG" in err


# -- 4. a ship at the start over the cargo limit, or off the board -------------------------


def _log_with_start(ship: dict[str, object]) -> dict[str, object]:
    first = {"ship": 1, "edge": [[1, 1], [1, 2]]}
    return {"player": "red", "ships": [first, ship], "rolls": [{"roll": 8}]}


def test_a_start_with_four_cards_names_the_entry(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    four = {"ship": 2, "edge": [[0, 2], [1, 1]], "cargo": ["ore", "ore", "wool", "brick"]}
    replay = check_log(Board.load(BOARD), read_log(_log_with_start(four)))
    assert replay.status is Status.INCONSISTENT and not replay.started
    assert replay.breach is not None and replay.breach.entry == "log.ships[1].cargo"
    assert "4 cards (ore, ore, wool, brick)" in replay.breach.message
    assert "at most 3" in replay.breach.message
    path = tmp_path / "four.json"
    path.write_text(json.dumps(_log_with_start(four)))
    status, out, err = run(capsys, "ships", "check", str(path), "--board", str(BOARD))
    assert status == 1 and err == ""
    assert "0 ships" not in out and "no ship" not in out
    assert f"{path}.ships[1].cargo: ship 2 starts with 4 cards" in out


def test_a_start_off_the_ship_edges_names_the_edge() -> None:
    inland = {"ship": 2, "edge": [[0, 0], [1, 0]]}
    board = beginner_board()
    replay = check_log(board, read_log(_log_with_start(inland)))
    assert replay.breach is not None and replay.breach.entry == "log.ships[1].edge"
    message = replay.breach.message
    assert "0,0:1,0" in message and "at least one of them sea" in message


# -- 2. the ship-edge cap --------------------------------------------------------------------


@settings(max_examples=40)
@given(board=small_boards(max_hexes=7))
def test_the_cheap_count_is_the_number_of_ship_edges(board: Board) -> None:
    assert ship_edge_count(board) == len(ship_edges(board))


def test_the_count_on_known_boards() -> None:
    for board in (beginner_board(), demo_board()):
        assert ship_edge_count(board) == len(ship_edges(board))


def _just_over_the_cap() -> Board:
    """The all-sea hexagon of radius 106: 9 r^2 + 3 r = 101,442 ship edges."""
    board = Board({h: Tile(Terrain.SEA, 6) for h in hexagon(106)})
    assert MAX_SHIP_EDGES < ship_edge_count(board) < MAX_SHIP_EDGES + 2_000
    return board


def test_a_board_over_the_cap_is_refused_before_any_table(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    board = _just_over_the_cap()

    def no_listing(_: Board) -> list[object]:
        raise AssertionError("the edges were listed before the refusal")

    monkeypatch.setattr(graph, "ship_edges", no_listing)
    start, to = edge((0, 0), (1, 0)), [edge((0, 0), (0, 1))]
    message = f"the board has 101,442 ship edges; expected a board of at most {MAX_SHIP_EDGES:,}"
    for call in (
        lambda: wind_graph(board),
        lambda: sail(board, start, to),
        lambda: harvest_course(board, start, to, player="red", rolls=1),
    ):
        with pytest.raises(InvalidInput, match=message):
            call()
    path = tmp_path / "big.json"
    board.save(path)
    status, out, err = run(
        capsys, "sail", "--board", str(path), "--from", "0,0:1,0", "--to", "0,0:0,1"
    )
    assert status == 2 and out == ""
    assert f"--board: {message} ship edges" in err
    assert len(err.strip().splitlines()) == 1


# -- the conversion table: one solve per spot ---------------------------------------------


def _many_spots() -> Board:
    """Radius 5, every third column forest: 240 ship edges, 162 lumber spots."""
    return Board(
        {h: Tile(Terrain.FOREST if (h.q - h.r) % 3 == 0 else Terrain.SEA, 6) for h in hexagon(5)}
    )


def test_a_conversion_over_its_states_is_refused_before_any_solve(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from isles.ships import convert
    from isles.solvers.ships import conversion

    def no_solve(*_: object) -> object:
        raise AssertionError("solved before the refusal")

    monkeypatch.setattr(conversion, "_solve", no_solve)
    board = _many_spots()
    message = (
        "240 ship edges x 4 turn phases x 163 solves (the best course and one per spot for "
        "lumber) make 156,480 states to solve; expected at most 100,000 states"
    )
    with pytest.raises(InvalidInput) as exc:
        convert(board, edge((-5, 0), (-5, 1)), "lumber", on_turn=True)
    assert str(exc.value).startswith(f"board: {message}")
    path = tmp_path / "spots.json"
    board.save(path)
    # The text answer gives both readings of rule 10: refused before the first solve.
    argv = ["ships", "convert", "--board", str(path), "--from", "-5,0:-5,1", "--missing", "lumber"]
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert f"--board: {message}" in err and len(err.strip().splitlines()) == 1


# -- progress on a terminal ----------------------------------------------------------------


def test_every_long_ships_command_shows_progress_on_a_terminal_only(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(work, "PROGRESS_DELAY", 0.0)  # at once, not after a second
    commands = {
        ("sail", "--from", "-2,3:-1,2", "--near", "0,2:0,3:1,2"): ["policy iteration"],
        ("sail", "--from", "0,0:0,1", "--from", "1,1:1,2", "--near", "0,1:0,2:1,1",
         "--within", "3"): ["fleet table", "fleet odds", "fleet policy iteration"],
        ("ships", "harvest", "--from", "1,1:1,2", "--near", "0,2:0,3:1,2", "--player", "red",
         "--rolls", "3"): ["harvest"],
        ("ships", "convert", "--from", "0,1:0,2", "--missing", "brick"): ["spots"],
        ("risk", "--pirate", "0,0:1,0", "--edge", "0,2:0,3", "--rolls", "5"): ["exact odds"],
    }  # fmt: skip
    for argv, bars in commands.items():
        status, _, err = run(capsys, *argv)
        assert status == 0 and err == "", argv  # not a terminal: no bar
        with monkeypatch.context() as m:
            m.setattr(sys.stderr, "isatty", lambda: True)
            status, _, err = run(capsys, *argv)
        assert status == 0, argv
        for bar in bars:
            assert bar in err, (argv, bar, err)


def test_a_log_of_a_player_the_board_does_not_name_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    data = _log_with_start({"ship": 2, "edge": [[0, 2], [1, 1]]})
    data["player"] = "Red"
    with pytest.raises(InvalidInput, match=r"^log\.player: 'Red' is invalid.*blue, red"):
        check_log(Board.load(BOARD), read_log(data))
    path = tmp_path / "Red.json"
    path.write_text(json.dumps(data))
    status, out, err = run(capsys, "ships", "check", str(path), "--board", str(BOARD))
    assert status == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert f"{path}.player: 'Red' is invalid" in err
    # The demo board names no player: any name replays.
    assert check_log(demo_board(), read_log(data)).player == "Red"
