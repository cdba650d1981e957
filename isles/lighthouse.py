"""The cooperative lighthouse game (seed 000_aeb701e368f40145.txt; docs/lighthouse.md).

One call per question, each a keyword function that builds its question and
answers it (``isles.answer`` answers the same question objects):

- :func:`odds` (:class:`LighthouseOdds`): the odds of a kit under optimal, greedy
  or random play, exact for every sea-card count up to 8 islands (the real game:
  :func:`players_kit`), Monte Carlo beside certified bounds beyond; the answer
  (:class:`Odds`, its Monte Carlo run a :class:`SimulationResult`) says how;
- :func:`best_move` (:class:`LighthouseAdvice`): the best :class:`Decision` for a
  :class:`Roll` in any :class:`Position`, with every alternative's odds
  (:class:`Advice`; its :class:`Outcome` says when the roll loses whatever is
  played), from the cached table or from the positions that can follow;
- :func:`difficulty_table` (:class:`LighthouseTable`): the odds by players, policy
  and sea cards (:class:`DifficultyTable` of :class:`DifficultyEntry`);
- :func:`competitive_odds` (:class:`LighthouseContest`): each seat's chance in the
  competitive variant, exact (:class:`CompetitiveSolution`: greedy, random, and
  optimal play for 2 seats) where the solve fits, else simulated
  (:class:`CompetitiveSimulation`).

The kit (:class:`Kit`): the box's default kit (:func:`default_kit`), the real game
for 2, 3 or 4 players (:func:`players_kit`), a named kit (:func:`named_kit`), or a
kit file; every question but the table chooses it the same way
(:class:`KitChoice`). Every result has ``to_dict()`` (docs/json.md). The engine
stays reachable under :mod:`isles.solvers.lighthouse` (the solvers),
:mod:`isles.models.lighthouse` (the rules: legal decisions, one turn, the caps and
the registry of named kits); the user's cache (the tables, numba's kernels) is
``isles.cache_dir``, ``isles.cache_entries`` and ``isles.clear_cache``.

Examples
--------
>>> from isles import lighthouse
>>> kit = lighthouse.default_kit(islands=2, sea_cards=2)
>>> res = lighthouse.odds(kit, exact=True)
>>> res.status, res.method, res.win_probability
(<Status.OPTIMAL: 'optimal'>, 'dp', Fraction(196809133707275, 304679870005248))

The real game for 2 players (8 islands), late on: the best move for a roll, with
every alternative's odds (from the cached table when there is one, otherwise from
the positions that can follow this one):

>>> kit = lighthouse.players_kit(2)
>>> done = tuple((a, b, a, b) for a, b in kit.islands[:7])
>>> late = lighthouse.Position((*done, ()), boat=6, maurice=0)
>>> move = lighthouse.best_move(kit, late, lighthouse.Roll.from_faces(kit, ("purple", "green")))
>>> move.best.to_dict(), [round(p, 6) for _, p in move.alternatives]
({'placements': [['green', 7], ['purple', 7]], 'bonus': None}, [0.802786, 0.802786])
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from isles.models.lighthouse.kit import Kit, default_kit, named_kit, players_kit
from isles.models.lighthouse.position import Position
from isles.models.lighthouse.questions import (
    KitChoice,
    LighthouseAdvice,
    LighthouseContest,
    LighthouseOdds,
    LighthouseTable,
)
from isles.models.lighthouse.rules import Decision, Outcome, Roll
from isles.solvers.lighthouse.advice import Advice, answer_lighthouse_advice
from isles.solvers.lighthouse.competitive import CompetitiveSolution
from isles.solvers.lighthouse.competitive_simulation import CompetitiveSimulation
from isles.solvers.lighthouse.contest import answer_lighthouse_contest
from isles.solvers.lighthouse.odds import Odds, answer_lighthouse_odds
from isles.solvers.lighthouse.simulation import SimulationResult
from isles.solvers.lighthouse.table import (
    DifficultyEntry,
    DifficultyTable,
    answer_lighthouse_table,
)
from isles.solvers.work import Progress

__all__ = [
    "Advice",
    "CompetitiveSimulation",
    "CompetitiveSolution",
    "Decision",
    "DifficultyEntry",
    "DifficultyTable",
    "Kit",
    "KitChoice",
    "LighthouseAdvice",
    "LighthouseContest",
    "LighthouseOdds",
    "LighthouseTable",
    "Odds",
    "Outcome",
    "Position",
    "Roll",
    "SimulationResult",
    "best_move",
    "competitive_odds",
    "default_kit",
    "difficulty_table",
    "named_kit",
    "odds",
    "players_kit",
]


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


def best_move(
    kit: Kit | str | Mapping[str, object],
    position: Position | Mapping[str, object],
    roll: Roll | Sequence[str],
    *,
    exact: bool = False,
    cache: bool = True,
    progress: Progress = None,
) -> Advice:
    """The optimal decision for ``roll`` in ``position``, with every alternative's odds.

    Reads the kit's optimal table from the cache when it is there (a few rows of
    a memory-mapped file: milliseconds), and keeps it in memory for the next
    call. Without it, an early position of a kit of 7 or 8 islands (at most 8
    discs laid) solves the whole table and keeps it in the cache (the real
    game: 12 to 17 s the first time on 2 cores, 11 s once numba has compiled;
    every later roll reads it); any other position solves only the positions
    that can follow it (docs/lighthouse.md, "One position without the table").

    Parameters
    ----------
    kit : Kit, str or mapping
        At most 8 islands: a kit, a name of the registry or a kit's JSON.
    position : Position or mapping
        A position of the kit still in play (a won position is refused), or its JSON.
    roll : Roll or sequence of str
        The roll to play, e.g. ``Roll.from_faces(kit, ("boat", "red"))``, or its faces.
    exact : bool
        Fractions (at most 4 islands; never cached) instead of floats.
    cache : bool
        Read (and for an early position of 7 or 8 islands, keep) the kit's table
        in the user's cache directory; False solves the position's own classes.
    progress : bool, None or callable
        A progress bar (stderr) when solving, as :func:`odds`'s.

    Returns
    -------
    Advice
        ``status`` optimal; ``outcome`` lost when the roll lands the boat on
        Maurice's island (the game is lost whatever is played).

    Raises
    ------
    InvalidInput
        The position does not fit the kit or is won; a roll colour not on the
        dice; a kit beyond the DP; ``exact`` for a large kit.

    Examples
    --------
    >>> kit = default_kit(2, 2)
    >>> pos = Position((("red",), ()), boat=1, maurice=1)
    >>> adv = best_move(kit, pos, Roll.from_faces(kit, ("blue", "green")))
    >>> adv.best.to_dict()
    {'placements': [['blue', 0], ['green', 1]], 'bonus': None}
    >>> best_move(kit, pos, ["boat", "red"], exact=True).win_probability
    Fraction(...)
    """
    question = LighthouseAdvice.ask(kit=kit, position=position, roll=roll, exact=exact, cache=cache)
    return answer_lighthouse_advice(question, progress=progress)


def difficulty_table(
    islands: int | Iterable[int] | None = None,
    sea_cards: int | Iterable[int] = 8,
    policy: str | Iterable[str] = ("optimal", "greedy", "random"),
    *,
    players: int | Iterable[int] | None = None,
    cache: bool = True,
    progress: Progress = None,
) -> DifficultyTable:
    """Win probability by players (or islands), policy and sea cards, default kit, exact.

    2 and 4 players play 8 islands, 3 players 6 (the same kit for 2 and 4
    players: one solve). Each kit and policy is solved once with the most
    sea cards asked (a game with fewer cards is the same game with the boat
    further on), as in :func:`odds` (optimal and random tables cached).

    Parameters
    ----------
    islands : int or iterable of int, optional
        Island counts (1..8) of the default kit. Default: the kits of ``players``.
    sea_cards : int or iterable of int
        The rows: ``N`` for 1..N (default 1..8), or the sea-card counts (each 1..30).
    policy : str or iterable of {"optimal", "greedy", "random"}
        One policy or several (default all three).
    players : int or iterable of int, optional
        Player counts, each 2, 3 or 4 (instead of ``islands``). When neither is
        given: 2, 3 and 4 players.
    cache : bool
        Read and keep large tables in the user's cache directory.
    progress : bool, None or callable
        Progress bars (stderr) of long solves, as :func:`odds`'s.

    Returns
    -------
    DifficultyTable

    Raises
    ------
    InvalidInput
        Both ``islands`` and ``players``; no islands, players, sea cards or
        policies; a value out of range; an unknown policy.

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
    question = LighthouseTable.ask(
        # one count or several, as the declaration reads them (N sea cards: rows 1..N)
        islands=_counts(islands),
        sea_cards=_counts(sea_cards),
        policy=policy if isinstance(policy, str) else tuple(policy),
        players=_counts(players),
        cache=cache,
    )
    return answer_lighthouse_table(question, progress=progress)


