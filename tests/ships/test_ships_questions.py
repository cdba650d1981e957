"""The ships' questions declared once (models/ships/questions.py) and the machinery they
brought: ``AnyOf``, the rules checked before a file is read, ``Question.ask``, and the
options of another question of the same command refused as such."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from isles.cli import main
from isles.models.contract import AnyOf, Given, OnlyWith, Question, Requires, param
from isles.models.errors import InvalidInput
from isles.models.questions import questions
from isles.models.ships.demo import demo_board
from isles.models.ships.questions import Convert, Fleet, Harvest, LogCheck, Risk, Sail
from isles.options import add_question, read_question


class Reach(Question):
    pirate: int | None = param(None, help="the pirate")
    edge: int | None = param(None, help="the edge")
    board: str | None = param(None, help="a file", cli=False)
    rolls: list[int] = param([], help="rolls", repeat=True)
    stay: bool = param(False, help="stay")

    together = (
        OnlyWith("board", Given("pirate")),
        Requires("edge", Given("pirate")),
        AnyOf("pirate", "rolls"),
    )


class Other(Question):
    within: int = param(3, help="horizon")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        status = main(list(argv))
    except SystemExit as exc:
        status = int(exc.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


def test_the_ships_questions_are_registered() -> None:
    for name, q in {"sail": Sail, "fleet": Fleet, "risk": Risk, "convert": Convert}.items():
        assert questions()[name] is q
    assert questions()["harvest"] is Harvest and questions()["log_check"] is LogCheck


def test_any_of_names_the_first_field_in_each_spelling() -> None:
    with pytest.raises(InvalidInput, match=r"^pirate: missing; expected at least one of"):
        Reach.read({})
    with pytest.raises(InvalidInput, match=r"^--pirate: missing.*--pirate or --rolls$"):
        Reach.read({"stay": True}, spelling="option")
    assert Reach.read({"rolls": [1]}).rolls == [1]


def test_ask_leaves_out_what_is_nothing() -> None:
    assert Reach.ask(pirate=None, rolls=(2, 3), stay=False).model_fields_set == {"rolls"}
    with pytest.raises(InvalidInput, match=r"^board: 'f' is invalid; expected board only with"):
        Reach.ask(board="f", rolls=[1])


def test_check_given_comes_before_the_file_is_read(tmp_path: Path) -> None:
    p = argparse.ArgumentParser()
    add_question(p, Reach)
    read: list[str] = []

    def load() -> str:
        read.append("board")
        return "the board"

    with pytest.raises(InvalidInput, match=r"^--board: given; expected --board only with"):
        read_question(Reach, p.parse_args(["--rolls", "1"]), files={"board": load})
    assert read == []
    q = read_question(Reach, p.parse_args(["--pirate", "1", "--edge", "2"]), files={"board": load})
    assert q.board == "the board" and read == ["board"]


def test_an_option_of_the_other_question_is_refused_as_such() -> None:
    p = argparse.ArgumentParser()
    add_question(p, Reach)
    add_question(p, Other)
    args = p.parse_args(["--rolls", "1", "--within", "5"])
    with pytest.raises(InvalidInput, match=r"^--within: '5' is invalid; expected --within only "):
        read_question(Reach, args, beside={Other: "with a fleet"})
    assert read_question(Reach, p.parse_args(["--rolls", "1"]), beside={Other: "x"}).rolls == [1]


def test_library_calls_validate_from_the_declarations() -> None:
    from isles.ships import convert, fleet, harvest_course, risk, sail

    board, start = demo_board(), ((0, 1), (0, 2))
    with pytest.raises(InvalidInput, match=r"^targets: missing; expected at least one of"):
        sail(board, start)
    with pytest.raises(InvalidInput, match=r"^within: 1001 is invalid"):
        fleet(board, [start], [((0, 2), (0, 3))], within=1001)
    with pytest.raises(InvalidInput, match=r"^rolls_to_turn: 6 is invalid"):
        convert(board, start, "brick", rolls_to_turn=6)
    with pytest.raises(InvalidInput, match=r"^start_cargo: 4 is invalid; expected a card count"):
        harvest_course(board, start, [((0, 2), (0, 3))], player="red", rolls=1, start_cargo=4)
    with pytest.raises(InvalidInput, match=r"^edge: .* only with pirate"):
        risk(edge=((0, 2), (0, 3)))


def test_ports_are_targets_in_python_as_on_the_command_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from isles.models.catan import HarbourKind
    from isles.models.hexgrid import edge
    from isles.ships import sail

    wool = edge((0, 2), (0, 3))
    board = demo_board().replace(harbours={wool: HarbourKind.WOOL})
    voyage = sail(board, ((0, 2), (1, 2)), ports=["wool"])
    assert voyage.targets == (wool,) and [p.edge for p in voyage.ports] == [wool]
    with pytest.raises(InvalidInput, match=r"^ports\[0\]: 'ore' is invalid"):
        sail(board, ((0, 2), (1, 2)), ports=["ore"])


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["sail", "--to", "0,2:0,3"], "--from: missing; expected a ship edge"),
        (["sail", "--from", "0,0:0,1", "--to", "0,0:1,0", "--rollers", "all"], "'all'"),
        (["risk", "--board", "/nonexistent/b.json"], "--board: given; expected --board only"),
        (["ships", "convert", "--from", "0,1:0,2"], "--missing: missing; expected one of"),
        (["ships", "harvest", "--from", "1,1:1,2", "--player", "red", "--rolls", "2"], "--to"),
    ],
)
def test_commands_refuse_from_the_declarations(
    capsys: pytest.CaptureFixture[str], argv: list[str], needle: str
) -> None:
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert needle in err, err


def test_one_module_per_command() -> None:
    import isles.commands.risk as risk_command
    import isles.commands.sail as sail_command
    import isles.commands.ships as ships_command

    for module, name in ((sail_command, "sail"), (risk_command, "risk"), (ships_command, "ships")):
        parser = argparse.ArgumentParser()
        sub = parser.add_subparsers()
        module.register(sub)
        assert list(sub.choices) == [name]
