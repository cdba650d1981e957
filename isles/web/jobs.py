"""Solver calls of ``isles serve`` as jobs: each in its own process, time-limited, cancellable.

Implements docs/serve.md ("Jobs"): a job is started, polled and cancelled by its
id; a process per job means a cancel or a time limit really stops the solver
(CP-SAT, Z3 and NumPy do not stop for a thread), and the server stays responsive.
"""

from __future__ import annotations

import functools
import logging
import multiprocessing
import os
import re
import secrets
import signal
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.context import ForkServerContext
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any

from isles.models.errors import InvalidInput, IslesError
from isles.web.tasks.base import Task

__all__ = [
    "LEASE",
    "MAX_KEPT",
    "MAX_QUEUED",
    "MAX_RUNNING",
    "RESIDENT_IDLE",
    "Busy",
    "Job",
    "JobRunner",
    "UnknownJob",
]

#: Solver processes at once (the machine's cores): the running jobs' and a resident one
#: kept between jobs; a new job past that waits in the queue.
MAX_RUNNING = 2
#: Jobs waiting for a free slot; one more is refused, "busy" (HTTP 503, Retry-After).
MAX_QUEUED = 8
#: Seconds a job lives without being asked about: each poll renews it; a job whose
#: page was closed (nobody polls) is cancelled then, and its process and memory freed.
LEASE = 15.0
#: Seconds a refused ("busy") request is told to wait before it asks again.
RETRY_AFTER = 2
#: Finished jobs kept for their result; the oldest is forgotten past this.
MAX_KEPT = 64
#: Seconds a job's process gets to exit after its answer or a cancel before it is killed.
_GRACE = 2.0
#: Seconds a resident process (the lighthouse's, holding its kit's table) lives without a
#: job: then it is ended and its memory freed, so an idle server holds no table; the
#: next job of its kind starts a fresh one, which reads the table back from the cache.
RESIDENT_IDLE = 300.0

_log = logging.getLogger("isles.web")


class Busy(IslesError):
    """Every job slot is taken and the queue is full (:data:`MAX_RUNNING`, :data:`MAX_QUEUED`).

    Not bad input: the same request succeeds later; ``retry_after`` says when to ask again.
    """

    def __init__(self, message: str, retry_after: int = RETRY_AFTER) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class UnknownJob(IslesError):
    """No job has this id (never started, or forgotten)."""


@dataclass
class Job:
    """A solver call under way or finished.

    Attributes
    ----------
    id : str
        Random, unguessable.
    kind : str
        The task's name (``plunder``, ``route``, ...).
    seconds : float
        Its time limit.
    started : float
        ``time.monotonic()`` when it started running (when it was queued, until then).
    state : str
        ``queued`` (waiting for a slot; ``ahead`` jobs wait before it),
        ``running``, ``done`` (``result`` is the answer), ``error`` (``error``
        is the library's message and field), ``timed_out`` or ``cancelled``.
    lease : float
        ``time.monotonic()`` past which a job nobody asks about is cancelled.
    """

    id: str
    kind: str
    seconds: float
    started: float
    process: BaseProcess | None
    connection: Connection | None
    state: str = "running"
    resident: bool = False
    progress: float | None = None
    result: dict[str, Any] | None = None
    error: dict[str, Any] | None = None
    ended: float | None = field(default=None)
    lease: float = 0.0
    body: object = None
    args: dict[str, Any] | None = None
    wants_resident: bool = False
    task: Task | None = None
    ahead: int = 0

    def to_dict(self) -> dict[str, Any]:
        """What ``GET /api/jobs/<id>`` answers (docs/serve.md, "Jobs")."""
        now = self.ended if self.ended is not None else time.monotonic()
        return {
            "job": self.id,
            "kind": self.kind,
            "state": self.state,
            "elapsed": 0.0 if self.state == "queued" else round(now - self.started, 3),
            "time_limit": self.seconds,
            "ahead": self.ahead if self.state == "queued" else 0,
            "progress": self.progress,
            "result": self.result,
            "error": self.error,
        }


