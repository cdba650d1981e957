"""Lighthouses: the reference DP over every lighthouse code (the oracle of the class DP).

Implements docs/lighthouse.md ("The dynamic programme", "The reference tables";
seed 000_aeb701e368f40145.txt): the win probability of every position, one
lighthouse code per row (``8**n`` codes), under optimal, greedy or random play,
vectorised with NumPy over the codes of a layer; and the memory-bounded sweep of
the start values, one boat position at a time. This is the engine isles used
before the class DP of ``isles.solvers.lighthouse.dp``; it stays as the slower,
simpler reference that the tests compare the class DP, the greedy sweep and the
advice with, position by position, and the baseline of benchmarks/bench_lighthouse.py.

How it is organised. A lighthouse is in one of 8 states (the model's
``STATE_AFTER``), so the lighthouses of ``n`` islands are one integer in
``0 .. 8**n - 1``. The boat and Maurice never change which lighthouse can take a
colour, so every choice is computed once per lighthouse configuration and
vectorised over all (boat, Maurice) pairs at once. Discs laid never decrease and
a turn that lays none either moves the boat or moves Maurice forward without
reaching his island, so the positions form a DAG: layers by discs laid
(descending), and inside a layer by boat (descending) then Maurice (descending).
Decisions are taken in the order the rules take them: the order of the two
discs, then the lighthouse of the first disc, then that of the second, then the
bonus disc (the policies of ``isles.solvers.lighthouse.policies``).

References
----------
R. Bellman, *Dynamic Programming*, Princeton University Press, 1957 (backward
induction over the positions of a finite game).
M. L. Puterman, *Markov Decision Processes*, Wiley, 1994 (finite-horizon
optimality and the evaluation of a fixed policy).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from isles.models.errors import InvalidInput
from isles.models.jsonio import probability_json
from isles.models.lighthouse.caps import MAX_FRACTION_ISLANDS, Policy
from isles.models.lighthouse.kit import Kit
from isles.models.lighthouse.position import Position, position_code
from isles.models.lighthouse.rules import roll_outcomes
from isles.models.status import Status
from isles.solvers.lighthouse.codes import DISCS, N_STATES, TRANS, Geometry, geometry
from isles.solvers.lighthouse.policies import (
    check_policy,
    greedy_bonus_rank,
    greedy_lay_rank,
    greedy_swaps,
    policy_status,
)

__all__ = [
    "REFERENCE_ISLANDS",
    "REFERENCE_MAX_BYTES",
    "REFERENCE_SWEEP_ISLANDS",
    "FullTables",
    "SweptStartValues",
    "memory_bytes",
    "solve",
    "win_probability",
]

REFERENCE_ISLANDS = 7
"""Largest kit the reference solves in every position (7 islands: minutes, 5.5 GB)."""

REFERENCE_SWEEP_ISLANDS = 8
"""Largest kit the reference sweeps for the start values (8 islands: about 40 min, 7 GiB)."""

REFERENCE_MAX_BYTES = 8 * 2**30
"""Largest estimated memory (:func:`memory_bytes`) the reference may use: 8 GiB."""


def _by_sea_cards_json(values: Sequence[Fraction | float]) -> list[dict[str, Any]]:
    """``[{"sea_cards": k, "win_probability": p, "win_probability_exact": ...}]``, k = 1.."""
    return [
        {"sea_cards": k, **probability_json("win_probability", v)} for k, v in enumerate(values, 1)
    ]


@dataclass(frozen=True, eq=False)
class FullTables:
    """Win probabilities of every position of a kit under one policy (from :func:`solve`).

    Parameters
    ----------
    kit : Kit
    policy : {"optimal", "greedy", "random"}
    exact : bool
        Whether the tables hold Fractions.
    error_bound : float
        Every float value is within this of the exact value (0 for Fractions).
    values : ndarray
        ``values[L, b, m]`` is the win probability with lighthouse code ``L``
        (see :func:`~isles.models.lighthouse.position.position_code`), boat ``b``
        (``sea_cards + 1``: landed,
        value 0) and Maurice offset ``m``; shape ``(8**n, sea_cards + 2, n)``.
    bonus_values : ndarray
        ``bonus_values[L, b, m]``: the value once the bonus disc is earned,
        before it is placed (best, greedy or random placement).

    Examples
    --------
    >>> from isles.models.lighthouse.kit import default_kit
    >>> sol = solve(default_kit(1, 1), "greedy", exact=True)
    >>> sol.status, sol.exact_win_probability()
    (<Status.EXACT: 'exact'>, Fraction(1226471, 1679616))
    """

    kit: Kit
    policy: Policy
    exact: bool
    error_bound: float
    values: npt.NDArray[Any] = field(repr=False)
    bonus_values: npt.NDArray[Any] = field(repr=False)

    @property
    def status(self) -> Status:
        """``optimal`` for the optimal policy, ``exact`` for greedy or random play."""
        return policy_status(self.policy)

    @property
    def positions(self) -> int:
        """Number of positions valued (lighthouse codes x boat x Maurice)."""
        n = len(self.kit.islands)
        return int(N_STATES**n * (self.kit.sea_cards + 1) * n)

    def value(self, position: Position) -> Fraction | float:
        """Win probability of a position under this policy (1 when it is won).

        Raises
        ------
        InvalidInput
            The position does not fit the kit.
        """
        position.check(self.kit)
        if position.is_won():
            return Fraction(1) if self.exact else 1.0
        v = self.values[position_code(self.kit, position), position.boat, position.maurice]
        return Fraction(v) if self.exact else float(v)

    def win_probability(self, sea_cards: int | None = None) -> float:
        """Win probability from the start with ``sea_cards`` <= the kit's (default: the kit's).

        A game with ``k`` sea cards is this kit's game with the boat already on
        card ``sea_cards - k`` (docs/lighthouse.md, "Fewer sea cards").
        """
        return float(self._start(sea_cards))

    def exact_win_probability(self, sea_cards: int | None = None) -> Fraction | None:
        """The exact win probability from the start, or None for float tables."""
        if not self.exact:
            return None
        return Fraction(self._start(sea_cards))

    @property
    def by_sea_cards(self) -> tuple[Fraction | float, ...]:
        """Win probability from the start with 1..``kit.sea_cards`` sea cards."""
        conv: Callable[[Any], Fraction | float] = Fraction if self.exact else float
        return tuple(conv(self._start(k)) for k in range(1, self.kit.sea_cards + 1))

    def _start(self, sea_cards: int | None) -> Any:
        k = self.kit.sea_cards if sea_cards is None else sea_cards
        if not 1 <= k <= self.kit.sea_cards:
            raise InvalidInput("sea_cards", k, f"1..{self.kit.sea_cards} for this table")
        return self.values[0, self.kit.sea_cards - k, 0]

    def to_dict(self) -> dict[str, Any]:
        """The start values as plain data (docs/lighthouse.md, "JSON answers"); not the tables.

        Examples
        --------
        >>> from isles.models.lighthouse.kit import default_kit
        >>> solve(default_kit(1, 1), exact=True).to_dict()["win_probability_exact"]
        '1226471/1679616'
        """
        return {
            "status": str(self.status),
            "policy": self.policy,
            "method": "dp",
            "islands": len(self.kit.islands),
            "sea_cards": self.kit.sea_cards,
            **probability_json("win_probability", self.by_sea_cards[-1]),
            "error_bound": self.error_bound,
            "positions": self.positions,
            "by_sea_cards": _by_sea_cards_json(self.by_sea_cards),
        }


# --- aggregation of the options at one choice point -------------------------------------

ValueFn = Callable[[npt.NDArray[np.intp]], npt.NDArray[Any]]


class _Chooser:
    """Combines options at one choice point, row by row, according to the policy.

    Each option is (valid rows mask, value function of the valid rows, greedy
    score per row). ``optimal`` takes the maximum, ``random`` the mean over
    valid options, ``greedy`` the valid option of highest score (first on ties).
    """

    def __init__(self, policy: Policy, rows: int, shape: tuple[int, ...], dtype: Any) -> None:
        self.policy = policy
        self.any = np.zeros(rows, dtype=bool)
        self.full_shape = (rows, *shape)
        self.dtype = dtype
        self.fresh = True  # no option added yet: the first one is copied, not combined
        self.out = np.empty(0, dtype=dtype)
        self.count = np.zeros(rows, dtype=np.int64)
        self.best = np.full(rows, -np.inf)

    def add(
        self,
        valid: npt.NDArray[np.bool_],
        values: ValueFn,
        score: npt.NDArray[Any] | None = None,
    ) -> None:
        if self.policy == "greedy":
            assert score is not None
            valid = valid & (score > self.best)
        sub = np.flatnonzero(valid)
        if sub.size == 0:
            return
        vals = values(sub)
        if self.fresh:
            self.out = np.full(self.full_shape, -1 if self.policy == "optimal" else 0, self.dtype)
            self.fresh = False
            self.out[sub] = vals
            self.count[sub] += 1
            self.best[sub] = -np.inf if score is None else score[sub]
        elif self.policy == "optimal":
            self.out[sub] = np.maximum(self.out[sub], vals, out=vals)
        elif self.policy == "random":
            self.out[sub] = self.out[sub] + vals
            self.count[sub] += 1
        else:
            assert score is not None
            self.out[sub] = vals
            self.best[sub] = score[sub]
        self.any[sub] = True

    def result(self) -> npt.NDArray[Any]:
        if self.fresh:
            fill = -1 if self.policy == "optimal" else 0
            self.out = np.full(self.full_shape, fill, self.dtype)
            self.fresh = False
        if self.policy == "random":
            div = np.maximum(self.count, 1).reshape((-1,) + (1,) * (self.out.ndim - 1))
            if self.out.dtype == object:
                fracs = np.array([Fraction(int(c)) for c in div.ravel()], dtype=object)
                return cast(npt.NDArray[Any], self.out / fracs.reshape(div.shape))
            return cast(npt.NDArray[Any], self.out / div)
        return self.out


def _accumulate(
    acc: npt.NDArray[Any], rows: npt.NDArray[np.bool_], p: Any, values: npt.NDArray[Any]
) -> None:
    """acc[rows] += p * values[rows], without the masked copies when every row counts."""
    if rows.all():
        values *= p
        acc += values
    else:
        acc[rows] += p * values[rows]


def _walked(
    v: npt.NDArray[Any], bv: npt.NDArray[Any], idx: npt.NDArray[np.int64], cols: npt.NDArray[Any]
) -> npt.NDArray[Any]:
    """Values after discs with some returned: Maurice's walk picks the columns."""
    n = v.shape[2]
    r = int(cols[0])
    if r <= n and np.array_equal(cols, np.arange(r, r + n)):
        # Walks of r < n steps: columns r.. of the values, then the first r bonus columns.
        out = np.empty((idx.size, v.shape[1], n), dtype=v.dtype)
        out[:, :, : n - r] = v[idx, :, r:]
        out[:, :, n - r :] = bv[idx, :, :r]
        return out
    return np.concatenate((v[idx], bv[idx]), axis=2)[:, :, cols]


