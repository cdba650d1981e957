"""Lighthouses: keep a kit's optimal table on disk, so that advice takes a file read.

Implements docs/lighthouse-engine.md ("The cached table") for the engine's
solutions of docs/lighthouse.md's game (seed 000_aeb701e368f40145.txt).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from isles.models.errors import InvalidInput
from isles.models.lighthouse import Kit
from isles.solvers.lighthouse_engine.classes import ClassIndex
from isles.solvers.lighthouse_engine.kernel import Backend
from isles.solvers.lighthouse_engine.solve import EngineSolution, solve
from isles.solvers.lighthouse_engine.symmetry import ClassCoding, colour_group

__all__ = [
    "CACHE_ENV",
    "CACHE_FORMAT",
    "cache_dir",
    "load_table",
    "save_table",
    "solve_cached",
    "table_path",
]

CACHE_ENV = "ISLES_CACHE_DIR"
"""Environment variable naming the cache directory (it overrides the default)."""

CACHE_FORMAT = 1
"""Version of the table files; a change of layout or of the class keys bumps it."""


def cache_dir() -> Path:
    """The user's cache directory for isles.

    Returns
    -------
    Path
        ``$ISLES_CACHE_DIR`` if set; else ``$XDG_CACHE_HOME/isles``; else
        ``~/.cache/isles`` (``%LOCALAPPDATA%\\isles\\Cache`` on Windows,
        ``~/Library/Caches/isles`` on macOS). Not created here.

    References
    ----------
    .. [1] XDG Base Directory Specification, freedesktop.org (``XDG_CACHE_HOME``).

    Examples
    --------
    >>> import os
    >>> os.environ[CACHE_ENV] = "/tmp/isles-doc-cache"
    >>> str(cache_dir())
    '/tmp/isles-doc-cache'
    >>> del os.environ[CACHE_ENV]
    """
    named = os.environ.get(CACHE_ENV)
    if named:
        return Path(named)
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg:
        return Path(xdg) / "isles"
    if sys.platform == "win32" and os.environ.get("LOCALAPPDATA"):
        return Path(os.environ["LOCALAPPDATA"]) / "isles" / "Cache"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "isles"
    return Path.home() / ".cache" / "isles"


def _fingerprint(kit: Kit) -> dict[str, Any]:
    return {"format": CACHE_FORMAT, "game": "lighthouse", "kit": kit.to_dict()}


def table_path(kit: Kit, directory: str | Path | None = None) -> Path:
    """The folder that holds (or would hold) ``kit``'s optimal table.

    Parameters
    ----------
    kit : Kit
        The kit; its islands in order, dice and sea cards make the key.
    directory : str or Path, optional
        The cache directory (default :func:`cache_dir`).

    Returns
    -------
    Path
        ``directory/lighthouse/optimal-<islands>x<cards>-<digest>``, the digest
        (SHA-256) of the kit and of :data:`CACHE_FORMAT`.

    Examples
    --------
    >>> from isles.models.lighthouse import default_kit
    >>> table_path(default_kit(8), "/tmp/c").parent
    PosixPath('/tmp/c/lighthouse')
    """
    text = json.dumps(_fingerprint(kit), sort_keys=True, separators=(",", ":"))
    digest = hashlib.sha256(text.encode()).hexdigest()[:24]
    root = cache_dir() if directory is None else Path(directory)
    return root / "lighthouse" / f"optimal-{len(kit.islands)}x{kit.sea_cards}-{digest}"


def save_table(solution: EngineSolution, directory: str | Path | None = None) -> Path:
    """Write a full float table (solved from the start) to the cache; return its folder.

    Parameters
    ----------
    solution : EngineSolution
        A float table solved from the start (:func:`solve`).
    directory : str or Path, optional
        The cache directory (default :func:`cache_dir`).

    Returns
    -------
    Path
        The table's folder (:func:`table_path`). If it exists already, it is kept.

    Raises
    ------
    InvalidInput
        A Fraction table, or one solved from a later position.

    Notes
    -----
    Files: ``meta.json`` (the kit, the format, the group size, the error
    bound), ``keys.npy`` and ``offsets.npy`` (the classes), ``values.npy``
    (float64, ``classes x boats x islands``; 0.93 GB for 8 islands). Written
    to a temporary folder renamed into place, so a reader never sees half a
    table.

    Examples
    --------
    >>> import tempfile
    >>> from isles.models.lighthouse import default_kit
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     where = save_table(solve(default_kit(2, 2)), folder)
    ...     sorted(p.name for p in where.iterdir())
    ['keys.npy', 'meta.json', 'offsets.npy', 'values.npy']
    """
    if solution.exact:
        raise InvalidInput("solution", "exact", "a float table (Fraction tables are not cached)")
    if solution.index.first_discs != 0 or solution.first_boat != 0:
        raise InvalidInput("solution", "partial", "a table solved from the start position")
    target = table_path(solution.kit, directory)
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".partial-", dir=target.parent))
    try:
        meta = {
            **_fingerprint(solution.kit),
            "group_size": solution.group.size,
            "classes": solution.classes,
            "error_bound": solution.error_bound,
        }
        (staging / "meta.json").write_text(json.dumps(meta, indent=1), encoding="utf-8")
        np.save(staging / "keys.npy", np.concatenate(solution.index.keys))
        np.save(staging / "offsets.npy", solution.index.offsets)
        np.save(staging / "values.npy", np.ascontiguousarray(solution.values))
        if target.exists():  # another process saved the same table first
            shutil.rmtree(staging)
        else:
            os.replace(staging, target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return target


def load_table(kit: Kit, directory: str | Path | None = None) -> EngineSolution | None:
    """The cached optimal table of ``kit``, memory-mapped, or None when there is none.

    Parameters
    ----------
    kit : Kit
        The kit whose table to read.
    directory : str or Path, optional
        The cache directory (default :func:`cache_dir`).

    Returns
    -------
    EngineSolution or None
        The table (values memory-mapped: reading a position touches a few
        pages), or None: no folder, a ``meta.json`` that does not match the
        kit and format, or unreadable files.

    Examples
    --------
    >>> from isles.models.lighthouse import default_kit
    >>> load_table(default_kit(3, 2), "/nonexistent") is None
    True
    """
    folder = table_path(kit, directory)
    try:
        meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
        if {k: meta.get(k) for k in ("format", "game", "kit")} != _fingerprint(kit):
            return None
        keys = np.load(folder / "keys.npy")
        offsets = np.load(folder / "offsets.npy")
        values = np.load(folder / "values.npy", mmap_mode="r")
    except (OSError, ValueError, json.JSONDecodeError):
        return None
    group = colour_group(kit)
    if group.size != meta.get("group_size") or int(offsets[-1]) != values.shape[0]:
        return None
    layers = tuple(keys[int(a) : int(b)] for a, b in itertools.pairwise(offsets))
    index = ClassIndex(ClassCoding(group), 0, layers, offsets)
    return EngineSolution(kit, group, index, 0, values, False, float(meta["error_bound"]))


def solve_cached(
    kit: Kit,
    directory: str | Path | None = None,
    *,
    backend: Backend = "auto",
    progress: bool = False,
) -> EngineSolution:
    """The kit's optimal table: from the cache when it is there, else solved and saved.

    Parameters
    ----------
    kit : Kit
        At most 8 islands.
    directory : str or Path, optional
        The cache directory (default :func:`cache_dir`).
    backend : {"auto", "numba", "numpy"}
        The layer kernel when solving.
    progress : bool
        Progress bar when solving.

    Returns
    -------
    EngineSolution
        Floats within ``error_bound``; memory-mapped when read from the cache.

    Raises
    ------
    InvalidInput
        The kit is too large for the engine.

    Examples
    --------
    >>> import tempfile
    >>> from isles.models.lighthouse import default_kit
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     first = solve_cached(default_kit(3, 4), folder)
    ...     again = solve_cached(default_kit(3, 4), folder)
    ...     first.win_probability() == again.win_probability()
    True
    """
    found = load_table(kit, directory)
    if found is not None:
        return found
    solution = solve(kit, backend=backend, progress=progress)
    save_table(solution, directory)
    return solution
