"""The web server over real WebSockets: whole games, hidden information, hostile clients,
restarts. The server runs as its own process (uvicorn), exactly as `tavola serve` runs it."""

from __future__ import annotations

import asyncio
import json
import random
import urllib.error
import urllib.request
from typing import Any

import pytest
import websockets
from web_leaks import contained, find_leaks
from websockets.sync.client import connect

from tavola.games.gonzaga.board import load_board
from tavola.games.gonzaga.game import setup_from_json
from tavola.games.gonzaga.record import verify_record
from tavola.games.gonzaga.state import Setup
from tavola.games.gonzaga.web.site import make_site
from tavola.games.gonzaga.web.wire import choose, placement_list
from tavola.web.changes import applied
from tavola.web.loadbench import http_json, play_seat
from tavola.web.room import GameParams
from tavola.web.storage import SqliteStore

SITE = make_site()


def create(server: Any, seats: list[dict[str, Any]], seed: int | None = None, **extra: Any
           ) -> dict[str, Any]:
    """A game; a seed only where the server allows one (at most one person)."""
    body = {"seats": seats, **extra}
    if seed is not None:
        body["seed"] = seed
    return http_json(f"{server.base}/api/games", body)


def deal_of(server: Any, game_id: str) -> Setup:
    """The deal the server keeps to itself, read from its database."""
    store = SqliteStore(server.db)
    try:
        stored = store.load(game_id)
    finally:
        store.close()
    assert stored is not None
    params = GameParams.from_json(stored.params, SITE)
    assert params.setup is not None
    return setup_from_json(params.setup["setup"])


def token_of(game: dict[str, Any], seat: int) -> str:
    return game["seats"][seat]["link"].split("#", 1)[1]


async def watch(url: str, messages: list[dict[str, Any]]) -> None:
    """A spectator: no token, reads every message until the game is over."""
    async with websockets.connect(url, max_size=1 << 24) as ws:
        await ws.send(json.dumps({"type": "hello"}))
        while True:
            msg = json.loads(await ws.recv())
            messages.append(msg)
            if msg.get("type") == "state" and msg["phase"] == "over":
                return


def test_four_player_game_of_bots_and_people_leaks_nothing(server):
    seats = [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "greedy"},
             {"kind": "person", "name": "Cy"}, {"kind": "bot", "bot": "random"}]
    game = create(server, seats)
    url = f"{server.ws}/ws/{game['id']}"
    inbox: dict[int | None, list[dict[str, Any]]] = {0: [], 2: [], None: []}

    async def main() -> list[dict[str, Any]]:
        return await asyncio.gather(
            play_seat(url, token_of(game, 0), random.Random(1), messages=inbox[0]),
            play_seat(url, token_of(game, 2), random.Random(2), messages=inbox[2]),
            watch(url, inbox[None]))

    finals = asyncio.run(asyncio.wait_for(main(), 60))
    final = finals[0]
    assert final["phase"] == "over" and final["winners"]
    assert [p["score"] for p in finals[1]["players"]] == [p["score"] for p in final["players"]]
    assert len(final["final"]["table"]) == 4

    # the truth the server must keep from each client: the deal it keeps in its database
    truth = deal_of(server, game["id"])
    states = 0
    for seat, messages in inbox.items():
        for msg in messages:
            assert find_leaks(msg, seat, truth) == [], (seat, msg.get("seq"))
            states += msg.get("type") == "state"
    assert states > 50  # every move of the whole game reached every client

    # the finished game: its record replays through the engine with the same scores
    with urllib.request.urlopen(f"{server.base}/api/games/{game['id']}/record") as r:
        record = json.loads(r.read())
    state = verify_record(record)
    assert [p.score for p in state.players] == [p["score"] for p in final["players"]]
    last = http_json(f"{server.base}/api/games/{game['id']}/replay/100000")
    assert last["replay"]["step"] == last["replay"]["total"] == len(state.history)
    assert last["phase"] == "over" and last["winners"] == final["winners"]
    first = http_json(f"{server.base}/api/games/{game['id']}/replay/0")
    assert first["round"] == 1 and first["pieces"] == []


