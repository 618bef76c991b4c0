"""One server, one lobby, every game: what the lobby offers comes from each game's site, a game
is created by name, each game's link opens that game's own page, and a server that hosts only
some games leaves the others' saved games alone."""

from __future__ import annotations

import time
import urllib.error
import urllib.request

import pytest

from tavola import registry as games
from tavola.web.app import GameServer, Limits
from tavola.web.errors import ClientError
from tavola.web.loadbench import http_json
from tavola.web.lobby import Lobby
from tavola.web.room import Room
from tavola.web.rooms import Rooms
from tavola.web.site import load_sites
from tavola.web.storage import SqliteStore, StoredGame


def text_of(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as r:
        return r.read().decode()


def test_the_lobby_offers_every_game_as_its_site_describes_it(server):
    offered = http_json(f"{server.base}/api/lobby")["games"]
    sites = load_sites()
    assert [g["name"] for g in offered] == list(sites)  # the default game first
    assert offered[0]["name"] == games.DEFAULT
    for g in offered:
        site = sites[g["name"]]
        info = site.game.info
        assert (g["title"], g["min_players"], g["max_players"], g["default_players"]) == \
            (info.title, info.min_players, info.max_players, info.default_players)
        assert g["bots"] == list(site.levels)
        described = site.lobby_json()
        assert g["tagline"] == described["tagline"] and g["tagline"]
        assert g["options"] == described["options"]
        assert [level["id"] for level in g["bot_levels"]] == g["bots"]
        assert set(g["default_bots"]) <= set(g["bots"])
        picture = urllib.request.urlopen(f"{server.base}{g['picture']}", timeout=10)
        assert picture.headers["content-type"].startswith("image/svg")


#: the bots' ratings (ordinal, per player count) as last measured, with the 200-game runs
MEASURED = {
    "gonzaga": {"2": {"mcts:hard": 28.8, "mcts:medium": 24.6, "mcts:easy": 24.4, "planner": 20.4,
                      "greedy": 11.3, "random": -18.6},
                "3": {"mcts:hard": 23.9, "mcts:medium": 21.1, "mcts:easy": 20.9, "planner": 15.1,
                      "greedy": 0.2},
                "4": {"mcts:hard": 29.5, "mcts:medium": 27.4, "mcts:easy": 26.4, "planner": 20.9,
                      "greedy": 9.6, "random": -19.1}},
    "signorie": {"2": {"mcts:hard": 31.2, "mcts:medium": 26.8, "mcts:easy": 19.0,
                       "planner": 18.8, "greedy": 14.8, "random": -18.6},
                 "3": {"mcts:hard": 29.1, "planner": 24.9, "greedy": 21.2, "random": -15.9},
                 "4": {"mcts:hard": 31.9, "mcts:medium": 31.4, "mcts:easy": 29.5,
                       "planner": 22.6, "greedy": 18.9, "random": -23.5}}}


def test_the_lobby_shows_each_games_bot_ratings_as_measured(server):
    """Read from each game's own file (`GameKit.bot_ratings`), the same numbers as ever."""
    offered = {g["name"]: g["bot_ratings"] for g in http_json(f"{server.base}/api/lobby")["games"]}
    assert {name: offered[name] for name in MEASURED} == MEASURED


def test_a_game_is_created_by_name_and_an_unknown_name_changes_nothing(server):
    before = http_json(f"{server.base}/api/games")
    for name, why in (("chess", "no game 'chess'"), (7, "no game '7'")):
        req = urllib.request.Request(f"{server.base}/api/games", method="POST", data=(
            b'{"game": %s, "seats": [{"kind": "person"}, {"kind": "bot"}], "public": true}'
            % (b'"chess"' if name == "chess" else b"7")),
            headers={"Content-Type": "application/json"})
        with pytest.raises(urllib.error.HTTPError) as caught:
            urllib.request.urlopen(req, timeout=10)
        assert caught.value.code == 400
        body = caught.value.read().decode()
        assert '"bad-game"' in body and why in body
    assert http_json(f"{server.base}/api/games")["open"] == before["open"]
    for name in load_sites():
        made = http_json(f"{server.base}/api/games", {
            "game": name, "seats": [{"kind": "person"}, {"kind": "bot"}]})
        assert made["game"] == name
        page = text_of(f"{server.base}/game/{made['id']}")
        assert f"/static/{name}/" in page  # the game's own table, not another game's
        for other in load_sites():
            if other != name:
                assert f"/static/{other}/" not in page


def test_the_lobby_page_and_an_unknown_games_link(server):
    lobby = text_of(f"{server.base}/")
    assert "/static/tavola/lobby.js" in lobby
    gone = text_of(f"{server.base}/game/nosuchgame")
    assert "No such game" in gone and "/static/tavola/" in gone
    # a very long id is never looked up
    assert "No such game" in text_of(f"{server.base}/game/{'x' * 200}")


def test_a_server_hosting_some_games_leaves_the_others_saved_games_alone(tmp_path):
    store = SqliteStore(tmp_path / "games.db")
    other = StoredGame("elsewhere1", time.time(), {"game": "a-game-hosted-elsewhere",
                                                   "seats": []}, "playing", {0: "t"}, set(),
                       "s")
    store.create(other)
    server = GameServer(store, load_sites([games.DEFAULT]), bot_processes=False)
    assert server.resume() == 0
    assert server.room("elsewhere1") is None
    assert store.load("elsewhere1").status == "playing"  # not marked broken
    store.close()


def test_the_lobby_stands_below_the_server_on_what_it_is_given(tmp_path):
    """No server: a store, the games in memory, the limits and three callables create,
    list, join and refuse games as the server does."""
    store = SqliteStore(tmp_path / "games.db")
    table = Rooms(load_sites([games.DEFAULT]))
    admitted: list[str] = []

    def admit(room: Room) -> None:
        table.add(room)
        admitted.append(room.id)

    lobby = Lobby(store, table, Limits(games_per_address=1), time.time,
                  timing=lambda data: None, find=table.live.get, admit=admit)
    assert lobby.listing("open", 0).games == []  # read once, then cached a second
    room = lobby.create({"seats": [{"kind": "person"}] * 2, "public": True}, "10.0.0.1")
    assert admitted == [room.id] and room.claimed == {0}
    assert [line["id"] for line in lobby.listing("open", 0).games] == [room.id]
    assert lobby.claim(room.id, "10.0.0.2") == (1, room.tokens[1])
    assert lobby.listing("open", 0).games == []  # full: no longer open
    with pytest.raises(ClientError) as refused:
        lobby.create({"seats": [{"kind": "person"}] * 2}, "10.0.0.1")
    assert refused.value.code == "too-many-games" and admitted == [room.id]
    store.close()


def test_the_lobby_shows_each_games_seats_bots_and_options(server, browser):
    offered = http_json(f"{server.base}/api/lobby")["games"]
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.base}/")
    page.wait_for_selector("[data-seat-kind='1'] option", state="attached")
    assert page.is_visible("#game-choice") == (len(offered) > 1)
    for g in offered:
        if len(offered) > 1:
            page.click(f"label.game-card:has([data-game-choice='{g['name']}'])")
        assert page.get_attribute("#create", "data-game") == g["name"]
        rows = page.query_selector_all("#seat-rows .seat")
        assert len(rows) == g["default_players"]
        bots = page.eval_on_selector_all("[data-seat-kind='1'] option",
                                         "os => os.map(o => o.value)")
        assert bots == ["person"] + [f"bot:{b}" for b in g["bots"]]
        while page.is_enabled("#add-seat"):
            page.click("#add-seat")
        assert len(page.query_selector_all("#seat-rows .seat")) == g["max_players"]
        while page.is_enabled("#remove-seat"):
            page.click("#remove-seat")
        assert len(page.query_selector_all("#seat-rows .seat")) == g["min_players"]
        for option in g["options"]:
            assert page.query_selector(f"[data-option='{option['id']}']") is not None
    assert errors == []
    page.close()
