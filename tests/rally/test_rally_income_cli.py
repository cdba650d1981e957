"""``isles rally --income``: JSON, text side by side, errors in isles' words (exit 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from isles.cli import main
from tests.rally.test_rally_income import corridor


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def board_file(tmp_path: Path) -> str:
    path = tmp_path / "corridor.json"
    corridor().save(path)
    return str(path)


def base(board_file: str) -> list[str]:
    return ["rally", "--income", "--board", board_file, "--player", "red", "--start", "0,0"]


def test_income_json_has_within_and_the_cheapest_route(
    capsys: pytest.CaptureFixture[str], board_file: str
) -> None:
    code, out, err = run(capsys, *base(board_file), "--goal", "2,0", "--within", "5", "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    # a small board: the whole policy space fits; with trades and the 7-card rule the card
    # caps restrict it (feasible), and the certified policy never loses a card to them
    assert data["status"] == "feasible" and data["method"] == "full"
    assert 0 <= data["error_bound"] <= 1e-6
    assert [r["name"] for r in data["restrictions"]] == ["card_cap"]
    assert data["card_cap"] == {"brick": 17, "grain": 18} and data["cap_lost"] is False
    assert [w["turns"] for w in data["within"]] == [1, 2, 3, 4, 5]
    assert data["within"][0]["probability"] == 0.0
    assert data["route"] == [[0, 0], [1, 0], [2, 0]]
    assert data["cheapest_cards_route"]["path"] == [[0, 0], [1, 0], [2, 0]]
    assert len(data["first_turn"]) == 11
    code, out, err = run(capsys, *base(board_file), "--goal", "2,0", "--json", "--method", "route")
    data = json.loads(out)
    assert data["status"] == "feasible" and data["method"] == "route"
    assert data["error_bound"] is None
    assert {r["name"] for r in data["restrictions"]} >= {"forward", "reserve"}


def test_income_method_full_refused_beyond_the_state_limit(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from isles.models.board import beginner_board
    from isles.models.catan import Building
    from isles.models.hexgrid import vertex

    towns = [vertex((0, -2), (0, -1), (1, -2)), vertex((0, 1), (1, 0), (1, 1))]
    path = tmp_path / "beginner.json"
    beginner_board().replace(buildings={c: Building("red") for c in towns}).save(path)
    code, _, err = run(
        capsys, "rally", "--income", "--board", str(path), "--player", "red", "--start", "0,-3",
        "--method", "full",
    )  # fmt: skip
    assert code == 2 and "--method: 'full' is invalid; expected at most 150,000 states" in err


def test_income_text_shows_both_routes(capsys: pytest.CaptureFixture[str], board_file: str) -> None:
    code, out, _ = run(
        capsys, *base(board_file), "--goal", "2,0", "--trade", "none", "--within", "7"
    )
    assert code == 0
    assert "cheapest in cards" in out and "expected turns" in out and "P(arrived within t)" in out
    # each route on a line of its own (a long one ran into the other), the last t asked for shown
    lines = out.splitlines()
    assert next(x for x in lines if x.startswith("route of this plan: ")).endswith("2,0")
    assert next(x for x in lines if x.startswith("route cheapest in cards: ")).count("(") == 1
    assert ", t=7: " in next(x for x in lines if x.startswith("P(arrived within t): "))
    assert "status: feasible" in out and "error bound: " in out and "the whole of it" in out
    assert "card caps: the certified policy " in out
    assert "restricted: of each resource, cards beyond a cap are lost" in out
    # no trades, no 7-card rule: the caps lose nothing of use, the answer is optimal
    code, out, _ = run(capsys, *base(board_file), "--goal", "2,0", "--trade", "none",
                       "--discard", "off", "--json")  # fmt: skip
    data = json.loads(out)
    assert data["status"] == "optimal" and data["restrictions"] == []
    assert data["cap_lost"] is None and data["error_bound"] <= 1e-6


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--players", "7"], "isles rally: error: --players: '7' is invalid; expected an integer"),
        (["--trade", "sometimes"], "--trade: 'sometimes' is invalid; expected one of"),
        (["--discard", "yes"], "--discard: 'yes' is invalid"),
        # the modes an option cannot go with, said plainly (issue 21, finding 14)
        (["--objective", "turns"], "expected --objective not with --income or --race"),
        (["--hand", "ore=-1"], "--hand"),
        (["--hand", "brick=99999999"], "expected a whole number of cards in 0..19"),
        (["--reserve", "ore=20"], "--reserve ore: '20' is invalid"),
        # a resource twice was "'brick' is invalid", as if brick were no resource
        (["--hand", "brick=1,brick=2"], "--hand: 'brick' given twice; expected each resource"),
        (["--hand", "brick=1", "--hand", "brick=2"], "--hand: 'brick' given twice; expected"),
        # hand and reserve come from one bank of 19 cards a resource (was accepted: 25 brick)
        (
            ["--hand", "brick=15", "--reserve", "brick=10"],
            "--reserve brick: '10' is invalid; expected at most 4 with 15 brick in hand",
        ),
        (["--within", "0"], "--within: '0' is invalid"),
    ],
)
def test_income_errors_are_one_line_exit_2(
    capsys: pytest.CaptureFixture[str], board_file: str, extra: list[str], message: str
) -> None:
    code, out, err = run(capsys, *base(board_file), "--goal", "2,0", *extra)
    assert code == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1, err


def test_income_options_without_income_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "rally", "--start", "0,-3", "--players", "4")
    assert code == 2 and "--players only with --income" in err


def test_a_player_the_board_does_not_name_is_refused(
    capsys: pytest.CaptureFixture[str], board_file: str
) -> None:
    argv = base(board_file)
    argv[argv.index("red")] = "blue"
    code, _, err = run(capsys, *argv, "--goal", "2,0")
    assert code == 2 and "'blue' is invalid; expected a player of the board: red" in err


def test_an_unreachable_goal_says_so_in_words(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # no grain anywhere and no trades: the car never arrives; the route and the advice
    # were printed blank ("route of this plan: " and a header with no rows)
    board = corridor().to_dict()
    board["hexes"] = [
        {**h, "terrain": "hills"} if h["hex"] == [2, -1] else h for h in board["hexes"]
    ]
    path = tmp_path / "no_grain.json"
    path.write_text(json.dumps(board))
    argv = base(str(path))
    code, out, err = run(capsys, *argv, "--goal", "2,0", "--trade", "none", "--discard", "off")
    assert code == 1 and err == ""
    lines = out.splitlines()
    assert "status: unreachable" in lines[0]
    assert "route of this plan: none (no goal is reached on this income)" in lines
    assert "turn 1, by the roll: no advice (the car never arrives)" in lines
    assert all(not x.endswith(": ") for x in lines), out


def test_a_small_chance_is_not_printed_as_zero(
    capsys: pytest.CaptureFixture[str], board_file: str
) -> None:
    """P(arrived within 3) on the corridor is 0.00024: shown so, not rounded to 0.000."""
    code, out, _ = run(
        capsys, *base(board_file), "--goal", "2,0", "--within", "3", "--trade", "none"
    )
    line = next(x for x in out.splitlines() if x.startswith("P(arrived within t): "))
    assert code == 0 and line == "P(arrived within t): t=1: 0.000, t=3: 2.4e-04"


def test_the_embedded_board_without_buildings_points_to_a_board_file(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, err = run(capsys, "rally", "--income", "--player", "red", "--start", "0,-3")
    assert code == 2 and "no roads or buildings; a board file gives them" in err
