"""A bot that is to move always ends up moving: after it took a silent seat for good, when a
person moves during its pause, and when its decisions keep failing; in both games.

Each game here is played to its end on the server alone. A game is stuck when nobody's move is
pending: no bot task is running, no person may move, and the game is not over; the tests fail
at that moment rather than waiting out a clock.
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest

from tavola.testing import game_names
from tavola.web.app import GameServer, Limits
from tavola.web.botpool import BotFailed
from tavola.web.errors import ClientError
from tavola.web.site import load_sites
from tavola.web.storage import open_store

GAMES = game_names("site")
HOUR = 3600


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def make_server(db: str, game: str, clock: Clock | None = None, bot_delay: float = 0.0
                ) -> GameServer:
    return GameServer(open_store(db), load_sites([game]), bot_processes=False,
                      clock=clock or Clock(), bot_delay=bot_delay,
                      limits=Limits(undo_wait=0))


def stuck(server: GameServer, room: Any, people: set[int]) -> bool:
    """Nobody's move is on its way: the game would wait forever."""
    state = room.state
    return (not state.is_over and not server.pending_bots
            and not people & set(state.to_move()) - room.replaced)


async def person_moves(server: GameServer, room: Any, seat: int, rng: random.Random,
                       undo: bool = False) -> None:
    """The seat's move as a page would send it, from the seat's own view; with `undo`, a move
    that may be taken back is taken back at once, half the time, and made again."""
    for _ in range(2):
        view = json.loads(room.message_text(seat))
        try:
            await server.act(room, seat, room.site.bench_reply(view, rng), room.seq)
        except ClientError as exc:
            assert exc.code == "stale", exc.message  # a bot moved first (planning at once)
            return
        if not (undo and room.can_undo(seat) and rng.random() < 0.5):
            return
        await server.undo(room, seat, room.seq)


async def play_out(server: GameServer, room: Any, people: set[int], rng: random.Random,
                   undo: bool = False) -> None:
    """Every person seat moves at once whenever it may; fails as soon as the game is stuck."""
    for _ in range(1_000_000):
        if room.state.is_over:
            return
        movers = people & set(room.state.to_move()) - room.replaced
        if movers:
            await person_moves(server, room, min(movers), rng, undo)
            continue
        await asyncio.sleep(0.002)
        if stuck(server, room, people):
            await asyncio.sleep(0.05)  # a bot task may end and start the next one
            assert not stuck(server, room, people), \
                f"stuck at move {room.seq}: to move {room.state.to_move()}, bots {room.bots}"
    raise AssertionError("the game did not end")


async def take_over(server: GameServer, room: Any, clock: Clock) -> dict[str, Any]:
    """Let seat 0's time run out once (one miss allowed): the bot keeps the seat. Returns a
    move the person could have made before."""
    while set(room.state.to_move()) != {0}:  # seat 0 alone waits (planning is at once)
        await person_moves(server, room, max(room.state.to_move()), random.Random(1))
    offered = room.site.bench_reply(json.loads(room.message_text(0)), random.Random(0))
    clock.now += HOUR + 1
    assert (room.id, 0) in server.turns.check()
    for _ in range(2000):
        if room.replaced:
            return offered
        await asyncio.sleep(0.005)
    raise AssertionError("the seat was not taken over")


@pytest.mark.parametrize("game", GAMES)
def test_a_seat_taken_over_for_good_plays_to_the_end(tmp_path, game):
    clock = Clock()
    server = make_server(f"sqlite:///{tmp_path / 'g.db'}", game, clock)

    async def main() -> None:
        room = server.create({"game": game, "seats": [{"kind": "person"}, {"kind": "person"}],
                              "timing": {"move_seconds": HOUR, "misses": 1}})
        offered = await take_over(server, room, clock)
        assert room.replaced == {0}
        # the person who lost the seat is refused, whatever they send
        with pytest.raises(ClientError) as exc:
            room.prepare(0, offered)
        assert exc.value.code == "seat-replaced"
        await play_out(server, room, {1}, random.Random(2))
        assert room.state.is_over

    asyncio.run(main())


@pytest.mark.parametrize("game", GAMES)
def test_a_seat_taken_over_for_good_plays_on_after_a_restart(tmp_path, game):
    db = f"sqlite:///{tmp_path / 'g.db'}"
    clock = Clock()
    server = make_server(db, game, clock)

    async def first() -> str:
        room = server.create({"game": game, "seats": [{"kind": "person"}, {"kind": "person"}],
                              "timing": {"move_seconds": HOUR, "misses": 1}})
        await take_over(server, room, clock)
        for task in list(server.tasks):  # the server stops mid-game
            task.cancel()
        return room.id

    game_id = asyncio.run(first())
    server.store.close()
    again = make_server(db, game, clock)
    again.resume()

    async def second() -> None:
        room = again.rooms[game_id]
        assert room.replaced == {0}
        again.start()
        await play_out(again, room, {1}, random.Random(3))
        assert room.state.is_over
        await again.shutdown()

    asyncio.run(second())


@pytest.mark.parametrize("game", GAMES)
def test_a_person_moving_during_the_bots_pause_never_freezes_the_game(tmp_path, game):
    """The person moves the moment it may, every time, inside the bots' pause (0.1 s;
    0.04 s in Signorie, which has many more turns): in Gonzaga's planning that is while both
    bots wait to plan the same round; and half the moves that may be taken back are taken
    back at once and made again, inside the pause."""
    server = make_server(f"sqlite:///{tmp_path / 'g.db'}", game,
                         bot_delay=0.1 if game == "gonzaga" else 0.04)
    seats = [{"kind": "person"}, {"kind": "bot", "bot": "greedy"},
             {"kind": "bot", "bot": "greedy"}]

    async def main() -> None:
        room = server.create({"game": game, "seats": seats})
        await play_out(server, room, {0}, random.Random(4), undo=True)
        assert room.state.is_over

    asyncio.run(main())


@pytest.mark.parametrize("game", GAMES)
def test_a_bot_whose_decisions_keep_failing_still_moves(tmp_path, game, monkeypatch):
    server = make_server(f"sqlite:///{tmp_path / 'g.db'}", game)

    async def broken(job: Any, deadline: float | None = None) -> Any:
        raise BotFailed("the worker died")

    monkeypatch.setattr(server.bots, "decide", broken)
    seats = [{"kind": "person"}, {"kind": "bot", "bot": "greedy"}]

    async def main() -> None:
        room = server.create({"game": game, "seats": seats})
        await play_out(server, room, {0}, random.Random(5))
        assert room.state.is_over

    asyncio.run(main())
