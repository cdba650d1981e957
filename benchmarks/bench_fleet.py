"""Benchmark: the fleet DP (isles) versus plain vectorised sparse value iteration, same states.

The fleet of docs/ships.md ("The fleet") on the embedded demo board (83 ship edges), 2 and 3 ships,
both movement rules, six scoring edges (red's two settlements). Run from the repository root:

    python benchmarks/bench_fleet.py              # 2 and 3 ships, both rules
    python benchmarks/bench_fleet.py --quick      # 2 ships, compulsory moves only

isles: ``fleet_space`` (the joint table: distinct successors of the moving (state, roll)
pairs), ``fleet_odds`` (backward induction, R rolls) and ``fleet_navigate`` (almost-sure
set + policy iteration). Baseline, the strongest plain method: the same joint states
(multisets of edges), one sparse 0/1 matrix mapping values to every (state, roll, choice
slot) — all 11 rolls, every padded combination of the ships' options, no de-duplication
— and per roll one SciPy matrix-vector product per slot, a running maximum over the
slots and a product with the roll probabilities; for the expected rolls, Jacobi value
iteration with the same matrices on the states isles finds reachable, until the largest
change is below ``--tol`` relative or the time budget is spent.

Times are CPU seconds of this process (``time.process_time``: all its threads) and
wall-clock seconds, on a shared machine: noisy. OpenBLAS threads can inflate the CPU
figure of BLAS calls; ``OPENBLAS_NUM_THREADS=1`` removes that.
"""

from __future__ import annotations

import argparse
import itertools
import os
import resource
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp

from isles.models.catan import roll_probability
from isles.models.hexgrid import Edge, edge
from isles.models.ships.coordinates import parse_settlement
from isles.models.ships.demo import demo_board
from isles.models.ships.fleet import edge_rollers, scoring_edges
from isles.models.ships.limits import ROLLS
from isles.models.ships.winds import capacity
from isles.solvers.ships.fleet_chance import fleet_odds
from isles.solvers.ships.fleet_navigation import fleet_navigate
from isles.solvers.ships.graph import WindGraph, wind_graph
from isles.solvers.ships.joint_states import fleet_space

T = TypeVar("T")
FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

PROBS = np.array([float(roll_probability(n)) for n in ROLLS])
STARTS: dict[int, list[Edge]] = {
    2: [edge((0, 0), (0, 1)), edge((1, 1), (1, 2))],
    3: [edge((0, 0), (0, 1)), edge((1, 1), (1, 2)), edge((2, -2), (2, -1))],
}


def timed(fn: Callable[[], T]) -> tuple[T, float, float]:
    """``fn()``, its CPU seconds and its wall seconds."""
    c0, w0 = time.process_time(), time.perf_counter()
    out = fn()
    return out, time.process_time() - c0, time.perf_counter() - w0


