"""How fast can a ship blown by the 2d6 winds reach a target, and what does it risk on the way?

Implements docs/ships.md (seed 004_644cf972d8964df4.txt, rules 6, 7, 11, 12):
navigation as a stochastic shortest-path Markov decision process (:func:`sail`,
:func:`navigate`), collision and pirate risk (:func:`risk`), harvest.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp
from scipy.sparse.csgraph import dijkstra
from scipy.sparse.linalg import spsolve

from isles.models.catan import Board, Terrain, pips, roll_probability
from isles.models.errors import InvalidInput, expect
from isles.models.hexgrid import DIRECTIONS, Edge, Hex, Vertex
from isles.models.jsonio import corner_json, edge_json, float_or_none, probability_json
from isles.models.ships.coordinates import as_corner, as_edge
from isles.models.ships.encounters import (
    Encounter,
    Outcome,
    cargo_after,
    outcome_rolls,
    outcome_table,
)
from isles.models.ships.harbours import Port, port_edges, ports
from isles.models.ships.limits import (
    CARGO_LIMIT,
    MAX_ENCOUNTERS,
    MAX_REACH_ROLLS,
    MAX_SHIP_EDGES,
    MAX_WITHIN,
    ROLLS,
)
from isles.models.ships.questions import DEFAULT_HORIZONS, Fleet, Risk, Sail
from isles.models.ships.settlements import harvest, settlement_edges
from isles.models.ships.winds import check_ship_edge, ship_edge_count, ship_edges
from isles.models.status import Status

__all__ = [
    "MAX_ENCOUNTERS",
    "MAX_REACH_ROLLS",
    "MAX_SHIP_EDGES",
    "MAX_WITHIN",
    "Arrival",
    "CargoOutlook",
    "Navigation",
    "PirateReach",
    "Reach",
    "RiskReport",
    "Steering",
    "Voyage",
    "WindGraph",
    "arrival_distribution",
    "arrival_odds",
    "cargo_outlook",
    "expected_harvest",
    "navigate",
    "pirate_reach_probability",
    "risk",
    "risk_report",
    "sail",
    "sail_voyage",
    "target_edges",
    "voyage_targets",
    "wind_graph",
]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]


#: Probability of each roll in ROLLS order, as floats for the linear algebra.
_ROLL_P: FloatArray = np.array([float(roll_probability(n)) for n in ROLLS])
#: Ways to roll each sum in ROLLS order (probability = pips / 36), for exact integer sums.
_PIPS: tuple[int, ...] = tuple(pips(n) for n in ROLLS)
_ROLL_INDEX: dict[int, int] = {n: i for i, n in enumerate(ROLLS)}
_SEVEN = _ROLL_INDEX[7]
_DIRECTION_INDEX: dict[tuple[int, int], int] = {(d.q, d.r): k for k, d in enumerate(DIRECTIONS)}
#: Unit roundoff of float64: the slack added to a computed Bellman residual.
_UNIT_ROUNDOFF = 2.0**-53


def _check_count(value: object, field: str, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high:
        raise InvalidInput(field, value, f"an integer in 0..{high}")
    return value


# -- progress -----------------------------------------------------------------------------

#: Seconds of work before a progress bar shows (quick answers print nothing).
PROGRESS_DELAY = 1.0


@contextmanager
def progress_bar(
    total: int | None, desc: str, unit: str, enabled: bool
) -> Iterator[Callable[[int], object]]:
    """A tqdm bar on stderr for the long loops of the ships' solvers; yields its ``update``.

    Shown only when ``enabled`` (the command line: when stderr is a terminal) and
    only once the work has taken ``PROGRESS_DELAY`` (a second), so quick answers
    print nothing.

    Parameters
    ----------
    total : int or None
        The steps to come (None when unknown: policy-iteration rounds).
    desc, unit : str
        The bar's label and step name.
    enabled : bool
        False: no bar, ``update`` does nothing.

    Yields
    ------
    callable
        ``update(n)``: ``n`` more steps done.

    Examples
    --------
    >>> with progress_bar(3, "rolls", "roll", False) as update:
    ...     for _ in range(3):
    ...         _ = update(1)
    """
    if not enabled:
        yield lambda n: None
        return
    from tqdm import tqdm  # a bar only when asked: tests and pipes stay quiet

    with tqdm(
        total=total, desc=desc, unit=unit, delay=PROGRESS_DELAY, leave=False, file=sys.stderr
    ) as bar:
        yield bar.update


# -- the wind graph ---------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class WindGraph:
    """The wind moves of every ship edge of a board, as arrays (built once per board).

    Attributes
    ----------
    board : Board
        The board the graph was built from.
    edges : tuple of Edge
        The ship edges (:func:`isles.models.ships.winds.ship_edges`), indexed 0..N-1.
    index : Mapping of Edge to int
        Edge -> its index.
    options : ndarray of int, shape (N, 11, K)
        ``options[i, r]`` = indices of the edges a ship on edge ``i`` may end on
        after roll ``ROLLS[r]`` (padded by repeating the first option).
    may_stay : bool
        Whether the seed's variant (a ship along a coast may stay) is in force.
    pirate : bool
        Whether these are the pirate's moves (one edge on every 7 as well).

    See Also
    --------
    wind_graph : builds one from a board.

    Examples
    --------
    >>> from isles.models.ships.demo import demo_board
    >>> g = wind_graph(demo_board())
    >>> i = g.index[Edge(Hex(0, 2), Hex(1, 2))]
    >>> [str(g.edges[j]) for j in sorted(set(g.options[i, ROLLS.index(10)]))]
    ['0,2:0,3', '0,2:1,1']
    """

    board: Board
    edges: tuple[Edge, ...]
    index: Mapping[Edge, int]
    options: IntArray
    may_stay: bool
    pirate: bool = False

    def __len__(self) -> int:
        return len(self.edges)


def wind_graph(board: Board, may_stay: bool = False, pirate: bool = False) -> WindGraph:
    """Tabulate the moves of :func:`isles.models.ships.winds.ship_options` for every ship edge.

    Built directly from the geometry (one pass over the edges, no per-roll calls)
    so that boards of 100,000 edges take a few seconds; the test suite checks it
    against :func:`isles.models.ships.winds.ship_options` and
    :func:`isles.models.ships.winds.pirate_options` on small boards.

    Parameters
    ----------
    board : Board
        Any board with a sea hex next to another hex.
    may_stay : bool
        The seed's variant: a ship along a coast may stay.
    pirate : bool
        Tabulate the pirate ship's moves instead (a 7 moves it one edge along any
        sea hex of its edge, docs/ships.md "The pirate ship").

    Returns
    -------
    WindGraph

    Raises
    ------
    InvalidInput
        If the board has no ship edge (no sea hex next to another hex), or more
        than ``MAX_SHIP_EDGES`` (the message gives the count and the limit;
        nothing is built).

    Examples
    --------
    >>> from isles.models.ships.demo import demo_board
    >>> g = wind_graph(demo_board())
    >>> len(g), g.options.shape[:2]
    (83, (83, 11))
    """
    count = ship_edge_count(board)
    if count > MAX_SHIP_EDGES:
        raise InvalidInput(
            "board",
            f"{count:,} ship edges",
            f"a board of at most {MAX_SHIP_EDGES:,} ship edges",
            problem=f"the board has {count:,} ship edges",
        )
    edges = tuple(ship_edges(board))
    if not edges:
        raise InvalidInput(
            "board", repr(board), "a board with at least one ship edge (a sea hex next to a hex)"
        )
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
        sevens: set[int] = set()
        for h in (e.a, e.b):
            tile = tiles[h]
            if tile.terrain is not Terrain.SEA:
                coast = True
                continue
            sevens.update(index[_edge(h, x)] for x in shared)
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
        if pirate and sevens:
            moves[_SEVEN] = sorted(sevens)
        width = max([width, *(len(m) for m in moves.values())])
        per_edge.append(moves)
    options = np.empty((len(edges), len(ROLLS), width), dtype=np.int64)
    options[:] = np.arange(len(edges), dtype=np.int64)[:, None, None]
    for i, moves in enumerate(per_edge):
        for r, targets in moves.items():
            options[i, r, :] = targets[0]
            options[i, r, : len(targets)] = targets
    return WindGraph(board, edges, index, options, may_stay, pirate)


def _edge(a: Hex, b: Hex) -> Edge:
    return Edge(a, b) if a < b else Edge(b, a)


def target_edges(
    board: Board, targets: Iterable[object] = (), near: Iterable[object] = ()
) -> frozenset[Edge]:
    """The target set: the given ship edges plus the coast edges next to the settlements.

    Parameters
    ----------
    board : Board
    targets : iterable of Edge
        Target ship edges (an ``Edge`` or a pair of hexes each).
    near : iterable of Vertex
        Settlement corners (a ``Vertex`` or three hexes each); a ship reaches a
        settlement on the coast edges at its corner (seed rule 5,
        :func:`isles.models.ships.settlements.settlement_edges`).

    Returns
    -------
    frozenset of Edge

    Raises
    ------
    InvalidInput
        Naming ``targets[i]`` or ``near[i]``: not a ship edge of ``board``, a
        corner next to no coast; or both empty.

    Examples
    --------
    >>> from isles.models.ships.demo import demo_board
    >>> sorted(map(str, target_edges(demo_board(), near=[((0, 3), (0, 2), (1, 2))])))
    ['0,2:0,3', '0,3:1,2']
    """
    out = {check_ship_edge(board, e, f"targets[{i}]") for i, e in enumerate(targets)}
    for i, value in enumerate(near):
        v = as_corner(value, f"near[{i}]")
        found = settlement_edges(board, v)
        if not found:
            raise InvalidInput(
                f"near[{i}]", ":".join(map(str, v)), "a corner next to a coast of the board"
            )
        out.update(found)
    if not out:
        raise InvalidInput("targets", [], "at least one target edge or settlement (near)")
    return frozenset(out)


# -- navigation ---------------------------------------------------------------------------


class Reach(StrEnum):
    """Whether a ship on an edge can be steered to the target.

    Examples
    --------
    >>> [r.value for r in Reach]
    ['reachable', 'trapped', 'unreachable']
    """

    #: Some steering arrives with probability 1: the expected rolls are finite.
    REACHABLE = "reachable"
    #: Arrival is possible, but under every steering the ship may never arrive
    #: (the expected rolls are infinite). The rules of the seed never trap a ship
    #: (docs/ships.md, "Moves are reversible"); made-up wind graphs may.
    TRAPPED = "trapped"
    #: No sequence of rolls brings the ship there.
    UNREACHABLE = "unreachable"

    @property
    def status(self) -> Status:
        """The status of an answer about a start with this reach.

        ``reachable`` → optimal; ``trapped`` → infeasible (no steering arrives
        surely, so no finite expected rolls exist); ``unreachable`` → unreachable.

        >>> Reach.TRAPPED.status
        <Status.INFEASIBLE: 'infeasible'>
        """
        return {
            Reach.REACHABLE: Status.OPTIMAL,
            Reach.TRAPPED: Status.INFEASIBLE,
            Reach.UNREACHABLE: Status.UNREACHABLE,
        }[self]


_REACH_ORDER: tuple[Reach, ...] = tuple(Reach)


@dataclass(frozen=True, eq=False)
class Navigation:
    """The optimal steering to a target set, with the minimal expected rolls from every edge.

    Attributes
    ----------
    graph : WindGraph
        The wind moves it was computed on.
    targets : frozenset of Edge
        The target edges.
    status : Status
        ``optimal`` when policy iteration stopped because no decision improves;
        ``feasible`` when ``max_iterations`` ended it first (the values are those
        of a steering that arrives surely, within :attr:`error_bound` of the best).
    iterations : int
        Policy-iteration rounds (one sparse solve each).
    bellman_residual : float
        ``max |V - (1 + sum_n P(n) min V(next))|`` over the edges with finite
        values, in rolls (see :attr:`relative_error`).
    values : ndarray of float, shape (N,)
        Expected rolls per edge index; ``inf`` where not reachable surely.
    reach_codes : ndarray of int, shape (N,)
        Index into ``list(Reach)`` per edge.
    choice : ndarray of int, shape (N, 11)
        Optimal next edge index per edge and roll (meaningful where reachable).

    Examples
    --------
    >>> from isles.models.catan import Board, Tile
    >>> from isles.models.hexgrid import edge
    >>> b = Board({(0, 0): Tile(Terrain.SEA, 6), (1, 0): Tile(Terrain.SEA),
    ...            (1, -1): Tile(Terrain.SEA)})
    >>> nav = navigate(b, [edge((0, 0), (1, -1))])
    >>> start = edge((0, 0), (1, 0))
    >>> nav.status, nav.reach(start), round(nav.expected_rolls(start), 9)
    (<Status.OPTIMAL: 'optimal'>, <Reach.REACHABLE: 'reachable'>, 7.2)
    >>> str(nav.steer(start, 6)), str(nav.steer(start, 8))  # an 8 does not blow here
    ('0,0:1,-1', '0,0:1,0')
    >>> nav.error_bound < 1e-12, nav.to_dict()["edges"][0]["reach"]
    (True, 'reachable')
    """

    graph: WindGraph
    targets: frozenset[Edge]
    status: Status
    iterations: int
    bellman_residual: float
    values: FloatArray
    reach_codes: IntArray
    choice: IntArray

    def _i(self, e: object, field: str = "edge") -> int:
        key = as_edge(e, field)
        try:
            return self.graph.index[key]
        except KeyError:
            raise InvalidInput(field, str(key), "a ship edge of the board") from None

    def reach(self, e: Edge) -> Reach:
        """Reachable, trapped or unreachable (see :class:`Reach`).

        Parameters
        ----------
        e : Edge
            A ship edge.

        Returns
        -------
        Reach

        Raises
        ------
        InvalidInput
            If ``e`` is not a ship edge of the board.
        """
        return _REACH_ORDER[int(self.reach_codes[self._i(e)])]

    def expected_rolls(self, e: Edge) -> float | None:
        """Minimal expected rolls from ``e`` to the target; None when not reachable surely.

        Parameters
        ----------
        e : Edge
            A ship edge.

        Returns
        -------
        float or None
            Within ``relative_error * value`` of the exact rational value.

        Raises
        ------
        InvalidInput
            If ``e`` is not a ship edge of the board.
        """
        v = float(self.values[self._i(e)])
        return v if math.isfinite(v) else None

    @property
    def relative_error(self) -> float:
        """Relative error of every finite value: ``|V(e) - V*(e)| <= relative_error * V(e)``.

        With ``eps`` the Bellman residual plus the rounding of computing it
        (``32 u (1 + max V)``, ``u`` the unit roundoff): when ``V`` is within
        ``eps`` of its Bellman update, ``(1 - eps) V_greedy <= V <= (1 + eps) V*``
        edge by edge (the expected rolls of a steering are its value of the
        constant cost 1), so ``|V - V*| <= eps / (1 - eps) * V``. Infinite when
        ``eps >= 1`` (never seen).
        """
        finite = self.values[np.isfinite(self.values)]
        top = float(finite.max()) if len(finite) else 0.0
        eps = self.bellman_residual + 32.0 * _UNIT_ROUNDOFF * (1.0 + top)
        return eps / (1.0 - eps) if eps < 1.0 else math.inf

    @property
    def error_bound(self) -> float:
        """Largest error of any finite value, in rolls: ``relative_error * max V``."""
        finite = self.values[np.isfinite(self.values)]
        return self.relative_error * (float(finite.max()) if len(finite) else 0.0)

    def steer(self, e: Edge, roll: int) -> Edge:
        """Where to put a ship on ``e`` after ``roll`` (``e`` itself when it stays).

        Parameters
        ----------
        e : Edge
            A ship edge from which the target is reachable.
        roll : int
            A 2d6 sum, 2..12.

        Returns
        -------
        Edge

        Raises
        ------
        InvalidInput
            If ``e`` is not reachable (no steering is meaningful) or ``roll`` not in 2..12.
        """
        i = self._i(e)
        if isinstance(roll, bool) or roll not in _ROLL_INDEX:
            raise InvalidInput("roll", roll, "a 2d6 sum in 2..12")
        if self.reach_codes[i] != 0:
            raise InvalidInput("edge", str(e), "an edge from which the target is reachable")
        return self.graph.edges[int(self.choice[i, _ROLL_INDEX[roll]])]

    def field(self) -> dict[Edge, float | None]:
        """Expected rolls for every ship edge (None where not reachable surely).

        Returns
        -------
        dict of Edge to float or None
        """
        return {
            e: (float(v) if math.isfinite(v) else None)
            for e, v in zip(self.graph.edges, self.values, strict=True)
        }

    def to_dict(self) -> dict[str, Any]:
        """The navigation as plain data (docs/json.md): every edge with its expected rolls.

        Returns
        -------
        dict
            ``status``, ``targets``, ``may_stay``, ``iterations``,
            ``bellman_residual``, ``error_bound`` (of every ``expected_rolls``) and
            ``edges``: one ``{"edge", "reach", "expected_rolls"}`` per ship edge.
        """
        return {
            "status": self.status.value,
            "targets": [edge_json(t) for t in sorted(self.targets)],
            "may_stay": self.graph.may_stay,
            "iterations": self.iterations,
            "bellman_residual": self.bellman_residual,
            "error_bound": float_or_none(self.error_bound),
            "edges": [
                {
                    "edge": edge_json(e),
                    "reach": _REACH_ORDER[int(code)].value,
                    "expected_rolls": float_or_none(float(v)),
                }
                for e, code, v in zip(self.graph.edges, self.reach_codes, self.values, strict=True)
            ],
        }


def _reverse_bfs(graph: WindGraph, allowed: BoolArray, targets: IntArray) -> FloatArray:
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
    targets: Iterable[object],
    may_stay: bool = False,
    max_iterations: int = 1000,
    progress: bool = False,
) -> Navigation:
    """Minimal expected rolls to reach ``targets`` from every edge, and the steering.

    A stochastic shortest-path Markov decision process: state = the ship's
    edge, one step = one roll of 2d6, the decision (taken after the roll) =
    which allowed edge to end on. The values solve
    ``V(t) = 0`` on targets and ``V(e) = 1 + sum_n P(n) min_{e' in A(e, n)} V(e')``.

    Parameters
    ----------
    board : Board or WindGraph
        A board (the graph is built with ``may_stay``), or a prebuilt graph.
    targets : iterable of Edge
        Target ship edges (see :func:`target_edges` for "next to a settlement").
    may_stay : bool
        The seed's variant: a ship along a coast may stay. Ignored for a graph.
    max_iterations : int
        Safety cap on policy-iteration rounds (status ``feasible`` if hit).
    progress : bool
        A bar on stderr over the rounds (:func:`progress_bar`).

    Returns
    -------
    Navigation

    Raises
    ------
    InvalidInput
        If a target is not a ship edge of the board, or there is none.

    Notes
    -----
    First the edges from which some steering arrives with probability 1 (the
    almost-sure reachability fixpoint: repeatedly drop edges where some roll
    forces the ship out of the set, and edges that cannot reach a target inside
    it); every other edge has infinite expected rolls and is reported as
    trapped or unreachable, never as a number. Then policy iteration restricted
    to that set, started from a proper policy (move to the option closest in
    rolls to the target), each evaluation one ``scipy.sparse.linalg.spsolve`` of
    ``(I - P_policy) V = 1``. docs/ships.md, "What the navigator answers".

    References
    ----------
    .. [1] R. A. Howard, "Dynamic Programming and Markov Processes", MIT Press, 1960
       (policy iteration).
    .. [2] D. P. Bertsekas and J. N. Tsitsiklis, "An analysis of stochastic
       shortest path problems", Mathematics of Operations Research 16(3), 1991.
    .. [3] L. de Alfaro, "Formal verification of probabilistic systems", PhD
       thesis, Stanford, 1997 (the almost-sure reachability fixpoint).
    .. [4] SciPy, ``scipy.sparse.linalg.spsolve`` (SuperLU) and
       ``scipy.sparse.csgraph.dijkstra``.

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

    expect(board, (Board, WindGraph), "board", "a Board or a WindGraph")
    graph = board if isinstance(board, WindGraph) else wind_graph(board, may_stay)
    target_set = frozenset(
        check_ship_edge(graph.board, e, f"targets[{i}]") for i, e in enumerate(targets)
    )
    if not target_set:
        raise InvalidInput("targets", [], "at least one target edge")
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
    status = Status.FEASIBLE
    iterations = 0
    # Only (edge, roll) pairs with a real choice can change: at most two rolls per edge.
    in_transient = local >= 0
    multi = np.any(opts != opts[:, :, :1], axis=2) & in_transient[:, None]
    dec_edge, dec_roll = np.nonzero(multi)
    dec_opts = opts[dec_edge, dec_roll]
    eye = sp.identity(len(transient), format="csr")
    with progress_bar(None, "policy iteration", "round", progress) as update:
        while iterations < max_iterations and len(transient):
            iterations += 1
            mat, _ = _transition(choice, transient, local)
            v = spsolve((eye - mat).tocsc(), np.ones(len(transient)))
            values[transient] = np.atleast_1d(v)
            update(1)
            option_values = values[dec_opts]
            best = option_values.min(axis=1)
            current = values[choice[dec_edge, dec_roll]]
            better = best < current - 1e-10 * (1.0 + np.abs(current))
            if not better.any():
                status = Status.OPTIMAL
                break
            pick = option_values[better].argmin(axis=1)
            rows = dec_opts[better][np.arange(len(pick)), pick]
            choice[dec_edge[better], dec_roll[better]] = rows
    if not len(transient):
        status = Status.OPTIMAL

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


