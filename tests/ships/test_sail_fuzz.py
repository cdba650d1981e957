"""Fuzzing the ships board files (docs/boards.md, docs/ships.md): random JSON documents
and random mutations of valid tiny boards give an answer of ``sail`` and ``risk`` or an
``IslesError``, never another exception."""

from __future__ import annotations

import copy
import json
from typing import Any

from hypothesis import event, given, settings
from hypothesis import strategies as st

from isles.models.board import Board
from isles.models.catan import Terrain
from isles.models.errors import IslesError
from isles.models.hexgrid import edge
from isles.models.ships.winds import ship_edges
from isles.ships import risk, sail

#: Tiny valid ships boards: sea with and without tokens, a coast, a land token.
VALID: list[dict[str, Any]] = [
    {
        "hexes": [
            {"hex": [0, 0], "terrain": "sea", "number": 6},
            {"hex": [1, 0], "terrain": "sea"},
            {"hex": [1, -1], "terrain": "forest", "number": 3},
            {"hex": [0, 1], "terrain": "sea", "number": 8},
        ]
    },
    {
        "hexes": [
            {"hex": [0, 0], "terrain": "sea", "number": 5},
            {"hex": [1, 0], "terrain": "sea", "number": 9},
            {"hex": [1, -1], "terrain": "sea", "number": None},
            {"hex": [0, -1], "terrain": "hills", "number": 5},
            {"hex": [-1, 0], "terrain": "desert"},
        ]
    },
]

KEYS = ["hexes", "hex", "terrain", "number", "q", "r", "Hex", ""]

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.integers(-3, 13)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from(["sea", "forest", "desert", "gold", "lava", "", "6"])
    | st.text(max_size=5)
)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=4), inner, max_size=4)
    ),
    max_leaves=12,
)


def _containers(doc: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Paths of every list and object in ``doc``."""
    out: list[tuple[Any, ...]] = []
    if isinstance(doc, dict):
        out.append(path)
        for key, value in doc.items():
            out.extend(_containers(value, (*path, key)))
    elif isinstance(doc, list):
        out.append(path)
        for i, value in enumerate(doc):
            out.extend(_containers(value, (*path, i)))
    return out


def _at(doc: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        doc = doc[step]
    return doc


@st.composite
def mutated_boards(draw: st.DrawFn) -> Any:
    """A valid board with mutations: tiles changed within the format (terrain, token,
    place: mostly still boards) and members dropped, added, retyped or nested."""
    doc = copy.deepcopy(draw(st.sampled_from(VALID)))
    for _ in range(draw(st.integers(0, 3))):
        entry = draw(st.sampled_from(doc["hexes"]))
        member = draw(st.sampled_from(["hex", "terrain", "number"]))
        entry[member] = draw(
            {
                "hex": st.lists(st.integers(-2, 2), min_size=2, max_size=2),
                "terrain": st.sampled_from([t.value for t in Terrain]),
                "number": st.none() | st.integers(2, 12),
            }[member]
        )
    for _ in range(draw(st.sampled_from([0, 0, 1, 1, 2, 3]))):
        paths = _containers(doc)
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        node = _at(doc, path)
        action = draw(st.sampled_from(["drop", "add", "replace", "nest", "duplicate"]))
        if isinstance(node, dict):
            keys = sorted(node)
            if action == "drop" and keys:
                del node[draw(st.sampled_from(keys))]
            elif action == "add" or not keys:
                node[draw(st.sampled_from(KEYS))] = draw(json_values)
            elif action == "nest":
                key = draw(st.sampled_from(keys))
                node[key] = draw(st.sampled_from([[node[key]], {"hex": node[key]}]))
            else:
                node[draw(st.sampled_from(keys))] = draw(json_values)
        else:
            if action == "drop" and node:
                del node[draw(st.integers(0, len(node) - 1))]
            elif action == "duplicate" and node:
                node.append(copy.deepcopy(node[draw(st.integers(0, len(node) - 1))]))
            elif action == "nest" and node:
                i = draw(st.integers(0, len(node) - 1))
                node[i] = [node[i]]
            elif node:
                node[draw(st.integers(0, len(node) - 1))] = draw(json_values)
            else:
                node.append(draw(json_values))
    return doc


def answer_or_isles_error(data: st.DataObject, doc: Any) -> None:
    """Read ``doc`` as a board file and ask ``sail`` and ``risk`` about it."""
    text = json.dumps(doc)
    try:
        board = Board.from_json(text, "fuzz.json")
    except IslesError:
        event("refused as a board")
        return
    event("read as a board")
    edges = ship_edges(board)
    if edges:
        start = data.draw(st.sampled_from(edges))
        target = data.draw(st.sampled_from(edges))
    else:
        start = target = edge((0, 0), (1, 0))
    try:
        voyage = sail(board, start, [target], may_stay=data.draw(st.booleans()))
        json.dumps(voyage.to_dict(), allow_nan=False)
    except IslesError:
        pass
    try:
        report = risk(board=board, pirate=start, edge=target, rolls=data.draw(st.integers(0, 4)))
        json.dumps(report.to_dict(), allow_nan=False)
    except IslesError:
        pass


@settings(max_examples=100)
@given(data=st.data(), doc=json_values)
def test_random_json_documents(data: st.DataObject, doc: Any) -> None:
    answer_or_isles_error(data, doc)


@settings(max_examples=150)
@given(data=st.data(), doc=mutated_boards())
def test_mutated_ships_boards(data: st.DataObject, doc: Any) -> None:
    answer_or_isles_error(data, doc)


def test_the_valid_boards_answer() -> None:
    for doc in VALID:
        board = Board.from_json(json.dumps(doc))
        edges = ship_edges(board)
        assert edges
        assert sail(board, edges[0], [edges[-1]]).to_dict()["status"] in (
            "optimal",
            "unreachable",
        )
