"""Lighthouses: numba when it is installed, for the engine's compiled loops.

Part of docs/lighthouse.md ("The layer kernel", "The cache"): the kernels are
compiled once and cached in the user's cache directory (never beside the
installed source files); without numba the NumPy paths run instead.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import importlib.util
import os
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, TypeVar

from isles.solvers.usercache import numba_cache_dir

__all__ = ["HAVE_NUMBA", "THREADS_ENV", "compiled", "in_parallel", "prange", "threads"]

F = TypeVar("F", bound=Callable[..., Any])

# numba is a dependency; the NumPy paths keep isles working where it does not install.
HAVE_NUMBA = importlib.util.find_spec("numba") is not None
"""Whether numba is installed (the ``auto`` backend then compiles)."""


@functools.cache
def _numba() -> Any:
    """numba, imported on first use: it takes about 0.4 s, which a route or a
    ships' question never needs (only the kernels of the lighthouse and of the
    rally as it is played do)."""
    return importlib.import_module("numba")


if TYPE_CHECKING:
    #: numba's parallel range inside a ``parallel=True`` kernel; ``range`` without numba.
    prange: Callable[..., range]


def __getattr__(name: str) -> Any:
    # prange is numba's: importing it is importing numba (a kernel module that uses it
    # compiles its kernels anyway).
    if name == "prange":
        return _numba().prange if HAVE_NUMBA else range
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
    if named.isascii() and named.isdigit() and int(named) > 0:
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


@contextlib.contextmanager
def _cache_in_user_folder() -> Iterator[bool]:
    """While numba sets up a kernel's cache, point it at the user's cache directory.

    numba picks a kernel's cache folder when the kernel is declared: its
    ``CACHE_DIR`` setting (``$NUMBA_CACHE_DIR``) if set, else beside the source
    file when that folder is writable, which for an installed isles is
    site-packages. isles sets ``CACHE_DIR`` to ``cache_dir()/numba`` for its own
    kernels only, and restores it at once; a ``$NUMBA_CACHE_DIR`` the user set
    is kept. Yields whether an on-disk cache can be used at all.
    """
    config = _numba().config
    if config.CACHE_DIR:
        yield True
        return
    folder = numba_cache_dir()
    if folder is None:
        yield False
        return
    config.CACHE_DIR = str(folder)
    try:
        yield True
    finally:
        config.CACHE_DIR = ""


def compiled(func: F, *, inline: bool = False, parallel: bool = False) -> F:
    """``func`` compiled by numba (lazily, on first call), or ``func`` itself without numba.

    Parameters
    ----------
    func : callable
        A function of a module file (numba's cache keys it by the file).
    inline : bool
        Inline it into the kernels that call it.
    parallel : bool
        Compile its ``prange`` loops for several threads (the competitive
        sweep); the class DP's loops stay serial, as ``parallel=True`` would
        triple the time to compile them, and run on threads instead
        (:func:`in_parallel`, ``nogil=True``).

    Returns
    -------
    callable
        The compiled function (same signature).

    Notes
    -----
    The machine code is cached in ``cache_dir()/numba`` (docs/lighthouse.md,
    "The cache"), so a second run does not compile again; the first run of
    the 8-island solve spends a few seconds compiling. Where that folder
    cannot be written, kernels compile in memory only: isles never writes
    into its installed files.

    Examples
    --------
    >>> from isles.solvers.lighthouse import kernel
    >>> hasattr(kernel.class_kernel, "py_func") == HAVE_NUMBA
    True
    """
    if not HAVE_NUMBA:  # pragma: no cover
        return func
    with _cache_in_user_folder() as cache:
        options: dict[str, Any] = {"cache": cache, "nogil": True}
        if inline:
            options["inline"] = "always"
        if parallel:
            options["parallel"] = True
        jitted: F = _numba().njit(**options)(func)
    return jitted
