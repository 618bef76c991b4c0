"""Vacations and leavers on the server alone, on a clock the test moves on: vacation days per
calendar year, clocks standing still while they last, days taken automatically when a clock
runs out, and the choice the others make when a bot takes a seat for good."""

from __future__ import annotations

import asyncio
import json
import shutil
from datetime import UTC, datetime
from typing import Any

import pytest
import websockets
from accounts_client import Visitor

from tavola.ratings import default_rating
from tavola.web.account_store import open_account_store
from tavola.web.accounts import Accounts
from tavola.web.app import GameServer, Limits
from tavola.web.errors import ClientError
from tavola.web.loadbench import LOCAL_LIMITS, free_port, start_redis, start_server
from tavola.web.site import load_sites
from tavola.web.storage import open_store
from tavola.web.vacations import DAY, Vacation, frozen_deadline

HOUR = 3600
NEW_YEAR = datetime(2027, 1, 1, tzinfo=UTC).timestamp()


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def make(db_url: str, clock: Clock, days: int = 14,
         game: str = "signorie") -> tuple[GameServer, Accounts]:
    server = GameServer(open_store(db_url), load_sites([game]), bot_processes=False,
                        clock=clock, bot_delay=0, limits=Limits(undo_wait=0, vacation_days=days))
    accounts = Accounts(server, open_account_store(server.store))
    server.accounts = accounts
    return server, accounts


def users(accounts: Accounts, *names: str) -> list[int]:
    out = []
    for name in names:
        user = accounts.store.add_user(name, name.lower(), "not a hash")
        assert user is not None
        out.append(user.id)
    return out


def timed_game(server: GameServer, accounts: Accounts, holders: list[int | None],
               misses: int = 3, seconds: int = HOUR) -> Any:
    """A two-player game whose first mover's seat is held by `holders[0]` (None: a guest),
    the other by `holders[1]`; `room.mover` is the first mover's seat."""
    room = server.create({"game": "signorie",
                          "seats": [{"kind": "person", "name": f"P{i}"}
                                    for i in range(len(holders))],
                          "timing": {"move_seconds": seconds, "misses": misses}})
    room.mover = room.state.to_move()[0]
    for seat, user in ((room.mover, holders[0]), (1 - room.mover, holders[1])):
        if user is not None:
            accounts.store.hold(room.id, seat, user)
    server.turns.changed(room)
    return room


async def settle(server: GameServer) -> None:
    for _ in range(400):
        if not server.pending_bots:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"bots still busy: {server.pending_bots}")


def stored_deadline(server: GameServer, room: Any, seat: int) -> float:
    [(deadline,)] = server.turns.clocks.db.rows(
        "SELECT deadline FROM turn_clocks WHERE game_id=? AND seat=?", (room.id, seat))
    return float(deadline)


# -- the rule of a frozen clock ------------------------------------------------------------------


def test_a_vacation_moves_a_running_clock_by_its_length_and_starts_a_new_one_at_its_end():
    v = Vacation(start=1000.0, until=1000.0 + DAY, days=1)
    assert frozen_deadline(0.0, 5000.0, [v]) == 5000.0 + DAY  # running when it began
    assert frozen_deadline(2000.0, 5000.0, [v]) == 1000.0 + DAY + 5000.0  # began during it
    assert frozen_deadline(0.0, 500.0, [v]) == 500.0  # ran out before it began
    assert frozen_deadline(0.0, 1000.0, [v]) == 1000.0 + DAY  # as it runs out: a day on
    assert frozen_deadline(DAY * 2, 500.0, [v]) == DAY * 2 + 500.0  # after it: untouched


# -- days per calendar year ---------------------------------------------------------------------


