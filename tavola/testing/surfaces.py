"""The game on the platform's other surfaces: the web server and the learning environments."""

from __future__ import annotations

import json
import random
from typing import Any

from pydantic import BaseModel, ValidationError

from ..kit import GameKit
from .play import fail, game_of, names, player_counts

#: What a lobby offer of a game holds (`tavola.web.site.WebGame.lobby_json`).
LOBBY_KEYS = frozenset({"tagline", "bot_levels", "default_bots", "options"})
MOST_MOVES = 5_000


def check_web_side(kit: GameKit, seed: int = 0) -> None:
    """The web side offers its game in the lobby, has its page, and a game played only from
    what the browser is sent (`bench_reply` on each view message) ends, every message being
    JSON that meets the platform's schema (`tavola.web.site.ViewMessage`) and the game's
    (`GameKit.view_schema`, where it declares one). Nothing to check for a game without a
    web side."""
    if kit.site is None:
        return
    site = kit.site.load()()
    if tuple(site.levels) != tuple(kit.levels):
        raise fail(kit, f"its web side offers the bots {site.levels}, its kit {kit.levels}")
    _check_lobby(kit, site)
    for page in ("index.html", "picture.svg"):
        if not (site.static_dir() / page).is_file():
            raise fail(kit, f"its web side has no {page} in {site.static_dir()}")
    for players in player_counts(site.game):
        _play_in_a_room(kit, site, players, seed)


def _check_lobby(kit: GameKit, site: Any) -> None:
    offer = site.lobby_json()
    missing = LOBBY_KEYS - set(offer)
    if missing:
        raise fail(kit, f"its lobby offer lacks {sorted(missing)}")
    levels = [level["id"] for level in offer["bot_levels"]]
    if levels != list(site.levels) or not set(offer["default_bots"]) <= set(levels):
        raise fail(kit, f"its lobby offers the bots {levels} (default {offer['default_bots']}),"
                        f" not its levels {list(site.levels)}")
    json.dumps(offer)


def _play_in_a_room(kit: GameKit, site: Any, players: int, seed: int) -> None:
    from ..web.room import PERSON, GameParams, Room, Seat

    seats = [Seat(PERSON, name) for name in names(players)]
    setup = site.game.setup_of(site.deal(names(players), seed, {}))
    room = Room("conformance", GameParams(seats, seed, {}, setup=setup, game=kit.name), site)
    rng = random.Random(seed)
    for _ in range(MOST_MOVES):
        messages = {seat: _message(kit, room, seat) for seat in (None, *range(players))}
        if room.is_over:
            return
        seat = rng.choice(list(room.state.to_move()))
        reply = site.bench_reply(messages[seat], rng)
        action, new = room.prepare(seat, reply)
        room.commit(action, new)
    raise fail(kit, f"a {players}-player game played from the web messages has not ended "
                    f"after {MOST_MOVES} moves")


def _message(kit: GameKit, room: Any, seat: int | None) -> dict[str, Any]:
    from ..web.site import ViewMessage

    message: dict[str, Any] = room.message_for(seat)
    sent = json.loads(room.message_text(seat))  # what the browser reads: the schemas judge it
    _meets(kit, ViewMessage, sent, "the platform's schema")
    if kit.view_schema is not None:
        _meets(kit, kit.view_schema.load(), sent, "its schema")
    return message


def _meets(kit: GameKit, schema: type[BaseModel], message: dict[str, Any], whose: str) -> None:
    try:
        schema.model_validate(message)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first["loc"])
        raise fail(kit, f"a view message does not meet {whose}: {where}: {first['msg']}"
                   ) from None


def check_learning_environments(kit: GameKit, seed: int = 0) -> None:
    """PettingZoo's API tests pass for each player count (the parallel one too for a game with
    simultaneous phases). Nothing to check for a game that declares no encoding; needs the
    `rl` extra (pettingzoo)."""
    if kit.encoding is None:
        return
    from pettingzoo.test import api_test, parallel_api_test

    from ..rl.aec import env
    from ..rl.parallel import parallel_env

    game = game_of(kit)
    for players in player_counts(game):
        try:
            api_test(env(kit.name, players=players, render_mode="ansi"), num_cycles=1000)
            if game.info.simultaneous:
                parallel_api_test(parallel_env(kit.name, players=players), num_cycles=1000)
        except AssertionError as exc:
            raise fail(kit, f"PettingZoo's API test fails with {players} players: "
                            f"{exc}") from exc
