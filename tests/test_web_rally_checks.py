"""The rally page's requests refused at once, in the page's words (issue 21, break-it).

HTTP only: every bad request answers 400 naming the entry and the value sent,
before any job is started.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # Starlette's note about httpx's successor
    from starlette.testclient import TestClient

from isles.web import create_app
from isles.web.tasks.rally import rally_towns

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

DRIVE = {"player": "red", "start": [0, -3], "goals": [[0, 0]], "trade": "none"}
CARS = [
    {"player": "red", "start": [0, -3], "goals": [[0, -2]]},
    {"player": "blue", "start": [0, 3], "goals": [[0, 2]]},
]


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app()) as test_client:
        yield test_client


def refused(response: Any, field: str) -> str:
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert error["field"] == field, error
    return str(error["message"])


@pytest.mark.parametrize("count", [20, 10**15, 1e15])
@pytest.mark.parametrize("key", ["hand", "reserve"])
def test_a_hand_beyond_the_bank_is_refused_at_once(
    client: TestClient, key: str, count: float
) -> None:
    body = {"board": rally_towns(), **DRIVE, key: {"brick": count}}
    message = refused(client.post("/api/solve/income", json=body), f"{key}.brick")
    assert "0..19" in message
