"""``isles lighthouse``: the odds of the cooperative lighthouse game and the best move.

Implements the command of docs/lighthouse.md ("The command line"; seed
000_aeb701e368f40145.txt). It only parses, calls :mod:`isles.lighthouse` and
formats: ``--json`` prints exactly the result's ``to_dict()``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from isles.cli import (
    OneLineParser,
    count_type,
    emit_json,
    one_stdin,
    only_with,
    seconds_type,
    seed_type,
)
from isles.models.errors import InvalidInput
from isles.models.lighthouse import (
    DEFAULT_GAMES,
    MAX_EXACT_ISLANDS,
    MAX_FRACTION_ISLANDS,
    MAX_GAMES,
    MAX_SEA_CARDS,
    POLICIES,
    SIMULATE_FROM_ISLANDS,
    Kit,
    Outcome,
    Position,
    Roll,
    default_kit,
    islands_in_play,
)
from isles.models.status import Status
from isles.models.text import parse_number

if TYPE_CHECKING:
    from isles.solvers.lighthouse import (
        Advice,
        CompetitiveSimulation,
        CompetitiveSolution,
        DifficultyTable,
        Odds,
    )

# The solvers (NumPy, SciPy, numba) are imported in the functions that run them, so that
# `isles --help` and the other commands start without loading them.

ORDER = 40

__all__ = ["ORDER", "demo", "register"]

#: Competitive simulations of at least this many games show a progress bar on a terminal
#: without --progress (about 550 games a second; the cooperative simulation's threshold is
#: the library's, ``simulation.AUTO_PROGRESS_GAMES``).
LONG_COMPETITIVE_GAMES = 10_000

#: Seconds the exact competitive solve may take by default (the default kit: about
#: a minute on 2 cores).
COMPETITIVE_TIME_LIMIT = 600.0


def _mass_type(text: str) -> float:
    """argparse type of ``--certify``: a probability strictly between 0 and 1."""
    try:
        value = parse_number(text, "--certify")
    except InvalidInput:
        value = -1.0
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"{text} is invalid; expected a probability 0 < p < 1")
    return value


def _count(n: int, noun: str) -> str:
    """``1 island``, ``2 islands``."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def register(subparsers: argparse._SubParsersAction[OneLineParser]) -> None:
    """Add the ``lighthouse`` subcommand."""
    p = subparsers.add_parser(
        "lighthouse",
        help="exact odds of the lighthouse game and the best move in any position",
        description=(
            "Win probability of the cooperative lighthouse game (docs/lighthouse.md), "
            "exact for every number of sea cards: the real game by default (--players "
            "2, 3 or 4: 8, 6 or 8 islands; about 30 s the first time, then read from the "
            "table kept in the user's cache directory), --islands or --kit for other kits; "
            "beyond 8 islands, or with --simulate/--certify, a Monte Carlo estimate beside "
            "certified bounds. --advise: the best move for a roll, with every alternative's "
            "odds; --table: by players, policy and sea cards; --competitive: each seat's "
            "chance in the competitive variant."
        ),
    )
    p.add_argument(
        "--players",
        type=count_type(2, 4),
        help="players of the real game, 2..4: 8 islands for 2 or 4, 6 for 3 (default 2)",
    )
    p.add_argument(
        "--islands", type=count_type(1, 8), help="islands of the default kit, 1..8 (other kits)"
    )
    p.add_argument("--kit", metavar="FILE", help="kit JSON file (docs/lighthouse.md); - for stdin")
    p.add_argument(
        "--sea-cards",
        type=count_type(1, MAX_SEA_CARDS),
        help=f"sea cards, 1..{MAX_SEA_CARDS} (default: the kit's, 8; 3 with --competitive)",
    )
    p.add_argument(
        "--policy",
        choices=POLICIES,
        help="optimal, greedy or random (default optimal; --table: all three; "
        "--competitive: greedy)",
    )
    p.add_argument(
        "--exact",
        action="store_true",
        help=f"exact Fractions (kits of at most {MAX_FRACTION_ISLANDS} islands)",
    )
    p.add_argument(
        "--table",
        action="store_true",
        help="difficulty table by players (2, 3, 4), policy and sea cards",
    )
    p.add_argument("--competitive", action="store_true", help="competitive variant odds")
    p.add_argument(
        "--seats", type=count_type(2, 4), help="players in the competitive variant, 2..4"
    )
    p.add_argument(
        "--games",
        type=count_type(1, MAX_GAMES),
        help=f"Monte Carlo games, 1..{MAX_GAMES:_} (default {DEFAULT_GAMES:_})",
    )
    p.add_argument("--seed", type=seed_type, help="Monte Carlo seed (default 0)")
    p.add_argument("--advise", metavar="POSITION.json", help="position to advise on (- for stdin)")
    p.add_argument("--roll", metavar="FACE,FACE", help="the roll to advise on, e.g. boat,red")
    p.add_argument(
        "--certify",
        metavar="MIN_MASS",
        type=_mass_type,
        help=f"kits of at least {SIMULATE_FROM_ISLANDS} islands: a certified lower bound "
        "from greedy play evaluated exactly, dropping positions less likely than MIN_MASS "
        "(8 islands, 1e-7: about 5 minutes)",
    )
    p.add_argument(
        "--simulate",
        action="store_true",
        help=f"kits of at least {SIMULATE_FROM_ISLANDS} islands: a Monte Carlo estimate and "
        "certified upper bound instead of the exact DP",
    )
    p.add_argument(
        "--no-cache",
        action="store_true",
        help="solve without reading or writing the tables in the user's cache directory",
    )
    p.add_argument(
        "--time-limit",
        type=seconds_type,
        help="seconds for the exact competitive solve (default "
        f"{COMPETITIVE_TIME_LIMIT:g}; the answer says timed_out when it is reached)",
    )
    p.add_argument("--progress", action="store_true", help="progress bars on stderr")
    p.add_argument("--json", action="store_true", help="one JSON object on stdout")
    p.set_defaults(func=_run)


