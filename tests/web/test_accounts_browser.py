"""Accounts in a real browser: signing up and finding your games from a second browser, and a
rated game between two signed-in people that updates the leaderboard.

Chromium as in test_web_browser.py (skipped locally without it, failing in CI)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import quote, urlparse

import pytest
from accounts_client import Visitor, play
from browsers import shot
from test_accounts import RELAXED
from web_server import Server, launch

PASSWORD = "a long enough secret"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    # one name signs in many times here (the per-name limit has its own server test)
    srv = launch(tmp_path_factory.mktemp("accounts-browser") / "games.db",
                 limits={**RELAXED, "name_logins_per_minute": 0})
    yield srv
    srv.stop()


def sign_up(page: Any, base: str, name: str) -> None:
    page.goto(f"{base}/account")
    page.fill("#sign-up-name", name)
    page.fill("#sign-up-password", PASSWORD)
    page.click("#sign-up")
    page.wait_for_url(f"{base}/")
    page.wait_for_selector("#nav-profile")
    assert page.text_content("#nav-profile") == name


def sign_in(page: Any, base: str, name: str, then: str = "/") -> None:
    page.goto(f"{base}/account?next={then}")
    page.fill("#sign-in-name", name)
    page.fill("#sign-in-password", PASSWORD)
    page.click("#sign-in")
    page.wait_for_url(f"{base}{then}")


def two_seat_table(page: Any, base: str, game: str, *, rated: bool) -> None:
    """The lobby set to `game` with two person seats."""
    page.goto(f"{base}/?game={game}")
    page.wait_for_selector("[data-seat-kind='1'] option", state="attached")
    while page.is_enabled("#remove-seat"):
        page.click("#remove-seat")
    page.select_option("[data-seat-kind='1']", "person")
    if rated:
        page.check("#rated")


def visitor_of(context: Any, base: str) -> Visitor:
    """A WebSocket player with the browser context's cookies (the same session)."""
    v = Visitor(base)
    for c in context.cookies():
        v.jar.set_cookie(_cookie(c))
    return v


def _cookie(c: dict[str, Any]) -> Any:
    from http.cookiejar import Cookie

    return Cookie(0, c["name"], c["value"], None, False, c["domain"], True, False, c["path"],
                  True, c["secure"], None, False, None, None, {})


def test_sign_up_and_see_your_games_from_a_second_browser(server, browser):
    first = browser.new_context(viewport={"width": 1280, "height": 900})
    page = first.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    sign_up(page, server.base, "Iris")
    assert page.is_visible("#rated-choice")  # rated games are for signed-in players
    # the lobby shows the measured rating next to a bot's name
    labels = page.eval_on_selector_all("[data-seat-kind='1'] option", "os => os.map(o => o.text)")
    assert any("rating" in label for label in labels), labels
    two_seat_table(page, server.base, "gonzaga", rated=False)
    page.click("#create-game")
    page.wait_for_selector("#created [data-seat-link='0']")
    mine = page.get_attribute("#created [data-seat-link='0']", "href")
    shot(page, "accounts-created")

    # a second browser (another device): sign in, and the game is there
    second = browser.new_context(viewport={"width": 390, "height": 844})
    other = second.new_page()
    other.on("pageerror", lambda e: errors.append(str(e)))
    sign_in(other, server.base, "iris", "/me")
    other.wait_for_selector("#my-waiting li[data-game], #my-running li[data-game]")
    game_id = mine.split("/game/")[1].split("#")[0]
    line = other.locator(f"li[data-game='{game_id}']")
    assert line.count() == 1
    shot(other, "accounts-my-games")
    line.locator("a[data-open]").click()  # opens Iris's own seat on this device
    other.wait_for_url(f"**/game/{game_id}#*")
    assert other.url.endswith(mine)
    other.wait_for_function("document.body.dataset.seq !== undefined", timeout=15000)
    # the profile page is linked from the header
    other.goto(f"{server.base}/")
    other.click("#nav-profile")
    other.wait_for_url("**/players/Iris")
    other.wait_for_function("document.querySelector('#profile-name').textContent === 'Iris'")
    # at the table, a bot's measured rating stands next to its name, for both games
    for game, bot in (("gonzaga", "greedy"), ("signorie", "planner")):
        table = Visitor(server.base).ok("/api/games", {"game": game, "seats": [
            {"kind": "person"}, {"kind": "bot", "bot": bot}]})
        other.goto(f"{server.base}{table['seats'][0]['link']}")
        other.wait_for_function("document.body.dataset.seq !== undefined", timeout=15000)
        other.wait_for_function("document.querySelector('#players').textContent.includes('rating')")
    assert not errors, errors
    first.close()
    second.close()


