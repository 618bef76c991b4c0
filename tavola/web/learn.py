"""Learning to play in the browser: each game's rules page and its tutorial games.

`/rules/NAME` is the platform's rules page; it asks `/api/rules/NAME` for the game's rule
document in the page's language (`tavola.web.rules`) and the facts its pictures are drawn
from. `POST /api/tutorials/NAME` starts the game's tutorial (`tavola.tutorial`): the game's
fixed deal against its bot, unlisted, the learner's seat claimed, its script on the server.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse

from .. import i18n
from .. import tutorial as tutorials
from . import pages
from .errors import ClientError
from .room import BOT, PERSON, GameParams, Room, Seat
from .rules import LANGUAGES, document, has_rules, pick_language, rules_module


def learn_routes(app: FastAPI, server: Any) -> None:
    """The rules pages and the start of tutorials, for every hosted game that has them."""

    def hosted(game: str) -> Any:
        site = server.sites.get(game) if len(game) <= 40 else None
        if site is None:
            raise ClientError("not-found", "no such game here")
        return site

    @app.get("/rules/{game}")
    async def rules_page(game: str) -> HTMLResponse:
        hosted(game)
        return pages.RULES.response()

    @app.get("/api/rules/{game}")
    async def rules_json(game: str, request: Request, lang: str | None = None) -> dict[str, Any]:
        site = hosted(game)
        if not has_rules(game):
            raise ClientError("not-found", "this game has no rules page yet")
        chosen = pick_language(lang, request.cookies.get("lang"),
                               request.headers.get("accept-language"))
        with i18n.use(chosen):  # the pictures' words (a card's name) are the page's language
            facts = rules_module(game).facts()
        return {"game": game, "title": site.game.info.title, "lang": chosen,
                "languages": list(LANGUAGES), "html": document(game, chosen),
                "facts": facts,
                "tutorial": tutorials.load(game) is not None}

    @app.post("/api/tutorials/{game}")
    async def start_tutorial(game: str, request: Request) -> dict[str, Any]:
        room = start(server, hosted(game), request.client.host if request.client else "")
        assert room.guide is not None  # a tutorial's game has its guide
        token = room.tokens[room.guide.tutorial.seat]
        return {"id": room.id, "link": f"/game/{room.id}#{token}"}


def learn_offer(game: str) -> dict[str, Any]:
    """What the lobby says of a game's learning: its rules page and whether it has a tutorial."""
    return {"rules": f"/rules/{game}" if has_rules(game) else None,
            "tutorial": tutorials.load(game) is not None}


def tutorial_params(site: Any, tutorial: tutorials.Tutorial) -> GameParams:
    """A tutorial's game: its names, its bots, its fixed deal and bot seed."""
    names = [tutorials.words(name) for name in tutorial.names]  # in the learner's language
    seats = [Seat(PERSON, name) if i == tutorial.seat else Seat(BOT, name, tutorial.bot)
             for i, name in enumerate(names)]
    options = site.parse_options(dict(tutorial.options))
    state = site.deal(names, tutorial.seed, options)
    return GameParams(seats, tutorial.seed, options, False, site.game.setup_of(state),
                      tutorial.seed, site.game.info.name, tutorial=tutorial.game)


def start(server: Any, site: Any, client: str) -> Room:
    """A new tutorial game of `site`'s game; rate-limited like any new game."""
    tutorial = tutorials.load(site.game.info.name)
    if tutorial is None:
        raise ClientError("not-found", "this game has no tutorial yet")
    room: Room = server.lobby.open_game(tutorial_params(site, tutorial), client,
                                        claimed={tutorial.seat})
    return room