def test_a_player_has_the_servers_days_per_calendar_year_and_no_more(db_url):
    clock = Clock(NEW_YEAR - 3 * DAY)  # three days before a new year
    server, accounts = make(db_url, clock, days=5)
    (ann,) = users(accounts, "Ann")
    vac = accounts.vacations
    assert vac.days_left(ann, 2026) == 5
    with pytest.raises(ClientError) as exc:
        vac.take(ann, 6, clock.now)
    assert exc.value.code == "bad-vacation" and "5" in exc.value.message
    for bad in (0, -1, 1.5, "2", True, None):
        with pytest.raises(ClientError):
            vac.take(ann, bad, clock.now)
    taken = vac.take(ann, 2, clock.now)
    assert (taken.start, taken.until, taken.days) == (clock.now, clock.now + 2 * DAY, 2)
    assert vac.days_left(ann, 2026) == 3
    # a vacation taken while on one follows it; its days count in the year it starts
    later = vac.take(ann, 1, clock.now)
    assert later.start == clock.now + 2 * DAY and vac.days_left(ann, 2026) == 2
    # one that begins on 1 January counts in the new year, whole again
    new = vac.take(ann, 5, clock.now)
    assert new.start == NEW_YEAR and vac.days_left(ann, 2027) == 0
    assert vac.days_left(ann, 2026) == 2
    assert vac.until(ann, clock.now) == NEW_YEAR + 5 * DAY
    with pytest.raises(ClientError) as exc:
        vac.take(ann, 1, clock.now)
    assert exc.value.code == "no-vacation-days"
    clock.now = NEW_YEAR + 400 * DAY
    assert vac.days_left(ann, 2028) == 5
    assert vac.until(ann, clock.now) is None
    server.store.close()


def test_ending_a_vacation_early_gives_back_the_days_not_begun(db_url):
    clock = Clock(NEW_YEAR + 10 * DAY)
    server, accounts = make(db_url, clock)
    (ann,) = users(accounts, "Ann")
    vac = accounts.vacations
    with pytest.raises(ClientError) as exc:
        vac.end(ann, clock.now)
    assert exc.value.code == "not-on-vacation"
    vac.take(ann, 5, clock.now)
    vac.take(ann, 2, clock.now)  # follows: seven days in all
    clock.now += DAY + HOUR  # the second day has begun: two days used
    assert vac.end(ann, clock.now) == 5
    assert vac.days_left(ann, 2027) == 12
    assert vac.until(ann, clock.now) is None
    server.store.close()


# -- clocks standing still --------------------------------------------------------------------


def test_a_vacation_freezes_the_clocks_of_all_the_players_games_and_others_see_it(db_url):
    clock = Clock(NEW_YEAR + 50 * DAY)
    server, accounts = make(db_url, clock)
    ann, bea = users(accounts, "Ann", "Bea")

    async def main() -> None:
        one = timed_game(server, accounts, [ann, bea])
        two = timed_game(server, accounts, [None, ann])  # a guest moves first
        a1, b2 = one.mover, two.mover
        clock.now += HOUR / 2
        taken = accounts.take_vacation(ann, 3)
        # the waiting clock of Ann's seat moved by three days, in the database and the view
        assert stored_deadline(server, one, a1) == one.turn["deadlines"][a1]
        assert one.turn["deadlines"][a1] == clock.now - HOUR / 2 + HOUR + 3 * DAY
        assert one.turn["vacation"] == {a1: taken.until}
        view = one.message_for(1 - a1)["timing"]
        assert view["vacation"] == {a1: taken.until}
        # the guest's clock in the second game runs on; Ann's seats are covered by nothing
        assert two.turn["vacation"] == {1 - b2: taken.until}
        clock.now += 2 * DAY
        covered = server.turns.check()
        assert covered == [(two.id, b2)]  # the guest's clock ran out; Ann's did not
        await settle(server)
        clock.now = taken.until + HOUR / 2 - 1  # half an hour was left, as before
        assert server.turns.check() == [] and len(accounts.vacations.of(ann)) == 1
        clock.now += 2  # it ran out: Ann has days left, so one is taken, not a bot
        assert server.turns.check() == []
        assert [(v.start, v.auto) for v in accounts.vacations.of(ann)][1:] == \
            [(taken.until + HOUR / 2, True)]

    asyncio.run(main())
    server.store.close()


