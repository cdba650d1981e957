"""Can a player's whole fleet stand on scoring edges at once, and how should it be steered?

Implements docs/ships.md (seed 004_644cf972d8964df4.txt, rules 6 and 11 and the end of
the game): dynamic programming over the joint positions of 1 to 3 ships under one roll.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp
from scipy.sparse.csgraph import dijkstra
from scipy.sparse.linalg import lgmres, spsolve

from isles.models.catan import Board, roll_probability
from isles.models.errors import InvalidInput
from isles.models.hexgrid import Edge, Vertex
from isles.models.jsonio import corner_json, edge_json, float_or_none, probability_json
from isles.models.ships.fleet import (
    MAX_FLEET_ROLLS,
    Rollers,
    check_fleet,
    edge_rollers,
    fleet_targets,
    survival_probability,
)
from isles.models.ships.harbours import Port, ports
from isles.models.ships.limits import MAX_SHIPS, ROLLS
from isles.models.ships.questions import Fleet
from isles.models.ships.winds import capacity, check_ship_edge
from isles.models.status import Status
from isles.solvers.ships.sailing import Reach, WindGraph, progress_bar, voyage_targets, wind_graph

__all__ = [
    "MAX_EXACT_STATES",
    "MAX_FLEET_ROLLS",
    "MAX_JOINT_STATES",
    "MAX_TABLE_CELLS",
    "FleetAdvice",
    "FleetNavigation",
    "FleetOdds",
    "FleetSpace",
    "FleetVoyage",
    "ShipMove",
    "fleet",
    "fleet_navigate",
    "fleet_odds",
    "fleet_space",
    "fleet_voyage",
    "joint_state_count",
]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]

#: Largest joint table built: unordered positions of the fleet. The demo board with 3
#: ships has 98,770 and peaks at about 150 MB (the expected-rolls solve); at the limit
#: (3 ships on 132 ship edges: 392,084) ``isles sail --within 30`` measured 23 s and
#: 1.2 GB peak (docs/ships.md, "Limits").
MAX_JOINT_STATES = 400_000
#: Largest joint table for exact Fractions (their size grows with every roll).
MAX_EXACT_STATES = 5_000
#: Most values a finite-horizon table keeps (one per joint state and rolls left,
#: 8 bytes each): the steering of every position for every horizon.
MAX_TABLE_CELLS = 40_000_000

#: A ship's move on one roll: the edge it stood on and the edge it ends on.
ShipMove = tuple[Edge, Edge]

_ROLL_P: FloatArray = np.array([float(roll_probability(n)) for n in ROLLS])
_ROLL_P_EXACT: npt.NDArray[Any] = np.array([roll_probability(n) for n in ROLLS], dtype=object)
_ROLL_INDEX: dict[int, int] = {n: i for i, n in enumerate(ROLLS)}
#: Unit roundoff of float64.
_U = 2.0**-53


def joint_state_count(edges: int, ships: int) -> int:
    """Unordered positions of ``ships`` interchangeable ships on ``edges`` edges.

    The multisets of size ``ships``: ``C(edges + ships - 1, ships)``.

    >>> joint_state_count(83, 3)  # the demo board
    98770
    """
    return math.comb(edges + ships - 1, ships)


def _rank(idx: IntArray) -> IntArray:
    """Colex rank of sorted edge-index tuples along the last axis (a bijection onto
    ``range(joint_state_count(N, k))``): sum_j C(e_j + j, j + 1)."""
    out = np.zeros(idx.shape[:-1], dtype=np.int64)
    for j in range(idx.shape[-1]):
        top = idx[..., j] + j
        term = top.copy()
        for m in range(1, j + 1):
            term = term * (top - m) // (m + 1)
        out += term
    return out


def _binomials(edges: int, ships: int) -> IntArray:
    """``table[j, e] = C(e + j, j + 1)``: the rank of a sorted tuple is ``sum_j table[j, e_j]``."""
    return np.array(
        [[math.comb(e + j, j + 1) for e in range(edges)] for j in range(ships)], dtype=np.int64
    )


def _sorted_rank(columns: list[IntArray], binomials: IntArray) -> IntArray:
    """``_rank`` of the tuples whose j-th entries are ``columns[j]``, in any order: sorted by
    compare-exchange (a sorting network of at most three comparators), then ranked through
    the table of :func:`_binomials`."""
    cols = list(columns)
    for i, j in ((0, 1), (1, 2), (0, 1))[: 3 if len(cols) == 3 else len(cols) - 1]:
        low = np.minimum(cols[i], cols[j])
        cols[j] = np.maximum(cols[i], cols[j])
        cols[i] = low
    out: IntArray = binomials[0][cols[0]]
    for j in range(1, len(cols)):
        out += binomials[j][cols[j]]
    return out


def _joint_states(edges: int, ships: int) -> IntArray:
    """Every sorted ``ships``-tuple of edge indices, row ``i`` holding the state of rank ``i``."""
    flat = np.fromiter(
        itertools.chain.from_iterable(itertools.combinations_with_replacement(range(edges), ships)),
        dtype=np.int64,
    )
    tuples = flat.reshape(-1, ships)
    states = np.empty_like(tuples)
    states[_rank(tuples)] = tuples
    return states


@dataclass(frozen=True, eq=False)
class FleetSpace:
    """The joint positions of a fleet on a board and their moves under each roll (built once).

    A joint state is a multiset of ``ships`` ship edges (ships of one player are
    interchangeable), stored as the sorted tuple of edge indices of ``graph``.

    Attributes
    ----------
    graph : WindGraph
        The single-ship moves (:func:`isles.solvers.ships.sailing.wind_graph`).
    ships : int
        Ships in the fleet, 1..3.
    rollers : Rollers
        The collision reading (docs/ships.md).
    states : ndarray of int, shape (S, ships)
        ``states[i]`` = the sorted edge indices of joint state ``i``.
    collision_rolls : ndarray of int, shape (S,)
        Collision rolls made by the fleet standing on state ``i`` after a roll
        (:func:`isles.models.ships.fleet.collision_rollers`); 0 when it is clear.
    pair_state, pair_roll : ndarray of int, shape (P,)
        The (state, roll index) pairs where some ship may move: every other
        roll leaves the fleet where it is.
    groups : tuple of (ndarray, ndarray)
        The successors of the pairs, grouped by how many distinct joint
        positions the owner may choose from: ``(pairs, successors)`` with
        ``successors`` of shape ``(len(pairs), c)``, sorted, without repeats.
    """

    graph: WindGraph
    ships: int
    rollers: Rollers
    states: IntArray = field(repr=False)
    collision_rolls: IntArray = field(repr=False)
    pair_state: IntArray = field(repr=False)
    pair_roll: IntArray = field(repr=False)
    groups: tuple[tuple[IntArray, IntArray], ...] = field(repr=False)

    def __len__(self) -> int:
        return len(self.states)

    @property
    def may_stay(self) -> bool:
        """Whether the seed's variant (a ship along a coast may stay) is in force."""
        return self.graph.may_stay

    def index(self, fleet: Sequence[Edge], field_name: str = "ships") -> int:
        """The joint state of ``fleet`` (any order of its edges).

        Raises
        ------
        InvalidInput
            If an edge is not a ship edge or the fleet has not ``ships`` ships.
        """
        edges = check_fleet(self.graph.board, fleet, field_name)
        if len(edges) != self.ships:
            raise InvalidInput(
                field_name, len(edges), f"{self.ships} ships, as this joint table was built"
            )
        idx = sorted(self.graph.index[e] for e in edges)
        return sum(math.comb(e + j, j + 1) for j, e in enumerate(idx))

    def fleet(self, state: int) -> tuple[Edge, ...]:
        """The edges of joint state ``state``, sorted."""
        return tuple(self.graph.edges[int(i)] for i in self.states[state])

    def moves(self, state: int, roll: int) -> list[tuple[tuple[ShipMove, ...], int]]:
        """Every placement the owner may choose after ``roll``: its ship moves and successor.

        The ship moves are listed in the order of the state's sorted edges; the
        successor is the joint state reached (before any collision roll).
        """
        r = _ROLL_INDEX[roll]
        here = [int(i) for i in self.states[state]]
        per_ship = [sorted({int(x) for x in self.graph.options[i, r]}) for i in here]
        out = []
        for dest in itertools.product(*per_ship):
            succ = sum(math.comb(e + j, j + 1) for j, e in enumerate(sorted(dest)))
            moves = tuple(
                (self.graph.edges[a], self.graph.edges[b]) for a, b in zip(here, dest, strict=True)
            )
            out.append((moves, succ))
        return out

    def scoring_mask(self, scoring: Iterable[Edge]) -> BoolArray:
        """Which joint states have every ship on a scoring edge.

        Raises
        ------
        InvalidInput
            If a scoring edge is not a ship edge of the board, or there is none.
        """
        chosen = _check_scoring(self.graph.board, scoring)
        on = np.zeros(len(self.graph), dtype=bool)
        on[[self.graph.index[e] for e in chosen]] = True
        return np.asarray(np.all(on[self.states], axis=1))

    def arcs(self) -> tuple[IntArray, IntArray]:
        """Every (state, successor) pair the owner may choose on some moving roll."""
        empty = np.zeros(0, dtype=np.int64)
        src = [self.pair_state[rows].repeat(succ.shape[1]) for rows, succ in self.groups]
        dst = [succ.reshape(-1) for _, succ in self.groups]
        return np.concatenate([empty, *src]), np.concatenate([empty, *dst])


