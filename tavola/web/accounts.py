"""Optional accounts: sign-up, sign-in, seats tied to accounts, "my games", profiles, ratings.

Guests play exactly as before, by seat links. A signed-in player's session is a random token in
an HttpOnly, SameSite=Lax cookie (Secure over https), kept server-side only as a hash. Every
state-changing request that the cookie authorises carries the session's CSRF token in the
`X-CSRF-Token` header (the page reads it from a second, script-readable cookie); a WebSocket
uses the session only when the page that opened it is of this site (its Origin). Passwords are
hashed with argon2id, in a worker thread, a few at a time. Wrong passwords are limited per
name and address, per name over all addresses, and per browser that signed in to the account
before (its device cookie), so a stranger's guesses never lock the owner's own browser out.
User names are checked, and compared for look-alikes, in `user_names.py`.

A seat opened or created by a signed-in player is tied to their account; a rated game (chosen
at creation) seats only signed-in people, one seat each, and bots with a measured rating, and
updates the people's ratings once when it ends (`rated_games.rated` makes it once, across
restarts).
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
import time
import unicodedata
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlparse

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import HTMLResponse, JSONResponse, Response

from .. import ratings
from ..text import say
from . import pages
from .account_store import (
    DEVICE_SECONDS,
    SESSION_SECONDS,
    AccountStore,
    Rating,
    Session,
    User,
    token_hash,
)
from .errors import ClientError
from .limits import RateLimited, RateLimiter, parse_json
from .room import BOT, PERSON, GameParams, Room
from .user_names import NAME_LENGTH, check_length, check_name, look_keys, name_key
from .vacations import Vacation, Vacations, year_of

if TYPE_CHECKING:
    from .app import GameServer
    from .notices.store import NoticeStore

log = logging.getLogger("tavola.web.accounts")
STATIC = Path(__file__).with_name("static")
# the cookies keep their names from before the rename, so nobody is signed out by an upgrade
SESSION_COOKIE = "tabletop_session"
CSRF_COOKIE = "tabletop_csrf"
DEVICE_COOKIE = "tabletop_device"  # a browser that signed in before: its own sign-in limit
DEVICE_PATH = "/api/login"  # the only request that reads it
CSRF_HEADER = "x-csrf-token"
PASSWORD_LENGTH = (8, 256)  # characters; the upper bound keeps hashing cheap to ask for
_TOKEN = re.compile(r"[A-Za-z0-9_-]{20,64}")
HASHING_AT_ONCE = 2  # password hashes computed at the same time (64 MiB of memory each)


def check_password(value: Any) -> str:
    if not isinstance(value, str):
        raise ClientError("bad-password", say("account.password-type"))
    low, high = PASSWORD_LENGTH
    if not low <= len(value) <= high:
        raise ClientError("bad-password", say("account.password-length", low=low, high=high))
    return value


class Accounts:
    """The account side of one server: its routes, and the hooks the game server calls."""

    static = STATIC

    def __init__(self, server: GameServer, store: AccountStore) -> None:
        self.server = server
        self.store = store
        lim = server.limits
        self.login_limit = RateLimiter(lim.logins_per_minute / 60, lim.login_burst)
        # keyed on (name, address), or on a device the account signed in on before
        self.name_limit = RateLimiter(lim.name_logins_per_minute / 60, lim.name_login_burst)
        self.any_address_limit = RateLimiter(lim.name_logins_any_address_per_minute / 60,
                                             lim.name_login_any_address_burst)
        self.signup_limit = RateLimiter(lim.signups_per_hour / 3600, lim.signup_burst)
        # the count of games waiting for a player, asked by the header of every page
        self.waiting_limit = RateLimiter(lim.waiting_per_second, lim.waiting_burst)
        self.hasher = PasswordHasher()  # argon2id, RFC 9106's low-memory parameters
        self._hashing = asyncio.Semaphore(HASHING_AT_ONCE)
        # a hash to check a password against when the name is unknown: the same work, so
        # timing does not tell which names exist
        self._dummy = self.hasher.hash(secrets.token_urlsafe(16))
        self.vacations = Vacations(server.store, lim.vacation_days)
        look_keys("warm")  # loads Unicode's confusables (a third of a second) now, not at a sign-up

    # -- sessions --------------------------------------------------------------------------

    def session(self, cookies: dict[str, str]) -> Session | None:
        token = cookies.get(SESSION_COOKIE)
        if not token or not _TOKEN.fullmatch(token):
            return None
        return self.store.session(token)

    def signed_in(self, request: Request, *, changes: bool = True) -> Session | None:
        """The request's session, if any; a request that `changes` something on the
        session's authority must carry its CSRF token, else it is refused."""
        session = self.session(request.cookies)
        if session is not None and changes:
            sent = request.headers.get(CSRF_HEADER, "")
            if not secrets.compare_digest(sent.encode(), session.csrf.encode()):
                raise ClientError("csrf", say("account.csrf"))
        return session

    def ws_user(self, ws: WebSocket) -> User | None:
        """The account of a WebSocket, only when a page of this site opened it."""
        origin = ws.headers.get("origin")
        if origin is not None and urlparse(origin).netloc != ws.headers.get("host"):
            return None
        session = self.session(ws.cookies)
        return None if session is None else session.user

    def _start_session(self, request: Request, user: User) -> JSONResponse:
        token, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(24)
        self.store.add_session(token, user.id, csrf)
        response = JSONResponse({"user": {"name": user.name}, "csrf": csrf})
        secure = request.url.scheme == "https"
        response.set_cookie(SESSION_COOKIE, token, max_age=SESSION_SECONDS, path="/",
                            httponly=True, samesite="lax", secure=secure)
        response.set_cookie(CSRF_COOKIE, csrf, max_age=SESSION_SECONDS, path="/",
                            httponly=False, samesite="lax", secure=secure)
        device = self._device(request)
        self.store.add_device(device, user.id)
        response.set_cookie(DEVICE_COOKIE, device, max_age=DEVICE_SECONDS, path=DEVICE_PATH,
                            httponly=True, samesite="strict", secure=secure)
        return response

    def _device(self, request: Request) -> str:
        """The browser's device token: the one this server gave it before (so one browser is
        known to each account signed in on it), else a new one."""
        token = request.cookies.get(DEVICE_COOKIE)
        if token and _TOKEN.fullmatch(token) and self.store.known_device(token):
            return token
        return secrets.token_urlsafe(32)

    async def _hash(self, password: str) -> str:
        async with self._hashing:
            return await asyncio.to_thread(self.hasher.hash, password)

    async def _verify(self, stored: str, password: str) -> bool:
        async with self._hashing:
            try:
                return await asyncio.to_thread(self.hasher.verify, stored, password)
            except (VerifyMismatchError, VerificationError, InvalidHashError):
                return False

    async def password_matches(self, user: User, typed: str) -> bool:
        """Whether `typed` is the account's password (its name, for an account without
        one: a stored hash that is empty)."""
        found = self.store.user_by_key(name_key(user.name))
        if found is None or found[0].id != user.id:
            return False
        stored = found[1]
        if not stored:
            return secrets.compare_digest(typed.encode(), user.name.encode())
        return await self._verify(stored, typed)

    @staticmethod
    def forget_cookies(response: Response) -> None:
        """The browser forgets its session (signed out, or its account deleted)."""
        response.delete_cookie(SESSION_COOKIE, path="/")
        response.delete_cookie(CSRF_COOKIE, path="/")

    def reading(self, request: Request) -> None:
        """Reads that cost a database query share the lobby's per-address limit."""
        self.server.lobby_limit.check(_client(request), say("limit.account-reads"))

    # -- sign-up, sign-in, sign-out ----------------------------------------------------------

    async def sign_up(self, request: Request) -> JSONResponse:
        _same_origin(request)
        self.signup_limit.check(_client(request), say("limit.sign-ups"))
        name, password = _credentials(await request.body())
        name = check_length(name)
        self._name_free(name)  # first: the name it imitates says more than a broken rule
        name = check_name(name)
        password = check_password(password)
        user = self.store.add_user(name, name_key(name), await self._hash(password))
        if user is None:  # taken while its password was hashed
            self._name_free(name)
            raise ClientError("name-taken", say("account.name-taken", name=name))
        return self._start_session(request, user)

    async def reset_password(self, request: Request, notices: NoticeStore) -> JSONResponse:
        """A new password from a reset link (used once, within the hour): every session of
        the account ends, and this browser is signed in."""
        _same_origin(request)
        data = parse_json(await request.body(), what="request body")
        if not isinstance(data, dict):
            raise ClientError("bad-request", say("account.body"))
        password = check_password(data.get("password"))
        token = data.get("token")
        user_id = notices.use_reset(token, time.time()) \
            if isinstance(token, str) and len(token) <= 100 else None
        user = None if user_id is None else self.store.user_by_id(user_id)
        if user is None:
            raise ClientError("bad-token", say("notice.bad-reset"))
        self.store.set_password(user.id, await self._hash(password))
        self.store.end_sessions(user.id)
        return self._start_session(request, user)

    def _name_free(self, name: str) -> None:
        """Refuse a name that is taken, or looks like a name that is, naming that name."""
        if self.store.user_by_key(name_key(name)) is not None:
            raise ClientError("name-taken", say("account.name-taken", name=name))
        other = self.store.look_alike(name)
        if other is not None:
            raise ClientError("name-taken", say("account.name-like", other=other))

    async def sign_in(self, request: Request) -> JSONResponse:
        _same_origin(request)
        self.login_limit.check(_client(request), say("limit.logins-address"))
        name, password = _credentials(await request.body())
        if not isinstance(name, str) or not isinstance(password, str) or \
                len(name) > 4 * NAME_LENGTH[1] or len(password) > PASSWORD_LENGTH[1]:
            raise ClientError("bad-login", say("account.bad-login"))
        key = name_key(unicodedata.normalize("NFC", name))
        found = self.store.user_by_key(key)
        counted = self._count_login(request, key, found[0] if found else None)
        ok = await self._verify(found[1] if found else self._dummy, password)
        if found is None or not ok:
            raise ClientError("bad-login", say("account.bad-login"))
        for limiter, bucket in counted:  # only wrong passwords count
            limiter.refund(bucket)
        user, stored = found
        self._not_suspended(user.id)  # said only to who knows the password
        if self.hasher.check_needs_rehash(stored):
            self.store.set_password(user.id, await self._hash(password))
        return self._start_session(request, user)

    def _not_suspended(self, user_id: int | None) -> None:
        """Refuse a suspended account (`moderation`), saying until when."""
        if self.server.moderation is not None:
            self.server.moderation.may_play(user_id)

    def _count_login(self, request: Request, key: str,
                     user: User | None) -> list[tuple[RateLimiter, str]]:
        """Count a sign-in attempt on the name's limits, or refuse it; the buckets it counted
        on. A browser the account signed in on before has a limit of its own; any other
        counts on the name at its address and on the name from every address together, so a
        stranger's wrong passwords never lock the owner's own browser out."""
        device = request.cookies.get(DEVICE_COOKIE)
        if user is not None and device and _TOKEN.fullmatch(device) and \
                self.store.known_device(device, user.id):
            buckets = [(self.name_limit, f"device\n{token_hash(device)}", "limit.logins-device")]
        else:
            buckets = [(self.name_limit, f"{key}\n{_client(request)}",
                        "limit.logins-name-address"),
                       (self.any_address_limit, key, "limit.logins-name")]
        counted: list[tuple[RateLimiter, str]] = []
        for limiter, bucket, what in buckets:
            wait = limiter.allow(bucket)
            if wait:
                for taken, at in counted:
                    taken.refund(at)
                raise RateLimited(wait, say(what))
            counted.append((limiter, bucket))
        return counted

    def sign_out(self, request: Request) -> JSONResponse:
        """End the session: only this site's page can (its Origin, the session cookie and
        its CSRF token); anything else is refused and deletes no cookie, so another site's
        form cannot sign a player out."""
        _same_origin(request)
        session = self.signed_in(request)
        if session is None:
            raise ClientError("sign-in", say("account.sign-in"))
        self.store.end_session(request.cookies[SESSION_COOKIE])
        response = JSONResponse({"user": None})
        self.forget_cookies(response)
        return response

    # -- hooks: creating, joining, opening seats, the end of a game ---------------------------

    def create_game(self, request: Request, data: Any) -> Room:
        """`GameServer.create` with the account rules: the creator's seat is theirs, and a
        rated game is checked before it exists."""
        session = self.signed_in(request)
        rated = data.get("rated", False) if isinstance(data, dict) else False
        if not isinstance(rated, bool):
            raise ClientError("bad-request", say("rated.type"))
        if rated and session is None:
            raise ClientError("sign-in", say("rated.sign-in"))
        check = self._check_rated if rated else None
        friends = self.server.friends
        user = None if session is None else session.user
        self._not_suspended(None if user is None else user.id)
        invites = friends.invitees(data, user) if friends is not None else {}
        room = self.server.create(data, _client(request), check=check,
                                  account=None if user is None else user.id)
        if user is not None:
            for seat in room.claimed:
                self._hold(room, seat, user)
        if friends is not None and user is not None:
            friends.invite_seats(room, invites, user)
        if rated:
            self.store.add_rated(room.id, room.game.info.name, len(room.params.seats))
        return room

    def rematched(self, old: Room, new: Room) -> None:
        """A rematch's seats are held by the accounts that held them in the game, and it is
        rated when the game was (the same seats, bots and player count: its checks hold)."""
        for seat, user in self.store.holders(old.id).items():
            self.store.hold(new.id, seat, user)
        rated = self.store.rated_game(old.id)
        if rated is not None:
            self.store.add_rated(new.id, rated[0], rated[1])

    def _check_rated(self, params: GameParams) -> None:
        """Every bot of a rated game has a measured rating at its player count; the deal is
        the server's (no chosen seed)."""
        n = len(params.seats)
        if not any(seat.kind == PERSON for seat in params.seats):
            raise ClientError("bad-seats", say("rated.no-person"))
        if params.seed is not None:
            raise ClientError("seed-not-allowed", say("rated.seed"))
        if params.edition:
            raise ClientError("bad-edition", say("rated.edition"))
        measured = [b for b in self.server.sites[params.game].levels
                    if ratings.bot_rating(params.game, n, b) is not None]
        for seat in params.seats:
            if seat.kind == BOT and ratings.bot_rating(params.game, n, seat.bot or "") is None:
                if not measured:
                    raise ClientError("bad-bot", say("rated.no-bots-measured", players=n))
                raise ClientError("bad-bot", say("rated.no-bot-rating", bot=seat.name,
                                                 players=n, bots=", ".join(measured)))

    def join(self, request: Request, game_id: str) -> tuple[int, str]:
        """`GameServer.claim` for the lobby's Join: a rated game's seat only for a signed-in
        player, and the seat is tied to the account."""
        session = self.signed_in(request)
        self._not_suspended(None if session is None else session.user.id)
        rated = self.store.rated_game(game_id) is not None
        if rated and session is None:
            raise ClientError("sign-in", say("seat.rated-sign-in"))
        if rated and session is not None and \
                session.user.id in self.store.holders(game_id).values():
            raise ClientError("full", say("seat.rated-twice"))
        if session is not None and self.server.friends is not None:
            self.server.friends.may_join(game_id, session.user)
        seat, token = self.server.claim(game_id, _client(request))
        if session is not None:
            room = self.server.room(game_id)
            if room is not None:
                self._hold(room, seat, session.user)
        return seat, token

    def opening(self, ws: WebSocket, room: Room, seat: int | None) -> None:
        """A seat link opened over a WebSocket: tie the seat to the signed-in player; in a
        rated game refuse guests, another account's seat, and a second seat."""
        if seat is None:
            return
        user = self.ws_user(ws)
        self._not_suspended(None if user is None else user.id)
        if user is not None and self.server.notifier is not None:
            self.server.notifier.at_table(user.id, room.id)
        holder = self.store.seat_holder(room.id, seat)
        if self.server.friends is not None and (holder is None or user is None
                                                or holder != user.id):
            self.server.friends.may_take(room, seat, user)
        rated = self.store.rated_game(room.id) is not None
        if not rated:
            if user is not None and holder is None:
                self._hold(room, seat, user)
            return
        if user is None:
            raise ClientError("sign-in", say("seat.rated-sign-in"))
        if holder is not None and holder != user.id:
            raise ClientError("other-account", say("seat.other-account"))
        if holder is None:
            if user.id in self.store.holders(room.id).values():
                raise ClientError("other-account", say("seat.rated-twice"))
            if not self._hold(room, seat, user):
                raise ClientError("other-account", say("seat.other-account"))

    def _hold(self, room: Room, seat: int, user: User) -> bool:
        """Tie a seat to an account, which then names it (`GameServer.name_seat`); False if
        another account holds it."""
        if not self.store.hold(room.id, seat, user.id):
            return False
        self.server.name_seat(room, seat, user.name)
        return True

    def game_over(self, room: Room) -> bool:
        """Count a rated game's result in its people's ratings, once; True if it was counted
        now."""
        rated = self.store.rated_game(room.id)
        if rated is None or rated[2] or not room.is_over:
            return False
        game, players = rated[0], rated[1]
        holders = self.store.holders(room.id)
        seats: list[tuple[float, float]] = []
        for i, s in enumerate(room.params.seats):
            if s.kind == PERSON:
                if i not in holders:
                    log.warning("rated game %s ended with seat %s held by no account",
                                room.id, i)
                    return self.store.apply_result(room.id, {})
                r = self.store.rating(holders[i], game, players)
                seats.append((r.mu, r.sigma) if r else ratings.default_rating())
            else:
                bot = ratings.bot_rating(game, players, s.bot or "")
                seats.append((bot.mu, bot.sigma) if bot else ratings.default_rating())
        after = ratings.update(seats, rating_ranks(room))
        new = {holders[i]: (Rating(*seats[i]), Rating(*after[i])) for i in holders
               if i < len(seats)}
        return self.store.apply_result(room.id, new)

    def resume(self) -> int:
        """Count the rated games that ended while the server stopped before counting them."""
        counted = 0
        for game_id in self.store.unrated_ended():
            room = self.server.room(game_id)
            if room is not None and self.game_over(room):
                counted += 1
        return counted

    # -- vacations (`tavola.web.vacations`) ------------------------------------------------

    def take_vacation(self, user_id: int, days: Any) -> Vacation:
        """A vacation from now (or the end of the one the player is on): their clocks stand
        still, and the tables in memory show it."""
        vacation = self.vacations.take(user_id, days, self.server.clock())
        self.server.turns.refresh(user_id)
        return vacation

    def end_vacation(self, user_id: int) -> int:
        """Back early: the days not begun are given back; returns how many."""
        back = self.vacations.end(user_id, self.server.clock())
        self.server.turns.refresh(user_id)
        return back

    def vacation_json(self, user_id: int) -> dict[str, Any]:
        """The account page's vacation part: the year's days, what is left, the vacation on
        now or to come."""
        now = self.server.clock()
        year = year_of(now)
        return {"days_per_year": self.vacations.days_per_year, "year": year,
                "left": self.vacations.days_left(user_id, year),
                "until": self.vacations.until(user_id, now),
                "taken": [v.to_json() for v in self.vacations.of(user_id)
                          if year_of(v.start) == year or v.until > now]}

    # -- what a player reads -----------------------------------------------------------------

    def my_games(self, user: User) -> dict[str, list[dict[str, Any]]]:
        """The account's games: running (someone else to move), waiting for you, finished."""
        out: dict[str, list[dict[str, Any]]] = {"waiting": [], "running": [], "finished": []}
        for g in self.store.games_of(user.id):
            if g["status"] not in ("playing", "over"):
                continue
            line = _line(g)
            line["link"] = f"/game/{g['id']}#{g['token']}" if g["token"] else None
            if g["status"] == "over":
                out["finished"].append(line)
            elif g["seat"] in _asked(g["summary"]):
                out["waiting"].append(line)
            else:
                out["running"].append(line)
        return out

    def waiting(self, user: User, after: str | None = None) -> dict[str, Any]:
        """The header's count of the games that wait for the player, and the first of them
        other than the game `after` (the table's "Next game" after a move there)."""
        self.waiting_limit.check(str(user.id), say("limit.waiting"))
        count = self.store.waiting_count(user.id)
        first = [g for g in self.store.waiting(user.id, limit=2) if g["id"] != after][:1]
        return {"count": count, "next": self._waiting_line(first[0]) if first else None}

    def your_move(self, user: User) -> dict[str, Any]:
        """The "Your move" page: every game that asks a seat of the player, the one whose
        time runs out first first (`AccountStore.waiting`)."""
        games = [self._waiting_line(g) for g in self.store.waiting(user.id)]
        return {"user": {"name": user.name}, "count": self.store.waiting_count(user.id),
                "games": games}

    def _waiting_line(self, g: dict[str, Any]) -> dict[str, Any]:
        """A waiting game: its line, its seat's link and the seconds left on its clock."""
        left = None if g["deadline"] is None else max(0.0, g["deadline"] - self.server.clock())
        return {**_line(g), "link": f"/game/{g['id']}#{g['token']}" if g["token"] else None,
                "left": left}

    def profile(self, name: str, viewer: User | None) -> dict[str, Any]:
        """A player's public page: ratings and finished games; a game's id only where the
        game is listed or the viewer is that player (an id lets anyone watch)."""
        found = self.store.user_by_key(name_key(name)) if isinstance(name, str) and \
            len(name) <= 4 * NAME_LENGTH[1] else None
        if found is None:
            raise ClientError("not-found", say("profile.not-found"))
        user = found[0]
        own = viewer is not None and viewer.id == user.id
        changes = self.store.changes_of(user.id)
        history = []
        for g in self.store.games_of(user.id, limit=200):
            if g["status"] != "over":
                continue
            line = _line(g)
            if not (own or g["summary"].get("public")):
                line["id"] = None
            change = changes.get(g["id"])
            line["rating"] = None if change is None else {"before": round(change[0], 2),
                                                           "after": round(change[1], 2)}
            history.append(line)
        friends = {} if self.server.friends is None else \
            self.server.friends.on_profile(user, viewer)
        return {"name": user.name, "ratings": self.store.ratings_of(user.id),
                "games": history, "you": own, **friends,
                "vacation_until": self.vacations.until(user.id, self.server.clock())}

    def leaderboard(self, game: Any, players: Any) -> dict[str, Any]:
        site = self.server.table.site(game)
        info = site.game.info
        if not isinstance(players, int) or not info.min_players <= players <= info.max_players:
            raise ClientError("bad-request", say("board.players", low=info.min_players,
                                                 high=info.max_players))
        bots = [{"bot": b, "name": site.level_name(b), "rating": round(r.mu - 3 * r.sigma, 2),
                 "mu": r.mu, "sigma": r.sigma} for b in site.levels
                if (r := ratings.bot_rating(info.name, players, b)) is not None]
        return {"game": info.name, "title": info.title, "players": players,
                "people": self.store.leaderboard(info.name, players), "bots": bots}


