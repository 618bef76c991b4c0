"""A player's own data: deleting the account, and exporting everything stored about it.

Deleting an account removes its rows from every table that names it (the account, its
sessions and known browsers, notification choices, deliveries, resets and visits, friends,
blocks, invitations, vacations, its own ratings and rating history, the seats it held, its
editions but for the versions games are played on, which no list shows any more). Its
games stay, so no one else's record breaks: each seat it held is called "Former player N",
N counting deleted accounts from 1 (the account's id is not shown; one number for all its
games), in the game's parameters, its lobby line and its chat lines, whose text stays. A game
still running goes on with a bot in that seat, as for a player who left, and the others are
asked whether it plays on or the game ends. Other players' ratings and rating history are not
touched. The name is free again at once.

The export is one JSON file: the account, its settings, ratings and rating history, friends,
blocks, vacations, chat lines, its editions (each with its newest data), and each of its
games with the game's record (finished games, as `/api/games/{id}/record` gives it). It is
streamed a game at a time, and each account may ask for it `Limits.exports_per_hour` times an
hour after a burst of `Limits.export_burst`.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, StreamingResponse

from ..text import say
from . import account_store, chat, editions_store, friends, moderation, pages, vacations
from .account_store import User
from .errors import ClientError
from .limits import RateLimiter, parse_json
from .notices import store as notice_store
from .sidedb import open_tables
from .timing import cover_bot

if TYPE_CHECKING:
    from .accounts import Accounts
    from .app import GameServer

log = logging.getLogger("tavola.web.privacy")

SCHEMA = """
CREATE TABLE IF NOT EXISTS former_players (
    number INTEGER PRIMARY KEY,      -- "Former player N": deleted accounts counted from 1
    user_id INTEGER UNIQUE           -- the account only while its deletion runs, then NULL
);
"""
EXPORT_GAMES = 5000  # games an export lists, last moved first (each with its record)
CONFIRM_LENGTH = 256  # characters of a password (or name) typed to confirm a deletion

# Every row that names an account, by table: what a deletion removes, in this order (rows
# that refer to `users` first). A table of a feature the server does not run is skipped.
OWN_ROWS: tuple[tuple[str, str], ...] = (
    ("sessions", "user_id=?"), ("devices", "user_id=?"), ("name_looks", "user_id=?"),
    ("ratings", "user_id=?"), ("rating_changes", "user_id=?"), ("game_players", "user_id=?"),
    ("vacations", "user_id=?"), ("notice_settings", "user_id=?"),
    ("deliveries", "user_id=?"), ("password_resets", "user_id=?"),
    ("table_visits", "user_id=?"), ("outbox", "account=?"),
    ("friends", "user_id=? OR friend_id=?"), ("blocks", "user_id=? OR blocked_id=?"),
    ("invitations", "user_id=? OR by_user=?"), ("users", "id=?"),
)


class Privacy:
    """Deleting and exporting accounts, on one server."""

    def __init__(self, server: GameServer, accounts: Accounts) -> None:
        self.server = server
        self.accounts = accounts
        _open_every_table(server.store)
        self.db = open_tables(server.store, "privacy", SCHEMA)
        lim = server.limits
        self.export_limit = RateLimiter(lim.exports_per_hour / 3600, lim.export_burst)

    # -- deleting ----------------------------------------------------------------------------

    async def check_confirmation(self, user: User, typed: Any) -> None:
        """The account's password (its name, for an account without one) typed again, so a
        deletion is never an accident nor the work of someone at an open session: refused
        otherwise, and limited like wrong passwords at sign-in from a known browser."""
        if not isinstance(typed, str) or not typed or len(typed) > CONFIRM_LENGTH:
            raise ClientError("confirm", say("privacy.confirm"))
        bucket = f"delete\n{user.id}"
        self.accounts.name_limit.check(bucket, say("limit.deletions"))
        if not await self.accounts.password_matches(user, typed):
            raise ClientError("confirm", say("privacy.confirm"))
        self.accounts.name_limit.refund(bucket)

    async def delete(self, user: User) -> str:
        """Delete the account (see the module's words); returns the name its games now give
        its seats. Its sessions end first, so it takes no new seat meanwhile; a deletion
        stopped half-way is finished by the next, with the same number."""
        self.accounts.store.end_sessions(user.id)
        name = say("privacy.former-player", n=self._number(user.id))
        for game_id, seat in self._seats(user.id):
            try:
                await self._forget_seat(game_id, seat, name)
            except Exception:  # one game that fails to load never keeps an account alive
                log.exception("forgetting seat %s of %s", seat, game_id)
            await asyncio.sleep(0)
        self._invitations(user.id)
        self._delete_rows(user.id)
        return name

    def _number(self, user_id: int) -> int:
        with self.db.tx() as db:
            (number,) = db.execute(
                "INSERT INTO former_players (user_id) VALUES (?) ON CONFLICT (user_id) DO "
                "UPDATE SET user_id=excluded.user_id RETURNING number", (user_id,)).fetchone()
        return int(number)

    def _seats(self, user_id: int) -> list[tuple[str, int]]:
        return [(str(g), int(s)) for g, s in self.db.rows(
            "SELECT game_id, seat FROM game_players WHERE user_id=? ORDER BY game_id, seat",
            (user_id,))]

    async def _forget_seat(self, game_id: str, seat: int, name: str) -> None:
        """The seat goes by `name` in the game and its chat; a bot plays it on if the game
        is still running."""
        server = self.server
        with self.db.tx() as db:
            db.execute("UPDATE chat_lines SET name=? WHERE game_id=? AND seat=?",
                       (name, game_id, seat))
        room = server.room(game_id)
        if room is None:
            log.warning("game %s is not hosted here: its seat %s keeps its name", game_id, seat)
            return
        async with server.locks[room.id]:
            running = not room.is_over
            room.forget_player(seat, name, cover_bot(room.site) if running else None)
            server.store.set_params(room.id, room.params.to_json(room.site), room.section(),
                                    room.summary())
        server.replays.forget(room.id)
        if running:
            server.leaver_choice(room, seat)
        server.changed(room)

    def _invitations(self, user_id: int) -> None:
        """A seat kept for the account by an invitation it did not take goes to a bot; a
        seat it kept for a friend opens to anyone."""
        seats = self.server.friends
        if seats is None:
            return
        for game_id, seat, invited in self.db.rows(
                "SELECT game_id, seat, user_id FROM invitations WHERE user_id=? OR by_user=?",
                (user_id, user_id)):
            room = self.server.room(game_id)
            if room is None or room.is_over or seat not in room.params.reserved:
                continue
            if invited == user_id:
                seats._to_bot(room, seat, cover_bot(room.site))
            else:
                seats.store.drop(room.id, seat)
                room.params.reserved.discard(seat)
                seats._store_params(room)

    def _delete_rows(self, user_id: int) -> None:
        """Every row naming the account, in one transaction."""
        with self.db.tx() as db:
            for table, where in OWN_ROWS:
                db.execute(f"DELETE FROM {table} WHERE {where}", (user_id,) * where.count("?"))
            db.execute("UPDATE games SET creator_account=NULL WHERE creator_account=?",
                       (user_id,))
            db.execute("UPDATE former_players SET user_id=NULL WHERE user_id=?", (user_id,))
            for sql in (*moderation.FORGET_ACCOUNT, *editions_store.FORGET_ACCOUNT):
                db.execute(sql, (user_id,) * sql.count("?"))

    # -- exporting ---------------------------------------------------------------------------

    def export_head(self, user: User) -> dict[str, Any]:
        """Everything of the account but its games."""
        uid = user.id
        created = self.db.rows("SELECT created FROM users WHERE id=?", (uid,))
        notifier = self.server.notifier
        settings = None if notifier is None else notifier.store.settings(uid)
        friend_list = self.server.friends
        return {
            "format": "tavola-account-export", "version": 1, "exported": time.time(),
            "account": {"name": user.name, "created": created[0][0] if created else None,
                        "email": None if settings is None else settings.email},
            "notifications": None if settings is None else settings.public(),
            "ratings": self.accounts.store.ratings_of(uid),
            "rating_history": [
                {"game_id": g, "game": name, "players": p, "before": b, "after": a, "rated": r}
                for g, name, p, b, a, r in self.db.rows(
                    "SELECT c.game_id, r.game, r.players, c.before, c.after, r.rated "
                    "FROM rating_changes c LEFT JOIN rated_games r ON r.game_id = c.game_id "
                    "WHERE c.user_id=? ORDER BY r.rated, c.game_id", (uid,))],
            "friends": [] if friend_list is None else
            [f.name for f in friend_list.store.friends(uid)],
            "blocked": [] if friend_list is None else
            [b.name for b in friend_list.store.blocked(uid)],
            "vacations": [v.to_json() for v in self.accounts.vacations.of(uid)],
            "chat": [{"game_id": g, "seat": s, "name": n, "text": t, "at": at}
                     for g, s, n, t, at in self.db.rows(
                         "SELECT c.game_id, c.seat, c.name, c.text, c.at FROM chat_lines c "
                         "JOIN game_players p ON p.game_id = c.game_id AND p.seat = c.seat "
                         "WHERE p.user_id=? ORDER BY c.game_id, c.n", (uid,))],
            "editions": [] if self.server.editions is None else
            self.server.editions.store.exported(uid),
        }

    async def export(self, user: User) -> AsyncIterator[bytes]:
        """The export as JSON text, a game at a time: its size is never held at once."""
        head = json.dumps(self.export_head(user), ensure_ascii=False)
        yield (head[:-1] + ', "games": [').encode()
        games = self.accounts.store.games_of(user.id, limit=EXPORT_GAMES)
        for i, game in enumerate(games):
            entry = {"id": game["id"], "seat": game["seat"], "status": game["status"],
                     "rated": game["rated"], "updated": game["updated"],
                     "summary": game["summary"], "record": self._record(game)}
            yield (("," if i else "") + json.dumps(entry, ensure_ascii=False)).encode()
            await asyncio.sleep(0)
        yield b"]}\n"

    def _record(self, game: dict[str, Any]) -> Any:
        """A finished game's record as its download gives it (None for a running game)."""
        if game["status"] != "over":
            return None
        room = self.server.room(game["id"])
        return None if room is None else json.loads(self.server.replays.record_of(room))


def _open_every_table(store: Any) -> None:
    """The tables of every feature that keeps rows of an account, created if the server does
    not run that feature (as each feature opens its own: the same part and versions)."""
    for part, schema in (("accounts", account_store.STEPS), ("vacations", vacations.SCHEMA),
                         ("notices", notice_store.STEPS), ("friends", friends.STEPS),
                         ("chat", chat.STEPS), ("moderation", moderation.SCHEMA),
                         ("editions", editions_store.STEPS)):
        open_tables(store, part, schema).close()


def install(app: FastAPI, server: GameServer, accounts: Accounts) -> Privacy:
    privacy = Privacy(server, accounts)
    server.privacy = privacy
    _routes(app, privacy)
    return privacy


def _routes(app: FastAPI, privacy: Privacy) -> None:
    accounts = privacy.accounts

    @app.get("/privacy")
    async def privacy_page() -> HTMLResponse:
        return pages.ACCOUNT_PAGES["privacy"].response()

    @app.get("/api/me/export")
    async def export(request: Request) -> StreamingResponse:
        session = accounts.signed_in(request, changes=False)
        if session is None:
            raise ClientError("sign-in", say("account.sign-in"))
        privacy.export_limit.check(str(session.user.id), say("limit.exports"))
        stamp = time.strftime("%Y-%m-%d", time.gmtime())
        return StreamingResponse(privacy.export(session.user), media_type="application/json",
                                 headers={"Content-Disposition": f'attachment; filename='
                                          f'"account-{stamp}.json"',
                                          "Cache-Control": "no-store"})

    @app.post("/api/me/delete")
    async def delete(request: Request) -> JSONResponse:
        """`{"confirm": PASSWORD}` (the name, for an account without a password)."""
        session = accounts.signed_in(request)
        if session is None:
            raise ClientError("sign-in", say("account.sign-in"))
        data = parse_json(await request.body(), what="request body")
        await privacy.check_confirmation(
            session.user, data.get("confirm") if isinstance(data, dict) else None)
        name = await privacy.delete(session.user)
        response = JSONResponse({"deleted": True, "former": name})
        accounts.forget_cookies(response)
        return response
