"""Signorie as the platform sees it: `GAME`, the one object the platform holds."""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from tavola.game import GameInfo, IllegalAction, LogEntry
from tavola.kit import MoveWords
from tavola.records import SeededRecords

from . import engine, refusals, text
from .actions import Action, Pass, Reward, TakeDie, action_from_json, action_to_json
from .bots import GAME_BOTS
from .bots.search import SEARCH
from .encoding import encoding_of
from .state import SCORE_SOURCES, Position, SignorieState, SignorieView
from .tables import tables


class SignorieGame:
    """The rules engine behind `tavola.game.Game`."""

    info = GameInfo(
        name="signorie", title="Signorie", min_players=2, max_players=4, default_players=4,
        simultaneous=False, hidden_information=True, chance=True,
        record_format="signorie-record", score_sources=SCORE_SOURCES,
        seat_colours=tables().board_colours,
    )

    @property
    def records(self) -> SeededRecords:
        return SeededRecords(self)

    @property
    def bots(self) -> Mapping[str, Any]:
        return GAME_BOTS

    @property
    def search(self) -> Any:
        return SEARCH

    def encoding(self, position: Position) -> Any:
        return encoding_of(position.t)

    def new_game(self, names: Sequence[str], seed: int | None = None,
                 options: Mapping[str, Any] | None = None) -> SignorieState:
        self.info.check_players(len(names))
        return engine.new_game(names, seed, options)

    def legal_actions(self, position: Position, seat: int) -> Sequence[Action]:
        return engine.legal_actions(position, seat)

    def apply(self, state: SignorieState, action: Action) -> SignorieState:
        try:
            return engine.apply(state, action)
        except IllegalAction:  # the rules refuse; `refusals` says which rule, in words
            raise refusals.explain(state, action) from None

    def apply_in_place(self, state: SignorieState, action: Action) -> None:
        try:
            engine.apply_in_place(state, action)
        except IllegalAction:
            raise refusals.explain(state, action) from None

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

    def opens_move(self, action: Action) -> bool:
        """A move is a die (or a pass) with the action it is used for and that action's
        choices, or one reward step: hints and reviews name it whole (`tavola.search`)."""
        return isinstance(action, TakeDie | Pass | Reward)

    def source_name(self, source: str) -> str:
        """A source of points (`info.score_sources`) as the end screen names it."""
        return text.SOURCES.get(source, source)

    def describe_move(self, position: SignorieState | SignorieView, actions: Sequence[Action],
                      exact: bool = False) -> str:
        """A whole move in words: its first step as `describe_action` says it, then each
        further choice as the menu names it, read in the position it is made in (always
        exact: no two moves read the same)."""
        first = text.describe_action(position, actions[0])
        if len(actions) == 1:
            return first
        state = engine.resample(position, random.Random(0)) \
            if isinstance(position, SignorieView) else position.clone()
        steps = []
        engine.apply_in_place(state, actions[0])
        for action in actions[1:]:
            # the steps come from the search's sampled worlds: where a chance drawn here differs
            # (offspring dice, a reward) a later step may not apply, and the words stop there
            if action not in engine.legal_actions(state, action.seat):
                break
            steps.append(text.option_text(state, action))
            engine.apply_in_place(state, action)
        return text.move_text(first, steps)

    def score_breakdown(self, position: Position) -> tuple[dict[str, int], ...]:
        """Points per seat by source; they add up to the scores."""
        return tuple(engine.score_breakdown(position))

    def ranks(self, state: SignorieState) -> tuple[int, ...]:
        """Most VP first; ties go to the seat higher in the turn order (the final tie-break)."""
        keys = [(state.vp[p], -state.order.index(p)) for p in range(state.n)]
        return tuple(1 + sum(1 for other in keys if other > k) for k in keys)

    def round(self, position: Position) -> int:
        return position.round

    def setup_label(self, state: SignorieState) -> str:
        return ", ".join(state.t.city_names[c] for c in state.cities)

    def describe_options(self, options: Mapping[str, Any]) -> str:
        if options.get("components") is None:
            return "Signorie (provisional components)"
        digest = str(options.get("components_hash") or "")[:12]
        return f"Signorie (own components {digest})".replace(" )", ")")

    def setup_of(self, state: SignorieState) -> dict[str, Any]:
        setup = {"names": list(state.names), "seed": state.seed}
        return {**setup, "options": state.options} if state.options else setup

    def renamed(self, setup: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
        return {**setup, "names": list(names)}

    def from_setup(self, setup: Mapping[str, Any]) -> SignorieState:
        return self.new_game(list(setup["names"]), int(setup["seed"]), setup.get("options"))

    def decision_key(self, position: Position) -> int:
        return len(position.history)

    def record(self, state: SignorieState, *, players: Sequence[str] | None = None,
               seed: int | None = None, hints: Mapping[int, int] | None = None
               ) -> dict[str, Any]:
        return self.records.record(state, players=players, seed=seed, hints=hints)

    def verify_record(self, data: Any, options: Mapping[str, Any] | None = None
                      ) -> SignorieState:
        state: SignorieState = self.records.verify(data, options)
        return state

    def summarize_record(self, data: Any) -> str:
        return self.records.summarize(data)


GAME = SignorieGame()
#: How hints and reviews speak of its moves (`tavola.kit.GameKit.moves`).
MOVES = MoveWords(describe_move=GAME.describe_move, opens_move=GAME.opens_move,
                  source_name=GAME.source_name)
