"""The car rally's question: a car's route, or the best start of every group.

Implements docs/rally.md ("Objectives", "Card values and budgets", "Start
groups and goals"; seed 002_8684547a41c0941c.txt). One declaration serves
``plan_route`` (a car's hex given) and ``choose_start`` (no hex: the best
start of each start group), ``isles rally`` and the web app's planner.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Annotated, Any, Literal, Self

from pydantic import PlainValidator, model_validator

from isles.models.board import Board
from isles.models.catan import Resource
from isles.models.contract import (
    EdgeValue,
    Given,
    HexValue,
    Is,
    Missing,
    NotWith,
    OnlyWith,
    Question,
    param,
)
from isles.models.errors import InvalidInput, json_text
from isles.models.hexgrid import Hex, as_hex, parse_hex
from isles.models.rally.rim import is_rim_start, no_default_goals
from isles.models.rally.rules import (
    CARD_COUNT,
    MAX_CARD_VALUE,
    MAX_CARDS,
    Objective,
    TradeMode,
    card_values,
    spending_budget,
)

__all__ = ["DEFAULT_TIME_LIMIT", "MAX_JOINT_STATES", "Car", "Drive", "Race", "Trip"]

DEFAULT_TIME_LIMIT = 60.0
"""Seconds a budget search, or the search for the best start, may take by default."""


def _mapping(value: object, what: str) -> Mapping[Any, Any]:
    if not isinstance(value, Mapping):
        raise InvalidInput("", value, what)
    return value


def _values(value: object) -> dict[Resource, Fraction]:
    return card_values(_mapping(value, "a mapping of resource to card value"), "")


def _budget(value: object) -> dict[Resource, int]:
    return spending_budget(_mapping(value, "a mapping of resource to cards"), "")


def _board(value: object) -> Any:
    if isinstance(value, Board) or isinstance(getattr(value, "board", None), Board):
        return value  # a Board, or a graph built from one (isles.solvers.rally.graph.RallyGraph)
    if isinstance(value, Mapping):  # a board as JSON (the web app's requests)
        return Board.from_dict(value)
    raise InvalidInput("", value, "a Board (Board.load reads a board file) or its JSON")


#: The board: a :class:`Board`, a graph built from one, or the board's JSON.
BoardValue = Annotated[Any, PlainValidator(_board)]
#: Card values, read exactly (``0.1`` is ``1/10``); resources not named are worth 1.
CardValues = Annotated[dict[Resource, Fraction], PlainValidator(_values)]
#: Cards a player can spend per resource (hand plus fuel reserve).
Budget = Annotated[dict[Resource, int], PlainValidator(_budget)]


class Trip(Question):
    """A car's best route from its hex, or (no hex) the best start of each group.

    Examples
    --------
    >>> from isles.models.board import beginner_board
    >>> board = beginner_board()
    >>> trip = Trip.read({"board": board, "start": (0, -3), "objective": "weighted",
    ...                   "values": {"ore": 2}})
    >>> trip.values[Resource.ORE]
    Fraction(2, 1)
    >>> Trip.read({"board": board, "values": {"ore": 2}}, spelling="option")
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: --value: given; expected --value only with --objective ...
    """

    board: BoardValue = param(
        help="board JSON file, - for standard input (default: the beginner board)",
        metavar="FILE",
        cli=False,
        expected="a Board (Board.load reads a board file), or a board's JSON",
    )
    start: HexValue | None = param(
        None,
        help="the car's hex (axial); without --goal or --group, a rim start: a sea hex on "
        "the board's rim next to land. Without it: the best start, from every start group "
        "on the board's rim",
        metavar="Q,R",
    )
    goals: list[HexValue] | None = param(
        None,
        help="a goal hex (repeat; only with --start); default: the land next to the rim "
        "starts opposite the start group (required when --start is not a rim start)",
        option="--goal",
        metavar="Q,R",
        repeat=True,
    )
    group: list[HexValue] | None = param(
        None,
        help="a sea hex of the start group, for the default goals (repeat; not with --goal); "
        "without --start: the best start of this group",
        metavar="Q,R",
        repeat=True,
    )
    roads: list[EdgeValue] = param(
        [],
        help="one of the player's own roads (repeat)",
        option="--road",
        metavar="Q,R:Q,R",
        repeat=True,
    )
    player: str | None = param(
        None,
        help="plan for this player of the board file: their roads on the board are their own",
        metavar="NAME",
    )
    objective: Objective = param(
        "cards",
        help="what to minimise: cards paid, turns, expected turns (desert exits are a "
        "gamble), or card values (--value)",
    )
    values: CardValues | None = param(
        None,
        help="card value for --objective weighted, e.g. ore=2,wool=0.5 "
        f"(default 1; each in 0..{MAX_CARD_VALUE})",
        option="--value",
        metavar="RES=X",
        repeat=True,
        text="pairs",
        item=f"a number in 0..{MAX_CARD_VALUE}",
    )
    budget: Budget | None = param(
        None,
        help="cards the player can spend (hand + reserve), e.g. lumber=3,ore=2",
        metavar="RES=N",
        repeat=True,
        text="counts",
        item=CARD_COUNT,
    )
    time_limit: float = param(
        DEFAULT_TIME_LIMIT,
        help="seconds allowed for a --budget search, or without --start for the whole search",
        metavar="SEC",
        gt=0,
        finite=True,
    )

    together = (
        OnlyWith("goals", Given("start")),
        NotWith("goals", "group"),
        OnlyWith("values", Is("objective", ("weighted",))),
        OnlyWith("time_limit", Given("budget"), Missing("start")),
    )

    @model_validator(mode="after")
    def _on_the_board(self) -> Self:
        """The start, goals and group on the board, checked before any plan is made (the
        web app refuses them with the request): a goal on land, a group of sea hexes, and
        a start without goals or group a rim start, as only it has default goals
        (docs/rally.md, "Start groups and goals")."""
        board = self.board if isinstance(self.board, Board) else self.board.board
        if self.start is not None and self.start not in board:
            raise InvalidInput("start", str(self.start), "a hex on the board")
        for i, h in enumerate(self.goals or ()):
            if h not in board:
                raise InvalidInput(f"goals[{i}]", str(h), "a hex on the board")
            if not board.terrain(h).is_land:
                raise InvalidInput(f"goals[{i}]", str(h), "a land hex (cars never enter the sea)")
        if self.goals is not None and not self.goals:
            raise InvalidInput("goals", [], "at least one goal hex")
        for i, h in enumerate(self.group or ()):
            if h not in board or board.terrain(h).is_land:
                raise InvalidInput(f"group[{i}]", str(h), "a sea hex on the board (a start)")
        if self.group is not None and not self.group:
            raise InvalidInput("group", [], "at least one sea hex")
        if self.start is None or self.goals is not None or self.group is not None:
            return self
        if not is_rim_start(board, self.start):
            raise no_default_goals(group=True)
        return self


Switch = Literal["on", "off"]
#: How a race's chances are found (docs/rally.md, "The race").
RaceMethod = Literal["auto", "exact", "monte_carlo"]
#: Joint states (every car's hex and cards, the seat to roll) the exact race may enumerate.
MAX_JOINT_STATES = 100_000
#: How ``--income`` searches (docs/rally.md, "The whole policy space"): the whole policy
#: space where its states fit (auto), one committed route (route), or the whole space only.
IncomeMethod = Literal["auto", "route", "full"]
#: States (hex, hand, reserve) of the whole policy space ``--income`` solves at most.
MAX_FULL_STATES = 150_000


class AtTheTable(Question):
    """The table a car is driven at: how many play, which trades, the 7-card rule.

    Declared once for :class:`Drive` and :class:`Race` (docs/rally.md, "The
    rally as it is played").

    Examples
    --------
    >>> sorted(AtTheTable.model_fields)
    ['discard', 'players', 'trade']
    """

    players: int = param(
        4, help="players at the table: rolls between two turns", metavar="P", ge=3, le=6
    )
    trade: TradeMode = param("bank", help="trades allowed: none, the bank 4:1, or harbours too")
    discard: Switch = param("on", help="the 7-card rule on a 7")


class Drive(AtTheTable):
    """A car driven on the cards its owner's buildings bring in, roll by roll (``--income``).

    docs/rally.md, "The rally as it is played". Answered by
    :func:`isles.rally.plan_income`.

    Examples
    --------
    >>> Drive.read({"board": {"hexes": []}, "player": "red", "start": (0, -3),
    ...             "players": 7}, spelling="option")
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: --players: 7 is invalid; expected ...
    """

    board: BoardValue = param(
        help="board JSON file with the player's buildings, - for standard input",
        metavar="FILE",
        cli=False,
        expected="a Board (Board.load reads a board file), or a board's JSON",
    )
    player: str = param(
        help="the car's owner: their buildings bring the cards, their roads halve costs",
        metavar="NAME",
    )
    start: HexValue = param(help="the car's hex (axial)", metavar="Q,R")
    goals: list[HexValue] | None = param(
        None,
        help="a goal hex (repeat); default: the land opposite the start group",
        option="--goal",
        metavar="Q,R",
        repeat=True,
    )
    hand: Budget | None = param(
        None,
        help="cards in hand at the start, e.g. ore=2",
        metavar="RES=N",
        repeat=True,
        text="counts",
        item=CARD_COUNT,
    )
    reserve: Budget | None = param(
        None,
        help="cards in the fuel reserve at the start",
        metavar="RES=N",
        repeat=True,
        text="counts",
        item=CARD_COUNT,
    )
    within: int = param(
        20,
        help="turns T of the arrival chances P(arrived within t), t = 1..T",
        metavar="T",
        ge=1,
        le=200,
    )
    method: IncomeMethod = param(
        "auto",
        help="the policy space: the whole of it (any hex, trade, reserve, discard) where it "
        f"has at most {MAX_FULL_STATES} states, else routes committed to (auto); "
        "committed routes only (route); the whole space only (full)",
    )

    @model_validator(mode="after")
    def _on_the_board(self) -> Self:
        """The owner, start and goals on the board, checked before any plan is made."""
        board = self.board if isinstance(self.board, Board) else self.board.board
        board.check_player(self.player, "player")
        _check_route(board, self.start, self.goals, {})
        # Hand and reserve come from one bank: of each resource at most MAX_CARDS in all.
        hand, reserve = self.hand or {}, self.reserve or {}
        for resource, count in reserve.items():
            held = hand.get(resource, 0)
            if held + count > MAX_CARDS:
                raise InvalidInput(
                    f"reserve.{resource.value}",
                    count,
                    f"at most {MAX_CARDS - held} with {held} {resource.value} in hand "
                    f"(the bank holds {MAX_CARDS} cards of each resource, hand and reserve "
                    "together)",
                )
        return self


@dataclass(frozen=True)
class Car:
    """One car of a race: its owner, its hex, its goals (None: the land opposite).

    Examples
    --------
    >>> read_car("red:0,-3")
    Car(player='red', start=Hex(q=0, r=-3), goals=None, text='red:0,-3')
    >>> read_car("red:0,-3:0,0:1,-1").goals
    (Hex(q=0, r=0), Hex(q=1, r=-1))
    """

    player: str
    start: Hex
    goals: tuple[Hex, ...] | None
    text: str
    #: The car as the request sent it (``{"player", "start", "goals"?}``), or None
    #: when typed: errors about a sent car name its key and show the value sent.
    sent: Mapping[str, Any] | None = field(default=None, repr=False, compare=False)


#: The keys of a car sent as an object (the web app): ``goals`` may be left out.
CAR_KEYS = ("player", "start", "goals")

#: How a car is typed (``--car``): its owner, its start, then its goals if not the default.
CAR_SPELLING = "PLAYER:Q,R or PLAYER:Q,R:GOAL_Q,GOAL_R[:...], e.g. red:0,-3 or red:0,-3:0,0"


def read_car(value: object) -> Car:
    """A car typed ``PLAYER:Q,R[:Q,R...]`` (start, then goals), or a mapping.

    The mapping is ``{"player", "start", "goals"?}``; without goals the car
    heads for the land opposite its start group (docs/rally.md, "The race").
    """
    if isinstance(value, Car):
        return value
    if isinstance(value, str):
        player, *hexes = value.split(":")
        if not hexes or not player.strip():
            raise InvalidInput("", value, CAR_SPELLING)
        try:
            start, *ends = (parse_hex(h, "") for h in hexes)
        except InvalidInput:
            raise InvalidInput("", value, CAR_SPELLING) from None
        return Car(player.strip(), start, tuple(ends) if ends else None, value)
    if isinstance(value, Mapping):
        for key in value:
            if key not in CAR_KEYS:
                raise InvalidInput(
                    str(key),
                    key,
                    "only the keys " + ", ".join(CAR_KEYS),
                    problem=f"unknown key {json_text(key)}",
                )
        name = value.get("player")
        if not isinstance(name, str) or not name:
            raise InvalidInput("player", name, "a player's name")
        if "start" not in value:
            raise InvalidInput("start", None, "the car's hex [q, r]")
        start = as_hex(value["start"], "start")
        goals = value.get("goals")
        if goals is not None:
            if isinstance(goals, str | bytes | Mapping) or not hasattr(goals, "__iter__"):
                raise InvalidInput("goals", goals, "a list of goal hexes")
            goals = tuple(as_hex(g, f"goals[{i}]") for i, g in enumerate(goals))
        return Car(name, start, goals, f"{name}:{start.q},{start.r}", dict(value))
    raise InvalidInput(
        "", value, 'PLAYER:Q,R, or {"player": NAME, "start": [q, r], "goals": [[q, r], ...]}'
    )


def _cars(value: object) -> list[Car]:
    if isinstance(value, str | bytes | Mapping) or not hasattr(value, "__iter__"):
        raise InvalidInput("", value, "2 to 4 cars")
    out = []
    for i, item in enumerate(value):
        try:
            out.append(read_car(item))
        except InvalidInput as exc:
            path = f"[{i}]" + (f".{exc.field}" if exc.field else "")
            raise InvalidInput(path, exc.value, exc.expected, problem=exc.problem) from None
    if not 2 <= len(out) <= 4:
        # each car as it was given: its typed text, or the JSON the page sent
        texts = [c.text if c.sent is None else json_text(c.sent) for c in out]
        listed = ", ".join(texts[:5]) + (", ..." if len(texts) > 5 else "")
        said = f"{len(texts)} car{'' if len(texts) == 1 else 's'} given ({listed})"
        raise InvalidInput("", list(value), "2 to 4 cars, one per player", problem=said)
    return out


#: The cars of a race, in seat order.
Cars = Annotated[list[Car], PlainValidator(_cars)]


class Race(AtTheTable):
    """Two to four cars under the same rolls: who arrives first (``--race``)?

    docs/rally.md, "The race". Answered by :func:`isles.rally.race_cars`.

    Examples
    --------
    >>> Race.read({"board": {"hexes": []}, "cars": ["red:0,-3"]}, spelling="option")
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: --car: 1 car given (red:0,-3); expected 2 to 4 cars, ...
    """

    board: BoardValue = param(
        help="board JSON file with the players' buildings, - for standard input",
        metavar="FILE",
        cli=False,
        expected="a Board (Board.load reads a board file), or a board's JSON",
    )
    cars: Cars = param(
        help="a car: its owner (a player of the board file), its hex, then its goal hexes "
        "(default: the land opposite its start group), e.g. red:0,-3:0,0; repeat, 2 to 4, "
        "in seat order",
        option="--car",
        metavar="PLAYER:Q,R[:GOAL...]",
        repeat=True,
        text="name",
    )
    method: RaceMethod = param(
        "auto",
        help="how the chances are found: the cars' exact joint chain where it has at most "
        f"{MAX_JOINT_STATES} states, else Monte Carlo (auto); exact only; or Monte Carlo",
    )
    games: int = param(10_000, help="games played (Monte Carlo)", metavar="N", ge=1, le=1_000_000)
    seed: int = param(0, help="the random seed (the same seed, the same answer)", metavar="S", ge=0)
    turns: int = param(200, help="rounds a game lasts at most", metavar="T", ge=1, le=1000)
    time_limit: float = param(
        DEFAULT_TIME_LIMIT,
        help="seconds for the games: those played by then are the answer",
        metavar="SEC",
        gt=0,
        finite=True,
    )

    @model_validator(mode="after")
    def _cars_on_the_board(self) -> Self:
        """Each car on the board: its owner, start and goals, checked before any job.

        A car sent as an object is named by its key (``cars[0].goals[0]``) with
        the value sent; a typed car (``--car``) by its text.
        """
        board = self.board if isinstance(self.board, Board) else self.board.board
        if self.players < len(self.cars):
            raise InvalidInput(
                "players",
                self.players,
                f"at least the cars' number ({len(self.cars)}): each car is a player",
            )
        owners: dict[str, int] = {}
        for i, car in enumerate(self.cars):
            try:
                player = board.check_player(car.player, "player")
                if player in owners:
                    raise InvalidInput(
                        "player",
                        car.player,
                        f"one car per player (car {owners[player] + 1} is {player}'s)",
                    )
                owners[player] = i
                _check_car(board, car)
            except InvalidInput as exc:
                if car.sent is None and exc.field == "player":  # typed: the name at fault
                    raise InvalidInput(f"cars[{i}]", exc.value, exc.expected) from None
                if car.sent is None:  # typed: the car's text, the part at fault in the words
                    said = (
                        exc.expected if exc.problem is None else f"{exc.expected} ({exc.problem})"
                    )
                    part = exc.field  # the part in the car's own words, not the keys of a request
                    if part.startswith("goals[") or part == "start":
                        part = f"{'start' if part == 'start' else 'goal'} {exc.value}"
                    raise InvalidInput(f"cars[{i}]", car.text, f"{part}: {said}") from None
                raise InvalidInput(
                    f"cars[{i}].{exc.field}", exc.value, exc.expected, problem=exc.problem
                ) from None
        return self


def _check_car(board: Board, car: Car) -> None:
    """A car's start and goals on ``board``, named by the car's keys, the values as sent."""
    _check_route(board, car.start, car.goals, car.sent or {})


def _check_route(
    board: Board, start: Hex, goals: Sequence[Hex] | None, sent: Mapping[str, Any]
) -> None:
    """A car's start and goals on ``board`` (``sent``: the values as the request gave them)."""
    if start not in board:
        raise InvalidInput("start", sent.get("start", str(start)), "a hex of the board")
    if goals is None:
        if not is_rim_start(board, start):
            raise no_default_goals()
        return
    if not goals:
        raise InvalidInput("goals", [], "at least one goal hex", problem="empty")
    for j, goal in enumerate(goals):
        shown = sent["goals"][j] if isinstance(sent.get("goals"), Sequence) else str(goal)
        if goal not in board or not board.tiles[goal].terrain.is_land:
            raise InvalidInput(f"goals[{j}]", shown, "a land hex of the board")
        if goal == start:
            raise InvalidInput(f"goals[{j}]", shown, "a hex other than the car's start")


#: This game's questions, by name (gathered by isles.models.questions.questions()).
QUESTIONS: dict[str, type[Question]] = {
    "trip": Trip,
    "drive": Drive,
    "race": Race,
}
