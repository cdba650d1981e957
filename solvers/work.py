"""What every long solve needs: its time limit, its progress, and Ctrl-C that stops it at once.

The one definition the games' solvers share (docs/architecture.md, "The solver
core"). A solve given a time limit counts it with a :class:`Deadline`; it shows
its progress through a :class:`Bar` (a tqdm bar on stderr, a caller's callback,
or nothing, as its ``progress`` argument asks); a search that runs in C (CP-SAT,
Z3) runs through :func:`interruptible`, so that Ctrl-C stops it at once rather
than when its time limit runs out. Nothing here prints but the bar.
"""

from __future__ import annotations

import math
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from isles.models.errors import InvalidInput

__all__ = [
    "PROGRESS_DELAY",
    "Bar",
    "Deadline",
    "Progress",
    "check_progress",
    "check_time_limit",
    "interruptible",
    "raise_interrupt",
    "shown",
]

#: How a caller asks for progress: ``True`` a bar on stderr at once, ``False`` none,
#: ``None`` a bar when stderr is a terminal and the work has taken
#: :data:`PROGRESS_DELAY` seconds (quick answers print nothing), or a callable
#: told the fraction done (0..1) as the work goes on (the web app's jobs).
Progress = bool | None | Callable[[float], None]

#: Seconds of work before an automatic bar (``progress=None``) shows.
PROGRESS_DELAY = 1.0

T = TypeVar("T")


def check_progress(progress: object) -> Progress:
    """``progress`` as a caller gave it, checked: True, False, None or a callable.

    Examples
    --------
    >>> check_progress(None), check_progress(True)
    (None, True)
    >>> check_progress("yes")
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: progress: 'yes' is invalid; expected True, False, None ...
    """
    if progress is None or isinstance(progress, bool) or callable(progress):
        return progress
    raise InvalidInput(
        "progress", progress, "True, False, None or a callable told the fraction done (0..1)"
    )


def shown(progress: Progress) -> tuple[bool, float]:
    """Whether ``progress`` asks for a bar on stderr, and after how many seconds.

    Examples
    --------
    >>> shown(True), shown(False), shown(lambda done: None)
    ((True, 0.0), (False, 0.0), (False, 0.0))
    """
    if progress is None:
        return bool(getattr(sys.stderr, "isatty", lambda: False)()), PROGRESS_DELAY
    if callable(progress):
        return False, 0.0
    return bool(progress), 0.0


class Bar:
    """The progress of one long loop: a tqdm bar on stderr and/or a callback.

    Parameters
    ----------
    total : float or None
        The steps to come (None when unknown: the bar counts without a end).
    desc : str
        The bar's label (``"CP-SAT"``, ``"start groups"``).
    progress : bool, None or callable
        As :data:`Progress`: a callable is told ``done / total`` after each
        update (never with an unknown total).
    unit : str
        What a step is (``"game"``, ``"s"``).
    bar_format : str, optional
        tqdm's format (a bar over seconds shows ``n/total s``).

    Examples
    --------
    >>> seen = []
    >>> with Bar(4, "games", seen.append) as bar:
    ...     for _ in range(4):
    ...         bar.update(1)
    >>> seen
    [0.25, 0.5, 0.75, 1.0]
    """

    def __init__(
        self,
        total: float | None,
        desc: str,
        progress: Progress,
        *,
        unit: str = "it",
        bar_format: str | None = None,
    ) -> None:
        check_progress(progress)
        self.total = total
        self.done = 0.0
        self._report = progress if callable(progress) else None
        self._bar: Any = None
        show, delay = shown(progress)
        if show:
            from tqdm import tqdm  # loaded only when a bar is shown: tests and pipes stay quiet

            options: dict[str, Any] = {"bar_format": bar_format} if bar_format else {}
            self._bar = tqdm(
                total=total,
                desc=desc,
                unit=unit,
                delay=delay,
                leave=False,
                file=sys.stderr,
                **options,
            )

    def update(self, steps: float = 1) -> None:
        """``steps`` more done."""
        self.done += steps
        if self._bar is not None:
            self._bar.update(steps)
        if self._report is not None and self.total:
            self._report(min(1.0, self.done / self.total))

    def reach(self, done: float) -> None:
        """``done`` steps done in all (never goes back)."""
        if done > self.done:
            self.update(done - self.done)
        elif self._bar is not None:
            self._bar.update(0)  # redraws the time spent (after the delay only)

    def describe(self, text: str) -> None:
        """A new label (the phase of the work); a bar that waits for its delay stays unseen."""
        if self._bar is not None:
            self._bar.set_description_str(text, refresh=not self._bar.delay)

    def note(self, text: str) -> None:
        """A note after the bar (the best objective so far)."""
        if self._bar is not None:
            self._bar.set_postfix_str(text, refresh=False)

    def close(self) -> None:
        """The bar ends (the line is cleared)."""
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def __enter__(self) -> Bar:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def check_time_limit(time_limit: object, field: str = "time_limit") -> float | None:
    """A time limit in seconds, checked: a finite number > 0, or None for no limit.

    Examples
    --------
    >>> check_time_limit(2), check_time_limit(None)
    (2.0, None)
    >>> check_time_limit(0)
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: time_limit: 0 is invalid; expected a number of seconds ...
    """
    if time_limit is None:
        return None
    if (
        isinstance(time_limit, bool)
        or not isinstance(time_limit, int | float)
        or not math.isfinite(time_limit)
        or time_limit <= 0
    ):
        raise InvalidInput(field, time_limit, "a number of seconds > 0, or None")
    return float(time_limit)


