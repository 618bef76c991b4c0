"""Bot moves in worker processes, so a slow bot never holds up the server or other games.

A worker gets the game's name, its setup and the actions so far (small, picklable), rebuilds
the game through its declaration (`Game.from_setup`), and asks a bot built for that very
decision: its seed comes from the game's bot seed, the seat and the decision open
(`Game.decision_key`: not from the order in which simultaneous moves arrived). A bot's choice is
therefore a pure function of what it sees, which also makes a resumed game continue exactly as
it would have without the restart.

A worker keeps the games it decided in last (`Kept`), so the next decision of a game applies
only the actions since, where it replayed the whole game each time before; a log that no
longer starts with the kept game's (a move taken back, a seat renamed) is replayed from the
deal.

Each decision has a deadline: a worker that has not answered by then is killed and replaced,
so one runaway search can never take a worker from every other game for good. A worker is
replaced only when it is late, gone or abandoned mid-job: one that answered with an error is
alive and in step with its pipe, and keeps working.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Coroutine
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from .. import i18n
from .. import registry as games
from ..bots import make_bot
from ..collector import tune
from ..hints import hint_settings, hints
from ..review import reasons, result_words, review_game, review_settings

DEADLINE = 20.0  # seconds a decision may take; the slowest offered level needs about 2
START_SECONDS = 120.0  # seconds a new worker may take to start (imports, placement tables)
REVIEW_LEVEL = "easy"  # a whole game's review in seconds, not minutes
KEPT_GAMES = 256  # games a worker keeps between decisions (the least recently asked go)


def bot_seed(game_seed: int, seat: int, decision: int) -> int:
    """One seed per seat and decision (`Game.decision_key`)."""
    return (game_seed * 1_000_003 + seat * 10_007 + decision) % 2**63


@dataclass(frozen=True)
class Decision:
    """What a worker needs to decide one move (everything picklable)."""

    game: str
    spec: str
    seed: int
    setup: dict[str, Any]
    history: tuple[Any, ...]
    seat: int
    kind: str = "decide"  # or "hint" (the search's best moves) or "review" (a finished game)
    lang: str = "en"  # a hint's words are in the asker's language
    budget: float = 1.0  # share of a hint's search budget (less when hints are in demand)
    #: for a review, the seat's hints: (actions played when it was given, its moves as JSON)
    hinted: tuple[tuple[int, tuple[Any, ...]], ...] = ()
    game_id: str = ""  # the server's game: a worker keeps it for the next decision ("": not)


class Kept:
    """The games a worker decided in last, each as its setup and its state after the
    actions so far: a game's next decision applies only the actions since."""

    def __init__(self, most: int = KEPT_GAMES) -> None:
        self.most = most
        self._games: OrderedDict[tuple[str, str], tuple[dict[str, Any], Any]] = OrderedDict()
        self.replays = 0  # games rebuilt from their deal (tests and benchmarks read these)
        self.applied = 0  # actions applied

    def take(self, game: Any, job: Decision) -> Any:
        """The game of `job` after its history, taken out of the kept games (a decision of
        the same game at the same time in another thread then builds its own)."""
        kept = self._games.pop((job.game, job.game_id), None) if job.game_id else None
        if kept is not None and kept[0] == job.setup:
            state = kept[1]
            done = len(state.history)
            if tuple(state.history) != job.history[:done]:
                state = None
        else:
            state = None
        if state is None:
            state, done = game.from_setup(job.setup), 0
            self.replays += 1
        for action in job.history[done:]:
            game.apply_in_place(state, action)
            self.applied += 1
        return state

    def keep(self, job: Decision, state: Any) -> None:
        """Keep a game for its next decision (the least recently used go past `most`)."""
        if not job.game_id:
            return
        self._games[(job.game, job.game_id)] = (job.setup, state)
        while len(self._games) > self.most:
            self._games.popitem(last=False)


#: this process's games (a worker's; with threads for workers, the server's)
KEPT = Kept()


def decide(job: Decision) -> Any:
    """The bot's action for the job's seat after its history, computed from the seat's view
    only; for a hint, the search's best moves as JSON."""
    game = games.get(job.game)
    state = KEPT.take(game, job)
    if job.kind == "review":  # the game is over: nothing more to decide in it
        hinted = {at: [game.action_from_json(a) for a in moves] for at, moves in job.hinted}
        return review_json(game, state, job.seat, job.lang, hinted)
    view, legal = game.view(state, job.seat), game.legal_actions(state, job.seat)
    key = game.decision_key(state)
    KEPT.keep(job, state)  # views and legal moves are the bot's own copies
    if job.kind == "hint":
        return hint_json(game, view, legal, job.seed, job.lang, job.budget)
    bot = make_bot(game, job.spec, bot_seed(job.seed, job.seat, key))
    return bot.decide(view, legal)


