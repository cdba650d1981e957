"""One question, two doors: ``isles.answer`` on a question read gives what the keyword form gives.

Each question of the rally (docs/rally.md; docs/json.md, "Questions") is read
with its declaration (``Trip``, ``Drive``, ``Race``: what the command line and
the web app do) and answered by ``isles.answer``; the catalogue's keyword
function (``plan_route``, ``choose_start``, ``plan_income``, ``race_cars``)
builds the same question from its arguments. Their whole ``to_dict()`` agree.
"""

from __future__ import annotations

from typing import Any

import pytest

import isles
from isles import rally
from isles.models.board import beginner_board
from tests.rally.test_rally_income import corridor
from tests.rally.test_rally_race import CARS, two_owners


def _timeless(answer: dict[str, Any]) -> dict[str, Any]:
    """An answer without the seconds it took (the one key that differs run to run)."""
    return {k: v for k, v in answer.items() if k != "seconds"}


@pytest.mark.parametrize(
    "asked",
    [
        {"start": (0, -3), "objective": "expected_turns"},
        {"start": (1, -1), "goals": [(0, 2)], "roads": [((0, -1), (0, 0))]},
        {"start": (0, -3), "budget": {"ore": 10, "brick": 6}, "time_limit": 30.0},
        {"start": (0, -3), "objective": "weighted", "values": {"ore": 2, "wool": 0.5}},
    ],
)
def test_a_route_is_plan_route(asked: dict[str, Any]) -> None:
    board = beginner_board()
    read = isles.answer(rally.Trip.read({"board": board, **asked}))
    assert isinstance(read, rally.Route)
    assert read.to_dict() == rally.plan_route(board, **asked).to_dict()


@pytest.mark.parametrize(
    "asked",
    [{}, {"group": [(0, -3), (1, -3)], "objective": "turns"}],
)
def test_a_trip_without_a_start_is_choose_start(asked: dict[str, Any]) -> None:
    board = beginner_board()
    read = isles.answer(rally.Trip.read({"board": board, **asked}), progress=False)
    assert isinstance(read, rally.StartChoice)
    assert read.to_dict() == rally.choose_start(board, **asked).to_dict()


@pytest.mark.parametrize(
    "asked",
    [
        {"trade": "none", "discard": "off", "within": 12},  # the whole policy space
        {"trade": "bank", "method": "route", "hand": {"brick": 2}},  # committed routes
    ],
)
def test_a_drive_is_plan_income(asked: dict[str, Any]) -> None:
    board = corridor()
    where = {"player": "red", "start": (0, 0), "goals": [(2, 0)]}
    read = isles.answer(rally.Drive.read({"board": board, **where, **asked}))
    keyword = rally.plan_income(board, "red", (0, 0), [(2, 0)], **asked)
    assert read.to_dict() == keyword.to_dict()


@pytest.mark.parametrize(
    "asked",
    [
        {"trade": "none"},  # the joint chain fits: exact
        {"trade": "none", "method": "monte_carlo", "games": 300, "seed": 3},
    ],
)
def test_a_race_is_race_cars(asked: dict[str, Any]) -> None:
    board = two_owners()
    read = isles.answer(rally.Race.read({"board": board, "cars": CARS, **asked}), progress=False)
    keyword = rally.race_cars(board, CARS, **asked)
    assert _timeless(read.to_dict()) == _timeless(keyword.to_dict())
    assert read.status == keyword.status
