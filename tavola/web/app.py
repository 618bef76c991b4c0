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
import hashlib
import json
import logging
import secrets
import time
from collections.abc import AsyncIterator, Callable, Coroutine, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp

from .. import i18n
from ..collector import freeze_long_lived
from ..ratings import bot_table
from ..text import say
from . import accounts as account_routes
from . import editions as editions_api
from . import friends as friend_routes
from . import i18n_web, metrics, ops, pages, timing
from .account_store import open_account_store
from .background import Background
from .botmoves import BotMoves
from .botpool import DEADLINE, BotPool
from .chat import Chat
from .connection import Connection
from .deadline import REQUEST_SECONDS
from .editions import Editions
from .errors import ClientError
from .friends import Friends
from .hinting import Hinting
from .learn import learn_offer, learn_routes
from .leaving import LeaveChoices, Leavers
from .limits import (
    BodyLimit,
    RateLimited,
    SecurityHeaders,
    address_key,
    parse_json,
)
from .lobby import Lobby
from .logs import RequestIds
from .moderation import Moderation
from .moderation import install as moderation_install
from .notices import Config as NoticeConfig
from .notices import Notifier
from .notices import install as notices_install
from .privacy import Privacy
from .privacy import install as privacy_install
from .replaying import Replays
from .reviewing import Reviews
from .room import BOT, GameParams, Room, with_edition_data
from .rooms import Rooms
from .site import WebGame, editor_script, load_sites
from .sockets import Sockets
from .storage import (
    GameExists,
    GameStore,
    SeqConflict,
    StoredGame,
    StoreError,
    open_store,
)
from .storecalls import StoreCalls
from .timing import Timekeeper
from .vacations import DAYS_PER_YEAR

if TYPE_CHECKING:
    from .cluster import Cluster, Relayed

log = logging.getLogger("tavola.web")
DEFAULT_DB = "sqlite:///tavola.db"
STATUS = {"not-found": 404, "full": 409, "not-over": 409, "too-large": 413,
          "rate-limited": 429, "too-many-games": 429, "server-full": 503, "review-failed": 503,
          "sign-in": 401, "bad-login": 401,
          "csrf": 403, "other-account": 403, "name-taken": 409,
          "blocked": 403, "invited": 403, "not-friend": 403, "answered": 409,
          "waiting": 409, "no-vacation-days": 409, "not-on-vacation": 409,
          "suspended": 403, "muted": 403, "not-moderator": 403, "admin-target": 403,
          "already-reported": 409, "too-many-editions": 429,
          "edition-unplayable": 409, "no-editions": 404}  # else 400
SHUTDOWN_WAIT = 5.0  # seconds a stopping server waits for its tasks to end
#: Seconds a server told to stop (SIGTERM) gives its moves being written and its clients' last
#: messages before it closes every WebSocket anyway (`GameServer.drain`).
RESTART_SECONDS = 10.0
STATIC = Path(__file__).with_name("static")  # the platform's pages: the lobby, shared scripts


