"""The server's boundary against strangers: whose address a request has (a client's own
X-Forwarded-For is no one's), how many games one address or account may hold and which games
hold places at all, how often replays and records may be asked for, and that no answer may be
framed by another site or taken for another type."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from accounts_client import Visitor
from web_server import Server, launch

from tavola import i18n
from tavola.records import dumps_record
from tavola.web.app import GameServer, Limits
from tavola.web.errors import ClientError
from tavola.web.loadbench import LOCAL_LIMITS
from tavola.web.room import Room
from tavola.web.site import load_sites
from tavola.web.storage import SqliteStore

GAME = json.dumps({"seats": [{"kind": "person"}, {"kind": "bot"}]}).encode()
PEOPLE = {"seats": [{"kind": "person"}, {"kind": "person"}]}


def post(server: Server, path: str, body: bytes, headers: dict[str, str] | None = None
         ) -> tuple[int, Any, Any]:
    req = urllib.request.Request(f"{server.base}{path}", data=body, headers={
        "Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.headers, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers, json.loads(exc.read())


def creators(server: Server) -> list[str]:
    with sqlite3.connect(server.db) as db:
        return [a for (a,) in db.execute("SELECT creator_address FROM games ORDER BY created")]


# -- 1. forwarded addresses ---------------------------------------------------------------------


def test_a_forged_forwarded_address_does_not_escape_the_creation_limit(tmp_path):
    """By default no proxy is trusted: a client naming another address per request in
    X-Forwarded-For is still the one address it connects from."""
    srv = launch(tmp_path / "g.db", limits={"undo_wait": 0})  # the production limits
    try:
        codes = [post(srv, "/api/games", GAME, {"X-Forwarded-For": f"203.0.113.{i}"})[0]
                 for i in range(1, 9)]
        assert codes[:5] == [200] * 5 and 429 in codes[5:], codes
        assert set(creators(srv)) == {"127.0.0.1"}
        # nor does a client's X-Forwarded-Proto make the server think it came over https
        player = Visitor(srv.base)
        _, headers, _ = player.call("/api/signup", {"name": "Plain", "password": "long enough"},
                                    headers={"X-Forwarded-Proto": "https"})
        flags = [f.strip().lower() for c in headers.get_all("Set-Cookie") for f in c.split(";")]
        assert flags and "secure" not in flags
    finally:
        srv.stop()


def test_a_named_proxy_is_believed_about_the_clients_address(tmp_path):
    srv = launch(tmp_path / "g.db", proxies=["127.0.0.1"],
                 limits={"undo_wait": 0, "games_per_account": 2})
    try:
        codes = [post(srv, "/api/games", GAME, {"X-Forwarded-For": f"203.0.113.{i}"})[0]
                 for i in range(1, 9)]
        assert codes == [200] * 8, codes  # eight clients, one game each
        assert creators(srv) == [f"203.0.113.{i}" for i in range(1, 9)]
        one = {"X-Forwarded-For": "198.51.100.7"}
        codes = [post(srv, "/api/games", GAME, one)[0] for _ in range(7)]
        assert codes[:5] == [200] * 5 and 429 in codes[5:], codes  # one client's limit
        # what a client put before the proxy's own entry is not believed
        post(srv, "/api/games", GAME, {"X-Forwarded-For": "198.51.100.7, 198.51.100.8"})
        assert creators(srv)[-1] == "198.51.100.8"
        # a signed-in account holds its share whatever addresses it comes from
        player = Visitor(srv.base)
        player.sign_up("Sharer")
        codes = [player.call("/api/games", GAME, headers={"X-Forwarded-For": f"192.0.2.{i}"})[0]
                 for i in range(1, 4)]
        assert codes == [200, 200, 429], codes
        assert player.call("/api/games", GAME, headers={"X-Forwarded-For": "192.0.2.9"}
                           )[2]["code"] == "too-many-games"
    finally:
        srv.stop()


# -- 2. the cap on games: shares and idle games -----------------------------------------------


def game_server(tmp_path: Any, clock: Any = time.time, **limits: Any) -> GameServer:
    return GameServer(SqliteStore(tmp_path / "g.db"), load_sites(["gonzaga"]),
                      bot_processes=False, clock=clock,
                      limits=Limits(creates_per_minute=0, **limits))


def refused(server: GameServer, client: str, account: int | None = None) -> str | None:
    """The code of the error creating a game, None if it was created."""
    try:
        server.create(PEOPLE, client, account=account)
    except ClientError as exc:
        return exc.code
    return None


async def finish(server: GameServer, room: Any) -> None:
    while not room.state.is_over:
        seat = room.state.to_move()[0]
        action = room.game.legal_actions(room.state, seat)[-1]
        await server.act(room, seat, room.game.action_to_json(action), room.seq)


def test_each_address_and_account_holds_only_its_share_of_the_games(tmp_path):
    server = game_server(tmp_path, games_per_address=2, games_per_account=3)

    async def main() -> None:
        first = server.create(PEOPLE, "198.51.100.1")
        assert refused(server, "198.51.100.1") is None
        assert refused(server, "198.51.100.1") == "too-many-games"
        assert refused(server, "198.51.100.2") is None  # another address has its own
        # an IPv6 client's /64 is one address
        assert [refused(server, f"2001:db8::{i}") for i in (1, 2, 3)] == [
            None, None, "too-many-games"]
        assert refused(server, "2001:db8:0:1::1") is None
        # an account, from any address
        assert [refused(server, f"203.0.113.{i}", 7) for i in range(1, 5)] == [
            None, None, None, "too-many-games"]
        assert refused(server, "203.0.113.4") is None  # a guest at that address may
        await finish(server, first)  # a finished game holds no place
        assert refused(server, "198.51.100.1") is None

    asyncio.run(main())


def test_games_nobody_moves_in_for_an_hour_stop_counting(tmp_path):
    now = [time.time()]
    server = game_server(tmp_path, lambda: now[0], max_active_games=2)

    async def main() -> None:
        server.create(PEOPLE, "198.51.100.1")
        moved = server.create(PEOPLE, "198.51.100.2")
        created = time.time()
        assert refused(server, "198.51.100.3") == "server-full"
        await asyncio.sleep(0.05)
        before_move = time.time()
        seat = moved.state.to_move()[0]
        action = moved.game.legal_actions(moved.state, seat)[0]
        await server.act(moved, seat, moved.game.action_to_json(action), moved.seq)
        # an hour after the creations, but not after the move: only the moved game counts
        now[0] = (created + before_move) / 2 + 3600
        assert refused(server, "198.51.100.3") is None
        assert refused(server, "198.51.100.4") == "server-full"
        now[0] = time.time() + 3601  # an hour later, nothing has moved
        assert refused(server, "198.51.100.4") is None

    asyncio.run(main())


# -- 3. replays and records --------------------------------------------------------------------


def get(server: Server, path: str, headers: dict[str, str] | None = None
        ) -> tuple[int, Any, Any]:
    req = urllib.request.Request(f"{server.base}{path}", headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            body = r.read()
            return r.status, r.headers, json.loads(body) if "json" in r.headers[
                "Content-Type"] else body
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers, json.loads(exc.read())


def finished_game(db: Path) -> Room:
    """A game played to its end in the database `db`, as a server would load it."""
    server = game_server(db.parent)
    assert Path(server.store.path) == db

    async def main() -> str:
        room = server.create(PEOPLE, "198.51.100.1")
        await finish(server, room)
        return room.id

    game_id = asyncio.run(main())
    stored = server.store.load(game_id)
    assert stored is not None
    return Room.restore(stored, server.sites["gonzaga"])


def replay_as_before(room: Room, step: int) -> Any:
    """A replay's answer as the server worked it out before it kept them."""
    state = room.initial_state()
    for action in room.state.history[:step]:
        room.game.apply_in_place(state, action)
    v = room.game.view(state, None)
    msg = room.site.view_json(v, game_id=room.id, seq=step, seats=room.seats_json(),
                              log=room.site.log_json(v, 0))
    msg["replay"] = {"step": step, "total": len(room.state.history),
                     "game": room.game.info.name}
    return json.loads(json.dumps(msg))


