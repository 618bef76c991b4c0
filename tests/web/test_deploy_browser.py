"""The deployment of docs/deploy.md, end to end: Debian's nginx with the shipped
`deploy/nginx/tavola.conf` (only its ports, certificate paths and server name changed) and a
self-signed certificate, in front of two `tavola serve` processes on one throwaway PostgreSQL
database and one Redis; a real browser plays a game through https (test_deploy.py checks the
shipped files with nginx -t and systemd). Without nginx, Chromium, PostgreSQL or Redis these
tests skip locally and fail in CI (CI=true), where .ci/run installs them.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import re
import shutil
import socket
import ssl
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
import pytest
import websockets
from browsers import ARGS, CHROMIUM, click, require_browser, shot, sync_api
from nginx_site import NGINX, certificate, main_conf, render, require
from pgcluster import SUPERUSER

from tavola.web.loadbench import free_port, start_redis

GAME = {"seats": [{"kind": "person"}, {"kind": "bot"}]}


# -- the site: nginx, two server processes, PostgreSQL and Redis ----------------------------------


@dataclass
class Site:
    https: int
    http: int
    base: str
    ports: list[int]
    procs: dict[int, subprocess.Popen[bytes]]
    db: str
    redis: str
    folder: Path
    ca: Any

    def context(self) -> ssl.SSLContext:
        """A TLS client context that trusts the site's throwaway CA."""
        ctx = ssl.create_default_context()
        self.ca.configure_trust(ctx)
        return ctx


def start_gonzaga(port: int, db: str, redis: str, log: Path, site_url: str,
                  proxy: bool = True) -> subprocess.Popen[bytes]:
    """`tavola serve` as the unit starts it (bots without delay); waits until it answers."""
    command = [sys.executable, "-c", "from tavola.cli import main; main()", "serve",
               "--host", "127.0.0.1", "--port", str(port), "--db", db, "--redis", redis,
               "--site-url", site_url,
               "--bot-delay", "0", *(["--proxy", "127.0.0.1"] if proxy else [])]
    with log.open("ab") as out:
        proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT,
                                env={**os.environ, "PYTHONUNBUFFERED": "1"})
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"tavola serve exited: {log.read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/lobby", timeout=2):
                return proc
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError(f"tavola serve did not answer within 60 s: {log.read_text()[-2000:]}")


def stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


def start_nginx(folder: Path, conf: Path, port: int) -> subprocess.Popen[bytes]:
    nginx = require(NGINX, "nginx")
    proc = subprocess.Popen([nginx, "-c", str(conf), "-p", str(folder), "-e",
                             str(folder / "error.log"), "-g", "daemon off;"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"nginx exited: {(folder / 'error.log').read_text()[-2000:]}")
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return proc
        time.sleep(0.1)
    proc.kill()
    raise RuntimeError("nginx did not listen within 30 s")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, pg_cluster: Any) -> Iterator[Site]:
    require(NGINX, "nginx")
    require(shutil.which("redis-server"), "redis-server")
    folder = tmp_path_factory.mktemp("deploy")
    ca, chain, key = certificate(folder)
    redis_proc, redis = start_redis(folder)
    # over PostgreSQL's local socket, as docs/deploy.md connects (there with peer authentication)
    name = pg_cluster.new_database().rsplit("/", 1)[1]
    db = f"postgresql://{SUPERUSER}@/{name}?host={pg_cluster.folder}&port={pg_cluster.port}"
    https, http_port, ports = free_port(), free_port(), [free_port(), free_port()]
    base = f"https://127.0.0.1:{https}"
    procs: dict[int, subprocess.Popen[bytes]] = {}
    nginx = None
    try:
        for port in ports:
            procs[port] = start_gonzaga(port, db, redis, folder / f"gonzaga-{port}.log", base)
        conf = main_conf(folder, render(chain, key, {443: https, 80: http_port,
                                                     8001: ports[0], 8002: ports[1]},
                                        "127.0.0.1"))
        nginx = start_nginx(folder, conf, https)
        yield Site(https, http_port, base, ports, procs, db, redis, folder, ca)
    finally:
        if nginx is not None:
            stop(nginx)
        for proc in procs.values():
            stop(proc)
        redis_proc.terminate()
        redis_proc.wait(10)


