"""Benchmark of ``isles rally --income`` (docs/rally.md, "The rally as it is played").

Side by side on the same states: isles' solver (each hex one level of
reserve cards at a time, the waiting window in a compiled kernel) and the
issue's baseline, a vectorised NumPy value iteration over the whole card grid
of each hex (:func:`sweep_position`, Jacobi sweeps with the same rules), on one
committed route of the beginner board (red's two starting settlements, 4
players, the bank's trades and the 7-card rule). Then isles alone on the
questions the issue times: the beginner board, the base board laid by
``isles layout --game base`` and the extension board (two settlements of red
at the best corners, trades and the 7 rule), and the race of two cars on the
beginner board. The corridor of the tests runs against the plain value
iteration of tests/test_rally_income.py too. Each question runs in its own
process: seconds (wall and CPU), the ratios, and each process's peak memory.

    python benchmarks/bench_rally_income.py [--quick] [--baseline]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from isles.models.catan import Board, Building, BuildingKind, Resource, beginner_board
from isles.models.hexgrid import Hex, vertex, vertices_around
from isles.solvers import rally_income
from isles.solvers.rally_income import (
    _FREE,
    _NR,
    MAX_SWEEPS,
    TOLERANCE,
    _compositions,
    _Pos,
    _window,
    _window_values,
)


def _wild_values(
    game: Any, pos: _Pos, values: npt.NDArray[np.float64]
) -> list[npt.NDArray[np.float64]]:
    """``out[k][x]``: the value at grid state x with k gold cards still to name (best choice)."""
    most = int(max(game.gold)) * game.players if any(game.gold) else 0
    out = [values]
    if most == 0:
        return out
    grid = pos.grid()
    for k in range(1, most + 1):
        comps = _compositions(k, range(_NR))
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
    targets = [j for j in range(_NR) if need[j] > 0]
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
            else ([-1] if move.resource == _FREE else list(range(_NR)))
        )
        for payer in payers:
            base = np.full(n, np.inf)
            if payer >= 0:
                ok = grid[:, payer] >= move.cards
                paid = np.zeros(_NR, np.int64)
                paid[payer] = move.cards
            else:
                ok = np.ones(n, bool)
                paid = np.zeros(_NR, np.int64)
            rows = np.flatnonzero(ok)
            if move.target < 0:
                after = np.zeros(len(rows))
            else:
                tgt = game.positions[move.target]
                r2 = np.minimum(reserve[rows] - paid, tgt.need)
                after = _window_values(game, tgt, rolls, r2, hand[rows])
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
        cards, wild, probs = _window(
            game.income, game.gold, rolls, game.discard, tuple(int(x) for x in h0)
        )
        idx = pos.flat(reserve[rows][:, None, :] + cards[None, :, :])
        stay_parts.append((rows, idx, wild, probs))
    # The decisions: each grid state s trades into post-trade states x = after_trade + comp.
    comp_idx = np.zeros((n, 1), np.int64)
    comp_of: list[npt.NDArray[np.int64]] = []
    kmax = int(gains.max()) if n else 0
    comp_tables = [_compositions(k, targets) for k in range(kmax + 1)]
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
    pos._post = post
    pos._labels = labels


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


ROUTE = (Hex(0, -3), Hex(0, -2), Hex(1, -2), Hex(1, -1), Hex(1, 0), Hex(1, 1))
"""The beginner board's route the bank-trade plan commits to (the baseline's states)."""


def beginner(race: bool = False) -> Board:
    """The beginner board with red's two starting settlements (and blue's for the race)."""
    towns = {
        vertex((0, -2), (0, -1), (1, -2)): Building("red"),
        vertex((0, 1), (1, 0), (1, 1)): Building("red"),
    }
    if race:
        towns[vertex((0, 2), (0, 1), (-1, 2))] = Building("blue")
        towns[vertex((0, -1), (-1, 0), (-1, -1))] = Building("blue")
    return beginner_board().replace(buildings=towns)


def laid(game: str) -> Board:
    """The board ``isles layout --game GAME`` lays, red's settlements on its two best corners."""
    from isles.layout import setup_request, solve_layout

    board = solve_layout(setup_request(game=game), progress=False).board
    assert board is not None
    pips = {h: 6 - abs(7 - t.number) for h, t in board.tiles.items() if t.number}
    corners = {c for h in pips for c in vertices_around(h)}
    ranked = sorted(corners, key=lambda c: (-sum(pips.get(h, 0) for h in c), str(c)))
    first = ranked[0]
    second = next(c for c in ranked if not set(c) & set(first))
    return board.replace(buildings={first: Building("red"), second: Building("red")})


