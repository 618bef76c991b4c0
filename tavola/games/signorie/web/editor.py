"""The component editor's server side: the table an edition draws, and its balance check.

The editor (`static/editor.js`) draws each part being edited with the table's own drawing code,
from the table the server builds of the data (`POST /api/signorie/edition/table`), so no game
fact is written in the page. The balance check plays bot games on the data in a worker process,
never on the server's event loop, one check at a time per account (or address), rate limited,
and the page polls its progress (`/api/signorie/balance`).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import secrets
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from tavola.collector import tune
from tavola.editions import canonical
from tavola.web.errors import ClientError
from tavola.web.limits import RateLimiter

from .. import text
from ..balance import Facts, Job, Run, play_facts
from ..balance_report import report
from ..edition import EDITION
from ..engine import game_tables
from ..places import place_names, reading_order
from .wire import table_json

#: Games of a balance check when the page names none, and the most it may ask for.
BALANCE_GAMES, BALANCE_MAX_GAMES = 200, 1000
#: Balance checks an account (or address) may start: a burst of 3, then one every 2 minutes.
BALANCE_RATE, BALANCE_BURST = 1 / 120, 3
#: Balance checks running at once on the whole server (they share one worker process).
BALANCE_RUNNING = 2
#: How long a finished check's report stays to be read.
BALANCE_KEPT_SECONDS = 600.0
#: How long a worker process is given to exit once ended, when the server stops.
WORKER_EXIT_SECONDS = 10.0
#: The heuristic bots of a check, alternating round the table (as the balance report's).
BALANCE_BOTS = ("greedy", "planner")


def edition_table(data: Any) -> dict[str, Any]:
    """The findings of the data and, when it has none, the table it draws (as the table page
    is sent it); and, whatever the data, every place's name in the reader's words and the
    lists the printed material reads in another order (`places`)."""
    findings = EDITION.check(data)
    words = _words(data)
    if findings:
        return {"findings": [f.as_json() for f in findings], "table": None, **words}
    return {"findings": [], "table": table_json(game_tables({"components": data})[0]), **words}


def _words(data: Any) -> dict[str, Any]:
    """The places' names and printed orders of data the checks could read (none of a file too
    large or too deep to be a component file)."""
    try:
        if len(canonical(data)) > EDITION.max_bytes:
            return {"names": {}, "order": {}}
        return {"names": place_names(data), "order": reading_order(data)}
    except (TypeError, ValueError, RecursionError):
        return {"names": {}, "order": {}}


@dataclass
class BalanceCheck:
    """One check: its games on one edition, played in the worker, then its report."""

    id: str
    owner: str
    games: int
    players: int
    options: dict[str, Any]
    edition: str = ""  # its name and version, for the report ("" for data saved as none)
    facts: list[Facts] = field(default_factory=list)
    started: float = field(default_factory=time.monotonic)
    seconds: float = 0.0
    report: str | None = None
    error: str | None = None
    ended: float | None = None

    def as_json(self) -> dict[str, Any]:
        return {"id": self.id, "games": self.games, "players": self.players,
                "done": len(self.facts), "seconds": round(self.seconds or
                                                          time.monotonic() - self.started, 1),
                "finished": self.ended is not None, "report": self.report, "error": self.error}


class BalanceChecks:
    """The balance checks of one server: bounded per owner, on the whole server, in time."""

    def __init__(self, *, workers: int = 1) -> None:
        self.workers = workers
        self.rate = RateLimiter(BALANCE_RATE, BALANCE_BURST)
        self.checks: dict[str, BalanceCheck] = {}
        self._pool: ProcessPoolExecutor | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    def start(self, owner: str, body: Any, edition: tuple[str, int] | None = None
              ) -> BalanceCheck:
        """A new check from the page's request (`data`, `games`, `players`) on the data of
        `edition` (its name and version; None: data saved as no edition); ClientError names
        why not: bad data, a check of the owner's still running, too many checks."""
        self._forget_old()
        data, games, players = _read_request(body)
        if any(c.owner == owner and c.ended is None for c in self.checks.values()):
            raise ClientError("waiting", text.say("balance.one-at-a-time"))
        if sum(c.ended is None for c in self.checks.values()) >= BALANCE_RUNNING:
            raise ClientError("server-full", text.say("balance.busy"))
        findings = EDITION.check(data)
        if findings:
            raise ClientError("bad-edition", text.say("balance.findings", n=len(findings)))
        self.rate.check(owner, text.say("balance.what"))
        check = BalanceCheck(secrets.token_urlsafe(12), owner, games, players,
                             EDITION.options(data), _edition_words(edition))
        self.checks[check.id] = check
        task = asyncio.get_running_loop().create_task(self._run(check))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return check

    def get(self, owner: str, check_id: str) -> BalanceCheck:
        check = self.checks.get(check_id)
        if check is None or check.owner != owner:
            raise ClientError("not-found", text.say("balance.not-found"))
        return check

    def pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(self.workers, initializer=tune,
                                             mp_context=multiprocessing.get_context("spawn"))
        return self._pool

    def close(self) -> None:
        """The server stops: the checks still running are dropped with their waiting games,
        and the worker processes are ended rather than waited for game by game."""
        for task in self._tasks:
            task.cancel()
        pool, self._pool = self._pool, None
        if pool is None:
            return
        workers = list((pool._processes or {}).values())  # Python 3.14: terminate_workers()
        pool.shutdown(wait=False, cancel_futures=True)
        for worker in workers:
            worker.terminate()
        for worker in workers:
            worker.join(WORKER_EXIT_SECONDS)

    async def _run(self, check: BalanceCheck) -> None:
        loop = asyncio.get_running_loop()
        jobs: list[Job] = [(check.players, seed, BALANCE_BOTS, None, check.options)
                           for seed in range(check.games)]
        try:
            pool = self.pool()
            for done in asyncio.as_completed([loop.run_in_executor(pool, play_facts, job)
                                              for job in jobs]):
                check.facts.append(await done)
            check.seconds = time.monotonic() - check.started
            run = Run(" and ".join(BALANCE_BOTS), check.players, check.facts, check.seconds,
                      game_tables(check.options)[0])
            check.report = report(run, check.edition)  # in the starting request's language
        except Exception as exc:  # a worker that died: the page says so, the server goes on
            check.error = text.say("balance.failed", error=type(exc).__name__)
        finally:
            check.ended = time.monotonic()

    def _forget_old(self) -> None:
        now = time.monotonic()
        for key, check in list(self.checks.items()):
            if check.ended is not None and now - check.ended > BALANCE_KEPT_SECONDS:
                del self.checks[key]


def _edition_words(edition: tuple[str, int] | None) -> str:
    if edition is None:
        return text.say("report.unsaved")
    name, version = edition
    return text.say("report.edition", name=name, version=version) if version else name


def _read_request(body: Any) -> tuple[Any, int, int]:
    if not isinstance(body, dict) or "data" not in body:
        raise ClientError("bad-request", text.say("balance.no-data"))
    games, players = body.get("games", BALANCE_GAMES), body.get("players", 4)
    if not isinstance(games, int) or isinstance(games, bool) or \
            not 1 <= games <= BALANCE_MAX_GAMES:
        raise ClientError("bad-request", text.say("balance.games", most=BALANCE_MAX_GAMES))
    if players not in (2, 3, 4) or isinstance(players, bool):
        raise ClientError("bad-request", text.say("balance.players"))
    return body["data"], games, players