def test_replays_and_records_are_rate_limited_per_address(tmp_path):
    room = finished_game(tmp_path / "g.db")
    srv = launch(tmp_path / "g.db",
                 limits={**LOCAL_LIMITS, "replays_per_second": 0.01, "replay_burst": 4})
    try:
        paths = [f"/api/games/{room.id}/replay/{i}" for i in (0, 1, 2)]
        assert [get(srv, p)[0] for p in [*paths, f"/api/games/{room.id}/record"]] == [200] * 4
        status, headers, body = get(srv, f"/api/games/{room.id}/replay/3")
        assert status == 429 and body["code"] == "rate-limited"
        assert int(headers["Retry-After"]) >= 1
        assert get(srv, "/api/games/unknown/record")[0] == 429  # a lookup is a request too
    finally:
        srv.stop()


def test_replay_answers_are_as_before_and_again_the_same(tmp_path):
    room = finished_game(tmp_path / "g.db")
    total = len(room.state.history)
    expected = [replay_as_before(room, step) for step in range(total + 1)]
    with i18n.use("de"):
        german = replay_as_before(room, total)
    srv = launch(tmp_path / "g.db")
    try:
        for _ in range(2):  # worked out, then kept
            got = [get(srv, f"/api/games/{room.id}/replay/{step}")[2]
                   for step in range(total + 1)]
            assert got == expected
            assert get(srv, f"/api/games/{room.id}/replay/{10 ** 9}")[2] == expected[-1]
            assert get(srv, f"/api/games/{room.id}/replay/{total}",
                       {"Accept-Language": "de"})[2] == german != expected[-1]
        _, headers, record = get(srv, f"/api/games/{room.id}/record")
        hints = {i: 0 for i in range(len(room.params.seats))} if room.params.hints else None
        assert record == json.loads(dumps_record(room.game.record(
            room.state, players=["human", "human"], seed=room.params.seed, hints=hints)))
        assert "attachment" in headers["Content-Disposition"]
    finally:
        srv.stop()


