"""The rally race (docs/rally.md, "The race"): Monte Carlo of the cars' own policies."""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import pytest

from isles.cli import main
from isles.models.board import Board
from isles.models.catan import Building, BuildingKind, Terrain, Tile
from isles.models.errors import InvalidInput
from isles.models.hexgrid import vertex
from isles.rally import plan_income, race_cars
from isles.solvers.rally.race_result import RaceCar


def two_owners(kind: BuildingKind = BuildingKind.SETTLEMENT) -> Board:
    """A corridor sea 0,0 -> hills 1,0 -> fields 2,0; red and blue each with one building."""
    tiles = {
        (0, 0): Tile(Terrain.SEA),
        (1, 0): Tile(Terrain.HILLS, 4),
        (2, 0): Tile(Terrain.FIELDS, 3),
        (1, -1): Tile(Terrain.HILLS, 6),
        (2, -1): Tile(Terrain.FIELDS, 8),
        (1, 1): Tile(Terrain.HILLS, 5),
    }
    buildings = {
        vertex((1, 0), (1, -1), (2, -1)): Building("red", kind),
        vertex((1, 0), (2, 0), (1, 1)): Building("blue"),
    }
    return Board(tiles, buildings=buildings)


CARS = [
    {"player": "red", "start": (0, 0), "goals": [(2, 0)]},
    {"player": "blue", "start": (0, 0), "goals": [(2, 0)]},
]


def played(car: RaceCar) -> tuple[float, tuple[float, float], list[float]]:
    """A car of a race with games played: its chance, interval and arrival shares, all given."""
    assert car.first is not None and car.interval is not None
    within = [p for p in car.within if p is not None]
    assert len(within) == len(car.within)
    return car.first, car.interval, within


def test_the_first_seat_plays_the_returned_policy_inside_its_interval() -> None:
    """Seat 1's turns are those of plan_income alone: the MC mean within 4 standard errors."""
    board = two_owners(BuildingKind.CITY)
    race = race_cars(board, CARS, trade="bank", method="monte_carlo", games=6000, seed=3)
    plan = plan_income(board, "red", (0, 0), [(2, 0)], trade="bank")
    assert plan.expected_turns is not None
    car = race.cars[0]
    _, _, turns = played(car)
    assert turns[-1] == 1.0  # every game arrived within 200 rounds
    # the spread of the arrival turn, from its distribution in the race
    pmf = [turns[0]] + [b - a for a, b in itertools.pairwise(turns)]
    mean = sum((t + 1) * p for t, p in enumerate(pmf))
    var = sum((t + 1 - mean) ** 2 * p for t, p in enumerate(pmf))
    assert car.mean_turns == pytest.approx(mean)
    assert abs(mean - plan.expected_turns) < 4 * math.sqrt(var / race.games)
    # and its arrival distribution is plan_income's P(arrived within t), inside the noise
    for t in (3, 6, 10):
        p = plan.within[t - 1]
        assert abs(turns[t - 1] - p) < 4 * math.sqrt(p * (1 - p) / race.games) + 1e-9


def test_on_the_beginner_board_the_games_of_the_policy_agree_with_its_plan() -> None:
    """The issue's check on a real board: the first seat's games are a Monte Carlo of the
    policy plan_income returned (the beginner board, red's two starting settlements, bank
    trades, the 7-card rule, 4 players); its mean arrival turn within its 95% interval of
    the plan's expected turns (seeded: the same games every run)."""
    from isles.models.board import beginner_board

    towns = {
        vertex((0, -2), (0, -1), (1, -2)): Building("red"),
        vertex((0, 1), (1, 0), (1, 1)): Building("red"),
        vertex((0, 2), (0, 1), (-1, 2)): Building("blue"),
        vertex((0, -1), (-1, 0), (-1, -1)): Building("blue"),
    }
    board = beginner_board().replace(buildings=towns)
    race = race_cars(board, ["red:0,-3", "blue:0,3"], games=4000, seed=0)
    red = race.cars[0]
    _, _, turns = played(red)
    assert turns[-1] == 1.0
    pmf = [turns[0]] + [b - a for a, b in itertools.pairwise(turns)]
    mean = sum((t + 1) * p for t, p in enumerate(pmf))
    var = sum((t + 1 - mean) ** 2 * p for t, p in enumerate(pmf))
    expected = red.plan.expected_turns
    assert expected is not None  # reachable
    assert expected == pytest.approx(25.7921, abs=1e-4)  # docs/rally.md
    assert abs(mean - expected) < 1.96 * math.sqrt(var / race.games)


