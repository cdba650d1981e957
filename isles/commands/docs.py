"""``isles docs``: the rule decisions, formats and seed documents, installed with isles.

The pages are the project's ``docs/`` (docs/json.md, docs/boards.md and one page
per game) and the four French rule documents of ``seeds/``.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from isles.models.errors import InvalidInput

ORDER = 90


def pages() -> dict[str, Traversable]:
    """Every page by name: ``rally`` for docs/rally.md, ``000`` for the seed 000_....txt."""
    root = resources.files("isles")
    out: dict[str, Traversable] = {}
    for entry in sorted(root.joinpath("docs").iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".md"):
            out[entry.name.removesuffix(".md")] = entry
    for entry in sorted(root.joinpath("seeds").iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".txt"):
            out[entry.name.split("_")[0]] = entry
    return out


#: What each seed document is (they are French and have no title line of their own).
SEED_TITLES = {
    "000": "the rules of Lighthouses (French seed document)",
    "002": "the rules of the Catan car rally (French seed document)",
    "003": "the rules of Plunder (French seed document)",
    "004": "the rules of the Catan ships scenario (French seed document)",
}


def _title(name: str, entry: Traversable) -> str:
    if name in SEED_TITLES:
        return SEED_TITLES[name]
    for line in entry.read_text(encoding="utf-8").splitlines():
        if line.strip():
            return line.lstrip("# ").strip()[:70]
    return ""


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add ``isles docs [PAGE]``."""
    p = subparsers.add_parser(
        "docs",
        help="print the rule decisions and formats (docs/) or a seed document",
        description="Without a PAGE, list the pages; with one, print it. The pages are "
        "the rule decisions isles takes, its file formats (json, boards) and the four "
        "French rule documents it implements (seeds 000, 002, 003, 004).",
    )
    p.add_argument("page", nargs="?", help="a page name from the list, e.g. rally or 002")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """List the pages, or print one."""
    found = pages()
    if args.page is None:
        for name, entry in found.items():
            print(f"{name:<12} {_title(name, entry)}")
        return 0
    if args.page not in found:
        raise InvalidInput("PAGE", args.page, "one of " + ", ".join(found))
    print(found[args.page].read_text(encoding="utf-8"), end="")
    return 0


def demo(out_dir: Path, echo: Callable[[str], None]) -> None:
    """Nothing to show in ``isles demo``: the pages are read with ``isles docs``."""
    echo("== Documentation: `isles docs` lists the pages, `isles docs rally` prints one ==")
