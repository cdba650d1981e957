"""Plunder's solvers (docs/plunder.md; seed ``seeds/003_cfc377110defcf34.txt``).

What a record proves, and what to do next (``isles plunder RECORD``):

- :mod:`~isles.solvers.plunder.posterior`: :class:`Posterior`, the exact posterior as counts.
- :mod:`~isles.solvers.plunder.counting`: the codes each player may hold; deals counted.
- :mod:`~isles.solvers.plunder.z3record`: the record as Z3 constraints; unsat sets of answers.
- :mod:`~isles.solvers.plunder.deduction`: consistency, smallest conflicts, forced values.
- :mod:`~isles.solvers.plunder.answers`: deals per answer vector, unnamed values lumped.
- :mod:`~isles.solvers.plunder.flips`: flip advice, in bits.
- :mod:`~isles.solvers.plunder.guesses`: guess advice, in expected points.
- :mod:`~isles.solvers.plunder.analysis`: the whole analysis (:class:`RecordAnalysis`).

The whole game (``isles plunder RECORD --dig-advice``, ``isles plunder tournament``):

- :mod:`~isles.solvers.plunder.belief`: one player's belief, turn by turn (the bots').
- :mod:`~isles.solvers.plunder.registry`: the built-in policies by name.
- :mod:`~isles.solvers.plunder.policies`: the policies on the exact belief, and random.
- :mod:`~isles.solvers.plunder.replay`: the others' seats along a public record.
- :mod:`~isles.solvers.plunder.playout`: games played on from a decision, and their worth.
- :mod:`~isles.solvers.plunder.search`: the search policy.
- :mod:`~isles.solvers.plunder.dig`: dig now or wait (:class:`DigQuestion`).
- :mod:`~isles.solvers.plunder.cluster`: a tournament's games, in chunks, on Dask.
- :mod:`~isles.solvers.plunder.tournament`: tournaments (:class:`TournamentQuestion`).

:data:`ANSWERS` maps each question of :mod:`isles.models.plunder.questions` to the
function that answers it (``isles.answer`` reads it); the catalogue
:mod:`isles.plunder` lists what a user calls.
"""

from collections.abc import Callable, Mapping

from isles.models.contract import Question
from isles.models.plunder.questions import DigQuestion, RecordAnalysis, TournamentQuestion
from isles.models.status import Answer
from isles.solvers.plunder.analysis import answer_record_analysis
from isles.solvers.plunder.dig import answer_dig_question
from isles.solvers.plunder.tournament import answer_tournament_question

__all__ = ["ANSWERS"]

#: The function that answers each question of Plunder.
ANSWERS: Mapping[type[Question], Callable[..., Answer]] = {
    RecordAnalysis: answer_record_analysis,
    DigQuestion: answer_dig_question,
    TournamentQuestion: answer_tournament_question,
}
