"""The bots at the server's tables: started when it is their seat's move, deciding in worker
processes (`botpool`) on their own view, then moving like any client.

A decision that fails or misses its deadline is asked again; the third time the seat plays the
greedy bot's move instead, and after two more failures a random legal move made here, so a bot
never stalls its game.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

from . import metrics
from .background import Background
from .botpool import BotFailed, BotPool, Decision, DecisionTimeout
from .errors import ClientError
from .logs import GAME_ID, REQUEST_ID
from .room import Room

log = logging.getLogger("tavola.web")
LAST_RESORT = 4  # failed decisions of one bot move before a random legal move is made here
GIVE_UP = LAST_RESORT + 2  # refusals of that random move too: a bug, logged; the bot stops

#: how a bot's move is played: as a client's (`GameServer.act`), for the room, seat,
#: action as JSON and the view's number it was decided on
Act = Callable[[Room, int, Any, int], Awaitable[None]]


class BotMoves:
    """The bot moves under way (`pending`: game and seat) and the failures of each."""

    def __init__(self, pool: BotPool, background: Background, act: Act, *,
                 delay: float, undo_wait: float) -> None:
        """`delay`: the pause before a bot moves; `undo_wait`: the longer one after a move
        that may be taken back."""
        self.pool = pool
        self.background = background
        self.act = act
        self.delay = delay
        self.undo_wait = undo_wait
        self.pending: set[tuple[str, int]] = set()
        self.failures: dict[tuple[str, int, int], int] = {}

    def start(self, room: Room, again: Callable[[Room], None]) -> None:
        """Start the bots whose move it is and that are not moving already; `again` starts
        them once more when a move ends with a bot still to move (`GameServer.kick_bots`,
        which knows whether this process may)."""
        for seat in room.bots_to_move():
            key = (room.id, seat)
            if key in self.pending:
                continue
            self.pending.add(key)
            self.background.spawn(self._move(room, seat, again))

    def forget(self, live: set[str] | dict[str, Any]) -> None:
        """Let go of the failures counted in games no longer in memory."""
        self.failures = {k: v for k, v in self.failures.items() if k[0] in live}

    async def _move(self, room: Room, seat: int, again: Callable[[Room], None]) -> None:
        """One bot move. However this task ends, a bot still to move is started again (a
        person's move during the pause, a stale decision)."""
        key = (room.id, seat, room.seq)
        REQUEST_ID.set(None)  # this task's log lines are the game's, not a request's
        GAME_ID.set(room.id)
        try:
            await self._turn(room, seat, key[2])
        except asyncio.CancelledError:
            raise
        except ClientError as exc:
            if exc.code not in ("stale", "restarting"):
                self._failed(key, exc.message)
        except (DecisionTimeout, BotFailed) as exc:
            self._failed(key, str(exc))
        except Exception:
            metrics.count_server_error("bot")
            log.exception("bot %s of game %s failed", seat, room.id)
            self._failed(key, "error")
        finally:
            self.pending.discard((room.id, seat))
        if self.failures.get(key, 0) > GIVE_UP:
            log.error("bot %s of game %s gave up at move %s: even a random legal move was "
                      "refused", seat, room.id, key[2])
        elif seat in room.bots_to_move():
            again(room)

    async def _turn(self, room: Room, seat: int, seq: int) -> None:
        """Wait the bot's pause (longer after a move that may be taken back), then decide
        and act, unless the game moved meanwhile: then the caller starts the bot again on the
        game as it is, with a pause of its own."""
        delay = self.delay + (self.undo_wait if room.before is not None else 0)
        if delay:
            await asyncio.sleep(delay)
        if room.seq != seq or seat not in room.bots_to_move():
            return
        failures = self.failures.get((room.id, seat, seq), 0)
        state = room.state
        if failures >= LAST_RESORT:
            action = self._any_legal(room, seat)
        else:
            spec = room.bots[seat] if failures < 2 else "greedy"
            began = time.perf_counter()
            action = await self.pool.decide(Decision(
                room.game.info.name, spec, room.params.bot_seed, room.game.setup_of(state),
                tuple(state.history), seat, game_id=room.id))
            metrics.observe(metrics.BOT_SECONDS, began, room.game.info.name, spec)
        await self.act(room, seat, room.game.action_to_json(action), seq)

    def _any_legal(self, room: Room, seat: int) -> Any:
        """The last resort of a bot whose decisions keep failing: a legal move drawn here."""
        log.error("bot %s of game %s failed %s times at move %s; it plays a random legal move",
                  seat, room.id, LAST_RESORT, room.seq)
        legal = list(room.game.legal_actions(room.state, seat))
        return legal[secrets.randbelow(len(legal))]

    def _failed(self, key: tuple[str, int, int], why: str) -> None:
        self.failures[key] = self.failures.get(key, 0) + 1
        log.warning("bot %s in %s at move %s: %s", key[1], key[0], key[2], why)