# -- arrival --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Arrival:
    """Distribution of the roll on which a ship, steered optimally, reaches the target.

    Attributes
    ----------
    start : Edge
        Where the ship starts.
    reach : Reach
        Of the start; ``pmf`` is empty unless ``reachable``.
    pmf : tuple of float
        ``pmf[t]`` = probability of arriving exactly on roll ``t`` (``t = 0``: it
        starts there).
    tail : float
        Probability of not having arrived after the last roll listed: the
        truncation error of ``pmf`` (at most the ``tolerance`` asked for unless
        the roll cap was hit).

    Examples
    --------
    >>> from isles.models.catan import Board, Tile
    >>> from isles.models.hexgrid import edge
    >>> b = Board({(0, 0): Tile(Terrain.SEA, 6), (1, 0): Tile(Terrain.SEA),
    ...            (1, -1): Tile(Terrain.SEA)})
    >>> arr = arrival_distribution(navigate(b, [edge((0, 0), (1, -1))]), edge((0, 0), (1, 0)))
    >>> arr.reachable, round(arr.mean(), 6), arr.tail < 1e-12, arr.to_dict()["status"]
    (True, 7.2, True, 'exact')
    """

    start: Edge
    reach: Reach
    pmf: tuple[float, ...]
    tail: float

    @property
    def reachable(self) -> bool:
        """Whether the start is reachable surely (``reach == "reachable"``)."""
        return self.reach is Reach.REACHABLE

    def within(self, rolls: int) -> float:
        """Probability of arriving within ``rolls`` rolls (floats; :func:`arrival_odds` is exact).

        Parameters
        ----------
        rolls : int

        Returns
        -------
        float
        """
        return float(sum(self.pmf[: max(0, rolls) + 1]))

    def mean(self) -> float:
        """Mean arrival roll of the truncated distribution (low by at most the tail's share).

        Returns
        -------
        float
        """
        return float(sum(t * p for t, p in enumerate(self.pmf)))

    def to_dict(self) -> dict[str, Any]:
        """The distribution as plain data (docs/json.md).

        Returns
        -------
        dict
            ``status`` (``exact`` when reachable, else the start's status), ``start``,
            ``reach``, ``pmf`` (floats, roll 0 first) and ``tail`` (the mass not
            listed: the error bound of the truncation).
        """
        return {
            "status": (Status.EXACT if self.reachable else self.reach.status).value,
            "start": edge_json(self.start),
            "reach": self.reach.value,
            "pmf": list(self.pmf),
            "tail": self.tail,
        }


