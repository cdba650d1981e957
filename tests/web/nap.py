"""A job kind for the tests of ``isles serve``'s jobs: it sleeps, so it runs as long as asked.

Its functions are imported by the jobs' processes (``create_app(tasks=...)``),
so they live in a module of their own, not in a test file.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from isles.models.errors import InvalidInput
from isles.web.tasks import Task
from isles.web.tasks.layout import TASKS as LAYOUT_TASKS
from isles.web.tasks.lighthouse import TASKS as LIGHTHOUSE_TASKS
from isles.web.tasks.plunder import TASKS as PLUNDER_TASKS
from isles.web.tasks.rally import TASKS as RALLY_TASKS

__all__ = [
    "LATE_LAYOUT",
    "LATE_PLUNDER",
    "LATE_ROUTE",
    "NAP",
    "ONCE",
    "RESIDENT_NAP",
    "SLOW_LIGHTHOUSE",
    "SLOW_PLUNDER",
]


def _read(body: object) -> dict[str, Any]:
    if not isinstance(body, dict) or not isinstance(body.get("seconds"), int | float):
        raise InvalidInput("seconds", body, "a number of seconds")
    return dict(body)


def _run(args: dict[str, Any]) -> dict[str, Any]:
    if args.get("bar"):  # would a progress bar of the library draw on the server's console?
        from tqdm import tqdm

        bar = tqdm(total=1, file=sys.stderr, disable=False)
        disabled = bool(bar.disable)  # read before close(), which disables any bar
        bar.close()
        return {"bar_disabled": disabled}
    if "pidfile" in args:
        Path(args["pidfile"]).write_text(str(os.getpid()))
    time.sleep(float(args["seconds"]))
    return {"slept": args["seconds"]}


#: ``POST /api/solve/nap`` with ``{"seconds": S, "pidfile": PATH?}``: sleeps S seconds
#: (``"bar": true``: answers whether a tqdm bar would be drawn).
NAP = Task(_read, _run, 60.0)


def _resident(progress: Any) -> Any:
    """A resident nap: reports its progress every 10 ms for ``seconds`` seconds."""

    def serve(args: dict[str, Any]) -> dict[str, Any]:  # what the server read
        end = time.monotonic() + float(args["seconds"])
        while time.monotonic() < end:
            progress(0.5)
            time.sleep(0.01)
        return {"slept": args["seconds"]}

    return serve


#: NAP kept in a resident process that reports its progress (as the lighthouse's).
RESIDENT_NAP = Task(_read, _run, 60.0, resident=_resident)


def _never_in_time(args: dict[str, Any]) -> dict[str, Any]:
    time.sleep(60.0)
    return {}


#: The Plunder job with its real request reader whose analysis never ends within its
#: 0.5 s limit: the time limit is reached every time, whatever the machine's speed.
SLOW_PLUNDER = Task(PLUNDER_TASKS["plunder"].read, _never_in_time, 0.5)


@dataclass(frozen=True)
class _Late:
    """A real task's run, three seconds late: long enough to reload the page while it runs."""

    run: Callable[[dict[str, Any]], dict[str, Any]]

    def __call__(self, args: dict[str, Any]) -> dict[str, Any]:
        time.sleep(3.0)
        return self.run(args)


def _late(task: Task, limit: float) -> Task:
    """``task`` with its real reader and solver, three seconds late, within ``limit`` s."""
    return Task(task.read, _Late(task.run), limit)


#: The lighthouse job, real but late (in a process of its own, not the resident one).
SLOW_LIGHTHOUSE = _late(LIGHTHOUSE_TASKS["lighthouse"], 60.0)
#: The Plunder job, real but late.
LATE_PLUNDER = _late(PLUNDER_TASKS["plunder"], 60.0)
#: The board set-up's layout job, real but late.
LATE_LAYOUT = _late(LAYOUT_TASKS["layout"], 120.0)
#: The rally's route job, real but late.
LATE_ROUTE = _late(RALLY_TASKS["route"], 60.0)


#: The processes that read a ONCE request (their pids): the server's only, never a job's.
READ_IN: list[int] = []


def _read_once(body: object) -> dict[str, Any]:
    READ_IN.append(os.getpid())
    return {"read_in": os.getpid()}


def _run_once(args: dict[str, Any]) -> dict[str, Any]:
    return {"read_in": args["read_in"], "run_in": os.getpid(), "reads_here": len(READ_IN)}


#: ``POST /api/solve/once``: where its request was read, where it ran, reads in the job.
ONCE = Task(_read_once, _run_once, 60.0)
