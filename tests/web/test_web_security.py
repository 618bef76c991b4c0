"""The web server against strangers: each defect an attack found, as a test.

Secrets from public data, a client that never reads, text that cannot be stored, unbounded bot
budgets, the creator's seat handed out, huge bodies, floods of games and lobby calls, errors
that were server errors, and old moves sent again.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import socket
import sqlite3
import time
import urllib.error
import urllib.request
from dataclasses import asdict
from typing import Any

import pytest
import websockets
from test_web_server import Client, create, deal_of, token_of
from web_server import launch

from tavola.games.gonzaga.engine import deal
from tavola.games.gonzaga.web import site as site_module
from tavola.games.gonzaga.web.wire import choose
from tavola.web.loadbench import LOCAL_LIMITS, http_json, play_seat
from tavola.web.room import ClientError
from tavola.web.room import parse_params as parse

SITE = site_module.make_site()


def parse_params(data: Any) -> Any:
    return parse(data, SITE)

PEOPLE = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bo"}]


def request(server: Any, path: str, body: bytes | None = None, *, method: str | None = None,
            headers: dict[str, str] | None = None) -> tuple[int, Any, Any]:
    req = urllib.request.Request(f"{server.base}{path}", data=body, method=method or (
        "GET" if body is None else "POST"), headers={"Content-Type": "application/json",
                                                      **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.headers, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers, json.loads(exc.read())


def latest(c: Client) -> dict[str, Any]:
    """The client's newest view: the server answers a ping after everything sent before it."""
    c.send({"type": "ping"})
    while c.recv()["type"] != "pong":
        pass
    assert c.view is not None
    return c.view


def actions_stored(server: Any, game_id: str) -> int:
    with sqlite3.connect(server.db) as con:
        return int(con.execute("SELECT COUNT(*) FROM actions WHERE game_id=?",
                               (game_id,)).fetchone()[0])


def stored_games(server: Any) -> int:
    with sqlite3.connect(server.db) as con:
        return int(con.execute("SELECT COUNT(*) FROM games").fetchone()[0])


# -- 1. the deal ------------------------------------------------------------------------------


def test_a_deal_comes_from_the_operating_systems_randomness(monkeypatch):
    """No seed of 31 bits (or any seed a spectator could search) deals a game among people."""
    used = []

    class Spy(random.SystemRandom):
        def shuffle(self, x: Any) -> None:  # type: ignore[override]
            used.append("shuffle")
            super().shuffle(x)

    monkeypatch.setattr(site_module.secrets, "SystemRandom", Spy)
    params = parse_params({"seats": PEOPLE})
    assert used, "the deal was not made from secrets.SystemRandom"
    assert params.seed is None and params.setup is not None
    assert params.bot_seed >= 0
    # two deals of the same request differ (fiefs decks of 12 cards: equal only by accident)
    other = parse_params({"seats": PEOPLE})
    assert other.setup is not None
    assert other.setup["setup"]["decks"] != params.setup["setup"]["decks"]


def test_a_signorie_deal_and_its_rolls_come_from_256_bits_of_the_operating_system():
    """Signorie draws its dice during play from the generator its setup seeds: the seed of a
    game among people has 256 bits from `secrets` (it had 63), and stays on the server."""
    from tavola.games.signorie.web.site import make_site

    signorie = make_site()
    setups = [parse(dict(seats=PEOPLE, game="signorie"), signorie).setup for _ in range(4)]
    seeds = [setup["seed"] for setup in setups]
    assert max(seed.bit_length() for seed in seeds) > 128 and len(set(seeds)) == 4
    chosen = parse({"seats": [PEOPLE[0], {"kind": "bot", "bot": "greedy"}], "seed": 7,
                    "game": "signorie"}, signorie)
    assert chosen.setup["seed"] == 7  # a chosen seed still deals exactly that game


def test_a_chosen_seed_is_only_for_games_with_at_most_one_person(server):
    with pytest.raises(ClientError) as exc:
        parse_params({"seats": PEOPLE, "seed": 7})
    assert exc.value.code == "seed-not-allowed" and "deal" in exc.value.message
    solo = parse_params({"seats": [PEOPLE[0], {"kind": "bot", "bot": "greedy"}], "seed": 7})
    assert solo.setup["setup"] == asdict(deal(SITE.board, ["Ann", "Greedy bot"], 7))
    bots = parse_params({"seats": [{"kind": "bot", "bot": "random"}] * 2, "seed": 7})
    assert bots.seed == 7
    status, _, body = request(server, "/api/games",
                              json.dumps({"seats": PEOPLE, "seed": 7}).encode())
    assert status == 400 and body["code"] == "seed-not-allowed"