def arrival_distribution(
    nav: Navigation, start: Edge, tolerance: float = 1e-12, max_rolls: int = 100_000
) -> Arrival:
    """The arrival-roll distribution from ``start`` under ``nav``'s optimal steering.

    Iterates the absorbing Markov chain of the steering (one sparse matrix-vector
    product per roll) until the mass not yet arrived is below ``tolerance`` or
    ``max_rolls`` rolls have been made.

    Parameters
    ----------
    nav : Navigation
    start : Edge
        The ship's edge.
    tolerance : float
        Stop when less mass than this has not arrived.
    max_rolls : int
        Stop after this many rolls in any case.

    Returns
    -------
    Arrival
        Empty ``pmf`` and ``tail`` 1 when the start is trapped or unreachable.

    Raises
    ------
    InvalidInput
        If ``start`` is not a ship edge of the board.

    See Also
    --------
    arrival_odds : the exact chance to arrive within a few rolls.

    Examples
    --------
    >>> from isles.models.catan import Board, Tile
    >>> from isles.models.hexgrid import edge
    >>> b = Board({(0, 0): Tile(Terrain.SEA, 6), (1, 0): Tile(Terrain.SEA),
    ...            (1, -1): Tile(Terrain.SEA)})
    >>> nav = navigate(b, [edge((0, 0), (1, -1))])
    >>> arr = arrival_distribution(nav, edge((0, 0), (1, 0)))
    >>> arr.pmf[:2], round(arr.within(1), 4)
    ((0.0, 0.1388888888888889), 0.1389)
    """
    start = check_ship_edge(nav.graph.board, start, "start")
    i = nav._i(start, "start")
    reach = _REACH_ORDER[int(nav.reach_codes[i])]
    if reach is not Reach.REACHABLE:
        return Arrival(start, reach, (), 1.0)
    if start in nav.targets:
        return Arrival(start, reach, (1.0,), 0.0)
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
    return Arrival(start, reach, tuple(pmf), float(max(0.0, x.sum())))


