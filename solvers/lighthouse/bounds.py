"""Lighthouses: certified bounds on the odds of any kit, where the exact DP does not reach.

Implements docs/lighthouse.md ("What is computed": ``upper_bound_by_disc_count``,
``forward_greedy``; seed 000_aeb701e368f40145.txt): the disc-count upper bound
on every policy, exact, and greedy play pushed forward exactly over the
positions it reaches (a certified interval for greedy, a certified lower bound
for the optimum).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from isles.models.errors import InvalidInput
from isles.models.jsonio import probability_json, read_int
from isles.models.lighthouse.kit import Kit
from isles.models.lighthouse.rules import roll_outcomes
from isles.models.status import Status
from isles.solvers.lighthouse.codes import N_STATES, Geometry, geometry
from isles.solvers.lighthouse.simulation import greedy_turn
from isles.solvers.work import Bar, Progress

__all__ = [
    "MAX_FORWARD_POSITIONS",
    "ForwardEvaluation",
    "forward_greedy",
    "upper_bound_by_disc_count",
]

MAX_FORWARD_POSITIONS = 10_000_000
"""Most positions :func:`forward_greedy` keeps in one turn (about 3 GiB of work arrays)."""


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
    >>> from isles.models.lighthouse.kit import default_kit
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
    >>> from isles.models.lighthouse.kit import default_kit
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
        >>> from isles.models.lighthouse.kit import default_kit
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


def _roll_plan(kit: Kit, geo: Geometry) -> list[tuple[float, int, int]]:
    """Each roll as (probability, face 1, face 2): -1 the boat, else a colour's index."""
    plan = []
    for roll in roll_outcomes(kit):
        cs = [geo.colours.index(c) for c in roll.colours]
        faces = ([-1] if roll.boat else []) + cs
        if len(faces) == 1:
            faces = [-1, *faces]
        plan.append((float(roll.probability), faces[0], faces[1]))
    return plan


def _push_turn(
    geo: Geometry,
    plan: list[tuple[float, int, int]],
    side: npt.NDArray[np.int64],
    st: npt.NDArray[np.int64],
    boat: npt.NDArray[np.int64],
    maurice: npt.NDArray[np.int64],
    mass: npt.NDArray[np.float64],
    k: int,
    final_boat: list[float],
) -> tuple[list[npt.NDArray[np.int64]], list[npt.NDArray[np.float64]], float, float]:
    """One turn of greedy play from every position kept, each roll: the positions that
    go on (codes and mass), the mass won and lost; ``final_boat`` gains where games end."""
    n = geo.n
    next_codes, next_mass = [], []
    won_turn = lost_turn = 0.0
    for p, f1, f2 in plan:
        c1 = np.full(st.shape[0], f1, dtype=np.int64)
        c2 = np.full(st.shape[0], f2, dtype=np.int64)
        s, b, m, won, lost = greedy_turn(geo, st, boat, maurice, c1, c2, side)
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
    return next_codes, next_mass, won_turn, lost_turn


def forward_greedy(
    kit: Kit,
    *,
    min_mass: float = 0.0,
    progress: Progress = None,
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
    progress : bool, None or callable
        A progress bar (stderr) over the turns (their number is not known in
        advance: a callable is told nothing), as :data:`isles.solvers.work.Progress`.
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
    >>> from isles.models.lighthouse.kit import default_kit
    >>> kit = default_kit(2, sea_cards=2)
    >>> ev = forward_greedy(kit)
    >>> from isles.solvers.lighthouse.dp import solve
    >>> abs(ev.win_probability - solve(kit, "greedy").win_probability()) < 1e-12
    True
    """
    if isinstance(min_mass, bool) or not isinstance(min_mass, int | float) or not 0 <= min_mass < 1:
        raise InvalidInput("min_mass", min_mass, "a probability 0 <= min_mass < 1")
    max_positions = read_int(max_positions, "max_positions", 1)
    geo = geometry(kit)
    n, k = geo.n, kit.sea_cards
    side = np.vstack([geo.colour_side, np.full((1, n), -1, dtype=np.int64)])
    plan = _roll_plan(kit, geo)
    per_l = (k + 2) * n
    codes = np.zeros(1, dtype=np.int64)
    mass = np.ones(1)
    won_at, lost_at = [0.0], [0.0]
    final_boat = [0.0] * (k + 2)
    dropped = 0.0
    rel = 0.0
    seen = 0
    largest = 1
    with Bar(None, "greedy forward", progress, unit="turn") as bar:
        while codes.size:
            seen += codes.size
            largest = max(largest, int(codes.size))
            lcode, rest = np.divmod(codes, per_l)
            boat, maurice = np.divmod(rest, n)
            st = (lcode[:, None] // geo.powers[None, :]) % N_STATES
            next_codes, next_mass, won_turn, lost_turn = _push_turn(
                geo, plan, side, st, boat, maurice, mass, k, final_boat
            )
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
                raise InvalidInput(
                    "min_mass",
                    min_mass,
                    f"a larger min_mass: a turn kept {codes.size:,} positions, more than "
                    f"{max_positions:,}",
                )
            bar.update(1)
            bar.note(f"positions={int(codes.size)}")
    rounding = 2.0 * rel + 1e-15
    return ForwardEvaluation(
        tuple(won_at), tuple(lost_at), tuple(final_boat), dropped, rounding, seen, largest
    )