def _answer(
    kind: str, call: Callable[[], dict[str, Any]], body: object = None
) -> tuple[str, dict[str, Any]]:
    """Run one call: its answer, or the library's error (its values as ``body`` sent them);
    a bug is logged, never sent."""
    try:
        return ("done", call())
    except IslesError as exc:
        return ("error", error_json(exc, body))
    except MemoryError:
        return ("error", {"field": None, "message": "out of memory for this request"})
    except Exception:  # a bug: logged on the server's console, never sent to the page
        _log.exception("job %s failed", kind)
        return ("error", {"field": None, "message": "internal error (see the server's log)"})


def _quiet() -> None:
    """No progress bars from a job's process: the server's console is not the player's.

    The library draws tqdm bars on a terminal unasked; a job reports its progress
    to its page, so every bar in this process is made disabled.
    """
    try:
        import tqdm.std
    except ImportError:  # pragma: no cover - tqdm is a dependency
        return
    cls: Any = tqdm.std.tqdm
    if getattr(cls, "_isles_quiet", False):
        return
    original = cls.__init__

    def init(self: Any, *args: Any, **kwargs: Any) -> None:
        kwargs["disable"] = True
        original(self, *args, **kwargs)

    cls.__init__ = init
    cls._isles_quiet = True


def _child(
    kind: str,
    body: object,
    args: dict[str, Any],
    connection: Connection,
    own: Task | None = None,
) -> None:
    """The job's process: call the library on the request the server read, send the answer once.

    ``args`` is what the task's reader made of the request in the server (read
    once, there); ``body`` the request as sent, for the errors' values.
    """
    from isles.web.tasks import TASKS  # loaded once by the fork server (preload)

    # Ctrl-C in the server's terminal reaches every process of the group: the server
    # stops its jobs itself, so a job ignores it rather than print a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _quiet()
    task = own if own is not None else TASKS[kind]
    _send(connection, _answer(kind, lambda: task.run(args), body))
    connection.close()


def _send(connection: Connection, message: object) -> None:
    """Send to the server; when it has gone (a cancel closed the pipe), end quietly.

    A cancelled job's process is told by the closed pipe: it exits at once, with
    no traceback on the server's console (a cancel is no error).
    """
    try:
        connection.send(message)
    except OSError:  # BrokenPipeError, ConnectionResetError: nobody is listening
        os._exit(0)


def _resident_child(kind: str, connection: Connection, own: Task | None = None) -> None:
    """A resident process: answers its kind's jobs one after another, keeping its cache."""
    from isles.web.tasks import TASKS

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _quiet()
    factory = (own if own is not None else TASKS[kind]).resident
    assert factory is not None
    serve = factory(lambda fraction: _send(connection, ("progress", fraction)))
    while True:
        try:
            body, args = connection.recv()
        except (EOFError, OSError):
            return  # the server went away
        _send(connection, _answer(kind, functools.partial(serve, args), body))


@dataclass
class _Resident:
    process: BaseProcess
    connection: Connection
    busy: bool = False
    #: ``time.monotonic()`` when it last started or finished a job (its idle time's start)
    since: float = 0.0


def process_memory(pid: int | None) -> dict[str, int] | None:
    """A process's memory in bytes: resident (``rss``, the mapped table's pages too) and
    its own (``anon``, what ending it frees for sure), from ``/proc``; None elsewhere.

    Examples
    --------
    >>> import os, sys
    >>> memory = process_memory(os.getpid())
    >>> memory is None or memory["rss"] >= memory["anon"] > 0
    True
    """
    if pid is None:
        return None
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError:  # not Linux, or the process has ended
        return None
    fields = dict(line.split(":", 1) for line in lines if ":" in line)
    try:
        return {
            "rss": int(fields["VmRSS"].split()[0]) * 1024,
            "anon": int(fields["RssAnon"].split()[0]) * 1024,
        }
    except (KeyError, ValueError, IndexError):
        return None


