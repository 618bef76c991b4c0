"""Turn-based games: a time limit per move, a bot that moves for a player out of time, and a
bot that takes the seat for good after a chosen number of misses.

A game's `timing` (time per move, misses allowed) is stored with its parameters. Each person
seat that may move has a clock: it starts when the seat becomes one that may move (in a
simultaneous phase every waiting seat has its own) and keeps running while the seat goes on
moving (the steps of one turn). The clocks are kept in the game database (`turn_clocks`), so a
restarted server finds every deadline where it was and plays at once the moves whose time
ran out while it was down. Every miss is stored too (`turn_misses`): the log lines saying so
and the seats a bot now plays are rebuilt from it.

Time comes from the server's clock (`GameServer.clock`), which tests replace by one they
advance; limits under an hour are accepted only when the server allows them
(`Limits.min_move_seconds`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .. import registry
from ..text import say
from .botpool import BotFailed, Decision, DecisionTimeout
from .errors import ClientError
from .sidedb import open_tables
from .vacations import Vacations, frozen_deadline

if TYPE_CHECKING:
    from .app import GameServer
    from .room import Room
    from .site import WebGame

log = logging.getLogger("tavola.web.timing")

HOUR = 3600
DAY = 24 * HOUR
#: The limits the lobby offers (None: a live game, no limit).
CHOICES: tuple[int | None, ...] = (None, HOUR, 12 * HOUR, DAY, 3 * DAY)
LONGEST = 7 * DAY
SHORT_CHOICES = (5, 15)  # offered only when the server allows limits in seconds
MISSES = (1, 2, 3, 5)  # misses before a bot takes the seat for good, as the lobby offers them
DEFAULT_MISSES = 3
MOST_MISSES = 10

SCHEMA = """
CREATE TABLE IF NOT EXISTS turn_clocks (
    game_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    started REAL NOT NULL,         -- when the seat began to wait for its move
    deadline REAL NOT NULL,        -- started + the game's time per move
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX IF NOT EXISTS turn_clocks_deadline ON turn_clocks (deadline);
CREATE TABLE IF NOT EXISTS turn_misses (
    game_id TEXT NOT NULL,
    n INTEGER NOT NULL,            -- 0, 1, 2 ... per game
    seat INTEGER NOT NULL,
    seq INTEGER NOT NULL,          -- the action the bot made for the seat
    log_at INTEGER NOT NULL,       -- the game's log length then: where the line goes
    permanent INTEGER NOT NULL,    -- 1: from this miss on a bot plays the seat
    at REAL NOT NULL,
    PRIMARY KEY (game_id, n)
);
"""


def limit_label(seconds: int | None) -> str:
    """A time per move in words."""
    if seconds is None:
        return say("timing.live")
    if seconds < HOUR:
        return say("timing.seconds", n=seconds)
    if seconds < DAY:
        return say("timing.hour") if seconds == HOUR else say("timing.hours", n=seconds // HOUR)
    return say("timing.day") if seconds == DAY else say("timing.days", n=seconds // DAY)


def lobby_json(min_seconds: float) -> dict[str, Any]:
    """The lobby's choices: time per move and misses before a bot takes the seat."""
    short = [s for s in SHORT_CHOICES if s >= min_seconds]
    return {"label": say("timing.move-label"), "misses_label": say("timing.misses-label"),
            "choices": [{"value": s, "label": limit_label(s)} for s in (None, *short,
                                                                        *CHOICES[1:])],
            "misses": [{"value": n, "label": say("timing.miss") if n == 1 else
                        say("timing.misses", n=n)} for n in MISSES],
            "default_misses": DEFAULT_MISSES}


def parse_timing(data: Any, min_seconds: float) -> dict[str, Any] | None:
    """A lobby request's `timing` ({move_seconds, misses}); None for a live game. A limit is
    one the lobby offers, or whole seconds from `min_seconds` to a week."""
    if data is None:
        return None
    if not isinstance(data, dict):
        raise ClientError("bad-timing", say("timing.bad"))
    seconds = data.get("move_seconds")
    if seconds is None:
        return None
    if not isinstance(seconds, int) or isinstance(seconds, bool) or not (
            seconds in CHOICES or max(1, min_seconds) <= seconds <= LONGEST):
        raise ClientError("bad-timing", say("timing.bad"))
    misses = data.get("misses", DEFAULT_MISSES)
    if not isinstance(misses, int) or isinstance(misses, bool) or \
            not 1 <= misses <= MOST_MISSES:
        raise ClientError("bad-timing", say("timing.bad-misses", most=MOST_MISSES))
    return {"move_seconds": seconds, "misses": misses}


def cover_bot(site: WebGame) -> str:
    """The bot that moves for a player out of time: the one the game declares
    (`GameKit.cover_bot`)."""
    return registry.kit(site.game.info.name).cover_bot


def notice(room: Room, seat: int, permanent: bool, misses: int) -> list[dict[str, Any]]:
    """The log lines of a miss (entries shaped like the games' own)."""
    name = room.params.seats[seat].name
    lines = [{"kind": "timeout", "seat": seat, "player": seat, "events": [],
              "say": ("timing.covered", {"name": name})}]  # said in each reader's language
    if permanent:
        lines.append({"kind": "replaced", "seat": seat, "player": seat, "events": [],
                      "say": ("timing.replaced", {"name": name, "misses": misses})
                      if misses > 1 else ("timing.replaced-one", {"name": name})})
    return lines


class TurnClocks:
    """The clocks and misses of turn-based games, in the game database."""

    def __init__(self, where: Any) -> None:
        """In the SQLite file `where` names, or the database of the game store `where`."""
        self.db = open_tables(where, "turns", SCHEMA)

    def started(self, game_id: str) -> dict[int, float]:
        return {int(seat): float(at) for seat, at in self.db.rows(
            "SELECT seat, started FROM turn_clocks WHERE game_id=?", (game_id,))}

    def set(self, game_id: str, started: dict[int, float], deadlines: dict[int, float]
            ) -> None:
        """The seats now waiting, since when and until when (replacing what was stored)."""
        with self.db.tx() as db:
            db.execute("DELETE FROM turn_clocks WHERE game_id=?", (game_id,))
            db.executemany("INSERT INTO turn_clocks (game_id, seat, started, deadline) "
                           "VALUES (?,?,?,?)",
                           [(game_id, s, at, deadlines[s]) for s, at in started.items()])

    def due(self, now: float) -> list[tuple[str, int]]:
        return [(str(g), int(s)) for g, s in self.db.rows(
            "SELECT game_id, seat FROM turn_clocks WHERE deadline <= ? ORDER BY deadline",
            (now,))]

    def add_miss(self, game_id: str, seat: int, seq: int, log_at: int, permanent: bool,
                 at: float) -> None:
        with self.db.tx() as db:
            (n,) = db.execute("SELECT COUNT(*) FROM turn_misses WHERE game_id=?",
                              (game_id,)).fetchone()
            db.execute("INSERT INTO turn_misses (game_id, n, seat, seq, log_at, permanent, at) "
                       "VALUES (?,?,?,?,?,?,?)",
                       (game_id, n, seat, seq, log_at, int(permanent), at))

    def misses(self, game_id: str) -> list[tuple[int, int, bool]]:
        """(seat, log position, permanent) of every miss of a game, in order."""
        return [(int(s), int(at), bool(p)) for s, at, p in self.db.rows(
            "SELECT seat, log_at, permanent FROM turn_misses WHERE game_id=? ORDER BY n",
            (game_id,))]

    def close(self) -> None:
        self.db.close()


class Timekeeper:
    """The server's side of turn-based games: clocks, deadlines, bots moving for the late."""

    def __init__(self, server: GameServer, where: Any, clock: Callable[[], float]) -> None:
        self.server = server
        self.clock = clock
        self.clocks = TurnClocks(where)
        self._started: dict[str, dict[int, float]] = {}  # game -> seat -> waiting since
        # game -> (seq, clocks) before its last move: an undo back to that seq finds them
        self._before: dict[str, tuple[int, dict[int, float]]] = {}
        self._foreign: set[str] = set()  # clocks of games this server cannot open

    def parse(self, data: Any) -> dict[str, Any] | None:
        timing = data.get("timing") if isinstance(data, dict) else None
        return parse_timing(timing, self.server.limits.min_move_seconds)

    @staticmethod
    def seconds(room: Room) -> int | None:
        timing = room.params.timing
        return None if not timing else timing.get("move_seconds")

    # -- following a game --------------------------------------------------------------------

    def attach(self, room: Room) -> None:
        """A game comes into memory (new, resumed, loaded): its misses, seats a bot took for
        good, and clocks as stored."""
        if self.seconds(room) is None:
            return
        counts: dict[int, int] = {}
        for seat, log_at, permanent in self.clocks.misses(room.id):
            counts[seat] = counts.get(seat, 0) + 1
            room.notices.extend((log_at, line) for line in
                                notice(room, seat, permanent, counts[seat]))
            if permanent:
                room.replaced.add(seat)
                room.bots[seat] = cover_bot(room.site)
        self.server.leaving.attach(room)
        self._started[room.id] = self.clocks.started(room.id)
        self.changed(room)

    def attach_again(self, room: Room) -> None:
        """Another server process moved in this game: its misses and clocks as stored now."""
        if self.seconds(room) is None:
            return
        room.notices.clear()
        room.replaced.clear()
        room.bots = room.seated_bots()
        self.attach(room)
        if self.server.moderation is not None:  # seats bots took from suspended players
            self.server.moderation.attach(room)

    def changed(self, room: Room) -> None:
        """After every change of a game: a clock for each person seat that now may move (kept
        for a seat that was already waiting), none for the others. A move taken back gives
        the mover its clock as it was before the move, so move and undo never buy time."""
        seconds = self.seconds(room)
        if seconds is None:
            return
        have = self._started.get(room.id, {})
        seq, before = self._before.get(room.id, (-1, {}))
        if seq == room.seq:  # back where the last move started: an undo
            have = {**have, **before}
        elif room.before is not None:  # a move that may be taken back
            self._before[room.id] = (room.seq - 1, have)
        waiting = room.asked()
        now = self.clock()
        started = {s: have.get(s, now) for s in waiting}
        if started != self._started.get(room.id, {}):
            self.clocks.set(room.id, started, self._deadlines(room, started, seconds))
            self._started[room.id] = started
        self._show(room, started, seconds)

    def _show(self, room: Room, started: dict[int, float], seconds: int) -> bool:
        """The clocks as clients see them; True if that changed."""
        missed: dict[int, int] = {}
        for _, line in room.notices:
            if line["kind"] == "timeout":
                missed[line["seat"]] = missed.get(line["seat"], 0) + 1
        holders = self._holders(room)
        away = {} if self.vacations is None else \
            self.vacations.on_vacation(holders, self.clock())
        turn = {"move_seconds": seconds, "misses": room.params.timing["misses"],
                "deadlines": self._deadlines(room, started, seconds, holders),
                "missed": missed, "replaced": sorted(room.replaced), "vacation": away}
        if turn == room.turn:
            return False
        room.turn = turn
        room.touch()
        return True

    # -- vacations (`tavola.web.vacations`) -------------------------------------------------

    @property
    def vacations(self) -> Vacations | None:
        accounts = self.server.accounts
        return None if accounts is None else accounts.vacations

    def _holders(self, room: Room) -> dict[int, int]:
        """seat -> the account holding it (none without accounts)."""
        accounts = self.server.accounts
        return {} if accounts is None else accounts.store.holders(room.id)

    def _deadlines(self, room: Room, started: dict[int, float], seconds: int,
                   holders: dict[int, int] | None = None) -> dict[int, float]:
        """Each waiting seat's deadline, its player's vacations standing its clock still."""
        if self.vacations is None or not started:
            return {s: at + seconds for s, at in started.items()}
        holders = self._holders(room) if holders is None else holders
        out = {}
        for seat, at in started.items():
            user = holders.get(seat)
            out[seat] = at + seconds if user is None else \
                frozen_deadline(at, seconds, self.vacations.of(user))
        return out

    def _vacation_day(self, room: Room, seat: int, deadline: float) -> bool:
        """The seat's clock ran out at `deadline`: a day of its player's vacation from then,
        if they have one left this year (`Limits.vacation_days`). True if one was taken."""
        vacations, user = self.vacations, self._holders(room).get(seat)
        if vacations is None or user is None:
            return False
        try:
            vacations.take(user, 1, deadline, auto=True)
        except ClientError:
            return False  # no day left this year
        self.refresh(user)
        return True

    def refresh(self, user_id: int) -> None:
        """A player's vacation began or ended: the clocks of their games as clients see them,
        here and (told by a signal) on the other processes."""
        accounts, cluster = self.server.accounts, self.server.cluster
        for room in list(self.server.rooms.values()):
            if user_id in self._holders(room).values() and self.reshow(room):
                self.server.broadcast(room)
        if cluster is not None and accounts is not None:
            for game in accounts.store.games_of(user_id):
                if game["status"] == "playing":
                    cluster.signal(game["id"])

    def reshow(self, room: Room) -> bool:
        """The game's clocks as clients see them, its players' vacations read again; True if
        that changed."""
        seconds = self.seconds(room)
        return seconds is not None and self._show(room, self._started.get(room.id, {}),
                                                  seconds)

    def forget(self, game_id: str) -> None:
        self._started.pop(game_id, None)
        self._before.pop(game_id, None)

    # -- deadlines ---------------------------------------------------------------------------

    async def run_forever(self, every: float) -> None:
        while True:
            try:
                self.check()
            except Exception:  # a bug here must not stop the clocks of every game
                log.exception("checking the turn clocks")
            await asyncio.sleep(every)

    def check(self, now: float | None = None) -> list[tuple[str, int]]:
        """Start a bot for every seat whose time is up, and decide the leavers' choices whose
        time is up; returns the (game, seat) covered."""
        now = self.clock() if now is None else now
        for game_id, seat in self.server.leaving.due(now):
            room = self.server.room(game_id)
            if room is not None:
                self.server.spawn(self.server.leavers.decide(room, seat, None))
        started = []
        for game_id, seat in self.clocks.due(now):
            if game_id in self._foreign or (game_id, seat) in self.server.pending_bots:
                continue
            room = self.server.room(game_id)
            if room is None:
                self._foreign.add(game_id)
                continue
            if self._has_time(room, seat, now):
                continue
            self.server.pending_bots.add((game_id, seat))
            self.server.spawn(self.cover(room, seat))
            started.append((game_id, seat))
        if self.server.notifier is not None:
            self.server.notifier.clocks(now)
        return started

    def _has_time(self, room: Room, seat: int, now: float) -> bool:
        """Whether the seat still has time at `now`: its clock did not run out, or it ran
        out and its player had vacation days, taken a day at a time."""
        seconds = self.seconds(room)
        since = self._started.get(room.id, {}).get(seat)
        if seconds is None or since is None:
            return True
        deadline = self._deadlines(room, {seat: since}, seconds)[seat]
        while deadline <= now:
            if not self._vacation_day(room, seat, deadline):
                return False
            deadline = self._deadlines(room, {seat: since}, seconds)[seat]
        return True

    async def cover(self, room: Room, seat: int) -> None:
        """A bot plays the seat's moves until it is no longer the seat's to make (the steps
        of one turn); one miss. The seat's clock starts again, so a player who comes back
        in the middle has a whole limit for what remains."""
        server = self.server
        try:
            self._restart(room, seat)
            first = True
            while not room.is_over and seat in room.state.to_move() \
                    and seat not in room.bots:
                if not await self._cover_one(room, seat, first):
                    break
                first = False
        except (DecisionTimeout, BotFailed) as exc:
            log.warning("covering seat %s of %s: %s", seat, room.id, exc)
        finally:
            server.pending_bots.discard((room.id, seat))
        if room.id in server.rooms:
            server.kick_bots(room)

    async def _cover_one(self, room: Room, seat: int, first: bool) -> bool:
        """One move of the cover bot; False if the game moved on without it."""
        server = self.server
        seq = room.seq
        state = room.state
        action = await server.bots.decide(Decision(
            room.game.info.name, cover_bot(room.site), room.params.bot_seed,
            room.game.setup_of(state), tuple(state.history), seat, game_id=room.id))
        log_at = room.site.log_length(room.game.view(room.state, None))

        def after_commit() -> None:
            room.before = None  # a bot's move is never taken back
            if first:
                self._missed(room, seat, seq, log_at)

        try:
            await server.act(room, seat, room.game.action_to_json(action), seq,
                             after_commit=after_commit, by_bot=True)
        except ClientError:
            return False  # the player moved meanwhile, or the game went on
        return True

    def _restart(self, room: Room, seat: int) -> None:
        seconds = self.seconds(room)
        started = dict(self._started.get(room.id, {}))
        if seconds is None or seat not in started:
            return
        started[seat] = self.clock()
        self.clocks.set(room.id, started, self._deadlines(room, started, seconds))
        self._started[room.id] = started
        self._show(room, started, seconds)

    def _missed(self, room: Room, seat: int, seq: int, log_at: int) -> None:
        """A miss: stored, said in the log; the last one allowed gives the seat to the bot."""
        assert room.params.timing is not None
        count = 1 + sum(line["kind"] == "timeout" and line["seat"] == seat
                        for _, line in room.notices)
        permanent = count >= room.params.timing["misses"]
        self.clocks.add_miss(room.id, seat, seq, log_at, permanent, self.clock())
        room.notices.extend((log_at, line) for line in notice(room, seat, permanent, count))
        if permanent:
            room.replaced.add(seat)
            room.bots[seat] = cover_bot(room.site)
            self.server.leavers.open(room, seat)
        room.touch()

    def close(self) -> None:
        self.clocks.close()
