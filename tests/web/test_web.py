"""HTTP tests of every endpoint of ``isles serve`` (docs/serve.md), bad input included.

Each answer is compared with the catalogue call it stands for: the app adds
nothing to the library's results and never shows a stack trace.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # Starlette's note about httpx's successor
    from starlette.testclient import TestClient

from isles import layout, lighthouse, plunder, rally
from isles.cli import main
from isles.commands.serve import address
from isles.models.layout.request import DEFAULT_RULES
from isles.web import create_app
from isles.web.app import PAGES
from isles.web.tasks import DIG_SAMPLES
from tests.web.nap import NAP, ONCE, READ_IN

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def finish(client: TestClient, job: dict[str, Any], limit: float = 90.0) -> dict[str, Any]:
    """Poll a job until it is no longer running."""
    deadline = time.monotonic() + limit
    while job["state"] in ("running", "queued"):
        assert time.monotonic() < deadline, job
        time.sleep(0.05)
        response = client.get(f"/api/jobs/{job['job']}")
        assert response.status_code == 200
        job = response.json()
    return job


def solve(client: TestClient, kind: str, body: object) -> dict[str, Any]:
    response = client.post(f"/api/solve/{kind}", json=body)
    assert response.status_code == 202, response.text
    job = finish(client, response.json())
    assert job["state"] == "done", job
    result: dict[str, Any] = job["result"]
    return result


def refused(response: Any, status: int = 400) -> dict[str, Any]:
    """A JSON error: the library's message and field, never a traceback."""
    assert response.status_code == status, response.text
    error: dict[str, Any] = response.json()["error"]
    assert set(error) == {"field", "message"}
    assert "Traceback" not in response.text and 'File "' not in response.text
    return error


def rejected(client: TestClient, kind: str, body: object) -> dict[str, Any]:
    """Bad input: refused at once (a format error) or by the library in the job."""
    response = client.post(f"/api/solve/{kind}", json=body)
    if response.status_code == 400:
        return refused(response)
    job = finish(client, response.json())
    assert job["state"] == "error", job
    error: dict[str, Any] = job["error"]
    return error


SLOW = {  # the real game from the start, no table cached: half a minute of DP (cancelled)
    "players": 2,
    "position": {"discs": [[]] * 8, "boat": 0, "maurice": 0},
    "roll": ["red", "blue"],
}


# Pages and files ------------------------------------------------------------------


