"""Plunder, the whole game: the game record and its checks, the engine, the fast belief."""

from __future__ import annotations

import copy
import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from isles.models.errors import InvalidInput
from isles.models.plunder.codes import CATEGORIES, Category, Code, answer
from isles.models.plunder.game import GameRecord, GameTurn
from isles.models.plunder.play import PlayerView, deal_cards, play_game
from isles.models.plunder.record import Observation, Record
from isles.models.plunder.scoring import CrewCard
from isles.solvers.plunder.belief import Belief
from isles.solvers.plunder.counting import posterior
from isles.solvers.plunder.flips import answer_distribution, flip_advice

DEAL = (Code(0, 0, 0), Code(1, 1, 1), Code(2, 2, 2))


def _turn(
    deal: Sequence[Code], i: int, clue: Code, flip: Category | None, crew: Sequence[CrewCard] = ()
) -> GameTurn:
    n = len(deal)
    active = i % n
    answers = {p: answer(deal[p], clue) for p in range(n) if p != active}
    return GameTurn(Observation(active, clue, answers), flip, tuple(crew))


def hand_played() -> GameRecord:
    """Three players, five turns, played by hand; the chest: p0 on p1 (right), p2 on p1
    (right), p1 on p0 (wrong), p1 on p0 again (does not count), p0 on p2 (right)."""
    table = Code(3, 4, 5)
    turns = [
        _turn(DEAL, 0, Code(3, 4, 5), None),
        _turn(DEAL, 1, Code(1, 4, 5), Category.ISLAND, [CrewCard(0, 1, Code(1, 1, 1))]),
        _turn(DEAL, 2, Code(1, 4, 2), Category.TRAP, [CrewCard(2, 1, Code(1, 1, 1))]),
        _turn(
            DEAL,
            3,
            Code(1, 0, 2),
            Category.MARKER,
            [CrewCard(1, 0, Code(0, 0, 3)), CrewCard(1, 0, Code(0, 0, 0))],
        ),
        _turn(DEAL, 4, Code(1, 0, 2), None, [CrewCard(0, 2, Code(2, 2, 2))]),
    ]
    return GameRecord(3, DEAL, table, tuple(turns))


def test_hand_played_game_scores_like_the_seed() -> None:
    game = hand_played()
    score = game.score()
    # p1's treasure dug twice (6 -> 3 -> 1), p2's once (-> 3); p0 dug first (3) and
    # first again on p2 (3); p2 second on p1 (2); p1's second card on p0 does not count.
    assert score.treasure == (6, 1, 3)
    assert score.dug == (6, 0, 2)
    assert score.total == (12, 1, 5)
    assert score.counted == (True, True, False, False, True)
    assert score.winners == (0,)
    assert game.cards_used() == (2, 2, 1)
    assert game.seen() == ((0, 1, 0, 1, 0, 0), (1, 0, 0, 0, 1, 0), (0, 0, 1, 0, 0, 1))
    assert not game.finished
    assert GameRecord.from_dict(game.to_dict()) == game
    assert GameRecord.from_json(__import__("json").dumps(game.to_dict())) == game


def test_seed_dig_points_and_tie_break() -> None:
    # 3, 2, 1, 0 to the diggers; the owner keeps 6, 3, 1, 0; ties go to the first digger.
    deal = (Code(0, 0, 0), Code(1, 1, 1), Code(2, 2, 2), Code(3, 3, 3), Code(4, 4, 4))
    t1 = Code(1, 1, 1)
    crew = [CrewCard(p, 1, t1) for p in (0, 2, 3, 4)]
    table = Code(5, 5, 5)
    game = GameRecord(5, deal, table, (_turn(deal, 0, table, None, crew),))
    s = game.score()
    assert s.dug == (3, 0, 2, 1, 0)
    assert s.treasure == (6, 0, 6, 6, 6)
    assert s.total == (9, 0, 8, 7, 6)
    tie = GameRecord(
        3, DEAL, table, (_turn(DEAL, 0, table, None, [CrewCard(2, 1, Code(1, 1, 1))]),)
    )
    # p0 6, p2 6 + 3 = 9: no tie; a tie: p0 and p2 both dig p1.
    assert tie.score().winners == (2,)


def test_game_ends_after_the_turn_limit_or_the_last_crew_card() -> None:
    table = Code(3, 4, 5)
    turns = [_turn(DEAL[:2], i, table, None) for i in range(3)]
    with pytest.raises(InvalidInput, match=r"game.turns\[2\]: game over; expected no turn"):
        GameRecord(2, DEAL[:2], table, tuple(turns), turn_limit=2)
    crew = [CrewCard(0, 1, Code(1, 1, 1)), CrewCard(0, 1, Code(1, 1, 2))]
    crew += [CrewCard(1, 0, Code(0, 0, 0)), CrewCard(1, 0, Code(0, 0, 1))]
    first = _turn(DEAL[:2], 0, table, None, crew)
    assert GameRecord(2, DEAL[:2], table, (first,)).finished
    with pytest.raises(InvalidInput, match=r"game.turns\[1\]: game over; expected no turn once"):
        GameRecord(2, DEAL[:2], table, (first, _turn(DEAL[:2], 1, table, None)))


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("turns", 2, "answers", "0"), True, r"game.turns\[2\].answers.0: True is invalid"),
        (("turns", 1, "flip"), None, r"game.turns\[1\].clue: .* at most the flipped deck"),
        (("turns", 1, "flip"), "Trap", r"game.turns\[1\].flip: 'Trap' is invalid"),
        (("turns", 3, "crew", 0, "target"), 1, r"game.turns\[3\].crew\[0\].target: 1 is"),
        (("turns", 0, "crew"), "x", r"game.turns\[0\].crew: 'x' is invalid; expected a list"),
        (("deal", 1, "island"), 0, r"game.deal.island: \[0, 0, 2\] is invalid"),
        (("turns", 0, "extra"), 1, r"game.turns\[0\]: unknown key 'extra'"),
    ],
)
def test_an_illegal_record_names_its_first_bad_entry(
    path: tuple[Any, ...], value: object, message: str
) -> None:
    data = hand_played().to_dict()
    node: Any = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    with pytest.raises(InvalidInput, match=message):
        GameRecord.from_dict(data)


