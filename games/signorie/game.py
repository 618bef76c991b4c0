"""Signorie as the platform sees it: `GAME`, the one object the platform holds."""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from tabletop.game import GameInfo, LogEntry

from . import engine, text
from .actions import Action, action_from_json, action_to_json
from .state import Position, SignorieState, SignorieView


class SignorieGame:
    """The rules engine behind `tabletop.game.Game`."""

    info = GameInfo(
        name="signorie", title="Signorie", min_players=2, max_players=4, default_players=4,
        simultaneous=False, hidden_information=True, chance=True,
        record_format="signorie-record",
    )

    def new_game(self, names: Sequence[str], seed: int | None = None,
                 options: Mapping[str, Any] | None = None) -> SignorieState:
        self.info.check_players(len(names))
        return engine.new_game(names, seed, options)

    def legal_actions(self, position: Position, seat: int) -> Sequence[Action]:
        return engine.legal_actions(position, seat)

    def apply(self, state: SignorieState, action: Action) -> SignorieState:
        return engine.apply(state, action)

    def apply_in_place(self, state: SignorieState, action: Action) -> None:
        engine.apply_in_place(state, action)

    def clone(self, state: SignorieState) -> SignorieState:
        return state.clone()

    def view(self, state: SignorieState, seat: int | None) -> SignorieView:
        return engine.view(state, seat)

    def resample(self, view: SignorieView, rng: random.Random) -> SignorieState:
        return engine.resample(view, rng)

    def scores(self, position: Position) -> tuple[int, ...]:
        return position.scores()

    def winners(self, state: SignorieState) -> tuple[int, ...]:
        return engine.winners(state)

    def log(self, position: Position) -> Sequence[LogEntry]:
        return tuple(position.log)

    def chance_events(self, position: Position) -> Sequence[Hashable]:
        return tuple(position.chance)

    def action_to_json(self, action: Action) -> dict[str, Any]:
        return action_to_json(action)

    def action_from_json(self, data: Any) -> Action:
        return action_from_json(data)

    def describe_action(self, position: Position, action: Action) -> str:
        return text.describe_action(position, action)

    def describe_log(self, position: Position, entry: LogEntry) -> str:
        return text.describe_log(position, entry)

    def score_breakdown(self, position: Position) -> list[dict[str, int]]:
        """Points per seat by source; they add up to the scores."""
        return engine.score_breakdown(position)


GAME = SignorieGame()
