"""Hints at the web table: a person asks, the search answers in a bot worker, only to them.

A hint is allowed in a game created with hints on (`GameParams.hints`: on by default for an
unlisted, unrated game; in a listed or rated game only if its creator allowed them, which
everyone who joins sees first). It is asked on the seat's own turn, one at a time per seat,
and computed from the seat's view in a worker process of the server's advice pool
(`GameServer.advice`, never the bots' workers), so neither the server nor another game's bots
wait for it. Hints never queue: when every advice worker is at work the asker is told `busy`
at once; each address and each account (a seat without one) has its own rate; and while hints
are in demand (some were turned away lately) each gets a smaller share of the search.
Every seat's count of hints is stored with the game, shown at the table to everyone, and
written into the game's record.
"""

from __future__ import annotations

import json
import logging
import secrets
from collections import deque
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

from ..text import say
from .botpool import Decision
from .errors import ClientError
from .limits import RateLimited, RateLimiter
from .sidedb import open_tables

if TYPE_CHECKING:
    from .app import GameServer
    from .connection import Connection
    from .room import Room

log = logging.getLogger("tavola.web.hinting")
DEMAND_SECONDS = 10.0  # hints turned away this recently make the next ones shorter
MIN_BUDGET = 0.25  # the least share of the search a hint gets when hints are in demand

SCHEMA = ["""
CREATE TABLE IF NOT EXISTS hints_used (
    game_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    count INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
);
""", """
CREATE TABLE IF NOT EXISTS hints_given (
    game_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    at INTEGER NOT NULL,
    moves TEXT NOT NULL,
    PRIMARY KEY (game_id, seat, at)
);
"""]


