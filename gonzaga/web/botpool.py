"""Bot moves in worker processes, so a slow bot never holds up the server or other games.

A worker gets the deal and the actions so far (small, picklable), rebuilds the game with the
engine, and asks a bot built for that very decision: its seed comes from the game's seed, the
seat, the round and the turn (not from the order in which simultaneous plans arrived). A bot's
choice is therefore a pure function of what it sees, which also makes a resumed game continue
exactly as it would have without the restart.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections.abc import Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor

from ..actions import Action
from ..board import load_board
from ..bots import make_bot
from ..engine import apply_in_place, legal_actions, new_game, view
from ..state import Phase, Setup


def bot_seed(game_seed: int, seat: int, round_: int, turn: int) -> int:
    """One seed per decision; `turn` is -1 while planning."""
    return (game_seed * 1_000_003 + seat * 10_007 + round_ * 101 + turn + 1) % 2**63


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


def _worker_start(server_pid: int) -> None:
    """Build the placement tables once per worker, and end the worker when the server is gone
    (even killed with SIGKILL, which runs none of the server's shutdown code)."""
    from ..placement import placement_tables

    def watch() -> None:
        while os.getppid() == server_pid:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, daemon=True, name="gonzaga-server-watch").start()
    placement_tables(load_board()).fiefs  # noqa: B018


def bot_executor(workers: int = 2, *, processes: bool = True) -> Executor:
    """Worker processes (spawned: nothing of the server's threads or sockets is inherited),
    or threads where processes are not wanted."""
    if not processes:
        return ThreadPoolExecutor(max_workers=workers, thread_name_prefix="gonzaga-bot")
    ctx = multiprocessing.get_context("spawn")
    return ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_worker_start,
                               initargs=(os.getpid(),))
