"""The rally page's requests refused at once, in the page's words (issue 21, break-it).

HTTP only: every bad request answers 400 naming the entry and the value sent,
before any job is started.
"""

from __future__ import annotations

import functools
import warnings
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # Starlette's note about httpx's successor
    from starlette.testclient import TestClient

import isles
from isles import rally
from isles.web.tasks.rally import rally_towns

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

DRIVE = {"player": "red", "start": [0, -3], "goals": [[0, 0]], "trade": "none"}
CARS = [
    {"player": "red", "start": [0, -3], "goals": [[0, -2]]},
    {"player": "blue", "start": [0, 3], "goals": [[0, 2]]},
]


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


def test_a_hand_and_reserve_beyond_the_bank_together_are_refused(client: TestClient) -> None:
    # each within 0..19, together 25 brick: more than the bank holds (was solved)
    body = {"board": rally_towns(), **DRIVE, "hand": {"brick": 15}, "reserve": {"brick": 10}}
    message = refused(client.post("/api/solve/income", json=body), "reserve.brick")
    assert message.startswith("reserve.brick: 10 is invalid; expected at most 4 with 15 brick")


def race(client: TestClient, cars: list[Any]) -> Any:
    return client.post("/api/solve/race", json={"board": rally_towns(), "cars": cars})


@pytest.mark.parametrize(
    ("car", "field", "said"),
    [
        ({"goals": [[9, 9]]}, "cars[0].goals[0]", "[9,9] is invalid; expected a land hex"),
        ({"goals": [[0, -3]]}, "cars[0].goals[0]", "[0,-3] is invalid; expected a land hex"),
        ({"goals": []}, "cars[0].goals", "expected at least one goal hex"),
        ({"start": [9, 9]}, "cars[0].start", "[9,9] is invalid; expected a hex of the board"),
        ({"start": [1, 0], "goals": None}, "cars[0].goals", "has no default goals"),
        ({"player": "green"}, "cars[0].player", "expected a player of the board: blue, red"),
    ],
)
def test_a_bad_car_is_refused_before_any_job(
    client: TestClient, car: dict[str, Any], field: str, said: str
) -> None:
    sent = {k: v for k, v in {**CARS[0], **car}.items() if v is not None}
    message = refused(race(client, [sent, CARS[1]]), field)
    assert said in message and "null" not in message


@pytest.mark.parametrize("key", ["goal", "extra"])
def test_a_car_s_unknown_key_is_named(client: TestClient, key: str) -> None:
    message = refused(race(client, [{**CARS[0], key: 1}, CARS[1]]), f"cars[0].{key}")
    assert f'unknown key "{key}"' in message and "player, start, goals" in message


def test_race_errors_are_in_the_web_s_words(client: TestClient) -> None:
    one = refused(race(client, CARS[:1]), "cars")
    assert "expected 2 to 4 cars" in one and "--car" not in one
    same = refused(race(client, [CARS[0], {**CARS[1], "player": "red"}]), "cars[1].player")
    assert "one car per player (car 1 is red's)" in same


@pytest.mark.parametrize(
    ("extra", "field", "said"),
    [
        ({"start": [1, 0], "goals": None}, "goals", "no default goals (a rim start is a sea"),
        ({"goals": [[9, 9]]}, "goals[0]", "expected a land hex of the board"),
        ({"goals": []}, "goals", "expected at least one goal hex"),
        ({"player": "green"}, "player", "expected a player of the board"),
    ],
)
def test_a_bad_drive_is_refused_before_any_job(
    client: TestClient, extra: dict[str, Any], field: str, said: str
) -> None:
    body = {k: v for k, v in {"board": rally_towns(), **DRIVE, **extra}.items() if v is not None}
    message = refused(client.post("/api/solve/income", json=body), field)
    assert said in message and "null" not in message
    assert "1,0" not in message  # a start sent [1, 0] is never quoted in the CLI's spelling


def test_an_answer_spells_the_7_card_rule_as_the_request() -> None:
    board = isles.Board.from_dict(rally_towns())
    for rule in ("on", "off"):
        drive = rally.Drive.read({"board": board, **DRIVE, "discard": rule}, spelling="key")
        plan = isles.answer(drive).to_dict()
        assert plan["discard"] == rule
        again = {k: plan[k] for k in ("player", "start", "goals", "players", "trade", "discard")}
        assert rally.Drive.read({"board": board, **again}, spelling="key").discard == rule
    cars = [*CARS]
    race = rally.Race.read(
        {
            "board": board,
            "cars": cars,
            "trade": "none",
            "discard": "off",
            "method": "monte_carlo",
            "games": 20,
        },
        spelling="key",
    )
    assert isles.answer(race, progress=False).to_dict()["discard"] == "off"


@pytest.mark.parametrize(
    ("extra", "field"),
    [({"start": [9, 9]}, "start"), ({"goals": [[0, 0], [9, 9]]}, "goals[1]")],
)
def test_an_off_board_hex_is_echoed_as_the_page_sent_it(
    client: TestClient, extra: dict[str, Any], field: str
) -> None:
    body = {"board": rally_towns(), **DRIVE, **extra}
    message = refused(client.post("/api/solve/income", json=body), field)
    assert f"{field}: [9,9] is invalid" in message and '"9,9"' not in message


def test_a_route_s_off_board_hex_is_echoed_as_sent_from_the_job_and_the_goals_check(
    client: TestClient,
) -> None:
    from isles.web.jobs import _answer
    from isles.web.tasks import TASKS

    task = TASKS["route"]

    def run(body: object) -> dict[str, Any]:
        return task.run(task.read(body))

    for extra, field in (({"start": [9, 9]}, "start"), ({"goals": [[9, 9]]}, "goals[0]")):
        body = {"board": rally_towns(), "start": [0, -3], "goals": [[0, 0]], **extra}
        # what the job's process answers (the library finds these past the reader)
        state, error = _answer("route", functools.partial(run, body), body)
        assert (state, error["field"]) == ("error", field)
        assert f"{field}: [9,9] is invalid" in error["message"], error
    goals = client.post("/api/rally/goals", json={"board": rally_towns(), "start": [9, 9]})
    assert "start: [9,9] is invalid; expected a rim start" in refused(goals, "start")


@pytest.mark.parametrize("count", [1, 5])
def test_the_car_count_message_spells_the_cars_as_the_page_sent_them(
    client: TestClient, count: int
) -> None:
    cars = [{"player": "red", "start": [0, -3]}] * count
    message = refused(race(client, cars), "cars")
    assert 'given ({"player":"red","start":[0,-3]}' in message, message
    assert "red:0,-3" not in message
