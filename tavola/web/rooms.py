"""The games a server has in memory, and the games it hosts.

A game lives in memory while someone plays or watches it; a finished or idle game is let go
(`idle`) and loaded again from the store when asked for. Each game in memory has its
connections (on this process), a lock that keeps its moves in order, and the time something
last happened in it.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any

from .. import registry
from . import metrics
from .errors import ClientError
from .room import Room, lobby_line_named
from .site import WebGame

if TYPE_CHECKING:
    from .connection import Connection


class Rooms:
    """The live games by id (`live`), their connections, locks and last activity."""

    def __init__(self, sites: dict[str, WebGame]) -> None:
        self.sites = sites
        self.live: dict[str, Room] = {}
        self.conns: dict[str, set[Connection]] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.active: dict[str, float] = {}  # game -> when something last happened in it

    def add(self, room: Room) -> None:
        """A game comes into memory (or is put there again, as it now is)."""
        if room.id not in self.live:
            metrics.GAMES_LIVE.labels(room.game.info.name).inc()
        self.live[room.id] = room
        self.conns.setdefault(room.id, set())
        self.locks.setdefault(room.id, asyncio.Lock())
        self.active[room.id] = time.monotonic()

    def forget(self, game_id: str) -> None:
        """A game leaves memory."""
        room = self.live.get(game_id)
        if room is not None:
            metrics.GAMES_LIVE.labels(room.game.info.name).dec()
        for table in (self.live, self.conns, self.locks, self.active):
            table.pop(game_id, None)

    def touch(self, game_id: str) -> None:
        """Something happened in a game: it stays in memory a while longer."""
        self.active[game_id] = time.monotonic()

    def idle(self, now: float, busy: set[str], seconds: float) -> list[str]:
        """The games nobody is connected to and no bot is thinking in (`busy`), finished or
        untouched for `seconds`: those that may leave memory."""
        return [gid for gid, room in self.live.items()
                if not self.conns.get(gid) and gid not in busy and not room.bots_to_move()
                and (room.is_over or now - self.active.get(gid, now) > seconds)]

    def site_of(self, params: dict[str, Any]) -> WebGame | None:
        """The site of a stored game, None when this server does not host its game."""
        return self.sites.get(str(params.get("game") or registry.of_unnamed_games()))

    def site(self, name: Any) -> WebGame:
        """The site of a game asked for by name; `ClientError` for one not hosted here."""
        if name is None:
            return next(iter(self.sites.values()))
        site = self.sites.get(name) if isinstance(name, str) else None
        if site is None:
            raise ClientError("bad-game", f"no game {str(name)[:40]!r} here; the games are "
                                          f"{', '.join(self.sites)}")
        return site

    def in_viewers_names(self, lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Lobby lines with their bots named in the viewer's language (`lobby_line_named`)."""
        return [lobby_line_named(line, site) if (site := self.site_of(line)) else line
                for line in lines]