def _check_scoring(board: Board, scoring: Iterable[Edge]) -> frozenset[Edge]:
    chosen = frozenset(check_ship_edge(board, e, f"scoring[{i}]") for i, e in enumerate(scoring))
    if not chosen:
        raise InvalidInput("scoring", "[]", "at least one scoring edge")
    return chosen


def fleet_space(
    board: Board | WindGraph,
    ships: int,
    may_stay: bool = False,
    rollers: Rollers = Rollers.EXCESS,
    progress: bool = False,
) -> FleetSpace:
    """Tabulate the joint positions of ``ships`` ships and the owner's choices after each roll.

    Parameters
    ----------
    board : Board or WindGraph
        The board (the graph is built with ``may_stay``), or a prebuilt graph
        (whose ``may_stay`` is used).
    ships : int
        1..3 ships (seed rule 2).
    may_stay : bool
        The seed's variant: a ship along a coast may stay. Ignored for a graph.
    rollers : Rollers
        Which ships on a crowded edge roll for a collision (docs/ships.md).
    progress : bool
        A bar on stderr over the rolls tabulated
        (:func:`isles.solvers.ships.sailing.progress_bar`).

    Returns
    -------
    FleetSpace
        ``joint_state_count(edges, ships)`` joint states and their successors.

    Raises
    ------
    InvalidInput
        If ``ships`` is not in 1..3, or the joint table would exceed
        ``MAX_JOINT_STATES`` (the message gives both counts).

    Notes
    -----
    Vectorised over joint states: for each roll, every ship's options (the
    rows of :class:`isles.solvers.ships.sailing.WindGraph.options`) are combined by
    a Cartesian product, each combination sorted and ranked (colex rank of a
    multiset), and repeated successors removed. Time and memory are linear in
    the number of (state, moving roll, choice) triples.

    Examples
    --------
    >>> from isles.models.ships.demo import demo_board
    >>> space = fleet_space(demo_board(), 2)
    >>> len(space), space.states.shape
    (3486, (3486, 2))
    """
    if isinstance(ships, bool) or not isinstance(ships, int) or not 1 <= ships <= MAX_SHIPS:
        raise InvalidInput("ships", ships, f"a fleet of 1..{MAX_SHIPS} ships (seed rule 2)")
    graph = board if isinstance(board, WindGraph) else wind_graph(board, may_stay)
    n = len(graph)
    count = joint_state_count(n, ships)
    if count > MAX_JOINT_STATES:
        raise InvalidInput(
            "board",
            f"{n} ship edges",
            f"at most {MAX_JOINT_STATES:,} joint states (a smaller board, or fewer ships)",
            problem=f"{ships} ships on {n} ship edges make {count:,} joint states",
        )
    rollers = Rollers(rollers)
    states = _joint_states(n, ships)
    caps = np.array([capacity(graph.board, e) for e in graph.edges], dtype=np.int64)
    # The rule on one edge, tabulated from the model: rolls[capacity, ships on the edge].
    table = np.zeros((3, ships + 1), dtype=np.int64)
    for cap in (1, 2):
        for on in range(ships + 1):
            table[cap, on] = edge_rollers(on, cap, rollers)
    # Each distinct edge of a sorted tuple is counted once, at its first ship.
    collision_rolls = np.zeros(len(states), dtype=np.int64)
    for j in range(ships):
        first = np.ones(len(states), dtype=bool) if j == 0 else states[:, j] != states[:, j - 1]
        on = (states == states[:, j : j + 1]).sum(axis=1)
        collision_rolls += np.where(first, table[caps[states[:, j]], on], 0)

    width = graph.options.shape[2]
    combos = np.array(list(itertools.product(range(width), repeat=ships)), dtype=np.int64)
    binomials = _binomials(n, ships)
    # Per distinct-choice count c: the pairs' states, rolls and sorted successors (c columns).
    found: dict[int, list[tuple[IntArray, int, IntArray]]] = {}
    with progress_bar(len(ROLLS), "fleet table", "roll", progress) as update:
        for r in range(len(ROLLS)):
            update(1)
            opts = graph.options[states, r, :]  # (S, ships, width)
            moving = np.flatnonzero(np.any(opts != states[:, :, None], axis=(1, 2)))
            if not len(moving):
                continue
            sub = opts[moving]
            succ = _sorted_rank([sub[:, j, combos[:, j]] for j in range(ships)], binomials)
            succ.sort(axis=1)
            fresh = np.ones(succ.shape, dtype=bool)
            fresh[:, 1:] = succ[:, 1:] != succ[:, :-1]
            distinct = fresh.sum(axis=1)
            for c in np.unique(distinct).tolist():
                rows = np.flatnonzero(distinct == c)
                found.setdefault(c, []).append(
                    (moving[rows], r, succ[rows][fresh[rows]].reshape(-1, c))
                )
    p_state: list[IntArray] = []
    p_roll: list[IntArray] = []
    groups = []
    start = 0
    for c in sorted(found):
        parts = found[c]
        size = sum(len(states_) for states_, _, _ in parts)
        p_state += [states_ for states_, _, _ in parts]
        p_roll += [np.full(len(states_), r, dtype=np.int64) for states_, r, _ in parts]
        groups.append(
            (
                np.arange(start, start + size, dtype=np.int64),
                np.concatenate([succ for _, _, succ in parts]),
            )
        )
        start += size
    empty = np.zeros(0, dtype=np.int64)
    return FleetSpace(
        graph=graph,
        ships=ships,
        rollers=rollers,
        states=states,
        collision_rolls=collision_rolls,
        pair_state=np.concatenate(p_state) if p_state else empty,
        pair_roll=np.concatenate(p_roll) if p_roll else empty,
        groups=tuple(groups),
    )


