"""The pages of ``isles serve`` in a real headless Chromium (docs/serve.md, "Tests").

Debian's ``chromium`` (``/usr/bin/chromium``) driven by Playwright; the README's
test command installs both. A Plunder game entered turn by turn reaches the
library's posterior, a lighthouse position is advised, a route is drawn, a
reload keeps the state, and a phone-sized screen needs no sideways scrolling.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import shutil
import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
import uvicorn
from playwright.sync_api import (
    Browser,
    FilePayload,
    Page,
    Route,
    ViewportSize,
    expect,
    sync_playwright,
)

from isles import lighthouse, plunder, rally
from isles.models.errors import InvalidInput
from isles.web import create_app
from isles.web.screenshots import CHROMIUM, CHROMIUM_ARGS
from isles.web.tasks import DIG_SAMPLES, Task
from tests.web.nap import LATE_LAYOUT, LATE_PLUNDER, LATE_ROUTE, NAP, SLOW_LIGHTHOUSE, SLOW_PLUNDER

pytestmark = pytest.mark.browser

CATEGORIES = ("island", "marker", "trap")
PHONE: ViewportSize = {"width": 390, "height": 844}


@contextlib.contextmanager
def serving(app: Any) -> Iterator[str]:
    """Serve ``app`` on a free loopback port in a thread: its address."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    port = sock.getsockname()[1]
    uv = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=uv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not uv.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}"
    uv.should_exit = True
    thread.join(10)
    sock.close()


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with serving(create_app(allowed_hosts=("127.0.0.1",))) as address:
        yield address


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if shutil.which(CHROMIUM) is None:
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium (the README's command)")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture()
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda exc: errors.append(str(exc)))
    yield tab
    context.close()
    assert errors == []


def enter_turn(page: Page, index: int, turn: plunder.Observation, me: int | None = None) -> None:
    """Tap a turn in; my own answer (``me``) the page fills in from my code."""
    page.click("#add-turn")
    box = page.locator(f'.turn[data-turn="{index}"]')
    box.locator("select.active").select_option(str(turn.active))
    for category in ("island", "marker", "trap"):
        value = getattr(turn.clue, category)
        box.locator(f'[data-testid="clue-{index}-{category}"] button[data-value="{value}"]').click()
    for player, said in sorted(turn.answers.items()):
        button = f'.turn[data-turn="{index}"] button[data-player="{player}"]'
        if player == me:
            expect(page.locator(button)).to_have_text(f"P{me} (me): {'yes' if said else 'no'}")
            continue
        page.click(button)  # ? -> yes
        if not said:
            page.click(button)  # yes -> no


def grid(page: Page) -> dict[tuple[int, str, int], str]:
    cells = page.locator("#grid td[data-exact]").evaluate_all(
        "cells => cells.map(c => [c.dataset.player, c.dataset.category, c.dataset.value,"
        " c.dataset.exact])"
    )
    return {(int(p), c, int(v)): exact for p, c, v, exact in cells}


def library_grid(result: dict[str, Any]) -> dict[tuple[int, str, int], str]:
    return {
        (player["player"], category, entry["value"]): entry["p_exact"]
        for player in result["players"]
        for category in ("island", "marker", "trap")
        for entry in player[category]
    }


def test_plunder_turn_by_turn_reaches_the_librarys_posterior(server: str, page: Page) -> None:
    record = plunder.example_record()
    assert record.me is not None
    page.goto(f"{server}/plunder")
    page.select_option("#players", str(record.players))
    page.select_option("#me", str(record.me.player))
    for category in ("island", "marker", "trap"):
        value = getattr(record.me.code, category)
        page.click(f'[data-testid="me-{category}"] button[data-value="{value}"]')
    for index, turn in enumerate(record.observations):
        enter_turn(page, index, turn, me=record.me.player)
    expected = plunder.analyse(record).to_dict()
    expect(page.locator("#deals")).to_have_text(str(expected["deals"]), timeout=20_000)
    assert grid(page) == library_grid(expected)
    assert page.locator("#forced li").count() == len(expected["forced"])

    # A wrong answer: the smallest conflicting set is shown, and tapping fixes it.
    wrong = '.turn[data-turn="1"] button[data-player="1"]'  # yes -> no
    page.click(wrong)
    expect(page.locator("#status")).to_have_text(
        "Inconsistent: these answers cannot all be true", timeout=20_000
    )
    turns = record.to_dict()["observations"]
    turns[1]["answers"]["1"] = False
    broken_record = plunder.Record.from_dict({**record.to_dict(), "observations": turns})
    broken = plunder.analyse(broken_record).to_dict()
    assert page.locator("#conflict li").count() == len(broken["conflict"])
    expect(page.locator("button.conflict")).to_have_count(len(broken["conflict"]))
    page.click(wrong)  # no -> ?
    page.click(wrong)  # ? -> yes
    expect(page.locator("#deals")).to_have_text(str(expected["deals"]), timeout=20_000)

    # A reload keeps the game; the record downloads in the library's format.
    page.reload()
    expect(page.locator("#deals")).to_have_text(str(expected["deals"]), timeout=20_000)
    assert page.locator(".turn").count() == len(record.observations)
    with page.expect_download() as download:
        page.get_by_text("Download record").click()
    path = download.value.path()
    assert path is not None
    saved = plunder.Record.load(path)
    assert saved.observations == record.observations and saved.me == record.me

    page.click("#advise")
    expect(page.locator("#guesses tr")).to_have_count(
        1 + len(plunder.analyse(record, advise=True).to_dict()["advice"]["guesses"]),
        timeout=20_000,
    )
    targets = plunder.dig_advice(record, samples=DIG_SAMPLES).targets
    expect(page.locator("#dig tr")).to_have_count(1 + len(targets))
    best = page.locator("#dig tr").nth(1).locator("td.best")
    expect(best).to_have_count(1)


