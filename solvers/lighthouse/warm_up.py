"""Lighthouses: the layer kernels compiled before a long solve needs them.

Part of docs/lighthouse.md ("The layer kernel", "Measured"; seed
000_aeb701e368f40145.txt): on a first run numba compiles the kernel while the
class graph is built, in another process when its machine code can be cached on
disk, else in a thread.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from isles.models.lighthouse.caps import Policy
from isles.solvers.compiled import HAVE_NUMBA, threads
from isles.solvers.lighthouse.code_kernel import greedy_kernel
from isles.solvers.lighthouse.kernel import class_kernel

__all__ = ["Wait", "start_warm_up", "warm_up"]


def warm_up(policy: Policy, width: int = 2) -> None:
    """Compile (or load from numba's cache) the kernel ``policy`` uses, on empty arguments.

    Run in a thread while the class graph is built, it overlaps the first
    run's compilation with that work (the compiler releases the GIL for most of
    its time).

    Examples
    --------
    >>> warm_up("optimal")
    """
    if not HAVE_NUMBA:  # pragma: no cover
        return
    i64 = np.zeros(1, dtype=np.int64)
    f64 = np.zeros(1, dtype=np.float64)
    table = np.zeros((1, width), dtype=np.float64)
    if policy == "greedy":
        cube = np.zeros((1, 1, 8), dtype=np.int64)
        greedy_kernel(
            0, 0, i64, np.zeros(1, dtype=np.int32), cube, cube, np.zeros((1, 2, 8), np.int64),
            np.zeros((1, 2, 8), np.int64), i64, i64, i64, f64, table, table, 1, table,
        )  # fmt: skip
        return
    class_kernel(
        0, 0, i64, np.zeros(1, dtype=np.int32), np.zeros(1, dtype=np.int8),
        np.zeros(1, dtype=np.int8), np.zeros((1, 1), dtype=np.int64), i64, i64, i64, f64,
        table, table, 1, 1, policy == "random", table, table, np.zeros((5, width)),
        np.zeros((1, 2, width)), np.zeros(2, dtype=np.bool_),
    )  # fmt: skip


def _cached_on_disk(dispatcher: Any) -> bool | None:
    """Whether numba's on-disk cache holds ``dispatcher``'s machine code (None: no disk cache)."""
    try:
        index = Path(dispatcher._cache._cache_file._index_path)
    except AttributeError:  # no on-disk cache (numba's null cache), or another numba
        return None
    return index.exists()


def _core_to_spare() -> bool:
    """Whether a core is idle now: the 1-minute load average below the usable cores less one."""
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):  # pragma: no cover - no load average (Windows)
        return True
    return load <= threads() - 1


class Wait(Protocol):
    """Waits until a kernel is compiled, doing ``meanwhile()`` until it is or that says done."""

    def __call__(self, meanwhile: Callable[[], bool] | None = None) -> None:
        """Wait; ``meanwhile()`` (a short piece of work, False when none is left) runs first."""


def start_warm_up(policy: Policy, *, big: bool = False) -> Wait:
    """Start compiling (or loading) ``policy``'s layer kernel; return the call that waits for it.

    Parameters
    ----------
    policy : {"optimal", "random", "greedy"}
        The kernel to get ready.
    big : bool
        The solve is long (7 or 8 islands): when the kernel is not in numba's
        on-disk cache yet and a core is idle (the load average is below the
        cores this process may use, less one), another Python process compiles
        it into the cache while this one builds the class graph (numba compiles
        one function at a time per process, under its compiler lock, so a
        thread would wait for the graph kernels' compiling); the first call
        here then loads it. That process costs about 2 s of CPU more (its own
        start and numba's), a loss on a machine with no core to spare, where a
        thread compiles instead.

    Returns
    -------
    Wait
        Waits until the kernel is ready (an interrupt stops the other process
        and propagates), calling its argument ``meanwhile`` while it is not,
        until that returns False: work the caller would do later anyway (the
        class DP touches its tables' memory). Where the other process failed,
        the first call compiles the kernel itself: the answer never depends on it.

    Examples
    --------
    >>> start_warm_up("optimal")()
    """
    if not HAVE_NUMBA:  # pragma: no cover
        return lambda meanwhile=None: None
    kernel = greedy_kernel if policy == "greedy" else class_kernel
    if big and _cached_on_disk(kernel) is False and _core_to_spare():
        env = dict(os.environ)  # the child imports isles from where this process did
        env["PYTHONPATH"] = os.pathsep.join(filter(None, sys.path))
        code = f"from isles.solvers.lighthouse.warm_up import warm_up; warm_up({policy!r})"
        try:
            process = subprocess.Popen(
                [sys.executable, "-c", code],
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        except OSError:
            process = None
        if process is not None:

            def wait(meanwhile: Callable[[], bool] | None = None) -> None:
                try:
                    while meanwhile is not None and process.poll() is None and meanwhile():
                        pass
                    process.wait()
                except BaseException:
                    process.kill()
                    process.wait()
                    raise

            return wait
    thread = threading.Thread(target=warm_up, args=(policy,), daemon=True)
    thread.start()

    def join(meanwhile: Callable[[], bool] | None = None) -> None:
        while meanwhile is not None and thread.is_alive() and meanwhile():
            pass
        thread.join()

    return join
