"""Signorie in a real browser (Debian's Chromium driven by Playwright): a whole game by clicking,
two people in two browsers, a reload mid-round, the phone layout, a spectator.

The screenshots of the table in the README and docs/ are taken here (docs/signorie-*.png, with
UPDATE_SCREENSHOTS=1).
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browsers import in_page
from test_signorie_web import create, join, move, start, token_of
from web_server import ARTIFACTS, Server

from tavola.web.loadbench import http_json

#: The screenshots of README and docs/ are taken again with UPDATE_SCREENSHOTS=1; otherwise
#: they go to test-artifacts/ like every other screenshot, and the docs stay as they are.
DOCS = Path(__file__).resolve().parents[2] / "docs" if os.environ.get("UPDATE_SCREENSHOTS") \
    else ARTIFACTS
#: what the page shows when the seat has something to do, or the game is over
READY = ("document.querySelector('[data-die-choice], #actions .choices button.key:not(:disabled),"
         " #actions .option') || !document.querySelector('#end').hidden")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = start(tmp_path_factory.mktemp("signorie-browser") / "games.db")
    yield srv
    srv.stop()




def open_page(browser: Any, url: str, width: int = 1366, height: int = 900) -> tuple[Any, Any]:
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.wait_for_selector(".player", timeout=15000)
    page.errors = errors  # type: ignore[attr-defined]
    return context, page


def seq_of(page: Any) -> int:
    return int(page.evaluate("document.body.dataset.seq"))


def confirm(page: Any, rng: random.Random) -> None:
    """The preview is shown first; the move is made only by Confirm (or Enter)."""
    page.wait_for_selector("#confirm:not([disabled])", timeout=10000)
    assert page.is_visible("#preview")
    if rng.random() < 0.3:
        page.keyboard.press("Enter")
    else:
        page.click("#confirm")


def click_a_move(page: Any, rng: random.Random) -> None:
    """One whole choice by clicking: a die and one of its open actions, or an option."""
    seq = seq_of(page)
    dice = page.query_selector_all("[data-die-choice]")
    if dice:
        if rng.random() < 0.5:
            rng.choice(dice).click()
        else:  # the board's own dice are buttons too
            page.query_selector_all("#dice button.die.pick:not([disabled])")[0].click()
        choices = page.query_selector_all("#actions .choices button.key:not(:disabled)")
        assert choices, "an open die always allows an action"
        rng.choice(choices).click()
    else:
        buttons = page.query_selector_all(
            "#actions .choices button.key:not(:disabled), #actions .option")
        if rng.random() < 0.3 and len(buttons) < 10:
            page.keyboard.press(str(rng.randrange(len(buttons)) + 1))  # keyboard play
        else:
            rng.choice(buttons).click()
    confirm(page, rng)
    page.wait_for_function(f"Number(document.body.dataset.seq) > {seq} "
                           "&& !document.body.dataset.sending", timeout=15000)


def wait_ready(page: Any, timeout: float = 30000) -> None:
    page.wait_for_function(READY, timeout=timeout)


def test_a_whole_game_against_a_bot_by_clicking(server, browser):
    DOCS.mkdir(exist_ok=True)
    game = create(server, [{"kind": "person", "name": "Ann"},
                           {"kind": "bot", "bot": "random", "name": "Bea"}])
    context, page = open_page(browser, server.base + game["seats"][0]["link"])
    rng = random.Random(4)
    moves = 0
    shot_taken = False
    deadline = time.monotonic() + 600
    while True:
        assert time.monotonic() < deadline
        wait_ready(page)
        if not page.evaluate("document.querySelector('#end').hidden"):
            break
        if not shot_taken and page.evaluate("document.querySelector('#status').textContent"
                                            ).startswith("Round 3"):
            page.screenshot(path=str(DOCS / "signorie-table.png"), full_page=True)
            shot_taken = True
        click_a_move(page, rng)
        moves += 1
    assert moves > 30 and shot_taken
    # the whole log is there, from the setup on
    assert page.evaluate("document.querySelectorAll('#log li').length") > moves
    assert page.inner_text("#log li:last-child").startswith("Setup")
    rows = page.query_selector_all("#final-table tbody tr[data-source]")
    assert len(rows) == len(page.evaluate("Array.from(new Set([...document.querySelectorAll("
                                          "'#final-table tbody tr[data-source]')].map(r => "
                                          "r.dataset.source)))"))
    assert page.inner_text("#winner").startswith("Winner:")
    totals = [int(x) for x in page.inner_text("#final-table tr.total").split()[1:]]
    vps = [int(x.split()[0]) for x in page.eval_on_selector_all(
        ".player .vp-total", "els => els.map(e => e.textContent)")]
    assert totals == vps
    # the views after the first came as changes, and every one applied to the page's view
    assert page.evaluate(in_page("Table.state.n")) > moves
    assert page.evaluate("document.body.dataset.fullViewsAsked") is None
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "signorie-end.png"), full_page=True)
    # the record and the replay, step by step
    with page.expect_download() as dl:
        page.click("#download")
    assert dl.value.suggested_filename.startswith("signorie-")
    page.click("#replay-link")
    page.wait_for_selector("#replay-bar:not([hidden])")
    # its buttons are drawn icons, not glyphs a font may lack
    icons = page.eval_on_selector_all("#replay-bar button", """bs => bs.map(b =>
      [b.textContent.trim(), b.querySelector('svg.ui-icon:not([style*=none])') ?
        b.querySelector('svg.ui-icon').getBoundingClientRect().width : 0])""")
    assert icons and all(text == "" and width > 0 for text, width in icons), icons
    page.wait_for_function("document.querySelector('#rp-step').textContent.startsWith('step 0')")
    page.click("#rp-next")
    page.wait_for_function("document.querySelector('#rp-step').textContent.startsWith('step 1')")
    assert page.errors == []
    context.close()


def test_two_people_in_two_browsers_and_a_bot(server, browser):
    game = create(server, [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bo"},
                           {"kind": "bot", "bot": "greedy", "name": "Cat"}])
    ca, a = open_page(browser, server.base + game["seats"][0]["link"])
    cb, b = open_page(browser, server.base + game["seats"][1]["link"])
    rng = random.Random(9)
    deadline = time.monotonic() + 240
    while "Round 2" not in a.inner_text("#status"):
        assert time.monotonic() < deadline
        moved = False
        for page in (a, b):
            if page.query_selector("#question"):
                click_a_move(page, rng)
                moved = True
        if not moved:
            time.sleep(0.2)
    # both browsers show the same table once they have the same view
    b.wait_for_function(f"Number(document.body.dataset.seq) >= {seq_of(a)}")
    a.wait_for_function(f"Number(document.body.dataset.seq) >= {seq_of(b)}")
    if seq_of(a) == seq_of(b):
        for sel in ("#dice", "#cities", "#tracks", "#rewards"):
            assert a.inner_text(sel) == b.inner_text(sel), sel
    assert "Bo" in a.inner_text("#players") and "(you)" in b.inner_text("[data-seat='1'] h3")
    assert a.errors == [] and b.errors == []
    ca.close()
    cb.close()


def test_a_reload_mid_round_keeps_the_table_and_the_half_made_turn(server, browser):
    game = create(server, [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}])
    context, page = open_page(browser, server.base + game["seats"][0]["link"])
    rng = random.Random(2)
    for _ in range(3):
        wait_ready(page)
        click_a_move(page, rng)
    wait_ready(page)
    before = {sel: page.inner_text(sel) for sel in ("#dice", "#cities", "#players", "#tracks")}
    page.reload()
    page.wait_for_selector(".player")
    wait_ready(page)
    for sel, text in before.items():
        assert page.inner_text(sel) == text, sel
    # a die taken, its action not yet chosen: the page asks for the action after a reload
    c = join(server, game, 0)
    view = c.fresh_state()
    if view["legal"] and view["legal"]["kind"] == "turn":
        die = next(d for d in view["legal"]["dice"] if d["ok"])
        c.send({"type": "act", "action": die["action"], "seq": view["seq"]})
        c.expect("state")
        page.reload()
        page.wait_for_selector("#actions .choices button.key:not(:disabled)")
        assert "die placed" in page.inner_text("#actions")
    c.close()
    assert page.errors == []
    context.close()


def test_the_phone_layout_fits_375_pixels_with_readable_labels(server, browser):
    game = create(server, [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "greedy"},
                           {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}])
    context, page = open_page(browser, server.base + game["seats"][0]["link"], 375, 740)
    wait_ready(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    smallest = page.evaluate("""() => {
      let least = 99;
      for (const e of document.querySelectorAll('#game *')) {
        const own = [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
        if (!e.offsetParent || !own)
          continue;
        least = Math.min(least, parseFloat(getComputedStyle(e).fontSize));
      }
      return least; }""")
    assert smallest >= 9, smallest
    wide = page.evaluate("""() => [...document.querySelectorAll('#game *')]
      .filter(e => e.getBoundingClientRect().right > 376 && !e.closest('.scroll'))
      .map(e => e.className || e.tagName).slice(0, 5)""")
    assert wide == []
    page.screenshot(path=str(DOCS / "signorie-phone.png"))
    rng = random.Random(1)
    click_a_move(page, rng)  # one move on the phone too
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    assert page.errors == []
    context.close()


def test_a_spectator_sees_the_table_and_no_choice(server, browser):
    game = create(server, [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}])
    context, page = open_page(browser, f"{server.base}{game['spectator']}")
    page.wait_for_selector("#actions h3")
    assert page.inner_text("#actions h3") == "Watching"
    assert page.query_selector_all("#actions button") == []
    assert "(you)" not in page.inner_text("#players")
    assert token_of(game, 0) not in page.content()
    assert page.errors == []
    context.close()


def test_the_lobby_offers_signorie_with_its_picture_and_opens_its_table(server, browser):
    lobby = http_json(f"{server.base}/api/lobby")
    offer = next(g for g in lobby["games"] if g["name"] == "signorie")
    assert offer["picture"] == "/static/signorie/picture.svg" and offer["tagline"]
    context = browser.new_context(viewport={"width": 1100, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.base}/")
    page.wait_for_selector("[data-game-choice='signorie']", state="attached")
    assert page.evaluate("fetch('/static/signorie/picture.svg').then(r => r.status)") == 200
    page.check("[data-game-choice='signorie']")
    page.wait_for_selector("#create[data-game='signorie']", state="attached")
    page.click("#create-game")
    page.wait_for_url("**/game/**")
    page.wait_for_selector(".player")
    wait_ready(page)
    assert "(you)" in page.inner_text("#players")
    assert errors == []
    context.close()


def test_every_choice_has_a_key_and_a_die_preview_counts_its_action(server, browser):
    """Ten dice and Pass: each has a key (1-9, 0, then letters; p is Pass). Picking a die and
    one of its actions previews both together: a helper costs the die and its own price."""
    game = create(server, [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}],
                  seed=5)  # Ann moves first with ten open dice
    context, page = open_page(browser, server.base + game["seats"][0]["link"])
    wait_ready(page)
    keys = page.eval_on_selector_all("#actions button.key:not(:disabled)",
                                     "bs => bs.map(b => b.dataset.key || '')")
    assert len(keys) >= 11 and all(keys) and len(set(keys)) == len(keys), keys
    assert page.get_attribute("#pass", "data-key") == "p"
    page.keyboard.press("0")  # the tenth die
    page.wait_for_selector("#picked")
    tenth = page.evaluate(in_page("Table.view.legal.dice[9]"))
    assert page.evaluate(in_page("ui.pick")) == 9 and tenth["ok"]
    page.click("#other-die")
    # a die with a helper to hire: the preview shows the die's cost and the helper's together
    die, helper = page.evaluate(in_page("""() => {
      for (const d of Table.view.legal.dice.filter(d => d.ok))
        for (const c of d.choices) if (c.kind === 'helper' && c.ok) return [d, c];
      return [null, null]; }"""))
    assert die, "a die of seed 5 allows a helper"
    page.click(f"[data-die-choice='{die['colour']}-{die['value']}']")
    page.click(f"[data-choice='helper-{helper['helper']}']")
    page.wait_for_selector("#gain")
    total = die["cost"] + helper["cost"]
    assert f"-{total} florins" in page.inner_text("#gain"), (page.inner_text("#gain"), total)
    page.keyboard.press("Escape")
    # the log's numbers have room for four digits
    room = page.evaluate("""() => {
      const ol = document.querySelector('#log');
      const c = document.createElement('canvas').getContext('2d');
      c.font = getComputedStyle(ol).fontSize + ' ' + getComputedStyle(ol).fontFamily;
      return parseFloat(getComputedStyle(ol).paddingLeft) - c.measureText('1000. ').width; }""")
    assert room >= 0, room
    assert page.errors == []
    context.close()


def play_round_one(server: Server, game: dict[str, Any]) -> None:
    """Seat 0's moves of round 1 made over the WebSocket, as the page would send them."""
    c = join(server, game, 0)
    rng = random.Random(3)
    deadline = time.monotonic() + 120
    view = c.view
    while view["round"] == 1:
        assert time.monotonic() < deadline
        if view["legal"] is not None:
            view = move(c, rng)
        else:
            c.recv()
            view = c.view
    c.close()


def test_the_end_of_a_round_is_summed_up_until_dismissed(server, browser):
    game = create(server, [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "random",
                                                               "name": "Bea"}])
    play_round_one(server, game)
    context, page = open_page(browser, server.base + game["seats"][0]["link"])
    page.wait_for_selector("#round-summary:not([hidden])")
    text = page.inner_text("#round-summary")
    assert "Round 1 is over" in text and "Bea" in text and "You" in text
    assert len(page.query_selector_all("#summary-table tbody tr")) == 2
    assert "Turn order of the next round" in page.inner_text("#summary-order")
    page.click("#summary-ok")
    assert page.is_hidden("#round-summary")
    page.reload()
    page.wait_for_selector(".player")
    assert page.is_hidden("#round-summary")  # dismissed once, for good
    assert page.errors == []
    context.close()


