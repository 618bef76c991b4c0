"""Several server processes on one database, hearing of each other's moves through Redis.

Debian's `redis-server` is started in a temporary folder on a free port; without it these tests
skip locally and fail in CI (CI=true), where .ci/run installs it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
import websockets

from tavola.web.app import GameServer, Limits
from tavola.web.cluster import PREFIX
from tavola.web.errors import ClientError
from tavola.web.loadbench import (
    LOCAL_LIMITS,
    free_port,
    http_json,
    play_seat,
    start_redis,
    start_server,
)
from tavola.web.site import load_site, load_sites
from tavola.web.storage import SeqConflict, SqliteStore

if shutil.which("redis-server") is None:
    if os.environ.get("CI") == "true":  # in CI a test of several processes never skips
        pytest.fail("redis-server is not installed; .ci/run installs it", pytrace=False)
    pytest.skip("redis-server is not installed: tests of several processes skipped",
                allow_module_level=True)

PEOPLE = {"game": "gonzaga", "seats": [{"kind": "person"}, {"kind": "person"}]}


@pytest.fixture()
def redis_url(tmp_path: Path) -> Iterator[str]:
    proc, url = start_redis(tmp_path)
    yield url
    proc.terminate()
    proc.wait(10)


def _servers(db: Path, clock: Any = time.time) -> tuple[GameServer, GameServer]:
    """Two servers on one SQLite file, as two processes would be (bots in threads)."""
    sites = load_sites(["gonzaga"])
    limits = Limits(**{**LOCAL_LIMITS, "lease_seconds": 2.0})  # type: ignore[arg-type]
    return tuple(GameServer(SqliteStore(db), sites, bot_delay=0, bot_processes=False,
                            limits=limits, clock=clock) for _ in range(2))  # type: ignore


def _plan(room: Any, seat: int, pick: int = 0) -> dict[str, Any]:
    """One of the seat's legal plans, as a client would send it."""
    view = json.loads(room.message_text(seat))
    return load_site("gonzaga").bench_reply(view, random.Random(pick))


def _logged(db: Path, game_id: str) -> list[dict[str, Any]]:
    with contextlib.closing(sqlite3.connect(db)) as con:
        return [json.loads(a) for (a,) in con.execute(
            "SELECT action FROM actions WHERE game_id=? ORDER BY seq", (game_id,))]


# -- the unique (game, seq): two moves at once on two processes --------------------------------


def test_a_second_write_of_the_same_seq_is_a_conflict(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "g.db")
    other = SqliteStore(tmp_path / "g.db")
    a, _ = _servers(tmp_path / "g.db")
    room = a.create(PEOPLE)
    action = room.game.action_to_json(room.game.legal_actions(room.state, 0)[0])
    store.append(room.id, 0, action)
    with pytest.raises(SeqConflict):
        other.append(room.id, 0, action)
    assert len(_logged(tmp_path / "g.db", room.id)) == 1


def test_the_same_seat_moving_on_two_processes_at_once_wins_once(tmp_path: Path) -> None:
    async def run() -> None:
        a, b = _servers(tmp_path / "g.db")
        room_a = a.create(PEOPLE)
        room_b = b.room(room_a.id)
        assert room_b is not None and room_b.seq == 0
        first, second = _plan(room_a, 0, 1), _plan(room_b, 0, 2)
        results = await asyncio.gather(a.act(room_a, 0, first, 0), b.act(room_b, 0, second, 0),
                                       return_exceptions=True)
        errors = [r for r in results if isinstance(r, ClientError)]
        assert len(errors) == 1 and errors[0].code in ("not-your-turn", "stale")
        assert errors[0].message  # said in words, not only a code
        log = _logged(tmp_path / "g.db", room_a.id)
        assert len(log) == 1  # the log never forks
        assert room_a.state.history == room_b.state.history  # the loser caught up

    asyncio.run(run())


