"""``isles.answer``: any question of any game, answered by its game's solver.

docs/architecture.md ("A question, from a front end to a solver and back"). Each
game's own tests check, question by question, that ``isles.answer`` gives what
the catalogue's function gives; here, the dispatch itself.
"""

from __future__ import annotations

import importlib

import pytest

import isles
from isles.models.contract import Question, param
from isles.models.errors import InvalidInput
from isles.models.questions import GAMES, game_of, questions


def test_every_game_answers_its_own_questions_only() -> None:
    for game in GAMES:
        table = importlib.import_module(f"isles.solvers.{game}").ANSWERS
        assert table, game
        for question in table:
            assert game_of(question) == game
            assert question in questions().values(), question


def test_a_question_answered_generically_is_the_catalogue_functions_answer() -> None:
    kit = isles.lighthouse.default_kit(islands=1, sea_cards=2)
    asked = isles.lighthouse.LighthouseOdds.read({"islands": 1, "sea_cards": 2})
    assert isles.answer(asked).to_dict() == isles.lighthouse.odds(kit).to_dict()


def test_what_is_no_question_is_refused_named() -> None:
    with pytest.raises(InvalidInput, match="question: 'odds' is invalid; expected a question"):
        isles.answer("odds")  # type: ignore[call-overload]

    class Mine(Question):
        games: int = param(1, help="games")

    with pytest.raises(InvalidInput, match="question: 'Mine' is invalid"):
        isles.answer(Mine.read({}))  # type: ignore[call-overload]


def test_a_part_of_a_question_is_refused_naming_the_questions() -> None:
    from isles.models.lighthouse.questions import KitChoice

    kit = KitChoice.read({"islands": 1})
    with pytest.raises(InvalidInput, match="question: 'KitChoice' is invalid; expected one of "):
        isles.answer(kit)  # type: ignore[call-overload]


def test_the_shared_names_are_at_the_top() -> None:
    from isles.models import board, catan, hexgrid

    assert isles.Board is board.Board and isles.Tile is catan.Tile and isles.Hex is hexgrid.Hex
    assert callable(isles.cache_entries) and isles.Edge(isles.Hex(0, 0), isles.Hex(0, 1)).a == (
        0,
        0,
    )
    with pytest.raises(AttributeError):
        _ = isles.nothing
