"""Hints at the web table: who may ask and when, what is sent to whom, what is counted and
kept; on the server alone (SQLite and PostgreSQL) and over a real WebSocket."""

from __future__ import annotations

import asyncio
import json
import threading
from types import SimpleNamespace
from typing import Any

import pytest
import websockets

from tavola import i18n
from tavola.games.gonzaga.game import GAME as GONZAGA
from tavola.hints import hint_settings
from tavola.testing import game_names
from tavola.web import botpool
from tavola.web.account_store import open_account_store
from tavola.web.accounts import Accounts
from tavola.web.app import GameServer, Limits
from tavola.web.errors import ClientError
from tavola.web.loadbench import http_json
from tavola.web.site import load_sites
from tavola.web.storage import open_store

PEOPLE = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bea"}]


class FakeConnection:
    def __init__(self, seat: int | None, lang: str = "en", address: str = "1.2.3.4") -> None:
        self.seat, self.lang, self.joined = seat, lang, True
        self.ws = SimpleNamespace(client=SimpleNamespace(host=address))
        self.sent: list[dict[str, Any]] = []

    def send(self, text: str) -> None:
        self.sent.append(json.loads(text))


def _server(db_url: str, game: str = "gonzaga", **params: Any) -> tuple[GameServer, Any]:
    server = GameServer(open_store(db_url), load_sites([game]), bot_processes=False,
                        limits=Limits())
    return server, server.create({"game": game, "seats": PEOPLE, **params})


async def _hint(server: GameServer, room: Any, conn: FakeConnection) -> dict[str, Any]:
    server.hinting.ask(conn, room, room.seq)
    while not conn.sent:
        await asyncio.sleep(0.02)
    return conn.sent[0]


@pytest.mark.parametrize("game", game_names("site"))
def test_a_hint_is_three_legal_moves_sent_to_the_asker_and_counted(db_url, game):
    server, room = _server(db_url, game)
    seat = room.state.to_move()[0]
    asker = FakeConnection(seat, lang="it")

    async def run() -> dict[str, Any]:
        server.conns[room.id] = {asker}
        return await _hint(server, room, asker)

    msg = asyncio.run(run())
    assert msg["type"] == "hint" and msg["seq"] == room.seq
    assert 1 <= len(msg["moves"]) <= 3
    legal = [room.game.action_to_json(a) for a in room.game.legal_actions(room.state, seat)]
    for move in msg["moves"]:
        assert move["action"] in legal
        assert move["words"] and isinstance(move["lead"], float) and 0 < move["share"] <= 1
    assert room.hints_used == {seat: 1}
    assert room.seats_json()[seat]["hints"] == 1  # everyone at the table sees it
    assert asker.sent[1]["type"] == "presence" and asker.sent[1]["seats"][seat]["hints"] == 1
    # kept with the game: a server that loads it again knows the count
    again = GameServer(open_store(db_url), load_sites([game]), bot_processes=False)
    assert again.room(room.id).hints_used == {seat: 1}
    counts = again.hinting.record_counts(again.room(room.id))
    assert counts == {seat: 1, 1 - seat: 0}


def test_who_may_not_ask_is_told_why_and_nothing_is_counted(db_url):
    server, room = _server(db_url)
    cases = [(FakeConnection(None), room.seq, "spectator"),
             (FakeConnection(0), "7", "bad-message"),
             (FakeConnection(0), room.seq + 5, "stale")]
    for conn, seq, code in cases:
        with pytest.raises(ClientError) as exc:
            server.hinting.ask(conn, room, seq)
        assert exc.value.code == code and exc.value.message
    listed_server, listed = _server(db_url, public=True)
    with pytest.raises(ClientError) as exc:
        listed_server.hinting.ask(FakeConnection(0), listed, listed.seq)
    assert exc.value.code == "hints-off" and not listed.params.hints
    assert room.hints_used == {} and listed.hints_used == {}


def test_a_listed_game_may_allow_hints_and_the_lobby_says_so(db_url):
    _, room = _server(db_url, public=True, hints=True)
    assert room.params.hints and room.summary()["hints"] is True
    with pytest.raises(ClientError) as exc:
        _server(db_url, hints="yes")
    assert exc.value.code == "bad-request"


def test_one_hint_at_a_time_and_none_on_another_s_turn(db_url):
    server, room = _server(db_url, "signorie")
    seat = room.state.to_move()[0]
    other = FakeConnection(1 - seat)
    with pytest.raises(ClientError) as exc:
        server.hinting.ask(other, room, room.seq)
    assert exc.value.code == "not-your-turn"

    async def run() -> None:
        asker = FakeConnection(seat)
        server.hinting.ask(asker, room, room.seq)
        with pytest.raises(ClientError) as busy:
            server.hinting.ask(asker, room, room.seq)
        assert busy.value.code == "hint-busy"
        while not asker.sent:
            await asyncio.sleep(0.02)

    asyncio.run(run())