def test_moves_of_different_seats_at_once_both_count(tmp_path: Path) -> None:
    """Plans are simultaneous: a plan that lost the race for a seq is judged again, and
    stands, as it would on one process."""
    async def run() -> None:
        a, b = _servers(tmp_path / "g.db")
        room_a = a.create(PEOPLE)
        room_b = b.room(room_a.id)
        assert room_b is not None
        await asyncio.gather(a.act(room_a, 0, _plan(room_a, 0), 0),
                             b.act(room_b, 1, _plan(room_b, 1), 0))
        assert len(_logged(tmp_path / "g.db", room_a.id)) == 2
        assert await a.catch_up(room_a)
        assert room_a.state.history == room_b.state.history
        assert not await a.catch_up(room_a)  # nothing new: nothing sent again

    asyncio.run(run())


class _Client:
    """A joined connection that records what it is sent (views as the server builds them)."""

    def __init__(self, room: Any, seat: int | None) -> None:
        self.room, self.seat, self.joined = room, seat, True
        self.sent: list[dict[str, Any]] = []

    def send(self, text: str) -> None:
        self.sent.append(json.loads(text))

    def send_view(self) -> None:
        self.send(self.room.message_text(self.seat))


def test_a_seat_claimed_on_another_process_is_told_as_presence_not_a_view_again(
        tmp_path: Path) -> None:
    """A seat taken on process B (its player said hello there) reaches A's clients when A
    next reads the store (a hello on A does): as a presence message, never as the same view
    sent again, so every client sees each view once and in order."""
    async def run() -> None:
        a, b = _servers(tmp_path / "g.db")
        room_a = a.create(PEOPLE)
        ann = _Client(room_a, 0)
        a.conns[room_a.id].add(ann)  # type: ignore[arg-type]
        ann.send_view()
        room_b = b.room(room_a.id)
        assert room_b is not None and 1 not in room_b.claimed
        section, summary = room_b.line_if_claimed(1)
        assert b.store.claim(room_b.id, 1, section=section, summary=summary)
        await a.catch_up(room_a)
        assert 1 in room_a.claimed
        assert [m["seq"] for m in ann.sent if m["type"] == "state"] == [0]
        presence = [m for m in ann.sent if m["type"] == "presence"]
        assert presence and presence[-1]["seats"][1]["claimed"]
        assert not await a.catch_up(room_a)  # nothing new: nothing sent again
        assert len(ann.sent) == 2

    asyncio.run(run())


def test_a_seat_named_on_another_process_is_named_here_too(tmp_path: Path) -> None:
    """A signed-in player took seat 1 on process B (`name_seat`): A, catching up, replays the
    game under the account's name, so its clients read it in the players and the log."""
    async def run() -> None:
        a, b = _servers(tmp_path / "g.db")
        room_a = a.create(PEOPLE)
        await a.act(room_a, 0, _plan(room_a, 0), 0)
        room_b = b.room(room_a.id)
        assert room_b is not None and room_b.params.seats[1].name == "Player 2"
        b.name_seat(room_b, 1, "Bonifacio")
        b.name_seat(room_b, 1, "Somebody else")  # a seat is named once
        ann = _Client(room_a, 0)
        a.conns[room_a.id].add(ann)  # type: ignore[arg-type]
        assert await a.catch_up(room_a)
        assert [s.name for s in room_a.params.seats] == ["Player 1", "Bonifacio"]
        assert room_a.state.history == room_b.state.history
        view = ann.sent[-1]
        assert view["type"] == "state" and "Bonifacio" in json.dumps(view)
        assert "Player 2" not in json.dumps(view)

    asyncio.run(run())


def test_an_undo_on_another_process_is_replayed_not_forked(tmp_path: Path) -> None:
    async def run() -> None:
        a, b = _servers(tmp_path / "g.db")
        room_a = a.create(PEOPLE)
        room_b = b.room(room_a.id)
        assert room_b is not None
        await a.act(room_a, 0, _plan(room_a, 0), 0)
        await b.catch_up(room_b)
        await b.undo(room_b, 0, 1)
        assert room_b.seq == 0
        assert await a.catch_up(room_a)
        assert room_a.seq == 0 and room_a.state.history == room_b.state.history

    asyncio.run(run())


