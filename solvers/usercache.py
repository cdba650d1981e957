"""The user's cache directory: what isles keeps between runs, listed and cleared.

Implements docs/lighthouse.md ("The cache"). isles never writes into its own
installed files: the lighthouse tables (seed 000_aeb701e368f40145.txt), greedy
play's start values and numba's compiled kernels all live under
:func:`cache_dir`, which ``isles cache`` lists with sizes and clears, all of it
or one kit's entries.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from isles.models.errors import InvalidInput

__all__ = [
    "CACHE_ENV",
    "CacheEntry",
    "cache_dir",
    "cache_entries",
    "clear_cache",
    "kit_key",
    "numba_cache_dir",
    "writable_cache_dir",
]

CACHE_ENV = "ISLES_CACHE_DIR"
"""Environment variable naming the cache directory (it overrides the default)."""

NUMBA_FOLDER = "numba"
"""The sub-folder of :func:`cache_dir` that holds numba's compiled kernels."""


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


def writable_cache_dir(directory: str | Path | None = None) -> Path:
    """The cache directory, checked before work that will write in it.

    Parameters
    ----------
    directory : str or Path, optional
        The cache directory (default :func:`cache_dir`).

    Returns
    -------
    Path
        The folder, created if missing.

    Raises
    ------
    InvalidInput
        Naming ``$ISLES_CACHE_DIR`` (or the folder given) when it is a file, or
        cannot be made or written: a solve that could not keep its table is
        refused before it starts, not after.

    Examples
    --------
    >>> import tempfile
    >>> writable_cache_dir(tempfile.mkdtemp()).is_dir()
    True
    >>> writable_cache_dir("/dev/null/isles")
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: cache directory: '/dev/null/isles' is invalid; ...
    """
    root = cache_dir() if directory is None else Path(directory)
    field = CACHE_ENV if directory is None and os.environ.get(CACHE_ENV) else "cache directory"
    if root.exists() and not root.is_dir():
        raise InvalidInput(field, str(root), "a folder isles can write its cache in (a file)")
    try:
        root.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=root).close()
    except OSError as exc:
        raise InvalidInput(
            field, str(root), f"a folder isles can write its cache in ({exc.strerror or exc})"
        ) from None
    return root


def numba_cache_dir() -> Path | None:
    """The folder for numba's compiled kernels, created; None if it cannot be written.

    Returns
    -------
    Path or None
        ``cache_dir() / "numba"``, made if missing and checked writable. None
        tells the caller to compile without an on-disk cache rather than let
        numba fall back to the folder beside the installed source files.

    Examples
    --------
    >>> import os, tempfile
    >>> os.environ[CACHE_ENV] = tempfile.mkdtemp()
    >>> numba_cache_dir().name
    'numba'
    >>> del os.environ[CACHE_ENV]
    """
    folder = cache_dir() / NUMBA_FOLDER
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError:
        return None
    return folder


def kit_key(kit: dict[str, Any]) -> str:
    """A short key naming a lighthouse kit (its islands, dice and sea cards), for ``isles cache``.

    Parameters
    ----------
    kit : dict
        The kit as its ``to_dict()`` writes it.

    Returns
    -------
    str
        The first 12 hex digits of the SHA-256 of the kit's canonical JSON.

    Examples
    --------
    >>> kit_key({"islands": []}) == kit_key({"islands": []})
    True
    >>> len(kit_key({"islands": []}))
    12
    """
    text = json.dumps(kit, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:12]