def test_a_rated_game_updates_the_leaderboard(server, browser):
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in range(2)]
    pages = [c.new_page() for c in contexts]
    errors: list[str] = []
    for p in pages:
        p.on("pageerror", lambda e: errors.append(str(e)))
    sign_up(pages[0], server.base, "Jay")
    two_seat_table(pages[0], server.base, "signorie", rated=True)
    pages[0].click("#create-game")
    pages[0].wait_for_selector("#created [data-seat-link='1']")
    links = [pages[0].get_attribute(f"#created [data-seat-link='{i}']", "href") for i in (0, 1)]
    links = [link.removeprefix(server.base) for link in links]
    # Kit, a guest, opens his link: the rated game's seat sends him to sign up, then back
    pages[1].goto(f"{server.base}{links[1]}")
    pages[1].wait_for_url("**/account?next=**")
    pages[1].fill("#sign-up-name", "Kit")
    pages[1].fill("#sign-up-password", PASSWORD)
    pages[1].click("#sign-up")
    pages[1].wait_for_url(f"{server.base}{links[1]}")
    pages[1].wait_for_function("document.body.dataset.seq !== undefined", timeout=15000)
    pages[1].goto(f"{server.base}/")  # leave the table to the quick players below
    # both play quickly to the end over WebSockets, each with their browser's session
    players = [visitor_of(c, server.base) for c in contexts]

    async def both() -> None:
        await asyncio.gather(*(play(server.ws, links[i], players[i], "signorie", i)
                               for i in (0, 1)))

    with ThreadPoolExecutor(1) as pool:  # Playwright's own loop runs in this thread
        pool.submit(asyncio.run, both()).result(timeout=300)
    page = pages[1]
    page.goto(f"{server.base}/")
    page.click("#nav-leaderboard")
    page.wait_for_url("**/leaderboard")
    page.select_option("#board-game", "signorie")
    page.select_option("#board-players", "2")
    page.wait_for_selector("#board[data-loaded='signorie-2'] tr.person[data-name='Jay']")
    people = page.eval_on_selector_all("#board-rows tr.person", "rs => rs.map(r => r.dataset.name)")
    assert sorted(people) == ["Jay", "Kit"]
    assert page.locator("#board-rows tr.bot").count() >= 2  # the bots' fixed ratings for scale
    shot(page, "accounts-leaderboard")
    # each profile shows the rated game and its rating change
    page.click("tr.person[data-name='Kit'] a")
    page.wait_for_selector("#profile-ratings tr[data-rating='signorie-2']")
    assert "→" in page.text_content("#profile-games")
    assert not errors, errors
    for c in contexts:
        c.close()


# `next` values meant to lead out of the site: the URL parser drops a tab or newline anywhere
# ("/<tab>/host" is "//host", which a test of the text alone let through), reads a backslash as
# "/", and takes other schemes
HOSTILE_NEXT = ["/\t/attacker.example/x", "/\n/attacker.example/x", "/\r\n/attacker.example",
                "\t//attacker.example", "//attacker.example", "/\\attacker.example",
                "/\\\tattacker.example", "https://attacker.example", "javascript:alert(1)",
                "java\tscript:alert(1)"]


def test_signing_in_never_leaves_the_site_whatever_next_says(server, browser):
    context = browser.new_context()
    away: list[str] = []

    def elsewhere(route: Any) -> None:
        """This site's requests go through; any other is noted and answered by a stand-in."""
        if urlparse(route.request.url).netloc == urlparse(server.base).netloc:
            route.continue_()
            return
        away.append(route.request.url)
        route.fulfill(body="elsewhere", content_type="text/html")

    context.route("**/*", elsewhere)
    page = context.new_page()
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    sign_up(page, server.base, "Nell")
    for next_ in [*HOSTILE_NEXT, "/me"]:
        page.goto(f"{server.base}/account?next={quote(next_, safe='')}")
        page.fill("#sign-in-name", "nell")
        page.fill("#sign-in-password", PASSWORD)
        with page.expect_navigation():
            page.click("#sign-in")
        page.wait_for_load_state()
        expected = "/me" if next_ == "/me" else "/"
        assert page.url == f"{server.base}{expected}", (next_, page.url)
    assert away == [] and dialogs == []
    context.close()
