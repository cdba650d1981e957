"""The whole policy space's values: value iteration with a certified gap, and its policy.

Implements docs/rally.md ("The whole policy space", "The card caps"; seed
002_8684547a41c0941c.txt) on the states of :mod:`~isles.solvers.rally.full_space`:
value iteration from zero gives a lower bound of the fewest expected turns, the
greedy policy's residual an upper bound; the greedy policy followed forward gives
the arrival chances, and whether the card caps ever take a card it keeps.

References
----------
.. [1] R. Bellman, "A Markovian decision process", Journal of Mathematics and
   Mechanics 6(5), 679-684, 1957 (value iteration).
.. [2] D. P. Bertsekas, J. N. Tsitsiklis, "An analysis of stochastic shortest
   path problems", Mathematics of Operations Research 16(3), 580-595, 1991.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from scipy.sparse import csr_matrix

from isles.models.board import Board
from isles.models.hexgrid import Hex
from isles.models.rally.rules import HAND_LIMIT, ROLLS
from isles.solvers.rally.full_space import Float, FullGame, Int, build
from isles.solvers.rally.game import ROLL_P

__all__ = [
    "ERROR_BOUND",
    "MAX_SWEEPS",
    "FullAnswer",
    "Policy",
    "arrivals",
    "can_reach",
    "cap_lost",
    "solve_full",
]

#: The solve stops when the certified gap at the start is at most this (turns).
ERROR_BOUND = 1e-6
#: Sweeps of value iteration at most (the gap then stated is what was reached).
MAX_SWEEPS = 20_000
#: Sweeps between two checks of the gap.
_CHECK_EVERY = 16


def _roll(game: FullGame, x: Float) -> Float:
    """One roll at the table: the expected best value after it."""
    seg = np.minimum.reduceat(x[game.roll_cand], game.roll_starts).reshape(len(ROLLS), -1)
    return np.asarray(ROLL_P @ seg, np.float64)


def _seg_argmin(vals: Float, starts: Int, seg: Float) -> Int:
    """The position in ``vals`` of each segment's first least value (``seg`` its minima)."""
    owner = np.repeat(np.arange(len(seg)), np.diff(np.append(starts, len(vals))))
    hit = np.flatnonzero(vals <= seg[owner])
    _, first = np.unique(owner[hit], return_index=True)
    return np.asarray(hit[first], np.int64)


def _roll_choice(game: FullGame, x: Float) -> Int:
    """(rolls, n): the state chosen after each roll from each state (first best)."""
    vals = x[game.roll_cand]
    seg = np.minimum.reduceat(vals, game.roll_starts)
    pick = game.roll_cand[_seg_argmin(vals, game.roll_starts, seg)]
    return np.asarray(pick.reshape(len(ROLLS), -1), np.int64)


def _closure(
    steps: Sequence[Sequence[tuple[Int, Int] | tuple[Int, Int, int, int]]],
    x: Float,
    arg: Int | None = None,
) -> Float:
    """Least value over every chain of steps (each to a smaller hand), in place."""
    for level_steps in steps:
        for step in level_steps:
            src, tgt = step[0], step[1]
            better = x[tgt] < x[src]
            if better.any():
                s, t = src[better], tgt[better]
                x[s] = x[t]
                if arg is not None:
                    arg[s] = arg[t]
    return x


def _options(game: FullGame, w: Float) -> tuple[Float, Int, Int]:
    """The best of waiting and each move at every state (before reserving): value, option, to."""
    we = np.append(w, 0.0)
    best = w.copy()
    choice = np.full(game.n, -1, np.int64)
    to = np.full(game.n, -1, np.int64)
    for o, opt in enumerate(game.options):
        vals = we[opt.cand]
        seg = np.minimum.reduceat(vals, opt.starts)
        m = opt.p * seg + (1 - opt.p) * w[opt.rows] if opt.p < 1 else seg
        better = m < best[opt.rows]
        rows = opt.rows[better]
        best[rows] = m[better]
        choice[rows] = o
        if better.any():
            to[rows] = opt.cand[_seg_argmin(vals, opt.starts, seg)[better]]
    return best, choice, to


def _bellman(game: FullGame, v: Float) -> Float:
    w = v
    for _ in range(game.players):
        w = _roll(game, w)
    we = np.append(w, 0.0)
    b = w.copy()
    for opt in game.options:
        seg = np.minimum.reduceat(we[opt.cand], opt.starts)
        m = opt.p * seg + (1 - opt.p) * w[opt.rows] if opt.p < 1 else seg
        np.minimum.at(b, opt.rows, m)
    _closure(game.reserve_steps, b)
    _closure(game.trade_steps, b)
    return 1.0 + b


