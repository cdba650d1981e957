"""Questions declared once (docs/json.md, "Questions"): the library, the command
line and the web app read the same declaration and spell its fields their own way."""

from __future__ import annotations

import argparse
from fractions import Fraction
from typing import Annotated, Literal

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import PlainValidator

from isles.models.contract import (
    EdgeValue,
    Given,
    HexValue,
    Is,
    NotWith,
    OnlyWith,
    Question,
    Requires,
    param,
)
from isles.models.errors import InvalidInput
from isles.models.hexgrid import Hex
from isles.options import add_question, read_question


class Trip(Question):
    """A small question with every kind of field and rule."""

    start: HexValue | None = param(None, help="the car's hex", metavar="Q,R")
    goals: list[HexValue] | None = param(None, help="goal hexes", option="--goal", repeat=True)
    roads: list[EdgeValue] = param([], help="own roads", option="--road", repeat=True)
    objective: Literal["cards", "weighted"] = param("cards", help="what to minimise")
    values: dict[str, float] | None = param(
        None, help="card values", option="--value", metavar="RES=X", text=None
    )
    games: int = param(1000, help="games", ge=1, le=1_000_000)
    time_limit: float | None = param(None, help="seconds", gt=0, metavar="SEC")
    fast: bool = param(False, help="be quick")

    together = (
        OnlyWith("values", Is("objective", ("weighted",))),
        NotWith("goals", "fast"),
        Requires("start", Given("goals")),
    )


def test_defaults_and_values() -> None:
    trip = Trip.read({"start": (0, -3), "roads": [((0, -2), (0, -1))]})
    assert trip.start == Hex(0, -3) and trip.games == 1000 and trip.objective == "cards"
    assert trip.roads[0] == (Hex(0, -2), Hex(0, -1))


@pytest.mark.parametrize(
    ("data", "spelling", "message"),
    [
        ({"games": 0}, "python", "games: 0 is invalid; expected an integer in 1..1000000"),
        ({"games": 0}, "option", "--games: 0 is invalid; expected an integer in 1..1000000"),
        ({"games": 0}, "key", "games: 0 is invalid; expected an integer in 1..1000000"),
        ({"games": "7"}, "python", "games: '7' is invalid; expected an integer in 1..1000000"),
        ({"games": True}, "python", "games: True is invalid; expected an integer"),
        # the web's values in JSON spelling (issue 20): true, null, numbers as JSON writes them
        ({"games": True}, "key", "games: true is invalid; expected an integer in 1..1000000"),
        ({"games": "7"}, "key", 'games: "7" is invalid; expected an integer'),
        # a float where an integer belongs is said to be one (issue 21, finding 2)
        ({"games": 1e23}, "key", "games: 1e+23 is a float, not a whole number; expected an"),
        (
            {"games": 1e3},
            "key",
            "games: 1000.0 is a float, not a whole number (write 1000); expected an integer in",
        ),
        ({"games": 2000.0}, "python", "games: 2000.0 is a float, not a whole number (write"),
        ({"games": 2.5}, "key", "games: 2.5 is not a whole number; expected an integer in 1.."),
        ({"games": float("inf")}, "key", "games: Infinity is invalid; expected an integer"),
        ({"games": None}, "key", "games: null is invalid; expected an integer in 1..1000000"),
        ({"start": (0, True)}, "key", "start: [0,true] is invalid; expected"),
        ({"time_limit": -1.0}, "option", "--time-limit: -1.0 is invalid; expected a number > 0"),
        (
            {"objective": "x"},
            "option",
            "--objective: 'x' is invalid; expected one of cards, weighted",
        ),
        ({"zzz": 1}, "python", "zzz: unknown key 'zzz'; expected only start, goals"),
        ({"zzz": 1}, "key", 'zzz: unknown key "zzz"; expected only the keys start, goals'),
        ({"start": [0]}, "key", "start: [0] is invalid; expected axial coordinates"),
        (
            {"values": {"ore": 1.0}},
            "option",
            "--value: given; expected --value only with --objective weighted",
        ),
        (
            {"values": {"ore": 1.0}},
            "key",
            'values: given; expected values only with objective = "weighted"',
        ),
        ({"goals": [(1, 1)], "fast": True}, "option", "--goal: given; expected --goal or --fast"),
        ({"goals": [(1, 1)]}, "option", "--start: required; expected --start with --goal"),
    ],
)
def test_errors_name_the_field_as_each_front_end_spells_it(
    data: dict[str, object], spelling: Literal["python", "option", "key"], message: str
) -> None:
    with pytest.raises(InvalidInput) as caught:
        Trip.read(data, spelling=spelling)
    assert str(caught.value).startswith(message), str(caught.value)


