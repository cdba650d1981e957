"""Solver calls of ``isles serve`` as jobs: each in its own process, time-limited, cancellable.

Implements docs/serve.md ("Jobs"): a job is started, polled and cancelled by its
id; a process per job means a cancel or a time limit really stops the solver
(CP-SAT, Z3 and NumPy do not stop for a thread), and the server stays responsive.
"""

from __future__ import annotations

import functools
import logging
import multiprocessing
import secrets
import signal
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.context import ForkServerContext
from multiprocessing.process import BaseProcess
from typing import Any

from isles.models.errors import IslesError

__all__ = ["MAX_KEPT", "MAX_RUNNING", "Busy", "Job", "JobRunner", "UnknownJob"]

#: Jobs running at once (the machine's cores; a new one past that is refused, "busy").
MAX_RUNNING = 2
#: Finished jobs kept for their result; the oldest is forgotten past this.
MAX_KEPT = 64
#: Seconds a job's process gets to exit after its answer or a cancel before it is killed.
_GRACE = 2.0

_log = logging.getLogger("isles.web")


class Busy(IslesError):
    """Every job slot is taken (:data:`MAX_RUNNING`)."""


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
        ``time.monotonic()`` at the start.
    state : str
        ``running``, ``done`` (``result`` is the answer), ``error`` (``error``
        is the library's message and field), ``timed_out`` or ``cancelled``.
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

    def to_dict(self) -> dict[str, Any]:
        """What ``GET /api/jobs/<id>`` answers (docs/serve.md, "Jobs")."""
        now = self.ended if self.ended is not None else time.monotonic()
        return {
            "job": self.id,
            "kind": self.kind,
            "state": self.state,
            "elapsed": round(now - self.started, 3),
            "time_limit": self.seconds,
            "progress": self.progress,
            "result": self.result,
            "error": self.error,
        }


def _answer(kind: str, call: Callable[[], dict[str, Any]]) -> tuple[str, dict[str, Any]]:
    """Run one call: its answer, or the library's error; a bug is logged, never sent."""
    try:
        return ("done", call())
    except IslesError as exc:
        return ("error", error_json(exc))
    except MemoryError:
        return ("error", {"field": None, "message": "out of memory for this request"})
    except Exception:  # a bug: logged on the server's console, never sent to the page
        _log.exception("job %s failed", kind)
        return ("error", {"field": None, "message": "internal error (see the server's log)"})


def _child(kind: str, body: object, connection: Connection) -> None:
    """The job's process: read the request, call the library, send the answer once."""
    from isles.web.tasks import TASKS  # loaded once by the fork server (preload)

    # Ctrl-C in the server's terminal reaches every process of the group: the server
    # stops its jobs itself, so a job ignores it rather than print a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    task = TASKS[kind]
    connection.send(_answer(kind, lambda: task.run(task.read(body))))
    connection.close()


def _resident_child(kind: str, connection: Connection) -> None:
    """A resident process: answers its kind's jobs one after another, keeping its cache."""
    from isles.web.tasks import TASKS

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    factory = TASKS[kind].resident
    assert factory is not None
    serve = factory(lambda fraction: connection.send(("progress", fraction)))
    while True:
        try:
            body = connection.recv()
        except (EOFError, OSError):
            return  # the server went away
        connection.send(_answer(kind, functools.partial(serve, body)))


@dataclass
class _Resident:
    process: BaseProcess
    connection: Connection
    busy: bool = False


def error_json(exc: IslesError) -> dict[str, Any]:
    """The JSON of an error: the library's message and, for bad input, its field.

    Examples
    --------
    >>> from isles.models.errors import InvalidInput
    >>> error_json(InvalidInput("players", 9, "an integer in 2..6"))
    {'field': 'players', 'message': 'players: 9 is invalid; expected an integer in 2..6'}
    """
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
    process starts in milliseconds with every solver library loaded.

    Parameters
    ----------
    max_running : int
        Jobs running at once.
    """

    def __init__(self, max_running: int = MAX_RUNNING) -> None:
        self.max_running = max_running
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._residents: dict[str, _Resident] = {}
        ctx = multiprocessing.get_context("forkserver")
        assert isinstance(ctx, ForkServerContext)
        ctx.set_forkserver_preload(["isles.web.tasks"])
        self._ctx = ctx

    def start(self, kind: str, body: object, seconds: float, resident: bool = False) -> Job:
        """Start a job (the request already checked by the task's reader).

        Parameters
        ----------
        kind, body, seconds
            The task's name, the request, the time limit.
        resident : bool
            The task keeps a cache between jobs (``Task.resident``): the job goes
            to its kind's resident process when that one is idle (started on
            first use), else to a fresh process of its own.

        Raises
        ------
        Busy
            :attr:`max_running` jobs are running.
        """
        self.poll_all()
        if sum(job.state == "running" for job in self._jobs.values()) >= self.max_running:
            raise Busy(f"{self.max_running} jobs are running; cancel one or wait")
        job_id = secrets.token_hex(12)
        worker = self._residents.get(kind)
        if resident and (worker is None or not worker.busy):
            if worker is None or not worker.process.is_alive():
                near, far = self._ctx.Pipe(duplex=True)
                process = self._ctx.Process(target=_resident_child, args=(kind, far), daemon=True)
                process.start()
                far.close()
                worker = _Resident(process, near)
                self._residents[kind] = worker
            worker.busy = True
            worker.connection.send(body)
            job = Job(job_id, kind, seconds, time.monotonic(), worker.process, worker.connection)
            job.resident = True
        else:
            receiver, sender = self._ctx.Pipe(duplex=False)
            process = self._ctx.Process(target=_child, args=(kind, body, sender), daemon=True)
            process.start()
            sender.close()
            job = Job(job_id, kind, seconds, time.monotonic(), process, receiver)
        self._jobs[job.id] = job
        self._forget_old()
        return job

    def get(self, job_id: str) -> Job:
        """The job, polled.

        Raises
        ------
        UnknownJob
        """
        job = self._jobs.get(job_id)
        if job is None:
            raise UnknownJob(f"job: no job {job_id[:40]!r} (finished long ago, or never started)")
        self._poll(job)
        return job

    def cancel(self, job_id: str) -> Job:
        """Stop a running job (a finished one is left as it is)."""
        job = self.get(job_id)
        if job.state == "running":
            self._stop(job, "cancelled")
        return job

    def poll_all(self) -> None:
        """Collect answers and stop jobs past their time limit."""
        for job in list(self._jobs.values()):
            self._poll(job)

    def shutdown(self) -> None:
        """Stop every running job and resident process (the server is stopping)."""
        for job in self._jobs.values():
            if job.state == "running":
                self._stop(job, "cancelled")
        for kind in list(self._residents):
            self._end_resident(kind)

    def _end_resident(self, kind: str) -> None:
        worker = self._residents.pop(kind, None)
        if worker is None:
            return
        worker.connection.close()
        _end(worker.process)

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
        if job.resident:
            # Its cache goes with it: the next job of its kind starts a fresh one.
            job.process = job.connection = None
            self._end_resident(job.kind)
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
                    worker.busy = False
                else:
                    self._end_resident(job.kind)
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
