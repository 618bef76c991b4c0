"""The web server speaks each client's language: catalogs for pages, lobby words, board names,
errors over HTTP and over the WebSocket."""

from __future__ import annotations

import json
import random
import urllib.error
import urllib.request
from typing import Any

from websockets.sync.client import connect


def get(url: str, headers: dict[str, str] | None = None) -> tuple[int, str]:
    req = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def post(url: str, body: Any, headers: dict[str, str]) -> Any:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json", **headers})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


def test_catalogs_for_pages_and_for_anyone(server):
    status, body = get(f"{server.base}/api/i18n/de/gonzaga")
    assert status == 200 and json.loads(body)["messages"]["Venezia"] == "Venedig"
    assert get(f"{server.base}/api/i18n/xx/gonzaga")[0] == 404
    assert get(f"{server.base}/api/i18n/de/nothing")[0] == 400
    _, script = get(f"{server.base}/i18n.js?domains=tavola,gonzaga",
                    {"Accept-Language": "it-IT,it;q=0.9"})
    assert '"lang": "it"' in script and "Nuova partita" in script
    _, script = get(f"{server.base}/i18n.js", {"Cookie": "lang=de",
                                                "Accept-Language": "it"})
    assert '"lang": "de"' in script  # the chosen language wins over the browser's
    _, script = get(f"{server.base}/i18n.js", {"Cookie": "lang=<script>"})
    assert '"lang": "en"' in script


def test_lobby_board_and_errors_in_the_client_s_language(server):
    de = {"Cookie": "lang=de"}
    offer = json.loads(get(f"{server.base}/api/lobby", de)[1])["games"][0]
    assert offer["tagline"].startswith("Lehen, Ringe und See-Bündnisse")
    assert json.loads(get(f"{server.base}/api/lobby")[1])["games"][0]["tagline"].startswith(
        "Fiefs, rings")
    board = json.loads(get(f"{server.base}/api/gonzaga/board", de)[1])
    assert "Venedig" in {c["name"] for c in board["harbors"] + board["cities"]}
    game = post(f"{server.base}/api/games", {"seats": [{"kind": "person"},
                                                      {"kind": "bot", "bot": "random"}]}, de)
    assert game["seats"][0]["name"] == "Spieler 1"
    status, body = get(f"{server.base}/api/games/nope/record", de)
    assert status == 404 and json.loads(body)["message"] == "kein solches Spiel"
    with connect(f"{server.ws}/ws/{game['id']}", additional_headers={"Cookie": "lang=it"}) as ws:
        ws.send(json.dumps({"type": "hello", "token": "not-a-token"}))
        assert json.loads(ws.recv())["message"] == "questo link non vale per questa partita"
    token = game["seats"][0]["link"].split("#")[1]
    with connect(f"{server.ws}/ws/{game['id']}") as ws:  # the page says its language
        ws.send(json.dumps({"type": "hello", "token": token, "lang": "it"}))
        view = next(m for m in (json.loads(ws.recv()) for _ in range(3)) if m["type"] == "state")
        assert view["log"][0]["text"].startswith("Turno 1.")


def _state(ws: Any) -> dict[str, Any]:
    while True:
        msg = json.loads(ws.recv(timeout=30))
        assert msg["type"] != "error", msg
        if msg["type"] == "state":
            return msg


def test_bots_named_by_their_level_are_named_in_each_viewers_language(server):
    """A game created in German, watched in English and in Italian: each viewer reads the
    bots' names (numbered where a level sits twice) in their own language, in the players'
    list, in the log and in the lobby, and nowhere the German names."""
    from tavola import i18n
    from tavola.games.gonzaga.web.wire import choose
    from tavola.text import say
    from tavola.web.site import load_site

    site = load_site("gonzaga")

    def names(lang: str) -> list[str]:
        with i18n.use(lang):
            level = site.level_name("random")
            return [say("seat.bot-n", level=level, n=1), say("seat.bot-n", level=level, n=2),
                    say("seat.bot", level=site.level_name("greedy"))]

    seats = [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "random"},
             {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "greedy"}]
    game = post(f"{server.base}/api/games", {"seats": seats, "seed": 4, "public": True},
                {"Cookie": "lang=de"})
    german = names("de")
    assert [s["name"] for s in game["seats"][1:]] == german
    token = game["seats"][0]["link"].split("#")[1]
    with connect(f"{server.ws}/ws/{game['id']}") as ws:  # Ann plans: the log names the bots
        ws.send(json.dumps({"type": "hello", "token": token, "lang": "de"}))
        view = _state(ws)
        assert [p["name"] for p in view["players"][1:]] == german
        plan = choose(view, random.Random(1))
        ws.send(json.dumps({"type": "act", "seq": view["seq"], "action": plan}))
        while not any(german[0] in e["text"] for e in view["log"]):
            view = _state(ws)
    for lang in ("en", "it"):
        with connect(f"{server.ws}/ws/{game['id']}") as ws:
            ws.send(json.dumps({"type": "hello", "token": token, "lang": lang}))
            view = _state(ws)
        assert [p["name"] for p in view["players"][1:]] == names(lang), lang
        assert any(names(lang)[0] in e["text"] for e in view["log"]), lang
        shown = json.dumps(view, ensure_ascii=False)
        assert not any(name in shown for name in german), lang
        # and the lobby's line of the game
        _, body = get(f"{server.base}/api/games", {"Cookie": f"lang={lang}"})
        line = next(g for section in ("open", "playing", "finished")
                    for g in json.loads(body)[section] if g["id"] == game["id"])
        assert [s["name"] for s in line["seats"][1:]] == names(lang), lang