@dataclass
class Limits:
    """What one client may cost the server; rates of 0 mean no limit (benchmarks)."""

    creates_per_minute: float = 6.0  # new games per client address, after a burst
    create_burst: int = 5
    lobby_per_second: float = 1.0  # lobby reads and joins per client address, after a burst
    lobby_burst: int = 20
    waiting_per_second: float = 1.0  # reads of the count of games waiting for a player, per
    waiting_burst: int = 30  # account, after a burst (every page's header asks it)
    messages_per_second: float = 20.0  # WebSocket messages per connection, after a burst
    message_burst: int = 60
    max_active_games: int = 1000  # unfinished games that count (below), all together
    games_per_address: int = 20  # of those, created from one address (an IPv6 /64)
    games_per_account: int = 10  # of those, created by one signed-in account
    active_game_seconds: float = 3600.0  # a game counts while it had a move (or began) this
    # recently: games nobody moves in stop holding places
    idle_seconds: float = 600.0  # a game nobody watches leaves memory after this long
    sweep_seconds: float = 30.0  # how often games that left play are let go
    decision_seconds: float = DEADLINE  # a bot decision's deadline
    replays_per_second: float = 2.0  # replay steps and records per client address, after a
    replay_burst: int = 60  # burst (a replay playing asks one step each 0.7 s)
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
    # sign-in attempts per user name and address (or per device the account signed in on
    # before), after a burst; a right password does not count
    name_logins_per_minute: float = 2.0
    name_login_burst: int = 5
    # sign-in attempts per user name from every address together (a device the account signed
    # in on before is not counted), after a burst: only many addresses at once reach it
    name_logins_any_address_per_minute: float = 4.0
    name_login_any_address_burst: int = 20
    signups_per_hour: float = 10.0  # new accounts per address, after a burst
    signup_burst: int = 5
    verify_emails_per_hour: float = 3.0  # addresses to verify per account, after a burst
    verify_email_burst: int = 3
    resets_per_hour: float = 3.0  # password reset links per address and per account
    reset_burst: int = 3
    min_move_seconds: float = 3600.0  # the shortest time per move a turn-based game may have
    turn_check_seconds: float = 5.0  # how often the clocks of turn-based games are read
    chat_per_second: float = 0.5  # chat lines per seat of a game, after a burst
    chat_burst: int = 5
    address_chat_per_second: float = 2.0  # chat lines per client address, after a burst
    address_chat_burst: int = 20
    friend_changes_per_hour: float = 60.0  # friends added or removed, players blocked or
    friend_change_burst: int = 30  # unblocked, per account, after a burst
    invitations_per_hour: float = 30.0  # seats an account invites friends to, after a burst
    invitation_burst: int = 10
    invitation_seconds: float = 86_400.0  # an invitation unanswered this long may be given
    # to another friend, a bot or anyone by whoever invited
    connections_per_seat: int = 6  # WebSockets open on one seat of a game (0: no limit)
    connections_per_address: int = 48  # WebSockets open from one client address (0: none)
    request_seconds: float = REQUEST_SECONDS  # an HTTP request's headers and body must arrive
    # within this time of the connection's opening or the request's first byte (`deadline`)
    lease_seconds: float = 10.0  # several processes: how long a game's bots stay with one
    conflict_retries: int = 3  # several processes: a move judged again after another's won
    vacation_days: int = DAYS_PER_YEAR  # days of vacation per account and calendar year
    reports_per_hour: float = 10.0  # reports of chat lines and players per account, after a
    report_burst: int = 5  # burst (`moderation`)
    exports_per_hour: float = 2.0  # downloads of an account's data per account, after a burst
    export_burst: int = 3
    editions_per_account: int = 50  # editions an account keeps (deleted ones do not count)
    edition_saves_per_hour: float = 120.0  # editions and versions saved per account, after a
    edition_save_burst: int = 30  # burst
    edition_checks_per_minute: float = 60.0  # checks of an edition's data per client address,
    edition_check_burst: int = 60  # after a burst (the editor checks after each change)


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
        self.table = Rooms(self.sites)  # the games in memory; the same tables, by name:
        self.rooms, self.conns = self.table.live, self.table.conns
        self.locks, self.active = self.table.locks, self.table.active
        self.bot_delay = bot_delay
        self.bots = BotPool(bot_workers, deadline=self.limits.decision_seconds,
                            processes=bot_processes)
        # hints and reviews have workers of their own: however many are asked for, the bots
        # of every game keep theirs
        self.advice = BotPool(self.limits.hint_workers, deadline=self.limits.decision_seconds,
                              processes=bot_processes)
        self.background = Background()  # the server's own tasks
        self.store_calls = StoreCalls(store)  # the store's calls on the hot path
        self.bot_moves = BotMoves(self.bots, self.background, self._bot_act, delay=bot_delay,
                                  undo_wait=self.limits.undo_wait)
        self.sockets = Sockets(self)  # the WebSockets, above all this
        self.accounts: account_routes.Accounts | None = None  # set by `accounts.install`
        self.friends: Friends | None = None  # set by `friends.install`
        self.leaving = LeaveChoices(store, clock)
        self.turns = Timekeeper(self, store, clock)
        self.lobby = Lobby(store, self.table, self.limits, clock, timing=self.turns.parse,
                           find=self.room, admit=self._admit)
        self.leavers = Leavers(self.leaving, store, self.locks, seconds=self.turns.seconds,
                               changed=self.changed, shown=self.broadcast,
                               told=self._leaver_told)
        self.hinting = Hinting(self, store, clock)
        self.reviews = Reviews(self, self.limits.reviews_per_minute, self.limits.review_burst)
        self.replays = Replays(self, self.limits.replays_per_second, self.limits.replay_burst)
        self.chat = Chat(store, clock, self.limits.chat_per_second, self.limits.chat_burst,
                         self.limits.address_chat_per_second, self.limits.address_chat_burst)
        self.cluster: Cluster | None = None  # other processes on the same database
        self.notifier: Notifier | None = None  # set by `notices.install`
        self.moderation: Moderation | None = None  # set by `moderation.install`
        self.privacy: Privacy | None = None  # set by `privacy.install`
        self.stopping = False  # told to stop (`drain`): no new move is taken
        self.writing = 0  # moves and undos between their arrival and their views queued

    @property
    def tasks(self) -> set[asyncio.Task[None]]:
        """The server's own tasks (`Background`)."""
        return self.background.tasks

    @property
    def pending_bots(self) -> set[tuple[str, int]]:
        """The bot moves under way: (game, seat) (`BotMoves`)."""
        return self.bot_moves.pending

    def spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        """Run `coro` as one of the server's own tasks, ended when it stops."""
        self.background.spawn(coro)

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
            site = self.table.site_of(stored.params)
            if site is None:
                continue  # a game this server does not host waits for one that does
            try:
                room = self._restore(stored, site)
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
        self.spawn(self._sweep_forever(self.limits.sweep_seconds))
        self.spawn(self._clocks_forever(self.limits.turn_check_seconds))
        if self.notifier is not None:
            if self.cluster is None:  # alone on its database: a dead predecessor's leases go
                self.notifier.sender.release()
            self.spawn(self.notifier.sender.run_forever())

    async def store_ready(self) -> None:
        """Connect the store's coroutines (PostgreSQL's `aio`) before players arrive."""
        await self.store_calls.ready()

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

    async def drain(self, seconds: float = RESTART_SECONDS) -> int:
        """Stop as a restart should (SIGTERM, before the connections close): no new move is
        taken (each is refused as `restarting`, so its client sends it again once reconnected),
        the moves being written end and their views are queued, the other processes hear of
        them, then every client is sent what was queued, told to reconnect and closed with
        1012. No move is acknowledged and lost, none left in doubt. Returns the clients told."""
        self.stopping = True
        deadline = time.monotonic() + seconds
        while self.writing and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        if self.writing:
            log.warning("%s moves still being written after %g s", self.writing, seconds)
        if self.cluster is not None:
            await self.cluster.flush(max(0.1, min(2.0, deadline - time.monotonic())))
        conns = [conn for conns in self.conns.values() for conn in conns]
        if conns:
            await asyncio.wait([asyncio.ensure_future(conn.restarting()) for conn in conns],
                               timeout=max(0.1, deadline - time.monotonic()))
        return len(conns)

    @contextlib.contextmanager
    def _writing(self) -> Iterator[None]:
        """Count a move from its arrival to its views queued (`drain` waits for them); once
        the server is stopping, a move is refused before anything is written."""
        if self.stopping:
            raise ClientError("restarting", say("error.restarting"))
        self.writing += 1
        try:
            yield
        finally:
            self.writing -= 1

    async def shutdown(self) -> None:
        if self.cluster is not None:  # its loops stop and its leases go before tasks end
            await self.cluster.close()
        # a bot mid-thought is abandoned: it is asked again when the game resumes
        await self.background.stop(SHUTDOWN_WAIT)
        await self.bots.shutdown()
        await self.advice.shutdown()
        for room in self.rooms.values():  # no longer live, though still in memory
            metrics.GAMES_LIVE.labels(room.game.info.name).dec()
        await self.store_calls.close()
        self.turns.close()
        self.leaving.close()
        self.chat.close()
        self.hinting.close()
        if self.notifier is not None:
            self.notifier.sender.close()
            self.notifier.store.close()
        for site in self.sites.values():  # their own worker processes end with the server
            site.close()

    def _add(self, room: Room) -> None:
        """A game comes into memory: its clocks, moderation and hints are attached."""
        self.table.add(room)
        self.turns.attach(room)
        if self.moderation is not None:
            self.moderation.attach(room)
        self.hinting.attach(room)

    def _forget(self, game_id: str) -> None:
        self.table.forget(game_id)
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
        stored = await self.store_calls.hot("load", game_id)
        # another connection may have brought the game in while this one waited
        return self.rooms.get(game_id) or self._restored(stored)

    def _restored(self, stored: StoredGame | None) -> Room | None:
        """A stored game as a live room; None if it is unknown here or no longer replays."""
        site = None if stored is None else self.table.site_of(stored.params)
        if stored is None or site is None or stored.status == "broken":
            return None
        try:
            room = self._restore(stored, site)
        except (ValueError, KeyError, TypeError):
            return None
        self._add(room)
        self.kick_bots(room)
        return room

    def _restore(self, stored: StoredGame, site: WebGame) -> Room:
        """`Room.restore`, on the data of the edition the game is played on, read again from
        its very version and put back into the setup, which names it by hash (`GameParams.
        to_json`); ValueError when this server lacks that version."""
        ref = stored.params.get("edition")
        if not ref:
            return Room.restore(stored, site)
        if self.editions is None:
            raise ValueError(f"game {stored.id} is played on an edition and this server "
                             "keeps none")
        game = site.game.info.name
        data = self.editions.data_of(game, ref)
        room = Room.restore(with_edition_data(stored, data), site)
        room.params.edition_data = data
        room.params.edition_options = self.editions.kinds[game].options(data)
        return room

    def sweep(self, now: float | None = None) -> int:
        """Let go of games nobody is connected to and no bot is thinking in: finished ones at
        once, others after `idle_seconds`; returns how many left memory."""
        now = time.monotonic() if now is None else now
        busy = {game for game, _ in self.bot_moves.pending}
        gone = self.table.idle(now, busy, self.limits.idle_seconds)
        for gid in gone:
            self._forget(gid)
        self.bot_moves.forget(self.rooms)
        return len(gone)

    async def _sweep_forever(self, every: float) -> None:
        while True:
            await asyncio.sleep(every)
            self.sweep()

    # -- lobby (`tavola.web.lobby`) ---------------------------------------------------------

    @property
    def editions(self) -> Editions | None:
        """The editions games are played on (`editions.open_editions`); the lobby's."""
        return self.lobby.editions

    @editions.setter
    def editions(self, editions: Editions | None) -> None:
        self.lobby.editions = editions

    def create(self, data: Any, client: str = "",
               check: Callable[[GameParams], None] | None = None, *,
               account: int | None = None) -> Room:
        """A new game (`Lobby.create`)."""
        return self.lobby.create(data, client, check, account=account)

    def _admit(self, room: Room) -> None:
        """A new game comes into memory and its bots start (`Lobby.open`)."""
        self._add(room)
        self.kick_bots(room)

    def name_seat(self, room: Room, seat: int, name: str) -> None:
        """A seat taken by a signed-in player goes by the account's name (unless it has a
        name of its own): in the log, the views, new chat lines, the lobby, "my games" and
        profiles; stored, and told to every connection, here and on other processes."""
        if not room.rename(seat, name):
            return
        self.store.set_params(room.id, room.params.to_json(room.site), room.section(),
                              room.summary())
        self.lobby_changed()
        self.broadcast(room)
        if self.cluster is not None:
            self.cluster.changed(room)

    def invited(self, account_id: int, game_id: str, seat: int, by_account: int) -> None:
        """Called once for each invitation made, when it is made (a new game's seat, or a
        seat given to another friend): the invited player is told by their notifications
        (the invitation itself is stored before)."""
        if self.notifier is None or self.accounts is None:
            return
        by = self.accounts.store.user_by_id(by_account)
        self.notifier.invited(account_id, game_id, seat, by.name if by else "", "/friends")

    def lobby_changed(self) -> None:
        """A game's lobby line changed (`Lobby.changed`)."""
        self.lobby.changed()

    # -- play ------------------------------------------------------------------------------

    async def act(self, room: Room, seat: int | None, payload: Any, seq: Any, *,
                  after_commit: Callable[[], None] | None = None, by_bot: bool = False
                  ) -> None:
        """Validate, store, apply, broadcast; a `ClientError` changes nothing.
        `after_commit` runs once the move is made, before anyone is told; `by_bot`: the
        server's bot moves for the seat (`Room.prepare`); a person's link never moves for a
        seat a bot plays (a deleted account's seat keeps its link: `privacy`)."""
        if not by_bot and seat is not None and room.params.seats[seat].kind == BOT:
            raise ClientError("bot-seat", say("seat.bot-plays"))
        with self._writing():
            await self._act(room, seat, payload, seq, after_commit, by_bot)

    async def _act(self, room: Room, seat: int | None, payload: Any, seq: Any,
                   after_commit: Callable[[], None] | None, by_bot: bool) -> None:
        received = time.perf_counter()
        for tries in range(self.limits.conflict_retries, -1, -1):
            async with self.locks[room.id]:
                room.check_seq(seq)
                action, new_state = room.prepare(seat, payload, by_bot=by_bot)
                stored = room.game.action_to_json(action)
                if not await self._store(room, tries, "append", room.id, room.seq, stored,
                                         section=room.section(new_state),
                                         summary=room.summary(new_state),
                                         status="over" if new_state.is_over else None,
                                         notices=room.outbox_notices(new_state, room.seq + 1,
                                                                     self.clock())):
                    continue  # another process moved first: judged again on the game as it is
                room.commit(action, new_state)
                if after_commit is not None:
                    after_commit()
            break
        if room.is_over:
            log.info("game over after %d moves", room.seq, extra={"game_id": room.id})
        self.changed(room, stored)
        game = room.game.info.name
        metrics.MOVES.labels(game, "bot" if by_bot else "person").inc()
        metrics.observe(metrics.MOVE_SECONDS, received, game)

    async def undo(self, room: Room, seat: int | None, seq: Any) -> None:
        """Take back the seat's last move while nobody has moved since and it revealed
        nothing (see `Room.can_undo`)."""
        with self._writing():
            await self._undo(room, seat, seq)

    async def _undo(self, room: Room, seat: int | None, seq: Any) -> None:
        for tries in range(self.limits.conflict_retries, -1, -1):
            async with self.locks[room.id]:
                before = room.prepare_undo(seat, seq)
                if not await self._store(room, tries, "take_back", room.id, room.seq - 1,
                                         section=room.section(before),
                                         summary=room.summary(before),
                                         notices=room.outbox_notices(before, room.seq - 1,
                                                                     self.clock())):
                    continue
                room.commit_undo(before)
            break
        self.changed(room)

    async def _store(self, room: Room, tries: int, call: str, *args: Any, **kwargs: Any
                     ) -> bool:
        """Write a move (the store's `call`); False when another writer (another process)
        stored this game's next move first: the room has caught up from the store and the
        caller judges its move again (`stale` once out of tries). The caller holds the
        room's lock, which keeps the game's moves in order while the write waits."""
        try:
            await self.store_calls.hot(call, *args, **kwargs)
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

    async def _catch_up(self, room: Room) -> bool:
        """Bring a room to its stored log (another process moved); True if it changed. The
        caller holds the room's lock. Its clients are sent the new view."""
        stored = await self.store_calls.hot("load", room.id)
        if stored is None:
            return False
        claimed = set(room.claimed)
        handed = self._handed_over(room)
        if not room.catch_up(stored):
            if stored.status == "over" and not room.is_over:  # its players ended it elsewhere
                self.turns.attach_again(room)  # (`leaving`): no move, a status
                self.lobby_changed()
                self.broadcast(room)
                return True
            if room.claimed != claimed:  # a seat taken elsewhere: who is who, not a new view
                self.lobby_changed()
                self.presence(room)
            if self.turns.reshow(room):  # a vacation taken elsewhere moved its clocks
                self.broadcast(room)
                return True
            if handed:
                self.broadcast(room)
                self.kick_bots(room)
                return True
            return False
        self.turns.attach_again(room)
        self.lobby_changed()
        self.broadcast(room)
        self.kick_bots(room)
        return True

    def _handed_over(self, room: Room) -> bool:
        """Whether another process gave a suspended player's seat to the bot (`moderation`):
        then the room has it, and the others' choice about it."""
        if self.moderation is None or not self.moderation.attach(room):
            return False
        self.leaving.attach(room, only_open=True)
        return True

    async def catch_up(self, room: Room, moves: list[Relayed] | None = None) -> bool:
        """`_catch_up` under the room's lock (a signal from another process); with the
        `moves` another process relayed, applied without reading the store if they follow."""
        lock = self.locks.get(room.id)
        if lock is None:
            return False
        async with lock:
            if moves and room.apply_relayed(moves):
                self.turns.attach_again(room)
                self.lobby_changed()
                self.broadcast(room)
                self.kick_bots(room)
                return True
            return await self._catch_up(room)

    def changed(self, room: Room, action: dict[str, Any] | None = None) -> None:
        """Everything that follows a change of the game (`action`: a move, as stored)."""
        self.table.touch(room.id)
        if room.is_over and self.accounts is not None:
            self.accounts.game_over(room)  # a rated game's result counts once
        self.lobby_changed()
        self.turns.changed(room)
        self.broadcast(room)
        if self.cluster is not None:
            self.cluster.changed(room, action)
        self.kick_bots(room)

    def broadcast(self, room: Room) -> None:
        """Queue every joined connection's view; nothing here waits for a client."""
        for conn in self.conns.get(room.id, ()):
            if conn.joined:
                conn.send_view()

    def relayed(self, game_id: str, message: dict[str, Any]) -> None:
        """A message another process sent its clients of this game (a chat line, a line a
        moderator hid): to ours."""
        if message.get("type") == "chat-hidden":
            hidden = json.dumps({"type": "chat-hidden", "n": message.get("n")})
            for conn in self.conns.get(game_id, ()):
                if conn.joined:
                    conn.send(hidden)
            return
        if message.get("type") != "chat":
            return
        text = json.dumps(message)
        room = self.rooms.get(game_id)
        for conn in self.conns.get(game_id, ()):
            if not conn.joined:
                continue
            hidden = self.friends.hidden_seats(room, conn.account) \
                if self.friends is not None and room is not None else set()
            lines = [line for line in message.get("lines") or () if isinstance(line, dict)
                     and line.get("seat") not in hidden]
            if len(lines) == len(message.get("lines") or ()):
                conn.send(text)
            elif lines:
                conn.send(json.dumps({**message, "lines": lines}))

    def presence(self, room: Room, but: Connection | None = None) -> None:
        text = json.dumps({"type": "presence", "seats": room.seats_json()})
        for conn in self.conns.get(room.id, ()):
            if conn.joined and conn is not but:
                conn.send(text)

    async def rematch(self, room: Room, seat: int | None, client: str = "") -> None:
        """A new game with the same seats, counted as created from the address `client` of
        the player who asked first; each connection is sent its own seat's link."""
        if seat is None:
            raise ClientError("spectator", say("error.spectator-rematch"))
        if not room.is_over:
            raise ClientError("not-over", say("error.not-over"))
        if room.rematch is None:
            new = await self._rematch_room(room, address_key(client))
            room.rematch = {s: f"/game/{new.id}#{t}" for s, t in new.tokens.items()}
            room.rematch[None] = f"/game/{new.id}#watch"
            room.touch()
        for conn in self.conns.get(room.id, ()):
            if conn.joined:
                conn.send(json.dumps({"type": "rematch", "link": room.rematch.get(conn.seat)}))
        self.broadcast(room)

    async def _rematch_room(self, room: Room, address: str) -> Room:
        """The rematch of a game: one game whoever asks, on whichever process. Its id comes
        from the finished game's (`rematch_id`), so a second process asking creates nothing:
        it finds the game stored, or loses the race to create it and loads it. It is the
        game again with a new deal: the same seats, options and hints choice, and rated with
        the same accounts' seats if the game was (`Accounts.rematched`)."""
        new_id = rematch_id(room.id)
        found = await self.room_waiting(new_id)
        if found is not None:
            return found
        self.lobby.check_capacity(address, None)
        p = room.params
        state = room.site.deal([s.name for s in p.seats], None, p.play_options)
        params = GameParams(p.seats, None, p.options, p.public, room.game.setup_of(state),
                            secrets.randbits(63), p.game, p.timing, hints=p.hints,
                            edition=p.edition, edition_options=p.edition_options,
                            edition_data=p.edition_data)
        try:
            new = self.lobby.open(params, claimed=set(room.claimed), game_id=new_id,
                                  creator=(address, None))
        except GameExists:
            found = await self.room_waiting(new_id)
            if found is None:
                raise ClientError("storage", say("error.storage")) from None
            return found
        if self.accounts is not None:
            self.accounts.rematched(room, new)
        return new

    # -- leavers (`tavola.web.leaving`) -----------------------------------------------------

    def _leaver_told(self, room: Room, seat: int, voters: list[int]) -> None:
        """The seats `voters` choose what becomes of a leaver's seat: each is told, like a
        turn, by their notifications (`Leavers.told`)."""
        if self.notifier is not None:
            self.notifier.leaver(room, seat, voters)

    async def _bot_act(self, room: Room, seat: int, action: Any, seq: int) -> None:
        """A bot's move, played like a client's (`BotMoves`)."""
        await self.act(room, seat, action, seq, by_bot=True)

    def kick_bots(self, room: Room) -> None:
        """Start the bots whose move it is; of several processes only the one holding the
        game's lease does (the others ask for it, in case its holder died)."""
        if self.stopping:  # another process takes them over with the game's lease
            return
        if self.cluster is not None and room.bots_to_move() \
                and not self.cluster.holds(room.id):
            self.cluster.want(room.id)
            return
        self.bot_moves.start(room, self._bots_again)

    def _bots_again(self, room: Room) -> None:
        """A bot move ended with a bot still to move: started again while the game is here."""
        if room.id in self.rooms:
            self.kick_bots(room)

    # -- connections (`tavola.web.sockets` reads them and calls these) ----------------------

    async def handle(self, ws: WebSocket, game_id: str) -> None:
        """A game's WebSocket, from its opening to its end (`Sockets.handle`)."""
        await self.sockets.handle(ws, game_id)

    def connected(self, room: Room, conn: Connection) -> None:
        """A connection opened on a game: from now on the room stays in memory, and this
        process hears of the game's moves made elsewhere."""
        self.conns[room.id].add(conn)
        if self.cluster is not None:
            self.cluster.follow(room.id)

    def disconnected(self, room: Room, conn: Connection) -> None:
        """A connection closed: its seat's other players hear who is still there."""
        self.conns.get(room.id, set()).discard(conn)
        self.table.touch(room.id)
        if conn.joined and conn.seat is not None:
            room.connected[conn.seat] = room.connected.get(conn.seat, 1) - 1
            self.presence(room)

    async def take_seat(self, room: Room, seat: int) -> None:
        """A player's first hello on a seat nobody took: stored with the lobby line it
        changes (another process may have taken it meanwhile: then it stays taken)."""
        section, summary = room.line_if_claimed(seat)
        if await self.store_calls.hot("claim", room.id, seat, section=section,
                                      summary=summary):
            room.claimed.add(seat)
            self.lobby_changed()

    def post_chat(self, conn: Connection, room: Room, text: Any) -> None:
        """A chat line of a connection's seat, for the players here and on other processes."""
        if self.moderation is not None:
            self.moderation.may_chat(conn.account)
        reads = self.friends.chat_readers(room, conn.account) if self.friends else None
        line = self.chat.post(conn, room, text, self.conns.get(room.id, ()),
                              **({"reads": reads} if reads else {}))
        if self.cluster is not None:  # players of this game on other processes read it too
            self.cluster.relay(room.id, {"type": "chat", "lines": [line]})


