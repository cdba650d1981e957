"""The Plunder search policy: it keeps the rules, it sees only its own information, its
choice is the expectimax of the games it samples, and its tournaments are reproducible."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from isles.models.errors import InvalidInput
from isles.models.plunder.codes import CATEGORIES, Category, Code, answer
from isles.models.plunder.game import GameRecord, GameTurn
from isles.models.plunder.play import PlayerView, Policy, Seat, play_game, play_turns
from isles.models.plunder.record import Observation
from isles.models.plunder.scoring import CrewCard
from isles.solvers.plunder import playout as plunder_playout
from isles.solvers.plunder import replay as plunder_replay
from isles.solvers.plunder import search as plunder_search
from isles.solvers.plunder.belief import Belief
from isles.solvers.plunder.policies import ThresholdPolicy, best_flip
from isles.solvers.plunder.registry import policy_by_name
from isles.solvers.plunder.search import MISS_WEIGHT, RULES, SearchPolicy
from isles.solvers.plunder.tournament import tournament


class _Patient:
    """Never flips, never digs (a policy and its seat)."""

    name = "patient"

    def seat(self, players: int, player: int, code: Code, rng: np.random.Generator) -> _Patient:
        return self

    def flip(self, view: PlayerView) -> Category | None:
        return None

    def crew(self, view: PlayerView) -> list[tuple[int, Code]]:
        return []


class _Log:
    """A seat that notes every decision of the seat it wraps."""

    def __init__(self, inner: Seat) -> None:
        self.inner = inner
        self.log: list[object] = []

    def flip(self, view: PlayerView) -> Category | None:
        out = self.inner.flip(view)
        self.log.append(("flip", view.turn, out))
        return out

    def crew(self, view: PlayerView) -> list[tuple[int, Code]]:
        out = list(self.inner.crew(view))
        self.log.append(("crew", view.turn, out, dict(getattr(self.inner, "last_values", {}))))
        return out


@settings(max_examples=8, deadline=None)
@given(
    st.lists(
        st.sampled_from(["threshold", "certain", "expected", "random"]), min_size=1, max_size=5
    ),
    st.integers(0, 2**31 - 1),
    st.integers(1, 3),
)
def test_search_never_breaks_a_rule(others: list[str], seed: int, budget: int) -> None:
    names = [f"search:{budget}", *others]
    game = play_game([policy_by_name(n) for n in names], seed)
    assert GameRecord.from_dict(game.to_dict()) == game  # every rule re-checked
    assert game.finished
    targets = [c.target for c in game.chest if c.proposer == 0]
    assert len(set(targets)) == len(targets), "search never wastes a card"
    if len(game.turns) == game.turn_limit:
        assert set(targets) == set(range(game.players)) - {0}


def test_the_name_and_budget_are_read_and_bad_ones_refused() -> None:
    assert policy_by_name("search").name == "search"
    assert policy_by_name("search:7") == SearchPolicy(7)
    for bad in (
        "search:",
        "search:0",
        "search:x",
        "search:-1",
        "search:10001",
        "search:²",
        "search:٣",
    ):
        with pytest.raises(InvalidInput, match=f"policy: '{bad}' is invalid; expected search:"):
            policy_by_name(bad)
    with pytest.raises(InvalidInput, match="budget: 0 is invalid"):
        SearchPolicy(0)


class _Flipper:
    """Flips island, marker, trap in turn; never digs (a policy and its seat)."""

    name = "flipper"

    def seat(self, players: int, player: int, code: Code, rng: np.random.Generator) -> _Flipper:
        return self

    def flip(self, view: PlayerView) -> Category | None:
        return CATEGORIES[view.turn % 3]

    def crew(self, view: PlayerView) -> list[tuple[int, Code]]:
        return []


Pool = tuple[Sequence[tuple[Code, ...]], Sequence[float]]


def _weighed_guess(
    pool: Pool, view: PlayerView | Sequence[Observation], q: int
) -> tuple[Code, float]:
    """My best guess on ``q`` and its probability by the weighed deals of a decision, each
    deal that disagrees with an answer of the record so far (a view's, or these
    observations) struck out (the truthful answers of its codes, by the seed's rule);
    ties: the lowest code index."""
    seen = view.observations if isinstance(view, PlayerView) else view
    mass: dict[Code, float] = {}
    for deal, w in zip(*pool, strict=True):
        if all(answer(deal[p], o.clue) == a for o in seen for p, a in o.answers.items()):
            mass[deal[q]] = mass.get(deal[q], 0.0) + float(w)
    total = sum(mass.values())
    code = min(mass, key=lambda c: (-round(mass[c] / total, 12), c.index))
    return code, mass[code] / total


def _seat_pool(seat: Any) -> Pool | None:
    """The deals the seat weighed at its decision and their weights (their weighing is
    checked against a brute force below), or None when it did not weigh them."""
    return seat._pool if seat._weighing(seat.belief) else None


class _Scripted:
    """My seat in the test's own replay: the record's flips, then the most informative
    one; my card on ``target`` at turn ``at`` naming my best guess then (by the weighed
    deals of the decision when there is a ``pool``)."""

    def __init__(
        self,
        code: Code,
        target: int,
        at: int,
        flips: Sequence[Category | None],
        guess: Code | None = None,
        pool: Pool | None = None,
    ) -> None:
        self.belief = Belief.start(2, 0, code)
        self.target, self.at, self.flips, self.guess = target, at, flips, guess
        self.pool = pool

    def _update(self, view: PlayerView) -> Belief:
        for obs in view.observations[self.belief.turns :]:
            self.belief = self.belief.observe(obs)
        return self.belief

    def flip(self, view: PlayerView) -> Category | None:
        if view.turn < len(self.flips):
            return self.flips[view.turn]
        return best_flip(self._update(view), view)

    def crew(self, view: PlayerView) -> list[tuple[int, Code]]:
        b = self._update(view)
        if view.turn - 1 != self.at:
            return []
        if self.guess is None and self.pool is not None:
            return [(self.target, _weighed_guess(self.pool, view, self.target)[0])]
        return [(self.target, self.guess or b.best_code(self.target)[0])]


class _Forced:
    """The opponent in the test's replay: the record's flips and no card in the turns
    of the record (it sent none there), then ``threshold:0.5``."""

    def __init__(self, inner: Seat, flips: Sequence[Category | None]) -> None:
        self.inner, self.flips = inner, flips

    def flip(self, view: PlayerView) -> Category | None:
        return self.flips[view.turn] if view.turn < len(self.flips) else self.inner.flip(view)

    def crew(self, view: PlayerView) -> Sequence[tuple[int, Code]]:
        out = self.inner.crew(view)  # keeps its belief up to date
        return [] if view.turn <= len(self.flips) else out


def _worth(game: GameRecord, me: int) -> float:
    """What a finished game is worth to ``me`` by score_game, as UTILITY says: ``margin``,
    my points less the best other's; ``score``, my points; ``win``, a win (the seed's
    tie-break) plus MARGIN_WEIGHT a point of that margin."""
    score = game.score()
    margin = score.total[me] - max(x for p, x in enumerate(score.total) if p != me)
    if plunder_playout.UTILITY == "margin":
        return float(margin)
    if plunder_playout.UTILITY == "score":
        return float(score.total[me])
    return (me in score.winners) + plunder_playout.MARGIN_WEIGHT * margin


def _utility(game: GameRecord) -> float:
    """What a finished two-player game is worth to player 0 (:func:`_worth`)."""
    return _worth(game, 0)


@pytest.mark.parametrize("utility", ["win", "margin", "score"])
@pytest.mark.parametrize("seed", [2, 5, 6, 10])
def test_a_tiny_game_is_the_expectimax_of_its_sampled_games(
    seed: int, utility: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two players, nine turns, the decision after turn 7's answers: dig now, or on the
    last turn (every way of waiting is that). The test plays each sampled game again
    whole, from the first turn, each of my two plans for real, and scores it by each
    UTILITY."""
    monkeypatch.setattr(plunder_search, "FLOOR", 0.0)
    monkeypatch.setattr(plunder_playout, "UTILITY", utility)
    limit, t, games = 9, 8, 12  # the decision after turn index 7: 8 observations
    base = play_game([_Flipper(), _Flipper()], seed, turn_limit=limit)
    so_far = GameRecord(2, base.deal, base.table, base.turns[:t], limit)
    obs, flips, seen = so_far.observations, tuple(x.flip for x in so_far.turns), so_far.seen()
    view = PlayerView(2, 0, base.deal[0], limit, obs[-1].clue, obs, flips, ((),) * t, (), seen)
    belief = Belief.from_record(view.record())
    p = belief.best_code(1)[1] / belief.deals
    assert 0 < p < 1, "a position with a choice"
    seat = SearchPolicy(games).seat(2, 0, base.deal[0], np.random.default_rng(11))
    decision = seat.crew(view)
    values = seat.last_values  # type: ignore[attr-defined]
    # The same sampled games: the deals and decks the seat played on, each a deal of
    # my belief and the cards left in the decks.
    out = {k: [c.observation.clue.values[k] for c in so_far.turns if c.flip is cat]
           for k, cat in enumerate(CATEGORIES)}  # fmt: skip
    sampled = seat.last_games  # type: ignore[attr-defined]
    now = seat.last_guesses[1][0]  # type: ignore[attr-defined]  # my guess by the deals weighed
    pool = _seat_pool(seat)
    assert len(sampled) == games
    possible = set(belief.deals_at(range(belief.deals)))
    for deal, decks in sampled:
        assert deal in possible
        assert [sorted(d) for d in decks] == [sorted(x) for x in _decks_of(so_far)]
    mean = {}
    for at in (t - 1, t):
        total = 0.0
        for deal, decks in sampled:
            start = GameRecord(2, deal, base.table, (), limit)
            full = tuple((*out[k], *decks[k]) for k in range(3))
            seats = [
                _Scripted(base.deal[0], 1, at, flips, now if at == t - 1 else None, pool),
                _Forced(ThresholdPolicy(0.5).seat(2, 1, deal[1], np.random.default_rng()), flips),
            ]
            turns = play_turns(start, full, seats)  # type: ignore[arg-type]
            assert [(x.observation, x.flip) for x in turns[:t]] == list(
                zip(obs, flips, strict=True)
            )
            total += _utility(GameRecord(2, deal, base.table, turns, limit))
        mean[at] = total / games
    assert mean[t - 1] != mean[t], "the two plans differ on these games"
    assert values[1, None] == pytest.approx(mean[t - 1])
    for rule in RULES:
        assert values[1, rule] == pytest.approx(mean[t])
    assert bool(decision) == (mean[t - 1] >= mean[t])


