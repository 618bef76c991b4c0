"""Operations: the probes (/healthz, /readyz), Prometheus' /metrics and who may read it, the
metrics of several worker processes, and the log as JSON lines. Real servers (uvicorn in its own
process), as `tavola serve` runs them."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets
from prometheus_client.parser import text_string_to_metric_families
from web_server import Server, launch

from tavola.web.loadbench import free_port, http_json, play_seat, start_redis, start_server
from tavola.web.logs import GAME_ID, REQUEST_ID, JsonLines

PERSON_AND_BOT = {"game": "gonzaga", "seats": [{"kind": "person"},
                                               {"kind": "bot", "bot": "greedy"}]}
PEOPLE = {"game": "gonzaga", "seats": [{"kind": "person"}, {"kind": "person"}]}
WIDE = 60.0  # seconds a test waits for what should take one (a loaded machine)


def get(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    """Status, headers and body of a GET, whatever the status."""
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=WIDE) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read()


def samples(text: bytes) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of a /metrics answer, parsed by the library's own parser."""
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text.decode())
            for s in family.samples}


def total(found: dict[tuple[str, Any], float], name: str, **labels: str) -> float:
    """The sum of `name`'s samples whose labels include `labels`."""
    return sum(value for (n, have), value in found.items()
               if n == name and set(labels.items()) <= set(have))


def scrape(base: str, headers: dict[str, str] | None = None) -> dict[tuple[str, Any], float]:
    status, _, body = get(f"{base}/metrics", headers)
    assert status == 200, body
    return samples(body)


def wait_for(check: Any, what: str, seconds: float = WIDE) -> Any:
    deadline = time.monotonic() + seconds
    while True:
        found = check()
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {seconds} s: {what}")
        time.sleep(0.2)


def play(base: str, body: dict[str, Any]) -> dict[str, Any]:
    """A game created and its person's seat played to the end; the last view."""
    game = http_json(f"{base}/api/games", body)
    token = game["seats"][0]["link"].split("#", 1)[1]
    url = base.replace("http", "ws", 1) + f"/ws/{game['id']}"
    return asyncio.run(asyncio.wait_for(play_seat(url, token, random.Random(1)), 180))


# -- the probes and the metrics ----------------------------------------------------------------


def test_healthz_and_readyz_answer_while_all_is_well(server: Server) -> None:
    status, _, body = get(f"{server.base}/healthz")
    assert status == 200 and json.loads(body) == {"status": "ok"}
    status, _, body = get(f"{server.base}/readyz")
    assert status == 200 and json.loads(body) == {"status": "ready", "checked": ["database"]}


def test_metrics_count_a_played_game_its_bot_decisions_and_a_refused_move(
        server: Server) -> None:
    before = scrape(server.base)
    final = play(server.base, PERSON_AND_BOT)
    game = http_json(f"{server.base}/api/games", PEOPLE)  # no bot moves in it meanwhile
    url = f"{server.ws}/ws/{game['id']}"

    async def refused() -> dict[str, Any]:
        async with websockets.connect(url) as ws:
            await ws.send(json.dumps({"type": "act", "action": {}}))  # before its hello
            return json.loads(await ws.recv())
    assert asyncio.run(refused())["code"] == "hello-first"
    after = scrape(server.base)

    def moved(name: str, **labels: str) -> float:
        return total(after, name, **labels) - total(before, name, **labels)
    seq = final["seq"]
    people = moved("tavola_moves_total", game="gonzaga", by="person")
    bots = moved("tavola_moves_total", game="gonzaga", by="bot")
    assert people >= 1 and bots >= 1 and people + bots == seq  # every move once
    assert moved("tavola_move_seconds_count", game="gonzaga") == seq
    assert moved("tavola_bot_decision_seconds_count", game="gonzaga", level="greedy") >= bots
    assert moved("tavola_store_seconds_count", operation="append") >= seq
    assert moved("tavola_client_errors_total", code="hello-first") == 1
    assert total(after, "tavola_games_live", game="gonzaga") >= 1  # the new game is live
    assert ("tavola_connections_open", ()) in after


def test_metrics_are_read_from_loopback_not_through_a_proxy_or_with_the_token(
        tmp_path: Path) -> None:
    """Behind a trusted proxy (here: loopback itself) uvicorn takes the client's address from
    X-Forwarded-For, so a request through the proxy is not loopback: only the token reads."""
    token = "s3cret-token-for-the-test"
    srv = launch(tmp_path / "games.db", proxies=["127.0.0.1"],
                 extra=["--metrics-token", token])
    try:
        base = f"{srv.base}/metrics"
        assert get(base)[0] == 200  # from loopback, straight
        for forwarded in ({"X-Forwarded-For": "203.0.113.7"},
                          {"X-Forwarded-For": "127.0.0.1"},  # a client claiming loopback
                          {"Forwarded": "for=127.0.0.1"}, {"X-Real-IP": "127.0.0.1"}):
            status, _, body = get(base, forwarded)
            assert status == 403 and json.loads(body)["code"] == "forbidden", forwarded
            assert get(base, {**forwarded, "Authorization": "Bearer wrong"})[0] == 403
            assert get(base, {**forwarded, "Authorization": f"Basic {token}"})[0] == 403
            assert get(base, {**forwarded, "Authorization": f"Bearer {token}"})[0] == 200
        # the probes answer anyone: a load balancer asks them through the proxy
        assert get(f"{srv.base}/healthz", {"X-Forwarded-For": "203.0.113.7"})[0] == 200
    finally:
        srv.stop()


