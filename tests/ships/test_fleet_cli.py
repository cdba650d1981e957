"""``isles sail`` with several ``--from``: ``--json`` is ``fleet().to_dict()``, the text
answer, refusals naming the option typed, ports as targets, the fleet picture."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from isles.cli import main
from isles.models.catan import HarbourKind, Resource
from isles.models.hexgrid import edge
from isles.models.ships.coordinates import parse_settlement
from isles.models.ships.demo import demo_board
from isles.models.ships.fleet import Rollers, fleet_targets
from isles.models.ships.harbours import Port, port_edges, ports
from isles.ships import fleet
from isles.solvers.ships.fleet_chance import fleet_odds

HOME = ["--near", "0,1:0,2:1,1", "--near", "-1,0:0,0:-1,1"]
CORNERS = [parse_settlement("0,1:0,2:1,1"), parse_settlement("-1,0:0,0:-1,1")]
SHIPS = [edge((0, 0), (0, 1)), edge((1, 1), (1, 2))]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        status = main(list(argv))
    except SystemExit as exc:
        status = int(exc.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


def test_fleet_json_is_the_library_answer(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["sail", "--from", "0,0:0,1", "--from", "1,1:1,2", *HOME, "--within", "8", "--json"]
    status, out, err = run(capsys, *argv)
    assert status == 0 and err == ""
    voyage = fleet(demo_board(), SHIPS, near=CORNERS, within=8)
    got = json.loads(out)
    assert got == voyage.to_dict()
    assert got["reach"] == "reachable" and got["rolls"] == 8
    assert [row["rolls"] for row in got["odds"]["within"]] == list(range(9))
    assert got["collision_rollers"] == "excess" and got["ports"] == []
    home = fleet_targets(demo_board(), near=CORNERS)
    assert got["odds"]["probability"] == fleet_odds(demo_board(), SHIPS, home, 8).probability()


def test_fleet_text_answer(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["sail", "--from", "0,0:0,1", "--from", "1,1:1,2", *HOME, "--within", "12"]
    status, out, err = run(capsys, *argv, "--rollers", "all", "--may-stay")
    assert status == 0 and err == ""
    assert "Fleet of 2 ships at 0,0:0,1, 1,1:1,2" in out
    assert "a ship along a coast may stay (variant)" in out
    assert "every ship on a crowded edge rolls (variant)" in out
    assert "fewest expected rolls until every ship scores at once" in out
    assert "first move with 12 rolls to go:" in out and "no ship moves" in out


def test_fleet_trapped_and_unreachable(capsys: pytest.CaptureFixture[str]) -> None:
    # Two ships, one scoring coast edge: both home means a collision, never sure.
    argv = ["sail", "--from", "0,2:1,2", "--from", "0,3:1,2", "--to", "0,2:0,3", "--within", "4"]
    status, out, _ = run(capsys, *argv)
    assert status == 0 and "trapped" in out


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--from", "0,0:0,1", "--to", "0,0:1,0", "--within", "5"], "--within: '5' is invalid"),
        (["--from", "0,0:0,1", "--to", "0,0:1,0", "--rollers", "all"], "--rollers"),
        (["--from", "0,0:0,1", "--from", "0,0:1,0", "--to", "0,0:1,0"], "--within: missing"),
        (
            [
                "--from",
                "0,0:0,1",
                "--from",
                "0,0:1,0",
                "--to",
                "0,0:1,0",
                "--within",
                "3",
                "--players",
                "4",
            ],
            "--players: '4' is invalid",
        ),
        (
            ["--from", "0,0:0,1", "--from", "9,9:9,10", "--to", "0,0:1,0", "--within", "3"],
            "--from",
        ),
        (
            [
                "--from",
                "0,0:0,1",
                "--from",
                "0,0:1,0",
                "--from",
                "0,0:1,0",
                "--from",
                "0,0:1,0",
                "--to",
                "0,0:1,0",
                "--within",
                "3",
            ],
            "--from: 4 is invalid",
        ),
        (["--from", "0,0:0,1", "--from", "0,0:1,0", "--within", "3"], "--to: missing"),
        (
            ["--from", "0,0:0,1", "--from", "0,0:1,0", "--port", "any", "--within", "3"],
            "--port: 'any' is invalid",
        ),
        (
            ["--from", "0,0:0,1", "--from", "0,0:1,0", "--to", "0,0:1,0", "--within", "1001"],
            "--within",
        ),
    ],
)
def test_fleet_refusals(capsys: pytest.CaptureFixture[str], argv: list[str], needle: str) -> None:
    status, out, err = run(capsys, "sail", *argv)
    assert status == 2 and out == ""
    assert needle in err and len(err.strip().splitlines()) == 1


def test_too_big_board_refused_with_count_and_limit(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    hexes = [
        {"hex": [q, r], "terrain": "sea", "number": 6}
        for q in range(-8, 9)
        for r in range(-8, 9)
        if abs(q + r) <= 8
    ]
    path = tmp_path / "big.json"
    path.write_text(json.dumps({"hexes": hexes}))
    argv = ["sail", "--board", str(path), "--from", "0,0:0,1", "--from", "1,0:1,1"]
    status, _, err = run(capsys, *argv, "--from", "2,0:2,1", "--to", "0,0:1,0", "--within", "5")
    assert status == 2
    assert "36,180,200 joint states" in err and "at most 400,000" in err


def test_ports_are_targets_and_say_the_trade(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    wool, generic = edge((0, 2), (0, 3)), edge((1, 1), (2, 1))
    board = demo_board().replace(harbours={wool: HarbourKind.WOOL, generic: HarbourKind.GENERIC})
    path = tmp_path / "ports.json"
    board.save(path)
    status, out, err = run(
        capsys, "sail", "--board", str(path), "--from", "0,2:1,2", "--port", "wool", "--json"
    )
    assert status == 0 and err == ""
    got = json.loads(out)
    assert got["to"] == [[[0, 2], [0, 3]]]
    assert got["ports"] == [
        {
            "edge": [[0, 2], [0, 3]],
            "kind": "wool",
            "ratio": 2,
            "resource": "wool",
            "trade": "2 wool of the cargo for 1 card of any resource",
        }
    ]
    argv = ["sail", "--board", str(path), "--from", "0,2:1,2", "--from", "0,0:0,1"]
    status, out, _ = run(capsys, *argv, "--port", "any", "--within", "6")
    assert status == 0
    assert "port at 0,2:0,3 (wool)" in out and "port at 1,1:2,1 (generic)" in out
    assert port_edges(board, ["any"]) == {wool, generic}
    assert [p.kind for p in ports(board)] == [HarbourKind.WOOL, HarbourKind.GENERIC]


def test_port_trades_only_cargo_at_its_rate() -> None:
    e = edge((0, 2), (0, 3))
    g = Port(e, HarbourKind.GENERIC)
    assert g.tradable([Resource.ORE] * 3) == (Resource.ORE,)
    assert g.tradable([Resource.ORE, Resource.ORE, Resource.WOOL]) == ()
    ore = Port(e, HarbourKind.ORE)
    assert ore.tradable([Resource.ORE, Resource.ORE]) == (Resource.ORE,)
    assert ore.tradable([Resource.WOOL, Resource.WOOL]) == ()
    with pytest.raises(Exception, match="cargo"):
        g.tradable([Resource.ORE] * 4)


def test_fleet_picture(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    png = tmp_path / "fleet.png"
    argv = ["sail", "--from", "0,0:0,1", "--from", "1,1:1,2", *HOME, "--within", "5"]
    status, out, _ = run(capsys, *argv, "--png", str(png))
    assert status == 0 and png.stat().st_size > 10_000
    assert f"picture: {png}" in out


def test_library_fleet_settings() -> None:
    voyage = fleet(demo_board(), SHIPS, near=CORNERS, within=4, rollers=Rollers.ALL)
    assert voyage.odds.space.rollers is Rollers.ALL
    with pytest.raises(Exception, match="within"):
        fleet(demo_board(), SHIPS, near=CORNERS, within=-1)


def test_fleet_already_home(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["sail", "--from", "0,1:0,2", "--from", "0,1:1,1", "--near", "0,1:0,2:1,1"]
    status, out, _ = run(capsys, *argv, "--within", "3")
    assert status == 0 and "already stands on a scoring edge: 0 rolls" in out
    status, out, _ = run(capsys, *argv, "--within", "3", "--json")
    got = json.loads(out)
    assert got["at_target"] is True and got["expected_rolls"] == 0.0
    assert got["odds"]["probability"] == 1.0
