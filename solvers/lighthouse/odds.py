"""Lighthouses: what are our real chances? The odds of a kit, and the difficulty table, in one call.

Implements docs/lighthouse.md ("What is computed": ``odds``, ``difficulty_table``;
"The cached table"; seed 000_aeb701e368f40145.txt): the exact DP for kits it
takes (every sea-card count from one solve, optimal and random tables cached),
Monte Carlo beside certified bounds beyond it or when asked.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any, Literal

from isles.models.errors import InvalidInput
from isles.models.jsonio import float_or_none, probability_json
from isles.models.lighthouse.caps import (
    DEFAULT_GAMES,
    MAX_EXACT_ISLANDS,
    POLICIES,
    SIMULATE_FROM_ISLANDS,
    Policy,
)
from isles.models.lighthouse.kit import Kit, default_kit, islands_in_play
from isles.models.lighthouse.questions import LighthouseOdds, LighthouseTable, ask
from isles.models.status import Status
from isles.solvers.lighthouse.bounds import forward_greedy, upper_bound_by_disc_count
from isles.solvers.lighthouse.cache import (
    CACHED_POLICIES,
    load_start_values,
    save_start_values,
    solve_cached,
)
from isles.solvers.lighthouse.codes import N_STATES
from isles.solvers.lighthouse.dp import (
    MAX_DP_BYTES,
    LighthouseSolution,
    by_sea_cards_json,
    class_counts,
    dp_memory_bytes,
    solve,
)
from isles.solvers.lighthouse.greedy import greedy_start_values
from isles.solvers.lighthouse.policies import check_policy, policy_status
from isles.solvers.lighthouse.simulation import SimulationResult
from isles.solvers.lighthouse.simulation import simulate as monte_carlo
from isles.solvers.lighthouse.symmetry import colour_group
from isles.solvers.usercache import writable_cache_dir

__all__ = [
    "CACHE_FROM_CLASSES",
    "DifficultyEntry",
    "DifficultyTable",
    "Method",
    "Odds",
    "answer_odds",
    "answer_table",
    "difficulty_table",
    "odds",
    "odds_method",
    "solution_for",
]

Method = Literal["dp", "dp sweep", "monte carlo"]
"""How :func:`odds` computes: the DP over every position, greedy play's layer sweep of
the start values, or simulation."""

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
    """How :func:`odds` computes the odds of ``kit`` under ``policy``: chosen by size.

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
    progress: bool | None = None,
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
    progress : bool or None
        A progress bar when solving (None: for long solves).

    Returns
    -------
    LighthouseSolution

    Raises
    ------
    InvalidInput
        Unknown policy, a kit beyond the DP, ``exact`` for a large kit.

    Examples
    --------
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


