"""The flow of a game in a real browser (Chromium driven by Playwright), at desktop and phone
sizes: no move by accident and every move undoable while it may be, play by keyboard alone,
players' words only, the end and replay screens, an unknown game, and the lobby.

Screenshots go to test-artifacts/ (as in test_web_browser.py, whose browser fixture and skip
rules this module shares).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from browsers import in_page, shot, wait_new_view
from test_web_server import Client, create, token_of

from tavola.games.gonzaga.bots.levels import level_options
from tavola.web.loadbench import http_json, play_seat

DESKTOP = (1280, 800)
PHONE = (390, 844)
SIZES = pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])


class Page:
    """A page in its own browser context, with the errors its scripts raised and every move
    it sent over the WebSocket."""

    def __init__(self, chromium: Any, size: tuple[int, int], **context: Any) -> None:
        phone = size[0] < 500
        self.context = chromium.new_context(viewport={"width": size[0], "height": size[1]},
                                           is_mobile=phone, has_touch=phone, **context)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.sent: list[dict[str, Any]] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("dialog", lambda d: d.accept())
        self.page.on("websocket", lambda ws: ws.on("framesent", self._sent))

    def _sent(self, payload: Any) -> None:
        with contextlib.suppress(TypeError, ValueError):
            self.sent.append(json.loads(payload))

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def pages(browser: Any) -> Iterator[Any]:
    """Opens pages; closes them and checks that no script failed."""
    opened: list[Page] = []

    def open_page(size: tuple[int, int] = DESKTOP, **context: Any) -> Page:
        p = Page(browser, size, **context)
        opened.append(p)
        return p

    yield open_page
    errors = [e for p in opened for e in p.errors]
    for p in opened:
        p.close()
    assert errors == []


def seq_of(page: Any) -> int:
    return int(page.evaluate("document.body.dataset.seq"))


def tab_to(page: Any, selector: str, presses: int = 120) -> None:
    """Press Tab until the element focused matches `selector`: the keyboard's way there."""
    for _ in range(presses):
        if page.evaluate("(s) => document.activeElement && document.activeElement.matches(s)",
                         selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def region_with(page: Any, action: str) -> str:
    """A region card in hand under which the fief drawn has a legal placement for `action`."""
    return page.evaluate(in_page("""(action) => {
        const legal = ui.view.legal;
        return legal.regions.find((r) => legal.best[r] && legal.best[r][action] !== null); }"""),
                         action)


def plan_by_clicks(page: Any, action: str, privilege: bool = False) -> None:
    page.wait_for_selector("#plan-go")
    page.click(f"#region-cards [data-card='{region_with(page, action)}']")
    page.click(f"#action-cards [data-card='{action}']")
    if privilege:
        page.click("#privilege")
    page.click("#plan-go")


def my_turn(page: Any) -> None:
    page.wait_for_selector("#mode-fief:not([disabled]), #mode-wedding", timeout=15000)
    page.evaluate("document.querySelector('#toast').hidden = true")  # the reveal's banner


def turn_to(page: Any, rotation: int) -> None:
    for _ in range(6):
        if int(page.get_attribute("#place-bar", "data-rotation") or 0) == rotation:
            return
        page.keyboard.press("r")
    raise AssertionError("R never turned the fief to the rotation wanted")


def open_seat(server: Any, pages: Any, size: tuple[int, int], game: dict[str, Any],
              seat: int = 0) -> Any:
    p = pages(size)
    p.page.goto(f"{server.base}{game['seats'][seat]['link']}")
    return p


def against_a_bot(server: Any, seed: int, bot: str = "random") -> dict[str, Any]:
    return create(server, [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": bot}],
                  seed=seed)


def play_to_end(server: Any, game: dict[str, Any], seat: int = 0, seed: int = 1
                ) -> dict[str, Any]:
    """Play a seat to the end over a WebSocket, in a thread of its own (the browser's driver
    already runs an event loop in this one); returns the last view."""
    url = f"{server.ws}/ws/{game['id']}"
    play = play_seat(url, token_of(game, seat), random.Random(seed))
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, asyncio.wait_for(play, 120)).result()


@pytest.fixture(scope="module")
def finished(server: Any) -> dict[str, Any]:
    """A listed game of Ann against two bots, played to the end over a WebSocket."""
    game = create(server, [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "greedy"},
                           {"kind": "bot", "bot": "planner"}], seed=5, public=True)
    final = play_to_end(server, game, seed=3)
    assert final["phase"] == "over"
    return {**game, "final": final}