def test_a_hint_over_the_wire_then_the_move_it_names(server):
    game = http_json(f"{server.base}/api/games", {"game": "gonzaga", "seats": [
        {"kind": "person"}, {"kind": "bot", "bot": "random"}]})
    token = game["seats"][0]["link"].split("#", 1)[1]

    async def run() -> tuple[dict[str, Any], dict[str, Any]]:
        async with websockets.connect(f"{server.ws}/ws/{game['id']}", max_size=1 << 24) as ws:
            await ws.send(json.dumps({"type": "hello", "token": token, "lang": "de"}))
            view = await _next(ws, "state")
            await ws.send(json.dumps({"type": "hint", "seq": view["seq"]}))
            hint = await _next(ws, "hint")
            await ws.send(json.dumps({"type": "act", "seq": view["seq"],
                                      "action": hint["moves"][0]["action"]}))
            after = await _next(ws, "state", lambda m: m["seq"] > view["seq"])
            return hint, after

    hint, after = asyncio.run(asyncio.wait_for(run(), 60))
    words = " ".join(m["words"] for m in hint["moves"])  # plans, in the page's language
    assert any(w in words for w in ("Städte", "Häfen", "Bündnis"))
    assert not any(w in words for w in ("Cities", "Harbors", "Alliance"))
    assert after["players"][0]["hints"] == 1


async def _next(ws: Any, kind: str, ok: Any = None) -> dict[str, Any]:
    while True:
        msg = json.loads(await ws.recv())
        assert msg["type"] != "error", msg
        if msg["type"] == kind and (ok is None or ok(msg)):
            return msg


# -- the server's capacity for hints ---------------------------------------------------------


def _hint_server(tmp_path: Any, clock: Any = None, **limits: Any) -> GameServer:
    settings = Limits()
    for name, value in limits.items():  # set, not passed: older Limits ignore them
        setattr(settings, name, value)
    return GameServer(open_store(f"sqlite:///{tmp_path / 'g.db'}"), load_sites(["gonzaga"]),
                      bot_processes=False, bot_delay=0, limits=settings,
                      **({"clock": clock} if clock else {}))


def _people(server: GameServer) -> Any:
    return server.create({"game": "gonzaga", "seats": PEOPLE})


async def _until(done: Any, seconds: float = 20.0) -> bool:
    for _ in range(int(seconds / 0.02)):
        if done():
            return True
        await asyncio.sleep(0.02)
    return done()


def test_hints_never_take_the_bots_workers_and_beyond_their_own_the_answer_is_busy(
        tmp_path, monkeypatch):
    """Five games of four asking for hints made another game's bot wait 4.3 s a move."""
    release = threading.Event()

    def held(*args: Any, **kwargs: Any) -> list[Any]:  # a hint that takes as long as we like
        release.wait(60)
        return []

    monkeypatch.setattr(botpool, "hint_json", held)
    # hints held far longer than a bot may wait at most here (a deadline frees a worker)
    server = _hint_server(tmp_path, hint_workers=1, decision_seconds=120.0)

    async def run() -> tuple[list[str], bool, list[dict[str, Any]]]:
        first, second = _people(server), _people(server)
        askers = [(first, FakeConnection(0)), (first, FakeConnection(1)),
                  (second, FakeConnection(0))]
        refused = []
        try:
            for room, conn in askers:
                try:
                    server.hinting.ask(conn, room, room.seq)
                except ClientError as exc:  # told at once: nothing waits in a queue
                    refused.append(exc.code)
            bots = server.create({"game": "gonzaga", "seats": [
                {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}]})
            moved = await _until(lambda: bots.seq > 0, 10.0)  # it takes milliseconds
        finally:
            release.set()
        await _until(lambda: askers[0][1].sent)
        return refused, moved, askers[0][1].sent

    refused, moved, answer = asyncio.run(run())
    assert moved, "another game's bot waited behind the hints"
    assert refused == ["busy", "busy"]
    assert answer[0]["type"] == "hint"


def test_a_busy_answer_is_a_translated_sentence_and_costs_no_hint(tmp_path, monkeypatch):
    monkeypatch.setattr(botpool, "hint_json", lambda *a, **k: [])
    server = _hint_server(tmp_path, hint_workers=1, hint_burst=1, hints_per_minute=0.01)

    async def run() -> tuple[ClientError, list[dict[str, Any]]]:
        room = _people(server)
        server.hinting.ask(FakeConnection(0), room, room.seq)
        for _ in range(3):
            with i18n.use("de"), pytest.raises(ClientError) as exc:
                server.hinting.ask(FakeConnection(1), room, room.seq)
        await _until(lambda: not server.hinting.asking)
        later = FakeConnection(1)
        server.hinting.ask(later, room, room.seq)  # the seat's one hint is still there
        await _until(lambda: later.sent)
        return exc.value, later.sent

    busy, answer = asyncio.run(run())
    assert busy.code == "busy" and "Tipps" in busy.message
    assert answer[0]["type"] == "hint"


