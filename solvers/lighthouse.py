"""Lighthouses: what are the real chances of winning, and what is the best move now?

Implements docs/lighthouse.md (seed 000_aeb701e368f40145.txt): the odds of a kit
in one call (:func:`odds`: dynamic programming over every position, a
memory-bounded sweep of the start values, or Monte Carlo with certified bounds,
chosen by size), the best move for a roll (:func:`best_move`), the difficulty
table, exact distributions, and the competitive variant.

How the DP is organised. A lighthouse is in one of 8 states (empty; 1-3 discs
with either colour on top; finished), so the lighthouses of ``n`` islands are
one integer in ``0 .. 8**n - 1``. The boat and Maurice never change which
lighthouse can take a colour, so every choice is computed once per lighthouse
configuration and vectorised over all (boat, Maurice) pairs at once. Discs laid
never decrease and a turn that lays none either moves the boat or moves
Maurice forward without reaching his island, so the positions form a DAG:
layers by discs laid (descending), and inside a layer by boat (descending)
then Maurice (descending). The value of a position for the boat index
``sea_cards + 1`` (the boat has landed) is 0.

Decisions are taken in the order the rules take them: the order of the two
discs, then the lighthouse of the first disc, then that of the second, then
the bonus disc. ``optimal`` maximises the win probability (the nested maximum
equals the maximum over whole decisions, as nothing random happens in between);
``greedy`` and ``random`` are the rules of thumb of docs/lighthouse.md ("The
simple policies").

References
----------
R. Bellman, *Dynamic Programming*, Princeton University Press, 1957 (backward
induction over the positions of a finite game).
M. L. Puterman, *Markov Decision Processes*, Wiley, 1994 (finite-horizon
optimality and the evaluation of a fixed policy).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal, cast

import numpy as np
import numpy.typing as npt

from isles.models.errors import SEED_MAX, InvalidInput, expect
from isles.models.jsonio import exact_text, float_or_none, probability_json, read_int
from isles.models.lighthouse import (
    BOAT,
    DEFAULT_GAMES,
    DISCS_PER_LIGHTHOUSE,
    EXACT_COMPETITIVE_ISLANDS,
    MAX_EXACT_ISLANDS,
    MAX_FRACTION_ISLANDS,
    MAX_GAMES,
    MAX_SWEEP_ISLANDS,
    POLICIES,
    Decision,
    Kit,
    Outcome,
    Policy,
    Position,
    Roll,
    bonus_options,
    can_take,
    default_kit,
    legal_decisions,
    play_turn,
    roll_outcomes,
)
from isles.models.status import Status

__all__ = [
    "DEFAULT_GAMES",
    "EXACT_COMPETITIVE_ISLANDS",
    "FULL_TABLES_BYTES",
    "MAX_DP_BYTES",
    "MAX_EXACT_ISLANDS",
    "MAX_FORWARD_POSITIONS",
    "MAX_FRACTION_ISLANDS",
    "MAX_GAMES",
    "MAX_SWEEP_ISLANDS",
    "POLICIES",
    "Advice",
    "CompetitiveExact",
    "CompetitiveResult",
    "CompetitiveState",
    "DifficultyEntry",
    "DifficultyTable",
    "ForwardEvaluation",
    "LighthouseSolution",
    "Method",
    "Odds",
    "OutcomeDistribution",
    "Policy",
    "SimulationResult",
    "StartValues",
    "advise",
    "best_move",
    "choose_decision",
    "competitive_branches",
    "competitive_exact",
    "competitive_kit",
    "competitive_odds",
    "decision_weights",
    "difficulty_table",
    "dp_memory_bytes",
    "forward_greedy",
    "odds",
    "odds_method",
    "outcome_distribution",
    "position_index",
    "simulate",
    "simulate_competitive",
    "solve",
    "upper_bound_by_disc_count",
    "wilson_interval",
    "win_probability",
]

Method = Literal["dp", "dp sweep", "monte carlo"]
"""How :func:`odds` computes: full DP tables, the start-value sweep, or simulation."""

MAX_DP_BYTES = 8 * 2**30
"""Largest estimated memory (:func:`dp_memory_bytes`) the DP may use: 8 GiB."""

FULL_TABLES_BYTES = 2**30
""":func:`odds` keeps every position (:func:`solve`) when that fits in 1 GiB (estimated),
else it sweeps the start values (:func:`win_probability`): 6 islands take the full
tables, 7 and 8 the sweep."""

MAX_FORWARD_POSITIONS = 10_000_000
"""Most positions :func:`forward_greedy` keeps in one turn (about 3 GiB of work arrays)."""

# Lighthouse states: 0 empty; 2c-1 = c discs, first colour on top; 2c = c discs,
# second colour on top (c = 1..3); 7 finished.
N_STATES = 8
FINISHED = 7
_TRANS = np.full((N_STATES, 2), -1, dtype=np.int64)
_TRANS[0] = (1, 2)
for _c in range(1, 4):
    _TRANS[2 * _c - 1, 1] = FINISHED if _c + 1 == 4 else 2 * (_c + 1)
    _TRANS[2 * _c, 0] = FINISHED if _c + 1 == 4 else 2 * (_c + 1) - 1
_DISCS = np.array([0, 1, 1, 2, 2, 3, 3, 4], dtype=np.int64)


def _state_of(island: tuple[str, str], stack: Sequence[str]) -> int:
    if len(stack) == 0:
        return 0
    if len(stack) >= DISCS_PER_LIGHTHOUSE:
        return FINISHED
    return 2 * len(stack) - (1 if stack[-1] == island[0] else 0)


def position_index(kit: Kit, position: Position) -> int:
    """The integer code of a position's lighthouses: sum of state_i * 8**i.

    A lighthouse's state is 0 empty; ``2c - 1`` (``2c``) with ``c`` discs, the
    island's first (second) colour on top, ``c = 1..3``; 7 finished.

    Parameters
    ----------
    kit : Kit
    position : Position

    Returns
    -------
    int
        The row of the position's lighthouses in :attr:`LighthouseSolution.values`.

    Examples
    --------
    >>> kit = default_kit(2)
    >>> position_index(kit, Position((("blue",), ()), 0, 0))
    2
    """
    return sum(
        _state_of(isl, stack) * N_STATES**i
        for i, (isl, stack) in enumerate(zip(kit.islands, position.discs, strict=True))
    )


def _check_policy(policy: str) -> Policy:
    for known in POLICIES:
        if policy == known:
            return known
    raise InvalidInput("policy", policy, "one of " + ", ".join(POLICIES))


def _check_games(games: object) -> int:
    """A number of games in 1..MAX_GAMES (the one cap of every simulation)."""
    return read_int(games, "games", 1, MAX_GAMES)


def _check_seed(seed: object) -> int:
    """A random seed: an integer >= 0 (NumPy refuses negative seeds)."""
    return read_int(seed, "seed", 0, SEED_MAX)


def _policy_status(policy: Policy) -> Status:
    """Optimal play is ``optimal``; the value of a fixed policy is ``exact``."""
    return Status.OPTIMAL if policy == "optimal" else Status.EXACT


def _by_sea_cards_json(values: Sequence[Fraction | float]) -> list[dict[str, Any]]:
    """``[{"sea_cards": k, "win_probability": p, "win_probability_exact": ...}]``, k = 1.."""
    return [
        {"sea_cards": k, **probability_json("win_probability", v)} for k, v in enumerate(values, 1)
    ]


@dataclass(frozen=True, eq=False)
class LighthouseSolution:
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
        (see :func:`position_index`), boat ``b`` (``sea_cards + 1``: landed,
        value 0) and Maurice offset ``m``; shape ``(8**n, sea_cards + 2, n)``.
    bonus_values : ndarray
        ``bonus_values[L, b, m]``: the value once the bonus disc is earned,
        before it is placed (best, greedy or random placement).

    Examples
    --------
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
        return _policy_status(self.policy)

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
        v = self.values[position_index(self.kit, position), position.boat, position.maurice]
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


# --- the DP -------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Geometry:
    n: int
    k: int
    colours: tuple[str, ...]  # every colour on a die or an island (some may be unusable)
    colour_side: npt.NDArray[np.int64]  # (C, n): 0/1 which colour of island i, -1 none
    powers: npt.NDArray[np.int64]


def _geometry(kit: Kit) -> _Geometry:
    n = len(kit.islands)
    colours = list(kit.colours)
    for die in kit.dice:
        for face in die:
            if face != BOAT and face not in colours:
                colours.append(face)
    side = np.full((len(colours), n), -1, dtype=np.int64)
    for c, colour in enumerate(colours):
        for i, island in enumerate(kit.islands):
            if colour in island:
                side[c, i] = island.index(colour)
    return _Geometry(
        n, kit.sea_cards, tuple(colours), side, N_STATES ** np.arange(n, dtype=np.int64)
    )


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


def dp_memory_bytes(kit: Kit, *, full_tables: bool) -> int:
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
    (docs/lighthouse.md, "Measured cost"). :func:`solve` and :func:`win_probability`
    refuse kits above :data:`MAX_DP_BYTES`.

    Examples
    --------
    >>> round(dp_memory_bytes(default_kit(8, 8), full_tables=False) / 2**30, 1)
    6.5
    >>> round(dp_memory_bytes(default_kit(7, 8), full_tables=True) / 2**30, 1)
    3.9
    """
    n, k = len(kit.islands), kit.sea_cards
    colours = len(_geometry(kit).colours)
    codes = int(N_STATES**n)
    width = k + 1 if full_tables else 1  # boat columns computed per pass
    index = codes * n + 3 * codes * 8  # int8 states; order, position in layer, discs laid
    tables = 2 * codes * (width + 1) * n * 8
    layer = _widest_layer(n) * 8 * n * (width * (colours + 8) + colours)
    return index + tables + layer


def _check_dp(kit: Kit, *, full_tables: bool, exact: bool) -> None:
    """Refuse a DP that would not fit: too many islands, memory, or Fractions."""
    n = len(kit.islands)
    most = MAX_EXACT_ISLANDS if full_tables else MAX_SWEEP_ISLANDS
    what = "every position (solve)" if full_tables else "the start values (win_probability)"
    if n > most:
        raise InvalidInput(
            "kit.islands", None, f"at most {most} islands for {what}", problem=f"{n} islands"
        )
    need = dp_memory_bytes(kit, full_tables=full_tables)
    if need > MAX_DP_BYTES:
        raise InvalidInput(
            "kit",
            None,
            f"a kit whose DP for {what} fits in {MAX_DP_BYTES / 2**30:.0f} GiB "
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
) -> LighthouseSolution:
    """Win probability of every position under ``policy``, by dynamic programming.

    Backward induction over the positions, layer by layer of discs laid
    (docs/lighthouse.md, "The dynamic programme").

    Parameters
    ----------
    kit : Kit
        At most :data:`MAX_EXACT_ISLANDS` islands and :data:`MAX_DP_BYTES` of
        estimated memory (:func:`dp_memory_bytes`); :func:`win_probability`
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
    LighthouseSolution
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
    >>> sol = solve(default_kit(2, sea_cards=2), exact=True)
    >>> sol.exact_win_probability()
    Fraction(196809133707275, 304679870005248)
    """
    pol = _check_policy(policy)
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
    return LighthouseSolution(kit, sweep.policy, exact, err, vals, bvals)


