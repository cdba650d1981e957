"""Benchmark: the exact Plunder posterior, isles versus enumeration, side by side.

For 3..6 players after 0, 1, 3, 8 and 15 turns (records generated from a hidden
deal, no code known), times ``isles.solvers.plunder.analysis.posterior`` (dynamic programming
over used values) against two baselines that enumerate every consistent deal:
a plain Python backtracking over per-player allowed codes, and Z3 model
enumeration with blocking clauses. Baselines stop at ``--cap`` seconds; a
baseline whose estimated time (deals / its best measured rate, a lower bound)
exceeds 3 x cap is skipped and its estimate printed. Then, on 15-turn records, Z3
consistency, a conflict minimal by inclusion versus a smallest conflict (answers
flipped), and forced values with their smallest proofs. Last, long 6-player
records (60 and 200 turns, docs/plunder.md "Time limit"): the time to count, to
find minimal proofs, the default ``isles plunder`` answer (3 s time limit), and
the time until every proof is proven smallest. Run: ``python
benchmarks/bench_plunder.py [--quick] [--cap SECONDS] [--long-only]
[--write-records DIR]``. Timings are wall-clock on a shared machine: noisy.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import z3

# Run as a script from anywhere: import this checkout, not an installed isles.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from isles.models.plunder.codes import CATEGORIES, Code, answer
from isles.models.plunder.record import Observation, Record
from isles.solvers.plunder.counting import posterior
from isles.solvers.plunder.deduction import (
    DEFAULT_TIME_LIMIT,
    deduce,
    forced_values,
    smallest_conflict,
    z3_consistent,
)
from isles.solvers.plunder.z3record import AnswerId, Z3Record

ALL_CODES = [Code.from_index(c) for c in range(216)]


class TimedOut(Exception):
    pass


def make_record(players: int, turns: int, seed: int) -> Record:
    """A record from a hidden deal: the clue persists and one card is flipped per turn."""
    rng = random.Random(seed)
    perms = [rng.sample(range(6), 6) for _ in CATEGORIES]
    deal = [Code(perms[0][p], perms[1][p], perms[2][p]) for p in range(players)]
    clue = Code(rng.randrange(6), rng.randrange(6), rng.randrange(6))
    observations = []
    for t in range(turns):
        if t:
            clue = clue.replace(rng.choice(CATEGORIES), rng.randrange(6))
        active = t % players
        answers = {p: answer(deal[p], clue) for p in range(players) if p != active}
        observations.append(Observation(active, clue, answers))
    return Record(players, tuple(observations))


def brute_force(record: Record, cap: float) -> tuple[int, list[list[int]]]:
    """Enumerate every consistent deal by backtracking; per-player code counts."""
    start = time.perf_counter()
    allowed = [
        [
            c
            for c in ALL_CODES
            if all(answer(c, o.clue) == o.answers[p] for o in record.observations if p in o.answers)
        ]
        for p in range(record.players)
    ]
    counts = [[0] * 216 for _ in range(record.players)]
    chosen: list[int] = []
    deals = 0

    def place(p: int, used_i: int, used_m: int, used_t: int) -> None:
        nonlocal deals
        if p == record.players:
            deals += 1
            if deals % 20000 == 0 and time.perf_counter() - start > cap:
                raise TimedOut
            for q, idx in enumerate(chosen):
                counts[q][idx] += 1
            return
        for c in allowed[p]:
            bi, bm, bt = 1 << c.island, 1 << c.marker, 1 << c.trap
            if used_i & bi or used_m & bm or used_t & bt:
                continue
            chosen.append(c.index)
            place(p + 1, used_i | bi, used_m | bm, used_t | bt)
            chosen.pop()

    place(0, 0, 0, 0)
    return deals, counts


def z3_enumeration(record: Record, cap: float) -> int:
    """Count consistent deals by Z3 model enumeration with blocking clauses."""
    start = time.perf_counter()
    solver = z3.Solver()
    x = [[z3.Int(f"p{p}_{c.value}") for c in CATEGORIES] for p in range(record.players)]
    flat = [v for row in x for v in row]
    solver.add(*(z3.And(v >= 0, v < 6) for v in flat))
    for k in range(3):
        solver.add(z3.Distinct(*(row[k] for row in x)))
    for o in record.observations:
        for p, a in o.answers.items():
            hit = z3.Or(*(x[p][k] == o.clue.values[k] for k in range(3)))
            solver.add(hit if a else z3.Not(hit))
    deals = 0
    while solver.check() == z3.sat:
        m = solver.model()
        solver.add(z3.Or(*(v != m.eval(v) for v in flat)))
        deals += 1
        if time.perf_counter() - start > cap:
            raise TimedOut
    return deals


def _brute_deals(record: Record, cap: float) -> int:
    return brute_force(record, cap)[0]


def best_time(fn: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


@dataclass
class Baseline:
    name: str
    rate: float | None = None  # deals per second, from the last finished run

    def run(self, fn: Callable[[], int], deals: int, cap: float) -> str:
        if self.rate is not None and deals / self.rate > 3 * cap:
            return f">~{deals / self.rate:,.0f} s est."
        t = time.perf_counter()
        try:
            got = fn()
        except TimedOut:
            return f"> {cap:g} s"
        elapsed = time.perf_counter() - t
        assert got == deals, (self.name, got, deals)
        # The best rate seen, so that estimates are lower bounds.
        self.rate = max(self.rate or 0.0, max(deals, 1) / elapsed)
        return f"{elapsed * 1000:,.1f} ms"


def _ms(text: str) -> float | None:
    return float(text.split()[0].replace(",", "")) if text.endswith(" ms") else None


def _ratio(baseline_ms: float | None, isles_ms: float) -> str:
    if baseline_ms is None:
        return "-"
    r = baseline_ms / isles_ms
    return f"{r:.2f}x" if r < 10 else f"{r:,.0f}x"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3-4 players, 0/3/15 turns, cap 2 s")
    parser.add_argument("--cap", type=float, default=60.0, help="baseline time cap in seconds")
    parser.add_argument(
        "--long-only", action="store_true", help="only the long 6-player records (time limit)"
    )
    parser.add_argument(
        "--write-records",
        metavar="DIR",
        help="write the long records as JSON files (plunder_6p_60.json, plunder_6p_200.json)",
    )
    args = parser.parse_args()
    if args.write_records:
        for turns, seed in LONG_RECORDS:
            path = Path(args.write_records) / f"plunder_6p_{turns}.json"
            path.write_text(json.dumps(make_record(6, turns, seed).to_dict()) + "\n")
            print(f"wrote {path}")
        return
    if args.long_only:
        long_records(args.cap)
        return
    players_list = [3, 4] if args.quick else [3, 4, 5, 6]
    turns_list = [0, 3, 15] if args.quick else [0, 1, 3, 8, 15]
    cap = 2.0 if args.quick else args.cap

    t = time.perf_counter()
    posterior(Record(6))
    print(
        f"isles cold start (builds the DP transition tables once): "
        f"{(time.perf_counter() - t) * 1000:.1f} ms"
    )
    print()
    header = (
        f"{'players':>7} {'turns':>5} {'deals':>13} {'isles':>9} "
        f"{'brute force':>16} {'ratio':>8} {'Z3 enumeration':>16} {'ratio':>8}"
    )
    print(header)
    print("-" * len(header))
    brute, z3enum = Baseline("brute"), Baseline("z3")
    worst = 0.0
    for n in players_list:
        for turns in sorted(turns_list, reverse=True):
            record = make_record(n, turns, seed=1000 * n + turns)
            post = posterior(record)
            isles_s = best_time(partial(posterior, record), 5)
            worst = max(worst, isles_s)
            b = brute.run(partial(_brute_deals, record, cap), post.deals, cap)
            z = z3enum.run(partial(z3_enumeration, record, cap), post.deals, cap)
            ratios = [_ratio(ms, isles_s * 1000) for ms in (_ms(b), _ms(z))]
            print(
                f"{n:>7} {turns:>5} {post.deals:>13,} {isles_s * 1000:>6.1f} ms "
                f"{b:>16} {ratios[0]:>8} {z:>16} {ratios[1]:>8}"
            )
    print(f"\nslowest isles posterior: {worst * 1000:.1f} ms (target < 100 ms)")

    print(
        "\nZ3 on 15-turn records: consistency check; with answers flipped, a conflict minimal"
        "\nby inclusion (unsat core + deletion) versus a smallest one (hitting-set duality);"
        "\nforced values with minimal versus smallest proofs on the original record."
        "\nWorst of 3 records, best of 3 runs each."
    )
    header = (
        f"{'players':>7} {'consistent':>11} {'minimal conflict':>17} {'smallest conflict':>18} "
        f"{'ratio':>6} {'sizes min/smallest':>19} {'forced':>6} {'minimal proofs':>15} "
        f"{'smallest proofs':>16} {'ratio':>6}"
    )
    print(header)
    print("-" * len(header))
    worst_smallest = 0.0
    for n in players_list:
        check_s = minimal_s = smallest_s = proofs_min_s = proofs_s = 0.0
        sizes, forced_count = [], 0
        for extra in range(3):
            record = make_record(n, 15, seed=1000 * n + 15 + extra)
            check_s = max(check_s, best_time(partial(z3_consistent, record), 3))
            post = posterior(record)
            forced_count = max(forced_count, len(forced_values(record, post)))
            proofs_s = max(proofs_s, best_time(partial(forced_values, record, post), 3))
            proofs_min_s = max(
                proofs_min_s,
                best_time(partial(forced_values, record, post, smallest=False), 3),
            )
            bad = _flip_until_inconsistent(record, flips=1 + extra)
            core = Z3Record(bad).minimal_core()
            smallest = smallest_conflict(bad)
            sizes.append(f"{len(core or ())}/{len(smallest)}")
            minimal_s = max(minimal_s, best_time(partial(_deletion_conflict, bad), 3))
            smallest_s = max(smallest_s, best_time(partial(smallest_conflict, bad), 3))
        worst_smallest = max(worst_smallest, smallest_s)
        print(
            f"{n:>7} {check_s * 1000:>8.1f} ms {minimal_s * 1000:>14.1f} ms "
            f"{smallest_s * 1000:>15.1f} ms {smallest_s / minimal_s:>5.2f}x "
            f"{' '.join(sizes):>19} {forced_count:>6} {proofs_min_s * 1000:>12.1f} ms "
            f"{proofs_s * 1000:>13.1f} ms {proofs_s / proofs_min_s:>5.1f}x"
        )
    print(f"\nslowest smallest conflict: {worst_smallest * 1000:.1f} ms (target < 200 ms)")
    print("(forced: the most forced values among the 3 records, each needing a proof)")
    print()
    long_records(args.cap)


#: The long records of docs/plunder.md "Time limit": (turns, seed) of a 6-player hidden deal.
LONG_RECORDS = ((60, 6060), (200, 6200))


def long_records(cap: float) -> None:
    """Long 6-player records: counting, minimal proofs, the default answer, all smallest."""
    print(
        "Long 6-player records from a hidden deal (no code known): counting; forced values"
        "\nwith minimal proofs; deduce() with the default time limit (proofs proven smallest"
        f"\nof all); the whole `isles plunder` command (a new process, default "
        f"{DEFAULT_TIME_LIMIT:g} s limit);"
        f"\nand deduce() with no limit until every proof is smallest (stopped at {cap:g} s)."
    )
    header = (
        f"{'turns':>5} {'seed':>5} {'forced':>6} {'count':>9} {'minimal proofs':>15} "
        f"{'default (3 s)':>14} {'smallest':>9} {'isles plunder':>14} {'all smallest':>13}"
    )
    print(header)
    print("-" * len(header))
    for turns, seed in LONG_RECORDS:
        record = make_record(6, turns, seed)
        posterior(record)  # the transition tables, once
        t = time.perf_counter()
        post = posterior(record)
        count_s = time.perf_counter() - t
        t = time.perf_counter()
        forced = forced_values(record, post, smallest=False)
        minimal_s = time.perf_counter() - t
        t = time.perf_counter()
        default = deduce(record)
        default_s = time.perf_counter() - t
        proven = sum(f.smallest for f in default.forced)
        cli_s = _cli_seconds(record)
        t = time.perf_counter()
        full = deduce(record, time_limit=cap)
        full_s = time.perf_counter() - t
        done = f"{full_s:,.1f} s" if full.proofs == "smallest" else f"> {cap:g} s"
        print(
            f"{turns:>5} {seed:>5} {len(forced):>6} {count_s * 1000:>6.1f} ms "
            f"{minimal_s:>13.2f} s {default_s:>12.2f} s {proven:>4}/{len(forced):<4} "
            f"{cli_s:>12.2f} s {done:>13}"
        )


def _cli_seconds(record: Record) -> float:
    """Wall-clock seconds of `isles plunder -` on the record, start-up included."""
    text = json.dumps(record.to_dict())
    t = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "isles", "plunder", "-"],
        input=text,
        text=True,
        capture_output=True,
        check=True,
        cwd=Path(__file__).resolve().parent.parent,
    )
    return time.perf_counter() - t


def _deletion_conflict(record: Record) -> tuple[AnswerId, ...] | None:
    """The former conflict: a Z3 unsat core shrunk by deletion (minimal, not smallest)."""
    return Z3Record(record).minimal_core()


def _flip_until_inconsistent(record: Record, flips: int = 1) -> Record:
    """Flip ``flips - 1`` answers spread over the record (seeded), then the last
    answer (from the end) whose flip makes the record inconsistent."""
    rng = random.Random(flips)
    observations = list(record.observations)
    for _ in range(flips - 1):
        i = rng.randrange(len(observations) - 1)
        obs = observations[i]
        p = rng.choice(sorted(obs.answers))
        observations[i] = Observation(obs.active, obs.clue, {**obs.answers, p: not obs.answers[p]})
    record = Record(record.players, tuple(observations))
    if posterior(record).deals == 0:
        return record
    for i in range(len(record.observations) - 1, -1, -1):
        obs = record.observations[i]
        for p in obs.answers:
            answers = dict(obs.answers)
            answers[p] = not answers[p]
            changed = list(record.observations)
            changed[i] = Observation(obs.active, obs.clue, answers)
            candidate = Record(record.players, tuple(changed))
            if posterior(candidate).deals == 0:
                return candidate
    raise AssertionError("no single flipped answer makes the record inconsistent")


if __name__ == "__main__":
    main()
