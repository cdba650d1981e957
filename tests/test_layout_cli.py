"""``isles layout`` end to end: exit statuses, JSON, saved boards, pictures, one-line errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from isles.cli import main
from isles.models.catan import Board, Terrain, Tile
from isles.models.hexgrid import Hex
from isles.models.setup import SetupRequest, rule_violations


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def test_json_board_is_optimal_and_legal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = tmp_path / "board.json"
    status, out, err = _run(
        ["layout", "--radius", "1", "--json", "--time-limit", "5", "--save", str(saved)], capsys
    )
    assert status == 0 and err == ""
    answer = json.loads(out)
    assert answer["status"] == "optimal"
    assert answer["colourfulness"] == answer["bound"] == 8
    assert set(answer) >= {"status", "hexes", "colourfulness", "bound", "pip_spread", "conflict"}
    board = Board.from_dict({"hexes": answer["hexes"]})
    assert Board.load(saved) == board
    assert rule_violations(SetupRequest.hexagon(1), board) == []


def test_text_report_and_pictures(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    png, svg = tmp_path / "b.png", tmp_path / "b.svg"
    status, out, _ = _run(
        ["layout", "--radius", "1", "--time-limit", "5", "--png", str(png), "--svg", str(svg)],
        capsys,
    )
    assert status == 0
    assert "status: optimal" in out and "colourfulness: 8" in out
    assert png.stat().st_size > 0 and svg.read_text(encoding="utf-8").startswith("<?xml")


def test_infeasible_exits_one_with_the_conflict(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(["layout", "--radius", "1", "--land", "7", "--json"], capsys)
    assert status == 1
    answer = json.loads(out)
    assert answer["status"] == "infeasible"
    assert set(answer["conflict"]) == {"no-land-triangle", "land count"}
    status, out, _ = _run(["layout", "--radius", "1", "--land", "7"], capsys)
    assert status == 1 and "no-land-triangle" in out


def test_rule_switch_off_makes_it_feasible(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(
        ["layout", "--radius", "1", "--land", "7", "--rule", "no-land-triangle=off", "--json"],
        capsys,
    )
    assert status == 0 and json.loads(out)["status"] == "optimal"


def test_fixed_tiles_are_completed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fixed = tmp_path / "fixed.json"
    Board({Hex(0, 0): Tile(Terrain.HILLS, 5), Hex(1, 0): Tile(Terrain.SEA, 11)}).save(fixed)
    status, out, _ = _run(
        ["layout", "--radius", "2", "--fixed", str(fixed), "--json", "--time-limit", "10"], capsys
    )
    assert status == 0
    board = Board.from_dict({"hexes": json.loads(out)["hexes"]})
    assert board[Hex(0, 0)] == Tile(Terrain.HILLS, 5)
    assert board[Hex(1, 0)] == Tile(Terrain.SEA, 11)


def test_next_move_advice(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fixed = tmp_path / "fixed.json"
    Board({Hex(0, 0): Tile(Terrain.SEA, 4)}).save(fixed)
    status, out, _ = _run(
        ["layout", "--radius", "1", "--fixed", str(fixed), "--hold", "forest,sea", "--json"],
        capsys,
    )
    assert status == 0
    answer = json.loads(out)
    assert [p["terrain"] for p in answer["placements"]] == ["forest", "sea"]
    assert answer["best_after"] == answer["best_overall"]
    status, out, _ = _run(
        ["layout", "--radius", "1", "--fixed", str(fixed), "--hold", "forest,sea"], capsys
    )
    assert status == 0 and "tile 1: forest" in out


def test_free_shape(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(
        [
            "layout",
            "--free-shape",
            "--players",
            "1",
            "--radius",
            "2",
            "--json",
            "--time-limit",
            "3",
        ],
        capsys,
    )
    assert status == 0
    answer = json.loads(out)
    assert len(answer["hexes"]) == 12
    assert answer["status"] in ("optimal", "feasible")


@pytest.mark.parametrize(
    "argv",
    [
        ["layout", "--rule", "no-such-rule=on"],
        ["layout", "--rule", "sea-apart=maybe"],
        ["layout", "--land", "99"],
        ["layout", "--radius", "-1"],
        ["layout", "--shape", "/no/such/file.json"],
        ["layout", "--fixed", "/no/such/file.json"],
        ["layout", "--radius", "1", "--png", "board.jpg"],
        ["layout", "--radius", "1", "--hold", "forest"],
        ["layout", "--radius", "1", "--hold", "gold,sea"],
        ["layout", "--max-group", "0"],
        ["layout", "--time-limit", "0"],
        ["layout", "--players", "0", "--free-shape"],
        ["layout", "--radius", "x"],
    ],
)
def test_bad_input_is_one_line_exit_two(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    try:
        status = main(argv)
    except SystemExit as exc:  # argparse type errors exit directly
        status = int(exc.code) if exc.code is not None else 0
    out, err = capsys.readouterr()
    assert status == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1


def test_bad_json_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    status, out, err = _run(["layout", "--fixed", str(bad)], capsys)
    assert status == 2 and out == "" and len(err.strip().splitlines()) == 1


def test_seed_is_deterministic_across_processes() -> None:
    """Same seed, fresh interpreters with different hash seeds: the same board."""
    root = Path(__file__).resolve().parent.parent
    argv = [sys.executable, "-m", "isles", "layout", "--radius", "2", "--seed", "3", "--json"]
    outputs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run(argv, cwd=root, env=env, capture_output=True, text=True, check=True)
        outputs.append(json.loads(done.stdout)["hexes"])
    assert outputs[0] == outputs[1]
