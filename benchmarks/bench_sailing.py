"""Benchmark: sparse policy iteration (isles) versus plain value iteration in Python.

Navigation of ships under winds (docs/ships.md; seed 004_644cf972d8964df4.txt) on
random hexagonal boards of about 1k, 10k and 100k ship edges, one target edge near
the centre; also the exact arrival odds within 5, 10 and 20 rolls (``arrival_odds``).
Run from the repository root:

    python benchmarks/bench_sailing.py            # 1k, 10k, 100k edges
    python benchmarks/bench_sailing.py --quick    # 1k edges only, short budget

Value iteration (in place, Gauss-Seidel order, pure Python over the same option
lists) stops when a sweep changes no value by more than ``--tol`` rolls, or when
its time budget is spent; its error against the policy-iteration values is
printed. Timings are wall-clock on a shared machine: noisy.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections import deque
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np

from isles.models.catan import NUMBER_TOKENS, Board, Terrain, Tile, roll_probability
from isles.models.hexgrid import Hex, hexagon
from isles.models.ships import ROLLS
from isles.solvers.sailing import (
    WindGraph,
    arrival_distribution,
    arrival_odds,
    navigate,
    wind_graph,
)


def random_board(radius: int, seed: int) -> Board:
    """A hexagon of ``radius``: a third land, the rest sea; every hex has a token."""
    rng = random.Random(seed)
    tiles: dict[Hex, Tile] = {}
    for h in hexagon(radius):
        token = rng.choice(NUMBER_TOKENS)
        terrain = Terrain.FOREST if rng.random() < 1 / 3 else Terrain.SEA
        tiles[h] = Tile(terrain, token)
    return Board(tiles)


def radius_for(edges: int) -> int:
    """Smallest hexagon radius whose random board has about ``edges`` ship edges."""
    r = 1
    # About 3 edges per hex, of which 1 - (1/3)^2 touch the sea.
    while 3 * (3 * r * (r + 1) + 1) * (8 / 9) < edges:
        r += 1
    return r


def plain_value_iteration(
    graph: WindGraph, target: int, tol: float, budget: float
) -> tuple[list[float], int, bool, float]:
    """In-place value iteration in pure Python; returns values, sweeps, converged, seconds."""
    t0 = time.perf_counter()
    n = len(graph)
    probs = [float(roll_probability(r)) for r in ROLLS]
    options = [
        [sorted(set(int(x) for x in graph.options[i, r])) for r in range(len(ROLLS))]
        for i in range(n)
    ]
    # Reachable set by breadth-first search backwards (the moves are reversible, so the
    # edges that can reach the target at all are exactly the finite ones).
    preds: list[set[int]] = [set() for _ in range(n)]
    for i in range(n):
        for opts in options[i]:
            for j in opts:
                if j != i:
                    preds[j].add(i)
    reach = [False] * n
    reach[target] = True
    todo = deque([target])
    while todo:
        j = todo.popleft()
        for i in preds[j]:
            if not reach[i]:
                reach[i] = True
                todo.append(i)
    value = [0.0 if reach[i] else math.inf for i in range(n)]
    order = [i for i in range(n) if reach[i] and i != target]
    sweeps = 0
    while True:
        sweeps += 1
        change = 0.0
        for i in order:
            total = 1.0
            for p, opts in zip(probs, options[i], strict=True):
                total += p * min(value[j] for j in opts)
            delta = abs(total - value[i])
            if delta > change:
                change = delta
            value[i] = total
        elapsed = time.perf_counter() - t0
        if change < tol:
            return value, sweeps, True, elapsed
        if elapsed > budget:
            return value, sweeps, False, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1k edges only, 10 s budget")
    parser.add_argument("--budget", type=float, default=60.0, help="seconds per VI run")
    parser.add_argument("--tol", type=float, default=1e-9, help="VI stopping change (rolls)")
    args = parser.parse_args()
    sizes = [1_000] if args.quick else [1_000, 10_000, 100_000]
    budget = 10.0 if args.quick else args.budget
    header = (
        f"{'edges':>7} {'finite':>7} {'graph s':>8} {'PI s':>7} {'PI it':>5} "
        f"{'resid':>8} {'arrival s':>9} {'odds s':>6} {'VI s':>8} {'sweeps':>6} {'VI conv':>7} "
        f"{'VI max err':>10} {'VI/PI':>7}"
    )
    print(header)
    print("-" * len(header))
    for size in sizes:
        board = random_board(radius_for(size), seed=size)
        t0 = time.perf_counter()
        graph = wind_graph(board)
        t1 = time.perf_counter()
        centre = min(graph.edges, key=lambda e: abs(e.a.q) + abs(e.a.r) + abs(e.a.s))
        target = graph.index[centre]
        nav = navigate(graph, [centre])
        t2 = time.perf_counter()
        finite = np.isfinite(nav.values)
        far = graph.edges[int(np.argmax(np.where(finite, nav.values, -1.0)))]
        t3 = time.perf_counter()
        arrival_distribution(nav, far)
        t4 = time.perf_counter()
        arrival_odds(nav, far, (5, 10, 20))
        odds_time = time.perf_counter() - t4
        vi, sweeps, converged, vi_time = plain_value_iteration(graph, target, args.tol, budget)
        vi_arr = np.array(vi)
        err = float(np.max(np.abs(vi_arr[finite] - nav.values[finite])))
        pi_time = t2 - t1
        print(
            f"{len(graph):>7} {int(finite.sum()):>7} {t1 - t0:>8.3f} {pi_time:>7.3f} "
            f"{nav.iterations:>5} {nav.bellman_residual:>8.1e} {t4 - t3:>9.3f} {odds_time:>6.3f} "
            f"{vi_time:>8.2f} {sweeps:>6} {'yes' if converged else 'budget':>7} "
            f"{err:>10.2e} {vi_time / pi_time:>7.0f}x",
            flush=True,
        )
    print(
        "graph s: building the option arrays from the board (once per board); PI s: "
        "navigate() for one target (reachability + policy iteration, spsolve); arrival s: the "
        "float distribution to 1e-12; odds s: the exact odds within 5, 10, 20 rolls; "
        "VI/PI: time ratio (a lower bound when VI hit its budget)."
    )


if __name__ == "__main__":
    main()
