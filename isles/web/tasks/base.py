"""One kind of job of ``isles serve``: its reader, its library call, its time limit."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["Task"]


@dataclass(frozen=True)
class Task:
    """One kind of job: its request reader, its solver call and its time limit.

    Attributes
    ----------
    read : callable
        Checks the request (raises :class:`InvalidInput`), returns the call's
        arguments; the server reads each request once, and the job's process
        runs on what it read.
    run : callable
        The library call on those arguments, returning ``to_dict()``.
    seconds : float
        The job's time limit: past it the job is stopped and answers ``timed_out``.
    resident : callable, optional
        Makes the callable (arguments read -> ``to_dict()``) of a process that stays
        between jobs and keeps a cache (the lighthouse advisor's, whose library keeps
        the last kit's table in memory), given the
        call that reports the job's progress (a fraction done, 0..1).
    """

    read: Callable[[object], dict[str, Any]]
    run: Callable[[dict[str, Any]], dict[str, Any]]
    seconds: float
    resident: (
        Callable[[Callable[[float], None]], Callable[[dict[str, Any]], dict[str, Any]]] | None
    ) = None
