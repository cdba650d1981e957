"""Benchmark of ``isles rally --income`` (docs/rally.md, "The rally as it is played").

Side by side on the same question: the plain value iteration over (hex, cards)
of tests/test_rally_income.py (Python dicts, the rules read directly) and
isles' vectorised NumPy value iteration, on the corridor of the tests with 6
players; then isles alone on the beginner board with two settlements of red,
4 players, no trades (the committed-route mode); with ``--race`` the two-car
race of docs/rally.md. The corridor also runs side by side with the issue's
baseline, a vectorised NumPy value iteration over the same states
(:func:`numpy_value`). Prints seconds, the ratios and the peak memory of the
process.

    python benchmarks/bench_rally_income.py [--beginner] [--race]
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

import numpy as np
import numpy.typing as npt

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from isles.models.catan import Board, Building, BuildingKind, Resource, beginner_board
from isles.models.hexgrid import vertex
from isles.models.rally import ROLLS, roll_income
from isles.rally import plan_income
from isles.solvers.rally_income import solve_income
from tests.test_rally_income import corridor, plain_value


def numpy_value(costs: list[tuple[int, int]], board: Board, players: int, discard: bool) -> float:
    """The issue's baseline: a vectorised NumPy value iteration over the same states.

    The states of ``plain_value`` (each position of the corridor, the reserve up to
    the need), all swept at once per iteration (Jacobi) with dense NumPy
    transition matrices: ``V_i = 1 + min(S_i V_i, M_i V_{i+1})``.
    """
    income = np.array(roll_income(board, "red").cards, np.int64)
    probs = np.array([(6 - abs(7 - n)) / 36 for n in ROLLS])
    n = len(costs)
    need = np.zeros((n + 1, 5), np.int64)
    for i in range(n - 1, -1, -1):
        need[i] = need[i + 1]
        need[i, costs[i][0]] += costs[i][1]

    def hands(rolls: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
        h = np.zeros((1, 5), np.int64)
        m: npt.NDArray[np.float64] = np.ones(1)
        for _ in range(rolls):
            outs, ws = [], []
            for k, roll in enumerate(ROLLS):
                if roll == 7:
                    out = h.copy()
                    if discard:
                        count = np.where(out.sum(axis=1) > 7, out.sum(axis=1) // 2, 0)
                        while (count > 0).any():
                            rows = np.flatnonzero(count > 0)
                            out[rows, out[rows].argmax(axis=1)] -= 1
                            count[rows] -= 1
                else:
                    out = h + income[k]
                outs.append(out)
                ws.append(m * probs[k])
            h, inv = np.unique(np.concatenate(outs), axis=0, return_inverse=True)
            m = np.bincount(inv.reshape(-1), weights=np.concatenate(ws)).astype(np.float64)
        return h, m

    grids = [
        np.stack(np.unravel_index(np.arange(np.prod(need[i] + 1)), need[i] + 1), axis=-1)
        for i in range(n)
    ]

    def window(i: int, start: npt.NDArray[np.int64], rolls: int) -> npt.NDArray[np.float64]:
        h, m = hands(rolls)
        out = np.zeros((len(start), len(grids[i])))
        end = np.minimum(start[:, None, :] + h[None, :, :], need[i])
        flat = np.ravel_multi_index(tuple(np.moveaxis(end, -1, 0)), tuple(need[i] + 1))
        for row in range(len(start)):
            np.add.at(out[row], flat[row], m)
        return out

    stay = [window(i, grids[i], players) for i in range(n)]
    moves: list[tuple[npt.NDArray[np.bool_], npt.NDArray[np.float64] | None]] = []
    for i, (res, cards) in enumerate(costs):
        ok = grids[i][:, res] >= cards
        if i + 1 < n:
            paid = grids[i].copy()
            paid[:, res] -= cards
            after = np.minimum(np.maximum(paid, 0), need[i + 1])
            moves.append((ok, window(i + 1, after, players)))
        else:
            moves.append((ok, None))
    values = [np.zeros(len(g)) for g in grids]
    for _ in range(5000):
        new = []
        for i in range(n):
            ok, matrix = moves[i]
            moved = np.zeros(len(grids[i])) if matrix is None else matrix @ values[i + 1]
            new.append(1.0 + np.minimum(stay[i] @ values[i], np.where(ok, moved, np.inf)))
        change = max(float(np.abs(a - b).max()) for a, b in zip(new, values, strict=True))
        values = new
        if change < 1e-11:
            break
    first = window(0, np.zeros((1, 5), np.int64), 1)
    return float(first[0] @ values[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--beginner", action="store_true", help="also the beginner board")
    parser.add_argument(
        "--race", action="store_true", help="also the two-car race on the beginner board"
    )
    args = parser.parse_args()
    board = corridor(BuildingKind.CITY)
    costs = [(list(Resource).index(Resource.BRICK), 4), (list(Resource).index(Resource.GRAIN), 3)]
    t = time.perf_counter()
    baseline = plain_value(costs, board, 6, True)
    plain_s = time.perf_counter() - t
    t = time.perf_counter()
    plan = solve_income(board, "red", (0, 0), [(2, 0)], players=6, trade="none", discard=True)
    isles_s = time.perf_counter() - t
    t = time.perf_counter()
    vectorised = numpy_value(costs, board, 6, True)
    numpy_s = time.perf_counter() - t
    print(
        f"corridor, city, 6 players: plain {plain_s:.2f} s, isles {isles_s:.3f} s, "
        f"ratio {plain_s / isles_s:.1f}x; expected turns {baseline:.6f} / {plan.expected_turns:.6f}"
    )
    print(
        f"  side by side with a vectorised NumPy value iteration over the same states: "
        f"{numpy_s:.3f} s, isles/NumPy ratio {numpy_s / isles_s:.2f}x; "
        f"expected turns {vectorised:.6f}"
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
    if args.race:
        from isles.rally import race_cars

        towns = {
            vertex((0, -2), (0, -1), (1, -2)): Building("red"),
            vertex((0, 1), (1, 0), (1, 1)): Building("red"),
            vertex((0, 2), (0, 1), (-1, 2)): Building("blue"),
            vertex((0, -1), (-1, 0), (-1, -1)): Building("blue"),
        }
        b = beginner_board().replace(buildings=towns)
        t = time.perf_counter()
        race = race_cars(b, ["red:0,-3", "blue:0,3"], trade="none", games=10_000)
        print(
            f"race, beginner board, red 0,-3 against blue 0,3, no trades, 10,000 games: "
            f"{time.perf_counter() - t:.1f} s; "
            + ", ".join(f"{c.player} first {c.first:.3f} {c.interval}" for c in race.cars)
        )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory {peak:.0f} MiB")


if __name__ == "__main__":
    main()
