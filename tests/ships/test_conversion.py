"""A ship becoming a settlement (seed rule 10): the solver against a plain value iteration
over the rules and against every stationary steering on tiny boards; the exact odds within
k rolls against an enumeration of the roll sequences."""

from __future__ import annotations

import itertools
import json
import random
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from isles.models.board import Board
from isles.models.catan import Resource, Terrain, Tile, pips
from isles.models.errors import InvalidInput
from isles.models.hexgrid import Edge, Hex, edge
from isles.models.ships.demo import demo_board
from isles.models.ships.limits import ROLLS
from isles.models.ships.settlements import conversion_edges, converts
from isles.models.ships.winds import ship_edges, ship_options
from isles.models.status import Status
from isles.ships import convert
from isles.solvers.ships.navigation import Reach

P = {n: Fraction(pips(n), 36) for n in ROLLS}
NUMBERS = [2, 3, 4, 5, 6, 8, 9, 10, 11, 12]
CAP = 1e4


def tiny_board(seed: int, radius: int = 2) -> Board:
    """A random board on the hexagon of ``radius``: sea (some without a token), hills, forest."""
    rng = random.Random(seed)
    tiles = {}
    for q in range(-radius, radius + 1):
        for r in range(-radius, radius + 1):
            if abs(q + r) > radius:
                continue
            roll = rng.random()
            if roll < 0.6:
                tiles[Hex(q, r)] = Tile(Terrain.SEA, rng.choice([None, 4, 5, 6, 8, 9, 10]))
            else:
                terrain = Terrain.HILLS if roll < 0.8 else Terrain.FOREST
                tiles[Hex(q, r)] = Tile(terrain, rng.choice([5, 6, 8, 9]))
    return Board(tiles)


def plain_values(
    board: Board, missing: Resource, on_turn: bool, players: int, may_stay: bool
) -> dict[tuple[Edge, int], float]:
    """Value iteration (Gauss-Seidel sweeps) straight from the rules (``ship_options``,
    ``converts``), in floats; states that never convert saturate at ``CAP``."""
    phases = players if on_turn else 1
    spots = set(conversion_edges(board, missing))
    edges = ship_edges(board)
    # Per state: (probability, [(next state or None when the move converts)]) per roll.
    moves = {}
    for e in edges:
        for k in range(phases):
            rolls = []
            for n in ROLLS:
                if converts(board, e, n, missing):
                    continue
                nexts = [
                    None if on_turn and k == 0 and x in spots else (x, (k + 1) % phases)
                    for x in ship_options(board, e, n, may_stay)
                ]
                rolls.append((float(P[n]), nexts))
            moves[(e, k)] = rolls
    # States that can convert at all (a plain fixpoint); the others stay at CAP.
    able: set[tuple[Edge, int]] = set()
    grew = True
    while grew:
        grew = False
        for s, rolls in moves.items():
            if s not in able and (
                len(rolls) < len(ROLLS)
                or any(x is None or x in able for _, nexts in rolls for x in nexts)
            ):
                able.add(s)
                grew = True
    v = {s: 0.0 if s in able else CAP for s in moves}
    moves = {s: rolls for s, rolls in moves.items() if s in able}
    for _ in range(200_000):
        change = 0.0
        for s, rolls in moves.items():
            total = 1.0
            for p, nexts in rolls:
                total += p * min(0.0 if x is None else v[x] for x in nexts)
            change = max(change, abs(total - v[s]))
            v[s] = total
        if change < 1e-10:
            break
    return v


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize(("on_turn", "may_stay"), [(False, False), (True, False), (True, True)])
def test_against_plain_value_iteration(seed: int, on_turn: bool, may_stay: bool) -> None:
    board = tiny_board(seed)
    missing = Resource.BRICK
    if not conversion_edges(board, missing):
        pytest.skip("no hills on the coast")
    players = 3
    plain = plain_values(board, missing, on_turn, players, may_stay)
    start = ship_edges(board)[0]
    c = convert(board, start, missing, on_turn=on_turn, players=players, may_stay=may_stay)
    for (e, k), value in plain.items():
        got = c.expected_rolls_from(e, k if on_turn else None)
        if got is None:
            assert value == CAP  # never converts
        else:
            assert got == pytest.approx(value, rel=1e-7)
            assert c.error_bound is not None and c.error_bound < 1e-6


