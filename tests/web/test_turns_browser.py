"""Turn-based games and chat in a real browser (Chromium driven by Playwright): a game created
in the lobby with seconds per move (the server allows seconds for tests only), where the page
signals your move and a bot covers the seat when its time runs out; chat lines shown as text,
a spectator who reads, a muted seat."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from web_server import Server, launch

from tavola.text import say
from tavola.web.loadbench import LOCAL_LIMITS, http_json

LIMITS = {**LOCAL_LIMITS, "min_move_seconds": 1, "turn_check_seconds": 0.3}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = launch(tmp_path_factory.mktemp("turns") / "games.db", limits=LIMITS)
    yield srv
    srv.stop()




def page_of(browser: Any, url: str) -> Any:
    page = browser.new_context(viewport={"width": 1366, "height": 900}).new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(url)
    return page


def test_a_bot_covers_a_timed_out_seat_in_a_game_made_in_the_lobby(server, browser):
    page = page_of(browser, f"{server.base}/?game=signorie")
    page.wait_for_selector("#move-time option[value='5']", state="attached")
    page.fill("[data-seat-name='0']", "Ann")
    page.select_option("#move-time", "5")
    page.select_option("#misses", "1")
    page.click("#create-game")
    page.wait_for_url("**/game/**")
    page.wait_for_selector(".player", timeout=15000)
    # the seat waits for Ann's move: the tab, its icon and the clock say so
    page.wait_for_function("document.body.dataset.yourMove === 'yes'", timeout=15000)
    assert page.title().startswith("▶ Your move")
    assert page.get_attribute("link[rel~='icon']", "href") == "/static/tavola/your-move.svg"
    assert "left for your move" in page.text_content("#turn-clock")
    # Ann does nothing: after 5 s the bot moves for her, the log says so, and with one miss
    # allowed the bot keeps the seat
    covered = say("timing.covered", name="Ann")
    page.wait_for_function(f"[...document.querySelectorAll('#log li')].some(li => "
                           f"li.textContent === {covered!r})", timeout=20000)
    page.wait_for_function(f"[...document.querySelectorAll('#log li')].some(li => "
                           f"li.textContent === {say('timing.replaced-one', name='Ann')!r})",
                           timeout=30000)  # wide margins: a loaded CI machine once took over 5 s
    page.wait_for_function("document.querySelector('.player small').textContent"
                           ".includes('bot')", timeout=30000)
    # a bot now plays both seats: the game goes on to its end without Ann
    # (polled on a timer, not on animation frames, which a page busy drawing the bots' moves
    # on a loaded machine once held back past 15 s)
    page.wait_for_function("document.body.dataset.yourMove === 'no'", polling=250,
                           timeout=60000)
    assert not page.title().startswith("▶")
    assert page.errors == []


def test_chat_lines_are_text_spectators_read_and_a_seat_can_be_muted(server, browser):
    game = http_json(f"{server.base}/api/games", {"game": "signorie", "seats": [
        {"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bea"}]})
    ann = page_of(browser, f"{server.base}{game['seats'][0]['link']}")
    bea = page_of(browser, f"{server.base}{game['seats'][1]['link']}")
    watcher = page_of(browser, f"{server.base}{game['spectator']}")
    for page in (ann, bea, watcher):
        page.wait_for_selector("#chat", timeout=15000)
    assert watcher.query_selector("#chat-form") is None  # spectators read only
    hostile = "<script>window.pwned = 1</script><b>bold</b> & <img src=x onerror=alert(1)>"
    ann.fill("#chat-input", hostile)
    ann.click("#chat-send")
    for page in (ann, bea, watcher):
        page.wait_for_selector("#chat-lines li", timeout=10000)
        assert page.text_content("#chat-lines .chat-text") == hostile  # shown as text
        assert page.query_selector("#chat-lines b, #chat-lines img, #chat-lines script") is None
        assert page.evaluate("window.pwned") is None
    assert ann.get_attribute("#chat-input", "maxlength") == "300"
    # Bea mutes Ann: the line is hidden, and stays hidden after a reload
    bea.click("[data-mute='0']")
    assert bea.query_selector("#chat-lines li") is None
    bea.reload()
    bea.wait_for_selector("#chat", timeout=15000)
    bea.wait_for_selector("[data-mute='0'][aria-pressed='true']", timeout=5000)
    assert bea.query_selector("#chat-lines li") is None
    # the stored chat reaches a later spectator too
    late = page_of(browser, f"{server.base}{game['spectator']}")
    late.wait_for_selector("#chat-lines li", timeout=10000)
    assert late.text_content("#chat-lines .chat-text") == hostile
    for page in (ann, bea, watcher, late):
        assert page.errors == []
