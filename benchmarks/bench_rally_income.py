"""Benchmark of ``isles rally --income`` (docs/rally.md, "The rally as it is played").

Side by side on the same states: isles' solver (each hex one level of
reserve cards at a time, the waiting window in a compiled kernel) and the
issue's baseline, a vectorised NumPy value iteration over the whole card grid
of each hex (tests/rally/income_sweeps.py, Jacobi sweeps, the same rules), on one
committed route of the beginner board (red's two starting settlements, 4
players, the bank's trades and the 7-card rule). Then isles alone on the
questions the issue times: the beginner board, the base board laid by
``isles layout --game base`` and the extension board (two settlements of red
at the best corners, trades and the 7 rule), and the race of two cars on the
beginner board (with the first car's turns from the games, the Monte Carlo
of its returned policy, beside its plan's expected turns and their 95% interval).
The corridor of the tests runs against the plain value
iteration of tests/rally/test_rally_income.py too, and its whole policy space with bank
trades (``full``: docs/rally.md, "The whole policy space") is timed. Each question runs in its own
process: seconds (wall and CPU), the ratios, and each process's peak memory.

    python benchmarks/bench_rally_income.py [--quick] [--baseline]
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from isles.models.board import Board, beginner_board
from isles.models.catan import Building, BuildingKind, Resource
from isles.models.hexgrid import Hex, vertex, vertices_around
from isles.solvers.rally import income as rally_income
from isles.solvers.rally import position
from tests.rally.income_sweeps import sweep_position

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


def laid(game: str, blue: bool = False) -> Board:
    """The board ``isles layout --game GAME`` lays, red's settlements on its two best corners.

    ``blue``: blue's two on the next best corners apart from them (for a race).
    """
    from isles.layout import setup_request, solve_layout

    board = solve_layout(setup_request(game=game), progress=False).board
    assert board is not None
    pips = {h: 6 - abs(7 - t.number) for h, t in board.tiles.items() if t.number}
    corners = {c for h in pips for c in vertices_around(h)}
    ranked = sorted(corners, key=lambda c: (-sum(pips.get(h, 0) for h in c), str(c)))
    first = ranked[0]
    taken = [first, next(c for c in ranked if not set(c) & set(first))]
    if blue:
        for _ in range(2):
            taken.append(next(c for c in ranked if all(not set(c) & set(t) for t in taken)))
    owners = ["red", "red", "blue", "blue"]
    return board.replace(buildings={c: Building(o) for c, o in zip(taken, owners, strict=False)})


def _case(name: str) -> dict[str, Any]:
    from isles.models.rally.rim import rim_starts
    from isles.rally import plan_income, race_cars

    if name == "corridor":
        from tests.rally.test_rally_income import corridor, plain_value

        board = corridor(BuildingKind.CITY)
        brick, grain = list(Resource).index(Resource.BRICK), list(Resource).index(Resource.GRAIN)
        plain = plain_value([(brick, 4), (grain, 3)], board, 6, True)
        plan = rally_income.solve_income(
            board, "red", (0, 0), [(2, 0)], players=6, trade="none", discard=True
        )
        return {"turns": plan.expected_turns, "plain": plain}
    if name == "full":  # the whole policy space of the docs' corridor, bank trades
        from tests.rally.test_rally_income import corridor

        plan = plan_income(corridor(), "red", (0, 0), [(2, 0)], trade="bank")
        return {
            "turns": plan.expected_turns,
            "status": str(plan.status),
            "states": plan.states,
            "error_bound": plan.error_bound,
        }
    if name in ("baseline", "route"):
        if name == "baseline":
            position.solve_position = sweep_position
        board = beginner()
        rally_income.solve_income(board, "red", (0, 0), [(1, 0)], trade="none")  # loads the kernel
        cpu = time.process_time()
        plan = rally_income.solve_income(
            board, "red", ROUTE[0], None, trade="bank", route=ROUTE, value_only=True
        )
        solve = time.process_time() - cpu
        return {"turns": plan.expected_turns, "states": plan.states, "solve_cpu": solve}
    if name == "race" or name.startswith("race-"):
        if name == "race":
            race = race_cars(beginner(True), ["red:0,-3", "blue:0,3"], games=10_000)
        else:  # race-base, race-extension: red as in laid(), blue on the next two corners
            board = laid(name.removeprefix("race-"), blue=True)
            starts = rim_starts(board)
            cars = [f"red:{starts[0][0]},{starts[0][1]}", f"blue:{starts[-1][0]},{starts[-1][1]}"]
            race = race_cars(board, cars, games=10_000)
        # The first seat's turns are its own plan's, as plan_income plays it alone: the
        # Monte Carlo of the returned policy on a real board, its mean and 95% interval
        # beside the plan's expected turns (the later seat has the earlier seats' rolls
        # before its first move, so only the first is compared).
        red = race.cars[0]
        shares = [p or 0.0 for p in red.within]
        pmf = [shares[0]] + [b - a for a, b in itertools.pairwise(shares)]
        mean = sum((t + 1) * p for t, p in enumerate(pmf))
        var = sum((t + 1 - mean) ** 2 * p for t, p in enumerate(pmf))
        half = 1.959963984540054 * (var / race.games) ** 0.5
        return {
            "first": {c.player: [c.first, list(c.interval or ())] for c in race.cars},
            "status": str(race.status),
            "red_alone": red.plan.expected_turns,
            "red_games": [mean, mean - half, mean + half],
            "red_arrived_within_200": shares[-1],
            "inside": abs(mean - (red.plan.expected_turns or 0.0)) <= half,
        }
    if name == "baseline-beginner":  # the whole beginner question, every position swept
        position.solve_position = sweep_position
        name = "beginner"
    if name == "beginner-none":  # no trades: every shortest route at once
        plan = plan_income(beginner(), "red", (0, -3), trade="none")
    else:
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
    parser.add_argument(
        "--baseline",
        action="store_true",
        help="also the NumPy baseline, on one route and on the whole beginner question (minutes)",
    )
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
    cases += ["full", "beginner"] + (["baseline-beginner"] if args.baseline else [])
    cases += ["beginner-none", "race"]
    cases += [] if args.quick else ["base", "extension", "race-base", "race-extension"]
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
            f"the solve alone {base['solve_cpu']:.2f} / {fast['solve_cpu']:.2f} s CPU = "
            f"{base['solve_cpu'] / fast['solve_cpu']:.1f}x; "
            f"expected turns {base['turns']:.9f} / {fast['turns']:.9f}"
        )
    if "baseline-beginner" in rows:
        base, fast = rows["baseline-beginner"], rows["beginner"]
        print(
            "the beginner question (the best of its routes): "
            f"NumPy baseline / isles = {base['cpu'] / fast['cpu']:.1f}x CPU, "
            f"{base['wall'] / fast['wall']:.1f}x wall, whole processes; "
            f"expected turns {base['turns']:.9f} / {fast['turns']:.9f}"
        )
    print(f"load average {os.getloadavg()}")


if __name__ == "__main__":
    main()