def rating_ranks(room: Room) -> list[int]:
    """The places ratings count: a player who left (a bot took their seat for good) is last,
    whatever the bot made of it; the others keep the game's order among them, or share first
    place when the others ended the game early (nobody loses rating for where an unfinished
    game stood)."""
    ranks = list(room.game.ranks(room.state)) if room.ended is None else \
        [1] * len(room.params.seats)
    leavers = set(room.replaced) | (set() if room.ended is None else {room.ended["leaver"]})
    last = 1 + max((r for i, r in enumerate(ranks) if i not in leavers), default=0)
    return [last if i in leavers else r for i, r in enumerate(ranks)]


def _line(g: dict[str, Any]) -> dict[str, Any]:
    """A game of a player's list: the lobby line's public facts and the player's seat."""
    s = g["summary"]
    seats = s.get("seats") if isinstance(s.get("seats"), list) else []
    winners = s.get("winners") if isinstance(s.get("winners"), list) else []
    return {"id": g["id"], "game": s.get("game"), "seat": g["seat"], "rated": g["rated"],
            "round": s.get("round"), "updated": g["updated"], "over": g["status"] == "over",
            "won": g["seat"] in winners,
            "seats": [{"name": x.get("name"), "kind": x.get("kind"), "bot": x.get("bot"),
                       "score": x.get("score")} for x in seats if isinstance(x, dict)],
            "winners": winners}


