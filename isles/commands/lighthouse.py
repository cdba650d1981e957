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

import isles
from isles.cli import OneLineParser, emit_json, one_stdin
from isles.models.contract import Question
from isles.models.errors import InvalidInput
from isles.models.lighthouse.caps import POLICIES
from isles.models.lighthouse.kit import DEFAULT_KIT, KITS, Kit, default_kit
from isles.models.lighthouse.questions import (
    KitFile,
    LighthouseAdvice,
    LighthouseContest,
    LighthouseOdds,
    LighthouseTable,
)
from isles.models.lighthouse.rules import Outcome
from isles.models.status import Status
from isles.options import NAMED_READERS, add_questions, read_mode, read_question

if TYPE_CHECKING:
    from isles.lighthouse import (
        Advice,
        CompetitiveSimulation,
        CompetitiveSolution,
        DifficultyTable,
        Odds,
    )

# The solvers (NumPy, SciPy, numba) load when a question is answered (isles.answer) or in
# the functions that run them, so that `isles --help` and the other commands start
# without loading them.

ORDER = 40

__all__ = ["MODES", "ORDER", "demo", "register"]

#: The questions the command answers, by how the user asks each (the odds: no mode
#: option, none of --advise, --table and --competitive); errors name them so. Each
#: question's options are derived from its declaration.
MODES: dict[str, type[Question]] = {
    "the odds": LighthouseOdds,
    "--advise": LighthouseAdvice,
    "--table": LighthouseTable,
    "--competitive": LighthouseContest,
}
ODDS, ADVISE, TABLE, COMPETITIVE = MODES


def _kit_text(text: str, option: str) -> str | KitFile:
    """``--kit NAME|FILE``: a name of the registry, else a kit file (read with the question)."""
    return text if text in KITS else KitFile(text)


NAMED_READERS["kit"] = _kit_text


def _count(n: int, noun: str) -> str:
    """``1 island``, ``2 islands``."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def register(subparsers: argparse._SubParsersAction[OneLineParser]) -> None:
    """Add the ``lighthouse`` subcommand: the options of its four questions' declarations."""
    p = subparsers.add_parser(
        "lighthouse",
        help="exact odds of the lighthouse game and the best move in any position",
        description=(
            "Win probability of the cooperative lighthouse game (docs/lighthouse.md), "
            f"exact for every number of sea cards: the real game by default ({DEFAULT_KIT}; "
            "--players 2, 3 or 4: 8, 6 or 8 islands; 12 to 17 s the first time, then read "
            "from the table kept in the user's cache directory), --islands or --kit for "
            "other kits (a named kit or a kit file); beyond 8 islands, or "
            "with --simulate/--certify, a Monte Carlo estimate beside certified bounds. "
            "--advise: the best move for a roll, with every alternative's odds; --table: "
            "by players, policy and sea cards; --competitive: each seat's chance in the "
            "competitive variant."
        ),
    )
    add_questions(p, MODES)
    p.add_argument(
        "--table",
        action="store_true",
        help="difficulty table by players (2, 3, 4), policy and sea cards",
    )
    p.add_argument("--competitive", action="store_true", help="competitive variant odds")
    p.add_argument("--progress", action="store_true", help="progress bars on stderr")
    p.add_argument("--json", action="store_true", help="one JSON object on stdout")
    p.set_defaults(func=_run)


# --- which question, and the options it takes ----------------------------------------


def _mode(args: argparse.Namespace) -> str:
    """The question asked (a key of :data:`MODES`): one at a time."""
    modes = [
        (option, mode)
        for option, mode, on in (
            ("--table", TABLE, args.table),
            ("--competitive", COMPETITIVE, args.competitive),
            ("--advise", ADVISE, hasattr(args, "advise")),
        )
        if on
    ]
    if len(modes) > 1:
        first, second = modes[0][0], modes[1][0]
        raise InvalidInput(second, True, f"one question at a time: {second} without {first}")
    return modes[0][1] if modes else ODDS


def _check_ranges(args: argparse.Namespace) -> None:
    """Each number given, checked against its range as the first question that takes it
    declares it, before any is refused for the question asked (``--table --games 0``)."""
    for question in MODES.values():
        numbers = [
            name
            for name, info in question.model_fields.items()
            if info.annotation in (int, float, int | None, float | None)
            and hasattr(args, question.spelt(name, "option")[2:].replace("-", "_"))
        ]
        for name in numbers:
            text = getattr(args, question.spelt(name, "option")[2:].replace("-", "_"))
            try:
                read_question(question, argparse.Namespace(**{name: text}))
            except InvalidInput as exc:
                if exc.problem != "missing":
                    raise