def test_the_deal_stays_on_the_server_and_is_not_a_small_seed(server):
    game = create(server, PEOPLE)
    setup = deal_of(server, game["id"])
    with sqlite3.connect(server.db) as con:
        params = json.loads(con.execute("SELECT params FROM games WHERE id=?",
                                        (game["id"],)).fetchone()[0])
    assert params["seed"] is None
    assert params["setup"]["setup"]["decks"] == [list(d) for d in setup.decks]
    assert "setup" not in json.dumps(http_json(f"{server.base}/api/games"))


# -- 2. a client that never reads -------------------------------------------------------------


def test_a_client_that_never_reads_cannot_freeze_a_game(server):
    """A spectator floods `state` requests and never reads; the player's game goes on."""
    game = create(server, [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}])
    url = f"{server.ws}/ws/{game['id']}"

    async def attacker(stop: asyncio.Event) -> None:
        # max_queue=1 and a tiny read buffer: the client stops reading from the socket at once
        async with websockets.connect(url, max_queue=1, max_size=1 << 24) as ws:
            ws.transport.set_write_buffer_limits(high=1 << 16)
            await ws.send(json.dumps({"type": "hello"}))
            with contextlib_suppress():
                for _ in range(5000):
                    await ws.send('{"type": "state"}')
                    if stop.is_set():
                        break
            await stop.wait()

    async def main() -> tuple[dict[str, Any], list[float]]:
        stop = asyncio.Event()
        spam = asyncio.create_task(attacker(stop))
        await asyncio.sleep(1.0)  # let the flood fill the buffers
        latencies: list[float] = []
        final = await play_seat(url, token_of(game, 0), random.Random(4), latencies)
        stop.set()
        await asyncio.gather(spam, return_exceptions=True)
        return final, latencies

    final, latencies = asyncio.run(asyncio.wait_for(main(), 90))
    assert final["phase"] == "over"
    assert max(latencies) < 2.0, max(latencies)


