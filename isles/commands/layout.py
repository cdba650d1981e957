"""``isles layout``: the most colourful legal ships-scenario board, proven optimal.

Implements the command line of RULES.md section 4 ("Board set-up", seed
004_644cf972d8964df4.txt); the solver is :mod:`isles.solvers.layout`.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from isles.models.catan import Board, Resource, Terrain
from isles.models.errors import InvalidInput
from isles.models.hexgrid import Hex

if TYPE_CHECKING:
    from isles.models.setup import SetupRequest
    from isles.solvers.layout import LayoutResult, NextMove

ORDER = 30

#: Tiles each player lays in a free shape (seed 004: about 8 sea and 4 land each).
TILES_PER_PLAYER = 12


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add ``isles layout``."""
    p = subparsers.add_parser(
        "layout",
        help="optimal ships-scenario board set-up (CP-SAT)",
        description=(
            "Build the most colourful legal board (adjacent pairs of different terrain, "
            "sea counting as a terrain), then the fairest pips between resources; prove "
            "it optimal, complete a board already on the table (--fixed), advise the "
            "next two tiles (--hold), or name the rules that cannot hold together. "
            "Exit 0 with a board, 1 when no board exists (or none was found), 2 on bad input."
        ),
    )
    shape = p.add_mutually_exclusive_group()
    shape.add_argument("--radius", type=int, help="hexagon of this radius (default 3)")
    shape.add_argument("--shape", help="board JSON file whose hexes are the positions")
    p.add_argument("--land", type=int, help="land hexes (default: round(hexes / 3))")
    p.add_argument(
        "--free-shape",
        action="store_true",
        help="choose the board's hexes too: one connected board inside the hexagon",
    )
    p.add_argument(
        "--players",
        type=int,
        default=3,
        help=f"free shape: {TILES_PER_PLAYER} tiles per player, 1..4 (default %(default)s)",
    )
    p.add_argument("--fixed", help="board JSON file of tiles already on the table")
    p.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="NAME=on|off",
        help=(
            "switch a rule: no-land-triangle, six-eight-apart, same-number-apart, "
            "vertex-pips, terrain-groups, sea-balanced, sea-apart (repeatable)"
        ),
    )
    p.add_argument("--max-pips", type=int, help="vertex pip limit K (switches vertex-pips on)")
    p.add_argument(
        "--max-group", type=int, help="terrain group limit G (switches terrain-groups on)"
    )
    p.add_argument(
        "--hold",
        metavar="T1,T2",
        help="next-move advice: the two terrains in the hand of the player about to lay",
    )
    p.add_argument(
        "--seed", type=int, default=0, help="variety: a different optimal board (0..2**31-1)"
    )
    p.add_argument(
        "--time-limit", type=float, default=20.0, help="seconds per CP-SAT solve (default 20)"
    )
    p.add_argument("--save", help="write the board to this JSON file (board format)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--png", help="draw the board to this PNG file")
    p.add_argument("--svg", help="draw the board to this SVG file")
    p.set_defaults(func=run)


