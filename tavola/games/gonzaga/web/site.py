"""Gonzaga in the browser: what the platform's web server needs of it (`tavola.web.site`)."""

from __future__ import annotations

import json
import random
import secrets
from collections import OrderedDict
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.responses import Response

from tavola import i18n
from tavola.web.pages import TablePage
from tavola.web.site import lobby_options

from ..board import Board, BoardError, load_board
from ..boarddata import board_of_data, setup_board
from ..bots.levels import LEVELS, level_name, level_options
from ..engine import deal, new_game
from ..game import GAME, INFO
from ..placement import placement_tables
from ..state import VARIANTS, GameState, Phase, TurnPlayed
from ..text import MESSAGES, join, say, word
from .wire import board_json, choose, event_words, log_json, view_json


def static_dir() -> Path:
    return Path(str(resources.files("tavola.games.gonzaga") / "web" / "static"))


class GonzagaWeb:
    """Gonzaga on the shipped board: its page, its views as JSON, its rules of play."""

    game = GAME
    levels = LEVELS
    owner_field = "player"
    editor_script: str | None = "editor.js"  # its map editor, for the editions pages
    table_page = TablePage(MESSAGES["page.title"], styles=("style.css", "flow.css"),
                           scripts=("app.js", "help-in-place.js"), lobby_link=True)

    def __init__(self, board: Board | None = None) -> None:
        self.board = board or load_board()  # the shipped board, which the bot workers load too
        # by board and language (it names places): the shipped board's, and a few editions'
        self._board_payload: OrderedDict[tuple[str, str], str] = OrderedDict()

    def board_payload(self, board: Board | None = None) -> str:
        """A board (the shipped one by default) as JSON in the language of the moment (its
        names), built once each."""
        board = board or self.board
        key = (board.content_hash, i18n.current())
        payload = self._board_payload.get(key)
        if payload is None:
            payload = self._board_payload[key] = json.dumps(board_json(board))
            if len(self._board_payload) > 24:  # the shipped board's stay: built first, reused
                self._board_payload.popitem(last=False)
        self._board_payload.move_to_end(key)
        return payload

    def level_name(self, spec: str) -> str:
        return level_name(spec)

    def static_dir(self) -> Path:
        return static_dir()

    def prepare(self) -> None:
        placement_tables(self.board).fiefs  # noqa: B018 - built now, not during a first move
        self.board_payload()

    def routes(self, app: FastAPI, server: Any) -> None:
        board = self.board

        async def played(game: str | None) -> Board:
            """The board the game `game` is played on (an edition's), else the shipped one."""
            if game is not None and len(game) <= 64:
                room = await server.room_waiting(game)
                if room is not None and room.site is self:
                    on: Board = room.state.board
                    return on
            return board

        @app.get("/api/gonzaga/board")
        async def get_board(game: str | None = None) -> Response:
            """The shipped board, or the board a game is played on (an edition's)."""
            return Response(self.board_payload(await played(game)),
                            media_type="application/json",
                            headers={"Vary": "Cookie, Accept-Language"})

        @app.get("/api/gonzaga/options")
        async def options(game: str | None = None) -> dict[str, Any]:
            """The bots and variants, and the scenarios and regions of the board the game
            `game` is played on (an edition's tiles may differ from the shipped ones)."""
            on = await played(game)
            return {"bots": list(LEVELS), "bot_levels": level_options(), "variants": VARIANTS,
                    "regions": {r.id: word(r.name) for r in on.regions.values()},
                    "scenarios": [{"name": s.name, "players": s.players, "person": s.person,
                                   "flourishing": list(s.flourishing)}
                                  for s in on.scenarios.values()]}

    def lobby_json(self, edition: dict[str, Any] | None = None) -> dict[str, Any]:
        """Gonzaga in the lobby: the scenarios of each player count (those of the edition's
        board, whose scenario tiles may differ from the shipped ones) and the rule variants."""
        board = self.board_of(edition or {})
        scenarios = [{"value": s.name, "players": s.players,
                      "help": word(s.person),
                      "label": say("lobby.flourish", scenario=s.name, regions=join(
                          [word(board.regions[r].name) for r in s.flourishing]))}
                     for s in board.scenarios.values()]
        variants = [{"value": v, "label": say("lobby.variant", id=v, text=word(text)),
                     "help": word(text)} for v, text in VARIANTS.items()]
        return {"tagline": say("lobby.tagline"), "bot_levels": level_options(),
                "default_bots": ["greedy", "random"],
                "options": [
                    {"id": "scenario", "label": say("lobby.scenario"), "kind": "choice",
                     "advanced": False,
                     "choices": [{"value": None, "label": say("lobby.random-scenario")},
                                 *scenarios]},
                    {"id": "variants", "label": say("lobby.variants"), "kind": "flags",
                     "advanced": True, "choices": variants}]}

    # -- setting a game up ---------------------------------------------------------------

    def parse_options(self, data: dict[str, Any]) -> dict[str, Any]:
        options = lobby_options(INFO, data)
        return {"scenario": options.get("scenario"), "variants": options.get("variants", [])}

    def deal(self, names: Sequence[str], seed: int | None, options: dict[str, Any]
             ) -> GameState:
        """A new game on the shipped board, or on an edition's board given as its data
        (`options["board"]`, from `GonzagaEditions.options`; never a path on the server)."""
        board = self.board_of(options)
        scenario = options.get("scenario")
        setup = deal(board, list(names), seed, scenario) if seed is not None else \
            deal(board, list(names), scenario=scenario, rng=secrets.SystemRandom())
        return new_game(setup=setup, board=board, variants=options.get("variants") or ())

    def board_of(self, options: dict[str, Any]) -> Board:
        """The board that options play on: the shipped board unless they hold an edition's
        data. A path is refused: the web never names a file on the server."""
        data = options.get("board")
        if data is None:
            return self.board
        if not isinstance(data, dict):
            raise ValueError("a board is given as its data, not as a file name")
        return board_of_data(data)

    def close(self) -> None:
        """Nothing of its own runs beside the server."""

    def params_extra(self) -> dict[str, Any]:
        """The shipped board when the game was stored; a game on an edition's board carries
        that board in its setup (`Gonzaga.setup_of`; the platform puts it back from the
        edition's version before it is read), which `check_stored` checks instead."""
        return {"board": {"name": self.board.name, "hash": self.board.content_hash}}

    def upgrade_params(self, data: dict[str, Any]) -> dict[str, Any]:
        """Games stored before the platform kept `scenario` and `variants` at the top and the
        deal itself as `setup`."""
        if "options" in data:
            return data
        variants = list(data.get("variants") or [])
        setup = data.get("setup")
        return {**data, "options": {"scenario": data.get("scenario"), "variants": variants},
                "setup": None if setup is None else {"setup": setup, "variants": variants}}

    def check_stored(self, game_id: str, params: dict[str, Any]) -> None:
        """ValueError if the game's board is not here: the shipped board changed since, or the
        edition's board its setup holds no longer loads or passes the checks."""
        setup = self.upgrade_params(params).get("setup") or {}
        if setup.get("board") is not None:
            try:
                setup_board(setup)
            except BoardError as exc:
                raise ValueError(f"game {game_id} was played on a board that cannot be played "
                                 f"on here: {exc}") from None
            return
        want = (params.get("board") or {}).get("hash")
        if want and want != self.board.content_hash:
            raise ValueError(f"game {game_id} was played on another board (hash {want[:12]})")

    # -- what the browser is sent --------------------------------------------------------

    def view_json(self, view: Any, *, game_id: str, seq: int, seats: list[dict[str, Any]],
                  log: list[dict[str, Any]]) -> dict[str, Any]:
        return view_json(view, game_id=game_id, seq=seq, seats=seats, log=log)

    def log_json(self, view: Any, start: int) -> list[dict[str, Any]]:
        return log_json(view, start)

    def log_length(self, view: Any) -> int:
        return len(view.journal)

    def summary(self, state: GameState) -> dict[str, Any]:
        return {"round": state.round, "phase": str(state.phase),
                "scenario": state.rules.scenario.name}

    # -- rules of play on the server -----------------------------------------------------

    def decision_start(self, state: GameState) -> int:
        """The round's first plan (plans are simultaneous), or the current placing turn."""
        seq = len(state.history)
        if state.phase is Phase.PLANNING:
            return seq - sum(p.plan is not None for p in state.players)
        return seq

    def undoable(self, old: GameState, new: GameState) -> bool:
        """Not the last plan (the reveal), not the round's last placement (the next draw)."""
        return new.round == old.round and new.phase is old.phase

    def last_player(self, state: GameState) -> int | None:
        return state.history[-1].player if state.history else None

    def not_your_turn(self, state: GameState, seat: int) -> str:
        if state.phase is Phase.PLANNING:
            return say("wait.planned")
        return say("illegal.turn-order", who=state.players[state.to_move()[0]].name)

    def preview(self, state: GameState, action: Any, new: GameState) -> dict[str, Any]:
        events = []
        for entry in reversed(new.journal):
            if isinstance(entry, TurnPlayed) and entry.action == action:
                events = list(entry.events)
                break
        return {"points": sum(e.points for e in events),
                "events": [event_words(e) for e in events]}

    def record_name(self, game_id: str) -> str:
        return f"gonzaga-{game_id}.json"

    def bench_reply(self, message: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        return choose(message, rng, self.board)


def make_site() -> GonzagaWeb:
    return GonzagaWeb()
