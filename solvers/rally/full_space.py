"""The rally as it is played, the whole policy space: its states and every transition.

Implements docs/rally.md ("The whole policy space", "The card caps"; seed
002_8684547a41c0941c.txt): the Markov decision process over (car's hex, hand,
reserve) of "The model", with no restriction on the owner's choices: each turn
any trades with the bank and the harbours, any cards into the reserve, a move to
any adjacent land hex (or a wait), paid from hand and reserve in any split; on a
7 the cards discarded are chosen; a gold card's resource is named as it comes.
Its values are found in :mod:`~isles.solvers.rally.full_values`.

The card space is finite: of each resource at most ``card_cap`` cards are held
(hand plus reserve); cards beyond are lost. The cap is the most cards of that
resource any route without a repeated hex burns, plus, with trades, a trade's
ratio less one and a turn's income (docs/rally.md).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from isles.models.board import Board
from isles.models.catan import Terrain
from isles.models.hexgrid import Edge, Hex, edge
from isles.models.rally.questions import MAX_FULL_STATES
from isles.models.rally.rules import (
    HAND_LIMIT,
    ROLLS,
    Income,
    desert_exit_probability,
    entry_cost,
    player_roads,
    roll_income,
    trade_ratios,
)
from isles.solvers.rally.game import NR, RESOURCES, compositions

__all__ = ["FullGame", "Option", "build", "count_states", "full_states"]

#: Steps of the search for the costliest route without a repeated hex.
_PATH_STEPS = 200_000

Int = npt.NDArray[np.int64]
Float = npt.NDArray[np.float64]


@dataclass
class Option:
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
    hand: Int = field(default_factory=lambda: np.zeros((0, NR), np.int64))
    reserve: Int = field(default_factory=lambda: np.zeros((0, NR), np.int64))
    per_hex: int = 0
    pair_id: list[Int] = field(default_factory=list)
    strides: Int = field(default_factory=lambda: np.zeros(NR, np.int64))
    roll_cand: Int = field(default_factory=lambda: np.zeros(0, np.int64))
    roll_starts: Int = field(default_factory=lambda: np.zeros(0, np.int64))
    roll_over: Int = field(default_factory=lambda: np.zeros(0, np.int64))  # cards lost
    options: list[Option] = field(default_factory=list)
    reserve_steps: list[list[tuple[Int, Int]]] = field(default_factory=list)
    trade_steps: list[list[tuple[Int, Int, int, int]]] = field(default_factory=list)
    # What full_states found for build: each resource's (hand, reserve) pairs, each move's
    # cost vector, the owner's income; and each state's cards in hand (its level).
    pairs: list[list[tuple[int, int]]] = field(default_factory=list)
    cost: dict[tuple[Hex, Hex], Int] = field(default_factory=dict)
    income: Income = field(default_factory=lambda: Income((), ()))
    level: Int = field(default_factory=lambda: np.zeros(0, np.int64))

    @property
    def n(self) -> int:
        """The states (once built)."""
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
        for j in range(NR):
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
    """The (hand, reserve) pairs of one resource within its cap."""
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
    best = np.zeros(NR, np.int64)
    steps = 0
    stack: list[tuple[Hex, frozenset[Hex], Int]] = [(start, frozenset([start]), best.copy())]
    while stack:
        steps += 1
        if steps > _PATH_STEPS:  # too many routes: every hex entered once at its dearest
            bound = np.zeros(NR, np.int64)
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
    >>> from isles.models.board import Board
    >>> from isles.models.catan import Building, Terrain, Tile
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
    hexes, seen = _stands(board, start, goal_set)
    cost, gold_move = _move_costs(board, hexes, seen, frozenset(player_roads(board, player)))
    inc = roll_income(board, player)
    ratios = trade_ratios(board, player, trade)
    space = _CardSpace.of(cost.values(), gold_move, inc, ratios, players, discard, hand + reserve)
    # the dearest single move bounds the caps from below: a space too big already is
    # not searched for its costliest route (``at_least``)
    dearest = np.max(list(cost.values()), axis=0) if cost else np.zeros(NR, np.int64)
    chosen = space.capped(dearest)
    at_least = caps is None and len(hexes) * space.per_hex(chosen)[1] > MAX_FULL_STATES
    if caps is not None:
        chosen = np.asarray(caps, np.int64)
        space.used = chosen > 0
    elif not at_least:
        chosen = space.capped(_costliest(board, start, goal_set, cost))
    pairs, per_hex = space.per_hex(chosen)
    return FullGame(
        hexes,
        tuple(sorted(goal_set)),
        players,
        chosen,
        ratios,
        discard,
        space.track,
        space.burnt & space.used,
        at_least=at_least,
        per_hex=per_hex,
        pairs=pairs,
        cost=cost,
        income=inc,
    )


def _stands(board: Board, start: Hex, goals: frozenset[Hex]) -> tuple[list[Hex], set[Hex]]:
    """The hexes the car can stand on (the start, then land reached through land, goals
    left out), and every hex reached (goals too)."""
    hexes = [start]
    seen = {start}
    k = 0
    while k < len(hexes):
        v = hexes[k]
        k += 1
        if v in goals:
            continue
        for w in board.neighbours(v):
            if w not in seen and board.tiles[w].terrain.is_land:
                seen.add(w)
                hexes.append(w)
    return [h for h in hexes if h not in goals], seen


def _move_costs(
    board: Board, hexes: list[Hex], seen: set[Hex], roads: frozenset[Edge]
) -> tuple[dict[tuple[Hex, Hex], Int], bool]:
    """Each move's cost vector (gold: its cards in every resource), and whether one is gold."""
    cost: dict[tuple[Hex, Hex], Int] = {}
    gold_move = False
    for v in hexes:
        for w in board.neighbours(v):
            if w not in seen or not board.tiles[w].terrain.is_land:
                continue
            c = entry_cost(board.tiles[w], edge(v, w) in roads)
            vec = np.zeros(NR, np.int64)
            if c.cards and c.resource is None:
                vec[:] = c.cards
                gold_move = True
            elif c.cards and c.resource is not None:
                vec[RESOURCES.index(c.resource)] = c.cards
            cost[(v, w)] = vec
    return cost, gold_move