def _asked(summary: dict[str, Any]) -> list[Any]:
    """The seats a stored lobby line says the game asks (an older line: whose turn it is)."""
    asked = summary.get("asked", summary.get("to_move"))
    return asked if isinstance(asked, list) else []


def _client(request: Request) -> str:
    return request.client.host if request.client else ""


def _same_origin(request: Request) -> None:
    """Signing in, up and out only from this site's pages (when the browser says where
    from)."""
    origin = request.headers.get("origin")
    if origin is not None and urlparse(origin).netloc != request.headers.get("host"):
        raise ClientError("csrf", say("account.csrf"))


def _credentials(body: bytes) -> tuple[Any, Any]:
    data = parse_json(body, what="request body")
    if not isinstance(data, dict):
        raise ClientError("bad-request", say("account.body"))
    return data.get("name"), data.get("password")


def install(app: FastAPI, server: GameServer, store: AccountStore) -> Accounts:
    """Accounts on a server: the routes, the hooks (`server.accounts`), and the count of
    rated games that ended unrated before a stop."""
    accounts = Accounts(server, store)
    server.accounts = accounts
    accounts.resume()
    _routes(app, accounts)
    return accounts


def _routes(app: FastAPI, accounts: Accounts) -> None:
    for name in ("me", "leaderboard", "account", "your-move", "friends"):
        app.add_api_route(f"/{name}", _page(name), methods=["GET"])

    @app.get("/players/{name}")
    async def profile_page(name: str) -> HTMLResponse:
        return pages.ACCOUNT_PAGES["profile"].response()

    @app.post("/api/signup")
    async def sign_up(request: Request) -> Response:
        return await accounts.sign_up(request)

    @app.post("/api/login")
    async def sign_in(request: Request) -> Response:
        return await accounts.sign_in(request)

    @app.post("/api/logout")
    async def sign_out(request: Request) -> Response:
        return accounts.sign_out(request)

    @app.get("/api/me")
    async def me(request: Request) -> dict[str, Any]:
        session = accounts.signed_in(request, changes=False)
        if session is None:
            return {"user": None, "csrf": None}
        friends, moderation = accounts.server.friends, accounts.server.moderation
        return {"user": {"name": session.user.name}, "csrf": session.csrf,
                "invitations": 0 if friends is None else friends.pending(session.user),
                "role": None if moderation is None else moderation.store.role(session.user.id)}

    @app.get("/api/me/games")
    async def my_games(request: Request) -> dict[str, Any]:
        accounts.reading(request)
        session = accounts.signed_in(request, changes=False)
        if session is None:
            raise ClientError("sign-in", say("account.sign-in"))
        return {"user": {"name": session.user.name}, **accounts.my_games(session.user)}

    @app.get("/api/me/waiting")
    async def waiting(request: Request, after: str | None = None) -> dict[str, Any]:
        session = accounts.signed_in(request, changes=False)
        if session is None:
            return {"count": None, "next": None}
        return accounts.waiting(session.user, after)

    @app.get("/api/me/your-move")
    async def your_move(request: Request) -> dict[str, Any]:
        accounts.reading(request)
        session = accounts.signed_in(request, changes=False)
        if session is None:
            raise ClientError("sign-in", say("account.sign-in"))
        return accounts.your_move(session.user)

    @app.get("/api/me/vacation")
    async def vacation(request: Request) -> dict[str, Any]:
        accounts.reading(request)
        user = _signed_in_user(accounts, request, changes=False)
        return accounts.vacation_json(user.id)

    @app.post("/api/me/vacation")
    async def take_vacation(request: Request) -> dict[str, Any]:
        """`{"days": N}`: a vacation of N days from now (or from the end of the one on)."""
        user = _signed_in_user(accounts, request)
        data = parse_json(await request.body(), what="request body")
        accounts.take_vacation(user.id, data.get("days") if isinstance(data, dict) else None)
        return accounts.vacation_json(user.id)

    @app.post("/api/me/vacation/end")
    async def end_vacation(request: Request) -> dict[str, Any]:
        user = _signed_in_user(accounts, request)
        accounts.end_vacation(user.id)
        return accounts.vacation_json(user.id)

    @app.get("/api/players/{name}")
    async def player(name: str, request: Request) -> dict[str, Any]:
        accounts.reading(request)
        session = accounts.signed_in(request, changes=False)
        return accounts.profile(name, None if session is None else session.user)

    @app.get("/api/leaderboard")
    async def leaderboard(request: Request, game: str | None = None,
                          players: int = 2) -> dict[str, Any]:
        accounts.reading(request)
        return accounts.leaderboard(game, players)


def _signed_in_user(accounts: Accounts, request: Request, *, changes: bool = True) -> User:
    session = accounts.signed_in(request, changes=changes)
    if session is None:
        raise ClientError("sign-in", say("account.sign-in"))
    return session.user


def _page(name: str) -> Any:
    async def page() -> HTMLResponse:
        return pages.ACCOUNT_PAGES[name].response()
    return page
