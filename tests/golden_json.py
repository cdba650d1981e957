"""The ``--json`` answers of the README's and docs' command examples, as a reader gets them.

Shared by tests/test_golden_json.py (which compares them with the answers kept in
``tests/fixtures/golden_json.json``) and by its ``regenerate`` (run as
``python -m tests.golden_json`` when an answer is meant to change). Each page's
commands run in order in one folder holding a copy of ``models/data`` (as
tests/doc_examples.py runs them); every ``isles`` command that prints an answer
runs again with ``--json`` (added where the page leaves it out), and its standard
output is kept byte for byte, but for the few keys that measure the machine
rather than the game (:data:`VOLATILE`: seconds spent), which are blanked.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from tests.doc_examples import ROOT, command_lines, example_folder

FIXTURE = ROOT / "tests" / "fixtures" / "golden_json.json"

#: Keys whose values are the machine's, not the game's: seconds spent, memory.
VOLATILE = frozenset({"seconds", "elapsed", "wall_seconds", "solve_seconds", "cpu_seconds"})

#: The commands that answer with ``--json`` (the first words after ``isles``).
ANSWERING = ("rally", "plunder", "layout", "lighthouse", "sail", "risk", "ships")

PAGES = ("README.md", *sorted(f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md")))


def json_variant(line: str) -> str | None:
    """The line with ``--json`` on its last ``isles`` command, or None if it prints none."""
    if "\n" in line:  # a heredoc writes a file
        return None
    code = line.split(" #", 1)[0].rstrip()
    head, sep, last = code.rpartition("&& ")
    words = shlex.split(last.split("<", 1)[0])
    if len(words) < 2 or words[0] != "isles" or words[1] not in ANSWERING:
        return None
    if "--help" in words or words[1:3] == ["cache"]:
        return None
    if "--json" in words:
        return code
    # --png FILE draws a picture beside the answer; the answer is the same without it
    last = re.sub(r"\s--png\s+\S+", "", last)
    if "<" in last:
        command, _, rest = last.partition("<")
        last = f"{command.rstrip()} --json <{rest}"
    else:
        last = f"{last} --json"
    return f"{head}{sep}{last}"


def _writes(line: str) -> bool:
    """Whether an ``isles`` line saves a file another line may read (``--save``)."""
    return "--save" in line


def _blank(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: ("-" if k in VOLATILE else _blank(v)) for k, v in value.items()}
    if isinstance(value, list):
        return [_blank(v) for v in value]
    return value


def normalise(stdout: str) -> str:
    """The answer printed, its volatile keys blanked; the rest byte for byte."""
    try:
        data = json.loads(stdout)
    except ValueError:
        return stdout
    if _blank(data) == data:
        return stdout
    return json.dumps(_blank(data), sort_keys=True)


def _run(line: str, folder: Path) -> tuple[int, str]:
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
    return done.returncode, done.stdout


def page_answers(page: str, folder: Path) -> dict[str, str]:
    """Run ``page``'s commands in ``folder`` in order; the JSON answer of each, by its line."""
    text = (ROOT / page).read_text(encoding="utf-8")
    skip = 1 if page == "README.md" else 0  # the README's first block installs isles
    out: dict[str, str] = {}
    for line in command_lines(text, skip_blocks=skip):
        variant = json_variant(line)
        if variant is not None and variant != line.split(" #", 1)[0].rstrip() and _writes(line):
            _run(line, folder)  # as the page has it: it saves a file a later line reads
        status, stdout = _run(variant if variant is not None else line, folder)
        if variant is not None:
            out[f"{page}: {variant}"] = f"exit {status}\n{normalise(stdout)}"
    return out


def all_answers() -> dict[str, str]:
    """Every page's JSON answers, by ``page: command``."""
    out: dict[str, str] = {}
    for page in PAGES:
        with tempfile.TemporaryDirectory() as tmp:
            out.update(page_answers(page, example_folder(Path(tmp))))
    return out


def regenerate() -> None:
    """Write :data:`FIXTURE` from the answers of today's code."""
    FIXTURE.parent.mkdir(parents=True, exist_ok=True)
    FIXTURE.write_text(json.dumps(all_answers(), indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    regenerate()
