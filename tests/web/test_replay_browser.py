"""A finished game's replay in the browser, for every game with a web page: quick clicks on
"step forward" go as many steps, whatever order the server's answers come back in."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from web_server import Server, launch

from tavola import registry
from tavola.testing import game_names
from tavola.web.loadbench import LOCAL_LIMITS, http_json, play_seat


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server a script may play whole games on at full speed (no message rate limit)."""
    srv = launch(tmp_path_factory.mktemp("replay") / "games.db",
                 limits={**LOCAL_LIMITS, "messages_per_second": 0})
    yield srv
    srv.stop()


def finished_game(server: Any, game: str) -> str:
    """A game of `game` played to its end by a random client against the weakest bot."""
    made = http_json(f"{server.base}/api/games", {"game": game, "seats": [
        {"kind": "person", "name": "Ann"},
        {"kind": "bot", "bot": registry.kit(game).levels[0]}]})
    token = made["seats"][0]["link"].split("#", 1)[1]
    with ThreadPoolExecutor(1) as pool:  # the browser's loop runs in this thread
        final = pool.submit(asyncio.run, play_seat(f"{server.ws}/ws/{made['id']}", token,
                                                   random.Random(3), game=game)).result()
    assert final["phase"] == "over"
    return str(made["id"])


@pytest.mark.parametrize("game", game_names("site"))
def test_quick_clicks_step_as_far_as_they_ask_whatever_order_the_answers_come(
        server: Any, browser: Any, game: str) -> None:
    game_id = finished_game(server, game)
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.base}/game/{game_id}#replay")
    page.wait_for_selector("#replay-bar:not([hidden])", timeout=30000)
    page.wait_for_function("document.querySelector('#rp-step').textContent.toLowerCase()"
                           ".startsWith('step 0 of')", timeout=30000)
    held: list[Any] = []  # the replay's requests, answered only once all three are asked
    page.route("**/api/games/*/replay/*", lambda route: held.append(route))
    for _ in range(3):
        page.click("#rp-next")
    for _ in range(300):
        if len(held) >= 3:
            break
        page.wait_for_timeout(100)
    assert len(held) == 3
    for route in reversed(held):  # the last asked is answered first
        route.continue_()
    page.wait_for_function("document.querySelector('#rp-step').textContent.toLowerCase()"
                           ".startsWith('step 3 of')", polling=250, timeout=30000)
    page.wait_for_timeout(500)  # the earlier answers arrive meanwhile and change nothing
    assert page.text_content("#rp-step").lower().startswith("step 3 of")
    assert errors == []
    context.close()
