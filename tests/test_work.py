"""The solver core every long solve shares: time limits, progress, Ctrl-C (solvers/work.py)."""

from __future__ import annotations

import _thread
import io
import threading
import time

import pytest

from isles.models.errors import InvalidInput
from isles.solvers.work import (
    Bar,
    Deadline,
    check_progress,
    check_time_limit,
    interruptible,
    shown,
)


def test_a_callback_is_told_the_fraction_done_and_no_bar_is_drawn(
    capsys: pytest.CaptureFixture[str],
) -> None:
    seen: list[float] = []
    with Bar(3, "games", seen.append) as bar:
        bar.update(1)
        bar.reach(3)
        bar.reach(2)  # never back
    assert seen == [pytest.approx(1 / 3), 1.0]
    assert capsys.readouterr().err == ""


def test_a_bar_asked_is_drawn_on_stderr_and_none_otherwise(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    err = io.StringIO()
    monkeypatch.setattr("sys.stderr", err)
    with Bar(2, "boards", True, unit="board") as bar:
        bar.update(2)
    assert "boards" in err.getvalue()
    err.truncate(0)
    with Bar(2, "boards", False) as bar:
        bar.update(2)
    assert err.getvalue() == ""
    assert shown(None) == (False, 1.0)  # stderr is no terminal here


def test_a_time_limit_is_a_finite_number_of_seconds_or_none() -> None:
    assert check_time_limit(1) == 1.0 and check_time_limit(None) is None
    for bad in (0, -1, float("inf"), float("nan"), True, "2"):
        with pytest.raises(InvalidInput, match="time_limit"):
            check_time_limit(bad)


def test_a_deadline_counts_on_its_clock() -> None:
    now = [10.0]
    deadline = Deadline(5.0, clock=lambda: now[0])
    assert not deadline.passed() and deadline.left() == 5.0
    now[0] = 16.0
    assert deadline.passed() and deadline.left() == 0.0 and deadline.elapsed() == 6.0
    assert not Deadline(None).passed()


def test_a_search_in_c_is_stopped_at_once_by_ctrl_c() -> None:
    stopped = threading.Event()

    def search() -> int:
        stopped.wait(5.0)
        return 1

    threading.Timer(0.2, _thread.interrupt_main).start()
    began = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        interruptible(search, stop=stopped.set)
    assert stopped.is_set() and time.monotonic() - began < 2.0


def test_a_search_s_error_is_raised_in_the_caller() -> None:
    def search() -> int:
        raise ValueError("no")

    with pytest.raises(ValueError, match="no"):
        interruptible(search, stop=lambda: None)


def test_progress_is_true_false_none_or_a_callable() -> None:
    import isles

    for good in (True, False, None, print):
        assert check_progress(good) is good
    for bad in ("yes", 5, object()):
        with pytest.raises(InvalidInput, match=r"progress: .* expected True, False, None or"):
            Bar(3, "games", bad)  # type: ignore[arg-type]
        trip = isles.rally.Trip.read({"board": isles.rally.beginner_board(), "start": [0, -3]})
        with pytest.raises(InvalidInput, match="progress"):
            isles.answer(trip, progress=bad)  # type: ignore[call-overload]
