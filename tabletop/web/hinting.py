"""Hints at the web table: a person asks, the search answers in a bot worker, only to them.

A hint is allowed in a game created with hints on (`GameParams.hints`: on by default for an
unlisted, unrated game; in a listed or rated game only if its creator allowed them, which
everyone who joins sees first). It is asked on the seat's own turn, one at a time per seat,
and computed from the seat's view in a bot worker process, so neither the server nor another
game waits for it. Every seat's count of hints is stored with the game, shown at the table to
everyone, and written into the game's record.
"""

from __future__ import annotations

import json
import logging
import secrets
from typing import TYPE_CHECKING, Any

from ..text import say
from .botpool import Decision
from .errors import ClientError
from .sidedb import open_tables

if TYPE_CHECKING:
    from .app import GameServer
    from .connection import Connection
    from .room import Room

log = logging.getLogger("tabletop.web.hinting")

SCHEMA = """
CREATE TABLE IF NOT EXISTS hints_used (
    game_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    count INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
);
"""


class Hinting:
    """The server's side of hints: checks, the worker's answer, the counts."""

    def __init__(self, server: GameServer, where: Any) -> None:
        self.server = server
        self.db = open_tables(where, "hints", SCHEMA)
        self.asking: set[tuple[str, int]] = set()  # (game, seat) with a hint being computed

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
        if state.is_over or seat not in state.to_move() or seat in room.bots:
            raise ClientError("not-your-turn", say("hint.not-your-turn"))
        room.check_seq(seq)
        if (room.id, seat) in self.asking:
            raise ClientError("hint-busy", say("hint.busy"))
        return seat

    def ask(self, conn: Connection, room: Room, seq: Any) -> None:
        """Check now (a refusal is immediate), then compute in the background: the player
        may go on playing meanwhile, and the answer goes to this connection alone."""
        seat = self.check(conn, room, seq)
        self.asking.add((room.id, seat))
        self.server._spawn(self._answer(conn, room, seat))

    async def _answer(self, conn: Connection, room: Room, seat: int) -> None:
        at = room.seq
        job = Decision(room.game.info.name, "hint", secrets.randbits(63),
                       room.params.setup or {}, tuple(room.state.history), seat, kind="hint",
                       lang=conn.lang)
        try:
            moves = await self.server.bots.decide(job)
        except Exception as exc:  # a worker that failed or ran out of time
            log.warning("hint for game %s seat %s: %s", room.id, seat, exc)
            conn.send(json.dumps({"type": "error", "code": "hint-failed",
                                  "message": say("hint.failed")}))
            return
        finally:
            self.asking.discard((room.id, seat))
        if seat not in room.state.to_move() or room.decision_start() > at:
            conn.send(json.dumps({"type": "error", "code": "stale",
                                  "message": say("hint.stale")}))
            return  # the position it was about is gone
        self._count(room, seat)
        conn.send(json.dumps({"type": "hint", "seq": at, "decision": room.decision_start(),
                              "moves": moves}))
        self.server.presence(room)  # everyone sees the seat's count

    def _count(self, room: Room, seat: int) -> None:
        room.hints_used[seat] = room.hints_used.get(seat, 0) + 1
        with self.db.tx() as db:
            db.execute("INSERT INTO hints_used (game_id, seat, count) VALUES (?, ?, ?) "
                       "ON CONFLICT (game_id, seat) DO UPDATE SET count = excluded.count",
                       (room.id, seat, room.hints_used[seat]))

    def record_counts(self, room: Room) -> dict[int, int] | None:
        """What a game's record says of hints: each seat's count, or nothing when hints were
        not allowed."""
        if not room.params.hints:
            return None
        return {i: room.hints_used.get(i, 0) for i in range(len(room.params.seats))}

    def close(self) -> None:
        self.db.close()
