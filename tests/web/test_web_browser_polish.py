"""The table app's last items (issue 20) in a real headless Chromium: number fields,
refused files, and a game shared with the other phones at the table.

The fixtures (the server, the browser, a page that fails on any script error)
are those of tests/web/test_web_browser.py (docs/serve.md, "Tests").
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, FilePayload, Page, Request, ViewportSize, expect

from isles.web import create_app
from isles.web.tasks import TASKS
from tests.web.test_web_browser import (
    PHONE,
    browser,
    page,
    server,
    serving,
    store_plunder,
    three_player_turns,
)

pytestmark = pytest.mark.browser
__all__ = ["browser", "page", "server"]  # the fixtures, shared


def solves(page: Page) -> list[str]:
    """The job requests the page sends from now on."""
    sent: list[str] = []

    def seen(request: Request) -> None:
        if "/api/solve/" in request.url:
            sent.append(request.post_data or "")

    page.on("request", seen)
    return sent


def test_a_number_field_refuses_what_is_no_number_and_sends_nothing(
    server: str, page: Page
) -> None:
    page.goto(f"{server}/setup")
    seed = page.locator("#seed")
    said = page.locator('.field-error[data-field="seed"]')
    expect(seed).to_have_value("0")
    sent = solves(page)
    for typed, words in [
        ("abc", "Seed: “abc” is not a whole number (digits only)"),
        ("", "Seed: empty; type a whole number"),
        ("1e23", "Seed: “1e23” is not a whole number (digits only)"),  # as typed, not 1e+23
        ("2.5", "Seed: “2.5” is not a whole number (digits only)"),
        ("99999999999999999999", "Seed: “99999999999999999999” has too many digits"),
    ]:
        seed.fill(typed)
        seed.press("Tab")
        expect(said).to_contain_text(words)
        expect(seed).to_have_attribute("aria-invalid", "true")
        page.click("#lay")  # nothing is sent with the old seed in its place
        expect(said).to_contain_text(words)
    page.wait_for_timeout(300)
    assert sent == []
    stored = page.evaluate("() => JSON.parse(localStorage.getItem('isles.setup'))")
    assert stored["seed"] == 0  # no silent 0 (or any other number) taken as a change
    assert page.locator("#undo").is_disabled()
    seed.fill("-1")  # a number: the server's declaration says what is valid
    seed.press("Tab")
    expect(said).to_be_empty()
    page.click("#lay")
    expect(said).to_have_text("seed: -1 is invalid; expected an integer in 0..2147483647")
    assert [json.loads(body)["seed"] for body in sent] == [-1]
    seed.fill("7")
    seed.press("Tab")
    expect(said).to_be_empty()
    page.click("#undo")  # each number taken is one undo step
    expect(seed).to_have_value("-1")


def test_the_upload_buttons_own_refusal_stays_when_an_analysis_ends(
    server: str, page: Page
) -> None:
    held: list[Any] = []
    page.route("**/api/solve/plunder", lambda route: held.append(route))  # held until told
    store_plunder(page, server, {"players": 3, "observations": three_player_turns()[:1]})
    while not held:
        page.wait_for_timeout(50)
    upload = page.locator("span:has(> button:text-is('Load record')) input[type=file]")
    not_json: FilePayload = {"name": "r.json", "mimeType": "application/json", "buffer": b"{"}
    upload.set_input_files(files=[not_json])
    said = page.locator('.field-error[data-field="record"]')
    expect(said).to_have_text("record: r.json is not JSON")
    # The analysis ends: answered as the server answers a finished job (the library's own
    # analysis, computed here rather than in a job's process).
    task = TASKS["plunder"]
    analysis = task.run(task.read(json.loads(held[0].request.post_data or "{}")))
    done = {"job": "j", "kind": "plunder", "state": "done", "elapsed": 0.1, "time_limit": 60}
    done |= {"ahead": 0, "progress": None, "result": analysis, "error": None}
    held[0].fulfill(status=202, content_type="application/json", body=json.dumps(done))
    page.unroute("**/api/solve/plunder")
    expect(page.locator("#deals")).to_have_text(str(analysis["deals"]))  # the analysis ended
    expect(said).to_have_text("record: r.json is not JSON")
    good: FilePayload = {
        "name": "good.json",
        "mimeType": "application/json",
        "buffer": json.dumps({"players": 3, "observations": []}).encode(),
    }
    upload.set_input_files(files=[good])  # the next file: the refusal goes
    expect(page.locator(".turn")).to_have_count(0)
    expect(said).to_be_empty()


@pytest.fixture(scope="module")
def sharing() -> Iterator[str]:
    """A server started to share games (``isles serve --share``)."""
    with serving(create_app(allowed_hosts=("127.0.0.1",), share=True)) as address:
        yield address


def test_two_phones_follow_one_game_at_the_table(
    sharing: str, server: str, browser: Browser
) -> None:
    desk: ViewportSize = {"width": 1200, "height": 900}
    phones = [browser.new_context(viewport=size) for size in (desk, PHONE)]
    errors: list[str] = []
    mine, theirs = (context.new_page() for context in phones)
    for tab in (mine, theirs):
        tab.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        store_plunder(mine, sharing, {"players": 3, "observations": []})
        mine.click("#add-turn")
        expect(mine.locator(".turn")).to_have_count(1)
        mine.click("#share-table")
        code = mine.locator("#table-code")
        expect(code).to_have_text(re.compile(r"^[A-Z2-9]{6}$"))
        expect(mine.locator(".table-warning")).to_contain_text("Anyone on this network")
        link = mine.locator("#table-link").input_value()
        assert link == f"{sharing}/plunder?room={code.inner_text()}"
        theirs.goto(link)  # the other phone opens the table's address
        expect(theirs.locator("#table-code")).to_have_text(code.inner_text())
        expect(theirs.locator(".turn")).to_have_count(1)
        assert theirs.locator("#undo").get_attribute("title") == (
            f"Undo: join the table {code.inner_text()}"
        )
        theirs.click("#add-turn")  # their change reaches my phone
        expect(mine.locator(".turn")).to_have_count(2, timeout=10_000)
        assert mine.locator("#undo").get_attribute("title") == "Undo: from the table"
        mine.click("#undo")  # undone on my phone: the table follows (the newest wins)
        expect(mine.locator(".turn")).to_have_count(1)
        expect(theirs.locator(".turn")).to_have_count(1, timeout=10_000)
        theirs.click("#undo")  # and each phone's own steps stay its own
        expect(theirs.locator(".turn")).to_have_count(2)
        expect(mine.locator(".turn")).to_have_count(2, timeout=10_000)
        width = theirs.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], width
        theirs.click("#leave-table")
        expect(theirs.locator("#share-table")).to_be_visible()
        assert "room=" not in theirs.url
        asked: list[str] = []
        theirs.on("request", lambda r: asked.append(r.method) if "/api/rooms" in r.url else None)
        theirs.click("#add-turn")  # left: no longer sent, no longer asked
        expect(theirs.locator(".turn")).to_have_count(3)
        theirs.wait_for_timeout(1200)  # longer than a poll's wait
        assert asked == []
        expect(mine.locator(".turn")).to_have_count(2)
        # A server not started to share shows no table buttons, and says so for a room link.
        plain = phones[0].new_page()
        plain.goto(f"{server}/plunder?room={code.inner_text()}")
        expect(plain.locator("#table-status")).to_contain_text("does not share games")
        expect(plain.locator("#share-table")).to_be_hidden()
    finally:
        for context in phones:
            context.close()
    assert errors == []


def test_the_rally_number_fields_refuse_what_is_no_number(server: str, page: Page) -> None:
    page.goto(f"{server}/rally")
    page.click('g[data-hex="0,-3"] polygon')  # the start: a route could be asked for
    expect(page.locator("#taps")).to_contain_text("start: ")
    sent = solves(page)
    seed = page.locator("#seed")
    seed.fill("x1")
    seed.press("Tab")
    expect(page.locator('.field-error[data-field="seed"]')).to_have_text(
        "Seed: “x1” is not a whole number (digits only)"
    )
    page.check("#use-budget")
    ore = page.locator('input[data-resource="ore"]')
    ore.fill("")
    ore.press("Tab")
    expect(page.locator('.field-error[data-field="budget"]')).to_have_text(
        "ore in hand: empty; type a whole number"
    )
    page.click("#plan")
    page.wait_for_timeout(300)
    assert sent == []
    stored = page.evaluate("() => JSON.parse(localStorage.getItem('isles.rally'))")
    assert stored["budget"]["ore"] == 0 and stored["seed"] == 0  # nothing turned into 0
