"""``isles layout``: a legal board proven optimal: the ships mosaic, the base or extension island.

The command line of docs/layout.md (seeds/004_644cf972d8964df4.txt and
seeds/002_8684547a41c0941c.txt, "MISE EN PLACE"): it parses, calls
:mod:`isles.layout` and formats; ``--json`` prints the result's ``to_dict()``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from isles.cli import (
    check_output,
    count_type,
    emit_json,
    one_stdin,
    only_with,
    seconds_type,
    seed_type,
)
from isles.models.catan import Board, Resource, Terrain
from isles.models.errors import InvalidInput
from isles.models.games import Game
from isles.models.hexgrid import Hex
from isles.models.setup import (
    MAX_CORNER_PIPS,
    MAX_GROUP_LIMIT,
    MAX_PIPS_LIMIT,
    MAX_PLAYERS,
    MAX_RADIUS,
    TILES_PER_PLAYER,
    Rule,
    SetupRequest,
    colourfulness,
    parse_rule_switch,
    pip_spread,
    resource_pips,
    setup_request,
)

if TYPE_CHECKING:
    from isles.solvers.layout import LayoutResult, LayoutSeries, NextMove

ORDER = 30

#: Library parameters named in errors, and the options the user typed for them.
_OPTION_OF = {
    "radius": "--radius",
    "land": "--land",
    "players": "--players",
    "size": "--players",
    "max_pips": "--max-pips",
    "max_group": "--max-group",
    "positions": "--shape",
    "fixed": "--fixed",
    "fixed_harbours": "--fixed",
    "rules": "--rule",
    "game": "--game",
    "spiral": "--spiral",
    "min_corner_pips": "--min-corner-pips",
    "count": "--count",
    "min_difference": "--differ",
}

#: Most boards of one --count (each is one CP-SAT solve).
MAX_COUNT = 100


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add ``isles layout``."""
    p = subparsers.add_parser(
        "layout",
        help="optimal Catan board set-up: ships mosaic, base or extension island (CP-SAT)",
        description=(
            "Lay a legal board and prove it optimal (docs/layout.md). --game ships (the "
            "default): the most colourful mosaic of land and sea (adjacent pairs of "
            "different terrain, sea counting as a terrain), then the fairest pips between "
            "resources. --game base or extension: the base game's or the 5-6 player "
            "extension's island with its sea frame and harbours, the fairest pips between "
            "resources; --spiral lays the lettered tokens as the rulebook's variable "
            "set-up does. Also: complete a board already on the table (--fixed), advise "
            "the next two tiles (--hold), lay several different boards (--count), or name "
            "the rules that cannot hold together. Exit 0 with a board, 1 when no board "
            "exists (or none was found in time), 2 on bad input."
        ),
    )
    p.add_argument(
        "--game",
        choices=[g.value for g in Game],
        default=Game.SHIPS.value,
        help="ships (the default: seed 004's sea mosaic), base (19 land hexes, 9 harbours) "
        "or extension (the 5-6 player island: 30 land hexes, 11 harbours)",
    )
    p.add_argument(
        "--spiral",
        metavar="CORNER",
        help="with --game base or extension: lay the lettered tokens along the rulebook's "
        "spiral from this corner (right, top-right, top-left, left, bottom-left, "
        "bottom-right, or its hex Q,R), deserts skipped",
    )
    shape = p.add_mutually_exclusive_group()
    shape.add_argument(
        "--radius",
        type=count_type(0, MAX_RADIUS),
        help=f"hexagon of this radius, 0..{MAX_RADIUS} (default 3)",
    )
    shape.add_argument(
        "--shape", metavar="FILE", help="board JSON file whose hexes are the positions ('-': stdin)"
    )
    p.add_argument("--land", type=count_type(0, 127), help="land hexes (default: round(hexes / 3))")
    p.add_argument(
        "--free-shape",
        action="store_true",
        help="choose the board's hexes too: one connected board inside the hexagon",
    )
    p.add_argument(
        "--players",
        type=count_type(1, MAX_PLAYERS),
        help=f"with --free-shape: {TILES_PER_PLAYER} tiles per player, 1..{MAX_PLAYERS} "
        "(default 3)",
    )
    p.add_argument(
        "--fixed",
        metavar="FILE",
        help="board JSON file of the tiles already on the table ('-': stdin)",
    )
    p.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="NAME=on|off",
        help=(
            "switch a rule: "
            + ", ".join(r.value for r in Rule)
            + " (repeatable, once per rule; docs/layout.md)"
        ),
    )
    p.add_argument(
        "--max-pips",
        type=count_type(0, MAX_PIPS_LIMIT),
        help="vertex pip limit K (switches vertex-pips on)",
    )
    p.add_argument(
        "--min-corner-pips",
        type=count_type(0, MAX_CORNER_PIPS),
        help="least pips L where three land hexes meet (switches corner-pips-min on)",
    )
    p.add_argument(
        "--max-group",
        type=count_type(1, MAX_GROUP_LIMIT),
        help=f"terrain group limit G, 1..{MAX_GROUP_LIMIT} (switches terrain-groups on)",
    )
    p.add_argument(
        "--hold",
        metavar="T1,T2",
        help="next-move advice: the two terrains in the hand of the player about to lay",
    )
    p.add_argument(
        "--seed",
        type=seed_type,
        help="variety: a different optimal board (0..2**31-1, default 0; not with --hold)",
    )
    p.add_argument(
        "--count",
        type=count_type(1, MAX_COUNT),
        help=f"lay this many different boards, 1..{MAX_COUNT} (a game night, a tournament)",
    )
    p.add_argument(
        "--differ",
        type=count_type(1, 10_000),
        help="with --count: hexes in which every board differs from each earlier one "
        "and its rotations and reflections (default: a third of the hexes)",
    )
    p.add_argument(
        "--time-limit",
        type=seconds_type,
        default=20.0,
        help="seconds per CP-SAT solve (default %(default)s)",
    )
    p.add_argument(
        "--save",
        metavar="FILE",
        help="write the board to this .json file (with --count: FILE-1.json, FILE-2.json, ...)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object (to_dict())")
    p.add_argument("--png", metavar="FILE", help="draw the board to this .png file")
    p.add_argument("--svg", metavar="FILE", help="draw the board to this .svg file")
    p.set_defaults(func=run)


