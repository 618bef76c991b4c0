"""Signorie on the web server, without a browser: whole games over real WebSockets, hostile
messages, what spectators see, and a server killed mid-game that resumes from its log."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_web_server import Client
from web_server import Server

from tavola.games.signorie import engine
from tavola.games.signorie.actions import ChooseAction, TakeDie
from tavola.games.signorie.game import GAME
from tavola.games.signorie.tables import tables
from tavola.games.signorie.web.site import make_site
from tavola.games.signorie.web.wire import preview_json, table_json, view_json
from tavola.web.loadbench import LOCAL_LIMITS, free_port, http_json
from tavola.web.room import GameParams
from tavola.web.storage import SqliteStore

SITE = make_site()
BODY = {"game": "signorie"}


def start(db: Path, port: int | None = None) -> Server:
    """A Signorie server as its own process, as in production."""
    port = port or free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "tavola.web", "--game", "signorie", "--port", str(port),
         "--db", f"sqlite:///{db.resolve()}", "--bot-delay", "0",
         *[f"--limit={k}={v}" for k, v in {**LOCAL_LIMITS, "messages_per_second": 0}.items()]],
        env={**os.environ, "PYTHONUNBUFFERED": "1"}, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(proc.stderr.read().decode()[-2000:] if proc.stderr else "exit")
        try:
            with urllib.request.urlopen(f"{base}/api/signorie/table", timeout=1):
                return Server(base, f"ws://127.0.0.1:{port}", db, proc)
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not answer within 30 s")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = start(tmp_path_factory.mktemp("signorie") / "games.db")
    yield srv
    srv.stop()


def create(server: Server, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return http_json(f"{server.base}/api/games", {**BODY, "seats": seats, **extra})


def token_of(game: dict[str, Any], seat: int) -> str:
    return game["seats"][seat]["link"].split("#", 1)[1]


def join(server: Server, game: dict[str, Any], seat: int | None) -> Client:
    c = Client(f"{server.ws}/ws/{game['id']}")
    c.send({"type": "hello", "token": None if seat is None else token_of(game, seat)})
    c.expect("welcome")
    c.expect("state")
    return c


def truth(server: Server, game_id: str) -> Any:
    """The whole state the server keeps, secrets included: its setup and moves replayed."""
    store = SqliteStore(server.db)
    try:
        stored = store.load(game_id)
    finally:
        store.close()
    assert stored is not None
    params = GameParams.from_json(stored.params, SITE)
    state = GAME.from_setup(params.setup)
    for data in stored.actions:
        GAME.apply_in_place(state, GAME.action_from_json(data))
    return state


def move(c: Client, rng: random.Random, *, check: bool = False) -> dict[str, Any]:
    """One legal choice of the last view, as the page makes it: optionally checked first;
    returns the view that follows it."""
    view = c.view
    assert view and view["legal"]
    action = rng.choice(view["legal"]["options"])["action"]
    if check:
        c.send({"type": "check", "action": action})
        reply = c.expect("check")
        assert reply["ok"] and reply["events"] is not None and reply["text"], reply
    seq = view["seq"]
    c.send({"type": "act", "action": action, "seq": seq})
    while True:
        msg = c.recv()
        assert msg["type"] != "error", msg
        if msg["type"] == "state" and msg["seq"] > seq:
            return msg


def play_to_end(c: Client, seat: int, rng: random.Random, limit: float = 120) -> dict[str, Any]:
    """Play `seat` with random legal choices until the game is over."""
    deadline = time.monotonic() + limit
    view = c.view
    assert view is not None
    while view["phase"] != "over":
        assert time.monotonic() < deadline, "the game did not end in time"
        if view["legal"] is not None:
            view = move(c, rng, check=rng.random() < 0.2)
        else:
            c.recv()
            view = c.view
    return view


def public_tiles(state: Any) -> set[int]:
    out = {x for rows in state.rows for row in rows for x in row}
    return out | {x for c in state.city_tiles for x in c if x >= 0}


def tile_ids(msg: Any) -> set[int]:
    """Every alliance tile a message names (tiles travel as {id, house, vp})."""
    found: set[int] = set()
    if isinstance(msg, dict):
        if {"id", "house", "vp"} <= msg.keys():
            found.add(msg["id"])
        for value in msg.values():
            found |= tile_ids(value)
    elif isinstance(msg, list):
        for value in msg:
            found |= tile_ids(value)
    return found


# -- the table's facts ------------------------------------------------------------------------


def test_the_table_is_sent_from_the_component_tables(server):
    table = http_json(f"{server.base}/api/signorie/table")
    t = tables()
    assert table == json.loads(json.dumps(table_json()))
    assert [c["cost"] for c in table["colours"]] == list(t.cost)
    assert [c["name"] for c in table["cities"]] == list(t.city_names)
    assert [s["vp"] for s in table["career"]] == list(t.career_vp)
    assert table["initiative"] == list(t.initiative_vp)
    assert table["colours"][0]["signoria"]["name"] == t.signoria_name[0]
    assert len({(x["letter"], x["shape"]) for x in table["looks"].values()}) == len(t.board_colours)


def test_a_game_of_signorie_is_created_by_name_and_refuses_gonzaga_options(server):
    game = create(server, [{"kind": "person"}, {"kind": "bot", "bot": "greedy"}])
    assert game["seats"][1]["kind"] == "bot" and game["seats"][0]["link"]
    for bad, code in (({"scenario": "Mantova"}, "bad-options"),
                      ({"seats": [{"kind": "person"}]}, "bad-seats"),
                      ({"seats": [{"kind": "bot", "bot": "mcts:iterations=99999"}] * 2},
                       "bad-bot")):
        body = {**BODY, "seats": [{"kind": "person"}, {"kind": "bot"}], **bad}
        with pytest.raises(urllib.error.HTTPError) as err:
            http_json(f"{server.base}/api/games", body)
        assert json.loads(err.value.read())["code"] == code


# -- whole games ------------------------------------------------------------------------------


def test_a_whole_game_against_a_bot_ends_with_the_final_scoring(server):
    game = create(server, [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}])
    c = join(server, game, 0)
    spectator = join(server, game, None)
    final = play_to_end(c, 0, random.Random(5))
    c.close()
    state = truth(server, game["id"])
    assert state.is_over and [p["vp"] for p in final["players"]] == list(state.vp)
    rows = final["final"]["rows"]
    assert [sum(r["points"][s] for r in rows) for s in range(2)] == list(state.vp)
    assert final["final"]["winners"] == list(GAME.winners(state))
    assert final["reward_step"] is not None and final["reward_step"]["round"] == 7

    # the spectator followed the whole game and was never offered a choice
    seen = []
    while True:
        msg = spectator.recv()
        if msg["type"] == "state":
            seen.append(msg)
            assert msg["legal"] is None and msg["you"] is None
            if msg["phase"] == "over":
                break
    spectator.close()
    assert len(seen) > 20

    with urllib.request.urlopen(f"{server.base}/api/games/{game['id']}/record") as r:
        assert "signorie-" in r.headers["Content-Disposition"]
        record = json.loads(r.read())
    assert list(GAME.verify_record(record).vp) == list(state.vp)
    last = http_json(f"{server.base}/api/games/{game['id']}/replay/100000")
    assert last["replay"]["total"] == len(state.history) and last["phase"] == "over"
    first = http_json(f"{server.base}/api/games/{game['id']}/replay/0")
    assert first["round"] == 1 and all(p["vp"] == 0 for p in first["players"])


def test_three_seats_two_people_and_a_bot_see_the_same_table(server):
    game = create(server, [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bo"},
                           {"kind": "bot", "bot": "random"}])
    a, b = join(server, game, 0), join(server, game, 1)
    rng = random.Random(8)
    deadline = time.monotonic() + 60
    while True:  # turns of each, until some twenty steps are played
        assert time.monotonic() < deadline
        for c in (a, b):
            view = c.fresh_state()
            if view["legal"] is not None:
                move(c, rng)
        va, vb = a.fresh_state(), b.fresh_state()
        if va["seq"] == vb["seq"] > 20 and va["mover"] != 2:
            break
        time.sleep(0.05)
    for key in ("dice", "cities", "players", "assignments", "rewards", "order"):
        assert va[key] == vb[key], key
    assert (va["legal"] is None) or (vb["legal"] is None)
    a.close()
    b.close()


# -- what nobody may see ----------------------------------------------------------------------


def test_no_message_names_a_face_down_tile_or_the_stack(server):
    game = create(server, [{"kind": "person"}, {"kind": "bot", "bot": "planner"}])
    c = join(server, game, 0)
    rng = random.Random(11)
    checked = 0
    for _ in range(300):  # a bot's move between the view and the read skips a check
        if checked >= 40:
            break
        view = c.fresh_state()
        state = truth(server, game["id"])
        if view["seq"] != len(state.history):
            continue
        hidden = set(state.deck) | set(state.removed) | {
            x for rows in state.down_tiles for row in rows for x in row}
        assert tile_ids(view) <= public_tiles(state)
        assert not tile_ids(view) & hidden
        assert view["deck"] == len(state.deck)
        checked += 1
        if view["legal"] is not None:
            move(c, rng)
        if state.is_over:
            break
    c.close()
    assert checked > 10


def test_a_preview_never_shows_a_roll_before_the_move():
    """Checking the Offspring action (or a pass that starts a round) shows no die of it."""
    rng = random.Random(2)
    s = GAME.new_game(["A", "B"], 4)
    seen = 0
    while not s.is_over and seen < 5:
        seat = s.to_move()[0]
        for a in GAME.legal_actions(s, seat):
            new = GAME.apply(s, a)
            if len(new.chance) > len(s.chance):
                p = preview_json(s, a, new)
                rolls = new.chance[len(s.chance):]
                assert "roll" in p["events"][-1] or "dice" in p["events"][-1]
                assert not any(str(r[-1]) in e for r in rolls for e in p["events"]
                               if "rolls" in e or "Dice:" in e)
                assert all("Dice:" not in e and "rolls the offspring" not in e
                           for e in p["events"])
                seen += 1
        s = GAME.apply(s, rng.choice(GAME.legal_actions(s, seat)))
    assert seen >= 1


def test_every_open_die_offers_an_action_and_every_closed_choice_says_why():
    rng = random.Random(6)
    s = GAME.new_game(["A", "B", "C"], 9)
    turns = 0
    while not s.is_over:
        seat = s.to_move()[0]
        v = GAME.view(s, seat)
        msg = view_json(v, game_id="g", seq=len(s.history), seats=[{}] * 3)
        legal = msg["legal"]
        assert len(legal["options"]) == len(GAME.legal_actions(s, seat))
        if legal["kind"] == "turn":
            turns += 1
            for die in legal["dice"]:
                a = TakeDie(seat, die["colour"], die["value"])
                assert die["ok"] == (a in s.legal)
                if not die["ok"]:
                    assert die["why"]
                    continue
                after = GAME.apply(s, a)
                open_ = {json.dumps(GAME.action_to_json(x), sort_keys=True)
                         for x in GAME.legal_actions(after, seat)}
                offered = set()
                for ch in die["choices"]:
                    items = ch.get("counts", [ch])
                    for item in items:
                        key = json.dumps(item["action"], sort_keys=True)
                        assert item["ok"] == (key in open_), (ch, item)
                        assert item["ok"] or item["why"], item
                        if item["ok"]:
                            offered.add(key)
                assert offered == open_
        s = GAME.apply(s, rng.choice(GAME.legal_actions(s, seat)))
    assert turns > 20


# -- hostile clients --------------------------------------------------------------------------


def test_hostile_messages_are_named_and_change_nothing(server):
    game = create(server, [{"kind": "person"}, {"kind": "person"}])
    c = join(server, game, 0)
    other = join(server, game, 1)
    spectator = join(server, game, None)
    view = c.fresh_state()
    mover = view["mover"]
    me, them = (c, other) if mover == 0 else (other, c)
    view = me.fresh_state()
    seq = view["seq"]
    bad = [
        ({"type": "act", "action": {"type": "plan"}, "seq": seq}, "bad-action"),
        # colours are the game's component data's: the rules refuse one it lacks
        ({"type": "act", "action": {"type": "take_die", "colour": "gold", "value": 3},
          "seq": seq}, "illegal"),
        ({"type": "act", "action": {"type": "take_die", "colour": "red", "value": 9},
          "seq": seq}, "bad-action"),
        ({"type": "act", "action": {"type": "pass", "seat": 1 - mover}, "seq": seq},
         "not-your-seat"),
        ({"type": "act", "action": {"type": "choose", "kind": "signoria"}, "seq": seq},
         "illegal"),
        ({"type": "act", "action": {"type": "pass"}, "seq": seq - 1}, "stale"),
        ({"type": "act", "action": {"type": "pass"}, "seq": "last"}, "bad-message"),
        ({"type": "act", "action": [1, 2], "seq": seq}, "bad-action"),
        ({"type": "fly"}, "unknown-type"),
        ({"type": "undo", "seq": seq}, "no-undo"),
    ]
    for msg, code in bad:
        reply = me.error(msg)
        assert reply["code"] == code, (msg, reply)
    assert them.error({"type": "act", "action": {"type": "pass"}, "seq": seq})["code"] == \
        "not-your-turn"
    assert spectator.error({"type": "act", "action": {"type": "pass"}, "seq": seq})["code"] == \
        "spectator"
    me.ws.send(b"\x00\x01")
    assert me.expect("error")["code"] == "bad-message"
    me.ws.send("{not json")
    assert me.expect("error")["code"] in ("bad-json", "bad-message")
    # a closed die is refused with the rule's words
    closed = [d for d in view["legal"]["dice"] if not d["ok"]]
    if closed:
        reply = me.error({"type": "act", "action": closed[0]["action"], "seq": seq})
        assert reply["code"] == "illegal" and reply["message"] == closed[0]["why"]
    assert me.fresh_state()["seq"] == seq
    # undo: a step of one's own turn may be taken back while nobody has moved since
    die = next(d for d in view["legal"]["dice"] if d["ok"])
    me.send({"type": "act", "action": die["action"], "seq": seq})
    taken = me.expect("state")
    assert taken["legal"]["kind"] == "choose" and taken["can_undo"]
    me.send({"type": "undo", "seq": taken["seq"]})
    again = me.expect("state")
    assert again["seq"] == seq and again["legal"]["kind"] == "turn"
    for x in (c, other, spectator):
        x.close()


# -- a restart --------------------------------------------------------------------------------


def test_a_server_killed_mid_game_resumes_it_exactly(tmp_path):
    srv = start(tmp_path / "games.db")
    try:
        game = create(srv, [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}])
        c = join(srv, game, 0)
        rng = random.Random(3)
        while c.fresh_state()["round"] < 2:
            view = c.view
            if view["legal"] is not None:
                move(c, rng)
            else:
                c.recv()
        before = c.fresh_state()
        c.close()
        time.sleep(0.3)
        before = truth(srv, game["id"])
        os.kill(srv.proc.pid, signal.SIGKILL)
        srv.proc.wait(10)
        srv = start(tmp_path / "games.db")
        c = join(srv, game, 0)
        after = c.fresh_state()
        assert after["seq"] >= len(before.history)
        state = truth(srv, game["id"])
        assert state.history[:len(before.history)] == before.history
        assert [p["vp"] for p in after["players"]] == list(state.vp)
        assert after["dice"] == [{"colour": col, "values": state.dice[i],
                                  "placed": [[p, state.taken[p][i]] for p in range(2)
                                             if state.taken[p][i]]}
                                 for i, col in enumerate(state.t.colours)]
        final = play_to_end(c, 0, rng)
        assert final["final"] is not None
        c.close()
    finally:
        srv.stop(kill=True)


def test_engine_moves_of_a_whole_game_are_what_the_views_offered():
    """The options a seat is sent are exactly the engine's legal actions, in a game where
    every kind of choice comes up (the log names each kind of step)."""
    rng = random.Random(1)
    s = GAME.new_game(["A", "B", "C", "D"], 21)
    kinds = set()
    while not s.is_over:
        seat = s.to_move()[0]
        msg = view_json(GAME.view(s, seat), game_id="g", seq=0, seats=[{}] * 4)
        kinds.add(msg["legal"]["kind"])
        offered = [GAME.action_from_json(o["action"]) for o in msg["legal"]["options"]]
        assert offered == list(engine.legal_actions(s, seat))
        assert all(o["text"] for o in msg["legal"]["options"])
        pick = rng.choice(offered)
        if isinstance(pick, ChooseAction) or rng.random() < 0.5:
            pick = rng.choice(offered)
        s = GAME.apply(s, pick)
    assert {"turn", "choose", "reward"} <= kinds
