"""The fewest expected rolls until every ship of a fleet stands on a scoring edge at once,
and the steering that achieves them.

Implements docs/ships.md ("The fleet"; seed 004_644cf972d8964df4.txt, rules 6 and 11
and the end of the game): a stochastic shortest path over the fleet's joint positions,
its almost-sure reachable set, policy iteration with sparse LU or BiCGSTAB evaluations.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import scipy.sparse as sp
from scipy.sparse.linalg import lgmres, spsolve

from isles.models.board import Board
from isles.models.errors import InvalidInput
from isles.models.hexgrid import Edge
from isles.models.jsonio import edge_json, float_or_none
from isles.models.ships.fleet import Rollers, check_fleet
from isles.models.ships.limits import ROLLS
from isles.models.status import Status
from isles.solvers.ships.graph import (
    ROLL_INDEX,
    ROLL_P,
    BoolArray,
    FloatArray,
    IntArray,
    WindGraph,
    layers,
)
from isles.solvers.ships.joint_states import (
    FleetSpace,
    ShipMove,
    check_scoring,
    fleet_board,
    space_for,
)
from isles.solvers.ships.navigation import Reach
from isles.solvers.work import Bar, Progress

__all__ = ["FleetNavigation", "fleet_navigate"]


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
        if isinstance(roll, bool) or not isinstance(roll, int) or roll not in ROLL_INDEX:
            raise InvalidInput("roll", roll, "a 2d6 sum in 2..12")
        s = self.space.index(fleet, "fleet")
        if self.reach_codes[s] != 0:
            raise InvalidInput("fleet", [str(e) for e in fleet], "a reachable fleet position")
        want = int(self.choice[s, ROLL_INDEX[roll]])
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


def fleet_navigate(
    board: Board | WindGraph | FleetSpace,
    ships: Sequence[Edge],
    scoring: Iterable[Edge],
    *,
    may_stay: bool | None = None,
    rollers: Rollers | None = None,
    max_iterations: int = 1000,
    progress: Progress = False,
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
    progress : bool, None or callable
        A bar over the rounds (:data:`isles.solvers.work.Progress`).

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
    start = check_fleet(fleet_board(board), ships)
    target = check_scoring(fleet_board(board), scoring)
    space = space_for(board, len(start), may_stay, rollers, progress)
    mask = space.scoring_mask(target)
    clear = space.collision_rolls == 0
    possible, winning, rolls_left = _sure_set(space, mask, clear)
    reach_codes = np.where(winning, 0, np.where(possible, 1, 2)).astype(np.int64)
    transient = np.flatnonzero(winning & ~mask)
    allowed = winning & clear
    # Each group's (state, roll) pairs as cells of a (states, rolls) table.
    flat = [space.pair_state[rows] * len(ROLLS) + space.pair_roll[rows] for rows, _ in space.groups]
    choice = _initial_policy(space, flat, allowed, rolls_left, mask & ~clear)
    values = np.full(len(space), np.inf)
    values[mask] = 0.0
    iterations, optimal = _policy_iteration(
        space, flat, transient, allowed, choice, values, max_iterations, progress
    )
    status = Status.OPTIMAL if optimal else Status.TIMED_OUT
    if reach_codes[space.index(start)] == 2:
        status = Status.UNREACHABLE
    return FleetNavigation(
        status=status,
        space=space,
        start=start,
        scoring=target,
        iterations=iterations,
        bellman_residual=_residual(space, flat, transient, allowed, values),
        values=values,
        reach_codes=reach_codes,
        choice=choice,
    )


def _sure_set(
    space: FleetSpace, mask: BoolArray, clear: BoolArray
) -> tuple[BoolArray, BoolArray, FloatArray]:
    """The joint states from which arrival is possible, those from which some steering
    arrives surely (a clear placement inside the set on every roll: the almost-sure
    fixpoint), and the fewest rolls from each to a clear scoring state inside it."""
    n = len(space)
    src, dst = space.arcs()
    active = ~mask[src]
    # Positions from which arrival is possible at all (collisions only lower the odds).
    possible = np.isfinite(layers(n, src, dst, active, np.flatnonzero(mask))) | mask
    arrive = np.flatnonzero(mask & clear)
    winning = possible.copy()
    while True:
        inside = winning & clear
        safe = inside.copy()  # a roll that moves no ship leaves the fleet where it is
        for rows, succ in space.groups:
            stuck = ~np.any(inside[succ], axis=1)
            safe[space.pair_state[rows][stuck]] = False
        rolls_left = layers(n, src, dst, active & safe[src] & winning[src] & inside[dst], arrive)
        shrunk = (np.isfinite(rolls_left) & winning) | mask
        if np.array_equal(shrunk, winning):
            return possible, winning, rolls_left
        winning = shrunk


def _initial_policy(
    space: FleetSpace,
    flat: list[IntArray],
    allowed: BoolArray,
    rolls_left: FloatArray,
    crowded: BoolArray,
) -> IntArray:
    """A proper policy to start from: per pair, the allowed placement fewest rolls from
    arriving (a scoring state with a collision to roll is no arrival)."""
    cost = np.where(np.isfinite(rolls_left), rolls_left, np.inf)
    cost[crowded] = np.inf
    choice = np.repeat(np.arange(len(space), dtype=np.int64)[:, None], len(ROLLS), axis=1)
    cells = choice.reshape(-1)
    for where, (_, succ) in zip(flat, space.groups, strict=True):
        layer = np.where(allowed[succ], cost[succ], np.inf)
        cells[where] = succ[np.arange(len(succ)), layer.argmin(axis=1)]
    return choice


def _policy_iteration(
    space: FleetSpace,
    flat: list[IntArray],
    transient: IntArray,
    allowed: BoolArray,
    choice: IntArray,
    values: FloatArray,
    max_iterations: int,
    progress: Progress,
) -> tuple[int, bool]:
    """Improve ``choice`` until no decision improves, ``values`` evaluated in place: the
    rounds made, and whether it stopped for that (rather than at ``max_iterations``)."""
    if not len(transient):
        return 0, True
    local = np.full(len(space), -1, dtype=np.int64)
    local[transient] = np.arange(len(transient))
    cells = choice.reshape(-1)
    eye = sp.identity(len(transient), format="csr")
    rows_all = np.repeat(np.arange(len(transient), dtype=np.int64), len(ROLLS))
    probs_all = np.tile(ROLL_P, len(transient))
    iterations = 0
    with Bar(None, "fleet policy iteration", progress, unit="round") as bar:
        while iterations < max_iterations:
            iterations += 1
            cols = local[choice[transient].reshape(-1)]
            inner = cols >= 0
            mat = sp.csr_matrix(
                (probs_all[inner], (rows_all[inner], cols[inner])),
                shape=(len(transient), len(transient)),
            )
            guess = values[transient] if iterations > 1 else None
            values[transient] = _evaluate((eye - mat).tocsr(), guess)
            bar.update(1)
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
                return iterations, True
    return iterations, False


def _residual(
    space: FleetSpace,
    flat: list[IntArray],
    transient: IntArray,
    allowed: BoolArray,
    values: FloatArray,
) -> float:
    """The largest violation of the Bellman equation by ``values``, in rolls."""
    if not len(transient):
        return 0.0
    per_roll = np.repeat(values[:, None], len(ROLLS), axis=1)
    per_roll[~allowed] = np.inf
    best_cells = per_roll.reshape(-1)
    for where, (_, succ) in zip(flat, space.groups, strict=True):
        best_cells[where] = np.where(allowed[succ], values[succ], np.inf).min(axis=1)
    bellman = 1.0 + np.einsum("sr,r->s", per_roll[transient], ROLL_P)
    return float(np.max(np.abs(values[transient] - bellman)))