async def watch_changes(url: str, wire: list[dict[str, Any]]) -> None:
    """A spectator asking for changes: reads every message until the game is over."""
    view: dict[str, Any] | None = None
    async with websockets.connect(url, max_size=1 << 24) as ws:
        await ws.send(json.dumps({"type": "hello", "changes": True}))
        while view is None or view["phase"] != "over":
            msg = json.loads(await ws.recv())
            wire.append(msg)
            if msg["type"] == "state":
                view = msg
            elif msg["type"] == "change":
                assert view is not None
                view = applied(view, msg)


def test_changes_to_a_seat_hold_nothing_of_another_seats_secrets(server):
    """Each change sent to a seat (or to the spectators) is made from that seat's own views:
    every value it carries is in the view it makes, and that view leaks nothing (as above)."""
    seats = [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "greedy"},
             {"kind": "person", "name": "Cy"}, {"kind": "bot", "bot": "random"}]
    game = create(server, seats)
    url = f"{server.ws}/ws/{game['id']}"
    wires: dict[int | None, list[dict[str, Any]]] = {0: [], 2: [], None: []}

    async def main() -> None:
        await asyncio.gather(
            play_seat(url, token_of(game, 0), random.Random(1), wire=wires[0]),
            play_seat(url, token_of(game, 2), random.Random(2), wire=wires[2]),
            watch_changes(url, wires[None]))

    asyncio.run(asyncio.wait_for(main(), 60))
    truth = deal_of(server, game["id"])
    for seat, wire in wires.items():
        views = [msg for msg in wire if msg["type"] == "state"]
        assert len(views) == 1  # the first view, whole; then only changes
        view, changes = views[0], 0
        for msg in wire:
            if msg["type"] != "change":
                continue
            assert msg["n"] == view["n"] + 1
            view = {**applied(view, msg), "n": msg["n"]}
            assert contained(msg, view) == [], (seat, msg["n"])
            assert find_leaks(view, seat, truth) == [], (seat, msg["n"])
            changes += 1
        assert changes > 50 and view["phase"] == "over"


def test_a_client_that_misses_a_change_asks_for_the_full_view_and_gets_it(server):
    """Views are numbered per connection; a client that misses one asks for the view
    (`state`) and gets it whole, numbered, and the changes after it apply to it."""
    game = create(server, [{"kind": "person"}, {"kind": "bot", "bot": "random"}], seed=5)
    with connect(f"{server.ws}/ws/{game['id']}") as ws:
        ws.send(json.dumps({"type": "hello", "token": token_of(game, 0), "changes": True}))
        assert json.loads(ws.recv())["type"] == "welcome"
        view = json.loads(ws.recv())
        assert view["type"] == "state" and view["n"] == 1
        rng = random.Random(5)

        def next_view() -> dict[str, Any]:
            while True:
                msg = json.loads(ws.recv(timeout=30))
                if msg["type"] in ("state", "change"):
                    return msg

        missed = None
        while missed is None:  # moves until a change comes: the client misses it
            if view["legal"]:
                ws.send(json.dumps({"type": "act", "seq": view["seq"],
                                    "action": SITE.bench_reply(view, rng)}))
            msg = next_view()
            assert msg["type"] == "change" and msg["n"] == view["n"] + 1
            if view["legal"]:
                missed = msg
            else:
                view = {**applied(view, msg), "n": msg["n"]}
        ws.send(json.dumps({"type": "state"}))
        full = next_view()
        while full["type"] == "change":  # changes sent before the request are not used
            full = next_view()
        assert full["type"] == "state" and full["n"] > missed["n"]
        assert set(full) == set(view) and full["seq"] > view["seq"]  # whole, with the move
        assert full["log"][:len(view["log"])] == view["log"]
        # the game goes on in changes from the full view
        if full["legal"]:
            ws.send(json.dumps({"type": "act", "seq": full["seq"],
                                "action": SITE.bench_reply(full, rng)}))
            after = next_view()
            assert after["type"] == "change" and after["n"] == full["n"] + 1
            assert applied(full, after)["seq"] > full["seq"]