class contextlib_suppress:
    """Sending to a server that dropped us raises; that is the point of the test."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> bool:
        return exc[0] is not None and issubclass(exc[0], websockets.ConnectionClosed)  # type: ignore[arg-type]


def test_a_connection_outbox_is_bounded_and_coalesces_repeated_views():
    """A client that does not read is dropped once its outbox stays over the limit for a while
    or holds too many characters; a burst over the limit that it reads costs it nothing."""
    from tavola.web.connection import Connection

    class Stuck:
        """A socket whose sends never finish: a client that never reads."""

        async def send_text(self, text: str) -> None:
            await asyncio.Event().wait()

    class Reading:
        """A socket whose sends finish at once: a client that reads."""

        async def send_text(self, text: str) -> None:
            await asyncio.sleep(0)

    now = [0.0]

    async def main() -> dict[str, tuple[str | None, bool]]:
        view = "the same view"
        out = {}
        for name, sock, timeout, chars in (("repeat", Stuck(), 0.2, 1 << 20),
                                           ("flood", Stuck(), 30.0, 1 << 20),
                                           ("big", Stuck(), 30.0, 1000),
                                           ("burst", Reading(), 30.0, 1 << 20)):
            reader = asyncio.create_task(asyncio.Event().wait())  # the client's receive loop
            out[name] = (Connection(sock, lambda c: view, limit=8, timeout=timeout,  # type: ignore[arg-type]
                                    overflow_seconds=5.0, most_chars=chars, handler=reader,
                                    clock=lambda: now[0]), reader)
        for _ in range(1000):
            out["repeat"][0].send_view()  # the same view asked again and again: queued once
        for i in range(100):
            out["burst"][0].send(f"line {i}")  # 100 in one turn of the loop
        for i in range(20):
            out["flood"][0].send(f"message {i}")
        out["big"][0].send("x" * 600)
        await asyncio.sleep(0)
        assert [name for name, (c, _) in out.items() if c.dropped] == []
        out["big"][0].send("x" * 600)  # over its characters at once
        now[0] = 4.0
        out["flood"][0].send("still within the time")
        assert out["flood"][0].dropped is None
        await asyncio.sleep(0.5)  # the stuck send of `repeat` times out; `burst` is sent
        now[0] = 5.5
        out["flood"][0].send("over the limit for 5.5 s")
        out["burst"][0].send("one more")
        await asyncio.sleep(0)
        # (why it was dropped, whether its receive loop was ended)
        ends = {name: (conn.dropped, reader.cancelled()) for name, (conn, reader) in out.items()}
        for conn, _ in out.values():
            await conn.close()
        return ends

    ends = asyncio.run(main())
    assert "took over" in str(ends["repeat"][0]) and ends["repeat"][1]
    assert "unread for 5 s" in str(ends["flood"][0]) and ends["flood"][1]
    assert "characters unread" in str(ends["big"][0]) and ends["big"][1]
    assert ends["burst"] == (None, False)


# -- 3. text that cannot be stored ------------------------------------------------------------


def test_a_lone_surrogate_is_refused_and_the_lobby_keeps_working(server):
    before = stored_games(server)
    body = b'{"seats": [{"kind": "person", "name": "Eve\\ud800"}, {"kind": "bot"}]}'
    status, _, reply = request(server, "/api/games", body)
    assert status == 400 and reply["code"] == "bad-text"
    assert stored_games(server) == before  # nothing stored
    status, _, bad = request(server, "/api/games", b'{"seats": "\xff\xfe"}')
    assert status == 400 and bad["code"] == "bad-text"
    status, _, lobby = request(server, "/api/games")
    assert status == 200 and set(lobby) >= {"open", "playing", "finished"}


def test_a_stored_game_that_cannot_be_listed_never_breaks_the_lobby(server):
    game = create(server, PEOPLE, public=True)
    with sqlite3.connect(server.db) as con:
        con.execute("UPDATE games SET summary=? WHERE id=?", ("{not json", game["id"]))
    time.sleep(1.1)  # the lobby is cached for a second
    status, _, lobby = request(server, "/api/games")
    assert status == 200 and not any(g["id"] == game["id"] for g in lobby["open"])


def test_names_are_text_without_control_characters():
    for name in ("Eve\u202e", "a\x00b", "x" * 41, 12):
        with pytest.raises(ClientError):
            parse_params({"seats": [{"kind": "person", "name": name}, {"kind": "bot"}]})
    ok = parse_params({"seats": [{"kind": "person", "name": "  Zoë  "}, {"kind": "bot"}]})
    assert ok.seats[0].name == "Zoë"


# -- 4. bot budgets ---------------------------------------------------------------------------


def test_only_the_offered_bot_levels_are_accepted(server):
    for spec in ("mcts:time=86400", "mcts:iterations=1000000000", "mcts:hard:c=9"):
        status, _, body = request(server, "/api/games", json.dumps(
            {"seats": [{"kind": "person"}, {"kind": "bot", "bot": spec}]}).encode())
        assert status == 400 and body["code"] == "bad-bot", spec


def test_a_decision_past_its_deadline_replaces_the_worker():
    from tavola.games.gonzaga.engine import new_game
    from tavola.games.gonzaga.game import GAME
    from tavola.web.botpool import BotPool, Decision, DecisionTimeout

    setup = GAME.setup_of(new_game(2, 3))
    slow = Decision("gonzaga", "mcts:iterations=100000000", 1, setup, (), 0)
    quick = Decision("gonzaga", "random", 1, setup, (), 0)

    async def main() -> tuple[float, int, Any]:
        pool = BotPool(1, deadline=3.0)
        pool.start()
        await pool.decide(quick)  # the worker is up
        pid = pool.pids()[0]
        t0 = time.monotonic()
        with pytest.raises(DecisionTimeout):
            await pool.decide(slow)
        waited = time.monotonic() - t0
        action = await pool.decide(quick)  # the next decision waits for the new worker
        assert pool.pids()[0] != pid  # a new worker answered it
        await pool.shutdown()
        return waited, pool.replaced, action

    # the caller hears of the missed deadline when it passes, not after the old worker's kill
    # and the new one's start (which took over 3 s on a loaded machine); the wide margin is
    # for a loaded machine's thread scheduling alone
    waited, replaced, action = asyncio.run(main())
    assert 3.0 <= waited < 10 and replaced == 1 and action.player == 0


def test_a_worker_that_answers_an_error_is_kept():
    """A job the bot raises on is answered ("error", ...): the worker is alive and in step with
    its pipe, so it keeps working (replacing it cost 100 respawns in 45 s from one client)."""
    from tavola.games.gonzaga.engine import new_game
    from tavola.games.gonzaga.game import GAME
    from tavola.web.botpool import BotFailed, BotPool, Decision

    setup = GAME.setup_of(new_game(2, 3))
    broken = Decision("gonzaga", "random", 1, setup, ("no such action",), 0)
    quick = Decision("gonzaga", "random", 1, setup, (), 0)

    async def main() -> tuple[list[int], list[int], int, Any]:
        pool = BotPool(1, deadline=60.0)
        pool.start()
        await pool.decide(quick)  # the worker is up
        before = pool.pids()
        for _ in range(3):
            with pytest.raises(BotFailed):
                await pool.decide(broken)
        action = await pool.decide(quick)  # and it answers
        after = pool.pids()
        await pool.shutdown()
        return before, after, pool.replaced, action

    before, after, replaced, action = asyncio.run(main())
    assert replaced == 0 and after == before and action.player == 0


def test_replacing_a_late_worker_never_holds_up_the_caller_or_the_loop():
    """A late worker's kill and its successor's start happen in a thread: here the kill takes
    5 s, and the caller still hears of the missed deadline at once, while the loop runs on."""
    from tavola.games.gonzaga.engine import new_game
    from tavola.games.gonzaga.game import GAME
    from tavola.web.botpool import BotPool, Decision, DecisionTimeout

    setup = GAME.setup_of(new_game(2, 3))
    slow = Decision("gonzaga", "mcts:iterations=100000000", 1, setup, (), 0)
    quick = Decision("gonzaga", "random", 1, setup, (), 0)

    async def main() -> tuple[float, int]:
        pool = BotPool(1, deadline=1.0)
        pool.start()
        await pool.decide(quick)  # the worker's start is no part of the deadline
        worker = pool._workers[0]
        plain_kill = worker.kill

        def slow_kill() -> None:
            time.sleep(5)
            plain_kill()

        worker.kill = slow_kill  # type: ignore[method-assign]
        ticks = 0

        async def tick() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.05)
                ticks += 1

        ticker = asyncio.get_running_loop().create_task(tick())
        t0 = time.monotonic()
        with pytest.raises(DecisionTimeout):
            await pool.decide(slow)
        waited = time.monotonic() - t0
        await asyncio.sleep(1.0)  # the kill is still under way: the loop goes on meanwhile
        ticker.cancel()
        assert (await pool.decide(quick)).player == 0  # the new worker, once it is up
        await pool.shutdown()
        return waited, ticks

    waited, ticks = asyncio.run(main())
    assert waited < 4  # not the 6 s and more of a deadline, a kill and a start
    assert ticks >= 5  # the loop was not held by the kill


def test_a_workers_start_is_no_part_of_a_decisions_deadline():
    """A new worker imports the games and builds Gonzaga's placement tables before its first
    decision; on a loaded machine that took longer than a deadline, which then killed it."""
    from tavola.games.gonzaga.engine import new_game
    from tavola.games.gonzaga.game import GAME
    from tavola.web.botpool import BotPool, Decision

    quick = Decision("gonzaga", "random", 1, GAME.setup_of(new_game(2, 3)), (), 0)

    async def main() -> tuple[Any, int]:
        pool = BotPool(1, deadline=0.3)  # far less than a start, far more than the decision
        pool.start()
        action = await pool.decide(quick)
        await pool.shutdown()
        return action, pool.replaced

    action, replaced = asyncio.run(main())
    assert action.player == 0 and replaced == 0


# -- 5. the creator's seat --------------------------------------------------------------------


def test_join_never_hands_out_the_creators_seat(server):
    game = create(server, PEOPLE, public=True)
    assert game["you"] == 0
    status, _, joined = request(server, f"/api/games/{game['id']}/join", b"{}")
    assert status == 200 and joined["seat"] == 1
    assert request(server, f"/api/games/{game['id']}/join", b"{}")[0] == 409


# -- 6. body limit ----------------------------------------------------------------------------


def raw_post(server: Any, head: bytes, chunks: list[bytes]) -> bytes:
    """Send a request by hand and read the answer (the server may answer before the end)."""
    host, port = server.base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as s:
        s.sendall(b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  + head + b"\r\n")
        try:
            for chunk in chunks:
                s.sendall(chunk)
        except OSError:
            pass  # the server answered and closed: good
        reply = b""
        while b"too-large" not in reply and (part := s.recv(4096)):
            reply += part
        return reply


def test_bodies_over_the_limit_are_refused_before_they_are_read(server):
    before = stored_games(server)
    reply = raw_post(server, b"Content-Length: 209715200\r\n", [b" " * 65536] * 4)
    assert reply.startswith(b"HTTP/1.1 413") and b"too-large" in reply, reply[:200]
    # a chunked body, with no length declared, is cut off at the limit
    chunk = b" " * 8192
    reply = raw_post(server, b"Transfer-Encoding: chunked\r\n",
                     [b"%x\r\n%s\r\n" % (len(chunk), chunk)] * 64)
    assert reply.startswith(b"HTTP/1.1 413"), reply[:200]
    assert stored_games(server) == before
    assert request(server, "/api/games")[0] == 200  # and the server is fine


# -- 7. limits --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def strict(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A server with the production limits, except a small cap on games."""
    srv = launch(tmp_path_factory.mktemp("strict") / "games.db",
                 limits={"max_active_games": 8, "undo_wait": 0})
    yield srv
    srv.stop()


