"""Fuzzing the lighthouse kit and position formats: an answer or an IslesError, nothing else.

Random JSON documents, and random mutations of valid ones (drop a key, add a key,
change a value or its type, nest it), go through the readers and, when they are
valid, through a solver (tiny kits only, to stay fast).
"""

from __future__ import annotations

import contextlib
import copy
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from isles.lighthouse import odds
from isles.models.errors import IslesError
from isles.models.jsonio import parse_json
from isles.models.lighthouse.kit import Kit, default_kit
from isles.models.lighthouse.position import Position
from isles.models.lighthouse.rules import Roll
from isles.solvers.lighthouse.advice import advise
from isles.solvers.lighthouse.dp import solve
from isles.solvers.lighthouse.simulation import simulate
from isles.solvers.lighthouse.solution import LighthouseSolution

scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from(["red", "blue", "green", "orange", "purple", "boat", "", "Boat"])
    | st.text(max_size=8)
)
json_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)


def _slots(node: Any) -> list[tuple[Any, Any]]:
    """Every (container, key or index) in a JSON document, depth first."""
    out: list[tuple[Any, Any]] = []
    if isinstance(node, dict):
        for key, value in node.items():
            out.append((node, key))
            out.extend(_slots(value))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out.append((node, i))
            out.extend(_slots(value))
    return out


def _retype(value: Any) -> Any:
    """The same value in another JSON type (a number as text, a list as an object, ...)."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return [float(value), str(value), value > 0][value % 3]
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return {str(i): v for i, v in enumerate(value)}
    if isinstance(value, dict):
        return list(value.values())
    return "null"


@st.composite
def mutated(draw: st.DrawFn, base: dict[str, Any]) -> Any:
    """``base`` with one to three random mutations at random places."""
    root = {"doc": copy.deepcopy(base)}
    for _ in range(draw(st.integers(1, 3))):
        parent, key = draw(st.sampled_from(_slots(root)))
        op = draw(st.sampled_from(["drop", "add", "replace", "retype", "nest", "duplicate"]))
        if op == "drop" and parent is not root:
            del parent[key]
        elif op == "add":
            if isinstance(parent, dict):
                parent[draw(st.text(max_size=8))] = draw(json_values)
            else:
                parent.insert(key, draw(json_values))
        elif op == "replace":
            parent[key] = draw(json_values)
        elif op == "retype":
            parent[key] = _retype(parent[key])
        elif op == "nest":
            parent[key] = draw(st.sampled_from([[parent[key]], {"value": parent[key]}]))
        elif op == "duplicate" and isinstance(parent, list):
            parent.insert(key, copy.deepcopy(parent[key]))
    return root["doc"]


def _tiny(kit: Kit) -> bool:
    """Small enough for the DP to answer in a blink."""
    return len(kit.islands) <= 2 and kit.sea_cards <= 3 and all(len(d) <= 8 for d in kit.dice)


def _answer_kit(raw: object) -> None:
    """Read a kit and answer with it, or raise IslesError."""
    kit = Kit.from_dict(raw)
    assert Kit.from_dict(json.loads(json.dumps(kit.to_dict()))) == kit
    if _tiny(kit):
        result = odds(kit)
        assert result.win_probability is not None and 0 <= float(result.win_probability) <= 1
    else:
        result_sim = simulate(kit, "greedy", 3, seed=1)
        assert 0 <= result_sim.win_probability <= 1


KIT = default_kit(2, 2).to_dict()


@settings(max_examples=150)
@given(json_values)
def test_random_json_kits_answer_or_refuse(raw: object) -> None:
    with contextlib.suppress(IslesError):
        _answer_kit(raw)


@settings(max_examples=200)
@given(mutated(KIT))
def test_mutated_kits_answer_or_refuse(raw: object) -> None:
    with contextlib.suppress(IslesError):
        _answer_kit(raw)


def test_kit_text_through_the_json_reader() -> None:
    for text in ('{"islands": [], "dice": [], "sea_cards": 1, "dice": []}', "[1, NaN]", "{"):
        with pytest.raises(IslesError):
            _answer_kit(parse_json(text, "kit file"))


POSITION_KIT = default_kit(2, 3)
POSITION = {"discs": [["red", "blue"], ["orange"]], "boat": 2, "maurice": 1}


@pytest.fixture(scope="module")
def table() -> LighthouseSolution:
    return solve(POSITION_KIT)


def _answer_position(raw: object, table: LighthouseSolution) -> None:
    """Read a position and advise on it, or raise IslesError."""
    position = Position.from_dict(raw, POSITION_KIT)
    assert Position.from_dict(position.to_dict(), POSITION_KIT) == position
    advice = advise(table, position, Roll.from_faces(POSITION_KIT, ("boat", "green")))
    assert 0 <= float(advice.win_probability) <= 1


@settings(max_examples=150)
@given(raw=json_values)
def test_random_json_positions_answer_or_refuse(raw: object, table: LighthouseSolution) -> None:
    with contextlib.suppress(IslesError):
        _answer_position(raw, table)


@settings(max_examples=200)
@given(raw=mutated(POSITION))
def test_mutated_positions_answer_or_refuse(raw: object, table: LighthouseSolution) -> None:
    with contextlib.suppress(IslesError):
        _answer_position(raw, table)