def test_the_command_line_is_derived_from_the_declaration() -> None:
    parser = argparse.ArgumentParser(prog="trip")
    add_question(parser, Trip, exclude=("values",))
    text = parser.format_help()
    for option in ("--start Q,R", "--goal GOALS", "--road ROADS", "--games GAMES", "--fast"):
        assert option in text
    assert "(default 1000)" in text and "{cards,weighted}" in text
    args = parser.parse_args(["--start", "0,-3", "--goal", "1,1", "--goal", "2,0", "--games", "5"])
    trip = read_question(Trip, args)
    assert trip.goals == [Hex(1, 1), Hex(2, 0)] and trip.games == 5
    assert trip.model_fields_set == {"start", "goals", "games"}


class Cached(Question):
    """A flag on by default, turned off by its declared option (as the lighthouse's cache)."""

    games: int = param(10, help="games", ge=1)
    cache: bool = param(
        True, help="keep the tables (--no-cache: solve without)", option="--no-cache"
    )


def test_a_flag_on_by_default_is_turned_off_by_its_option() -> None:
    parser = argparse.ArgumentParser(prog="cached")
    add_question(parser, Cached)
    assert "--no-cache" in parser.format_help() and "--cache" not in parser.format_help()
    kept = read_question(Cached, parser.parse_args([]))
    assert kept.cache is True and kept.model_fields_set == set()
    off = read_question(Cached, parser.parse_args(["--no-cache"]))
    assert off.cache is False and off.model_fields_set == {"cache"}
    assert Cached.ask(cache=False).cache is False  # False is asked: the default is True
    assert Cached.ask(cache=True).cache is True
    assert Cached.read({"cache": False}, spelling="key").cache is False  # the web's JSON key
    with pytest.raises(InvalidInput, match="--no-cache: 'yes' is invalid; expected true or false"):
        Cached.read({"cache": "yes"}, spelling="option", typed={"cache": "yes"})


def test_a_flag_on_by_default_must_declare_the_option_that_turns_it_off() -> None:
    class Unspelt(Question):
        cache: bool = param(True, help="keep the tables")

    with pytest.raises(TypeError, match="declares the option that turns it off"):
        add_question(argparse.ArgumentParser(prog="unspelt"), Unspelt)


class Timed(Question):
    """A time limit that refuses infinity (``finite=True``), as isles' jobs declare theirs."""

    time_limit: float = param(10.0, help="seconds", gt=0, finite=True, metavar="SEC")


@pytest.mark.parametrize("text", ["inf", "nan", "-1"])
def test_a_finite_limit_says_it_is_finite(text: str) -> None:
    """'inf' is a number > 0: what is refused says why (was 'expected a number > 0')."""
    parser = argparse.ArgumentParser(prog="timed")
    add_question(parser, Timed)
    expected = f"^--time-limit: '{text}' is invalid; expected a finite number > 0$"
    with pytest.raises(InvalidInput, match=expected):
        read_question(Timed, parser.parse_args(["--time-limit", text]))
    with pytest.raises(
        InvalidInput, match=r"^time_limit: inf is invalid; expected a finite number"
    ):
        Timed.read({"time_limit": float("inf")})
    assert Timed.read({"time_limit": 0.5}).time_limit == 0.5


