"""Gonzaga's map editor and its editions in a real browser (Debian's Chromium driven by
Playwright): a person breaks a rule of the board and repairs it, sees the finding on the map
come and go, and a game on an edition's board is drawn, played with a bot to the end and its
record verifies anywhere."""

from __future__ import annotations

import asyncio
import copy
import json
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from browsers import in_page, shot
from test_web_restart import play_until
from test_web_server import Client
from web_server import Server, launch

from tavola.games.gonzaga.board import load_board
from tavola.games.gonzaga.edition import EDITIONS
from tavola.games.gonzaga.record import verify_record
from tavola.web.app import GameServer, Limits
from tavola.web.loadbench import http_json
from tavola.web.room import GameParams, Seat
from tavola.web.site import load_sites
from tavola.web.storage import open_store

PHONE = {"width": 390, "height": 844}


def edition() -> dict[str, Any]:
    data = copy.deepcopy(load_board().raw)
    data["name"] = "Printed edition (transcribed)"
    data["cities"][0]["name"] = "Lisboa"
    for city in data["cities"]:  # a name of its own, which no catalog translates
        if city["id"] == "edinburgh":
            city["name"] = "Edimburgo"
    return data


def mount(page: Any, data: dict[str, Any]) -> float:
    """The editor on a page of the site, its host checking each change as the platform would
    (here: the test answers with the edition kind's findings). Returns the milliseconds from
    mounting to the map drawn."""
    return page.evaluate("""async (data) => {
      const { mountEditor } = await import("/static/gonzaga/editor.js");
      document.body.replaceChildren();
      const root = document.createElement("section");
      document.body.append(root);
      window.changes = 0;
      const started = performance.now();
      window.editor = mountEditor(root, data, { changed() { window.changes++; }, t: (x) => x,
                                                game: "gonzaga" });
      while (!root.dataset.drawn) await new Promise((r) => setTimeout(r, 10));
      return performance.now() - started;
    }""", data)


def redrawn(page: Any, action: Any) -> None:
    """Do `action`, then wait for the editor's map to be drawn again (on a later frame)."""
    before = page.evaluate("+document.querySelector('.ged').dataset.drawn")
    action()
    page.wait_for_function(f"+document.querySelector('.ged').dataset.drawn > {before}")


def findings_now(page: Any) -> list[dict[str, Any]]:
    """What the platform's check gives for the editor's data, shown on its map."""
    found = [f.as_json() for f in EDITIONS.check(page.evaluate("editor.current()"))]
    redrawn(page, lambda: page.evaluate("(f) => editor.showFindings(f)", found))
    return found


def marked(page: Any) -> set[str]:
    return set(page.evaluate(
        "[...document.querySelectorAll('.ged-finding')].map((e) => e.dataset.finding)"))


def test_breaking_and_repairing_a_rule_shows_and_clears_its_finding(server: Server,
                                                                    browser: Any) -> None:
    page = browser.new_page(viewport=PHONE)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.base + "/")
    drawn_ms = mount(page, load_board().raw)
    assert findings_now(page) == [] and marked(page) == set()
    # the city on the first city's hex is taken away with the keyboard: cursor, then Delete
    city = load_board().model.cities[0]
    c, r = city.at
    page.evaluate("([c, r]) => editor.focus({message: '', where: '', marks: [`hex:${c},${r}`]})",
                  [c, r])  # the cursor on the city's hex
    page.keyboard.press("Delete")
    assert page.evaluate("changes") >= 1
    found = findings_now(page)
    region = load_board().regions[city.region].name  # the findings name it as the file does
    four = [f for f in found if f"Region {region} must have 4 cities" in f["message"]]
    assert four and four[0]["where"].startswith("/regions/")
    assert marked(page) >= {m.removeprefix("hex:") for m in four[0]["marks"]}
    page.evaluate("(f) => editor.focus(f)", four[0])
    assert page.evaluate("document.querySelectorAll('.ged-finding.focused').length") >= 1
    shot(page, "gonzaga-editor-finding")
    # repaired: a city again on that hex, with its symbol and its name
    page.keyboard.press("c")
    page.evaluate("([c, r]) => editor.focus({message: '', where: '', marks: [`hex:${c},${r}`]})",
                  [c, r])
    page.select_option("#ged-symbol", city.symbol)
    page.keyboard.press("Enter")
    page.fill("#ged-place-name", city.name)
    page.press("#ged-place-name", "Enter")
    data = page.evaluate("editor.current()")
    assert next(x for x in data["cities"] if x["at"] == [c, r])["symbol"] == city.symbol
    assert findings_now(page) == [] and marked(page) == set()
    assert errors == []
    print(f"\neditor on a phone viewport: map drawn {drawn_ms:.0f} ms after mounting")


