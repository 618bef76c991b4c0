"""The lobby: new games, joining an open seat, and the lists of games.

A new game, whether a player's or one the server makes (a tutorial, a rematch), is limited per
address and must find room: under the cap on games that count and under its creator's shares
(`Limits`). It is stored, then brought into memory by whoever owns the games there (`admit`).
The lists are read from the store, at most once a second per page however many poll them.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..text import say
from . import editions as editions_api
from .errors import ClientError
from .limits import RateLimiter, address_key
from .room import GameParams, Room, parse_params
from .rooms import Rooms
from .storage import GameStore, Listing

if TYPE_CHECKING:
    from .app import Limits
    from .editions import Chosen, Editions

log = logging.getLogger("tavola.web")
LOBBY_PAGE = 20  # games per lobby list and page
SECTIONS = ("open", "playing", "finished")


class Lobby:
    """Creating, opening and joining games, and listing them (a page per list).

    `timing` reads a new game's time per move from what its creator sent; `find` is a game by
    id, in memory or loaded; `admit` brings a new game into memory and starts its bots."""

    def __init__(self, store: GameStore, table: Rooms, limits: Limits,
                 clock: Callable[[], float], *, timing: Callable[[Any], dict[str, Any] | None],
                 find: Callable[[str], Room | None], admit: Callable[[Room], None]) -> None:
        self.store, self.table, self.limits, self.clock = store, table, limits, clock
        self.timing, self.find, self.admit = timing, find, admit
        self.create_limit = RateLimiter(limits.creates_per_minute / 60, limits.create_burst)
        self.reads = RateLimiter(limits.lobby_per_second, limits.lobby_burst)
        self._cache: dict[tuple[str, int], tuple[float, Listing]] = {}
        self.editions: Editions | None = None  # set by `editions.open_editions`

    def create(self, data: Any, client: str = "",
               check: Callable[[GameParams], None] | None = None, *,
               account: int | None = None) -> Room:
        """A new game from the address `client` (and the signed-in `account`); `check` may
        refuse its parameters before it exists (rated games)."""
        address = address_key(client)
        self.create_limit.check(address, "new games from your address")
        name = data.get("game") if isinstance(data, dict) else None
        site = self.table.site(name)
        chosen = self._edition(site.game.info.name, data, account)
        params = parse_params(data, site, chosen)
        params.timing = self.timing(data)
        if check is not None:
            check(params)
        self.check_capacity(address, account)
        if chosen is not None and self.editions is not None:
            self.editions.used(chosen)  # before the game exists: its version stays for ever
        return self.open(params, creator=(address, account))

    def _edition(self, game: str, data: Any, account: int | None) -> Chosen | None:
        """The edition a new game is asked on (None: the default); never the default in
        place of one asked for on a server without editions."""
        if self.editions is not None:
            return self.editions.choose(game, data, account)
        if editions_api.asked(data) is not None:
            raise ClientError("no-editions", say("edition.no-game"))
        return None

    def open_game(self, params: GameParams, client: str = "", *,
                  claimed: set[int] | None = None) -> Room:
        """A new game of parameters made by the server (a tutorial), from the address
        `client`: limited and counted like any other new game."""
        address = address_key(client)
        self.create_limit.check(address, "new games from your address")
        self.check_capacity(address, None)
        return self.open(params, claimed=claimed, creator=(address, None))

    def check_capacity(self, address: str, account: int | None) -> None:
        """Room for one more game: under the cap on games that count, and under the shares of
        its creator's address and account, so that no one client fills the cap."""
        since = self.clock() - self.limits.active_game_seconds
        held = self.store.active_games
        over_share = held(since, address=address) >= self.limits.games_per_address or (
            account is not None
            and held(since, account=account) >= self.limits.games_per_account)
        if over_share:
            raise ClientError("too-many-games", say(
                "error.too-many-games", minutes=round(self.limits.active_game_seconds / 60)))
        if self.store.active_games(since) >= self.limits.max_active_games:
            raise ClientError("server-full", say("error.server-full"))

    def open(self, params: GameParams, claimed: set[int] | None = None,
             game_id: str | None = None, *,
             creator: tuple[str, int | None] = ("", None)) -> Room:
        """Store a new game (`GameExists` if `game_id` is taken) and bring it into memory;
        no limit is checked here."""
        room = Room(game_id or secrets.token_urlsafe(12), params, self.table.sites[params.game],
                    claimed=claimed)
        stored = room.stored()
        stored.creator_address, stored.creator_account = creator
        self.store.create(stored)
        self.admit(room)
        self.changed()
        log.info("game created: %s, %d seats", params.game, len(params.seats),
                 extra={"game_id": room.id})
        return room

    def claim(self, game_id: str, client: str = "") -> tuple[int, str]:
        """The lobby's Join: the first open seat of a public game, taken; (seat, its token)."""
        self.reads.check(client, "lobby requests from your address")
        room = self.find(game_id)
        if room is None:
            raise ClientError("not-found", say("error.not-found"))
        if not room.params.public:
            raise ClientError("full", say("error.invitation"))
        for seat, token in sorted(room.tokens.items()):
            if seat in room.claimed or seat in room.params.reserved:
                continue
            section, summary = room.line_if_claimed(seat)
            if self.store.claim(game_id, seat, section=section, summary=summary):
                room.claimed.add(seat)
                self.changed()
                return seat, token
        raise ClientError("full", say("error.full"))

    def changed(self) -> None:
        """A game's lobby line changed: the lobby is read from the store again."""
        self._cache.clear()

    def listing(self, section: str, offset: int) -> Listing:
        """One page of a lobby list (listed games only), cached for a second: however many
        clients poll the lobby, the database is read once a second per page."""
        if section not in SECTIONS:
            raise ClientError("bad-request", "section is open, playing or finished")
        if not 0 <= offset <= 100_000:
            raise ClientError("bad-request", "offset is a whole number from 0 to 100000")
        key = (section, offset)
        now = time.monotonic()
        cached = self._cache.get(key)
        if cached is None or now - cached[0] > 1.0:
            if len(self._cache) > 256:
                self.changed()
            cached = (now, self.store.lobby(section, offset, LOBBY_PAGE))
            self._cache[key] = cached
        return cached[1]
