"""The lumped answer counts (solvers/plunder/answers.py) against the passes they replaced.

The oracle is ``tests/plunder/reference.py`` (the forward pass over every value
per clue, as it stood before): answer distributions clue by clue and flip advice
option by option must be identical (the same ints, hence the same floats), on
records of 3-6 players generated from a hidden deal, with and without my code,
some with lying players (often inconsistent). The reference is itself checked
against an enumeration of deals in tests/plunder/test_plunder_solver.py.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import isles.solvers.plunder.answers as lumped
import tests.plunder.reference as reference
from isles.models.errors import InvalidInput
from isles.models.plunder.codes import CATEGORIES, COPIES, Code, answer
from isles.models.plunder.record import Me, Observation, Record
from isles.solvers.plunder.counting import allowed_codes
from isles.solvers.plunder.flips import answer_distribution, flip_advice

codes = st.builds(Code, *(st.integers(0, 5),) * 3)


@st.composite
def records(draw: st.DrawFn, min_players: int = 3, max_turns: int = 12) -> Record:
    """A record of ``min_players``..6 players from a hidden deal: the clue on the table
    persists and changes one card a turn (as in a game) or is drawn afresh; my code
    is known or not; with liars, some answers are random."""
    n = draw(st.integers(min_players, 6))
    perms = [draw(st.permutations(range(6))) for _ in range(3)]
    deal = [Code(perms[0][p], perms[1][p], perms[2][p]) for p in range(n)]
    me_player = draw(st.none() | st.integers(0, n - 1))
    liars = draw(st.sampled_from([(), (), (), (draw(st.integers(0, n - 1)),)]))
    persistent = draw(st.booleans())
    clue = draw(codes)
    observations = []
    for t in range(draw(st.integers(0, max_turns))):
        if t and persistent:
            clue = clue.replace(draw(st.sampled_from(CATEGORIES)), draw(st.integers(0, 5)))
        elif t:
            clue = draw(codes)
        active = t % n
        answers = {
            p: draw(st.booleans()) if p in liars and p != me_player else answer(deal[p], clue)
            for p in range(n)
            if p != active
        }
        observations.append(Observation(active, clue, answers))
    me = None if me_player is None else Me(me_player, deal[me_player])
    return Record(n, tuple(observations), me)


seens = st.lists(st.lists(st.integers(0, COPIES), min_size=6, max_size=6), min_size=3, max_size=3)


@settings(max_examples=60)
@given(records(min_players=2), st.lists(codes, min_size=1, max_size=4), st.data())
def test_answer_distribution_is_the_reference(
    record: Record, clues: list[Code], data: st.DataObject
) -> None:
    active = data.draw(st.integers(0, record.players - 1))
    counts = lumped.answer_counts(allowed_codes(record), lumped.named_values(record), active, clues)
    for clue, row in zip(clues, counts, strict=True):
        want = reference.answer_distribution(record, clue, active)
        assert answer_distribution(record, clue, active) == want
        assert sum(row) == sum(want.values())


@settings(max_examples=30)
@given(records(), st.data())
def test_flip_advice_is_the_reference(record: Record, data: st.DataObject) -> None:
    active = data.draw(st.integers(0, record.players - 1))
    clue = record.observations[-1].clue if record.observations else data.draw(codes)
    seen = data.draw(st.none() | seens)
    try:
        want = reference.flip_advice(record, clue, active, seen)
    except ValueError:  # inconsistent record
        with pytest.raises(InvalidInput, match="consistent record"):
            flip_advice(record, clue, active, seen)
        return
    assert flip_advice(record, clue, active, seen) == want


@settings(max_examples=10)
@given(records(max_turns=6), st.data())
def test_clues_moved_a_few_at_a_time_count_the_same(record: Record, data: st.DataObject) -> None:
    # The step cap only bounds memory: with room for one move at a time (every
    # clue of a group moved alone) the counts are unchanged.
    clue = data.draw(codes)
    clues = [clue, *(clue.replace(CATEGORIES[0], v) for v in range(6))]
    args = (allowed_codes(record), lumped.named_values(record), 0, clues)
    whole = lumped.answer_counts(*args)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(lumped, "_ELEMENTS_PER_STEP", 1)
        assert (lumped.answer_counts(*args) == whole).all()


def test_named_values_include_my_code_and_unnamed_values_are_interchangeable() -> None:
    record = Record(
        4, (Observation(0, Code(1, 2, 3), {1: True, 2: False, 3: True}),), Me(1, Code(4, 2, 0))
    )
    assert lumped.named_values(record) == (frozenset({1, 4}), frozenset({2}), frozenset({3, 0}))
    # Islands 0, 2, 3 and 5 are named by nothing: a clue with any of them counts alike.
    w, named = allowed_codes(record), lumped.named_values(record)
    counts = lumped.answer_counts(w, named, 2, [Code(v, 1, 1) for v in (0, 2, 3, 5, 1)])
    assert all((row == counts[0]).all() for row in counts[:4])
    assert not (counts[4] == counts[0]).all()
    assert reference.answer_distribution(record, Code(5, 1, 1), 2) == answer_distribution(
        record, Code(5, 1, 1), 2
    )