def test_barriers_seals_the_church_and_an_empty_grid(server: Server, browser: Any) -> None:
    """Each tool changes what it says in the board file, on the keyboard and with the mouse."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(server.base + "/")
    mount(page, load_board().raw)
    board = load_board()
    inner = next(h for h in range(board.hex_count) if board.region_of[h] == "hispania"
                 and all(board.region_of[n] == "hispania" for n in board.neighbours[h]))
    c, r = board.coords[inner]
    page.evaluate("([c, r]) => editor.focus({message: '', where: '', marks: [`hex:${c},${r}`]})",
                  [c, r])
    page.keyboard.press("b")
    page.keyboard.press("1")  # the side towards the lower right: inside Hispania
    found = findings_now(page)
    inside = [f for f in found if "must lie on a border" in f["message"]]
    assert len(inside) == 1 and f"hex:{c},{r}" in inside[0]["marks"]
    assert marked(page) == {m.removeprefix("hex:") for m in inside[0]["marks"]}
    page.keyboard.press("1")  # the same side again: the barrier goes
    assert findings_now(page) == []
    page.keyboard.press("g")  # Hispania's seal, on the cursor's hex
    page.keyboard.press("Enter")
    page.keyboard.press("k")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")  # the church, one hex further east
    data = page.evaluate("editor.current()")
    x, y = board.centre(inner)
    assert data["regions"][0]["seal"] == {"x": round(x, 2), "y": round(y, 2)}
    x, y = board.centre(board.index_of[(c + 1, r)])
    assert data["church"] == {"x": round(x, 2), "y": round(y, 2)}
    harbor = board.model.harbors[0]  # selected, its sea shown and changed
    page.click('[data-tool="harbor"]')
    redrawn(page, lambda: page.click(f'.ged-cell[data-at="{harbor.at[0]},{harbor.at[1]}"]'))
    assert page.input_value("#ged-sea") == harbor.sea
    other = next(s.id for s in board.model.seas if s.id != harbor.sea)
    page.select_option("#ged-sea", other)
    assert page.evaluate("editor.current().harbors[0].sea") == other
    found = findings_now(page)
    named = board.seas[other].name
    assert any(f"Sea {named} must have 4 harbors" in f["message"] for f in found), found
    page.click(".ged-start summary")  # the grid's tools, folded away at first
    page.click("text=Start from an empty grid")
    data = page.evaluate("editor.current()")
    assert data["cities"] == [] and data["harbors"] == []
    assert all(set(line) == set(data["terrain"][0]) for line in data["terrain"])
    assert any("no playable hex" in f["message"] for f in findings_now(page))
    page.fill("#ged-columns", "40")  # the printed grid's size
    page.fill("#ged-rows", "44")
    redrawn(page, lambda: page.press("#ged-rows", "Enter"))
    data = page.evaluate("editor.current()")
    assert (data["columns"], data["rows"]) == (40, 44) and len(data["terrain"]) == 44
    assert {len(line) for line in data["terrain"]} == {40}
    assert page.evaluate("document.querySelectorAll('.ged-cell').length") == 40 * 44
    page.click("text=Start from the reconstruction")
    page.wait_for_function("editor.current().cities.length === 24")
    assert findings_now(page) == []


def test_the_editor_loads_quickly_on_a_phone(server: Server, browser: Any) -> None:
    """From navigation to the map drawn, on a phone-sized viewport (reported, with a wide
    bound for a loaded machine)."""
    page = browser.new_page(viewport=PHONE)
    started = time.perf_counter()
    page.goto(server.base + "/")
    mount(page, load_board().raw)
    elapsed = time.perf_counter() - started
    width = page.evaluate("document.querySelector('#board').getBoundingClientRect().width")
    assert 300 < width <= 390  # the map fits the phone's width
    print(f"\neditor load on a phone viewport: {elapsed * 1000:.0f} ms from navigation")
    assert elapsed < 20


def test_a_photo_lies_under_the_grid_and_stays_in_the_browser(server: Server,
                                                               browser: Any) -> None:
    page = browser.new_page(viewport=PHONE)
    page.goto(server.base + "/")
    mount(page, load_board().raw)
    sent: list[str] = []
    page.on("request", lambda r: sent.append(f"{r.method} {r.url}"))
    png = (Path(__file__).resolve().parents[2] / "docs" / "board.png").read_bytes()
    page.click("text=Photo of your board")
    page.set_input_files("#ged-photo-file", files=[{"name": "my-board.png",
                                                    "mimeType": "image/png", "buffer": png}])
    page.wait_for_function("document.querySelector('.ged-photo').complete "
                           "&& !document.querySelector('.ged-photo').hidden")
    assert page.evaluate("document.querySelector('.ged-photo').src").startswith("blob:")
    page.fill("#ged-photo-opacity", "0.8")
    page.dispatch_event("#ged-photo-opacity", "input")
    assert page.evaluate("document.querySelector('.ged-photo').style.opacity") == "0.8"
    assert page.evaluate("document.querySelector('.ged').classList.contains('tracing')")
    assert [r for r in sent if not r.startswith("GET ")] == []  # nothing uploaded
    # a scenario tile's words are edited in its row
    page.click("text=Scenario tiles")
    page.fill('[data-scenario="0"] input[aria-label="Person"]', "Isabella d'Este")
    page.press('[data-scenario="0"] input[aria-label="Person"]', "Enter")
    assert page.evaluate("editor.current().scenarios[0].person") == "Isabella d'Este"
    # a finding on a fief opens its card
    page.evaluate("editor.focus({message: 'x', where: '/fiefs/3/castles', marks: []})")
    assert page.evaluate("document.querySelector('.ged-fiefs').open")
    assert page.evaluate("document.querySelector('[data-fief=\"3\"]')"
                         ".classList.contains('ged-part-focused')")


# -- through the platform's editor page -------------------------------------------------------


@pytest.fixture(scope="module")
def relaxed() -> Iterator[Server]:
    """A server whose limits let one test sign up and check after every change."""
    from tempfile import TemporaryDirectory

    from test_accounts import RELAXED

    with TemporaryDirectory() as tmp:
        srv = launch(Path(tmp) / "games.db", limits=RELAXED)
        try:
            yield srv
        finally:
            srv.stop()


def test_an_edition_is_made_on_the_map_saved_and_played_to_a_verified_record(
        relaxed: Server, browser: Any) -> None:
    """In the editor page: a city taken away (the finding appears in the list and on the map,
    the list's entry pans to it), put back (both go), the edition saved, a game created on it
    from the lobby with bots, played to the end, and its record verifies."""
    base = relaxed.base
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{base}/account")
    page.fill("#sign-up-name", "cartographer")
    page.fill("#sign-up-password", "a long enough secret")
    page.click("#sign-up")
    page.wait_for_url(f"{base}/")
    page.goto(f"{base}/editions/edit?game=gonzaga")
    page.wait_for_selector(".ged[data-drawn]")
    page.wait_for_selector("#edition-no-findings")
    city = load_board().model.cities[0]
    c, r = city.at
    page.click('[data-tool="city"]')
    page.click(f'.ged-cell[data-at="{c},{r}"]')  # selects the city there
    page.click("#ged-place-remove")
    region = load_board().regions[city.region].name
    finding = page.locator(".finding", has_text=f"Region {region} must have 4 cities")
    finding.wait_for()
    page.wait_for_selector(".ged-finding")
    finding.click()  # the map pans to it
    page.wait_for_selector(".ged-finding.focused")
    page.click(f'.ged-cell[data-at="{c},{r}"]')  # a new city on that hex
    page.select_option("#ged-symbol", city.symbol)
    page.fill("#ged-place-name", "Olisipo")
    page.press("#ged-place-name", "Enter")
    page.wait_for_selector("#edition-no-findings")
    page.wait_for_function("!document.querySelector('.ged-finding')")
    page.fill("#edition-name", "My box")
    page.click("#edition-save")
    page.wait_for_selector("#edition-play:not([hidden])")
    page.click("#edition-play")
    page.wait_for_function("document.querySelector('#edition') && document.querySelector("
                           "'#edition').selectedOptions[0].textContent.startsWith('My box')")
    page.click("#create-game")
    page.wait_for_url("**/game/**")
    page.wait_for_function("document.querySelectorAll('#board .hex').length > 100")
    assert "Olisipo" in page.evaluate(in_page("ui.board.cities.map((c) => c.name)"))
    game_id, token = page.url.split("/game/", 1)[1].split("#", 1)
    page.close()
    assert errors == []
    c = Client(f"{relaxed.ws}/ws/{game_id}")
    c.send({"type": "hello", "token": token})
    c.expect("state")
    final = play_until(c, 0, lambda v: v["phase"] == "over")
    c.close()
    record = http_json(f"{base}/api/games/{game_id}/record")
    assert any(x["name"] == "Olisipo" for x in record["board"]["data"]["cities"])
    replayed = verify_record(record)
    assert [p.score for p in replayed.players] == [p["score"] for p in final["players"]]


def test_the_editor_page_loads_on_a_phone(relaxed: Server, browser: Any) -> None:
    """From navigation to the map drawn on /editions/edit?game=gonzaga, phone-sized (the
    figure is printed; the bound is wide, for a loaded machine)."""
    page = browser.new_page(viewport=PHONE)
    page.goto(f"{relaxed.base}/editions/edit?game=gonzaga")
    page.wait_for_selector(".ged[data-drawn]")
    drawn = page.evaluate("performance.getEntriesByName('gonzaga-editor-drawn')[0].startTime")
    width = page.evaluate("document.querySelector('#board').getBoundingClientRect().width")
    assert 300 < width <= 390
    shot(page, "gonzaga-editor-phone")
    print(f"\neditor page on a 390x844 viewport: map drawn {drawn:.0f} ms after navigation")
    assert drawn < 20_000


# -- a game on an edition's board ------------------------------------------------------------


@pytest.fixture(scope="module")
def edition_game(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Any]]:
    """A server whose database holds a game on an edition's board (as the platform creates
    it: dealt with the edition's options), a person against a bot."""
    db = f"sqlite:///{tmp_path_factory.mktemp('edition') / 'games.db'}"
    store = open_store(db)
    server = GameServer(store, load_sites(["gonzaga"]), bot_processes=False, limits=Limits())
    site = server.sites["gonzaga"]
    seats = [Seat("person", "Ann"), Seat("bot", "Bot", "greedy")]
    state = site.deal([s.name for s in seats], None, EDITIONS.options(edition()))
    params = GameParams(seats, None, {"scenario": None, "variants": []}, False,
                        site.game.setup_of(state), 5, "gonzaga")

    async def open_it() -> Any:
        return server.lobby.open_game(params)

    with ThreadPoolExecutor(1) as pool:  # its own event loop, whatever runs in this thread
        room = pool.submit(asyncio.run, open_it()).result()
    store.close()
    srv = launch(db)
    try:
        yield srv, room
    finally:
        srv.stop()


def test_a_game_on_an_edition_is_drawn_played_with_a_bot_and_its_record_verifies(
        edition_game: tuple[Server, Any], browser: Any, tmp_path: Path) -> None:
    srv, room = edition_game
    token = room.tokens[0]
    page = browser.new_page(viewport=PHONE)
    page.goto(f"{srv.base}/game/{room.id}#{token}")
    page.wait_for_function("document.querySelectorAll('#board .hex').length > 100")
    names = page.evaluate(in_page("ui.board.cities.map((c) => c.name)"))
    assert "Lisboa" in names and page.evaluate(in_page("ui.board.name")) == \
        "Printed edition (transcribed)"
    page.close()
    c = Client(f"{srv.ws}/ws/{room.id}")
    c.send({"type": "hello", "token": token})
    c.expect("state")
    view = play_until(c, 0, lambda v: v["phase"] == "over")  # the edition keeps the map's hexes
    c.close()
    record = http_json(f"{srv.base}/api/games/{room.id}/record")
    assert record["board"]["data"]["name"] == "Printed edition (transcribed)"
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    replayed = verify_record(json.loads(path.read_text(encoding="utf-8")))
    assert [p.score for p in replayed.players] == [p["score"] for p in view["players"]]


def test_the_editor_speaks_the_pages_language(relaxed: Server, browser: Any) -> None:
    """The editor page loads the platform's words only; the editor adds Gonzaga's."""
    page = browser.new_page(locale="de-DE")
    page.goto(f"{relaxed.base}/editions/edit?game=gonzaga")
    page.wait_for_selector(".ged[data-drawn]")
    tools = page.evaluate("[...document.querySelectorAll('.ged-tools button')]"
                          ".map((b) => b.textContent)")
    assert tools[:5] == ["Auswählen", "Land", "Meer", "Außerhalb des Spielplans", "Stadt"]
    assert page.text_content("#church-label") == "Kirche"
    assert page.text_content(".ged-fiefs summary") == "Lehen"


@pytest.mark.parametrize("data", [
    None, [], 7, "text", {}, {"terrain": "HHH", "legend": [], "cities": {"a": 1}},
    {"terrain": ["H" * 5000] * 3, "legend": {"H": {"region": 5}}, "columns": "x",
     "regions": [{"id": "r", "seal": "here", "name": 3}], "seas": [{"id": "s", "symbol": 9}],
     "cities": [{"id": "c", "at": [1, 1], "symbol": 12, "name": None}, {"id": "d", "at": "x"}],
     "harbors": [{"id": "h", "at": [2, 2], "sea": ["s"]}], "church": None,
     "barriers": [{"edges": [None, [[0, 0]], [[0, 0], [1, 0]]]}, None],
     "fiefs": [None, {"number": 10, "hexes": "x"}], "scenarios": [None, {"flourishing": 3}]},
], ids=lambda d: type(d).__name__)
def test_an_imported_file_of_nonsense_is_drawn_without_an_error(server: Server, browser: Any,
                                                                data: Any) -> None:
    page = browser.new_page(viewport=PHONE)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.base + "/")
    mount(page, load_board().raw)
    redrawn(page, lambda: page.evaluate("(data) => editor.set(data)", data))
    redrawn(page, lambda: page.evaluate(
        "editor.showFindings([{message: 'x', where: '/', marks: ['hex:1,1', 'x']}])"))
    page.focus("#board")

    def keys() -> None:
        for key in ("ArrowRight", "ArrowDown", "Enter", "b", "1", "c", "Enter", "Delete"):
            page.keyboard.press(key)

    redrawn(page, keys)
    assert isinstance(page.evaluate("editor.current()"), dict)
    assert page.evaluate("document.querySelectorAll('.ged-cell').length") <= 80 * 80
    assert errors == []