def build_request(args: argparse.Namespace) -> SetupRequest:
    """The :class:`~isles.models.setup.SetupRequest` the command line asks for."""
    from isles.models.hexgrid import hexagon
    from isles.models.setup import DEFAULT_RULES, Rule, SetupRequest, parse_rule_switch

    rules = set(DEFAULT_RULES)
    for text in args.rule:
        rule, switch = parse_rule_switch(text)
        (rules.add if switch else rules.discard)(rule)
    extra: dict[str, Any] = {}
    if args.max_pips is not None:
        if args.max_pips < 0:
            raise InvalidInput("--max-pips", args.max_pips, "a pip limit >= 0")
        rules.add(Rule.VERTEX_PIPS)
        extra["max_pips"] = args.max_pips
    if args.max_group is not None:
        rules.add(Rule.TERRAIN_GROUPS)
        extra["max_group"] = args.max_group
    fixed = Board.load(args.fixed).tiles if args.fixed else {}
    size: int | None = None
    if args.free_shape:
        if args.shape is not None:
            raise InvalidInput("--shape", args.shape, "no --shape with --free-shape (use --radius)")
        if not 1 <= args.players <= 4:
            # 12 tiles each: 5 players would need 20 land tiles, the box has 19.
            raise InvalidInput(
                "--players", args.players, "1..4 players (5 or more need over 19 land tiles)"
            )
        size = TILES_PER_PLAYER * args.players
    if args.shape is not None:
        positions = list(Board.load(args.shape))
    else:
        radius = args.radius
        if radius is None:
            # free shape: the smallest hexagon with room for half as many again
            radius = 3 if size is None else _radius_for(size)
        if not 0 <= radius <= 6:
            raise InvalidInput("--radius", radius, "a radius in 0..6")
        positions = hexagon(radius)
    n = size if size is not None else len(positions)
    land = round(n / 3) if args.land is None else args.land
    if not 0 <= args.seed < 2**31:
        raise InvalidInput("--seed", args.seed, "an integer in 0..2147483647")
    if not math.isfinite(args.time_limit) or args.time_limit <= 0:
        raise InvalidInput("--time-limit", args.time_limit, "a positive number of seconds")
    return SetupRequest(
        tuple(positions), land, rules=frozenset(rules), fixed=fixed, size=size, **extra
    )


def _radius_for(size: int) -> int:
    radius = 0
    while 3 * radius * (radius + 1) + 1 < (3 * size) // 2:
        radius += 1
    return radius


def _parse_hold(text: str) -> tuple[Terrain, Terrain]:
    parts = [p.strip() for p in text.split(",")]
    names = ", ".join(t.value for t in Terrain)
    try:
        if len(parts) != 2:
            raise ValueError
        return Terrain(parts[0]), Terrain(parts[1])
    except ValueError:
        raise InvalidInput("--hold", text, f"two terrains as T1,T2 among {names}") from None


def run(args: argparse.Namespace) -> int:
    """Handler of ``isles layout``; returns the exit status."""
    from isles.cli import emit_json
    from isles.solvers.layout import LayoutStatus, next_move, solve_layout

    request = build_request(args)
    for flag in ("png", "svg"):
        target = getattr(args, flag)
        if target is not None and not str(target).lower().endswith(f".{flag}"):
            raise InvalidInput(f"--{flag}", target, f"a file name ending in .{flag}")
    if args.hold is not None:
        holding = _parse_hold(args.hold)
        move = next_move(request, holding, time_limit=args.time_limit)
        if args.json:
            emit_json(_move_dict(move))
        else:
            print(_move_text(move))
        board = move.completion
        status = move.status
        title = (
            "next move: "
            + ", ".join(f"{t.value} at {h}" for h, t in move.placements)
            + " (tiles down and the move outlined)"
        )
        marked = [*request.fixed, *(h for h, _ in move.placements)]
    else:
        result = solve_layout(request, seed=args.seed, time_limit=args.time_limit)
        if args.json:
            emit_json(result.to_dict())
        else:
            print(result_text(result))
        board = result.board
        status = result.status
        title = None
        marked = list(request.fixed)
    if board is not None:
        if args.save:
            board.save(args.save)
        for target in (args.png, args.svg):
            if target is not None:
                draw(board, request, target, title=title, marked=marked)
    return 0 if status in (LayoutStatus.OPTIMAL, LayoutStatus.FEASIBLE) else 1


def draw(
    board: Board,
    request: SetupRequest,
    path: str | Path,
    title: str | None = None,
    marked: list[Hex] | None = None,
) -> Path:
    """Draw ``board`` (fixed tiles of ``request``, or ``marked``, outlined) to .png or .svg."""
    from isles.draw import board_figure, save_figure
    from isles.models.setup import colourfulness, pip_spread

    fig, _ = board_figure(
        board,
        title=title
        or f"colourfulness {colourfulness(board)}, pip spread {pip_spread(board)}"
        + (" (fixed tiles outlined)" if request.fixed else ""),
        marked=list(request.fixed) if marked is None else marked,
    )
    return save_figure(fig, path)


