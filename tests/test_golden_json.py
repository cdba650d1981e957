"""The ``--json`` of the README's and docs' examples, byte for byte as kept.

Each page's commands run in order as a reader types them (tests/golden_json.py);
every answering ``isles`` command runs with ``--json`` and its output is compared
with ``tests/fixtures/golden_json.json``, kept from the code before the packages
were moved (issue 34: a move changes no answer). Only the keys that measure the
machine (seconds spent) are blanked. An answer meant to change is kept anew with
``python -m tests.golden_json``, and the change said in CHANGELOG.md.
"""

from __future__ import annotations

import difflib
import json
from pathlib import Path

import pytest

from tests.doc_examples import example_folder
from tests.golden_json import FIXTURE, PAGES, json_variant, normalise, page_answers

KEPT: dict[str, str] = json.loads(FIXTURE.read_text(encoding="utf-8"))


def test_every_page_has_answers_kept() -> None:
    pages = {key.split(": ", 1)[0] for key in KEPT}
    assert {"README.md", "docs/rally.md", "docs/layout.md", "docs/lighthouse.md"} <= pages
    assert len(KEPT) >= 60


def test_the_json_variant_of_a_line() -> None:
    assert json_variant("isles rally --start 0,-3   # note") == "isles rally --start 0,-3 --json"
    assert (
        json_variant("isles sail --from 0,1:0,2 --png f.png") == "isles sail --from 0,1:0,2 --json"
    )
    assert json_variant("isles plunder - < r.json") == "isles plunder - --json < r.json"
    assert json_variant("isles cache") is None and json_variant("isles serve --help") is None
    assert json_variant("echo x > f.json") is None
    assert normalise('{"seconds": 1.5, "a": 1}') == '{"a": 1, "seconds": "-"}'


@pytest.mark.parametrize("page", PAGES)
def test_the_json_answers_of_a_page_are_as_kept(page: str, tmp_path: Path) -> None:
    found = page_answers(page, example_folder(tmp_path))
    kept = {k: v for k, v in KEPT.items() if k.startswith(f"{page}: ")}
    assert sorted(found) == sorted(kept), "the page's commands changed: keep them anew"
    for command, answer in found.items():
        if answer != kept[command]:
            diff = "\n".join(
                list(
                    difflib.unified_diff(
                        kept[command].splitlines(), answer.splitlines(), "kept", "now", lineterm=""
                    )
                )[:12]
            )
            pytest.fail(f"{command}: the answer changed\n{diff}")
