"""``isles plunder``: what a Plunder record proves, the exact odds, what to do next,
dig now or wait, and tournaments between policies.

The command line of docs/plunder.md (seed ``seeds/003_cfc377110defcf34.txt``): it
reads one of the questions of :mod:`isles.models.plunder.questions` from its options
(one mode each), answers it with ``isles.answer`` and formats; ``--json`` prints the
answer's ``to_dict()``.
"""

from __future__ import annotations

import argparse
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import isles
from isles.cli import OneLineParser, check_output, emit_json
from isles.models.contract import Question
from isles.models.errors import InvalidInput
from isles.models.plunder.codes import CATEGORIES, VALUES, code_from_text
from isles.models.plunder.questions import DigQuestion, RecordAnalysis, TournamentQuestion
from isles.models.plunder.record import Record
from isles.options import add_questions, read_mode

if TYPE_CHECKING:
    from isles.plunder import Analysis, DigAdvice, Tournament

ORDER = 20

TOP_CODES = 3

#: The word in place of RECORD that starts a tournament.
TOURNAMENT = "tournament"

#: The command's modes, by how the user picks them (errors name them so): each asks
#: one question, whose fields are the options (isles.options.add_questions).
ANALYSIS_MODE = "RECORD without --dig-advice"
DIG_MODE = "--dig-advice"
TOURNAMENT_MODE = f"isles plunder {TOURNAMENT}"
MODES: dict[str, type[Question]] = {
    ANALYSIS_MODE: RecordAnalysis,
    DIG_MODE: DigQuestion,
    TOURNAMENT_MODE: TournamentQuestion,
}


def policies_epilog() -> str:
    """The built-in policies for ``--help``, from the registry (``isles.plunder.POLICIES``).

    >>> policies_epilog().splitlines()[1]
    '  threshold:P  digs once the most likely code has probability P or more (default 0.5)'
    """
    # The catalogue loads the solvers (Z3, SciPy): only when the help is written.
    from isles.plunder import POLICIES

    lines = ["policies (--policy NAME; all but random flip for the most information):"]
    for key, kind in POLICIES.items():
        name = key if kind.argument is None else f"{key}:{kind.argument}"
        lines.append(f"  {name:<11}  {kind.summary}")
    return "\n".join(lines)


#: Where ``--help`` lists the policies (:class:`PoliciesHelp` writes them there).
POLICIES_EPILOG = "(the built-in policies)"


class PoliciesHelp(argparse.RawDescriptionHelpFormatter):
    """``isles plunder --help``: its epilog, the built-in policies, read from the registry
    as the help is written (:func:`policies_epilog`), not at every start."""

    def add_text(self, text: str | None) -> None:
        """The text as given; the policies in place of :data:`POLICIES_EPILOG`."""
        super().add_text(policies_epilog() if text == POLICIES_EPILOG else text)


