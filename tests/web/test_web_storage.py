"""The game store and the room logic, without a network."""

from __future__ import annotations

import json
import threading
import time

import pytest

from tavola.games.gonzaga.actions import action_to_json
from tavola.games.gonzaga.engine import legal_actions
from tavola.games.gonzaga.game import GAME
from tavola.games.gonzaga.web.site import make_site
from tavola.web.app import GameServer
from tavola.web.botpool import Decision, decide
from tavola.web.loadbench import free_port
from tavola.web.room import ClientError, Room
from tavola.web.room import parse_params as parse
from tavola.web.storage import SeqConflict, SqliteStore, StoreError, open_store

SITE = make_site()


def parse_params(data):
    return parse(data, SITE)


def new_room(seed: int = 3) -> Room:
    params = parse_params({"seats": [{"kind": "person", "name": "Ann"},
                                     {"kind": "bot", "bot": "random"}], "seed": seed})
    return Room("g1", params, SITE)


def test_sqlite_store_is_in_wal_mode(tmp_path):
    store = open_store(f"sqlite:///{tmp_path / 'x.db'}")
    assert isinstance(store, SqliteStore) and store.journal_mode == "wal"
    store.close()


def test_the_store_keeps_the_log(db_url):
    store = open_store(db_url)
    room = new_room()
    store.create(room.stored())
    store.append("g1", 0, {"type": "donate", "player": 0})
    with pytest.raises(SeqConflict, match="out of sequence"):
        store.append("g1", 5, {"type": "donate", "player": 0})
    with pytest.raises(SeqConflict, match="out of sequence"):
        store.append("g1", 0, {"type": "donate", "player": 0})
    loaded = store.load("g1")
    assert loaded is not None
    assert loaded.actions == [{"type": "donate", "player": 0}]
    assert loaded.tokens == room.tokens and loaded.spectator == room.spectator
    assert loaded.params == json.loads(json.dumps(room.stored().params))
    assert loaded.claimed == {0}
    assert store.game_ids("playing") == ["g1"] and store.load("nope") is None
    assert not store.claim("g1", 0)  # the creator's seat is theirs from creation
    assert store.claim("g1", 1) is False  # a bot's seat has no token to claim
    store.close()


def test_take_back_removes_only_the_last_action(db_url):
    store = open_store(db_url)
    store.create(new_room().stored())
    for seq in range(3):
        store.append("g1", seq, {"type": "donate", "player": seq})
    with pytest.raises(SeqConflict):
        store.take_back("g1", 1)  # not the last
    store.take_back("g1", 2, section="open", summary={"id": "g1", "n": 2})
    assert [a["player"] for a in store.load("g1").actions] == [0, 1]
    store.append("g1", 2, {"type": "donate", "player": 9})
    assert store.load("g1").actions[-1]["player"] == 9
    store.close()


def test_lobby_lines_status_and_activity(db_url):
    store = open_store(db_url)
    for i in range(5):
        room = new_room(i)
        room.id = f"g{i}"
        stored = room.stored()
        stored.created = 1000.0 + i
        stored.section, stored.summary = "open", {"id": room.id}
        store.create(stored)
    store.set_summary("g3", "finished", {"id": "g3", "over": True})
    store.set_summary("g4", "open", ["not", "a", "line"])  # unreadable: left out
    store.append("g2", 0, {"type": "donate"}, section="playing", summary={"id": "g2"},
                 status="over")
    page = store.lobby("open", 0, 2)
    assert [g["id"] for g in page.games] == ["g1"] and page.more  # g4 is left out
    assert [g["id"] for g in store.lobby("open", 2, 2).games] == ["g0"]
    assert store.lobby("finished", 0, 10).games == [{"id": "g3", "over": True}]
    assert store.game_ids("over") == ["g2"]
    assert store.active_games(0) == 4 and store.active_games(time.time() + 60) == 0
    store.set_status("g1", "broken")
    assert store.game_ids("broken") == ["g1"] and store.active_games(0) == 3
    store.close()


def test_the_cap_counts_unfinished_recent_games_by_their_creator(db_url):
    """Each game keeps who created it; the count of games that hold places is of everyone,
    of one address or of one account, and only of unfinished games moved in since then."""
    store = open_store(db_url)
    creators = [("198.51.100.1", None), ("198.51.100.1", 7), ("203.0.113.9", 7),
                ("203.0.113.9", None)]
    for i, (address, account) in enumerate(creators):
        room = new_room(i)
        room.id = f"g{i}"
        stored = room.stored()
        stored.creator_address, stored.creator_account = address, account
        store.create(stored)
    assert store.active_games(0) == 4
    assert store.active_games(0, address="198.51.100.1") == 2
    assert store.active_games(0, account=7) == 2
    assert store.active_games(0, address="203.0.113.9", account=7) == 1
    store.append("g1", 0, {"type": "donate"}, status="over")  # a finished game holds none
    assert store.active_games(0, account=7) == 1
    assert store.active_games(time.time() + 60, address="203.0.113.9") == 0
    store.close()


