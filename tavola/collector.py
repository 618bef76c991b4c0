"""Python's cyclic garbage collector, set for game engines: every setting Tavola uses.

An engine makes and drops many small containers (Signorie's decision frames and log lines,
legal lists, search nodes), and reference counting frees almost all of them. With CPython's
default thresholds (700 new containers, then 10 and 10) the collector's youngest generation
still runs hundreds of times a second, and its oldest now and then walks every long-lived
object (tables, caches, the search tree). Collecting less often made Signorie's random games
about 12% faster (`docs/engine-speed.md`, eighth pass); cycles are still collected, later.

- `tune()`: the command (`tavola ...`: tournaments, `bench`, the server), its worker processes
  and the server's bot workers, as they start. A program that imports Tavola as a library
  keeps its own settings unless it calls `tune()` itself; `TAVOLA_GC=python` keeps CPython's.
- `spaced()`: around every search decision, whoever runs it (a library user too), and undone
  after it.
- `freeze_long_lived()`: once the server (or the load benchmark's clients) has loaded what
  lives as long as the process, so the collector's full passes no longer walk it: they
  stalled the server's event loop for tens of milliseconds under load (`docs/web.md`).
"""

from __future__ import annotations

import contextlib
import gc
import os
from collections.abc import Iterator

#: new containers before the youngest generation is collected; then how many collections of
#: each generation before the next one up
THRESHOLDS = (20_000, 20, 20)
#: the youngest generation's threshold during a search: a decision makes and drops many objects
#: that hold others (positions, their lists), and each collection would scan the tree and the
#: states alive at once; cycles are rare there
SEARCH_YOUNGEST = 50_000
ENVIRONMENT = "TAVOLA_GC"


def tune() -> tuple[int, ...]:
    """Set this process's collector thresholds (unless `TAVOLA_GC=python`); returns them."""
    if os.environ.get(ENVIRONMENT, "").strip().lower() != "python":
        gc.set_threshold(*THRESHOLDS)
    return gc.get_threshold()


@contextlib.contextmanager
def spaced() -> Iterator[None]:
    """The youngest generation collected less often inside the block, and as before after
    it, whatever happens."""
    before = gc.get_threshold()
    gc.set_threshold(max(before[0], SEARCH_YOUNGEST), *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


def freeze_long_lived() -> None:
    """Everything alive now is kept out of the collector's passes from now on; then `tune()`."""
    gc.collect()
    gc.freeze()
    tune()


def describe() -> str:
    """The collector's settings in this process, for `bench`."""
    return "garbage collector thresholds " + "/".join(map(str, gc.get_threshold())) \
        + ("" if gc.isenabled() else " (disabled)")
