"""How many turns until a car arrives, its cards coming in roll by roll; what to do each turn?

Implements docs/rally.md ("The rally as it is played"; seed 002_8684547a41c0941c.txt):
a Markov decision process over (car's hex, cards), solved by value iteration,
each hex one level of reserve cards at a time ("How it is solved"), minimising
the expected turns to a goal.

References
----------
.. [1] R. Bellman, "A Markovian decision process", Journal of Mathematics and
   Mechanics 6(5), 679-684, 1957 (value iteration).
.. [2] D. P. Bertsekas, J. N. Tsitsiklis, "An analysis of stochastic shortest
   path problems", Mathematics of Operations Research 16(3), 580-595, 1991.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from isles.models.catan import Board, Resource, Terrain
from isles.models.errors import InvalidInput
from isles.models.hexgrid import Hex, as_hex, edge
from isles.models.jsonio import float_or_none, hex_json
from isles.models.rally.questions import Drive
from isles.models.rally.rules import (
    HAND_LIMIT,
    ROLLS,
    default_goals,
    desert_exit_probability,
    entry_cost,
    is_rim_start,
    no_default_goals,
    player_roads,
    roll_income,
    start_group,
    trade_ratios,
)
from isles.models.status import Status

__all__ = ["IncomePlan", "TurnAdvice", "plan_drive", "plan_income", "solve_income"]

#: The defaults of the question, from its one declaration.
_DEFAULT: dict[str, Any] = {name: f.default for name, f in Drive.model_fields.items()}
RESOURCES: tuple[Resource, ...] = tuple(Resource)
_NR = len(RESOURCES)
_GOLD = -1  # a move paid in any single resource (a gold hex)
_FREE = -2  # a move that costs nothing (a desert)
_ROLL_P = np.array([(6 - abs(7 - n)) / 36 for n in ROLLS])
#: Value iteration stops when no expected value changes by more than this (turns).
TOLERANCE = 1e-9
MAX_SWEEPS = 2_000
#: States of one hex's card grid above which the solver refuses before any work.
MAX_STATES = 3_000_000

#: The restrictions of the policy space (docs/rally.md, "What is solved exactly").
RESTRICTIONS = {
    "forward": "the car only moves to a hex one step nearer a goal (the shortest routes in moves)",
    "reserve": "every card the remaining routes can burn goes into the reserve at once; "
    "only cards beyond that stay in hand",
    "trade_at_once": "cards beyond what the routes can burn are traded as soon as a full "
    "ratio of one resource is held",
    "discard_rule": "on a 7 the cards discarded come from the largest pile in hand",
    "gold_choice": "a gold card's resource is chosen at the player's next turn",
    "card_cap": "of each resource, cards beyond a cap are lost (the cap: what the routes can "
    "burn plus, with trades, a trade's ratio less one and one roll's income, or for the whole "
    "space one turn's, as card_cap lists; with the 7-card rule a card no move burns up to one "
    "turn's income); at the table a lost card might have paid, been traded or taken a "
    "discard's place (fewer turns), or pushed the hand over 7 cards (more)",
    "committed_route": "the car commits at the start to one shortest route in moves (the best "
    "of them): the card states of every route at once are too many",
}
#: Card states over all hexes above which the car commits to one route.
FULL_STATES = 60_000
#: The same without trades: then every route at once is never slower than any one of them
#: (a card beyond a route's need is of no use to it), so it is solved whenever it fits.
FULL_STATES_NO_TRADE = 1_000_000
#: States whose turn's chances are gathered at once (memory: about 400 bytes each).
_CHUNK = 20_000
#: Routes tried, at most, when the car commits to one.
MAX_ROUTES = 8


@dataclass(frozen=True)
class _Move:
    target: int  # position index; -1: a goal
    hex: Hex
    cards: int
    resource: int  # index into RESOURCES, _GOLD or _FREE
    p_exit: Fraction  # chance one try succeeds (leaving a desert), else 1


@dataclass
class _Pos:
    hex: Hex
    dist: int
    desert: bool
    need: npt.NDArray[np.int64]
    cap: npt.NDArray[np.int64] = field(default_factory=lambda: np.zeros(_NR, np.int64))
    moves: list[_Move] = field(default_factory=list)
    value: npt.NDArray[np.float64] = field(default_factory=lambda: np.zeros(0))
    # The decision of each state of the grid: option index, and the trade's cards gained.
    option: npt.NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, np.int64))
    gained: npt.NDArray[np.int64] = field(default_factory=lambda: np.zeros((0, _NR), np.int64))

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(int(c) + 1 for c in self.cap)

    @property
    def size(self) -> int:
        return int(np.prod(self.shape))

    def flat(self, cards: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """Flat grid index of card vectors (last axis), clamped to the grid."""
        cap = self.cap
        strides = np.cumprod([1, *(int(c) + 1 for c in cap[:0:-1])])[::-1]
        flat = np.zeros(cards.shape[:-1], np.int64)
        for j in range(_NR):  # row-major, as np.ravel_multi_index, without its copies
            if cap[j]:
                flat += np.clip(cards[..., j], 0, cap[j]) * int(strides[j])
        return flat

    def grid(self) -> npt.NDArray[np.int64]:
        return np.stack(np.unravel_index(np.arange(self.size), self.shape), axis=-1).astype(
            np.int64
        )


@dataclass(frozen=True)
class TurnAdvice:
    """What to do on a turn for one hand: trade, reserve, move.

    Attributes
    ----------
    roll : int or None
        The roll of turn 1 this advice answers (None: the hand as given).
    cards : dict of str to int
        Cards held (hand plus reserve) when the player decides: for committed routes
        those at the table, beyond the card caps too; for the whole space its capped
        state (``card_cap``).
    trades : list of dict
        ``{"give": resource, "cards": n, "take": resource}`` each.
    reserve : dict of str to int
        What the reserve holds after the turn.
    move : Hex or None
        The hex entered (or tried, leaving a desert); None: wait.
    expected_turns : float
        From this decision on, this turn included.
    """

    roll: int | None
    cards: dict[str, int]
    trades: list[dict[str, Any]]
    reserve: dict[str, int]
    move: Hex | None
    expected_turns: float

    def to_dict(self) -> dict[str, Any]:
        """``roll``, ``cards``, ``trades``, ``reserve``, ``move`` (``[q, r]`` or null),
        ``expected_turns``."""
        return {
            "roll": self.roll,
            "cards": self.cards,
            "trades": self.trades,
            "reserve": self.reserve,
            "move": None if self.move is None else hex_json(self.move),
            "expected_turns": float_or_none(self.expected_turns),
        }


@dataclass(frozen=True)
class IncomePlan:
    """The answer of :func:`isles.rally.plan_income`: turns to a goal with cards from income.

    Attributes
    ----------
    status : Status
        ``optimal`` (the whole policy space solved, ``method`` ``full``: the
        fewest expected turns lie within ``error_bound`` above
        ``expected_turns``), ``feasible`` (the best policy of the restricted
        space of committed routes, see ``restrictions``; docs/rally.md), or
        ``unreachable`` (the goals cannot be reached with this income).
    expected_turns : float or None
        Fewest expected turns to a goal (value iteration, stopped at
        ``tolerance``).
    within : tuple of float
        ``within[t - 1]`` = chance of having arrived within ``t`` turns under
        the returned policy (float, error below 1e-12 from summation).
    route : tuple of Hex
        The route the policy heads for (its most likely hexes).
    first_turn : tuple of TurnAdvice
        The advice of turn 1 for each roll of the player (2..12 without 7,
        and 7).
    restrictions : tuple of str
        Keys of ``RESTRICTIONS`` the answer is restricted by.
    states : int
        Card states solved, over all hexes.
    method : str
        ``full`` (the whole policy space) or ``route`` (committed routes).
    error_bound : float or None
        ``method`` ``full``: the certified gap between ``expected_turns`` (a
        lower bound) and an upper bound of the fewest expected turns.
    card_cap : dict of str to int or None
        ``method`` ``full``: the most cards of each resource held (hand plus
        reserve) in the solved space; cards beyond are lost.
    cap_lost : bool or None
        ``method`` ``full`` with trades or the 7-card rule: whether the policy
        whose value ``error_bound`` certifies ever loses a card to ``card_cap``
        from the start (False: ``expected_turns + error_bound`` bounds the fewest
        expected turns at the table from above); None: the caps lose nothing of
        use (no trades, no 7-card rule), or not the whole space.
    """

    status: Status
    start: Hex
    goals: tuple[Hex, ...]
    player: str
    players: int
    trade: str
    discard: bool
    expected_turns: float | None
    within: tuple[float, ...]
    route: tuple[Hex, ...]
    first_turn: tuple[TurnAdvice, ...]
    restrictions: tuple[str, ...]
    states: int
    tolerance: float
    cheapest: dict[str, Any] | None = None
    method: str = "route"
    error_bound: float | None = None
    card_cap: dict[str, int] | None = None
    cap_lost: bool | None = None
    #: The solved policy (for :mod:`isles.solvers.rally.race`); not part of the answer.
    policy: Any = field(default=None, repr=False, compare=False)

    def to_dict(self) -> dict[str, Any]:
        """What ``isles rally --income --json`` prints (docs/rally.md, "Answers of --income")."""
        return {
            "status": self.status.value,
            "start": hex_json(self.start),
            "goals": [hex_json(g) for g in self.goals],
            "player": self.player,
            "players": self.players,
            "trade": self.trade,
            "discard": "on" if self.discard else "off",  # as the request spells it
            "expected_turns": float_or_none(self.expected_turns),
            "tolerance": self.tolerance,
            "within": [{"turns": t + 1, "probability": p} for t, p in enumerate(self.within)],
            "route": [hex_json(h) for h in self.route],
            "first_turn": [a.to_dict() for a in self.first_turn],
            "restrictions": [{"name": r, "text": RESTRICTIONS[r]} for r in self.restrictions],
            "states": self.states,
            "method": self.method,
            "error_bound": self.error_bound,
            "card_cap": self.card_cap,
            "cap_lost": self.cap_lost,
            "cheapest_cards_route": self.cheapest,
        }


# -- the window between two decisions ------------------------------------------------


def _discard_rows(hands: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Each hand after a 7 under the 7-card rule: half, each card from the largest pile."""
    out = hands.copy()
    count = np.where(out.sum(axis=1) > HAND_LIMIT, out.sum(axis=1) // 2, 0)
    while (count > 0).any():
        rows = np.flatnonzero(count > 0)
        out[rows, out[rows].argmax(axis=1)] -= 1  # ties: the first pile
        count[rows] -= 1
    return out


def _window_step(
    keys: npt.NDArray[np.int64],
    probs: npt.NDArray[np.float64],
    step: npt.NDArray[np.int64],
    discard: bool,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """One roll from rows ``keys`` (a window's id, then six piles): the merged outcomes.

    Rows of one id stay together, each id's outcomes in the order of its piles
    (the last pile most significant), their chances summed in the order the rows
    come: a batch of windows gives each window exactly what it gives alone.
    """
    seven = ROLLS.index(7)
    piles = keys[:, 1:]
    outs = np.repeat(keys[:, None, :], len(step), axis=1)
    outs[:, :, 1:] += step[None, :, :]
    outs[:, seven, 1:] = _discard_rows(piles) if discard else piles
    weights = (probs[:, None] * _ROLL_P[None, :]).ravel()
    outs = outs.reshape(-1, _NR + 2)
    width = int(outs[:, 1:].max()) + 1
    code = outs[:, 1:] @ (width ** np.arange(_NR + 1, dtype=np.int64)) + outs[:, 0] * (
        width ** (_NR + 1)
    )
    unique, first, inverse = np.unique(code, return_index=True, return_inverse=True)
    merged = np.bincount(inverse.reshape(-1), weights=weights, minlength=len(unique))
    return outs[first], merged.astype(np.float64)


#: The windows computed, by (income, gold, rolls, discard, hand): computed once a process.
_WINDOW_CACHE: dict[
    tuple[Any, ...],
    tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.float64]],
] = {}