# --- what each mode accepts ------------------------------------------------------------


def _mode(args: argparse.Namespace) -> str:
    """The question asked: odds, table, advise or competitive (one at a time)."""
    modes = [
        option
        for option, on in (
            ("--table", args.table),
            ("--competitive", args.competitive),
            ("--advise", args.advise is not None),
        )
        if on
    ]
    if len(modes) > 1:
        raise InvalidInput(modes[1], True, f"one question at a time: {modes[1]} without {modes[0]}")
    return modes[0] if modes else "odds"


_ODDS_BEYOND_DP = f"the odds of kits of at least {SIMULATE_FROM_ISLANDS} islands"

#: Where each option that a mode does not use belongs: option as typed -> (dest, needs).
_NOT_IN: dict[str, dict[str, tuple[str, str]]] = {
    "--table": {
        "--kit": ("kit", "the odds, --advise or --competitive (--table uses the default kit)"),
        "--exact": ("exact", "the odds or --advise of small kits (the table gives floats)"),
        "--simulate": ("simulate", _ODDS_BEYOND_DP),
        "--certify": ("certify", _ODDS_BEYOND_DP),
        "--games": ("games", "a simulation (the table is exact)"),
        "--seed": ("seed", "a simulation (the table is exact)"),
    },
    "--advise": {
        "--policy": ("policy", "the odds, --table or --competitive (advice is for optimal play)"),
        "--simulate": ("simulate", _ODDS_BEYOND_DP),
        "--certify": ("certify", _ODDS_BEYOND_DP),
        "--games": ("games", "a simulation (advice is computed exactly)"),
        "--seed": ("seed", "a simulation (advice is computed exactly)"),
    },
    "--competitive": {
        "--exact": ("exact", "the odds or --advise of small kits (competitive chances are floats)"),
        "--simulate": ("simulate", _ODDS_BEYOND_DP),
        "--certify": ("certify", _ODDS_BEYOND_DP),
        "--players": ("players", "the cooperative game (--competitive counts --seats)"),
        "--no-cache": ("no_cache", "the odds, --advise or --table (nothing is cached here)"),
    },
}