def test_on_a_phone_the_others_moves_pop_up(server, browser):
    game = create(server, [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "random",
                                                               "name": "Bea"}])
    context, page = open_page(browser, server.base + game["seats"][0]["link"], 375, 740)
    page.evaluate("""() => { window.toasts = [];
      new MutationObserver(() => { const t = document.querySelector('#toast');
        if (!t.hidden) window.toasts.push(t.textContent); })
        .observe(document.querySelector('#toast'), {attributes: true, childList: true,
                                                    characterData: true, subtree: true}); }""")
    rng = random.Random(5)
    for _ in range(12):
        if page.evaluate("window.toasts.some(t => t.includes('Bea'))"):
            break
        wait_ready(page)
        click_a_move(page, rng)
        time.sleep(0.3)
    # the bot's move may arrive after the last click on a loaded machine: wait for its toast
    page.wait_for_function("window.toasts.some(t => t.includes('Bea'))", timeout=30000)
    assert page.errors == []
    context.close()


#: every word of the players' helper cells that the layout cut in two (a word on two lines)
CUT_WORDS = """() => {
  const cut = [];
  for (const cell of document.querySelectorAll('.helper span')) {
    const node = cell.firstChild;
    if (!node || node.nodeType !== 3) continue;
    const re = /\\S+/g;
    let m;
    while ((m = re.exec(node.textContent))) {
      const r = document.createRange();
      r.setStart(node, m.index); r.setEnd(node, m.index + m[0].length);
      const tops = new Set([...r.getClientRects()].map(x => Math.round(x.top)));
      if (tops.size > 1) cut.push(m[0]);
    }
  }
  return cut; }"""


