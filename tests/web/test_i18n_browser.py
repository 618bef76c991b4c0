"""Gonzaga in German and in Italian in a real browser: a whole game on every screen (lobby,
table, end screen) must show no English sentence that the language translates; the chosen
language is remembered across reloads. The README's German table (docs/web-placing-de.png) is
taken here (with UPDATE_SCREENSHOTS=1).

English sentences are found by the English catalog (the `.pot` messages): a visible text that
is a message id, or fills a message's template, while the language has another text for it.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from browsers import docs_shot, shot, wait_taken

from tavola import i18n
from tavola.i18n_tools import extract

DOMAINS = ("tavola", "gonzaga")

# every visible text node of the page, whitespace collapsed (hidden elements left out)
VISIBLE_TEXTS = """() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const e = n.parentElement;
    if (!e || e.closest("script, style, [hidden], title, option:not(:checked)")) continue;
    const box = e.getBoundingClientRect();
    if (!box.width && !box.height && e.tagName !== "text") continue;
    const text = n.nodeValue.replace(/\\s+/g, " ").trim();
    if (text) out.push(text);
  }
  return out;
}"""


def english_messages(lang: str) -> tuple[set[str], list[tuple[re.Pattern[str], str]]]:
    """The English messages the language translates otherwise: whole texts, and templates
    (with at least one word outside their fields) as patterns."""
    plain: set[str] = set()
    templates: list[tuple[re.Pattern[str], str]] = []
    for name in DOMAINS:
        translated = i18n.catalog(name, lang)
        for msg in extract(i18n.DOMAINS[name]):
            english = msg.id
            if not english or translated.get(english, english) == english:
                continue
            parts = re.split(r"\{\w+[^}]*\}", english)
            if len(parts) == 1:
                plain.add(english.strip())
            elif _anchored(parts):
                parts[0], parts[-1] = parts[0].lstrip(), parts[-1].rstrip()
                pattern = ".+?".join(re.escape(p) for p in parts)
                templates.append((re.compile(pattern), english))
    return plain, templates


def _anchored(parts: list[str]) -> bool:
    """A template worth matching: English words at its start or end, or two words or more
    between fields ("{first} and {last}" would match any sentence with "and")."""
    words = re.findall(r"[A-Za-z]{2,}", "".join(parts))
    return bool(re.search(r"[A-Za-z]", parts[0] + parts[-1])) or len(words) >= 2


def untranslated(page: Any, lang: str) -> list[str]:
    plain, templates = english_messages(lang)
    found = []
    for text in page.evaluate(VISIBLE_TEXTS):
        if text in plain:
            found.append(text)
            continue
        found += [f"{text!r} (English {english!r})" for pattern, english in templates
                  if pattern.fullmatch(text)]
    return found


def play_in(browser: Any, server: Any, lang: str, locale: str) -> None:
    """A whole game against the random bot in a browser that asks for `locale`."""
    context = browser.new_context(locale=locale, viewport={"width": 1366, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("dialog", lambda d: d.accept())
    page.goto(f"{server.base}/")
    page.wait_for_selector("[data-seat-kind='1'] option", state="attached")
    assert page.evaluate("document.documentElement.lang") == lang
    assert page.input_value("#language") == lang
    problems = [f"lobby: {t}" for t in untranslated(page, lang)]
    page.click("#remove-seat")
    page.select_option("[data-seat-kind='1']", "bot:random")
    page.fill("[data-seat-name='0']", "Ann")
    page.click("#create-game")
    page.wait_for_url("**/game/**")
    turns = 0
    while True:
        page.wait_for_function(
            "document.querySelector('#plan-go') || document.querySelector('#mode-fief') "
            "|| !document.querySelector('#end').hidden", timeout=20000)
        seq = int(page.evaluate("document.body.dataset.seq"))
        if page.evaluate("!document.querySelector('#end').hidden"):
            break
        problems += [f"table, move {seq}: {t}" for t in untranslated(page, lang)]
        if page.query_selector("#plan-go"):
            page.click("#region-cards button:not([disabled])")
            page.click("#action-cards button:not([disabled]):not(#privilege)")
            page.click("#plan-go")
            taken = "#plan-go"
        elif page.query_selector("#best a"):
            page.click("#best a")
            page.wait_for_function("!document.querySelector('#confirm').disabled")
            problems += [f"preview, move {seq}: {t}" for t in untranslated(page, lang)]
            if turns == 3:  # the README's German table (docs/web-placing-de.png)
                page.evaluate("document.querySelector('#toast').hidden = true")
                (docs_shot if lang == "de" else shot)(page, f"web-placing-{lang}")
            page.click("#confirm")
            taken = "#donate"
        else:
            page.click("#donate")
            taken = "#donate"
        turns += 1
        wait_taken(page, seq, taken)
    page.evaluate("document.querySelector('#toast').hidden = true")
    shot(page, f"i18n-game-over-{lang}")
    problems += [f"end screen: {t}" for t in untranslated(page, lang)]
    assert turns >= 7 and errors == []
    assert problems == [], "\n".join(dict.fromkeys(problems))
    context.close()


@pytest.mark.parametrize(("lang", "locale"), [("de", "de-DE"), ("it", "it-IT")])
def test_a_whole_game_shows_no_untranslated_text(server, browser, lang, locale):
    play_in(browser, server, lang, locale)


def test_the_language_chosen_is_remembered(server, browser):
    context = browser.new_context(locale="en-GB")
    page = context.new_page()
    page.goto(f"{server.base}/")
    page.wait_for_selector("#language")
    assert page.evaluate("document.documentElement.lang") == "en"
    with page.expect_navigation():
        page.select_option("#language", "it")
    page.wait_for_selector("#language")
    assert page.inner_text("#create h2") == "Nuova partita"
    page.reload()
    page.wait_for_selector("#language")
    assert page.input_value("#language") == "it"
    assert page.inner_text("#create h2") == "Nuova partita"
    # the cookie gone, the page remembers by localStorage and asks again in Italian
    context.clear_cookies()
    page.goto(f"{server.base}/")
    page.wait_for_function("document.documentElement.lang === 'it'", timeout=10000)
    assert page.inner_text("#create h2") == "Nuova partita"
    context.close()


def test_the_lobbys_advanced_options_keep_the_games_words(server, browser):
    """The folded options' summary lists the labels as the game words them: a German noun
    keeps its capital ("Erweitert: Startwert, regelvarianten" before)."""
    context = browser.new_context(locale="de-DE")
    page = context.new_page()
    page.goto(f"{server.base}/")
    page.wait_for_selector("[data-seat-kind='1'] option", state="attached")
    summary = page.inner_text("#advanced-summary")
    assert summary == "Erweitert: Startwert · Regelvarianten"
    context.close()