def _windows_batch(
    income: tuple[tuple[int, ...], ...],
    gold: tuple[int, ...],
    rolls: int,
    discard: bool,
    hands: Sequence[tuple[int, ...]],
) -> None:
    """The windows of many hands at once, into the cache (each as :func:`_window` gives it)."""
    todo = sorted({h for h in hands if (income, gold, rolls, discard, h) not in _WINDOW_CACHE})
    if not todo:
        return
    step = np.array([(*row, g) for row, g in zip(income, gold, strict=True)], np.int64)
    keys = np.array([[i, *h, 0] for i, h in enumerate(todo)], np.int64)
    probs: npt.NDArray[np.float64] = np.ones(len(todo))
    for _ in range(rolls):
        keys, probs = _window_step(keys, probs, step, discard)
    cuts = np.flatnonzero(np.diff(keys[:, 0])) + 1
    starts = np.concatenate([[0], cuts, [len(keys)]])
    for i, h in enumerate(todo):
        lo, hi = int(starts[i]), int(starts[i + 1])
        part = keys[lo:hi]
        _WINDOW_CACHE[(income, gold, rolls, discard, h)] = (
            part[:, 1 : _NR + 1].copy(),
            part[:, _NR + 1].copy(),
            probs[lo:hi].copy(),
        )


