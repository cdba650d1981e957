"""Lighthouses, competitive variant: each seat's chance under greedy, random or optimal play.

Implements docs/lighthouse.md ("Competitive variant"; seed 000_aeb701e368f40145.txt)
over the rules of models/lighthouse/competitive.py: an exact solve of every position (an
absorbing Markov chain for fixed policies, a zero-sum stochastic game for two
optimising seats), and a Monte Carlo simulation for kits beyond it.

How the solve is organised. A position is (lighthouse code, seat to play, boat,
Maurice); the lighthouse code has one base-8 digit per island, so the kit's
positions form a grid of ``8**n * seats * (sea_cards + 1) * n`` cells, the
default kit (2 seats x 3 islands, 3 sea cards) 12.6 M. The rules enter once,
as tables built by calling models/lighthouse/competitive.py on each seat's own
lighthouses (the results of its discs for a roll and Maurice's class) and on
the other seats' (the landing's removals). A turn that does not land the boat
lays discs, or moves the boat or Maurice on, so ordering the positions by
(discs laid, boat, Maurice), most first, makes every such successor come
before; only the landing (which removes a disc and sends the boat back) points
the other way. One Gauss-Seidel sweep in that order is therefore exact for
every game without a landing, and the sweeps repeat until nothing changes
(value iteration for the game: each seat takes, for each roll, the decision
that is best for itself).

References
----------
L. S. Shapley, "Stochastic games", *Proceedings of the National Academy of
Sciences* 39 (1953) 1095-1100 (the value of a stopping zero-sum game and value
iteration). A. Condon, "The complexity of stochastic games", *Information and
Computation* 96 (1992) 203-224 (simple stochastic games: turn-based, zero-sum,
reachability). J. G. Kemeny and J. L. Snell, *Finite Markov Chains*, Van
Nostrand, 1960 (absorbing chains: absorption probabilities, the fundamental
matrix and the expected time to absorption).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from isles.models.errors import InvalidInput
from isles.models.jsonio import probability_json
from isles.models.lighthouse.caps import Policy
from isles.models.lighthouse.competitive import (
    check_policies,
    check_seats,
)
from isles.models.lighthouse.kit import Kit
from isles.models.lighthouse.position import STATE_DISCS
from isles.models.status import Status
from isles.solvers.compiled import HAVE_NUMBA
from isles.solvers.lighthouse import competitive_kernels
from isles.solvers.lighthouse.competitive_tables import (
    STATES,
    Floats,
    Ints,
    RuleTables,
    rule_tables,
)
from isles.solvers.work import Bar, Deadline, Progress, check_time_limit

__all__ = [
    "MAX_COMPETITIVE_BYTES",
    "MAX_PYTHON_POSITIONS",
    "Backend",
    "CompetitiveSolution",
    "competitive_memory_bytes",
    "exact_solve_fits",
    "solve_competitive",
]

MAX_COMPETITIVE_BYTES = 2 * 2**30
"""Most memory (estimated by :func:`competitive_memory_bytes`) an exact competitive
solve may take: 2 GiB. The default 2-seat kit needs 0.35 GiB, 3 seats x 2 islands
0.7 GiB; 4 seats x 2 islands (2.1 G positions) and 2 seats x 4 islands are
simulated."""

DEFAULT_TOLERANCE = 1e-13
"""Sweeps stop when no value changes by more than this."""

MAX_SWEEPS = 10_000
"""Most Gauss-Seidel sweeps of one solve (the default kit takes about 60)."""

_UNIT = 2.0**-53


# --- the solve -------------------------------------------------------------------------------


def _grid(kit: Kit, seats: int) -> tuple[int, int]:
    """(lighthouse codes, positions per code) of the solve's grid."""
    n = len(kit.islands)
    return STATES**n, seats * (kit.sea_cards + 1) * n


def competitive_memory_bytes(kit: Kit, seats: int = 2) -> int:
    """The memory an exact competitive solve of ``kit`` needs, estimated before it starts.

    The value table (one float per position and seat but the last), the
    expected-length table, the landing copy, the reachability search's queue
    and marks, and the per-code arrays. The tables of the rules are small.

    Parameters
    ----------
    kit : Kit
    seats : int
        2..4 seats dividing the islands.

    Returns
    -------
    int
        Bytes.

    Raises
    ------
    InvalidInput
        ``seats`` not dividing the islands.

    Examples
    --------
    >>> from isles.models.lighthouse.competitive import competitive_kit
    >>> round(competitive_memory_bytes(competitive_kit(2)) / 2**30, 2)
    0.35
    >>> competitive_memory_bytes(competitive_kit(4)) > MAX_COMPETITIVE_BYTES
    True
    """
    seats = check_seats(kit, seats)
    codes, per_code = _grid(kit, seats)
    comps = seats - 1
    positions = codes * per_code
    landing = codes * seats * len(kit.islands) * 8 * (comps + 1)
    return positions * (8 * comps + 8 + 9) + landing + 40 * codes


