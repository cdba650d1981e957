"""``isles rally``: the car rally's best route, as a table, JSON or a picture.

Seed 002_8684547a41c0941c.txt; docs/rally.md. The command parses, calls
:func:`isles.rally.plan_route` and formats; ``--json`` prints ``Route.to_dict()``.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from isles.cli import StoreOnce, check_output, emit_json, only_with, seconds_type
from isles.models.catan import Board, beginner_board
from isles.models.errors import InvalidInput
from isles.models.hexgrid import parse_edge, parse_hex
from isles.models.rally import MAX_CARD_VALUE, OBJECTIVES
from isles.models.status import Status
from isles.models.text import parse_integer, parse_number

if TYPE_CHECKING:
    from isles.solvers.rally import Route

ORDER = 10

#: Seconds a ``--budget`` search may take when ``--time-limit`` is not given.
DEFAULT_TIME_LIMIT = 60.0

# plan_route's parameters as the options that feed them, for error messages.
_OPTIONS = {
    "start": "--start",
    "goals": "--goal",
    "group": "--group",
    "roads": "--road",
    "objective": "--objective",
    "values": "--value",
    "budget": "--budget",
    "time_limit": "--time-limit",
}


def _pairs(items: list[str] | None, option: str, integer: bool) -> dict[str, Any]:
    """Parse repeated ``name=number`` options, each possibly comma-separated."""
    out: dict[str, Any] = {}
    for item in items or []:
        for part in item.split(","):
            name, sep, number = part.partition("=")
            if not sep or not name.strip():
                raise InvalidInput(option, part, "resource=number, e.g. ore=2")
            key = name.strip()
            if key in out:
                raise InvalidInput(option, key, "each resource at most once")
            field = f"{option} {key}"
            out[key] = (
                parse_integer(number, field)
                if integer
                else parse_number(number, field, f"a number in 0..{MAX_CARD_VALUE}")
            )
    return out


def _as_option(exc: InvalidInput) -> InvalidInput:
    """The library's error, naming the option the user typed instead of the parameter.

    >>> str(_as_option(InvalidInput("values.ore", 1e308, "a number in 0..1000000")))
    '--value ore: 1e+308 is invalid; expected a number in 0..1000000'
    """
    head = re.match(r"[a-z_]+", exc.field)
    option = _OPTIONS.get(head.group(0)) if head else None
    if head is None or option is None:
        return exc
    rest = exc.field[head.end() :]
    field = f"{option} {rest[1:]}" if rest.startswith(".") else option
    said = str(exc)[len(exc.field) + 2 :].removesuffix(f"; expected {exc.expected}")
    return InvalidInput(field, exc.value, exc.expected, problem=said)


def register(sub: argparse._SubParsersAction[Any]) -> None:
    p = sub.add_parser(
        "rally",
        help="cheapest / fastest / affordable car route (Catan car rally)",
        description="Plan a car's route on a Catan board (seed 002; docs/rally.md). "
        "Exit status: 0 route found, 1 no route, nothing affordable or time limit reached, "
        "2 bad input.",
    )
    p.add_argument(
        "--start",
        required=True,
        action=StoreOnce,
        metavar="Q,R",
        help="the car's hex (axial); without --goal or --group, a rim start: a sea hex "
        "on the board's rim next to land",
    )
    p.add_argument(
        "--goal",
        action="append",
        metavar="Q,R",
        help="a goal hex (repeat); default: the land next to the reflected start group "
        "(required when --start is not a rim start)",
    )
    p.add_argument(
        "--group",
        action="append",
        metavar="Q,R",
        help="another sea hex of the start group, for the default goals (repeat; not with --goal)",
    )
    p.add_argument(
        "--road", action="append", metavar="Q,R:Q,R", help="one of the player's own roads (repeat)"
    )
    p.add_argument(
        "--objective",
        action=StoreOnce,
        default="cards",
        choices=OBJECTIVES,
        help="what to minimise: cards paid, turns, expected turns (desert exits are a "
        "gamble), or card values (--value); default %(default)s",
    )
    p.add_argument(
        "--value",
        action="append",
        metavar="RES=X",
        help="card value for --objective weighted, e.g. ore=2,wool=0.5 "
        f"(default 1; each in 0..{MAX_CARD_VALUE})",
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
        help="board JSON file, - for standard input (default: the beginner board)",
    )
    p.add_argument("--json", action="store_true", help="print the answer as one JSON object")
    p.add_argument(
        "--png",
        action=StoreOnce,
        metavar="FILE",
        help="draw the board and the route (.png or .svg)",
    )
    p.add_argument(
        "--time-limit",
        type=seconds_type,
        action=StoreOnce,
        metavar="SEC",
        help=f"seconds allowed for a --budget search (default: {DEFAULT_TIME_LIMIT:g})",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    # SciPy and NetworkX load on first use only: `isles --help` stays quick.
    from isles.solvers.rally import plan_route

    picture = check_output("--png", args.png, (".png", ".svg"))
    if args.time_limit is not None:
        only_with("--time-limit", args.time_limit, args.budget is not None, "--budget")
    board = Board.load(args.board) if args.board is not None else beginner_board()
    start = parse_hex(args.start, "--start")
    goals = [parse_hex(g, "--goal") for g in args.goal] if args.goal else None
    group = [parse_hex(g, "--group") for g in args.group] if args.group else None
    roads = [parse_edge(r, "--road") for r in args.road or []]
    values = _pairs(args.value, "--value", integer=False) if args.value else None
    budget = _pairs(args.budget, "--budget", integer=True) if args.budget else None
    time_limit = None
    if budget is not None:
        time_limit = DEFAULT_TIME_LIMIT if args.time_limit is None else args.time_limit
    try:
        route = plan_route(
            board,
            start,
            goals=goals,
            roads=roads,
            objective=args.objective,
            values=values,
            budget=budget,
            group=group,
            time_limit=time_limit,
        )
    except InvalidInput as exc:
        raise _as_option(exc) from None
    if picture is not None:
        draw_route(board, route, picture)
    if args.json:
        emit_json(route.to_dict())
    else:
        print(format_route(route))
    return 0 if route.status.answered else 1


def format_route(route: Route) -> str:
    """A readable table of the steps and the totals."""
    goals = " ".join(str(g) for g in route.goals)
    lines = [f"Car rally from {route.start} to one of {goals} (objective: {route.objective})"]
    if route.status is Status.UNREACHABLE:
        lines.append("No route: no goal hex can be reached from the start (sea or board edge).")
        return "\n".join(lines)
    if route.status is Status.TIMED_OUT:
        lines.append(
            f"No answer: the budget search reached its time limit of {route.time_limit:g} s "
            "(--time-limit)."
        )
        return "\n".join(lines)
    if route.status is Status.UNAFFORDABLE:
        held = ", ".join(f"{k} {v}" for k, v in (route.budget or {}).items() if v) or "no cards"
        lines.append(
            f"No affordable route with {held}. Closest affordable hex to a goal: "
            f"{route.end}, {route.distance_to_goal} from one (route below)."
        )
    assert route.steps is not None and route.cards is not None
    assert route.expected_turns is not None and route.value is not None
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
        f"Total: {route.total_cards} cards ({per}); {_plural(len(route.steps), 'turn')}; "
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


def draw_route(board: Board, route: Route, path: str | Path) -> Path:
    """Draw ``board``, the player's roads, the goals (outlined) and the route, if any."""
    from isles.draw import board_figure, draw_path, draw_roads, save_figure

    fig, ax = board_figure(
        board, title=f"Car rally: {route.objective}, {route.status}", marked=route.goals
    )
    draw_roads(ax, route.roads)
    draw_path(ax, list(route.path or (route.start,)))
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

    def cheapest(r: Route) -> tuple[int, int, int]:
        assert r.total_cards is not None and r.turns is not None
        return r.total_cards, r.turns, rg.index[r.start]

    def fastest(r: Route) -> tuple[Fraction, int, int]:
        assert r.expected_turns is not None and r.total_cards is not None
        return r.expected_turns, r.total_cards, rg.index[r.start]

    best_overall: tuple[Route, Route] | None = None
    for i in range(len(rim)):
        group = [rim[(i + k) % len(rim)] for k in range(4)]
        goals = default_goals(board, group)
        best = min((plan_route(rg, car, goals=goals) for car in group), key=cheapest)
        fast = min(
            (plan_route(rg, car, goals=goals, objective="expected_turns") for car in group),
            key=fastest,
        )
        echo(
            f"{' '.join(str(h) for h in group):<24}{best.start!s:<10}{best.end!s:<8}"
            f"{best.total_cards:>6}{best.turns:>6}{float(fastest(best)[0]):>9.2f}"
            f"   {float(fastest(fast)[0]):.2f} ({fast.total_cards})"
        )
        if best_overall is None or cheapest(best)[0] < cheapest(best_overall[0])[0]:
            best_overall = (best, fast)
    assert best_overall is not None
    cheap, fast = best_overall
    fig, ax = board_figure(
        board, title="Cheapest rally route (black) and fastest expected (red)", marked=cheap.goals
    )
    draw_path(ax, list(cheap.path or ()))
    draw_path(ax, list(fast.path or ()), colour="#c62828")
    picture = save_figure(fig, out_dir / "rally.png")
    echo(f"Cheapest of all: car on {cheap.start}, {cheap.total_cards} cards; picture: {picture}")