def test_every_game_has_one_winner_and_the_same_seed_the_same_answer() -> None:
    board = two_owners()
    a = race_cars(board, CARS, trade="none", method="monte_carlo", games=3000, seed=7)
    b = race_cars(board, CARS, trade="none", method="monte_carlo", games=3000, seed=7)
    assert a.to_dict()["cars"] == b.to_dict()["cars"]
    assert sum(c.wins for c in a.cars) + a.no_winner == 3000
    for car in a.cars:
        first, (lo, hi), _ = played(car)
        assert lo <= first <= hi
    # red earns brick on 4 and 6 and grain on 8, blue brick on 5 and 4 only: red leads
    assert played(a.cars[0])[0] > played(a.cars[1])[0]
    assert str(a.status) == "estimate"


def desert_board() -> Board:
    """Two cars one free desert step from their goal: both arrive on their first turn."""
    tiles = {
        (0, 0): Tile(Terrain.SEA),
        (1, 0): Tile(Terrain.DESERT),
        (1, -1): Tile(Terrain.HILLS, 6),
        (2, -1): Tile(Terrain.FIELDS, 8),
        (1, 1): Tile(Terrain.HILLS, 5),
        (2, 0): Tile(Terrain.FIELDS, 3),
    }
    buildings = {
        vertex((1, 0), (1, -1), (2, -1)): Building("red"),
        vertex((1, 0), (2, 0), (1, 1)): Building("blue"),
    }
    return Board(tiles, buildings=buildings)


@pytest.mark.parametrize("order", [("red", "blue"), ("blue", "red")])
def test_a_tie_goes_to_the_car_seated_first(order: tuple[str, str]) -> None:
    cars = [{"player": p, "start": (0, 0), "goals": [(1, 0)]} for p in order]
    race = race_cars(desert_board(), cars, trade="none", method="monte_carlo", games=200)
    assert [c.player for c in race.cars] == list(order)
    assert [c.wins for c in race.cars] == [200, 0]
    assert [c.within[0] for c in race.cars] == [1.0, 1.0]
    exact = race_cars(desert_board(), cars, trade="none")
    assert str(exact.status) == "exact" and exact.error is not None
    assert [c.first for c in exact.cars] == pytest.approx([1.0, 0.0], abs=exact.error)
    assert [c.within[0] for c in exact.cars] == pytest.approx([1.0, 1.0], abs=exact.error)


def test_a_race_refuses_two_cars_of_one_player_and_too_few_players() -> None:
    with pytest.raises(InvalidInput, match="one car per player"):
        race_cars(two_owners(), [CARS[0], CARS[0]], games=10)
    with pytest.raises(InvalidInput, match="2 to 4 cars"):
        race_cars(two_owners(), CARS[:1], games=10)
    with pytest.raises(InvalidInput, match="a hex other than the car's start"):
        race_cars(desert_board(), [{"player": "red", "start": (1, 0), "goals": [(1, 0)]}, CARS[1]])


def test_the_time_limit_stops_between_batches() -> None:
    race = race_cars(
        two_owners(), CARS, trade="none", method="monte_carlo", games=50_000, time_limit=1e-9
    )
    assert str(race.status) == "timed_out" and race.games == 0 and race.asked == 50_000


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def board_file(tmp_path: Path) -> str:
    path = tmp_path / "two.json"
    two_owners().save(path)
    return str(path)


