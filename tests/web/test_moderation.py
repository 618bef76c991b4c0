"""Moderation on the server: reports, roles, hiding chat lines, mutes, suspensions and the
audit, on SQLite and PostgreSQL; and the `tavola admin` commands.

The game server is driven directly (no bot processes), as in test_friends.py: a request or a
WebSocket is as little of one as the account code reads.
"""

from __future__ import annotations

import asyncio
import json
import math
import secrets
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from accounts_client import Visitor
from test_accounts import RELAXED
from typer.testing import CliRunner
from web_server import launch

from tavola.cli import app as cli
from tavola.web.account_store import User, open_account_store
from tavola.web.accounts import SESSION_COOKIE, Accounts
from tavola.web.app import GameServer, Limits
from tavola.web.errors import ClientError
from tavola.web.moderation import Moderation, ModerationStore
from tavola.web.room import PERSON
from tavola.web.site import load_sites
from tavola.web.storage import open_store
from tavola.web.user_names import name_key

HOUR = 3600.0


@dataclass
class Player:
    user: User
    token: str
    csrf: str

    def request(self, body: Any = None) -> Any:
        async def read() -> bytes:
            return json.dumps(body).encode()
        return SimpleNamespace(cookies={SESSION_COOKIE: self.token},
                               headers={"x-csrf-token": self.csrf},
                               client=SimpleNamespace(host=f"10.0.0.{self.user.id}"),
                               body=read, url=SimpleNamespace(scheme="http"))

    def ws(self) -> Any:
        return SimpleNamespace(headers={}, cookies={SESSION_COOKIE: self.token})


@dataclass
class FakeConn:
    """A joined WebSocket client: seat, account, what it was sent."""

    seat: int | None
    account: int | None
    ws: Any = None
    joined: bool = True
    address: str = "10.9.9.9"
    sent: list[dict[str, Any]] = field(default_factory=list)

    def send(self, text: str) -> None:
        self.sent.append(json.loads(text))

    def send_view(self) -> None:
        pass

    def __hash__(self) -> int:
        return id(self)


@dataclass
class Site:
    server: GameServer
    accounts: Accounts
    moderation: Moderation
    now: list[float]

    def player(self, name: str, role: str | None = None) -> Player:
        user = self.accounts.store.add_user(name, name_key(name), "not a hash")
        assert user is not None
        token, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(24)
        self.accounts.store.add_session(token, user.id, csrf)
        if role is not None:
            self.moderation.store.grant(user.id, role, self.now[0])
        return Player(user, token, csrf)

    def table(self, ann: Player, bea: Player) -> Any:
        """A game of Ann's, Bea in the second seat, with both at the table."""
        room = self.accounts.create_game(ann.request(), {"game": "gonzaga", "public": True,
                                                         "seats": [{"kind": PERSON}] * 2})
        self.accounts.join(bea.request(), room.id)
        return room


def make_site(db_url: str) -> Site:
    now = [1_000_000.0]
    server = GameServer(open_store(db_url), load_sites(["gonzaga"]), bot_processes=False,
                        bot_delay=0, clock=lambda: now[0],
                        limits=Limits(creates_per_minute=0, lobby_per_second=0))
    accounts = Accounts(server, open_account_store(server.store))
    server.accounts = accounts
    server.moderation = Moderation(server, server.store)
    return Site(server, accounts, server.moderation, now)


def close(site: Site) -> None:
    site.moderation.close()
    site.accounts.store.close()
    site.server.hinting.close()
    site.server.turns.close()
    site.server.chat.close()
    site.server.store.close()


@pytest.fixture
def site(db_url: str) -> Iterator[Site]:
    made = make_site(db_url)
    yield made
    close(made)


def refused(code: str, call: Any, *args: Any) -> ClientError:
    with pytest.raises(ClientError) as exc:
        call(*args)
    assert exc.value.code == code, exc.value
    return exc.value


def say_in_chat(site: Site, room: Any, conn: FakeConn, text: str) -> int:
    return int(site.server.chat.post(conn, room, text, site.server.conns[room.id])["n"])


