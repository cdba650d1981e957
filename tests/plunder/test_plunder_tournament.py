"""Plunder tournaments: the same seed gives the same tournament in this process, on a
local cluster of 2 workers and on a real `dask scheduler` with 1 `dask worker`."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from isles.models.errors import InvalidInput
from isles.solvers.plunder import tournament as plunder_tournament
from isles.solvers.plunder.tournament import tournament


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start_cluster() -> tuple[str, list[subprocess.Popen[bytes]]]:
    """A real `dask scheduler` and two `dask worker`s (one process, one thread each)."""
    dask = str(Path(sys.executable).with_name("dask"))
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    procs = [
        subprocess.Popen(
            [dask, "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
            **quiet,  # type: ignore[call-overload]
        )
    ]
    deadline = time.monotonic() + 60
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)
    for _ in range(2):
        procs.append(
            subprocess.Popen(
                [dask, "worker", address, "--nworkers", "1", "--nthreads", "1", "--no-dashboard"],
                **quiet,  # type: ignore[call-overload]
            )
        )
    return address, procs


def _workers(address: str) -> int:
    import distributed

    dist: Any = distributed  # partly untyped
    with dist.Client(address, timeout=30) as client:
        return len(client.nthreads())


def test_same_seed_same_tournament_with_1_and_2_workers() -> None:
    address, procs = _start_cluster()
    try:
        deadline = time.monotonic() + 60
        while _workers(address) < 2:
            assert time.monotonic() < deadline, "the workers did not start"
            time.sleep(0.5)
        args = (3, ["expected", "random"])
        two = tournament(*args, games=6, seed=9, scheduler=address)
        procs[2].terminate()
        procs[2].wait(timeout=30)
        while _workers(address) > 1:
            assert time.monotonic() < deadline + 30, "the worker did not leave"
            time.sleep(0.5)
        one = tournament(*args, games=6, seed=9, scheduler=address)
    finally:
        for proc in reversed(procs):
            proc.terminate()
            proc.wait(timeout=30)
    here = tournament(*args, games=6, seed=9, workers=0)
    assert here.to_dict() == one.to_dict() == two.to_dict()
    assert here.results == one.results == two.results
    assert tournament(*args, games=6, seed=10, workers=0).results != here.results


def test_seats_rotate_and_counts_add_up() -> None:
    t = tournament(4, ["certain", "random"], games=8, seed=1, workers=0)
    assert [p.played for p in t.policies] == [16, 16]
    assert [s.played for s in t.seats] == [8] * 4
    for r in t.results:
        assert r.seats[0] == ("certain" if r.index % 2 == 0 else "random")
    assert sum(s.first_digs for s in t.seats) <= 8
    for p in t.policies:
        assert p.win_ci95[0] <= p.win_rate <= p.win_ci95[1]
        assert p.score_ci95[0] <= p.mean_score <= p.score_ci95[1]


def test_bad_options_are_named() -> None:
    with pytest.raises(InvalidInput, match="players: 7 is invalid"):
        tournament(7)
    with pytest.raises(InvalidInput, match="workers: 2 is invalid; expected workers or scheduler"):
        tournament(3, scheduler="tcp://127.0.0.1:1", workers=2)


class _FakeClock:
    """A clock that moves ``step`` seconds at every reading: the time limit ends a
    tournament at a known game, whatever the machine's speed."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now - self.step


# tournament(3, ["certain", "random"], games=10, seed=4, workers=0) before time limits.
_SEED_4_TOTALS = [
    (5, 1, 12), (3, 6, 9), (6, 6, 6), (11, 1, 6), (1, 9, 8),
    (6, 9, 3), (9, 3, 6), (6, 9, 3), (9, 3, 6), (9, 1, 8),
]  # fmt: skip


