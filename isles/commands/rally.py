"""``isles rally``: the car rally's best route, as a table, JSON or a picture.

Seed 002_8684547a41c0941c.txt; docs/rally.md. The command reads the question its
options ask (``Trip``, ``Drive`` with ``--income``, ``Race`` with ``--race``), answers
it with :func:`isles.answer` and formats; ``--json`` prints the answer's ``to_dict()``.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

import isles
from isles.cli import StoreOnce, check_output, emit_json
from isles.models.board import Board, beginner_board
from isles.models.contract import Question
from isles.models.errors import InvalidInput
from isles.models.rally.questions import Drive, Race, Trip
from isles.models.rally.towns import towns_board
from isles.models.status import Status
from isles.options import add_questions, read_mode

if TYPE_CHECKING:
    from isles.rally import IncomePlan, RaceResult, Route, StartChoice

ORDER = 10

#: The command's questions, by what asks each (the route planner; --income).
ROUTE_MODE = "a route (without --income or --race)"
INCOME_MODE = "--income"
RACE_MODE = "--race"
MODES: dict[str, type[Question]] = {ROUTE_MODE: Trip, INCOME_MODE: Drive, RACE_MODE: Race}


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Add ``isles rally``: its options are those of the declaration :class:`Trip`."""
    p = sub.add_parser(
        "rally",
        help="cheapest / fastest / affordable car route (Catan car rally)",
        description="Plan a car's route on a Catan board (seed 002; docs/rally.md); with "
        "--income, drive it on the cards its owner's buildings bring in; with --race, race "
        "2 to 4 cars. Exit status: 0 answered, 1 no route, unreachable, nothing affordable "
        "or time limit reached, 2 bad input.",
    )
    add_questions(p, MODES)
    p.add_argument(
        "--income",
        action="store_true",
        help="the rally as it is played: cards come in roll by roll from --player's buildings; "
        "fewest expected turns, P(arrived within t), this turn's advice (docs/rally.md)",
    )
    p.add_argument(
        "--race",
        action="store_true",
        help="2 to 4 cars (--car) under the same rolls, each driven by its own --income "
        "policy: each car's chance of arriving first (exact where the cars' joint chain "
        "fits, else Monte Carlo with 95%% intervals)",
    )
    board = Trip.model_fields["board"]
    p.add_argument(
        "--board",
        action=StoreOnce,
        metavar="FILE",
        help=f"{board.description}; --income and --race need a board file with the "
        "players' buildings",
    )
    p.add_argument("--json", action="store_true", help="print the answer as one JSON object")
    p.add_argument(
        "--png",
        action=StoreOnce,
        metavar="FILE",
        help="draw the board and the route (.png or .svg; not with --income or --race)",
    )
    p.set_defaults(func=run)


def run_income(args: argparse.Namespace, board: Board, typed: dict[str, str]) -> int:
    """``isles rally --income``: plan the drive, print it (text or JSON)."""
    if args.png is not None:
        raise InvalidInput("--png", args.png, "--png only without --income")
    drive = read_mode(MODES, INCOME_MODE, args, {"board": board}, typed)
    assert isinstance(drive, Drive)
    plan: IncomePlan = isles.answer(drive, progress=None)
    if args.json:
        emit_json(plan.to_dict())
    else:
        print(format_income(plan.to_dict()))
    return 0 if plan.status.answered else 1


def run_race(args: argparse.Namespace, board: Board, typed: dict[str, str]) -> int:
    """``isles rally --race``: play the games, print each car's chance (text or JSON)."""
    if args.png is not None:
        raise InvalidInput("--png", args.png, "--png only without --race")
    if args.income:
        raise InvalidInput("--race", "given", "--race or --income, not both", problem="given")
    race = read_mode(MODES, RACE_MODE, args, {"board": board}, typed)
    assert isinstance(race, Race)
    result: RaceResult = isles.answer(race, progress=None)  # a bar on a terminal, after 1 s
    if args.json:
        emit_json(result.to_dict())
    else:
        print(format_race(result.to_dict()))
    return 0 if result.status.answered else 1


