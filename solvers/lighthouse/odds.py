"""Lighthouses: what are our real chances? The odds of a kit under a policy, in one call.

Implements docs/lighthouse.md ("What is computed": ``odds``; "The cached table";
seed 000_aeb701e368f40145.txt): the exact DP for kits it
takes (every sea-card count from one solve, optimal and random tables cached),
Monte Carlo beside certified bounds beyond it or when asked.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any, Literal

from isles.models.errors import InvalidInput
from isles.models.jsonio import float_or_none, probability_json
from isles.models.lighthouse.caps import (
    DEFAULT_GAMES,
    MAX_EXACT_ISLANDS,
    SIMULATE_FROM_ISLANDS,
    Policy,
)
from isles.models.lighthouse.kit import Kit
from isles.models.lighthouse.questions import LighthouseOdds
from isles.models.status import Status
from isles.solvers.lighthouse.bounds import forward_greedy, upper_bound_by_disc_count
from isles.solvers.lighthouse.cache import (
    CACHED_POLICIES,
    load_start_values,
    save_start_values,
    solve_cached,
)
from isles.solvers.lighthouse.codes import N_STATES
from isles.solvers.lighthouse.dp import solve
from isles.solvers.lighthouse.greedy import greedy_start_values
from isles.solvers.lighthouse.policies import check_policy, policy_status
from isles.solvers.lighthouse.simulation import SimulationResult
from isles.solvers.lighthouse.simulation import simulate as monte_carlo
from isles.solvers.lighthouse.solution import (
    MAX_DP_BYTES,
    LighthouseSolution,
    by_sea_cards_json,
    class_counts,
    dp_memory_bytes,
)
from isles.solvers.lighthouse.symmetry import colour_group
from isles.solvers.usercache import writable_cache_dir
from isles.solvers.work import Progress

__all__ = [
    "CACHE_FROM_CLASSES",
    "Method",
    "Odds",
    "answer_lighthouse_odds",
    "exact_start",
    "odds",
    "odds_method",
    "solution_for",
]

Method = Literal["dp", "dp sweep", "monte carlo"]
"""How :func:`answer_lighthouse_odds` computes: the DP over every position, greedy
play's layer sweep of the start values, or simulation."""

CACHE_FROM_CLASSES = 200_000
"""Tables of at least this many classes (7 and 8 islands) are kept in the user's cache
directory, and greedy play's start values of kits of at least this many lighthouse codes
(7 and 8 islands); smaller kits solve in about a second."""