def _exact_start(
    kit: Kit, policy: Policy, exact: bool, cache: bool, progress: bool | None
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


def odds(
    kit: Kit | str | Mapping[str, Any],
    policy: str = "optimal",
    *,
    exact: bool = False,
    simulate: bool = False,
    certify: float | None = None,
    games: int | None = None,
    seed: int | None = None,
    cache: bool = True,
    progress: bool | None = None,
) -> Odds:
    """The odds of winning with ``kit`` under ``policy``, by the best method its size allows.

    The method is :func:`odds_method`'s: the exact DP for kits of up to 8
    islands (optimal and random play: every position, the table cached for 7
    and 8 islands; greedy play: its layer sweep), every sea-card count from one
    solve; beyond, or with ``simulate`` or ``certify``, a Monte Carlo estimate
    (``simulate``) beside certified bounds (``upper_bound_by_disc_count``, and
    with ``certify`` ``forward_greedy``).

    Parameters
    ----------
    kit : Kit, str or mapping
        A kit, a name of :data:`~isles.models.lighthouse.kit.KITS` or a kit's JSON.
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
        Games to simulate, 1..:data:`~isles.models.lighthouse.caps.MAX_GAMES` (default
        :data:`~isles.models.lighthouse.caps.DEFAULT_GAMES`); only when the method is
        ``monte carlo``.
    seed : int, optional
        The simulation's seed, >= 0 (default 0); only when the method is ``monte carlo``.
    cache : bool
        Read and keep large tables in the user's cache directory (:func:`solution_for`).
    progress : bool or None
        Progress bars (stderr): True always, False never, None for long work.

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
        ``games`` above the cap.

    See Also
    --------
    difficulty_table : the odds by players, sea cards and policy.

    References
    ----------
    R. Bellman, *Dynamic Programming*, 1957 (backward induction); E. B. Wilson
    (1927), for the interval of the estimate.

    Examples
    --------
    >>> odds(default_kit(2, 2), exact=True).win_probability
    Fraction(196809133707275, 304679870005248)
    >>> res = odds(default_kit(8, 2), simulate=True, games=500)
    >>> res.status, res.win_probability, res.simulated_policy
    (<Status.ESTIMATE: 'estimate'>, None, 'greedy')
    """
    question = ask(
        LighthouseOdds,
        kit=kit,
        policy=policy,
        exact=exact,
        simulate=simulate,
        certify=certify,
        games=games,
        seed=seed,
    )
    return answer_odds(question, cache=cache, progress=progress)


def answer_odds(
    question: LighthouseOdds, *, cache: bool = True, progress: bool | None = None
) -> Odds:
    """The odds a validated :class:`~isles.models.questions.LighthouseOdds` asks (:func:`odds`).

    Parameters
    ----------
    question : LighthouseOdds
        Read by :meth:`~isles.models.contract.Question.read` (the command line, the web app)
        or built by :func:`odds`.
    cache : bool
        Read and keep large tables in the user's cache directory.
    progress : bool or None
        Progress bars (stderr): True always, False never, None for long work.

    Returns
    -------
    Odds

    Raises
    ------
    InvalidInput
        What needs the kit to tell (as :func:`odds`), naming the question's fields.

    Examples
    --------
    >>> from isles.models.lighthouse.questions import LighthouseOdds
    >>> answer_odds(LighthouseOdds.read({"islands": 2, "sea_cards": 2})).method
    'dp'
    """
    kit = question.chosen_kit()
    pol: Policy = question.policy
    method = odds_method(kit, pol, simulate=question.simulate, certify=question.certify)
    if method != "monte carlo":
        return _exact_odds(question, kit, method, cache, progress)
    return _simulated_odds(question, kit, progress)


def _exact_odds(
    question: LighthouseOdds, kit: Kit, method: Method, cache: bool, progress: bool | None
) -> Odds:
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
    by_cards, bound, positions = _exact_start(kit, pol, question.exact, cache, progress)
    upper = upper_bound_by_disc_count(kit)
    return Odds(
        kit, pol, policy_status(pol), method, by_cards[-1], bound, by_cards, positions, upper
    )


def _simulated_odds(question: LighthouseOdds, kit: Kit, progress: bool | None) -> Odds:
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
        # The forward evaluation is long work on every kit it is asked for (8 islands and
        # more: minutes at min_mass 1e-7), so None shows its bar.
        forward = forward_greedy(kit, min_mass=certify, progress=progress is not False)
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


# --- difficulty table -------------------------------------------------------------------


@dataclass(frozen=True)
class DifficultyEntry:
    """One (kit, policy, sea cards) cell of the difficulty table (default kit).

    Parameters
    ----------
    islands : int
        Islands in play.
    players : tuple of int
        The player counts that play this many islands (2 and 4 players: 8
        islands; 3 players: 6); empty for other island counts.
    sea_cards : int
    policy : {"optimal", "greedy", "random"}
    status : Status
        ``optimal`` or ``exact``.
    method : {"dp", "dp sweep"}
    win_probability : float
        The DP's value, within ``error_bound``.
    error_bound : float
    upper_bound : Fraction
        The certified disc-count bound on every policy.

    Examples
    --------
    >>> row = difficulty_table((1,), (1,), "greedy").rows[0]
    >>> row.status, row.method, row.players
    (<Status.EXACT: 'exact'>, 'dp sweep', ())
    """

    islands: int
    players: tuple[int, ...]
    sea_cards: int
    policy: Policy
    status: Status
    method: Method
    win_probability: float
    error_bound: float
    upper_bound: Fraction

    def to_dict(self) -> dict[str, Any]:
        """Plain data (docs/lighthouse.md, "JSON answers")."""
        return {
            "islands": self.islands,
            "players": list(self.players),
            "sea_cards": self.sea_cards,
            "status": str(self.status),
            "policy": self.policy,
            "method": self.method,
            **probability_json("win_probability", self.win_probability),
            "error_bound": self.error_bound,
            **probability_json("certified_upper_bound", self.upper_bound),
        }


@dataclass(frozen=True)
class DifficultyTable:
    """Win probability by players (islands), policy and sea cards (from :func:`difficulty_table`).

    A table has no single value: each row holds its own.

    Parameters
    ----------
    policies : tuple of {"optimal", "greedy", "random"}
    rows : tuple of DifficultyEntry
        By kit (in the order asked), then policy, then sea cards.

    Examples
    --------
    >>> table = difficulty_table((2,), (1, 2), "greedy")
    >>> table.status, [round(r.win_probability, 4) for r in table.rows]
    (<Status.EXACT: 'exact'>, [0.37, 0.6358])
    """

    policies: tuple[Policy, ...]
    rows: tuple[DifficultyEntry, ...]

    @property
    def status(self) -> Status:
        """``optimal`` when every row is optimal play, else ``exact`` (fixed policies too)."""
        if all(r.status is Status.OPTIMAL for r in self.rows):
            return Status.OPTIMAL
        return Status.EXACT

    def to_dict(self) -> dict[str, Any]:
        """Plain data (docs/lighthouse.md, "JSON answers"): no top-level value, only rows.

        Examples
        --------
        >>> sorted(difficulty_table((1,), (1,)).to_dict())
        ['policies', 'rows', 'status']
        """
        return {
            "status": str(self.status),
            "policies": list(self.policies),
            "rows": [r.to_dict() for r in self.rows],
        }


def difficulty_table(
    islands: Iterable[int] | None = None,
    sea_cards: Iterable[int] = tuple(range(1, 9)),
    policy: str | Iterable[str] = POLICIES,
    *,
    players: Iterable[int] | None = None,
    games: int | None = None,
    seed: int | None = None,
    cache: bool = True,
    progress: bool | None = None,
) -> DifficultyTable:
    """Win probability by players (or islands), policy and sea cards, default kit, exact.

    2 and 4 players play 8 islands, 3 players 6 (the same kit for 2 and 4
    players: one solve). Each kit and policy is solved once with the most
    sea cards asked (a game with fewer cards is the same game with the boat
    further on), as in :func:`odds` (optimal and random tables cached).

    Parameters
    ----------
    islands : iterable of int, optional
        Island counts (1..8) of the default kit. Default: the kits of ``players``.
    sea_cards : iterable of int
        Sea cards, each 1..:data:`~isles.models.lighthouse.kit.MAX_SEA_CARDS`.
    policy : str or iterable of {"optimal", "greedy", "random"}
        One policy or several (default all three).
    players : iterable of int, optional
        Player counts, each 2, 3 or 4 (instead of ``islands``). When neither is
        given: 2, 3 and 4 players.
    games, seed : None
        Kept for older callers: every row is exact, nothing is simulated, so a
        value is refused.
    cache : bool
        Read and keep large tables in the user's cache directory.
    progress : bool or None
        Progress bars (stderr): None for long solves.

    Returns
    -------
    DifficultyTable

    Raises
    ------
    InvalidInput
        Both ``islands`` and ``players``; no islands, players, sea cards or
        policies; a value out of range; an unknown policy; ``games`` or ``seed``.

    Notes
    -----
    Measured (docs/lighthouse.md, "Measured"): the full table, 2-4 players x
    8 sea cards x 3 policies, takes about 100 s of CPU the first time (the
    8-island greedy sweep, 60 s, then optimal and random play, 20 s each), and
    seconds once the tables and greedy's start values are cached.

    Examples
    --------
    >>> table = difficulty_table((2,), (1, 2), "greedy")
    >>> [round(r.win_probability, 4) for r in table.rows]
    [0.37, 0.6358]
    >>> [(r.islands, r.players) for r in difficulty_table(sea_cards=(1,), players=(3,)).rows]
    [(6, (3,)), (6, (3,)), (6, (3,))]
    """
    for name, given in (("games", games), ("seed", seed)):
        if given is not None:
            raise InvalidInput(
                name, given, f"no {name}: every row of the table is exact, nothing is simulated"
            )
    question = LighthouseTable.read(
        {
            # one count or several, as the declaration reads them (N sea cards: rows 1..N)
            name: value if isinstance(value, int | str) else tuple(value)
            for name, value in (
                ("islands", islands),
                ("sea_cards", sea_cards),
                ("policy", (policy,) if isinstance(policy, str) else policy),
                ("players", players),
            )
            if value is not None
        }
    )
    return answer_table(question, cache=cache, progress=progress)


def _table_kits(question: LighthouseTable) -> dict[int, tuple[int, ...]]:
    """The table's kits: islands -> the player counts that play them (2 and 4 share 8)."""
    kits: dict[int, tuple[int, ...]] = {}
    if question.islands is None:
        counts = (2, 3, 4) if question.players is None else question.players
        if not counts:
            raise InvalidInput("players", [], "at least one number of players")
        for p in counts:
            n = islands_in_play(p)
            kits[n] = (*kits.get(n, ()), p)
        return kits
    if not question.islands:
        raise InvalidInput("islands", [], "at least one number of islands")
    for n in question.islands:
        kits.setdefault(n, ())
    return kits


def answer_table(
    question: LighthouseTable, *, cache: bool = True, progress: bool | None = None
) -> DifficultyTable:
    """The table a validated :class:`~isles.models.questions.LighthouseTable` asks.

    Parameters
    ----------
    question : LighthouseTable
    cache : bool
        Read and keep large tables in the user's cache directory.
    progress : bool or None
        Progress bars (stderr): None for long solves.

    Returns
    -------
    DifficultyTable

    Raises
    ------
    InvalidInput
        No policies, sea cards, islands or players.

    Examples
    --------
    >>> from isles.models.lighthouse.questions import LighthouseTable
    >>> ask = LighthouseTable.read({"islands": (2,), "sea_cards": (1,), "policy": ("greedy",)})
    >>> [round(r.win_probability, 4) for r in answer_table(ask).rows]
    [0.37]
    """
    pols, cards = question.policy, question.sea_cards
    if not pols:
        raise InvalidInput("policy", [], "at least one policy")
    if not cards:
        raise InvalidInput("sea_cards", [], "at least one number of sea cards")
    top = max(cards)
    rows: list[DifficultyEntry] = []
    for n, who in _table_kits(question).items():
        kit = default_kit(n, top)
        for pol in pols:
            by_cards, bound, _ = _exact_start(kit, pol, False, cache, progress)
            method: Method = "dp sweep" if pol == "greedy" else "dp"
            rows.extend(
                DifficultyEntry(
                    n,
                    who,
                    k,
                    pol,
                    policy_status(pol),
                    method,
                    float(by_cards[k - 1]),
                    bound,
                    upper_bound_by_disc_count(kit.with_sea_cards(k)),
                )
                for k in cards
            )
    return DifficultyTable(pols, tuple(rows))