def _enter_red_on_island_0(page: Page) -> None:
    """Two islands, 3 sea cards: red's lighthouse on island 0, the boat on 1, blue and green."""
    page.select_option("#mode", "islands")
    page.select_option("#islands", "2")
    page.select_option("#sea-cards", "3")
    page.click('.lighthouse[data-island="0"] button[data-add="red"]')
    page.click('button[data-boat="1"]')
    page.click('[data-die="0"] button[data-face="blue"]')
    page.click('[data-die="1"] button[data-face="green"]')


def _red_on_island_0_advice() -> dict[str, Any]:
    """The library's best move in the position ``_enter_red_on_island_0`` enters."""
    kit = lighthouse.default_kit(2, 3)
    return lighthouse.best_move(
        kit,
        lighthouse.Position((("red",), ()), boat=1, maurice=0),
        lighthouse.Roll.from_faces(kit, ("blue", "green")),
    ).to_dict()


def test_lighthouse_position_advised(server: str, page: Page) -> None:
    page.goto(f"{server}/lighthouse")
    _enter_red_on_island_0(page)
    page.click("#advise")
    advice = _red_on_island_0_advice()
    expect(page.locator("#win")).to_have_text(f"{advice['win_probability']:.6f}", timeout=30_000)
    assert page.locator("#alternatives tr").count() == 1 + len(advice["alternatives"])
    best = ", then ".join(f"{c} on island {i}" for c, i in advice["best"]["placements"])
    expect(page.locator("#best")).to_have_text(best)
    page.reload()  # the position is kept
    expect(page.locator('button[data-boat="1"]')).to_have_attribute("aria-pressed", "true")
    expect(page.locator('.lighthouse[data-island="0"] .disc')).to_have_text(["red"])


def test_route_drawn_with_its_cost(server: str, page: Page) -> None:
    page.goto(f"{server}/rally")
    page.click('g[data-hex="0,-3"] polygon')
    page.click('button[data-tap="road"]')
    page.click('g[data-hex="0,-2"] polygon')
    page.click('g[data-hex="0,-1"] polygon')
    page.click("#plan")
    route = rally.plan_route(rally.beginner_board(), (0, -3), roads=[((0, -2), (0, -1))])
    expect(page.locator("#status")).to_have_text("optimal", timeout=20_000)
    expect(page.locator("#cost")).to_contain_text(f"{route.total_cards} cards")
    points = page.locator("polyline.route").get_attribute("points")
    assert route.path is not None and points is not None
    assert len(points.split()) == len(route.path)
    assert page.locator("line.road").count() == 1
    page.reload()
    expect(page.locator("polyline.route")).to_have_count(1)


def test_a_stored_game_the_page_cannot_draw_starts_afresh(server: str, page: Page) -> None:
    page.goto(f"{server}/plunder")
    page.evaluate("""localStorage.setItem("isles.plunder", '{"record": {"players": 3}}')""")
    page.reload()
    expect(page.locator("#players")).to_have_value("4")
    expect(page.locator("#add-turn")).to_be_visible()


def test_names_are_shown_as_text_never_as_html(server: str, page: Page) -> None:
    names = {
        category: [f'<img src=x onerror="window.owned=1">{category}{k}' for k in range(6)]
        for category in ("island", "marker", "trap")
    }
    record = {**plunder.example_record().to_dict(), "names": names}
    page.goto(f"{server}/plunder")
    store = "record => localStorage.setItem('isles.plunder', JSON.stringify({record}))"
    page.evaluate(store, record)
    page.reload()
    expect(page.locator("#deals")).to_have_text("162", timeout=20_000)
    assert page.locator("img").count() == 0
    assert page.evaluate("window.owned === undefined")
    expect(page.get_by_text(names["island"][2]).first).to_be_visible()
    # Long names wrap or scroll inside their table: the page itself never scrolls sideways.
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 1200


@pytest.mark.parametrize("path", ["/plunder", "/lighthouse", "/rally", "/setup"])
def test_phone_screen_needs_no_sideways_scrolling(server: str, browser: Browser, path: str) -> None:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    tab = context.new_page()
    tab.goto(f"{server}{path}")
    expect(tab.locator("header.top")).to_be_visible()
    tab.wait_for_load_state("networkidle")
    width = tab.evaluate("document.documentElement.scrollWidth")
    context.close()
    assert width <= PHONE["width"]