class _ByRule:
    """My seat in the test's replay of a flip: the record's flips then ``first``, then the
    most informative flip; my card on each target at the first turn from ``start`` on
    with my best guess at ``rule`` or more (on the last turn in any case); my guesses by
    the weighed deals of the decision when there is a ``pool``."""

    def __init__(
        self,
        players: int,
        code: Code,
        flips: Sequence[Category | None],
        start: int,
        rule: float,
        pool: Pool | None = None,
    ) -> None:
        self.belief = Belief.start(players, 0, code)
        self.flips, self.start, self.rule, self.pool = flips, start, rule, pool

    def flip(self, view: PlayerView) -> Category | None:
        if view.turn < len(self.flips):
            return self.flips[view.turn]
        return best_flip(self.belief, view)

    def crew(self, view: PlayerView) -> list[tuple[int, Code]]:
        for obs in view.observations[self.belief.turns :]:
            self.belief = self.belief.observe(obs)
        if view.turn - 1 < self.start:
            return []
        out = []
        for q in view.targets_left():
            if self.pool is not None:
                code, p = _weighed_guess(self.pool, view, q)
            else:
                code, count = self.belief.best_code(q)
                p = count / self.belief.deals
            if view.turns_left == 0 or p >= self.rule:
                out.append((q, code))
        return out


