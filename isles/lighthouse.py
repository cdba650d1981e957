"""The cooperative lighthouse game (seed 000_aeb701e368f40145.txt; docs/lighthouse.md).

The public entry points, one call per question:

- :func:`odds`: the odds of a kit under optimal, greedy or random play, exact
  for every sea-card count up to 8 islands (the real game: :func:`players_kit`),
  Monte Carlo beside certified bounds beyond; the answer (:class:`Odds`) says how;
- :func:`best_move`: the best decision for a roll in any position, with every
  alternative's odds (from the cached table, or the positions that can follow);
- :func:`difficulty_table`: the odds by players, policy and sea cards;
- :func:`competitive_odds`: each seat's chance in the competitive variant, exact
  (greedy, random, and optimal play for 2 seats) where the solve fits, else simulated;
- the kit and positions (:class:`Kit`, :class:`Position`, :class:`Roll`; the
  named kits :data:`KITS`, :func:`named_kit`, :func:`default_kit`,
  :func:`players_kit`), and the building blocks behind the calls
  (:func:`solve`, :func:`solve_cached`, :func:`advise`, :func:`simulate`,
  :func:`forward_greedy`, ...);
- the questions (docs/json.md, "Questions"; :class:`LighthouseOdds`,
  :class:`LighthouseAdvice`, :class:`LighthouseTable`,
  :class:`LighthouseContest`), answered by :func:`answer_odds`,
  :func:`answer_advice`, :func:`answer_table` and :func:`answer_contest`;
- the cache (:func:`cache_dir`, :func:`load_table`, :func:`cache_entries`,
  :func:`clear_cache`; :data:`CACHE_ENV` names the environment variable that
  moves it): the tables and numba's compiled kernels, never in isles' own files.

Every result has ``to_dict()`` (docs/json.md); the caps are stated constants
(:data:`MAX_GAMES`, :data:`MAX_SEA_CARDS`, ...). This catalogue lists what a
user calls; the engine stays reachable under :mod:`isles.solvers.lighthouse`
and :mod:`isles.models.lighthouse.rules`.

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

from isles.models.lighthouse.caps import MAX_GAMES, POLICIES, Policy
from isles.models.lighthouse.kit import (
    DEFAULT_KIT,
    KITS,
    MAX_DEFAULT_ISLANDS,
    MAX_SEA_CARDS,
    PLAYER_ISLANDS,
    Kit,
    NamedKit,
    default_kit,
    named_kit,
    players_kit,
)
from isles.models.lighthouse.position import Position
from isles.models.lighthouse.questions import (
    KitChoice,
    LighthouseAdvice,
    LighthouseContest,
    LighthouseOdds,
    LighthousePosition,
    LighthouseTable,
)
from isles.models.lighthouse.rules import (
    Decision,
    Outcome,
    Roll,
    legal_decisions,
    play_turn,
    roll_outcomes,
)
from isles.solvers.lighthouse import (
    Advice,
    CompetitiveSimulation,
    CompetitiveSolution,
    DifficultyEntry,
    DifficultyTable,
    LighthouseSolution,
    Odds,
    OutcomeDistribution,
    SimulationResult,
    advise,
    answer_advice,
    answer_contest,
    answer_odds,
    answer_table,
    best_move,
    competitive_kit,
    competitive_odds,
    difficulty_table,
    forward_greedy,
    load_table,
    odds,
    outcome_distribution,
    simulate,
    solve,
    solve_cached,
    upper_bound_by_disc_count,
)
from isles.solvers.usercache import (
    CACHE_ENV,
    CacheEntry,
    cache_dir,
    cache_entries,
    clear_cache,
)

__all__ = [
    "CACHE_ENV",
    "DEFAULT_KIT",
    "KITS",
    "MAX_DEFAULT_ISLANDS",
    "MAX_GAMES",
    "MAX_SEA_CARDS",
    "PLAYER_ISLANDS",
    "POLICIES",
    "Advice",
    "CacheEntry",
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
    "LighthousePosition",
    "LighthouseSolution",
    "LighthouseTable",
    "NamedKit",
    "Odds",
    "Outcome",
    "OutcomeDistribution",
    "Policy",
    "Position",
    "Roll",
    "SimulationResult",
    "advise",
    "answer_advice",
    "answer_contest",
    "answer_odds",
    "answer_table",
    "best_move",
    "cache_dir",
    "cache_entries",
    "clear_cache",
    "competitive_kit",
    "competitive_odds",
    "default_kit",
    "difficulty_table",
    "forward_greedy",
    "legal_decisions",
    "load_table",
    "named_kit",
    "odds",
    "outcome_distribution",
    "play_turn",
    "players_kit",
    "roll_outcomes",
    "simulate",
    "solve",
    "solve_cached",
    "upper_bound_by_disc_count",
]
