"""How much cargo does a ship pick up on its way to a target within R rolls
(``isles ships harvest``), and how much per roll on one edge?

Implements docs/ships.md ("Harvest on a course"; seed 004_644cf972d8964df4.txt, rules 4,
6 and 7): the exact distribution of the cargo of a ship steered to a target, with the
conditions of rule 7 read from the board's buildings and roads; the answer to
:class:`Harvest` (:func:`answer_harvest`) and its keyword form :func:`harvest_course`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from isles.models.board import Board
from isles.models.catan import Resource, Terrain, roll_probability
from isles.models.hexgrid import CornerLike, Edge, EdgeLike, Vertex
from isles.models.jsonio import corner_json, edge_json, probability_json
from isles.models.ships.limits import CARGO_LIMIT, ROLLS
from isles.models.ships.questions import Harvest
from isles.models.ships.settlements import building_owners, harvest, harvest_rolls
from isles.models.ships.winds import check_ship_edge
from isles.models.status import Status
from isles.solvers.ships.graph import ROLL_INDEX, ROLL_PIPS, WindGraph, target_edges, wind_graph
from isles.solvers.ships.navigation import Navigation, navigate
from isles.solvers.work import Bar, Progress

__all__ = ["HarvestOutlook", "answer_harvest", "expected_harvest", "harvest_course"]


@dataclass(frozen=True)
class HarvestOutlook:
    """The cargo of a ship after R rolls on its course to a target (exact).

    Attributes
    ----------
    status : Status
        ``EXACT``.
    start : Edge
    targets : tuple of Edge
        Where the course ends (the ship unloads or waits there: its cargo is
        counted as it arrives).
    near : tuple of Vertex
    player : str
        The ship's owner (rule 7 reads the board's buildings and roads against it).
    rolls : int
    start_cargo : int
        Cards on board at the start, 0..3.
    cargo : tuple of Fraction
        ``cargo[c]`` = chance of holding ``c`` cards after ``rolls`` rolls (or on
        arrival, if sooner), c = 0..3.
    taken : dict of str to Fraction
        Expected cards of each resource taken on board on the way (before any
        goes overboard at the limit of 3); ``any`` for a gold hex's card of the
        owner's choice.
    arrived : Fraction
        Chance of having reached a target within ``rolls`` rolls.
    """

    status: Status
    start: Edge
    targets: tuple[Edge, ...]
    near: tuple[Vertex, ...]
    player: str
    rolls: int
    may_stay: bool
    start_cargo: int
    cargo: tuple[Fraction, ...]
    taken: dict[str, Fraction]
    arrived: Fraction

    @property
    def expected_cargo(self) -> Fraction:
        """Expected cards on board after the rolls (at most 3)."""
        return sum((c * p for c, p in enumerate(self.cargo)), Fraction(0))

    def to_dict(self) -> dict[str, Any]:
        """What ``isles ships harvest --json`` prints: ``status``, ``from``, ``to``, ``near``,
        ``player``, ``rolls``, ``may_stay``, ``start_cargo``, ``expected_cargo`` (and
        ``_exact``), ``cargo`` (``[{"cards", "probability", "probability_exact"}]``),
        ``taken`` (``[{"resource", "expected", "expected_exact"}]``), ``arrived`` (and
        ``_exact``)."""
        return {
            "status": self.status.value,
            "from": edge_json(self.start),
            "to": [edge_json(e) for e in self.targets],
            "near": [corner_json(v) for v in self.near],
            "player": self.player,
            "rolls": self.rolls,
            "may_stay": self.may_stay,
            "start_cargo": self.start_cargo,
            **probability_json("expected_cargo", self.expected_cargo),
            "cargo": [
                {"cards": c, **probability_json("probability", p)} for c, p in enumerate(self.cargo)
            ],
            "taken": [
                {"resource": r, **probability_json("expected", x)} for r, x in self.taken.items()
            ],
            **probability_json("arrived", self.arrived),
        }


def answer_harvest(question: Harvest, *, progress: Progress = None) -> HarvestOutlook:
    """The cargo outlook a validated :class:`~isles.models.ships.questions.Harvest` asks.

    What :func:`isles.ships.harvest_course` and ``isles ships harvest`` answer.
    The course is the navigator's: the steering that reaches the targets in the
    fewest expected rolls (:func:`~isles.solvers.ships.navigation.navigate`). On
    each roll the ship first takes a card if
    :func:`isles.models.ships.settlements.harvest` allows it (the land hex it
    lies along carries the roll; no enemy building touches the hex, no enemy
    road runs along the edge, at most one building around the hex: the board's
    ``buildings`` and ``roads``); a fourth card sends one overboard; then the
    wind moves it. The voyage ends on a target: the cargo is counted there.

    Parameters
    ----------
    question : Harvest
        The course asked, validated.
    progress : bool, None or callable
        A bar over the navigation's rounds and the rolls
        (:data:`isles.solvers.work.Progress`).

    Returns
    -------
    HarvestOutlook

    Raises
    ------
    InvalidInput
        What needs the board: ``start``, ``targets[i]`` or ``near[i]`` not on it, a
        ``player`` it does not name (with the players it names).

    Notes
    -----
    Forward dynamic programming over (edge, cards on board), in integers over
    ``36**t``: exact Fractions. docs/ships.md, "Harvest on a course".

    Examples
    --------
    >>> from isles.models.ships.demo import demo_board
    >>> q = Harvest.ask(board=demo_board(), start=((1, 1), (1, 2)),
    ...                 near=[((0, 2), (0, 3), (1, 2))], player="red", rolls=10)
    >>> out = answer_harvest(q)
    >>> round(float(out.expected_cargo), 4), round(float(out.arrived), 4)
    (0.6474, 0.2084)
    """
    board, player = question.board, question.player
    if board.players():  # a board naming none leaves rule 7 nothing to read against the owner
        board.check_player(player)
    graph = wind_graph(board, question.may_stay)
    start_edge = check_ship_edge(board, question.start, "start")
    corners = tuple(sorted(set(question.near)))
    goal = target_edges(board, question.targets, corners)
    nav = navigate(graph, goal, progress=progress)
    yields = _yields(board, graph, player)
    cargo, taken, arrived = _follow(graph, nav, goal, yields, start_edge, question, progress)
    return HarvestOutlook(
        status=Status.EXACT,
        start=start_edge,
        targets=tuple(sorted(goal)),
        near=corners,
        player=player,
        rolls=question.rolls,
        may_stay=graph.may_stay,
        start_cargo=question.start_cargo,
        cargo=cargo,
        taken=taken,
        arrived=arrived,
    )


def harvest_course(
    board: Board,
    start: EdgeLike,
    targets: Iterable[EdgeLike] = (),
    *,
    near: Iterable[CornerLike] = (),
    player: str,
    rolls: int,
    start_cargo: int = 0,
    may_stay: bool = False,
    progress: Progress = None,
) -> HarvestOutlook:
    """The exact cargo of a ship steered to the targets, after ``rolls`` rolls (seed rule 7).

    The course is the navigator's: the steering that reaches the targets in the
    fewest expected rolls (:func:`isles.solvers.ships.navigation.navigate`). On each roll
    the ship first takes a card if :func:`isles.models.ships.settlements.harvest` allows it
    (the land hex it lies along carries the roll; no enemy building touches the
    hex, no enemy road runs along the edge, at most one building around the
    hex: the board's ``buildings`` and ``roads``); a fourth card sends one
    overboard; then the wind moves it. The voyage ends on a target: the cargo is
    counted there.

    Parameters
    ----------
    board : Board
        The board, with the players' buildings and roads (docs/boards.md).
    start : Edge
    targets, near
        As :func:`isles.ships.sail`.
    player : str
        The ship's owner, one of ``board.players()`` (spelt as the board file
        does); any name on a board that names no player (no buildings, no
        roads: rule 7 then involves no owner).
    rolls : int
        0..MAX_WITHIN.
    start_cargo : int
        Cards on board at the start, 0..3.
    may_stay : bool
        The seed's variant of rule 6.
    progress : bool, None or callable, default None
        A bar over the navigation's rounds and the rolls
        (:data:`isles.solvers.work.Progress`; ``isles ships harvest`` on a terminal).

    Returns
    -------
    HarvestOutlook

    Raises
    ------
    InvalidInput
        Naming the parameter (``start``, ``targets[i]``, ``near[i]``, ``rolls``,
        ``start_cargo``, ``player``: also a player the board does not name, with
        the players it names). The checks of the parameters alone are those of
        the declaration :class:`isles.models.ships.questions.Harvest`.

    Notes
    -----
    Forward dynamic programming over (edge, cards on board), in integers over
    ``36**t``: exact Fractions. docs/ships.md, "Harvest on a course".

    Examples
    --------
    >>> from isles.models.ships.demo import demo_board
    >>> out = harvest_course(demo_board(), ((1, 1), (1, 2)), near=[((0, 2), (0, 3), (1, 2))],
    ...                      player="red", rolls=10)
    >>> round(float(out.expected_cargo), 4), round(float(out.arrived), 4)
    (0.6474, 0.2084)
    """
    question = Harvest.ask(
        board=board,
        start=start,
        targets=targets,
        near=near,
        player=player,
        rolls=rolls,
        start_cargo=start_cargo,
        may_stay=may_stay,
    )
    return answer_harvest(question, progress=progress)


def _yields(board: Board, graph: WindGraph, player: str) -> dict[int, list[str | None]]:
    """What each edge yields the player on each roll: a resource's name, "any" on gold, or None."""
    rolls = harvest_rolls(board, player, building_owners(board), dict(board.roads))
    yields: dict[int, list[str | None]] = {}
    for i, e in enumerate(graph.edges):
        row: list[str | None] = [None] * len(ROLLS)
        got = rolls.get(e)
        if got is not None:
            row[ROLL_INDEX[got[0]]] = _card_name(got[1])
        yields[i] = row
    return yields


