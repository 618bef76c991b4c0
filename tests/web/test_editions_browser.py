"""An edition in a real browser, on a game the platform does not know (Pesca, `fixture_game/`):
made in the editor shell (its plain JSON editor), a problem found and fixed, saved, and a game
created on it from the lobby, whose table names the edition.

Chromium as in test_web_browser.py (skipped locally without it, failing in CI)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from accounts_client import Visitor
from test_accounts import RELAXED
from test_editions_api import installed_fixture
from web_server import Server, launch

from tavola.testing import game_names


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("editions-browser")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PYTHONPATH", f"{installed_fixture(tmp / 'site')}:"
                                   f"{Path(__file__).parents[2]}")
        srv = launch(tmp / "games.db", limits=RELAXED)
    yield srv
    srv.stop()


def deck(*cards: int) -> str:
    return json.dumps({"format": "pesca-deck/1", "cards": list(cards)})


def test_an_edition_is_made_checked_saved_and_played_on(server: Server, browser: Any) -> None:
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.base}/account")
    page.fill("#sign-up-name", "editor")
    page.fill("#sign-up-password", "a long enough secret")
    page.click("#sign-up")
    page.wait_for_url(f"{server.base}/")
    page.goto(f"{server.base}/editions/edit?game=pesca")
    page.wait_for_selector("#edition-no-findings")
    assert json.loads(page.input_value("#edition-text"))["cards"] == list(range(1, 10))
    page.fill("#edition-text", deck(10, 20, 20, 40, 50))
    page.wait_for_selector('.finding[data-where="/cards/2"]')
    page.click('.finding[data-where="/cards/2"]')
    page.fill("#edition-text", deck(10, 20, 30, 40, 50))
    page.wait_for_selector("#edition-no-findings")
    page.keyboard.press("Control+z")  # back to the deck with a card twice
    page.wait_for_selector('.finding[data-where="/cards/2"]')
    page.keyboard.press("Control+y")
    page.wait_for_selector("#edition-no-findings")
    page.fill("#edition-name", "Big <b>deck</b>")
    page.click("#edition-save")
    page.wait_for_selector("#edition-play:not([hidden])")
    page.click("#edition-play")
    page.wait_for_function("document.querySelector('#edition') && document.querySelector("
                           "'#edition').selectedOptions[0].textContent === 'Big <b>deck</b> by "
                           "editor'")
    page.click("#create-game")
    page.wait_for_url("**/game/**")
    page.wait_for_selector("#edition-tag")
    assert page.text_content("#edition-tag") == "Edition: Big <b>deck</b>"
    assert page.locator("#edition-tag b").count() == 0  # the name is text, never markup
    page.goto(f"{server.base}/editions")
    page.wait_for_selector("[data-edition] a")
    assert page.text_content("[data-edition] a") == "Big <b>deck</b>"
    assert errors == []


def test_the_editions_page_imports_shares_and_deletes(server: Server, browser: Any,
                                                      tmp_path: Path) -> None:
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.base}/account")
    page.fill("#sign-up-name", "importer")
    page.fill("#sign-up-password", "a long enough secret")
    page.click("#sign-up")
    page.wait_for_url(f"{server.base}/")
    file = tmp_path / "My deck.json"
    file.write_text(deck(2, 4, 6, 8, 10, 12))
    page.goto(f"{server.base}/editions")
    page.wait_for_selector('[data-import="pesca"]', state="attached")
    page.set_input_files('[data-import="pesca"]', str(file))
    page.wait_for_url(lambda url: "/editions/edit?" in url)
    page.wait_for_selector("#edition-no-findings")
    assert page.input_value("#edition-name") == "My deck"
    assert json.loads(page.input_value("#edition-text"))["cards"] == [2, 4, 6, 8, 10, 12]
    twice = tmp_path / "twice.json"
    twice.write_text(deck(2, 2, 6, 8, 10))
    page.set_input_files("#edition-import", str(twice))  # the shell's own Import
    page.wait_for_selector('.finding[data-where="/cards/1"]')
    page.goto(f"{server.base}/editions")
    page.select_option("[data-edition-visibility]", "link")
    page.wait_for_selector('[data-edition] button:has-text("Copy the share link")')
    page.on("dialog", lambda dialog: dialog.accept())
    page.click("[data-edition-delete]")
    page.wait_for_selector('[data-editions-game="pesca"] li.muted:has-text("none yet")')
    assert errors == []


def test_a_link_edition_is_played_on_by_whoever_has_its_link(server: Server, browser: Any
                                                            ) -> None:
    owner = Visitor(server.base)
    owner.sign_up("sharer")
    made = owner.ok("/api/editions", {"game": "pesca", "name": "Shared deck",
                                      "data": json.loads(deck(3, 5, 7, 9, 11)),
                                      "visibility": "link"})
    key = owner.ok(f"/api/editions/{made['id']}")["key"]
    page = browser.new_page()  # a guest with the link
    page.goto(f"{server.base}/editions/edit?game=pesca&id={made['id']}&key={key}")
    page.wait_for_selector("#edition-play:not([hidden])")
    assert page.text_content("#edition-save") == "Save a copy"
    page.click("#edition-play")
    page.wait_for_function("document.querySelector('#edition') && document.querySelector("
                           "'#edition').value === " + json.dumps(made["id"]))
    page.click("#create-game")
    page.wait_for_url("**/game/**")
    page.wait_for_selector("#edition-tag")
    assert page.text_content("#edition-tag") == "Edition: Shared deck"


def test_the_lobby_offers_the_scenarios_of_the_chosen_edition(server: Server, browser: Any
                                                              ) -> None:
    """A Gonzaga edition whose 2-player scenario tiles are not the shipped ones: choosing it
    in the lobby offers its scenarios, and a game is created on one of them."""
    from tavola.games.gonzaga.edition import EDITIONS

    owner = Visitor(server.base)
    owner.sign_up("tiler")
    data = EDITIONS.default()
    for s in data["scenarios"]:
        if s["players"] == 2:
            s["name"] = "Tile " + s["name"]
    made = owner.ok("/api/editions", {"game": "gonzaga", "name": "Other tiles", "data": data,
                                      "visibility": "link"})
    assert made["playable"], made
    key = owner.ok(f"/api/editions/{made['id']}")["key"]
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.base}/?game=gonzaga&edition={made['id']}&key={key}")
    page.wait_for_selector("#edition")
    page.click("#remove-seat")  # two players: the renamed tiles
    page.wait_for_selector('select[data-option="scenario"] option[value="Tile Cervantes"]',
                           state="attached")
    assert page.locator('select[data-option="scenario"] option[value="Cervantes"]').count() == 0
    page.select_option('select[data-option="scenario"]', "Tile Cervantes")
    page.click("#create-game")
    page.wait_for_url("**/game/**")
    page.wait_for_selector("#edition-tag")
    assert page.text_content("#edition-tag") == "Edition: Other tiles"
    page.goto(f"{server.base}/?game=gonzaga")  # the shipped board, three seats: its tiles
    page.wait_for_selector('select[data-option="scenario"] option[value="Petrarca"]',
                           state="attached")
    assert errors == []


@pytest.mark.parametrize("game", game_names("site", "editions"))
def test_both_games_name_their_edition_in_the_lobby_and_at_the_table(server: Server,
                                                                     browser: Any, game: str
                                                                     ) -> None:
    """A public game on an edition: its lobby line names the edition, and so does its table's
    header, for each real game's own table page."""
    owner = Visitor(server.base)
    owner.sign_up(f"owner-{game}")
    data = owner.ok(f"/api/editions/default?game={game}")
    made = owner.ok("/api/editions", {"game": game, "name": f"Box of {game}", "data": data,
                                      "visibility": "public"})
    assert made["playable"], made
    seats = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bea"}]
    table = owner.ok("/api/games", {"game": game, "seats": seats, "public": True,
                                    "edition": made["id"]})
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.base}/")
    line = page.wait_for_selector(f'#open-games [data-game="{table["id"]}"] .game-edition')
    assert line.text_content() == f"on the edition Box of {game}: "
    page.goto(server.base + table["seats"][0]["link"])
    page.wait_for_selector("#edition-tag")
    assert page.text_content("#edition-tag") == f"Edition: Box of {game}"
    assert errors == []
