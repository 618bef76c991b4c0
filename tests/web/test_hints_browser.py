"""Hints in a real browser, for both games: the card appears where hints are allowed, a click
asks, the three moves are listed in words and marked on the table, everyone's count shows,
and a listed game without hints offers none."""

from __future__ import annotations

import contextlib
import random
from typing import Any

import pytest
from browsers import in_page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tavola.testing import game_names
from tavola.web.loadbench import http_json


def _open(browser: Any, server: Any, game: str, **params: Any) -> tuple[Any, Any, list[str]]:
    created = http_json(f"{server.base}/api/games", {"game": game, "seats": [
        {"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "random"}], **params})
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.base + created["seats"][0]["link"])
    page.wait_for_function("document.body.dataset.seq !== undefined", timeout=15000)
    return context, page, errors


@pytest.mark.parametrize("game,marked", [
    ("gonzaga", ".plancard.hinted"),
    ("signorie", ".hinted"),
])
def test_a_hint_is_listed_in_words_and_marked_on_the_table(browser, server, game, marked):
    context, page, errors = _open(browser, server, game)
    try:
        page.wait_for_selector("#hint-ask:not([disabled])", timeout=20000)
        page.click("#hint-ask")
        page.wait_for_selector("#hint-moves li", timeout=30000)
        items = page.query_selector_all("#hint-moves li")
        assert 1 <= len(items) <= 3
        texts = [li.inner_text() for li in items]
        assert all("at the end" in x and "% of the search" in x for x in texts), texts
        page.wait_for_selector(marked, timeout=5000)
        ranks = page.eval_on_selector_all("[data-hint-mark]",
                                          "els => els.map(e => e.dataset.hintMark)")
        assert "1" in " ".join(ranks).split()  # the best move is marked with its number
        assert page.eval_on_selector("#hint-ask", "b => b.disabled") is False
        assert not errors, errors
    finally:
        context.close()


def test_a_placement_hint_is_outlined_on_the_map(browser, server):
    context, page, errors = _open(browser, server, "gonzaga")
    try:
        page.wait_for_selector("#plan-go", timeout=20000)
        page.click("#region-cards .plancard:not([disabled])")
        page.click("#action-cards .plancard:not([disabled])")
        page.click("#plan-go")
        page.wait_for_function("document.body.dataset.phase === 'placing'", timeout=30000)
        page.wait_for_selector("#hint-ask:not([disabled])", timeout=30000)
        page.click("#hint-ask")
        page.wait_for_selector("#hint-moves li", timeout=30000)
        words = page.inner_text("#hint-moves")
        if "Donate" in words or "church" in words:  # nowhere to place: nothing on the map
            return
        page.wait_for_selector("[data-hint-cell='1']", state="attached", timeout=5000)
        assert page.eval_on_selector("#hint-layer", "g => g.querySelectorAll('text').length") >= 1
        _placements_reachable_once_and_names_uncovered(page)
        assert not errors, errors
    finally:
        context.close()


def test_a_listed_game_without_hints_offers_none(browser, server):
    context, page, errors = _open(browser, server, "gonzaga", public=True)
    try:
        page.wait_for_timeout(500)
        assert page.query_selector("#hint") is None
        assert not errors, errors
    finally:
        context.close()


def _placements_reachable_once_and_names_uncovered(page: Any) -> None:
    """Each placement a hint names is in the list of placements (one click shows it on the
    map), no placement is listed twice (a symmetric fief turned covers the same hexes with
    the same castles), and no hint's number covers a place name on the map."""
    found = page.evaluate(in_page("""() => {
      const moves = Hint.marked() || [];
      // the hexes a placement covers, as the view gives them
      const cells = (anchor, rotation) => {
        const p = ui.legalKeys.get(legalKey(anchor, rotation));
        // a line fief's two ways on the same hexes differ in their castles: two placements
        const keys = (hexes) => hexes.map(hexKey).sort().join(';');
        return p ? keys(p[4]) + ' castles ' + keys(p[5])
          : 'not legal: ' + legalKey(anchor, rotation);
      };
      const listed = [...document.querySelectorAll('#best a')].map((a) =>
        cells(a.dataset.anchor.split(',').map(Number), Number(a.dataset.rotation)));
      const hinted = moves.filter((m) => m.action.type === 'fief')
        .map((m) => cells(m.action.anchor, m.action.rotation));
      const rect = (e) => e.getBoundingClientRect();
      const shown = getComputedStyle(document.querySelector('#place-names')).display !== 'none';
      const names = [...document.querySelectorAll('#place-names text')].map(rect)
        .filter((b) => shown && b.width > 0);
      const meet = (b, n) => b.left < n.right && n.left < b.right && b.top < n.bottom
        && n.top < b.bottom;
      const badges = [...document.querySelectorAll('#hint-layer text')].map(rect);
      const covered = badges.filter((b) => names.some((n) => meet(b, n)));
      return { listed, hinted, covered: covered.length, badges: badges.length };
    }"""))
    assert len(found["listed"]) == len(set(found["listed"])), found["listed"]
    assert set(found["hinted"]) <= set(found["listed"]), found
    assert found["badges"] and found["covered"] == 0, found


def test_a_signorie_hint_names_the_whole_move_and_marks_its_action_once_the_die_is_picked(
        browser, server):
    context, page, errors = _open(browser, server, "signorie")
    try:
        page.wait_for_selector("#hint-ask:not([disabled])", timeout=20000)
        page.click("#hint-ask")
        page.wait_for_selector("#hint-moves li", timeout=30000)
        first = page.inner_text("#hint-moves li:first-child")
        moves = page.evaluate(in_page("Hint.marked()"))
        leads = [m["lead"] for m in moves]
        assert leads == sorted(leads, reverse=True)  # the first shows the greatest lead
        best = moves[0]
        if best["action"]["type"] != "take_die":
            return  # a pass: nothing more to mark
        assert best["then"] and ", then: " in first, first  # the die and what it is for
        die = f"{best['action']['colour']}-{best['action']['value']}"
        page.click(f"[data-die-choice='{die}']")
        marks = page.eval_on_selector_all("#actions [data-hint-mark]",
                                          "els => els.map(e => e.dataset.hintMark)")
        assert "1" in " ".join(marks).split(), marks  # the die's action the hint names
        assert not errors, errors
    finally:
        context.close()


# every place the page can be scrolled to, the message placed as a scroll places it: where it
# meets the hint's heading, if anywhere
TOAST_OVER_HINT = """() => {
  const meet = (a, b) => a.left < b.right && b.left < a.right
    && a.top < b.bottom && b.top < a.bottom;
  const box = (e) => {
    const r = e.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
  };
  const toast = document.getElementById('toast'), head = document.querySelector('#hint h3');
  const bottom = document.documentElement.scrollHeight - innerHeight, hits = [];
  let seen = 0;
  for (let y = 0; y <= bottom + 10; y += 10) {
    scrollTo(0, y);
    placeToast();
    const t = toast.getBoundingClientRect(), h = head.getBoundingClientRect();
    if (toast.hidden || !t.height) continue;
    seen += 1;
    if (meet(t, h) || t.top < 0 || t.bottom > innerHeight) {
      hits.push([scrollY, box(toast), box(head)]);
    }
  }
  return { seen, hits, text: toast.textContent };
}"""


def _bots_message_gonzaga(page: Any) -> None:
    """Plan: the reveal's message says what the bots planned."""
    page.click("#region-cards .plancard:not([disabled])")
    page.click("#action-cards .plancard:not([disabled]):not(#privilege)")
    page.click("#plan-go")
    page.wait_for_function("document.querySelector('#toast').textContent"
                           ".includes('Plans revealed')", timeout=20000)


def _bots_message_signorie(page: Any) -> None:
    """Take dice until a message says what the bot did (shown while the log is out of sight)."""
    from test_signorie_browser import click_a_move, wait_ready

    rng = random.Random(1)
    for _ in range(8):
        wait_ready(page)
        click_a_move(page, rng)
        with contextlib.suppress(PlaywrightTimeout):
            page.wait_for_function("!document.querySelector('#toast').hidden && document"
                                   ".querySelector('#toast').textContent.includes('Random bot')",
                                   timeout=5000)
            return
    raise AssertionError("no message said what the bot did")


@pytest.mark.parametrize("size", [(1280, 800), (390, 844), (844, 390)],
                         ids=["desktop", "phone", "phone-landscape"])
@pytest.mark.parametrize("game", game_names("site"))
def test_a_bots_message_never_covers_the_hints_heading(browser, server, game, size):
    """A hint is shown; a message that says what the bot did arrives: wherever the page is
    scrolled, the message stays on the screen and off the hint's heading."""
    phone = size[0] < 900
    created = http_json(f"{server.base}/api/games", {"game": game, "seed": 41, "seats": [
        {"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "random"}]})
    context = browser.new_context(viewport={"width": size[0], "height": size[1]},
                                  is_mobile=phone, has_touch=phone)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("dialog", lambda d: d.accept())
    try:
        page.goto(server.base + created["seats"][0]["link"])
        page.wait_for_selector("#hint-ask:not([disabled])", timeout=20000)
        page.click("#hint-ask")
        page.wait_for_selector("#hint-moves li", timeout=30000)
        (_bots_message_gonzaga if game == "gonzaga" else _bots_message_signorie)(page)
        found = page.evaluate(in_page(TOAST_OVER_HINT))
        assert found["seen"] and "bot" in found["text"], found
        assert found["hits"] == [], found["hits"][:3]
        assert not errors, errors
    finally:
        context.close()
