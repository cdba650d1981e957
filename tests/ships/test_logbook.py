"""The log book (seed rule 13): its format is refused where it is wrong, every fixture
replays to its verdict, a valid log prints each ship's state after each roll, and random
mutations of a log never end in a traceback."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from isles.cli import main
from isles.models.board import Board
from isles.models.catan import Resource
from isles.models.errors import InvalidInput
from isles.models.ships.logbook import LogBook, read_log
from isles.models.status import Status
from isles.ships import check_log
from isles.solvers.ships.logbook import ShipFate

FIXTURES = Path(__file__).parent / "fixtures" / "logbook"
BOARD = FIXTURES / "board.json"

#: Each illegal fixture: the entry it must name and the rule broken.
ILLEGAL = {
    "wind_not_adjacent": ("rolls[1].events[0]", 6, "not one edge along a sea hex numbered 11"),
    "wind_not_moved": ("rolls[4]", 6, "moving is compulsory"),
    "cargo_over_3": ("rolls[7].events[0]", 7, "cargo over 3"),
    "harvest_forbidden": ("rolls[0].events[0]", 7, "an enemy road (blue's)"),
    "unload_away": ("rolls[1].events[1]", 5, "not along a coast next to a settlement"),
}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        status = main(list(argv))
    except SystemExit as exc:
        status = int(exc.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


def valid() -> dict[str, Any]:
    data = json.loads((FIXTURES / "valid.json").read_text())
    assert isinstance(data, dict)
    return data


def test_valid_log_replays_each_roll() -> None:
    replay = check_log(Board.load(BOARD), LogBook.load(FIXTURES / "valid.json"))
    assert replay.status is Status.EXACT and replay.breach is None
    assert len(replay.after) == len(replay.rolls) == 10
    first = {s.ship: s for s in replay.after[0]}
    assert first[1].cargo == (Resource.LUMBER,)
    assert first[2].cargo == (Resource.ORE, Resource.LUMBER) and str(first[2].edge) == "0,2:1,2"
    last = {s.ship: s for s in replay.after[-1]}
    assert last[1].fate is ShipFate.CONVERTED
    assert last[2].cargo == (Resource.WOOL,) and str(last[2].edge) == "0,3:1,2"


@pytest.mark.parametrize("name", sorted(ILLEGAL))
def test_each_illegal_fixture_names_its_first_breach(name: str) -> None:
    entry, rule, words = ILLEGAL[name]
    replay = check_log(
        Board.load(BOARD), read_log(json.loads((FIXTURES / f"{name}.json").read_text()))
    )
    assert replay.status is Status.INCONSISTENT and replay.breach is not None
    assert replay.breach.entry == f"log.{entry}"
    assert replay.breach.rule == rule and words in replay.breach.message
    assert len(replay.after) == int(entry.split("]")[0].split("[")[1])


def test_cli_valid_and_illegal(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(
        capsys, "ships", "check", str(FIXTURES / "valid.json"), "--board", str(BOARD)
    )
    assert status == 0 and err == ""
    assert "roll 1 (10): ship 1 at 1,1:1,2 [lumber]; ship 2 at 0,2:1,2 [ore, lumber]" in out
    assert "every entry keeps the rules (10 rolls)" in out
    path = FIXTURES / "unload_away.json"
    status, out, _ = run(capsys, "ships", "check", str(path), "--board", str(BOARD), "--json")
    assert status == 1
    got = json.loads(out)
    assert got == check_log(Board.load(BOARD), LogBook.load(path)).to_dict()
    assert got["status"] == "inconsistent" and got["breach"]["rule"] == 5


@pytest.mark.parametrize(
    ("mutate", "needle"),
    [
        (lambda d: d.update(colour="red"), "unknown key 'colour'"),
        (lambda d: d.pop("player"), "key 'player' missing"),
        (lambda d: d["ships"][0].update(cargo=["gold"]), "ships[0].cargo[0]"),
        (lambda d: d["rolls"][0].update(roll=7.0), "rolls[0].roll"),
        (lambda d: d["rolls"][0]["events"][0].update(event="sink"), "events[0].event"),
        (lambda d: d["rolls"][0]["events"][0].update(dice=3), "unknown key 'dice'"),
        (lambda d: d["rolls"][0]["events"][2].pop("to"), "key 'to' missing"),
        (lambda d: d["ships"].append(dict(d["ships"][0])), "ships[2].ship"),
        (lambda d: d.update(variants={"may_stay": "yes"}), "variants.may_stay"),
    ],
)
def test_format_refusals(mutate: Any, needle: str) -> None:
    data = valid()
    mutate(data)
    with pytest.raises(InvalidInput, match=None) as info:
        read_log(data)
    assert needle in str(info.value)


def test_cli_bad_file_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "log.json"
    bad.write_text('{"player": "red", "ships": [], "rolls": [], "extra": 1}')
    status, out, err = run(capsys, "ships", "check", str(bad))
    assert status == 2 and out == "" and "unknown key 'extra'" in err
    assert len(err.strip().splitlines()) == 1


_JUNK: list[object] = [None, True, 0, -1, 7, 13, 1.5, "", "wool", [], {}, [[0, 0], [0, 1]], [0, 0]]


def _mutations(data: Any, rng: random.Random) -> Any:
    """One random change somewhere in the JSON tree: a value replaced, a key dropped or
    added, a list entry dropped or duplicated."""
    out = copy.deepcopy(data)
    node = out
    for _ in range(rng.randint(0, 5)):
        children = list(node.items()) if isinstance(node, dict) else list(enumerate(node))
        children = [(k, v) for k, v in children if isinstance(v, dict | list) and v]
        if not children:
            break
        node = rng.choice(children)[1]
    action = rng.randrange(4)
    if isinstance(node, dict) and node:
        key = rng.choice(list(node))
        if action == 0:
            del node[key]
        elif action == 1:
            node[rng.choice(["x", "ship", "to", "lost", "own_turn"])] = rng.choice(_JUNK)
        else:
            node[key] = rng.choice(_JUNK)
    elif isinstance(node, list) and node:
        i = rng.randrange(len(node))
        if action == 0:
            del node[i]
        elif action == 1:
            node.append(copy.deepcopy(node[i]))
        else:
            node[i] = rng.choice(_JUNK)
    return out


def test_fuzz_mutations_never_traceback() -> None:
    board = Board.load(BOARD)
    rng = random.Random(12)
    bases = [valid()] + [
        json.loads((FIXTURES / f"{name}.json").read_text()) for name in sorted(ILLEGAL)
    ]
    verdicts = {"refused": 0, Status.EXACT: 0, Status.INCONSISTENT: 0}
    for _ in range(600):
        data = rng.choice(bases)
        for _ in range(rng.randint(1, 3)):
            data = _mutations(data, rng)
        try:
            log = read_log(data)
        except InvalidInput:
            verdicts["refused"] += 1
            continue
        replay = check_log(board, log)
        assert replay.status in (Status.EXACT, Status.INCONSISTENT)
        json.dumps(replay.to_dict(), allow_nan=False)
        verdicts[replay.status] += 1
    assert all(verdicts.values())


def test_shipped_example_is_valid_on_the_demo_board() -> None:
    from isles.models.ships.demo import demo_board

    example = Path(__file__).parents[2] / "models" / "data" / "ships_log_example.json"
    replay = check_log(demo_board(), LogBook.load(example))
    assert replay.status is Status.EXACT and len(replay.rolls) == 8


def test_harvest_refused_on_a_worked_out_hex() -> None:
    """Rule 7's second condition: more than one building around the hex, even the owner's."""
    from isles.models.catan import Building
    from isles.models.ships.coordinates import parse_settlement

    board = Board.load(BOARD)
    second = parse_settlement("1,1:2,0:2,1")
    crowded = board.replace(buildings={**board.buildings, second: Building("red")})
    log = read_log(
        {
            "player": "red",
            "ships": [{"ship": 1, "edge": [[1, 1], [1, 2]]}],
            "rolls": [
                {"roll": 10, "events": [{"event": "harvest", "ship": 1, "resource": "lumber"}]}
            ],
        }
    )
    assert check_log(board, log).status is Status.EXACT
    replay = check_log(crowded, log)
    assert replay.breach is not None and replay.breach.rule == 7
    assert "2 buildings stand around 1,1" in replay.breach.message
