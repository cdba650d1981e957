"""One position of the rally as it is played, solved: its Bellman equation, one level of
reserve cards at a time.

Implements docs/rally.md ("How it is solved"; seed 002_8684547a41c0941c.txt): at
a hex whose later hexes are solved, the trades, moves and waiting window of every
card state; within a hex the cards in the reserve never fall, so the levels are
solved from the fullest reserve down, each its own small fixed point by value
iteration (its sweeps compiled in :mod:`~isles.solvers.rally.kernels` where no
gold card waits to be named).

References
----------
.. [1] R. Bellman, "A Markovian decision process", Journal of Mathematics and
   Mechanics 6(5), 679-684, 1957 (value iteration).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from scipy.sparse import csr_matrix

from isles.solvers.rally.game import FREE, NR, Game, Pos, compositions
from isles.solvers.rally.kernels import sweeps_kernel
from isles.solvers.rally.windows import Windows, split, window_values

__all__ = ["MAX_SWEEPS", "TOLERANCE", "solve_position"]

#: Value iteration stops when no expected value changes by more than this (turns).
TOLERANCE = 1e-9
MAX_SWEEPS = 2_000

#: An option from every post-trade state: its value is ``base + weight * stay``.
Option = tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]


@dataclass
class _Setup:
    """The fixed parts of one position's Bellman equation (docs/rally.md, "How it is solved")."""

    grid: npt.NDArray[np.int64]
    level: npt.NDArray[np.int64]  # cards in the reserve part: never falls within a hex
    reserve: npt.NDArray[np.int64]
    windows: Windows
    after_trade: npt.NDArray[np.int64]
    comp_idx: npt.NDArray[np.int64]  # (n, width): the post-trade states of each state
    comp_ok: npt.NDArray[np.bool_]
    options: list[Option]
    labels: list[tuple[int, int]]


def _setup(game: Game, v: int) -> _Setup:
    """The trades, the moves and the waiting window of position ``v`` (later positions solved)."""
    pos = game.positions[v]
    grid = pos.grid()
    n = len(grid)
    need = pos.need
    # The trade at once (restriction trade_at_once): full ratios of cards beyond need.
    if game.ratios is None:
        after_trade = grid.copy()
        gains = np.zeros(n, np.int64)
    else:
        ratio = np.array(game.ratios, np.int64)
        batches = np.maximum(grid - need, 0) // ratio
        after_trade = grid - batches * ratio
        gains = batches.sum(axis=1)
    targets = [j for j in range(NR) if need[j] > 0]
    # End of turn: fuel up to need in the reserve (restriction reserve), the rest in hand.
    reserve = np.minimum(grid, need)
    hand = np.minimum(grid - reserve, game.fodder)
    rolls = game.players
    windows = Windows(game, rolls, hand)
    # The options from each post-trade grid state x: their value is
    # base[o][x] + weight[o][x] * stay[x] (inf where not affordable).
    options: list[Option] = []
    labels: list[tuple[int, int]] = [(-1, -1)]  # (move index, resource paid)
    for m, move in enumerate(pos.moves):
        payers = (
            [move.resource]
            if move.resource >= 0
            else ([-1] if move.resource == FREE else list(range(NR)))
        )
        for payer in payers:
            base = np.full(n, np.inf)
            paid = np.zeros(NR, np.int64)
            if payer >= 0:
                ok = grid[:, payer] >= move.cards
                paid[payer] = move.cards
            else:
                ok = np.ones(n, bool)
            rows = np.flatnonzero(ok)
            if move.target < 0:
                after = np.zeros(len(rows))
            else:
                tgt = game.positions[move.target]
                r2 = np.minimum(reserve[rows] - paid, tgt.need)
                after = window_values(game, tgt, rolls, r2, hand[rows])
            p = float(move.p_exit)
            base[rows] = p * after
            options.append((base, np.where(ok, 1 - p, 0.0)))
            labels.append((m, payer))
    # The decisions: each grid state s trades into post-trade states x = after_trade + comp.
    kmax = int(gains.max()) if n else 0
    comp_tables = [compositions(k, targets) for k in range(kmax + 1)]
    width = max(len(c) for c in comp_tables)
    comp_idx = np.zeros((n, width), np.int64)
    comp_ok = np.zeros((n, width), bool)
    for k, table in enumerate(comp_tables):
        rows = np.flatnonzero(gains == k)
        if len(rows):
            comp_idx[rows, : len(table)] = pos.flat(after_trade[rows][:, None, :] + table[None])
            comp_ok[rows, : len(table)] = True
    level = reserve.sum(axis=1)
    return _Setup(grid, level, reserve, windows, after_trade, comp_idx, comp_ok, options, labels)