@dataclass
class _CardSpace:
    """Which resources the card space holds and how: burnt by moves, held, earned."""

    burnt: npt.NDArray[np.bool_]
    used: npt.NDArray[np.bool_]
    held: npt.NDArray[np.bool_]
    earns: npt.NDArray[np.bool_]
    per_roll: Int
    ratios: tuple[int, ...] | None
    players: int
    discard: bool
    start: Int  # the cards held at the start, hand and reserve together

    @property
    def track(self) -> bool:
        """Whether the hand counts apart from the reserve (trades or the 7-card rule)."""
        return self.ratios is not None or self.discard

    @classmethod
    def of(
        cls,
        costs: Iterable[Int],
        gold_move: bool,
        inc: Income,
        ratios: tuple[int, ...] | None,
        players: int,
        discard: bool,
        start: Int,
    ) -> _CardSpace:
        """The card space of a car's moves and its owner's table."""
        per_roll = np.array(inc.per_roll_max(), np.int64)
        earns = per_roll > 0
        burnt = np.zeros(NR, bool)
        for vec in costs:
            burnt |= vec > 0
        held = start > 0
        # the resources of the card space: burnt, held, and earned where trades or the
        # 7 rule make them count
        used = burnt | held | (earns & (ratios is not None or discard))
        if gold_move:  # a gold hex takes any single resource: every one held is fuel
            burnt = used.copy()
        return cls(burnt, used, held, earns, per_roll, ratios, players, discard, start)

    def capped(self, need: Int) -> Int:
        """The caps for routes burning ``need`` cards of each resource at most."""
        used, turn = self.used, self.players * self.per_roll
        out = np.where(self.burnt, need, 0)
        if self.ratios is not None:
            out = out + np.where(
                used & (self.earns | self.held), np.array(self.ratios) - 1 + turn, 0
            )
        elif self.discard:  # cards of no use still count towards the 7-card rule
            out = out + np.where(used & ~self.burnt, turn, 0)
        return np.where(used, np.maximum(out, self.start), 0).astype(np.int64)

    def per_hex(self, caps: Int) -> tuple[list[list[tuple[int, int]]], int]:
        """Each resource's (hand, reserve) pairs under ``caps``, and the states of one hex."""
        pairs = [
            _pairs(int(caps[j]), bool(self.burnt[j] and self.used[j]), self.track)
            for j in range(NR)
        ]
        return pairs, int(np.prod([len(p) for p in pairs]))


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


