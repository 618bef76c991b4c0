"""A finished game's review on the web: the API (only when over, seats checked, kept once made,
one at a time, rate-limited) and the review page in a real browser."""

from __future__ import annotations

import asyncio
import json
import threading
import time
import urllib.error
import urllib.request
from typing import Any

import pytest

from tavola.testing import game_names
from tavola.web.app import GameServer, Limits
from tavola.web.errors import ClientError
from tavola.web.loadbench import http_json
from tavola.web.site import load_sites
from tavola.web.storage import open_store

BOTS = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "greedy"}]


def _finished_room(tmp_path: Any, game: str = "gonzaga", **limits: Any) -> tuple[Any, Any]:
    server = GameServer(open_store(f"sqlite:///{tmp_path / 'g.db'}"), load_sites([game]),
                        bot_processes=False, bot_delay=0, limits=Limits(**limits))
    room = server.create({"game": game, "seats": [{"kind": "person", "name": "Ann"},
                                                  {"kind": "person", "name": "Bea"}]})
    state = room.state
    while not state.is_over:  # played here, not by the server's bots
        seat = state.to_move()[0]
        room.game.apply_in_place(state, room.game.legal_actions(state, seat)[0])
    return server, room


def test_a_review_is_worked_out_once_and_kept(tmp_path):
    server, room = _finished_room(tmp_path)

    async def run() -> tuple[Any, Any]:
        first, second = await asyncio.gather(server.reviews.get(room, 1, "en", "1.2.3.4"),
                                             server.reviews.get(room, 1, "en", "1.2.3.4"))
        return first, second, await server.reviews.get(room, 1, "en", "5.6.7.8")

    first, second, third = asyncio.run(run())
    assert first is second is third  # one computation for all three
    assert first["seat"] == 1 and first["names"] == list(room.state.names)
    assert len(first["course"]) == len(room.state.history) + 1
    assert all(d["cost"] >= 0 and d["played"] for d in first["decisions"])
    assert set(first["mistakes"]) <= {d["number"] for d in first["decisions"]}


def test_a_review_checks_its_seat_and_its_rate(tmp_path):
    server, room = _finished_room(tmp_path, reviews_per_minute=0.5, review_burst=1)

    async def run() -> None:
        for bad in (None, 2, -1):
            with pytest.raises(ClientError) as exc:
                await server.reviews.get(room, bad, "en", "a")
            assert exc.value.code == "bad-seat"
        await server.reviews.get(room, 0, "en", "a")
        with pytest.raises(ClientError) as exc:
            await server.reviews.get(room, 1, "en", "a")  # a second, new one too soon
        assert exc.value.code == "rate-limited"
        await server.reviews.get(room, 0, "en", "a")  # a kept one is never limited

    asyncio.run(run())


def _get(url: str) -> tuple[int, Any]:
    try:
        with urllib.request.urlopen(url, timeout=120) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def test_the_review_page_draws_the_game_and_lists_the_mistakes(server, browser):
    game = http_json(f"{server.base}/api/games", {"game": "gonzaga", "seats": BOTS, "seed": 2})
    status, body = _get(f"{server.base}/api/games/{game['id']}/review?seat=0")
    assert status == 409 and body["code"] == "not-over"  # a review is of a finished game
    assert _wait_over(server, game["id"]), "the bots' game did not end"
    status, body = _get(f"{server.base}/api/games/{game['id']}/review?seat=x")
    assert status == 400 and body["code"] == "bad-seat"
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(f"{server.base}/game/{game['id']}/review#1")
        page.wait_for_selector("[data-review-line='1']", timeout=120_000)
        assert len(page.query_selector_all("[data-review-line]")) == 2
        assert page.eval_on_selector("#review-seat", "s => s.value") == "1"
        assert page.query_selector_all("#review-rows tr")
        mistakes = page.query_selector_all("#review-mistakes li")
        assert 1 <= len(mistakes) <= 3
        assert len(page.query_selector_all("[data-review-mistake]")) == len(
            page.query_selector_all("#review-mistakes li[data-mistake]"))
        assert not errors, errors
    finally:
        page.close()


def _wait_over(server: Any, game_id: str) -> bool:
    for _ in range(600):
        status, _ = _get(f"{server.base}/api/games/{game_id}/replay/0")
        if status == 200:
            return True
        time.sleep(0.2)
    return False


def test_a_review_knows_the_hints_the_seat_was_given_and_says_the_result(tmp_path):
    server, room = _finished_room(tmp_path, game="signorie")
    game, history = room.game, room.state.history
    at = _a_decision_of(game, room.state, 1)
    server.hinting._keep(room, 1, at, [{"action": game.action_to_json(history[at])}])
    review = _in_a_thread(server.reviews.get(room, 1, "de", "1.2.3.4"))
    followed = [d for d in review["decisions"] if d["hinted"]]
    assert [d["number"] for d in followed] == [at + 1]
    assert "der Tipp setzte diesen Zug auf Platz 1" in followed[0]["why"]  # in German
    assert room.state.names[1] in review["result"]
    for number in review["mistakes"]:
        mistake = next(d for d in review["decisions"] if d["number"] == number)
        assert mistake["why"] and mistake["played"] != mistake["better"]


def _a_decision_of(game: Any, final: Any, seat: int) -> int:
    """The place in the game of an action of `seat` chosen among several, past the start."""
    state = game.from_setup(game.setup_of(final))
    for i, action in enumerate(final.history):
        if i > 20 and state.to_move() == (seat,) and len(game.legal_actions(state, seat)) > 1:
            return i
        game.apply_in_place(state, action)
    raise AssertionError("no decision")


@pytest.mark.parametrize("name", game_names("site"))
def test_the_end_screen_of_both_games_links_to_the_review(server, browser, name):
    game = http_json(f"{server.base}/api/games", {"game": name, "seats": BOTS, "seed": 3})
    assert _wait_over(server, game["id"]), "the bots' game did not end"
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(f"{server.base}/game/{game['id']}")
        link = page.wait_for_selector("#review-link", timeout=30_000)
        assert link.get_attribute("href") == f"/game/{game['id']}/review#0"  # a spectator
        link.click()
        page.wait_for_selector("[data-review-line='0']", timeout=120_000)
        assert not errors, errors
    finally:
        page.close()


def _in_a_thread(work: Any) -> Any:
    """`asyncio.run(work)` in a thread of its own: the browser tests' loop may run in this one."""
    done: list[Any] = []
    thread = threading.Thread(target=lambda: done.append(asyncio.run(work)))
    thread.start()
    thread.join()
    return done[0]