def test_an_editions_own_names_show_as_written_in_every_language(
        edition_game: tuple[Server, Any], browser: Any) -> None:
    """A name the edition wrote (Edimburgo, the shipped board's Edinburgh) is no catalog's
    word: the map shows it as written in English and again after the player chose German in
    the header (the page reloads in the same browser)."""
    srv, room = edition_game
    page = browser.new_page(viewport=PHONE)
    page.goto(f"{srv.base}/game/{room.id}#{room.tokens[0]}")
    for lang in ("en", "de"):
        page.wait_for_function("document.querySelectorAll('#board text.name').length > 20")
        assert page.evaluate("document.documentElement.lang") == lang
        names = page.evaluate(in_page("ui.board.cities.map((c) => c.name)"))
        texts = page.evaluate("[...document.querySelectorAll('#board text')]"
                              ".map((t) => t.textContent)")
        assert "Edimburgo" in names and "Edimburgo" in texts, lang
        assert "Edinburgh" not in names and "Edinburgh" not in texts, lang
        if lang == "en":
            with page.expect_navigation():
                page.select_option("#language", "de")
    page.close()


# -- a newcomer's walk through the editor -----------------------------------------------------

DESK = {"width": 1280, "height": 900}


def cell_centre(page: Any, c: int, r: int) -> tuple[float, float]:
    box = page.locator(f'.ged-cell[data-at="{c},{r}"]').bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_a_harbor_moves_by_dragging_it_and_by_shift_arrows(server: Server, browser: Any) -> None:
    page = browser.new_page(viewport=DESK)
    page.goto(server.base + "/")
    mount(page, load_board().raw)
    board = load_board()
    harbor = board.model.harbors[0]
    c, r = harbor.at
    taken = {tuple(p.at) for p in [*board.model.cities, *board.model.harbors]}
    assert (c + 1, r) not in taken
    page.click('[data-tool="harbor"]')
    start, end = cell_centre(page, c, r), cell_centre(page, c + 1, r)
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(*end, steps=4)
    page.mouse.up()  # the file changes at once; the map is drawn again on the next frame
    data = page.evaluate("editor.current()")
    assert data["harbors"][0]["at"] == [c + 1, r]  # the same harbor, on the hex it was let go on
    assert len(data["harbors"]) == len(board.model.harbors)
    page.keyboard.press("Shift+ArrowLeft")  # and back, on the keyboard
    assert page.evaluate("editor.current().harbors[0].at") == [c, r]