@dataclass
class Policy:
    """The greedy policy of a value vector, as the steps of one turn."""

    layers: list[Int]  # layers[k-1]: the choice after a roll with k rolls left: (rolls, n)
    trade: Int  # the state after the turn's trades
    keep: Int  # the state after the reserve (of the post-trade state)
    option: Int  # -1 wait, else an index into game.options (of the post-reserve state)
    to: Int  # the state (or n: a goal) the move enters
    values: Float


def _policy(game: FullGame, v: Float) -> Policy:
    layers = []
    w = v
    for _ in range(game.players):
        layers.append(_roll_choice(game, w))
        w = _roll(game, w)
    best, option, to = _options(game, w)
    keep = np.arange(game.n, dtype=np.int64)
    b = _closure(game.reserve_steps, best.copy(), keep)
    trade = np.arange(game.n, dtype=np.int64)
    _closure(game.trade_steps, b, trade)
    return Policy(layers, trade, keep[trade], option, to, v)


def _turn_matrices(game: FullGame, pol: Policy) -> tuple[csr_matrix, Float, list[csr_matrix]]:
    """Decision state -> end of turn (n, n), its arrival chance, and the rolls' matrices."""
    n = game.n
    rows_all = np.arange(n, dtype=np.int64)
    u = pol.keep
    opt = pol.option[u]
    p = np.array([o.p for o in game.options] + [1.0])[opt]
    p = np.where(opt < 0, 0.0, p)
    to = pol.to[u]
    arrive = np.where((opt >= 0) & (to == n), p, 0.0)
    moving = (opt >= 0) & (to < n)
    r = np.concatenate([rows_all[moving], rows_all])
    c = np.concatenate([to[moving], u])
    d = np.concatenate([p[moving], 1 - p])
    keep = d > 0
    ends = csr_matrix((d[keep], (r[keep], c[keep])), shape=(n, n))
    rolls = []
    for layer in pol.layers:
        rr = np.tile(rows_all, len(ROLLS))
        rolls.append(csr_matrix((np.repeat(ROLL_P, n), (rr, layer.reshape(-1))), shape=(n, n)))
    return ends, arrive, rolls


def _next_turn(ends: csr_matrix, rolls: list[csr_matrix], mass: Float) -> Float:
    """The chance of each decision state a turn after ``mass`` (rolls: k rolls left, k = 1..P)."""
    x = ends.T @ mass
    for m in reversed(rolls):
        x = m.T @ x
    return np.asarray(x, np.float64)


@dataclass
class FullAnswer:
    """What :func:`solve_full` returns (read by :func:`isles.solvers.rally.full_plan.full_plan`)."""

    game: FullGame
    lower: float
    upper: float
    sweeps: int
    policy: Policy
    start: int
    #: The policy whose value ``upper`` bounds (None: no bound certified).
    certified: Policy | None = None


