"""Every page comes from one template (`tavola.web.pages`): the same head and header around
each page's own body, on a real server; and two of them in a browser."""

from __future__ import annotations

import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from web_server import Server, launch

from tavola.testing import game_names
from tavola.web import pages
from tavola.web.loadbench import http_json
from tavola.web.site import load_site

STATIC = Path(pages.__file__).parent / "static"
GAMES = Path(pages.__file__).parents[1] / "games"

# (address, status, the page's title, a piece of its own body)
ACCOUNT_PAGES = [
    ("/account", 200, "Sign in", 'id="sign-in-form"'),
    ("/friends", 200, "Friends", 'id="add-friend-form"'),
    ("/leaderboard", 200, "Leaderboard", 'id="board-rows"'),
    ("/me", 200, "My games", 'data-page="me"'),
    ("/your-move", 200, "Your move", 'id="waiting-games"'),
    ("/players/Somebody", 200, "Player", 'id="profile-ratings"'),
    ("/moderation", 403, "Moderation", 'id="denied"'),
    ("/privacy", 200, "Privacy", "What this site stores"),
    ("/game/nothing-here/review", 200, "Game review", 'id="review-rows"'),
    ("/reset-password", 200, "Choose a new password", 'id="reset-form"'),
    ("/unsubscribe/a-token", 200, "No more e-mails", 'id="stop"'),
    ("/verify-email", 200, "Confirm your e-mail address", "Confirming…"),
    ("/editions", 200, "Editions", 'id="editions-games"'),
    ("/editions/edit?game=gonzaga", 200, "Edition editor", 'id="edition-findings"'),
]


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = launch(tmp_path_factory.mktemp("pages") / "games.db")
    yield srv
    srv.stop()