def test_a_finished_games_replay_is_worked_out_once_and_kept_within_bounds(
        tmp_path, monkeypatch):
    from tavola.web.replaying import Replays

    room = finished_game(tmp_path / "g.db")
    server = game_server(tmp_path)
    loads: list[str] = []
    load = server.store.load
    monkeypatch.setattr(server.store, "load", lambda game_id: loads.append(game_id) or load(
        game_id))
    rebuilt: list[int] = []
    initial_state = Room.initial_state
    monkeypatch.setattr(Room, "initial_state",
                        lambda self: rebuilt.append(1) or initial_state(self))
    first = server.replays.step(room.id, 5, "198.51.100.1")
    assert rebuilt and len(loads) == 1
    rebuilt.clear()
    server.sweep()  # the finished game leaves the server's memory, not the replays'
    assert server.replays.step(room.id, 5, "198.51.100.2") == first
    assert rebuilt == [] and len(loads) == 1
    total = len(room.state.history)
    bound = 3 * len(server.replays.step(room.id, total, "198.51.100.1"))
    server.replays = Replays(server, 0, 0, max_bytes=bound)
    for step in range(total + 1):
        server.replays.step(room.id, step, "198.51.100.1")
    assert len(loads) == 2  # the new `Replays` read the game once, for every step
    assert 0 < server.replays.size <= bound < sum(len(json.dumps(replay_as_before(room, s)))
                                                  for s in range(total + 1))
    rebuilt.clear()
    server.replays.step(room.id, 0, "198.51.100.1")
    assert rebuilt == [1]  # forgotten, worked out again