def solve_full(
    game: FullGame, board: Board, hand: Int, reserve: Int, error_bound: float = ERROR_BOUND
) -> FullAnswer:
    """Value iteration over the whole MDP until the certified gap at the start is small.

    Parameters
    ----------
    game : FullGame
        From :func:`full_states` (its transitions are built here, once).
    board : Board
        The board of ``game``.
    hand, reserve : ndarray of int, shape (5,)
        Cards held at the start.
    error_bound : float, default ERROR_BOUND
        Stop when the certified gap at the start is at most this (turns).

    Returns
    -------
    FullAnswer
        ``lower`` (the fewest expected turns, from below), ``upper`` (from
        above), the ``sweeps`` made and the greedy ``policy``.

    Notes
    -----
    From ``V = 0`` the iterates rise to the optimum: each is a lower bound. For
    the greedy policy of an iterate ``V`` with ``T V - V <= r < 1`` on every
    decision state it reaches from the start, ``V / (1 - r)`` is an upper bound
    (each turn costs 1: ``T(cV) = c T V - (c - 1)``, so ``cV`` is a
    super-solution [2]_). The gap is checked every 16 sweeps, at most
    :data:`MAX_SWEEPS` sweeps are made. docs/rally.md, "The whole policy space";
    seed 002_8684547a41c0941c.txt.

    Examples
    --------
    >>> import numpy as np
    >>> from isles.models.board import Board
    >>> from isles.models.catan import Building, Terrain, Tile
    >>> from isles.models.hexgrid import Hex, vertex
    >>> from isles.solvers.rally.full_space import full_states
    >>> board = Board({(0, 0): Tile(Terrain.SEA), (1, 0): Tile(Terrain.HILLS, 4),
    ...                (2, 0): Tile(Terrain.FIELDS, 3), (1, -1): Tile(Terrain.HILLS, 6),
    ...                (2, -1): Tile(Terrain.FIELDS, 8)},
    ...               buildings={vertex((1, 0), (1, -1), (2, -1)): Building("red")})
    >>> z = np.zeros(5, np.int64)
    >>> game = full_states(board, "red", Hex(0, 0), [Hex(2, 0)], players=4, hand=z,
    ...                    reserve=z, trade="none", discard=False)
    >>> answer = solve_full(game, board, z, z)
    >>> round(answer.lower, 6), answer.upper - answer.lower <= ERROR_BOUND
    (8.043678, True)
    >>> round(arrivals(answer, 10)[0][9], 4)  # P(arrived within 10 turns)
    0.8608
    """
    if not game.n:
        build(game, board)
    s0 = int(game.index(np.zeros(1, np.int64), hand[None, :], reserve[None, :])[0])
    v = np.zeros(game.n)
    upper = np.inf
    lower = 0.0
    sweeps = 0
    certified: Policy | None = None
    while sweeps < MAX_SWEEPS:
        new = _bellman(game, v)
        sweeps += 1
        if sweeps % _CHECK_EVERY == 0 or sweeps == MAX_SWEEPS:
            lower = float(_roll(game, new)[s0])
            pol = _policy(game, v)
            reached = _reached(game, pol, s0)
            r = float((new - v)[reached].max()) if reached.any() else 0.0
            if r < 1:
                bound = float(_roll(game, v)[s0]) / (1 - r) * (1 + 1e-12)
                if bound < upper:
                    upper, certified = bound, pol
            if upper - lower <= error_bound:
                v = new
                break
        v = new
    lower = float(_roll(game, v)[s0])
    return FullAnswer(game, lower, max(upper, lower), sweeps, _policy(game, v), s0, certified)


def _reached(game: FullGame, pol: Policy, s0: int) -> npt.NDArray[np.bool_]:
    """The decision states the policy reaches from the start with a positive chance."""
    ends, _, rolls = _turn_matrices(game, pol)
    first = np.zeros(game.n)
    first[s0] = 1.0
    mass = rolls[0].T @ first
    seen = mass > 0
    frontier = seen.copy()
    while frontier.any():
        nxt = _next_turn(ends, rolls, frontier.astype(np.float64)) > 0
        frontier = nxt & ~seen
        seen |= nxt
    return np.asarray(seen, bool)


