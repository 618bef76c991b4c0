"""Chat per game: short lines of text from the players, stored with the game, sent to every
connection (players and spectators).

Players write; spectators only read, since a game's watch link is public for listed games and
would let anyone write anonymously. A line is text only (the pages show it with textContent),
at most `MAX_CHARS` characters without control or direction codes. Each seat of a game may
send `Limits.chat_per_second` lines a second after a burst of `Limits.chat_burst`, however many
connections it opens (and however often it reconnects), and each client address
`Limits.address_chat_per_second` after `Limits.address_chat_burst`. A game keeps `MAX_LINES`
lines, an equal share for each seat, so one seat filling its share never silences the others.
Muting is the viewer's own business: the page hides a muted seat's lines and remembers it.
A moderator may hide a line for everyone (`moderation`): it stays stored, with who hid it, for
the audit, and is no longer sent.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Callable, Container
from typing import TYPE_CHECKING, Any

from ..text import say
from .errors import ClientError
from .limits import RateLimiter
from .room import _CONTROL
from .sidedb import open_tables
from .storage import StoreError

if TYPE_CHECKING:
    from .connection import Connection
    from .room import Room

MAX_CHARS = 300
MAX_LINES = 2000  # per game, shared equally by its seats: a seat that wrote its share may not
# write more, and the others still may
HISTORY = 100  # lines a connection is sent when it joins

SCHEMA = """
CREATE TABLE IF NOT EXISTS chat_lines (
    game_id TEXT NOT NULL,
    n INTEGER NOT NULL,            -- 0, 1, 2 ... per game
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,            -- the seat's name when it was written
    text TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (game_id, n)
);
"""
HIDDEN = """
CREATE TABLE IF NOT EXISTS chat_hidden (
    game_id TEXT NOT NULL,
    n INTEGER NOT NULL,            -- the line (chat_lines), kept for the audit
    by_user INTEGER NOT NULL,      -- the moderator who hid it
    at REAL NOT NULL,
    PRIMARY KEY (game_id, n)
);
"""
#: the schema's versions, in order (`sidedb.Schema`)
STEPS = (SCHEMA, HIDDEN)
_SHOWN = "NOT EXISTS (SELECT 1 FROM chat_hidden h WHERE h.game_id = l.game_id AND h.n = l.n)"


def clean_line(value: object) -> str:
    """A chat line as sent: text, 1 to `MAX_CHARS` characters, no control codes."""
    if not isinstance(value, str):
        raise ClientError("bad-chat", say("chat.not-text"))
    value = unicodedata.normalize("NFC", value).strip()
    if not value:
        raise ClientError("bad-chat", say("chat.empty"))
    if len(value) > MAX_CHARS:
        raise ClientError("bad-chat", say("chat.too-long", most=MAX_CHARS))
    if _CONTROL.search(value):
        raise ClientError("bad-chat", say("chat.control"))
    return value


class ChatStore:
    """The chat lines of every game, in the game database."""

    def __init__(self, where: Any) -> None:
        """In the SQLite file `where` names, or the database of the game store `where`."""
        self.db = open_tables(where, "chat", STEPS)

    def add(self, game_id: str, seat: int, name: str, text: str, at: float,
            share: int = MAX_LINES) -> dict[str, Any]:
        """Store a line after the game's last; refused when the seat has written `share`
        lines or the chat is full."""
        with self.db.tx() as db:
            n, mine = db.execute(
                "SELECT COUNT(*), COALESCE(SUM(CASE WHEN seat=? THEN 1 ELSE 0 END), 0) "
                "FROM chat_lines WHERE game_id=?", (seat, game_id)).fetchone()
            if mine >= share:
                raise ClientError("chat-full", say("chat.seat-full", most=share))
            if n >= MAX_LINES:
                raise ClientError("chat-full", say("chat.full", most=MAX_LINES))
            db.execute("INSERT INTO chat_lines (game_id, n, seat, name, text, at) "
                       "VALUES (?,?,?,?,?,?)", (game_id, n, seat, name, text, at))
        return {"n": n, "seat": seat, "name": name, "text": text, "at": at}

    def recent(self, game_id: str, limit: int = HISTORY) -> list[dict[str, Any]]:
        """The game's last lines, but those a moderator hid."""
        rows = self.db.rows(f"SELECT n, seat, name, text, at FROM chat_lines l WHERE "
                            f"game_id=? AND {_SHOWN} ORDER BY n DESC LIMIT ?", (game_id, limit))
        return [{"n": n, "seat": seat, "name": name, "text": text, "at": at}
                for n, seat, name, text, at in reversed(rows)]

    def around(self, game_id: str, n: int, span: int = 5) -> list[dict[str, Any]]:
        """The lines from `span` before line `n` to `span` after, hidden ones too (marked):
        what a moderator reads around a reported line."""
        rows = self.db.rows(f"SELECT n, seat, name, text, at, CASE WHEN {_SHOWN} THEN 0 "
                            f"ELSE 1 END FROM chat_lines l WHERE game_id=? AND n BETWEEN ? "
                            f"AND ? ORDER BY n", (game_id, n - span, n + span))
        return [{"n": int(m), "seat": int(seat), "name": name, "text": text, "at": float(at),
                 "hidden": bool(hidden)} for m, seat, name, text, at, hidden in rows]

    def hide(self, game_id: str, n: int, by_user: int, at: float) -> bool:
        """Hide a line from everyone; False if there is no such line or it was hidden."""
        with self.db.tx() as db:
            if db.execute("SELECT 1 FROM chat_lines WHERE game_id=? AND n=?",
                          (game_id, n)).fetchone() is None:
                return False
            cur = db.execute("INSERT INTO chat_hidden (game_id, n, by_user, at) VALUES "
                             "(?,?,?,?) ON CONFLICT (game_id, n) DO NOTHING",
                             (game_id, n, by_user, at))
            return bool(cur.rowcount)

    def close(self) -> None:
        self.db.close()