def test_a_clock_that_starts_during_a_vacation_runs_from_its_end(db_url):
    clock = Clock(NEW_YEAR + 80 * DAY)
    server, accounts = make(db_url, clock)
    ann, bea = users(accounts, "Ann", "Bea")

    async def main() -> None:
        room = timed_game(server, accounts, [bea, ann])
        b, a = room.mover, 1 - room.mover
        taken = accounts.take_vacation(ann, 2)
        while list(room.state.to_move()) == [b]:
            option = room.message_for(b)["legal"]["options"][0]["action"]
            await server.act(room, b, option, room.seq)
        assert list(room.state.to_move()) == [a]
        assert room.turn["deadlines"] == {a: taken.until + HOUR}
        assert stored_deadline(server, room, a) == taken.until + HOUR
        # back early: the clock runs from now
        clock.now += DAY
        assert accounts.end_vacation(ann) == 1
        assert room.turn["deadlines"] == {a: clock.now + HOUR}
        assert stored_deadline(server, room, a) == clock.now + HOUR
        assert room.turn["vacation"] == {}

    asyncio.run(main())
    server.store.close()


# -- days taken automatically -------------------------------------------------------------------


def test_a_clock_running_out_takes_a_vacation_day_at_a_time_then_the_bot_moves(db_url):
    clock = Clock(NEW_YEAR + 100 * DAY)
    server, accounts = make(db_url, clock, days=2)
    ann, bea = users(accounts, "Ann", "Bea")

    async def main() -> None:
        room = timed_game(server, accounts, [ann, bea])
        other = timed_game(server, accounts, [None, ann])
        a = room.mover
        deadline = room.turn["deadlines"][a]
        clock.now = deadline + 1
        assert server.turns.check() == [(other.id, other.mover)]  # a guest has no vacation
        await settle(server)
        days = accounts.vacations.of(ann)
        assert [(v.start, v.days, v.auto) for v in days] == [(deadline, 1, True)]
        assert room.turn["deadlines"][a] == deadline + DAY
        assert room.turn["vacation"] == {a: deadline + DAY}
        assert not any(line["kind"] == "timeout" for _, line in room.notices)
        # a server down for three days: the last day, then the bot
        clock.now = deadline + 3 * DAY
        assert (room.id, a) in server.turns.check()
        await settle(server)
        assert [v.start for v in accounts.vacations.of(ann)] == [deadline, deadline + DAY]
        assert accounts.vacations.days_left(ann, 2027) == 0
        assert [line["seat"] for _, line in room.notices if line["kind"] == "timeout"] == [a]

    asyncio.run(main())
    server.store.close()


def test_a_guest_seat_has_no_vacation_and_is_covered_as_before(db_url):
    clock = Clock(NEW_YEAR + 120 * DAY)
    server, accounts = make(db_url, clock)

    async def main() -> None:
        room = timed_game(server, accounts, [None, None])
        clock.now = room.turn["deadlines"][room.mover]
        assert server.turns.check() == [(room.id, room.mover)]
        await settle(server)

    asyncio.run(main())
    server.store.close()


# -- leavers: the others choose ------------------------------------------------------------------


def people_game(server: GameServer, n: int, misses: int = 1, **extra: Any) -> Any:
    return server.create({"game": "signorie", "seats": [{"kind": "person", "name": name}
                                                        for name in ("Ann", "Bea", "Cem")[:n]],
                          "timing": {"move_seconds": HOUR, "misses": misses}, **extra})


async def leave(server: GameServer, clock: Clock, room: Any) -> int:
    """The seat to move runs out of time for good (one miss allowed); returns it."""
    seat = room.state.to_move()[0]
    clock.now = room.turn["deadlines"][seat]
    assert server.turns.check() == [(room.id, seat)]
    await settle(server)
    assert seat in room.replaced
    return seat


