"""Each Plunder question answered two ways, the same answer: ``isles.answer`` on the
question read from its JSON, and the catalogue's keyword function (docs/json.md,
"Questions"); and the analysis's dig now or wait, the web notepad's one call."""

from __future__ import annotations

from typing import Any

import isles
from isles import plunder
from isles.models.plunder.codes import Code
from isles.models.plunder.game import TURN_LIMIT
from isles.models.plunder.record import Me, Observation, Record


def _me_record() -> Record:
    obs = (
        Observation(0, Code(1, 2, 3), {1: True, 2: False}),
        Observation(1, Code(1, 2, 4), {0: False, 2: True}),
    )
    return Record(3, obs, Me(0, Code(0, 0, 0)))


def test_a_record_analysis_is_analyse() -> None:
    record = plunder.example_record()
    # no time limit: the proofs are smallest both times, however loaded the machine
    cases: list[tuple[dict[str, Any], dict[str, Any]]] = [
        ({"time_limit": None}, {"time_limit": None}),
        (
            {
                "advise": True,
                "clue": {"island": 0, "marker": "Star", "trap": 5},
                "time_limit": None,
            },
            {"advise": True, "clue": Code(0, 3, 5), "time_limit": None},
        ),
        (
            {"advise": True, "active": 2, "time_limit": None},
            {"advise": True, "active": 2, "time_limit": None},
        ),
        (
            {"advise": True, "earlier_digs": {"3": 1}, "time_limit": None},
            {"advise": True, "earlier_digs": {3: 1}, "time_limit": None},
        ),
    ]
    for asked, keywords in cases:
        question = plunder.RecordAnalysis.read(
            {"record": record.to_dict(), **asked}, spelling="key"
        )
        assert isles.answer(question).to_dict() == plunder.analyse(record, **keywords).to_dict()


def test_a_record_analysis_with_dig_advice_is_analyse_and_dig_advice() -> None:
    record = _me_record()
    question = plunder.RecordAnalysis.read(
        {"record": record, "advise": True, "dig_policy": "certain", "dig_samples": 12}
    )
    answer = isles.answer(question)
    assert answer.to_dict() == (
        plunder.analyse(record, advise=True, dig_policy="certain", dig_samples=12).to_dict()
    )
    assert answer.advice is not None and answer.advice.dig is not None
    alone = plunder.dig_advice(record, policy="certain", samples=12)
    assert answer.to_dict()["advice"]["dig"] == alone.to_dict()
    assert "dig_error" not in answer.to_dict()["advice"]


def test_dig_advice_that_cannot_be_given_leaves_the_rest_and_says_why() -> None:
    record = _me_record()
    full = plunder.play_game(["certain"] * 3, seed=1).record_for(0)  # a finished game
    assert len(full.observations) == TURN_LIMIT
    finished = plunder.analyse(full, advise=True, dig_policy="threshold", dig_samples=5)
    assert finished.advice is not None and finished.advice.dig is None
    error = finished.to_dict()["advice"]["dig_error"]
    assert error["field"] == "record.observations" and "fewer than 15 turns" in error["expected"]
    # no "me": no dig advice, and nothing said (the notepad asks with every advice)
    nobody = Record(record.players, record.observations)
    advice = plunder.analyse(nobody, advise=True, dig_policy="threshold").to_dict()["advice"]
    assert "dig" not in advice and "dig_error" not in advice and advice["guesses"]
    # not asked: the answer of before, byte for byte
    plain = plunder.analyse(record, advise=True).to_dict()["advice"]
    assert set(plain) == {"flip", "guesses"}


def test_the_analysis_gives_its_dig_advice_the_time_left_of_its_deadline() -> None:
    """``dig_deadline`` already past: the dig advice still has MIN_DIG_SECONDS, one game
    at least, and says it stopped at that limit."""
    from isles.solvers.plunder.analysis import MIN_DIG_SECONDS

    record = _me_record()
    late = plunder.analyse(
        record, advise=True, dig_policy="threshold", dig_samples=100_000, dig_deadline=1e-9
    )
    assert late.advice is not None and late.advice.dig is not None
    dig = late.advice.dig
    assert dig.time_limit == MIN_DIG_SECONDS and dig.samples >= 1
    assert dig.stopped_at_time_limit and dig.samples_asked == 100_000
    capped = plunder.analyse(
        record, advise=True, dig_policy="threshold", dig_time_limit=7.0, dig_deadline=1e6
    )
    assert capped.advice is not None and capped.advice.dig is not None
    assert capped.advice.dig.time_limit == 7.0


def test_a_dig_question_is_dig_advice() -> None:
    record = _me_record()
    question = plunder.DigQuestion.read(
        {"record": record.to_dict(), "policy": "expected", "waits": 1, "samples": 10, "seed": 3},
        spelling="key",
    )
    expected = plunder.dig_advice(record, policy="expected", waits=1, samples=10, seed=3)
    assert isles.answer(question).to_dict() == expected.to_dict()


def test_a_tournament_question_is_tournament() -> None:
    question = plunder.TournamentQuestion.read(
        {"players": 3, "policies": ["certain", "random"], "games": 4, "seed": 2, "workers": 0},
        spelling="key",
    )
    expected = plunder.tournament(3, ["certain", "random"], games=4, seed=2, workers=0)
    assert isles.answer(question).to_dict() == expected.to_dict()
    small = plunder.TournamentQuestion.read({"players": 2, "games": 2, "workers": 0})
    assert isles.answer(small).to_dict() == plunder.tournament(2, games=2, workers=0).to_dict()