def test_the_command_line_names_the_text_typed() -> None:
    parser = argparse.ArgumentParser(prog="trip")
    add_question(parser, Trip, exclude=("values",))
    with pytest.raises(
        InvalidInput, match=r"^--time-limit: '-1' is invalid; expected a number > 0"
    ):
        read_question(Trip, parser.parse_args(["--time-limit", "-1"]))
    # what the declaration says is valid, not only "a whole number" (issue 21, finding 2)
    with pytest.raises(
        InvalidInput, match=r"^--games: '1_0' is invalid; expected an integer in 1\.\.1000000$"
    ):
        read_question(Trip, parser.parse_args(["--games", "1_0"]))
    with pytest.raises(
        InvalidInput, match=r"^--games: '4\.0' is invalid; expected an integer in 1\.\."
    ):
        read_question(Trip, parser.parse_args(["--games", "4.0"]))
    with pytest.raises(InvalidInput, match=r"^--start: '1;2' is invalid; expected axial"):
        read_question(Trip, parser.parse_args(["--start", "1;2"]))


@given(st.integers(min_value=-(10**7), max_value=10**7))
def test_a_range_is_checked_as_declared(games: int) -> None:
    ok = 1 <= games <= 1_000_000
    try:
        assert Trip.read({"games": games}).games == games and ok
    except InvalidInput as exc:
        assert not ok and exc.field == "games" and exc.value == games


def test_fields_that_cannot_go_together_are_refused_before_their_values_are_read() -> None:
    # A value that would be refused (a goal off the grid's syntax) is not read when the
    # field cannot go with another given: the rule is the error, not the value.
    with pytest.raises(InvalidInput, match=r"^--goal: given; expected --goal or --fast, not both"):
        Trip.read({"goals": ["not a hex"], "fast": True}, spelling="option")
    with pytest.raises(InvalidInput, match=r"^goals\[0\]"):
        Trip.read({"goals": ["not a hex"]})


def test_a_reader_that_names_its_own_root_is_not_named_twice() -> None:
    def read(value: object) -> int:
        raise InvalidInput("kit.sea_cards", 0, "an integer in 1..30")

    class Odds(Question):
        kit: Annotated[int, PlainValidator(read)] = param(help="a kit")

    with pytest.raises(InvalidInput, match=r"^kit\.sea_cards: 0 is invalid"):
        Odds.read({"kit": {"sea_cards": 0}})
    with pytest.raises(InvalidInput, match=r"^--kit sea_cards: 0 is invalid"):
        Odds.read({"kit": {"sea_cards": 0}}, spelling="option")


def test_a_question_built_field_by_field_is_checked_as_one_read() -> None:
    """``Trip(...)`` is held to the rules ``Trip.read`` holds it to (found by a newcomer
    probe: built by its constructor, a question skipped its together rules, and
    ``isles.answer`` answered it with a field silently left out)."""
    import isles
    from isles.models.board import beginner_board

    board = beginner_board()
    start = isles.Hex(0, -3)
    with pytest.raises(InvalidInput, match="values: given; expected values only with objective"):
        isles.rally.Trip(board=board, start=start, values={isles.Resource.ORE: Fraction(2)})
    with pytest.raises(InvalidInput, match="board: 42 is invalid; expected a Board"):
        isles.rally.Trip(board=42, start=start)
    with pytest.raises(InvalidInput, match="advise"):
        isles.plunder.RecordAnalysis(record=isles.plunder.example_record(), dig_policy="search")
    built = isles.rally.Trip(board=board, start=start)
    assert built == isles.rally.Trip.read({"board": board, "start": (0, -3)})
    assert isles.answer(built).to_dict() == isles.rally.plan_route(board, (0, -3)).to_dict()


def test_a_spelling_is_one_of_the_three() -> None:
    class Q(Question):
        games: int = param(1, help="games", ge=1)

    with pytest.raises(InvalidInput, match="spelling: 'bogus' is invalid; expected python, option"):
        Q.read({"games": 2}, spelling="bogus")  # type: ignore[arg-type]
