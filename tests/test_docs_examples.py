"""Every example of docs/*.md runs as written: its ```python blocks and `isles` command lines.

Each page's examples run in order, as a reader would type them, in one temporary
folder per page holding a copy of ``models/data`` (an example may read a file an
earlier one of the same page wrote); the Python blocks of a page share one
namespace. How they are read and judged is tests/doc_examples.py (shared with
tests/test_readme.py): exit status 0 or 1 passes, 2, a traceback or a bash error
fails; a line ending in ``# not run in tests`` is left out (the full 8-island game,
the web server, a Dask cluster).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.doc_examples import ROOT, example_folder, examples, run_in_order

PAGES = sorted((ROOT / "docs").glob("*.md"))


@pytest.fixture(autouse=True)
def _registries_restored() -> Iterator[None]:
    """docs/plunder.md registers a policy of its own, as a reader would: the
    registry is as it was after each page, so other tests see the built-ins."""
    from isles.solvers.plunder.registry import POLICIES

    before = dict(POLICIES)
    yield
    POLICIES.clear()
    POLICIES.update(before)


def test_every_page_with_commands_is_read() -> None:
    names = {page.name for page in PAGES}
    assert {"lighthouse.md", "rally.md", "layout.md", "plunder.md", "ships.md"} <= names
    counted = {page.name: len(examples(page.read_text(encoding="utf-8"))) for page in PAGES}
    assert counted["lighthouse.md"] >= 4 and counted["layout.md"] >= 8, counted


def test_a_heredoc_is_one_command_and_skipped_lines_are_left_out() -> None:
    page = (
        "```sh\ncat > a.json <<'EOF'\n{\"x\": 1}\nEOF\n"
        "isles rally  # slow # not run in tests\n```\n"
        "```\nisles rally --json\nan answer line\n```\n"
        "```python\nx = 1\ny = 2  # not run in tests\n```\n"
    )
    found = [(e.kind, e.code) for e in examples(page)]
    assert found == [
        ("command", "cat > a.json <<'EOF'\n{\"x\": 1}\nEOF"),
        ("command", "isles rally --json"),
        ("python", "x = 1\n"),
    ]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_the_examples_of_a_page_run_in_order(page: Path, tmp_path: Path) -> None:
    found = examples(page.read_text(encoding="utf-8"))
    failures = run_in_order(found, f"docs/{page.name}", example_folder(tmp_path))
    assert not failures, failures
