"""Plunder: how many deals give each answer vector to a clue, for a few clues at once.

Implements docs/plunder.md ("Answer vectors with the unnamed values lumped";
seed ``seeds/003_cfc377110defcf34.txt``): the forward pass over players of
"How the posterior is computed", carrying one column per answer prefix, where
the values of a category that no clue of the record (nor my code, nor the clues
asked about) names are one class: the state counts how many of them are used,
not which. Flip advice asks for up to 16 clues; those differing in one deck are
counted in one pass.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from isles.models.plunder.codes import CATEGORIES, VALUES, Code
from isles.models.plunder.record import Record

__all__ = ["answer_counts", "named_values"]

IntArray = npt.NDArray[np.int64]

_ELEMENTS_PER_STEP = 1 << 21
"""Most int64 numbers (16 MiB) the moves of one layer hold at once: more clues than
fit are moved a few at a time (only a record naming nearly every value comes near)."""


def named_values(record: Record) -> tuple[frozenset[int], ...]:
    """Per category, the values a clue of the record or my code names.

    The other values of a category are interchangeable: no answer and no
    allowed code tells them apart.

    Parameters
    ----------
    record : Record
        The record.

    Returns
    -------
    tuple of frozenset of int
        One set per category (island, marker, trap).

    Notes
    -----
    Whether a player may hold a code depends on its values only through
    which clue values (and which of my values) they equal. docs/plunder.md,
    "Answer vectors with the unnamed values lumped"; seed
    ``seeds/003_cfc377110defcf34.txt``.

    Examples
    --------
    >>> from isles.models.plunder.record import Observation
    >>> named_values(Record(2, (Observation(0, Code(1, 2, 2), {1: True}),)))
    (frozenset({1}), frozenset({2}), frozenset({2}))
    """
    named: list[set[int]] = [set() for _ in CATEGORIES]
    codes = [o.clue for o in record.observations]
    if record.me is not None:
        codes.append(record.me.code)
    for code in codes:
        for k, v in enumerate(code.values):
            named[k].add(v)
    return tuple(frozenset(s) for s in named)


# -- per category: states and moves ---------------------------------------------


@dataclass(frozen=True)
class _CategoryLayer:
    """One category from k players placed to k + 1, ``singles`` values apart.

    A state is ``(mask, r)``: which of the singled-out values are used (a bit
    each) and how many of the ``6 - singles`` others. A move adds one value of
    a class (a singled-out value, or class ``singles``: any unused other one,
    in ``6 - singles - r`` ways). Moves are sorted by class: class j's are
    ``first[j] .. first[j] + count[j] - 1``.
    """

    states: int  # states with k players placed
    next_states: int  # with k + 1
    src: IntArray
    dst: IntArray
    ways: IntArray
    first: IntArray
    count: IntArray


@cache
def _category_states(singles: int, k: int) -> dict[tuple[int, int], int]:
    others = VALUES - singles
    out: dict[tuple[int, int], int] = {}
    for mask in range(1 << singles):
        r = k - mask.bit_count()
        if 0 <= r <= others:
            out[(mask, r)] = len(out)
    return out


@cache
def _category_layer(singles: int, k: int) -> _CategoryLayer:
    others = VALUES - singles
    here, there = _category_states(singles, k), _category_states(singles, k + 1)
    moves = []
    for (mask, r), i in here.items():
        for j in range(singles):
            if not mask >> j & 1:
                moves.append((j, i, there[(mask | 1 << j, r)], 1))
        if r < others:
            moves.append((singles, i, there[(mask, r + 1)], others - r))
    moves.sort()
    cls, src, dst, ways = np.array(moves, dtype=np.int64).reshape(len(moves), 4).T
    count = np.bincount(cls, minlength=_classes(singles))
    first = np.concatenate(([0], np.cumsum(count)[:-1]))
    return _CategoryLayer(len(here), len(there), src, dst, ways, first, count)


def _classes(singles: int) -> int:
    return singles + (singles < VALUES)


# -- the three categories together ------------------------------------------------


def _moves(
    singles: tuple[int, int, int], k: int, classes: IntArray
) -> tuple[int, IntArray, IntArray, IntArray, IntArray]:
    """Player k's moves with a code of one of ``classes`` (class triples,
    ``(island * n_marker + marker) * n_trap + trap``): the number of states
    after, and per move its source state, class triple, target state and ways."""
    ci, cm, ct = (_category_layer(s, k) for s in singles)
    n_m, n_t = _classes(singles[1]), _classes(singles[2])
    ji, jm, jt = classes // (n_m * n_t), classes // n_t % n_m, classes % n_t
    ni, nm, nt = ci.count[ji], cm.count[jm], ct.count[jt]
    size = ni * nm * nt
    # The moves of each class triple: every move of its island class, times its
    # marker class's, times its trap class's (a ragged Cartesian product).
    which = np.repeat(np.arange(len(classes)), size)
    offset = np.arange(int(size.sum())) - np.repeat(np.cumsum(size) - size, size)
    plane = (nm * nt)[which]
    row = nt[which]
    a = ci.first[ji][which] + offset // plane
    b = cm.first[jm][which] + offset % plane // row
    c = ct.first[jt][which] + offset % row
    src = (ci.src[a] * cm.states + cm.src[b]) * ct.states + ct.src[c]
    dst = (ci.dst[a] * cm.next_states + cm.dst[b]) * ct.next_states + ct.dst[c]
    ways = ci.ways[a] * cm.ways[b] * ct.ways[c]
    after = ci.next_states * cm.next_states * ct.next_states
    return after, src, classes[which], dst, ways


def _pass(
    weights: IntArray, hits: npt.NDArray[np.bool_], active: int, singles: tuple[int, int, int]
) -> IntArray:
    """Deals per (clue, answer vector): weights (players, classes), hits (clues, classes)."""
    clues = len(hits)
    f = np.ones((1, clues, 1), dtype=np.int64)  # (states, clues, answer prefixes)
    for k in range(len(weights)):
        after, src, cls, dst, ways = _moves(singles, k, np.flatnonzero(weights[k]))
        alive: npt.NDArray[np.bool_] = np.asarray(f.any(axis=(1, 2)))
        keep = np.flatnonzero(alive[src])
        if not len(keep):  # no deal
            return np.zeros((clues, 1 << (len(weights) - 1)), dtype=np.int64)
        order = keep[np.argsort(dst[keep], kind="stable")]
        src, cls, dst, ways = src[order], cls[order], dst[order], ways[order]
        yes = None if k == active else hits[:, cls].T * ways[:, None]  # (moves, clues)
        starts = np.flatnonzero(np.concatenate(([True], dst[1:] != dst[:-1])))
        columns = f.shape[2] * (1 if yes is None else 2)
        g = np.zeros((after, clues, columns), dtype=np.int64)
        step = max(1, _ELEMENTS_PER_STEP // (len(order) * columns))
        for lo in range(0, clues, step):
            head = f[src, lo : lo + step]  # (moves, clues in this step, prefixes)
            if yes is None:
                moved = head * ways[:, None, None]
            else:
                y = yes[:, lo : lo + step, None]
                # Answer-vector index: bit j is the answer of the j-th answerer.
                moved = np.concatenate([head * (ways[:, None, None] - y), head * y], axis=2)
            g[dst[starts], lo : lo + step] = np.add.reduceat(moved, starts, axis=0)
        f = g
    total: IntArray = f.sum(axis=0)
    return total


def answer_counts(
    allowed: IntArray,
    named: Sequence[frozenset[int]],
    active: int,
    clues: Sequence[Code],
) -> IntArray:
    """Deals per answer vector for each clue, in one pass per group of clues.

    Parameters
    ----------
    allowed : numpy.ndarray
        ``(players, 216)`` 0/1: the codes each player may hold on their own
        (:func:`isles.solvers.plunder.counting.allowed_codes`).
    named : three frozensets of int
        Per category, every value that tells allowed codes apart: at least the
        values of every clue behind ``allowed`` and of my code
        (:func:`named_values`).
    active : int
        The player who does not answer (0 .. players - 1).
    clues : sequence of Code
        The clues asked about.

    Returns
    -------
    numpy.ndarray
        ``(len(clues), 2 ** (players - 1))`` int64: the deals giving each
        answer vector, bit j of the index being the answer of the j-th
        answering player (in player order).

    Notes
    -----
    Values that ``named`` leaves out are interchangeable: a clue is counted
    as the one with each such value replaced by the smallest of them (the
    same counts, by the permutation of values swapping the two), and a
    category's state in the pass over players is which singled-out values are
    used and how many of the others. Clues that differ in one category share
    a pass, that category singling out every value they use. With ``u``
    values singled out a category has at most ``2**u * (7 - u)`` states over
    all layers, against ``2**6``; a layer's moves are built only from the
    codes the player may hold and the states some partial deal reaches.
    Counts are int64, exact (at most ``720**3``). Grouping interchangeable
    values into one class with a count is the lumping of states of [1]_,
    applied to the pass over players. docs/plunder.md, "Answer vectors with
    the unnamed values lumped"; seed ``seeds/003_cfc377110defcf34.txt``.

    References
    ----------
    .. [1] J. G. Kemeny, J. L. Snell, "Finite Markov Chains", Van Nostrand,
       1960, section 6.3 (lumpable processes).

    Examples
    --------
    >>> from isles.solvers.plunder.counting import allowed_codes
    >>> r = Record(2)
    >>> answer_counts(allowed_codes(r), named_values(r), 0, [Code(0, 0, 0)]).tolist()
    [[15625, 11375]]
    """
    spare = [sorted(set(range(VALUES)) - named[k]) for k in range(3)]
    canon = [
        tuple(v if v in named[k] else spare[k][0] for k, v in enumerate(c.values)) for c in clues
    ]
    unique = list(dict.fromkeys(canon))
    counts = np.zeros((len(unique), 1 << (len(allowed) - 1)), dtype=np.int64)
    for group in _groups(unique):
        singles = [set(named[k]) | {unique[i][k] for i in group} for k in range(3)]
        for s in singles:
            if len(s) == VALUES - 1:  # one other value: single it out (fewer layer shapes)
                s |= set(range(VALUES)) - s
        values = [sorted(s) for s in singles]
        shape = (len(values[0]), len(values[1]), len(values[2]))
        # Each class's code: a singled-out value, or the smallest of the others.
        reps = [[*v, min(set(range(VALUES)) - set(v))] if len(v) < VALUES else v for v in values]
        isl, mrk, trp = np.meshgrid(*(np.array(r) for r in reps), indexing="ij")
        weights = np.ascontiguousarray(
            allowed[:, ((isl * VALUES + mrk) * VALUES + trp).ravel()], dtype=np.int64
        )
        grid = np.meshgrid(*(np.arange(len(r)) for r in reps), indexing="ij")
        hits = np.array(
            [
                np.logical_or.reduce(
                    [grid[k].ravel() == values[k].index(unique[i][k]) for k in range(3)]
                )
                for i in group
            ]
        )
        counts[group] = _pass(weights, hits, active, shape)
    index = {c: i for i, c in enumerate(unique)}
    out: IntArray = counts[[index[c] for c in canon]]
    return out


def _groups(clues: Sequence[tuple[int, ...]]) -> list[list[int]]:
    """Clues grouped so that the clues of a group differ in one category at most."""
    groups: list[list[int]] = []
    for i in range(len(clues)):
        for g in groups:
            if _differ(clues, [*g, i]) <= 1:
                g.append(i)
                break
        else:
            groups.append([i])
    return groups


def _differ(clues: Sequence[tuple[int, ...]], group: Sequence[int]) -> int:
    """In how many categories the clues of ``group`` do not all agree."""
    return sum(len({clues[i][k] for i in group}) > 1 for k in range(3))