def _lookup(
    v: npt.NDArray[Any], tgt: npt.NDArray[np.int64], bv: Any = None, cols: Any = None
) -> ValueFn:
    def values(sub: npt.NDArray[np.intp]) -> npt.NDArray[Any]:
        if bv is None:
            return v[tgt[sub]]
        return _walked(v, bv, tgt[sub], cols)

    return values


def _lookup_g0(
    g0: npt.NDArray[Any], pos: npt.NDArray[np.int64], tgt: npt.NDArray[np.int64], colour: int
) -> ValueFn:
    def values(sub: npt.NDArray[np.intp]) -> npt.NDArray[Any]:
        return cast(npt.NDArray[Any], g0[pos[tgt[sub]], colour])

    return values


def _lookup_rows(val: npt.NDArray[Any]) -> ValueFn:
    def values(sub: npt.NDArray[np.intp]) -> npt.NDArray[Any]:
        return val[sub]

    return values


def _error_bound(kit: Kit, rolls: int) -> float:
    n = len(kit.islands)
    longest = (4 * n + 1) * (kit.sea_cards + 2) * (n // 2 + 1)
    return 2.0 * longest * (rolls + 5) * 2.0**-53


def _widest_layer(n: int) -> int:
    """Most lighthouse codes with the same number of discs laid (the widest DP layer)."""
    # Codes of one lighthouse by discs: 1 empty, 2 each of 1..3 discs, 1 finished.
    counts = [1]
    for _ in range(n):
        counts = [
            sum(
                w * counts[d - j] for j, w in enumerate((1, 2, 2, 2, 1)) if 0 <= d - j < len(counts)
            )
            for d in range(len(counts) + 4)
        ]
    return max(counts)


def memory_bytes(kit: Kit, *, full_tables: bool) -> int:
    """Estimated peak memory of the DP's arrays for ``kit``, in bytes.

    Parameters
    ----------
    kit : Kit
    full_tables : bool
        ``True``: :func:`solve` (every position); ``False``: :func:`win_probability`
        (two boat columns).

    Returns
    -------
    int
        The value and bonus tables (``8**n`` codes x boat columns x ``n`` Maurice
        offsets, float64), the code index, and the working arrays of the widest
        layer, which grow with the number of colours ``C``.

    Notes
    -----
    Checked against ``tracemalloc`` peaks of 4 and 5 islands (within 10%); the
    resident memory measured under ``/usr/bin/time`` was 7% above the estimate
    for the 8-island sweep and a third above it for the 7-island full tables
    (docs/lighthouse.md, "The reference tables"). :func:`solve` and :func:`win_probability`
    refuse kits above :data:`REFERENCE_MAX_BYTES`.

    Examples
    --------
    >>> from isles.models.lighthouse.kit import default_kit
    >>> round(memory_bytes(default_kit(8, 8), full_tables=False) / 2**30, 1)
    6.5
    >>> round(memory_bytes(default_kit(7, 8), full_tables=True) / 2**30, 1)
    3.9
    """
    n, k = len(kit.islands), kit.sea_cards
    colours = len(geometry(kit).colours)
    codes = int(N_STATES**n)
    width = k + 1 if full_tables else 1  # boat columns computed per pass
    index = codes * n + 3 * codes * 8  # int8 states; order, position in layer, discs laid
    tables = 2 * codes * (width + 1) * n * 8
    layer = _widest_layer(n) * 8 * n * (width * (colours + 8) + colours)
    return index + tables + layer


def _check_dp(kit: Kit, *, full_tables: bool, exact: bool) -> None:
    """Refuse a DP that would not fit: too many islands, memory, or Fractions."""
    n = len(kit.islands)
    most = REFERENCE_ISLANDS if full_tables else REFERENCE_SWEEP_ISLANDS
    what = "every position (solve)" if full_tables else "the start values (win_probability)"
    if n > most:
        raise InvalidInput(
            "kit.islands", None, f"at most {most} islands for {what}", problem=f"{n} islands"
        )
    need = memory_bytes(kit, full_tables=full_tables)
    if need > REFERENCE_MAX_BYTES:
        raise InvalidInput(
            "kit",
            None,
            f"a kit whose DP for {what} fits in {REFERENCE_MAX_BYTES / 2**30:.0f} GiB "
            "(fewer islands, sea cards or colours; odds() estimates larger kits)",
            problem=f"about {need / 2**30:.1f} GiB needed",
        )
    if exact and n > MAX_FRACTION_ISLANDS:
        raise InvalidInput(
            "exact",
            True,
            f"exact Fractions for at most {MAX_FRACTION_ISLANDS} islands (4 take about a "
            f"minute; this kit has {n}); floats carry a stated error bound",
        )


def solve(
    kit: Kit, policy: str = "optimal", *, exact: bool = False, progress: bool = False
) -> FullTables:
    """Win probability of every position under ``policy``, by dynamic programming.

    Backward induction over the positions, layer by layer of discs laid
    (docs/lighthouse.md, "The dynamic programme").

    Parameters
    ----------
    kit : Kit
        At most :data:`REFERENCE_ISLANDS` islands and :data:`REFERENCE_MAX_BYTES` of
        estimated memory (:func:`memory_bytes`); :func:`win_probability`
        gives the start values of larger kits in far less memory.
    policy : {"optimal", "greedy", "random"}
        ``optimal`` maximises the win probability; the others are evaluated exactly.
    exact : bool
        Fractions (slow: at most :data:`MAX_FRACTION_ISLANDS` islands) instead of
        floats with ``error_bound``.
    progress : bool
        Show a tqdm progress bar (stderr) over the layers of discs laid.

    Returns
    -------
    FullTables
        Values of every position; ``status`` is ``optimal`` or ``exact``.

    Raises
    ------
    InvalidInput
        Unknown policy, a kit too large (islands or memory), or ``exact`` with
        more than :data:`MAX_FRACTION_ISLANDS` islands.

    See Also
    --------
    odds : the odds of a kit in one call, choosing the method by size.
    win_probability : the start values only, in bounded memory.

    Notes
    -----
    Error bound of float tables: each value is a sum of at most ``R + 5``
    non-negative terms (``R`` roll outcomes) of values in [0, 1]; maximum and
    selection are exact, so the forward error grows by at most ``(R+5) u`` per
    turn (``u = 2**-53``) along the longest chain of turns,
    ``(4n+1)(K+2)(n//2+1)``; the stated bound is twice that product.

    References
    ----------
    R. Bellman, *Dynamic Programming*, 1957 (backward induction).
    N. J. Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd ed.,
    SIAM, 2002, ch. 4 (error of floating-point summation).

    Examples
    --------
    >>> from isles.models.lighthouse.kit import default_kit
    >>> sol = solve(default_kit(2, sea_cards=2), exact=True)
    >>> sol.exact_win_probability()
    Fraction(196809133707275, 304679870005248)
    """
    pol = check_policy(policy)
    _check_dp(kit, full_tables=True, exact=exact)
    sweep = _LayerSweep(kit, pol, exact)
    n, k = sweep.geo.n, kit.sea_cards
    vals = np.zeros((sweep.total, k + 2, n), dtype=sweep.dtype)
    bvals = np.zeros((sweep.total, k + 2, n), dtype=sweep.dtype)
    bar = sweep.progress_bar(1, "lighthouse DP") if progress else None
    sweep.run(vals, bvals, bar)
    if bar is not None:
        bar.close()
    err = 0.0 if exact else _error_bound(kit, len(sweep.rolls))
    return FullTables(kit, sweep.policy, exact, err, vals, bvals)


@dataclass(frozen=True)
class SweptStartValues:
    """Win probability from the start position only, for 1..``kit.sea_cards`` sea cards.

    From :func:`win_probability`.

    Parameters
    ----------
    kit : Kit
    policy : {"optimal", "greedy", "random"}
    exact : bool
        Whether the values are Fractions.
    error_bound : float
        Every float value is within this of the exact value (0 for Fractions).
    by_sea_cards : tuple of Fraction or float
        ``by_sea_cards[k - 1]`` is the win probability with ``k`` sea cards.

    Examples
    --------
    >>> from isles.models.lighthouse.kit import default_kit
    >>> start = win_probability(default_kit(1, 2), "random", exact=True)
    >>> start.status, len(start.by_sea_cards)
    (<Status.EXACT: 'exact'>, 2)
    """

    kit: Kit
    policy: Policy
    exact: bool
    error_bound: float
    by_sea_cards: tuple[Fraction | float, ...]

    @property
    def status(self) -> Status:
        """``optimal`` for the optimal policy, ``exact`` for greedy or random play."""
        return policy_status(self.policy)

    def win_probability(self, sea_cards: int | None = None) -> float:
        """Win probability from the start with ``sea_cards`` (default: the kit's)."""
        return float(self._start(sea_cards))

    def exact_win_probability(self, sea_cards: int | None = None) -> Fraction | None:
        """The exact win probability from the start, or None for floats."""
        return Fraction(self._start(sea_cards)) if self.exact else None

    def _start(self, sea_cards: int | None) -> Fraction | float:
        k = self.kit.sea_cards if sea_cards is None else sea_cards
        if not 1 <= k <= self.kit.sea_cards:
            raise InvalidInput("sea_cards", k, f"1..{self.kit.sea_cards} for these values")
        return self.by_sea_cards[k - 1]

    def to_dict(self) -> dict[str, Any]:
        """Plain data (docs/lighthouse.md, "JSON answers").

        Examples
        --------
        >>> from isles.models.lighthouse.kit import default_kit
        >>> win_probability(default_kit(1, 1), exact=True).to_dict()["method"]
        'dp sweep'
        """
        return {
            "status": str(self.status),
            "policy": self.policy,
            "method": "dp sweep",
            "islands": len(self.kit.islands),
            "sea_cards": self.kit.sea_cards,
            **probability_json("win_probability", self.by_sea_cards[-1]),
            "error_bound": self.error_bound,
            "by_sea_cards": _by_sea_cards_json(self.by_sea_cards),
        }


def win_probability(
    kit: Kit, policy: str = "optimal", *, exact: bool = False, progress: bool = False
) -> SweptStartValues:
    """Win probability from the start under ``policy``, in bounded memory (up to 8 islands).

    The same DP as :func:`solve`, swept one boat position at a time: the
    values with the boat on card ``b`` depend only on those with the boat on
    ``b`` (earlier layers of discs laid) and on ``b + 1``, so two boat columns
    of the value and bonus tables are kept (``8**n x 2 x n`` floats each; 8
    islands: 2 GiB each) instead of ``sea_cards + 2``. The start value of each
    boat column is the answer for ``sea_cards - b`` cards.

    Parameters
    ----------
    kit : Kit
        At most :data:`REFERENCE_SWEEP_ISLANDS` islands and :data:`REFERENCE_MAX_BYTES` of
        estimated memory (:func:`memory_bytes`).
    policy : {"optimal", "greedy", "random"}
        ``optimal`` maximises the win probability; the others are evaluated exactly.
    exact : bool
        Fractions (at most :data:`MAX_FRACTION_ISLANDS` islands) instead of
        floats with ``error_bound``.
    progress : bool
        Show a tqdm progress bar (stderr) over the (boat position, layer) sweeps.

    Returns
    -------
    SweptStartValues
        Start values for 1..``kit.sea_cards`` sea cards.

    Raises
    ------
    InvalidInput
        Unknown policy, a kit too large (islands or memory), or ``exact`` with
        more than :data:`MAX_FRACTION_ISLANDS` islands.

    See Also
    --------
    odds : the odds of a kit in one call, choosing the method by size.

    Notes
    -----
    The arithmetic is the same, element for element, as :func:`solve`'s, hence
    the same error bound. Measured (docs/lighthouse.md, "The reference tables"): 8
    islands, 8 sea cards, about 40 min (2.2e3 s CPU) and 7.0 GiB peak; up to
    twice :func:`solve`'s CPU time where both fit.

    References
    ----------
    R. Bellman, *Dynamic Programming*, 1957 (backward induction).

    Examples
    --------
    >>> from isles.models.lighthouse.kit import default_kit
    >>> win_probability(default_kit(2, sea_cards=2), exact=True).exact_win_probability()
    Fraction(196809133707275, 304679870005248)
    """
    pol = check_policy(policy)
    _check_dp(kit, full_tables=False, exact=exact)
    sweep = _LayerSweep(kit, pol, exact)
    n, k = sweep.geo.n, kit.sea_cards
    vals = np.zeros((sweep.total, 2, n), dtype=sweep.dtype)
    bvals = np.zeros((sweep.total, 2, n), dtype=sweep.dtype)
    bar = sweep.progress_bar(k + 1, "lighthouse sweep") if progress else None
    start: list[Any] = []
    for _b in range(k, -1, -1):
        # Column 1 holds the boat one card further (zeros: the boat has landed).
        vals[:, 1] = vals[:, 0]
        bvals[:, 1] = bvals[:, 0]
        sweep.run(vals, bvals, bar)
        start.append(vals[0, 0, 0])
    if bar is not None:
        bar.close()
    err = 0.0 if exact else _error_bound(kit, len(sweep.rolls))
    conv: Callable[[Any], Fraction | float] = Fraction if exact else float
    # start[c] has the boat on card k - c: the game with c sea cards.
    by_cards = tuple(conv(start[c]) for c in range(1, k + 1))
    return SweptStartValues(kit, pol, exact, err, by_cards)


class _LayerSweep:
    """The layered DP of :func:`solve`, run over value tables of any boat width.

    ``run(vals, bvals)`` fills columns ``0 .. w-2`` of tables of shape
    ``(8**n, w, n)``, layer by layer from the full one down; column ``w - 1``
    is the boundary: the values with the boat one card beyond the last column
    (zeros when the boat has landed). Only layers ``d`` and ``d + 1`` of the
    tables and the one-more-disc table of layer ``d + 1`` are read at layer ``d``.
    """

    def __init__(self, kit: Kit, policy: Policy, exact: bool) -> None:
        n = len(kit.islands)
        self.policy = policy
        self.exact = exact
        self.geo = geo = geometry(kit)
        self.rolls = roll_outcomes(kit)
        self.dtype: Any = object if exact else np.float64
        self.total = total = N_STATES**n
        codes = np.arange(total, dtype=np.int64)
        states = np.empty((total, n), dtype=np.int8)
        for i in range(n):
            states[:, i] = (codes // geo.powers[i]) % N_STATES
        del codes
        self.states = states
        laid = _laid(states)
        self.order = np.argsort(-laid, kind="stable")
        self.bounds = np.searchsorted(-laid[self.order], np.arange(-4 * n, 2), side="left")
        del laid
        self.pos_in_layer = np.empty(total, dtype=np.int64)
        # Columns of the value after discs with r returned: Maurice walks r, and takes
        # the bonus column when he reaches or passes his island.
        self.walk = [
            np.array([m + r if m + r < n else n + (m + r) % n for m in range(n)]) for r in (0, 1, 2)
        ]

    def progress_bar(self, sweeps: int, desc: str) -> Any:
        from tqdm import tqdm

        return tqdm(total=sweeps * (4 * self.geo.n + 1), desc=desc, unit="layer")

    def prob(self, p: Fraction) -> Any:
        return p if self.exact else float(p)

    def run(self, vals: npt.NDArray[Any], bvals: npt.NDArray[Any], bar: Any = None) -> None:
        geo, policy, dtype, walk = self.geo, self.policy, self.dtype, self.walk
        n = geo.n
        k = vals.shape[1] - 2  # columns 0..k are computed, k + 1 is the boundary
        shape = (k + 1, n)
        # Views: the computed columns, and the values with the boat one card further.
        cur, bcur, ahead = vals[:, : k + 1], bvals[:, : k + 1], vals[:, 1:]
        rolls, prob, pos_in_layer = self.rolls, self.prob, self.pos_in_layer

        g0_prev: npt.NDArray[Any] | None = None
        q0 = sum(
            (prob(r.probability) for r in rolls if r.boat and not r.colours), prob(Fraction(0))
        )
        for d in range(4 * n, -1, -1):
            if bar is not None:
                bar.update(1)
            rows = self.order[self.bounds[4 * n - d] : self.bounds[4 * n - d + 1]]
            nr = rows.size
            pos_in_layer[rows] = np.arange(nr)
            st = self.states[rows].astype(np.int64)
            if d == 4 * n:
                vals[rows, : k + 1] = 1
                bvals[rows, : k + 1] = 1
                g0_prev = _g0(cur, bcur, rows, geo, st, policy, dtype, walk)
                continue

            def nxt(c: int, i: int, st: npt.NDArray[np.int64] = st, rows: Any = rows) -> Any:
                s = geo.colour_side[c, i]
                if s < 0:
                    return np.full(rows.size, -1, dtype=np.int64)
                t = TRANS[st[:, i], s]
                return np.where(t >= 0, rows + (t - st[:, i]) * geo.powers[i], -1)

            nexts = [[nxt(c, i) for i in range(n)] for c in range(len(geo.colours))]
            scores = [greedy_lay_rank(DISCS[st[:, i]], i) for i in range(n)]

            # Bonus disc: any (colour, lighthouse) that can take it.
            bonus = _Chooser(policy, nr, shape, dtype)
            for i in range(n):
                for side in (0, 1):
                    t = TRANS[st[:, i], side]
                    tgt = rows + (t - st[:, i]) * geo.powers[i]
                    bonus.add(
                        t >= 0,
                        _lookup(cur, tgt),
                        greedy_bonus_rank(DISCS[st[:, i]], i, side),
                    )
            bvals[rows, : k + 1] = bonus.result()
            del bonus

            acc = np.zeros((nr, *shape), dtype=dtype)
            q1 = np.zeros(nr, dtype=dtype)
            q2 = np.zeros(nr, dtype=dtype)
            assert g0_prev is not None
            g0 = g0_prev
            g0_prev = None
            for roll in rolls:
                p = prob(roll.probability)
                cs = [geo.colours.index(c) for c in roll.colours]
                if roll.boat and not cs:
                    continue
                if roll.boat:
                    ch = _Chooser(policy, nr, shape, dtype)
                    for i in range(n):
                        tgt = nexts[cs[0]][i]
                        ch.add(tgt >= 0, _lookup(ahead, tgt), scores[i])
                    _accumulate(acc, ch.any, p, ch.result())
                    q1[~ch.any] += p
                    continue
                orders = [(cs[0], cs[1])] if cs[0] == cs[1] else [(cs[0], cs[1]), (cs[1], cs[0])]
                can = [np.any([nexts[c][i] >= 0 for i in range(n)], axis=0) for c in (cs[0], cs[1])]
                swaps = greedy_swaps(can[0], can[1])
                outer = _Chooser(policy, nr, shape, dtype)
                for oi, (u, v) in enumerate(orders):
                    first = _Chooser(policy, nr, shape, dtype)
                    for i in range(n):
                        tgt = nexts[u][i]
                        first.add(
                            tgt >= 0,
                            _lookup_g0(g0, pos_in_layer, tgt, v),
                            scores[i],
                        )
                    alone = _Chooser(policy, nr, shape, dtype)
                    for j in range(n):
                        tgt = nexts[v][j]
                        alone.add(
                            ~first.any & (tgt >= 0), _lookup(cur, tgt, bcur, walk[1]), scores[j]
                        )
                    val = first.result()
                    val[alone.any] = alone.result()[alone.any]
                    outer.add(
                        first.any | alone.any,
                        _lookup_rows(val),
                        np.where(swaps, oi, 1 - oi),
                    )
                    del first, alone, val
                _accumulate(acc, outer.any, p, outer.result())
                q2[~outer.any] += p
                del outer
            del g0, nexts

            # Turns that lay no disc: boat moves, or Maurice walks without reaching home.
            # Column k + 1 starts as the boundary (zeros when the boat has landed).
            local = np.zeros((nr, k + 2, n), dtype=dtype)
            local[:, k + 1] = vals[rows, k + 1]
            home = bvals[rows]
            for b in range(k, -1, -1):
                for m in range(n - 1, -1, -1):
                    w1 = local[:, b + 1, m + 1] if m + 1 < n else home[:, b + 1, (m + 1) % n]
                    w2 = local[:, b, m + 2] if m + 2 < n else home[:, b, (m + 2) % n]
                    local[:, b, m] = acc[:, b, m] + q0 * local[:, b + 1, m] + q1 * w1 + q2 * w2
            del acc, home
            vals[rows, : k + 1] = local[:, : k + 1]
            del local
            if d > 0:
                g0_prev = _g0(cur, bcur, rows, geo, st, policy, dtype, walk)


def _laid(states: npt.NDArray[np.int8]) -> npt.NDArray[np.int64]:
    """Discs laid per lighthouse code, column by column (no (8**n, n) int64 temporary)."""
    laid = np.zeros(states.shape[0], dtype=np.int64)
    for i in range(states.shape[1]):
        laid += DISCS[states[:, i]]
    return laid


def _g0(
    vals: npt.NDArray[Any],
    bvals: npt.NDArray[Any],
    rows: npt.NDArray[np.int64],
    geo: Geometry,
    st: npt.NDArray[np.int64],
    policy: Policy,
    dtype: Any,
    walk: list[npt.NDArray[np.int64]],
) -> npt.NDArray[Any]:
    """Value of handling one more disc of each colour, nothing returned yet, per row."""
    out = np.zeros((rows.size, len(geo.colours), *vals.shape[1:]), dtype=dtype)
    returned = _walked(vals, bvals, rows, walk[1])
    for c in range(len(geo.colours)):
        ch = _Chooser(policy, rows.size, vals.shape[1:], dtype)
        for i in range(geo.n):
            s = geo.colour_side[c, i]
            if s < 0:
                continue
            t = TRANS[st[:, i], s]
            tgt = rows + (t - st[:, i]) * geo.powers[i]
            ch.add(t >= 0, _lookup(vals, tgt), greedy_lay_rank(DISCS[st[:, i]], i))
        res = ch.result()
        out[:, c] = np.where(ch.any[:, None, None], res, returned)
    return out


# --- scalar policies (advice, exact distributions, brute-force cross-checks) ---------------
