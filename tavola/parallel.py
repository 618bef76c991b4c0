"""Where many independent games are played: here, in worker processes, or as Ray tasks.

Tournaments and simulations hand over one function that plays one game (`Play`) and the list
of games to play; every executor runs that same function, so a run's results depend only on its
seeds, never on where the games ran. Results come back to this process with the game's record
text, and the caller writes the records: a Ray task may run on another machine, whose disk the
caller cannot see.

Ray is optional (`pip install -e '.[ray]'`); it is imported only when asked for.
"""

from __future__ import annotations

import itertools
import os
import socket
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from . import registry as games
from .collector import tune
from .game import Game

Options = dict[str, Any]
J = TypeVar("J")
R = TypeVar("R")
Play = Callable[[Game, Options, J], R]

LOCAL = "local"  # the Ray "address" that starts a Ray instance in this process
RAY_MISSING = ("--ray needs the Ray package, which is not installed: "
               "pip install -e '.[ray]' (or pip install 'ray>=2.9')")


@dataclass(frozen=True)
class Executor:
    """How games are spread: `workers` processes here, or Ray tasks when `ray` is set.

    `ray` is LOCAL for a Ray instance started here with `workers` CPUs (None: all this
    process may use), or the address of a running cluster (`auto`, `ray://head:10001`).
    """

    workers: int | None = 1
    ray: str | None = None

    def describe(self) -> str:
        if self.ray is None:
            return f"{self.workers} worker process(es)"
        return "Ray, local" if self.ray == LOCAL else f"Ray at {self.ray}"


def check_executor(how: Executor) -> None:
    """ValueError naming the problem with an executor, before anything is played."""
    if how.workers is not None and how.workers < 1:
        raise ValueError(f"workers must be at least 1, not {how.workers}")
    if how.ray is None:
        if how.workers is None:
            raise ValueError("the number of worker processes is missing")
        return
    if not how.ray.strip():
        raise ValueError("--ray takes a cluster address (such as auto or ray://head:10001) "
                         "or nothing for a local Ray instance, not an empty string")
    if how.ray != LOCAL and how.workers is not None:
        raise ValueError(f"--workers sets the CPUs of a local Ray instance; the cluster at "
                         f"{how.ray} has its own CPUs (leave --workers out)")
    import_ray()
    if how.ray not in (LOCAL, "auto"):
        check_reachable(how.ray)


def check_reachable(address: str, timeout: float = 5.0) -> None:
    """ValueError unless something listens at a HOST:PORT or ray://HOST:PORT address.

    Ray itself retries an unreachable address for minutes before giving up.
    """
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not host or not port.isdigit():
        raise ValueError(f"--ray takes auto, HOST:PORT or ray://HOST:PORT, not {address!r}")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except (OSError, OverflowError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise ValueError(f"no Ray cluster answers at {address}: {reason}") from None


def import_ray() -> Any:
    """The ray module, or ValueError saying how to install it."""
    try:
        import ray
    except ImportError:
        raise ValueError(RAY_MISSING) from None
    return ray


def default_workers() -> int:
    """The CPUs this process may use (not the machine's total, which may be restricted)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def play_all(play: Play[J, R], game: Game, options: Options, jobs: Sequence[J],
             how: Executor, per_task: int = 8) -> Iterator[tuple[int, R]]:
    """(position in `jobs`, result) for every job, as each finishes (not in order).

    `play` must be a module-level function (it is sent to other processes by name). At most
    `per_task` games go to a worker at once: fewer round trips, yet the work stays balanced.
    """
    if how.ray is not None:
        yield from _on_ray(play, game, options, jobs, how, per_task)
    elif how.workers == 1 or len(jobs) == 1:
        for i, job in enumerate(jobs):
            yield i, play(game, options, job)
    else:
        yield from _in_processes(play, game, options, jobs, how.workers or 1, per_task)


# ---------------------------------------------------------------------------------------------
# Worker processes on this machine


_worker: tuple[Game, Options] | None = None


def _init_worker(name: str, options: Options) -> None:
    """Remember the game and its options once per worker process (boards are then cached)."""
    global _worker
    tune()
    _worker = (games.get(name), options)


def _play_in_worker(args: tuple[Play[J, R], J]) -> R:
    assert _worker is not None
    play, job = args
    return play(*_worker, job)


def _in_processes(play: Play[J, R], game: Game, options: Options, jobs: Sequence[J],
                  workers: int, per_task: int) -> Iterator[tuple[int, R]]:
    chunk = max(1, min(per_task, len(jobs) // (workers * 4)))
    with ProcessPoolExecutor(max_workers=workers, initializer=_init_worker,
                             initargs=(game.info.name, options)) as pool:
        yield from enumerate(pool.map(_play_in_worker, [(play, j) for j in jobs],
                                      chunksize=chunk))


# ---------------------------------------------------------------------------------------------
# Ray tasks, on a local Ray instance or a cluster


def _play_batch(play: Play[J, R], name: str, options: Options, batch: Sequence[J]) -> list[R]:
    """One Ray task: a few games in a row (the game itself is cached by the worker's import)."""
    tune()
    game = games.get(name)
    return [play(game, options, job) for job in batch]


def _on_ray(play: Play[J, R], game: Game, options: Options, jobs: Sequence[J], how: Executor,
            per_task: int) -> Iterator[tuple[int, R]]:
    """Batches of games as Ray tasks, at most 4 per CPU in flight.

    The window keeps results from piling up in the cluster's memory when this process writes
    records more slowly than the cluster plays, and keeps each wait short on a large run.
    """
    ray = import_ray()
    started_here = not ray.is_initialized()
    if started_here:
        start_ray(ray, how)
    try:
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        size = max(1, min(per_task, len(jobs) // (cpus * 4)))
        batches = iter([range(lo, min(lo + size, len(jobs)))
                        for lo in range(0, len(jobs), size)])
        task = ray.remote(num_cpus=1, max_retries=3)(_play_batch)
        shared = ray.put(options)  # sent once to every node, not once per task
        pending: dict[Any, range] = {}

        def submit(count: int) -> None:
            for batch in itertools.islice(batches, count):
                ref = task.remote(play, game.info.name, shared, [jobs[i] for i in batch])
                pending[ref] = batch

        submit(cpus * 4)
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1)
            submit(len(done))
            for ref in done:
                positions = pending.pop(ref)
                yield from zip(positions, ray.get(ref), strict=True)
    finally:
        if started_here:
            ray.shutdown()


def start_ray(ray: Any, how: Executor) -> None:
    """Start a local Ray instance, or join the cluster at the address given."""
    import logging

    quiet = {"include_dashboard": False, "logging_level": logging.WARNING,
             "log_to_driver": False}
    try:
        if how.ray == LOCAL:
            ray.init(address="local", num_cpus=how.workers or default_workers(), **quiet)
        else:
            ray.init(address=how.ray, **quiet)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        raise ValueError(f"cannot start or reach Ray at {how.ray}: {exc}") from None


__all__ = ["LOCAL", "Executor", "check_executor", "default_workers", "import_ray", "play_all",
           "start_ray"]
