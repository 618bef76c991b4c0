"""Signorie in German and in Italian in a real browser: a whole game by clicking, and no visible
text on any screen is still English (each English message of the catalogs is a pattern; a
text node or a title that matches one whose translation differs is a miss)."""

from __future__ import annotations

import random
import re
import time

import pytest
from browsers import docs_shot
from test_signorie_browser import ARTIFACTS, click_a_move, server, wait_ready
from test_signorie_web import create

from tavola import i18n

__all__ = ["server"]  # the module's fixture, shared

#: every text node and title attribute the player can see
VISIBLE = """() => {
  const out = [];
  const seen = (e) => e && e.offsetParent !== null;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n.nodeValue.replace(/\\s+/g, " ").trim();
    const p = n.parentElement;
    if (text && seen(p) && !p.closest("script, style, option")) out.push(text);
  }
  for (const e of document.querySelectorAll("[title]")) if (seen(e)) out.push(e.title.trim());
  return out;
}"""


def words(message: str) -> set[str]:
    return set(re.findall(r"[^\W\d_]{2,}", re.sub(r"\{[^{}]*\}", " ", message).lower()))


def english_patterns(lang: str) -> list[tuple[re.Pattern[str], str]]:
    """A pattern per English message (fields as wildcards) whose `lang` text is different."""
    out = []
    for domain in ("tavola", "signorie"):
        for msgid, said in i18n.catalog(domain, lang).items():
            fixed = re.sub(r"\{[^{}]*\}", " ", msgid)
            # the same words in another order ("{level} bot", "bot {level}") tell nothing
            if words(msgid) == words(said) or not re.search(r"[A-Za-z]{2}", fixed):
                continue
            parts = re.split(r"\{[^{}]*\}", msgid.strip())
            out.append((re.compile("^" + ".+?".join(map(re.escape, parts)) + "$", re.S), msgid))
    return out


def untranslated(page, patterns: list[tuple[re.Pattern[str], str]]) -> list[str]:
    return sorted({f"{text!r} is English ({msgid!r})" for text in page.evaluate(VISIBLE)
                   for pattern, msgid in patterns if pattern.match(text)})


@pytest.mark.parametrize("lang", ["de", "it"])
def test_a_whole_game_in_another_language_shows_no_english(server, browser, lang):
    patterns = english_patterns(lang)
    assert len(patterns) > 300
    game = create(server, [{"kind": "person", "name": "Ann"},
                           {"kind": "bot", "bot": "random", "name": "Bea"}])
    context = browser.new_context(viewport={"width": 1366, "height": 900},
                                  extra_http_headers={"Accept-Language": lang})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.base + game["seats"][0]["link"])
    page.wait_for_selector(".player", timeout=15000)
    assert page.evaluate("document.documentElement.lang") == lang
    rng = random.Random(7)
    moves, misses = 0, []
    deadline = time.monotonic() + 600
    while True:
        assert time.monotonic() < deadline
        wait_ready(page)
        if moves % 4 == 0:  # the die's choices, the options, the preview: each screen
            misses += untranslated(page, patterns)
        if lang == "it" and moves == 24:  # the README's Italian table, a few turns in
            docs_shot(page, "signorie-table-it")
        if not page.evaluate("document.querySelector('#end').hidden"):
            break
        click_a_move(page, rng)
        moves += 1
    misses += untranslated(page, patterns)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"signorie-end-{lang}.png"), full_page=True)
    assert moves > 30
    assert sorted(set(misses)) == []
    assert errors == []
    context.close()
