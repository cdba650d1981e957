"""``isles layout`` end to end: exit statuses, JSON, saved boards, pictures, one-line errors."""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings

from isles.cli import main
from isles.models.board import Board
from isles.models.catan import Terrain, Tile
from isles.models.contract import Question
from isles.models.errors import InvalidInput
from isles.models.hexgrid import Hex
from isles.models.layout.checker import rule_violations
from isles.models.layout.questions import Layout
from isles.models.layout.request import SetupRequest
from isles.models.layout.setup import setup_request
from isles.models.status import Status
from isles.solvers.layout import ANSWERS
from isles.solvers.layout.board import solve_layout
from isles.solvers.layout.move import next_move
from isles.solvers.layout.results import LayoutResult
from tests.layout.test_layout import JSON_VALUES, VALID_FIXED, mutated

#: The key isles.answer looks the layout's solver up by (a test swaps the solver).
LAYOUT: type[Question] = Layout


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
    assert answer["colourfulness"] == answer["colourfulness_bound"] == 8
    assert answer["conflict"] is None and answer["conflict_minimal"] is None
    board = Board.from_dict(answer["board"])
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
    board = Board.from_dict(json.loads(out)["board"])
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
            "1",
        ],
        capsys,
    )
    assert status == 0
    answer = json.loads(out)
    assert len(answer["board"]["hexes"]) == 12
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
    root = Path(__file__).resolve().parents[2]
    argv = [sys.executable, "-m", "isles", "layout", "--radius", "1", "--seed", "3", "--json"]
    outputs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run(argv, cwd=root, env=env, capture_output=True, text=True, check=True)
        outputs.append(json.loads(done.stdout)["board"])
    assert outputs[0] == outputs[1]


# -- --json is exactly to_dict() of the library call -----------------------------------


def test_json_is_the_library_result(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(["layout", "--radius", "1", "--seed", "5", "--json"], capsys)
    expected = solve_layout(setup_request(radius=1), seed=5, time_limit=20).to_dict()
    assert status == 0 and json.loads(out) == expected


def test_hold_json_is_the_library_result(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fixed = tmp_path / "fixed.json"
    board = Board({Hex(0, 0): Tile(Terrain.SEA, 4)})
    board.save(fixed)
    argv = ["layout", "--radius", "1", "--fixed", str(fixed), "--hold", "forest,sea", "--json"]
    status, out, _ = _run(argv, capsys)
    request = setup_request(radius=1, fixed=board)
    expected = next_move(request, (Terrain.FOREST, Terrain.SEA), time_limit=20).to_dict()
    assert status == 0 and json.loads(out) == expected


# -- issue 9, case 10: options that do nothing in the mode given are refused ----------


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["layout", "--players", "2"], "--players only with --free-shape"),
        (["layout", "--radius", "1", "--hold", "forest,sea", "--seed", "3"], "--seed only"),
        (["layout", "--rule", "sea-apart=on", "--rule", "sea-apart=off"], "once"),
        (
            ["layout", "--rule", "vertex-pips=off", "--max-pips", "10"],
            "--max-pips: '10' is invalid; expected vertex-pips not switched off",
        ),
        (
            ["layout", "--rule", "terrain-groups=off", "--max-group", "2"],
            "--max-group: '2' is invalid; expected terrain-groups not switched off",
        ),
        (["layout", "--free-shape", "--shape", "board.json"], "--shape"),
        (["layout", "--shape", "-", "--fixed", "-"], "standard input"),
    ],
)
def test_options_that_do_nothing_are_refused(
    argv: list[str], needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = _run(argv, capsys)
    assert status == 2 and out == "" and len(err.splitlines()) == 1 and needle in err, err


# -- issue 9, case 12: output paths are checked before any work ------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["--save", "/nonexistent/b.json"],
        ["--save", "b.png"],
        ["--png", "/nonexistent/b.png"],
        ["--png", "b.svg"],
        ["--svg", "/nonexistent/b.svg"],
        ["--hold", "forest,sea", "--save", "/nonexistent/b.json"],
    ],
)
def test_output_paths_are_checked_before_solving(
    argv: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_work(*args: object, **kwargs: object) -> None:
        raise AssertionError("solved before checking the output path")

    monkeypatch.setitem(ANSWERS, LAYOUT, no_work)
    status, out, err = _run(["layout", "--radius", "1", *argv], capsys)
    assert status == 2 and out == "" and len(err.splitlines()) == 1
    assert argv[-2] in err


# -- statuses and exit codes --------------------------------------------------------------


def test_timed_out_exits_one_and_says_so(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(ANSWERS, LAYOUT, lambda *a, **k: LayoutResult(Status.TIMED_OUT))
    status, out, _ = _run(["layout", "--radius", "1"], capsys)
    assert status == 1 and "timed_out" in out and "time limit" in out
    status, out, _ = _run(["layout", "--radius", "1", "--json"], capsys)
    assert status == 1 and json.loads(out)["status"] == "timed_out"


# -- files from standard input -----------------------------------------------------------


def test_fixed_and_shape_read_standard_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    fixed = Board({Hex(0, 0): Tile(Terrain.SEA, 4)})
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(fixed.to_json().encode())))
    status, out, _ = _run(["layout", "--radius", "1", "--fixed", "-", "--json"], capsys)
    assert status == 0 and json.loads(out)["fixed"] == [[0, 0]]
    shape = Board({Hex(0, 0): Tile(Terrain.SEA), Hex(1, 0): Tile(Terrain.SEA)})
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(shape.to_json().encode())))
    status, out, _ = _run(["layout", "--shape", "-", "--json"], capsys)
    assert status == 0 and len(json.loads(out)["board"]["hexes"]) == 2


