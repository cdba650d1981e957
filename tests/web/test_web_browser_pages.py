"""The rally, set-up and lighthouse pages at the table, in a real headless Chromium (issue 20).

The fixtures (the server, the browser, a page that fails on any script error)
are those of tests/web/test_web_browser.py. Each test checks what a player sees
against the library's own answer: an unaffordable route is worded, never
priced; the default goals are marked; hexes are named by terrain and number;
an infeasible set-up shows the library's reason in words; a lighthouse move
is played on the position; every change can be undone; nothing overflows.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, ViewportSize, expect

from isles import lighthouse, rally
from isles.models.board import Board
from isles.models.errors import InvalidInput
from isles.models.hexgrid import Hex
from isles.models.lighthouse.rules import play_turn
from isles.web.tasks.layout import layout_rules
from isles.web.tasks.rally import rally_goals
from tests.web.test_web_browser import PHONE, browser, page, server

pytestmark = pytest.mark.browser
__all__ = ["browser", "page", "server"]  # the fixtures, shared


TERRAIN_FOREST = "#2e7d32"  # hexes.js TERRAIN_COLOURS
EMPTY = "#bbb"  # a position with no tile yet


def tap(page: Page, hex_: str) -> None:
    page.click(f'g[data-hex="{hex_}"] polygon')


def seen(board: Board, hex_: Hex | None) -> str:
    """A hex as the page names it: terrain and number, then its position."""
    assert hex_ is not None
    number = board.to_dict()["hexes"][
        [tuple(e["hex"]) for e in board.to_dict()["hexes"]].index(tuple(hex_))
    ]["number"]
    name = board.terrain(hex_).value if number is None else f"{board.terrain(hex_).value} {number}"
    return f"{name} ({hex_})"


def no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"] if page.viewport_size else True, width


def test_rally_unaffordable_is_worded_and_goals_are_marked(server: str, page: Page) -> None:
    page.goto(f"{server}/rally")
    tap(page, "0,-3")
    goals = rally_goals({"board": rally.beginner_board().to_dict(), "start": [0, -3]})["goals"]
    marked = page.locator("polygon.mark.default-goal")
    expect(marked).to_have_count(len(goals))
    assert sorted(marked.evaluate_all("ns => ns.map(n => n.dataset.mark)")) == sorted(
        f"{q},{r}" for q, r in goals
    )
    board = rally.beginner_board()
    for q, r in goals:
        expect(page.locator("#goals-note")).to_contain_text(seen(board, Hex(q, r)))
    page.check("#use-budget")
    page.fill('input[data-resource="ore"]', "10")
    page.locator('input[data-resource="ore"]').dispatch_event("change")
    page.fill('input[data-resource="wool"]', "1")
    page.locator('input[data-resource="wool"]').dispatch_event("change")
    page.click("#plan")
    route = rally.plan_route(board, (0, -3), budget={"ore": 10, "wool": 1})
    assert route.status.value == "unaffordable" and route.end != route.start
    expect(page.locator("#status")).to_have_text("No affordable route", timeout=20_000)
    text = page.locator("#unaffordable").inner_text()
    assert "Closest affordable hex to a goal" in text
    assert seen(board, route.end) in text
    assert f"{route.distance_to_goal} hexes from one" in text
    expect(page.locator("#cost")).to_have_count(0)  # no price that reads like the answer
    expect(page.locator("#missing")).to_contain_text("missing")
    expect(page.locator("#partial")).to_contain_text("not a route to a goal")

    # Undo takes back the cards, then the budget switch; redo puts them back.
    page.click("#undo")
    expect(page.locator('input[data-resource="wool"]')).to_have_value("0")
    expect(page.locator("#result")).to_be_empty()
    page.click("#redo")
    expect(page.locator('input[data-resource="wool"]')).to_have_value("1")


def test_rally_route_names_hexes_and_keeps_tokens_visible(server: str, page: Page) -> None:
    page.goto(f"{server}/rally")
    tap(page, "0,-3")
    page.select_option("#objective", "expected_turns")
    page.click("#plan")
    board = rally.beginner_board()
    route = rally.plan_route(board, (0, -3), objective="expected_turns")
    expect(page.locator("#status")).to_have_text("optimal", timeout=20_000)
    cost = page.locator("#cost").inner_text()
    assert f"expected {float(route.expected_turns or 0):.2f} turns" in cost
    assert "/" not in cost  # a decimal, never 70/13
    assert cost.endswith(f"ends at {seen(board, route.end)}")
    summary = page.locator("#path summary").inner_text()
    assert "mountains 10" in summary and "," not in summary.replace(", ", "")
    # The tokens are drawn above the route line: no number is hidden under it.
    order = page.evaluate(
        "() => [...document.querySelector('svg.board').children].map(n => n.getAttribute('class'))"
    )
    assert order.index("route") < order.index("tokens")
    # A start tapped twice: undo returns to the first, and a reload keeps the steps.
    tap(page, "-3,0")
    expect(page.locator("#taps")).to_contain_text("start: sea (-3,0)")
    page.click("#undo")
    expect(page.locator("#taps")).to_contain_text("start: sea (0,-3)")
    page.reload()
    expect(page.locator("#undo")).to_be_enabled()
    expect(page.locator("#status")).to_have_text("optimal")


def put_down(page: Page, hex_: str, terrain: str, number: int | None) -> None:
    page.select_option("#tile-terrain", terrain)
    page.select_option("#tile-number", "" if number is None else str(number))
    tap(page, hex_)


def test_setup_tiles_on_a_laid_board_and_an_infeasible_next_move(server: str, page: Page) -> None:
    catalogue = layout_rules()
    page.goto(f"{server}/setup")
    # Rule names in words, from the library's registry.
    title = catalogue["titles"]["six-eight-apart"]
    expect(page.locator('label.rule:has(input[data-rule="six-eight-apart"])')).to_contain_text(
        title
    )
    page.select_option("#radius", "2")
    page.click("#lay")
    expect(page.locator("#outcome")).to_contain_text("Board laid", timeout=30_000)
    laid = page.locator('g[data-hex="0,0"] polygon').get_attribute("fill")
    # A tap on the laid board changes what is seen: the table being entered.
    put_down(page, "0,0", "forest", 6)
    expect(page.locator("#tap-note")).to_contain_text("set aside")
    expect(page.locator('g[data-hex="0,0"] polygon')).to_have_attribute("fill", TERRAIN_FOREST)
    expect(page.locator('g[data-hex="1,0"] polygon')).to_have_attribute("fill", EMPTY)
    page.click("#undo")  # the laid board comes back
    expect(page.locator("#outcome")).to_contain_text("Board laid")
    expect(page.locator('g[data-hex="0,0"] polygon')).to_have_attribute("fill", laid or "")
    page.click("#redo")
    put_down(page, "-1,1", "fields", 8)
    page.click("#next")
    expect(page.locator("#next-status")).to_contain_text("No place", timeout=30_000)
    assert "good" not in (page.locator("#next-status").get_attribute("class") or "")
    words = page.locator("#next-conflict li").all_inner_texts()
    assert f"the rule “{title}” (six-eight-apart)" in words
    assert "the forest 6 already down at 0,0" in words
    assert "the fields 8 already down at -1,1" in words
    assert "null" not in page.locator("#result").inner_text()
    # Clearing the table asks first, and can be undone.
    page.click("#clear-table")
    page.click(".confirm-no")
    expect(page.locator('g[data-hex="0,0"] polygon')).to_have_attribute("fill", TERRAIN_FOREST)
    page.click("#clear-table")
    page.click(".confirm-yes")
    expect(page.locator('g[data-hex="0,0"] polygon')).to_have_attribute("fill", EMPTY)
    page.click("#undo")
    expect(page.locator('g[data-hex="0,0"] polygon')).to_have_attribute("fill", TERRAIN_FOREST)


def test_setup_says_why_a_radius_cannot_be_laid(server: str, page: Page) -> None:
    facts = layout_rules()["radii"]
    page.goto(f"{server}/setup")
    expect(page.locator("#radius-note")).to_have_count(0)
    for radius in (4, 5):
        page.select_option("#radius", str(radius))
        note = page.locator("#radius-note")
        expect(note).to_contain_text(f"Radius {radius} cannot be laid with the defaults")
        expect(note).to_contain_text(f"{facts[radius]['land']} land hexes")
        expect(note).to_contain_text(f"holds {facts[radius]['land_tiles']} land tiles")
    page.click("#lay")  # and the answer names the same requirements, in words
    expect(page.locator("#conflict li")).to_contain_text(
        ["the number of land hexes (land count)", "the land tiles in the box (land inventory)"],
        timeout=30_000,
    )


def lighthouse_kit(page: Page, server: str, islands: int, sea_cards: int) -> None:
    page.goto(f"{server}/lighthouse")
    page.select_option("#mode", "islands")
    page.select_option("#islands", str(islands))
    page.select_option("#sea-cards", str(sea_cards))
    expect(page.locator(".lighthouse")).to_have_count(islands)


def test_lighthouse_error_under_its_island(server: str, page: Page) -> None:
    lighthouse_kit(page, server, 3, 3)
    page.click("#advise")  # no die tapped: said in the page's words, never "'' is invalid"
    expect(page.locator('.field-error[data-field="roll"]')).to_have_text(
        "roll: tap the face each die shows (die 1 is not set yet)"
    )
    island = page.locator('.lighthouse[data-island="2"]')
    island.locator('button[data-add="red"]').click()
    # Red on red: refused at the tap (the colours alternate).
    expect(island.locator('button[data-add="red"]')).to_be_disabled()
    kit = lighthouse.default_kit(3, 3)
    four = {"discs": [[], [], ["red"] * 4], "boat": 0, "maurice": 0}
    with pytest.raises(InvalidInput) as refused:
        lighthouse.Position.from_dict(four, kit)
    assert refused.value.field == "position.discs[2]"
    upload = page.locator("span:has(> button:text-is('Load position')) input[type=file]")
    upload.set_input_files(files=[file("position.json", four)])
    expect(island.locator(".field-error")).to_have_text(
        "Island 2: 4 discs (red, red, red, red) do not alternate colours:"
        " a disc never goes on one of its own colour."
    )
    for other in ("0", "1"):
        expect(page.locator(f'.lighthouse[data-island="{other}"] .field-error')).to_be_empty()
    upload.set_input_files(
        files=[file("position.json", {**four, "discs": [[], [], []], "boat": None})]
    )
    expect(page.locator('.field-error[data-field="position.boat"]')).to_have_text(
        "The boat: tap the sea card the boat is on."
    )
    expect(island.locator(".field-error")).to_be_empty()  # the stale error is gone
    island.locator('button[data-add="purple"]').click()  # a change checked anew: no error
    expect(page.locator('.field-error[data-field="position.boat"]')).to_be_empty()


def file(name: str, value: object) -> Any:
    """A file for an upload input: its name, type and JSON bytes."""
    return {"name": name, "mimeType": "application/json", "buffer": json.dumps(value).encode()}


def test_lighthouse_play_the_move_follows_the_game(server: str, page: Page) -> None:
    lighthouse_kit(page, server, 2, 3)
    assert "run isles lighthouse" not in page.locator("main").inner_text()
    page.click('[data-die="0"] button[data-face="blue"]')
    page.click('[data-die="1"] button[data-face="green"]')
    page.click("#advise")
    kit = lighthouse.default_kit(2, 3)
    start = lighthouse.Position.start(kit)
    roll = lighthouse.Roll.from_faces(kit, ("blue", "green"))
    advice = lighthouse.best_move(kit, start, roll)
    expect(page.locator("#best")).to_be_visible(timeout=60_000)  # numba compiles once
    page.click("#play")
    after = play_turn(kit, start, roll, advice.best).position.to_dict()
    for k, discs in enumerate(after["discs"]):
        expect(page.locator(f'.lighthouse[data-island="{k}"] .disc')).to_have_text(discs)
    expect(page.locator('[data-die] button[aria-pressed="true"]')).to_have_count(0)  # dice cleared
    expect(page.locator("#result")).to_be_empty()
    expect(page.locator("#played")).to_contain_text("Played:")
    page.reload()  # the game is kept, and the step can still be undone
    expect(page.locator('.lighthouse[data-island="0"] .disc')).to_have_text(after["discs"][0])
    page.click("#undo")
    expect(page.locator(".disc")).to_have_count(0)
    expect(page.locator('[data-die="0"] button[data-face="blue"]')).to_have_attribute(
        "aria-pressed", "true"
    )
    page.click("#redo")
    expect(page.locator(".disc")).to_have_count(sum(len(d) for d in after["discs"]))


def test_pages_never_overflow(server: str, page: Page, tmp_path: Path) -> None:
    long = "ultramarineAndCeruleanBlueOfTheNorthernLighthouseOfTheIsles"  # no break in it
    kit = lighthouse.default_kit(2, 3).to_dict()
    kit = json.loads(json.dumps(kit).replace('"blue"', f'"{long}"'))
    path = tmp_path / "kit.json"
    path.write_text(json.dumps(kit))
    desktop: ViewportSize = {"width": 1280, "height": 900}
    for size in (desktop, PHONE):
        page.set_viewport_size(size)
        for url, ready in (("/rally", "#plan"), ("/setup", "#lay"), ("/lighthouse", "#advise")):
            page.goto(f"{server}{url}")
            page.wait_for_selector(ready)
            no_sideways_scroll(page)
        page.locator('input[type="file"]').first.set_input_files(path)  # Load kit file
        expect(page.locator(".lighthouse").first).to_contain_text(long)
        page.click(f'[data-die="0"] button[data-face="{long}"]')
        page.click("#share")
        no_sideways_scroll(page)


def test_changing_the_rally_seed_is_an_undo_step(server: str, page: Page) -> None:
    page.goto(f"{server}/rally")
    # the first board in: a step taken before it comes undoes to a page without a board
    # (seen in CI under load; a known limit of the page, not what this test is about)
    expect(page.locator("#board")).not_to_have_attribute("aria-busy", "true")
    page.fill("#seed", "7")
    page.locator("#seed").dispatch_event("change")
    expect(page.locator("#undo")).to_be_enabled()
    page.click("#undo")
    expect(page.locator("#seed")).to_have_value("0")


def test_one_ctrl_z_is_one_step_on_a_page_that_renders_again(server: str, page: Page) -> None:
    # The set-up page renders itself again after every change; each render used to add
    # one more Ctrl-Z listener, so after two changes one Ctrl-Z undid both.
    page.goto(f"{server}/setup")
    page.wait_for_selector("#radius")
    page.select_option("#radius", "2")
    expect(page.locator("#radius")).to_have_value("2")
    page.select_option("#radius", "1")
    expect(page.locator("#radius")).to_have_value("1")
    page.locator("body").click(position={"x": 5, "y": 5})  # out of the select
    page.keyboard.press("Control+z")
    expect(page.locator("#radius")).to_have_value("2")
    expect(page.locator("#undo")).to_have_attribute("title", "Undo: radius 2")
    page.keyboard.press("Control+Shift+z")
    expect(page.locator("#radius")).to_have_value("1")


def shows(page: Page, shown: Any, want: object, label: str) -> None:
    """``shown()`` comes to equal ``want`` (a page redraws after its kit is read)."""
    for _ in range(50):
        if shown() == want:
            return
        page.wait_for_timeout(100)
    assert shown() == want, label


def undo_redo_each(page: Page, shown: Any, changes: list[tuple[str, Any]]) -> None:
    """Each change shows something new; Undo shows what was before it, Redo what it did."""
    for label, change in changes:
        before = shown()
        change()
        expect(page.locator("#undo")).to_have_attribute("title", f"Undo: {label}")
        page.wait_for_timeout(200)  # the page settles (a kit is read again)
        after = shown()
        assert after != before, label  # something visible changed
        page.click("#undo")
        expect(page.locator("#redo")).to_have_attribute("title", f"Redo: {label}")
        shows(page, shown, before, label)
        page.click("#redo")
        expect(page.locator("#undo")).to_have_attribute("title", f"Undo: {label}")
        shows(page, shown, after, label)


def type_number(page: Page, selector: str, value: int) -> None:
    page.fill(selector, str(value))
    page.locator(selector).dispatch_event("change")


def test_every_rally_change_is_one_undo_step(server: str, page: Page) -> None:
    page.set_viewport_size(PHONE)
    page.goto(f"{server}/rally")
    board = rally.beginner_board()

    def shown() -> tuple[object, ...]:
        return (
            page.locator("#taps").inner_text(),
            page.locator("#goals-note").inner_text(),
            page.locator("#use-budget").is_checked(),
            page.locator('input[data-resource="ore"]').input_value(),
            page.locator("#objective").input_value(),
            page.locator("#seed").input_value(),
        )

    def tap_as(kind: str, *hexes: str) -> Any:
        def change() -> None:
            page.click(f'button[data-tap="{kind}"]')
            for hex_ in hexes:
                tap(page, hex_)

        return change

    start, goal, road = Hex(0, -3), Hex(0, 0), Hex(0, -2)
    undo_redo_each(
        page,
        shown,
        [
            (f"start at {seen(board, start)}", tap_as("start", "0,-3")),
            (f"goal {seen(board, goal)}", tap_as("goal", "0,0")),
            (
                f"road between {seen(board, start)} and {seen(board, road)}",
                tap_as("road", "0,-3", "0,-2"),
            ),
            ("only the cards in hand", lambda: page.check("#use-budget")),
            ("3 ore in hand", lambda: type_number(page, 'input[data-resource="ore"]', 3)),
            ("route for turns", lambda: page.select_option("#objective", "turns")),
            ("seed 5", lambda: type_number(page, "#seed", 5)),
        ],
    )


def test_every_set_up_change_is_one_undo_step(server: str, page: Page) -> None:
    page.goto(f"{server}/setup")
    page.wait_for_selector("#radius")
    rule = page.locator('input[data-rule="six-eight-apart"]')
    title = layout_rules()["titles"]["six-eight-apart"]

    def shown() -> tuple[object, ...]:
        return (
            page.locator("#game").input_value(),
            page.locator("#seed").input_value(),
            rule.is_checked(),
            page.locator("#holding-0").evaluate_all("hs => hs.map(h => h.value)"),
        )

    undo_redo_each(
        page,
        shown,
        [
            ("seed 9", lambda: type_number(page, "#seed", 9)),
            (f"off: {title}", rule.click),
            ("in hand: forest", lambda: page.select_option("#holding-0", "forest")),
            ("game: base", lambda: page.select_option("#game", "base")),
        ],
    )


def test_every_lighthouse_change_is_one_undo_step(server: str, page: Page) -> None:
    lighthouse_kit(page, server, 3, 3)
    kit = lighthouse.default_kit(3, 3)
    island = page.locator('.lighthouse[data-island="1"]')
    first, second = kit.islands[1][:2]
    face = kit.dice[0][1]

    def shown() -> tuple[object, ...]:
        return (
            page.locator(".lighthouse").evaluate_all(
                "ls => ls.map(l => [...l.querySelectorAll('.disc')].map(d => d.textContent))"
            ),
            page.locator('[aria-pressed="true"]').evaluate_all(
                "bs => bs.map(b => JSON.stringify(b.dataset))"
            ),
            page.locator("#islands").input_value(),
        )

    def new_game() -> None:
        page.click("#new-game")
        page.click(".confirm-yes")

    position = {"discs": [[kit.islands[0][0]], [], []], "boat": 1, "maurice": 1}
    lighthouse.Position.from_dict(position, kit)  # a position the library accepts
    upload = page.locator("span:has(> button:text-is('Load position')) input[type=file]")

    undo_redo_each(
        page,
        shown,
        [
            (f"{first} disc on island 1", island.locator(f'button[data-add="{first}"]').click),
            (f"{second} disc on island 1", island.locator(f'button[data-add="{second}"]').click),
            ("take the top disc off island 1", island.locator("button[data-remove]").click),
            ("boat on sea card 2", lambda: page.click('button[data-boat="2"]')),
            ("Maurice past his island by 2", lambda: page.click('button[data-maurice="2"]')),
            (f"die 1: {face}", lambda: page.click(f'[data-die="0"] button[data-face="{face}"]')),
            ("a new game", new_game),
            (
                "load a position",
                lambda: upload.set_input_files(files=[file("position.json", position)]),
            ),
            ("2 islands", lambda: page.select_option("#islands", "2")),
        ],
    )