def test_game_creation_is_rate_limited_per_address(strict):
    bodies = [json.dumps({"seats": [{"kind": "person"}, {"kind": "bot"}]}).encode()] * 7
    statuses = [request(strict, "/api/games", b) for b in bodies]
    codes = [s for s, _, _ in statuses]
    assert codes[:5] == [200] * 5 and 429 in codes[5:], codes
    _, headers, body = next(s for s in statuses if s[0] == 429)
    assert body["code"] == "rate-limited" and int(headers["Retry-After"]) >= 1


def test_lobby_calls_are_rate_limited_per_address(strict):
    codes = [request(strict, "/api/games")[0] for _ in range(30)]
    assert codes[:20] == [200] * 20 and codes[-1] == 429, codes


def test_unfinished_games_are_capped(tmp_path):
    srv = launch(tmp_path / "cap.db", limits={"max_active_games": 3, "creates_per_minute": 0})
    try:
        body = json.dumps({"seats": [{"kind": "person"}, {"kind": "person"}]}).encode()
        codes = [request(srv, "/api/games", body)[0] for _ in range(4)]
        assert codes == [200, 200, 200, 503]
        assert request(srv, "/api/games", body)[2]["code"] == "server-full"
    finally:
        srv.stop()


def test_the_lobby_is_paged_and_lists_only_listed_games(server):
    hidden = create(server, PEOPLE)  # unlisted: in no list, for anyone
    made = [create(server, [{"kind": "person"}, {"kind": "bot"}], public=True)["id"]
            for _ in range(23)]
    time.sleep(1.1)
    first = http_json(f"{server.base}/api/games")
    assert len(first["playing"]) == 20 and first["more"]["playing"] is True
    assert [g["id"] for g in first["playing"]] == made[::-1][:20]  # newest first
    rest = http_json(f"{server.base}/api/games?section=playing&offset=20")
    assert {g["id"] for g in rest["games"]} >= set(made[:3])
    everything = json.dumps(first) + json.dumps(rest)
    assert hidden["id"] not in everything
    assert request(server, "/api/games?section=secret")[0] == 400


