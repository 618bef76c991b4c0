"""The replay and the record of a finished game, for anyone who has its id: limited per
address, and kept once worked out.

A step of a replay is the public view after that many actions, rebuilt from the deal: a few
milliseconds on the event loop, with the store read again once the sweep has let the finished
game go. Unlimited, a stream of such requests slowed every game on the server. Now each address
may ask `Limits.replays_per_second` a second after a burst of `Limits.replay_burst` (429 with
`Retry-After`), and as a finished game never changes, each answer (a step in a language, the
record) is worked out once and then served from memory: the answers up to `MAX_BYTES` in all,
the games themselves (about 30 KB each) up to `MAX_GAMES`, the least recently asked for
forgotten first. With each kept game goes the last position a replay stepped to, so the next
step applies one action to it instead of replaying the game from its deal (stepping back
replays from the deal).
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .. import i18n
from ..records import dumps_record
from ..text import say
from .errors import ClientError
from .limits import RateLimiter
from .room import BOT, Room

if TYPE_CHECKING:
    from .app import GameServer

MAX_BYTES = 16 << 20  # the answers kept, all games together (a step's is at most ~40 KB)
MAX_GAMES = 64  # finished games kept for their replays


class Replays:
    """Finished games' replays and records, each answer worked out once (within bounds)."""

    def __init__(self, server: GameServer, rate: float, burst: int, *,
                 max_bytes: int = MAX_BYTES, max_games: int = MAX_GAMES) -> None:
        self.server = server
        self.limit = RateLimiter(rate, burst)
        self.max_bytes = max_bytes
        self.max_games = max_games
        self._games: OrderedDict[str, Room] = OrderedDict()
        #: The last position worked out of each kept game: (its step, its state, owned here).
        self._positions: dict[str, tuple[int, Any]] = {}
        self._answers: OrderedDict[tuple[str, str], bytes] = OrderedDict()
        self.size = 0  # bytes of the answers kept

    def step(self, game_id: str, step: int, client: str) -> bytes:
        """The public view after `step` actions (0 to the game's last) as JSON text."""
        self.limit.check(client, say("limit.replays"))
        room = self.finished(game_id)
        step = max(0, min(step, len(room.state.history)))
        return self._kept((game_id, f"{step}/{i18n.current()}"),
                          lambda: _json(replay_view(room, step, self.position(room, step))))

    def record(self, game_id: str, client: str) -> tuple[bytes, str]:
        """The game's record as a file's text, and the file's name."""
        self.limit.check(client, say("limit.replays"))
        room = self.finished(game_id)
        text = self._kept((game_id, "record"), lambda: self.record_of(room))
        return text, room.site.record_name(game_id)

    def forget(self, game_id: str) -> None:
        """A finished game changed (a player's name made anonymous): its answers go."""
        self._games.pop(game_id, None)
        self._positions.pop(game_id, None)
        for key in [k for k in self._answers if k[0] == game_id]:
            self.size -= len(self._answers.pop(key))

    def finished(self, game_id: str) -> Room:
        """A finished game, kept; `ClientError` for one unknown here or not over."""
        room = self._games.get(game_id)
        if room is not None:
            self._games.move_to_end(game_id)
            return room
        room = self.server.room(game_id)
        if room is None:
            raise ClientError("not-found", say("error.not-found"))
        if not room.is_over:
            raise ClientError("not-over", say("error.record-not-over"))
        self._games[game_id] = room
        if len(self._games) > self.max_games:
            gone, _ = self._games.popitem(last=False)
            self._positions.pop(gone, None)
        return room

    def position(self, room: Room, step: int) -> Any:
        """The game's state after its first `step` actions, from the last one worked out when
        that is not further on (each step of a replay played forwards applies one action)."""
        at, state = self._positions.pop(room.id, (0, None))
        if state is None or at > step:
            at, state = 0, room.initial_state()
        for action in room.state.history[at:step]:
            room.game.apply_in_place(state, action)
        self._positions[room.id] = (step, state)
        return state

    def record_of(self, room: Room) -> str:
        """A finished game's record as the file's text (nothing kept)."""
        specs = [(s.bot or "greedy") if s.kind == BOT else "human" for s in room.params.seats]
        record = room.game.record(room.state, players=specs, seed=room.params.seed,
                                  hints=self.server.hinting.record_counts(room))
        if room.ended is not None:  # ended early when a player left (`leaving`)
            record["ended"] = {"reason": "left", **room.ended}
        return dumps_record(record) + "\n"

    def _kept(self, key: tuple[str, str], make: Callable[[], str]) -> bytes:
        """The answer kept under `key`, or the one `make` works out, kept from now on."""
        answer = self._answers.get(key)
        if answer is not None:
            self._answers.move_to_end(key)
            return answer
        answer = make().encode()
        self._answers[key] = answer
        self.size += len(answer)
        while self.size > self.max_bytes and self._answers:
            _, old = self._answers.popitem(last=False)
            self.size -= len(old)
        return answer


def replay_view(room: Room, step: int, state: Any) -> dict[str, Any]:
    """The public view of a game's `state` after its first `step` actions."""
    v = room.game.view(state, None)
    msg = room.site.view_json(v, game_id=room.id, seq=step, seats=room.seats_json(),
                              log=room.site.log_json(v, 0))
    msg["replay"] = {"step": step, "total": len(room.state.history),
                     "game": room.game.info.name}
    return msg


def _json(value: Any) -> str:
    """JSON as the framework writes an answer (compact, UTF-8 as is)."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