def test_on_a_phone_confirm_stays_in_sight_and_no_word_is_cut(server, browser):
    game = create(server, [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}],
                  seed=5)
    context, page = open_page(browser, server.base + game["seats"][0]["link"], 375, 740)
    wait_ready(page)
    assert page.is_visible("#lobby-link") and page.get_attribute("#lobby-link", "href") == "/"
    assert page.evaluate(CUT_WORDS) == []
    # the die with the longest list of actions, and its last open action
    die = page.evaluate(in_page("""() => Table.view.legal.dice.filter(d => d.ok)
      .sort((a, b) => b.choices.length - a.choices.length)[0]"""))
    page.click(f"[data-die-choice='{die['colour']}-{die['value']}']")
    buttons = page.query_selector_all("#actions .choices button.key:not(:disabled)")
    buttons[-1].click()
    page.wait_for_selector("#confirm:not([disabled])")
    box = page.eval_on_selector("#confirm", "b => { const r = b.getBoundingClientRect(); "
                                            "return [r.top, r.bottom]; }")
    assert box[0] >= 0 and box[1] <= 740, box
    assert page.errors == []
    context.close()


def test_a_touch_screen_shows_no_key_hints(server, browser):
    game = create(server, [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}])
    context = browser.new_context(viewport={"width": 375, "height": 740}, has_touch=True,
                                  is_mobile=True)
    page = context.new_page()
    page.goto(server.base + game["seats"][0]["link"])
    page.wait_for_selector(".player")
    wait_ready(page)
    assert page.query_selector_all("#actions kbd"), "the keys are there for keyboards"
    assert not any(k.is_visible() for k in page.query_selector_all("kbd"))
    context.close()


