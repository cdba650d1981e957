"""Benchmark: Plunder games between exact-solver bots, and the tournament on Dask.

Three measures, each beside its baseline in the same run:

1. Per-turn solver time: for every seat and turn of recorded 6-player games,
   what a bot computes (the posterior of every opponent's code, and on its own
   turn the flip advice), with the incremental belief
   (``isles.solvers.plunder.belief.Belief``) against the counting passes of
   ``isles.solvers.plunder.analysis`` recomputed from the record (``posterior`` and
   ``answer_distribution`` per flip option: the previous way, 0.5 s a flip, kept
   in ``tests/plunder/reference.py``).
2. Games per second in one process (``tournament(..., workers=0)``), CPU time too.
3. The same tournament on a Dask local cluster of 1 and of 2 workers (cluster
   start-up timed apart), the speed-up, and a check that all three give the
   same results.

Run: ``python benchmarks/bench_tournament.py [--games N] [--players N]
[--turn-games N] [--skip-dask]``. Wall-clock times on a shared machine are
noisy: the load average is printed.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time
from pathlib import Path

# Run as a script from anywhere: import this checkout, not an installed isles.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from isles.models.plunder.codes import CATEGORIES, COPIES, VALUES
from isles.models.plunder.play import play_game
from isles.models.plunder.record import Record
from isles.solvers.plunder.belief import Belief
from isles.solvers.plunder.counting import posterior
from isles.solvers.plunder.registry import policy_by_name
from isles.solvers.plunder.tournament import DEFAULT_LINEUP, tournament

# The baseline is the previous way: the counting passes over every value per clue (the
# library's answer_distribution now lumps the values no clue names).
from tests.plunder.reference import answer_distribution


def _load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def per_turn(players: int, games: int) -> None:
    lineup = [policy_by_name(n) for n in DEFAULT_LINEUP]
    fast = slow = 0.0
    turns = 0
    for g in range(games):
        seats = [lineup[s % len(lineup)] for s in range(players)]
        game = play_game(seats, seed=1000 + g)
        for p in range(players):
            record = game.record_for(p)
            belief = Belief.start(players, p, game.deal[p])
            for i, obs in enumerate(record.observations):
                prefix = Record(players, record.observations[: i + 1], record.me)
                nxt = (i + 1) % players
                clue = obs.clue
                options = [clue] + [
                    clue.replace(cat, v) for cat in CATEGORIES for v in range(VALUES)
                ]
                t = time.perf_counter()
                belief = belief.observe(obs)
                for q in range(players):
                    if q != p:
                        belief.code_counts(q)
                if nxt == p:
                    belief.flip_bits(clue, p, ((0,) * VALUES,) * 3)
                fast += time.perf_counter() - t
                t = time.perf_counter()
                posterior(prefix)
                if nxt == p:
                    for c in options:
                        answer_distribution(prefix, c, p)
                slow += time.perf_counter() - t
                turns += 1
    assert COPIES == 3
    print(f"per-turn solver time, {players} players, {turns} seat-turns of {games} game(s):")
    print(f"  counting passes (posterior + flip options): {1e3 * slow / turns:8.2f} ms")
    print(f"  incremental belief:                         {1e3 * fast / turns:8.2f} ms")
    print(f"  ratio: {slow / fast:.0f}x")


def serial(players: int, games: int) -> None:
    tournament(players, games=1, seed=99, workers=0)  # first-call tables, imports
    cpu, wall = time.process_time(), time.perf_counter()
    t = tournament(players, games=games, seed=1, workers=0)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    print(
        f"one process: {games} games of {players} players ({', '.join(t.lineup)}): "
        f"{wall:.1f} s wall, {cpu:.1f} s CPU, {games / wall:.2f} games/s "
        f"({1e3 * cpu / games:.0f} ms CPU a game)"
    )


def on_dask(players: int, games: int) -> None:
    import dask
    from distributed import Client, LocalCluster

    from isles.solvers.plunder.cluster import _TRIM

    results = {}
    times = {}
    for workers in (1, 2):
        start = time.perf_counter()
        with dask.config.set({_TRIM: None}):  # as tournament() does (see there)
            cluster = LocalCluster(  # type: ignore[no-untyped-call]
                n_workers=workers,
                threads_per_worker=1,
                processes=True,
                dashboard_address=None,
                silence_logs=logging.ERROR,
            )
        client = Client(cluster)  # type: ignore[no-untyped-call]
        # Warm the workers (imports, first-call tables) before timing the games.
        client.run(lambda: tournament(players, games=1, seed=99, workers=0))
        up = time.perf_counter() - start
        t0 = time.perf_counter()
        res = tournament(players, games=games, seed=1, scheduler=cluster.scheduler_address)
        times[workers] = time.perf_counter() - t0
        results[workers] = res.to_dict()
        client.close()  # type: ignore[no-untyped-call]
        cluster.close()
        print(
            f"Dask, {workers} worker(s): cluster up and warm in {up:.1f} s; {games} games in "
            f"{times[workers]:.1f} s, {games / times[workers]:.2f} games/s"
        )
    same = results[1] == results[2]
    print(f"speed-up 2 vs 1 workers: {times[1] / times[2]:.2f}x; same results: {same}")
    if not same:
        raise SystemExit("1 and 2 workers disagree")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--games", type=int, default=100, help="games per tournament")
    parser.add_argument("--turn-games", type=int, default=1, help="games for the per-turn times")
    parser.add_argument("--skip-dask", action="store_true")
    args = parser.parse_args()
    print(f"load average at start: {_load()} ({os.cpu_count()} cores)")
    per_turn(args.players, args.turn_games)
    serial(args.players, args.games)
    if not args.skip_dask:
        on_dask(args.players, args.games)
    print(f"load average at end: {_load()}")


if __name__ == "__main__":
    main()