def _follow(
    graph: WindGraph,
    nav: Navigation,
    goal: frozenset[Edge],
    yields: dict[int, list[str | None]],
    start: Edge,
    question: Harvest,
    progress: Progress,
) -> tuple[tuple[Fraction, ...], dict[str, Fraction], Fraction]:
    """The cargo distribution, the cards taken and the arrival odds after the rolls asked."""
    rolls, start_cargo = question.rolls, question.start_cargo
    is_goal = [e in goal for e in graph.edges]
    # mass[(edge, cards)] in units of 36**-t; settled[cards] arrived, same units.
    s0 = graph.index[start]
    mass: dict[tuple[int, int], int] = {}
    settled = [0] * (CARGO_LIMIT + 1)
    if is_goal[s0]:
        settled[start_cargo] = 1
    else:
        mass[(s0, start_cargo)] = 1
    taken: dict[str, int] = {}
    with Bar(rolls, "harvest", progress, unit="roll") as bar:
        for _ in range(rolls):
            settled = [x * 36 for x in settled]
            taken = {r: x * 36 for r, x in taken.items()}
            nxt: dict[tuple[int, int], int] = {}
            for (i, cards), m in mass.items():
                for r in range(len(ROLLS)):
                    w = m * ROLL_PIPS[r]
                    card = yields[i][r]
                    held = cards
                    if card is not None:
                        taken[card] = taken.get(card, 0) + w
                        held = min(CARGO_LIMIT, cards + 1)
                    j = int(nav.choice[i, r])
                    if is_goal[j]:
                        settled[held] += w
                    else:
                        nxt[(j, held)] = nxt.get((j, held), 0) + w
            mass = nxt
            bar.update(1)
    denominator = 36**rolls
    cargo = [Fraction(x, denominator) for x in settled]
    arrived = sum(cargo, Fraction(0))
    for (_, cards), m in mass.items():
        cargo[cards] += Fraction(m, denominator)
    spent = {r: Fraction(taken[r], denominator) for r in _CARD_ORDER if r in taken}
    return tuple(cargo), spent, arrived


