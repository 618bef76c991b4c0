"""Running a game between players (bots or people) who only ever see their own view."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .actions import Action, IllegalAction
from .board import Board
from .bots import Bot
from .engine import apply_in_place, legal_actions, new_game, view
from .state import GameState

Observer = Callable[[GameState, Action], None]


def seat_names(names: Sequence[str]) -> list[str]:
    """Bot names, numbered where several seats share one ("greedy 1", "greedy 2")."""
    out = []
    for i, name in enumerate(names):
        if names.count(name) > 1:
            name = f"{name} {names[:i + 1].count(name)}"
        out.append(name)
    return out


def play_game(players: Sequence[Bot], *, seed: int | None = None, scenario: str | None = None,
              board: Board | None = None, variants: Sequence[str] = (),
              names: Sequence[str] | None = None, state: GameState | None = None,
              observe: Observer | None = None) -> GameState:
    """Play to the end and return the final state.

    Planning is simultaneous: each player is asked in seat order, with a view in which nobody
    else's plan is visible yet. A bot that answers with an illegal action is a bug, so the
    `IllegalAction` propagates.
    """
    if state is None:
        state = new_game(list(names) if names else seat_names([p.name for p in players]), seed,
                         scenario, board=board, variants=variants)
    if len(players) != len(state.players):
        raise ValueError(f"{len(players)} players for a {len(state.players)}-seat game")
    while not state.is_over:
        for seat in state.to_move():
            legal = legal_actions(state, seat)
            action = players[seat].decide(view(state, seat), legal)
            if action.player != seat:
                raise IllegalAction("wrong-seat", f"seat {seat} answered for seat "
                                                  f"{action.player}")
            apply_in_place(state, action)
            if observe is not None:
                observe(state, action)
            break  # the movers may have changed (a reveal, a new turn)
    return state
