"""Hints at the web table: who may ask and when, what is sent to whom, what is counted and
kept; on the server alone (SQLite and PostgreSQL) and over a real WebSocket."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
import websockets

from tabletop.web.app import GameServer, Limits
from tabletop.web.errors import ClientError
from tabletop.web.loadbench import http_json
from tabletop.web.site import load_sites
from tabletop.web.storage import open_store

PEOPLE = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bea"}]


class FakeConnection:
    def __init__(self, seat: int | None, lang: str = "en") -> None:
        self.seat, self.lang, self.joined = seat, lang, True
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


@pytest.mark.parametrize("game", ["gonzaga", "signorie"])
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
