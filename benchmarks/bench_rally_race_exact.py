"""Benchmark of the exact race (docs/rally.md, "The race"): the joint chain vs the games.

Side by side on the same races, the strongest plain baseline being isles' own
vectorised Monte Carlo of the same policies (``method="monte_carlo"``, 10,000
games, 2,000 at a time in NumPy): CPU seconds of each (the cars' own plans
included, the same in both), the ratio, and how far
the games' chance of the first car lies from the exact one against their 95%
interval. The races: the two-car corridor of tests/rally/test_rally_race.py (no
trades, then the bank's trades) and the beginner board with two settlements
each of red and blue (``isles demo``'s towns), each car to the land next to
its start. Prints the peak memory of the process.

    python benchmarks/bench_rally_race_exact.py
"""

from __future__ import annotations

import resource
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from isles.models.board import Board
from isles.models.rally.questions import RaceMethod
from isles.models.rally.rules import TradeMode
from isles.models.rally.towns import towns_board
from isles.rally import race_cars
from tests.rally.test_rally_race import CARS, two_owners

NEAR = [
    {"player": "red", "start": (0, -3), "goals": [(0, -2)]},
    {"player": "blue", "start": (0, 3), "goals": [(0, 2)]},
]


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def timed(board: Board, cars: list[Any], trade: TradeMode, method: RaceMethod) -> tuple[Any, float]:
    t0 = cpu()
    race = race_cars(board, cars, trade=trade, method=method, games=10_000, seed=0)
    return race, cpu() - t0


def main() -> None:
    towns = towns_board()
    cases: list[tuple[str, Board, list[Any], TradeMode]] = [
        ("corridor, no trades", two_owners(), list(CARS), "none"),
        ("corridor, bank trades", two_owners(), list(CARS), "bank"),
        ("beginner towns, near goals, no trades", towns, NEAR, "none"),
    ]
    print(f"{'race':<40}{'exact s':>9}{'states':>9}{'MC s':>8}{'ratio':>7}  first: exact / MC")
    for name, board, cars, trade in cases:
        exact, t_exact = timed(board, cars, trade, "exact")
        games, t_games = timed(board, cars, trade, "monte_carlo")
        e, g = exact.cars[0], games.cars[0]
        lo, hi = g.interval
        inside = "inside" if lo <= e.first <= hi else "OUTSIDE"
        print(
            f"{name:<40}{t_exact:>9.2f}{exact.joint_states:>9,}{t_games:>8.2f}"
            f"{t_games / t_exact:>7.2f}  {e.first:.6f} / {g.first:.4f} "
            f"({lo:.4f}..{hi:.4f}, {inside})"
        )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory {peak:.0f} MiB; load average {Path('/proc/loadavg').read_text()[:14]}")


if __name__ == "__main__":
    main()
