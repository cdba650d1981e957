"""The race computed exactly where the cars' joint chain fits: who arrives first?

Implements docs/rally.md ("The race", "Exact where the joint space fits"; seed
002_8684547a41c0941c.txt). The cars play their own policies of
:func:`isles.rally.plan_income` under the same rolls in turn order, exactly as
the Monte Carlo of :mod:`isles.solvers.rally.race` plays them (the same
``CarState.roll`` and ``CarState.decide``, applied to states instead of games): the
joint Markov chain over (every car's hex and cards, whose seat rolls next) is
enumerated from the start, then its distribution is pushed forward roll by roll
for the race's rounds [1]_. Each car's chance of arriving first is then a float
whose only error is round-off (:data:`ERROR`).

References
----------
.. [1] J. G. Kemeny, J. L. Snell, *Finite Markov Chains*, Van Nostrand, 1960
   (absorption probabilities of a finite chain).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp

from isles.models.rally.questions import MAX_JOINT_STATES, Race
from isles.models.rally.rules import ROLLS
from isles.models.status import Status
from isles.solvers.rally.game import ROLL_P, Game
from isles.solvers.rally.income_plan import IncomePlan
from isles.solvers.rally.race_result import RaceCar, RaceResult
from isles.solvers.rally.simulation import CarState, policy_of
from isles.solvers.work import Deadline

__all__ = ["ERROR", "MAX_JOINT_STATES", "ExactRace", "exact_answer", "exact_race"]

#: A bound on the round-off of every exact chance (float64 sums of nonnegative terms).
ERROR = 1e-9
#: Columns of one car's state: hex index, reserve (5 resources), hand (5 + gold).
_WIDTH = 12


class _Dice:
    """Stands in for the random generator of ``CarState.decide``: one fixed exit roll per row."""

    def __init__(self, exit_roll: npt.NDArray[np.float64]) -> None:
        self.exit_roll = exit_roll

    def random(self, size: int) -> npt.NDArray[np.float64]:
        """The fixed exit rolls of the first ``size`` rows."""
        return self.exit_roll[:size]


def _car(game: Game | None, rows: npt.NDArray[np.int64]) -> CarState:
    """The car of each joint state's columns (hex, reserve, hand)."""
    car = CarState(game, len(rows))
    car.pos = rows[:, 0].copy()
    car.reserve = rows[:, 1:6].copy()
    car.hand = rows[:, 6:12].copy()
    return car


def _rows(car: CarState) -> npt.NDArray[np.int64]:
    """Each car state as a row of columns (the inverse of :func:`_car`)."""
    return np.column_stack([car.pos, car.reserve, car.hand]).astype(np.int64)


def _decide(
    game: Game, rows: npt.NDArray[np.int64], exit_roll: float
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
    """Each state's turn with the same exit roll: the states after it, and who arrived."""
    car = _car(game, rows)
    arrived = car.decide(1, _Dice(np.full(len(rows), exit_roll)))
    return _rows(car), arrived


def _exit_chances(game: Game) -> list[float]:
    """The distinct chances below 1 of a move's try (leaving a desert), ascending."""
    return sorted({float(m.p_exit) for p in game.positions for m in p.moves if m.p_exit < 1})


def _turn(
    game: Game | None, rows: npt.NDArray[np.int64]
) -> list[tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_], npt.NDArray[np.float64]]]:
    """A car's turn from each state: its outcomes (states, arrived, chance), each a branch.

    A move out of a desert succeeds with its chance ``p``: two branches, the
    move (``p``) and the failed try (``1 - p``); which move the policy chose,
    and so its ``p``, is read back from ``decide`` itself at each distinct
    chance (a try succeeds when the exit roll is below ``p``).
    """
    n = len(rows)
    if game is None:
        return [(rows, np.zeros(n, bool), np.ones(n))]
    moved, arrived = _decide(game, rows, 0.0)
    chances = _exit_chances(game)
    if not chances:
        return [(moved, arrived, np.ones(n))]
    failed, failed_arrived = _decide(game, rows, float(np.nextafter(1.0, 0.0)))
    differ = (moved != failed).any(axis=1) | (arrived != failed_arrived)
    p = np.ones(n)
    open_ = differ.copy()
    for chance in chances:
        if not open_.any():
            break
        at, at_arrived = _decide(game, rows[open_], chance)
        fails = (at != moved[open_]).any(axis=1) | (at_arrived != arrived[open_])
        idx = np.flatnonzero(open_)[fails]
        p[idx] = chance
        open_[idx] = False
    return [(moved, arrived, p), (failed, failed_arrived, np.where(differ, 1 - p, 0.0))]


