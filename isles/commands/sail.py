"""``isles sail``: steer a ship (or a fleet of 2 or 3) blown by the 2d6 winds to its targets.

Seed 004_644cf972d8964df4.txt, rules 6 and 11; docs/ships.md. The command line
of :func:`isles.ships.sail` (one ``--from``: the question
:class:`~isles.models.ships.questions.Sail`) and :func:`isles.ships.fleet` (two or
three: :class:`~isles.models.ships.questions.Fleet`), its options derived from both
declarations, and the ships section of ``isles demo``.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import isles
from isles.cli import check_output, emit_json
from isles.models.board import Board
from isles.models.hexgrid import Edge, parse_edge, to_pixel
from isles.models.ships.coordinates import parse_settlement
from isles.models.ships.demo import board_or_demo
from isles.models.ships.questions import Fleet, Sail
from isles.options import NAMED_READERS, add_question, read_question

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from isles.cli import OneLineParser
    from isles.ships import FleetVoyage, Voyage

ORDER = 50

# The solvers (NumPy, SciPy) load when isles.answer first answers, and the pictures'
# matplotlib when one is drawn, so that `isles --help` and the other commands start
# without them.

#: A corner typed Q,R:Q,R:Q,R (``--near``); ``isles ships`` registers the same reader.
NAMED_READERS["corner"] = parse_settlement

#: What asks each question of ``isles sail``: one ``--from`` is a ship, two or three a fleet.
_ASKED = {
    Sail: "with one --from (rounds of a single ship)",
    Fleet: "with two or three --from (a fleet)",
}


def register(subparsers: argparse._SubParsersAction[OneLineParser]) -> None:
    """Add ``isles sail``: the options of :class:`Fleet`, and of :class:`Sail` beside them."""
    p = subparsers.add_parser(
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
    add_question(p, Fleet)
    # --from is the fleet's ships or the one ship's start; the rest of Sail's own options:
    add_question(p, Sail, exclude=(*Fleet.model_fields, "start"))
    p.add_argument("--board", metavar="FILE", help=Sail.model_fields["board"].description)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument(
        "--png",
        metavar="FILE",
        help="draw the expected-rolls field, or the fleet and its first moves (.png/.svg)",
    )
    p.set_defaults(func=run)


def _check_picture(board: object, png: Path | None, typed: str | None) -> None:
    """Refuse --png for a board too big to draw, before any work (isles.draw's bound)."""
    if png is not None and isinstance(board, Board):
        from isles.draw import check_drawable

        check_drawable(board, "--png", typed)


def run(args: argparse.Namespace) -> int:
    """Read the question the options ask (one ship or a fleet), answer it, print it."""
    png = check_output("--png", args.png, (".png", ".svg"))
    if len(getattr(args, "ships", ())) > 1:
        return _fleet(args, png)
    if hasattr(args, "ships"):  # one --from: the ship's start
        args.start = args.ships.pop()
        del args.ships
    board = {"board": lambda: board_or_demo(args.board)}
    question = read_question(Sail, args, files=board, beside={Fleet: _ASKED[Fleet]})
    _check_picture(question.board, png, args.png)
    voyage = isles.answer(question)
    if png is not None:
        _picture(voyage, png)
    if args.json:
        emit_json(voyage.to_dict())
    else:
        for line in _voyage_lines(voyage):
            print(line)
        if png is not None:
            print(f"picture: {png}")
    return 0 if voyage.status.answered else 1


def _fleet(args: argparse.Namespace, png: Path | None) -> int:
    board = {"board": lambda: board_or_demo(args.board)}
    question = read_question(Fleet, args, files=board, beside={Sail: _ASKED[Sail]})
    _check_picture(question.board, png, args.png)
    voyage = isles.answer(question)
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


def _overlay(ax: Axes, voyage: Voyage) -> None:
    """Colour every ship edge by its expected rolls and draw the steering arrows.

    One collection per kind of mark, not one artist per edge: drawing stays
    bounded on a big board (isles.draw); the arrows are left out beyond its
    detail limit, where they would be too small to read.
    """
    import matplotlib as mpl
    import numpy as np
    from matplotlib.collections import LineCollection

    from isles.draw import is_detailed

    nav, start = voyage.navigation, voyage.start
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
        v = float(nav.values[i])  # an edge of the graph: read, not looked up and checked again
        if not math.isfinite(v):
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
    ax.plot(*_midpoint(start), marker="o", markersize=12, mfc="none", mec="black", mew=2.5)
    sm = mpl.cm.ScalarMappable(norm=norm, cmap=cmap)
    ax.figure.colorbar(sm, ax=ax, shrink=0.6, label="expected rolls to the target")


def _picture(voyage: Voyage, path: str | Path) -> Path:
    from isles.draw import board_figure, save_figure

    title = "Expected rolls to the target (stars); arrows: steering choices; dotted: no way"
    if voyage.expected_rolls is not None:
        title += f"\nfrom the circled edge: {voyage.expected_rolls:.1f} rolls on average"
    fig, ax = board_figure(voyage.navigation.graph.board, title=title, legend=False)
    _overlay(ax, voyage)
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
    from isles.ships import convert, demo_board, fleet, risk, sail

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
    path = _picture(shown, out_dir / "ships_field.png")
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