@lru_cache(maxsize=64)
def _classes(kit: Kit) -> int:
    """Estimated classes of the kit's class DP (without the group, divided by its size)."""
    size = colour_group(kit).size
    return sum(-(-c // size) for c in class_counts(kit))


def _fits(kit: Kit, policy: Policy) -> bool:
    """Whether the exact DP takes this kit under this policy."""
    return len(kit.islands) <= MAX_EXACT_ISLANDS and dp_memory_bytes(kit, policy) <= MAX_DP_BYTES


def odds_method(
    kit: Kit,
    policy: str = "optimal",
    *,
    simulate: bool = False,
    certify: float | None = None,
) -> Method:
    """How :func:`answer_lighthouse_odds` computes the odds of ``kit`` under ``policy``.

    Chosen by size.

    Parameters
    ----------
    kit : Kit
    policy : {"optimal", "greedy", "random"}
    simulate : bool
        Ask for a Monte Carlo estimate instead of the exact DP (kits of at
        least :data:`~isles.models.lighthouse.caps.SIMULATE_FROM_ISLANDS` islands).
    certify : float, optional
        Ask for a certified lower bound (same kits).

    Returns
    -------
    {"dp", "dp sweep", "monte carlo"}
        ``dp``: the class DP over every position (optimal and random play);
        ``dp sweep``: greedy play's layer sweep of the start values;
        ``monte carlo``: simulation and certified bounds, beyond the DP (more
        than 8 islands, or more than :data:`MAX_DP_BYTES`) or when asked.

    Raises
    ------
    InvalidInput
        Unknown policy; ``simulate`` or ``certify`` for a kit the exact DP
        answers in seconds (fewer than 8 islands).

    Examples
    --------
    >>> from isles.models.lighthouse.kit import default_kit
    >>> [odds_method(default_kit(n)) for n in (6, 8)]
    ['dp', 'dp']
    >>> odds_method(default_kit(8), "greedy"), odds_method(default_kit(8), simulate=True)
    ('dp sweep', 'monte carlo')
    >>> odds_method(default_kit(4), simulate=True)
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: simulate: given; expected kits of at least 8 islands ...
    """
    pol = check_policy(policy)
    n = len(kit.islands)
    fits = _fits(kit, pol)
    if not isinstance(simulate, bool):
        raise InvalidInput("simulate", simulate, "true or false")
    asked: list[tuple[str, object]] = [("simulate", True)] if simulate else []
    if certify is not None:
        asked.append(("certify", certify))
    for name, value in asked:
        if fits and n < SIMULATE_FROM_ISLANDS:
            raise InvalidInput(
                name,
                value,
                f"kits of at least {SIMULATE_FROM_ISLANDS} islands or beyond the exact DP "
                f"(the DP answers {n} islands in seconds)",
                problem="given" if value is True else None,
            )
    if asked or not fits:
        return "monte carlo"
    return "dp sweep" if pol == "greedy" else "dp"


def solution_for(
    kit: Kit,
    policy: str = "optimal",
    *,
    exact: bool = False,
    cache: bool = True,
    progress: Progress = None,
) -> LighthouseSolution:
    """The table of every position of ``kit`` under ``policy``: cached when it is large.

    Optimal and random tables of at least :data:`CACHE_FROM_CLASSES` classes (7
    and 8 islands) are read from the user's cache directory, or solved and
    saved there (``isles.solvers.lighthouse.cache``); others are solved.

    Parameters
    ----------
    kit : Kit
    policy : {"optimal", "greedy", "random"}
        Greedy play: every position up to 7 islands, never cached.
    exact : bool
        Fractions (never cached; at most 4 islands).
    cache : bool
        False solves without reading or writing the cache.
    progress : bool, None or callable
        When solving, as :data:`isles.solvers.work.Progress`.

    Returns
    -------
    LighthouseSolution

    Raises
    ------
    InvalidInput
        Unknown policy, a kit beyond the DP, ``exact`` for a large kit.

    Examples
    --------
    >>> from isles.models.lighthouse.kit import default_kit
    >>> round(solution_for(default_kit(3, 2), "random").win_probability(), 6)
    0.351616
    """
    pol = check_policy(policy)
    if (
        cache
        and not exact
        and pol in CACHED_POLICIES
        and _fits(kit, pol)
        and _classes(kit) >= CACHE_FROM_CLASSES
    ):
        return solve_cached(kit, policy=pol, progress=progress)
    return solve(kit, pol, exact=exact, progress=progress)


@dataclass(frozen=True)
class Odds:
    """The odds of a kit under one policy: what was computed, and how.

    From :func:`answer_lighthouse_odds` (``isles.lighthouse.odds``).

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
        Values the DP computed (rows x boats x Maurice offsets).
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
    >>> from isles.models.lighthouse.kit import default_kit
    >>> from isles.models.lighthouse.questions import LighthouseOdds
    >>> res = answer_lighthouse_odds(LighthouseOdds.ask(kit=default_kit(1, 1), exact=True))
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
        >>> from isles.models.lighthouse.questions import LighthouseOdds
        >>> asked = LighthouseOdds.ask(islands=1, sea_cards=1, policy="greedy")
        >>> d = answer_lighthouse_odds(asked).to_dict()
        >>> d["status"], d["method"], d["simulated_policy"]
        ('exact', 'dp sweep', None)
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
            else by_sea_cards_json(self.by_sea_cards),
            "positions": self.positions,
            "certified_lower_bound": float_or_none(self.lower_bound),
            **probability_json("certified_upper_bound", self.upper_bound),
            "min_mass": self.min_mass,
            "simulated_policy": self.simulated_policy,
            "simulation": None if self.simulation is None else self.simulation.to_dict(),
        }


def exact_start(
    kit: Kit, policy: Policy, exact: bool, cache: bool, progress: Progress
) -> tuple[tuple[Fraction | float, ...], float, int]:
    """(start values by sea cards, error bound, values computed) by the DP."""
    n = len(kit.islands)
    if policy == "greedy":
        positions = int(N_STATES**n * (kit.sea_cards + 1) * n)
        kept = cache and not exact and N_STATES**n >= CACHE_FROM_CLASSES
        found = load_start_values(kit) if kept else None
        if found is not None:
            return (*found, positions)
        if kept:
            writable_cache_dir()  # before the sweep, not after it
        values, bound = greedy_start_values(kit, exact=exact, progress=progress)
        if kept:
            save_start_values(kit, tuple(float(v) for v in values), bound)
        return values, bound, positions
    sol = solution_for(kit, policy, exact=exact, cache=cache, progress=progress)
    return sol.by_sea_cards, sol.error_bound, sol.positions


def answer_lighthouse_odds(question: LighthouseOdds, *, progress: Progress = None) -> Odds:
    """The odds of winning with a kit under a policy, by the best method its size allows.

    The method is :func:`odds_method`'s: the exact DP for kits of up to 8
    islands (optimal and random play: every position, the table cached for 7
    and 8 islands; greedy play: its layer sweep), every sea-card count from one
    solve; beyond, or with ``simulate`` or ``certify``, a Monte Carlo estimate
    beside certified bounds (``upper_bound_by_disc_count``, and with
    ``certify`` ``forward_greedy``). With ``cache`` off nothing is read from or
    kept in the user's cache directory.

    Parameters
    ----------
    question : LighthouseOdds
        Read by :meth:`~isles.models.contract.Question.read` (the command line, the web app)
        or built by ``isles.lighthouse.odds``.
    progress : bool, None or callable
        Progress bars (stderr) of long work, as :data:`isles.solvers.work.Progress`.

    Returns
    -------
    Odds
        ``status`` optimal, exact or estimate.

    Raises
    ------
    InvalidInput
        What needs the kit to tell, naming the question's fields: ``simulate``
        or ``certify`` for a kit the DP answers in seconds; ``games`` or
        ``seed`` when nothing is simulated; ``exact`` where no Fractions are
        computed; ``cache`` off where nothing is cached (the odds simulated).

    References
    ----------
    R. Bellman, *Dynamic Programming*, 1957 (backward induction); E. B. Wilson
    (1927), for the interval of the estimate.

    Examples
    --------
    >>> from isles.models.lighthouse.questions import LighthouseOdds
    >>> answer_lighthouse_odds(LighthouseOdds.read({"islands": 2, "sea_cards": 2})).method
    'dp'
    """
    kit = question.chosen_kit()
    pol: Policy = question.policy
    method = odds_method(kit, pol, simulate=question.simulate, certify=question.certify)
    if method != "monte carlo":
        return _exact_odds(question, kit, method, progress)
    if not question.cache:
        raise InvalidInput(
            "cache",
            False,
            "the cache only where the exact DP answers (these odds are simulated: nothing "
            "is cached)",
            problem="given",
        )
    return _simulated_odds(question, kit, progress)


def odds(
    kit: Kit | str | Mapping[str, object],
    policy: str = "optimal",
    *,
    exact: bool = False,
    simulate: bool = False,
    certify: float | None = None,
    games: int | None = None,
    seed: int | None = None,
    cache: bool = True,
    progress: Progress = None,
) -> Odds:
    """The odds of winning with ``kit`` under ``policy``, by the best method its size allows.

    The exact DP for kits of up to 8 islands (optimal and random play: every
    position, the table cached for 7 and 8 islands; greedy play: its layer
    sweep), every sea-card count from one solve; beyond, or with ``simulate`` or
    ``certify``, a Monte Carlo estimate (``simulate``) beside certified bounds
    (docs/lighthouse.md, "What is computed").

    Parameters
    ----------
    kit : Kit, str or mapping
        A kit, a name of the registry (``"game-2"``, docs/lighthouse.md, "Named
        kits") or a kit's JSON.
    policy : {"optimal", "greedy", "random"}
        The players' policy. Beyond the DP, ``optimal`` is bracketed: greedy
        play is simulated (a statistical lower estimate) beside the certified
        upper bound, and ``certify`` adds a certified lower bound.
    exact : bool
        Fractions instead of floats (the DP only, at most 4 islands).
    simulate : bool
        A Monte Carlo estimate instead of the exact DP (kits of at least 8 islands).
    certify : float, optional
        Also evaluate greedy play exactly forward, dropping positions less likely
        than this (0 < certify < 1): a certified lower bound for ``optimal`` and
        ``greedy`` (kits of at least 8 islands).
    games : int, optional
        Games to simulate, 1..1,000,000 (default 20,000); only when the odds are
        simulated.
    seed : int, optional
        The simulation's seed, >= 0 (default 0); only when the odds are simulated.
    cache : bool
        Read and keep large tables in the user's cache directory; False solves
        without them (refused where nothing is cached: the odds simulated).
    progress : bool, None or callable
        Progress bars (stderr): True at once, False never, None on a terminal
        once the work has taken a second; a callable is told the fraction done.

    Returns
    -------
    Odds
        ``status`` optimal, exact or estimate.

    Raises
    ------
    InvalidInput
        Unknown policy; ``simulate`` or ``certify`` for a kit the DP answers in
        seconds; ``games`` or ``seed`` when nothing is simulated; ``exact`` where
        no Fractions are computed; ``certify`` for random play or outside (0, 1);
        ``games`` above the cap; ``cache=False`` for simulated odds.

    See Also
    --------
    isles.lighthouse.difficulty_table : the odds by players, sea cards and policy.

    References
    ----------
    R. Bellman, *Dynamic Programming*, 1957 (backward induction); E. B. Wilson
    (1927), for the interval of the estimate.

    Examples
    --------
    >>> from isles.models.lighthouse.kit import default_kit
    >>> odds(default_kit(2, 2), exact=True).win_probability
    Fraction(196809133707275, 304679870005248)
    >>> res = odds(default_kit(8, 2), simulate=True, games=500)
    >>> res.status, res.win_probability, res.simulated_policy
    (<Status.ESTIMATE: 'estimate'>, None, 'greedy')
    """
    question = LighthouseOdds.ask(
        kit=kit,
        policy=policy,
        exact=exact,
        simulate=simulate,
        certify=certify,
        games=games,
        seed=seed,
        cache=cache,
    )
    return answer_lighthouse_odds(question, progress=progress)


def _exact_odds(question: LighthouseOdds, kit: Kit, method: Method, progress: Progress) -> Odds:
    """The odds by the DP (or greedy play's sweep): every sea-card count, one solve."""
    for name in ("games", "seed"):
        value = getattr(question, name)
        if value is not None:
            raise InvalidInput(
                name,
                value,
                "a value only when the odds are simulated (asked, or a kit beyond the "
                f"exact DP); the {method} answers this kit exactly",
            )
    pol = question.policy
    by_cards, bound, positions = exact_start(kit, pol, question.exact, question.cache, progress)
    upper = upper_bound_by_disc_count(kit)
    return Odds(
        kit, pol, policy_status(pol), method, by_cards[-1], bound, by_cards, positions, upper
    )


def _simulated_odds(question: LighthouseOdds, kit: Kit, progress: Progress) -> Odds:
    """The odds beyond the DP: a Monte Carlo estimate beside certified bounds."""
    if question.exact:
        raise InvalidInput(
            "exact",
            True,
            "exact Fractions only where the DP runs (simulation gives floats)",
            problem="given",
        )
    pol, certify = question.policy, question.certify
    played: Policy = "greedy" if pol == "optimal" else pol
    sim = monte_carlo(
        kit,
        played,
        DEFAULT_GAMES if question.games is None else question.games,
        seed=0 if question.seed is None else question.seed,
        progress=progress,
    )
    upper: Fraction | float = upper_bound_by_disc_count(kit)
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
        "monte carlo",
        None if pol == "optimal" else sim.win_probability,
        None,
        None,
        None,
        upper,
        lower,
        certify,
        sim,
    )