def test_a_rematch_asked_on_two_processes_at_once_is_one_game(tmp_path: Path) -> None:
    async def run() -> None:
        a, b = _servers(tmp_path / "g.db")
        room_a = a.create(PEOPLE)
        while not room_a.state.is_over:
            seat = room_a.state.to_move()[0]
            await a.act(room_a, seat, _plan(room_a, seat, room_a.seq), room_a.seq)
        room_b = b.room(room_a.id)
        assert room_b is not None and room_b.state.is_over
        await asyncio.gather(a.rematch(room_a, 0), b.rematch(room_b, 1))
        assert room_a.rematch == room_b.rematch and room_a.rematch is not None
        new_ids = {link.split("/")[2].split("#")[0] for link in room_a.rematch.values()}
        assert len(new_ids) == 1 and room_a.id not in new_ids
        with contextlib.closing(sqlite3.connect(tmp_path / "g.db")) as con:
            assert con.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 2
        # asked again later, on either process: the same game
        room_a.rematch = None
        await a.rematch(room_a, 0)
        assert room_a.rematch == room_b.rematch

    asyncio.run(run())


# -- processes and Redis -----------------------------------------------------------------------


@contextlib.contextmanager
def _processes(tmp: Path, redis: str, count: int = 2, db: str | None = None,
               **limits: float) -> Iterator[list[tuple[int, subprocess.Popen[bytes]]]]:
    procs = []
    try:
        for _ in range(count):
            port = free_port()
            procs.append((port, start_server(port, db or tmp / "games.db", redis=redis, limits={
                **LOCAL_LIMITS, "messages_per_second": 0, **limits})))
        yield procs
    finally:
        for _, proc in procs:
            if proc.poll() is None:
                proc.terminate()
                proc.wait(10)


async def _watch(url: str, seen: list[dict[str, Any]]) -> dict[str, Any]:
    """A spectator: every state message until the end."""
    async with websockets.connect(url, max_size=1 << 24) as ws:
        await ws.send(json.dumps({"type": "hello"}))
        while True:
            msg = orjson.loads(await ws.recv())
            if msg["type"] == "state":
                seen.append(msg)
                if msg["phase"] == "over":
                    return msg


def _in_order_once(messages: list[dict[str, Any]]) -> list[int]:
    seqs = [m["seq"] for m in messages if m.get("type") == "state"]
    assert seqs == sorted(set(seqs)), f"views out of order or repeated: {seqs}"
    return seqs


def test_a_move_on_one_process_reaches_every_connection_of_the_other(
        tmp_path: Path, redis_url: str) -> None:
    with _processes(tmp_path, redis_url) as [(pa, _), (pb, _)]:
        game = http_json(f"http://127.0.0.1:{pa}/api/games", PEOPLE)
        tokens = [s["link"].split("#", 1)[1] for s in game["seats"]]
        views: list[list[dict[str, Any]]] = [[], [], [], []]

        async def run() -> list[dict[str, Any]]:
            ws = f"/ws/{game['id']}"
            return await asyncio.gather(
                play_seat(f"ws://127.0.0.1:{pa}{ws}", tokens[0], random.Random(0),
                          messages=views[0], think=0.01),
                play_seat(f"ws://127.0.0.1:{pb}{ws}", tokens[1], random.Random(1),
                          messages=views[1], think=0.01),
                _watch(f"ws://127.0.0.1:{pa}{ws}", views[2]),
                _watch(f"ws://127.0.0.1:{pb}{ws}", views[3]))

        finals = asyncio.run(asyncio.wait_for(run(), 120))
    total = len(_logged(tmp_path / "games.db", game["id"]))
    assert total > 20
    for final, seen in zip(finals, views, strict=True):
        assert final["phase"] == "over" and final["seq"] == total
        seqs = _in_order_once(seen)
        assert seqs[-1] == total
    # the spectator on the other process saw the game move by move, not only its end
    assert len(_in_order_once(views[3])) > total // 2


