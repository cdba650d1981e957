"""Plunder deduction and strategy (seed ``seeds/003_cfc377110defcf34.txt``; docs/plunder.md).

The public entry points. One call answers what ``isles plunder`` answers:
:func:`analyse` (the deduction, and flip and guess advice on request). The
parts: what a record proves (:func:`deduce`: consistency, a smallest conflict,
forced values with their smallest proofs, under a time limit), the exact
posterior (:func:`posterior`), flip advice (:func:`flip_advice`), guess advice
(:func:`guess_advice`), scoring (:func:`score_game`). Records are read with
:meth:`Record.load` (a file, or ``"-"`` for standard input) or built from
:class:`Observation` and :class:`Code`. Every result has ``to_dict()`` in the
dialect of docs/json.md.

The whole game (docs/plunder.md, "The whole game" to "Tournaments"): a played
game is a :class:`GameRecord` (checked; :meth:`GameRecord.load` reads one);
:func:`play_game` plays one between policies (:class:`Policy`, built in:
:func:`policy_by_name`, or your own); :class:`Belief` is a player's exact
posterior updated turn by turn (what the bots use); :func:`dig_advice` weighs
a crew card now against waiting; :func:`tournament` plays many games on Dask.
A policy of your own is a :class:`Policy` (it sees a :class:`PlayerView`);
:func:`register` adds it to :data:`POLICIES`, the registry the built-in
policies are found in by name.

The questions (docs/json.md, "Questions"): :class:`RecordAnalysis`,
:class:`DigQuestion` and :class:`TournamentQuestion` declare each call's
parameters once, answered by :func:`analyse_question`, :func:`dig_question`
and :func:`tournament_question`. This catalogue lists what a user calls; the
engine stays reachable under :mod:`isles.solvers` and :mod:`isles.models`.

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

from isles.models.plunder.codes import Category, Code, Names
from isles.models.plunder.game import GameRecord, PlayerView, Policy
from isles.models.plunder.questions import DigQuestion, RecordAnalysis, TournamentQuestion
from isles.models.plunder.record import Me, Observation, Record, example_record
from isles.models.plunder.scoring import GameScore, score_game
from isles.solvers.plunder.analysis import (
    Advice,
    Analysis,
    Deduction,
    FlipAdvice,
    Guess,
    Posterior,
    analyse,
    analyse_question,
    deduce,
    flip_advice,
    guess_advice,
    posterior,
)
from isles.solvers.plunder.belief import Belief
from isles.solvers.plunder.dig import DigAdvice, dig_advice, dig_question
from isles.solvers.plunder.policies import POLICIES, play_game, policy_by_name, register
from isles.solvers.plunder.tournament import Tournament, tournament, tournament_question

__all__ = [
    "POLICIES",
    "Advice",
    "Analysis",
    "Belief",
    "Category",
    "Code",
    "Deduction",
    "DigAdvice",
    "DigQuestion",
    "FlipAdvice",
    "GameRecord",
    "GameScore",
    "Guess",
    "Me",
    "Names",
    "Observation",
    "PlayerView",
    "Policy",
    "Posterior",
    "Record",
    "RecordAnalysis",
    "Tournament",
    "TournamentQuestion",
    "analyse",
    "analyse_question",
    "deduce",
    "dig_advice",
    "dig_question",
    "example_record",
    "flip_advice",
    "guess_advice",
    "play_game",
    "policy_by_name",
    "posterior",
    "register",
    "score_game",
    "tournament",
    "tournament_question",
]