def _rule_switches(texts: list[str]) -> dict[Rule, bool]:
    """The ``--rule`` switches, each rule at most once (a second switch is refused)."""
    switches: dict[Rule, bool] = {}
    for text in texts:
        rule, on = parse_rule_switch(text)
        if rule in switches:
            raise InvalidInput("--rule", text, f"each rule switched once ({rule.value} twice)")
        switches[rule] = on
    return switches


def build_request(args: argparse.Namespace) -> SetupRequest:
    """The :class:`~isles.models.setup.SetupRequest` the command line asks for.

    Refuses options that do nothing in the mode given; errors name the option.
    """
    island = args.game != Game.SHIPS.value
    if island:
        # the island is the game's own: every shape option would do nothing
        for option, value in (
            ("--radius", args.radius),
            ("--shape", args.shape),
            ("--land", args.land),
            ("--players", args.players),
        ):
            only_with(option, value, value is None, "--game ships (the islands are fixed)")
        only_with("--free-shape", None, not args.free_shape, "--game ships")
    elif args.spiral is not None:
        only_with("--spiral", args.spiral, False, "--game base or --game extension")
    if args.players is not None:
        only_with("--players", args.players, args.free_shape, "--free-shape")
    if args.free_shape and args.shape is not None:
        raise InvalidInput(
            "--shape", args.shape, "no --shape with --free-shape (its hexes lie in --radius)"
        )
    one_stdin("--shape", args.shape, "--fixed", args.fixed)
    switches = _rule_switches(args.rule)
    for option, value, rule in (
        ("--max-pips", args.max_pips, "vertex-pips"),
        ("--max-group", args.max_group, "terrain-groups"),
        ("--min-corner-pips", args.min_corner_pips, "corner-pips-min"),
    ):
        if value is not None:
            on = switches.get(Rule(rule)) is not False
            only_with(option, value, on, f"{rule} not switched off by --rule")
    positions = list(Board.load(args.shape)) if args.shape is not None else None
    fixed = Board.load(args.fixed) if args.fixed is not None else None
    players = (3 if args.players is None else args.players) if args.free_shape else None
    try:
        return setup_request(
            game=args.game,
            radius=args.radius,
            positions=positions,
            land=args.land,
            players=players,
            fixed=fixed,
            rules=switches,
            max_pips=args.max_pips,
            max_group=args.max_group,
            min_corner_pips=args.min_corner_pips,
            spiral=args.spiral,
        )
    except InvalidInput as exc:
        typed = _OPTION_OF.get(exc.field)
        if typed is None:
            raise
        raise InvalidInput(typed, exc.value, exc.expected) from None


