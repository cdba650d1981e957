"""``isles sail`` and ``isles risk``: ``--json`` is the library's ``to_dict()``, exit
statuses, one-line errors naming the option typed, pictures, the demo section."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from isles.cli import main
from isles.commands import sail as sail_command
from isles.models.board import Board
from isles.models.catan import Terrain, Tile
from isles.models.hexgrid import Hex, edge
from isles.models.ships.coordinates import parse_settlement
from isles.models.ships.demo import demo_board
from isles.ships import risk, sail


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run the command line; argparse's own errors (SystemExit) count as a status."""
    try:
        status = main(list(argv))
    except SystemExit as exc:
        status = int(exc.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


def calm_board(tmp_path: Path) -> Path:
    """Three sea hexes without a token: nothing ever moves."""
    b = Board(
        {Hex(0, 0): Tile(Terrain.SEA), Hex(1, 0): Tile(Terrain.SEA), Hex(1, -1): Tile(Terrain.SEA)}
    )
    path = tmp_path / "calm.json"
    b.save(path)
    return path


# -- --json is exactly to_dict() of the one library call ------------------------------------


def test_sail_json_is_the_library_answer(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(
        capsys, "sail", "--from", "0,1:0,2", "--near", "0,2:0,3:1,2", "--players", "3", "--json"
    )
    assert status == 0 and err == ""
    voyage = sail(
        demo_board(), edge((0, 1), (0, 2)), near=[parse_settlement("0,2:0,3:1,2")], players=3
    )
    assert json.loads(out) == voyage.to_dict()
    got = json.loads(out)
    assert got["status"] == "optimal" and got["reach"] == "reachable"
    assert got["to"] == [[[0, 2], [0, 3]], [[0, 3], [1, 2]]]
    assert got["from"] == [[0, 1], [0, 2]]
    assert [row["rolls"] for row in got["arrival_within"]] == [5, 10, 20]
    for row in got["arrival_within"]:
        p, q = map(int, row["probability_exact"].split("/"))
        assert row["probability"] == p / q
    for s in got["steering"]:
        assert s["go_to"] in s["options"]


def test_sail_json_with_targets_and_the_variant(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["sail", "--from", "0,0:1,0", "--to", "0,2:0,3", "--to", "-1,3:0,2", "--may-stay"]
    status, out, _ = run(capsys, *argv, "--json")
    voyage = sail(
        demo_board(),
        edge((0, 0), (1, 0)),
        [edge((0, 2), (0, 3)), edge((-1, 3), (0, 2))],
        may_stay=True,
    )
    assert status == 0 and json.loads(out) == voyage.to_dict()
    assert json.loads(out)["may_stay"] is True


def test_risk_json_is_the_library_answer(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(
        capsys,
        "risk",
        "--json",
        "--pirate",
        "0,0:1,0",
        "--edge",
        "0,2:0,3",
        "--rolls",
        "3",
        "--cargo",
        "2",
        "--encounters",
        "2",
    )
    assert status == 0 and err == ""
    report = risk(
        2, 2, board=demo_board(), pirate=edge((0, 0), (1, 0)), edge=edge((0, 2), (0, 3)), rolls=3
    )
    assert json.loads(out) == report.to_dict()
    got = json.loads(out)
    assert got["status"] == "exact"
    sinks = got["tables"]["collision"][0]
    assert sinks == {
        "outcome": "sinks",
        "rolls": [2],
        "probability": 1 / 36,
        "probability_exact": "1/36",
    }
    reach = got["pirate_reach"]
    assert reach["rolls"] == 3 and 0 <= reach["away"] <= reach["toward"]
    status, out, _ = run(capsys, "risk", "--json")
    assert status == 0 and json.loads(out) == risk().to_dict()
    assert json.loads(out)["cargo_outlook"]["collision"]["expected_cargo_exact"] == "89/36"


# -- text answers and pictures ----------------------------------------------------------------


def test_sail_plain_output_and_picture(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    png = tmp_path / "field.png"
    status, out, err = run(
        capsys, "sail", "--from", "0,0:1,0", "--to", "0,2:0,3", "--players", "3", "--png", str(png)
    )
    assert status == 0 and err == ""
    assert "expected rolls:" in out and "rounds with 3 players" in out
    assert "within 5 rolls" in out and "20 rolls" in out and "error at most" in out
    assert png.exists() and png.stat().st_size > 10_000


def test_risk_plain_output(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "risk")
    assert status == 0 and err == ""
    assert "collision" in out and "pirate" in out and "1/36" in out and "loses all cargo" in out
    status, out, _ = run(capsys, "risk", "--pirate", "0,0:1,0", "--edge", "0,2:0,3")
    assert status == 0 and "within 10 rolls" in out and "steered away" in out


# -- issue 9, case 13: an unreachable target says so -------------------------------------------


def test_sail_unreachable_is_status_unreachable(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = calm_board(tmp_path)
    argv = ["sail", "--board", str(path), "--from", "0,0:1,0", "--to", "0,0:1,-1"]
    status, out, err = run(capsys, *argv, "--json")
    assert status == 1 and err == ""
    got = json.loads(out)
    assert got["status"] == "unreachable" and got["reach"] == "unreachable"
    assert got["expected_rolls"] is None and got["expected_rounds"] is None
    assert got["error_bound"] is None and got["steering"] == []
    assert {row["probability_exact"] for row in got["arrival_within"]} == {"0/1"}
    assert got == sail(Board.load(path), edge((0, 0), (1, 0)), [edge((0, 0), (1, -1))]).to_dict()
    status, out, _ = run(capsys, *argv)
    assert status == 1 and "unreachable: no sequence of rolls leads there" in out
    assert "expected rolls" not in out


# -- issue 9, case 15: already there ------------------------------------------------------------


def test_sail_from_the_target_is_zero_rolls_no_steering(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = run(capsys, "sail", "--from", "0,2:0,3", "--to", "0,2:0,3")
    assert status == 0 and err == ""
    assert "already on the target 0,2:0,3: 0 rolls, no steering" in out
    assert "go to" not in out and "steering at" not in out
    status, out, _ = run(capsys, "sail", "--from", "0,3:0,2", "--near", "0,2:0,3:1,2", "--json")
    got = json.loads(out)
    assert status == 0 and got["status"] == "optimal" and got["at_target"] is True
    assert got["expected_rolls"] == 0.0 and got["error_bound"] == 0.0 and got["steering"] == []
    assert {row["probability_exact"] for row in got["arrival_within"]} == {"1/1"}


# -- issue 9, case 10 and the other hardened inputs --------------------------------------------


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["risk", "--rolls", "5"], "--rolls: '5' is invalid; expected --rolls only with --pirate"),
        (["risk", "--may-stay"], "--may-stay only with --pirate"),
        (["risk", "--board", "b.json"], "--board only with --pirate"),
        (["risk", "--edge", "0,2:0,3"], "--edge only with --pirate"),
        (["risk", "--pirate", "0,0:1,0"], "--edge: required; expected --edge with --pirate"),
        (["risk", "--pirate", "0,0:1,0", "--edge", "0,0:3,3"], "--edge"),
        (["risk", "--pirate", "3,-2:3,-1", "--edge", "0,2:0,3"], "--pirate"),
        (["risk", "--pirate", "0,0:1,0", "--edge", "0,2:0,3", "--rolls", "-2"], "--rolls"),
        (["risk", "--pirate", "0,0:1,0", "--edge", "0,2:0,3", "--rolls", "201"], "0..200"),
        (["risk", "--cargo", "5"], "--cargo"),
        (["risk", "--encounters", "-1"], "--encounters"),
        (["risk", "--encounters", "101"], "0..100"),
        (["sail", "--from", "0,0:5,5", "--to", "0,2:0,3"], "--from"),  # not adjacent
        (["sail", "--from", "3,-2:3,-1", "--to", "0,2:0,3"], "--from"),  # two land hexes
        (["sail", "--from", "0,0:1,0", "--to", "9,9:9,10"], "--to"),  # off the board
        (["sail", "--from", "0,0:1,0", "--to", "0,2:0,3", "--to", "3,-2:3,-1"], "--to"),
        (["sail", "--from", "0,0:1,0"], "--to: missing"),  # no target
        (["sail", "--from", "0,0:1,0", "--near", "0,0:1,0:2,2"], "--near"),  # not a corner
        (["sail", "--from", "0,0:1,0", "--near", "0,0:1,0:1,-1"], "--near"),  # inland corner
        (["sail", "--from", "0,0:1,0", "--to", "0,2:0,3", "--players", "9"], "--players"),
        (["sail", "--from", "0,0:1,0", "--to", "0,2:0,3", "--players", "2"], "3..6"),
        (["sail", "--from", "0,0:1,0", "--to", "0,2:0,3", "--png", "x.gif"], "--png"),
        (["sail", "--from", "x", "--to", "0,2:0,3"], "--from"),
        (["sail", "--from", "0,0:1,0", "--from", "0,0:1,0", "--to", "0,2:0,3"], "--within"),
        (
            ["sail", "--board", "/nonexistent/board.json", "--from", "0,0:1,0", "--to", "0,2:0,3"],
            "board file",
        ),
    ],
)
def test_bad_input_is_one_line_exit_two(
    capsys: pytest.CaptureFixture[str], argv: list[str], needle: str
) -> None:
    status, out, err = run(capsys, *argv)
    assert status == 2, (argv, out, err)
    assert out == ""
    assert len(err.strip().splitlines()) == 1 and err.startswith("isles ")
    assert needle in err, err


def test_png_is_checked_before_any_work(capsys: pytest.CaptureFixture[str]) -> None:
    # The board file does not exist either: the --png error comes first.
    status, out, err = run(
        capsys,
        "sail",
        "--board",
        "/nonexistent/board.json",
        "--from",
        "0,0:1,0",
        "--to",
        "0,2:0,3",
        "--png",
        "/nonexistent/field.png",
    )
    assert status == 2 and out == "" and "--png" in err and "board" not in err


def test_players_are_checked_before_solving(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_solving(*args: object, **kwargs: object) -> None:
        raise AssertionError("solved before checking --players")

    monkeypatch.setattr("isles.solvers.ships.voyage.navigate", no_solving)
    status, _, err = run(capsys, "sail", "--from", "0,0:1,0", "--to", "0,2:0,3", "--players", "7")
    assert status == 2 and "--players" in err


def _stdin(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(text.encode("utf-8"))))


def test_board_from_stdin(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    text = demo_board().to_json()
    _stdin(monkeypatch, text)
    status, out, err = run(
        capsys, "sail", "--board", "-", "--from", "0,1:0,2", "--to", "0,2:0,3", "--json"
    )
    assert status == 0 and err == ""
    assert (
        json.loads(out)
        == sail(demo_board(), edge((0, 1), (0, 2)), [edge((0, 2), (0, 3))]).to_dict()
    )
    _stdin(monkeypatch, text)
    status, out, _ = run(
        capsys, "risk", "--board", "-", "--pirate", "0,0:1,0", "--edge", "0,2:0,3", "--json"
    )
    assert status == 0 and json.loads(out)["pirate_reach"]["rolls"] == 10
    _stdin(monkeypatch, "{not json")
    status, out, err = run(capsys, "sail", "--board", "-", "--from", "0,0:1,0", "--to", "0,2:0,3")
    assert status == 2 and out == "" and "standard input" in err


def test_bad_json_board_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{not json", encoding="utf-8")
    status, out, err = run(
        capsys, "sail", "--board", str(path), "--from", "0,0:1,0", "--to", "0,2:0,3"
    )
    assert status == 2 and out == "" and len(err.strip().splitlines()) == 1


def test_board_without_ship_edges(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "land.json"
    Board({Hex(0, 0): Tile(Terrain.DESERT), Hex(1, 0): Tile(Terrain.DESERT)}).save(path)
    status, out, err = run(
        capsys, "sail", "--board", str(path), "--from", "0,0:1,0", "--to", "0,0:1,0"
    )
    assert status == 2 and out == "" and "ship edge" in err


# -- self-contained help and demo --------------------------------------------------------------


@pytest.mark.parametrize("command", ["sail", "risk"])
def test_help_cites_only_shipped_documents(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    status, out, _ = run(capsys, command, "--help")
    assert status == 0 and "docs/ships.md" in out and "RULES" not in out


def test_demo_section(tmp_path: Path) -> None:
    lines: list[str] = []
    sail_command.demo(tmp_path, lines.append)
    assert lines[0].startswith("== Ships") and "docs/ships.md" in lines[0]
    assert not any("RULES" in line for line in lines)
    assert (tmp_path / "ships_field.png").exists()
    assert any("0,2:1,2" in line and "7.20" in line for line in lines)
    assert (tmp_path / "ships_fleet.png").exists()
    assert any("47.2% within 30 rolls" in line for line in lines)
    assert any("42.87 rolls expected (31.59 with the variant" in line for line in lines)