class Baseline:
    """Plain vectorised value iteration over the joint states, built from the wind graph."""

    def __init__(self, graph: WindGraph, ships: int, scoring: frozenset[Edge]) -> None:
        n = len(graph)
        tuples = np.array(
            list(itertools.combinations_with_replacement(range(n), ships)), dtype=np.int64
        )
        self.states = len(tuples)
        weights = n ** np.arange(ships - 1, -1, -1, dtype=np.int64)
        lookup = np.full(n**ships, -1, dtype=np.int64)
        lookup[tuples @ weights] = np.arange(self.states)
        self.lookup, self.weights = lookup, weights
        # Successor of every (state, roll, slot): slots = every padded option combination.
        width = graph.options.shape[2]
        combos = np.array(list(itertools.product(range(width), repeat=ships)), dtype=np.int64)
        self.slots = len(combos)
        opts = graph.options[tuples]  # (S, ships, 11, width)
        dest = np.stack([opts[:, j][:, :, combos[:, j]] for j in range(ships)], axis=3)
        dest.sort(axis=3)
        succ = lookup[dest @ weights]  # (S, 11, slots)
        rows = np.arange(self.states * len(ROLLS), dtype=np.int64)
        shape = (len(rows), self.states)
        # One 0/1 matrix per slot: a running maximum over slots beats a short-axis reduction.
        self.select = [
            sp.csr_matrix((np.ones(len(rows)), (rows, succ[:, :, c].reshape(-1))), shape=shape)
            for c in range(self.slots)
        ]
        self.nnz = sum(m.nnz for m in self.select)
        # Collision rolls per state: the model's rule per edge, vectorised.
        caps = np.array([capacity(graph.board, e) for e in graph.edges], dtype=np.int64)
        per_edge = np.array(
            [[0] * (ships + 1)] + [[edge_rollers(k, c) for k in range(ships + 1)] for c in (1, 2)]
        )
        rolls = np.zeros(self.states, dtype=np.int64)
        for j in range(ships):
            first = np.ones(self.states, dtype=bool) if j == 0 else tuples[:, j] != tuples[:, j - 1]
            on = (tuples == tuples[:, j : j + 1]).sum(axis=1)
            rolls += np.where(first, per_edge[caps[tuples[:, j]], on], 0)
        self.survival = (35.0 / 36.0) ** rolls
        self.clear = rolls == 0
        on_target = np.zeros(n, dtype=bool)
        on_target[[graph.index[e] for e in scoring]] = True
        self.scoring = np.all(on_target[tuples], axis=1)
        self.tuples = tuples

    def index(self, graph: WindGraph, fleet: list[Edge]) -> int:
        idx = np.array(sorted(graph.index[e] for e in fleet), dtype=np.int64)
        return int(self.lookup[idx @ self.weights])

    def odds(self, rolls: int) -> FloatArray:
        """Values with ``rolls`` rolls to go, every state."""
        v = self.scoring.astype(np.float64)
        for _ in range(rolls):
            w = self.survival * v
            best = self.select[0] @ w
            for m in self.select[1:]:
                np.maximum(best, m @ w, out=best)
            per_roll = best.reshape(self.states, len(ROLLS))
            v = np.einsum("sr,r->s", per_roll, PROBS)  # as isles: no BLAS threads
            v[self.scoring] = 1.0
        return np.asarray(v, dtype=np.float64)

    def expected_rolls(
        self, reachable: npt.NDArray[np.bool_], tol: float, budget: float
    ) -> tuple[FloatArray, int, bool]:
        """Jacobi value iteration of the expected rolls on ``reachable`` (from 0, rising)."""
        allowed = reachable & self.clear
        j = np.where(reachable, 0.0, np.inf)
        live = reachable & ~self.scoring
        t0 = time.process_time()
        sweeps = 0
        while True:
            sweeps += 1
            masked = np.where(allowed, j, np.inf)
            masked[self.scoring & self.clear] = 0.0
            finite = np.where(np.isfinite(masked), masked, 1e300)
            low = self.select[0] @ finite
            for m in self.select[1:]:
                np.minimum(low, m @ finite, out=low)
            best = low.reshape(self.states, len(ROLLS))
            new = np.where(live, 1.0 + np.einsum("sr,r->s", best, PROBS), j)
            change = float(np.max(np.abs(new[live] - j[live]))) if live.any() else 0.0
            j = new
            if change < tol * (1.0 + float(np.max(j[live]))):
                return j, sweeps, True
            if time.process_time() - t0 > budget:
                return j, sweeps, False


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2 ships, compulsory moves only")
    parser.add_argument("--rolls", type=int, default=30, help="horizon R (default 30)")
    parser.add_argument("--budget", type=float, default=60.0, help="CPU seconds per VI run")
    parser.add_argument("--tol", type=float, default=1e-9, help="VI stopping change, relative")
    args = parser.parse_args()
    board = demo_board()
    red = {parse_settlement("0,1:0,2:1,1"): "red", parse_settlement("-1,0:0,0:-1,1"): "red"}
    home = scoring_edges(board, "red", red)
    cases = [(2, False)] if args.quick else [(2, False), (2, True), (3, False), (3, True)]
    blas = os.environ.get("OPENBLAS_NUM_THREADS", "default")
    print(f"demo board, {len(home)} scoring edges, R = {args.rolls}; OPENBLAS_NUM_THREADS={blas}")
    print("times: CPU s / wall s\n")
    head = (
        f"{'ships':>5} {'rule':>8} {'states':>7} {'succ':>8} | {'isles table':>12} "
        f"{'isles odds':>12} | {'base table':>12} {'base odds':>12} {'slots':>9} | "
        f"{'odds ratio':>10} {'total ratio':>11} {'max diff':>8}"
    )
    print(head)
    print("-" * len(head))
    rows = []
    for ships, may_stay in cases:
        graph = wind_graph(board, may_stay)
        space, c_tab, w_tab = timed(partial(fleet_space, graph, ships))
        odds, c_odds, w_odds = timed(partial(fleet_odds, space, STARTS[ships], home, args.rolls))
        base, cb_tab, wb_tab = timed(partial(Baseline, graph, ships, home))
        base_v, cb_odds, wb_odds = timed(partial(base.odds, args.rolls))
        # Same joint states, two numberings: compare every value.
        mapped = np.array(
            [base.index(graph, list(space.fleet(i))) for i in range(len(space))], dtype=np.int64
        )
        diff = float(np.max(np.abs(odds.values[args.rolls] - base_v[mapped])))
        succ = sum(s.size for _, s in space.groups)
        print(
            f"{ships:>5} {'may stay' if may_stay else 'moves':>8} {len(space):>7} {succ:>8} | "
            f"{c_tab:>5.2f}/{w_tab:>5.2f} {c_odds:>5.2f}/{w_odds:>5.2f} | "
            f"{cb_tab:>5.2f}/{wb_tab:>5.2f} {cb_odds:>5.2f}/{wb_odds:>5.2f} "
            f"{base.nnz:>9} | {cb_odds / c_odds:>9.1f}x "
            f"{(cb_tab + cb_odds) / (c_tab + c_odds):>10.1f}x {diff:>8.1e}",
            flush=True,
        )
        rows.append((ships, may_stay, space, base, graph, odds))
    print(
        f"\nodds: P(every ship on a scoring edge at once within R) from the start, "
        f"isles {float(rows[-1][5].probability()):.6f} for the last case; ratios are CPU time, "
        "baseline / isles (odds alone, and table + odds)."
    )

    print("\nexpected rolls (SSP): isles policy iteration vs baseline value iteration\n")
    head = (
        f"{'ships':>5} {'rule':>8} {'reachable':>9} {'isles nav':>12} {'PI it':>5} "
        f"{'resid':>8} {'E[rolls]':>9} | {'base VI':>12} {'sweeps':>6} {'conv':>6} "
        f"{'max err':>8} | {'ratio':>7}"
    )
    print(head)
    print("-" * len(head))
    for ships, may_stay, space, base, graph, _ in rows:
        nav, c_nav, w_nav = timed(partial(fleet_navigate, space, STARTS[ships], home))
        reachable_isles = nav.reach_codes == 0
        mapped = np.array(
            [base.index(graph, list(space.fleet(i))) for i in range(len(space))], dtype=np.int64
        )
        reachable = np.zeros(base.states, dtype=bool)
        reachable[mapped[reachable_isles]] = True
        (vi, sweeps, conv), c_vi, w_vi = timed(
            partial(base.expected_rolls, reachable, args.tol, args.budget)
        )
        finite = np.isfinite(nav.values)
        err = float(np.max(np.abs(vi[mapped[finite]] - nav.values[finite])))
        expected = nav.expected_rolls()
        print(
            f"{ships:>5} {'may stay' if may_stay else 'moves':>8} {int(finite.sum()):>9} "
            f"{c_nav:>5.2f}/{w_nav:>5.2f} {nav.iterations:>5} {nav.bellman_residual:>8.1e} "
            f"{expected if expected is not None else float('nan'):>9.3f} | "
            f"{c_vi:>5.1f}/{w_vi:>5.1f} {sweeps:>6} {'yes' if conv else 'budget':>6} "
            f"{err:>8.1e} | {c_vi / c_nav:>6.1f}x",
            flush=True,
        )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"\nratio: baseline CPU / isles CPU (a lower bound when VI hit its budget); "
        f"max err: |VI - PI| over reachable states. Peak RSS {peak:.0f} MB."
    )


if __name__ == "__main__":
    main()
