"""Smallest Plunder conflicts and proofs against a brute force over subsets of answers."""

from __future__ import annotations

from collections.abc import Collection
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from isles.models.plunder.codes import CATEGORIES, Code, answer
from isles.models.plunder.record import Me, Observation, Record
from isles.solvers.plunder.deduction import (
    deduce,
    forced_values,
    minimal_conflict,
    smallest_conflict,
)
from isles.solvers.plunder.z3record import AnswerId, Z3Record
from tests.plunder.test_plunder_solver import hidden_games

ALL = (1 << 216) - 1
CODES = [Code.from_index(c) for c in range(216)]
# COMPATIBLE[c]: bit mask of the codes sharing no value with code c.
COMPATIBLE = [
    sum(1 << d.index for d in CODES if all(x != y for x, y in zip(c.values, d.values, strict=True)))
    for c in CODES
]


def _yes(clue: Code) -> int:
    return sum(1 << c.index for c in CODES if answer(c, clue))


def consistent(
    record: Record,
    subset: Collection[AnswerId],
    exclude: tuple[int, int, int] | None = None,
) -> bool:
    """Some deal agrees with my code and the answers in ``subset`` (and gives player
    ``exclude[0]`` a value other than ``exclude[2]`` in category ``exclude[1]``)."""
    allowed = [ALL] * record.players
    if record.me is not None:
        allowed[record.me.player] = 1 << record.me.code.index
    for a in subset:
        obs = record.observations[a.observation]
        yes = _yes(obs.clue)
        allowed[a.player] &= yes if obs.answers[a.player] else ALL & ~yes
    if exclude is not None:
        p, k, v = exclude
        allowed[p] &= sum(1 << c.index for c in CODES if c.values[k] != v)
    order = sorted(range(record.players), key=lambda p: allowed[p].bit_count())

    def place(i: int, free: int) -> bool:
        candidates = allowed[order[i]] & free
        if i == len(order) - 1:
            return candidates != 0
        return any(candidates >> c & 1 and place(i + 1, free & COMPATIBLE[c]) for c in range(216))

    return place(0, ALL)


def smallest_size(record: Record, exclude: tuple[int, int, int] | None = None) -> int:
    """The size of a smallest inconsistent set of answers, by increasing size."""
    ids = [AnswerId(i, p) for i, o in enumerate(record.observations) for p in o.answers]
    for size in range(len(ids) + 1):
        if any(not consistent(record, s, exclude) for s in combinations(ids, size)):
            return size
    raise AssertionError("the whole record is consistent")


@st.composite
def noisy_records(draw: st.DrawFn) -> Record:
    """2-3 players, clues over values 0..1, the answers of a hidden deal with one
    to three of the others' answers flipped (at most 10 answers): mostly
    inconsistent, sometimes with conflicts of several sizes."""
    n = draw(st.integers(2, 3))
    perms = [draw(st.permutations(range(6))) for _ in range(3)]
    deal = [Code(perms[0][p], perms[1][p], perms[2][p]) for p in range(n)]
    me_player = draw(st.none() | st.integers(0, n - 1))
    me = None if me_player is None else Me(me_player, deal[me_player])
    observations = []
    for t in range(draw(st.integers(5, 10 if n == 2 else 5))):
        clue = Code(*(draw(st.integers(0, 1)) for _ in range(3)))
        answers = {p: answer(deal[p], clue) for p in range(n) if p != t % n}
        observations.append(Observation(t % n, clue, answers))
    others = [(t, p) for t, o in enumerate(observations) for p in o.answers if p != me_player]
    for j in draw(st.sets(st.integers(0, len(others) - 1), min_size=1, max_size=3)):
        t, p = others[j]
        obs = observations[t]
        observations[t] = Observation(obs.active, obs.clue, {**obs.answers, p: not obs.answers[p]})
    return Record(n, tuple(observations), me)