def test_hovering_the_map_previews_placements_without_asking_the_server(server, pages):
    """Each position under the pointer shows at once what it covers and scores, or why not,
    from the view alone: the page sends no message while the pointer moves over the map."""
    p = open_seat(server, pages, DESKTOP, against_a_bot(server, seed=23))
    page = p.page
    plan_by_clicks(page, "cities")
    my_turn(page)
    sent = len(p.sent)
    best = page.evaluate(in_page(
        "[...ui.view.legal.placements].sort((a, b) => b[3] - a[3]).slice(0, 4)"))
    assert best
    for c, r, rotation, points, hexes, _castles, words in best:
        turn_to(page, rotation)
        page.hover(f"#board [data-hex='{c},{r}']", force=True)
        info = page.inner_text("#preview-info")
        assert info.startswith("Here: ") and f"{points} point" in info
        assert all(w in info for w in words)
        assert page.locator("#preview .preview-ok").count() == len(hexes)
    land = page.evaluate(in_page(
        "ui.board.hexes.filter((h) => h.region).map((h) => h.at.join(','))"))
    shown = set()
    for key in land[::60]:
        page.hover(f"#board [data-hex='{key}']", force=True)
        shown.add(page.inner_text("#preview-info").split(":")[0])
    assert "Not here" in shown
    assert p.sent[sent:] == []

# -- 1. no move by accident; undo --------------------------------------------------------------


@SIZES
def test_a_double_click_or_two_taps_only_choose_and_placing_is_a_separate_step(server, pages,
                                                                              size):
    p = open_seat(server, pages, size, against_a_bot(server, seed=31))
    page = p.page
    plan_by_clicks(page, "cities")
    my_turn(page)
    # the least-scoring legal placement, 0 points if there is one: the easiest to regret
    c, r, rotation, points = page.evaluate(
        in_page("[...ui.view.legal.placements].sort((a, b) => a[3] - b[3])[0].slice(0, 4)"))
    turn_to(page, rotation)
    seq = seq_of(page)
    acts = sum(1 for m in p.sent if m.get("type") == "act")
    hex_ = f"#board [data-hex='{c},{r}']"
    if size == PHONE:
        page.tap(hex_, force=True)
        page.tap(hex_, force=True)
    else:
        page.dblclick(hex_, force=True)
    time.sleep(1.0)  # long enough for a move to come back as a new view
    assert seq_of(page) == seq
    assert sum(1 for m in p.sent if m.get("type") == "act") == acts
    info = page.inner_text("#preview-info")
    assert info.startswith("Chosen: ") and f"{points} point" in info
    assert page.is_enabled("#confirm")
    assert f"{points} point" in page.inner_text("#confirm")
    shot(page, f"flow-chosen-{size[0]}")
    page.click("#confirm")
    wait_new_view(page, seq)
    acts = [m for m in p.sent if m.get("type") == "act"]
    assert [a["action"]["type"] for a in acts] == ["plan", "fief"]
    assert all(isinstance(a.get("seq"), int) for a in acts)  # every move names its view


