"""The rally page says what is wrong in its own words, and frees the server (issue 21).

In a real headless Chromium: a race asked with no start tapped, or one owner
picked twice, is said at once and never sent; a change while a job runs cancels
it; ``/rally?room=CODE`` on a server that does not share says so.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Page, Route, expect

from tests.web.test_web_browser import browser, page, server
from tests.web.test_web_browser_pages import tap

pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings("ignore::DeprecationWarning")]
__all__ = ["browser", "page", "server"]  # the fixtures, shared


def towns(page: Page) -> None:
    """The two-towns board, loaded: a tap before it comes would land on the old board."""
    page.select_option("#source", "towns")
    expect(page.locator("#board")).not_to_have_attribute("aria-busy", "true")


def race_page(page: Page, server: str, sent: list[str]) -> None:
    page.on("request", lambda r: sent.append(r.url) if "/api/solve/race" in r.url else None)
    page.goto(f"{server}/rally")
    page.wait_for_selector("#plan")
    towns(page)
    page.select_option("#mode", "race")
    expect(page.locator(".car")).to_have_count(2)


def test_a_race_with_no_start_is_said_in_the_page_s_words(server: str, page: Page) -> None:
    sent: list[str] = []
    race_page(page, server, sent)
    page.click("#plan")
    error = page.locator('.field-error[data-field="cars"]')
    expect(error).to_contain_text("car 1 (blue): tap the car's start hex first")
    assert "null" not in error.inner_text() and sent == []


def test_an_owner_cannot_be_picked_twice(server: str, page: Page) -> None:
    sent: list[str] = []
    race_page(page, server, sent)
    first, second = (
        page.locator('.car[data-car="0"] select'),
        page.locator('.car[data-car="1"] select'),
    )
    expect(first).to_have_value("blue")
    expect(second).to_have_value("red")
    first.select_option("red")  # red drives car 2: the two cars swap owners
    expect(first).to_have_value("red")
    expect(second).to_have_value("blue")
    assert page.locator("#undo").get_attribute("title") == "Undo: car 1: red, car 2: blue"


def test_a_change_while_a_job_runs_cancels_it(server: str, page: Page) -> None:
    cancelled: list[str] = []
    running = {"job": "j1", "state": "running", "elapsed": 0.5, "time_limit": 120.0}

    def solve(route: Route) -> None:
        route.fulfill(status=202, content_type="application/json", body=json.dumps(running))

    def jobs(route: Route) -> None:
        if route.request.url.endswith("/cancel"):
            cancelled.append(route.request.url)
            answer: dict[str, Any] = {**running, "state": "cancelled"}
        else:
            answer = running
        route.fulfill(status=200, content_type="application/json", body=json.dumps(answer))

    page.route("**/api/solve/income", solve)
    page.route("**/api/jobs/j1**", jobs)
    page.goto(f"{server}/rally")
    page.wait_for_selector("#plan")
    towns(page)
    page.select_option("#mode", "income")
    tap(page, "0,-3")
    page.click("#plan")
    expect(page.locator(".job")).to_have_attribute("data-state", "running")
    assert cancelled == []
    page.click('button[data-hand="brick"]')  # the inputs change: the answer is not wanted
    expect(page.locator(".job")).to_have_attribute("data-state", "cancelled")
    assert cancelled and cancelled[0].endswith("/api/jobs/j1/cancel")


def test_a_room_link_on_a_server_that_does_not_share_says_so(server: str, page: Page) -> None:
    page.goto(f"{server}/rally?room=K7Q2MD")
    status = page.locator("#table-status")
    expect(status).to_be_visible()
    expect(status).to_contain_text("K7Q2MD cannot be joined: this server does not share games")
    expect(page.locator("#share-table")).to_have_count(0)


def test_an_inland_start_asks_for_goals_and_within_is_one_name(server: str, page: Page) -> None:
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.url) if "/api/solve/income" in r.url else None)
    page.goto(f"{server}/rally")
    page.wait_for_selector("#plan")
    towns(page)
    page.select_option("#mode", "income")
    tap(page, "1,-1")  # inland: no start group, so no default goals
    expect(page.locator("#goals-note")).to_contain_text("no default goals")
    page.click("#plan")
    error = page.locator('.field-error[data-field="goals"]')
    expect(error).to_contain_text(
        "goals: tap the goals (Tap: goals): this start has no default goals"
    )
    assert "null" not in error.inner_text() and sent == []
    page.fill("#within", "x")
    page.click("#plan")
    expect(page.locator('.field-error[data-field="within"]')).to_contain_text("within: ")


def test_a_board_on_its_way_takes_no_taps(server: str, page: Page) -> None:
    held: list[Route] = []
    page.goto(f"{server}/rally")
    page.wait_for_selector("#plan")
    expect(page.locator("#board")).not_to_have_attribute("aria-busy", "true")
    page.route("**/api/examples/beginner-towns", lambda route: held.append(route))
    page.select_option("#source", "towns")
    board = page.locator("#board")
    expect(board).to_have_attribute("aria-busy", "true")
    hex_ = page.locator('g[data-hex="0,-3"] polygon')
    assert hex_.evaluate("e => getComputedStyle(e).pointerEvents") == "none"
    while not held:
        page.wait_for_timeout(20)
    held[0].continue_()
    expect(board).not_to_have_attribute("aria-busy", "true")
    assert hex_.evaluate("e => getComputedStyle(e).pointerEvents") != "none"
    tap(page, "0,-3")
    expect(page.locator("#goals-note")).to_contain_text("goals")
    expect(page.locator("#goals-note")).not_to_contain_text("Tap the car's start hex")


def test_a_board_chosen_while_the_first_one_comes_stands(server: str, page: Page) -> None:
    """The page's first board (the beginner's) answers only after the player chose the
    two-towns board: the late answer is dropped, the towns board stands, taps land on it
    (before, the late beginner board replaced it, and the board select said "beginner")."""
    held: list[Route] = []
    page.route("**/api/examples/beginner", lambda route: held.append(route))
    page.goto(f"{server}/rally")
    page.wait_for_selector("#source")
    page.select_option("#source", "towns")
    expect(page.locator("#board")).not_to_have_attribute("aria-busy", "true")
    assert len(held) == 1, held
    with page.expect_response("**/api/examples/beginner"):
        held[0].continue_()  # the first board comes now, late
    expect(page.locator("#source")).to_have_value("towns")
    expect(page.locator("#board")).not_to_have_attribute("aria-busy", "true")
    page.select_option("#mode", "income")
    tap(page, "0,-3")
    expect(page.get_by_role("alert")).to_have_count(0)


def _seed_3_before_the_first_board(server: str, page: Page) -> list[Route]:
    """The rally page opened with its first board held, the seed changed meanwhile (a
    step); the board's held request, and any later one."""
    held: list[Route] = []
    page.route("**/api/examples/beginner", lambda route: held.append(route))
    page.goto(f"{server}/rally")
    page.wait_for_selector("#seed")
    page.fill("#seed", "3")
    page.locator("#seed").dispatch_event("change")
    expect(page.locator("#undo")).to_be_enabled()
    return held