def _counts(value: int | Iterable[int] | None) -> int | tuple[int, ...] | None:
    """One count, or several as a tuple (a range, a list), as the table's fields read them."""
    return value if value is None or isinstance(value, int) else tuple(value)


def competitive_odds(
    kit: Kit | str | Mapping[str, object] | None = None,
    seats: int = 2,
    policy: str | Sequence[str] = "greedy",
    *,
    games: int | None = None,
    seed: int | None = None,
    time_limit: float | None = None,
    progress: Progress = None,
) -> CompetitiveSolution | CompetitiveSimulation:
    """Each seat's chance in the competitive variant: exact where the solve fits, else simulated.

    Kits whose solve fits in 2 GiB (the default 2-seat kit, 3 seats x 2 islands)
    are solved exactly by value iteration; larger ones (4 seats x 2 islands,
    2 seats x 4 islands) are simulated, and the answer says so (``status``
    exact, optimal or estimate; docs/lighthouse.md, "Competitive variant").

    Parameters
    ----------
    kit : Kit, str or mapping, optional
        A kit, a name of the registry or a kit's JSON; default the registry's
        ``competitive-SEATS`` (3 sea cards).
    seats : int
        2..4 seats dividing the islands.
    policy : str or sequence of str
        ``greedy``, ``random`` or (2 seats, solved kits) ``optimal``; one, or one per seat.
    games : int, optional
        Games to simulate (default 20,000); only for a kit that is simulated.
    seed : int, optional
        The simulation's seed (default 0); only for a kit that is simulated.
    time_limit : float, optional
        Seconds for an exact solve (default 600): when they run out the answer
        is ``timed_out``, its chances still within ``error_bound``; only for a
        kit that is solved.
    progress : bool, None or callable
        A progress bar (stderr), as :func:`odds`'s.

    Returns
    -------
    CompetitiveSolution or CompetitiveSimulation

    Raises
    ------
    InvalidInput
        Bad seats or policy; ``games`` or ``seed`` for a kit solved exactly, or
        ``time_limit`` for one simulated (they would do nothing); ``optimal``
        for a kit beyond the exact solve.

    References
    ----------
    L. S. Shapley, "Stochastic games", *Proc. Natl. Acad. Sci.* 39 (1953)
    1095-1100 (value iteration); E. B. Wilson (1927), for the intervals.

    Examples
    --------
    >>> competitive_odds(default_kit(2, 3)).status
    <Status.EXACT: 'exact'>
    >>> competitive_odds(default_kit(2, 3), games=10)
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: games: 10 is invalid; expected games only ...
    """
    question = LighthouseContest.ask(
        kit=kit, seats=seats, policy=policy, games=games, seed=seed, time_limit=time_limit
    )
    return answer_lighthouse_contest(question, progress=progress)