@dataclass(frozen=True)
class ExactRace:
    """The race's exact figures (floats, round-off below :data:`ERROR`).

    Attributes
    ----------
    first : tuple of float
        Each car's chance of arriving first within ``turns`` rounds, in seat order.
    no_winner : float
        The chance no car arrives within ``turns`` rounds.
    within : tuple of tuple of float
        Each car's chance of having arrived within t rounds, t = 1..turns
        (its own chain: the race does not change a car's own arrival).
    mean_turns : tuple of float or None
        Each car's mean arrival round, given it arrives within ``turns``.
    joint_states : int
        States of the joint chain.
    """

    first: tuple[float, ...]
    no_winner: float
    within: tuple[tuple[float, ...], ...]
    mean_turns: tuple[float | None, ...]
    joint_states: int


def _chain(
    games: Sequence[Game | None],
    seats: Sequence[int],
    players: int,
    discard: bool,
    max_states: int,
    deadline: Deadline | None = None,
) -> tuple[sp.csr_matrix, sp.csr_matrix, int] | None:
    """The chain of the cars (at ``seats``) from the start: (moves, arrivals, start index).

    ``moves[i, j]`` is the chance of one roll and its seat's turn leading from
    state i to state j; ``arrivals[i, k]`` the chance it ends with car k
    arriving (first: the chain stops there). None when the states exceed
    ``max_states`` or the work passes ``deadline``.
    """
    width = 1 + _WIDTH * len(games)
    start = np.zeros(width, np.int64)
    for k, game in enumerate(games):
        start[1 + _WIDTH * k] = -2 if game is None else game.start
    index: dict[bytes, int] = {start.tobytes(): 0}
    frontier = start[None, :]
    src: list[npt.NDArray[np.int64]] = []
    dst: list[npt.NDArray[np.int64]] = []
    weight: list[npt.NDArray[np.float64]] = []
    while len(frontier):
        ids = np.array([index[row.tobytes()] for row in frontier], np.int64)
        new: list[npt.NDArray[np.int64]] = []
        for phase in np.unique(frontier[:, 0]):
            sel = frontier[:, 0] == phase
            rows, from_ = frontier[sel], ids[sel]
            seat = int(phase)
            mover = seats.index(seat) if seat in seats else -1
            for i, roll in enumerate(ROLLS):
                cars = [
                    _car(g, rows[:, 1 + _WIDTH * k : 1 + _WIDTH * (k + 1)])
                    for k, g in enumerate(games)
                ]
                rolled = np.full(len(rows), roll, np.int64)
                for car in cars:
                    car.roll(rolled, discard)
                after = np.column_stack(
                    [np.full(len(rows), (seat + 1) % players)] + [_rows(car) for car in cars]
                )
                if mover < 0:
                    branches = [(after, np.zeros(len(rows), bool), np.ones(len(rows)))]
                else:
                    cols = slice(1 + _WIDTH * mover, 1 + _WIDTH * (mover + 1))
                    branches = []
                    for state, arrived, p in _turn(games[mover], after[:, cols]):
                        joint = after.copy()
                        joint[:, cols] = state
                        branches.append((joint, arrived, p))
                for joint, arrived, p in branches:
                    w = p * float(ROLL_P[i])
                    keep = w > 0
                    won = keep & arrived
                    src.append(from_[won])
                    dst.append(np.full(int(won.sum()), -1 - mover, np.int64))
                    weight.append(w[won])
                    going = np.flatnonzero(keep & ~arrived)
                    buf = np.ascontiguousarray(joint[going]).tobytes()
                    size = joint.shape[1] * joint.itemsize
                    targets = np.empty(len(going), np.int64)
                    for j in range(len(going)):
                        key = buf[j * size : (j + 1) * size]
                        at = index.get(key)
                        if at is None:
                            at = index[key] = len(index)
                            new.append(joint[going[j]])
                        targets[j] = at
                    src.append(from_[going])
                    dst.append(targets)
                    weight.append(w[going])
                if len(index) > max_states or (deadline is not None and deadline.passed()):
                    return None
        frontier = np.array(new, np.int64).reshape(-1, width)
    n = len(index)
    s, d, w = np.concatenate(src), np.concatenate(dst), np.concatenate(weight)
    inner = d >= 0
    moves = sp.csr_matrix((w[inner], (s[inner], d[inner])), shape=(n, n))
    arrivals = sp.csr_matrix((w[~inner], (s[~inner], -1 - d[~inner])), shape=(n, len(games)))
    return moves, arrivals, 0


def _push(
    moves: sp.csr_matrix, arrivals: sp.csr_matrix, start: int, steps: int, players: int
) -> npt.NDArray[np.float64]:
    """Chance of each car arriving (first) in each round: an array (rounds, cars)."""
    mass = np.zeros(moves.shape[0])
    mass[start] = 1.0
    moves_t, arrivals_t = moves.T.tocsr(), arrivals.T.tocsr()
    out = np.zeros((steps, arrivals.shape[1]))
    for t in range(steps):
        for _ in range(players):
            out[t] += arrivals_t @ mass
            mass = moves_t @ mass
    return out


