"""The README's examples run as written: every Python block, every `isles` command line.

Commands run in order, in bash, in one temporary folder holding a copy of the
example files of ``models/data`` (a command may read a file an earlier one saved). Exit status 0 or
1 (an answer, possibly "no") passes; 2 (bad input) or a traceback fails. A line
ending in the comment ``# not run in tests`` is skipped (the full 8-island game
and the like, measured in benchmarks/). The reading and running are those of
tests/doc_examples.py, shared with the pages of docs/ (tests/test_docs_examples.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import doc_examples
from tests.doc_examples import ROOT, command_lines, example_folder, inside, run_command, run_python

README = (ROOT / "README.md").read_text(encoding="utf-8")


def python_blocks() -> list[str]:
    return doc_examples.python_blocks(README)


def test_readme_has_examples() -> None:
    assert len(python_blocks()) >= 5
    assert len(command_lines(README, skip_blocks=1)) >= 10


@pytest.mark.parametrize("block", python_blocks(), ids=lambda b: b.split("\n", 1)[0][:40])
def test_python_example_runs(block: str, tmp_path: Path) -> None:
    with inside(tmp_path):
        run_python(block, "README.md", {"__name__": "readme"})


def test_command_examples_run_in_order(tmp_path: Path) -> None:
    """Each line runs in bash (pipes, redirections and `echo` work as for a reader)."""
    # The README's commands run from the repository's root: its example files are there.
    folder = example_folder(tmp_path)
    # The first block is the two install commands.
    failures = [
        failure
        for line in command_lines(README, skip_blocks=1)
        if (failure := run_command(line, folder)) is not None
    ]
    assert not failures, failures