def request(site: Site, method: str, path: str, body: Any = None, *,
            headers: dict[str, str] | None = None, source: str = "127.0.0.1",
            port: int | None = None) -> tuple[int, http.client.HTTPResponse, bytes]:
    """One request from the client address `source` (any 127.x.y.z is this machine): to nginx
    over https, or with `port` straight to that server process over http."""
    if port is None:
        conn: http.client.HTTPConnection = http.client.HTTPSConnection(
            "127.0.0.1", site.https, context=site.context(), timeout=30,
            source_address=(source, 0))
    else:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30,
                                          source_address=(source, 0))
    data = None if body is None else json.dumps(body).encode()
    try:
        conn.request(method, path, body=data, headers={"Content-Type": "application/json",
                                                       **(headers or {})})
        response = conn.getresponse()
        return response.status, response, response.read()
    finally:
        conn.close()


def creators(site: Site) -> list[str]:
    with psycopg.connect(site.db) as conn:
        return [a for (a,) in conn.execute(
            "SELECT creator_address FROM games ORDER BY created, id")]


# -- the game in the browser ----------------------------------------------------------------------


class Watcher(threading.Thread):
    """A spectator of one game connected straight to one server process: every view it is
    sent, until the game's end."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.url = url
        self.views: list[dict[str, Any]] = []
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            asyncio.run(asyncio.wait_for(self._watch(), 300))
        except BaseException as exc:  # reported by the test
            self.error = exc

    async def _watch(self) -> None:
        async with websockets.connect(self.url, max_size=1 << 24) as ws:
            await ws.send(json.dumps({"type": "hello"}))
            while True:
                msg = json.loads(await ws.recv())
                if msg["type"] == "state":
                    self.views.append(msg)
                    if msg["phase"] == "over":
                        return


def play_to_the_end(page: Any, errors: list[str]) -> int:
    """Plan and donate every turn until the game is over; the turns played."""
    turns = 0
    while True:
        page.wait_for_function(
            "document.querySelector('#plan-go') || document.querySelector('#donate') "
            "|| !document.querySelector('#end').hidden", timeout=30000)
        if page.evaluate("!document.querySelector('#end').hidden"):
            return turns
        seq = int(page.evaluate("document.body.dataset.seq"))
        control = "#plan-go" if page.query_selector("#plan-go") else "#donate"
        if control == "#plan-go":
            click(page, "#region-cards button:not([disabled])", errors)
            click(page, "#action-cards button:not([disabled]):not(#privilege)", errors)
        click(page, control, errors)
        turns += 1
        page.wait_for_function(f"Number(document.body.dataset.seq) > {seq} "
                               f"&& (!document.querySelector({control!r}) "
                               f"|| !document.querySelector('#end').hidden)", timeout=30000)


def test_a_game_against_a_bot_through_nginx_over_https(site: Site) -> None:
    """Pages, the API and the game's WebSocket all through nginx and TLS; the session cookie
    Secure, HttpOnly and SameSite; the moves seen by a spectator on each server process (one of
    them hears of them through Redis only)."""
    require_browser()
    assert sync_api is not None and CHROMIUM is not None
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            _play(site, browser)
        finally:
            browser.close()


def _play(site: Site, browser: Any) -> None:
    context = browser.new_context(ignore_https_errors=True)  # the test's own CA
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("dialog", lambda d: d.accept())
    page.goto(f"{site.base}/")
    signed = page.request.post(f"{site.base}/api/signup", data={
        "name": "Deployed", "password": "correct horse battery"})
    assert signed.status == 200, signed.text()
    assert "max-age=" in signed.headers["strict-transport-security"]
    [session] = [c for c in context.cookies() if c["name"] == "tabletop_session"]
    assert session["secure"] and session["httpOnly"] and session["sameSite"] == "Lax"
    [csrf] = [c for c in context.cookies() if c["name"] == "tabletop_csrf"]
    assert csrf["secure"] and not csrf["httpOnly"]  # the page reads it, over https only

    page.goto(f"{site.base}/")
    page.wait_for_selector("[data-seat-kind='1'] option", state="attached")
    page.click("#remove-seat")
    page.select_option("[data-seat-kind='1']", "bot:random")
    page.click("#advanced summary")  # a fixed deal (the seed is an advanced choice)
    page.fill("#seed", "11")
    page.click("#create-game")
    page.wait_for_url("**/game/**")
    game_id = page.url.split("/game/")[1].split("#")[0]
    watchers = [Watcher(f"ws://127.0.0.1:{port}/ws/{game_id}") for port in site.ports]
    for watcher in watchers:
        watcher.start()
    turns = play_to_the_end(page, errors)
    shot(page, "deploy-game-over")
    assert page.inner_text("#winner").startswith("Winner: ")
    assert turns >= 14 and errors == []  # 7 rounds at least, a plan and a donation each
    page.close()
    context.close()
    for watcher in watchers:
        watcher.join(120)
        assert watcher.error is None and watcher.views, watcher.error
        assert watcher.views[-1]["phase"] == "over"
        assert len({v["seq"] for v in watcher.views}) > turns // 2  # move by move
    # the browser's WebSocket went through nginx, upgraded
    assert _logged_upgrade(site, game_id), (site.folder / "access.log").read_text()[-2000:]


def _logged_upgrade(site: Site, game_id: str) -> bool:
    """nginx logs a WebSocket when it closes: wait for the line a little."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        log = (site.folder / "access.log").read_text(encoding="utf-8")
        if re.search(rf'"GET /ws/{game_id} HTTP/1\.1" 101 ', log):
            return True
        time.sleep(0.2)
    return False