@dataclass
class _Level:
    """The Bellman equation of the states of one level, the states above it solved."""

    rows: npt.NDArray[np.int64]
    fixed: npt.NDArray[np.float64]  # the waiting window's part that leaves the level
    inner: (
        csr_matrix  # CSR (distinct rows, rows): the waiting window's part that stays in the level
    )
    distinct: npt.NDArray[np.int64]  # each row's row of ``inner`` (rows alike share one)
    gold: list[tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.float64]]]
    leaves: npt.NDArray[np.bool_]  # a positive chance of a reachable state above the level
    contraction: float  # the largest chance of staying in the level in one window


def _level(
    setup: _Setup, pos: Pos, rows: npt.NDArray[np.int64], values: npt.NDArray[np.float64]
) -> _Level:
    """Split the waiting window of ``rows`` (one level) into its fixed and its inner part."""
    n_level = len(rows)
    top = int(setup.level[rows[0]])
    local = np.full(len(setup.level), -1, np.int64)
    local[rows] = np.arange(n_level)
    windows = setup.windows.rows(rows)
    parts = split(windows, pos, setup.reserve[rows], setup.level, top, values, spread=False)
    row, col, prob = parts.inner
    distinct = int(parts.distinct.max()) + 1 if n_level else 0
    inner = csr_matrix((prob, (row, local[col])), shape=(distinct, n_level))
    gold = []
    g_row, g_state, g_k, g_prob = parts.gold
    for k in np.unique(g_k):
        sel = g_k == k
        comps = compositions(int(k), range(NR))
        targets = pos.flat(setup.grid[g_state[sel]][:, None, :] + comps[None, :, :])
        gold.append((g_row[sel], targets, g_prob[sel]))
    return _Level(
        rows,
        parts.fixed,
        inner,
        parts.distinct,
        gold,
        parts.leaves,
        float(parts.mass.max()) if n_level else 0.0,
    )


def _entries(
    matrix: csr_matrix, rows: npt.NDArray[np.int64], cols: npt.NDArray[np.int64]
) -> npt.NDArray[np.float64]:
    """The entries (rows[i], cols[i]) of a sparse matrix."""
    if len(rows) == 0:
        return np.zeros(0)
    out = matrix[rows, cols]
    out = out.toarray() if hasattr(out, "toarray") else out
    return np.asarray(out, np.float64).reshape(-1)


