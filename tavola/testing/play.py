"""Random games through the `Game` interface only: the positions every check looks at."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..game import Game
from ..kit import GameKit

#: A game that has not ended after this many actions is taken not to end.
MOST_ACTIONS = 20_000


class ConformanceError(AssertionError):
    """A game breaks a property every game must have; the message names the game and what."""


def fail(kit: GameKit, what: str) -> ConformanceError:
    return ConformanceError(f"{kit.name}: {what}")


@dataclass
class Step:
    """A position of a random game (not to be changed) and the action about to be taken."""

    state: Any
    seat: int
    legal: list[Any]
    action: Any
    number: int  # actions taken before this one

    def where(self, players: int) -> str:
        return f"in a {players}-player game, before action {self.number} (seat {self.seat})"


def game_of(kit: GameKit) -> Game:
    """The kit's rules interface (a kit names it by where it lives)."""
    game: Game = kit.game.load()
    return game


def names(players: int) -> list[str]:
    return [f"seat {i + 1}" for i in range(players)]


def player_counts(game: Game) -> range:
    return range(game.info.min_players, game.info.max_players + 1)


def steps(kit: GameKit, players: int, seed: int) -> Iterator[Step]:
    """Each decision of a game of random legal actions, `seed` fixing the deal and the
    choices; checks that every seat to move has actions and the others none."""
    game = game_of(kit)
    rng = random.Random(seed)
    state = game.new_game(names(players), seed)
    for number in range(MOST_ACTIONS):
        if state.is_over:
            return
        movers = tuple(state.to_move())
        if not movers:
            raise fail(kit, f"a {players}-player game not over has nobody to move after "
                            f"{number} actions")
        for seat in range(players):
            legal = list(game.legal_actions(state, seat))
            if bool(legal) != (seat in movers):
                raise fail(kit, f"seat {seat} has {len(legal)} legal actions after {number} "
                                f"actions of a {players}-player game, to move: {movers}")
        seat = movers[rng.randrange(len(movers))]
        legal = list(game.legal_actions(state, seat))
        step = Step(state, seat, legal, legal[rng.randrange(len(legal))], number)
        yield step
        _play(kit, state, step, players)
    raise fail(kit, f"a {players}-player game of random actions has not ended after "
                    f"{MOST_ACTIONS} actions")


def _play(kit: GameKit, state: Any, step: Step, players: int) -> None:
    """Take the step's action; a legal action that raises is the game's fault, named."""
    try:
        game_of(kit).apply_in_place(state, step.action)
    except Exception as exc:
        raise fail(kit, f"the legal action {step.action!r} {step.where(players)} raised "
                        f"{type(exc).__name__}: {exc}") from exc


def finished(kit: GameKit, players: int, seed: int) -> Any:
    """A game of random legal actions played to its end."""
    state = None
    for step in steps(kit, players, seed):
        state = step.state
    return state if state is not None else game_of(kit).new_game(names(players), seed)


def sampled(kit: GameKit, players: int, seed: int, count: int) -> Iterator[Step]:
    """About `count` decisions of a random game, spread over the whole game."""
    rng = random.Random(seed ^ 0x5EED)
    length = sum(1 for _ in steps(kit, players, seed))
    share = min(1.0, count / max(length, 1))
    for step in steps(kit, players, seed):
        if rng.random() < share:
            yield step