def test_finished_and_idle_games_leave_memory_and_come_back(tmp_path):
    from tavola.games.gonzaga.actions import action_to_json
    from tavola.games.gonzaga.engine import legal_actions
    from tavola.web.app import GameServer, Limits
    from tavola.web.storage import SqliteStore

    store = SqliteStore(tmp_path / "m.db")
    server = GameServer(store, SITE, bot_processes=False, limits=Limits(idle_seconds=60))

    async def main() -> None:
        done = server.create({"seats": [{"kind": "person"}, {"kind": "person"}]})
        idle = server.create({"seats": [{"kind": "person"}, {"kind": "person"}]})
        while not done.state.is_over:
            seat = done.state.to_move()[0]
            action = legal_actions(done.state, seat)[-1]
            await server.act(done, seat, action_to_json(action), done.seq)
        assert server.sweep() == 1 and done.id not in server.rooms  # finished: at once
        assert idle.id in server.rooms
        assert server.sweep(time.monotonic() + 61) == 1 and idle.id not in server.rooms
        back = server.room(done.id)
        assert back is not None and back.state.is_over and back.seq == done.seq

    asyncio.run(main())
    store.close()


# -- 8. specific errors -----------------------------------------------------------------------


def test_odd_tokens_and_text_get_specific_errors(server):
    game = create(server, PEOPLE)
    c = Client(f"{server.ws}/ws/{game['id']}")
    assert c.error({"type": "hello", "token": "Zoë-ünïcode"})["code"] == "bad-token"
    assert c.error({"type": "hello", "token": "x" * 5000})["code"] == "bad-token"
    c.send({"type": "hello", "token": token_of(game, 0)})
    c.expect("state")
    assert c.error('{"type": "check", "action": {"type": "plan", "region": "\\ud800"}}'
                   )["code"] == "bad-text"
    assert c.error('{"type": "act", "seq": 0, "action": {"type": "plan", "region": "\\udfff"}}'
                   )["code"] == "bad-text"
    assert c.fresh_state()["seq"] == 0
    c.close()


def test_messages_over_the_socket_limit_close_the_socket_with_1009(server):
    game = create(server, PEOPLE)
    with websockets.sync.client.connect(f"{server.ws}/ws/{game['id']}") as ws:
        ws.send("[" * 100_000)
        with pytest.raises(websockets.ConnectionClosed) as exc:
            ws.recv(timeout=10)
    assert exc.value.rcvd is not None and exc.value.rcvd.code == 1009