def _window(
    income: tuple[tuple[int, ...], ...],
    gold: tuple[int, ...],
    rolls: int,
    discard: bool,
    hand: tuple[int, ...],
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """The hand after ``rolls`` rolls from ``hand``: (cards (M, 5), gold cards (M,), prob (M,)).

    The hand has a sixth pile: gold cards whose resource is still to choose.
    """
    key = (income, gold, rolls, discard, hand)
    if key not in _WINDOW_CACHE:
        _windows_batch(income, gold, rolls, discard, [hand])
    return _WINDOW_CACHE[key]


def _compositions(k: int, targets: Sequence[int]) -> npt.NDArray[np.int64]:
    """All ways of adding ``k`` cards to the ``targets`` resources: (C, 5)."""
    if k == 0 or not targets:
        return np.zeros((1, _NR), np.int64)
    rows = []
    for combo in itertools.combinations_with_replacement(targets, k):
        row = [0] * _NR
        for j in combo:
            row[j] += 1
        rows.append(row)
    return np.array(rows, dtype=np.int64)


# -- the solver ----------------------------------------------------------------------


@dataclass
class _Game:
    board: Board
    positions: list[_Pos]
    start: int
    goals: tuple[Hex, ...]
    income: tuple[tuple[int, ...], ...]
    gold: tuple[int, ...]
    players: int
    discard: bool
    ratios: tuple[int, ...] | None
    fodder: npt.NDArray[np.int64]
    restrictions: set[str]
    offsets: list[int] = field(default_factory=list)


def _positions(
    board: Board,
    start: Hex,
    goals: Sequence[Hex],
    roads: frozenset[Any],
    route: Sequence[Hex] | None,
) -> tuple[list[_Pos], int]:
    """The hexes the car may stand on (forward moves only), nearest the goals first."""
    goal_set = set(goals)
    dist: dict[Hex, int] = {g: 0 for g in goal_set}
    queue = deque(goal_set)
    while queue:  # breadth first, backwards: a car enters land hexes only
        w = queue.popleft()
        for u in board.neighbours(w):
            if u in dist or (not board.tiles[u].terrain.is_land and u != start):
                continue
            dist[u] = dist[w] + 1
            queue.append(u)
    if start not in dist:
        return [], -1
    allowed = None if route is None else set(route)
    reach: dict[Hex, list[Hex]] = {}
    stack = [start]
    while stack:
        v = stack.pop()
        if v in reach or v in goal_set:
            continue
        nxt = [
            w
            for w in board.neighbours(v)
            if w in dist
            and dist[w] == dist[v] - 1
            and board.tiles[w].terrain.is_land
            and (allowed is None or w in allowed or w in goal_set)
        ]
        reach[v] = nxt
        stack.extend(nxt)
    order = sorted(reach, key=lambda h: (dist[h], h[1], h[0]))
    index = {h: i for i, h in enumerate(order)}
    positions: list[_Pos] = []
    for v in order:
        tile_v = board.tiles[v]
        desert = tile_v.terrain is Terrain.DESERT
        need = np.zeros(_NR, np.int64)
        moves = []
        for w in reach[v]:
            cost = entry_cost(board.tiles[w], edge(v, w) in roads)
            if cost.cards == 0:
                res = _FREE
            elif cost.resource is None:
                res = _GOLD
            else:
                res = RESOURCES.index(cost.resource)
            p = desert_exit_probability(board.tiles[w]) if desert else Fraction(1)
            target = -1 if w in goal_set else index[w]
            moves.append(_Move(target, w, cost.cards, res, p))
            after = np.zeros(_NR, np.int64) if target < 0 else positions[target].need
            paid = np.zeros(_NR, np.int64)
            if res >= 0:
                paid[res] = cost.cards
            elif res == _GOLD:
                paid[:] = cost.cards
            need = np.maximum(need, after + paid)
        positions.append(_Pos(v, dist[v], desert, need, moves=moves))
    return positions, index.get(start, -1)


def _card_vector(cards: Mapping[Resource, int] | None) -> npt.NDArray[np.int64]:
    out = np.zeros(_NR, np.int64)
    for r, n in (cards or {}).items():
        out[RESOURCES.index(r)] = n
    return out


def _window_values(
    game: _Game,
    pos: _Pos,
    rolls: int,
    reserve: npt.NDArray[np.int64],
    hand: npt.NDArray[np.int64],
) -> npt.NDArray[np.float64]:
    """Expected value at the next decision at ``pos`` for end-of-turn (reserve, hand) rows."""
    windows = _Windows(game, rolls, hand)
    nowhere = np.zeros(pos.size, np.int64)
    return _split(windows, pos, reserve, nowhere, -1, pos.value).fixed


def _window_kernel(
    reserve: npt.NDArray[np.int64],
    group: npt.NDArray[np.int64],
    win_off: npt.NDArray[np.int64],
    win_cards: npt.NDArray[np.int64],
    win_wild: npt.NDArray[np.int64],
    win_prob: npt.NDArray[np.float64],
    cap: npt.NDArray[np.int64],
    strides: npt.NDArray[np.int64],
    level: npt.NDArray[np.int64],
    top: int,
    values: npt.NDArray[np.float64],
    comp_off: npt.NDArray[np.int64],
    comps: npt.NDArray[np.int64],
    fixed: npt.NDArray[np.float64],
    leaves: npt.NDArray[np.bool_],
    mass: npt.NDArray[np.float64],
    inner_row: npt.NDArray[np.int64],
    inner_col: npt.NDArray[np.int64],
    inner_p: npt.NDArray[np.float64],
    gold_row: npt.NDArray[np.int64],
    gold_col: npt.NDArray[np.int64],
    gold_k: npt.NDArray[np.int64],
    gold_p: npt.NDArray[np.float64],
) -> tuple[int, int]:
    """The waiting window of each row (its reserve, its hand's window), split at a level.

    Outcomes that reach a state of level ``top`` are listed (``inner``; ``gold``:
    those with gold cards still to name, the state before naming them); the
    others are summed with ``values`` into ``fixed`` (inf: a positive chance of
    an unreachable state). The listing arrays are long enough for every outcome.
    Returns the counts (inner, gold).
    """
    n_inner = 0
    n_gold = 0
    nr = len(cap)
    total = np.zeros(nr, np.int64)
    for i in range(len(group)):
        g = group[i]
        acc = 0.0
        for m in range(win_off[g], win_off[g + 1]):
            t = 0
            for j in range(nr):
                c = reserve[i, j] + win_cards[m, j]
                c = min(max(c, 0), cap[j])
                total[j] = c
                t += c * strides[j]
            k = win_wild[m]
            p = win_prob[m]
            if k == 0:
                if level[t] == top:
                    inner_row[n_inner] = i
                    inner_col[n_inner] = t
                    inner_p[n_inner] = p
                    mass[i] += p
                    n_inner += 1
                else:
                    acc += p * values[t]
                    if values[t] < np.inf:
                        leaves[i] = True
                continue
            best = np.inf
            inside = False
            for c_row in range(comp_off[k], comp_off[k + 1]):
                u = 0
                for j in range(nr):
                    u += min(total[j] + comps[c_row, j], cap[j]) * strides[j]
                if level[u] == top:
                    inside = True
                    break
                best = min(best, values[u])
            if inside:
                gold_row[n_gold] = i
                gold_col[n_gold] = t
                gold_k[n_gold] = k
                gold_p[n_gold] = p
                mass[i] += p
                n_gold += 1
            else:
                acc += p * best
                if best < np.inf:
                    leaves[i] = True
        fixed[i] += acc
    return n_inner, n_gold


def _level_kernel(
    rows: npt.NDArray[np.int64],
    current: npt.NDArray[np.float64],
    values: npt.NDArray[np.float64],
    best: npt.NDArray[np.float64],
    waiting: npt.NDArray[np.float64],
    fixed: npt.NDArray[np.float64],
    distinct: npt.NDArray[np.int64],
    indptr: npt.NDArray[np.int32],
    indices: npt.NDArray[np.int32],
    data: npt.NDArray[np.float64],
    bases: npt.NDArray[np.float64],
    weights: npt.NDArray[np.float64],
    post: npt.NDArray[np.int64],
    inside: npt.NDArray[np.bool_],
    above: npt.NDArray[np.float64],
    selfish: npt.NDArray[np.int64],
    diag: npt.NDArray[np.float64],
    tolerance: float,
    sweeps: int,
) -> int:
    """Value iteration over one level of a position (no gold cards to name), in place.

    The sweeps of :func:`_solve_position` written out, the same operations in the
    same order (the waiting window ``fixed + inner @ values``, the best option of
    each post-trade state, the best trade, the states deciding at themselves
    solved exactly), until no value moves by more than ``tolerance``; then the
    waiting values and the best options of the level. Returns the sweeps made.
    """
    n = len(rows)
    n_opt = bases.shape[0]
    width = post.shape[1]
    stay = np.empty(n)
    new = np.empty(n)
    waits = np.empty(len(indptr) - 1)
    made = 0
    final = False
    while True:
        for i in range(n):
            values[rows[i]] = current[i]
        for u in range(len(waits)):
            acc = 0.0
            for jj in range(indptr[u], indptr[u + 1]):
                acc += data[jj] * values[rows[indices[jj]]]
            waits[u] = acc
        for i in range(n):
            stay[i] = fixed[i] + waits[distinct[i]]
        for i in range(n):
            s = rows[i]
            b = stay[i]
            for o in range(n_opt):
                w = weights[o, s]
                cand = bases[o, s] + (w * stay[i] if w > 0 else 0.0)
                if cand < b:
                    b = cand
            best[s] = b
        if final:  # the values are final: their waiting and best options are set
            break
        for i in range(n):
            m = above[i]
            for c in range(width):
                if inside[i, c]:
                    x = best[post[i, c]]
                    if x < m:
                        m = x
            new[i] = m + 1.0
        for q in range(len(selfish)):
            i = selfish[q]
            d = diag[q]
            rest = stay[i] - d * current[i]
            out = (1 + rest) / (1 - d) if d < 1 else np.inf
            s = rows[i]
            for o in range(n_opt):
                w = weights[o, s]
                base = bases[o, s]
                if w > 0:
                    cand = (1 + base + w * rest) / (1 - w * d) if w * d < 1 else np.inf
                else:
                    cand = 1 + base
                if cand < out:
                    out = cand
            new[i] = out
        delta = 0.0
        same = True
        for i in range(n):
            a, b = new[i], current[i]
            fa, fb = np.isfinite(a), np.isfinite(b)
            if fa and fb:
                if abs(a - b) > delta:
                    delta = abs(a - b)
            elif fa != fb:
                same = False
            current[i] = a
        made += 1
        final = (delta <= tolerance and same) or made >= sweeps
    for i in range(n):
        waiting[rows[i]] = stay[i]
    return made


@functools.cache
def _sweeper() -> Any:
    """The compiled sweeps of one level (numba, cached in the user's cache directory)."""
    from isles.solvers.compiled import compiled

    return compiled(_level_kernel)


@functools.cache
def _kernel() -> Any:
    """The compiled waiting window (numba, cached in the user's cache directory)."""
    from isles.solvers.compiled import compiled

    return compiled(_window_kernel)


class _Table:
    """Every window computed for one table (income, gold, rolls, 7 rule), concatenated.

    Windows are appended as new hands come (each window's id stays): the rows of
    many calls index one set of arrays, built once, not one concatenation a call.
    """

    def __init__(self, key: tuple[Any, ...]) -> None:
        self.key = key
        self.ids: dict[tuple[int, ...], int] = {}
        self.offsets = np.zeros(1, np.int64)
        self.cards = np.zeros((0, _NR), np.int64)
        self.wild = np.zeros(0, np.int64)
        self.probs = np.zeros(0)
        self.comp_offsets = np.array([0, 1], np.int64)
        self.comps = np.zeros((1, _NR), np.int64)

    def extend(self, hands: Sequence[tuple[int, ...]]) -> None:
        """Add the windows of ``hands`` not in the table yet."""
        new = [h for h in dict.fromkeys(hands) if h not in self.ids]
        if not new:
            return
        income, gold, rolls, discard = self.key
        _windows_batch(income, gold, rolls, discard, new)
        parts = [_WINDOW_CACHE[(*self.key, h)] for h in new]
        for h in new:
            self.ids[h] = len(self.ids)
        sizes = [len(p) for _, _, p in parts]
        self.offsets = np.concatenate(
            [self.offsets, self.offsets[-1] + np.cumsum(sizes, dtype=np.int64)]
        )
        self.cards = np.concatenate([self.cards, *(c for c, _, _ in parts)]).astype(np.int64)
        self.wild = np.concatenate([self.wild, *(w for _, w, _ in parts)]).astype(np.int64)
        self.probs = np.concatenate([self.probs, *(p for _, _, p in parts)]).astype(np.float64)
        most = int(self.wild.max()) if len(self.wild) else 0
        tables = [_compositions(k, range(_NR)) for k in range(most + 1)]
        self.comp_offsets = np.array([0, *itertools.accumulate(len(t) for t in tables)], np.int64)
        self.comps = np.concatenate(tables).astype(np.int64)


_TABLES: dict[tuple[Any, ...], _Table] = {}


class _Windows:
    """The waiting windows of many rows: each row's hand's window, in one table's arrays."""

    def __init__(self, game: _Game, rolls: int, hand: npt.NDArray[np.int64]) -> None:
        hand = hand.reshape(-1, _NR)
        width = int(hand.max()) + 1 if len(hand) else 1
        code = hand @ (width ** np.arange(_NR, dtype=np.int64))  # one number per hand: fast
        _, first, inverse = np.unique(code, return_index=True, return_inverse=True)
        keys = [tuple(int(x) for x in h0) for h0 in hand[first]]
        key = (game.income, game.gold, rolls, game.discard)
        table = _TABLES.get(key)
        if table is None:
            table = _TABLES[key] = _Table(key)
        table.extend(keys)
        ids = np.array([table.ids[h] for h in keys], np.int64)
        self.group = ids[inverse.reshape(-1)] if len(keys) else np.zeros(0, np.int64)
        self.offsets = table.offsets
        self.cards = table.cards
        self.wild = table.wild
        self.probs = table.probs
        self.comp_offsets = table.comp_offsets
        self.comps = table.comps


@dataclass
class _Split:
    """The waiting window of some rows, split at one level of the position's grid."""

    fixed: npt.NDArray[np.float64]  # the part that leaves the level, summed (inf: dead ends)
    leaves: npt.NDArray[np.bool_]  # a positive chance of a reachable state outside the level
    mass: npt.NDArray[np.float64]  # the chance of staying in the level
    inner: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.float64]]
    gold: tuple[
        npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.float64]
    ]
    distinct: npt.NDArray[np.int64]  # each row's row of ``inner`` (rows alike share one)


