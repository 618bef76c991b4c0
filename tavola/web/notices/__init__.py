"""Telling players what waits for them when they are not at the table: e-mail and webhooks.

A move that asks a player writes its "your turn" to the outbox in the move's own transaction
(`tavola.web.outbox`); everything else that is worth a message (an invitation, a nudge, a
clock running low, an address to verify, a password to reset) writes its row here. The sender
(`sender.py`) delivers them, once per recipient and channel. Each account chooses its
channels and events on the account page (`/api/me/notifications`): an e-mail address it has
verified by a link, and a webhook (Discord, Slack, or plain JSON). Without an SMTP relay
(`serve --smtp`), e-mail is off and the account page says so.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, Response

from ... import i18n
from ...text import say
from .. import outbox, pages
from ..errors import ClientError
from ..limits import RateLimiter, parse_json
from ..outbox import Notice
from ..user_names import name_key
from .channels import Refused, check_webhook
from .compose import say_n
from .sender import Config, Sender
from .store import KINDS, TURN_MODES, WEBHOOK_FORMATS, NoticeStore, Settings, digest

if TYPE_CHECKING:
    from ..accounts import Accounts
    from ..app import GameServer
    from ..room import Room

__all__ = ["Config", "Notifier", "Sender", "install"]

EMAIL_LENGTH = 254
_EMAIL = re.compile(r"[^@\s\x00-\x1f\x7f<>(),;:\"\[\]\\]{1,64}"  # the local part
                    r"@[A-Za-z0-9.-]{1,190}\.[A-Za-z]{2,63}")  # a host name with a dot
NUDGE_SECONDS = 86_400  # one nudge per game and seat a day
CLOCK_SHARE = 0.1  # a clock with less than this share of its time left is told
VISIT_SECONDS = 60.0  # a player at the table is noted at most once a minute


def check_email(value: Any) -> str:
    if not isinstance(value, str) or len(value) > EMAIL_LENGTH or \
            not _EMAIL.fullmatch(value.strip()):
        raise ClientError("bad-email", say("notice.bad-email"))
    return value.strip()


class Notifier:
    """The server's side of notifications: the rows it writes, the choices it keeps."""

    def __init__(self, server: GameServer, config: Config) -> None:
        self.server = server
        self.config = config
        self.store = NoticeStore(server.store)
        self.sender = Sender(self.store, config, server.clock)
        limits = server.limits
        self.email_limit = RateLimiter(limits.verify_emails_per_hour / 3600,
                                       limits.verify_email_burst)
        self.reset_limit = RateLimiter(limits.resets_per_hour / 3600, limits.reset_burst)
        self._visits: dict[tuple[int, str], float] = {}

    @property
    def accounts(self) -> Accounts:
        assert self.server.accounts is not None
        return self.server.accounts

    def write(self, notices: list[Notice]) -> None:
        """Rows that no move carries (their own transaction)."""
        now = self.server.clock()
        with self.store.tx() as db:
            outbox.write(db, "", outbox.Notices(notices), now)

    # -- events besides moves --------------------------------------------------------------

    def invited(self, account: int, game_id: str, seat: int, by: str, answer: str) -> None:
        """An account was invited to a seat (`answer`: the page where it says yes or no)."""
        self.write([Notice("invite", f"invite:{game_id}:{seat}:{account}", game_id, seat,
                           account, {"by": by, "answer": answer})])

    def nudge(self, room: Room, seat: int, by: str) -> None:
        """A player reminds the seat that the game waits for it; once a day per seat."""
        if not room.params.timing:
            raise ClientError("no-nudge", say("notice.nudge-live"))
        if seat not in room.asked():
            raise ClientError("no-nudge", say("notice.nudge-not-asked"))
        now = self.server.clock()
        if not self.store.nudge(room.id, seat, now, NUDGE_SECONDS):
            raise ClientError("nudged", say("notice.nudged"))
        self.write([Notice("nudge", f"nudge:{room.id}:{seat}:{int(now)}", room.id, seat,
                           data={"by": by})])

    def leaver(self, room: Room, seat: int, voters: list[int]) -> None:
        """The seats `voters` choose what becomes of a seat out of time for good (counted
        as a turn: the player is asked to act)."""
        name = room.params.seats[seat].name
        self.write([Notice("choice", f"choice:{room.id}:{seat}:{v}", room.id, v,
                           data={"name": name}) for v in voters])

    def clocks(self, now: float) -> int:
        """Tell each seat whose clock has less than a tenth of its time left, once per
        clock (every process may look: the key keeps one row)."""
        rows = self.store.db.rows(
            "SELECT game_id, seat, started, deadline FROM turn_clocks WHERE deadline > ? "
            "AND deadline - ? < (deadline - started) * ?", (now, now, CLOCK_SHARE))
        if rows:
            self.write([Notice("clock", f"clock:{g}:{s}:{int(started)}", g, int(s),
                               data={"left": _duration(deadline - now)})
                        for g, s, started, deadline in rows])
        return len(rows)

    def at_table(self, user_id: int, game_id: str) -> None:
        """The player is at the game's table: a "your turn" after minutes away waits."""
        now = self.server.clock()
        key = (user_id, game_id)
        if now - self._visits.get(key, -VISIT_SECONDS) < VISIT_SECONDS:
            return
        self._visits[key] = now
        if len(self._visits) > 50_000:
            self._visits.clear()
        self.store.visited(user_id, game_id, now)

    # -- the account's choices -------------------------------------------------------------

    def settings(self, user_id: int, lang: str) -> dict[str, Any]:
        s = self.store.settings_or_default(user_id, lang)
        return {**s.public(), "email_enabled": self.config.relay is not None,
                "kinds": list(KINDS), "turn_modes": list(TURN_MODES),
                "webhook_formats": list(WEBHOOK_FORMATS)}

    def change(self, user_id: int, lang: str, data: Any) -> Settings:
        """Apply the account page's choices; a `ClientError` names the first bad one and
        changes nothing."""
        if not isinstance(data, dict):
            raise ClientError("bad-request", say("account.body"))
        s = self.store.settings_or_default(user_id, lang)
        s.lang = i18n.language(data.get("lang", s.lang))
        if "events" in data:
            events = data["events"]
            if not isinstance(events, list) or any(e not in KINDS for e in events):
                raise ClientError("bad-request", say("notice.bad-events"))
            s.events = [k for k in KINDS if k in events]
        if "turn_mode" in data:
            if data["turn_mode"] not in TURN_MODES:
                raise ClientError("bad-request", say("notice.bad-mode"))
            s.turn_mode = data["turn_mode"]
        s.turn_after = _int_in(data.get("turn_after", s.turn_after), 5, 24 * 60,
                               "notice.bad-after")
        s.digest_hour = _int_in(data.get("digest_hour", s.digest_hour), 0, 23,
                                "notice.bad-hour")
        if "email_on" in data:
            s.email_on = bool(data["email_on"])
        if "webhook_format" in data:
            if data["webhook_format"] not in WEBHOOK_FORMATS:
                raise ClientError("bad-request", say("notice.bad-format"))
            s.webhook_format = data["webhook_format"]
        if "webhook" in data:
            s.webhook = self._webhook(data["webhook"])
        self.store.save(s)
        return s

    def _webhook(self, url: Any) -> str | None:
        if url in (None, ""):
            return None
        try:
            return check_webhook(url, loopback=self.config.loopback_webhooks).url
        except Refused as exc:
            raise ClientError("bad-webhook", say("notice.bad-webhook", why=str(exc))) from None

    def set_email(self, user_id: int, name: str, lang: str, value: Any) -> None:
        """A new address: unverified until its link is opened; the link is sent now."""
        if self.config.relay is None:
            raise ClientError("no-email", say("notice.email-off"))
        address = check_email(value)
        self.email_limit.check(str(user_id), say("limit.verify-emails"))
        s = self.store.settings_or_default(user_id, lang)
        s.email, s.email_verified = address, False
        self.store.save(s)
        token = self.store.start_verification(user_id)
        self.write([Notice("verify", f"verify:{user_id}:{digest(token)[:24]}",
                           account=user_id, data={"token": token, "email": address,
                                                  "name": name})])

    def forgot(self, name: Any, client: str) -> None:
        """A reset link to the account's verified address, if it has one; the answer is the
        same either way, so nobody learns who has an address."""
        self.reset_limit.check(client, say("limit.resets"))
        if not isinstance(name, str) or len(name) > 200:
            return
        found = self.accounts.store.user_by_key(name_key(name))
        if found is None:
            return
        user = found[0]
        self.reset_limit.check(f"user:{user.id}", say("limit.resets"))
        s = self.store.settings(user.id)
        if s is None or not s.email or not s.email_verified or self.config.relay is None:
            return
        token = self.store.start_reset(user.id, self.server.clock())
        self.write([Notice("reset", f"reset:{user.id}:{digest(token)[:24]}", account=user.id,
                           data={"token": token, "email": s.email, "name": user.name})])


