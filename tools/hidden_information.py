"""What seeing the hidden cards would be worth to Gonzaga's search: an experiment, not a bot.

`python tools/hidden_information.py DEALS SEES [SPEC]` plays DEALS deals (seed 70000 on) in
both seat orders, SPEC (default `mcts:hard`) against the planner, and prints the win rate and
mean lead after every deal. SEES is what the search is handed in place of a deal resampled from
its view: `view` (the real bot), `objectives` (a resampled deal with every seat's true
objective card) or `everything` (the true game: objectives and the order of every fief deck).
It cheats by design, so it lives here and never in a bot (`docs/bots.md`).
"""

from __future__ import annotations

import random
import sys
import time
from typing import Any

from tavola import registry
from tavola.bench import seats
from tavola.bots import make_bot

GAME = registry.get("gonzaga")
RESAMPLE = type(GAME).resample
TRUE: dict[str, Any] = {}  # the game being played, as the experiment hands it over


def everything(self: Any, view: Any, rng: random.Random) -> Any:
    return TRUE["state"].clone()


def objectives(self: Any, view: Any, rng: random.Random) -> Any:
    state = RESAMPLE(self, view, rng)
    for mine, true in zip(state.players, TRUE["state"].players, strict=True):
        mine.objective = true.objective
    return state


def main(deals: int, sees: str, spec: str) -> None:
    handed = {"view": RESAMPLE, "objectives": objectives, "everything": everything}[sees]
    type(GAME).resample = handed  # type: ignore[method-assign]
    wins = lead = 0.0
    played = 0
    started = time.perf_counter()
    for deal in range(deals):
        for order in range(2):
            specs = [spec, "planner"] if order == 0 else ["planner", spec]
            me = specs.index(spec)
            state = GAME.new_game(seats(GAME, 2), 70000 + deal, None)
            bots = [make_bot(GAME, s, 1000 * deal + 10 * order + k) for k, s in enumerate(specs)]
            while not state.is_over:
                seat = state.to_move()[0]
                TRUE["state"] = state
                action = bots[seat].decide(GAME.view(state, seat),
                                           GAME.legal_actions(state, seat))
                GAME.apply_in_place(state, action)
            scores = GAME.scores(state)
            winners = GAME.winners(state)
            wins += 1 / len(winners) if me in winners else 0
            lead += scores[me] - scores[1 - me]
            played += 1
        print(f"{played} games: win {100 * wins / played:.1f}%, mean lead "
              f"{lead / played:+.1f}, {time.perf_counter() - started:.0f} s", flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else "mcts:hard")