@pytest.mark.parametrize("seed", range(12))
def test_a_searched_flip_is_the_expectimax_of_its_sampled_games(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three players, twelve turns, my turn 9 before the flip: each flip (none, or a deck) is
    worth the best, over the flip rules, of the mean of its sampled games, each played
    again whole from the first turn by the test (the flip, then my cards by the rule, the
    others as ``threshold:0.5``) and scored by score_game; the search flips the best.
    With three players a card's turn counts (the first digger scores most)."""
    monkeypatch.setattr(plunder_search, "FLIP_SEARCH_BUDGET", 6)
    n, limit, t, games = 3, 12, 9, 6
    base = play_game([_Flipper()] * n, seed, turn_limit=limit)
    so_far = GameRecord(n, base.deal, base.table, base.turns[:t], limit)
    obs, flips, seen = so_far.observations, tuple(x.flip for x in so_far.turns), so_far.seen()
    assert obs[-1].active == n - 1, "turn 9 is mine"
    view = PlayerView(n, 0, base.deal[0], limit, obs[-1].clue, obs, flips, ((),) * t, (), seen)
    seat = SearchPolicy(games).seat(n, 0, base.deal[0], np.random.default_rng(5))
    choice = seat.flip(view)
    values = seat.last_flips  # type: ignore[attr-defined]
    sampled = seat.last_games  # type: ignore[attr-defined]
    assert list(values) == [None, *CATEGORIES] and len(sampled) == games
    out = {k: [c.observation.clue.values[k] for c in so_far.turns if c.flip is cat]
           for k, cat in enumerate(CATEGORIES)}  # fmt: skip
    mine = {}
    rng = np.random.default_rng()
    pool = _seat_pool(seat)
    for option in values:
        best = -np.inf
        for rule in plunder_search.FLIP_RULES:
            total = 0.0
            for deal, decks in sampled:
                start = GameRecord(n, deal, base.table, (), limit)
                full = tuple((*out[k], *decks[k]) for k in range(3))
                others = [ThresholdPolicy(0.5).seat(n, p, deal[p], rng) for p in range(1, n)]
                seats = [
                    _ByRule(n, base.deal[0], (*flips, option), t, rule, pool),
                    *(_Forced(other, flips) for other in others),
                ]
                turns = play_turns(start, full, seats)  # type: ignore[arg-type]
                assert turns[t].flip is option
                total += _worth(GameRecord(n, deal, base.table, turns, limit), 0)
            best = max(best, total / games)
        mine[option] = best
        assert values[option] == pytest.approx(best)
    assert len({round(v, 9) for v in mine.values()}) > 1, "the flips differ on these games"
    top = max(mine.values())
    assert choice is next(o for o, v in mine.items() if v >= top - 1e-9)


def test_it_sees_only_its_own_information(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two games with the same public record and my code, the others' codes different:
    the same decisions, the same option values, turn after turn."""
    monkeypatch.setattr(plunder_search, "FLOOR", 0.0)  # weigh every dig: search each turn
    n, seed, until = 3, 5, 9
    start = play_game([_Patient()] * n, seed)
    logs = []
    deals = [start.deal]
    for run in range(2):
        deal = deals[run]
        game = GameRecord(n, deal, start.table, (), start.turn_limit)
        seat = _Log(SearchPolicy(4).seat(n, 0, deal[0], np.random.default_rng(2)))
        rest = tuple(tuple(d) for d in _decks_of(start))
        seats: list[Seat] = [seat, _Patient(), _Patient()]
        turns = play_turns(game, rest, seats, until=until)
        logs.append(seat.log)
        if run == 0:
            played = GameRecord(n, deal, start.table, turns, start.turn_limit)
            b = Belief.from_record(played.record_for(0))
            other = [d for d in b.sample(np.random.default_rng(0), 50) if d != deal]
            assert other, "another deal fits the record"
            deals.append(other[0])
    assert deals[0] != deals[1] and deals[0][0] == deals[1][0]
    assert any(entry[0] == "crew" and entry[3] for entry in logs[0]), "it searched"  # type: ignore[index]
    assert logs[0] == logs[1]


@pytest.mark.parametrize("seed", [1, 7])
def test_the_others_replayed_play_weighs_the_deals(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Against threshold:0.5, the policy the search plays the others by, the true deal
    replays every flip and every count of cards sent: it never misses; other deals do
    miss, and weigh MISS_WEIGHT less a miss of a player some deal replays."""
    lineup: list[Policy] = [SearchPolicy(4), ThresholdPolicy(0.5), ThresholdPolicy(0.5)]
    truth = play_game(lineup, seed).deal
    noted: list[tuple[list[list[int]], list[float], list[int]]] = []
    posterior = plunder_search._SearchSeat._posterior

    def spy(
        self: object, view: PlayerView, replay: plunder_replay.Replay
    ) -> tuple[list[tuple[Code, ...]], npt.NDArray[np.float64]]:
        deals, weights = posterior(self, view, replay)  # type: ignore[arg-type]
        misses = [replay.misses(d) for d in deals]
        noted.append((misses, list(weights), replay.misses(truth)))
        return deals, weights

    monkeypatch.setattr(plunder_search._SearchSeat, "_posterior", spy)
    assert play_game(lineup, seed).deal == truth
    assert noted, "it searched"
    assert all(true == [0, 0] for _, _, true in noted)
    assert any(max(map(max, misses)) > 0 for misses, _, _ in noted), "some deal misses"
    for misses, weights, _ in noted:
        trusted = [j for j in range(2) if min(m[j] for m in misses) == 0]
        plain = [MISS_WEIGHT ** sum(m[j] for j in trusted) for m in misses]
        assert weights == pytest.approx([w / sum(plain) for w in plain])


@pytest.mark.parametrize("seed", [0, 1, 3])
def test_the_games_played_on_guess_by_the_weighed_deals(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In every game played on once the deals are weighed, my guess noted after each turn
    (and its probability) is the best by the decision's weighed deals, those that
    disagree with an answer played on struck out: as the seat itself guesses, not by
    its belief alone (some guesses differ from the equally weighed deals')."""
    lineup: list[Policy] = [SearchPolicy(8), ThresholdPolicy(0.5), ThresholdPolicy(0.5)]
    noted: list[tuple[Pool, list[Any]]] = []
    play_on = plunder_search._SearchSeat._play_on

    def spy(self: Any, view: PlayerView, *args: Any) -> list[Any]:
        played = play_on(self, view, *args)
        pool = _seat_pool(self)
        if pool is not None:
            noted.append(((list(pool[0]), list(pool[1])), played))
        return played

    monkeypatch.setattr(plunder_search._SearchSeat, "_play_on", spy)
    play_game(lineup, seed)
    assert noted, "it weighed"
    checked = differ = 0
    for (deals, weights), played in noted:
        uniform = (deals, [1.0 / len(deals)] * len(deals))
        for game in played:
            obs = [x.observation for x in game.turns]
            for turn, guesses in game.guesses:
                for q, (code, p) in guesses.items():
                    want = _weighed_guess((deals, weights), obs[: turn + 1], q)
                    assert (code, p) == (want[0], pytest.approx(want[1]))
                    checked += 1
                    differ += _weighed_guess(uniform, obs[: turn + 1], q)[1] != pytest.approx(p)
    assert checked > 50 and differ > 0, (checked, differ)


def test_before_the_last_turn_it_digs_no_guess_below_the_floor(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every card sent before the last turn, once the deals are weighed, names my best
    guess by the decision's weighed deals (the test's brute force), of probability FLOOR
    or more; before, as ``threshold:0.5``, of 0.5 or more by my belief. And guesses between
    0.1 (the floor until the fifth round) and FLOOR came up and were held back."""
    lineup: list[Policy] = [SearchPolicy(8)] + [ThresholdPolicy(0.5)] * 3
    crew = plunder_search._SearchSeat.crew
    sent: list[float] = []
    held = 0

    def spy(self: Any, view: PlayerView) -> list[tuple[int, Code]]:
        nonlocal held
        out = crew(self, view)
        if view.turns_left == 0:
            return out
        pool = _seat_pool(self)
        chosen = dict(out)
        for q in view.targets_left():
            if pool is None:
                code, count = self.belief.best_code(q)
                p, floor = count / self.belief.deals, 0.5
            else:
                code, p = _weighed_guess(pool, view, q)
                floor = plunder_search.FLOOR
            if q in chosen:
                assert chosen[q] == code and p >= floor - 1e-9, (q, chosen[q], code, p)
                sent.append(p)
            elif pool is not None and 0.1 <= p < floor:
                held += 1
        return out

    monkeypatch.setattr(plunder_search._SearchSeat, "crew", spy)
    for seed in range(3):
        play_game(lineup, seed)
    assert sent and held, (sent, held)


@pytest.mark.parametrize(
    ("others", "seed"), [(("certain", "certain"), 1), (("expected", "threshold:0.5"), 7)]
)
def test_each_other_player_is_modelled_by_the_candidate_their_play_names(
    others: tuple[str, str], seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Brute force: every deal replayed afresh by each candidate policy for every player
    (a new Replay per candidate, no models shared); each player is modelled by the first
    candidate whose best deal misses least, the weights are MISS_WEIGHT to the misses of
    the players so modelled (those some deal replays), and the true deal, replayed by
    the player's real policy, never misses: its players are all trusted."""
    lineup: list[Policy] = [SearchPolicy(4)] + [policy_by_name(o) for o in others]
    truth = play_game(lineup, seed).deal
    noted: list[tuple[dict[int, str], list[float], list[list[int]]]] = []
    posterior = plunder_search._SearchSeat._posterior

    def spy(
        self: Any, view: PlayerView, replay: plunder_replay.Replay
    ) -> tuple[list[tuple[Code, ...]], npt.NDArray[np.float64]]:
        deals, weights = posterior(self, view, replay)
        fresh = {
            c.name: [
                plunder_replay.Replay(view, c, crew_round=replay.crew_round).misses(d)
                for d in deals
            ]
            for c in plunder_search.CANDIDATES
        }
        chosen, columns = {}, []
        for j, p in enumerate(q for q in range(view.players) if q != view.player):
            name = min(fresh, key=lambda c: min(m[j] for m in fresh[c]))  # first of the least
            chosen[p] = name
            columns.append([m[j] for m in fresh[name]])
        assert {p: c.name for p, c in self.others.items()} == {
            p: c for p, c in chosen.items() if c != plunder_replay.OTHERS.name
        }
        trusted = [col for col in columns if min(col) == 0]
        plain = [MISS_WEIGHT ** sum(col[i] for col in trusted) for i in range(len(deals))]
        assert list(weights) == pytest.approx([w / sum(plain) for w in plain])
        by_name = {c.name: c for c in plunder_search.CANDIDATES}
        real = [by_name[others[p - 1]] for p in chosen]  # the search sits at player 0
        truth_misses = [
            plunder_replay.Replay(view, real[j], crew_round=replay.crew_round).misses(truth)[j]
            for j in range(len(chosen))
        ]
        assert truth_misses == [0] * len(chosen)
        noted.append((chosen, list(weights), columns))
        return deals, weights

    monkeypatch.setattr(plunder_search._SearchSeat, "_posterior", spy)
    assert play_game(lineup, seed).deal == truth
    assert noted, "it weighed"
    names = {c for chosen, _, _ in noted for c in chosen.values()}
    assert names - {plunder_replay.OTHERS.name}, "some player is not modelled by OTHERS"
    # every player is trusted at the end: some deal (the true one) replays them
    _, _, columns = noted[-1]
    assert all(min(col) == 0 for col in columns)


def _decks_of(game: GameRecord) -> tuple[tuple[int, ...], ...]:
    """Some deck order after the table (patient seats never flip: any order will do)."""
    rng = np.random.default_rng(1)
    seen = game.seen()
    return plunder_playout._decks(seen, rng)


def test_same_seed_same_tournament_on_1_and_2_workers() -> None:
    args = (3, ["search:2", "threshold"])
    here = tournament(*args, games=4, seed=3, workers=0, time_limit=None)
    one = tournament(*args, games=4, seed=3, workers=1, time_limit=None)
    two = tournament(*args, games=4, seed=3, workers=2, time_limit=None)
    assert here.results == one.results == two.results
    assert here.to_dict() == one.to_dict() == two.to_dict()


def test_a_time_limit_ends_a_search_tournament_with_the_games_played(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A clock that moves one second a reading: one reading sets the deadline, one
    comes before each game, so 2.5 seconds play two games and say so."""
    from isles.solvers.plunder import tournament as plunder_tournament

    class Clock:
        now = 0.0

        def __call__(self) -> float:
            self.now += 1.0
            return self.now - 1.0

    args = (3, ["search:2", "threshold"])
    monkeypatch.setattr(plunder_tournament, "_clock", Clock())
    monkeypatch.setattr(plunder_tournament, "_decision_clock", lambda: 0.0)  # stands still
    short = tournament(*args, games=6, seed=1, workers=0, time_limit=2.5)
    assert (short.games, short.games_asked, short.stopped_at_time_limit) == (2, 6, True)
    monkeypatch.undo()
    assert short.results == tournament(*args, games=2, seed=1, workers=0).results


def test_a_time_limit_stops_a_search_within_its_decision(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``workers=0``: the limit passing during a decision of a large budget stops it
    before its next game played on (a decision of search:10000 took seconds past it)."""
    from isles.solvers.plunder import search as plunder_search
    from isles.solvers.plunder import tournament as plunder_tournament

    late = [False]
    rollouts = [0]
    play_turns = plunder_search.play_turns  # type: ignore[attr-defined]

    def counted(*args: Any, **kwargs: Any) -> Any:
        rollouts[0] += 1
        late[0] = late[0] or rollouts[0] == 5  # the limit passes during the fifth
        return play_turns(*args, **kwargs)

    monkeypatch.setattr(plunder_search, "play_turns", counted)
    monkeypatch.setattr(plunder_tournament, "_decision_clock", lambda: 1e9 if late[0] else 0.0)
    monkeypatch.setattr(plunder_tournament, "_clock", lambda: 0.0)
    t = tournament(3, ["search:400"], games=1, seed=1, workers=0, time_limit=10.0)
    assert (t.games, t.stopped_at_time_limit) == (0, True)
    assert rollouts[0] == 5


def _dig_worth(deals: list[tuple[Code, ...]], view: PlayerView, clue: Code) -> float:
    """Brute force: the expected sum over my targets left of my best guess's probability
    after the answers to ``clue``, every deal equally likely."""
    groups: dict[tuple[bool, ...], list[tuple[Code, ...]]] = {}
    for deal in deals:
        answers = tuple(
            any(clue.values[k] == deal[p].values[k] for k in range(3))
            for p in range(view.players)
            if p != view.player
        )
        groups.setdefault(answers, []).append(deal)
    total = 0.0
    for group in groups.values():
        for q in view.targets_left():
            codes = [d[q] for d in group]
            total += max(codes.count(c) for c in set(codes)) / len(deals)
    return total


@pytest.mark.parametrize("seed", [3, 4])
def test_the_flip_for_digs_is_the_best_by_brute_force(seed: int) -> None:
    """dig_flip's choice is worth the most, each deck's card drawn by the copies left."""
    n, t = 3, 4
    game = play_game([_Patient()] * n, seed, turn_limit=t)
    obs = game.observations
    player = t % n  # the active player of turn index t
    seen = game.seen()
    view = PlayerView(n, player, game.deal[player], 15, obs[-1].clue, obs,
                      tuple(x.flip for x in game.turns), ((),) * t, (), seen)  # fmt: skip
    belief = Belief.from_record(view.record())
    deals = belief.deals_at(range(belief.deals))
    worth: dict[Category | None, float] = {None: _dig_worth(deals, view, view.clue)}
    for k, cat in enumerate(CATEGORIES):
        left = [3 - seen[k][v] for v in range(6)]
        worth[cat] = sum(
            c * _dig_worth(deals, view, view.clue.replace(cat, v)) for v, c in enumerate(left)
        ) / sum(left)
    chosen = plunder_playout.dig_flip(deals, np.full(len(deals), 1 / len(deals)), view)
    assert worth[chosen] == pytest.approx(max(worth.values()))
    assert len({round(w, 9) for w in worth.values()}) > 1, "the flips differ"


def _last_worth(
    me: int,
    targets: Sequence[int],
    combo: Sequence[Code],
    games: Sequence[GameRecord],
    weights: Sequence[float],
) -> float:
    """My cards ``combo`` put in at my place in each game's last crew round, each game
    scored by score_game: the mean of what it is worth to me (:func:`_worth`)."""
    total = 0.0
    for game, w in zip(games, weights, strict=True):
        n, last = game.players, game.turns[-1]
        place = {(last.observation.active + j) % n: j for j in range(n)}
        mine = [CrewCard(me, q, c) for q, c in zip(targets, combo, strict=True)]
        crew = tuple(sorted((*last.crew, *mine), key=lambda c: place[c.proposer]))
        turns = (*game.turns[:-1], GameTurn(last.observation, last.flip, crew))
        total += w * _worth(GameRecord(n, game.deal, game.table, turns, game.turn_limit), me)
    return total


@pytest.mark.parametrize("utility", ["win", "margin"])
@pytest.mark.parametrize("seed", [0, 2])
def test_the_last_turn_digs_the_best_combination(
    seed: int, utility: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On the last turn the search sends the combination of codes (among each target's
    LAST_CODES most likely) worth the most over its weighed deals, each deal's game
    finished by the others' replayed cards and scored by score_game (by each UTILITY):
    at least as good as every target's most likely code."""
    monkeypatch.setattr(plunder_search, "FLOOR", 2.0)  # digs only sure codes before the last turn
    monkeypatch.setattr(plunder_playout, "UTILITY", utility)
    noted: list[tuple[int, Sequence[int], list[tuple[int, Code]], list[Any], Any, list[Any]]] = []
    last_turn = plunder_search._SearchSeat._last_turn

    def spy(
        self: plunder_search._SearchSeat,
        view: PlayerView,
        replay: plunder_replay.Replay,
        targets: Sequence[int],
    ) -> list[tuple[int, Code]]:
        out = last_turn(self, view, replay, targets)
        deals, weights = self._posterior(view, replay)
        mine = self._my_cards_by_turn(view)
        games = [replay.game(d, None, mine)[0] for d in deals]
        noted.append((view.player, targets, out, deals, weights, games))
        return out

    monkeypatch.setattr(plunder_search._SearchSeat, "_last_turn", spy)
    play_game([SearchPolicy(8), ThresholdPolicy(0.5), ThresholdPolicy(0.5)], seed)
    assert noted, "a last turn with targets left"
    differ = False
    for me, targets, out, deals, weights, games in noted:
        ranked = []
        for q in targets:
            mass: dict[Code, float] = {}
            for d, w in zip(deals, weights, strict=True):
                mass[d[q]] = mass.get(d[q], 0.0) + w
            ranked.append(sorted(mass, key=lambda c: (-round(mass[c], 12), c.index)))
        k = plunder_search.LAST_CODES
        while k > 1 and np.prod([min(k, len(r)) for r in ranked]) > plunder_search.LAST_COMBOS:
            k -= 1
        values = [
            _last_worth(me, targets, c, games, weights)
            for c in itertools.product(*(r[:k] for r in ranked))
        ]
        chosen = _last_worth(me, targets, [c for _, c in out], games, weights)
        assert chosen == pytest.approx(max(values))
        assert chosen >= _last_worth(me, targets, [r[0] for r in ranked], games, weights) - 1e-12
        differ = differ or max(values) > min(values) + 1e-9
    assert differ, "a choice that matters"


@settings(max_examples=6, deadline=None)
@given(
    st.integers(0, 2**31 - 1),
    st.sampled_from([["search:2", "search:2", "threshold"], ["search:2", "expected", "search:2"]]),
    st.integers(1, 6),
)
def test_models_shared_along_the_record_replay_the_same_game(
    seed: int, names: list[str], turns: int
) -> None:
    """Two search seats of one game model the third player along the same record: with
    ``shared_models`` the second starts from the first's copy, brought up to ``turns`` at
    most; the game is the same, decision by decision, as with every model replayed alone."""
    lineup = [policy_by_name(n) for n in names]
    alone = play_game(lineup, seed)
    made = [0]
    init = plunder_replay.Model.__init__

    def counted(self: plunder_replay.Model, *args: Any, **kwargs: Any) -> None:
        made[0] += 1
        init(self, *args, **kwargs)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(plunder_replay.Model, "__init__", counted)
        play_game(lineup, seed)
        by_each = made[0]
        made[0] = 0
        with plunder_replay.shared_models(turns):
            shared = play_game(lineup, seed)
    assert shared.to_dict() == alone.to_dict()
    assert made[0] <= by_each


def _replayed(view: PlayerView, deal: tuple[Code, ...], p: int) -> tuple[Any, ...]:
    """Player ``p``'s model brought up to ``view``: its turns, cards and misses."""
    replay = plunder_replay.Replay(view)
    misses = replay.misses_of(deal, p)
    model = replay.models[p, deal[p]]
    return model.upto, model.cards, misses


def test_a_shared_model_goes_on_alone() -> None:
    """A model taken from the shared ones is a copy: advancing it leaves the kept one and
    the other copies where they were (a shared list of cards would mix two games); the
    same turns with other senders are another record, so another model."""
    game = play_game([policy_by_name("threshold")] * 3, 2)
    t = 11
    so_far = GameRecord(3, game.deal, game.table, game.turns[:t])
    obs = so_far.observations
    view = PlayerView(
        3,
        0,
        game.deal[0],
        15,
        obs[-1].clue,
        obs,
        tuple(x.flip for x in so_far.turns),
        tuple(tuple(c.proposer for c in x.crew) for x in so_far.turns),
        tuple(c for x in so_far.turns for c in x.crew if c.proposer == 0),
        so_far.seen(),
    )
    alone = _replayed(view, game.deal, 2)
    assert alone[1], "player 2 has dug by turn 11"
    with plunder_replay.shared_models(5):
        first = plunder_replay.Replay(view).model(2, game.deal[2])
        second = plunder_replay.Replay(view).model(2, game.deal[2])
        assert first is not second and first.upto == second.upto == 5
        assert _replayed(view, game.deal, 2) == alone
        first.advance(view, plunder_replay.seen_after(view), t, True)
        assert (first.upto, second.upto) == (t, 5)
        third = plunder_replay.Replay(view).model(2, game.deal[2])
        assert third.upto == 5 and third.cards == second.cards != first.cards
    assert plunder_replay.Replay(view).model(2, game.deal[2]).upto == 0  # gone with the block
    # player 2's card of turn 10 not sent
    senders = tuple(
        tuple(p for p in s if p != 2) if i == 10 else s for i, s in enumerate(view.senders)
    )
    other = dataclasses.replace(view, senders=senders)
    other_alone = _replayed(other, game.deal, 2)
    assert other_alone != alone
    with plunder_replay.shared_models(t):
        assert _replayed(view, game.deal, 2) == alone
        assert _replayed(other, game.deal, 2) == other_alone
