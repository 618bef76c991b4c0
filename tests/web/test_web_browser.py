"""A whole game in a real browser (Debian's Chromium driven by Playwright), by clicking.

Screenshots of the main screens go to test-artifacts/; those the README and docs/ show
(docs/web-placing.png, web-game-over.png, web-phone.png) go to docs/ with UPDATE_SCREENSHOTS=1.
Without Chromium the tests skip locally and fail in CI (CI=true), where .ci/run installs it.
"""

from __future__ import annotations

import pytest
from browsers import click, docs_shot, in_page, shot, wait_taken

from tavola.testing import game_names
from tavola.web.loadbench import http_json


def test_play_a_whole_game_against_a_bot_by_clicking(server, browser):
    page = browser.new_page(viewport={"width": 1366, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("dialog", lambda d: d.accept())

    # the lobby: you against the random bot, a fixed seed
    page.goto(f"{server.base}/")
    page.wait_for_selector("[data-seat-kind='1'] option", state="attached")
    assert page.title() == page.inner_text("#brand") == "Tavola"  # the site, not a game
    page.click("#remove-seat")
    page.select_option("[data-seat-kind='1']", "bot:random")
    page.fill("[data-seat-name='0']", "Ann")
    page.click("#advanced summary")  # the seed is an advanced choice
    page.fill("#seed", "11")
    shot(page, "lobby")
    page.click("#create-game")
    page.wait_for_url("**/game/**")

    planned = placed = donated = 0
    seen_rounds = set()
    while True:
        page.wait_for_function(
            "document.querySelector('#plan-go') || document.querySelector('#mode-fief') "
            "|| !document.querySelector('#end').hidden", timeout=15000)
        seq = int(page.evaluate("document.body.dataset.seq"))
        if page.evaluate("!document.querySelector('#end').hidden"):
            break
        seen_rounds.add(page.inner_text("#status").split(" · ")[0])
        if page.query_selector("#plan-go"):
            click(page, "#region-cards button:not([disabled])", errors)
            action = ("harbors", "cities", "alliance")[planned % 3]
            if page.query_selector(f"#action-cards [data-card='{action}']:not([disabled])"):
                click(page, f"#action-cards [data-card='{action}']", errors)
            else:
                click(page, "#action-cards button:not([disabled]):not(#privilege)", errors)
            if planned == 0:
                shot(page, "planning")
            click(page, "#plan-go", errors)
            planned += 1
            wait_taken(page, seq, "#plan-go")
            continue
        best = page.query_selector("#best a")
        if best is None:
            click(page, "#donate", errors)
            donated += 1
            wait_taken(page, seq, "#mode-fief")
            continue
        anchor = best.get_attribute("data-anchor")
        rotation = int(best.get_attribute("data-rotation") or 0)
        points = best.get_attribute("data-points")
        # rotate with the R key until the fief has the rotation of the best placement
        page.hover(f"#board [data-hex='{anchor}']", force=True)
        for _ in range(6):
            if int(page.get_attribute("#place-bar", "data-rotation") or 0) == rotation:
                break
            page.keyboard.press("r")
        assert int(page.get_attribute("#place-bar", "data-rotation") or 0) == rotation
        # the preview follows the pointer and shows the points before the commit
        page.wait_for_function(
            "document.querySelector('#preview-info').textContent.includes(' point')")
        assert f"{points} point" in page.inner_text("#preview-info")
        page.click(f"#board [data-hex='{anchor}']", force=True)
        assert page.is_enabled("#confirm")
        if placed == 4:  # a few rounds in, with pieces on the map
            page.evaluate("document.querySelector('#toast').hidden = true")
            docs_shot(page, "web-placing")
        click(page, "#confirm", errors)
        placed += 1
        wait_taken(page, seq, "#mode-fief")

    # the end: winner, final table, revealed objectives, the Gonzaga tile
    page.evaluate("document.querySelector('#toast').hidden = true")
    docs_shot(page, "web-game-over")
    assert planned >= 7 and placed + donated == planned  # 7 to 12 rounds, one turn each
    assert len(seen_rounds) >= 7
    winner = page.inner_text("#winner")
    assert winner.startswith("Winner: ")
    rows = page.query_selector_all("#final-table tbody tr")
    assert len(rows) == 2
    totals = [int(r.query_selector_all("td")[-1].inner_text()) for r in rows]
    scores = [int(td.inner_text()) for td in page.query_selector_all("#players td.score")]
    assert totals == scores and max(scores) > 0
    names = [r.query_selector("td").inner_text().strip() for r in rows]
    assert "Ann" in names and any(n in winner for n in names)
    assert "Gonzaga tile" in page.inner_text("#end")
    # every covered objective city is ringed on the map in its owner's colour
    covered = sum(len(r.query_selector_all("td")[3].get_attribute("title").split(", "))
                  if r.query_selector_all("td")[3].get_attribute("title") else 0 for r in rows)
    assert len(page.query_selector_all("#pieces .objective-mark")) == covered
    # and each ring carries a seal in its owner's pattern: a cue that is not colour alone
    seals = page.eval_on_selector_all("#pieces .objective-seal", """els => els.map((e) =>
      [e.dataset.objective, e.getAttribute('fill')])""")
    owners = page.evaluate(in_page("ui.view.players.map((p) => p.colour)"))
    assert covered > 0 and len(seals) == covered
    assert all(fill == f"url(#pl-{owners[int(seat)]})" for seat, fill in seals)
    assert "Game over" in page.inner_text("#status")
    assert page.query_selector("#download") is not None
    log = page.inner_text("#log")
    assert "Final scoring" in log and "Plans revealed" in log
    # the views after the first came as changes, and every one applied to the page's view
    assert int(page.evaluate(in_page("Table.state.n"))) > 30
    assert page.evaluate("document.body.dataset.fullViewsAsked") is None
    assert errors == []

    # the same game on a phone, then its replay
    phone = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True)
    phone.goto(page.url)
    phone.wait_for_selector("#winner")
    phone.evaluate("document.querySelector('#toast').hidden = true")
    # the end under the map: the winner and the final table in sight, the map above them
    phone.evaluate("scrollTo(0, document.getElementById('end').getBoundingClientRect().top"
                   " + scrollY - innerHeight * 0.4)")
    docs_shot(phone, "web-phone")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 400  # the layout stacks: no sideways scrolling
    game_id = page.url.split("/game/")[1].split("#")[0]
    phone.goto(f"{server.base}/game/{game_id}#replay")
    phone.wait_for_function("document.querySelector('#rp-step').textContent.includes('Step 0 of')")
    phone.click("#rp-end")
    phone.wait_for_selector("#winner")
    assert "Replay" in phone.inner_text("#status")
    phone.close()
    page.close()


def test_an_illegal_position_names_its_rule_and_a_wedding_by_clicking(server, browser):
    game = http_json(f"{server.base}/api/games", {
        "seats": [{"kind": "person", "name": "Bea"}, {"kind": "bot", "bot": "greedy"}],
        "seed": 9})
    page = browser.new_page(viewport={"width": 1280, "height": 860})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.base}{game['seats'][0]['link']}")
    page.wait_for_selector("#plan-go")
    # the plan stays secret: the bot's view of it is tested over WebSockets; here the page
    # says so and shows the choice only to its player
    page.click("#region-cards button:not([disabled])")
    page.click("#action-cards [data-card='alliance']")
    page.click("#plan-go")
    page.wait_for_selector("#mode-fief")

    # a fief over open sea: the bar under the map says which rule it breaks, in plain words
    # (never a rule id), and nothing can be placed
    sea = page.evaluate(in_page(
        "ui.board.hexes.find((h) => !h.region && h.at[1] > 3 && h.at[0] > 3).at"))
    page.hover(f"#board [data-hex='{sea[0]},{sea[1]}']", force=True)
    page.wait_for_function("document.querySelector('#preview-info').textContent"
                           ".includes('Not here: ')", timeout=10000)
    info = page.inner_text("#preview-info")
    assert "[" not in info and "placing-" not in info and "NOTES" not in info
    page.click(f"#board [data-hex='{sea[0]},{sea[1]}']", force=True)
    assert not page.is_enabled("#confirm")

    # the Wedding: a first ring on a highlighted hex, a second beside it, then commit
    seq = int(page.evaluate("document.body.dataset.seq"))
    page.click("#mode-wedding")
    first = page.evaluate(in_page("[...ui.weddingOptions][0]"))
    page.click(f"#board [data-hex='{first}']", force=True)
    second = page.evaluate(in_page("[...ui.weddingOptions][0]"))
    page.click(f"#board [data-hex='{second}']", force=True)
    page.wait_for_function("document.querySelector('#wedding-info').textContent"
                           ".includes(' point')")
    shot(page, "wedding")
    page.click("#wedding-go")
    wait_taken(page, seq, "#wedding-go")
    page.wait_for_function("document.querySelector('#you-score').textContent"
                           ".includes('Rings left 4')")
    rings = page.query_selector_all("#pieces [data-piece='ring']")
    assert len(rings) >= 2
    assert errors == []
    page.close()