def hint_json(game: Any, view: Any, legal: Any, seed: int, lang: str, budget: float = 1.0
              ) -> list[dict[str, Any]]:
    """The search's top moves for the viewer, as the page reads them; `budget` is the share
    of the hint search's iterations and time it may use."""
    settings = hint_settings(game, budget)
    with i18n.use(lang):
        return [{"action": game.action_to_json(h.action), "words": h.words, "why": h.why,
                 "lead": round(h.lead, 1), "share": round(h.share, 3),
                 "then": [game.action_to_json(a) for a in h.then]}
                for h in hints(game, view, legal, seed=seed, settings=settings)]


def review_json(game: Any, final: Any, seat: int, lang: str,
                hinted: dict[int, list[Any]] | None = None) -> dict[str, Any]:
    """A finished game reviewed for one seat (`tavola.review`), as the review page reads it;
    `hinted`: the hints' moves by the action's place in the game (`review_game`)."""
    with i18n.use(lang):
        review = review_game(game, final, [seat], review_settings(game, REVIEW_LEVEL),
                             hinted=hinted)
        return {"names": list(review.names), "seat": seat, "level": REVIEW_LEVEL,
                "course": [[round(x, 1) for x in point] for point in review.course],
                "decisions": [{"number": d.number, "round": d.round, "cost": round(d.cost, 1),
                               "played": d.chosen_words, "better": d.best_words,
                               "why": reasons(game, d), "hinted": d.hinted}
                              for d in review.decisions],
                "mistakes": [d.number for d in review.mistakes()],
                "result": result_words(game, final, seat)}


class DecisionTimeout(RuntimeError):
    """A worker did not answer within the deadline (it has been replaced)."""


class BotFailed(RuntimeError):
    """The bot raised or its worker died; the message says which."""


class BotRaised(BotFailed):
    """The bot raised in its worker, which answered so: the worker is alive and kept."""


def prepare_games() -> list[str]:
    """Build what each game's kit says a worker builds first (`GameKit.prepare`), so no first
    decision waits on it; the names of the games prepared."""
    prepared = []
    for declared in games.kits().values():
        if declared.prepare is not None:
            declared.prepare.load()()
            prepared.append(declared.name)
    return prepared


def _worker_main(conn: Connection, server_pid: int) -> None:
    """A worker's life: let every game prepare (Gonzaga builds its placement tables), then
    answer decisions until the pipe closes; end when the server is gone (even killed)."""

    def watch() -> None:
        while os.getppid() == server_pid:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, daemon=True, name="server-watch").start()
    tune()
    prepare_games()
    conn.send(("ready", None))  # its start is over: from now on a deadline is a decision's
    while True:
        try:
            job: Decision = conn.recv()
        except (EOFError, OSError):
            return
        try:
            result: tuple[str, Any] = ("ok", decide(job))
        except Exception as exc:
            result = ("error", f"{type(exc).__name__}: {exc}")
        conn.send(result)


class _Worker:
    """One spawned process and the pipe to it (spawned: none of the server's threads or sockets
    are inherited)."""

    def __init__(self) -> None:
        ctx = multiprocessing.get_context("spawn")
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_worker_main, args=(child, os.getpid()), daemon=True,
                                name="bot-worker")
        self.proc.start()
        child.close()
        self.ready = False  # until it says so (`wait_ready`)

    def wait_ready(self, seconds: float = START_SECONDS) -> None:
        """Blocking: wait for the worker to have started (its games prepared), which is no
        part of any decision's deadline; `BotFailed` if it does not within `seconds`."""
        if self.ready:
            return
        try:
            if not self.conn.poll(seconds):
                raise BotFailed(f"the bot worker did not start within {seconds:g} s")
            status, _ = self.conn.recv()
        except (EOFError, OSError) as exc:
            raise BotFailed(f"the bot worker died starting ({type(exc).__name__})") from None
        if status != "ready":
            raise BotFailed(f"the bot worker started with {status!r}")
        self.ready = True

    def call(self, job: Decision, deadline: float) -> Any:
        """Blocking: send the job and wait for the answer (run in a thread)."""
        self.wait_ready()
        try:
            self.conn.send(job)
            if not self.conn.poll(deadline):
                raise DecisionTimeout(f"no decision within {deadline:g} s")
            status, value = self.conn.recv()
        except (EOFError, OSError, BrokenPipeError) as exc:
            raise BotFailed(f"the bot worker died ({type(exc).__name__})") from None
        if status != "ok":
            raise BotRaised(str(value))
        return value

    def kill(self) -> None:
        with contextlib.suppress(Exception):
            self.proc.kill()
            self.proc.join(5)
        with contextlib.suppress(Exception):
            self.conn.close()

    @property
    def alive(self) -> bool:
        return self.proc.is_alive()


