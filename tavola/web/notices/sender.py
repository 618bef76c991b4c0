"""The sender: outbox rows become deliveries, deliveries go out, with retries and back-off.

Every server process runs one; they share the work through leases, so each row is handled by
one process at a time and another takes it over when a process dies. Two steps:

- *expand*: an outbox row is claimed, its recipient found (the account named, else the one
  holding the seat) with their choices, and in one transaction the row is marked done and a
  delivery written per channel, keyed by event, recipient and channel. Killed at any moment,
  the transaction either happened or it did not: no notice is lost, none is written twice.
  A "your turn" the player wants later (after some minutes away, or in a daily digest) is
  put off instead; a seat that moves meanwhile settles it (`outbox`), and it is never sent.
- *deliver*: a delivery is claimed, composed in its recipient's language and sent; on success
  marked sent, on failure tried again later (30 s, doubling, at most an hour apart) until
  `attempts` failures. The one moment a kill can double a message is between the relay's or
  webhook's acceptance and the mark that follows it: the message then goes again with the
  same `Message-ID` and `Idempotency-Key`, so a receiver can tell. A recipient gets at most
  `per_hour` messages an hour on each channel; more wait for the next hour, none is dropped.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import logging
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from ..metrics import NOTICES
from ..storage import StoreError
from .channels import Refused, Relay, SendFailed, check_webhook, post_webhook, webhook_body
from .compose import compose, email
from .store import NoticeStore, Settings

log = logging.getLogger("tavola.web.notices")
BATCH = 50
LEASE_SECONDS = 120.0
ONCE_KINDS = ("verify", "reset")  # sent by e-mail only, whatever the account's choices


@dataclass
class Config:
    """How a server tells its players."""

    site_url: str = "http://127.0.0.1:8000"  # links in messages start with it
    relay: Relay | None = None  # no relay: e-mail is off
    loopback_webhooks: bool = False  # tests only: webhooks to this machine over http
    per_hour: dict[str, int] = field(default_factory=lambda: {"email": 20, "webhook": 120})
    attempts: int = 8
    titles: dict[str, str] = field(default_factory=dict)  # game name -> its title
    every: float = 1.0  # seconds between looks at an empty outbox
    senders: int = 4  # messages sent at once (threads)


def _backoff(attempts: int) -> float:
    return min(3600.0, 30.0 * 2.0 ** max(0, attempts - 1))


def next_digest(after: float, hour: int) -> float:
    """The first time at `hour`:00 UTC after `after`."""
    day = dt.datetime.fromtimestamp(after, dt.UTC)
    at = day.replace(hour=hour, minute=0, second=0, microsecond=0)
    if at.timestamp() <= after:
        at += dt.timedelta(days=1)
    return at.timestamp()


class Sender:
    """One process's sender (see the module's words)."""

    def __init__(self, store: NoticeStore, config: Config,
                 clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.config = config
        self.clock = clock
        self.sent = 0
        self.failed = 0
        self._pool: ThreadPoolExecutor | None = None

    # -- expanding -------------------------------------------------------------------------

    def expand(self, now: float | None = None) -> int:
        """Turn due outbox rows into deliveries; the number of rows handled."""
        now = self.clock() if now is None else now
        rows = self._claim("outbox", "new", "key, kind, game_id, seat, account, data, created",
                           now)
        for row in rows:
            try:
                self._expand_one(row, now)
            except StoreError as exc:
                log.error("notice %s: %s", row[0], exc)
        return len(rows)

    def _claim(self, table: str, state: str, columns: str, now: float) -> list[Any]:
        """Lease up to `BATCH` due rows of `table` in `state` that nobody holds. The outer
        condition is checked again on each row as it is updated, so two processes claiming
        at once never take the same row."""
        free = f"state='{state}' AND (lease IS NULL OR lease<?)"
        with self.store.tx() as db:
            return list(db.execute(
                f"UPDATE {table} SET lease=? WHERE key IN (SELECT key FROM {table} WHERE "
                f"{free} AND due<=? ORDER BY due LIMIT ?) AND {free} RETURNING {columns}",
                (now + LEASE_SECONDS, now, now, BATCH, now)).fetchall())

    def _expand_one(self, row: tuple[Any, ...], now: float) -> None:
        key, kind, game_id, seat, account, data, created = row
        facts = {**json.loads(data), "kind": kind}
        user = account if account is not None else self._holder(game_id, seat)
        settings = None if user is None else self.store.settings(int(user))
        if settings is None or not settings.wants(kind):
            return self._done(key)
        if kind == "turn":
            later = self._turn_later(settings, game_id, float(created), now)
            if later is not None:
                return self._put_off(key, later)
            if settings.turn_mode == "digest":
                return self._digest(settings, key, now)
        if game_id is not None:
            facts.update(self._game_facts(game_id, seat))
        channels = ["email"] if kind in ONCE_KINDS else settings.channels()
        with self.store.tx() as db:
            if db.execute("UPDATE outbox SET state='done', lease=NULL WHERE key=? AND "
                          "state='new'", (key,)).rowcount != 1:
                return None  # settled meanwhile (the seat moved)
            db.executemany(
                "INSERT INTO deliveries (key, event, kind, user_id, channel, data, state, due, "
                "created) VALUES (?,?,?,?,?,?,'pending',?,?) ON CONFLICT DO NOTHING",
                [(f"{key}:{settings.user_id}:{c}", key, kind, settings.user_id, c,
                  json.dumps(facts), now, now) for c in channels])
        for channel in channels:
            NOTICES.labels("queued", channel).inc()
        return None

    def _turn_later(self, s: Settings, game_id: str, created: float, now: float
                    ) -> float | None:
        """When a "your turn" is to be looked at again, or None: now."""
        if s.turn_mode == "after":
            at = created + 60 * s.turn_after
            seen = self.store.last_visit(s.user_id, game_id)
            if seen is not None and seen > created:
                at = max(at, seen + 60 * s.turn_after)
            return at if at > now else None
        if s.turn_mode == "digest":
            at = next_digest(created, s.digest_hour)
            return at if at > now else None
        return None

    def _put_off(self, key: str, due: float) -> None:
        with self.store.tx() as db:
            db.execute("UPDATE outbox SET due=?, lease=NULL WHERE key=? AND state='new'",
                       (due, key))

    def _done(self, key: str) -> None:
        with self.store.tx() as db:
            db.execute("UPDATE outbox SET state='done', lease=NULL WHERE key=? AND "
                       "state='new'", (key,))

    def _digest(self, s: Settings, key: str, now: float) -> None:
        """Every game that waits for the account, in one message."""
        waiting = self.store.db.rows(
            "SELECT o.key, o.game_id, o.seat FROM outbox o JOIN game_players p ON "
            "p.game_id=o.game_id AND p.seat=o.seat WHERE p.user_id=? AND o.kind='turn' AND "
            "o.state='new' ORDER BY o.created", (s.user_id,))
        games = [self._game_facts(g, seat) for _, g, seat in waiting]
        day = dt.datetime.fromtimestamp(now, dt.UTC).strftime("%Y-%m-%d")
        digest_key = f"digest:{s.user_id}:{day}"
        with self.store.tx() as db:
            done = [k for k, _, _ in waiting
                    if db.execute("UPDATE outbox SET state='done', lease=NULL WHERE key=? "
                                  "AND state='new'", (k,)).rowcount == 1]
            if key not in done or not games:
                return
            db.executemany(
                "INSERT INTO deliveries (key, event, kind, user_id, channel, data, state, due, "
                "created) VALUES (?,?,'digest',?,?,?,'pending',?,?) ON CONFLICT DO NOTHING",
                [(f"{digest_key}:{c}:{key}", digest_key, s.user_id, c,
                  json.dumps({"games": games}), now, now) for c in s.channels()])
        for channel in s.channels():
            NOTICES.labels("queued", channel).inc()

    def _holder(self, game_id: str | None, seat: int | None) -> int | None:
        if game_id is None or seat is None:
            return None
        rows = self.store.db.rows("SELECT user_id FROM game_players WHERE game_id=? AND "
                                  "seat=?", (game_id, seat))
        return int(rows[0][0]) if rows else None

    def _game_facts(self, game_id: str, seat: int | None) -> dict[str, Any]:
        """The game's public lobby line and the seat's link."""
        rows = self.store.db.rows("SELECT summary FROM games WHERE id=?", (game_id,))
        try:
            line = json.loads(rows[0][0]) if rows and rows[0][0] else {}
        except ValueError:
            line = {}
        token = self.store.db.rows("SELECT token FROM seats WHERE game_id=? AND seat=?",
                                   (game_id, seat)) if seat is not None else []
        name = str(line.get("game") or "")
        return {"game_id": game_id, "seat": seat, "game": name,
                "title": self.config.titles.get(name, name.title()),
                "seats": [{"name": s.get("name"), "score": s.get("score")}
                          for s in line.get("seats") or [] if isinstance(s, dict)],
                "winners": line.get("winners") or [], "round": line.get("round"),
                "link": f"/game/{game_id}#{token[0][0]}" if token else f"/game/{game_id}"}

    # -- delivering ------------------------------------------------------------------------

    def deliver(self, now: float | None = None) -> int:
        """Send due deliveries; the number handled."""
        now = self.clock() if now is None else now
        rows = self._claim("deliveries", "pending",
                           "key, kind, user_id, channel, data, attempts", now)
        if not rows:
            return 0
        if self._pool is None:
            self._pool = ThreadPoolExecutor(self.config.senders, thread_name_prefix="notice")
        list(self._pool.map(lambda r: self._deliver_one(r, now), rows))
        return len(rows)

    def _deliver_one(self, row: tuple[Any, ...], now: float) -> None:
        key, kind, user_id, channel, data, attempts = row
        settings = self.store.settings(int(user_id))
        facts = json.loads(data)
        if settings is None or not self._still_wanted(settings, channel, kind, facts):
            return self._finish(key, "dropped", None)
        wait = self._rate_wait(int(user_id), channel, now)
        if wait is not None and kind not in ONCE_KINDS:
            return self._retry(key, attempts, wait, None, count=False)
        def sent() -> None:
            self.sent += 1
            NOTICES.labels("sent", channel).inc()
            self._finish(key, "sent", None, blank=kind in ONCE_KINDS)

        try:
            self._send(settings, channel, kind, facts, key, sent)
        except (SendFailed, Refused) as exc:
            permanent = isinstance(exc, Refused) or exc.permanent
            if permanent or attempts + 1 >= self.config.attempts:
                self.failed += 1
                NOTICES.labels("failed", channel).inc()
                return self._finish(key, "failed", str(exc))
            return self._retry(key, attempts, now + _backoff(attempts + 1), str(exc))
        return None

    @staticmethod
    def _still_wanted(s: Settings, channel: str, kind: str, facts: dict[str, Any]) -> bool:
        if kind in ONCE_KINDS:  # only to the address it was made for
            return channel == "email" and s.email is not None and facts.get("email") == s.email
        return channel in s.channels()

    def _rate_wait(self, user_id: int, channel: str, now: float) -> float | None:
        limit = self.config.per_hour.get(channel, 0)
        if limit <= 0:
            return None
        rows = self.store.db.rows(
            "SELECT sent FROM deliveries WHERE user_id=? AND channel=? AND sent >= ? "
            "ORDER BY sent", (user_id, channel, now - 3600))
        if len(rows) < limit:
            return None
        return float(rows[len(rows) - limit][0]) + 3600

    def _send(self, s: Settings, channel: str, kind: str, facts: dict[str, Any],
              key: str, sent: Callable[[], None]) -> None:
        """Compose and send; `sent` marks the delivery the moment the other side accepted."""
        message = compose(kind, facts, self.config.site_url, s.lang)
        if channel == "email":
            relay = self.config.relay
            if relay is None or not s.email:
                raise SendFailed("e-mail is off on this server", permanent=True)
            unsub = None if kind in ONCE_KINDS else s.unsubscribe
            relay.send(email(message, s.email, key, self.config.site_url, unsub, s.lang), sent)
            return
        target = check_webhook(s.webhook, loopback=self.config.loopback_webhooks)
        facts_out = {"event": kind, "key": key, "game": facts.get("game"),
                     "game_id": facts.get("game_id"), "seat": facts.get("seat"),
                     "url": message.link}
        post_webhook(target, webhook_body(s.webhook_format, target.url, message.text(),
                                          facts_out), key)
        sent()

    def _finish(self, key: str, state: str, error: str | None, blank: bool = False) -> None:
        sql = "UPDATE deliveries SET state=?, sent=?, lease=NULL, error=?"
        if blank:
            sql += ", data='{}'"  # a verification or reset token is not kept once sent
        with self.store.tx() as db:
            db.execute(sql + " WHERE key=?",
                       (state, self.clock() if state == "sent" else None, error, key))

    def _retry(self, key: str, attempts: int, due: float, error: str | None, *,
               count: bool = True) -> None:
        with self.store.tx() as db:
            db.execute("UPDATE deliveries SET due=?, lease=NULL, error=?, attempts=? "
                       "WHERE key=?", (due, error, attempts + int(count), key))

    # -- running ---------------------------------------------------------------------------

    def release(self) -> None:
        """Give back every lease: the only sender of the database starts, so whatever a
        killed predecessor held is nobody's (with several processes leases just expire)."""
        with self.store.tx() as db:
            db.execute("UPDATE outbox SET lease=NULL WHERE state='new' AND lease IS NOT NULL")
            db.execute("UPDATE deliveries SET lease=NULL WHERE state='pending' AND "
                       "lease IS NOT NULL")

    def step(self, now: float | None = None) -> int:
        return self.expand(now) + self.deliver(now)

    async def run_forever(self) -> None:
        """Expand and deliver until cancelled, in a thread (the relay and webhooks block)."""
        loop = asyncio.get_running_loop()
        while True:
            try:
                busy = await loop.run_in_executor(None, self.step)
            except StoreError as exc:
                log.error("notices: %s", exc)
                busy = 0
            if not busy:
                await asyncio.sleep(self.config.every)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
