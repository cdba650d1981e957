"""Benchmark: cheapest car routes from one hex to every hex on big hexagon boards.

isles' planner core (``cost_field``: SciPy csgraph over the packed CSR form,
plus the path to the farthest goal with ``plan_route``) against plain NetworkX
Dijkstra and raw ``scipy.sparse.csgraph.dijkstra`` on the same graph, in one
run. Run: ``python benchmarks/bench_rally.py [--quick]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import networkx as nx
import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

from isles.models.catan import NUMBER_TOKENS, Board, Terrain, Tile
from isles.models.hexgrid import Hex, hexagon, ring
from isles.solvers.rally import build_graph, cost_field, plan_route

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
    raw = csr_matrix((rg._cards.astype(np.float64) + 1e-9, (rg._tail, rg._head)), shape=(n, n))
    s = rg.index[start]
    repeat = 5 if radius <= 150 else 3
    t_isles = best_of(lambda: cost_field(rg, start), repeat)
    t_route = best_of(lambda: plan_route(rg, start, goals=[far]), repeat)
    t_raw = best_of(lambda: dijkstra(raw, directed=True, indices=s), repeat)
    t_nx = best_of(
        lambda: nx.single_source_dijkstra_path_length(rg.graph, start, weight="cards"), 1
    )
    # Same answer: the packed weights' card totals equal NetworkX's distances.
    f = cost_field(rg, start)
    ref = nx.single_source_dijkstra_path_length(rg.graph, start, weight="cards")
    assert all(int(f.cards[rg.index[h]]) == d for h, d in ref.items())
    print(
        f"{radius:>6} {n:>8} {build:>8.2f} {t_isles:>8.3f} {t_route:>8.3f} {t_raw:>9.3f} "
        f"{t_nx:>10.3f} {t_isles / t_raw:>13.2f} {t_nx / t_isles:>14.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="radius 20 and 50 only")
    args = parser.parse_args()
    radii = [20, 50] if args.quick else [50, 150, 300]
    print(
        f"{'radius':>6} {'hexes':>8} {'build s':>8} {'isles s':>8} {'route s':>8} "
        f"{'csgraph s':>9} {'networkx s':>10} {'isles/csgraph':>13} {'networkx/isles':>14}"
    )
    for radius in radii:
        measure(radius)


if __name__ == "__main__":
    main()