@dataclass(frozen=True)
class StartValues:
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
        return _policy_status(self.policy)

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
) -> StartValues:
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
        At most :data:`MAX_SWEEP_ISLANDS` islands and :data:`MAX_DP_BYTES` of
        estimated memory (:func:`dp_memory_bytes`).
    policy : {"optimal", "greedy", "random"}
        ``optimal`` maximises the win probability; the others are evaluated exactly.
    exact : bool
        Fractions (at most :data:`MAX_FRACTION_ISLANDS` islands) instead of
        floats with ``error_bound``.
    progress : bool
        Show a tqdm progress bar (stderr) over the (boat position, layer) sweeps.

    Returns
    -------
    StartValues
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
    the same error bound. Measured (docs/lighthouse.md, "Measured cost"): 8
    islands, 8 sea cards, about 40 min (2.2e3 s CPU) and 7.0 GiB peak; up to
    twice :func:`solve`'s CPU time where both fit.

    References
    ----------
    R. Bellman, *Dynamic Programming*, 1957 (backward induction).

    Examples
    --------
    >>> win_probability(default_kit(2, sea_cards=2), exact=True).exact_win_probability()
    Fraction(196809133707275, 304679870005248)
    """
    pol = _check_policy(policy)
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
    return StartValues(kit, pol, exact, err, by_cards)


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
        self.geo = geo = _geometry(kit)
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
                t = _TRANS[st[:, i], s]
                return np.where(t >= 0, rows + (t - st[:, i]) * geo.powers[i], -1)

            nexts = [[nxt(c, i) for i in range(n)] for c in range(len(geo.colours))]
            scores = [_DISCS[st[:, i]] * 16 - i for i in range(n)]

            # Bonus disc: any (colour, lighthouse) that can take it.
            bonus = _Chooser(policy, nr, shape, dtype)
            for i in range(n):
                for side in (0, 1):
                    t = _TRANS[st[:, i], side]
                    tgt = rows + (t - st[:, i]) * geo.powers[i]
                    bonus.add(
                        t >= 0,
                        _lookup(cur, tgt),
                        scores[i] * 2 - side,
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
                        first.any.astype(np.int64) * 2 - oi,
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
        laid += _DISCS[states[:, i]]
    return laid


def _g0(
    vals: npt.NDArray[Any],
    bvals: npt.NDArray[Any],
    rows: npt.NDArray[np.int64],
    geo: _Geometry,
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
            t = _TRANS[st[:, i], s]
            tgt = rows + (t - st[:, i]) * geo.powers[i]
            ch.add(t >= 0, _lookup(vals, tgt), _DISCS[st[:, i]] * 16 - i)
        res = ch.result()
        out[:, c] = np.where(ch.any[:, None, None], res, returned)
    return out


# --- scalar policies (advice, exact distributions, brute-force cross-checks) ---------------


def _placements_tree(
    kit: Kit, stacks: tuple[tuple[str, ...], ...], order: tuple[str, ...], policy: Policy
) -> list[tuple[tuple[tuple[str, int | None], ...], tuple[tuple[str, ...], ...], Fraction]]:
    """Disc placements for one order with their weights under greedy/random."""
    if not order:
        return [((), stacks, Fraction(1))]
    colour, rest = order[0], order[1:]
    takers = [i for i, isl in enumerate(kit.islands) if can_take(isl, stacks[i], colour)]
    if not takers:
        return [
            (((colour, None), *tail), final, wt)
            for tail, final, wt in _placements_tree(kit, stacks, rest, policy)
        ]
    if policy == "greedy":
        takers = [max(takers, key=lambda i: (len(stacks[i]), -i))]
    out = []
    for i in takers:
        placed = (*stacks[:i], (*stacks[i], colour), *stacks[i + 1 :])
        for tail, final, wt in _placements_tree(kit, placed, rest, policy):
            out.append((((colour, i), *tail), final, wt / len(takers)))
    return out


def decision_weights(
    kit: Kit, position: Position, roll: Roll, policy: str
) -> list[tuple[Decision, Fraction]]:
    """The decisions the greedy or random policy takes for a roll, with their probabilities.

    ``greedy`` returns one decision with weight 1; ``random`` chooses uniformly
    at each choice point in turn (order of the discs, each disc's lighthouse,
    the bonus): docs/lighthouse.md, "The simple policies". For ``optimal`` use
    :func:`advise`.

    Parameters
    ----------
    kit : Kit
    position : Position
    roll : Roll
    policy : {"greedy", "random"}

    Returns
    -------
    list of (Decision, Fraction)
        The decisions with their probabilities (summing to 1).

    Raises
    ------
    InvalidInput
        An unknown policy, or ``optimal``.

    Examples
    --------
    >>> from isles.models.lighthouse import default_kit
    >>> kit = default_kit(2)
    >>> roll = Roll(True, ("red",), Fraction(1, 18))
    >>> decision_weights(kit, Position.start(kit), roll, "greedy")
    [(Decision(placements=(('red', 0),), bonus=None), Fraction(1, 1))]
    """
    pol = _check_policy(policy)
    if pol == "optimal":
        raise InvalidInput("policy", policy, "greedy or random (use advise for optimal)")
    n = len(kit.islands)
    colours = roll.colours
    orders = [colours] if len(colours) < 2 or colours[0] == colours[1] else [colours, colours[::-1]]
    if pol == "greedy" and len(orders) == 2:
        first_ok = [
            any(can_take(isl, position.discs[i], o[0]) for i, isl in enumerate(kit.islands))
            for o in orders
        ]
        orders = [orders[1]] if first_ok[1] and not first_ok[0] else [orders[0]]
    out: dict[Decision, Fraction] = {}
    for order in orders:
        for placements, stacks, wt in _placements_tree(kit, position.discs, order, pol):
            wt = wt / len(orders)
            returned = sum(1 for _, i in placements if i is None)
            options = bonus_options(kit, stacks) if position.maurice + returned >= n else []
            if options and pol == "greedy":
                options = [
                    max(
                        options,
                        key=lambda o: (len(stacks[o[1]]), -o[1], -kit.islands[o[1]].index(o[0])),
                    )
                ]
            if not options:
                key = Decision(placements, None)
                out[key] = out.get(key, Fraction(0)) + wt
            for bonus in options:
                key = Decision(placements, bonus)
                out[key] = out.get(key, Fraction(0)) + wt / len(options)
    return list(out.items())


@dataclass(frozen=True)
class Advice:
    """Every legal decision for a roll with its win probability, best first.

    From :func:`best_move` or :func:`advise`.

    Parameters
    ----------
    roll : Roll
    alternatives : tuple of (Decision, Fraction or float)
        Every legal decision with the win probability after it (under the
        solution's policy from then on), best first; ties keep the legal order.
    position_value : Fraction or float or None
        The position's win probability before the roll (None when not known).
    error_bound : float
        Every float value is within this of the exact value (0 for Fractions).
    policy : {"optimal", "greedy", "random"}
        The policy the values assume after this turn.

    Examples
    --------
    >>> kit = default_kit(1, 1)
    >>> adv = best_move(kit, Position.start(kit), Roll.from_faces(kit, ("red", "blue")),
    ...                 exact=True)
    >>> adv.best.placements, adv.win_probability
    ((('blue', 0), ('red', 0)), Fraction(10487, 11664))
    """

    roll: Roll
    alternatives: tuple[tuple[Decision, Fraction | float], ...]
    position_value: Fraction | float | None = None
    error_bound: float = 0.0
    policy: Policy = "optimal"

    @property
    def status(self) -> Status:
        """``optimal`` when the values assume optimal play, else ``exact``."""
        return _policy_status(self.policy)

    @property
    def best(self) -> Decision:
        """The decision with the highest win probability."""
        return self.alternatives[0][0]

    @property
    def win_probability(self) -> Fraction | float:
        """Win probability after the best decision."""
        return self.alternatives[0][1]

    def to_dict(self) -> dict[str, Any]:
        """Plain data (docs/lighthouse.md, "JSON answers"): islands are indices in the kit.

        Examples
        --------
        >>> kit = default_kit(1, 1)
        >>> adv = best_move(kit, Position.start(kit), Roll.from_faces(kit, ("boat", "red")))
        >>> adv.to_dict()["best"]
        {'placements': [['red', 0]], 'bonus': None}
        """
        return {
            "status": str(self.status),
            "policy": self.policy,
            "roll": self.roll.to_dict(),
            **probability_json("win_probability", self.win_probability),
            **probability_json("position_win_probability", self.position_value),
            "error_bound": self.error_bound,
            "best": self.best.to_dict(),
            "alternatives": [
                {**d.to_dict(), **probability_json("win_probability", v)}
                for d, v in self.alternatives
            ],
        }


def _after(solution: LighthouseSolution, position: Position, roll: Roll, d: Decision) -> Any:
    res = play_turn(solution.kit, position, roll, d, check=False)
    if res.outcome is Outcome.WON:
        return Fraction(1) if solution.exact else 1.0
    if res.outcome is Outcome.LOST:
        return Fraction(0) if solution.exact else 0.0
    return solution.value(res.position)


def _check_in_play(kit: Kit, position: Position) -> None:
    """Refuse a position that does not fit the kit or whose game is over."""
    position.check(kit)
    if position.is_won():
        raise InvalidInput(
            "position",
            None,
            "a position still in play (advice is for a roll of a game not yet decided)",
            problem="every lighthouse is finished: the game is won",
        )


def _check_roll(kit: Kit, roll: Roll) -> None:
    faces = {f for die in kit.dice for f in die}
    for c in roll.colours:
        if c not in faces:
            raise InvalidInput("roll", c, "a face of the dice: " + ", ".join(sorted(faces)))


def advise(solution: LighthouseSolution, position: Position, roll: Roll) -> Advice:
    """The best decision for ``roll`` in ``position``, with every alternative's odds.

    The win probability of an alternative is that of the position it leads to
    under ``solution``'s policy from then on (docs/lighthouse.md, "What is computed").

    Parameters
    ----------
    solution : LighthouseSolution
        Tables of the kit, from :func:`solve`.
    position : Position
        A position of the kit still in play.
    roll : Roll
        The roll to play, e.g. ``Roll.from_faces(kit, ("boat", "red"))``.

    Returns
    -------
    Advice

    Raises
    ------
    InvalidInput
        The position does not fit the kit or is won, or a roll colour is not on the dice.

    See Also
    --------
    best_move : solve and advise in one call.

    Examples
    --------
    >>> kit = default_kit(2, sea_cards=2)
    >>> sol = solve(kit, exact=True)
    >>> adv = advise(sol, Position.start(kit), Roll(False, ("blue", "red"), Fraction(1, 18)))
    >>> adv.best.placements
    (('blue', 0), ('red', 0))
    """
    kit = solution.kit
    _check_in_play(kit, position)
    _check_roll(kit, roll)
    scored = [
        (d, _after(solution, position, roll, d)) for d in legal_decisions(kit, position, roll)
    ]
    ranked = sorted(enumerate(scored), key=lambda t: (-t[1][1], t[0]))
    return Advice(
        roll,
        tuple(s for _, s in ranked),
        solution.value(position),
        solution.error_bound,
        solution.policy,
    )


def best_move(
    kit: Kit, position: Position, roll: Roll, *, exact: bool = False, progress: bool = False
) -> Advice:
    """The optimal decision for ``roll`` in ``position``, with every alternative's odds.

    Solves every position of the kit under optimal play (:func:`solve`), then
    ranks the legal decisions (:func:`advise`).

    Parameters
    ----------
    kit : Kit
        At most :data:`MAX_EXACT_ISLANDS` islands (the full tables are needed).
    position : Position
        A position of the kit still in play (a won position is refused).
    roll : Roll
        The roll to play, e.g. ``Roll.from_faces(kit, ("boat", "red"))``.
    exact : bool
        Fractions (at most :data:`MAX_FRACTION_ISLANDS` islands) instead of floats.
    progress : bool
        A progress bar (stderr) over the DP's layers.

    Returns
    -------
    Advice
        ``status`` optimal.

    Raises
    ------
    InvalidInput
        The position does not fit the kit or is won; a roll colour not on the
        dice; a kit beyond the full tables; ``exact`` for a large kit.

    Examples
    --------
    >>> kit = default_kit(2, 2)
    >>> pos = Position((("red",), ()), boat=1, maurice=1)
    >>> adv = best_move(kit, pos, Roll.from_faces(kit, ("blue", "green")))
    >>> adv.best.to_dict()
    {'placements': [['blue', 0], ['green', 1]], 'bonus': None}
    """

    expect(kit, Kit, "kit", "a Kit (default_kit builds one)")

    expect(position, Position, "position", "a Position")

    expect(roll, Roll, "roll", "a Roll (Roll.from_faces builds one)")
    _check_in_play(kit, position)
    _check_roll(kit, roll)
    _check_dp(kit, full_tables=True, exact=exact)
    return advise(solve(kit, "optimal", exact=exact, progress=progress), position, roll)


def choose_decision(
    kit: Kit,
    position: Position,
    roll: Roll,
    policy: str,
    solution: LighthouseSolution | None = None,
    rng: np.random.Generator | None = None,
) -> Decision:
    """One decision of ``policy``: optimal (needs ``solution``), greedy or random (``rng``).

    Parameters
    ----------
    kit : Kit
    position : Position
    roll : Roll
    policy : {"optimal", "greedy", "random"}
    solution : LighthouseSolution, optional
        Optimal tables of the kit (for ``optimal``).
    rng : numpy.random.Generator, optional
        The random source (for ``random``).

    Returns
    -------
    Decision

    Raises
    ------
    InvalidInput
        Unknown policy, ``optimal`` without ``solution``, ``random`` without ``rng``.

    Examples
    --------
    >>> kit = default_kit(2)
    >>> choose_decision(kit, Position.start(kit), Roll.from_faces(kit, ("boat", "red")), "greedy")
    Decision(placements=(('red', 0),), bonus=None)
    """
    pol = _check_policy(policy)
    if pol == "optimal":
        if solution is None:
            raise InvalidInput("solution", None, "a solved table for the optimal policy")
        return advise(solution, position, roll).best
    weights = decision_weights(kit, position, roll, pol)
    if pol == "greedy" or len(weights) == 1:
        return weights[0][0]
    if rng is None:
        raise InvalidInput("rng", None, "a numpy Generator for the random policy")
    probs = np.array([float(wt) for _, wt in weights])
    return weights[int(rng.choice(len(weights), p=probs / probs.sum()))][0]


def upper_bound_by_disc_count(kit: Kit) -> Fraction:
    """A certified upper bound on the win probability of any policy, exact.

    Every placed disc comes from a colour face or from a bonus, and a bonus
    needs ``n`` returned discs, so a win needs at least ``4n`` colour faces before
    the boat lands (the winning turn may not move the boat past the last card);
    the bound is the exact probability of that event. Much faster than the DP,
    and loose (docs/lighthouse.md, "What is computed").

    Parameters
    ----------
    kit : Kit
        Any kit.

    Returns
    -------
    Fraction
        An upper bound on the win probability under every policy.

    Examples
    --------
    >>> upper_bound_by_disc_count(default_kit(1, sea_cards=1))
    Fraction(18125, 23328)
    """
    need = kit.discs_needed
    k = kit.sea_cards
    dist: dict[tuple[int, bool], Fraction] = {}
    for roll in roll_outcomes(kit):
        key = (len(roll.colours), roll.boat)
        dist[key] = dist.get(key, Fraction(0)) + roll.probability
    # state: (boat advances so far, colour faces so far capped at need) -> probability
    states: dict[tuple[int, int], Fraction] = {(0, 0): Fraction(1)}
    won = Fraction(0)
    for _ in range(10_000):
        if not states:
            break
        nxt: dict[tuple[int, int], Fraction] = {}
        for (b, f), p in states.items():
            for (faces, boat), q in dist.items():
                nb = b + (1 if boat else 0)
                if nb > k:
                    continue
                nf = f + faces
                if nf >= need:
                    won += p * q
                    continue
                nxt[(nb, nf)] = nxt.get((nb, nf), Fraction(0)) + p * q
        # A state that loops on itself (no face, no boat) only happens with blank dice.
        states = {s: p for s, p in nxt.items() if p}
    return won


# --- Monte Carlo -------------------------------------------------------------------------


@dataclass(frozen=True)
class SimulationResult:
    """Monte Carlo estimate of a policy's win probability and game statistics.

    From :func:`simulate`; ``status`` is ``estimate``.

    Parameters
    ----------
    policy : {"optimal", "greedy", "random"}
        The policy played.
    games : int
    wins : int
    ci95 : (float, float)
        The Wilson score 95% interval of the win probability.
    length_won, length_lost : tuple of int
        ``length_won[t]`` / ``length_lost[t]``: games won / lost at turn ``t``.
    final_boat : tuple of int
        ``final_boat[b]``: games ending with the boat on position ``b``
        (``sea_cards + 1``: landed on Maurice's island).
    seed : int or None
        The seed of the random generator.

    Examples
    --------
    >>> res = simulate(default_kit(1, 1), "greedy", 100, seed=3)
    >>> res.status, res.games
    (<Status.ESTIMATE: 'estimate'>, 100)
    """

    policy: Policy
    games: int
    wins: int
    ci95: tuple[float, float]
    length_won: tuple[int, ...]
    length_lost: tuple[int, ...]
    final_boat: tuple[int, ...]
    seed: int | None = None

    @property
    def status(self) -> Status:
        """Always ``estimate``: a sampled value with its confidence interval."""
        return Status.ESTIMATE

    @property
    def win_probability(self) -> float:
        """Fraction of games won."""
        return self.wins / self.games

    @property
    def half_width(self) -> float:
        """Half the width of the 95% interval."""
        return (self.ci95[1] - self.ci95[0]) / 2

    def to_dict(self) -> dict[str, Any]:
        """Plain data (docs/lighthouse.md, "JSON answers").

        Examples
        --------
        >>> sorted(simulate(default_kit(1, 1), "greedy", 10).to_dict())[:4]
        ['ci95', 'final_boat', 'games', 'length_lost']
        """
        return {
            "status": str(self.status),
            "policy": self.policy,
            "games": self.games,
            "seed": self.seed,
            "wins": self.wins,
            **probability_json("win_probability", self.win_probability),
            "ci95": list(self.ci95),
            "length_won": list(self.length_won),
            "length_lost": list(self.length_lost),
            "final_boat": list(self.final_boat),
        }


def wilson_interval(wins: int, games: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (default 95%).

    Parameters
    ----------
    wins : int
        Successes, ``0..games``.
    games : int
        Trials, at least 1.
    z : float
        The normal quantile (1.96 for 95%).

    Returns
    -------
    (float, float)
        The interval, clipped to [0, 1]; exactly 0 (1) when no (every) game is won.

    Raises
    ------
    InvalidInput
        ``games < 1``.

    References
    ----------
    E. B. Wilson, "Probable inference, the law of succession, and statistical
    inference", *Journal of the American Statistical Association* 22 (1927) 209-212.

    Examples
    --------
    >>> lo, hi = wilson_interval(50, 100)
    >>> round(lo, 4), round(hi, 4)
    (0.4038, 0.5962)
    """
    if games <= 0:
        raise InvalidInput("games", games, "a positive number of games")
    p = wins / games
    den = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / den
    half = z * np.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / den
    low = 0.0 if wins == 0 else max(0.0, float(centre - half))
    high = 1.0 if wins == games else min(1.0, float(centre + half))
    return (low, high)


def simulate(
    kit: Kit,
    policy: str = "greedy",
    games: int = DEFAULT_GAMES,
    *,
    seed: int = 0,
    solution: LighthouseSolution | None = None,
    progress: bool = False,
    batch: int = 20_000,
) -> SimulationResult:
    """Play ``games`` games of ``policy`` at once, vectorised with NumPy.

    Parameters
    ----------
    kit : Kit
        Any kit (8 islands and more included).
    policy : {"optimal", "greedy", "random"}
        ``optimal`` needs ``solution`` (a float or exact table of that kit) and
        plays its best decision; greedy and random follow docs/lighthouse.md
        ("The simple policies").
    games : int
        Number of games, 1..:data:`MAX_GAMES`.
    seed : int
        The seed of NumPy's random generator, >= 0.
    solution : LighthouseSolution, optional
        Tables of the kit, for ``optimal``.
    progress : bool
        A tqdm progress bar (stderr) over the games.
    batch : int
        Games simulated side by side.

    Returns
    -------
    SimulationResult
        ``status`` estimate, with the Wilson 95% interval.

    Raises
    ------
    InvalidInput
        Unknown policy, ``games`` outside 1..:data:`MAX_GAMES`, a negative seed,
        or ``optimal`` without a matching solution.

    References
    ----------
    N. Metropolis and S. Ulam, "The Monte Carlo method", *Journal of the
    American Statistical Association* 44 (1949) 335-341.

    Examples
    --------
    >>> res = simulate(default_kit(2, sea_cards=2), "greedy", 2000, seed=1)
    >>> res.ci95[0] < 0.6358 < res.ci95[1]
    True
    """
    pol = _check_policy(policy)
    games = _check_games(games)
    seed = _check_seed(seed)
    batch = read_int(batch, "batch", 1)
    if pol == "optimal" and (solution is None or solution.kit != kit):
        raise InvalidInput("solution", None, "a solved table of the same kit for optimal play")
    rng = np.random.default_rng(seed)
    geo = _geometry(kit)
    k = kit.sea_cards
    faces = [
        np.array([-1 if f == BOAT else geo.colours.index(f) for f in die], dtype=np.int64)
        for die in kit.dice
    ]
    table = None
    if pol == "optimal":
        assert solution is not None
        table = np.concatenate(
            (solution.values.astype(np.float64), solution.bonus_values.astype(np.float64)), axis=2
        )
    wins = 0
    length_won: dict[int, int] = {}
    length_lost: dict[int, int] = {}
    final_boat = [0] * (k + 2)
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=games, desc="lighthouse Monte Carlo", unit="game")
    done = 0
    while done < games:
        g = min(batch, games - done)
        w, lw, ll, fb = _simulate_batch(kit, geo, pol, g, rng, faces, table)
        wins += w
        for t, c in lw.items():
            length_won[t] = length_won.get(t, 0) + c
        for t, c in ll.items():
            length_lost[t] = length_lost.get(t, 0) + c
        for b in range(k + 2):
            final_boat[b] += fb[b]
        done += g
        if bar is not None:
            bar.update(g)
    if bar is not None:
        bar.close()
    longest = max([0, *length_won, *length_lost])
    return SimulationResult(
        pol,
        games,
        wins,
        wilson_interval(wins, games),
        tuple(length_won.get(t, 0) for t in range(longest + 1)),
        tuple(length_lost.get(t, 0) for t in range(longest + 1)),
        tuple(final_boat),
        seed,
    )


_monte_carlo = simulate  # for callers whose parameter `simulate` shadows the function


def _simulate_batch(
    kit: Kit,
    geo: _Geometry,
    policy: Policy,
    games: int,
    rng: np.random.Generator,
    faces: list[npt.NDArray[np.int64]],
    table: npt.NDArray[np.float64] | None,
) -> tuple[int, dict[int, int], dict[int, int], list[int]]:
    n, k = geo.n, kit.sea_cards
    st = np.zeros((games, n), dtype=np.int64)
    boat = np.zeros(games, dtype=np.int64)
    maurice = np.zeros(games, dtype=np.int64)
    alive = np.arange(games)
    wins = 0
    length_won: dict[int, int] = {}
    length_lost: dict[int, int] = {}
    final_boat = [0] * (k + 2)
    side = np.vstack([geo.colour_side, np.full((1, n), -1, dtype=np.int64)])  # row -1: no disc
    rank = np.argsort(np.argsort(np.array(geo.colours)))
    turn = 0
    while alive.size:
        turn += 1
        g = alive.size
        c1 = faces[0][rng.integers(len(faces[0]), size=g)]
        c2 = faces[1][rng.integers(len(faces[1]), size=g)]
        # Two colours are listed alphabetically, like Roll.colours (greedy's tie-break).
        swap = (c1 >= 0) & (c2 >= 0) & (rank[np.maximum(c1, 0)] > rank[np.maximum(c2, 0)])
        c1, c2 = np.where(swap, c2, c1), np.where(swap, c1, c2)
        if policy == "greedy":
            s, b, m, won, lost = _greedy_turn(
                geo, st[alive], boat[alive], maurice[alive], c1, c2, rng, side
            )
        else:
            s, b, m, won, lost = _turn(
                geo, policy, st[alive], boat[alive], maurice[alive], c1, c2, rng, table, side
            )
        ended = won | lost
        for flag, store in ((won, length_won), (lost, length_lost)):
            c = int(flag.sum())
            if c:
                store[turn] = store.get(turn, 0) + c
        wins += int(won.sum())
        for bb in np.minimum(b[ended], k + 1).tolist():
            final_boat[bb] += 1
        st[alive] = s
        boat[alive] = b
        maurice[alive] = m
        alive = alive[~ended]
    return wins, length_won, length_lost, final_boat


def _turn(
    geo: _Geometry,
    policy: Policy,
    s: npt.NDArray[np.int64],
    boat: npt.NDArray[np.int64],
    m: npt.NDArray[np.int64],
    c1: npt.NDArray[np.int64],
    c2: npt.NDArray[np.int64],
    rng: np.random.Generator,
    table: npt.NDArray[np.float64] | None,
    side: npt.NDArray[np.int64],
) -> tuple[
    npt.NDArray[np.int64],
    npt.NDArray[np.int64],
    npt.NDArray[np.int64],
    npt.NDArray[np.bool_],
    npt.NDArray[np.bool_],
]:
    """One turn of many games at once: lighthouse states, boat, Maurice, won, lost.

    ``c1``/``c2`` are the die faces as colour indices (-1 = boat), two colours
    in alphabetical order.
    """
    n, k = geo.n, geo.k
    g = s.shape[0]
    b = boat + ((c1 < 0) | (c2 < 0))
    lost = b > k
    # Candidates: order o, first lighthouse i (-1 = none), second j (-1 = none).
    best_key = np.full(g, -np.inf)
    chosen_state = s.copy()
    chosen_r = np.zeros(g, dtype=np.int64)
    draws = rng.random(g)
    cum = np.zeros(g)
    for o in (0, 1):
        a_col = c1 if o == 0 else c2
        b_col = c2 if o == 0 else c1
        o_ok = np.ones(g, dtype=bool) if o == 0 else (c1 >= 0) & (c2 >= 0) & (c1 != c2)
        n_orders = np.where((c1 >= 0) & (c2 >= 0) & (c1 != c2), 2, 1)
        t_a = _TRANS[s, np.clip(side[a_col], 0, 1)]
        take_a = (side[a_col] >= 0) & (t_a >= 0)
        any_a = take_a.any(axis=1)
        n_a = np.maximum(take_a.sum(axis=1), 1)
        for i in range(-1, n):
            if i < 0:
                ok_i = o_ok & ~any_a
                s1 = s
                r1 = (a_col >= 0).astype(np.int64)
                score_i = np.zeros(g)
            else:
                ok_i = o_ok & take_a[:, i]
                if not ok_i.any():
                    continue
                s1 = s.copy()
                s1[:, i] = np.where(ok_i, t_a[:, i], s[:, i])
                r1 = np.zeros(g, dtype=np.int64)
                score_i = (_DISCS[s[:, i]] * 16 - i).astype(np.float64)
            t_b = _TRANS[s1, np.clip(side[b_col], 0, 1)]
            take_b = (side[b_col] >= 0) & (t_b >= 0)
            any_b = take_b.any(axis=1)
            n_b = np.maximum(take_b.sum(axis=1), 1)
            for j in range(-1, n):
                if j < 0:
                    ok = ok_i & ~any_b
                    s2 = s1
                    r = r1 + (b_col >= 0)
                    score_j = np.zeros(g)
                else:
                    ok = ok_i & take_b[:, j]
                    if not ok.any():
                        continue
                    s2 = s1.copy()
                    s2[:, j] = np.where(ok, t_b[:, j], s1[:, j])
                    r = r1
                    score_j = (_DISCS[s1[:, j]] * 16 - j).astype(np.float64)
                if policy == "optimal":
                    assert table is not None
                    code = (s2 * geo.powers).sum(axis=1)
                    mm = m + r
                    col = np.where(mm < n, mm, n + mm % n)
                    key = table[code, np.minimum(b, k + 1), col]
                elif policy == "greedy":
                    key = (any_a * 2 - o) * 1e6 + score_i * 1e3 + score_j
                else:
                    cum = cum + np.where(ok, 1.0 / (n_orders * n_a * n_b), 0.0)
                    key = np.where(draws < cum, 1.0, -np.inf)
                better = ok & (key > best_key)
                if policy == "random":
                    best_key = np.where(ok & (key > 0), np.inf, best_key)
                else:
                    best_key = np.where(better, key, best_key)
                chosen_state[better] = s2[better]
                chosen_r[better] = r[better]
    s = chosen_state
    m = m + chosen_r
    bonus = (m >= n) & ~(s == FINISHED).all(axis=1)
    if bonus.any():
        s = _bonus(s, bonus, b, m % n, geo, policy, rng, table)
    m = m % n
    won = (s == FINISHED).all(axis=1) & ~lost
    return s, b, m, won, lost


def _greedy_turn(
    geo: _Geometry,
    s: npt.NDArray[np.int64],
    boat: npt.NDArray[np.int64],
    m: npt.NDArray[np.int64],
    c1: npt.NDArray[np.int64],
    c2: npt.NDArray[np.int64],
    rng: np.random.Generator,
    side: npt.NDArray[np.int64],
) -> tuple[
    npt.NDArray[np.int64],
    npt.NDArray[np.int64],
    npt.NDArray[np.int64],
    npt.NDArray[np.bool_],
    npt.NDArray[np.bool_],
]:
    """:func:`_turn` for the greedy policy, step by step instead of over all candidates."""
    n, k = geo.n, geo.k
    b = boat + ((c1 < 0) | (c2 < 0))
    lost = b > k
    penalty = np.arange(n)

    def takers(
        state: npt.NDArray[np.int64], col: npt.NDArray[np.int64]
    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
        sd = side[col]
        t = _TRANS[state, np.clip(sd, 0, 1)]
        return t, (sd >= 0) & (t >= 0)

    ok1 = takers(s, c1)[1].any(axis=1)
    ok2 = takers(s, c2)[1].any(axis=1)
    swap = (c1 >= 0) & (c2 >= 0) & (c1 != c2) & ~ok1 & ok2
    first, second = np.where(swap, c2, c1), np.where(swap, c1, c2)
    s = s.copy()
    returned = np.zeros(s.shape[0], dtype=np.int64)
    for col in (first, second):
        t, ok = takers(s, col)
        score = np.where(ok, _DISCS[s] * 16 - penalty, -(10**6))
        best = score.argmax(axis=1)
        has = ok.any(axis=1)
        rows = np.flatnonzero(has)
        s[rows, best[rows]] = t[rows, best[rows]]
        returned += (col >= 0) & ~has
    m = m + returned
    bonus = (m >= n) & ~(s == FINISHED).all(axis=1)
    if bonus.any():
        s = _bonus(s, bonus, b, m % n, geo, "greedy", rng, None)
    m = m % n
    won = (s == FINISHED).all(axis=1) & ~lost
    return s, b, m, won, lost


def _bonus(
    s: npt.NDArray[np.int64],
    mask: npt.NDArray[np.bool_],
    b: npt.NDArray[np.int64],
    m: npt.NDArray[np.int64],
    geo: _Geometry,
    policy: Policy,
    rng: np.random.Generator,
    table: npt.NDArray[np.float64] | None,
) -> npt.NDArray[np.int64]:
    g, n = s.shape
    best = np.full(g, -np.inf)
    out = s.copy()
    count = np.zeros(g)
    for i in range(n):
        for side in (0, 1):
            count += _TRANS[s[:, i], side] >= 0
    draws = np.floor(rng.random(g) * np.maximum(count, 1))
    seen = np.zeros(g)
    for i in range(n):
        for side in (0, 1):
            t = _TRANS[s[:, i], side]
            ok = mask & (t >= 0)
            if not ok.any():
                continue
            if policy == "optimal":
                assert table is not None
                code = (s * geo.powers).sum(axis=1) + (t - s[:, i]) * geo.powers[i]
                key = table[np.where(ok, code, 0), np.minimum(b, geo.k + 1), m]
            elif policy == "greedy":
                key = (_DISCS[s[:, i]] * 32 - 2 * i - side).astype(np.float64)
            else:
                key = np.where(seen == draws, 1.0, -np.inf)
                seen = seen + ok
            better = ok & (key > best)
            best = np.where(better, key, best)
            out[better] = s[better]
            out[better, i] = t[better]
    return out


# --- exact distributions of the game's length and of the boat at the end ------------------


@dataclass(frozen=True)
class OutcomeDistribution:
    """Exact distribution of how a game ends under one policy (from :func:`outcome_distribution`).

    Parameters
    ----------
    policy : {"optimal", "greedy", "random"}
    won_at, lost_at : tuple of Fraction
        ``won_at[t]`` / ``lost_at[t]``: the probability that the game is won /
        lost at turn ``t`` (index 0 unused).
    final_boat : tuple of Fraction
        ``final_boat[b]``: the probability that the game ends with the boat on
        position ``b`` (``sea_cards + 1``: landed).

    Examples
    --------
    >>> dist = outcome_distribution(default_kit(1, 1), "greedy")
    >>> dist.status, dist.win_probability
    (<Status.EXACT: 'exact'>, Fraction(1226471, 1679616))
    """

    policy: Policy
    won_at: tuple[Fraction, ...]
    lost_at: tuple[Fraction, ...]
    final_boat: tuple[Fraction, ...]

    @property
    def status(self) -> Status:
        """``optimal`` for the optimal policy, ``exact`` for greedy or random play."""
        return _policy_status(self.policy)

    @property
    def win_probability(self) -> Fraction:
        """Total probability of winning."""
        return sum(self.won_at, Fraction(0))

    @property
    def expected_turns(self) -> Fraction:
        """Expected number of turns the game lasts."""
        return sum(
            (t * (w + lo) for t, (w, lo) in enumerate(zip(self.won_at, self.lost_at, strict=True))),
            Fraction(0),
        )

    def to_dict(self) -> dict[str, Any]:
        """Plain data: each list of probabilities as floats with the exact ``"p/q"`` beside it.

        Examples
        --------
        >>> outcome_distribution(default_kit(1, 1), "greedy").to_dict()["won_at_exact"][:3]
        ['0/1', '0/1', '1/9']
        """
        return {
            "status": str(self.status),
            "policy": self.policy,
            **probability_json("win_probability", self.win_probability),
            "expected_turns": float(self.expected_turns),
            "expected_turns_exact": exact_text(self.expected_turns),
            "won_at": [float(p) for p in self.won_at],
            "won_at_exact": [exact_text(p) for p in self.won_at],
            "lost_at": [float(p) for p in self.lost_at],
            "lost_at_exact": [exact_text(p) for p in self.lost_at],
            "final_boat": [float(p) for p in self.final_boat],
            "final_boat_exact": [exact_text(p) for p in self.final_boat],
        }


def outcome_distribution(
    kit: Kit,
    policy: str = "optimal",
    solution: LighthouseSolution | None = None,
    *,
    max_positions: int = 200_000,
) -> OutcomeDistribution:
    """Exact distribution of the game's length and of the final boat position.

    Propagates the probability of every reachable position turn by turn
    (Fractions). ``optimal`` plays the first best decision of ``advise`` on
    ``solution`` (ties change the length distribution, not the win probability).

    Parameters
    ----------
    kit : Kit
        A small kit.
    policy : {"optimal", "greedy", "random"}
    solution : LighthouseSolution, optional
        Tables of the kit, for ``optimal``.
    max_positions : int
        Most positions in one turn before giving up.

    Returns
    -------
    OutcomeDistribution

    Raises
    ------
    InvalidInput
        Unknown policy, ``optimal`` without a solution of this kit, or more than
        ``max_positions`` positions in a turn.

    References
    ----------
    J. G. Kemeny and J. L. Snell, *Finite Markov Chains*, Van Nostrand, 1960
    (the distribution of absorption times, pushed forward step by step).

    Examples
    --------
    >>> kit = default_kit(1, sea_cards=1)
    >>> dist = outcome_distribution(kit, "greedy")
    >>> dist.win_probability == solve(kit, "greedy", exact=True).exact_win_probability()
    True
    """
    pol = _check_policy(policy)
    if pol == "optimal" and (solution is None or solution.kit != kit):
        raise InvalidInput("solution", None, "a solved table of the same kit for optimal play")
    rolls = roll_outcomes(kit)
    k = kit.sea_cards
    frontier: dict[Position, Fraction] = {Position.start(kit): Fraction(1)}
    won_at: list[Fraction] = [Fraction(0)]
    lost_at: list[Fraction] = [Fraction(0)]
    final_boat = [Fraction(0)] * (k + 2)
    while frontier:
        if len(frontier) > max_positions:
            raise InvalidInput(
                "kit", len(kit.islands), f"a kit with at most {max_positions} positions per turn"
            )
        won_at.append(Fraction(0))
        lost_at.append(Fraction(0))
        nxt: dict[Position, Fraction] = {}
        for pos, p in frontier.items():
            for roll in rolls:
                if pol == "optimal":
                    assert solution is not None
                    choices = [(advise(solution, pos, roll).best, Fraction(1))]
                else:
                    choices = decision_weights(kit, pos, roll, pol)
                for decision, wt in choices:
                    q = p * roll.probability * wt
                    res = play_turn(kit, pos, roll, decision, check=False)
                    if res.outcome is Outcome.PLAYING:
                        nxt[res.position] = nxt.get(res.position, Fraction(0)) + q
                    elif res.outcome is Outcome.WON:
                        won_at[-1] += q
                        final_boat[res.position.boat] += q
                    else:
                        lost_at[-1] += q
                        final_boat[k + 1] += q
        frontier = nxt
    return OutcomeDistribution(pol, tuple(won_at), tuple(lost_at), tuple(final_boat))


# --- the competitive variant ----------------------------------------------------------


@dataclass(frozen=True)
class CompetitiveResult:
    """Each seat's chance of winning the competitive variant, by simulation.

    From :func:`simulate_competitive` (or :func:`competitive_odds` for larger
    kits); ``status`` is ``estimate``.

    Parameters
    ----------
    policy : {"greedy", "random"}
        The policy every seat plays.
    seats : int
    games : int
    wins : tuple of int
        ``wins[s]``: games won by seat ``s`` (seat 0 starts).
    ci95 : tuple of (float, float)
        Each seat's Wilson 95% interval.
    unfinished : int
        Games that hit the turn limit.
    mean_turns : float
        Mean game length in turns (unfinished games count the limit).
    seed : int or None
        The seed of the random generator.

    Examples
    --------
    >>> res = simulate_competitive(default_kit(2, 3), 2, "greedy", 50, seed=1)
    >>> res.status, len(res.win_probability)
    (<Status.ESTIMATE: 'estimate'>, 2)
    """

    policy: Policy
    seats: int
    games: int
    wins: tuple[int, ...]
    ci95: tuple[tuple[float, float], ...]
    unfinished: int
    mean_turns: float
    seed: int | None = None

    @property
    def status(self) -> Status:
        """Always ``estimate``: sampled values with their confidence intervals."""
        return Status.ESTIMATE

    @property
    def win_probability(self) -> tuple[float, ...]:
        """Each seat's estimated chance of winning."""
        return tuple(w / self.games for w in self.wins)

    def to_dict(self) -> dict[str, Any]:
        """Plain data (docs/lighthouse.md, "JSON answers"): one object per seat, seat 1 first.

        Examples
        --------
        >>> res = simulate_competitive(default_kit(2, 3), 2, "greedy", 50, seed=1)
        >>> sorted(res.to_dict()["by_seat"][0])
        ['ci95', 'seat', 'win_probability', 'win_probability_exact', 'wins']
        """
        return {
            "status": str(self.status),
            "method": "monte carlo",
            "policy": self.policy,
            "seats": self.seats,
            "games": self.games,
            "seed": self.seed,
            "unfinished": self.unfinished,
            "mean_turns": self.mean_turns,
            "by_seat": [
                {
                    "seat": s + 1,
                    "wins": w,
                    **probability_json("win_probability", w / self.games),
                    "ci95": list(ci),
                }
                for s, (w, ci) in enumerate(zip(self.wins, self.ci95, strict=True))
            ],
        }


def competitive_kit(seats: int = 2, sea_cards: int = 3) -> Kit:
    """The competitive kit (docs/lighthouse.md, "Competitive variant").

    2 seats hold 3 islands each, 3 or 4 seats 2 each, of the default kit.

    Parameters
    ----------
    seats : int
        2, 3 or 4 players.
    sea_cards : int
        Sea cards (the variant plays with 3).

    Returns
    -------
    Kit

    Raises
    ------
    InvalidInput
        ``seats`` outside 2..4, or a bad number of sea cards.

    Examples
    --------
    >>> len(competitive_kit(2).islands), competitive_kit(2).sea_cards
    (6, 3)
    """
    if isinstance(seats, bool) or not isinstance(seats, int) or not 2 <= seats <= 4:
        raise InvalidInput("seats", seats, "2, 3 or 4 players")
    return default_kit(6 if seats == 2 else 2 * seats, sea_cards)


CompetitiveState = tuple[tuple[tuple[str, ...], ...], int, int, int]
"""(lighthouse stacks, boat, Maurice offset, seat to play) in the competitive variant."""


def _pick(
    options: list[Any], key: Callable[[Any], Any], policy: Policy
) -> list[tuple[Any, Fraction]]:
    if policy == "greedy":
        return [(max(options, key=key), Fraction(1))]
    return [(o, Fraction(1, len(options))) for o in options]


def _bonus_key(
    kit: Kit, stacks: tuple[tuple[str, ...], ...]
) -> Callable[[tuple[str, int]], tuple[int, int, int]]:
    """Greedy's bonus: the lighthouse with most discs, first island, its first colour."""

    def key(option: tuple[str, int]) -> tuple[int, int, int]:
        colour, i = option
        return (len(stacks[i]), -i, -kit.islands[i].index(colour))

    return key


def _lay(stacks: tuple[tuple[str, ...], ...], i: int, colour: str) -> tuple[tuple[str, ...], ...]:
    return (*stacks[:i], (*stacks[i], colour), *stacks[i + 1 :])


def _own_placements(
    kit: Kit,
    mine: list[int],
    stacks: tuple[tuple[str, ...], ...],
    order: Sequence[str],
    policy: Policy,
) -> list[tuple[tuple[tuple[str, ...], ...], int, Fraction]]:
    if not order:
        return [(stacks, 0, Fraction(1))]
    colour, rest = order[0], order[1:]
    takers = [i for i in mine if can_take(kit.islands[i], stacks[i], colour)]
    if not takers:
        return [(s2, r + 1, w) for s2, r, w in _own_placements(kit, mine, stacks, rest, policy)]
    out = []
    for i, wi in _pick(takers, lambda i: (len(stacks[i]), -i), policy):
        for s2, r, w in _own_placements(kit, mine, _lay(stacks, i, colour), rest, policy):
            out.append((s2, r, wi * w))
    return out


def competitive_branches(
    kit: Kit, seats: int, state: CompetitiveState, roll: Roll, policy: str
) -> list[tuple[CompetitiveState, Fraction, int]]:
    """One competitive turn for ``roll``: (next state, probability, winner or -1) per branch.

    Seat ``s`` owns a contiguous block of ``len(islands) // seats`` islands
    (seat 0 holds Maurice's island) and builds only those. When the boat moves
    past the last card the active seat removes the top disc of another seat's
    unfinished lighthouse (greedy: the one with most discs, first on ties;
    random: uniform), the boat goes back onto position ``sea_cards - 1`` and the
    turn goes on with the colour dice. Discs, Maurice and the bonus follow the
    cooperative rules restricted to the active seat's own lighthouses and the
    greedy/random rules of docs/lighthouse.md. A seat that finishes all its
    lighthouses wins at once (docs/lighthouse.md, "Competitive variant").

    Parameters
    ----------
    kit : Kit
    seats : int
        Players, each holding ``len(kit.islands) // seats`` islands.
    state : CompetitiveState
        (stacks, boat, Maurice offset, seat to play).
    roll : Roll
    policy : {"greedy", "random"}

    Returns
    -------
    list of (CompetitiveState, Fraction, int)
        The branches; their probabilities sum to 1.

    Raises
    ------
    InvalidInput
        An unknown policy.

    Examples
    --------
    >>> kit = competitive_kit(2)
    >>> start = (((),) * 6, 0, 0, 0)
    >>> [(b[0][0][0], b[2]) for b in
    ...  competitive_branches(kit, 2, start, Roll(True, ("red",), Fraction(1, 18)), "greedy")]
    [(('red',), -1)]
    """
    pol = _check_policy(policy)
    stacks, boat, maurice, seat = state
    n, k = len(kit.islands), kit.sea_cards
    per = n // seats
    mine = [i for i in range(n) if i // per == seat]
    starts: list[tuple[tuple[tuple[str, ...], ...], int, Fraction]] = [(stacks, boat, Fraction(1))]
    if roll.boat:
        if boat + 1 > k:
            back = max(k - 1, 0)
            targets = [i for i in range(n) if i // per != seat and 0 < len(stacks[i]) < 4]
            starts = [(stacks, back, Fraction(1))]
            if targets:
                starts = [
                    ((*stacks[:v], stacks[v][:-1], *stacks[v + 1 :]), back, w)
                    for v, w in _pick(targets, lambda i: (len(stacks[i]), -i), pol)
                ]
        else:
            starts = [(stacks, boat + 1, Fraction(1))]
    out: list[tuple[CompetitiveState, Fraction, int]] = []
    for st0, b0, w0 in starts:
        colours = list(roll.colours)
        orders = [colours]
        if len(colours) == 2 and colours[0] != colours[1]:
            if pol == "greedy":
                ok = [any(can_take(kit.islands[i], st0[i], c) for i in mine) for c in colours]
                orders = [colours[::-1]] if ok[1] and not ok[0] else [colours]
            else:
                orders = [colours, colours[::-1]]
        for order in orders:
            for st1, returned, w1 in _own_placements(kit, mine, st0, order, pol):
                bonus: list[tuple[tuple[tuple[str, ...], ...], Fraction]] = [(st1, Fraction(1))]
                if maurice + returned >= n:
                    options = [
                        (c, i)
                        for i in mine
                        for c in kit.islands[i]
                        if can_take(kit.islands[i], st1[i], c)
                    ]
                    if options:
                        bonus = [
                            (_lay(st1, i, c), w)
                            for (c, i), w in _pick(
                                options,
                                _bonus_key(kit, st1),
                                pol,
                            )
                        ]
                for st2, w2 in bonus:
                    won = all(len(st2[i]) == 4 for i in mine)
                    nxt = (st2, b0, (maurice + returned) % n, seat if won else (seat + 1) % seats)
                    out.append((nxt, w0 * w1 * w2 / len(orders), seat if won else -1))
    return out


def _check_competitive(kit: Kit, seats: int, policy: str) -> Policy:
    pol = _check_policy(policy)
    if pol == "optimal":
        raise InvalidInput(
            "policy",
            policy,
            "greedy or random for the competitive variant (its optimum is not solved)",
        )
    n = len(kit.islands)
    if isinstance(seats, bool) or not isinstance(seats, int) or not 2 <= seats <= 4 or n % seats:
        raise InvalidInput("seats", seats, f"2, 3 or 4 seats dividing the {n} islands")
    return pol


def simulate_competitive(
    kit: Kit,
    seats: int = 2,
    policy: str = "greedy",
    games: int = DEFAULT_GAMES,
    *,
    seed: int = 0,
    max_turns: int = 2_000,
    progress: bool = False,
) -> CompetitiveResult:
    """Play the competitive variant ``games`` times (rules: :func:`competitive_branches`).

    Parameters
    ----------
    kit : Kit
    seats : int
        2, 3 or 4 players dividing the islands.
    policy : {"greedy", "random"}
        Every seat's policy.
    games : int
        1..:data:`MAX_GAMES` (about 550 games a second for 2 x 3 islands).
    seed : int
        The seed of NumPy's random generator, >= 0.
    max_turns : int
        Games longer than this count as unfinished.
    progress : bool
        A tqdm progress bar (stderr) over the games.

    Returns
    -------
    CompetitiveResult

    Raises
    ------
    InvalidInput
        Unknown or optimal policy (the optimum is not solved), islands not
        divisible among the seats, ``games`` outside 1..:data:`MAX_GAMES`, a
        negative seed.

    References
    ----------
    E. B. Wilson (1927), for the intervals (see :func:`wilson_interval`).

    Examples
    --------
    >>> res = simulate_competitive(competitive_kit(2), 2, "greedy", 200, seed=1)
    >>> sum(res.wins) + res.unfinished
    200
    """
    pol = _check_competitive(kit, seats, policy)
    games = _check_games(games)
    seed = _check_seed(seed)
    max_turns = read_int(max_turns, "max_turns", 1)
    rng = np.random.default_rng(seed)
    n = len(kit.islands)
    wins = [0] * seats
    unfinished = 0
    turns_total = 0
    iterator: Any = range(games)
    if progress:
        from tqdm import tqdm

        iterator = tqdm(iterator, desc="competitive games", unit="game")
    for _ in iterator:
        state: CompetitiveState = (((),) * n, 0, 0, 0)
        winner = -1
        for turn in range(1, max_turns + 1):
            faces = [die[int(rng.integers(len(die)))] for die in kit.dice]
            roll = Roll(BOAT in faces, tuple(sorted(f for f in faces if f != BOAT)), Fraction(1))
            branches = competitive_branches(kit, seats, state, roll, pol)
            pick = 0
            if len(branches) > 1:
                weights = np.array([float(w) for _, w, _ in branches])
                pick = int(rng.choice(len(branches), p=weights / weights.sum()))
            state, _, winner = branches[pick]
            if winner >= 0:
                turns_total += turn
                break
        if winner < 0:
            unfinished += 1
            turns_total += max_turns
        else:
            wins[winner] += 1
    return CompetitiveResult(
        pol,
        seats,
        games,
        tuple(wins),
        tuple(wilson_interval(w, games) for w in wins),
        unfinished,
        turns_total / games,
        seed,
    )


@dataclass(frozen=True)
class CompetitiveExact:
    """Each seat's exact chance of winning the competitive variant under a fixed policy.

    From :func:`competitive_exact`; ``status`` is ``exact``. The game is an
    absorbing Markov chain with cycles (the boat removes discs); the absorption
    probabilities solve a sparse linear system in floats.

    Parameters
    ----------
    policy : {"greedy", "random"}
    seats : int
    positions : int
        Reachable positions (transient states of the chain).
    win_probability : tuple of float
        Each seat's chance, seat 0 (who starts) first.
    residual : float
        Largest residual of the linear solve.
    error_bound : float
        Every chance is within this of the exact value (see :func:`competitive_exact`).

    Examples
    --------
    >>> res = competitive_exact(default_kit(2, 2), 2, "greedy")
    >>> res.status, round(sum(res.win_probability), 9)
    (<Status.EXACT: 'exact'>, 1.0)
    """

    policy: Policy
    seats: int
    positions: int
    win_probability: tuple[float, ...]
    residual: float
    error_bound: float = 0.0

    @property
    def status(self) -> Status:
        """Always ``exact``: the chances of a fixed policy, floats within ``error_bound``."""
        return Status.EXACT

    def to_dict(self) -> dict[str, Any]:
        """Plain data (docs/lighthouse.md, "JSON answers"): one object per seat, seat 1 first.

        Examples
        --------
        >>> competitive_exact(default_kit(2, 2), 2, "greedy").to_dict()["method"]
        'sparse linear solve'
        """
        return {
            "status": str(self.status),
            "method": "sparse linear solve",
            "policy": self.policy,
            "seats": self.seats,
            "positions": self.positions,
            "residual": self.residual,
            "error_bound": self.error_bound,
            "by_seat": [
                {"seat": s + 1, **probability_json("win_probability", p)}
                for s, p in enumerate(self.win_probability)
            ],
        }


def competitive_exact(
    kit: Kit, seats: int = 2, policy: str = "greedy", *, max_positions: int = 50_000
) -> CompetitiveExact:
    """Exact chances of each seat in the competitive variant, for small kits.

    Enumerates the positions reachable from the start (seat 0 to play), builds
    the transition matrix of the policy and solves ``(I - Q) X = R`` with a
    sparse LU factorisation (SciPy's SuperLU).

    Parameters
    ----------
    kit : Kit
        A small kit (:data:`EXACT_COMPETITIVE_ISLANDS` islands: about 10,000 positions).
    seats : int
        2, 3 or 4 players dividing the islands.
    policy : {"greedy", "random"}
    max_positions : int
        Most reachable positions before giving up.

    Returns
    -------
    CompetitiveExact

    Raises
    ------
    InvalidInput
        Bad policy or seats, more than ``max_positions`` reachable positions.

    Notes
    -----
    Error bound: the error of the computed ``X`` is ``N (R - (I - Q) X)`` with
    ``N = (I - Q)^-1 >= 0`` the fundamental matrix, whose largest row sum is
    the longest expected time to absorption ``t`` (solved with the same
    factorisation, ``(I - Q) t = 1``). So every chance is within
    ``max(t) * residual``; the stated bound doubles it for the rounding of ``t``
    and of the residual itself.

    References
    ----------
    J. G. Kemeny and J. L. Snell, *Finite Markov Chains*, 1960 (absorbing
    chains, the fundamental matrix). X. S. Li, "An overview of SuperLU", *ACM
    Transactions on Mathematical Software* 31 (2005) 302-325.

    Examples
    --------
    >>> kit = competitive_kit(2, sea_cards=2)
    >>> tiny = Kit(kit.islands[:2], kit.dice, 2)
    >>> res = competitive_exact(tiny, 2, "greedy")
    >>> round(sum(res.win_probability), 9), res.error_bound < 1e-9
    (1.0, True)
    """
    pol = _check_competitive(kit, seats, policy)
    # SciPy is loaded only here: `import isles.lighthouse` stays quick.
    from scipy.sparse import coo_matrix, identity
    from scipy.sparse.linalg import splu

    rolls = roll_outcomes(kit)
    start: CompetitiveState = (((),) * len(kit.islands), 0, 0, 0)
    index: dict[CompetitiveState, int] = {start: 0}
    queue = [start]
    rows: list[int] = []
    cols: list[int] = []
    probs: list[float] = []
    absorb = [[0.0] * seats]
    head = 0
    while head < len(queue):
        state = queue[head]
        here = head
        head += 1
        for roll in rolls:
            for nxt, w, winner in competitive_branches(kit, seats, state, roll, pol):
                p = float(roll.probability * w)
                if winner >= 0:
                    absorb[here][winner] += p
                    continue
                j = index.get(nxt)
                if j is None:
                    if len(index) >= max_positions:
                        raise InvalidInput(
                            "kit",
                            None,
                            f"a competitive kit with at most {max_positions} reachable "
                            "positions (simulate_competitive plays larger ones)",
                            problem=f"{len(kit.islands)} islands reach more",
                        )
                    j = index[nxt] = len(queue)
                    queue.append(nxt)
                    absorb.append([0.0] * seats)
                rows.append(here)
                cols.append(j)
                probs.append(p)
    size = len(queue)
    q = coo_matrix((probs, (rows, cols)), shape=(size, size)).tocsc()
    a = (identity(size, format="csc") - q).tocsc()
    r = np.array(absorb)
    lu = splu(a)
    x = lu.solve(r).reshape(size, seats)
    steps = lu.solve(np.ones(size))
    residual = float(np.abs(a @ x - r).max())
    bound = 2.0 * float(np.abs(steps).max()) * max(residual, 2.0**-53)
    return CompetitiveExact(pol, seats, size, tuple(float(v) for v in x[0]), residual, bound)


def competitive_odds(
    kit: Kit,
    seats: int = 2,
    policy: str = "greedy",
    *,
    games: int | None = None,
    seed: int | None = None,
    progress: bool = False,
) -> CompetitiveExact | CompetitiveResult:
    """Each seat's chance in the competitive variant, exact for small kits, else simulated.

    Kits of at most :data:`EXACT_COMPETITIVE_ISLANDS` islands are solved exactly
    (:func:`competitive_exact`); larger ones are simulated
    (:func:`simulate_competitive`), with ``games`` (default :data:`DEFAULT_GAMES`).

    Parameters
    ----------
    kit : Kit
    seats : int
        2, 3 or 4 players dividing the islands.
    policy : {"greedy", "random"}
        Every seat's policy.
    games : int, optional
        Games to simulate, 1..:data:`MAX_GAMES`; only when the kit is simulated.
    seed : int, optional
        The simulation's seed (default 0); only when the kit is simulated.
    progress : bool
        A progress bar (stderr) over the simulated games.

    Returns
    -------
    CompetitiveExact or CompetitiveResult
        ``status`` exact or estimate.

    Raises
    ------
    InvalidInput
        Bad policy or seats; ``games`` or ``seed`` for a kit solved exactly (they
        would do nothing); ``games`` above :data:`MAX_GAMES`.

    Examples
    --------
    >>> competitive_odds(default_kit(2, 3)).status
    <Status.EXACT: 'exact'>
    >>> competitive_odds(default_kit(2, 3), games=10)
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: games: 10 is invalid; expected games only ...
    """

    expect(kit, Kit, "kit", "a Kit (competitive_kit builds one)")
    _check_competitive(kit, seats, policy)
    if len(kit.islands) <= EXACT_COMPETITIVE_ISLANDS:
        for name, value in (("games", games), ("seed", seed)):
            if value is not None:
                raise InvalidInput(
                    name,
                    value,
                    f"{name} only when the kit is simulated (more than "
                    f"{EXACT_COMPETITIVE_ISLANDS} islands; smaller kits are solved exactly)",
                )
        return competitive_exact(kit, seats, policy)
    return simulate_competitive(
        kit,
        seats,
        policy,
        DEFAULT_GAMES if games is None else games,
        seed=0 if seed is None else seed,
        progress=progress,
    )


# --- the odds of a kit in one call -------------------------------------------------------


def _positions(kit: Kit) -> int:
    n = len(kit.islands)
    return int(N_STATES**n * (kit.sea_cards + 1) * n)


def _dp_fits(kit: Kit) -> bool:
    """Whether the exact DP (the start-value sweep at least) takes this kit."""
    return (
        len(kit.islands) <= MAX_SWEEP_ISLANDS
        and dp_memory_bytes(kit, full_tables=False) <= MAX_DP_BYTES
    )


def odds_method(kit: Kit, *, simulate: bool = False, certify: float | None = None) -> Method:
    """How :func:`odds` computes the odds of ``kit``: chosen by size.

    Parameters
    ----------
    kit : Kit
    simulate : bool
        Ask for a Monte Carlo estimate instead of the exact sweep (kits of more
        than :data:`MAX_EXACT_ISLANDS` islands).
    certify : float, optional
        Ask for a certified lower bound (same kits).

    Returns
    -------
    {"dp", "dp sweep", "monte carlo"}
        ``dp``: every position (:func:`solve`) when its tables fit in
        :data:`FULL_TABLES_BYTES`; ``dp sweep``: the start values in bounded
        memory (:func:`win_probability`) when that fits in :data:`MAX_DP_BYTES`
        (7 and 8 islands); ``monte carlo``: simulation and certified bounds,
        beyond the DP or when asked.

    Raises
    ------
    InvalidInput
        ``simulate`` or ``certify`` for a kit the exact DP answers within
        minutes (at most :data:`MAX_EXACT_ISLANDS` islands).

    Examples
    --------
    >>> [odds_method(default_kit(n)) for n in (6, 7, 8)]
    ['dp', 'dp sweep', 'dp sweep']
    >>> odds_method(default_kit(8), simulate=True)
    'monte carlo'
    >>> odds_method(default_kit(4), simulate=True)
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: simulate: True is invalid; expected simulate only ...
    """
    n = len(kit.islands)
    fits = _dp_fits(kit)
    if not isinstance(simulate, bool):
        raise InvalidInput("simulate", simulate, "true or false")
    asked: list[tuple[str, object]] = [("simulate", True)] if simulate else []
    if certify is not None:
        asked.append(("certify", certify))
    for name, value in asked:
        if fits and n <= MAX_EXACT_ISLANDS:
            raise InvalidInput(
                name,
                value,
                f"{name} only for kits of more than {MAX_EXACT_ISLANDS} islands: "
                f"the exact DP answers {n} islands",
            )
    if asked or not fits:
        return "monte carlo"
    if dp_memory_bytes(kit, full_tables=True) <= FULL_TABLES_BYTES:
        return "dp"
    return "dp sweep"


def _start_values(
    kit: Kit, policy: Policy, method: Method, exact: bool, progress: bool
) -> tuple[tuple[Fraction | float, ...], float]:
    """Start values for 1..sea_cards and their error bound, by full tables or the sweep."""
    if method == "dp":
        sol = solve(kit, policy, exact=exact, progress=progress)
        return sol.by_sea_cards, sol.error_bound
    start = win_probability(kit, policy, exact=exact, progress=progress)
    return start.by_sea_cards, start.error_bound


@dataclass(frozen=True)
class Odds:
    """The odds of a kit under one policy, from :func:`odds`: what was computed, and how.

    Parameters
    ----------
    kit : Kit
    policy : {"optimal", "greedy", "random"}
        The policy the answer is about.
    status : Status
        ``optimal`` (optimal play, by the DP), ``exact`` (greedy or random play,
        by the DP) or ``estimate`` (Monte Carlo and certified bounds).
    method : {"dp", "dp sweep", "monte carlo"}
    win_probability : Fraction or float or None
        From the start. A Fraction when ``exact=True`` was asked; a float within
        ``error_bound`` from the DP; the sampled estimate of greedy or random
        play; None for optimal play beyond the DP (see the bounds).
    error_bound : float or None
        The DP's stated bound (0 for Fractions); None for estimates.
    by_sea_cards : tuple of Fraction or float, or None
        The DP's win probability with 1..``sea_cards`` sea cards.
    positions : int or None
        Positions the DP valued.
    upper_bound : Fraction or float
        A certified upper bound on ``policy``'s win probability (the disc-count
        bound, exact, or greedy's forward evaluation when tighter).
    lower_bound : float or None
        A certified lower bound (greedy evaluated exactly forward, ``certify``).
    min_mass : float or None
        The ``certify`` threshold: positions less likely were dropped.
    simulation : SimulationResult or None
        The Monte Carlo run; its ``policy`` is what was actually played (greedy
        when ``policy`` is optimal: greedy is one way to play, so its estimate
        is a statistical lower estimate of the optimum).

    Examples
    --------
    >>> res = odds(default_kit(1, 1), exact=True)
    >>> res.status, res.method, res.win_probability
    (<Status.OPTIMAL: 'optimal'>, 'dp', Fraction(1226471, 1679616))
    """

    kit: Kit
    policy: Policy
    status: Status
    method: Method
    win_probability: Fraction | float | None
    error_bound: float | None
    by_sea_cards: tuple[Fraction | float, ...] | None
    positions: int | None
    upper_bound: Fraction | float
    lower_bound: float | None = None
    min_mass: float | None = None
    simulation: SimulationResult | None = None

    @property
    def simulated_policy(self) -> Policy | None:
        """The policy the Monte Carlo run played, or None when nothing was simulated."""
        return None if self.simulation is None else self.simulation.policy

    def to_dict(self) -> dict[str, Any]:
        """Plain data (docs/lighthouse.md, "JSON answers"); ``--json`` prints exactly this.

        Examples
        --------
        >>> d = odds(default_kit(1, 1), "greedy").to_dict()
        >>> d["status"], d["method"], d["simulated_policy"]
        ('exact', 'dp', None)
        """
        return {
            "status": str(self.status),
            "policy": self.policy,
            "method": self.method,
            "islands": len(self.kit.islands),
            "sea_cards": self.kit.sea_cards,
            **probability_json("win_probability", self.win_probability),
            "error_bound": self.error_bound,
            "by_sea_cards": None
            if self.by_sea_cards is None
            else _by_sea_cards_json(self.by_sea_cards),
            "positions": self.positions,
            "certified_lower_bound": float_or_none(self.lower_bound),
            **probability_json("certified_upper_bound", self.upper_bound),
            "min_mass": self.min_mass,
            "simulated_policy": self.simulated_policy,
            "simulation": None if self.simulation is None else self.simulation.to_dict(),
        }


def odds(
    kit: Kit,
    policy: str = "optimal",
    *,
    exact: bool = False,
    simulate: bool = False,
    certify: float | None = None,
    games: int | None = None,
    seed: int | None = None,
    progress: bool = False,
) -> Odds:
    """The odds of winning with ``kit`` under ``policy``, by the best method its size allows.

    The method is :func:`odds_method`'s: the DP over every position
    (:func:`solve`) for kits whose tables fit in :data:`FULL_TABLES_BYTES` (up to
    6 islands of the default kit); the memory-bounded sweep of the start values
    (:func:`win_probability`) up to :data:`MAX_DP_BYTES` (7 islands: minutes; 8
    islands: about 40 minutes, so pass ``progress=True``); beyond, or with
    ``simulate`` or ``certify``, a Monte Carlo estimate (:func:`simulate`)
    beside certified bounds (:func:`upper_bound_by_disc_count`, and with
    ``certify`` :func:`forward_greedy`).

    Parameters
    ----------
    kit : Kit
    policy : {"optimal", "greedy", "random"}
        The players' policy. Beyond the DP, ``optimal`` is bracketed: greedy
        play is simulated (a statistical lower estimate) beside the certified
        upper bound, and ``certify`` adds a certified lower bound.
    exact : bool
        Fractions instead of floats (the DP only, at most
        :data:`MAX_FRACTION_ISLANDS` islands).
    simulate : bool
        A Monte Carlo estimate instead of the exact sweep (kits of more than
        :data:`MAX_EXACT_ISLANDS` islands).
    certify : float, optional
        Also evaluate greedy play exactly forward, dropping positions less likely
        than this (0 < certify < 1): a certified lower bound for ``optimal`` and
        ``greedy`` (kits of more than :data:`MAX_EXACT_ISLANDS` islands).
    games : int, optional
        Games to simulate, 1..:data:`MAX_GAMES` (default :data:`DEFAULT_GAMES`);
        only when the method is ``monte carlo``.
    seed : int, optional
        The simulation's seed, >= 0 (default 0); only when the method is ``monte carlo``.
    progress : bool
        Progress bars (stderr) over the DP's layers, the games, the forward turns.

    Returns
    -------
    Odds
        ``status`` optimal, exact or estimate.

    Raises
    ------
    InvalidInput
        Unknown policy; ``simulate`` or ``certify`` for a kit the DP answers;
        ``games`` or ``seed`` when nothing is simulated; ``exact`` where no
        Fractions are computed; ``certify`` for random play or outside (0, 1);
        ``games`` above :data:`MAX_GAMES`.

    See Also
    --------
    difficulty_table : the odds by islands and sea cards.
    best_move : the best decision for a roll.

    References
    ----------
    R. Bellman, *Dynamic Programming*, 1957 (backward induction); E. B. Wilson
    (1927), for the interval of the estimate (:func:`wilson_interval`).

    Examples
    --------
    >>> odds(default_kit(2, 2), exact=True).win_probability
    Fraction(196809133707275, 304679870005248)
    >>> res = odds(default_kit(8, 2), simulate=True, games=500)
    >>> res.status, res.win_probability, res.simulated_policy
    (<Status.ESTIMATE: 'estimate'>, None, 'greedy')
    """

    expect(kit, Kit, "kit", "a Kit (default_kit builds one)")
    pol = _check_policy(policy)
    if certify is not None and not (
        isinstance(certify, int | float) and not isinstance(certify, bool) and 0 < certify < 1
    ):
        raise InvalidInput("certify", certify, "a probability 0 < min_mass < 1")
    method = odds_method(kit, simulate=simulate, certify=certify)
    upper: Fraction | float = upper_bound_by_disc_count(kit)
    if method != "monte carlo":
        for name, value in (("games", games), ("seed", seed)):
            if value is not None:
                raise InvalidInput(
                    name,
                    value,
                    f"{name} only when the odds are simulated (simulate=True, or a kit "
                    f"beyond the exact DP); the {method} answers this kit exactly",
                )
        by_cards, error_bound = _start_values(kit, pol, method, exact, progress)
        return Odds(
            kit,
            pol,
            _policy_status(pol),
            method,
            by_cards[-1],
            error_bound,
            by_cards,
            _positions(kit),
            upper,
        )
    if exact:
        raise InvalidInput(
            "exact", True, "exact Fractions only where the DP runs (simulation gives floats)"
        )
    if certify is not None and pol == "random":
        raise InvalidInput(
            "certify", certify, "certify for optimal or greedy play (it evaluates greedy play)"
        )
    played: Policy = "greedy" if pol == "optimal" else pol
    sim = _monte_carlo(
        kit,
        played,
        DEFAULT_GAMES if games is None else games,
        seed=0 if seed is None else seed,
        progress=progress,
    )
    lower = None
    if certify is not None:
        forward = forward_greedy(kit, min_mass=certify, progress=progress)
        lower = forward.low
        if pol == "greedy" and forward.high < upper:
            upper = forward.high
    return Odds(
        kit,
        pol,
        Status.ESTIMATE,
        method,
        None if pol == "optimal" else sim.win_probability,
        None,
        None,
        None,
        upper,
        lower,
        certify,
        sim,
    )


# --- difficulty table -------------------------------------------------------------------


@dataclass(frozen=True)
class DifficultyEntry:
    """One (islands, sea cards) cell of the difficulty table (default kit).

    Parameters
    ----------
    islands, sea_cards : int
    policy : {"optimal", "greedy", "random"}
        The policy the cell is about.
    status : Status
        ``optimal`` or ``exact`` (the DP) or ``estimate`` (Monte Carlo).
    method : {"dp", "dp sweep", "monte carlo"}
    win_probability : float or None
        The DP's value (within ``error_bound``), the estimate of greedy or
        random play, or None for optimal play beyond the DP.
    error_bound : float or None
        The DP's bound; None for estimates.
    simulated_policy : {"greedy", "random"} or None
        What the Monte Carlo run played (greedy when ``policy`` is optimal).
    simulated_win_probability : float or None
        Its estimate.
    ci95 : (float, float) or None
        Its Wilson 95% interval.
    upper_bound : Fraction
        The certified disc-count bound on every policy.

    Examples
    --------
    >>> row = difficulty_table((1,), (1,), "greedy").rows[0]
    >>> row.status, row.method
    (<Status.EXACT: 'exact'>, 'dp')
    """

    islands: int
    sea_cards: int
    policy: Policy
    status: Status
    method: Method
    win_probability: float | None
    error_bound: float | None
    simulated_policy: Policy | None
    simulated_win_probability: float | None
    ci95: tuple[float, float] | None
    upper_bound: Fraction

    def to_dict(self) -> dict[str, Any]:
        """Plain data (docs/lighthouse.md, "JSON answers")."""
        return {
            "islands": self.islands,
            "sea_cards": self.sea_cards,
            "status": str(self.status),
            "policy": self.policy,
            "method": self.method,
            **probability_json("win_probability", self.win_probability),
            "error_bound": self.error_bound,
            "simulated_policy": self.simulated_policy,
            # the same shape as the "simulation" of an odds answer
            "simulation": None
            if self.simulated_policy is None
            else {
                "policy": self.simulated_policy,
                "win_probability": self.simulated_win_probability,
                "ci95": None if self.ci95 is None else list(self.ci95),
            },
            **probability_json("certified_upper_bound", self.upper_bound),
        }


@dataclass(frozen=True)
class DifficultyTable:
    """Win probability by islands in play and sea cards (from :func:`difficulty_table`).

    A table has no single value: each row holds its own.

    Parameters
    ----------
    policy : {"optimal", "greedy", "random"}
    rows : tuple of DifficultyEntry
        By islands, then sea cards, in the order asked.
    games, seed : int or None
        The simulations' games and seed, or None when no row was simulated.

    Examples
    --------
    >>> table = difficulty_table((2,), (1, 2), "greedy")
    >>> table.status, [round(r.win_probability, 4) for r in table.rows]
    (<Status.EXACT: 'exact'>, [0.37, 0.6358])
    """

    policy: Policy
    rows: tuple[DifficultyEntry, ...]
    games: int | None = None
    seed: int | None = None

    @property
    def status(self) -> Status:
        """``estimate`` when some row is simulated, else the rows' ``optimal`` or ``exact``."""
        if any(r.status is Status.ESTIMATE for r in self.rows):
            return Status.ESTIMATE
        return _policy_status(self.policy)

    def to_dict(self) -> dict[str, Any]:
        """Plain data (docs/lighthouse.md, "JSON answers"): no top-level value, only rows.

        Examples
        --------
        >>> sorted(difficulty_table((1,), (1,)).to_dict())
        ['games', 'policy', 'rows', 'seed', 'status']
        """
        return {
            "status": str(self.status),
            "policy": self.policy,
            "games": self.games,
            "seed": self.seed,
            "rows": [r.to_dict() for r in self.rows],
        }


def difficulty_table(
    islands: Iterable[int] = (6, 8),
    sea_cards: Iterable[int] = tuple(range(1, 9)),
    policy: str = "optimal",
    *,
    games: int | None = None,
    seed: int | None = None,
    progress: bool = False,
) -> DifficultyTable:
    """Win probability by islands in play and sea cards, default kit.

    Kits of at most :data:`MAX_EXACT_ISLANDS` islands are solved once by the DP
    with the most sea cards asked for (a game with fewer cards is the same game
    with the boat further on; full tables or the sweep as in :func:`odds`).
    Larger kits are simulated (greedy play when ``policy`` is optimal, which
    estimates the optimum from below), beside the certified upper bound.

    Parameters
    ----------
    islands : iterable of int
        Islands in play, each 1..8.
    sea_cards : iterable of int
        Sea cards, each 1..:data:`~isles.models.lighthouse.MAX_SEA_CARDS`.
    policy : {"optimal", "greedy", "random"}
    games : int, optional
        Games per simulated cell, 1..:data:`MAX_GAMES` (default
        :data:`DEFAULT_GAMES`); only when some row is simulated.
    seed : int, optional
        The simulations' seed (default 0); only when some row is simulated.
    progress : bool
        Progress bars (stderr).

    Returns
    -------
    DifficultyTable

    Raises
    ------
    InvalidInput
        No islands or sea cards, a value out of range, unknown policy, or
        ``games``/``seed`` when no row is simulated.

    Examples
    --------
    >>> table = difficulty_table((2,), (1, 2), "greedy")
    >>> [round(r.win_probability, 4) for r in table.rows]
    [0.37, 0.6358]
    """
    if isinstance(islands, int):
        raise InvalidInput("islands", islands, "an iterable of island counts, e.g. (6, 8)")
    if isinstance(sea_cards, int):
        raise InvalidInput("sea_cards", sea_cards, "an iterable of sea-card counts, e.g. (3, 8)")
    pol = _check_policy(policy)
    islands = tuple(islands)
    sea_cards = tuple(sea_cards)
    if not islands:
        raise InvalidInput("islands", [], "at least one number of islands")
    if not sea_cards:
        raise InvalidInput("sea_cards", [], "at least one number of sea cards")
    top = max(read_int(k, "sea_cards", 1) for k in sea_cards)
    kits = {n: default_kit(n, top) for n in islands}  # checks every value
    for k in sea_cards:
        default_kit(1, k)
    simulated = any(n > MAX_EXACT_ISLANDS for n in islands)
    if not simulated:
        for name, value in (("games", games), ("seed", seed)):
            if value is not None:
                raise InvalidInput(
                    name,
                    value,
                    f"{name} only when the table simulates a kit (more than "
                    f"{MAX_EXACT_ISLANDS} islands)",
                )
    games_used = (DEFAULT_GAMES if games is None else _check_games(games)) if simulated else None
    seed_used = (0 if seed is None else _check_seed(seed)) if simulated else None
    rows: list[DifficultyEntry] = []
    for n in islands:
        kit = kits[n]
        if n <= MAX_EXACT_ISLANDS:
            method = odds_method(kit)
            by_cards, err = _start_values(kit, pol, method, False, progress)
            for k in sea_cards:
                rows.append(
                    DifficultyEntry(
                        n,
                        k,
                        pol,
                        _policy_status(pol),
                        method,
                        float(by_cards[k - 1]),
                        err,
                        None,
                        None,
                        None,
                        upper_bound_by_disc_count(kit.with_sea_cards(k)),
                    )
                )
            continue
        played: Policy = "greedy" if pol == "optimal" else pol
        for k in sea_cards:
            cell = kit.with_sea_cards(k)
            assert games_used is not None and seed_used is not None
            res = simulate(cell, played, games_used, seed=seed_used, progress=progress)
            rows.append(
                DifficultyEntry(
                    n,
                    k,
                    pol,
                    Status.ESTIMATE,
                    "monte carlo",
                    None if pol == "optimal" else res.win_probability,
                    None,
                    played,
                    res.win_probability,
                    res.ci95,
                    upper_bound_by_disc_count(cell),
                )
            )
    return DifficultyTable(pol, tuple(rows), games_used, seed_used)


# --- exact forward evaluation of the greedy policy (any kit) ------------------------------


@dataclass(frozen=True)
class ForwardEvaluation:
    """Greedy play pushed forward exactly, turn by turn (from :func:`forward_greedy`).

    Parameters
    ----------
    won_at, lost_at : tuple of float
        Probability of winning / losing at turn ``t``.
    final_boat : tuple of float
        Probability of ending with the boat on ``b`` (``sea_cards + 1``: landed).
    dropped : float
        Total probability of the positions dropped (less likely than ``min_mass``).
    rounding : float
        A bound on the floating-point error of the win probability.
    positions : int
        Positions visited, over all turns.
    largest_turn : int
        Most positions in one turn.

    Notes
    -----
    ``low`` / ``high`` bound greedy's win probability with certainty, rounding
    and the dropped mass included. As greedy is one way to play, ``low`` is also
    a certified lower bound on the optimal win probability.

    Examples
    --------
    >>> ev = forward_greedy(default_kit(1, 1))
    >>> ev.status, ev.low <= 1226471 / 1679616 <= ev.high
    (<Status.EXACT: 'exact'>, True)
    """

    won_at: tuple[float, ...]
    lost_at: tuple[float, ...]
    final_boat: tuple[float, ...]
    dropped: float
    rounding: float
    positions: int
    largest_turn: int

    @property
    def status(self) -> Status:
        """``exact`` (within ``rounding``) when nothing was dropped, else ``estimate``
        (an interval between certified bounds)."""
        return Status.EXACT if self.dropped == 0 else Status.ESTIMATE

    @property
    def win_probability(self) -> float:
        """Greedy's win probability as computed (exact when nothing was dropped)."""
        return math.fsum(self.won_at)

    @property
    def low(self) -> float:
        """Certified lower bound on greedy's (and the optimum's) win probability."""
        return max(0.0, self.win_probability - self.rounding)

    @property
    def high(self) -> float:
        """Certified upper bound on greedy's win probability."""
        return min(1.0, self.win_probability + self.dropped + self.rounding)

    def to_dict(self) -> dict[str, Any]:
        """Plain data (docs/lighthouse.md, "JSON answers").

        Examples
        --------
        >>> forward_greedy(default_kit(1, 1)).to_dict()["policy"]
        'greedy'
        """
        return {
            "status": str(self.status),
            "policy": "greedy",
            **probability_json("win_probability", self.win_probability),
            "error_bound": self.rounding,
            "certified_lower_bound": self.low,
            "certified_upper_bound": self.high,
            "dropped": self.dropped,
            "positions": self.positions,
            "largest_turn": self.largest_turn,
            "won_at": list(self.won_at),
            "lost_at": list(self.lost_at),
            "final_boat": list(self.final_boat),
        }


def forward_greedy(
    kit: Kit,
    *,
    min_mass: float = 0.0,
    progress: bool = False,
    max_positions: int = MAX_FORWARD_POSITIONS,
) -> ForwardEvaluation:
    """Evaluate greedy play exactly by pushing probability forward over reachable positions.

    Works for any kit, 8 islands included: greedy's decision depends on the
    position and the roll only, so each turn maps the distribution over
    reachable positions (coded ``(L * (K+2) + boat) * n + maurice``) through the
    roll outcomes with NumPy, merging equal positions. With ``min_mass > 0``
    positions less likely than that are dropped, and the result is an interval.

    Parameters
    ----------
    kit : Kit
    min_mass : float
        Drop positions less likely than this, in [0, 1) (0: drop nothing).
    progress : bool
        A progress bar (stderr) over the turns.
    max_positions : int
        Most positions kept in one turn before giving up.

    Returns
    -------
    ForwardEvaluation

    Raises
    ------
    InvalidInput
        ``min_mass`` outside [0, 1), or a turn with more than ``max_positions``
        positions (a larger ``min_mass`` keeps fewer).

    Notes
    -----
    Rounding bound: every stored probability is a sum of products of exact
    roll probabilities rounded once; each turn multiplies (one rounding) and
    merges at most ``g`` terms (``g - 1`` roundings), so the relative error
    grows by at most ``(g + 1) u`` per turn (``u = 2**-53``); ``rounding`` is
    that total (first order, doubled) times the mass.

    References
    ----------
    J. G. Kemeny and J. L. Snell, *Finite Markov Chains*, 1960 (the state
    distribution of a Markov chain pushed forward step by step).

    Examples
    --------
    >>> kit = default_kit(2, sea_cards=2)
    >>> ev = forward_greedy(kit)
    >>> abs(ev.win_probability - solve(kit, "greedy").win_probability()) < 1e-12
    True
    """
    if isinstance(min_mass, bool) or not isinstance(min_mass, int | float) or not 0 <= min_mass < 1:
        raise InvalidInput("min_mass", min_mass, "a probability 0 <= min_mass < 1")
    max_positions = read_int(max_positions, "max_positions", 1)
    geo = _geometry(kit)
    n, k = geo.n, kit.sea_cards
    side = np.vstack([geo.colour_side, np.full((1, n), -1, dtype=np.int64)])
    rng = np.random.default_rng(0)  # unused by greedy; _turn draws for the random policy
    plan = []
    for roll in roll_outcomes(kit):
        cs = [geo.colours.index(c) for c in roll.colours]
        faces = ([-1] if roll.boat else []) + cs
        if len(faces) == 1:
            faces = [-1, *faces]
        plan.append((float(roll.probability), faces[0], faces[1]))
    per_l = (k + 2) * n
    codes = np.zeros(1, dtype=np.int64)
    mass = np.ones(1)
    won_at, lost_at = [0.0], [0.0]
    final_boat = [0.0] * (k + 2)
    dropped = 0.0
    rel = 0.0
    seen = 0
    largest = 1
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(desc="greedy forward", unit="turn")
    while codes.size:
        seen += codes.size
        largest = max(largest, int(codes.size))
        lcode, rest = np.divmod(codes, per_l)
        boat, maurice = np.divmod(rest, n)
        st = (lcode[:, None] // geo.powers[None, :]) % N_STATES
        next_codes, next_mass = [], []
        won_turn = lost_turn = 0.0
        for p, f1, f2 in plan:
            c1 = np.full(codes.size, f1, dtype=np.int64)
            c2 = np.full(codes.size, f2, dtype=np.int64)
            s, b, m, won, lost = _greedy_turn(geo, st, boat, maurice, c1, c2, rng, side)
            q = mass * p
            won_turn += math.fsum(q[won])
            lost_turn += math.fsum(q[lost])
            for bb in range(k + 2):
                sel = (won | lost) & (np.minimum(b, k + 1) == bb)
                if sel.any():
                    final_boat[bb] += math.fsum(q[sel])
            go = ~(won | lost)
            next_codes.append(((s[go] * geo.powers).sum(axis=1) * (k + 2) + b[go]) * n + m[go])
            next_mass.append(q[go])
        won_at.append(won_turn)
        lost_at.append(lost_turn)
        if not next_codes or not any(c.size for c in next_codes):
            break
        all_codes = np.concatenate(next_codes)
        codes, inverse, counts = np.unique(all_codes, return_inverse=True, return_counts=True)
        mass = np.asarray(
            np.bincount(inverse, weights=np.concatenate(next_mass), minlength=codes.size),
            dtype=np.float64,
        )
        rel += (int(counts.max()) + 1) * 2.0**-53
        if min_mass > 0:
            keep = mass >= min_mass
            dropped += math.fsum(mass[~keep])
            codes, mass = codes[keep], mass[keep]
        if codes.size > max_positions:
            if bar is not None:
                bar.close()
            raise InvalidInput(
                "min_mass",
                min_mass,
                f"a larger min_mass: a turn kept {codes.size:,} positions, more than "
                f"{max_positions:,}",
            )
        if bar is not None:
            bar.update(1)
            bar.set_postfix(positions=int(codes.size))
    if bar is not None:
        bar.close()
    rounding = 2.0 * rel + 1e-15
    return ForwardEvaluation(
        tuple(won_at), tuple(lost_at), tuple(final_boat), dropped, rounding, seen, largest
    )