def test_a_crowd_arriving_at_once_on_postgresql_is_welcomed_first_and_plays_on(
        tmp_path: Path, redis_url: str, pg_url: str) -> None:
    """24 players arriving in the same instant on two processes over PostgreSQL (whose moves
    and seat claims wait on the event loop), the first of them moving while the last arrive:
    each connection's first message is its welcome, views come in order, every game ends."""
    with _processes(tmp_path, redis_url, db=pg_url) as [(pa, _), (pb, _)]:
        games = [http_json(f"http://127.0.0.1:{pa}/api/games", PEOPLE) for _ in range(12)]
        seats = [(g, game, s) for g, game in enumerate(games) for s in game["seats"]]
        inbox: list[list[dict[str, Any]]] = [[] for _ in seats]

        async def run() -> list[dict[str, Any]]:
            return await asyncio.gather(*[
                play_seat(f"ws://127.0.0.1:{(pa, pb)[g % 2]}/ws/{game['id']}",
                          s["link"].split("#", 1)[1], random.Random(g * 10 + s["seat"]),
                          messages=inbox[i], think=0.01)
                for i, (g, game, s) in enumerate(seats)])

        finals = asyncio.run(asyncio.wait_for(run(), 180))
    assert all(f["phase"] == "over" for f in finals)
    for messages in inbox:
        assert messages[0]["type"] == "welcome" and messages[0]["seat"] is not None
        _in_order_once(messages)


def test_a_chat_line_reaches_the_players_of_the_game_on_the_other_process(
        tmp_path: Path, redis_url: str) -> None:
    with _processes(tmp_path, redis_url) as [(pa, _), (pb, _)]:
        game = http_json(f"http://127.0.0.1:{pa}/api/games", PEOPLE)
        tokens = [s["link"].split("#", 1)[1] for s in game["seats"]]

        async def run() -> list[dict[str, Any]]:
            ws_path = f"/ws/{game['id']}"
            async with websockets.connect(f"ws://127.0.0.1:{pa}{ws_path}") as ann, \
                    websockets.connect(f"ws://127.0.0.1:{pb}{ws_path}") as bea:
                for ws, token in ((ann, tokens[0]), (bea, tokens[1])):
                    await ws.send(json.dumps({"type": "hello", "token": token}))
                    while orjson.loads(await ws.recv())["type"] != "state":
                        pass
                await asyncio.sleep(0.3)  # both processes follow the game's channel
                await ann.send(json.dumps({"type": "chat", "text": "Buongiorno!"}))
                heard = []
                for ws in (ann, bea):
                    while True:
                        msg = orjson.loads(await ws.recv())
                        if msg["type"] == "chat":
                            heard.append(msg)
                            break
                return heard

        heard = asyncio.run(asyncio.wait_for(run(), 30))
    for msg in heard:
        assert [(line["seat"], line["text"]) for line in msg["lines"]] == [(0, "Buongiorno!")]


def test_the_bots_of_a_game_decide_once_however_many_processes_show_it(
        tmp_path: Path, redis_url: str) -> None:
    from tavola.web.cluster import Cluster

    async def run() -> tuple[list[int], int, Any, Any]:
        servers = _servers(tmp_path / "g.db")
        counts = [0, 0]
        for i, server in enumerate(servers):
            server.cluster = Cluster(redis_url, server.limits.lease_seconds)
            decide = server.bots.decide

            async def counted(decision: Any, i: int = i, decide: Any = decide) -> Any:
                counts[i] += 1
                return await decide(decision)

            server.bots.decide = counted  # type: ignore[method-assign]
            await server.cluster.start(server)
            server.start()
        a, b = servers
        room_a = a.create({"game": "gonzaga", "seats": [
            {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}], "seed": 7})
        room_b = b.room(room_a.id)
        assert room_b is not None
        deadline = time.monotonic() + 90
        while not (room_a.state.is_over and room_b.state.is_over):
            assert time.monotonic() < deadline, "the bots' game did not end"
            await asyncio.sleep(0.1)
        for server in servers:
            assert server.cluster is not None
            await server.cluster.close()
            await server.shutdown()
        return counts, room_a.seq, room_a.state.history, room_b.state.history

    counts, moves, history_a, history_b = asyncio.run(run())
    assert sum(counts) == moves  # one decision per move, on whichever process held the lease
    assert history_a == history_b


