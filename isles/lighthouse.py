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
kit file; every question but the table chooses it the same way (its declaration,
``isles.models.lighthouse.questions.KitChoice``). Every result has ``to_dict()``
(docs/json.md). The engine
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

from isles.models.lighthouse.kit import Kit, default_kit, named_kit, players_kit
from isles.models.lighthouse.position import Position
from isles.models.lighthouse.questions import (
    LighthouseAdvice,
    LighthouseContest,
    LighthouseOdds,
    LighthouseTable,
)
from isles.models.lighthouse.rules import Decision, Outcome, Roll
from isles.solvers.lighthouse.advice import Advice, best_move
from isles.solvers.lighthouse.competitive import CompetitiveSolution
from isles.solvers.lighthouse.competitive_simulation import CompetitiveSimulation
from isles.solvers.lighthouse.contest import competitive_odds
from isles.solvers.lighthouse.odds import Odds, odds
from isles.solvers.lighthouse.simulation import SimulationResult
from isles.solvers.lighthouse.table import DifficultyEntry, DifficultyTable, difficulty_table

__all__ = [
    "Advice",
    "CompetitiveSimulation",
    "CompetitiveSolution",
    "Decision",
    "DifficultyEntry",
    "DifficultyTable",
    "Kit",
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
