"""The heuristics of one Gonzaga search decision (`mcts.GonzagaSearch.hooks`).

Kept apart from `mcts` (levels, weights, the search's entry, which tests and tuning extend)
so that `tavola compile` builds them with the engine and the valuation: every iteration of a
search calls them, many times.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from tavola.search import Settings

from ..actions import Action, Plan
from ..engine import (
    LegalActions,
    PlayerView,
    closed_seas,
    legal_actions,
    piece_groups,
    redeal,
)
from ..state import GameState, Phase, Position
from .evaluation import (
    DEFAULT_WEIGHTS,
    LearnedValue,
    MoveContext,
    Prospects,
    Weights,
    estimates_with,
    final_estimates,
    own_mask,
    public_prospects,
    rounds_left,
    worthwhile_weddings,
)
from .planner import NO_INDICES, NO_VALUES, TurnValues, plan_values, turn_values

REWARD_SCALE = 8.0  # points of lead that make a reward of about 0.73
PROSPECTS_KEPT = 20_000  # end positions remembered in one decision (a kilobyte or so each)


def _seen(state: GameState) -> tuple[object, ...]:
    """What a determinization shows the search: the moves so far and the fiefs in hand. Within
    the round every determinization agrees on it; past the round (`lookahead`) the fiefs drawn
    tell the deals apart, so values kept by this key are never shared between them wrongly."""
    return (*state.history, *(p.fief for p in state.players))


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

    def __init__(self, me: int, weights: Weights = DEFAULT_WEIGHTS, last_round: int = 0,
                 value: LearnedValue | None = None, contested: bool = False) -> None:
        self.me = me
        self.weights = weights
        self.value = value  # the learned worth of the estimate's parts (None: all 1)
        self.contested = contested  # sea leagues by `evaluation.contested_leagues`
        self.last_round = last_round  # rollouts stop once a later round begins
        self._policy: dict[tuple[object, ...], Action] = {}
        self.tables = MoveTables(weights)
        self._last: tuple[Hashable, TurnValues] | None = None
        self._prospects: dict[tuple[Action, ...], Prospects] = {}

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
        return self._turns(state, seat).ranked(settings.width)

    def rollout(self, state: GameState) -> Action:
        key = _seen(state)
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
        return self._turns(state, p).ranked(1, 1)[0][0]

    def _turns(self, state: GameState, seat: int) -> TurnValues:
        """The seat's turn valued (`planner.ranked_turns` ranks the same values). A new node's
        options and the rollout move that follows are asked of the same position, so the last
        one is kept."""
        key = (*_seen(state), seat)
        if self._last is not None and self._last[0] == key:
            return self._last[1]
        values = self.tables.turn_values(state, seat, legal_actions(state, seat),
                                         self._objective(state, seat))
        self._last = (key, values)
        return values

    def horizon(self, state: GameState) -> Hashable:
        return state.round

    def redeal(self, position: GameState, view: PlayerView, rng: random.Random) -> GameState:
        """The tree's position under another deal: the tree stays in the round, whose moves
        read no hidden card and reveal no chance (`engine.redeal`). Rollouts that stop at
        the round's end draw no fief, so only the objectives are dealt anew."""
        return redeal(position, view, rng, decks=self.deals_decks(view))

    def deals_decks(self, view: PlayerView) -> bool:
        """Whether a deal shuffles the fief decks: only rollouts past the round draw fiefs."""
        return self.last_round > view.round

    def rollout_horizon(self, state: GameState) -> Hashable:
        return state.round > self.last_round

    def estimates(self, state: GameState) -> Sequence[float]:
        """`evaluation.final_estimates`, its public part counted once per position and each
        player's part once per objective card there: most iterations end on a position an
        earlier one reached under other hidden cards. The position is known by the moves
        that led to it (a placement names its fief; the fiefs in hand, which differ from deal
        to deal once a round has begun, are not counted). At the end of the game the scores
        include the objective cards, so they are not shared."""
        if state.phase is Phase.OVER:
            exact: list[float] = final_estimates(state, self.weights).tolist()
            return exact
        key = tuple(state.history)
        prospects = self._prospects.get(key)
        if prospects is None:
            if len(self._prospects) >= PROSPECTS_KEPT:
                self._prospects.clear()
            prospects = self._prospects[key] = public_prospects(
                state, self.weights, self.value, self.contested)
        estimates: list[float] = estimates_with(state, prospects, self.weights).tolist()
        return estimates


