"""Several server processes on one database: any process serves any game.

The database's log of each game is the truth; Redis only carries signals (and chat lines, which
are stored too). After a process
stores a move it publishes "game ID changed" on the game's channel, with the move itself; every
other process that shows the game (someone connected there sees it, or its bots decide there)
follows its channel, applies the move if it is the next one there, else reads the log from the
store and applies what it lacks (or replays, if a move was taken back), then sends its own
clients the new view. A lost or repeated signal therefore never forks or repeats anything: the
next one (or a resubscription) catches up everything. A process follows a game from its first
connection to it or its bots' lease until the game leaves memory; one that only has a game in
memory (it was created or listed there) hears nothing of it, and catches up when someone says
hello. Two moves made at once on two processes meet in the store's unique (game, seq):
one is written, the other gets `SeqConflict`, and its process catches up and judges the move
again against the game as it now is.

Bots and turn clocks run where a lease is held: one Redis key per game (and one for the turn
clocks of every game), set with an expiry and renewed while held, so a bot decides once however
many processes show its game, and a killed process's games are taken over when its leases run
out.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import time
from typing import TYPE_CHECKING, Any

import orjson
import redis.asyncio as aioredis

if TYPE_CHECKING:
    from .app import GameServer
    from .room import Room

log = logging.getLogger("tavola.web.cluster")
PREFIX = "tabletop"  # the channels' names from before the rename, so processes of the old and
# the new version hear each other during a rolling upgrade (`docs/deploy.md`)
CLOCKS = "clocks"  # the lease of every game's turn clocks
# A lease counts as held for this share of its time from when it was asked for, so a process
# never acts on one about to run out (it is renewed every quarter of its time).
TRUST = 0.8
LISTEN_WAIT = 0.5  # seconds one wait for a signal lasts before the loop looks round
_RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2])
end
return 0
"""
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""


def channel(game_id: str) -> str:
    return f"{PREFIX}:game:{game_id}"


def lease_key(name: str) -> str:
    return f"{PREFIX}:lease:{name}"