def test_the_leak_scanner_catches_leaks(server):
    """The scanner above must be able to fail: feed it real messages with secrets put in."""
    game = create(server, [{"kind": "person"}, {"kind": "person"}, {"kind": "bot"}])
    with connect(f"{server.ws}/ws/{game['id']}") as ws:
        ws.send(json.dumps({"type": "hello", "token": token_of(game, 0)}))
        assert json.loads(ws.recv())["type"] == "welcome"
        msg = json.loads(ws.recv())
    truth = deal_of(server, game["id"])
    assert find_leaks(msg, 0, truth) == []

    leaked = json.loads(json.dumps(msg))
    leaked["players"][1]["objective"] = truth.objectives[1]
    assert find_leaks(leaked, 0, truth)
    leaked = json.loads(json.dumps(msg))
    leaked["players"][1]["upcoming"] = list(truth.decks[1][1:5])
    assert find_leaks(leaked, 0, truth)
    leaked = json.loads(json.dumps(msg))
    leaked["players"][1]["plan"] = {"region": "francia", "action": "cities", "privilege": False}
    assert find_leaks(leaked, 0, truth)
    leaked = json.loads(json.dumps(msg))
    leaked["log"].append({"kind": "note", "text": f"objective {truth.objectives[2]}"})
    assert find_leaks(leaked, 0, truth)


class Client:
    """A synchronous test client that remembers the last view it got."""

    def __init__(self, url: str) -> None:
        self._cm = connect(url, max_size=1 << 24)
        self.ws = self._cm.__enter__()
        self.view: dict[str, Any] | None = None

    def send(self, msg: Any) -> None:
        """Send a message; a move without "seq" is made on the last view received."""
        if isinstance(msg, dict) and msg.get("type") in ("act", "undo") and "seq" not in msg:
            msg = {**msg, "seq": (self.view or {}).get("seq", 0)}
        self.ws.send(msg if isinstance(msg, str | bytes) else json.dumps(msg))

    def recv(self) -> dict[str, Any]:
        # wide: a loaded machine may take seconds to start a restarted server's bot workers
        msg = json.loads(self.ws.recv(timeout=60))
        if msg.get("type") == "state":
            self.view = msg
        return msg

    def expect(self, kind: str) -> dict[str, Any]:
        while True:
            msg = self.recv()
            if msg["type"] == kind:
                return msg
            assert msg["type"] in ("state", "welcome", "pong", "presence"), msg

    def error(self, msg: Any) -> dict[str, Any]:
        self.send(msg)
        reply = self.expect("error")
        assert reply["message"], reply
        return reply

    def fresh_state(self) -> dict[str, Any]:
        self.send({"type": "state"})
        return self.expect("state")

    def close(self) -> None:
        self._cm.__exit__(None, None, None)


