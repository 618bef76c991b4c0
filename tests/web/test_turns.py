"""Turn-based games on the server alone (no browser): deadlines on a clock the test moves on,
a bot covering a seat out of time, misses giving the seat to the bot, restarts."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest

from tavola.testing import game_names
from tavola.text import say
from tavola.web import timing
from tavola.web.app import GameServer, Limits
from tavola.web.errors import ClientError
from tavola.web.site import load_sites
from tavola.web.storage import open_store

HOUR = 3600


class Clock:
    """Time the test moves on."""

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def make_server(db_url: str, clock: Clock, game: str = "signorie") -> GameServer:
    """A server on the database (SQLite or PostgreSQL: every test here runs on both)."""
    return GameServer(open_store(db_url), load_sites([game]), bot_processes=False, clock=clock,
                      bot_delay=0, limits=Limits(undo_wait=0))


def people(n: int, names: tuple[str, ...] = ("Ann", "Bea", "Cem", "Dan")) -> list[dict[str, Any]]:
    return [{"kind": "person", "name": names[i]} for i in range(n)]


async def settle(server: GameServer) -> None:
    """Let every bot and cover the server started finish."""
    for _ in range(400):
        if not server.pending_bots:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"bots still busy: {server.pending_bots}")


def log_texts(room: Any, seat: int | None = None) -> list[str]:
    return [entry["text"] for entry in room.message_for(seat)["log"]]


# -- parsing the lobby's choice --------------------------------------------------------------


def test_timing_is_one_of_the_offered_limits_or_refused():
    assert timing.parse_timing(None, HOUR) is None
    assert timing.parse_timing({"move_seconds": None}, HOUR) is None
    assert timing.parse_timing({"move_seconds": 86400}, HOUR) == {"move_seconds": 86400,
                                                                  "misses": 3}
    assert timing.parse_timing({"move_seconds": 3600, "misses": 1}, HOUR)["misses"] == 1
    for bad in ({"move_seconds": 5}, {"move_seconds": "1h"}, {"move_seconds": True},
                {"move_seconds": 10**9}, {"move_seconds": 3600, "misses": 0},
                {"move_seconds": 3600, "misses": 11}, {"move_seconds": 3600, "misses": "3"},
                ["move_seconds"]):
        with pytest.raises(ClientError) as exc:
            timing.parse_timing(bad, HOUR)
        assert exc.value.code == "bad-timing"
    # seconds only where the server allows them (a flag for tests)
    assert timing.parse_timing({"move_seconds": 5}, 1) == {"move_seconds": 5, "misses": 3}


def test_the_lobby_offers_live_and_long_limits_and_seconds_only_when_allowed():
    offered = [c["value"] for c in timing.lobby_json(HOUR)["choices"]]
    assert offered == [None, HOUR, 12 * HOUR, 24 * HOUR, 72 * HOUR]
    assert 5 in [c["value"] for c in timing.lobby_json(1)["choices"]]
    assert timing.lobby_json(HOUR)["default_misses"] in \
        [m["value"] for m in timing.lobby_json(HOUR)["misses"]]


def test_a_live_game_has_no_clock(db_url):
    clock = Clock()
    server = make_server(db_url, clock)
    room = server.create({"game": "signorie", "seats": people(2)})
    assert room.params.timing is None and room.turn is None
    clock.now += 10 * 86400
    assert server.turns.check() == []


# -- deadlines ---------------------------------------------------------------------------------


def test_the_deadline_runs_from_the_start_of_the_seats_wait(db_url):
    clock = Clock()
    server = make_server(db_url, clock)

    async def main() -> None:
        room = server.create({"game": "signorie", "seats": people(2),
                              "timing": {"move_seconds": HOUR, "misses": 3}})
        mover = room.state.to_move()[0]
        assert room.turn["deadlines"] == {mover: clock.now + HOUR}
        assert room.message_for(None)["timing"]["deadlines"] == {mover: clock.now + HOUR}
        clock.now += HOUR - 1
        assert server.turns.check() == []  # a second left
        # a step of the same turn keeps the clock running: the turn is one wait
        option = room.message_for(mover)["legal"]["options"][0]["action"]
        start = clock.now - (HOUR - 1)
        await server.act(room, mover, option, room.seq)
        if mover in room.state.to_move():
            assert room.turn["deadlines"] == {mover: start + HOUR}
            clock.now += 1
            assert server.turns.check() == [(room.id, mover)]
        else:  # the turn ended: the next seat's clock starts now
            assert room.turn["deadlines"] == {room.state.to_move()[0]: clock.now + HOUR}
            clock.now += 1
            assert server.turns.check() == []
        await settle(server)

    asyncio.run(main())


def test_simultaneous_plans_each_seat_has_its_own_clock(db_url):
    clock = Clock()
    server = make_server(db_url, clock, game="gonzaga")

    async def main() -> None:
        room = server.create({"game": "gonzaga", "seats": people(3),
                              "timing": {"move_seconds": HOUR, "misses": 3}})
        start = clock.now
        assert sorted(room.turn["deadlines"]) == [0, 1, 2]  # everyone plans at once
        clock.now += 600
        await server.act(room, 1, _any_plan(room, 1), room.seq)
        # seat 1 planned: its clock stops, the others' keep their start
        assert room.turn["deadlines"] == {0: start + HOUR, 2: start + HOUR}
        clock.now = start + HOUR
        covered = sorted(server.turns.check())
        assert covered == [(room.id, 0), (room.id, 2)]
        await settle(server)
        texts = log_texts(room)
        assert say("timing.covered", name="Ann") in texts
        assert say("timing.covered", name="Cem") in texts
        assert say("timing.covered", name="Bea") not in texts

    asyncio.run(main())


def _any_plan(room: Any, seat: int) -> dict[str, Any]:
    from tavola.games.gonzaga.engine import legal_actions
    return room.game.action_to_json(legal_actions(room.state, seat)[0])


# -- the bot covers, then takes the seat for good -----------------------------------------------


def test_a_bot_covers_a_timed_out_seat_and_the_log_says_so(db_url):
    clock = Clock()
    server = make_server(db_url, clock)

    async def main() -> None:
        room = server.create({"game": "signorie", "seats": people(2),
                              "timing": {"move_seconds": HOUR, "misses": 3}})
        late = room.state.to_move()[0]
        before = room.seq
        clock.now += HOUR
        assert server.turns.check() == [(room.id, late)]
        await settle(server)
        assert room.seq > before  # the bot moved for the late seat
        assert late not in room.state.to_move()  # for the whole of its turn
        view = room.message_for(None)
        name = room.params.seats[late].name
        timeout_lines = [e for e in view["log"] if e["kind"] == "timeout"]
        assert [e["text"] for e in timeout_lines] == [say("timing.covered", name=name)]
        assert view["timing"]["missed"] == {late: 1}
        assert not room.can_undo(late)  # the bot's move is not the player's to take back
        # and it is the same in every seat's log, and in the JSON text sent
        other = 1 - late
        assert [e["text"] for e in json.loads(room.message_text(other))["log"]] == \
            [e["text"] for e in view["log"]]
        assert room.seats_json()[late]["kind"] == "person"  # one miss: still a person

    asyncio.run(main())


def test_after_the_chosen_misses_the_bot_plays_the_seat_for_good(db_url):
    clock = Clock()
    server = make_server(db_url, clock)

    async def main() -> None:
        room = server.create({"game": "signorie", "seats": people(2),
                              "timing": {"move_seconds": HOUR, "misses": 2}})
        misses = 0
        # the other seat always moves in time (by its own bot here); the late one never
        while not room.state.is_over and not room.replaced:
            mover = room.state.to_move()[0]
            clock.now += HOUR
            assert server.turns.check() == [(room.id, mover)]
            await settle(server)
            misses += 1
            assert misses <= 4
        assert 2 <= misses <= 3  # the first seat to miss twice: the second or third miss
        seat = next(iter(room.replaced))
        assert room.bots[seat] == "greedy"
        assert room.seats_json()[seat] == {**room.seats_json()[seat], "kind": "bot",
                                          "replaced": True}
        name = room.params.seats[seat].name
        assert say("timing.replaced", name=name, misses=2) in log_texts(room)
        with pytest.raises(ClientError) as exc:
            room.prepare(seat, {"type": "pass"})
        assert exc.value.code == "seat-replaced"
        await settle(server)
        # the seat now moves as a bot at once: no clock for it any more
        assert seat not in room.turn["deadlines"]

    asyncio.run(main())


def test_a_player_who_moves_in_time_is_never_covered(db_url):
    clock = Clock()
    server = make_server(db_url, clock)

    async def main() -> None:
        room = server.create({"game": "signorie", "seats": people(2),
                              "timing": {"move_seconds": HOUR, "misses": 1}})
        moved = set()
        for _ in range(8):
            mover = room.state.to_move()[0]
            clock.now += HOUR / 10
            option = room.message_for(mover)["legal"]["options"][0]["action"]
            await server.act(room, mover, option, room.seq)
            moved.add(mover)
            assert server.turns.check() == []
        assert moved == {0, 1}  # both seats had turns
        assert not room.notices and not room.replaced
        assert "timeout" not in [e["kind"] for e in room.message_for(None)["log"]]

    asyncio.run(main())


# -- restarts ----------------------------------------------------------------------------------


def test_a_restart_keeps_the_deadlines_and_makes_moves_that_timed_out_meanwhile(db_url):
    clock = Clock()
    db = db_url
    server = make_server(db, clock)
    room = server.create({"game": "signorie", "seats": people(2),
                          "timing": {"move_seconds": HOUR, "misses": 1}})
    game_id, late = room.id, room.state.to_move()[0]
    deadline = room.turn["deadlines"][late]
    server.store.close()

    clock.now += 600  # down for ten minutes: the deadline stays where it was
    again = make_server(db, clock)
    assert again.resume() == 1
    assert again.rooms[game_id].turn["deadlines"] == {late: deadline}
    again.store.close()

    clock.now = deadline + 5  # down past the deadline
    third = make_server(db, clock)
    third.resume()

    async def main() -> None:
        assert third.turns.check() == [(game_id, late)]  # at start
        await settle(third)

    asyncio.run(main())
    back = third.rooms[game_id]
    assert back.replaced == {late}  # one miss allowed: the bot took the seat for good
    third.store.close()

    # and the misses, the log lines and the bot's seat survive one more restart
    fourth = make_server(db, clock)
    fourth.resume()
    resumed = fourth.rooms[game_id]
    assert resumed.replaced == {late} and resumed.bots[late] == "greedy"
    name = resumed.params.seats[late].name
    assert log_texts(resumed)[:len(log_texts(back))] == log_texts(back)
    assert say("timing.replaced-one", name=name) in log_texts(resumed)
    fourth.store.close()


@pytest.mark.parametrize("game", game_names("site"))
def test_a_move_taken_back_keeps_the_movers_clock_where_it_was(tmp_path, game):
    """Move and undo must not buy a late player a new limit: the clock's start survives the
    undo, in memory and in the database a restarted server reads."""
    db = f"sqlite:///{tmp_path / 'g.db'}"
    clock = Clock()
    server = make_server(db, clock, game)

    async def move(room: Any, seat: int) -> None:
        view = json.loads(room.message_text(seat))
        await server.act(room, seat, room.site.bench_reply(view, random.Random(0)), room.seq)

    async def main() -> tuple[str, int, float]:
        room = server.create({"game": game, "seats": people(2),
                              "timing": {"move_seconds": HOUR, "misses": 3}})
        for _ in range(50):  # a turn whose last step may be taken back
            mover = room.state.to_move()[0]
            deadline = room.turn["deadlines"][mover]
            clock.now += 60
            while mover in room.state.to_move():  # every step of the mover's turn
                await move(room, mover)
            if room.can_undo(mover):
                break
        assert room.state.to_move() and mover not in room.state.to_move()
        clock.now = deadline - 60  # a minute left when the move is taken back
        await server.undo(room, mover, room.seq)
        assert room.turn["deadlines"][mover] == deadline
        return room.id, mover, deadline

    game_id, mover, deadline = asyncio.run(main())
    server.store.close()
    again = make_server(db, clock, game)
    again.resume()
    assert again.rooms[game_id].turn["deadlines"][mover] == deadline
    clock.now += 61

    async def late() -> None:
        assert (game_id, mover) in again.turns.check()  # out of time as if it never moved
        await settle(again)

    asyncio.run(late())
    again.store.close()