def _target_mask(nav: Navigation) -> BoolArray:
    mask = np.zeros(len(nav.graph), dtype=bool)
    mask[[nav.graph.index[e] for e in nav.targets]] = True
    return mask


def _ball(options: IntArray, start: int, depth: int, stop: BoolArray) -> IntArray:
    """Indices of the edges within ``depth`` moves of ``start`` (no move out of ``stop``)."""
    seen = np.zeros(len(options), dtype=bool)
    seen[start] = True
    frontier = np.array([start], dtype=np.int64)
    for _ in range(depth):
        frontier = frontier[~stop[frontier]]
        nxt = np.unique(options[frontier].reshape(-1))
        nxt = nxt[~seen[nxt]]
        if not len(nxt):
            break
        seen[nxt] = True
        frontier = nxt
    return np.flatnonzero(seen)


def _hit_within(
    options: IntArray,
    is_target: BoolArray,
    start: int,
    horizons: Sequence[int],
    pick: Literal["max", "min"],
    progress: bool = False,
) -> dict[int, Fraction]:
    """Exact chance to stand on a target after at most ``t`` rolls, for each ``t`` in
    ``horizons``, when every choice takes the ``pick`` of the options (one option:
    a fixed steering).

    Backward induction in integers: after ``t`` rolls a value is a numerator over
    ``36**t`` (each roll weighs its pips), so no fraction is reduced on the way.
    Only the edges within ``max(horizons)`` moves of ``start`` take part: values
    outside it are wrong (taken as 0) but reach ``start`` only after more rolls
    than asked.
    """
    if is_target[start]:
        return {t: Fraction(1) for t in horizons}
    depth = max(horizons, default=0)
    ball = _ball(options, start, depth, is_target)
    m = len(ball)
    local = np.full(len(options), m, dtype=np.int64)
    local[ball] = np.arange(m)
    moves = local[options[ball]]  # (m, 11, K); m = outside the ball
    hit = np.flatnonzero(is_target[ball])
    weights = np.array(_PIPS, dtype=object)
    value = np.zeros(m + 1, dtype=object)
    value[hit] = 1
    s = int(local[start])
    out = {t: Fraction(int(value[s])) for t in horizons if t == 0}
    scale = 1
    with progress_bar(depth, "exact odds", "roll", progress) as update:
        for t in range(1, depth + 1):
            options_value = value[moves]
            best = options_value.max(axis=2) if pick == "max" else options_value.min(axis=2)
            scale *= 36
            value = np.zeros(m + 1, dtype=object)
            value[:m] = (best * weights).sum(axis=1)
            value[hit] = scale
            if t in horizons:
                out[t] = Fraction(int(value[s]), scale)
            update(1)
    return out