def _run(args: argparse.Namespace) -> int:
    mode = _mode(args)
    _check_ranges(args)
    one_stdin(("--kit", getattr(args, "kit", None)), ("--advise", getattr(args, "advise", None)))
    question = read_mode(MODES, mode, args)
    if isinstance(question, LighthouseTable):
        return _table(args, question)
    if isinstance(question, LighthouseAdvice):
        return _advise(args, question)
    if isinstance(question, LighthouseContest):
        return _competitive(args, question)
    assert isinstance(question, LighthouseOdds)
    return _odds(args, question)


def _progress(args: argparse.Namespace) -> bool | None:
    """A progress bar when asked; on a terminal once the work takes a second (None: the
    library's bar after its delay); never in a log file (it would fill with redrawn bars)."""
    if args.progress:
        return True
    return None if sys.stderr.isatty() else False


def _who(kit: Kit) -> str:
    """``8 islands (2 or 4 players)`` for the real game's kits, ``1 island`` otherwise."""
    n = len(kit.islands)
    players = [
        k.players
        for k in KITS.values()
        if k.players is not None and k.islands == n and k.build(kit.sea_cards) == kit
    ]
    if not players:
        return _count(n, "island")
    return f"{n} islands ({' or '.join(str(p) for p in players)} players)"


# --- odds ---------------------------------------------------------------------------------


def _odds(args: argparse.Namespace, question: LighthouseOdds) -> int:
    result = isles.answer(question, progress=_progress(args))
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


def _table(args: argparse.Namespace, question: LighthouseTable) -> int:
    table = isles.answer(question, progress=_progress(args))
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


def _advise(args: argparse.Namespace, question: LighthouseAdvice) -> int:
    advice = isles.answer(question, progress=_progress(args))
    if args.json:
        emit_json(advice.to_dict())
    else:
        _print_advice(question.chosen_kit(), args.roll, advice)
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


def _competitive(args: argparse.Namespace, question: LighthouseContest) -> int:
    result = isles.answer(question, progress=_progress(args))
    if args.json:
        emit_json(result.to_dict())
    else:
        _print_competitive(question.chosen_kit(), result)
    return 0 if result.status is not Status.TIMED_OUT else 1


def _print_competitive(kit: Kit, result: CompetitiveSolution | CompetitiveSimulation) -> None:
    from isles.lighthouse import CompetitiveSolution

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
    """The lighthouse section of ``isles demo``: the difficulty table, the real game's bounds
    and a Monte Carlo run of it, and its game-length plot."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from isles.draw import save_figure
    from isles.lighthouse import difficulty_table, odds

    echo("== Lighthouses: the real odds (docs/lighthouse.md) ==")
    echo("Default kit, exact DP (floats, error < 1e-10). 5 islands keep the demo fast;")
    echo("`isles lighthouse` solves the real game, 8 islands (12 to 17 s once, then cached).")
    table = difficulty_table((4, 5), 8, progress=False)
    values = {(r.islands, r.policy, r.sea_cards): r.win_probability for r in table.rows}
    echo(
        f"{'sea cards':>9} | {'4 optimal':>9} {'4 greedy':>9} {'4 random':>9} | "
        f"{'5 optimal':>9} {'5 greedy':>9} {'5 random':>9}"
    )
    for k in range(1, 9):
        cells = [f"{values[n, p, k]:>9.4f}" for n in (4, 5) for p in POLICIES]
        echo(f"{k:>9} | {' '.join(cells[:3])} | {' '.join(cells[3:])}")
    games = 10_000
    real = odds(default_kit(8, 8), "greedy", simulate=True, games=games, seed=1, progress=False)
    sim = real.simulation
    assert sim is not None
    echo(
        f"8 islands, 8 sea cards: greedy play simulated ({games:,} games) "
        f"{sim.win_probability:.4f} [{sim.ci95[0]:.4f}, {sim.ci95[1]:.4f}]; certified upper "
        f"bound {float(real.upper_bound):.4f}; the exact optimum, `isles lighthouse --players "
        "2`, is 0.5745 (docs/lighthouse.md)"
    )
    fig, ax = plt.subplots(figsize=(7, 3.6))
    turns = range(len(sim.length_won))
    ax.plot(turns, [w / sim.games for w in sim.length_won], label="greedy: won")
    ax.plot(turns, [lo / sim.games for lo in sim.length_lost], "--", label="greedy: lost")
    ax.set_xlabel("turn the game ends")
    ax.set_ylabel("probability")
    ax.set_title("Lighthouses, 8 islands, 8 sea cards: game length of greedy play (Monte Carlo)")
    ax.legend()
    path = save_figure(fig, out_dir / "lighthouse_length.png")
    echo(f"Picture: {path.name}")
