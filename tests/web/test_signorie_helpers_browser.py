"""The "always activate helpers" setting of Signorie's table, in a real browser: a helper whose
effect is never worth refusing is activated without the question (by the page sending that
legal answer), unless the player switched the setting off; the question then says what the
helper gives for the die on the board."""

from __future__ import annotations

import random
import time
from typing import Any

from browsers import in_page
from test_signorie_browser import server
from test_signorie_web import create, join, truth

from tavola.games.signorie.tables import tables

__all__ = ["server"]  # the module's fixture, shared

T = tables()
#: the helpers the tests aim at: initiative steps per so many pips (never worth refusing, and
#: their amount depends on the die)
AIMED = {h for h, eff in enumerate(T.helper_effect)
         if eff[0] == "initiative" and T.helper_per_pips[h]}
#: every #question the page shows, recorded as it changes
RECORD = """window.questions = [];
new MutationObserver(() => {
  const q = document.querySelector("#question");
  const last = window.questions[window.questions.length - 1];
  if (q && last !== q.textContent) window.questions.push(q.textContent);
}).observe(document, { childList: true, subtree: true, characterData: true });"""


def act(c: Any, action: dict[str, Any]) -> dict[str, Any]:
    seq = c.view["seq"]
    c.send({"type": "act", "action": action, "seq": seq})
    while True:
        msg = c.recv()
        assert msg["type"] != "error", msg
        if msg["type"] == "state" and msg["seq"] > seq:
            return msg


def pick(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Seat 0's way to a question about an aimed helper: hire one, then use a die of at least
    its pips in its column; anything else at random."""
    legal, me = view["legal"], view["players"][0]
    hired = [h for h in AIMED if me["helpers"][h]]
    if legal["kind"] == "turn":
        dice = [d for d in legal["dice"] if d["ok"]]
        use = [d for d in dice for h in hired if d["colour"] == T.colours[T.helper_column[h]]
               and T.helper_times(h, d["value"])]
        hire = [d for d in dice for c in d["choices"] if c["kind"] == "helper" and c["ok"]
                and c["helper"] in AIMED]
        if use or hire or dice:
            return rng.choice(use or hire or dice)["action"]
    if legal["kind"] == "choose":
        hire = [c["action"] for c in legal["choices"] if c["kind"] == "helper" and c["ok"]
                and c["helper"] in AIMED]
        if hire:
            return hire[0]
    return rng.choice(legal["options"])["action"]


def reach_the_question(server: Any, seed: int) -> tuple[dict[str, Any], int]:
    """A game whose seat 0 is asked whether to activate an aimed helper, played to there over
    the WebSocket as a page would; the game and the helper asked about."""
    game = create(server, [{"kind": "person", "name": "Ann"},
                           {"kind": "bot", "bot": "random", "name": "Bea"}], seed=seed)
    c = join(server, game, 0)
    rng = random.Random(seed)
    deadline = time.monotonic() + 120
    try:
        while True:
            assert time.monotonic() < deadline and c.view["phase"] != "over"
            view = c.view
            if view["legal"] is None:
                c.recv()
                continue
            asked = [o["action"]["helper"] for o in view["legal"]["options"]
                     if o["action"]["type"] == "activate"]
            if asked and asked[0] in AIMED:
                return game, asked[0]
            act(c, pick(view, rng))
    finally:
        c.close()


def open_seat(browser: Any, server: Any, game: dict[str, Any], lang: str = "en",
              always: str | None = None) -> tuple[Any, Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900},
                                  extra_http_headers={"Accept-Language": lang})
    if always is not None:  # the setting as this device keeps it
        context.add_init_script(f"localStorage.setItem('signorie:always-activate', '{always}')")
    context.add_init_script(RECORD)
    page = context.new_page()
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(server.base + game["seats"][0]["link"])
    page.wait_for_selector(".player", timeout=15000)
    return context, page


def activations(server: Any, game: dict[str, Any], helper: int) -> list[bool]:
    return [x.data["use"] for x in truth(server, game["id"]).log
            if x.kind == "helper" and x.data["helper"] == helper]


def test_with_the_setting_on_a_helper_always_wanted_is_activated_without_asking(server, browser):
    game, helper = reach_the_question(server, seed=11)
    assert activations(server, game, helper) == []
    context, page = open_seat(browser, server, game)  # the setting is on unless switched off
    page.wait_for_function("document.querySelector('#always-activate')", timeout=15000)
    deadline = time.monotonic() + 15
    while not activations(server, game, helper):
        assert time.monotonic() < deadline, page.evaluate("window.questions")
        time.sleep(0.1)
    assert activations(server, game, helper) == [True]  # the helper's effect is applied
    assert page.is_checked("#always-activate")
    assert not [q for q in page.evaluate("window.questions") if "activate this helper" in q]
    assert page.errors == []
    context.close()


def test_with_the_setting_off_the_question_says_what_the_die_gives(server, browser):
    """In Italian: the question is asked, its answer names the steps for this die (not "per 2
    pips"); switching the setting on answers it."""
    game, helper = reach_the_question(server, seed=11)
    context, page = open_seat(browser, server, game, lang="it", always="off")
    page.wait_for_selector("#actions .option", timeout=15000)
    assert "attivare questo aiutante?" in page.inner_text("#question")
    die = page.evaluate(in_page(f"Table.view.players[0].taken[{T.helper_column[helper]}]"))
    steps = T.helper_times(helper, die)
    words = page.inner_text("#actions .option[data-option='0']")
    assert f"con un {die})" in words and f"{steps} pass" in words and "ogni" not in words, words
    assert not page.is_checked("#always-activate")
    # the page answers by itself before it shows a question, if at all: nothing was sent
    assert page.evaluate(in_page("Table.state.sentSeq")) is None
    assert activations(server, game, helper) == []
    page.check("#always-activate")
    page.wait_for_function("!document.querySelector('#question') || "
                           "!document.querySelector('#question').textContent.includes('aiutante')",
                           timeout=15000)
    assert activations(server, game, helper) == [True]
    assert page.evaluate("localStorage.getItem('signorie:always-activate')") == "on"
    assert page.errors == []
    context.close()