@dataclass(frozen=True)
class CompetitiveSolution:
    """Each seat's exact chance in the competitive variant, from every position solved.

    From :func:`solve_competitive`. ``status`` is ``exact`` when every seat plays
    a fixed policy (an absorbing Markov chain), ``optimal`` when a seat
    optimises (2 seats: a zero-sum stochastic game; each seat maximises its own
    chance, the value of the game when both do), ``timed_out`` when the time
    limit stopped the sweeps before ``tolerance`` (the chances still hold
    within ``error_bound``).

    Parameters
    ----------
    policies : tuple of {"greedy", "random", "optimal"}
        Each seat's play, seat 0 (who starts) first.
    islands : int
    sea_cards : int
    win_probability : tuple of float
        Each seat's chance from the start, seat 0 first; they sum to 1 (no
        game goes on for ever: see ``turns_bound``).
    error_bound : float
        Every chance is within this of the exact one (see :func:`solve_competitive`).
    residual : float
        The largest change one more Bellman update would make (the
        Bellman residual, computed over every position).
    sweeps : int
        Gauss-Seidel sweeps of the chances.
    positions : int
        Positions in play valued (the grid: every lighthouse code without a
        finished seat, x seat to play x boat x Maurice).
    reachable : int
        Of those, the positions reachable from the start (under the fixed
        policies, and any play of an optimising seat).
    expected_turns : float or None
        The expected length of the game in turns (fixed policies; within
        ``turns_bound`` times ``1e-9``), None when a seat optimises.
    turns_bound : float
        A certified bound on the longest expected remaining game from any
        position (whatever the optimising seats do): it multiplies the
        residual in ``error_bound``, and being finite it proves that every
        game ends with probability 1.
    seconds : float
        Wall time of the solve (not in :meth:`to_dict`).
    timed_out : bool

    Examples
    --------
    >>> from isles.models.lighthouse.kit import default_kit
    >>> res = solve_competitive(default_kit(2, 3), 2, "greedy")
    >>> res.status, round(res.win_probability[0], 6), res.error_bound < 1e-9
    (<Status.EXACT: 'exact'>, 0.557844, True)
    """

    policies: tuple[Policy, ...]
    islands: int
    sea_cards: int
    win_probability: tuple[float, ...]
    error_bound: float
    residual: float
    sweeps: int
    positions: int
    reachable: int
    expected_turns: float | None
    turns_bound: float
    seconds: float = 0.0
    timed_out: bool = False

    @property
    def seats(self) -> int:
        """The number of seats."""
        return len(self.policies)

    @property
    def status(self) -> Status:
        """``timed_out``, else ``optimal`` when a seat optimises, else ``exact``."""
        if self.timed_out:
            return Status.TIMED_OUT
        return Status.OPTIMAL if "optimal" in self.policies else Status.EXACT

    @property
    def policy(self) -> Policy | None:
        """The policy every seat plays, or None when they differ."""
        return self.policies[0] if len(set(self.policies)) == 1 else None

    def to_dict(self) -> dict[str, Any]:
        """Plain data (docs/lighthouse.md, "JSON answers"): one object per seat, seat 1 first.

        Examples
        --------
        >>> from isles.models.lighthouse.kit import default_kit
        >>> out = solve_competitive(default_kit(2, 3), 2, ("optimal", "greedy")).to_dict()
        >>> out["status"], out["policy"], [s["policy"] for s in out["by_seat"]]
        ('optimal', None, ['optimal', 'greedy'])
        """
        return {
            "status": str(self.status),
            "method": "value iteration",
            "policy": self.policy,
            "seats": self.seats,
            "islands": self.islands,
            "sea_cards": self.sea_cards,
            "positions": self.positions,
            "reachable_positions": self.reachable,
            "sweeps": self.sweeps,
            "residual": self.residual,
            "error_bound": self.error_bound,
            "expected_turns": self.expected_turns,
            "turns_bound": self.turns_bound,
            **probability_json("unfinished_probability", Fraction(0)),
            "by_seat": [
                {"seat": s + 1, "policy": pol, **probability_json("win_probability", p)}
                for s, (pol, p) in enumerate(zip(self.policies, self.win_probability, strict=True))
            ],
        }


