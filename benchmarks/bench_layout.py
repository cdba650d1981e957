"""Board set-up: CP-SAT (isles) against a rejection-sampling shuffler, side by side.

The shuffler is the method common public board randomisers use: shuffle the
tiles and tokens, check the rules, restart on failure. Questions (issue 4):

1. time to the first valid base-game board (19 land hexes, 18 tokens) with 6
   and 8 apart and a vertex pip limit K = 13, 12, 11, 10 (and 9);
2. time to a proven answer where no board exists (K = 8, 7); the shuffler is
   capped (60 s, 5 s with --quick) and can only give up;
3. the default ships request (radius 3, 12 land, 25 sea): CP-SAT's proven
   optimum against the best board the shuffler finds in the same time.

Run: ``python benchmarks/bench_layout.py [--quick]``. Times are wall clock on a
shared machine: noisy, compare the ratios' order of magnitude.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from isles.models.catan import (
    BASE_LAND,
    BASE_NUMBER_TOKENS,
    NUMBER_TOKENS,
    Board,
    Terrain,
    Tile,
    pips,
)
from isles.models.hexgrid import edges_between, hexagon, vertices_between
from isles.models.setup import (
    Rule,
    SetupRequest,
    colourfulness,
    rule_violations,
    vertex_groups,
)
from isles.models.status import Status
from isles.solvers.layout import first_board, solve_layout


def base_request(max_pips: int) -> SetupRequest:
    """The base game island: radius 2, all 19 land, 6/8 apart, vertex pips <= K."""
    return SetupRequest.hexagon(
        2,
        land=19,
        rules=frozenset({Rule.SIX_EIGHT_APART, Rule.VERTEX_PIPS}),
        max_pips=max_pips,
    )


def shuffle_base(max_pips: int, cap: float, rng: random.Random) -> tuple[Board | None, float, int]:
    """Shuffle, check, restart until a valid base board or ``cap`` seconds.

    Returns (board or None, seconds, tries).
    """
    pos = hexagon(2)
    index = {h: i for i, h in enumerate(pos)}
    edges = [(index[e.a], index[e.b]) for e in edges_between(pos)]
    corners = [[index[h] for h in g] for g in vertex_groups(pos) if 5 * len(g) > max_pips]
    terrains = [t for t, n in BASE_LAND.items() for _ in range(n)]
    tokens = list(BASE_NUMBER_TOKENS)
    start = time.perf_counter()
    tries = 0
    while time.perf_counter() - start < cap:
        tries += 1
        rng.shuffle(terrains)
        rng.shuffle(tokens)
        it = iter(tokens)
        numbers = [None if t is Terrain.DESERT else next(it) for t in terrains]
        pip = [0 if n is None else pips(n) for n in numbers]
        if any(pip[a] == 5 and pip[b] == 5 for a, b in edges):
            continue
        if any(sum(pip[i] for i in g) > max_pips for g in corners):
            continue
        board = Board({h: Tile(terrains[i], numbers[i]) for i, h in enumerate(pos)})
        return board, time.perf_counter() - start, tries
    return None, time.perf_counter() - start, tries


def shuffle_ships(cap: float, rng: random.Random) -> tuple[Board | None, int, int]:
    """The default ships request by rejection sampling for ``cap`` seconds.

    Returns (best valid board or None, valid boards found, tries).
    """
    request = SetupRequest.hexagon(3)
    pos = list(request.positions)
    index = {h: i for i, h in enumerate(pos)}
    edges = [(index[e.a], index[e.b]) for e in edges_between(pos)]
    corners = [[index[h] for h in v] for v in vertices_between(pos)]
    inventory = [t for t, n in BASE_LAND.items() for _ in range(n)]
    kinds = ["L"] * request.land + ["S"] * request.sea
    per, extra = divmod(request.sea, len(NUMBER_TOKENS))
    best: Board | None = None
    found = 0
    tries = 0
    start = time.perf_counter()
    while time.perf_counter() - start < cap:
        tries += 1
        rng.shuffle(kinds)
        land = [i for i, k in enumerate(kinds) if k == "L"]
        if any(all(kinds[i] == "L" for i in c) for c in corners):
            continue
        rng.shuffle(inventory)
        terrain: list[Terrain] = [Terrain.SEA] * len(pos)
        for i, t in zip(land, inventory, strict=False):
            terrain[i] = t
        tokens = list(BASE_NUMBER_TOKENS)
        rng.shuffle(tokens)
        number: list[int | None] = [None] * len(pos)
        it = iter(tokens)
        for i in land:
            if terrain[i] is not Terrain.DESERT:
                number[i] = next(it)
        if any(
            kinds[a] == kinds[b] == "L" and number[a] in (6, 8) and number[b] in (6, 8)
            for a, b in edges
        ):
            continue
        heavy = rng.sample(list(NUMBER_TOKENS), extra)
        sea_tokens = [v for v in NUMBER_TOKENS for _ in range(per + (v in heavy))]
        rng.shuffle(sea_tokens)
        sea_it = iter(sea_tokens)
        for i, k in enumerate(kinds):
            if k == "S":
                number[i] = next(sea_it)
        if any(kinds[a] == kinds[b] == "S" and number[a] == number[b] for a, b in edges):
            continue
        board = Board({h: Tile(terrain[i], number[i]) for i, h in enumerate(pos)})
        found += 1
        if best is None or colourfulness(board) > colourfulness(best):
            best = board
    if best is not None:
        assert rule_violations(request, best) == []
    return best, found, tries


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small caps, one run per row")
    args = parser.parse_args()
    cap = 5.0 if args.quick else 60.0
    runs = 1 if args.quick else 10
    rng = random.Random(2024)

    print("Base game, 6/8 apart, vertex pips <= K: time to the first valid board")
    print(f"{'K':>3} {'shuffler s':>11} {'tries':>9} {'CP-SAT s':>9} {'answer':>10} {'ratio':>8}")
    for k in (13, 12, 11, 10, 9, 8, 7):
        request = base_request(k)
        shuffler_times: list[float] = []
        tries_total = 0
        found_any = False
        # a capped shuffler run says "gave up": repeating it only burns the shared CPU
        for _ in range(runs if k >= 10 else 1):
            board, seconds, tries = shuffle_base(k, cap, rng)
            shuffler_times.append(seconds)
            tries_total += tries
            if board is not None:
                found_any = True
                assert rule_violations(request, board) == []
        start = time.perf_counter()
        result = first_board(request, time_limit=60)
        cp_seconds = time.perf_counter() - start
        if result.board is not None:
            assert rule_violations(request, result.board) == []
        shuffler = sum(shuffler_times) / len(shuffler_times)
        shown = f"{shuffler:11.3f}" if found_any else f"{'>' + format(cap, '.0f'):>11}"
        answer = result.status.value
        ratio = f"{shuffler / cp_seconds:.1f}x"
        if not found_any:
            ratio = ">" + ratio  # the shuffler gave up at the cap
        print(
            f"{k:>3} {shown} {tries_total // len(shuffler_times):>9} "
            f"{cp_seconds:9.3f} {answer:>10} {ratio:>8}"
        )
        if result.conflict:
            print(f"    conflict: {', '.join(result.conflict)}")

    print()
    print("Default ships request (radius 3, 12 land, 25 sea, default rules)")
    start = time.perf_counter()
    optimum = solve_layout(SetupRequest.hexagon(3), time_limit=60)
    cp_seconds = time.perf_counter() - start
    assert optimum.board is not None
    assert rule_violations(SetupRequest.hexagon(3), optimum.board) == []
    budget = max(cp_seconds, 1.0)
    best, found, tries = shuffle_ships(budget, rng)
    print(f"{'method':<10} {'seconds':>8} {'colourfulness':>14} {'proof':>8} {'valid/tries':>14}")
    print(
        f"{'CP-SAT':<10} {cp_seconds:8.2f} {optimum.colourfulness:>14} "
        f"{optimum.status.value:>8} {'':>14}"
    )
    best_colour = "none" if best is None else str(colourfulness(best))
    print(f"{'shuffler':<10} {budget:8.2f} {best_colour:>14} {'no':>8} {f'{found}/{tries}':>14}")
    assert optimum.status is Status.OPTIMAL


if __name__ == "__main__":
    main()
