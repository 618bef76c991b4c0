"""Learning to play in a real browser: each tutorial walked end to end by clicking only what it
outlines, the rules pages' pictures counted against the game data, help in place."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from browsers import shot
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tavola import tutorial as tutorials
from tavola.games.gonzaga.actions import ACTION_COVERAGE
from tavola.games.gonzaga.state import LEAGUE_SIZE, OBJECTIVE_POINTS
from tavola.testing import game_names
from tavola.tutorial import words
from tavola.web.loadbench import http_json


def _off_script(page: Any, selectors: list[str]) -> str | None:
    """Click a move the script refuses; its words. A view that arrives between two clicks
    may draw the choices afresh, so the clicks are tried again (three times at most)."""
    for _ in range(3):
        try:
            for selector in selectors:
                page.click(selector, timeout=5000)
            return page.wait_for_selector("#tutorial-refusal", timeout=5000).text_content()
        except PlaywrightTimeout:
            continue
    raise AssertionError("a move off the script was never refused")


def walk_tutorial(page: Any, game: str, off_script: list[str],
                  each: Callable[[Any], None] | None = None) -> dict[str, Any]:
    """From the lobby's "Learn by playing" to the lesson's end, clicking what is outlined;
    `off_script` is clicked once at the first step (a move the script refuses); `each(page)`
    looks at the page before every click."""
    page.goto(page.base + "/")
    page.click(f"[data-tutorial='{game}']")
    page.wait_for_url("**/game/**")
    page.wait_for_selector("#tutorial[data-step='1']")
    refusal = None
    if off_script:
        page.wait_for_selector(".tutorial-target")
        refusal = _off_script(page, off_script)
    clicks = 0
    started = time.monotonic()
    while page.get_attribute("#tutorial", "data-step") != "done":
        if time.monotonic() - started > 120:
            shot(page, f"tutorial-{game}-stuck")
            state = page.evaluate("[document.body.dataset.tutorialTarget, "
                                  "document.querySelector('#tutorial').innerText]")
            raise AssertionError(f"the tutorial did not end: {state}")
        try:
            target = page.query_selector(".tutorial-target")
            if target is None or not target.is_visible() or not target.is_enabled():
                page.wait_for_timeout(100)
                continue
            if each:
                each(page)
            target.click(timeout=5000)
        except PlaywrightError:  # a view drew the choices afresh after the target was found
            continue
        clicks += 1
        page.wait_for_timeout(150)
    return {"refusal": refusal, "clicks": clicks, "seconds": time.monotonic() - started}


@pytest.fixture
def page(browser, server):
    p = browser.new_page(viewport={"width": 1366, "height": 900})
    errors: list[str] = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    p.on("dialog", lambda d: d.accept())
    p.base = server.base
    yield p
    assert not errors
    p.close()


def test_the_gonzaga_tutorial_end_to_end(page):
    steps = tutorials.load("gonzaga").steps
    walked = walk_tutorial(page, "gonzaga", ["#region-cards [data-card='italia']",
                                             "#action-cards [data-card='harbors']", "#plan-go"])
    assert walked["refusal"].rstrip(".") == words(steps[0].refuse).rstrip(".")
    assert walked["clicks"] >= sum(len(s.highlight) for s in steps) - 1
    shot(page, "tutorial-gonzaga-done")
    assert "lobby" in page.text_content("#tutorial")
    print(f"tavola tutorial: {walked['clicks']} clicks, {walked['seconds']:.1f} s")


def test_the_gonzaga_rules_page_draws_its_pictures_from_the_data(page):
    board = http_json(page.base + "/api/gonzaga/board")
    page.goto(page.base + "/rules/gonzaga")
    page.wait_for_selector("body[data-pictures='drawn']")
    shot(page, "rules-gonzaga")
    fief = next(f for f in board["fiefs"] if len(f["hexes"]) >= 4 and len(f["castles"]) >= 2)
    assert page.locator("[data-picture='fief'] .rotation").count() == 6
    assert page.locator("[data-picture='fief'] .fief-hex").count() == 6 * len(fief["hexes"])
    assert page.locator("[data-picture='fief'] .castle").count() == 6 * len(fief["castles"])
    for card, allowed in ACTION_COVERAGE.items():
        assert page.locator(f".coverage[data-card='{card}'] .cell.allowed").count() == len(allowed)
    assert page.locator("[data-picture='objective'] td.points").all_text_contents() == \
        [str(p) for p in OBJECTIVE_POINTS]
    harbors = page.locator("[data-picture='sea-league'] .harbor")
    sea = board["harbors"][[h["id"] for h in board["harbors"]].index(
        harbors.first.get_attribute("data-harbor"))]["sea"]
    assert harbors.count() == sum(h["sea"] == sea for h in board["harbors"])
    assert page.locator("[data-picture='sea-league'] .harbor.covered").count() == LEAGUE_SIZE
    assert page.locator("[data-picture='wedding'] .ring").count() == 2
    # each language is offered once: the page's own links, no second choice in the header
    for name in ("English", "Deutsch", "Italiano"):
        assert page.get_by_text(name, exact=True).count() == 1, name
    page.click("#rules-langs a[hreflang='de']")
    page.wait_for_selector("body[data-pictures='drawn']")
    assert page.evaluate("document.documentElement.lang") == "de"
    assert "Lehen" in page.text_content("#rules-text")


def test_the_signorie_tutorial_end_to_end(page):
    steps = tutorials.load("signorie").steps
    # an off-script die is refused already by the check before confirming
    walked = walk_tutorial(page, "signorie", ["[data-die-choice='grey-4']",
                                              "[data-choice='helper-5']"])
    assert walked["refusal"].rstrip(".") == words(steps[0].refuse).rstrip(".")
    shot(page, "tutorial-signorie-done")
    # every move's clicks, and Next on each page of how points are made
    assert walked["clicks"] >= len(steps) + sum(len(s.pages) for s in steps)
    print(f"signorie tutorial: {walked['clicks']} clicks, {walked['seconds']:.1f} s")


def _apart(a: dict[str, float] | None, b: dict[str, float] | None) -> bool:
    """Two boxes on the page that do not intersect (a missing one is apart)."""
    if a is None or b is None:
        return True
    return (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
            or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_the_signorie_tutorial_card_covers_nothing_it_asks_for_and_counts_every_step(
        browser, server, size):
    """Before every click the card is apart from the outlined target and from the preview
    with its Confirm; the counter reads 1, 2, 3... up to its total, each step once."""
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    page.base = server.base
    counts: list[str] = []
    covered: list[str] = []

    def look(p: Any) -> None:
        p.locator(".tutorial-target").scroll_into_view_if_needed()
        card = p.locator("#tutorial").bounding_box()
        for sel in (".tutorial-target:not(#tutorial *)", "#preview", "#confirm"):
            node = p.query_selector(sel)
            if node and node.is_visible() and not _apart(card, node.bounding_box()):
                covered.append(f"{sel} at {p.text_content('#tutorial-count')}")
        # a page to read: the part of the table it is about is in sight, its top above the card
        about = [x.bounding_box() for x in p.query_selector_all(".tutorial-look")]
        if about and not any(0 <= box["y"] < card["y"] for box in about):
            covered.append(f"{p.text_content('#tutorial-title')} out of sight: {about}")
        text = p.text_content("#tutorial-count")
        if not counts or counts[-1] != text:
            counts.append(text)

    walk_tutorial(page, "signorie", [], each=look)
    shot(page, f"tutorial-signorie-{size[0]}")
    page.close()
    assert not covered
    numbers = [tuple(map(int, re.findall(r"\d+", c))) for c in counts]
    total = numbers[0][1]
    assert [n for n, _ in numbers] == list(range(1, total + 1))
    assert all(t == total for _, t in numbers)


def test_the_signorie_rules_page_draws_its_pictures_from_the_data(page):
    table = http_json(page.base + "/api/signorie/table")
    facts = http_json(page.base + "/api/rules/signorie")["facts"]
    page.goto(page.base + "/rules/signorie")
    page.wait_for_selector("body[data-pictures='drawn']")
    shot(page, "rules-signorie")
    assert page.locator("[data-picture='board'] .helper").count() == \
        sum(len(c["helpers"]) for c in table["colours"])
    cells = page.locator("[data-picture='costs'] td.cost-cell").all_text_contents()
    assert cells == [str(max(0, c["cost"] - v)) for c in table["colours"] for v in range(1, 7)]
    assert page.locator("[data-picture='threshold'] .sum.reward").count() == \
        table["rules"]["threshold"]
    assert page.locator("[data-picture='rewards'] .reward-tile").count() == \
        len(facts["bonus_tiles"]) + len(facts["vp_tiles"])
    # in German the pictures' labels are the game's German words too
    page.click("#rules-langs a[hreflang='de']")
    page.wait_for_selector("body[data-pictures='drawn']")
    costs = page.text_content("[data-picture='costs']")
    assert "Farbe (Preis)" in costs and "Colour (price)" not in costs


# -- help in place -----------------------------------------------------------------------------


def help_text(page: Any) -> str:
    page.wait_for_function("document.body.dataset.help !== undefined")
    text = page.evaluate("document.body.dataset.help")
    assert page.is_visible("#help-tip") and page.text_content("#help-tip") == text
    return text


def start_tutorial(page: Any, game: str) -> None:
    page.goto(page.base + "/")
    page.click(f"[data-tutorial='{game}']")
    page.wait_for_url("**/game/**")
    page.wait_for_selector("#tutorial[data-step='1']")


# the rules page's blocks (pictures, paragraphs, headings, lists) and, in each picture, its
# labels and its marks (rings, castles, icons), as boxes on the page
RULES_BOXES = """() => {
  const box = (e) => { const r = e.getBoundingClientRect();
    return { x: r.left, y: r.top + scrollY, w: r.width, h: r.height }; };
  const blocks = [...document.querySelectorAll('#rules-text > *')]
    .map((e) => ({ name: e.dataset.picture || e.tagName, ...box(e) }));
  const pictures = [...document.querySelectorAll('figure.rules-picture')].map((f) => ({
    name: f.dataset.picture, ...box(f),
    area: [...f.querySelectorAll('svg')].map(box),
    labels: [...f.querySelectorAll('svg text')].filter((t) => t.textContent.trim())
      .map((t) => ({ name: t.textContent, ...box(t) })),
    marks: [...f.querySelectorAll('svg .ring, svg .castle, svg .icon')]
      .map((m) => ({ name: m.getAttribute('class'), ...box(m) })) }));
  return { blocks, pictures, vh: innerHeight };
}"""


def _meet(a: dict[str, Any], b: dict[str, Any], by: float = 0.5) -> bool:
    return (min(a["x"] + a["w"], b["x"] + b["w"]) - max(a["x"], b["x"]) > by
            and min(a["y"] + a["h"], b["y"] + b["h"]) - max(a["y"], b["y"]) > by)


def _inside(a: dict[str, Any], b: dict[str, Any], by: float = 0.5) -> bool:
    return (a["x"] >= b["x"] - by and a["y"] >= b["y"] - by
            and a["x"] + a["w"] <= b["x"] + b["w"] + by and a["y"] + a["h"] <= b["y"] + b["h"] + by)


@pytest.mark.parametrize("lang", ["en", "de", "it"])
@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
@pytest.mark.parametrize("game", game_names("site", "rules"))
def test_the_rules_pictures_overlap_nothing_and_fit_the_screen(browser, server, game, size, lang):
    """No picture overlaps another or the text; in a picture no label overlaps another label or
    a mark (a ring, a castle, an icon), or runs out of its picture; no picture is 700 px tall,
    nor taller than three quarters of the screen."""
    phone = size[0] < 500
    context = browser.new_context(viewport={"width": size[0], "height": size[1]},
                                  is_mobile=phone, has_touch=phone)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(f"{server.base}/rules/{game}?lang={lang}")
        page.wait_for_selector("body[data-pictures='drawn']")
        page.wait_for_timeout(200)
        found = page.evaluate(RULES_BOXES)
        where = f"{game} {lang} {size[0]}x{size[1]}"
        blocks, pictures = found["blocks"], found["pictures"]
        assert len(pictures) >= 4, where
        for i, a in enumerate(blocks):
            for b in blocks[i + 1:]:
                assert not _meet(a, b), (where, a, b)
        for pic in pictures:
            assert pic["h"] < 700 and pic["h"] <= 0.75 * found["vh"], (where, pic["name"], pic["h"])
            labels = pic["labels"]
            for i, a in enumerate(labels):
                assert any(_inside(a, area) for area in pic["area"]), (where, pic["name"], a)
                for b in labels[i + 1:] + pic["marks"]:
                    assert not _meet(a, b), (where, pic["name"], a["name"], b["name"])
        shot(page, f"rules-{game}-{lang}-{'phone' if phone else 'desktop'}")
        assert not errors, errors
    finally:
        context.close()


def test_gonzaga_help_in_place_by_pointer_keyboard_and_touch(page):
    from tavola.games.gonzaga.text import card_help, card_name

    board = http_json(page.base + "/api/gonzaga/board")
    start_tutorial(page, "gonzaga")
    page.wait_for_selector("#action-cards [data-card='cities']")
    page.hover("#action-cards [data-card='cities']")
    assert help_text(page) == f"{card_name(None, 'cities')}: {card_help('cities')}."
    page.mouse.move(0, 0)
    page.wait_for_function("document.body.dataset.help === undefined")
    page.focus("#action-cards [data-card='harbors']")  # the keyboard
    assert help_text(page) == f"{card_name(None, 'harbors')}: {card_help('harbors')}."
    page.keyboard.press("Escape")
    city = board["cities"][0]
    symbol = next(s for s in board["symbols"] if s["id"] == city["symbol"])
    hexsel = f"#hexes .hex[data-hex='{city['at'][0]},{city['at'][1]}']"
    page.dispatch_event(hexsel, "pointerdown", {"pointerType": "touch"})  # a tap
    text = help_text(page)
    assert city["name"] in text and symbol["name"] in text and symbol["meaning"] in text
    harbor = board["harbors"][0]
    sea = next(s for s in board["seas"] if s["id"] == harbor["sea"])
    page.dispatch_event(f"#hexes .hex[data-hex='{harbor['at'][0]},{harbor['at'][1]}']",
                        "pointerdown", {"pointerType": "touch"})
    text = help_text(page)
    assert harbor["name"] in text and sea["name"] in text
    assert f" {LEAGUE_SIZE} harbors" in text


def test_signorie_help_in_place(page):
    table = http_json(page.base + "/api/signorie/table")
    start_tutorial(page, "signorie")
    first = table["colours"][0]
    page.hover(f"#dice .colour[data-colour='{first['id']}'] .colour-head")
    text = help_text(page)
    assert first["name"] in text and f"{first['cost']} florins" in text
    helper = table["colours"][0]["helpers"][0]
    page.focus(f".helper[data-helper='{helper['index']}']")
    assert helper["text"] in help_text(page)
    page.focus("#rewards .reward[data-round='1']")
    assert "round 1" in help_text(page)


def test_signorie_player_board_words_have_help_in_place(page):
    """Supply, stock, the threshold, the plan's rows and the brides: each explained where it
    is, with the game's own numbers."""
    table = http_json(page.base + "/api/signorie/table")
    rules = table["rules"]
    start_tutorial(page, "signorie")
    mine = ".player.mine"
    page.wait_for_selector(f"{mine} .stock")
    page.focus(f"{mine} .supply")
    assert "Supply" in help_text(page)
    page.focus(f"{mine} .stock")
    text = help_text(page)
    assert f"1 to {rules['offspring_female_max']}" in text
    assert f"{rules['offspring_female_max'] + 1} or more" in text
    page.focus(f"{mine} .threshold")
    text = help_text(page)
    assert f"threshold of {rules['threshold']}" in text
    assert f"up to {rules['threshold_max']}" in text
    row = page.locator(f"{mine} .plan-row").first
    row.focus()
    text = help_text(page)
    assert row.locator(".row-name").text_content() in text
    assert f"at least {rules['row_min']}" in text
    page.hover(f"{mine} .bride >> nth=0")
    assert f"worth {table['brides'][0]} VP" in help_text(page)
