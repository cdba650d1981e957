"""Plunder's solvers (docs/plunder.md; seed 003_cfc377110defcf34.txt).

:data:`ANSWERS` maps each question of :mod:`isles.models.plunder.questions` to
the function that answers it (``isles.answer`` reads it); the catalogue
:mod:`isles.plunder` lists what a user calls.
"""

from collections.abc import Callable, Mapping

from isles.models.contract import Question
from isles.models.plunder.questions import DigQuestion, RecordAnalysis, TournamentQuestion
from isles.models.status import Answer
from isles.solvers.plunder.analysis import Analysis, analyse_question
from isles.solvers.plunder.dig import DigAdvice, dig_question
from isles.solvers.plunder.tournament import Tournament, tournament_question
from isles.solvers.work import Progress

__all__ = ["ANSWERS"]


def _answer_record_analysis(question: RecordAnalysis, *, progress: Progress = None) -> Analysis:
    return analyse_question(question, progress=progress is True)


def _answer_dig_question(question: DigQuestion, *, progress: Progress = None) -> DigAdvice:
    return dig_question(question, progress=progress is True)


def _answer_tournament_question(
    question: TournamentQuestion, *, progress: Progress = None
) -> Tournament:
    return tournament_question(question, progress=progress is True)


#: The function that answers each question of Plunder.
ANSWERS: Mapping[type[Question], Callable[..., Answer]] = {
    RecordAnalysis: _answer_record_analysis,
    DigQuestion: _answer_dig_question,
    TournamentQuestion: _answer_tournament_question,
}
