"""``isles layout --game base|extension``, ``--spiral``, ``--count``: end to end."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from isles.cli import main
from isles.models.board import Board
from isles.models.layout.checker import rule_violations
from isles.models.layout.setup import setup_request
from isles.solvers.layout.board import solve_layout
from isles.solvers.layout.series import layout_boards


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        status = main(argv)
    except SystemExit as exc:  # argparse's own refusals
        status = int(exc.code) if exc.code is not None else 0
    out, err = capsys.readouterr()
    return status, out, err


def test_base_json_is_the_library_result_with_harbours(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = tmp_path / "base.json"
    status, out, err = _run(
        ["layout", "--game", "base", "--seed", "4", "--json", "--save", str(saved)], capsys
    )
    assert status == 0 and err == ""
    answer = json.loads(out)
    request = setup_request(game="base")
    assert answer == solve_layout(request, seed=4).to_dict()
    assert answer["game"] == "base" and answer["status"] == "optimal"
    assert answer["colourfulness"] is None and answer["pip_spread"] == 1
    kinds = Counter(h["kind"] for h in answer["board"]["harbours"])
    assert kinds == {"generic": 4, "lumber": 1, "wool": 1, "grain": 1, "brick": 1, "ore": 1}
    board = Board.load(saved)
    assert board == Board.from_dict(answer["board"])
    assert rule_violations(request, board) == []


def test_extension_text_and_pictures(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    png = tmp_path / "ext.png"
    status, out, _ = _run(
        ["layout", "--game", "extension", "--spiral", "top-left", "--png", str(png)], capsys
    )
    assert status == 0 and png.stat().st_size > 0
    assert "status: optimal" in out and "pip spread: 1 (lower bound 1)" in out
    assert "colourfulness" not in out and out.count("wool") >= 2
    harbours = next(line for line in out.splitlines() if line.startswith("harbours: "))
    assert harbours.count(":") == 1 + 11  # "harbours:" and one side per harbour


def test_spiral_conflict_exits_one_and_names_the_rule(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(
        ["layout", "--game", "base", "--spiral", "0,-2", "--max-pips", "10"], capsys
    )
    assert status == 1
    assert "  - vertex-pips" in out and "  - spiral" in out


def test_count_writes_numbered_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    save, svg = tmp_path / "night.json", tmp_path / "night.svg"
    status, out, _ = _run(
        ["layout", "--game", "base", "--count", "3", "--save", str(save), "--svg", str(svg)],
        capsys,
    )
    assert status == 0 and "3 of 3 boards" in out
    request = setup_request(game="base")
    boards = [Board.load(tmp_path / f"night-{i}.json") for i in (1, 2, 3)]
    assert all(rule_violations(request, b) == [] for b in boards)
    assert len(set(boards)) == 3 and (tmp_path / "night-3.svg").exists()
    assert not save.exists()


def test_count_json_is_the_library_result(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(
        ["layout", "--game", "extension", "--count", "2", "--differ", "12", "--json"], capsys
    )
    expected = layout_boards(setup_request(game="extension"), 2, min_difference=12).to_dict()
    assert status == 0 and json.loads(out) == expected
    assert expected["min_difference"] == 12 and len(expected["boards"]) == 2


def test_one_count_writes_the_plain_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save = tmp_path / "one.json"
    status, _, _ = _run(["layout", "--game", "base", "--count", "1", "--save", str(save)], capsys)
    assert status == 0 and save.exists()


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--game", "base", "--radius", "2"], "--radius"),
        (["--game", "extension", "--land", "20"], "--land"),
        (["--game", "base", "--free-shape"], "--free-shape"),
        (["--game", "base", "--hold", "forest,sea"], "--hold"),
        (["--spiral", "top-left"], "--spiral"),
        (["--game", "base", "--spiral", "middle"], "--spiral"),
        (["--game", "base", "--spiral", "0,0"], "--spiral"),
        (["--differ", "3"], "--differ only with --count"),
        (["--game", "base", "--count", "0"], "--count"),
        (["--game", "base", "--count", "2", "--differ", "40"], "--differ"),
        (["--count", "2", "--hold", "forest,sea"], "--hold"),
        (
            ["--game", "base", "--rule", "corner-pips-min=off", "--min-corner-pips", "3"],
            "--min-corner-pips",
        ),
        (["--game", "base", "--rule", "harbour-apart=on"], "--rule"),
        (["--game", "catan"], "--game"),
    ],
)
def test_bad_options_are_one_line_exit_two(
    argv: list[str], needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = _run(["layout", *argv], capsys)
    assert status == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert needle in err, err