def test_two_people_in_two_browsers_plan_in_secret(server, browser):
    """Online play: the creator sends a link; each sees only their own plan until the reveal."""
    ann = browser.new_context(viewport={"width": 1280, "height": 860}).new_page()
    ann.goto(f"{server.base}/")
    ann.wait_for_selector("[data-seat-kind='1'] option", state="attached")
    ann.select_option("[data-seat-kind='1']", "person")  # seat 3 stays a bot
    ann.fill("[data-seat-name='0']", "Ann")
    ann.fill("[data-seat-name='1']", "Bo")  # two people: a random deal (no seed)
    ann.click("#create-game")
    ann.wait_for_selector("[data-seat-link='1']")  # two people: the links are shown first
    bo_link = ann.get_attribute("[data-seat-link='1']", "href")
    ann.click("[data-seat-link='0']")
    ann.wait_for_selector("#plan-go")
    assert "Bo" in (ann.text_content("#invites") or "")  # the creator can send the link again

    bo = browser.new_context(viewport={"width": 1280, "height": 860}).new_page()
    bo.goto(f"{server.base}{bo_link}")
    bo.wait_for_selector("#plan-go")

    ann.click("#region-cards button:not([disabled])")
    ann.click("#action-cards [data-card='harbors']")
    ann.click("#plan-go")
    ann.wait_for_selector("#waiting")
    assert "Harbors" in ann.inner_text("#waiting")  # Ann sees her own plan…
    bo.wait_for_function("document.querySelector('#players').textContent.includes('planned')")
    assert "Harbors" not in bo.inner_text("#players")  # …Bo only that she has planned
    assert "Harbors" not in bo.inner_text("#log")

    bo.click("#region-cards button:not([disabled])")
    bo.click("#action-cards [data-card='cities']")
    bo.click("#plan-go")
    for page in (ann, bo):  # the reveal: both plans and the turn order on both screens
        page.wait_for_function("document.body.dataset.phase === 'placing'")
        page.wait_for_function("document.querySelector('#log').textContent"
                               ".includes('Plans revealed')")
        assert "Harbors" in page.inner_text("#players") and "Cities" in page.inner_text("#players")
        order = page.inner_text("#players").split("Turn order: ")[1]
        assert order.index("Ann") < order.index("Bo")  # Harbors before Cities
    shot(bo, "reveal")
    ann.context.close()
    bo.context.close()