def _refuse_unused(mode: str, args: argparse.Namespace) -> None:
    """Refuse every option the user gave that ``mode`` does not use (never ignore one)."""
    for option, (dest, needs) in _NOT_IN[mode].items():
        value = getattr(args, dest)
        if value not in (None, False):
            only_with(option, True if value is True else value, False, needs)


def _run(args: argparse.Namespace) -> int:
    mode = _mode(args)
    only_with(
        "--roll", args.roll, args.roll is None or mode == "--advise", "--advise POSITION.json"
    )
    if mode == "--advise" and args.roll is None:
        raise InvalidInput("--advise", args.advise, "--advise together with --roll FACE,FACE")
    only_with("--seats", args.seats, args.seats is None or mode == "--competitive", "--competitive")
    only_with(
        "--time-limit",
        args.time_limit,
        args.time_limit is None or mode == "--competitive",
        "--competitive (the other questions are answered without one)",
    )
    given = [
        option
        for option, value in (
            ("--players", args.players),
            ("--islands", args.islands),
            ("--kit", args.kit),
        )
        if value is not None
    ]
    if len(given) > 1:
        raise InvalidInput(
            given[1],
            getattr(args, given[1][2:]),
            f"one of --players, --islands and --kit (not {given[0]} and {given[1]})",
        )
    one_stdin(("--kit", args.kit), ("--advise", args.advise))
    if mode == "--table":
        return _table(args)
    if mode == "--advise":
        return _advise(args)
    if mode == "--competitive":
        return _competitive(args)
    return _odds(args)


def _kit(args: argparse.Namespace) -> Kit:
    """The kit file (its sea cards unless --sea-cards), the default kit of --islands, or the
    real game for --players (default 2 players: 8 islands)."""
    sea = 8 if args.sea_cards is None else args.sea_cards
    if args.kit is not None:
        kit = Kit.load(args.kit)
        return kit if args.sea_cards is None else kit.with_sea_cards(args.sea_cards)
    if args.islands is not None:
        return default_kit(args.islands, sea)
    return default_kit(islands_in_play(2 if args.players is None else args.players), sea)


def _progress(args: argparse.Namespace) -> bool | None:
    """A progress bar when asked; on a terminal for long work (None: the library decides);
    never in a log file (it would fill with redrawn bars)."""
    if args.progress:
        return True
    return None if sys.stderr.isatty() else False


def _who(kit: Kit) -> str:
    """``8 islands (2 or 4 players)`` for the real game's kits, ``1 island`` otherwise."""
    n = len(kit.islands)
    players = [p for p in (2, 3, 4) if islands_in_play(p) == n]
    # Only the island counts the box deals have a default kit to compare with (a kit file
    # may hold up to 12 islands: default_kit refuses more than 8).
    if not players or kit != default_kit(n, kit.sea_cards):
        return _count(n, "island")
    return f"{n} islands ({' or '.join(str(p) for p in players)} players)"


# --- odds ---------------------------------------------------------------------------------


def _odds(args: argparse.Namespace) -> int:
    from isles.solvers.lighthouse import odds, odds_method

    kit = _kit(args)
    n = len(kit.islands)
    policy = args.policy or "optimal"
    beyond = n >= SIMULATE_FROM_ISLANDS or odds_method(kit, policy) == "monte carlo"
    why = (
        f"kits of at least {SIMULATE_FROM_ISLANDS} islands (the exact DP answers {n} islands "
        "in seconds)"
    )
    if args.simulate:
        only_with("--simulate", True, beyond, why)
    if args.certify is not None:
        only_with("--certify", args.certify, beyond, why)
        only_with("--certify", args.certify, policy != "random", "--policy optimal or greedy")
    method = odds_method(kit, policy, simulate=args.simulate, certify=args.certify)
    simulated = method == "monte carlo"
    for option, value in (("--games", args.games), ("--seed", args.seed)):
        if value is not None:
            only_with(
                option,
                value,
                simulated,
                "a simulation (--simulate or --certify, or a kit beyond the exact DP)",
            )
    if args.exact:
        only_with(
            "--exact",
            True,
            not simulated and n <= MAX_FRACTION_ISLANDS,
            f"kits of at most {MAX_FRACTION_ISLANDS} islands solved by the DP "
            "(larger ones give floats with a stated error bound)",
        )
    if args.no_cache:
        only_with("--no-cache", True, not simulated, "the exact DP (nothing is cached here)")
    result = odds(
        kit,
        policy,
        exact=args.exact,
        simulate=args.simulate,
        certify=args.certify,
        games=args.games,
        seed=args.seed,
        cache=not args.no_cache,
        progress=_progress(args),
    )
    if args.json:
        emit_json(result.to_dict())
    else:
        _print_odds(result)
    return 0


