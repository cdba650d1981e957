"""The chain the rally as it is played is solved on: the car's positions, their card grids,
one owner's table.

Implements docs/rally.md ("The model", "How it is solved"; seed
002_8684547a41c0941c.txt): the hexes a car may stand on moving forward, each with
its moves, the cards the routes from it can burn (``need``) and its grid of card
states; the owner's table (income per roll, trades, the 7-card rule). The solver
(:mod:`~isles.solvers.rally.income`) fills each position's values and decisions;
the race (:mod:`~isles.solvers.rally.race`) plays them.
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from isles.models.board import Board
from isles.models.catan import Resource, Terrain
from isles.models.hexgrid import Edge, Hex, edge
from isles.models.rally.rules import ROLLS, desert_exit_probability, entry_cost

__all__ = [
    "FREE",
    "GOLD",
    "NR",
    "RESOURCES",
    "ROLL_P",
    "Game",
    "Move",
    "Pos",
    "card_names",
    "card_vector",
    "compositions",
    "positions",
    "wild_best",
]

RESOURCES: tuple[Resource, ...] = tuple(Resource)
#: Resources: the width of a card vector.
NR = len(RESOURCES)
GOLD = -1  # a move paid in any single resource (a gold hex)
FREE = -2  # a move that costs nothing (a desert)
#: The chance of each roll of 2d6, in the order of ROLLS.
ROLL_P = np.array([(6 - abs(7 - n)) / 36 for n in ROLLS])


@dataclass(frozen=True)
class Move:
    """One move from a position: into ``hex``, paying ``cards`` of ``resource``."""

    target: int  # position index; -1: a goal
    hex: Hex
    cards: int
    resource: int  # index into RESOURCES, GOLD or FREE
    p_exit: Fraction  # chance one try succeeds (leaving a desert), else 1


@dataclass
class Pos:
    """A hex the car may stand on: its moves, its card grid, and once solved its policy."""

    hex: Hex
    dist: int
    desert: bool
    need: npt.NDArray[np.int64]
    cap: npt.NDArray[np.int64] = field(default_factory=lambda: np.zeros(NR, np.int64))
    moves: list[Move] = field(default_factory=list)
    value: npt.NDArray[np.float64] = field(default_factory=lambda: np.zeros(0))
    # The decision of each state of the grid: option index, and the trade's cards gained.
    option: npt.NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, np.int64))
    gained: npt.NDArray[np.int64] = field(default_factory=lambda: np.zeros((0, NR), np.int64))
    # The post-trade state each state chooses, and each option's (move index, payer).
    post: npt.NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, np.int64))
    labels: list[tuple[int, int]] = field(default_factory=list)
    # wild_best's answer, once asked.
    wild: list[npt.NDArray[np.int64]] | None = None

    @property
    def shape(self) -> tuple[int, ...]:
        """The grid's shape: each resource from 0 to its cap."""
        return tuple(int(c) + 1 for c in self.cap)

    @property
    def size(self) -> int:
        """The grid's states."""
        return int(np.prod(self.shape))

    def flat(self, cards: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """Flat grid index of card vectors (last axis), clamped to the grid."""
        cap = self.cap
        strides = np.cumprod([1, *(int(c) + 1 for c in cap[:0:-1])])[::-1]
        flat = np.zeros(cards.shape[:-1], np.int64)
        for j in range(NR):  # row-major, as np.ravel_multi_index, without its copies
            if cap[j]:
                flat += np.clip(cards[..., j], 0, cap[j]) * int(strides[j])
        return flat

    def grid(self) -> npt.NDArray[np.int64]:
        """The card vector of every grid state, in flat order."""
        return np.stack(np.unravel_index(np.arange(self.size), self.shape), axis=-1).astype(
            np.int64
        )


@dataclass
class Game:
    """One car's chain: its positions (nearest the goals first) and its owner's table."""

    board: Board
    positions: list[Pos]
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


def compositions(k: int, targets: Sequence[int]) -> npt.NDArray[np.int64]:
    """All ways of adding ``k`` cards to the ``targets`` resources: (C, 5).

    Examples
    --------
    >>> compositions(2, [0, 3]).tolist()
    [[2, 0, 0, 0, 0], [1, 0, 0, 1, 0], [0, 0, 0, 2, 0]]
    """
    if k == 0 or not targets:
        return np.zeros((1, NR), np.int64)
    rows = []
    for combo in itertools.combinations_with_replacement(targets, k):
        row = [0] * NR
        for j in combo:
            row[j] += 1
        rows.append(row)
    return np.array(rows, dtype=np.int64)


def positions(
    board: Board,
    start: Hex,
    goals: Sequence[Hex],
    roads: frozenset[Edge],
    route: Sequence[Hex] | None,
) -> tuple[list[Pos], int]:
    """The hexes the car may stand on (forward moves only), nearest the goals first,
    and the start's index (-1: no goal can be reached); ``route`` restricts them."""
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
    out: list[Pos] = []
    for v in order:
        moves = [_move(board, v, w, roads, goal_set, index) for w in reach[v]]
        need = np.zeros(NR, np.int64)
        for move in moves:
            after = np.zeros(NR, np.int64) if move.target < 0 else out[move.target].need
            paid = np.zeros(NR, np.int64)
            if move.resource >= 0:
                paid[move.resource] = move.cards
            elif move.resource == GOLD:
                paid[:] = move.cards
            need = np.maximum(need, after + paid)
        desert = board.tiles[v].terrain is Terrain.DESERT
        out.append(Pos(v, dist[v], desert, need, moves=moves))
    return out, index.get(start, -1)


def _move(
    board: Board,
    v: Hex,
    w: Hex,
    roads: frozenset[Edge],
    goal_set: set[Hex],
    index: Mapping[Hex, int],
) -> Move:
    """The move from ``v`` into ``w``: its target position and what it costs."""
    cost = entry_cost(board.tiles[w], edge(v, w) in roads)
    if cost.cards == 0:
        res = FREE
    elif cost.resource is None:
        res = GOLD
    else:
        res = RESOURCES.index(cost.resource)
    desert = board.tiles[v].terrain is Terrain.DESERT
    p = desert_exit_probability(board.tiles[w]) if desert else Fraction(1)
    target = -1 if w in goal_set else index[w]
    return Move(target, w, cost.cards, res, p)


def card_vector(cards: Mapping[Resource, int] | None) -> npt.NDArray[np.int64]:
    """Cards per resource as a vector (``RESOURCES`` order)."""
    out = np.zeros(NR, np.int64)
    for r, n in (cards or {}).items():
        out[RESOURCES.index(r)] = n
    return out


def card_names(vec: npt.NDArray[np.int64]) -> dict[str, int]:
    """A card vector by resource name, the resources held only."""
    return {RESOURCES[j].value: int(vec[j]) for j in range(NR) if vec[j]}


def wild_best(game: Game, pos: Pos) -> list[npt.NDArray[np.int64]]:
    """``out[k][x]``: the grid state the best choice of k gold cards' resources leads to."""
    if pos.wild is not None:
        return pos.wild
    most = int(max(game.gold)) * game.players if any(game.gold) else 0
    out = [np.arange(pos.size)]
    grid = pos.grid()
    for k in range(1, most + 1):
        comps = compositions(k, range(NR))
        idx = pos.flat(grid[:, None, :] + comps[None, :, :])
        out.append(idx[np.arange(pos.size), pos.value[idx].argmin(axis=1)])
    pos.wild = out
    return out