def _parse_hold(text: str) -> tuple[Terrain, Terrain]:
    parts = [p.strip() for p in text.split(",")]
    # The set-up lays the box's tiles: gold is not among them.
    laid = [t for t in Terrain if t is not Terrain.GOLD]
    names = ", ".join(t.value for t in laid)
    try:
        if len(parts) != 2 or not all(p in {t.value for t in laid} for p in parts):
            raise ValueError
        return Terrain(parts[0]), Terrain(parts[1])
    except ValueError:
        raise InvalidInput("--hold", text, f"two terrains as T1,T2 among {names}") from None


def run(args: argparse.Namespace) -> int:
    """Handler of ``isles layout``; returns the exit status."""
    # Every output path is checked before any work: a bad one costs no solve.
    save = check_output("--save", args.save, (".json",))
    pictures = [
        target
        for target in (
            check_output("--png", args.png, (".png",)),
            check_output("--svg", args.svg, (".svg",)),
        )
        if target is not None
    ]
    if args.count is not None and args.count > 1:  # the numbered files: checked now too
        outputs = [("--save", save)] if save is not None else []
        for given, target in [*outputs, *(("--png/--svg", p) for p in pictures)]:
            for i in range(1, args.count + 1):
                check_output(given, str(_numbered(target, i)), (target.suffix.lower(),))
    if args.seed is not None:
        only_with("--seed", args.seed, args.hold is None, "a board search (not with --hold)")
    if args.differ is not None:
        only_with("--differ", args.differ, args.count is not None, "--count")
    if args.hold is not None:
        only_with("--hold", args.hold, args.game == Game.SHIPS.value, "--game ships")
        only_with("--hold", args.hold, args.count is None, "one board (not with --count)")
    holding = _parse_hold(args.hold) if args.hold is not None else None
    request = build_request(args)
    # OR-Tools takes a second to import: only once the input is known to be good.
    from isles.solvers.layout import layout_boards, next_move, solve_layout

    answer: LayoutResult | NextMove | LayoutSeries
    boards: list[Board] = []
    marked: list[Hex] = []
    title: str | None = None
    if holding is not None:
        try:
            answer = move = next_move(request, holding, time_limit=args.time_limit)
        except InvalidInput as exc:
            typed = "--hold" if exc.field.startswith("holding") else _OPTION_OF.get(exc.field)
            if typed is None:
                raise
            raise InvalidInput(typed, exc.value, exc.expected) from None
        if move.completion is not None:
            boards = [move.completion]
        title = (
            "next move: "
            + ", ".join(f"{t.value} at {h}" for h, t in move.placements)
            + " (tiles down and the move outlined)"
        )
        marked = [*move.fixed, *(h for h, _ in move.placements)]
        text = move_text(move)
    elif args.count is not None:
        try:
            answer = series = layout_boards(
                request,
                args.count,
                min_difference=args.differ,
                seed=args.seed or 0,
                time_limit=args.time_limit,
                progress=args.count > 1 and sys.stderr.isatty(),
            )
        except InvalidInput as exc:
            typed = _OPTION_OF.get(exc.field)
            if typed is None:
                raise
            raise InvalidInput(typed, exc.value, exc.expected) from None
        boards = [b.board for b in series.boards if b.board is not None]
        marked = list(request.fixed)
        text = series_text(series)
    else:
        answer = result = solve_layout(request, seed=args.seed or 0, time_limit=args.time_limit)
        boards = [] if result.board is None else [result.board]
        marked = list(result.fixed)
        text = result_text(result)
    # Files first: a reader that stops early (`| head`) does not cost the board.
    numbered = args.count is not None and args.count > 1
    for i, board in enumerate(boards, start=1):
        if save is not None:
            board.save(_numbered(save, i) if numbered else save)
        for target in pictures:
            draw(board, _numbered(target, i) if numbered else target, title=title, marked=marked)
    if args.json:
        emit_json(answer.to_dict())
    else:
        print(text)
    return 0 if answer.status.answered else 1


