"""Leavers: when a bot takes a seat for good (its player missed their last allowed move), the
other people at the table choose between letting the bot play the seat to the end and ending
the game now.

The choice is open to the person seats still played by people, other than the leaver's, when
it opens (one a bot takes meanwhile loses its say); each sends `bot` or `end` and may change
their mind until it is decided. More than half for `end` ends the game; at least half for
`bot` (a tie included) keeps the bot. When the game's time per move has passed since it
opened, the answers given decide (`end` only when more chose it than `bot`; no answer keeps
the bot). Meanwhile the bot plays the seat, as it would anyway.

A game ended this way is over with a result of its own (`ranks`): the leaver last, the others
placed by their scores at that moment (equal scores share a place). It is stored in
`game_endings` and carried by the views, the lobby line and the game's record; ratings read it
in `Accounts.game_over` (see docs/web.md). Choices and their votes are rows of `leave_choices`
and `leave_votes`, so every server process and a restart see the same ones.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from ..text import say
from .errors import ClientError
from .sidedb import open_tables
from .timing import DAY

if TYPE_CHECKING:
    from .room import Room
    from .storage import GameStore

CHOICES = ("bot", "end")

SCHEMA = """
CREATE TABLE IF NOT EXISTS leave_choices (
    game_id TEXT NOT NULL,
    seat INTEGER NOT NULL,         -- the seat a bot took for good
    opened REAL NOT NULL,
    closes REAL NOT NULL,          -- the answers given by then decide
    voters TEXT NOT NULL,          -- JSON list of the seats that choose
    outcome TEXT,                  -- NULL while open, then 'bot' or 'end'
    log_at INTEGER,                -- the game's log length when it was decided
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX IF NOT EXISTS leave_choices_closes ON leave_choices (closes);
CREATE TABLE IF NOT EXISTS leave_votes (
    game_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    voter INTEGER NOT NULL,
    choice TEXT NOT NULL,
    PRIMARY KEY (game_id, seat, voter)
);
CREATE TABLE IF NOT EXISTS game_endings (
    game_id TEXT PRIMARY KEY,
    leaver INTEGER NOT NULL,
    ranks TEXT NOT NULL,           -- JSON: every seat's place, 1 = first
    log_at INTEGER NOT NULL,
    at REAL NOT NULL
);
"""


def outcome(votes: dict[int, str], voters: int, closed: bool) -> str | None:
    """What the votes decide: `end`, `bot`, or None while the choice stays open."""
    ends = sum(v == "end" for v in votes.values())
    bots = len(votes) - ends
    if 2 * ends > voters:
        return "end"
    if 2 * bots >= voters:
        return "bot"
    if closed:
        return "end" if ends > bots else "bot"
    return None


def leaver_ranks(scores: tuple[int, ...] | list[int], leaver: int) -> list[int]:
    """The places of a game ended early: the leaver last, the others by their scores (equal
    scores share a place, competition ranking)."""
    others = [s for i, s in enumerate(scores) if i != leaver]
    return [len(others) + 1 if i == leaver else 1 + sum(o > s for o in others)
            for i, s in enumerate(scores)]


def notice(room: Room, seat: int, decided: str) -> dict[str, Any]:
    """The log line of a decided choice (said in each reader's language)."""
    name = room.params.seats[seat].name
    return {"kind": "left" if decided == "end" else "bot-plays", "seat": seat,
            "player": seat, "events": [],
            "say": ("leave.ended" if decided == "end" else "leave.bot-plays", {"name": name})}


def ended_words(room: Room, seat: int) -> str:
    """How a game ended early went for `seat`, as a review says it (`review.result_words`)."""
    assert room.ended is not None
    ranks, names = room.ended["ranks"], [s.name for s in room.params.seats]
    return say("review.result", name=names[seat], place=ranks[seat], players=len(ranks),
               points=room.game.scores(room.state)[seat], winner=names[ranks.index(1)])


class LeaveChoices:
    """The choices, votes and early endings of games, in the game database."""

    def __init__(self, where: Any, clock: Callable[[], float]) -> None:
        self.db = open_tables(where, "leaving", SCHEMA)
        self.clock = clock

    # -- reading a game's ------------------------------------------------------------------

    def attach(self, room: Room, *, only_open: bool = False) -> None:
        """A game comes into memory: its open choices, decided ones' log lines, its ending
        (`only_open`: the open choices alone, another process having opened one)."""
        room.choices = {}
        for seat, closes, voters, decided, log_at in self.db.rows(
                "SELECT seat, closes, voters, outcome, log_at FROM leave_choices "
                "WHERE game_id=?", (room.id,)):
            if decided is None:
                room.choices[int(seat)] = {"closes": float(closes),
                                           "voters": json.loads(voters),
                                           "votes": self._votes(room.id, int(seat))}
            elif only_open:
                continue
            elif decided == "bot":
                room.notices.append((int(log_at), notice(room, int(seat), "bot")))
        if only_open:
            return
        rows = self.db.rows("SELECT leaver, ranks, log_at FROM game_endings WHERE game_id=?",
                            (room.id,))
        if rows:
            leaver, ranks, log_at = rows[0]
            room.ended = {"leaver": int(leaver), "ranks": json.loads(ranks)}
            room.notices.append((int(log_at), notice(room, int(leaver), "end")))

    def _votes(self, game_id: str, seat: int) -> dict[int, str]:
        return {int(v): str(c) for v, c in self.db.rows(
            "SELECT voter, choice FROM leave_votes WHERE game_id=? AND seat=?",
            (game_id, seat))}

    # -- the choice --------------------------------------------------------------------------

    def open(self, room: Room, seat: int, seconds: float) -> list[int]:
        """A bot took `seat` for good: the others choose, until `seconds` from now. Returns
        the seats asked (none: nobody to ask, the bot plays on)."""
        voters = [i for i, s in enumerate(room.params.seats)
                  if s.kind == "person" and i != seat and i not in room.replaced]
        if not voters or room.is_over:
            return []
        now = self.clock()
        with self.db.tx() as db:
            db.execute("INSERT INTO leave_choices (game_id, seat, opened, closes, voters) "
                       "VALUES (?,?,?,?,?) ON CONFLICT DO NOTHING",
                       (room.id, seat, now, now + seconds, json.dumps(voters)))
        room.choices[seat] = {"closes": now + seconds, "voters": voters, "votes": {}}
        room.touch()
        return voters

    def vote(self, room: Room, voter: int | None, seat: Any, choice: Any) -> str | None:
        """A player's answer; returns what it decided (None: still open). `ClientError` for a
        spectator, a seat not asked, no open choice or a choice not offered."""
        if voter is None:
            raise ClientError("spectator", say("leave.not-yours"))
        open_ = room.choices.get(seat) if isinstance(seat, int) else None
        if open_ is None or room.is_over:
            raise ClientError("no-choice", say("leave.no-choice"))
        if voter not in open_["voters"] or voter in room.replaced:  # a bot took theirs too
            raise ClientError("not-yours", say("leave.not-yours"))
        if choice not in CHOICES:
            raise ClientError("bad-choice", say("leave.bad-choice"))
        with self.db.tx() as db:
            db.execute("INSERT INTO leave_votes (game_id, seat, voter, choice) VALUES (?,?,?,?) "
                       "ON CONFLICT (game_id, seat, voter) DO UPDATE SET choice=excluded.choice",
                       (room.id, seat, voter, choice))
        open_["votes"] = self._votes(room.id, seat)
        room.touch()
        return outcome(open_["votes"], len(open_["voters"]), closed=False)

    def due(self, now: float) -> list[tuple[str, int]]:
        """Open choices whose time is up."""
        return [(str(g), int(s)) for g, s in self.db.rows(
            "SELECT game_id, seat FROM leave_choices WHERE outcome IS NULL AND closes <= ?",
            (now,))]

    def closing(self, room: Room, seat: int) -> str:
        """What a choice whose time is up decides."""
        open_ = room.choices.get(seat) or {"voters": [], "votes": {}}
        votes = self._votes(room.id, seat)
        return outcome(votes, len(open_["voters"]), closed=True) or "bot"

    def decide(self, room: Room, seat: int, decided: str, log_at: int) -> bool:
        """Record a choice's outcome, once (across processes); False if it was decided
        already. A kept bot is said in the log; an ending is the caller's (`end`)."""
        with self.db.tx() as db:
            cur = db.execute("UPDATE leave_choices SET outcome=?, log_at=? WHERE game_id=? AND "
                             "seat=? AND outcome IS NULL", (decided, log_at, room.id, seat))
            if cur.rowcount != 1:
                return False
        room.choices.pop(seat, None)
        if decided == "bot":
            room.notices.append((log_at, notice(room, seat, "bot")))
        room.touch()
        return True

    def end(self, room: Room, leaver: int, log_at: int) -> list[int]:
        """Store the early end of a game: its places (`leaver_ranks`)."""
        ranks = leaver_ranks(room.game.scores(room.state), leaver)
        with self.db.tx() as db:
            db.execute("INSERT INTO game_endings (game_id, leaver, ranks, log_at, at) "
                       "VALUES (?,?,?,?,?) ON CONFLICT DO NOTHING",
                       (room.id, leaver, json.dumps(ranks), log_at, self.clock()))
        room.ended = {"leaver": leaver, "ranks": ranks}
        room.choices.clear()
        room.notices.append((log_at, notice(room, leaver, "end")))
        room.touch()
        return ranks

    def close(self) -> None:
        self.db.close()


class Leavers:
    """A leaver's choice from its opening to its decision, for the server's games in memory.

    `seconds` is a game's time per move (the choice's time; None: a day); `changed` follows a
    decided choice as it follows a move; `shown` sends everyone the views again; `told` tells
    the voters of a new choice (the place where notifications connect)."""

    def __init__(self, choices: LeaveChoices, store: GameStore,
                 locks: Mapping[str, asyncio.Lock], *,
                 seconds: Callable[[Room], float | None], changed: Callable[[Room], None],
                 shown: Callable[[Room], None],
                 told: Callable[[Room, int, list[int]], None]) -> None:
        self.choices, self.store, self.locks = choices, store, locks
        self.seconds, self.changed, self.shown, self.told = seconds, changed, shown, told

    def open(self, room: Room, seat: int) -> None:
        """A bot took `seat` for good: the other people at the table are asked whether it
        plays on or the game ends now, for the game's time per move."""
        voters = self.choices.open(room, seat, self.seconds(room) or DAY)
        if voters:
            self.told(room, seat, voters)

    async def vote(self, room: Room, voter: int | None, seat: Any, choice: Any) -> None:
        """A player's answer to a leaver's choice; the game ends at once if it decides so."""
        decided = self.choices.vote(room, voter, seat, choice)
        if decided is None:
            self.shown(room)
        else:
            await self.decide(room, seat, decided)

    async def decide(self, room: Room, seat: int, decided: str | None) -> None:
        """Close a leaver's choice: `decided` (None: what the answers given say, its time being
        up). Ending the game stores its places and status; either way everyone is told."""
        async with self.locks[room.id]:
            if room.is_over:
                decided = "over"  # the game finished meanwhile: nothing to decide
            elif decided is None:
                decided = self.choices.closing(room, seat)
            log_at = room.site.log_length(room.game.view(room.state, None))
            if not self.choices.decide(room, seat, decided, log_at):
                return
            if decided == "end":
                self.choices.end(room, seat, log_at)
                self.store.set_status(room.id, "over")
                self.store.set_summary(room.id, room.section(), room.summary())
        self.changed(room)