def _distinct_rows(
    reserve: npt.NDArray[np.int64], group: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The first of each distinct (reserve, group) row, and each row's distinct row."""
    if len(reserve) < 2:
        return np.arange(len(reserve)), np.arange(len(reserve))
    table = np.concatenate([reserve, group[:, None]], axis=1)
    low = table.min(axis=0)
    width = table.max(axis=0) - low + 1
    if float(np.prod(width.astype(np.float64))) < 2.0**62:
        radix = np.cumprod(np.concatenate([[1], width[:-1]])).astype(np.int64)
        code = (table - low) @ radix
        _, first, inverse = np.unique(code, return_index=True, return_inverse=True)
    else:  # pragma: no cover - a grid far beyond MAX_STATES
        _, first, inverse = np.unique(table, axis=0, return_index=True, return_inverse=True)
    return first.astype(np.int64), inverse.reshape(-1).astype(np.int64)


def _expand(
    row: npt.NDArray[np.int64], distinct: int, inverse: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Entries listed by distinct row (in row order) copied to every row: (entry, row)."""
    counts = np.bincount(row, minlength=distinct)
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    each = counts[inverse]
    total = int(each.sum())
    out_row = np.repeat(np.arange(len(inverse), dtype=np.int64), each)
    begin = np.concatenate([[0], np.cumsum(each)[:-1]])
    pick = np.arange(total, dtype=np.int64) - np.repeat(begin - starts[inverse], each)
    return pick.astype(np.int64), out_row


def _split(
    windows: _Windows,
    pos: _Pos,
    reserve: npt.NDArray[np.int64],
    level: npt.NDArray[np.int64],
    top: int,
    values: npt.NDArray[np.float64],
    spread: bool = True,
) -> _Split:
    """The windows from ``reserve`` rows into ``pos``'s grid, split at level ``top``.

    Rows alike (the same reserve, the same hand's window) have the same outcomes:
    each is computed once and copied to its rows, in the order of the rows
    (``spread`` False: the inner outcomes stay listed by distinct row, ``distinct``
    naming each row's).
    """
    kernel = _kernel()
    reserve = np.ascontiguousarray(reserve, np.int64).reshape(-1, _NR)
    first, inverse = _distinct_rows(reserve, windows.group)
    alike = len(first) < len(reserve)
    group = windows.group[first] if alike else windows.group
    if alike:
        reserve = reserve[first]
    rows = len(reserve)
    cap = pos.cap.astype(np.int64)
    strides = np.cumprod([1, *(int(c) + 1 for c in cap[:0:-1])])[::-1].astype(np.int64)
    fixed = np.zeros(rows)
    leaves = np.zeros(rows, bool)
    mass = np.zeros(rows)
    args = (
        reserve,
        group,
        windows.offsets,
        windows.cards,
        windows.wild,
        windows.probs,
        cap,
        strides,
        level,
        top,
        values,
        windows.comp_offsets,
        windows.comps,
    )
    # one pass: room for every outcome of the rows (none can stay below level 0)
    if top < 0 or rows == 0:
        room = 0
    else:
        sizes = windows.offsets[1:] - windows.offsets[:-1]
        room = int(sizes[group].sum())
    inner = (np.empty(room, np.int64), np.empty(room, np.int64), np.empty(room))
    gold_room = room if windows.wild.any() else 0
    gold = (
        np.empty(gold_room, np.int64),
        np.empty(gold_room, np.int64),
        np.empty(gold_room, np.int64),
        np.empty(gold_room),
    )
    n_inner, n_gold = kernel(*args, fixed, leaves, mass, *inner, *gold)
    inner = (inner[0][:n_inner], inner[1][:n_inner], inner[2][:n_inner])
    gold = (gold[0][:n_gold], gold[1][:n_gold], gold[2][:n_gold], gold[3][:n_gold])
    if alike:
        fixed, leaves, mass = fixed[inverse], leaves[inverse], mass[inverse]
        if spread:
            pick, row = _expand(inner[0], rows, inverse)
            inner = (row, inner[1][pick], inner[2][pick])
        pick, row = _expand(gold[0], rows, inverse)
        gold = (row, gold[1][pick], gold[2][pick], gold[3][pick])
    distinct = inverse if alike and not spread else np.arange(len(inverse), dtype=np.int64)
    return _Split(fixed, leaves, mass, inner, gold, distinct)


@dataclass
class _Setup:
    """The fixed parts of one position's Bellman equation (docs/rally.md, "How it is solved")."""

    grid: npt.NDArray[np.int64]
    level: npt.NDArray[np.int64]  # cards in the reserve part: never falls within a hex
    reserve: npt.NDArray[np.int64]
    windows: _Windows
    after_trade: npt.NDArray[np.int64]
    comp_idx: npt.NDArray[np.int64]  # (n, width): the post-trade states of each state
    comp_ok: npt.NDArray[np.bool_]
    options: list[tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]]
    labels: list[tuple[int, int]]


def _setup(game: _Game, v: int) -> _Setup:
    """The trades, the moves and the waiting window of position ``v`` (later positions solved)."""
    pos = game.positions[v]
    grid = pos.grid()
    n = len(grid)
    need = pos.need
    # The trade at once (restriction trade_at_once): full ratios of cards beyond need.
    if game.ratios is None:
        after_trade = grid.copy()
        gains = np.zeros(n, np.int64)
    else:
        ratio = np.array(game.ratios, np.int64)
        batches = np.maximum(grid - need, 0) // ratio
        after_trade = grid - batches * ratio
        gains = batches.sum(axis=1)
    targets = [j for j in range(_NR) if need[j] > 0]
    # End of turn: fuel up to need in the reserve (restriction reserve), the rest in hand.
    reserve = np.minimum(grid, need)
    hand = np.minimum(grid - reserve, game.fodder)
    rolls = game.players
    windows = _Windows(game, rolls, hand)
    # The options from each post-trade grid state x: their value is
    # base[o][x] + weight[o][x] * stay[x] (inf where not affordable).
    options: list[tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]] = []
    labels: list[tuple[int, int]] = [(-1, -1)]  # (move index, resource paid)
    for m, move in enumerate(pos.moves):
        payers = (
            [move.resource]
            if move.resource >= 0
            else ([-1] if move.resource == _FREE else list(range(_NR)))
        )
        for payer in payers:
            base = np.full(n, np.inf)
            paid = np.zeros(_NR, np.int64)
            if payer >= 0:
                ok = grid[:, payer] >= move.cards
                paid[payer] = move.cards
            else:
                ok = np.ones(n, bool)
            rows = np.flatnonzero(ok)
            if move.target < 0:
                after = np.zeros(len(rows))
            else:
                tgt = game.positions[move.target]
                r2 = np.minimum(reserve[rows] - paid, tgt.need)
                after = _window_values(game, tgt, rolls, r2, hand[rows])
            p = float(move.p_exit)
            base[rows] = p * after
            options.append((base, np.where(ok, 1 - p, 0.0)))
            labels.append((m, payer))
    # The decisions: each grid state s trades into post-trade states x = after_trade + comp.
    kmax = int(gains.max()) if n else 0
    comp_tables = [_compositions(k, targets) for k in range(kmax + 1)]
    width = max(len(c) for c in comp_tables)
    comp_idx = np.zeros((n, width), np.int64)
    comp_ok = np.zeros((n, width), bool)
    for k, table in enumerate(comp_tables):
        rows = np.flatnonzero(gains == k)
        if len(rows):
            comp_idx[rows, : len(table)] = pos.flat(after_trade[rows][:, None, :] + table[None])
            comp_ok[rows, : len(table)] = True
    level = reserve.sum(axis=1)
    return _Setup(grid, level, reserve, windows, after_trade, comp_idx, comp_ok, options, labels)


@dataclass
class _Level:
    """The Bellman equation of the states of one level, the states above it solved."""

    rows: npt.NDArray[np.int64]
    fixed: npt.NDArray[np.float64]  # the waiting window's part that leaves the level
    inner: Any  # CSR (distinct rows, rows): the waiting window's part that stays in the level
    distinct: npt.NDArray[np.int64]  # each row's row of ``inner`` (rows alike share one)
    gold: list[tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.float64]]]
    leaves: npt.NDArray[np.bool_]  # a positive chance of a reachable state above the level
    contraction: float  # the largest chance of staying in the level in one window


