"""The web server of every game: lobby over HTTP, play over WebSockets, bots in worker
processes.

The server holds the only true state of every game (`Room`); each connection receives only its
own seat's view, spectators the public view. An action is validated, written to the store, and
only then applied and broadcast, so a server killed at any moment resumes every game from its
log (see docs/web.md). What is particular to a game comes from its `WebGame` (its page, its
messages, its lobby options), so the same server plays Gonzaga and Signorie.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import gc
import hashlib
import json
import logging
import secrets
import time
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from .. import i18n
from ..ratings import bot_table
from ..records import dumps_record
from ..text import say
from . import accounts as account_routes
from . import i18n_web, timing
from .account_store import open_account_store
from .botpool import DEADLINE, BotFailed, BotPool, Decision, DecisionTimeout
from .chat import MAX_CHARS, Chat
from .connection import Connection
from .errors import ClientError
from .hinting import Hinting
from .learn import learn_offer, learn_routes
from .limits import BodyLimit, RateLimited, RateLimiter, parse_json
from .reviewing import Reviews
from .room import BOT, GameParams, Room, parse_params
from .site import WebGame, load_sites
from .storage import (
    GameExists,
    GameStore,
    Listing,
    SeqConflict,
    StoredGame,
    StoreError,
    open_store,
)
from .timing import Timekeeper

if TYPE_CHECKING:
    from .cluster import Cluster

log = logging.getLogger("tabletop.web")
DEFAULT_DB = "sqlite:///gonzaga.db"
STATUS = {"not-found": 404, "full": 409, "not-over": 409, "too-large": 413,
          "rate-limited": 429, "server-full": 503, "review-failed": 503, "sign-in": 401,
          "bad-login": 401,
          "csrf": 403, "other-account": 403, "name-taken": 409}  # else 400
SHUTDOWN_WAIT = 5.0  # seconds a stopping server waits for its tasks to end
#: Players arriving (a hello: a catch-up, a seat taken, a first view) handled at once. When
#: everyone reconnects at the same moment (a restart), the rest wait their turn rather than
#: fill the event loop ahead of the moves of games already playing.
ARRIVALS_AT_ONCE = 4
LOBBY_PAGE = 20  # games per lobby list and page
STATIC = Path(__file__).with_name("static")  # the platform's pages: the lobby, shared scripts


@dataclass
class Limits:
    """What one client may cost the server; rates of 0 mean no limit (benchmarks)."""

    creates_per_minute: float = 6.0  # new games per client address, after a burst
    create_burst: int = 5
    lobby_per_second: float = 1.0  # lobby reads and joins per client address, after a burst
    lobby_burst: int = 20
    messages_per_second: float = 20.0  # WebSocket messages per connection, after a burst
    message_burst: int = 60
    max_active_games: int = 1000  # unfinished games with a move in the last day
    idle_seconds: float = 600.0  # a game nobody watches leaves memory after this long
    sweep_seconds: float = 30.0  # how often games that left play are let go
    decision_seconds: float = DEADLINE  # a bot decision's deadline
    reviews_per_minute: float = 2.0  # reviews of finished games an address may start
    review_burst: int = 4
    hint_workers: int = 1  # worker processes for hints and reviews, apart from the bots'
    hints_per_minute: float = 4.0  # hints per account (or seat without one), after a burst
    hint_burst: int = 4
    address_hints_per_minute: float = 12.0  # hints per client address, after a burst
    address_hint_burst: int = 12
    undo_wait: float = 1.5  # extra seconds a bot waits after a person's move that can be undone
    logins_per_minute: float = 6.0  # sign-in attempts per address, after a burst
    login_burst: int = 10
    name_logins_per_minute: float = 2.0  # sign-in attempts per user name, after a burst
    name_login_burst: int = 5
    signups_per_hour: float = 10.0  # new accounts per address, after a burst
    signup_burst: int = 5
    min_move_seconds: float = 3600.0  # the shortest time per move a turn-based game may have
    turn_check_seconds: float = 5.0  # how often the clocks of turn-based games are read
    chat_per_second: float = 0.5  # chat lines per connection, after a burst
    chat_burst: int = 5
    lease_seconds: float = 10.0  # several processes: how long a game's bots stay with one
    conflict_retries: int = 3  # several processes: a move judged again after another's won


def rematch_id(game_id: str) -> str:
    """The id of a game's rematch: derived from the game's own (as hard to guess as it is),
    so every process agrees on it without talking to the others."""
    digest = hashlib.sha256(f"rematch:{game_id}".encode()).digest()
    return base64.urlsafe_b64encode(digest[:12]).decode()


class GameServer:
    """Every live game, its connections and its bots; transport-independent where it can be.

    Games live in memory while someone plays or watches them; a finished or idle game is let
    go and loaded again from the store when asked for.
    """

    def __init__(self, store: GameStore, sites: Mapping[str, WebGame] | WebGame, *,
                 bot_delay: float = 0.35, bot_workers: int = 2, bot_processes: bool = True,
                 limits: Limits | None = None, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock  # the time of turn clocks and chat (tests move it on)
        self.sites = dict(sites) if isinstance(sites, Mapping) else \
            {sites.game.info.name: sites}
        self.limits = limits or Limits()
        for site in self.sites.values():
            site.prepare()
        self.rooms: dict[str, Room] = {}
        self.conns: dict[str, set[Connection]] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.active: dict[str, float] = {}  # game -> when something last happened in it
        self.bot_delay = bot_delay
        self.bots = BotPool(bot_workers, deadline=self.limits.decision_seconds,
                            processes=bot_processes)
        # hints and reviews have workers of their own: however many are asked for, the bots
        # of every game keep theirs
        self.advice = BotPool(self.limits.hint_workers, deadline=self.limits.decision_seconds,
                              processes=bot_processes)
        self.bot_failures: dict[tuple[str, int, int], int] = {}
        self.pending_bots: set[tuple[str, int]] = set()
        self.tasks: set[asyncio.Task[None]] = set()
        self.create_limit = RateLimiter(self.limits.creates_per_minute / 60,
                                        self.limits.create_burst)
        self.lobby_limit = RateLimiter(self.limits.lobby_per_second, self.limits.lobby_burst)
        self._lobby_cache: dict[tuple[str, int], tuple[float, Listing]] = {}
        self.accounts: account_routes.Accounts | None = None  # set by `accounts.install`
        self.turns = Timekeeper(self, store, clock)
        self._store_threads: ThreadPoolExecutor | None = None
        self._arrivals: asyncio.Semaphore | None = None  # made on the server's loop
        self.hinting = Hinting(self, store, clock)
        self.reviews = Reviews(self, self.limits.reviews_per_minute, self.limits.review_burst)
        self.chat = Chat(store, clock, self.limits.chat_per_second,
                         self.limits.chat_burst)
        self.cluster: Cluster | None = None  # other processes on the same database

    # -- life cycle ------------------------------------------------------------------------

    def resume(self, finished: int = 20) -> int:
        """Rebuild every unfinished game from its log (and write the lobby line of the last
        `finished` games over, for databases older than lobby lines); returns how many
        unfinished games were resumed."""
        for game_id in self.store.game_ids("over")[-finished:]:
            room = self.room(game_id)
            if room is not None:
                self.store.set_summary(room.id, room.section(), room.summary())
                self._forget(room.id)
        count = 0
        for game_id in self.store.game_ids("playing"):
            stored = self.store.load(game_id)
            if stored is None:
                continue
            site = self._site_of(stored.params)
            if site is None:
                continue  # a game this server does not host waits for one that does
            try:
                room = Room.restore(stored, site)
            except (ValueError, KeyError, TypeError) as exc:  # one bad game never stops the rest
                log.error("cannot resume game %s: %s", game_id, exc)
                self.store.set_status(game_id, "broken")
                self.store.set_summary(game_id, None, {})
                continue
            self.store.set_summary(room.id, room.section(), room.summary())
            self._add(room)
            count += 1
        return count

    def start(self) -> None:
        self.bots.start()
        self.advice.start()
        for room in list(self.rooms.values()):
            self.kick_bots(room)
        self._spawn(self._sweep_forever(self.limits.sweep_seconds))
        self._spawn(self._clocks_forever(self.limits.turn_check_seconds))

    async def store_ready(self) -> None:
        """Connect the store's coroutines (PostgreSQL's `aio`) before players arrive."""
        aio = getattr(self.store, "aio", None)
        if aio is not None:
            await aio.open()

    async def _clocks_forever(self, every: float) -> None:
        """The turn clocks, read by one process of several (the one holding their lease)."""
        if self.cluster is None:
            await self.turns.run_forever(every)
            return
        while True:
            if self.cluster.holds("clocks"):
                try:
                    self.turns.check()
                except Exception:
                    log.exception("checking the turn clocks")
            await asyncio.sleep(every)

    async def shutdown(self) -> None:
        if self.cluster is not None:  # its loops stop and its leases go before tasks end
            await self.cluster.close()
        for task in list(self.tasks):
            task.cancel()
        # a bot mid-thought is abandoned: it is asked again when the game resumes
        if self.tasks:
            _, late = await asyncio.wait(list(self.tasks), timeout=SHUTDOWN_WAIT)
            for task in late:  # a library that swallowed its cancel must not hold the exit
                log.warning("a task did not end at shutdown: %r", task)
        await self.bots.shutdown()
        await self.advice.shutdown()
        aio = getattr(self.store, "aio", None)
        if aio is not None:
            await aio.close()
        if self._store_threads is not None:
            self._store_threads.shutdown(wait=True)
        self.turns.close()
        self.chat.close()
        self.hinting.close()

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def _add(self, room: Room) -> None:
        self.rooms[room.id] = room
        self.conns.setdefault(room.id, set())
        self.locks.setdefault(room.id, asyncio.Lock())
        self.active[room.id] = time.monotonic()
        self.turns.attach(room)
        self.hinting.attach(room)
        if self.cluster is not None:
            self.cluster.follow(room.id)

    def _forget(self, game_id: str) -> None:
        for table in (self.rooms, self.conns, self.locks, self.active):
            table.pop(game_id, None)  # type: ignore[attr-defined]
        self.turns.forget(game_id)
        if self.cluster is not None:
            self.cluster.unfollow(game_id)

    def room(self, game_id: str) -> Room | None:
        """A live room, or a game loaded from the store on demand."""
        room = self.rooms.get(game_id)
        return room if room is not None else self._restored(self.store.load(game_id))

    async def room_waiting(self, game_id: str) -> Room | None:
        """`room`, with the store read on the hot path (a player connecting)."""
        room = self.rooms.get(game_id)
        if room is not None:
            return room
        stored = await self._hot("load", game_id)
        # another connection may have brought the game in while this one waited
        return self.rooms.get(game_id) or self._restored(stored)

    def _restored(self, stored: StoredGame | None) -> Room | None:
        """A stored game as a live room; None if it is unknown here or no longer replays."""
        site = None if stored is None else self._site_of(stored.params)
        if stored is None or site is None or stored.status == "broken":
            return None
        try:
            room = Room.restore(stored, site)
        except (ValueError, KeyError, TypeError):
            return None
        self._add(room)
        self.kick_bots(room)
        return room

    def _site_of(self, params: dict[str, Any]) -> WebGame | None:
        """The site of a stored game, None when this server does not host its game."""
        return self.sites.get(str(params.get("game", "gonzaga")))

    def site(self, name: Any) -> WebGame:
        """The site of a game asked for by name; `ClientError` for one not hosted here."""
        if name is None:
            return next(iter(self.sites.values()))
        site = self.sites.get(name) if isinstance(name, str) else None
        if site is None:
            raise ClientError("bad-game", f"no game {str(name)[:40]!r} here; the games are "
                                          f"{', '.join(self.sites)}")
        return site

    def sweep(self, now: float | None = None) -> int:
        """Let go of games nobody is connected to and no bot is thinking in: finished ones at
        once, others after `idle_seconds`; returns how many left memory."""
        now = time.monotonic() if now is None else now
        busy = {game for game, _ in self.pending_bots}
        gone = [gid for gid, room in self.rooms.items()
                if not self.conns.get(gid) and gid not in busy and not room.bots_to_move()
                and (room.state.is_over
                     or now - self.active.get(gid, now) > self.limits.idle_seconds)]
        for gid in gone:
            self._forget(gid)
        self.bot_failures = {k: v for k, v in self.bot_failures.items() if k[0] in self.rooms}
        return len(gone)

    async def _sweep_forever(self, every: float) -> None:
        while True:
            await asyncio.sleep(every)
            self.sweep()

    # -- lobby -----------------------------------------------------------------------------

    def create(self, data: Any, client: str = "",
               check: Callable[[GameParams], None] | None = None) -> Room:
        """A new game; `check` may refuse its parameters before it exists (rated games)."""
        self.create_limit.check(client, "new games from your address")
        name = data.get("game") if isinstance(data, dict) else None
        params = parse_params(data, self.site(name))
        params.timing = self.turns.parse(data)
        if check is not None:
            check(params)
        self._check_capacity()
        return self._open(params)

    def _check_capacity(self) -> None:
        if self.store.active_games(time.time() - 86_400) >= self.limits.max_active_games:
            raise ClientError("server-full", say("error.server-full"))

    def _open(self, params: GameParams, claimed: set[int] | None = None,
              game_id: str | None = None) -> Room:
        room = Room(game_id or secrets.token_urlsafe(12), params, self.sites[params.game],
                    claimed=claimed)
        self.store.create(room.stored())
        self._add(room)
        self._lobby_cache.clear()
        self.kick_bots(room)
        return room

    def claim(self, game_id: str, client: str = "") -> tuple[int, str]:
        self.lobby_limit.check(client, "lobby requests from your address")
        room = self.room(game_id)
        if room is None:
            raise ClientError("not-found", say("error.not-found"))
        if not room.params.public:
            raise ClientError("full", say("error.invitation"))
        for seat, token in sorted(room.tokens.items()):
            if seat in room.claimed:
                continue
            section, summary = room.line_if_claimed(seat)
            if self.store.claim(game_id, seat, section=section, summary=summary):
                room.claimed.add(seat)
                self._lobby_cache.clear()
                return seat, token
        raise ClientError("full", say("error.full"))

    def lobby(self, section: str, offset: int) -> Listing:
        """One page of a lobby list (listed games only), cached for a second: however many
        clients poll the lobby, the database is read once a second per page."""
        if section not in ("open", "playing", "finished"):
            raise ClientError("bad-request", "section is open, playing or finished")
        if not 0 <= offset <= 100_000:
            raise ClientError("bad-request", "offset is a whole number from 0 to 100000")
        key = (section, offset)
        now = time.monotonic()
        cached = self._lobby_cache.get(key)
        if cached is None or now - cached[0] > 1.0:
            if len(self._lobby_cache) > 256:
                self._lobby_cache.clear()
            cached = (now, self.store.lobby(section, offset, LOBBY_PAGE))
            self._lobby_cache[key] = cached
        return cached[1]

    # -- play ------------------------------------------------------------------------------

    async def act(self, room: Room, seat: int | None, payload: Any, seq: Any, *,
                  after_commit: Callable[[], None] | None = None) -> None:
        """Validate, store, apply, broadcast; a `ClientError` changes nothing.
        `after_commit` runs once the move is made, before anyone is told."""
        for tries in range(self.limits.conflict_retries, -1, -1):
            async with self.locks[room.id]:
                room.check_seq(seq)
                action, new_state = room.prepare(seat, payload)
                if not await self._store(room, tries, "append", room.id, room.seq,
                                         room.game.action_to_json(action),
                                         section=room.section(new_state),
                                         summary=room.summary(new_state),
                                         status="over" if new_state.is_over else None):
                    continue  # another process moved first: judged again on the game as it is
                room.commit(action, new_state)
                if after_commit is not None:
                    after_commit()
            break
        self._changed(room)

    async def undo(self, room: Room, seat: int | None, seq: Any) -> None:
        """Take back the seat's last move while nobody has moved since and it revealed
        nothing (see `Room.can_undo`)."""
        for tries in range(self.limits.conflict_retries, -1, -1):
            async with self.locks[room.id]:
                before = room.prepare_undo(seat, seq)
                if not await self._store(room, tries, "take_back", room.id, room.seq - 1,
                                         section=room.section(before),
                                         summary=room.summary(before)):
                    continue
                room.commit_undo(before)
            break
        self._changed(room)

    async def _store(self, room: Room, tries: int, call: str, *args: Any, **kwargs: Any
                     ) -> bool:
        """Write a move (the store's `call`); False when another writer (another process)
        stored this game's next move first: the room has caught up from the store and the
        caller judges its move again (`stale` once out of tries). The caller holds the
        room's lock, which keeps the game's moves in order while the write waits."""
        try:
            await self._hot(call, *args, **kwargs)
        except SeqConflict as exc:
            log.info("%s", exc)
            await self._catch_up(room)
            if tries <= 0:
                raise ClientError("stale", say("error.stale")) from None
            return False
        except StoreError as exc:
            log.error("%s", exc)
            raise ClientError("storage", say("error.storage")) from None
        return True

    async def _hot(self, call: str, *args: Any, **kwargs: Any) -> Any:
        """A call of the hot path (a move, an undo, a catch-up): on the loop where the store
        has coroutines for it (PostgreSQL's `aio`), else as `_off_loop`."""
        aio = getattr(self.store, "aio", None)
        if aio is not None:
            return await getattr(aio, call)(*args, **kwargs)
        return await self._off_loop(partial(getattr(self.store, call), *args, **kwargs))

    async def _off_loop(self, call: Callable[[], Any]) -> Any:
        """Run a store call; one that waits on a database server (`wait_in_thread`:
        PostgreSQL) runs in a thread, so other games go on meanwhile. SQLite's calls are
        shorter than a hop to a thread and back."""
        if getattr(self.store, "wait_in_thread", False):
            if self._store_threads is None:
                # threads of the store's own: bots and password hashing, which also wait in
                # threads, never hold up a move's write
                self._store_threads = ThreadPoolExecutor(
                    getattr(self.store, "pool_size", 8), thread_name_prefix="store")
            return await asyncio.get_running_loop().run_in_executor(self._store_threads, call)
        return call()

    async def _catch_up(self, room: Room) -> bool:
        """Bring a room to its stored log (another process moved); True if it changed. The
        caller holds the room's lock. Its clients are sent the new view."""
        stored = await self._hot("load", room.id)
        if stored is None or not room.catch_up(stored):
            return False
        self.turns.attach_again(room)
        self._lobby_cache.clear()
        self.broadcast(room)
        self.kick_bots(room)
        return True

    async def catch_up(self, room: Room) -> bool:
        """`_catch_up` under the room's lock (a signal from another process)."""
        lock = self.locks.get(room.id)
        if lock is None:
            return False
        async with lock:
            return await self._catch_up(room)

    def _changed(self, room: Room) -> None:
        self.active[room.id] = time.monotonic()
        if room.state.is_over and self.accounts is not None:
            self.accounts.game_over(room)  # a rated game's result counts once
        self._lobby_cache.clear()
        self.turns.changed(room)
        self.broadcast(room)
        if self.cluster is not None:
            self.cluster.changed(room)
        self.kick_bots(room)

    def broadcast(self, room: Room) -> None:
        """Queue every joined connection's view; nothing here waits for a client."""
        for conn in self.conns.get(room.id, ()):
            if conn.joined:
                conn.send_view()

    def relayed(self, game_id: str, message: dict[str, Any]) -> None:
        """A message another process sent its clients of this game (a chat line): to ours."""
        if message.get("type") != "chat":
            return
        text = json.dumps(message)
        for conn in self.conns.get(game_id, ()):
            if conn.joined:
                conn.send(text)

    def presence(self, room: Room, but: Connection | None = None) -> None:
        text = json.dumps({"type": "presence", "seats": room.seats_json()})
        for conn in self.conns.get(room.id, ()):
            if conn.joined and conn is not but:
                conn.send(text)

    async def rematch(self, room: Room, seat: int | None) -> None:
        """A new game with the same seats; each connection is sent its own seat's link."""
        if seat is None:
            raise ClientError("spectator", say("error.spectator-rematch"))
        if not room.state.is_over:
            raise ClientError("not-over", say("error.not-over"))
        if room.rematch is None:
            new = await self._rematch_room(room)
            room.rematch = {s: f"/game/{new.id}#{t}" for s, t in new.tokens.items()}
            room.rematch[None] = f"/game/{new.id}#watch"
            room.touch()
        for conn in self.conns.get(room.id, ()):
            if conn.joined:
                conn.send(json.dumps({"type": "rematch", "link": room.rematch.get(conn.seat)}))
        self.broadcast(room)

    async def _rematch_room(self, room: Room) -> Room:
        """The rematch of a game: one game whoever asks, on whichever process. Its id comes
        from the finished game's (`rematch_id`), so a second process asking creates nothing:
        it finds the game stored, or loses the race to create it and loads it. It is the
        game again with a new deal: the same seats, options and hints choice, and rated with
        the same accounts' seats if the game was (`Accounts.rematched`)."""
        new_id = rematch_id(room.id)
        found = await self.room_waiting(new_id)
        if found is not None:
            return found
        self._check_capacity()
        p = room.params
        state = room.site.deal([s.name for s in p.seats], None, p.options)
        params = GameParams(p.seats, None, p.options, p.public, room.game.setup_of(state),
                            secrets.randbits(63), p.game, p.timing, hints=p.hints)
        try:
            new = self._open(params, claimed=set(room.claimed), game_id=new_id)
        except GameExists:
            found = await self.room_waiting(new_id)
            if found is None:
                raise ClientError("storage", say("error.storage")) from None
            return found
        if self.accounts is not None:
            self.accounts.rematched(room, new)
        return new

    def kick_bots(self, room: Room) -> None:
        """Start the bots whose move it is; of several processes only the one holding the
        game's lease does (the others ask for it, in case its holder died)."""
        if self.cluster is not None and room.bots_to_move() \
                and not self.cluster.holds(room.id):
            self.cluster.want(room.id)
            return
        for seat in room.bots_to_move():
            key = (room.id, seat)
            if key in self.pending_bots:
                continue
            self.pending_bots.add(key)
            self._spawn(self._bot_move(room, seat))

    async def _bot_move(self, room: Room, seat: int) -> None:
        """A bot decides in a worker process on its own view, then acts like any client.

        A decision that fails or misses its deadline is asked again; the third time the seat
        plays the greedy bot's move instead, so a bot never stalls its game."""
        seq = room.seq
        key = (room.id, seat, seq)
        try:
            delay = self.bot_delay + (self.limits.undo_wait if room.before is not None else 0)
            if delay:
                await asyncio.sleep(delay)
            if room.seq != seq or seat not in room.bots_to_move():
                return  # the game changed meanwhile (a move was taken back)
            state = room.state
            spec = room.bots[seat] if self.bot_failures.get(key, 0) < 2 else "greedy"
            action = await self.bots.decide(Decision(
                room.game.info.name, spec, room.params.bot_seed, room.game.setup_of(state),
                tuple(state.history), seat))
            await self.act(room, seat, room.game.action_to_json(action), seq)
        except asyncio.CancelledError:
            raise
        except ClientError as exc:
            if exc.code != "stale":
                self._bot_failed(key, exc.message)
        except (DecisionTimeout, BotFailed) as exc:
            self._bot_failed(key, str(exc))
        except Exception:
            log.exception("bot %s of game %s failed", seat, room.id)
            self._bot_failed(key, "error")
        finally:
            self.pending_bots.discard((room.id, seat))
        if self.bot_failures.get(key, 0) >= 4:
            log.error("bot %s of game %s gave up at move %s", seat, room.id, seq)
        elif seat in room.bots_to_move() and room.id in self.rooms:
            self.kick_bots(room)

    def _bot_failed(self, key: tuple[str, int, int], why: str) -> None:
        self.bot_failures[key] = self.bot_failures.get(key, 0) + 1
        log.warning("bot %s in %s at move %s: %s", key[1], key[0], key[2], why)

    # -- connections -----------------------------------------------------------------------

    async def handle(self, ws: WebSocket, game_id: str) -> None:
        await ws.accept()
        # this connection's task speaks its player's language (errors); views are built for
        # each connection in its own language, whoever's move sent them
        lang = i18n.set_language(i18n_web.language_of(ws.headers, ws.cookies))
        room = await self.room_waiting(game_id) if len(game_id) <= 64 else None
        if room is None:
            await ws.send_json({"type": "error", "code": "not-found",
                                "message": say("error.not-found")})
            await ws.close(code=4404)
            return
        conn = Connection(ws, lambda c: room.message_text(c.seat, c.lang))
        conn.lang = lang
        self.conns[room.id].add(conn)  # from now on the room stays in memory
        bucket = RateLimiter(self.limits.messages_per_second, self.limits.message_burst)
        try:
            await self._receive(conn, room, bucket)
        except (WebSocketDisconnect, asyncio.CancelledError):
            if not conn.dropped:
                raise
        finally:
            await conn.close()
            self.conns.get(room.id, set()).discard(conn)
            self.active[room.id] = time.monotonic()
            if conn.joined and conn.seat is not None:
                room.connected[conn.seat] = room.connected.get(conn.seat, 1) - 1
                self.presence(room)

    async def _receive(self, conn: Connection, room: Room, bucket: RateLimiter) -> None:
        while not conn.dropped:
            message = await conn.ws.receive()
            if message["type"] == "websocket.disconnect":
                return
            try:
                bucket.check("", "messages")
                text = message.get("text")
                if text is None:
                    raise ClientError("bad-message", "messages are JSON text, not binary")
                await self._message(conn, room, text)
            except ClientError as exc:
                conn.send(json.dumps(exc.to_json()))
            except (WebSocketDisconnect, asyncio.CancelledError):
                raise
            except Exception:  # a bug must not cost the player the connection
                log.exception("message in game %s", room.id)
                conn.send(json.dumps({"type": "error", "code": "server-error",
                                      "message": say("error.server-error")}))

    async def _message(self, conn: Connection, room: Room, text: str) -> None:
        msg = parse_json(text)
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            raise ClientError("bad-message", "a message is a JSON object with a 'type'")
        kind = msg["type"]
        if kind == "hello":
            if "lang" in msg:  # the page's language, when it differs from the handshake's
                conn.lang = i18n.set_language(msg.get("lang"))
            if self._arrivals is None:
                self._arrivals = asyncio.Semaphore(ARRIVALS_AT_ONCE)
            async with self._arrivals:
                if self.cluster is not None:  # a player coming from a process that died may
                    await self.catch_up(room)  # have moved there last, unheard of here
                await self._hello(conn, room, msg.get("token"))
        elif kind == "ping":
            conn.send('{"type": "pong"}')
        elif not conn.joined:
            raise ClientError("hello-first", "send {\"type\": \"hello\", \"token\": …} first")
        elif kind == "act":
            await self.act(room, conn.seat, msg.get("action"), msg.get("seq"))
        elif kind == "undo":
            await self.undo(room, conn.seat, msg.get("seq"))
        elif kind == "check":
            try:
                reply = room.check(conn.seat, msg.get("action"))
            except ClientError as exc:
                reply = {**exc.to_json(), "type": "check", "ok": False,
                         "action": msg.get("action")}
            conn.send(json.dumps(reply))
        elif kind == "state":
            conn.send_view()
        elif kind == "rematch":
            await self.rematch(room, conn.seat)
        elif kind == "chat":
            line = self.chat.post(conn, room, msg.get("text"), self.conns.get(room.id, ()))
            if self.cluster is not None:  # players of this game on other processes read it too
                self.cluster.relay(room.id, {"type": "chat", "lines": [line]})
        elif kind == "hint":
            self.hinting.ask(conn, room, msg.get("seq"))
        else:
            raise ClientError("unknown-type", f"unknown message type {kind[:40]!r} (hello, act, "
                                              "undo, check, state, rematch, chat, hint, ping)")

    async def _hello(self, conn: Connection, room: Room, token: Any) -> None:
        """Open a seat (or watch); only this connection gets the view, the others hear that
        a player came. The seat is claimed before the connection joins: from joining to its
        welcome nothing waits, so no view of another move can come before the welcome."""
        seat = room.seat_of(token)
        if self.accounts is not None:
            self.accounts.opening(conn.ws, room, seat)  # the seat's account, rated games' rules
        if seat is not None and seat not in room.claimed:
            section, summary = room.line_if_claimed(seat)
            if await self._hot("claim", room.id, seat, section=section, summary=summary):
                room.claimed.add(seat)
                self._lobby_cache.clear()
        if conn.joined and conn.seat is not None:
            room.connected[conn.seat] -= 1
        conn.seat = seat
        conn.joined = True
        if seat is not None:
            room.connected[seat] = room.connected.get(seat, 0) + 1
        conn.send(json.dumps({"type": "welcome", "game": room.id, "seat": seat,
                              "name": None if seat is None else room.params.seats[seat].name,
                              "chat": {"max_chars": MAX_CHARS, "may_write": seat is not None},
                              "hints": room.params.hints}))
        conn.send_view()
        chat = self.chat.history(room)
        if chat is not None:
            conn.send(chat)
        if seat is not None:
            self.presence(room, but=conn)


def create_app(db: str | GameStore = DEFAULT_DB, *, games: Sequence[str] | None = None,
               bot_delay: float = 0.35, bot_processes: bool = True,
               limits: Limits | None = None, redis: str | None = None) -> FastAPI:
    """The ASGI app of `games` (default: every game with a web side) in one lobby; `db` is a
    database URL or a ready `GameStore`; with `redis` (a URL) it is one of several processes
    serving the same database (`tabletop.web.cluster`)."""
    store = open_store(db) if isinstance(db, str) else db
    sites = load_sites(games)
    server = GameServer(store, sites, bot_delay=bot_delay, bot_processes=bot_processes,
                        limits=limits)
    if redis is not None:
        from .cluster import Cluster

        server.cluster = Cluster(redis, server.limits.lease_seconds)
    server.resume()
    account_store = open_account_store(store)
    # The games' tables and every resumed game live as long as the server: keep
    # them out of the garbage collector's full passes, which otherwise stall the event loop
    # for tens of milliseconds under load; and collect young objects less often.
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if server.cluster is not None:
            await server.cluster.start(server)
        server.start()
        await server.store_ready()
        yield
        await server.shutdown()  # its tasks end, the cluster's included
        store.close()
        account_store.close()

    app = FastAPI(title=" & ".join(s.game.info.title for s in sites.values()),
                  lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.add_middleware(BodyLimit)
    i18n_web.routes(app)
    app.state.server = server
    _pages(app, server)
    learn_routes(app, server)  # rules pages and tutorials
    for site in sites.values():
        site.routes(app, server)
    _lobby_routes(app, server)
    _game_routes(app, server)
    account_routes.install(app, server, account_store)
    return app


def _pages(app: FastAPI, server: GameServer) -> None:
    """The lobby (the platform's page) and each game's own page and files."""
    app.mount("/static/tabletop", StaticFiles(directory=STATIC), name="tabletop")
    for name, site in server.sites.items():
        app.mount(f"/static/{name}", StaticFiles(directory=site.static_dir()), name=name)
    no_cache = {"Cache-Control": "no-cache"}

    @app.get("/")
    async def lobby_page() -> FileResponse:
        return FileResponse(STATIC / "lobby.html", headers=no_cache)

    @app.get("/game/{game_id}")
    async def game_page(game_id: str) -> FileResponse:
        """The game's own page; for a game unknown here, the lobby's page says so."""
        room = server.rooms.get(game_id)
        stored = None if room is not None or len(game_id) > 64 else server.store.load(game_id)
        site = room.site if room is not None else \
            (None if stored is None else server._site_of(stored.params))
        page = STATIC / "lobby.html" if site is None else site.static_dir() / "index.html"
        return FileResponse(page, headers=no_cache)

    @app.get("/favicon.ico")
    async def favicon() -> FileResponse:
        """Browsers ask for it whatever the page links; the lobby links the same SVG."""
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml",
                            headers={"Cache-Control": "max-age=86400"})


def _client(request: Request) -> str:
    return request.client.host if request.client else ""


def _lobby_routes(app: FastAPI, server: GameServer) -> None:
    """Errors as JSON, the games on offer, creating, listing and joining games."""

    @app.exception_handler(ClientError)
    async def client_error(request: Request, exc: ClientError) -> JSONResponse:
        headers = {"Retry-After": str(exc.retry_after)} if isinstance(exc, RateLimited) else None
        return JSONResponse(exc.to_json(), status_code=STATUS.get(exc.code, 400),
                            headers=headers)

    catalogue: dict[str, dict[str, Any]] = {}  # by language

    @app.get("/api/lobby")
    async def offer() -> dict[str, Any]:
        """Each game the lobby offers: its words, picture, player counts, bots, options."""
        lang = i18n.current()
        if lang not in catalogue:
            catalogue[lang] = {
                "games": [_offer(name, site) for name, site in server.sites.items()],
                "timing": timing.lobby_json(server.limits.min_move_seconds)}
        return catalogue[lang]

    @app.post("/api/games")
    async def create_game(request: Request) -> dict[str, Any]:
        data = parse_json(await request.body(), what="request body")
        assert server.accounts is not None
        room = server.accounts.create_game(request, data)
        rated = server.accounts.store.rated_game(room.id) is not None
        return {"id": room.id, "rated": rated, "game": room.game.info.name,
                "spectator": f"/game/{room.id}#watch",
                "you": min(room.claimed, default=None),
                "seats": [{"seat": i, "name": s.name, "kind": s.kind, "bot": s.bot,
                           "link": f"/game/{room.id}#{room.tokens[i]}"
                           if i in room.tokens else None}
                          for i, s in enumerate(room.params.seats)]}

    @app.get("/api/games")
    async def list_games(request: Request, section: str | None = None,
                         offset: int = 0) -> dict[str, Any]:
        """The lobby: listed games only, a page per list, newest first."""
        server.lobby_limit.check(_client(request), "lobby requests from your address")
        if section is not None:
            page = server.lobby(section, offset)
            return {"games": page.games, "more": page.more}
        pages = {name: server.lobby(name, 0) for name in ("open", "playing", "finished")}
        return {**{name: page.games for name, page in pages.items()},
                "more": {name: page.more for name, page in pages.items()}}

    @app.post("/api/games/{game_id}/join")
    async def join(game_id: str, request: Request) -> dict[str, Any]:
        assert server.accounts is not None
        seat, token = server.accounts.join(request, game_id)
        return {"seat": seat, "link": f"/game/{game_id}#{token}"}


def _offer(name: str, site: WebGame) -> dict[str, Any]:
    info = site.game.info
    return {"name": name, "title": info.title, "picture": f"/static/{name}/picture.svg",
            "page": f"/static/{name}/", "min_players": info.min_players,
            "max_players": info.max_players, "default_players": info.default_players,
            "bots": list(site.levels), "bot_ratings": bot_table(name), **site.lobby_json(),
            **learn_offer(name)}


def _game_routes(app: FastAPI, server: GameServer) -> None:
    """A finished game's record and replay, and every game's WebSocket."""

    def finished(game_id: str) -> Room:
        room = server.room(game_id)
        if room is None:
            raise ClientError("not-found", say("error.not-found"))
        if not room.state.is_over:
            raise ClientError("not-over", say("error.record-not-over"))
        return room

    @app.get("/api/games/{game_id}/record")
    async def record(game_id: str) -> Response:
        room = finished(game_id)
        specs = [(s.bot or "greedy") if s.kind == BOT else "human" for s in room.params.seats]
        text = dumps_record(room.game.record(room.state, players=specs, seed=room.params.seed,
                                             hints=server.hinting.record_counts(room)))
        name = room.site.record_name(game_id)
        return Response(text + "\n", media_type="application/json", headers={
            "Content-Disposition": f'attachment; filename="{name}"'})

    @app.get("/api/games/{game_id}/review")
    async def review(game_id: str, request: Request, seat: str = "0") -> dict[str, Any]:
        """A finished game reviewed by the search for one seat (`tabletop.web.reviewing`)."""
        room = finished(game_id)
        number = int(seat) if seat.isdigit() and len(seat) < 3 else None
        return await server.reviews.get(room, number, i18n.current(), _client(request))

    @app.get("/game/{game_id}/review")
    async def review_page(game_id: str) -> FileResponse:
        return FileResponse(STATIC / "review.html", media_type="text/html")

    @app.get("/api/games/{game_id}/replay/{step}")
    async def replay(game_id: str, step: int) -> dict[str, Any]:
        """The public view after `step` actions of a finished game."""
        room = finished(game_id)
        total = len(room.state.history)
        step = max(0, min(step, total))
        state = room.initial_state()
        for action in room.state.history[:step]:
            room.game.apply_in_place(state, action)
        v = room.game.view(state, None)
        msg = room.site.view_json(v, game_id=room.id, seq=step, seats=room.seats_json(),
                                  log=room.site.log_json(v, 0))
        msg["replay"] = {"step": step, "total": total, "game": room.game.info.name}
        return msg

    @app.websocket("/ws/{game_id}")
    async def websocket(ws: WebSocket, game_id: str) -> None:
        await server.handle(ws, game_id)