def test_the_creator_always_has_the_spectators_link(server, browser):
    """One person and a bot: no other seat to invite, yet spectators may be sent a link."""
    game = create(server, [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}])
    context, page = open_page(browser, server.base + game["seats"][0]["link"])
    page.evaluate(in_page("([id, seats, spectator]) => saveInvites(id, {seats, spectator})"),
                  [game["id"], [{"name": "Ann", "link": game["seats"][0]["link"]}],
                   game["spectator"]])
    page.reload()
    page.wait_for_selector("#invites:not([hidden])")
    page.click("#invites summary")
    assert game["spectator"].split("#")[0] in page.inner_text("#invites")
    assert page.errors == []
    context.close()


def _apart(a: dict[str, float], b: dict[str, float]) -> bool:
    return (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
            or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])


def test_on_a_phone_the_board_follows_its_question_and_toasts_cover_neither(server, browser):
    """At 390x844 the dice a turn asks for come right after the question (they used to be three
    screens below, after the players' boards and the log); a pop-up message covers neither the
    header nor the question, wherever the page is scrolled."""
    game = create(server, [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}],
                  seed=5)
    context, page = open_page(browser, server.base + game["seats"][0]["link"], 390, 844)
    wait_ready(page)
    tops = page.evaluate("""() => Object.fromEntries(['#question', '#actions', '#dice-area',
      '#cities-area', '#tracks-area', '.strip', '#players', '#log'].map(s => {
        const r = document.querySelector(s).getBoundingClientRect();
        return [s, [r.top + scrollY, r.bottom + scrollY]]; }))""")
    dice = tops["#dice-area"][0]
    assert tops["#actions"][1] <= dice < min(v[0] for k, v in tops.items()
                                             if k not in ("#question", "#actions", "#dice-area"))
    assert dice - tops["#question"][0] < 844, tops
    lines = "Greedy bot takes the red 4\nGreedy bot sends 3 sons\nGreedy bot hires a helper"
    for scroll in (0, tops["#question"][0] - 80, tops["#question"][0] - 200):
        page.evaluate(f"window.scrollTo(0, {max(0, scroll)})")
        page.evaluate(in_page(f"toast({lines!r}, 'info')"))
        page.wait_for_selector("#toast:not([hidden])")
        toast = page.locator("#toast").bounding_box()
        assert _apart(toast, page.locator("header").bounding_box()), scroll
        assert _apart(toast, page.locator("#question").bounding_box()), scroll
    assert page.errors == []
    context.close()