def _check_within(within: object) -> tuple[int, ...]:
    if isinstance(within, str | bytes) or not isinstance(within, Iterable):
        raise InvalidInput("within", within, f"a list of roll counts in 0..{MAX_WITHIN}")
    return tuple(
        sorted({_check_count(k, f"within[{i}]", MAX_WITHIN) for i, k in enumerate(within)})
    )


def arrival_odds(
    nav: Navigation, start: Edge, within: Iterable[int], progress: bool = False
) -> dict[int, Fraction]:
    """Exact chance to reach the target within ``k`` rolls, for each ``k`` in ``within``.

    For a reachable start: under ``nav``'s optimal steering (the one :func:`sail`
    advises). For a trapped start (no steering arrives surely, so none minimises
    the expected rolls): the best chance any steering has within ``k`` rolls,
    for each ``k`` on its own. For an unreachable start: 0.

    Parameters
    ----------
    nav : Navigation
    start : Edge
        The ship's edge.
    within : iterable of int
        Horizons in rolls, each in 0..MAX_WITHIN (the exact numbers have about
        ``1.6 k`` digits).
    progress : bool
        A bar on stderr over the rolls (:func:`progress_bar`).

    Returns
    -------
    dict of int to Fraction
        Sorted by horizon.

    Raises
    ------
    InvalidInput
        If ``start`` is not a ship edge of the board or a horizon is out of range.

    Notes
    -----
    Backward induction over the edges within ``max(within)`` moves of the start,
    with integer numerators over ``36**k``: exact, ``O(k * edges near the start)``
    big-integer operations.

    Examples
    --------
    >>> from isles.models.catan import Board, Tile
    >>> from isles.models.hexgrid import edge
    >>> b = Board({(0, 0): Tile(Terrain.SEA, 6), (1, 0): Tile(Terrain.SEA),
    ...            (1, -1): Tile(Terrain.SEA)})
    >>> nav = navigate(b, [edge((0, 0), (1, -1))])
    >>> arrival_odds(nav, edge((0, 0), (1, 0)), [1, 2])
    {1: Fraction(5, 36), 2: Fraction(335, 1296)}
    """
    horizons = _check_within(within)
    start = check_ship_edge(nav.graph.board, start, "start")
    i = nav._i(start, "start")
    reach = _REACH_ORDER[int(nav.reach_codes[i])]
    if reach is Reach.UNREACHABLE:
        return {k: Fraction(0) for k in horizons}
    if reach is Reach.REACHABLE:
        return _hit_within(nav.choice[:, :, None], _target_mask(nav), i, horizons, "max", progress)
    return _hit_within(nav.graph.options, _target_mask(nav), i, horizons, "max", progress)


