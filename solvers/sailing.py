"""How fast can a ship blown by the 2d6 winds reach a target, and what does it risk on the way?

Implements RULES.md section 4 (seed 004_644cf972d8964df4.txt, rules 6, 7, 11, 12):
navigation as a stochastic shortest-path Markov decision process, risk tables, harvest.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Literal

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp
from scipy.sparse.csgraph import dijkstra
from scipy.sparse.linalg import spsolve

from isles.models.catan import Board, Terrain, roll_probability
from isles.models.errors import InvalidInput
from isles.models.hexgrid import DIRECTIONS, Edge, Hex, Vertex
from isles.models.ships import (
    CARGO_LIMIT,
    ROLLS,
    Encounter,
    cargo_after,
    check_ship_edge,
    harvest,
    outcome_table,
    pirate_options,
    settlement_edges,
    ship_edges,
)

__all__ = [
    "Arrival",
    "CargoOutlook",
    "Navigation",
    "Reach",
    "WindGraph",
    "arrival_distribution",
    "cargo_outlook",
    "expected_harvest",
    "navigate",
    "pirate_reach_probability",
    "target_edges",
    "wind_graph",
]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

#: Probability of each roll in ROLLS order, as floats for the linear algebra.
_ROLL_P: FloatArray = np.array([float(roll_probability(n)) for n in ROLLS])
_ROLL_INDEX: dict[int, int] = {n: i for i, n in enumerate(ROLLS)}
_DIRECTION_INDEX: dict[tuple[int, int], int] = {(d.q, d.r): k for k, d in enumerate(DIRECTIONS)}


@dataclass(frozen=True, eq=False)
class WindGraph:
    """The wind moves of every ship edge of a board, as arrays (built once per board).

    Attributes
    ----------
    board : Board
        The board the graph was built from.
    edges : tuple of Edge
        The ship edges (:func:`isles.models.ships.ship_edges`), indexed 0..N-1.
    index : Mapping[Edge, int]
        Edge -> its index.
    options : ndarray of int, shape (N, 11, K)
        ``options[i, r]`` = indices of the edges a ship on edge ``i`` may end on
        after roll ``ROLLS[r]`` (padded by repeating the first option).
    may_stay : bool
        Whether the seed's variant (a ship along a coast may stay) is in force.
    """

    board: Board
    edges: tuple[Edge, ...]
    index: Mapping[Edge, int]
    options: IntArray
    may_stay: bool

    def __len__(self) -> int:
        return len(self.edges)


def wind_graph(board: Board, may_stay: bool = False) -> WindGraph:
    """Tabulate :func:`isles.models.ships.ship_options` for every ship edge and roll.

    Built directly from the geometry (one pass over the edges, no per-roll calls)
    so that boards of 100,000 edges take well under a few seconds; the test suite
    checks it against :func:`isles.models.ships.ship_options` on small boards.

    Raises
    ------
    InvalidInput
        If the board has no ship edge (no sea hex next to another hex).

    Examples
    --------
    >>> from isles.models.ships import demo_board
    >>> g = wind_graph(demo_board())
    >>> len(g), g.options.shape[:2]
    (83, (83, 11))
    """
    edges = tuple(ship_edges(board))
    if not edges:
        raise InvalidInput("board", repr(board), "a board with at least one ship edge")
    index = {e: i for i, e in enumerate(edges)}
    tiles = board.tiles
    per_edge: list[dict[int, list[int]]] = []
    width = 1
    for i, e in enumerate(edges):
        # The hexes next to both a and b = a + D[k] are a + D[k - 1] and a + D[k + 1].
        k = _DIRECTION_INDEX[(e.b.q - e.a.q, e.b.r - e.a.r)]
        shared = [
            x
            for d in (DIRECTIONS[(k + 1) % 6], DIRECTIONS[(k - 1) % 6])
            if (x := Hex(e.a.q + d.q, e.a.r + d.r)) in tiles
        ]
        moves: dict[int, list[int]] = {}
        coast = False
        for h in (e.a, e.b):
            tile = tiles[h]
            if tile.terrain is not Terrain.SEA:
                coast = True
                continue
            if tile.number is None:
                continue
            bucket = moves.setdefault(_ROLL_INDEX[tile.number], [])
            bucket.extend(index[_edge(h, x)] for x in shared)
        for r, bucket in list(moves.items()):
            unique = sorted(set(bucket))
            if not unique:
                del moves[r]
                continue
            if may_stay and coast:
                unique = sorted({*unique, i})
            moves[r] = unique
            width = max(width, len(unique))
        per_edge.append(moves)
    options = np.empty((len(edges), len(ROLLS), width), dtype=np.int64)
    options[:] = np.arange(len(edges), dtype=np.int64)[:, None, None]
    for i, moves in enumerate(per_edge):
        for r, targets in moves.items():
            options[i, r, :] = targets[0]
            options[i, r, : len(targets)] = targets
    return WindGraph(board, edges, index, options, may_stay)


def _edge(a: Hex, b: Hex) -> Edge:
    return Edge(a, b) if a < b else Edge(b, a)


def target_edges(
    board: Board, edges: Iterable[Edge] = (), settlements: Iterable[Vertex] = ()
) -> frozenset[Edge]:
    """The target set: the given ship edges plus every ship edge next to the settlements.

    Raises
    ------
    InvalidInput
        If an edge is not a ship edge of ``board``, a settlement touches no
        ship edge, or the set is empty.

    >>> from isles.models.ships import demo_board, parse_settlement
    >>> sorted(map(str, target_edges(demo_board(), settlements=[parse_settlement("0,3:0,2:1,2")])))
    ['0,2:0,3', '0,3:1,2']
    """
    out = {check_ship_edge(board, e, "target") for e in edges}
    for v in settlements:
        near = settlement_edges(board, v)
        if not near:
            raise InvalidInput("settlement", f"{v.a}:{v.b}:{v.c}", "a corner next to the sea")
        out.update(near)
    if not out:
        raise InvalidInput("target", "[]", "at least one target edge or settlement")
    return frozenset(out)


class Reach(StrEnum):
    """Whether a ship on an edge can be steered to the target."""

    #: Some policy arrives with probability 1: the expected rolls are finite.
    REACHABLE = "reachable"
    #: Arrival is possible, but under every policy the ship may never arrive
    #: (the expected rolls are infinite).
    TRAPPED = "trapped"
    #: No sequence of rolls brings the ship there.
    UNREACHABLE = "unreachable"


@dataclass(frozen=True, eq=False)
class Navigation:
    """The optimal steering to a target set, with the minimal expected rolls from every edge.

    Attributes
    ----------
    graph : WindGraph
    targets : frozenset of Edge
    status : {"optimal", "iteration_limit"}
        ``"optimal"`` when policy iteration stopped because no decision improves.
    iterations : int
        Policy-iteration rounds (one sparse solve each).
    bellman_residual : float
        ``max |V - (1 + sum_n P(n) min V(next))|`` over reachable edges, in
        rolls. The floats come from sparse LU solves; for the optimal policy
        ``(I - P) (V - V_exact)`` is at most this residual per edge, so each value
        is within ``bellman_residual * max(values)`` of the exact one.
    values : ndarray of float, shape (N,)
        Expected rolls per edge index; ``inf`` where not reachable.
    reach_codes : ndarray of int, shape (N,)
        Index into ``list(Reach)`` per edge.
    choice : ndarray of int, shape (N, 11)
        Optimal next edge index per edge and roll (meaningful where reachable).
    """

    graph: WindGraph
    targets: frozenset[Edge]
    status: Literal["optimal", "iteration_limit"]
    iterations: int
    bellman_residual: float
    values: FloatArray
    reach_codes: IntArray
    choice: IntArray

    def _i(self, e: Edge) -> int:
        try:
            return self.graph.index[e]
        except KeyError:
            raise InvalidInput("edge", str(e), "a ship edge of the board") from None

    def reach(self, e: Edge) -> Reach:
        """Reachable, trapped or unreachable (see :class:`Reach`)."""
        return list(Reach)[int(self.reach_codes[self._i(e)])]

    def expected_rolls(self, e: Edge) -> float | None:
        """Minimal expected rolls from ``e`` to the target; None when not reachable."""
        v = float(self.values[self._i(e)])
        return v if np.isfinite(v) else None

    def steer(self, e: Edge, roll: int) -> Edge:
        """Where to put a ship on ``e`` after ``roll`` (``e`` itself when it stays).

        Raises
        ------
        InvalidInput
            If ``e`` is not reachable (no steering is meaningful) or ``roll`` not in 2..12.
        """
        i = self._i(e)
        if roll not in _ROLL_INDEX:
            raise InvalidInput("roll", roll, "a 2d6 sum in 2..12")
        if self.reach_codes[i] != 0:
            raise InvalidInput("edge", str(e), "an edge from which the target is reachable")
        return self.graph.edges[int(self.choice[i, _ROLL_INDEX[roll]])]

    def field(self) -> dict[Edge, float | None]:
        """Expected rolls for every ship edge (None where not reachable)."""
        return {
            e: (float(v) if np.isfinite(v) else None)
            for e, v in zip(self.graph.edges, self.values, strict=True)
        }


def _reverse_bfs(graph: WindGraph, allowed: npt.NDArray[np.bool_], targets: IntArray) -> FloatArray:
    """Layers (rolls needed at best) from each edge to ``targets`` moving only out of
    ``allowed`` edges; inf where no path exists. Targets are absorbing."""
    n = len(graph)
    k = graph.options.shape[1] * graph.options.shape[2]
    src = np.repeat(np.arange(n, dtype=np.int64), k)
    dst = graph.options.reshape(-1)
    keep = allowed[src] & (src != dst)
    # Reverse the arcs (dst -> src) and add a super source n -> every target.
    rows = np.concatenate([dst[keep], np.full(len(targets), n, dtype=np.int64)])
    cols = np.concatenate([src[keep], targets])
    g = sp.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(n + 1, n + 1))
    dist = dijkstra(g, directed=True, indices=n, unweighted=True)
    return np.asarray(dist[:n], dtype=np.float64) - 1.0


def _transition(
    choice: IntArray, transient: IntArray, local: IntArray
) -> tuple[sp.csr_matrix, FloatArray]:
    """P restricted to transient edges under ``choice``, and the absorption mass per row."""
    m = len(transient)
    cols = choice[transient].reshape(-1)
    rows = np.repeat(np.arange(m, dtype=np.int64), len(ROLLS))
    probs = np.tile(_ROLL_P, m)
    loc = local[cols]
    inside = loc >= 0
    mat = sp.csr_matrix((probs[inside], (rows[inside], loc[inside])), shape=(m, m))
    absorbed = np.asarray(
        np.bincount(rows[~inside], weights=probs[~inside], minlength=m), dtype=np.float64
    )
    return mat, absorbed


def navigate(
    board: Board | WindGraph,
    targets: Iterable[Edge],
    may_stay: bool = False,
    max_iterations: int = 1000,
) -> Navigation:
    """Minimal expected rolls to reach ``targets`` from every edge, and the steering.

    A stochastic shortest-path Markov decision process: state = the ship's
    edge, one step = one roll of 2d6, the decision (taken after the roll) =
    which allowed edge to end on. The values solve
    ``V(t) = 0`` on targets and ``V(e) = 1 + sum_n P(n) min_{e' in A(e, n)} V(e')``.

    Method: first the edges from which some policy arrives with probability 1
    (the almost-sure reachability fixpoint: repeatedly drop edges where some roll
    forces the ship out of the set, and edges that cannot reach a target inside
    it); every other edge has infinite expected rolls and is reported as
    trapped or unreachable, never as a number. Then policy iteration restricted
    to that set, started from a proper policy (move to the option closest in
    rolls to the target), each evaluation one ``scipy.sparse.linalg.spsolve`` of
    ``(I - P_policy) V = 1``.

    Parameters
    ----------
    board : Board or WindGraph
        A board (the graph is built with ``may_stay``), or a prebuilt graph.
    targets : iterable of Edge
        Target ship edges (see :func:`target_edges` for "next to a settlement").
    may_stay : bool
        The seed's variant: a ship along a coast may stay. Ignored for a graph.
    max_iterations : int
        Safety cap on policy-iteration rounds (status "iteration_limit" if hit).

    Raises
    ------
    InvalidInput
        If a target is not a ship edge of the board, or there is none.

    References
    ----------
    Bertsekas & Tsitsiklis (1991), "An analysis of stochastic shortest path
    problems"; de Alfaro (1997) for the almost-sure reachability fixpoint.

    Examples
    --------
    >>> from isles.models.catan import Board, Tile
    >>> from isles.models.hexgrid import edge
    >>> b = Board({(0, 0): Tile(Terrain.SEA, 6), (1, 0): Tile(Terrain.SEA),
    ...            (1, -1): Tile(Terrain.SEA)})
    >>> nav = navigate(b, [edge((0, 0), (1, -1))])
    >>> round(nav.expected_rolls(edge((0, 0), (1, 0))), 6)  # 36 / 5 pips of a 6
    7.2
    >>> nav.reach(edge((1, 0), (1, -1)))
    <Reach.UNREACHABLE: 'unreachable'>
    """
    graph = board if isinstance(board, WindGraph) else wind_graph(board, may_stay)
    target_set = frozenset(check_ship_edge(graph.board, e, "target") for e in targets)
    if not target_set:
        raise InvalidInput("target", "[]", "at least one target edge")
    n = len(graph)
    opts = graph.options
    is_target = np.zeros(n, dtype=bool)
    t_idx = np.array(sorted(graph.index[e] for e in target_set), dtype=np.int64)
    is_target[t_idx] = True

    # Edges from which the target can be reached at all (positive probability).
    possible = np.isfinite(_reverse_bfs(graph, ~is_target, t_idx))

    # Almost-sure fixpoint: W = edges from which some policy surely arrives.
    winning = possible.copy()
    while True:
        safe = np.all(np.any(winning[opts], axis=2), axis=1) | is_target
        layers = _reverse_bfs(graph, winning & safe & ~is_target, t_idx)
        shrunk = np.isfinite(layers) & winning
        if np.array_equal(shrunk, winning):
            break
        winning = shrunk

    reach_codes = np.where(winning, 0, np.where(possible, 1, 2)).astype(np.int64)
    transient = np.flatnonzero(winning & ~is_target)
    local = np.full(n, -1, dtype=np.int64)
    local[transient] = np.arange(len(transient))

    # Proper initial policy: per roll, the option fewest rolls from the target.
    layer_of = np.where(np.isfinite(layers), layers, np.inf)
    choice = np.take_along_axis(opts, layer_of[opts].argmin(axis=2)[:, :, None], axis=2).squeeze(2)

    values = np.full(n, np.inf)
    values[t_idx] = 0.0
    status: Literal["optimal", "iteration_limit"] = "iteration_limit"
    iterations = 0
    # Only (edge, roll) pairs with a real choice can change: at most two rolls per edge.
    in_transient = local >= 0
    multi = np.any(opts != opts[:, :, :1], axis=2) & in_transient[:, None]
    dec_edge, dec_roll = np.nonzero(multi)
    dec_opts = opts[dec_edge, dec_roll]
    eye = sp.identity(len(transient), format="csr")
    while iterations < max_iterations and len(transient):
        iterations += 1
        mat, _ = _transition(choice, transient, local)
        v = spsolve((eye - mat).tocsc(), np.ones(len(transient)))
        values[transient] = np.atleast_1d(v)
        option_values = values[dec_opts]
        best = option_values.min(axis=1)
        current = values[choice[dec_edge, dec_roll]]
        better = best < current - 1e-10 * (1.0 + np.abs(current))
        if not better.any():
            status = "optimal"
            break
        pick = option_values[better].argmin(axis=1)
        choice[dec_edge[better], dec_roll[better]] = dec_opts[better][np.arange(len(pick)), pick]
    if not len(transient):
        status = "optimal"

    residual = 0.0
    if len(transient):
        best = values[opts[transient]].min(axis=2)
        bellman = 1.0 + best @ _ROLL_P
        residual = float(np.max(np.abs(values[transient] - bellman)))
    return Navigation(
        graph=graph,
        targets=target_set,
        status=status,
        iterations=iterations,
        bellman_residual=residual,
        values=values,
        reach_codes=reach_codes,
        choice=choice,
    )


@dataclass(frozen=True)
class Arrival:
    """Distribution of the roll on which a ship, steered optimally, reaches the target.

    Attributes
    ----------
    start : Edge
    reachable : bool
        False when the start edge is trapped or unreachable (``pmf`` is then empty).
    pmf : tuple of float
        ``pmf[t]`` = probability of arriving exactly on roll ``t`` (``t = 0``: it
        starts there).
    tail : float
        Probability of not having arrived after the last roll listed: the
        truncation error bound of ``pmf`` (at most ``tolerance`` unless the roll
        cap was hit).
    """

    start: Edge
    reachable: bool
    pmf: tuple[float, ...]
    tail: float

    def within(self, rolls: int) -> float:
        """Probability of arriving within ``rolls`` rolls (exact up to float rounding)."""
        return float(sum(self.pmf[: max(0, rolls) + 1]))

    def mean(self) -> float:
        """Mean arrival roll of the truncated distribution (low by at most the tail's share)."""
        return float(sum(t * p for t, p in enumerate(self.pmf)))


def arrival_distribution(
    nav: Navigation, start: Edge, tolerance: float = 1e-12, max_rolls: int = 100_000
) -> Arrival:
    """The arrival-roll distribution from ``start`` under ``nav``'s optimal policy.

    Iterates the absorbing Markov chain of the policy (one sparse matrix-vector
    product per roll) until the mass not yet arrived is below ``tolerance`` or
    ``max_rolls`` rolls have been made.

    Raises
    ------
    InvalidInput
        If ``start`` is not a ship edge of the board.

    >>> from isles.models.catan import Board, Tile
    >>> from isles.models.hexgrid import edge
    >>> b = Board({(0, 0): Tile(Terrain.SEA, 6), (1, 0): Tile(Terrain.SEA),
    ...            (1, -1): Tile(Terrain.SEA)})
    >>> nav = navigate(b, [edge((0, 0), (1, -1))])
    >>> arr = arrival_distribution(nav, edge((0, 0), (1, 0)))
    >>> arr.pmf[:2], round(arr.within(1), 4)
    ((0.0, 0.1388888888888889), 0.1389)
    """
    i = nav._i(check_ship_edge(nav.graph.board, start, "start"))
    if nav.reach_codes[i] != 0:
        return Arrival(start, False, (), 1.0)
    if start in nav.targets:
        return Arrival(start, True, (1.0,), 0.0)
    transient = np.flatnonzero((nav.reach_codes == 0) & ~_target_mask(nav))
    local = np.full(len(nav.graph), -1, dtype=np.int64)
    local[transient] = np.arange(len(transient))
    mat, absorbed = _transition(nav.choice, transient, local)
    step = mat.T.tocsr()
    x = np.zeros(len(transient))
    x[local[i]] = 1.0
    pmf = [0.0]
    while x.sum() > tolerance and len(pmf) <= max_rolls:
        pmf.append(float(x @ absorbed))
        x = step @ x
    return Arrival(start, True, tuple(pmf), float(max(0.0, x.sum())))


def _target_mask(nav: Navigation) -> npt.NDArray[np.bool_]:
    mask = np.zeros(len(nav.graph), dtype=bool)
    mask[[nav.graph.index[e] for e in nav.targets]] = True
    return mask


# -- risk ---------------------------------------------------------------------------


@dataclass(frozen=True)
class CargoOutlook:
    """What is left of a ship's cargo after a number of encounters (exact).

    Attributes
    ----------
    encounter : Encounter
    start_cargo, encounters : int
    sunk : Fraction
        Probability the ship went down.
    cargo : tuple of Fraction
        ``cargo[c]`` = probability the ship floats with ``c`` cards (c = 0..3).
    expected_cargo : Fraction
        Expected cards left (a sunk ship counts 0).
    """

    encounter: Encounter
    start_cargo: int
    encounters: int
    sunk: Fraction
    cargo: tuple[Fraction, ...]
    expected_cargo: Fraction


#: Most encounters cargo_outlook takes: its exact fractions grow with each one.
MAX_ENCOUNTERS = 100
#: Most rolls pirate_reach_probability takes: its exact fractions grow with each one.
MAX_REACH_ROLLS = 200


def cargo_outlook(encounter: Encounter, cargo: int, encounters: int) -> CargoOutlook:
    """Exact cargo distribution after ``encounters`` collisions or pirate attacks.

    Each encounter rolls independently on the table of seed rule 11 (collision)
    or 12 (pirate); a sunk ship stays sunk.

    Raises
    ------
    InvalidInput
        If ``cargo`` is not in 0..3 or ``encounters`` is not in 0..MAX_ENCOUNTERS
        (exact fractions grow with every encounter).

    >>> out = cargo_outlook(Encounter.COLLISION, 3, 1)
    >>> out.sunk, out.cargo[3], out.expected_cargo
    (Fraction(1, 36), Fraction(13, 18), Fraction(89, 36))
    """
    if isinstance(cargo, bool) or not isinstance(cargo, int) or not 0 <= cargo <= CARGO_LIMIT:
        raise InvalidInput("cargo", cargo, f"a card count in 0..{CARGO_LIMIT}")
    if (
        isinstance(encounters, bool)
        or not isinstance(encounters, int)
        or not 0 <= encounters <= MAX_ENCOUNTERS
    ):
        raise InvalidInput("encounters", encounters, f"an integer in 0..{MAX_ENCOUNTERS}")
    table = outcome_table(encounter)
    dist = [Fraction(0)] * (CARGO_LIMIT + 1)
    dist[cargo] = Fraction(1)
    sunk = Fraction(0)
    for _ in range(encounters):
        nxt = [Fraction(0)] * (CARGO_LIMIT + 1)
        for c, pc in enumerate(dist):
            if not pc:
                continue
            for outcome, po in table.items():
                left = cargo_after(outcome, c)
                if left is None:
                    sunk += pc * po
                else:
                    nxt[left] += pc * po
        dist = nxt
    expected = sum((c * p for c, p in enumerate(dist)), Fraction(0))
    return CargoOutlook(Encounter(encounter), cargo, encounters, sunk, tuple(dist), expected)


def pirate_reach_probability(
    board: Board,
    pirate: Edge,
    edge_: Edge,
    rolls: int,
    steering: Literal["toward", "away"] = "toward",
    may_stay: bool = False,
) -> Fraction:
    """Exact chance that the pirate ship, starting on ``pirate``, stands on ``edge_``
    after one of the next ``rolls`` rolls (or starts there).

    The pirate moves with the winds like a ship and one edge on every 7
    (:func:`isles.models.ships.pirate_options`). Its moves are chosen by players, so
    the answer depends on their aim: ``"toward"`` (they steer it to the edge:
    the worst case for a ship there) or ``"away"``. Finite-horizon dynamic
    programming over all ship edges with Fractions: ``O(rolls * edges * 11)``.

    Raises
    ------
    InvalidInput
        If an edge is not a ship edge, ``rolls`` is not in 0..MAX_REACH_ROLLS (the
        exact fractions grow with every roll), or ``steering`` unknown.

    >>> from isles.models.catan import Board, Tile
    >>> from isles.models.hexgrid import edge
    >>> b = Board({(0, 0): Tile(Terrain.SEA, 6), (1, 0): Tile(Terrain.SEA),
    ...            (1, -1): Tile(Terrain.SEA)})
    >>> pirate_reach_probability(b, edge((0, 0), (1, 0)), edge((0, 0), (1, -1)), 1)
    Fraction(11, 36)
    """
    check_ship_edge(board, pirate, "pirate")
    check_ship_edge(board, edge_, "edge")
    if isinstance(rolls, bool) or not isinstance(rolls, int) or not 0 <= rolls <= MAX_REACH_ROLLS:
        raise InvalidInput("rolls", rolls, f"an integer in 0..{MAX_REACH_ROLLS}")
    if steering not in ("toward", "away"):
        raise InvalidInput("steering", steering, "'toward' or 'away'")
    pick = max if steering == "toward" else min
    edges = ship_edges(board)
    options = {e: [pirate_options(board, e, n, may_stay) for n in ROLLS] for e in edges}
    probs = [roll_probability(n) for n in ROLLS]
    value = {e: Fraction(int(e == edge_)) for e in edges}
    for _ in range(rolls):
        value = {
            e: Fraction(1)
            if e == edge_
            else sum(
                (
                    p * pick(value[o] for o in opts)
                    for p, opts in zip(probs, options[e], strict=True)
                ),
                Fraction(0),
            )
            for e in edges
        }
    return value[pirate]


# -- harvest --------------------------------------------------------------------------


def expected_harvest(
    board: Board,
    e: Edge,
    player: str,
    buildings: Mapping[Vertex, str] = {},
    roads: Mapping[Edge, str] = {},
) -> Fraction:
    """Exact expected cards per roll a ship of ``player`` on ``e`` takes on board.

    Sums ``P(n)`` over the rolls ``n`` for which :func:`isles.models.ships.harvest`
    gives a card (seed rule 7; the cargo limit does not change how many cards
    come in, only which are kept).

    >>> from isles.models.hexgrid import edge
    >>> from isles.models.ships import demo_board
    >>> expected_harvest(demo_board(), edge((0, 2), (0, 3)), "red")  # hills 5
    Fraction(1, 9)
    """
    check_ship_edge(board, e)
    return sum(
        (
            roll_probability(n)
            for n in ROLLS
            if n != 7 and harvest(board, e, n, player, buildings, roads) is not None
        ),
        Fraction(0),
    )
