"""Lighthouses: keep a kit's table on disk, so that odds and advice take a file read.

Implements docs/lighthouse.md ("The cached table"; seed 000_aeb701e368f40145.txt)
for the class DP's tables (optimal and random play).
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from isles.models.errors import InvalidInput
from isles.models.lighthouse.caps import Policy
from isles.models.lighthouse.kit import Kit
from isles.solvers.lighthouse.classes import ClassIndex
from isles.solvers.lighthouse.dp import solve_from_class
from isles.solvers.lighthouse.kernel import Backend
from isles.solvers.lighthouse.policies import check_policy
from isles.solvers.lighthouse.solution import LighthouseSolution, check_kit
from isles.solvers.lighthouse.symmetry import ClassCoding, colour_group
from isles.solvers.usercache import cache_dir, writable_cache_dir
from isles.solvers.work import Progress

__all__ = [
    "CACHE_FORMAT",
    "kept_table",
    "load_start_values",
    "load_table",
    "save_start_values",
    "save_table",
    "solve_cached",
    "start_values_path",
    "table_path",
]

CACHE_FORMAT = 2
"""Version of the table files; a change of layout or of the class keys bumps it."""

CACHED_POLICIES: tuple[Policy, ...] = ("optimal", "random")
"""Policies whose tables are cached (greedy play's are per lighthouse code, and its
8-island values are swept without a table)."""


def _policy(policy: str) -> Policy:
    pol = check_policy(policy)
    if pol not in CACHED_POLICIES:
        raise InvalidInput("policy", policy, "optimal or random (their tables are cached)")
    return pol


def _fingerprint(kit: Kit, policy: Policy) -> dict[str, Any]:
    return {"format": CACHE_FORMAT, "game": "lighthouse", "policy": policy, "kit": kit.to_dict()}


def table_path(kit: Kit, directory: str | Path | None = None, policy: str = "optimal") -> Path:
    """The folder that holds (or would hold) ``kit``'s table under ``policy``.

    Parameters
    ----------
    kit : Kit
        The kit; its islands in order, dice and sea cards make the key.
    directory : str or Path, optional
        The cache directory (default :func:`cache_dir`).
    policy : {"optimal", "random"}
        The policy of the table.

    Returns
    -------
    Path
        ``directory/lighthouse/<policy>-<islands>x<cards>-<digest>``, the digest
        (SHA-256) of the kit, the policy and :data:`CACHE_FORMAT`.

    Examples
    --------
    >>> from isles.models.lighthouse.kit import default_kit
    >>> table_path(default_kit(8), "/tmp/c").parent
    PosixPath('/tmp/c/lighthouse')
    """
    pol = _policy(policy)
    text = json.dumps(_fingerprint(kit, pol), sort_keys=True, separators=(",", ":"))
    digest = hashlib.sha256(text.encode()).hexdigest()[:24]
    root = cache_dir() if directory is None else Path(directory)
    return root / "lighthouse" / f"{pol}-{len(kit.islands)}x{kit.sea_cards}-{digest}"


def save_table(solution: LighthouseSolution, directory: str | Path | None = None) -> Path:
    """Write a full float table (solved from the start) to the cache; return its folder.

    Parameters
    ----------
    solution : LighthouseSolution
        A float table of the class DP solved from the start (:func:`solve`),
        optimal or random play.
    directory : str or Path, optional
        The cache directory (default :func:`cache_dir`).

    Returns
    -------
    Path
        The table's folder (:func:`table_path`). If it exists already, it is kept.

    Raises
    ------
    InvalidInput
        A Fraction table, one solved from a later position, or greedy play's.

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
    >>> from isles.models.lighthouse.kit import default_kit
    >>> from isles.solvers.lighthouse.dp import solve
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     where = save_table(solve(default_kit(2, 2)), folder)
    ...     sorted(p.name for p in where.iterdir())
    ['keys.npy', 'meta.json', 'offsets.npy', 'values.npy']
    """
    if solution.exact:
        raise InvalidInput("solution", "exact", "a float table (Fraction tables are not cached)")
    if not solution.from_start:
        raise InvalidInput("solution", "partial", "a table solved from the start position")
    if not isinstance(solution.index, ClassIndex):
        raise InvalidInput("solution", solution.policy, "a table of classes (optimal or random)")
    target = table_path(solution.kit, directory, solution.policy)
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".partial-", dir=target.parent))
    try:
        np.save(staging / "values.npy", np.ascontiguousarray(solution.values))
        _finish_table(solution, staging, target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return target


def _finish_table(solution: LighthouseSolution, staging: Path, target: Path) -> None:
    """Write the table's other files beside its ``values.npy`` and rename the folder into place."""
    assert isinstance(solution.index, ClassIndex)
    meta = {
        **_fingerprint(solution.kit, solution.policy),
        "group_size": solution.index.group_size,
        "classes": solution.classes,
        "error_bound": solution.error_bound,
    }
    (staging / "meta.json").write_text(json.dumps(meta, indent=1), encoding="utf-8")
    np.save(staging / "keys.npy", np.concatenate(solution.index.keys))
    np.save(staging / "offsets.npy", solution.index.offsets)
    if target.exists():  # another process saved the same table first
        shutil.rmtree(staging, ignore_errors=True)
    else:
        os.replace(staging, target)