# -- one voyage: sail() -------------------------------------------------------------------


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
    """What :func:`sail` answers: how a ship gets from ``start`` to the targets.

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


def sail(
    board: Board | WindGraph,
    start: object,
    targets: Iterable[object] = (),
    *,
    near: Iterable[object] = (),
    ports: Iterable[str] = (),
    may_stay: bool = False,
    players: int = 4,
    within: Iterable[int] = DEFAULT_HORIZONS,
    progress: bool = False,
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
    progress : bool
        A bar on stderr over the policy-iteration rounds and the rolls of the
        exact odds (:func:`progress_bar`; ``isles sail`` on a terminal).

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
        those of the declaration :class:`isles.models.questions.Sail`.

    See Also
    --------
    navigate : the values and steering from every edge.
    arrival_distribution : the whole arrival-roll distribution (floats).

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
    return sail_voyage(question, progress=progress)


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


def sail_voyage(question: Sail, *, progress: bool = False) -> Voyage:
    """The voyage a validated :class:`~isles.models.questions.Sail` asks (:func:`sail`)."""
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


# -- risk ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class CargoOutlook:
    """What is left of a ship's cargo after a number of encounters (exact).

    Attributes
    ----------
    encounter : Encounter
        Collision (seed rule 11) or pirate (rule 12).
    start_cargo : int
        Cards on board before, 0..3.
    encounters : int
        Encounters in a row.
    sunk : Fraction
        Probability the ship went down.
    cargo : tuple of Fraction
        ``cargo[c]`` = probability the ship floats with ``c`` cards (c = 0..3).
    expected_cargo : Fraction
        Expected cards left (a sunk ship counts 0).

    Examples
    --------
    >>> out = cargo_outlook(Encounter.PIRATE, 3, 1)
    >>> out.sunk, out.cargo[0], out.to_dict()["expected_cargo_exact"]
    (Fraction(1, 12), Fraction(3, 4), '1/2')
    """

    encounter: Encounter
    start_cargo: int
    encounters: int
    sunk: Fraction
    cargo: tuple[Fraction, ...]
    expected_cargo: Fraction

    def to_dict(self) -> dict[str, Any]:
        """Plain data (docs/json.md): every Fraction as a float and its ``"p/q"``.

        Returns
        -------
        dict
            ``status`` (``exact``), ``encounter``, ``start_cargo``, ``encounters``,
            ``sunk``/``sunk_exact``, ``cargo`` (``[{"cards", "probability",
            "probability_exact"}]``), ``expected_cargo``/``expected_cargo_exact``.
        """
        return {
            "status": Status.EXACT.value,
            "encounter": self.encounter.value,
            "start_cargo": self.start_cargo,
            "encounters": self.encounters,
            **probability_json("sunk", self.sunk),
            "cargo": [
                {"cards": c, **probability_json("probability", p)} for c, p in enumerate(self.cargo)
            ],
            **probability_json("expected_cargo", self.expected_cargo),
        }


def cargo_outlook(encounter: Encounter, cargo: int, encounters: int) -> CargoOutlook:
    """Exact cargo distribution after ``encounters`` collisions or pirate attacks.

    Each encounter rolls independently on the table of seed rule 11 (collision)
    or 12 (pirate); a sunk ship stays sunk (docs/ships.md, "Collisions and pirates").

    Parameters
    ----------
    encounter : Encounter or str
    cargo : int
        Cards on board, 0..3.
    encounters : int
        Encounters in a row, 0..MAX_ENCOUNTERS.

    Returns
    -------
    CargoOutlook

    Raises
    ------
    InvalidInput
        If ``cargo`` is not in 0..3 or ``encounters`` is not in 0..MAX_ENCOUNTERS
        (exact fractions grow with every encounter).

    Examples
    --------
    >>> out = cargo_outlook(Encounter.COLLISION, 3, 1)
    >>> out.sunk, out.cargo[3], out.expected_cargo
    (Fraction(1, 36), Fraction(13, 18), Fraction(89, 36))
    """
    _check_count(cargo, "cargo", CARGO_LIMIT)
    _check_count(encounters, "encounters", MAX_ENCOUNTERS)
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
    (:func:`isles.models.ships.winds.pirate_options`). Its moves are chosen by players,
    so the answer depends on their aim: ``"toward"`` (they steer it to the edge:
    the worst case for a ship there) or ``"away"``.

    Parameters
    ----------
    board : Board
    pirate : Edge
        The pirate ship's edge.
    edge_ : Edge
        The edge it might reach.
    rolls : int
        Rolls, 0..MAX_REACH_ROLLS.
    steering : {"toward", "away"}
        The players' aim.
    may_stay : bool
        The seed's variant for winds along a coast.

    Returns
    -------
    Fraction

    Raises
    ------
    InvalidInput
        If an edge is not a ship edge, ``rolls`` is not in 0..MAX_REACH_ROLLS (the
        exact fractions grow with every roll), or ``steering`` unknown.

    Notes
    -----
    Finite-horizon dynamic programming in integers (numerators over ``36**k``)
    over the edges within ``rolls`` moves of the pirate: ``O(rolls * edges * 11)``
    big-integer operations at most.

    Examples
    --------
    >>> from isles.models.catan import Board, Tile
    >>> from isles.models.hexgrid import edge
    >>> b = Board({(0, 0): Tile(Terrain.SEA, 6), (1, 0): Tile(Terrain.SEA),
    ...            (1, -1): Tile(Terrain.SEA)})
    >>> pirate_reach_probability(b, edge((0, 0), (1, 0)), edge((0, 0), (1, -1)), 1)
    Fraction(11, 36)
    """
    pirate = check_ship_edge(board, pirate, "pirate")
    edge_ = check_ship_edge(board, edge_, "edge")
    _check_count(rolls, "rolls", MAX_REACH_ROLLS)
    if steering not in ("toward", "away"):
        raise InvalidInput("steering", steering, "'toward' or 'away'")
    graph = wind_graph(board, may_stay, pirate=True)
    return _pirate_reach(graph, pirate, edge_, rolls, "max" if steering == "toward" else "min")


