"""Lighthouses: numba when it is installed, for the engine's compiled loops.

Part of docs/lighthouse.md ("The layer kernel"): the kernels are
compiled once and cached on disk; without numba the NumPy paths run instead.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

__all__ = ["HAVE_NUMBA", "THREADS_ENV", "compiled", "in_parallel", "threads"]

F = TypeVar("F", bound=Callable[..., Any])

_numba: Any
try:  # numba is a dependency; the NumPy paths keep isles working where it does not install
    _numba = importlib.import_module("numba")
except ImportError:  # pragma: no cover - exercised only without numba
    _numba = None

HAVE_NUMBA = _numba is not None
"""Whether numba is importable (the ``auto`` backend then compiles)."""

THREADS_ENV = "ISLES_THREADS"
"""Environment variable: how many threads the compiled loops use (default: the CPUs)."""


def threads() -> int:
    """Threads for the compiled loops: ``$ISLES_THREADS``, else the CPUs this process may use.

    Examples
    --------
    >>> threads() >= 1
    True
    """
    named = os.environ.get(THREADS_ENV, "")
    if named.isdigit() and int(named) > 0:
        return int(named)
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


def in_parallel(size: int, body: Callable[[int, int], None], *, grain: int = 4096) -> None:
    """Run ``body(lo, hi)`` over ``0..size`` split into chunks, on :func:`threads` threads.

    The compiled bodies release the GIL (``nogil=True``), so the threads run
    at once; chunks (at least ``grain`` items, four per thread) even out the
    load. Small ranges run in the calling thread.

    Examples
    --------
    >>> seen = []
    >>> in_parallel(10, lambda lo, hi: seen.extend(range(lo, hi)), grain=3)
    >>> sorted(seen) == list(range(10))
    True
    """
    workers = threads()
    if workers == 1 or size <= grain:
        if size > 0:
            body(0, size)
        return
    step = max(grain, -(-size // (4 * workers)))
    bounds = [(lo, min(size, lo + step)) for lo in range(0, size, step)]
    with ThreadPoolExecutor(max_workers=workers) as pool:
        for done in [pool.submit(body, lo, hi) for lo, hi in bounds]:
            done.result()


def compiled(func: F, *, inline: bool = False) -> F:
    """``func`` compiled by numba (lazily, on first call), or ``func`` itself without numba.

    ``cache=True`` writes the machine code beside the module (or in numba's
    user cache directory), so a second run does not compile again; the first
    run of the 8-island solve spends a few seconds compiling. ``nogil=True``
    lets :func:`in_parallel` run the compiled loops on several threads: the
    loops are serial, as numba's ``parallel=True`` would triple the time to
    compile them.

    Functions must live in a module file (numba's cache needs a file to sit
    beside): the layer kernel (kernel.py) and the graph builder (classes.py).

    Examples
    --------
    >>> from isles.solvers.lighthouse import kernel
    >>> hasattr(kernel._class_kernel, "py_func") == HAVE_NUMBA
    True
    """
    if _numba is None:  # pragma: no cover
        return func
    options: dict[str, Any] = {"cache": True, "nogil": True}
    if inline:
        options["inline"] = "always"
    jitted: F = _numba.njit(**options)(func)
    return jitted