class Cluster:
    """This process's link to the others: signals out and in, and the leases it holds."""

    def __init__(self, url: str, lease_seconds: float = 10.0) -> None:
        self.url = url
        self.me = f"{os.getpid()}-{secrets.token_hex(6)}"
        self.lease_seconds = lease_seconds
        self.server: GameServer | None = None
        self._redis: aioredis.Redis | None = None
        self._pubsub: Any = None
        self._out: asyncio.Queue[tuple[str, str, str]] = asyncio.Queue()
        self._held: dict[str, float] = {}  # lease name -> monotonic time it surely holds until
        self._asking: set[str] = set()  # leases being asked for now
        self._dirty: dict[str, bool] = {}  # game -> a catch-up is running (True: run again)
        # game -> the moves heard and not yet applied; None: a change that is no move (or
        # a move before the subscription) was heard too, so the store is read
        self._moves: dict[str, list[Relayed] | None] = {}
        self._following: set[str] = set()  # games whose channel this process subscribes to
        self._subscribed: set[str] = set()  # of those, the ones Redis confirmed
        # game -> when another process was last heard on its channel (a count of what was
        # heard, `_heard_so_far`): a game followed here and by nobody else needs no signals
        self._others: dict[str, int] = {}
        self._heard_so_far = 0
        self.open = False  # between start and close: the loops below run while it holds
        self.signals = 0  # signals heard (tests and the benchmark read it)
        self.catch_ups = 0  # signals that changed a game here

    # -- life cycle ------------------------------------------------------------------------

    async def start(self, server: GameServer) -> None:
        self.server = server
        self.open = True
        self._redis = aioredis.from_url(self.url)
        await self._redis.ping()  # a wrong address fails the start, not the first move
        self._pubsub = self._redis.pubsub()
        await self._pubsub.subscribe(f"{PREFIX}:process:{self.me}")  # games are followed
        # as they come into memory (`GameServer._add`), those resumed at start included
        server.spawn(self._send_forever())
        server.spawn(self._listen_forever())
        server.spawn(self._leases_forever())

    async def close(self) -> None:
        """Stop the loops and let go of the leases; safe to call twice."""
        if self._redis is None or not self.open:
            return
        self.open = False
        with contextlib.suppress(Exception):  # leases let go now, not when they run out
            await asyncio.wait_for(self._release_all(), 2)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._pubsub.aclose(), 2)
            await asyncio.wait_for(self._redis.aclose(), 2)

    async def flush(self, seconds: float) -> None:
        """Wait (at most `seconds`) until every signal queued so far is sent: a process that
        stops tells the others of its last moves before its players come to them."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._out.join(), seconds)

    async def _release_all(self) -> None:
        assert self._redis is not None
        for name in list(self._held):
            await self._redis.eval(_RELEASE, 1, lease_key(name), self.me)
        self._held.clear()

    # -- signals ---------------------------------------------------------------------------

    def follow(self, game_id: str) -> None:
        """Hear of this game's moves from now on (someone connected here, or its bots decide
        here); once."""
        if game_id not in self._following:
            self._following.add(game_id)
            self._out.put_nowait(("subscribe", channel(game_id), ""))

    def unfollow(self, game_id: str) -> None:
        """The game left memory here: nothing more of it is heard or held."""
        if game_id in self._following:
            self._following.discard(game_id)
            self._subscribed.discard(game_id)
            self._out.put_nowait(("unsubscribe", channel(game_id), ""))
        self._others.pop(game_id, None)
        self._held.pop(game_id, None)
        self._moves.pop(game_id, None)

    def relay(self, game_id: str, message: dict[str, Any]) -> None:
        """Send a message to this game's clients on the other processes (a chat line, which
        is stored, so a lost one is still read by a page that reconnects); never waits."""
        self._out.put_nowait(("publish", channel(game_id),
                              json.dumps({"from": self.me, "relay": message})))

    def changed(self, room: Room, action: dict[str, Any] | None = None) -> None:
        """Tell the others this game changed here (after the store has it); never waits.
        `action`: the move just made (as stored), which a process one move behind applies
        instead of reading the game from the store, with the seats taken so far. Nothing is
        sent for a game this process follows and no other has said it follows: one that
        starts to follow it reads the store and says so (`_heard`)."""
        if room.id in self._subscribed and room.id not in self._others:
            return
        moved = {} if action is None else {"action": action, "claimed": sorted(room.claimed)}
        self._out.put_nowait(("publish", channel(room.id), orjson.dumps(
            {"seq": room.seq, "from": self.me, **moved}, option=orjson.OPT_NON_STR_KEYS).decode()))

    def signal(self, game_id: str) -> None:
        """Tell the others to read a game again though its log did not change (a vacation
        moved its clocks), whether or not this process has it in memory; never waits."""
        self._out.put_nowait(("publish", channel(game_id), json.dumps({"from": self.me})))

    async def _send_forever(self) -> None:
        """One task sends every command, so this process's signals leave in order; those
        queued meanwhile (a busy process's moves) leave together, in one round trip."""
        assert self._redis is not None
        while _running(self):
            commands = [await self._out.get()]
            while not self._out.empty():
                commands.append(self._out.get_nowait())
            try:
                await self._send(commands)
            finally:
                for _ in commands:
                    self._out.task_done()

    async def _send(self, commands: list[tuple[str, str, str]]) -> None:
        """Commands in order: each run of signals in one pipeline, (un)subscriptions one by
        one on the subscription's connection."""
        signals: list[tuple[str, str]] = []
        for kind, name, data in commands:
            if kind == "publish":
                signals.append((name, data))
                continue
            await self._publish(signals)
            signals = []
            try:
                if kind == "subscribe":
                    await self._pubsub.subscribe(name)
                else:
                    await self._pubsub.unsubscribe(name)
            except (aioredis.RedisError, OSError) as exc:
                log.warning("redis %s %s: %s", kind, name, exc)
        await self._publish(signals)

    async def _publish(self, signals: list[tuple[str, str]]) -> None:
        assert self._redis is not None
        if not signals:
            return
        sent = self._heard_so_far
        try:
            if len(signals) == 1:
                receivers = [await self._redis.publish(*signals[0])]
            else:
                pipe = self._redis.pipeline(transaction=False)
                for name, data in signals:
                    pipe.publish(name, data)
                receivers = await pipe.execute()
        except (aioredis.RedisError, OSError) as exc:
            log.warning("redis publish of %d signals (%s...): %s", len(signals),
                        signals[0][0], exc)
            return
        for (name, _), count in zip(signals, receivers, strict=True):
            self._alone(name, count, sent)

    def _alone(self, name: str, receivers: int, sent: int) -> None:
        """Forget the others of a game when Redis counted no receiver but this process: they
        stopped following it. Not if one was heard since the signal left: its subscription
        may be newer than the count."""
        game_id = name.removeprefix(f"{PREFIX}:game:")
        ours = 1 if game_id in self._subscribed else 0
        if receivers <= ours and self._others.get(game_id, sent + 1) <= sent:
            del self._others[game_id]

    async def _listen_forever(self) -> None:
        """Hear signals; the wait is short so that a stop is seen even if the Redis client
        swallowed a cancel (it can, mid-read)."""
        while _running(self):
            try:
                message = await self._pubsub.get_message(timeout=LISTEN_WAIT)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # a lost connection: signals may have been missed
                if not _running(self):
                    return
                log.warning("redis subscription lost (%s); catching up every game", exc)
                await asyncio.sleep(0.5)
                self._resubscribe()
                continue
            if message is not None:
                self._heard(message)

    def _resubscribe(self) -> None:
        server = self.server
        assert server is not None
        following, self._following = list(self._following), set()
        self._subscribed.clear()  # signals go out for every game until Redis confirms again
        for game_id in following:
            if game_id in server.rooms:
                self.follow(game_id)  # its confirmation catches the game up

    def _heard(self, message: dict[str, Any]) -> None:
        name = message.get("channel")
        name = name.decode() if isinstance(name, bytes) else str(name)
        prefix = f"{PREFIX}:game:"
        if not name.startswith(prefix):
            return
        game_id = name[len(prefix):]
        move = None
        if message.get("type") == "message":
            self.signals += 1
            with contextlib.suppress(ValueError, TypeError, AttributeError):
                data = orjson.loads(message.get("data") or "")
                if data.get("from") == self.me:
                    return  # our own move (or line): this process has it already
                self._heard_so_far += 1
                self._others[game_id] = self._heard_so_far
                if data.get("hello"):  # another process follows it from now on; answered
                    # so that it reads the store again (a move made here before this hello
                    # was heard was not signalled) and knows this process follows it too
                    self.signal(game_id)
                    return
                if isinstance(data.get("relay"), dict):
                    assert self.server is not None
                    self.server.relayed(game_id, data["relay"])
                    return
                move = relayed_move(data)
        elif message.get("type") == "subscribe":
            self._hello(game_id)
        else:
            return
        # a move elsewhere, or a new subscription (moves before it were not heard)
        pending = self._moves.get(game_id, [])
        self._moves[game_id] = None if move is None or pending is None else [*pending, move]
        self.catch_up(game_id)

    def _hello(self, game_id: str) -> None:
        """Redis confirmed the subscription: say so on the channel, so a process that moves
        in the game and thought itself alone signals its moves from now on."""
        if game_id in self._following:
            self._subscribed.add(game_id)
            self._out.put_nowait(("publish", channel(game_id),
                                  json.dumps({"from": self.me, "hello": True})))

    def catch_up(self, game_id: str) -> None:
        """Bring the game up to date (the moves heard, or else the store), once at a time per
        game (a signal that arrives meanwhile runs it once more)."""
        if game_id in self._dirty:
            self._dirty[game_id] = True
            return
        self._dirty[game_id] = False
        assert self.server is not None
        self.server.spawn(self._catch_up(game_id))

    async def _catch_up(self, game_id: str) -> None:
        server = self.server
        assert server is not None
        try:
            while True:
                self._dirty[game_id] = False
                moves = self._moves.pop(game_id, None)
                room = server.rooms.get(game_id)
                if room is not None and self._shown(game_id) \
                        and await server.catch_up(room, moves):
                    self.catch_ups += 1
                if not self._dirty.get(game_id):
                    return
        except Exception:
            log.exception("catching up game %s", game_id)
        finally:
            self._dirty.pop(game_id, None)

    def _shown(self, game_id: str) -> bool:
        """Whether a signal of this game is worth a read of the store now: someone here sees
        it, or its bots decide here. A game in memory that nobody here shows is caught up when
        someone says hello, or when its lease is won; a move made meanwhile on a game behind
        the log meets the unique seq and catches up then."""
        assert self.server is not None
        return bool(self.server.conns.get(game_id)) or self.holds(game_id)

    # -- leases ----------------------------------------------------------------------------

    def holds(self, name: str) -> bool:
        """Whether this process surely holds the lease now (bots of a game, or the clocks)."""
        return self._held.get(name, 0.0) > time.monotonic()

    def want(self, name: str) -> None:
        """Ask for a lease in the background; the server's bots start once it is held."""
        if name in self._asking or self.server is None:
            return
        self._asking.add(name)
        self.server.spawn(self._ask(name))

    async def _ask(self, name: str) -> None:
        server = self.server
        assert server is not None
        try:
            if await self.acquire(name):
                await self._take_over(name)
        except (aioredis.RedisError, OSError) as exc:
            log.warning("lease %s: %s", name, exc)
        finally:
            self._asking.discard(name)

    async def acquire(self, name: str) -> bool:
        """Take the lease if it is free, or renew it if it is ours."""
        assert self._redis is not None
        ms = int(self.lease_seconds * 1000)
        asked = time.monotonic()
        key = lease_key(name)
        got = bool(await self._redis.set(key, self.me, nx=True, px=ms))
        if not got:
            got = bool(await self._redis.eval(_RENEW, 1, key, self.me, ms))
        if got:
            self._held[name] = asked + self.lease_seconds * TRUST
            if name != CLOCKS:  # its bots decide here: on the game as it is
                self.follow(name)
        else:
            self._held.pop(name, None)
        return got

    async def _leases_forever(self) -> None:
        """Renew what is held for games still here; ask for the leases of games whose bots
        wait (their holder may be dead), and for the clocks."""
        server = self.server
        assert server is not None
        while _running(self):
            try:
                await self._renew_all(server)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("renewing leases: %s", exc)
            await asyncio.sleep(self.lease_seconds / 4)

    async def _renew_all(self, server: GameServer) -> None:
        assert self._redis is not None
        for name in list(self._held):
            if name != CLOCKS and name not in server.rooms:
                self._held.pop(name, None)
                await self._redis.eval(_RELEASE, 1, lease_key(name), self.me)
        wanted = [CLOCKS] + [gid for gid, room in server.rooms.items()
                             if gid in self._held or room.bots_to_move()]
        for name in wanted:
            was = self.holds(name)
            if await self.acquire(name) and not was:
                await self._take_over(name)

    async def _take_over(self, name: str) -> None:
        """A game's lease was won: its bots decide here, on the game as stored."""
        server = self.server
        assert server is not None
        room = server.rooms.get(name)
        if room is not None:
            await server.catch_up(room)
            server.kick_bots(room)


#: a move heard from another process: its number, the action as stored, the seats taken there
Relayed = tuple[int, dict[str, Any], set[int]]


def relayed_move(data: dict[str, Any]) -> Relayed | None:
    """The move a signal carries, if it carries one in the expected shape."""
    seq, action, claimed = data.get("seq"), data.get("action"), data.get("claimed")
    if not isinstance(seq, int) or not isinstance(action, dict) \
            or not isinstance(claimed, list):
        return None
    return seq, action, {int(s) for s in claimed}


def _running(cluster: Cluster) -> bool:
    """A loop of the cluster goes on while it is open and its task was not told to stop."""
    task = asyncio.current_task()
    return cluster.open and not (task is not None and task.cancelling())
