"""Deleting an account and exporting its data, on the server alone and on both databases:
every row that names the account goes, its games keep an anonymous seat and still replay, the
other players' ratings stay as they were; the export holds what the account page shows."""

from __future__ import annotations

import asyncio
import json
import urllib.parse
import urllib.request
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from accounts_client import Visitor
from web_server import Server, launch

from tavola.web.account_store import open_account_store
from tavola.web.accounts import STATIC, Accounts
from tavola.web.app import GameServer, Limits
from tavola.web.errors import ClientError
from tavola.web.friends import Friends, FriendStore
from tavola.web.loadbench import LOCAL_LIMITS
from tavola.web.notices import Config, Notifier
from tavola.web.notices.store import Settings
from tavola.web.outbox import Notice
from tavola.web.privacy import OWN_ROWS, Privacy
from tavola.web.room import BOT, PERSON
from tavola.web.site import load_sites
from tavola.web.storage import open_store

NAME = "Zephyrine"  # the deleted account: found nowhere in the database afterwards
PEOPLE = [{"kind": "person"}, {"kind": "person"}]


def make(db_url: str) -> tuple[GameServer, Accounts, Privacy]:
    server = GameServer(open_store(db_url), load_sites(["gonzaga"]), bot_processes=False,
                        bot_delay=0, limits=Limits(undo_wait=0))
    accounts = Accounts(server, open_account_store(server.store))
    server.accounts = accounts
    server.friends = Friends(server, accounts, FriendStore(server.store))
    server.notifier = Notifier(server, Config())
    privacy = Privacy(server, accounts)
    server.privacy = privacy
    return server, accounts, privacy


def close(server: GameServer) -> None:
    server.hinting.close()
    server.chat.close()
    server.store.close()


def add_users(accounts: Accounts, *names: str) -> list[Any]:
    out = []
    for name in names:
        user = accounts.store.add_user(name, name.lower(), "")
        assert user is not None
        out.append(user)
    return out


async def finish(server: GameServer, room: Any) -> None:
    while not room.state.is_over:
        seat = room.state.to_move()[0]
        action = room.game.legal_actions(room.state, seat)[-1]
        await server.act(room, seat, room.game.action_to_json(action), room.seq)


def seated(server: GameServer, accounts: Accounts, users: list[Any], rated: bool = False,
           **params: Any) -> Any:
    room = server.create({"game": "gonzaga", "seats": PEOPLE, **params})
    for seat, user in enumerate(users):
        accounts._hold(room, seat, user)
    if rated:
        accounts.store.add_rated(room.id, "gonzaga", 2)
    return room


def every_text(server: GameServer, privacy: Privacy) -> str:
    """Every row of every table the deletion touches or leaves, as one text."""
    tables = ["games", "seats", "actions", "chat_lines", "turn_clocks", "turn_misses",
              "leave_choices", "outbox", "deliveries"] + [t for t, _ in OWN_ROWS]
    return "\n".join(repr(privacy.db.rows(f"SELECT * FROM {t}")) for t in tables)


def count(privacy: Privacy, table: str, where: str, user_id: int) -> int:
    return int(privacy.db.rows(f"SELECT COUNT(*) FROM {table} WHERE {where}",
                               (user_id,) * where.count("?"))[0][0])


def test_deleting_an_account_leaves_no_row_of_it_and_its_games_replay(db_url):
    with asyncio.Runner() as runner:  # one loop for the test, as a server has (the pool of
        # the PostgreSQL store belongs to the loop it first ran on)
        deleting_an_account(db_url, runner)


