"""Information-Set Monte Carlo Tree Search (Cowling, Powley and Whitehouse 2012).

The bot is given only its view. Each iteration deals one *determinization* of what it cannot
see (`engine.resample`: the other objectives from the unseen cards, every fief deck in a fresh
order, and the plans nobody has revealed yet dropped so their owners plan again) and walks one
shared tree with it, so statistics are gathered over the information set, not over one guessed
state.

The tree covers the rest of the current round, which is the part every determinization agrees
on: the fiefs of this round are face up and the map is public.
- Planning is simultaneous. A planning node keeps separate statistics for every player still to
  plan and each picks its own card combination by UCB (decoupled selection); the joint choice
  leads to the placing nodes.
- Placing nodes belong to the player whose turn it is and offer that player's best-valued
  placements, Weddings and the donation (`planner.ranked_turns`).
Past the tree, the round is finished with the planner's choices; the end-of-round position is
then valued by `evaluation.final_estimates` (exact when the game is over), and each player's
reward is how far their estimate leads the best other player.

Budgets: a number of iterations (deterministic for a given seed) and/or a time limit.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from ..actions import Action, Plan
from ..engine import PlayerView, apply_in_place, legal_actions, resample
from ..state import GameState, Phase
from .evaluation import DEFAULT_WEIGHTS, Weights, final_estimates, rewards
from .planner import plan_values, ranked_turns


@dataclass(frozen=True)
class Settings:
    iterations: int | None = 1500  # None: only the time limit counts
    time_limit: float | None = None  # seconds per decision
    exploration: float = 0.5  # UCB constant, rewards being in [0, 1]
    plan_width: int = 8  # card combinations considered per player at a planning node
    turn_width: int = 6  # placements considered per placing node (plus Weddings, donation)
    prior_weight: float = 0.3  # progressive bias towards the heuristic's favourites
    reward_scale: float = 8.0  # points of lead that make a reward of about 0.73

    def __post_init__(self) -> None:
        if self.iterations is None and self.time_limit is None:
            raise ValueError("an mcts budget needs iterations, a time limit or both")


LEVELS: dict[str, Settings] = {
    "easy": Settings(iterations=100, plan_width=5, turn_width=4),
    "medium": Settings(iterations=400),
    "hard": Settings(iterations=1000),  # sized to stay under 2 s a decision on one core
}


def parse_settings(options: str) -> Settings:
    """`hard`, `iterations=2000`, `time=1.5`, or several joined by `:` (`hard:time=1`).

    A time limit given without an iteration count replaces the level's iteration budget.
    """
    settings = LEVELS["medium"]
    iterations_given = False
    time_given: float | None = None
    for part in (options or "").split(":"):
        part = part.strip().lower()
        if not part:
            continue
        if part in LEVELS:
            settings = LEVELS[part]
            continue
        key, sep, value = part.partition("=")
        try:
            if not sep:
                raise ValueError
            if key in ("iterations", "n"):
                settings = replace(settings, iterations=_positive(int(value)))
                iterations_given = True
            elif key in ("time", "t"):
                time_given = _positive(float(value))
            elif key in ("c", "exploration"):
                settings = replace(settings, exploration=_positive(float(value)))
            elif key == "width":
                width = _positive(int(value))
                settings = replace(settings, turn_width=width, plan_width=width)
            else:
                raise ValueError
        except ValueError:
            raise ValueError(f"bad mcts option {part!r}: use a level ({', '.join(LEVELS)}), "
                             "iterations=N, time=SECONDS, c=EXPLORATION or width=N") from None
    if time_given is not None:
        settings = replace(settings, time_limit=time_given,
                            iterations=settings.iterations if iterations_given else None)
    return settings


def _positive(x: float) -> float:
    if not x > 0:
        raise ValueError
    return x


# -- the tree ---------------------------------------------------------------------------------


@dataclass(eq=False)
class _Arm:
    """Statistics of one option at a node, for the player who chooses it."""

    action: Action
    prior: float
    visits: int = 0
    total: float = 0.0


@dataclass(eq=False)
class _Node:
    """A point in the current round: either simultaneous planning or one player's turn."""

    movers: tuple[int, ...]
    arms: list[list[_Arm]]  # per mover, options best prior first
    visits: int = 0
    children: dict[tuple[int, ...], _Node] = field(default_factory=dict)


def _normalised(values: Sequence[float]) -> list[float]:
    lo, hi = min(values), max(values)
    span = hi - lo
    return [((v - lo) / span if span > 0 else 1.0) for v in values]