def _level(
    setup: _Setup, pos: _Pos, rows: npt.NDArray[np.int64], values: npt.NDArray[np.float64]
) -> _Level:
    """Split the waiting window of ``rows`` (one level) into its fixed and its inner part."""
    from scipy.sparse import csr_matrix

    n_level = len(rows)
    top = int(setup.level[rows[0]])
    local = np.full(len(setup.level), -1, np.int64)
    local[rows] = np.arange(n_level)
    windows = setup.windows
    sub = _Windows.__new__(_Windows)
    sub.__dict__.update(windows.__dict__)
    sub.group = windows.group[rows]
    split = _split(sub, pos, setup.reserve[rows], setup.level, top, values, spread=False)
    row, col, prob = split.inner
    distinct = int(split.distinct.max()) + 1 if n_level else 0
    inner = csr_matrix((prob, (row, local[col])), shape=(distinct, n_level))
    gold = []
    g_row, g_state, g_k, g_prob = split.gold
    for k in np.unique(g_k):
        sel = g_k == k
        comps = _compositions(int(k), range(_NR))
        targets = pos.flat(setup.grid[g_state[sel]][:, None, :] + comps[None, :, :])
        gold.append((g_row[sel], targets, g_prob[sel]))
    return _Level(
        rows,
        split.fixed,
        inner,
        split.distinct,
        gold,
        split.leaves,
        float(split.mass.max()) if n_level else 0.0,
    )


def _entries(matrix: Any, rows: npt.NDArray[np.int64], cols: npt.NDArray[np.int64]) -> Any:
    """The entries (rows[i], cols[i]) of a sparse matrix."""
    if len(rows) == 0:
        return np.zeros(0)
    out = matrix[rows, cols]
    out = out.toarray() if hasattr(out, "toarray") else out
    return np.asarray(out, np.float64).reshape(-1)