def test_a_server_stops_within_seconds_whatever_redis_did(tmp_path: Path) -> None:
    """Its loops look round every fraction of a second, so a cancel the Redis client swallowed
    (it can, mid-read) never holds the exit: after a plain stop, after the link to Redis was
    closed first, and after Redis died."""
    from tavola.web.cluster import Cluster

    proc, url = start_redis(tmp_path)

    async def stop(how: str) -> float:
        server = _servers(tmp_path / "g.db")[0]
        server.cluster = Cluster(url, server.limits.lease_seconds)
        await server.cluster.start(server)
        server.start()
        server.create(PEOPLE)
        await asyncio.sleep(0.3)
        if how == "closed first":
            await server.cluster.close()
        elif how == "redis died":
            proc.kill()
            proc.wait(10)
            await asyncio.sleep(1)  # the subscription is lost; the loops retry
        began = time.monotonic()
        await asyncio.wait_for(server.shutdown(), 30)
        assert not server.tasks
        return time.monotonic() - began

    for how in ["plain"] * 3 + ["closed first"] * 3 + ["redis died"]:
        assert asyncio.run(stop(how)) < 5, how


async def _clustered(tmp_path: Path, redis_url: str) -> tuple[GameServer, GameServer]:
    from tavola.web.cluster import Cluster

    servers = _servers(tmp_path / "g.db")
    for server in servers:
        server.cluster = Cluster(redis_url, server.limits.lease_seconds)
        await server.cluster.start(server)
    return servers


async def _until(done: Any, what: str, seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.02)


def test_a_process_hears_no_moves_of_games_nobody_there_sees(
        tmp_path: Path, redis_url: str) -> None:
    """A game in memory that nobody connected here shows is not followed: its moves are not
    heard, let alone read; it is caught up when someone says hello (here: `catch_up`, as
    `hello` does)."""
    async def run() -> None:
        a, b = await _clustered(tmp_path, redis_url)
        room_a = a.create(PEOPLE)
        room_b = b.room(room_a.id)
        assert room_b is not None
        await asyncio.sleep(0.3)
        await a.act(room_a, 0, _plan(room_a, 0), 0)
        await asyncio.sleep(0.5)
        assert b.cluster is not None
        assert b.cluster.signals == 0 and b.cluster.catch_ups == 0 and room_b.seq == 0
        assert await b.catch_up(room_b) and room_b.seq == 1
        for server in (a, b):
            await server.shutdown()

    asyncio.run(run())


