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

import isles
from isles.cli import StoreOnce, check_output, emit_json, one_stdin
from isles.models.board import Board
from isles.models.catan import Resource, Terrain, Tile
from isles.models.hexgrid import Hex
from isles.models.jsonio import load_json
from isles.models.layout.objectives import colourfulness, pip_spread, resource_pips
from isles.models.layout.questions import Layout
from isles.models.layout.request import DEFAULT_RULES, Rule, SetupRequest
from isles.models.layout.setup import setup_request
from isles.options import add_question, read_question

if TYPE_CHECKING:
    from isles.layout import LayoutResult, LayoutSeries, NextMove

ORDER = 30

#: The question's fields read from files by the command itself, and how each is read.
_FILES: dict[str, Callable[[str], object]] = {
    "positions": lambda path: list(Board.load(path)),
    "fixed": Board.load,
    "extra_rules": lambda path: load_json(path, "rules file"),
}
#: What stands for each file's content while the options are checked, before any
#: file is read: which options go together depends only on which were given.
_STAND_INS: dict[str, object] = {"positions": [], "fixed": {}, "extra_rules": ()}


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add ``isles layout``: its options are those of the declaration :class:`Layout`."""
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
            "the next two tiles (--hold), lay several different boards (--count), add "
            "your own rules (--rules FILE), or name the rules that cannot hold together. "
            "Exit 0 with a board, 1 when no board exists (or none was found in time), "
            "2 on bad input."
        ),
    )
    add_question(p, Layout)
    for name in _FILES:
        p.add_argument(
            Layout.spelt(name, "option"),
            action=StoreOnce,
            dest=f"{name}_file",
            metavar="FILE",
            help=Layout.model_fields[name].description,
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


def read_files(args: argparse.Namespace) -> dict[str, object]:
    """The fields read from files (--shape, --fixed, --rules), at most one from stdin.

    The options are checked first, with stand-ins for the files (a file given
    with an option it does not go with is never read).
    """
    paths = {name: getattr(args, f"{name}_file", None) for name in _FILES}
    read_question(Layout, args, {n: _STAND_INS[n] for n, path in paths.items() if path})
    one_stdin(*((Layout.spelt(name, "option"), path) for name, path in paths.items()))
    return {name: _FILES[name](path) for name, path in paths.items() if path is not None}


def _outputs(args: argparse.Namespace) -> tuple[Path | None, list[Path]]:
    """The --save file and the pictures, checked before any work: a bad one costs no solve."""
    save = check_output("--save", args.save, (".json",))
    pictures = [
        target
        for target in (
            check_output("--png", args.png, (".png",)),
            check_output("--svg", args.svg, (".svg",)),
        )
        if target is not None
    ]
    return save, pictures


def _check_numbered(save: Path | None, pictures: list[Path], count: int) -> None:
    """The numbered files of a --count (``night-2.json``), checked before any work too."""
    outputs = [("--save", save)] if save is not None else []
    for given, target in [*outputs, *(("--png/--svg", p) for p in pictures)]:
        for i in range(1, count + 1):
            check_output(given, str(_numbered(target, i)), (target.suffix.lower(),))


def _write(option: str, target: Path, write: Callable[[Path], object]) -> None:
    """Write one output file; a failure (a full disk) names the option and the file.

    The command line's handler of OSError (exit 74) shows ``exc.filename``; a
    write that fails on a full disk often leaves it empty.
    """
    try:
        write(target)
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror or str(exc), f"{option} {target}") from exc


def run(args: argparse.Namespace) -> int:
    """Handler of ``isles layout``: read the question, answer it, write and print the answer."""
    save, pictures = _outputs(args)
    question = read_question(Layout, args, read_files(args))
    count = question.count or 1
    if count > 1:
        _check_numbered(save, pictures, count)
    # OR-Tools takes a second to import: only once the input is known to be good.
    from isles.layout import LayoutSeries, NextMove

    # Bars on a terminal once a solve has taken a second (None: the library decides);
    # never in a log file or a pipe.
    answer = isles.answer(question, progress=None if sys.stderr.isatty() else False)
    title: str | None = None
    if isinstance(answer, NextMove):
        boards = [] if answer.completion is None else [answer.completion]
        title = (
            "next move: "
            + ", ".join(f"{t.value} at {h}" for h, t in answer.placements)
            + " (tiles down and the move outlined)"
        )
        marked = [*answer.fixed, *(h for h, _ in answer.placements)]
        text = move_text(answer)
    elif isinstance(answer, LayoutSeries):
        boards = [b.board for b in answer.boards if b.board is not None]
        marked = list(answer.boards[0].fixed) if answer.boards else []
        text = series_text(answer)
    else:
        boards = [] if answer.board is None else [answer.board]
        marked = list(answer.fixed)
        text = result_text(answer)
    # Files first: a reader that stops early (`| head`) does not cost the board.
    for i, board in enumerate(boards, start=1):
        if save is not None:
            _write("--save", _numbered(save, i) if count > 1 else save, board.save)
        for target in pictures:
            option = "--png" if target.suffix.lower() == ".png" else "--svg"

            def picture(path: Path, board: Board = board) -> None:
                draw(board, path, title=title, marked=marked)

            _write(option, _numbered(target, i) if count > 1 else target, picture)
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
    from isles.layout import solve_layout

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
