"""The README's examples run as written: every Python block, every `isles` command line.

Commands run in order in one temporary folder (a command may read a file an
earlier one saved). Exit status 0 or 1 (an answer, possibly "no") passes; 2 (bad
input) or an exception fails. A line ending in the comment ``# not run in tests``
is skipped (the full 8-island game and the like, measured in benchmarks/).
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
from collections.abc import Iterator
from pathlib import Path

import pytest

from isles.cli import main

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
SKIP = "# not run in tests"


def python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README, re.S)


def command_lines() -> list[str]:
    blocks = re.findall(r"```sh\n(.*?)```", README, re.S)
    lines = []
    for block in blocks[1:]:  # the first block is the two install commands
        for line in block.splitlines():
            text = line.strip()
            if text and not text.startswith("#") and not text.endswith(SKIP):
                lines.append(text)
    return lines


@contextlib.contextmanager
def inside(folder: Path) -> Iterator[None]:
    before = Path.cwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(before)


def test_readme_has_examples() -> None:
    assert len(python_blocks()) >= 5
    assert len(command_lines()) >= 10


@pytest.mark.parametrize("block", python_blocks(), ids=lambda b: b.split("\n", 1)[0][:40])
def test_python_example_runs(block: str, tmp_path: Path) -> None:
    with inside(tmp_path), contextlib.redirect_stdout(io.StringIO()):
        exec(compile(block, "README.md", "exec"), {"__name__": "readme"})


def test_command_examples_run_in_order(tmp_path: Path) -> None:
    failures = []
    with inside(tmp_path):
        for line in command_lines():
            words = shlex.split(line, comments=True)
            assert words[0] == "isles", line
            out, err = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                try:
                    code = main(words[1:])
                except SystemExit as exc:  # argparse usage errors
                    code = int(exc.code or 0)
            if code not in (0, 1):
                failures.append(f"{line}: exit {code}: {err.getvalue().strip()}")
    assert not failures, failures