def _case(name: str) -> dict[str, Any]:
    from isles.models.rally import rim_starts
    from isles.rally import plan_income, race_cars

    if name == "corridor":
        from tests.test_rally_income import corridor, plain_value

        board = corridor(BuildingKind.CITY)
        brick, grain = list(Resource).index(Resource.BRICK), list(Resource).index(Resource.GRAIN)
        plain = plain_value([(brick, 4), (grain, 3)], board, 6, True)
        plan = rally_income.solve_income(
            board, "red", (0, 0), [(2, 0)], players=6, trade="none", discard=True
        )
        return {"turns": plan.expected_turns, "plain": plain}
    if name in ("baseline", "route"):
        if name == "baseline":
            rally_income._solve_position = sweep_position
        plan = rally_income.solve_income(
            beginner(), "red", ROUTE[0], None, trade="bank", route=ROUTE, value_only=True
        )
        return {"turns": plan.expected_turns, "states": plan.states}
    if name == "race":
        race = race_cars(beginner(True), ["red:0,-3", "blue:0,3"], games=10_000)
        return {
            "first": {c.player: [c.first, list(c.interval)] for c in race.cars},
            "status": str(race.status),
        }
    board = beginner() if name == "beginner" else laid(name)
    start = (0, -3) if name == "beginner" else rim_starts(board)[0]
    plan = plan_income(board, "red", start)
    return {
        "turns": plan.expected_turns,
        "status": str(plan.status),
        "states": plan.states,
        "restrictions": list(plan.restrictions),
    }


def _run(name: str) -> dict[str, Any]:
    """One question in a child process: its answer, seconds and peak memory."""
    out = subprocess.run(
        [sys.executable, __file__, "--case", name],
        capture_output=True,
        text=True,
        check=True,
        env=os.environ,
    )
    row: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--case", help=argparse.SUPPRESS)
    parser.add_argument("--quick", action="store_true", help="the beginner board and the race only")
    parser.add_argument("--baseline", action="store_true", help="also the NumPy baseline (minutes)")
    args = parser.parse_args()
    if args.case:
        wall, cpu = time.perf_counter(), time.process_time()
        row = _case(args.case)
        row.update(
            case=args.case,
            wall=time.perf_counter() - wall,
            cpu=time.process_time() - cpu,
            peak_mib=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        )
        print(json.dumps(row))
        return
    print(f"load average {os.getloadavg()}")
    _run("corridor")  # compiles the kernel once (cached in the user's cache directory)
    cases = ["corridor", "route"] + (["baseline"] if args.baseline else [])
    cases += ["beginner", "race"] + ([] if args.quick else ["base", "extension"])
    rows = {}
    for name in cases:
        row = _run(name)
        rows[name] = row
        extra = {k: v for k, v in row.items() if k not in ("case", "wall", "cpu", "peak_mib")}
        print(
            f"{name:10s} {row['wall']:7.2f} s wall {row['cpu']:7.2f} s CPU "
            f"{row['peak_mib']:6.0f} MiB  {extra}",
            flush=True,
        )
    if "baseline" in rows:
        base, fast = rows["baseline"], rows["route"]
        print(
            f"same states ({fast['states']:,}): NumPy baseline / isles = "
            f"{base['cpu'] / fast['cpu']:.1f}x CPU, {base['wall'] / fast['wall']:.1f}x wall; "
            f"expected turns {base['turns']:.9f} / {fast['turns']:.9f}"
        )
    print(f"load average {os.getloadavg()}")


if __name__ == "__main__":
    main()
