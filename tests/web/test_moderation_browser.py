"""Moderation in a real browser: a player reports a chat line from the table, a moderator
(named with `tavola admin grant`) hides it from /moderation, and it leaves every table at
once; anyone else is shown the 403 page. The moderator's browser speaks German, so every word
of the moderation page is checked for a translation.

Chromium as in test_web_browser.py (skipped locally without it, failing in CI)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browsers import in_page
from test_accounts import RELAXED
from test_i18n_browser import untranslated
from typer.testing import CliRunner
from web_server import Server, launch

from tavola.cli import app as cli

PASSWORD = "a long enough secret"
CALL = "([path, body]) => api(path, body)"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = launch(tmp_path_factory.mktemp("moderation-browser") / "games.db",
                 limits={**RELAXED, "name_logins_per_minute": 0})
    yield srv
    srv.stop()


class Player:
    """One signed-in browser, speaking `locale`."""

    def __init__(self, browser: Any, base: str, name: str, locale: str = "en-US") -> None:
        self.name = name
        self.context = browser.new_context(locale=locale, viewport={"width": 1280, "height": 900})
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto(f"{base}/account")
        self.page.fill("#sign-up-name", name)
        self.page.fill("#sign-up-password", PASSWORD)
        self.page.click("#sign-up")
        self.page.wait_for_url(f"{base}/")
        self.page.wait_for_selector("#nav-profile")

    def call(self, path: str, body: Any) -> Any:
        return self.page.evaluate(in_page(CALL), [path, body])


def test_a_reported_chat_line_is_hidden_by_a_moderator_for_everyone(server, browser):
    ann, bob = Player(browser, server.base, "Ann"), Player(browser, server.base, "Bob")
    mod = Player(browser, server.base, "Mod", "de-DE")
    game = ann.call("/api/games", {"game": "gonzaga", "public": True,
                                   "seats": [{"kind": "person"}, {"kind": "person"}]})
    links = {ann: game["seats"][0]["link"],
             bob: bob.call(f"/api/games/{game['id']}/join", {})["link"]}
    for player in (ann, bob):
        player.page.goto(f"{server.base}{links[player]}")
        player.page.wait_for_selector("#chat-input")
    ann.page.fill("#chat-input", "buy gold now")
    ann.page.click("#chat-send")
    ann.page.fill("#chat-input", "good luck")
    ann.page.click("#chat-send")
    line = bob.page.locator("#chat-lines li", has_text="buy gold now")
    line.wait_for()
    assert ann.page.locator("#chat-lines button.report").count() == 0  # not one's own lines
    # Bob reports it with the keyboard: the button, the reason, a few words, send
    line.locator("button.report").focus()
    bob.page.keyboard.press("Enter")
    form = bob.page.locator("#chat form.report-form")
    form.wait_for()
    bob.page.select_option("#chat .report-reason", "spam")
    bob.page.fill("#chat .report-words", "an advert")
    bob.page.locator("#chat .report-send").focus()
    bob.page.keyboard.press("Enter")
    said = bob.page.locator("#chat .report-said", has_text="received")
    said.wait_for()
    # not a moderator yet: the page says so, with a 403
    response = mod.page.goto(f"{server.base}/moderation")
    assert response is not None and response.status == 403
    mod.page.wait_for_selector("#denied")
    problems = [f"403 page: {t}" for t in untranslated(mod.page, "de")]
    granted = CliRunner().invoke(cli, ["admin", "grant", "Mod", "moderator", "--db",
                                       f"sqlite:///{server.db}"])
    assert granted.exit_code == 0, granted.output
    response = mod.page.goto(f"{server.base}/moderation")
    assert response is not None and response.status == 200
    report = mod.page.locator("#reports li[data-report]")
    report.wait_for()
    assert report.locator("mark").text_content() == "buy gold now"
    assert "good luck" in (report.locator(".moderation-context").text_content() or "")
    assert report.locator(".report-words").text_content() == "an advert"
    mod.page.wait_for_selector("#nav-moderation")
    problems += [f"moderation page: {t}" for t in untranslated(mod.page, "de")]
    report.locator("select[name=action]").select_option("hide")
    report.locator("input[name=reason]").fill("advertising")
    report.locator("button[type=submit]").click()
    mod.page.wait_for_selector("#audit li[data-audit='hide']")
    assert "advertising" in (mod.page.text_content("#audit li[data-audit='hide']") or "")
    assert mod.page.locator("#reports li[data-report]").count() == 0
    problems += [f"audit: {t}" for t in untranslated(mod.page, "de")]
    for player in (ann, bob):  # gone from both tables at once, the other line kept
        player.page.locator("#chat-lines .chat-text", has_text="buy gold now").wait_for(
            state="detached")
        assert player.page.locator("#chat-lines .chat-text").all_text_contents() == ["good luck"]
    bob.page.reload()  # and from the history a page reads again
    bob.page.wait_for_selector("#chat-lines .chat-text:text-is('good luck')")
    assert bob.page.locator("#chat-lines .chat-text").all_text_contents() == ["good luck"]
    assert problems == [] and ann.errors == [] and bob.errors == [] and mod.errors == []
    for p in (ann, bob, mod):
        p.context.close()
