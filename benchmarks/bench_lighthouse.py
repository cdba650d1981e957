"""Benchmark: the lighthouse class DP against the reference sweep, and the real game.

Side by side for 6 and 7 islands (default kit, 8 sea cards, optimal play): the
reference's memory-bounded sweep over every lighthouse code
(``tests.lighthouse.reference.win_probability``, the strongest plain
form of the DP) and the class DP (``isles.solvers.lighthouse.solve``), wall
time, CPU time (all threads) and peak resident memory, with the ratios and the
largest difference of the values. Then the real game, 8 islands: the optimal
solve on a first run (an empty numba cache: compiling included) and a second
run (compiled, saving the table), the table read back from the cache, greedy
play's layer sweep and random play's class DP, the whole difficulty table
(2-4 players x 8 sea cards x 3 policies, tables cached), and the best move with
every alternative's odds from the cached table and, without it, from the
classes that can follow a position after 4, 8 and 16 turns. Each row runs in
a fresh process (its peak memory is its own).
Run: ``python benchmarks/bench_lighthouse.py [--quick] [--no-sweep]``.
Timings are wall-clock on a shared machine: compare CPU times, and state the load.

``--cold N --baseline DIR`` measures only the real game's first solve from
cold (fresh ``NUMBA_CACHE_DIR`` and ``ISLES_CACHE_DIR``: no numba kernels, no
table; the table saved to it), ``N`` times in turn with the engine of another
checkout ``DIR`` (today's engine: ``git worktree add --detach DIR main``), each
a fresh process, and prints each run, the medians and their ratios: wall
time, CPU time (the process and the processes it started), peak resident
memory of the solving process. ``--advice`` adds the command line's first
advice on the empty board from cold (``isles lighthouse --advise``) and a
later roll's, read from the table.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's isles

from isles.models.lighthouse.kit import default_kit
from isles.models.lighthouse.position import Position
from isles.models.lighthouse.rules import Outcome, legal_decisions, play_turn
from isles.models.lighthouse.rules import roll_outcomes as rolls_of

KNOWN = {7: 0.6989768769580588, 8: 0.5745461897731887}
"""The reference sweep's start values, 8 sea cards (docs/lighthouse.md, "Measured")."""


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB on Linux


def _position_after(turns: int, seed: int = 4) -> Position:
    """The 8-island position after ``turns`` turns of random rolls and random decisions."""
    kit = default_kit(8, 8)
    rng = random.Random(seed)
    rolls = rolls_of(kit)
    pos = Position.start(kit)
    for _ in range(turns):
        roll = rng.choices(rolls, [float(r.probability) for r in rolls])[0]
        res = play_turn(kit, pos, roll, rng.choice(legal_decisions(kit, pos, roll)), check=False)
        if res.outcome is Outcome.PLAYING:
            pos = res.position
    return pos


def child(what: str, n: int) -> dict[str, Any]:
    """One measurement in this process: what it answers and what it cost."""
    t0 = time.perf_counter()
    out: dict[str, Any] = {}
    kit = default_kit(min(n, 8), 8)
    if what == "sweep":
        from tests.lighthouse.reference import win_probability

        out["values"] = list(win_probability(kit).by_sea_cards)
    elif what in ("optimal", "random"):
        from isles.solvers.lighthouse.dp import solve

        sol = solve(kit, what)
        out["values"] = list(sol.by_sea_cards)
        out["classes"] = sol.classes
    elif what == "greedy":
        from isles.solvers.lighthouse.start_values import win_probability as start_values

        out["values"] = list(start_values(kit, "greedy").by_sea_cards)
    elif what == "cached":
        from isles.solvers.lighthouse.cache import solve_cached

        out["values"] = list(solve_cached(kit).by_sea_cards)
    elif what == "difficulty":
        from isles.lighthouse import difficulty_table

        rows = difficulty_table().rows
        out["values"] = [r.win_probability for r in rows]
        out["rows"] = len(rows)
    elif what == "table":
        from isles.solvers.lighthouse.advice import advise
        from isles.solvers.lighthouse.cache import load_table

        table = load_table(kit)
        assert table is not None, "run 'cached' first"
        out["values"] = list(table.by_sea_cards)
        pos = _position_after(4)
        t1 = time.perf_counter()
        best = [advise(table, pos, roll) for roll in rolls_of(kit)]
        out["advice_s"] = (time.perf_counter() - t1) / len(best)
        out["alternatives"] = max(len(a.alternatives) for a in best)
    elif what == "advise":
        from isles.lighthouse import best_move
        from isles.solvers.lighthouse.advice import solve_from

        kit = default_kit(8, 8)
        pos = _position_after(n)  # n = turns played before asking
        t1, c1 = time.perf_counter(), _cpu()
        advice = best_move(kit, pos, rolls_of(kit)[3], cache=False, progress=False)
        out["advice_wall"], out["advice_cpu"] = time.perf_counter() - t1, _cpu() - c1
        out["values"] = [advice.win_probability]
        out["alternatives"] = len(advice.alternatives)
        out["discs"] = pos.discs_laid
        out["classes"] = solve_from(kit, pos).classes
    out["wall"] = time.perf_counter() - t0
    out["cpu"] = _cpu()  # the whole process: start-up, imports, compiling, all threads
    out["peak_mib"] = _peak_mib()
    return out


