"""Reviews of finished games for the review page (`/game/ID/review`).

A review replays the whole game with the search at every decision of one seat, which takes
seconds of a worker. So: it is worked out in the advice pool (`GameServer.advice`, shared with
hints; the bots of live games never wait for it), one review at a time (hints keep any other
advice worker), asking for one already being worked out waits for that one, a finished review
is kept (a game's review never changes), and each address may start only a few a minute.
The review itself is `tavola.review`, in the page's language.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from .. import i18n
from ..text import say
from .botpool import Decision
from .errors import ClientError
from .leaving import ended_words
from .limits import RateLimiter

if TYPE_CHECKING:
    from .app import GameServer
    from .room import Room

log = logging.getLogger("tavola.web.reviewing")
DEADLINE = 180.0  # seconds a review may take in a worker
KEPT = 64  # reviews kept in memory, the least recently asked for forgotten first

Key = tuple[str, int, str]


class Reviews:
    def __init__(self, server: GameServer, per_minute: float, burst: int) -> None:
        self.server = server
        self.limit = RateLimiter(per_minute / 60, burst)
        self.kept: OrderedDict[Key, dict[str, Any]] = OrderedDict()
        self.running: dict[Key, asyncio.Future[dict[str, Any]]] = {}
        self._one: asyncio.Semaphore | None = None

    async def get(self, room: Room, seat: Any, lang: str, client: str) -> dict[str, Any]:
        """The review of `room` (over) for `seat`, in `lang`."""
        if not isinstance(seat, int) or not 0 <= seat < len(room.params.seats):
            raise ClientError("bad-seat", say("review.bad-seat", last=len(room.params.seats) - 1))
        key = (room.id, seat, lang)
        if key in self.kept:
            self.kept.move_to_end(key)
            return self.kept[key]
        if key in self.running:
            return await asyncio.shield(self.running[key])
        self.limit.check(client, say("review.what"))
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.running[key] = future
        try:
            result = await self._work(room, seat, lang)
        except Exception as exc:
            future.set_exception(ClientError("review-failed", say("review.failed")))
            future.exception()  # retrieved: nobody else may be waiting
            log.warning("review of game %s seat %s: %s", room.id, seat, exc)
            raise ClientError("review-failed", say("review.failed")) from None
        finally:
            self.running.pop(key, None)
        future.set_result(result)
        self.kept[key] = result
        while len(self.kept) > KEPT:
            self.kept.popitem(last=False)
        return result

    async def _work(self, room: Room, seat: int, lang: str) -> dict[str, Any]:
        if self._one is None:
            self._one = asyncio.Semaphore(1)
        job = Decision(room.game.info.name, "review", 0, room.params.setup or {},
                       tuple(room.state.history), seat, kind="review", lang=lang,
                       hinted=self.server.hinting.given(room, seat), game_id=room.id)
        async with self._one:
            result = await self.server.advice.decide(job, deadline=DEADLINE)
        if room.ended is not None:  # ended early by its players: the places are theirs
            with i18n.use(lang):
                result = {**result, "result": ended_words(room, seat)}
        return dict(result)