def _numbered(path: Path, index: int) -> Path:
    """``board.png`` -> ``board-3.png``: the file of the third board of a --count."""
    return path.with_name(f"{path.stem}-{index}{path.suffix}")


def draw(
    board: Board,
    path: str | Path,
    title: str | None = None,
    marked: list[Hex] | None = None,
) -> Path:
    """Draw ``board`` (the hexes ``marked`` outlined) to a .png or .svg file."""
    from isles.draw import board_figure, save_figure

    marked = [] if marked is None else marked
    colour = "" if board.harbours else f"colourfulness {colourfulness(board)}, "
    fig, _ = board_figure(
        board,
        title=title
        or f"{colour}pip spread {pip_spread(board)}"
        + (" (fixed tiles outlined)" if marked else ""),
        marked=marked,
    )
    return save_figure(fig, path)


def result_text(result: LayoutResult) -> str:
    """A readable report: status, objectives with bounds, pips per resource, harbours, rows."""
    lines = [f"status: {result.status.value}"]
    if result.conflict:
        lines.append("no board exists: these cannot hold together")
        lines.extend(f"  - {name}" for name in result.conflict)
        if not result.conflict_minimal:
            lines.append("  (not proven minimal: a check ran out of time)")
    if result.board is None:
        if result.status.value == "timed_out":
            lines.append(
                "no board found and none proven impossible within the time limit "
                "(each CP-SAT solve gets --time-limit seconds; raise it to search longer)"
            )
        return "\n".join(lines)
    if result.colourfulness is not None:
        lines.append(
            f"colourfulness: {result.colourfulness} (upper bound {result.colourfulness_bound})"
        )
    bound = "none proven" if result.pip_spread_bound is None else result.pip_spread_bound
    lines.append(f"pip spread: {result.pip_spread} (lower bound {bound})")
    lines.extend(_board_lines(result.board))
    return "\n".join(lines)


def _board_lines(board: Board) -> list[str]:
    """Pips per resource, the harbours (an island's), the rows."""
    totals = resource_pips(board)
    lines = ["pips: " + ", ".join(f"{r.value} {totals[r]}" for r in Resource)]
    if board.harbours:
        laid = ", ".join(f"{kind.value} {e.a}:{e.b}" for e, kind in board.harbours.items())
        lines.append(f"harbours: {laid}")
    lines.append(board_rows(board, frame=bool(board.harbours)))
    return lines


def series_text(series: LayoutSeries) -> str:
    """A readable report of several boards: the series' status, then each board."""
    lines = [
        f"status: {series.status.value} ({len(series.boards)} of {series.requested} boards, "
        f"each differing from every earlier one in at least {series.min_difference} hexes)"
    ]
    if series.conflict:
        lines.append("no board exists: these cannot hold together")
        lines.extend(f"  - {name}" for name in series.conflict)
    elif series.status.value == "infeasible":
        lines.append("no more boards differ enough from these (lower --differ for more)")
    elif series.status.value == "timed_out":
        lines.append("a search ran out of time before the count (raise --time-limit)")
    for i, result in enumerate(series.boards, start=1):
        lines.append("")
        lines.append(
            f"board {i}: {result.status.value}, pip spread {result.pip_spread} "
            f"(lower bound {result.pip_spread_bound})"
            + ("" if result.colourfulness is None else f", colourfulness {result.colourfulness}")
        )
        if result.board is not None:
            lines.extend(_board_lines(result.board))
    return "\n".join(lines)