def get(base: str, path: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(f"{base}{path}", timeout=30) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def shared(page: str, title: str, brand: str = "Tavola", domains: str = "tavola") -> None:
    """The head and header every page has, once each."""
    assert page.startswith("<!doctype html>\n<html lang=\"en\">\n<head>\n")
    assert f"<title>{title}</title>" in page
    assert page.count('<header id="top">') == 1 and page.count("</head>") == 1
    assert re.search(rf'<a href="/" class="brand" id="brand"[^>]*>{brand}</a>', page)
    assert page.count('<link rel="icon"') == 1
    assert '<link rel="stylesheet" href="/static/tavola/base.css">' in page
    assert f'<script src="/i18n.js?domains={domains}"></script>' in page
    assert page.count('<div id="toast"') == 1 and page.rstrip().endswith("</body>\n</html>")
    scripts = re.findall(r"<script[^>]*>", page)
    assert scripts[0] == f'<script src="/i18n.js?domains={domains}">'  # sets the catalog first
    assert len(scripts) > 1 and all('type="module"' in s for s in scripts[1:]), scripts


@pytest.mark.parametrize(("path", "status", "title", "own"), ACCOUNT_PAGES,
                         ids=[p[0] for p in ACCOUNT_PAGES])
def test_every_account_page_has_the_shared_head_and_header_and_its_own_body(web, path, status,
                                                                             title, own):
    code, page = get(web.base, path)
    assert code == status
    shared(page, title)
    assert f'<span id="status">{title}</span>' in page
    assert '<nav id="account-nav" class="account-nav"></nav>' in page
    assert own in page


def test_the_lobby_rules_and_both_tables_have_the_shared_head_and_header(web):
    code, lobby = get(web.base, "/")
    assert code == 200 and 'id="create-form"' in lobby and 'id="account-nav"' in lobby
    shared(lobby, "Tavola")
    assert get(web.base, "/game/no-such-game")[1] == lobby  # the lobby says there is none
    code, rules = get(web.base, "/rules/gonzaga")
    assert code == 200 and 'id="rules-text"' in rules and "data-languages" in rules
    shared(rules, "Rules")
    for game, own in (("gonzaga", 'id="board-wrap"'), ("signorie", 'id="cities-area"')):
        made = http_json(f"{web.base}/api/games", {"game": game, "seats": [
            {"kind": "person"}, {"kind": "bot", "bot": "random"}]})
        code, table = get(web.base, f"/game/{made['id']}")
        assert code == 200 and own in table
        shared(table, game.capitalize(), brand=game.capitalize(), domains=f"tavola,{game}")
        assert f'href="/static/{game}/favicon.svg"' in table
        assert f'<a href="/rules/{game}" class="rules-link"' in table
        assert f'<link rel="stylesheet" href="/static/{game}/style.css">' in table
        assert f'src="/static/{game}/app.js"' in table


@pytest.mark.parametrize("game", game_names("site"))
def test_every_games_table_header_links_the_lobby(game: str):
    site = load_site(game)
    page = site.table_page.page(game, site.static_dir()).render()
    header = page[page.index('<header id="top">'):page.index("</header>")]
    assert '<a href="/" class="lobby-link" id="lobby-link">Lobby</a>' in header


def test_page_files_hold_only_their_body():
    bodies = sorted(STATIC.glob("*.html")) + sorted(GAMES.glob("*/web/static/index.html"))
    assert len(bodies) == 19
    for body in bodies:
        text = body.read_text(encoding="utf-8")
        for part in ("<!doctype", "<head", "<title", "<header", "<body", "i18n.js", 'id="toast"'):
            assert part not in text, (body.name, part)
        assert text.lstrip().startswith("<main"), body.name


def test_page_scripts_are_modules_that_share_no_globals():
    """Each script imports what it uses: none is written for the global scope ("use strict" at
    its top, a `window.` name set for another file)."""
    scripts = sorted(STATIC.glob("*.js")) + sorted(GAMES.glob("*/web/static/*.js"))
    assert len(scripts) > 20
    for script in scripts:
        text = script.read_text(encoding="utf-8")
        assert '"use strict"' not in text, script.name
        assert not re.search(r"^\s*window\.\w+\s*=", text, re.M), script.name
        assert re.search(r"^(import|export) ", text, re.M), script.name


def test_gonzagas_table_is_split_by_what_it_draws():
    """No module of Gonzaga's table is a long file that draws everything: each draws one part."""
    folder = GAMES / "gonzaga" / "web" / "static"
    sizes = {js.name: len(js.read_text(encoding="utf-8").splitlines())
             for js in folder.glob("*.js")}
    assert {"app.js", "state.js", "board.js", "hand.js", "planning.js", "placing.js",
            "players.js", "replay.js"} <= set(sizes)
    assert max(sizes.values()) <= 300, sizes


def test_two_pages_work_in_a_browser(web, browser):
    """The lobby and a Signorie table: their scripts run (the lobby lists its games, the table
    draws its board) and the header shows its language selector."""
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(web.base + "/")
    page.wait_for_selector("#game-cards .game-card", timeout=30000)
    assert page.locator("#top #language").count() == 1
    assert page.locator("#privacy-link").count() == 1
    made = http_json(f"{web.base}/api/games", {"game": "signorie", "seats": [
        {"kind": "person"}, {"kind": "bot", "bot": "random"}]})
    page.goto(web.base + made["seats"][0]["link"])
    page.wait_for_selector("#cities .city", timeout=30000)
    assert page.locator("#top #language").count() == 1
    assert page.title().endswith("Signorie")
    assert errors == []
    page.close()


def test_every_account_pages_header_links_the_editions(web, browser):
    """The account's links in every page's header (and the lobby's) lead to the editions, in
    the reader's language."""
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    for path in ["/", *(p[0] for p in ACCOUNT_PAGES)]:
        page.goto(web.base + path)
        link = page.wait_for_selector("#account-nav #nav-editions", state="attached")
        assert link.get_attribute("href") == "/editions", path
        assert link.text_content() == "Editions", path
    page.close()
    german = browser.new_page(locale="de-DE")
    german.goto(web.base + "/me")
    assert german.wait_for_selector("#nav-editions").text_content() == "Editionen"
    german.close()
    assert errors == []