# -- the store ---------------------------------------------------------------------------------


def test_roles_reports_sanctions_and_the_audit_are_stored(db_url):
    store = ModerationStore(open_store(db_url))
    store.grant(7, "moderator", 10.0)
    store.grant(8, "admin", 11.0)
    store.grant(7, "admin", 12.0)  # one role per account: admin replaces moderator
    assert store.roles() == [(7, "admin", 12.0), (8, "admin", 11.0)]
    assert not store.revoke(7, "moderator", 13.0) and store.revoke(7, "admin", 13.0)
    assert store.role(7) is None and store.role(8) == "admin"
    first = store.add_report(1, "user 2", 2, None, None, "spam", "", 20.0)
    assert first is not None
    assert store.add_report(1, "user 2", 2, None, None, "abuse", "again", 21.0) is None
    other = store.add_report(3, "user 2", 2, None, None, "abuse", "", 22.0)
    report = store.report(first)
    assert report is not None and report["reason"] == "spam"
    store.act(report, 8, "mute", "rude words", 30.0, until=30.0 + HOUR)
    assert store.open_reports() == []  # the other report on the same player closed too
    assert store.report(other)["outcome"] == "mute"  # type: ignore[index]
    # once closed, the same reporter may report the same player again
    assert store.add_report(1, "user 2", 2, None, None, "spam", "", 40.0) is not None
    assert store.in_force(31.0)["mute"] == {2: 30.0 + HOUR}
    assert store.in_force(30.0 + HOUR)["mute"] == {}
    store.act(store.open_reports()[0], 8, "suspend", "again", 50.0, until=None)
    assert store.in_force(1e12)["suspend"] == {2: math.inf}
    audit = store.audit()
    assert [(a["action"], a["by_user"], a["target_user"], a["reason"]) for a in audit] == [
        ("suspend", 8, 2, "again"), ("mute", 8, 2, "rude words"),
        ("revoke", None, 7, "command line"), ("grant", None, 7, "command line"),
        ("grant", None, 8, "command line"), ("grant", None, 7, "command line")]
    assert audit[0]["detail"] == {"forever": True} and audit[-1]["detail"] == {"role": "moderator"}
    store.close()


# -- reports -----------------------------------------------------------------------------------


def test_a_report_needs_a_reason_from_the_list_and_is_limited(db_url):
    site = make_site(db_url)
    site.server.limits.report_burst = 2
    site.moderation = Moderation(site.server, site.server.store)  # the new burst
    site.server.moderation = site.moderation
    ann, bea, cyd, dan = (site.player(n) for n in ("Ann", "Bea", "Cyd", "Dan"))
    room = site.table(ann, bea)
    site.server.conns[room.id] = set()
    n = say_in_chat(site, room, FakeConn(0, ann.user.id), "buy gold at example.com")
    refused("bad-request", site.moderation.report, bea.user,
            {"game": room.id, "line": n, "reason": "boring"})
    refused("bad-request", site.moderation.report, bea.user,
            {"game": room.id, "line": n, "reason": "spam", "text": "x" * 501})
    refused("not-found", site.moderation.report, bea.user,
            {"game": room.id, "line": n + 1, "reason": "spam"})
    refused("bad-request", site.moderation.report, ann.user,  # one's own line
            {"game": room.id, "line": n, "reason": "spam"})
    made = site.moderation.report(bea.user, {"game": room.id, "line": n, "reason": "spam",
                                             "text": "an advert"})
    assert "received" in made["message"]
    refused("already-reported", site.moderation.report, bea.user,
            {"game": room.id, "line": n, "reason": "abuse"})
    site.moderation.report(bea.user, {"player": "cyd", "reason": "name"})
    refused("rate-limited", site.moderation.report, bea.user, {"player": "Dan",
                                                               "reason": "other"})
    site.moderation.report(cyd.user, {"player": "Dan", "reason": "other"})  # per account
    (line, player, _) = site.moderation.store.open_reports()
    assert (line["target_user"], line["game_id"], line["line"], line["text"]) == \
        (ann.user.id, room.id, n, "an advert")
    assert player["target_user"] == cyd.user.id and dan.user.id != cyd.user.id
    close(site)


