"""What a game brings to the web server: its page, its messages and a few rules of play.

The server (`tavola.web.app`) and its rooms (`tavola.web.room`) are the same for every
game; a game's `WebGame` says what a seat's browser is sent (its view and log as JSON), which
lobby options and bot levels it offers, and the few things only the game knows: when the
decision now open began, which moves may be taken back, a move's points before it is made.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal, Protocol

from fastapi import FastAPI
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr

from .. import registry as games
from ..game import Game, GameInfo, read_options
from .errors import ClientError
from .pages import TablePage


class WebGame(Protocol):
    """One game's side of the web server; the server hosts every game that has one."""

    # read-only (properties): a site may keep them as class attributes of its own types
    @property
    def game(self) -> Game: ...

    @property
    def levels(self) -> Sequence[str]:
        """The bot specs the lobby offers, weakest first; nothing else is accepted from the web."""
        ...

    #: The field of an action that names its seat (`player`, `seat`).
    owner_field: str
    #: Its edition editor module, a file of `static_dir()` exporting `mountEditor` (see
    #: docs/editions.md); None: the editor shell offers the data as JSON text.
    editor_script: str | None
    #: Its table page's own title, styles and scripts (`tavola.web.pages` writes the rest).
    table_page: TablePage

    def level_name(self, spec: str) -> str: ...

    def static_dir(self) -> Path:
        """The folder of the game's page (`index.html`, scripts, styles, `favicon.svg`)."""
        ...

    def routes(self, app: FastAPI, server: Any) -> None:
        """Add the game's own HTTP routes, under `/api/NAME/` (Gonzaga: its board)."""
        ...

    def lobby_json(self, edition: dict[str, Any] | None = None) -> dict[str, Any]:
        """What the lobby offers for this game (on the edition whose options, from
        `EditionKind.options`, are `edition`; None: the shipped data): `tagline` (one line on
        the game), `bot_levels` (id, name, strength, help; weakest first), `default_bots` (the bots
        of a new table's empty seats) and `options`: each a dict with `id`, `label`, `kind`
        (`choice`: one of `choices`, or `flags`: any of them), `advanced` (folded away) and
        `choices` (`value`, `label`, optional `help` and `players`: offered only at that
        player count). The lobby sends each option back under its id."""
        ...

    def prepare(self) -> None:
        """Build what the first move should not wait for (tables, caches)."""
        ...

    def close(self) -> None:
        """Let go of what the site started besides the server's own (worker processes): the
        server stops (`GameServer.shutdown`)."""
        ...

    def parse_options(self, data: dict[str, Any]) -> dict[str, Any]:
        """The game's options from a lobby request; `ClientError` names a bad one."""
        ...

    def deal(self, names: Sequence[str], seed: int | None, options: dict[str, Any]) -> Any:
        """A new game: from the chosen seed, or (None) from the operating system's randomness.
        ValueError names options the game refuses."""
        ...

    def params_extra(self) -> dict[str, Any]:
        """Facts stored with a game's parameters (Gonzaga: the board it is played on)."""
        ...

    def upgrade_params(self, data: dict[str, Any]) -> dict[str, Any]:
        """Stored parameters in today's form (older games stored them otherwise)."""
        ...

    def check_stored(self, game_id: str, params: dict[str, Any]) -> None:
        """ValueError if a stored game cannot be played here (another board)."""
        ...

    def view_json(self, view: Any, *, game_id: str, seq: int, seats: list[dict[str, Any]],
                  log: list[dict[str, Any]]) -> dict[str, Any]:
        """The message a seat (or a spectator) receives after every change."""
        ...

    def log_json(self, view: Any, start: int) -> list[dict[str, Any]]:
        """The public log from entry `start` on, as JSON entries with their sentences."""
        ...

    def log_length(self, view: Any) -> int: ...

    def summary(self, state: Any) -> dict[str, Any]:
        """The game's part of a lobby line: round, phase, setup (public facts only)."""
        ...

    def decision_start(self, state: Any) -> int:
        """The number of actions before the decision now open began."""
        ...

    def undoable(self, old: Any, new: Any) -> bool:
        """Whether the move from `old` to `new` revealed nothing the game hides (the platform
        already refuses moves that drew on chance, bots' moves and the last move)."""
        ...

    def last_player(self, state: Any) -> int | None:
        """Who made the last move (None before the first)."""
        ...

    def not_your_turn(self, state: Any, seat: int) -> str:
        """Why `seat` may not move now, in words for that player."""
        ...

    def preview(self, state: Any, action: Any, new: Any) -> dict[str, Any]:
        """What a move would score, for the check before it is made: `points` and `events`."""
        ...

    def record_name(self, game_id: str) -> str:
        """The file name of a downloaded record."""
        ...

    def bench_reply(self, message: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        """A legal move a simple client picks from a view message that asks the seat to move
        (the load benchmark's players, tests): reads only what the browser is sent."""
        ...


class LogLine(BaseModel):
    """A log entry as the browser is sent it (the platform's own lines carry more)."""

    model_config = ConfigDict(extra="allow")
    kind: str
    seat: int | None = None
    text: str


class WireObject(BaseModel):
    """An object of a view message with these fields and no others: the parts of a game's
    schema (`GameKit.view_schema`), whose fields take JSON's types strictly (`StrictInt`: a
    number in a string, or true for 1, is refused), so a wrong field fails the schema."""

    model_config = ConfigDict(extra="forbid")


class SeatFacts(WireObject):
    """What the room adds to every seat of a view's `players` (`Room.seats_json`); a game's
    player model adds its own facts."""

    kind: Literal["person", "bot"]
    bot: StrictStr | None
    connected: StrictBool
    claimed: StrictBool
    replaced: StrictBool
    rating: StrictInt | None
    hints: StrictInt


class NoticeLine(WireObject):
    """A line the platform writes into every game's log (`timing.notice`, `leaving.notice`):
    a turn missed, a seat handed to a bot for good, a leaver's choice decided."""

    kind: Literal["timeout", "replaced", "left", "bot-plays"]
    seat: StrictInt
    player: StrictInt
    events: list[Any] = Field(max_length=0)
    text: StrictStr


class ViewMessage(BaseModel):
    """What every view message holds, whatever the game: the game's `view_json` (its own
    fields besides these) and the room's keys. A game's schema (`GameKit.view_schema`) is a
    model of this kind that names its own fields too."""

    model_config = ConfigDict(extra="allow")
    type: str
    game: str
    seq: int
    you: int | None
    to_move: list[int]
    players: list[Any]  # each seat: the game's facts and the room's (`seats_json`)
    log: list[LogLine]
    legal: Any
    winners: list[int]
    timing: dict[str, Any]
    last_player: int | None
    can_undo: bool
    decision: int
    rematch: str | None
    leave: list[dict[str, Any]]
    ended: dict[str, Any] | None
    tutorial: dict[str, Any] | None = None
    edition: str | None = None  # the name of the edition it is played on (not the default)


def editor_script(site: WebGame) -> str | None:
    """The game's edition editor module (`WebGame.editor_script`), or None: the editor shell
    offers the data as JSON text."""
    return site.editor_script or None


def lobby_options(info: GameInfo, data: dict[str, Any]) -> dict[str, Any]:
    """The options a lobby request sets (empty fields are the defaults), read as the game
    declares them (`tavola.game.read_options`, as on the command line); only those the
    lobby offers are read, so a request cannot name a file on the server."""
    given = {name: data[name] for name, spec in info.options.items()
             if spec.lobby and data.get(name) not in (None, "", [])}
    try:
        return read_options(info, given)
    except ValueError as exc:
        raise ClientError("bad-options", str(exc)) from None


def load_sites(names: Sequence[str] | None = None) -> dict[str, WebGame]:
    """The web sides of `names`, or of every game that has one, the default game first."""
    if names:
        return {games.get(n).info.name: load_site(n) for n in names}
    found: dict[str, WebGame] = {}
    for name in games.available():
        try:
            found[name] = load_site(name)
        except ValueError:
            continue  # a game without a web side yet is played elsewhere
    return found


def load_site(game: str) -> WebGame:
    """The web side of a game: its kit's `site()` (`GameKit.site`)."""
    declared = games.kit(game)
    if declared.site is None:
        raise ValueError(f"{declared.name} cannot be played in the browser yet")
    site: WebGame = declared.site.load()()
    return site
