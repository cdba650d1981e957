"""Sharing a game with the table over HTTP (docs/serve.md, "Share with the table").

Opt-in (off: 403), a room holds one page's state and a version, newest wins,
bounded in size and count; ``isles serve --share`` (or ``--host``) turns it on.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # Starlette's note about httpx's successor
    from starlette.testclient import TestClient

from isles.commands.serve import register
from isles.web import create_app
from isles.web.rooms import CODE_ALPHABET, CODE_LENGTH, MAX_ROOM_BYTES, MAX_ROOMS

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(share=True)) as test_client:
        yield test_client


def test_sharing_is_off_unless_asked() -> None:
    with TestClient(create_app()) as off:
        assert off.get("/api/health").json()["share"] is False
        for response in (
            off.post("/api/rooms", json={"page": "plunder", "state": {}}),
            off.get("/api/rooms/ABCDEF"),
            off.put("/api/rooms/ABCDEF", json={"state": {}}),
        ):
            assert response.status_code == 403
            assert response.json()["error"]["message"].startswith("sharing with the table is off")


def test_a_room_holds_the_state_and_the_newest_wins(client: TestClient) -> None:
    assert client.get("/api/health").json()["share"] is True
    opened = client.post("/api/rooms", json={"page": "plunder", "state": {"record": {"n": 1}}})
    assert opened.status_code == 201
    room = opened.json()
    code = room["room"]
    assert len(code) == CODE_LENGTH and set(code) <= set(CODE_ALPHABET)
    assert room == {"room": code, "page": "plunder", "version": 1, "state": {"record": {"n": 1}}}
    assert client.get(f"/api/rooms/{code}?since=1").json() == {
        "room": code,
        "page": "plunder",
        "version": 1,
    }  # nothing newer: no state sent
    for n in (2, 3):  # two phones, one after the other: the later one is the room's
        changed = client.put(f"/api/rooms/{code}", json={"state": {"record": {"n": n}}}).json()
        assert changed["version"] == n and "state" not in changed
    assert client.get(f"/api/rooms/{code}?since=1").json()["state"] == {"record": {"n": 3}}
    assert client.get(f"/api/rooms/{code.lower()}").json()["version"] == 3  # typed in lower case


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "said"),
    [
        ("post", "/api/rooms", {"page": "admin", "state": {}}, 400, 'page: "admin" is invalid'),
        ("post", "/api/rooms", {"page": "plunder"}, 400, "state: missing"),
        ("post", "/api/rooms", {"page": "plunder", "state": {}, "x": 1}, 400, "x: unknown key"),
        ("post", "/api/rooms", [1], 400, "request: [1] is invalid"),
        ("get", "/api/rooms/ZZZZZZ", None, 404, "room 'ZZZZZZ': no such table"),
        ("put", "/api/rooms/ZZZZZZ", {"state": {}}, 404, "room 'ZZZZZZ': no such table"),
    ],
)
def test_bad_room_requests_are_refused(
    client: TestClient, method: str, path: str, body: object, status: int, said: str
) -> None:
    response = client.request(method.upper(), path, json=body)
    assert response.status_code == status, response.text
    assert response.json()["error"]["message"].startswith(said), response.text


def test_rooms_are_bounded_in_size_and_count(client: TestClient) -> None:
    big = {"page": "rally", "state": {"notes": "x" * MAX_ROOM_BYTES}}
    response = client.post("/api/rooms", json=big)
    assert response.status_code == 400
    assert response.json()["error"]["message"].startswith("state: ")
    assert f"at most {MAX_ROOM_BYTES} bytes" in response.json()["error"]["message"]
    codes = [
        client.post("/api/rooms", json={"page": "setup", "state": {"k": k}}).json()["room"]
        for k in range(MAX_ROOMS + 1)
    ]
    assert client.get(f"/api/rooms/{codes[0]}").status_code == 404  # the oldest went first
    assert client.get(f"/api/rooms/{codes[-1]}").json()["state"] == {"k": MAX_ROOMS}
    assert client.get(f"/api/rooms/{codes[-1]}?since=x").status_code == 400


@pytest.mark.parametrize(
    ("argv", "shares", "said"),
    [
        (["serve", "--port", "0"], False, None),
        (["serve", "--port", "0", "--share"], True, "(this computer only, on this address)"),
        (["serve", "--port", "0", "--host", "0.0.0.0"], True, "anyone who can reach it and has"),
    ],
)
def test_serve_shares_only_when_asked_or_on_the_network(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    shares: bool,
    said: str | None,
) -> None:
    import argparse

    import uvicorn

    served: list[object] = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets: served.append(self.config.app))
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    args = parser.parse_args(argv)
    assert args.func(args) == 0
    out = capsys.readouterr().out
    with TestClient(served[0]) as app:  # type: ignore[arg-type]
        assert app.get("/api/health", headers={"host": "127.0.0.1"}).json()["share"] is shares
    assert ("sharing with the table is on" in out) is shares
    if said is not None:
        assert said in out, out
