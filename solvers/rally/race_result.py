"""The answer of a race: each car's chance of arriving first, with its interval.

Implements docs/rally.md ("The race", "Answers of --race"; seed
002_8684547a41c0941c.txt): :class:`RaceResult` of :class:`RaceCar` (what
``isles rally --race --json`` prints), the tie rule, and the 95% Wilson interval
of a share of games [1]_.

References
----------
.. [1] E. B. Wilson, "Probable inference, the law of succession, and
   statistical inference", Journal of the American Statistical Association
   22(158), 209-212, 1927.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from isles.models.hexgrid import Hex
from isles.models.jsonio import float_or_none, hex_json
from isles.models.status import Status
from isles.solvers.rally.income_plan import RESTRICTIONS, IncomePlan

__all__ = ["OWN_POLICY", "TIE_RULE", "RaceCar", "RaceResult", "wilson_interval"]

#: Who wins when two cars could arrive in the same round (docs/rally.md, "The race").
TIE_RULE = (
    "turn order decides: the first car to enter a goal on its own turn wins; "
    "a car seated earlier moves earlier in each round"
)
#: The restriction every race answer has on top of its cars' own.
OWN_POLICY = (
    "each car plays its own committed-routes policy of plan_income (method route: "
    "fewest expected turns alone within its restrictions), not a reply to the other cars"
)
#: Games simulated at once (one vectorised batch).
_Z95 = 1.959963984540054


def wilson_interval(wins: int, games: int, z: float = _Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default).

    Parameters
    ----------
    wins, games : int
        Successes and trials (``games`` >= 1).
    z : float
        The normal quantile (1.96: 95%).

    Returns
    -------
    (float, float)
        The lower and upper bounds, inside [0, 1].

    Examples
    --------
    >>> lo, hi = wilson_interval(50, 100)
    >>> round(lo, 4), round(hi, 4)
    (0.4038, 0.5962)
    >>> wilson_interval(0, 10)[0]
    0.0
    """
    if games <= 0:
        return (0.0, 1.0)
    p = wins / games
    den = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / den
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / den
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class RaceCar:
    """One car of a race and how it fared.

    Attributes
    ----------
    player : str
        The car's owner (a player of the board file); their seat is the car's
        place in the list.
    start : Hex
    goals : tuple of Hex
    plan : IncomePlan
        The car's own plan (its policy, its exact expected turns alone).
    wins : int
        Games this car arrived first.
    first : float or None
        ``wins / games``; None when no game was played (timed out first).
    interval : (float, float) or None
        95% Wilson interval of ``first``; None when no game was played.
    mean_turns : float or None
        Mean turns to arrive, over the games it arrived within ``turns``.
    within : tuple of float or None
        ``within[t - 1]``: the share of games it arrived within ``t`` turns;
        every one None when no game was played.
    """

    player: str
    start: Hex
    goals: tuple[Hex, ...]
    plan: IncomePlan
    wins: int
    first: float | None
    interval: tuple[float, float] | None
    mean_turns: float | None
    within: tuple[float | None, ...]

    def to_dict(self) -> dict[str, Any]:
        """``player``, ``start``, ``goals``, ``plan_status``, ``expected_turns_alone``,
        ``wins``, ``first``, ``interval``, ``mean_turns``, ``within``."""
        return {
            "player": self.player,
            "start": hex_json(self.start),
            "goals": [hex_json(g) for g in self.goals],
            "plan_status": self.plan.status.value,
            "expected_turns_alone": float_or_none(self.plan.expected_turns),
            "route": [hex_json(h) for h in self.plan.route],
            "wins": self.wins,
            "first": self.first,
            "interval": None if self.interval is None else list(self.interval),
            "mean_turns": float_or_none(self.mean_turns),
            "within": [{"turns": t + 1, "probability": p} for t, p in enumerate(self.within)],
        }


@dataclass(frozen=True)
class RaceResult:
    """The answer of :func:`isles.rally.race_cars`.

    Attributes
    ----------
    status : Status
        ``exact`` (the joint chain, ``method="exact"``), ``estimate`` (Monte
        Carlo), or ``timed_out`` (the time limit stopped it: the figures are
        those of the games played, ``games``; with none played, each car's
        ``first``, ``interval`` and ``within`` chances are None).
    games : int
        Games played.
    asked : int
        Games asked.
    seed : int
    cars : tuple of RaceCar
        In seat order.
    no_winner : int
        Games no car arrived in within ``turns`` turns.
    restrictions : tuple of str
        ``own_policy`` and the restrictions of the cars' plans.
    method : str
        ``"monte_carlo"``, or ``"exact"``: the cars' joint chain solved
        (:mod:`isles.solvers.rally.race_exact`), status ``exact``, no games
        played.
    joint_states : int or None
        The exact chain's states.
    error : float or None
        The exact chances' bound on round-off.
    no_winner_chance : float or None
        Exact: the chance no car arrives within ``turns`` rounds.
    """

    status: Status
    games: int
    asked: int
    seed: int
    players: int
    trade: str
    discard: bool
    turns: int
    cars: tuple[RaceCar, ...]
    no_winner: int
    restrictions: tuple[str, ...]
    seconds: float
    time_limit: float
    method: str = "monte_carlo"
    joint_states: int | None = None
    error: float | None = None
    no_winner_chance: float | None = None

    def to_dict(self) -> dict[str, Any]:
        """What ``isles rally --race --json`` prints (docs/json.md, "Rally race")."""
        texts = {**RESTRICTIONS, "own_policy": OWN_POLICY}
        return {
            "status": self.status.value,
            "games": self.games,
            "asked": self.asked,
            "seed": self.seed,
            "players": self.players,
            "trade": self.trade,
            "discard": "on" if self.discard else "off",  # as the request spells it
            "turns": self.turns,
            "tie_rule": TIE_RULE,
            "cars": [c.to_dict() for c in self.cars],
            "no_winner": self.no_winner,
            "restrictions": [{"name": r, "text": texts[r]} for r in self.restrictions],
            "seconds": self.seconds,
            "time_limit": self.time_limit,
            "method": self.method,
            "joint_states": self.joint_states,
            "error": self.error,
            "no_winner_chance": self.no_winner_chance,
        }
