"""The games waiting for a player ("Your move"): which seats a game asks is stored with each
move, so any server process on the database lists them, the one whose time runs out first
first, and finds the next game after a move."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tavola import tutorial as tutorials
from tavola.web.account_store import open_account_store
from tavola.web.accounts import Accounts
from tavola.web.app import GameServer, Limits
from tavola.web.errors import ClientError
from tavola.web.learn import tutorial_params
from tavola.web.room import Room
from tavola.web.site import load_site, load_sites
from tavola.web.storage import open_store

HOUR = 3600
DAY = 24 * HOUR
PEOPLE = [{"kind": "person"}, {"kind": "person"}]


class Clock:
    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def process(db_url: str, clock: Clock) -> GameServer:
    """One server process on the shared database, with its accounts."""
    server = GameServer(open_store(db_url), load_sites(["signorie"]), bot_processes=False,
                        clock=clock, bot_delay=0, limits=Limits(undo_wait=0))
    server.accounts = Accounts(server, open_account_store(server.store))
    return server


def seat_players(server: GameServer, room: Room, first: Any, other: Any) -> None:
    """`first` holds the seat whose move it is, `other` the other seat."""
    mover = room.state.to_move()[0]
    assert server.accounts is not None
    server.accounts.store.hold(room.id, mover, first.id)
    server.accounts.store.hold(room.id, 1 - mover, other.id)


async def end_turn(server: GameServer, room: Room) -> None:
    """The seat to move plays until the game asks the other seat (the steps of a turn)."""
    mover = room.state.to_move()[0]
    while room.asked() == [mover]:
        option = room.message_for(mover)["legal"]["options"][0]["action"]
        await server.act(room, mover, option, room.seq)


def test_any_process_lists_the_waiting_games_soonest_deadline_first(db_url):
    clock = Clock()
    a, b = process(db_url, clock), process(db_url, clock)
    assert a.accounts is not None and b.accounts is not None
    ivo, joy = (a.accounts.store.add_user(n, n.lower(), "not a hash") for n in ("Ivo", "Joy"))

    async def main() -> None:
        day = a.create({"game": "signorie", "seats": PEOPLE,
                        "timing": {"move_seconds": DAY, "misses": 3}})
        clock.now += 60
        live = b.create({"game": "signorie", "seats": PEOPLE})  # no clock: after the others
        clock.now += 60
        hour = a.create({"game": "signorie", "seats": PEOPLE,
                         "timing": {"move_seconds": HOUR, "misses": 3}})
        for room in (day, live, hour):
            seat_players(a, room, ivo, joy)
        # process b never had the clocked games in memory: it reads them from the database
        mine = b.accounts.your_move(ivo)
        assert [g["id"] for g in mine["games"]] == [hour.id, day.id, live.id]
        assert [g["left"] for g in mine["games"]] == [HOUR, DAY - 120, None]
        assert mine["count"] == 3 and b.accounts.waiting(joy)["count"] == 0
        assert mine["games"][0]["link"] == f"/game/{hour.id}#{hour.tokens[hour.asked()[0]]}"
        # Ivo moves in the hour game on a: the next game waiting is the day game
        await end_turn(a, hour)
        after = b.accounts.waiting(ivo, after=hour.id)
        assert after["count"] == 2 and after["next"]["id"] == day.id
        assert b.accounts.waiting(joy)["next"]["id"] == hour.id
        assert b.accounts.waiting(joy, after=hour.id)["next"] is None
        # "my games" says the same
        assert [g["id"] for g in b.accounts.my_games(joy)["waiting"]] == [hour.id]

    asyncio.run(main())
    for server in (a, b):
        server.hinting.close()
        server.store.close()


def test_a_seat_a_bot_took_for_good_is_asked_of_nobody(db_url):
    clock = Clock()
    server = process(db_url, clock)
    room = server.create({"game": "signorie", "seats": PEOPLE,
                          "timing": {"move_seconds": HOUR, "misses": 1}})
    mover = room.state.to_move()[0]
    assert room.asked() == [mover] and room.summary()["asked"] == [mover]
    room.bots[mover] = "greedy"  # as `Timekeeper._missed` after the last miss allowed
    assert room.asked() == [] and room.summary()["to_move"] == [mover]
    server.hinting.close()
    server.store.close()


def test_a_tutorial_asks_nobody():
    """Its player is at the table or left it: an abandoned tutorial never waits in the list."""
    site = load_site("signorie")
    tutorial = tutorials.load("signorie")
    assert tutorial is not None
    room = Room("t", tutorial_params(site, tutorial), site, claimed={tutorial.seat})
    assert room.state.to_move() and room.asked() == [] and room.summary()["asked"] == []


def test_the_waiting_count_is_limited_per_account(tmp_path):
    """Every page's header asks it: one account asking too often is refused, not another."""
    server = GameServer(open_store(f"sqlite:///{tmp_path / 'games.db'}"),
                        load_sites(["signorie"]), bot_processes=False,
                        limits=Limits(waiting_per_second=0.001, waiting_burst=2))
    accounts = Accounts(server, open_account_store(server.store))
    ivo, joy = (accounts.store.add_user(n, n.lower(), "not a hash") for n in ("Ivo", "Joy"))
    assert ivo is not None and joy is not None
    assert [accounts.waiting(ivo)["count"] for _ in range(2)] == [0, 0]
    with pytest.raises(ClientError) as exc:
        accounts.waiting(ivo)
    assert exc.value.code == "rate-limited"
    assert accounts.waiting(joy)["count"] == 0
    server.hinting.close()
    server.store.close()
