"""Signorie in the browser: what the platform's web server needs of it (`tavola.web.site`)."""

from __future__ import annotations

import hashlib
import json
import random
import zlib
from collections.abc import Sequence
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import Response

from tavola import i18n
from tavola import text as platform_text
from tavola.web.errors import ClientError
from tavola.web.limits import RateLimiter, address_key
from tavola.web.pages import TablePage

from .. import text
from ..bots.levels import LEVELS, level_name, level_options
from ..components import DATA
from ..edition import EDITION
from ..game import GAME
from ..state import REWARDS, SignorieState
from ..tables import Tables, tables
from .editor import BalanceChecks, edition_table
from .wire import log_json, preview_json, table_json, view_json

#: The editor's checks an account (or address) may ask for: 20 at once, then 5 a second.
TABLE_RATE, TABLE_BURST = 5.0, 20
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
    #: the component editor's module (`mountEditor`), in the static folder
    editor_script: str | None = "editor.js"
    table_page = TablePage(text.MESSAGES["page.title"], styles=("style.css",),
                           scripts=("app.js", "help-in-place.js"), lobby_link=True)

    def __init__(self) -> None:
        # by edition and language: it names cities, tiles, colours
        self._table: dict[tuple[str, str], str] = {}
        #: the tables of the editions played here lately, by content hash
        self._editions: dict[str, Tables] = {}
        self.balance_checks = BalanceChecks()
        self.table_rate = RateLimiter(TABLE_RATE, TABLE_BURST)

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


        checks = self.balance_checks

        @app.get("/api/signorie/edition/schema")
        async def edition_schema() -> dict[str, Any]:
            """The component file's JSON Schema: the editor's fields, choices and bounds."""
            return EDITION.schema()

        @app.post("/api/signorie/edition/table")
        async def edition_table_route(request: Request) -> dict[str, Any]:
            """The findings of component data and the table it draws (the editor's picture)."""
            self.table_rate.check(_owner(server, request, changes=False),
                                  text.say("edition.checks"))
            return edition_table(await _read_body(request))

        @app.post("/api/signorie/balance")
        async def start_balance(request: Request) -> dict[str, Any]:
            """A balance check of component data: bot games in a worker, polled by id."""
            owner = _owner(server, request, changes=True)
            body = await _read_body(request)
            data = body.get("data") if isinstance(body, dict) else None
            return checks.start(owner, body, _edition_of(server, request, data)).as_json()

        @app.get("/api/signorie/balance/{check_id}")
        async def balance_progress(check_id: str, request: Request) -> dict[str, Any]:
            return checks.get(_owner(server, request, changes=False), check_id[:40]).as_json()

    def lobby_json(self, edition: dict[str, Any] | None = None) -> dict[str, Any]:
        """Signorie in the lobby: its line, its bot levels; it has no options to choose, on
        any edition."""
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

    def close(self) -> None:
        """The balance checks' worker processes end with the server."""
        self.balance_checks.close()

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


async def _read_body(request: Request) -> Any:
    """The request's JSON, read no further than an edition's largest size allows. The page
    sends component data gzipped (`Content-Encoding: gzip`): a component file is larger than
    the 16 KiB a request body may be, and a fifth of it compressed; it is inflated only up to
    the edition's limit."""
    limit, body = EDITION.max_bytes + 4096, bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise ClientError("too-large", text.say("edition.too-large", limit=limit))
    if request.headers.get("content-encoding", "").lower() == "gzip":
        body = bytearray(_gunzip(bytes(body), limit))
    try:
        return json.loads(body)
    except (ValueError, RecursionError):
        raise ClientError("bad-json", text.say("edition.not-json")) from None


def _gunzip(data: bytes, limit: int) -> bytes:
    inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
    try:
        out = inflate.decompress(data, limit + 1)
    except zlib.error:
        raise ClientError("bad-json", text.say("edition.not-json")) from None
    if len(out) > limit:
        raise ClientError("too-large", text.say("edition.too-large", limit=limit))
    return out


def _edition_of(server: Any, request: Request, data: Any) -> tuple[str, int] | None:
    """The edition the checked data is, by name and version, for the report: the shipped
    reconstruction (version 0) or a version of the signed-in player's own; None for data saved
    as neither."""
    if data == EDITION.default():
        return platform_text.say("edition.default-name"), 0
    editions, accounts = getattr(server, "editions", None), getattr(server, "accounts", None)
    session = accounts.signed_in(request, changes=False) if accounts is not None else None
    if editions is None or session is None:
        return None
    found: tuple[str, int] | None = editions.holding("signorie", data, session.user)
    return found


def _owner(server: Any, request: Request, *, changes: bool) -> str:
    """Whose balance checks these are: the signed-in account, else the client's address."""
    accounts = getattr(server, "accounts", None)
    session = accounts.signed_in(request, changes=changes) if accounts is not None else None
    if session is not None:
        return f"account:{session.user.id}"
    return "address:" + address_key(request.client.host if request.client else "")


def make_site() -> SignorieWeb:
    return SignorieWeb()
