"""The games waiting for a signed-in player, in a real browser: the count in the header of
every page, the lobby's and "My games"' sentence, the "Your move" page (the soonest deadline
first) and, at a table after a move, the "Next game" button to the next seat waiting; in
English and in German.

Chromium as in test_web_browser.py (skipped locally without it, failing in CI)."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import websockets
from accounts_client import Visitor
from browsers import shot
from test_accounts import RELAXED
from web_server import Server, launch

from tavola.web.site import load_site

HOUR = 3600


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = launch(tmp_path_factory.mktemp("your-move") / "games.db", limits=RELAXED)
    yield srv
    srv.stop()


def waiting_games(v: Visitor) -> list[str]:
    """Three Gonzaga games of `v` (everyone plans at once: each asks its creator's seat): an
    hour per move, a day per move, no limit. Their seat links, in that order."""
    links = []
    for seconds in (HOUR, 24 * HOUR, None):
        timing = {"timing": {"move_seconds": seconds, "misses": 3}} if seconds else {}
        made = v.ok("/api/games", {"game": "gonzaga", "seats": [{"kind": "person"},
                                                                {"kind": "person"}], **timing})
        links.append(made["seats"][0]["link"])
    return links


async def move(ws_base: str, link: str, v: Visitor) -> None:
    """The seat of `link` makes its move (its plan, step by step) until it is asked no more."""
    reply = load_site("gonzaga").bench_reply
    rng = random.Random(3)
    game_id, token = link.removeprefix("/game/").split("#", 1)
    async with websockets.connect(f"{ws_base}/ws/{game_id}", max_size=1 << 24,
                                  additional_headers={"Cookie": v.cookie_header()}) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        seat, sent = None, -1
        while True:
            msg = json.loads(await asyncio.wait_for(ws.recv(), 30))
            if msg["type"] == "welcome":
                seat = msg["seat"]
            if msg["type"] != "state":
                continue
            if seat not in msg["timing"]["to_move"]:
                return
            if msg["legal"] and msg["seq"] > sent:
                sent = msg["seq"]
                await ws.send(json.dumps({"type": "act", "seq": sent,
                                          "action": reply(msg, rng)}))


def moved(server: Server, link: str, v: Visitor) -> None:
    """`move`, from a thread of its own (the browser's driver keeps an event loop here)."""
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, move(server.ws, link, v)).result(timeout=60)


def signed_in_page(browser: Any, server: Server, v: Visitor, locale: str) -> tuple[Any, Any]:
    """A browser context with `v`'s session (the same cookies), asking for `locale`."""
    context = browser.new_context(locale=locale, viewport={"width": 1280, "height": 900})
    context.add_cookies([{"name": c.name, "value": c.value, "url": server.base}
                         for c in v.jar])
    return context, context.new_page()


def header_count(page: Any, count: int) -> None:
    page.wait_for_selector(f"#nav-your-move[data-count='{count}']")


def test_your_move_page_and_the_next_game_in_english(server, browser):
    v = Visitor(server.base)
    v.sign_up("Wren")
    hour, day, live = waiting_games(v)
    context, page = signed_in_page(browser, server, v, "en-GB")
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.base}/")
    header_count(page, 3)
    assert page.text_content("#nav-your-move").split() == ["Your", "move", "3"]
    page.wait_for_selector("#waiting-note:not([hidden])")
    assert page.text_content("#waiting-note").startswith("3 games are waiting for your move.")
    page.goto(f"{server.base}/me")
    page.wait_for_selector("#waiting-note:not([hidden])")
    header_count(page, 3)
    # the page: the soonest deadline first, a game without a clock last
    page.click("#nav-your-move")
    page.wait_for_url("**/your-move")
    page.wait_for_selector("#waiting-games li[data-game]")
    ids = page.eval_on_selector_all("#waiting-games li[data-game]",
                                    "ls => ls.map(l => l.dataset.game)")
    assert ids == [link.split("/")[2].split("#")[0] for link in (hour, day, live)]
    lefts = page.eval_on_selector_all("#waiting-games .left", "ls => ls.map(l => l.textContent)")
    assert lefts[0].endswith(" left") and " min" in lefts[0]  # "59 min 58 s left"
    assert lefts[1].startswith(("23 h", "1 d")) and lefts[2] == "no time limit"
    assert page.title() == "(3) Your move"
    shot(page, "your-move")
    # the first game's seat; the move made there: the next game waiting is offered
    page.click(f"#waiting-games li[data-game='{ids[0]}'] a[data-open]")
    page.wait_for_url(f"**{hour}")
    page.wait_for_function("document.body.dataset.yourMove === 'yes'", timeout=15000)
    assert page.locator("#next-game").count() == 0
    moved(server, hour, v)
    page.wait_for_selector("#next-game", timeout=15000)
    assert page.text_content("#next-game") == "Next game"
    assert page.get_attribute("#next-game", "href") == day
    header_count(page, 2)
    shot(page, "your-move-next-game")
    page.click("#next-game")
    page.wait_for_url(f"**{day}")
    page.wait_for_function("document.body.dataset.yourMove === 'yes'", timeout=15000)
    assert not errors, errors
    context.close()


def test_your_move_in_german(server, browser):
    v = Visitor(server.base)
    v.sign_up("Kai")
    hour, day, _ = waiting_games(v)
    guest = browser.new_context(locale="de-DE")
    page = guest.new_page()
    page.goto(f"{server.base}/your-move")
    page.wait_for_selector("#need-sign-in:not([hidden])")
    assert page.locator("#nav-your-move").count() == 0  # a guest has no count
    guest.close()
    context, page = signed_in_page(browser, server, v, "de-DE")
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.base}/your-move")
    page.wait_for_selector("#waiting-games li[data-game]")
    header_count(page, 3)
    assert page.text_content("#nav-your-move").split() == ["Du", "bist", "am", "Zug", "3"]
    assert page.text_content("#your-move h2") == "Du bist am Zug"
    lefts = page.eval_on_selector_all("#waiting-games .left", "ls => ls.map(l => l.textContent)")
    assert lefts[0].startswith("noch ") and lefts[2] == "ohne Zeitlimit"
    page.goto(f"{server.base}/")
    page.wait_for_selector("#waiting-note:not([hidden])")
    assert page.text_content("#waiting-note").startswith("3 Spiele warten auf deinen Zug.")
    page.goto(f"{server.base}{day}")
    page.wait_for_function("document.body.dataset.yourMove === 'yes'", timeout=15000)
    moved(server, day, v)
    page.wait_for_selector("#next-game", timeout=15000)
    assert page.text_content("#next-game") == "Nächstes Spiel"
    assert page.get_attribute("#next-game", "href") == hour  # the hour game, sooner
    header_count(page, 2)
    shot(page, "your-move-next-game-de")
    assert not errors, errors
    context.close()
