"""Lighthouses, competitive variant: each seat's chance by simulation, for kits beyond the solve.

Implements docs/lighthouse.md ("Competitive variant"; seed 000_aeb701e368f40145.txt):
games played turn by turn under the rules of models/lighthouse/competitive.py, each
seat greedy or random (:func:`~isles.solvers.lighthouse.competitive_tables.policy_decisions`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from isles.models.errors import InvalidInput
from isles.models.jsonio import probability_json, read_int
from isles.models.lighthouse.caps import DEFAULT_GAMES, MAX_GAMES, Policy
from isles.models.lighthouse.competitive import (
    CompetitivePosition,
    check_policies,
    check_seats,
    play_competitive_turn,
)
from isles.models.lighthouse.kit import BOAT, Kit
from isles.models.lighthouse.rules import Roll
from isles.models.status import Status
from isles.solvers.lighthouse.competitive_tables import policy_decisions
from isles.solvers.lighthouse.simulation import wilson_interval
from isles.solvers.work import Bar, Progress

__all__ = ["CompetitiveSimulation", "simulate_competitive"]

# --- Monte Carlo -----------------------------------------------------------------------------


@dataclass(frozen=True)
class CompetitiveSimulation:
    """Each seat's chance in the competitive variant, by simulation.

    From :func:`simulate_competitive` (or :func:`competitive_odds` for kits
    beyond the exact solve); ``status`` is ``estimate``.

    Parameters
    ----------
    policies : tuple of {"greedy", "random"}
        Each seat's play, seat 0 first.
    games : int
    wins : tuple of int
        ``wins[s]``: games won by seat ``s``.
    ci95 : tuple of (float, float)
        Each seat's Wilson 95% interval.
    unfinished : int
        Games that reached ``max_turns``.
    mean_turns : float
        Mean length in turns (unfinished games count ``max_turns``).
    seed : int

    Examples
    --------
    >>> from isles.models.lighthouse.competitive import competitive_kit
    >>> res = simulate_competitive(competitive_kit(2), 2, "greedy", 20, seed=1)
    >>> res.status, sum(res.wins) + res.unfinished
    (<Status.ESTIMATE: 'estimate'>, 20)
    """

    policies: tuple[Policy, ...]
    games: int
    wins: tuple[int, ...]
    ci95: tuple[tuple[float, float], ...]
    unfinished: int
    mean_turns: float
    seed: int

    @property
    def seats(self) -> int:
        """The number of seats."""
        return len(self.policies)

    @property
    def status(self) -> Status:
        """Always ``estimate``: sampled values with their confidence intervals."""
        return Status.ESTIMATE

    @property
    def policy(self) -> Policy | None:
        """The policy every seat plays, or None when they differ."""
        return self.policies[0] if len(set(self.policies)) == 1 else None

    @property
    def win_probability(self) -> tuple[float, ...]:
        """Each seat's share of the games won."""
        return tuple(w / self.games for w in self.wins)

    def to_dict(self) -> dict[str, Any]:
        """Plain data (docs/lighthouse.md, "JSON answers"): one object per seat, seat 1 first.

        Examples
        --------
        >>> from isles.models.lighthouse.competitive import competitive_kit
        >>> out = simulate_competitive(competitive_kit(2), 2, "random", 5, seed=2).to_dict()
        >>> out["method"], sorted(out["by_seat"][0])
        ('monte carlo', ['ci95', 'policy', 'seat', 'win_probability', \
'win_probability_exact', 'wins'])
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
                    "policy": pol,
                    "wins": w,
                    **probability_json("win_probability", w / self.games),
                    "ci95": list(ci),
                }
                for s, (pol, w, ci) in enumerate(
                    zip(self.policies, self.wins, self.ci95, strict=True)
                )
            ],
        }


def simulate_competitive(
    kit: Kit,
    seats: int = 2,
    policy: str | Sequence[str] = "greedy",
    games: int = DEFAULT_GAMES,
    *,
    seed: int = 0,
    max_turns: int = 2_000,
    progress: Progress = None,
) -> CompetitiveSimulation:
    """Play the competitive variant ``games`` times (rules: models/lighthouse/competitive.py).

    Each turn rolls the two dice (NumPy's generator), and the seat to play
    takes one of :func:`policy_decisions` at random
    by its probability.

    Parameters
    ----------
    kit : Kit
    seats : int
        2..4 seats dividing the islands.
    policy : str or sequence of str
        ``greedy`` or ``random`` for every seat, or one per seat.
    games : int
        1..:data:`MAX_GAMES` (about 1,000 games a second for the default kit).
    seed : int
        The generator's seed, >= 0.
    max_turns : int
        Games longer than this count as unfinished (>= 1).
    progress : bool, None or callable
        A progress bar (stderr) over the games, or a callable told the fraction
        played (:data:`isles.solvers.work.Progress`).

    Returns
    -------
    CompetitiveSimulation

    Raises
    ------
    InvalidInput
        Bad seats or policy (``optimal`` is solved, not simulated), ``games``
        outside 1..:data:`MAX_GAMES`, a negative seed, ``max_turns`` below 1.

    References
    ----------
    E. B. Wilson, "Probable inference, the law of succession, and statistical
    inference", *Journal of the American Statistical Association* 22 (1927)
    209-212 (the intervals).

    Examples
    --------
    >>> from isles.models.lighthouse.competitive import competitive_kit
    >>> simulate_competitive(competitive_kit(3), 3, "greedy", 10, seed=3).games
    10
    """
    seats = check_seats(kit, seats)
    policies = check_policies(policy, seats)
    if "optimal" in policies:
        raise InvalidInput(
            "policy", policy, "greedy or random for a simulation (optimal play is solved)"
        )
    games = read_int(games, "games", 1, MAX_GAMES)
    seed = read_int(seed, "seed", 0)
    max_turns = read_int(max_turns, "max_turns", 1)
    rng = np.random.default_rng(seed)
    wins = [0] * seats
    unfinished = 0
    turns_total = 0
    with Bar(games, "competitive games", progress, unit="game") as bar:
        for _ in range(games):
            winner, turns = _play(kit, seats, policies, rng, max_turns)
            turns_total += turns
            if winner is None:
                unfinished += 1
            else:
                wins[winner] += 1
            bar.update(1)
    return CompetitiveSimulation(
        policies,
        games,
        tuple(wins),
        tuple(wilson_interval(w, games) for w in wins),
        unfinished,
        turns_total / games,
        seed,
    )


def _play(
    kit: Kit,
    seats: int,
    policies: tuple[Policy, ...],
    rng: np.random.Generator,
    max_turns: int,
) -> tuple[int | None, int]:
    """One game from the start: its winner (None: unfinished after ``max_turns``), its turns."""
    position = CompetitivePosition.start(kit)
    winner: int | None = None
    turn = 0
    while winner is None and turn < max_turns:
        turn += 1
        faces = [die[int(rng.integers(len(die)))] for die in kit.dice]
        roll = Roll(BOAT in faces, tuple(sorted(f for f in faces if f != BOAT)), Fraction(1))
        options = policy_decisions(kit, seats, position, roll, policies[position.seat])
        pick = 0
        if len(options) > 1:
            weights = np.array([float(w) for _, w in options])
            pick = int(rng.choice(len(options), p=weights / weights.sum()))
        played = play_competitive_turn(kit, seats, position, roll, options[pick][0], check=False)
        position, winner = played.position, played.winner
    return winner, turn