def test_a_plan_and_a_placement_can_be_taken_back_while_the_view_allows(server, pages):
    game = create(server, [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bo"}])
    p = open_seat(server, pages, DESKTOP, game)
    page = p.page
    bo = Client(f"{server.ws}/ws/{game['id']}")
    bo.send({"type": "hello", "token": token_of(game, 1)})
    bo.expect("state")
    try:
        # Ann plans first: her plan reveals nothing yet, so she may take it back
        plan_by_clicks(page, "cities", privilege=True)
        page.wait_for_selector("#undo")
        assert page.inner_text("#undo") == "Take back my plan"
        page.click("#undo")
        page.wait_for_selector("#plan-go")
        assert seq_of(page) == 0 and page.query_selector("#undo") is None
        # plans again (the King's Privilege: she places first); Bo's plan reveals
        plan_by_clicks(page, "cities", privilege=True)
        page.wait_for_function("document.body.dataset.seq === '1'")
        view = bo.fresh_state()
        region = next(r for r in view["legal"]["regions"])
        bo.send({"type": "act", "seq": view["seq"], "action": {
            "type": "plan", "region": region, "action": "alliance", "privilege": False}})
        my_turn(page)
        assert page.query_selector("#undo") is None  # the reveal cannot be taken back
        seq = seq_of(page)
        page.click("#best a")
        page.click("#confirm")
        wait_new_view(page, seq)
        # her placement is not the round's last: Undo while Bo has not moved
        page.wait_for_selector("#undo")
        assert page.inner_text("#undo") == "Undo my move"
        assert len(page.query_selector_all("#pieces [data-piece='fief'][data-owner='0']")) == 1
        page.click("#undo")
        page.wait_for_function(f"document.body.dataset.seq === '{seq}'")
        my_turn(page)
        assert page.query_selector_all("#pieces [data-piece='fief'][data-owner='0']") == []
        sent = [m for m in p.sent if m.get("type") in ("act", "undo")]
        assert all(isinstance(m.get("seq"), int) for m in sent)
        assert [m["type"] for m in sent] == ["act", "undo", "act", "act", "undo"]
    finally:
        bo.close()


# -- 2. keyboard play ---------------------------------------------------------------------------


def test_a_placement_and_a_wedding_by_keyboard_alone(server, pages):
    p = open_seat(server, pages, DESKTOP, against_a_bot(server, seed=41))
    page = p.page
    page.wait_for_selector("#plan-go")
    region = region_with(page, "cities")
    tab_to(page, f"#region-cards [data-card='{region}']")
    page.keyboard.press("Enter")
    tab_to(page, "#action-cards [data-card='cities']")
    page.keyboard.press("Space")
    tab_to(page, "#plan-go")
    page.keyboard.press("Enter")
    my_turn(page)
    assert "arrow keys" in page.inner_text("#keys-hint")  # the hint is on the screen
    tab_to(page, "#board")
    # the focus is visible, and a cursor hex marks where the keys act
    assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") != "none"
    start = page.get_attribute("#cursor", "data-hex")
    c, r = map(int, start.split(","))
    page.keyboard.press("ArrowRight")
    assert page.get_attribute("#cursor", "data-hex") == f"{c + 1},{r}"
    page.keyboard.press("ArrowDown")
    assert page.get_attribute("#cursor", "data-hex") == f"{c + 1},{r + 1}"
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowLeft")
    assert page.get_attribute("#cursor", "data-hex") == start
    turned = int(page.get_attribute("#place-bar", "data-rotation"))
    page.keyboard.press("r")
    assert page.get_attribute("#place-bar", "data-rotation") == str((turned + 1) % 6)
    page.keyboard.press("Shift+R")
    assert page.get_attribute("#place-bar", "data-rotation") == str(turned)
    shot(page, "flow-keyboard-cursor")
    seq = seq_of(page)
    page.keyboard.press("Enter")  # chooses the position under the cursor...
    assert page.inner_text("#preview-info").startswith("Chosen: ")
    assert seq_of(page) == seq and page.is_enabled("#confirm")
    page.keyboard.press("Enter")  # ...and Enter again places the fief
    wait_new_view(page, seq)
    page.wait_for_selector("#pieces [data-piece='fief'][data-owner='0']", state="attached")

    # the next round: a Wedding with the Alliance card, by keyboard
    page.wait_for_selector("#plan-go", timeout=15000)
    tab_to(page, "#region-cards button:not([disabled])")
    page.keyboard.press("Enter")
    tab_to(page, "#action-cards [data-card='alliance']")
    page.keyboard.press("Enter")
    tab_to(page, "#plan-go")
    page.keyboard.press("Enter")
    page.wait_for_selector("#mode-wedding", timeout=15000)
    rings = len(page.query_selector_all("#pieces [data-piece='ring']"))
    tab_to(page, "#mode-wedding")
    page.keyboard.press("Enter")
    assert "Enter" in page.inner_text("#keys-hint")
    tab_to(page, "#board")
    first = page.get_attribute("#cursor", "data-hex")
    assert page.query_selector(f"#marks [data-wedding-option='{first}']") is not None
    seq = seq_of(page)
    page.keyboard.press("Enter")  # the first ring under the cursor
    page.wait_for_function("document.querySelector('#wedding-info').textContent.includes('point')")
    assert seq_of(page) == seq
    shot(page, "flow-keyboard-wedding")
    page.keyboard.press("Enter")  # Enter on the ring put arranges the Wedding
    wait_new_view(page, seq)
    page.wait_for_function(f"document.querySelectorAll(\"#pieces [data-piece='ring']\").length"
                           f" > {rings}")
    assert "Rings left 5" in page.inner_text("#you-score")


def focus_in_tabs(page: Any, selector: str, presses: int = 3) -> int:
    """Press Tab (and Enter on the skip link, the keyboard's way past the header) until the
    element focused matches `selector`; how many Tabs it took, or fail after `presses`."""
    focused = "(s) => document.activeElement && document.activeElement.matches(s)"
    for n in range(presses + 1):
        if page.evaluate(focused, selector):
            return n
        if n == presses:
            break
        page.keyboard.press("Tab")
        if page.evaluate(focused, "#skip-to-move"):
            page.keyboard.press("Enter")
    held = page.evaluate("document.activeElement && document.activeElement.outerHTML.slice(0, 80)")
    raise AssertionError(f"{presses} Tabs from the page's start never reached {selector}: {held}")


def test_the_keyboard_reaches_the_move_in_three_tabs_and_enter_places_a_best_placement(
        server, pages):
    """From a page just loaded, three Tabs at most reach the first card of a plan, and the map
    while placing; Enter on a best placement chooses it (nothing is sent) and Enter on it again
    places it."""
    p = open_seat(server, pages, DESKTOP, against_a_bot(server, seed=41))
    page = p.page
    page.wait_for_selector("#plan-go")
    focus_in_tabs(page, "#region-cards button")
    page.keyboard.press("Enter")
    tab_to(page, "#action-cards button:not([disabled]):not(#privilege)")
    page.keyboard.press("Enter")
    tab_to(page, "#plan-go")
    page.keyboard.press("Enter")
    my_turn(page)
    page.reload()  # the page loaded anew at the turn to place
    page.wait_for_selector("#best a")
    page.wait_for_timeout(200)
    focus_in_tabs(page, "#board")
    assert page.get_attribute("#cursor", "data-hex")  # the keys act on the map at once
    tab_to(page, "#best a")
    seq, sent = seq_of(page), len(p.sent)
    chosen = page.evaluate("document.activeElement.dataset.anchor")
    page.keyboard.press("Enter")  # chooses the placement: nothing is sent...
    page.wait_for_function("document.querySelector('#preview-info').textContent"
                           ".startsWith('Chosen: ')")
    page.wait_for_timeout(300)
    assert seq_of(page) == seq and not [m for m in p.sent[sent:] if m.get("type") == "act"]
    assert page.evaluate("document.activeElement.dataset.anchor") == chosen
    page.keyboard.press("Enter")  # ...and Enter on it again places the fief
    wait_new_view(page, seq)
    page.wait_for_selector("#pieces [data-piece='fief'][data-owner='0']", state="attached")
    fiefs = lambda: [m["action"] for m in p.sent  # noqa: E731 - the frames sent so far
                     if m.get("type") == "act" and m["action"].get("type") == "fief"]
    for _ in range(50):  # the driver reports a frame sent a little after the page sent it
        if fiefs():
            break
        page.wait_for_timeout(100)
    assert [f["anchor"] for f in fiefs()] == [[int(x) for x in chosen.split(",")]]


# -- 3. players' words -------------------------------------------------------------------------


def test_players_read_game_words_and_the_points_before_and_after_choosing(server, pages):
    p = open_seat(server, pages, DESKTOP, against_a_bot(server, seed=23))
    page = p.page
    page.wait_for_selector("#plan-go")
    board = http_json(f"{server.base}/api/gonzaga/board")
    me = page.evaluate(in_page("ui.view.players[0]"))
    name = next(f["name"] for f in board["fiefs"] if f["number"] == me["fief"])
    # the fief by its name (and picture), never a card or fief number
    assert page.inner_text("#you-fief") == f"Your fief this round: the {name}"
    assert me["card"] and not re.search(r"\d", page.inner_text("#players td.fief-cell"))
    plan_by_clicks(page, "cities")
    my_turn(page)
    c, r, rotation, points = page.evaluate(
        in_page("[...ui.view.legal.placements].sort((a, b) => b[3] - a[3])[0].slice(0, 4)"))
    assert points > 0
    turn_to(page, rotation)
    page.hover(f"#board [data-hex='{c},{r}']", force=True)
    page.wait_for_function("document.querySelector('#preview-info').textContent.includes('(+')")
    detail = re.search(r"\(\+.*?\)", page.inner_text("#preview-info")).group(0)
    # before a choice the button says nothing of points; the bar has them, with their detail
    assert not page.is_enabled("#confirm") and page.inner_text("#confirm") == "Place fief"
    page.click(f"#board [data-hex='{c},{r}']", force=True)
    time.sleep(0.3)
    assert detail in page.inner_text("#preview-info")  # still there once chosen
    assert f"{points} point" in page.inner_text("#confirm")
    text = page.inner_text("body")
    for word in ("rotation", "NOTES", "Fief card drawn", "(fief "):
        assert word not in text
    assert not re.search(r"\bfiefs? \d", text) and not re.search(r"\d+,\d+", text)
    # an illegal position: a plain sentence, no rule id
    sea = page.evaluate(in_page(
        "ui.board.hexes.find((h) => !h.region && h.at[1] > 3 && h.at[0] > 3).at"))
    page.click(f"#board [data-hex='{sea[0]},{sea[1]}']", force=True)  # chosen, but illegal
    page.wait_for_function("document.querySelector('#preview-info').textContent"
                           ".startsWith('Not here: ')")
    assert not page.is_enabled("#confirm")
    info = page.inner_text("#preview-info")
    assert "[" not in info and "placing" not in info and "rule" not in info
    page.click(f"#board [data-hex='{c},{r}']", force=True)
    seq = seq_of(page)
    page.click("#confirm")
    wait_new_view(page, seq)
    # round 2: the cards played in round 1 rest, and say only that
    page.wait_for_selector("#plan-go", timeout=15000)
    resting = page.query_selector_all("#region-cards button.resting, #action-cards button.resting")
    assert len(resting) >= 2
    for button in resting:
        assert button.query_selector("small").inner_text() == "resting this round"
    shot(page, "flow-resting-cards")


# -- 4. the end, the rematch, the replay, an unknown game ---------------------------------------


@SIZES
def test_the_end_screen_shows_each_players_points_by_source(server, pages, finished, size):
    p = open_seat(server, pages, size, finished)
    page = p.page
    page.wait_for_selector("#points-by-source")
    view = page.evaluate(in_page("ui.view"))
    sources = view["final"]["sources"]
    # the engine's own score events, as the log shows them, summed by player and source
    events = [e for entry in view["log"] for e in entry["events"]]
    for source in sources:
        row = page.query_selector(f"#points-by-source tr[data-source='{source['id']}']")
        assert row.query_selector("td").inner_text() == source["name"]
        for seat, _ in enumerate(view["players"]):
            cell = row.query_selector(f"td[data-seat='{seat}']").inner_text()
            assert int(cell) == sum(e["points"] for e in events
                                    if e["player"] == seat and e["reason"] == source["id"])
    totals = [int(t.inner_text()) for t in page.query_selector_all(
        "#points-by-source tr.total td.num")]
    assert totals == [pl["score"] for pl in view["players"]]
    assert page.is_visible("#rematch")
    shot(page, f"flow-end-{size[0]}")
    if size == PHONE:
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE[0] + 10


def test_a_rematch_from_the_end_screen(server, pages):
    game = against_a_bot(server, seed=8)
    play_to_end(server, game, seed=2)
    watcher = pages(DESKTOP)
    watcher.page.goto(f"{server.base}{game['spectator']}")
    watcher.page.wait_for_selector("#winner")
    assert watcher.page.query_selector("#rematch") is None  # a spectator cannot ask for one
    p = open_seat(server, pages, DESKTOP, game)
    p.page.wait_for_selector("#rematch")
    p.page.click("#rematch")
    p.page.wait_for_url(re.compile(r"/game/(?!" + game["id"] + r")[\w-]+#.+"))
    p.page.wait_for_selector("#plan-go, #waiting")
    assert p.page.evaluate(in_page("[ui.view.round, ui.view.you]")) == [1, 0]
    # the other connections are told, and get their own link
    watcher.page.wait_for_selector("#rematch-link")
    link = watcher.page.get_attribute("#rematch-link", "href")
    assert link.startswith("/game/") and link.endswith("#watch")


@SIZES
def test_the_replay_steps_over_secret_plans_draws_its_icons_and_shows_no_presence(
        server, pages, finished, size):
    from fontTools.ttLib import TTFont
    from matplotlib import font_manager

    p = pages(size)
    page = p.page
    page.goto(f"{server.base}/game/{finished['id']}#replay")
    page.wait_for_function("document.querySelector('#rp-step').textContent.includes('Step 0')")
    # icons are inline SVG: nothing in the buttons needs a glyph DejaVu Sans lacks
    cmap = TTFont(font_manager.findfont("DejaVu Sans")).getBestCmap()
    for button in page.query_selector_all("#replay-bar button"):
        assert button.query_selector("svg") is not None
        assert all(ord(ch) in cmap for ch in button.inner_text() if not ch.isspace())
        assert button.get_attribute("aria-label")
    # one step per reveal and per move on the map: plans never get a step of their own
    last = http_json(f"{server.base}/api/games/{finished['id']}/replay/100000")
    stops = sum(1 for e in last["log"] if e["kind"] in ("reveal", "turn"))
    assert int(page.get_attribute("#rp-slider", "max")) == stops < last["replay"]["total"]
    page.click("#rp-next")
    page.wait_for_function("document.querySelector('#rp-step').textContent.includes('Step 1')")
    assert page.evaluate("document.body.dataset.phase") == "placing"
    assert "Plans revealed" in page.inner_text("#rp-step")
    players = page.inner_text("#players")
    assert "away" not in players and "online" not in players
    page.click("#rp-next")
    page.wait_for_function("document.querySelector('#rp-step').textContent.includes('Step 2')")
    assert " places the " in page.inner_text("#rp-step") or "Wedding" in page.inner_text(
        "#rp-step") or "donates" in page.inner_text("#rp-step")
    shot(page, f"flow-replay-{size[0]}")


@SIZES
def test_an_unknown_game_says_so_and_leads_back_to_the_lobby(server, pages, size):
    p = pages(size)
    page = p.page
    for suffix in ("", "#replay"):
        page.goto(f"{server.base}/game/nosuchgame{suffix}")
        page.wait_for_selector("#gone h2", timeout=10000)
        assert page.inner_text("#gone h2") == "No such game"
        time.sleep(1.5)  # no reconnecting, ever
        assert "reconnecting" not in page.inner_text("body")
        assert page.get_attribute("#to-lobby", "href") == "/"
    shot(page, f"flow-unknown-{size[0]}")
    page.click("#to-lobby")
    page.wait_for_selector("#create-game")


# -- 5. the lobby -------------------------------------------------------------------------------


@SIZES
def test_the_lobby_explains_the_bots_and_keeps_the_seed_for_one_person_games(server, pages,
                                                                             size):
    options = http_json(f"{server.base}/api/gonzaga/options")
    assert options["bot_levels"] == level_options()  # the words live with the bot registry
    assert [b["id"] for b in options["bot_levels"]] == options["bots"]
    p = pages(size)
    page = p.page
    page.goto(f"{server.base}/")
    page.wait_for_selector("[data-seat-kind='1'] option", state="attached")
    page.click("#bots-help summary")
    about = page.inner_text("#bots-help")
    for level in options["bot_levels"]:
        assert level["help"] in about and level["strength"] in about
    chosen = page.input_value("[data-seat-kind='1']").removeprefix("bot:")
    help_ = next(b["help"] for b in options["bot_levels"] if b["id"] == chosen)
    assert help_ in page.inner_text("[data-seat-help='1']")
    # the seed is folded away, with why it is for games with at most one person
    assert not page.is_visible("#seed")
    page.click("#advanced summary")
    assert page.is_visible("#seed") and page.is_enabled("#seed")
    assert "at most one person" in page.inner_text("#seed-note")
    page.select_option("[data-seat-kind='1']", "person")
    assert not page.is_enabled("#seed")
    assert "several people" in page.inner_text("#seed-note")
    shot(page, f"flow-lobby-{size[0]}")


def test_the_lobby_lists_only_listed_games_names_winners_and_pages(server, pages, finished):
    unlisted = against_a_bot(server, seed=3)
    listed = create(server, [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bo"}],
                    public=True)
    p = pages(DESKTOP)
    page = p.page
    page.goto(f"{server.base}/")
    page.wait_for_selector(f"#open-games [data-game='{listed['id']}']")
    assert page.query_selector(f"[data-game='{unlisted['id']}']") is None
    winners = [finished["final"]["players"][i]["name"] for i in finished["final"]["winners"]]
    line = page.inner_text(f"#finished-games [data-game='{finished['id']}']")
    assert line.startswith(" and ".join(winners) + " won")
    # more than a page of open games: the rest behind "more"
    while True:
        lists = http_json(f"{server.base}/api/games")
        if lists["more"]["open"]:
            break
        create(server, [{"kind": "person"}, {"kind": "person"}], public=True)
    total = len(lists["open"])
    offset = total
    while True:
        page_ = http_json(f"{server.base}/api/games?section=open&offset={offset}")
        total += len(page_["games"])
        offset += len(page_["games"])
        if not page_["more"]:
            break
    page.reload()
    page.wait_for_selector("#more-open:not([hidden])", timeout=10000)
    assert len(page.query_selector_all("#open-games li[data-game]")) == len(lists["open"])
    page.click("#more-open")
    page.wait_for_function(f"document.querySelectorAll('#open-games li[data-game]').length"
                           f" === {total}")
    assert not page.is_visible("#more-open")


def test_every_invite_link_has_a_copy_button_with_a_fallback(server, pages):
    def create_two_people(p: Page) -> list[Any]:
        p.page.goto(f"{server.base}/")
        p.page.wait_for_selector("[data-seat-kind='1'] option", state="attached")
        p.page.select_option("[data-seat-kind='1']", "person")
        p.page.click("#create-game")
        p.page.wait_for_selector("#created li button.copy")
        return p.page.query_selector_all("#created button.copy")

    p = pages(DESKTOP, permissions=["clipboard-read", "clipboard-write"])
    buttons = create_two_people(p)
    links = [b.get_attribute("data-copy") for b in buttons]
    assert len(buttons) == 2 and any(link.endswith("#watch") for link in links)  # Bo, watchers
    for button, link in zip(buttons, links, strict=True):
        assert link.startswith(server.base + "/game/")
        button.click()
        p.page.wait_for_function("(b) => b.textContent.startsWith('Copied')", arg=button)
        assert p.page.evaluate("navigator.clipboard.readText()") == link
    shot(p.page, "flow-invite-links")
    # without the Clipboard API, the old way: the link is selected and copied
    old = pages(DESKTOP)
    old.context.add_init_script("""
        Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined });
        document.addEventListener('copy', () => {
          window.copied = document.activeElement && document.activeElement.value; });""")
    button = create_two_people(old)[0]
    button.click()
    old.page.wait_for_function("(b) => b.textContent.startsWith('Copied')", arg=button)
    assert old.page.evaluate("window.copied") == button.get_attribute("data-copy")