class MCTSBot:
    name = "mcts"

    def __init__(self, seed: int | None = None, settings: Settings | None = None,
                 weights: Weights = DEFAULT_WEIGHTS, label: str = "mcts") -> None:
        self.rng = random.Random(seed)
        self.settings = settings or LEVELS["medium"]
        self.weights = weights
        self.name = label
        self.last_iterations = 0  # of the last decision, for benchmarks and reports
        self._me: int | None = None
        self._policy: dict[tuple[Action, ...], Action] = {}  # this decision's rollout moves

    # -- the decision -------------------------------------------------------------------------

    def decide(self, view: PlayerView, legal_actions: Sequence[Action]) -> Action:
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        me = view.viewer
        assert me is not None
        self._me = me
        seed = self.rng.getrandbits(64)
        if len(legal_actions) == 1:
            self.last_iterations = 0
            return legal_actions[0]
        rng = random.Random(seed)
        self._policy = {}
        root: _Node | None = None
        s = self.settings
        deadline = time.perf_counter() + s.time_limit if s.time_limit else None
        done = 0
        while True:
            if s.iterations is not None and done >= s.iterations:
                break
            if deadline is not None and done > 0 and time.perf_counter() >= deadline:
                break
            state = resample(view, rng)
            if root is None:
                root = self._new_node(state)
            self._iterate(root, state)
            done += 1
        self.last_iterations = done
        self._policy = {}
        assert root is not None
        arms = root.arms[root.movers.index(me)]
        return max(arms, key=lambda a: (a.visits, a.total)).action

    # -- one iteration --------------------------------------------------------------------------

    def _iterate(self, root: _Node, state: GameState) -> None:
        start_round = state.round
        path: list[tuple[_Node, tuple[int, ...]]] = []
        node: _Node | None = root
        while node is not None:
            choice = self._select(node)
            path.append((node, choice))
            for arms, index in zip(node.arms, choice, strict=True):
                apply_in_place(state, arms[index].action)
            if state.round != start_round or state.phase is Phase.OVER:
                break
            child = node.children.get(choice)
            if child is None:
                node.children[choice] = self._new_node(state)
                break
            node = child
        self._finish_round(state, start_round)
        reward = rewards(final_estimates(state, self.weights), self.settings.reward_scale)
        for node, choice in path:
            node.visits += 1
            for k, index in enumerate(choice):
                arm = node.arms[k][index]
                arm.visits += 1
                arm.total += float(reward[node.movers[k]])

    def _select(self, node: _Node) -> tuple[int, ...]:
        s = self.settings
        log_n = math.log(node.visits + 1)
        choice = []
        for arms in node.arms:
            best_i, best_v = 0, -math.inf
            for i, arm in enumerate(arms):
                if arm.visits == 0:
                    value = 1e9 + arm.prior  # try every option once, favourites first
                else:
                    value = (arm.total / arm.visits
                             + s.exploration * math.sqrt(log_n / arm.visits)
                             + s.prior_weight * arm.prior / (arm.visits + 1))
                if value > best_v:
                    best_i, best_v = i, value
            choice.append(best_i)
        return tuple(choice)

    def _new_node(self, state: GameState) -> _Node:
        """Options and priors; only the bot's own objective is used, as it is the only one the
        bot knows (the determinized objectives of others differ from one iteration to the next).
        """
        s = self.settings
        movers = state.to_move()
        arms = []
        if state.phase is Phase.PLANNING:
            for p in movers:
                plans = [a for a in legal_actions(state, p) if isinstance(a, Plan)]
                values = plan_values(state, p, plans, self._objective(state, p), self.weights)
                order = sorted(range(len(plans)), key=lambda i: values[i], reverse=True)
                order = order[: s.plan_width]
                priors = _normalised([values[i] for i in order])
                arms.append([_Arm(plans[i], pr) for i, pr in zip(order, priors, strict=True)])
        else:
            p = movers[0]
            ranked = ranked_turns(state, p, legal_actions(state, p), self._objective(state, p),
                                  self.weights, limit=s.turn_width)
            priors = _normalised([v for _, v in ranked])
            arms.append([_Arm(a, pr) for (a, _), pr in zip(ranked, priors, strict=True)])
        return _Node(tuple(movers), arms)

    def _objective(self, state: GameState, player: int) -> int | None:
        return state.players[player].objective if player == self._me else None

    def _finish_round(self, state: GameState, start_round: int) -> None:
        """Play the rest of the round with the planner's choices.

        Within the round every determinization shows the same public position after the same
        actions, and the planner is given only the objective the bot knows, so its choice
        depends on the actions so far alone and is computed once per decision.
        """
        while state.round == start_round and state.phase is not Phase.OVER:
            key = tuple(state.history)
            action = self._policy.get(key)
            if action is None:
                action = self._policy_move(state)
                self._policy[key] = action
            apply_in_place(state, action)

    def _policy_move(self, state: GameState) -> Action:
        p = state.to_move()[0]
        objective = self._objective(state, p)
        if state.phase is Phase.PLANNING:
            plans = [a for a in legal_actions(state, p) if isinstance(a, Plan)]
            values = plan_values(state, p, plans, objective, self.weights)
            return plans[max(range(len(plans)), key=values.__getitem__)]
        return ranked_turns(state, p, legal_actions(state, p), objective, self.weights,
                            limit=1, weddings=1)[0][0]


def make_mcts(seed: int | None, options: str = "") -> MCTSBot:
    label = "mcts" + (f":{options}" if options else "")
    return MCTSBot(seed, parse_settings(options), label=label)
