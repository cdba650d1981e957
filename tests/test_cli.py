"""The command line: golden answers, exit statuses, one-line errors, pictures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from isles.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_rally_json_golden(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "rally", "--start", "0,-3", "--json")
    assert code == 0 and err == ""
    answer = json.loads(out)
    assert answer["status"] == "optimal"
    assert answer["goals"] == [[2, 0], [1, 1], [0, 2]]
    assert answer["total_cards"] == 24
    assert answer["cards"] == {"lumber": 3, "wool": 5, "brick": 6, "ore": 10}
    assert answer["turns"] == 5
    assert answer["expected_turns"] == 16.0  # the desert exit to forest 3 takes 12 on average
    assert answer["path"][0] == [0, -3] and answer["path"][-1] in answer["goals"]


def test_rally_expected_turns_avoids_the_desert(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "rally", "--start", "0,-3", "--objective", "expected_turns", "--json"
    )
    answer = json.loads(out)
    assert code == 0 and answer["expected_turns"] == 5.0 and [0, 0] not in answer["path"]


def test_rally_table_road_and_weighted(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        "rally",
        "--start",
        "0,-3",
        "--road",
        "0,-2:0,-1",
        "--objective",
        "weighted",
        "--value",
        "ore=2,wool=0.5",
    )
    assert code == 0
    assert "3 brick" in out and "half" in out and "Weighted value" in out


def test_rally_unaffordable_is_an_answer(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "rally", "--start", "0,-3", "--budget", "ore=10,brick=6")
    assert code == 1 and err == ""
    assert "No affordable route" in out and "0,0" in out


def test_rally_unreachable_is_an_answer(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    board = tmp_path / "islands.json"
    board.write_text(
        json.dumps(
            {
                "hexes": [
                    {"q": 0, "r": 0, "terrain": "forest", "number": 3},
                    {"q": 1, "r": 0, "terrain": "sea"},
                    {"q": 2, "r": 0, "terrain": "hills", "number": 4},
                ]
            }
        )
    )
    code, out, _ = run(capsys, "rally", "--board", str(board), "--start", "0,0", "--goal", "2,0")
    assert code == 1 and "No route" in out


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["rally", "--start", "9,9"], "start"),
        (["rally", "--start", "0;3"], "--start"),
        (["rally", "--start", "0,-3", "--goal", "0,3"], "land hex"),
        (["rally", "--start", "0,-3", "--budget", "gold=2"], "budget"),
        (["rally", "--start", "0,-3", "--budget", "ore"], "--budget"),
        (["rally", "--start", "0,-3", "--budget", "ore=x"], "whole number"),
        (["rally", "--start", "0,-3", "--value", "ore=2"], "--objective weighted"),
        (["rally", "--start", "0,-3", "--road", "0,0:2,0"], "--road"),
        (["rally", "--start", "0,-3", "--board", "/no/such/board.json"], "board file"),
        (["rally", "--start", "0,-3", "--png", "route.gif"], ".png or .svg"),
        (["rally", "--start", "0,-3", "--objective", "fastest"], "invalid choice"),
        (["rally"], "--start"),
        (["nonsense"], "invalid choice"),
    ],
)
def test_bad_input_is_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], needle: str
) -> None:
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's own errors
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    assert code == 2
    assert len(err.strip().splitlines()) == 1, err
    assert needle in err
    assert out == ""


def test_bad_board_file_names_the_entry(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    board = tmp_path / "b.json"
    board.write_text('{"hexes": [{"q": 0, "r": 0, "terrain": "forest", "number": 7}]}')
    code, _, err = run(capsys, "rally", "--board", str(board), "--start", "0,0")
    assert code == 2 and "hexes[0]" in err and "7" in err and len(err.splitlines()) == 1


def test_rally_png(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    picture = tmp_path / "route.png"
    code, _, _ = run(
        capsys, "rally", "--start", "0,-3", "--road", "0,-2:0,-1", "--png", str(picture)
    )
    assert code == 0
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_demo_runs_every_section(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = run(capsys, "demo", "--out", str(tmp_path))
    assert code == 0, err
    assert "Car rally" in out
    assert (tmp_path / "rally.png").exists()