class Deadline:
    """When a solve's time runs out: its seconds from now, or never (None).

    Parameters
    ----------
    seconds : float or None
        The time limit; None (or infinity) is no limit.
    clock : callable
        The clock read (``time.monotonic``; tests give their own).

    Examples
    --------
    >>> Deadline(None).passed(), Deadline(None).left()
    (False, inf)
    >>> ticks = iter([0.0, 5.0])
    >>> Deadline(3.0, clock=lambda: next(ticks)).passed()
    True
    """

    def __init__(
        self, seconds: float | None, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.seconds = seconds
        self.clock = clock
        self.start = clock()
        self.at = math.inf if seconds is None else self.start + seconds

    def passed(self) -> bool:
        """Whether the time is up."""
        return self.clock() >= self.at

    def left(self) -> float:
        """Seconds left (``inf`` without a limit; never below 0)."""
        return max(0.0, self.at - self.clock())

    def elapsed(self) -> float:
        """Seconds since the solve began."""
        return self.clock() - self.start

    @contextmanager
    def bar(self, desc: str, progress: Progress) -> Iterator[Bar]:
        """A bar over the seconds of the limit (none without a limit): :meth:`tick` it.

        Examples
        --------
        >>> deadline = Deadline(10.0)
        >>> with deadline.bar("budget search", False) as bar:
        ...     deadline.tick(bar)
        """
        limit = None if self.seconds is None or math.isinf(self.seconds) else self.seconds
        with Bar(
            limit,
            desc,
            progress if limit is not None else False,
            unit="s",
            bar_format="{desc}: {percentage:3.0f}%|{bar}| {n:.0f}/{total:.0f} s{postfix}",
        ) as bar:
            yield bar

    def tick(self, bar: Bar) -> None:
        """Move ``bar`` (from :meth:`bar`) to the seconds spent."""
        if bar.total is not None:
            bar.reach(min(self.elapsed(), bar.total))


def raise_interrupt() -> None:
    """A C solver said it was interrupted: the interrupt goes on, never a result.

    The signal is raised again for Python's handler (the command line's records
    it; the default one raises KeyboardInterrupt), and KeyboardInterrupt is
    raised whatever that handler does.
    """
    if threading.current_thread() is threading.main_thread():
        signal.raise_signal(signal.SIGINT)
    raise KeyboardInterrupt


#: How often the main thread looks up while a search runs in C (seconds): the delay of a stop.
POLL = 0.05


def interruptible(
    search: Callable[[], T],
    stop: Callable[[], object],
    tick: Callable[[], object] | None = None,
) -> T:
    """Run a search written in C so that Ctrl-C stops it at once.

    Python runs its signal handlers only between bytecodes of the main thread,
    so a search in C on the main thread would hear Ctrl-C only when it ended.
    Here it runs on a worker thread while the main thread waits, takes the
    KeyboardInterrupt, calls ``stop`` until the search has ended, and raises
    it again; the command line then exits 130. Off the main thread (a web
    job's, a Dask worker's) the search simply runs.

    Parameters
    ----------
    search : callable
        The search; its result is returned, its exception raised here.
    stop : callable
        Asks the search to stop (CP-SAT's ``stop_search``, Z3's ``interrupt``).
    tick : callable, optional
        Called at every look-up (a bar's redraw).

    Returns
    -------
    object
        What ``search`` returned.

    Examples
    --------
    >>> interruptible(lambda: 6 * 7, stop=lambda: None)
    42
    """
    if threading.current_thread() is not threading.main_thread():
        return search()
    outcome: list[T] = []
    failure: list[BaseException] = []
    # Waited for by an Event, not Thread.join: an interrupted join marks a thread that
    # still runs as stopped (CPython 3.11, bpo-45274's fix), and the search would go on.
    ended = threading.Event()

    def work() -> None:
        try:
            outcome.append(search())
        except BaseException as exc:  # handed to the main thread, raised there
            failure.append(exc)
        finally:
            ended.set()

    threading.Thread(target=work, name="isles-search", daemon=True).start()
    try:
        while not ended.wait(POLL):
            if tick is not None:
                tick()
    except KeyboardInterrupt:
        # Stop until the search ends: a stop asked before it started is lost.
        while not ended.is_set():
            stop()
            ended.wait(POLL)
        raise
    if failure:
        raise failure[0]
    return outcome[0]