class MoveTables:
    """A player's move values, by the facts they depend on besides the move itself (rules,
    seat, objective, rounds left, seas closed to the player, the player's pieces): each
    placement row of a fief and each Wedding a card allows is valued once per such context,
    then read by index. Within a round a player's pieces stay put until their own turn, so
    a search meets the same few contexts at thousands of positions. The values are those of
    `planner.turn_values`, row by row: every term is computed per row, alone."""

    KEPT = 64  # contexts remembered (a decision meets a few dozen at most)

    def __init__(self, weights: Weights = DEFAULT_WEIGHTS) -> None:
        self.weights = weights
        self._placements: dict[Hashable, np.ndarray] = {}
        self._weddings: dict[Hashable, _WeddingTable] = {}

    def turn_values(self, state: Position, player: int, legal: LegalActions,
                    objective: int | None) -> TurnValues:
        fief = legal.fief
        if fief is None:  # not this player's turn: nothing but what the list holds
            return turn_values(state, player, legal, objective, self.weights)
        key = context_key(state, player, objective)
        ctx: MoveContext | None = None
        placements = NO_VALUES
        if legal.placement_count:
            table = self._placements.get((key, fief))
            if table is None:
                ctx = MoveContext(state, player, objective, self.weights)
                rows = np.arange(len(state.rules.fief_placements(fief)))
                table = self._keep(self._placements, (key, fief), ctx.placement_values(fief, rows))
            placements = table[legal.placement_rows]
        kept, values = NO_INDICES, NO_VALUES
        pairs = legal.wedding_pairs
        if len(pairs):
            plan = state.players[player].plan
            assert plan is not None
            weddings = self._weddings.get((key, plan.region))
            if weddings is None:
                ctx = ctx or MoveContext(state, player, objective, self.weights)
                weddings = self._keep(self._weddings, (key, plan.region),
                                      _WeddingTable.of(ctx, plan.region))
            found = weddings.find(pairs)
            if found is None:  # not a Wedding of the card's frame: value it plainly
                return turn_values(state, player, legal, objective, self.weights)
            kept = np.flatnonzero(weddings.worthwhile[found])
            values = weddings.values[found[kept]]
        return TurnValues(legal, player, placements, kept, values)

    def _keep(self, tables: dict[Hashable, Any], key: Hashable, table: Any) -> Any:
        if len(tables) >= self.KEPT:
            tables.clear()
        tables[key] = table
        return table


def context_key(state: Position, player: int, objective: int | None) -> Hashable:
    """Everything a player's move values read of a position (`evaluation.MoveContext`)."""
    p = state.players[player]
    return (state.rules, player, objective, rounds_left(state),
            closed_seas(state.rules.variants, p.leagues, state.leagues_formed),
            piece_groups(state, player), own_mask(state, player).tobytes())


@dataclass(frozen=True, eq=False)
class _WeddingTable:
    """Every Wedding a region card allows on an empty map (its `WeddingFrame`), valued for one
    context, with whether it is worth valuing; found by its (first, second) hexes."""

    hexes: int  # hexes of the map, for the codes
    codes: np.ndarray  # codes of the pairs, sorted
    order: np.ndarray  # the entry of each sorted code
    values: np.ndarray
    worthwhile: np.ndarray

    @classmethod
    def of(cls, ctx: MoveContext, card: str) -> _WeddingTable:
        state = ctx.state
        frame = state.rules.wedding_frame(card)
        pairs = np.concatenate([frame.singles, frame.pairs[frame.pair_ok]])
        worthwhile = np.zeros(len(pairs), dtype=bool)
        worthwhile[worthwhile_weddings(state, pairs, ctx.objective)] = True
        hexes = state.board.hex_count
        codes = _codes(pairs, hexes)
        order = np.argsort(codes, kind="stable")
        return cls(hexes, codes[order], order, ctx.wedding_values(pairs), worthwhile)

    def find(self, pairs: np.ndarray) -> np.ndarray | None:
        """The entry of each pair, or None if one is not in the table."""
        codes = _codes(pairs, self.hexes)
        at = np.searchsorted(self.codes, codes)
        at[at == len(self.codes)] = 0
        if not np.array_equal(self.codes[at], codes):
            return None
        return self.order[at]


def _codes(pairs: np.ndarray, hexes: int) -> np.ndarray:
    """One number per (first, second) pair, second -1 included."""
    codes: np.ndarray = pairs[:, 0].astype(np.int64) * (hexes + 1) + pairs[:, 1] + 1
    return codes


