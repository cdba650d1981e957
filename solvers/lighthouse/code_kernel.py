"""Lighthouses: greedy play's values of one layer of lighthouse codes (the code kernel).

Implements docs/lighthouse.md ("Greedy play, layer by layer"; seed
000_aeb701e368f40145.txt): greedy play breaks ties by island order, so its values
are computed per lighthouse code, from the two layers above. A numba version,
compiled and run in parallel over a layer, and a NumPy one (the fallback without
numba and for Fractions), operation for operation the same; the policy's ranks and
order rule are policies.py's.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from isles.solvers.compiled import compiled, in_parallel
from isles.solvers.lighthouse.codes import DISCS, TRANS
from isles.solvers.lighthouse.kernel import (
    BOAT_AND_COLOUR,
    BOAT_ONLY,
    Backend,
    RollTable,
    numpy_within,
    pick_backend,
    put,
    within_card,
)
from isles.solvers.lighthouse.policies import greedy_bonus_rank, greedy_lay_rank, greedy_swaps

__all__ = ["NO_RANK", "greedy_kernel", "greedy_layer", "greedy_tables"]


def greedy_layer(
    codes: npt.NDArray[np.int64],
    position: npt.NDArray[np.int32],
    colour_side: npt.NDArray[np.int64],
    rolls: RollTable,
    v_next: npt.NDArray[Any],
    v_after: npt.NDArray[Any],
    v_out: npt.NDArray[Any],
    n: int,
    backend: Backend = "auto",
) -> None:
    """Fill ``v_out`` with greedy play's values of the lighthouse codes of one layer.

    Parameters
    ----------
    codes : ndarray of int64
        The codes with ``d`` discs laid (``d < 4n``), increasing.
    position : ndarray of int32, shape (8**n,)
        Each code's row in its layer's value table.
    colour_side : ndarray, shape (colours, n)
        0 / 1 when colour ``c`` is island ``i``'s first / second colour, else -1
        (the island colours only; the roll table's null index is any other).
    rolls : RollTable
        The roll outcomes, colours as indices into the island colours.
    v_next, v_after : ndarray, shape (N', E), (N'', E)
        Greedy values of the codes with ``d + 1`` and ``d + 2`` discs laid.
    v_out : ndarray, shape (N, E)
        Filled with the values of ``codes`` (float64, or object for Fractions).
    n : int
        Islands.
    backend : {"auto", "numba", "numpy"}
        ``auto`` is numba when installed and the values are floats.

    Raises
    ------
    InvalidInput
        ``numba`` without numba or with Fractions.

    Notes
    -----
    Greedy play breaks ties by island order, so codes cannot be merged by the
    colour group or pooled (its bonus goes to the first of the nearly full
    lighthouses, whatever colour that one needs): one row per code. Its choices
    for a roll make a single position, so a layer reads the values of the two
    layers above directly (a turn lays at most two discs, or one and the
    bonus) and needs no one-more-disc table (docs/lighthouse.md, "Greedy play,
    layer by layer").
    """
    use = pick_backend(backend, v_out.dtype)
    if use == "numba":
        lay_after, lay_rank, bonus_after, bonus_rank = greedy_tables(colour_side)

        def body(lo: int, hi: int) -> None:
            greedy_kernel(
                lo,
                hi,
                codes,
                position,
                lay_after,
                lay_rank,
                bonus_after,
                bonus_rank,
                rolls.kind,
                rolls.first,
                rolls.second,
                rolls.probability,
                v_next,
                v_after,
                n,
                v_out,
            )

        in_parallel(codes.size, body, grain=4096)
        return
    _numpy_greedy(codes, position, colour_side, rolls, v_next, v_after, v_out, n)


NO_RANK = -(1 << 40)
"""The rank of a lighthouse that cannot take the disc (below every greedy rank)."""


def greedy_tables(
    colour_side: npt.NDArray[np.int64],
) -> tuple[
    npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]
]:
    """Greedy's choices as tables over (colour, island, state) for the compiled kernel.

    Returns ``lay_after[c, i, s]`` (the state after a disc of colour ``c`` on
    island ``i`` in state ``s``, -1 when it cannot take it; the last colour is
    the null one), ``lay_rank[c, i, s]`` (:func:`greedy_lay_rank`, or
    :data:`NO_RANK`), and the same for the bonus disc over the island's
    colours, ``bonus_after[i, side, s]`` and ``bonus_rank[i, side, s]``
    (:func:`greedy_bonus_rank`).

    Examples
    --------
    >>> side = np.array([[0, -1], [1, 0], [-1, 1]])  # red (0, -), blue (1, 0), green (-, 1)
    >>> lay_after, lay_rank, _, _ = greedy_tables(side)
    >>> int(lay_after[1, 0, 0]), int(lay_after[1, 1, 1])  # blue: on an empty red-blue; on blue
    (2, -1)
    """
    colours, n = colour_side.shape
    states = np.arange(DISCS.size)
    lay_after = np.full((colours + 1, n, states.size), -1, dtype=np.int64)
    lay_rank = np.full((colours + 1, n, states.size), NO_RANK, dtype=np.int64)
    for c in range(colours):
        for i in range(n):
            side = int(colour_side[c, i])
            if side < 0:
                continue
            after = TRANS[states, side]
            lay_after[c, i] = after
            lay_rank[c, i] = np.where(after >= 0, greedy_lay_rank(DISCS[states], i), NO_RANK)
    bonus_after = np.full((n, 2, states.size), -1, dtype=np.int64)
    bonus_rank = np.full((n, 2, states.size), NO_RANK, dtype=np.int64)
    for i in range(n):
        for side in (0, 1):
            after = TRANS[states, side]
            bonus_after[i, side] = after
            bonus_rank[i, side] = np.where(
                after >= 0, greedy_bonus_rank(DISCS[states], i, side), NO_RANK
            )
    return lay_after, lay_rank, bonus_after, bonus_rank


def _best_two(ranks: Any, states: Any, top: Any) -> None:  # pragma: no cover - numba
    """The two islands of highest rank ``ranks[i, states[i]]`` into ``top`` (-1: none)."""
    r1 = NO_RANK
    r2 = NO_RANK
    i1 = -1
    i2 = -1
    for i in range(states.size):
        r = ranks[i, states[i]]
        if r > r1:
            r2, i2 = r1, i1
            r1, i1 = r, i
        elif r > r2:
            r2, i2 = r, i
    top[0] = i1 if r1 > NO_RANK else -1
    top[1] = i2 if r2 > NO_RANK else -1


def _bonus_best(bonus_rank: Any, i: int, state: int) -> Any:  # pragma: no cover - numba
    """(rank, side) of the best bonus disc on island ``i`` in ``state``."""
    r0 = bonus_rank[i, 0, state]
    r1 = bonus_rank[i, 1, state]
    return (r0, 0) if r0 >= r1 else (r1, 1)


# This loop must stay whole: greedy play's hot loop, once per lighthouse code (16.8 M for
# 8 islands); even its per-code set-up in a compiled function of its own cost 3-5% more CPU
# (7 islands, 12 alternating runs, the same floats).
def _greedy_loop(  # pragma: no cover - compiled by numba
    lo: int,
    hi: int,
    codes: Any,
    position: Any,
    lay_after: Any,
    lay_rank: Any,
    bonus_after: Any,
    bonus_rank: Any,
    kind: Any,
    first: Any,
    second: Any,
    prob: Any,
    v_next: Any,
    v_after: Any,
    n: int,
    v_out: Any,
) -> None:
    width = v_out.shape[1]
    boats = width // n
    slots = lay_rank.shape[0]  # the island colours and the null one
    states = np.empty(n, dtype=np.int64)
    acc = np.empty(width)
    # top[c]: greedy's best and second-best island for a disc of colour c.
    top = np.empty((slots, 2), dtype=np.int64)
    # The best bonus island by its best side, and the second (over islands).
    island_rank = np.empty(n, dtype=np.int64)
    chain = np.empty(n)
    for j in range(lo, hi):
        code = codes[j]
        for i in range(n):
            states[i] = (code >> (3 * i)) & 7
        for c in range(slots):
            _best_two(lay_rank[c], states, top[c])
        b1 = -1
        b2 = -1
        for i in range(n):
            island_rank[i], _ = _bonus_best(bonus_rank, i, states[i])
            if b1 < 0 or island_rank[i] > island_rank[b1]:
                b2 = b1
                b1 = i
            elif b2 < 0 or island_rank[i] > island_rank[b2]:
                b2 = i
        _, side = _bonus_best(bonus_rank, b1, states[b1])
        home = v_next[
            position[code + ((bonus_after[b1, side, states[b1]] - states[b1]) << (3 * b1))]
        ]
        for e in range(width):
            acc[e] = 0.0
        q0 = 0.0
        q1 = 0.0
        q2 = 0.0
        for r in range(kind.size):
            p = prob[r]
            if kind[r] == 0:
                q0 += p
                continue
            if kind[r] == 1:
                c = first[r]
                ic = top[c, 0]
                if ic < 0:
                    q1 += p
                    continue
                one = code + ((lay_after[c, ic, states[ic]] - states[ic]) << (3 * ic))
                row = v_next[position[one]]
                for e in range(width - n):
                    acc[e] += p * row[n + e]
                continue
            u, v = first[r], second[r]
            cu, cv = top[u, 0] >= 0, top[v, 0] >= 0
            if not (cu or cv):
                q2 += p
                continue
            x, y = (v, u) if _swaps(cu, cv) else (u, v)
            # x is laid (greedy puts a disc that can be laid first), on island ix; then y.
            ix = top[x, 0]
            sx = lay_after[x, ix, states[ix]]
            one = code + ((sx - states[ix]) << (3 * ix))
            # Greedy's island for y after x: the best other island, or ix in its new state.
            other = top[y, 0] if top[y, 0] != ix else top[y, 1]
            iy = ix
            if other >= 0 and lay_rank[y, other, states[other]] > lay_rank[y, ix, sx]:
                iy = other
            before = sx if iy == ix else states[iy]
            if lay_rank[y, iy, before] > NO_RANK:
                two = one + ((lay_after[y, iy, before] - before) << (3 * iy))
                put(acc, v_after[position[two]], 0, p, 3)
                continue
            # y goes back: Maurice walks one from the position after x, and where his
            # walk reaches his island, the bonus after x (none if x finished the game).
            row = v_next[position[one]]
            last = row
            other = b1 if b1 != ix else b2
            rank_x, side_x = _bonus_best(bonus_rank, ix, sx)
            ib, sb = ix, side_x
            if other >= 0:
                rank_o, side_o = _bonus_best(bonus_rank, other, states[other])
                if rank_o > rank_x:
                    ib, sb = other, side_o
            before = sx if ib == ix else states[ib]
            if bonus_rank[ib, sb, before] > NO_RANK:
                last = v_after[position[one + ((bonus_after[ib, sb, before] - before) << (3 * ib))]]
            for b in range(boats):
                for m in range(n - 1):
                    acc[b * n + m] += p * row[b * n + m + 1]
                acc[b * n + n - 1] += p * last[b * n]
        within_card(v_out[j], acc, home, q0, q1, q2, n, chain)


class _GreedyMoves:
    """Greedy's choices for NumPy, vectorised over codes: where a disc goes, where the bonus."""

    def __init__(self, colour_side: npt.NDArray[np.int64], n: int) -> None:
        self.colour_side = colour_side
        self.colours = colour_side.shape[0]
        self.n = n
        self.power = 8 ** np.arange(n, dtype=np.int64)

    def states_of(self, code: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """Each lighthouse's state in each code (rows: codes)."""
        return (code[:, None] // self.power[None, :]) % 8

    def place(self, st: npt.NDArray[np.int64], colour: int) -> npt.NDArray[np.int64]:
        """Greedy's code after a disc of ``colour`` on positions ``st``, -1 where none takes it."""
        best_rank = np.full(st.shape[0], -(1 << 30), dtype=np.int64)
        out = np.full(st.shape[0], -1, dtype=np.int64)
        if colour >= self.colours:
            return out
        code = (st * self.power).sum(axis=1)
        for i in range(self.n):
            side = self.colour_side[colour, i]
            if side < 0:
                continue
            t = TRANS[st[:, i], side]
            rank = greedy_lay_rank(DISCS[st[:, i]], i)
            better = (t >= 0) & (rank > best_rank)
            best_rank[better] = rank[better]
            out[better] = code[better] + (t[better] - st[better, i]) * self.power[i]
        return out

    def bonus(self, st: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """Greedy's code after the bonus disc on positions ``st``, -1 where none takes it."""
        best_rank = np.full(st.shape[0], -(1 << 30), dtype=np.int64)
        out = np.full(st.shape[0], -1, dtype=np.int64)
        code = (st * self.power).sum(axis=1)
        for i in range(self.n):
            for side in range(2):
                t = TRANS[st[:, i], side]
                rank = greedy_bonus_rank(DISCS[st[:, i]], i, side)
                better = (t >= 0) & (rank > best_rank)
                best_rank[better] = rank[better]
                out[better] = code[better] + (t[better] - st[better, i]) * self.power[i]
        return out


def _numpy_two_colours(
    moves: _GreedyMoves,
    lay: list[npt.NDArray[np.int64]],
    u: int,
    v: int,
    position: npt.NDArray[np.int32],
    v_next: npt.NDArray[Any],
    v_after: npt.NDArray[Any],
    acc: npt.NDArray[Any],
    prob: Any,
) -> npt.NDArray[np.bool_]:
    """Add a roll of two colours (u, v) to ``acc``; return where neither can be laid."""
    size, width = acc.shape
    n = moves.n
    boats = width // n
    nowhere = np.full(size, -1, dtype=np.int64)
    lu = lay[u] if u < moves.colours else nowhere
    lv = lay[v] if v < moves.colours else nowhere
    cu, cv = lu >= 0, lv >= 0
    swap = greedy_swaps(cu, cv)
    for rows, x_code, y in (
        (np.flatnonzero(cu & ~swap), lu, v),
        (np.flatnonzero(swap), lv, u),
    ):
        if rows.size == 0:
            continue
        one = x_code[rows]
        two = moves.place(moves.states_of(one), y)
        done = two >= 0
        acc[rows[done]] += prob * v_after[position[two[done]]]
        back = rows[~done]
        if back.size:
            row = v_next[position[one[~done]]].reshape(back.size, boats, n)
            home_code = moves.bonus(moves.states_of(one[~done]))
            extra = row.copy()  # x finished the last lighthouse: won whatever y does
            went = home_code >= 0
            extra[went] = v_after[position[home_code[went]]].reshape(-1, boats, n)
            walked = np.empty((back.size, boats, n), dtype=acc.dtype)
            walked[:, :, : n - 1] = row[:, :, 1:]
            walked[:, :, n - 1] = extra[:, :, 0]
            acc[back] += prob * walked.reshape(back.size, width)
    no_disc: npt.NDArray[np.bool_] = ~(cu | cv)
    return no_disc


def _numpy_greedy(
    codes: npt.NDArray[np.int64],
    position: npt.NDArray[np.int32],
    colour_side: npt.NDArray[np.int64],
    rolls: RollTable,
    v_next: npt.NDArray[Any],
    v_after: npt.NDArray[Any],
    v_out: npt.NDArray[Any],
    n: int,
) -> None:
    """The NumPy code kernel (greedy play), vectorised over the codes of a layer."""
    size, width = codes.size, v_out.shape[1]
    boats = width // n
    exact = v_out.dtype == object
    dtype = v_out.dtype
    zero: Any = Fraction(0) if exact else 0.0
    moves = _GreedyMoves(colour_side, n)
    states = moves.states_of(codes)
    lay = [moves.place(states, c) for c in range(moves.colours)]
    home = v_next[position[moves.bonus(states)]]
    acc = np.zeros((size, width), dtype=dtype)
    if exact:
        acc[...] = zero
    q = [np.zeros(size, dtype=dtype) for _ in range(3)]
    for qk in q:
        qk[...] = zero
    for r in range(rolls.size):
        prob: Any = rolls.exact[r] if exact else float(rolls.probability[r])
        kind, u, v = int(rolls.kind[r]), int(rolls.first[r]), int(rolls.second[r])
        if kind == BOAT_ONLY:
            q[0] += prob
        elif kind == BOAT_AND_COLOUR:
            target = lay[u] if u < moves.colours else np.full(size, -1, dtype=np.int64)
            rows = np.flatnonzero(target >= 0)
            acc[rows, : width - n] += prob * v_next[position[target[rows]], n:]
            q[1][target < 0] += prob
        else:
            none = _numpy_two_colours(moves, lay, u, v, position, v_next, v_after, acc, prob)
            q[2][none] += prob
    shape = (size, boats, n)
    numpy_within(v_out.reshape(shape), acc.reshape(shape), home.reshape(shape), q, zero)


# --- compiled versions --------------------------------------------------------------------------

# The policies' order rule, compiled for the greedy kernel (its ranks come as tables built
# from the policies' rank functions: greedy_tables).
_swaps = compiled(greedy_swaps)
_best_two = compiled(_best_two)
_bonus_best = compiled(_bonus_best)
greedy_kernel = compiled(_greedy_loop)
"""The code kernel compiled (numba's dispatcher; ``_greedy_loop`` itself without numba)."""