_COLD = """
import json, resource, sys, time
t0 = time.perf_counter()
try:
    from isles.models.lighthouse.kit import default_kit
except ImportError:  # a checkout from before models/lighthouse/rules.py was split
    from isles.models.lighthouse.rules import default_kit
from isles.solvers.lighthouse.cache import solve_cached
sol = solve_cached(default_kit(8, 8), progress=False)
me = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"value": sol.win_probability(), "wall": time.perf_counter() - t0,
    "peak_mib": me.ru_maxrss / 1024}))
"""


_START = {"discs": [[] for _ in range(8)], "boat": 0, "maurice": 0}
"""The real game's empty board (8 islands), for the first advice."""


def _cold_env(tree: Path, scratch: Path) -> dict[str, str]:
    """An environment with empty numba and table caches, importing isles from ``tree``."""
    env = dict(os.environ)
    env.update(
        NUMBA_CACHE_DIR=str(scratch / "numba"),
        ISLES_CACHE_DIR=str(scratch / "tables"),
        PYTHONPATH=str(tree),
    )
    return env


def _timed(argv: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float, str]:
    """Run ``argv``; return its wall time, its CPU time (with its children's) and stdout."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, check=True, env=env, cwd=cwd)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return wall, cpu, done.stdout


def cold(runs: int, baseline: Path, advice: bool = False) -> None:
    """The 8-island optimal solve from empty caches, this engine and the baseline's in turn.

    Each run gets a fresh ``NUMBA_CACHE_DIR`` and ``ISLES_CACHE_DIR`` and a
    fresh process. With ``advice``, then the command line's first advice on
    the empty board (``isles lighthouse --advise``, fresh caches again: the
    whole table solved) and a second roll's (read from the table just kept).
    """
    here = Path(__file__).resolve().parent.parent
    print(f"cold 8-island solve (empty numba and table caches), {runs} runs each, in turn")
    print(f"load average at start: {os.getloadavg()[0]:.1f} (2 cores)")
    header = f"{'engine':<8} {'run':>3} {'wall s':>7} {'CPU s':>7} {'peak GiB':>8} {'load':>5}"
    if advice:
        header += f" {'advice 1 s':>10} {'CPU s':>6} {'advice 2 s':>10}"
    print(header)
    keys = ("process_wall", "cpu", "peak_mib") + (("first", "first_cpu", "later") if advice else ())
    results: dict[str, list[dict[str, Any]]] = {"today": [], "this": []}
    for run in range(runs):
        for name, tree in (("today", baseline), ("this", here)):
            scratch = Path(tempfile.mkdtemp(prefix="isles-cold-"))
            try:
                env = _cold_env(tree, scratch)
                wall, cpu, out = _timed([sys.executable, "-c", _COLD], env, tree)
                r: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
                r["process_wall"], r["cpu"] = wall, cpu
                assert r["value"] == KNOWN[8], r["value"]
                line = (
                    f"{name:<8} {run + 1:>3} {wall:>7.1f} {cpu:>7.1f} "
                    f"{r['peak_mib'] / 1024:>8.2f} {os.getloadavg()[0]:>5.1f}"
                )
                if advice:
                    fresh = scratch / "advice"
                    start = scratch / "start.json"
                    start.write_text(json.dumps(_START), encoding="utf-8")
                    cli = [sys.executable, "-m", "isles", "lighthouse", "--advise", str(start)]
                    env = _cold_env(tree, fresh)  # empty caches again
                    r["first"], r["first_cpu"], _ = _timed([*cli, "--roll", "red,blue"], env, tree)
                    r["later"], _, _ = _timed([*cli, "--roll", "green,orange"], env, tree)
                    line += f" {r['first']:>10.1f} {r['first_cpu']:>6.1f} {r['later']:>10.2f}"
                print(line)
                results[name].append(r)
            finally:
                subprocess.run(["rm", "-rf", str(scratch)], check=True)
    medians = {
        name: {k: statistics.median(x[k] for x in rows) for k in keys}
        for name, rows in results.items()
    }
    for name, med in medians.items():
        text = (
            f"{name:<8} median: {med['process_wall']:.1f} s wall, {med['cpu']:.1f} s CPU, "
            f"{med['peak_mib'] / 1024:.2f} GiB peak"
        )
        if advice:
            text += f"; first advice {med['first']:.1f} s, a later roll {med['later']:.2f} s"
        print(text)
    old, new = medians["today"], medians["this"]
    ratios = ", ".join(f"{k} {old[k] / new[k]:.2f}x" for k in keys if new[k] > 0)
    print(f"ratio today / this: {ratios}")
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")


def measure(what: str, n: int, env: dict[str, str]) -> dict[str, Any]:
    """Run :func:`child` in a fresh Python (its wall time includes start-up and imports)."""
    t0 = time.perf_counter()
    done = subprocess.run(
        [sys.executable, __file__, "--child", what, str(n)],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, **env},
    )
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    result["process_wall"] = time.perf_counter() - t0
    return result


def row(label: str, r: dict[str, Any]) -> str:
    return f"{label:<50} {r['process_wall']:>8.1f} {r['cpu']:>8.1f} {r['peak_mib'] / 1024:>8.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="5 and 6 islands only, no 8")
    parser.add_argument("--no-sweep", action="store_true", help="skip the reference (7: ~6 min)")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    parser.add_argument("--cold", type=int, default=0, help="runs of the cold 8-island solve")
    parser.add_argument("--baseline", type=Path, help="a checkout of today's engine (--cold)")
    parser.add_argument(
        "--advice", action="store_true", help="--cold: also the CLI's first and a later advice"
    )
    args = parser.parse_args()
    if args.cold:
        if args.baseline is None:
            parser.error("--cold needs --baseline DIR")
        cold(args.cold, args.baseline, args.advice)
        return
    if args.child:
        print(json.dumps(child(args.child[0], int(args.child[1]))))
        return
    scratch = Path(tempfile.mkdtemp(prefix="isles-bench-"))
    env = {"NUMBA_CACHE_DIR": str(scratch / "numba"), "ISLES_CACHE_DIR": str(scratch / "tables")}
    # numba caches in ISLES_CACHE_DIR/numba unless NUMBA_CACHE_DIR is set: warm once
    warm = {"ISLES_CACHE_DIR": str(scratch / "tables")}
    for policy in ("optimal", "greedy", "random"):
        measure(policy, 2, warm)  # compile once into the default cache for the side by side
    print(f"load average at start: {os.getloadavg()[0]:.1f} (2 cores)")
    print("Lighthouses, default kit, 8 sea cards (a fresh process per row)")
    print(f"{'':<50} {'wall s':>8} {'CPU s':>8} {'peak GiB':>8}")
    for n in [5, 6] if args.quick else [6, 7]:
        new = measure("optimal", n, warm)
        print(row(f"{n} islands: class DP, optimal ({new['classes']:,} classes)", new))
        if args.no_sweep:
            continue
        old = measure("sweep", n, warm)
        print(row(f"{n} islands: reference sweep, optimal", old))
        diff = max(abs(a - b) for a, b in zip(old["values"], new["values"], strict=True))
        print(
            f"{'':<50} ratio: wall {old['process_wall'] / new['process_wall']:.1f}x, "
            f"CPU {old['cpu'] / new['cpu']:.1f}x, memory {old['peak_mib'] / new['peak_mib']:.1f}x;"
            f" values differ by {diff:.1e}"
        )
    if args.quick:
        return
    first = measure("optimal", 8, env)
    print(row("8 islands: optimal, first run (compiling)", first))
    second = measure("cached", 8, env)
    print(row("8 islands: optimal, second run (+ saving table)", second))
    table = measure("table", 8, env)
    print(row("8 islands: optimal table from the cache", table))
    print(f"{'':<50} advice from the cached table: {table['advice_s'] * 1000:.1f} ms per roll")
    greedy = measure("greedy", 8, env)
    print(row("8 islands: greedy, layer sweep over codes", greedy))
    rand = measure("random", 8, env)
    print(row(f"8 islands: random, class DP ({rand['classes']:,} classes)", rand))
    difficulty = measure("difficulty", 8, env)
    print(row(f"difficulty table ({difficulty['rows']} rows; optimal cached)", difficulty))
    again = measure("difficulty", 8, env)
    print(row("difficulty table again (optimal and random cached)", again))
    for turns in (4, 8, 16):
        one = measure("advise", turns, env)
        print(row(f"8 islands: advice after {turns} turns, no table", one))
        print(
            f"{'':<50} {one['discs']} discs laid, {one['classes']:,} classes: "
            f"{one['advice_wall']:.2f} s wall, {one['advice_cpu']:.2f} s CPU in best_move"
        )
    print("8 islands, win probability by sea cards 1..8:")
    for name, res in (("optimal", first), ("greedy", greedy), ("random", rand)):
        print(f"  {name:<8} " + " ".join(f"{v:.6f}" for v in res["values"]))
    gap = abs(first["values"][-1] - KNOWN[8])
    print(f"  optimal, 8 cards: {first['values'][-1]!r} (reference {KNOWN[8]!r}, gap {gap:.1e})")
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
