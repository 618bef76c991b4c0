"""Signorie's component editor in a real browser (Debian's Chromium), in the platform's editor
shell (/editions/edit): a person changes a value by keyboard, sees the finding appear at its
field and in the shell's list and go once fixed, undoes and redoes it, the picture follows the
data, saves, and plays a game on the edition whose table shows the value; on a phone, the page
fits the screen and a balance check runs to its report."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browsers import shot, wait_in_page
from test_accounts import RELAXED
from web_server import Server, launch

from tavola.games.signorie.tables import default_data


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = launch(tmp_path_factory.mktemp("signorie-editor") / "games.db", limits=RELAXED)
    yield srv
    srv.stop()


COST = '[data-where="/action_slots/0/cost/value"] input'
FINDING = '[data-where="/action_slots/0/cost"] > .ed-finding'
LISTED = '#edition-findings .finding[data-where="/action_slots/0/cost"]'
SHIPPED = default_data()["action_slots"][0]["cost"]["value"]


def open_editor(browser: Any, server: Server, name: str, width: int, height: int,
                lang: str = "en") -> tuple[Any, Any]:
    """A new account's editor on the shipped components, checked and drawn."""
    context = browser.new_context(viewport={"width": width, "height": height},
                                  extra_http_headers={"Accept-Language": lang})
    page = context.new_page()
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(f"{server.base}/account")
    page.fill("#sign-up-name", name)
    page.fill("#sign-up-password", "a long enough secret")
    page.click("#sign-up")
    page.wait_for_url(f"{server.base}/")
    page.goto(f"{server.base}/editions/edit?game=signorie")
    page.wait_for_selector(".ed-sourced", timeout=15000)  # the schema came: values with statuses
    page.wait_for_selector("#edition-no-findings", timeout=15000)
    page.wait_for_selector('[data-section="dice"] .ed-picture .colour', timeout=15000)
    return context, page


def picture_cost(page: Any) -> str:
    return page.inner_text('[data-section="dice"] .ed-picture .colour[data-colour="yellow"] .cost')


def type_cost(page: Any, value: str) -> None:
    page.focus(COST)  # by keyboard: select the value and type another
    page.keyboard.press("Control+A")
    page.keyboard.type(value)


def test_a_value_is_changed_found_wrong_fixed_saved_and_played_on(server, browser):
    context, page = open_editor(browser, server, "transcriber", 1280, 900)
    assert picture_cost(page) == f"cost {SHIPPED}"
    type_cost(page, "9")
    page.wait_for_selector(FINDING, timeout=15000)
    assert "not between 0 and 6" in page.inner_text(FINDING)
    assert page.get_attribute(COST, "aria-invalid") == "true"
    page.wait_for_selector(LISTED, timeout=15000)  # the shell's list of problems
    page.wait_for_selector('[data-section="dice"] .ed-picture.stale', timeout=15000)
    page.focus("#edition-save")
    page.click(LISTED)  # the list takes the reader to the field
    assert page.evaluate("document.activeElement.closest('[data-where]').dataset.where") \
        == "/action_slots/0/cost/value"
    type_cost(page, "3")
    page.wait_for_selector("#edition-no-findings", timeout=15000)
    assert page.query_selector(FINDING) is None
    wait_in_page(page, "document.querySelector('[data-section=\"dice\"] .ed-picture:not(.stale) "
                       ".colour[data-colour=\"yellow\"] .cost')?.textContent === 'cost 3'")
    page.keyboard.press("Control+z")  # the shell's undo: back to the wrong value
    page.wait_for_selector(FINDING, timeout=15000)
    page.keyboard.press("Control+y")
    page.wait_for_selector("#edition-no-findings", timeout=15000)
    page.select_option('[data-where="/action_slots/0/cost/status"] select', "provisional")
    assert page.inner_text('[data-where="/action_slots/0/cost"] .ed-note-field label') == "reason"
    shot(page, "signorie-editor")
    page.fill("#edition-name", "My printed box")
    page.click("#edition-save")
    page.wait_for_selector("#edition-play:not([hidden])", timeout=15000)
    # the note says what was saved and where it is: the editions page, a game on it
    page.wait_for_selector("#edition-saved-play", timeout=15000)
    assert page.inner_text("#edition-saved").startswith("Saved “My printed box” as version 1.")
    assert page.get_attribute("#edition-saved-list", "href") == "/editions"
    assert page.get_attribute("#edition-saved-play", "href") == \
        page.get_attribute("#edition-play", "href")
    assert "edition=" in page.get_attribute("#edition-saved-play", "href")
    page.click("#edition-play")
    page.wait_for_function("document.querySelector('#edition') && document.querySelector("
                           "'#edition').selectedOptions[0].textContent.startsWith('My printed')",
                           timeout=15000)
    page.click("#create-game")
    page.wait_for_url("**/game/**")
    page.wait_for_selector('#dice .colour[data-colour="yellow"] .cost', timeout=15000)
    wait_in_page(page, "document.querySelector('#dice .colour[data-colour=\"yellow\"] .cost')"
                       ".textContent === 'cost 3'")
    assert page.errors == []
    context.close()


