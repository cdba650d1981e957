"""``isles lighthouse``: the odds of the cooperative lighthouse game and the best move.

RULES.md section 5 (seed 000_aeb701e368f40145.txt); solvers in solvers/lighthouse.py.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

from isles.cli import OneLineParser, emit_json
from isles.models.errors import InvalidInput

ORDER = 40

__all__ = ["ORDER", "demo", "register"]


def register(subparsers: argparse._SubParsersAction[OneLineParser]) -> None:
    """Add the ``lighthouse`` subcommand."""
    p = subparsers.add_parser(
        "lighthouse",
        help="exact odds of the lighthouse game under optimal, greedy or random play",
        description=(
            "Win probability of the cooperative lighthouse game (RULES.md section 5): "
            "exact by dynamic programming (every position up to 7 islands; the start "
            "position for 8 islands, a memory-bounded sweep of about an hour with a "
            "progress bar on stderr); --certify: a certified interval instead."
        ),
    )
    p.add_argument("--kit", metavar="FILE", help="kit JSON (islands, dice, sea_cards)")
    p.add_argument("--islands", type=int, default=6, help="default kit islands 1..8 (default 6)")
    p.add_argument("--sea-cards", type=int, help="sea cards (default 8; 3 for --competitive)")
    p.add_argument(
        "--policy", default="optimal", help="optimal, greedy or random (default optimal)"
    )
    p.add_argument("--exact", action="store_true", help="exact Fractions (small kits only)")
    p.add_argument("--table", action="store_true", help="difficulty table: 6 and 8 islands")
    p.add_argument("--competitive", action="store_true", help="competitive variant odds")
    p.add_argument("--seats", type=int, default=2, help="players in the competitive variant")
    p.add_argument("--games", type=int, default=20_000, help="Monte Carlo games")
    p.add_argument("--seed", type=int, default=0, help="Monte Carlo seed")
    p.add_argument("--advise", metavar="POSITION.json", help="position to advise on")
    p.add_argument("--roll", metavar="FACE,FACE", help="the roll to advise on, e.g. boat,red")
    p.add_argument(
        "--certify",
        metavar="MIN_MASS",
        type=float,
        help="beyond the DP: certified lower bound from exact forward evaluation of greedy "
        "play, dropping positions less likely than MIN_MASS (slow: minutes for 8 islands)",
    )
    p.add_argument(
        "--simulate",
        action="store_true",
        help="8 islands: Monte Carlo estimate and certified upper bound (seconds) instead of "
        "the exact sweep (about an hour)",
    )
    p.add_argument("--progress", action="store_true", help="progress bars on stderr")
    p.add_argument("--json", action="store_true", help="one JSON object on stdout")
    p.set_defaults(func=_run)


def _kit(args: argparse.Namespace) -> Any:
    from isles.models.lighthouse import Kit, default_kit

    sea = args.sea_cards
    if sea is None:
        sea = 3 if args.competitive else 8
    if args.kit:
        kit = Kit.load(args.kit)
        if args.sea_cards is not None:
            kit = Kit(kit.islands, kit.dice, args.sea_cards)
        return kit
    if args.competitive and args.seats != 2 and args.islands == 6:
        return default_kit(min(2 * args.seats, 8), sea)
    return default_kit(args.islands, sea)


def _fraction(x: Fraction | None) -> str | None:
    return None if x is None else f"{x.numerator}/{x.denominator}"


def _run(args: argparse.Namespace) -> int:
    from isles.solvers.lighthouse import POLICIES

    if args.policy not in POLICIES:
        raise InvalidInput("--policy", args.policy, f"one of {list(POLICIES)}")
    if args.games < 1:
        raise InvalidInput("--games", args.games, "a positive number of games")
    if args.roll and not args.advise:
        raise InvalidInput("--roll", args.roll, "--roll together with --advise POSITION.json")
    if args.advise and not args.roll:
        raise InvalidInput("--advise", args.advise, "--advise together with --roll FACE,FACE")
    kit = _kit(args)
    if args.competitive:
        return _competitive(args, kit)
    if args.table:
        return _table(args)
    if args.advise:
        return _advise(args, kit)
    return _odds(args, kit)


def _odds(args: argparse.Namespace, kit: Any) -> int:
    from isles.solvers.lighthouse import (
        MAX_EXACT_ISLANDS,
        MAX_SWEEP_ISLANDS,
        simulate,
        solve,
        upper_bound_by_disc_count,
    )

    n = len(kit.islands)
    head = f"Lighthouse odds: {n} islands, {kit.sea_cards} sea cards, policy {args.policy}"
    if MAX_EXACT_ISLANDS < n <= MAX_SWEEP_ISLANDS and args.certify is None and not args.simulate:
        return _sweep_odds(args, kit, head)
    if n <= MAX_EXACT_ISLANDS:
        t0 = time.perf_counter()
        sol = solve(kit, args.policy, exact=args.exact, progress=args.progress)
        secs = time.perf_counter() - t0
        exact = sol.exact_win_probability()
        out: dict[str, Any] = {
            "islands": n,
            "sea_cards": kit.sea_cards,
            "policy": args.policy,
            "status": sol.status,
            "method": "dp",
            "win_probability": sol.win_probability(),
            "exact": _fraction(exact),
            "error_bound": sol.error_bound,
            "positions": sol.positions,
            "seconds": round(secs, 3),
        }
        if args.json:
            emit_json(out)
            return 0
        print(head)
        print(_odds_line(exact, sol.win_probability(), sol.error_bound))
        print(f"  status {sol.status}; {sol.positions:,} positions valued in {secs:.1f} s")
        return 0
    upper = upper_bound_by_disc_count(kit)
    sim_policy = "greedy" if args.policy == "optimal" else args.policy
    res = simulate(kit, sim_policy, args.games, seed=args.seed, progress=args.progress)
    low = res.ci95[0]
    certified_low = None
    if args.certify is not None:
        from isles.solvers.lighthouse import forward_greedy

        if not 0 <= args.certify < 1:
            raise InvalidInput("--certify", args.certify, "a probability in [0, 1)")
        certified_low = forward_greedy(kit, min_mass=args.certify, progress=args.progress).low
    out = {
        "islands": n,
        "sea_cards": kit.sea_cards,
        "policy": args.policy,
        "status": "interval",
        "method": "monte carlo",
        "win_probability": res.win_probability,
        "exact": None,
        "simulated_policy": sim_policy,
        "ci95": list(res.ci95),
        "certified_upper_bound": float(upper),
        "certified_upper_bound_exact": _fraction(upper),
        "games": res.games,
        "certified_lower_bound": certified_low,
    }
    if args.json:
        emit_json(out)
        return 0
    print(head)
    print(f"  Monte Carlo and certified bounds, no exact DP here ({n} islands; see docs)")
    print(
        f"  Monte Carlo {sim_policy}: {res.win_probability:.4f}  95% interval "
        f"[{res.ci95[0]:.4f}, {res.ci95[1]:.4f}] over {res.games:,} games"
    )
    if args.policy == "optimal" and certified_low is None:
        print(f"  optimal play: between {low:.4f} (statistical, greedy) and {float(upper):.4f}")
    print(f"  certified upper bound (disc count, any policy): {float(upper):.6f}")
    if certified_low is not None:
        print(f"  certified lower bound (greedy evaluated exactly): {certified_low:.6f}")
    return 0


def _odds_line(exact: Any, value: float, error_bound: float) -> str:
    """The win probability: exact as a fraction when known, else the float and its bound."""
    if exact is not None:
        return f"  win probability  {float(exact):.12f}  = {_fraction(exact)} (exact)"
    return f"  win probability  {value:.12f}  (error < {error_bound:.1e})"


def _sweep_odds(args: argparse.Namespace, kit: Any, head: str) -> int:
    """Start values only, by the memory-bounded sweep (always with a progress bar)."""
    from isles.solvers.lighthouse import upper_bound_by_disc_count, win_probability

    n = len(kit.islands)
    t0 = time.perf_counter()
    start = win_probability(kit, args.policy, exact=args.exact, progress=True)
    secs = time.perf_counter() - t0
    exact = start.exact_win_probability()
    upper = upper_bound_by_disc_count(kit)
    out: dict[str, Any] = {
        "islands": n,
        "sea_cards": kit.sea_cards,
        "policy": args.policy,
        "status": start.status,
        "method": "dp sweep",
        "win_probability": start.win_probability(),
        "exact": _fraction(exact),
        "error_bound": start.error_bound,
        "by_sea_cards": [float(v) for v in start.by_sea_cards],
        "certified_upper_bound": float(upper),
        "seconds": round(secs, 3),
    }
    if args.json:
        emit_json(out)
        return 0
    print(head)
    print(_odds_line(exact, start.win_probability(), start.error_bound))
    print(
        "  by sea cards: "
        + ", ".join(f"{k}: {float(v):.6f}" for k, v in enumerate(start.by_sea_cards, 1))
    )
    print(f"  status {start.status}; start position only, DP swept in {secs:.1f} s")
    return 0


def _table(args: argparse.Namespace) -> int:
    from isles.solvers.lighthouse import difficulty_table

    # The table: 6 and 8 islands; another --islands gives that column only.
    islands = (6, 8) if args.islands == 6 else (args.islands,)
    rows = difficulty_table(
        islands, range(1, 9), args.policy, games=args.games, seed=args.seed, progress=args.progress
    )
    if args.json:
        emit_json(
            {
                "policy": args.policy,
                "win_probability": rows[-1].win_probability,
                "rows": [
                    {
                        "islands": r.islands,
                        "sea_cards": r.sea_cards,
                        "policy": r.policy,
                        "method": r.method,
                        "win_probability": r.win_probability,
                        "low": r.low,
                        "high": r.high,
                        "certified_upper_bound": r.upper_bound,
                    }
                    for r in rows
                ],
            }
        )
        return 0
    print(f"Difficulty table, policy {args.policy} (dp: exact; monte carlo: 95% interval)")
    print(
        f"{'islands':>7} {'sea':>4} {'policy':>8} {'method':>12} {'win':>8} "
        f"{'interval':>19} {'upper':>7}"
    )
    for r in rows:
        interval = "" if r.method == "dp" else f"[{r.low:.4f}, {r.high:.4f}]"
        print(
            f"{r.islands:>7} {r.sea_cards:>4} {r.policy:>8} {r.method:>12} "
            f"{r.win_probability:>8.4f} {interval:>19} {r.upper_bound:>7.4f}"
        )
    return 0


def _parse_roll(kit: Any, text: str) -> Any:
    from isles.models.lighthouse import BOAT, Roll

    faces = [f.strip() for f in text.split(",")]
    if len(faces) != 2:
        raise InvalidInput("--roll", text, "two faces separated by a comma, e.g. boat,red")
    for k, (face, die) in enumerate(zip(faces, kit.dice, strict=True)):
        if face not in die:
            raise InvalidInput("--roll", face, f"a face of die {k + 1}: {list(die)}")
    colours = tuple(sorted(f for f in faces if f != BOAT))
    return Roll(BOAT in faces, colours, Fraction(0))


def _advise(args: argparse.Namespace, kit: Any) -> int:
    from isles.models.lighthouse import Position
    from isles.solvers.lighthouse import MAX_EXACT_ISLANDS, advise, solve

    position = Position.load(args.advise, kit)
    roll = _parse_roll(kit, args.roll)
    if len(kit.islands) > MAX_EXACT_ISLANDS:
        raise InvalidInput("--islands", len(kit.islands), "at most 7 islands for --advise")
    sol = solve(kit, "optimal", exact=args.exact, progress=args.progress)
    adv = advise(sol, position, roll)

    def describe(d: Any) -> str:
        parts = [
            f"{c}->{'back' if i is None else kit.islands[i][0] + '/' + kit.islands[i][1]}"
            for c, i in d.placements
        ]
        if d.bonus is not None:
            c, i = d.bonus
            parts.append(f"bonus {c}->{kit.islands[i][0]}/{kit.islands[i][1]}")
        return ", ".join(parts) or "nothing to place"

    value = sol.value(position)
    if args.json:
        emit_json(
            {
                "win_probability": float(adv.win_probability),
                "exact": _fraction(adv.win_probability)
                if isinstance(adv.win_probability, Fraction)
                else None,
                "position_win_probability": float(value),
                "best": {
                    "placements": [[c, i] for c, i in adv.best.placements],
                    "bonus": None if adv.best.bonus is None else list(adv.best.bonus),
                },
                "alternatives": [
                    {
                        "placements": [[c, i] for c, i in d.placements],
                        "bonus": None if d.bonus is None else list(d.bonus),
                        "win_probability": float(v),
                    }
                    for d, v in adv.alternatives
                ],
            }
        )
        return 0
    print(f"Position win probability (before rolling): {float(value):.6f}")
    print(f"Roll {args.roll}: {len(adv.alternatives)} legal decisions, best first")
    for d, v in adv.alternatives:
        print(f"  {float(v):.6f}  {describe(d)}")
    return 0


EXACT_COMPETITIVE_ISLANDS = 3
"""Competitive kits up to this many islands are solved exactly (about 10k positions)."""


def _competitive(args: argparse.Namespace, kit: Any) -> int:
    from isles.solvers.lighthouse import competitive_exact, simulate_competitive

    policy = "greedy" if args.policy == "optimal" else args.policy
    n = len(kit.islands)
    if n <= EXACT_COMPETITIVE_ISLANDS:
        ex = competitive_exact(kit, args.seats, policy)
        if args.json:
            emit_json(
                {
                    "seats": ex.seats,
                    "policy": policy,
                    "method": "exact linear solve",
                    "positions": ex.positions,
                    "win_probability": list(ex.win_probability),
                    "residual": ex.residual,
                    "exact": None,
                }
            )
            return 0
        print(
            f"Competitive variant: {ex.seats} seats, {n // ex.seats} islands each, "
            f"{kit.sea_cards} sea cards, every seat {policy} (exact, {ex.positions:,} positions)"
        )
        for s, p in enumerate(ex.win_probability):
            print(f"  seat {s + 1}: {p:.6f}")
        print(f"  sparse linear solve residual {ex.residual:.1e}")
        return 0
    games = min(args.games, 20_000)
    res = simulate_competitive(
        kit, args.seats, policy, games, seed=args.seed, progress=args.progress
    )
    if args.json:
        emit_json(
            {
                "seats": res.seats,
                "policy": policy,
                "method": "monte carlo",
                "games": res.games,
                "win_probability": list(res.win_probability),
                "ci95": [list(c) for c in res.ci95],
                "unfinished": res.unfinished,
                "mean_turns": res.mean_turns,
            }
        )
        return 0
    print(
        f"Competitive variant: {res.seats} seats, {n // res.seats} islands each, "
        f"{kit.sea_cards} sea cards, every seat {policy} ({res.games:,} games)"
    )
    for s, (p, (lo, hi)) in enumerate(zip(res.win_probability, res.ci95, strict=True)):
        print(f"  seat {s + 1}: {p:.4f}  95% interval [{lo:.4f}, {hi:.4f}]")
    print(f"  mean game length {res.mean_turns:.1f} turns; unfinished {res.unfinished}")
    return 0


def demo(out_dir: Path, echo: Callable[[str], None]) -> None:
    """The lighthouse section of ``isles demo``: odds, difficulty table, length plot."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from isles.draw import save_figure
    from isles.models.lighthouse import default_kit
    from isles.solvers.lighthouse import simulate, solve, upper_bound_by_disc_count

    echo("== Lighthouses: the real odds (RULES.md section 5) ==")
    echo("Default kit, exact DP (floats, error < 1e-10). 5 islands keep the demo fast;")
    echo("`isles lighthouse --islands 6` solves the 6-island game (about 10 s).")
    sols = {}
    for n in (4, 5):
        for pol in ("optimal", "greedy", "random"):
            sols[n, pol] = solve(default_kit(n, 8), pol)
    echo(
        f"{'sea cards':>9} | {'4 optimal':>9} {'4 greedy':>9} {'4 random':>9} | "
        f"{'5 optimal':>9} {'5 greedy':>9} {'5 random':>9}"
    )
    for k in range(1, 9):
        cells = [
            f"{sols[n, p].win_probability(k):>9.4f}"
            for n in (4, 5)
            for p in ("optimal", "greedy", "random")
        ]
        echo(f"{k:>9} | {' '.join(cells[:3])} | {' '.join(cells[3:])}")
    kit8 = default_kit(8, 8)
    echo(
        "8 islands, 8 sea cards: certified upper bound "
        f"{float(upper_bound_by_disc_count(kit8)):.4f}; the exact optimum, "
        "`isles lighthouse --islands 8` (a sweep of about 40 min), was 0.5745 "
        "when measured (docs/lighthouse.md)"
    )
    kit5 = default_kit(5, 8)
    games = 10_000
    opt = simulate(kit5, "optimal", games, seed=1, solution=sols[5, "optimal"])
    greedy = simulate(kit5, "greedy", games, seed=1)
    echo(
        f"Monte Carlo check, 5 islands ({games:,} games): optimal {opt.win_probability:.4f} "
        f"[{opt.ci95[0]:.4f}, {opt.ci95[1]:.4f}] "
        f"vs exact {sols[5, 'optimal'].win_probability():.4f}"
    )
    fig, ax = plt.subplots(figsize=(7, 3.6))
    for res, label in ((opt, "optimal"), (greedy, "greedy")):
        turns = range(len(res.length_won))
        ax.plot(turns, [w / res.games for w in res.length_won], label=f"{label}: won")
        ax.plot(turns, [lo / res.games for lo in res.length_lost], "--", label=f"{label}: lost")
    ax.set_xlabel("turn the game ends")
    ax.set_ylabel("probability")
    ax.set_title("Lighthouses, 5 islands, 8 sea cards: game length (Monte Carlo)")
    ax.legend()
    path = save_figure(fig, out_dir / "lighthouse_length.png")
    echo(f"Picture: {path.name}")
