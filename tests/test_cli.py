"""The command line: golden answers, exit statuses, one-line errors, pictures."""

from __future__ import annotations

import io
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
        (
            ["rally", "--start", "0,-3", "--value", "ore=2"],
            "--value only with --objective weighted",
        ),
        (["rally", "--start", "0,-3", "--road", "0,0:2,0"], "--road"),
        (
            ["rally", "--start", "0,-3", "--board", "/no/such/board.json"],
            "--board: '/no/such/board.json' is invalid; expected a readable JSON file",
        ),
        (
            ["rally", "--income", "--player", "red", "--start", "0,0", "--board", "/no/such.json"],
            "--board: '/no/such.json' is invalid; expected a readable JSON file",
        ),
        (["rally", "--start", "0,-3", "--png", "route.gif"], ".png or .svg"),
        (
            ["rally", "--start", "0,-3", "--objective", "fastest"],
            "--objective: 'fastest' is invalid; expected one of cards",
        ),
        (["rally", "--goal", "0,2"], "--start"),  # no --start: the best start, its own goals
        (["nonsense"], "COMMAND: 'nonsense' is invalid; expected one of demo"),
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
    assert "a base board laid by isles layout --game base (optimal)" in out
    assert (tmp_path / "rally.png").exists() and (tmp_path / "rally-base.png").exists()
    assert "Car rally as it is played" in out and "A race to 0,0" in out
    assert "next to their starts (exact, the cars' joint chain of 25,410 states)" in out
    assert (tmp_path / "rally-race.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


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
        (["rally", "--start", "0,-3", "--group", "1,1"], "--group"),
        (["rally", "--start", "0,-3", "--time-limit", "0"], "--time-limit"),
        (["rally", "--start", "0,-3", "--time-limit", "nan"], "--time-limit"),
        (["rally", "--start", "0,-3", "--time-limit", "5"], "--time-limit only with --budget"),
        (["rally", "--start", "0,-3", "--goal", "0,2", "--group", "1,-3"], "--group"),
        (["rally", "--start", "0,-3", "--budget", "ore=-1"], "--budget ore"),
        (["rally", "--start", "0,-3", "--road", "0,0:1,0", "--road", "5,5:5,6"], "--road"),
        (["rally", "--start", "0,-3", "--png", "/nonexistent/route.png"], "--png"),
        (["rally", "--start", "0,-3", "--start=99999999999,0"], "given twice"),
        (["rally", "--start", "99999999999,0"], "--start"),
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
        # as every option's error: no argparse "argument" (issue 21, finding 12)
        (["layout", "--radius", "2", "--radius", "3"], ": --radius: given twice; expected one"),
        (["layout", "--json", "--json"], "error: --json: given twice; expected one --json"),
        (["layout", "--seed", "99999999999999999999"], "--seed"),
        (["layout", "--free-shape", "--players", "8"], "--players"),
        (["layout", "--players", "2"], "--free-shape"),
        (["layout", "--radius", "1", "--save", "/nonexistent/b.json"], "--save"),
        (["risk", "--encounters", "3000"], "encounters"),
        (["risk", "--pirate", "0,0:1,0", "--edge", "0,2:0,3", "--rolls", "1000"], "rolls"),
        (["risk", "--rolls", "5"], "--rolls only with --pirate"),
        (["sail", "--from", "0,2:0,3", "--to", "0,2:0,3", "--players", "8"], "--players"),
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


# -- rally: issue 9 cases and the JSON answer ----------------------------------------------


@pytest.mark.parametrize(
    "values", ["ore=1e308,wool=1e308", "ore=inf", "wool=nan", "ore=-1", "ore=1000001"]
)
def test_rally_card_values_are_checked_and_name_the_option(
    capsys: pytest.CaptureFixture[str], values: str
) -> None:
    """Issue 9, case 1: huge, infinite, NaN and negative values are refused, never a traceback."""
    argv = ["rally", "--start", "0,-3", "--objective", "weighted", "--value", values]
    code, out, err = run_or_exit(capsys, argv)
    assert code == 2 and out == "" and len(err.splitlines()) == 1, err
    assert err.startswith("isles rally: error: --value ") and "0..1000000" in err


def test_rally_largest_card_values_are_an_answer(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["rally", "--start", "0,-3", "--objective", "weighted", "--value", "ore=1e6,wool=1e6"]
    code, out, err = run(capsys, *argv, "--json")
    assert code == 0 and err == ""
    answer = json.loads(out)
    assert answer["status"] == "optimal" and answer["value_exact"].endswith("/1")


def test_rally_inland_start_needs_goals(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 9, case 11: an inland start has no start group, so no default goals."""
    code, out, err = run(capsys, "rally", "--start", "1,-1")
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    assert "--goal: required" in err and "rim start" in err
    code, out, _ = run(capsys, "rally", "--start", "1,-1", "--goal", "0,2", "--json")
    assert code == 0 and json.loads(out)["goals"] == [[0, 2]]


def _islands(tmp_path: Path) -> Path:
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
    return board


def test_rally_unreachable_values_are_null(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Issue 9, case 13: a route that does not exist has no cards, not 0 cards."""
    argv = ["rally", "--board", str(_islands(tmp_path)), "--start", "0,0", "--goal", "2,0"]
    code, out, _ = run(capsys, *argv, "--json")
    answer = json.loads(out)
    assert code == 1 and answer["status"] == "unreachable"
    for key in ("path", "steps", "cards", "total_cards", "turns", "expected_turns", "value"):
        assert answer[key] is None, key
    assert answer["expected_turns_exact"] is None and answer["end"] is None


def test_rally_unaffordable_says_how_far_the_cards_go(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rally", "--start", "0,-3", "--budget", "ore=10,brick=6", "--json")
    answer = json.loads(out)
    assert code == 1 and answer["status"] == "unaffordable"
    assert answer["end"] == [0, 0] == answer["path"][-1] and answer["distance_to_goal"] == 2
    assert answer["total_cards"] == 16 and answer["budget"]["ore"] == 10
    assert answer["time_limit"] == 60.0


@pytest.mark.parametrize(
    "argv",
    [
        ["--start", "0,-3"],
        ["--start", "0,-3", "--objective", "expected_turns"],
        ["--start", "-3,1", "--goal", "2,-1", "--road", "-2,1:-1,1"],
        ["--start", "0,-3", "--objective", "weighted", "--value", "ore=2,wool=0.5"],
        ["--start", "0,-3", "--budget", "ore=10,brick=6", "--time-limit", "30"],
        ["--start", "0,0", "--goal", "1,0", "--objective", "turns"],
        ["--start", "3,-3", "--group", "3,-2", "--group", "3,-1"],
    ],
)
def test_rally_json_is_the_library_answer(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    from isles.models.hexgrid import Hex, parse_edge, parse_hex
    from isles.rally import Route, beginner_board, plan_route

    code, out, _ = run(capsys, "rally", *argv, "--json")
    answer = json.loads(out)
    options: dict[str, list[str]] = {}
    for name, value in zip(argv[::2], argv[1::2], strict=True):
        options.setdefault(name, []).append(value)

    def hexes(name: str) -> list[Hex]:
        return [parse_hex(v) for v in options.get(name, [])]

    def pairs(name: str) -> dict[str, str]:
        return dict(p.split("=") for v in options.get(name, []) for p in v.split(","))

    budget = {k: int(v) for k, v in pairs("--budget").items()} or None
    route: Route = plan_route(
        beginner_board(),
        hexes("--start")[0],
        goals=hexes("--goal") or None,
        group=hexes("--group") or None,
        roads=[parse_edge(road) for road in options.get("--road", [])],
        objective=options.get("--objective", ["cards"])[0],  # type: ignore[arg-type]
        values={k: float(v) for k, v in pairs("--value").items()} or None,
        budget=budget,
        time_limit=float(options.get("--time-limit", ["60"])[0]) if budget else None,
    )
    assert answer == route.to_dict()
    assert code == (0 if route.status == "optimal" else 1)


def test_rally_reads_the_board_from_standard_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    data = _islands(tmp_path).read_bytes()
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data)))
    code, out, _ = run(capsys, "rally", "--board", "-", "--start", "2,0", "--goal", "2,0", "--json")
    assert code == 0 and json.loads(out)["path"] == [[2, 0]]
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b'{"hexes": 3}')))
    code, _, err = run(capsys, "rally", "--board", "-", "--start", "0,0", "--goal", "0,0")
    assert code == 2 and "standard input.hexes" in err


def test_rally_checks_the_picture_before_any_work(capsys: pytest.CaptureFixture[str]) -> None:
    # The inland start would be refused too, but only after the work had begun.
    code, out, err = run(capsys, "rally", "--start", "1,-1", "--png", "/nonexistent/route.svg")
    assert code == 2 and out == "" and "--png" in err


def test_rally_picture_of_no_route(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    picture = tmp_path / "none.svg"
    argv = ["rally", "--board", str(_islands(tmp_path)), "--start", "0,0", "--goal", "2,0"]
    code, out, _ = run(capsys, *argv, "--png", str(picture))
    assert code == 1 and "No route" in out and picture.read_text().startswith("<?xml")
