"""The editions' HTTP API on a real server that hosts Pesca (`fixture_game/`, declared by its
distribution's entry point like any installed game): every request that changes something
needs an account, hostile bodies are refused in words and change nothing, quotas and rate
limits hold."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from accounts_client import Visitor
from test_accounts import RELAXED
from web_server import Server, launch

FIXTURE = Path(__file__).parents[1] / "fixture_game"
BIG = {"format": "pesca-deck/1", "cards": [10, 20, 30, 40, 50, 60]}
TWICE = {"format": "pesca-deck/1", "cards": [10, 20, 20, 40, 50]}


def installed_fixture(where: Path) -> str:
    """A path on which the fixture game is an installed distribution (its metadata and entry
    point, its package beside), without building it."""
    info = where / "tavola_pesca-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: tavola-pesca\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[tavola.games]\npesca = pesca.kit:KIT\n")
    return f"{where}:{FIXTURE}"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("editions")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PYTHONPATH", f"{installed_fixture(tmp / 'site')}:"
                                   f"{Path(__file__).parents[2]}")
        srv = launch(tmp / "games.db", proxies=["127.0.0.1"], limits={
            **RELAXED, "editions_per_account": 3, "edition_check_burst": 5,
            "edition_checks_per_minute": 0.01, "edition_save_burst": 8,
            "edition_saves_per_hour": 0.01})
    yield srv
    srv.stop()


def send(visitor: Visitor, method: str, path: str, body: bytes | None = None
         ) -> tuple[int, Any]:
    """Any request, its body as given (the visitor's `call` only sends JSON it encodes)."""
    headers = {"Content-Type": "application/json", "X-Forwarded-For": visitor.address or ""}
    token = visitor.cookie("tabletop_csrf")
    if token:
        headers["X-CSRF-Token"] = token
    request = urllib.request.Request(visitor.base + path, data=body, headers=headers,
                                     method=method)
    try:
        with visitor.opener.open(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def edition(name: str = "Mine", data: Any = None, **more: Any) -> dict[str, Any]:
    return {"game": "pesca", "name": name, "data": BIG if data is None else data, **more}


def test_a_guest_checks_and_reads_the_default_but_saves_nothing(server: Server) -> None:
    guest = Visitor(server.base, "10.9.0.1")
    status, _, found = guest.call("/api/editions/check", {"game": "pesca", "data": TWICE})
    assert status == 200 and found["findings"][0]["where"] == "/cards/2"
    listed = guest.ok("/api/editions?game=pesca")
    assert listed["default"]["name"] == "Shipped reconstruction"
    assert listed["default"]["describe"] == "9 cards, 1 to 9"
    assert guest.ok("/api/editions/default?game=pesca")["cards"] == list(range(1, 10))
    status, _, said = guest.call("/api/editions", edition())
    assert (status, said["code"]) == (401, "sign-in")


def test_an_export_is_the_documented_file(server: Server) -> None:
    ann = Visitor(server.base, "10.9.0.2")
    ann.sign_up("ann_exports")
    made = ann.ok("/api/editions", edition("Exported"))
    request = urllib.request.Request(f"{server.base}/api/editions/{made['id']}?download=1",
                                     headers={"Cookie": ann.cookie_header()})
    with urllib.request.urlopen(request, timeout=30) as answer:
        assert answer.headers["Content-Disposition"].startswith("attachment; filename=")
        assert json.loads(answer.read()) == BIG


def test_hostile_bodies_are_refused_in_words_and_change_nothing(server: Server) -> None:
    ann = Visitor(server.base, "10.9.0.3")
    ann.sign_up("ann_hostile")
    deep: Any = 1
    for _ in range(40):
        deep = [deep]
    cases = [(b"{not json", 400, "bad-json"), (b'{"name": "\xff\xfe"}', 400, "bad-text"),
             (json.dumps(edition(data=deep)).encode(), 400, "bad-json"),
             (json.dumps(edition(name=42)).encode(), 400, "bad-edition"),
             (json.dumps(edition(name="x" * 61)).encode(), 400, "bad-edition"),
             (json.dumps(edition(name="a\u202eb")).encode(), 400, "bad-edition"),
             (json.dumps(edition(visibility="everyone")).encode(), 400, "bad-edition"),
             (json.dumps({**edition(), "game": "chess"}).encode(), 404, "no-editions"),
             (json.dumps(["a", "list"]).encode(), 400, "bad-request"),
             (b'{"game": "pesca", "name": "n", "data": {"cards": [NaN]}}', 400, "bad-json"),
             (json.dumps(edition(data={"format": "pesca-deck/1", "cards": [1] * 5000})
                         ).encode(), 413, "too-large")]
    for body, status, code in cases:
        got, said = send(ann, "POST", "/api/editions", body)
        assert (got, said["code"]) == (status, code), (body[:60], said)
        assert said["message"]
    # a body over the editions' limit is refused on its declared length, before it is read
    host, port = server.base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as s:
        s.sendall(b"POST /api/editions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
                  b"\r\nContent-Length: 3000000\r\n\r\n")
        reply = b""
        while b"too-large" not in reply and (part := s.recv(4096)):
            reply += part
    assert reply.startswith(b"HTTP/1.1 413") and b"limited to 2113536 bytes" in reply
    assert ann.ok("/api/editions?game=pesca")["editions"] == []


def test_wrong_types_in_the_data_are_findings(server: Server) -> None:
    ann = Visitor(server.base, "10.9.0.4")
    ann.sign_up("ann_types")
    for data in ("a string", {"format": "pesca-deck/1", "cards": {"a": 1}},
                 {"format": "pesca-deck/1", "cards": [1, True, "3", None, 4.5]}):
        made = ann.ok("/api/editions", edition(f"Bad {len(str(data))}", data))
        assert made["playable"] is False and made["findings"], data
    status, _, said = ann.call("/api/games", {"game": "pesca", "edition": made["id"],
                                           "seats": [{"kind": "person"},
                                                     {"kind": "bot", "bot": "random"}]})
    assert (status, said["code"]) == (409, "edition-unplayable")


def test_another_accounts_private_edition_is_not_there(server: Server) -> None:
    ann, bob = Visitor(server.base, "10.9.0.5"), Visitor(server.base, "10.9.0.6")
    ann.sign_up("ann_private")
    bob.sign_up("bob_private")
    made = ann.ok("/api/editions", edition("Secret <script>"))
    for method, path, body in (("GET", f"/api/editions/{made['id']}", None),
                               ("PUT", f"/api/editions/{made['id']}",
                                json.dumps(edition("Taken")).encode()),
                               ("DELETE", f"/api/editions/{made['id']}", None)):
        status, said = send(bob, method, path, body)
        assert (status, said["code"]) == (404, "not-found"), method
    assert ann.ok(f"/api/editions/{made['id']}")["name"] == "Secret <script>"


def test_an_account_keeps_a_few_editions(server: Server) -> None:
    ann = Visitor(server.base, "10.9.0.7")
    ann.sign_up("ann_quota")
    made = [ann.ok("/api/editions", edition(f"Deck {i}"))["id"] for i in range(3)]
    status, _, said = ann.call("/api/editions", edition("One too many"))
    assert (status, said["code"]) == (429, "too-many-editions")
    assert "at most 3 editions" in said["message"]
    assert send(ann, "DELETE", f"/api/editions/{made[0]}")[0] == 200
    assert ann.ok("/api/editions", edition("Room again"))["version"] == 1


def test_saves_and_checks_are_rate_limited(server: Server) -> None:
    ann = Visitor(server.base, "10.9.0.8")
    ann.sign_up("ann_rates")
    made = ann.ok("/api/editions", edition("Often"))
    answers = [send(ann, "PUT", f"/api/editions/{made['id']}",
                    json.dumps(edition("Often")).encode()) for _ in range(8)]
    assert [s for s, _ in answers].count(429) >= 1
    assert answers[-1][1]["code"] == "rate-limited"
    assert ann.ok(f"/api/editions/{made['id']}")["version"] < 9
    checker = Visitor(server.base, "10.9.0.9")
    codes = [checker.call("/api/editions/check", {"game": "pesca", "data": BIG})[0]
             for _ in range(6)]
    assert codes[:5] == [200] * 5 and codes[5] == 429


def test_a_game_is_created_on_an_edition_from_the_lobby(server: Server) -> None:
    ann = Visitor(server.base, "10.9.0.10")
    ann.sign_up("ann_plays")
    made = ann.ok("/api/editions", edition("Big deck", visibility="public"))
    game = ann.ok("/api/games", {"game": "pesca", "edition": made["id"], "public": True,
                                 "seats": [{"kind": "person"}, {"kind": "person"}]})
    lobby = Visitor(server.base, "10.9.0.11").ok("/api/games")
    [line] = [g for g in lobby["open"] if g["id"] == game["id"]]
    assert line["edition"] == "Big deck"


def test_only_an_editions_request_may_be_larger_than_a_move(server: Server) -> None:
    guest = Visitor(server.base, "10.9.0.12")
    body = b'{"game": "pesca", "data": ' + json.dumps(BIG).encode() + b" " * 100_000 + b"}"
    status, found = send(guest, "POST", "/api/editions/check", body)
    assert (status, found["playable"]) == (200, True)
    status, said = send(guest, "POST", "/api/games", body)
    assert (status, said["code"]) == (413, "too-large")
    assert "16384 bytes" in said["message"]


def test_the_command_line_checks_an_edition_file_as_the_server_does(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": f"{installed_fixture(tmp_path / 'site')}:"
                                       f"{Path(__file__).parents[2]}"}

    def editions(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "tavola", "editions", *args], env=env,
                              capture_output=True, text=True, timeout=120)

    made = editions("default", "--game", "pesca")
    assert made.returncode == 0 and json.loads(made.stdout)["cards"] == list(range(1, 10))
    good, bad, broken = tmp_path / "good.json", tmp_path / "bad.json", tmp_path / "broken.json"
    good.write_text(json.dumps(BIG))
    bad.write_text(json.dumps(TWICE))
    broken.write_text("{not json")
    said = editions("check", "--game", "pesca", str(good))
    assert said.returncode == 0 and "playable: 6 cards, 10 to 60" in said.stdout
    said = editions("check", "--game", "pesca", str(bad))
    assert said.returncode == 1 and "/cards/2: Card 3 (20) is in the deck twice." in said.stdout
    assert editions("check", "--game", "pesca", str(broken)).returncode == 2
    schema = editions("schema", "--game", "pesca")
    assert json.loads(schema.stdout)["properties"]["format"] == {"const": "pesca-deck/1"}
    unknown = editions("check", "--game", "chess", str(good))
    assert unknown.returncode == 2 and "unknown game 'chess'" in unknown.stderr