def test_while_hints_are_turned_away_each_gets_less_of_the_search(tmp_path, monkeypatch):
    budgets: list[float] = []

    def quick(game: Any, view: Any, legal: Any, seed: int, lang: str,
              budget: float = 1.0) -> list[Any]:
        budgets.append(budget)
        return []

    monkeypatch.setattr(botpool, "hint_json", quick)
    now = [1000.0]
    server = _hint_server(tmp_path, clock=lambda: now[0], hint_workers=1,
                          hints_per_minute=0, address_hints_per_minute=0)

    async def ask(room: Any, seat: int, conn: Any = None) -> None:
        server.hinting.ask(conn or FakeConnection(seat), room, room.seq)
        await _until(lambda: not server.hinting.asking)

    async def run() -> None:
        room, other = _people(server), _people(server)
        await ask(room, 0)  # nobody else wants one: the whole search
        server.hinting.ask(FakeConnection(0), room, room.seq)
        for _ in range(3):
            with pytest.raises(ClientError):
                server.hinting.ask(FakeConnection(1), other, other.seq)
        await _until(lambda: not server.hinting.asking)
        await ask(room, 1)  # three turned away lately: a quarter
        now[0] += 60  # demand gone
        await ask(other, 0)

    asyncio.run(run())
    assert budgets == [1.0, 1.0, 0.25, 1.0]
    full, cut = hint_settings(GONZAGA), hint_settings(GONZAGA, 0.25)
    assert cut.budget(4) < full.budget(4) and cut.budget(2) < full.budget(2)
    assert full.time_limit and cut.time_limit == pytest.approx(full.time_limit / 4)


def test_hints_have_a_rate_per_address_and_per_account_or_seat(tmp_path, monkeypatch):
    monkeypatch.setattr(botpool, "hint_json", lambda *a, **k: [])
    now = [1000.0]
    server = _hint_server(tmp_path, clock=lambda: now[0], hints_per_minute=1.0, hint_burst=2,
                          address_hints_per_minute=1.0, address_hint_burst=5)
    accounts = Accounts(server, open_account_store(server.store))
    server.accounts = accounts
    ann = accounts.store.add_user("Ann", "ann", "not a hash")
    assert ann is not None

    async def ask(room: Any, seat: int, address: str = "1.2.3.4") -> str:
        try:
            server.hinting.ask(FakeConnection(seat, address=address), room, room.seq)
        except ClientError as exc:
            return exc.code
        await _until(lambda: not server.hinting.asking)
        return "ok"

    async def run() -> list[str]:
        a, b, c = _people(server), _people(server), _people(server)
        for room in (a, b):
            accounts.store.hold(room.id, 0, ann.id)  # Ann's seat in two games
        return [await ask(a, 0), await ask(b, 0), await ask(a, 0),  # Ann: two, then no
                await ask(a, 1), await ask(a, 1), await ask(a, 1),  # a guest's seat: two
                await ask(c, 0), await ask(c, 1),  # the address's fifth, then no
                await ask(c, 1, "5.6.7.8"),  # another address may
                (now.__setitem__(0, now[0] + 60), await ask(a, 0))[1]]  # a minute later

    assert asyncio.run(run()) == ["ok", "ok", "rate-limited", "ok", "ok", "rate-limited",
                                  "ok", "rate-limited", "ok", "ok"]


def test_a_hint_sent_with_its_move_replaces_no_worker(tmp_path):
    """The hint's position is read when it is asked: a move right after it (the same turn of
    the loop) makes it `stale`, never a job the worker fails on (which cost a worker)."""
    server = GameServer(open_store(f"sqlite:///{tmp_path / 'g.db'}"), load_sites(["gonzaga"]),
                        bot_processes=True, limits=Limits())

    async def run() -> dict[str, Any]:
        room = _people(server)
        asker = FakeConnection(0)
        try:
            server.hinting.ask(asker, room, room.seq)
            move = room.game.legal_actions(room.state, 0)[0]
            await server.act(room, 0, room.game.action_to_json(move), room.seq)
            assert 0 not in room.state.to_move()
            assert await _until(lambda: asker.sent, 120.0), "no answer to the hint"
        finally:
            await server.shutdown()
        return asker.sent[0]

    answer = asyncio.run(run())
    assert server.bots.replaced == 0
    assert server.advice.replaced == 0
    assert answer.get("code") == "stale", answer
