"""Benchmark: the car rally on big hexagon boards, whole processes and in-process queries.

1. Whole processes, side by side in one run: ``isles rally --board B --start
   0,-R --goal 0,R-1 --json`` against the plain script
   ``benchmarks/rally_plain_dijkstra.py`` (json + NumPy + SciPy: read the same
   file, build a CSR matrix in bulk, ``scipy.sparse.csgraph.dijkstra``); wall
   and CPU seconds, peak memory, the ratio, and a check that both find the same
   cards and moves. Target (issue 11): isles within 2.5x of the plain script on
   the radius-150 board (68k hexes).
2. In-process queries: isles' planner core (``cost_field``, ``plan_route``)
   against raw ``scipy.sparse.csgraph.dijkstra`` and NetworkX Dijkstra on the
   same graph; the build of the arrays and of the (lazy) NetworkX graph.

Run: ``python benchmarks/bench_rally.py [--quick] [--repeat N]``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import networkx as nx
import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

from isles.models.board import Board
from isles.models.catan import NUMBER_TOKENS, Terrain, Tile
from isles.models.hexgrid import Hex, hexagon, ring
from isles.solvers.rally.field import cost_field
from isles.solvers.rally.graph import build_graph
from isles.solvers.rally.trip import plan_route

LAND = [t for t in Terrain if t.is_land and t is not Terrain.GOLD]


def generated_board(radius: int, seed: int = 1) -> Board:
    """Land hexagon of ``radius - 1`` (random terrains and tokens) inside a sea ring."""
    rng = random.Random(seed)
    tiles: dict[Hex, Tile] = {}
    for h in hexagon(radius - 1):
        t = rng.choice(LAND)
        tiles[h] = Tile(t, None if t is Terrain.DESERT else rng.choice(NUMBER_TOKENS))
    for h in ring(radius):
        tiles[h] = Tile(Terrain.SEA)
    return Board(tiles)


def best_of(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times) if repeat < 3 else statistics.median(times)


# -- whole processes -------------------------------------------------------------------

PLAIN = Path(__file__).resolve().parent / "rally_plain_dijkstra.py"


TIME = Path("/usr/bin/time")  # GNU time: the child's own CPU and peak memory


def run_process(argv: list[str]) -> tuple[float, float, int | None, str]:
    """Run a command: (wall seconds, CPU seconds, peak RSS in MB or None, its stdout).

    CPU and memory come from GNU time when the machine has it (a child forked
    from this big process would report this process's memory as its own peak).
    """
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "time.txt"
        timed = [str(TIME), "-o", str(report), "-f", "%U %S %M", *argv] if TIME.exists() else argv
        t0 = time.perf_counter()
        done = subprocess.run(timed, capture_output=True, check=False)
        wall = time.perf_counter() - t0
        if done.returncode not in (0, 1):
            raise SystemExit(f"{argv} failed with exit status {done.returncode}")
        if TIME.exists():
            user, system, peak = report.read_text().split()[-3:]
            return wall, float(user) + float(system), int(peak) // 1024, done.stdout.decode()
    return wall, float("nan"), None, done.stdout.decode()


def whole_processes(radius: int, repeat: int) -> None:
    """Time ``isles rally`` and the plain script on one board file, alternating runs."""
    board = generated_board(radius)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"board_r{radius}.json"
        board.save(path)
        start, goal = f"0,{-radius}", f"0,{radius - 1}"
        isles_argv = [sys.executable, "-m", "isles", "rally", "--board", str(path)]
        isles_argv += ["--start", start, "--goal", goal, "--json"]
        plain_argv = [sys.executable, str(PLAIN), str(path), start, goal]
        runs: dict[str, list[tuple[float, float, int | None, str]]] = {"isles": [], "plain": []}
        for _ in range(repeat):
            runs["isles"].append(run_process(isles_argv))
            runs["plain"].append(run_process(plain_argv))
    answer = json.loads(runs["isles"][0][3])
    plain = json.loads(runs["plain"][0][3])
    same = (answer["total_cards"], answer["turns"]) == (plain["total_cards"], plain["turns"])
    print(
        f"Whole processes, radius {radius} ({len(board)} hexes, file "
        f"{len(board.to_json(indent=1)) / 2**20:.1f} MB), median of {repeat}, "
        f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores:"
    )
    print(f"{'':<8}{'wall s':>8}{'cpu s':>8}{'peak MB':>9}")
    median = {}
    for name, rows in runs.items():
        median[name] = statistics.median(r[0] for r in rows)
        cpu = statistics.median(r[1] for r in rows)
        peaks = [r[2] for r in rows if r[2] is not None]
        peak = str(max(peaks)) if peaks else "n/a"
        print(f"{name:<8}{median[name]:>8.2f}{cpu:>8.2f}{peak:>9}")
    print(
        f"isles / plain: {median['isles'] / median['plain']:.2f}x (target: within 2.5x); "
        f"same cards and moves: {same} ({answer['total_cards']} cards, {answer['turns']} moves); "
        f"same path: {answer['path'] == plain['path']}"
    )
    assert same, (answer["total_cards"], answer["turns"], plain)


# -- in-process queries ----------------------------------------------------------------


def measure(radius: int) -> None:
    """Time one board size and print its row."""
    board = generated_board(radius)
    t0 = time.perf_counter()
    rg = build_graph(board)
    rg.packed_csr("cards")
    build = time.perf_counter() - t0
    start = Hex(0, -radius)
    far = Hex(0, radius - 1)
    n = len(rg.hexes)
    # Raw baseline: plain card weights in a CSR matrix, one csgraph call.
    raw = csr_matrix((rg.arc_cards.astype(np.float64) + 1e-9, (rg.tail, rg.head)), shape=(n, n))
    s = rg.index[start]
    repeat = 5 if radius <= 150 else 3
    t_isles = best_of(lambda: cost_field(rg, start), repeat)
    t_route = best_of(lambda: plan_route(rg, start, goals=[far]), repeat)
    t_raw = best_of(lambda: dijkstra(raw, directed=True, indices=s), repeat)
    t0 = time.perf_counter()
    graph = rg.graph  # built on first read
    t_graph = time.perf_counter() - t0
    t_nx = best_of(lambda: nx.single_source_dijkstra_path_length(graph, start, weight="cards"), 1)
    # Same answer: the packed weights' card totals equal NetworkX's distances.
    f = cost_field(rg, start)
    ref = nx.single_source_dijkstra_path_length(graph, start, weight="cards")
    assert all(int(f.cards[rg.index[h]]) == d for h, d in ref.items())
    print(
        f"{radius:>6} {n:>8} {build:>8.2f} {t_graph:>8.2f} {t_isles:>8.3f} {t_route:>8.3f} "
        f"{t_raw:>9.3f} {t_nx:>10.3f} {t_isles / t_raw:>13.2f} {t_nx / t_isles:>14.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="radius 20 and 50 only")
    parser.add_argument("--repeat", type=int, default=5, help="whole-process runs of each")
    args = parser.parse_args()
    whole_processes(50 if args.quick else 150, args.repeat)
    print()
    radii = [20, 50] if args.quick else [50, 150, 300]
    print("In-process queries (seconds):")
    print(
        f"{'radius':>6} {'hexes':>8} {'build s':>8} {'graph s':>8} {'isles s':>8} {'route s':>8} "
        f"{'csgraph s':>9} {'networkx s':>10} {'isles/csgraph':>13} {'networkx/isles':>14}"
    )
    for radius in radii:
        measure(radius)


if __name__ == "__main__":
    main()
