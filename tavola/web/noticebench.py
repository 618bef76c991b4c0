"""The notification benchmark: your-turn events from many concurrent turn-based games, delivered
to an SMTP server and a webhook receiver on loopback, while the server process is killed with
SIGKILL again and again; then the verdict (nothing lost, nothing twice) and the figures.

`tavola bench --notices` runs it. The parent makes the games (two accounts each, every
account with a confirmed address and a webhook) and runs the receivers; a separate server
process plays: a game whose last "your turn" has been delivered gets its next turn (its
player read the message and came back), so the outbox always holds work, and the process
sends through its own sender. The parent kills that process at random moments and starts it
again; the new process resumes every game from the store and its sender the deliveries.
Every message carries its delivery's key (`Message-ID`, `Idempotency-Key`), by which the
receivers count: a key the database calls sent but no receiver has is lost, a key received
more than once is a duplicate.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

DAY = 86_400
HOST = "bench.invalid"


class Receivers:
    """An SMTP server (aiosmtpd, from the dev extra) and an HTTP server on 127.0.0.1 that note
    each message's key and arrival time."""

    def __init__(self) -> None:
        from aiosmtpd.controller import Controller

        self.arrivals: dict[str, list[float]] = {}
        self._lock = threading.Lock()
        receivers = self

        class Mail:
            async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
                for line in envelope.content.decode(errors="replace").splitlines():
                    if line.lower().startswith("message-id:"):
                        receivers.note("mail:" + line.split(":", 1)[1].strip())
                        break
                return "250 OK"

        class Hook(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                receivers.note("hook:" + str(self.headers.get("Idempotency-Key")))
                self.send_response(204)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Hook)
        self.http.daemon_threads = True
        self.hook_url = f"http://127.0.0.1:{self.http.server_address[1]}/hook"
        with __import__("socket").socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        self.smtp = Controller(Mail(), hostname="127.0.0.1", port=port)
        self.smtp_url = f"smtp://127.0.0.1:{port}"

    def note(self, key: str) -> None:
        with self._lock:
            self.arrivals.setdefault(key, []).append(time.time())

    def start(self) -> None:
        self.smtp.start()
        threading.Thread(target=self.http.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.smtp.stop()
        self.http.shutdown()


# -- the parent ------------------------------------------------------------------------------


def turn_based() -> str:
    """The game played when none is named: the first the registry has without simultaneous
    phases, so each your-turn goes to one seat at a time."""
    from .. import registry

    for name in registry.available():
        if not registry.get(name).info.simultaneous:
            return name
    raise ValueError("no game is played in turns: the notification benchmark needs one")


def _setup(db: str, games: int, hook_url: str, game: str) -> None:
    """`games` 2-player games of `game` between fresh accounts who want every your-turn at
    once by e-mail and webhook."""
    from .account_store import open_account_store
    from .app import GameServer, Limits
    from .loadbench import LOCAL_LIMITS
    from .notices.store import NoticeStore, Settings
    from .site import load_sites
    from .storage import open_store

    store = open_store(db)
    server = GameServer(store, load_sites([game]), bot_processes=False,
                        limits=Limits(**LOCAL_LIMITS))
    accounts = open_account_store(store)
    notices = NoticeStore(store)
    for g in range(games):
        room = server.create({"game": game, "seats": [{"kind": "person"}] * 2,
                              "timing": {"move_seconds": DAY, "misses": 3}})
        for seat in (0, 1):
            user = accounts.add_user(f"p{g}-{seat}", f"p{g}-{seat}", "-")
            assert user is not None
            accounts.hold(room.id, seat, user.id)
            notices.save(Settings(user.id, email=f"p{g}-{seat}@{HOST}", email_verified=True,
                                  webhook=hook_url, webhook_format="json"))
    notices.close()
    accounts.close()
    store.close()


def _worker(db: str, smtp: str, hook: str, events: int, game: str
            ) -> subprocess.Popen[bytes]:
    log = tempfile.TemporaryFile()  # noqa: SIM115 (closed with the process)
    return subprocess.Popen([sys.executable, "-m", "tavola.web.noticebench", db, smtp, hook,
                             str(events), game], stdout=subprocess.DEVNULL, stderr=log,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})


def run_notice_bench(*, games: int = 2000, events: int = 10_000, kills: int = 20,
                     db: str | None = None, seed: int | None = None,
                     kill_after: tuple[float, float] = (1.0, 6.0),
                     game: str | None = None) -> dict[str, Any]:
    """Play `game` (default: `turn_based()`) until `events` your-turn events exist and all are
    delivered, killing the server process `kills` times meanwhile, each a random `kill_after`
    seconds after it started; the verdict and figures."""
    game = game or turn_based()
    rng = random.Random(seed)
    folder = Path(tempfile.mkdtemp(prefix="notice-bench-"))
    db = db or f"sqlite:///{folder / 'games.db'}"
    receivers = Receivers()
    receivers.start()
    try:
        made = time.perf_counter()
        _setup(db, games, receivers.hook_url, game)
        setup_seconds = time.perf_counter() - made
        start = time.perf_counter()
        killed = 0
        proc = _worker(db, receivers.smtp_url, receivers.hook_url, events, game)
        while True:
            if killed < kills:
                # somewhere in the first stretch of the run: every kill lands mid-work
                deadline = time.monotonic() + rng.uniform(*kill_after)
                while time.monotonic() < deadline and proc.poll() is None:
                    time.sleep(0.05)
                if proc.poll() is None:
                    proc.send_signal(signal.SIGKILL)
                    proc.wait()
                    killed += 1
                    proc = _worker(db, receivers.smtp_url, receivers.hook_url, events, game)
                    continue
            code = proc.wait()
            if code == 0:
                break
            raise RuntimeError(f"the server process exited with {code}")
        seconds = time.perf_counter() - start
        time.sleep(0.5)  # the last replies are in; nothing is on its way any more
        return {**_verdict(db, receivers), "game": game, "games": games, "kills": killed,
                "seconds": round(seconds, 1), "setup_seconds": round(setup_seconds, 1)}
    finally:
        receivers.stop()