def board_rows(board: Board, frame: bool = False) -> str:
    """The board by rows (top to bottom), each tile as ``q,r terrain number``.

    With ``frame``, plain sea (an island's frame, no number) is left out.
    """
    rows: dict[int, list[str]] = {}
    for h, tile in board.tiles.items():
        if frame and tile.terrain is Terrain.SEA and tile.number is None:
            continue
        label = tile.terrain.value + ("" if tile.number is None else f" {tile.number}")
        rows.setdefault(h.r, []).append(f"{h.q:>2},{h.r:<2} {label:<12}")
    return "\n".join(f"r={r:>2}  " + " ".join(cells).rstrip() for r, cells in rows.items())


def move_text(move: NextMove) -> str:
    """A readable report of next-move advice: status, the two tiles, what the move keeps."""
    lines = [f"status: {move.status.value}"]
    if move.conflict:
        lines.append("the tiles in hand cannot be laid legally: these cannot hold together")
        lines.extend(f"  - {name}" for name in move.conflict)
    if move.status.value == "timed_out":
        lines.append(
            "no move found and none proven impossible within the time limit "
            "(raise --time-limit to search longer)"
        )
    for i, (h, t) in enumerate(move.placements, start=1):
        lines.append(f"tile {i}: {t.value} at {h}")
    if move.best_after is not None:
        keeps = "keeps" if move.best_after == move.best_overall else "loses"
        lines.append(
            f"best completion after the move: colourfulness {move.best_after} "
            f"({keeps} the best reachable, {move.best_overall})"
        )
    return "\n".join(lines)


def demo(out_dir: Path, echo: Callable[[str], None]) -> None:
    """``isles demo`` section: the default board, a completion, a conflict, the base island."""
    from isles.models.catan import Tile
    from isles.models.setup import DEFAULT_RULES
    from isles.solvers.layout import solve_layout

    echo("== Board set-up for the ships scenario (seed 004, docs/layout.md) ==")
    request = SetupRequest.hexagon(3)
    result = solve_layout(request, time_limit=20)
    echo("Hexagon of radius 3, 12 land, 25 sea, default rules:")
    echo(result_text(result))
    picture = draw(result.board, out_dir / "layout.png") if result.board else None
    fixed = {
        Hex(0, 0): Tile(Terrain.MOUNTAINS, 6),
        Hex(1, 0): Tile(Terrain.SEA, 9),
        Hex(-2, 1): Tile(Terrain.FOREST, 8),
    }
    partial = SetupRequest.hexagon(3, fixed=fixed)
    completed = solve_layout(partial, time_limit=20)
    echo("")
    echo("Completing a board with three tiles already on the table (0,0 1,0 -2,1):")
    echo(
        f"status {completed.status.value}, colourfulness {completed.colourfulness} "
        f"(bound {completed.colourfulness_bound}), pip spread {completed.pip_spread}"
    )
    if completed.board is not None:
        draw(completed.board, out_dir / "layout-completed.png", marked=list(completed.fixed))
    crowded = SetupRequest.hexagon(2, land=14, rules=DEFAULT_RULES | {Rule.SAME_NUMBER_APART})
    conflict = solve_layout(crowded, time_limit=20)
    echo("")
    echo(
        "Radius 2 with 14 land: "
        + conflict.status.value
        + "; cannot hold together: "
        + ", ".join(conflict.conflict)
    )
    base = solve_layout(setup_request(game="base", spiral="top-left"), time_limit=20)
    echo("")
    echo(
        "The base island by the variable set-up (tokens along the spiral from the "
        f"top-left corner), fairest pips: {base.status.value}, pip spread {base.pip_spread} "
        f"(bound {base.pip_spread_bound}), {len(base.board.harbours) if base.board else 0} "
        "harbours"
    )
    if base.board is not None:
        draw(base.board, out_dir / "layout-base.png")
    if picture is not None:
        echo(f"Pictures: {picture.name}, layout-completed.png, layout-base.png")