def test_the_editor_opens_with_a_tool_that_changes_nothing(server: Server,
                                                          browser: Any) -> None:
    page = browser.new_page(viewport=PHONE)
    page.goto(server.base + "/")
    raw = load_board().raw
    mount(page, raw)
    pressed = page.evaluate("[...document.querySelectorAll('.ged-tools button')]"
                            ".filter((b) => b.getAttribute('aria-pressed') === 'true')"
                            ".map((b) => b.dataset.tool)")
    assert pressed == ["select"]
    board = load_board()  # a click on a sea hex, Enter on others
    water = next(board.coords[h] for h in range(board.hex_count) if board.region_of[h] is None)
    page.click(f'.ged-cell[data-at="{water[0]},{water[1]}"]')
    page.focus("#board")
    for key in ("Enter", " ", "ArrowRight", "Enter"):
        page.keyboard.press(key)
    assert page.evaluate("changes") == 0 and page.evaluate("editor.current()") == raw
    city = board.model.cities[0]  # a city is selected: its name shows, to rename or remove
    redrawn(page, lambda: page.click(f'.ged-cell[data-at="{city.at[0]},{city.at[1]}"]'))
    assert page.input_value("#ged-place-name") == city.name
    assert page.evaluate("changes") == 0


def test_a_barrier_is_a_thick_line_on_its_side_with_ticks_across(server: Server,
                                                                browser: Any) -> None:
    page = browser.new_page(viewport=DESK)
    page.goto(server.base + "/")
    raw = load_board().raw
    mount(page, raw)
    edges = [e for g in raw["barriers"] for e in g["edges"]]
    lines = page.evaluate("""[...document.querySelectorAll('.ged-barrier')].map((l) => ({
      x1: +l.getAttribute('x1'), y1: +l.getAttribute('y1'), x2: +l.getAttribute('x2'),
      y2: +l.getAttribute('y2'), width: parseFloat(getComputedStyle(l).strokeWidth)}))""")
    assert len(lines) == len(edges)
    board = load_board()
    for (a, b), line in zip(edges, lines, strict=True):
        (ax, ay), (bx, by) = (board.centre(board.index_of[tuple(h)]) for h in (a, b))
        assert abs((line["x1"] + line["x2"]) / 2 - (ax + bx) / 2) < 0.01  # on the shared side
        assert abs((line["y1"] + line["y2"]) / 2 - (ay + by) / 2) < 0.01
        assert abs(((line["x2"] - line["x1"]) ** 2 + (line["y2"] - line["y1"]) ** 2) - 1) < 0.01
        assert line["width"] >= 0.3  # thick: a third of a side
    dashes = page.evaluate("[...document.querySelectorAll('.ged-barrier-ticks')]"
                           ".map((l) => getComputedStyle(l).strokeDasharray)")
    assert len(dashes) == len(edges) and all(d != "none" for d in dashes)