def _value_line(value: Fraction | float, error_bound: float | None) -> str:
    """The win probability: exact as a fraction when known, else the float and its bound."""
    if isinstance(value, Fraction):
        return f"{float(value):.12f}  = {value.numerator}/{value.denominator} (exact)"
    return f"{value:.12f}  (error < {error_bound or 0:.1e})"


def _print_odds(result: Odds) -> None:
    kit = result.kit
    print(
        f"Lighthouse odds: {_who(kit)}, {_count(kit.sea_cards, 'sea card')}, {result.policy} play"
    )
    if result.simulation is None:
        assert result.win_probability is not None and result.by_sea_cards is not None
        how = "every position" if result.method == "dp" else "greedy play swept layer by layer"
        print(f"  win probability  {_value_line(result.win_probability, result.error_bound)}")
        print(
            "  by sea cards: "
            + ", ".join(f"{k}: {float(v):.6f}" for k, v in enumerate(result.by_sea_cards, 1))
        )
        print(
            f"  status {result.status}; method {result.method} ({how}), {result.positions:,} values"
        )
        return
    sim = result.simulation
    upper = float(result.upper_bound)
    print(f"  status {result.status}: Monte Carlo and certified bounds, no exact value here")
    print(
        f"  {sim.policy} play, simulated: {sim.win_probability:.4f}  95% interval "
        f"[{sim.ci95[0]:.4f}, {sim.ci95[1]:.4f}] over {sim.games:,} games (seed {sim.seed})"
    )
    if result.policy == "optimal":
        print(
            "  optimal play: at least greedy's (statistically at least "
            f"{sim.ci95[0]:.4f}), at most {upper:.6f}"
        )
    print(f"  certified upper bound on {result.policy} play: {upper:.6f}")
    if result.lower_bound is not None:
        print(
            f"  certified lower bound on {result.policy} play: {result.lower_bound:.6f} "
            f"(greedy evaluated exactly, positions below {result.min_mass:g} dropped)"
        )


# --- the difficulty table ------------------------------------------------------------------


def _table(args: argparse.Namespace) -> int:
    from isles.solvers.lighthouse import difficulty_table

    _refuse_unused("--table", args)
    top = 8 if args.sea_cards is None else args.sea_cards
    policies = POLICIES if args.policy is None else (args.policy,)
    table = difficulty_table(
        None if args.islands is None else (args.islands,),
        range(1, top + 1),
        policies,
        players=None if args.players is None else (args.players,),
        cache=not args.no_cache,
        progress=_progress(args),
    )
    if args.json:
        emit_json(table.to_dict())
    else:
        _print_table(table)
    return 0


def _print_table(table: DifficultyTable) -> None:
    kits: dict[tuple[int, tuple[int, ...]], dict[tuple[str, int], float]] = {}
    for r in table.rows:
        kits.setdefault((r.islands, r.players), {})[r.policy, r.sea_cards] = r.win_probability
    cards = sorted({r.sea_cards for r in table.rows})
    bound = max(r.error_bound for r in table.rows)
    print(
        f"Difficulty table, default kit: win probability by sea cards (status {table.status}; "
        f"exact, every value within {bound:.0e})"
    )
    heads = []
    for islands, players in kits:
        who = " or ".join(str(p) for p in players) + " players" if players else ""
        heads.append(f"{islands} islands" + (f" ({who})" if who else ""))
    width = 8 * len(table.policies) + len(table.policies) - 1
    print(f"{'':>4} | " + " | ".join(f"{h:^{width}}" for h in heads))
    print(f"{'sea':>4} | " + " | ".join(" ".join(f"{p:>8}" for p in table.policies) for _ in kits))
    for k in cards:
        cells = [
            " ".join(f"{values[p, k]:>8.4f}" for p in table.policies) for values in kits.values()
        ]
        print(f"{k:>4} | " + " | ".join(cells))


