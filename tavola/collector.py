"""Python's cyclic garbage collector, set for game engines in Tavola's own processes.

An engine makes and drops many small containers (Signorie's decision frames and log lines,
legal lists, search nodes), and reference counting frees almost all of them. With CPython's
default thresholds (700 new containers, then 10 and 10) the collector's youngest generation
still runs hundreds of times a second, and its oldest now and then walks every long-lived
object (tables, caches, the search tree). Collecting less often made Signorie's random games
about 12% and its search about 15% faster, Gonzaga's search a few per cent
(`docs/engine-speed.md`, eighth pass). Cycles are still collected, a little later.

The command (`tavola ...`: the server, tournaments, `bench`), its worker processes and the
server's bot workers call `tune()` as they start. A program that imports Tavola as a library
keeps its own settings unless it calls `tune()` itself. `TAVOLA_GC=python` keeps CPython's.
"""

from __future__ import annotations

import gc
import os

#: new containers before the youngest generation is collected; then how many collections of
#: each generation before the next one up
THRESHOLDS = (10_000, 10, 10)
ENVIRONMENT = "TAVOLA_GC"


def tune() -> tuple[int, ...]:
    """Set this process's collector thresholds (unless `TAVOLA_GC=python`); returns them."""
    if os.environ.get(ENVIRONMENT, "").strip().lower() != "python":
        gc.set_threshold(*THRESHOLDS)
    return gc.get_threshold()


def describe() -> str:
    """The collector's settings in this process, for `bench`."""
    return "garbage collector thresholds " + "/".join(map(str, gc.get_threshold())) \
        + ("" if gc.isenabled() else " (disabled)")
