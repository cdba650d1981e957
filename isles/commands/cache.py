"""``isles cache``: what isles keeps in the user's cache directory, with sizes; clear it.

docs/lighthouse.md ("The cache"): the lighthouse tables (the real game's is
about 0.9 GB), greedy play's start values and numba's compiled kernels.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import isles
from isles.cli import emit_json

if TYPE_CHECKING:
    from isles import CacheEntry

ORDER = 95

__all__ = ["ORDER", "demo", "register"]


def _size(n: int) -> str:
    """``n`` bytes for a reader: ``312 B``, ``4.2 MB``, ``0.93 GB``."""
    if n < 1000:
        return f"{n} B"
    for unit, scale in (("kB", 1e3), ("MB", 1e6), ("GB", 1e9)):
        if n < scale * 1000 or unit == "GB":
            return f"{n / scale:.1f} {unit}"
    raise AssertionError  # pragma: no cover


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add ``isles cache [list|clear [KIT]]``."""
    p = subparsers.add_parser(
        "cache",
        help="list what isles keeps in the user's cache directory, with sizes; clear it",
        description="List the lighthouse tables, start values and compiled kernels isles "
        "keeps in the user's cache directory (ISLES_CACHE_DIR, else XDG_CACHE_HOME/isles, "
        "else ~/.cache/isles), with their sizes; `isles cache clear` removes all of it, "
        "`isles cache clear KIT` one kit's entries (KIT as listed).",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=_list)
    tasks = p.add_subparsers(dest="task", metavar="TASK")
    listing = tasks.add_parser("list", help="list the cache (the default)")
    listing.add_argument("--json", action="store_true", help="print one JSON object")
    listing.set_defaults(func=_list)
    clear = tasks.add_parser("clear", help="remove the whole cache, or one kit's entries")
    clear.add_argument(
        "kit", metavar="KIT", nargs="?", help="a kit's key as listed, or numba; all if omitted"
    )
    clear.add_argument("--json", action="store_true", help="print one JSON object")
    clear.set_defaults(func=_clear)


def _entries(n: int) -> str:
    return f"{n} entry" if n == 1 else f"{n} entries"


def _rows(entries: list[CacheEntry]) -> list[str]:
    lines = [f"{'kit':<13}{'islands':>8}{'cards':>6}  {'size':>9}  entry"]
    for e in entries:
        kit = e.kit or "-"
        islands = "-" if e.islands is None else str(e.islands)
        cards = "-" if e.sea_cards is None else str(e.sea_cards)
        what = e.kind if e.policy is None else f"{e.kind}, {e.policy} play"
        lines.append(f"{kit:<13}{islands:>8}{cards:>6}  {_size(e.size):>9}  {e.name} ({what})")
    return lines


def _list(args: argparse.Namespace) -> int:
    root = isles.cache_dir()
    entries = isles.cache_entries()
    total = sum(e.size for e in entries)
    if args.json:
        emit_json(
            {"directory": str(root), "entries": [e.to_dict() for e in entries], "bytes": total}
        )
        return 0
    print(f"isles cache: {root}")
    if not entries:
        print("empty")
        return 0
    for line in _rows(entries):
        print(line)
    print(f"total {_size(total)} in {_entries(len(entries))}")
    return 0


def _clear(args: argparse.Namespace) -> int:
    root = isles.cache_dir()
    removed = isles.clear_cache(args.kit)
    freed = sum(e.size for e in removed)
    if args.json:
        emit_json(
            {"directory": str(root), "removed": [e.to_dict() for e in removed], "bytes": freed}
        )
        return 0
    what = "the whole cache" if args.kit is None else f"kit {args.kit}"
    print(f"isles cache: removed {_entries(len(removed))} ({_size(freed)}) of {what} in {root}")
    return 0


def demo(out_dir: Path, echo: Callable[[str], None]) -> None:
    """One line: where the cache is and how to see it."""
    echo(f"== Cache: `isles cache` lists what isles keeps in {isles.cache_dir()}, with sizes ==")