def deleting_an_account(db_url: str, runner: asyncio.Runner) -> None:
    server, accounts, privacy = make(db_url)
    zeph, bob, cy = add_users(accounts, NAME, "Bob", "Cy")
    store, friends, notices = accounts.store, server.friends, server.notifier
    assert friends is not None and notices is not None

    async def run() -> dict[str, Any]:
        rated = seated(server, accounts, [zeph, bob], rated=True)
        await finish(server, rated)
        chatty = seated(server, accounts, [cy, zeph])
        for seat, text in ((1, "good luck, Cy"), (0, "thanks"), (1, "well played")):
            server.chat.store.add(chatty.id, seat, chatty.params.seats[seat].name, text, 1.0)
        await finish(server, chatty)
        running = seated(server, accounts, [bob, zeph])
        # the account's own rows, one or more in each table that names it
        store.add_session("s" * 40, zeph.id, "csrf")
        store.add_device("d" * 40, zeph.id)
        accounts.take_vacation(zeph.id, 2)
        notices.store.save(Settings(zeph.id, email="zeph@example.org"))
        notices.store.start_reset(zeph.id, 0.0)
        notices.store.visited(zeph.id, running.id, 1.0)
        notices.write([Notice("nudge", "nudge:x", running.id, 1, zeph.id)])
        with notices.store.tx() as db:
            db.execute("INSERT INTO deliveries (key, event, kind, user_id, channel, data, "
                       "state, due, created) VALUES ('k','e','turn',?,'email','{}','sent',0,0)",
                       (zeph.id,))
        friends.store.add_friend(zeph.id, bob.id)
        friends.store.add_friend(bob.id, zeph.id)
        friends.store.block(cy.id, zeph.id)
        invited = server.create({"game": "gonzaga", "seats": PEOPLE})
        accounts._hold(invited, 0, bob)
        friends.invite_seats(invited, {1: zeph}, bob)
        return {"rated": rated, "chatty": chatty, "running": running, "invited": invited}

    games = runner.run(run())
    rated, chatty, running, invited = (games[k] for k in ("rated", "chatty", "running",
                                                          "invited"))
    assert NAME in every_text(server, privacy)
    record = json.loads(server.replays.record_of(rated))
    bob_rating = store.rating(bob.id, "gonzaga", 2)
    bob_changes = store.changes_of(bob.id)
    assert bob_rating is not None and rated.id in bob_changes
    assert count(privacy, "rating_changes", "user_id=?", zeph.id) == 1

    former = runner.run(privacy.delete(zeph))

    assert former == "Former player 1"
    for table, where in OWN_ROWS:
        assert count(privacy, table, where, zeph.id) == 0, table
    assert NAME not in every_text(server, privacy)
    # its games: the seat's anonymous name, stored, and the record replays to the same end
    for room, seat in ((rated, 0), (chatty, 1)):
        server._forget(room.id)
        again = server.room(room.id)
        assert again is not None and again.is_over
        assert again.params.seats[seat].name == former and again.params.seats[seat].kind == PERSON
    after = json.loads(server.replays.record_of(server.room(rated.id)))
    assert rated.game.verify_record(after).history == rated.state.history
    assert after == json.loads(json.dumps(record).replace(NAME, former))
    assert [(line["name"], line["text"]) for line in server.chat.store.recent(chatty.id)] == [
        (former, "good luck, Cy"), ("Cy", "thanks"), (former, "well played")]
    # the others' ratings are untouched
    assert store.rating(bob.id, "gonzaga", 2) == bob_rating
    assert store.changes_of(bob.id) == bob_changes
    # a running game: a bot plays the seat, the others choose whether it goes on
    assert running.params.seats[1].kind == BOT and running.params.seats[1].name == former
    assert 1 in running.bots and 1 in running.choices
    # its link opens the seat, but cannot move for the bot, in this process or after a restart
    async def moves_for_the_bot(fresh: bool) -> None:
        if fresh:
            server._forget(running.id)
        room = server.room(running.id)
        assert room is not None and (room is not running) == fresh
        await server.act(room, 1, {"type": "pass"}, room.seq)

    for fresh in (False, True):
        with pytest.raises(ClientError) as refused:
            runner.run(moves_for_the_bot(fresh))
        assert refused.value.code == "bot-seat"
    # the seat kept for it by an invitation is a bot's
    assert invited.params.seats[1].kind == BOT and 1 not in invited.params.reserved
    # the name is free again
    assert store.add_user(NAME, NAME.lower(), "") is not None
    close(server)


def test_each_deleted_account_has_its_own_number_in_all_its_games(db_url):
    server, accounts, privacy = make(db_url)
    ann, ben, cat = add_users(accounts, "Ann", "Ben", "Cat")

    async def run() -> list[Any]:
        rooms = [seated(server, accounts, [ann, ben]), seated(server, accounts, [cat, ann]),
                 seated(server, accounts, [ben, cat])]
        for room in rooms:
            await finish(server, room)
        assert await privacy.delete(ann) == "Former player 1"
        assert await privacy.delete(cat) == "Former player 2"
        return rooms

    rooms = asyncio.run(run())
    names = [[s.name for s in server.room(r.id).params.seats] for r in rooms]
    assert names == [["Former player 1", "Ben"], ["Former player 2", "Former player 1"],
                     ["Ben", "Former player 2"]]
    assert privacy.db.rows("SELECT COUNT(*) FROM former_players WHERE user_id IS NOT NULL") \
        == [(0,)]  # no number stays tied to an account id
    close(server)


