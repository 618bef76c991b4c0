"""What Gonzaga lends the platform's search (`tabletop.search`): its levels and heuristics.

The tree covers the rest of the current round, which is the part every determinization agrees
on: the fiefs of this round are face up and the map is public.
- Planning nodes keep, for each player still to plan, that player's best card combinations by
  the planner's values (decoupled selection picks one per player).
- Placing nodes offer the player's best-valued placements, Weddings and the donation
  (`planner.ranked_turns`).
Past the tree, the round is finished with the planner's choices; the end-of-round position is
then valued by `evaluation.final_estimates` (exact when the game is over), and each player's
reward is how far their estimate leads the best other player. The weights of all three are the
search's own, tuned by `gonzaga tune` and shipped in `weights.json`.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import replace
from pathlib import Path

from tabletop.search import MCTSBot, Settings, make_mcts, parse_settings
from tabletop.tune import load_tuned

from ..actions import Action, Plan
from ..engine import PlayerView, legal_actions
from ..state import GameState, Phase
from .evaluation import DEFAULT_WEIGHTS, Weights, final_estimates
from .planner import plan_values, ranked_turns

REWARD_SCALE = 8.0  # points of lead that make a reward of about 0.73

LEVELS: dict[str, Settings] = {
    "easy": Settings(iterations=100, joint_width=5, width=4),
    "medium": Settings(iterations=400),
    "hard": Settings(iterations=1000),  # sized to stay under 2 s a decision on one core
}


class GonzagaHooks:
    """The heuristics for one decision of the bot at seat `me`.

    Only the bot's own objective is used, as it is the only one the bot knows (the
    determinized objectives of others differ from one iteration to the next). Every
    determinization shows the same public position after the same actions and the same fiefs
    drawn (the fiefs of later rounds differ from one to the next), so a rollout move depends
    on those alone and is computed once per decision.

    With `lookahead` rounds, rollouts play on past the end of the round, through the fiefs
    each determinization draws, before the evaluation takes over; the tree stays in the round.
    """

    reward_scale = REWARD_SCALE

    def __init__(self, me: int, weights: Weights = DEFAULT_WEIGHTS, last_round: int = 0
                 ) -> None:
        self.me = me
        self.weights = weights
        self.last_round = last_round  # rollouts stop once a later round begins
        self._policy: dict[tuple[object, ...], Action] = {}

    def _objective(self, state: GameState, player: int) -> int | None:
        return state.players[player].objective if player == self.me else None

    def options(self, state: GameState, seat: int, settings: Settings
                ) -> list[tuple[Action, float]]:
        objective = self._objective(state, seat)
        if state.phase is Phase.PLANNING:
            plans = [a for a in legal_actions(state, seat) if isinstance(a, Plan)]
            values = plan_values(state, seat, plans, objective, self.weights)
            order = sorted(range(len(plans)), key=lambda i: values[i], reverse=True)
            return [(plans[i], values[i]) for i in order[: settings.joint_width]]
        return ranked_turns(state, seat, legal_actions(state, seat), objective, self.weights,
                            limit=settings.width)

    def rollout(self, state: GameState) -> Action:
        key = (*state.history, *(p.fief for p in state.players))
        action = self._policy.get(key)
        if action is None:
            action = self._policy_move(state)
            self._policy[key] = action
        return action

    def _policy_move(self, state: GameState) -> Action:
        p = state.to_move()[0]
        objective = self._objective(state, p)
        if state.phase is Phase.PLANNING:
            plans = [a for a in legal_actions(state, p) if isinstance(a, Plan)]
            values = plan_values(state, p, plans, objective, self.weights)
            return plans[max(range(len(plans)), key=values.__getitem__)]
        return ranked_turns(state, p, legal_actions(state, p), objective, self.weights,
                            limit=1, weddings=1)[0][0]

    def horizon(self, state: GameState) -> Hashable:
        return state.round

    def rollout_horizon(self, state: GameState) -> Hashable:
        return state.round > self.last_round

    def estimates(self, state: GameState) -> Sequence[float]:
        return final_estimates(state, self.weights).tolist()


WEIGHTS_PATH = Path(__file__).with_name("weights.json")


def search_weights(path: Path = WEIGHTS_PATH) -> Weights:
    """The search bot's tuned weights (`gonzaga tune`); the planner keeps the hand-set ones."""
    tuned = load_tuned(path, "gonzaga", [f for f in DEFAULT_WEIGHTS.__dataclass_fields__])
    return replace(DEFAULT_WEIGHTS, **tuned.weights)


class GonzagaSearch:
    """Gonzaga's part of the search: its levels and, for each decision, its heuristics."""

    levels = LEVELS

    def __init__(self, weights: Weights = DEFAULT_WEIGHTS) -> None:
        self.weights = weights

    def hooks(self, view: PlayerView, seat: int, settings: Settings) -> GonzagaHooks:
        return GonzagaHooks(seat, self.weights, view.round + settings.lookahead)


SEARCH = GonzagaSearch(search_weights())

__all__ = ["LEVELS", "SEARCH", "GonzagaHooks", "MCTSBot", "Settings", "make_mcts",
           "parse_settings"]
