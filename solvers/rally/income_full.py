"""The rally as it is played, the whole policy space: any adjacent hex, any trade, any reserve.

Implements docs/rally.md ("The whole policy space"; seed 002_8684547a41c0941c.txt):
the Markov decision process over (car's hex, hand, reserve) of "The model", with
no restriction on the owner's choices: each turn any trades with the bank and
the harbours, any cards into the reserve, a move to any adjacent land hex (or a
wait), paid from hand and reserve in any split; on a 7 the cards discarded are
chosen; a gold card's resource is named as it comes. Value iteration from zero
gives a lower bound of the fewest expected turns; the greedy policy's residual
gives an upper bound (below); the answer is ``optimal`` with the gap stated
where the card caps are proven to lose nothing (no trades, no 7-card rule), else
``feasible`` with the restriction ``card_cap`` (docs/rally.md, "The card caps").

The card space is finite: of each resource at most ``card_cap`` cards are held
(hand plus reserve); cards beyond are lost. The cap is the most cards of that
resource any route without a repeated hex burns, plus, with trades, a trade's
ratio less one and a turn's income (docs/rally.md).

References
----------
.. [1] R. Bellman, "A Markovian decision process", Journal of Mathematics and
   Mechanics 6(5), 679-684, 1957 (value iteration).
.. [2] D. P. Bertsekas, J. N. Tsitsiklis, "An analysis of stochastic shortest
   path problems", Mathematics of Operations Research 16(3), 580-595, 1991.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from isles.models.catan import Board, Resource, Terrain
from isles.models.hexgrid import Hex, edge
from isles.models.rally.questions import MAX_FULL_STATES
from isles.models.rally.rules import (
    HAND_LIMIT,
    ROLLS,
    desert_exit_probability,
    entry_cost,
    player_roads,
    roll_income,
    trade_ratios,
)

__all__ = [
    "ERROR_BOUND",
    "MAX_SWEEPS",
    "FullAnswer",
    "FullGame",
    "arrivals",
    "cap_lost",
    "count_states",
    "full_plan",
    "full_states",
    "solve_full",
]

RESOURCES: tuple[Resource, ...] = tuple(Resource)
_NR = len(RESOURCES)
_ROLL_P = np.array([(6 - abs(7 - n)) / 36 for n in ROLLS])
#: The solve stops when the certified gap at the start is at most this (turns).
ERROR_BOUND = 1e-6
#: Sweeps of value iteration at most (the gap then stated is what was reached).
MAX_SWEEPS = 20_000
#: Sweeps between two checks of the gap.
_CHECK_EVERY = 16
#: Steps of the search for the costliest route without a repeated hex.
_PATH_STEPS = 200_000

Int = npt.NDArray[np.int64]
Float = npt.NDArray[np.float64]


@dataclass
class _Option:
    """One move from one hex, paid in one resource: its states, chance and payments."""

    source: int  # hex index
    target: int  # hex index, -1: a goal
    hex: Hex
    payer: int  # resource index, -1: free
    cards: int
    p: float
    rows: Int = field(default_factory=lambda: np.zeros(0, np.int64))
    cand: Int = field(default_factory=lambda: np.zeros(0, np.int64))
    starts: Int = field(default_factory=lambda: np.zeros(0, np.int64))


@dataclass
class FullGame:
    """The whole MDP of one question, its states enumerated (see :func:`solve_full`)."""

    hexes: list[Hex]
    goals: tuple[Hex, ...]
    players: int
    caps: Int
    ratios: tuple[int, ...] | None
    discard: bool
    track_hand: bool
    fuel: npt.NDArray[np.bool_]  # resources the reserve may hold (burnt by some move)
    at_least: bool = False  # the caps (and the count) only a lower bound: too many anyway
    hex_of: Int = field(default_factory=lambda: np.zeros(0, np.int64))
    hand: Int = field(default_factory=lambda: np.zeros((0, _NR), np.int64))
    reserve: Int = field(default_factory=lambda: np.zeros((0, _NR), np.int64))
    per_hex: int = 0
    pair_id: list[Int] = field(default_factory=list)
    strides: Int = field(default_factory=lambda: np.zeros(_NR, np.int64))
    roll_cand: Int = field(default_factory=lambda: np.zeros(0, np.int64))
    roll_starts: Int = field(default_factory=lambda: np.zeros(0, np.int64))
    roll_over: Int = field(default_factory=lambda: np.zeros(0, np.int64))  # cards lost
    options: list[_Option] = field(default_factory=list)
    reserve_steps: list[list[tuple[Int, Int]]] = field(default_factory=list)
    trade_steps: list[list[tuple[Int, Int, int, int]]] = field(default_factory=list)

    @property
    def n(self) -> int:
        return len(self.hex_of)

    def index(self, hexi: Int, hand: Int, reserve: Int) -> Int:
        """The state of each (hex, hand, reserve) row; cards beyond the cap leave the hand."""
        hand, reserve = hand.copy(), reserve * self.fuel  # a card no move burns is no fuel
        if not self.track_hand:  # no trades, no 7 rule: every card is fuel at once
            reserve += hand * self.fuel
            hand[:] = 0
        over = np.maximum(hand + reserve - self.caps, 0)
        hand -= np.minimum(over, hand)
        reserve = np.minimum(reserve, self.caps)
        flat = hexi * self.per_hex
        for j in range(_NR):
            if self.caps[j]:
                flat = flat + self.pair_id[j][hand[:, j], reserve[:, j]] * self.strides[j]
        return np.asarray(flat, np.int64)

    def over(self, hand: Int, reserve: Int) -> Int:
        """The cards each (hand, reserve) row loses to the caps in :meth:`index`.

        Cards no move burns leaving the reserve, and (no trades, no 7-card rule)
        cards beyond the caps, are of no use to any policy (docs/rally.md, "The card
        caps"): not counted.
        """
        if not self.track_hand:
            return np.zeros(len(hand), np.int64)
        return np.asarray(np.maximum(hand + reserve * self.fuel - self.caps, 0).sum(axis=1))


def _pairs(cap: int, fuel: bool, hand: bool) -> list[tuple[int, int]]:
    if cap == 0:
        return [(0, 0)]
    if fuel and hand:
        return [(h, r) for h in range(cap + 1) for r in range(cap + 1 - h)]
    if fuel:
        return [(0, r) for r in range(cap + 1)]
    return [(h, 0) for h in range(cap + 1)]


def _costliest(
    board: Board, start: Hex, goals: frozenset[Hex], cost: Mapping[tuple[Hex, Hex], Int]
) -> Int:
    """Per resource, the most cards a route without a repeated hex burns (or a bound on it)."""
    best = np.zeros(_NR, np.int64)
    steps = 0
    stack: list[tuple[Hex, frozenset[Hex], Int]] = [(start, frozenset([start]), best.copy())]
    while stack:
        steps += 1
        if steps > _PATH_STEPS:  # too many routes: every hex entered once at its dearest
            bound = np.zeros(_NR, np.int64)
            for w in {w for _, w in cost}:
                bound += np.max([c for (u, x), c in cost.items() if x == w], axis=0)
            return bound
        v, seen, spent = stack.pop()
        for w in board.neighbours(v):
            if (v, w) not in cost or w in seen:
                continue
            total = spent + cost[(v, w)]
            if w in goals:
                best = np.maximum(best, total)
            else:
                stack.append((w, seen | {w}, total))
    return best


def full_states(
    board: Board,
    player: str,
    start: Hex,
    goals: Sequence[Hex],
    *,
    players: int,
    hand: Int,
    reserve: Int,
    trade: str,
    discard: bool,
    caps: Int | None = None,
) -> FullGame:
    """The hexes, the card caps and the state count of the whole MDP (no transitions yet).

    Parameters
    ----------
    board : Board
        With the player's buildings, roads and harbours.
    player : str
        The car's owner.
    start : Hex
        The car's hex.
    goals : sequence of Hex
        Land hexes; entering one ends the drive.
    players : int
        Rolls at the table between two turns of the owner.
    hand, reserve : ndarray of int, shape (5,)
        Cards held at the start, per resource (``list(Resource)`` order).
    trade : str
        ``none``, ``bank`` or ``harbours``.
    discard : bool
        The 7-card rule.
    caps : ndarray of int, optional
        Replaces the card caps (per resource; the tests' small spaces).

    Returns
    -------
    FullGame
        Its ``hexes`` (the start first, then every land hex reached through
        land, goals left out), ``caps`` (docs/rally.md, "The whole policy
        space") and the card states of one hex; ``at_least`` when the caps of
        the dearest single move already give more than
        :data:`~isles.models.rally.questions.MAX_FULL_STATES` states (the
        costliest route is then not searched).

    Examples
    --------
    >>> import numpy as np
    >>> from isles.models.catan import Board, Building, Terrain, Tile
    >>> from isles.models.hexgrid import Hex, vertex
    >>> board = Board({(0, 0): Tile(Terrain.SEA), (1, 0): Tile(Terrain.HILLS, 4),
    ...                (2, 0): Tile(Terrain.FIELDS, 3), (1, -1): Tile(Terrain.HILLS, 6),
    ...                (2, -1): Tile(Terrain.FIELDS, 8)},
    ...               buildings={vertex((1, 0), (1, -1), (2, -1)): Building("red")})
    >>> z = np.zeros(5, np.int64)
    >>> game = full_states(board, "red", Hex(0, 0), [Hex(2, 0)], players=4, hand=z,
    ...                    reserve=z, trade="none", discard=False)
    >>> count_states(game), game.caps.tolist()  # 11 grain, 10 brick: 4 hexes x 12 x 11
    (528, [0, 0, 11, 10, 0])
    """
    goal_set = frozenset(goals)
    roads = frozenset(player_roads(board, player))
    # the hexes the car can stand on: the start, then land reached through land
    hexes = [start]
    seen = {start}
    k = 0
    while k < len(hexes):
        v = hexes[k]
        k += 1
        if v in goal_set:
            continue
        for w in board.neighbours(v):
            if w not in seen and board.tiles[w].terrain.is_land:
                seen.add(w)
                hexes.append(w)
    hexes = [h for h in hexes if h not in goal_set]
    cost: dict[tuple[Hex, Hex], Int] = {}
    gold_move = False
    for v in hexes:
        for w in board.neighbours(v):
            if w not in seen or not board.tiles[w].terrain.is_land:
                continue
            c = entry_cost(board.tiles[w], edge(v, w) in roads)
            vec = np.zeros(_NR, np.int64)
            if c.cards and c.resource is None:
                vec[:] = c.cards
                gold_move = True
            elif c.cards:
                vec[RESOURCES.index(c.resource)] = c.cards
            cost[(v, w)] = vec
    inc = roll_income(board, player)
    ratios = trade_ratios(board, player, trade)
    per_roll = np.array(inc.per_roll_max(), np.int64)
    earns = per_roll > 0
    burnt = np.zeros(_NR, bool)
    for vec in cost.values():
        burnt |= vec > 0
    held = (hand + reserve) > 0
    # the resources of the card space: burnt, held, and earned where trades or the 7 rule
    # make them count
    used = burnt | held | (earns & (ratios is not None or discard))
    if gold_move:  # a gold hex takes any single resource: every one held is fuel
        burnt = used.copy()
    given = caps
    track = ratios is not None or discard

    def capped(need: Int) -> Int:
        out = np.where(burnt, need, 0)
        if ratios is not None:
            out = out + np.where(
                used & (earns | held), np.array(ratios) - 1 + players * per_roll, 0
            )
        elif discard:  # cards of no use still count towards the 7-card rule
            out = out + np.where(used & ~burnt, players * per_roll, 0)
        return np.where(used, np.maximum(out, hand + reserve), 0).astype(np.int64)

    def per_hex(caps: Int) -> tuple[list[list[tuple[int, int]]], int]:
        pairs = [_pairs(int(caps[j]), bool(burnt[j] and used[j]), track) for j in range(_NR)]
        return pairs, int(np.prod([len(p) for p in pairs]))

    # the dearest single move bounds the caps from below: a space too big already is
    # not searched for its costliest route (``at_least``)
    dearest = np.max(list(cost.values()), axis=0) if cost else np.zeros(_NR, np.int64)
    caps = capped(dearest)
    at_least = given is None and len(hexes) * per_hex(caps)[1] > MAX_FULL_STATES
    if given is not None:
        caps = np.asarray(given, np.int64)
        used = caps > 0
    elif not at_least:
        caps = capped(_costliest(board, start, goal_set, cost))
    game = FullGame(
        hexes,
        tuple(sorted(goal_set)),
        players,
        caps,
        ratios,
        discard,
        track,
        burnt & used,
    )
    pairs, game.per_hex = per_hex(caps)
    game.at_least = at_least
    game._pairs = pairs  # type: ignore[attr-defined]
    game._cost = cost  # type: ignore[attr-defined]
    game._income = inc  # type: ignore[attr-defined]
    return game


def count_states(game: FullGame) -> int:
    """States of the whole MDP: hexes times card states of one hex.

    Parameters
    ----------
    game : FullGame
        From :func:`full_states`.

    Returns
    -------
    int
        A lower bound when ``game.at_least``.

    Examples
    --------
    See :func:`full_states`.
    """
    return len(game.hexes) * game.per_hex


def _build(game: FullGame, board: Board) -> None:
    """Enumerate the states and the transitions of every roll, move, reserve and trade."""
    pairs: list[list[tuple[int, int]]] = game._pairs  # type: ignore[attr-defined]
    game.pair_id = []
    sizes = [len(p) for p in pairs]
    game.strides = np.cumprod([1, *sizes[:0:-1]])[::-1].astype(np.int64)
    for j in range(_NR):
        table = np.full((int(game.caps[j]) + 1, int(game.caps[j]) + 1), -1, np.int64)
        for i, (h, r) in enumerate(pairs[j]):
            table[h, r] = i
        game.pair_id.append(table)
    combos = np.array(list(itertools.product(*(range(s) for s in sizes))), np.int64)
    ch = np.stack([np.array([p[0] for p in pairs[j]])[combos[:, j]] for j in range(_NR)], 1)
    cr = np.stack([np.array([p[1] for p in pairs[j]])[combos[:, j]] for j in range(_NR)], 1)
    nh = len(game.hexes)
    game.hex_of = np.repeat(np.arange(nh, dtype=np.int64), game.per_hex)
    game.hand = np.tile(ch, (nh, 1)).astype(np.int64)
    game.reserve = np.tile(cr, (nh, 1)).astype(np.int64)
    n = game.n
    assert np.array_equal(game.index(game.hex_of, game.hand, game.reserve), np.arange(n))
    _build_rolls(game)
    _build_moves(game, board)
    _build_closures(game)


def _compositions(k: int, targets: Sequence[int]) -> Int:
    rows = []
    for combo in itertools.combinations_with_replacement(targets, k):
        row = [0] * _NR
        for j in combo:
            row[j] += 1
        rows.append(row)
    return np.array(rows or [[0] * _NR], np.int64)


def _discards(hand: tuple[int, ...], k: int) -> Int:
    """Every choice of ``k`` cards to discard from ``hand``."""
    ranges = [range(min(h, k) + 1) for h in hand]
    out = [d for d in itertools.product(*ranges) if sum(d) == k]
    return np.array(out, np.int64)


def _build_rolls(game: FullGame) -> None:
    """For each roll and state, the states the owner may choose after it (segments)."""
    inc = game._income  # type: ignore[attr-defined]
    used = [j for j in range(_NR) if game.caps[j]]
    n = game.n
    cand_parts: list[Int] = []
    count_parts: list[Int] = []
    lost_parts: list[Int] = []
    for i, roll in enumerate(ROLLS):
        if roll == 7:
            total = game.hand.sum(axis=1)
            k = np.where(game.discard & (total > HAND_LIMIT), total // 2, 0)
            counts = np.ones(n, np.int64)
            merged = np.arange(n, dtype=np.int64)
            if (k > 0).any():
                rows = np.flatnonzero(k > 0)
                by_hand: dict[tuple[int, ...], Int] = {}
                per_row = []
                for s in rows:
                    h = tuple(int(x) for x in game.hand[s])
                    if h not in by_hand:
                        by_hand[h] = _discards(h, int(k[s]))
                    per_row.append(by_hand[h])
                counts[rows] = [len(d) for d in per_row]
                src = np.repeat(rows, counts[rows])
                drop = np.concatenate(per_row)
                targets = game.index(game.hex_of[src], game.hand[src] - drop, game.reserve[src])
                offs = np.concatenate([[0], np.cumsum(counts)[:-1]])
                merged = np.empty(int(counts.sum()), np.int64)
                keep = np.flatnonzero(k == 0)
                merged[offs[keep]] = keep
                within = np.arange(len(src)) - np.repeat(
                    np.cumsum(counts[rows]) - counts[rows], counts[rows]
                )
                merged[offs[src] + within] = targets
            cand_parts.append(merged)
            count_parts.append(counts)
            lost_parts.append(np.zeros(len(merged), np.int64))  # a discard only takes cards
            continue
        step = np.array(inc.cards[i], np.int64)
        comps = _compositions(int(inc.gold[i]), used)
        src = np.repeat(np.arange(n, dtype=np.int64), len(comps))
        add = np.tile(comps, (n, 1)) + step
        targets = game.index(game.hex_of[src], game.hand[src] + add, game.reserve[src])
        cand_parts.append(targets)
        count_parts.append(np.full(n, len(comps), np.int64))
        lost_parts.append(game.over(game.hand[src] + add, game.reserve[src]))
    counts = np.concatenate(count_parts)
    game.roll_cand = np.concatenate(cand_parts)
    game.roll_over = np.concatenate(lost_parts)
    game.roll_starts = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)


def _build_moves(game: FullGame, board: Board) -> None:
    """The moves from each hex, each payer resource: affordable states and their payments."""
    index = {h: i for i, h in enumerate(game.hexes)}
    cost = game._cost  # type: ignore[attr-defined]
    goal_set = set(game.goals)
    n = game.n
    for v, hv in enumerate(game.hexes):
        desert = board.tiles[hv].terrain is Terrain.DESERT
        rows_v = np.flatnonzero(game.hex_of == v)
        for w in board.neighbours(hv):
            if (hv, w) not in cost:
                continue
            vec = cost[(hv, w)]
            p = float(desert_exit_probability(board.tiles[w])) if desert else 1.0
            target = -1 if w in goal_set else index[w]
            cards = int(vec.max())
            payers = [-1] if cards == 0 else [j for j in range(_NR) if vec[j] and game.caps[j]]
            for j in payers:
                opt = _Option(v, target, w, j, cards, p)
                h, r = game.hand[rows_v], game.reserve[rows_v]
                ok = np.ones(len(rows_v), bool) if j < 0 else h[:, j] + r[:, j] >= cards
                rows = rows_v[ok]
                h, r = h[ok], r[ok]
                if j < 0:
                    counts = np.ones(len(rows), np.int64)
                    src = np.arange(len(rows))
                    a = np.zeros(len(rows), np.int64)
                else:
                    lo = np.maximum(0, cards - r[:, j])
                    hi = np.minimum(cards, h[:, j])
                    counts = hi - lo + 1
                    src = np.repeat(np.arange(len(rows)), counts)
                    a = lo[src] + (
                        np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts, counts)
                    )
                if target < 0:
                    cand = np.full(len(src), n, np.int64)  # the goal: value 0
                else:
                    hand2 = h[src].copy()
                    res2 = r[src].copy()
                    if j >= 0:
                        hand2[:, j] -= a
                        res2[:, j] -= cards - a
                    cand = game.index(np.full(len(src), target, np.int64), hand2, res2)
                opt.rows = rows
                opt.cand = cand
                opt.starts = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
                if len(rows):
                    game.options.append(opt)


def _by_level(
    level: Int, src: Int, tgt: Int, extra: tuple[int, int] | None = None
) -> dict[int, tuple[Int, Int]]:
    out: dict[int, tuple[Int, Int]] = {}
    for lv in np.unique(level[src]):
        sel = level[src] == lv
        out[int(lv)] = (src[sel], tgt[sel])
    return out


def _build_closures(game: FullGame) -> None:
    """The reserve steps (a hand card to the reserve, or let go) and the trade steps, by level."""
    level = game.hand.sum(axis=1)
    game._level = level  # type: ignore[attr-defined]
    top = int(level.max()) if game.n else 0
    reserve_maps: list[dict[int, tuple[Int, Int]]] = []
    trade_maps: list[tuple[dict[int, tuple[Int, Int]], int, int]] = []
    if game.track_hand:
        for j in range(_NR):
            if not game.caps[j]:
                continue
            src = np.flatnonzero(game.hand[:, j] > 0)
            h, r = game.hand[src].copy(), game.reserve[src].copy()
            h[:, j] -= 1
            if game.fuel[j]:
                r[:, j] += 1
            reserve_maps.append(_by_level(level, src, game.index(game.hex_of[src], h, r)))
    if game.ratios is not None:
        used = [j for j in range(_NR) if game.caps[j]]
        for i in used:
            for k in used:
                if i == k:
                    continue
                ratio = game.ratios[i]
                src = np.flatnonzero(
                    (game.hand[:, i] >= ratio)
                    & (game.hand[:, k] + game.reserve[:, k] < game.caps[k])
                )
                h = game.hand[src].copy()
                h[:, i] -= ratio
                h[:, k] += 1
                tgt = game.index(game.hex_of[src], h, game.reserve[src])
                trade_maps.append((_by_level(level, src, tgt), i, k))
    game.reserve_steps = [[m[lv] for m in reserve_maps if lv in m] for lv in range(top + 1)]
    game.trade_steps = [
        [(*m[lv], i, k) for m, i, k in trade_maps if lv in m] for lv in range(top + 1)
    ]


# -- the operators ---------------------------------------------------------------------


def _roll(game: FullGame, x: Float) -> Float:
    """One roll at the table: the expected best value after it."""
    seg = np.minimum.reduceat(x[game.roll_cand], game.roll_starts).reshape(len(ROLLS), -1)
    return np.asarray(_ROLL_P @ seg, np.float64)


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


def _closure(steps: Sequence[Sequence[tuple[Any, ...]]], x: Float, arg: Int | None = None) -> Float:
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
class _Policy:
    """The greedy policy of a value vector, as the steps of one turn."""

    layers: list[Int]  # layers[k-1]: the choice after a roll with k rolls left: (rolls, n)
    trade: Int  # the state after the turn's trades
    keep: Int  # the state after the reserve (of the post-trade state)
    option: Int  # -1 wait, else an index into game.options (of the post-reserve state)
    to: Int  # the state (or n: a goal) the move enters
    values: Float


def _policy(game: FullGame, v: Float) -> _Policy:
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
    return _Policy(layers, trade, keep[trade], option, to, v)


def _turn_matrices(game: FullGame, pol: _Policy) -> tuple[Any, Float, list[Any]]:
    """Decision state -> end of turn (n, n), its arrival chance, and the rolls' matrices."""
    from scipy.sparse import csr_matrix

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
        rolls.append(csr_matrix((np.repeat(_ROLL_P, n), (rr, layer.reshape(-1))), shape=(n, n)))
    return ends, arrive, rolls


def _next_turn(ends: Any, rolls: list[Any], mass: Float) -> Float:
    """The chance of each decision state a turn after ``mass`` (rolls: k rolls left, k = 1..P)."""
    x = ends.T @ mass
    for m in reversed(rolls):
        x = m.T @ x
    return np.asarray(x, np.float64)


@dataclass
class FullAnswer:
    """What :func:`solve_full` returns (read by :func:`isles.solvers.rally.income.solve_income`)."""

    game: FullGame
    lower: float
    upper: float
    sweeps: int
    policy: _Policy
    start: int
    #: The policy whose value ``upper`` bounds (None: no bound certified).
    certified: _Policy | None = None


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
    >>> from isles.models.catan import Board, Building, Terrain, Tile
    >>> from isles.models.hexgrid import Hex, vertex
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
        _build(game, board)
    s0 = int(game.index(np.zeros(1, np.int64), hand[None, :], reserve[None, :])[0])
    v = np.zeros(game.n)
    upper = np.inf
    lower = 0.0
    sweeps = 0
    certified: _Policy | None = None
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


def _reached(game: FullGame, pol: _Policy, s0: int) -> npt.NDArray[np.bool_]:
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


def cap_lost(game: FullGame, pol: _Policy, s0: int) -> bool:
    """Whether the cards the caps take away could change the policy's play at the table.

    Parameters
    ----------
    game : FullGame
        Solved by :func:`solve_full`.
    pol : _Policy
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
    See :func:`full_plan`.
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


def _can_reach(game: FullGame, s0: int) -> bool:
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


def _names(vec: Int) -> dict[str, int]:
    return {RESOURCES[j].value: int(vec[j]) for j in range(_NR) if vec[j]}


def _trades(game: FullGame, s: int, t: int) -> list[dict[str, Any]]:
    """The trades from state ``s`` to state ``t`` (a shortest chain of them)."""
    level = game._level  # type: ignore[attr-defined]
    paths: dict[int, list[dict[str, Any]]] = {s: []}
    queue = [s]
    while queue:
        cur = queue.pop(0)
        if cur == t:
            return paths[cur]
        for src, tgt, i, k in game.trade_steps[int(level[cur])]:
            at = int(np.searchsorted(src, cur))
            if at < len(src) and src[at] == cur and int(tgt[at]) not in paths:
                ratios = game.ratios or ()
                step = {"give": RESOURCES[i].value, "cards": ratios[i], "take": RESOURCES[k].value}
                paths[int(tgt[at])] = [*paths[cur], step]
                queue.append(int(tgt[at]))
    return []  # pragma: no cover - t is always reached from s by trades


def _first_turn(answer: FullAnswer) -> list[Any]:
    from isles.solvers.rally.income import TurnAdvice

    game, pol = answer.game, answer.policy
    out = []
    for i, roll in enumerate(ROLLS):
        s = int(pol.layers[0][i, answer.start])
        t = int(pol.trade[s])
        u = int(pol.keep[s])
        o = int(pol.option[u])
        reserve = game.reserve[u].copy()
        move = None
        if o >= 0:
            opt = game.options[o]
            move = opt.hex
            to = int(pol.to[u])
            if to < game.n:
                reserve = game.reserve[to].copy()
            elif opt.payer >= 0:
                reserve[opt.payer] -= max(0, opt.cards - int(game.hand[u, opt.payer]))
        cards = game.hand[s] + game.reserve[s]
        out.append(
            TurnAdvice(
                roll,
                _names(cards),
                _trades(game, s, t),
                _names(reserve),
                move,
                float(pol.values[s]),
            )
        )
    return out


def _route(game: FullGame, flows: dict[tuple[int, Hex], float]) -> tuple[Hex, ...]:
    index = {h: i for i, h in enumerate(game.hexes)}
    path = [game.hexes[0]]
    v = 0
    seen = {0}
    while True:
        options = {to: m for (u, to), m in flows.items() if u == v}
        if not options:
            break
        to = max(options, key=lambda h: (options[h], -h[1], -h[0]))
        path.append(to)
        if to not in index or index[to] in seen:
            break
        v = index[to]
        seen.add(v)
    return tuple(path)


def full_plan(
    board: Board,
    player: str,
    start: Hex,
    goals: Sequence[Hex],
    *,
    players: int,
    hand: Mapping[Resource, int] | None,
    reserve: Mapping[Resource, int] | None,
    trade: str,
    discard: bool,
    within: int,
    method: str,
) -> Any:
    """The answer over the whole policy space, or None where it has too many states (auto).

    Called by :func:`isles.solvers.rally.income.plan_drive` (``method`` ``auto``
    or ``full``), which validated the question (:class:`~isles.models.questions.
    rally.Drive`); docs/rally.md, "The whole policy space"; seed
    002_8684547a41c0941c.txt.

    Parameters
    ----------
    board, player, start, goals
        The car: the goals read (never the start).
    players, hand, reserve, trade, discard, within, method
        As :class:`~isles.models.rally.questions.Drive` declares them
        (``discard`` as a bool).

    Returns
    -------
    IncomePlan or None
        Status ``optimal`` (no trades, no 7-card rule, gap at most
        ``ERROR_BOUND``), ``feasible`` (with trades or the 7-card rule:
        restriction ``card_cap`` and ``cap_lost`` from :func:`cap_lost`; or the
        sweeps ran out), or ``unreachable``; ``method`` ``full``,
        ``error_bound``, ``card_cap``.
        None: more than ``MAX_FULL_STATES`` states and ``method`` ``auto``.

    Raises
    ------
    InvalidInput
        Naming ``method``: ``full`` asked for a space of more than
        :data:`~isles.models.rally.questions.MAX_FULL_STATES` states.

    Examples
    --------
    >>> from isles.models.catan import Board, Building, Terrain, Tile
    >>> from isles.models.hexgrid import Hex, vertex
    >>> board = Board({(0, 0): Tile(Terrain.SEA), (1, 0): Tile(Terrain.HILLS, 4),
    ...                (2, 0): Tile(Terrain.FIELDS, 3), (1, -1): Tile(Terrain.HILLS, 6),
    ...                (2, -1): Tile(Terrain.FIELDS, 8)},
    ...               buildings={vertex((1, 0), (1, -1), (2, -1)): Building("red")})
    >>> plan = full_plan(board, "red", Hex(0, 0), [Hex(2, 0)], players=4, hand=None,
    ...                  reserve=None, trade="none", discard=False, within=10, method="auto")
    >>> str(plan.status), round(plan.expected_turns, 3), plan.card_cap
    ('optimal', 8.044, {'grain': 11, 'brick': 10})
    >>> capped = full_plan(board, "red", Hex(0, 0), [Hex(2, 0)], players=4, hand=None,
    ...                    reserve=None, trade="none", discard=True, within=10, method="auto")
    >>> str(capped.status), capped.restrictions, capped.cap_lost  # the 7-card rule
    ('feasible', ('card_cap',), True)
    """
    from isles.models.errors import InvalidInput
    from isles.models.status import Status
    from isles.solvers.rally.income import IncomePlan

    h0, r0 = np.zeros(_NR, np.int64), np.zeros(_NR, np.int64)
    for r, k in (hand or {}).items():
        h0[RESOURCES.index(r)] = k
    for r, k in (reserve or {}).items():
        r0[RESOURCES.index(r)] = k
    game = full_states(
        board,
        player,
        start,
        goals,
        players=players,
        hand=h0,
        reserve=r0,
        trade=trade,
        discard=discard,
    )
    count = count_states(game)
    if count > MAX_FULL_STATES:
        if method == "full":
            raise InvalidInput(
                "method",
                "full",
                f"at most {MAX_FULL_STATES:,} states (hex, hand, reserve) for the whole policy "
                f"space; this question has {'at least ' if game.at_least else ''}{count:,} "
                "(method auto or route)",
            )
        return None
    _build(game, board)
    s0 = int(game.index(np.zeros(1, np.int64), h0[None, :], r0[None, :])[0])
    caps = {RESOURCES[j].value: int(game.caps[j]) for j in range(_NR) if game.caps[j]}
    common = dict(
        start=start,
        goals=game.goals,
        player=player,
        players=players,
        trade=trade,
        discard=discard,
        restrictions=(),
        states=count,
        tolerance=ERROR_BOUND,
        method="full",
        card_cap=caps,
    )
    if not _can_reach(game, s0):
        return IncomePlan(
            status=Status.UNREACHABLE,
            expected_turns=None,
            within=tuple(0.0 for _ in range(within)),
            route=(),
            first_turn=(),
            error_bound=None,
            cap_lost=None,
            **common,  # type: ignore[arg-type]
        )
    answer = solve_full(game, board, h0, r0)
    gap = answer.upper - answer.lower
    arrive, flows = arrivals(answer, within)
    # docs/rally.md, "The card caps": without trades and the 7-card rule no card beyond
    # the caps is of any use (proven there), so the capped space is the table's game;
    # else the caps restrict it, and whether the certified policy ever loses a card to
    # them says whether its bound holds at the table.
    exact_caps = not game.track_hand
    lost = None
    if not exact_caps:
        common["restrictions"] = ("card_cap",)
        lost = answer.certified is None or cap_lost(game, answer.certified, s0)
    return IncomePlan(
        status=Status.OPTIMAL if gap <= ERROR_BOUND and exact_caps else Status.FEASIBLE,
        cap_lost=lost,
        expected_turns=answer.lower,
        within=arrive,
        route=_route(game, flows),
        first_turn=tuple(_first_turn(answer)),
        error_bound=gap if np.isfinite(gap) else None,
        policy=answer,
        **common,  # type: ignore[arg-type]
    )
