"""A bot worker keeps its games between decisions: the next decision applies only the actions
since, and decides exactly as a worker that replays the game from its deal."""

from __future__ import annotations

from tavola import registry
from tavola.games.gonzaga.actions import action_to_json
from tavola.games.gonzaga.web.site import make_site
from tavola.web import botpool
from tavola.web.botpool import Decision, Kept, decide
from tavola.web.room import Room, parse_params

SITE = make_site()


def bots_room(game_id: str, seed: int = 7) -> Room:
    params = parse_params({"seats": [{"kind": "bot", "bot": "greedy"},
                                     {"kind": "bot", "bot": "random"}], "seed": seed}, SITE)
    return Room(game_id, params, SITE)


def job(room: Room, seat: int, game_id: str = "") -> Decision:
    return Decision("gonzaga", room.bots[seat], room.params.bot_seed,
                    room.game.setup_of(room.state), tuple(room.state.history), seat,
                    game_id=game_id)


def counting_applies(monkeypatch) -> list[int]:
    """Count the actions a worker applies to rebuild games."""
    game = registry.get("gonzaga")
    applied = [0]
    real = game.apply_in_place

    def apply_in_place(state, action):
        applied[0] += 1
        real(state, action)

    monkeypatch.setattr(game, "apply_in_place", apply_in_place)
    return applied


def test_a_worker_applies_each_action_of_a_game_once(monkeypatch):
    """Decision after decision of one game, a worker applies only the new actions (the
    first decision builds the game from its deal), and decides as a fresh replay does."""
    monkeypatch.setattr(botpool, "KEPT", Kept())
    applied = counting_applies(monkeypatch)
    room = bots_room("kept-1")
    decisions = kept_applied = 0
    while not room.state.is_over and decisions < 30:
        seat = room.state.to_move()[0]
        before = applied[0]
        fresh = decide(job(room, seat))  # no game id: rebuilt from the deal
        assert applied[0] - before == room.seq
        before = applied[0]
        action = decide(job(room, seat, room.id))
        kept_applied += applied[0] - before
        assert action == fresh
        act, new = room.prepare(seat, action_to_json(action), by_bot=True)
        room.commit(act, new)
        decisions += 1
    # the kept game: built once, then the one action since the decision before
    assert decisions == 30 and kept_applied == room.seq - 1
    assert botpool.KEPT.replays == decisions + 1  # the fresh ones, and the kept game once


def test_a_log_that_no_longer_starts_with_the_kept_game_is_replayed(monkeypatch):
    """A move taken back (a shorter log), a different log or another deal of the same id:
    the worker rebuilds the game from its deal and decides as a fresh replay does."""
    monkeypatch.setattr(botpool, "KEPT", Kept())
    room = bots_room("kept-2")
    for _ in range(6):
        seat = room.state.to_move()[0]
        act, new = room.prepare(seat, action_to_json(decide(job(room, seat, room.id))),
                                by_bot=True)
        room.commit(act, new)
    seat = room.state.to_move()[0]
    decide(job(room, seat, room.id))
    assert botpool.KEPT.replays == 1
    earlier = Room.restore(room.stored(), SITE)  # the same deal, no actions: shorter
    assert decide(job(earlier, 0, room.id)) == decide(job(earlier, 0))
    assert botpool.KEPT.replays == 3  # the kept game and the id-less decision
    other = bots_room("kept-3", seed=8)  # another deal under the same id
    assert decide(job(other, 0, room.id)) == decide(job(other, 0))
    assert botpool.KEPT.replays == 5


def test_a_worker_keeps_at_most_its_share_of_games(monkeypatch):
    monkeypatch.setattr(botpool, "KEPT", Kept(most=2))
    rooms = [bots_room(f"kept-many-{i}") for i in range(3)]
    for room in rooms:
        decide(job(room, 0, room.id))
    assert botpool.KEPT.replays == 3
    decide(job(rooms[0], 0, rooms[0].id))  # the least recently asked went
    decide(job(rooms[2], 0, rooms[2].id))
    assert botpool.KEPT.replays == 4
