"""Moderation: players report chat lines and players; moderators hide lines, mute players'
chat, suspend accounts, or dismiss the report, each with a reason written to an audit log.

Roles (`moderator`, `admin`) are given and taken only with `tavola admin`, never from the
web. A report needs a signed-in account, is limited per account (`Limits.reports_per_hour`)
and is refused while the same reporter's report on the same target is open. A moderator may
not act on an admin. A hidden line stays stored (`chat_hidden`) and is no longer sent to
anyone; a muted player's chat lines are refused until the mute ends; a suspended account
cannot sign in, create, join or play games until its suspension ends (or ever), and its seats
in running games go to the bot for good, as a player's seat does after their last allowed miss
(`timing.Timekeeper`), the others choosing whether it plays on (`leaving`). Everything lives
in tables next to the games' (`sidedb.open_tables`), so every server process reads the same;
each process keeps the sanctions in force in memory for `CACHE_SECONDS`.
"""

from __future__ import annotations

import json
import math
import time
import unicodedata
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse

from ..text import say
from . import pages
from .errors import ClientError
from .limits import RateLimiter, parse_json
from .room import _CONTROL, PERSON
from .sidedb import open_tables
from .timing import cover_bot
from .user_names import name_key

if TYPE_CHECKING:
    from .account_store import User
    from .accounts import Accounts
    from .app import GameServer
    from .room import Room

ROLES = ("moderator", "admin")
REASONS = ("spam", "abuse", "cheating", "name", "other")  # why a player reports
ACTIONS = ("hide", "mute", "suspend", "dismiss")
#: how long a mute or a suspension lasts, as the moderation page offers it (None: for good,
#: suspensions only)
PERIODS: dict[str, float | None] = {"hour": 3600.0, "day": 86_400.0, "week": 7 * 86_400.0,
                                    "month": 30 * 86_400.0, "forever": None}
MAX_TEXT = 500  # characters of a report's words and of an action's reason
CONTEXT = 5  # chat lines shown before and after a reported line
CACHE_SECONDS = 5.0  # how long a process trusts the sanctions it read
AUDIT_SHOWN = 200

SCHEMA = """
CREATE TABLE IF NOT EXISTS mod_roles (
    user_id INTEGER NOT NULL PRIMARY KEY,
    role TEXT NOT NULL,            -- moderator or admin
    granted REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS mod_reports (
    id INTEGER PRIMARY KEY,
    reporter INTEGER NOT NULL,
    target TEXT NOT NULL,          -- 'chat GAME N' or 'user ID': one open report per reporter
    target_user INTEGER,           -- the reported account (NULL: a guest's chat line)
    game_id TEXT,
    line INTEGER,                  -- the chat line's n
    reason TEXT NOT NULL,
    text TEXT NOT NULL,
    at REAL NOT NULL,
    closed REAL,                   -- NULL while open
    outcome TEXT                   -- the action that closed it
);
CREATE UNIQUE INDEX IF NOT EXISTS mod_reports_open ON mod_reports (reporter, target)
    WHERE closed IS NULL;
CREATE TABLE IF NOT EXISTS mod_sanctions (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL,
    kind TEXT NOT NULL,            -- mute or suspend
    start REAL NOT NULL,
    until REAL,                    -- NULL: for good
    by_user INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS mod_sanctions_user ON mod_sanctions (user_id);
CREATE TABLE IF NOT EXISTS mod_handovers (
    game_id TEXT NOT NULL,
    seat INTEGER NOT NULL,         -- a suspended player's seat, the bot's from then on
    user_id INTEGER NOT NULL,
    log_at INTEGER NOT NULL,       -- the game's log length then: where its line goes
    at REAL NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE IF NOT EXISTS mod_audit (
    id INTEGER PRIMARY KEY,
    at REAL NOT NULL,
    by_user INTEGER,               -- NULL: the command line
    action TEXT NOT NULL,          -- hide, mute, suspend, dismiss, grant, revoke
    target_user INTEGER,
    report INTEGER,
    game_id TEXT,
    line INTEGER,
    until REAL,
    detail TEXT NOT NULL,          -- JSON: what else there is to say (a role, a period)
    reason TEXT NOT NULL
);
"""