def create_app(db: str | GameStore = DEFAULT_DB, *, games: Sequence[str] | None = None,
               bot_delay: float = 0.35, bot_processes: bool = True,
               limits: Limits | None = None, redis: str | None = None,
               notices: NoticeConfig | None = None, metrics_token: str | None = None
               ) -> FastAPI:
    """The ASGI app of `games` (default: every game with a web side) in one lobby; `db` is a
    database URL or a ready `GameStore`; with `redis` (a URL) it is one of several processes
    serving the same database (`tavola.web.cluster`); `notices`: how players are told of
    their turns away from the table (default: no e-mail relay, links to 127.0.0.1:8000);
    `metrics_token`: the bearer token that reads /metrics from beyond loopback (`ops`)."""
    store = open_store(db) if isinstance(db, str) else db
    sites = load_sites(games)
    server = GameServer(store, sites, bot_delay=bot_delay, bot_processes=bot_processes,
                        limits=limits)
    if redis is not None:
        from .cluster import Cluster

        server.cluster = Cluster(redis, server.limits.lease_seconds)
    editions = editions_api.open_editions(server, store, editions_api.kinds_of(list(sites)))
    server.resume()
    account_store = open_account_store(store)
    # The games' tables and every resumed game live as long as the server
    freeze_long_lived()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if server.cluster is not None:
            await server.cluster.start(server)
        server.start()
        await server.store_ready()
        yield
        await server.shutdown()  # its tasks end, the cluster's included
        for probe in probes:
            probe.close()
        metrics.leaving()
        store.close()
        account_store.close()
        if server.friends is not None:
            server.friends.store.close()
        if server.moderation is not None:
            server.moderation.close()
        if server.editions is not None:
            server.editions.store.close()

    app = _App(title="Tavola",
               lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.add_middleware(BodyLimit, larger={editions_api.API: editions_api.MAX_EDITION_BODY})
    i18n_web.routes(app)
    app.state.server = server
    probes = ops.routes(app, server, redis=redis, metrics_token=metrics_token)
    _pages(app, server)
    learn_routes(app, server)  # rules pages and tutorials
    for site in sites.values():
        site.routes(app, server)
    _lobby_routes(app, server)
    _game_routes(app, server)
    accounts = account_routes.install(app, server, account_store)
    friend_routes.install(app, server, accounts, store)
    moderation_install(app, server, accounts)
    config = notices or NoticeConfig()
    config.titles = {name: site.game.info.title for name, site in sites.items()}
    notices_install(app, server, config)
    privacy_install(app, server, accounts)
    editions_api.install(app, editions, accounts)
    return app


class _App(FastAPI):
    """The app inside `SecurityHeaders`: outside every layer, so that even the answer to a
    server error carries them (Starlette makes that one around any middleware added); and
    outside that, `RequestIds`, so that every log line of a request names it."""

    def build_middleware_stack(self) -> ASGIApp:
        return RequestIds(SecurityHeaders(super().build_middleware_stack()))


def _pages(app: FastAPI, server: GameServer) -> None:
    """The lobby (the platform's page) and each game's own page and files."""
    app.mount("/static/tavola", StaticFiles(directory=STATIC), name="tavola")
    for name, site in server.sites.items():
        app.mount(f"/static/{name}", StaticFiles(directory=site.static_dir()), name=name)

    @app.get("/")
    async def lobby_page() -> HTMLResponse:
        return pages.LOBBY.response()

    @app.get("/game/{game_id}")
    async def game_page(game_id: str) -> HTMLResponse:
        """The game's own page; for a game unknown here, the lobby's page says so."""
        room = server.rooms.get(game_id)
        stored = None if room is not None or len(game_id) > 64 else server.store.load(game_id)
        site = room.site if room is not None else \
            (None if stored is None else server.table.site_of(stored.params))
        if site is None:
            return pages.LOBBY.response()
        return site.table_page.page(site.game.info.name, site.static_dir()).response()

    @app.get("/favicon.ico")
    async def favicon() -> FileResponse:
        """Browsers ask for it whatever the page links; the lobby links the same SVG."""
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml",
                            headers={"Cache-Control": "max-age=86400"})


