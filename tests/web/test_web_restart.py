"""A server killed in the middle of a game resumes it exactly from its log, on SQLite and on
PostgreSQL."""

from __future__ import annotations

import json
import random
import sqlite3
import time
from pathlib import Path
from typing import Any

from test_web_server import Client, create, token_of
from web_server import launch

from tavola.games.gonzaga.record import verify_record
from tavola.games.gonzaga.web.wire import choose
from tavola.web.loadbench import http_json
from tavola.web.storage import open_store


def comparable(view: dict[str, Any]) -> dict[str, Any]:
    """A view without who is online (which a restart changes by design) and the game id."""
    out = json.loads(json.dumps(view))
    for p in out["players"]:
        p.pop("connected", None)
    out.pop("game")
    return out


SEATS = [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "greedy"},
         {"kind": "bot", "bot": "random"}]


def children(pid: int) -> set[int]:
    """Processes whose parent is `pid` (Linux /proc; empty elsewhere)."""
    out = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.add(int(stat.parent.name))
    return out


def play_until(c: Client, seat: int, stop: Any) -> dict[str, Any]:
    """Play seat `seat` with the client-side bot logic until `stop(view)` holds; each move is
    a function of the round and turn, so a game can be played again identically."""
    view = c.fresh_state()
    while not stop(view):
        if view["legal"]:
            fresh = c.fresh_state()
            if fresh["seq"] != view["seq"]:
                # the bots moved meanwhile: decide on the newest view, never wait for a
                # broadcast that already came (it may have been the last before our turn)
                view = fresh
                continue
            rng = random.Random(view["round"] * 10 + view["turn"])
            c.send({"type": "act", "action": choose(view, rng)})
            while True:
                msg = c.recv()
                if msg["type"] == "state" and msg["last_player"] == seat:
                    break
                assert msg["type"] != "error", msg
        else:
            c.recv()
        view = c.view
        assert view is not None
    return view


def test_kill_and_restart_resumes_every_game_exactly(db_url):
    db = db_url
    srv = launch(db)
    try:
        game = create(srv, SEATS, seed=31, public=True)
        c = Client(f"{srv.ws}/ws/{game['id']}")
        c.send({"type": "hello", "token": token_of(game, 0)})
        c.expect("state")
        # stop in the middle of round 3, while it is Ann's turn to place
        view = play_until(c, 0, lambda v: v["round"] == 3 and v["phase"] == "placing"
                          and v["legal"] is not None)
        before = comparable(c.fresh_state())
        c.close()
        workers = children(srv.proc.pid)
        assert workers or not Path("/proc").exists()  # the bots' worker processes
    finally:
        srv.stop(kill=True)  # SIGKILL: no shutdown code runs
    # the bots' worker processes do not outlive the server
    deadline = time.monotonic() + 5
    while any(Path(f"/proc/{pid}").exists() for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(Path(f"/proc/{pid}").exists() for pid in workers)
    assert before["seq"] == view["seq"] > 6
    if db.startswith("sqlite:///"):
        with sqlite3.connect(db.removeprefix("sqlite:///")) as con:
            assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    store = open_store(db)
    stored = store.load(game["id"])
    store.close()
    assert stored is not None
    assert len(stored.actions) == before["seq"]  # every action broadcast was stored first

    srv = launch(db)
    try:
        c = Client(f"{srv.ws}/ws/{game['id']}")
        c.send({"type": "hello", "token": token_of(game, 0)})
        assert c.expect("welcome")["seat"] == 0
        after = comparable(c.expect("state"))
        assert after == before
        # the game, and its bots, go on to the end
        final = play_until(c, 0, lambda v: v["phase"] == "over")
        c.close()
        assert final["winners"]
        listed = http_json(f"{srv.base}/api/games")
        assert any(g["id"] == game["id"] for g in listed["finished"])
        record = http_json(f"{srv.base}/api/games/{game['id']}/record")
        state = verify_record(record)
        assert [p.score for p in state.players] == [p["score"] for p in final["players"]]

        # the same game played again without a restart ends exactly alike, bots included
        twin = create(srv, SEATS, seed=31, public=True)
        c = Client(f"{srv.ws}/ws/{twin['id']}")
        c.send({"type": "hello", "token": token_of(twin, 0)})
        c.expect("state")
        again = play_until(c, 0, lambda v: v["phase"] == "over")
        c.close()
        assert comparable(again) == comparable(final)
    finally:
        srv.stop()
