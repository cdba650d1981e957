"""Benchmark: Plunder flip advice with no code known, the lumped passes against the old ones.

Flip advice needs the answer distribution of up to 16 clues (the clue on the
table and each card a flip can bring up). With no code known it used to run one
forward pass over every value per clue (``tests/plunder/reference.py``, the code
as it stood before); ``isles.solvers.plunder.analysis.flip_advice`` now counts with the
values no clue names lumped, the clues of one deck in one pass
(``isles.solvers.plunder.answers``). Side by side, with the answers checked
identical:

1. records generated from a hidden deal (as ``bench_plunder.py``: the clue
   persists and one card is flipped a turn), 3 to 6 players, 0 to 15 turns,
   three seeds each: the advice for the next player on the last clue;
2. the public records of recorded 6-player games (default line-up), at every
   turn, the advice for the next player (what a bot or a search would ask);
3. the first call in a fresh process (tables built on first use);
4. 300 records drawn at random (3 to 6 players, 0 to 20 turns, the clue
   persistent or drawn afresh each turn): the slowest new advice (new passes
   only: the old ones would take minutes).

Times are CPU seconds of this process (``time.process_time``), best of
``--repeats`` for the new passes, one run of the old ones; the load average is
printed. Run: ``python benchmarks/bench_plunder_flip.py [--quick] [--repeats N]
[--games N]``.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

# Run as a script from anywhere: import this checkout, not an installed isles.
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_plunder import make_record  # noqa: E402

import tests.plunder.reference as reference  # noqa: E402
from isles.models.plunder.codes import CATEGORIES, Code, answer  # noqa: E402
from isles.models.plunder.play import play_game  # noqa: E402
from isles.models.plunder.record import Observation, Record  # noqa: E402
from isles.solvers.plunder.flips import FlipAdvice, flip_advice  # noqa: E402
from isles.solvers.plunder.registry import policy_by_name  # noqa: E402
from isles.solvers.plunder.tournament import DEFAULT_LINEUP  # noqa: E402


def _load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def _cpu(fn: Callable[[], FlipAdvice], repeats: int) -> tuple[float, FlipAdvice]:
    best, out = float("inf"), None
    for _ in range(repeats):
        t = time.process_time()
        out = fn()
        best = min(best, time.process_time() - t)
    assert out is not None
    return best, out


def _side_by_side(record: Record, clue: Code, active: int, repeats: int) -> tuple[float, float]:
    old, want = _cpu(lambda: reference.flip_advice(record, clue, active), 1)
    new, got = _cpu(lambda: flip_advice(record, clue, active), repeats)
    assert got == want, (record, clue, active)
    return old, new


def _ratio(old: float, new: float) -> str:
    return f"{old / new:,.0f}x" if new > 0 else "-"


def generated(players_list: list[int], turns_list: list[int], repeats: int) -> None:
    print("1. generated records, advice for the next player on the last clue (CPU ms):")
    header = f"{'players':>7} {'turns':>5} {'old':>20} {'new':>18} {'ratio':>11}"
    print(header)
    print("-" * len(header))
    for n in players_list:
        for turns in turns_list:
            olds, news = [], []
            for seed in range(3):
                record = make_record(n, turns, seed=100 * seed + 10 * n + turns)
                clue = record.observations[-1].clue if record.observations else Code(1, 2, 3)
                old, new = _side_by_side(record, clue, turns % n, repeats)
                olds.append(old)
                news.append(new)
            ratios = [o / m for o, m in zip(olds, news, strict=True)]
            spread = f"{min(ratios):,.0f}-{max(ratios):,.0f}x"
            print(f"{n:>7} {turns:>5} {_span(olds):>20} {_span(news):>18} {spread:>11}")


def _span(times: list[float]) -> str:
    return f"{1e3 * min(times):.1f}-{1e3 * max(times):.1f} ms"


def games(players: int, count: int, repeats: int) -> None:
    lineup = [policy_by_name(n) for n in DEFAULT_LINEUP]
    olds, news = [], []
    for g in range(count):
        seats = [lineup[s % len(lineup)] for s in range(players)]
        game = play_game(seats, seed=1000 + g)
        observations = game.record_for(0).observations
        for i, obs in enumerate(observations):
            record = Record(players, observations[: i + 1])
            old, new = _side_by_side(record, obs.clue, (i + 1) % players, repeats)
            olds.append(old)
            news.append(new)
    print(
        f"\n2. {players}-player games ({count}, {len(olds)} turns), public record, "
        "advice for the next player (CPU ms):"
    )
    for name, t in (("old", olds), ("new", news)):
        print(
            f"  {name}: mean {1e3 * statistics.mean(t):7.1f}, median "
            f"{1e3 * statistics.median(t):7.1f}, max {1e3 * max(t):7.1f}"
        )
    print(f"  ratio of the means: {_ratio(statistics.mean(olds), statistics.mean(news))}")


def cold() -> None:
    print("\n3. first flip advice in a fresh process (6 players, nothing known), CPU ms:")
    engines = (("old", "tests.plunder.reference"), ("new", "isles.solvers.plunder.analysis"))
    for name, module in engines:
        code = (
            "import time\n"
            "from isles.models.plunder.codes import Code\n"
            "from isles.models.plunder.record import Record\n"
            f"from {module} import flip_advice\n"
            "t = time.process_time()\n"
            "flip_advice(Record(6), Code(1, 2, 3), 0)\n"
            "print(f'{1e3 * (time.process_time() - t):.1f}')\n"
        )
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        run = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
        )
        print(f"  {name}: {run.stdout.strip()}")


def random_record(seed: int) -> tuple[Record, Code]:
    rng = random.Random(seed)
    n = rng.randint(3, 6)
    perms = [rng.sample(range(6), 6) for _ in CATEGORIES]
    deal = [Code(perms[0][p], perms[1][p], perms[2][p]) for p in range(n)]
    persistent = rng.random() < 0.5
    clue = Code(rng.randrange(6), rng.randrange(6), rng.randrange(6))
    observations = []
    for t in range(rng.randint(0, 20)):
        if t and persistent:
            clue = clue.replace(rng.choice(CATEGORIES), rng.randrange(6))
        elif t:
            clue = Code(rng.randrange(6), rng.randrange(6), rng.randrange(6))
        answers = {p: answer(deal[p], clue) for p in range(n) if p != t % n}
        observations.append(Observation(t % n, clue, answers))
    return Record(n, tuple(observations)), clue


def drawn(count: int) -> None:
    worst = (0.0, "")
    for seed in range(count):
        record, clue = random_record(seed)
        active = len(record.observations) % record.players
        t, _ = _cpu(partial(flip_advice, record, clue, active), 1)
        worst = max(worst, (t, f"{record.players} players, {len(record.observations)} turns"))
    print(f"\n4. {count} random records: slowest new advice {1e3 * worst[0]:.1f} ms ({worst[1]})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="4 and 6 players, 0/3/15 turns")
    parser.add_argument("--repeats", type=int, default=5, help="runs of the new passes (best)")
    parser.add_argument("--games", type=int, default=3, help="6-player games for part 2")
    args = parser.parse_args()
    print(f"load average: {_load()}")
    players_list = [4, 6] if args.quick else [3, 4, 5, 6]
    turns_list = [0, 3, 15] if args.quick else [0, 1, 3, 8, 15]
    flip_advice(Record(6), Code(0, 0, 0), 0)  # first-use tables, both ways
    reference.flip_advice(Record(6), Code(0, 0, 0), 0)
    generated(players_list, turns_list, args.repeats)
    games(6, 1 if args.quick else args.games, args.repeats)
    cold()
    drawn(30 if args.quick else 300)
    print(f"\nload average: {_load()}")


if __name__ == "__main__":
    main()
