"""Lighthouses: the real chances of winning, exact, and the best move in any position.

Implements docs/lighthouse.md (seed 000_aeb701e368f40145.txt). The questions of
:mod:`isles.models.lighthouse.questions`, each answered by the module of its engine,
beside the keyword function that asks it (listed by :mod:`isles.lighthouse`):

- ``odds``: the odds of a kit under a policy (:func:`answer_lighthouse_odds`;
  ``odds.odds``), the method chosen by size: the exact DP, greedy play's sweep,
  or Monte Carlo beside certified bounds;
- ``advice``: the best move for a roll (:func:`answer_lighthouse_advice`;
  ``advice.best_move``), from a table or from the classes that can follow a
  position;
- ``table``: the difficulty table by players, policy and sea cards
  (:func:`answer_lighthouse_table`; ``table.difficulty_table``);
- ``contest``: the competitive variant's odds (:func:`answer_lighthouse_contest`;
  ``contest.competitive_odds``), solved (``competitive``) or simulated
  (``competitive_simulation``).

The engines, one module per job:

- ``policies``: one definition of each policy (greedy's ranks and order rule,
  random's uniform choices, optimal play's ranking) and a policy's decisions;
- ``solution``: the result type every table shares, its error bound, the memory
  a solve needs and the check of a kit the DP takes;
- ``dp``: the exact DP over classes of positions (optimal and random play), and
  ``solve`` (greedy play goes to ``greedy``);
- ``greedy``: greedy play over lighthouse codes, layer by layer (every position
  up to 7 islands, the start values of 8);
- ``start_values``: the win probability from the start, any policy;
- ``cache``: tables kept in the user's cache directory, keyed by the kit, the
  last one read kept in memory;
- ``simulation``: Monte Carlo of any policy, exact length distributions;
- ``bounds``: the disc-count upper bound and greedy's forward evaluation;
- ``competitive``: the competitive variant's exact solve (its rules tabulated
  in ``competitive_tables``, its loops in ``competitive_kernels``);
- ``competitive_simulation``: the competitive variant by Monte Carlo;

and the machinery of the class DP: ``symmetry`` (the colour group, class keys),
``classes`` (the layered graph of classes), ``kernel`` (the class kernel, numba
or NumPy), ``code_kernel`` (greedy play's kernel), ``warm_up`` (compiling before a
long solve), ``stream`` (a table written to the cache layer by layer), ``codes``
(lighthouse codes as arrays). :data:`ANSWERS` maps each question to the function
that answers it (``isles.answer`` reads it); the public names are those of
:mod:`isles.lighthouse`.
"""

from collections.abc import Callable, Mapping

from isles.models.contract import Question
from isles.models.lighthouse.questions import (
    LighthouseAdvice,
    LighthouseContest,
    LighthouseOdds,
    LighthouseTable,
)
from isles.models.status import Answer
from isles.solvers.lighthouse.advice import answer_lighthouse_advice
from isles.solvers.lighthouse.contest import answer_lighthouse_contest
from isles.solvers.lighthouse.odds import answer_lighthouse_odds
from isles.solvers.lighthouse.table import answer_lighthouse_table

__all__ = ["ANSWERS"]

#: The function that answers each question of the lighthouse game.
ANSWERS: Mapping[type[Question], Callable[..., Answer]] = {
    LighthouseOdds: answer_lighthouse_odds,
    LighthouseAdvice: answer_lighthouse_advice,
    LighthouseTable: answer_lighthouse_table,
    LighthouseContest: answer_lighthouse_contest,
}
