"""Signorie's table laid out in a real browser, on a phone (390 x 844), a tablet (800 x 900)
and a desktop (1280 x 900): German words stay inside the helper boxes and the header, a city's
tile keeps its label, the city slots are drawn as the board prints them."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from test_signorie_browser import server
from test_signorie_web import create

__all__ = ["server"]  # the module's fixture, shared

SIZES = [(390, 844), (800, 900), (1280, 900)]

#: each visible element of the header and of the helper boxes whose text runs past its own box,
#: past its helper box or past the screen's edge
OVERFLOWS = """() => {
  const out = [], right = innerWidth + 0.5;
  const header = document.querySelector("header").getBoundingClientRect();
  const seen = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== "hidden";
  for (const e of document.querySelectorAll("header, header *, .helpers *")) {
    if (!seen(e) || e.closest("select")) continue;
    const r = e.getBoundingClientRect(), box = e.closest(".helper");
    const edge = box ? box.getBoundingClientRect() : { left: 0, right };
    const what = `${e.tagName}.${e.className} '${e.textContent.slice(0, 40)}'`;
    if (getComputedStyle(e).display !== "inline" && e.scrollWidth > e.clientWidth) {
      out.push(`${what}: ${e.scrollWidth} > ${e.clientWidth}`);
    }
    if (r.left < edge.left - 0.5 || r.right > edge.right + 0.5) {
      out.push(`${what}: ${r.left}-${r.right} outside ${edge.left}-${edge.right}`);
    }
    const under = r.top < header.top - 0.5 || r.bottom > header.bottom + 0.5;
    if (e.closest("header") && under) out.push(`${what}: below the header`);
  }
  return out;
}"""


def open_in(browser: Any, server: Any, lang: str, size: tuple[int, int],
            timed: bool = False) -> tuple[Any, Any]:
    """Seat 0's page; `timed`: in a game with a day per move, whose header shows the clock."""
    extra = {"timing": {"move_seconds": 86400, "misses": 3}} if timed else {}
    game = create(server, [{"kind": "person", "name": "Annamaria"},
                           {"kind": "bot", "bot": "random", "name": "Bea"}], **extra)
    context = browser.new_context(viewport={"width": size[0], "height": size[1]},
                                  extra_http_headers={"Accept-Language": lang})
    page = context.new_page()
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(server.base + game["seats"][0]["link"])
    page.wait_for_selector(".player .helper", timeout=15000)
    page.wait_for_function("document.querySelector('#status').textContent", timeout=15000)
    assert page.evaluate("document.documentElement.lang") == lang  # hyphenation follows it
    return context, page


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}px")
def test_german_words_stay_inside_the_helper_boxes_and_the_header(server, browser, size):
    context, page = open_in(browser, server, "de", size, timed=True)
    page.wait_for_function("document.querySelector('#turn-clock').textContent", timeout=15000)
    assert "Allianzplättchen" in page.inner_text(".player .helpers")  # the long German words
    assert page.evaluate(OVERFLOWS) == []
    # the sticky header leaves the screen to the table: its status is never a word a line
    assert page.evaluate("document.querySelector('header').offsetHeight") <= size[1] / 6
    assert page.errors == []
    context.close()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}px")
def test_a_city_tile_stays_on_the_line_of_its_label_in_italian(server, browser, size):
    """"Missione" and its tile "Borgia 3" are read together: never a line apart."""
    context, page = open_in(browser, server, "it", size)
    pairs = page.eval_on_selector_all(".city .tile", """chips => chips.map((chip) => {
      const label = chip.previousElementSibling;
      const a = label.getBoundingClientRect(), b = chip.getBoundingClientRect();
      return [label.textContent.trim(), chip.textContent, a.top + a.height / 2,
              b.top + b.height / 2, b.height, chip.getClientRects().length];
    })""")
    assert {label for label, *_ in pairs} == {"Matrimonio", "Missione"}
    apart = [p for p in pairs if abs(p[2] - p[3]) > p[4] / 2 or p[5] != 1]
    assert apart == []
    assert page.errors == []
    context.close()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}px")
def test_a_citys_slots_are_two_rows_of_four_as_printed(server, browser, size):
    context, page = open_in(browser, server, "en", size)
    cities = page.eval_on_selector_all(".city", """cities => cities.map((c) =>
      [...c.querySelectorAll(".slot")].map((s) => {
        const r = s.getBoundingClientRect();
        return [Math.round(r.top), Math.round(r.left), s.querySelector(".value").textContent];
      }))""")
    assert len(cities) >= 3
    for slots in cities:
        rows = Counter(top for top, _, _ in slots)
        assert sorted(rows.values()) == [4, 4], slots
        values = [[v for _, v in sorted(s[1:] for s in slots if s[0] == top)]
                  for top in sorted(rows)]
        assert values == [["1", "2", "3", "4"]] * 2, slots
    assert page.errors == []
    context.close()
