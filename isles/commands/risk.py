"""``isles risk``: the collision and pirate tables, the cargo left, the pirate's reach.

Seed 004_644cf972d8964df4.txt, rules 11 and 12; docs/ships.md. The command line
of :func:`isles.ships.risk`, its options derived from the declaration
:class:`~isles.models.ships.questions.Risk`.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

import isles
from isles.cli import emit_json
from isles.models.ships.demo import board_or_demo
from isles.models.ships.encounters import outcome_rolls
from isles.models.ships.questions import Risk
from isles.options import add_question, read_question

if TYPE_CHECKING:
    from isles.cli import OneLineParser
    from isles.ships import RiskReport

ORDER = 51

# The solvers load when isles.answer first answers, so that `isles --help` and the other
# commands start without NumPy and SciPy.


def register(subparsers: argparse._SubParsersAction[OneLineParser]) -> None:
    """Add ``isles risk``: its options are those of the declaration :class:`Risk`."""
    p = subparsers.add_parser(
        "risk",
        help="collision and pirate tables, cargo left, pirate reach",
        description=(
            "Exact collision and pirate outcome tables (seed 004 rules 11 and 12; "
            "docs/ships.md), the cargo left after a number of encounters, and with "
            "--pirate and --edge the chance that the pirate ship reaches an edge "
            "within some rolls."
        ),
    )
    add_question(p, Risk)
    p.add_argument("--board", metavar="FILE", help=Risk.model_fields["board"].description)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Read the question the options ask, answer it, print it."""
    # The board file is read once the options given go together (--board only with
    # --pirate); the demo board stands in for a --board not given.
    files: dict[str, Callable[[], Any]] = {}
    if args.board is not None or hasattr(args, "pirate"):
        files["board"] = lambda: board_or_demo(args.board)
    question = read_question(Risk, args, files=files)
    report = isles.answer(question)
    if args.json:
        emit_json(report.to_dict())
    else:
        for line in _risk_lines(report):
            print(line)
    return 0


_ENCOUNTER_WORDS = {"collision": "collision", "pirate": "pirate attack"}


def _risk_lines(report: RiskReport) -> list[str]:
    """The text answer of ``isles risk``."""
    lines: list[str] = []
    for enc, table in report.tables.items():
        lines.append(f"{enc.value} (2d6 per ship involved):")
        for o, p in table.items():
            rolls = ",".join(map(str, outcome_rolls(enc)[o]))
            lines.append(f"  {rolls:<16} {o.label:<16} {p!s:>6} = {float(p):6.1%}")
    for enc, out in report.outlook.items():
        lines.append(
            f"after {out.encounters} {_ENCOUNTER_WORDS[enc.value]}(s) "
            f"with {out.start_cargo} cards: "
            f"sunk {_show(out.sunk, '.1%')}, expected cargo left "
            f"{_show(out.expected_cargo, '.3f')}"
        )
    reach = report.pirate_reach
    if reach is not None:
        lines.append(
            f"pirate from {reach.pirate} on {reach.edge} within {reach.rolls} rolls: "
            f"{_show(reach.toward, '.1%')} if steered toward it, "
            f"{_show(reach.away, '.1%')} if steered away"
        )
    return lines


def _show(x: Fraction, spec: str) -> str:
    """A float, and the exact fraction beside it when that stays short."""
    exact = str(x)
    return f"{float(x):{spec}}" + (f" (= {exact})" if len(exact) <= 20 else "")


def demo(out_dir: Path, echo: Callable[[str], None]) -> None:
    """Nothing: the ships section of ``isles demo`` is :func:`isles.commands.sail.demo`."""