def _waiting(level: _Level, values: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """The value of waiting at each state of the level, for the current ``values``."""
    stay = level.fixed + (level.inner @ values[level.rows])[level.distinct]
    for row, targets, weight in level.gold:
        with np.errstate(invalid="ignore"):
            stay += np.bincount(
                row, weights=weight * values[targets].min(axis=1), minlength=len(stay)
            )
    return np.asarray(stay, dtype=np.float64)


def _self_solved(
    rest: npt.NDArray[np.float64],
    diag: npt.NDArray[np.float64],
    options: list[Option],
) -> npt.NDArray[np.float64]:
    """The values of states deciding at themselves, their chance ``diag`` of waiting into
    themselves solved: waiting ``(1 + rest) / (1 - diag)``, a move ``c + b * stay``
    ``(1 + c + b rest) / (1 - b diag)``, the least of them (``rest``: the rest of waiting)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(diag < 1, (1 + rest) / (1 - diag), np.inf)
        for base, weight in options:
            cand = np.where(
                weight > 0,
                np.where(
                    weight * diag < 1, (1 + base + weight * rest) / (1 - weight * diag), np.inf
                ),
                1 + base,
            )
            np.minimum(out, cand, out=out)
    return np.asarray(out, dtype=np.float64)


def _best_option(
    setup: _Setup, rows: npt.NDArray[np.int64], stay: npt.NDArray[np.float64]
) -> npt.NDArray[np.float64]:
    """The value of the best option (waiting, or a move) at each post-trade state of ``rows``."""
    best = stay.copy()
    for base, weight in setup.options:
        w = weight[rows]
        with np.errstate(invalid="ignore"):  # 0 * inf where a move cannot fail: not taken
            np.minimum(best, base[rows] + np.where(w > 0, w * stay, 0.0), out=best)
    return best


@dataclass
class _Solving:
    """One position being solved: its setup and its values so far (inf: not yet, or never).

    ``values`` at each state, ``best`` the best option's value at each post-trade
    state, ``waiting`` the value of waiting; ``bases`` and ``weights`` the
    options' arrays, one row each.
    """

    setup: _Setup
    pos: Pos
    values: npt.NDArray[np.float64]
    best: npt.NDArray[np.float64]
    waiting: npt.NDArray[np.float64]
    bases: npt.NDArray[np.float64]
    weights: npt.NDArray[np.float64]


def solve_position(game: Game, v: int) -> None:
    """The values of position ``v``, one level of reserve cards at a time (later positions solved).

    Within a hex the cards in the reserve part never fall (trades give away only
    cards beyond the need, income only adds, and a 7 takes from the hand), so
    the levels are solved from the fullest reserve down, each its own small
    fixed point: value iteration over the states of one level, the levels above
    it solved (docs/rally.md, "How it is solved"). The position's policy is
    written into it (``value``, ``option``, ``gained``, ``post``, ``labels``).
    """
    pos = game.positions[v]
    setup = _setup(game, v)
    n = len(setup.grid)
    solving = _Solving(
        setup,
        pos,
        np.full(n, np.inf),
        np.full(n, np.inf),
        np.full(n, np.inf),
        np.array([base for base, _ in setup.options], np.float64).reshape(-1, n),
        np.array([weight for _, weight in setup.options], np.float64).reshape(-1, n),
    )
    order = np.argsort(-setup.level, kind="stable")
    cuts = np.flatnonzero(np.diff(setup.level[order])) + 1
    for rows in np.split(order, cuts):
        _solve_level(solving, np.sort(rows))
    _read_policy(game, solving)


def _solve_level(solving: _Solving, rows: npt.NDArray[np.int64]) -> None:
    """The values of the states ``rows`` of one level, the levels above solved."""
    setup = solving.setup
    level = _level(setup, solving.pos, rows, solving.values)
    post = setup.comp_idx[rows]
    post_ok = setup.comp_ok[rows]
    can = _can_arrive(solving, level, rows, post, post_ok)
    # Reaching with a positive chance is not enough: any chance of a dead end is infinite.
    current = np.where(can, 0.0, np.inf)
    # the trades into a fuller reserve lead to solved states: their best is fixed
    inside = post_ok & (setup.level[post] == setup.level[rows[0]])
    above = np.where(post_ok & ~inside, solving.best[post], np.inf).min(axis=1)
    # A state that trades nothing decides at itself: its chance of waiting into
    # itself is solved exactly (V = 1 + c + b (a + d V)), not iterated.
    selfish = np.flatnonzero(
        can & (post_ok.sum(axis=1) == 1) & (post[:, 0] == rows) & post_ok[:, 0]
    )
    diag = _entries(level.inner, level.distinct[selfish], selfish)
    if level.gold:
        _sweep_level(solving, level, current, post, inside, above, selfish, diag)
        return
    inner = level.inner  # the same sweeps, compiled
    sweeps_kernel()(
        rows,
        current,
        solving.values,
        solving.best,
        solving.waiting,
        level.fixed,
        level.distinct,
        inner.indptr,
        inner.indices,
        inner.data,
        solving.bases,
        solving.weights,
        post,
        inside,
        above,
        selfish,
        diag,
        TOLERANCE,
        MAX_SWEEPS,
    )


def _can_arrive(
    solving: _Solving,
    level: _Level,
    rows: npt.NDArray[np.int64],
    post: npt.NDArray[np.int64],
    post_ok: npt.NDArray[np.bool_],
) -> npt.NDArray[np.bool_]:
    """Which states of the level can arrive with a positive chance (the least fixed point)."""
    direct = np.zeros(len(rows), bool)
    for base, _ in solving.setup.options:
        direct |= np.isfinite(base[rows])
    alive = np.isfinite(solving.values)
    reach = np.isfinite(solving.best)
    can = np.zeros(len(rows), bool)
    while True:
        alive[rows] = can
        stay_any = level.leaves | ((level.inner @ can.astype(np.float64))[level.distinct] > 0)
        for row, targets, _ in level.gold:
            stay_any[row[alive[targets].any(axis=1)]] = True
        reach[rows] = direct | stay_any
        new_can: npt.NDArray[np.bool_] = np.asarray((post_ok & reach[post]).any(axis=1))
        if np.array_equal(new_can, can):
            return can
        can = new_can


def _sweep_level(
    solving: _Solving,
    level: _Level,
    current: npt.NDArray[np.float64],
    post: npt.NDArray[np.int64],
    inside: npt.NDArray[np.bool_],
    above: npt.NDArray[np.float64],
    selfish: npt.NDArray[np.int64],
    diag: npt.NDArray[np.float64],
) -> None:
    """Value iteration over one level with gold cards to name (the kernel's sweeps in NumPy)."""
    setup, rows, values, best = solving.setup, level.rows, solving.values, solving.best
    some = np.flatnonzero(inside.any(axis=1))
    post_in, inside_in = post[some], inside[some]
    loops = [(base[rows[selfish]], weight[rows[selfish]]) for base, weight in setup.options]
    for _ in range(MAX_SWEEPS):
        values[rows] = current
        stay = _waiting(level, values)
        best[rows] = _best_option(setup, rows, stay)
        new = above.copy()
        if len(some):
            inner_best = np.where(inside_in, best[post_in], np.inf).min(axis=1)
            new[some] = np.minimum(new[some], inner_best)
        new += 1.0
        if len(selfish):
            new[selfish] = _self_solved(stay[selfish] - diag * current[selfish], diag, loops)
        finite = np.isfinite(new) & np.isfinite(current)
        delta = float(np.abs(new[finite] - current[finite]).max()) if finite.any() else 0.0
        done = delta <= TOLERANCE and np.array_equal(np.isinf(new), np.isinf(current))
        current = new
        if done:
            break
    values[rows] = current
    stay = _waiting(level, values)
    solving.waiting[rows] = stay
    best[rows] = _best_option(setup, rows, stay)


def _read_policy(game: Game, solving: _Solving) -> None:
    """Write back the policy: for each state, the post-trade choice and the option."""
    setup, pos, stay = solving.setup, solving.pos, solving.waiting
    n = len(setup.grid)
    picked = np.where(setup.comp_ok, solving.best[setup.comp_idx], np.inf)
    post_all = setup.comp_idx[np.arange(n), picked.argmin(axis=1)]
    with np.errstate(invalid="ignore"):
        opt_values = [stay] + [
            base + np.where(weight > 0, weight * stay, 0.0) for base, weight in setup.options
        ]
    choice = np.stack(opt_values, axis=1).argmin(axis=1)  # first best: waiting wins ties
    pos.value = solving.values
    pos.option = choice[post_all]
    pos.gained = (
        (setup.grid[post_all] - setup.after_trade)
        if game.ratios is not None
        else np.zeros_like(setup.grid)
    )
    pos.post = post_all
    pos.labels = setup.labels