def clean_text(value: Any, *, required: bool, problem: str) -> str:
    """Words a person typed: text of at most `MAX_TEXT` characters, no control codes;
    refused with the message `problem`."""
    if value is None and not required:
        return ""
    text = unicodedata.normalize("NFC", value).strip() if isinstance(value, str) else ""
    if not isinstance(value, str) or (required and not text) or len(text) > MAX_TEXT or \
            _CONTROL.search(text):
        raise ClientError("bad-request", say(problem, most=MAX_TEXT))
    return text


def until_words(until: float) -> str:
    """When a sanction ends, in words that need no translation of their own."""
    return datetime.fromtimestamp(until, UTC).strftime("%Y-%m-%d %H:%M UTC")


FORMER = 0  # the account named in moderation rows kept after their account was deleted
FORGET_ACCOUNT = (  # a deleted account (`privacy`): no role, sanction or open report stays
    "DELETE FROM mod_roles WHERE user_id=?",
    "DELETE FROM mod_sanctions WHERE user_id=?",
    "DELETE FROM mod_reports WHERE closed IS NULL AND (reporter=? OR target_user=?)",
    # what the audit keeps names a former account, never one that may later take its id
    f"UPDATE mod_sanctions SET by_user={FORMER} WHERE by_user=?",
    f"UPDATE mod_reports SET reporter={FORMER} WHERE reporter=?",
    f"UPDATE mod_reports SET target_user={FORMER} WHERE target_user=?",
    f"UPDATE mod_handovers SET user_id={FORMER} WHERE user_id=?",
    f"UPDATE mod_audit SET by_user={FORMER} WHERE by_user=?",
    f"UPDATE mod_audit SET target_user={FORMER} WHERE target_user=?",
)