@pytest.mark.parametrize("game", game_names("site"))
@pytest.mark.parametrize("size", [(1280, 800), (390, 844)])
def test_a_link_that_opens_no_seat_says_so_and_offers_to_watch(server, browser, game, size):
    """A mistyped seat link to a real game: not an empty table under a toast, but what went
    wrong and a way on (watch the game, or the lobby)."""
    made = http_json(f"{server.base}/api/games", {
        "game": game, "seats": [{"kind": "person"}, {"kind": "bot", "bot": "greedy"}]})
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    page.goto(f"{server.base}/game/{made['id']}#Abcdefghijklmnopqrstuvwxyz0123456789ab")
    page.wait_for_selector("#bad-link", state="visible", timeout=15000)
    assert "no seat" in page.inner_text("#bad-link")
    box = page.locator("#bad-link-watch").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= size[0]
    assert page.locator("#bad-link-lobby").get_attribute("href") == "/"
    page.click("#bad-link-watch")
    page.wait_for_function("document.body && document.body.dataset.seq !== undefined",
                           timeout=15000)
    assert page.locator("#bad-link").count() == 0  # the page came back as a spectator's
    page.close()


def test_a_table_that_misses_a_change_asks_for_the_whole_view_and_plays_on(server, browser):
    """The page gets changes after its first view; one that does not follow the last view
    (a number missed) makes it ask for the whole view, once, and the table goes on."""
    game = http_json(f"{server.base}/api/games", {
        "seats": [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "random"}],
        "seed": 11})
    page = browser.new_page(viewport={"width": 1280, "height": 860})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    sent: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda text: sent.append(str(text))))
    page.goto(f"{server.base}{game['seats'][0]['link']}")
    page.wait_for_selector("#plan-go")
    assert any('"changes": true' in text or '"changes":true' in text for text in sent)
    page.evaluate(in_page("Table.state.n -= 1"))  # as if the last change had not come
    page.click("#region-cards button:not([disabled])")
    page.click("#action-cards [data-card='harbors']")
    page.click("#plan-go")
    page.wait_for_function("document.body.dataset.phase === 'placing'")
    page.wait_for_function("document.querySelector('#log').textContent"
                           ".includes('Plans revealed')")
    assert page.evaluate("document.body.dataset.fullViewsAsked") == "1"
    assert sum('"state"' in text for text in sent) == 1
    assert errors == []
    page.close()
