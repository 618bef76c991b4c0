"""How long a bot takes to decide, alone against planners: for the levels' time targets.

`python tools/decision_times.py GAME SPEC PLAYERS GAMES` plays GAMES games of PLAYERS seats,
SPEC in one seat (it moves round the table from game to game) and `planner` in the others, and
prints the number of SPEC's decisions and their mean, median and longest time. Run it pinned to
one core (`taskset -c 0`) on an otherwise quiet machine; a tournament's own timings count
whatever else the machine was doing.
"""

from __future__ import annotations

import statistics
import sys
import time
from typing import Any

from tavola import registry as games
from tavola.bots import make_bot
from tavola.match import play_game


class Timed:
    """A bot whose every decision is timed."""

    def __init__(self, bot: Any, times: list[float]) -> None:
        self.bot, self.times, self.name = bot, times, bot.name

    def decide(self, view: Any, legal: Any) -> Any:
        start = time.perf_counter()
        action = self.bot.decide(view, legal)
        self.times.append(time.perf_counter() - start)
        return action


def main() -> None:
    name, spec, players, count = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    game = games.get(name)
    times: list[float] = []
    for g in range(count):
        seats: list[Any] = [make_bot(game, "planner", seed=g * 10 + i) for i in range(players)]
        seats[g % players] = Timed(make_bot(game, spec, seed=g), times)
        play_game(game, seats, seed=7000 + g)
    print(f"{name} {spec}, {players} players, {count} games: {len(times)} decisions, mean "
          f"{statistics.mean(times):.3f} s, median {statistics.median(times):.3f} s, longest "
          f"{max(times):.2f} s")


if __name__ == "__main__":
    main()
