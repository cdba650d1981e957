"""Benchmark: sparse policy iteration (isles) versus vectorised sparse value iteration.

Navigation of ships under winds (docs/ships.md; seed 004_644cf972d8964df4.txt) on
random hexagonal boards of about 1k, 10k and 100k ship edges, one target edge near
the centre; also the exact arrival odds within 5, 10 and 20 rolls (``arrival_odds``);
then the fleet's joint dynamic programmes (docs/ships.md, "The fleet") on the demo
board for 2 and 3 ships: joint states and times. Run from the repository root:

    python benchmarks/bench_sailing.py            # 1k, 10k, 100k edges; fleet of 2 and 3
    python benchmarks/bench_sailing.py --quick    # 1k edges, fleet of 2, short budget
    python benchmarks/bench_sailing.py --python-vi  # also the pure-Python value iteration

The baseline, the strongest plain method: value iteration vectorised with SciPy, one
stacked CSR 0/1 matrix mapping the values to every (roll, option slot, edge) cell, so
that each sweep is one sparse matrix-vector product, a minimum over the slots and a
product with the roll probabilities (Jacobi order), on the edges that can reach the
target; it stops when a sweep changes no value by more than ``--tol`` rolls, or when
its time budget is spent; its error against the policy-iteration values is printed.
Times are CPU seconds of this process (``time.process_time``), wall seconds in the
fleet table; on a shared machine: noisy.
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
import scipy.sparse as sp

from isles.models.board import Board
from isles.models.catan import NUMBER_TOKENS, Terrain, Tile, roll_probability
from isles.models.hexgrid import Hex, edge, hexagon
from isles.models.ships.coordinates import parse_settlement
from isles.models.ships.demo import demo_board
from isles.models.ships.fleet import scoring_edges
from isles.models.ships.limits import ROLLS
from isles.solvers.ships.arrival import arrival_distribution, arrival_odds
from isles.solvers.ships.fleet_chance import fleet_odds
from isles.solvers.ships.fleet_navigation import fleet_navigate
from isles.solvers.ships.graph import WindGraph, wind_graph
from isles.solvers.ships.joint_states import fleet_space
from isles.solvers.ships.navigation import navigate


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


def sparse_value_iteration(
    graph: WindGraph, target: int, finite: np.ndarray, tol: float, budget: float
) -> tuple[np.ndarray, int, bool, float]:
    """Jacobi value iteration, one CSR matrix-vector product per sweep; returns values,
    sweeps, converged, CPU seconds (the matrix build included)."""
    t0 = time.process_time()
    n = len(graph)
    live = np.flatnonzero(finite)
    local = np.full(n, -1, dtype=np.int64)
    local[live] = np.arange(len(live))
    opts = local[graph.options[live]]  # (L, 11, K), every option of a finite edge is finite
    cols = opts.transpose(1, 2, 0).reshape(-1)
    gather = sp.csr_matrix(
        (np.ones(len(cols)), (np.arange(len(cols)), cols)), shape=(len(cols), len(live))
    )
    probs = np.array([float(roll_probability(r)) for r in ROLLS])
    is_target = live == target
    value = np.zeros(len(live))
    sweeps = 0
    while True:
        sweeps += 1
        cells = (gather @ value).reshape(opts.shape[1], opts.shape[2], len(live))
        new = 1.0 + probs @ cells.min(axis=1)
        new[is_target] = 0.0
        change = float(np.max(np.abs(new - value)))
        value = new
        elapsed = time.process_time() - t0
        if change < tol:
            break
        if elapsed > budget:
            out = np.full(n, np.inf)
            out[live] = value
            return out, sweeps, False, elapsed
    out = np.full(n, np.inf)
    out[live] = value
    return out, sweeps, True, time.process_time() - t0


def fleet_table(quick: bool) -> None:
    """The fleet's joint DP on the demo board: states, table, odds within 30 rolls, fewest
    expected rolls; CPU and wall seconds."""
    board = demo_board()
    red = {parse_settlement("0,1:0,2:1,1"): "red", parse_settlement("-1,0:0,0:-1,1"): "red"}
    home = scoring_edges(board, "red", red)
    starts = [edge((0, 0), (0, 1)), edge((1, 1), (1, 2)), edge((2, -2), (2, -1))]
    print()
    header = (
        f"{'ships':>5} {'joint states':>12} {'successors':>10} {'table s':>13} "
        f"{'odds R=30 s':>13} {'E[rolls] s':>13} {'PI it':>5} {'P(<=30)':>8} {'E[rolls]':>8}"
    )
    print(header)
    print("-" * len(header))
    for ships in (2,) if quick else (2, 3):
        c0, w0 = time.process_time(), time.perf_counter()
        space = fleet_space(board, ships)
        c1, w1 = time.process_time(), time.perf_counter()
        odds = fleet_odds(space, starts[:ships], home, 30)
        c2, w2 = time.process_time(), time.perf_counter()
        nav = fleet_navigate(space, starts[:ships], home)
        c3, w3 = time.process_time(), time.perf_counter()
        successors = sum(succ.size for _, succ in space.groups)
        print(
            f"{ships:>5} {len(space):>12,} {successors:>10,} "
            f"{c1 - c0:>6.2f} ({w1 - w0:>4.2f}) {c2 - c1:>6.2f} ({w2 - w1:>4.2f}) "
            f"{c3 - c2:>6.2f} ({w3 - w2:>4.2f}) {nav.iterations:>5} "
            f"{float(odds.probability()):>8.4f} {nav.expected_rolls() or float('nan'):>8.2f}",
            flush=True,
        )
    print(
        "CPU seconds (wall in brackets); table: fleet_space (the joint moves); odds: "
        "fleet_odds, backward induction over 30 rolls; E[rolls]: fleet_navigate "
        "(almost-sure set + policy iteration). The baseline for the fleet (plain "
        "vectorised value iteration over the same states) is benchmarks/bench_fleet.py."
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick", action="store_true", help="1k edges and a fleet of 2 only, 10 s budget"
    )
    parser.add_argument("--budget", type=float, default=60.0, help="seconds per VI run")
    parser.add_argument("--tol", type=float, default=1e-9, help="VI stopping change (rolls)")
    parser.add_argument(
        "--python-vi", action="store_true", help="also the pure-Python Gauss-Seidel VI"
    )
    args = parser.parse_args()
    sizes = [1_000] if args.quick else [1_000, 10_000, 100_000]
    budget = 10.0 if args.quick else args.budget
    header = (
        f"{'edges':>7} {'finite':>7} {'graph s':>8} {'PI s':>7} {'PI it':>5} "
        f"{'resid':>8} {'arrival s':>9} {'odds s':>6} {'sparse VI s':>11} {'sweeps':>6} "
        f"{'conv':>6} {'VI max err':>10} {'VI/PI':>7}"
        + (f" {'py VI s':>8} {'py/PI':>7}" if args.python_vi else "")
    )
    print(header)
    print("-" * len(header))
    for size in sizes:
        board = random_board(radius_for(size), seed=size)
        t0 = time.process_time()
        graph = wind_graph(board)
        t1 = time.process_time()
        centre = min(graph.edges, key=lambda e: abs(e.a.q) + abs(e.a.r) + abs(e.a.s))
        target = graph.index[centre]
        nav = navigate(graph, [centre])
        t2 = time.process_time()
        finite = np.isfinite(nav.values)
        far = graph.edges[int(np.argmax(np.where(finite, nav.values, -1.0)))]
        t3 = time.process_time()
        arrival_distribution(nav, far)
        t4 = time.process_time()
        arrival_odds(nav, far, (5, 10, 20))
        odds_time = time.process_time() - t4
        vi, sweeps, converged, vi_time = sparse_value_iteration(
            graph, target, finite, args.tol, budget
        )
        err = float(np.max(np.abs(vi[finite] - nav.values[finite])))
        pi_time = t2 - t1
        line = (
            f"{len(graph):>7} {int(finite.sum()):>7} {t1 - t0:>8.3f} {pi_time:>7.3f} "
            f"{nav.iterations:>5} {nav.bellman_residual:>8.1e} {t4 - t3:>9.3f} {odds_time:>6.3f} "
            f"{vi_time:>11.2f} {sweeps:>6} {'yes' if converged else 'budget':>6} "
            f"{err:>10.2e} {vi_time / pi_time:>6.1f}x"
        )
        if args.python_vi:
            _, _, _, py_time = plain_value_iteration(graph, target, args.tol, budget)
            line += f" {py_time:>8.2f} {py_time / pi_time:>6.0f}x"
        print(line, flush=True)
    print(
        "graph s: building the option arrays from the board (once per board); PI s: "
        "navigate() for one target (reachability + policy iteration, spsolve); arrival s: the "
        "float distribution to 1e-12; odds s: the exact odds within 5, 10, 20 rolls; "
        "sparse VI: CSR matrix-vector value iteration to --tol; VI/PI: time ratio (a lower "
        "bound when VI hit its budget). CPU seconds."
    )
    fleet_table(args.quick)


if __name__ == "__main__":
    main()
