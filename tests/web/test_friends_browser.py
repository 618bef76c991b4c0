"""Friends, invitations and blocks in a real browser, in English and in German: the friends
page, the header's count, the lobby's invited seats, accepting, declining and giving a seat
away, and a profile's friend and block buttons.

Chromium as in test_web_browser.py (skipped locally without it, failing in CI)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browsers import in_page
from test_accounts import RELAXED
from test_i18n_browser import untranslated
from web_server import Server, launch

PASSWORD = "a long enough secret"
LANGUAGES = [("en", "en-US"), ("de", "de-DE")]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = launch(tmp_path_factory.mktemp("friends-browser") / "games.db",
                 limits={**RELAXED, "name_logins_per_minute": 0})
    yield srv
    srv.stop()


class Player:
    """One signed-in browser, speaking `locale`."""

    def __init__(self, browser: Any, base: str, name: str, locale: str) -> None:
        self.base, self.name = base, name
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

    def friends(self) -> Any:
        """The friends page, loaded."""
        self.page.goto(f"{self.base}/friends")
        self.page.wait_for_selector("#friends-page[data-loaded]")
        return self.page

    def click(self, button: Any) -> None:
        """Click a button of the friends page, and wait for the page to load again."""
        before = self.page.get_attribute("#friends-page", "data-loaded")
        button.click()
        self.page.wait_for_function(
            f"document.querySelector('#friends-page').dataset.loaded !== '{before}'")

    def create(self, seats: list[str], *, public: bool = False) -> Any:
        """A Gonzaga game from the lobby: 'me', 'person', 'bot' or a friend's name per seat;
        the panel of the game created."""
        page = self.page
        page.goto(f"{self.base}/?game=gonzaga")
        page.wait_for_selector("[data-seat-kind='1'] option", state="attached")
        while page.is_enabled("#remove-seat"):
            page.click("#remove-seat")
        while page.locator("#seat-rows > *").count() < len(seats):
            page.click("#add-seat")
        for i, what in enumerate(seats[1:], start=1):
            page.select_option(f"[data-seat-kind='{i}']",
                               "bot:random" if what == "bot" else "person")
            if what not in ("bot", "person"):
                page.select_option(f"[data-seat-invite='{i}']", what)
        if public:
            page.check("#public")
        page.click("#create-game")
        page.wait_for_selector("#created:not([hidden])")
        return page


def no_english(player: Player, lang: str, where: str) -> list[str]:
    return [] if lang == "en" else [f"{where}: {t}" for t in untranslated(player.page, lang)]


@pytest.mark.parametrize(("lang", "locale"), LANGUAGES)
def test_add_a_friend_invite_them_and_they_accept(server, browser, lang, locale):
    ann = Player(browser, server.base, f"Ann{lang}", locale)
    bob = Player(browser, server.base, f"Bob{lang}", locale)
    problems: list[str] = []
    # Bob has a listed game; Ann adds him by name and sees it
    bob.create(["me", "person"], public=True)
    page = ann.friends()
    assert page.locator("#friends [data-friend]").count() == 0
    problems += no_english(ann, lang, "friends page, empty")
    page.fill("#friend-name", bob.name.lower())  # any case
    page.click("#add-friend")
    page.wait_for_selector(f"#friends [data-friend='{bob.name}']")
    assert page.locator(f"[data-friend='{bob.name}'] [data-friend-game]").count() == 1
    assert page.locator(f"[data-friend='{bob.name}'] a[href$='#watch']").count() == 1
    problems += no_english(ann, lang, "friends page, a friend")
    # a seat kept for Bob: the lobby says so instead of giving its link
    created = ann.create(["me", bob.name])
    assert created.locator("[data-seat-invited='1']").count() == 1
    assert created.locator("[data-seat-link='1']").count() == 0
    problems += no_english(ann, lang, "lobby, game created")
    # Bob's header counts it; he accepts on his friends page and plays the seat
    bob.page.goto(f"{server.base}/")
    bob.page.wait_for_selector("#nav-friends[data-invitations='1']")
    assert "(1)" in bob.page.text_content("#nav-friends")
    page = bob.friends()
    line = page.locator("#invited [data-status='waiting']")
    assert line.count() == 1 and ann.name in line.text_content()
    problems += no_english(bob, lang, "friends page, an invitation")
    line.locator("[data-accept]").click()
    page.wait_for_url("**/game/**")
    page = ann.friends()
    page.wait_for_selector("#sent [data-status='accepted']")
    assert problems == [] and ann.errors == [] and bob.errors == []
    for p in (ann, bob):
        p.context.close()


@pytest.mark.parametrize(("lang", "locale"), LANGUAGES)
def test_a_declined_seat_goes_to_a_bot_or_to_anyone(server, browser, lang, locale):
    ann = Player(browser, server.base, f"Cat{lang}", locale)
    bob = Player(browser, server.base, f"Dan{lang}", locale)
    page = ann.friends()
    page.fill("#friend-name", bob.name)
    page.click("#add-friend")
    page.wait_for_selector(f"#friends [data-friend='{bob.name}']")
    ann.create(["me", bob.name, "person"])
    ann.create(["me", bob.name])
    page = bob.friends()
    assert page.locator("#invited [data-status='waiting']").count() == 2
    for _ in range(2):
        bob.click(page.locator("#invited [data-status='waiting'] [data-decline]").first)
    assert page.locator("#invited [data-status='declined']").count() == 2
    problems = no_english(bob, lang, "friends page, declined")
    page = ann.friends()
    assert page.locator("#sent [data-status='declined']").count() == 2
    problems += no_english(ann, lang, "friends page, a seat to give")
    first = page.locator("#sent [data-status='declined']").first
    first.locator("[data-give-bot]").select_option("random")
    ann.click(first.locator("[data-give='bot']"))
    assert page.locator("#sent [data-status='declined']").count() == 1  # the bot has it
    page.locator("#sent [data-status='declined'] [data-give='open']").click()
    link = page.wait_for_selector("#sent a.invite")
    assert "/game/" in (link.get_attribute("href") or "")
    problems += no_english(ann, lang, "friends page, a seat opened")
    assert problems == [] and ann.errors == [] and bob.errors == []
    for p in (ann, bob):
        p.context.close()


@pytest.mark.parametrize(("lang", "locale"), LANGUAGES)
def test_a_profile_adds_a_friend_and_blocks(server, browser, lang, locale):
    ann = Player(browser, server.base, f"Eva{lang}", locale)
    bob = Player(browser, server.base, f"Fin{lang}", locale)
    # Ann adds Bob from his profile; her profile lists him
    page = ann.page
    page.goto(f"{server.base}/players/{bob.name}")
    page.wait_for_selector("#profile-actions[data-friend='no']")
    problems = no_english(ann, lang, "profile")
    page.click("#profile-friend")
    page.wait_for_selector("#profile-actions[data-friend='yes']")
    bob.page.goto(f"{server.base}/players/{ann.name}")
    bob.page.wait_for_selector(f"#profile-friends [data-friend='{bob.name}']")
    # Bob blocks Ann: she no longer sees his friends, nor he hers; the block is listed
    bob.page.click("#profile-block")
    bob.page.wait_for_selector("#profile-actions[data-blocked='yes']")
    assert bob.page.locator("#profile-friend").count() == 0
    problems += no_english(bob, lang, "profile, blocked")
    page.goto(f"{server.base}/players/{bob.name}")
    page.wait_for_selector("#profile-actions[data-friend='no']")  # the friendship ended
    assert page.is_hidden("#profile-friends-box")
    friends = bob.friends()
    friends.wait_for_selector(f"#blocked [data-blocked='{ann.name}']")
    problems += no_english(bob, lang, "friends page, blocked")
    # Ann cannot add him again; Bob unblocks her
    friends = ann.friends()
    friends.fill("#friend-name", bob.name)
    friends.click("#add-friend")
    friends.wait_for_selector("#toast:not([hidden])")
    assert friends.locator("#friends [data-friend]").count() == 0
    page = bob.friends()
    bob.click(page.locator(f"[data-unblock='{ann.name}']"))
    assert page.locator("#blocked [data-blocked]").count() == 0
    assert problems == [] and ann.errors == [] and bob.errors == []
    for p in (ann, bob):
        p.context.close()


@pytest.mark.parametrize(("lang", "locale"), LANGUAGES)
def test_a_blocked_players_chat_is_hidden_both_ways_at_the_table(server, browser, lang, locale):
    ann, bob, cyd = (Player(browser, server.base, f"{n}{lang}", locale)
                     for n in ("Gil", "Hal", "Ida"))
    call = in_page("([path, body]) => api(path, body)")
    for friend in (bob, cyd):
        ann.page.evaluate(call, ["/api/friends", {"name": friend.name}])
    game = ann.page.evaluate(call, ["/api/games", {"game": "gonzaga", "seats": [
        {"kind": "person"}, {"kind": "person", "invite": bob.name},
        {"kind": "person", "invite": cyd.name}]}])
    links = {ann: game["seats"][0]["link"]}
    for player, seat in ((bob, 1), (cyd, 2)):
        links[player] = player.page.evaluate(
            call, [f"/api/invitations/{game['id']}/{seat}/accept", {}])["link"]
    ann.page.evaluate(call, ["/api/blocks", {"name": bob.name}])
    for player in (ann, bob, cyd):
        player.page.goto(f"{server.base}{links[player]}")
        player.page.wait_for_selector("#chat-input")
    for player in (bob, ann, cyd):
        player.page.fill("#chat-input", f"from {player.name}")
        player.page.click("#chat-send")
        cyd.page.wait_for_selector(f"#chat-lines .chat-text:text-is('from {player.name}')")
    cyd.page.fill("#chat-input", "last")
    cyd.page.click("#chat-send")
    seen = {}
    for player in (ann, bob, cyd):
        player.page.wait_for_selector("#chat-lines .chat-text:text-is('last')")
        seen[player.name] = player.page.locator("#chat-lines .chat-text").all_text_contents()
    assert seen[cyd.name] == [f"from {bob.name}", f"from {ann.name}", f"from {cyd.name}", "last"]
    assert seen[ann.name] == [f"from {ann.name}", f"from {cyd.name}", "last"]
    assert seen[bob.name] == [f"from {bob.name}", f"from {cyd.name}", "last"]
    # a page opened again reads the same
    ann.page.reload()
    ann.page.wait_for_selector("#chat-lines .chat-text:text-is('last')")
    assert ann.page.locator("#chat-lines .chat-text").all_text_contents() == seen[ann.name]
    assert ann.errors == [] and bob.errors == [] and cyd.errors == []
    for p in (ann, bob, cyd):
        p.context.close()