def test_without_a_token_metrics_are_for_loopback_only(server: Server) -> None:
    headers = {"X-Forwarded-For": "203.0.113.7", "Authorization": "Bearer "}
    assert get(f"{server.base}/metrics", headers)[0] == 403


# -- readiness: what is down is named -----------------------------------------------------------


def test_readyz_names_the_database_when_postgresql_is_stopped(tmp_path: Path) -> None:
    from pgcluster import pg_bindir, start_cluster

    bindir = pg_bindir()
    if bindir is None:
        if os.environ.get("CI") == "true":
            pytest.fail("PostgreSQL (initdb, pg_ctl) is missing")
        pytest.skip("PostgreSQL is not installed")
    cluster = start_cluster(bindir)  # its own: this test stops it
    srv = None
    try:
        srv = launch(cluster.new_database())
        status, _, body = get(f"{srv.base}/readyz")
        assert status == 200, body

        def ready(want: int) -> dict[str, Any] | None:
            status, _, body = get(f"{srv.base}/readyz")
            return json.loads(body) if status == want else None
        # a stuck database (its postmaster stopped: new connections hang) answers 503 in time
        postmaster = int((cluster.folder / "data" / "postmaster.pid").read_text().split()[0])
        os.kill(postmaster, signal.SIGSTOP)
        try:
            answer = wait_for(lambda: ready(503), "/readyz says 503 while PostgreSQL hangs")
            assert answer["down"] == {"database": "no answer within 2 s"}
            began = time.monotonic()
            assert get(f"{srv.base}/readyz")[0] == 503
            assert time.monotonic() - began < 10  # answered, not hung on the database
        finally:
            os.kill(postmaster, signal.SIGCONT)
        wait_for(lambda: ready(200), "/readyz says 200 again")
        cluster.stop()
        answer = wait_for(lambda: ready(503), "/readyz says 503")
        assert answer == {"status": "down", "down": {"database": "unreachable"}}
        assert get(f"{srv.base}/healthz")[0] == 200  # alive all the same
    finally:
        if srv is not None:
            srv.stop()
        cluster.stop()


@pytest.fixture()
def redis_url(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    if shutil.which("redis-server") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("redis-server is not installed; .ci/run installs it")
        pytest.skip("redis-server is not installed")
    proc, url = start_redis(tmp_path)
    yield proc, url
    if proc.poll() is None:
        proc.terminate()
        proc.wait(10)


def test_readyz_names_redis_when_it_is_stopped(tmp_path: Path, redis_url: Any) -> None:
    redis, url = redis_url
    port = free_port()
    proc = start_server(port, tmp_path / "games.db", redis=url, workers=1)
    base = f"http://127.0.0.1:{port}"
    try:
        status, _, body = get(f"{base}/readyz")
        assert status == 200 and json.loads(body)["checked"] == ["database", "redis"]
        redis.terminate()
        redis.wait(10)

        def down() -> dict[str, Any] | None:
            status, _, body = get(f"{base}/readyz")
            return json.loads(body) if status == 503 else None
        assert set(wait_for(down, "/readyz says 503")["down"]) == {"redis"}
    finally:
        proc.terminate()
        proc.wait(20)


# -- several worker processes -------------------------------------------------------------------


def test_every_worker_answers_metrics_for_all_of_them(tmp_path: Path, redis_url: Any) -> None:
    """`serve(workers=2)`: connections held by both processes are counted whichever answers,
    and the moves of a game played through both are counted once each."""
    _, url = redis_url
    port = free_port()
    proc = start_server(port, tmp_path / "games.db", redis=url, workers=2)
    base = f"http://127.0.0.1:{port}"
    try:
        final = play(base, PERSON_AND_BOT)
        game = http_json(f"{base}/api/games", PEOPLE)  # no bot moves meanwhile
        opened = 8  # the kernel spreads them over both processes

        async def hold() -> list[dict[str, Any]]:
            sockets = [await websockets.connect(f"ws://127.0.0.1:{port}/ws/{game['id']}")
                       for _ in range(opened)]
            try:
                deadline = time.monotonic() + WIDE  # until both processes counted theirs
                while total(scrape(base), "tavola_connections_open") != opened \
                        and time.monotonic() < deadline:
                    await asyncio.sleep(0.2)
                return [scrape(base) for _ in range(6)]  # several answers, by either process
            finally:
                for ws in sockets:
                    await ws.close()
        answers = asyncio.run(hold())
        for found in answers:
            assert total(found, "tavola_connections_open") == opened
            assert total(found, "tavola_moves_total", game="gonzaga") == final["seq"]
    finally:
        proc.terminate()
        proc.wait(30)


def test_a_dead_processes_live_gauges_are_dropped_and_its_counters_kept(tmp_path: Path) -> None:
    """What `serve(workers=N)` relies on when a worker dies: a process that wrote a gauge and
    a counter in the shared folder is gone; the next reading drops its gauge only."""
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(tmp_path)}
    script = ("from tavola.web import metrics\n"
              "metrics.CONNECTIONS.inc(3)\n"
              "metrics.MOVES.labels('gonzaga', 'person').inc(5)\n"
              "import os; print(os.getpid())\n")
    writer = subprocess.run([sys.executable, "-c", script], env=env, check=True,
                            capture_output=True, text=True).stdout.strip()
    assert (tmp_path / f"gauge_livesum_{writer}.db").exists()
    read = ("from tavola.web import metrics\n"
            "import sys; sys.stdout.buffer.write(metrics.metrics_text())\n")
    found = samples(subprocess.run([sys.executable, "-c", read], env=env, check=True,
                                   capture_output=True).stdout)
    assert total(found, "tavola_moves_total") == 5
    assert total(found, "tavola_connections_open") == 0  # the writer died: gone
    assert not (tmp_path / f"gauge_livesum_{writer}.db").exists()
    assert (tmp_path / f"counter_{writer}.db").exists()