def _board_of(board: Board | WindGraph | FleetSpace) -> Board:
    if isinstance(board, FleetSpace):
        return board.graph.board
    return board.board if isinstance(board, WindGraph) else board


def _space(
    board: Board | WindGraph | FleetSpace,
    ships: int,
    may_stay: bool | None,
    rollers: Rollers | None,
    progress: bool = False,
) -> FleetSpace:
    """The space for a call: ``board`` itself when prebuilt (its settings must agree)."""
    if isinstance(board, FleetSpace):
        if may_stay is not None and bool(may_stay) != board.may_stay:
            raise InvalidInput("may_stay", may_stay, f"{board.may_stay}, as the space was built")
        if rollers is not None and Rollers(rollers) is not board.rollers:
            raise InvalidInput("rollers", rollers, f"{board.rollers!r}, as the space was built")
        if ships != board.ships:
            raise InvalidInput("ships", ships, f"{board.ships} ships, as the space was built")
        return board
    if isinstance(board, WindGraph) and may_stay is not None and may_stay != board.may_stay:
        raise InvalidInput("may_stay", may_stay, f"{board.may_stay}, as the graph was built")
    return fleet_space(board, ships, bool(may_stay), rollers or Rollers.EXCESS, progress)


# -- the chance to win within R rolls: finite-horizon dynamic programming -----------------


@dataclass(frozen=True)
class FleetAdvice:
    """The advised placement of the fleet after one roll, with ``rolls_left`` rolls to go.

    Attributes
    ----------
    roll : int
        The 2d6 sum, 2..12.
    rolls_left : int
        Rolls to go, this one included.
    moves : tuple of ShipMove
        ``(from, to)`` for every ship (``from == to`` when it stays).
    probability : Fraction or float
        The chance to have every ship on a scoring edge at once within the
        ``rolls_left`` rolls, this roll's placement made (its collision rolls included).
    """

    roll: int
    rolls_left: int
    moves: tuple[ShipMove, ...]
    probability: Fraction | float

    def to_dict(self) -> dict[str, Any]:
        """``{"roll", "rolls_left", "moves": [{"from", "to"}], "probability",
        "probability_exact"}``."""
        return {
            "roll": self.roll,
            "rolls_left": self.rolls_left,
            "moves": [{"from": edge_json(a), "to": edge_json(b)} for a, b in self.moves],
            **probability_json("probability", self.probability),
        }


@dataclass(frozen=True, eq=False)
class FleetOdds:
    """The best chance that every ship scores at once within R rolls; the steering.

    Attributes
    ----------
    status : Status
        ``Status.OPTIMAL``: the values are those of the optimal policy.
    space : FleetSpace
        The joint positions valued.
    start : tuple of Edge
        The fleet's edges, sorted.
    scoring : frozenset of Edge
        The scoring edges.
    rolls : int
        The horizon R.
    exact : bool
        Values are Fractions (else floats within ``error_bound``).
    error_bound : float
        Largest possible difference between a float value and the exact one
        (0 for exact tables): ``16 * R * 2**-53`` (see :func:`fleet_odds`).
    values : ndarray, shape (R + 1, S)
        ``values[t, s]`` = the best probability from joint state ``s`` with ``t``
        rolls to go (Fractions in an object array when ``exact``).
    """

    status: Status
    space: FleetSpace = field(repr=False)
    start: tuple[Edge, ...]
    scoring: frozenset[Edge]
    rolls: int
    exact: bool
    error_bound: float
    values: npt.NDArray[Any] = field(repr=False)

    @property
    def joint_states(self) -> int:
        """Joint positions in the table."""
        return len(self.space)

    @property
    def within(self) -> tuple[Fraction | float, ...]:
        """The start's best probability within ``t`` rolls, for ``t = 0..rolls``."""
        s = self.space.index(self.start)
        return tuple(self._scalar(self.values[t, s]) for t in range(self.rolls + 1))

    def probability(
        self, rolls: int | None = None, fleet: Sequence[Edge] | None = None
    ) -> Fraction | float:
        """Best probability from ``fleet`` (default: the start) within ``rolls`` (default: R).

        Raises
        ------
        InvalidInput
            If ``rolls`` is not in 0..R, or ``fleet`` is not a fleet of this table.
        """
        t = self._rolls_left(self.rolls if rolls is None else rolls, "rolls", 0)
        s = self.space.index(self.start if fleet is None else fleet, "fleet")
        return self._scalar(self.values[t, s])

    def steer(self, fleet: Sequence[Edge], roll: int, rolls_left: int) -> tuple[ShipMove, ...]:
        """Where to put the ships of ``fleet`` after ``roll`` with ``rolls_left`` rolls to go.

        ``rolls_left`` counts this roll (1..R): the placement maximises the best
        probability with ``rolls_left - 1`` rolls after it, collision rolls of
        this roll included. Ties go to the first placement in the order of
        :meth:`FleetSpace.moves`.

        Raises
        ------
        InvalidInput
            If ``roll`` is not in 2..12, ``rolls_left`` not in 1..R, or ``fleet``
            is not a fleet of this table.
        """
        return self._best(fleet, roll, rolls_left)[0]

    def advice(self) -> tuple[FleetAdvice, ...]:
        """The first move from the start with R rolls to go, per roll 2..12 (empty if R = 0)."""
        if self.rolls == 0:
            return ()
        out = []
        for n in ROLLS:
            moves, value = self._best(self.start, n, self.rolls)
            out.append(FleetAdvice(n, self.rolls, moves, value))
        return tuple(out)

    def _best(
        self, fleet: Sequence[Edge], roll: int, rolls_left: int
    ) -> tuple[tuple[ShipMove, ...], Fraction | float]:
        if isinstance(roll, bool) or not isinstance(roll, int) or roll not in _ROLL_INDEX:
            raise InvalidInput("roll", roll, "a 2d6 sum in 2..12")
        t = self._rolls_left(rolls_left, "rolls_left", 1)
        s = self.space.index(fleet, "fleet")
        after = self.values[t - 1]
        best: tuple[tuple[ShipMove, ...], Any] | None = None
        for moves, succ in self.space.moves(s, roll):
            value = self._survival(succ) * after[succ]
            if best is None or value > best[1]:
                best = (moves, value)
        assert best is not None  # every roll leaves at least one placement
        return best[0], self._scalar(best[1])

    def _survival(self, state: int) -> Fraction | float:
        p = survival_probability(int(self.space.collision_rolls[state]))
        return p if self.exact else float(p)

    def _rolls_left(self, t: int, name: str, low: int) -> int:
        if isinstance(t, bool) or not isinstance(t, int) or not low <= t <= self.rolls:
            raise InvalidInput(name, t, f"an integer in {low}..{self.rolls}")
        return t

    def _scalar(self, x: Any) -> Fraction | float:
        return Fraction(x) if self.exact else float(x)

    def to_dict(self) -> dict[str, Any]:
        """The result in the JSON dialect of docs/json.md.

        Members: ``status``, ``ships`` (edges), ``scoring`` (edges, sorted),
        ``rolls``, ``may_stay``, ``collision_rollers``, ``joint_states``,
        ``probability`` / ``probability_exact`` (within R rolls), ``within``
        (one ``{"rolls", "probability", "probability_exact"}`` per t = 0..R),
        ``error_bound`` and ``advice`` (:meth:`FleetAdvice.to_dict` per roll).
        """
        within = self.within
        return {
            "status": str(self.status),
            "ships": [edge_json(e) for e in self.start],
            "scoring": [edge_json(e) for e in sorted(self.scoring)],
            "rolls": self.rolls,
            "may_stay": self.space.may_stay,
            "collision_rollers": str(self.space.rollers),
            "joint_states": self.joint_states,
            **probability_json("probability", within[-1]),
            "within": [
                {"rolls": t, **probability_json("probability", p)} for t, p in enumerate(within)
            ],
            "error_bound": self.error_bound,
            "advice": [a.to_dict() for a in self.advice()],
        }


