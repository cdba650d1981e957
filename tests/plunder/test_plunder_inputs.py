"""Plunder inputs hardened (issue 9): constructors check types, the record reader refuses
what it does not know, and no input makes isles raise anything but IslesError."""

from __future__ import annotations

import contextlib
import copy
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from isles.models.errors import InvalidInput, IslesError
from isles.models.plunder.codes import Code, Names, code_from_text
from isles.models.plunder.record import Me, Observation, Record, example_record
from isles.models.plunder.scoring import CrewCard, score_game
from isles.solvers.plunder.analysis import analyse
from isles.solvers.plunder.deduction import deduce, forced_values
from isles.solvers.plunder.flips import answer_distribution, flip_advice
from isles.solvers.plunder.guesses import guess_advice

CLUE = {"island": 1, "marker": 2, "trap": 3}


def _(value: object) -> Any:
    """A value of the wrong type, passed on purpose (the constructors must refuse it)."""
    return value


# -- issue 9, case 3: a player answering twice, whatever the key's spelling ----------


@pytest.mark.parametrize("spelling", ["01", "1.0", " 1", "+1", "١", "1 "])
def test_case_3_a_player_answers_once_whatever_the_spelling(spelling: str) -> None:
    obs = {"active": 0, "clue": CLUE, "answers": {"1": True, spelling: False, "2": True}}
    with pytest.raises(InvalidInput, match=r"^record\.observations\[0\]\.answers: .*decimal"):
        Record.from_dict({"players": 3, "observations": [obs]})


def test_case_3_canonical_keys_still_read() -> None:
    obs = {"active": 0, "clue": CLUE, "answers": {"1": True, "2": False}}
    record = Record.from_dict({"players": 3, "observations": [obs]})
    assert dict(record.observations[0].answers) == {1: True, 2: False}


# -- issue 9, case 5: an answer is a bool, checked by the constructors ----------------


def test_case_5_no_is_not_yes() -> None:
    with pytest.raises(InvalidInput, match=r"observation\.answers\.1: 'no' is invalid"):
        deduce(Record(3, (Observation(0, Code(1, 2, 3), {1: _("no"), 2: False}),)))


@pytest.mark.parametrize(
    ("build", "field"),
    [
        (lambda: Observation(0, Code(1, 2, 3), {1: _(1)}), "observation.answers.1"),
        (lambda: Observation(0, Code(1, 2, 3), {True: False}), "observation.answers"),
        (lambda: Observation(True, Code(1, 2, 3), {1: False}), "observation.active"),
        (lambda: Observation(_(0.0), Code(1, 2, 3), {1: False}), "observation.active"),
        (lambda: Observation(0, _((1, 2, 3)), {1: False}), "observation.clue"),
        (lambda: Observation(0, Code(1, 2, 3), _([(1, False)])), "observation.answers"),
        (lambda: Code(_(1.0), 2, 3), "island"),
        (lambda: Code(1, True, 3), "marker"),
        (lambda: Me(True, Code(1, 2, 3)), "me.player"),
        (lambda: Me(0, _((1, 2, 3))), "me.code"),
        (lambda: Record(True), "record.players"),
        (lambda: Record(_(3.0)), "record.players"),
        (lambda: Record(3, me=Me(5, Code(0, 0, 0))), "record.me.player"),
        (lambda: Record(3, _(("turn",))), "record.observations[0]"),
        (lambda: Record(3, _("turns")), "record.observations"),
        (lambda: Record(3, me=_((0, Code(0, 0, 0)))), "record.me"),
        (lambda: Record(3, seen=((True,) + (0,) * 5, (0,) * 6, (0,) * 6)), "record.seen.island[0]"),
        (lambda: Record(3, seen=((0,) * 6,) * 2), "record.seen"),
        (lambda: Names(tuple("ABCDEF"), tuple("ABCDEA"), tuple("ABCDEF")), "names.marker"),
        (lambda: Names(_("ABCDEF"), tuple("ABCDEF"), tuple("ABCDEF")), "names.island"),
        (lambda: CrewCard(0, True, Code(1, 1, 1)), "crew card.target"),
        (lambda: score_game([Code(0, 0, 0), _((1, 1, 1))], []), "codes[1]"),
        (lambda: score_game([Code(0, 0, 0), Code(1, 1, 1)], [_("card")]), "chest[0]"),
    ],
)
def test_constructors_check_types(build: Any, field: str) -> None:
    with pytest.raises(InvalidInput) as info:
        build()
    assert info.value.field == field


