"""What Gonzaga lends the platform's search (`tavola.search`): its levels and heuristics.

The tree covers the rest of the current round, which is the part every determinization agrees
on: the fiefs of this round are face up and the map is public.
- Planning nodes keep, for each player still to plan, that player's best card combinations by
  the planner's values (decoupled selection picks one per player).
- Placing nodes offer the player's best-valued placements, Weddings and the donation
  (`planner.ranked_turns`), valued through tables per player context (`MoveTables`).
The heuristics of one decision are `hooks.GonzagaHooks`, in a module of their own that
`tavola compile` builds (`kit.compiled`).
Past the tree, the round is finished with the planner's choices; the end-of-round position is
then valued by `evaluation.final_estimates` (exact when the game is over), and each player's
reward is how far their estimate leads the best other player. The weights of all three are the
search's own, tuned by `tavola tune` and shipped in `weights.json`.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from tavola.search import MCTSBot, Settings, make_mcts, parse_settings, per_players
from tavola.tune import load_tuned

from ..engine import PlayerView
from .evaluation import DEFAULT_WEIGHTS, LearnedValue, Weights
from .hooks import REWARD_SCALE, GonzagaHooks, MoveTables

LEVELS: dict[str, Settings] = {
    "easy": Settings(iterations=100, joint_width=5, width=4),
    "medium": Settings(iterations=400),
    # sized for a mean under 1 s a decision on one core (docs/bots.md); the time limit caps
    # the longest, so a decision is reproducible from its seed unless it is reached. With 2
    # players the position is valued with the map (`map_value.py`), and an anchor keeps the
    # planner's favourite unless the search expects another option to lead by 1 point more
    # (2 before the map: its estimates were noisier); with 4 the anchor lost games. Each
    # change won more paired deals (docs/bots.md)
    "hard": Settings(iterations=1000, time_limit=1.9, by_players=per_players({
        2: {"iterations": 6000, "anchor": 1.0, "value": "map"},
        3: {"iterations": 1800}})),
}


WEIGHTS_PATH = Path(__file__).with_name("weights.json")


def search_weights(path: Path = WEIGHTS_PATH) -> Weights:
    """The search bot's tuned weights (`tavola tune`); the planner keeps the hand-set ones."""
    tuned = load_tuned(path, "gonzaga", [f for f in DEFAULT_WEIGHTS.__dataclass_fields__])
    return replace(DEFAULT_WEIGHTS, **tuned.weights)


class GonzagaSearch:
    """Gonzaga's part of the search: its levels and, for each decision, its heuristics."""

    levels = LEVELS
    # `mcts:...:value=learned`: the learned value (`value.py`); `value=contested`: the
    # hand-made estimate with sea leagues shared among the players racing for the same
    # harbors (`evaluation.contested_leagues`); `value=map`: the value over the map
    # (`map_value.py`); `value=estimate`: the hand-made estimate, where a level uses another
    values = ("learned", "contested", "map", "estimate")

    def __init__(self, weights: Weights = DEFAULT_WEIGHTS, value: LearnedValue | None = None
                 ) -> None:
        self.weights = weights
        self.value = value
        self._learned: LearnedValue | None = None
        self._map: LearnedValue | None = None

    def hooks(self, view: PlayerView, seat: int, settings: Settings) -> GonzagaHooks:
        lent = {"learned": self.learned, "map": self.map_value}.get(settings.value)
        value = self.value if lent is None else lent()
        return GonzagaHooks(seat, self.weights, view.round + settings.lookahead, value,
                            contested=settings.value == "contested")

    def learned(self) -> LearnedValue:
        """The shipped learned value, read when first asked for."""
        if self._learned is None:
            from .value import load_value

            self._learned = load_value()
        return self._learned

    def map_value(self) -> LearnedValue:
        """The shipped value over the map, read when first asked for."""
        if self._map is None:
            from .map_value import MapValue, load_map_value

            self._map = MapValue.of(load_map_value())
        return self._map


SEARCH = GonzagaSearch(search_weights())

__all__ = ["LEVELS", "REWARD_SCALE", "SEARCH", "GonzagaHooks", "MCTSBot", "MoveTables",
           "Settings", "make_mcts", "parse_settings"]