def test_a_process_showing_a_game_applies_the_moves_heard_without_reading_the_store(
        tmp_path: Path, redis_url: str) -> None:
    """Where someone sees the game, a move made on another process arrives with its signal
    and is applied as it comes, the store unread; an undo there (no move to apply) is read
    from the store, and the moves after it are applied again."""
    async def run() -> None:
        a, b = await _clustered(tmp_path, redis_url)
        room_a = a.create(PEOPLE)
        room_b = b.room(room_a.id)
        assert room_b is not None and b.cluster is not None
        bea = _Client(room_b, 1)
        b.conns[room_b.id].add(bea)  # type: ignore[arg-type]
        b.cluster.follow(room_b.id)  # as a connection arriving does
        await asyncio.sleep(0.5)  # subscribed, and the subscription's own catch-up is over
        loads = []
        real_load = b.store.load
        b.store.load = lambda game_id: loads.append(game_id) or real_load(game_id)  # type: ignore
        await a.act(room_a, 0, _plan(room_a, 0), 0)
        await a.act(room_a, 1, _plan(room_a, 1), 0)
        await _until(lambda: room_b.seq == 2, "the moves never came")
        assert loads == [] and room_b.state.history == room_a.state.history
        assert bea.sent[-1]["seq"] == 2  # its client was sent the new view
        mover = room_a.state.to_move()[0]
        await a.act(room_a, mover, _plan(room_a, mover), room_a.seq)
        await _until(lambda: room_b.seq == 3, "the third move never came")
        assert loads == [] and room_a.can_undo(mover)
        await a.undo(room_a, mover, room_a.seq)
        await _until(lambda: room_b.seq == 2, "the undo never came")
        assert loads  # an undo is read from the store
        assert room_b.state.history == room_a.state.history
        for server in (a, b):
            await server.shutdown()

    asyncio.run(run())



def test_a_game_only_one_process_follows_sends_no_signals_until_another_follows(
        tmp_path: Path, redis_url: str) -> None:
    """The process where a game's players are signals nothing while no other process follows
    it; a process that starts to follow it says hello, sees every later move at once, and
    its own moves reach the first; once it stops following, the first falls silent again."""
    async def run() -> None:
        a, b = await _clustered(tmp_path, redis_url)
        assert a.cluster is not None and b.cluster is not None
        room_a = a.create(PEOPLE)
        ann = _Client(room_a, 0)
        a.conns[room_a.id].add(ann)  # type: ignore[arg-type]
        a.cluster.follow(room_a.id)
        await _until(lambda: a.cluster.signals == 1, "its hello never came back to it")
        for _ in range(3):
            mover = room_a.state.to_move()[0]
            await a.act(room_a, mover, _plan(room_a, mover), room_a.seq)
        await asyncio.sleep(0.5)
        assert a.cluster.signals == 1  # nothing more: its moves were not sent
        room_b = b.room(room_a.id)
        assert room_b is not None
        bea = _Client(room_b, 1)
        b.conns[room_b.id].add(bea)  # type: ignore[arg-type]
        b.cluster.follow(room_b.id)
        for _ in range(2):  # moves while the hello is on its way
            mover = room_a.state.to_move()[0]
            await a.act(room_a, mover, _plan(room_a, mover), room_a.seq)
        await _until(lambda: room_b.seq == room_a.seq == 5, "the second never caught up")
        mover = room_a.state.to_move()[0]
        await a.act(room_a, mover, _plan(room_a, mover), room_a.seq)
        await _until(lambda: room_b.seq == 6 and bea.sent[-1]["seq"] == 6, "a move was missed")
        mover = room_b.state.to_move()[0]
        await b.act(room_b, mover, _plan(room_b, mover), room_b.seq)
        await _until(lambda: room_a.seq == 7 and ann.sent[-1]["seq"] == 7,
                     "the second's move never reached the first")
        assert room_a.state.history == room_b.state.history
        b.conns[room_b.id].discard(bea)  # type: ignore[arg-type]
        b.cluster.unfollow(room_b.id)
        await asyncio.sleep(0.5)
        heard = a.cluster.signals
        for _ in range(3):
            mover = room_a.state.to_move()[0]
            await a.act(room_a, mover, _plan(room_a, mover), room_a.seq)
            await asyncio.sleep(0.3)
        assert a.cluster.signals - heard <= 1  # the first signal finds nobody else, then none
        for server in (a, b):
            await server.shutdown()

    asyncio.run(run())