def _evaluate(
    board: Board, missing: Resource, policy: dict[tuple[Edge, int], Edge]
) -> dict[Edge, Fraction]:
    """Exact expected rolls of a stationary steering, by Gaussian elimination in Fractions."""
    edges = ship_edges(board)
    idx = {e: i for i, e in enumerate(edges)}
    n = len(edges)
    rows = [[Fraction(0)] * (n + 1) for _ in range(n)]
    for e in edges:
        i = idx[e]
        rows[i][i] += 1
        rows[i][n] = Fraction(1)
        for r in ROLLS:
            if converts(board, e, r, missing):
                continue
            rows[i][idx[policy[(e, r)]]] -= P[r]
    # Gauss-Jordan; singular columns (improper steering) give None.
    for col in range(n):
        pivot = next((r for r in range(col, n) if rows[r][col] != 0), None)
        if pivot is None:
            return {}
        rows[col], rows[pivot] = rows[pivot], rows[col]
        inv = 1 / rows[col][col]
        rows[col] = [x * inv for x in rows[col]]
        for r in range(n):
            if r != col and rows[r][col] != 0:
                f = rows[r][col]
                rows[r] = [a - f * b for a, b in zip(rows[r], rows[col], strict=True)]
    return {e: rows[idx[e]][n] for e in edges}


def test_against_every_stationary_steering() -> None:
    """A tiny island: the best of every steering (exact Fractions) is the solver's value."""
    tiles = {Hex(0, 0): Tile(Terrain.HILLS, 6)}
    for h, n in zip(
        [Hex(1, 0), Hex(1, -1), Hex(0, -1), Hex(-1, 0), Hex(-1, 1), Hex(0, 1)],
        [8, 5, 8, 9, 4, 10],
        strict=True,
    ):
        tiles[h] = Tile(Terrain.SEA, n)
    board = Board(tiles)
    missing = Resource.BRICK
    edges = ship_edges(board)
    choices = {
        (e, r): sorted(set(ship_options(board, e, r)))
        for e in edges
        for r in ROLLS
        if not converts(board, e, r, missing)
    }
    free = [key for key, opts in choices.items() if len(opts) > 1]
    assert 0 < len(free) <= 14
    best: dict[Edge, Fraction] = {}
    for pick in itertools.product(*(choices[k] for k in free)):
        policy = {k: opts[0] for k, opts in choices.items()}
        policy.update(dict(zip(free, pick, strict=True)))
        values = _evaluate(board, missing, policy)
        for e, v in values.items():
            if v >= 0 and (e not in best or v < best[e]):
                best[e] = v
    for e in edges:
        c = convert(board, e, missing)
        assert c.expected_rolls == pytest.approx(float(best[e]), rel=1e-10)


def _enumerated_within(c: object, board: Board, start: Edge, k: int) -> Fraction:
    """Chance of converting within ``k`` rolls following ``c.steer``, over all 11**k roll
    sequences (no variant)."""

    def go(e: Edge, left: int) -> Fraction:
        if left == 0:
            return Fraction(0)
        total = Fraction(0)
        for n in ROLLS:
            if converts(board, e, n, Resource.BRICK):
                total += P[n]
            else:
                total += P[n] * go(c.steer(e, n), left - 1)  # type: ignore[attr-defined]
        return total

    return go(start, k)


def test_within_odds_are_exact() -> None:
    board = demo_board()
    start = edge((0, 2), (1, 2))
    c = convert(board, start, Resource.BRICK, within=(0, 1, 2, 3))
    for k, p in c.within:
        assert p == _enumerated_within(c, board, start, k)
    assert c.within[1][1] == 0 < c.within[2][1]  # 0,2:1,2 is no spot: a 10 or 11 first


