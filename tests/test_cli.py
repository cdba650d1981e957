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


def run_or_exit(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    """Like :func:`run`, but argparse's own errors (SystemExit) count as a status."""
    try:
        code = main(argv)
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_rally_json_golden(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "rally", "--start", "0,-3", "--json")
    assert code == 0 and err == ""
    answer = json.loads(out)
    assert answer["status"] == "optimal"
    assert answer["goals"] == [[2, 0], [1, 1], [0, 2]]
    # Two routes take 24 cards in 5 moves; the one through the desert (exit to forest 3
    # succeeds with 1/12, so 16 expected turns) loses the tie to the 5-turn one.
    assert answer["total_cards"] == 24
    assert answer["cards"] == {"lumber": 3, "wool": 11, "ore": 10}
    assert answer["turns"] == 5
    assert answer["expected_turns"] == 5.0
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
        "1,-2:1,-1",
        "--objective",
        "weighted",
        "--value",
        "ore=2,wool=0.5",
    )
    assert code == 0
    assert "2 wool" in out and "half" in out and "Weighted value: 27.5" in out


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
                    {"hex": [0, 0], "terrain": "forest", "number": 3},
                    {"hex": [1, 0], "terrain": "sea"},
                    {"hex": [2, 0], "terrain": "hills", "number": 4},
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
        (["rally", "--start", "0,-3", "--value", "ore=2"], "only with objective 'weighted'"),
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
    code, out, err = run_or_exit(capsys, argv)
    assert code == 2
    assert len(err.strip().splitlines()) == 1, err
    assert needle in err
    assert out == ""


def test_bad_board_file_names_the_entry(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    board = tmp_path / "b.json"
    board.write_text('{"hexes": [{"hex": [0, 0], "terrain": "forest", "number": 7}]}')
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


def test_negative_coordinates_need_no_equals_sign(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys, "rally", "--start", "-3,1", "--goal", "2,-1", "--road", "-2,1:-1,1", "--json"
    )
    assert code == 0, err
    assert json.loads(out)["path"][0] == [-3, 1]


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["rally", "--start", "0,-3", "--png", ""], ".png or .svg"),
        (["rally", "--start", "0,-3", "--start", "1,-3"], "given twice"),
        (["rally", "--start", "0,-3", "--budget", "ore=10,ore=0"], "at most once"),
        (["rally", "--start", "0,-3", "--objective", "weighted", "--value", "ore=nan"], "ore"),
        (["rally", "--start", "0,-3", "--objective", "weighted", "--value", "ore=inf"], "ore"),
        (["rally", "--start", "0,-3", "--group", "1,1"], "group[0]"),
        (["rally", "--start", "0,-3", "--time-limit", "0"], "--time-limit"),
    ],
)
def test_more_bad_input(capsys: pytest.CaptureFixture[str], argv: list[str], needle: str) -> None:
    code, _, err = run_or_exit(capsys, argv)
    assert code == 2 and len(err.strip().splitlines()) == 1 and needle in err, err


def test_deeply_nested_board_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    board = tmp_path / "deep.json"
    board.write_text("[" * 100_000 + "]" * 100_000)
    code, _, err = run(capsys, "rally", "--board", str(board), "--start", "0,0")
    assert code == 2 and len(err.splitlines()) == 1 and "deep" in err


def test_board_file_with_byte_order_mark(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    board = tmp_path / "bom.json"
    board.write_bytes(b"\xef\xbb\xbf" + b'{"hexes": [{"hex": [0, 0], "terrain": "desert"}]}')
    code, _, err = run(capsys, "rally", "--board", str(board), "--start", "0,0", "--goal", "0,0")
    assert code == 0, err


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["layout", "--radius", "2", "--radius", "3"], "given twice"),
        (["layout", "--seed", "99999999999999999999"], "--seed"),
        (["layout", "--free-shape", "--players", "8"], "--players"),
        (["risk", "--encounters", "3000"], "encounters"),
        (["risk", "--pirate", "0,0:1,0", "--edge", "0,2:0,3", "--rolls", "1000"], "rolls"),
        (["lighthouse", "--islands", "8", "--simulate", "--seed", "-1"], "--seed"),
        (["lighthouse", "--competitive", "--seats", "0"], "--seats"),
        (["lighthouse", "--islands", "3", "--simulate"], "--simulate"),
    ],
)
def test_bad_input_across_commands(
    capsys: pytest.CaptureFixture[str], argv: list[str], needle: str
) -> None:
    code, _, err = run_or_exit(capsys, argv)
    assert code == 2 and len(err.strip().splitlines()) == 1 and needle in err, err


@pytest.mark.parametrize(
    ("command", "text"),
    [
        ("plunder", "[" * 100_000 + "]" * 100_000),
        ("plunder", '{"players": 3, "players": 4, "observations": []}'),
        ("rally", '{"hexes": [{"hex": [0, 0], "terrain": "desert", "terrain": "sea"}]}'),
        ("lighthouse", '{"islands": [], "dice": [], "sea_cards": 2, "sea_cards": 3}'),
    ],
)
def test_every_json_reader_refuses_deep_or_duplicated_input(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str, text: str
) -> None:
    path = tmp_path / "input.json"
    path.write_text(text)
    argv = (
        [command, str(path)]
        if command == "plunder"
        else [command, "--kit", str(path)]
        if command == "lighthouse"
        else [command, "--board", str(path), "--start", "0,0"]
    )
    code, _, err = run(capsys, *argv)
    assert code == 2 and len(err.splitlines()) == 1, err
