"""Notifications in a real browser, against a server that sends e-mail through a real SMTP server
on loopback: confirming an address from its e-mail, choosing what to hear of, a reminder from
an opponent with its one-click unsubscribe, and a forgotten password reset from its e-mail.

Chromium as in test_web_browser.py (skipped locally without it, failing in CI)."""

from __future__ import annotations

import asyncio
import re
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from accounts_client import Visitor, play
from browsers import in_page
from mail_and_hooks import Mailbox, text_of
from test_accounts import RELAXED
from test_accounts_browser import PASSWORD, sign_up
from web_server import Server, launch

TIMED = {"move_seconds": 3600, "misses": 3}


@pytest.fixture(scope="module")
def mailbox() -> Iterator[Mailbox]:
    with Mailbox() as box:
        yield box


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, mailbox: Mailbox) -> Iterator[Server]:
    srv = launch(tmp_path_factory.mktemp("notices-browser") / "games.db",
                 limits={**RELAXED, "name_logins_per_minute": 0},
                 extra=["--smtp", mailbox.url, "--mail-from", "games@tavola.example"])
    yield srv
    srv.stop()


def link_in(mail: Any, path: str) -> str:
    found = re.search(rf"https?://\S+{re.escape(path)}\S*", text_of(mail))
    assert found, f"no {path} link in: {text_of(mail)}"
    return found.group(0)


def mails_to(mailbox: Mailbox, address: str, count: int) -> list[Any]:
    mailbox.wait_for(len(mailbox.messages))
    for _ in range(600):
        mine = [m for m, to in zip(mailbox.messages, mailbox.recipients, strict=True)
                if to == [address]]
        if len(mine) >= count:
            return mine
        mailbox.wait_for(len(mailbox.messages) + 1, seconds=60)
    raise AssertionError(f"fewer than {count} e-mails to {address}")


def test_an_address_confirmed_a_reminder_and_one_click_unsubscribe(server, browser, mailbox):
    page = browser.new_page()
    sign_up(page, server.base, "Nora")
    page.goto(f"{server.base}/account")
    page.wait_for_selector("#notices[data-loaded='none']")
    assert page.text_content("#email-state") == "No address yet."
    # a webhook into the host's network is refused, and nothing changes
    page.fill("#notice-webhook", "https://10.0.0.7/hook")
    page.click("#notice-save")
    page.wait_for_selector("#notice-form .form-error:text('private or local address')")
    # the address: a confirmation link arrives by e-mail, and opening it confirms it
    page.fill("#notice-email", "nora@example.org")
    page.click("#email-send")
    page.wait_for_selector("#notices[data-loaded='unverified']")
    [mail] = mails_to(mailbox, "nora@example.org", 1)
    assert mail["Subject"] == "Confirm your e-mail address"
    assert mail["List-Unsubscribe"] is None  # a confirmation is no list
    page.goto(link_in(mail, "/verify-email#"))
    page.wait_for_selector("#outcome[data-ok='1']")
    assert "#" not in page.url  # the token leaves the address bar
    page.goto(f"{server.base}/account")
    page.wait_for_selector("#notices[data-loaded='verified']")
    assert page.text_content("#email-state") == "Confirmed: e-mails go to this address."
    # choices are kept
    page.check("input[name=turn_mode][value=after]")
    page.fill("#notice-after", "45")
    page.uncheck("#notice-events input[value=clock]")
    page.click("#notice-save")
    page.wait_for_selector("#toast:text('Saved.')")
    page.reload()
    page.wait_for_selector("#notices[data-loaded='verified']")
    assert page.is_checked("input[name=turn_mode][value=after]")
    assert page.input_value("#notice-after") == "45"
    assert not page.is_checked("#notice-events input[value=clock]")
    # an opponent's reminder in a turn-based game, once a day: Otto made his plan, Nora not
    nora = Visitor(server.base)
    nora.ok("/api/login", {"name": "Nora", "password": PASSWORD})
    game = nora.ok("/api/games", {"game": "gonzaga", "seats": [{"kind": "person"}] * 2,
                                  "timing": TIMED})
    otto = browser.new_context().new_page()
    sign_up(otto, server.base, "Otto")
    otto_api = Visitor(server.base)
    otto_api.ok("/api/login", {"name": "Otto", "password": PASSWORD})
    with ThreadPoolExecutor(1) as pool:  # Playwright holds this thread's event loop
        pool.submit(asyncio.run, play(server.ws, game["seats"][1]["link"], otto_api,
                                      "gonzaga", one_turn=True)).result()
    otto.goto(server.base + game["seats"][1]["link"])
    otto.wait_for_selector("#nudge:text('Remind Nora')")
    otto.click("#nudge")
    otto.wait_for_selector("#toast:text('Nora is reminded')")
    otto.click("#nudge")
    otto.wait_for_selector("#toast:text('reminded less than a day ago')")
    status, _, err = otto_api.call(f"/api/games/{game['id']}/nudge", {"seat": 0})
    assert status == 400 and err["code"] == "nudged"
    reminder = mails_to(mailbox, "nora@example.org", 2)[1]
    assert "Otto reminds you" in text_of(reminder)
    assert f"/game/{game['id']}#" in text_of(reminder)
    # one click in the mail client (RFC 8058), then the page says it is done
    unsubscribe = str(reminder["List-Unsubscribe"]).strip().strip("<>")
    request = urllib.request.Request(unsubscribe, data=b"List-Unsubscribe=One-Click",
                                     method="POST")
    with urllib.request.urlopen(request, timeout=30) as answer:
        assert answer.status == 200
    page.goto(f"{server.base}/account")
    page.wait_for_selector("#notices[data-loaded='verified']")
    assert page.text_content("#email-state") == "Confirmed, but e-mails are switched off."
    page.goto(unsubscribe)
    page.click("#stop")
    page.wait_for_selector("#outcome[data-ok='1']")
    page.close()