def test_variant_converts_sooner_and_spots() -> None:
    board = demo_board()
    start = edge((0, 1), (0, 2))
    plain = convert(board, start, "brick")
    turn = convert(board, start, "brick", on_turn=True)
    assert plain.expected_rolls is not None and turn.expected_rolls is not None
    assert turn.expected_rolls < plain.expected_rolls
    assert plain.status is Status.OPTIMAL and plain.reach is Reach.REACHABLE
    assert plain.best_spot is not None and str(plain.best_spot.edge) == "-1,3:0,3"
    assert [s.number for s in plain.spots] == [5, 5, 5, 8, 8]
    for s in plain.spots:
        assert s.expected_rolls is not None and s.expected_rolls >= plain.expected_rolls - 1e-9
    later = convert(board, start, "brick", on_turn=True, rolls_to_turn=3)
    assert later.expected_rolls is not None and later.expected_rolls > turn.expected_rolls
    d = plain.to_dict()
    assert d["best_spot"]["edge"] == [[-1, 3], [0, 3]] and d["missing"] == "brick"


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"missing": "gold"}, "missing"),
        ({"missing": "ore", "players": 7}, "players"),
        ({"missing": "ore", "on_turn": True, "rolls_to_turn": 4}, "rolls_to_turn"),
        ({"missing": "ore", "within": (101,)}, "within[0]"),
    ],
)
def test_refusals(kwargs: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidInput) as info:
        convert(demo_board(), edge((0, 1), (0, 2)), **kwargs)
    assert info.value.field == field


def test_no_spot_refused() -> None:
    board = Board({Hex(0, 0): Tile(Terrain.SEA, 6), Hex(1, 0): Tile(Terrain.FOREST, 5)})
    with pytest.raises(InvalidInput, match="missing"):
        convert(board, edge((0, 0), (1, 0)), Resource.BRICK)


def test_cli_convert(capsys: pytest.CaptureFixture[str]) -> None:
    from isles.cli import main

    status = main(["ships", "convert", "--from", "0,1:0,2", "--missing", "brick", "--json"])
    out, err = capsys.readouterr()
    assert status == 0 and err == ""
    # one default in Python and on the command line: 5, 10 and 20 rolls
    want = convert(demo_board(), edge((0, 1), (0, 2)), "brick").to_dict()
    assert json.loads(out) == want
    status = main(["ships", "convert", "--from", "0,1:0,2", "--missing", "brick", "--on-turn"])
    out, _ = capsys.readouterr()
    assert status == 0 and "without the variant: 42.87" in out and "<- best" in out
    try:
        status = main(
            [
                "ships",
                "convert",
                "--from",
                "0,1:0,2",
                "--missing",
                "brick",
                "--players",
                "3",
                "--rolls-to-turn",
                "3",
            ]
        )
    except SystemExit as exc:
        status = int(exc.code or 0)
    _, err = capsys.readouterr()
    assert status == 2 and err.count("\n") == 1 and "--rolls-to-turn" in err


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(3, 6), may_stay=st.booleans())
def test_properties_on_random_boards(seed: int, players: int, may_stay: bool) -> None:
    """The variant never makes it slower; any spot is at least as good as the best one
    alone; the odds grow with the horizon and stay below 1."""
    board = tiny_board(seed)
    if not conversion_edges(board, Resource.BRICK):
        return
    start = ship_edges(board)[seed % len(ship_edges(board))]
    plain = convert(board, start, Resource.BRICK, may_stay=may_stay, within=(1, 3, 6))
    turn = convert(board, start, Resource.BRICK, on_turn=True, players=players, may_stay=may_stay)
    if plain.expected_rolls is None:
        assert plain.reach is Reach.UNREACHABLE and all(p == 0 for _, p in plain.within)
        return
    assert turn.expected_rolls is not None
    assert turn.expected_rolls <= plain.expected_rolls * (1 + 1e-9)
    best = plain.best_spot
    assert best is not None and best.expected_rolls is not None
    assert plain.expected_rolls <= best.expected_rolls * (1 + 1e-9)
    odds = [p for _, p in plain.within]
    assert odds == sorted(odds) and odds[-1] <= 1
