"""Board rules as objects (isles.models.layout.board_rules) and users' own rules (docs/layout.md).

The registry's checks against the checker written before it (kept here as the
oracle), position by position on random boards; solved boards unchanged
(their answers as the code before the registry gave them); rules files read
with the field path of every refusal; boards proven optimal under users'
rules against an enumeration that uses the checker alone.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from isles.cli import main
from isles.models.board import Board
from isles.models.catan import NUMBER_TOKENS, HarbourKind, Resource, Terrain, Tile, pips
from isles.models.errors import InvalidInput
from isles.models.hexgrid import Hex, edges_between, hexagon, vertices_between
from isles.models.layout.board_rules import RULE_KINDS, NumbersApart, TerrainAt, sea_token_bounds
from isles.models.layout.checker import rule_violations
from isles.models.layout.geometry import connected_sets, vertex_groups
from isles.models.layout.groups import constraint_groups
from isles.models.layout.objectives import colourfulness, pip_spread
from isles.models.layout.request import Rule, SetupRequest
from isles.models.layout.rules_file import load_rules, read_rules
from isles.models.layout.setup import setup_request
from isles.models.status import Status
from isles.solvers.layout.board import solve_layout
from isles.solvers.layout.move import next_move
from isles.solvers.layout.relaxations import pip_model, pip_relaxation
from isles.solvers.layout.series import layout_boards

LIMIT = 10.0


# -- the oracle: the checker as it was before the registry ------------------------------


def old_rule_breaches(request: SetupRequest, board: Board) -> list[str]:
    """The rule part of rule_violations before the rules became objects (verbatim)."""
    out: list[str] = []
    rules = request.rules
    frame = set(request.frame)
    cells = [h for h in board if h not in frame]
    is_land = {h: board.terrain(h).is_land for h in cells}
    num = {h: board.number(h) for h in cells}
    for e in edges_between(cells):
        a, b = e
        if is_land[a] and is_land[b]:
            if Rule.SIX_EIGHT_APART in rules and num[a] in (6, 8) and num[b] in (6, 8):
                out.append(f"{Rule.SIX_EIGHT_APART}: {num[a]} at {a} next to {num[b]} at {b}")
            if Rule.SAME_NUMBER_APART in rules and num[a] is not None and num[a] == num[b]:
                out.append(f"{Rule.SAME_NUMBER_APART}: {num[a]} at {a} and {b}")
        if not is_land[a] and not is_land[b] and Rule.SEA_APART in rules and num[a] == num[b]:
            out.append(f"{Rule.SEA_APART}: sea {num[a]} at {a} and {b}")
    for group in vertex_groups(cells):
        if Rule.NO_LAND_TRIANGLE in rules and len(group) == 3 and all(is_land[h] for h in group):
            out.append(f"{Rule.NO_LAND_TRIANGLE}: {', '.join(map(str, group))} all land")
        if Rule.VERTEX_PIPS in rules:
            total = sum(pips(n) for h in group if is_land[h] and (n := num[h]) is not None)
            if total > request.max_pips:
                out.append(f"{Rule.VERTEX_PIPS}: {total} pips at the corner of {group}")
    if Rule.CORNER_PIPS_MIN in rules:
        for corner in vertices_between(cells):
            if all(is_land[h] for h in corner):
                total = sum(pips(n) for h in corner if (n := num[h]) is not None)
                if total < request.min_corner_pips:
                    out.append(f"{Rule.CORNER_PIPS_MIN}: {total} pips at the corner of {corner}")
    if Rule.SIX_EIGHT_ONCE in rules:
        for res in Resource:
            hot = [h for h in cells if board.terrain(h).resource is res and num[h] in (6, 8)]
            if len(hot) > 1:
                out.append(f"{Rule.SIX_EIGHT_ONCE}: {res.value} has 6 or 8 at {sorted(hot)}")
    if Rule.TERRAIN_GROUPS in rules:
        for t in Terrain:
            if t is Terrain.SEA:
                continue
            same = {h for h in cells if board.terrain(h) is t}
            for s in connected_sets(same, request.max_group + 1):
                out.append(f"{Rule.TERRAIN_GROUPS}: {t.value} group {sorted(s)} too large")
                break
    if Rule.SEA_BALANCED in rules:
        sea = [h for h in cells if not is_land[h]]
        lo, hi = sea_token_bounds(len(sea), len(request.sea_numbers))
        for v in request.sea_numbers:
            count = sum(1 for h in sea if num[h] == v)
            if not lo <= count <= hi:
                out.append(f"{Rule.SEA_BALANCED}: {count} sea tokens {v}, want {lo}..{hi}")
    if Rule.HARBOUR_RESOURCE_APART in request.rules:
        from isles.models.layout.games import harbour_reach

        for e, kind in board.harbours.items():
            for h in harbour_reach(e):
                if (
                    h in board
                    and kind.resource is not None
                    and board.terrain(h).resource is kind.resource
                ):
                    out.append(
                        f"{Rule.HARBOUR_RESOURCE_APART}: {kind.value} harbour on {e} "
                        f"next to {board.terrain(h).value} at {h}"
                    )
    return out


def registry_breaches(request: SetupRequest, board: Board) -> list[str]:
    return [v for rule in request.board_rules.values() for v in rule.violations(request, board)]


TILES = st.one_of(
    st.just(Tile(Terrain.SEA, None)),
    st.builds(Tile, st.just(Terrain.SEA), st.sampled_from(NUMBER_TOKENS)),
    st.builds(
        Tile, st.sampled_from([t for t in Terrain if t.produces]), st.sampled_from(NUMBER_TOKENS)
    ),
    st.just(Tile(Terrain.DESERT, None)),
)


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(["ships", "base"]),
    st.data(),
    st.integers(0, 15),
    st.integers(1, 4),
    st.integers(0, 15),
)
def test_the_registry_checks_equal_the_old_checker(
    game: str, data: st.DataObject, max_pips: int, max_group: int, least: int
) -> None:
    base = setup_request(game=game) if game == "base" else SetupRequest.hexagon(2)
    request = replace(
        base,
        rules=frozenset(Rule),
        max_pips=max_pips,
        max_group=max_group,
        min_corner_pips=least,
    )
    tiles = {h: data.draw(TILES) for h in request.positions}
    tiles.update({h: Tile(Terrain.SEA) for h in request.frame})
    kinds = data.draw(st.lists(st.sampled_from(list(HarbourKind)), min_size=0, max_size=9))
    coast = [e for e in request.harbour_places if any(tiles[h].terrain.is_land for h in e)]
    harbours = dict(zip(coast, kinds, strict=False))
    board = Board(tiles, harbours=harbours)
    assert sorted(registry_breaches(request, board)) == sorted(old_rule_breaches(request, board))
    whole = rule_violations(request, board)
    assert all(line in whole for line in old_rule_breaches(request, board))


def test_the_checker_can_tell_a_breach() -> None:
    # the comparison above is worth something only when breaches occur
    request = replace(SetupRequest.hexagon(1), rules=frozenset(Rule), max_pips=0)
    board = Board({h: Tile(Terrain.FOREST, 6) for h in hexagon(1)})
    found = registry_breaches(request, board)
    assert found and sorted(found) == sorted(old_rule_breaches(request, board))
    assert {line.partition(":")[0] for line in found} >= {
        "no-land-triangle",
        "six-eight-apart",
        "same-number-apart",
        "vertex-pips",
        "terrain-groups",
        "six-eight-once",
    }


# -- answers unchanged ----------------------------------------------------------------

#: sha256 (16 hex digits) of the JSON answers the code before the registry gave.
BEFORE = {
    "r1/s0": "1c2234a793c51ca2",
    "r1/s3": "88ed07ea7cd98b85",
    "r2/s0": "342ba628d1bda67b",
    "r2vp/s0": "ec02817523b630a4",
    "r1inf/s0": "b9c4234b9531b77d",
    "base/s0": "cc7efb70eb3d0eb9",
    "base/s3": "dd59ef564613e38f",
    "base_spiral/s0": "9300e522782839f6",
    "base_hra/s3": "d0edb829559cfffc",
    "r2fixed/s0": "e7f9a173addc4928",
    "move": "d7c6446ce0c4b78a",
    "series_base": "3e392e3f1516436f",
}


def _answer(name: str) -> dict[str, Any]:
    requests = {
        "r1": lambda: setup_request(radius=1),
        "r2": lambda: setup_request(radius=2),
        "r2vp": lambda: setup_request(radius=2, max_pips=10),
        "r1inf": lambda: setup_request(radius=1, land=7),
        "base": lambda: setup_request(game="base"),
        "base_spiral": lambda: setup_request(game="base", spiral="top-left"),
        "base_hra": lambda: setup_request(game="base", rules={"harbour-resource-apart": True}),
        "r2fixed": lambda: setup_request(radius=2, fixed={Hex(0, 0): Tile(Terrain.FOREST, 6)}),
    }
    if name == "move":
        request = setup_request(radius=1, fixed={Hex(0, 0): Tile(Terrain.SEA, 5)})
        return next_move(request, ("forest", "sea"), time_limit=20).to_dict()
    if name == "series_base":
        return layout_boards(setup_request(game="base"), 3, seed=1).to_dict()
    key, seed = name.split("/s")
    return solve_layout(requests[key](), seed=int(seed), time_limit=20).to_dict()


@pytest.mark.parametrize("name", sorted(BEFORE))
def test_solved_boards_and_proofs_are_unchanged(name: str) -> None:
    text = json.dumps(_answer(name), sort_keys=True)
    assert hashlib.sha256(text.encode()).hexdigest()[:16] == BEFORE[name]


# -- rules files -------------------------------------------------------------------------


def test_a_rules_file_is_read_into_rule_objects() -> None:
    rules = read_rules(
        {
            "rules": [
                {"kind": "numbers-apart", "numbers": [6, 8], "distance": 3},
                {"kind": "terrain-at", "terrain": "desert", "hexes": [[0, 0]]},
                {"kind": "vertex-pips", "at_most": 11},
            ]
        }
    )
    assert [r.label() for r in rules] == [
        "numbers-apart(numbers=[6, 8], distance=3)",
        "terrain-at(terrain=desert, hexes=[[0, 0]])",
        "vertex-pips(at_most=11)",
    ]
    assert isinstance(rules[1], TerrainAt) and rules[1].hexes == [Hex(0, 0)]


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ([], "rules"),
        ({"rule": []}, "rules"),
        ({"rules": {}}, "rules.rules"),
        ({"rules": [5]}, "rules[0]"),
        ({"rules": [{"numbers": [6]}]}, "rules[0].kind"),
        ({"rules": [{"kind": "no-such"}]}, "rules[0].kind"),
        ({"rules": [{"kind": "numbers-apart"}]}, "rules[0].numbers"),
        ({"rules": [{"kind": "numbers-apart", "numbers": [6, 7]}]}, "rules[0].numbers[1]"),
        (
            {"rules": [{"kind": "numbers-apart", "numbers": [6], "distance": 1}]},
            "rules[0].distance",
        ),
        (
            {"rules": [{"kind": "numbers-apart", "numbers": [6], "distance": "2"}]},
            "rules[0].distance",
        ),
        ({"rules": [{"kind": "numbers-apart", "numbers": [6], "far": 2}]}, "rules[0].far"),
        (
            {"rules": [{"kind": "sea-apart"}, {"kind": "vertex-pips", "at_most": -1}]},
            "rules[1].at_most",
        ),
        ({"rules": [{"kind": "terrain-at", "terrain": "lava", "hexes": []}]}, "rules[0].terrain"),
        (
            {"rules": [{"kind": "terrain-at", "terrain": "sea", "hexes": [[0]]}]},
            "rules[0].hexes[0]",
        ),
        ({"rules": [{"kind": "terrain-groups", "terrains": ["sea"]}]}, "rules[0].terrains[0]"),
        ({"rules": [{"kind": "resource-pips", "resources": ["gold"]}]}, "rules[0].resources[0]"),
        ({"rules": [{"kind": "sea-apart"}, {"kind": "sea-apart"}]}, "rules[1]"),
    ],
)
def test_a_bad_rules_file_names_the_entry(data: object, field: str) -> None:
    with pytest.raises(InvalidInput) as info:
        read_rules(data)
    assert info.value.field == field, str(info.value)


DOCS = Path(__file__).parents[2] / "docs" / "layout.md"


def test_the_docs_example_runs_as_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = DOCS.read_text()
    start = text.index("cat > rules.json <<'EOF'\n") + len("cat > rules.json <<'EOF'\n")
    rules = tmp_path / "rules.json"
    rules.write_text(text[start : text.index("\nEOF\n", start)])
    assert "isles layout --game base --rules rules.json" in text
    assert main(["layout", "--game", "base", "--rules", str(rules)]) == 0
    out = capsys.readouterr().out
    assert "status: optimal" in out and "pip spread: 1 (lower bound 1)" in out
    far = read_rules({"rules": [{"kind": "numbers-apart", "numbers": [6, 8], "distance": 5}]})
    result = solve_layout(setup_request(game="base", extra_rules=far), time_limit=LIMIT)
    assert set(result.conflict) == {
        "numbers-apart(numbers=[6, 8], distance=5)",
        "land count",
        "land inventory",
        "land tokens",
    }


def test_every_kind_is_documented() -> None:
    text = DOCS.read_text()
    for kind in RULE_KINDS:
        assert f"`{kind}`" in text, kind


# -- boards proven optimal under users' rules -----------------------------------------

TINY_LAND = {Terrain.FOREST: 1, Terrain.HILLS: 1, Terrain.FIELDS: 1, Terrain.DESERT: 1}


def enumerated_best(request: SetupRequest) -> tuple[int, int] | None:
    """The best (colourfulness, -pip spread) of every board rule_violations accepts."""
    pos = list(request.positions)
    kinds = sorted(request.inventory, key=list(Terrain).index)
    best: tuple[int, int] | None = None
    for land in itertools.combinations(pos, request.land):
        for terrains in itertools.permutations(kinds, len(land)):
            producing = [h for h, t in zip(land, terrains, strict=True) if t.produces]
            for tokens in set(itertools.permutations(request.land_tokens, len(producing))):
                tiles = {h: Tile(Terrain.SEA, request.sea_numbers[0]) for h in pos}
                tiles.update({h: Tile(t) for h, t in zip(land, terrains, strict=True)})
                tiles.update(
                    {h: Tile(tiles[h].terrain, n) for h, n in zip(producing, tokens, strict=True)}
                )
                board = Board(tiles)
                if rule_violations(request, board):
                    continue
                score = (colourfulness(board), -pip_spread(board))
                best = score if best is None or score > best else best
    return best


@pytest.mark.parametrize(
    "rules",
    [
        [{"kind": "numbers-apart", "numbers": [6, 8], "distance": 3}],
        [{"kind": "terrain-at", "terrain": "desert", "hexes": [[0, 0]]}],
        [{"kind": "terrain-at", "terrain": "sea", "hexes": [[1, 0], [0, 1], [-1, 1], [0, 0]]}],
        [{"kind": "resource-pips", "at_least": 4, "resources": ["lumber", "brick"]}],
        [{"kind": "terrain-groups", "at_most": 1, "terrains": ["forest", "hills"]}],
    ],
)
def test_users_rules_are_proven_optimal(rules: list[dict[str, Any]]) -> None:
    request = SetupRequest.hexagon(
        1,
        land=3,
        inventory=TINY_LAND,
        land_tokens=(5, 6, 8),
        sea_numbers=(4,),
        rules=frozenset(),
        extra_rules=read_rules({"rules": rules}),
    )
    result = solve_layout(request, time_limit=LIMIT)
    best = enumerated_best(request)
    assert result.status is Status.OPTIMAL and result.board is not None and best is not None
    assert rule_violations(request, result.board) == []
    assert (result.colourfulness, -(result.pip_spread or 0)) == best


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4, 5])
def test_a_rule_that_is_not_symmetric_survives_the_variety(seed: int) -> None:
    # the desert on one corner of the island: no rotation may move it, nor may the
    # terrain shuffle move the limited terrains' groups
    rules = read_rules(
        {
            "rules": [
                {"kind": "terrain-at", "terrain": "desert", "hexes": [[0, -2]]},
                {"kind": "terrain-groups", "at_most": 1, "terrains": ["hills"]},
                {"kind": "numbers-apart", "numbers": [6]},
                {"kind": "resource-pips", "at_least": 11, "resources": ["ore"]},
            ]
        }
    )
    request = setup_request(game="base", extra_rules=rules)
    result = solve_layout(request, seed=seed, time_limit=LIMIT)
    assert result.status is Status.OPTIMAL and result.board is not None
    assert rule_violations(request, result.board) == []
    series = layout_boards(request, 2, seed=seed, time_limit=LIMIT)
    assert all(rule_violations(request, b.board) == [] for b in series.boards if b.board)


def test_impossible_users_rules_are_named_in_the_conflict() -> None:
    rules = read_rules({"rules": [{"kind": "corner-pips-min", "at_least": 12}]})
    result = solve_layout(setup_request(game="base", extra_rules=rules), time_limit=LIMIT)
    assert result.status is Status.INFEASIBLE
    assert "corner-pips-min(at_least=12)" in result.conflict and result.conflict_minimal


def test_the_relaxation_keeps_what_pips_can_say() -> None:
    whole = NumbersApart(numbers=[6, 8], distance=3)
    half = NumbersApart(numbers=[6], distance=3)
    request = setup_request(game="base", extra_rules=(whole, half))
    groups = [rule.label() for rule in (whole, half)]
    kept = pip_model(request, groups)[2]
    assert whole.label() in kept and half.label() not in kept


def test_numbers_apart_beyond_the_island_is_infeasible() -> None:
    # the base island is 5 hexes across: two red numbers cannot lie 5 apart
    rules = read_rules({"rules": [{"kind": "numbers-apart", "numbers": [6, 8], "distance": 5}]})
    request = setup_request(game="base", extra_rules=rules)
    assert pip_relaxation(request, constraint_groups(request), LIMIT)[0] is False
    result = solve_layout(request, time_limit=LIMIT)
    assert result.status is Status.INFEASIBLE and result.conflict_minimal
    assert rules[0].label() in result.conflict


# -- the command line ------------------------------------------------------------------


def test_isles_layout_reads_a_rules_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "rules.json"
    path.write_text(
        json.dumps({"rules": [{"kind": "numbers-apart", "numbers": [6, 8], "distance": 3}]})
    )
    assert main(["layout", "--game", "base", "--rules", str(path), "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    board = Board.from_dict(answer["board"])
    assert answer["status"] == "optimal"
    assert rule_violations(setup_request(game="base", extra_rules=load_rules(path)), board) == []


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        (
            '{"rules": [{"kind": "numbers-apart", "numbers": [6, 8], "distance": 0}]}',
            "--rules rules[0].distance: 0 is invalid; expected an integer in 2..6",
        ),
        ('{"rules": [{"kind": "numbers-apart"}]}', "--rules rules[0].numbers: missing"),
        ('{"rules": [{"kind": "nope"}]}', "--rules rules[0].kind: 'nope' is invalid"),
        ("{", "expected valid JSON"),
    ],
)
def test_a_bad_rules_file_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, needle: str
) -> None:
    path = tmp_path / "rules.json"
    path.write_text(text)
    assert main(["layout", "--radius", "1", "--rules", str(path)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and needle in err, err
