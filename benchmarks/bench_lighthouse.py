"""Benchmark: the exact lighthouse DP against Monte Carlo simulation of the same policy.

For 4, 6 and 8 islands (default kit, 8 sea cards): time and memory peak of the
exact answer (``odds``: full tables or the memory-bounded sweep, chosen by
size; docs/lighthouse.md, "Measured cost") versus the time Monte Carlo needs
for a 95% interval of +-0.001. Simulation runs until it reaches the target or
a time cap; beyond the cap its time is extrapolated from the measured rate
(half-width ~ 1/sqrt(games)). 8 islands take the sweep, about 40 minutes: only
with ``--sweep``.
Run: ``python benchmarks/bench_lighthouse.py [--quick] [--islands 4 6 8] [--cap S] [--sweep]``.
Timings are wall-clock on a shared machine: noisy.
"""

from __future__ import annotations

import argparse
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's isles

from isles.lighthouse import MAX_EXACT_ISLANDS, default_kit, odds, odds_method, simulate
from isles.solvers.lighthouse.codes import N_STATES

TARGET = 0.001


def exact_run(n: int, policy: str, sweep: bool) -> tuple[float | None, float, float, float]:
    """(win probability, wall s, CPU s, peak MiB) of the DP; None when out of reach.

    Kits of more than MAX_EXACT_ISLANDS islands (the sweep, 8 islands: about 40
    minutes) only when ``sweep``.
    """
    kit = default_kit(n, 8)
    if odds_method(kit) == "monte carlo" or (n > MAX_EXACT_ISLANDS and not sweep):
        return None, float("nan"), float("nan"), float("nan")
    tracemalloc.start()
    t0, c0 = time.perf_counter(), time.process_time()
    res = odds(kit, policy, progress=n > MAX_EXACT_ISLANDS)
    secs, cpu = time.perf_counter() - t0, time.process_time() - c0
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert res.win_probability is not None
    return float(res.win_probability), secs, cpu, peak / 2**20


def monte_carlo_run(
    n: int, policy: str, cap: float
) -> tuple[float, float, int, float, float, bool]:
    """(estimate, half-width, games, wall s and CPU s to +-TARGET, measured?)."""
    kit = default_kit(n, 8)
    wins = games = 0
    t0, c0 = time.perf_counter(), time.process_time()
    seed = 0
    while True:
        res = simulate(kit, policy, 20_000, seed=seed)
        seed += 1
        wins += res.wins
        games += res.games
        p = wins / games
        half = 1.959963984540054 * (p * (1 - p) / games) ** 0.5
        elapsed, cpu = time.perf_counter() - t0, time.process_time() - c0
        if half <= TARGET:
            return p, half, games, elapsed, cpu, True
        if elapsed >= cap:
            factor = (half / TARGET) ** 2
            return p, half, int(games * factor), elapsed * factor, cpu * factor, False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2, 3 and 4 islands, short cap")
    parser.add_argument("--islands", type=int, nargs="+", default=[4, 6, 8])
    parser.add_argument("--policy", default="greedy", help="greedy or random (default greedy)")
    parser.add_argument("--cap", type=float, default=30.0, help="Monte Carlo seconds per row")
    parser.add_argument(
        "--sweep", action="store_true", help="8 islands: run the exact sweep (about 40 minutes)"
    )
    args = parser.parse_args()
    islands = [2, 3, 4] if args.quick else args.islands
    cap = 3.0 if args.quick else args.cap
    print(f"Lighthouse: exact DP vs Monte Carlo to a 95% interval of +-{TARGET} ({args.policy})")
    head = (
        f"{'islands':>7} {'exact p':>10} {'DP s':>7} {'cpu':>7} {'DP MiB':>7} "
        f"{'MC p':>8} {'+-':>7} {'MC games':>10} {'MC s':>9} {'cpu':>8} {'MC/DP':>7}"
    )
    print(head)
    for n in islands:
        p, secs, cpu, mib = exact_run(n, args.policy, args.sweep)
        mc, half, games, mc_secs, mc_cpu, measured = monte_carlo_run(n, args.policy, cap)
        mark = "" if measured else "*"
        if p is None:
            values = 8 * N_STATES**n * 10 * n * 2
            print(
                f"{n:>7} {'out of reach':>34} {mc:>8.4f} {half:>7.4f} {games:>10,} "
                f"{mc_secs:>8.1f}{mark:1} {mc_cpu:>8.1f} {'-':>7}"
            )
            print(f"        (DP would hold {values / 2**30:.1f} GiB of float64 values)")
            continue
        agree = abs(mc - p) <= half
        print(
            f"{n:>7} {p:>10.6f} {secs:>7.2f} {cpu:>7.2f} {mib:>7.0f} {mc:>8.4f} {half:>7.4f} "
            f"{games:>10,} {mc_secs:>8.1f}{mark:1} {mc_cpu:>8.1f} {mc_secs / secs:>7.1f}"
            + ("" if agree else "  (outside interval)")
        )
    print("* extrapolated from the measured rate after the time cap")


if __name__ == "__main__":
    main()
