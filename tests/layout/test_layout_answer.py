"""``isles.answer`` answers the board set-up's question as the catalogue's functions do.

docs/architecture.md ("A question, from a front end to a solver and back"): the
question :class:`~isles.models.layout.questions.Layout` (what ``isles layout``
and the web app ask), answered generically, gives the same ``to_dict()`` as the
keyword functions of :mod:`isles.layout` on the same set-up: a board, a game's
island, several boards, the next move. Its parts are refused alone.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

import isles
from isles import layout
from isles.models.errors import InvalidInput
from isles.models.layout.questions import Layout, Move, Search, Series, SetUp

LIMIT = 10.0


def test_a_board_is_solve_layouts() -> None:
    asked = Layout.read({"radius": 1, "seed": 3, "time_limit": LIMIT})
    expected = layout.solve_layout(layout.setup_request(radius=1), seed=3, time_limit=LIMIT)
    assert isles.answer(asked).to_dict() == expected.to_dict()


def test_a_conflict_is_solve_layouts() -> None:
    asked = Layout.read({"radius": 1, "land": 7, "time_limit": LIMIT})
    expected = layout.solve_layout(layout.setup_request(radius=1, land=7), time_limit=LIMIT)
    answer = isles.answer(asked)
    assert answer.to_dict() == expected.to_dict()
    assert answer.status.value == "infeasible"


@pytest.mark.parametrize(
    ("game", "board"), [("base", layout.base_board), ("extension", layout.extension_board)]
)
def test_an_island_is_its_keyword_functions(
    game: str, board: Callable[..., layout.LayoutResult]
) -> None:
    asked = Layout.read(
        {"game": game, "spiral": "top-left", "rules": {"six-eight-once": False}, "seed": 2}
    )
    expected = board(spiral="top-left", rules={"six-eight-once": False}, seed=2)
    assert isles.answer(asked).to_dict() == expected.to_dict()


def test_an_island_keeps_its_limits_keywords() -> None:
    asked = Layout.read({"game": "base", "max_pips": 11, "min_corner_pips": 3, "max_group": 2})
    expected = layout.base_board(max_pips=11, min_corner_pips=3, max_group=2)
    assert isles.answer(asked).to_dict() == expected.to_dict()
    with pytest.raises(
        InvalidInput, match=r"max_pips: 61 is invalid; expected an integer in 0\.\.60"
    ):
        layout.base_board(max_pips=61)


def test_a_series_is_layout_boards() -> None:
    asked = Layout.read({"game": "base", "count": 2, "min_difference": 5, "time_limit": LIMIT})
    request = layout.setup_request(game="base")
    expected = layout.layout_boards(request, 2, min_difference=5, time_limit=LIMIT)
    assert isles.answer(asked).to_dict() == expected.to_dict()


def test_a_move_is_next_moves() -> None:
    fixed = {(0, 0): isles.Tile(isles.Terrain.SEA, 5)}
    asked = Layout.read(
        {"radius": 1, "fixed": fixed, "holding": ["forest", "sea"], "time_limit": LIMIT}
    )
    request = layout.setup_request(radius=1, fixed=fixed)
    expected = layout.next_move(request, ("forest", "sea"), time_limit=LIMIT)
    assert isles.answer(asked).to_dict() == expected.to_dict()


@pytest.mark.parametrize("part", [SetUp, Search, Series, Move])
def test_a_part_of_the_question_is_refused_alone(part: type[SetUp]) -> None:
    with pytest.raises(
        InvalidInput, match=f"question: '{part.__name__}' is invalid; expected one of Layout"
    ):
        isles.answer(part.read({}))  # type: ignore[call-overload]
