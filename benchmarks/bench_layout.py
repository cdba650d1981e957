"""Board set-up: CP-SAT (isles) against a rejection-sampling shuffler, side by side.

The shuffler is the method common public board randomisers use: shuffle the
tiles and tokens, check the rules, restart on failure. Questions (issues 4, 11):

1. time to the first valid base-game board (19 land hexes, 18 tokens) with 6
   and 8 apart and a vertex pip limit K = 13, 12, 11, 10 (and 9);
2. time to a proven answer where no board exists (K = 8, 7); the shuffler is
   capped (60 s, 5 s with --quick) and can only give up;
3. the default ships request (radius 3, 12 land, 25 sea): CP-SAT's proven
   optimum against the best board the shuffler finds in the same time;
4. a balanced base and extension island (6 and 8 apart, least pip spread,
   frame and harbours): CP-SAT's first valid board and its proven optimum
   against the shuffler's first valid board and the best pip spread it finds
   in the same time (targets: proven in under 1 s and 3 s);
5. N different boards (``layout_boards``) against N separate solves, in one
   process and as whole ``isles layout`` processes;
6. the request of issue 11 (radius 2, 19 land, no-land-triangle off): 41 s
   and unproven before the divisibility bound.

Run: ``python benchmarks/bench_layout.py [--quick] [--only 4,5,6]``. Times are
wall clock on a shared machine: noisy, compare the ratios' order of magnitude.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from isles.layout import (
    Rule,
    SetupRequest,
    colourfulness,
    first_board,
    layout_boards,
    pip_spread,
    rule_violations,
    setup_request,
    solve_layout,
)
from isles.models.board import Board
from isles.models.catan import BASE_LAND, BASE_NUMBER_TOKENS, NUMBER_TOKENS, Terrain, Tile, pips
from isles.models.hexgrid import edges_between, hexagon, vertices_between
from isles.models.layout.games import game_setup
from isles.models.layout.geometry import vertex_groups
from isles.models.status import Status


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


def shuffle_island(
    game: str, cap: float, rng: random.Random, target: int | None
) -> tuple[Board | None, float | None, int, int]:
    """A balanced-board randomiser: shuffle terrains, tokens, harbours; keep 6 and 8 apart.

    Returns (best board by pip spread, seconds to the first valid board whose
    spread is at most ``target`` (any valid board with ``target`` None... see
    below), valid boards, tries). With ``target`` None it runs ``cap``
    seconds and keeps the best; with a target it stops on reaching it.
    """
    setup = game_setup(game)
    island = list(setup.island)
    index = {h: i for i, h in enumerate(island)}
    edges = [(index[e.a], index[e.b]) for e in edges_between(island)]
    terrains = [t for t, n in setup.inventory.items() for _ in range(n)]
    tokens = list(setup.land_tokens)
    kinds = list(setup.harbours)
    frame = {h: Tile(Terrain.SEA) for h in setup.frame}
    best: Board | None = None
    first: float | None = None
    valid = tries = 0
    start = time.perf_counter()
    while time.perf_counter() - start < cap:
        tries += 1
        rng.shuffle(terrains)
        rng.shuffle(tokens)
        it = iter(tokens)
        numbers = [None if t is Terrain.DESERT else next(it) for t in terrains]
        if any(numbers[a] in (6, 8) and numbers[b] in (6, 8) for a, b in edges):
            continue
        rng.shuffle(kinds)
        tiles = {h: Tile(terrains[i], numbers[i]) for i, h in enumerate(island)}
        places = dict(zip(setup.harbour_places, kinds, strict=True))
        board = Board({**tiles, **frame}, harbours=places)
        valid += 1
        if best is None or pip_spread(board) < pip_spread(best):
            best = board
        if target is not None and pip_spread(board) <= target:
            first = time.perf_counter() - start
            break
    return best, first, valid, tries


def bench_islands(runs: int) -> None:
    print("Balanced islands (6 and 8 apart, least pip spread, frame and 9 / 11 harbours)")
    print(
        f"{'game':<10} {'method':<9} {'first valid s':>13} {'best found':>10} "
        f"{'in s':>6} {'proof':>8} {'ratio':>12}"
    )
    rng = random.Random(11)
    for game in ("base", "extension"):
        request = setup_request(game=game)
        first_times, opt_times = [], []
        result = None
        for seed in range(runs):
            start = time.perf_counter()
            quick = first_board(request, time_limit=60, seed=seed)
            first_times.append(time.perf_counter() - start)
            assert quick.board is not None and rule_violations(request, quick.board) == []
            start = time.perf_counter()
            result = solve_layout(request, seed=seed, time_limit=60)
            opt_times.append(time.perf_counter() - start)
            assert result.board is not None and rule_violations(request, result.board) == []
        assert result is not None
        cp_first, cp_opt = statistics.median(first_times), statistics.median(opt_times)
        firsts = [shuffle_island(game, 60, rng, 99)[1] or 60.0 for _ in range(runs)]
        sh_first = statistics.median(firsts)
        best, _, valid, tries = shuffle_island(game, cp_opt, rng, None)
        sh_best = "none" if best is None else str(pip_spread(best))
        print(
            f"{game:<10} {'CP-SAT':<9} {cp_first:13.3f} {result.pip_spread!s:>10} "
            f"{cp_opt:6.2f} {result.status.value:>8} {sh_first / cp_first:11.3f}x"
        )
        print(
            f"{game:<10} {'shuffler':<9} {sh_first:13.4f} {sh_best:>10} {cp_opt:6.2f} "
            f"{'no':>8} {f'{valid}/{tries} valid':>12}"
        )
        # how long the shuffler needs to reach the proven optimum, if ever
        reach_cap = 10.0 if runs == 1 else 60.0
        target = result.pip_spread or 0
        reached = [shuffle_island(game, reach_cap, rng, target)[1] for _ in range(runs)]
        times = [t for t in reached if t is not None]
        if len(times) == len(reached):
            med = statistics.median(times)
            shown, ratio = f"{med:.2f} s", f"{med / cp_opt:.1f}x"
        else:
            shown, ratio = f"not always in {reach_cap:.0f} s", f"> {reach_cap / cp_opt:.0f}x"
        print(
            f"{'':<10} shuffler to spread {target} (median of {runs}): {shown}, "
            f"never a proof; CP-SAT proves it in {cp_opt:.2f} s: {ratio}"
        )


def bench_count(count: int) -> None:
    print()
    print(f"{count} different boards: layout_boards against {count} separate solves")
    print(f"{'game':<10} {'series s':>9} {'separate s':>11} {'ratio':>7} {'processes':>24}")
    for game in ("base", "extension"):
        request = setup_request(game=game)
        start = time.perf_counter()
        series = layout_boards(request, count, time_limit=60)
        together = time.perf_counter() - start
        assert series.status is Status.OPTIMAL and len(series.boards) == count
        start = time.perf_counter()
        for seed in range(count):
            solve_layout(request, seed=seed, time_limit=60)
        apart = time.perf_counter() - start
        cli = [sys.executable, "-m", "isles", "layout", "--game", game]
        start = time.perf_counter()
        subprocess.run([*cli, "--count", str(count)], check=True, capture_output=True)
        one_process = time.perf_counter() - start
        start = time.perf_counter()
        for seed in range(count):
            subprocess.run([*cli, "--seed", str(seed)], check=True, capture_output=True)
        processes = time.perf_counter() - start
        print(
            f"{game:<10} {together:9.2f} {apart:11.2f} {apart / together:6.1f}x "
            f"{one_process:6.1f} s vs {processes:5.1f} s ({processes / one_process:.1f}x)"
        )
    print("(separate solves do not even promise different boards; the series does)")


def bench_issue_request() -> None:
    print()
    request = setup_request(radius=2, land=19, rules={"no-land-triangle": False})
    start = time.perf_counter()
    result = solve_layout(request, time_limit=60)
    seconds = time.perf_counter() - start
    print(
        "Issue 11 request (radius 2, 19 land, no-land-triangle off): "
        f"{result.status.value}, spread {result.pip_spread} (bound {result.pip_spread_bound}) "
        f"in {seconds:.2f} s; before the divisibility bound: 41 s, feasible, bound 0"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small caps, one run per row")
    parser.add_argument("--only", default="1,2,3,4,5,6", help="questions to run, e.g. 4,5,6")
    args = parser.parse_args()
    cap = 5.0 if args.quick else 60.0
    runs = 1 if args.quick else 10
    rng = random.Random(2024)
    only = {int(x) for x in args.only.split(",")}
    if 4 in only:
        bench_islands(1 if args.quick else 5)
    if 5 in only:
        bench_count(4 if args.quick else 10)
    if 6 in only:
        bench_issue_request()
    if not only & {1, 2, 3}:
        return
    print()

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