def cap_lost(game: FullGame, pol: Policy, s0: int) -> bool:
    """Whether the cards the caps take away could change the policy's play at the table.

    Parameters
    ----------
    game : FullGame
        Solved by :func:`solve_full`.
    pol : Policy
        Its greedy policy.
    s0 : int
        The start (before turn 1's roll).

    Returns
    -------
    bool
        False: a player at the table who follows ``pol`` on the capped cards, keeps
        every card the caps take away in hand as *extra* (discarded first on a 7,
        put into the reserve at their next turn, never paid or traded), holds the
        policy's cards at every turn with the same chances, so the policy's
        expected turns are reached at the table. True: on some chain the policy
        reaches from the start, a 7 comes when the capped hand holds ``m <= 7``
        cards, ``m + E > 7`` with the ``E`` extras and ``m > E + 1``, so the half
        discarded takes a card the policy keeps (docs/rally.md, "The card caps").
        Without the 7-card rule extras are simply never used: always False.

    Examples
    --------
    See :func:`isles.solvers.rally.full_plan.full_plan`.
    """
    n = game.n
    if not game.discard:
        return False
    starts = game.roll_starts
    owner = np.repeat(np.arange(len(starts)), np.diff(np.append(starts, len(game.roll_cand))))
    big = np.iinfo(np.int64).max // 4
    lost = []  # per layer (rolls, n): the fewest cards lost by the pick of each roll
    for layer in pol.layers:  # layer: the choice with k rolls left, (rolls, n)
        match = game.roll_cand == layer.reshape(-1)[owner]
        vals = np.where(match, game.roll_over, big)
        lost.append(np.minimum.reduceat(vals, starts).reshape(len(ROLLS), n))
    m = game.hand.sum(axis=1)
    seven = ROLLS.index(7)

    def window(k0: int, sets: dict[int, Int]) -> Int | None:
        """Rolls k0..0 from states (extras -> states): the decision states, None: a 7 bites."""
        for k in range(k0, -1, -1):
            nxt: dict[int, list[Int]] = {}
            for e, states in sets.items():
                for i in range(len(ROLLS)):
                    to = pol.layers[k][i, states]
                    if i == seven:
                        h = m[states]
                        if e and ((h <= HAND_LIMIT) & (h + e > HAND_LIMIT) & (h > e + 1)).any():
                            return None
                        d = np.where(h > HAND_LIMIT, h // 2, 0)
                        kept = np.where(h + e > HAND_LIMIT, e - ((h + e) // 2 - d), e)
                    else:
                        kept = e + lost[k][i, states]
                    for e2 in np.unique(kept):
                        nxt.setdefault(int(e2), []).append(to[kept == e2])
            sets = {e: np.unique(np.concatenate(v)) for e, v in nxt.items()}
        return np.unique(np.concatenate(list(sets.values())))

    ends, _, _ = _turn_matrices(game, pol)
    first = window(0, {0: np.array([s0], np.int64)})
    if first is None:
        return True
    seen = np.zeros(n, bool)
    frontier = first
    while len(frontier):
        seen[frontier] = True
        mass = np.zeros(n)
        mass[frontier] = 1.0
        after = np.flatnonzero(np.asarray(ends.T @ mass) > 0)  # extras go to the reserve
        reached = window(game.players - 1, {0: after}) if len(after) else np.zeros(0, np.int64)
        if reached is None:
            return True
        frontier = reached[~seen[reached]]
    return False


def arrivals(
    answer: FullAnswer, turns: int
) -> tuple[tuple[float, ...], dict[tuple[int, Hex], float]]:
    """P(arrived within t), t = 1..turns, under the policy; and each move's total chance.

    Parameters
    ----------
    answer : FullAnswer
        From :func:`solve_full`.
    turns : int
        The last ``t``.

    Returns
    -------
    within : tuple of float
        ``within[t - 1]`` = P(arrived within t turns), following the greedy
        policy forward (float summation only).
    flows : dict of (int, Hex) to float
        The chance of each move (from hex index, to hex) over at least 20
        turns or until 99.9% have arrived (the route shown).

    Examples
    --------
    See :func:`solve_full`.
    """
    game, pol = answer.game, answer.policy
    ends, arrive, rolls = _turn_matrices(game, pol)
    first = np.zeros(game.n)
    first[answer.start] = 1.0
    mass = rolls[0].T @ first
    u = pol.keep
    opt = pol.option[u]
    out = []
    done = 0.0
    flows: dict[tuple[int, Hex], float] = {}
    t = 0
    while t < turns or (t < 20 and done < 0.999):
        moving = np.flatnonzero((opt >= 0) & (mass > 0))
        for o in np.unique(opt[moving]):
            sel = moving[opt[moving] == o]
            option = game.options[int(o)]
            key = (option.source, option.hex)
            flows[key] = flows.get(key, 0.0) + float(mass[sel].sum()) * option.p
        done += float(arrive @ mass)
        mass = _next_turn(ends, rolls, mass)
        t += 1
        if t <= turns:
            out.append(min(done, 1.0))
    return tuple(out), flows


def can_reach(game: FullGame, s0: int) -> bool:
    """Whether some choices and some rolls bring the car from the start to a goal."""
    x = np.ones(game.n)  # 0: a goal can be reached
    while True:
        w = x
        for _ in range(game.players):
            w = (
                np.minimum.reduceat(w[game.roll_cand], game.roll_starts)
                .reshape(len(ROLLS), -1)
                .min(axis=0)
            )
        we = np.append(w, 0.0)
        b = w.copy()
        for opt in game.options:
            np.minimum.at(b, opt.rows, np.minimum.reduceat(we[opt.cand], opt.starts))
        _closure(game.reserve_steps, b)
        _closure(game.trade_steps, b)
        if np.array_equal(b, x):
            break
        x = b
    first = np.minimum.reduceat(x[game.roll_cand], game.roll_starts).reshape(len(ROLLS), -1)
    return bool(first[:, s0].min() == 0)