# At the table: undo, drafts, cancel, busy, a closed tab (issue 20) --------------------


def answers_shown(page: Page, turn: int) -> list[str]:
    return page.locator(f'.turn[data-turn="{turn}"] .answers button').all_inner_texts()


def test_plunder_loses_nothing_and_every_change_can_be_undone(server: str, page: Page) -> None:
    record = plunder.example_record()
    page.goto(f"{server}/plunder")
    page.click("#example")
    expected = plunder.analyse(record).to_dict()
    expect(page.locator("#deals")).to_have_text(str(expected["deals"]), timeout=20_000)
    before = answers_shown(page, 0)
    # 4 -> 3 -> 4 players: P3's answers are hidden, then shown again, never deleted.
    page.select_option("#players", "3")
    expect(page.locator("#hidden-answers")).to_contain_text("kept, hidden")
    assert all("P3" not in text for text in answers_shown(page, 0))
    page.select_option("#players", "4")
    assert answers_shown(page, 0) == before
    expect(page.locator("#deals")).to_have_text(str(expected["deals"]), timeout=20_000)
    # Delete turn asks first; "Keep" keeps it, "Delete" deletes it, Undo brings it back.
    turns = len(record.observations)
    page.locator('.turn[data-turn="2"] button.delete-turn').click()
    page.click("dialog .confirm-no")
    expect(page.locator(".turn")).to_have_count(turns)
    page.locator('.turn[data-turn="2"] button.delete-turn').click()
    page.click("dialog .confirm-yes")
    expect(page.locator(".turn")).to_have_count(turns - 1)
    expect(page.locator("#undo")).to_have_attribute("title", "Undo: delete turn 3")
    page.click("#undo")
    expect(page.locator(".turn")).to_have_count(turns)
    page.click("#redo")
    expect(page.locator(".turn")).to_have_count(turns - 1)
    page.click("#undo")
    # A reload keeps the game and its undo steps.
    page.reload()
    expect(page.locator(".turn")).to_have_count(turns)
    expect(page.locator("#redo")).to_be_enabled()
    expect(page.locator("#deals")).to_have_text(str(expected["deals"]), timeout=20_000)

    # Whose turn it is, plainly (P3 was the last active player; I am P0).
    assert record.me is not None and record.observations[-1].active == 3
    expect(page.locator("#whose-turn")).to_have_text("It is my turn (P0).")
    # My own answers come from my code, not from taps.
    mine = page.locator('.turn[data-turn="6"] button[data-mine="1"]')
    expect(mine).to_be_disabled()
    expect(mine).to_have_text(f"P0 (me): {'yes' if record.observations[6].answers[0] else 'no'}")

    # A turn being entered is a draft: the grid stays, "incomplete", nothing red.
    page.click("#add-turn")
    expect(page.locator("#counted")).to_contain_text(f"turn {turns + 1} incomplete")
    expect(page.locator(f'.turn[data-turn="{turns}"] .draft-note')).to_contain_text("waiting for")
    expect(page.locator("#grid")).to_be_visible()
    expect(page.locator(".status.bad")).to_have_count(0)
    assert grid(page) == library_grid(expected)
    expect(page.locator("#whose-turn")).to_have_text(
        "It is P1's turn; mine (P0) comes after 3 more turns."
    )

    # The whole game travels in a link, opened elsewhere with no server state.
    page.click("#share")
    link = page.locator("#share-link").input_value()
    other = page.context.browser
    assert other is not None
    fresh = other.new_context()
    tab = fresh.new_page()
    tab.goto(link)
    expect(tab.locator(".turn")).to_have_count(turns + 1)
    expect(tab.locator("#deals")).to_have_text(str(expected["deals"]), timeout=20_000)
    expect(tab.locator("#undo")).to_have_attribute("title", "Undo: open a shared link")
    fresh.close()


@pytest.fixture(scope="module")
def busy_server() -> Iterator[str]:
    """One job slot and one waiting place, filled by the tests' own sleeping jobs."""
    app = create_app(allowed_hosts=("127.0.0.1",), max_running=1, max_queued=1, tasks={"nap": NAP})
    with serving(app) as address:
        yield address


def nap(client: httpx.Client) -> str:
    response = client.post("/api/solve/nap", json={"seconds": 60})
    assert response.status_code == 202, response.text
    job: str = response.json()["job"]
    return job


