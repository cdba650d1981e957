"""``isles sail`` and ``isles risk``: exit statuses, outputs, one-line errors."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from isles.cli import main
from isles.commands import sail
from isles.models.catan import Board, Terrain, Tile
from isles.models.hexgrid import Hex, edge
from isles.models.ships import demo_board, parse_settlement
from isles.solvers.sailing import arrival_distribution, navigate, target_edges


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_sail_json_matches_the_solver(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "sail", "--from", "0,1:0,2", "--near", "0,2:0,3:1,2", "--json")
    assert status == 0 and err == ""
    got = json.loads(out)
    b = demo_board()
    nav = navigate(b, target_edges(b, settlements=[parse_settlement("0,2:0,3:1,2")]))
    start = edge((0, 1), (0, 2))
    assert got["reachable"] is True
    assert got["expected_rolls"] == pytest.approx(nav.expected_rolls(start))
    assert got["expected_rounds"] == pytest.approx(got["expected_rolls"] / 4)
    arr = arrival_distribution(nav, start)
    assert got["arrival_within"]["10"] == pytest.approx(arr.within(10))
    assert got["to"] == ["0,2:0,3", "0,3:1,2"]
    for s in got["steering"]:
        assert s["go_to"] in s["options"]


def test_sail_plain_output_and_picture(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    png = tmp_path / "field.png"
    status, out, err = run(
        capsys, "sail", "--from", "0,0:1,0", "--to", "0,2:0,3", "--players", "3", "--png", str(png)
    )
    assert status == 0 and err == ""
    assert "expected rolls:" in out and "rounds with 3 players" in out
    assert "within 5 rolls" in out and "20 rolls" in out
    assert png.exists() and png.stat().st_size > 10_000


def test_sail_unreachable_is_exit_one(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # No sea token at all: nothing ever moves.
    b = Board(
        {
            Hex(0, 0): Tile(Terrain.SEA),
            Hex(1, 0): Tile(Terrain.SEA),
            Hex(1, -1): Tile(Terrain.SEA),
        }
    )
    path = tmp_path / "calm.json"
    b.save(path)
    status, out, err = run(
        capsys, "sail", "--board", str(path), "--from", "0,0:1,0", "--to", "0,0:1,-1", "--json"
    )
    assert status == 1 and err == ""
    got = json.loads(out)
    assert got["reachable"] is False and got["expected_rolls"] is None
    assert got["reach"] == "unreachable"
    status, out, _ = run(
        capsys, "sail", "--board", str(path), "--from", "0,0:1,0", "--to", "0,0:1,-1"
    )
    assert status == 1 and "not reachable" in out


@pytest.mark.parametrize(
    "argv",
    [
        ["sail", "--from", "0,0:5,5", "--to", "0,2:0,3"],  # not adjacent
        ["sail", "--from", "3,-2:3,-1", "--to", "0,2:0,3"],  # two land hexes
        ["sail", "--from", "0,0:1,0", "--to", "9,9:9,10"],  # off the board
        ["sail", "--from", "0,0:1,0"],  # no target
        ["sail", "--from", "0,0:1,0", "--near", "0,0:1,0:2,2"],  # not a corner
        ["sail", "--from", "0,0:1,0", "--to", "0,2:0,3", "--players", "9"],
        ["sail", "--board", "/nonexistent/board.json", "--from", "0,0:1,0", "--to", "0,2:0,3"],
        ["sail", "--from", "0,0:1,0", "--to", "0,2:0,3", "--png", "x.gif"],
        ["sail", "--from", "x", "--to", "0,2:0,3"],
        ["risk", "--cargo", "5"],
        ["risk", "--encounters", "-1"],
        ["risk", "--pirate", "0,0:1,0"],
        ["risk", "--pirate", "0,0:1,0", "--edge", "0,0:3,3"],
        ["risk", "--pirate", "0,0:1,0", "--edge", "0,2:0,3", "--rolls", "-2"],
    ],
)
def test_bad_input_is_one_line_exit_two(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str]
) -> None:
    status, out, err = run(capsys, *argv)
    assert status == 2, (argv, out, err)
    assert out == ""
    assert len(err.strip().splitlines()) == 1 and err.startswith("isles ")


def test_bad_json_board_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{not json", encoding="utf-8")
    status, out, err = run(
        capsys, "sail", "--board", str(path), "--from", "0,0:1,0", "--to", "0,2:0,3"
    )
    assert status == 2 and out == "" and len(err.strip().splitlines()) == 1


def test_risk_tables(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "risk")
    assert status == 0 and err == ""
    assert "collision" in out and "pirate" in out and "1/36" in out
    status, out, _ = run(
        capsys, "risk", "--json", "--pirate", "0,0:1,0", "--edge", "0,2:0,3", "--rolls", "3"
    )
    got = json.loads(out)
    assert got["tables"]["collision"]["sinks"] == {"rolls": [2], "probability": "1/36"}
    assert got["tables"]["pirate"]["loses all cargo"]["probability"] == "3/4"
    assert got["cargo"]["collision"]["expected_cargo"] == "89/36"
    reach = got["pirate_reach"]
    assert reach["rolls"] == 3 and 0 <= Fraction(reach["away"]) <= Fraction(reach["toward"])


def test_demo_section(tmp_path: Path) -> None:
    lines: list[str] = []
    sail.demo(tmp_path, lines.append)
    assert lines[0].startswith("== Ships")
    assert (tmp_path / "ships_field.png").exists()
    assert any("0,2:1,2" in line and "7.20" in line for line in lines)