def test_cli_race_json_and_text(capsys: pytest.CaptureFixture[str], board_file: str) -> None:
    argv = ["rally", "--race", "--board", board_file, "--car", "red:0,0", "--car", "blue:0,0"]
    mc = ["--method", "monte_carlo"]
    code, out, err = run(capsys, *argv, *mc, "--trade", "none", "--games", "500", "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data["status"] == "estimate" and data["games"] == 500
    assert [c["player"] for c in data["cars"]] == ["red", "blue"]
    assert "turn order decides" in data["tie_rule"]
    code, out, err = run(capsys, *argv, *mc, "--trade", "none", "--games", "200")
    assert code == 0 and "95% interval" in out and "tie rule" in out
    code, out, err = run(capsys, *argv, "--trade", "none")  # the joint chain fits: exact
    assert code == 0 and "status: exact" in out and "1,072 joint states" in out


def test_cli_race_cars_give_their_own_goals(
    capsys: pytest.CaptureFixture[str], board_file: str
) -> None:
    """``--car PLAYER:Q,R:GOAL...``: the goals typed, as the library's race with those goals."""
    argv = ["rally", "--race", "--board", board_file, "--trade", "none", "--games", "300"]
    cars = ["--car", "red:0,0:1,0:2,0", "--car", "blue:0,0:2,0"]
    code, out, err = run(capsys, *argv, *cars, "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert [c["goals"] for c in data["cars"]] == [[[1, 0], [2, 0]], [[2, 0]]]
    goals = [[(1, 0), (2, 0)], [(2, 0)]]
    race = race_cars(
        two_owners(),
        [
            {"player": p, "start": (0, 0), "goals": g}
            for p, g in zip(("red", "blue"), goals, strict=True)
        ],
        trade="none",
        games=300,
    )
    assert data["cars"] == race.to_dict()["cars"]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        # the cars spelt as typed, not as a Python list (issue 21, finding 14)
        (["--car", "red:0,0"], "--car: 1 car given (red:0,0); expected 2 to 4 cars"),
        (
            [f"--car={p}:0,0" for p in ("red", "blue", "white", "orange", "green")],
            "--car: 5 cars given (red:0,0, blue:0,0, white:0,0, orange:0,0, green:0,0); "
            "expected 2 to 4 cars",
        ),
        (["--car", "red:0,0", "--car", "blue:0,0", "--start", "0,0"], "--start not with --race"),
        (["--car", "red", "--car", "blue:0,0"], "--car: 'red' is invalid; expected PLAYER:Q,R"),
        (["--car", "red:0,0", "--car", "green:0,0"], "expected a player of the board"),
        (["--car", "red:0,0", "--car", "red:0,0"], "one car per player"),
        (["--car", "red:0,0", "--car", "blue:0,0", "--income"], "--race or --income, not both"),
        (["--car", "red:0,0", "--car", "blue:0,0", "--hand", "ore=1"], "--hand only with --income"),
        (["--car", "red:9,9", "--car", "blue:0,0"], "--car: 'red:9,9' is invalid; expected start"),
        (["--car", "red:1,0", "--car", "blue:0,0"], "not a rim start, so it has no default goals"),
        (["--car", "red:0,0", "--car", "blue:0,0", "--games", "0"], "--games: '0' is invalid"),
        (["--car", "red:0,0", "--car", "blue:0,0", "--within", "3"], "--within only with"),
        (["--car", "red:0,0:", "--car", "blue:0,0"], "--car: 'red:0,0:' is invalid; expected "),
        (["--car", "red:0,0:x", "--car", "blue:0,0"], "PLAYER:Q,R:GOAL_Q,GOAL_R[:...]"),
        (["--car", "red:0,0:9,9", "--car", "blue:0,0"], "--car: 'red:0,0:9,9' is invalid; "),
        (
            ["--car", "red:0,0:0,0", "--car", "blue:0,0"],
            "--car: 'red:0,0:0,0' is invalid; expected goal 0,0: a land hex of the board",
        ),
        (
            ["--car", "red:0,0:1,0:9,9", "--car", "blue:0,0"],
            "--car: 'red:0,0:1,0:9,9' is invalid; expected goal 9,9: a land hex of the board",
        ),
        (
            ["--car", "red:1,0:1,0", "--car", "blue:0,0"],
            "--car: 'red:1,0:1,0' is invalid; expected goal 1,0: a hex other than the car's start",
        ),
        (
            ["--car", "red:9,9:1,0", "--car", "blue:0,0"],
            "--car: 'red:9,9:1,0' is invalid; expected start 9,9: a hex of the board",
        ),
    ],
)
def test_cli_race_errors_one_line_exit_2(
    capsys: pytest.CaptureFixture[str], board_file: str, extra: list[str], message: str
) -> None:
    code, out, err = run(capsys, "rally", "--race", "--board", board_file, *extra)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err