@dataclass(frozen=True)
class CacheEntry:
    """One thing in the cache: a table, a file of start values, or the compiled kernels.

    Attributes
    ----------
    name : str
        The path under :func:`cache_dir` (``lighthouse/optimal-8x8-...``, ``numba``).
    kind : str
        ``"table"``, ``"start values"`` or ``"compiled kernels"``.
    size : int
        Bytes on disk.
    kit : str or None
        The kit's key (:func:`kit_key`), None for the compiled kernels.
    islands, sea_cards : int or None
        The kit's islands and sea cards, None when not a kit's entry.
    policy : str or None
        The policy of a table or of start values.
    """

    name: str
    kind: str
    size: int
    kit: str | None = None
    islands: int | None = None
    sea_cards: int | None = None
    policy: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The entry in the JSON dialect of docs/json.md."""
        return {
            "name": self.name,
            "kind": self.kind,
            "bytes": self.size,
            "kit": self.kit,
            "islands": self.islands,
            "sea_cards": self.sea_cards,
            "policy": self.policy,
        }


def _size(path: Path) -> int:
    if path.is_file():
        return path.stat().st_size
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def _kit_entry(path: Path, root: Path) -> CacheEntry | None:
    meta = path / "meta.json" if path.is_dir() else path
    try:
        saved = json.loads(meta.read_text(encoding="utf-8"))
        kit = saved["kit"]
        islands, cards = len(kit["islands"]), int(kit["sea_cards"])
        policy = str(saved["policy"])
    except (OSError, ValueError, KeyError, TypeError):
        return CacheEntry(path.relative_to(root).as_posix(), "unreadable", _size(path))
    kind = "table" if path.is_dir() else "start values"
    name = path.relative_to(root).as_posix()
    return CacheEntry(name, kind, _size(path), kit_key(kit), islands, cards, policy)


def cache_entries(directory: str | Path | None = None) -> list[CacheEntry]:
    """What the cache holds, with sizes.

    Parameters
    ----------
    directory : str or Path, optional
        The cache directory (default :func:`cache_dir`).

    Returns
    -------
    list of CacheEntry
        The lighthouse tables and start values, by name, then numba's compiled
        kernels (one entry for the folder); empty when there is no cache. Folders
        being written (``.partial-*``) are not listed.

    Raises
    ------
    InvalidInput
        When the cache directory is a file.

    Examples
    --------
    >>> cache_entries("/nonexistent")
    []
    """
    root = cache_dir() if directory is None else Path(directory)
    if root.exists() and not root.is_dir():
        field = CACHE_ENV if directory is None and os.environ.get(CACHE_ENV) else "cache directory"
        raise InvalidInput(field, str(root), "a folder (it is a file)")
    found: list[CacheEntry] = []
    lighthouse = root / "lighthouse"
    if lighthouse.is_dir():
        for path in sorted(lighthouse.iterdir()):
            if not path.name.startswith("."):
                entry = _kit_entry(path, root)
                if entry is not None:
                    found.append(entry)
    kernels = root / NUMBA_FOLDER
    if kernels.is_dir() and any(p.is_file() for p in kernels.rglob("*")):
        # (an empty folder is only numba's place made ready: nothing is cached)
        found.append(CacheEntry(NUMBA_FOLDER, "compiled kernels", _size(kernels)))
    return found


def clear_cache(kit: str | None = None, directory: str | Path | None = None) -> list[CacheEntry]:
    """Remove the whole cache, or one kit's entries; return what was removed.

    Parameters
    ----------
    kit : str, optional
        A kit's key as :func:`cache_entries` lists it (``CacheEntry.kit``), or
        ``"numba"`` for the compiled kernels. None removes everything.
    directory : str or Path, optional
        The cache directory (default :func:`cache_dir`).

    Returns
    -------
    list of CacheEntry
        The entries removed.

    Raises
    ------
    InvalidInput
        ``kit`` names nothing in the cache (the message lists the keys there are).

    Examples
    --------
    >>> import tempfile
    >>> clear_cache(directory=tempfile.mkdtemp())
    []
    >>> clear_cache("abc", directory=tempfile.mkdtemp())
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: kit: 'abc' is invalid; expected a kit key in the cache ...
    """
    root = cache_dir() if directory is None else Path(directory)
    entries = cache_entries(root)
    if kit is None:
        chosen = entries
    else:
        chosen = [e for e in entries if kit in (e.kit, e.name)]
        if not chosen:
            keys = sorted({e.kit or e.name for e in entries})
            there = ", ".join(keys) if keys else None
            raise InvalidInput(
                "kit",
                kit,
                f"a kit key in the cache (one of {there})"
                if there
                else "a kit key in the cache (it is empty)",
            )
    for entry in chosen:
        path = root / entry.name
        if path.is_dir():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)
    for folder in (root / "lighthouse", root / NUMBA_FOLDER):
        with contextlib.suppress(OSError):  # only if empty: nothing is left in it
            folder.rmdir()
    return chosen
