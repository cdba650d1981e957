"""Screenshots of every page of ``isles serve`` for docs/serve.md.

``python -m isles.web.screenshots docs/`` serves the app on a free loopback port,
plays a short scene on each page in headless Chromium (Debian's ``chromium``,
driven by Playwright, both installed by the README's test command) and writes
``serve-<page>.png`` (desktop), ``serve-plunder-phone.png`` and
``serve-table-phone.png`` (a Plunder game shared with the table, on a server
started to share: ``isles serve --share``). ``--only setup table`` retakes some.
"""

from __future__ import annotations

import argparse
import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import uvicorn
from playwright.sync_api import Page, expect, sync_playwright

from isles.web.app import create_app

__all__ = ["CHROMIUM", "CHROMIUM_ARGS", "main", "serving"]

CHROMIUM = "/usr/bin/chromium"
#: Headless, as root, with no network beyond this machine.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
_WAIT = 60_000  # ms for a solver's answer to show


@contextlib.contextmanager
def serving(share: bool = False) -> Iterator[str]:
    """The app on a free loopback port, in a thread (sharing games when ``share``); its address."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    server = uvicorn.Server(uvicorn.Config(create_app(share=share), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


def _plunder(page: Page, base: str) -> None:
    page.goto(f"{base}/plunder")
    page.click("#example")
    expect(page.locator("#deals")).to_have_text("162", timeout=_WAIT)
    page.click("#advise")
    expect(page.locator("#guesses")).to_be_visible(timeout=_WAIT)


def _lighthouse(page: Page, base: str) -> None:
    page.goto(f"{base}/lighthouse")
    page.select_option("#mode", "islands")
    page.select_option("#islands", "4")
    page.select_option("#sea-cards", "6")
    for island, colour in [(0, "red"), (0, "blue"), (1, "green"), (3, "blue")]:
        page.click(f'.lighthouse[data-island="{island}"] button[data-add="{colour}"]')
    page.click('button[data-boat="2"]')
    page.click('button[data-maurice="1"]')
    page.click('[data-die="0"] button[data-face="red"]')
    page.click('[data-die="1"] button[data-face="green"]')
    page.click("#advise")
    expect(page.locator("#win")).to_be_visible(timeout=_WAIT)


def _rally(page: Page, base: str) -> None:
    page.goto(f"{base}/rally")
    page.click('g[data-hex="0,-3"] polygon')
    page.click('button[data-tap="road"]')
    page.click('g[data-hex="0,-2"] polygon')
    page.click('g[data-hex="0,-1"] polygon')
    page.select_option("#objective", "expected_turns")
    page.click("#plan")
    expect(page.locator("#cost")).to_be_visible(timeout=_WAIT)


def _rally_income(page: Page, base: str) -> None:
    """The rally as it is played: red's car on the beginner board with towns, a roll of 8."""
    page.goto(f"{base}/rally")
    page.wait_for_selector("#plan")
    page.select_option("#source", "towns")
    page.select_option("#mode", "income")
    page.wait_for_selector("select#player")  # the board with towns has come
    page.select_option("#player", "red")
    page.click('button[data-tap="start"]')  # the tap mode an earlier scene left is not assumed
    page.click('g[data-hex="0,-3"] polygon')
    page.click('button[data-tap="goal"]')
    page.click('g[data-hex="0,0"] polygon')
    page.select_option("#trade", "none")
    page.fill("#within", "60")
    page.locator("#within").dispatch_event("change")
    page.click('button[data-hand="brick"]')
    page.click('button[data-roll="8"]')
    page.click("#plan")
    expect(page.locator("#expected")).to_be_visible(timeout=_WAIT)


def _rally_race(page: Page, base: str) -> None:
    """A race of red and blue on the beginner board with towns, each to the land by its start."""
    page.goto(f"{base}/rally")
    page.wait_for_selector("#plan")
    page.select_option("#source", "towns")
    page.select_option("#mode", "race")
    page.select_option('.car[data-car="0"] select', "red")
    page.select_option('.car[data-car="1"] select', "blue")
    page.select_option("#trade", "none")
    for i, (start, goal) in enumerate((("0,-3", "0,-2"), ("0,3", "0,2"))):
        page.click(f'.car[data-car="{i}"] button >> nth=0')
        page.click('button[data-tap="start"]')
        page.click(f'g[data-hex="{start}"] polygon')
        page.click('button[data-tap="goal"]')
        page.click(f'g[data-hex="{goal}"] polygon')
    page.click("#plan")
    expect(page.locator("#race")).to_be_visible(timeout=_WAIT)


def _setup(page: Page, base: str) -> None:
    page.goto(f"{base}/setup")
    page.select_option("#game", "base")
    page.click("#lay")
    expect(page.locator("#status")).to_have_text("optimal", timeout=_WAIT)


SCENES = {
    "plunder": _plunder,
    "lighthouse": _lighthouse,
    "rally": _rally,
    "rally-income": _rally_income,
    "rally-race": _rally_race,
    "setup": _setup,
}


def _table(page: Page, base: str) -> None:
    _plunder(page, base)
    page.click("#share-table")
    expect(page.locator("#table-code")).to_be_visible(timeout=_WAIT)
    page.evaluate("window.scrollTo(0, 0)")


#: The phone's scenes: (scene, whether the server shares games).
PHONE_SCENES = {"plunder-phone": (_plunder, False), "table-phone": (_table, True)}


def main(argv: list[str] | None = None) -> int:
    """Write the screenshots into the folder given (default ``docs``)."""
    parser = argparse.ArgumentParser(prog="python -m isles.web.screenshots")
    parser.add_argument("folder", nargs="?", default="docs")
    names = [*SCENES, *PHONE_SCENES]
    parser.add_argument(
        "--only", nargs="+", choices=names, default=names, help="the screenshots to take"
    )
    args = parser.parse_args(argv)
    folder = Path(args.folder)
    folder.mkdir(parents=True, exist_ok=True)
    with serving() as base, serving(share=True) as sharing, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        desktop = browser.new_context(viewport={"width": 1200, "height": 850})
        for name, scene in SCENES.items():
            if name not in args.only:
                continue
            page = desktop.new_page()
            scene(page, base)
            page.screenshot(path=folder / f"serve-{name}.png", full_page=True)
            print(folder / f"serve-{name}.png")
            page.close()
        phone = browser.new_context(
            viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
        )
        for name, (scene, share) in PHONE_SCENES.items():
            if name not in args.only:
                continue
            page = phone.new_page()
            scene(page, sharing if share else base)
            page.screenshot(path=folder / f"serve-{name}.png", full_page=name != "table-phone")
            print(folder / f"serve-{name}.png")
            page.close()
        browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
