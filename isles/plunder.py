"""Plunder deduction and strategy (seed ``seeds/003_cfc377110defcf34.txt``; docs/plunder.md).

One function per question, each declared once in :mod:`isles.models.plunder.questions`
(docs/json.md, "Questions"):

- :func:`analyse` (:class:`RecordAnalysis`, answered by an :class:`Analysis`): what a
  record proves, its exact posterior, and flip, guess and dig advice on request
  (``isles plunder RECORD``);
- :func:`dig_advice` (:class:`DigQuestion`, a :class:`DigAdvice`): a crew card now
  against waiting (``isles plunder RECORD --dig-advice``);
- :func:`tournament` (:class:`TournamentQuestion`, a :class:`Tournament`): games
  between policies on Dask (``isles plunder tournament``).

``isles.answer(question)`` answers a question object, as the command line and the
web app do.

The parts of an analysis, each a call of its own: what a record proves
(:func:`deduce`, a :class:`Deduction`: consistency, a smallest conflict, forced
values with their smallest proofs, under a time limit), the exact posterior
(:func:`posterior`, a :class:`Posterior`), flip advice (:func:`flip_advice`, a
:class:`FlipAdvice`), guess advice (:func:`guess_advice`, each a :class:`Guess`) and
the scoring (:func:`score_game` of the codes and the chest's :class:`CrewCard`, a
:class:`GameScore`). Records are read with
:meth:`Record.load` (a file, or ``"-"`` for standard input) or built from
:class:`Observation`, :class:`Code` (its :class:`Category` values) and :class:`Me`;
:func:`example_record` is the embedded example. Every result has ``to_dict()`` in
the dialect of docs/json.md.

The whole game (docs/plunder.md, "The whole game" to "Tournaments"): a played game
is a :class:`GameRecord` (checked; :meth:`GameRecord.load` reads one);
:func:`play_game` plays one between policies (:class:`Policy`, built in:
:func:`policy_by_name`, or your own). A policy of your own is a :class:`Policy` (it
sees a :class:`PlayerView`); :func:`register` adds it to :data:`POLICIES`, the
registry the built-in policies are found in by name. The engine stays reachable under
:mod:`isles.solvers.plunder` (a player's belief turn by turn:
``isles.solvers.plunder.belief.Belief``) and :mod:`isles.models.plunder`.

Examples
--------
>>> from isles import plunder
>>> result = plunder.analyse(plunder.example_record(), advise=True)
>>> result.status.value, result.deduction.posterior.deals, result.deduction.proofs
('exact', 162, 'smallest')
>>> best = result.advice.guesses[0]
>>> best.target, best.code, best.probability
(3, Code(island=2, marker=4, trap=5), Fraction(1, 3))
>>> turn = plunder.Observation(0, plunder.Code(1, 2, 3), {1: True, 2: False})
>>> plunder.posterior(plunder.Record(3, (turn,))).deals
488000
>>> game = plunder.play_game([plunder.policy_by_name("certain")] * 3, seed=1)
>>> len(game.turns), game.score().total
(15, (11, 3, 4))
>>> t = plunder.tournament(2, ["certain", "random"], games=4, seed=0, workers=0)
>>> [p.name for p in t.policies], t.status.value
(['certain', 'random'], 'estimate')
"""

from isles.models.plunder.codes import Category, Code
from isles.models.plunder.game import GameRecord
from isles.models.plunder.play import PlayerView, Policy
from isles.models.plunder.questions import DigQuestion, RecordAnalysis, TournamentQuestion
from isles.models.plunder.record import Me, Observation, Record, example_record
from isles.models.plunder.scoring import CrewCard, GameScore, score_game
from isles.solvers.plunder.analysis import Analysis, analyse
from isles.solvers.plunder.counting import posterior
from isles.solvers.plunder.deduction import Deduction, deduce
from isles.solvers.plunder.dig import DigAdvice, dig_advice
from isles.solvers.plunder.flips import FlipAdvice, flip_advice
from isles.solvers.plunder.guesses import Guess, guess_advice
from isles.solvers.plunder.posterior import Posterior
from isles.solvers.plunder.registry import POLICIES, play_game, policy_by_name, register
from isles.solvers.plunder.tournament import Tournament, tournament

__all__ = [
    "POLICIES",
    "Analysis",
    "Category",
    "Code",
    "CrewCard",
    "Deduction",
    "DigAdvice",
    "DigQuestion",
    "FlipAdvice",
    "GameRecord",
    "GameScore",
    "Guess",
    "Me",
    "Observation",
    "PlayerView",
    "Policy",
    "Posterior",
    "Record",
    "RecordAnalysis",
    "Tournament",
    "TournamentQuestion",
    "analyse",
    "deduce",
    "dig_advice",
    "example_record",
    "flip_advice",
    "guess_advice",
    "play_game",
    "policy_by_name",
    "posterior",
    "register",
    "score_game",
    "tournament",
]
