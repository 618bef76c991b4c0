"""Signorie's component editor in a real browser (Debian's Chromium): a person changes a value,
sees the finding appear at its field and go once fixed, the picture follows the data, and a
balance check runs to its report. The editor is mounted as the editions page mounts it, with a
live check that asks the server for the data's findings."""

from __future__ import annotations

import json
from typing import Any

from browsers import shot, wait_in_page
from test_signorie_browser import server

from tavola.games.signorie.tables import default_data

__all__ = ["server"]  # the module's fixture, shared

#: Mounts the editor into the page with the shipped data; the host's `changed` runs the live
#: check (the server's findings, shown at their fields) as the editions page does.
MOUNT = """async (data) => {
  const { mountEditor, postData } = await import("/static/signorie/editor.js");
  const root = document.createElement("div");
  root.id = "editor-root";
  document.body.replaceChildren(root);
  let asked = 0;
  const { t } = await import("/static/tavola/common.js");
  const host = { game: "signorie", t,
    changed: async () => {
      const mine = ++asked;
      const answer = await postData("/api/signorie/edition/table", window.editor.current());
      if (mine === asked) { window.editor.showFindings(answer.findings); window.checked = mine; }
    } };
  window.editor = mountEditor(root, data, host);
  window.checked = 0;
}"""

COST = '[data-where="/action_slots/0/cost/value"] input'


def open_editor(browser: Any, server: Any, width: int, height: int) -> tuple[Any, Any]:
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(server.base + "/")
    page.evaluate(MOUNT, json.loads(json.dumps(default_data())))
    page.wait_for_selector(".ed-sourced", timeout=15000)  # the schema came: values with statuses
    page.wait_for_selector('[data-section="dice"] .ed-picture .colour', timeout=15000)
    return context, page


def picture_cost(page: Any) -> str:
    return page.inner_text('[data-section="dice"] .ed-picture .colour[data-colour="yellow"] .cost')


def test_a_changed_value_shows_its_finding_then_its_fix_and_the_picture_follows(server, browser):
    context, page = open_editor(browser, server, 1280, 900)
    assert picture_cost(page) == f"cost {default_data()['action_slots'][0]['cost']['value']}"
    page.focus(COST)  # by keyboard: select the value and type another
    page.keyboard.press("Control+A")
    page.keyboard.type("9")
    finding = '[data-where="/action_slots/0/cost"] > .ed-finding'
    page.wait_for_selector(finding, timeout=15000)
    assert "not between 0 and 6" in page.inner_text(finding)
    assert page.get_attribute(COST, "aria-invalid") == "true"
    page.wait_for_selector('[data-section="dice"] .ed-picture.stale', timeout=15000)
    page.keyboard.press("Backspace")
    page.keyboard.type("3")
    page.wait_for_selector(finding, state="detached", timeout=15000)
    wait_in_page(page, "document.querySelector('[data-section=\"dice\"] .ed-picture:not(.stale) "
                       ".colour[data-colour=\"yellow\"] .cost')?.textContent === 'cost 3'")
    assert page.evaluate("editor.current().action_slots[0].cost.value") == 3
    # the status and its note: known needs a source, provisional a reason
    status = '[data-where="/action_slots/0/cost/status"] select'
    page.select_option(status, "provisional")
    assert page.inner_text('[data-where="/action_slots/0/cost"] .ed-note-field label') == "reason"
    assert page.evaluate("editor.current().action_slots[0].cost.reason")
    shot(page, "signorie-editor")
    assert page.errors == []
    context.close()


def test_the_balance_check_runs_on_the_edited_data_to_its_report(server, browser):
    context, page = open_editor(browser, server, 390, 844)  # a phone
    assert page.evaluate("document.documentElement.scrollWidth") <= 390 + 1
    page.fill('[data-where="/action_slots/0/cost/value"] input', "2")
    page.fill(".ed-balance input[type=number]", "4")
    page.select_option(".ed-balance select", "2")
    page.click(".ed-balance-run")
    page.wait_for_selector(".ed-balance progress:not([hidden])", timeout=15000)
    page.wait_for_selector(".ed-balance .ed-report-table", timeout=180000)
    text = page.inner_text(".ed-balance-report")
    assert "Win rate per starting position" in text and "yellow: Florins" in text
    assert "4 games played" in page.inner_text(".ed-balance-status")
    assert page.evaluate("document.querySelector('.ed-progress').value") == 4
    assert page.errors == []
    context.close()


#: Saves the editor's data as an edition of a new account (the editions API, as the editions
#: page's Save does) and creates a game on it; answers the first seat's link.
SAVE_AND_PLAY = """async () => {
  const { api } = await import("/static/tavola/common.js");
  await api("/api/signup", { name: "Printer", password: "a box of my own" });
  const made = await api("/api/editions", { game: "signorie", name: "My printed box",
    data: window.editor.current(), visibility: "private" });
  const game = await api("/api/games", { game: "signorie", edition: made.id,
    seats: [{ kind: "person", name: "Printer" }, { kind: "bot", bot: "random", name: "Bea" }] });
  return game.seats[0].link;
}"""


def test_the_edited_data_saved_as_an_edition_is_played_and_drawn_on_its_values(server, browser):
    context, page = open_editor(browser, server, 1280, 900)
    page.fill(COST, "4")
    wait_in_page(page, "window.checked > 0 && !document.querySelector('.ed-finding')")
    link = page.evaluate(SAVE_AND_PLAY)
    page.goto(server.base + link)
    page.wait_for_selector('#dice .colour[data-colour="yellow"] .cost', timeout=15000)
    assert page.inner_text('#dice .colour[data-colour="yellow"] .cost') == "cost 4"
    assert page.errors == []
    context.close()