def _horizon_values(
    space: FleetSpace, scoring: BoolArray, rolls: int, exact: bool, progress: bool = False
) -> npt.NDArray[Any]:
    """``values[t, s]``: backward induction over t = 0..rolls (the one DP core).

    ``V_0 = [s scores]``; ``V_t(s) = 1`` if ``s`` scores, else
    ``sum_n P(n) max_{s' in A(s, n)} q(s') V_{t-1}(s')``, with ``q(s')`` the
    chance that the collision rolls on ``s'`` sink no ship and ``A(s, n) = {s}``
    for a roll that moves no ship.
    """
    n_states = len(space)
    dtype: Any = object if exact else np.float64
    probs = _ROLL_P_EXACT if exact else _ROLL_P
    most = int(space.collision_rolls.max(initial=0))
    by_rolls = [survival_probability(m) for m in range(most + 1)]
    survival = np.array(by_rolls if exact else [float(p) for p in by_rolls], dtype=dtype)[
        space.collision_rolls
    ]
    one: Any = Fraction(1) if exact else 1.0
    zero: Any = Fraction(0) if exact else 0.0
    values = np.empty((rolls + 1, n_states), dtype=dtype)
    v = np.full(n_states, zero, dtype=dtype)
    v[scoring] = one
    values[0] = v
    flat = [space.pair_state[rows] * len(ROLLS) + space.pair_roll[rows] for rows, _ in space.groups]
    # One contiguous array per choice column: a running maximum over a few columns is
    # several times faster than a reduction along a short axis.
    columns = [
        [np.ascontiguousarray(succ[:, j]) for j in range(succ.shape[1])] for _, succ in space.groups
    ]
    per_roll = np.empty((n_states, len(ROLLS)), dtype=dtype)
    with progress_bar(rolls, "fleet odds", "roll", progress) as update:
        for t in range(1, rolls + 1):
            w = survival * v
            per_roll[:] = w[:, None]
            cells = per_roll.reshape(-1)
            for where, cols in zip(flat, columns, strict=True):
                best = w[cols[0]]
                for col in cols[1:]:
                    np.maximum(best, w[col], out=best)
                cells[where] = best
            # einsum, not a BLAS product: 11 columns gain nothing from threads.
            v = np.einsum("sr,r->s", per_roll, probs)
            v[scoring] = one
            values[t] = v
            update(1)
    return values