def test_only_moderators_read_the_moderation_page(site):
    ann, mod = site.player("Ann"), site.player("Mod", "moderator")
    refused("not-moderator", site.moderation.page, ann.user)
    page = site.moderation.page(mod.user)
    assert page["you"] == {"name": "Mod", "role": "moderator"} and page["reports"] == []


# -- hiding a line -----------------------------------------------------------------------------


def test_a_hidden_line_disappears_for_every_connection_and_stays_for_the_audit(site):
    ann, bea, mod = site.player("Ann"), site.player("Bea"), site.player("Mod", "moderator")
    room = site.table(ann, bea)
    conns = [FakeConn(0, ann.user.id), FakeConn(1, bea.user.id), FakeConn(None, None)]
    site.server.conns[room.id] = set(conns)
    say_in_chat(site, room, conns[0], "hello")
    n = say_in_chat(site, room, conns[0], "something vile")
    say_in_chat(site, room, conns[1], "goodbye")
    site.moderation.report(bea.user, {"game": room.id, "line": n, "reason": "abuse"})
    (report,) = site.moderation.page(mod.user)["reports"]
    assert [(c["text"], c["hidden"]) for c in report["context"]] == [
        ("hello", False), ("something vile", False), ("goodbye", False)]
    assert report["player"] == "Ann" and report["reporter"] == "Bea" and report["game"] == room.id
    refused("bad-request", asyncio.run, site.moderation.act(
        mod.user, {"report": report["id"], "action": "hide", "reason": "  "}))
    asyncio.run(site.moderation.act(mod.user, {"report": report["id"], "action": "hide",
                                               "reason": "insults"}))
    for conn in conns:
        assert conn.sent[-1] == {"type": "chat-hidden", "n": n}
    history = json.loads(site.server.chat.history(room) or "{}")
    assert [line["text"] for line in history["lines"]] == ["hello", "goodbye"]
    assert [line["hidden"] for line in site.server.chat.store.around(room.id, n, 1)] == \
        [False, True, False]  # still stored
    page = site.moderation.page(mod.user)
    assert page["reports"] == []
    hid = page["audit"][0]
    assert (hid["action"], hid["by"], hid["player"], hid["game"], hid["line"], hid["reason"]) \
        == ("hide", "Mod", "Ann", room.id, n, "insults")


def test_a_line_hidden_on_another_process_is_taken_off_this_ones_pages(site):
    ann, bea = site.player("Ann"), site.player("Bea")
    room = site.table(ann, bea)
    conn = FakeConn(1, bea.user.id)
    site.server.conns[room.id] = {conn}
    site.server.relayed(room.id, {"type": "chat-hidden", "n": 3})
    assert conn.sent == [{"type": "chat-hidden", "n": 3}]


# -- mutes -------------------------------------------------------------------------------------


def test_a_muted_player_chats_no_more_until_the_mute_ends(site):
    ann, bea, mod = site.player("Ann"), site.player("Bea"), site.player("Mod", "moderator")
    room = site.table(ann, bea)
    conn = FakeConn(0, ann.user.id)
    site.server.conns[room.id] = {conn}
    site.moderation.report(bea.user, {"player": "Ann", "reason": "abuse"})
    (report,) = site.moderation.store.open_reports()
    refused("bad-request", asyncio.run, site.moderation.act(
        mod.user, {"report": report["id"], "action": "mute", "reason": "insults",
                   "period": "forever"}))  # a mute has an end
    asyncio.run(site.moderation.act(mod.user, {"report": report["id"], "action": "mute",
                                               "reason": "insults", "period": "day"}))
    chat = json.dumps({"type": "chat", "text": "hello"})
    error = refused("muted", asyncio.run, site.server.sockets.message(conn, room, chat))
    assert "1970-01-13 13:46 UTC" in error.message  # the clock's 1,000,000 s plus a day
    assert site.server.chat.history(room) is None
    asyncio.run(site.server.sockets.message(FakeConn(1, bea.user.id), room, chat))  # others write
    site.now[0] += 86_400 + 1
    asyncio.run(site.server.sockets.message(conn, room, chat))
    assert len(site.server.chat.store.recent(room.id)) == 2


