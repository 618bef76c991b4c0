"""The board in a real browser (Debian's Chromium driven by Playwright): colours that colour-blind
players can tell apart, fiefs told apart, names a player can read, a layout that keeps the map
steady and in sight, and the favicon.

Games are brought to the wanted moment over a WebSocket (the person seat plays what the server
lists as best), then shown in the browser at laptop, large-screen and phone sizes.
"""

from __future__ import annotations

import itertools
import json
import math
import random
import re
from typing import Any

import pytest
from browsers import in_page, shot, wait_new_view
from colour_vision import MACHADO_2009, difference, hue
from websockets.sync.client import connect

from tavola.games.gonzaga.web.wire import choose
from tavola.web.loadbench import http_json

LAPTOP = {"width": 1280, "height": 800}
LARGE = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}
SQRT3 = math.sqrt(3)
AXIAL = [(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)]
# hue ranges (HSV degrees) that people call by these names
HUES = {"red": (345, 15), "yellow": (45, 65), "green": (90, 180), "blue": (190, 250)}


def new_game(server: Any, bots: list[str], seed: int, name: str = "Annabelle Fitzgerald"
             ) -> dict[str, Any]:
    seats = [{"kind": "person", "name": name}] + [
        {"kind": "bot", "bot": b, "name": n} for b, n in
        zip(bots, ["Bartholomew the Bold", "Cunegonde", "Dagobert"], strict=False)]
    return http_json(f"{server.base}/api/games", {"seats": seats, "seed": seed})


def play_until(server: Any, game: dict[str, Any], rounds: int) -> dict[str, Any]:
    """Play the person seat until its turn to place in round `rounds`; the view then."""
    token = game["seats"][0]["link"].split("#")[1]
    rng = random.Random(7)
    with connect(f"{server.ws}/ws/{game['id']}", max_size=1 << 24) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        waiting = False  # for the view that shows our own move
        while True:
            msg = json.loads(ws.recv(timeout=30))
            assert msg["type"] != "error", msg
            if msg["type"] != "state":
                continue
            if waiting:  # views sent before our move arrived still offer it: skip them
                if msg["last_player"] != 0:
                    continue
                waiting = False
            if not msg["legal"]:
                continue
            if msg["round"] >= rounds and msg["legal"]["kind"] == "place":
                return msg
            ws.send(json.dumps({"type": "act", "seq": msg["seq"], "action": choose(msg, rng)}))
            waiting = True


@pytest.fixture(scope="module")
def busy_game(server: Any) -> dict[str, Any]:
    """Four players, five rounds in: fiefs of every colour on the map, two of one player side by
    side (seed 12)."""
    game = new_game(server, ["greedy", "greedy", "random"], seed=12)
    play_until(server, game, rounds=5)
    return game


def open_game(browser: Any, server: Any, game: dict[str, Any], viewport: dict[str, int],
              phone: bool = False) -> Any:
    page = browser.new_page(viewport=viewport, is_mobile=phone, has_touch=phone)
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(f"{server.base}{game['seats'][0]['link']}")
    page.wait_for_selector("#mode-fief, #plan-go")
    page.wait_for_function("document.querySelectorAll('#place-names text').length > 0")
    page.wait_for_timeout(200)  # the names are laid out on the next frame after a resize
    return page


# ---------------------------------------------------------------------------------------------
# 1. colours, patterns and outlines

PIECE_LOOKS = """() => {
  const fill = (node) => {  // a pattern's ground colour, or the fill itself
    const f = getComputedStyle(node).fill;
    const id = (f.match(/url\\("?#([^")]+)"?\\)/) || [])[1];
    if (!id) return { colour: f, pattern: null };
    const pat = document.getElementById(id);
    return { colour: getComputedStyle(pat.querySelector('rect')).fill,
             pattern: pat.querySelector('.pattern-ink').getAttribute('d') };
  };
  const pieces = [...document.querySelectorAll('#pieces [data-piece]')].map((g) => {
    const shape = g.matches('[data-piece=fief]') ? g.querySelector('.piece') : g;
    const outline = g.querySelector('.fief-outline');
    return { kind: g.dataset.piece, owner: Number(g.dataset.owner), ...fill(shape),
             outline: outline && getComputedStyle(outline).stroke };
  });
  const regions = {};
  for (const h of document.querySelectorAll('#hexes polygon.hex')) {
    const hex = ui.byHex.get(h.dataset.hex);
    if (hex.region) regions[hex.region] = getComputedStyle(h).fill;
  }
  const key = [...document.querySelectorAll('#map-key [data-colour]')].map((k) => k.textContent);
  return { pieces, regions, key, players: ui.view.players.map((p) => [p.name, p.colour]) };
}"""


