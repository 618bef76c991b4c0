"""Vacations and leavers in a real browser, in English and in German: the account page's
vacation card (take, refuse too many days, end early, the days taken automatically), the
profile and the table saying who is on vacation, a clock running out taking a day, and the
other player's choice when a seat runs out of time for good (ending the game, or the bot
playing on). Chromium as in test_web_browser.py (skipped locally without it, failing in CI)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

import pytest
from accounts_client import Visitor
from browsers import in_page, wait_in_page
from test_i18n_browser import untranslated
from web_server import Server, launch

from tavola import i18n
from tavola.text import say
from tavola.web.loadbench import LOCAL_LIMITS, http_json

LIMITS = {**LOCAL_LIMITS, "min_move_seconds": 1, "turn_check_seconds": 0.3,
          "logins_per_minute": 0, "signups_per_hour": 0, "messages_per_second": 0}
LANGS = [("en", "en-GB"), ("de", "de-DE")]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = launch(tmp_path_factory.mktemp("vacations") / "games.db", limits=LIMITS)
    yield srv
    srv.stop()


def said(lang: str, english: str, **fields: Any) -> str:
    """A page's sentence as the language writes it."""
    with i18n.use(lang):
        return i18n.gettext("tavola", english).format(**fields)


def page_in(browser: Any, locale: str, url: str, visitor: Visitor | None = None) -> Any:
    """A page in a browser asking for `locale`, signed in with `visitor`'s cookies."""
    context = browser.new_context(locale=locale, viewport={"width": 1366, "height": 900})
    if visitor is not None:
        context.add_cookies([{"name": c.name, "value": c.value, "url": visitor.base}
                             for c in visitor.jar if c.path == "/"])
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(url)
    return page


@pytest.mark.parametrize("lang, locale", LANGS)
def test_a_player_takes_a_vacation_and_ends_it_early_on_the_account_page(server, browser,
                                                                          lang, locale):
    name = f"Ulla{lang}"
    ulla = Visitor(server.base)
    ulla.sign_up(name)
    page = page_in(browser, locale, f"{server.base}/account", ulla)
    page.wait_for_selector("#vacation:not([hidden])", timeout=10000)
    assert page.get_attribute("#vacation", "data-left") == "14"
    assert page.text_content("#vacation-left") == said(
        lang, "{left} of {days} vacation days left in {year}.", left=14, days=14,
        year=datetime.now(UTC).year)
    assert page.text_content("#vacation-now") == said(lang, "You are not on vacation.")
    assert not page.is_visible("#vacation-end")
    # more days than are left: the server's sentence, nothing taken
    page.fill("#vacation-days", "15")
    page.evaluate("document.getElementById('vacation-days').removeAttribute('max')")
    page.click("#vacation-take")
    page.wait_for_function("document.querySelector('#vacation-form .form-error')"
                           ".textContent !== ''", timeout=5000)
    with i18n.use(lang):
        refusal = say("vacation.days", left=14)
    assert page.text_content("#vacation-form .form-error") == refusal[0].upper() + \
        refusal[1:] + "."
    assert page.get_attribute("#vacation", "data-left") == "14"
    # three days: the card says until when, and the profile tells everyone
    page.fill("#vacation-days", "3")
    page.click("#vacation-take")
    page.wait_for_selector("#vacation[data-left='11']", timeout=5000)
    assert page.get_attribute("#vacation", "data-until") != ""
    assert page.is_visible("#vacation-end")
    assert page.eval_on_selector_all("#vacation-taken li", "lis => lis.map(li => li.dataset.auto)"
                                     ) == ["no"]
    if lang != "en":
        assert untranslated(page, lang) == []
    other = page_in(browser, locale, f"{server.base}/players/{quote(name)}")
    other.wait_for_selector("#profile-vacation:not([hidden])", timeout=10000)
    assert other.text_content("#profile-vacation") == said(
        lang, "On vacation until {date}",
        date=page.evaluate(in_page("when(Number(document.getElementById('vacation').dataset.until))")))
    if lang != "en":
        assert untranslated(other, lang) == []
    # back early: the days not begun are given back (the first has begun)
    page.click("#vacation-end")
    page.wait_for_selector("#vacation[data-left='13']", timeout=5000)
    assert page.get_attribute("#vacation", "data-until") == ""
    assert page.text_content("#vacation-now") == said(lang, "You are not on vacation.")
    assert page.errors == [] and other.errors == []


@pytest.mark.parametrize("lang, locale", LANGS)
def test_the_table_says_a_player_is_on_vacation_and_their_clock_stands_still(server, browser,
                                                                             lang, locale):
    name = f"Vera{lang}"
    vera = Visitor(server.base)
    vera.sign_up(name)
    game = vera.ok("/api/games", {"game": "signorie", "seats": [
        {"kind": "person"}, {"kind": "bot", "bot": "greedy", "name": "Rex"}],
        "timing": {"move_seconds": 86400, "misses": 3}})
    vera.ok("/api/me/vacation", {"days": 2})
    mine = page_in(browser, locale, f"{server.base}{game['seats'][0]['link']}", vera)
    watcher = page_in(browser, locale, f"{server.base}{game['spectator']}")
    for page in (mine, watcher):  # the bot moves first or not: Vera's seat comes to wait
        wait_in_page(page, "Table.view && Table.view.timing.to_move.includes(0)", timeout=20000)
    date = mine.evaluate(in_page("when(Table.view.timing.vacation[0])"))
    assert date
    own = said(lang, "You are on vacation until {date}: your clock stands still", date=date)
    mine.wait_for_function(f"document.getElementById('turn-clock').textContent === {own!r}",
                           timeout=5000)
    theirs = said(lang, "{name} is on vacation until {date}", name=name, date=date)
    watcher.wait_for_function(f"document.getElementById('turn-clock').textContent === "
                              f"{theirs!r}", timeout=5000)
    if lang != "en":
        assert untranslated(mine, lang) == [] and untranslated(watcher, lang) == []
    assert mine.errors == [] and watcher.errors == []


