"""Plunder solvers against an independent brute force: enumerate every consistent deal."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Collection, Sequence
from fractions import Fraction
from itertools import product

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from isles.models.plunder.codes import CATEGORIES, Category, Code, answer
from isles.models.plunder.record import Me, Observation, Record, consistent_with
from isles.models.status import Status
from isles.solvers.plunder.counting import posterior
from isles.solvers.plunder.deduction import deduce, minimal_conflict
from isles.solvers.plunder.flips import answer_distribution, flip_advice
from isles.solvers.plunder.guesses import guess_advice
from isles.solvers.plunder.z3record import AnswerId

ALL_CODES = [Code(i, m, t) for i in range(6) for m in range(6) for t in range(6)]


def _answer_ids(record: Record) -> list[AnswerId]:
    return [AnswerId(i, p) for i, o in enumerate(record.observations) for p in o.answers]


def brute_deals(record: Record, only: Collection[AnswerId] | None = None) -> list[tuple[Code, ...]]:
    """Every legal deal agreeing with my code and the answers in ``only`` (default all)."""
    keep = set(_answer_ids(record) if only is None else only)
    per_player = []
    for p in range(record.players):
        if record.me is not None and p == record.me.player:
            per_player.append([record.me.code])
            continue
        checks = [
            (o.clue, o.answers[p])
            for i, o in enumerate(record.observations)
            if AnswerId(i, p) in keep
        ]
        per_player.append([c for c in ALL_CODES if all(answer(c, k) == a for k, a in checks)])
    deals = []
    for deal in product(*per_player):
        if all(len({c.values[k] for c in deal}) == len(deal) for k in range(3)):
            deals.append(deal)
    if only is None:
        assert all(consistent_with(record, d) for d in deals)
    return deals


@st.composite
def hidden_games(
    draw: st.DrawFn, max_turns: int = 7, liars: bool = False
) -> tuple[Record, tuple[Code, ...]]:
    """A record of 2-3 players generated from a hidden deal (3 players: my code known).

    With ``liars``, the other players' answers are random instead (mine stay
    truthful), which makes most long records inconsistent.
    """
    n = draw(st.integers(2, 3))
    perms = [draw(st.permutations(range(6))) for _ in range(3)]
    deal = tuple(Code(perms[0][p], perms[1][p], perms[2][p]) for p in range(n))
    me_player = draw(st.none() | st.integers(0, n - 1)) if n == 2 else draw(st.integers(0, n - 1))
    me = None if me_player is None else Me(me_player, deal[me_player])
    turns = draw(st.integers(max_turns // 2 if liars else 0, max_turns))
    observations = []
    for t in range(turns):
        active = t % n
        clue = Code(*(draw(st.integers(0, 5)) for _ in range(3)))
        answers = {
            p: draw(st.booleans()) if liars and p != me_player else answer(deal[p], clue)
            for p in range(n)
            if p != active
        }
        observations.append(Observation(active, clue, answers))
    return Record(n, tuple(observations), me), deal


@settings(max_examples=40)
@given(hidden_games())
def test_posterior_matches_enumeration(game: tuple[Record, tuple[Code, ...]]) -> None:
    record, deal = game
    assert Record.from_dict(record.to_dict()) == record
    deals = brute_deals(record)
    post = posterior(record)
    assert post.deals == len(deals)
    assert post.status is Status.EXACT
    for p in range(record.players):
        held = Counter(d[p].index for d in deals)
        assert post.code_counts[p] == tuple(held.get(c, 0) for c in range(216))
        for k, cat in enumerate(CATEGORIES):
            values = Counter(d[p].values[k] for d in deals)
            assert post.marginals(p)[cat] == tuple(
                Fraction(values.get(v, 0), len(deals)) for v in range(6)
            )
        # The hidden deal always keeps positive probability.
        assert post.code_probability(p, deal[p]) > 0
        assert sum(prob for _, prob in post.codes(p)) == 1


@settings(max_examples=25)
@given(hidden_games(max_turns=12))
def test_forced_values_and_minimal_proofs(game: tuple[Record, tuple[Code, ...]]) -> None:
    record, deal = game
    deals = brute_deals(record)
    result = deduce(record)
    assert result.conflict == ()
    expected = {
        (p, cat, deals[0][p].values[k])
        for p in range(record.players)
        if record.me is None or p != record.me.player
        for k, cat in enumerate(CATEGORIES)
        if len({d[p].values[k] for d in deals}) == 1
    }
    assert {(f.player, f.category, f.value) for f in result.forced} == expected
    for f in result.forced:
        k = CATEGORIES.index(f.category)
        assert f.value == deal[f.player].values[k]
        # The proof alone forces the value ...
        assert {d[f.player].values[k] for d in brute_deals(record, f.proof)} == {f.value}
        # ... and no answer of it can be dropped.
        for drop in f.proof:
            rest = [a for a in f.proof if a != drop]
            assert {d[f.player].values[k] for d in brute_deals(record, rest)} != {f.value}


@settings(max_examples=30)
@given(hidden_games(max_turns=10, liars=True))
def test_conflicts_are_inconsistent_and_minimal(game: tuple[Record, tuple[Code, ...]]) -> None:
    record, _ = game
    deals = brute_deals(record)
    conflict = minimal_conflict(record)
    assert (conflict == ()) == bool(deals)
    assert posterior(record).deals == len(deals)
    if deals:
        return
    assert deduce(record).status is Status.INCONSISTENT
    assert brute_deals(record, conflict) == []
    for drop in conflict:
        assert brute_deals(record, [a for a in conflict if a != drop]) != []


def _entropy(counts: Sequence[int]) -> float:
    total = sum(counts)
    return -sum(n / total * math.log2(n / total) for n in counts if n)


@settings(max_examples=15)
@given(hidden_games(), st.tuples(*(st.integers(0, 5),) * 3), st.data())
def test_answer_distribution_and_flip_advice(
    game: tuple[Record, tuple[Code, ...]], clue_values: tuple[int, int, int], data: st.DataObject
) -> None:
    record, _ = game
    clue = Code(*clue_values)
    active = data.draw(st.integers(0, record.players - 1))
    deals = brute_deals(record)

    def brute_distribution(c: Code) -> Counter[tuple[bool, ...]]:
        return Counter(
            tuple(answer(d[p], c) for p in range(record.players) if p != active) for d in deals
        )

    assert answer_distribution(record, clue, active) == dict(brute_distribution(clue))
    advice = flip_advice(record, clue, active)
    by_deck = {o.deck: o for o in advice.options}
    assert set(by_deck) == {None, *CATEGORIES}
    assert math.isclose(
        by_deck[None].expected_bits, _entropy(list(brute_distribution(clue).values())), abs_tol=1e-9
    )
    for cat in CATEGORIES:
        brute = sum(
            _entropy(list(brute_distribution(clue.replace(cat, v)).values())) / 6 for v in range(6)
        )
        assert math.isclose(by_deck[cat].expected_bits, brute, abs_tol=1e-9)
    assert advice.best.expected_bits >= max(o.expected_bits for o in advice.options) - 1e-9


def test_six_players_with_nothing_known() -> None:
    post = posterior(Record(6))
    assert post.deals == 720**3
    assert post.marginals(5)[Category.TRAP] == (Fraction(1, 6),) * 6
    assert post.code_probability(3, Code(1, 2, 3)) == Fraction(1, 216)


def test_my_code_rules_out_its_values_for_others() -> None:
    record = Record(2, me=Me(0, Code(0, 1, 2)))
    post = posterior(record)
    assert post.deals == 125
    assert post.possible(1, Category.MARKER) == (0, 2, 3, 4, 5)
    assert post.code_probability(1, Code(1, 0, 0)) == Fraction(1, 125)
    assert post.code_probability(1, Code(0, 0, 0)) == 0


def test_seen_cards_weight_the_flipped_card() -> None:
    record = Record(2, me=Me(0, Code(0, 0, 0)))
    seen = [[3, 3, 3, 3, 3, 0], [0] * 6, [3] * 6]
    advice = flip_advice(record, Code(1, 1, 1), 0, seen=seen)
    by_deck = {o.deck: o for o in advice.options}
    assert Category.TRAP not in by_deck  # exhausted deck
    assert [(v, p) for v, p, _ in by_deck[Category.ISLAND].cards] == [(5, Fraction(1))]
    assert by_deck[Category.MARKER].cards[0][1] == Fraction(1, 6)


def test_guess_advice_names_the_forced_code() -> None:
    # Player 1 says no to everything but island 4, marker 4, trap 4.
    clues = [Code(v, v, v) for v in range(6) if v != 4]
    obs = tuple(Observation(0, c, {1: False}) for c in clues)
    record = Record(2, obs, Me(0, Code(0, 0, 0)))
    (guess,) = guess_advice(record, earlier_digs={1: 1})
    assert (guess.target, guess.code, guess.probability) == (1, Code(4, 4, 4), Fraction(1))
    assert guess.expected_points == 2
    assert {(f.player, f.value) for f in deduce(record).forced} == {(1, 4)}


def backtrack_deals(record: Record) -> list[tuple[Code, ...]]:
    """Every consistent deal by backtracking over players (for 4-6 player records)."""
    allowed = []
    for p in range(record.players):
        codes = [record.me.code] if record.me and record.me.player == p else ALL_CODES
        allowed.append(
            [
                c
                for c in codes
                if all(
                    answer(c, o.clue) == o.answers[p] for o in record.observations if p in o.answers
                )
            ]
        )
    out: list[tuple[Code, ...]] = []

    def place(prefix: tuple[Code, ...]) -> None:
        if len(prefix) == record.players:
            out.append(prefix)
            return
        for c in allowed[len(prefix)]:
            if all(c.values[k] != d.values[k] for d in prefix for k in range(3)):
                place((*prefix, c))

    place(())
    return out


@st.composite
def long_games(draw: st.DrawFn) -> Record:
    """4-6 players, my code known, 12-15 turns from a hidden deal."""
    n = draw(st.integers(4, 6))
    perms = [draw(st.permutations(range(6))) for _ in range(3)]
    deal = [Code(perms[0][p], perms[1][p], perms[2][p]) for p in range(n)]
    observations = []
    for t in range(draw(st.integers(12, 15))):
        clue = Code(*(draw(st.integers(0, 5)) for _ in range(3)))
        answers = {p: answer(deal[p], clue) for p in range(n) if p != t % n}
        observations.append(Observation(t % n, clue, answers))
    return Record(n, tuple(observations), Me(0, deal[0]))


@settings(max_examples=12)
@given(long_games())
def test_posterior_of_larger_tables_matches_backtracking(record: Record) -> None:
    post = posterior(record)
    assume(post.deals <= 3000)  # keep the brute force quick; the counts are still checked
    deals = backtrack_deals(record)
    assert post.deals == len(deals) > 0
    for p in range(record.players):
        held = Counter(d[p].index for d in deals)
        assert post.code_counts[p] == tuple(held.get(c, 0) for c in range(216))


def test_closed_form_counts_with_my_code_known() -> None:
    for n in range(2, 7):
        others = math.perm(5, n - 1) ** 3
        assert posterior(Record(n, me=Me(0, Code(0, 0, 0)))).deals == others
        assert posterior(Record(n)).deals == math.perm(6, n) ** 3