def test_on_a_phone_in_german_the_editor_fits_and_a_balance_check_runs_to_its_report(
        server, browser):
    context, page = open_editor(browser, server, "phone", 390, 844, "de")
    page.wait_for_function("document.querySelector('[data-section=\"dice\"] h2').textContent"
                           " === 'Würfelfelder und Kosten'", timeout=15000)
    assert "Quelle" in page.inner_text('[data-where="/action_slots/0/colour"]')
    assert page.evaluate("document.documentElement.scrollWidth") <= 390 + 1
    type_cost(page, "2")
    page.fill(".ed-balance input[type=number]", "4")
    page.select_option(".ed-balance select", "2")
    page.click(".ed-balance-run")
    page.wait_for_selector(".ed-balance progress:not([hidden])", timeout=15000)
    page.wait_for_selector(".ed-balance .ed-report-table", timeout=180000)
    text = page.inner_text(".ed-balance-report")
    assert "Balance-Prüfung: nicht als Edition gespeicherte Komponenten" in text
    assert "Wer gewinnt" in text and "Gelb: Florin" in text and "Win rate" not in text
    assert "4 Partien" in page.inner_text(".ed-balance-status")
    assert page.evaluate("document.querySelector('.ed-progress').value") == 4
    assert page.errors == []
    context.close()


def labels(page: Any, selector: str) -> list[str]:
    return page.eval_on_selector_all(selector, "xs => xs.map((x) => x.textContent)")


def test_fields_and_findings_read_in_the_games_words(
        server, browser):
    context, page = open_editor(browser, server, "newcomer", 1280, 900)
    page.wait_for_function("document.querySelector('[data-where=\"/action_slots/0\"] > legend')"
                           ".textContent === 'Yellow die slot'", timeout=15000)
    legend = '[data-where="/cities/2"] > legend'
    assert page.inner_text(legend) == "Firenze"
    assert page.get_attribute(legend, "title") == "/cities/2"  # the path: a tooltip only
    assert page.inner_text('[data-where="/cities/2/slots/value/1"] > label') == \
        "row 2, slot 1"
    assert page.inner_text('[data-where="/helper_slots/value/3"] > legend') == \
        "Red column, helper 1"
    every = labels(page, ".signorie-editor legend, .signorie-editor .ed-field > label")
    assert every and [x for x in every if "_" in x or "[" in x] == []
    type_cost(page, "9")
    page.wait_for_selector(FINDING, timeout=15000)
    assert page.inner_text(FINDING) == "Yellow die slot: cost: 9 is not between 0 and 6."
    page.wait_for_selector(LISTED, timeout=15000)
    assert page.inner_text("#edition-findings") == \
        "Yellow die slot: cost: 9 is not between 0 and 6."
    assert page.get_attribute(LISTED, "title") == "/action_slots/0/cost"
    assert page.errors == []
    context.close()