@contextlib.contextmanager
def _solving(target: Path) -> Iterator[None]:
    """Hold the tables' lock while solving one: one process solves, the others wait for it.

    The lock is the tables' folder itself (``flock`` on it: no lock file is
    left behind for ``isles cache clear`` to find); a process waiting for it
    then reads the table the first one saved. Solves of two different kits
    take turns too, which two 2 GB solves on one machine would do anyway.
    """
    folder = target.parent
    folder.mkdir(parents=True, exist_ok=True)
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX: no lock, at worst two solves
        yield
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # releases the lock


def load_table(
    kit: Kit, directory: str | Path | None = None, policy: str = "optimal"
) -> LighthouseSolution | None:
    """The cached table of ``kit`` under ``policy``, memory-mapped, or None when there is none.

    Parameters
    ----------
    kit : Kit
        The kit whose table to read.
    directory : str or Path, optional
        The cache directory (default :func:`cache_dir`).
    policy : {"optimal", "random"}
        The policy of the table.

    Returns
    -------
    LighthouseSolution or None
        The table (values memory-mapped: reading a position touches a few
        pages), or None: no folder, a ``meta.json`` that does not match the
        kit and format, or unreadable files.

    Examples
    --------
    >>> from isles.models.lighthouse.kit import default_kit
    >>> load_table(default_kit(3, 2), "/nonexistent") is None
    True
    """
    pol = _policy(policy)
    folder = table_path(kit, directory, pol)
    try:
        meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
        if {k: meta.get(k) for k in ("format", "game", "policy", "kit")} != _fingerprint(kit, pol):
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
    return LighthouseSolution(kit, pol, index, 0, values, False, float(meta["error_bound"]))


@dataclass
class _Kept:
    """The one table a process keeps in memory: its folder, the stamp of its ``meta.json``."""

    folder: Path | None = None
    stamp: tuple[int, int, int] | None = None
    table: LighthouseSolution | None = None


_KEPT = _Kept()


def _stamp(folder: Path) -> tuple[int, int, int] | None:
    """(device, inode, modification time) of a table's ``meta.json``; None when it is gone."""
    try:
        meta = (folder / "meta.json").stat()
    except OSError:
        return None
    return meta.st_dev, meta.st_ino, meta.st_mtime_ns


def kept_table(
    kit: Kit, directory: str | Path | None = None, policy: str = "optimal"
) -> LighthouseSolution | None:
    """:func:`load_table`, the last table read kept in memory between calls (one per process).

    A process that asks about one kit again and again (the web app's resident
    advisor, a notebook) reads its table from the cache once: the table kept is
    the one :func:`load_table` verified, and it is read again when its folder's
    ``meta.json`` is no longer the file it was read from (the cache was cleared,
    the table solved again, another cache directory named). A table of another
    kit or policy replaces it: the old one is let go before the new one is read.

    Parameters
    ----------
    kit, directory, policy
        As :func:`load_table`.

    Returns
    -------
    LighthouseSolution or None
        The table, or None when the cache has none for this kit and policy.

    Examples
    --------
    >>> import tempfile
    >>> from isles.models.lighthouse.kit import default_kit
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     solved = solve_cached(default_kit(3, 2), folder)
    ...     kept_table(default_kit(3, 2), folder) is kept_table(default_kit(3, 2), folder)
    True
    """
    folder = table_path(kit, directory, policy)
    stamp = _stamp(folder)
    if stamp is None:
        return None
    if _KEPT.folder == folder and _KEPT.stamp == stamp:
        return _KEPT.table
    _KEPT.folder, _KEPT.stamp, _KEPT.table = None, None, None
    table = load_table(kit, directory, policy)
    if table is not None:
        _KEPT.folder, _KEPT.stamp, _KEPT.table = folder, stamp, table
    return table


