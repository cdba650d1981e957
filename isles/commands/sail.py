"""``isles sail`` and ``isles risk``: steer a ship blown by the 2d6 winds, and what it risks.

RULES.md section 4 (seed 004_644cf972d8964df4.txt, rules 6, 11, 12): the command
line of solvers/sailing.py, and the ships section of ``isles demo``.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from isles.cli import emit_json
from isles.models.catan import Board
from isles.models.hexgrid import Edge, parse_edge, to_pixel

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from isles.cli import OneLineParser
    from isles.solvers.sailing import Arrival, Navigation

ORDER = 50

WITHIN = (5, 10, 20)


def register(subparsers: argparse._SubParsersAction[OneLineParser]) -> None:
    """Add the ``sail`` and ``risk`` subcommands."""
    sail = subparsers.add_parser(
        "sail",
        help="steer a ship to a target edge: minimal expected rolls under the winds",
        description=(
            "Minimal expected number of 2d6 rolls for a ship to reach a target edge "
            "(or a settlement), the steering decisions, and the chance to arrive "
            "within 5, 10 and 20 rolls (RULES.md section 4). Edges are Q,R:Q,R, "
            "settlements Q,R:Q,R:Q,R. Exit status 1 when the target is not reachable."
        ),
    )
    sail.add_argument("--board", help="board JSON file (default: the embedded ships board)")
    sail.add_argument("--from", dest="start", required=True, metavar="Q,R:Q,R", help="ship edge")
    sail.add_argument(
        "--to", action="append", default=[], metavar="Q,R:Q,R", help="target edge (repeatable)"
    )
    sail.add_argument(
        "--near",
        action="append",
        default=[],
        metavar="Q,R:Q,R:Q,R",
        help="target: the coast edges next to this settlement corner (repeatable)",
    )
    sail.add_argument(
        "--may-stay", action="store_true", help="variant: a ship along a coast may stay"
    )
    sail.add_argument(
        "--players", type=int, default=4, help="players, to turn rolls into rounds (3..6)"
    )
    sail.add_argument("--json", action="store_true", help="print one JSON object")
    sail.add_argument("--png", metavar="FILE", help="draw the expected-rolls field (.png/.svg)")
    sail.set_defaults(func=_sail)

    risk = subparsers.add_parser(
        "risk",
        help="collision and pirate tables, cargo left, pirate reach",
        description=(
            "Exact collision and pirate outcome tables (seed rules 11 and 12), the "
            "cargo left after a number of encounters, and optionally the chance that "
            "the pirate ship reaches an edge within some rolls."
        ),
    )
    risk.add_argument("--cargo", type=int, default=3, help="cards on board (0..3)")
    risk.add_argument("--encounters", type=int, default=1, help="encounters in a row")
    risk.add_argument("--board", help="board JSON file (default: the embedded ships board)")
    risk.add_argument("--pirate", metavar="Q,R:Q,R", help="pirate ship edge")
    risk.add_argument("--edge", metavar="Q,R:Q,R", help="edge the pirate might reach")
    risk.add_argument("--rolls", type=int, default=10, help="rolls for the pirate reach")
    risk.add_argument("--may-stay", action="store_true", help="variant: coast may stay")
    risk.add_argument("--json", action="store_true", help="print one JSON object")
    risk.set_defaults(func=_risk)


def _board(path: str | None) -> Board:
    from isles.models.ships import demo_board

    return demo_board() if path is None else Board.load(path)


def _fmt(x: float | None) -> str:
    return "unreachable" if x is None else f"{x:.2f}"


def _steering(nav: Navigation, start: Edge) -> list[dict[str, Any]]:
    """The decisions at ``start``: for each roll that offers a choice, where to go."""
    from isles.models.ships import ROLLS, ship_options

    out: list[dict[str, Any]] = []
    for roll in ROLLS:
        options = ship_options(nav.graph.board, start, roll, nav.graph.may_stay)
        if len(options) < 2:
            continue
        go = nav.steer(start, roll)
        out.append(
            {
                "roll": roll,
                "options": [str(o) for o in options],
                "go_to": str(go),
                "expected_rolls_there": nav.expected_rolls(go),
            }
        )
    return out


def _sail(args: argparse.Namespace) -> int:
    from isles.models.errors import InvalidInput
    from isles.models.ships import check_ship_edge, parse_settlement, rolls_to_rounds
    from isles.solvers.sailing import arrival_distribution, navigate, target_edges

    board = _board(args.board)
    start = check_ship_edge(board, parse_edge(args.start, "--from"), "--from")
    if not args.to and not args.near:
        raise InvalidInput("--to", None, "at least one --to edge or --near settlement")
    targets = target_edges(
        board,
        [parse_edge(t, "--to") for t in args.to],
        [parse_settlement(v, "--near") for v in args.near],
    )
    rolls_to_rounds(0.0, args.players)  # validates --players before solving
    nav = navigate(board, targets, may_stay=args.may_stay)
    expected = nav.expected_rolls(start)
    arrival = arrival_distribution(nav, start)
    reach = nav.reach(start)
    rounds = None if expected is None else rolls_to_rounds(expected, args.players)
    steering = _steering(nav, start) if expected is not None else []
    if args.png:
        _picture(nav, start, args.png, arrival)
    if args.json:
        emit_json(
            {
                "from": str(start),
                "to": sorted(str(t) for t in targets),
                "may_stay": args.may_stay,
                "reachable": expected is not None,
                "reach": reach.value,
                "expected_rolls": expected,
                "expected_rounds": rounds,
                "players": args.players,
                "arrival_within": {str(k): arrival.within(k) for k in WITHIN},
                "arrival_tail_bound": arrival.tail,
                "steering": steering,
                "status": nav.status,
                "iterations": nav.iterations,
                "bellman_residual": nav.bellman_residual,
            }
        )
    else:
        print(f"Ship from {start} to {', '.join(sorted(str(t) for t in targets))}")
        if expected is None or rounds is None:
            why = {
                "trapped": "every steering risks being blown where it never arrives",
                "unreachable": "no sequence of rolls leads there",
            }[reach.value]
            print(f"not reachable ({reach.value}): {why}")
        else:
            print(
                f"expected rolls: {expected:.2f}  "
                f"(= {rounds:.2f} rounds with {args.players} players)"
            )
            print(
                "arrive within " + ", ".join(f"{k} rolls: {arrival.within(k):.1%}" for k in WITHIN)
            )
            if steering:
                print(f"steering at {start}:")
                for s in steering:
                    print(
                        f"  on {s['roll']:>2}: go to {s['go_to']}"
                        f"  (then {_fmt(s['expected_rolls_there'])} rolls expected;"
                        f" choices {', '.join(s['options'])})"
                    )
            else:
                print(f"steering at {start}: no choice, every move is forced")
            print(
                f"policy iteration: {nav.status} after {nav.iterations} rounds, "
                f"Bellman residual {nav.bellman_residual:.1e} rolls"
            )
        if args.png:
            print(f"picture: {args.png}")
    return 0 if expected is not None else 1


def _risk(args: argparse.Namespace) -> int:
    from isles.models.errors import InvalidInput
    from isles.models.ships import Encounter, outcome_rolls, outcome_table
    from isles.solvers.sailing import cargo_outlook, pirate_reach_probability

    outlooks = {enc: cargo_outlook(enc, args.cargo, args.encounters) for enc in Encounter}
    reach: dict[str, Any] | None = None
    if args.pirate is not None or args.edge is not None:
        if args.pirate is None or args.edge is None:
            missing = "--pirate" if args.pirate is None else "--edge"
            raise InvalidInput(missing, None, "both --pirate and --edge for the pirate reach")
        board = _board(args.board)
        pirate, target = parse_edge(args.pirate, "--pirate"), parse_edge(args.edge, "--edge")
        toward = pirate_reach_probability(
            board, pirate, target, args.rolls, "toward", args.may_stay
        )
        away = pirate_reach_probability(board, pirate, target, args.rolls, "away", args.may_stay)
        reach = {
            "pirate": str(pirate),
            "edge": str(target),
            "rolls": args.rolls,
            "toward": str(toward),
            "away": str(away),
        }
    if args.json:
        emit_json(
            {
                "tables": {
                    enc.value: {
                        o.value: {"rolls": list(outcome_rolls(enc)[o]), "probability": str(p)}
                        for o, p in outcome_table(enc).items()
                    }
                    for enc in Encounter
                },
                "cargo": {
                    enc.value: {
                        "start_cargo": out.start_cargo,
                        "encounters": out.encounters,
                        "sunk": str(out.sunk),
                        "cargo": [str(p) for p in out.cargo],
                        "expected_cargo": str(out.expected_cargo),
                    }
                    for enc, out in outlooks.items()
                },
                "pirate_reach": reach,
            }
        )
        return 0
    for enc in Encounter:
        print(f"{enc.value} (2d6 per ship involved):")
        for o, p in outcome_table(enc).items():
            rolls = ",".join(map(str, outcome_rolls(enc)[o]))
            print(f"  {rolls:<16} {o.value:<16} {p!s:>6} = {float(p):6.1%}")
    for enc, out in outlooks.items():
        print(
            f"after {out.encounters} {enc.value}(s) with {out.start_cargo} cards: "
            f"sunk {_show(out.sunk, '.1%')}, expected cargo left "
            f"{_show(out.expected_cargo, '.3f')}"
        )
    if reach is not None:
        print(
            f"pirate from {reach['pirate']} on {reach['edge']} within {reach['rolls']} rolls: "
            f"{_show(toward, '.1%')} if steered toward it, {_show(away, '.1%')} if steered away"
        )
    return 0


def _show(x: Fraction, spec: str) -> str:
    """A float, and the exact fraction beside it when that stays short."""
    exact = str(x)
    return f"{float(x):{spec}}" + (f" (= {exact})" if len(exact) <= 20 else "")


def _midpoint(e: Edge) -> tuple[float, float]:
    (x0, y0), (x1, y1) = to_pixel(e.a), to_pixel(e.b)
    return (x0 + x1) / 2, (y0 + y1) / 2


def _segment(e: Edge) -> tuple[tuple[float, float], tuple[float, float]]:
    (x0, y0), (x1, y1) = to_pixel(e.a), to_pixel(e.b)
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    norm = math.hypot(x1 - x0, y1 - y0)
    px, py = -(y1 - y0) / norm * 0.45, (x1 - x0) / norm * 0.45
    return (mx + px, my + py), (mx - px, my - py)


def _overlay(ax: Axes, nav: Navigation, start: Edge | None) -> None:
    """Colour every ship edge by its expected rolls and draw the steering arrows."""
    import matplotlib as mpl
    import numpy as np

    from isles.models.ships import ROLLS, ship_options

    finite = nav.values[np.isfinite(nav.values)]
    top = float(finite.max()) if len(finite) else 1.0
    norm = mpl.colors.Normalize(vmin=0.0, vmax=max(top, 1.0))
    cmap = mpl.colormaps["plasma_r"]
    board = nav.graph.board
    for e in nav.graph.edges:
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
        chosen = {
            nav.steer(e, roll)
            for roll in ROLLS
            if len(ship_options(board, e, roll, nav.graph.may_stay)) > 1
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


def _picture(nav: Navigation, start: Edge | None, path: str | Path, arrival: Arrival) -> Path:
    from isles.draw import board_figure, save_figure

    title = "Expected rolls to the target (stars); arrows: steering choices; dotted: no way"
    if start is not None and arrival.reachable:
        title += f"\nfrom the circled edge: {arrival.mean():.1f} rolls on average"
    fig, ax = board_figure(nav.graph.board, title=title, legend=False)
    _overlay(ax, nav, start)
    return save_figure(fig, path)


# -- demo --------------------------------------------------------------------------------


def demo(out_dir: Path, echo: Callable[[str], None]) -> None:
    """Ships section of ``isles demo``: a navigation table, risk tables, one picture."""
    from isles.models.ships import (
        Encounter,
        demo_board,
        outcome_table,
        parse_settlement,
        rolls_to_rounds,
    )
    from isles.solvers.sailing import (
        arrival_distribution,
        cargo_outlook,
        navigate,
        pirate_reach_probability,
        target_edges,
    )

    board = demo_board()
    corner = "0,2:0,3:1,2"
    targets = target_edges(board, settlements=[parse_settlement(corner)])
    echo("== Ships under winds (seed 004, RULES.md section 4) ==")
    echo(f"Embedded board: {len(board)} hexes, {len(board.sea())} sea with wind tokens.")
    echo(f"Target: the coast next to the settlement {corner} (the hills 5 at 0,3).")
    starts = ["0,2:1,2", "-1,3:0,2", "0,1:0,2", "-2,3:-1,2", "0,0:1,0", "2,-3:2,-2"]
    header = f"{'from':<11} {'E[rolls]':>9} {'may stay':>9} {'rounds(4p)':>10}"
    header += "".join(f" {'<=' + str(k):>6}" for k in WITHIN)
    echo(header)
    navs = {stay: navigate(board, targets, may_stay=stay) for stay in (False, True)}
    for text in starts:
        s = parse_edge(text, "start")
        v, v_stay = navs[False].expected_rolls(s), navs[True].expected_rolls(s)
        arr = arrival_distribution(navs[False], s)
        rounds = "-" if v is None else f"{rolls_to_rounds(v, 4):.1f}"
        cells = "".join(f" {arr.within(k):6.1%}" for k in WITHIN)
        echo(f"{text:<11} {_fmt(v):>9} {_fmt(v_stay):>9} {rounds:>10}{cells}")
    nav = navs[False]
    echo(
        f"(policy iteration: {nav.status}, {nav.iterations} sparse solves, "
        f"Bellman residual {nav.bellman_residual:.1e})"
    )
    for enc in Encounter:
        table = ", ".join(f"{o.value} {p}" for o, p in outcome_table(enc).items())
        echo(f"{enc.value}: {table}")
    out = cargo_outlook(Encounter.PIRATE, 3, 2)
    echo(f"after 2 pirate attacks, 3 cards: expected {float(out.expected_cargo):.3f} left")
    pirate, spot = parse_edge("0,0:1,0", "pirate"), parse_edge("0,2:0,3", "edge")
    p = pirate_reach_probability(board, pirate, spot, 10)
    echo(f"pirate at {pirate} reaches {spot} within 10 rolls (steered toward): {float(p):.1%}")
    start = parse_edge(starts[3], "start")
    path = _picture(nav, start, out_dir / "ships_field.png", arrival_distribution(nav, start))
    echo(f"picture: {path.name}")