def test_a_forgotten_password_is_reset_from_its_email_once(server, browser, mailbox):
    page = browser.new_page()
    sign_up(page, server.base, "Pia")
    page.goto(f"{server.base}/account")
    page.wait_for_selector("#notices[data-loaded='none']")
    page.fill("#notice-email", "pia@example.org")
    page.click("#email-send")
    [confirm] = mails_to(mailbox, "pia@example.org", 1)
    page.goto(link_in(confirm, "/verify-email#"))
    page.wait_for_selector("#outcome[data-ok='1']")
    other_device = Visitor(server.base)
    other_device.ok("/api/login", {"name": "Pia", "password": PASSWORD})
    # signed out, the sign-in card offers the reset
    fresh = browser.new_context().new_page()
    fresh.goto(f"{server.base}/account")
    fresh.click("#forgot summary")
    fresh.fill("#forgot-name", "pia")
    fresh.click("#forgot-send")
    fresh.wait_for_selector("#forgot-form .muted:text('a link to choose a new password is on')")
    reset = mails_to(mailbox, "pia@example.org", 2)[1]
    assert reset["Subject"] == "Choose a new password"
    link = link_in(reset, "/reset-password#")
    fresh.goto(link)
    fresh.fill("#reset-password", "a brand new secret")
    fresh.click("#reset-save")
    fresh.wait_for_selector("#outcome[data-ok='1']")
    fresh.wait_for_selector("#nav-profile")  # signed in here...
    assert other_device.ok("/api/me")["user"] is None  # ...and out everywhere else
    status, _, _ = Visitor(server.base).call("/api/login", {"name": "Pia",
                                                             "password": PASSWORD})
    assert status != 200
    Visitor(server.base).ok("/api/login", {"name": "Pia", "password": "a brand new secret"})
    # the link works once
    again = browser.new_context().new_page()
    again.goto(link)
    again.fill("#reset-password", "yet another secret")
    again.click("#reset-save")
    again.wait_for_selector("#reset-form .form-error:text('this link is not valid')")
    page.close()


def test_the_notifications_card_in_german(server, browser):
    context = browser.new_context(locale="de-DE", extra_http_headers={"Accept-Language": "de"})
    page = context.new_page()
    page.goto(f"{server.base}/account")
    with page.expect_navigation():  # the page reloads in the chosen language
        page.evaluate(in_page("chooseLanguage('de')"))
    sign_up(page, server.base, "Greta")
    page.goto(f"{server.base}/account")
    page.wait_for_selector("#notices[data-loaded='none']")
    assert page.text_content("#notices h2") == "Benachrichtigungen"
    assert page.text_content("#email-state") == "Noch keine Adresse."
    page.fill("#notice-email", "kein@adresse")  # the browser lets it through
    page.click("#email-send")
    page.wait_for_selector("#email-form .form-error:text('Das ist keine E-Mail-Adresse')")
    page.fill("#notice-webhook", "http://93.184.216.34/hook")
    page.click("#notice-save")
    page.wait_for_selector("#notice-form .form-error:text('Dieser Webhook ist nicht nutzbar')")
    context.close()