def _waiting(level: _Level, values: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """The value of waiting at each state of the level, for the current ``values``."""
    stay = level.fixed + (level.inner @ values[level.rows])[level.distinct]
    for row, targets, weight in level.gold:
        with np.errstate(invalid="ignore"):
            stay += np.bincount(
                row, weights=weight * values[targets].min(axis=1), minlength=len(stay)
            )
    return np.asarray(stay, dtype=np.float64)


def _self_solved(
    rest: npt.NDArray[np.float64],
    diag: npt.NDArray[np.float64],
    options: list[tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]],
) -> npt.NDArray[np.float64]:
    """The values of states deciding at themselves, their chance ``diag`` of waiting into
    themselves solved: waiting ``(1 + rest) / (1 - diag)``, a move ``c + b * stay``
    ``(1 + c + b rest) / (1 - b diag)``, the least of them (``rest``: the rest of waiting)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(diag < 1, (1 + rest) / (1 - diag), np.inf)
        for base, weight in options:
            cand = np.where(
                weight > 0,
                np.where(
                    weight * diag < 1, (1 + base + weight * rest) / (1 - weight * diag), np.inf
                ),
                1 + base,
            )
            np.minimum(out, cand, out=out)
    return np.asarray(out, dtype=np.float64)


def _best_option(
    setup: _Setup, rows: npt.NDArray[np.int64], stay: npt.NDArray[np.float64]
) -> npt.NDArray[np.float64]:
    best = stay.copy()
    for base, weight in setup.options:
        w = weight[rows]
        with np.errstate(invalid="ignore"):  # 0 * inf where a move cannot fail: not taken
            np.minimum(best, base[rows] + np.where(w > 0, w * stay, 0.0), out=best)
    return best


def _solve_position(game: _Game, v: int) -> None:
    """The values of position ``v``, one level of reserve cards at a time (later positions solved).

    Within a hex the cards in the reserve part never fall (trades give away only
    cards beyond the need, income only adds, and a 7 takes from the hand), so
    the levels are solved from the fullest reserve down, each its own small
    fixed point: value iteration over the states of one level, the levels above
    it solved (docs/rally.md, "How it is solved").
    """
    pos = game.positions[v]
    setup = _setup(game, v)
    n = len(setup.grid)
    values = np.full(n, np.inf)
    best = np.full(n, np.inf)  # the best option's value at each post-trade state
    waiting = np.full(n, np.inf)
    order = np.argsort(-setup.level, kind="stable")
    cuts = np.flatnonzero(np.diff(setup.level[order])) + 1
    bases = np.array([base for base, _ in setup.options], np.float64).reshape(-1, n)
    weights = np.array([weight for _, weight in setup.options], np.float64).reshape(-1, n)
    for rows in np.split(order, cuts):
        rows = np.sort(rows)
        level = _level(setup, pos, rows, values)
        post = setup.comp_idx[rows]
        post_ok = setup.comp_ok[rows]
        # Who can arrive with a positive chance (the least fixed point) ...
        direct = np.zeros(len(rows), bool)
        for base, _ in setup.options:
            direct |= np.isfinite(base[rows])
        alive = np.isfinite(values)
        reach = np.isfinite(best)
        can = np.zeros(len(rows), bool)
        while True:
            alive[rows] = can
            stay_any = level.leaves | ((level.inner @ can.astype(np.float64))[level.distinct] > 0)
            for row, targets, _ in level.gold:
                stay_any[row[alive[targets].any(axis=1)]] = True
            reach[rows] = direct | stay_any
            new_can = (post_ok & reach[post]).any(axis=1)
            if np.array_equal(new_can, can):
                break
            can = new_can
        # Reaching with a positive chance is not enough: any chance of a dead end is infinite.
        current = np.where(can, 0.0, np.inf)
        delta = 0.0
        # the trades into a fuller reserve lead to solved states: their best is fixed
        inside = post_ok & (setup.level[post] == setup.level[rows[0]])
        above = np.where(post_ok & ~inside, best[post], np.inf).min(axis=1)
        some = np.flatnonzero(inside.any(axis=1))
        post_in, inside_in = post[some], inside[some]
        # A state that trades nothing decides at itself: its chance of waiting into
        # itself is solved exactly (V = 1 + c + b (a + d V)), not iterated.
        selfish = np.flatnonzero(
            can & (post_ok.sum(axis=1) == 1) & (post[:, 0] == rows) & post_ok[:, 0]
        )
        diag = _entries(level.inner, level.distinct[selfish], selfish)
        if not level.gold:  # the same sweeps, compiled
            inner = level.inner
            _sweeper()(
                rows,
                current,
                values,
                best,
                waiting,
                level.fixed,
                level.distinct,
                inner.indptr,
                inner.indices,
                inner.data,
                bases,
                weights,
                post,
                inside,
                above,
                selfish,
                diag,
                TOLERANCE,
                MAX_SWEEPS,
            )
            continue
        loops = [(base[rows[selfish]], weight[rows[selfish]]) for base, weight in setup.options]
        for _ in range(MAX_SWEEPS):
            values[rows] = current
            stay = _waiting(level, values)
            best[rows] = _best_option(setup, rows, stay)
            new = above.copy()
            if len(some):
                inner_best = np.where(inside_in, best[post_in], np.inf).min(axis=1)
                new[some] = np.minimum(new[some], inner_best)
            new += 1.0
            if len(selfish):
                new[selfish] = _self_solved(stay[selfish] - diag * current[selfish], diag, loops)
            finite = np.isfinite(new) & np.isfinite(current)
            delta = float(np.abs(new[finite] - current[finite]).max()) if finite.any() else 0.0
            done = delta <= TOLERANCE and np.array_equal(np.isinf(new), np.isinf(current))
            current = new
            if done:
                break
        values[rows] = current
        stay = _waiting(level, values)
        waiting[rows] = stay
        best[rows] = _best_option(setup, rows, stay)
    # Read back the policy: for each state, the post-trade choice and the option.
    stay = waiting
    picked = np.where(setup.comp_ok, best[setup.comp_idx], np.inf)
    post_all = setup.comp_idx[np.arange(n), picked.argmin(axis=1)]
    with np.errstate(invalid="ignore"):
        opt_values = [stay] + [
            base + np.where(weight > 0, weight * stay, 0.0) for base, weight in setup.options
        ]
    choice = np.stack(opt_values, axis=1).argmin(axis=1)  # first best: waiting wins ties
    pos.value = values
    pos.option = choice[post_all]
    pos.gained = (
        (setup.grid[post_all] - setup.after_trade)
        if game.ratios is not None
        else np.zeros_like(setup.grid)
    )
    pos._post = post_all  # type: ignore[attr-defined]
    pos._labels = setup.labels  # type: ignore[attr-defined]


def _read_goals(board: Board, start: Hex, goals: Iterable[object] | None) -> tuple[Hex, ...]:
    if goals is None:
        if not is_rim_start(board, start):
            raise no_default_goals()
        return tuple(default_goals(board, start_group(board, start)))
    out = []
    for i, g in enumerate(goals):
        h = as_hex(g, f"goals[{i}]")
        if h not in board or not board.tiles[h].terrain.is_land:
            raise InvalidInput(f"goals[{i}]", str(h), "a land hex of the board")
        out.append(h)
    if not out:
        raise InvalidInput("goals", [], "at least one goal hex")
    return tuple(sorted(set(out)))


def solve_income(
    board: Board,
    player: str,
    start: object,
    goals: Iterable[object] | None = None,
    *,
    players: int = _DEFAULT["players"],
    hand: Mapping[Resource, int] | None = None,
    reserve: Mapping[Resource, int] | None = None,
    trade: str = _DEFAULT["trade"],
    discard: bool = _DEFAULT["discard"] == "on",
    within: int = _DEFAULT["within"],
    route: Sequence[Hex] | None = None,
    value_only: bool = False,
    memo: dict[Any, Any] | None = None,
) -> IncomePlan:
    """The fewest expected turns to a goal with cards from income (docs/rally.md).

    The engine behind :func:`isles.rally.plan_income`, which validates its
    parameters from the declaration :class:`isles.models.rally.questions.Drive`.
    ``route`` restricts the car to these hexes (a committed route); ``memo``
    keeps the solved hexes of committed routes for the next call (routes that
    end alike share them).
    """
    kwargs: dict[str, Any] = {
        "memo": {} if memo is None else memo,
        "value_only": value_only,
        "players": players,
        "hand": hand,
        "reserve": reserve,
        "trade": trade,
        "discard": discard,
        "within": within,
    }
    start_hex = as_hex(start, "start")
    if start_hex not in board:
        raise InvalidInput("start", str(start_hex), "a hex of the board")
    goal_hexes = _read_goals(board, start_hex, goals)
    roads = frozenset(player_roads(board, player))
    inc = roll_income(board, player)
    ratios = trade_ratios(board, player, trade)
    positions, s0 = _positions(board, start_hex, goal_hexes, roads, route)
    restrictions = {"forward"} | ({"committed_route"} if route is not None else set())
    if ratios is not None or discard:
        # Without trades and without the 7-card rule a card in hand is as good as one in
        # the reserve (neither is traded or discarded): the reserve rule then costs nothing.
        restrictions.add("reserve")
    if ratios is not None:
        restrictions.add("trade_at_once")
    if discard:
        restrictions.add("discard_rule")
    if any(inc.gold):
        restrictions.add("gold_choice")
    per_roll = np.array(inc.per_roll_max(), np.int64)
    hand_v, reserve_v = _card_vector(hand), _card_vector(reserve)
    # Cards beyond need exist only in resources with income (or in the starting hand).
    earns = (per_roll > 0) | (hand_v > 0)
    fodder = (
        np.where(earns, np.array(ratios, np.int64) - 1, 0)
        if ratios is not None
        else np.zeros(_NR, np.int64)
    )
    # Cards beyond need are kept up to one full ratio plus one roll's income (restriction
    # card_cap): beyond that they are lost, which may err either way (docs/rally.md).
    excess = (
        np.where(earns, fodder + per_roll, 0) if ratios is not None else np.zeros(_NR, np.int64)
    )
    if ratios is not None or discard:
        # Without trades a card beyond need is of no use, unless the 7-card rule makes it
        # count: it may take a discard's place, or push the hand over 7.
        restrictions.add("card_cap")
    for pos in positions:
        pos.cap = pos.need + excess
    game = _Game(
        board,
        positions,
        s0,
        goal_hexes,
        inc.cards,
        inc.gold,
        players,
        discard,
        ratios,
        fodder,
        restrictions,
    )
    order = [p.hex for p in positions]
    total = sum(p.size for p in positions)
    limit = FULL_STATES if ratios is not None else FULL_STATES_NO_TRADE
    committing = route is None and s0 >= 0 and total > limit and start_hex not in goal_hexes
    if not committing and any(p.size > MAX_STATES for p in positions):  # a route checks its own
        biggest = max(p.size for p in positions)
        raise InvalidInput(
            "board",
            f"{biggest:,} card states on one hex",
            f"at most {MAX_STATES:,} (fewer --players, --trade none, or nearer goals)",
        )
    if start_hex in goal_hexes:
        return _arrived(game, start_hex, player, trade, discard, within)
    if committing:
        return _best_committed(board, player, start_hex, goal_hexes, positions, s0, kwargs)
    if s0 < 0:
        return IncomePlan(
            Status.UNREACHABLE,
            start_hex,
            goal_hexes,
            player,
            players,
            trade,
            discard,
            None,
            tuple(0.0 for _ in range(within)),
            (),
            (),
            tuple(sorted(restrictions)),
            0,
            TOLERANCE,
        )
    table = (players, discard, ratios, inc.cards, inc.gold, tuple(fodder), tuple(excess))
    for v in range(len(positions)):
        # a committed route's hex depends on the route from it on only
        key = (table, roads, tuple(p.hex for p in positions[: v + 1]))
        if route is not None and memo is not None and key in memo:
            positions[v] = memo[key]
            continue
        _solve_position(game, v)
        if route is not None and memo is not None:
            memo[key] = positions[v]
    game.offsets = [0, *itertools.accumulate(p.size for p in positions)]
    del order
    pos = positions[s0]
    r0 = np.minimum(reserve_v, pos.need)[None, :]
    h0 = hand_v[None, :]
    value = float(_window_values(game, pos, 1, r0, h0)[0])
    if value_only:  # the value and the policy (the race plays it), not the answer's tables
        shown = tuple(route or ())
        if route is None and np.isfinite(value):  # few states (no committed route): cheap
            seen: dict[tuple[int, Hex], float] = {}
            _within(game, r0[0], hand_v, 1, seen)
            shown = _route(game, seen)
        return IncomePlan(
            Status.FEASIBLE if np.isfinite(value) else Status.UNREACHABLE,
            start_hex,
            goal_hexes,
            player,
            players,
            trade,
            discard,
            value if np.isfinite(value) else None,
            (),
            shown,
            (),
            tuple(sorted(restrictions)),
            total,
            TOLERANCE,
            policy=game,
        )
    flow: dict[tuple[int, Hex], float] = {}
    arrive = _within(game, r0[0], hand_v, within, flow)
    advice = _first_turn(game, r0[0], hand_v, reserve_v)
    status = Status.FEASIBLE if np.isfinite(value) else Status.UNREACHABLE
    return IncomePlan(
        status,
        start_hex,
        goal_hexes,
        player,
        players,
        trade,
        discard,
        value if np.isfinite(value) else None,
        arrive,
        _route(game, flow),
        advice,
        tuple(sorted(restrictions)),
        total,
        TOLERANCE,
        policy=game,
    )


def _arrived(
    game: _Game, start: Hex, player: str, trade: str, discard: bool, within: int
) -> IncomePlan:
    return IncomePlan(
        Status.FEASIBLE,
        start,
        game.goals,
        player,
        game.players,
        trade,
        discard,
        0.0,
        tuple(1.0 for _ in range(within)),
        (start,),
        (),
        tuple(sorted(game.restrictions)),
        0,
        TOLERANCE,
    )


def _wild_best(game: _Game, pos: _Pos) -> list[npt.NDArray[np.int64]]:
    """``out[k][x]``: the grid state the best choice of k gold cards' resources leads to."""
    cached = getattr(pos, "_wild_best", None)
    if cached is not None:
        return cached  # type: ignore[no-any-return]
    most = int(max(game.gold)) * game.players if any(game.gold) else 0
    out = [np.arange(pos.size)]
    grid = pos.grid()
    for k in range(1, most + 1):
        comps = _compositions(k, range(_NR))
        idx = pos.flat(grid[:, None, :] + comps[None, :, :])
        out.append(idx[np.arange(pos.size), pos.value[idx].argmin(axis=1)])
    pos._wild_best = out  # type: ignore[attr-defined]
    return out