def fleet_odds(
    board: Board | WindGraph | FleetSpace,
    ships: Sequence[Edge],
    scoring: Iterable[Edge],
    rolls: int,
    *,
    may_stay: bool | None = None,
    rollers: Rollers | None = None,
    exact: bool = False,
    progress: bool = False,
) -> FleetOdds:
    """The steering that maximises the chance that every ship stands on a scoring edge at once
    within ``rolls`` rolls, and that chance for every horizon up to ``rolls``.

    A finite-horizon Markov decision process over the fleet's joint positions
    (unordered: ships of one player are interchangeable). One roll of 2d6 moves
    every ship whose wind blows (seed rule 6); the owner then places each ship
    on one of its allowed edges; the collision rolls of seed rule 11 follow on
    every crowded edge, and a sunk ship ends the attempt (docs/ships.md). The
    attempt succeeds as soon as every ship stands on a scoring edge after a
    roll (or at the start).

    Parameters
    ----------
    board : Board, WindGraph or FleetSpace
        The board, or a prebuilt graph or joint table (reused across calls).
    ships : sequence of Edge
        The fleet's edges, 1..3 ships (repeats allowed: ships may share an edge).
    scoring : iterable of Edge
        The scoring edges (see :func:`isles.models.ships.fleet.scoring_edges`).
    rolls : int
        The horizon R, 0..MAX_FLEET_ROLLS.
    may_stay : bool, optional
        The seed's variant (a ship along a coast may stay); default False, or
        the prebuilt graph's or table's setting.
    rollers : Rollers, optional
        Which ships on a crowded edge roll (default ``Rollers.EXCESS``, or the table's).
    exact : bool
        Fractions instead of floats (at most ``MAX_EXACT_STATES`` joint states).
    progress : bool
        A bar on stderr over the table's rolls and the horizon's
        (:func:`isles.solvers.ships.sailing.progress_bar`).

    Returns
    -------
    FleetOdds
        The values of every joint state for every horizon 0..R (the policy),
        the start's probabilities and the first move's advice.

    Raises
    ------
    InvalidInput
        A ship or scoring edge not on the board, not 1..3 ships, ``rolls`` out
        of range, a table over ``MAX_JOINT_STATES`` joint states (or over
        ``MAX_EXACT_STATES`` when ``exact``, or over ``MAX_TABLE_CELLS`` values
        for R + 1 horizons), or settings that disagree with a prebuilt table.

    Notes
    -----
    Backward induction: ``V_0(s) = 1`` if every ship of ``s`` scores, else 0;
    ``V_t(s) = 1`` on scoring states and otherwise
    ``V_t(s) = sum_n P(n) max_{s' in A(s, n)} q(s') V_{t-1}(s')``, where
    ``A(s, n)`` are the joint placements after roll ``n`` (``{s}`` when no wind
    blows) and ``q(s') = (35/36)**m`` for ``m`` collision rolls on ``s'``. One
    vectorised sweep per roll: a gather and a row maximum over the distinct
    successors of every (state, moving roll) pair, then one dense product with
    the 11 roll probabilities. Cost per roll linear in those successors
    (about 1.2 million for 3 ships on the demo board).

    Float error (``u = 2**-53``, values in [0, 1]): per roll, ``q * V`` with a
    rounded ``q`` costs at most ``2u``, the maxima are exact, the 11-term dot
    product at most ``11.01u`` (``gamma_11``, any summation order) and the
    rounded roll probabilities ``u``: at most ``14.01u < 16u``. The Bellman
    operator is non-expansive (its weights are probabilities and ``q <= 1``), so
    after ``R`` rolls every value is within ``16 R u`` of the exact one:
    ``error_bound`` (5e-14 for R = 30).

    References
    ----------
    Puterman, M. L. (1994). *Markov Decision Processes: Discrete Stochastic
    Dynamic Programming*, ch. 4 (finite-horizon models, backward induction).
    Rules: docs/ships.md ("The fleet"); seed 004_644cf972d8964df4.txt.

    Examples
    --------
    Two ships on the demo board; red's two settlements make six scoring edges:

    >>> from isles.models.ships.fleet import scoring_edges
    >>> from isles.models.hexgrid import edge
    >>> from isles.models.ships.coordinates import parse_settlement
    >>> from isles.models.ships.demo import demo_board
    >>> board = demo_board()
    >>> red = {parse_settlement("0,1:0,2:1,1"): "red", parse_settlement("-1,0:0,0:-1,1"): "red"}
    >>> home = scoring_edges(board, "red", red)
    >>> odds = fleet_odds(board, [edge((0, 0), (0, 1)), edge((1, 1), (1, 2))], home, 10)
    >>> odds.joint_states, round(odds.probability(), 4), round(odds.probability(3), 4)
    (3486, 0.1214, 0.0129)

    On a 10 with 10 rolls to go, the first ship turns onto a scoring edge:

    >>> [f"{a} -> {b}" for a, b in odds.steer(odds.start, 10, 10)]
    ['0,0:0,1 -> -1,1:0,0', '1,1:1,2 -> 1,1:1,2']
    """
    start = check_fleet(_board_of(board), ships)
    target = _check_scoring(_board_of(board), scoring)
    if isinstance(rolls, bool) or not isinstance(rolls, int) or not 0 <= rolls <= MAX_FLEET_ROLLS:
        raise InvalidInput("rolls", rolls, f"an integer in 0..{MAX_FLEET_ROLLS}")
    space = _space(board, len(start), may_stay, rollers, progress)
    n_states = len(space)
    if exact and n_states > MAX_EXACT_STATES:
        raise InvalidInput(
            "exact",
            True,
            f"floats for {n_states:,} joint states (exact Fractions up to {MAX_EXACT_STATES:,})",
        )
    if (rolls + 1) * n_states > MAX_TABLE_CELLS:
        raise InvalidInput(
            "rolls",
            rolls,
            f"at most {MAX_TABLE_CELLS // n_states - 1} rolls for {n_states:,} joint states "
            f"(the table keeps at most {MAX_TABLE_CELLS:,} values)",
        )
    values = _horizon_values(space, space.scoring_mask(target), rolls, exact, progress)
    return FleetOdds(
        status=Status.OPTIMAL,
        space=space,
        start=start,
        scoring=target,
        rolls=rolls,
        exact=exact,
        error_bound=0.0 if exact else 16.0 * rolls * _U,
        values=values,
    )


# -- the fewest expected rolls: a stochastic shortest path over joint states --------------


@dataclass(frozen=True, eq=False)
class FleetNavigation:
    """The fewest expected rolls until every ship stands on a scoring edge at once; the steering.

    Attributes
    ----------
    status : Status
        ``OPTIMAL`` (policy iteration stopped: no decision improves) when the start
        is reachable or trapped; ``UNREACHABLE`` when no sequence of rolls gets
        every ship there; ``TIMED_OUT`` if the iteration cap was hit.
    space : FleetSpace
    start : tuple of Edge
    scoring : frozenset of Edge
    iterations : int
        Policy-iteration rounds (one sparse solve each).
    bellman_residual : float
        ``max |J - (1 + sum_n P(n) min J(next))|`` over the reachable states, in
        rolls; each value is within ``bellman_residual * max(finite values)`` of
        the exact one.
    values : ndarray of float, shape (S,)
        Expected rolls per joint state; ``inf`` where not reachable.
    reach_codes : ndarray of int, shape (S,)
        Index into ``list(Reach)`` per joint state.
    choice : ndarray of int, shape (S, 11)
        The joint state the optimal steering places the fleet on, per state and
        roll (meaningful where reachable; the state itself when nothing moves).
    """

    status: Status
    space: FleetSpace = field(repr=False)
    start: tuple[Edge, ...]
    scoring: frozenset[Edge]
    iterations: int
    bellman_residual: float
    values: FloatArray = field(repr=False)
    reach_codes: IntArray = field(repr=False)
    choice: IntArray = field(repr=False)

    @property
    def joint_states(self) -> int:
        """Joint positions in the table."""
        return len(self.space)

    def reach(self, fleet: Sequence[Edge] | None = None) -> Reach:
        """Reachable, trapped or unreachable from ``fleet`` (default: the start)."""
        s = self.space.index(self.start if fleet is None else fleet, "fleet")
        return list(Reach)[int(self.reach_codes[s])]

    def expected_rolls(self, fleet: Sequence[Edge] | None = None) -> float | None:
        """Fewest expected rolls from ``fleet`` (default: the start); None when not reachable."""
        s = self.space.index(self.start if fleet is None else fleet, "fleet")
        return float_or_none(float(self.values[s]))

    @property
    def error_bound(self) -> float:
        """Largest error of any finite expected rolls, in rolls: the Bellman residual times
        the largest finite value (the expected rolls of a proper steering bound how often a
        per-roll error can add up)."""
        finite = self.values[np.isfinite(self.values)]
        return self.bellman_residual * float(finite.max()) if len(finite) else 0.0

    def steer(self, fleet: Sequence[Edge], roll: int) -> tuple[ShipMove, ...]:
        """Where to put the ships of ``fleet`` after ``roll`` under the optimal steering.

        Raises
        ------
        InvalidInput
            If ``fleet`` is not reachable (no steering is meaningful) or ``roll``
            is not in 2..12.
        """
        if isinstance(roll, bool) or not isinstance(roll, int) or roll not in _ROLL_INDEX:
            raise InvalidInput("roll", roll, "a 2d6 sum in 2..12")
        s = self.space.index(fleet, "fleet")
        if self.reach_codes[s] != 0:
            raise InvalidInput("fleet", [str(e) for e in fleet], "a reachable fleet position")
        want = int(self.choice[s, _ROLL_INDEX[roll]])
        for moves, succ in self.space.moves(s, roll):
            if succ == want:
                return moves
        raise AssertionError("the chosen placement is one of the placements")  # pragma: no cover

    def to_dict(self) -> dict[str, Any]:
        """The result in the JSON dialect of docs/json.md.

        Members: ``status``, ``ships``, ``scoring``, ``may_stay``,
        ``collision_rollers``, ``joint_states``, ``reach``, ``expected_rolls``
        (null unless reachable), ``iterations``, ``bellman_residual``,
        ``error_bound`` (the bound on ``expected_rolls``, null with it).
        """
        expected = self.expected_rolls()
        bound = self.error_bound
        return {
            "status": str(self.status),
            "ships": [edge_json(e) for e in self.start],
            "scoring": [edge_json(e) for e in sorted(self.scoring)],
            "may_stay": self.space.may_stay,
            "collision_rollers": str(self.space.rollers),
            "joint_states": self.joint_states,
            "reach": str(self.reach()),
            "expected_rolls": expected,
            "iterations": self.iterations,
            "bellman_residual": self.bellman_residual,
            "error_bound": None if expected is None else bound,
        }