@pytest.mark.parametrize(
    ("call", "field"),
    [
        (lambda r: flip_advice(r, Code(0, 0, 0), True), "active"),
        (lambda r: flip_advice(r, _((0, 0, 0)), 0), "clue"),
        (lambda r: flip_advice(r, Code(0, 0, 0), 0, seen=[[4] * 6] * 3), "seen"),
        (lambda r: answer_distribution(r, Code(0, 0, 0), 3), "active"),
        (lambda r: guess_advice(r, earlier_digs={1: -1}), "earlier_digs.1"),
        (lambda r: guess_advice(r, earlier_digs={7: 1}), "earlier_digs"),
        (
            lambda r: analyse(r, advise=True, earlier_digs={"²": 1}),  # type: ignore[dict-item]
            "earlier_digs",
        ),
        (lambda r: deduce(r, time_limit=0), "time_limit"),
        (lambda r: deduce(r, time_limit=float("nan")), "time_limit"),
        (lambda r: forced_values(r, time_limit=True), "time_limit"),
        (lambda r: analyse(r, clue=Code(0, 0, 0)), "clue"),
        (lambda r: analyse(r, active=1), "active"),
        (lambda r: analyse(r, earlier_digs={1: 1}), "earlier_digs"),
        (lambda r: analyse(r, advise=True, active=3), "active"),
        (lambda r: analyse(r, advise=True, clue=_("0,0,0")), "clue"),
    ],
)
def test_solver_parameters_are_checked(call: Any, field: str) -> None:
    with pytest.raises(InvalidInput) as info:
        call(Record(3))
    assert info.value.field == field


@pytest.mark.parametrize(
    ("change", "pattern"),
    [
        ({"players": True}, r"^record\.players: True"),
        ({"players": 3.0}, r"^record\.players: 3\.0"),
        ({"me": {"player": 0}}, r"^record\.me: key 'code' missing"),
        ({"me": {"player": 0, "code": CLUE, "name": "x"}}, r"^record\.me: unknown key 'name'"),
        ({"observations": {}}, r"^record\.observations: 'an object'"),
        ({"observations": [{"active": 0, "clue": CLUE}]}, r"key 'answers' missing"),
        (
            {"observations": [{"active": 0, "clue": {**CLUE, "Trap": 1}, "answers": {}}]},
            r"^record\.observations\[0\]\.clue: unknown key 'Trap'",
        ),
        (
            {"observations": [{"active": 0, "clue": CLUE, "answers": {"1": 1, "2": True}}]},
            r"^record\.observations\[0\]\.answers\.1: 1 is invalid; expected true or false",
        ),
        (
            {"observations": [{"active": 0, "clue": CLUE, "answers": []}]},
            r"^record\.observations\[0\]\.answers: \[\]",
        ),
        (
            {"players": 4.0},
            r"^record\.players: 4\.0 is a float, not a whole number \(write 4\); expected an "
            r"integer in 2\.\.6$",
        ),
        ({"players": 4.5}, r"^record\.players: 4\.5 is not a whole number; expected an integer"),
        (
            {"observations": [{"active": 0.0, "clue": CLUE, "answers": {}}]},
            r"^record\.observations\[0\]\.active: 0\.0 is a float, not a whole number \(write 0\)",
        ),
        ({"seen": {"isle": [1]}}, r"^record\.seen: unknown key 'isle'"),
        ({"seen": {"island": [1, True]}}, r"^record\.seen\.island\[1\]: True"),
        ({"names": {"island": ["a"] * 6}}, r"^record\.names: key 'marker' missing"),
        (
            {"names": {"island": list("abcdef"), "marker": list("abcdef"), "trap": [1] * 6}},
            r"^record\.names\.trap\[0\]: 1",
        ),
        (
            {"names": {"island": list("abcdea"), "marker": list("abcdef"), "trap": list("abcdef")}},
            r"^record\.names\.island: .*six distinct names",
        ),
    ],
)
def test_record_reader_names_the_field(change: dict[str, Any], pattern: str) -> None:
    with pytest.raises(InvalidInput, match=pattern):
        Record.from_dict({"players": 3, **change})


