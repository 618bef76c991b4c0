"""The web server against strangers: each defect an attack found, as a test.

Secrets from public data, a client that never reads, text that cannot be stored, unbounded bot
budgets, the creator's seat handed out, huge bodies, floods of games and lobby calls, errors
that were server errors, and old moves sent again.
"""

from __future__ import annotations

import asyncio
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

from games.gonzaga.engine import deal
from games.gonzaga.web import site as site_module
from games.gonzaga.web.wire import choose
from tabletop.web.loadbench import http_json, play_seat
from tabletop.web.room import ClientError
from tabletop.web.room import parse_params as parse

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
    from games.signorie.web.site import make_site

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
    from tabletop.web.connection import Connection

    class Stuck:
        """A socket whose sends never finish: a client that never reads."""

        async def send_text(self, text: str) -> None:
            await asyncio.Event().wait()

    async def main() -> list[tuple[Connection, asyncio.Task[Any]]]:
        view = "the same view"
        out = []
        for limit, timeout in ((8, 0.2), (8, 30.0)):
            reader = asyncio.create_task(asyncio.Event().wait())  # the client's receive loop
            out.append((Connection(Stuck(), lambda c: view, limit=limit,  # type: ignore[arg-type]
                                   timeout=timeout, handler=reader), reader))
        (repeat, _), (flood, _) = out
        for _ in range(1000):
            repeat.send_view()  # the same view asked again and again: queued once
        await asyncio.sleep(0)
        assert repeat.dropped is None
        for i in range(20):
            flood.send(f"message {i}")
        await asyncio.sleep(0.5)  # the stuck send of `repeat` times out
        for conn, _ in out:
            await conn.close()
        return out

    (repeat, reader1), (flood, reader2) = asyncio.run(main())
    assert repeat.dropped and "took over" in repeat.dropped and reader1.cancelled()
    assert flood.dropped and "unread" in flood.dropped and reader2.cancelled()


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
    from games.gonzaga.engine import new_game
    from games.gonzaga.game import GAME
    from tabletop.web.botpool import BotPool, Decision, DecisionTimeout

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
        assert pool.pids()[0] != pid  # a new worker
        action = await pool.decide(quick)  # and it answers
        await pool.shutdown()
        return waited, pool.replaced, action

    waited, replaced, action = asyncio.run(main())
    assert waited < 5 and replaced == 1 and action.player == 0


def test_a_worker_that_answers_an_error_is_kept():
    """A job the bot raises on is answered ("error", ...): the worker is alive and in step with
    its pipe, so it keeps working (replacing it cost 100 respawns in 45 s from one client)."""
    from games.gonzaga.engine import new_game
    from games.gonzaga.game import GAME
    from tabletop.web.botpool import BotFailed, BotPool, Decision

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
    from games.gonzaga.actions import action_to_json
    from games.gonzaga.engine import legal_actions
    from tabletop.web.app import GameServer, Limits
    from tabletop.web.storage import SqliteStore

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