def test_players_take_turns_in_seat_order() -> None:
    table = Code(3, 4, 5)
    late = _turn(DEAL, 1, table, None)
    with pytest.raises(
        InvalidInput, match=r"game.turns\[0\].active: 1 is invalid; expected player 0"
    ):
        GameRecord(3, DEAL, table, (late,))


def test_a_game_may_start_with_another_player() -> None:
    table = Code(3, 4, 5)
    game = GameRecord(3, DEAL, table, (_turn(DEAL, 1, table, None),), first=1)
    assert GameRecord.from_dict(game.to_dict()) == game
    assert game.to_dict()["first"] == 1


def test_a_fourth_copy_out_of_a_deck_is_refused() -> None:
    table = Code(0, 4, 5)
    deal = DEAL[:2]
    turns = [_turn(deal, i, Code(3, 4, 5), Category.ISLAND) for i in range(3)]
    GameRecord(2, deal, table, tuple(turns))
    turns.append(_turn(deal, 3, Code(3, 4, 5), Category.ISLAND))
    with pytest.raises(InvalidInput, match=r"game.turns\[3\].clue.island: 3 is invalid"):
        GameRecord(2, deal, table, tuple(turns))


def test_deal_and_decks_are_legal() -> None:
    deal, decks = deal_cards(6, np.random.default_rng(5))
    for k in range(3):
        assert sorted(c.values[k] for c in deal) == list(range(6))
        assert sorted(decks[k]) == sorted(list(range(6)) * 3)


class _Scripted:
    """Random flips, and after turn 3 one crew card a turn on a random target."""

    name = "scripted"

    def seat(self, players: int, player: int, code: Code, rng: np.random.Generator) -> _Scripted:
        out = copy.copy(self)
        out.rng = rng  # type: ignore[attr-defined]
        return out

    def flip(self, view: PlayerView) -> Category | None:
        rng: np.random.Generator = self.rng  # type: ignore[attr-defined]
        return [None, *CATEGORIES][int(rng.integers(4))]

    def crew(self, view: PlayerView) -> list[tuple[int, Code]]:
        rng: np.random.Generator = self.rng  # type: ignore[attr-defined]
        if view.turn < 3 or not view.cards_left(view.player):
            return []
        others = [p for p in range(view.players) if p != view.player]
        return [(others[int(rng.integers(len(others)))], Code.from_index(int(rng.integers(216))))]


def test_played_games_are_legal_and_reproducible() -> None:
    for n in (2, 4, 6):
        game = play_game([_Scripted() for _ in range(n)], seed=n)
        assert game == play_game([_Scripted() for _ in range(n)], seed=n)
        assert game.finished
        assert GameRecord.from_dict(game.to_dict()) == game
        assert game.score().total


@settings(max_examples=25)
@given(st.integers(2, 6), st.integers(0, 2**31 - 1), st.data())
def test_belief_equals_the_counting_posterior(players: int, seed: int, data: st.DataObject) -> None:
    game = play_game([_Scripted() for _ in range(players)], seed=seed)
    me = data.draw(st.integers(0, players - 1))
    turns = data.draw(st.integers(0, min(4, len(game.turns))))
    record = game.record_for(me)
    record = Record(players, record.observations[:turns], record.me, None, record.seen)
    belief = Belief.from_record(record)
    assert belief.posterior() == posterior(record)
    active = data.draw(st.integers(0, players - 1))
    clue = game.clue()
    assert belief.answer_distribution(clue, active) == answer_distribution(record, clue, active)
    assert {d[me] for d in belief.sample(np.random.default_rng(seed), 3)} == {game.deal[me]}


def _bits(counts: Sequence[int]) -> float:
    total = sum(counts)
    return sum(n / total * math.log2(total / n) for n in counts if n)


def test_flip_advice_with_my_code_agrees_with_the_counting_passes() -> None:
    game = play_game([_Scripted() for _ in range(5)], seed=11)
    record = game.record_for(1)
    record = Record(5, record.observations[:3], record.me, None, record.seen)
    clue = record.observations[-1].clue
    fast = flip_advice(record, clue, 1)
    for option in fast.options:
        if option.deck is None:
            slow = _bits(list(answer_distribution(record, clue, 1).values()))
        else:
            slow = sum(
                float(p)
                * _bits(list(answer_distribution(record, clue.replace(option.deck, v), 1).values()))
                for v, p, _ in option.cards
            )
        assert option.expected_bits == pytest.approx(slow, abs=1e-9)