@pytest.mark.parametrize("viewport", [PHONE, DESK], ids=["phone", "desk"])
def test_selecting_a_city_does_not_move_the_map(server: Server, browser: Any,
                                                viewport: dict[str, int]) -> None:
    page = browser.new_page(viewport=viewport)
    page.goto(server.base + "/")
    mount(page, load_board().raw)
    page.click('[data-tool="city"]')
    c, r = load_board().model.cities[0].at
    cell = f'.ged-cell[data-at="{c},{r}"]'
    page.locator(cell).scroll_into_view_if_needed()
    top = "document.querySelector('#board').getBoundingClientRect().top"
    before = page.evaluate(top)
    redrawn(page, lambda: page.click(cell))
    assert page.is_visible("#ged-place-name")
    assert abs(page.evaluate(top) - before) < 0.5


@pytest.mark.parametrize("viewport", [PHONE, DESK], ids=["phone", "desk"])
def test_the_fiefs_grids_are_whole_and_large_enough_to_tap(server: Server, browser: Any,
                                                           viewport: dict[str, int]) -> None:
    page = browser.new_page(viewport=viewport)
    page.goto(server.base + "/")
    mount(page, load_board().raw)
    page.click(".ged-fiefs summary")
    cards = page.evaluate("""[...document.querySelectorAll('svg.ged-fief')].map((s) => {
      const box = s.getBoundingClientRect();
      return [...s.querySelectorAll('.ged-fief-cell')].map((c) => {
        const r = c.getBoundingClientRect();
        return {inside: r.left >= box.left - 0.5 && r.right <= box.right + 0.5
                && r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5, width: r.width};
      });
    })""")
    assert len(cards) == len(load_board().raw["fiefs"])
    cells = [c for card in cards for c in card]
    assert all(c["inside"] for c in cells)  # no hex cut off at the grid's edge
    assert min(c["width"] for c in cells) >= 30  # a finger's width, about
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]