#: Above this many transient states a policy is evaluated by BiCGSTAB, not by a sparse LU:
#: the joint chain is a product of the ships' graphs and its LU fills in (3 ships on the
#: demo board: minutes instead of a fraction of a second per solve).
_DIRECT_SOLVE_LIMIT = 5_000
#: Relative residual at which the iterative evaluation stops.
_SOLVE_RTOL = 1e-13


def _dot(a: FloatArray, b: FloatArray) -> float:
    # einsum rather than BLAS: threaded level-1 BLAS calls on vectors of this size cost more
    # in thread hand-offs than they save, ten times more CPU on a busy machine.
    return float(np.einsum("i,i->", a, b))


def _bicgstab(
    matrix: sp.csr_matrix, rhs: FloatArray, guess: FloatArray, rtol: float, maxiter: int
) -> tuple[FloatArray, bool]:
    """Unpreconditioned BiCGSTAB (van der Vorst 1992); returns the iterate and whether
    ``||rhs - matrix x|| <= rtol ||rhs||`` was reached (False on a breakdown)."""
    x = guess.copy()
    r = rhs - matrix @ x
    shadow = r.copy()
    goal = rtol * math.sqrt(_dot(rhs, rhs))
    rho = alpha = omega = 1.0
    v = np.zeros_like(rhs)
    p = np.zeros_like(rhs)
    for _ in range(maxiter):
        if math.sqrt(_dot(r, r)) <= goal:
            return x, True
        rho_next = _dot(shadow, r)
        if rho_next == 0.0 or omega == 0.0:
            return x, False
        p = r + (rho_next / rho) * (alpha / omega) * (p - omega * v)
        v = matrix @ p
        alpha = rho_next / _dot(shadow, v)
        r = r - alpha * v
        x = x + alpha * p
        if math.sqrt(_dot(r, r)) <= goal:
            return x, True
        t = matrix @ r
        omega = _dot(t, r) / _dot(t, t) if _dot(t, t) > 0.0 else 0.0
        x = x + omega * r
        r = r - omega * t
        rho = rho_next
    return x, False


def _evaluate(matrix: sp.csr_matrix, guess: FloatArray | None) -> FloatArray:
    """Expected rolls of a proper policy: the solution of ``(I - P_policy) J = 1``.

    Small systems by sparse LU; large ones by BiCGSTAB warm-started from the previous
    policy's values, then restarted LGMRES if it breaks down or stalls. Whatever the
    route, the caller reports the Bellman residual of the values it keeps.
    """
    ones = np.ones(matrix.shape[0])
    if matrix.shape[0] <= _DIRECT_SOLVE_LIMIT:
        return np.atleast_1d(np.asarray(spsolve(matrix.tocsc(), ones), dtype=np.float64))
    start = np.zeros_like(ones) if guess is None else guess
    x, converged = _bicgstab(matrix, ones, start, _SOLVE_RTOL, 20_000)
    if not converged:
        x, _ = lgmres(matrix, ones, x0=x, rtol=_SOLVE_RTOL, atol=0.0, maxiter=2_000)
    return np.asarray(x, dtype=np.float64)


def _layers(n: int, src: IntArray, dst: IntArray, keep: BoolArray, targets: IntArray) -> FloatArray:
    """Fewest arcs from each state to ``targets`` using the arcs ``keep``; inf if none."""
    rows = np.concatenate([dst[keep], np.full(len(targets), n, dtype=np.int64)])
    cols = np.concatenate([src[keep], targets])
    graph = sp.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(n + 1, n + 1))
    dist = dijkstra(graph, directed=True, indices=n, unweighted=True)
    return np.asarray(dist[:n], dtype=np.float64) - 1.0