def test_an_older_postgresql_games_table_gains_the_creator_columns(pg_url):
    import psycopg

    from tavola.web.pgstore import GAME_STEPS, MIGRATIONS, pg_schema

    with psycopg.connect(pg_url) as conn:  # the games' tables as version 1 made them
        conn.execute(MIGRATIONS)
        conn.execute(pg_schema(GAME_STEPS[0]))
        conn.execute("INSERT INTO schema_migrations VALUES ('games', 1, 0)")
    store = open_store(pg_url)
    stored = new_room().stored()
    stored.creator_address = "198.51.100.1"
    store.create(stored)
    assert store.active_games(0, address="198.51.100.1") == 1
    store.close()


def test_two_writers_of_one_action_one_wins_and_the_log_never_forks(db_url):
    """Two stores on one database (two server processes) each write action 1 of a game at
    once: exactly one is stored, the other gets `SeqConflict`."""
    first, second = open_store(db_url), open_store(db_url)
    first.create(new_room().stored())
    first.append("g1", 0, {"type": "donate", "player": 0})
    for seq in range(1, 21):
        outcome: list[str] = []
        barrier = threading.Barrier(2)

        def write(store, who, seq=seq, barrier=barrier, outcome=outcome):
            barrier.wait()
            try:
                store.append("g1", seq, {"type": "donate", "player": who})
                outcome.append("stored")
            except SeqConflict:
                outcome.append("conflict")

        threads = [threading.Thread(target=write, args=(s, i))
                   for i, s in enumerate((first, second))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(outcome) == ["conflict", "stored"], seq
    for store in (first, second):
        assert len(store.load("g1").actions) == 21
    first.close()
    second.close()


def test_unknown_database_urls_are_refused_clearly():
    with pytest.raises(StoreError, match="use sqlite"):
        open_store("mysql://localhost/gonzaga")
    with pytest.raises(StoreError, match="names no file"):
        open_store("sqlite:///")


def test_an_unreachable_postgresql_is_named_without_its_password():
    with pytest.raises(StoreError, match="cannot connect") as exc:
        open_store(f"postgresql://u:secret@127.0.0.1:{free_port()}/x?connect_timeout=1")
    assert "secret" not in str(exc.value)


def test_postgresql_schema_is_migrated_once_and_versioned(pg_url):
    import psycopg

    from tavola.web.account_store import STEPS, open_account_store
    from tavola.web.pgstore import GAME_STEPS

    stores = [open_store(pg_url) for _ in range(2)]  # the second finds everything there
    open_account_store(stores[0]).close()
    with psycopg.connect(pg_url) as conn:
        rows = conn.execute("SELECT part, MAX(version) FROM schema_migrations "
                            "GROUP BY part ORDER BY part").fetchall()
        assert rows == [("accounts", len(STEPS)), ("games", len(GAME_STEPS))]
        conn.execute("INSERT INTO schema_migrations VALUES ('games', 99, 0)")
    for store in stores:
        store.close()
    with pytest.raises(StoreError, match="newer than this server"):
        open_store(pg_url)


def test_a_room_rebuilt_from_its_log_is_the_same_game():
    room = new_room()
    moves = 0
    while not room.state.is_over and moves < 40:
        seat = room.state.to_move()[0]
        action = decide(Decision("gonzaga", room.bots[seat], room.params.seed,
                                 GAME.setup_of(room.state), tuple(room.state.history), seat)) \
            if seat in room.bots else legal_actions(room.state, seat)[0]
        act, new = room.prepare(seat, action_to_json(action))
        room.commit(act, new)
        moves += 1
    stored = room.stored()
    stored.actions = [action_to_json(a) for a in room.state.history]
    again = Room.restore(stored, SITE)
    assert again.message_for(0) == room.message_for(0)
    assert again.message_for(None) == room.message_for(None)


def test_prepare_refuses_without_changing_anything():
    room = new_room()
    before = room.message_for(0)
    with pytest.raises(ClientError) as exc:
        room.prepare(0, {"type": "plan", "region": "atlantis", "action": "cities"})
    assert exc.value.rule == "region-card"
    with pytest.raises(ClientError) as exc:
        room.prepare(None, {"type": "donate"})
    assert exc.value.code == "spectator"
    with pytest.raises(ClientError) as exc:
        room.seat_of("forged")
    assert exc.value.code == "bad-token"
    assert room.message_for(0) == before and room.seq == 0


def test_bad_lobby_requests_are_refused():
    for data, code in [(None, "bad-request"), ({"seats": []}, "bad-seats"),
                       ({"seats": [{"kind": "alien"}] * 2}, "bad-seats"),
                       ({"seats": [{"kind": "bot", "bot": "oracle"}] * 2}, "bad-bot"),
                       ({"seats": [{"kind": "person"}] * 2, "seed": "x"}, "bad-seed"),
                       ({"seats": [{"kind": "person"}] * 2, "scenario": "Colombo"}, "bad-game")]:
        with pytest.raises(ClientError) as exc:
            parse_params(data)
        assert exc.value.code == code, data


def test_the_message_text_is_the_message():
    """The text sent is built from pieces encoded once; it must be exactly the view."""
    room = new_room(seed=8)
    for _ in range(12):
        seat = room.state.to_move()[0]
        for who in (0, 1, None):
            assert json.loads(room.message_text(who)) == room.message_for(who)
        act, new = room.prepare(seat, action_to_json(legal_actions(room.state, seat)[0]))
        room.commit(act, new)
    assert len(room.message_for(None)["log"]) > 5


def test_a_game_that_no_longer_replays_is_set_aside_not_fatal(db_url):
    store = open_store(db_url)
    good, bad = new_room(1), new_room(2)
    bad.id = "bad"
    for room in (good, bad):
        store.create(room.stored())
    store.append("bad", 0, {"type": "fief", "player": 0, "fief": 10, "anchor": [0, 0],
                            "rotation": 0})  # not legal in planning: the log is corrupt
    server = GameServer(store, SITE, bot_processes=False)
    assert server.resume() == 1 and set(server.rooms) == {"g1"}
    assert store.game_ids("broken") == ["bad"]
    store.close()


def test_every_lobby_level_plays_a_move_from_the_worker_entry_point():
    """Each bot level the lobby offers decides through the same entry point the server's
    worker processes use, from the deal and the moves alone, and the same way twice."""
    from tavola.games.gonzaga.bots.levels import LEVELS

    for level in LEVELS:
        params = parse_params({"seats": [{"kind": "bot", "bot": level},
                                         {"kind": "bot", "bot": "random"}], "seed": 5})
        room = Room("g-" + level, params, SITE)
        seat = room.state.to_move()[0]
        job = Decision("gonzaga", level, 5, GAME.setup_of(room.state),
                       tuple(room.state.history), seat)
        a, b = decide(job), decide(job)
        assert a == b and a in list(legal_actions(room.state, seat))
        act, new = room.prepare(seat, action_to_json(a))
        room.commit(act, new)
        assert room.state.history[-1] == a


def test_a_move_another_writer_stored_first_is_refused_and_the_game_catches_up(db_url):
    """Another process stored this seat's move first: this server's move is refused in words,
    and its room takes the stored move instead, so the log never forks."""
    import asyncio

    store = open_store(db_url)
    server = GameServer(store, SITE, bot_processes=False)
    room = server.create({"game": "gonzaga", "seats": [{"kind": "person", "name": "Ann"},
                                                       {"kind": "person", "name": "Bea"}]})
    seat = room.state.to_move()[0]
    moves = legal_actions(room.state, seat)
    theirs, mine = action_to_json(moves[0]), action_to_json(moves[-1])
    other = open_store(db_url)
    other.append(room.id, room.seq, theirs)
    with pytest.raises(ClientError) as exc:
        asyncio.run(server.act(room, seat, mine, room.seq))
    assert exc.value.code in ("stale", "not-your-turn") and exc.value.message
    stored = store.load(room.id).actions
    assert stored == [theirs]
    assert [room.game.action_to_json(a) for a in room.state.history] == stored
    other.close()
    store.close()


def test_postgresql_hot_path_on_the_loop_writes_what_the_threaded_store_reads(pg_url):
    """A server's moves, undos and catch-ups on PostgreSQL wait on its event loop
    (`PgStore.aio`): the rows are the same the threaded store writes and reads, a move out of
    sequence is refused, and of two writers of one action at once exactly one is stored."""
    import asyncio

    store, other = open_store(pg_url), open_store(pg_url)
    room = new_room()
    store.create(room.stored())

    async def play() -> list[str]:
        aio = store.aio
        await aio.append("g1", 0, {"type": "donate", "player": 0}, section="open",
                         summary={"id": "g1", "n": 1})
        with pytest.raises(SeqConflict, match="out of sequence"):  # and changes nothing
            await aio.append("g1", 3, {"type": "donate", "player": 0}, section="open",
                             summary={"id": "g1", "n": 99}, status="over")
        assert store.lobby("open", 0, 10).games == [{"id": "g1", "n": 1}]
        assert store.game_ids("playing") == ["g1"]
        await aio.append("g1", 1, {"type": "donate", "player": 1}, status="over")
        assert store.game_ids("over") == ["g1"]
        with pytest.raises(SeqConflict):
            await aio.take_back("g1", 0)  # not the last
        await aio.take_back("g1", 1)
        with pytest.raises(StoreError, match="nope"):
            await aio.append("nope", 0, {"type": "donate", "player": 0})
        assert await aio.load("nope") is None
        loaded = await aio.load("g1")
        assert loaded.actions == store.load("g1").actions == [{"type": "donate", "player": 0}]
        assert loaded.tokens == room.tokens and loaded.claimed == {0}
        results = await asyncio.gather(
            aio.append("g1", 1, {"type": "donate", "player": 1}),
            other.aio.append("g1", 1, {"type": "donate", "player": 2}),
            return_exceptions=True)
        await aio.close()
        await other.aio.close()
        return sorted(type(r).__name__ for r in results)

    assert asyncio.run(play()) == ["NoneType", "SeqConflict"]
    assert len(other.load("g1").actions) == 2
    assert store.lobby("open", 0, 10).games == [{"id": "g1", "n": 1}]
    store.close()
    other.close()


def test_a_claim_writes_the_lobby_line_only_when_it_takes_the_seat(db_url):
    """A player arriving takes the seat and rewrites the game's lobby line in one transaction
    (one commit per arrival); a seat already taken writes nothing."""
    params = parse_params({"seats": [{"kind": "person", "name": "Ann"},
                                     {"kind": "person", "name": "Bo"}], "public": True})
    room = Room("g2", params, SITE, claimed={0})
    store = open_store(db_url)
    store.create(room.stored())
    store.set_summary("g2", room.section(), room.summary())
    section, line = room.line_if_claimed(1)
    assert section == "playing" and room.section() == "open" and 1 not in room.claimed
    assert store.claim("g2", 1, section=section, summary=line)
    assert store.lobby("open", 0, 10).games == []
    assert [g["id"] for g in store.lobby("playing", 0, 10).games] == ["g2"]
    assert not store.claim("g2", 1, section="open", summary={"id": "g2", "stale": True})
    assert store.lobby("playing", 0, 10).games == [line]
    store.close()


def test_a_move_made_while_a_player_arrives_reaches_them_after_their_welcome(pg_url):
    """On PostgreSQL a player's seat is claimed while the event loop goes on; a move made in
    that moment reaches the arriving player after their welcome, never before it (a client
    reads its seat from the first message)."""
    import asyncio

    from tavola.web.connection import Connection

    class Socket:
        def __init__(self):
            self.sent = []

        async def send_text(self, text):
            self.sent.append(json.loads(text))

    store = open_store(pg_url)
    server = GameServer(store, SITE, bot_processes=False)
    room = server.create({"game": "gonzaga", "seats": [{"kind": "person", "name": "Ann"},
                                                       {"kind": "person", "name": "Bea"}]})

    async def arrive_while_ann_moves() -> list[dict]:
        gate, claim = asyncio.Event(), store.aio.claim

        async def slow_claim(*args, **kwargs):
            await gate.wait()
            return await claim(*args, **kwargs)

        store.aio.claim = slow_claim
        socket = Socket()
        conn = Connection(socket, lambda c: room.message_text(c.seat, c.lang))
        server.conns[room.id].add(conn)
        hello = asyncio.create_task(server.sockets.hello(conn, room, room.tokens[1]))
        await asyncio.sleep(0.05)  # Bea's claim is waiting on the database
        plan = action_to_json(legal_actions(room.state, 0)[0])
        await server.act(room, 0, plan, room.seq)
        gate.set()
        await hello
        await asyncio.sleep(0.05)  # her outbox is sent
        await conn.close()
        await store.aio.close()
        return socket.sent

    sent = asyncio.run(arrive_while_ann_moves())
    assert [m["type"] for m in sent[:2]] == ["welcome", "state"]
    assert sent[0]["seat"] == 1 and sent[1]["seq"] == 1
    assert 1 in room.claimed and store.load(room.id).claimed >= {1}
    store.close()


def test_bots_of_one_level_are_numbered_so_they_can_be_told_apart():
    """Two unnamed Greedy bots at one table were both "Greedy bot"; a bot alone keeps the plain
    name, a named one its name, in the language of the lobby that created the game."""
    from tavola import i18n

    seats = [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "greedy"},
             {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}]
    names = [s.name for s in parse_params({"seats": seats}).seats]
    assert names == ["Ann", "Greedy bot 1", "Greedy bot 2", "Random bot"]
    seats[2]["name"] = "Gigi"
    assert [s.name for s in parse_params({"seats": seats}).seats][1:3] == ["Greedy bot", "Gigi"]
    with i18n.use("de"):
        more = [*seats[:3], {"kind": "bot", "bot": "greedy"}]
        german = [s.name for s in parse_params({"seats": more}).seats]
    assert len(set(german)) == 4 and german[1].endswith(" 1") and german[3].endswith(" 2")
