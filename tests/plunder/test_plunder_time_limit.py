"""Plunder's time limit (issue 9, case 6): long records answer in seconds, with proofs
that stay minimal when they could not be proven smallest in time, and say so."""

from __future__ import annotations

import random
import time
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from isles.models.plunder.codes import CATEGORIES, Code, answer
from isles.models.plunder.record import Observation, Record, example_record
from isles.solvers.plunder.counting import _forward, allowed_codes
from isles.solvers.plunder.deduction import deduce
from isles.solvers.plunder.z3record import AnswerId, hitting_set
from tests.plunder.test_plunder_smallest import consistent


def hidden_deal_record(players: int, turns: int, seed: int) -> Record:
    """A record from a hidden deal (seeded): the clue persists, one card flipped per turn."""
    rng = random.Random(seed)
    perms = [rng.sample(range(6), 6) for _ in CATEGORIES]
    deal = [Code(perms[0][p], perms[1][p], perms[2][p]) for p in range(players)]
    clue = Code(rng.randrange(6), rng.randrange(6), rng.randrange(6))
    observations = []
    for t in range(turns):
        if t:
            clue = clue.replace(rng.choice(CATEGORIES), rng.randrange(6))
        answers = {p: answer(deal[p], clue) for p in range(players) if p != t % players}
        observations.append(Observation(t % players, clue, answers))
    return Record(players, tuple(observations))


def _forces(record: Record, proof: tuple[AnswerId, ...], player: int, k: int, v: int) -> bool:
    """Whether the answers of ``proof`` alone force ``player``'s value ``v`` in category k
    (no deal agrees with them and gives another value), by exact counting."""
    bare = Record(record.players, me=record.me)
    w = allowed_codes(bare)
    codes = [Code.from_index(c) for c in range(216)]
    for a in proof:
        obs = record.observations[a.observation]
        said = obs.answers[a.player]
        w[a.player] &= np.array([answer(c, obs.clue) == said for c in codes], dtype=np.int64)
    w[player] &= np.array([c.values[k] != v for c in codes], dtype=np.int64)
    return int(_forward(w)[-1].sum()) == 0


@settings(max_examples=150)
@given(st.lists(st.sets(st.integers(0, 9), min_size=1, max_size=5), max_size=7), st.integers(0, 4))
def test_hitting_set_matches_brute_force(sets: list[set[int]], k: int) -> None:
    masks = [sum(1 << e for e in s) for s in sets]
    found = hitting_set(masks, k, None)
    exists = any(
        all(s & set(pick) for s in sets)
        for size in range(k + 1)
        for pick in combinations(range(10), size)
    )
    assert (found is not None) == exists
    if found is not None:
        assert found.bit_count() <= k and all(m & found for m in masks)


def test_a_tiny_time_limit_keeps_minimal_proofs_and_says_so() -> None:
    record = example_record()
    exact = deduce(record, time_limit=None)
    rushed = deduce(record, time_limit=1e-6)
    assert exact.proofs == "smallest" and rushed.proofs == "minimal"
    assert rushed.to_dict()["time_limit"] == 1e-6 and rushed.posterior == exact.posterior
    assert [(f.player, f.category, f.value) for f in rushed.forced] == [
        (f.player, f.category, f.value) for f in exact.forced
    ]
    for f in rushed.forced:
        assert f.smallest == (len(f.proof) <= 1)
        exclude = (f.player, CATEGORIES.index(f.category), f.value)
        assert not consistent(record, f.proof, exclude)
        for drop in f.proof:
            assert consistent(record, [a for a in f.proof if a != drop], exclude)


@pytest.mark.parametrize("limit", [1e7, 1e306, 1e308])
def test_a_time_limit_of_ages_is_no_limit(limit: float) -> None:
    """A finite limit far past Z3's largest timeout (2**32 - 1 ms) is no limit: the exact
    answer, never an OverflowError (1e306 s and more converted to infinite milliseconds)."""
    record = example_record()
    long = deduce(record, time_limit=limit)
    assert long.proofs == "smallest" and long.posterior == deduce(record, time_limit=None).posterior
    assert long.to_dict()["time_limit"] == limit


def test_an_inconsistent_record_under_a_tiny_time_limit() -> None:
    data = example_record().to_dict()
    data["observations"][3]["answers"]["3"] = True
    record = Record.from_dict(data)
    rushed = deduce(record, time_limit=1e-6)
    assert rushed.status == "inconsistent" and rushed.proofs == "minimal"
    assert not consistent(record, rushed.conflict)
    for drop in rushed.conflict:
        assert consistent(record, [a for a in rushed.conflict if a != drop])


def test_case_6_a_60_turn_6_player_record_answers_within_its_time_limit() -> None:
    record = hidden_deal_record(6, 60, seed=6060)
    start = time.perf_counter()
    result = deduce(record, time_limit=1.0)
    elapsed = time.perf_counter() - start
    # Counting and minimal proofs come first (about a second), then at most 1 s of search.
    assert elapsed < 15, elapsed
    assert result.posterior.deals == 1 and len(result.forced) == 18
    assert result.proofs == ("smallest" if all(f.smallest for f in result.forced) else "minimal")
    for f in result.forced:
        k = CATEGORIES.index(f.category)
        assert _forces(record, f.proof, f.player, k, f.value)
        for drop in f.proof:
            assert not _forces(record, tuple(a for a in f.proof if a != drop), f.player, k, f.value)


def test_progress_bar_on_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    deduce(example_record(), progress=True)
    assert "smallest proofs" in capsys.readouterr().err
    deduce(example_record())
    assert capsys.readouterr().err == ""