@pytest.mark.parametrize("path", sorted(PAGES))
def test_pages_are_html_with_a_viewport_and_a_strict_policy(client: TestClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in response.text
    policy = response.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    assert response.headers["x-content-type-options"] == "nosniff"


@pytest.mark.parametrize(
    "name", ["app.css", "common.js", "hexes.js", "plunder.js", "lighthouse.js", "rally.js"]
)
def test_static_files_are_served(client: TestClient, name: str) -> None:
    response = client.get(f"/static/{name}")
    assert response.status_code == 200
    assert "innerHTML" not in response.text  # the DOM is built from text only


def test_no_file_outside_the_static_folder(client: TestClient) -> None:
    for path in ["/static/../app.py", "/static/%2e%2e/app.py", "/static/..%2fapp.py", "/app.py"]:
        response = client.get(path)
        assert response.status_code == 404, path
        assert "create_app" not in response.text


def test_unknown_paths_and_methods_answer_json(client: TestClient) -> None:
    assert refused(client.get("/nowhere"), 404)["message"] == "/nowhere: no such page or endpoint"
    refused(client.get("/api/board"), 405)
    refused(client.post("/api/solve/nothing", json={}), 404)


def test_health(client: TestClient) -> None:
    answer = client.get("/api/health").json()
    assert answer["ok"] is True
    assert answer["jobs"] == [
        "income",
        "layout",
        "lighthouse",
        "next-move",
        "plunder",
        "race",
        "route",
    ]


# Request checks -----------------------------------------------------------------


def test_bodies_are_capped() -> None:
    with TestClient(create_app(max_body=1000)) as small:
        board = {"board": {"hexes": [{"hex": [q, 0], "terrain": "sea"} for q in range(100)]}}
        error = refused(small.post("/api/board", json=board), 413)
        assert error["message"] == "request: larger than 1000 bytes"

        def chunks() -> Iterator[bytes]:  # no content-length: counted as it arrives
            yield b'{"board": {"hexes": ['
            yield b" " * 2000
            yield b"]}}"

        response = small.post(
            "/api/board", content=chunks(), headers={"content-type": "application/json"}
        )
        refused(response, 413)


def test_json_only_strictly_read(client: TestClient) -> None:
    error = refused(
        client.post("/api/board", content=b"{}", headers={"content-type": "text/plain"})
    )
    assert error == {
        "field": "request",
        "message": 'request: "text/plain" is invalid; expected application/json',
    }
    error = refused(
        client.post(
            "/api/board",
            content=b'{"board": 1, "board": 2}',
            headers={"content-type": "application/json"},
        )
    )
    assert error == {
        "field": "request",
        "message": 'request: the key "board" is given twice; expected each key once per object',
    }
    for text in [b"{", b'{"board": NaN}', b"\xff\xfe"]:
        response = client.post(
            "/api/board", content=text, headers={"content-type": "application/json"}
        )
        assert refused(response)["field"] == "request"


GOOD_HOSTS = ["127.0.0.1", "127.0.0.1:8000", "localhost", "LOCALHOST:80", "[::1]", "[::1]:65535"]
BAD_HOSTS = [
    "",  # none at all
    "testserver",  # a name of its own (DNS rebinding)
    "evil.example",
    "[::1]evil.com",
    "[::1]:8000evil",
    "[::1",
    "[evil]",
    "localhost:abc",
    "localhost:",
    "localhost:0",
    "localhost:65536",
    "localhost:80:80",
    "localhost.evil.com",
    "127.0.0.1.nip.io",
    "local host",
    "localhost@evil.com",
    "user@localhost",
]


@pytest.mark.parametrize("good", [True, False])
def test_unknown_and_malformed_hosts_are_refused(good: bool) -> None:
    loopback = ("127.0.0.1", "localhost", "[::1]")
    with TestClient(create_app(allowed_hosts=loopback)) as local:
        for host in GOOD_HOSTS if good else BAD_HOSTS:
            response = local.get("/api/health", headers={"host": host})
            if good:
                assert response.status_code == 200, host
            else:
                assert refused(response)["message"] == "request: unknown Host header", host


def test_any_well_formed_host_is_served_on_the_network() -> None:
    """``isles serve --host``: any name reaches it, but a malformed Host header does not."""
    with TestClient(create_app()) as anyone:
        for host in ["192.168.1.20:8000", "table.local", "[fe80::1]:8000"]:
            assert anyone.get("/api/health", headers={"host": host}).status_code == 200, host
        for host in ["[::1]evil.com", "localhost:abc", "a b"]:
            assert refused(anyone.get("/api/health", headers={"host": host}))["field"] is None


def test_a_crash_is_a_json_500_without_a_trace(monkeypatch: pytest.MonkeyPatch) -> None:
    from isles.web import app as web_app

    def broken(body: object) -> dict[str, Any]:
        raise RuntimeError("secret internals")

    monkeypatch.setattr(web_app, "check_board", broken)
    with TestClient(create_app(), raise_server_exceptions=False) as crashing:
        error = refused(crashing.post("/api/board", json={"board": {"hexes": []}}), 500)
        assert error["message"] == "internal error (see the server's log)"


# Quick answers --------------------------------------------------------------------


def test_examples(client: TestClient) -> None:
    assert client.get("/api/examples/plunder").json() == plunder.example_record().to_dict()
    assert client.get("/api/examples/beginner").json() == rally.beginner_board().to_dict()
    assert refused(client.get("/api/examples/nothing"))["field"] == "example"


def test_board_files_are_read_as_the_library_reads_them(client: TestClient) -> None:
    board = rally.beginner_board().to_dict()
    assert client.post("/api/board", json={"board": board}).json() == board
    bad = {"hexes": [{"hex": [0, 0], "terrain": "forest", "number": 7}]}
    error = refused(client.post("/api/board", json={"board": bad}))
    assert error["field"].startswith("board.hexes[0]")
    assert "7 is invalid" in error["message"]
    error = refused(client.post("/api/board", json={"board": board, "Board": 1}))
    assert error["message"].startswith("request: unknown key 'Board'")


def test_uploaded_records_and_positions_are_checked(client: TestClient) -> None:
    record = plunder.example_record().to_dict()
    assert client.post("/api/plunder/record", json={"record": record}).json() == record
    record["observations"][0]["answers"]["0"] = "no"
    error = refused(client.post("/api/plunder/record", json={"record": record}))
    assert error["field"] == "record.observations[0].answers.0"
    position = {"discs": [["red", "blue"], []], "boat": 2, "maurice": 1}
    body = {"islands": 2, "position": position}
    assert client.post("/api/lighthouse/position", json=body).json() == position
    body = {"islands": 2, "position": {**position, "boat": 99}}
    assert refused(client.post("/api/lighthouse/position", json=body))["field"] == "position.boat"


def test_lighthouse_kits(client: TestClient) -> None:
    answer = client.post("/api/lighthouse/kit", json={"players": 3}).json()
    assert answer == lighthouse.players_kit(3).to_dict()
    answer = client.post("/api/lighthouse/kit", json={"islands": 2, "sea_cards": 3}).json()
    assert answer == lighthouse.default_kit(2, 3).to_dict()
    kit = lighthouse.default_kit(1, 2).to_dict()
    assert client.post("/api/lighthouse/kit", json={"kit": kit}).json() == kit
    assert refused(client.post("/api/lighthouse/kit", json={"players": 5}))["field"] == "players"
    assert refused(client.post("/api/lighthouse/kit", json={"kit": kit, "players": 2}))
    assert refused(client.post("/api/lighthouse/kit", json={"kit": {"islands": []}}))[
        "field"
    ].startswith("kit")


def test_layout_rules(client: TestClient) -> None:
    answer = client.get("/api/layout/rules").json()
    assert answer["rules"] == [rule.value for rule in layout.Rule]
    assert set(answer["defaults"]["ships"]) == {rule.value for rule in DEFAULT_RULES}


# Jobs -------------------------------------------------------------------------------


def test_plunder_jobs_answer_as_the_library(client: TestClient) -> None:
    record = plunder.example_record()
    result = solve(client, "plunder", {"record": record.to_dict(), "advise": True})
    expected = plunder.analyse(record, advise=True).to_dict()
    expected["advice"]["dig"] = plunder.dig_advice(record, samples=DIG_SAMPLES).to_dict()
    # The dig advice's own budget (DIG_SECONDS, less what the analysis took) is no
    # limit for 4 players: every game is played, the answer is the library's.
    budget = result["advice"]["dig"].pop("time_limit")
    assert 0 < budget <= 15
    expected["advice"]["dig"].pop("time_limit")
    assert result == expected
    turn = {"active": 0, "clue": {"island": 0, "marker": 0, "trap": 0}}
    contradiction = {
        "players": 3,
        "observations": [
            {**turn, "answers": {"1": True, "2": True}},
            {**turn, "answers": {"1": False, "2": False}},
        ],
    }
    result = solve(client, "plunder", {"record": contradiction})
    assert result["status"] == "inconsistent"
    assert len(result["conflict"]) == 2


def test_plunder_bad_input_names_the_field(client: TestClient) -> None:
    record = plunder.example_record().to_dict()
    del record["observations"][2]["answers"]["1"]
    error = refused(client.post("/api/solve/plunder", json={"record": record}))
    assert error["field"].startswith("record.observations[2].answers")
    error = refused(client.post("/api/solve/plunder", json={"record": record, "advice": True}))
    assert error["message"].startswith('advice: unknown key "advice"')
    error = refused(client.post("/api/solve/plunder", json={"record": {"players": 3}, "advise": 1}))
    assert error["field"] == "advise"


def _variants() -> list[dict[str, Any]]:
    """Records near the example: two cards of a clue changed, names as text, bad ones."""
    base = plunder.example_record().to_dict()
    out = [base]
    two = plunder.example_record().to_dict()
    two["observations"][-1]["clue"] = {"island": 0, "marker": 0, "trap": 1}
    named = plunder.example_record().to_dict()
    named["observations"][0]["clue"] = {"island": "Volcano", "marker": "Cross", "trap": "Powder"}
    mine_wrong = plunder.example_record().to_dict()
    mine_wrong["observations"][1]["answers"]["0"] = True
    missing = plunder.example_record().to_dict()
    del missing["observations"][0]["answers"]["2"]
    return [*out, two, named, mine_wrong, missing, {"players": 3}, {"players": 7}]


@pytest.mark.parametrize("record", _variants())
def test_a_record_the_notepad_accepts_advice_accepts(
    client: TestClient, record: dict[str, Any]
) -> None:
    """One reader (the declaration) for the record check, the analysis and the advice."""
    checked = client.post("/api/plunder/record", json={"record": record})
    advised = client.post("/api/solve/plunder", json={"record": record, "advise": True})
    assert (checked.status_code == 200) == (advised.status_code == 202), advised.text
    if checked.status_code == 200:
        job = finish(client, advised.json())
        assert job["state"] == "done", job
        if job["result"]["status"] == "exact" and record.get("observations"):
            assert job["result"]["advice"]["flip"] is not None
    else:
        assert refused(checked) == refused(advised)


def test_failed_dig_advice_leaves_flip_and_guess_advice(monkeypatch: pytest.MonkeyPatch) -> None:
    from isles.models.errors import InvalidInput
    from isles.solvers.plunder import analysis as plunder_analysis
    from isles.web.tasks import plunder as notepad

    def refuse(*args: object, **kwargs: object) -> None:
        raise InvalidInput("samples", 0, "an integer in 1..100_000")

    # the library's analysis asks the dig advice (the web job is isles.answer)
    monkeypatch.setattr(plunder_analysis, "answer_dig_question", refuse)
    record = plunder.example_record()
    out = notepad.TASKS["plunder"].run(
        notepad.TASKS["plunder"].read({"record": record.to_dict(), "advise": True})
    )
    assert out["advice"]["flip"] is not None and out["advice"]["guesses"]
    assert out["advice"]["dig_error"]["field"] == "samples"
    assert "dig" not in out["advice"]


def test_lighthouse_jobs_answer_as_the_library(client: TestClient) -> None:
    kit = lighthouse.default_kit(2, 3)
    position = {"discs": [["red"], []], "boat": 1, "maurice": 0}
    body = {"islands": 2, "sea_cards": 3, "position": position, "roll": ["blue", "green"]}
    result = solve(client, "lighthouse", body)
    expected = lighthouse.best_move(
        kit,
        lighthouse.Position.from_dict(position, kit),
        lighthouse.Roll.from_faces(kit, ("blue", "green")),
    )
    assert result == expected.to_dict()
    error = refused(client.post("/api/solve/lighthouse", json={**body, "roll": ["blue", "black"]}))
    assert error["field"] == "roll"
    bad = {**body, "position": {**position, "boat": 9}}
    assert refused(client.post("/api/solve/lighthouse", json=bad))["field"] == "position.boat"


def advice(islands: int, position: dict[str, Any], roll: list[str]) -> dict[str, Any]:
    kit = lighthouse.default_kit(islands, 3)
    return lighthouse.best_move(
        kit, lighthouse.Position.from_dict(position, kit), lighthouse.Roll.from_faces(kit, roll)
    ).to_dict()


def test_lighthouse_tables_are_kept_and_dropped_safely() -> None:
    """The resident process answers as best_move, position after position and kit after
    kit; a second job while it works gets a process of its own; a cancel ends it."""
    first = {"discs": [["red"], []], "boat": 1, "maurice": 0}
    second = {"discs": [["red", "blue"], ["green"]], "boat": 2, "maurice": 1}
    third = {"discs": [[], [], ["purple"]], "boat": 0, "maurice": 2}
    with TestClient(create_app()) as fresh:
        for islands, position, roll in [
            (2, first, ["blue", "green"]),
            (2, second, ["boat", "red"]),
            (3, third, ["red", "purple"]),
            (2, first, ["orange", "blue"]),
        ]:
            body = {"islands": islands, "sea_cards": 3, "position": position, "roll": roll}
            assert solve(fresh, "lighthouse", body) == advice(islands, position, roll)
        both = [
            fresh.post("/api/solve/lighthouse", json=SLOW).json(),
            fresh.post(
                "/api/solve/lighthouse",
                json={"islands": 2, "sea_cards": 3, "position": first, "roll": ["red", "red"]},
            ).json(),
        ]
        assert finish(fresh, both[1])["result"] == advice(2, first, ["red", "red"])
        assert fresh.post(f"/api/jobs/{both[0]['job']}/cancel", json={}).json()["state"] == (
            "cancelled"
        )
        body = {"islands": 2, "sea_cards": 3, "position": second, "roll": ["red", "blue"]}
        assert solve(fresh, "lighthouse", body) == advice(2, second, ["red", "blue"])


def test_the_real_game_is_advised_as_the_library_advises(client: TestClient) -> None:
    """8 islands (2 players): a late position, answered from the positions that follow."""
    kit = lighthouse.players_kit(2)
    done = [[a, b, a, b] for a, b in kit.islands[:7]]
    body = {"players": 2, "position": {"discs": [*done, []], "boat": 6, "maurice": 0}}
    answer = solve(client, "lighthouse", {**body, "roll": ["purple", "green"]})
    position = lighthouse.Position.from_dict(body["position"], kit)
    roll = lighthouse.Roll.from_faces(kit, ("purple", "green"))
    assert answer == lighthouse.best_move(kit, position, roll).to_dict()


def test_route_jobs_answer_as_the_library(client: TestClient) -> None:
    board = rally.beginner_board()
    body: dict[str, object] = {
        "board": board.to_dict(),
        "start": [0, -3],
        "roads": [[[0, -2], [0, -1]]],
        "objective": "expected_turns",
        "budget": {"ore": 10, "wool": 11, "lumber": 3},
    }
    expected = rally.plan_route(
        board,
        (0, -3),
        roads=[((0, -2), (0, -1))],
        objective="expected_turns",
        budget={"ore": 10, "wool": 11, "lumber": 3},
        time_limit=20.0,
    )
    assert solve(client, "route", body) == expected.to_dict()
    plain = solve(client, "route", {"board": board.to_dict(), "start": [1, -1], "goals": [[0, 2]]})
    assert plain["path"] == [[1, -1], [0, 0], [0, 1], [0, 2]]
    cases: list[tuple[dict[str, object], str]] = [
        ({"start": None}, "start"),
        ({"start": [9, 9]}, "start"),
        ({"objective": "shortest"}, "objective"),
        ({"budget": {"gold": 1}}, "budget"),
        ({"roads": [[[0, 0], [3, 3]]]}, "roads[0]"),
    ]
    for bad, field in cases:
        error = rejected(client, "route", {**body, **bad})
        assert error["field"] == field, error


def test_layout_and_next_move_jobs_answer_as_the_library(client: TestClient) -> None:
    result = solve(client, "layout", {"game": "ships", "radius": 1, "seed": 2})
    expected = layout.solve_layout(layout.setup_request(radius=1), seed=2, time_limit=20.0)
    assert result == expected.to_dict()
    result = solve(client, "next-move", {"radius": 1, "holding": ["sea", "forest"]})
    move = layout.next_move(layout.setup_request(radius=1), ("sea", "forest"), time_limit=20.0)
    assert result == move.to_dict()
    assert refused(client.post("/api/solve/layout", json={"game": "chess"}))["field"] == "game"
    error = refused(client.post("/api/solve/layout", json={"game": "base", "rules": {"x": True}}))
    assert error["field"] == "rules"
    error = refused(client.post("/api/solve/layout", json={"game": "base", "radius": 2}))
    assert error["field"] == "radius"
    error = refused(client.post("/api/solve/next-move", json={"holding": ["sea"]}))
    assert error["field"] == "holding"


def test_unknown_jobs(client: TestClient) -> None:
    assert refused(client.get("/api/jobs/0123"), 404)["field"] == "job"
    assert refused(client.post("/api/jobs/0123/cancel", json={}), 404)["field"] == "job"


def test_a_request_is_read_once_by_the_server_and_never_by_its_job() -> None:
    with TestClient(create_app(tasks={"once": ONCE})) as app:
        before = len(READ_IN)
        answer = solve(app, "once", {})
    assert len(READ_IN) == before + 1 and answer["read_in"] == os.getpid()
    assert answer["run_in"] != os.getpid() and answer["reads_here"] == 0


def test_a_job_can_be_cancelled() -> None:
    with TestClient(create_app(tasks={"nap": NAP})) as app:
        job = app.post("/api/solve/nap", json={"seconds": 60}).json()
        assert job["state"] == "running"
        started = time.monotonic()
        cancelled = app.post(f"/api/jobs/{job['job']}/cancel", json={}).json()
        assert cancelled["state"] == "cancelled"
        assert cancelled["error"] is None  # a cancel is no error of the request
        assert time.monotonic() - started < 30  # not the 60 s nap
        assert app.get(f"/api/jobs/{job['job']}").json()["state"] == "cancelled"


def test_busy_is_waiting_not_bad_input() -> None:
    """Past the running slots jobs wait in a bounded queue; past it: 503 and Retry-After."""
    with TestClient(create_app(max_running=1, max_queued=2, tasks={"nap": NAP})) as one:
        first = one.post("/api/solve/nap", json={"seconds": 1.0}).json()
        assert first["state"] == "running"
        waiting = [one.post("/api/solve/nap", json={"seconds": 0.1}) for _ in range(2)]
        assert [r.status_code for r in waiting] == [202, 202]
        assert [(r.json()["state"], r.json()["ahead"]) for r in waiting] == [
            ("queued", 0),
            ("queued", 1),
        ]
        full = one.post("/api/solve/nap", json={"seconds": 0.1})
        error = refused(full, 503)
        assert full.headers["retry-after"].isdigit()
        assert error["message"].startswith("the server is busy: 1 jobs are running and 2 waiting")
        # A waiting job can be cancelled; the one after it moves up.
        gone = one.post(f"/api/jobs/{waiting[0].json()['job']}/cancel", json={}).json()
        assert gone["state"] == "cancelled"
        last = one.get(f"/api/jobs/{waiting[1].json()['job']}").json()
        assert (last["state"], last["ahead"]) == ("queued", 0)
        assert finish(one, first)["state"] == "done"
        assert finish(one, last)["result"] == {"slept": 0.1}


def test_a_job_nobody_polls_ends_and_its_process_with_it(tmp_path: Path) -> None:
    """A closed page's job: its lease lapses, it is cancelled, its process is gone."""
    pidfile = tmp_path / "pid"
    with TestClient(create_app(lease=0.6, tasks={"nap": NAP})) as app:
        body = {"seconds": 60, "pidfile": str(pidfile)}
        kept = app.post("/api/solve/nap", json={"seconds": 60}).json()
        job = app.post("/api/solve/nap", json=body).json()
        deadline = time.monotonic() + 20
        while not pidfile.exists():
            assert time.monotonic() < deadline
            app.get(f"/api/jobs/{kept['job']}")  # this one is still being polled
            time.sleep(0.05)
        pid = int(pidfile.read_text())
        while app.get(f"/api/jobs/{kept['job']}").json()["state"] == "running":
            assert time.monotonic() < deadline, "the abandoned job was not ended"
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                break  # the abandoned job's process is gone
            time.sleep(0.1)
        else:
            pytest.fail("the polled job ended")
        assert app.get(f"/api/jobs/{job['job']}").json()["state"] == "cancelled"
        assert app.get(f"/api/jobs/{kept['job']}").json()["state"] == "running"
        app.post(f"/api/jobs/{kept['job']}/cancel", json={})


def test_a_job_draws_no_progress_bar_on_the_servers_console() -> None:
    with TestClient(create_app(tasks={"nap": NAP})) as app:
        job = finish(app, app.post("/api/solve/nap", json={"seconds": 0, "bar": True}).json())
        assert job["result"] == {"bar_disabled": True}


def test_a_job_that_cannot_start_fails_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """No process for it (a bug, or the machine out of them): an error, not a job queued forever."""
    from isles.web.jobs import JobRunner

    def broken(self: JobRunner, job: object) -> None:
        raise RuntimeError("no process")

    monkeypatch.setattr(JobRunner, "_launch", broken)
    with TestClient(create_app(tasks={"nap": NAP})) as app:
        job = app.post("/api/solve/nap", json={"seconds": 0}).json()
        assert job["state"] == "error"
        assert job["error"]["message"] == "internal error (see the server's log)"
        assert app.get(f"/api/jobs/{job['job']}").json()["state"] == "error"


def test_a_job_stops_at_its_time_limit() -> None:
    with TestClient(create_app(time_limits={"nap": 0.5}, tasks={"nap": NAP})) as quick:
        job = finish(quick, quick.post("/api/solve/nap", json={"seconds": 60}).json())
        assert job["state"] == "timed_out"
        assert job["error"]["message"] == "time limit reached: no answer within 0.5 s"
        assert job["result"] is None


# The command ------------------------------------------------------------------------


def test_serve_prints_its_address_and_serves_the_loopback_only() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "isles", "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line.startswith("isles serve: open http://127.0.0.1:"), line
        url = line.split()[3]
        port = int(url.rsplit(":", 1)[1].strip("/"))
        with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
            conn.sendall(b"GET /api/health HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
            answer = conn.makefile("rb").read()
        assert b'"ok":true' in answer.replace(b" ", b"")
        with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
            conn.sendall(b"GET /api/health HTTP/1.0\r\nHost: evil.example\r\n\r\n")
            assert b"unknown Host header" in conn.makefile("rb").read()
    finally:
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=15)
    assert process.returncode in (0, 130), err
    assert "Traceback" not in err


def test_serve_refuses_bad_options() -> None:
    env = {**os.environ, "PYTHONPATH": os.getcwd()}
    run = [sys.executable, "-m", "isles", "serve"]
    done = subprocess.run([*run, "--port", "70000"], capture_output=True, text=True, env=env)
    assert done.returncode == 2 and "--port" in done.stderr
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        done = subprocess.run([*run, "--port", str(port)], capture_output=True, text=True, env=env)
    assert done.returncode == 2
    assert done.stderr.startswith(f"isles serve: error: --port: {port} is invalid; expected a free")
    assert address("::1", 80) == "http://[::1]:80/"


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        # as every other option's error: plain digits, no argparse "argument" (issue 21, 12)
        (["--port", "99999"], "--port: '99999' is invalid; expected an integer in 0..65535"),
        (["--port", "8_000"], "--port: '8_000' is invalid; expected an integer in 0..65535"),
        # an address not this computer's (TEST-NET-1, never assigned) is --host's fault
        (
            ["--host", "192.0.2.1", "--port", "0", "--share"],
            "--host: '192.0.2.1' is invalid; expected an address of this computer",
        ),
    ],
)
def test_serve_names_the_option_at_fault(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"isles serve: error: {said}"), err