def _gib(memory: dict[str, int] | None) -> str:
    """Memory said on the console (``1.23 GiB``)."""
    if memory is None:
        return "memory unknown"
    return f"{memory['rss'] / 2**30:.2f} GiB resident ({memory['anon'] / 2**30:.2f} GiB its own)"


#: One step of an error's field path: a key (``cars``) or an index (``[0]``).
_STEP = re.compile(r"\.?([A-Za-z_][A-Za-z0-9_-]*)|\[([0-9]+)\]")


def _sent_at(body: object, field: str) -> tuple[bool, object]:
    """The value ``body`` holds at an error's field path (``cars[0].start``), if any."""
    value, at = body, 0
    while at < len(field):
        step = _STEP.match(field, at)
        if step is None:
            return False, None
        key, index = step.groups()
        if key is not None and isinstance(value, dict) and key in value:
            value = value[key]
        elif index is not None and isinstance(value, list) and int(index) < len(value):
            value = value[int(index)]
        else:
            return False, None
        at = step.end()
    return at > 0, value


def _typed_text(value: object) -> str | None:
    """The command line's text of a hex, edge or corner sent as JSON (``[9, 9]`` is ``9,9``)."""

    def pair(item: object) -> str | None:
        if not isinstance(item, list) or len(item) != 2:
            return None
        if not all(isinstance(x, int) and not isinstance(x, bool) for x in item):
            return None
        return f"{item[0]},{item[1]}"

    if (one := pair(value)) is not None:
        return one
    if isinstance(value, list) and 2 <= len(value) <= 3:
        parts = [pair(item) for item in value]
        if all(p is not None for p in parts):
            return ":".join(p for p in parts if p is not None)
    return None


def as_sent(exc: InvalidInput, body: object) -> InvalidInput:
    """The error with its value as the request sent it: a hex ``[9,9]``, not the typed ``9,9``.

    The library checks a start or a goal against the board after the question
    is read and names the value in the command line's text (``'9,9'``); the
    page sent JSON, so the value at the error's field is shown as sent.

    Examples
    --------
    >>> str(as_sent(InvalidInput("cars[0].start", "9,9", "a hex of the board"),
    ...             {"cars": [{"start": [9, 9]}]}).in_json())
    'cars[0].start: [9,9] is invalid; expected a hex of the board'
    >>> str(as_sent(InvalidInput("start", "9,9", "a hex"), {"start": "9,9"}).in_json())
    'start: "9,9" is invalid; expected a hex'
    """
    if exc.problem is not None or not isinstance(exc.value, str):
        return exc
    found, sent = _sent_at(body, exc.field)
    text = _typed_text(sent) if found else None
    if text is None or exc.value.replace(" ", "") != text:
        return exc
    return InvalidInput(exc.field, sent, exc.expected)


def error_json(exc: IslesError, body: object = None) -> dict[str, Any]:
    """The JSON of an error: the library's message and, for bad input, its field.

    Parameters
    ----------
    exc : IslesError
        The library's error.
    body : object, optional
        The request: a value the library names in the command line's text (a
        hex) is shown as the request sent it (:func:`as_sent`).

    Returns
    -------
    dict
        ``{"field": ..., "message": ...}``.

    Examples
    --------
    >>> from isles.models.errors import InvalidInput
    >>> error_json(InvalidInput("players", True, "an integer in 2..6"))
    {'field': 'players', 'message': 'players: true is invalid; expected an integer in 2..6'}
    >>> error_json(InvalidInput("start", "9,9", "a hex of the board"), {"start": [9, 9]})
    {'field': 'start', 'message': 'start: [9,9] is invalid; expected a hex of the board'}

    Notes
    -----
    A request's values are JSON, so a bad value is spelt as JSON
    (:meth:`InvalidInput.in_json`: ``true``, ``null``), also when the library
    found it past the question's reader (a board's hex, a record's answer).
    """
    if isinstance(exc, InvalidInput):
        exc = as_sent(exc, body).in_json()
    return {"field": getattr(exc, "field", None), "message": str(exc)}


