"""The table app's last items (issue 20) in a real headless Chromium: number fields,
refused files, and a game shared with the other phones at the table.

The fixtures (the server, the browser, a page that fails on any script error)
are those of tests/test_web_browser.py (docs/serve.md, "Tests").
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import FilePayload, Page, Request, expect

from tests.test_web_browser import browser, page, server, store_plunder, three_player_turns

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
    store_plunder(page, server, {"players": 3, "observations": three_player_turns()})
    while not held:
        page.wait_for_timeout(50)
    upload = page.locator("span:has(> button:text-is('Load record')) input[type=file]")
    not_json: FilePayload = {"name": "r.json", "mimeType": "application/json", "buffer": b"{"}
    upload.set_input_files(files=[not_json])
    said = page.locator('.field-error[data-field="record"]')
    expect(said).to_have_text("record: r.json is not JSON")
    held[0].continue_()
    page.unroute("**/api/solve/plunder")
    expect(page.locator("#deals")).to_be_visible(timeout=20_000)  # the analysis ended
    expect(said).to_have_text("record: r.json is not JSON")
    good: FilePayload = {
        "name": "good.json",
        "mimeType": "application/json",
        "buffer": json.dumps({"players": 3, "observations": three_player_turns()[:1]}).encode(),
    }
    upload.set_input_files(files=[good])  # the next file: the refusal goes
    expect(page.locator(".turn")).to_have_count(1)
    expect(said).to_be_empty()
