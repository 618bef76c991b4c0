"""Games on the server, apart from any transport: seats, tokens, validation of client messages.

A `Room` holds one game's true state. `prepare` validates a client's action and computes the
next state without changing anything; the server stores the action, then `commit`s it. So a
bad message never changes a game, and an action is on disk before anyone hears of it.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field
from typing import Any

import orjson

from ..actions import Action, IllegalAction, action_from_json, action_to_json
from ..board import Board, load_board
from ..bots import level_name, make_bot
from ..engine import apply, new_game, view
from ..state import GameState, Phase, ScoreEvent, TurnPlayed
from .storage import StoredGame
from .wire import log_json, view_json

PERSON = "person"
BOT = "bot"


class ClientError(Exception):
    """A message a client should not have sent: `code` for programs, `message` for people."""

    def __init__(self, code: str, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.rule = rule

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "error", "code": self.code, "message": self.message}
        if self.rule:
            out["rule"] = self.rule
        return out


@dataclass
class Seat:
    kind: str  # person | bot
    name: str
    bot: str | None = None  # bot spec, e.g. "greedy"


@dataclass
class GameParams:
    """How a game was created; with the action log it rebuilds the game exactly."""

    seats: list[Seat]
    seed: int
    scenario: str | None = None
    variants: list[str] = field(default_factory=list)
    public: bool = False  # listed in the lobby: anyone may take a free person seat

    def to_json(self, board: Board) -> dict[str, Any]:
        return {"seats": [{"kind": s.kind, "name": s.name, "bot": s.bot} for s in self.seats],
                "seed": self.seed, "scenario": self.scenario, "variants": self.variants,
                "public": self.public,
                "board": {"name": board.name, "hash": board.content_hash}}

    @staticmethod
    def from_json(data: dict[str, Any]) -> GameParams:
        return GameParams([Seat(s["kind"], s["name"], s.get("bot")) for s in data["seats"]],
                          int(data["seed"]), data.get("scenario"), list(data.get("variants", [])),
                          bool(data.get("public", False)))


def parse_params(data: Any) -> GameParams:
    """Validate a lobby request to create a game; every problem is a `ClientError`."""
    if not isinstance(data, dict):
        raise ClientError("bad-request", "a new game is a JSON object with 'seats'")
    seats_in = data.get("seats")
    if not isinstance(seats_in, list) or not 2 <= len(seats_in) <= 4:
        raise ClientError("bad-seats", "a game has 2 to 4 seats")
    seats = []
    for i, s in enumerate(seats_in):
        if not isinstance(s, dict) or s.get("kind") not in (PERSON, BOT):
            raise ClientError("bad-seats", f"seat {i + 1} must be a person or a bot")
        name = s.get("name")
        if name is not None and (not isinstance(name, str) or len(name) > 40):
            raise ClientError("bad-seats", f"seat {i + 1}: a name is text of at most 40 "
                                           "characters")
        if s["kind"] == BOT:
            spec = s.get("bot") or "greedy"
            if not isinstance(spec, str):
                raise ClientError("bad-seats", f"seat {i + 1}: the bot level must be text")
            try:
                make_bot(spec, 0)
            except ValueError as exc:
                raise ClientError("bad-bot", f"seat {i + 1}: {exc}") from None
            seats.append(Seat(BOT, (name or "").strip() or f"{level_name(spec)} bot", spec))
        else:
            seats.append(Seat(PERSON, (name or "").strip() or f"Player {i + 1}"))
    seed = data.get("seed")
    if seed is None or seed == "":
        seed = secrets.randbelow(2**31)
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
        raise ClientError("bad-seed", "the seed must be a whole number (or left empty)")
    scenario = data.get("scenario") or None
    if scenario is not None and not isinstance(scenario, str):
        raise ClientError("bad-scenario", "the scenario must be a name")
    variants = data.get("variants") or []
    if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
        raise ClientError("bad-variants", "variants must be a list of names")
    public = data.get("public", False)
    if not isinstance(public, bool):
        raise ClientError("bad-request", "'public' must be true or false")
    params = GameParams(seats, seed, scenario, variants, public)
    try:
        new_game([s.name for s in seats], seed, scenario, variants=variants)
    except ValueError as exc:
        raise ClientError("bad-game", str(exc)) from None
    return params


class Room:
    """One game: its true state, its seats and the bots that sit in some of them."""

    def __init__(self, game_id: str, params: GameParams, *, board: Board | None = None,
                 tokens: dict[int, str] | None = None, spectator: str | None = None,
                 claimed: set[int] | None = None, created: float | None = None) -> None:
        self.id = game_id
        self.params = params
        self.board = board or load_board()
        self.state: GameState = new_game([s.name for s in params.seats], params.seed,
                                         params.scenario, board=self.board,
                                         variants=params.variants)
        self.tokens = tokens if tokens is not None else {
            i: secrets.token_urlsafe(24) for i, s in enumerate(params.seats) if s.kind == PERSON}
        self.spectator = spectator or secrets.token_urlsafe(24)
        self.claimed = claimed if claimed is not None else set()
        self.created = created or time.time()
        self.bots = {i: s.bot or "greedy" for i, s in enumerate(params.seats) if s.kind == BOT}
        self.connected: dict[int, int] = {}  # seat -> open connections
        self._messages: dict[int | None, tuple[Any, dict[str, Any]]] = {}
        self._texts: dict[int | None, tuple[dict[str, Any], str]] = {}
        self._log: list[dict[str, Any]] = []  # the journal as JSON entries, converted once
        self._log_texts: list[str] = []  # and encoded once

    # -- storage ---------------------------------------------------------------------------

    def stored(self) -> StoredGame:
        return StoredGame(self.id, self.created, self.params.to_json(self.board),
                          "over" if self.state.is_over else "playing", dict(self.tokens),
                          set(self.claimed), self.spectator)

    @classmethod
    def restore(cls, stored: StoredGame, board: Board | None = None) -> Room:
        """Rebuild a game by replaying its log through the engine (deterministic by seed)."""
        board = board or load_board()
        want = stored.params.get("board", {}).get("hash")
        if want and want != board.content_hash:
            raise ValueError(f"game {stored.id} was played on another board (hash {want[:12]})")
        room = cls(stored.id, GameParams.from_json(stored.params), board=board,
                   tokens=stored.tokens, spectator=stored.spectator, claimed=stored.claimed,
                   created=stored.created)
        for i, data in enumerate(stored.actions):
            action = action_from_json(data)
            try:
                room.state = apply(room.state, action)
            except IllegalAction as exc:
                raise ValueError(f"game {stored.id}: stored action {i} no longer replays: "
                                 f"{exc}") from None
        return room

    # -- who is who ------------------------------------------------------------------------

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token opens; None for the spectator token or no token; else an error."""
        if token is None or token == "" or secrets.compare_digest(token, self.spectator):
            return None
        if isinstance(token, str):
            for seat, tok in self.tokens.items():
                if secrets.compare_digest(tok, token):
                    return seat
        raise ClientError("bad-token", "this link is not valid for this game")

    @property
    def seq(self) -> int:
        return len(self.state.history)

    def seats_json(self) -> list[dict[str, Any]]:
        return [{"kind": s.kind, "bot": s.bot, "connected": self.connected.get(i, 0) > 0,
                 "claimed": i in self.claimed or s.kind == BOT}
                for i, s in enumerate(self.params.seats)]

    def message_for(self, seat: int | None) -> dict[str, Any]:
        """The view message of a seat (None: spectators), built once per move and seat."""
        key = (self.seq, repr(self.seats_json()))
        cached = self._messages.get(seat)
        if cached is not None and cached[0] == key:
            return cached[1]
        v = view(self.state, seat)
        if len(self._log) > len(v.journal):  # never: the journal only grows
            self._log, self._log_texts = [], []
        new = log_json(v, len(self._log))
        self._log.extend(new)
        self._log_texts.extend(_json_text(entry) for entry in new)
        msg = view_json(v, game_id=self.id, seq=self.seq, seats=self.seats_json(),
                        log=list(self._log))
        # who made the last move (public: that someone has planned is public), so a client
        # knows when the view reflects its own move
        msg["last_player"] = self.state.history[-1].player if self.state.history else None
        self._messages[seat] = (key, msg)
        return msg

    def message_text(self, seat: int | None) -> str:
        """`message_for` as JSON text, encoded once per move and seat for every connection."""
        msg = self.message_for(seat)
        cached = self._texts.get(seat)
        if cached is None or cached[0] is not msg:
            # the log, the same for every seat, is spliced in as entries encoded once
            assert len(msg["log"]) == len(self._log_texts)
            head = _json_text({k: v for k, v in msg.items() if k != "log"})
            text = f'{head[:-1]}, "log": [{", ".join(self._log_texts)}]}}'
            cached = (msg, text)
            self._texts[seat] = cached
        return cached[1]

    def summary(self) -> dict[str, Any]:
        """A lobby line: public facts only, never a token."""
        s = self.state
        return {"id": self.id, "created": self.created, "round": s.round, "phase": str(s.phase),
                "scenario": s.rules.scenario.name, "over": s.is_over,
                "public": self.params.public,
                "seats": [{"name": seat.name, "kind": seat.kind, "bot": seat.bot,
                           "open": self.params.public and seat.kind == PERSON
                           and i not in self.claimed,
                           "score": s.players[i].score}
                          for i, seat in enumerate(self.params.seats)]}

    # -- actions ---------------------------------------------------------------------------

    def parse(self, seat: int | None, payload: Any) -> Action:
        """A client's action for its own seat, or a `ClientError`."""
        if seat is None:
            raise ClientError("spectator", "spectators cannot act; open your seat's link to play")
        if isinstance(payload, dict) and "player" not in payload:
            payload = {**payload, "player": seat}
        try:
            action = action_from_json(payload)
        except ValueError as exc:
            raise ClientError("bad-action", str(exc)) from None
        if action.player != seat:
            raise ClientError("not-your-seat", f"you hold seat {seat + 1} and cannot act for "
                                               f"seat {action.player + 1}")
        return action

    def prepare(self, seat: int | None, payload: Any) -> tuple[Action, GameState]:
        """Validate and compute the next state; the room is not changed."""
        action = self.parse(seat, payload)
        assert seat is not None
        s = self.state
        if s.is_over:
            raise ClientError("game-over", "the game is over")
        if seat not in s.to_move():
            if s.phase is Phase.PLANNING:
                raise ClientError("not-your-turn", "you have planned already; waiting for the "
                                                   "others")
            raise ClientError("not-your-turn", f"it is {s.players[s.to_move()[0]].name}'s turn "
                                               "to place")
        try:
            return action, apply(s, action)
        except IllegalAction as exc:
            raise ClientError("illegal", exc.message, exc.rule) from None

    def commit(self, action: Action, new_state: GameState) -> None:
        assert new_state.history[-1] == action and len(new_state.history) == self.seq + 1
        self.state = new_state

    def check(self, seat: int | None, payload: Any) -> dict[str, Any]:
        """Would this action be legal, and what would it score? Nothing changes."""
        action, new = self.prepare(seat, payload)
        events: list[ScoreEvent] = []
        for entry in reversed(new.journal):
            if isinstance(entry, TurnPlayed) and entry.action == action:
                events = list(entry.events)
                break
        return {"type": "check", "ok": True, "action": action_to_json(action),
                "points": sum(e.points for e in events),
                "events": [f"+{e.points} {e.detail}" for e in events]}

    def bots_to_move(self) -> list[int]:
        return [i for i in self.state.to_move() if i in self.bots]


def _json_text(value: Any) -> str:
    """JSON text of a message part; orjson, since encoding views is the server's main cost
    under load (non-string keys are written as strings, as the standard library does)."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