def test_a_time_limit_ends_a_tournament_early_with_the_games_played_so_far(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    args = (3, ["certain", "random"])
    full = tournament(*args, games=10, seed=4, workers=0, time_limit=None)
    assert [r.totals for r in full.results] == _SEED_4_TOTALS  # no limit: unchanged
    assert (full.games, full.games_asked, full.time_limit) == (10, 10, None)
    assert not full.stopped_at_time_limit and full.to_dict()["stopped_at_time_limit"] is False
    # One reading sets the deadline, one comes before each game: 3 games in 3.5 "seconds"
    # (the clock read after each decision stands still).
    monkeypatch.setattr(plunder_tournament, "_decision_clock", lambda: 0.0)
    monkeypatch.setattr(plunder_tournament, "_clock", _FakeClock(1.0))
    short = tournament(*args, games=10, seed=4, workers=0, time_limit=3.5)
    assert (short.games, short.games_asked, short.stopped_at_time_limit) == (3, 10, True)
    assert short.status.value == "estimate" and short.results == full.results[:3]
    first_three = tournament(*args, games=3, seed=4, workers=0)
    assert short.policies == first_three.policies and short.seats == first_three.seats
    d = short.to_dict()
    assert (d["games"], d["games_asked"], d["time_limit"], d["stopped_at_time_limit"]) == (
        3,
        10,
        3.5,
        True,
    )
    # A limit that is never reached changes nothing.
    monkeypatch.setattr(plunder_tournament, "_clock", _FakeClock(1.0))
    long = tournament(*args, games=10, seed=4, workers=0, time_limit=1000)
    assert long.results == full.results and not long.stopped_at_time_limit


def test_a_game_still_going_at_the_time_limit_is_stopped_and_not_counted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The clock read after each decision moves 1 "second" a reading; the one read
    # before each game stands still. A game counts only if it ended before the limit.
    args = (3, ["certain", "random"])
    monkeypatch.setattr(plunder_tournament, "_clock", lambda: 0.0)
    clock = _FakeClock(1.0)
    monkeypatch.setattr(plunder_tournament, "_decision_clock", clock)
    tournament(*args, games=1, seed=4, workers=0, time_limit=1e9)
    decisions = int(clock.now) - 1  # one reading sets the deadline
    assert decisions >= 3 * 2  # a flip and three seats' crew cards a turn, 2 turns at least
    for limit, played in ((0.5, 0), (decisions + 0.5, 1)):
        clock = _FakeClock(1.0)
        monkeypatch.setattr(plunder_tournament, "_decision_clock", clock)
        t = tournament(*args, games=10, seed=4, workers=0, time_limit=limit)
        assert (t.games, t.stopped_at_time_limit) == (played, True)
        assert t.status.value == ("timed_out" if played == 0 else "estimate")
        # Stopped at the first decision that ended past the limit, not at the game's end.
        assert clock.now == 1 + played * decisions + 1
    d = tournament(*args, games=10, seed=4, workers=0, time_limit=0.5).to_dict()
    assert d["status"] == "timed_out" and d["mean_turns"] is None
    assert all(p["win_rate"] is None and p["score_ci95"] is None for p in d["policies"])


def test_a_time_limit_before_any_game_is_timed_out() -> None:
    t = tournament(2, ["random"], games=5, seed=1, workers=0, time_limit=1e-9)
    assert (t.status.value, t.games, t.games_asked, t.stopped_at_time_limit) == (
        "timed_out",
        0,
        5,
        True,
    )
    d = t.to_dict()
    assert d["mean_turns"] is None
    assert all(p["mean_score"] is None and p["win_rate"] is None for p in d["policies"])
    with pytest.raises(InvalidInput, match="time_limit: 0 is invalid"):
        tournament(2, time_limit=0)


def test_a_time_limit_ends_a_dask_tournament_with_a_prefix_of_the_games(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # 100 "seconds" a reading: the deadline, then two waits for finished tasks (each may
    # bring back more than one), then the limit. Under a limit the first tasks hold
    # one game each (then as many as the games so far say take half a second).
    monkeypatch.setattr(plunder_tournament, "_clock", _FakeClock(100.0))
    args = (3, ["certain", "random"])
    t = tournament(*args, games=40, seed=4, workers=1, time_limit=250)
    assert t.stopped_at_time_limit and t.games_asked == 40
    assert 0 < t.games < 40
    assert [r.index for r in t.results] == list(range(t.games))
    monkeypatch.undo()
    assert t.results == tournament(*args, games=t.games, seed=4, workers=0).results


def _brute_force_score_range(players: int) -> tuple[int, int]:
    """Every chest of correct crew cards (a wrong one scores nothing and moves no
    treasure), in every order: the lowest and highest total of any player."""
    from itertools import combinations, permutations

    from isles.models.plunder.codes import Code
    from isles.models.plunder.scoring import CrewCard, score_game

    deal = [Code(p, p, p) for p in range(players)]
    pairs = [(a, b) for a in range(players) for b in range(players) if a != b]
    totals = [
        t
        for k in range(len(pairs) + 1)
        for chosen in combinations(pairs, k)
        for order in permutations(chosen)
        for t in score_game(deal, [CrewCard(a, b, deal[b]) for a, b in order]).total
    ]
    return min(totals), max(totals)


def test_score_range_matches_brute_force() -> None:
    from isles.models.plunder.scoring import score_range

    for players in (2, 3):
        assert score_range(players) == _brute_force_score_range(players)
    with pytest.raises(InvalidInput, match="players: 7 is invalid"):
        score_range(7)


def test_score_intervals_stay_within_the_scores_possible() -> None:
    from isles.models.plunder.scoring import score_range

    # 4 games: the normal interval of threshold:0.5 (mean 3.0) reached -0.92 unclipped.
    t = tournament(3, games=4, seed=1, workers=0, time_limit=None)
    low, high = score_range(3)
    for stats in t.policies + t.seats:
        if stats.played:
            assert low <= stats.score_ci95[0] <= stats.mean_score <= stats.score_ci95[1] <= high
    assert t.policies[1].score_ci95[0] == low  # the one clipped
    one = tournament(4, ["random"], games=1, seed=1, workers=0, time_limit=None)
    assert one.seats[0].score_ci95 == score_range(4)  # one game a seat: every score possible


def test_more_policies_than_seats_are_refused_and_the_default_fits_two() -> None:
    """A policy past the seats would never play (it was listed with no game): refused,
    named; the default line-up's first two play at 2 players, both of them."""
    with pytest.raises(InvalidInput, match="policies: 'random certain expected' is invalid"):
        tournament(2, ["random", "certain", "expected"], games=1, workers=0)
    t = tournament(2, games=4, seed=1, workers=0)
    assert [p.name for p in t.policies] == ["expected", "threshold:0.5"]
    assert all(p.played == 4 for p in t.policies)