def fleet_navigate(
    board: Board | WindGraph | FleetSpace,
    ships: Sequence[Edge],
    scoring: Iterable[Edge],
    *,
    may_stay: bool | None = None,
    rollers: Rollers | None = None,
    max_iterations: int = 1000,
    progress: bool = False,
) -> FleetNavigation:
    """The fewest expected rolls until every ship stands on a scoring edge at once; the steering.

    A stochastic shortest-path problem over the fleet's joint positions: one
    step is one roll, the owner places the ships after it, a sunk ship is a
    failure that never arrives. Only positions from which some steering
    arrives **with probability 1** have a finite expectation: such steering
    never lets a collision happen (a collision sinks a ship with probability
    1/36 or more). The others are reported ``trapped`` (arrival possible, not
    sure) or ``unreachable``, never as a number.

    Parameters
    ----------
    board : Board, WindGraph or FleetSpace
        The board, or a prebuilt graph or joint table.
    ships : sequence of Edge
        The fleet's edges, 1..3 ships.
    scoring : iterable of Edge
        The scoring edges.
    may_stay : bool, optional
        The seed's variant; default False, or the prebuilt graph's or table's.
    rollers : Rollers, optional
        Which ships on a crowded edge roll (default ``Rollers.EXCESS``, or the table's).
    max_iterations : int
        Cap on policy-iteration rounds (status ``timed_out`` if hit).
    progress : bool
        A bar on stderr over the rounds (:func:`isles.solvers.ships.sailing.progress_bar`).

    Returns
    -------
    FleetNavigation
        Expected rolls and reachability of every joint state, the steering.

    Raises
    ------
    InvalidInput
        As :func:`fleet_odds`.

    Notes
    -----
    As the single-ship navigator (docs/ships.md): the joint states from which
    arrival is possible (a backward breadth-first search); the almost-sure
    fixpoint (drop states where some roll leaves no clear placement inside the
    set, and states that can no longer reach a clear scoring state inside it);
    then policy iteration on that set from the proper policy "fewest rolls
    from the target", one solve of ``(I - P_policy) J = 1`` per round. The
    solve is a sparse LU (``scipy.sparse.linalg.spsolve``) up to 5,000
    transient states; beyond, the LU of the joint chain fills in (minutes for
    3 ships on the demo board), so BiCGSTAB warm-started from the previous
    round's values, to a relative residual of ``1e-13``. A decision changes
    only when another placement is better by more than a relative ``1e-10``.
    The reported ``bellman_residual`` is measured on the values returned,
    whatever the route.

    References
    ----------
    Bertsekas, D. P. & Tsitsiklis, J. N. (1991). An analysis of stochastic
    shortest path problems. *Mathematics of Operations Research* 16(3).
    de Alfaro, L. (1997). *Formal Verification of Probabilistic Systems*
    (almost-sure reachability). Puterman (1994), ch. 6-7 (policy iteration).
    van der Vorst, H. A. (1992). Bi-CGSTAB. *SIAM J. Sci. Stat. Comput.* 13(2).
    Rules: docs/ships.md; seed 004_644cf972d8964df4.txt.

    Examples
    --------
    >>> from isles.models.ships.fleet import scoring_edges
    >>> from isles.models.hexgrid import edge
    >>> from isles.models.ships.coordinates import parse_settlement
    >>> from isles.models.ships.demo import demo_board
    >>> board = demo_board()
    >>> red = {parse_settlement("0,1:0,2:1,1"): "red", parse_settlement("-1,0:0,0:-1,1"): "red"}
    >>> home = scoring_edges(board, "red", red)
    >>> nav = fleet_navigate(board, [edge((0, 0), (0, 1)), edge((1, 1), (1, 2))], home)
    >>> nav.status, nav.reach(), round(nav.expected_rolls(), 2)
    (<Status.OPTIMAL: 'optimal'>, <Reach.REACHABLE: 'reachable'>, 42.56)
    """
    start = check_fleet(_board_of(board), ships)
    target = _check_scoring(_board_of(board), scoring)
    space = _space(board, len(start), may_stay, rollers, progress)
    mask = space.scoring_mask(target)
    n = len(space)
    clear = space.collision_rolls == 0
    src, dst = space.arcs()
    t_idx = np.flatnonzero(mask)
    arrive = np.flatnonzero(mask & clear)
    active = ~mask[src]

    # Positions from which arrival is possible at all (collisions only lower the odds).
    possible = np.isfinite(_layers(n, src, dst, active, t_idx)) | mask

    # Almost-sure fixpoint: a clear placement inside the set on every roll.
    winning = possible.copy()
    while True:
        inside = winning & clear
        safe = inside.copy()  # a roll that moves no ship leaves the fleet where it is
        for rows, succ in space.groups:
            stuck = ~np.any(inside[succ], axis=1)
            safe[space.pair_state[rows][stuck]] = False
        layers = _layers(n, src, dst, active & safe[src] & winning[src] & inside[dst], arrive)
        shrunk = (np.isfinite(layers) & winning) | mask
        if np.array_equal(shrunk, winning):
            break
        winning = shrunk
    reach_codes = np.where(winning, 0, np.where(possible, 1, 2)).astype(np.int64)

    transient = np.flatnonzero(winning & ~mask)
    local = np.full(n, -1, dtype=np.int64)
    local[transient] = np.arange(len(transient))
    allowed = winning & clear
    cost = np.where(np.isfinite(layers), layers, np.inf)
    cost[mask & ~clear] = np.inf

    # Proper initial policy: per pair, the allowed placement fewest rolls from arriving.
    choice = np.repeat(np.arange(n, dtype=np.int64)[:, None], len(ROLLS), axis=1)
    cells = choice.reshape(-1)
    flat = [space.pair_state[rows] * len(ROLLS) + space.pair_roll[rows] for rows, _ in space.groups]
    for where, (_, succ) in zip(flat, space.groups, strict=True):
        layer = np.where(allowed[succ], cost[succ], np.inf)
        cells[where] = succ[np.arange(len(succ)), layer.argmin(axis=1)]

    values = np.full(n, np.inf)
    values[t_idx] = 0.0
    status = Status.TIMED_OUT
    iterations = 0
    eye = sp.identity(len(transient), format="csr")
    rows_all = np.repeat(np.arange(len(transient), dtype=np.int64), len(ROLLS))
    probs_all = np.tile(_ROLL_P, len(transient))
    with progress_bar(None, "fleet policy iteration", "round", progress) as update:
        while iterations < max_iterations and len(transient):
            iterations += 1
            cols = local[choice[transient].reshape(-1)]
            inner = cols >= 0
            mat = sp.csr_matrix(
                (probs_all[inner], (rows_all[inner], cols[inner])),
                shape=(len(transient), len(transient)),
            )
            guess = values[transient] if iterations > 1 else None
            values[transient] = _evaluate((eye - mat).tocsr(), guess)
            update(1)
            changed = False
            for where, (rows, succ) in zip(flat, space.groups, strict=True):
                live = local[space.pair_state[rows]] >= 0
                option = np.where(allowed[succ[live]], values[succ[live]], np.inf)
                best = option.min(axis=1)
                current = values[cells[where[live]]]
                better = best < current - 1e-10 * (1.0 + np.abs(current))
                if better.any():
                    changed = True
                    pick = option[better].argmin(axis=1)
                    cells[where[live][better]] = succ[live][better][np.arange(len(pick)), pick]
            if not changed:
                status = Status.OPTIMAL
                break
    if not len(transient):
        status = Status.OPTIMAL

    residual = 0.0
    if len(transient):
        per_roll = np.repeat(values[:, None], len(ROLLS), axis=1)
        per_roll[~allowed] = np.inf
        best_cells = per_roll.reshape(-1)
        for where, (_, succ) in zip(flat, space.groups, strict=True):
            best_cells[where] = np.where(allowed[succ], values[succ], np.inf).min(axis=1)
        bellman = 1.0 + np.einsum("sr,r->s", per_roll[transient], _ROLL_P)
        residual = float(np.max(np.abs(values[transient] - bellman)))
    start_code = int(reach_codes[space.index(start)])
    if start_code == 2:
        status = Status.UNREACHABLE
    return FleetNavigation(
        status=status,
        space=space,
        start=start,
        scoring=target,
        iterations=iterations,
        bellman_residual=residual,
        values=values,
        reach_codes=reach_codes,
        choice=choice,
    )


