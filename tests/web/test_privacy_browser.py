"""Privacy in a real browser: no page loads anything from another origin, and a player deletes
their account from the account page, after which their finished game names a former player.

Chromium as in test_web_browser.py (skipped locally without it, failing in CI)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import urlsplit

import pytest
from accounts_client import Visitor, play
from test_accounts import RELAXED
from test_accounts_browser import PASSWORD, sign_up, visitor_of
from web_server import Server, launch

ALLOWED_SCHEMES = {"data", "blob"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = launch(tmp_path_factory.mktemp("privacy-browser") / "games.db",
                 limits={**RELAXED, "name_logins_per_minute": 0})
    yield srv
    srv.stop()


def finished_game(server: Server, context: Any) -> str:
    """A game of Signorie the context's player played to the end against a bot: its id."""
    player = visitor_of(context, server.base)
    game = player.ok("/api/games", {"game": "signorie", "seats": [
        {"kind": "person"}, {"kind": "bot", "bot": "random"}]})
    link = game["seats"][0]["link"]
    with ThreadPoolExecutor(1) as pool:  # Playwright's own loop runs in this thread
        pool.submit(asyncio.run, play(server.ws, link, player, "signorie")).result(timeout=300)
    return str(link.removeprefix("/game/").split("#")[0])


def test_no_page_loads_anything_from_another_origin(server, browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    sign_up(page, server.base, "Wanderer")
    game_id = finished_game(server, context)
    running = visitor_of(context, server.base).ok("/api/games", {"game": "gonzaga", "seats": [
        {"kind": "person"}, {"kind": "bot", "bot": "greedy"}]})
    origin = urlsplit(server.base)
    for path in ("/", "/account", "/your-move", "/friends", "/me", "/leaderboard",
                 "/rules/gonzaga", "/rules/signorie", "/privacy", "/players/Wanderer",
                 f"/game/{game_id}", f"/game/{game_id}/review", running["seats"][0]["link"]):
        page.goto(f"{server.base}{path}")
        page.wait_for_load_state("networkidle")
        if path != "/privacy":
            assert page.locator("#privacy-link").count() == 1, path  # the footer's link
    assert len(requests) > 20
    for url in requests:
        parts = urlsplit(url)
        assert parts.scheme in ALLOWED_SCHEMES or \
            (parts.scheme, parts.netloc) == (origin.scheme, origin.netloc), url
    assert not errors, errors
    context.close()


def test_a_player_deletes_their_account_from_the_account_page(server, browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    sign_up(page, server.base, "Quitter")
    game_id = finished_game(server, context)
    page.goto(f"{server.base}/account")
    page.wait_for_selector("#your-data:not([hidden])")
    assert page.get_attribute("#account-privacy", "href") == "/privacy"
    page.click("#delete-account summary")
    # a wrong password deletes nothing
    page.fill("#delete-confirm", "not my password")
    page.check("#delete-sure")
    page.click("#delete-account-button")
    page.wait_for_function("document.querySelector('#delete-form .form-error').textContent")
    assert Visitor(server.base).ok("/api/players/Quitter")["name"] == "Quitter"
    page.fill("#delete-confirm", PASSWORD)
    page.click("#delete-account-button")
    page.wait_for_url(f"{server.base}/?deleted=1")
    page.wait_for_selector("#nav-sign-in")
    status, _, _ = Visitor(server.base).call("/api/players/Quitter")
    assert status == 404
    record = Visitor(server.base).ok(f"/api/games/{game_id}/record")
    assert "Quitter" not in str(record) and "Former player" in str(record)
    assert not errors, errors
    context.close()
