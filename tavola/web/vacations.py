"""Vacations: days a signed-in player takes off, during which the clocks of all their
turn-based games stand still.

Each account has `Limits.vacation_days` days per calendar year (UTC); a vacation's days count
in the year it starts. The unit is a whole day. A player takes a vacation from the account
page (from now, or from the end of the vacation they are on, for some days) and may end it
early, which gives back the days not begun; when a seat's clock runs out and its account has
days left, a day is taken for them automatically, from the moment the clock ran out, a day at
a time before the cover bot moves for them (`Timekeeper.check`).

A vacation freezes every clock of the player's seats: a clock running when it starts has its
deadline moved by the vacation's length, and a clock that starts during one begins to run
when it ends (`frozen_deadline`). The vacations are rows of `vacations` in the game database,
shared by every server process; taking one moves the stored deadlines in the same transaction.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from ..text import say
from .errors import ClientError
from .sidedb import open_tables

DAY = 86_400
DAYS_PER_YEAR = 14  # `Limits.vacation_days`

SCHEMA = """
CREATE TABLE IF NOT EXISTS vacations (
    user_id INTEGER NOT NULL,
    start REAL NOT NULL,
    until REAL NOT NULL,
    days INTEGER NOT NULL,         -- whole days, counted in the allowance of start's year
    year INTEGER NOT NULL,         -- the calendar year (UTC) of start
    auto INTEGER NOT NULL,         -- 1: taken when a clock ran out
    PRIMARY KEY (user_id, start)
);
"""

# the clocks of one account's seats (`turn_clocks`, `game_players`: the same database)
_THEIR_CLOCKS = ("EXISTS (SELECT 1 FROM game_players p WHERE p.game_id = turn_clocks.game_id "
                 "AND p.seat = turn_clocks.seat AND p.user_id = ?)")


@dataclass(frozen=True)
class Vacation:
    start: float
    until: float
    days: int
    auto: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"start": self.start, "until": self.until, "days": self.days, "auto": self.auto}


def year_of(at: float) -> int:
    return datetime.fromtimestamp(at, UTC).year


def frozen_deadline(started: float, seconds: float, vacations: list[Vacation]) -> float:
    """A clock's deadline, every vacation of its player standing it still: one that begins
    while it runs (or as it runs out) adds its length, one it starts in adds what is left."""
    deadline = started + seconds
    for v in sorted(vacations, key=lambda v: v.start):
        if v.until > started and v.start <= deadline:
            deadline += v.until - max(v.start, started)
    return deadline


class Vacations:
    """The vacations of every account, in the game database."""

    def __init__(self, where: Any, days_per_year: int = DAYS_PER_YEAR) -> None:
        self.db = open_tables(where, "vacations", SCHEMA)
        self.days_per_year = int(days_per_year)  # `--limit` gives numbers as floats

    def of(self, user_id: int) -> list[Vacation]:
        return [Vacation(float(s), float(u), int(d), bool(a)) for s, u, d, a in self.db.rows(
            "SELECT start, until, days, auto FROM vacations WHERE user_id=? ORDER BY start",
            (user_id,))]

    def days_left(self, user_id: int, year: int) -> int:
        ((used,),) = self.db.rows("SELECT COALESCE(SUM(days), 0) FROM vacations WHERE "
                                  "user_id=? AND year=?", (user_id, year))
        return max(0, self.days_per_year - int(used))

    def until(self, user_id: int, now: float) -> float | None:
        """When the vacation the player is on at `now` ends (vacations that follow each other
        are one); None if they are not on one."""
        end = None
        for v in self.of(user_id):
            if v.start <= (now if end is None else end) < v.until:
                end = v.until
        return end

    def on_vacation(self, user_ids: dict[int, int], now: float) -> dict[int, float]:
        """seat -> the end of its player's vacation, for the seats (seat -> account) whose
        player is on one."""
        out = {}
        for seat, user in user_ids.items():
            end = self.until(user, now)
            if end is not None:
                out[seat] = end
        return out

    def take(self, user_id: int, days: Any, now: float, *, auto: bool = False) -> Vacation:
        """A vacation of `days` whole days from `now`, or from the end of the one the player
        is on; the clocks of their seats stand still meanwhile. `ClientError` when the days
        are not a whole number from 1 to what is left of the year's allowance."""
        start = self.until(user_id, now) or now
        left = self.days_left(user_id, year_of(start))
        if not isinstance(days, int) or isinstance(days, bool) or not 1 <= days <= left:
            if left == 0:
                raise ClientError("no-vacation-days", say("vacation.none-left",
                                                          days=self.days_per_year))
            raise ClientError("bad-vacation", say("vacation.days", left=left))
        v = Vacation(start, start + days * DAY, days, auto)
        with self.db.tx() as db:
            db.execute("INSERT INTO vacations (user_id, start, until, days, year, auto) "
                       "VALUES (?,?,?,?,?,?)",
                       (user_id, v.start, v.until, days, year_of(start), int(auto)))
            db.execute(f"UPDATE turn_clocks SET deadline = deadline + ? WHERE deadline >= ? "
                       f"AND {_THEIR_CLOCKS}", (v.until - v.start, v.start, user_id))
        return v

    def end(self, user_id: int, now: float) -> int:
        """End the player's vacation now: the days not begun are given back (those of a
        vacation that follows it too), the clocks run again. Returns the days given back."""
        later = [v for v in self.of(user_id) if v.until > now]
        if not later or later[0].start > now:
            raise ClientError("not-on-vacation", say("vacation.not-on"))
        back = sum(v.until - max(v.start, now) for v in later)
        current = later[0]
        kept = max(1, math.ceil((now - current.start) / DAY))
        with self.db.tx() as db:
            db.execute("UPDATE vacations SET until=?, days=? WHERE user_id=? AND start=?",
                       (now, kept, user_id, current.start))
            for v in later[1:]:
                db.execute("DELETE FROM vacations WHERE user_id=? AND start=?",
                           (user_id, v.start))
            db.execute(f"UPDATE turn_clocks SET deadline = deadline - ? WHERE deadline >= ? "
                       f"AND {_THEIR_CLOCKS}", (back, now, user_id))
        return sum(v.days for v in later) - kept

    def close(self) -> None:
        self.db.close()