def test_a_moderator_cannot_act_on_an_admin_but_an_admin_can(site):
    bea = site.player("Bea")
    mod, boss = site.player("Mod", "moderator"), site.player("Boss", "admin")
    site.moderation.report(bea.user, {"player": "Boss", "reason": "abuse"})
    (report,) = site.moderation.store.open_reports()
    refused("admin-target", asyncio.run, site.moderation.act(
        mod.user, {"report": report["id"], "action": "mute", "reason": "x", "period": "hour"}))
    assert site.moderation.page(mod.user)["reports"][0]["admin"] is True
    asyncio.run(site.moderation.act(boss.user, {"report": report["id"], "action": "dismiss",
                                                "reason": "nothing wrong"}))
    assert site.moderation.store.open_reports() == []
    assert site.moderation.store.audit()[0]["action"] == "dismiss"


# -- suspensions -------------------------------------------------------------------------------


async def suspend(site: Site, mod: Player, reporter: Player, name: str, period: str) -> None:
    site.moderation.report(reporter.user, {"player": name, "reason": "cheating"})
    report = site.moderation.store.open_reports()[-1]
    await site.moderation.act(mod.user, {"report": report["id"], "action": "suspend",
                                         "reason": "bot play", "period": period})


def test_a_suspended_player_cannot_create_join_play_or_sign_in(db_url):
    site = make_site(db_url)
    ann, bea, cyd = site.player("Ann"), site.player("Bea"), site.player("Cyd")
    mod = site.player("Mod", "moderator")
    password = "correct horse battery"
    site.accounts.store.set_password(bea.user.id, site.accounts.hasher.hash(password))
    room = site.table(ann, bea)
    open_game = site.accounts.create_game(cyd.request(), {"game": "gonzaga", "public": True,
                                                          "seats": [{"kind": PERSON}] * 2})
    conn = FakeConn(1, bea.user.id)

    asyncio.run(suspend(site, mod, ann, "Bea", "week"))
    error = refused("suspended", site.accounts.create_game, bea.request(),
                    {"game": "gonzaga", "seats": [{"kind": PERSON}] * 2})
    assert "suspended until 1970-01-19" in error.message
    refused("suspended", site.accounts.join, bea.request(), open_game.id)
    refused("suspended", site.accounts.opening, bea.ws(), room, 1)
    refused("suspended", asyncio.run, site.server.sockets.message(
        conn, room, json.dumps({"type": "act", "action": {}, "seq": room.seq})))
    refused("suspended", asyncio.run, site.server.sockets.message(
        conn, room, json.dumps({"type": "chat", "text": "why?"})))
    refused("suspended", asyncio.run, site.accounts.sign_in(
        bea.request({"name": "Bea", "password": password})))
    refused("bad-login", asyncio.run, site.accounts.sign_in(  # a wrong password says nothing
        bea.request({"name": "Bea", "password": "wrong password!"})))
    site.now[0] += 8 * 86_400  # the week is over
    site.moderation._reread()
    asyncio.run(site.accounts.sign_in(bea.request({"name": "Bea", "password": password})))
    site.accounts.join(bea.request(), open_game.id)
    close(site)


