"""Friends, invitations and blocks on the server: every rule, on SQLite and PostgreSQL.

The game server is driven directly (no bot processes); a request or a WebSocket is as little
of one as the account code reads: its cookies, its CSRF header, its address.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import Iterator
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import pytest
from accounts_client import Visitor
from test_accounts import RELAXED
from web_server import Server, launch

from tavola.web.account_store import User, open_account_store
from tavola.web.accounts import SESSION_COOKIE, Accounts
from tavola.web.app import GameServer, Limits
from tavola.web.errors import ClientError
from tavola.web.friends import Friends, FriendStore
from tavola.web.room import BOT, PERSON, Room
from tavola.web.site import load_sites
from tavola.web.storage import open_store
from tavola.web.user_names import name_key

DAY = 86_400.0


@dataclass
class Player:
    user: User
    token: str
    csrf: str

    def request(self) -> Any:
        return SimpleNamespace(cookies={SESSION_COOKIE: self.token},
                               headers={"x-csrf-token": self.csrf},
                               client=SimpleNamespace(host=f"10.0.0.{self.user.id}"))

    def ws(self) -> Any:
        return SimpleNamespace(headers={}, cookies={SESSION_COOKIE: self.token})


@dataclass
class Site:
    server: GameServer
    accounts: Accounts
    friends: Friends
    now: list[float]
    invited: list[tuple[int, str, int, int]] = field(default_factory=list)

    def player(self, name: str) -> Player:
        user = self.accounts.store.add_user(name, name_key(name), "not a hash")
        assert user is not None
        token, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(24)
        self.accounts.store.add_session(token, user.id, csrf)
        return Player(user, token, csrf)

    def create(self, by: Player, seats: list[dict[str, Any]], **more: Any) -> Any:
        return self.accounts.create_game(by.request(), {"game": "gonzaga", "seats": seats,
                                                         **more})


@pytest.fixture
def site(db_url: str) -> Iterator[Site]:
    now = [1_000_000.0]
    server = GameServer(open_store(db_url), load_sites(["gonzaga"]), bot_processes=False,
                        bot_delay=0, clock=lambda: now[0],
                        limits=Limits(creates_per_minute=0, lobby_per_second=0))
    accounts = Accounts(server, open_account_store(server.store))
    server.accounts = accounts
    friends = Friends(server, accounts, FriendStore(server.store))
    server.friends = friends
    made = Site(server, accounts, friends, now)
    server.invited = lambda *args: made.invited.append(args)  # type: ignore[method-assign]
    yield made
    friends.store.close()
    accounts.store.close()
    server.hinting.close()
    server.store.close()


def refused(code: str, call: Any, *args: Any) -> ClientError:
    with pytest.raises(ClientError) as exc:
        call(*args)
    assert exc.value.code == code, exc.value
    return exc.value


def seat(invite: str | None = None) -> dict[str, Any]:
    return {"kind": PERSON, **({"invite": invite} if invite else {})}


@dataclass
class FakeConn:
    """A joined WebSocket client as the chat sees it: seat, account, what it was sent."""

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

    def chat(self) -> list[str]:
        return [line["text"] for m in self.sent if m["type"] == "chat" for line in m["lines"]]


# -- friends ---------------------------------------------------------------------------------


def test_a_friend_is_added_by_name_one_sided_and_shows_their_listed_games(site):
    ann, bob, cyd = site.player("Ann"), site.player("Bob"), site.player("Cyd")
    assert site.friends.add(ann.user, " bob ") == bob.user  # any case, no answer needed
    site.friends.add(ann.user, "Bob")  # twice: once on the list
    assert [f["name"] for f in site.friends.listing(ann.user)["friends"]] == ["Bob"]
    assert site.friends.listing(bob.user)["friends"] == []  # one-sided
    listed = site.create(bob, [seat(), seat()], public=True)
    site.create(bob, [seat(), seat()])  # unlisted: not shown to friends
    site.friends.add(ann.user, "Cyd")
    bob_line, cyd_line = site.friends.listing(ann.user)["friends"]
    assert [(g["id"], g["open"]) for g in bob_line["games"]] == [(listed.id, True)]
    assert cyd_line == {"name": "Cyd", "games": []}
    # a profile lists the player's friends, and tells a viewer whether they are one
    profile = site.accounts.profile("Ann", cyd.user)
    assert profile["friends"] == ["Bob", "Cyd"] and not profile["friend"] and not profile["blocked"]
    assert site.accounts.profile("Bob", ann.user)["friend"]
    refused("bad-request", site.friends.add, ann.user, "ann")
    refused("not-found", site.friends.add, ann.user, "Nobody")
    refused("bad-request", site.friends.add, ann.user, 12)
    site.friends.remove(ann.user, "Bob")
    assert [f["name"] for f in site.friends.listing(ann.user)["friends"]] == ["Cyd"]


def test_friend_changes_are_limited_per_account(db_url):
    now = [0.0]
    server = GameServer(open_store(db_url), load_sites(["gonzaga"]), bot_processes=False,
                        clock=lambda: now[0], limits=Limits(friend_change_burst=2))
    accounts = Accounts(server, open_account_store(server.store))
    server.accounts = accounts
    friends = Friends(server, accounts, FriendStore(server.store))
    users = [accounts.store.add_user(n, n.lower(), "x") for n in ("Ute", "Vic", "Wes", "Xia")]
    friends.add(users[0], "Vic")
    friends.add(users[0], "Wes")
    refused("rate-limited", friends.add, users[0], "Xia")
    friends.add(users[1], "Xia")  # another account has its own
    friends.store.close()
    accounts.store.close()
    server.hinting.close()
    server.store.close()


# -- invitations -----------------------------------------------------------------------------


def test_an_invited_seat_is_kept_for_its_friend_who_accepts_it(site):
    ann, bob, cyd = site.player("Ann"), site.player("Bob"), site.player("Cyd")
    site.friends.add(ann.user, "Bob")
    room = site.create(ann, [seat(), seat("Bob"), seat()], public=True)
    assert site.invited == [(bob.user.id, room.id, 1, ann.user.id)]  # the notification hook
    assert room.params.reserved == {1}
    assert [s["open"] for s in room.summary()["seats"]] == [False, False, True]
    stored = site.server.store.load(room.id)
    assert stored is not None and stored.params["reserved"] == [1]
    # nobody else takes it: not by Join, not by its link, signed in or not
    assert site.accounts.join(cyd.request(), room.id)[0] == 2
    refused("full", site.accounts.join, site.player("Dee").request(), room.id)
    refused("invited", site.accounts.opening, cyd.ws(), room, 1)
    refused("invited", site.accounts.opening, SimpleNamespace(headers={}, cookies={}), room, 1)
    # Bob sees it, in the header's count and his list, and accepts
    [line] = site.friends.listing(bob.user)["invited"]
    assert (line["game"], line["seat"], line["by"], line["status"]) == (room.id, 1, "Ann",
                                                                         "waiting")
    assert site.friends.pending(bob.user) == 1
    refused("not-found", site.friends.accept, cyd.user, room.id, 1)
    link = site.friends.accept(bob.user, room.id, 1)
    assert link == f"/game/{room.id}#{room.tokens[1]}"
    assert room.params.reserved == set() and 1 in room.claimed
    assert site.accounts.store.seat_holder(room.id, 1) == bob.user.id
    assert room.params.seats[1].name == "Bob"
    assert site.server.store.load(room.id).params.get("reserved") is None
    assert site.friends.pending(bob.user) == 0
    refused("answered", site.friends.accept, bob.user, room.id, 1)
    site.accounts.opening(bob.ws(), room, 1)  # his seat now
    assert site.friends.listing(ann.user)["sent"][0]["status"] == "accepted"


def test_only_friends_are_invited_by_a_signed_in_creator_to_other_seats(site):
    ann = site.player("Ann")
    site.player("Bob")
    guest = SimpleNamespace(cookies={}, headers={}, client=SimpleNamespace(host="10.1.1.1"))
    data = {"game": "gonzaga", "seats": [seat(), seat("Bob")]}
    refused("sign-in", site.accounts.create_game, guest, data)
    refused("not-friend", site.create, ann, [seat(), seat("Bob")])
    site.friends.add(ann.user, "Bob")
    refused("bad-seats", site.create, ann, [seat("Bob"), seat()])  # the creator's own seat
    refused("bad-seats", site.create, ann, [seat(), {"kind": BOT, "invite": "Bob"}])
    refused("bad-seats", site.create, ann, [seat(), seat("Bob"), seat("bob")])
    refused("not-friend", site.create, ann, [seat(), seat("Ann")])
    refused("not-found", site.create, ann, [seat(), seat("Nobody")])
    assert site.server.store.active_games(0) == 0 and site.invited == []  # nothing was made


def test_invitations_are_limited_per_account(db_url):
    server = GameServer(open_store(db_url), load_sites(["gonzaga"]), bot_processes=False,
                        limits=Limits(invitation_burst=2, creates_per_minute=0))
    accounts = Accounts(server, open_account_store(server.store))
    server.accounts = accounts
    friends = Friends(server, accounts, FriendStore(server.store))
    server.friends = friends
    s = Site(server, accounts, friends, [0.0])
    ann = s.player("Ann")
    for name in ("Bob", "Cyd", "Dee"):
        s.player(name)
        friends.add(ann.user, name)
    s.create(ann, [seat(), seat("Bob"), seat("Cyd")])
    refused("rate-limited", s.create, ann, [seat(), seat("Dee")])
    friends.store.close()
    accounts.store.close()
    server.hinting.close()
    server.store.close()


def test_a_declined_or_unanswered_seat_goes_to_another_friend_a_bot_or_anyone(site):
    ann, bob, cyd, dee, eve = (site.player(n) for n in ("Ann", "Bob", "Cyd", "Dee", "Eve"))
    for name in ("Bob", "Cyd", "Dee", "Eve"):
        site.friends.add(ann.user, name)

    async def run() -> None:
        room = site.create(ann, [seat(), seat("Bob"), seat("Cyd"), seat("Dee")], public=True)
        assert [i[0] for i in site.invited] == [bob.user.id, cyd.user.id, dee.user.id]
        # while an invitation waits, the seat stays its friend's
        refused("waiting", site.friends.reassign, ann.user, room.id, 1, {"bot": "greedy"})
        site.friends.decline(bob.user, room.id, 1)
        refused("answered", site.friends.accept, bob.user, room.id, 1)
        assert 1 in room.params.reserved  # declined: still nobody else's until Ann says
        refused("not-found", site.friends.reassign, cyd.user, room.id, 1, {"open": True})
        refused("bad-request", site.friends.reassign, ann.user, room.id, 1, {"seat": 1})
        # another friend
        assert site.friends.reassign(ann.user, room.id, 1, {"invite": "Eve"}) == \
            {"invited": "Eve"}
        assert site.invited[-1] == (eve.user.id, room.id, 1, ann.user.id)
        assert site.friends.listing(eve.user)["invited"][0]["status"] == "waiting"
        # Cyd never answers: after the server's time, a bot takes the seat
        site.now[0] += DAY - 1
        refused("waiting", site.friends.reassign, ann.user, room.id, 2, {"bot": "greedy"})
        site.now[0] += 1
        assert site.friends.listing(cyd.user)["invited"][0]["status"] == "expired"
        assert site.friends.pending(cyd.user) == 0
        refused("bad-bot", site.friends.reassign, ann.user, room.id, 2, {"bot": "nobody"})
        name = site.friends.reassign(ann.user, room.id, 2, {"bot": "greedy"})["bot"]
        assert room.params.seats[2].kind == BOT and room.params.seats[2].name == name
        assert room.bots[2] == "greedy" and 2 not in room.params.reserved
        refused("not-found", site.friends.accept, cyd.user, room.id, 2)
        stored = site.server.store.load(room.id)
        assert stored.params["seats"][2]["kind"] == BOT
        # Dee declines: the seat is opened to anyone, and the lobby's Join takes it
        site.friends.decline(dee.user, room.id, 3)
        link = site.friends.reassign(ann.user, room.id, 3, {"open": True})["link"]
        assert link == f"/game/{room.id}#{room.tokens[3]}" and room.params.reserved == {1}
        assert room.summary()["seats"][3]["open"]
        assert site.accounts.join(site.player("Fay").request(), room.id)[0] == 3
        # Eve accepts the seat Bob declined
        site.friends.accept(eve.user, room.id, 1)
        assert room.params.reserved == set() and room.section() == "playing"

    asyncio.run(run())


# -- blocks ----------------------------------------------------------------------------------


def test_a_blocked_player_cannot_invite_or_befriend_and_pending_invitations_end(site):
    ann, bob = site.player("Ann"), site.player("Bob")
    site.friends.add(ann.user, "Bob")
    site.friends.add(bob.user, "Ann")
    room = site.create(ann, [seat(), seat("Bob")])
    site.friends.block(bob.user, "Ann")
    # the friendship ends both ways, the waiting invitation is declined
    assert site.friends.listing(ann.user)["friends"] == []
    assert site.friends.listing(bob.user)["friends"] == []
    assert site.friends.listing(bob.user)["blocked"] == ["Ann"]
    assert site.friends.listing(bob.user)["invited"][0]["status"] == "declined"
    refused("blocked", site.friends.add, ann.user, "Bob")
    refused("blocked", site.friends.add, bob.user, "Ann")
    refused("not-friend", site.create, ann, [seat(), seat("Bob")])  # invite refused
    refused("answered", site.friends.accept, bob.user, room.id, 1)
    refused("bad-request", site.friends.block, bob.user, "Bob")
    site.friends.unblock(bob.user, "Ann")
    site.friends.add(ann.user, "Bob")  # unblocked: friends again if they wish
    assert site.create(ann, [seat(), seat("Bob")]).params.reserved == {1}


def test_a_blocked_player_cannot_join_your_games_by_join_or_link(site):
    ann, bob, cyd = site.player("Ann"), site.player("Bob"), site.player("Cyd")
    site.friends.block(ann.user, "Bob")
    room = site.create(ann, [seat(), seat(), seat()], public=True)
    refused("blocked", site.accounts.join, bob.request(), room.id)
    refused("blocked", site.accounts.opening, bob.ws(), room, 1)
    assert site.accounts.join(cyd.request(), room.id)[0] == 1  # others may
    # nor a game of someone else where the player who blocked them sits
    other = site.create(cyd, [seat(), seat(), seat()], public=True)
    assert site.accounts.join(ann.request(), other.id)[0] == 1
    refused("blocked", site.accounts.join, bob.request(), other.id)
    # the one who blocked may still join the blocked player's game
    bobs = site.create(bob, [seat(), seat()], public=True)
    assert site.accounts.join(ann.request(), bobs.id)[0] == 1


def test_a_blocked_player_does_not_see_your_friends(site):
    ann, bob, cyd = site.player("Ann"), site.player("Bob"), site.player("Cyd")
    site.friends.add(ann.user, "Cyd")
    site.friends.block(ann.user, "Bob")
    assert site.accounts.profile("Ann", bob.user)["friends"] is None
    assert site.accounts.profile("Ann", cyd.user)["friends"] == ["Cyd"]
    assert site.accounts.profile("Ann", None)["friends"] == ["Cyd"]
    assert site.accounts.profile("Bob", ann.user)["blocked"]  # Ann sees she blocked Bob
    assert site.accounts.profile("Ann", bob.user)["blocked"] is False


def test_chat_between_a_blocked_pair_is_hidden_both_ways_and_refused_alone(site):
    ann, bob, cyd = site.player("Ann"), site.player("Bob"), site.player("Cyd")
    room = site.create(ann, [seat(), seat(), seat()])
    site.accounts.store.hold(room.id, 1, bob.user.id)
    site.accounts.store.hold(room.id, 2, cyd.user.id)
    conns = [FakeConn(0, ann.user.id), FakeConn(1, bob.user.id), FakeConn(2, cyd.user.id),
             FakeConn(None, None)]
    site.server.conns[room.id] = conns  # type: ignore[assignment]

    def say(conn: FakeConn, text: str) -> None:
        asyncio.run(site.server.sockets.message(conn, room, json.dumps({"type": "chat",
                                                                  "text": text})))

    say(conns[1], "before")
    site.friends.block(ann.user, "Bob")
    say(conns[1], "from Bob")
    say(conns[0], "from Ann")
    say(conns[2], "from Cyd")
    assert conns[0].chat() == ["before", "from Ann", "from Cyd"]  # Bob's hidden from Ann
    assert conns[1].chat() == ["before", "from Bob", "from Cyd"]  # and Ann's from Bob
    assert conns[2].chat() == ["before", "from Bob", "from Ann", "from Cyd"]
    assert conns[3].chat() == conns[2].chat()  # spectators read all
    # a joining connection's history hides the other's lines, those before the block too
    for conn, expected in ((conns[0], ["from Ann", "from Cyd"]),
                           (conns[1], ["before", "from Bob", "from Cyd"]),
                           (conns[2], ["before", "from Bob", "from Ann", "from Cyd"])):
        hidden = site.friends.hidden_seats(room, conn.account)
        history = json.loads(site.server.chat.history(room, hidden) or "{}")
        assert [line["text"] for line in history["lines"]] == expected
    # with nobody else at the table, a line is refused either way
    two = site.create(ann, [seat(), seat()])
    site.accounts.store.hold(two.id, 1, bob.user.id)
    site.server.conns[two.id] = []  # type: ignore[assignment]
    for conn in (FakeConn(0, ann.user.id), FakeConn(1, bob.user.id)):
        with pytest.raises(ClientError) as exc:
            asyncio.run(site.server.sockets.message(conn, two, json.dumps({"type": "chat",
                                                                     "text": "hello"})))
        assert exc.value.code == "blocked"
    assert site.server.chat.store.recent(two.id) == []


def test_another_process_hears_of_reserved_seats_and_seats_given_to_a_bot(site):
    """A process with the game in memory learns from the store which seats are kept and which
    a bot took, as it learns of names (`Room.catch_up`)."""
    ann, bob = site.player("Ann"), site.player("Bob")
    site.friends.add(ann.user, "Bob")

    async def run() -> None:
        room = site.create(ann, [seat(), seat(), seat()], public=True)
        other = Room.restore(site.server.store.load(room.id), room.site)  # another process
        site.friends.invite_seats(room, {1: bob.user}, ann.user)
        other.catch_up(site.server.store.load(room.id))
        assert other.params.reserved == {1} and not other.summary()["seats"][1]["open"]
        site.friends.decline(bob.user, room.id, 1)
        site.friends.reassign(ann.user, room.id, 1, {"bot": "random"})
        other.catch_up(site.server.store.load(room.id))
        assert other.params.reserved == set() and other.bots.get(1) == "random"
        assert other.params.seats[1].kind == BOT

    asyncio.run(run())


def test_an_invitation_to_a_rated_game_keeps_one_seat_per_account(site):
    ann, bob = site.player("Ann"), site.player("Bob")
    site.friends.add(ann.user, "Bob")
    room = site.create(ann, [seat(), seat("Bob"), seat()], public=True, rated=True)
    assert site.accounts.join(bob.request(), room.id)[0] == 2  # Bob took the free seat
    refused("full", site.friends.accept, bob.user, room.id, 1)
    assert room.params.reserved == {1}


# -- the routes, on a real server ------------------------------------------------------------


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = launch(tmp_path_factory.mktemp("friends") / "games.db", limits=RELAXED)
    yield srv
    srv.stop()


def test_the_routes_need_a_session_and_its_csrf_token_and_answer_with_statuses(live):
    ann, bob = Visitor(live.base), Visitor(live.base)
    ann.sign_up("Rona")
    bob.sign_up("Remy")
    status, _, err = Visitor(live.base).call("/api/friends")
    assert (status, err["code"]) == (401, "sign-in")
    for path, body in (("/api/friends", {"name": "Remy"}), ("/api/friends/remove",
                                                            {"name": "Remy"}),
                       ("/api/blocks", {"name": "Remy"}), ("/api/blocks/remove",
                                                           {"name": "Remy"}),
                       ("/api/invitations/g/1/accept", {}), ("/api/invitations/g/1/decline", {}),
                       ("/api/invitations/g/1/give", {"open": True})):
        status, _, err = ann.call(path, body, csrf=False)
        assert (status, err["code"]) == (403, "csrf"), path
    listing = ann.ok("/api/friends")
    assert listing["friends"] == [] and listing["blocked"] == []  # nothing changed
    assert ann.ok("/api/friends", {"name": "remy"}) == {"friend": "Remy"}
    game = ann.ok("/api/games", {"game": "gonzaga", "seats": [
        {"kind": "person"}, {"kind": "person", "invite": "Remy"}]})
    assert game["seats"][1]["link"] is None and game["seats"][1]["invited"]
    assert bob.ok("/api/me")["invitations"] == 1 and ann.ok("/api/me")["invitations"] == 0
    status, _, err = ann.call(f"/api/invitations/{game['id']}/1/give", {"open": True})
    assert (status, err["code"]) == (409, "waiting")
    link = bob.ok(f"/api/invitations/{game['id']}/1/accept", {})["link"]
    assert link.startswith(f"/game/{game['id']}#")
    status, _, err = bob.call(f"/api/invitations/{game['id']}/1/accept", {})
    assert (status, err["code"]) == (409, "answered")
    assert bob.ok("/api/blocks", {"name": "Rona"}) == {"blocked": "Rona"}
    status, _, err = ann.call("/api/friends", {"name": "Remy"})
    assert (status, err["code"]) == (403, "blocked")
    status, _, err = bob.call("/api/players/Rona")
    assert status == 200 and err["friends"] == [] and err["blocked"]
    assert ann.ok("/api/players/Remy")["friends"] is None