def test_the_export_holds_the_account_its_games_records_chat_ratings_and_friends(db_url):
    server, accounts, privacy = make(db_url)
    zeph, bob = add_users(accounts, NAME, "Bob")
    friends, notices = server.friends, server.notifier
    assert friends is not None and notices is not None

    async def run() -> tuple[Any, bytes]:
        rated = seated(server, accounts, [zeph, bob], rated=True)
        server.chat.store.add(rated.id, 0, NAME, "hello Bob", 5.0)
        server.chat.store.add(rated.id, 1, "Bob", "hello", 6.0)
        await finish(server, rated)
        running = seated(server, accounts, [bob, zeph])
        friends.store.add_friend(zeph.id, bob.id)
        notices.store.save(Settings(zeph.id, email="zeph@example.org", turn_mode="digest"))
        accounts.take_vacation(zeph.id, 1)
        chunks = [chunk async for chunk in privacy.export(zeph)]
        assert len(chunks) >= 4  # streamed: a head, each game, the end
        return (rated, running), b"".join(chunks)

    (rated, running), body = asyncio.run(run())
    data = json.loads(body)
    assert data["account"]["name"] == NAME and data["account"]["email"] == "zeph@example.org"
    assert data["account"]["created"] > 0
    assert data["notifications"]["turn_mode"] == "digest"
    assert data["friends"] == ["Bob"] and data["blocked"] == []
    assert [v["days"] for v in data["vacations"]] == [1]
    assert [(c["game_id"], c["text"]) for c in data["chat"]] == [(rated.id, "hello Bob")]
    assert [r["games"] for r in data["ratings"]] == [1]
    assert [h["game_id"] for h in data["rating_history"]] == [rated.id]
    games = {g["id"]: g for g in data["games"]}
    assert set(games) == {rated.id, running.id}
    assert games[running.id]["record"] is None  # a running game has no record yet
    assert games[rated.id]["record"] == json.loads(server.replays.record_of(rated))
    assert games[rated.id]["seat"] == 0
    close(server)


# -- on a real server ----------------------------------------------------------------------------

RELAXED = {**LOCAL_LIMITS, "logins_per_minute": 0, "signups_per_hour": 0,
           "messages_per_second": 0, "exports_per_hour": 1, "export_burst": 2}


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = launch(tmp_path_factory.mktemp("privacy") / "games.db", limits=RELAXED,
                 proxies=["127.0.0.1"])
    yield srv
    srv.stop()


def test_the_export_is_one_json_attachment_limited_per_account(web):
    v = Visitor(web.base, "198.51.100.7")
    v.sign_up("Exporter")
    status, headers, data = v.call("/api/me/export")
    assert status == 200, data
    assert headers["Content-Disposition"].startswith('attachment; filename="account-')
    assert headers["Content-Type"].startswith("application/json")
    assert data["account"]["name"] == "Exporter" and data["games"] == []
    assert v.call("/api/me/export")[0] == 200
    status, headers, data = v.call("/api/me/export")  # the third within the hour
    assert status == 429 and int(headers["Retry-After"]) > 0
    other = Visitor(web.base, "198.51.100.7")  # another account at the same address
    other.sign_up("Exporter2")
    assert other.call("/api/me/export")[0] == 200
    assert Visitor(web.base).call("/api/me/export")[0] == 401  # signed out: nothing


def test_deleting_takes_the_password_and_the_request_token_then_frees_the_name(web):
    v = Visitor(web.base, "198.51.100.8")
    v.sign_up("Leaver", "correct horse battery")
    for body, csrf in (({"confirm": "wrong password"}, True), ({}, True),
                       ({"confirm": "correct horse battery"}, False)):
        status, _, data = v.call("/api/me/delete", body, csrf=csrf)
        assert status in (400, 403), (status, data)
        assert v.ok("/api/me")["user"] == {"name": "Leaver"}  # nothing changed
    status, headers, data = v.call("/api/me/delete", {"confirm": "correct horse battery"})
    assert status == 200 and data["deleted"] and data["former"].startswith("Former player ")
    assert "tabletop_session=" in headers["Set-Cookie"]  # the browser forgets the session
    assert v.ok("/api/me")["user"] is None
    assert Visitor(web.base).call("/api/login", {"name": "Leaver",
                                                 "password": "correct horse battery"})[0] == 401
    assert Visitor(web.base, "198.51.100.9").sign_up("Leaver")["user"] == {"name": "Leaver"}


def test_the_privacy_page_is_served_and_linked_from_the_account_page(web):
    with urllib.request.urlopen(f"{web.base}/privacy", timeout=30) as r:
        page = r.read().decode()
    assert r.status == 200 and "What this site stores" in page
    assert 'href="/privacy"' in (STATIC / "account.html").read_text(encoding="utf-8")
    assert 'href: "/privacy"' in (STATIC / "common.js").read_text(encoding="utf-8")


class _Loads(HTMLParser):
    """Every address a page's tags load: link href, script and img src."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        wanted = {"link": "href", "script": "src", "img": "src", "iframe": "src",
                  "source": "src", "video": "src", "audio": "src"}.get(tag)
        self.found += [v for k, v in attrs if k == wanted and v]


def test_no_static_page_loads_anything_from_another_origin():
    games = Path(__file__).parents[2] / "tavola" / "games"
    pages = sorted(STATIC.glob("*.html")) + sorted(games.glob("*/web/static/*.html"))
    assert len(pages) > 10
    for page in pages:
        parser = _Loads()
        parser.feed(page.read_text(encoding="utf-8"))
        for url in parser.found:
            parts = urllib.parse.urlsplit(url)
            assert not parts.scheme and not parts.netloc, (page, url)
