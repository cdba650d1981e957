"""Progress bars of the long searches: CP-SAT solves of ``isles layout``.

A newcomer's run: ``isles layout --free-shape --players 4 --time-limit 5`` ran
11 s on a terminal and showed nothing (the rally's budget search: tests/rally/test_rally.py).
The decision is tested without timing: ``progress=True``
writes a bar at once, ``False`` and ``None`` off a terminal write nothing.
"""

from __future__ import annotations

import sys

import pytest

import isles.solvers.layout.solve as layout_solver
from isles.models.layout.questions import Layout
from isles.models.layout.setup import SetupRequest
from isles.solvers.layout.solve import lay_out, layout_boards, next_move, solve_layout


def test_a_solve_shows_its_bar_when_asked(capsys: pytest.CaptureFixture[str]) -> None:
    result = solve_layout(SetupRequest.hexagon(1), time_limit=5, progress=True)
    assert result.status.value == "optimal"
    err = capsys.readouterr().err
    assert "CP-SAT" in err and "/5 s" in err  # seconds against the time limit


@pytest.mark.parametrize("progress", [False, None])
def test_no_bar_unasked_off_a_terminal(
    progress: bool | None, capsys: pytest.CaptureFixture[str]
) -> None:
    solve_layout(SetupRequest.hexagon(1), time_limit=5, progress=progress)
    assert capsys.readouterr().err == ""


def test_automatic_progress_is_a_bar_on_a_terminal_after_a_second(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class Terminal:
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stderr", Terminal())
    assert layout_solver._shown(None) == (True, layout_solver.PROGRESS_DELAY)
    assert layout_solver._shown(True) == (True, 0.0)
    assert layout_solver._shown(False) == (False, 0.0)


def test_the_question_the_cli_asks_passes_progress(capsys: pytest.CaptureFixture[str]) -> None:
    lay_out(Layout.read({"radius": 1, "time_limit": 5}), progress=True)
    assert "CP-SAT" in capsys.readouterr().err


def test_a_series_and_a_move_show_their_bars(capsys: pytest.CaptureFixture[str]) -> None:
    layout_boards(SetupRequest.hexagon(1), 2, time_limit=5, progress=True)
    err = capsys.readouterr().err
    assert "boards" in err and "CP-SAT" in err
    from isles.models.catan import Terrain, Tile
    from isles.models.hexgrid import Hex

    req = SetupRequest.hexagon(1, fixed={Hex(0, 0): Tile(Terrain.SEA, 5)})
    next_move(req, (Terrain.FOREST, Terrain.SEA), time_limit=5, progress=True)
    assert "CP-SAT" in capsys.readouterr().err