def format_race(data: dict[str, Any]) -> str:
    """The text answer of ``--race``: each car's chance of arriving first, its interval."""
    exact = data["method"] == "exact"
    how = (
        f"the cars' joint chain, {data['joint_states']:,} joint states, error below "
        f"{data['error']:.0e}"
        if exact
        else f"{data['games']} games of {data['asked']}, seed {data['seed']}"
    )
    lines = [
        f"status: {data['status']} ({how}; {data['players']} players, trade "
        f"{data['trade']}, 7-card rule {data['discard']})",
        f"{'seat':<6}{'car':<20}{'first':>7}  {'exact ±' if exact else '95% interval':<17}"
        f"{'E[turns] alone':>15}{'mean turns':>12}",
    ]
    for seat, car in enumerate(data["cars"], 1):
        alone = car["expected_turns_alone"]
        mean = car["mean_turns"]
        name = f"{car['player']} {car['start'][0]},{car['start'][1]}"
        if car["first"] is None:  # no game played: the chances are absent, not 0
            first, interval = "-", "-"
        else:
            lo, hi = car["interval"]
            first, interval = f"{car['first']:.3f}", f"{lo:.3f}..{hi:.3f}"
        lines.append(
            f"{seat:<6}{name:<20}{first:>7}  {interval:<17}"
            f"{'never' if alone is None else f'{alone:.2f}':>15}"
            f"{'-' if mean is None else f'{mean:.2f}':>12}"
        )
    if data["no_winner"]:
        lines.append(f"no car arrived within {data['turns']} rounds: {data['no_winner']} games")
    if exact and data["no_winner_chance"] > data["error"]:
        lines.append(
            f"no car arrives within {data['turns']} rounds: {data['no_winner_chance']:.6f}"
        )
    if data["status"] == "timed_out" and not data["games"]:
        lines.append(
            f"no game finished before the time limit of {data['time_limit']:g} s "
            "(--time-limit): no chance to show"
        )
    elif data["status"] == "timed_out":
        lines.append(
            f"stopped by the time limit of {data['time_limit']:g} s (--time-limit): "
            "the figures are those of the games played"
        )
    lines.append(f"tie rule: {data['tie_rule']}")
    for r in data["restrictions"]:
        lines.append(f"restricted: {r['text']}")
    return "\n".join(lines)


def format_income(data: dict[str, Any]) -> str:
    """The text answer of ``--income``: turns, arrival chances, the route beside the cheapest."""

    def path(hexes: list[list[int]]) -> str:
        return " -> ".join(f"{q},{r}" for q, r in hexes)

    turns = data["expected_turns"]
    lines = [
        f"status: {data['status']} ({data['players']} players, trade {data['trade']}, "
        f"7-card rule {data['discard']})",
        "expected turns: " + ("never arrives" if turns is None else f"{turns:.3f}"),
    ]
    if data.get("method") == "full":
        bound = data["error_bound"]
        caps = ",".join(f"{k}={v}" for k, v in (data["card_cap"] or {}).items()) or "-"
        lines.append(
            "policy space: the whole of it (any adjacent hex, trade, reserve, discard; "
            f"{data['states']:,} states, cards held at most {caps})"
        )
        lines.append(
            "error bound: " + ("none certified" if bound is None else f"{bound:.2g} turns")
        )
        lost = data.get("cap_lost")
        if lost is not None and turns is not None:
            lines.append(
                "card caps: the certified policy loses cards to them; its turns are of the "
                "capped game"
                if lost or bound is None
                else "card caps: the certified policy never loses a card to them; at the "
                f"table the fewest expected turns are at most {turns + bound:.3f}"
            )
    else:
        lines.append(
            f"policy space: committed routes, restricted as below ({data['states']:,} states)"
        )
    cheap = data["cheapest_cards_route"]
    # Unreachable: no route and no advice, said in words rather than left blank.
    lines.append(
        "route of this plan: "
        + (path(data["route"]) if data["route"] else "none (no goal is reached on this income)")
    )
    if cheap is None:
        lines.append("route cheapest in cards: -")
    else:
        other = cheap["expected_turns"]
        lines.append(
            f"route cheapest in cards: {path(cheap['path'])} ({cheap['total_cards']} cards, "
            + ("never arrives" if other is None else f"{other:.3f} expected turns")
            + ")"
        )
    last = data["within"][-1]["turns"] if data["within"] else 0
    milestones = (1, 5, 10, 15, 20, 30, 50, 100, 200, last)
    shown = [w for w in data["within"] if w["turns"] in milestones]
    lines.append(
        "P(arrived within t): "
        + ", ".join(f"t={w['turns']}: {_chance(w['probability'])}" for w in shown)
    )
    lines.append(
        "turn 1, by the roll: move / reserve / trades"
        if data["first_turn"]
        else "turn 1, by the roll: no advice (the car never arrives)"
    )
    for a in data["first_turn"]:
        move = "wait" if a["move"] is None else f"move to {a['move'][0]},{a['move'][1]}"
        trades = ", ".join(f"{t['cards']} {t['give']} -> {t['take']}" for t in a["trades"])
        reserve = ",".join(f"{k}={v}" for k, v in a["reserve"].items()) or "-"
        lines.append(
            f"  roll {a['roll']:>2}: {move}; reserve {reserve}" + (f"; {trades}" if trades else "")
        )
    for r in data["restrictions"]:
        lines.append(f"restricted: {r['text']}")
    return "\n".join(lines)


