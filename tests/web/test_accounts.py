"""Accounts on a real server: password hashes, cookie flags, CSRF refusals, rate limits, user
name rules, "my games" from two devices, rated games counted once, the leaderboard."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import unicodedata
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
import websockets
from accounts_client import Visitor, hello, play
from web_server import Server, launch

from tavola.testing import game_names
from tavola.web.account_store import STEPS, AccountStore, Rating, open_account_store
from tavola.web.accounts import Accounts
from tavola.web.app import GameServer
from tavola.web.errors import ClientError
from tavola.web.loadbench import LOCAL_LIMITS
from tavola.web.sidedb import open_tables
from tavola.web.site import load_sites
from tavola.web.storage import SqliteStore, StoredGame, open_store
from tavola.web.user_names import name_key

RELAXED = {**LOCAL_LIMITS, "logins_per_minute": 0, "signups_per_hour": 0,
           "messages_per_second": 0}
PEOPLE = [{"kind": "person"}, {"kind": "person"}]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = launch(tmp_path_factory.mktemp("accounts") / "games.db", limits=RELAXED,
                 proxies=["127.0.0.1"])  # the tests play the proxy too
    yield srv
    srv.stop()


def db_rows(server: Server, sql: str, args: tuple[Any, ...] = ()) -> list[Any]:
    db = sqlite3.connect(server.db)
    try:
        return db.execute(sql, args).fetchall()
    finally:
        db.close()


def new_user(server: Server, name: str) -> Visitor:
    v = Visitor(server.base)
    v.sign_up(name)
    return v


# -- passwords, cookies, CSRF --------------------------------------------------------------------


def test_passwords_are_stored_as_argon2id_hashes_and_sessions_as_hashes(server):
    v = Visitor(server.base)
    data = v.sign_up("Hasher", "a secret of mine")
    assert data["user"] == {"name": "Hasher"}
    [(stored,)] = db_rows(server, "SELECT password FROM users WHERE name='Hasher'")
    assert stored.startswith("$argon2id$") and "a secret of mine" not in stored
    token = v.cookie("tabletop_session")
    assert token and len(token) >= 40
    hashes = [h for (h,) in db_rows(server, "SELECT token_hash FROM sessions")]
    assert token not in hashes and len(hashes[-1]) == 64
    # the right password signs in from a second device, a wrong one does not
    other = Visitor(server.base)
    assert other.ok("/api/login", {"name": "hasher", "password": "a secret of mine"}
                    )["user"]["name"] == "Hasher"
    status, _, err = Visitor(server.base).call("/api/login", {"name": "Hasher",
                                                              "password": "a secret of his"})
    assert status == 401 and err["code"] == "bad-login"
    status, _, err = Visitor(server.base).call("/api/login", {"name": "Nobody",
                                                              "password": "a secret of his"})
    assert status == 401 and err["code"] == "bad-login"  # the same answer: no name probing


def cookie_flags(headers: Any) -> dict[str, str]:
    return {h.split("=", 1)[0]: h.lower() for h in headers.get_all("Set-Cookie")}


def test_session_cookie_is_http_only_lax_and_secure_over_https(server):
    _, headers, _ = Visitor(server.base).call("/api/signup", {"name": "Cookies",
                                                             "password": "long enough"})
    flags = cookie_flags(headers)
    assert "httponly" in flags["tabletop_session"] and "samesite=lax" in flags["tabletop_session"]
    assert "secure" not in flags["tabletop_session"]  # plain http on the loopback
    assert "httponly" not in flags["tabletop_csrf"]  # the page reads it to send it back
    # behind a proxy that says the visitor came over https (the server names it: --proxy)
    _, headers, _ = Visitor(server.base).call("/api/login", {"name": "Cookies",
                                                             "password": "long enough"},
                                              headers={"X-Forwarded-Proto": "https"})
    flags = cookie_flags(headers)
    assert "secure" in flags["tabletop_session"] and "secure" in flags["tabletop_csrf"]


def test_state_changes_on_the_cookies_authority_need_the_csrf_token(server):
    v = new_user(server, "Guarded")
    before = db_rows(server, "SELECT COUNT(*) FROM games")[0][0]
    for headers in ({}, {"X-CSRF-Token": "forged-token-forged-token"}):
        status, _, err = v.call("/api/games", {"seats": PEOPLE}, csrf=False, headers=headers)
        assert status == 403 and err["code"] == "csrf"
    assert db_rows(server, "SELECT COUNT(*) FROM games")[0][0] == before  # nothing created
    status, _, err = v.call("/api/logout", {}, csrf=False)
    assert status == 403 and err["code"] == "csrf"
    assert v.ok("/api/me")["user"] == {"name": "Guarded"}  # still signed in
    # another site's page cannot sign a visitor in or up
    status, _, err = Visitor(server.base).call(
        "/api/signup", {"name": "Lured", "password": "long enough"},
        headers={"Origin": "https://evil.example"})
    assert status == 403 and err["code"] == "csrf"
    # with the token: out, and the cookie no longer opens anything
    token = v.cookie("tabletop_session")
    v.ok("/api/logout", {})
    assert v.ok("/api/me")["user"] is None
    assert not db_rows(server, "SELECT 1 FROM sessions s JOIN users u ON u.id = s.user_id "
                               "WHERE u.name='Guarded'")
    assert token


def test_another_sites_form_cannot_sign_a_player_out(server):
    v = new_user(server, "Stays")
    form = b"x=1"
    kinds = {"Content-Type": "application/x-www-form-urlencoded"}
    # a form on another site posts without the Lax cookie (the browser leaves it out), or, in
    # a browser that sends it, without the CSRF header: neither deletes a cookie
    for who, headers in ((Visitor(server.base), {**kinds, "Origin": "https://evil.example"}),
                         (Visitor(server.base), kinds),
                         (v, {**kinds, "Origin": "https://evil.example"}),
                         (v, kinds)):
        status, answer, err = who.call("/api/logout", form, csrf=False, headers=headers)
        assert status in (401, 403) and err["code"] in ("sign-in", "csrf"), (status, err)
        assert not answer.get_all("Set-Cookie"), answer.get_all("Set-Cookie")
    assert v.ok("/api/me")["user"] == {"name": "Stays"}
    assert v.ok("/api/logout", {})["user"] is None  # the page's own sign-out still works


def test_a_websocket_from_another_site_does_not_use_the_session(server):
    v = new_user(server, "Origin")
    game = Visitor(server.base).ok("/api/games", {"seats": PEOPLE})
    link = game["seats"][1]["link"]
    welcome = asyncio.run(hello(server.ws, link, v, origin="https://evil.example"))
    assert welcome["type"] == "welcome"  # a guest may still play by link...
    assert not db_rows(server, "SELECT 1 FROM game_players WHERE game_id=?", (game["id"],))
    asyncio.run(hello(server.ws, link, v, origin=server.base))
    assert db_rows(server, "SELECT seat FROM game_players WHERE game_id=?",
                   (game["id"],)) == [(1,)]  # ...but only this site's page ties the seat


# -- user names and passwords --------------------------------------------------------------------


@pytest.mark.parametrize(("name", "password", "code"), [
    ("a", "long enough", "bad-name"),
    ("a" * 25, "long enough", "bad-name"),
    ("_under", "long enough", "bad-name"),
    ("two words", "long enough", "bad-name"),
    ("ends.", "long enough", "bad-name"),
    ("ends_", "long enough", "bad-name"),
    ("\u3164\u3164", "long enough", "bad-name"),  # two Hangul fillers: a blank name
    ("Hidden\u200bname", "long enough", "bad-name"),
    ("Mixed\u0430", "long enough", "bad-name"),  # Latin with a Cyrillic а
    ("bell\x07", "long enough", "bad-name"),
    ("<script>", "long enough", "bad-name"),
    (17, "long enough", "bad-name"),
    ("Shorty", "short", "bad-password"),
    ("Longy", "x" * 257, "bad-password"),
    ("Typed", ["list"], "bad-password"),
])
def test_user_name_and_password_rules(server, name, password, code):
    status, _, err = Visitor(server.base).call("/api/signup", {"name": name,
                                                              "password": password})
    assert status == 400 and err["code"] == code and err["message"]


def test_names_are_unique_whatever_their_case_or_composition(server):
    decomposed = "Zoe\u0308"
    assert new_user(server, decomposed)
    [(stored,)] = db_rows(server, "SELECT name FROM users WHERE name_key=?", ("zoë",))
    assert stored == unicodedata.normalize("NFC", decomposed) == "Zoë"
    for again in ("ZOË", "zoë", "Zoe\u0308"):
        status, _, err = Visitor(server.base).call("/api/signup", {"name": again,
                                                                  "password": "long enough"})
        assert status == 409 and err["code"] == "name-taken"
    assert Visitor(server.base).ok("/api/login", {"name": "ZOË", "password":
                                                  "correct horse battery"})["user"]["name"] == "Zoë"


LOOK_ALIKES = {
    "\u0430lice": "a Cyrillic а",
    "\u0430l\u0456\u0441\u0435": "Cyrillic а, і, с and е",
    "\uff41\uff4c\uff49\uff43\uff45": "fullwidth",
    "\u1d00\u029f\u026a\u1d04\u1d07": "small capitals",
    "\U0001d41a\U0001d425\U0001d422\U0001d41c\U0001d41e": "mathematical bold",
    "\U0001d586\U0001d591\U0001d58e\U0001d588\U0001d58a": "mathematical fraktur",
    "al\u0131ce": "a dotless i",
    "aIice": "a capital I for the l",
    "a1ice": "a digit one for the l",
    "alice.": "a trailing dot",
    "alice_": "a trailing underscore",
    "al.ice": "a dot inside",
    "alice\u3164": "a Hangul filler",
    "\u115falice": "a Hangul choseong filler",
    "ali\u1160ce": "a Hangul jungseong filler",
    "alice\uffa0": "a halfwidth Hangul filler",
    "ali\u200bce": "a zero-width space",
}


def test_look_alike_names_are_refused_naming_the_name_they_imitate(server):
    new_user(server, "alice")
    for name, what in LOOK_ALIKES.items():
        status, _, err = Visitor(server.base).call("/api/signup", {"name": name,
                                                                  "password": "long enough"})
        assert status == 409 and err["code"] == "name-taken", (what, status, err)
        assert "alice" in err["message"], (what, err)
    names = [n for (n,) in db_rows(server, "SELECT name FROM users")]
    assert not set(LOOK_ALIKES) & set(names)  # none was added
    # names of other languages are names like any other
    for name in ("Jürgen", "Niccolò", "Zoë_2", "Ångström", "Ελένη", "Дмитрий", "さくら",
                 "山田たろう", "김민준", "Bili", "Bill"):
        assert Visitor(server.base).sign_up(name)["user"]["name"] == name


# -- rate limits ----------------------------------------------------------------------------------


def login(v: Visitor, name: str, password: str = "correct horse battery") -> int:
    return int(v.call("/api/login", {"name": name, "password": password})[0])


def test_sign_in_attempts_are_limited_per_user_name_and_address(server):
    new_user(server, "Target")
    codes = [login(Visitor(server.base), "target", f"guess {i}") for i in range(6)]
    assert codes[:5] == [401] * 5 and codes[5] == 429
    # now even the right password waits, from this address and a device never signed in on
    status, headers, err = Visitor(server.base).call(
        "/api/login", {"name": "Target", "password": "correct horse battery"})
    assert status == 429 and err["code"] == "rate-limited" and int(headers["Retry-After"]) >= 1
    # other names are not affected
    assert Visitor(server.base).ok("/api/login", {"name": "Zoë", "password":
                                                  "correct horse battery"})


def test_an_attackers_wrong_passwords_do_not_lock_the_owner_out(server):
    owner = Visitor(server.base, "198.51.100.7")
    owner.sign_up("Owen")
    attacker = Visitor(server.base, "203.0.113.66")
    codes = [login(attacker, "owen", f"guess {i}") for i in range(7)]
    assert codes[:5] == [401] * 5 and codes[5:] == [429, 429]  # the attacker is limited...
    # ...and the owner signs in from their own address, even on a device new to the account
    assert login(Visitor(server.base, "198.51.100.7"), "Owen") == 200
    assert login(owner, "Owen") == 200
    # the attacker's own account's device does not lift the limit on Owen's name
    attacker.sign_up("Mallet")
    assert login(attacker, "owen") == 429


def test_a_distributed_attack_meets_the_per_name_limit_but_a_known_device_gets_in(tmp_path):
    srv = launch(tmp_path / "games.db", limits={
        **RELAXED, "name_login_burst": 2, "name_logins_per_minute": 0.01,
        "name_login_any_address_burst": 5, "name_logins_any_address_per_minute": 0.01},
        proxies=["127.0.0.1"])  # the test plays the proxy that names each address
    try:
        owner = Visitor(srv.base, "198.51.100.7")
        owner.sign_up("Owen")
        codes = [login(Visitor(srv.base, f"203.0.113.{i // 2}"), "owen", f"guess {i}")
                 for i in range(8)]
        assert codes == [401] * 5 + [429] * 3  # 3 addresses: 2 guesses each, then 1 left
        # a new device of the owner's waits too, but the device the owner signed in on before
        # has its own limit and gets in
        assert login(Visitor(srv.base, "198.51.100.7"), "Owen") == 429
        assert login(owner, "Owen") == 200
        # a known device guessing is limited on its own
        assert [login(owner, "Owen", "wrong") for _ in range(3)] == [401, 401, 429]
        assert login(Visitor(srv.base, "192.0.2.1"), "owen", "guess") == 429
    finally:
        srv.stop()


def test_sign_in_attempts_are_limited_per_address(tmp_path):
    srv = launch(tmp_path / "games.db", limits={**RELAXED, "logins_per_minute": 1,
                                                "login_burst": 3, "name_logins_per_minute": 0})
    try:
        codes = [Visitor(srv.base).call("/api/login", {"name": f"name{i}", "password": "guess it"}
                                        )[0] for i in range(4)]
        assert codes == [401, 401, 401, 429]
    finally:
        srv.stop()


# -- my games --------------------------------------------------------------------------------------


def test_my_games_from_a_second_device_and_seats_tied_by_link(server):
    ann = new_user(server, "Ann")
    game = ann.ok("/api/games", {"game": "signorie", "seats": PEOPLE})
    assert game["you"] == 0 and game["rated"] is False
    # Bo opens the second seat's link while signed in: the seat is his
    bo = new_user(server, "Bo")
    assert asyncio.run(hello(server.ws, game["seats"][1]["link"], bo))["seat"] == 1
    # Ann on another device sees the game, waiting for her (seat 0 moves first in Signorie)
    phone = Visitor(server.base)
    phone.ok("/api/login", {"name": "ann", "password": "correct horse battery"})
    mine = phone.ok("/api/me/games")
    assert mine["user"] == {"name": "Ann"}
    listed = {g["id"]: g for section in ("waiting", "running", "finished") for g in mine[section]}
    assert game["id"] in listed and listed[game["id"]]["link"] == game["seats"][0]["link"]
    theirs = bo.ok("/api/me/games")
    assert [g["id"] for g in theirs["running"] + theirs["waiting"]].count(game["id"]) == 1
    ann_waits = game["id"] in {g["id"] for g in mine["waiting"]}
    bo_waits = game["id"] in {g["id"] for g in theirs["waiting"]}
    assert ann_waits != bo_waits  # one of them is to move
    # a guest still creates and plays without an account; it is nobody's game
    guest = Visitor(server.base).ok("/api/games", {"seats": PEOPLE})
    assert not db_rows(server, "SELECT 1 FROM game_players WHERE game_id=?", (guest["id"],))
    status, _, err = Visitor(server.base).call("/api/me/games")
    assert status == 401 and err["code"] == "sign-in"
    status, _, err = Visitor(server.base).call("/api/players/Nobody%20here")
    assert status == 404 and err["code"] == "not-found"


def test_a_seat_once_held_stays_with_its_account(server):
    cy = new_user(server, "Cy")
    game = cy.ok("/api/games", {"seats": PEOPLE})
    dee = new_user(server, "Dee")
    asyncio.run(hello(server.ws, game["seats"][0]["link"], dee))  # Cy's own seat's link
    assert db_rows(server, "SELECT user_id FROM game_players WHERE game_id=? AND seat=0",
                   (game["id"],)) == db_rows(server, "SELECT id FROM users WHERE name='Cy'")


# -- rated games -----------------------------------------------------------------------------------


def test_rated_games_refuse_guests_unmeasured_bots_seeds_and_double_seats(server):
    guest = Visitor(server.base)
    status, _, err = guest.call("/api/games", {"seats": PEOPLE, "rated": True})
    assert status == 401 and err["code"] == "sign-in"
    eve = new_user(server, "Eve")
    # no tournament has played the random bot with 3 players: it has no rating there
    status, _, err = eve.call("/api/games", {"game": "gonzaga", "rated": True, "seats": [
        {"kind": "person"}, {"kind": "bot", "bot": "planner"},
        {"kind": "bot", "bot": "random"}]})
    assert status == 400 and err["code"] == "bad-bot" and "planner" in err["message"]
    status, _, err = eve.call("/api/games", {"rated": True, "seed": 5, "seats": [
        {"kind": "person"}, {"kind": "bot", "bot": "greedy"}]})
    assert status == 400 and err["code"] == "seed-not-allowed"
    status, _, err = eve.call("/api/games", {"rated": "yes", "seats": PEOPLE})
    assert status == 400
    status, _, err = eve.call("/api/games", {"rated": True, "seats": [
        {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}]})
    assert status == 400 and err["code"] == "bad-seats"
    game = eve.ok("/api/games", {"rated": True, "public": True, "seats": PEOPLE})
    assert game["rated"] is True
    link = game["seats"][1]["link"]
    assert asyncio.run(hello(server.ws, link, None))["code"] == "sign-in"
    assert asyncio.run(hello(server.ws, link, eve))["code"] == "other-account"  # a 2nd seat
    status, _, err = guest.call(f"/api/games/{game['id']}/join", {})
    assert status == 401 and err["code"] == "sign-in"
    fay = new_user(server, "Fay")
    assert fay.ok(f"/api/games/{game['id']}/join", {})["seat"] == 1
    assert asyncio.run(hello(server.ws, link, fay))["type"] == "welcome"


def board(v: Visitor, game: str, players: int) -> dict[str, Any]:
    return v.ok(f"/api/leaderboard?game={game}&players={players}")


def test_a_rated_game_updates_both_ratings_once_even_across_a_restart(tmp_path):
    srv = launch(tmp_path / "games.db", limits=RELAXED)
    try:
        gil, hal = new_user(srv, "Gil"), new_user(srv, "Hal")
        game = gil.ok("/api/games", {"game": "signorie", "rated": True, "seats": PEOPLE})

        async def both() -> list[dict[str, Any]]:
            return list(await asyncio.gather(
                play(srv.ws, game["seats"][0]["link"], gil, "signorie", 1),
                play(srv.ws, game["seats"][1]["link"], hal, "signorie", 2)))

        asyncio.run(both())
        ranked = board(gil, "signorie", 2)["people"]
        assert {p["name"] for p in ranked} == {"Gil", "Hal"}
        assert all(p["games"] == 1 for p in ranked)
        [(summary,)] = db_rows(srv, "SELECT summary FROM games WHERE id=?", (game["id"],))
        winners = json.loads(summary)["winners"]
        if len(winners) == 1:  # the winner gained, the other lost: the winner is first
            assert ranked[0]["name"] == ["Gil", "Hal"][winners[0]]
            assert ranked[0]["rating"] > ranked[1]["rating"]
        history = gil.ok("/api/players/Gil")["games"]
        assert history[0]["id"] == game["id"] and history[0]["rating"] is not None
        assert gil.ok("/api/me/games")["finished"][0]["id"] == game["id"]
        # a restart, and the game loaded again: counted once only
        srv.stop()
        srv = launch(srv.db, limits=RELAXED)
        Visitor(srv.base).ok(f"/api/games/{game['id']}/replay/0")  # loads the game again
        assert board(Visitor(srv.base), "signorie", 2)["people"] == ranked
        assert db_rows(srv, "SELECT COUNT(*) FROM rating_changes")[0][0] == 2
        # a stop between the last move and the count: the next start counts it, once
        srv.stop()
        db = sqlite3.connect(srv.db)
        with db:
            db.execute("UPDATE rated_games SET rated=NULL")
            db.execute("DELETE FROM ratings")
            db.execute("DELETE FROM rating_changes")
        db.close()
        for _ in range(2):
            srv = launch(srv.db, limits=RELAXED)
            assert board(Visitor(srv.base), "signorie", 2)["people"] == ranked
            srv.stop()
    finally:
        srv.stop()


def test_a_rematch_keeps_the_hints_choice_and_a_rated_game_s_rating_and_seats(db_url):
    """A rematch forgot whether hints were allowed, and was never rated."""
    server = GameServer(open_store(db_url), load_sites(["gonzaga"]), bot_processes=False,
                        bot_delay=0)
    accounts = Accounts(server, open_account_store(server.store))
    server.accounts = accounts
    ivo, joy = (accounts.store.add_user(n, n.lower(), "not a hash") for n in ("Ivo", "Joy"))
    assert ivo is not None and joy is not None

    def finished(**params: Any) -> Any:
        room = server.create({"game": "gonzaga", "seats": PEOPLE, **params})
        state = room.state
        while not state.is_over:  # played here, not through the server
            room.game.apply_in_place(state, room.game.legal_actions(state,
                                                                    state.to_move()[0])[0])
        return room

    async def run() -> list[Any]:
        rated = finished(public=True, hints=True, rated=True)  # as `Accounts.create_game`
        accounts.store.hold(rated.id, 0, ivo.id)
        accounts.store.hold(rated.id, 1, joy.id)
        accounts.store.add_rated(rated.id, "gonzaga", 2)
        friendly = finished()  # unlisted: hints on by default
        listed = finished(public=True)  # listed: hints off by default
        rooms = [rated, friendly, listed]
        for room in rooms:
            await server.rematch(room, 0)
        return [(room, server.rooms[room.rematch[0].split("/")[2].split("#")[0]])
                for room in rooms]

    pairs = asyncio.run(run())
    assert [(old.params.hints, new.params.hints) for old, new in pairs] == \
        [(True, True), (True, True), (False, False)]
    again, other = pairs[0][1], pairs[1][1]
    assert accounts.store.rated_game(again.id) == ("gonzaga", 2, False)
    assert accounts.store.holders(again.id) == {0: ivo.id, 1: joy.id}
    assert accounts.store.rated_game(other.id) is None
    # a guest cannot open the rated rematch's seat: it is rated like the game was
    with pytest.raises(ClientError) as exc:
        accounts.opening(SimpleNamespace(headers={}, cookies={}), again, 1)
    assert exc.value.code == "sign-in"
    server.hinting.close()
    server.store.close()


def test_the_leaderboard_lists_measured_bots_and_refuses_bad_counts(server):
    v = Visitor(server.base)
    data = board(v, "gonzaga", 2)
    bots = [b["bot"] for b in data["bots"]]
    three = [b["bot"] for b in board(v, "gonzaga", 3)["bots"]]
    assert three and "random" not in three and "random" in bots  # only measured bots
    ratings = [b["rating"] for b in data["bots"]]
    assert {"random", "greedy", "planner", "mcts:hard"} <= set(bots)
    assert ratings[bots.index("mcts:hard")] > ratings[bots.index("greedy")] > \
        ratings[bots.index("random")]
    for query in ("game=gonzaga&players=9", "game=chess&players=2", "game=gonzaga&players=x"):
        status, _, _ = v.call(f"/api/leaderboard?{query}")
        assert status in (400, 422)
    offer = {g["name"]: g for g in v.ok("/api/lobby")["games"]}
    assert offer["gonzaga"]["bot_ratings"]["2"]["mcts:hard"] > \
        offer["gonzaga"]["bot_ratings"]["2"]["random"]


def test_an_account_store_on_its_own_file(tmp_path):
    store = AccountStore(str(tmp_path / "own" / "board.db"))
    try:
        user = store.add_user("Solo", "solo", "hash")
        assert user is not None and store.user_by_id(user.id) == user
        assert store.add_user("SOLO", "solo", "other") is None  # the name is taken
    finally:
        store.close()


def test_the_leaderboard_ranks_by_the_conservative_rating(db_url):
    games = open_store(db_url)
    store = open_account_store(games)
    try:
        people = {name: store.add_user(name, name.casefold(), "hash") for name in "ABCD"}
        # B: high mu but unsure; C: lower mu, sure; ranks by mu - 3 sigma
        numbers = {"A": (25.0, 8.333), "B": (34.0, 6.0), "C": (27.0, 2.0), "D": (20.0, 1.0)}
        for i, (name, (mu, sigma)) in enumerate(numbers.items()):
            user = people[name]
            assert user is not None
            store.add_rated(f"g{i}", "gonzaga", 2)
            assert store.apply_result(f"g{i}", {user.id: (Rating(25, 8.333),
                                                          Rating(mu, sigma))})
            assert not store.apply_result(f"g{i}", {user.id: (Rating(0, 1), Rating(99, 1))})
        order = [p["name"] for p in store.leaderboard("gonzaga", 2)]
        assert order == sorted(numbers, key=lambda n: -(numbers[n][0] - 3 * numbers[n][1]))
        assert order == ["C", "D", "B", "A"]
        assert store.leaderboard("gonzaga", 3) == []
        assert store.ratings_of(people["C"].id)[0]["games"] == 1
        store.add_rated("g9", "gonzaga", 2)
        assert store.apply_result("g9", {people["C"].id: (Rating(27, 2), Rating(28, 1.9))})
        assert store.ratings_of(people["C"].id)[0]["games"] == 2  # one more, same row
        assert set(store.changes_of(people["C"].id)) == {"g2", "g9"}
    finally:
        store.close()
        games.close()


def test_an_in_memory_store_keeps_accounts_next_to_its_games():
    games = SqliteStore(":memory:")
    seats_and_games_by_join(games)
    games.close()


def test_accounts_sessions_and_my_games_in_the_games_database(db_url):
    games = open_store(db_url)
    seats_and_games_by_join(games)
    store = open_account_store(games)
    try:
        user = store.add_user("Ses", "ses", "hash")
        assert user is not None and store.add_user("SES", "ses", "x") is None
        store.set_password(user.id, "hash2")
        assert store.user_by_key("ses") == (user, "hash2")
        store.add_session("cookie", user.id, "csrf")
        assert store.session("cookie").user == user and store.session("other") is None
        store.end_session("cookie")
        assert store.session("cookie") is None
        other = store.add_user("Dev", "dev", "hash")
        assert other is not None and not store.known_device("browser")
        store.add_device("browser", user.id)
        store.add_device("browser", user.id)  # signed in again: one row, a later expiry
        assert store.known_device("browser") and store.known_device("browser", user.id)
        assert not store.known_device("browser", other.id)
        store.add_rated("g1", "gonzaga", 2)
        store.add_rated("g1", "gonzaga", 2)  # once
        assert store.rated_game("g1") == ("gonzaga", 2, False)
        games.set_status("g1", "over")
        assert store.unrated_ended() == ["g1"]
    finally:
        store.close()
        games.close()


def test_an_older_accounts_database_gains_the_newer_tables(db_url):
    games = open_store(db_url)
    first = open_tables(games, "accounts", STEPS[:1])  # as the first version left it
    with first.tx() as db:
        db.execute("INSERT INTO users (name, name_key, password, created) VALUES "
                   "('Old', 'old', 'hash', 0)")
    store = open_account_store(games)
    try:
        user = store.user_by_key("old")
        assert user is not None
        store.add_device("browser", user[0].id)
        assert store.known_device("browser", user[0].id)
    finally:
        store.close()
        first.close()
        games.close()


def test_accounts_made_before_the_look_alike_rule_keep_working(db_url):
    games = open_store(db_url)
    first = open_tables(games, "accounts", STEPS[:1])  # before name_looks existed
    with first.tx() as db:
        for name in ("alice", "\u0430lice"):  # two old names that look alike
            db.execute("INSERT INTO users (name, name_key, password, created) VALUES "
                       "(?,?,'hash',0)", (name, name_key(name)))
    store = open_account_store(games)
    try:
        assert store.user_by_key("alice") and store.user_by_key("\u0430lice")  # both sign in
        assert store.look_alike("\uff41\uff4c\uff49\uff43\uff45") == "alice"  # the older
        assert store.add_user("a1ice", "a1ice", "hash") is None
        assert store.add_user("Bob", "bob", "hash") is not None
        # forms made by other rules are made again at the next start
        with first.tx() as db:
            db.execute("UPDATE name_looks SET look = 'old ' || look, form = 'old'")
        assert store.look_alike("alice") is None
        again = open_account_store(games)
        assert again.look_alike("a1ice") == "alice" and again.look_alike("B0b") == "Bob"
        again.close()
    finally:
        store.close()
        first.close()
        games.close()


def seats_and_games_by_join(games: Any) -> None:
    """Accounts hold seats of games in the same database; "my games" reads them by join."""
    store = open_account_store(games)
    try:
        games.create(StoredGame("g1", 1.0, {"game": "gonzaga"}, "playing", {0: "t" * 24},
                                {0}, "s" * 24, summary={"to_move": [0], "seats": []}))
        user = store.add_user("Mem", "mem", "hash")
        assert user is not None and store.hold("g1", 0, user.id)
        assert not store.hold("g1", 0, user.id + 1)  # the seat stays with its account
        [line] = store.games_of(user.id)
        assert line["id"] == "g1" and line["token"] == "t" * 24 and not line["rated"]
        assert store.unrated_ended() == []
    finally:
        store.close()


@pytest.mark.parametrize("game_name", game_names("site"))
def test_signed_in_players_go_by_their_account_names(server, game_name):
    """Not "Player 1 / Player 2": a seat a signed-in player creates, joins or opens by link
    goes by the account's name, at the table (players, log, chat), in the lobby, in "my
    games" and on profiles; a name the creator typed stays."""
    suffix = game_name[:3]
    ann, bo = new_user(server, f"Annalena{suffix}"), new_user(server, f"Bonifacio{suffix}")
    seats = [{"kind": "person"}, {"kind": "person"}, {"kind": "person", "name": "Zia"}]
    game = ann.ok("/api/games", {"game": game_name, "seats": seats, "public": True})
    assert [s["name"] for s in game["seats"]] == [f"Annalena{suffix}", "Player 2", "Zia"]
    welcome = asyncio.run(hello(server.ws, game["seats"][1]["link"], bo))
    assert welcome["seat"] == 1 and welcome["name"] == f"Bonifacio{suffix}"

    async def watch_and_chat() -> dict[str, Any]:
        game_id, token = game["seats"][1]["link"].removeprefix("/game/").split("#", 1)
        headers = {"Cookie": bo.cookie_header()}
        async with websockets.connect(f"{server.ws}/ws/{game_id}", max_size=1 << 24,
                                      additional_headers=headers) as ws:
            await ws.send(json.dumps({"type": "hello", "token": token}))
            await ws.send(json.dumps({"type": "chat", "text": "ciao"}))
            view = None
            while True:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 30))
                if msg["type"] == "state":
                    view = msg
                if msg["type"] == "chat" and not msg.get("history"):
                    return {"view": view, "chat": msg["lines"][0]}

    seen = asyncio.run(watch_and_chat())
    assert seen["chat"]["name"] == f"Bonifacio{suffix}"
    text = json.dumps(seen["view"], ensure_ascii=False)
    assert f"Annalena{suffix}" in text and f"Bonifacio{suffix}" in text and "Zia" in text
    assert "Player 1" not in text and "Player 2" not in text
    lobby = Visitor(server.base).ok("/api/games")
    line = next(g for section in ("open", "playing") for g in lobby[section]
                if g["id"] == game["id"])
    assert [s["name"] for s in line["seats"]] == [f"Annalena{suffix}", f"Bonifacio{suffix}",
                                                  "Zia"]
    mine = bo.ok("/api/me/games")
    listed = next(g for section in ("waiting", "running") for g in mine[section]
                  if g["id"] == game["id"])
    assert [s["name"] for s in listed["seats"]][:2] == [f"Annalena{suffix}",
                                                        f"Bonifacio{suffix}"]
