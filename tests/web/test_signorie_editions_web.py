"""A Signorie game on an edition on the web server: saved through the editions API, dealt on
its data, its table drawn from it for every seat, replayed on it after a restart, and its record
embedding the data. The game server is driven directly, without bot processes."""

from __future__ import annotations

import asyncio
import copy
import json
from collections.abc import Iterator
from typing import Any

import pytest

from tavola.editions import canonical, content_hash
from tavola.games.signorie.edition import EDITION
from tavola.games.signorie.game import GAME
from tavola.games.signorie.tables import default_data, tables
from tavola.games.signorie.web.site import make_site
from tavola.web.account_store import open_account_store
from tavola.web.app import GameServer
from tavola.web.editions import Editions, open_editions
from tavola.web.storage import GameStore, open_store

SEATS = [{"kind": "person"}, {"kind": "person"}]


def edited() -> dict[str, Any]:
    data = copy.deepcopy(default_data())
    data["action_slots"][0]["cost"]["value"] = 4  # yellow, 1 as shipped
    return data


def serve(store: GameStore) -> tuple[GameServer, Editions]:
    server = GameServer(store, {"signorie": make_site()}, bot_processes=False)
    return server, open_editions(server, store, {"signorie": EDITION})


@pytest.fixture
def store(db_url: str) -> Iterator[GameStore]:
    store = open_store(db_url)
    yield store


def test_a_game_on_a_saved_edition_plays_draws_and_replays_on_its_data(store: GameStore) -> None:
    accounts = open_account_store(store)
    ann = accounts.add_user("ann", "ann", "not a hash")
    assert ann is not None
    server, editions = serve(store)
    data = edited()
    body = {"game": "signorie", "name": "My printed box", "data": data, "visibility": "private"}
    made = asyncio.run(editions.save(ann, body))
    room = server.create({"game": "signorie", "seats": SEATS, "edition": made["id"]},
                         "10.1.1.1", account=ann.id)
    assert room.state.t.edition == content_hash(data)
    assert room.state.t.cost[0] == 4 and tables().cost[0] != 4
    message = room.message_for(0)
    assert message["components"] == content_hash(data)
    assert message["edition"] == "My printed box"  # the platform's own key, kept apart
    table = json.loads(room.site.table_payload(message["components"]))
    assert table["colours"][0]["cost"] == 4
    record = GAME.record(room.state)
    assert record["options"]["components_hash"] == content_hash(data)
    again_server, again_editions = serve(store)
    assert again_server.resume() >= 1
    again = again_server.rooms[room.id]
    assert again.state.t.edition == content_hash(data) and again.state.log == room.state.log
    editions.store.close()
    again_editions.store.close()


def test_a_game_on_an_edition_stores_its_components_once(store: GameStore) -> None:
    """The edition's version keeps the component data; a game on it stores its setup with
    the data named by hash, and resumes on the data, its record verifying with no data at
    hand."""
    accounts = open_account_store(store)
    ann = accounts.add_user("ann", "ann", "not a hash")
    assert ann is not None
    server, editions = serve(store)
    data = edited()
    body = {"game": "signorie", "name": "My printed box", "data": data, "visibility": "private"}
    made = asyncio.run(editions.save(ann, body))
    room = server.create({"game": "signorie", "seats": SEATS, "edition": made["id"]},
                         "10.1.1.1", account=ann.id)
    stored = store.load(room.id)
    assert stored is not None
    text = json.dumps(stored.params)
    assert "action_slots" not in text and len(text) < len(canonical(data)) / 4
    again_server, again_editions = serve(store)
    assert again_server.resume() >= 1
    again = again_server.rooms[room.id]
    assert again.state.t.edition == content_hash(data) and again.state.t.cost[0] == 4
    record = json.loads(json.dumps(GAME.record(again.state)))
    assert GAME.verify_record(record).t.edition == content_hash(data)
    editions.store.close()
    again_editions.store.close()