def _load_board(path: str) -> Board:
    """The board file of ``--board``; a file that cannot be read is refused naming ``--board``."""
    try:
        return Board.load(path)
    except InvalidInput as exc:
        if exc.field != "board file":  # the file's content: the field at fault is named
            raise
        raise InvalidInput("--board", path, exc.expected, problem=exc.problem) from None


def run(args: argparse.Namespace) -> int:
    """Read the trip the options ask, plan it, print it."""
    # The catalogue (SciPy, NetworkX, numba) loads on first use only: `isles --help` stays quick.
    from isles.rally import StartChoice

    picture = check_output("--png", args.png, (".png", ".svg"))
    board = _load_board(args.board) if args.board is not None else beginner_board()
    if picture is not None:  # a board too big to draw is refused before any search
        from isles.draw import check_drawable

        check_drawable(board, "--png", args.png)
    typed = {} if args.board is None else {"board": args.board}
    if args.race:
        return run_race(args, board, typed)
    if args.income:
        return run_income(args, board, typed)
    trip = read_mode(MODES, ROUTE_MODE, args, {"board": board}, typed)
    assert isinstance(trip, Trip)
    # A bar (a budget search's seconds, the start groups) on a terminal once the search
    # has taken a second; never in a pipe.
    answer = isles.answer(trip, progress=None)
    if isinstance(answer, StartChoice):
        if picture is not None:
            draw_choice(board, answer, picture)
        if args.json:
            emit_json(answer.to_dict())
        else:
            print(format_choice(answer))
        return 0 if answer.status.answered else 1
    route = answer
    if picture is not None:
        draw_route(board, route, picture)
    if args.json:
        emit_json(route.to_dict())
    else:
        print(format_route(route))
    return 0 if route.status.answered else 1


