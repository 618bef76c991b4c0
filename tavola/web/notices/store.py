"""The tables of notifications: each account's choices, deliveries, nudges, password resets.

They live next to the game store's `outbox` (`tavola.web.outbox`) in the same database, so
one transaction turns an outbox row into its deliveries: a row is expanded once, and each
delivery (one event, one recipient, one channel) has a key of its own that a second expansion
can never write again. Links that act without signing in (verify an address, unsubscribe,
reset a password) carry random tokens; only their SHA-256 is kept, except the unsubscribe
token, which every e-mail must carry and is therefore kept as it is (it can only switch
e-mail off).
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from ..sidedb import Tables, open_tables

SCHEMA = """
CREATE TABLE IF NOT EXISTS notice_settings (
    user_id INTEGER PRIMARY KEY,
    lang TEXT NOT NULL,               -- the language messages are written in
    email TEXT,                       -- NULL: none given; never shown to anyone else
    email_verified INTEGER NOT NULL DEFAULT 0,
    email_on INTEGER NOT NULL DEFAULT 1,   -- 0: unsubscribed (one click, or the account page)
    verify_hash TEXT,                 -- SHA-256 of the pending verification link's token
    verify_expires REAL,
    webhook TEXT,                     -- NULL: none
    webhook_format TEXT NOT NULL DEFAULT 'auto',
    events TEXT NOT NULL,             -- JSON list of the kinds wanted (`KINDS`)
    turn_mode TEXT NOT NULL DEFAULT 'now',  -- now | after | digest
    turn_after INTEGER NOT NULL DEFAULT 30, -- minutes away from the table, for 'after'
    digest_hour INTEGER NOT NULL DEFAULT 18, -- hour of the day (UTC), for 'digest'
    unsubscribe TEXT NOT NULL UNIQUE, -- the token of one-click unsubscribe links
    updated REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS deliveries (
    key TEXT PRIMARY KEY,             -- event key, recipient and channel: each sent once
    event TEXT NOT NULL,              -- the outbox key
    kind TEXT NOT NULL,
    user_id INTEGER NOT NULL,
    channel TEXT NOT NULL,            -- email | webhook
    data TEXT NOT NULL,               -- JSON: the event's facts the message is made of
    state TEXT NOT NULL,              -- pending | sent | failed
    attempts INTEGER NOT NULL DEFAULT 0,
    due REAL NOT NULL,
    lease REAL,
    error TEXT,
    created REAL NOT NULL,
    sent REAL
);
CREATE INDEX IF NOT EXISTS deliveries_due ON deliveries (state, due);
CREATE INDEX IF NOT EXISTS deliveries_user ON deliveries (user_id, channel, sent);
CREATE TABLE IF NOT EXISTS nudges (
    game_id TEXT NOT NULL,
    seat INTEGER NOT NULL,            -- the seat nudged
    at REAL NOT NULL,                 -- the last nudge: one per game and seat a day
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE IF NOT EXISTS password_resets (
    token_hash TEXT PRIMARY KEY,
    user_id INTEGER NOT NULL,
    expires REAL NOT NULL,
    used REAL
);
CREATE TABLE IF NOT EXISTS table_visits (
    user_id INTEGER NOT NULL,
    game_id TEXT NOT NULL,
    seen REAL NOT NULL,               -- the last time the player was at the game's table
    PRIMARY KEY (user_id, game_id)
);
"""
STEPS = (SCHEMA,)
#: the events a player can be told of, in the account page's order
KINDS = ("turn", "invite", "finished", "clock", "nudge")
#: events that ask the player to act, switched on and off with another kind
ASKED_AS = {"choice": "turn"}
TURN_MODES = ("now", "after", "digest")
WEBHOOK_FORMATS = ("auto", "discord", "slack", "json")
VERIFY_SECONDS = 2 * 86_400  # a verification link works two days
RESET_SECONDS = 3_600  # a password reset link works an hour, once


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Settings:
    """One account's notification choices."""

    user_id: int
    lang: str = "en"
    email: str | None = None
    email_verified: bool = False
    email_on: bool = True
    webhook: str | None = None
    webhook_format: str = "auto"
    events: list[str] = field(default_factory=lambda: list(KINDS))
    turn_mode: str = "now"
    turn_after: int = 30
    digest_hour: int = 18
    unsubscribe: str = ""

    def wants(self, kind: str) -> bool:
        kind = ASKED_AS.get(kind, kind)
        return kind not in KINDS or kind in self.events

    def channels(self) -> list[str]:
        """Where this account's notices go now: a verified address it did not switch off,
        and its webhook."""
        out = []
        if self.email and self.email_verified and self.email_on:
            out.append("email")
        if self.webhook:
            out.append("webhook")
        return out

    def public(self) -> dict[str, Any]:
        """What the account page shows its owner (and only its owner)."""
        return {"lang": self.lang, "email": self.email, "email_verified": self.email_verified,
                "email_on": self.email_on, "webhook": self.webhook,
                "webhook_format": self.webhook_format, "events": self.events,
                "turn_mode": self.turn_mode, "turn_after": self.turn_after,
                "digest_hour": self.digest_hour}


_COLUMNS = ("user_id, lang, email, email_verified, email_on, webhook, webhook_format, events, "
            "turn_mode, turn_after, digest_hour, unsubscribe")


def _settings(row: tuple[Any, ...]) -> Settings:
    (user_id, lang, email, verified, on, webhook, fmt, events, mode, after, hour,
     unsub) = row
    try:
        kinds = [k for k in json.loads(events) if k in KINDS]
    except (ValueError, TypeError):
        kinds = list(KINDS)
    return Settings(user_id, lang, email, bool(verified), bool(on), webhook, fmt, kinds, mode,
                    int(after), int(hour), unsub)


class NoticeStore:
    """Notification tables in the game store's database (`sidedb.open_tables`)."""

    def __init__(self, where: Any) -> None:
        self.db: Tables = open_tables(where, "notices", STEPS)

    @contextmanager
    def tx(self) -> Iterator[Any]:
        with self.db.tx() as db:
            yield db

    def close(self) -> None:
        self.db.close()

    # -- settings --------------------------------------------------------------------------

    def settings(self, user_id: int) -> Settings | None:
        rows = self.db.rows(f"SELECT {_COLUMNS} FROM notice_settings WHERE user_id=?",
                            (user_id,))
        return _settings(rows[0]) if rows else None

    def settings_or_default(self, user_id: int, lang: str) -> Settings:
        return self.settings(user_id) or Settings(user_id, lang)

    def save(self, s: Settings) -> None:
        """Write an account's choices (its unsubscribe token is made once, at random)."""
        token = s.unsubscribe or secrets.token_urlsafe(24)
        with self.db.tx() as db:
            db.execute(
                "INSERT INTO notice_settings (user_id, lang, email, email_verified, email_on, "
                "webhook, webhook_format, events, turn_mode, turn_after, digest_hour, "
                "unsubscribe, updated) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?) "
                "ON CONFLICT (user_id) DO UPDATE SET lang=excluded.lang, "
                "email=excluded.email, email_verified=excluded.email_verified, "
                "email_on=excluded.email_on, webhook=excluded.webhook, "
                "webhook_format=excluded.webhook_format, events=excluded.events, "
                "turn_mode=excluded.turn_mode, turn_after=excluded.turn_after, "
                "digest_hour=excluded.digest_hour, updated=excluded.updated",
                (s.user_id, s.lang, s.email, int(s.email_verified), int(s.email_on),
                 s.webhook, s.webhook_format, json.dumps(s.events), s.turn_mode,
                 s.turn_after, s.digest_hour, token, time.time()))
        s.unsubscribe = self.settings(s.user_id).unsubscribe  # type: ignore[union-attr]

    def start_verification(self, user_id: int) -> str:
        """A new verification token for the account's address (the old one stops working)."""
        token = secrets.token_urlsafe(32)
        with self.db.tx() as db:
            db.execute("UPDATE notice_settings SET verify_hash=?, verify_expires=? "
                       "WHERE user_id=?", (digest(token), time.time() + VERIFY_SECONDS,
                                           user_id))
        return token

    def verify(self, token: str) -> int | None:
        """Mark the address a verification token was sent to as verified; the account, or
        None for a token unknown, used or expired."""
        with self.db.tx() as db:
            row = db.execute("SELECT user_id FROM notice_settings WHERE verify_hash=? AND "
                             "verify_expires >= ?", (digest(token), time.time())).fetchone()
            if row is None:
                return None
            db.execute("UPDATE notice_settings SET email_verified=1, email_on=1, "
                       "verify_hash=NULL, verify_expires=NULL WHERE user_id=?", (row[0],))
            return int(row[0])

    def unsubscribe(self, token: str) -> int | None:
        """Switch e-mail off for the account whose unsubscribe token this is."""
        with self.db.tx() as db:
            row = db.execute("SELECT user_id FROM notice_settings WHERE unsubscribe=?",
                             (token,)).fetchone()
            if row is None:
                return None
            db.execute("UPDATE notice_settings SET email_on=0 WHERE user_id=?", (row[0],))
            return int(row[0])

    # -- nudges, visits --------------------------------------------------------------------

    def nudge(self, game_id: str, seat: int, now: float, every: float) -> bool:
        """Record a nudge of a seat unless one was sent within `every` seconds."""
        with self.db.tx() as db:
            cur = db.execute(
                "INSERT INTO nudges (game_id, seat, at) VALUES (?,?,?) ON CONFLICT (game_id, "
                "seat) DO UPDATE SET at=excluded.at WHERE nudges.at <= ?",
                (game_id, seat, now, now - every))
            return bool(cur.rowcount == 1)

    def visited(self, user_id: int, game_id: str, now: float) -> None:
        with self.db.tx() as db:
            db.execute("INSERT INTO table_visits (user_id, game_id, seen) VALUES (?,?,?) "
                       "ON CONFLICT (user_id, game_id) DO UPDATE SET seen=excluded.seen",
                       (user_id, game_id, now))

    def last_visit(self, user_id: int, game_id: str) -> float | None:
        rows = self.db.rows("SELECT seen FROM table_visits WHERE user_id=? AND game_id=?",
                            (user_id, game_id))
        return float(rows[0][0]) if rows else None

    # -- password resets -------------------------------------------------------------------

    def start_reset(self, user_id: int, now: float) -> str:
        token = secrets.token_urlsafe(32)
        with self.db.tx() as db:
            db.execute("INSERT INTO password_resets (token_hash, user_id, expires) "
                       "VALUES (?,?,?)", (digest(token), user_id, now + RESET_SECONDS))
        return token

    def use_reset(self, token: str, now: float) -> int | None:
        """The account a reset token is for, once: it is spent here, used or not after."""
        with self.db.tx() as db:
            row = db.execute("UPDATE password_resets SET used=? WHERE token_hash=? AND "
                             "used IS NULL AND expires >= ? RETURNING user_id",
                             (now, digest(token), now)).fetchone()
        return None if row is None else int(row[0])
