"""When does a steered ship arrive: the exact odds within a few rolls, the whole distribution.

Implements docs/ships.md ("What the navigator answers"; seed 004_644cf972d8964df4.txt,
rule 6): the absorbing chain of a navigation's steering, iterated in floats or, within
a few rolls, by exact backward induction in integers (the pirate's reach uses it too).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

import numpy as np

from isles.models.errors import InvalidInput
from isles.models.hexgrid import Edge
from isles.models.jsonio import edge_json
from isles.models.ships.limits import MAX_WITHIN, check_count
from isles.models.ships.winds import check_ship_edge
from isles.models.status import Status
from isles.solvers.ships.graph import ROLL_PIPS, BoolArray, IntArray
from isles.solvers.ships.navigation import REACH_ORDER, Navigation, Reach, transition
from isles.solvers.work import Bar, Progress

__all__ = ["Arrival", "arrival_distribution", "arrival_odds", "hit_within"]


@dataclass(frozen=True)
class Arrival:
    """Distribution of the roll on which a ship, steered optimally, reaches the target.

    Attributes
    ----------
    start : Edge
        Where the ship starts.
    reach : Reach
        Of the start; ``pmf`` is empty unless ``reachable``.
    pmf : tuple of float
        ``pmf[t]`` = probability of arriving exactly on roll ``t`` (``t = 0``: it
        starts there).
    tail : float
        Probability of not having arrived after the last roll listed: the
        truncation error of ``pmf`` (at most the ``tolerance`` asked for unless
        the roll cap was hit).

    Examples
    --------
    >>> from isles.models.board import Board
    >>> from isles.models.catan import Terrain, Tile
    >>> from isles.models.hexgrid import edge
    >>> from isles.solvers.ships.navigation import navigate
    >>> b = Board({(0, 0): Tile(Terrain.SEA, 6), (1, 0): Tile(Terrain.SEA),
    ...            (1, -1): Tile(Terrain.SEA)})
    >>> arr = arrival_distribution(navigate(b, [edge((0, 0), (1, -1))]), edge((0, 0), (1, 0)))
    >>> arr.reachable, round(arr.mean(), 6), arr.tail < 1e-12, arr.to_dict()["status"]
    (True, 7.2, True, 'exact')
    """

    start: Edge
    reach: Reach
    pmf: tuple[float, ...]
    tail: float

    @property
    def reachable(self) -> bool:
        """Whether the start is reachable surely (``reach == "reachable"``)."""
        return self.reach is Reach.REACHABLE

    def within(self, rolls: int) -> float:
        """Probability of arriving within ``rolls`` rolls (floats; :func:`arrival_odds` is exact).

        Parameters
        ----------
        rolls : int

        Returns
        -------
        float
        """
        return float(sum(self.pmf[: max(0, rolls) + 1]))

    def mean(self) -> float:
        """Mean arrival roll of the truncated distribution (low by at most the tail's share).

        Returns
        -------
        float
        """
        return float(sum(t * p for t, p in enumerate(self.pmf)))

    def to_dict(self) -> dict[str, Any]:
        """The distribution as plain data (docs/json.md).

        Returns
        -------
        dict
            ``status`` (``exact`` when reachable, else the start's status), ``start``,
            ``reach``, ``pmf`` (floats, roll 0 first) and ``tail`` (the mass not
            listed: the error bound of the truncation).
        """
        return {
            "status": (Status.EXACT if self.reachable else self.reach.status).value,
            "start": edge_json(self.start),
            "reach": self.reach.value,
            "pmf": list(self.pmf),
            "tail": self.tail,
        }


def arrival_distribution(
    nav: Navigation, start: Edge, tolerance: float = 1e-12, max_rolls: int = 100_000
) -> Arrival:
    """The arrival-roll distribution from ``start`` under ``nav``'s optimal steering.

    Iterates the absorbing Markov chain of the steering (one sparse matrix-vector
    product per roll) until the mass not yet arrived is below ``tolerance`` or
    ``max_rolls`` rolls have been made.

    Parameters
    ----------
    nav : Navigation
    start : Edge
        The ship's edge.
    tolerance : float
        Stop when less mass than this has not arrived.
    max_rolls : int
        Stop after this many rolls in any case.

    Returns
    -------
    Arrival
        Empty ``pmf`` and ``tail`` 1 when the start is trapped or unreachable.

    Raises
    ------
    InvalidInput
        If ``start`` is not a ship edge of the board.

    See Also
    --------
    arrival_odds : the exact chance to arrive within a few rolls.

    Examples
    --------
    >>> from isles.models.board import Board
    >>> from isles.models.catan import Terrain, Tile
    >>> from isles.models.hexgrid import edge
    >>> from isles.solvers.ships.navigation import navigate
    >>> b = Board({(0, 0): Tile(Terrain.SEA, 6), (1, 0): Tile(Terrain.SEA),
    ...            (1, -1): Tile(Terrain.SEA)})
    >>> nav = navigate(b, [edge((0, 0), (1, -1))])
    >>> arr = arrival_distribution(nav, edge((0, 0), (1, 0)))
    >>> arr.pmf[:2], round(arr.within(1), 4)
    ((0.0, 0.1388888888888889), 0.1389)
    """
    start = check_ship_edge(nav.graph.board, start, "start")
    i = nav.index(start, "start")
    reach = REACH_ORDER[int(nav.reach_codes[i])]
    if reach is not Reach.REACHABLE:
        return Arrival(start, reach, (), 1.0)
    if start in nav.targets:
        return Arrival(start, reach, (1.0,), 0.0)
    transient = np.flatnonzero((nav.reach_codes == 0) & ~_target_mask(nav))
    local = np.full(len(nav.graph), -1, dtype=np.int64)
    local[transient] = np.arange(len(transient))
    mat, absorbed = transition(nav.choice, transient, local)
    step = mat.T.tocsr()
    x = np.zeros(len(transient))
    x[local[i]] = 1.0
    pmf = [0.0]
    while x.sum() > tolerance and len(pmf) <= max_rolls:
        pmf.append(float(x @ absorbed))
        x = step @ x
    return Arrival(start, reach, tuple(pmf), float(max(0.0, x.sum())))


def _target_mask(nav: Navigation) -> BoolArray:
    """Which edges of ``nav``'s graph are its targets."""
    mask = np.zeros(len(nav.graph), dtype=bool)
    mask[[nav.graph.index[e] for e in nav.targets]] = True
    return mask


def _ball(options: IntArray, start: int, depth: int, stop: BoolArray) -> IntArray:
    """Indices of the edges within ``depth`` moves of ``start`` (no move out of ``stop``)."""
    seen = np.zeros(len(options), dtype=bool)
    seen[start] = True
    frontier = np.array([start], dtype=np.int64)
    for _ in range(depth):
        frontier = frontier[~stop[frontier]]
        nxt = np.unique(options[frontier].reshape(-1))
        nxt = nxt[~seen[nxt]]
        if not len(nxt):
            break
        seen[nxt] = True
        frontier = nxt
    return np.flatnonzero(seen)


def hit_within(
    options: IntArray,
    is_target: BoolArray,
    start: int,
    horizons: Sequence[int],
    pick: Literal["max", "min"],
    progress: Progress = False,
) -> dict[int, Fraction]:
    """Exact chance to stand on a target after at most ``t`` rolls, for each ``t`` in
    ``horizons``, when every choice takes the ``pick`` of the options (one option:
    a fixed steering).

    Backward induction in integers: after ``t`` rolls a value is a numerator over
    ``36**t`` (each roll weighs its pips), so no fraction is reduced on the way.
    Only the edges within ``max(horizons)`` moves of ``start`` take part: values
    outside it are wrong (taken as 0) but reach ``start`` only after more rolls
    than asked.
    """
    if is_target[start]:
        return {t: Fraction(1) for t in horizons}
    depth = max(horizons, default=0)
    ball = _ball(options, start, depth, is_target)
    m = len(ball)
    local = np.full(len(options), m, dtype=np.int64)
    local[ball] = np.arange(m)
    moves = local[options[ball]]  # (m, 11, K); m = outside the ball
    hit = np.flatnonzero(is_target[ball])
    weights = np.array(ROLL_PIPS, dtype=object)
    value = np.zeros(m + 1, dtype=object)
    value[hit] = 1
    s = int(local[start])
    out = {t: Fraction(int(value[s])) for t in horizons if t == 0}
    scale = 1
    with Bar(depth, "exact odds", progress, unit="roll") as bar:
        for t in range(1, depth + 1):
            options_value = value[moves]
            best = options_value.max(axis=2) if pick == "max" else options_value.min(axis=2)
            scale *= 36
            value = np.zeros(m + 1, dtype=object)
            value[:m] = (best * weights).sum(axis=1)
            value[hit] = scale
            if t in horizons:
                out[t] = Fraction(int(value[s]), scale)
            bar.update(1)
    return out


def _check_within(within: object) -> tuple[int, ...]:
    """The horizons asked, each a roll count in 0..MAX_WITHIN, sorted without repeats."""
    if isinstance(within, str | bytes) or not isinstance(within, Iterable):
        raise InvalidInput("within", within, f"a list of roll counts in 0..{MAX_WITHIN}")
    return tuple(sorted({check_count(k, f"within[{i}]", MAX_WITHIN) for i, k in enumerate(within)}))


def arrival_odds(
    nav: Navigation, start: Edge, within: Iterable[int], progress: Progress = False
) -> dict[int, Fraction]:
    """Exact chance to reach the target within ``k`` rolls, for each ``k`` in ``within``.

    For a reachable start: under ``nav``'s optimal steering (the one :func:`isles.ships.sail`
    advises). For a trapped start (no steering arrives surely, so none minimises
    the expected rolls): the best chance any steering has within ``k`` rolls,
    for each ``k`` on its own. For an unreachable start: 0.

    Parameters
    ----------
    nav : Navigation
    start : Edge
        The ship's edge.
    within : iterable of int
        Horizons in rolls, each in 0..MAX_WITHIN (the exact numbers have about
        ``1.6 k`` digits).
    progress : bool, None or callable
        A bar over the rolls (:data:`isles.solvers.work.Progress`).

    Returns
    -------
    dict of int to Fraction
        Sorted by horizon.

    Raises
    ------
    InvalidInput
        If ``start`` is not a ship edge of the board or a horizon is out of range.

    Notes
    -----
    Backward induction over the edges within ``max(within)`` moves of the start,
    with integer numerators over ``36**k``: exact, ``O(k * edges near the start)``
    big-integer operations.

    Examples
    --------
    >>> from isles.models.board import Board
    >>> from isles.models.catan import Terrain, Tile
    >>> from isles.models.hexgrid import edge
    >>> from isles.solvers.ships.navigation import navigate
    >>> b = Board({(0, 0): Tile(Terrain.SEA, 6), (1, 0): Tile(Terrain.SEA),
    ...            (1, -1): Tile(Terrain.SEA)})
    >>> nav = navigate(b, [edge((0, 0), (1, -1))])
    >>> arrival_odds(nav, edge((0, 0), (1, 0)), [1, 2])
    {1: Fraction(5, 36), 2: Fraction(335, 1296)}
    """
    horizons = _check_within(within)
    start = check_ship_edge(nav.graph.board, start, "start")
    i = nav.index(start, "start")
    reach = REACH_ORDER[int(nav.reach_codes[i])]
    if reach is Reach.UNREACHABLE:
        return {k: Fraction(0) for k in horizons}
    if reach is Reach.REACHABLE:
        return hit_within(nav.choice[:, :, None], _target_mask(nav), i, horizons, "max", progress)
    return hit_within(nav.graph.options, _target_mask(nav), i, horizons, "max", progress)
