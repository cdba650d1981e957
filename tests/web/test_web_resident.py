"""The resident process of ``isles serve`` (the lighthouse's kept table) is accounted for.

It holds one of the job slots while it lives (never a process past the limit),
gives it up to a waiting job, ends after its idle time, and the health endpoint
and the console say so, with the memory it holds. A sleeping task stands in for
the lighthouse's (tests/web/nap.py): the same ``Task.resident`` path, no solve.
"""

from __future__ import annotations

import os
import time
import warnings
from collections.abc import Callable
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # Starlette's note about httpx's successor
    from starlette.testclient import TestClient

from isles.web import create_app
from isles.web.jobs import RESIDENT_IDLE
from tests.web.nap import NAP, RESIDENT_NAP

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

TASKS = {"kept": RESIDENT_NAP, "nap": NAP}


def slots(client: TestClient) -> dict[str, Any]:
    answer: dict[str, Any] = client.get("/api/health").json()["slots"]
    assert answer["processes"] <= answer["max_running"], answer
    return answer


def run_kept(client: TestClient) -> None:
    """One job of the resident kind, to its end."""
    job = client.post("/api/solve/kept", json={"seconds": 0}).json()
    while job["state"] in ("running", "queued"):
        time.sleep(0.02)
        job = client.get(f"/api/jobs/{job['job']}").json()
    assert job["state"] == "done", job


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def wait_for(check: Callable[[], bool], seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline
        time.sleep(0.05)


def test_an_idle_resident_process_holds_a_slot_and_gives_it_up() -> None:
    said: list[str] = []
    with TestClient(create_app(tasks=TASKS, max_running=2, console=said.append)) as client:
        run_kept(client)
        status = slots(client)
        (kept,) = status["resident"]
        assert (status["running"], status["processes"]) == (0, 1)
        assert kept["kind"] == "kept" and not kept["busy"] and alive(kept["pid"])
        assert kept["idle"] >= 0 and kept["ends_in"] <= RESIDENT_IDLE == status["resident_idle"]
        assert kept["memory"]["rss"] >= kept["memory"]["anon"] > 0
        assert f"pid {kept['pid']}" in said[0] and "one of the 2 job slots" in said[0]
        naps = [client.post("/api/solve/nap", json={"seconds": 60}).json() for _ in range(2)]
        # the second nap needed the idle process's slot: it was ended, both naps run
        assert [nap["state"] for nap in naps] == ["running", "running"]
        status = slots(client)
        assert (status["running"], status["processes"], status["resident"]) == (2, 2, [])
        assert not alive(kept["pid"])
        assert "ended (its slot went to a waiting nap job)" in said[-1] and "GiB" in said[-1]
        for nap in naps:
            client.post(f"/api/jobs/{nap['job']}/cancel", json={})
        run_kept(client)  # a fresh one, its cache to build again
        assert [r["pid"] != kept["pid"] for r in slots(client)["resident"]] == [True]


def test_an_idle_resident_process_ends_after_its_idle_time() -> None:
    said: list[str] = []
    app = create_app(tasks=TASKS, resident_idle=0.3, console=said.append)
    with TestClient(app) as client:
        run_kept(client)
        (kept,) = slots(client)["resident"]
        wait_for(lambda: not slots(client)["resident"])  # the reaper ends it, nobody asks
        assert not alive(kept["pid"]) and slots(client)["processes"] == 0
        assert said[-1].startswith(f"the kept jobs' process (pid {kept['pid']}) ended (0.3 s")
        run_kept(client)  # and the next job starts one again
        assert slots(client)["resident"][0]["pid"] != kept["pid"]
