"""One game on the server, for any game: its true state, its seats, its bots, its messages.

The game's rules come from its `Game`; what the browser is sent, and the few choices that
depend on how a game is played (when a decision began, which moves may be taken back, a move's
points before it is made), from its `WebGame` (`tavola.web.site`).
"""

from __future__ import annotations

import re
import secrets
import time
import unicodedata
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import orjson

from .. import i18n, registry
from ..editions import setup_filled, setup_stored
from ..game import IllegalAction
from ..ratings import bot_ordinal
from ..text import say
from ..tutorial import guide_for
from .changes import change
from .errors import ClientError
from .outbox import NONE, Notices, turn_changes
from .site import WebGame
from .storage import StoredGame

if TYPE_CHECKING:
    from .editions import Chosen

PERSON = "person"
BOT = "bot"


@dataclass
class Seat:
    kind: str  # person | bot
    name: str
    bot: str | None = None  # bot spec, e.g. "greedy"
    # the name is the seat's own (typed by the creator, or a player's account name); a
    # person seat still called "Player 2" takes the name of the account that takes it; a bot
    # named by its level is named in each viewer's language (`Room.names_in`)
    named: bool = True


@dataclass
class GameParams:
    """How a game was created; with the action log it rebuilds the game exactly.

    `setup` (`Game.setup_of`) holds everything chance decided, drawn from the operating
    system's randomness and kept on the server: nothing a player sees can reproduce it. `seed`
    is set only when someone chose it (allowed for games with at most one person).
    """

    seats: list[Seat]
    seed: int | None
    options: dict[str, Any] = field(default_factory=dict)
    public: bool = False  # listed in the lobby: anyone may take a free person seat
    setup: dict[str, Any] | None = None
    bot_seed: int = 0  # seeds the bots' decisions, so a resumed game goes on identically
    game: str = registry.DEFAULT
    timing: dict[str, Any] | None = None  # a turn-based game's limits (`tavola.web.timing`)
    tutorial: str | None = None  # a tutorial game: its script refuses moves off the script
    hints: bool = False  # players may ask the search for a hint (`tavola.web.hinting`)
    # person seats kept for an invited account until it accepts (`tavola.web.friends`):
    # nobody else may take them, and the lobby does not offer them
    reserved: set[int] = field(default_factory=set)
    # the edition it is played on (`tavola.web.editions`): id, version, hash and name; None:
    # the game's default. Its data and options are read again from the edition's version,
    # never stored here: the stored setup names the data by its hash (`to_json`)
    edition: dict[str, Any] | None = None
    edition_options: dict[str, Any] = field(default_factory=dict)
    edition_data: Any = None

    @property
    def play_options(self) -> dict[str, Any]:
        """The options a deal of this game takes: the lobby's and its edition's."""
        return {**self.options, **self.edition_options}

    def to_json(self, site: WebGame) -> dict[str, Any]:
        learn = {"tutorial": self.tutorial} if self.tutorial else {}
        return {"game": self.game, **learn,
                "seats": [{"kind": s.kind, "name": s.name, "bot": s.bot, "named": s.named}
                          for s in self.seats],
                "seed": self.seed, "options": self.options, "public": self.public,
                "bot_seed": self.bot_seed, "setup": self.stored_setup(), "timing": self.timing,
                "hints": self.hints, **site.params_extra(),
                **({"reserved": sorted(self.reserved)} if self.reserved else {}),
                **({"edition": self.edition} if self.edition else {})}

    def stored_setup(self) -> dict[str, Any] | None:
        """The setup as stored: the edition's data, which its version keeps, named by hash."""
        if not self.edition or self.setup is None:
            return self.setup
        stored: dict[str, Any] = setup_stored(self.setup, str(self.edition.get("hash")))
        return stored

    @staticmethod
    def from_json(data: dict[str, Any], site: WebGame) -> GameParams:
        """Params as stored, older forms included (the game's site reads its own)."""
        data = site.upgrade_params(data)
        seed = data.get("seed")
        return GameParams([Seat(s["kind"], s["name"], s.get("bot"), bool(s.get("named", True)))
                           for s in data["seats"]],
                          None if seed is None else int(seed), dict(data.get("options") or {}),
                          bool(data.get("public", False)), data.get("setup"),
                          int(data.get("bot_seed", seed or 0)),
                          str(data.get("game") or site.game.info.name),
                          data.get("timing"), data.get("tutorial") or None,
                          bool(data.get("hints", False)),
                          {int(i) for i in data.get("reserved") or ()},
                          data.get("edition") or None)


