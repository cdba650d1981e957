"""Board pictures stay bounded: big boards are drawn as cells, or refused before any work."""

from __future__ import annotations

import json
from pathlib import Path

import matplotlib.pyplot as plt
import pytest

import isles.draw as draw
from isles.cli import main
from isles.models.board import Board, beginner_board
from isles.models.catan import Terrain, Tile
from isles.models.errors import InvalidInput
from isles.models.hexgrid import Hex, hexagon


def _forest(radius: int) -> Board:
    return Board({h: Tile(Terrain.FOREST, 5) for h in hexagon(radius)})


def test_a_board_past_the_detail_limit_is_one_collection_without_labels() -> None:
    board = _forest(26)  # 2,107 hexes, each with a token
    assert len(board) > draw.DETAIL_LIMIT
    fig, ax = draw.board_figure(board)
    # One artist per hex (and two texts per token) made 10**5 hexes take minutes.
    assert len(ax.patches) == 0 and len(ax.texts) == 0
    assert len(ax.collections[0].get_paths()) == len(board)
    path = [Hex(q, 0) for q in range(-26, 27)] * 5  # 265 hexes: one line
    draw.draw_path(ax, path)
    assert len(ax.texts) == 0 and len(ax.lines) == 3  # the line, the start, the end
    plt.close(fig)


def test_a_small_board_is_drawn_in_full() -> None:
    fig, ax = draw.board_figure(beginner_board())
    assert len(ax.texts) == 2 * 18  # a number and its pips on each token
    plt.close(fig)


def test_the_empty_board_draws() -> None:
    fig, ax = draw.board_figure(Board({}), title="nothing laid")
    assert len(ax.collections[0].get_paths()) == 0
    plt.close(fig)


def test_a_board_past_the_drawing_limit_is_refused_with_count_and_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(draw, "MAX_DRAWN_HEXES", 30)
    with pytest.raises(InvalidInput, match=r"board: the board has 37 hexes.*at most 30"):
        draw.board_figure(beginner_board())


def test_rally_refuses_a_picture_too_big_before_the_search(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import isles.solvers.rally.trip as rally_solver

    def no_search(*args: object, **kwargs: object) -> None:
        raise AssertionError("searched before refusing the picture")

    monkeypatch.setattr(draw, "MAX_DRAWN_HEXES", 30)
    # what answers a Trip: its route, or its best start
    monkeypatch.setattr(rally_solver, "route_of", no_search)
    monkeypatch.setattr(rally_solver, "best_start", no_search)
    picture = tmp_path / "route.png"
    assert main(["rally", "--start", "0,-3", "--png", str(picture)]) == 2
    err = capsys.readouterr().err
    assert err.strip() == (
        "isles rally: error: --png: the board has 37 hexes, too many to draw; expected a "
        "board of at most 30 hexes to draw (or no picture)"
    )
    assert not picture.exists()


def test_sail_refuses_a_picture_too_big_before_the_search(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import isles.solvers.ships.voyage as voyage

    def no_search(*args: object, **kwargs: object) -> None:
        raise AssertionError("searched before refusing the picture")

    monkeypatch.setattr(draw, "MAX_DRAWN_HEXES", 30)
    monkeypatch.setattr(voyage, "navigate", no_search)
    argv = ["sail", "--from", "0,-1:1,-1", "--to", "2,0:2,1", "--png", str(tmp_path / "s.png")]
    assert main(argv) == 2
    assert "--png: the board has 37 hexes" in capsys.readouterr().err


def test_the_sail_overlay_is_a_few_collections(tmp_path: Path) -> None:
    from isles.commands import sail as sail_command
    from isles.models.hexgrid import parse_edge
    from isles.models.ships.demo import demo_board
    from isles.ships import sail

    start = parse_edge("0,-1:1,-1", "--from")
    voyage = sail(demo_board(), start, [parse_edge("2,0:2,1", "--to")])
    fig, ax = draw.board_figure(demo_board(), legend=False)
    sail_command._overlay(ax, voyage)
    assert len(ax.lines) == 1  # the start's ring; the edges and arrows are collections
    assert len(ax.texts) == 2 * sum(t.number is not None for t in demo_board().tiles.values())
    plt.close(fig)


def test_a_rally_picture_of_a_big_board_is_drawn(tmp_path: Path) -> None:
    board = {
        "hexes": [
            {
                "hex": list(h),
                "terrain": "forest" if max(map(abs, (*h, -h[0] - h[1]))) < 26 else "sea",
                **({"number": 5} if max(map(abs, (*h, -h[0] - h[1]))) < 26 else {}),
            }
            for h in hexagon(26)
        ]
    }
    path = tmp_path / "big.json"
    path.write_text(json.dumps(board))
    picture = tmp_path / "big.png"
    assert (
        main(
            [
                "rally",
                "--board",
                str(path),
                "--start",
                "0,-26",
                "--goal",
                "0,25",
                "--png",
                str(picture),
            ]
        )
        == 0
    )
    assert picture.stat().st_size > 0