class Chat:
    """The server's side of the chat: checks, stores and sends lines."""

    def __init__(self, where: Any, clock: Callable[[], float], rate: float, burst: int,
                 address_rate: float = 0.0, address_burst: int = 1) -> None:
        """`rate` and `burst` limit each seat of a game, `address_*` each client address."""
        self.store = ChatStore(where)
        self.clock = clock
        self.limit = RateLimiter(rate, burst)
        self.address_limit = RateLimiter(address_rate, address_burst)

    def history(self, room: Room, hidden: Container[int] = ()) -> str | None:
        """The message a joining connection gets: the game's last lines but those of the
        `hidden` seats (None: no chat to show)."""
        lines = [line for line in self.store.recent(room.id) if line["seat"] not in hidden]
        return json.dumps({"type": "chat", "history": True, "lines": lines}) if lines else None

    def post(self, conn: Connection, room: Room, text: Any, conns: Any,
             reads: Callable[[Connection], bool] = lambda other: True) -> dict[str, Any]:
        """A player's line: checked, stored, sent to every joined connection of the game
        that `reads` it (not to a player who blocked the writer or whom the writer blocked)."""
        if conn.seat is None:
            raise ClientError("spectator", say("chat.spectator"))
        self.address_limit.check(conn.address, say("chat.rate"))
        self.limit.check(f"{room.id} {conn.seat}", say("chat.rate"))
        line_text = clean_line(text)
        try:
            line = self.store.add(room.id, conn.seat, room.params.seats[conn.seat].name,
                                  line_text, self.clock(),
                                  share=MAX_LINES // len(room.params.seats))
        except StoreError as exc:
            raise ClientError("storage", str(exc)) from None
        message = json.dumps({"type": "chat", "lines": [line]})
        for other in conns:
            if other.joined and reads(other):
                other.send(message)
        return line

    def close(self) -> None:
        self.store.close()
