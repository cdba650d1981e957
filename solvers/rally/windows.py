"""The window between two decisions of the rally as it is played: the rolls at the table.

Implements docs/rally.md ("The model", "How it is solved"; seed
002_8684547a41c0941c.txt): the hands a hand becomes after the rolls between two
of the owner's turns (income, gold cards still to name, the 7-card rule), each
computed once a process, and a waiting window from many card states at once,
split at one level of a position's grid (its loop in
:mod:`~isles.solvers.rally.kernels`).
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from isles.models.rally.rules import HAND_LIMIT, ROLLS
from isles.solvers.rally.game import NR, ROLL_P, Game, Pos, compositions
from isles.solvers.rally.kernels import window_kernel

__all__ = [
    "Split",
    "Windows",
    "discard_rows",
    "distinct_rows",
    "split",
    "window",
    "window_values",
]

#: A window's table: the owner's income per roll, gold per roll, the rolls, the 7-card rule.
TableKey = tuple[tuple[tuple[int, ...], ...], tuple[int, ...], int, bool]
#: A window: the hands after the rolls (cards (M, 5), gold cards (M,), chance (M,)).
WindowArrays = tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.float64]]


def discard_rows(hands: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
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
    outs[:, seven, 1:] = discard_rows(piles) if discard else piles
    weights = (probs[:, None] * ROLL_P[None, :]).ravel()
    outs = outs.reshape(-1, NR + 2)
    width = int(outs[:, 1:].max()) + 1
    code = outs[:, 1:] @ (width ** np.arange(NR + 1, dtype=np.int64)) + outs[:, 0] * (
        width ** (NR + 1)
    )
    unique, first, inverse = np.unique(code, return_index=True, return_inverse=True)
    merged = np.bincount(inverse.reshape(-1), weights=weights, minlength=len(unique))
    return outs[first], merged.astype(np.float64)


#: The windows computed, by (income, gold, rolls, discard, hand): computed once a process.
_WINDOW_CACHE: dict[tuple[object, ...], WindowArrays] = {}


def _windows_batch(
    income: tuple[tuple[int, ...], ...],
    gold: tuple[int, ...],
    rolls: int,
    discard: bool,
    hands: Sequence[tuple[int, ...]],
) -> None:
    """The windows of many hands at once, into the cache (each as :func:`window` gives it)."""
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
            part[:, 1 : NR + 1].copy(),
            part[:, NR + 1].copy(),
            probs[lo:hi].copy(),
        )


def window(
    income: tuple[tuple[int, ...], ...],
    gold: tuple[int, ...],
    rolls: int,
    discard: bool,
    hand: tuple[int, ...],
) -> WindowArrays:
    """The hand after ``rolls`` rolls from ``hand``: (cards (M, 5), gold cards (M,), prob (M,)).

    The hand has a sixth pile: gold cards whose resource is still to choose.
    """
    key = (income, gold, rolls, discard, hand)
    if key not in _WINDOW_CACHE:
        _windows_batch(income, gold, rolls, discard, [hand])
    return _WINDOW_CACHE[key]


class _Table:
    """Every window computed for one table (income, gold, rolls, 7 rule), concatenated.

    Windows are appended as new hands come (each window's id stays): the rows of
    many calls index one set of arrays, built once, not one concatenation a call.
    """

    def __init__(self, key: TableKey) -> None:
        self.key = key
        self.ids: dict[tuple[int, ...], int] = {}
        self.offsets = np.zeros(1, np.int64)
        self.cards = np.zeros((0, NR), np.int64)
        self.wild = np.zeros(0, np.int64)
        self.probs = np.zeros(0)
        self.comp_offsets = np.array([0, 1], np.int64)
        self.comps = np.zeros((1, NR), np.int64)

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
        tables = [compositions(k, range(NR)) for k in range(most + 1)]
        self.comp_offsets = np.array([0, *itertools.accumulate(len(t) for t in tables)], np.int64)
        self.comps = np.concatenate(tables).astype(np.int64)


_TABLES: dict[TableKey, _Table] = {}


class Windows:
    """The waiting windows of many rows: each row's hand's window, in one table's arrays."""

    def __init__(self, game: Game, rolls: int, hand: npt.NDArray[np.int64]) -> None:
        hand = hand.reshape(-1, NR)
        width = int(hand.max()) + 1 if len(hand) else 1
        code = hand @ (width ** np.arange(NR, dtype=np.int64))  # one number per hand: fast
        _, first, inverse = np.unique(code, return_index=True, return_inverse=True)
        keys = [tuple(int(x) for x in h0) for h0 in hand[first]]
        key: TableKey = (game.income, game.gold, rolls, game.discard)
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

    def rows(self, rows: npt.NDArray[np.int64]) -> Windows:
        """The windows of some of the rows, in their order."""
        sub = copy.copy(self)
        sub.group = self.group[rows]
        return sub


@dataclass
class Split:
    """The waiting window of some rows, split at one level of the position's grid."""

    fixed: npt.NDArray[np.float64]  # the part that leaves the level, summed (inf: dead ends)
    leaves: npt.NDArray[np.bool_]  # a positive chance of a reachable state outside the level
    mass: npt.NDArray[np.float64]  # the chance of staying in the level
    inner: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.float64]]
    gold: tuple[
        npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.float64]
    ]
    distinct: npt.NDArray[np.int64]  # each row's row of ``inner`` (rows alike share one)


def distinct_rows(
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


def split(
    windows: Windows,
    pos: Pos,
    reserve: npt.NDArray[np.int64],
    level: npt.NDArray[np.int64],
    top: int,
    values: npt.NDArray[np.float64],
    spread: bool = True,
) -> Split:
    """The windows from ``reserve`` rows into ``pos``'s grid, split at level ``top``.

    Rows alike (the same reserve, the same hand's window) have the same outcomes:
    each is computed once and copied to its rows, in the order of the rows
    (``spread`` False: the inner outcomes stay listed by distinct row, ``distinct``
    naming each row's).
    """
    kernel = window_kernel()
    reserve = np.ascontiguousarray(reserve, np.int64).reshape(-1, NR)
    first, inverse = distinct_rows(reserve, windows.group)
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
    return Split(fixed, leaves, mass, inner, gold, distinct)


def window_values(
    game: Game,
    pos: Pos,
    rolls: int,
    reserve: npt.NDArray[np.int64],
    hand: npt.NDArray[np.int64],
) -> npt.NDArray[np.float64]:
    """Expected value at the next decision at ``pos`` for end-of-turn (reserve, hand) rows."""
    windows = Windows(game, rolls, hand)
    nowhere = np.zeros(pos.size, np.int64)
    return split(windows, pos, reserve, nowhere, -1, pos.value).fixed