# -- 9. old moves sent again ------------------------------------------------------------------


def test_a_move_sent_again_later_is_refused_as_stale(server):
    game = create(server, PEOPLE)
    url = f"{server.ws}/ws/{game['id']}"
    ann, bo = Client(url), Client(url)
    ann.send({"type": "hello", "token": token_of(game, 0)})
    bo.send({"type": "hello", "token": token_of(game, 1)})
    view = ann.expect("state")
    bo.expect("state")
    plan = {"type": "act", "seq": view["seq"], "action": choose(view, random.Random(1))}
    ann.send(plan)
    bo_view = bo.expect("state")
    while bo_view["seq"] != 1:
        bo_view = bo.expect("state")
    # Bo plans on the view after Ann's plan: plans are simultaneous, both count
    bo.send({"type": "act", "seq": 0, "action": choose(bo_view, random.Random(2))})
    while (ann.view or {}).get("phase") != "placing":
        ann.recv()
    # the round goes on to the next planning; then Ann's old message arrives again
    while (latest(ann)["phase"], ann.view["round"]) != ("planning", 2):
        for client in (ann, bo):
            v = latest(client)
            if v["legal"]:
                client.send({"type": "act", "seq": v["seq"],
                             "action": choose(v, random.Random(3))})
                latest(client)
    stored = actions_stored(server, game["id"])
    reply = ann.error(plan)
    assert reply["code"] == "stale"
    assert actions_stored(server, game["id"]) == stored  # nothing played
    assert ann.error({"type": "act", "action": plan["action"], "seq": None})["code"] \
        == "bad-message"
    ann.close()
    bo.close()


# -- hello, undo, rematch ---------------------------------------------------------------------


def test_a_hello_sends_the_view_only_to_the_new_connection(server):
    game = create(server, PEOPLE)
    url = f"{server.ws}/ws/{game['id']}"
    watchers = [Client(url) for _ in range(3)]
    for w in watchers:
        w.send({"type": "hello"})
        w.expect("state")
    ann = Client(url)
    ann.send({"type": "hello", "token": token_of(game, 0)})
    ann.expect("state")
    for w in watchers:  # spectators hear of Ann's arrival, without a new view
        msg = w.recv()
        assert msg["type"] == "presence" and msg["seats"][0]["connected"] is True, msg
    late = Client(url)
    late.send({"type": "hello"})
    late.expect("state")
    for w in (*watchers, ann):  # a spectator arriving changes nothing for anyone
        w.send({"type": "ping"})
        assert w.recv()["type"] == "pong"
    for c in (*watchers, ann, late):
        c.close()


def test_a_move_can_be_taken_back_until_the_next_player_acts(server):
    game = create(server, [*PEOPLE, {"kind": "person", "name": "Cy"}])
    url = f"{server.ws}/ws/{game['id']}"
    seats = [Client(url) for _ in range(3)]
    for i, c in enumerate(seats):
        c.send({"type": "hello", "token": token_of(game, i)})
        c.expect("state")
    ann, bo, cy = seats

    def move(c: Client, seed: int) -> dict[str, Any]:
        v = latest(c)
        c.send({"type": "act", "seq": v["seq"], "action": choose(v, random.Random(seed))})
        return latest(c)

    mine = move(ann, 1)
    assert mine["seq"] == 1 and mine["can_undo"] is True
    assert latest(bo)["can_undo"] is False  # not Bo's move
    assert bo.error({"type": "undo", "seq": 1})["code"] == "no-undo"
    ann.send({"type": "undo", "seq": 1})
    back = latest(ann)
    assert back["seq"] == 0 and back["players"][0]["plan"] is None and not back["can_undo"]
    # plan again; once Bo has planned, Ann's plan stays
    move(ann, 2)
    move(bo, 3)
    assert ann.error({"type": "undo", "seq": 2})["code"] == "no-undo"
    # the last plan reveals every plan: it cannot be taken back
    revealed = move(cy, 4)
    assert revealed["phase"] == "placing" and revealed["can_undo"] is False
    assert cy.error({"type": "undo", "seq": 3})["code"] == "no-undo"
    # a placement that is not the round's last can be taken back by its player
    mover = seats[revealed["current"]]
    v = latest(mover)
    placed = move(mover, 5)
    assert placed["can_undo"] is True and placed["seq"] == v["seq"] + 1
    mover.send({"type": "undo", "seq": placed["seq"]})
    assert latest(mover)["seq"] == v["seq"]
    assert actions_stored(server, game["id"]) == v["seq"]  # taken back in the log too
    for c in seats:
        c.close()


