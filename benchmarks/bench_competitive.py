"""Benchmark: the exact competitive solve against Monte Carlo, side by side.

For each kit (seats x islands each, 3 sea cards) and policy: the exact solve's
wall and CPU time (``solve_competitive``, numba kernels, compiled beforehand on
a tiny kit; docs/lighthouse.md, "Competitive variant") and its error bound;
Monte Carlo of the same rules (``simulate_competitive``, vectorised games): its
measured rate over ``--cap`` seconds and the time it needs for a 95% interval
of +-0.001 on seat 1's chance (extrapolated: half-width ~ 1/sqrt(games)), and
the ratio of that time to the exact solve's. The same precision as the exact
answer (its error bound, about 1e-13) would need some 1e20 games: the ratio at
+-0.001 is the favourable one for Monte Carlo.
Run: ``python benchmarks/bench_competitive.py [--full] [--cap S]`` (``--full`` adds
the default 2 x 3 kit, 3 x 2 and optimal play: minutes). Timings are wall-clock
on a shared machine: noisy; the peak resident memory is the process's.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's isles

from isles.models.lighthouse.kit import default_kit
from isles.solvers.lighthouse.competitive import solve_competitive
from isles.solvers.lighthouse.competitive_simulation import simulate_competitive

TARGET = 0.001
Z95 = 1.959963984540054


def peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def exact(seats: int, per: int, policy: str | tuple[str, ...]) -> tuple[float, float, float, float]:
    """(seat 1's chance, error bound, wall s, CPU s) of the exact solve."""
    kit = default_kit(seats * per, 3)
    t0, c0 = time.perf_counter(), time.process_time()
    res = solve_competitive(kit, seats, policy)
    return (
        res.win_probability[0],
        res.error_bound,
        time.perf_counter() - t0,
        time.process_time() - c0,
    )


def monte_carlo(seats: int, per: int, policy: str, cap: float) -> tuple[float, float, float]:
    """(seat 1's estimate, games a second, wall s to +-TARGET extrapolated)."""
    kit = default_kit(seats * per, 3)
    wins = games = seed = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < cap:
        res = simulate_competitive(kit, seats, policy, 200, seed=seed)
        seed += 1
        wins += res.wins[0]
        games += res.games
    secs = time.perf_counter() - t0
    p = wins / games
    need = Z95**2 * p * (1 - p) / TARGET**2
    return p, games / secs, need / (games / secs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="the default 2 x 3 kit, 3 x 2, optimal")
    parser.add_argument("--cap", type=float, default=5.0, help="seconds of simulation per row")
    args = parser.parse_args()
    t0 = time.perf_counter()
    solve_competitive(default_kit(2, 1), 2, "optimal")  # compile (or load) the kernels
    print(f"kernels compiled or loaded from the cache: {time.perf_counter() - t0:.1f} s wall")
    rows: list[tuple[int, int, str | tuple[str, ...]]] = [
        (2, 1, "greedy"),
        (2, 1, "random"),
        (3, 1, "greedy"),
        (2, 2, "greedy"),
        (2, 2, "random"),
        (2, 2, "optimal"),
    ]
    if args.full:
        rows += [(2, 3, "greedy"), (2, 3, "random"), (2, 3, "optimal"), (3, 2, "greedy")]
    head = (
        "seats x islands | policy | exact p1 | error bound | exact wall s | exact CPU s"
        " | MC games/s | MC wall s to +-0.001 | ratio MC/exact"
    )
    print(head)
    print("|".join("---" for _ in head.split("|")))
    for seats, per, policy in rows:
        p, bound, wall, cpu = exact(seats, per, policy)
        name = policy if isinstance(policy, str) else "/".join(policy)
        if name == "optimal":
            mc_text = "- | - | -"  # optimal play is solved, not simulated
        else:
            est, rate, need = monte_carlo(seats, per, name, args.cap)
            assert abs(est - p) < 0.05, (est, p)  # a sanity check, not a test
            mc_text = f"{rate:.0f} | {need:.0f} | {need / wall:.0f}"
        print(
            f"{seats} x {per} | {name} | {p:.12f} | {bound:.1e} | {wall:.2f} | {cpu:.2f}"
            f" | {mc_text}",
            flush=True,
        )
    print(f"peak resident memory of the process: {peak_mib():.0f} MiB")


if __name__ == "__main__":
    main()