def test_regions_seas_symbols_and_objective_cards_have_form_fields(server: Server,
                                                                   browser: Any) -> None:
    page = browser.new_page(viewport=PHONE)
    page.set_default_timeout(5000)
    page.goto(server.base + "/")
    raw = load_board().raw
    mount(page, raw)
    page.click(".ged-names summary")
    page.fill('[data-regions="0"] input[aria-label="Name"]', "Iberia")
    redrawn(page, lambda: page.press('[data-regions="0"] input[aria-label="Name"]', "Enter"))
    assert page.evaluate("editor.current().regions[0].name") == "Iberia"
    assert "Iberia" in page.evaluate("[...document.querySelectorAll('#ged-region option')]"
                                     ".map((o) => o.textContent)")
    page.fill('[data-seas="1"] input[aria-label="Name"]', "Mare Suevicum")
    page.press('[data-seas="1"] input[aria-label="Name"]', "Enter")
    other = next(g for g in {1, 2} if g != raw["symbols"][0]["objective_group"])
    page.select_option('[data-symbols="0"] select[aria-label="Objective group"]', str(other))
    pair = raw["objectives"][0]["symbols"]
    swapped = next(s["id"] for s in raw["symbols"] if s["id"] not in pair)
    page.select_option('[data-objectives="0"] select[aria-label="Symbol 2"]', swapped)
    data = page.evaluate("editor.current()")
    assert data["seas"][1]["name"] == "Mare Suevicum"
    assert data["symbols"][0]["objective_group"] == other
    assert data["objectives"][0]["symbols"] == [pair[0], swapped]
    assert page.evaluate("changes") == 4