def _verdict(db: str, receivers: Receivers) -> dict[str, Any]:
    from .notices.store import NoticeStore
    from .storage import open_store

    store = open_store(db)
    tables = NoticeStore(store)
    rows = tables.db.rows("SELECT d.key, d.channel, d.state, o.created FROM deliveries d "
                          "JOIN outbox o ON o.key = d.event WHERE o.kind='turn'")
    turns = tables.db.rows("SELECT COUNT(*), SUM(CASE WHEN state='done' THEN 1 ELSE 0 END) "
                           "FROM outbox WHERE kind='turn'")[0]
    tables.close()
    store.close()
    lost, delays, expected = [], [], set()
    for key, channel, state, created in rows:
        name = ("mail:<" + key.replace(":", ".") + f"@{HOST}>") if channel == "email" \
            else f"hook:{key}"
        expected.add(name)
        got = receivers.arrivals.get(name)
        if state != "sent" or not got:
            lost.append(key)
        else:
            delays.append(got[0] - float(created))
    # a copy sent again after a kill between the other side's acceptance and the mark: it
    # carries its event's key, by which a receiver knows it (counted, never hidden)
    resent = sum(len(v) - 1 for v in receivers.arrivals.values())
    strangers = len(set(receivers.arrivals) - expected)
    delays.sort()
    pick = (lambda q: round(delays[min(len(delays) - 1, int(q * len(delays)))], 3)) \
        if delays else (lambda q: None)
    return {"events": int(turns[0] or 0), "events_delivered": int(turns[1] or 0),
            "deliveries": len(rows), "received": len(delays), "lost": len(lost),
            "resent_same_key": resent, "unknown_received": strangers,
            "delay_p50_s": pick(0.5), "delay_p99_s": pick(0.99),
            "delay_max_s": round(delays[-1], 3) if delays else None,
            "verdict": "ok" if not lost and not strangers else "FAILED"}


# -- the server process ----------------------------------------------------------------------


async def _serve(db: str, smtp: str, hook: str, events: int, game: str) -> None:
    """Resume every game; give each game whose last turn message went out its next turn;
    send meanwhile; stop once `events` turns exist and nothing waits to be sent."""
    from .. import registry
    from .app import GameServer, Limits
    from .loadbench import LOCAL_LIMITS
    from .notices import Config, Notifier
    from .notices.channels import Relay
    from .site import load_sites
    from .storage import open_store

    server = GameServer(open_store(db), load_sites([game]), bot_processes=False,
                        limits=Limits(**LOCAL_LIMITS))
    config = Config(site_url=f"https://{HOST}", relay=Relay.parse(smtp, f"bench@{HOST}"),
                    loopback_webhooks=True, every=0.02, senders=8,
                    per_hour={"email": 0, "webhook": 0},
                    titles={game: registry.get(game).info.title})
    server.notifier = Notifier(server, config)
    server.resume()
    server.notifier.sender.release()  # as `GameServer.start` does for a server alone
    sending = asyncio.get_running_loop().create_task(server.notifier.sender.run_forever())
    rows = server.notifier.store.db.rows
    rng = random.Random()
    while True:
        made = rows("SELECT COUNT(*) FROM outbox WHERE kind='turn'")[0][0]
        busy = {g for (g,) in rows(
            "SELECT game_id FROM outbox WHERE state='new' UNION SELECT o.game_id FROM "
            "deliveries d JOIN outbox o ON o.key = d.event WHERE d.state='pending'")}
        if made >= events:
            if not busy:
                break
            await asyncio.sleep(0.05)
            continue
        ready = [r for g, r in server.rooms.items() if g not in busy and not r.state.is_over]
        if not ready and not busy:
            raise SystemExit("every game is over before the events were made: more --games")
        rng.shuffle(ready)
        for room in ready[:min(200, events - made)]:
            await _turn(server, room, rng)
        await asyncio.sleep(0.01 if ready else 0.05)
    sending.cancel()


async def _turn(server: Any, room: Any, rng: random.Random) -> None:
    """The asked seat plays its whole turn (random legal steps)."""
    from .errors import ClientError

    asked = room.asked()
    if not asked:
        return
    seat = asked[0]
    for _ in range(50):
        if room.state.is_over or seat not in room.asked():
            return
        options = room.game.legal_actions(room.state, seat)
        action = room.game.action_to_json(rng.choice(list(options)))
        try:
            await server.act(room, seat, action, room.seq)
        except ClientError:  # refused (a platform rule): another step is tried
            continue


if __name__ == "__main__":
    asyncio.run(_serve(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]))
    sys.exit(0)
