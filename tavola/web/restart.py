"""How a server process stops: as a restart, its players moved on to another process (or to
this one started again) without losing a move (docs/web.md, "Restarts")."""

from __future__ import annotations

import logging
import socket
from typing import TYPE_CHECKING

from uvicorn import Config, Server

if TYPE_CHECKING:
    from .app import GameServer

log = logging.getLogger("tavola.web")


class Restartable(Server):
    """uvicorn's server, stopped as a restart should be. On SIGTERM uvicorn alone stops
    listening, then at once closes every WebSocket with 1012 "service restart" without waiting
    for what the app still sends (a move being stored is never answered), and then waits for
    the app's tasks without limit. This one first lets the game server drain
    (`GameServer.drain`: moves being written are answered, every client is told to reconnect
    and closed after its last messages), and gives the rest `app.RESTART_SECONDS`
    (`timeout_graceful_shutdown`)."""

    def __init__(self, config: Config, game_server: GameServer) -> None:
        super().__init__(config)
        self.game_server = game_server

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        for server in self.servers:  # no new connection from now on
            server.close()
        for sock in sockets or []:
            sock.close()
        try:
            await self.game_server.drain()
        except Exception:  # the stop goes on whatever happened
            log.exception("draining the game server")
        await super().shutdown(sockets)