# --- advice --------------------------------------------------------------------------------


def _advise(args: argparse.Namespace) -> int:
    from isles.solvers.lighthouse import best_move

    _refuse_unused("--advise", args)
    kit = _kit(args)
    only_with(
        "--advise",
        args.advise,
        len(kit.islands) <= MAX_EXACT_ISLANDS,
        f"kits of at most {MAX_EXACT_ISLANDS} islands",
    )
    position = Position.load(args.advise, kit)
    roll = Roll.from_faces(kit, [f.strip() for f in args.roll.split(",")], field="--roll")
    if args.exact:
        only_with(
            "--exact",
            True,
            len(kit.islands) <= MAX_FRACTION_ISLANDS,
            f"kits of at most {MAX_FRACTION_ISLANDS} islands",
        )
    advice = best_move(
        kit,
        position,
        roll,
        exact=args.exact,
        cache=not args.no_cache,
        progress=_progress(args),
    )
    if args.json:
        emit_json(advice.to_dict())
    else:
        _print_advice(kit, args.roll, advice)
    return 0


def _print_advice(kit: Kit, roll_text: str, advice: Advice) -> None:
    def island(i: int) -> str:
        return f"{kit.islands[i][0]}/{kit.islands[i][1]}"

    def describe(placements: Any, bonus: Any) -> str:
        parts = [f"{c}->{'back' if i is None else island(i)}" for c, i in placements]
        if bonus is not None:
            parts.append(f"bonus {bonus[0]}->{island(bonus[1])}")
        return ", ".join(parts) or "nothing to place"

    value = advice.position_value
    assert value is not None
    print(f"Position win probability (before rolling): {float(value):.6f}")
    if advice.outcome is Outcome.LOST:
        print(
            f"Roll {roll_text}: the game is lost whatever you play: the boat leaves the last "
            f"sea card for Maurice's island before any disc is laid (win probability 0, "
            f"status {advice.status})"
        )
        return
    count = len(advice.alternatives)
    print(
        f"Roll {roll_text}: {count} legal decision{'' if count == 1 else 's'}, best first "
        f"(status {advice.status})"
    )
    for d, v in advice.alternatives:
        print(f"  {float(v):.6f}  {describe(d.placements, d.bonus)}")


# --- the competitive variant -----------------------------------------------------------


def _competitive(args: argparse.Namespace) -> int:
    from isles.solvers.lighthouse import (
        MAX_COMPETITIVE_BYTES,
        competitive_kit,
        competitive_memory_bytes,
        competitive_odds,
    )

    _refuse_unused("--competitive", args)
    seats = 2 if args.seats is None else args.seats
    sea = 3 if args.sea_cards is None else args.sea_cards
    if args.kit is not None:
        kit = _kit(args)
    elif args.islands is not None:
        kit = default_kit(args.islands, sea)
    else:
        kit = competitive_kit(seats, sea)
    n = len(kit.islands)
    if n % seats:
        if args.seats is None:
            # Name the option that gave the islands: --kit FILE or --islands N.
            option, value = ("--kit", args.kit) if args.kit is not None else ("--islands", n)
            raise InvalidInput(
                option,
                value,
                f"a kit whose islands the 2 seats share equally (or give --seats; {n} islands)"
                if args.kit is not None
                else "a number of islands the 2 seats share equally (or give --seats)",
            )
        raise InvalidInput("--seats", seats, f"a number of seats (2..4) dividing the {n} islands")
    simulated = competitive_memory_bytes(kit, seats) > MAX_COMPETITIVE_BYTES
    for option, value in (("--games", args.games), ("--seed", args.seed)):
        if value is not None:
            only_with(
                option,
                value,
                simulated,
                "a competitive kit too large to solve exactly "
                f"(over {MAX_COMPETITIVE_BYTES / 2**30:g} GiB; smaller ones are solved exactly)",
            )
    policy = args.policy or "greedy"
    if policy == "optimal" and (seats != 2 or simulated):
        raise InvalidInput(
            "--policy",
            policy,
            "greedy or random here (optimal play is solved for 2 seats on kits solved exactly)",
        )
    games = DEFAULT_GAMES if args.games is None else args.games
    long_run = not simulated or games >= LONG_COMPETITIVE_GAMES
    if args.time_limit is not None:
        only_with("--time-limit", args.time_limit, not simulated, "a kit solved exactly")
    result = competitive_odds(
        kit,
        seats,
        policy,
        games=args.games,
        seed=args.seed,
        time_limit=None
        if simulated
        else (COMPETITIVE_TIME_LIMIT if args.time_limit is None else args.time_limit),
        progress=bool(args.progress) or (long_run and sys.stderr.isatty()),
    )
    if args.json:
        emit_json(result.to_dict())
    else:
        _print_competitive(kit, result)
    return 0 if result.status is not Status.TIMED_OUT else 1