def format_choice(choice: StartChoice) -> str:
    """A readable table of the start groups, then the best route's steps."""
    names = [" ".join(str(h) for h in plan.group) for plan in choice.groups]
    width = max([26, *map(len, names)]) + 2
    hex_width = max([10, *(len(str(h)) + 2 for plan in choice.groups for h in plan.group)])
    lines = [
        f"Car rally: the best car of each start group (objective: {choice.objective})",
        f"{'group':<{width}}{'best car':<{hex_width}}{'end':<{hex_width}}{'cards':>6}"
        f"{'turns':>6}{'E[turns]':>9}" + ("  value" if choice.objective == "weighted" else ""),
    ]
    for i, (plan, group) in enumerate(zip(choice.groups, names, strict=True)):
        route = plan.route
        mark = " *" if i == choice.best else ""
        if route.path is None or route.expected_turns is None:
            lines.append(f"{group:<{width}}{'':<{hex_width}}{route.status!s}{mark}")
            continue
        weighted = choice.objective == "weighted" and route.value is not None
        value = f"  {float(route.value or 0):g}" if weighted else ""
        short = "" if route.reached else f"  {route.status}: {route.distance_to_goal} from a goal"
        lines.append(
            f"{group:<{width}}{route.start!s:<{hex_width}}{route.end!s:<{hex_width}}"
            f"{route.total_cards:>6}{route.turns:>6}{float(route.expected_turns):>9.2f}"
            f"{value}{mark}{short}"
        )
    best = choice.route
    if choice.status is Status.TIMED_OUT:
        lines.append(
            f"No answer: the search reached its time limit of {choice.time_limit:g} s "
            "(--time-limit); the groups above were done."
        )
    elif best is None:
        lines.append("No route: no car of any group can reach its goals (sea or board edge).")
    else:
        assert choice.group is not None
        lines.append(
            f"Best start: {best.start}, of the group {' '.join(str(h) for h in choice.group)} "
            "(* above). Its route:"
        )
        lines.append(format_route(best))
    return "\n".join(lines)


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
    # the columns as wide as their widest entry: a hex far out (150,-10) stays apart
    at = max([7, *(len(str(st.hex)) + 1 for st in route.steps)])
    count = max(3, len(str(len(route.steps))))
    lines.append(
        f"{'#':>{count}}  {'hex':<{at}}{'terrain':<11}{'token':>5}  {'paid':<14}{'road':<6}"
        f"{'exit odds':<10}{'E[turns]':>8}"
    )
    for i, s in enumerate(route.steps, 1):
        number = "" if s.number is None else str(s.number)
        paid = f"{s.cards} {s.resource.value if s.resource else 'any'}" if s.cards else "free"
        odds = "" if s.exit_probability is None else f"{s.exit_probability} "
        lines.append(
            f"{i:>{count}}  {s.hex!s:<{at}}{s.terrain.value:<11}{number:>5}  {paid:<14}"
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


def _chance(p: float) -> str:
    """``p`` to three decimals, but never a nonzero chance shown as 0.000 or a short one as 1.000.

    >>> _chance(0.25), _chance(0.00024), _chance(0.0), _chance(1 - 2e-15), _chance(1.0)
    ('0.250', '2.4e-04', '0.000', '1 - 2.0e-15', '1.000')
    """
    if 0.0 < p < 0.0005:
        return f"{p:.1e}"
    if 0.9995 <= p < 1.0:
        return f"1 - {1.0 - p:.1e}"
    return f"{p:.3f}"


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


def draw_choice(board: Board, choice: StartChoice, path: str | Path) -> Path:
    """Draw ``board`` and the best start's route, its goals outlined (the board alone
    when there is no best route)."""
    from isles.draw import board_figure, draw_path, draw_roads, save_figure

    route = choice.route
    fig, ax = board_figure(
        board,
        title=f"Car rally, best start: {choice.objective}, {choice.status}",
        marked=route.goals if route is not None else (),
    )
    if route is not None:
        draw_roads(ax, route.roads)
        draw_path(ax, list(route.path or (route.start,)))
    return save_figure(fig, path)


def demo(out_dir: Path, echo: Callable[[str], None]) -> None:
    """``isles demo`` section: the rally on the beginner board, then on a base board laid
    by ``isles layout --game base`` (fairest pips, proven optimal)."""
    from isles.layout import base_board

    rally_on_board(beginner_board(), "beginner board", out_dir / "rally.png", echo)
    laid = base_board(time_limit=20)
    if laid.board is None:  # pragma: no cover - the base island is always solvable
        echo(f"The base board could not be laid ({laid.status.value}).")
        return
    echo("")
    rally_on_board(
        laid.board,
        f"a base board laid by isles layout --game base ({laid.status.value})",
        out_dir / "rally-base.png",
        echo,
    )
    echo("")
    race_demo(out_dir / "rally-race.png", echo)


#: The goals of the demo's exact race: the land next to each car's start.
DEMO_NEAR = [(0, -2), (0, 2)]
#: The demo's cars: each from its rim start to the centre hex.
DEMO_CARS: list[dict[str, Any]] = [
    {"player": "red", "start": (0, -3), "goals": [(0, 0)]},
    {"player": "blue", "start": (0, 3), "goals": [(0, 0)]},
]


def race_demo(picture_path: Path, echo: Callable[[str], None], games: int = 4000) -> Path:
    """The demo's rally as it is played: red's plan alone, then red against blue.

    Both on the beginner board with two settlements each
    (:func:`isles.models.rally.towns.towns_board`), 4 players, no trades, to the
    centre hex; the picture is each car's P(arrived within t), alone (exact) and
    in the race (Monte Carlo).
    """
    from isles.rally import plan_income, race_cars

    board = towns_board()
    horizon = 120
    alone = [
        plan_income(board, c["player"], c["start"], c["goals"], trade="none", within=horizon)
        for c in DEMO_CARS
    ]
    red = alone[0]
    echo("== Car rally as it is played (seed 002): cards from income, beginner board ==")
    echo(
        "red's two settlements, 4 players, no trades, 7-card rule on, from 0,-3 to 0,0: "
        f"{red.expected_turns or 0:.2f} expected turns ({red.status}), route "
        + " -> ".join(str(h) for h in red.route)
    )
    for advice in red.first_turn:
        if advice.roll in (6, 7, 8):
            move = "wait" if advice.move is None else f"move to {advice.move}"
            held = ",".join(f"{k}={v}" for k, v in advice.reserve.items()) or "-"
            echo(f"  turn 1, roll {advice.roll:>2}: {move}; reserve {held}")
    # Past the exact race's bound (docs/rally.md, "The race"): played, not tried first.
    race = race_cars(
        board, DEMO_CARS, trade="none", method="monte_carlo", games=games, seed=0, turns=horizon
    )
    echo(f"A race to 0,0, red seated first, blue from 0,3 ({race.games} games, seed 0):")
    for car in race.cars:
        chance = "no game finished before the time limit"
        if car.first is not None and car.interval is not None:
            lo, hi = car.interval
            chance = f"first {car.first:.3f} (95% {lo:.3f}..{hi:.3f})"
        echo(f"  {car.player:<5} {chance}; {car.plan.expected_turns or 0:.2f} expected turns alone")
    near = [{**car, "goals": [goal]} for car, goal in zip(DEMO_CARS, DEMO_NEAR, strict=True)]
    exact = race_cars(board, near, trade="none", turns=horizon)
    echo(
        f"The same cars to the land next to their starts ({exact.status}, the cars' joint "
        f"chain of {exact.joint_states or 0:,} states): "
        + ", ".join(f"{c.player} first {c.first:.6f}" for c in exact.cars)
    )
    picture = draw_arrivals(alone, race, picture_path)
    echo(f"P(arrived within t), alone and in the race: {picture}")
    return picture


def draw_arrivals(alone: list[IncomePlan], race: RaceResult, path: str | Path) -> Path:
    """Each car's P(arrived within t): alone (exact, solid) and in the race (Monte Carlo,
    dashed), one colour per car."""
    import matplotlib.pyplot as plt

    from isles.draw import save_figure

    fig, ax = plt.subplots(figsize=(7, 4.2))
    colours = {"red": "#c62828", "blue": "#1565c0"}
    for plan, car in zip(alone, race.cars, strict=True):
        colour = colours.get(car.player)
        turns = range(1, len(plan.within) + 1)
        ax.plot(turns, plan.within, color=colour, label=f"{car.player} alone (exact)")
        if car.first is None:  # no game played before the time limit: nothing to draw
            continue
        shown = [p for p in car.within[: len(plan.within)] if p is not None]
        ax.plot(
            range(1, len(shown) + 1),
            shown,
            color=colour,
            linestyle="--",
            label=f"{car.player} in the race (first {car.first:.2f})",
        )
    ax.set_xlabel("turns t")
    ax.set_ylabel("P(arrived within t)")
    ax.set_ylim(0, 1.02)
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right", fontsize=8)
    ax.set_title("Car rally as it is played: arrival by turn (beginner board, no trades)")
    return save_figure(fig, path)


def rally_on_board(
    board: Board, name: str, picture_path: Path, echo: Callable[[str], None]
) -> Path:
    """The demo's rally on any board: the best car of each start group, cheapest and
    fastest, and a picture of the cheapest route of all at ``picture_path``."""
    from isles.draw import board_figure, draw_path, save_figure
    from isles.rally import choose_start

    cheap_choice = choose_start(board)
    fast_choice = choose_start(board, objective="expected_turns")
    echo(f"== Car rally (seed 002): best car of each start group, {name} ==")
    echo(
        f"{'group':<28}{'best car':<10}{'goal':<8}{'cards':>6}{'turns':>6}{'E[turns]':>9}"
        f"   fastest E[turns] (cards)"
    )
    for cheap, fast in zip(cheap_choice.groups, fast_choice.groups, strict=True):
        c, f = cheap.route, fast.route
        if not (c.reached and f.reached):
            echo(f"{' '.join(str(h) for h in cheap.group):<28}{c.status}")
            continue
        assert c.expected_turns is not None and f.expected_turns is not None
        echo(
            f"{' '.join(str(h) for h in cheap.group):<28}{c.start!s:<10}{c.end!s:<8}"
            f"{c.total_cards:>6}{c.turns:>6}{float(c.expected_turns):>9.2f}"
            f"   {float(f.expected_turns):.2f} ({f.total_cards})"
        )
    cheapest, fastest = cheap_choice.route, fast_choice.route
    if cheapest is None or fastest is None:
        echo(f"No car reaches its goals on this board ({cheap_choice.status}).")
        return save_figure(board_figure(board, title="Car rally: no route")[0], picture_path)
    fig, ax = board_figure(
        board,
        title="Cheapest rally route (black) and fastest expected (red)",
        marked=cheapest.goals,
    )
    draw_path(ax, list(cheapest.path or ()))
    draw_path(ax, list(fastest.path or ()), colour="#c62828")
    picture = save_figure(fig, picture_path)
    echo(
        f"Cheapest of all: car on {cheapest.start}, {cheapest.total_cards} cards; "
        f"fastest: car on {fastest.start}, {float(fastest.expected_turns or 0):.2f} expected "
        f"turns; picture: {picture}"
    )
    return picture
