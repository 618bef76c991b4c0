"""The outbox: what players are to be told, written in the same transaction as its cause.

A move that asks a player to play writes a "your turn" row together with the action itself
(`GameStore.append(..., notices=...)`), so a move is never stored without its notice nor a
notice without its move, whatever stops the server. The sender (`tavola.web.notices`) reads
the rows later, in this process or another, and delivers each once per channel of its
recipient. Every row has a key naming its event (kind, game, move, seat): writing it twice
keeps one row, so a move retried after a conflict, or an event seen by two processes, is one
notice. A seat that moved no longer waits: its pending turn rows are settled in the same
transaction (`settled`), and the sender drops them.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

OUTBOX = """
CREATE TABLE IF NOT EXISTS outbox (
    key TEXT PRIMARY KEY,            -- the event: kind, game, move and seat (see `Notice.key`)
    kind TEXT NOT NULL,              -- turn | finished | clock | nudge | invite | verify | reset
    game_id TEXT,
    seat INTEGER,
    account INTEGER,                 -- the recipient, when the event names one (else the seat's)
    data TEXT NOT NULL,              -- JSON: what the message needs besides the game
    created REAL NOT NULL,
    due REAL NOT NULL,               -- not before (a digest or a delay moves it on)
    state TEXT NOT NULL,             -- new | done | settled (the seat moved: nothing to say)
    lease REAL                       -- a sender holds it until then (several processes)
);
CREATE INDEX IF NOT EXISTS outbox_due ON outbox (state, due);
CREATE INDEX IF NOT EXISTS outbox_seat ON outbox (game_id, seat, state);
"""

INSERT_NOTICE = ("INSERT INTO outbox (key, kind, game_id, seat, account, data, created, due, "
                 "state) VALUES (?,?,?,?,?,?,?,?,'new') ON CONFLICT DO NOTHING")
#: a seat that moved (or a game that ended) waits no more: its turn and clock rows are settled
SETTLE_SEAT = ("UPDATE outbox SET state='settled' WHERE game_id=? AND seat=? AND state='new' "
               "AND kind IN ('turn', 'clock', 'nudge')")  # the kinds that say "play now"


@dataclass(frozen=True)
class Notice:
    """One event for one seat (or one account): a row of the outbox."""

    kind: str
    key: str
    game_id: str | None = None
    seat: int | None = None
    account: int | None = None
    data: dict[str, Any] = field(default_factory=dict)
    due: float | None = None  # None: at once
    at: float | None = None  # when it happened, on the server's clock (None: now)

    def row(self, now: float | None = None) -> tuple[Any, ...]:
        at = self.at if self.at is not None else time.time() if now is None else now
        return (self.key, self.kind, self.game_id, self.seat, self.account,
                json.dumps(self.data), at, at if self.due is None else self.due)


@dataclass(frozen=True)
class Notices:
    """What a change of a game writes to the outbox: new rows, and the seats that no longer
    wait (their pending turn rows are settled)."""

    new: Sequence[Notice] = ()
    settled: Sequence[int] = ()

    def __bool__(self) -> bool:
        return bool(self.new or self.settled)


NONE = Notices()


def write(db: Any, game_id: str, notices: Notices, now: float | None = None) -> None:
    """Write `notices` with `db` (anything with `execute`/`executemany` in the shared dialect),
    inside the caller's transaction. Settling comes first: a seat asked again by this very
    change keeps its new row."""
    for seat in notices.settled:
        db.execute(SETTLE_SEAT, (game_id, seat))
    if notices.new:
        db.executemany(INSERT_NOTICE, [n.row(now) for n in notices.new])


def turn_changes(game_id: str, seq: int, before: Iterable[int], after: Iterable[int],
                 over: bool, people: Iterable[int], at: float | None = None) -> Notices:
    """The notices of a change of a game from a position that asked the people seats `before`
    to one that asks `after` (`seq`: the number of actions now stored). A seat asked anew is
    told it is its turn; a seat no longer asked is settled; a game that ended settles every
    person seat and tells each that it is over."""
    before, after = set(before), set(after)  # `at`: the moment, on the server's clock
    if over:
        seats = sorted(set(people))
        return Notices([Notice("finished", f"finished:{game_id}:{s}", game_id, s, at=at)
                        for s in seats], seats)
    new = [Notice("turn", f"turn:{game_id}:{seq}:{s}", game_id, s, data={"seq": seq}, at=at)
           for s in sorted(after - before)]
    return Notices(new, sorted(before - after))
