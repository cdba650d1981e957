"""``isles plunder``: what a Plunder record proves, the exact odds, and what to do next.

The command line of docs/plunder.md (seed ``seeds/003_cfc377110defcf34.txt``):
it parses, calls :func:`isles.solvers.plunder.analyse` and formats; ``--json``
prints the analysis' ``to_dict()``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from isles.cli import OneLineParser, count_type, emit_json, only_with, seconds_type
from isles.models.errors import InvalidInput
from isles.models.plunder import CATEGORIES, MAX_PLAYERS, VALUES, Record, code_from_text

if TYPE_CHECKING:
    from isles.solvers.plunder import Advice, Analysis

ORDER = 20

TOP_CODES = 3

#: The default of --time-limit, in seconds: isles.solvers.plunder.DEFAULT_TIME_LIMIT
#: (repeated here so that the command line starts without loading Z3; a test checks).
TIME_LIMIT = 3.0


def register(subparsers: argparse._SubParsersAction[OneLineParser]) -> None:
    """Add ``isles plunder RECORD [--json] [--advise [--clue I,M,T] [--active P]]
    [--time-limit SEC]``."""
    p = subparsers.add_parser(
        "plunder",
        help="Plunder deduction: consistency, exact posterior, flip and guess advice",
        description=(
            "Read a Plunder record (docs/plunder.md) and print, per player, the exact "
            "probability of every value (forced values marked *, each with a smallest set "
            "of answers that proves it), or a smallest set of conflicting answers when the "
            "record is inconsistent (exit status 1). Past --time-limit, proofs are minimal "
            "(no answer can be dropped) and the answer says so."
        ),
    )
    p.add_argument("record", help="the record JSON file ('-' reads standard input)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--advise", action="store_true", help="add flip and guess advice")
    p.add_argument(
        "--clue",
        help="with --advise: the combination on the table for flip advice, "
        "'island,marker,trap' (indices or names; default: the last observation's clue)",
    )
    p.add_argument(
        "--active",
        type=count_type(0, MAX_PLAYERS - 1),
        help="with --advise: the active player for flip advice "
        "(default: me, else the player after the last active one)",
    )
    p.add_argument(
        "--time-limit",
        type=seconds_type,
        default=TIME_LIMIT,
        metavar="SEC",
        help="seconds for proving proofs and conflicts smallest; past it they stay "
        "minimal and the answer says so (default: %(default)g)",
    )
    p.set_defaults(func=_run)


# -- output ------------------------------------------------------------------------


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
                f"  observation {a.observation}: player {a.player} said {said} to "
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
        proof = ", ".join(f"obs {a.observation} p{a.player}" for a in f.proof) or "distinctness"
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


def advice_lines(record: Record, advice: Advice) -> list[str]:
    """The readable flip and guess advice."""
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
    """The whole text answer: the grid, then the advice when asked for."""
    lines = grid_lines(analysis)
    if analysis.advice is not None:
        lines.append("")
        lines.extend(advice_lines(analysis.record, analysis.advice))
    return lines


def _run(args: argparse.Namespace) -> int:
    # Z3 and SciPy load here, not at start-up: the other commands do not need them.
    from isles.solvers.plunder import analyse

    only_with("--clue", args.clue, args.clue is None or args.advise, "--advise")
    only_with("--active", args.active, args.active is None or args.advise, "--advise")
    record = Record.load(args.record)
    clue = code_from_text(args.clue, record.names, "--clue") if args.clue is not None else None
    if args.active is not None and args.active >= record.players:
        raise InvalidInput("--active", args.active, f"a player index in 0..{record.players - 1}")
    analysis = analyse(
        record,
        advise=args.advise,
        clue=clue,
        active=args.active,
        time_limit=args.time_limit,
        progress=sys.stderr.isatty(),
    )
    if args.json:
        emit_json(analysis.to_dict())
    else:
        print("\n".join(analysis_lines(analysis)))
    return 0 if analysis.status.answered else 1


# -- demo --------------------------------------------------------------------------


def demo(out_dir: Path, echo: Callable[[str], None]) -> None:
    """The Plunder section of ``isles demo``: the embedded record, its grid, advice, a heatmap."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    from isles.draw import save_figure
    from isles.models.plunder import example_record
    from isles.solvers.plunder import analyse

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
