"""Games on the server, apart from any transport: seats, tokens, validation of client messages.

A `Room` holds one game's true state. `prepare` validates a client's action and computes the
next state without changing anything; the server stores the action, then `commit`s it. So a
bad message never changes a game, and an action is on disk before anyone hears of it.
"""

from __future__ import annotations

import re
import secrets
import time
import unicodedata
from dataclasses import asdict, dataclass, field
from typing import Any

import orjson

from tabletop.web.errors import ClientError
from tabletop.web.storage import StoredGame

from ..actions import Action, IllegalAction, action_from_json, action_to_json
from ..board import Board, load_board
from ..bots import LEVELS, level_name
from ..engine import apply, deal, new_game, view
from ..game import setup_from_json
from ..state import GameState, Phase, ScoreEvent, Setup, TurnPlayed
from .wire import log_json, view_json

PERSON = "person"
BOT = "bot"


@dataclass
class Seat:
    kind: str  # person | bot
    name: str
    bot: str | None = None  # bot spec, e.g. "greedy"


@dataclass
class GameParams:
    """How a game was created; with the action log it rebuilds the game exactly.

    The deal (`setup`) is made from the operating system's randomness and kept on the server:
    nothing a player sees can reproduce it. `seed` is set only when someone chose the deal
    (allowed for games with at most one person); games stored before deals were kept have
    only their seed, which deals as it always did.
    """

    seats: list[Seat]
    seed: int | None
    scenario: str | None = None
    variants: list[str] = field(default_factory=list)
    public: bool = False  # listed in the lobby: anyone may take a free person seat
    setup: Setup | None = None
    bot_seed: int = 0  # seeds the bots' decisions, so a resumed game goes on identically

    def to_json(self, board: Board) -> dict[str, Any]:
        return {"seats": [{"kind": s.kind, "name": s.name, "bot": s.bot} for s in self.seats],
                "seed": self.seed, "scenario": self.scenario, "variants": self.variants,
                "public": self.public, "bot_seed": self.bot_seed,
                "setup": None if self.setup is None else asdict(self.setup),
                "board": {"name": board.name, "hash": board.content_hash}}

    @staticmethod
    def from_json(data: dict[str, Any]) -> GameParams:
        seed = data.get("seed")
        setup = data.get("setup")
        return GameParams([Seat(s["kind"], s["name"], s.get("bot")) for s in data["seats"]],
                          None if seed is None else int(seed), data.get("scenario"),
                          list(data.get("variants", [])), bool(data.get("public", False)),
                          None if setup is None else setup_from_json(setup),
                          int(data.get("bot_seed", seed or 0)))




_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069]")


