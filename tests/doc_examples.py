"""The examples of a Markdown page, read and run as a reader would (README.md, docs/*.md).

Shared by tests/test_readme.py and tests/test_docs_examples.py. A page's examples
are its ```python blocks and its command lines: every line of a ```sh block (a
heredoc, ``cat > f <<'EOF'`` ... ``EOF``, is one command) and every line starting
with ``isles `` in an unlabelled block (the other lines there are the answer
printed). Commands run in bash, in order, in one folder holding a copy of the
example files of ``models/data``; exit status 0 or 1 (an answer, possibly "no")
passes, 2 (bad input), a traceback or a bash error (a file to read that does not
exist) fails. A line ending in :data:`SKIP` is left out (the full 8-island game
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
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

ROOT = Path(__file__).resolve().parent.parent
SKIP = "# not run in tests"

_FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
_HEREDOC = re.compile(r"<<-?\s*(['\"]?)(\w+)\1")


@dataclass(frozen=True)
class Example:
    """One example of a page: a Python block or one command (a heredoc included)."""

    kind: Literal["python", "command"]
    code: str

    @property
    def title(self) -> str:
        return self.code.strip().split("\n", 1)[0][:60]


def _commands(body: str, only_isles: bool) -> list[str]:
    lines = body.splitlines()
    out = []
    i = 0
    while i < len(lines):
        text = lines[i].strip()
        i += 1
        if not text or text.startswith("#") or (only_isles and not text.startswith("isles ")):
            continue
        heredoc = _HEREDOC.search(text)
        if heredoc is not None:
            end = heredoc.group(2)
            doc = [text]
            while i < len(lines) and lines[i].strip() != end:
                doc.append(lines[i])
                i += 1
            doc.append(end)
            i += 1
            text = "\n".join(doc)
        if not text.split("\n", 1)[0].endswith(SKIP):
            out.append(text)
    return out


def examples(text: str, skip_blocks: int = 0) -> list[Example]:
    """The page's examples in order, after its first ``skip_blocks`` ```sh blocks."""
    out: list[Example] = []
    sh_blocks = 0
    for lang, body in _FENCE.findall(text):
        if lang == "python":
            kept = [line for line in body.splitlines() if not line.rstrip().endswith(SKIP)]
            out.append(Example("python", "\n".join(kept) + "\n"))
        elif lang in ("sh", ""):
            if lang == "sh":
                sh_blocks += 1
                if sh_blocks <= skip_blocks:
                    continue
            out.extend(Example("command", c) for c in _commands(body, only_isles=lang == ""))
    return out


def python_blocks(text: str) -> list[str]:
    """The page's ```python blocks (lines ending in :data:`SKIP` left out)."""
    return [e.code for e in examples(text) if e.kind == "python"]


def command_lines(text: str, skip_blocks: int = 0) -> list[str]:
    """The page's command lines, in order."""
    return [e.code for e in examples(text, skip_blocks) if e.kind == "command"]


@contextlib.contextmanager
def inside(folder: Path) -> Iterator[None]:
    """Work in ``folder`` (the examples read and write files there)."""
    before = Path.cwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(before)


def example_folder(folder: Path) -> Path:
    """``folder`` with a copy of ``models/data`` (the example files the pages name)."""
    shutil.copytree(ROOT / "models" / "data", folder / "models" / "data")
    return folder


def run_python(code: str, name: str, namespace: dict[str, Any]) -> None:
    """Run a block with its prints swallowed, in ``namespace`` (shared by a page's blocks)."""
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(code, name, "exec"), namespace)


def run_command(line: str, folder: Path) -> str | None:
    """Run one command in bash in ``folder``; None when it passes, else what went wrong."""
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    done = subprocess.run(
        ["bash", "-c", f"set -o pipefail; {line}"],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    broken = "Traceback" in done.stderr or re.search(r"^bash: ", done.stderr, re.M)
    if done.returncode in (0, 1) and not broken:
        return None
    first = line.split("\n", 1)[0]
    return f"{first}: exit {done.returncode}: {done.stderr.strip()[-300:]}"


def run_in_order(page: list[Example], name: str, folder: Path) -> list[str]:
    """Run a page's examples in order in ``folder``; the failures, one line each."""
    failures = []
    namespace: dict[str, Any] = {"__name__": "docs_example"}
    with inside(folder):
        for example in page:
            if example.kind == "command":
                failure = run_command(example.code, folder)
                if failure is not None:
                    failures.append(failure)
                continue
            try:
                run_python(example.code, name, namespace)
            except Exception as exc:
                failures.append(f"{name}: python block {example.title!r}: {exc!r}"[:400])
    return failures
