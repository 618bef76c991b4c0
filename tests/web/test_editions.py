"""Editions on the server, on SQLite and PostgreSQL: stored, versioned, shared, played on and
replayed after a restart, on a game the platform does not know (Pesca, `fixture_game/`, whose
edition is its deck's values). The game server is driven directly, without bot processes."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tavola import i18n
from tavola.editions import STORED_AS, content_hash, setup_filled, setup_stored
from tavola.web.account_store import AccountStore, User, open_account_store
from tavola.web.accounts import Accounts
from tavola.web.app import GameServer, Limits
from tavola.web.editions import Editions, in_language, open_editions
from tavola.web.editions_store import EditionStore, NewVersion
from tavola.web.errors import ClientError
from tavola.web.privacy import Privacy
from tavola.web.storage import GameStore, open_store

sys.path.insert(0, str(Path(__file__).parents[1] / "fixture_game"))
from pesca.edition import KIND
from pesca.site import make_site

SEATS = [{"kind": "person"}, {"kind": "bot", "bot": "random"}]
BIG = {"format": "pesca-deck/1", "cards": [10, 20, 30, 40, 50, 60]}
TWICE = {"format": "pesca-deck/1", "cards": [10, 20, 20, 40, 50]}


@dataclass
class Site:
    store: GameStore
    accounts: AccountStore
    server: GameServer
    editions: Editions

    def user(self, name: str) -> User:
        user = self.accounts.add_user(name, name, "not a hash")
        assert user is not None
        return user

    def save(self, user: User, data: Any, name: str = "Mine", visibility: str = "private",
             edition_id: str | None = None) -> dict[str, Any]:
        body = {"game": "pesca", "name": name, "data": data, "visibility": visibility}
        return asyncio.run(self.editions.save(user, body, edition_id))

    def create(self, user: User | None, **given: Any) -> Any:
        return self.server.create({"game": "pesca", "seats": SEATS, **given}, "10.1.1.1",
                                  account=None if user is None else user.id)


def serve(store: GameStore, limits: Limits | None = None) -> tuple[GameServer, Editions]:
    server = GameServer(store, {"pesca": make_site()}, bot_processes=False, limits=limits)
    return server, open_editions(server, store, {"pesca": KIND})


@pytest.fixture
def site(db_url: str) -> Iterator[Site]:
    store = open_store(db_url)
    accounts = open_account_store(store)
    server, editions = serve(store, Limits(edition_saves_per_hour=0))
    yield Site(store, accounts, server, editions)
    editions.store.close()
    accounts.close()
    store.close()


def test_versions_are_kept_and_read_back(site: Site) -> None:
    ann = site.user("ann")
    made = site.save(ann, TWICE, name="Draft")
    assert (made["version"], made["playable"]) == (1, False)
    assert made["findings"][0]["where"] == "/cards/2"
    again = site.save(ann, BIG, name="Big deck", edition_id=made["id"])
    assert (again["version"], again["playable"], again["hash"]) == (2, True, content_hash(BIG))
    got = site.editions.get(made["id"], ann)
    assert (got["name"], got["data"], got["version"], got["author"]) == \
        ("Big deck", BIG, 2, "ann")
    assert site.editions.get(made["id"], ann, version="2")["data"] == BIG
    with pytest.raises(ClientError, match="no such version"):  # a draft no game uses: gone
        site.editions.get(made["id"], ann, version="1")
    [line] = site.editions.listing("pesca", ann)["editions"]
    assert (line["playable_version"], line["describe"], line["mine"]) == \
        (2, "6 cards, 10 to 60", True)


def test_an_editions_line_is_read_in_each_readers_language(site: Site,
                                                           monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    """The game's line on an edition is kept in every language when saved: a list read in
    German or Italian shows the line in its reader's language, not the saver's; a line stored
    before that is shown as written."""
    monkeypatch.setattr(KIND, "describe", lambda data: f"{len(data['cards'])} ({i18n.current()})")
    ann = site.user("ann")
    with i18n.use("de"):
        made = site.save(ann, BIG)
    for lang in ("en", "de", "it"):
        with i18n.use(lang):
            [line] = site.editions.listing("pesca", ann)["editions"]
            got = site.editions.get(made["id"], ann)
        assert (line["describe"], got["describe"]) == (f"6 ({lang})", f"6 ({lang})")
    assert in_language("6 cards, 10 to 60") == "6 cards, 10 to 60"


def test_data_is_known_by_the_name_and_version_of_its_owners_edition(site: Site) -> None:
    """A game's page that checks data (Signorie's balance check) names the edition it is: the
    owner's newest version holding this very content; another's or unsaved data is none."""
    ann, bob = site.user("ann"), site.user("bob")
    made = site.save(ann, TWICE, name="Draft")
    site.save(ann, BIG, name="Big deck", edition_id=made["id"])
    assert site.editions.holding("pesca", dict(BIG), ann) == ("Big deck", 2)
    assert site.editions.holding("pesca", BIG, bob) is None
    assert site.editions.holding("pesca", {**BIG, "cards": [1]}, ann) is None
    assert site.editions.holding("pesca", float("nan"), ann) is None


def test_a_version_a_game_uses_is_never_dropped(site: Site) -> None:
    ann = site.user("ann")
    made = site.save(ann, BIG)
    room = site.create(ann, edition=made["id"])
    for cards in ([1, 2, 3, 4, 5], [1, 2, 3, 4, 6], [1, 2, 3, 4, 7]):
        site.save(ann, {"format": "pesca-deck/1", "cards": cards}, edition_id=made["id"])
    site.editions.delete(ann, made["id"])
    store = EditionStore(site.store)
    assert store.version(made["id"], 1) is not None  # the game's
    assert store.version(made["id"], 2) is None  # nobody's
    assert site.editions.listing("pesca", ann)["editions"] == []
    with pytest.raises(ClientError, match="no such edition"):
        site.editions.get(made["id"], ann)
    assert room.params.edition["version"] == 1


def test_a_game_is_dealt_from_its_edition_and_says_so(site: Site) -> None:
    ann = site.user("ann")
    made = site.save(ann, BIG, name="Big <deck>")
    room = site.create(ann, edition=made["id"])
    assert sorted(room.state.cards) == BIG["cards"]
    assert set(room.state.hands) <= set(BIG["cards"])
    assert room.summary()["edition"] == "Big <deck>"
    assert room.message_for(0)["edition"] == "Big <deck>"
    stored = site.store.load(room.id)
    assert stored is not None
    assert stored.params["edition"] == {"id": made["id"], "version": 1,
                                        "hash": content_hash(BIG), "name": "Big <deck>"}
    assert "cards" not in json.dumps(stored.params["options"])


def test_the_default_edition_is_the_game_as_shipped(site: Site) -> None:
    room = site.create(None)
    assert room.params.edition is None and "edition" not in room.summary()
    assert "edition" not in site.store.load(room.id).params  # type: ignore[union-attr]
    assert sorted(room.state.cards) == list(range(1, 10))


def test_an_unplayable_or_unknown_edition_is_refused(site: Site) -> None:
    ann, bob = site.user("ann"), site.user("bob")
    draft = site.save(ann, TWICE)
    before = site.store.game_ids()
    with pytest.raises(ClientError) as refused:
        site.create(ann, edition=draft["id"])
    assert refused.value.code == "edition-unplayable"
    private = site.save(ann, BIG)
    for who, wanted in ((ann, "no-such-edition"), (bob, private["id"]), (None, private["id"]),
                        (ann, {"an": "object"})):
        with pytest.raises(ClientError) as refused:
            site.create(who, edition=wanted)
        assert refused.value.code == "not-found"
    assert site.store.game_ids() == before


def test_shared_editions_are_read_by_link_or_by_anyone(site: Site) -> None:
    ann, bob = site.user("ann"), site.user("bob")
    link = site.save(ann, BIG, name="Linked", visibility="link")
    public = site.save(ann, BIG, name="Public", visibility="public")
    key = site.editions.get(link["id"], ann)["key"]
    with pytest.raises(ClientError):
        site.editions.get(link["id"], bob)
    with pytest.raises(ClientError):
        site.editions.get(link["id"], bob, key="wrong" + key)
    assert site.editions.get(link["id"], bob, key=key)["data"] == BIG
    assert "key" not in site.editions.get(link["id"], bob, key=key)
    assert site.create(bob, edition=link["id"], edition_key=key).params.edition["name"] \
        == "Linked"
    listed = site.editions.listing("pesca", bob)["editions"]
    assert [e["name"] for e in listed] == ["Public"]
    assert site.create(None, edition=public["id"]).params.edition["name"] == "Public"


def test_a_game_on_an_edition_replays_after_a_restart(site: Site) -> None:
    ann = site.user("ann")
    made = site.save(ann, BIG)
    room = site.create(ann, edition=made["id"])
    site.save(ann, {"format": "pesca-deck/1", "cards": [5, 6, 7, 8, 9]},
              edition_id=made["id"])
    server, editions = serve(site.store)
    assert server.resume() >= 1
    again = server.rooms[room.id]
    assert again.state.cards == room.state.cards
    assert again.params.play_options == {"cards": BIG["cards"]}
    editions.store.close()


def test_a_game_whose_edition_is_missing_is_not_replayed_on_the_default(site: Site) -> None:
    ann = site.user("ann")
    room = site.create(ann, edition=site.save(ann, BIG)["id"])
    plain = GameServer(site.store, {"pesca": make_site()}, bot_processes=False)
    assert plain.room(room.id) is None  # this server keeps no editions


def test_the_store_round_trips_on_both_databases(db_url: str) -> None:
    store = open_store(db_url)
    open_account_store(store).close()
    editions = EditionStore(store)
    editions.create("e1", "pesca", "Mine", 7, "public", "key",
                    NewVersion("h1", '{"a":1}', False, ""))
    assert editions.add_version("e1", "Renamed", "link", NewVersion("h2", '{"a":2}', True,
                                                                    "two")) == 2
    got = editions.edition("e1")
    assert got is not None
    assert (got.name, got.visibility, got.latest, got.playable, got.hash, got.describe) == \
        ("Renamed", "link", 2, 2, "h2", "two")
    assert editions.count(7) == 1 and editions.listed("pesca", 10) == []
    editions.close()
    store.close()


def test_a_deleted_account_leaves_only_the_versions_games_use(site: Site) -> None:
    ann = site.user("ann")
    played = site.save(ann, BIG, name="Played", visibility="public")
    room = site.create(None, edition=played["id"])
    site.save(ann, {"format": "pesca-deck/1", "cards": [5, 6, 7, 8, 9]}, name="Played",
              visibility="public", edition_id=played["id"])
    assert len(site.editions.listing("pesca", None)["editions"]) == 1
    unplayed = site.save(ann, BIG, name="Unplayed")
    accounts = Accounts(site.server, site.accounts)
    privacy = Privacy(site.server, accounts)
    exported = privacy.export_head(ann)["editions"]
    assert [(e["name"], e["version"], e["data"]) for e in exported] == \
        [("Played", 2, {"format": "pesca-deck/1", "cards": [5, 6, 7, 8, 9]}),
         ("Unplayed", 1, BIG)]
    asyncio.run(privacy.delete(ann))
    store = EditionStore(site.store)
    assert store.version(played["id"], 1) is not None  # the game's
    assert store.version(played["id"], 2) is None
    assert store.version(unplayed["id"], 1) is None and store.edition(unplayed["id"]) is None
    assert site.editions.listing("pesca", None)["editions"] == []
    assert store.count(ann.id) == 0
    site.server.rooms.clear()
    again = site.server.room(room.id)
    assert again is not None and again.params.play_options == {"cards": BIG["cards"]}


def test_a_rated_game_is_played_on_the_shipped_reconstruction(site: Site) -> None:
    ann = site.user("ann")
    made = site.save(ann, BIG)
    accounts = Accounts(site.server, site.accounts)
    before = site.store.game_ids()
    with pytest.raises(ClientError) as refused:
        site.server.create({"game": "pesca", "seats": SEATS, "edition": made["id"]},
                           check=accounts._check_rated, account=ann.id)
    assert "shipped reconstruction" in refused.value.message
    assert site.store.game_ids() == before


def test_a_rematch_is_dealt_on_the_same_edition_after_a_restart(site: Site) -> None:
    ann = site.user("ann")
    made = site.save(ann, BIG, name="Big deck")
    room = site.create(ann, seats=[{"kind": "person"}, {"kind": "person"}],
                       edition=made["id"])

    async def finish_and_rematch(server: GameServer) -> Any:
        again = server.room(room.id)
        assert again is not None
        while not again.state.is_over:
            seat = again.state.to_move()[0]
            action = again.game.legal_actions(again.state, seat)[-1]
            await server.act(again, seat, again.game.action_to_json(action), again.seq)
        await server.rematch(again, 0, "10.1.1.1")
        assert again.rematch is not None
        return server.room(again.rematch[0].removeprefix("/game/").split("#")[0])

    server, editions = serve(site.store)  # a restart: the edition's options read again
    new = asyncio.run(finish_and_rematch(server))
    assert sorted(new.state.cards) == BIG["cards"]
    assert new.params.edition == room.params.edition and new.summary()["edition"] == "Big deck"
    editions.store.close()


def test_a_server_without_editions_refuses_a_game_on_one(site: Site) -> None:
    plain = GameServer(site.store, {"pesca": make_site()}, bot_processes=False)
    with pytest.raises(ClientError) as refused:
        plain.create({"game": "pesca", "seats": SEATS, "edition": "some-edition"}, "10.1.1.2")
    assert refused.value.code == "no-editions"
    assert plain.create({"game": "pesca", "seats": SEATS, "edition": "default"},
                        "10.1.1.2").params.edition is None


def test_a_stored_setup_names_the_editions_data_and_gets_it_back() -> None:
    """Wherever a setup holds the edition's data it is named by hash, and put back exactly;
    other parts, and a setup stored whole, stay as they are."""
    data = {"cards": [1, 2, 3], "name": "Big"}
    setup = {"names": ["Ann", "Bea"], "options": {"deck": data, "other": {"cards": [1]}},
             "deck": data}
    digest = content_hash(data)
    stored = setup_stored(setup, digest)
    assert stored == {"names": ["Ann", "Bea"], "deck": {STORED_AS: digest},
                      "options": {"deck": {STORED_AS: digest}, "other": {"cards": [1]}}}
    assert setup_filled(stored, digest, data) == setup
    assert setup_filled(setup, digest, data) == setup
    assert setup_stored(setup, content_hash({"cards": [9]})) == setup