def clean_name(value: Any, seat: int) -> str:
    """A seat name as typed: text of at most 40 characters, no control or direction codes."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ClientError("bad-seats", f"seat {seat + 1}: a name is text")
    value = unicodedata.normalize("NFC", value).strip()
    if len(value) > 40:
        raise ClientError("bad-seats", f"seat {seat + 1}: a name has at most 40 characters")
    if _CONTROL.search(value):
        raise ClientError("bad-seats", f"seat {seat + 1}: a name cannot hold control "
                                       "characters")
    return value


def parse_params(data: Any, board: Board | None = None) -> GameParams:
    """Validate a lobby request to create a game, and deal it; every problem is a
    `ClientError`. Bots are only the levels the lobby offers (`bots.LEVELS`)."""
    if not isinstance(data, dict):
        raise ClientError("bad-request", "a new game is a JSON object with 'seats'")
    seats = _parse_seats(data.get("seats"))
    seed = data.get("seed")
    if seed == "":
        seed = None
    if seed is not None:
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
            raise ClientError("bad-seed", "the seed must be a whole number (or left empty)")
        if sum(s.kind == PERSON for s in seats) > 1:
            raise ClientError("seed-not-allowed", "a chosen seed is only for games with at "
                                                  "most one person: whoever chose it would "
                                                  "know every card of the deal")
    scenario = data.get("scenario") or None
    if scenario is not None and not isinstance(scenario, str):
        raise ClientError("bad-scenario", "the scenario must be a name")
    variants = data.get("variants") or []
    if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
        raise ClientError("bad-variants", "variants must be a list of names")
    public = data.get("public", False)
    if not isinstance(public, bool):
        raise ClientError("bad-request", "'public' must be true or false")
    board = board or load_board()
    names = [s.name for s in seats]
    try:
        # the deal: from the chosen seed, or from the operating system's randomness
        setup = deal(board, names, seed, scenario) if seed is not None else \
            deal(board, names, scenario=scenario, rng=secrets.SystemRandom())
        new_game(setup=setup, board=board, variants=variants)
    except ValueError as exc:
        raise ClientError("bad-game", str(exc)) from None
    bot_seed = seed if seed is not None else secrets.randbits(63)
    return GameParams(seats, seed, scenario, variants, public, setup, bot_seed)


def _parse_seats(seats_in: Any) -> list[Seat]:
    if not isinstance(seats_in, list) or not 2 <= len(seats_in) <= 4:
        raise ClientError("bad-seats", "a game has 2 to 4 seats")
    seats = []
    for i, s in enumerate(seats_in):
        if not isinstance(s, dict) or s.get("kind") not in (PERSON, BOT):
            raise ClientError("bad-seats", f"seat {i + 1} must be a person or a bot")
        name = clean_name(s.get("name"), i)
        if s["kind"] == BOT:
            spec = s.get("bot") or "greedy"
            if spec not in LEVELS:
                raise ClientError("bad-bot", f"seat {i + 1}: no bot level {str(spec)[:40]!r}; "
                                             f"the levels are {', '.join(LEVELS)}")
            seats.append(Seat(BOT, name or f"{level_name(spec)} bot", spec))
        else:
            seats.append(Seat(PERSON, name or f"Player {i + 1}"))
    return seats


class Room:
    """One game: its true state, its seats and the bots that sit in some of them."""

    def __init__(self, game_id: str, params: GameParams, *, board: Board | None = None,
                 tokens: dict[int, str] | None = None, spectator: str | None = None,
                 claimed: set[int] | None = None, created: float | None = None) -> None:
        self.id = game_id
        self.params = params
        self.board = board or load_board()
        if params.setup is not None:
            self.state: GameState = new_game(setup=params.setup, board=self.board,
                                             variants=params.variants)
        else:  # stored before deals were kept: the seed deals
            self.state = new_game([s.name for s in params.seats], params.seed, params.scenario,
                                  board=self.board, variants=params.variants)
        self.tokens = tokens if tokens is not None else {
            i: secrets.token_urlsafe(24) for i, s in enumerate(params.seats) if s.kind == PERSON}
        self.spectator = spectator or secrets.token_urlsafe(24)
        # the creator's seat (the first person seat) is theirs from creation
        self.claimed = claimed if claimed is not None else set(list(self.tokens)[:1])
        self.created = created or time.time()
        self.bots = {i: s.bot or "greedy" for i, s in enumerate(params.seats) if s.kind == BOT}
        self.connected: dict[int, int] = {}  # seat -> open connections
        self.before: GameState | None = None  # the state before the last move, while undoable
        self.rematch: dict[int | None, str] | None = None  # seat (None: spectators) -> link
        self.version = 0  # counts every change of what a client is shown
        self._messages: dict[int | None, tuple[Any, dict[str, Any]]] = {}
        self._texts: dict[int | None, tuple[dict[str, Any], str]] = {}
        self._log: list[dict[str, Any]] = []  # the journal as JSON entries, converted once
        self._log_texts: list[str] = []  # and encoded once

    # -- storage ---------------------------------------------------------------------------

    def stored(self) -> StoredGame:
        return StoredGame(self.id, self.created, self.params.to_json(self.board),
                          "over" if self.state.is_over else "playing", dict(self.tokens),
                          set(self.claimed), self.spectator, section=self.section(),
                          summary=self.summary())

    @classmethod
    def restore(cls, stored: StoredGame, board: Board | None = None) -> Room:
        """Rebuild a game by replaying its log through the engine."""
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
                new = apply(room.state, action)
            except IllegalAction as exc:
                raise ValueError(f"game {stored.id}: stored action {i} no longer replays: "
                                 f"{exc}") from None
            room.before = room.state if room._undoable(room.state, new) else None
            room.state = new
        return room

    # -- who is who ------------------------------------------------------------------------

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token opens; None for the spectator token or no token; else an error."""
        if token is None or token == "":
            return None
        if not isinstance(token, str) or not _TOKEN.fullmatch(token):
            raise ClientError("bad-token", "this link is not valid for this game")
        if secrets.compare_digest(token, self.spectator):
            return None
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
        """The view message of a seat (None: spectators), built once per change and seat."""
        key = (self.version, repr(self.seats_json()))
        cached = self._messages.get(seat)
        if cached is not None and cached[0] == key:
            return cached[1]
        v = view(self.state, seat)
        if len(self._log) > len(v.journal):  # a move was taken back
            self._log, self._log_texts = [], []
        new = log_json(v, len(self._log))
        self._log.extend(new)
        self._log_texts.extend(_json_text(entry) for entry in new)
        msg = view_json(v, game_id=self.id, seq=self.seq, seats=self.seats_json(),
                        log=list(self._log))
        # who made the last move (public: that someone has planned is public), so a client
        # knows when the view reflects its own move
        msg["last_player"] = self.state.history[-1].player if self.state.history else None
        msg["can_undo"] = self.can_undo(seat)
        msg["rematch"] = None if self.rematch is None else self.rematch.get(seat)
        self._messages[seat] = (key, msg)
        return msg

    def message_text(self, seat: int | None) -> str:
        """`message_for` as JSON text, encoded once per change and seat for every connection."""
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

    def summary(self, state: GameState | None = None) -> dict[str, Any]:
        """A lobby line (of the game now, or at `state`): public facts only, never a token."""
        s = state or self.state
        return {"id": self.id, "created": self.created, "round": s.round, "phase": str(s.phase),
                "scenario": s.rules.scenario.name, "over": s.is_over,
                "public": self.params.public,
                "winners": list(s.winners) if s.is_over else [],
                "seats": [{"name": seat.name, "kind": seat.kind, "bot": seat.bot,
                           "open": self.params.public and seat.kind == PERSON
                           and i not in self.claimed,
                           "score": s.players[i].score}
                          for i, seat in enumerate(self.params.seats)]}

    def section(self, state: GameState | None = None) -> str | None:
        """The lobby list this game belongs in; None: unlisted, shown to nobody."""
        if not self.params.public:
            return None
        if (state or self.state).is_over:
            return "finished"
        free = any(s.kind == PERSON and i not in self.claimed
                   for i, s in enumerate(self.params.seats))
        return "open" if free else "playing"

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

    def check_seq(self, seq: Any) -> None:
        """A move names the view it was made on (`seq`); one made before the current decision
        began is refused, so a message sent again later can never play again. Plans are
        simultaneous: a plan made while others planned is still a plan for this round."""
        if not isinstance(seq, int) or isinstance(seq, bool):
            raise ClientError("bad-message", "a move carries 'seq', the number of the view it "
                                             "was made on")
        if not self.decision_start() <= seq <= self.seq:
            raise ClientError("stale", "the game moved on before your move arrived; it was not "
                                       "played")

    def decision_start(self) -> int:
        """The number of the first view of the decision now open: the round's first plan, or
        the current placing turn."""
        if self.state.phase is Phase.PLANNING:
            return self.seq - sum(p.plan is not None for p in self.state.players)
        return self.seq

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
        self.before = self.state if self._undoable(self.state, new_state) else None
        self.state = new_state
        self.version += 1

    def _undoable(self, old: GameState, new: GameState) -> bool:
        """A person's move may be taken back while it is the last one and revealed nothing:
        not the last plan (the reveal), not the round's last placement (the next draw)."""
        player = new.history[-1].player
        return (player not in self.bots and not new.is_over and new.round == old.round
                and new.phase is old.phase)

    def can_undo(self, seat: int | None) -> bool:
        return (seat is not None and self.before is not None
                and self.state.history[-1].player == seat)

    def prepare_undo(self, seat: int | None, seq: Any) -> GameState:
        """The state before `seat`'s last move, if it may be taken back; nothing changes."""
        self.check_seq(seq)
        if seat is None:
            raise ClientError("spectator", "spectators cannot take moves back")
        if not self.can_undo(seat):
            raise ClientError("no-undo", "there is no move of yours to take back: another "
                                         "player has moved since, or it revealed cards")
        assert self.before is not None
        return self.before

    def commit_undo(self, before: GameState) -> None:
        self.state = before
        self.before = None
        self.version += 1

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

    def touch(self) -> None:
        """Something shown to clients changed besides the game (presence, rematch)."""
        self.version += 1


_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")


def _json_text(value: Any) -> str:
    """JSON text of a message part; orjson, since encoding views is the server's main cost
    under load (non-string keys are written as strings, as the standard library does)."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