def build(game: FullGame, board: Board) -> None:
    """Enumerate the states and the transitions of every roll, move, reserve and trade."""
    pairs = game.pairs
    game.pair_id = []
    sizes = [len(p) for p in pairs]
    game.strides = np.cumprod([1, *sizes[:0:-1]])[::-1].astype(np.int64)
    for j in range(NR):
        table = np.full((int(game.caps[j]) + 1, int(game.caps[j]) + 1), -1, np.int64)
        for i, (h, r) in enumerate(pairs[j]):
            table[h, r] = i
        game.pair_id.append(table)
    combos = np.array(list(itertools.product(*(range(s) for s in sizes))), np.int64)
    ch = np.stack([np.array([p[0] for p in pairs[j]])[combos[:, j]] for j in range(NR)], 1)
    cr = np.stack([np.array([p[1] for p in pairs[j]])[combos[:, j]] for j in range(NR)], 1)
    nh = len(game.hexes)
    game.hex_of = np.repeat(np.arange(nh, dtype=np.int64), game.per_hex)
    game.hand = np.tile(ch, (nh, 1)).astype(np.int64)
    game.reserve = np.tile(cr, (nh, 1)).astype(np.int64)
    n = game.n
    assert np.array_equal(game.index(game.hex_of, game.hand, game.reserve), np.arange(n))
    _build_rolls(game)
    _build_moves(game, board)
    _build_closures(game)


def _discards(hand: tuple[int, ...], k: int) -> Int:
    """Every choice of ``k`` cards to discard from ``hand``."""
    ranges = [range(min(h, k) + 1) for h in hand]
    out = [d for d in itertools.product(*ranges) if sum(d) == k]
    return np.array(out, np.int64)


def _build_rolls(game: FullGame) -> None:
    """For each roll and state, the states the owner may choose after it (segments)."""
    inc = game.income
    used = [j for j in range(NR) if game.caps[j]]
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
        comps = compositions(int(inc.gold[i]), used)
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
    cost = game.cost
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
            payers = [-1] if cards == 0 else [j for j in range(NR) if vec[j] and game.caps[j]]
            for j in payers:
                opt = Option(v, target, w, j, cards, p)
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
    game.level = level
    top = int(level.max()) if game.n else 0
    reserve_maps: list[dict[int, tuple[Int, Int]]] = []
    trade_maps: list[tuple[dict[int, tuple[Int, Int]], int, int]] = []
    if game.track_hand:
        for j in range(NR):
            if not game.caps[j]:
                continue
            src = np.flatnonzero(game.hand[:, j] > 0)
            h, r = game.hand[src].copy(), game.reserve[src].copy()
            h[:, j] -= 1
            if game.fuel[j]:
                r[:, j] += 1
            reserve_maps.append(_by_level(level, src, game.index(game.hex_of[src], h, r)))
    if game.ratios is not None:
        used = [j for j in range(NR) if game.caps[j]]
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