def test_a_suspended_players_seats_go_to_the_bot_as_after_their_last_miss(db_url):
    site = make_site(db_url)
    ann, bea, mod = site.player("Ann"), site.player("Bea"), site.player("Mod", "admin")
    room = site.table(ann, bea)

    async def run() -> None:
        await suspend(site, mod, ann, "Bea", "forever")
        assert 1 in room.replaced and 1 in room.bots
        assert room.choices[1]["voters"] == [0]  # Ann chooses: the bot plays on, or the end
        for _ in range(200):  # the bot moves for Bea whenever the game asks her
            if 1 not in room.state.to_move():
                break
            await asyncio.sleep(0.01)
        assert 1 not in room.asked()

    asyncio.run(run())
    assert site.moderation.store.handovers(room.id)[0][0] == 1
    assert site.moderation.page(mod.user)["audit"][0]["forever"] is True
    log = [line for _, line in room.notices if line["kind"] == "replaced"]
    assert log and log[0]["say"][0] == "moderation.seat-bot"
    refused("suspended", site.moderation.may_play, bea.user.id)
    # the bot keeps the seat after a restart
    close(site)
    again = make_site(db_url)
    loaded = again.server.room(room.id)
    assert loaded is not None and 1 in loaded.replaced and 1 in loaded.bots
    assert [line["say"][0] for _, line in loaded.notices] == ["moderation.seat-bot"]
    close(again)


# -- the command line --------------------------------------------------------------------------


def test_roles_are_given_and_taken_on_the_command_line(tmp_path: Path):
    url = f"sqlite:///{tmp_path / 'site.db'}"
    store = open_store(url)
    accounts = open_account_store(store)
    accounts.add_user("Ann", name_key("Ann"), "not a hash")
    accounts.close()
    store.close()
    runner = CliRunner()
    listed = runner.invoke(cli, ["admin", "list", "--db", url])
    assert listed.exit_code == 0 and "Nobody has a role" in listed.output
    granted = runner.invoke(cli, ["admin", "grant", "ann", "moderator", "--db", url])
    assert granted.exit_code == 0 and "Ann is now moderator" in granted.output
    listed = runner.invoke(cli, ["admin", "list", "--db", url])
    assert listed.exit_code == 0 and listed.output.split() == ["moderator", "Ann"]
    assert runner.invoke(cli, ["admin", "grant", "Zed", "moderator", "--db", url]).exit_code == 1
    assert runner.invoke(cli, ["admin", "grant", "Ann", "king", "--db", url]).exit_code == 2
    assert runner.invoke(cli, ["admin", "revoke", "Ann", "admin", "--db", url]).exit_code == 1
    revoked = runner.invoke(cli, ["admin", "revoke", "Ann", "moderator", "--db", url])
    assert revoked.exit_code == 0 and "Ann is no longer moderator" in revoked.output
    store = open_store(url)
    moderation = ModerationStore(store)
    assert moderation.roles() == []
    assert [a["action"] for a in moderation.audit()] == ["revoke", "grant"]
    moderation.close()
    store.close()


def test_a_seat_handed_over_on_another_process_is_the_bots_here_too(db_url):
    here, there = make_site(db_url), make_site(db_url)
    ann, bea, mod = here.player("Ann"), here.player("Bea"), here.player("Mod", "admin")
    room = here.table(ann, bea)
    theirs = there.server.room(room.id)
    assert theirs is not None and 1 not in theirs.replaced
    asyncio.run(suspend(here, mod, ann, "Bea", "day"))
    assert asyncio.run(there.server._catch_up(theirs))  # told by the cluster's signal
    assert 1 in theirs.replaced and 1 in theirs.bots and theirs.choices[1]["voters"] == [0]
    assert [line["say"][0] for _, line in theirs.notices] == ["moderation.seat-bot"]
    asyncio.run(there.server._catch_up(theirs))  # again: nothing twice
    assert len(theirs.notices) == 1
    close(there)
    close(here)


# -- over HTTP ---------------------------------------------------------------------------------