def test_the_lighthouse_advisor_answers_exact_as_the_library(client: TestClient) -> None:
    """`exact` is a field of the advice question: the web's cached tables do not drop it."""
    body = {
        "islands": 1,
        "sea_cards": 2,
        "roll": ["red", "red"],
        "position": {"discs": [[]], "boat": 0, "maurice": 0},
        "exact": True,
    }
    answer = solve(client, "lighthouse", body)
    kit = lighthouse.default_kit(1, 2)
    start = lighthouse.Position(((),), boat=0, maurice=0)
    roll = lighthouse.Roll.from_faces(kit, ("red", "red"))
    assert answer == lighthouse.best_move(kit, start, roll, exact=True).to_dict()
    error = rejected(
        client,
        "lighthouse",
        {**body, "islands": 5, "position": {"discs": [[]] * 5, "boat": 0, "maurice": 0}},
    )
    assert error["field"] == "exact", error


def test_a_board_set_up_asks_for_at_most_8_workers(client: TestClient) -> None:
    error = rejected(client, "layout", {"game": "ships", "radius": 1, "workers": 1000})
    assert error["field"] == "workers" and "1..8" in error["message"], error


def test_slow_dig_advice_stops_at_its_own_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """6 players: dig advice stops at its own time limit, flip and guess advice stand."""
    from isles.web.tasks import plunder as notepad

    monkeypatch.setattr(notepad, "DIG_SECONDS", 0.5)  # the floor: half a second
    first = {"1": True, "2": True, "3": True, "4": False, "5": False}
    second = {"0": False, "2": True, "3": True, "4": False, "5": False}
    record = {
        "players": 6,
        "me": {"player": 0, "code": {"island": 1, "marker": 2, "trap": 3}},
        "observations": [
            {"active": 0, "clue": {"island": 0, "marker": 0, "trap": 0}, "answers": first},
            {"active": 1, "clue": {"island": 5, "marker": 0, "trap": 0}, "answers": second},
        ],
    }
    task = notepad.TASKS["plunder"]
    out = task.run(task.read({"record": record, "advise": True}))
    assert out["advice"]["flip"] is not None and out["advice"]["guesses"]
    dig = out["advice"]["dig"]
    assert dig["stopped_at_time_limit"] and dig["samples"] < dig["samples_asked"] == DIG_SAMPLES