def register(subparsers: argparse._SubParsersAction[OneLineParser]) -> None:
    """Add ``isles plunder RECORD|tournament``: its options are those of the declarations
    :class:`RecordAnalysis`, :class:`DigQuestion` and :class:`TournamentQuestion`."""
    p = subparsers.add_parser(
        "plunder",
        help="Plunder deduction: consistency, exact posterior, flip and guess advice",
        description=textwrap.fill(
            "Read a Plunder record (docs/plunder.md) and print, per player, the exact "
            "probability of every value (forced values marked *, each with a smallest set "
            "of answers that proves it), or a smallest set of conflicting answers when the "
            "record is inconsistent (exit status 1). Past --time-limit, proofs are minimal "
            "(no answer can be dropped) and the answer says so. With --dig-advice: dig now "
            "or wait. 'isles plunder tournament --players N ...' plays games between "
            "policies (on Dask) instead of reading a record."
        ),
        epilog=POLICIES_EPILOG,
        formatter_class=PoliciesHelp,
    )
    p.modes = (TOURNAMENT,)  # its parse errors say 'isles plunder tournament'
    p.add_argument(
        "record",
        help="the record JSON file ('-' reads standard input), or the word 'tournament'",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument(
        "--dig-advice",
        action="store_true",
        help="dig now or wait (RECORD with 'me'): per target, the expected points of my "
        "crew card sent now or after 1, 2, ... turns, by playing the game on from deals "
        "drawn from the posterior",
    )
    add_questions(p, MODES)
    p.add_argument("--png", metavar="FILE", help="tournament: plot the results (.png or .svg)")
    p.set_defaults(func=_run)


# -- output ------------------------------------------------------------------------


def turn_number(observation: int) -> int:
    """The turn as players count it (turn 1 is the first) of ``observations[observation]``.

    JSON keeps the 0-based index into the record's ``observations`` (docs/plunder.md,
    "JSON output"); every text line says the turn.

    >>> turn_number(0)
    1
    """
    return observation + 1


def grid_lines(analysis: Analysis) -> list[str]:
    """The readable grid: per category, players x values, percentages, forced marked *."""
    record, result = analysis.record, analysis.deduction
    post = result.posterior
    me = record.me.player if record.me else None
    turns = len(record.observations)
    lines = [
        f"{record.players} players, {turns} turn{'s' * (turns != 1)}, "
        f"{post.deals:,} consistent deal{'s' * (post.deals != 1)}"
        + (f"; I am player {me}" if me is not None else "")
    ]
    if not post.deals:
        kind = (
            "a smallest set"
            if result.proofs == "smallest"
            else f"a minimal set: no answer can be dropped, but the {result.time_limit:g} s "
            "time limit ran out before a smallest one was proven; --time-limit to search longer"
        )
        lines.append(f"Inconsistent record. These answers cannot all be true ({kind}):")
        for a in result.conflict:
            obs = record.observations[a.observation]
            said = "yes" if obs.answers[a.player] else "no"
            lines.append(
                f"  turn {turn_number(a.observation)}: player {a.player} said {said} to "
                f"{record.code_text(obs.clue)}"
            )
        return lines
    width = max(7, *(len(record.value_name(c, v)) for c in CATEGORIES for v in range(VALUES)))
    for cat in CATEGORIES:
        lines.append("")
        header = [f"{cat.value:<8}"]
        header += [f"{record.value_name(cat, v):>{width}}" for v in range(VALUES)]
        lines.append(" ".join(header))
        for p in range(record.players):
            forced = post.forced(p, cat)
            cells = []
            for v, x in enumerate(post.marginals(p)[cat]):
                text = "." if x == 0 else "*" if v == forced else f"{float(x):.1%}"
                cells.append(f"{text:>{width}}")
            label = f"p{p}" + (" (me)" if p == me else "")
            lines.append(" ".join([f"{label:<8}", *cells]))
    lines.append("")
    lines.append("(* forced, . impossible)")
    if result.forced:
        if result.proofs == "smallest":
            lines.append("Forced values, each with a smallest set of answers that proves it:")
        else:
            unproven = sum(not f.smallest for f in result.forced)
            lines.append(
                "Forced values, each with a minimal set of answers that proves it (no answer "
                f"can be dropped); {unproven} of {len(result.forced)} not proven smallest "
                f"within the {result.time_limit:g} s time limit (marked ~; --time-limit to "
                "search longer):"
            )
    for f in result.forced:
        proof = (
            ", ".join(f"turn {turn_number(a.observation)} p{a.player}" for a in f.proof)
            or "distinctness"
        )
        mark = "" if f.smallest else " ~"
        lines.append(
            f"  p{f.player} {f.category.value} = {record.value_name(f.category, f.value)}"
            f"  because of: {proof}{mark}"
        )
    lines.append("")
    lines.append("Most likely codes:")
    for p in range(record.players):
        if p == me:
            continue
        best = post.codes(p)[:TOP_CODES]
        shown = ", ".join(f"{record.code_text(c)} {float(x):.1%}" for c, x in best)
        count = len(post.codes(p))
        lines.append(f"  p{p}: {shown} (of {count} code{'s' * (count != 1)})")
    return lines


def advice_lines(analysis: Analysis) -> list[str]:
    """The readable flip and guess advice (of an analysis that has advice)."""
    record, advice = analysis.record, analysis.advice
    assert advice is not None
    lines = []
    flip = advice.flip
    if flip is None:
        lines.append("Flip advice: no clue on the table (give --clue).")
    else:
        lines.append(
            f"Flip advice for player {flip.active} with {record.code_text(flip.clue)} on "
            "the table (expected information from the answers, bits):"
        )
        for o in flip.options:
            name = f"flip {o.deck.value}" if o.deck else "no flip"
            lines.append(f"  {name:<12} {o.expected_bits:6.3f}")
    lines.append("Guess advice (a crew card now, if first to dig):")
    for g in advice.guesses:
        lines.append(
            f"  p{g.target}: {record.code_text(g.code)}  p={float(g.probability):.1%}  "
            f"expected points {float(g.expected_points):.2f}"
        )
    return lines


def analysis_lines(analysis: Analysis) -> list[str]:
    """The whole text answer: the grid, then the advice when asked for, then dig now or
    wait when asked for (``--dig-policy``), or why it could not be given."""
    lines = grid_lines(analysis)
    advice = analysis.advice
    if advice is not None:
        lines.append("")
        lines.extend(advice_lines(analysis))
        if advice.dig is not None:
            lines.append("")
            lines.extend(dig_lines(analysis.record, advice.dig))
        if advice.dig_error is not None:
            error = advice.dig_error
            if isinstance(error, InvalidInput):  # spelt as the option: --dig-policy
                error = RecordAnalysis.respell(error, "option")
            lines.append("")
            lines.append(f"Dig now or wait: not given ({error}).")
    return lines


def _run(args: argparse.Namespace) -> int:
    if args.record == TOURNAMENT:
        args._prog = TOURNAMENT_MODE  # errors name the command as typed
        if args.dig_advice:
            raise InvalidInput("--dig-advice", None, "--dig-advice with a RECORD", problem="given")
        return _run_tournament(args)
    if args.png is not None:
        raise InvalidInput("--png", args.png, f"--png only with {TOURNAMENT_MODE}")
    record = Record.load(args.record)
    if args.dig_advice:
        return _run_dig_advice(args, record)
    extra: dict[str, object] = {"record": record}
    typed = {}
    if hasattr(args, "clue"):  # a clue's names are the record's: read here
        typed["clue"] = args.clue
        parts = [part.strip() for part in args.clue.split(",")]
        typed.update({f"clue.{c}": t for c, t in zip(CATEGORIES, parts, strict=False)})
        try:
            extra["clue"] = code_from_text(args.clue, record.names, "clue")
        except InvalidInput as exc:  # spelt as the option, the part as typed: --clue island
            raise RecordAnalysis.respell(exc, "option", typed) from None
    question = read_mode(MODES, ANALYSIS_MODE, args, extra, typed)
    assert isinstance(question, RecordAnalysis)
    # isles.answer loads the solvers (Z3, SciPy) here, not at start-up.
    analysis = isles.answer(question, progress=None)
    if args.json:
        emit_json(analysis.to_dict())
    else:
        print("\n".join(analysis_lines(analysis)))
    return 0 if analysis.status.answered else 1


def dig_lines(record: Record, advice: DigAdvice) -> list[str]:
    """The readable dig-now-or-wait table."""
    games = f"game{'s' * (advice.samples_asked != 1)} played on"
    played = f"{advice.samples} {games}"
    if advice.stopped_at_time_limit:
        played = (
            f"stopped at the {advice.time_limit:g} s time limit after {advice.samples} of "
            f"{advice.samples_asked} {games}"
        )
    lines = [
        f"Dig now or wait (player {advice.player}, after {advice.turn} "
        f"turn{'s' * (advice.turn != 1)}; others play {advice.policy}; {played}, "
        f"seed {advice.seed}):",
        "expected points of my crew card [95% interval]",
    ]
    for t in advice.targets:
        lines.append(
            f"  p{t.target}: best guess now {record.code_text(t.code)} "
            f"p={float(t.probability):.1%} (now, were it first in the chest: exactly "
            f"{float(t.now_exact):.2f})"
        )
        for o in t.options:
            when = "now" if o.wait == 0 else f"wait {o.wait}"
            mark = "  <- best" if o.wait == t.best.wait else ""
            lines.append(
                f"    {when:<7} {o.expected_points:5.2f} [{o.ci95[0]:.2f}, {o.ci95[1]:.2f}]"
                f"  right {o.right:.0%}{mark}"
            )
    return lines


def _run_dig_advice(args: argparse.Namespace, record: Record) -> int:
    question = read_mode(MODES, DIG_MODE, args, {"record": record})
    assert isinstance(question, DigQuestion)
    advice = isles.answer(question, progress=None)
    if args.json:
        emit_json(advice.to_dict())
    else:
        print("\n".join(dig_lines(record, advice)))
    return 0


def tournament_lines(result: Tournament) -> list[str]:
    """The readable tournament tables: per policy, then per seat."""
    lines = []
    if result.stopped_at_time_limit:
        head = (
            f"Stopped at the {result.time_limit:g} s time limit after {result.games} of "
            f"{result.games_asked} games"
        )
        if not result.games:
            return [f"{head}: no result (--time-limit to play longer)."]
        lines.append(f"{head} (--time-limit to play longer).")
    lines.append(
        f"{result.games} game{'s' * (result.games != 1)}, {result.players} players, "
        f"seed {result.seed}, seats rotated; "
        f"{result.mean_turns:.1f} turns a game on average; 95% intervals"
    )
    for title, rows in (("policy", result.policies), ("seat", result.seats)):
        lines.append("")
        # Columns two spaces apart at their widest ("100.0% [20.7%, 100.0%]", 22).
        width = max(14, *(len(r.name) for r in rows))  # a long policy name widens it
        lines.append(
            f"{title:<{width}} {'played':>6}  {'win rate':<22}  {'mean score':<21}  first dig"
        )
        for r in rows:
            win = f"{r.win_rate:6.1%} [{r.win_ci95[0]:.1%}, {r.win_ci95[1]:.1%}]"
            score = f"{r.mean_score:5.2f} [{r.score_ci95[0]:.2f}, {r.score_ci95[1]:.2f}]"
            dig = f"{r.first_dig_rate:.1%} [{r.first_dig_ci95[0]:.1%}, {r.first_dig_ci95[1]:.1%}]"
            lines.append(f"{r.name:<{width}} {r.played:>6}  {win:<22}  {score:<21}  {dig}")
    return lines


def tournament_figure(result: Tournament, path: Path) -> Path:
    """Win rates and mean scores per policy and win rates per seat, with 95% intervals."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from isles.draw import save_figure

    fig, axes = plt.subplots(1, 3, figsize=(13, 3.8), constrained_layout=True)
    panels = (
        (axes[0], result.policies, "win rate", [(r.win_rate, r.win_ci95) for r in result.policies]),
        (
            axes[1],
            result.policies,
            "mean score",
            [(r.mean_score, r.score_ci95) for r in result.policies],
        ),
        (
            axes[2],
            result.seats,
            "win rate by seat",
            [(r.win_rate, r.win_ci95) for r in result.seats],
        ),
    )
    for ax, rows, title, bars in panels:
        values = [v for v, _ in bars]
        low = [v - ci[0] for v, ci in bars]
        high = [ci[1] - v for v, ci in bars]
        ax.bar(range(len(rows)), values, yerr=[low, high], capsize=4, color="tab:blue")
        ax.set_xticks(range(len(rows)), [r.name for r in rows], rotation=20)
        ax.set_title(title)
    fig.suptitle(
        f"Plunder tournament: {result.games} games, {result.players} players, seed "
        f"{result.seed} (95% intervals)"
    )
    return save_figure(fig, path)


def _run_tournament(args: argparse.Namespace) -> int:
    question = read_mode(MODES, TOURNAMENT_MODE, args)
    assert isinstance(question, TournamentQuestion)
    png = check_output("--png", args.png, (".png", ".svg"))
    result = isles.answer(question, progress=None)
    if png is not None and result.games:
        tournament_figure(result, png)
    if args.json:
        emit_json(result.to_dict())
    else:
        print("\n".join(tournament_lines(result)))
        if png is not None and result.games:
            print(f"Picture: {png}")
    return 0 if result.status.answered else 1


# -- demo --------------------------------------------------------------------------


def demo(out_dir: Path, echo: Callable[[str], None]) -> None:
    """The Plunder section of ``isles demo``: the embedded record, its grid, advice, a heatmap."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    from isles.draw import save_figure
    from isles.plunder import analyse, example_record

    analysis = analyse(example_record(), advise=True)
    record = analysis.record
    echo("== Plunder deduction (embedded record: 4 players, 7 turns, I am player 0) ==")
    for line in analysis_lines(analysis):
        echo(line)

    post = analysis.deduction.posterior
    fig, axes = plt.subplots(1, 3, figsize=(12, 3.2), constrained_layout=True)
    for ax, cat in zip(axes, CATEGORIES, strict=True):
        grid = np.array([[float(x) for x in post.marginals(p)[cat]] for p in range(record.players)])
        ax.imshow(grid, vmin=0, vmax=1, cmap="Blues")
        ax.set_title(cat.value)
        ax.set_xticks(
            range(VALUES), [record.value_name(cat, v) for v in range(VALUES)], rotation=45
        )
        ax.set_yticks(range(record.players), [f"p{p}" for p in range(record.players)])
        for p in range(record.players):
            for v in range(VALUES):
                colour = "white" if grid[p, v] > 0.6 else "black"
                ax.text(
                    v, p, f"{grid[p, v]:.2f}", ha="center", va="center", fontsize=7, color=colour
                )
    fig.suptitle("Plunder: exact posterior per player and value")
    path = save_figure(fig, out_dir / "plunder_posterior.png")
    echo(f"Picture: {path.name}")
