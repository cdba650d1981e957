"""The faster belief the search policy plays on (issue 22): the same numbers as the
plain counts, and the search's flips below the flip-search budget are the built-in ones."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from isles.models.plunder.codes import CATEGORIES, COPIES, VALUES, Code, answer
from isles.models.plunder.play import PlayerView, play_game
from isles.models.plunder.record import Observation
from isles.solvers.plunder import search as plunder_search
from isles.solvers.plunder.belief import Belief, _entropy
from isles.solvers.plunder.policies import best_flip
from isles.solvers.plunder.registry import policy_by_name
from isles.solvers.plunder.search import SearchPolicy


def _position(seed: int) -> tuple[Belief, Code, int, tuple[tuple[int, ...], ...]]:
    """A belief after one to three random turns, a clue, an active player, cards seen."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(3, 7))
    cols = [rng.permutation(VALUES)[:n] for _ in CATEGORIES]
    deal = [Code(*(int(c[p]) for c in cols)) for p in range(n)]
    me = int(rng.integers(n))
    belief = Belief.start(n, me, deal[me])
    for _ in range(int(rng.integers(1, 4))):
        active = int(rng.integers(n))
        clue = Code(*(int(v) for v in rng.integers(VALUES, size=3)))
        answers = {p: answer(deal[p], clue) for p in range(n) if p != active}
        belief = belief.observe(Observation(active, clue, answers))
    clue = Code(*(int(v) for v in rng.integers(VALUES, size=3)))
    seen = tuple(tuple(int(x) for x in rng.integers(0, COPIES + 1, size=VALUES)) for _ in range(3))
    return belief, clue, int(rng.integers(n)), seen


def _flip_bits_plain(
    b: Belief, clue: Code, active: int, seen: tuple[tuple[int, ...], ...]
) -> list[tuple[int | None, float, list[tuple[int, int, int, float]]]]:
    """flip_bits written out from answer_counts, one clue at a time."""
    out: list[tuple[int | None, float, list[tuple[int, int, int, float]]]] = [
        (None, _entropy(b.answer_counts(clue, active)), [])
    ]
    for k in range(3):
        left = [COPIES - seen[k][v] for v in range(VALUES)]
        total = sum(left)
        if not total:
            continue
        cards = [
            (v, left[v], total, _entropy(b.answer_counts(clue.replace(CATEGORIES[k], v), active)))
            for v in range(VALUES)
            if left[v]
        ]
        out.append((k, sum(n / total * x for _, n, _, x in cards), cards))
    return out


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6))
def test_flip_bits_on_stored_deals_equal_the_plain_counts(seed: int) -> None:
    belief, clue, active, seen = _position(seed)
    assert belief.flip_bits(clue, active, seen) == _flip_bits_plain(belief, clue, active, seen)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6))
def test_code_counts_of_every_opponent_equal_one_count_each(seed: int) -> None:
    belief, *_ = _position(seed)
    a, b, c = belief._abc  # type: ignore[misc]
    part = belief._t.code_part
    for j, p in enumerate(belief.opponents):
        codes = part[0][j].take(a) + part[1][j].take(b) + part[2][j].take(c)
        plain = np.bincount(codes, minlength=VALUES**3)
        assert (belief.code_counts(p) == plain).all()
        code, count = belief.best_code(p)
        assert (code.index, count) == (int(np.argmax(plain)), int(plain.max()))


class _Flips:
    """A search seat whose flips are checked against the most informative one."""

    def __init__(self, inner: object) -> None:
        self.inner = inner
        self.flips = 0

    def flip(self, view: PlayerView) -> object:
        out = self.inner.flip(view)  # type: ignore[attr-defined]
        assert out == best_flip(self.inner.belief, view)  # type: ignore[attr-defined]
        self.flips += 1
        return out

    def crew(self, view: PlayerView) -> object:
        return self.inner.crew(view)  # type: ignore[attr-defined]


def test_below_the_flip_search_budget_the_search_flips_for_information(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With the flip for the digs off (DIG_FLIP; tested in test_plunder_search.py),
    below the flip-search budget the search flips as the built-in policies do."""
    monkeypatch.setattr(plunder_search, "FLIP_SEARCH_BUDGET", 5)
    monkeypatch.setattr(plunder_search, "DIG_FLIP", False)
    budget = plunder_search.FLIP_SEARCH_BUDGET - 1
    seats: list[_Flips] = []

    class _One:
        name = "one"

        def seat(self, players: int, player: int, code: Code, rng: np.random.Generator) -> object:
            seats.append(_Flips(SearchPolicy(budget).seat(players, player, code, rng)))
            return seats[-1]

    other = policy_by_name("threshold")
    play_game([_One(), other, other], seed=4, turn_limit=8)  # type: ignore[list-item]
    assert seats[0].flips >= 2


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6))
def test_deals_at_lists_the_deals_one_row_at_a_time_would(seed: int) -> None:
    """The vectorised deals_at against the plain decoding of one row at a time (the loop
    it replaced), and every deal it lists is possible: my code, the values of each deck
    dealt once, every answer of the record truthful."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 7))
    cols = [rng.permutation(VALUES)[:n] for _ in CATEGORIES]
    deal = [Code(*(int(c[p]) for c in cols)) for p in range(n)]
    me = int(rng.integers(n))
    belief, record = Belief.start(n, me, deal[me]), []
    for _ in range(int(rng.integers(0, 4))):
        active = int(rng.integers(n))
        clue = Code(*(int(v) for v in rng.integers(VALUES, size=3)))
        record.append(
            Observation(active, clue, {p: answer(deal[p], clue) for p in range(n) if p != active})
        )
        belief = belief.observe(record[-1])
    rows = rng.integers(0, belief.deals, size=min(200, belief.deals))
    part, perms = belief._t.code_part, belief._perms
    plain = []
    for r in rows:
        if belief._abc is None:
            a, b, c = int(r) // (perms * perms), int(r) // perms % perms, int(r) % perms
        else:
            a, b, c = (int(x[r]) for x in belief._abc)
        row = [belief.code] * n
        for j, q in enumerate(belief.opponents):
            row[q] = Code.from_index(int(part[0][j, a] + part[1][j, b] + part[2][j, c]))
        plain.append(tuple(row))
    listed = belief.deals_at(rows)
    assert listed == plain and belief.deals_at([]) == []
    for got in listed:
        assert got[me] == deal[me]
        for k in range(3):
            assert len({code.values[k] for code in got}) == n
        for obs in record:
            assert all(answer(got[p], obs.clue) == x for p, x in obs.answers.items())