def with_edition_data(stored: StoredGame, data: Any) -> StoredGame:
    """A stored game with its edition's `data` back in its setup, which names the data by its
    hash (`GameParams.stored_setup`); a game on no edition, or stored whole, as it is."""
    ref = stored.params.get("edition")
    if not ref or data is None:
        return stored
    setup = setup_filled(stored.params.get("setup"), str(ref.get("hash")), data)
    return replace(stored, params={**stored.params, "setup": setup})


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069]")


def clean_name(value: object, seat: int) -> str:
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


def parse_params(data: Any, site: WebGame, edition: Chosen | None = None) -> GameParams:
    """Validate a lobby request to create a game, and set it up (on `edition`, if chosen);
    every problem is a `ClientError`. Bots are only the levels the lobby offers
    (`site.levels`)."""
    if not isinstance(data, dict):
        raise ClientError("bad-request", "a new game is a JSON object with 'seats'")
    seats = _parse_seats(data.get("seats"), site)
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
    public = data.get("public", False)
    if not isinstance(public, bool):
        raise ClientError("bad-request", "'public' must be true or false")
    # hints are for games among friends unless the creator allows them in a listed or rated
    # game, where every player who joins sees that before taking a seat
    hints = data.get("hints", not public and not data.get("rated", False))
    if not isinstance(hints, bool):
        raise ClientError("bad-request", "'hints' must be true or false")
    options = site.parse_options(data)
    on = edition.options if edition is not None else {}
    try:
        # from the chosen seed, or from the operating system's randomness
        state = site.deal([s.name for s in seats], seed, {**options, **on})
    except ValueError as exc:
        raise ClientError("bad-game", str(exc)) from None
    bot_seed = seed if seed is not None else secrets.randbits(63)
    return GameParams(seats, seed, options, public, site.game.setup_of(state), bot_seed,
                      site.game.info.name, hints=hints,
                      edition=edition.ref if edition is not None else None,
                      edition_options=dict(on),
                      edition_data=edition.data if edition is not None else None)


def _parse_seats(seats_in: Any, site: WebGame) -> list[Seat]:
    info = site.game.info
    if not isinstance(seats_in, list) or not info.min_players <= len(seats_in) <= \
            info.max_players:
        raise ClientError("bad-seats", f"a game has {info.min_players} to {info.max_players} "
                                       "seats")
    seats = []
    for i, s in enumerate(seats_in):
        if not isinstance(s, dict) or s.get("kind") not in (PERSON, BOT):
            raise ClientError("bad-seats", f"seat {i + 1} must be a person or a bot")
        name = clean_name(s.get("name"), i)
        if s["kind"] == BOT:
            spec = s.get("bot") or "greedy"
            if spec not in site.levels:
                raise ClientError("bad-bot", f"seat {i + 1}: no bot level {str(spec)[:40]!r}; "
                                             f"the levels are {', '.join(site.levels)}")
            seats.append(Seat(BOT, name, spec))
        else:
            seats.append(Seat(PERSON, name or say("seat.player", n=i + 1), named=bool(name)))
    return _bot_names(seats, site)


def _bot_names(seats: list[Seat], site: WebGame) -> list[Seat]:
    """Bots left unnamed go by their level (in the creator's language; each viewer reads them
    in theirs, see `Room.names_in`)."""
    unnamed = [s for s in seats if s.kind == BOT and not s.name]
    for s, name in zip(unnamed, level_names(unnamed, site), strict=True):
        s.name, s.named = name, False
    return seats