def remove_a_city(page: Any) -> Any:
    """On the editor page: the first city taken away; its finding."""
    city = load_board().model.cities[0]
    page.wait_for_selector(".ged[data-drawn]")
    page.wait_for_selector("#edition-no-findings")
    page.click('[data-tool="city"]')
    page.click(f'.ged-cell[data-at="{city.at[0]},{city.at[1]}"]')
    page.click("#ged-place-remove")
    page.wait_for_selector(".finding")
    return page.locator("#edition-findings li").first


def test_the_findings_stand_beside_the_map_and_say_where_in_the_games_words(
        relaxed: Server, browser: Any) -> None:
    board = load_board()
    region = next(x for x in board.model.regions if x.id == board.model.cities[0].region)
    page = browser.new_page(viewport=DESK)
    page.goto(f"{relaxed.base}/editions/edit?game=gonzaga")
    item = remove_a_city(page)
    rect = "(s) => document.querySelector(s).getBoundingClientRect().toJSON()"
    box, map_ = page.evaluate(rect, "#edition-findings-box"), page.evaluate(rect, "#board")
    assert box["left"] >= map_["right"] - 1 and box["top"] < map_["bottom"]  # beside it
    said = item.locator(".finding-place").text_content()
    assert f"Region {region.name}" in said and "Hex " in said and "/" not in said
    item.locator(".finding").click()  # the map goes to it
    page.wait_for_selector(".ged-finding.focused")
    shot(page, "gonzaga-editor-findings-beside")
    page.close()
    page = browser.new_page(viewport=PHONE, locale="de-DE")
    page.goto(f"{relaxed.base}/editions/edit?game=gonzaga")
    item = remove_a_city(page)
    box, map_ = page.evaluate(rect, "#edition-findings-box"), page.evaluate(rect, "#board")
    assert box["top"] >= map_["bottom"]  # under it, folded with a tap
    assert "Feld " in item.locator(".finding-place").text_content()
    shot(page, "gonzaga-editor-findings-phone")
    page.click("#edition-findings-box summary")
    assert not page.evaluate("document.querySelector('#edition-findings-box').open")