def test_hostile_and_malformed_messages_change_nothing(server):
    game = create(server, [{"kind": "person"}, {"kind": "person"}])
    url = f"{server.ws}/ws/{game['id']}"
    c = Client(url)
    assert c.error({"type": "act", "action": {"type": "donate"}})["code"] == "hello-first"
    assert c.error({"type": "hello", "token": "not-a-token"})["code"] == "bad-token"
    assert c.error({"type": "hello", "token": 12})["code"] == "bad-token"
    assert c.error({"type": "hello", "token": token_of(game, 1)[:-1]})["code"] == "bad-token"
    c.send({"type": "hello", "token": token_of(game, 0)})
    assert c.expect("welcome")["seat"] == 0
    before = c.expect("state")
    assert before["you"] == 0 and before["seq"] == 0

    assert c.error("this is not json")["code"] == "bad-json"
    assert c.error("[1, 2]")["code"] == "bad-message"
    assert c.error({"type": 7})["code"] == "bad-message"
    assert c.error({"type": "teleport"})["code"] == "unknown-type"
    assert c.error("x" * 20_000)["code"] == "too-large"
    assert c.error("[" * 60_000)["code"] == "too-large"
    assert c.error(b'{"type": "ping"}')["code"] == "bad-message"  # a binary frame
    assert c.error('{"type": "act", "action": ' + "[" * 5000 + "]" * 5000 + "}")["code"] \
        == "bad-json"  # nested too deep for the parser: still just an error
    assert c.error({"type": "act"})["code"] == "bad-action"
    assert c.error({"type": "act", "action": {"type": "fief", "anchor": "x"}})["code"] \
        == "bad-action"
    assert c.error({"type": "act", "action": {"type": "plan", "player": 1, "region": "francia",
                                              "action": "cities"}})["code"] == "not-your-seat"
    region = before["legal"]["regions"][0]
    bad = c.error({"type": "act", "action": {"type": "plan", "region": "atlantis",
                                             "action": "cities"}})
    assert bad["code"] == "illegal" and bad["rule"] == "region-card"
    bad = c.error({"type": "act", "action": {"type": "plan", "region": region,
                                             "action": "privilege"}})
    assert bad["rule"] == "action-card"
    bad = c.error({"type": "act", "action": {"type": "fief", "fief": 10, "anchor": [3, 3],
                                             "rotation": 0}})
    assert bad["code"] == "not-your-turn" or bad.get("rule") == "phase"
    assert c.fresh_state()["seq"] == 0  # nothing changed, the connection is still open

    # a plan, then planning again out of turn
    c.send({"type": "act", "action": {"type": "plan", "region": region, "action": "harbors"}})
    while c.recv().get("seq") != 1:
        pass
    assert c.error({"type": "act", "action": {"type": "plan", "region": region,
                                              "action": "cities"}})["code"] == "not-your-turn"

    # the other seat plans; now placing, and an illegal placement names its rule
    other = Client(url)
    other.send({"type": "hello", "token": token_of(game, 1)})
    view1 = other.expect("state")
    other.send({"type": "act", "action": choose(view1, random.Random(0))})
    while (c.view or {}).get("seq") != 2:
        c.recv()
    placing = c.view
    assert placing["phase"] == "placing"
    seat = placing["current"]
    mover, idle = (c, other) if seat == 0 else (other, c)
    assert idle.error({"type": "act", "action": {"type": "donate"}})["code"] == "not-your-turn"
    mine = mover.fresh_state()
    fief = mine["legal"]["fief"]
    off = mover.error({"type": "act", "action": {"type": "fief", "fief": fief,
                                                 "anchor": [0, 0], "rotation": 3}})
    assert off["code"] == "illegal" and off["rule"].startswith("placing")
    wrong = mover.error({"type": "act", "action": {"type": "fief", "fief": fief + 10 if fief
                                                   < 120 else 10, "anchor": [5, 5],
                                                   "rotation": 0}})
    assert wrong["rule"] == "take-your-fief"
    # a "check" answers without acting: legal with points, or the rule broken
    listed = placement_list(mine["legal"]["placements"], load_board())
    c_anchor = listed[0] if listed else None
    mover.send({"type": "check", "action": {"type": "fief", "fief": fief, "anchor": [0, 0],
                                            "rotation": 3}})
    checked = mover.expect("check")
    assert checked["ok"] is False and checked["rule"].startswith("placing")
    if c_anchor:
        col, row, rot, pts = c_anchor
        mover.send({"type": "check", "action": {"type": "fief", "fief": fief,
                                                "anchor": [col, row], "rotation": rot}})
        checked = mover.expect("check")
        assert checked["ok"] is True and checked["points"] == pts
    assert mover.fresh_state()["seq"] == 2

    # a spectator cannot act, and the game goes on after all this
    spectator = Client(url)
    spectator.send({"type": "hello"})
    assert spectator.expect("welcome")["seat"] is None
    assert spectator.expect("state")["legal"] is None
    assert spectator.error({"type": "act", "action": {"type": "donate"}})["code"] \
        == "spectator"
    mover.send({"type": "act", "action": {"type": "donate"}})
    while mover.recv().get("seq") != 3:
        pass
    assert mover.view["players"][seat]["score"] == 3
    for client in (c, other, spectator):
        client.close()