def test_a_bot_taking_a_seat_for_good_asks_the_other_people_once(db_url):
    clock = Clock(NEW_YEAR + 150 * DAY)
    server, _ = make(db_url, clock)
    asked: list[tuple[str, int, list[int]]] = []
    server.leavers.told = lambda room, seat, voters: asked.append(
        (room.id, seat, voters))

    async def main() -> None:
        room = people_game(server, 3)
        seat = await leave(server, clock, room)
        others = [i for i in range(3) if i != seat]
        assert asked == [(room.id, seat, others)]
        [shown] = room.message_for(others[0])["leave"]
        assert (shown["seat"], shown["voters"], shown["votes"]) == (seat, others, {})
        assert shown["closes"] == clock.now + HOUR and shown["name"] == ["Ann", "Bea", "Cem"][seat]
        # the leaver, a spectator, a seat with no choice and an unknown answer are refused
        for voter, about, choice, code in ((seat, seat, "end", "not-yours"),
                                           (None, seat, "end", "spectator"),
                                           (others[0], others[1], "end", "no-choice"),
                                           (others[0], seat, "stop", "bad-choice")):
            with pytest.raises(ClientError) as exc:
                await server.leavers.vote(room, voter, about, choice)
            assert exc.value.code == code
        assert room.choices[seat]["votes"] == {}
        # one of two for the end: still open; the bot plays on meanwhile
        await server.leavers.vote(room, others[0], seat, "end")
        assert room.choices[seat]["votes"] == {others[0]: "end"} and not room.is_over
        # a second bot taking the same seat's moves asks nobody again
        assert len(asked) == 1

    asyncio.run(main())
    server.store.close()


def test_the_others_ending_the_game_place_the_leaver_last_and_the_rest_by_score(db_url):
    clock = Clock(NEW_YEAR + 160 * DAY)
    server, _ = make(db_url, clock)

    async def main() -> Any:
        room = people_game(server, 3, public=True)
        seat = await leave(server, clock, room)
        others = [i for i in range(3) if i != seat]
        await server.leavers.vote(room, others[0], seat, "end")
        await server.leavers.vote(room, others[1], seat, "end")
        return room, seat, others

    room, seat, others = asyncio.run(main())
    scores = room.game.scores(room.state)
    assert room.is_over and not room.state.is_over  # ended by the players, not the rules
    ranks = room.ended["ranks"]
    assert ranks[seat] == 3
    for i in others:
        assert ranks[i] == 1 + sum(scores[j] > scores[i] for j in others)
    # the log, the lobby line, the store and the record say so; nothing more is played
    texts = [entry["text"] for entry in room.message_for(None)["log"]]
    assert any(f"{room.params.seats[seat].name} left; the others ended the game" in t
               for t in texts)
    assert room.summary()["over"] and room.section() == "finished"
    assert room.summary()["winners"] == [i for i in range(3) if ranks[i] == 1]
    stored = server.store.load(room.id)
    assert stored is not None and stored.status == "over"
    assert room.turn["deadlines"] == {} and server.turns.clocks.started(room.id) == {}
    assert room.bots_to_move() == [] and room.message_for(others[0])["ended"] == room.ended
    record = json.loads(server.replays.record(room.id, "")[0])
    assert record["ended"] == {"reason": "left", "leaver": seat, "ranks": ranks}
    mover = room.state.to_move()[0]
    legal = room.game.action_to_json(room.game.legal_actions(room.state, mover)[0])
    with pytest.raises(ClientError) as exc:
        asyncio.run(server.act(room, mover, legal, room.seq))
    assert exc.value.code == "game-over"
    # a server started afresh on the database finds the game ended the same way
    again = GameServer(open_store(db_url), load_sites(["signorie"]), bot_processes=False,
                       clock=clock)
    loaded = again.room(room.id)
    assert loaded is not None and loaded.ended == room.ended and loaded.is_over
    assert [entry["text"] for entry in loaded.message_for(None)["log"]] == texts
    server.store.close()
    again.store.close()


