"""Lighthouses: what are the real chances of winning, and what is the best move now?

Dynamic programming over positions (exact Fractions or floats with a stated
error bound) for RULES.md section 5 (seed 000_aeb701e368f40145.txt).

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
``greedy`` and ``random`` are the rules of thumb documented in docs/lighthouse.md.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal, cast

import numpy as np
import numpy.typing as npt

from isles.models.errors import InvalidInput
from isles.models.lighthouse import (
    BOAT,
    DISCS_PER_LIGHTHOUSE,
    Decision,
    Kit,
    Outcome,
    Position,
    Roll,
    bonus_options,
    can_take,
    default_kit,
    legal_decisions,
    play_turn,
    roll_outcomes,
)

__all__ = [
    "POLICIES",
    "Advice",
    "CompetitiveExact",
    "CompetitiveResult",
    "CompetitiveState",
    "DifficultyEntry",
    "ForwardEvaluation",
    "LighthouseSolution",
    "OutcomeDistribution",
    "Policy",
    "SimulationResult",
    "StartValues",
    "advise",
    "choose_decision",
    "competitive_branches",
    "competitive_exact",
    "competitive_kit",
    "decision_weights",
    "difficulty_table",
    "forward_greedy",
    "outcome_distribution",
    "position_index",
    "simulate",
    "simulate_competitive",
    "solve",
    "upper_bound_by_disc_count",
    "wilson_interval",
    "win_probability",
]

Policy = Literal["optimal", "greedy", "random"]
POLICIES: tuple[Policy, ...] = ("optimal", "greedy", "random")

MAX_FRACTION_ISLANDS = 4
"""Largest kit solved in Fractions (object arrays: 4 islands take about a minute)."""

MAX_EXACT_ISLANDS = 7
"""Largest kit :func:`solve` accepts: 8 islands need 8**8 * 10 * 16 values (20 GiB)."""

MAX_SWEEP_ISLANDS = 8
"""Largest kit :func:`win_probability` accepts (8 islands: two 2 GiB tables)."""

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

    Examples
    --------
    >>> from isles.models.lighthouse import default_kit
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
    raise InvalidInput("policy", policy, f"one of {list(POLICIES)}")


@dataclass(frozen=True, eq=False)
class LighthouseSolution:
    """Win probabilities of every position of a kit under one policy.

    ``values[L, b, m]`` is the win probability with lighthouse code ``L`` (see
    :func:`position_index`), boat ``b`` (``sea_cards + 1``: landed, value 0)
    and Maurice offset ``m``, shape ``(8**n, sea_cards + 2, n)``;
    ``bonus_values[L, b, m]`` is the value once the bonus disc is earned, before
    it is placed (best, greedy or random placement). ``exact`` tables hold
    Fractions; float tables are within ``error_bound`` of the exact values.
    """

    kit: Kit
    policy: Policy
    exact: bool
    error_bound: float
    values: npt.NDArray[Any] = field(repr=False)
    bonus_values: npt.NDArray[Any] = field(repr=False)

    @property
    def status(self) -> str:
        """``"optimal"`` for the optimal policy, ``"evaluated"`` for greedy/random."""
        return "optimal" if self.policy == "optimal" else "evaluated"

    @property
    def positions(self) -> int:
        """Number of positions valued (lighthouse codes x boat x Maurice)."""
        n = len(self.kit.islands)
        return int(N_STATES**n * (self.kit.sea_cards + 1) * n)

    def value(self, position: Position) -> Fraction | float:
        """Win probability of a (checked) position under this policy."""
        position.check(self.kit)
        if position.is_won():
            return Fraction(1) if self.exact else 1.0
        v = self.values[position_index(self.kit, position), position.boat, position.maurice]
        return Fraction(v) if self.exact else float(v)

    def win_probability(self, sea_cards: int | None = None) -> float:
        """Win probability from the start; ``sea_cards`` <= the kit's (fewer cards).

        A game with ``k`` sea cards is this kit's game with the boat already on
        card ``sea_cards - k``.
        """
        return float(self._start(sea_cards))

    def exact_win_probability(self, sea_cards: int | None = None) -> Fraction | None:
        """The exact win probability from the start, or None for float tables."""
        if not self.exact:
            return None
        return Fraction(self._start(sea_cards))

    def _start(self, sea_cards: int | None) -> Any:
        k = self.kit.sea_cards if sea_cards is None else sea_cards
        if not 1 <= k <= self.kit.sea_cards:
            raise InvalidInput("sea_cards", k, f"1..{self.kit.sea_cards} for this table")
        return self.values[0, self.kit.sea_cards - k, 0]


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


def solve(
    kit: Kit, policy: str = "optimal", *, exact: bool = False, progress: bool = False
) -> LighthouseSolution:
    """Win probability of every position under ``policy``, by dynamic programming.

    Parameters
    ----------
    kit : Kit
        At most 7 islands (memory: 8**n lighthouse codes x (sea_cards+2) x 2n values);
        :func:`win_probability` gives the start values of 8 islands.
    policy : {"optimal", "greedy", "random"}
        ``optimal`` maximises the win probability; the others are evaluated exactly.
    exact : bool
        Fractions (slow: small kits only) instead of floats with ``error_bound``.
    progress : bool
        Show a tqdm progress bar over the layers of discs laid.

    Returns
    -------
    LighthouseSolution
        Values of every position; ``status`` is ``"optimal"`` or ``"evaluated"``.

    Raises
    ------
    InvalidInput
        Unknown policy, a kit with more than 7 islands, or ``exact`` with more than 4.

    Notes
    -----
    Error bound of float tables: each value is a sum of at most ``R + 5``
    non-negative terms (``R`` roll outcomes) of values in [0, 1]; maximum and
    selection are exact, so the forward error grows by at most ``(R+5) u`` per
    turn (``u = 2**-53``) along the longest chain of turns,
    ``(4n+1)(K+2)(n//2+1)``; the stated bound is twice that product.

    Examples
    --------
    >>> from isles.models.lighthouse import default_kit
    >>> sol = solve(default_kit(2, sea_cards=2), exact=True)
    >>> sol.exact_win_probability()
    Fraction(196809133707275, 304679870005248)
    """
    sweep = _LayerSweep(kit, _check_policy(policy), exact, MAX_EXACT_ISLANDS)
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

    ``by_sea_cards[k - 1]`` is the win probability with ``k`` sea cards (a
    Fraction when ``exact``, else a float within ``error_bound``).
    """

    kit: Kit
    policy: Policy
    exact: bool
    error_bound: float
    by_sea_cards: tuple[Fraction | float, ...]

    @property
    def status(self) -> str:
        """``"optimal"`` for the optimal policy, ``"evaluated"`` for greedy/random."""
        return "optimal" if self.policy == "optimal" else "evaluated"

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


def win_probability(
    kit: Kit, policy: str = "optimal", *, exact: bool = False, progress: bool = False
) -> StartValues:
    """Win probability from the start under ``policy``, in bounded memory (up to 8 islands).

    The same DP as :func:`solve`, swept one boat position at a time: the
    values with the boat on card ``b`` depend only on those with the boat on
    ``b`` (earlier layers of discs laid) and on ``b + 1``, so two boat columns
    of the value and bonus tables are kept (``8**n x 2 x n`` floats each; 8
    islands: 2 GiB each) instead of ``sea_cards + 2``. The start value of each
    boat column is the answer for ``sea_cards - b`` cards. The arithmetic is the
    same, element for element, as :func:`solve`'s, hence the same error bound.
    Measured (docs/lighthouse.md): 8 islands, 8 sea cards, about 40 min (2.2e3 s
    CPU) and 7.0 GiB peak; up to twice :func:`solve`'s CPU time where both fit.

    Parameters
    ----------
    kit : Kit
        At most 8 islands.
    policy : {"optimal", "greedy", "random"}
        ``optimal`` maximises the win probability; the others are evaluated exactly.
    exact : bool
        Fractions (at most 4 islands) instead of floats with ``error_bound``.
    progress : bool
        Show a tqdm progress bar over the (boat position, layer) sweeps.

    Returns
    -------
    StartValues
        Start values for 1..``kit.sea_cards`` sea cards.

    Raises
    ------
    InvalidInput
        Unknown policy, more than 8 islands, or ``exact`` with more than 4.

    Examples
    --------
    >>> from isles.models.lighthouse import default_kit
    >>> win_probability(default_kit(2, sea_cards=2), exact=True).exact_win_probability()
    Fraction(196809133707275, 304679870005248)
    """
    sweep = _LayerSweep(kit, _check_policy(policy), exact, MAX_SWEEP_ISLANDS)
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
    return StartValues(kit, sweep.policy, exact, err, by_cards)


class _LayerSweep:
    """The layered DP of :func:`solve`, run over value tables of any boat width.

    ``run(vals, bvals)`` fills columns ``0 .. w-2`` of tables of shape
    ``(8**n, w, n)``, layer by layer from the full one down; column ``w - 1``
    is the boundary: the values with the boat one card beyond the last column
    (zeros when the boat has landed). Only layers ``d`` and ``d + 1`` of the
    tables and the one-more-disc table of layer ``d + 1`` are read at layer ``d``.
    """

    def __init__(self, kit: Kit, policy: Policy, exact: bool, max_islands: int) -> None:
        n = len(kit.islands)
        if n > max_islands:
            raise InvalidInput(
                "islands", n, f"at most {max_islands} islands for this DP (see docs)"
            )
        if exact and n > MAX_FRACTION_ISLANDS:
            raise InvalidInput(
                "exact",
                n,
                f"Fractions for at most {MAX_FRACTION_ISLANDS} islands (4 take about a "
                "minute); floats carry a stated error bound",
            )
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
    the bonus). For ``optimal`` use :func:`advise`.

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

    ``best`` is the optimal decision (first in legal order among ties).
    """

    roll: Roll
    alternatives: tuple[tuple[Decision, Fraction | float], ...]

    @property
    def best(self) -> Decision:
        """The decision with the highest win probability."""
        return self.alternatives[0][0]

    @property
    def win_probability(self) -> Fraction | float:
        """Win probability after the best decision."""
        return self.alternatives[0][1]


def _after(solution: LighthouseSolution, position: Position, roll: Roll, d: Decision) -> Any:
    res = play_turn(solution.kit, position, roll, d, check=False)
    if res.outcome is Outcome.WON:
        return Fraction(1) if solution.exact else 1.0
    if res.outcome is Outcome.LOST:
        return Fraction(0) if solution.exact else 0.0
    return solution.value(res.position)


def advise(solution: LighthouseSolution, position: Position, roll: Roll) -> Advice:
    """The optimal decision for ``roll`` in ``position``, with every alternative's odds.

    The win probability of an alternative is that of the position it leads to
    under ``solution``'s policy from then on.

    Raises
    ------
    InvalidInput
        The position does not fit the kit, or a roll colour is not on the dice.

    Examples
    --------
    >>> from isles.models.lighthouse import default_kit
    >>> kit = default_kit(2, sea_cards=2)
    >>> sol = solve(kit, exact=True)
    >>> adv = advise(sol, Position.start(kit), Roll(False, ("blue", "red"), Fraction(1, 18)))
    >>> adv.best.placements
    (('blue', 0), ('red', 0))
    """
    kit = solution.kit
    position.check(kit)
    faces = {f for die in kit.dice for f in die}
    for c in roll.colours:
        if c not in faces:
            raise InvalidInput("roll", c, f"a face of the dice: {sorted(faces)}")
    scored = [
        (d, _after(solution, position, roll, d)) for d in legal_decisions(kit, position, roll)
    ]
    ranked = sorted(enumerate(scored), key=lambda t: (-t[1][1], t[0]))
    return Advice(roll, tuple(s for _, s in ranked))


def choose_decision(
    kit: Kit,
    position: Position,
    roll: Roll,
    policy: str,
    solution: LighthouseSolution | None = None,
    rng: np.random.Generator | None = None,
) -> Decision:
    """One decision of ``policy``: optimal (needs ``solution``), greedy or random (``rng``)."""
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
    and loose.

    Examples
    --------
    >>> from isles.models.lighthouse import default_kit
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

    ``ci95`` is the normal-approximation 95% interval of the win probability
    (Wilson score interval). ``length_won[t]`` / ``length_lost[t]`` count games
    won / lost at turn ``t``; ``final_boat[b]`` counts games ending with the boat
    on position ``b`` (``sea_cards + 1`` = landed on Maurice's island).
    """

    policy: Policy
    games: int
    wins: int
    ci95: tuple[float, float]
    length_won: tuple[int, ...]
    length_lost: tuple[int, ...]
    final_boat: tuple[int, ...]

    @property
    def win_probability(self) -> float:
        """Fraction of games won."""
        return self.wins / self.games

    @property
    def half_width(self) -> float:
        """Half the width of the 95% interval."""
        return (self.ci95[1] - self.ci95[0]) / 2


