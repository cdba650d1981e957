"""The joint positions of a fleet of 1 to 3 ships on a board, and their moves under each roll.

Implements docs/ships.md ("The fleet"; seed 004_644cf972d8964df4.txt, rules 2, 6 and
11): the joint table every fleet solver values (its states ranked as multisets, the
owner's placements after each roll, the collision rolls of each state), built once.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from isles.models.board import Board
from isles.models.errors import InvalidInput
from isles.models.hexgrid import Edge
from isles.models.ships.fleet import Rollers, check_fleet, edge_rollers
from isles.models.ships.limits import MAX_SHIPS, ROLLS
from isles.models.ships.winds import capacity, check_ship_edge
from isles.solvers.ships.graph import ROLL_INDEX, BoolArray, IntArray, WindGraph, wind_graph
from isles.solvers.work import Bar, Progress

__all__ = [
    "MAX_JOINT_STATES",
    "FleetSpace",
    "ShipMove",
    "check_scoring",
    "fleet_board",
    "fleet_space",
    "joint_state_count",
    "space_for",
]

#: Largest joint table built: unordered positions of the fleet. The demo board with 3
#: ships has 98,770 and peaks at about 150 MB (the expected-rolls solve); at the limit
#: (3 ships on 132 ship edges: 392,084) ``isles sail --within 30`` measured 23 s and
#: 1.2 GB peak (docs/ships.md, "Limits").
MAX_JOINT_STATES = 400_000

#: A ship's move on one roll: the edge it stood on and the edge it ends on.
ShipMove = tuple[Edge, Edge]


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
        The single-ship moves (:func:`isles.solvers.ships.graph.wind_graph`).
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
        r = ROLL_INDEX[roll]
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
        chosen = check_scoring(self.graph.board, scoring)
        on = np.zeros(len(self.graph), dtype=bool)
        on[[self.graph.index[e] for e in chosen]] = True
        return np.asarray(np.all(on[self.states], axis=1))

    def arcs(self) -> tuple[IntArray, IntArray]:
        """Every (state, successor) pair the owner may choose on some moving roll."""
        empty = np.zeros(0, dtype=np.int64)
        src = [self.pair_state[rows].repeat(succ.shape[1]) for rows, succ in self.groups]
        dst = [succ.reshape(-1) for _, succ in self.groups]
        return np.concatenate([empty, *src]), np.concatenate([empty, *dst])


def check_scoring(board: Board, scoring: Iterable[Edge]) -> frozenset[Edge]:
    """The scoring edges, each a ship edge of ``board`` (named ``scoring[i]``); at least one."""
    chosen = frozenset(check_ship_edge(board, e, f"scoring[{i}]") for i, e in enumerate(scoring))
    if not chosen:
        raise InvalidInput("scoring", "[]", "at least one scoring edge")
    return chosen


def fleet_space(
    board: Board | WindGraph,
    ships: int,
    may_stay: bool = False,
    rollers: Rollers = Rollers.EXCESS,
    progress: Progress = False,
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
    progress : bool, None or callable
        A bar over the rolls tabulated (:data:`isles.solvers.work.Progress`).

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
    rows of :class:`isles.solvers.ships.graph.WindGraph.options`) are combined by
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
    pair_state, pair_roll, groups = _successors(graph, states, progress)
    return FleetSpace(
        graph=graph,
        ships=ships,
        rollers=rollers,
        states=states,
        collision_rolls=_collision_rolls(graph, states, rollers),
        pair_state=pair_state,
        pair_roll=pair_roll,
        groups=groups,
    )


def _collision_rolls(graph: WindGraph, states: IntArray, rollers: Rollers) -> IntArray:
    """The collision rolls of the fleet standing on each joint state (0: it is clear)."""
    ships = states.shape[1]
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
    return collision_rolls


def _successors(
    graph: WindGraph, states: IntArray, progress: Progress
) -> tuple[IntArray, IntArray, tuple[tuple[IntArray, IntArray], ...]]:
    """The (state, roll) pairs where some ship may move, and their distinct successors
    grouped by their count (:attr:`FleetSpace.groups`)."""
    n, ships = len(graph), states.shape[1]
    width = graph.options.shape[2]
    combos = np.array(list(itertools.product(range(width), repeat=ships)), dtype=np.int64)
    binomials = _binomials(n, ships)
    # Per distinct-choice count c: the pairs' states, rolls and sorted successors (c columns).
    found: dict[int, list[tuple[IntArray, int, IntArray]]] = {}
    with Bar(len(ROLLS), "fleet table", progress, unit="roll") as bar:
        for r in range(len(ROLLS)):
            bar.update(1)
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
    return (
        np.concatenate(p_state) if p_state else empty,
        np.concatenate(p_roll) if p_roll else empty,
        tuple(groups),
    )


def fleet_board(board: Board | WindGraph | FleetSpace) -> Board:
    """The board under a board, a wind graph or a joint table."""
    if isinstance(board, FleetSpace):
        return board.graph.board
    return board.board if isinstance(board, WindGraph) else board


def space_for(
    board: Board | WindGraph | FleetSpace,
    ships: int,
    may_stay: bool | None,
    rollers: Rollers | None,
    progress: Progress = False,
) -> FleetSpace:
    """The joint table for a call: ``board`` itself when prebuilt (its settings must agree),
    else built (:func:`fleet_space`)."""
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
