"""Gonzaga games on an edition's board at the web server: set up from the board's data (never a
path), stored with it, restored from the store, and their map served to the table."""

from __future__ import annotations

import asyncio
import copy
import json
from pathlib import Path
from typing import Any

import pytest
from accounts_client import Visitor
from test_accounts import RELAXED
from web_server import launch

from tavola.editions import canonical, content_hash
from tavola.games.gonzaga.board import load_board
from tavola.games.gonzaga.web.site import GonzagaWeb
from tavola.web.app import GameServer, Limits
from tavola.web.room import GameParams, Seat
from tavola.web.site import load_sites
from tavola.web.storage import StoredGame, open_store


def edition() -> dict[str, Any]:
    data = copy.deepcopy(load_board().raw)
    data["name"] = "Printed edition (transcribed)"
    data["cities"][0]["name"] = "Lisboa"
    return data


def open_edition_game(server: GameServer, data: dict[str, Any]) -> Any:
    site = server.sites["gonzaga"]
    seats = [Seat("person", "Ann"), Seat("person", "Bea")]
    options = {"scenario": None, "variants": [], **site_options(data)}
    state = site.deal([s.name for s in seats], None, options)
    params = GameParams(seats, None, {"scenario": None, "variants": []}, False,
                        site.game.setup_of(state), 7, "gonzaga")
    return server.lobby.open_game(params)


def site_options(data: dict[str, Any]) -> dict[str, Any]:
    return {"board": data}


def test_a_game_on_an_editions_board_is_stored_and_restored(db_url: str) -> None:
    server = GameServer(open_store(db_url), load_sites(["gonzaga"]), bot_processes=False,
                        limits=Limits())
    room = open_edition_game(server, edition())
    assert room.state.board.name == "Printed edition (transcribed)"
    again = GameServer(open_store(db_url), load_sites(["gonzaga"]), bot_processes=False)
    restored = again.room(room.id)
    assert restored is not None
    assert restored.state.board.content_hash == room.state.board.content_hash
    payload = json.loads(again.sites["gonzaga"].board_payload(restored.state.board))
    assert payload["name"] == "Printed edition (transcribed)"
    assert payload["cities"][0]["name"] == "Lisboa"


def test_a_stored_game_whose_board_no_longer_plays_is_refused(db_url: str) -> None:
    site = GonzagaWeb()
    state = site.deal(["Ann", "Bea"], 3, {"board": edition()})
    params = {"seats": [], "options": {}, "setup": site.game.setup_of(state)}
    site.check_stored("g1", params)  # as stored: fine
    broken = copy.deepcopy(params)
    del broken["setup"]["board"]["cities"][0]
    with pytest.raises(ValueError, match="g1 was played on a board that cannot be played"):
        site.check_stored("g1", broken)
    # a game on an edition's board does not depend on the shipped board's hash
    site.check_stored("g1", {**params, "board": {"name": "old", "hash": "0" * 64}})


def test_the_web_takes_a_board_as_data_never_as_a_path() -> None:
    site = GonzagaWeb()
    with pytest.raises(ValueError, match="not as a file name"):
        site.deal(["Ann", "Bea"], 1, {"board": "/etc/passwd"})
    # and the lobby passes no board at all: it is not a lobby option
    assert "board" not in site.parse_options({"board": "/etc/passwd", "scenario": ""})


def test_a_gonzaga_edition_is_saved_played_on_and_replayed_after_a_restart(db_url: str
                                                                          ) -> None:
    """Through the platform's editions: saved with its findings (none), chosen in the lobby
    request, dealt on its board, and the game replays on a server started again."""
    from tavola.games.gonzaga.edition import EDITIONS
    from tavola.web.account_store import open_account_store
    from tavola.web.editions import open_editions

    store = open_store(db_url)
    accounts = open_account_store(store)
    server = GameServer(store, load_sites(["gonzaga"]), bot_processes=False,
                        limits=Limits(edition_saves_per_hour=0))
    editions = open_editions(server, store, {"gonzaga": EDITIONS})
    ann = accounts.add_user("ann", "ann", "not a hash")
    assert ann is not None
    broken = edition()
    del broken["harbors"][0]
    draft = asyncio.run(editions.save(ann, {"game": "gonzaga", "name": "Draft",
                                            "data": broken, "visibility": "private"}))
    assert not draft["playable"]
    made = asyncio.run(editions.save(ann, {"game": "gonzaga", "name": "My box",
                                           "data": edition(), "visibility": "private"}))
    assert made["playable"], made
    seats = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bea"}]
    room = server.create({"game": "gonzaga", "seats": seats, "edition": made["id"]},
                         "10.1.1.1", account=ann.id)
    assert room.state.board.name == "Printed edition (transcribed)"
    again = GameServer(store, load_sites(["gonzaga"]), bot_processes=False)
    open_editions(again, store, {"gonzaga": EDITIONS})
    assert again.resume() >= 1
    assert again.rooms[room.id].state.board.content_hash == room.state.board.content_hash
    editions.store.close()
    accounts.close()
    store.close()