def level_names(bots: list[Seat], site: WebGame) -> list[str]:
    """The names of bots named by their level, in the language of the moment: numbered when a
    level sits more than once (two "Greedy bot" at one table could not be told apart)."""
    count = {spec: sum(s.bot == spec for s in bots) for spec in {s.bot for s in bots}}
    seen: dict[str | None, int] = {}
    names = []
    for s in bots:
        seen[s.bot] = seen.get(s.bot, 0) + 1
        level = site.level_name(s.bot or "greedy")
        names.append(say("seat.bot-n", level=level, n=seen[s.bot]) if count[s.bot] > 1
                     else say("seat.bot", level=level))
    return names


def lobby_line_named(line: dict[str, Any], site: WebGame) -> dict[str, Any]:
    """A lobby line (`Room.summary`) with its bots named by their level in the language of the
    moment (lines stored before seats said so keep their names)."""
    seats = line.get("seats") or []
    bots = [i for i, s in enumerate(seats) if s.get("kind") == BOT and s.get("named") is False]
    if not bots:
        return line
    names = level_names([Seat(BOT, seats[i]["name"], seats[i].get("bot"), named=False)
                         for i in bots], site)
    named = dict(zip(bots, names, strict=True))
    return {**line, "seats": [{**s, "name": named[i]} if i in named else s
                              for i, s in enumerate(seats)]}


def renamed(value: Any, names: dict[str, str]) -> Any:
    """`value` (a view's JSON: texts, lists, objects) with each name of `names` replaced
    wherever a text holds it, the longest names first."""
    if not names:
        return value
    if isinstance(value, str):
        for old in sorted(names, key=len, reverse=True):
            value = value.replace(old, names[old])
        return value
    if isinstance(value, list):
        return [renamed(v, names) for v in value]
    if isinstance(value, dict):
        return {k: renamed(v, names) for k, v in value.items()}
    return value


