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
from isles.solvers.plunder_tournament import tournament


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
    with pytest.raises(InvalidInput, match="workers: 2 is invalid; expected no workers"):
        tournament(3, scheduler="tcp://127.0.0.1:1", workers=2)