def test_the_routes_ask_for_an_account_its_csrf_token_and_a_role(tmp_path: Path):
    srv = launch(tmp_path / "games.db", limits=RELAXED, proxies=["127.0.0.1"])
    try:
        ann, bob, guest = (Visitor(srv.base, f"10.1.0.{i}") for i in (1, 2, 3))
        ann.sign_up("Ann")
        bob.sign_up("Bob")
        report = {"player": "Ann", "reason": "name"}
        assert guest.call("/api/reports", report)[0] == 401
        status, _, body = bob.call("/api/reports", report, csrf=False)
        assert (status, body["code"]) == (403, "csrf")
        status, _, body = bob.call("/api/reports", report)
        assert status == 200 and "received" in body["message"]
        status, _, body = bob.call("/api/reports", report)
        assert (status, body["code"]) == (409, "already-reported")
        for visitor in (bob, guest):  # no role: neither the API nor the page
            status, _, body = visitor.call("/api/moderation")
            assert status in (401, 403) and body["code"] in ("sign-in", "not-moderator")
        status, _, body = bob.call("/api/moderation/act", {"report": 1, "action": "dismiss",
                                                           "reason": "x"})
        assert (status, body["code"]) == (403, "not-moderator")
        assert bob.ok("/api/me")["role"] is None
        page = urllib.request.Request(f"{srv.base}/moderation",
                                      headers={"Cookie": bob.cookie_header()})
        with pytest.raises(urllib.error.HTTPError) as denied:
            urllib.request.urlopen(page, timeout=30)
        assert denied.value.code == 403 and b"moderators" in denied.value.read()
        assert CliRunner().invoke(cli, ["admin", "grant", "Bob", "admin", "--db",
                                        f"sqlite:///{srv.db}"]).exit_code == 0
        assert bob.ok("/api/me")["role"] == "admin"
        with urllib.request.urlopen(page, timeout=30) as shown:
            assert shown.status == 200 and b"moderation.js" in shown.read()
        (open_report,) = bob.ok("/api/moderation")["reports"]
        assert open_report["player"] == "Ann" and open_report["reason"] == "name"
    finally:
        srv.stop()


# -- a deleted account -------------------------------------------------------------------------

MOD_COLUMNS = (("mod_roles", "user_id"), ("mod_sanctions", "user_id"),
               ("mod_sanctions", "by_user"), ("mod_reports", "reporter"),
               ("mod_reports", "target_user"), ("mod_handovers", "user_id"),
               ("mod_audit", "by_user"), ("mod_audit", "target_user"))


def naming(site: Site, user_id: int) -> list[str]:
    """The moderation columns that still hold `user_id`."""
    return [f"{table}.{column}" for table, column in MOD_COLUMNS
            if site.moderation.store.db.rows(
                f"SELECT 1 FROM {table} WHERE {column}=?", (user_id,))]


def test_a_deleted_account_leaves_no_role_sanction_or_open_report_and_the_audit_says_so(site):
    from tavola.web.notices import Config, Notifier
    from tavola.web.privacy import Privacy

    runner = asyncio.Runner()  # one loop for the test, as a server has (see test_privacy)
    site.server.notifier = Notifier(site.server, Config())
    privacy = Privacy(site.server, site.accounts)
    bea, cat = site.player("Bea"), site.player("Cat")
    mod, boss = site.player("Mod", "moderator"), site.player("Boss", "admin")
    site.moderation.report(bea.user, {"player": "Cat", "reason": "abuse"})
    (report,) = site.moderation.store.open_reports()
    runner.run(site.moderation.act(mod.user, {"report": report["id"], "action": "mute",
                                               "reason": "rude", "period": "week"}))
    site.moderation.report(cat.user, {"player": "Bea", "reason": "spam"})  # open, by Cat
    site.moderation.report(bea.user, {"player": "Cat", "reason": "name"})  # open, about Cat
    assert naming(site, mod.user.id) and naming(site, cat.user.id)

    runner.run(privacy.delete(mod.user))
    runner.run(privacy.delete(cat.user))
    runner.close()

    assert naming(site, mod.user.id) == [] and naming(site, cat.user.id) == []
    assert site.moderation.store.open_reports() == []  # neither reporter nor target is left
    page = site.moderation.page(boss.user)
    (mute,) = [a for a in page["audit"] if a["action"] == "mute"]
    assert mute["by"] is False and mute["player"] is False and mute["reason"] == "rude"
    assert site.moderation.store.role(bea.user.id) is None
    assert [a["by"] for a in page["audit"] if a["action"] == "grant"] == [None, None]
