"""Dig now or wait: the estimates against an exhaustive evaluation on tiny games."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from isles.models.errors import InvalidInput
from isles.models.plunder.codes import CATEGORIES, COPIES, Code, answer
from isles.models.plunder.game import GameRecord
from isles.models.plunder.play import PlayerView
from isles.models.plunder.record import Me, Observation, Record, example_record
from isles.solvers.plunder import dig as plunder_dig
from isles.solvers.plunder.belief import Belief
from isles.solvers.plunder.dig import dig_advice
from isles.solvers.plunder.registry import policy_by_name


def _record() -> Record:
    me = Code(0, 0, 0)
    other = Code(2, 3, 4)
    clues = [Code(1, 1, 1), Code(2, 1, 1), Code(2, 5, 1)]
    deal = (me, other)
    obs = tuple(
        Observation(i % 2, c, {1 - i % 2: answer(deal[1 - i % 2], c)}) for i, c in enumerate(clues)
    )
    return Record(2, obs, Me(0, me))


def exhaustive_wait_one(record: Record, policy: str) -> Fraction:
    """Exact expected points of my card on player 1 sent after one more turn (2 players:
    nobody else can dig player 1, so a right guess is worth 3)."""
    belief = Belief.from_record(record)
    counts = belief.code_counts(1)
    t0 = len(record.observations)
    active = t0 % 2
    pol = policy_by_name(policy)
    total = Fraction(0)
    for c in np.flatnonzero(counts):
        deal = (record.me.code, Code.from_index(int(c)))  # type: ignore[union-attr]
        game = GameRecord.from_record(record, deal)
        seen = game.seen()
        view = PlayerView(
            2, active, deal[active], 15, game.clue(), record.observations, (), ((),) * t0, (), seen
        )
        seat = pol.seat(2, active, deal[active], np.random.default_rng(0))
        deck = seat.flip(view)
        if deck is None:
            outcomes = [(game.clue(), Fraction(1))]
        else:
            k = CATEGORIES.index(deck)
            left = [COPIES - seen[k][v] for v in range(6)]
            outcomes = [
                (game.clue().replace(deck, v), Fraction(left[v], sum(left)))
                for v in range(6)
                if left[v]
            ]
        for clue, p in outcomes:
            answerer = 1 - active
            obs = Observation(active, clue, {answerer: answer(deal[answerer], clue)})
            guess = belief.observe(obs).best_code(1)[0]
            if guess == deal[1]:
                total += Fraction(int(counts[c]), belief.deals) * p * 3
    return total


@pytest.mark.parametrize("policy", ["certain", "random"])
def test_dig_advice_agrees_with_exhaustive_evaluation(policy: str) -> None:
    record = _record()
    advice = dig_advice(record, policy=policy, waits=1, samples=1500, seed=7)
    target = advice.targets[0]
    post = Belief.from_record(record).code_counts(1)
    assert target.now_exact == Fraction(3 * int(post.max()), int(post.sum()))
    now, later = target.options
    exact_later = exhaustive_wait_one(record, policy)
    assert now.ci95[0] <= target.now_exact <= now.ci95[1]
    assert later.ci95[0] <= exact_later <= later.ci95[1]
    assert later.ci95[1] - later.ci95[0] < 0.3


def test_dig_advice_is_reproducible_and_checks_its_input() -> None:
    record = _record()
    a = dig_advice(record, waits=2, samples=30, seed=3)
    assert a.to_dict() == dig_advice(record, waits=2, samples=30, seed=3).to_dict()
    assert a.to_dict()["status"] == "estimate"
    with pytest.raises(InvalidInput, match=r"record\.me"):
        dig_advice(Record(2, record.observations), samples=5)
    with pytest.raises(InvalidInput, match="samples: 0 is invalid"):
        dig_advice(record, samples=0)
    skipped = Record(2, (record.observations[0],) * 2, record.me)
    with pytest.raises(InvalidInput, match=r"record.observations\[1\].active: 0 is invalid"):
        dig_advice(skipped, samples=5)
    # Turns may start with any player, then go round in seat order.
    assert dig_advice(Record(2, record.observations[1:], record.me), samples=5).turn == 2


def test_others_digging_first_lower_the_points() -> None:
    # 3 players: the other opponent digs player 1 when sure; the points of waiting count it.
    record = Record(
        3,
        (Observation(0, Code(1, 1, 1), {1: True, 2: False}),),
        Me(0, Code(0, 0, 0)),
    )
    a = dig_advice(record, policy="threshold:0.3", waits=4, samples=60, seed=1)
    for t in a.targets:
        for o in t.options:
            assert 0 <= o.expected_points <= 3 * o.right + 1e-12


def test_a_time_limit_ends_dig_advice_with_the_games_played_so_far(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    record = example_record()
    full = dig_advice(record, samples=30, seed=5)
    # Before time limits, the same call gave these estimates: no limit, no change.
    assert [[o.expected_points for o in t.options] for t in full.targets] == [
        [0.4, 0.8, 0.8, 0.9666666666666667],
        [0.5, 1.0, 1.1, 1.1],
        [1.0, 0.4, 0.8333333333333334, 1.2],
    ]
    assert (full.samples, full.samples_asked, full.stopped_at_time_limit) == (30, 30, False)
    ticks = iter(range(1000))
    # One reading sets the deadline (0), one comes before each game after the first.
    monkeypatch.setattr(plunder_dig, "_clock", lambda: float(next(ticks)))
    short = dig_advice(record, samples=30, seed=5, time_limit=7.5)
    assert (short.samples, short.samples_asked, short.stopped_at_time_limit) == (8, 30, True)
    assert short.targets == dig_advice(record, samples=8, seed=5).targets
    d = short.to_dict()
    assert (d["samples"], d["samples_asked"], d["time_limit"]) == (8, 30, 7.5)
    monkeypatch.undo()
    # At least one game, however short the limit.
    assert dig_advice(record, samples=30, seed=5, time_limit=1e-9).samples == 1
    with pytest.raises(InvalidInput, match="time_limit: -1 is invalid"):
        dig_advice(record, samples=5, time_limit=-1)


def test_dig_advice_counts_the_cards_already_in_the_chest() -> None:
    """Seed 2, three threshold players: after turn 10 player 2 has dug player 1 right.
    The others' cards of the turns so far are replayed by their policy per deal drawn,
    so my card on player 1 now is worth 2 points when right, not 3 (as it was when the
    chest was taken to be empty)."""
    from isles.models.plunder.record import Record
    from isles.solvers.plunder.registry import play_game

    game = play_game(["threshold"] * 3, 2)
    assert any(c.proposer == 2 and c.target == 1 for c in game.turns[10].crew)
    full = game.record_for(0)
    record = Record(3, full.observations[:11], full.me, None, full.seen)
    for policy in ("threshold", "search:2"):  # search: the past replayed as it models them
        adv = dig_advice(record, policy=policy, waits=1, samples=30, seed=1)
        now = {t.target: t.options[0] for t in adv.targets}
        assert now[1].right > 0, policy
        assert now[1].expected_points < 3 * now[1].right - 1e-9, policy
        assert now[1].expected_points <= 2 * now[1].right + 1e-9, policy


def test_with_the_search_policy_every_seat_plays_on_by_the_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``policy="search"``: the others and my own flips in the games played on are the
    search's decisions (its seats are asked, for every player), not another policy's."""
    from isles.solvers.plunder import search as plunder_search

    asked: set[int] = set()
    flip = plunder_search._SearchSeat.flip

    def spy(self: plunder_search._SearchSeat, view: PlayerView) -> object:
        asked.add(view.player)
        return flip(self, view)

    monkeypatch.setattr(plunder_search._SearchSeat, "flip", spy)
    dig_advice(_record(), policy="search:2", waits=2, samples=3, seed=0)
    assert asked == {0, 1}
    asked.clear()
    dig_advice(_record(), policy="threshold", waits=2, samples=3, seed=0)
    assert asked == set()