def _client(request: Request | WebSocket) -> str:
    """The client's address: the connection's, or the one a trusted proxy forwarded
    (`serve(proxies=...)`)."""
    return request.client.host if request.client else ""


def _lobby_routes(app: FastAPI, server: GameServer) -> None:
    """Errors as JSON, the games on offer, creating, listing and joining games."""

    @app.exception_handler(ClientError)
    async def client_error(request: Request, exc: ClientError) -> JSONResponse:
        headers = {"Retry-After": str(exc.retry_after)} if isinstance(exc, RateLimited) else None
        metrics.count_client_error(exc.code)
        return JSONResponse(exc.to_json(), status_code=STATUS.get(exc.code, 400),
                            headers=headers)

    catalogue: dict[str, dict[str, Any]] = {}  # by language

    @app.get("/api/lobby")
    async def offer() -> dict[str, Any]:
        """Each game the lobby offers: its words, picture, player counts, bots, options."""
        lang = i18n.current()
        if lang not in catalogue:
            kinds = server.editions.kinds if server.editions is not None else {}
            catalogue[lang] = {
                "games": [{**_offer(name, site), "editions": name in kinds,
                           "editor": _editor(name, site) if name in kinds else None}
                          for name, site in server.sites.items()],
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
                           if i in room.tokens and i not in room.params.reserved else None,
                           "invited": i in room.params.reserved}
                          for i, s in enumerate(room.params.seats)]}

    @app.get("/api/games")
    async def list_games(request: Request, section: str | None = None,
                         offset: int = 0) -> dict[str, Any]:
        """The lobby: listed games only, a page per list, newest first."""
        server.lobby.reads.check(_client(request), "lobby requests from your address")
        if section is not None:
            page = server.lobby.listing(section, offset)
            return {"games": server.table.in_viewers_names(page.games), "more": page.more}
        pages = {name: server.lobby.listing(name, 0) for name in ("open", "playing", "finished")}
        return {**{name: server.table.in_viewers_names(page.games) for name, page in pages.items()},
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


def _editor(name: str, site: WebGame) -> str | None:
    """The address of the game's edition editor module, if it has one."""
    script = editor_script(site)
    return None if script is None else f"/static/{name}/{script}"


def _game_routes(app: FastAPI, server: GameServer) -> None:
    """A finished game's record, replay and review, and every game's WebSocket."""

    @app.get("/api/games/{game_id}/record")
    async def record(game_id: str, request: Request) -> Response:
        text, name = server.replays.record(game_id, _client(request))
        return Response(text, media_type="application/json", headers={
            "Content-Disposition": f'attachment; filename="{name}"'})

    @app.get("/api/games/{game_id}/review")
    async def review(game_id: str, request: Request, seat: str = "0") -> dict[str, Any]:
        """A finished game reviewed by the search for one seat (`tavola.web.reviewing`)."""
        room = server.replays.finished(game_id)
        number = int(seat) if seat.isdigit() and len(seat) < 3 else None
        return await server.reviews.get(room, number, i18n.current(), _client(request))

    @app.get("/game/{game_id}/review")
    async def review_page(game_id: str) -> HTMLResponse:
        return pages.ACCOUNT_PAGES["review"].response()

    @app.get("/api/games/{game_id}/replay/{step}")
    async def replay(game_id: str, step: int, request: Request) -> Response:
        """The public view after `step` actions of a finished game (`replaying`)."""
        return Response(server.replays.step(game_id, step, _client(request)),
                        media_type="application/json")

    @app.websocket("/ws/{game_id}")
    async def websocket(ws: WebSocket, game_id: str) -> None:
        await server.handle(ws, game_id)
