"""A game's web side from its rules alone: what a new game needs to be played in the browser.

`PlainSite` answers every part of `tavola.web.site.WebGame` from the `Game` interface: the
view a seat is sent is the game's public facts (whose move, the scores, the log in sentences)
and the seat's legal actions, each with its sentence, for a page to offer as buttons. A game
adds its own facts by overriding `position_json`, and may replace any other part as it
grows; its kit's `site` names a function returning one. It assumes what the rooms assume of
every game: states keep their actions in `history`, and actions name their seat in the field
`owner_field`. Nothing is taken back (`undoable` is False) and a move's points are not
previewed, so no game leaks a secret through them by default.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from pydantic import BaseModel, ConfigDict

from ..bots import Level, level_name, level_options
from ..game import Game
from ..kit import GameKit
from ..text import say
from .pages import TablePage
from .site import ViewMessage, lobby_options


class Choice(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action: dict[str, Any]
    text: str


class PlainPlayer(BaseModel):
    """A seat as the browser is sent it: the game's facts and the room's (`seats_json`)."""

    model_config = ConfigDict(extra="allow")
    name: str
    score: int


class PlainView(ViewMessage):
    """The schema of a plain site's view messages: a game's own schema adds the fields of its
    `position_json` (and may forbid any other)."""

    round: int
    players: list[PlainPlayer]
    legal: list[Choice] | None


class PlainSite:
    """The web side of `kit`'s game, its page in the package's `web/static/`."""

    owner_field = "seat"
    editor_script: str | None = None  # its edition editor module (none: JSON text)

    def __init__(self, kit: GameKit, *, levels: Mapping[str, Level],
                 word: Callable[[str], str], tagline: Callable[[], str]) -> None:
        self.kit = kit
        self.game: Game = kit.game.load()
        self.levels: Sequence[str] = tuple(kit.levels)
        self._levels, self._word, self._tagline = levels, word, tagline

    def level_name(self, spec: str) -> str:
        return level_name(self._levels, spec, self._word)

    @property
    def table_page(self) -> TablePage:
        """Its table page: the body in `web/static/index.html`, its script `app.js`."""
        return TablePage(self.game.info.title, styles=(), scripts=("app.js",), lobby_link=True)

    def static_dir(self) -> Path:
        return Path(str(resources.files(self.kit.package) / "web" / "static"))

    def routes(self, app: FastAPI, server: Any) -> None:
        """A plain site has no routes of its own."""

    def lobby_json(self, edition: dict[str, Any] | None = None) -> dict[str, Any]:
        return {"tagline": self._tagline(),
                "bot_levels": level_options(self.levels, self._levels, self._word),
                "default_bots": [self.kit.cover_bot], "options": []}

    def prepare(self) -> None:
        """Nothing to build before the first move."""

    def parse_options(self, data: dict[str, Any]) -> dict[str, Any]:
        return lobby_options(self.game.info, data)

    def deal(self, names: Sequence[str], seed: int | None, options: dict[str, Any]) -> Any:
        return self.game.new_game(list(names), seed, options or None)

    def close(self) -> None:
        """Nothing of its own runs beside the server."""

    def params_extra(self) -> dict[str, Any]:
        return {}

    def upgrade_params(self, data: dict[str, Any]) -> dict[str, Any]:
        return data

    def check_stored(self, game_id: str, params: dict[str, Any]) -> None:
        if params.get("game") != self.kit.name:
            raise ValueError(f"game {game_id} is a game of {params.get('game')}")

    # -- what the browser is sent --------------------------------------------------------

    def position_json(self, view: Any) -> dict[str, Any]:
        """The game's own facts of a view, beyond the public ones every view carries."""
        return {}

    def view_json(self, view: Any, *, game_id: str, seq: int, seats: list[dict[str, Any]],
                  log: list[dict[str, Any]]) -> dict[str, Any]:
        game, me = self.game, view.viewer
        scores = game.scores(view)
        return {"type": "state", "game": game_id, "seq": seq, "you": me,
                "round": game.round(view), "to_move": list(view.to_move()),
                "players": [{"name": name, "score": scores[i], **seats[i]}
                            for i, name in enumerate(view.names)],
                "legal": None if me is None or me not in view.to_move() else [
                    {"action": game.action_to_json(a), "text": game.describe_action(view, a)}
                    for a in game.legal_actions(view, me)],
                "winners": list(game.winners(view)) if view.is_over else [],
                "log": log, **self.position_json(view)}

    def log_json(self, view: Any, start: int) -> list[dict[str, Any]]:
        return [{"kind": e.kind, "seat": e.seat, "text": self.game.describe_log(view, e)}
                for e in self.game.log(view)[start:]]

    def log_length(self, view: Any) -> int:
        return len(self.game.log(view))

    def summary(self, state: Any) -> dict[str, Any]:
        return {"round": self.game.round(state), "setup": self.game.setup_label(state)}

    # -- rules of play on the server -----------------------------------------------------

    def decision_start(self, state: Any) -> int:
        return len(state.history)

    def undoable(self, old: Any, new: Any) -> bool:
        return False

    def last_player(self, state: Any) -> int | None:
        return getattr(state.history[-1], self.owner_field) if state.history else None

    def not_your_turn(self, state: Any, seat: int) -> str:
        return say("site.to-move", names=", ".join(state.names[s] for s in state.to_move()))

    def preview(self, state: Any, action: Any, new: Any) -> dict[str, Any]:
        return {"points": None, "events": []}

    def record_name(self, game_id: str) -> str:
        return f"{self.kit.name}-{game_id}.json"

    def bench_reply(self, message: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        return dict(rng.choice(message["legal"])["action"])
