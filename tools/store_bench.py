"""The game store's own cost per move, without a server: `python tools/store_bench.py URL...`.

For each database URL (sqlite:///PATH, postgresql://...), creates one game and appends N
actions with their lobby line, as the server does for every move, then loads the game back.
Prints milliseconds per append and per load. The games stay in the database.
"""

from __future__ import annotations

import secrets
import sys
import time

from tavola.web.storage import StoredGame, open_store

APPENDS = 2000
LOADS = 200


def measure(url: str) -> tuple[float, float]:
    """(ms per append, ms per load of the game with every action)."""
    store = open_store(url)
    game_id = "bench-" + secrets.token_hex(6)
    store.create(StoredGame(game_id, time.time(), {"game": "gonzaga"}, "playing",
                            {0: secrets.token_urlsafe(24)}, {0}, secrets.token_urlsafe(24),
                            section="open", summary={"id": game_id}))
    start = time.perf_counter()
    for seq in range(APPENDS):
        store.append(game_id, seq, {"type": "donate", "player": seq % 2}, section="playing",
                     summary={"id": game_id, "moves": seq + 1})
    append = (time.perf_counter() - start) / APPENDS * 1000
    start = time.perf_counter()
    for _ in range(LOADS):
        store.load(game_id)
    load = (time.perf_counter() - start) / LOADS * 1000
    store.close()
    return append, load


def main(urls: list[str]) -> None:
    if not urls:
        sys.exit(__doc__)
    for url in urls:
        append, load = measure(url)
        print(f"{url.split('://')[0]}: {append:.2f} ms per append, {load:.2f} ms per load of "
              f"{APPENDS} actions")


if __name__ == "__main__":
    main(sys.argv[1:])