def test_only_the_picture_of_the_part_a_finding_is_about_is_marked(server, browser):
    context, page = open_editor(browser, server, "marker", 390, 844)
    type_cost(page, "9")
    page.wait_for_selector(FINDING, timeout=15000)
    # only the die slots' picture is marked, by a frame and a sentence; the others as drawn
    page.wait_for_selector('[data-section="dice"] .ed-picture.stale .ed-stale-note',
                           timeout=15000)
    assert page.eval_on_selector_all(".ed-picture.stale", "xs => xs.length") == 1
    # in it, the yellow slot (the finding's) is marked, the others not
    marked = page.eval_on_selector_all('[data-section="dice"] .ed-wrong-item',
                                       "xs => xs.map((x) => x.dataset.colour)")
    assert marked == ["yellow"]
    assert page.eval_on_selector('[data-section="dice"] .action-slot-list',
                                 "x => getComputedStyle(x).opacity") == "1"  # not all faded
    assert page.inner_text('[data-section="dice"] .ed-stale-note').startswith(
        "This part has a problem")
    assert page.eval_on_selector('[data-section="cities"] .ed-picture .city',
                                 "x => getComputedStyle(x).opacity") == "1"
    assert page.query_selector('[data-section="cities"] .ed-picture figcaption') is None
    assert page.errors == []
    context.close()


def test_tracks_are_listed_from_their_top_and_city_slots_as_the_board_prints_them(
        server, browser):
    context, page = open_editor(browser, server, "reader", 1280, 900)
    first = '[data-where="/initiative_track/value"] > ol > li:first-child > [data-where]'
    page.wait_for_function(f"document.querySelector('{first}').dataset.where === "
                           "'/initiative_track/value/8'", timeout=15000)
    initiative = default_data()["initiative_track"]["value"]
    shown = page.eval_on_selector_all('[data-where="/initiative_track/value"] > ol input',
                                      "xs => xs.map((x) => Number(x.value))")
    assert shown == initiative[::-1]
    career = page.eval_on_selector_all(
        '[data-where="/career_tracks/slots/value"] > ol > li > [data-where]',
        "xs => xs.map((x) => x.dataset.where)")
    assert career[0] == f"/career_tracks/slots/value/{len(career) - 1}"
    # the picture beside them reads the same way: the top slot first
    drawn = page.eval_on_selector_all('[data-section="tracks"] .initiative .vp',
                                      "xs => xs.map((x) => x.textContent)")
    assert drawn == [f"{vp} VP" for vp in initiative[::-1]]
    head = page.eval_on_selector_all('[data-section="tracks"] table.track thead th .vp',
                                     "xs => xs.map((x) => x.textContent)")
    slots = default_data()["career_tracks"]["slots"]["value"]
    assert head == [f"{s['vp']} VP" for s in slots[::-1]]
    milano = page.eval_on_selector_all('[data-where="/cities/0/slots/value"] > ol input',
                                       "xs => xs.map((x) => Number(x.value))")
    assert milano == [1, 2, 3, 4, 1, 2, 3, 4]
    assert page.errors == []
    context.close()


@pytest.mark.parametrize(("lang", "cost", "place"), [
    ("de", "Kosten 1", "Würfelfeld Gelb"), ("it", "costo 1", "spazio dado Giallo")])
def test_the_pictures_and_the_summary_speak_the_readers_language(server, browser, lang, cost,
                                                                  place):
    context, page = open_editor(browser, server, f"reader-{lang}", 390, 844, lang)
    page.wait_for_function(f"document.querySelector('[data-section=\"dice\"] .ed-picture "
                           f".colour[data-colour=\"yellow\"] .cost').textContent === '{cost}'",
                           timeout=15000)
    page.wait_for_function(f"document.querySelector('[data-where=\"/action_slots/0\"] > legend')"
                           f".textContent === '{place}'", timeout=15000)
    english = ["cost ", "rank ", "Florins to pay", "Colour (price)", "Bonus tiles (early",
               "VP tiles (last", "cities,", "helper slots", "values known"]
    text = page.inner_text("body")
    assert [w for w in english if w in text] == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 390 + 1
    assert page.errors == []
    context.close()
