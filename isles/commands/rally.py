"""``isles rally``: the car rally's best route, as a table, JSON or a picture.

Seed 002_8684547a41c0941c.txt; docs/rally.md.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from isles.cli import StoreOnce
from isles.models.catan import Board, beginner_board
from isles.models.errors import InvalidInput
from isles.models.hexgrid import Edge, parse_edge, parse_hex

if TYPE_CHECKING:
    from isles.solvers.rally import Route

ORDER = 10


def _pairs(items: list[str] | None, field: str, integer: bool) -> dict[str, Any]:
    """Parse repeated ``name=number`` options, each possibly comma-separated."""
    out: dict[str, Any] = {}
    for item in items or []:
        for part in item.split(","):
            name, sep, number = part.partition("=")
            if not sep or not name.strip():
                raise InvalidInput(field, part, "resource=number, e.g. ore=2")
            key = name.strip()
            if key in out:
                raise InvalidInput(field, key, "each resource at most once")
            try:
                out[key] = int(number) if integer else float(number)
            except ValueError:
                kind = "a whole number" if integer else "a number"
                raise InvalidInput(f"{field} {key}", number, kind) from None
    return out


def register(sub: argparse._SubParsersAction[Any]) -> None:
    p = sub.add_parser(
        "rally",
        help="cheapest / fastest / affordable car route (Catan car rally)",
        description="Plan a car's route on a Catan board (seed 002; docs/rally.md). "
        "Exit status: 0 route found, 1 no route, nothing affordable or time limit reached, "
        "2 bad input.",
    )
    p.add_argument(
        "--start", required=True, action=StoreOnce, metavar="Q,R", help="the car's hex (axial)"
    )
    p.add_argument(
        "--goal",
        action="append",
        metavar="Q,R",
        help="a goal hex (repeat); default: the land next to the reflected start group",
    )
    p.add_argument(
        "--group",
        action="append",
        metavar="Q,R",
        help="another hex of the start group, for the default goals (repeat)",
    )
    p.add_argument(
        "--road", action="append", metavar="Q,R:Q,R", help="one of the player's own roads (repeat)"
    )
    p.add_argument(
        "--objective",
        action=StoreOnce,
        default="cards",
        choices=["cards", "turns", "expected_turns", "weighted"],
    )
    p.add_argument(
        "--value",
        action="append",
        metavar="RES=X",
        help="card value for --objective weighted, e.g. ore=2,wool=0.5 (default 1)",
    )
    p.add_argument(
        "--budget",
        action="append",
        metavar="RES=N",
        help="cards the player can spend (hand + reserve), e.g. lumber=3,ore=2",
    )
    p.add_argument(
        "--board",
        action=StoreOnce,
        metavar="FILE",
        help="board JSON file (default: the beginner board)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument(
        "--png",
        action=StoreOnce,
        metavar="FILE",
        help="draw the board and the route (.png or .svg)",
    )
    p.add_argument(
        "--time-limit",
        type=float,
        default=60.0,
        metavar="SEC",
        help="seconds allowed for a --budget search (default: %(default)s)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from isles.solvers.rally import plan_route

    if not args.time_limit > 0:
        raise InvalidInput("--time-limit", args.time_limit, "a number of seconds > 0")
    board = Board.load(args.board) if args.board else beginner_board()
    start = parse_hex(args.start, "--start")
    goals = [parse_hex(g, "--goal") for g in args.goal] if args.goal else None
    group = [parse_hex(g, "--group") for g in args.group] if args.group else None
    roads = [parse_edge(r, "--road") for r in args.road or []]
    values = _pairs(args.value, "--value", integer=False)
    budget = _pairs(args.budget, "--budget", integer=True) if args.budget else None
    route = plan_route(
        board,
        start,
        goals=goals,
        roads=roads,
        objective=args.objective,
        values=values or None,
        budget=budget,
        group=group,
        time_limit=args.time_limit,
    )
    if args.png is not None:
        draw_route(board, route, args.png, roads)
    if args.json:
        from isles.cli import emit_json

        emit_json(route.to_dict())
    else:
        print(format_route(route))
    return 0 if route.reached else 1


def format_route(route: Route) -> str:
    """A readable table of the steps and the totals."""
    goals = " ".join(str(g) for g in route.goals)
    lines = [f"Car rally from {route.start} to one of {goals} (objective: {route.objective})"]
    if route.status == "unreachable":
        lines.append("No route: no goal hex can be reached from the start (sea or board edge).")
        return "\n".join(lines)
    if route.status == "timed_out":
        lines.append("No answer: the budget search reached its time limit (--time-limit).")
        return "\n".join(lines)
    if route.status == "unaffordable":
        held = ", ".join(f"{k} {v}" for k, v in (route.budget or {}).items() if v) or "no cards"
        lines.append(
            f"No affordable route with {held}. Closest affordable hex to a goal: "
            f"{route.path[-1]} (below)."
        )
    lines.append(
        f"{'#':>3}  {'hex':<7}{'terrain':<11}{'token':>5}  {'paid':<14}{'road':<6}"
        f"{'exit odds':<10}{'E[turns]':>8}"
    )
    for i, s in enumerate(route.steps, 1):
        number = "" if s.number is None else str(s.number)
        paid = f"{s.cards} {s.resource.value if s.resource else 'any'}" if s.cards else "free"
        odds = "" if s.exit_probability is None else f"{s.exit_probability} "
        lines.append(
            f"{i:>3}  {s.hex!s:<7}{s.terrain.value:<11}{number:>5}  {paid:<14}"
            f"{'half' if s.halved else '':<6}{odds:<10}{float(s.expected_turns):>8.2f}"
        )
    per = ", ".join(f"{k} {v}" for k, v in route.cards.items()) or "none"
    lines.append(
        f"Total: {route.total_cards} cards ({per}); {_plural(route.turns, 'turn')}; "
        f"{float(route.expected_turns):.2f} expected turns{_exact(route.expected_turns)}"
    )
    if route.objective == "weighted":
        lines.append(f"Weighted value: {float(route.value):g}{_exact(route.value)}")
    return "\n".join(lines)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _exact(x: Fraction) -> str:
    """`` (exact p/q)`` when that says more than the float and stays short."""
    text = str(x)
    return f" (exact {text})" if "/" in text and len(text) <= 24 else ""


def draw_route(board: Board, route: Route, path: str | Path, roads: list[Edge]) -> Path:
    """Draw ``board``, the player's roads, the goals (outlined) and the route."""
    from isles.draw import board_figure, draw_path, draw_roads, save_figure

    fig, ax = board_figure(
        board, title=f"Car rally: {route.objective}, {route.status}", marked=route.goals
    )
    draw_roads(ax, roads)
    draw_path(ax, list(route.path))
    return save_figure(fig, path)