def test_busy_is_waiting_and_cancel_is_no_error(busy_server: str, page: Page) -> None:
    """Busy: "waiting", asked again; Cancel: "cancelled", neutral; the grid stays."""
    record = plunder.example_record()
    expected = plunder.analyse(record).to_dict()
    page.goto(f"{busy_server}/plunder")
    page.click("#example")
    expect(page.locator("#deals")).to_have_text(str(expected["deals"]), timeout=20_000)
    with httpx.Client(base_url=busy_server) as client:
        running, waiting = nap(client), nap(client)  # the slot and the queue are full
        page.click('.turn[data-turn="1"] button[data-player="1"]')  # yes -> no
        status = page.locator(".job .job-text")
        expect(status).to_contain_text("waiting: the server is busy", timeout=10_000)
        expect(page.locator(".status.bad")).to_have_count(0)
        client.post(f"/api/jobs/{waiting}/cancel", json={})  # a waiting place frees up
        expect(status).to_have_text("waiting, next in line", timeout=10_000)
        page.click(".job button.cancel")
        expect(status).to_have_text("cancelled")
        expect(page.locator(".job")).to_have_attribute("data-state", "cancelled")
        expect(page.locator(".field-error:not(:empty)")).to_have_count(0)
        expect(page.locator(".status.bad")).to_have_count(0)
        expect(page.locator("#grid")).to_be_visible()  # the last complete result stays
        client.post(f"/api/jobs/{running}/cancel", json={})
    page.click('.turn[data-turn="1"] button[data-player="1"]')  # no -> ?: a draft
    page.click('.turn[data-turn="1"] button[data-player="1"]')  # ? -> yes
    expect(page.locator("#deals")).to_have_text(str(expected["deals"]), timeout=20_000)


def test_a_closed_tab_ends_its_job(busy_server: str, browser: Browser) -> None:
    context = browser.new_context()
    tab = context.new_page()
    tab.goto(f"{busy_server}/plunder")
    with httpx.Client(base_url=busy_server) as client:
        running = nap(client)
        with tab.expect_response(lambda r: r.url.endswith("/api/solve/plunder")) as started:
            tab.click("#example")
        assert started.value.status == 202
        job = json.loads(started.value.body())["job"]
        expect(tab.locator(".job .job-text")).to_have_text("waiting, next in line", timeout=10_000)
        tab.close()  # the page goes: its job is cancelled, not left to hold a place
        deadline = time.monotonic() + 10
        while client.get(f"/api/jobs/{job}").json()["state"] != "cancelled":
            assert time.monotonic() < deadline, "the closed tab's job still waits"
            time.sleep(0.1)
        client.post(f"/api/jobs/{running}/cancel", json={})
    context.close()


def test_tied_flips_are_all_best_and_the_advice_says_whose_turn(server: str, page: Page) -> None:
    turn: dict[str, Any] = {"active": 1, "clue": {"island": 0, "marker": 0, "trap": 0}}
    me = {"player": 0, "code": {"island": 1, "marker": 2, "trap": 3}}
    record = {"players": 3, "me": me, "observations": [{**turn, "answers": {"2": True}}]}
    # The library reads the whole record: my answer (no) filled in, as the page does.
    full = {**record, "observations": [{**turn, "answers": {"0": False, "2": True}}]}
    analysis = plunder.analyse(plunder.Record.from_dict(full), advise=True).to_dict()
    flip = analysis["advice"]["flip"]
    top = flip["options"][0]["expected_bits"]
    tied = [o for o in flip["options"] if abs(o["expected_bits"] - top) <= 1e-12 * max(1, top)]
    assert len(tied) == 3  # island, marker and trap flips are worth the same here
    page.goto(f"{server}/plunder")
    store = "record => localStorage.setItem('isles.plunder', JSON.stringify({record}))"
    page.evaluate(store, record)
    page.reload()
    expect(page.locator("#deals")).to_have_text(str(analysis["deals"]), timeout=20_000)
    page.click("#advise")
    title = page.locator("#flip-title")
    expect(title).to_have_text("Flip advice for my next turn (P0)", timeout=20_000)
    expect(page.locator("#flip tr.best")).to_have_count(len(tied))
    whose = "It is P2's turn; mine (P0) comes after 1 more turn."
    expect(page.locator("#whose-turn")).to_have_text(whose)


def test_long_card_names_fit_a_phone(server: str, browser: Browser) -> None:
    names = {c: [f"Averyveryverylongname{c}number{k}" for k in range(6)] for c in CATEGORIES}
    record = {**plunder.example_record().to_dict(), "names": names}
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    tab = context.new_page()
    tab.goto(f"{server}/plunder")
    tab.evaluate(
        "record => localStorage.setItem('isles.plunder', JSON.stringify({record}))", record
    )
    tab.reload()
    tab.click("#advise")
    expect(tab.locator("#flip")).to_be_visible(timeout=20_000)
    width = tab.evaluate("document.documentElement.scrollWidth")
    context.close()
    assert width <= PHONE["width"]


def test_a_time_limit_is_no_answer_not_a_bad_record(browser: Browser) -> None:
    app = create_app(allowed_hosts=("127.0.0.1",), tasks={"plunder": SLOW_PLUNDER})
    with serving(app) as address:
        context = browser.new_context()
        tab = context.new_page()
        tab.goto(f"{address}/plunder")
        tab.click("#example")
        status = tab.locator("#status")
        expect(status).to_have_text("No answer: time limit reached: no answer within 0.5 s")
        expect(tab.locator(".field-error:not(:empty)")).to_have_count(0)
        expect(tab.locator("#grid")).to_have_count(0)
        context.close()