def _spread(
    game: _Game,
    v: int,
    rolls: int,
    reserve: npt.NDArray[np.int64],
    hand: npt.NDArray[np.int64],
    mass: npt.NDArray[np.float64],
    source: npt.NDArray[np.int64],
    into: list[tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.float64]]],
) -> None:
    """Triplets (source row, decision state at ``v``, chance) after ``rolls`` rolls."""
    pos = game.positions[v]
    offset = game.offsets[v]
    everywhere = np.zeros(pos.size, np.int64)  # every outcome listed, none summed
    split = _split(_Windows(game, rolls, hand), pos, reserve, everywhere, 0, np.zeros(pos.size))
    row, col, prob = split.inner
    into.append((source[row], col + offset, mass[row] * prob))
    g_row, g_state, g_k, g_prob = split.gold
    if len(g_row):
        best = _wild_best(game, pos)
        for k in np.unique(g_k):
            sel = g_k == k
            target = best[int(k)][g_state[sel]] + offset
            into.append((source[g_row[sel]], target, mass[g_row[sel]] * g_prob[sel]))


@dataclass
class _Turn:
    """One turn of the policy over all decision states, in two sparse steps.

    ``ends`` (states, ends): the chance that a state's decision ends its turn at
    each distinct end of turn (the hex, the reserve, the hand); ``rolls`` (ends,
    states): the chance that an end of turn leads to each state's next decision.
    Many states end alike, so the two are far smaller than their product.
    """

    ends: Any
    rolls: Any

    def step(self, mass: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """The chance of each decision state a turn after ``mass``."""
        return np.asarray(self.rolls.T @ (self.ends.T @ mass), np.float64)


def _sparse(parts: list[Any], shape: tuple[int, int], first_row: int = 0) -> Any:
    """CSR of (row, column, value) triplets (rows from ``first_row``), duplicates summed."""
    from scipy.sparse import coo_matrix

    if not parts:
        return coo_matrix(shape).tocsr()
    a = np.concatenate([x for x, _, _ in parts]) - first_row
    b = np.concatenate([y for _, y, _ in parts])
    c = np.concatenate([z for _, _, z in parts])
    return coo_matrix((c, (a, b)), shape=shape).tocsr()


def _transition(
    game: _Game,
) -> tuple[_Turn, npt.NDArray[np.float64], dict[tuple[int, Hex], Any]]:
    """One turn of the policy over all decision states (built once).

    Returns (turn, arrive, flows): ``turn.step`` the chances a turn later,
    ``arrive[i]`` the chance state i's turn reaches a goal, ``flows[(v, hex)]``
    a vector: the chance of each state's move from v into hex.
    """
    from scipy.sparse import vstack

    total = game.offsets[-1]
    arrive = np.zeros(total)
    flows: dict[tuple[int, Hex], Any] = {}
    ends: dict[int, list[Any]] = {}
    for v, pos in enumerate(game.positions):
        grid = pos.grid()
        alive = np.flatnonzero(np.isfinite(pos.value))
        _transition_rows(game, v, pos, grid, alive, arrive, flows, ends)
    src_parts = []
    blocks = []  # the rows of ``rolls``, a chunk of ends at a time (summed as it is built)
    count = 0
    for v in sorted(ends):
        reserve = np.concatenate([r for r, _, _, _ in ends[v]])
        hand = np.concatenate([h for _, h, _, _ in ends[v]])
        source = np.concatenate([s for _, _, s, _ in ends[v]])
        weight = np.concatenate([w for _, _, _, w in ends[v]])
        first, inverse = _distinct_rows(
            np.concatenate([reserve, hand[:, :-1]], axis=1), hand[:, -1].copy()
        )
        src_parts.append((source, inverse + count, weight))
        for chunk in np.array_split(np.arange(len(first)), max(1, -(-len(first) // _CHUNK))):
            if len(chunk) == 0:
                continue
            rows = first[chunk]
            parts: list[Any] = []
            _spread(
                game, v, game.players, reserve[rows], hand[rows], np.ones(len(rows)), chunk, parts
            )
            blocks.append(_sparse(parts, (len(chunk), total), first_row=int(chunk[0])))
        count += len(first)

    rolls = vstack(blocks, format="csr") if blocks else _sparse([], (0, total))
    turn = _Turn(_sparse(src_parts, (total, count)), rolls)
    return turn, arrive, flows


def _transition_rows(
    game: _Game,
    v: int,
    pos: _Pos,
    grid: npt.NDArray[np.int64],
    rows: npt.NDArray[np.int64],
    arrive: npt.NDArray[np.float64],
    flows: dict[tuple[int, Hex], Any],
    ends: dict[int, list[Any]],
) -> None:
    """The ends of turn of the states ``rows`` of position ``v`` (for :func:`_transition`)."""
    total = game.offsets[-1]
    source = rows + game.offsets[v]
    post = pos._post[rows]  # type: ignore[attr-defined]
    options = pos.option[post]
    x = grid[post]
    reserve = np.minimum(x, pos.need)
    hand = np.minimum(x - reserve, game.fodder)
    labels = pos._labels  # type: ignore[attr-defined]

    def end(at: int, r: Any, h: Any, src: Any, w: Any) -> None:
        ends.setdefault(at, []).append((r, h, src, w))

    for o in np.unique(options):
        sel = options == o
        m, payer = labels[int(o)]
        ones = np.ones(int(sel.sum()))
        if m < 0:
            end(v, reserve[sel], hand[sel], source[sel], ones)
            continue
        move = pos.moves[m]
        paid = np.zeros(_NR, np.int64)
        if payer >= 0:
            paid[payer] = move.cards
        p = float(move.p_exit)
        flow = flows.setdefault((v, move.hex), np.zeros(total))
        flow[source[sel]] += p
        if move.target < 0:
            arrive[source[sel]] += p
        else:
            tgt = game.positions[move.target]
            r2 = np.minimum(reserve[sel] - paid, tgt.need)
            end(move.target, r2, hand[sel], source[sel], ones * p)
        if p < 1:
            end(v, reserve[sel], hand[sel], source[sel], ones * (1 - p))


def _first_masses(
    game: _Game, reserve: npt.NDArray[np.int64], hand: npt.NDArray[np.int64]
) -> npt.NDArray[np.float64]:
    parts: list[tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.float64]]] = []
    _spread(
        game,
        game.start,
        1,
        reserve[None, :],
        hand[None, :],
        np.ones(1),
        np.zeros(1, np.int64),
        parts,
    )
    mass = np.zeros(game.offsets[-1])
    for _, dst, wts in parts:
        np.add.at(mass, dst, wts)
    return mass


def _within(
    game: _Game,
    reserve: npt.NDArray[np.int64],
    hand: npt.NDArray[np.int64],
    turns: int,
    flow: dict[tuple[int, Hex], float],
) -> tuple[float, ...]:
    """P(arrived within t turns), t = 1..turns, following the policy (forward propagation).

    ``flow`` gathers the chance of each move made on the way (for the route shown):
    over at least 20 turns, or until 99.9% of the cars have arrived.
    """
    from scipy.sparse import csr_matrix

    turn, arrive, flows = _transition(game)
    mass = _first_masses(game, reserve, hand)
    keys = list(flows)
    # what each turn reads off the mass (arrivals, then each move's chance), at once
    reads = csr_matrix(np.stack([arrive, *(flows[k] for k in keys)]))
    arrived = 0.0
    out = []
    t = 0
    while t < turns or (t < 20 and arrived < 0.999):
        read = reads @ mass
        for key, x in zip(keys, read[1:], strict=True):
            flow[key] = flow.get(key, 0.0) + float(x)
        arrived += float(read[0])
        mass = turn.step(mass)
        t += 1
        if t <= turns:
            out.append(min(arrived, 1.0))
    return tuple(out)


def _route(game: _Game, flow: dict[tuple[int, Hex], float]) -> tuple[Hex, ...]:
    """The hexes the policy heads for: from the start, the most likely next hex each time."""
    index = {p.hex: i for i, p in enumerate(game.positions)}
    path = [game.positions[game.start].hex]
    v = game.start
    while True:
        options = {to: m for (u, to), m in flow.items() if u == v}
        if not options:
            break
        to = max(options, key=lambda h: (options[h], -h[1], -h[0]))
        path.append(to)
        if to not in index:
            break
        v = index[to]
    return tuple(path)


def _names(vec: npt.NDArray[np.int64]) -> dict[str, int]:
    return {RESOURCES[j].value: int(vec[j]) for j in range(_NR) if vec[j]}


def _first_turn(
    game: _Game,
    reserve: npt.NDArray[np.int64],
    hand: npt.NDArray[np.int64],
    held: npt.NDArray[np.int64],
) -> tuple[TurnAdvice, ...]:
    """Turn 1's advice for each roll of the player.

    ``reserve`` is the reserve as solved (capped at the need), ``held`` the reserve
    as given: an advice's ``cards`` are those at the table (hand after the roll plus
    the reserve given), not the capped state the policy reads.
    """
    pos = game.positions[game.start]
    grid = pos.grid()
    out = []
    for i, n in enumerate(ROLLS):
        if n == 7:
            h = _discard_rows(np.append(hand, 0)[None, :])[0, :_NR] if game.discard else hand
        else:
            h = hand + np.array(game.income[i], np.int64)
        flat = int(pos.flat(reserve + h))
        cards = grid[flat]
        post = int(pos._post[flat])  # type: ignore[attr-defined]
        x = grid[post]
        trades = []
        if game.ratios is not None:
            ratio = np.array(game.ratios, np.int64)
            batches = np.maximum(cards - pos.need, 0) // ratio
            gained = np.maximum(x - (cards - batches * ratio), 0)
            takes = [RESOURCES[j].value for j in range(_NR) for _ in range(int(gained[j]))]
            gives = [
                (RESOURCES[j].value, int(ratio[j]))
                for j in range(_NR)
                for _ in range(int(batches[j]))
            ]
            for (give, k), take in zip(gives, takes, strict=False):
                trades.append({"give": give, "cards": k, "take": take})
        m, payer = pos._labels[int(pos.option[post])]  # type: ignore[attr-defined]
        res = np.minimum(x, pos.need)
        move = None if m < 0 else pos.moves[m].hex
        if m >= 0 and payer >= 0:
            res = res.copy()
            res[payer] -= pos.moves[m].cards
        table = _names(held + h)  # the cards at the table, beyond the caps too
        out.append(TurnAdvice(n, table, trades, _names(res), move, float(pos.value[flat])))
    return tuple(out)


def _forward_paths(positions: list[_Pos], s0: int) -> list[tuple[Hex, ...]]:
    """The shortest routes in moves from the start, at most MAX_ROUTES, cheapest first."""
    out: list[tuple[int, tuple[Hex, ...]]] = []
    stack: list[tuple[int, tuple[Hex, ...], int]] = [(s0, (positions[s0].hex,), 0)]
    while stack and len(out) < 4 * MAX_ROUTES:
        v, path, cost = stack.pop()
        for move in positions[v].moves:
            step = (*path, move.hex)
            if move.target < 0:
                out.append((cost + move.cards, step))
            else:
                stack.append((move.target, step, cost + move.cards))
    out.sort()
    return [p for _, p in out[:MAX_ROUTES]]


def _best_committed(
    board: Board,
    player: str,
    start: Hex,
    goals: tuple[Hex, ...],
    positions: list[_Pos],
    s0: int,
    kwargs: dict[str, Any],
) -> IncomePlan:
    """The best of the committed routes (restriction ``committed_route``)."""
    paths = _forward_paths(positions, s0)
    best, best_value = paths[0], float("inf")
    for path in paths:
        plan = solve_income(
            board, player, start, goals, route=path, **{**kwargs, "value_only": True}
        )
        if plan.expected_turns is not None and plan.expected_turns < best_value:
            best, best_value = path, plan.expected_turns
    return solve_income(board, player, start, goals, route=best, **kwargs)


def plan_income(
    board: Board,
    player: str,
    start: object,
    goals: Iterable[object] | None = None,
    **table: Any,
) -> IncomePlan:
    """Fewest expected turns to a goal, when the cards come in roll by roll (docs/rally.md).

    Parameters
    ----------
    board : Board
        With the player's ``buildings`` (and roads, harbours) from the board file.
    player : str
        One of ``board.players()``.
    start : (q, r)
        The car's hex.
    goals : iterable of (q, r), optional
        Default: the land opposite the start group (a rim start).
    **table
        The rest of the question, by name, as the declaration
        :class:`isles.models.rally.questions.Drive` has them (the one place
        their defaults, ranges and help live): ``players`` (the table),
        ``hand`` and ``reserve`` (cards at the start), ``trade`` (``none``,
        ``bank`` or ``harbours``), ``discard`` (the 7-card rule, ``on`` or
        ``off``), ``within`` (``within[t - 1]`` = P(arrived within
        t turns)) and ``method`` (``auto``, ``route`` or ``full``: the policy
        space).

    Returns
    -------
    IncomePlan
        With the cheapest-cards route of :func:`isles.rally.plan_route` and its
        expected turns when the car commits to it (``cheapest_cards_route``).

    Raises
    ------
    InvalidInput
        Naming the parameter; the checks are those of the declaration
        :class:`isles.models.rally.questions.Drive`.

    Notes
    -----
    Where the whole policy space (any adjacent hex, trade, reserve, discard)
    has at most :data:`~isles.models.rally.questions.MAX_FULL_STATES` states
    (``method`` ``auto`` or ``full``), value iteration over all of them with a
    certified error bound (:mod:`isles.solvers.rally.income_full`; docs/rally.md,
    "The whole policy space"): status ``optimal``, ``error_bound`` stated.
    Else (or ``method`` ``route``) value iteration over (hex, cards) of committed
    routes, each hex solved one level of reserve cards at a time (docs/rally.md,
    "How it is solved"), in a restricted policy space whose restrictions the
    answer lists (docs/rally.md, "What is solved, and what is restricted"):
    status ``feasible``, not ``optimal``.

    Examples
    --------
    >>> from isles.models.catan import Board, Building, Terrain, Tile
    >>> from isles.models.hexgrid import vertex
    >>> board = Board({(0, 0): Tile(Terrain.SEA), (1, 0): Tile(Terrain.HILLS, 4),
    ...                (2, 0): Tile(Terrain.FIELDS, 3), (1, -1): Tile(Terrain.HILLS, 6),
    ...                (2, -1): Tile(Terrain.FIELDS, 8)},
    ...               buildings={vertex((1, 0), (1, -1), (2, -1)): Building("red")})
    >>> plan = plan_income(board, "red", (0, 0), [(2, 0)], trade="none", discard="off")
    >>> str(plan.status), round(plan.expected_turns, 3), [str(h) for h in plan.route]
    ('optimal', 8.044, ['0,0', '1,0', '2,0'])
    >>> plan.method, plan.error_bound < 1e-6, plan.restrictions
    ('full', True, ())
    >>> ruled = plan_income(board, "red", (0, 0), [(2, 0)], trade="none")  # the 7-card rule
    >>> str(ruled.status), ruled.restrictions, ruled.cap_lost
    ('feasible', ('card_cap',), True)
    >>> str(plan_income(board, "red", (0, 0), [(2, 0)], trade="none", method="route").status)
    'feasible'
    """
    question = Drive.ask(
        board=board, player=player, start=start, goals=None if goals is None else goals, **table
    )
    return plan_drive(question)


def plan_drive(question: Any) -> IncomePlan:
    """The answer to a validated :class:`~isles.models.rally.questions.Drive`.

    See :func:`plan_income`.
    """
    from isles.solvers.rally.route import plan_route

    board = question.board
    player = board.check_player(question.player, "player")
    kwargs: dict[str, Any] = {
        "memo": {},
        "players": question.players,
        "hand": question.hand,
        "reserve": question.reserve,
        "trade": question.trade,
        "discard": question.discard == "on",
        "within": question.within,
    }
    plan: IncomePlan | None = None
    if question.method != "route":
        from isles.solvers.rally.income_full import full_plan

        start = as_hex(question.start, "start")
        goals = _read_goals(board, start, question.goals)
        if start not in goals:
            plan = full_plan(
                board,
                player,
                start,
                goals,
                players=question.players,
                hand=question.hand,
                reserve=question.reserve,
                trade=question.trade,
                discard=question.discard == "on",
                within=question.within,
                method=question.method,
            )
    if plan is None:
        plan = solve_income(board, player, question.start, question.goals, **kwargs)
    cheapest = plan_route(
        board, question.start, goals=list(plan.goals), roads=player_roads(board, player)
    )
    compared: dict[str, Any] | None = None
    if cheapest.path is not None:
        committed = solve_income(
            board,
            player,
            question.start,
            plan.goals,
            route=tuple(cheapest.path),
            value_only=True,
            **kwargs,
        )
        compared = {
            "path": [hex_json(h) for h in cheapest.path],
            "total_cards": cheapest.total_cards,
            "expected_turns": float_or_none(committed.expected_turns),
        }
    return dataclasses.replace(plan, cheapest=compared)
