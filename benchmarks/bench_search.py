"""Benchmark: how strong the Plunder search policy is, and how long it thinks.

Tournaments with rotating seats (``isles.solvers.plunder.tournament``, on Dask):
one ``search`` seat against ``players - 1`` seats of one built-in policy. Game
``g`` turns the seats by ``g`` places, so the search sits in every seat in turn.
For each match: the search's win rate with its 95% Wilson interval beside parity
(``1 / players``), its mean score, and its mean score margin over the others (its
score minus the mean of the others' in the same game, and minus the best of them),
with 95% normal intervals. First (``--decisions N``), the time of every decision of
one search seat over ``N`` games at 6 players.

Run: ``python benchmarks/bench_search.py [--games N] [--budget B] [--workers W]
[--match PLAYERS:POLICY ...] [--decisions N]``. Defaults: the four matches of
docs/plunder.md ("The search policy", "How strong"). Wall-clock times on a shared
machine are noisy: the load average is printed. ``--time-limit SEC`` ends each
match early with the games played (and says so).

Measured now over 1,000 games (the default, fifth round: the deals weighed from the
first plan, no dig now below 0.25; docs/plunder.md, "How strong"; seed 0, games 0 to
999, paired with the default before): 4 players against three ``threshold:0.5`` 431
wins, 43.10% [40.1, 46.2] (before: 383), margin +1.93 [+1.63, +2.23]; 6 players
against five 354 wins, 35.40% [32.5, 38.4] (before: 289), margin +2.35 [+2.08,
+2.63]; 4 players against three ``expected`` (games 0 to 199) 41.50% [34.9, 48.4]
(before: 35.00%), against three ``certain`` 40.50% [33.9, 47.4] (before: 34.00%);
over games 0 to 999 (``--games 1000 --match 4:expected --match 4:certain``, 2
workers) 37.90% [34.9, 40.9], margin +1.13 [+0.81, +1.44], and 37.60% [34.7,
40.6], margin +1.09 [+0.78, +1.41]; 5 players against four ``threshold:0.5`` (games 0
to 999, ``--match 5:threshold:0.5``) 39.00% [36.0, 42.1], margin +2.15 [+1.85, +2.45].
Decisions at 6 players (``--decisions 10``, 176 decisions, CPU, load 1.5): median 17 ms,
90% 239 ms, at most 855 ms; the 54 decisions of ``--decisions 3``: median 24 ms, 90%
109 ms, at most 468 ms.

Before, over 1,000 games (the default of the fourth round): 4 players against three
``threshold:0.5`` 383 wins, 38.30% [35.3, 41.4], margin +1.20 [+0.91, +1.50]; 6
players against five 289 wins, 28.90% [26.2, 31.8], margin +1.47 [+1.19, +1.74].

My guesses in the games played on from the weighed deals (the fourth round's default;
docs/plunder.md, "How strong"; seed 0, games 0 to 399, one process per 100 or 200
games): 4 players against three ``threshold:0.5`` 40.00% [35.3, 44.9]
(before: 36.00%), margin +1.34 [+0.88, +1.80]; 6 players against five 27.50%
[23.4, 32.1] (before: 25.25%), margin +1.45 [+1.02, +1.88]; 4 players against
three ``expected`` (games 0 to 199) 35.00% [28.7, 41.8] (before: 33.00%), against
three ``certain`` 34.00% [27.8, 40.8] (before: 32.00%). Decisions at 6 players
(``--decisions 3``, CPU, load 2.3): median 58 ms, 90% 259 ms, at most 459 ms.

Before, flips searched on 32 games each (docs/plunder.md, "How
strong"; seed 0, games 0 to 399, load 1.3 to 2.1): 4 players against three
``threshold:0.5`` 36.00% [31.4, 40.8] (before: 33.75%), margin +1.09 [+0.62, +1.56];
6 players against five 25.25% [21.2, 29.7] (before: 26.50%), margin +1.27 [+0.85,
+1.69]; 4 players against three ``expected`` (games 0 to 199) 33.00% [26.9, 39.8]
(before: 34.00%), against three ``certain`` 32.00% [25.9, 38.8] (before: 31.00%).
Decisions at 6 players (``--decisions 3``, CPU, load 1.4 to 1.9): median 63 ms,
90% 294 ms, at most 506 ms. ``--budget 256`` at 4 players, with the older rule
(flips searched from 256 on ``BUDGET / options`` games each): 37.25% [32.7, 42.1].

Before, a game played on worth its margin over the best other (docs/plunder.md,
"How strong"; seed 0, games 0 to 399, one process per 200 games,
load 1.4 to 3.9): 6 players against five ``threshold:0.5`` 26.50% [22.4, 31.0]
(before, a win plus 0.2 a point of margin: 23.75%), margin +1.28 [+0.86, +1.71];
4 players against three 33.75% [29.3, 38.5] (before: 34.00%), margin +0.70
[+0.25, +1.15]; 4 players against three ``expected`` (games 0 to 199) 34.00% [27.8,
40.8] (before: 31.00%). Decisions at 6 players (``--decisions 3``, CPU, load 2.9 to 3.8):
median 15 ms, 90% 145 ms, at most 366 ms.

Before (docs/plunder.md, "How strong"; seed 0, games 0 to 399, one process,
load about 3), with the last turn exact, the flip for the digs and margin weight
0.2: 6 players against five ``threshold:0.5`` 23.75% [19.8, 28.2], margin +1.02
[+0.59, +1.45]; 4 players against three 34.00% [29.5, 38.8], margin +0.59 [+0.13,
+1.05]. Decisions at 6 players (``--decisions 3``, CPU, load 0.3 to 1.1): median
15 ms, 90% 299 ms, at most 529 ms.

With the others modelled by the candidate their play names (kept since;
seed 0, games 0 to 199, one process, load 1.0 to 1.4; before it, the same games):
4 players against three ``expected`` 31.0% [25.0, 37.7] (before 30.0%), margin
+0.25 [-0.42, +0.91] (before -0.11; paired difference +0.36 [+0.10, +0.62]);
against three ``certain`` 29.5% [23.6, 36.2] (before 28.0%), margin +0.05
[-0.62, +0.71] (before -0.33; paired +0.37 [+0.12, +0.63]). Against
``threshold:0.5`` it plays as before, game by game (games 0 to 199 at 4 and 6
players). Decisions at 6 players (CPU, load 1.3): median 12 ms, 90% 126 ms, at
most 301 ms.

Before (seed 0, 200 games a match, a shared
2-core machine at load 4 to 13), budget 32 with the deals weighed by the others'
play (the default): 6 players against five ``threshold:0.5`` 20.5% [15.5,
26.6], margin +0.40 over the others' mean (before the weighing: 20.5%, +0.24),
over 400 games 20.75% [17.1, 25.0], margin +0.59 [+0.17, +1.02]; 4 players
against three 32.5% [26.4, 39.3], margin +0.19 (before: 31.5%, +0.05), over 400
games 30.25% [26.0, 34.9]; 4 players against three ``expected`` 30.6% [24.0, 38.2] and three
``certain`` 27.5% [21.2, 34.9] (160 games; before: 25.0%, 24.5%). Decisions
at 6 players (``--decisions 3``, CPU, load 2.9 to 7.7): median 16 ms, 90% 165
ms, at most 379 ms (the weighing switched off: 37, 166, 399 ms).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from pathlib import Path

import numpy as np

# Run as a script from anywhere: import this checkout, not an installed isles.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from isles.models.plunder.play import PlayerView, play_game
from isles.models.plunder.scoring import score_range
from isles.solvers.plunder.registry import policy_by_name
from isles.solvers.plunder.search import DEFAULT_BUDGET, SearchPolicy
from isles.solvers.plunder.tournament import tournament

MATCHES = ("6:threshold:0.5", "4:threshold:0.5", "4:expected", "4:certain")


def _load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def _mean_ci(xs: list[float], players: int) -> str:
    """The mean margin and its normal 95% interval, clipped to the margins possible
    (a score less others' scores: within +-(highest - lowest score))."""
    a = np.array(xs, dtype=np.float64)
    half = 1.959963984540054 * float(a.std(ddof=1)) / math.sqrt(len(a)) if len(a) > 1 else 0.0
    low, high = score_range(players)
    lo, hi = np.clip([a.mean() - half, a.mean() + half], low - high, high - low)
    return f"{a.mean():+.2f} [{lo:+.2f}, {hi:+.2f}]"


def match(
    players: int,
    other: str,
    games: int,
    budget: int,
    workers: int,
    seed: int,
    time_limit: float | None = None,
) -> None:
    """One search seat against ``players - 1`` of ``other``: win rate, score, margins."""
    search = SearchPolicy(budget)
    lineup = [search.name] + [other] * (players - 1)
    t = time.monotonic()
    result = tournament(
        players, lineup, games=games, seed=seed, workers=workers, time_limit=time_limit
    )
    wall = time.monotonic() - t
    mean_margin: list[float] = []
    best_margin: list[float] = []
    for r in result.results:
        s = r.seats.index(search.name)
        others = [x for p, x in enumerate(r.totals) if p != s]
        mean_margin.append(r.totals[s] - sum(others) / len(others))
        best_margin.append(r.totals[s] - max(others))
    stats = {p.name: p for p in result.policies}
    me, them = stats[search.name], stats[policy_by_name(other).name]
    lo, hi = me.win_ci95
    print(
        f"{players} players, {search.name} vs {players - 1} x {them.name}, {result.games} games "
        f"(seed {seed}, {wall:.0f} s wall on {workers} worker(s), load {_load()})"
        + (
            f", stopped at the {time_limit:.0f} s time limit:"
            if result.stopped_at_time_limit
            else ":"
        )
    )
    print(
        f"  search wins {me.win_rate:.3f} [{lo:.3f}, {hi:.3f}] (parity {1 / players:.3f}; "
        f"lower end {'above' if lo > 1 / players else 'NOT above'} parity); "
        f"each {them.name} seat {them.win_rate:.3f}"
    )
    print(f"  mean score: search {me.mean_score:.2f}, {them.name} {them.mean_score:.2f}")
    print(f"  margin over the others' mean {_mean_ci(mean_margin, players)}")
    print(f"  margin over the best other {_mean_ci(best_margin, players)}")
    sys.stdout.flush()


class _Timed:
    """A search seat whose decisions are timed."""

    def __init__(self, inner: object, times: list[tuple[float, float]]) -> None:
        self.inner, self.times = inner, times

    def flip(self, view: PlayerView) -> object:
        t, c = time.perf_counter(), time.process_time()
        out = self.inner.flip(view)  # type: ignore[attr-defined]
        self.times.append((time.perf_counter() - t, time.process_time() - c))
        return out

    def crew(self, view: PlayerView) -> object:
        t, c = time.perf_counter(), time.process_time()
        out = self.inner.crew(view)  # type: ignore[attr-defined]
        self.times.append((time.perf_counter() - t, time.process_time() - c))
        return out


class _TimedPolicy:
    def __init__(self, inner: SearchPolicy, times: list[tuple[float, float]]) -> None:
        self.inner, self.times, self.name = inner, times, inner.name

    def seat(self, players: int, player: int, code: object, rng: np.random.Generator) -> object:
        return _Timed(self.inner.seat(players, player, code, rng), self.times)  # type: ignore[arg-type]


def decisions(players: int, budget: int, games: int) -> None:
    """The time of every decision of one search seat among ``threshold:0.5`` ones."""
    times: list[tuple[float, float]] = []
    other = policy_by_name("threshold:0.5")
    t = time.process_time()
    for g in range(games):
        seats = [_TimedPolicy(SearchPolicy(budget), times) if p == g % players else other
                 for p in range(players)]  # fmt: skip
        play_game(seats, seed=500 + g)  # type: ignore[arg-type]
    cpu = time.process_time() - t
    print(
        f"decision time, search:{budget}, {players} players, {len(times)} decisions of {games} "
        f"games (load {_load()}); {cpu / games:.1f} s CPU a game (the others included):"
    )
    for k, what in enumerate(("wall clock", "CPU (this process)")):
        a = np.array([x[k] for x in times])
        print(
            f"  {what}: median {1e3 * np.median(a):.0f} ms, 90% {1e3 * np.quantile(a, 0.9):.0f}"
            f" ms, max {1e3 * a.max():.0f} ms"
        )
    sys.stdout.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--match", action="append", help="PLAYERS:POLICY, e.g. 6:threshold:0.5")
    parser.add_argument("--decisions", type=int, default=4, help="games timed (0: none)")
    parser.add_argument(
        "--time-limit", type=float, default=None, help="seconds a match (ends it early)"
    )
    args = parser.parse_args()
    if args.decisions:
        decisions(6, args.budget, args.decisions)
    for m in args.match or MATCHES:
        players, _, other = m.partition(":")
        match(
            int(players), other, args.games, args.budget, args.workers, args.seed, args.time_limit
        )


if __name__ == "__main__":
    main()
