"""One answer per question: ``isles.answer`` on a question object and the catalogue's call.

docs/architecture.md ("A question, from a front end to a solver and back"): each
question of :mod:`isles.models.ships.questions` is answered by the function
:data:`isles.solvers.ships.ANSWERS` lists, and the keyword call of
:mod:`isles.ships` builds the same question and returns the same answer, whole.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import isles
from isles import ships
from isles.models.contract import Question
from isles.models.errors import InvalidInput
from isles.models.ships.questions import DEFAULT_FLEET_ROLLS, QUESTIONS
from isles.solvers.ships import ANSWERS

ROOT = Path(__file__).resolve().parents[2]
BOARD = ships.demo_board()
CORNER = [[0, 2], [0, 3], [1, 2]]
HOME = [[[0, 1], [0, 2], [1, 1]], [[-1, 0], [0, 0], [-1, 1]]]
LOG = {
    "player": "red",
    "ships": [{"ship": 1, "edge": [[0, 0], [0, 1]]}],
    "rolls": [{"roll": 2, "events": [{"event": "wind", "ship": 1, "to": [[-1, 1], [0, 1]]}]}],
}
BROKEN_LOG = {
    "player": "red",
    "ships": [{"ship": 1, "edge": [[0, 0], [0, 1]]}],
    "rolls": [{"roll": 2, "events": [{"event": "wind", "ship": 1, "to": [[0, 0], [1, 0]]}]}],
}

#: Each case: the question, what it reads, and the catalogue's call of the same question.
CASES: list[tuple[type[Question], dict[str, Any], Callable[[], Any]]] = [
    (
        ships.Sail,
        {"board": BOARD, "start": [[0, 1], [0, 2]], "near": [CORNER]},
        lambda: ships.sail(BOARD, ((0, 1), (0, 2)), near=[CORNER]),
    ),
    (
        ships.Sail,
        {"board": BOARD, "start": [[0, 2], [1, 2]], "targets": [[[0, 2], [0, 3]]], "players": 3,
         "may_stay": True, "within": [0, 2]},
        lambda: ships.sail(BOARD, ((0, 2), (1, 2)), [((0, 2), (0, 3))], players=3,
                           may_stay=True, within=[0, 2]),
    ),
    (
        ships.Fleet,
        {"board": BOARD, "ships": [[[0, 0], [0, 1]], [[1, 1], [1, 2]]], "near": HOME, "within": 4},
        lambda: ships.fleet(BOARD, [((0, 0), (0, 1)), ((1, 1), (1, 2))], near=HOME, within=4),
    ),
    (
        ships.Fleet,
        {"board": BOARD, "ships": [[[0, 2], [1, 2]]], "targets": [[[0, 2], [0, 3]]],
         "within": 3, "rollers": "all", "exact": True},
        lambda: ships.fleet(BOARD, [((0, 2), (1, 2))], [((0, 2), (0, 3))], within=3,
                            rollers=ships.Rollers.ALL, exact=True),
    ),
    (ships.Risk, {"cargo": 2, "encounters": 3}, lambda: ships.risk(2, 3)),
    (
        ships.Risk,
        {"board": BOARD, "pirate": [[0, 0], [1, 0]], "edge": [[0, 2], [0, 3]], "rolls": 4},
        lambda: ships.risk(board=BOARD, pirate=((0, 0), (1, 0)), edge=((0, 2), (0, 3)), rolls=4),
    ),
    (
        ships.Convert,
        {"board": BOARD, "start": [[0, 1], [0, 2]], "missing": "brick", "within": [3]},
        lambda: ships.convert(BOARD, ((0, 1), (0, 2)), "brick", within=[3]),
    ),
    (
        ships.Convert,
        {"board": BOARD, "start": [[0, 1], [0, 2]], "missing": "ore", "on_turn": True,
         "players": 3, "rolls_to_turn": 2},
        lambda: ships.convert(BOARD, ((0, 1), (0, 2)), "ore", on_turn=True, players=3,
                              rolls_to_turn=2),
    ),
    (
        ships.Harvest,
        {"board": BOARD, "start": [[1, 1], [1, 2]], "near": [CORNER], "player": "red",
         "rolls": 6},
        lambda: ships.harvest_course(BOARD, ((1, 1), (1, 2)), near=[CORNER], player="red",
                                     rolls=6),
    ),
    (
        ships.Harvest,
        {"board": BOARD, "start": [[0, 2], [1, 2]], "targets": [[[-1, 3], [0, 3]]],
         "player": "blue", "rolls": 3, "start_cargo": 2},
        lambda: ships.harvest_course(BOARD, ((0, 2), (1, 2)), [((-1, 3), (0, 3))],
                                     player="blue", rolls=3, start_cargo=2),
    ),
    (
        ships.LogCheck,
        {"board": BOARD, "log": ships.LogBook.from_dict(LOG)},
        lambda: ships.check_log(BOARD, ships.LogBook.from_dict(LOG)),
    ),
    (
        ships.LogCheck,
        {"board": BOARD, "log": ships.LogBook.from_dict(BROKEN_LOG)},
        lambda: ships.check_log(BOARD, ships.LogBook.from_dict(BROKEN_LOG)),
    ),
]  # fmt: skip


#: isles.answer for a question of any class (its overloads name each class).
ANSWER: Callable[..., Any] = isles.answer


@pytest.mark.parametrize(("question", "data", "call"), CASES)
def test_the_question_object_and_the_call_give_one_answer(
    question: type[Question], data: dict[str, Any], call: Callable[[], Any]
) -> None:
    by_object = ANSWER(question.read(data)).to_dict()
    assert by_object == call().to_dict()


def test_every_question_of_the_ships_is_answered_and_asked() -> None:
    assert set(ANSWERS) == set(QUESTIONS.values())
    asked = {type(question.read(data)) for question, data, _ in CASES}
    assert asked == set(QUESTIONS.values())
    for question, function in ANSWERS.items():
        name = "".join(f"_{c.lower()}" if c.isupper() else c for c in question.__name__)
        assert function.__name__ == f"answer{name}"
        assert function.__name__ not in ships.__all__  # answered by isles.answer, not listed


#: The catalogue's call for each question, and the parameters whose default is the call's own.
CALLS: dict[type[Question], tuple[Callable[..., Any], dict[str, Any]]] = {
    ships.Sail: (ships.sail, {}),
    ships.Fleet: (ships.fleet, {"within": DEFAULT_FLEET_ROLLS}),
    ships.Risk: (ships.risk, {}),
    ships.Convert: (ships.convert, {}),
    ships.Harvest: (ships.harvest_course, {}),
    ships.LogCheck: (ships.check_log, {}),
}


@pytest.mark.parametrize("question", list(CALLS))
def test_a_call_takes_the_fields_of_its_question_and_their_defaults(
    question: type[Question],
) -> None:
    """Every parameter but ``progress`` is a field; a default is the declared one (or None:
    not given), but for the few a call states as its own."""
    function, own = CALLS[question]
    parameters = inspect.signature(function).parameters
    assert set(parameters) - {"progress"} <= set(question.model_fields)
    for name, parameter in parameters.items():
        if name == "progress" or parameter.default is inspect.Parameter.empty:
            continue
        declared = question.model_fields[name].default
        default = parameter.default
        if name in own:
            assert default == own[name], name
        elif default is not None:
            assert (list(default) if isinstance(default, tuple) else default) == declared, name


def test_a_callable_is_told_the_progress_of_the_work() -> None:
    seen: list[float] = []
    question = ships.Harvest.read(
        {"board": BOARD, "start": [[1, 1], [1, 2]], "near": [CORNER], "player": "red", "rolls": 4}
    )
    isles.answer(question, progress=seen.append)
    assert seen and seen[-1] == 1.0 and seen == sorted(seen)


def test_a_log_book_is_read_from_its_json_as_every_question_reads_its_files() -> None:
    """``LogCheck.read`` takes the log book's JSON, as the other questions take a
    board's, a record's or a kit's (found by a newcomer probe: only a LogBook was
    taken, and the refusal showed the whole log)."""
    data = json.loads((ROOT / "models" / "data" / "ships_log_example.json").read_text())
    asked = ships.LogCheck.read({"board": BOARD, "log": data})
    kept = ships.check_log(BOARD, ships.LogBook.from_dict(data))
    assert isles.answer(asked).to_dict() == kept.to_dict()
    with pytest.raises(InvalidInput, match=r"^log: 'list' is invalid; expected a LogBook"):
        ships.LogCheck.read({"board": BOARD, "log": [data]})
    with pytest.raises(InvalidInput, match="log: key 'ships' missing"):
        ships.LogCheck.read({"board": BOARD, "log": {"player": "red"}})