def _pirate_reach(
    graph: WindGraph,
    pirate: Edge,
    spot: Edge,
    rolls: int,
    pick: Literal["max", "min"],
    progress: bool = False,
) -> Fraction:
    is_target = np.zeros(len(graph), dtype=bool)
    is_target[graph.index[spot]] = True
    at = graph.index[pirate]
    return _hit_within(graph.options, is_target, at, (rolls,), pick, progress)[rolls]


@dataclass(frozen=True)
class PirateReach:
    """The chance the pirate ship reaches an edge within some rolls, for both aims.

    Attributes
    ----------
    pirate : Edge
        Where the pirate ship stands.
    edge : Edge
        The edge it might reach.
    rolls : int
        The rolls counted.
    may_stay : bool
        The seed's variant for winds along a coast.
    toward : Fraction
        Exact chance when the players steer it toward ``edge`` (the worst case).
    away : Fraction
        Exact chance when they steer it away.

    Examples
    --------
    >>> from isles.models.ships.demo import demo_board
    >>> r = risk(board=demo_board(), pirate=((0, 0), (1, 0)), edge=((0, 0), (1, 0)), rolls=2)
    >>> r.pirate_reach.toward, r.pirate_reach.to_dict()["away_exact"]  # it starts there
    (Fraction(1, 1), '1/1')
    """

    pirate: Edge
    edge: Edge
    rolls: int
    may_stay: bool
    toward: Fraction
    away: Fraction

    def to_dict(self) -> dict[str, Any]:
        """Plain data: ``status`` (``exact``), the edges, ``rolls``, ``may_stay``,
        ``toward``/``toward_exact`` and ``away``/``away_exact``."""
        return {
            "status": Status.EXACT.value,
            "pirate": edge_json(self.pirate),
            "edge": edge_json(self.edge),
            "rolls": self.rolls,
            "may_stay": self.may_stay,
            **probability_json("toward", self.toward),
            **probability_json("away", self.away),
        }