def exact_race(
    games: Sequence[Game | None],
    players: int,
    discard: bool,
    turns: int,
    max_states: int = MAX_JOINT_STATES,
    deadline: Deadline | None = None,
) -> ExactRace | None:
    """The race's exact chances, or None when the joint chain has over ``max_states`` states.

    Parameters
    ----------
    games : sequence of solved policies (``IncomePlan.policy``) or None
        In seat order; None: a car that never arrives (no route).
    players : int
        Players at the table (the rolls of a round).
    discard : bool
        The 7-card rule.
    turns : int
        Rounds the race lasts at most (as the Monte Carlo's ``turns``).
    max_states : int
        The bound on the joint chain's states.
    deadline : Deadline, optional
        The race's time limit: past it the enumeration gives up (None returned).

    Returns
    -------
    ExactRace or None

    Notes
    -----
    The joint chain is enumerated breadth first from the start, every state
    with all the cars' (hex, reserve, hand) and the seat to roll; a car's
    arrival ends the race (it is first). Its distribution is then pushed
    forward ``turns * players`` rolls by sparse matrix products. Each car's
    own arrival chances come from its own chain the same way. Cost: the
    joint states times 11 rolls, in NumPy.

    Examples
    --------
    >>> from isles.models.board import Board
    >>> from isles.models.catan import Building, Terrain, Tile
    >>> from isles.models.hexgrid import vertex
    >>> from isles.solvers.rally.income import solve_income
    >>> board = Board({(0, 0): Tile(Terrain.SEA), (1, 0): Tile(Terrain.HILLS, 4),
    ...                (2, 0): Tile(Terrain.FIELDS, 3), (1, -1): Tile(Terrain.HILLS, 6),
    ...                (2, -1): Tile(Terrain.FIELDS, 8), (1, 1): Tile(Terrain.HILLS, 5)},
    ...               buildings={vertex((1, 0), (1, -1), (2, -1)): Building("red"),
    ...                          vertex((1, 0), (2, 0), (1, 1)): Building("blue")})
    >>> plans = [solve_income(board, p, (0, 0), [(2, 0)], trade="none") for p in ("red", "blue")]
    >>> race = exact_race([p.policy for p in plans], 4, True, 200)
    >>> [round(p, 4) for p in race.first], race.joint_states
    ([0.8585, 0.1415], 26800)
    """
    seats = list(range(len(games)))
    joint = _chain(games, seats, players, discard, max_states, deadline)
    if joint is None:
        return None
    arrivals = _push(*joint, turns, players)
    first = arrivals.sum(axis=0)
    within: list[tuple[float, ...]] = []
    means: list[float | None] = []
    for seat, game in enumerate(games):
        own = _chain([game], [seat], players, discard, max_states, deadline)
        if own is None:  # the deadline: a car's own chain is smaller than the joint one
            return None
        by_round = _push(*own, turns, players)[:, 0]
        within.append(tuple(float(x) for x in np.cumsum(by_round)))
        total = float(by_round.sum())
        rounds = np.arange(1, turns + 1)
        means.append(float((rounds * by_round).sum() / total) if total > 0 else None)
    return ExactRace(
        tuple(float(x) for x in first),
        float(max(0.0, 1.0 - first.sum())),
        tuple(within),
        tuple(means),
        joint[0].shape[0],
    )


def exact_answer(race: Race, plans: Sequence[IncomePlan], deadline: Deadline) -> RaceResult | None:
    """The answer of :func:`isles.rally.race_cars` from the exact chain, or None (too big).

    Parameters
    ----------
    race : Race
        The validated question (its ``players``, ``discard``, ``turns``, ``time_limit``).
    plans : sequence of IncomePlan
        The cars' own plans, in seat order.
    deadline : Deadline
        The race's time limit, counted from when the race began.

    Returns
    -------
    RaceResult or None
        Status ``exact``, ``method`` ``"exact"``, each car's ``first`` with
        ``interval`` ``first ± ERROR``; None when the joint chain has over
        :data:`MAX_JOINT_STATES` states or the time limit passes first.
    """
    discard = race.discard == "on"
    chances = exact_race(
        [policy_of(p) for p in plans],
        race.players,
        discard,
        race.turns,
        MAX_JOINT_STATES,
        deadline,
    )
    if chances is None:
        return None
    cars = tuple(
        RaceCar(
            plan.player,
            plan.start,
            plan.goals,
            plan,
            0,
            first,
            (max(0.0, first - ERROR), min(1.0, first + ERROR)),
            mean,
            within,
        )
        for plan, first, mean, within in zip(
            plans, chances.first, chances.mean_turns, chances.within, strict=True
        )
    )
    restrictions = sorted({"own_policy", *(r for p in plans for r in p.restrictions)})
    return RaceResult(
        Status.EXACT,
        0,
        race.games,
        race.seed,
        race.players,
        race.trade,
        discard,
        race.turns,
        cars,
        0,
        tuple(restrictions),
        deadline.elapsed(),
        race.time_limit,
        method="exact",
        joint_states=chances.joint_states,
        error=ERROR,
        no_winner_chance=chances.no_winner,
    )