def _int_in(value: Any, low: int, high: int, key: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ClientError("bad-request", say(key, low=low, high=high))
    return value


def _duration(seconds: float) -> str:
    minutes = max(1, int(seconds // 60))
    if minutes < 120:
        return say_n("notice.minutes", minutes)
    return say_n("notice.hours", minutes // 60)


def install(app: FastAPI, server: GameServer, config: Config) -> Notifier:
    notifier = Notifier(server, config)
    server.notifier = notifier
    _routes(app, notifier)
    return notifier


def _signed_in(notifier: Notifier, request: Request, changes: bool) -> Any:
    session = notifier.accounts.signed_in(request, changes=changes)
    if session is None:
        raise ClientError("sign-in", say("account.sign-in"))
    return session


def _routes(app: FastAPI, notifier: Notifier) -> None:

    @app.get("/api/me/notifications")
    async def my_settings(request: Request) -> dict[str, Any]:
        notifier.accounts.reading(request)
        session = _signed_in(notifier, request, changes=False)
        return notifier.settings(session.user.id, i18n.current())

    @app.post("/api/me/notifications")
    async def change_settings(request: Request) -> dict[str, Any]:
        session = _signed_in(notifier, request, changes=True)
        data = parse_json(await request.body(), what="request body")
        await notifier.server.store_calls.off_loop(
            lambda: notifier.change(session.user.id, i18n.current(), data))
        return notifier.settings(session.user.id, i18n.current())

    @app.post("/api/me/email")
    async def set_email(request: Request) -> dict[str, Any]:
        session = _signed_in(notifier, request, changes=True)
        data = parse_json(await request.body(), what="request body")
        value = data.get("email") if isinstance(data, dict) else None
        notifier.set_email(session.user.id, session.user.name, i18n.current(), value)
        return notifier.settings(session.user.id, i18n.current())

    @app.post("/api/verify-email")
    async def verify_email(request: Request) -> dict[str, Any]:
        data = parse_json(await request.body(), what="request body")
        token = data.get("token") if isinstance(data, dict) else None
        if not isinstance(token, str) or len(token) > 100 or \
                notifier.store.verify(token) is None:
            raise ClientError("bad-token", say("notice.bad-verify"))
        return {"verified": True}

    @app.get("/verify-email")
    async def verify_page() -> HTMLResponse:
        return pages.ACCOUNT_PAGES["verify-email"].response()

    @app.get("/unsubscribe/{token}")
    async def unsubscribe_page(token: str) -> HTMLResponse:
        return pages.ACCOUNT_PAGES["unsubscribe"].response()

    @app.post("/unsubscribe/{token}")
    async def unsubscribe(token: str) -> Response:
        """One click, from the mail client (RFC 8058) or the page: no session needed."""
        done = len(token) <= 100 and notifier.store.unsubscribe(token) is not None
        if not done:
            raise ClientError("bad-token", say("notice.bad-unsubscribe"))
        return HTMLResponse(f"<!doctype html><p>{say('notice.unsubscribed')}</p>")

    @app.post("/api/games/{game_id}/nudge")
    async def nudge(game_id: str, request: Request) -> dict[str, Any]:
        session = _signed_in(notifier, request, changes=True)
        data = parse_json(await request.body(), what="request body")
        seat = data.get("seat") if isinstance(data, dict) else None
        room = await notifier.server.room_waiting(game_id)
        if room is None:
            raise ClientError("not-found", say("error.not-found"))
        holders = notifier.accounts.store.holders(game_id)
        if session.user.id not in holders.values():
            raise ClientError("not-your-game", say("notice.nudge-players"))
        if not isinstance(seat, int) or holders.get(seat) == session.user.id:
            raise ClientError("bad-request", say("notice.nudge-not-asked"))
        notifier.nudge(room, seat, session.user.name)
        return {"nudged": seat}

    @app.post("/api/password/forgot")
    async def forgot(request: Request) -> dict[str, Any]:
        data = parse_json(await request.body(), what="request body")
        client = request.client.host if request.client else ""
        await notifier.server.store_calls.off_loop(
            lambda: notifier.forgot(data.get("name") if isinstance(data, dict) else None,
                                    client))
        return {"sent": say("notice.reset-sent")}

    @app.get("/reset-password")
    async def reset_page() -> HTMLResponse:
        return pages.ACCOUNT_PAGES["reset-password"].response()

    @app.post("/api/password/reset")
    async def reset(request: Request) -> Response:
        return await notifier.accounts.reset_password(request, notifier.store)