def test_optional_keys_and_their_defaults() -> None:
    bare = Record.from_dict({"players": 3})
    nulls = Record.from_dict(
        {"players": 3, "me": None, "names": None, "observations": None, "seen": None}
    )
    assert bare == nulls == Record(3)
    with pytest.raises(InvalidInput, match=r"^record: key 'players' missing"):
        Record.from_dict({"observations": []})


def test_code_from_text() -> None:
    names = example_record().names
    assert code_from_text(" 5 , Palm,Powder", names) == Code(5, 5, 5)
    for bad in ("1,2,3,4", "1,,3", "1,2,9", "1,Star,3", "9999999999,0,0"):
        with pytest.raises(InvalidInput, match=r"^--clue"):
            code_from_text(bad)


# -- fuzz: random JSON and mutations of valid records ---------------------------------

_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-3, 8)
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from(["", "0", "1", "01", "island", "Palm", "yes", "no", "Skull Isle"])
    | st.text(max_size=5)
)
_KEYS = st.sampled_from(
    [
        *("players", "me", "observations", "names", "seen", "active", "clue", "answers"),
        *("island", "marker", "trap", "player", "code", "0", "1", "2", "3", "01", "Players"),
    ]
) | st.text(max_size=4)
_JSON = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_KEYS, inner, max_size=4),
    max_leaves=8,
)


def _paths(doc: Any, here: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON document, as a path of keys and indices."""
    out = [here]
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += _paths(v, (*here, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out += _paths(v, (*here, i))
    return out


def _get(doc: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        doc = doc[step]
    return doc


def _retyped(value: Any) -> Any:
    """The same value under another JSON type (1 -> "1", 1.0 or true; true -> 1; ...)."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return [str(value), float(value), value == 1, -value, value + 6][value % 5]
    if isinstance(value, str):
        return int(value) if value.isdigit() and len(value) < 4 else [value]
    if isinstance(value, list):
        return {str(i): v for i, v in enumerate(value)}
    if isinstance(value, dict):
        return list(value.values())
    return 0


@st.composite
def mutated_records(draw: st.DrawFn) -> Any:
    """A valid record (the example, or small ones) with one to three random changes."""
    doc = copy.deepcopy(
        draw(
            st.sampled_from(
                [
                    example_record().to_dict(),
                    {
                        "players": 2,
                        "observations": [{"active": 0, "clue": CLUE, "answers": {"1": True}}],
                    },
                    {"players": 3, "me": {"player": 1, "code": CLUE}, "seen": {"trap": [0, 0]}},
                ]
            )
        )
    )
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(_paths(doc)))
        if not path:
            doc = draw(st.sampled_from([[doc], {"record": doc}, _retyped(doc)]))
            continue
        parent, key = _get(doc, path[:-1]), path[-1]
        action = draw(st.sampled_from(["drop", "add", "replace", "retype", "nest", "twin"]))
        if action == "drop":
            del parent[key]
        elif action == "add" and isinstance(parent, dict):
            parent[draw(_KEYS)] = draw(_JSON)
        elif action == "add":
            parent.append(copy.deepcopy(parent[key]))
        elif action == "replace":
            parent[key] = draw(_JSON)
        elif action == "retype":
            parent[key] = _retyped(parent[key])
        elif action == "nest":
            parent[key] = [parent[key]]
        elif isinstance(parent, dict) and isinstance(key, str) and key.isdigit():
            parent["0" + key] = not parent[key]  # a second spelling of the same player
        else:
            parent[key] = copy.deepcopy(parent[key])
    return doc


def _answer_or_isles_error(doc: Any) -> None:
    try:
        record = Record.from_dict(doc)
        assert Record.from_dict(json.loads(json.dumps(record.to_dict()))) == record
        json.dumps(analyse(record, time_limit=0.5).to_dict(), allow_nan=False)
    except IslesError:
        pass


@settings(max_examples=100)
@given(_JSON)
def test_fuzz_random_json_gives_an_answer_or_an_isles_error(doc: Any) -> None:
    _answer_or_isles_error(doc)


@settings(max_examples=150)
@given(mutated_records())
def test_fuzz_mutated_records_give_an_answer_or_an_isles_error(doc: Any) -> None:
    _answer_or_isles_error(doc)


@settings(max_examples=100)
@given(st.text(max_size=30))
def test_fuzz_clue_text(text: str) -> None:
    with contextlib.suppress(IslesError):
        code_from_text(text, example_record().names)
