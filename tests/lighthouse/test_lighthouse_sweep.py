"""Lighthouses: the start values against the full tables, and the reference sweep too.

The full-table DPs are checked against a plain recursive brute force in
tests/lighthouse/test_lighthouse.py; here the start values of ``win_probability`` (the
class DP and the greedy sweep) and the reference's memory-bounded sweep are
compared with the tables, and with each other.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tests.lighthouse.reference as reference
from isles.models.errors import InvalidInput
from isles.models.lighthouse.kit import BOAT, Kit, default_kit
from isles.solvers.lighthouse.dp import solve
from isles.solvers.lighthouse.start_values import win_probability
from tests.lighthouse.test_lighthouse import brute_force, tiny_kits

SWEEPS: dict[str, Callable[..., Any]] = {
    "start values": win_probability,
    "reference sweep": reference.win_probability,
}


@pytest.mark.parametrize("sweep", sorted(SWEEPS))
@pytest.mark.parametrize("kit", [default_kit(1, 3), default_kit(2, 2)], ids=["1x3", "2x2"])
@pytest.mark.parametrize("policy", ["optimal", "greedy", "random"])
def test_sweep_equals_brute_force_as_fractions(kit: Kit, policy: str, sweep: str) -> None:
    start = SWEEPS[sweep](kit, policy, exact=True)
    assert start.exact_win_probability() == brute_force(kit, policy)
    table = solve(kit, policy, exact=True)
    for k in range(1, kit.sea_cards + 1):
        assert start.exact_win_probability(k) == table.exact_win_probability(k)


@settings(max_examples=6)
@given(tiny_kits(), st.sampled_from(["optimal", "greedy", "random"]))
def test_sweep_equals_full_table_on_random_tiny_kits_as_fractions(kit: Kit, policy: str) -> None:
    start = reference.win_probability(kit, policy, exact=True)
    table = solve(kit, policy, exact=True)
    assert start.by_sea_cards == tuple(
        table.exact_win_probability(k) for k in range(1, kit.sea_cards + 1)
    )
    assert all(isinstance(v, Fraction) for v in start.by_sea_cards)


palette = ["red", "blue", "green", "orange"]


@st.composite
def small_kits(draw: st.DrawFn) -> Kit:
    """Up to 3 islands over 4 colours, dice with extra and unusable faces, 1-6 sea cards."""
    n = draw(st.integers(1, 3))
    islands = [
        tuple(draw(st.lists(st.sampled_from(palette), min_size=2, max_size=2, unique=True)))
        for _ in range(n)
    ]
    needed = sorted({c for isl in islands for c in isl})
    dice = []
    for _ in range(2):
        extra = draw(st.lists(st.sampled_from([BOAT, *palette, "black"]), max_size=3))
        dice.append(tuple(draw(st.permutations([BOAT, *needed, *extra]))))
    return Kit(tuple((a, b) for a, b in islands), (dice[0], dice[1]), draw(st.integers(1, 6)))


@settings(max_examples=15, deadline=None)
@given(small_kits(), st.sampled_from(["optimal", "greedy", "random"]))
def test_sweep_equals_full_table_on_random_small_kits_as_floats(kit: Kit, policy: str) -> None:
    start = reference.win_probability(kit, policy)
    ours = win_probability(kit, policy)
    table = reference.solve(kit, policy)
    assert start.error_bound == table.error_bound > 0
    assert start.status == table.status == ours.status
    for k in range(1, kit.sea_cards + 1):
        assert abs(start.win_probability(k) - table.win_probability(k)) <= table.error_bound
        assert abs(ours.win_probability(k) - table.win_probability(k)) <= ours.error_bound
    assert start.exact_win_probability() is None and ours.exact_win_probability() is None


@pytest.mark.parametrize("sweep", sorted(SWEEPS))
def test_sweep_floats_within_bound_of_exact_sweep_and_ordered_by_sea_cards(sweep: str) -> None:
    kit = default_kit(3, 4)
    floats = SWEEPS[sweep](kit)
    exact = SWEEPS[sweep](kit, exact=True)
    for k in range(1, 5):
        exact_k = exact.exact_win_probability(k)
        assert exact_k is not None
        assert abs(floats.win_probability(k) - float(exact_k)) <= floats.error_bound
    values = floats.by_sea_cards
    assert list(values) == sorted(values)  # more sea cards never lower the optimal odds
    assert 0 < values[0] < values[-1] < 1


def test_sweep_of_the_default_kit_matches_the_full_table_for_every_policy() -> None:
    kit = default_kit(3, 8)
    start = {p: reference.win_probability(kit, p) for p in ("optimal", "greedy", "random")}
    for p, s in start.items():
        table = solve(kit, p)
        for k in range(1, 9):
            assert abs(s.win_probability(k) - table.win_probability(k)) <= s.error_bound
        assert win_probability(kit, p).by_sea_cards == pytest.approx(s.by_sea_cards, abs=1e-15)
    four = default_kit(4, 8)
    assert abs(
        reference.win_probability(four).win_probability() - solve(four).win_probability()
    ) <= (solve(four).error_bound)
    assert start["optimal"].win_probability() >= start["random"].win_probability()
    assert start["optimal"].win_probability() >= start["greedy"].win_probability()


@pytest.mark.parametrize("sweep", sorted(SWEEPS))
def test_sweep_bad_input(sweep: str) -> None:
    nine = Kit((*default_kit(8).islands, ("red", "blue")), default_kit(8).dice, 1)
    with pytest.raises(InvalidInput, match="islands"):
        SWEEPS[sweep](nine)
    with pytest.raises(InvalidInput, match="exact"):
        SWEEPS[sweep](default_kit(5, 1), exact=True)
    with pytest.raises(InvalidInput, match="policy"):
        SWEEPS[sweep](default_kit(1, 1), "clever")
    start = SWEEPS[sweep](default_kit(1, 2))
    with pytest.raises(InvalidInput, match="sea_cards"):
        start.win_probability(3)
    with pytest.raises(InvalidInput, match="sea_cards"):
        start.win_probability(0)


REFERENCE_SIX = {
    "greedy": (
        0.011856599446635507,
        0.043231038275014434,
        0.10830432772454267,
        0.21240535486337828,
        0.3462014722936616,
        0.49352323010171584,
        0.6333834796162952,
        0.7522899259243802,
    ),
    "random": (
        0.0117986578830363,
        0.043376995431897575,
        0.10888316732338667,
        0.214298604616788,
        0.34944970939357106,
        0.49834895407245833,
        0.6389819154873597,
        0.7580130103622634,
    ),
}
"""The reference sweep's start values of 6 islands, 8 sea cards, by sea cards (printed by
``reference.win_probability(default_kit(6, 8), policy)``: 53 s and 98 s, too long to rerun
in every test run)."""


@pytest.mark.parametrize("policy", ["greedy", "random"])
def test_six_islands_greedy_and_random_equal_the_reference(policy: str) -> None:
    ours = win_probability(default_kit(6, 8), policy).by_sea_cards
    if policy == "greedy":
        # Code by code in the reference's order of arithmetic: the very same floats.
        assert ours == REFERENCE_SIX[policy]
    else:
        # Classes of the colour group sum their rolls in another order: a few ulps.
        assert max(abs(a - b) for a, b in zip(ours, REFERENCE_SIX[policy], strict=True)) <= 1e-12