def luminance(colour: str) -> float:
    from colour_vision import seen_as
    return seen_as(colour, "normal vision")[0]


def test_player_colours_stay_apart_for_colour_blind_players(server, browser, busy_game):
    page = open_game(browser, server, busy_game, LAPTOP)
    looks = page.evaluate(in_page(PIECE_LOOKS))
    shot(page, "board-colours")
    players = looks["players"]
    colours: dict[int, str] = {}
    patterns: dict[int, str] = {}
    for piece in looks["pieces"]:
        colours.setdefault(piece["owner"], piece["colour"])
        assert colours[piece["owner"]] == piece["colour"]  # one colour per player
        assert piece["pattern"], "every piece carries its owner's pattern"
        patterns.setdefault(piece["owner"], piece["pattern"])
        assert patterns[piece["owner"]] == piece["pattern"]
        if piece["kind"] == "fief":
            assert luminance(piece["outline"]) < 15  # a dark outline around every fief
    assert sorted(colours) == [0, 1, 2, 3]
    # the second cue, which needs no colour vision: four different patterns
    assert len(set(patterns.values())) == 4
    for vision in MACHADO_2009:  # normal vision, protanopia, deuteranopia
        for a, b in itertools.combinations(colours.values(), 2):
            assert difference(a, b, vision) >= 20, (vision, a, b)
        for seat, colour in colours.items():
            for region, fill in looks["regions"].items():
                assert difference(colour, fill, vision) >= 15, (vision, players[seat], region)
    # the colour names players read (map key, the rules' messages) say what they see
    for seat, (name, colour) in enumerate(players):
        lo, hi = HUES[colour]
        h = hue(colours[seat])
        assert (lo <= h <= hi) if lo < hi else (h >= lo or h <= hi), (colour, colours[seat])
        assert f"{name}: {colour.title()}" in looks["key"]
    assert page.errors == []
    page.close()


Segment = tuple[tuple[float, float], tuple[float, float]]


def segment(a: tuple[float, float], b: tuple[float, float]) -> Segment:
    return (a, b) if a <= b else (b, a)


