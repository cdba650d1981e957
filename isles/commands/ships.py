"""``isles ships``: a ships' log book checked, a ship becoming a settlement, a harvest.

Seed 004_644cf972d8964df4.txt, rules 4 to 13; docs/ships.md. The command line of
:func:`isles.ships.check_log`, :func:`isles.ships.convert` and
:func:`isles.ships.harvest_course`, their options derived from the declarations
:class:`~isles.models.ships.questions.LogCheck`, :class:`~isles.models.ships.questions.Convert`
and :class:`~isles.models.ships.questions.Harvest`.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

import isles
from isles.cli import emit_json, one_stdin
from isles.models.ships.coordinates import parse_settlement
from isles.models.ships.demo import board_or_demo
from isles.models.ships.logbook import LogBook
from isles.models.ships.questions import Convert, Harvest, LogCheck
from isles.options import NAMED_READERS, add_question, read_question

if TYPE_CHECKING:
    from isles.cli import OneLineParser
    from isles.ships import Conversion, HarvestOutlook, LogReplay

ORDER = 52

# The solvers load when isles.answer first answers, so that `isles --help` and the other
# commands start without NumPy and SciPy.

#: A corner typed Q,R:Q,R:Q,R (``harvest --near``), as ``isles sail`` reads it.
NAMED_READERS["corner"] = parse_settlement


def register(subparsers: argparse._SubParsersAction[OneLineParser]) -> None:
    """Add ``isles ships check | convert | harvest``."""
    ships = subparsers.add_parser(
        "ships",
        help="ships' log book check, conversion to a settlement, harvest on a course",
        description="Questions about a player's ships (seed 004; docs/ships.md).",
    )
    tasks = ships.add_subparsers(dest="task", metavar="TASK", required=True)
    _register_check(tasks)
    _register_convert(tasks)
    _register_harvest(tasks)


def _register_check(tasks: argparse._SubParsersAction[OneLineParser]) -> None:
    check = tasks.add_parser(
        "check",
        help="replay a log book against the rules",
        description=(
            'Replay a ships\' log book (JSON, docs/ships.md "The log book") against the '
            "rules and name the first entry that breaks one; a valid log prints each "
            "ship's state after each roll. Exit status: 0 valid, 1 a rule broken, 2 bad input."
        ),
    )
    # Both fields of LogCheck are files the command reads.
    fields = LogCheck.model_fields
    check.add_argument("log", metavar="LOG", help=fields["log"].description)
    check.add_argument("--board", metavar="FILE", help=fields["board"].description)
    check.add_argument("--json", action="store_true", help="print one JSON object")
    check.set_defaults(func=_check_log)


def _register_convert(tasks: argparse._SubParsersAction[OneLineParser]) -> None:
    conv = tasks.add_parser(
        "convert",
        help="steer a paid ship to become a settlement in the fewest expected rolls",
        description=(
            "Three of the four settlement cards are paid: the ship becomes a settlement "
            "when the number of the land hex it lies along is rolled and that hex yields "
            "the missing card (seed 004 rule 10; docs/ships.md). The best spot, the "
            "steering at the start, the expected rolls with and without the variant "
            "'automatic on my turn', and the exact chance within R rolls."
        ),
    )
    add_question(conv, Convert)
    conv.add_argument("--board", metavar="FILE", help=Convert.model_fields["board"].description)
    conv.add_argument("--json", action="store_true", help="print one JSON object")
    conv.set_defaults(func=_convert)


def _register_harvest(tasks: argparse._SubParsersAction[OneLineParser]) -> None:
    crop = tasks.add_parser(
        "harvest",
        help="expected cargo after R rolls on the course to a target",
        description=(
            "The exact cargo of a ship steered to a target (the fewest-expected-rolls "
            "course of isles sail) after R rolls: it takes a card when the land hex it "
            "lies along is rolled, unless rule 7 forbids it (an enemy building or road, "
            "more than one building around the hex: read from the board file's "
            "buildings and roads). Seed 004 rules 4, 6, 7; docs/ships.md."
        ),
    )
    add_question(crop, Harvest)
    crop.add_argument("--board", metavar="FILE", help=Harvest.model_fields["board"].description)
    crop.add_argument("--json", action="store_true", help="print one JSON object")
    crop.set_defaults(func=_harvest)


def _convert(args: argparse.Namespace) -> int:
    question = read_question(Convert, args, files={"board": lambda: board_or_demo(args.board)})
    # The text answer holds both readings of rule 10: the variant (the larger solve) first,
    # so that a board too big for it is refused before any work.
    results: dict[bool, Conversion] = {}
    for on_turn in [question.on_turn] if args.json else [True, False]:
        asked = question
        if on_turn != question.on_turn:  # the other reading: its expected rolls only
            asked = question.model_copy(update={"on_turn": on_turn, "within": []})
        results[on_turn] = isles.answer(asked)
    answer = results[question.on_turn]
    if args.json:
        emit_json(answer.to_dict())
        return 0 if answer.status.answered else 1
    other = results[not question.on_turn]
    for line in _conversion_lines(answer, other):
        print(line)
    return 0 if answer.status.answered else 1


def _conversion_lines(answer: Conversion, other: Conversion) -> list[str]:
    """The text answer of ``isles ships convert``."""
    rule = "variant: converts at once on its owner's turn" if answer.on_turn else "rule 10"
    lines = [
        f"Ship at {answer.start}, settlement lacking {answer.missing.value} ({rule}; "
        f"{answer.players} players, {answer.rolls_to_turn} rolls before the owner's)"
    ]
    if answer.expected_rolls is None:
        lines.append(f"{answer.reach.value}: no spot can be reached")
        return lines
    lines.append(
        f"fewest expected rolls until it converts: {answer.expected_rolls:.2f} "
        f"(error at most {answer.error_bound or 0.0:.1e})"
    )
    if other.expected_rolls is not None:
        name = "with the variant" if other.on_turn else "without the variant"
        lines.append(f"  {name}: {other.expected_rolls:.2f}")
    for k, p in answer.within:
        lines.append(f"converts within {k} rolls: {_show(p, '.1%')}")
    lines.append("spots (aiming at one only):")
    best = answer.best_spot
    for spot in answer.spots:
        mark = "  <- best" if best is not None and spot.edge == best.edge else ""
        lines.append(
            f"  {spot.edge} (number {spot.number}): {_fmt(spot.expected_rolls)} rolls{mark}"
        )
    if answer.steering:
        lines.append(f"steering at {answer.start}:")
        for st in answer.steering:
            lines.append(
                f"  on {st.roll:>2}: go to {st.go_to}  (choices {', '.join(map(str, st.options))})"
            )
    return lines


def _harvest(args: argparse.Namespace) -> int:
    question = read_question(Harvest, args, files={"board": lambda: board_or_demo(args.board)})
    out = isles.answer(question)
    if args.json:
        emit_json(out.to_dict())
        return 0
    for line in _harvest_lines(out):
        print(line)
    return 0


def _harvest_lines(out: HarvestOutlook) -> list[str]:
    """The text answer of ``isles ships harvest``."""
    taken = ", ".join(f"{r} {float(x):.3f}" for r, x in out.taken.items()) or "nothing"
    return [
        f"Ship of {out.player} from {out.start} to {', '.join(map(str, out.targets))}, "
        f"{out.rolls} rolls, {out.start_cargo} cards on board",
        f"expected cargo: {_show(out.expected_cargo, '.3f')} cards (at most 3)",
        "cards on board: " + ", ".join(f"{c}: {float(p):.1%}" for c, p in enumerate(out.cargo)),
        f"expected cards taken on the way: {taken}",
        f"arrived within {out.rolls} rolls: {_show(out.arrived, '.1%')}",
    ]


def _check_log(args: argparse.Namespace) -> int:
    one_stdin(("LOG", args.log), ("--board", args.board))
    board = board_or_demo(args.board)
    replay = isles.answer(LogCheck.ask(board=board, log=LogBook.load(args.log)))
    if args.json:
        emit_json(replay.to_dict())
    else:
        for line in _replay_lines(replay):
            print(line)
    return 0 if replay.status.answered else 1


def _replay_lines(replay: LogReplay) -> list[str]:
    """The text answer of ``isles ships check``."""
    if not replay.started:
        return [
            f"log book of {replay.player}: a ship at the start breaks a rule",
            f"rule broken: {replay.breach}",
        ]
    lines = [f"log book of {replay.player}: {len(replay.start)} ships at the start"]
    lines.append("start: " + ("; ".join(map(str, replay.start)) or "no ship"))
    for i, (roll, ships) in enumerate(zip(replay.rolls, replay.after, strict=True)):
        lines.append(f"roll {i + 1} ({roll}): " + ("; ".join(map(str, ships)) or "no ship"))
    if replay.breach is None:
        lines.append(f"every entry keeps the rules ({len(replay.rolls)} rolls)")
    else:
        lines.append(f"rule broken: {replay.breach}")
    return lines


def _fmt(x: float | None) -> str:
    return "-" if x is None else f"{x:.2f}"


def _show(x: Fraction, spec: str) -> str:
    """A float, and the exact fraction beside it when that stays short."""
    exact = str(x)
    return f"{float(x):{spec}}" + (f" (= {exact})" if len(exact) <= 20 else "")


def demo(out_dir: Path, echo: Callable[[str], None]) -> None:
    """Nothing: the ships section of ``isles demo`` is :func:`isles.commands.sail.demo`."""