@pytest.mark.parametrize("votes, decided", [(["bot"], "bot"), (["end", "bot"], "bot"),
                                            (["end", "end"], "end")])
def test_more_than_half_ends_the_game_and_half_keeps_the_bot(votes, decided):
    clock = Clock(NEW_YEAR + 170 * DAY)
    server, _ = make("sqlite:///:memory:", clock)

    async def main() -> Any:
        room = people_game(server, 3)
        seat = await leave(server, clock, room)
        others = [i for i in range(3) if i != seat]
        for voter, choice in zip(others, votes, strict=False):
            await server.leavers.vote(room, voter, seat, choice)
        return room, seat

    room, _seat = asyncio.run(main())
    assert room.choices == {}
    assert room.is_over == (decided == "end")
    kinds = [entry.get("kind") for entry in room.message_for(None)["log"]]
    assert ("left" if decided == "end" else "bot-plays") in kinds
    server.store.close()


@pytest.mark.parametrize("votes, decided", [([], "bot"), (["end"], "end")])
def test_when_the_time_is_up_the_answers_given_decide(db_url, votes, decided):
    clock = Clock(NEW_YEAR + 180 * DAY)
    server, _ = make(db_url, clock)

    async def main() -> Any:
        room = people_game(server, 3)
        seat = await leave(server, clock, room)
        others = [i for i in range(3) if i != seat]
        for voter, choice in zip(others, votes, strict=False):
            await server.leavers.vote(room, voter, seat, choice)
        closes = room.choices[seat]["closes"]
        clock.now = closes - HOUR / 2  # the seat now waiting moves: no other clock runs out
        mover = room.state.to_move()[0]
        while list(room.state.to_move()) == [mover]:
            option = room.message_for(mover)["legal"]["options"][0]["action"]
            await server.act(room, mover, option, room.seq)
        await settle(server)
        clock.now = closes - 1
        assert server.turns.check() == []
        await settle(server)
        await asyncio.sleep(0.05)
        assert seat in room.choices  # not yet
        clock.now = closes
        server.turns.check()
        for _ in range(100):
            if seat not in room.choices:
                break
            await asyncio.sleep(0.01)
        return room, seat

    room, _seat = asyncio.run(main())
    assert room.choices == {} and room.is_over == (decided == "end")
    assert server.leaving.due(clock.now + DAY) == []
    server.store.close()


