"""Running a game between players (bots or people) who only ever see their own view."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .bots import Bot
from .game import Game, IllegalAction

Observer = Callable[[Any, Any], None]  # (state after the action, the action)


def seat_names(names: Sequence[str]) -> list[str]:
    """Bot names, numbered where several seats share one ("greedy 1", "greedy 2")."""
    out = []
    for i, name in enumerate(names):
        if names.count(name) > 1:
            name = f"{name} {names[:i + 1].count(name)}"
        out.append(name)
    return out


def play_game(game: Game, players: Sequence[Bot], *, seed: int | None = None,
              options: Mapping[str, Any] | None = None, names: Sequence[str] | None = None,
              state: Any = None, observe: Observer | None = None) -> Any:
    """Play to the end and return the final state.

    Seats that move at the same time (a simultaneous phase) are asked one after another, each
    with a view in which nobody else's choice is visible yet. A bot that answers with an
    illegal action is a bug, so the `IllegalAction` propagates.
    """
    if state is None:
        seats = list(names) if names else seat_names([p.name for p in players])
        state = game.new_game(seats, seed, options)
    if len(players) != len(game.scores(state)):
        raise ValueError(f"{len(players)} players for a {len(game.scores(state))}-seat game")
    while not state.is_over:
        seat = state.to_move()[0]  # the movers may change after any action (a reveal, a turn)
        legal = game.legal_actions(state, seat)
        action = players[seat].decide(game.view(state, seat), legal)
        owner = getattr(action, "player", seat)
        if owner != seat:
            raise IllegalAction("wrong-seat", f"seat {seat} answered for seat {owner}")
        game.apply_in_place(state, action)
        if observe is not None:
            observe(state, action)
    return state