def test_rally_help_names_the_income_and_race_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rally", "--help")
    text = " ".join(out.split())
    assert code == 0
    assert "--within T --income: turns T of the arrival chances" in text
    assert "--players P --income, --race: players at the table" in text
    assert "--car PLAYER:Q,R[:GOAL...] --race:" in text and "--games N --race:" in text
    assert "--income and --race need a board file with the players' buildings" in text
    assert "Exit status: 0 answered" in text


def test_ctrl_c_during_the_games_exits_130_with_no_result(board_file: str) -> None:
    """On a terminal the bar shows; Ctrl-C in the games: exit 130, no answer printed."""
    import fcntl
    import os
    import pty
    import select
    import signal
    import struct
    import subprocess
    import sys
    import termios
    import time

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    argv = ["rally", "--race", "--board", board_file, "--car", "red:0,0", "--car", "blue:0,0"]
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "isles",
            *argv,
            "--games",
            "1000000",
            "--trade",
            "none",
            "--method",
            "monte_carlo",
        ],
        stdout=subprocess.PIPE,
        stderr=slave,
        text=True,
    )
    os.close(slave)
    err = b""
    try:
        give_up = time.monotonic() + 60
        while b"rally race" not in err and time.monotonic() < give_up:
            ready, _, _ = select.select([master], [], [], 1.0)
            if ready:
                try:
                    err += os.read(master, 4096)
                except OSError:
                    break
        assert b"rally race" in err, err
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=30)
        while select.select([master], [], [], 0.5)[0]:
            try:
                chunk = os.read(master, 4096)
            except OSError:
                break
            if not chunk:
                break
            err += chunk
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
    text = err.decode(errors="replace")
    assert proc.returncode == 130, (out, text)
    assert out == "" and "isles: interrupted" in text and "Traceback" not in text


def test_a_race_timed_out_before_any_game_has_null_chances(
    capsys: pytest.CaptureFixture[str], board_file: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No game played: every chance is absent (None, JSON null), never 0.0 (docs/json.md)."""
    from types import SimpleNamespace

    import isles.solvers.rally.race as rally_race

    clock = itertools.count(0.0, 10.0)  # each reading 10 s after the last: past any limit
    monkeypatch.setattr(rally_race, "time", SimpleNamespace(perf_counter=lambda: next(clock)))
    race = race_cars(two_owners(), CARS, trade="none", method="monte_carlo", time_limit=1.0)
    assert str(race.status) == "timed_out" and race.games == 0
    for car in race.cars:
        assert car.wins == 0 and car.first is None and car.interval is None
        assert car.mean_turns is None and len(car.within) == race.turns
        assert all(p is None for p in car.within)
    argv = ["rally", "--race", "--board", board_file, "--car", "red:0,0", "--car", "blue:0,0"]
    argv += ["--trade", "none", "--method", "monte_carlo", "--time-limit", "1"]
    code, out, err = run(capsys, *argv, "--json")
    assert code == 1 and err == ""
    data = json.loads(out)
    assert data["status"] == "timed_out" and data["games"] == 0
    for car in data["cars"]:
        assert car["first"] is None and car["interval"] is None
        assert {w["probability"] for w in car["within"]} == {None}
    code, out, err = run(capsys, *argv)
    assert code == 1 and err == ""
    assert "no game finished before the time limit" in out and "0.000" not in out


def test_each_car_plays_its_committed_routes_policy_and_the_answer_says_so() -> None:
    """The race's cars play plan_income's committed routes (method "route"), even where the
    whole policy space fits; the restriction own_policy says so (it said "plan_income")."""
    board = two_owners()
    race = race_cars(board, CARS, trade="none", method="monte_carlo", games=200, seed=1)
    route = plan_income(board, "red", (0, 0), [(2, 0)], trade="none", method="route")
    car = race.cars[0]
    assert car.plan.method == "route"
    assert car.plan.expected_turns == pytest.approx(route.expected_turns, abs=1e-9)
    texts = {r["name"]: r["text"] for r in race.to_dict()["restrictions"]}
    assert "committed-routes policy of plan_income (method route" in texts["own_policy"]