def test_the_benchmark_routes_a_game_to_one_process_or_its_seats_apart() -> None:
    from tavola.web.loadbench import _process_of

    ids = [f"game{n}" for n in range(40)]
    by_game = {i: {_process_of(i, seat, 2, "game") for seat in range(4)} for i in ids}
    assert all(len(chosen) == 1 for chosen in by_game.values())
    assert {p for chosen in by_game.values() for p in chosen} == {0, 1}  # both get games
    assert [_process_of("g", seat, 2, "seat") for seat in range(2)] == [0, 1]
    with pytest.raises(ValueError, match="route"):
        _process_of("g", 0, 2, "sticky")


# -- kill -9 in the middle of 20 games ---------------------------------------------------------


class _Seat:
    """A seat's client across its connections: the move in flight, and moves whose connection
    died before the answer (the store may hold them or not; neither is acknowledged)."""

    def __init__(self) -> None:
        self.sent: tuple[int, dict[str, Any]] | None = None
        self.unanswered: list[dict[str, Any]] = []
        self.taken: Any = None  # the ack of the move in flight, until an error takes it back


async def _play_on(ports: list[int], game: dict[str, Any], seat: dict[str, Any],
                   acks: list[tuple[str, int, list[dict[str, Any]]]],
                   rng: random.Random) -> None:
    """Play a seat to the end, reconnecting to the other process when the connection drops;
    every move the server acknowledged (a view shows it as the last move) is recorded."""
    reply = load_site("gonzaga").bench_reply
    token = seat["link"].split("#", 1)[1]
    at = (seat["seat"] + len(game["id"])) % len(ports)
    me = _Seat()
    while True:
        try:
            async with websockets.connect(f"ws://127.0.0.1:{ports[at]}/ws/{game['id']}",
                                          max_size=1 << 24, open_timeout=5) as ws:
                await ws.send(json.dumps({"type": "hello", "token": token}))
                if await _seat_loop(ws, game["id"], seat["seat"], me, acks, rng, reply):
                    return
        except (OSError, websockets.ConnectionClosed, TimeoutError):
            if me.sent is not None:
                me.unanswered.append(me.sent[1])
                me.sent = None
            at = (at + 1) % len(ports)
            await asyncio.sleep(0.2)


async def _seat_loop(ws: Any, game_id: str, seat: int, me: _Seat, acks: list[Any],
                     rng: random.Random, reply: Any) -> bool:
    seqs: list[int] = []
    while True:
        msg = orjson.loads(await ws.recv())
        if msg["type"] == "error":
            assert msg["code"] in ("stale", "not-your-turn"), msg
            if me.taken is not None:  # that view was another process's move caught up
                acks.remove(me.taken)
                me.unanswered = me.taken[2][1:]
            me.sent = me.taken = None
            await ws.send('{"type": "state"}')
            continue
        if msg["type"] != "state":
            continue
        assert not seqs or msg["seq"] >= seqs[-1], "a view older than one already shown"
        seqs.append(msg["seq"])
        if me.sent is not None and msg["seq"] > me.sent[0] and msg["last_player"] == seat:
            # this move, or one sent on a connection that died before its answer came
            me.taken = (game_id, msg["seq"] - 1, [me.sent[1], *me.unanswered])
            acks.append(me.taken)
            me.sent = None
            me.unanswered = []
        if msg["phase"] == "over":
            return True
        if msg["legal"] and me.sent is None:
            me.taken = None
            await asyncio.sleep(rng.uniform(0, 0.03))
            action = reply(msg, rng)
            me.sent = (msg["seq"], action)
            await ws.send(json.dumps({"type": "act", "seq": msg["seq"], "action": action}))