class Hinting:
    """The server's side of hints: checks, the worker's answer, the counts."""

    def __init__(self, server: GameServer, where: Any, clock: Callable[[], float]) -> None:
        self.server = server
        self.db = open_tables(where, "hints", SCHEMA)
        self.now = clock  # the time of the rates and of the demand (the server's clock)
        self.asking: set[tuple[str, int]] = set()  # (game, seat) with a hint being computed
        limits = server.limits
        self.address_limit = RateLimiter(limits.address_hints_per_minute / 60,
                                         limits.address_hint_burst)
        self.player_limit = RateLimiter(limits.hints_per_minute / 60, limits.hint_burst)
        self.turned_away: deque[float] = deque(maxlen=1000)  # when hints were refused `busy`

    def attach(self, room: Room) -> None:
        """A game comes into memory: its seats' counts as stored."""
        rows = self.db.rows("SELECT seat, count FROM hints_used WHERE game_id=?", (room.id,))
        room.hints_used = {int(seat): int(count) for seat, count in rows}

    def check(self, conn: Connection, room: Room, seq: Any) -> int:
        """The seat that may have a hint now; a `ClientError` says why not."""
        seat = conn.seat
        if seat is None:
            raise ClientError("spectator", say("hint.spectator"))
        if not room.params.hints:
            raise ClientError("hints-off", say("hint.off"))
        state = room.state
        if room.is_over or seat not in state.to_move() or seat in room.bots:
            raise ClientError("not-your-turn", say("hint.not-your-turn"))
        room.check_seq(seq)
        if (room.id, seat) in self.asking:
            raise ClientError("hint-busy", say("hint.busy"))
        return seat

    def _rates(self, conn: Connection, room: Room, seat: int
               ) -> list[tuple[RateLimiter, str, str]]:
        """Each address, and each account (or seat, for one no account holds), has its rate."""
        accounts = self.server.accounts
        holder = None if accounts is None else accounts.store.seat_holder(room.id, seat)
        player = f"seat {room.id} {seat}" if holder is None else f"account {holder}"
        return [(self.player_limit, player, "hint.what-player"),
                (self.address_limit, address_of(conn), "hint.what-address")]

    def ask(self, conn: Connection, room: Room, seq: Any) -> None:
        """Check now (a refusal is immediate), take an advice worker now (`busy` when none is
        free), then compute in the background: the player may go on playing meanwhile, and
        the answer goes to this connection alone. The job is the position as it is now, when
        it was checked: a move arriving before the worker starts cannot change it. Only a
        hint that starts counts in the rates (`busy` costs the asker nothing)."""
        seat = self.check(conn, room, seq)
        pool, now = self.server.advice, self.now()
        if not pool.has_free():  # before anything costs a look-up
            raise self._busy(now)
        rates = self._rates(conn, room, seat)
        for limit, key, what in rates:
            wait = limit.allow(key, now, count=False)
            if wait:
                raise RateLimited(wait, say(what))
        job = Decision(room.game.info.name, "hint", secrets.randbits(63),
                       room.params.setup or {}, tuple(room.state.history), seat, kind="hint",
                       lang=conn.lang, budget=self.budget(), game_id=room.id)
        work = pool.decide_now(job)
        if work is None:  # not after `has_free`: nothing ran in between
            raise self._busy(now)
        for limit, key, _ in rates:
            limit.allow(key, now)
        self.asking.add((room.id, seat))
        self.server.spawn(self._answer(conn, room, seat, (room.seq, room.decision_start()),
                                        work))

    def _busy(self, now: float) -> ClientError:
        """The answer when every advice worker is at work; it counts as demand (`budget`)."""
        self.turned_away.append(now)
        return ClientError("busy", say("hint.server-busy"))

    def budget(self) -> float:
        """The share of the search the next hint gets: all of it unless hints are in demand
        (other advice workers at work, hints turned away in the last `DEMAND_SECONDS`)."""
        since = self.now() - DEMAND_SECONDS
        while self.turned_away and self.turned_away[0] < since:
            self.turned_away.popleft()
        pool = self.server.advice
        demand = (pool.at_work + len(self.turned_away)) / max(1, pool.size)
        return max(MIN_BUDGET, 1 / (1 + demand))

    async def _answer(self, conn: Connection, room: Room, seat: int, asked: tuple[int, int],
                      work: Coroutine[Any, Any, Any]) -> None:
        """Send the worker's answer, unless the decision it was about is over (`stale`)."""
        at, decision = asked
        try:
            moves = await work
        except Exception as exc:  # a worker that failed or ran out of time
            log.warning("hint for game %s seat %s: %s", room.id, seat, exc)
            conn.send(json.dumps({"type": "error", "code": "hint-failed",
                                  "message": say("hint.failed")}))
            return
        finally:
            self.asking.discard((room.id, seat))
        if seat not in room.state.to_move() or room.decision_start() > decision:
            conn.send(json.dumps({"type": "error", "code": "stale",
                                  "message": say("hint.stale")}))
            return  # the position it was about is gone
        self._count(room, seat)
        self._keep(room, seat, len(room.state.history), moves)
        conn.send(json.dumps({"type": "hint", "seq": at, "decision": decision,
                              "moves": moves}))
        self.server.presence(room)  # everyone sees the seat's count

    def _count(self, room: Room, seat: int) -> None:
        room.hints_used[seat] = room.hints_used.get(seat, 0) + 1
        with self.db.tx() as db:
            db.execute("INSERT INTO hints_used (game_id, seat, count) VALUES (?, ?, ?) "
                       "ON CONFLICT (game_id, seat) DO UPDATE SET count = excluded.count",
                       (room.id, seat, room.hints_used[seat]))

    def _keep(self, room: Room, seat: int, at: int, moves: list[dict[str, Any]]) -> None:
        """The moves a hint gave (best first), for the game's review: a move that followed
        a hint is reviewed knowing it (`tavola.review`)."""
        actions = json.dumps([m["action"] for m in moves])
        with self.db.tx() as db:
            db.execute("INSERT INTO hints_given (game_id, seat, at, moves) VALUES (?, ?, ?, ?) "
                       "ON CONFLICT (game_id, seat, at) DO UPDATE SET moves = excluded.moves",
                       (room.id, seat, at, actions))

    def given(self, room: Room, seat: int) -> tuple[tuple[int, tuple[Any, ...]], ...]:
        """The seat's hints in the game: (actions played when given, its moves as JSON)."""
        rows = self.db.rows("SELECT at, moves FROM hints_given WHERE game_id=? AND seat=? "
                            "ORDER BY at", (room.id, seat))
        return tuple((int(at), tuple(json.loads(moves))) for at, moves in rows)

    def record_counts(self, room: Room) -> dict[int, int] | None:
        """What a game's record says of hints: each seat's count, or nothing when hints were
        not allowed."""
        if not room.params.hints:
            return None
        return {i: room.hints_used.get(i, 0) for i in range(len(room.params.seats))}

    def close(self) -> None:
        self.db.close()


def address_of(conn: Connection) -> str:
    """The client address of a connection ("" when unknown)."""
    client = getattr(getattr(conn, "ws", None), "client", None)
    return client.host if client is not None else ""