class ModerationStore:
    """Roles, reports, sanctions, handed-over seats and the audit, in the game database."""

    def __init__(self, where: Any) -> None:
        self.db = open_tables(where, "moderation", SCHEMA)

    # -- roles -----------------------------------------------------------------------------

    def role(self, user_id: int) -> str | None:
        rows = self.db.rows("SELECT role FROM mod_roles WHERE user_id=?", (user_id,))
        return str(rows[0][0]) if rows else None

    def roles(self) -> list[tuple[int, str, float]]:
        return [(int(u), str(r), float(g)) for u, r, g in self.db.rows(
            "SELECT user_id, role, granted FROM mod_roles ORDER BY role, user_id")]

    def grant(self, user_id: int, role: str, at: float) -> None:
        with self.db.tx() as db:
            db.execute("INSERT INTO mod_roles (user_id, role, granted) VALUES (?,?,?) "
                       "ON CONFLICT (user_id) DO UPDATE SET role=excluded.role, "
                       "granted=excluded.granted", (user_id, role, at))
            self._audit(db, at, None, "grant", user_id, detail={"role": role},
                        reason="command line")

    def revoke(self, user_id: int, role: str, at: float) -> bool:
        """Take the role away; False if the account did not have it."""
        with self.db.tx() as db:
            cur = db.execute("DELETE FROM mod_roles WHERE user_id=? AND role=?",
                             (user_id, role))
            if not cur.rowcount:
                return False
            self._audit(db, at, None, "revoke", user_id, detail={"role": role},
                        reason="command line")
        return True

    # -- reports ---------------------------------------------------------------------------

    def add_report(self, reporter: int, target: str, target_user: int | None,
                   game_id: str | None, line: int | None, reason: str, text: str,
                   at: float) -> int | None:
        """A new open report's id; None when the reporter has one open on the target."""
        with self.db.tx() as db:
            row = db.execute(
                "INSERT INTO mod_reports (reporter, target, target_user, game_id, line, "
                "reason, text, at) VALUES (?,?,?,?,?,?,?,?) ON CONFLICT (reporter, target) "
                "WHERE closed IS NULL DO NOTHING RETURNING id",
                (reporter, target, target_user, game_id, line, reason, text, at)).fetchone()
        return None if row is None else int(row[0])

    def open_reports(self) -> list[dict[str, Any]]:
        return [self._report(r) for r in self.db.rows(
            f"SELECT {_REPORT} FROM mod_reports WHERE closed IS NULL ORDER BY at")]

    def report(self, report_id: int) -> dict[str, Any] | None:
        rows = self.db.rows(f"SELECT {_REPORT} FROM mod_reports WHERE id=?", (report_id,))
        return self._report(rows[0]) if rows else None

    @staticmethod
    def _report(row: tuple[Any, ...]) -> dict[str, Any]:
        keys = ("id", "reporter", "target", "target_user", "game_id", "line", "reason",
                "text", "at", "closed", "outcome")
        return dict(zip(keys, row, strict=True))

    # -- actions ---------------------------------------------------------------------------

    def act(self, report: dict[str, Any], by_user: int, action: str, reason: str, at: float,
            until: float | None = None) -> None:
        """Close the report (and every other open one on its target) with `action`; a mute or
        a suspension is stored from `at` to `until` (None: for good); all in the audit."""
        with self.db.tx() as db:
            db.execute("UPDATE mod_reports SET closed=?, outcome=? WHERE closed IS NULL AND "
                       "(id=? OR target=?)", (at, action, report["id"], report["target"]))
            if action in ("mute", "suspend"):
                db.execute("INSERT INTO mod_sanctions (user_id, kind, start, until, by_user) "
                           "VALUES (?,?,?,?,?)",
                           (report["target_user"], action, at, until, by_user))
            self._audit(db, at, by_user, action, report["target_user"], report=report["id"],
                        game_id=report["game_id"], line=report["line"], until=until,
                        detail={"forever": action == "suspend" and until is None},
                        reason=reason)

    def in_force(self, now: float) -> dict[str, dict[int, float]]:
        """kind -> account -> when its sanction ends (`math.inf`: never), for those in force."""
        out: dict[str, dict[int, float]] = {"mute": {}, "suspend": {}}
        for user, kind, until in self.db.rows(
                "SELECT user_id, kind, until FROM mod_sanctions WHERE until IS NULL OR "
                "until > ?", (now,)):
            end = math.inf if until is None else float(until)
            out[str(kind)][int(user)] = max(end, out[str(kind)].get(int(user), 0.0))
        return out

    def hand_over(self, game_id: str, seat: int, user_id: int, log_at: int, at: float
                  ) -> bool:
        """Record that a bot took a suspended player's seat; False if one already had."""
        with self.db.tx() as db:
            cur = db.execute("INSERT INTO mod_handovers (game_id, seat, user_id, log_at, at) "
                             "VALUES (?,?,?,?,?) ON CONFLICT (game_id, seat) DO NOTHING",
                             (game_id, seat, user_id, log_at, at))
            return bool(cur.rowcount)

    def handovers(self, game_id: str) -> list[tuple[int, int]]:
        """(seat, log position) of every seat of the game a bot took from a suspended player."""
        return [(int(s), int(at)) for s, at in self.db.rows(
            "SELECT seat, log_at FROM mod_handovers WHERE game_id=? ORDER BY seat",
            (game_id,))]

    # -- the audit -------------------------------------------------------------------------

    @staticmethod
    def _audit(db: Any, at: float, by_user: int | None, action: str, target_user: int | None,
               *, report: int | None = None, game_id: str | None = None,
               line: int | None = None, until: float | None = None,
               detail: dict[str, Any] | None = None, reason: str) -> None:
        db.execute("INSERT INTO mod_audit (at, by_user, action, target_user, report, game_id, "
                   "line, until, detail, reason) VALUES (?,?,?,?,?,?,?,?,?,?)",
                   (at, by_user, action, target_user, report, game_id, line, until,
                    json.dumps(detail or {}), reason))

    def audit(self, limit: int = AUDIT_SHOWN) -> list[dict[str, Any]]:
        """The last actions, newest first."""
        keys = ("id", "at", "by_user", "action", "target_user", "report", "game_id", "line",
                "until", "detail", "reason")
        rows = self.db.rows(f"SELECT {', '.join(keys)} FROM mod_audit ORDER BY id DESC "
                            f"LIMIT ?", (limit,))
        out = [dict(zip(keys, row, strict=True)) for row in rows]
        for entry in out:
            entry["detail"] = json.loads(entry["detail"])
        return out

    def close(self) -> None:
        self.db.close()


