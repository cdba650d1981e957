"""The README's examples run as written: every Python block, every `isles` command line.

Commands run in order, in bash, in one temporary folder holding a copy of the
example files of ``models/data`` (a command may read a file an earlier one saved). Exit status 0 or
1 (an answer, possibly "no") passes; 2 (bad input) or a traceback fails. A line
ending in the comment ``# not run in tests`` is skipped (the full 8-island game
and the like, measured in benchmarks/).
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

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
    """Each line runs in bash (pipes, redirections and `echo` work as for a reader)."""
    # The README's commands run from the repository's root: its example files are there.
    shutil.copytree(ROOT / "models" / "data", tmp_path / "models" / "data")
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    failures = []
    for line in command_lines():
        done = subprocess.run(
            ["bash", "-c", f"set -o pipefail; {line}"],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            check=False,
            timeout=600,
        )
        if done.returncode not in (0, 1) or "Traceback" in done.stderr:
            failures.append(f"{line}: exit {done.returncode}: {done.stderr.strip()[-300:]}")
    assert not failures, failures
