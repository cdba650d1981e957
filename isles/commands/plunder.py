"""``isles plunder``: what a Plunder record proves, the exact odds, and what to do next.

Command line of RULES.md section 3 (seed 003_cfc377110defcf34.txt); the solver
is solvers/plunder.py.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from isles.cli import OneLineParser, emit_json
from isles.models.errors import InvalidInput
from isles.models.plunder import CATEGORIES, Code, Record, code_from_json

if TYPE_CHECKING:
    from isles.solvers.plunder import Deduction, FlipAdvice, Guess

ORDER = 20

TOP_CODES = 3


def register(subparsers: argparse._SubParsersAction[OneLineParser]) -> None:
    """Add ``isles plunder RECORD.json [--json] [--advise] [--clue I,M,T] [--active P]``."""
    p = subparsers.add_parser(
        "plunder",
        help="Plunder deduction: consistency, exact posterior, flip and guess advice",
        description=(
            "Read a Plunder record (docs/plunder.md) and print, per player, the exact "
            "probability of every value (forced values marked *), or a smallest set of "
            "conflicting answers when the record is inconsistent (exit status 1)."
        ),
    )
    p.add_argument("record", help="the record JSON file")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--advise", action="store_true", help="add flip and guess advice")
    p.add_argument(
        "--clue",
        help="the combination on the table for flip advice, 'island,marker,trap' "
        "(indices or names; default: the last observation's clue)",
    )
    p.add_argument(
        "--active",
        type=int,
        help="the active player for flip advice (default: me, else the next player)",
    )
    p.set_defaults(func=_run)


# -- argument handling -------------------------------------------------------------


def _table_clue(record: Record, text: str | None) -> Code | None:
    if text is None:
        return record.observations[-1].clue if record.observations else None
    parts = [s.strip() for s in text.split(",")]
    if len(parts) != len(CATEGORIES):
        raise InvalidInput("--clue", text, "three values 'island,marker,trap'")
    raw = {
        cat.value: int(s) if s.lstrip("-").isdigit() else s
        for cat, s in zip(CATEGORIES, parts, strict=True)
    }
    return code_from_json("--clue", raw, record.names)


def _table_active(record: Record, active: int | None) -> int:
    if active is not None:
        if not 0 <= active < record.players:
            raise InvalidInput("--active", active, f"a player index in 0..{record.players - 1}")
        return active
    if record.me is not None:
        return record.me.player
    if record.observations:
        return (record.observations[-1].active + 1) % record.players
    return 0


# -- output ------------------------------------------------------------------------


def _code_dict(code: Code) -> dict[str, int]:
    return {"island": code.island, "marker": code.marker, "trap": code.trap}


def _code_text(record: Record, code: Code) -> str:
    return "/".join(record.value_name(c, code.value(c)) for c in CATEGORIES)


def deduction_dict(record: Record, result: Deduction) -> dict[str, Any]:
    """The ``--json`` object of the issue (probabilities as floats)."""
    post = result.posterior
    players: dict[str, Any] = {}
    if post.deals:
        for p in range(record.players):
            entry: dict[str, Any] = {}
            for cat, probs in post.marginals(p).items():
                entry[cat.value] = {str(v): float(x) for v, x in enumerate(probs)}
            entry["codes"] = [{**_code_dict(c), "p": float(x)} for c, x in post.codes(p)]
            players[str(p)] = entry
    return {
        "consistent": bool(post.deals),
        "deals": post.deals,
        "players": players,
        "conflict": [{"observation": a.observation, "player": a.player} for a in result.conflict],
        "forced": [
            {
                "player": f.player,
                "category": f.category.value,
                "value": f.value,
                "proof": [{"observation": a.observation, "player": a.player} for a in f.proof],
            }
            for f in result.forced
        ],
    }


def advice_dict(flip: FlipAdvice | None, guesses: tuple[Guess, ...]) -> dict[str, Any]:
    """The ``advice`` member of the ``--json --advise`` object."""
    out: dict[str, Any] = {"flip": None}
    if flip is not None:
        out["flip"] = {
            "clue": _code_dict(flip.clue),
            "active": flip.active,
            "options": [
                {
                    "deck": o.deck.value if o.deck else None,
                    "expected_bits": o.expected_bits,
                    "cards": [{"value": v, "p": float(x), "bits": b} for v, x, b in o.cards],
                }
                for o in flip.options
            ],
        }
    out["guesses"] = [
        {
            "target": g.target,
            **_code_dict(g.code),
            "p": float(g.probability),
            "expected_points": float(g.expected_points),
        }
        for g in guesses
    ]
    return out


def grid_lines(record: Record, result: Deduction) -> list[str]:
    """The readable grid: per category, players x values, percentages, forced marked *."""
    post = result.posterior
    me = record.me.player if record.me else None
    turns = len(record.observations)
    lines = [
        f"{record.players} players, {turns} turn{'s' * (turns != 1)}, "
        f"{post.deals:,} consistent deal{'s' * (post.deals != 1)}"
        + (f"; I am player {me}" if me is not None else "")
    ]
    if not post.deals:
        lines.append("Inconsistent record. These answers cannot all be true (a smallest set):")
        for a in result.conflict:
            obs = record.observations[a.observation]
            said = "yes" if obs.answers[a.player] else "no"
            lines.append(
                f"  observation {a.observation}: player {a.player} said {said} to "
                f"{_code_text(record, obs.clue)}"
            )
        return lines
    width = max(7, *(len(record.value_name(c, v)) for c in CATEGORIES for v in range(6)))
    for cat in CATEGORIES:
        lines.append("")
        header = [f"{cat.value:<8}"] + [f"{record.value_name(cat, v):>{width}}" for v in range(6)]
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
    for f in result.forced:
        proof = ", ".join(f"obs {a.observation} p{a.player}" for a in f.proof) or "distinctness"
        lines.append(
            f"  p{f.player} {f.category.value} = {record.value_name(f.category, f.value)}"
            f"  because of: {proof}"
        )
    lines.append("")
    lines.append("Most likely codes:")
    for p in range(record.players):
        if p == me:
            continue
        best = post.codes(p)[:TOP_CODES]
        shown = ", ".join(f"{_code_text(record, c)} {float(x):.1%}" for c, x in best)
        lines.append(f"  p{p}: {shown} (of {len(post.codes(p))} codes)")
    return lines


def advice_lines(record: Record, flip: FlipAdvice | None, guesses: tuple[Guess, ...]) -> list[str]:
    """The readable flip and guess advice."""
    lines = []
    if flip is None:
        lines.append("Flip advice: no clue on the table (give --clue).")
    else:
        lines.append(
            f"Flip advice for player {flip.active} with {_code_text(record, flip.clue)} on "
            "the table (expected information from the answers, bits):"
        )
        for o in flip.options:
            name = f"flip {o.deck.value}" if o.deck else "no flip"
            lines.append(f"  {name:<12} {o.expected_bits:6.3f}")
    lines.append("Guess advice (a crew card now, if first to dig):")
    for g in guesses:
        lines.append(
            f"  p{g.target}: {_code_text(record, g.code)}  p={float(g.probability):.1%}  "
            f"expected points {float(g.expected_points):.2f}"
        )
    return lines


def _advise(
    record: Record, result: Deduction, clue_text: str | None, active: int | None
) -> tuple[FlipAdvice | None, tuple[Guess, ...]]:
    from isles.solvers.plunder import flip_advice, guess_advice

    clue = _table_clue(record, clue_text)
    who = _table_active(record, active)
    flip = flip_advice(record, clue, who) if clue is not None else None
    return flip, guess_advice(record, result.posterior)


def _run(args: argparse.Namespace) -> int:
    from isles.solvers.plunder import deduce

    record = Record.load(args.record)
    result = deduce(record)
    advice = None
    if args.advise and result.posterior.deals:
        advice = _advise(record, result, args.clue, args.active)
    if args.json:
        obj = deduction_dict(record, result)
        if args.advise:
            obj["advice"] = advice_dict(*advice) if advice else None
        emit_json(obj)
    else:
        for line in grid_lines(record, result):
            print(line)
        if advice:
            print()
            for line in advice_lines(record, *advice):
                print(line)
    return 0 if result.posterior.deals else 1


# -- demo --------------------------------------------------------------------------


def demo(out_dir: Path, echo: Callable[[str], None]) -> None:
    """The Plunder section of ``isles demo``: the embedded record, its grid, advice, a heatmap."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    from isles.draw import save_figure
    from isles.models.plunder import example_record
    from isles.solvers.plunder import deduce

    record = example_record()
    result = deduce(record)
    echo("== Plunder deduction (embedded record: 4 players, 7 turns, I am player 0) ==")
    for line in grid_lines(record, result):
        echo(line)
    echo("")
    for line in advice_lines(record, *_advise(record, result, None, None)):
        echo(line)

    post = result.posterior
    fig, axes = plt.subplots(1, 3, figsize=(12, 3.2), constrained_layout=True)
    for ax, cat in zip(axes, CATEGORIES, strict=True):
        grid = np.array([[float(x) for x in post.marginals(p)[cat]] for p in range(record.players)])
        ax.imshow(grid, vmin=0, vmax=1, cmap="Blues")
        ax.set_title(cat.value)
        ax.set_xticks(range(6), [record.value_name(cat, v) for v in range(6)], rotation=45)
        ax.set_yticks(range(record.players), [f"p{p}" for p in range(record.players)])
        for p in range(record.players):
            for v in range(6):
                colour = "white" if grid[p, v] > 0.6 else "black"
                ax.text(
                    v, p, f"{grid[p, v]:.2f}", ha="center", va="center", fontsize=7, color=colour
                )
    fig.suptitle("Plunder: exact posterior per player and value")
    path = save_figure(fig, out_dir / "plunder_posterior.png")
    echo(f"Picture: {path.name}")
