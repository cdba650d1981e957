"""``isles sail`` and ``isles risk``: steer a ship blown by the 2d6 winds, and what it risks.

Seed 004_644cf972d8964df4.txt, rules 6, 11, 12; docs/ships.md. The command line
of :func:`isles.ships.sail` and :func:`isles.ships.risk`, and the ships section of
``isles demo``: it parses, calls the library once, and formats.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

from isles.cli import check_output, count_type, emit_json, one_stdin, only_with
from isles.models.catan import Board, Resource
from isles.models.errors import InvalidInput
from isles.models.fleet import MAX_FLEET_ROLLS, Rollers
from isles.models.hexgrid import Edge, parse_edge, to_pixel
from isles.models.ships import (
    MAX_ENCOUNTERS,
    MAX_PLAYERS,
    MAX_REACH_ROLLS,
    MAX_SHIPS,
    MAX_WITHIN,
    MIN_PLAYERS,
    parse_settlement,
    port_edges,
)

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from isles.cli import OneLineParser
    from isles.solvers.conversion import Conversion
    from isles.solvers.fleet import FleetVoyage
    from isles.solvers.logbook import LogReplay
    from isles.solvers.sailing import Navigation, RiskReport, Voyage

ORDER = 50

#: The library's parameter names and the options the user typed for them.
_SAIL_OPTIONS = {
    "board": "--board",
    "start": "--from",
    "targets": "--to",
    "near": "--near",
    "players": "--players",
    "may_stay": "--may-stay",
}
_FLEET_OPTIONS = {
    "ships": "--from",
    "targets": "--to",
    "near": "--near",
    "within": "--within",
    "board": "--board",
    "may_stay": "--may-stay",
    "rollers": "--rollers",
}
_RISK_OPTIONS = {
    "cargo": "--cargo",
    "encounters": "--encounters",
    "board": "--board",
    "pirate": "--pirate",
    "edge": "--edge",
    "rolls": "--rolls",
    "may_stay": "--may-stay",
}


def register(subparsers: argparse._SubParsersAction[OneLineParser]) -> None:
    """Add the ``sail`` and ``risk`` subcommands."""

    sail = subparsers.add_parser(
        "sail",
        help="steer a ship (or a fleet of 2-3 ships) home under the winds",
        description=(
            "One --from: minimal expected number of 2d6 rolls for a ship to reach a "
            "target edge (or the coast next to a settlement), the steering at the start, "
            "and the exact chance to arrive within 5, 10 and 20 rolls. Two or three "
            "--from with --within R: the best chance that every ship stands on a "
            "scoring edge at once within r rolls (r = 1..R; --near: every ship edge at "
            "the corner scores), the fewest expected rolls to that moment, and the first "
            "move per roll (seed 004; docs/ships.md). --port adds the board's harbours "
            "as targets. Edges are Q,R:Q,R, corners Q,R:Q,R:Q,R. Exit status: 0 "
            "answered, 1 the target cannot be reached (one ship: surely), 2 bad input."
        ),
    )
    sail.add_argument(
        "--board", metavar="FILE", help="board JSON file, - for stdin (default: the demo board)"
    )
    sail.add_argument(
        "--from",
        dest="start",
        action="append",
        required=True,
        metavar="Q,R:Q,R",
        help="ship edge (repeat for a fleet of 2 or 3 ships)",
    )
    sail.add_argument("--to", action="append", metavar="Q,R:Q,R", help="target edge (repeatable)")
    sail.add_argument(
        "--near",
        action="append",
        metavar="Q,R:Q,R:Q,R",
        help="target: the edges next to this building's corner (repeatable; one ship: the coast)",
    )
    sail.add_argument(
        "--port",
        action="append",
        metavar="KIND",
        help="target: the board's harbours of this kind (generic, wool, ..., or any; repeatable)",
    )
    sail.add_argument(
        "--may-stay", action="store_true", help="variant: a ship along a coast may stay"
    )
    sail.add_argument(
        "--within",
        type=count_type(0, MAX_FLEET_ROLLS),
        metavar="R",
        help=f"fleet: the horizon in rolls (0..{MAX_FLEET_ROLLS}; needed with 2-3 --from)",
    )
    sail.add_argument(
        "--rollers",
        choices=[r.value for r in Rollers],
        help="fleet: who rolls in a collision: each ship over the limit (excess, default) "
        "or every ship on the edge (all, a variant)",
    )
    sail.add_argument(
        "--players",
        type=count_type(MIN_PLAYERS, MAX_PLAYERS),
        help=f"one ship: players, to turn rolls into rounds ({MIN_PLAYERS}..{MAX_PLAYERS}; "
        "default 4)",
    )
    sail.add_argument("--json", action="store_true", help="print one JSON object")
    sail.add_argument(
        "--png",
        metavar="FILE",
        help="draw the expected-rolls field, or the fleet and its first moves (.png/.svg)",
    )
    sail.set_defaults(func=_sail)

    risk = subparsers.add_parser(
        "risk",
        help="collision and pirate tables, cargo left, pirate reach",
        description=(
            "Exact collision and pirate outcome tables (seed 004 rules 11 and 12; "
            "docs/ships.md), the cargo left after a number of encounters, and with "
            "--pirate and --edge the chance that the pirate ship reaches an edge "
            "within some rolls."
        ),
    )
    risk.add_argument(
        "--cargo", type=count_type(0, 3), default=3, help="cards on board (0..3; default 3)"
    )
    risk.add_argument(
        "--encounters",
        type=count_type(0, MAX_ENCOUNTERS),
        default=1,
        help=f"encounters in a row (0..{MAX_ENCOUNTERS}; default 1)",
    )
    risk.add_argument(
        "--board",
        metavar="FILE",
        help="board JSON file, - for stdin, with --pirate (default: the demo board)",
    )
    risk.add_argument("--pirate", metavar="Q,R:Q,R", help="pirate ship edge")
    risk.add_argument("--edge", metavar="Q,R:Q,R", help="edge the pirate might reach")
    risk.add_argument(
        "--rolls",
        type=count_type(0, MAX_REACH_ROLLS),
        help=f"rolls for the pirate reach, with --pirate (0..{MAX_REACH_ROLLS}; default 10)",
    )
    risk.add_argument(
        "--may-stay", action="store_true", help="variant: coast may stay, with --pirate"
    )
    risk.add_argument("--json", action="store_true", help="print one JSON object")
    risk.set_defaults(func=_risk)

    ships = subparsers.add_parser(
        "ships",
        help="ships' log book check, conversion to a settlement, harvest on a course",
        description="Questions about a player's ships (seed 004; docs/ships.md).",
    )
    tasks = ships.add_subparsers(dest="task", metavar="TASK", required=True)
    check = tasks.add_parser(
        "check",
        help="replay a log book against the rules",
        description=(
            'Replay a ships\' log book (JSON, docs/ships.md "The log book") against the '
            "rules and name the first entry that breaks one; a valid log prints each "
            "ship's state after each roll. Exit status: 0 valid, 1 a rule broken, 2 bad input."
        ),
    )
    check.add_argument("log", metavar="LOG", help="log book JSON file, - for stdin")
    check.add_argument(
        "--board",
        metavar="FILE",
        help="board JSON file with the players' buildings and roads (default: the demo board)",
    )
    check.add_argument("--json", action="store_true", help="print one JSON object")
    check.set_defaults(func=_check_log)

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
    conv.add_argument(
        "--board", metavar="FILE", help="board JSON file, - for stdin (default: the demo board)"
    )
    conv.add_argument("--from", dest="start", required=True, metavar="Q,R:Q,R", help="ship edge")
    conv.add_argument(
        "--missing",
        required=True,
        choices=[r.value for r in Resource],
        help="the settlement card not paid",
    )
    conv.add_argument(
        "--on-turn",
        action="store_true",
        help="variant: on its owner's turn a ship on a spot converts at once",
    )
    conv.add_argument(
        "--players",
        type=count_type(MIN_PLAYERS, MAX_PLAYERS),
        default=4,
        help=f"players, one roll each ({MIN_PLAYERS}..{MAX_PLAYERS}; default 4)",
    )
    conv.add_argument(
        "--rolls-to-turn",
        type=count_type(0, MAX_PLAYERS - 1),
        default=0,
        help="rolls before the owner's own roll (0: the next roll; default 0)",
    )
    conv.add_argument(
        "--may-stay", action="store_true", help="variant: a ship along a coast may stay"
    )
    conv.add_argument(
        "--within",
        type=count_type(0, MAX_WITHIN),
        default=10,
        metavar="R",
        help=f"horizon of the exact odds (0..{MAX_WITHIN}; default 10)",
    )
    conv.add_argument("--json", action="store_true", help="print one JSON object")
    conv.set_defaults(func=_convert)

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
    crop.add_argument(
        "--board",
        metavar="FILE",
        help="board JSON file with buildings and roads, - for stdin (default: the demo board)",
    )
    crop.add_argument("--from", dest="start", required=True, metavar="Q,R:Q,R", help="ship edge")
    crop.add_argument("--to", action="append", metavar="Q,R:Q,R", help="target edge (repeatable)")
    crop.add_argument(
        "--near",
        action="append",
        metavar="Q,R:Q,R:Q,R",
        help="target: the coast edges next to this settlement corner (repeatable)",
    )
    crop.add_argument("--player", required=True, help="the ship's owner (as in the board file)")
    crop.add_argument(
        "--rolls",
        type=count_type(0, MAX_WITHIN),
        required=True,
        help=f"rolls to follow the course (0..{MAX_WITHIN})",
    )
    crop.add_argument(
        "--cargo", type=count_type(0, 3), default=0, help="cards on board at the start (0..3)"
    )
    crop.add_argument(
        "--may-stay", action="store_true", help="variant: a ship along a coast may stay"
    )
    crop.add_argument("--json", action="store_true", help="print one JSON object")
    crop.set_defaults(func=_harvest)


def _check_picture(board: Board, png: Path | None, typed: str | None) -> None:
    """Refuse --png for a board too big to draw, before any work (isles.draw's bound)."""
    if png is not None:
        from isles.draw import check_drawable

        check_drawable(board, "--png", typed)


def _board(path: str | None) -> Board:
    from isles.models.ships import demo_board

    return demo_board() if path is None else Board.load(path)


@contextmanager
def _options(names: Mapping[str, str]) -> Iterator[None]:
    """Report a library error on a parameter as one on the option the user typed."""
    try:
        yield
    except InvalidInput as exc:
        option = names.get(exc.field.partition("[")[0])
        if option is None:
            raise
        renamed = InvalidInput(option, exc.value, exc.expected)
        renamed.args = (option + str(exc)[len(exc.field) :],)
        raise renamed from None


def _sail(args: argparse.Namespace) -> int:
    from isles.solvers.sailing import sail

    png = check_output("--png", args.png, (".png", ".svg"))
    if len(args.start) > 1:
        return _fleet(args, png)
    for option, value in (("--within", args.within), ("--rollers", args.rollers)):
        if value is not None:
            only_with(option, value, False, "two or three --from (a fleet)")
    start = parse_edge(args.start[0], "--from")
    targets = [parse_edge(t, "--to") for t in args.to or []]
    near = [parse_settlement(v, "--near") for v in args.near or []]
    if not targets and not near and not args.port:
        raise InvalidInput(
            "--to", None, "at least one --to edge, --near settlement or --port", problem="missing"
        )
    board = _board(args.board)
    _check_picture(board, png, args.png)
    targets += sorted(port_edges(board, args.port or [], "--port"))
    with _options(_SAIL_OPTIONS):
        voyage = sail(
            board,
            start,
            targets,
            near=near,
            may_stay=args.may_stay,
            players=4 if args.players is None else args.players,
            progress=sys.stderr.isatty(),
        )
    if png is not None:
        _picture(voyage.navigation, start, png, voyage.expected_rolls)
    if args.json:
        emit_json(voyage.to_dict())
    else:
        for line in _voyage_lines(voyage):
            print(line)
        if png is not None:
            print(f"picture: {png}")
    return 0 if voyage.status.answered else 1


def _fleet(args: argparse.Namespace, png: Path | None) -> int:
    from isles.solvers.fleet import fleet

    if args.players is not None:
        only_with("--players", args.players, False, "one --from (rounds of a single ship)")
    if args.within is None:
        raise InvalidInput(
            "--within",
            None,
            f"a horizon in 0..{MAX_FLEET_ROLLS} rolls with 2 or 3 --from",
            problem="missing",
        )
    if len(args.start) > MAX_SHIPS:
        raise InvalidInput("--from", len(args.start), f"1..{MAX_SHIPS} ships (seed rule 2)")
    ships = [parse_edge(e, "--from") for e in args.start]
    targets = [parse_edge(t, "--to") for t in args.to or []]
    near = [parse_settlement(v, "--near") for v in args.near or []]
    if not targets and not near and not args.port:
        raise InvalidInput(
            "--to", None, "at least one --to edge, --near corner or --port", problem="missing"
        )
    board = _board(args.board)
    _check_picture(board, png, args.png)
    targets += sorted(port_edges(board, args.port or [], "--port"))
    with _options(_FLEET_OPTIONS):
        voyage = fleet(
            board,
            ships,
            targets,
            near=near,
            within=args.within,
            may_stay=args.may_stay,
            rollers=None if args.rollers is None else Rollers(args.rollers),
            progress=sys.stderr.isatty(),
        )
    if png is not None:
        _fleet_picture(voyage, png)
    if args.json:
        emit_json(voyage.to_dict())
    else:
        for line in _fleet_lines(voyage):
            print(line)
        if png is not None:
            print(f"picture: {png}")
    return 0 if voyage.status.answered else 1


def _fleet_lines(voyage: FleetVoyage) -> list[str]:
    """The text answer of ``isles sail`` with several ``--from``."""
    odds, nav = voyage.odds, voyage.navigation
    rollers = {
        "excess": "each ship over the limit rolls",
        "all": "every ship on a crowded edge rolls (variant)",
    }[odds.space.rollers.value]
    rule = "a ship along a coast may stay (variant)" if odds.space.may_stay else "moves compulsory"
    lines = [
        f"Fleet of {len(odds.start)} ships at {', '.join(map(str, odds.start))}",
        f"scoring edges: {', '.join(map(str, sorted(odds.scoring)))}",
        f"{odds.joint_states:,} joint positions; {rule}; collisions: {rollers}",
    ]
    for port in voyage.ports:
        lines.append(f"port at {port.edge} ({port.kind.value}): trade {port.trade}")
    if voyage.at_target:
        lines.append("every ship already stands on a scoring edge: 0 rolls, no steering")
        return lines
    lines.append(
        f"best chance that every ship scores at once within r rolls "
        f"(float, error at most {odds.error_bound:.0e}):"
    )
    within = odds.within
    for row in range(1, odds.rolls + 1, 6):
        cells = [
            f"{t:>3} {float(within[t]):6.1%}" for t in range(row, min(row + 6, odds.rolls + 1))
        ]
        lines.append("  " + "   ".join(cells))
    if odds.rolls == 0:
        lines.append(f"  0 rolls: {float(within[0]):.1%}")
    expected = voyage.expected_rolls
    if expected is not None:
        lines.append(
            f"fewest expected rolls until every ship scores at once: {expected:.2f} "
            f"(error at most {nav.error_bound:.1e}; {nav.iterations} policy-iteration rounds)"
        )
    elif voyage.reach.value == "trapped":
        lines.append(
            "trapped: possible but not sure under any steering (a collision risks a ship, "
            "or a roll can strand the fleet), so the expected rolls are infinite"
        )
    else:
        lines.append("unreachable: no sequence of rolls brings every ship home at once")
    advice = odds.advice()
    if advice:
        lines.append(f"first move with {odds.rolls} rolls to go:")
        still = []
        for a in advice:
            if all(src == dst for src, dst in a.moves):
                still.append(str(a.roll))
                continue
            moves = ", ".join(
                f"{src} stays" if src == dst else f"{src} -> {dst}" for src, dst in a.moves
            )
            lines.append(f"  on {a.roll:>2}: {moves}  (then {float(a.probability):.1%})")
        if still:
            lines.append(f"  on {', '.join(still)}: no ship moves")
    return lines


def _fmt(x: float | None) -> str:
    return "-" if x is None else f"{x:.2f}"


def _odds(voyage: Voyage) -> str:
    return ", ".join(f"{k} rolls: {float(p):.1%}" for k, p in voyage.arrival_within)


def _voyage_lines(voyage: Voyage) -> list[str]:
    """The text answer of ``isles sail``."""
    lines = [f"Ship from {voyage.start} to {', '.join(map(str, voyage.targets))}"]
    if voyage.at_target:
        lines.append(f"The ship is already on the target {voyage.start}: 0 rolls, no steering.")
        return lines
    if voyage.expected_rolls is None or voyage.expected_rounds is None:
        if voyage.reach.value == "unreachable":
            lines.append("unreachable: no sequence of rolls leads there")
        else:
            lines.append(
                "not surely reachable (trapped): every steering risks being blown where it "
                "never arrives, so the expected rolls are infinite"
            )
            lines.append("best chance to arrive within " + _odds(voyage))
        return lines
    lines.append(
        f"expected rolls: {voyage.expected_rolls:.2f}  "
        f"(= {voyage.expected_rounds:.2f} rounds with {voyage.players} players)"
    )
    lines.append("arrive within " + _odds(voyage))
    if voyage.steering:
        lines.append(f"steering at {voyage.start}:")
        for s in voyage.steering:
            lines.append(
                f"  on {s.roll:>2}: go to {s.go_to}"
                f"  (then {_fmt(s.expected_rolls_there)} rolls expected;"
                f" choices {', '.join(map(str, s.options))})"
            )
    else:
        lines.append(f"steering at {voyage.start}: no choice, every move is forced")
    proven = "optimal" if voyage.status.value == "optimal" else "not proven optimal (cap hit)"
    lines.append(
        f"policy iteration: {proven} after {voyage.iterations} rounds, "
        f"error at most {voyage.error_bound:.1e} rolls"
    )
    return lines


def _risk(args: argparse.Namespace) -> int:
    from isles.solvers.sailing import risk

    given = args.pirate is not None
    if args.edge is not None and not given:
        raise InvalidInput("--edge", args.edge, "--edge only with --pirate (the pirate reach)")
    for option, value in (
        ("--board", args.board),
        ("--rolls", args.rolls),
        ("--may-stay", True if args.may_stay else None),
    ):
        if value is not None:
            only_with(option, value, given, "--pirate")
    if given and args.edge is None:
        raise InvalidInput("--edge", None, "--edge with --pirate", problem="missing")
    pirate = None if args.pirate is None else parse_edge(args.pirate, "--pirate")
    spot = None if args.edge is None else parse_edge(args.edge, "--edge")
    board = _board(args.board) if given else None
    with _options(_RISK_OPTIONS):
        report = risk(
            args.cargo,
            args.encounters,
            board=board,
            pirate=pirate,
            edge=spot,
            rolls=args.rolls,
            may_stay=args.may_stay,
            progress=sys.stderr.isatty(),
        )
    if args.json:
        emit_json(report.to_dict())
    else:
        for line in _risk_lines(report):
            print(line)
    return 0


_CONVERT_OPTIONS = {
    "board": "--board",
    "start": "--from",
    "missing": "--missing",
    "players": "--players",
    "rolls_to_turn": "--rolls-to-turn",
    "within": "--within",
    "may_stay": "--may-stay",
}


def _convert(args: argparse.Namespace) -> int:
    from isles.solvers.conversion import convert

    start = parse_edge(args.start, "--from")
    board = _board(args.board)
    settings = {
        "players": args.players,
        "rolls_to_turn": args.rolls_to_turn,
        "may_stay": args.may_stay,
        "progress": sys.stderr.isatty(),
    }
    # The text answer holds both readings of rule 10: the variant (the larger solve) first,
    # so that a board too big for it is refused before any work.
    results: dict[bool, Conversion] = {}
    with _options(_CONVERT_OPTIONS):
        for on_turn in [args.on_turn] if args.json else [True, False]:
            within = (args.within,) if on_turn == args.on_turn else ()
            results[on_turn] = convert(
                board, start, args.missing, on_turn=on_turn, within=within, **settings
            )
    answer = results[args.on_turn]
    if args.json:
        emit_json(answer.to_dict())
        return 0 if answer.status.answered else 1
    other = results[not args.on_turn]
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


_HARVEST_OPTIONS = {
    "board": "--board",
    "start": "--from",
    "targets": "--to",
    "near": "--near",
    "player": "--player",
    "rolls": "--rolls",
    "start_cargo": "--cargo",
}


def _harvest(args: argparse.Namespace) -> int:
    from isles.solvers.harvest import harvest_course

    start = parse_edge(args.start, "--from")
    targets = [parse_edge(t, "--to") for t in args.to or []]
    near = [parse_settlement(v, "--near") for v in args.near or []]
    if not targets and not near:
        raise InvalidInput(
            "--to", None, "at least one --to edge or --near settlement", problem="missing"
        )
    board = _board(args.board)
    with _options(_HARVEST_OPTIONS):
        out = harvest_course(
            board,
            start,
            targets,
            near=near,
            player=args.player,
            rolls=args.rolls,
            start_cargo=args.cargo,
            may_stay=args.may_stay,
            progress=sys.stderr.isatty(),
        )
    if args.json:
        emit_json(out.to_dict())
        return 0
    print(
        f"Ship of {out.player} from {out.start} to {', '.join(map(str, out.targets))}, "
        f"{out.rolls} rolls, {out.start_cargo} cards on board"
    )
    print(f"expected cargo: {_show(out.expected_cargo, '.3f')} cards (at most 3)")
    print("cards on board: " + ", ".join(f"{c}: {float(p):.1%}" for c, p in enumerate(out.cargo)))
    taken = ", ".join(f"{r} {float(x):.3f}" for r, x in out.taken.items()) or "nothing"
    print(f"expected cards taken on the way: {taken}")
    print(f"arrived within {out.rolls} rolls: {_show(out.arrived, '.1%')}")
    return 0


def _check_log(args: argparse.Namespace) -> int:
    from isles.models.logbook import LogBook
    from isles.solvers.logbook import check_log

    one_stdin("LOG", args.log, "--board", args.board)
    board = _board(args.board)
    replay = check_log(board, LogBook.load(args.log))
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


_ENCOUNTER_WORDS = {"collision": "collision", "pirate": "pirate attack"}


def _risk_lines(report: RiskReport) -> list[str]:
    """The text answer of ``isles risk``."""
    from isles.models.ships import outcome_rolls

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


# -- pictures ------------------------------------------------------------------------------


def _midpoint(e: Edge) -> tuple[float, float]:
    x0, y0 = to_pixel(e.a)
    dx, dy = to_pixel((e.b.q - e.a.q, e.b.r - e.a.r))
    return x0 + dx / 2, y0 + dy / 2


def _segment(e: Edge) -> tuple[tuple[float, float], tuple[float, float]]:
    # The direction from the small integer difference of the hexes, so that far-off
    # coordinates (where floats lose the unit) still give a side of unit length.
    mx, my = _midpoint(e)
    dx, dy = to_pixel((e.b.q - e.a.q, e.b.r - e.a.r))
    norm = math.hypot(dx, dy)
    px, py = -dy / norm * 0.45, dx / norm * 0.45
    return (mx + px, my + py), (mx - px, my - py)


def _overlay(ax: Axes, nav: Navigation, start: Edge | None) -> None:
    """Colour every ship edge by its expected rolls and draw the steering arrows.

    One collection per kind of mark, not one artist per edge: drawing stays
    bounded on a big board (isles.draw); the arrows are left out beyond its
    detail limit, where they would be too small to read.
    """
    import matplotlib as mpl
    import numpy as np
    from matplotlib.collections import LineCollection

    from isles.draw import is_detailed

    finite = nav.values[np.isfinite(nav.values)]
    top = float(finite.max()) if len(finite) else 1.0
    norm = mpl.colors.Normalize(vmin=0.0, vmax=max(top, 1.0))
    cmap = mpl.colormaps["plasma_r"]
    graph = nav.graph
    detailed = is_detailed(graph.board)
    no_way: list[tuple[tuple[float, float], tuple[float, float]]] = []
    reached: list[tuple[tuple[float, float], tuple[float, float]]] = []
    colours: list[float] = []
    stars: list[tuple[float, float]] = []
    tails: list[tuple[float, float]] = []
    heads: list[tuple[float, float]] = []
    for i, e in enumerate(graph.edges):
        v = nav.expected_rolls(e)
        if v is None:
            no_way.append(_segment(e))
            continue
        reached.append(_segment(e))
        colours.append(v)
        if e in nav.targets:
            stars.append(_midpoint(e))
            continue
        if not detailed:
            continue
        mx, my = _midpoint(e)
        # Arrows only where the owner chooses: rolls with more than one option.
        chosen = {
            graph.edges[int(nav.choice[i, r])]
            for r in range(graph.options.shape[1])
            if len(set(graph.options[i, r].tolist())) > 1
        }
        for go in sorted(chosen - {e}):
            gx, gy = _midpoint(go)
            tails.append((mx, my))
            heads.append((0.55 * (gx - mx), 0.55 * (gy - my)))
    if no_way:
        ax.add_collection(
            LineCollection(no_way, colors="#444", linewidths=2, linestyles=":", zorder=5)
        )
    if reached:
        ax.add_collection(
            LineCollection(
                reached,
                colors=cmap(norm(np.array(colours))),
                linewidths=5 if detailed else 1.5,
                capstyle="butt",
                zorder=5,
            )
        )
    if stars:
        star_x, star_y = zip(*stars, strict=True)
        ax.scatter(star_x, star_y, s=225, marker="*", c="gold", edgecolors="black", zorder=8)
    if tails:
        (tail_x, tail_y), (head_x, head_y) = zip(*tails, strict=True), zip(*heads, strict=True)
        ax.quiver(
            tail_x,
            tail_y,
            head_x,
            head_y,
            angles="xy",
            scale_units="xy",
            scale=1,
            width=0.003,
            color="black",
            zorder=7,
        )
    if start is not None:
        ax.plot(*_midpoint(start), marker="o", markersize=12, mfc="none", mec="black", mew=2.5)
    sm = mpl.cm.ScalarMappable(norm=norm, cmap=cmap)
    ax.figure.colorbar(sm, ax=ax, shrink=0.6, label="expected rolls to the target")


def _picture(nav: Navigation, start: Edge | None, path: str | Path, expected: float | None) -> Path:
    from isles.draw import board_figure, save_figure

    title = "Expected rolls to the target (stars); arrows: steering choices; dotted: no way"
    if start is not None and expected is not None:
        title += f"\nfrom the circled edge: {expected:.1f} rolls on average"
    fig, ax = board_figure(nav.graph.board, title=title, legend=False)
    _overlay(ax, nav, start)
    return save_figure(fig, path)


def _fleet_picture(voyage: FleetVoyage, path: str | Path) -> Path:
    """The board, the scoring edges (stars), the ships (circles) and the advised first moves
    (arrows labelled with the rolls that call for them)."""
    from isles.draw import board_figure, save_figure

    odds = voyage.odds
    p = float(odds.probability())
    title = (
        f"Fleet of {len(odds.start)}: every ship home at once within {odds.rolls} rolls: "
        f"{p:.1%}\ncircles: ships; stars: scoring edges; arrows: first move, by roll"
    )
    fig, ax = board_figure(odds.space.graph.board, title=title, legend=False)
    for e in sorted(odds.scoring):
        (x0, y0), (x1, y1) = _segment(e)
        ax.plot([x0, x1], [y0, y1], color="gold", lw=5, solid_capstyle="butt", zorder=5)
        ax.plot(*_midpoint(e), marker="*", markersize=13, color="gold", mec="black", zorder=8)
    for e in odds.start:
        ax.plot(
            *_midpoint(e), marker="o", markersize=13, mfc="none", mec="black", mew=2.5, zorder=9
        )
    arrows: dict[tuple[Edge, Edge], list[int]] = {}
    for a in odds.advice():
        for src, dst in a.moves:
            if src != dst:
                arrows.setdefault((src, dst), []).append(a.roll)
    for (src, dst), rolls in sorted(arrows.items()):
        (sx, sy), (dx, dy) = _midpoint(src), _midpoint(dst)
        tip = (sx + 0.8 * (dx - sx), sy + 0.8 * (dy - sy))
        ax.annotate(
            "",
            xy=tip,
            xytext=(sx, sy),
            zorder=10,
            arrowprops={"arrowstyle": "-|>", "color": "black", "lw": 1.5, "shrinkA": 0},
        )
        ax.text(
            (sx + tip[0]) / 2,
            (sy + tip[1]) / 2,
            ",".join(map(str, rolls)),
            fontsize=8,
            zorder=11,
            ha="center",
            va="center",
            bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none", "alpha": 0.8},
        )
    return save_figure(fig, path)


# -- demo --------------------------------------------------------------------------------


def demo(out_dir: Path, echo: Callable[[str], None]) -> None:
    """Ships section of ``isles demo``: a navigation table, risk tables, one picture."""
    from isles.models.ships import demo_board
    from isles.solvers.conversion import convert
    from isles.solvers.fleet import fleet
    from isles.solvers.sailing import risk, sail

    board = demo_board()
    corner = "0,2:0,3:1,2"
    near = [parse_settlement(corner)]
    echo("== Ships under winds (seed 004; docs/ships.md) ==")
    echo(f"Embedded board: {len(board)} hexes, {len(board.sea())} sea with wind tokens.")
    echo(f"Target: the coast next to the settlement {corner} (the hills 5 at 0,3).")
    starts = ["0,2:1,2", "-1,3:0,2", "0,1:0,2", "-2,3:-1,2", "0,0:1,0", "2,-3:2,-2"]
    header = f"{'from':<11} {'E[rolls]':>9} {'may stay':>9} {'rounds(4p)':>10}"
    header += "".join(f" {'<=' + str(k):>6}" for k in (5, 10, 20))
    echo(header)
    voyages: dict[str, Voyage] = {}
    for text in starts:
        start = parse_edge(text, "start")
        voyage = sail(board, start, near=near)
        stay = sail(board, start, near=near, may_stay=True, within=())
        voyages[text] = voyage
        cells = "".join(f" {float(p):6.1%}" for _, p in voyage.arrival_within)
        echo(
            f"{text:<11} {_fmt(voyage.expected_rolls):>9} {_fmt(stay.expected_rolls):>9} "
            f"{_fmt(voyage.expected_rounds):>10}{cells}"
        )
    shown = voyages[starts[3]]
    echo(
        f"(policy iteration: {shown.status.value}, {shown.iterations} sparse solves, "
        f"Bellman residual {shown.bellman_residual:.1e}; arrival odds exact)"
    )
    report = risk(
        3, 2, board=board, pirate=parse_edge("0,0:1,0", "pirate"), edge=parse_edge("0,2:0,3", "e")
    )
    for enc, table in report.tables.items():
        echo(f"{enc.value}: " + ", ".join(f"{o.label} {p}" for o, p in table.items()))
    pirate_attacks = next(out for enc, out in report.outlook.items() if enc.value == "pirate")
    echo(
        f"after 2 pirate attacks, 3 cards: expected {float(pirate_attacks.expected_cargo):.3f} left"
    )
    reach = report.pirate_reach
    assert reach is not None
    echo(
        f"pirate at {reach.pirate} reaches {reach.edge} within {reach.rolls} rolls "
        f"(steered toward): {float(reach.toward):.1%}"
    )
    path = _picture(
        shown.navigation, shown.start, out_dir / "ships_field.png", shown.expected_rolls
    )
    echo(f"picture: {path.name}")
    home = [parse_settlement("0,1:0,2:1,1"), parse_settlement("-1,0:0,0:-1,1")]
    pair = [parse_edge("0,0:0,1", "ship"), parse_edge("1,1:1,2", "ship")]
    both = fleet(board, pair, near=home, within=30)
    echo(
        f"fleet of 2 at 0,0:0,1 and 1,1:1,2, home next to 0,1:0,2:1,1 or -1,0:0,0:-1,1: "
        f"{float(both.odds.probability()):.1%} within 30 rolls, "
        f"{_fmt(both.expected_rolls)} rolls expected ({both.odds.joint_states:,} joint positions)"
    )
    echo(f"fleet picture: {_fleet_picture(both, out_dir / 'ships_fleet.png').name}")
    paid = convert(board, parse_edge("0,1:0,2", "ship"), "brick")
    variant = convert(board, parse_edge("0,1:0,2", "ship"), "brick", on_turn=True)
    echo(
        f"a ship at 0,1:0,2 lacking brick becomes a settlement in {_fmt(paid.expected_rolls)} "
        f"rolls expected ({_fmt(variant.expected_rolls)} with the variant 'on my turn')"
    )