@pytest.mark.parametrize("lang, locale", LANGS)
def test_the_other_player_ends_the_game_when_a_seat_runs_out_of_time_for_good(server, browser,
                                                                              lang, locale):
    game = http_json(f"{server.base}/api/games", {"game": "signorie", "seats": [
        {"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bea"}],
        "timing": {"move_seconds": 5, "misses": 1}})
    pages = [page_in(browser, locale, f"{server.base}{seat['link']}")
             for seat in game["seats"]]
    for page in pages:
        wait_in_page(page, "Table.view && Table.view.timing.to_move.length", timeout=20000)
    leaver = pages[0].evaluate(in_page("Table.view.timing.to_move[0]"))
    voter = pages[1 - leaver]
    # nobody moves: after 5 s the bot takes the seat for good, and the other player is asked
    voter.wait_for_selector("#leave-box:not([hidden]) [data-choice='end']", timeout=20000)
    leaver_name = ["Ann", "Bea"][leaver]
    question = said(lang, "{name} ran out of time for good. Should a bot play the seat to the "
                    "end, or should the game end now?", name=leaver_name)
    assert voter.text_content(".leave-question") == question
    assert voter.text_content("[data-choice='bot']") == said(lang, "Let the bot play on")
    if lang != "en":
        assert untranslated(voter, lang) == []
    pages[leaver].wait_for_selector("#leave-box:not([hidden]) .leave-question", timeout=5000)
    assert pages[leaver].query_selector("[data-choice]") is None  # the leaver has no say
    voter.click("[data-choice='end']")
    ended = said(lang, "{name} left; the others ended the game: {name} is last, the others "
                 "are placed by their scores.", name=leaver_name)
    for page in pages:
        page.wait_for_selector("#leave-ended", timeout=10000)
        assert page.text_content("#leave-ended") == ended
        assert page.is_visible("#download") and page.is_visible("#replay-link")
        assert page.evaluate(in_page("Table.view.timing.to_move")) == []
        if lang != "en":
            assert untranslated(page, lang) == []
        assert page.errors == []
    record = http_json(f"{server.base}/api/games/{game['id']}/record")
    assert record["ended"]["leaver"] == leaver and record["ended"]["ranks"][leaver] == 2


@pytest.mark.parametrize("lang, locale", LANGS)
def test_the_other_player_lets_the_bot_play_on(server, browser, lang, locale):
    game = http_json(f"{server.base}/api/games", {"game": "signorie", "seats": [
        {"kind": "person", "name": "Cleo"}, {"kind": "person", "name": "Dora"}],
        "timing": {"move_seconds": 5, "misses": 1}})
    pages = [page_in(browser, locale, f"{server.base}{seat['link']}")
             for seat in game["seats"]]
    for page in pages:
        wait_in_page(page, "Table.view && Table.view.timing.to_move.length", timeout=20000)
    leaver = pages[0].evaluate(in_page("Table.view.timing.to_move[0]"))
    voter = pages[1 - leaver]
    voter.wait_for_selector("#leave-box:not([hidden]) [data-choice='bot']", timeout=20000)
    voter.click("[data-choice='bot']")
    kept = said(lang, "The others chose to let a bot play {name}'s seat to the end.",
                name=["Cleo", "Dora"][leaver])
    for page in pages:
        page.wait_for_selector("#leave-box[hidden]", state="attached", timeout=10000)
        page.wait_for_function(f"[...document.querySelectorAll('#log li')].some(li => "
                               f"li.textContent === {kept!r})", timeout=10000)
        assert page.query_selector("#leave-ended") is None
        assert page.errors == []
    assert voter.evaluate(in_page("Table.view.ended")) is None  # the game goes on


@pytest.mark.parametrize("lang, locale", LANGS)
def test_a_clock_running_out_takes_a_vacation_day_that_the_pages_show(server, browser, lang,
                                                                       locale):
    name = f"Wim{lang}"
    wim = Visitor(server.base)
    wim.sign_up(name)
    game = wim.ok("/api/games", {"game": "signorie", "seats": [
        {"kind": "person"}, {"kind": "bot", "bot": "greedy", "name": "Rex"}],
        "timing": {"move_seconds": 5, "misses": 1}})
    table = page_in(browser, locale, f"{server.base}{game['seats'][0]['link']}", wim)
    # Wim does not move: when his 5 s run out a vacation day is taken, not the bot's move
    wait_in_page(table, "Table.view && Table.view.timing.vacation && "
                        "Table.view.timing.vacation[0]", timeout=30000)
    date = table.evaluate(in_page("when(Table.view.timing.vacation[0])"))
    own = said(lang, "You are on vacation until {date}: your clock stands still", date=date)
    table.wait_for_function(f"document.getElementById('turn-clock').textContent === {own!r}",
                            timeout=5000)
    assert table.evaluate(in_page("Table.view.timing.replaced")) == []
    account = page_in(browser, locale, f"{server.base}/account", wim)
    account.wait_for_selector("#vacation[data-left='13']", timeout=10000)
    assert account.eval_on_selector_all("#vacation-taken li",
                                        "lis => lis.map(li => li.dataset.auto)") == ["yes"]
    if lang != "en":
        assert untranslated(table, lang) == [] and untranslated(account, lang) == []
    assert table.errors == [] and account.errors == []