def result_text(result: LayoutResult) -> str:
    """A readable report: status, objectives with bounds, pips per resource, rows."""
    from isles.models.setup import resource_pips

    lines = [f"status: {result.status.value}"]
    if result.conflict:
        lines.append("no board exists: these cannot hold together")
        lines.extend(f"  - {name}" for name in result.conflict)
        if not result.conflict_minimal:
            lines.append("  (not proven minimal: a check ran out of time)")
    if result.board is None:
        if result.status.value == "unknown":
            lines.append(
                "no board found and none proven impossible within the time limit "
                "(each CP-SAT solve gets --time-limit seconds; raise it to search longer)"
            )
        return "\n".join(lines)
    lines.append(f"colourfulness: {result.colourfulness} (upper bound {result.bound})")
    lines.append(f"pip spread: {result.pip_spread} (lower bound {result.pip_spread_bound})")
    totals = resource_pips(result.board)
    lines.append("pips: " + ", ".join(f"{r.value} {totals[r]}" for r in Resource))
    lines.append(board_rows(result.board))
    return "\n".join(lines)


def board_rows(board: Board) -> str:
    """The board by rows (top to bottom), each tile as ``q,r terrain number``."""
    rows: dict[int, list[str]] = {}
    for h, tile in board.tiles.items():
        label = tile.terrain.value + ("" if tile.number is None else f" {tile.number}")
        rows.setdefault(h.r, []).append(f"{h.q:>2},{h.r:<2} {label:<12}")
    return "\n".join(f"r={r:>2}  " + " ".join(cells).rstrip() for r, cells in rows.items())


def _move_dict(move: NextMove) -> dict[str, Any]:
    return {
        "status": move.status.value,
        "placements": [{"q": h.q, "r": h.r, "terrain": t.value} for h, t in move.placements],
        "best_after": move.best_after,
        "best_overall": move.best_overall,
        "hexes": [] if move.completion is None else move.completion.to_dict()["hexes"],
        "conflict": list(move.conflict),
    }


def _move_text(move: NextMove) -> str:
    lines = [f"status: {move.status.value}"]
    if move.conflict:
        lines.append("the tiles in hand cannot be laid legally: these cannot hold together")
        lines.extend(f"  - {name}" for name in move.conflict)
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
    """``isles demo`` section: the default board, a completion, a conflict."""
    from isles.models.catan import Tile
    from isles.models.hexgrid import Hex
    from isles.models.setup import DEFAULT_RULES, Rule, SetupRequest
    from isles.solvers.layout import solve_layout

    echo("== Board set-up for the ships scenario (seed 004, RULES.md section 4) ==")
    request = SetupRequest.hexagon(3)
    result = solve_layout(request, time_limit=20)
    echo("Hexagon of radius 3, 12 land, 25 sea, default rules:")
    echo(result_text(result))
    picture = draw(result.board, request, out_dir / "layout.png") if result.board else None
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
        f"(bound {completed.bound}), pip spread {completed.pip_spread}"
    )
    if completed.board is not None:
        draw(completed.board, partial, out_dir / "layout-completed.png")
    crowded = SetupRequest.hexagon(2, land=14, rules=DEFAULT_RULES | {Rule.SAME_NUMBER_APART})
    conflict = solve_layout(crowded, time_limit=20)
    echo("")
    echo(
        "Radius 2 with 14 land: "
        + conflict.status.value
        + "; cannot hold together: "
        + ", ".join(conflict.conflict)
    )
    if picture is not None:
        echo(f"Pictures: {picture.name}, layout-completed.png")