@dataclass(frozen=True)
class RiskReport:
    """What :func:`risk` answers: the encounter tables, the cargo outlook, the pirate reach.

    Attributes
    ----------
    status : Status
        ``exact``: every number is an exact Fraction.
    tables : Mapping of Encounter to Mapping of Outcome to Fraction
        Seed rules 11 and 12.
    outlook : Mapping of Encounter to CargoOutlook
        The cargo after the encounters, for each kind.
    pirate_reach : PirateReach or None
        When a pirate and an edge were given.

    Examples
    --------
    >>> report = risk(cargo=1, encounters=2)
    >>> report.tables[Encounter.COLLISION][Outcome.SINKS], report.pirate_reach
    (Fraction(1, 36), None)
    >>> report.to_dict()["tables"]["pirate"][0]  # doctest: +NORMALIZE_WHITESPACE
    {'outcome': 'sinks', 'rolls': [11, 12], 'probability': 0.08333333333333333,
     'probability_exact': '1/12'}
    """

    status: Status
    tables: Mapping[Encounter, Mapping[Outcome, Fraction]]
    outlook: Mapping[Encounter, CargoOutlook]
    pirate_reach: PirateReach | None

    def to_dict(self) -> dict[str, Any]:
        """The answer as plain data, in the dialect of docs/json.md (what ``--json`` prints).

        Returns
        -------
        dict
            ``status``; ``tables`` (per encounter, rows ``{"outcome", "rolls",
            "probability", "probability_exact"}``); ``cargo_outlook`` (per
            encounter, :meth:`CargoOutlook.to_dict`); ``pirate_reach``
            (:meth:`PirateReach.to_dict` or null).
        """
        return {
            "status": self.status.value,
            "tables": {
                enc.value: [
                    {
                        "outcome": o.value,
                        "rolls": list(outcome_rolls(enc)[o]),
                        **probability_json("probability", p),
                    }
                    for o, p in table.items()
                ]
                for enc, table in self.tables.items()
            },
            "cargo_outlook": {enc.value: out.to_dict() for enc, out in self.outlook.items()},
            "pirate_reach": None if self.pirate_reach is None else self.pirate_reach.to_dict(),
        }


def risk(
    cargo: int = 3,
    encounters: int = 1,
    *,
    board: Board | None = None,
    pirate: object = None,
    edge: object = None,
    rolls: int | None = None,
    may_stay: bool = False,
    progress: bool = False,
) -> RiskReport:
    """Collision and pirate risk: the exact tables, the cargo left, the pirate's reach.

    The one call behind ``isles risk``.

    Parameters
    ----------
    cargo : int
        Cards on board, 0..3.
    encounters : int
        Encounters in a row, 0..MAX_ENCOUNTERS.
    board : Board, optional
        The board of the pirate reach; only with ``pirate``.
    pirate, edge : Edge, optional
        The pirate ship's edge and the edge it might reach; both or neither.
    rolls : int, optional
        Rolls of the pirate reach, 0..MAX_REACH_ROLLS (when not given, the
        declared default
        :data:`isles.models.ships.questions.DEFAULT_REACH_ROLLS`, 10); only
        with ``pirate``.
    may_stay : bool
        The seed's variant for winds along a coast; only with ``pirate``.
    progress : bool
        A bar on stderr over the rolls of the pirate reach (:func:`progress_bar`;
        ``isles risk`` on a terminal).

    Returns
    -------
    RiskReport

    Raises
    ------
    InvalidInput
        Naming the parameter: a count out of range, ``pirate`` without ``edge``
        or the reverse, ``board`` missing with ``pirate``, ``board``, ``rolls`` or
        ``may_stay`` given without ``pirate`` (they would do nothing), an edge
        that is not a ship edge of the board. The checks of the parameters alone
        are those of the declaration :class:`isles.models.questions.Risk`.

    Notes
    -----
    docs/ships.md, "Collisions and pirates" and "The pirate ship".

    Examples
    --------
    >>> r = risk(3, 1)
    >>> r.status, r.outlook[Encounter.COLLISION].expected_cargo
    (<Status.EXACT: 'exact'>, Fraction(89, 36))
    """
    question = Risk.ask(
        cargo=cargo,
        encounters=encounters,
        board=board,
        pirate=pirate,
        edge=edge,
        rolls=rolls,
        may_stay=may_stay,
    )
    return risk_report(question, progress=progress)


def risk_report(question: Risk, *, progress: bool = False) -> RiskReport:
    """The report a validated :class:`~isles.models.questions.Risk` asks (:func:`risk`)."""
    reach: PirateReach | None = None
    board, k, stay = question.board, question.rolls, question.may_stay
    if question.pirate is not None and question.edge is not None and board is not None:
        at = check_ship_edge(board, question.pirate, "pirate")
        spot = check_ship_edge(board, question.edge, "edge")
        graph = wind_graph(board, stay, pirate=True)
        reach = PirateReach(
            at,
            spot,
            k,
            stay,
            toward=_pirate_reach(graph, at, spot, k, "max", progress),
            away=_pirate_reach(graph, at, spot, k, "min", progress),
        )
    return RiskReport(
        status=Status.EXACT,
        tables={enc: outcome_table(enc) for enc in Encounter},
        outlook={enc: cargo_outlook(enc, question.cargo, question.encounters) for enc in Encounter},
        pirate_reach=reach,
    )


# -- harvest --------------------------------------------------------------------------------


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