def test_a_replay_steps_from_the_previous_position(tmp_path, monkeypatch):
    """Played forwards, each step applies one action to the step before; a step back starts
    again from the deal; and every answer is the one rebuilt from the deal."""
    room = finished_game(tmp_path / "g.db")
    total = len(room.state.history)
    expected = [replay_as_before(room, step) for step in range(total + 1)]
    server = game_server(tmp_path)
    applied: list[object] = []
    apply_in_place = type(room.game).apply_in_place
    monkeypatch.setattr(type(room.game), "apply_in_place",
                        lambda game, state, action: applied.append(action) or apply_in_place(
                            game, state, action))
    got = [json.loads(server.replays.step(room.id, step, "198.51.100.1"))
           for step in range(total + 1)]
    assert got == expected
    assert applied == list(room.state.history)  # each action once, in order
    applied.clear()
    with i18n.use("de"):  # the same step in another language: no action applied again
        server.replays.step(room.id, total, "198.51.100.1")
    assert applied == []
    with i18n.use("it"):  # back to step 2: from the deal, then on from there
        server.replays.step(room.id, 2, "198.51.100.1")
        server.replays.step(room.id, 3, "198.51.100.1")
    assert applied == list(room.state.history[:3])
    server.replays.forget(room.id)
    assert server.replays._positions == {}


# -- 4. no framing, no sniffing ----------------------------------------------------------------

FRAMING = {"content-security-policy": "frame-ancestors 'none'", "x-frame-options": "DENY",
           "x-content-type-options": "nosniff"}


def answer_headers(server: Server, path: str, body: bytes | None = None,
                   method: str | None = None) -> tuple[int, dict[str, str]]:
    req = urllib.request.Request(f"{server.base}{path}", data=body, method=method,
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            r.read()
            return r.status, {k.lower(): v for k, v in r.headers.items()}
    except urllib.error.HTTPError as exc:
        exc.read()
        return exc.code, {k.lower(): v for k, v in exc.headers.items()}


@pytest.mark.parametrize(("path", "body", "method", "status"), [
    ("/", None, None, 200),  # the lobby's page
    ("/game/unknown", None, None, 200),  # a table's page
    ("/account", None, None, 200),
    ("/api/lobby", None, None, 200),  # the API
    ("/static/tavola/common.js", None, None, 200),  # static files
    ("/static/gonzaga/index.html", None, None, 200),
    ("/i18n.js", None, None, 200),
    ("/favicon.ico", None, None, 200),
    ("/api/games/unknown/record", None, None, 404),  # the server's errors
    ("/api/games", b"{not json", None, 400),
    ("/api/games", b" " * 20_000, None, 413),  # refused before it is read
    ("/api/lobby", None, "DELETE", 405),  # the framework's
    ("/no/such/page", None, None, 404),
    ("/static/tavola/missing.js", None, None, 404),
])
def test_no_answer_may_be_framed_or_sniffed(server, path, body, method, status):
    got, headers = answer_headers(server, path, body, method)
    assert got == status
    assert {k: headers.get(k) for k in FRAMING} == FRAMING


def test_a_server_errors_answer_may_not_be_framed_or_sniffed(tmp_path):
    """The answer to a bug is made outside every middleware added; it has them too."""
    import gc

    from tavola.web.app import create_app

    threshold = gc.get_threshold()
    try:
        app = create_app(f"sqlite:///{tmp_path / 'g.db'}", games=["gonzaga"],
                         bot_processes=False)
    finally:  # what the server does to the collector, undone for the other tests
        gc.unfreeze()
        gc.set_threshold(*threshold)

    @app.get("/bug")
    async def bug() -> None:
        raise RuntimeError("a bug")

    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": "GET", "scheme": "http", "path": "/bug", "raw_path": b"/bug",
             "query_string": b"", "root_path": "", "headers": [],
             "client": ("127.0.0.1", 5000), "server": ("127.0.0.1", 80)}
    with pytest.raises(RuntimeError, match="a bug"):  # raised on, for the server's log
        asyncio.run(app(scope, receive, send))
    start = sent[0]
    assert start["status"] == 500
    headers = {k.decode(): v.decode() for k, v in start["headers"]}
    assert {k: headers.get(k) for k in FRAMING} == FRAMING