def solve_cached(
    kit: Kit,
    directory: str | Path | None = None,
    *,
    policy: str = "optimal",
    backend: Backend = "auto",
    progress: Progress = None,
) -> LighthouseSolution:
    """The kit's table: from the cache when it is there, else solved and saved.

    Parameters
    ----------
    kit : Kit
        At most 8 islands.
    directory : str or Path, optional
        The cache directory (default :func:`cache_dir`).
    policy : {"optimal", "random"}
        The policy of the table.
    backend : {"auto", "numba", "numpy"}
        The layer kernel when solving.
    progress : bool, None or callable
        While solving, through the solve's phases (compiling, building the
        classes, valuing them), as :data:`isles.solvers.work.Progress` (a
        callable: the server's progress, without a bar).

    Returns
    -------
    LighthouseSolution
        Floats within ``error_bound``; memory-mapped from the cache's file.

    Raises
    ------
    InvalidInput
        The kit is too large, or greedy play (not cached).

    Notes
    -----
    The values go to the cache's file layer by layer as they are solved
    (``isles.solvers.lighthouse.stream``), so the whole table is never in
    memory and saving costs no separate step; one process solves a kit at a
    time (a lock beside the table), the others wait and read its file.

    Examples
    --------
    >>> import tempfile
    >>> from isles.models.lighthouse.kit import default_kit
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     first = solve_cached(default_kit(3, 4), folder)
    ...     again = solve_cached(default_kit(3, 4), folder)
    ...     first.win_probability() == again.win_probability()
    True
    """
    pol = _policy(policy)
    found = kept_table(kit, directory, pol)
    if found is not None:
        return found
    writable_cache_dir(directory)  # before the solve, not after it
    target = table_path(kit, directory, pol)
    with _solving(target):
        found = load_table(kit, directory, pol)  # solved by another process meanwhile
        if found is not None:
            return found
        check_kit(kit, pol, False)
        prefix = f".partial-{target.name}-"
        for stale in target.parent.glob(prefix + "*"):  # a solve that was killed (the lock is ours)
            shutil.rmtree(stale, ignore_errors=True)
        staging = Path(tempfile.mkdtemp(prefix=prefix, dir=target.parent))
        try:
            solution = solve_from_class(
                kit, pol, colour_group(kit), 0, 0, 0, False, backend, progress,
                staging / "values.npy",
            )  # fmt: skip
            _finish_table(solution, staging, target)
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
    kept = kept_table(kit, directory, pol)
    return solution if kept is None else kept


def start_values_path(kit: Kit, directory: str | Path | None = None) -> Path:
    """The file that holds (or would hold) greedy play's start values of ``kit``.

    Greedy play's table is per lighthouse code (8 islands: 9.7 GB), so only
    its start values by sea cards are kept: a few numbers.

    Returns
    -------
    Path
        ``directory/lighthouse/greedy-<islands>x<cards>-<digest>.json``.

    Examples
    --------
    >>> from isles.models.lighthouse.kit import default_kit
    >>> start_values_path(default_kit(8), "/tmp/c").name.startswith("greedy-8x8-")
    True
    """
    text = json.dumps(_fingerprint(kit, "greedy"), sort_keys=True, separators=(",", ":"))
    digest = hashlib.sha256(text.encode()).hexdigest()[:24]
    root = cache_dir() if directory is None else Path(directory)
    return root / "lighthouse" / f"greedy-{len(kit.islands)}x{kit.sea_cards}-{digest}.json"


def load_start_values(
    kit: Kit, directory: str | Path | None = None
) -> tuple[tuple[float, ...], float] | None:
    """Greedy play's cached start values of ``kit`` (by sea cards) and their bound, or None.

    Examples
    --------
    >>> from isles.models.lighthouse.kit import default_kit
    >>> load_start_values(default_kit(3, 2), "/nonexistent") is None
    True
    """
    try:
        saved = json.loads(start_values_path(kit, directory).read_text(encoding="utf-8"))
        if {k: saved.get(k) for k in ("format", "game", "policy", "kit")} != _fingerprint(
            kit, "greedy"
        ):
            return None
        values = tuple(float(v) for v in saved["by_sea_cards"])
        bound = float(saved["error_bound"])
    except (OSError, ValueError, KeyError, TypeError, json.JSONDecodeError):
        return None
    if len(values) != kit.sea_cards:
        return None
    return values, bound


def save_start_values(
    kit: Kit,
    values: tuple[float, ...],
    error_bound: float,
    directory: str | Path | None = None,
) -> Path:
    """Keep greedy play's start values of ``kit`` in the cache; return the file.

    Written to a temporary file renamed into place.

    Examples
    --------
    >>> import tempfile
    >>> from isles.models.lighthouse.kit import default_kit
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     _ = save_start_values(default_kit(1, 2), (0.25, 0.5), 1e-15, folder)
    ...     load_start_values(default_kit(1, 2), folder)
    ((0.25, 0.5), 1e-15)
    """
    target = start_values_path(kit, directory)
    target.parent.mkdir(parents=True, exist_ok=True)
    data = {
        **_fingerprint(kit, "greedy"),
        "by_sea_cards": [float(v) for v in values],
        "error_bound": error_bound,
    }
    fd, staging = tempfile.mkstemp(prefix=".partial-", suffix=".json", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(data, out)
        os.replace(staging, target)
    except BaseException:
        Path(staging).unlink(missing_ok=True)
        raise
    return target