@dataclass(frozen=True)
class _Grid:
    """The positions of a solve: codes by layer, the ends and their winners."""

    order: Ints
    bounds: Ints
    is_end: npt.NDArray[np.bool_]
    winner: Ints


def _layers(kit: Kit, seats: int, codes: int) -> _Grid:
    """Codes in play sorted by discs laid (most first), with the layer bounds."""
    n = len(kit.islands)
    x = np.arange(STATES**n, dtype=np.int64)
    discs = np.zeros(x.shape[0], dtype=np.int64)
    lookup = np.array(STATE_DISCS, dtype=np.int64)
    for i in range(n):
        discs += lookup[x // STATES**i % STATES]
    winner = np.full(x.shape[0], -1, dtype=np.int64)
    for seat in range(seats):
        winner[(x // codes**seat) % codes == codes - 1] = seat
    is_end = winner >= 0
    alive = np.flatnonzero(~is_end)
    order = alive[np.argsort(-discs[alive], kind="stable")]
    steps = np.flatnonzero(np.diff(discs[order])) + 1
    bounds = np.concatenate([[0], steps, [order.shape[0]]]).astype(np.int64)
    return _Grid(order, bounds, is_end, winner)


def _iterate(
    values: Floats,
    grid: _Grid,
    tables: RuleTables,
    sign: Floats,
    reward: float,
    tolerance: float,
    deadline: Deadline,
    bar: Bar,
    kernels: _Kernels,
) -> tuple[int, float, bool]:
    """Sweep the cycles (boat on the last two cards) to ``tolerance``, then every position.

    Returns (sweeps, the Bellman residual over every position, timed out).
    """
    big = values[0].size > 200_000
    sweep = kernels.sweep if big else kernels.sweep_serial
    args = (
        grid.order,
        grid.bounds,
        tables.k,
        tables.n,
        tables.seats,
        tables.codes,
        tables.cpow,
        tables.group_p,
        tables.group_boat,
        tables.group_max,
        tables.own_n,
        tables.own_c,
        tables.own_r,
        tables.own_p,
        tables.rem_n,
        tables.rem_d,
        tables.rem_p,
        tables.wclass,
        sign,
        reward,
    )
    core = max(tables.k - 1, 0)
    sweeps = 0
    timed_out = False
    while True:
        change = sweep(values, True, *args, core)
        sweeps += 1
        bar.update(1)
        bar.note(f"change={change:.1e}")
        if change <= tolerance:
            break
        if sweeps >= MAX_SWEEPS or deadline.passed():
            timed_out = True
            break
    if core:
        sweep(values, True, *args, 0)
    return sweeps, float(sweep(values, False, *args, 0)), timed_out


Backend = Literal["auto", "numba", "python"]
"""How the sweeps run: ``numba`` compiled, ``python`` plain (small kits), ``auto`` the first
available."""

MAX_PYTHON_POSITIONS = 20_000
"""Most positions :func:`competitive_odds` solves without numba (plain Python: 3 seats x 1
island, 9,261 positions, take about 25 s); larger kits are simulated there."""


@dataclass(frozen=True)
class _Kernels:
    sweep: Any
    sweep_serial: Any
    reachable: Any


def _kernels(backend: str) -> _Kernels:
    if backend not in ("auto", "numba", "python"):
        raise InvalidInput("backend", backend, "auto, numba or python")
    if backend == "numba" and not HAVE_NUMBA:
        raise InvalidInput("backend", backend, "python or auto (numba is not installed)")
    if backend == "python" or not HAVE_NUMBA:
        return _Kernels(
            competitive_kernels.sweep_python,
            competitive_kernels.sweep_python,
            competitive_kernels.reachable_python,
        )
    return _Kernels(
        competitive_kernels.sweep, competitive_kernels.sweep_serial, competitive_kernels.reachable
    )


def exact_solve_fits(kit: Kit, seats: int) -> bool:
    """Whether :func:`solve_competitive` takes ``kit`` for ``seats`` seats, as installed.

    Its memory fits :data:`MAX_COMPETITIVE_BYTES`, and without numba its
    positions are at most :data:`MAX_PYTHON_POSITIONS` (plain Python).

    Examples
    --------
    >>> from isles.models.lighthouse.competitive import competitive_kit
    >>> exact_solve_fits(competitive_kit(2), 2), exact_solve_fits(competitive_kit(4), 4)
    (True, False)
    """
    codes, per_code = _grid(kit, seats)
    return competitive_memory_bytes(kit, seats) <= MAX_COMPETITIVE_BYTES and (
        HAVE_NUMBA or codes * per_code <= MAX_PYTHON_POSITIONS
    )


def solve_competitive(
    kit: Kit,
    seats: int = 2,
    policy: str | Sequence[str] = "greedy",
    *,
    tolerance: float = DEFAULT_TOLERANCE,
    time_limit: float | None = None,
    progress: Progress = None,
    backend: Backend = "auto",
) -> CompetitiveSolution:
    """Each seat's exact chance in the competitive variant, every position solved.

    Implements docs/lighthouse.md ("Competitive variant"). The rules are
    tabulated from models/lighthouse/competitive.py; the chances are computed over every
    position (lighthouse code, seat to play, boat, Maurice) by Gauss-Seidel
    value iteration in the order of the module's notes: exact after one sweep
    for games without a landing, repeated for the cycles a landing makes
    (about 30 sweeps of the positions with the boat on the last two cards for
    the default kit), until no value changes by more than ``tolerance``.

    - Every seat **greedy** or **random** (any mix): an absorbing Markov chain;
      the sweeps are Gauss-Seidel iterations of its linear system.
    - A seat **optimal** (2 seats): after each roll it takes the decision (the
      disc the landing removes, the order and lighthouses of its discs, the
      bonus) best for its own chance. Against a fixed policy that is a Markov
      decision process, with both seats optimal a zero-sum turn-based
      stochastic game (seat 1 maximises, seat 2 minimises seat 1's chance);
      the sweeps are Shapley's value iteration.

    Parameters
    ----------
    kit : Kit
        Its grid must fit :data:`MAX_COMPETITIVE_BYTES` (:func:`competitive_memory_bytes`).
    seats : int
        2..4 seats dividing the islands (optimal play: 2).
    policy : str or sequence of str
        ``greedy``, ``random`` or ``optimal`` for every seat, or one per seat
        (seat 1 first).
    tolerance : float
        Sweeps stop when no chance changes by more than this (> 0).
    time_limit : float, optional
        Seconds; when they run out the answer is ``timed_out``, its chances
        still within ``error_bound``.
    progress : bool, None or callable
        A progress bar (stderr) over the sweeps, as :data:`isles.solvers.work.Progress`
        (their number is not known in advance: a callable is told nothing).
    backend : {"auto", "numba", "python"}
        ``numba``: the compiled sweeps (parallel over a layer's lighthouse
        codes); ``python``: the same loops as plain Python, the reference in
        the tests and the fallback without numba (small kits only:
        :data:`MAX_PYTHON_POSITIONS`); ``auto``: numba when installed.

    Returns
    -------
    CompetitiveSolution

    Raises
    ------
    InvalidInput
        Bad seats or policy, ``optimal`` with more than 2 seats, a kit whose
        solve would need more than :data:`MAX_COMPETITIVE_BYTES`, a bad
        tolerance or time limit.

    Notes
    -----
    Error bound. Write ``T`` for the Bellman operator and ``r`` for the
    residual ``max |T V - V|`` of the computed chances ``V``. For a fixed
    policy, ``V* - V = N (T V - V)`` with ``N = (I - Q)^-1 >= 0`` the
    fundamental matrix of the chain, whose row sums are the expected
    remaining turns ``L``, so ``|V* - V| <= max L * r``. For an optimising
    seat, the decisions greedy with respect to ``V`` guarantee ``V - r L``
    against any reply (and the opponent's guarantee the converse), with ``L``
    the longest expected remaining game over the optimising seats' choices.
    ``L`` is solved the same way (every turn costs 1, optimising seats
    lengthen the game) to a residual ``e`` below 1; ``L / (1 - e)`` is then a
    supersolution of its equation, so ``turns_bound = max L / (1 - e)`` bounds
    the true lengths, and proves that every game ends with probability 1. The
    stated bound is ``2 * turns_bound * (r + (terms + 1) 2^-53)``, ``terms``
    the most terms one update adds (rounding of the update and of the
    residual), times ``seats - 1`` for the last seat's chance (one minus the
    others).

    References
    ----------
    L. S. Shapley, "Stochastic games", *Proc. Natl. Acad. Sci.* 39 (1953)
    1095-1100. A. Condon, "The complexity of stochastic games", *Information
    and Computation* 96 (1992) 203-224. J. G. Kemeny and J. L. Snell, *Finite
    Markov Chains*, Van Nostrand, 1960 (absorption probabilities, the
    fundamental matrix, expected time to absorption). M. L. Puterman, *Markov
    Decision Processes*, Wiley, 1994 (Gauss-Seidel value iteration).

    Examples
    --------
    >>> from isles.models.lighthouse.kit import default_kit
    >>> kit = default_kit(2, 3)
    >>> game = solve_competitive(kit, 2, "optimal")
    >>> game.status, round(game.win_probability[0], 6)
    (<Status.OPTIMAL: 'optimal'>, 0.557191)
    >>> solve_competitive(kit, 2, "optimal").reachable <= game.positions
    True
    """
    seats, policies = _check_solve(kit, seats, policy, tolerance, time_limit)
    kernels = _kernels(backend)
    deadline = Deadline(time_limit)
    tables = rule_tables(kit, seats, policies)
    grid = _layers(kit, seats, tables.codes)
    shape = (STATES ** len(kit.islands), seats, kit.sea_cards + 1, len(kit.islands))
    comps = seats - 1
    chances = np.zeros((comps, *shape))
    for a in range(comps):
        chances[a, grid.winner == a] = 1.0
    optimising = np.array([p == "optimal" for p in policies], dtype=np.float64)
    with Bar(None, "competitive sweeps", progress, unit="sweep") as bar:
        sign = optimising * np.array([1.0, -1.0] + [0.0] * (seats - 2))
        sweeps, residual, timed_out = _iterate(
            chances, grid, tables, sign, 0.0, tolerance, deadline, bar, kernels
        )
        turns = np.zeros((1, *shape))
        fixed = not optimising.any()
        _, turns_residual, _ = _iterate(
            turns, grid, tables, optimising, 1.0, 1e-9 if fixed else 1e-3, Deadline(None), bar,
            kernels,
        )  # fmt: skip
    if not turns_residual < 1:
        raise AssertionError(f"the game lengths did not converge (residual {turns_residual})")
    turns_bound = float(turns.max()) / (1.0 - turns_residual)
    error = 2.0 * turns_bound * (residual + (tables.terms + 1) * _UNIT) * comps
    start = tuple(float(chances[a, 0, 0, 0, 0]) for a in range(comps))
    return CompetitiveSolution(
        policies=policies,
        islands=len(kit.islands),
        sea_cards=kit.sea_cards,
        win_probability=(*start, 1.0 - sum(start)),
        error_bound=error,
        residual=residual,
        sweeps=sweeps,
        positions=int(grid.order.shape[0]) * shape[1] * shape[2] * shape[3],
        reachable=_reachable(kernels, tables, grid, seats),
        expected_turns=float(turns[0, 0, 0, 0, 0]) if fixed else None,
        turns_bound=turns_bound,
        seconds=deadline.elapsed(),
        timed_out=timed_out,
    )


def _check_solve(
    kit: Kit,
    seats: int,
    policy: str | Sequence[str],
    tolerance: float,
    time_limit: float | None,
) -> tuple[int, tuple[Policy, ...]]:
    """The seats and each seat's policy of an exact solve, its inputs checked."""
    seats = check_seats(kit, seats)
    policies = check_policies(policy, seats)
    if not isinstance(tolerance, float | int) or not 0 < tolerance < 1:
        raise InvalidInput("tolerance", tolerance, "a number in (0, 1)")
    check_time_limit(time_limit)
    need = competitive_memory_bytes(kit, seats)
    if need > MAX_COMPETITIVE_BYTES:
        raise InvalidInput(
            "kit",
            None,
            f"a competitive kit whose exact solve fits in {MAX_COMPETITIVE_BYTES / 2**30:g} GiB "
            "(simulate_competitive plays larger ones)",
            problem=f"{len(kit.islands)} islands for {seats} seats need {need / 2**30:.1f} GiB",
        )
    return seats, policies


def _reachable(kernels: _Kernels, tables: RuleTables, grid: _Grid, seats: int) -> int:
    """Positions reachable from the start (the kernels' walk of the grid)."""
    found = kernels.reachable(
        0,
        tables.k,
        tables.n,
        seats,
        tables.codes,
        tables.cpow,
        grid.is_end,
        tables.group_boat,
        tables.own_n,
        tables.own_c,
        tables.own_r,
        tables.rem_n,
        tables.rem_d,
        tables.wclass,
    )
    return int(found)
