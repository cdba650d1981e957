"""Each lighthouse question, read as a front end reads it, answered by ``isles.answer``:
the same answer, whole, as the catalogue's keyword function for that question gives.

docs/architecture.md ("A question, from a front end to a solver and back"); the
questions are docs/lighthouse.md's ("Questions").
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import isles
from isles import lighthouse
from isles.models.errors import InvalidInput
from isles.solvers.lighthouse import ANSWERS
from isles.solvers.usercache import CACHE_ENV


@pytest.fixture(autouse=True)
def _own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A cache of each test's own: a table one call keeps is never another test's."""
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))


def test_every_question_is_answered_by_its_engine() -> None:
    assert set(ANSWERS) == {
        lighthouse.LighthouseOdds,
        lighthouse.LighthouseAdvice,
        lighthouse.LighthouseTable,
        lighthouse.LighthouseContest,
    }
    for question, answering in ANSWERS.items():
        assert answering.__name__ == "answer_lighthouse_" + question.__name__[10:].lower()


@pytest.mark.parametrize(
    ("body", "call"),
    [
        ({"islands": 2, "sea_cards": 3}, lambda: lighthouse.odds(lighthouse.default_kit(2, 3))),
        (
            {"kit": "default-1", "sea_cards": 2, "policy": "greedy", "exact": True},
            lambda: lighthouse.odds(lighthouse.named_kit("default-1", 2), "greedy", exact=True),
        ),
        (
            {"players": 2, "sea_cards": 1, "simulate": True, "games": 300, "seed": 4},
            lambda: lighthouse.odds(lighthouse.players_kit(2, 1), simulate=True, games=300, seed=4),
        ),
    ],
)
def test_odds(body: dict[str, Any], call: Any) -> None:
    asked = lighthouse.LighthouseOdds.read(body, spelling="key")
    assert isles.answer(asked).to_dict() == call().to_dict()


@pytest.mark.parametrize("cache", [True, False])
def test_advice(cache: bool) -> None:
    kit = lighthouse.default_kit(3, 2)
    position = {"discs": [["red"], [], ["purple", "red"]], "boat": 1, "maurice": 2}
    body = {"islands": 3, "sea_cards": 2, "position": position, "roll": ["blue", "green"]}
    asked = lighthouse.LighthouseAdvice.read({**body, "cache": cache}, spelling="key")
    want = lighthouse.best_move(
        kit, lighthouse.Position.from_dict(position, kit), ["blue", "green"], cache=cache
    )
    assert isles.answer(asked).to_dict() == want.to_dict()


def test_exact_advice() -> None:
    position = {"discs": [[]], "boat": 0, "maurice": 0}
    body = {"islands": 1, "sea_cards": 1, "position": position, "roll": ["boat", "red"]}
    asked = lighthouse.LighthouseAdvice.read({**body, "exact": True}, spelling="key")
    kit = lighthouse.default_kit(1, 1)
    want = lighthouse.best_move(kit, position, ("boat", "red"), exact=True)
    assert isles.answer(asked).to_dict() == want.to_dict()


@pytest.mark.parametrize(
    ("body", "call"),
    [
        (
            {"islands": [2, 3], "sea_cards": 2, "policy": ["optimal", "random"]},
            lambda: lighthouse.difficulty_table((2, 3), 2, ("optimal", "random")),
        ),
        (
            {"players": 3, "sea_cards": [1], "policy": "greedy", "cache": False},
            lambda: lighthouse.difficulty_table(sea_cards=(1,), policy="greedy", players=3),
        ),
    ],
)
def test_table(body: dict[str, Any], call: Any) -> None:
    asked = lighthouse.LighthouseTable.read(body, spelling="key")
    assert isles.answer(asked).to_dict() == call().to_dict()


@pytest.mark.parametrize(
    ("body", "call"),
    [
        (
            {"islands": 2, "sea_cards": 2, "policy": ["optimal", "greedy"]},
            lambda: lighthouse.competitive_odds(
                lighthouse.default_kit(2, 2), policy=("optimal", "greedy")
            ),
        ),
        (
            {"islands": 8, "sea_cards": 2, "seats": 4, "games": 20, "seed": 3},
            lambda: lighthouse.competitive_odds(lighthouse.default_kit(8, 2), 4, games=20, seed=3),
        ),
    ],
)
def test_contest(body: dict[str, Any], call: Any) -> None:
    asked = lighthouse.LighthouseContest.read(body, spelling="key")
    assert isles.answer(asked).to_dict() == call().to_dict()


def test_the_rules_of_a_question_are_the_library_s_named_by_its_field() -> None:
    simulated = lighthouse.LighthouseOdds.read(
        {"islands": 8, "sea_cards": 1, "simulate": True, "cache": False}, spelling="key"
    )
    with pytest.raises(InvalidInput, match=r"^cache: given; expected the cache only where"):
        isles.answer(simulated)
    spelt = lighthouse.LighthouseOdds.respell(InvalidInput("cache", False, "x"), "option")
    assert str(spelt).startswith("--no-cache: ")
    with pytest.raises(InvalidInput, match=r"^time_limit: "):  # a simulated kit takes none
        lighthouse.competitive_odds(lighthouse.default_kit(8, 2), 4, time_limit=5.0)
    assert lighthouse.LighthouseContest.read({}).time_limit == 600.0  # declared once
