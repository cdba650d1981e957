"""Lighthouses: the win probability from the start, for every number of sea cards, any policy.

Implements docs/lighthouse.md ("Fewer sea cards", "The dynamic programme",
"Greedy play, layer by layer"; seed 000_aeb701e368f40145.txt): optimal and
random play from the class DP (dp.py), greedy play from its layer sweep over
lighthouse codes (greedy.py); one solve gives every sea-card count.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from isles.models.errors import InvalidInput
from isles.models.jsonio import probability_json
from isles.models.lighthouse.caps import Policy
from isles.models.lighthouse.kit import Kit
from isles.models.status import Status
from isles.solvers.lighthouse.dp import solve
from isles.solvers.lighthouse.greedy import greedy_start_values
from isles.solvers.lighthouse.kernel import Backend
from isles.solvers.lighthouse.policies import check_policy, policy_status
from isles.solvers.lighthouse.solution import by_sea_cards_json
from isles.solvers.work import Progress

__all__ = ["StartValues", "win_probability"]


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
    method : {"dp", "dp sweep"}
        ``dp``: read from the tables of every position; ``dp sweep``: greedy
        play swept layer by layer, no table kept.

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
    method: Literal["dp", "dp sweep"] = "dp"

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
        if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= self.kit.sea_cards:
            raise InvalidInput("sea_cards", k, f"an integer in 1..{self.kit.sea_cards}")
        return self.by_sea_cards[k - 1]

    def to_dict(self) -> dict[str, Any]:
        """Plain data (docs/lighthouse.md, "JSON answers").

        Examples
        --------
        >>> from isles.models.lighthouse.kit import default_kit
        >>> win_probability(default_kit(1, 1), "greedy", exact=True).to_dict()["method"]
        'dp sweep'
        """
        return {
            "status": str(self.status),
            "policy": self.policy,
            "method": self.method,
            "islands": len(self.kit.islands),
            "sea_cards": self.kit.sea_cards,
            **probability_json("win_probability", self.by_sea_cards[-1]),
            "error_bound": self.error_bound,
            "by_sea_cards": by_sea_cards_json(self.by_sea_cards),
        }


def win_probability(
    kit: Kit,
    policy: str = "optimal",
    *,
    exact: bool = False,
    backend: Backend = "auto",
    progress: Progress = None,
) -> StartValues:
    """Win probability from the start under ``policy``, for every number of sea cards (8 islands).

    Parameters
    ----------
    kit : Kit
        At most 8 islands (:data:`~isles.models.lighthouse.caps.MAX_SWEEP_ISLANDS`).
    policy : {"optimal", "greedy", "random"}
        ``optimal`` maximises the win probability; the others are evaluated exactly.
    exact : bool
        Fractions (at most 4 islands) instead of floats with ``error_bound``.
    backend : {"auto", "numba", "numpy"}
        The compiled kernels or the NumPy ones.
    progress : bool, None or callable
        As :data:`isles.solvers.work.Progress`.

    Returns
    -------
    StartValues
        Start values for 1..``kit.sea_cards`` sea cards.

    Raises
    ------
    InvalidInput
        Unknown policy, a kit too large (islands or memory), or ``exact`` with
        more than 4 islands.

    See Also
    --------
    isles.solvers.lighthouse.odds.odds : the odds of a kit in one call, cached.

    Notes
    -----
    A game with ``k`` sea cards is the kit's game with the boat already on
    card ``sea_cards - k`` (docs/lighthouse.md, "Fewer sea cards"). Optimal and
    random play: the class DP over every position (:func:`~isles.solvers.lighthouse.dp.solve`);
    greedy play: three layers of lighthouse codes at a time
    (:func:`~isles.solvers.lighthouse.greedy.greedy_start_values`).
    Measured: docs/lighthouse.md ("Measured").

    References
    ----------
    .. [1] R. Bellman, *Dynamic Programming*, Princeton University Press, 1957
       (backward induction).

    Examples
    --------
    >>> from isles.models.lighthouse.kit import default_kit
    >>> win_probability(default_kit(2, sea_cards=2), exact=True).exact_win_probability()
    Fraction(196809133707275, 304679870005248)
    """
    pol = check_policy(policy)
    if pol == "greedy":
        values, bound = greedy_start_values(kit, exact=exact, backend=backend, progress=progress)
        return StartValues(kit, pol, exact, bound, values, "dp sweep")
    sol = solve(kit, pol, exact=exact, backend=backend, progress=progress)
    return StartValues(kit, pol, exact, sol.error_bound, sol.by_sea_cards, "dp")