def _print_competitive(kit: Kit, result: CompetitiveSolution | CompetitiveSimulation) -> None:
    from isles.solvers.lighthouse import CompetitiveSolution

    n = len(kit.islands)
    seats = len(result.policies)
    plays = " / ".join(str(p) for p in result.policies)
    head = (
        f"Competitive variant: {seats} seats, {_count(n // seats, 'island')} each, "
        f"{kit.sea_cards} sea cards, play {plays}"
    )
    if isinstance(result, CompetitiveSolution):
        print(f"{head} (status {result.status}, {result.positions:,} positions)")
        for s, p in enumerate(result.win_probability):
            print(f"  seat {s + 1}: {p:.6f}")
        print(
            f"  value iteration: {result.sweeps} sweeps, residual {result.residual:.1e}, "
            f"error < {result.error_bound:.1e}"
        )
        return
    print(f"{head} (status {result.status}, {result.games:,} games, seed {result.seed})")
    for s, (p, (lo, hi)) in enumerate(zip(result.win_probability, result.ci95, strict=True)):
        print(f"  seat {s + 1}: {p:.4f}  95% interval [{lo:.4f}, {hi:.4f}]")
    print(f"  mean game length {result.mean_turns:.1f} turns; unfinished {result.unfinished}")


# --- isles demo ------------------------------------------------------------------------


def demo(out_dir: Path, echo: Callable[[str], None]) -> None:
    """The lighthouse section of ``isles demo``: odds, difficulty table, length plot."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from isles.draw import save_figure
    from isles.solvers.lighthouse import simulate, solve, upper_bound_by_disc_count

    echo("== Lighthouses: the real odds (docs/lighthouse.md) ==")
    echo("Default kit, exact DP (floats, error < 1e-10). 5 islands keep the demo fast;")
    echo("`isles lighthouse` solves the real game, 8 islands (about 30 s, then cached).")
    sols = {}
    for n in (4, 5):
        for pol in POLICIES:
            sols[n, pol] = solve(default_kit(n, 8), pol)
    echo(
        f"{'sea cards':>9} | {'4 optimal':>9} {'4 greedy':>9} {'4 random':>9} | "
        f"{'5 optimal':>9} {'5 greedy':>9} {'5 random':>9}"
    )
    for k in range(1, 9):
        cells = [f"{sols[n, p].win_probability(k):>9.4f}" for n in (4, 5) for p in POLICIES]
        echo(f"{k:>9} | {' '.join(cells[:3])} | {' '.join(cells[3:])}")
    kit8 = default_kit(8, 8)
    echo(
        "8 islands, 8 sea cards: certified upper bound "
        f"{float(upper_bound_by_disc_count(kit8)):.4f}; the exact optimum, "
        "`isles lighthouse --players 2`, is 0.5745 (docs/lighthouse.md)"
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