# -- fuzz: the fixed tiles file through the command line -----------------------------------


@settings(max_examples=60)
@given(JSON_VALUES | mutated(VALID_FIXED))
def test_fixed_tiles_fuzz_on_the_command_line(doc: object) -> None:
    """Through the file reader too: a one-line error (exit 2) or an answer (0 or 1)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fixed.json"
        path.write_text(json.dumps(doc), encoding="utf-8")
        with (
            contextlib.redirect_stdout(io.StringIO()),
            contextlib.redirect_stderr(io.StringIO()) as err,
        ):
            code = main(["layout", "--radius", "1", "--fixed", str(path), "--time-limit", "1"])
    assert code in (0, 1, 2)
    assert (code == 2) == (len(err.getvalue().splitlines()) == 1)


def test_hold_errors_name_the_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = _run(["layout", "--radius", "1", "--hold", "gold,sea"], capsys)
    assert status == 2 and err.count("\n") == 1 and "--hold: 'gold,sea'" in err
    full = tmp_path / "full.json"
    Board({Hex(0, 0): Tile(Terrain.SEA)}).save(full)
    status, _, err = _run(
        ["layout", "--radius", "0", "--fixed", str(full), "--hold", "sea,sea"], capsys
    )
    assert status == 2 and err.count("\n") == 1 and "--fixed" in err and "two free" in err


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--game", "base", "--rule", "sea-apart=on"], "--rule: 'sea-apart=on' is invalid"),
        (["--game", "extension", "--rule", "sea-balanced=on"], "no sea-token rule"),
        (["--game", "base", "--free-shape"], "--free-shape: given; expected --free-shape only"),
        (["--game", "base", "--radius", "2"], "--radius: '2' is invalid"),
    ],
)
def test_newcomer_layout_inputs_are_refused_in_the_users_words(
    argv: list[str], needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _run(["layout", *argv], capsys)
    assert code == 2 and needle in err and len(err.strip().splitlines()) == 1, err


def test_library_refuses_a_corner_pip_limit_no_corner_reaches() -> None:
    with pytest.raises(InvalidInput, match="min_corner_pips: 100000000000000000000"):
        setup_request(game="base", min_corner_pips=10**20)


def test_count_checks_every_numbered_file_before_solving(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "night-2.json").mkdir()
    code, _, err = _run(
        ["layout", "--game", "base", "--count", "3", "--save", str(tmp_path / "night.json")], capsys
    )
    assert code == 2 and "night-2.json" in err and "not a folder" in err
    assert not (tmp_path / "night-1.json").exists()


def test_count_at_the_divisibility_floor_is_proven(capsys: pytest.CaptureFixture[str]) -> None:
    """A newcomer's run: spread 1 at its bound 1 was labelled 'feasible'."""
    _, out, _ = _run(
        [
            "layout",
            "--game",
            "base",
            "--count",
            "2",
            "--differ",
            "19",
            "--time-limit",
            "3",
            "--json",
        ],
        capsys,
    )
    answer = json.loads(out)
    assert len(answer["boards"]) == 2
    at_floor = [b for b in answer["boards"] if b["pip_spread"] == b["pip_spread_bound"] == 1]
    assert at_floor, answer["boards"]  # the first board always reaches the floor
    assert all(b["status"] == "optimal" for b in at_floor)


def test_a_huge_corner_pip_limit_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(
        ["layout", "--game", "base", "--min-corner-pips", "100000000000000000000"], capsys
    )
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert (
        "--min-corner-pips: '100000000000000000000' is invalid; expected an integer in 0..15" in err
    )


def test_ctrl_c_stops_the_cp_sat_search_at_once() -> None:
    # A free shape for 4 players does not finish in 30 s: without the stop the
    # process ran on until its time limit (28 s after the signal).
    import signal
    import time

    argv = ["layout", "--free-shape", "--players", "4", "--time-limit", "30"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "isles", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(3.0)  # past the imports, inside a CP-SAT solve
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=10)  # a generous bound, not a speed test
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail("Ctrl-C did not stop isles layout within 10 s")
    assert proc.returncode == 130, err
    assert err.strip().splitlines()[-1] == "isles: interrupted"
    assert "Traceback" not in err and out == ""


# -- a newcomer's break-it run (2) ---------------------------------------------------------


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (a full disk)")
@pytest.mark.parametrize("option", ["--save", "--png"])
def test_a_full_disk_names_the_option_and_the_file(
    option: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Was: 'isles layout: error: writing the output: No space left on device'."""
    target = tmp_path / ("full.json" if option == "--save" else "full.png")
    target.symlink_to("/dev/full")
    status, _, err = _run(
        ["layout", "--radius", "1", "--time-limit", "5", option, str(target)], capsys
    )
    assert status == 74
    assert err.strip().endswith(f"error: writing {option} {target}: No space left on device")
    assert err.count("\n") == 1


@pytest.mark.parametrize("count", [[], ["--count", "1"]])
def test_differ_needs_a_series(count: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """Was: --count 1 --differ 3 accepted, --differ doing nothing with one board."""
    status, out, err = _run(["layout", "--radius", "1", *count, "--differ", "3"], capsys)
    assert status == 2 and out == ""
    assert err.strip().endswith(
        "--differ: '3' is invalid; expected --differ only with --count of 2 or more"
    )