def demo(out_dir: Path, echo: Callable[[str], None]) -> None:
    from isles.draw import board_figure, draw_path, save_figure
    from isles.models.rally import default_goals, rim_sea
    from isles.solvers.rally import build_graph, plan_route

    board = beginner_board()
    rg = build_graph(board)
    rim = rim_sea(board)
    echo("== Car rally (seed 002): best car of each start group, beginner board ==")
    echo(
        f"{'group':<24}{'best car':<10}{'goal':<8}{'cards':>6}{'turns':>6}{'E[turns]':>9}"
        f"   fastest E[turns] (cards)"
    )
    best_overall = None
    for i in range(len(rim)):
        group = [rim[(i + k) % len(rim)] for k in range(4)]
        goals = default_goals(board, group)
        routes = [plan_route(rg, car, goals=goals) for car in group]
        best = min(routes, key=lambda r: (r.total_cards, r.turns, rg.index[r.start]))
        fast = min(
            (plan_route(rg, car, goals=goals, objective="expected_turns") for car in group),
            key=lambda r: (r.expected_turns, r.total_cards, rg.index[r.start]),
        )
        echo(
            f"{' '.join(str(h) for h in group):<24}{best.start!s:<10}{best.path[-1]!s:<8}"
            f"{best.total_cards:>6}{best.turns:>6}{float(best.expected_turns):>9.2f}"
            f"   {float(fast.expected_turns):.2f} ({fast.total_cards})"
        )
        if best_overall is None or best.total_cards < best_overall[0].total_cards:
            best_overall = (best, fast)
    assert best_overall is not None
    cheap, fast = best_overall
    fig, ax = board_figure(
        board, title="Cheapest rally route (black) and fastest expected (red)", marked=cheap.goals
    )
    draw_path(ax, list(cheap.path))
    draw_path(ax, list(fast.path), colour="#c62828")
    picture = save_figure(fig, out_dir / "rally.png")
    echo(f"Cheapest of all: car on {cheap.start}, {cheap.total_cards} cards; picture: {picture}")