def boundary(hexes: list[list[int]]) -> tuple[list[Segment], list[Segment]]:
    """The outline edges of a set of hexes and the edges between two of them."""
    keys = {(c, r) for c, r in hexes}
    outline, inner = [], []
    for c, r in keys:
        q = c - (r - (r & 1)) // 2
        x, y = SQRT3 * (c + 0.5 * (r & 1)), 1.5 * r
        corner = [(x + math.cos(math.radians(30 + 60 * i)), y + math.sin(math.radians(30 + 60 * i)))
                  for i in range(6)]
        for i, (dq, dr) in enumerate(AXIAL):
            nr = r + dr
            n = (q + dq + (nr - (nr & 1)) // 2, nr)
            (inner if n in keys else outline).append(segment(corner[(i + 5) % 6], corner[i]))
    return outline, inner


def drawn_segments(d: str) -> list[Segment]:
    nums = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", d)]
    assert d.count("M") * 4 == len(nums)  # straight segments only: M x,y L x,y
    return [segment((nums[i], nums[i + 1]), (nums[i + 2], nums[i + 3]))
            for i in range(0, len(nums), 4)]


def same(a: Segment, b: Segment) -> bool:
    return all(abs(u - v) < 0.01
               for p, q in zip(a, b, strict=True) for u, v in zip(p, q, strict=True))


def matches(drawn: list[Segment], wanted: list[Segment]) -> bool:
    """Every drawn segment is one wanted, and every wanted one is drawn."""
    return (all(any(same(d, w) for w in wanted) for d in drawn)
            and all(any(same(d, w) for d in drawn) for w in wanted))


def test_each_fief_has_its_own_outline(server, browser, busy_game):
    """An outline around each fief's hexes and never between them: two fiefs of one colour side by
    side are still two, so players can count the groups for the Gonzaga tile."""
    page = open_game(browser, server, busy_game, LAPTOP)
    fiefs = page.evaluate(in_page("""() => [
      ...document.querySelectorAll('#pieces [data-piece=fief]')]
      .map((g, i) => ({ owner: g.dataset.owner,
                        d: g.querySelector('.fief-outline').getAttribute('d'),
                        hexes: ui.view.pieces.filter((p) => p.kind === 'fief')[i].hexes }))"""))
    assert len(fiefs) >= 8
    for fief in fiefs:
        outline, inner = boundary(fief["hexes"])
        drawn = drawn_segments(fief["d"])
        assert len(drawn) == len(outline) and matches(drawn, outline)
        assert not any(same(d, i) for d in drawn for i in inner)
    # somewhere two fiefs of one player touch: their shared edge is drawn, by both
    touching = 0
    for a, b in itertools.combinations(fiefs, 2):
        if a["owner"] == b["owner"]:
            touching += any(same(s, t) for s in drawn_segments(a["d"])
                            for t in drawn_segments(b["d"]))
    assert touching >= 1
    page.close()


# ---------------------------------------------------------------------------------------------
# 2. names, seals, inactive regions

NAME_BOXES = """() => {
  const svg = document.getElementById('board');
  const scale = svg.getScreenCTM().a;
  return [...svg.querySelectorAll('text.name')].filter((t) => t.getClientRects().length)
    .map((t) => { const r = t.getBoundingClientRect();
      return { text: t.textContent, place: t.dataset.place || null,
               area: t.classList.contains('regionname') ? 'region' : null,
               px: parseFloat(getComputedStyle(t).fontSize) * scale,
               x: r.left, y: r.top, w: r.width, h: r.height }; });
}"""


def check_names(page: Any, where: str) -> None:
    names = page.evaluate(NAME_BOXES)
    places = [n for n in names if n["place"]]
    assert len(places) == page.evaluate(in_page("ui.board.cities.length + ui.board.harbors.length"))
    for n in places:  # readable: 11 CSS pixels at least
        assert n["px"] >= 11 and n["h"] >= 11, (where, n)
    for a, b in itertools.combinations(names, 2):
        w = min(a["x"] + a["w"], b["x"] + b["w"]) - max(a["x"], b["x"])
        h = min(a["y"] + a["h"], b["y"] + b["h"]) - max(a["y"], b["y"])
        assert w <= 0.5 or h <= 0.5, (where, a["text"], b["text"])


def test_every_name_is_readable_and_none_overlaps(server, browser, busy_game):
    page = open_game(browser, server, busy_game, LAPTOP)
    check_names(page, "laptop")
    page.close()
    page = open_game(browser, server, busy_game, LARGE)
    check_names(page, "large screen")
    page.close()
    phone = open_game(browser, server, busy_game, PHONE, phone=True)
    phone.click("#zoom-in")  # one zoom step
    phone.wait_for_timeout(300)
    check_names(phone, "phone, zoomed in once")
    shot(phone, "board-phone-zoomed")
    phone.close()


@pytest.mark.parametrize("lang", ["it", "en", "de"])
@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_region_names_stand_apart_in_every_language(server, browser, busy_game, lang, size):
    """Every region's name is on the map, and no region name touches another name: a word space
    (a third of its height) at least lies between them (in Italian GERMANIA and EUROPA
    ORIENTALIS once ran together on one line)."""
    phone = size == "phone"
    context = browser.new_context(locale=lang, viewport=PHONE if phone else LAPTOP,
                                  is_mobile=phone, has_touch=phone)
    page = context.new_page()
    page.goto(f"{server.base}{busy_game['seats'][0]['link']}")
    page.wait_for_function("document.querySelectorAll('#area-names .regionname').length > 0")
    page.wait_for_timeout(300)  # the names are laid out on the next frame after a resize
    assert page.evaluate("document.documentElement.lang") == lang
    names = page.evaluate(NAME_BOXES)
    regions = [n for n in names if n["area"] == "region"]
    assert len(regions) == page.evaluate(in_page("ui.board.regions.length")), regions
    for a in regions:
        space = a["h"] / 3
        for b in names:
            if b is a:
                continue
            w = min(a["x"] + a["w"], b["x"] + b["w"]) - max(a["x"], b["x"])
            h = min(a["y"] + a["h"], b["y"] + b["h"]) - max(a["y"], b["y"])
            assert w <= -space or h <= -space, (lang, size, a["text"], b["text"], w, h)
    shot(page, f"board-region-names-{lang}-{size}")
    context.close()


def test_seals_leave_the_playable_hexes_free(server, browser, busy_game):
    page = open_game(browser, server, busy_game, LAPTOP)
    covered = page.evaluate(in_page("""() => {
      const ctm = document.getElementById('board').getScreenCTM();
      const land = ui.board.hexes.filter((h) => h.region)
        .map((h) => [ctm.a * h.x + ctm.e, ctm.d * h.y + ctm.f]);
      return [...document.querySelectorAll('[data-seal]')].map((s) => {
        const r = s.getBoundingClientRect();
        const inside = ([x, y]) => x > r.left && x < r.right && y > r.top && y < r.bottom;
        return [s.dataset.seal, land.filter(inside).length];
      });
    }"""))
    assert len(covered) == 6
    assert all(n == 0 for _, n in covered), covered
    page.close()


def test_inactive_regions_look_part_of_the_board_but_out_of_play(server, browser, busy_game):
    page = open_game(browser, server, busy_game, LAPTOP)
    info = page.evaluate(in_page("""() => {
      const inactive = ui.view.scenario.inactive;
      const hatch = [...document.querySelectorAll('.inactive-hatch[data-region]')];
      const fills = {};
      for (const h of document.querySelectorAll('#hexes polygon.hex.inactive')) {
        fills[ui.byHex.get(h.dataset.hex).region] = getComputedStyle(h).fill;
      }
      const key = document.getElementById('key-inactive');
      const outside = document.querySelector('#hexes .outside');
      return { inactive, hatched: hatch.map((h) => h.dataset.region),
               hexes: ui.board.hexes.filter((h) => inactive.includes(h.region)).length,
               fills, keyText: key && key.textContent,
               keyHatch: key && !!key.querySelector('[fill="url(#hatch-inactive)"]'),
               hatchFill: hatch.length ? hatch[0].getAttribute('fill') : null,
               outside: getComputedStyle(outside).fill,
               outsideStroke: getComputedStyle(outside).stroke,
               offKey: !!document.getElementById('key-outside') };
    }"""))
    assert info["inactive"]
    # every hex of an inactive region is hatched, and only those
    assert len(info["hatched"]) == info["hexes"] and set(info["hatched"]) == set(info["inactive"])
    assert info["hatchFill"] == "url(#hatch-inactive)" and info["keyHatch"]
    names = page.evaluate(in_page("ui.view.scenario.inactive"
                          ".map((r) => ui.board.regions.find((x) => x.id === r).name)"))
    assert "Inactive" in info["keyText"] and all(n in info["keyText"] for n in names)
    # land off the board: another colour, no hex outlines, its own entry in the key
    for fill in info["fills"].values():
        assert difference(fill, info["outside"], "normal vision") >= 10
    assert info["outsideStroke"] == info["outside"] and info["offKey"]
    page.close()


# ---------------------------------------------------------------------------------------------
# 3. layout


def test_a_large_screen_uses_its_width(server, browser, busy_game):
    page = open_game(browser, server, busy_game, LARGE)
    shot(page, "board-large-screen")
    m = page.evaluate("""() => {
      const svg = document.getElementById('board');
      const vb = svg.viewBox.baseVal, ctm = svg.getScreenCTM();
      const area = document.getElementById('board-scroll').getBoundingClientRect();
      const side = document.getElementById('side').getBoundingClientRect();
      const lines = (node) => {  // lines taken by a text node
        const range = document.createRange(); range.selectNodeContents(node);
        return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
      };
      const names = [...document.querySelectorAll('#players tbody tr[data-seat] td:first-child')]
        .map((td) => [...td.childNodes].filter((n) => n.nodeType === 3)).flat().map(lines);
      const track = document.getElementById('track').closest('.card').getBoundingClientRect();
      const cut = [...document.querySelectorAll('#track span')]
        .filter((s) => s.scrollWidth > s.clientWidth + 1).length;
      return { map: vb.width * ctm.a, mapH: vb.height * ctm.a, area: [area.width, area.height],
               side: side.width, names, track: [track.top, track.bottom, track.right], cut,
               vw: innerWidth, vh: innerHeight };
    }""")
    assert m["map"] >= 0.95 * m["area"][0]  # no wide margins beside the map
    assert m["mapH"] >= 0.9 * m["area"][1]
    assert m["area"][0] + m["side"] >= m["vw"] - 2
    assert len(m["names"]) == 4 and max(m["names"]) <= 2  # no name over more than two lines
    top, bottom, right = m["track"]
    assert top >= 0 and bottom <= m["vh"] and right <= m["vw"] and m["cut"] == 0
    page.close()


def test_a_spectator_on_a_large_screen_sees_no_empty_block(server, browser, busy_game):
    """At 1920x1080 the chat sits under the spectator's panels, not in a row of its own below
    the taller column (which left half the side empty)."""
    page = browser.new_page(viewport=LARGE)
    page.goto(f"{server.base}/game/{busy_game['id']}#watch")
    page.wait_for_selector("#chat h3")
    page.wait_for_timeout(200)
    gap = page.evaluate("""() => {
      const above = [...document.querySelectorAll('#you, #actions')]
        .filter((e) => !e.hidden).map((e) => e.getBoundingClientRect().bottom);
      return document.getElementById('chat').getBoundingClientRect().top - Math.max(...above);
    }""")
    shot(page, "board-spectator-large")
    assert 0 <= gap < 40, gap
    page.close()


def board_box(page: Any) -> list[float]:
    return page.evaluate("(() => { const r = document.getElementById('board')"
                         ".getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; })()")


def test_the_map_keeps_its_size_when_placing_and_hovering(server, browser):
    game = new_game(server, ["greedy"], seed=13)
    page = open_game(browser, server, game, LAPTOP)
    page.wait_for_selector("#plan-go")
    before = board_box(page)
    page.click("#region-cards button:not([disabled])")
    page.click("#action-cards button:not([disabled]):not(#privilege)")
    page.click("#plan-go")
    page.wait_for_selector("#place-bar:not([hidden])")
    assert board_box(page) == before  # the placing bar appeared
    hexes = page.evaluate(in_page(
        "ui.board.hexes.filter((h) => h.region).map((h) => h.at.join(','))"))
    for key in hexes[::40]:
        page.hover(f"#board [data-hex='{key}']", force=True)
        page.wait_for_timeout(150)  # the points (or the rule broken) arrive from the server
        assert board_box(page) == before, key
    page.close()


@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_my_turn_to_place_shows_the_map_and_the_reveal_banner_goes(server, browser, size):
    """The reveal's banner never covers the zoom buttons and is gone when the next round starts;
    on a phone the map comes into sight for the turn and the hint speaks of buttons and taps."""
    phone = size == "phone"
    game = new_game(server, ["greedy"], seed=17, name="Ann")
    page = open_game(browser, server, game, PHONE if phone else LAPTOP, phone=phone)
    page.wait_for_selector("#plan-go")
    page.click("#region-cards button:not([disabled])")
    page.click("#action-cards button:not([disabled]):not(#privilege)")
    page.click("#plan-go")  # on a phone the plan button is far below the map
    page.wait_for_function("document.querySelector('#toast').textContent"
                           ".includes('Plans revealed')")
    page.wait_for_selector("#mode-fief")
    boxes = page.evaluate(in_page("""() => {
      const box = (id) => {
        const r = document.getElementById(id).getBoundingClientRect();
        return [r.left, r.top, r.right, r.bottom];
      };
      return { toast: document.getElementById('toast').hidden ? null : box('toast'),
               zoom: [box('zoom-in'), box('zoom-out')], map: box('board-scroll'),
               bar: box('place-bar'), vh: innerHeight,
               header: document.getElementById('top').getBoundingClientRect().bottom };
    }"""))
    if boxes["toast"]:
        left, top, right, bottom = boxes["toast"]
        for zl, zt, zr, zb in boxes["zoom"]:
            assert right <= zl or left >= zr or bottom <= zt or top >= zb
        assert bottom - top < boxes["vh"] * 0.2  # a banner, not a curtain over the screen
        # a tap on the banner reaches what lies under it
        under = page.evaluate(f"document.elementFromPoint({(left + right) / 2}, "
                              f"{(top + bottom) / 2}).id")
        assert under != "toast"
    shot(page, f"board-turn-{size}")
    # the map and the bar under it are in sight, below the header
    assert boxes["map"][1] >= boxes["header"] - 1 and boxes["bar"][3] <= boxes["vh"] + 1
    if phone:
        hint = page.inner_text("#actions") + " " + page.inner_text("#place-bar")
        assert "Tap" in hint or "tap" in hint
        assert not re.search(r"\b(R|Enter|Esc|Escape|Shift)\b|wheel|keyboard|key\b", hint), hint
    seq = int(page.evaluate("document.body.dataset.seq"))
    best = page.query_selector("#best a")
    if best:
        best.click()
        page.click("#confirm")
    else:
        page.once("dialog", lambda d: d.accept())
        page.click("#donate")
    wait_new_view(page, seq)
    page.wait_for_function("document.body.dataset.phase === 'planning'")
    banner = page.evaluate("(() => { const t = document.querySelector('#toast');"
                           " return t.hidden ? '' : t.textContent; })()")
    assert "Plans revealed" not in banner
    assert page.errors == []
    page.close()


# ---------------------------------------------------------------------------------------------
# 4. favicon


def test_the_favicon_is_served_and_linked(server, browser):
    page = browser.new_page()
    page.goto(f"{server.base}/")
    href = page.get_attribute("link[rel='icon']", "href")
    assert href
    for path in (href, "/favicon.ico"):
        r = page.request.get(f"{server.base}{path}")
        assert r.status == 200 and r.headers["content-type"].startswith("image/"), path
        assert "<svg" in r.text()
    page.close()