def _end(process: BaseProcess, terminate: bool = False) -> None:
    """Wait for a process to exit (after ``terminate()`` when asked), killing it past the grace."""
    if terminate and process.is_alive():
        process.terminate()
    process.join(_GRACE)
    if process.is_alive():
        process.kill()
        process.join()


class JobRunner:
    """Start, poll and cancel jobs; each job runs in a fresh process of a fork server.

    The fork server imports the library once (``isles.web.tasks``), so a job's
    process starts in milliseconds with every solver library loaded. At most
    ``max_running`` solver processes live at once: a running job's each, and a
    resident one (a task's kept cache, the lighthouse's table) between its
    jobs too, which gives its slot up to a waiting job (it is ended) and ends
    by itself after ``resident_idle`` seconds without a job. Up to
    ``max_queued`` more jobs wait their turn, holding only their request; one
    more is refused (:class:`Busy`). A job is leased: every :meth:`get` renews
    it for ``lease`` seconds, and a job whose lease lapses (its page was
    closed) is cancelled by :meth:`poll_all`.

    Parameters
    ----------
    max_running : int
        Solver processes at once (running jobs and resident processes).
    max_queued : int
        Jobs waiting for a slot.
    lease : float
        Seconds a job lives without being asked about.
    resident_idle : float
        Seconds a resident process lives without a job (:data:`RESIDENT_IDLE`).
    console : callable, optional
        Told, in a line, when a resident process starts and ends and what it
        held (``isles serve`` prints it); default the ``isles.web`` log.
    """

    def __init__(
        self,
        max_running: int = MAX_RUNNING,
        max_queued: int = MAX_QUEUED,
        lease: float = LEASE,
        resident_idle: float = RESIDENT_IDLE,
        console: Callable[[str], None] | None = None,
    ) -> None:
        self.max_running = max_running
        self.max_queued = max_queued
        self.lease = lease
        self.resident_idle = resident_idle
        self._console = console if console is not None else _log.info
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._residents: dict[str, _Resident] = {}
        ctx = multiprocessing.get_context("forkserver")
        assert isinstance(ctx, ForkServerContext)
        ctx.set_forkserver_preload(["isles.web.tasks"])
        self._ctx = ctx

    def counts(self) -> tuple[int, int]:
        """Jobs running, and waiting."""
        running = sum(job.state == "running" for job in self._jobs.values())
        queued = sum(job.state == "queued" for job in self._jobs.values())
        return running, queued

    def processes(self) -> int:
        """Solver processes holding a slot: the running jobs' and the idle resident ones."""
        running, _ = self.counts()
        return running + sum(not worker.busy for worker in self._residents.values())

    def status(self) -> dict[str, Any]:
        """The slots and what holds them (``GET /api/health``'s ``slots``).

        Returns
        -------
        dict
            ``{"max_running", "max_queued", "running", "queued", "processes",
            "resident_idle", "resident": [{"kind", "pid", "busy", "idle",
            "ends_in", "memory"}]}``: ``processes`` (at most ``max_running``)
            counts the resident processes with the running jobs; a resident's
            ``idle`` and ``ends_in`` are seconds (null while it works) and its
            ``memory`` is :func:`process_memory`.
        """
        running, queued = self.counts()
        now = time.monotonic()
        resident = []
        for kind, worker in self._residents.items():
            idle = None if worker.busy else round(now - worker.since, 3)
            left = None if idle is None else round(max(0.0, self.resident_idle - idle), 3)
            resident.append(
                {
                    "kind": kind,
                    "pid": worker.process.pid,
                    "busy": worker.busy,
                    "idle": idle,
                    "ends_in": left,
                    "memory": process_memory(worker.process.pid),
                }
            )
        return {
            "max_running": self.max_running,
            "max_queued": self.max_queued,
            "running": running,
            "queued": queued,
            "processes": self.processes(),
            "resident_idle": self.resident_idle,
            "resident": resident,
        }

    def start(
        self,
        kind: str,
        body: object,
        args: dict[str, Any],
        seconds: float,
        resident: bool = False,
        task: Task | None = None,
    ) -> Job:
        """Start a job on the request its task's reader read (once, in the server), or queue it.

        Parameters
        ----------
        kind, body, seconds
            The task's name, the request (for its errors' values), the time
            limit (counted from when it runs).
        args : object
            What the task's reader made of the request: the job's process runs
            the task on it, and never reads the request again.
        resident : bool
            The task keeps a cache between jobs (``Task.resident``): the job goes
            to its kind's resident process when that one is idle (started on
            first use), else to a fresh process of its own.
        task : Task, optional
            A task of the caller's, not in ``isles.web.tasks.TASKS`` (sent to the
            job's process by reference: its functions must be importable there).

        Returns
        -------
        Job
            ``running``, or ``queued`` when every slot is taken.

        Raises
        ------
        Busy
            :attr:`max_running` jobs run and :attr:`max_queued` wait.
        """
        self.poll_all()
        running, queued = self.counts()
        if running >= self.max_running and queued >= self.max_queued:
            raise Busy(
                f"the server is busy: {running} jobs are running and {queued} waiting; "
                f"try again in a few seconds"
            )
        now = time.monotonic()
        job = Job(secrets.token_hex(12), kind, seconds, now, None, None, state="queued")
        job.body, job.args, job.wants_resident, job.lease = body, args, resident, now + self.lease
        job.task = task
        self._jobs[job.id] = job
        self._advance()
        # Counted from the answer to its starter (starting the first process can take
        # a second or more while the fork server loads the library).
        job.lease = time.monotonic() + self.lease
        self._forget_old()
        return job

    def _launch(self, job: Job) -> None:
        kind, body, args = job.kind, job.body, job.args
        worker = self._residents.get(kind)
        if job.wants_resident and (worker is None or not worker.busy):
            if worker is None or not worker.process.is_alive():
                near, far = self._ctx.Pipe(duplex=True)
                process = self._ctx.Process(
                    target=_resident_child, args=(kind, far, job.task), daemon=True
                )
                process.start()
                far.close()
                worker = _Resident(process, near)
                self._residents[kind] = worker
                self._console(
                    f"the {kind} jobs' process (pid {process.pid}) stays between jobs to keep "
                    f"its cache: it holds one of the {self.max_running} job slots (given up "
                    f"to a waiting job) and ends after {self.resident_idle:g} s without a job"
                )
            worker.busy = True
            worker.connection.send((body, args))
            job.process, job.connection, job.resident = worker.process, worker.connection, True
        else:
            receiver, sender = self._ctx.Pipe(duplex=False)
            process = self._ctx.Process(
                target=_child, args=(kind, body, args, sender, job.task), daemon=True
            )
            process.start()
            sender.close()
            job.process, job.connection = process, receiver
        job.state, job.body, job.args, job.started = "running", None, None, time.monotonic()

    def _advance(self) -> None:
        """Start waiting jobs, oldest first, while a slot is free; number the rest."""
        ahead = 0
        for job in list(self._jobs.values()):
            if job.state != "queued":
                continue
            if self._slot_for(job):
                try:
                    self._launch(job)
                except Exception:  # a bug or no more processes: this job fails, once
                    _log.exception("job %s %s could not start", job.kind, job.id)
                    job.state, job.body, job.ended = "error", None, time.monotonic()
                    job.error = {"field": None, "message": "internal error (see the server's log)"}
            else:
                job.ahead = ahead
                ahead += 1

    def _slot_for(self, job: Job) -> bool:
        """Whether ``job`` can run now: its kind's idle resident process takes it, or a
        slot is free, or an idle resident process gives its slot up (it is ended)."""
        worker = self._residents.get(job.kind)
        if job.wants_resident and worker is not None and not worker.busy:
            return True
        if self.processes() < self.max_running:
            return True
        idle = [kind for kind, other in self._residents.items() if not other.busy]
        if not idle:
            return False
        self._end_resident(idle[0], why=f"its slot went to a waiting {job.kind} job")
        return True

    def get(self, job_id: str) -> Job:
        """The job, polled; asking renews its lease.

        Raises
        ------
        UnknownJob
        """
        job = self._jobs.get(job_id)
        if job is None:
            raise UnknownJob(f"job: no job {job_id[:40]!r} (finished long ago, or never started)")
        self.poll_all()  # first: a lease that lapsed is not renewed by a late poll
        if job.state in ("running", "queued"):
            job.lease = time.monotonic() + self.lease
        return job

    def cancel(self, job_id: str) -> Job:
        """Stop a running or waiting job (a finished one is left as it is)."""
        job = self.get(job_id)
        if job.state in ("running", "queued"):
            self._stop(job, "cancelled")
            self._advance()
        return job

    def poll_all(self) -> None:
        """Collect answers, stop jobs past their time limit or lease, start waiting ones."""
        now = time.monotonic()
        for job in list(self._jobs.values()):
            if job.state in ("running", "queued") and now > job.lease:
                _log.info(
                    "job %s %s: nobody asked for %g s, cancelled", job.kind, job.id, self.lease
                )
                self._stop(job, "cancelled")
            else:
                self._poll(job)
        for kind, worker in list(self._residents.items()):
            if worker.busy:
                continue
            if not worker.process.is_alive():
                self._end_resident(kind, why="it died")
            elif now - worker.since > self.resident_idle:
                self._end_resident(kind, why=f"{self.resident_idle:g} s without a job")
        self._advance()

    def shutdown(self) -> None:
        """Stop every running or waiting job and resident process (the server is stopping)."""
        for job in self._jobs.values():
            if job.state in ("running", "queued"):
                self._stop(job, "cancelled")
        for kind in list(self._residents):
            self._end_resident(kind, why="the server stops")

    def _end_resident(self, kind: str, terminate: bool = False, why: str | None = None) -> None:
        worker = self._residents.pop(kind, None)
        if worker is None:
            return
        held = process_memory(worker.process.pid)
        worker.connection.close()
        _end(worker.process, terminate=terminate)
        if why is not None:
            self._console(
                f"the {kind} jobs' process (pid {worker.process.pid}) ended ({why}); "
                f"it held {_gib(held)}"
            )

    def _poll(self, job: Job) -> None:
        if job.state != "running" or job.connection is None:
            return
        message = None
        try:
            while message is None and job.connection.poll():
                message = job.connection.recv()
                if message[0] == "progress":  # a resident job's fraction done (0..1)
                    job.progress, message = float(message[1]), None
        except (EOFError, OSError):
            message = ("error", {"field": None, "message": "the job's process ended unexpectedly"})
        if message is not None:
            state, payload = message
            job.state = state
            if state == "done":
                job.result = payload
            else:
                job.error = payload
            self._finish(job)
        elif time.monotonic() - job.started > job.seconds:
            self._stop(job, "timed_out")

    def _stop(self, job: Job, state: str) -> None:
        if job.state == "queued":
            job.state, job.body, job.ended = state, None, time.monotonic()
            job.started = job.ended
            return
        if job.resident:
            # Its cache goes with it: the next job of its kind starts a fresh one.
            job.process = job.connection = None
            self._end_resident(job.kind, terminate=True, why=f"its job was {state}")
        elif job.process is not None:
            _end(job.process, terminate=True)
        job.state = state
        if state == "timed_out":
            job.error = {
                "field": None,
                "message": f"time limit reached: no answer within {job.seconds:g} s",
            }
        self._finish(job)

    def _finish(self, job: Job) -> None:
        job.ended = time.monotonic()
        if job.resident:
            worker = self._residents.get(job.kind)
            if worker is not None and job.state in ("done", "error"):
                if worker.process.is_alive():
                    worker.busy, worker.since = False, job.ended
                else:
                    self._end_resident(job.kind, why="it died")
        else:
            if job.connection is not None:
                job.connection.close()
            if job.process is not None:
                _end(job.process)
        job.connection = None
        job.process = None

    def _forget_old(self) -> None:
        finished = [jid for jid, job in self._jobs.items() if job.state != "running"]
        for jid in finished[: max(0, len(finished) - MAX_KEPT)]:
            del self._jobs[jid]