def test_an_undo_past_the_first_board_lays_it_again(server: str, page: Page) -> None:
    """A step taken while the page's first board comes (the seed changed) and undone
    after it came: the page is back before the step, with a board (before, the undo went
    back to the page as it was before any board, and showed none)."""
    held = _seed_3_before_the_first_board(server, page)
    assert len(held) == 1, held
    with page.expect_response("**/api/examples/beginner"):
        held[0].continue_()  # the first board comes now, after the step
    hexes = page.locator('g[data-hex="0,-3"] polygon')
    expect(hexes).to_be_visible()
    page.unroute("**/api/examples/beginner")
    page.click("#undo")
    expect(page.locator("#seed")).to_have_value("0")
    expect(hexes).to_be_visible()
    stored = page.evaluate("JSON.parse(localStorage.getItem('isles.rally'))")
    assert stored["board"] is not None and stored["seed"] == 0
    page.select_option("#mode", "income")
    tap(page, "0,-3")
    expect(page.get_by_role("alert")).to_have_count(0)


def test_a_redo_drops_the_board_its_undo_asked_for(server: str, page: Page) -> None:
    """Undone back to the state with no board (its board asked for, still coming), then
    redone: the late board is dropped, the redone state stands (before, it came as "new
    board (beginner)" over it and the start tapped was lost)."""
    held = _seed_3_before_the_first_board(server, page)
    with page.expect_response("**/api/examples/beginner"):
        held.pop().continue_()
    tap(page, "0,-3")  # the start
    stored = "JSON.parse(localStorage.getItem('isles.rally'))"
    assert page.evaluate(stored)["start"] is not None
    page.click("#undo")
    page.click("#undo")  # seed 0, no board: its board asked for, held
    expect(page.locator("#seed")).to_have_value("0")
    page.wait_for_function(
        "() => document.querySelector('#board').getAttribute('aria-busy') === 'true'"
    )
    assert len(held) == 1, held
    page.click("#redo")
    page.click("#redo")
    expect(page.locator("#seed")).to_have_value("3")
    before = page.evaluate(stored)
    with page.expect_response("**/api/examples/beginner"):
        held.pop().continue_()  # the board the undo asked for comes now, late
    page.wait_for_timeout(300)
    assert page.evaluate(stored) == before
    assert before["start"] is not None and before["board"] is not None
    expect(page.locator("#undo")).not_to_have_attribute("title", "Undo: new board (beginner)")
    expect(page.locator("#board")).not_to_have_attribute("aria-busy", "true")