def test_a_job_ended_while_the_page_slept_is_asked_again(browser: Browser) -> None:
    """A page asleep in the background misses its polls: its job is ended, then asked again."""
    app = create_app(allowed_hosts=("127.0.0.1",), max_running=1, lease=1.0, tasks={"nap": NAP})
    with serving(app) as address, httpx.Client(base_url=address) as client:
        holder = nap(client)  # the one slot: the page's job waits in the queue
        stop = threading.Event()

        def keep_alive() -> None:
            with httpx.Client(base_url=address) as mine:
                while not stop.is_set():
                    mine.get(f"/api/jobs/{holder}")
                    time.sleep(0.2)

        threading.Thread(target=keep_alive, daemon=True).start()
        context = browser.new_context()
        tab = context.new_page()
        tab.goto(f"{address}/plunder")
        late: list[int] = []

        def asleep(route: Any) -> None:
            if not late:  # the page's first poll comes 2.5 s late: its lease (1 s) lapses
                late.append(1)
                time.sleep(2.5)
            route.continue_()

        tab.route("**/api/jobs/*", asleep)
        solve = "**/api/solve/plunder"
        with tab.expect_response(solve) as first:
            tab.click("#example")
        job = json.loads(first.value.body())["job"]
        with tab.expect_response(solve, timeout=15_000):
            pass  # the page asks again by itself
        assert client.get(f"/api/jobs/{job}").json()["state"] == "cancelled"
        stop.set()
        client.post(f"/api/jobs/{holder}/cancel", json={})
        expect(tab.locator("#deals")).to_have_text("162", timeout=20_000)
        expect(tab.locator(".job")).to_be_hidden()
        context.close()


def test_a_reload_while_asking_asks_again_but_not_after_a_cancel(browser: Browser) -> None:
    """A reload cancels the job and asks the same question again by itself; a cancel ends it."""
    app = create_app(allowed_hosts=("127.0.0.1",), tasks={"lighthouse": SLOW_LIGHTHOUSE})
    with serving(app) as address, httpx.Client(base_url=address) as client:
        context = browser.new_context()
        tab = context.new_page()
        errors: list[str] = []
        tab.on("pageerror", lambda exc: errors.append(str(exc)))
        asked: list[str] = []
        tab.on("request", lambda r: asked.append(r.url) if "/api/solve/" in r.url else None)
        tab.goto(f"{address}/lighthouse")
        _enter_red_on_island_0(tab)
        solve = "**/api/solve/lighthouse"
        pending = "() => sessionStorage.getItem('isles.lighthouse.asking')"

        # Cancelled, then reloaded: nothing is asked again.
        with tab.expect_response(solve):
            tab.click("#advise")
        tab.click(".job .cancel")
        expect(tab.locator(".job-text")).to_have_text("cancelled")
        assert tab.evaluate(pending) is None
        tab.reload()
        tab.wait_for_load_state("networkidle")
        assert len(asked) == 1
        expect(tab.locator(".job")).to_be_hidden()

        # Reloaded while asking: the job ends and the same question is asked again.
        with tab.expect_response(solve) as first:
            tab.click("#advise")
        job = first.value.json()["job"]
        with tab.expect_response(solve, timeout=15_000) as second:
            tab.reload()
        assert second.value.json()["job"] != job
        assert len(asked) == 3
        expect(tab.locator(".job-text")).to_contain_text("asked again after the reload")
        advice = _red_on_island_0_advice()
        expect(tab.locator("#win")).to_have_text(f"{advice['win_probability']:.6f}", timeout=30_000)
        assert client.get(f"/api/jobs/{job}").json()["state"] == "cancelled"
        assert tab.evaluate(pending) is None

        # Answered, then reloaded: nothing is asked again, the answer is kept.
        tab.reload()
        tab.wait_for_load_state("networkidle")
        assert len(asked) == 3
        expect(tab.locator("#win")).to_have_text(f"{advice['win_probability']:.6f}")
        context.close()
        assert errors == []


def test_plunder_advice_interrupted_by_a_reload_is_asked_again(browser: Browser) -> None:
    """The advice asked, the page reloaded: the advice comes without a new tap."""
    app = create_app(allowed_hosts=("127.0.0.1",), tasks={"plunder": LATE_PLUNDER})
    turn: dict[str, Any] = {"active": 1, "clue": {"island": 0, "marker": 0, "trap": 0}}
    me = {"player": 0, "code": {"island": 1, "marker": 2, "trap": 3}}
    record = {"players": 3, "me": me, "observations": [{**turn, "answers": {"2": True}}]}
    with serving(app) as address:
        context = browser.new_context()
        tab = context.new_page()
        tab.goto(f"{address}/plunder")
        store = "record => localStorage.setItem('isles.plunder', JSON.stringify({record}))"
        tab.evaluate(store, record)
        tab.reload()
        expect(tab.locator("#deals")).not_to_be_empty(timeout=20_000)
        solve = "**/api/solve/plunder"
        with tab.expect_response(solve) as first:
            tab.click("#advise")
        assert (first.value.request.post_data_json or {})["advise"] is True
        with tab.expect_response(solve, timeout=15_000) as second:
            tab.reload()
        assert (second.value.request.post_data_json or {})["advise"] is True
        expect(tab.locator(".job-text")).to_contain_text("asked again after the reload")
        title = tab.locator("#flip-title")
        expect(title).to_have_text("Flip advice for my next turn (P0)", timeout=20_000)
        context.close()