class Room:
    """One game: its true state, its seats and the bots that sit in some of them."""

    def __init__(self, game_id: str, params: GameParams, site: WebGame, *,
                 tokens: dict[int, str] | None = None, spectator: str | None = None,
                 claimed: set[int] | None = None, created: float | None = None) -> None:
        self.id = game_id
        self.params = params
        self.site = site
        self.game = site.game
        self.state: Any = self.initial_state()
        self.tokens = tokens if tokens is not None else {
            i: secrets.token_urlsafe(24) for i, s in enumerate(params.seats) if s.kind == PERSON}
        self.spectator = spectator or secrets.token_urlsafe(24)
        # the creator's seat (the first person seat) is theirs from creation
        self.claimed = claimed if claimed is not None else set(list(self.tokens)[:1])
        self.created = created or time.time()
        self.bots = self.seated_bots()
        self.guide = guide_for(params.tutorial, self.game, site.owner_field)
        self.connected: dict[int, int] = {}  # seat -> open connections
        self.before: Any = None  # the state before the last move, while undoable
        self.rematch: dict[int | None, str] | None = None  # seat (None: spectators) -> link
        self.version = 0  # counts every change of what a client is shown
        # by seat and language: views carry sentences (the log, the choices)
        self._messages: dict[tuple[int | None, str], tuple[Any, dict[str, Any]]] = {}
        self._texts: dict[tuple[int | None, str], tuple[dict[str, Any], str]] = {}
        # the public log as JSON entries, converted once per language, and encoded once
        self._log: dict[str, list[dict[str, Any]]] = {}
        self._log_texts: dict[str, list[str]] = {}
        # by seat and language: the last change computed (from view, to view, its text)
        self._changes: dict[tuple[int | None, str], tuple[Any, Any, str]] = {}
        # turn-based games (`tavola.web.timing`): the clocks as clients see them, the
        # platform's lines in the log (game log position, entry), seats a bot took for good
        self.turn: dict[str, Any] | None = None
        self.notices: list[tuple[int, dict[str, Any]]] = []
        self.replaced: set[int] = set()
        self.hints_used: dict[int, int] = {}  # seat -> hints asked for (`hinting`)
        # leavers (`tavola.web.leaving`): open choices (seat -> closes, voters, votes) and
        # the early end of the game (leaver, ranks), if the others chose it
        self.choices: dict[int, dict[str, Any]] = {}
        self.ended: dict[str, Any] | None = None

    @property
    def is_over(self) -> bool:
        """Finished by its rules, or ended early by the others when a player left."""
        return bool(self.state.is_over) or self.ended is not None

    def seated_bots(self) -> dict[int, str]:
        """The bot seats as created (seat -> level), before any bot took a late seat."""
        return {i: s.bot or "greedy" for i, s in enumerate(self.params.seats) if s.kind == BOT}

    def initial_state(self) -> Any:
        """The game at its start, from its stored setup."""
        p = self.params
        if p.setup is not None:
            return self.game.from_setup(p.setup)
        # stored before setups were kept: the seed deals
        return self.game.new_game([s.name for s in p.seats], p.seed, p.play_options)

    # -- storage ---------------------------------------------------------------------------

    def stored(self) -> StoredGame:
        return StoredGame(self.id, self.created, self.params.to_json(self.site),
                          "over" if self.state.is_over else "playing", dict(self.tokens),
                          set(self.claimed), self.spectator, section=self.section(),
                          summary=self.summary())

    @classmethod
    def restore(cls, stored: StoredGame, site: WebGame) -> Room:
        """Rebuild a game by replaying its log through the rules."""
        site.check_stored(stored.id, stored.params)
        room = cls(stored.id, GameParams.from_json(stored.params, site), site,
                   tokens=stored.tokens, spectator=stored.spectator, claimed=stored.claimed,
                   created=stored.created)
        for i, data in enumerate(stored.actions):
            action = room.game.action_from_json(data)
            try:
                new = room.game.apply(room.state, action)
            except IllegalAction as exc:
                raise ValueError(f"game {stored.id}: stored action {i} no longer replays: "
                                 f"{exc}") from None
            room.before = room.state if room._undoable(room.state, new) else None
            room.state = new
        return room

    def catch_up(self, stored: StoredGame) -> bool:
        """Bring the room to the log as stored, where another server process may have moved
        (or taken a move back); True if the game changed. The stored log is the truth: moves
        it adds are applied in order, and a log that no longer starts with ours (an undo
        elsewhere) is replayed from the deal. Seats claimed elsewhere are added too; they
        change no view's game, so the caller tells them as presence."""
        stored = with_edition_data(stored, self.params.edition_data)
        theirs = [self.game.action_from_json(data) for data in stored.actions]
        mine = self.state.history
        self.claimed |= stored.claimed
        named = GameParams.from_json(stored.params, self.site)
        self.params.reserved = named.reserved  # invitations answered or given elsewhere
        renamed = [s.name for s in named.seats] != [s.name for s in self.params.seats]
        if renamed:  # a seat taken by an account on another process: the game under its name
            self.params.seats, self.params.setup = named.seats, named.setup
            self.bots.update(self.seated_bots())  # or given to a bot there
            self._forget_texts()
        if list(mine) == theirs[:len(mine)] and not renamed:
            for action in theirs[len(mine):]:
                try:
                    new = self.game.apply(self.state, action)
                except IllegalAction as exc:
                    raise ValueError(f"game {self.id}: stored action {self.seq} does not "
                                     f"apply: {exc}") from None
                self.commit(action, new)
            return len(theirs) > len(mine)
        fresh = Room.restore(stored, self.site)
        self.state, self.before = fresh.state, fresh.before
        self.touch()
        return True

    def apply_relayed(self, moves: list[tuple[int, dict[str, Any], set[int]]]) -> bool:
        """Apply moves another process made and relayed (number, action as stored, seats
        taken there), in order; False as soon as one does not follow here (a move missed, a
        seat taken there unknown here, an action that no longer applies): then the caller
        reads the store, the truth, which the moves applied so far are a part of."""
        for seq, data, claimed in sorted(moves, key=lambda move: move[0]):
            if seq != self.seq + 1 or not claimed <= self.claimed:
                return False
            try:
                action = self.game.action_from_json(data)
                new = self.game.apply(self.state, action)
            except (ValueError, KeyError, TypeError, IllegalAction):
                return False
            self.commit(action, new)
        return True

    # -- who is who ------------------------------------------------------------------------

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token opens; None for the spectator token or no token; else an error."""
        if token is None or token == "":
            return None
        if not isinstance(token, str) or not _TOKEN.fullmatch(token):
            raise ClientError("bad-token", say("error.bad-token"))
        if secrets.compare_digest(token, self.spectator):
            return None
        for seat, tok in self.tokens.items():
            if secrets.compare_digest(tok, token):
                return seat
        raise ClientError("bad-token", say("error.bad-token"))

    @property
    def seq(self) -> int:
        return len(self.state.history)

    def seats_json(self) -> list[dict[str, Any]]:
        return [{"kind": BOT if i in self.replaced else s.kind,
                 "bot": self.bots.get(i) if i in self.replaced else s.bot,
                 "connected": self.connected.get(i, 0) > 0,
                 "claimed": i in self.claimed or s.kind == BOT, "replaced": i in self.replaced,
                 "rating": bot_ordinal(self.game.info.name, len(self.params.seats), s.bot),
                 "hints": self.hints_used.get(i, 0)}
                for i, s in enumerate(self.params.seats)]

    def seats_key(self) -> tuple[Any, ...]:
        """What `seats_json` is made of, compared in C: a view message is built again only
        when it changes (or the game does), without building the seats' JSON to find out."""
        return (tuple(self.params.seats), tuple(self.connected.get(i, 0) > 0
                                                for i in range(len(self.params.seats))),
                tuple(self.claimed), tuple(self.replaced),
                tuple(self.bots.items()) if self.replaced else (),
                tuple(self.hints_used.items()))

    def names_in(self, lang: str) -> dict[str, str]:
        """Each bot named by its level: its name in the game (the creator's language) -> its
        name in `lang`, where they differ."""
        bots = [s for s in self.params.seats if s.kind == BOT and not s.named]
        if not bots:
            return {}
        with i18n.use(lang):
            names = level_names(bots, self.site)
        return {s.name: name for s, name in zip(bots, names, strict=True) if s.name != name}

    def message_for(self, seat: int | None, lang: str = i18n.DEFAULT) -> dict[str, Any]:
        """The view message of a seat (None: spectators) in a language, built once per change,
        seat and language."""
        key = (self.version, self.seats_key())
        cached = self._messages.get((seat, lang))
        if cached is not None and cached[0] == key:
            return cached[1]
        with i18n.use(lang):
            msg = self._build_message(seat, lang)
        self._messages[(seat, lang)] = (key, msg)
        return msg

    def _build_message(self, seat: int | None, lang: str) -> dict[str, Any]:
        v = self.game.view(self.state, seat)
        log, texts = self._log.setdefault(lang, []), self._log_texts.setdefault(lang, [])
        if len(log) > self.site.log_length(v):  # a move was taken back
            log.clear()
            texts.clear()
        names = self.names_in(lang)  # the bots' names in the viewer's language
        new = renamed(self.site.log_json(v, len(log)), names)
        log.extend(new)
        texts.extend(_json_text(entry) for entry in new)
        msg: dict[str, Any] = renamed(self.site.view_json(v, game_id=self.id, seq=self.seq,
                                                          seats=self.seats_json(), log=[]),
                                      names)
        msg["log"] = self._with_notices(log, lambda line: renamed(_notice_entry(line), names))
        # whose move it is, and in a turn-based game each waiting seat's deadline
        msg["timing"] = {"to_move": [] if self.is_over else list(self.state.to_move()),
                         **(self.turn or {})}
        # who made the last move (public: that someone has moved is public), so a client
        # knows when the view reflects its own move
        msg["last_player"] = self.site.last_player(self.state)
        msg["can_undo"] = self.can_undo(seat)
        # the first view of the decision now open: what a hint was asked on (`hinting`)
        msg["decision"] = self.decision_start()
        msg["rematch"] = None if self.rematch is None else self.rematch.get(seat)
        if self.guide is not None:
            msg["tutorial"] = self.guide.to_json(self.state, seat)
        msg["leave"] = [{"seat": s, "name": self.params.seats[s].name, **c}
                        for s, c in sorted(self.choices.items())] if not self.is_over else []
        msg["ended"] = self.ended
        if self.params.edition:  # the table says which edition it is played on
            msg["edition"] = self.params.edition.get("name")
        return msg

    def message_text(self, seat: int | None, lang: str = i18n.DEFAULT) -> str:
        """`message_for` as JSON text, encoded once per change, seat and language for every
        connection."""
        msg = self.message_for(seat, lang)
        cached = self._texts.get((seat, lang))
        if cached is None or cached[0] is not msg:
            # the log, the same for every seat, is spliced in as entries encoded once
            names = self.names_in(lang)
            with i18n.use(lang):
                texts = self._with_notices(
                    self._log_texts[lang],
                    lambda line: _json_text(renamed(_notice_entry(line), names)))
            assert len(msg["log"]) == len(texts)
            head = _json_text({k: v for k, v in msg.items() if k != "log"})
            text = f'{head[:-1]}, "log": [{", ".join(texts)}]}}'
            cached = (msg, text)
            self._texts[(seat, lang)] = cached
        return cached[1]

    def change_from(self, seat: int | None, lang: str, base: dict[str, Any] | None
                    ) -> tuple[dict[str, Any], str | None]:
        """The seat's view message now, and the change from `base` (a view of the same seat
        and language sent before) as JSON text: "" if nothing differs from `base`, None
        without a base. Computed once per change, seat and language for every connection."""
        msg = self.message_for(seat, lang)
        if base is None:
            return msg, None
        if base is msg:
            return msg, ""
        cached = self._changes.get((seat, lang))
        if cached is None or cached[0] is not base or cached[1] is not msg:
            made = change(base, msg)
            cached = (base, msg, _json_text(made) if made else "")
            self._changes[(seat, lang)] = cached
        return msg, cached[2]

    def _with_notices(self, log: list[Any], make: Any) -> list[Any]:
        """The game's log with the platform's lines put in at their places."""
        if not self.notices:
            return list(log)
        out: list[Any] = []
        done = 0
        for at, line in sorted(self.notices, key=lambda n: n[0]):
            out.extend(log[done:at])
            done = max(done, at)
            out.append(make(line))
        out.extend(log[done:])
        return out

    def summary(self, state: Any = None) -> dict[str, Any]:
        """A lobby line (of the game now, or at `state`): public facts only, never a token."""
        s = state if state is not None else self.state
        scores = self.game.scores(s)
        over = s.is_over or self.ended is not None
        return {"id": self.id, "game": self.game.info.name, "created": self.created,
                **self.site.summary(s), "over": over, "public": self.params.public,
                "hints": self.params.hints, "winners": self._winners(s),
                **({"edition": self.params.edition.get("name")} if self.params.edition else {}),
                "to_move": [] if over else list(s.to_move()),  # whose turn: "my games"
                "asked": self.asked(s),  # whose move a person makes: "your move", "my games"
                "seats": [{"name": seat.name, "kind": seat.kind, "bot": seat.bot,
                           "named": seat.named,
                           "open": self.params.public and seat.kind == PERSON
                           and i not in self.claimed and i not in self.params.reserved,
                           "score": scores[i]}
                          for i, seat in enumerate(self.params.seats)]}

    def asked(self, state: Any = None) -> list[int]:
        """The seats the game asks now (or at `state`): person seats whose move it is, not
        those a bot plays (taken for good after misses); none once it is over, nor in a
        tutorial (its player is at the table, or left it). Their accounts are
        `AccountStore.holders` of these seats."""
        s = state if state is not None else self.state
        if s.is_over or self.ended is not None or self.guide is not None:
            return []
        return [i for i in s.to_move() if i not in self.bots]

    def _winners(self, state: Any) -> list[int]:
        if self.ended is not None:
            return [i for i, rank in enumerate(self.ended["ranks"]) if rank == 1]
        return list(self.game.winners(state)) if state.is_over else []

    def line_if_claimed(self, seat: int) -> tuple[str | None, dict[str, Any]]:
        """The lobby list and line once `seat` is taken: written with the claim itself."""
        had = seat in self.claimed
        self.claimed.add(seat)
        try:
            return self.section(), self.summary()
        finally:
            if not had:
                self.claimed.discard(seat)

    def section(self, state: Any = None) -> str | None:
        """The lobby list this game belongs in; None: unlisted, shown to nobody."""
        if not self.params.public:
            return None
        if (state if state is not None else self.state).is_over or self.ended is not None:
            return "finished"
        free = any(s.kind == PERSON and i not in self.claimed and i not in self.params.reserved
                   for i, s in enumerate(self.params.seats))
        return "open" if free else "playing"

    # -- actions ---------------------------------------------------------------------------

    def parse(self, seat: int | None, payload: Any) -> Any:
        """A client's action for its own seat, or a `ClientError`."""
        if seat is None:
            raise ClientError("spectator", say("error.spectator-act"))
        owner = self.site.owner_field
        if isinstance(payload, dict) and owner not in payload:
            payload = {**payload, owner: seat}
        try:
            action = self.game.action_from_json(payload)
        except ValueError as exc:
            raise ClientError("bad-action", str(exc)) from None
        actor = getattr(action, owner)
        if actor != seat:
            raise ClientError("not-your-seat", say("error.not-your-seat", seat=seat + 1,
                                                   actor=actor + 1))
        return action

    def check_seq(self, seq: Any) -> None:
        """A move names the view it was made on (`seq`); one made before the current decision
        began is refused, so a message sent again later can never play again. Where seats
        move at once, a move made while others moved is still a move of that decision."""
        if not isinstance(seq, int) or isinstance(seq, bool):
            raise ClientError("bad-message", "a move carries 'seq', the number of the view it "
                                             "was made on")
        if not self.decision_start() <= seq <= self.seq:
            raise ClientError("stale", say("error.stale"))

    def decision_start(self) -> int:
        """The number of the first view of the decision now open."""
        return self.site.decision_start(self.state)

    def prepare(self, seat: int | None, payload: Any, *, by_bot: bool = False
                ) -> tuple[Any, Any]:
        """Validate and compute the next state; the room is not changed. `by_bot`: the
        server's own bot moves for the seat, so a seat a bot took for good still plays (only
        the person who lost it is refused)."""
        action = self.parse(seat, payload)
        assert seat is not None
        s = self.state
        if self.is_over:
            raise ClientError("game-over", say("error.game-over"))
        if seat in self.replaced and not by_bot:
            raise ClientError("seat-replaced", say("timing.seat-replaced", misses=sum(
                line["kind"] == "timeout" and line["seat"] == seat for _, line in self.notices)))
        if seat not in s.to_move():
            raise ClientError("not-your-turn", self.site.not_your_turn(s, seat))
        off_script = self.guide.refusal(s, seat, action) if self.guide is not None else None
        if off_script is not None:
            raise ClientError("tutorial", off_script)
        try:
            return action, self.game.apply(s, action)
        except IllegalAction as exc:
            raise ClientError("illegal", exc.message, exc.rule) from None

    def commit(self, action: Any, new_state: Any) -> None:
        assert new_state.history[-1] == action and len(new_state.history) == self.seq + 1
        self.before = self.state if self._undoable(self.state, new_state) else None
        self.state = new_state
        self.version += 1

    def _undoable(self, old: Any, new: Any) -> bool:
        """A person's move may be taken back while it is the last one and revealed nothing
        (the game says what reveals: a reveal of plans, a draw, a roll)."""
        player = self.site.last_player(new)
        return (player not in self.bots and not new.is_over
                and tuple(self.game.chance_events(new)) == tuple(self.game.chance_events(old))
                and self.site.undoable(old, new))

    def can_undo(self, seat: int | None) -> bool:
        return (seat is not None and self.before is not None
                and self.site.last_player(self.state) == seat)

    def prepare_undo(self, seat: int | None, seq: Any) -> Any:
        """The state before `seat`'s last move, if it may be taken back; nothing changes."""
        self.check_seq(seq)
        if seat is None:
            raise ClientError("spectator", say("error.spectator-undo"))
        if not self.can_undo(seat):
            raise ClientError("no-undo", say("error.no-undo"))
        assert self.before is not None
        return self.before

    def commit_undo(self, before: Any) -> None:
        self.state = before
        self.before = None
        self.version += 1

    def check(self, seat: int | None, payload: Any) -> dict[str, Any]:
        """Would this action be legal, and what would it score? Nothing changes."""
        action, new = self.prepare(seat, payload)
        return {"type": "check", "ok": True, "action": self.game.action_to_json(action),
                **self.site.preview(self.state, action, new)}

    def bots_to_move(self) -> list[int]:
        if self.ended is not None:
            return []
        return [i for i in self.state.to_move() if i in self.bots]

    def outbox_notices(self, new_state: Any, seq: int, at: float | None = None) -> Notices:
        """What going from the current position to `new_state` (with `seq` actions stored)
        writes to the outbox: only turn-based games tell people it is their turn, since a
        game played live has its players at the table."""
        if not self.params.timing:
            return NONE
        people = [i for i, s in enumerate(self.params.seats) if s.kind == PERSON]
        return turn_changes(self.id, seq, self.asked(), self.asked(new_state),
                            new_state.is_over, people, at)

    def touch(self) -> None:
        """Something shown to clients changed besides the game (presence, rematch)."""
        self.version += 1

    def rename(self, seat: int, name: str) -> bool:
        """Call a person's seat by the name of the account that took it, unless the seat has
        a name of its own; the game is replayed under the new names (names are labels: every
        move stays legal), so the log, the views and the record say it. True if renamed."""
        s = self.params.seats[seat]
        if s.kind != PERSON or s.named or self.params.setup is None:
            return False
        s.name, s.named = name, True
        self._replay_names()
        return True

    def forget_player(self, seat: int, name: str, bot: str | None = None) -> None:
        """A deleted account's seat goes by an anonymous `name`; with `bot` (a game still
        running) that bot plays it from now on, as for a player who left. The game replays
        the same under the new name (a game stored before setups were kept gets its setup
        first, since its deal was made from the names)."""
        if self.params.setup is None:
            self.params.setup = self.game.setup_of(self.initial_state())
        self.params.seats[seat] = Seat(BOT, name, bot) if bot else Seat(PERSON, name)
        self.params.reserved.discard(seat)
        if bot:
            self.bots[seat] = bot
            self.replaced.add(seat)
        self._replay_names()

    def seat_bot(self, seat: int, level: str, name: str) -> None:
        """A person seat nobody took becomes a bot's (an invitation declined): the game is
        replayed under the bot's name, and the bot plays the seat from now on."""
        self.params.seats[seat] = Seat(BOT, name, level)
        self.params.reserved.discard(seat)
        self.bots[seat] = level
        self._replay_names()

    def _replay_names(self) -> None:
        """The game replayed under the seats' names as they are now."""
        names = [x.name for x in self.params.seats]
        if self.params.setup is not None:  # else the deal is made from the names and seed
            self.params.setup = self.game.renamed(self.params.setup, names)
        state, before = self.initial_state(), None
        for action in self.state.history:
            new = self.game.apply(state, action)
            before = state if self._undoable(state, new) else None
            state = new
        self.state, self.before = state, before
        self._forget_texts()
        self.touch()

    def _forget_texts(self) -> None:
        """The sentences built so far name the seats as they were."""
        for cache in (self._messages, self._texts, self._log, self._log_texts, self._changes):
            cache.clear()


_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")


def _notice_entry(line: dict[str, Any]) -> dict[str, Any]:
    """A platform line of the log (`timing.notice`) as a log entry, its sentence in the language
    of the moment."""
    key, fields = line["say"]
    return {**{k: v for k, v in line.items() if k != "say"}, "text": say(key, **fields)}


def _json_text(value: Any) -> str:
    """JSON text of a message part; orjson, since encoding views is the server's main cost
    under load (non-string keys are written as strings, as the standard library does)."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