def test_nobody_is_asked_when_only_bots_remain(db_url):
    clock = Clock(NEW_YEAR + 190 * DAY)
    server, _ = make(db_url, clock)
    asked: list[Any] = []
    server.leavers.told = lambda *args: asked.append(args)

    async def main() -> Any:
        room = server.create({"game": "signorie", "seats": [
            {"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}],
            "timing": {"move_seconds": HOUR, "misses": 1}})
        while room.state.to_move()[0] != 0:
            await asyncio.sleep(0.01)
        await leave(server, clock, room)
        return room

    room = asyncio.run(main())
    assert asked == [] and room.choices == {}
    server.store.close()


# -- ratings -----------------------------------------------------------------------------------


def test_the_leaver_loses_rating_and_the_others_share_first_when_the_game_is_ended(db_url):
    clock = Clock(NEW_YEAR + 200 * DAY)
    server, accounts = make(db_url, clock, days=0)  # no vacation days: the clock runs out
    ids = users(accounts, "Ann", "Bea", "Cem")

    async def main() -> Any:
        room = people_game(server, 3)
        for seat, user in enumerate(ids):
            accounts.store.hold(room.id, seat, user)
        accounts.store.add_rated(room.id, "signorie", 3)
        seat = await leave(server, clock, room)
        others = [i for i in range(3) if i != seat]
        for voter in others:
            await server.leavers.vote(room, voter, seat, "end")
        return room, seat, others

    room, seat, others = asyncio.run(main())
    assert accounts.store.rated_game(room.id)[2]  # counted
    after = {i: accounts.store.rating(ids[i], "signorie", 3) for i in range(3)}
    mu0, _ = default_rating()  # where everyone began
    assert after[seat].mu < mu0
    assert after[others[0]].mu > mu0 and after[others[1]].mu > mu0
    assert after[others[0]].mu == pytest.approx(after[others[1]].mu)  # shared first place
    server.store.close()


def test_a_seat_the_bot_played_to_the_end_is_last_for_its_players_rating():
    from tavola.web.accounts import rating_ranks

    clock = Clock(NEW_YEAR)
    server, _ = make("sqlite:///:memory:", clock)
    room = people_game(server, 3)
    state = room.state
    while not state.is_over:
        room.game.apply_in_place(state, room.game.legal_actions(state, state.to_move()[0])[0])
    ranks = list(room.game.ranks(state))
    best = ranks.index(min(ranks))
    room.replaced.add(best)  # the bot played the winner's seat
    out = rating_ranks(room)
    assert out[best] == 1 + max(r for i, r in enumerate(ranks) if i != best)
    assert [r for i, r in enumerate(out) if i != best] == \
        [r for i, r in enumerate(ranks) if i != best]
    server.store.close()


def test_another_process_finds_the_game_ended_when_told_it_changed(db_url):
    """Two servers on one database: a game ended on one is ended on the other at its next
    catch-up (the signal every change sends), though its log did not change."""
    clock = Clock(NEW_YEAR + 210 * DAY)
    server, _ = make(db_url, clock)
    other = GameServer(open_store(db_url), load_sites(["signorie"]), bot_processes=False,
                       clock=clock, bot_delay=0)

    async def main() -> Any:
        room = people_game(server, 2)
        seat = await leave(server, clock, room)
        mirror = other.room(room.id)
        assert mirror is not None and seat in mirror.choices and not mirror.is_over
        await server.leavers.vote(room, 1 - seat, seat, "end")
        assert await other.catch_up(mirror)
        return room, mirror

    room, mirror = asyncio.run(main())
    assert mirror.is_over and mirror.ended == room.ended and mirror.choices == {}
    server.store.close()
    other.store.close()


def test_the_review_of_a_game_ended_early_gives_the_places_of_its_end():
    clock = Clock(NEW_YEAR + 220 * DAY)
    server, _ = make("sqlite:///:memory:", clock)

    async def main() -> Any:
        room = people_game(server, 2)
        seat = await leave(server, clock, room)
        await server.leavers.vote(room, 1 - seat, seat, "end")
        server.start()
        try:
            return room, seat, await server.reviews.get(room, seat, "en", "")
        finally:
            await server.shutdown()

    room, seat, review = asyncio.run(main())
    name = room.params.seats[seat].name
    assert review["result"].startswith(f"{name} finished in place 2 of 2 with")
    server.store.close()



def test_a_player_whose_seat_a_bot_took_too_has_no_say_any_more(db_url):
    """In Gonzaga everyone plans at once: three seats out of time together are taken one after
    the other, and those asked about the first are gone too by the time they could answer
    (the fourth player planned in time, so the game waits for her)."""
    clock = Clock(NEW_YEAR + 230 * DAY)
    server, _ = make(db_url, clock, game="gonzaga")

    async def main() -> None:
        room = server.create({"game": "gonzaga", "seats": [
            {"kind": "person", "name": n} for n in ("Ann", "Bea", "Cem", "Dan")],
            "timing": {"move_seconds": HOUR, "misses": 1}})
        plan = room.game.action_to_json(room.game.legal_actions(room.state, 3)[0])
        await server.act(room, 3, plan, room.seq)
        clock.now = min(room.turn["deadlines"].values())
        assert len(server.turns.check()) == 3
        await settle(server)
        assert room.replaced == {0, 1, 2} and room.choices
        assert any(set(c["voters"]) & room.replaced for c in room.choices.values())
        for seat, choice in room.choices.items():
            for voter in set(choice["voters"]) & room.replaced:
                with pytest.raises(ClientError) as exc:
                    await server.leavers.vote(room, voter, seat, "end")
                assert exc.value.code == "not-yours"
        assert not room.is_over

    asyncio.run(main())
    server.store.close()


def test_the_days_set_on_the_command_line_are_whole_days_in_what_a_player_reads():
    """`--limit vacation_days=5` arrives as 5.0: the refusal said "the 5.0 you have left"."""
    clock = Clock(NEW_YEAR)
    server, accounts = make("sqlite:///:memory:", clock, days=5.0)  # type: ignore[arg-type]
    (ann,) = users(accounts, "Ann")
    with pytest.raises(ClientError) as exc:
        accounts.take_vacation(ann, 6)
    assert "the 5 you have left" in exc.value.message
    assert accounts.vacation_json(ann)["left"] == 5 and \
        isinstance(accounts.vacation_json(ann)["left"], int)
    server.store.close()


def test_another_process_shows_a_vacation_taken_elsewhere_when_told(db_url):
    """Two servers on one database: a vacation taken on one moves the clocks the other shows
    at its next catch-up (the signal `Timekeeper.refresh` sends to every game of the player)."""
    clock = Clock(NEW_YEAR + 240 * DAY)
    server, accounts = make(db_url, clock)
    other, _ = make(db_url, clock)
    ann, bea = users(accounts, "Ann", "Bea")

    async def main() -> Any:
        room = timed_game(server, accounts, [ann, bea])
        mirror = other.room(room.id)
        assert mirror is not None and mirror.turn["vacation"] == {}
        taken = accounts.take_vacation(ann, 2)
        assert room.turn["vacation"] == {room.mover: taken.until}
        assert await other.catch_up(mirror)
        return room, mirror

    room, mirror = asyncio.run(main())
    assert mirror.turn == room.turn
    assert mirror.message_for(None)["timing"]["deadlines"] == room.turn["deadlines"]
    assert not asyncio.run(other.catch_up(mirror))  # nothing new the second time
    server.store.close()
    other.store.close()


def test_two_processes_a_vacation_taken_on_one_reaches_a_watcher_on_the_other(tmp_path):
    """Real processes on one database, signalled through Redis: a spectator connected to the
    second process hears of a vacation taken through the first."""
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed: tests of several processes skipped")
    redis, url = start_redis(tmp_path)
    ports = [free_port(), free_port()]
    procs = [start_server(port, tmp_path / "games.db", redis=url,
                          limits={**LOCAL_LIMITS, "messages_per_second": 0}) for port in ports]
    try:
        ann = Visitor(f"http://127.0.0.1:{ports[0]}")
        ann.sign_up("Ann")
        game = ann.ok("/api/games", {"game": "signorie", "seats": [
            {"kind": "person"}, {"kind": "bot", "bot": "greedy", "name": "Rex"}],
            "timing": {"move_seconds": 86400, "misses": 3}})

        async def watch() -> dict[str, Any]:
            async with websockets.connect(f"ws://127.0.0.1:{ports[1]}/ws/{game['id']}",
                                          max_size=1 << 24) as ws:
                await ws.send(json.dumps({"type": "hello"}))
                while True:  # Ann's seat comes to wait (the bot may move first)
                    msg = json.loads(await ws.recv())
                    if msg["type"] == "state" and 0 in msg["timing"]["to_move"]:
                        break
                await asyncio.sleep(0.5)  # the process follows the game's channel
                taken = await asyncio.to_thread(ann.ok, "/api/me/vacation", {"days": 2})
                while True:
                    msg = json.loads(await ws.recv())
                    if msg["type"] == "state" and msg["timing"].get("vacation"):
                        return {"view": msg, "until": taken["until"]}

        seen = asyncio.run(asyncio.wait_for(watch(), 30))
    finally:
        for proc in (*procs, redis):
            proc.terminate()
            proc.wait(10)
    assert seen["view"]["timing"]["vacation"] == {"0": seen["until"]}
    assert seen["view"]["timing"]["deadlines"]["0"] > seen["until"]