def test_the_replay_shows_no_presence_and_says_what_just_happened(server, browser):
    """A finished game's replay has nobody online or away, and each step says what was just
    played (the log's newest line), not only the question of the moment."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from tavola.web.loadbench import play_seat

    game = http_json(f"{server.base}/api/games", {
        "game": "signorie", "seats": [{"kind": "person", "name": "Ann"},
                                      {"kind": "bot", "bot": "random"}]})
    token = game["seats"][0]["link"].split("#", 1)[1]
    with ThreadPoolExecutor(1) as pool:  # the browser's loop runs in this thread
        final = pool.submit(asyncio.run, play_seat(f"{server.ws}/ws/{game['id']}", token,
                                                   random.Random(3), game="signorie")).result()
    assert final["phase"] == "over"
    context, page = open_page(browser, f"{server.base}/game/{game['id']}#replay")
    page.wait_for_selector("#replay-bar:not([hidden])")
    for _ in range(3):
        page.click("#rp-next")
    page.wait_for_function("document.querySelector('#rp-step').textContent.startsWith('step 3')")
    page.wait_for_function("document.querySelector('#replay-last')")
    players = page.inner_text("#players")
    assert "away" not in players and "online" not in players
    last = page.evaluate(in_page("ui.view.log[ui.view.log.length - 1].text"))
    assert last and last in page.inner_text("#replay-last")
    assert page.errors == []
    context.close()