# -- the one call behind ``isles sail`` with several ships ------------------------------


@dataclass(frozen=True, eq=False)
class FleetVoyage:
    """Every ship home at once: the odds within R rolls, the fewest expected rolls, the ports.

    Attributes
    ----------
    status : Status
        ``OPTIMAL`` (the odds are those of the best steering) unless no sequence of
        rolls brings every ship home: ``UNREACHABLE``.
    odds : FleetOdds
        The best chance within every horizon 0..R and the first move's advice.
    navigation : FleetNavigation
        The fewest expected rolls (finite only where ``reach`` is reachable).
    near : tuple of Vertex
        The corners given; their ship edges are among the scoring edges.
    ports : tuple of Port
        The harbours among the scoring edges and what the cargo may be traded for there.
    """

    status: Status
    odds: FleetOdds
    navigation: FleetNavigation
    near: tuple[Vertex, ...]
    ports: tuple[Port, ...]

    @property
    def reach(self) -> Reach:
        """Reachable (surely), trapped (possibly, not surely) or unreachable from the start."""
        return self.navigation.reach()

    @property
    def expected_rolls(self) -> float | None:
        """Fewest expected rolls until every ship scores at once; None unless reachable."""
        return self.navigation.expected_rolls()

    @property
    def at_target(self) -> bool:
        """Whether every ship already stands on a scoring edge (0 rolls: the moment is now)."""
        return all(e in self.odds.scoring for e in self.odds.start)

    def to_dict(self) -> dict[str, Any]:
        """What ``isles sail --json`` prints with several ``--from``.

        Members: ``status``, ``ships``, ``to`` (every scoring edge, sorted),
        ``near`` (corners), ``rolls`` (R), ``may_stay``, ``collision_rollers``,
        ``joint_states``, ``reach``, ``at_target`` (every ship already scores),
        ``expected_rolls`` (null unless reachable),
        ``ports`` (:meth:`isles.models.ships.harbours.Port.to_dict` each), ``odds``
        (:meth:`FleetOdds.to_dict`) and ``navigation`` (:meth:`FleetNavigation.to_dict`).
        """
        return {
            "status": str(self.status),
            "ships": [edge_json(e) for e in self.odds.start],
            "to": [edge_json(e) for e in sorted(self.odds.scoring)],
            "near": [corner_json(v) for v in self.near],
            "rolls": self.odds.rolls,
            "may_stay": self.odds.space.may_stay,
            "collision_rollers": str(self.odds.space.rollers),
            "joint_states": self.odds.joint_states,
            "reach": str(self.reach),
            "at_target": self.at_target,
            "expected_rolls": self.expected_rolls,
            "ports": [p.to_dict() for p in self.ports],
            "odds": self.odds.to_dict(),
            "navigation": self.navigation.to_dict(),
        }


def fleet(
    board: Board | WindGraph | FleetSpace,
    ships: Sequence[object],
    targets: Iterable[object] = (),
    *,
    near: Iterable[object] = (),
    ports: Iterable[str] = (),
    within: int = 10,
    may_stay: bool | None = None,
    rollers: Rollers | None = None,
    exact: bool = False,
    progress: bool = False,
) -> FleetVoyage:
    """Bring every ship of a fleet onto a scoring edge at once: the one call of ``isles sail``.

    The scoring edges are ``targets`` plus every ship edge at the ``near``
    corners (:func:`isles.models.ships.fleet.fleet_targets`); harbours among them are
    ports (seed rule 8). One joint table serves :func:`fleet_odds` (the best
    chance within every horizon up to ``within`` rolls, and the first move) and
    :func:`fleet_navigate` (the fewest expected rolls, reachable or trapped).

    Parameters
    ----------
    board : Board, WindGraph or FleetSpace
        The board (its harbours are the ports), or a prebuilt graph or joint table.
    ships : sequence of Edge
        1..3 ship edges (each an ``Edge`` or a pair of hexes).
    targets : iterable of Edge
        Scoring edges.
    near : iterable of Vertex
        Corners of the player's buildings (each a ``Vertex`` or three hexes).
    ports : iterable of str
        Harbour kinds (``generic``, ``wool``, ..., or ``any``): the board's
        harbours of these kinds score too.
    within : int
        The horizon R, 0..MAX_FLEET_ROLLS.
    may_stay, rollers, exact
        As :func:`fleet_odds`.
    progress : bool
        Bars on stderr over the table, the horizon and the policy-iteration
        rounds (:func:`isles.solvers.ships.sailing.progress_bar`; ``isles sail`` on a
        terminal).

    Returns
    -------
    FleetVoyage

    Raises
    ------
    InvalidInput
        As :func:`fleet_odds` (``ships[i]``, ``targets[i]``, ``near[i]``,
        ``ports[i]``, ``within``, a board too big for the joint table with its
        count and the limit). The checks of the parameters alone are those of
        the declaration :class:`isles.models.questions.Fleet`.

    Examples
    --------
    >>> from isles.models.ships.demo import demo_board
    >>> v = fleet(demo_board(), [((0, 0), (0, 1)), ((1, 1), (1, 2))],
    ...           near=[((0, 1), (0, 2), (1, 1)), ((-1, 0), (0, 0), (-1, 1))], within=10)
    >>> v.status, v.reach, round(v.odds.probability(), 4), round(v.expected_rolls, 2)
    (<Status.OPTIMAL: 'optimal'>, <Reach.REACHABLE: 'reachable'>, 0.1214, 42.56)
    """
    question = Fleet.ask(
        board=board,
        ships=ships,
        targets=targets,
        near=near,
        ports=ports,
        within=within,
        may_stay=may_stay,
        rollers=rollers,
        exact=exact,
    )
    return fleet_voyage(question, progress=progress)


def fleet_voyage(question: Fleet, *, progress: bool = False) -> FleetVoyage:
    """The voyage a validated :class:`~isles.models.questions.Fleet` asks (:func:`fleet`)."""
    board = question.board
    plain = _board_of(board)
    ships = question.ships
    fleet_edges = [check_ship_edge(plain, e, f"ships[{i}]") for i, e in enumerate(ships)]
    targets, corners = voyage_targets(plain, question)
    scoring = fleet_targets(plain, targets, corners)
    size = len(check_fleet(plain, fleet_edges))
    space = _space(board, size, question.may_stay, question.rollers, progress)
    try:
        odds = fleet_odds(
            space, fleet_edges, scoring, question.within, exact=question.exact, progress=progress
        )
    except InvalidInput as exc:
        if exc.field != "rolls":
            raise
        raise InvalidInput("within", exc.value, exc.expected) from None
    navigation = fleet_navigate(space, fleet_edges, scoring, progress=progress)
    status = Status.UNREACHABLE if navigation.reach() is Reach.UNREACHABLE else Status.OPTIMAL
    return FleetVoyage(
        status=status,
        odds=odds,
        navigation=navigation,
        near=tuple(corners),
        ports=ports(plain, scoring),
    )
