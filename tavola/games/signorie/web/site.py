"""Signorie in the browser: what the platform's web server needs of it (`tavola.web.site`)."""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Sequence
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.responses import Response

from tavola import i18n
from tavola.web.errors import ClientError
from tavola.web.pages import TablePage

from .. import text
from ..bots.levels import LEVELS, level_name, level_options
from ..components import DATA
from ..game import GAME
from ..state import REWARDS, SignorieState
from ..tables import Tables, tables
from .wire import log_json, preview_json, table_json, view_json

#: Editions whose tables the table page may ask for (those of games viewed here lately).
EDITIONS_SERVED = 32


def static_dir() -> Path:
    return Path(str(resources.files("tavola.games.signorie") / "web" / "static"))


@cache
def components_hash() -> str:
    """The component file's fingerprint: a stored game replays only on the same components."""
    return hashlib.sha256(DATA.read_bytes()).hexdigest()


class SignorieWeb:
    """Signorie on the shipped components: its page, its views as JSON, its rules of play."""

    game = GAME
    levels = LEVELS
    owner_field = "seat"
    table_page = TablePage("Signorie", styles=("style.css",),
                           scripts=("app.js", "help-in-place.js"), lobby_link=True)

    def __init__(self) -> None:
        # by edition and language: it names cities, tiles, colours
        self._table: dict[tuple[str, str], str] = {}
        #: the tables of the editions played here lately, by content hash
        self._editions: dict[str, Tables] = {}

    def table_payload(self, edition: str = "") -> str | None:
        """The table's printed facts as JSON in the language of the moment, built once each;
        None for an edition no game here is played on."""
        t = self._editions.get(edition) if edition else tables()
        if t is None:
            return None
        key = (edition, i18n.current())
        if key not in self._table:
            if len(self._table) > 64:
                self._table.clear()
            self._table[key] = json.dumps(table_json(t))
        return self._table[key]

    def remember(self, t: Tables) -> None:
        """Keep an edition's tables for its table's drawing (the page asks for it by hash)."""
        if t.edition and t.edition not in self._editions:
            if len(self._editions) >= EDITIONS_SERVED:
                self._editions.pop(next(iter(self._editions)))
            self._editions[t.edition] = t

    def level_name(self, spec: str) -> str:
        return level_name(spec)

    def static_dir(self) -> Path:
        return static_dir()

    def prepare(self) -> None:
        self.table_payload()

    def routes(self, app: FastAPI, server: Any) -> None:
        @app.get("/api/signorie/table")
        async def get_table(edition: str = "") -> Response:
            payload = self.table_payload(edition[:64])
            if payload is None:
                return Response(json.dumps({"error": text.say("error.edition-unknown")}),
                                status_code=404, media_type="application/json")
            return Response(payload, media_type="application/json",
                            headers={"Cache-Control": "no-cache",
                                     "Vary": "Cookie, Accept-Language"})


    def lobby_json(self) -> dict[str, Any]:
        """Signorie in the lobby: its line, its bot levels; it has no options to choose."""
        return {"tagline": text.description(), "bot_levels": level_options(),
                "default_bots": ["greedy", "random"], "options": []}

    # -- setting a game up ---------------------------------------------------------------

    def parse_options(self, data: dict[str, Any]) -> dict[str, Any]:
        """Signorie has no options; a Gonzaga lobby field sent here is named, not ignored."""
        for key in ("scenario", "variants"):
            if data.get(key):
                raise ClientError("bad-options", text.say("error.option", option=key))
        return {}

    def deal(self, names: Sequence[str], seed: int | None, options: dict[str, Any]
             ) -> SignorieState:
        # without a seed the engine draws one from the operating system and keeps it secret
        return GAME.new_game(list(names), seed, options or None)

    def params_extra(self) -> dict[str, Any]:
        return {"components": components_hash()}

    def upgrade_params(self, data: dict[str, Any]) -> dict[str, Any]:
        return data

    def check_stored(self, game_id: str, params: dict[str, Any]) -> None:
        if params.get("game", "signorie") != "signorie":
            raise ValueError(f"game {game_id} is a game of {params.get('game')}")
        want = params.get("components")
        if want and want != components_hash():
            raise ValueError(f"game {game_id} was played with other components "
                             f"(hash {str(want)[:12]})")

    # -- what the browser is sent --------------------------------------------------------

    def view_json(self, view: Any, *, game_id: str, seq: int, seats: list[dict[str, Any]],
                  log: list[dict[str, Any]]) -> dict[str, Any]:
        self.remember(view.t)
        return view_json(view, game_id=game_id, seq=seq, seats=seats, log=log)

    def log_json(self, view: Any, start: int) -> list[dict[str, Any]]:
        return log_json(view, start)

    def log_length(self, view: Any) -> int:
        return len(view.log)

    def summary(self, state: SignorieState) -> dict[str, Any]:
        return {"round": state.round, "phase": text.PHASE_NAMES[state.phase],
                "setup": GAME.setup_label(state)}

    # -- rules of play on the server -----------------------------------------------------

    def decision_start(self, state: SignorieState) -> int:
        """One seat decides at a time: the decision began with the last move."""
        return len(state.history)

    def undoable(self, old: SignorieState, new: SignorieState) -> bool:
        """Every step of a turn may be taken back until the next seat moves; the reward step,
        once checked, is settled (the platform already refuses rolls and draws)."""
        return new.round == old.round and not (old.phase != REWARDS and new.phase == REWARDS)

    def last_player(self, state: SignorieState) -> int | None:
        return state.history[-1].seat if state.history else None

    def not_your_turn(self, state: SignorieState, seat: int) -> str:
        mover = state.to_move()
        if not mover:
            return text.say("wait.nobody")
        return text.say("wait.mover", name=state.names[mover[0]])

    def preview(self, state: SignorieState, action: Any, new: SignorieState) -> dict[str, Any]:
        return preview_json(state, action, new)

    def record_name(self, game_id: str) -> str:
        return f"signorie-{game_id}.json"

    def bench_reply(self, message: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        """A random legal choice of the view; a die rather than a pass, so rounds are played."""
        options = [o["action"] for o in message["legal"]["options"]]
        dice = [a for a in options if a["type"] == "take_die"]
        return rng.choice(dice if dice and rng.random() < 0.9 else options)


def make_site() -> SignorieWeb:
    return SignorieWeb()
