"""The plain baseline of the income solver: Jacobi value iteration over each hex's whole grid.

The states and rules of :mod:`isles.solvers.rally.income` (docs/rally.md, "The
rally as it is played"), swept whole until no value moves, as the solver did
before it solved one level of reserve cards at a time: the tests hold the two
equal, and benchmarks/bench_rally_income.py times them side by side.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from isles.solvers.rally.game import FREE, NR, Pos, compositions
from isles.solvers.rally.position import MAX_SWEEPS, TOLERANCE
from isles.solvers.rally.windows import window, window_values


def _wild_values(
    game: Any, pos: Pos, values: npt.NDArray[np.float64]
) -> list[npt.NDArray[np.float64]]:
    """``out[k][x]``: the value at grid state x with k gold cards still to name (best choice)."""
    most = int(max(game.gold)) * game.players if any(game.gold) else 0
    out = [values]
    if most == 0:
        return out
    grid = pos.grid()
    for k in range(1, most + 1):
        comps = compositions(k, range(NR))
        idx = pos.flat(grid[:, None, :] + comps[None, :, :])
        out.append(values[idx].min(axis=1))
    return out


def sweep_position(game: Any, v: int) -> None:
    """The baseline: Jacobi value iteration over the whole card grid of position ``v``."""
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
    # The options from each post-trade grid state x: their value is
    # base[o][x] + stay_weight[o][x] * W_stay[x] (inf where not affordable).
    options: list[tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]] = []
    labels: list[tuple[int, int]] = [(-1, -1)]  # (move index, resource paid)
    for m, move in enumerate(pos.moves):
        payers = (
            [move.resource]
            if move.resource >= 0
            else ([-1] if move.resource == FREE else list(range(NR)))
        )
        for payer in payers:
            base = np.full(n, np.inf)
            if payer >= 0:
                ok = grid[:, payer] >= move.cards
                paid = np.zeros(NR, np.int64)
                paid[payer] = move.cards
            else:
                ok = np.ones(n, bool)
                paid = np.zeros(NR, np.int64)
            rows = np.flatnonzero(ok)
            if move.target < 0:
                after = np.zeros(len(rows))
            else:
                tgt = game.positions[move.target]
                r2 = np.minimum(reserve[rows] - paid, tgt.need)
                after = window_values(game, tgt, rolls, r2, hand[rows])
            p = float(move.p_exit)
            base[rows] = p * after
            weight = np.where(ok, 1 - p, 0.0)
            options.append((base, weight))
            labels.append((m, payer))
    # The stay window's transition, fixed: indices into this position's own grid.
    stay_keys, stay_inv = np.unique(hand, axis=0, return_inverse=True)
    stay_inv = stay_inv.reshape(-1)
    stay_parts = []
    for g, h0 in enumerate(stay_keys):
        rows = np.flatnonzero(stay_inv == g)
        cards, wild, probs = window(
            game.income, game.gold, rolls, game.discard, tuple(int(x) for x in h0)
        )
        idx = pos.flat(reserve[rows][:, None, :] + cards[None, :, :])
        stay_parts.append((rows, idx, wild, probs))
    # The decisions: each grid state s trades into post-trade states x = after_trade + comp.
    comp_idx = np.zeros((n, 1), np.int64)
    comp_of: list[npt.NDArray[np.int64]] = []
    kmax = int(gains.max()) if n else 0
    comp_tables = [compositions(k, targets) for k in range(kmax + 1)]
    width = max(len(c) for c in comp_tables)
    comp_idx = np.zeros((n, width), np.int64)
    comp_ok = np.zeros((n, width), bool)
    for k, table in enumerate(comp_tables):
        rows = np.flatnonzero(gains == k)
        if len(rows) == 0:
            continue
        idx = pos.flat(after_trade[rows][:, None, :] + table[None, :, :])
        comp_idx[rows, : len(table)] = idx
        comp_ok[rows, : len(table)] = True
        comp_of.append(table)
    values = np.where(_can_arrive(n, stay_parts, options, comp_idx, comp_ok), 0.0, np.inf)
    stay = np.zeros(n)
    for _ in range(MAX_SWEEPS):
        wild_vals = _wild_values(game, pos, values)
        stay[:] = 0.0
        for rows, idx, wild, probs in stay_parts:
            acc = np.zeros(len(rows))
            for k in np.unique(wild):
                sel = wild == k
                acc += (wild_vals[int(k)][idx[:, sel]] * probs[sel]).sum(axis=1)
            stay[rows] = acc
        q = stay.copy()
        for base, weight in options:
            with np.errstate(invalid="ignore"):
                cand = base + np.where(weight > 0, weight * stay, 0.0)
            np.minimum(q, cand, out=q)
        picked = np.where(comp_ok, q[comp_idx], np.inf)
        new = 1.0 + picked.min(axis=1)
        finite = np.isfinite(new) & np.isfinite(values)
        delta = np.abs(new[finite] - values[finite]).max() if finite.any() else 0.0
        done = delta <= TOLERANCE and np.array_equal(np.isinf(new), np.isinf(values))
        values = new
        if done:
            break
    # Read back the policy: for each state, the post-trade choice and the option.
    picked = np.where(comp_ok, q[comp_idx], np.inf)
    best_comp = picked.argmin(axis=1)
    post = comp_idx[np.arange(n), best_comp]
    with np.errstate(invalid="ignore"):  # 0 * inf where a move cannot fail: not taken
        opt_values = [stay] + [
            base + np.where(weight > 0, weight * stay, 0.0) for base, weight in options
        ]
    stacked = np.stack(opt_values, axis=1)
    choice = stacked.argmin(axis=1)  # first best: waiting wins ties (no card spent)
    pos.value = values
    pos.option = choice[post]
    pos.gained = (grid[post] - after_trade) if game.ratios is not None else np.zeros_like(grid)
    pos.post = post
    pos.labels = labels


def _can_arrive(
    n: int,
    stay_parts: list[Any],
    options: list[tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]],
    comp_idx: npt.NDArray[np.int64],
    comp_ok: npt.NDArray[np.bool_],
) -> npt.NDArray[np.bool_]:
    """Which decision states reach a goal with a positive chance (the least fixed point)."""
    can: npt.NDArray[np.bool_] = np.zeros(n, bool)
    direct = np.zeros(n, bool)
    for base, _ in options:
        direct |= np.isfinite(base) & (base < np.inf)
    while True:
        stay = np.zeros(n, bool)
        for rows, idx, _, _ in stay_parts:
            stay[rows] = can[idx].any(axis=1)
        post = direct | stay
        new: npt.NDArray[np.bool_] = np.asarray((post[comp_idx] & comp_ok).any(axis=1))
        if np.array_equal(new, can):
            return can
        can = new
