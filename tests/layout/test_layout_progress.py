"""Progress bars and Ctrl-C of the long searches: CP-SAT solves of ``isles layout``.

A newcomer's run: ``isles layout --free-shape --players 4 --time-limit 5`` ran
11 s on a terminal and showed nothing (the rally's budget search:
tests/rally/test_rally.py). The decision is tested without timing: ``progress=True``
writes a bar at once, ``False`` and ``None`` off a terminal write nothing.
"""

from __future__ import annotations

import _thread
import io
import sys
import threading
import time

import pytest
from ortools.sat.python import cp_model

import isles
from isles.models.catan import Terrain, Tile
from isles.models.hexgrid import Hex
from isles.models.layout.groups import constraint_groups
from isles.models.layout.questions import Layout
from isles.models.layout.request import SetupRequest
from isles.models.layout.setup import setup_request
from isles.solvers import work
from isles.solvers.layout.board import solve_layout
from isles.solvers.layout.cpsat import new_solver
from isles.solvers.layout.model import BoardModel
from isles.solvers.layout.move import next_move
from isles.solvers.layout.series import layout_boards


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


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_automatic_progress_is_a_bar_on_a_terminal_after_a_second(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert work.shown(None) == (True, work.PROGRESS_DELAY) and work.PROGRESS_DELAY == 1.0
    assert work.shown(True) == (True, 0.0)
    assert work.shown(False) == (False, 0.0)
    # The solves ask the shared core: with no delay, None draws at once on a terminal.
    monkeypatch.setattr(work, "PROGRESS_DELAY", 0.0)
    solve_layout(SetupRequest.hexagon(1), time_limit=5, progress=None)
    assert "CP-SAT" in terminal.getvalue()


def test_the_question_the_cli_asks_passes_progress(capsys: pytest.CaptureFixture[str]) -> None:
    isles.answer(Layout.read({"radius": 1, "time_limit": 5}), progress=True)
    assert "CP-SAT" in capsys.readouterr().err


def test_a_series_and_a_move_show_their_bars(capsys: pytest.CaptureFixture[str]) -> None:
    layout_boards(SetupRequest.hexagon(1), 2, time_limit=5, progress=True)
    err = capsys.readouterr().err
    assert "boards" in err and "CP-SAT" in err
    req = SetupRequest.hexagon(1, fixed={Hex(0, 0): Tile(Terrain.SEA, 5)})
    next_move(req, (Terrain.FOREST, Terrain.SEA), time_limit=5, progress=True)
    assert "CP-SAT" in capsys.readouterr().err


def test_a_series_tells_a_callback_the_boards_laid(capsys: pytest.CaptureFixture[str]) -> None:
    told: list[float] = []
    layout_boards(SetupRequest.hexagon(1), 2, time_limit=5, progress=told.append)
    assert told == [0.5, 1.0]
    assert capsys.readouterr().err == ""  # a callback draws no bar


def test_ctrl_c_during_a_cp_sat_solve_stops_the_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C asks CP-SAT to stop (``stop_search``) and raises once the search has ended.

    The old wait joined the search's thread: in CPython 3.11 an interrupted
    ``Thread.join`` marks the running thread stopped, so the loop that was to
    call ``stop_search`` saw no thread alive, the interrupt was raised and the
    search ran on in the background to its time limit.
    """
    stops: list[float] = []
    stop_search = cp_model.CpSolver.stop_search

    def stop(self: cp_model.CpSolver) -> None:
        stops.append(time.monotonic())
        stop_search(self)

    monkeypatch.setattr(cp_model.CpSolver, "stop_search", stop)
    request = setup_request(players=4)  # a free shape no solve proves within 30 s
    model = BoardModel(request, constraint_groups(request))
    model.cp.maximize(model.colour)
    solver = new_solver(30.0, 1, 0)
    threading.Timer(1.0, _thread.interrupt_main).start()
    began = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        solver.solve(model.cp)
    assert stops, "Ctrl-C never asked CP-SAT to stop"
    assert time.monotonic() - began < 10.0  # a generous bound, not a speed test
