"""The fewest expected rolls for one ship to reach its targets from every edge, and the steering.

Implements docs/ships.md ("What the navigator answers"; seed 004_644cf972d8964df4.txt,
rule 6): a stochastic shortest-path Markov decision process over the ship's edges, its
almost-sure reachable set, solved by policy iteration.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import numpy as np
import scipy.sparse as sp
from scipy.sparse.linalg import spsolve

from isles.models.board import Board
from isles.models.errors import InvalidInput, expect
from isles.models.hexgrid import Edge
from isles.models.jsonio import edge_json, float_or_none
from isles.models.ships.coordinates import as_edge
from isles.models.ships.limits import ROLLS
from isles.models.ships.winds import check_ship_edge
from isles.models.status import Status
from isles.solvers.ships.graph import (
    ROLL_INDEX,
    ROLL_P,
    UNIT_ROUNDOFF,
    BoolArray,
    FloatArray,
    IntArray,
    WindGraph,
    layers,
    wind_graph,
)
from isles.solvers.work import Bar, Progress

__all__ = ["REACH_ORDER", "Navigation", "Reach", "navigate", "transition"]


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


REACH_ORDER: tuple[Reach, ...] = tuple(Reach)


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
    >>> from isles.models.board import Board
    >>> from isles.models.catan import Terrain, Tile
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

    def index(self, e: object, field: str = "edge") -> int:
        """The index of ship edge ``e`` in :attr:`graph` (an ``InvalidInput`` naming ``field``
        if it is none of the board's)."""
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
        return REACH_ORDER[int(self.reach_codes[self.index(e)])]

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
        v = float(self.values[self.index(e)])
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
        eps = self.bellman_residual + 32.0 * UNIT_ROUNDOFF * (1.0 + top)
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
        i = self.index(e)
        if isinstance(roll, bool) or roll not in ROLL_INDEX:
            raise InvalidInput("roll", roll, "a 2d6 sum in 2..12")
        if self.reach_codes[i] != 0:
            raise InvalidInput("edge", str(e), "an edge from which the target is reachable")
        return self.graph.edges[int(self.choice[i, ROLL_INDEX[roll]])]

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
                    "reach": REACH_ORDER[int(code)].value,
                    "expected_rolls": float_or_none(float(v)),
                }
                for e, code, v in zip(self.graph.edges, self.reach_codes, self.values, strict=True)
            ],
        }


def transition(
    choice: IntArray, transient: IntArray, local: IntArray
) -> tuple[sp.csr_matrix, FloatArray]:
    """P restricted to transient edges under ``choice``, and the absorption mass per row."""
    m = len(transient)
    cols = choice[transient].reshape(-1)
    rows = np.repeat(np.arange(m, dtype=np.int64), len(ROLLS))
    probs = np.tile(ROLL_P, m)
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
    progress: Progress = False,
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
    progress : bool, None or callable
        A bar over the rounds (:data:`isles.solvers.work.Progress`).

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
    >>> from isles.models.board import Board
    >>> from isles.models.catan import Terrain, Tile
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
    is_target = np.zeros(n, dtype=bool)
    t_idx = np.array(sorted(graph.index[e] for e in target_set), dtype=np.int64)
    is_target[t_idx] = True
    possible, winning, rolls_left = _sure_set(graph, is_target, t_idx)
    reach_codes = np.where(winning, 0, np.where(possible, 1, 2)).astype(np.int64)
    transient = np.flatnonzero(winning & ~is_target)

    # Proper initial policy: per roll, the option fewest rolls from the target.
    opts = graph.options
    layer_of = np.where(np.isfinite(rolls_left), rolls_left, np.inf)
    choice = np.take_along_axis(opts, layer_of[opts].argmin(axis=2)[:, :, None], axis=2).squeeze(2)
    values = np.full(n, np.inf)
    values[t_idx] = 0.0
    iterations, optimal = _policy_iteration(
        graph, transient, choice, values, max_iterations, progress
    )
    residual = 0.0
    if len(transient):
        best = values[opts[transient]].min(axis=2)
        bellman = 1.0 + best @ ROLL_P
        residual = float(np.max(np.abs(values[transient] - bellman)))
    return Navigation(
        graph=graph,
        targets=target_set,
        status=Status.OPTIMAL if optimal else Status.FEASIBLE,
        iterations=iterations,
        bellman_residual=residual,
        values=values,
        reach_codes=reach_codes,
        choice=choice,
    )


def _layers_to(graph: WindGraph, allowed: BoolArray, targets: IntArray) -> FloatArray:
    """Rolls needed at best from each edge to ``targets``, moving only out of ``allowed``
    edges; inf where no path exists. Targets are absorbing."""
    n = len(graph)
    k = graph.options.shape[1] * graph.options.shape[2]
    src = np.repeat(np.arange(n, dtype=np.int64), k)
    dst = graph.options.reshape(-1)
    return layers(n, src, dst, allowed[src] & (src != dst), targets)


def _sure_set(
    graph: WindGraph, is_target: BoolArray, t_idx: IntArray
) -> tuple[BoolArray, BoolArray, FloatArray]:
    """The edges from which arrival is possible, those from which some steering arrives
    surely (the almost-sure fixpoint), and the fewest rolls from each inside the latter."""
    possible = np.isfinite(_layers_to(graph, ~is_target, t_idx))
    winning = possible.copy()
    while True:
        safe = np.all(np.any(winning[graph.options], axis=2), axis=1) | is_target
        rolls_left = _layers_to(graph, winning & safe & ~is_target, t_idx)
        shrunk = np.isfinite(rolls_left) & winning
        if np.array_equal(shrunk, winning):
            return possible, winning, rolls_left
        winning = shrunk


def _policy_iteration(
    graph: WindGraph,
    transient: IntArray,
    choice: IntArray,
    values: FloatArray,
    max_iterations: int,
    progress: Progress,
) -> tuple[int, bool]:
    """Improve ``choice`` until no decision improves, ``values`` evaluated in place: the
    rounds made, and whether it stopped for that (rather than at ``max_iterations``)."""
    if not len(transient):
        return 0, True
    opts = graph.options
    local = np.full(len(graph), -1, dtype=np.int64)
    local[transient] = np.arange(len(transient))
    # Only (edge, roll) pairs with a real choice can change: at most two rolls per edge.
    multi = np.any(opts != opts[:, :, :1], axis=2) & (local >= 0)[:, None]
    dec_edge, dec_roll = np.nonzero(multi)
    dec_opts = opts[dec_edge, dec_roll]
    eye = sp.identity(len(transient), format="csr")
    iterations = 0
    with Bar(None, "policy iteration", progress, unit="round") as bar:
        while iterations < max_iterations:
            iterations += 1
            mat, _ = transition(choice, transient, local)
            v = spsolve((eye - mat).tocsc(), np.ones(len(transient)))
            values[transient] = np.atleast_1d(v)
            bar.update(1)
            option_values = values[dec_opts]
            best = option_values.min(axis=1)
            current = values[choice[dec_edge, dec_roll]]
            better = best < current - 1e-10 * (1.0 + np.abs(current))
            if not better.any():
                return iterations, True
            pick = option_values[better].argmin(axis=1)
            rows = dec_opts[better][np.arange(len(pick)), pick]
            choice[dec_edge[better], dec_roll[better]] = rows
    return iterations, False
