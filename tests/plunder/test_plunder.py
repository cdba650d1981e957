"""Plunder model: codes, answers, the JSON record and its validation, scoring."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from isles.models.errors import InvalidInput
from isles.models.plunder.codes import Category, Code, answer
from isles.models.plunder.record import Me, Observation, Record
from isles.models.plunder.scoring import CrewCard, score_game

EXAMPLE: dict[str, Any] = {
    "players": 4,
    "me": {"player": 0, "code": {"island": 2, "marker": 5, "trap": 0}},
    "observations": [
        {
            "active": 1,
            "clue": {"island": 3, "marker": 1, "trap": 4},
            "answers": {"0": False, "2": True, "3": True},
        }
    ],
}


@given(st.integers(0, 215))
def test_code_index_round_trips(index: int) -> None:
    code = Code.from_index(index)
    assert code.index == index
    assert code == Code(*code.values)


def test_answer_compares_category_by_category() -> None:
    # Island 1 and marker 1 are different cards: no match across categories.
    assert not answer(Code(1, 2, 3), Code(2, 1, 1))
    assert answer(Code(1, 2, 3), Code(0, 0, 3))
    assert Code(1, 2, 3).replace(Category.MARKER, 5) == Code(1, 5, 3)


def test_issue_example_parses_and_round_trips() -> None:
    record = Record.from_dict(EXAMPLE)
    assert record.players == 4
    assert record.me == Me(0, Code(2, 5, 0))
    assert record.observations[0].answers == {0: False, 2: True, 3: True}
    assert Record.from_dict(record.to_dict()) == record


def test_values_by_display_name() -> None:
    names = {
        "island": ["Skull", "Palm", "Reef", "Fog", "Ember", "Mist"],
        "marker": ["X", "Cross", "Anchor", "Star", "Moon", "Sun"],
        "trap": ["Snake", "Pit", "Net", "Spike", "Boulder", "Gas"],
    }
    data = dict(EXAMPLE, names=names)
    data["me"] = {"player": 0, "code": {"island": "Reef", "marker": "Sun", "trap": "Snake"}}
    record = Record.from_dict(data)
    assert record.me is not None and record.me.code == Code(2, 5, 0)
    assert record.value_name(Category.TRAP, 3) == "Spike"
    data["me"] = {"player": 0, "code": {"island": "Atlantis", "marker": 5, "trap": 0}}
    with pytest.raises(InvalidInput, match=r"^record\.me\.code\.island: 'Atlantis'"):
        Record.from_dict(data)


def _with_obs(**changes: Any) -> dict[str, Any]:
    obs = dict(EXAMPLE["observations"][0], **changes)
    return dict(EXAMPLE, observations=[obs])


@pytest.mark.parametrize(
    ("data", "pattern"),
    [
        (dict(EXAMPLE, players=7), r"^record\.players: 7 "),
        (_with_obs(active=4), r"^record\.observations\[0\]\.active: 4 "),
        (
            _with_obs(answers={"0": False, "1": True, "2": True, "3": True}),
            r"^record\.observations\[0\]\.answers: 1 .*no answer from the active player",
        ),
        (
            _with_obs(answers={"0": False, "2": True}),
            r"^record\.observations\[0\]\.answers: .*an answer from player 3",
        ),
        (
            _with_obs(answers={"0": False, "2": True, "9": True}),
            r"^record\.observations\[0\]\.answers: '9' ",
        ),
        (
            _with_obs(clue={"island": 6, "marker": 1, "trap": 4}),
            r"^record\.observations\[0\]\.clue",
        ),
        (_with_obs(clue={"island": "Reef", "marker": 1, "trap": 4}), r"names"),
        (
            _with_obs(answers={"0": True, "2": True, "3": True}),
            r"^record\.observations\[0\]\.answers\.0: True .*my own code",
        ),
        (_with_obs(answers={"0": "no", "2": True, "3": True}), r"true or false"),
        ([1, 2], r"^record: 'a list' is invalid; expected an object"),
        (dict(EXAMPLE, turns=3), r"^record: unknown key 'turns'"),
    ],
)
def test_bad_records_name_the_field(data: Any, pattern: str) -> None:
    with pytest.raises(InvalidInput, match=pattern):
        Record.from_dict(data)


def test_unreadable_and_malformed_files(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match="record file"):
        Record.load(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    with pytest.raises(InvalidInput, match="valid JSON"):
        Record.load(bad)
    good = tmp_path / "good.json"
    good.write_text(json.dumps(EXAMPLE), encoding="utf-8")
    assert Record.load(good).players == 4


def test_seen_cards_are_counted_and_capped() -> None:
    record = Record.from_dict(dict(EXAMPLE, seen={"island": [1, 1, 4]}))
    assert record.seen[0] == (0, 2, 0, 0, 1, 0)
    with pytest.raises(InvalidInput, match=r"^record\.seen\.island\[3\]: 1 seen 4 times"):
        Record.from_dict(dict(EXAMPLE, seen={"island": [1, 1, 1, 1]}))


# -- scoring -------------------------------------------------------------------------

DEAL = [Code(0, 0, 0), Code(1, 1, 1), Code(2, 2, 2), Code(3, 3, 3)]


def test_diggers_get_3_2_1_0_and_the_treasure_falls_6_3_1_0() -> None:
    right = Code(3, 3, 3)
    chest = [CrewCard(p, 3, right) for p in (2, 0, 1)]
    s = score_game(DEAL, chest)
    assert s.dug == (2, 1, 3, 0)
    assert s.treasure == (6, 6, 6, 0)
    assert s.total == (8, 7, 9, 0)
    assert s.winners == (2,)
    # Two digs leave 1; a fourth digger gets nothing.
    s3 = score_game(DEAL[:3], [CrewCard(0, 2, Code(2, 2, 2)), CrewCard(1, 2, Code(2, 2, 2))])
    assert s3.treasure == (6, 6, 1) and s3.dug == (3, 2, 0)
    five = [*DEAL, Code(4, 4, 4)]
    s5 = score_game(five, [CrewCard(p, 4, Code(4, 4, 4)) for p in range(4)])
    assert s5.dug == (3, 2, 1, 0, 0) and s5.treasure[4] == 0


def test_only_the_first_card_on_a_target_counts() -> None:
    chest = [CrewCard(0, 1, Code(1, 1, 2)), CrewCard(0, 1, Code(1, 1, 1))]
    s = score_game(DEAL, chest)
    assert s.counted == (False, False)
    assert s.total == (6, 6, 6, 6)
    assert s.winners == (0, 1, 2, 3)  # nobody dug: the tie stands


def test_ties_go_to_the_first_digger() -> None:
    # Player 1 digs 2 first, player 0 digs 3 later: both end 6 + 3 = 9.
    chest = [CrewCard(1, 2, Code(2, 2, 2)), CrewCard(0, 3, Code(3, 3, 3))]
    s = score_game(DEAL, chest)
    assert s.total[0] == s.total[1] == 9
    assert s.winners == (1,)
    assert s.first_dig == (1, 0, None, None)


@pytest.mark.parametrize(
    ("codes", "chest", "pattern"),
    [
        (DEAL, [CrewCard(0, 0, Code(0, 0, 0))], r"chest\[0\]\.target"),
        (DEAL, [CrewCard(5, 0, Code(0, 0, 0))], r"chest\[0\]\.proposer"),
        (DEAL, [CrewCard(0, 1, Code(5, 5, 5))] * 5, r"at most 4 crew cards"),
        ([Code(0, 0, 0), Code(0, 1, 1)], [], r"deal\.island"),
    ],
)
def test_bad_games(codes: list[Code], chest: list[CrewCard], pattern: str) -> None:
    with pytest.raises(InvalidInput, match=pattern):
        score_game(codes, chest)


def test_observation_answers_are_frozen() -> None:
    obs = Observation(0, Code(0, 0, 0), {2: True, 1: False})
    assert list(obs.answers) == [1, 2]
    with pytest.raises(TypeError):
        obs.answers[1] = True  # type: ignore[index]
