"""Benchmark of ``isles rally --income`` (docs/rally.md, "The rally as it is played").

Side by side on the same question: the plain value iteration over (hex, cards)
of tests/test_rally_income.py (Python dicts, the rules read directly) and
isles' vectorised NumPy value iteration, on the corridor of the tests with 6
players; then isles alone on the beginner board with two settlements of red,
4 players, no trades (the committed-route mode). Prints seconds, the ratio and
the peak memory of the process.

    python benchmarks/bench_rally_income.py [--beginner]
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from isles.models.catan import Building, BuildingKind, Resource, beginner_board
from isles.models.hexgrid import vertex
from isles.rally import plan_income
from isles.solvers.rally_income import solve_income
from tests.test_rally_income import corridor, plain_value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--beginner", action="store_true", help="also the beginner board")
    args = parser.parse_args()
    board = corridor(BuildingKind.CITY)
    costs = [(list(Resource).index(Resource.BRICK), 4), (list(Resource).index(Resource.GRAIN), 3)]
    t = time.perf_counter()
    baseline = plain_value(costs, board, 6, True)
    plain_s = time.perf_counter() - t
    t = time.perf_counter()
    plan = solve_income(board, "red", (0, 0), [(2, 0)], players=6, trade="none", discard=True)
    isles_s = time.perf_counter() - t
    print(
        f"corridor, city, 6 players: plain {plain_s:.2f} s, isles {isles_s:.2f} s, "
        f"ratio {plain_s / isles_s:.1f}x; expected turns {baseline:.6f} / {plan.expected_turns:.6f}"
    )
    if args.beginner:
        towns = {
            vertex((0, -2), (0, -1), (1, -2)): Building("red"),
            vertex((0, 1), (1, 0), (1, 1)): Building("red"),
        }
        b = beginner_board().replace(buildings=towns)
        t = time.perf_counter()
        plan = plan_income(b, "red", (0, -3), trade="none")
        print(
            f"beginner board, 2 settlements, 4 players, no trades: "
            f"{time.perf_counter() - t:.1f} s, "
            f"expected turns {plan.expected_turns}, restrictions {plan.restrictions}"
        )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory {peak:.0f} MiB")


if __name__ == "__main__":
    main()
