"""Bot moves in worker processes, so a slow bot never holds up the server or other games.

A worker gets the deal and the actions so far (small, picklable), rebuilds the game with the
engine, and asks a bot built for that very decision: its seed comes from the game's bot seed,
the seat, the round and the turn (not from the order in which simultaneous plans arrived). A
bot's choice is therefore a pure function of what it sees, which also makes a resumed game
continue exactly as it would have without the restart.

Each decision has a deadline: a worker that has not answered by then is killed and replaced,
so one runaway search can never take a worker from every other game for good.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from ..actions import Action
from ..board import load_board
from ..bots import make_bot
from ..engine import apply_in_place, legal_actions, new_game, view
from ..state import Phase, Setup

DEADLINE = 20.0  # seconds a decision may take; the slowest offered level needs about 2


def bot_seed(game_seed: int, seat: int, round_: int, turn: int) -> int:
    """One seed per decision; `turn` is -1 while planning."""
    return (game_seed * 1_000_003 + seat * 10_007 + round_ * 101 + turn + 1) % 2**63


@dataclass(frozen=True)
class Decision:
    """What a worker needs to decide one move (everything picklable)."""

    spec: str
    seed: int
    setup: Setup
    variants: tuple[str, ...]
    history: tuple[Action, ...]
    seat: int


def decide(spec: str, seed: int, setup: Setup, variants: Sequence[str],
           history: Sequence[Action], seat: int) -> Action:
    """The bot's action for `seat` after `history` on the shipped board, computed from the
    seat's view only."""
    state = new_game(setup=setup, board=load_board(), variants=variants)
    for action in history:
        apply_in_place(state, action)
    turn = state.turn if state.phase is Phase.PLACING else -1
    bot = make_bot(spec, bot_seed(seed, seat, state.round, turn))
    return bot.decide(view(state, seat), legal_actions(state, seat))


class DecisionTimeout(RuntimeError):
    """A worker did not answer within the deadline (it has been replaced)."""


class BotFailed(RuntimeError):
    """The bot raised or its worker died; the message says which."""


def _worker_main(conn: Connection, server_pid: int) -> None:
    """A worker's life: build the placement tables once, then answer decisions until the pipe
    closes; end when the server is gone (even killed with SIGKILL)."""
    from ..placement import placement_tables

    def watch() -> None:
        while os.getppid() == server_pid:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, daemon=True, name="gonzaga-server-watch").start()
    placement_tables(load_board()).fiefs  # noqa: B018
    while True:
        try:
            job: Decision = conn.recv()
        except (EOFError, OSError):
            return
        try:
            result: tuple[str, Any] = ("ok", decide(job.spec, job.seed, job.setup, job.variants,
                                                    job.history, job.seat))
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
                                name="gonzaga-bot")
        self.proc.start()
        child.close()

    def call(self, job: Decision, deadline: float) -> Action:
        """Blocking: send the job and wait for the answer (run in a thread)."""
        try:
            self.conn.send(job)
            if not self.conn.poll(deadline):
                raise DecisionTimeout(f"no decision within {deadline:g} s")
            status, value = self.conn.recv()
        except (EOFError, OSError, BrokenPipeError) as exc:
            raise BotFailed(f"the bot worker died ({type(exc).__name__})") from None
        if status != "ok":
            raise BotFailed(str(value))
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
        self.replaced = 0  # workers killed for missing the deadline or dying
        self._workers: list[_Worker] = []
        self._idle: asyncio.Queue[_Worker] | None = None
        self._threads = asyncio.Semaphore(workers) if not processes else None
        self._count = workers

    async def decide(self, job: Decision) -> Action:
        """The bot's action, or `DecisionTimeout` / `BotFailed`."""
        if not self.processes:
            assert self._threads is not None
            async with self._threads, asyncio.timeout(self.deadline):
                return await asyncio.to_thread(decide, job.spec, job.seed, job.setup,
                                               job.variants, job.history, job.seat)
        idle = self._pool()
        worker = await idle.get()
        try:
            return await asyncio.to_thread(worker.call, job, self.deadline)
        except BaseException:  # late, failed or abandoned: its next answer would be stale
            worker.kill()
            worker = self._replace(worker)
            raise
        finally:
            idle.put_nowait(worker)

    def _pool(self) -> asyncio.Queue[_Worker]:
        if self._idle is None:
            self._idle = asyncio.Queue()
            for _ in range(self._count):
                worker = _Worker()
                self._workers.append(worker)
                self._idle.put_nowait(worker)
        return self._idle

    def start(self) -> None:
        """Start the workers now, so the first bot move does not wait for them."""
        if self.processes:
            self._pool()

    def _replace(self, old: _Worker) -> _Worker:
        self.replaced += 1
        new = _Worker()
        self._workers = [new if w is old else w for w in self._workers]
        return new

    def pids(self) -> list[int]:
        return [w.proc.pid for w in self._workers if w.proc.pid is not None]

    async def shutdown(self) -> None:
        for worker in self._workers:
            worker.kill()
        self._workers = []
