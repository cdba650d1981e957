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

import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from isles.models.errors import InvalidInput
from isles.models.jsonio import probability_json, read_int
from isles.models.lighthouse.caps import DEFAULT_GAMES, MAX_GAMES, POLICIES, Policy
from isles.models.lighthouse.competitive import (
    CompetitiveDecision,
    CompetitivePosition,
    check_seats,
    competitive_decisions,
    from_seat_decision,
    play_competitive_turn,
    removal_weights,
    seat_islands,
    seat_kit,
    seat_position,
)
from isles.models.lighthouse.kit import BOAT, DISCS_PER_LIGHTHOUSE, Kit
from isles.models.lighthouse.questions import LighthouseContest, ask
from isles.models.lighthouse.rules import Roll, roll_outcomes
from isles.models.status import Status
from isles.solvers.lighthouse.policies import decision_weights
from isles.solvers.lighthouse.simulation import wilson_interval

__all__ = [
    "MAX_COMPETITIVE_BYTES",
    "MAX_PYTHON_POSITIONS",
    "Backend",
    "CompetitiveSimulation",
    "CompetitiveSolution",
    "answer_contest",
    "competitive_memory_bytes",
    "competitive_odds",
    "have_numba",
    "policy_decisions",
    "simulate_competitive",
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

_STATES = 8
"""A lighthouse's states: empty, 1-3 discs with either colour on top, finished."""

_FINISHED = _STATES - 1
_DISCS = (0, 1, 1, 2, 2, 3, 3, 4)
_UNIT = 2.0**-53
_Floats = npt.NDArray[np.float64]
_Ints = npt.NDArray[np.int64]


# --- lighthouse codes -----------------------------------------------------------------------


def _island_state(island: tuple[str, str], stack: Sequence[str]) -> int:
    """0 empty, ``1 + 2 (discs - 1) + top`` for 1-3 discs (top: the colour's index), 7 finished."""
    if not stack:
        return 0
    if len(stack) >= DISCS_PER_LIGHTHOUSE:
        return _FINISHED
    return 1 + 2 * (len(stack) - 1) + island.index(stack[-1])


def _island_stack(island: tuple[str, str], state: int) -> tuple[str, ...]:
    """The discs of ``state`` bottom to top (a finished one ends in the second colour)."""
    if state == 0:
        return ()
    discs, top = (4, 1) if state == _FINISHED else ((state - 1) // 2 + 1, (state - 1) % 2)
    return tuple(island[(top + discs - 1 - i) % 2] for i in range(discs))


def _code(kit: Kit, discs: Sequence[Sequence[str]], islands: Sequence[int]) -> int:
    return sum(_island_state(kit.islands[i], discs[i]) * _STATES**q for q, i in enumerate(islands))


def _stacks(kit: Kit, code: int, islands: Sequence[int]) -> dict[int, tuple[str, ...]]:
    return {
        i: _island_stack(kit.islands[i], code // _STATES**q % _STATES)
        for q, i in enumerate(islands)
    }


# --- greedy and random play -----------------------------------------------------------------


def policy_decisions(
    kit: Kit, seats: int, position: CompetitivePosition, roll: Roll, policy: str
) -> tuple[tuple[CompetitiveDecision, Fraction], ...]:
    """The decisions greedy or random play takes for ``roll``, with their probabilities.

    The landing's removal is :func:`~isles.models.lighthouse.competitive.removal_weights`;
    the seat's own discs are the cooperative policy itself,
    :func:`isles.solvers.lighthouse.decision_weights` (docs/lighthouse.md, "The
    simple policies"), applied to the seat's own lighthouses
    (:func:`~isles.models.lighthouse.competitive.seat_kit`,
    :func:`~isles.models.lighthouse.competitive.seat_position`) and read back by
    :func:`~isles.models.lighthouse.competitive.from_seat_decision`: one definition of
    each policy for both games.

    Parameters
    ----------
    kit : Kit
    seats : int
    position : CompetitivePosition
    roll : Roll
    policy : {"greedy", "random"}

    Returns
    -------
    tuple of (CompetitiveDecision, Fraction)
        Each decision is among
        :func:`~isles.models.lighthouse.competitive.competitive_decisions`; the
        probabilities sum to 1 (greedy: one decision).

    Raises
    ------
    InvalidInput
        A policy other than greedy or random.

    Examples
    --------
    >>> from isles.models.lighthouse.competitive import competitive_kit
    >>> kit = competitive_kit(2)
    >>> roll = Roll(False, ("blue", "red"), Fraction(1, 18))
    >>> start = CompetitivePosition.start(kit)
    >>> [d.placements for d, _ in policy_decisions(kit, 2, start, roll, "greedy")]
    [(('blue', 0), ('red', 0))]
    >>> len(policy_decisions(kit, 2, start, roll, "random"))
    4
    """
    removals = removal_weights(kit, seats, position, roll, policy)
    own = seat_kit(kit, seats, position.seat)
    view = seat_position(kit, seats, position)
    acc: dict[CompetitiveDecision, Fraction] = {}
    for decision, w in decision_weights(own, view, roll, policy):
        for removal, wr in removals:
            key = from_seat_decision(kit, seats, position, removal, decision)
            acc[key] = acc.get(key, Fraction(0)) + w * wr
    return tuple(acc.items())


# --- the tables of the rules ---------------------------------------------------------------


@dataclass(frozen=True)
class _Tables:
    """The rules of one kit, seats and policies as arrays (for competitive_kernels)."""

    k: int
    n: int
    seats: int
    codes: int
    cpow: _Ints
    group_p: _Floats
    group_boat: npt.NDArray[np.bool_]
    group_max: npt.NDArray[np.bool_]
    own_n: _Ints
    own_c: _Ints
    own_r: _Ints
    own_p: _Floats
    rem_n: _Ints
    rem_d: _Ints
    rem_p: _Floats
    wclass: _Ints

    @property
    def terms(self) -> int:
        """Most terms one Bellman update adds (a bound for the rounding error)."""
        per_group = int(self.own_n.max()) * int(self.rem_n.max())
        return int(self.own_n.shape[2]) * per_group + 6


def _maurice_classes(n: int) -> tuple[_Ints, list[int]]:
    """Maurice matters only through whether a walk of 1 or 2 reaches his island.

    Class 2: he is one island short (``m = n - 1``), class 1: two short, class 0:
    further. Returns the class of each ``m`` and a representative ``m`` per class.
    """
    wclass = np.array([2 if m == n - 1 else 1 if m == n - 2 else 0 for m in range(n)])
    reps = [0 if n >= 3 else -1, n - 2 if n >= 2 else -1, n - 1]
    return wclass.astype(np.int64), reps


def _pad(rows: list[list[tuple[int, int, Fraction]]], width: int) -> tuple[_Ints, _Ints, _Floats]:
    codes = np.zeros((len(rows), width), dtype=np.int64)
    returned = np.zeros((len(rows), width), dtype=np.int64)
    probs = np.zeros((len(rows), width))
    for i, row in enumerate(rows):
        for o, (c, r, p) in enumerate(row):
            codes[i, o], returned[i, o], probs[i, o] = c, r, float(p)
    return codes, returned, probs


def _own_results(
    kit: Kit, seats: int, seat: int, code: int, roll: Roll, maurice: int, policy: Policy
) -> list[tuple[int, int, Fraction]]:
    """(own code after, discs sent back, probability) of the seat's discs for ``roll``."""
    mine = seat_islands(kit, seats, seat)
    discs: list[tuple[str, ...]] = [()] * len(kit.islands)
    for i, stack in _stacks(kit, code, mine).items():
        discs[i] = stack
    pos = CompetitivePosition(tuple(discs), 0, maurice, seat)
    weighted: Sequence[tuple[CompetitiveDecision, Fraction]]
    if policy == "optimal":
        weighted = [(d, Fraction(0)) for d in competitive_decisions(kit, seats, pos, roll)]
    else:
        weighted = policy_decisions(kit, seats, pos, roll, policy)
    acc: dict[tuple[int, int], Fraction] = {}
    for decision, w in weighted:
        after = play_competitive_turn(kit, seats, pos, roll, decision, check=False).position
        key = (_code(kit, after.discs, mine), decision.returned)
        acc[key] = acc.get(key, Fraction(0)) + w
    return [(c, r, p) for (c, r), p in acc.items()]


def _own_by_class(
    kit: Kit,
    seats: int,
    seat: int,
    code: int,
    roll: Roll,
    reps: list[int],
    policy: Policy,
) -> list[list[tuple[int, int, Fraction]]]:
    """:func:`_own_results` for each Maurice class (empty for a class the kit does not have).

    The results for a class that cannot reach Maurice's island with the discs
    this roll may send back are those of class 0 (no bonus): computed once.
    """
    out: list[list[tuple[int, int, Fraction]]] = []
    calm: list[tuple[int, int, Fraction]] | None = None
    for w, rep in enumerate(reps):
        if rep < 0:
            out.append([])
        elif calm is not None and max(r for _, r, _ in calm) < 3 - w:
            out.append(calm)
        else:
            out.append(_own_results(kit, seats, seat, code, roll, rep, policy))
            if w == 0:
                calm = out[0]
    return out


def _removals(
    kit: Kit, seats: int, seat: int, others: int, policy: Policy
) -> list[tuple[int, int, Fraction]]:
    """(change of the full lighthouse code, 0, probability) of each landing removal."""
    n = len(kit.islands)
    rest = [i for i in range(n) if i not in seat_islands(kit, seats, seat)]
    discs: list[tuple[str, ...]] = [()] * n
    for i, stack in _stacks(kit, others, rest).items():
        discs[i] = stack
    pos = CompetitivePosition(tuple(discs), kit.sea_cards, 0, seat)
    before = _code(kit, pos.discs, range(n))
    landing = Roll(True, (), Fraction(1))
    weighted: Sequence[tuple[CompetitiveDecision, Fraction]]
    if policy == "optimal":
        weighted = [(d, Fraction(0)) for d in competitive_decisions(kit, seats, pos, landing)]
    else:
        weighted = policy_decisions(kit, seats, pos, landing, policy)
    acc: dict[int, Fraction] = {}
    for decision, w in weighted:
        after = play_competitive_turn(kit, seats, pos, landing, decision, check=False).position
        delta = _code(kit, after.discs, range(n)) - before
        acc[delta] = acc.get(delta, Fraction(0)) + w
    return [(d, 0, p) for d, p in acc.items()]


Results = list[tuple[int, int, Fraction]]
Group = tuple[bool, bool, Fraction, Results]
"""(moves the boat, the seat chooses, probability, results) of a group of rolls."""


def _groups(rolls: Sequence[Roll], by_roll: Sequence[Results], policy: Policy) -> list[Group]:
    """The rolls of one own code and Maurice class, grouped for the sweep.

    Rolls the seat cannot choose in (a fixed policy's, or a single result) are
    averaged into two groups, with and without the boat, the roll's
    probability folded into each result's. An optimising seat's rolls with a
    choice form one group per distinct (boat, set of results): the same
    choice, whatever the colours.
    """
    averaged: list[dict[tuple[int, int], Fraction]] = [{}, {}]
    chosen: dict[tuple[bool, frozenset[tuple[int, int]]], Fraction] = {}
    for roll, results in zip(rolls, by_roll, strict=True):
        if policy == "optimal" and len(results) > 1:
            key = (roll.boat, frozenset((c, r) for c, r, _ in results))
            chosen[key] = chosen.get(key, Fraction(0)) + roll.probability
            continue
        into = averaged[roll.boat]
        for c, r, p in results:
            share = Fraction(1) if policy == "optimal" else p
            into[(c, r)] = into.get((c, r), Fraction(0)) + roll.probability * share
    out: list[Group] = [
        (bool(boat), False, Fraction(1), [(c, r, p) for (c, r), p in into.items()])
        for boat, into in enumerate(averaged)
        if into
    ]
    for (boat, options), p in sorted(chosen.items(), key=lambda item: sorted(item[0][1])):
        out.append((boat, True, p, [(c, r, Fraction(1)) for c, r in sorted(options)]))
    return out


@lru_cache(maxsize=4)
def _tables(kit: Kit, seats: int, policies: tuple[Policy, ...]) -> _Tables:
    """Tabulate models/lighthouse/competitive.py for every own code, Maurice class and roll."""
    n = len(kit.islands)
    codes = _STATES ** (n // seats)
    rolls = roll_outcomes(kit)
    wclass, reps = _maurice_classes(n)
    cells: list[list[Group]] = []
    for seat, policy in enumerate(policies):
        for code in range(codes):
            by_roll = [_own_by_class(kit, seats, seat, code, roll, reps, policy) for roll in rolls]
            for w in range(3):
                cells.append(_groups(rolls, [results[w] for results in by_roll], policy))
    rem: list[Results] = []
    for seat in range(seats):
        for others in range(codes ** (seats - 1)):
            rem.append(_removals(kit, seats, seat, others, policies[seat]))
    groups = max(len(cell) for cell in cells)
    width = max(len(group[3]) for cell in cells for group in cell)
    shape = (seats, codes, 3, groups)
    group_p = np.zeros(shape)
    group_boat = np.zeros(shape, dtype=np.bool_)
    group_max = np.zeros(shape, dtype=np.bool_)
    own_n = np.zeros(shape, dtype=np.int64)
    rows: list[Results] = []
    for index, cell in enumerate(cells):
        seat, rest = divmod(index, codes * 3)
        code, w = divmod(rest, 3)
        for g in range(groups):
            if g < len(cell):
                boat, choose, p, results = cell[g]
                group_boat[seat, code, w, g] = boat
                group_max[seat, code, w, g] = choose
                group_p[seat, code, w, g] = float(p)
                own_n[seat, code, w, g] = len(results)
                rows.append(results)
            else:
                rows.append([])
    own_c, own_r, own_p = _pad(rows, width)
    rem_width = max(len(r) for r in rem)
    rem_d, _, rem_p = _pad(rem, rem_width)
    # The kernels index (seat, code, group, class): Maurice's class varies fastest per group.
    order = (0, 1, 3, 2)
    return _Tables(
        k=kit.sea_cards,
        n=n,
        seats=seats,
        codes=codes,
        cpow=np.array([codes**t for t in range(seats + 1)], dtype=np.int64),
        group_p=np.ascontiguousarray(group_p.transpose(order)),
        group_boat=np.ascontiguousarray(group_boat.transpose(order)),
        group_max=np.ascontiguousarray(group_max.transpose(order)),
        own_n=np.ascontiguousarray(own_n.transpose(order)),
        own_c=np.ascontiguousarray(own_c.reshape((*shape, width)).transpose((*order, 4))),
        own_r=np.ascontiguousarray(own_r.reshape((*shape, width)).transpose((*order, 4))),
        own_p=np.ascontiguousarray(own_p.reshape((*shape, width)).transpose((*order, 4))),
        rem_n=np.array([len(r) for r in rem], dtype=np.int64).reshape(seats, -1),
        rem_d=rem_d.reshape((seats, -1, rem_width)),
        rem_p=rem_p.reshape((seats, -1, rem_width)),
        wclass=wclass,
    )


# --- the solve -------------------------------------------------------------------------------


def _check_policies(policy: str | Sequence[str], seats: int) -> tuple[Policy, ...]:
    """One policy for every seat, or one per seat; ``optimal`` only with 2 seats."""
    names = [policy] * seats if isinstance(policy, str) else list(policy)
    if len(names) != seats:
        raise InvalidInput("policy", list(names), f"one policy, or one per seat ({seats} seats)")
    out: list[Policy] = []
    for name in names:
        known = next((p for p in POLICIES if p == name), None)
        if known is None:
            raise InvalidInput("policy", name, "one of " + ", ".join(POLICIES))
        out.append(known)
    if "optimal" in out and seats != 2:
        raise InvalidInput(
            "policy",
            policy,
            "optimal play with 2 seats only (a game of 3 or 4 seats is not zero-sum: "
            "greedy or random play)",
        )
    return tuple(out)


def _grid(kit: Kit, seats: int) -> tuple[int, int]:
    """(lighthouse codes, positions per code) of the solve's grid."""
    n = len(kit.islands)
    return _STATES**n, seats * (kit.sea_cards + 1) * n


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

    order: _Ints
    bounds: _Ints
    is_end: npt.NDArray[np.bool_]
    winner: _Ints


def _layers(kit: Kit, seats: int, codes: int) -> _Grid:
    """Codes in play sorted by discs laid (most first), with the layer bounds."""
    n = len(kit.islands)
    x = np.arange(_STATES**n, dtype=np.int64)
    discs = np.zeros(x.shape[0], dtype=np.int64)
    lookup = np.array(_DISCS, dtype=np.int64)
    for i in range(n):
        discs += lookup[x // _STATES**i % _STATES]
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
    values: _Floats,
    grid: _Grid,
    tables: _Tables,
    sign: _Floats,
    reward: float,
    tolerance: float,
    deadline: float,
    bar: Any,
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
        if bar is not None:
            bar.update(1)
            bar.set_postfix(change=f"{change:.1e}")
        if change <= tolerance:
            break
        if sweeps >= MAX_SWEEPS or time.monotonic() > deadline:
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


def have_numba() -> bool:
    """Whether numba is installed (the compiled sweeps; else plain Python).

    Examples
    --------
    >>> isinstance(have_numba(), bool)
    True
    """
    from isles.solvers.lighthouse import competitive_kernels

    return bool(competitive_kernels.HAVE_NUMBA)


def _kernels(backend: str) -> _Kernels:
    # numba (through the kernels) is loaded only here: `import isles.lighthouse` stays quick.
    from isles.solvers.lighthouse import competitive_kernels as ck

    if backend not in ("auto", "numba", "python"):
        raise InvalidInput("backend", backend, "auto, numba or python")
    if backend == "numba" and not ck.HAVE_NUMBA:
        raise InvalidInput("backend", backend, "python or auto (numba is not installed)")
    if backend == "python" or not ck.HAVE_NUMBA:
        return _Kernels(ck.sweep_python, ck.sweep_python, ck.reachable_python)
    return _Kernels(ck.sweep, ck.sweep_serial, ck.reachable)


def solve_competitive(
    kit: Kit,
    seats: int = 2,
    policy: str | Sequence[str] = "greedy",
    *,
    tolerance: float = DEFAULT_TOLERANCE,
    time_limit: float | None = None,
    progress: bool = False,
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
    progress : bool
        A tqdm progress bar (stderr) over the sweeps.
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
    began = time.monotonic()
    deadline = math.inf if time_limit is None else began + time_limit
    tables = _tables(kit, seats, policies)
    grid = _layers(kit, seats, tables.codes)
    shape = (_STATES ** len(kit.islands), seats, kit.sea_cards + 1, len(kit.islands))
    comps = seats - 1
    chances = np.zeros((comps, *shape))
    for a in range(comps):
        chances[a, grid.winner == a] = 1.0
    optimising = np.array([p == "optimal" for p in policies], dtype=np.float64)
    bar: Any = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(desc="competitive sweeps", unit="sweep")
    try:
        sign = optimising * np.array([1.0, -1.0] + [0.0] * (seats - 2))
        sweeps, residual, timed_out = _iterate(
            chances, grid, tables, sign, 0.0, tolerance, deadline, bar, kernels
        )
        turns = np.zeros((1, *shape))
        fixed = not optimising.any()
        _, turns_residual, _ = _iterate(
            turns, grid, tables, optimising, 1.0, 1e-9 if fixed else 1e-3, math.inf, bar, kernels
        )
    finally:
        if bar is not None:
            bar.close()
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
        seconds=time.monotonic() - began,
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
    policies = _check_policies(policy, seats)
    if not isinstance(tolerance, float | int) or not 0 < tolerance < 1:
        raise InvalidInput("tolerance", tolerance, "a number in (0, 1)")
    if time_limit is not None and (not isinstance(time_limit, float | int) or not time_limit > 0):
        raise InvalidInput("time_limit", time_limit, "a positive number of seconds")
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


def _reachable(kernels: _Kernels, tables: _Tables, grid: _Grid, seats: int) -> int:
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


# --- Monte Carlo -----------------------------------------------------------------------------


@dataclass(frozen=True)
class CompetitiveSimulation:
    """Each seat's chance in the competitive variant, by simulation.

    From :func:`simulate_competitive` (or :func:`competitive_odds` for kits
    beyond the exact solve); ``status`` is ``estimate``.

    Parameters
    ----------
    policies : tuple of {"greedy", "random"}
        Each seat's play, seat 0 first.
    games : int
    wins : tuple of int
        ``wins[s]``: games won by seat ``s``.
    ci95 : tuple of (float, float)
        Each seat's Wilson 95% interval.
    unfinished : int
        Games that reached ``max_turns``.
    mean_turns : float
        Mean length in turns (unfinished games count ``max_turns``).
    seed : int

    Examples
    --------
    >>> from isles.models.lighthouse.competitive import competitive_kit
    >>> res = simulate_competitive(competitive_kit(2), 2, "greedy", 20, seed=1)
    >>> res.status, sum(res.wins) + res.unfinished
    (<Status.ESTIMATE: 'estimate'>, 20)
    """

    policies: tuple[Policy, ...]
    games: int
    wins: tuple[int, ...]
    ci95: tuple[tuple[float, float], ...]
    unfinished: int
    mean_turns: float
    seed: int

    @property
    def seats(self) -> int:
        """The number of seats."""
        return len(self.policies)

    @property
    def status(self) -> Status:
        """Always ``estimate``: sampled values with their confidence intervals."""
        return Status.ESTIMATE

    @property
    def policy(self) -> Policy | None:
        """The policy every seat plays, or None when they differ."""
        return self.policies[0] if len(set(self.policies)) == 1 else None

    @property
    def win_probability(self) -> tuple[float, ...]:
        """Each seat's share of the games won."""
        return tuple(w / self.games for w in self.wins)

    def to_dict(self) -> dict[str, Any]:
        """Plain data (docs/lighthouse.md, "JSON answers"): one object per seat, seat 1 first.

        Examples
        --------
        >>> from isles.models.lighthouse.competitive import competitive_kit
        >>> out = simulate_competitive(competitive_kit(2), 2, "random", 5, seed=2).to_dict()
        >>> out["method"], sorted(out["by_seat"][0])
        ('monte carlo', ['ci95', 'policy', 'seat', 'win_probability', \
'win_probability_exact', 'wins'])
        """
        return {
            "status": str(self.status),
            "method": "monte carlo",
            "policy": self.policy,
            "seats": self.seats,
            "games": self.games,
            "seed": self.seed,
            "unfinished": self.unfinished,
            "mean_turns": self.mean_turns,
            "by_seat": [
                {
                    "seat": s + 1,
                    "policy": pol,
                    "wins": w,
                    **probability_json("win_probability", w / self.games),
                    "ci95": list(ci),
                }
                for s, (pol, w, ci) in enumerate(
                    zip(self.policies, self.wins, self.ci95, strict=True)
                )
            ],
        }


def simulate_competitive(
    kit: Kit,
    seats: int = 2,
    policy: str | Sequence[str] = "greedy",
    games: int = DEFAULT_GAMES,
    *,
    seed: int = 0,
    max_turns: int = 2_000,
    progress: bool = False,
) -> CompetitiveSimulation:
    """Play the competitive variant ``games`` times (rules: models/lighthouse/competitive.py).

    Each turn rolls the two dice (NumPy's generator), and the seat to play
    takes one of :func:`policy_decisions` at random
    by its probability.

    Parameters
    ----------
    kit : Kit
    seats : int
        2..4 seats dividing the islands.
    policy : str or sequence of str
        ``greedy`` or ``random`` for every seat, or one per seat.
    games : int
        1..:data:`MAX_GAMES` (about 1,000 games a second for the default kit).
    seed : int
        The generator's seed, >= 0.
    max_turns : int
        Games longer than this count as unfinished (>= 1).
    progress : bool
        A tqdm progress bar (stderr) over the games.

    Returns
    -------
    CompetitiveSimulation

    Raises
    ------
    InvalidInput
        Bad seats or policy (``optimal`` is solved, not simulated), ``games``
        outside 1..:data:`MAX_GAMES`, a negative seed, ``max_turns`` below 1.

    References
    ----------
    E. B. Wilson, "Probable inference, the law of succession, and statistical
    inference", *Journal of the American Statistical Association* 22 (1927)
    209-212 (the intervals).

    Examples
    --------
    >>> from isles.models.lighthouse.competitive import competitive_kit
    >>> simulate_competitive(competitive_kit(3), 3, "greedy", 10, seed=3).games
    10
    """
    seats = check_seats(kit, seats)
    policies = _check_policies(policy, seats)
    if "optimal" in policies:
        raise InvalidInput(
            "policy", policy, "greedy or random for a simulation (optimal play is solved)"
        )
    games = read_int(games, "games", 1, MAX_GAMES)
    seed = read_int(seed, "seed", 0)
    max_turns = read_int(max_turns, "max_turns", 1)
    rng = np.random.default_rng(seed)
    wins = [0] * seats
    unfinished = 0
    turns_total = 0
    iterator: Any = range(games)
    if progress:
        from tqdm import tqdm

        iterator = tqdm(iterator, desc="competitive games", unit="game")
    for _ in iterator:
        position = CompetitivePosition.start(kit)
        winner: int | None = None
        turn = 0
        while winner is None and turn < max_turns:
            turn += 1
            faces = [die[int(rng.integers(len(die)))] for die in kit.dice]
            roll = Roll(BOAT in faces, tuple(sorted(f for f in faces if f != BOAT)), Fraction(1))
            options = policy_decisions(kit, seats, position, roll, policies[position.seat])
            pick = 0
            if len(options) > 1:
                weights = np.array([float(w) for _, w in options])
                pick = int(rng.choice(len(options), p=weights / weights.sum()))
            played = play_competitive_turn(
                kit, seats, position, roll, options[pick][0], check=False
            )
            position, winner = played.position, played.winner
        turns_total += turn
        if winner is None:
            unfinished += 1
        else:
            wins[winner] += 1
    return CompetitiveSimulation(
        policies,
        games,
        tuple(wins),
        tuple(wilson_interval(w, games) for w in wins),
        unfinished,
        turns_total / games,
        seed,
    )


# --- one call --------------------------------------------------------------------------------


def competitive_odds(
    kit: Kit | str | Mapping[str, Any],
    seats: int = 2,
    policy: str | Sequence[str] = "greedy",
    *,
    games: int | None = None,
    seed: int | None = None,
    time_limit: float | None = None,
    progress: bool = False,
) -> CompetitiveSolution | CompetitiveSimulation:
    """Each seat's chance in the competitive variant: exact where the solve fits, else simulated.

    Kits whose solve fits :data:`MAX_COMPETITIVE_BYTES` are solved exactly
    (:func:`solve_competitive`: the default 2-seat kit, 3 seats x 2 islands;
    without numba only kits of at most :data:`MAX_PYTHON_POSITIONS`
    positions); larger ones (4 seats x 2 islands, 2 seats x 4 islands) are simulated
    (:func:`simulate_competitive`, ``games`` default :data:`DEFAULT_GAMES`), and
    the answer says so (``status`` exact/optimal or estimate).

    Parameters
    ----------
    kit : Kit
    seats : int
        2..4 seats dividing the islands.
    policy : str or sequence of str
        ``greedy``, ``random`` or (2 seats, solved kits) ``optimal``; one, or one per seat.
    games : int, optional
        Games to simulate; only for a kit that is simulated.
    seed : int, optional
        The simulation's seed (default 0); only for a kit that is simulated.
    time_limit : float, optional
        Seconds for an exact solve (see :func:`solve_competitive`); only for a
        kit that is solved.
    progress : bool
        A progress bar (stderr).

    Returns
    -------
    CompetitiveSolution or CompetitiveSimulation

    Raises
    ------
    InvalidInput
        Bad seats or policy; ``games`` or ``seed`` for a kit solved exactly, or
        ``time_limit`` for one simulated (they would do nothing); ``optimal``
        for a kit beyond the exact solve.

    Examples
    --------
    >>> from isles.models.lighthouse.kit import default_kit
    >>> competitive_odds(default_kit(2, 3)).status
    <Status.EXACT: 'exact'>
    >>> competitive_odds(default_kit(2, 3), games=10)
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: games: 10 is invalid; expected games only ...
    """
    question = ask(
        LighthouseContest,
        kit=kit,
        seats=seats,
        policy=policy,
        games=games,
        seed=seed,
        time_limit=time_limit,
    )
    return answer_contest(question, progress=progress)


def _contest_seats(question: LighthouseContest, kit: Kit) -> int:
    """The seats, which must share the kit's islands equally.

    Without ``seats`` (2 by default) the kit is named, the field that gave the islands.
    """
    n = len(kit.islands)
    if n % question.seats and "seats" not in question.model_fields_set:
        if question.kit is not None:
            raise InvalidInput(
                "kit",
                question.kit.to_dict(),
                f"a kit whose islands the {question.seats} seats share equally (or choose "
                f"the seats; {n} islands)",
                problem=f"{n} islands",
            )
        raise InvalidInput(
            "islands",
            n,
            f"a number of islands the {question.seats} seats share equally (or choose the seats)",
        )
    return check_seats(kit, question.seats)


def answer_contest(
    question: LighthouseContest,
    *,
    progress: bool = False,
    default_time_limit: float | None = None,
) -> CompetitiveSolution | CompetitiveSimulation:
    """The competitive odds a validated :class:`~isles.models.questions.LighthouseContest` asks.

    Parameters
    ----------
    question : LighthouseContest
        Read by :meth:`~isles.models.contract.Question.read` or built by
        :func:`competitive_odds`; no kit chosen, the registry's ``competitive-SEATS``.
    progress : bool
        A progress bar (stderr).
    default_time_limit : float, optional
        The time limit of an exact solve when the question gives none (the command
        line's :data:`~isles.models.lighthouse.questions.COMPETITIVE_TIME_LIMIT`).

    Returns
    -------
    CompetitiveSolution or CompetitiveSimulation

    Raises
    ------
    InvalidInput
        As :func:`competitive_odds`, naming the question's fields.

    Examples
    --------
    >>> from isles.models.lighthouse.questions import LighthouseContest
    >>> answer_contest(LighthouseContest.read({"islands": 2, "seats": 2})).status
    <Status.EXACT: 'exact'>
    """
    kit = question.chosen_kit()
    seats = _contest_seats(question, kit)
    policy, games, seed = question.policy, question.games, question.seed
    time_limit = question.time_limit
    policies = _check_policies(policy, seats)
    codes, per_code = _grid(kit, seats)
    fits = competitive_memory_bytes(kit, seats) <= MAX_COMPETITIVE_BYTES and (
        have_numba() or codes * per_code <= MAX_PYTHON_POSITIONS
    )
    if fits:
        for name, value in (("games", games), ("seed", seed)):
            if value is not None:
                raise InvalidInput(
                    name,
                    value,
                    f"{name} only for a kit that is simulated (this one is solved exactly)",
                )
        if time_limit is None:
            time_limit = default_time_limit
        return solve_competitive(kit, seats, policies, time_limit=time_limit, progress=progress)
    if "optimal" in policies:
        raise InvalidInput(
            "policy",
            policy,
            "greedy or random for a kit this large (optimal play is solved only for kits "
            f"whose solve fits in {MAX_COMPETITIVE_BYTES / 2**30:g} GiB)",
        )
    if time_limit is not None:
        raise InvalidInput(
            "time_limit", time_limit, "a time limit only for a kit that is solved exactly"
        )
    return simulate_competitive(
        kit,
        seats,
        policies,
        DEFAULT_GAMES if games is None else games,
        seed=0 if seed is None else seed,
        progress=progress,
    )