def test_the_lobby_offers_the_scenarios_of_the_chosen_edition(db_url: str) -> None:
    """An edition whose scenario tiles differ from the shipped ones: the lobby asks for its
    options and offers its scenarios, and a game is created on each of them."""
    from tavola.games.gonzaga.edition import EDITIONS
    from tavola.web.account_store import open_account_store
    from tavola.web.editions import open_editions
    from tavola.web.errors import ClientError

    store = open_store(db_url)
    accounts = open_account_store(store)
    server = GameServer(store, load_sites(["gonzaga"]), bot_processes=False, limits=Limits())
    editions = open_editions(server, store, {"gonzaga": EDITIONS})
    ann = accounts.add_user("ann", "ann", "not a hash")
    assert ann is not None
    data = edition()
    for s in data["scenarios"]:
        if s["players"] == 2:
            s["name"] = "Tile " + s["name"]
    made = asyncio.run(editions.save(ann, {"game": "gonzaga", "name": "Renamed tiles",
                                           "data": data, "visibility": "private"}))
    assert made["playable"], made
    offered = editions.lobby("gonzaga", made["id"], ann)
    scenario = next(o for o in offered["options"] if o["id"] == "scenario")
    two = [c["value"] for c in scenario["choices"] if c.get("players") == 2]
    assert two and all(v.startswith("Tile ") for v in two)
    seats = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bea"}]
    for value in two:
        room = server.create({"game": "gonzaga", "seats": seats, "edition": made["id"],
                              "scenario": value}, "10.1.1.1", account=ann.id)
        assert room.state.rules.scenario.name == value
    # the shipped lobby still offers the shipped tiles; a private edition is not for others
    shipped = server.sites["gonzaga"].lobby_json()["options"][0]["choices"]
    assert not any(str(c["value"]).startswith("Tile ") for c in shipped)
    with pytest.raises(ClientError):
        editions.lobby("gonzaga", made["id"], None)
    editions.store.close()
    accounts.close()
    store.close()


def test_a_game_on_an_edition_is_told_its_own_scenarios_and_regions(tmp_path: Path) -> None:
    """The table asks `/api/gonzaga/options?game=ID`: a game on an edition whose tiles and
    region names differ from the shipped ones gets the edition's; without a game, the
    shipped board's."""
    data = edition()
    for s in data["scenarios"]:
        if s["players"] == 2:
            s["name"] = "Tile " + s["name"]
    data["regions"][0]["name"] = "Iberia"
    srv = launch(tmp_path / "games.db", limits=RELAXED, proxies=["127.0.0.1"])
    try:
        ann = Visitor(srv.base, "10.9.1.1")
        ann.sign_up("ann_tiles")
        made = ann.ok("/api/editions", {"game": "gonzaga", "name": "Renamed tiles",
                                        "data": data, "visibility": "private"})
        assert made["playable"], made
        game = ann.ok("/api/games", {"game": "gonzaga", "edition": made["id"],
                                     "seats": [{"kind": "person"}, {"kind": "person"}]})
        on = ann.ok(f"/api/gonzaga/options?game={game['id']}")
        two = [s["name"] for s in on["scenarios"] if s["players"] == 2]
        assert two and all(name.startswith("Tile ") for name in two)
        assert on["regions"][data["regions"][0]["id"]] == "Iberia"
        shipped = ann.ok("/api/gonzaga/options")
        assert not any(s["name"].startswith("Tile ") for s in shipped["scenarios"])
    finally:
        srv.stop()


def test_a_game_on_an_edition_stores_its_board_once(db_url: str) -> None:
    """The edition's version keeps the board; a game on it stores its setup with the board
    named by hash, and still resumes, renames (here and on another process) and records the
    board (its record verifies with no board at hand). A game stored whole, as before, still
    resumes."""
    from tavola.games.gonzaga.edition import EDITIONS
    from tavola.web.account_store import open_account_store
    from tavola.web.editions import open_editions

    store = open_store(db_url)
    accounts = open_account_store(store)
    server = GameServer(store, load_sites(["gonzaga"]), bot_processes=False,
                        limits=Limits(edition_saves_per_hour=0))
    editions = open_editions(server, store, {"gonzaga": EDITIONS})
    ann = accounts.add_user("ann", "ann", "not a hash")
    assert ann is not None
    data = edition()
    made = asyncio.run(editions.save(ann, {"game": "gonzaga", "name": "My box", "data": data,
                                           "visibility": "private"}))
    seats = [{"kind": "person", "name": "Ann"}, {"kind": "person"}]
    room = server.create({"game": "gonzaga", "seats": seats, "edition": made["id"]},
                         "10.1.1.1", account=ann.id)
    stored = store.load(room.id)
    assert stored is not None
    text = json.dumps(stored.params)
    assert "Lisboa" not in text and len(text) < len(canonical(data)) / 4
    # the same game stored whole, as games were stored before
    whole = StoredGame("whole1", stored.created, {**stored.params,
                                                  "setup": room.params.setup}, "playing",
                       {0: "t-whole-0", 1: "t-whole-1"}, set())
    store.create(whole)
    assert "Lisboa" in json.dumps(store.load("whole1").params)  # type: ignore[union-attr]
    again = GameServer(store, load_sites(["gonzaga"]), bot_processes=False)
    open_editions(again, store, {"gonzaga": EDITIONS})
    assert again.resume() >= 2
    for gid in (room.id, "whole1"):
        resumed = again.rooms[gid]
        assert resumed.state.board.content_hash == content_hash(data)
        assert canonical(resumed.params.setup) == canonical(room.params.setup)
        record = json.loads(json.dumps(resumed.game.record(resumed.state)))
        assert record["board"]["data"]["cities"][0]["name"] == "Lisboa"
        assert resumed.game.verify_record(record).board.content_hash == content_hash(data)
    resumed = again.rooms[room.id]
    again.name_seat(resumed, 1, "Bea")  # a seat taken: its setup stored again, board by hash
    renamed = store.load(room.id)
    assert renamed is not None and renamed.params["seats"][1]["name"] == "Bea"
    assert "Lisboa" not in json.dumps(renamed.params)
    assert resumed.params.setup is not None and "Lisboa" in json.dumps(resumed.params.setup)
    # another process's copy of the game catches up with the rename, on the same board
    assert room.catch_up(renamed)
    assert room.state.setup.names[1] == "Bea"
    assert room.state.board.content_hash == content_hash(data)
    editions.store.close()
    accounts.close()
    store.close()