# -- the log ------------------------------------------------------------------------------------


def test_json_log_has_a_line_per_request_with_its_request_id(tmp_path: Path) -> None:
    with tempfile.TemporaryFile() as log:
        srv = launch(tmp_path / "games.db", extra=["--log-format", "json"], log=log)
        try:
            get(f"{srv.base}/unsubscribe/the-secret-of-a-mail")
            game = http_json(f"{srv.base}/api/games", PEOPLE)
            status, headers, _ = get(f"{srv.base}/healthz")
            assert status == 200
            request_id = headers["x-request-id"]

            def logged() -> list[dict[str, Any]]:
                log.seek(0)
                lines = [json.loads(line) for line in log.read().decode().splitlines()]
                return [line for line in lines if line.get("request_id") == request_id]
            (line,) = wait_for(logged, "the request's line")
        finally:
            srv.stop()
        log.seek(0)
        text = log.read().decode()
        every = [json.loads(line) for line in text.splitlines()]
    assert "the-secret-of-a-mail" not in text
    (created,) = [e for e in every if e.get("game_id") == game["id"]]
    assert created["message"] == "game created: gonzaga, 2 seats"
    assert created["logger"] == "tavola.web" and created["request_id"]  # the POST's
    assert any(entry.get("path") == "/unsubscribe/..." for entry in every)
    assert line["logger"] == "uvicorn.access" and line["level"] == "INFO"
    assert line["path"] == "/healthz" and line["status"] == 200 and line["method"] == "GET"
    assert "/healthz" in line["message"] and line["time"].endswith("+00:00")
    assert all({"time", "level", "logger", "message"} <= set(entry) for entry in every)
    assert any(entry["logger"].startswith("uvicorn.error") for entry in every)


def test_a_json_line_names_the_game_it_happened_in() -> None:
    record = logging.LogRecord("tavola.web", logging.ERROR, __file__, 1, "bot %s failed",
                               (1,), None)
    token, request = GAME_ID.set("abc123"), REQUEST_ID.set(None)
    try:
        line = json.loads(JsonLines().format(record))
    finally:
        GAME_ID.reset(token)
        REQUEST_ID.reset(request)
    assert line["game_id"] == "abc123" and line["message"] == "bot 1 failed"
    assert "request_id" not in line and line["level"] == "ERROR"


def test_live_games_count_games_in_memory_once_each(tmp_path: Path) -> None:
    """`tavola_games_live` follows the rooms in memory: up when a game is created or loaded,
    down when it leaves memory, never twice for one game."""
    from prometheus_client import REGISTRY

    from tavola.web.app import GameServer, Limits
    from tavola.web.site import load_sites
    from tavola.web.storage import SqliteStore

    def live() -> float:
        return REGISTRY.get_sample_value("tavola_games_live", {"game": "gonzaga"}) or 0.0
    store = SqliteStore(tmp_path / "g.db")
    server = GameServer(store, load_sites(["gonzaga"]), bot_processes=False,
                        limits=Limits(idle_seconds=60))
    start = live()
    room = server.create(PEOPLE)
    server.create(PEOPLE)
    assert live() == start + 2
    server.resume()  # the same unfinished games again: already in memory
    assert live() == start + 2
    assert server.sweep(time.monotonic() + 61) == 2
    assert live() == start
    assert server.room(room.id) is not None  # loaded again
    assert live() == start + 1
    asyncio.run(server.shutdown())
    assert live() == start
    store.close()