def _radius_2(tab: Page) -> None:
    tab.select_option("#radius", "2")


def _start_at_0_m3(tab: Page) -> None:
    tab.click('g[data-hex="0,-3"] polygon')


@pytest.mark.parametrize(
    ("kind", "task", "page", "prepare", "button", "answer", "text", "limit"),
    [
        ("layout", LATE_LAYOUT, "setup", _radius_2, "#lay", "#outcome", "Board laid", 30_000),
        ("route", LATE_ROUTE, "rally", _start_at_0_m3, "#plan", "#status", "optimal", 20_000),
    ],
    ids=["set-up lay", "rally route"],
)
def test_a_question_interrupted_by_a_reload_is_asked_again(
    browser: Browser,
    kind: str,
    task: Task,
    page: str,
    prepare: Callable[[Page], None],
    button: str,
    answer: str,
    text: str,
    limit: int,
) -> None:
    """Asked, the page reloaded: the same question is asked again and answered, no new tap."""
    app = create_app(allowed_hosts=("127.0.0.1",), tasks={kind: task})
    with serving(app) as address:
        context = browser.new_context()
        tab = context.new_page()
        tab.goto(f"{address}/{page}")
        prepare(tab)
        solve = f"**/api/solve/{kind}"
        with tab.expect_response(solve) as first:
            tab.click(button)
        with tab.expect_response(solve, timeout=15_000) as second:
            tab.reload()
        assert second.value.request.post_data_json == first.value.request.post_data_json
        expect(tab.locator(".job-text")).to_contain_text("asked again after the reload")
        expect(tab.locator(answer)).to_contain_text(text, timeout=limit)
        context.close()


