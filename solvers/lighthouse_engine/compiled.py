"""Lighthouses: numba when it is installed, for the engine's compiled loops.

Part of docs/lighthouse-engine.md ("The layer kernel"): the kernels are
compiled once and cached on disk; without numba the NumPy paths run instead.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["HAVE_NUMBA", "compiled", "prange"]

F = TypeVar("F", bound=Callable[..., Any])

_numba: Any
try:  # numba is a dependency; the NumPy paths keep isles working where it does not install
    _numba = importlib.import_module("numba")
except ImportError:  # pragma: no cover - exercised only without numba
    _numba = None

HAVE_NUMBA = _numba is not None
"""Whether numba is importable (the ``auto`` backend then compiles)."""

prange: Any = _numba.prange if _numba is not None else range
"""``numba.prange`` (a parallel loop in a compiled function), else ``range``."""


def compiled(func: F, *, parallel: bool = False, inline: bool = False) -> F:
    """``func`` compiled by numba (lazily, on first call; ``cache=True``), or ``func`` itself.

    ``cache=True`` writes the machine code beside the module (or in numba's
    user cache directory), so a second run does not compile again; the
    first run of the 8-island solve spends a few seconds compiling.

    Functions must live in a module file (numba's cache needs a file to sit
    beside): the layer kernel (kernel.py) and the graph builder (classes.py).

    Examples
    --------
    >>> from isles.solvers.lighthouse_engine import kernel
    >>> hasattr(kernel._layer_kernel, "py_func") == HAVE_NUMBA
    True
    """
    if _numba is None:  # pragma: no cover
        return func
    options: dict[str, Any] = {"cache": True}
    if parallel:
        options["parallel"] = True
    if inline:
        options["inline"] = "always"
    jitted: F = _numba.njit(**options)(func)
    return jitted