@pytest.mark.parametrize("which", ["example", "seed 2"])
def test_search_seats_share_the_others_models_and_advise_the_same(
    which: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The games' fresh search seats start their models of the others from copies brought
    up to the record (``shared_models``): far fewer models replayed from the first turn,
    and the same advice, game for game, as with every seat replaying its own."""
    import contextlib

    from isles.solvers.plunder import replay as plunder_replay
    from isles.solvers.plunder.registry import play_game

    if which == "example":
        record = example_record()
    else:
        full = play_game(["threshold"] * 3, 2).record_for(0)
        record = Record(3, full.observations[:11], full.me, None, full.seen)
    made = [0]
    init = plunder_replay.Model.__init__

    def counted(self: plunder_replay.Model, *args: object, **kwargs: object) -> None:
        made[0] += 1
        init(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(plunder_replay.Model, "__init__", counted)
    shared = dig_advice(record, policy="search:2", waits=2, samples=4, seed=3).to_dict()
    with_sharing = made[0]
    made[0] = 0
    monkeypatch.setattr(plunder_dig, "shared_models", lambda turns: contextlib.nullcontext())
    alone = dig_advice(record, policy="search:2", waits=2, samples=4, seed=3).to_dict()
    assert shared == alone
    assert with_sharing < made[0] / 2, (with_sharing, made[0])


def test_a_time_limit_stops_a_search_game_within_its_decision(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A search's game still going at the limit stops before its next game played on and
    is dropped (a search:10000 game ran minutes past a 2 s limit); the first one so
    stopped leaves no answer: the limit is refused, named."""
    from isles.models.plunder.record import example_record

    late = [False]
    started = [0]
    play_on = plunder_dig._play_on

    def spied(*args: object, **kwargs: object) -> object:
        started[0] += 1
        late[0] = late[0] or started[0] == 2  # the limit passes as the second game starts
        return play_on(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(plunder_dig, "_play_on", spied)
    monkeypatch.setattr(plunder_dig, "_clock", lambda: 1e9 if late[0] else 0.0)
    adv = dig_advice(example_record(), policy="search:2", samples=5, time_limit=10.0)
    assert (adv.samples, adv.stopped_at_time_limit, started[0]) == (1, True, 2)
    readings = iter([0.0])  # the deadline from 0, then every reading past it
    monkeypatch.setattr(plunder_dig, "_clock", lambda: next(readings, 1e9))
    with pytest.raises(InvalidInput, match=r"^time_limit: 10.0 is invalid; expected a limit long"):
        dig_advice(example_record(), policy="search:2", samples=5, time_limit=10.0)