def test_kill_9_of_one_process_loses_no_acknowledged_move(
        tmp_path: Path, redis_url: str) -> None:
    with _processes(tmp_path, redis_url, lease_seconds=2) as procs:
        ports = [port for port, _ in procs]
        base = f"http://127.0.0.1:{ports[0]}"
        games = [http_json(f"{base}/api/games", PEOPLE if g % 4 else {
            "game": "gonzaga", "seats": [{"kind": "person"}, {"kind": "bot", "bot": "greedy"}]})
            for g in range(20)]
        acks: list[tuple[str, int, list[dict[str, Any]]]] = []

        async def run() -> None:
            players = [asyncio.create_task(_play_on(ports, game, seat, acks,
                                                    random.Random(g * 10 + seat["seat"])))
                       for g, game in enumerate(games) for seat in game["seats"]
                       if seat["link"]]
            while len(acks) < 150:
                await asyncio.sleep(0.05)
            os.kill(procs[0][1].pid, signal.SIGKILL)  # mid-game, mid-move for some
            killed_at = len(acks)
            await asyncio.wait_for(asyncio.gather(*players), 240)
            assert len(acks) > killed_at + 150  # the games went on after the kill

        asyncio.run(run())
        assert procs[0][1].wait(5) == -signal.SIGKILL
    db = tmp_path / "games.db"
    with contextlib.closing(sqlite3.connect(db)) as con:
        status = dict(con.execute("SELECT id, status FROM games"))
    assert all(status[game["id"]] == "over" for game in games), status
    logs = {game["id"]: _logged(db, game["id"]) for game in games}
    for game_id, seq, actions in acks:
        stored = logs[game_id][seq]
        assert any({k: stored.get(k) for k in action} == action for action in actions), \
            (game_id, seq, stored, actions)


# -- serve --workers N -------------------------------------------------------------------------


def test_serve_refuses_several_workers_without_redis() -> None:
    from typer.testing import CliRunner

    from tavola.cli import app

    result = CliRunner().invoke(app, ["serve", "--workers", "2"])
    assert result.exit_code == 2 and "--redis" in result.output


def test_workers_share_one_port_and_finish_a_game(tmp_path: Path, redis_url: str) -> None:
    port = free_port()
    proc = start_server(port, tmp_path / "games.db", redis=redis_url, workers=2)
    try:
        game = http_json(f"http://127.0.0.1:{port}/api/games", PEOPLE)
        url = f"ws://127.0.0.1:{port}/ws/{game['id']}"

        async def run() -> list[dict[str, Any]]:
            return await asyncio.gather(*[
                play_seat(url, s["link"].split("#", 1)[1], random.Random(s["seat"]), think=0.01)
                for s in game["seats"]])

        finals = asyncio.run(asyncio.wait_for(run(), 120))
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(20)
    assert all(f["phase"] == "over" for f in finals)
    assert finals[0]["seq"] == len(_logged(tmp_path / "games.db", game["id"]))


def test_signals_queued_together_leave_in_one_round_trip_in_order(
        tmp_path: Path, redis_url: str) -> None:
    """A busy process's signals (a move's, a chat line's) queued while the last were sent
    leave together in one pipeline, in the order they were queued, around a subscription."""
    import redis.asyncio as aioredis

    async def run() -> None:
        a, b = await _clustered(tmp_path, redis_url)
        assert a.cluster is not None and a.cluster._redis is not None
        listener = aioredis.from_url(redis_url).pubsub()
        await listener.subscribe(f"{PREFIX}:game:g1", f"{PREFIX}:game:g2")
        pipelines = []
        real = a.cluster._redis.pipeline
        a.cluster._redis.pipeline = lambda **kw: pipelines.append(kw) or real(**kw)  # type: ignore
        for n in range(3):
            a.cluster.relay("g1", {"type": "chat", "n": n})
        a.cluster.follow("g3")
        for n in range(3, 6):
            a.cluster.relay("g2" if n == 4 else "g1", {"type": "chat", "n": n})
        heard: list[int] = []
        deadline = time.monotonic() + 10
        while len(heard) < 6 and time.monotonic() < deadline:
            message = await listener.get_message(timeout=1)
            if message is not None and message["type"] == "message":
                heard.append(json.loads(message["data"])["relay"]["n"])
        assert heard == [0, 1, 2, 3, 4, 5]
        assert len(pipelines) == 2  # the three before the subscription, the three after
        await listener.aclose()
        for server in (a, b):
            await server.shutdown()

    asyncio.run(run())
