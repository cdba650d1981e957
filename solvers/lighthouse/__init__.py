"""Lighthouses: the real chances of winning, exact, and the best move in any position.

Implements docs/lighthouse.md (seed 000_aeb701e368f40145.txt), one module per job:

- ``policies``: one definition of each policy (greedy's ranks and order rule,
  random's uniform choices, optimal play's ranking) and a policy's decisions;
- ``solution``: the result type every table shares, its error bound and
  memory estimate;
- ``dp``: the exact DP over classes of positions (optimal and random play),
  and ``solve`` (greedy play goes to ``greedy``);
- ``greedy``: greedy play over lighthouse codes, layer by layer (every
  position up to 7 islands, the start values of 8);
- ``start_values``: the win probability from the start, any policy;
- ``advice``: the best move for a roll, from a table or from the classes that
  can follow a position;
- ``cache``: tables kept in the user's cache directory, keyed by the kit;
- ``odds``: the odds of a kit and the difficulty table, in one call;
- ``simulation``: Monte Carlo of any policy, exact length distributions;
- ``bounds``: the disc-count upper bound and greedy's forward evaluation;
- ``competitive``: the competitive variant (its loops in ``competitive_kernels``);

and the machinery of the class DP: ``symmetry`` (the colour group, class keys),
``classes`` (the layered graph of classes), ``kernel`` (the layer kernels,
numba or NumPy), ``compiled`` (numba when installed), ``codes`` (lighthouse
codes as arrays). :data:`ANSWERS` maps each question of
:mod:`isles.models.lighthouse.questions` to the function that answers it
(``isles.answer`` reads it); the public names are those of :mod:`isles.lighthouse`.

Examples
--------
>>> from isles.models.lighthouse.kit import default_kit
>>> sol = solve(default_kit(4, 8))
>>> round(sol.win_probability(), 6), sol.status
(0.961347, <Status.OPTIMAL: 'optimal'>)
"""

from collections.abc import Callable, Mapping

from isles.models.contract import Question
from isles.models.lighthouse.caps import (
    DEFAULT_GAMES,
    MAX_EXACT_ISLANDS,
    MAX_FRACTION_ISLANDS,
    MAX_GAMES,
    MAX_SWEEP_ISLANDS,
    MAX_TABLE_ISLANDS,
    POLICIES,
    Policy,
)
from isles.models.lighthouse.competitive import competitive_kit
from isles.models.lighthouse.questions import (
    LighthouseAdvice,
    LighthouseContest,
    LighthouseOdds,
    LighthouseTable,
)
from isles.models.status import Answer
from isles.solvers.lighthouse.advice import (
    Advice,
    advise,
    answer_advice,
    best_move,
    choose_decision,
    solve_from,
)
from isles.solvers.lighthouse.bounds import (
    MAX_FORWARD_POSITIONS,
    ForwardEvaluation,
    forward_greedy,
    upper_bound_by_disc_count,
)
from isles.solvers.lighthouse.cache import (
    CACHE_ENV,
    cache_dir,
    load_start_values,
    load_table,
    save_start_values,
    save_table,
    solve_cached,
    start_values_path,
    table_path,
)
from isles.solvers.lighthouse.competitive import (
    MAX_COMPETITIVE_BYTES,
    CompetitiveSimulation,
    CompetitiveSolution,
    answer_contest,
    competitive_memory_bytes,
    competitive_odds,
    simulate_competitive,
    solve_competitive,
)
from isles.solvers.lighthouse.dp import (
    MAX_DP_BYTES,
    LighthouseSolution,
    dp_memory_bytes,
    error_bound,
    solve,
)
from isles.solvers.lighthouse.kernel import HAVE_NUMBA
from isles.solvers.lighthouse.odds import (
    CACHE_FROM_CLASSES,
    DifficultyEntry,
    DifficultyTable,
    Method,
    Odds,
    answer_odds,
    answer_table,
    difficulty_table,
    odds,
    odds_method,
    solution_for,
)
from isles.solvers.lighthouse.policies import decision_weights
from isles.solvers.lighthouse.simulation import (
    OutcomeDistribution,
    SimulationResult,
    outcome_distribution,
    simulate,
    wilson_interval,
)
from isles.solvers.lighthouse.start_values import StartValues, win_probability
from isles.solvers.lighthouse.symmetry import ColourGroup, colour_group
from isles.solvers.work import Progress

__all__ = [
    "ANSWERS",
    "CACHE_ENV",
    "CACHE_FROM_CLASSES",
    "DEFAULT_GAMES",
    "HAVE_NUMBA",
    "MAX_COMPETITIVE_BYTES",
    "MAX_DP_BYTES",
    "MAX_EXACT_ISLANDS",
    "MAX_FORWARD_POSITIONS",
    "MAX_FRACTION_ISLANDS",
    "MAX_GAMES",
    "MAX_SWEEP_ISLANDS",
    "MAX_TABLE_ISLANDS",
    "POLICIES",
    "Advice",
    "ColourGroup",
    "CompetitiveSimulation",
    "CompetitiveSolution",
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
    "answer_advice",
    "answer_contest",
    "answer_odds",
    "answer_table",
    "best_move",
    "cache_dir",
    "choose_decision",
    "colour_group",
    "competitive_kit",
    "competitive_memory_bytes",
    "competitive_odds",
    "decision_weights",
    "difficulty_table",
    "dp_memory_bytes",
    "error_bound",
    "forward_greedy",
    "load_start_values",
    "load_table",
    "odds",
    "odds_method",
    "outcome_distribution",
    "save_start_values",
    "save_table",
    "simulate",
    "simulate_competitive",
    "solution_for",
    "solve",
    "solve_cached",
    "solve_competitive",
    "solve_from",
    "start_values_path",
    "table_path",
    "upper_bound_by_disc_count",
    "wilson_interval",
    "win_probability",
]


def _answer_lighthouse_odds(question: LighthouseOdds, *, progress: Progress = None) -> Odds:
    return answer_odds(question, progress=_shown(progress))


def _answer_lighthouse_advice(question: LighthouseAdvice, *, progress: Progress = None) -> Advice:
    return answer_advice(question, progress=_shown(progress))


def _answer_lighthouse_table(
    question: LighthouseTable, *, progress: Progress = None
) -> DifficultyTable:
    return answer_table(question, progress=_shown(progress))


def _answer_lighthouse_contest(
    question: LighthouseContest, *, progress: Progress = None
) -> CompetitiveSolution | CompetitiveSimulation:
    return answer_contest(question, progress=progress is True)


def _shown(progress: Progress) -> bool | None:
    return progress if progress is None or isinstance(progress, bool) else False


#: The function that answers each question of the lighthouse game.
ANSWERS: Mapping[type[Question], Callable[..., Answer]] = {
    LighthouseOdds: _answer_lighthouse_odds,
    LighthouseAdvice: _answer_lighthouse_advice,
    LighthouseTable: _answer_lighthouse_table,
    LighthouseContest: _answer_lighthouse_contest,
}