# -- what nginx adds: redirect, HSTS, /metrics, the client's address, a process down ----------


def test_plain_http_is_sent_to_https_and_metrics_stay_inside(site: Site) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", site.http, timeout=30)
    try:
        conn.request("GET", "/game/abc?x=1", headers={"Host": "127.0.0.1"})
        response = conn.getresponse()
        assert response.status == 301
        assert response.getheader("Location") == "https://127.0.0.1/game/abc?x=1"
    finally:
        conn.close()
    status, response, _ = request(site, "GET", "/api/lobby")
    assert status == 200 and "max-age=" in (response.getheader("Strict-Transport-Security")
                                            or "")
    for path in ("/metrics", "/metrics/", "/metrics?format=prometheus"):
        assert request(site, "GET", path)[0] == 403, path


def test_the_client_is_the_address_nginx_forwards_never_its_own_header(site: Site) -> None:
    """Through nginx (named with --proxy) a client is the address it connects to nginx from,
    whatever X-Forwarded-For it sends; straight to a process, a client not named as a proxy is
    its own address too; and a process without --proxy believes nobody."""
    forged = {"X-Forwarded-For": "203.0.113.9"}
    before = len(creators(site))
    status, _, body = request(site, "POST", "/api/games", GAME, headers=forged,
                              source="127.0.0.5")
    assert status == 200, body
    assert creators(site)[before:] == ["127.0.0.5"]  # not the forged one, not nginx's own
    # the creation limit counts 127.0.0.5 (on each process), and nobody else
    codes = [request(site, "POST", "/api/games", GAME, headers=forged, source="127.0.0.5")[0]
             for _ in range(14)]
    assert 429 in codes and set(codes) <= {200, 429}, codes
    others = [request(site, "POST", "/api/games", GAME, source="127.0.0.6")[0] for _ in range(2)]
    assert others == [200, 200]
    # straight to a process that trusts only 127.0.0.1, from another address
    before = len(creators(site))
    status, _, _ = request(site, "POST", "/api/games", GAME, headers=forged,
                           source="127.0.0.7", port=site.ports[0])
    assert status == 200 and creators(site)[before:] == ["127.0.0.7"]
    # a process without --proxy: every forged address is the one it connects from
    port = free_port()
    lone = start_gonzaga(port, site.db, site.redis, site.folder / "lone.log", site.base,
                         proxy=False)
    try:
        before = len(creators(site))
        codes = [request(site, "POST", "/api/games", GAME, port=port, source="127.0.0.8",
                         headers={"X-Forwarded-For": f"198.51.100.{i}"})[0] for i in range(8)]
        assert codes[:5] == [200] * 5 and 429 in codes[5:], codes
        assert set(creators(site)[before:]) == {"127.0.0.8"}
    finally:
        stop(lone)


def test_a_process_restarted_is_not_missed(site: Site) -> None:
    """One process stopped (as `systemctl restart tavola-web@PORT` does): every new request
    and WebSocket goes to the other one; then it comes back."""
    down = site.ports[1]
    stop(site.procs[down])
    try:
        statuses = [request(site, "GET", "/api/lobby")[0] for _ in range(6)]
        assert statuses == [200] * 6
        status, _, body = request(site, "POST", "/api/games", GAME, source="127.0.0.9")
        assert status == 200, body
        game_id = json.loads(body)["id"]
        assert _first_view(site, game_id)["type"] == "state"
    finally:
        site.procs[down] = start_gonzaga(down, site.db, site.redis,
                                         site.folder / f"gonzaga-{down}.log", site.base)


def _first_view(site: Site, game_id: str) -> dict[str, Any]:
    """The first view a spectator gets over wss:// through nginx."""
    async def watch() -> dict[str, Any]:
        url = f"wss://127.0.0.1:{site.https}/ws/{game_id}"
        async with websockets.connect(url, ssl=site.context(),
                                      origin=site.base) as ws:  # type: ignore[arg-type]
            await ws.send(json.dumps({"type": "hello"}))
            while True:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 30))
                if msg["type"] in ("state", "error"):
                    return msg

    return asyncio.run(watch())