def test_http_errors_are_clear(server):
    def post(path: str, body: bytes) -> tuple[int, dict[str, Any]]:
        req = urllib.request.Request(f"{server.base}{path}", data=body, method="POST",
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())

    assert post("/api/games", b"{nope")[0] == 400
    assert post("/api/games", b"[" * 10_000)[0] == 400  # nested too deep: still just an error
    assert post("/api/games", b"[" * 100_000)[0] == 413  # over the body limit
    status, body = post("/api/games", json.dumps({"seats": [{"kind": "person"}]}).encode())
    assert status == 400 and body["code"] == "bad-seats"
    status, body = post("/api/games", json.dumps({"seats": [{"kind": "bot", "bot": "oracle"},
                                                            {"kind": "person"}]}).encode())
    assert status == 400 and "oracle" in body["message"]
    status, body = post("/api/games", json.dumps({"seats": [{"kind": "person"}] * 2,
                                                  "scenario": "Narnia"}).encode())
    assert status == 400 and "Narnia" in body["message"]
    private = create(server, [{"kind": "person"}, {"kind": "person"}])
    assert post(f"/api/games/{private['id']}/join", b"{}")[0] == 409  # by invitation only
    game = create(server, [{"kind": "person"}, {"kind": "person"}], public=True)
    with pytest.raises(urllib.error.HTTPError) as exc:
        urllib.request.urlopen(f"{server.base}/api/games/{game['id']}/record")
    assert exc.value.code == 409  # no record (it holds the deal) before the game is over
    # the lobby lists the game; joining hands out each open seat once
    listed = http_json(f"{server.base}/api/games")
    assert any(g["id"] == game["id"] for g in listed["open"])
    assert not any(g["id"] == private["id"] for g in listed["open"])
    assert "link" not in json.dumps(listed) and token_of(game, 0) not in json.dumps(listed)
    assert game["you"] == 0  # the creator's seat is theirs from creation, never handed out
    assert post(f"/api/games/{game['id']}/join", b"{}")[1]["seat"] == 1
    assert post(f"/api/games/{game['id']}/join", b"{}")[0] == 409
    with _Closing(f"{server.ws}/ws/nosuchgame") as c:
        assert c.expect("error")["code"] == "not-found"


class _Closing(Client):
    def __enter__(self) -> _Closing:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def test_a_dropped_connection_rejoins_its_seat(server):
    game = create(server, [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bo"}])
    url = f"{server.ws}/ws/{game['id']}"
    c = Client(url)
    c.send({"type": "hello", "token": token_of(game, 0)})
    view = c.expect("state")
    c.send({"type": "act", "action": choose(view, random.Random(3))})
    while c.recv().get("seq") != 1:
        pass
    mine = c.view["players"][0]["plan"]
    c.close()  # the connection drops; the seat shows as away to the others

    other = Client(url)
    other.send({"type": "hello", "token": token_of(game, 1)})
    seen = other.expect("state")
    assert seen["players"][0]["connected"] is False and seen["players"][0]["plan"] is None
    assert seen["players"][0]["has_planned"] is True

    again = Client(url)  # a reload: the same link, the same seat and the secret plan
    again.send({"type": "hello", "token": token_of(game, 0)})
    assert again.expect("welcome")["seat"] == 0
    back = again.expect("state")
    assert back["seq"] == 1 and back["players"][0]["plan"] == mine
    assert back["legal"] is None  # planned already: nothing to do but wait
    # the others hear that a player came back, without a whole new view
    while (msg := other.recv())["type"] != "presence" or not msg["seats"][0]["connected"]:
        assert msg["type"] != "state", "a hello sends the others presence, not a view"
    again.close()
    other.close()
