"""Plunder: the exact posterior, by counting deals over the sets of used values.

Implements docs/plunder.md ("How the posterior is computed"; seed
``seeds/003_cfc377110defcf34.txt``): the codes each player may hold on their own,
then a forward and a backward pass over players whose state is the values used per
category, exact in int64, never enumerating deals.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt
from scipy import sparse

from isles.models.errors import expect
from isles.models.plunder.codes import CODES, VALUES, Code
from isles.models.plunder.record import Record
from isles.solvers.plunder.posterior import CODE_VALUES, Posterior

__all__ = ["allowed_codes", "posterior"]

IntArray = npt.NDArray[np.int64]


def _hits(clue: Code) -> npt.NDArray[np.bool_]:
    """Which of the 216 codes answer yes to ``clue``."""
    hit: npt.NDArray[np.bool_] = (
        (CODE_VALUES[0] == clue.island)
        | (CODE_VALUES[1] == clue.marker)
        | (CODE_VALUES[2] == clue.trap)
    )
    return hit


def allowed_codes(record: Record) -> IntArray:
    """The codes each player may hold on their own, as a 0/1 array.

    A code is allowed for a player when it agrees with that player's answers
    (and equals my code, for me). Distinctness between players is not applied.

    Parameters
    ----------
    record : Record
        The record.

    Returns
    -------
    numpy.ndarray
        Shape ``(players, 216)``, dtype int64; column ``c`` is the code of
        index ``c`` (``Code.index``).

    Examples
    --------
    >>> from isles.models.plunder.record import Observation
    >>> r = Record(2, (Observation(0, Code(0, 0, 0), {1: False}),))
    >>> allowed_codes(r).sum(axis=1).tolist()
    [216, 125]
    """
    w = np.ones((record.players, CODES), dtype=np.int64)
    if record.me is not None:
        w[record.me.player] = 0
        w[record.me.player, record.me.code.index] = 1
    for obs in record.observations:
        hit = _hits(obs.clue)
        for p, a in obs.answers.items():
            w[p] &= hit if a else ~hit
    return w


# -- counting deals: dynamic programming over the sets of used values ------------


@dataclass(frozen=True)
class _Layer:
    """Transitions from players 0..k-1 placed to players 0..k placed.

    A state is the triple of sets of used values (island, marker, trap), each a
    k-subset of 0..5, indexed compactly. Each edge adds one code whose values
    are all unused. The sparse 0/1 matrices sum edge values into the target
    state, the source state or the code.
    """

    src: IntArray
    dst: IntArray
    code: IntArray
    to_dst: sparse.csr_matrix
    to_src: sparse.csr_matrix
    to_code: sparse.csr_matrix


@cache
def _layer(k: int) -> _Layer:
    masks = [m for m in range(1 << VALUES) if m.bit_count() == k]
    masks_next = [m for m in range(1 << VALUES) if m.bit_count() == k + 1]
    pos_next = {m: i for i, m in enumerate(masks_next)}
    pairs = np.array(
        [
            (i, v, pos_next[m | 1 << v])
            for i, m in enumerate(masks)
            for v in range(VALUES)
            if not m >> v & 1
        ],
        dtype=np.int64,
    )
    q = len(pairs)
    a, b, c = (g.ravel() for g in np.meshgrid(*(np.arange(q),) * 3, indexing="ij"))
    n, n_next = len(masks), len(masks_next)
    src = (pairs[a, 0] * n + pairs[b, 0]) * n + pairs[c, 0]
    code = (pairs[a, 1] * VALUES + pairs[b, 1]) * VALUES + pairs[c, 1]
    dst = (pairs[a, 2] * n_next + pairs[b, 2]) * n_next + pairs[c, 2]
    edges = np.arange(len(src))
    ones = np.ones(len(src), dtype=np.int64)

    def incidence(rows: IntArray, size: int) -> sparse.csr_matrix:
        return sparse.csr_matrix((ones, (rows, edges)), shape=(size, len(src)))

    return _Layer(
        src,
        dst,
        code,
        incidence(dst, n_next**3),
        incidence(src, n**3),
        incidence(code, CODES),
    )


def _forward(w: IntArray) -> list[IntArray]:
    """``f[k][s]``: ways to give players 0..k-1 allowed codes using exactly state s."""
    f = [np.ones(1, dtype=np.int64)]
    for k in range(len(w)):
        lay = _layer(k)
        f.append(np.asarray(lay.to_dst @ (f[k][lay.src] * w[k][lay.code]), dtype=np.int64))
    return f


def _backward(w: IntArray) -> list[IntArray]:
    """``b[k][s]``: ways to give players k..n-1 allowed codes after state s."""
    n = len(w)
    b: list[IntArray] = [np.zeros(0, dtype=np.int64)] * n
    b.append(np.ones(_layer(n - 1).to_dst.shape[0], dtype=np.int64))
    for k in range(n - 1, -1, -1):
        lay = _layer(k)
        b[k] = np.asarray(lay.to_src @ (w[k][lay.code] * b[k + 1][lay.dst]), dtype=np.int64)
    return b


def posterior(record: Record) -> Posterior:
    """Count the consistent deals and the deals giving each player each code.

    Parameters
    ----------
    record : Record
        The game record (2..6 players).

    Returns
    -------
    Posterior
        Exact counts; probabilities as Fractions.

    Notes
    -----
    Answers constrain each player's code on its own (216 codes each); only the
    distinctness of cards within a category couples players. A forward and a
    backward pass over players, with state = the sets of used values per
    category (at most C(6,3)**3 = 8000 states), count the deals and, per
    player and code, the deals through that code, without enumerating deals
    (6 players with nothing known have 720**3 = 373,248,000). All arithmetic is
    in int64 on counts at most 720**3, so it is exact. docs/plunder.md, "How
    the posterior is computed".

    Examples
    --------
    >>> posterior(Record(6)).deals
    373248000
    >>> posterior(Record(2)).code_probability(0, Code(1, 2, 3))
    Fraction(1, 216)
    """

    expect(record, Record, "record", "a Record (Record.load reads a file)")
    w = allowed_codes(record)
    f = _forward(w)
    b = _backward(w)
    deals = int(f[-1].sum())
    counts = []
    for k in range(record.players):
        lay = _layer(k)
        through = np.asarray(lay.to_code @ (f[k][lay.src] * b[k + 1][lay.dst]), dtype=np.int64)
        counts.append(tuple(int(x) for x in through * w[k]))
    return Posterior(record.players, deals, tuple(counts))