_REPORT = ("id, reporter, target, target_user, game_id, line, reason, text, at, closed, "
           "outcome")


def handover_notice(room: Room, seat: int) -> dict[str, Any]:
    """The log line of a seat a bot took from a suspended player (said in each reader's
    language), shaped like the turn clocks' own (`timing.notice`)."""
    return {"kind": "replaced", "seat": seat, "player": seat, "events": [],
            "say": ("moderation.seat-bot", {"name": room.params.seats[seat].name})}


class Moderation:
    """The server's side: reports, the moderators' actions, and the checks the game server
    and the accounts make (`may_chat`, `may_play`, `may_sign_in`)."""

    def __init__(self, server: GameServer, where: Any,
                 monotonic: Callable[[], float] = time.monotonic) -> None:
        self.server = server
        self.store = ModerationStore(where)
        lim = server.limits
        self.report_limit = RateLimiter(lim.reports_per_hour / 3600, lim.report_burst)
        self._monotonic = monotonic
        self._in_force: dict[str, dict[int, float]] = {}
        self._read_at = -math.inf

    # -- sanctions in force ----------------------------------------------------------------

    def until(self, kind: str, user_id: int | None) -> float | None:
        """When the account's mute or suspension ends (`math.inf`: never); None if it has
        none in force."""
        if user_id is None:
            return None
        if self._monotonic() - self._read_at > CACHE_SECONDS:
            self._reread()
        end = self._in_force.get(kind, {}).get(user_id)
        return end if end is not None and end > self.server.clock() else None

    def _reread(self) -> None:
        self._in_force = self.store.in_force(self.server.clock())
        self._read_at = self._monotonic()

    def may_play(self, user_id: int | None) -> None:
        """Refuse a suspended account's game: creating, joining, taking a seat, playing."""
        end = self.until("suspend", user_id)
        if end is not None:
            raise ClientError("suspended", suspended_words(end))

    def may_chat(self, user_id: int | None) -> None:
        self.may_play(user_id)
        end = self.until("mute", user_id)
        if end is not None:
            raise ClientError("muted", say("moderation.muted", until=until_words(end)))

    # -- roles -----------------------------------------------------------------------------

    def moderator(self, user: User | None) -> str:
        """The role of a moderator or admin; refused for anyone else."""
        role = None if user is None else self.store.role(user.id)
        if role not in ROLES:
            raise ClientError("not-moderator", say("moderation.only"))
        return str(role)

    # -- reports ---------------------------------------------------------------------------

    def report(self, user: User, data: Any) -> dict[str, Any]:
        """A player's report on a chat line (`game`, `line`) or a player (`player`)."""
        if not isinstance(data, dict):
            raise ClientError("bad-request", say("account.body"))
        reason = data.get("reason")
        if reason not in REASONS:
            raise ClientError("bad-request", say("moderation.reason", reasons=", ".join(REASONS)))
        text = clean_text(data.get("text"), required=False, problem="moderation.words")
        target, target_user, game_id, line = self._target(user, data)
        self.report_limit.check(str(user.id), say("limit.reports"))
        made = self.store.add_report(user.id, target, target_user, game_id, line, reason, text,
                                     self.server.clock())
        if made is None:
            self.report_limit.refund(str(user.id))  # a refusal changes nothing
            raise ClientError("already-reported", say("moderation.already"))
        return {"report": made, "message": say("moderation.received")}

    def _target(self, user: User, data: dict[str, Any]
                ) -> tuple[str, int | None, str | None, int | None]:
        """What is reported: (target key, account, game, chat line)."""
        accounts = self.server.accounts
        assert accounts is not None
        if "player" in data:
            name = data.get("player")
            found = accounts.store.user_by_key(_key(name)) if isinstance(name, str) and \
                len(name) <= 200 else None
            if found is None:
                raise ClientError("not-found", say("profile.not-found"))
            if found[0].id == user.id:
                raise ClientError("bad-request", say("moderation.yourself"))
            return f"user {found[0].id}", found[0].id, None, None
        game_id, n = data.get("game"), data.get("line")
        if not (isinstance(game_id, str) and len(game_id) <= 64 and isinstance(n, int)
                and not isinstance(n, bool)):
            raise ClientError("not-found", say("moderation.no-line"))
        lines = self.server.chat.store.around(game_id, n, 0)
        if not lines:
            raise ClientError("not-found", say("moderation.no-line"))
        holder = accounts.store.holders(game_id).get(lines[0]["seat"])
        if holder == user.id:
            raise ClientError("bad-request", say("moderation.yourself"))
        return f"chat {game_id} {n}", holder, game_id, n

    # -- the moderation page ---------------------------------------------------------------

    def page(self, user: User) -> dict[str, Any]:
        """Open reports with their context, and the audit log."""
        role = self.moderator(user)
        names = self._names()
        reports = []
        for r in self.store.open_reports():
            line = {"id": r["id"], "reason": r["reason"], "text": r["text"], "at": r["at"],
                    "reporter": names(r["reporter"]), "player": names(r["target_user"]),
                    "admin": r["target_user"] is not None
                    and self.store.role(r["target_user"]) == "admin",
                    "game": r["game_id"], "line": r["line"], "context": []}
            if r["game_id"] is not None:
                line["context"] = self.server.chat.store.around(r["game_id"], r["line"], CONTEXT)
                line["watch"] = f"/game/{r['game_id']}#watch"
            reports.append(line)
        audit = [{"at": a["at"], "by": names(a["by_user"]), "action": a["action"],
                  "player": names(a["target_user"]), "game": a["game_id"], "line": a["line"],
                  "until": a["until"], "forever": a["detail"].get("forever", False),
                  "role": a["detail"].get("role"), "reason": a["reason"]}
                 for a in self.store.audit()]
        return {"you": {"name": user.name, "role": role}, "reports": reports, "audit": audit,
                "periods": list(PERIODS)}

    def _names(self) -> Callable[[int | None], str | bool | None]:
        accounts = self.server.accounts
        assert accounts is not None
        known: dict[int, str | bool | None] = {}

        def name(user_id: int | None) -> str | bool | None:
            if user_id is None:
                return None
            if user_id == FORMER:
                return False  # a deleted account (the page says so)
            if user_id not in known:
                found = accounts.store.user_by_id(user_id)
                known[user_id] = None if found is None else found.name
            return known[user_id]
        return name

    async def act(self, user: User, data: Any) -> dict[str, Any]:
        """A moderator's action on an open report: hide its chat line, mute or suspend its
        player for a period, or dismiss it; every one with a reason, in the audit."""
        role = self.moderator(user)
        if not isinstance(data, dict):
            raise ClientError("bad-request", say("account.body"))
        report_id, action = data.get("report"), data.get("action")
        report = self.store.report(report_id) if isinstance(report_id, int) else None
        if report is None or report["closed"] is not None:
            raise ClientError("not-found", say("moderation.no-report"))
        if action not in ACTIONS:
            raise ClientError("bad-request", say("moderation.action"))
        reason = clean_text(data.get("reason"), required=True, problem="moderation.why")
        target = report["target_user"]
        if target is not None and role != "admin" and self.store.role(target) == "admin":
            raise ClientError("admin-target", say("moderation.admin"))
        until = self._until(action, data.get("period"), target, report)
        now = self.server.clock()
        self.store.act(report, user.id, action, reason, now, until)
        if action == "hide":
            self._hide(report["game_id"], report["line"], user.id, now)
        elif action in ("mute", "suspend"):
            self._reread()
            if action == "suspend":
                await self._hand_over_seats(target)
        return {"ok": True}

    def _until(self, action: str, period: Any, target: int | None,
               report: dict[str, Any]) -> float | None:
        """When a mute or suspension ends (None: for good); checks what the action needs."""
        if action == "hide" and report["game_id"] is None:
            raise ClientError("bad-request", say("moderation.not-a-line"))
        if action not in ("mute", "suspend"):
            return None
        if target is None:
            raise ClientError("bad-request", say("moderation.guest"))
        if period not in PERIODS or (action == "mute" and PERIODS[period] is None):
            raise ClientError("bad-request", say("moderation.period"))
        seconds = PERIODS[period]
        return None if seconds is None else self.server.clock() + seconds

    def _hide(self, game_id: str, n: int, by_user: int, now: float) -> None:
        """Hide the line in the store, then on every page that shows it, here and on the
        other processes."""
        self.server.chat.store.hide(game_id, n, by_user, now)
        message = {"type": "chat-hidden", "n": n}
        self.server.relayed(game_id, message)
        if self.server.cluster is not None:
            self.server.cluster.relay(game_id, message)

    async def _hand_over_seats(self, user_id: int) -> None:
        """Each seat the suspended account holds in a running game goes to the bot for good,
        as after a player's last allowed miss; the other players choose whether it plays on."""
        accounts = self.server.accounts
        assert accounts is not None
        for game in accounts.store.games_of(user_id, limit=1000):
            if game["status"] != "playing":
                continue
            room = self.server.room(game["id"])
            if room is None or room.is_over:
                continue
            async with self.server.locks[room.id]:
                seat = int(game["seat"])
                if seat in room.replaced or room.params.seats[seat].kind != PERSON:
                    continue
                log_at = room.site.log_length(room.game.view(room.state, None))
                if not self.store.hand_over(room.id, seat, user_id, log_at,
                                            self.server.clock()):
                    continue
                self._bot_takes(room, seat, log_at)
                self.server.leavers.open(room, seat)
            self.server.changed(room)  # shown, stored clocks, the bot moves

    def attach(self, room: Room) -> bool:
        """A game comes into memory (or another process handed a seat over): the seats bots
        took from suspended players; True if one was new here."""
        new = False
        for seat, log_at in self.store.handovers(room.id):
            if seat not in room.replaced:
                self._bot_takes(room, seat, log_at)
                new = True
        return new

    @staticmethod
    def _bot_takes(room: Room, seat: int, log_at: int) -> None:
        room.replaced.add(seat)
        room.bots[seat] = cover_bot(room.site)
        room.notices.append((log_at, handover_notice(room, seat)))
        room.touch()

    def close(self) -> None:
        self.store.close()