def _first_answer_late(app: Any, path: str, seconds: float) -> Any:
    """``app``, but the body of its first answer to ``path`` comes ``seconds`` after its headers."""
    late = [True]

    async def wrapped(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["path"] != path or not late[0]:
            await app(scope, receive, send)
            return
        late[0] = False

        async def send_late(message: Any) -> None:
            if message["type"] == "http.response.body":
                await asyncio.sleep(seconds)
            await send(message)

        await app(scope, receive, send_late)

    return wrapped


def test_a_reload_while_the_ask_is_answered_asks_again(browser: Browser) -> None:
    """The page reloaded between the headers and the body of its ask's answer: asked again.

    A body cut off by the reload is a lost connection, not an answer: the question stays
    pending (the old page said "the server answered 202" and forgot it, as CI saw under load).
    """
    app = create_app(allowed_hosts=("127.0.0.1",), tasks={"layout": LATE_LAYOUT})
    with serving(_first_answer_late(app, "/api/solve/layout", 5.0)) as address:
        context = browser.new_context()
        tab = context.new_page()
        tab.goto(f"{address}/setup")
        _radius_2(tab)
        solve = "**/api/solve/layout"
        with tab.expect_response(solve) as first:  # its headers: the body is 5 s late
            tab.click("#lay")
        with tab.expect_response(solve, timeout=15_000) as second:
            tab.reload()
        assert second.value.request.post_data_json == first.value.request.post_data_json
        expect(tab.locator(".job-text")).to_contain_text("asked again after the reload")
        expect(tab.locator("#outcome")).to_contain_text("Board laid", timeout=30_000)
        context.close()


def test_a_new_rally_board_interrupted_by_a_reload_is_laid_again(browser: Browser) -> None:
    """A board isles lays (Board list, then "New board"), the page reloaded: laid, no new tap."""
    app = create_app(allowed_hosts=("127.0.0.1",), tasks={"layout": LATE_LAYOUT})
    with serving(app) as address:
        context = browser.new_context(viewport=PHONE)
        tab = context.new_page()
        tab.goto(f"{address}/rally")
        expect(tab.locator('g[data-hex="0,-3"] polygon')).to_be_visible()  # the beginner board
        stored = "JSON.parse(localStorage.getItem('isles.rally'))"
        beginner = tab.evaluate(stored)["board"]
        laid = "**/api/solve/layout"
        boards = []
        for seed in (0, 3):
            if seed:  # another seed, then "New board"
                tab.fill("#seed", str(seed))
                tab.locator("#seed").dispatch_event("change")
            with tab.expect_response(laid) as first:
                if seed:
                    tab.get_by_role("button", name="New board").click()
                else:
                    tab.select_option("#source", "base")
            with tab.expect_response(laid, timeout=15_000) as second:
                tab.reload()
            asked = {"game": "base", "seed": seed}
            assert first.value.request.post_data_json == asked
            assert second.value.request.post_data_json == asked
            expect(tab.locator(".job-text")).to_contain_text("asked again after the reload")
            expect(tab.locator("#undo")).to_have_attribute(
                "title", "Undo: new board (base)", timeout=30_000
            )
            state = tab.evaluate(stored)
            assert (state["source"], state["seed"]) == ("base", seed)
            boards.append(state["board"])
        assert beginner not in boards and boards[0] != boards[1]
        context.close()


def three_player_turns() -> list[dict[str, Any]]:
    """Three turns of a 3-player game, me P0 (code 1.2.3): one card turned up a turn."""
    return [
        {
            "active": 0,
            "clue": {"island": 0, "marker": 0, "trap": 0},
            "answers": {"1": True, "2": False},
        },
        {"active": 1, "clue": {"island": 5, "marker": 0, "trap": 0}, "answers": {"2": True}},
        {"active": 2, "clue": {"island": 5, "marker": 4, "trap": 0}, "answers": {"1": False}},
    ]


def store_plunder(page: Page, server: str, record: dict[str, Any]) -> None:
    page.goto(f"{server}/plunder")
    store = "record => localStorage.setItem('isles.plunder', JSON.stringify({record}))"
    page.evaluate(store, record)
    page.reload()


def test_dig_advice_waits_for_a_turn_not_counted_yet(server: str, page: Page) -> None:
    # Turn 2 lacks P2's answer: the notepad counts turns 1 and 3, whose clues differ
    # in two cards; dig advice says it waits for turn 2, flip and guess advice stand.
    turns = three_player_turns()
    turns[1]["answers"] = {}
    me = {"player": 0, "code": {"island": 1, "marker": 2, "trap": 3}}
    store_plunder(page, server, {"players": 3, "me": me, "observations": turns})
    page.click("#advise")
    expect(page.locator("#dig-error")).to_have_text(
        "Dig advice waits for Turn 2 to be complete: it follows the turns in order.",
        timeout=20_000,
    )
    expect(page.locator("#guesses tr").first).to_be_visible()
    turns[1]["answers"] = {"2": True}  # complete: dig advice is given
    store_plunder(page, server, {"players": 3, "me": me, "observations": turns})
    page.click("#advise")
    expect(page.locator("#dig tr").first).to_be_visible(timeout=20_000)
    assert page.locator("#dig-error").count() == 0


def test_the_dig_advice_policy_chosen_is_sent_and_its_games_said(server: str, page: Page) -> None:
    """The notepad's dig policy: nothing sent by default (the dig advice's default);
    "search" is sent as ``dig_policy``, and the heading names the policy the answer
    played (here the request rewritten to ``random``, fast, on its way)."""
    me = {"player": 0, "code": {"island": 1, "marker": 2, "trap": 3}}
    store_plunder(page, server, {"players": 3, "me": me, "observations": three_player_turns()})
    sent: list[dict[str, Any]] = []

    def note(route: Route) -> None:
        body = json.loads(route.request.post_data or "{}")
        sent.append(dict(body))
        if body.get("dig_policy") == "search":
            body["dig_policy"] = "random"
        route.continue_(post_data=json.dumps(body))

    page.route("**/api/solve/plunder", note)
    page.click("#advise")
    expect(page.locator("#advice h2").filter(has_text="Dig now or wait")).to_contain_text(
        "the others dig once a code is 50% likely", timeout=20_000
    )
    assert sent and "dig_policy" not in sent[-1]
    page.select_option("#dig-policy", "search")
    page.click("#advise")
    expect(page.locator("#advice h2").filter(has_text="Dig now or wait")).to_contain_text(
        "the others play the random policy", timeout=20_000
    )
    assert sent[-1]["dig_policy"] == "search" and sent[-1]["advise"] is True


def test_a_clue_with_two_cards_changed_is_not_counted(server: str, page: Page) -> None:
    turns = three_player_turns()
    turns[2]["clue"] = {"island": 4, "marker": 4, "trap": 0}  # island and marker changed
    me = {"player": 0, "code": {"island": 1, "marker": 2, "trap": 3}}
    store_plunder(page, server, {"players": 3, "me": me, "observations": turns})
    expect(page.locator('.turn[data-turn="2"] .draft-note')).to_contain_text(
        "more than one card changed since Turn 2's clue", timeout=20_000
    )
    page.click("#advise")
    expect(page.locator("#dig tr").first).to_be_visible(timeout=20_000)
    assert page.locator("#dig-error").count() == 0


def test_dig_refusal_is_in_page_words() -> None:
    # The library's refusal names the clue before in words, never as a Python dict.
    record = plunder.Record.from_dict(
        {
            "players": 3,
            "me": {"player": 0, "code": {"island": 1, "marker": 2, "trap": 3}},
            "observations": [
                {
                    **t,
                    "answers": {**t["answers"], "0": False} if k else t["answers"],
                    **({"clue": {"island": 4, "marker": 4, "trap": 0}} if k == 2 else {}),
                }
                for k, t in enumerate(three_player_turns())
            ],
        }
    )
    with pytest.raises(InvalidInput) as caught:
        plunder.dig_advice(record, samples=1)
    assert caught.value.field == "record.observations[2].clue"
    assert "{" not in str(caught.value.expected)
    assert str(caught.value.expected).endswith("(island 5, marker 0, trap 0)")


def test_a_restarted_server_is_waited_for_and_the_job_sent_again(server: str, page: Page) -> None:
    """The server goes away mid-job, then answers without the job: the page waits, resends."""
    posts: list[str] = []
    polls: list[str] = []

    def solve(route: Any) -> None:
        posts.append(route.request.url)
        if len(posts) == 1:  # the job the old server started
            body = {"job": "feedbeef", "state": "running", "elapsed": 0, "time_limit": 60}
            route.fulfill(status=202, content_type="application/json", body=json.dumps(body))
        else:
            route.continue_()

    def poll(route: Any) -> None:
        polls.append(route.request.url)
        if len(polls) <= 2:  # the server does not answer
            route.abort()
        else:  # a new server: it does not know the job
            body = {"error": {"field": "job", "message": "no job feedbeef"}}
            route.fulfill(status=404, content_type="application/json", body=json.dumps(body))

    page.route("**/api/solve/route", solve)
    page.route("**/api/jobs/feedbeef", poll)
    page.goto(f"{server}/rally")
    page.click('g[data-hex="0,-3"] polygon')
    page.click("#plan")
    expect(page.locator(".job-text")).to_contain_text(
        "waiting: the server does not answer", timeout=10_000
    )
    expect(page.locator("#status")).to_have_text("optimal", timeout=20_000)
    assert len(posts) == 2 and len(polls) == 3, (posts, polls)


def test_my_code_and_the_card_names_outlive_not_known_and_a_new_game(
    server: str, page: Page
) -> None:
    names = {c: [f"{c}-name-{k}" for k in range(6)] for c in CATEGORIES}
    code = {"island": 1, "marker": 2, "trap": 3}
    me: dict[str, Any] = {"player": 0, "code": code}
    record = {"players": 3, "me": me, "names": names, "observations": three_player_turns()}
    store_plunder(page, server, record)

    def my_code() -> None:
        for category, value in code.items():
            chosen = f'[data-testid="me-{category}"] button[data-value="{value}"]'
            expect(page.locator(chosen)).to_have_attribute("aria-pressed", "true")

    my_code()
    page.select_option("#me", "")  # not known
    page.select_option("#me", "0")
    my_code()
    page.click("#new-game")
    page.click(".confirm-yes")
    expect(page.locator(".turn")).to_have_count(0)
    expect(page.locator("#me")).to_have_value("0")
    my_code()
    stored = page.evaluate("JSON.parse(localStorage.getItem('isles.plunder')).record")
    assert stored["names"] == names and stored["me"] == me


def test_a_link_pasted_into_an_open_tab_and_a_second_tab(server: str, page: Page) -> None:
    import base64

    record = {"players": 3, "observations": three_player_turns()}
    text = json.dumps({"record": record, "open": None})
    code = base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")
    page.goto(f"{server}/plunder")
    expect(page.locator(".turn")).to_have_count(0)
    page.evaluate("code => { window.location.hash = 'plunder=' + code; }", code)
    expect(page.locator(".turn")).to_have_count(3)  # opened, as one undoable change
    page.click("#undo")
    expect(page.locator(".turn")).to_have_count(0)
    page.click("#redo")
    expect(page.locator(".turn")).to_have_count(3)
    # A second tab adds a turn: this tab takes it rather than overwrite it later.
    other = page.context.new_page()
    other.goto(f"{server}/plunder")
    expect(other.locator(".turn")).to_have_count(3)
    other.click("#add-turn")
    expect(page.locator(".turn")).to_have_count(4)
    other.close()


def test_a_refused_file_stays_said_when_an_analysis_ends(server: str, page: Page) -> None:
    held: list[Any] = []
    page.route("**/api/solve/plunder", lambda route: held.append(route))  # held until told
    store_plunder(page, server, {"players": 3, "observations": three_player_turns()})
    while not held:
        page.wait_for_timeout(50)
    upload = page.locator("span:has(> button:text-is('Load record')) input[type=file]")
    bad: FilePayload = {
        "name": "r.json",
        "mimeType": "application/json",
        "buffer": b'{"players": 9}',
    }
    upload.set_input_files(files=[bad])
    said = page.locator('.field-error[data-field="record"]')
    expect(said).to_contain_text("The file:")
    held[0].continue_()
    page.unroute("**/api/solve/plunder")
    expect(page.locator("#deals")).to_be_visible(timeout=20_000)  # the analysis ended
    expect(said).to_contain_text("The file:")
