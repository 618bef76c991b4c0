"""Friends, blocks and invitations between accounts.

A friend is one-sided, as on Board Game Arena: adding a player by name needs no answer from
them (it puts them on your list, where you see their listed games and reach their profile),
and it lets you invite them. A block is one-sided too and wins over everything: a player you
blocked cannot invite you, take a seat in a game where you hold one, read your chat lines or
have you read theirs, or see your friends on your profile; blocking ends the friendship both
ways and declines the invitations between you.

An invitation keeps a person seat of a new game for one account (`GameParams.reserved`):
nobody else may take it, by the lobby's Join or by its link, which only the invited player is
given, when they accept. When they decline, or leave it unanswered for
`Limits.invitation_seconds`, whoever invited them may invite another friend, give the seat to
a bot, or open it to anyone. `GameServer._invited` is called once per invitation made.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request

from .. import ratings
from ..text import say
from .account_store import User
from .errors import ClientError
from .limits import RateLimiter, parse_json
from .room import PERSON, Room
from .sidedb import open_tables
from .user_names import NAME_LENGTH, name_key

if TYPE_CHECKING:
    from .accounts import Accounts
    from .app import GameServer
    from .connection import Connection

SCHEMA = """
CREATE TABLE IF NOT EXISTS friends (
    user_id INTEGER NOT NULL,        -- who added
    friend_id INTEGER NOT NULL,      -- whom: one-sided, no answer needed
    created REAL NOT NULL,
    PRIMARY KEY (user_id, friend_id)
);
CREATE TABLE IF NOT EXISTS blocks (
    user_id INTEGER NOT NULL,        -- who blocked
    blocked_id INTEGER NOT NULL,
    created REAL NOT NULL,
    PRIMARY KEY (user_id, blocked_id)
);
CREATE INDEX IF NOT EXISTS blocks_blocked ON blocks (blocked_id);
CREATE TABLE IF NOT EXISTS invitations (
    game_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    game TEXT NOT NULL,              -- which game it is (its name in the registry)
    user_id INTEGER NOT NULL,        -- the invited account
    by_user INTEGER NOT NULL,        -- who invited (the game's creator)
    created REAL NOT NULL,
    answer TEXT,                     -- 'accepted' | 'declined'; NULL while unanswered
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX IF NOT EXISTS invitations_user ON invitations (user_id);
CREATE INDEX IF NOT EXISTS invitations_by ON invitations (by_user);
"""
STEPS = (SCHEMA,)
MAX_FRIENDS = 500  # accounts on one friend list
LISTED_INVITATIONS = 100  # invitations a player's list shows, newest first


class FriendStore:
    """The friends, blocks and invitations tables, next to the accounts'."""

    def __init__(self, where: Any) -> None:
        self.db = open_tables(where, "friends", STEPS)

    @contextmanager
    def _tx(self) -> Iterator[Any]:
        with self.db.tx() as db:
            yield db

    def add_friend(self, user_id: int, friend_id: int) -> None:
        with self._tx() as db:
            db.execute("INSERT INTO friends (user_id, friend_id, created) VALUES (?,?,?) "
                       "ON CONFLICT DO NOTHING", (user_id, friend_id, time.time()))

    def remove_friend(self, user_id: int, friend_id: int) -> None:
        with self._tx() as db:
            db.execute("DELETE FROM friends WHERE user_id=? AND friend_id=?",
                       (user_id, friend_id))

    def friends(self, user_id: int) -> list[User]:
        return [User(i, n) for i, n in self.db.rows(
            "SELECT u.id, u.name FROM friends f JOIN users u ON u.id = f.friend_id "
            "WHERE f.user_id=? ORDER BY u.name_key", (user_id,))]

    def friends_games(self, user_id: int, limit: int = 200) -> dict[int, list[dict[str, Any]]]:
        """The listed games not finished (lobby sections open and playing) where the friends
        of `user_id` hold a seat, by friend, last moved first: one query for the whole list."""
        out: dict[int, list[dict[str, Any]]] = {}
        for friend, game_id, seat, section, summary in self.db.rows(
                "SELECT f.friend_id, g.id, p.seat, g.section, g.summary FROM friends f "
                "JOIN game_players p ON p.user_id = f.friend_id JOIN games g ON g.id = p.game_id "
                "WHERE f.user_id=? AND g.section IN ('open', 'playing') "
                "ORDER BY g.updated DESC LIMIT ?", (user_id, limit)):
            try:
                line = json.loads(summary) if summary else {}
            except ValueError:
                line = {}
            line = line if isinstance(line, dict) else {}
            out.setdefault(friend, []).append({
                "id": game_id, "game": line.get("game"), "seat": seat,
                "round": line.get("round"), "open": section == "open"})
        return out

    def is_friend(self, user_id: int, friend_id: int) -> bool:
        return bool(self.db.rows("SELECT 1 FROM friends WHERE user_id=? AND friend_id=?",
                                 (user_id, friend_id)))

    def block(self, user_id: int, other: int) -> None:
        """Block `other`: no friendship either way, and the invitations between the two that
        wait for an answer are declined."""
        with self._tx() as db:
            db.execute("INSERT INTO blocks (user_id, blocked_id, created) VALUES (?,?,?) "
                       "ON CONFLICT DO NOTHING", (user_id, other, time.time()))
            db.execute("DELETE FROM friends WHERE (user_id=? AND friend_id=?) OR "
                       "(user_id=? AND friend_id=?)", (user_id, other, other, user_id))
            db.execute("UPDATE invitations SET answer='declined' WHERE answer IS NULL AND "
                       "((user_id=? AND by_user=?) OR (user_id=? AND by_user=?))",
                       (user_id, other, other, user_id))

    def unblock(self, user_id: int, other: int) -> None:
        with self._tx() as db:
            db.execute("DELETE FROM blocks WHERE user_id=? AND blocked_id=?", (user_id, other))

    def blocked(self, user_id: int) -> list[User]:
        """The accounts `user_id` blocked."""
        return [User(i, n) for i, n in self.db.rows(
            "SELECT u.id, u.name FROM blocks b JOIN users u ON u.id = b.blocked_id "
            "WHERE b.user_id=? ORDER BY u.name_key", (user_id,))]

    def blocks_of(self, user_id: int, other: int) -> bool:
        """Whether `user_id` blocked `other`."""
        return bool(self.db.rows("SELECT 1 FROM blocks WHERE user_id=? AND blocked_id=?",
                                 (user_id, other)))

    def apart(self, user_id: int) -> set[int]:
        """The accounts `user_id` blocked or was blocked by."""
        return {r[0] for r in self.db.rows(
            "SELECT blocked_id FROM blocks WHERE user_id=? UNION "
            "SELECT user_id FROM blocks WHERE blocked_id=?", (user_id, user_id))}

    def invite(self, game_id: str, seat: int, game: str, user_id: int, by: int,
               now: float) -> None:
        """Invite `user_id` to a seat (a seat's earlier invitation is replaced)."""
        with self._tx() as db:
            db.execute("INSERT INTO invitations (game_id, seat, game, user_id, by_user, "
                       "created, answer) VALUES (?,?,?,?,?,?,NULL) ON CONFLICT (game_id, seat) "
                       "DO UPDATE SET user_id=excluded.user_id, by_user=excluded.by_user, "
                       "created=excluded.created, answer=NULL",
                       (game_id, seat, game, user_id, by, now))

    def invitation(self, game_id: str, seat: int) -> dict[str, Any] | None:
        rows = self._invitations("i.game_id=? AND i.seat=?", (game_id, seat))
        return rows[0] if rows else None

    def answer(self, game_id: str, seat: int, user_id: int, answer: str) -> bool:
        """Answer an invitation waiting for `user_id`'s answer; False if there is none."""
        with self._tx() as db:
            cur = db.execute("UPDATE invitations SET answer=? WHERE game_id=? AND seat=? AND "
                             "user_id=? AND answer IS NULL", (answer, game_id, seat, user_id))
            return bool(cur.rowcount == 1)

    def drop(self, game_id: str, seat: int) -> None:
        with self._tx() as db:
            db.execute("DELETE FROM invitations WHERE game_id=? AND seat=?", (game_id, seat))

    def invitations_to(self, user_id: int) -> list[dict[str, Any]]:
        return self._invitations("i.user_id=?", (user_id,))

    def invitations_by(self, user_id: int) -> list[dict[str, Any]]:
        return self._invitations("i.by_user=?", (user_id,))

    def waiting_for(self, user_id: int, since: float) -> int:
        """Invitations to `user_id` made since `since` and not answered."""
        return int(self.db.rows("SELECT COUNT(*) FROM invitations WHERE user_id=? AND "
                                "answer IS NULL AND created > ?", (user_id, since))[0][0])

    def _invitations(self, where: str, args: tuple[Any, ...]) -> list[dict[str, Any]]:
        rows = self.db.rows(
            "SELECT i.game_id, i.seat, i.game, i.user_id, t.name, i.by_user, b.name, "
            "i.created, i.answer FROM invitations i JOIN users t ON t.id = i.user_id "
            f"JOIN users b ON b.id = i.by_user WHERE {where} ORDER BY i.created DESC LIMIT ?",
            (*args, LISTED_INVITATIONS))
        return [{"game": g, "seat": s, "game_name": k, "user_id": u, "to": to, "by_user": b,
                 "by": by, "created": c, "answer": a} for g, s, k, u, to, b, by, c, a in rows]

    def close(self) -> None:
        self.db.close()


class Friends:
    """The friends side of one server: routes, and the checks the game server asks."""

    def __init__(self, server: GameServer, accounts: Accounts, store: FriendStore) -> None:
        self.server = server
        self.accounts = accounts
        self.store = store
        lim = server.limits
        self.change_limit = RateLimiter(lim.friend_changes_per_hour / 3600,
                                        lim.friend_change_burst)
        self.invite_limit = RateLimiter(lim.invitations_per_hour / 3600, lim.invitation_burst)

    # -- names -----------------------------------------------------------------------------

    def user_named(self, name: Any) -> User:
        """The account of a user name, or an error naming the problem."""
        if not isinstance(name, str) or not name.strip():
            raise ClientError("bad-request", say("friends.name-type"))
        found = self.accounts.store.user_by_key(name_key(name.strip())) \
            if len(name) <= 4 * NAME_LENGTH[1] else None
        if found is None:
            raise ClientError("not-found", say("profile.not-found"))
        return found[0]

    def _changing(self, user: User) -> None:
        self.change_limit.check(str(user.id), say("limit.friend-changes"))

    # -- friends and blocks ----------------------------------------------------------------

    def add(self, user: User, name: Any) -> User:
        """Add a friend (one-sided): refused for oneself, a player either of the two blocked,
        and past `MAX_FRIENDS`."""
        friend = self.user_named(name)
        if friend.id == user.id:
            raise ClientError("bad-request", say("friends.self"))
        if friend.id in self.store.apart(user.id):
            raise ClientError("blocked", say("friends.blocked", name=friend.name))
        if len(self.store.friends(user.id)) >= MAX_FRIENDS:
            raise ClientError("too-many", say("friends.too-many", most=MAX_FRIENDS))
        self._changing(user)
        self.store.add_friend(user.id, friend.id)
        return friend

    def remove(self, user: User, name: Any) -> None:
        friend = self.user_named(name)
        self._changing(user)
        self.store.remove_friend(user.id, friend.id)

    def block(self, user: User, name: Any) -> User:
        other = self.user_named(name)
        if other.id == user.id:
            raise ClientError("bad-request", say("friends.block-self"))
        self._changing(user)
        self.store.block(user.id, other.id)
        return other

    def unblock(self, user: User, name: Any) -> None:
        other = self.user_named(name)
        self._changing(user)
        self.store.unblock(user.id, other.id)

    def apart(self, a: int | None, b: int | None) -> bool:
        """Whether one of two accounts blocked the other (guests are apart from nobody)."""
        return a is not None and b is not None and b in self.store.apart(a)

    def listing(self, user: User) -> dict[str, Any]:
        """The friends page: friends with their listed games now, blocked players, the
        invitations to and by the player."""
        now = self.server.clock()
        games = self.store.friends_games(user.id)
        friends = [{"name": f.name, "games": games.get(f.id, [])}
                   for f in self.store.friends(user.id)]
        return {"user": {"name": user.name}, "friends": friends,
                "blocked": [b.name for b in self.store.blocked(user.id)],
                "invited": [self._line(i, now) for i in self.store.invitations_to(user.id)],
                "sent": [self._line(i, now) for i in self.store.invitations_by(user.id)]}

    def on_profile(self, profile: User, viewer: User | None) -> dict[str, Any]:
        """What a profile adds: the player's friends (not for someone they blocked), and
        whether the viewer has them as a friend or blocked them."""
        if viewer is None or viewer.id == profile.id:
            hidden = friend = blocked = False
        else:
            hidden = self.store.blocks_of(profile.id, viewer.id)
            friend = self.store.is_friend(viewer.id, profile.id)
            blocked = self.store.blocks_of(viewer.id, profile.id)
        return {"friends": None if hidden else [f.name for f in self.store.friends(profile.id)],
                "friend": friend, "blocked": blocked}

    # -- invitations -----------------------------------------------------------------------

    def status(self, invitation: dict[str, Any], now: float) -> str:
        """waiting | accepted | declined | expired (unanswered for `invitation_seconds`)."""
        if invitation["answer"]:
            return str(invitation["answer"])
        expired = now - invitation["created"] >= self.server.limits.invitation_seconds
        return "expired" if expired else "waiting"

    def _line(self, i: dict[str, Any], now: float) -> dict[str, Any]:
        return {"game": i["game"], "seat": i["seat"], "game_name": i["game_name"], "to": i["to"],
                "by": i["by"],
                "created": i["created"], "status": self.status(i, now),
                "until": i["created"] + self.server.limits.invitation_seconds}

    def invitees(self, data: Any, user: User | None) -> dict[int, User]:
        """The seats a new game's request invites friends to (`{"kind": "person", "invite":
        NAME}`), checked before the game exists: only a signed-in creator, only person seats
        but the creator's own, each a friend of the creator, not blocked either way, once."""
        seats = data.get("seats") if isinstance(data, dict) else None
        seats = [s if isinstance(s, dict) else {} for s in seats] \
            if isinstance(seats, list) else []
        asked = {i: s["invite"] for i, s in enumerate(seats)
                 if s.get("invite") not in (None, "")}
        if not asked:
            return {}
        if user is None:
            raise ClientError("sign-in", say("invite.sign-in"))
        first = next((i for i, s in enumerate(seats) if s.get("kind") == PERSON), None)
        out: dict[int, User] = {}
        for i, name in asked.items():
            if seats[i].get("kind") != PERSON or i == first:
                raise ClientError("bad-seats", say("invite.seat", seat=i + 1))
            out[i] = self._invitable(user, name, taken=out.values())
        self._inviting(user, len(out))
        return out

    def _invitable(self, user: User, name: Any, taken: Any = ()) -> User:
        friend = self.user_named(name)
        if friend.id == user.id or not self.store.is_friend(user.id, friend.id):
            raise ClientError("not-friend", say("invite.not-friend", name=friend.name))
        if friend.id in self.store.apart(user.id):
            raise ClientError("blocked", say("invite.blocked", name=friend.name))
        if friend in taken:
            raise ClientError("bad-seats", say("invite.twice", name=friend.name))
        return friend

    def _inviting(self, user: User, count: int) -> None:
        for _ in range(count):
            self.invite_limit.check(str(user.id), say("limit.invitations"))

    def invite_seats(self, room: Room, invites: dict[int, User], by: User) -> None:
        """Keep the invited seats of a new game for their accounts, and tell each."""
        if not invites:
            return
        room.params.reserved |= set(invites)
        self._store_params(room)
        for seat, friend in invites.items():
            self._invite(room, seat, friend, by)

    def _invite(self, room: Room, seat: int, friend: User, by: User) -> None:
        self.store.invite(room.id, seat, room.game.info.name, friend.id, by.id,
                          self.server.clock())
        self.server.invited(friend.id, room.id, seat, by.id)

    def _store_params(self, room: Room) -> None:
        """The room's parameters (its reserved seats, names), stored and shown everywhere."""
        self.server.store.set_params(room.id, room.params.to_json(room.site), room.section(),
                                     room.summary())
        self.server.lobby.changed()
        self.server.broadcast(room)
        if self.server.cluster is not None:
            self.server.cluster.changed(room)

    def _waiting(self, user: User, game_id: Any, seat: Any) -> tuple[Room, dict[str, Any]]:
        """The room and the invitation of `user` to a seat, waiting for an answer."""
        room = self._room(game_id)
        found = self.store.invitation(room.id, seat) if isinstance(seat, int) else None
        if found is None or found["user_id"] != user.id:
            raise ClientError("not-found", say("invite.not-found"))
        if found["answer"] is not None or seat not in room.params.reserved:
            raise ClientError("answered", say("invite.answered"))
        return room, found

    def _room(self, game_id: Any) -> Room:
        room = self.server.room(game_id) if isinstance(game_id, str) and len(game_id) <= 64 \
            else None
        if room is None:
            raise ClientError("not-found", say("error.not-found"))
        return room

    def accept(self, user: User, game_id: Any, seat: Any) -> str:
        """Take the invited seat: it is the player's, and they get its link. Accepted late
        (unanswered past the time) it still holds, until the seat was given to another."""
        room, _ = self._waiting(user, game_id, seat)
        if room.state.is_over:
            raise ClientError("game-over", say("error.game-over"))
        if self.accounts.store.rated_game(room.id) is not None and \
                user.id in self.accounts.store.holders(room.id).values():
            raise ClientError("full", say("seat.rated-twice"))
        if not self.store.answer(room.id, seat, user.id, "accepted"):
            raise ClientError("answered", say("invite.answered"))
        room.params.reserved.discard(seat)
        section, summary = room.line_if_claimed(seat)
        self.server.store.claim(room.id, seat, section=section, summary=summary)
        room.claimed.add(seat)
        self.accounts._hold(room, seat, user)  # the seat goes by the account's name
        self._store_params(room)
        self.server.presence(room)
        return f"/game/{room.id}#{room.tokens[seat]}"

    def decline(self, user: User, game_id: Any, seat: Any) -> None:
        room, _ = self._waiting(user, game_id, seat)
        if not self.store.answer(room.id, seat, user.id, "declined"):
            raise ClientError("answered", say("invite.answered"))

    def reassign(self, user: User, game_id: Any, seat: Any, data: Any) -> dict[str, Any]:
        """A declined or unanswered seat, given by whoever invited to it: to another friend
        (`{"invite": NAME}`), a bot (`{"bot": LEVEL}`) or anyone (`{"open": true}`)."""
        room = self._room(game_id)
        found = self.store.invitation(room.id, seat) if isinstance(seat, int) else None
        if found is None or found["by_user"] != user.id:
            raise ClientError("not-found", say("invite.not-found"))
        if self.status(found, self.server.clock()) not in ("declined", "expired") or \
                seat in room.claimed:
            raise ClientError("waiting", say("invite.still-waiting", name=found["to"]))
        if not isinstance(data, dict):
            raise ClientError("bad-request", say("invite.how"))
        if data.get("invite"):
            friend = self._invitable(user, data["invite"])
            self._inviting(user, 1)
            room.params.reserved.add(seat)
            self._invite(room, seat, friend, user)
            self._store_params(room)
            return {"invited": friend.name}
        if data.get("bot"):
            return {"bot": self._to_bot(room, seat, data["bot"])}
        if data.get("open") is True:
            self.store.drop(room.id, seat)
            room.params.reserved.discard(seat)
            self._store_params(room)
            return {"link": f"/game/{room.id}#{room.tokens[seat]}"}
        raise ClientError("bad-request", say("invite.how"))

    def _to_bot(self, room: Room, seat: int, level: Any) -> str:
        """The seat becomes a bot's of a level the lobby offers (in a rated game, one with a
        measured rating)."""
        if level not in room.site.levels:
            raise ClientError("bad-bot", say("invite.bad-bot", levels=", ".join(room.site.levels)))
        players = len(room.params.seats)
        if self.accounts.store.rated_game(room.id) is not None and \
                ratings.bot_rating(room.game.info.name, players, level) is None:
            raise ClientError("bad-bot", say("rated.no-bot-rating", bot=level, players=players,
                                             bots=", ".join(room.site.levels)))
        names = {s.name for s in room.params.seats}
        name = say("seat.bot", level=room.site.level_name(level))
        if name in names:
            name = say("seat.bot-n", level=room.site.level_name(level), n=seat + 1)
        self.store.drop(room.id, seat)
        room.seat_bot(seat, level, name)
        section, summary = room.line_if_claimed(seat)
        self.server.store.claim(room.id, seat, section=section, summary=summary)
        room.claimed.add(seat)
        self._store_params(room)
        self.server.kick_bots(room)
        return name

    # -- the checks of taking a seat -------------------------------------------------------

    def may_take(self, room: Room, seat: int, user: User | None) -> None:
        """A seat kept for an invited account is nobody else's (its invitee takes it by
        accepting); nor may a player take a seat in a game where someone who blocked them
        holds one."""
        if seat in room.params.reserved:
            raise ClientError("invited", say("invite.reserved"))
        if user is not None:
            self.may_join(room.id, user)

    def may_join(self, game_id: str, user: User) -> None:
        holders = set(self.accounts.store.holders(game_id).values()) - {user.id}
        if any(self.store.blocks_of(h, user.id) for h in holders):
            raise ClientError("blocked", say("seat.blocked"))

    # -- chat ------------------------------------------------------------------------------

    def hidden_seats(self, room: Room, account: int | None) -> set[int]:
        """The seats whose chat lines `account` does not read: held by an account it blocked
        or that blocked it."""
        apart = set() if account is None else self.store.apart(account)
        if not apart:
            return set()
        return {seat for seat, holder in self.accounts.store.holders(room.id).items()
                if holder in apart}

    def chat_readers(self, room: Room, account: int | None) -> Callable[[Connection], bool]:
        """Which connections read a line of `account`'s; refused when every other person
        seat of the game is held by an account it blocked or that blocked it."""
        apart = set() if account is None else self.store.apart(account)
        if not apart:
            return lambda other: True
        holders = self.accounts.store.holders(room.id)
        others = [i for i, s in enumerate(room.params.seats)
                  if s.kind == PERSON and holders.get(i) != account]
        if others and all(holders.get(i) in apart for i in others):
            raise ClientError("blocked", say("chat.blocked"))
        return lambda other: other.account not in apart

    def pending(self, user: User) -> int:
        """Invitations waiting for the player's answer (the header's count)."""
        since = self.server.clock() - self.server.limits.invitation_seconds
        return self.store.waiting_for(user.id, since)


def install(app: FastAPI, server: GameServer, accounts: Accounts, where: Any) -> Friends:
    friends = Friends(server, accounts, FriendStore(where))
    server.friends = friends
    _routes(app, friends)
    return friends


def _routes(app: FastAPI, friends: Friends) -> None:
    accounts = friends.accounts

    def user_of(request: Request, *, changes: bool = True) -> User:
        session = accounts.signed_in(request, changes=changes)
        if session is None:
            raise ClientError("sign-in", say("account.sign-in"))
        return session.user

    async def body(request: Request) -> Any:
        data = parse_json(await request.body(), what="request body")
        if not isinstance(data, dict):
            raise ClientError("bad-request", say("friends.name-type"))
        return data

    @app.get("/api/friends")
    async def listing(request: Request) -> dict[str, Any]:
        accounts.reading(request)
        return friends.listing(user_of(request, changes=False))

    @app.post("/api/friends")
    async def add(request: Request) -> dict[str, Any]:
        user = user_of(request)
        return {"friend": friends.add(user, (await body(request)).get("name")).name}

    @app.post("/api/friends/remove")
    async def remove(request: Request) -> dict[str, Any]:
        friends.remove(user_of(request), (await body(request)).get("name"))
        return {"ok": True}

    @app.post("/api/blocks")
    async def block(request: Request) -> dict[str, Any]:
        user = user_of(request)
        return {"blocked": friends.block(user, (await body(request)).get("name")).name}

    @app.post("/api/blocks/remove")
    async def unblock(request: Request) -> dict[str, Any]:
        friends.unblock(user_of(request), (await body(request)).get("name"))
        return {"ok": True}

    @app.post("/api/invitations/{game_id}/{seat}/accept")
    async def accept(game_id: str, seat: int, request: Request) -> dict[str, Any]:
        return {"link": friends.accept(user_of(request), game_id, seat)}

    @app.post("/api/invitations/{game_id}/{seat}/decline")
    async def decline(game_id: str, seat: int, request: Request) -> dict[str, Any]:
        friends.decline(user_of(request), game_id, seat)
        return {"ok": True}

    @app.post("/api/invitations/{game_id}/{seat}/give")
    async def give(game_id: str, seat: int, request: Request) -> dict[str, Any]:
        user = user_of(request)
        return friends.reassign(user, game_id, seat, await body(request))