def test_the_notepad_dig_advice_plays_on_by_the_policy_asked(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``dig_policy`` (with ``advise``): the dig advice's games played on follow it, the
    answer that of the library's for the games played; a bad one is refused, named."""
    from isles.web.tasks import plunder as notepad

    # a search seat's first decision rebuilds the others' models from the first turn
    monkeypatch.setattr(notepad, "DIG_SECONDS", 4.0)
    record = plunder.example_record()
    task = notepad.TASKS["plunder"]
    body = {"record": record.to_dict(), "advise": True, "dig_policy": "search:2"}
    dig = task.run(task.read(body))["advice"]["dig"]
    assert dig["policy"] == "search:2" and dig["samples"] >= 1
    expected = plunder.dig_advice(record, policy="search:2", samples=dig["samples"]).to_dict()
    for key in ("time_limit", "samples_asked", "stopped_at_time_limit"):
        dig.pop(key), expected.pop(key)
    assert dig == expected
    # A search whose first game outlasts the dig advice's budget: said of the policy
    # chosen, the flip and guess advice stand (the job had timed out with nothing).
    slow = task.run(task.read({**body, "dig_policy": "search:10000"}))["advice"]
    assert slow["flip"] is not None and slow["guesses"] and "dig" not in slow
    assert slow["dig_error"]["field"] == "dig_policy", slow["dig_error"]
    # spelt as the request's JSON spells it, as every refusal of the web app
    assert slow["dig_error"]["message"].startswith('dig_policy: "search:10000" is invalid')
    refusals = [
        ({**body, "dig_policy": "nope"}, "search (search:BUDGET)"),
        ({**body, "dig_policy": "search:0"}, "BUDGET an integer in 1..10000"),
        ({**body, "dig_policy": 3}, "a built-in policy's name"),
        ({**body, "advise": False}, "dig_policy only with advise"),
    ]
    for sent, expected_text in refusals:
        error = refused(client.post("/api/solve/plunder", json=sent))
        assert error["field"] == "dig_policy" and expected_text in error["message"], error


def _resident_with_stderr(kind: str, connection: Any, other: Any, stderr: str) -> None:
    other.close()  # the server's end, inherited by the fork: only the server holds it
    fd = os.open(stderr, os.O_WRONLY | os.O_CREAT)
    os.dup2(fd, 2)
    sys.stderr = open(2, "w", closefd=False)  # noqa: SIM115 - the process's own stderr
    from isles.web.jobs import _resident_child

    _resident_child(kind, connection)


def test_a_cancelled_resident_job_ends_quietly(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Cancel closes the pipe mid-solve: the process ends, with nothing on the console."""
    import multiprocessing

    from isles.web import tasks
    from tests.web.nap import RESIDENT_NAP

    monkeypatch.setitem(tasks.TASKS, "resident-nap", RESIDENT_NAP)
    stderr = tmp_path / "stderr"
    near, far = multiprocessing.get_context("fork").Pipe(duplex=True)
    child = multiprocessing.get_context("fork").Process(
        target=_resident_with_stderr, args=("resident-nap", far, near, str(stderr)), daemon=True
    )
    child.start()
    far.close()
    near.send(({"seconds": 30}, {"seconds": 30}))  # the request, and what the server read
    assert near.recv() == ("progress", 0.5)  # mid-solve
    near.close()  # the cancel
    child.join(20)
    assert child.exitcode == 0
    assert stderr.read_text() == ""


def test_a_route_from_a_non_rim_start_is_refused_before_its_job(client: TestClient) -> None:
    board = rally.beginner_board().to_dict()
    response = client.post("/api/solve/route", json={"board": board, "start": [1, -1]})
    error = refused(response)
    # the question's own rule, in the library's words: no default goals off the rim
    assert error["field"] == "goals"
    assert "a rim start" in error["message"] and "no default goals" in error["message"]
    with_goals = {"board": board, "start": [1, -1], "goals": [[0, 2]]}
    assert client.post("/api/solve/route", json=with_goals).status_code == 202


def test_a_route_off_the_board_is_refused_before_its_job(client: TestClient) -> None:
    """A start, a goal or a group hex off the board is the request's fault: a 400 naming
    it, never a job that starts and fails (was: 202, then the job's error)."""
    board = rally.beginner_board().to_dict()
    cases: list[tuple[dict[str, Any], str, str]] = [
        ({"start": [9, 9]}, "start", "a hex on the board"),
        ({"start": [0, -3], "goals": [[9, 9]]}, "goals[0]", "a hex on the board"),
        ({"start": [0, -3], "goals": [[0, -3]]}, "goals[0]", "a land hex"),
        ({"group": [[0, 0]]}, "group[0]", "a sea hex on the board"),
    ]
    for sent, field, expected in cases:
        error = refused(client.post("/api/solve/route", json={"board": board, **sent}))
        assert error["field"] == field and expected in error["message"], (sent, error)