@settings(max_examples=60)
@given(noisy_records() | hidden_games(max_turns=8, liars=True).map(lambda game: game[0]))
def test_conflict_is_a_smallest_inconsistent_set(record: Record) -> None:
    ids = [AnswerId(i, p) for i, o in enumerate(record.observations) for p in o.answers]
    conflict = smallest_conflict(record)
    minimal = minimal_conflict(record)
    if consistent(record, ids):
        assert conflict == minimal == ()
        return
    # The fast conflict is minimal by inclusion, never smaller than the smallest.
    assert not consistent(record, minimal) and len(minimal) >= len(conflict)
    for drop in minimal:
        assert consistent(record, [a for a in minimal if a != drop])
    assert conflict == tuple(sorted(set(conflict)))
    assert not consistent(record, conflict)
    assert len(conflict) == smallest_size(record)
    for drop in conflict:
        assert consistent(record, [a for a in conflict if a != drop])


@settings(max_examples=30)
@given(hidden_games(max_turns=8))
def test_forced_value_proofs_are_smallest(game: tuple[Record, tuple[Code, ...]]) -> None:
    record, _ = game
    for f in deduce(record, time_limit=None).forced:
        assert f.smallest
        exclude = (f.player, CATEGORIES.index(f.category), f.value)
        assert not consistent(record, f.proof, exclude)
        assert len(f.proof) == smallest_size(record, exclude)


def test_smallest_beats_a_minimal_core() -> None:
    # Player 1 says yes to (0,0,0) and no to (0,1,1), (1,0,1), (1,1,0): four
    # answers, minimal but not smallest, once "no" to (0,0,0) is also recorded.
    clues = [Code(0, 0, 0), Code(0, 1, 1), Code(1, 0, 1), Code(1, 1, 0), Code(0, 0, 0)]
    answers = [True, False, False, False, False]
    obs = tuple(Observation(0, c, {1: a}) for c, a in zip(clues, answers, strict=True))
    record = Record(2, obs)
    model = Z3Record(record)
    four = [AnswerId(i, 1) for i in range(4)]
    assert model.core(four) == four  # the four-answer conflict is there ...
    assert all(model.core(four[:i] + four[i + 1 :]) is None for i in range(4))  # ... and minimal
    assert smallest_conflict(record) == (AnswerId(0, 1), AnswerId(4, 1))


def test_forced_value_proof_smaller_than_a_minimal_one() -> None:
    # Found by random search: deletion-based shrinking gives a proof of five
    # answers here (Z3 4.x), while three answers force player 1's marker 2.
    rows = [
        (0, (1, 2, 2), True),
        (1, (1, 3, 4), True),
        (0, (2, 5, 3), False),
        (1, (5, 2, 1), True),
        (0, (5, 2, 0), True),
        (1, (2, 2, 1), False),
        (0, (2, 2, 5), True),
        (1, (5, 5, 5), True),
    ]
    record = Record(2, tuple(Observation(a, Code(*c), {1 - a: y}) for a, c, y in rows))
    (forced,) = [f for f in deduce(record, time_limit=None).forced if f.category is CATEGORIES[1]]
    exclude = (1, 1, 2)
    assert (forced.player, forced.value) == (1, 2)
    assert smallest_size(record, exclude) == 3
    assert len(forced.proof) == 3
    assert not consistent(record, forced.proof, exclude)
    # Proofs minimal by inclusion only, on request: unsat, and no answer can go.
    (minimal,) = [f for f in forced_values(record, smallest=False) if f.category is CATEGORIES[1]]
    assert len(minimal.proof) >= 3
    assert not consistent(record, minimal.proof, exclude)
    for drop in minimal.proof:
        assert consistent(record, [a for a in minimal.proof if a != drop], exclude)


@settings(max_examples=15)
@given(st.lists(noisy_records(), min_size=2, max_size=3))
def test_the_same_record_gives_the_same_conflict(records: list[Record]) -> None:
    """Each record gets a fresh Z3 context, so earlier queries cannot change the answer."""
    first = [smallest_conflict(r) for r in records]
    again = [smallest_conflict(r) for r in reversed(records)][::-1]
    assert first == again