_CARD_ORDER = [r.value for r in Resource] + ["any"]


def _card_name(got: Terrain) -> str:
    """The card a harvest hands out: the terrain's resource, ``any`` on a gold hex."""
    resource = got.resource
    return "any" if resource is None else resource.value


def expected_harvest(
    board: Board,
    e: Edge,
    player: str,
    buildings: Mapping[Vertex, str] | None = None,
    roads: Mapping[Edge, str] | None = None,
) -> Fraction:
    """Exact expected cards per roll a ship of ``player`` on ``e`` takes on board.

    Sums ``P(n)`` over the rolls ``n`` for which :func:`isles.models.ships.settlements.harvest`
    gives a card (seed rule 7; the cargo limit does not change how many cards
    come in, only which are kept).

    Parameters
    ----------
    board : Board
    e : Edge
        The ship's edge.
    player : str
        The ship's owner.
    buildings : Mapping of Vertex to str, optional
        Corners to owners (settlements and cities alike); none by default.
    roads : Mapping of Edge to str, optional
        Edges to owners; none by default.

    Returns
    -------
    Fraction

    Raises
    ------
    InvalidInput
        If ``e`` is not a ship edge of ``board``.

    Examples
    --------
    >>> from isles.models.hexgrid import edge
    >>> from isles.models.ships.demo import demo_board
    >>> expected_harvest(demo_board(), edge((0, 2), (0, 3)), "red")  # hills 5
    Fraction(1, 9)
    """
    e = check_ship_edge(board, e)
    owned = {} if buildings is None else buildings
    lines = {} if roads is None else roads
    return sum(
        (
            roll_probability(n)
            for n in ROLLS
            if n != 7 and harvest(board, e, n, player, owned, lines) is not None
        ),
        Fraction(0),
    )
