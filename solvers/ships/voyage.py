"""One ship's voyage (``isles sail`` with one ``--from``): its targets, the fewest expected
rolls, the steering at the start and the exact odds of arriving within a few rolls.

Implements docs/ships.md ("What the navigator answers", "Ports"; seed
004_644cf972d8964df4.txt, rules 5, 6 and 8): the answer to :class:`Sail`
(:func:`answer_sail`) and its keyword form :func:`sail`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from isles.models.board import Board
from isles.models.errors import InvalidInput
from isles.models.hexgrid import CornerLike, Edge, EdgeLike, Vertex
from isles.models.jsonio import corner_json, edge_json, float_or_none, probability_json
from isles.models.ships.harbours import Port, port_edges, ports
from isles.models.ships.limits import ROLLS
from isles.models.ships.questions import DEFAULT_HORIZONS, Fleet, Sail
from isles.models.ships.winds import check_ship_edge
from isles.models.status import Status
from isles.solvers.ships.arrival import arrival_odds
from isles.solvers.ships.graph import WindGraph, target_edges, wind_graph
from isles.solvers.ships.navigation import Navigation, Reach, navigate
from isles.solvers.work import Progress

__all__ = ["Steering", "Voyage", "answer_sail", "sail", "voyage_targets"]


@dataclass(frozen=True)
class Steering:
    """One decision at the start: after ``roll``, put the ship on ``go_to``.

    Attributes
    ----------
    roll : int
        The 2d6 sum.
    options : tuple of Edge
        Where the ship may end (the start itself: it stays).
    go_to : Edge
        The optimal choice among ``options``.
    expected_rolls_there : float or None
        Minimal expected rolls from ``go_to`` (iterative float).
    error_bound : float or None
        Bound on the error of ``expected_rolls_there`` (in rolls).

    Examples
    --------
    >>> from isles.models.ships.demo import demo_board
    >>> first = sail(demo_board(), ((0, 2), (1, 2)), near=[((0, 2), (0, 3), (1, 2))]).steering[0]
    >>> first.roll, str(first.go_to), first.expected_rolls_there
    (10, '0,2:0,3', 0.0)
    """

    roll: int
    options: tuple[Edge, ...]
    go_to: Edge
    expected_rolls_there: float | None
    error_bound: float | None

    def to_dict(self) -> dict[str, Any]:
        """Plain data: ``roll``, ``options``, ``go_to`` (edges as ``[[q, r], [q, r]]``),
        ``expected_rolls_there`` and its ``error_bound``."""
        return {
            "roll": self.roll,
            "options": [edge_json(o) for o in self.options],
            "go_to": edge_json(self.go_to),
            "expected_rolls_there": float_or_none(self.expected_rolls_there),
            "error_bound": float_or_none(self.error_bound),
        }


@dataclass(frozen=True)
class Voyage:
    """What :func:`isles.ships.sail` answers: how a ship gets from ``start`` to the targets.

    Attributes
    ----------
    status : Status
        ``optimal`` (the minimal expected rolls and the steering that achieves
        them; also when the ship is already there), ``feasible`` (policy
        iteration hit its cap: a steering that arrives surely, not proven best),
        ``unreachable`` (no sequence of rolls leads there) or ``infeasible``
        (trapped: arrival is possible but no steering arrives surely, so no finite
        expected rolls exist; never on a board of the seed's rules).
    start : Edge
        The ship's edge.
    targets : tuple of Edge
        Every target edge (given and next to ``near``), sorted.
    near : tuple of Vertex
        The settlement corners asked for.
    may_stay : bool
        The seed's variant: a ship along a coast may stay.
    players : int
        Players, to turn rolls into rounds.
    reach : Reach
        Of the start.
    expected_rolls : float or None
        Minimal expected rolls to arrive (0 when already there); None unless
        reachable surely.
    error_bound : float or None
        Bound on the error of ``expected_rolls`` in rolls (policy iteration's
        floats; 0 when already there); None with ``expected_rolls``.
    arrival_within : tuple of (int, Fraction)
        Exact chance to arrive within ``k`` rolls (:func:`arrival_odds`): under
        the optimal steering; for a trapped start the best chance of any
        steering, each ``k`` on its own; 0 when unreachable.
    steering : tuple of Steering
        The choices at the start, one per roll that offers one; empty when the
        ship is already there or cannot be steered to the target surely.
    iterations : int
        Policy-iteration rounds.
    bellman_residual : float
        Largest violation of the Bellman equation, in rolls.
    navigation : Navigation
        The whole navigation (every edge's value and steering; for pictures).
    ports : tuple of Port
        The board's harbours among the targets, with the trade each allows the
        ship's cargo (seed rule 8; docs/ships.md, "Ports").

    Examples
    --------
    >>> from isles.models.ships.demo import demo_board
    >>> v = sail(demo_board(), ((0, 2), (1, 2)), near=[((0, 2), (0, 3), (1, 2))], players=3)
    >>> v.status.value, v.at_target, round(v.expected_rounds, 2), v.error_bound < 1e-9
    ('optimal', False, 2.4, True)
    >>> answer = v.to_dict()
    >>> answer["from"], answer["arrival_within"][0]["probability_exact"]
    ([[0, 2], [1, 2]], '31837025/60466176')
    """

    status: Status
    start: Edge
    targets: tuple[Edge, ...]
    near: tuple[Vertex, ...]
    may_stay: bool
    players: int
    reach: Reach
    expected_rolls: float | None
    error_bound: float | None
    arrival_within: tuple[tuple[int, Fraction], ...]
    steering: tuple[Steering, ...]
    iterations: int
    bellman_residual: float
    navigation: Navigation = field(repr=False, compare=False)
    ports: tuple[Port, ...] = ()

    @property
    def at_target(self) -> bool:
        """Whether the ship already stands on a target (0 rolls, nothing to steer)."""
        return self.start in self.targets

    @property
    def expected_rounds(self) -> float | None:
        """``expected_rolls / players`` (its error bound is ``error_bound / players``)."""
        return None if self.expected_rolls is None else self.expected_rolls / self.players

    def to_dict(self) -> dict[str, Any]:
        """The answer as plain data, in the dialect of docs/json.md (what ``--json`` prints).

        Returns
        -------
        dict
            ``status``, ``from``, ``to``, ``near``, ``may_stay``, ``players``,
            ``reach``, ``at_target``, ``expected_rolls``, ``expected_rounds``,
            ``error_bound`` (of ``expected_rolls``, in rolls), ``arrival_within``
            (``[{"rolls", "probability", "probability_exact"}]``), ``steering``,
            ``iterations``, ``bellman_residual`` (null where nothing was solved:
            a start that cannot arrive, or is already there), ``ports``
            (:meth:`isles.models.ships.harbours.Port.to_dict` per harbour among the targets).
        """
        solved = self.expected_rolls is not None and not self.at_target
        return {
            "status": self.status.value,
            "from": edge_json(self.start),
            "to": [edge_json(t) for t in self.targets],
            "near": [corner_json(v) for v in self.near],
            "may_stay": self.may_stay,
            "players": self.players,
            "reach": self.reach.value,
            "at_target": self.at_target,
            "expected_rolls": float_or_none(self.expected_rolls),
            "expected_rounds": float_or_none(self.expected_rounds),
            "error_bound": float_or_none(self.error_bound),
            "arrival_within": [
                {"rolls": k, **probability_json("probability", p)} for k, p in self.arrival_within
            ],
            "steering": [s.to_dict() for s in self.steering],
            # Nothing was iterated for a start that cannot arrive, or is already there.
            "iterations": self.iterations if solved else None,
            "bellman_residual": self.bellman_residual if solved else None,
            "ports": [p.to_dict() for p in self.ports],
        }


def _steering_at(nav: Navigation, start: Edge) -> tuple[Steering, ...]:
    """The decisions at ``start``: for each roll that offers a choice, where to go."""
    i = nav.graph.index[start]
    out: list[Steering] = []
    for r, roll in enumerate(ROLLS):
        options = sorted({int(o) for o in nav.graph.options[i, r]})
        if len(options) < 2:
            continue
        go = nav.graph.edges[int(nav.choice[i, r])]
        there = nav.expected_rolls(go)
        out.append(
            Steering(
                roll=roll,
                options=tuple(nav.graph.edges[o] for o in options),
                go_to=go,
                expected_rolls_there=there,
                error_bound=None if there is None else nav.relative_error * there,
            )
        )
    return tuple(out)


def _sail_graph(question: Sail) -> WindGraph:
    """The wind graph a voyage is steered on: the board's, or the prebuilt one given."""
    board = question.board
    if not isinstance(board, WindGraph):
        return wind_graph(board, question.may_stay)
    if board.pirate:
        raise InvalidInput("board", "a pirate wind graph", "a board or a ship's wind graph")
    if question.may_stay and not board.may_stay:
        raise InvalidInput(
            "may_stay", True, "the graph's own setting (build it with may_stay=True)"
        )
    return board


def voyage_targets(board: Board, question: Sail | Fleet) -> tuple[list[Edge], list[Vertex]]:
    """The target edges (harbours of the kinds asked added) and corners a question asks."""
    targets = [*question.targets, *sorted(port_edges(board, question.ports, "ports"))]
    return targets, sorted(set(question.near))


def answer_sail(question: Sail, *, progress: Progress = None) -> Voyage:
    """The voyage a validated :class:`~isles.models.ships.questions.Sail` asks.

    What :func:`isles.ships.sail` and ``isles sail`` with one ``--from`` answer:
    the target set (the edges given, the coast at the corners, the harbours of
    the kinds asked), checked against the board; the navigation
    (:func:`~isles.solvers.ships.navigation.navigate`); the steering at the start;
    the exact odds of arriving within each horizon
    (:func:`~isles.solvers.ships.arrival.arrival_odds`).

    Parameters
    ----------
    question : Sail
        The voyage asked, validated.
    progress : bool, None or callable
        A bar over the policy-iteration rounds and the rolls of the exact odds
        (:data:`isles.solvers.work.Progress`).

    Returns
    -------
    Voyage

    Raises
    ------
    InvalidInput
        What needs the board: ``start`` or ``targets[i]`` not a ship edge of it,
        ``near[i]`` next to no coast, ``ports[i]`` a kind of harbour it has not, no
        target, no ship edge at all, or ``may_stay`` against a prebuilt graph
        built without it.

    Notes
    -----
    docs/ships.md, "What the navigator answers". The expected rolls are floats
    from sparse policy iteration; ``error_bound`` bounds their error from the
    Bellman residual (:attr:`Navigation.relative_error`). The arrival odds are
    exact Fractions for the steering found. When ``start`` is a target the
    answer is 0 rolls, no steering, arrival certain.

    References
    ----------
    .. [1] R. A. Howard, "Dynamic Programming and Markov Processes", MIT Press, 1960.
    .. [2] D. P. Bertsekas and J. N. Tsitsiklis, "An analysis of stochastic
       shortest path problems", Mathematics of Operations Research 16(3), 1991.

    Examples
    --------
    >>> from isles.models.ships.demo import demo_board
    >>> q = Sail.ask(board=demo_board(), start=((0, 2), (1, 2)), near=[((0, 2), (0, 3), (1, 2))])
    >>> v = answer_sail(q)
    >>> v.status, round(v.expected_rolls, 2), v.arrival_within[0]
    (<Status.OPTIMAL: 'optimal'>, 7.2, (5, Fraction(31837025, 60466176)))
    """
    graph = _sail_graph(question)
    start = check_ship_edge(graph.board, question.start, "start")
    targets, corners = voyage_targets(graph.board, question)
    target_set = target_edges(graph.board, targets, corners)
    nav = navigate(graph, target_set, progress=progress)
    reach = nav.reach(start)
    odds = arrival_odds(nav, start, sorted(set(question.within)), progress=progress)
    expected = nav.expected_rolls(start)
    steering: tuple[Steering, ...] = ()
    bound: float | None = None
    if start in target_set:
        status, bound = Status.OPTIMAL, 0.0
    elif reach is Reach.REACHABLE:
        assert expected is not None  # reachable surely: finite expected rolls
        status, bound = nav.status, nav.relative_error * expected
        steering = _steering_at(nav, start)
    else:
        status = reach.status
    return Voyage(
        status=status,
        start=start,
        targets=tuple(sorted(target_set)),
        near=tuple(corners),
        may_stay=graph.may_stay,
        players=question.players,
        reach=reach,
        expected_rolls=expected,
        error_bound=bound,
        arrival_within=tuple(odds.items()),
        steering=steering,
        iterations=nav.iterations,
        bellman_residual=nav.bellman_residual,
        navigation=nav,
        ports=ports(graph.board, target_set),
    )


def sail(
    board: Board | WindGraph,
    start: EdgeLike,
    targets: Iterable[EdgeLike] = (),
    *,
    near: Iterable[CornerLike] = (),
    ports: Iterable[str] = (),
    may_stay: bool = False,
    players: int = 4,
    within: Iterable[int] = DEFAULT_HORIZONS,
    progress: Progress = None,
) -> Voyage:
    """Steer a ship from ``start`` to the targets in the fewest expected rolls of 2d6.

    The one call behind ``isles sail``: the target set, the navigation, the
    steering at the start, the exact odds of arriving within a few rolls, and the
    rounds of play this takes.

    Parameters
    ----------
    board : Board or WindGraph
        The board (or its prebuilt wind graph, whose own ``may_stay`` then holds).
    start : Edge
        The ship's edge (an ``Edge`` or a pair of hexes ``((q, r), (q, r))``).
    targets : iterable of Edge
        Target edges.
    near : iterable of Vertex
        Settlement corners: the coast edges next to each are targets too (seed
        rule 5).
    ports : iterable of str
        Harbour kinds (``generic``, ``wool``, ..., or ``any``): the board's
        harbours of these kinds are targets too (seed rule 8).
    may_stay : bool
        The seed's variant: a ship along a coast may stay.
    players : int
        Players at the table, 3..6: one roll per player turn.
    within : iterable of int
        Horizons, in rolls, of the arrival odds (each in 0..MAX_WITHIN).
    progress : bool, None or callable, default None
        A bar over the policy-iteration rounds and the rolls of the exact odds
        (:data:`isles.solvers.work.Progress`; ``isles sail`` on a terminal).

    Returns
    -------
    Voyage
        Its ``status`` says what it is: ``optimal``, ``feasible``,
        ``unreachable`` or ``infeasible`` (trapped).

    Raises
    ------
    InvalidInput
        Naming the parameter: ``players`` not in 3..6, a horizon out of range,
        ``start`` or ``targets[i]`` not a ship edge of the board, ``near[i]``
        next to no coast, ``ports[i]`` a kind of harbour the board has not, no
        target at all, a board without ship edges, or ``may_stay`` against a
        prebuilt graph built without it. The checks of the parameters alone are
        those of the declaration :class:`isles.models.ships.questions.Sail`.

    See Also
    --------
    isles.solvers.ships.voyage.answer_sail : how it is answered (the method, its references).
    isles.solvers.ships.navigation.navigate : the values and steering from every edge.
    isles.solvers.ships.arrival.arrival_distribution : the whole arrival-roll distribution.

    Notes
    -----
    docs/ships.md, "What the navigator answers". The expected rolls are floats
    from sparse policy iteration (Howard 1960; Bertsekas and Tsitsiklis 1991);
    ``error_bound`` bounds their error from the Bellman residual. The arrival
    odds are exact Fractions for the steering found. When ``start`` is a target
    the answer is 0 rolls, no steering, arrival certain.

    Examples
    --------
    >>> from isles.models.ships.demo import demo_board
    >>> v = sail(demo_board(), ((0, 2), (1, 2)), near=[((0, 2), (0, 3), (1, 2))])
    >>> v.status, round(v.expected_rolls, 2), v.arrival_within[0]
    (<Status.OPTIMAL: 'optimal'>, 7.2, (5, Fraction(31837025, 60466176)))
    >>> sail(demo_board(), ((0, 2), (0, 3)), [((0, 2), (0, 3))]).expected_rolls
    0.0
    """

    question = Sail.ask(
        board=board,
        start=start,
        targets=targets,
        near=near,
        ports=ports,
        may_stay=may_stay,
        players=players,
        within=within,
    )
    return answer_sail(question, progress=progress)
