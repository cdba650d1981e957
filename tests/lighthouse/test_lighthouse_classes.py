"""Lighthouses, the class engine: every position against the full-table DP and a plain recursion.

docs/lighthouse.md (seed 000_aeb701e368f40145.txt): the engine's value
of a position must be the full tables' (tests/test_lighthouse*.py check those
against their own brute force), element for element, and a memoised recursion
over ``legal_decisions`` / ``play_turn`` on tiny kits, with and without the
colour group, for dice that break the symmetry and for random kits.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction
from functools import cache

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from isles.models.errors import InvalidInput
from isles.models.lighthouse.kit import BOAT, DEFAULT_COLOURS, DEFAULT_ISLANDS, Kit, default_kit
from isles.models.lighthouse.position import Position
from isles.models.lighthouse.rules import Outcome, legal_decisions, play_turn, roll_outcomes
from isles.solvers.compiled import HAVE_NUMBA
from isles.solvers.lighthouse.advice import solve_from
from isles.solvers.lighthouse.classes import ClassIndex
from isles.solvers.lighthouse.dp import solve
from isles.solvers.lighthouse.solution import LighthouseSolution, error_bound
from isles.solvers.lighthouse.symmetry import colour_group
from tests.lighthouse.reference import FullTables
from tests.lighthouse.reference import solve as full_table

BACKENDS = ["numpy", "numba"] if HAVE_NUMBA else ["numpy"]


def engine_table(sol: LighthouseSolution) -> npt.NDArray[np.float64]:
    """The engine's values in the full tables' layout: (8**n codes, sea_cards + 1, n)."""
    n = len(sol.kit.islands)
    index = sol.index
    assert isinstance(index, ClassIndex)
    coding = index.coding
    open_states, pool = coding.codes_to_state(np.arange(8**n))
    keys, _ = coding.canonical(open_states, pool)
    rows = index.indices(keys, coding.discs_laid(open_states, pool))
    assert (rows >= 0).all()
    return np.asarray(sol.values[rows])


def finished(n: int) -> npt.NDArray[np.bool_]:
    """Codes whose every lighthouse is full (the full tables keep 1 there, the engine too)."""
    full: npt.NDArray[np.bool_] = np.arange(8**n) == sum(7 * 8**i for i in range(n))
    return full


def brute_force(kit: Kit) -> Callable[[Position], Fraction]:
    """Plain memoised recursion over positions, whole decisions from the model."""
    rolls = roll_outcomes(kit)

    def after(pos: Position, roll: object, decision: object) -> Fraction:
        res = play_turn(kit, pos, roll, decision, check=False)  # type: ignore[arg-type]
        if res.outcome is Outcome.WON:
            return Fraction(1)
        if res.outcome is Outcome.LOST:
            return Fraction(0)
        return value(res.position)

    @cache
    def value(pos: Position) -> Fraction:
        if pos.is_won():
            return Fraction(1)
        return sum(
            (
                roll.probability * max(after(pos, roll, d) for d in legal_decisions(kit, pos, roll))
                for roll in rolls
            ),
            Fraction(0),
        )

    return value


def reachable_positions(kit: Kit, start: Position) -> list[Position]:
    """Every position that play can reach from ``start`` (won and lost ones excluded)."""
    seen = {start}
    todo = [start]
    while todo:
        pos = todo.pop()
        for roll in roll_outcomes(kit):
            for d in legal_decisions(kit, pos, roll):
                res = play_turn(kit, pos, roll, d, check=False)
                if res.outcome is Outcome.PLAYING and res.position not in seen:
                    seen.add(res.position)
                    todo.append(res.position)
    return sorted(seen, key=lambda p: (p.discs_laid, p.boat, p.maurice, p.discs))


def playout(kit: Kit, turns: int, seed: int) -> Position:
    """The position after up to ``turns`` random turns (random rolls and decisions)."""
    rng = random.Random(seed)
    rolls = roll_outcomes(kit)
    weights = [float(r.probability) for r in rolls]
    pos = Position.start(kit)
    for _ in range(turns):
        roll = rng.choices(rolls, weights)[0]
        res = play_turn(kit, pos, roll, rng.choice(legal_decisions(kit, pos, roll)), check=False)
        if res.outcome is not Outcome.PLAYING:
            break
        pos = res.position
    return pos


# --- against the full-table DP ---------------------------------------------------------------


@pytest.fixture(scope="module")
def six() -> tuple[FullTables, LighthouseSolution]:
    kit = default_kit(6, 3)
    return full_table(kit), solve(kit)


def test_six_islands_every_position_equals_the_full_tables(
    six: tuple[FullTables, LighthouseSolution],
) -> None:
    old, new = six
    mine = engine_table(new)
    theirs = old.values[:, : new.kit.sea_cards + 1]
    play = ~finished(6)
    assert np.abs(mine[play] - theirs[play]).max() <= 1e-15
    assert new.by_sea_cards == pytest.approx([old.win_probability(k) for k in (1, 2, 3)], abs=1e-15)
    assert new.classes == 114_111 and new.index.group_size == 2


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_every_position_equals_the_full_tables(n: int, backend: str) -> None:
    kit = default_kit(n, 4)
    old = full_table(kit).values[:, :5]
    play = ~finished(n)
    new = engine_table(solve(kit, backend=backend))  # type: ignore[arg-type]
    assert np.abs(new[play] - old[play]).max() <= 1e-15
    # Without the group, each class is a code up to pooling: the same arithmetic in the
    # same order, so the very same floats.
    plain = engine_table(solve(kit, symmetric=False, backend=backend))  # type: ignore[arg-type]
    assert np.array_equal(plain[play], old[play])


@pytest.mark.parametrize("n", [1, 2, 3])
def test_fractions_equal_the_full_tables_fractions(n: int) -> None:
    kit = default_kit(n, 3)
    old = full_table(kit, exact=True).values[:, :4]
    new = engine_table(solve(kit, exact=True))
    play = ~finished(n)
    assert all(isinstance(v, Fraction) for v in new[play].ravel())
    assert (new[play] == old[play]).all()


def test_numba_and_numpy_kernels_give_the_same_floats() -> None:
    if not HAVE_NUMBA:
        pytest.skip("numba is not installed")
    kit = default_kit(5, 6)
    a, b = solve(kit, backend="numpy"), solve(kit, backend="numba")
    assert np.array_equal(a.values, b.values)


def test_floats_within_the_error_bound_of_the_fractions() -> None:
    kit = default_kit(3, 4)
    floats, exact = solve(kit), solve(kit, exact=True)
    diff = np.abs(floats.values - exact.values.astype(np.float64)).max()
    assert diff <= floats.error_bound
    assert floats.error_bound == error_bound(kit, 21) and exact.error_bound == 0
    assert exact.exact_win_probability() == Fraction(exact.values[0, 0, 0])
    assert floats.exact_win_probability() is None


# --- against a plain recursion over the model ------------------------------------------------

ASYMMETRIC = Kit(
    (("red", "blue"), ("green", "orange")),
    (("boat", "red", "blue", "green", "orange", "red"), ("boat", "red", "blue", "green", "orange")),
    2,
)
"""Two islands, an extra red face on the first die: red is no longer like blue."""


@pytest.mark.parametrize("symmetric", [True, False], ids=["group", "identity"])
@pytest.mark.parametrize(
    "kit",
    [default_kit(1, 3), default_kit(2, 2), ASYMMETRIC],
    ids=["1x3", "2x2", "asymmetric"],
)
def test_every_reachable_position_equals_the_recursion(kit: Kit, symmetric: bool) -> None:
    truth = brute_force(kit)
    sol = solve(kit, symmetric=symmetric, exact=True)
    for pos in reachable_positions(kit, Position.start(kit)):
        assert sol.value(pos) == truth(pos), pos
    assert sol.exact_win_probability() == truth(Position.start(kit))


def test_dice_that_break_the_symmetry_shrink_the_group() -> None:
    assert colour_group(default_kit(2, 2)).size == 8
    group = colour_group(ASYMMETRIC)
    # Red is rolled more often: only blue stays free to move, and only with red fixed;
    # green and orange may swap.
    assert group.size == 2
    assert all(group.images(g)["red"] == "red" for g in range(group.size))
    assert group.images(1) == {"red": "red", "blue": "blue", "green": "orange", "orange": "green"}


palette = ["red", "blue", "green", "orange"]


@st.composite
def tiny_kits(draw: st.DrawFn) -> Kit:
    """1 or 2 islands over four colours (pairs may repeat), dice with extra and unusable faces."""
    n = draw(st.integers(1, 2))
    islands = [
        tuple(draw(st.lists(st.sampled_from(palette), min_size=2, max_size=2, unique=True)))
        for _ in range(n)
    ]
    needed = sorted({c for isl in islands for c in isl})
    dice = []
    for _ in range(2):
        extra = draw(st.lists(st.sampled_from([BOAT, *palette, "black"]), max_size=2))
        dice.append(tuple(draw(st.permutations([BOAT, *needed, *extra]))))
    return Kit(tuple((a, b) for a, b in islands), (dice[0], dice[1]), draw(st.integers(1, 2)))


@settings(max_examples=8)
@given(tiny_kits())
def test_random_tiny_kits_equal_the_recursion_with_and_without_the_group(kit: Kit) -> None:
    truth = brute_force(kit)
    group = solve(kit, exact=True)
    plain = solve(kit, symmetric=False, exact=True)
    for pos in reachable_positions(kit, Position.start(kit)):
        assert group.value(pos) == plain.value(pos) == truth(pos), pos


@settings(max_examples=8)
@given(tiny_kits(), st.sampled_from(BACKENDS))
def test_random_tiny_kits_in_floats_within_the_bound(kit: Kit, backend: str) -> None:
    exact = solve(kit, exact=True)
    floats = solve(kit, backend=backend)  # type: ignore[arg-type]
    assert np.abs(floats.values - exact.values.astype(np.float64)).max() <= floats.error_bound


# --- start values, positions after some turns, the result ------------------------------------


def test_start_values_for_every_sea_card_count_from_one_solve() -> None:
    kit = default_kit(4, 8)
    sol = solve(kit)
    old = full_table(kit)
    assert sol.by_sea_cards == pytest.approx(
        [old.win_probability(k) for k in range(1, 9)], abs=1e-15
    )
    assert round(sol.win_probability(), 6) == 0.961347
    for k in range(1, 9):
        # k sea cards: the boat already on card 8 - k of the 8-card game
        assert sol.win_probability(k) == sol.value(Position(Position.start(kit).discs, 8 - k, 0))


@pytest.mark.parametrize("seed", range(4))
def test_solving_from_a_position_gives_the_full_solve_values(seed: int) -> None:
    kit = default_kit(5, 6)
    full = solve(kit)
    pos = playout(kit, 3 + seed, seed)
    part = solve_from(kit, pos)
    assert part.classes < full.classes
    assert part.value(pos) == full.value(pos)
    for roll in roll_outcomes(kit):
        for d in legal_decisions(kit, pos, roll):
            res = play_turn(kit, pos, roll, d, check=False)
            if res.outcome is Outcome.PLAYING:
                assert part.value(res.position) == full.value(res.position)
    with pytest.raises(InvalidInput):
        part.win_probability()


def test_the_result_says_what_it_is() -> None:
    sol = solve(default_kit(3, 2))
    assert sol.status == "optimal"
    assert sol.positions == sol.classes * 3 * 3
    assert 0 < sol.error_bound < 1e-11
    won = Position(tuple((a, b, a, b) for a, b in sol.kit.islands), 0, 0)
    assert sol.value(won) == 1.0


NINE = Kit(
    (*DEFAULT_ISLANDS, ("red", "orange")),
    (("boat", *DEFAULT_COLOURS), ("boat", *DEFAULT_COLOURS)),
    2,
)


@pytest.mark.parametrize(
    ("call", "field"),
    [
        (lambda: solve(NINE), "kit.islands"),
        (lambda: solve(default_kit(5, 2), exact=True), "exact"),
        (lambda: solve(default_kit(2, 2), backend="fortran"), "backend"),  # type: ignore[arg-type]
        (lambda: solve(default_kit(2, 2)).win_probability(3), "sea_cards"),
        (lambda: solve(default_kit(2, 2)).win_probability(0), "sea_cards"),
        (lambda: solve(default_kit(2, 2)).value(Position(((), ()), 5, 0)), "position.boat"),
        (lambda: solve(default_kit(2, 2), exact=True, backend="numba"), "backend"),
    ],
)
def test_bad_input_names_the_field(call: Callable[[], object], field: str) -> None:
    if field == "backend" and not HAVE_NUMBA:
        pytest.skip("numba is not installed")
    with pytest.raises(InvalidInput) as err:
        call()
    assert err.value.field == field


# --- the real game (marked slow: about a minute and 2.5 GiB; pytest -m slow) -----------------


@pytest.mark.slow
@pytest.mark.parametrize(
    ("n", "known"), [(7, 0.6989768769580588), (8, 0.5745461897731887)], ids=["7", "8"]
)
def test_the_real_game(n: int, known: float) -> None:
    # The values of the reference sweep (docs/lighthouse.md, "Measured").
    sol = solve(default_kit(n, 8))
    assert abs(sol.win_probability() - known) <= 1e-9
    assert sol.win_probability() == known  # the same arithmetic as the sweep: the same float
