"""Solver calls of ``isles serve`` as jobs: each in its own process, time-limited, cancellable.

Implements docs/serve.md ("Jobs"): a job is started, polled and cancelled by its
id; a process per job means a cancel or a time limit really stops the solver
(CP-SAT, Z3 and NumPy do not stop for a thread), and the server stays responsive.
"""

from __future__ import annotations

import logging
import multiprocessing
import secrets
import time
from collections import OrderedDict
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
            "result": self.result,
            "error": self.error,
        }


def _child(kind: str, body: object, connection: Connection) -> None:
    """The job's process: read the request, call the library, send the answer once."""
    from isles.web.tasks import TASKS  # loaded once by the fork server (preload)

    try:
        task = TASKS[kind]
        answer: tuple[str, dict[str, Any]] = ("done", task.run(task.read(body)))
    except IslesError as exc:
        answer = ("error", error_json(exc))
    except MemoryError:
        answer = ("error", {"field": None, "message": "out of memory for this request"})
    except Exception:  # a bug: logged on the server's console, never sent to the page
        _log.exception("job %s failed", kind)
        answer = ("error", {"field": None, "message": "internal error (see the server's log)"})
    connection.send(answer)
    connection.close()


def error_json(exc: IslesError) -> dict[str, Any]:
    """The JSON of an error: the library's message and, for bad input, its field.

    Examples
    --------
    >>> from isles.models.errors import InvalidInput
    >>> error_json(InvalidInput("players", 9, "an integer in 2..6"))
    {'field': 'players', 'message': 'players: 9 is invalid; expected an integer in 2..6'}
    """
    return {"field": getattr(exc, "field", None), "message": str(exc)}


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
        ctx = multiprocessing.get_context("forkserver")
        assert isinstance(ctx, ForkServerContext)
        ctx.set_forkserver_preload(["isles.web.tasks"])
        self._ctx = ctx

    def start(self, kind: str, body: object, seconds: float) -> Job:
        """Start a job (the request already checked by the task's reader).

        Raises
        ------
        Busy
            :attr:`max_running` jobs are running.
        """
        self.poll_all()
        if sum(job.state == "running" for job in self._jobs.values()) >= self.max_running:
            raise Busy(f"{self.max_running} jobs are running; cancel one or wait")
        receiver, sender = self._ctx.Pipe(duplex=False)
        process = self._ctx.Process(target=_child, args=(kind, body, sender), daemon=True)
        process.start()
        sender.close()
        job = Job(secrets.token_hex(12), kind, seconds, time.monotonic(), process, receiver)
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
        """Stop every running job (the server is stopping)."""
        for job in self._jobs.values():
            if job.state == "running":
                self._stop(job, "cancelled")

    def _poll(self, job: Job) -> None:
        if job.state != "running" or job.connection is None:
            return
        try:
            ready = job.connection.poll()
            message = job.connection.recv() if ready else None
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
        if job.process is not None and job.process.is_alive():
            job.process.terminate()
            job.process.join(_GRACE)
            if job.process.is_alive():
                job.process.kill()
        job.state = state
        if state == "timed_out":
            job.error = {
                "field": None,
                "message": f"time limit reached: no answer within {job.seconds:g} s",
            }
        self._finish(job)

    def _finish(self, job: Job) -> None:
        job.ended = time.monotonic()
        if job.connection is not None:
            job.connection.close()
            job.connection = None
        if job.process is not None:
            job.process.join(_GRACE)
            if job.process.is_alive():
                job.process.kill()
                job.process.join()
            job.process = None

    def _forget_old(self) -> None:
        finished = [jid for jid, job in self._jobs.items() if job.state != "running"]
        for jid in finished[: max(0, len(finished) - MAX_KEPT)]:
            del self._jobs[jid]