def test_a_rematch_gives_every_player_a_new_seat_link(server):
    game = create(server, [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "random"}])
    url = f"{server.ws}/ws/{game['id']}"
    asyncio.run(asyncio.wait_for(play_seat(url, token_of(game, 0), random.Random(1)), 60))
    ann = Client(url)
    ann.send({"type": "hello", "token": token_of(game, 0)})
    assert ann.expect("state")["phase"] == "over"
    ann.send({"type": "rematch"})
    link = ann.expect("rematch")["link"]
    assert link.startswith("/game/") and "#" in link and game["id"] not in link
    again = ann.expect("state")
    assert again["rematch"] == link
    new_id, token = link[len("/game/"):].split("#")
    fresh = Client(f"{server.ws}/ws/{new_id}")
    fresh.send({"type": "hello", "token": token})
    view = fresh.expect("state")
    assert (view["round"], view["phase"], view["you"]) == (1, "planning", 0)
    assert [p["name"] for p in view["players"]] == ["Ann", "Random bot"]
    ann.close()
    fresh.close()


# -- one seat's chat burst, connections per seat and per address, half-sent requests ---------


@pytest.fixture(scope="module")
def chatty(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The production chat limit (`Limits` defaults), the rest relaxed for one local program."""
    srv = launch(tmp_path_factory.mktemp("chatty") / "games.db",
                 limits={**LOCAL_LIMITS, "chat_per_second": 0.5, "chat_burst": 5})
    yield srv
    srv.stop()


async def reader(url: str, token: str | None, said_hello: asyncio.Event,
                 stop: asyncio.Event) -> bool:
    """A page that reads every message; True if it is still connected (a ping answered)
    once `stop` is set."""
    async with websockets.connect(url, max_size=1 << 24) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        try:
            while json.loads(await ws.recv())["type"] != "welcome":
                pass
            said_hello.set()
            while not stop.is_set():
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(0.2):
                        await ws.recv()
            await ws.send('{"type": "ping"}')
            async with asyncio.timeout(30):
                while json.loads(await ws.recv())["type"] != "pong":
                    pass
        except websockets.ConnectionClosed:
            return False
    return True


async def chat_burst(url: str, token: str, connections: int, lines: int) -> None:
    """`lines` chat lines from `connections` connections of one seat, sent at once; the
    connections never read."""
    sockets = [await websockets.connect(url, max_size=1 << 24, close_timeout=1)
               for _ in range(connections)]
    try:
        for ws in sockets:
            await ws.send(json.dumps({"type": "hello", "token": token}))
        await asyncio.sleep(1.0)  # every hello answered
        per = lines // connections
        with contextlib.suppress(websockets.ConnectionClosed):
            await asyncio.gather(*(ws.send(json.dumps({"type": "chat", "text": f"spam {i}"}))
                                   for ws in sockets for i in range(per)))
        await asyncio.sleep(2.0)  # the server sends the lines it took
    finally:
        await asyncio.gather(*(ws.close() for ws in sockets))


def test_one_seats_chat_burst_disconnects_no_reader(chatty):
    """100 lines from 20 connections of one seat: the other player and a spectator, both
    reading, stay connected."""
    game = create(chatty, PEOPLE)
    url = f"{chatty.ws}/ws/{game['id']}"

    async def main() -> list[bool]:
        stop = asyncio.Event()
        ready = [asyncio.Event(), asyncio.Event()]
        readers = [asyncio.create_task(reader(url, token, said, stop))
                   for token, said in zip((token_of(game, 1), None), ready, strict=True)]
        await asyncio.gather(*(said.wait() for said in ready))
        await chat_burst(url, token_of(game, 0), connections=20, lines=100)
        stop.set()
        return list(await asyncio.gather(*readers))

    connected = asyncio.run(asyncio.wait_for(main(), 90))
    assert connected == [True, True], f"readers still connected: {sum(connected)} of 2"


def hello(url: str, token: str | None) -> tuple[Any, dict[str, Any]]:
    """A connection that said hello, and its first answer (a welcome, or the refusal)."""
    ws = websockets.sync.client.connect(url, max_size=1 << 24, close_timeout=1).__enter__()
    ws.send(json.dumps({"type": "hello", "token": token}))
    return ws, json.loads(ws.recv(timeout=10))


def refused_with(ws: Any, answer: dict[str, Any]) -> int | None:
    """The close code of a refused connection (it says why first)."""
    assert answer["type"] == "error" and answer["code"] == "too-many-connections", answer
    assert answer["message"]
    with pytest.raises(websockets.ConnectionClosed) as exc:
        ws.recv(timeout=30)
    return exc.value.rcvd.code if exc.value.rcvd else None


def test_a_seat_has_at_most_six_connections(chatty):
    game = create(chatty, PEOPLE)
    url = f"{chatty.ws}/ws/{game['id']}"
    seat = [hello(url, token_of(game, 0)) for _ in range(6)]
    assert [answer["type"] for _, answer in seat] == ["welcome"] * 6
    assert refused_with(*hello(url, token_of(game, 0))) == 4429
    other, answer = hello(url, token_of(game, 1))  # the other seat and spectators still come in
    watcher, watching = hello(url, None)
    assert answer["type"] == watching["type"] == "welcome"
    seat.pop()[0].close()
    deadline = time.monotonic() + 30  # the server hears of the close, then has room again
    while (answer := hello(url, token_of(game, 0)))[1]["type"] != "welcome":
        assert time.monotonic() < deadline, answer[1]
        answer[0].close()
        time.sleep(0.1)
    for ws in [answer[0], other, watcher, *(ws for ws, _ in seat)]:
        ws.close()


@pytest.fixture(scope="module")
def capped(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A server allowing 4 WebSockets per address and 1 s for a request to arrive."""
    srv = launch(tmp_path_factory.mktemp("capped") / "games.db",
                 limits={**LOCAL_LIMITS, "connections_per_address": 4, "request_seconds": 1})
    yield srv
    srv.stop()


def test_an_address_has_at_most_its_websockets(capped):
    game = create(capped, PEOPLE)
    url = f"{capped.ws}/ws/{game['id']}"
    other = create(capped, PEOPLE)  # the cap is the address's, in every game
    open_ = [hello(url, None) for _ in range(3)] + [hello(f"{capped.ws}/ws/{other['id']}", None)]
    assert [answer["type"] for _, answer in open_] == ["welcome"] * 4
    ws = websockets.sync.client.connect(url, close_timeout=1).__enter__()  # refused before
    assert refused_with(ws, json.loads(ws.recv(timeout=10))) == 4429  # its hello
    open_.pop()[0].close()
    deadline = time.monotonic() + 30  # the server hears of the close, then has room again
    while (answer := hello(url, token_of(game, 0)))[1]["type"] != "welcome":
        assert time.monotonic() < deadline, answer[1]
        answer[0].close()
        time.sleep(0.1)
    for ws, _ in [answer, *open_]:
        ws.close()


def closed_within(sock: socket.socket, seconds: float) -> float | None:
    """How long until the server closed `sock` (None: still open after `seconds`)."""
    start = time.monotonic()
    sock.settimeout(seconds)
    try:
        while sock.recv(4096):
            pass
    except TimeoutError:
        return None
    except ConnectionResetError:
        pass
    return time.monotonic() - start


def test_a_request_that_never_arrives_is_closed(capped):
    """Headers that never finish, and a body shorter than it said, hold no connection for
    longer than the deadline (1 s here; waited on for up to 30 s)."""
    host, port = capped.base.removeprefix("http://").split(":")
    starts = {"nothing": b"",
              "half the headers": b"GET /api/lobby HTTP/1.1\r\nHost: x\r\nX-Slow: ",
              "half the body": b"POST /api/games HTTP/1.1\r\nHost: x\r\n"
                               b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"}
    for what, start in starts.items():
        with socket.create_connection((host, int(port)), timeout=10) as sock:
            sock.sendall(start)
            assert closed_within(sock, 30) is not None, f"{what}: still open after 30 s"
    with socket.create_connection((host, int(port)), timeout=10) as sock:  # and a whole one
        sock.sendall(b"GET /api/lobby HTTP/1.1\r\nHost: x\r\n\r\n")
        assert sock.recv(12) == b"HTTP/1.1 200"


def test_request_headers_are_bounded(capped):
    host, port = capped.base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(b"GET /api/lobby HTTP/1.1\r\nHost: x\r\n")
        with contextlib.suppress(OSError):  # the server may close before the end
            for i in range(200):
                sock.sendall(b"X-Filler-%d: %s\r\n" % (i, b"y" * 1000))
        reply = b""
        with contextlib.suppress(OSError):
            while part := sock.recv(4096):
                reply += part
    assert reply.startswith(b"HTTP/1.1 400"), reply[:200]


def test_a_websocket_outlives_the_request_deadline(capped):
    """The deadline is the request's: an open game's socket stays, however long."""
    game = create(capped, PEOPLE)
    ws, answer = hello(f"{capped.ws}/ws/{game['id']}", token_of(game, 0))
    assert answer["type"] == "welcome"
    time.sleep(2.5)  # more than twice the deadline
    ws.send('{"type": "ping"}')
    while json.loads(ws.recv(timeout=10))["type"] != "pong":
        pass
    ws.close()