class BotPool:
    """`workers` bot processes; a decision waits for a free one and has `deadline` seconds.

    With `processes=False` decisions run in threads (for tests of the server logic alone);
    a thread cannot be killed, so there the deadline only stops the waiting.
    """

    def __init__(self, workers: int = 2, *, deadline: float = DEADLINE,
                 processes: bool = True) -> None:
        self.deadline = deadline
        self.processes = processes
        self.replaced = 0  # workers killed for missing the deadline, dying or being abandoned
        self.size = workers
        self._workers: list[_Worker] = []
        self._idle: asyncio.Queue[_Worker | None] | None = None  # None: a thread's place
        self._waiting = 0  # decisions waiting for a worker
        self._closed = False  # shut down: a replacement that comes up now is let go

    async def decide(self, job: Decision, deadline: float | None = None) -> Any:
        """The bot's action (or the job's answer), once a worker is free; `DecisionTimeout` /
        `BotFailed`; `deadline` overrides the pool's for a longer job (a review)."""
        idle = self._pool()
        self._waiting += 1
        try:
            worker = await idle.get()
        finally:
            self._waiting -= 1
        return await self._run(worker, job, deadline)

    def decide_now(self, job: Decision, deadline: float | None = None
                   ) -> Coroutine[Any, Any, Any] | None:
        """`decide` on a worker taken at once, to be awaited (it holds the worker until
        then); None when every worker is at work or promised to a waiting decision."""
        if not self.has_free():
            return None
        return self._run(self._pool().get_nowait(), job, deadline)

    def has_free(self) -> bool:
        """A worker is free now and no waiting decision is promised it."""
        return not self._waiting and not self._pool().empty()

    @property
    def at_work(self) -> int:
        """Workers busy with a decision now."""
        return self.size - (self._idle.qsize() if self._idle is not None else self.size)

    async def _run(self, worker: _Worker | None, job: Decision, deadline: float | None
                   ) -> Any:
        deadline = self.deadline if deadline is None else deadline
        back: _Worker | None = worker  # what returns to the idle workers now
        try:
            if worker is None:
                async with asyncio.timeout(deadline):
                    return await asyncio.to_thread(decide, job)
            return await asyncio.to_thread(worker.call, job, deadline)
        except BotRaised:
            raise  # it answered: alive and in step, it stays
        except BaseException:  # late, gone or abandoned: its next answer would be stale
            if worker is not None:
                self._replace(worker)
                back = None
            raise
        finally:
            if worker is None or back is not None:
                self._pool().put_nowait(back)

    def _pool(self) -> asyncio.Queue[_Worker | None]:
        if self._idle is None:
            self._idle = asyncio.Queue()
            for _ in range(self.size):
                worker = _Worker() if self.processes else None
                if worker is not None:
                    self._workers.append(worker)
                self._idle.put_nowait(worker)
        return self._idle

    def start(self) -> None:
        """Start the workers now, so the first bot move does not wait for them."""
        if self.processes:
            self._pool()

    def _replace(self, old: _Worker) -> None:
        """Kill a worker and start another in a thread, off the event loop (a kill waits for
        the process, and a start on a loaded machine takes seconds): the caller hears of its
        failure at once, and the new worker joins the idle ones when it is up."""
        self.replaced += 1
        loop = asyncio.get_running_loop()

        def renew() -> None:
            old.kill()
            new = None if self._closed else _Worker()
            if new is not None:  # handed out once up; if it never starts, its call says so
                with contextlib.suppress(BotFailed):
                    new.wait_ready()
            try:
                loop.call_soon_threadsafe(self._arrived, old, new)
            except RuntimeError:  # the loop has closed: the server is gone
                if new is not None:
                    new.kill()

        threading.Thread(target=renew, daemon=True, name="bot-worker-renew").start()

    def _arrived(self, old: _Worker, new: _Worker | None) -> None:
        """A replacement is up (on the loop): it takes the old worker's place."""
        if new is None:
            return
        if self._closed:
            new.kill()
            return
        self._workers = [new if w is old else w for w in self._workers]
        self._pool().put_nowait(new)

    def pids(self) -> list[int]:
        return [w.proc.pid for w in self._workers if w.proc.pid is not None]

    async def shutdown(self) -> None:
        self._closed = True
        for worker in self._workers:
            worker.kill()
        self._workers = []