def wilson_interval(wins: int, games: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (default 95%).

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
    games: int = 10_000,
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
        Any kit (8 islands included).
    policy : {"optimal", "greedy", "random"}
        ``optimal`` needs ``solution`` (a float or exact table of that kit) and
        plays its best decision; greedy and random follow docs/lighthouse.md.
    games, seed, batch : int
        Number of games, the random seed, games simulated side by side.
    progress : bool
        tqdm progress bar over the games.

    Raises
    ------
    InvalidInput
        Unknown policy, ``games < 1``, or ``optimal`` without a matching solution.

    Examples
    --------
    >>> from isles.models.lighthouse import default_kit
    >>> res = simulate(default_kit(2, sea_cards=2), "greedy", 2000, seed=1)
    >>> res.ci95[0] < 0.6358 < res.ci95[1]
    True
    """
    pol = _check_policy(policy)
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise InvalidInput("games", games, "a positive integer")
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
    )


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
    """Exact distribution of how a game ends under one policy.

    ``won_at[t]`` / ``lost_at[t]`` is the probability that the game is won /
    lost at turn ``t`` (index 0 unused); ``final_boat[b]`` the probability that
    the game ends with the boat on position ``b`` (``sea_cards + 1``: landed).
    """

    policy: Policy
    won_at: tuple[Fraction, ...]
    lost_at: tuple[Fraction, ...]
    final_boat: tuple[Fraction, ...]

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
    For small kits: raises when a turn has more than ``max_positions`` positions.

    Raises
    ------
    InvalidInput
        Unknown policy, ``optimal`` without a solution of this kit, or too many positions.

    Examples
    --------
    >>> from isles.models.lighthouse import default_kit
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

    ``wins[s]`` games won by seat ``s`` (seat 0 starts), ``ci95[s]`` its Wilson
    95% interval; ``unfinished`` games hit the turn limit.
    """

    policy: Policy
    seats: int
    games: int
    wins: tuple[int, ...]
    ci95: tuple[tuple[float, float], ...]
    unfinished: int
    mean_turns: float

    @property
    def win_probability(self) -> tuple[float, ...]:
        """Each seat's estimated chance of winning."""
        return tuple(w / self.games for w in self.wins)


def competitive_kit(seats: int = 2, sea_cards: int = 3) -> Kit:
    """The competitive kit of RULES.md section 5: 3 islands each for 2 seats, else 2 each.

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
    lighthouses wins at once. RULES.md section 5, competitive variant.

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
        raise InvalidInput("policy", policy, "greedy or random for the competitive variant")
    n = len(kit.islands)
    if isinstance(seats, bool) or not isinstance(seats, int) or seats < 2 or n % seats:
        raise InvalidInput("seats", seats, f"at least 2 seats dividing the {n} islands")
    return pol


def simulate_competitive(
    kit: Kit,
    seats: int = 2,
    policy: str = "greedy",
    games: int = 2_000,
    *,
    seed: int = 0,
    max_turns: int = 2_000,
    progress: bool = False,
) -> CompetitiveResult:
    """Play the competitive variant ``games`` times (rules: :func:`competitive_branches`).

    Raises
    ------
    InvalidInput
        Unknown or optimal policy (the two-player optimum is not solved),
        islands not divisible among the seats, or ``games < 1``.

    Examples
    --------
    >>> res = simulate_competitive(competitive_kit(2), 2, "greedy", 200, seed=1)
    >>> sum(res.wins) + res.unfinished
    200
    """
    pol = _check_competitive(kit, seats, policy)
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise InvalidInput("games", games, "a positive integer")
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
    )


@dataclass(frozen=True)
class CompetitiveExact:
    """Each seat's exact chance of winning the competitive variant under a fixed policy.

    The game is an absorbing Markov chain with cycles (the boat removes
    discs); the absorption probabilities solve a sparse linear system in
    floats. ``residual`` is the largest residual of that solve.
    """

    policy: Policy
    seats: int
    positions: int
    win_probability: tuple[float, ...]
    residual: float


def competitive_exact(
    kit: Kit, seats: int = 2, policy: str = "greedy", *, max_positions: int = 50_000
) -> CompetitiveExact:
    """Exact chances of each seat in the competitive variant, for small kits.

    Enumerates the positions reachable from the start (seat 0 to play), builds
    the transition matrix of the policy and solves ``(I - Q) X = R`` with a
    sparse LU (SciPy).

    Raises
    ------
    InvalidInput
        Bad policy or seats, more than ``max_positions`` reachable positions.

    Examples
    --------
    >>> kit = competitive_kit(2, sea_cards=2)
    >>> tiny = Kit(kit.islands[:2], kit.dice, 2)
    >>> res = competitive_exact(tiny, 2, "greedy")
    >>> round(sum(res.win_probability), 9)
    1.0
    """
    pol = _check_competitive(kit, seats, policy)
    from scipy.sparse import coo_matrix, identity
    from scipy.sparse.linalg import spsolve

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
                            len(kit.islands),
                            f"at most {max_positions} competitive positions",
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
    x = np.asarray(spsolve(a, r)).reshape(size, seats)
    residual = float(np.abs(a @ x - r).max())
    return CompetitiveExact(pol, seats, size, tuple(float(v) for v in x[0]), residual)


# --- difficulty table -------------------------------------------------------------------


@dataclass(frozen=True)
class DifficultyEntry:
    """Win probability of one (islands, sea cards) cell of the difficulty table.

    ``method`` is ``"dp"`` (exact DP, float within ``error_bound``) or
    ``"monte carlo"`` (``low``/``high`` the 95% interval); ``upper_bound`` is
    the certified disc-count bound on every policy.
    """

    islands: int
    sea_cards: int
    policy: Policy
    method: str
    win_probability: float
    low: float
    high: float
    upper_bound: float


def difficulty_table(
    islands: Sequence[int] = (6, 8),
    sea_cards: Sequence[int] = tuple(range(1, 9)),
    policy: str = "optimal",
    *,
    games: int = 20_000,
    seed: int = 0,
    progress: bool = False,
) -> list[DifficultyEntry]:
    """Win probability by islands in play and sea cards, default kit.

    Kits the DP can take (at most 7 islands) are solved once with the most sea
    cards asked for: a game with fewer cards is the same game with the boat
    further on. Larger kits are simulated with the greedy policy when
    ``policy`` is optimal (a lower estimate of the optimum), else with ``policy``.

    Examples
    --------
    >>> rows = difficulty_table((2,), (1, 2), "greedy")
    >>> [round(r.win_probability, 4) for r in rows]
    [0.37, 0.6358]
    """
    pol = _check_policy(policy)
    if not sea_cards:
        raise InvalidInput("sea_cards", list(sea_cards), "at least one number of sea cards")
    out: list[DifficultyEntry] = []
    top = max(sea_cards)
    for n in islands:
        if n <= MAX_EXACT_ISLANDS:
            sol = solve(default_kit(n, top), pol, progress=progress)
            for k in sea_cards:
                v = sol.win_probability(k)
                ub = float(upper_bound_by_disc_count(default_kit(n, k)))
                err = sol.error_bound
                out.append(DifficultyEntry(n, k, pol, "dp", v, v - err, v + err, ub))
        else:
            sim_policy: Policy = "greedy" if pol == "optimal" else pol
            for k in sea_cards:
                kit = default_kit(n, k)
                res = simulate(kit, sim_policy, games, seed=seed, progress=progress)
                ub = float(upper_bound_by_disc_count(kit))
                lo, hi = res.ci95
                out.append(
                    DifficultyEntry(
                        n, k, sim_policy, "monte carlo", res.win_probability, lo, hi, ub
                    )
                )
    return out


# --- exact forward evaluation of the greedy policy (any kit) ------------------------------


@dataclass(frozen=True)
class ForwardEvaluation:
    """Greedy play pushed forward exactly, turn by turn, over every reachable position.

    ``won_at[t]`` / ``lost_at[t]``: probability of winning / losing at turn
    ``t``; ``final_boat[b]``: of ending with the boat on ``b``. Positions whose
    probability falls below the ``min_mass`` asked for are dropped (their total
    is ``dropped``). ``low`` / ``high`` bound greedy's win probability with
    certainty: floating-point rounding (``rounding``) and the dropped mass
    included. As greedy is one way to play, ``low`` is also a certified lower
    bound on the optimal win probability.
    """

    won_at: tuple[float, ...]
    lost_at: tuple[float, ...]
    final_boat: tuple[float, ...]
    dropped: float
    rounding: float
    positions: int
    largest_turn: int

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


def forward_greedy(kit: Kit, *, min_mass: float = 0.0, progress: bool = False) -> ForwardEvaluation:
    """Evaluate greedy play exactly by pushing probability forward over reachable positions.

    Works for any kit, 8 islands included: greedy's decision depends on the
    position and the roll only, so each turn maps the distribution over
    reachable positions (coded ``(L * (K+2) + boat) * n + maurice``) through the
    21 roll outcomes with NumPy, merging equal positions. With ``min_mass > 0``
    positions less likely than that are dropped, and the result is an interval.

    Rounding bound: every stored probability is a sum of products of exact
    roll probabilities rounded once; each turn multiplies (one rounding) and
    merges at most ``g`` terms (``g - 1`` roundings), so the relative error
    grows by at most ``(g + 1) u`` per turn (``u = 2**-53``); ``rounding`` is
    that total (first order, doubled) times the mass.

    Examples
    --------
    >>> from isles.models.lighthouse import default_kit
    >>> kit = default_kit(2, sea_cards=2)
    >>> ev = forward_greedy(kit)
    >>> abs(ev.win_probability - solve(kit, "greedy").win_probability()) < 1e-12
    True
    """
    if min_mass < 0:
        raise InvalidInput("min_mass", min_mass, "a probability >= 0")
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
        if bar is not None:
            bar.update(1)
            bar.set_postfix(positions=int(codes.size))
    if bar is not None:
        bar.close()
    rounding = 2.0 * rel + 1e-15
    return ForwardEvaluation(
        tuple(won_at), tuple(lost_at), tuple(final_boat), dropped, rounding, seen, largest
    )
