"""``isles sail`` and ``isles risk``: steer a ship blown by the 2d6 winds, and what it risks.

Seed 004_644cf972d8964df4.txt, rules 6, 11, 12; docs/ships.md. The command line
of :func:`isles.ships.sail` and :func:`isles.ships.risk`, and the ships section of
``isles demo``: it parses, calls the library once, and formats.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

from isles.cli import check_output, count_type, emit_json, only_with
from isles.models.catan import Board
from isles.models.errors import InvalidInput
from isles.models.hexgrid import Edge, parse_edge, to_pixel
from isles.models.ships import (
    MAX_ENCOUNTERS,
    MAX_PLAYERS,
    MAX_REACH_ROLLS,
    MIN_PLAYERS,
    parse_settlement,
)

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from isles.cli import OneLineParser
    from isles.solvers.sailing import Navigation, RiskReport, Voyage

ORDER = 50

#: The library's parameter names and the options the user typed for them.
_SAIL_OPTIONS = {
    "start": "--from",
    "targets": "--to",
    "near": "--near",
    "players": "--players",
    "may_stay": "--may-stay",
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
        help="steer a ship to a target edge: minimal expected rolls under the winds",
        description=(
            "Minimal expected number of 2d6 rolls for a ship to reach a target edge "
            "(or the coast next to a settlement), the steering at the start, and the "
            "exact chance to arrive within 5, 10 and 20 rolls (seed 004; docs/ships.md). "
            "Edges are Q,R:Q,R, settlements Q,R:Q,R:Q,R. Exit status: 0 answered, "
            "1 the target cannot be reached surely, 2 bad input."
        ),
    )
    sail.add_argument(
        "--board", metavar="FILE", help="board JSON file, - for stdin (default: the demo board)"
    )
    sail.add_argument("--from", dest="start", required=True, metavar="Q,R:Q,R", help="ship edge")
    sail.add_argument("--to", action="append", metavar="Q,R:Q,R", help="target edge (repeatable)")
    sail.add_argument(
        "--near",
        action="append",
        metavar="Q,R:Q,R:Q,R",
        help="target: the coast edges next to this settlement corner (repeatable)",
    )
    sail.add_argument(
        "--may-stay", action="store_true", help="variant: a ship along a coast may stay"
    )
    sail.add_argument(
        "--players",
        type=count_type(MIN_PLAYERS, MAX_PLAYERS),
        default=4,
        help=f"players, to turn rolls into rounds ({MIN_PLAYERS}..{MAX_PLAYERS}; default 4)",
    )
    sail.add_argument("--json", action="store_true", help="print one JSON object")
    sail.add_argument("--png", metavar="FILE", help="draw the expected-rolls field (.png/.svg)")
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
    start = parse_edge(args.start, "--from")
    targets = [parse_edge(t, "--to") for t in args.to or []]
    near = [parse_settlement(v, "--near") for v in args.near or []]
    if not targets and not near:
        raise InvalidInput(
            "--to", None, "at least one --to edge or --near settlement", problem="missing"
        )
    board = _board(args.board)
    with _options(_SAIL_OPTIONS):
        voyage = sail(
            board, start, targets, near=near, may_stay=args.may_stay, players=args.players
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
        )
    if args.json:
        emit_json(report.to_dict())
    else:
        for line in _risk_lines(report):
            print(line)
    return 0


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
    """Colour every ship edge by its expected rolls and draw the steering arrows."""
    import matplotlib as mpl
    import numpy as np

    finite = nav.values[np.isfinite(nav.values)]
    top = float(finite.max()) if len(finite) else 1.0
    norm = mpl.colors.Normalize(vmin=0.0, vmax=max(top, 1.0))
    cmap = mpl.colormaps["plasma_r"]
    graph = nav.graph
    for i, e in enumerate(graph.edges):
        (x0, y0), (x1, y1) = _segment(e)
        v = nav.expected_rolls(e)
        if v is None:
            ax.plot([x0, x1], [y0, y1], color="#444", lw=2, ls=":", zorder=5)
            continue
        ax.plot([x0, x1], [y0, y1], color=cmap(norm(v)), lw=5, solid_capstyle="butt", zorder=5)
        if e in nav.targets:
            ax.plot(*_midpoint(e), marker="*", markersize=15, color="gold", mec="black", zorder=8)
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
            ax.annotate(
                "",
                xy=(mx + 0.55 * (gx - mx), my + 0.55 * (gy - my)),
                xytext=(mx, my),
                zorder=7,
                arrowprops={"arrowstyle": "-|>", "color": "black", "lw": 1.0, "shrinkA": 0},
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


# -- demo --------------------------------------------------------------------------------


def demo(out_dir: Path, echo: Callable[[str], None]) -> None:
    """Ships section of ``isles demo``: a navigation table, risk tables, one picture."""
    from isles.models.ships import demo_board
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
