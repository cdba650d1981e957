"""Plunder policies: they never break a rule, and the solver ones play sensibly."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from isles.models.errors import InvalidInput
from isles.models.plunder.codes import Category, Code
from isles.models.plunder.game import GameRecord
from isles.models.plunder.play import PlayerView, play_game
from isles.solvers.plunder.belief import Belief
from isles.solvers.plunder.flips import flip_advice
from isles.solvers.plunder.policies import best_flip
from isles.solvers.plunder.registry import POLICIES, policy_by_name

NAMES = [*(n for n in POLICIES if n != "search"), "threshold:0.9", "search:1"]


@settings(max_examples=20)
@given(st.lists(st.sampled_from(NAMES), min_size=2, max_size=6), st.integers(0, 2**31 - 1))
def test_policies_never_break_a_rule(names: list[str], seed: int) -> None:
    game = play_game([policy_by_name(n) for n in names], seed)
    # The record re-checks every rule; a finished game, every first card on a target.
    assert GameRecord.from_dict(game.to_dict()) == game
    assert game.finished
    for p in range(game.players):
        targets = [c.target for c in game.chest if c.proposer == p]
        assert len(targets) <= game.players
        if names[p] != "random":
            assert len(set(targets)) == len(targets), "a solver policy never wastes a card"
            if len(game.turns) == game.turn_limit:
                assert set(targets) == set(range(game.players)) - {p}


def test_certain_digs_are_always_right() -> None:
    for seed in range(3):
        game = play_game([policy_by_name("certain") for _ in range(3)], seed)
        for card in game.chest[: -3 * 2]:  # before the last turn's forced digs
            assert game.deal[card.target] == card.code


def test_best_flip_is_flip_advice_best() -> None:
    game = play_game([policy_by_name("random") for _ in range(4)], 5)
    for turn in range(1, 6):
        p = turn % 4
        record = game.record_for(p)
        obs = record.observations[:turn]
        seen = game.seen()  # any seen counts will do for the comparison
        view = PlayerView(4, p, game.deal[p], 15, obs[-1].clue, obs, (), (), (), seen)
        belief = Belief.from_record(view.record())
        advice = flip_advice(view.record(), obs[-1].clue, p)
        assert best_flip(belief, view) == advice.best.deck


def test_a_user_policy_plugs_in_and_a_broken_one_is_named() -> None:
    class Cheater:
        name = "cheater"

        def seat(self, players: int, player: int, code: Code, rng: np.random.Generator) -> Cheater:
            self.player = player
            return self

        def flip(self, view: PlayerView) -> Category | None:
            return Category.MARKER

        def crew(self, view: PlayerView) -> list[tuple[int, Code]]:
            return [(self.player, Code(0, 0, 0))]

    with pytest.raises(InvalidInput, match=r"cheater\): crew: 1 is invalid; expected another"):
        play_game([policy_by_name("certain"), Cheater()], 1)


def test_policy_names() -> None:
    assert policy_by_name("threshold:0.75").name == "threshold:0.75"
    with pytest.raises(InvalidInput, match=r"^policy: 'greedy' is invalid"):
        policy_by_name("greedy")
    with pytest.raises(InvalidInput, match="threshold:P"):
        policy_by_name("threshold:2")
    # A ':' with nothing after it names no argument: refused, not read as the default.
    for bad in ("threshold:", "certain:"):
        with pytest.raises(InvalidInput, match=f"^policy: '{bad}' is invalid; expected "):
            policy_by_name(bad)


def test_a_threshold_is_a_plain_decimal() -> None:
    """float() reads other scripts' digits, "_" and spaces: a threshold written so is
    refused, not played as the number it happens to read as."""
    for good, name in (
        ("0.5", "threshold:0.5"),
        (".25", "threshold:0.25"),
        ("1", "threshold:1"),
        ("0.1234567", "threshold:0.1234567"),  # two such were one name (rounded to 6)
    ):
        assert policy_by_name(f"threshold:{good}").name == name
    for bad in (
        "threshold:٠.5",
        "threshold:0.5_0",
        "threshold: 0.5",
        "threshold:0.５",
        "threshold:nan",
    ):
        with pytest.raises(InvalidInput, match="threshold:P with P a probability"):
            policy_by_name(bad)