def suspended_words(end: float) -> str:
    return say("moderation.suspended-for-good") if end == math.inf else \
        say("moderation.suspended", until=until_words(end))


def _key(name: str) -> str:
    return name_key(unicodedata.normalize("NFC", name))


def install(app: FastAPI, server: GameServer, accounts: Accounts) -> Moderation:
    """Moderation on a server: the checks (`server.moderation`), the seats bots took from
    suspended players in the games already in memory, the routes."""
    moderation = Moderation(server, server.store)
    server.moderation = moderation
    for room in list(server.rooms.values()):
        moderation.attach(room)
    _routes(app, moderation, accounts)
    return moderation


def _routes(app: FastAPI, moderation: Moderation, accounts: Accounts) -> None:

    def user_of(request: Request, *, changes: bool = True) -> User:
        session = accounts.signed_in(request, changes=changes)
        if session is None:
            raise ClientError("sign-in", say("account.sign-in"))
        return session.user

    async def body(request: Request) -> Any:
        return parse_json(await request.body(), what="request body")

    @app.get("/moderation")
    async def moderation_page(request: Request) -> HTMLResponse:
        """The moderators' page; anyone else is told, with a 403, that it is theirs only."""
        session = accounts.signed_in(request, changes=False)
        role = None if session is None else moderation.store.role(session.user.id)
        if role in ROLES:
            return pages.ACCOUNT_PAGES["moderation"].response()
        return pages.ACCOUNT_PAGES["moderation-denied"].response(status_code=403)

    @app.get("/api/moderation")
    async def reports(request: Request) -> dict[str, Any]:
        accounts.reading(request)
        return moderation.page(user_of(request, changes=False))

    @app.post("/api/moderation/act")
    async def act(request: Request) -> dict[str, Any]:
        user = user_of(request)
        return await moderation.act(user, await body(request))

    @app.post("/api/reports")
    async def report(request: Request) -> dict[str, Any]:
        user = user_of(request)
        return moderation.report(user, await body(request))
