"""Where and how should a paid ship be steered so that it becomes a settlement soonest
(``isles ships convert``)?

Implements docs/ships.md ("A ship becomes a settlement"; seed 004_644cf972d8964df4.txt,
rules 6 and 10): a stochastic shortest path over the ship's edges (and, under the
"automatic on my turn" variant, the turn order), solved by policy iteration; the answer
to :class:`Convert` (:func:`answer_convert`) and its keyword form :func:`convert`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
import scipy.sparse as sp
from scipy.sparse.linalg import spsolve

from isles.models.board import Board
from isles.models.catan import Resource, pips
from isles.models.errors import InvalidInput
from isles.models.hexgrid import Edge, EdgeLike
from isles.models.jsonio import edge_json, float_or_none, probability_json
from isles.models.ships.limits import ROLLS
from isles.models.ships.questions import DEFAULT_HORIZONS, Convert
from isles.models.ships.settlements import conversion_edges, converts, land_hex
from isles.models.ships.winds import check_ship_edge
from isles.models.status import Status
from isles.solvers.ships.graph import (
    ROLL_P,
    ROLL_PIPS,
    BoolArray,
    FloatArray,
    IntArray,
    WindGraph,
    wind_graph,
)
from isles.solvers.ships.navigation import Reach
from isles.solvers.work import Bar, Progress

__all__ = [
    "MAX_CONVERSION_STATES",
    "Conversion",
    "ConversionSpot",
    "ConversionSteering",
    "answer_convert",
    "convert",
]

#: Marks a move that ends the attempt (the ship converts on its owner's turn).
_DONE = -1
#: Most states solved in one call: (ship edges x turn phases) for the best course plus
#: the same again for each spot's own line of the table. About 7 s and 80 MB for both
#: readings of rule 10 at the limit (docs/ships.md, "Inputs and limits"); beyond, refused
#: before any table is built.
MAX_CONVERSION_STATES = 100_000


@dataclass(frozen=True)
class ConversionSpot:
    """One edge where the ship may convert, and the expected rolls when aiming only there.

    Attributes
    ----------
    edge : Edge
        A coast edge along a land hex yielding the missing resource.
    number : int
        That hex's number token (the roll that converts the ship).
    expected_rolls : float or None
        Fewest expected rolls from the start when this is the only spot used;
        None when it cannot be reached.
    """

    edge: Edge
    number: int
    expected_rolls: float | None

    def to_dict(self) -> dict[str, Any]:
        """``{"edge", "number", "expected_rolls"}``."""
        return {
            "edge": edge_json(self.edge),
            "number": self.number,
            "expected_rolls": float_or_none(self.expected_rolls),
        }


@dataclass(frozen=True)
class ConversionSteering:
    """At the start, for a roll that moves the ship and offers a choice: where to go."""

    roll: int
    options: tuple[Edge, ...]
    go_to: Edge

    def to_dict(self) -> dict[str, Any]:
        """``{"roll", "options", "go_to"}``."""
        return {
            "roll": self.roll,
            "options": [edge_json(e) for e in self.options],
            "go_to": edge_json(self.go_to),
        }


@dataclass(frozen=True, eq=False)
class Conversion:
    """The fewest expected rolls until a paid ship becomes a settlement (rule 10); the steering.

    Attributes
    ----------
    status : Status
        ``OPTIMAL`` (policy iteration stopped: no decision improves),
        ``UNREACHABLE`` (no spot can be reached) or ``TIMED_OUT`` (cap hit).
    start : Edge
    missing : Resource
        The settlement card not paid: the ship converts along a hex yielding it.
    on_turn : bool
        The seed's variant: on its owner's turn, a ship on a spot converts at once.
    players : int
        Players at the table (one roll per player turn); used with ``on_turn``.
    rolls_to_turn : int
        Rolls before the owner's roll (0: the next roll is the owner's).
    may_stay : bool
    reach : Reach
    expected_rolls : float or None
        None unless reachable.
    error_bound : float or None
        Bound on the error of ``expected_rolls``, in rolls.
    spots : tuple of ConversionSpot
        Every spot, with the expected rolls when aiming only there.
    within : tuple of (int, Fraction)
        Exact chance to convert within ``k`` rolls under the optimal steering.
    steering : tuple of ConversionSteering
        The choices at the start.
    iterations : int
    bellman_residual : float
    """

    status: Status
    start: Edge
    missing: Resource
    on_turn: bool
    players: int
    rolls_to_turn: int
    may_stay: bool
    reach: Reach
    expected_rolls: float | None
    error_bound: float | None
    spots: tuple[ConversionSpot, ...]
    within: tuple[tuple[int, Fraction], ...]
    steering: tuple[ConversionSteering, ...]
    iterations: int
    bellman_residual: float
    graph: WindGraph = field(repr=False, compare=False)
    values: FloatArray = field(repr=False, compare=False)
    choice: IntArray = field(repr=False, compare=False)

    @property
    def _phases(self) -> int:
        return self.players if self.on_turn else 1

    def _state(self, e: object, rolls_to_turn: int | None) -> int:
        edge_ = check_ship_edge(self.graph.board, e, "edge")
        k = self.rolls_to_turn if rolls_to_turn is None else rolls_to_turn
        if self.on_turn and (
            isinstance(k, bool) or not isinstance(k, int) or not 0 <= k < self.players
        ):
            raise InvalidInput("rolls_to_turn", k, f"an integer in 0..{self.players - 1}")
        return self.graph.index[edge_] * self._phases + (k if self.on_turn else 0)

    def expected_rolls_from(self, e: object, rolls_to_turn: int | None = None) -> float | None:
        """Fewest expected rolls from edge ``e`` (``rolls_to_turn`` rolls before the owner's,
        with ``on_turn``; default: as at the start); None where the ship cannot convert."""
        return float_or_none(float(self.values[self._state(e, rolls_to_turn)]))

    def steer(self, e: object, roll: int, rolls_to_turn: int | None = None) -> Edge:
        """Where the optimal steering puts a ship on ``e`` after ``roll`` (``e`` itself when
        the ship does not move; meaningless when that roll converts it)."""
        pips(roll)
        s = self._state(e, rolls_to_turn)
        i = s // self._phases
        r = ROLLS.index(roll)
        return self.graph.edges[int(self.graph.options[i, r, self.choice[s, r]])]

    @property
    def best_spot(self) -> ConversionSpot | None:
        """The spot with the fewest expected rolls when aiming at one spot only."""
        finite = [s for s in self.spots if s.expected_rolls is not None]
        if not finite:
            return None
        low = min(s.expected_rolls or 0.0 for s in finite)
        # Ties within the float error go to the first spot in edge order.
        return next(s for s in finite if (s.expected_rolls or 0.0) <= low * (1 + 1e-9))

    def to_dict(self) -> dict[str, Any]:
        """What ``isles ships convert --json`` prints: ``status``, ``from``, ``missing``,
        ``on_turn``, ``players``, ``rolls_to_turn``, ``may_stay``, ``reach``,
        ``expected_rolls``, ``error_bound``, ``best_spot``, ``spots``, ``within``
        (``[{"rolls", "probability", "probability_exact"}]``), ``steering``,
        ``iterations``, ``bellman_residual``."""
        best = self.best_spot
        return {
            "status": self.status.value,
            "from": edge_json(self.start),
            "missing": self.missing.value,
            "on_turn": self.on_turn,
            "players": self.players,
            "rolls_to_turn": self.rolls_to_turn,
            "may_stay": self.may_stay,
            "reach": self.reach.value,
            "expected_rolls": float_or_none(self.expected_rolls),
            "error_bound": float_or_none(self.error_bound),
            "best_spot": None if best is None else best.to_dict(),
            "spots": [s.to_dict() for s in self.spots],
            "within": [{"rolls": k, **probability_json("probability", p)} for k, p in self.within],
            "steering": [s.to_dict() for s in self.steering],
            "iterations": self.iterations,
            "bellman_residual": self.bellman_residual,
        }


def _tables(
    graph: WindGraph, spots: Iterable[Edge], missing: Resource, phases: int, on_turn: bool
) -> tuple[BoolArray, IntArray]:
    """``conv[s, r]``: the roll converts state ``s``; ``cand[s, r, c]``: the state after
    choice ``c`` (``_DONE`` when the ship converts on its owner's turn there)."""
    n = len(graph)
    spot = np.zeros(n, dtype=bool)
    spot[[graph.index[e] for e in spots]] = True
    conv_edge = np.zeros((n, len(ROLLS)), dtype=bool)
    for i in np.flatnonzero(spot):
        e = graph.edges[int(i)]
        for r, roll in enumerate(ROLLS):
            conv_edge[i, r] = converts(graph.board, e, roll, missing)
    conv = np.repeat(conv_edge, phases, axis=0)
    nxt = graph.options[:, :, :] * phases  # state index of (edge j, phase 0)
    cand = np.empty((n * phases, len(ROLLS), graph.options.shape[2]), dtype=np.int64)
    for k in range(phases):
        after = nxt + (k + 1) % phases
        if on_turn and k == 0:
            after = np.where(spot[graph.options], _DONE, after)
        cand[k::phases] = after
    return conv, cand


def _reachable(conv: BoolArray, cand: IntArray, allowed: BoolArray) -> tuple[BoolArray, FloatArray]:
    """States of ``allowed`` from which some rolls and moves inside ``allowed`` convert, and
    how many rolls that takes at least (a backward breadth-first search)."""
    can = np.zeros(conv.shape[0], dtype=bool)
    dist = np.full(conv.shape[0], np.inf)
    level = 0
    while True:
        ok_next = np.where(cand == _DONE, True, can[np.maximum(cand, 0)])
        new = can | (allowed & (conv.any(axis=1) | ok_next.any(axis=(1, 2))))
        dist[new & ~can] = level
        level += 1
        if np.array_equal(new, can):
            return can, dist
        can = new


def _solve(
    conv: BoolArray, cand: IntArray, max_iterations: int
) -> tuple[FloatArray, IntArray, BoolArray, BoolArray, int, bool, float]:
    """Policy iteration; returns values, choice (S, 11), the states that can convert, those
    that convert surely under some steering, rounds, whether it converged, the residual."""
    n_states = conv.shape[0]
    possible, dist = _reachable(conv, cand, np.ones(n_states, dtype=bool))
    # The almost-sure set (de Alfaro 1997): drop states where some roll leaves no move
    # inside it. The seed's moves are reversible, so nothing is dropped on a real board.
    sure = possible
    while True:
        ok = (cand == _DONE) | sure[np.maximum(cand, 0)]
        stuck = (~conv & ~ok.any(axis=2)).any(axis=1)
        shrunk, dist = _reachable(conv, cand, sure & ~stuck)
        if np.array_equal(shrunk, sure):
            break
        sure = shrunk
    cost = np.where(
        cand == _DONE, -1.0, np.where(sure[np.maximum(cand, 0)], dist[np.maximum(cand, 0)], np.inf)
    )
    choice = cost.argmin(axis=2)
    values = np.full(n_states, np.inf)
    live = np.flatnonzero(sure)
    local = np.full(n_states, -1, dtype=np.int64)
    local[live] = np.arange(len(live))
    rows_r = np.arange(len(ROLLS))
    iterations, converged = 0, not len(live)
    while len(live) and iterations < max_iterations:
        iterations += 1
        target = cand[live[:, None], rows_r[None, :], choice[live]]  # (L, 11)
        moving = ~conv[live] & (target != _DONE)
        rr, cc = np.nonzero(moving)
        mat = sp.csr_matrix((ROLL_P[cc], (rr, local[target[rr, cc]])), shape=(len(live), len(live)))
        eye = sp.identity(len(live), format="csc")
        values[live] = spsolve((eye - mat).tocsc(), np.ones(len(live)))
        cont = np.where(cand[live] == _DONE, 0.0, values[np.maximum(cand[live], 0)])
        best = cont.min(axis=2)
        current = np.take_along_axis(cont, choice[live][:, :, None], axis=2)[:, :, 0]
        better = (best < current - 1e-10 * (1.0 + np.abs(current))) & ~conv[live]
        if not better.any():
            converged = True
            break
        pick = cont.argmin(axis=2)
        rows, rolls = np.nonzero(better)
        choice[live[rows], rolls] = pick[rows, rolls]
    residual = 0.0
    if len(live):
        cont = np.where(cand[live] == _DONE, 0.0, values[np.maximum(cand[live], 0)])
        step = np.where(conv[live], 0.0, cont.min(axis=2))
        bellman = 1.0 + step @ ROLL_P
        residual = float(np.max(np.abs(values[live] - bellman)))
    return values, choice, possible, sure, iterations, converged, residual


def _within(
    conv: BoolArray, cand: IntArray, choice: IntArray, start: int, horizons: tuple[int, ...]
) -> tuple[tuple[int, Fraction], ...]:
    """Exact chance to have converted within each horizon, following ``choice``: the mass of
    every state in integers over ``36**k``."""
    if not horizons:
        return ()
    mass = {start: 1}
    done = 0
    out: dict[int, Fraction] = {0: Fraction(0)}
    for k in range(1, max(horizons) + 1):
        nxt: dict[int, int] = {}
        done *= 36
        for s, m in mass.items():
            for r, p in enumerate(ROLL_PIPS):
                if conv[s, r]:
                    done += m * p
                    continue
                t = int(cand[s, r, choice[s, r]])
                if t == _DONE:
                    done += m * p
                else:
                    nxt[t] = nxt.get(t, 0) + m * p
        mass = nxt
        out[k] = Fraction(done, 36**k)
    return tuple((k, out[k]) for k in horizons)


def _check_states(graph: WindGraph, spots: list[Edge], question: Convert) -> int:
    """The turn phases of the solves; refuse a board whose solves are too big, before any."""
    need = question.missing
    if not spots:
        raise InvalidInput("missing", need.value, "a resource some coast hex of the board yields")
    phases = question.players if question.on_turn else 1
    states = len(graph) * phases * (1 + len(spots))
    if states > MAX_CONVERSION_STATES:
        turns = f" x {phases} turn phases" if question.on_turn else ""
        raise InvalidInput(
            "board",
            f"{len(graph):,} ship edges",
            f"at most {MAX_CONVERSION_STATES:,} states to solve (a smaller board"
            + (", or fewer players)" if question.on_turn else ")"),
            problem=f"{len(graph):,} ship edges{turns} x {1 + len(spots)} solves (the best "
            f"course and one per spot for {need.value}) make {states:,} states to solve",
        )
    return phases


def _spot_table(
    graph: WindGraph, spots: list[Edge], question: Convert, s0: int, progress: Progress
) -> list[ConversionSpot]:
    """The expected rolls from the start aiming at each spot alone: one solve per spot."""
    phases = question.players if question.on_turn else 1
    table = []
    with Bar(len(spots), "spots", progress, unit="solve") as bar:
        for spot in spots:
            c1, k1 = _tables(graph, [spot], question.missing, phases, question.on_turn)
            v1 = _solve(c1, k1, question.max_iterations)[0]
            hex_ = land_hex(graph.board, spot)
            assert hex_ is not None and graph.board[hex_].number is not None
            table.append(
                ConversionSpot(spot, int(graph.board[hex_].number or 0), float_or_none(v1[s0]))
            )
            bar.update(1)
    return table


def answer_convert(question: Convert, *, progress: Progress = None) -> Conversion:
    """The conversion a validated :class:`~isles.models.ships.questions.Convert` asks.

    What :func:`isles.ships.convert` and ``isles ships convert`` answer: the
    fewest expected rolls until the paid ship becomes a settlement, the steering
    at the start, every spot aimed at alone, the exact odds within each horizon.

    Parameters
    ----------
    question : Convert
        The conversion asked, validated.
    progress : bool, None or callable
        A bar over the solves, one per spot (:data:`isles.solvers.work.Progress`).

    Returns
    -------
    Conversion

    Raises
    ------
    InvalidInput
        What needs the board: ``start`` not a ship edge of it, no spot on it for
        ``missing``; ``board`` when the solves would take more than
        ``MAX_CONVERSION_STATES`` states (ship edges, times ``players`` with
        ``on_turn``, times one plus the spots), with the count and the limit,
        before any work.

    Notes
    -----
    A stochastic shortest path (docs/ships.md): states are edges, and with
    ``on_turn`` pairs (edge, rolls to the owner's turn). ``V(s) = 1 + sum_n P(n)
    [0 if n converts s, else min over the allowed moves of V(s')]``, where a move
    onto a spot on the owner's turn ends the attempt under the variant. Policy
    iteration (Howard 1960) from the proper policy "the option fewest steps from
    converting", one sparse LU solve per round; ``error_bound`` is the Bellman
    residual times the largest value. The spots' table repeats the solve with
    one spot at a time. The odds within ``k`` rolls are exact Fractions for the
    steering found.

    References
    ----------
    Howard, R. A. (1960). *Dynamic Programming and Markov Processes*. Bertsekas,
    D. P. & Tsitsiklis, J. N. (1991), stochastic shortest paths. Rules:
    docs/ships.md; seed 004_644cf972d8964df4.txt, rule 10.

    Examples
    --------
    >>> from isles.models.ships.demo import demo_board
    >>> c = answer_convert(Convert.ask(board=demo_board(), start=((0, 1), (0, 2)), missing="brick"))
    >>> c.status, round(c.expected_rolls, 2), str(c.best_spot.edge)
    (<Status.OPTIMAL: 'optimal'>, 42.87, '-1,3:0,3')
    """
    board = question.board
    graph = board if isinstance(board, WindGraph) else wind_graph(board, question.may_stay)
    start_edge = check_ship_edge(graph.board, question.start, "start")
    need, on_turn, rolls_to_turn = question.missing, question.on_turn, question.rolls_to_turn
    spots = conversion_edges(graph.board, need)
    phases = _check_states(graph, spots, question)
    s0 = graph.index[start_edge] * phases + (rolls_to_turn if on_turn else 0)
    conv, cand = _tables(graph, spots, need, phases, on_turn)
    values, choice, possible, can, iterations, converged, residual = _solve(
        conv, cand, question.max_iterations
    )
    table = _spot_table(graph, spots, question, s0, progress)
    reach = Reach.REACHABLE if can[s0] else Reach.TRAPPED if possible[s0] else Reach.UNREACHABLE
    expected = float_or_none(float(values[s0]))
    finite = values[np.isfinite(values)]
    bound = residual * float(finite.max()) if len(finite) else 0.0
    status = (
        reach.status
        if reach is not Reach.REACHABLE
        else (Status.OPTIMAL if converged else Status.TIMED_OUT)
    )
    horizons = tuple(question.within)
    within = (
        _within(conv, cand, choice, s0, horizons)
        if can[s0]
        else tuple((k, Fraction(0)) for k in horizons)
    )
    return Conversion(
        status=status,
        start=start_edge,
        missing=need,
        on_turn=on_turn,
        players=question.players,
        rolls_to_turn=rolls_to_turn,
        may_stay=graph.may_stay,
        reach=reach,
        expected_rolls=expected,
        error_bound=None if expected is None else bound,
        spots=tuple(table),
        within=within,
        steering=_steering(graph, start_edge, s0, conv, choice) if can[s0] else (),
        iterations=iterations,
        bellman_residual=residual,
        graph=graph,
        values=values,
        choice=choice,
    )


def convert(
    board: Board | WindGraph,
    start: EdgeLike,
    missing: Resource | str,
    *,
    on_turn: bool = False,
    players: int = 4,
    rolls_to_turn: int = 0,
    may_stay: bool = False,
    within: Iterable[int] = DEFAULT_HORIZONS,
    max_iterations: int = 1000,
    progress: Progress = None,
) -> Conversion:
    """Steer a paid ship to become a settlement in the fewest expected rolls (seed rule 10).

    The player has paid three of the four settlement cards; the ship becomes a
    settlement as soon as a roll shows the number of the land hex it lies along,
    when that hex yields the missing card (a gold hex yields any). The roll finds
    the ship where it stood before the roll (resources before the ships move).
    Under the variant ``on_turn`` the ship also converts on its owner's turn when
    it stands on a spot after that turn's move.

    Parameters
    ----------
    board : Board or WindGraph
    start : Edge
        The ship's edge.
    missing : Resource
        The settlement card not paid (lumber, brick, wool or grain; any resource
        is accepted).
    on_turn : bool
        The seed's variant of rule 10 ("automatique ... lorsqu'il est en phase").
    players : int
        Players, 3..6: the owner rolls every ``players`` rolls (with ``on_turn``).
    rolls_to_turn : int
        Rolls before the owner's own roll, 0..players-1 (with ``on_turn``).
    may_stay : bool
        The seed's variant of rule 6: a ship along a coast may stay.
    within : iterable of int
        Horizons of the exact conversion odds, 0..MAX_WITHIN.
    max_iterations : int
        Cap on policy-iteration rounds (status ``timed_out`` if hit).
    progress : bool, None or callable, default None
        A bar over the solves, one per spot (:data:`isles.solvers.work.Progress`;
        ``isles ships convert`` on a terminal).

    Returns
    -------
    Conversion

    Raises
    ------
    InvalidInput
        Naming the parameter: ``start`` not a ship edge, ``missing`` not a
        resource, ``players`` or ``rolls_to_turn`` out of range, a horizon out of
        range, no spot on the board for ``missing``; ``board`` when the solves
        would take more than ``MAX_CONVERSION_STATES`` states (ship edges, times
        ``players`` with ``on_turn``, times one plus the spots), with the count
        and the limit, before any work. The checks of the parameters alone are
        those of the declaration :class:`isles.models.ships.questions.Convert`.

    Notes
    -----
    A stochastic shortest path (docs/ships.md): states are edges, and with
    ``on_turn`` pairs (edge, rolls to the owner's turn). ``V(s) = 1 + sum_n P(n)
    [0 if n converts s, else min over the allowed moves of V(s')]``, where a move
    onto a spot on the owner's turn ends the attempt under the variant. Policy
    iteration (Howard 1960) from the proper policy "the option fewest steps from
    converting", one sparse LU solve per round; ``error_bound`` is the Bellman
    residual times the largest value. The spots' table repeats the solve with
    one spot at a time. The odds within ``k`` rolls are exact Fractions for the
    steering found.

    References
    ----------
    Howard, R. A. (1960). *Dynamic Programming and Markov Processes*. Bertsekas,
    D. P. & Tsitsiklis, J. N. (1991), stochastic shortest paths. Rules:
    docs/ships.md; seed 004_644cf972d8964df4.txt, rule 10.

    Examples
    --------
    >>> from isles.models.ships.demo import demo_board
    >>> c = convert(demo_board(), ((0, 1), (0, 2)), "brick")
    >>> c.status, round(c.expected_rolls, 2), str(c.best_spot.edge)
    (<Status.OPTIMAL: 'optimal'>, 42.87, '-1,3:0,3')
    >>> round(convert(demo_board(), ((0, 1), (0, 2)), "brick", on_turn=True).expected_rolls, 2)
    31.59
    """
    question = Convert.ask(
        board=board,
        start=start,
        missing=missing,
        on_turn=on_turn,
        players=players,
        rolls_to_turn=rolls_to_turn,
        may_stay=may_stay,
        within=within,
        max_iterations=max_iterations,
    )
    return answer_convert(question, progress=progress)


def _steering(
    graph: WindGraph, start: Edge, s0: int, conv: BoolArray, choice: IntArray
) -> tuple[ConversionSteering, ...]:
    """The choices at the start: for each roll that moves the ship and offers a choice."""
    steering = []
    i0 = graph.index[start]
    for r, roll in enumerate(ROLLS):
        options = sorted({int(o) for o in graph.options[i0, r]})
        if len(options) < 2 or conv[s0, r]:
            continue
        go = graph.edges[int(graph.options[i0, r, choice[s0, r]])]
        steering.append(ConversionSteering(roll, tuple(graph.edges[o] for o in options), go))
    return tuple(steering)
