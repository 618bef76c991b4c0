"""Information-Set Monte Carlo Tree Search for any game (Cowling, Powley and Whitehouse 2012).

The bot is given only its view. Each iteration deals one *determinization* of what it cannot
see (`Game.resample`: hidden facts and future chance drawn anew) and walks one shared tree with
it, so statistics are gathered over the information set, not over one guessed state.

- Simultaneous moves: a node where several seats move keeps separate statistics for each of
  them and each picks its own option by UCB (decoupled selection); the joint choice leads on.
- Chance: when applying a choice reveals chance outcomes (dice, a drawn tile), the child is
  keyed by those outcomes too, so each outcome grows its own subtree (a chance node).
- The game may lend its heuristics (`SearchHooks`): which options to consider and their priors,
  a rollout policy, a horizon (Gonzaga searches to the end of the round) and each seat's
  expected final score at the position reached. A seat's reward is its lead over the best
  other seat through a logistic curve (`rewards`). Without heuristics the search considers
  every legal action and plays random rollouts to the end, where the scores are exact.
- Besides a move, the search can say what it thinks of each option (`MCTSBot.analyse`): how
  often it tried it and the lead over the best other seat it expects from it, in points, which
  is what hints and game reviews show people.

Budgets: a number of iterations (deterministic for a given seed) and/or a time limit.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any, Protocol, TypeVar

from . import registry
from .collector import spaced
from .game import Game


@dataclass(frozen=True)
class Settings:
    iterations: int | None = 1500  # None: only the time limit counts
    time_limit: float | None = None  # seconds per decision
    exploration: float = 0.5  # UCB constant, rewards being in [0, 1]
    joint_width: int = 8  # options per seat where several seats move at once
    width: int = 6  # options where one seat moves
    prior_weight: float = 0.3  # progressive bias towards the heuristic's favourites
    lookahead: int = 0  # rounds a rollout plays on past the tree (games whose hooks read it)
    anchor: float = 0.0  # points of expected lead another option needs over the favourite
    reward_scale: float | None = None  # points of lead worth a reward of 0.73 (None: the game's)
    value: str = ""  # the evaluation at the horizon: "" the game's own, else one it lends
    # (players, ((field, value), ...)): the fields that differ in a game of that many players
    # (`per_players`): an iteration of a 4-player game costs about twice one of a 2-player
    # game, and what helps a 2-player search may lose 4-player games
    by_players: tuple[tuple[int, tuple[tuple[str, Any], ...]], ...] = ()

    def __post_init__(self) -> None:
        if self.iterations is None and self.time_limit is None:
            raise ValueError("an mcts budget needs iterations, a time limit or both")
        for _, values in self.by_players:
            unknown = {k for k, _ in values} - _PER_PLAYERS_FIELDS
            if unknown:
                raise ValueError(f"{', '.join(sorted(unknown))} cannot differ by players")
            replace(self, by_players=(), **dict(values))  # each count's settings are valid

    def at(self, players: int) -> Settings:
        """The settings of a decision in a game of `players`."""
        if not self.by_players:
            return self
        return replace(self, by_players=(), **dict(dict(self.by_players).get(players, ())))

    def budget(self, players: int) -> int | None:
        """The iterations of one decision in a game of `players`."""
        return self.at(players).iterations

    def everywhere(self, **changes: Any) -> Settings:
        """`changes` at every number of players: an option a bot's spec names overrides what
        its level sets per number of players."""
        kept = ((n, tuple((k, v) for k, v in values if k not in changes))
                for n, values in self.by_players)
        return replace(self, **changes, by_players=tuple((n, f) for n, f in kept if f))


_PER_PLAYERS_FIELDS = {f.name for f in fields(Settings)} - {"by_players"}


def per_players(counts: Mapping[int, Mapping[str, Any]]
                ) -> tuple[tuple[int, tuple[tuple[str, Any], ...]], ...]:
    """`Settings.by_players` written as a mapping: `per_players({2: {"anchor": 2.0}})`."""
    return tuple((n, tuple(sorted(values.items()))) for n, values in sorted(counts.items()))


DEFAULT_LEVELS: dict[str, Settings] = {
    "easy": Settings(iterations=100, joint_width=5, width=4),
    "medium": Settings(iterations=400),
    "hard": Settings(iterations=1000),
}


class SearchHooks(Protocol):
    """A game's heuristics for one decision (built by `SearchSpec.hooks`)."""

    def options(self, state: Any, seat: int, settings: Settings) -> list[tuple[Any, float]]:
        """The seat's legal actions worth searching with their heuristic values, best first:
        at most `settings.width`, or `settings.joint_width` in a simultaneous phase."""
        ...

    def rollout(self, state: Any) -> Any:
        """The policy's move for the first seat to move."""
        ...

    def horizon(self, state: Any) -> Hashable:
        """Where the search stops: an iteration ends when this value changes (or at the end).
        A game may also lend `rollout_horizon`, the same for rollouts, to play them on past
        the tree (a look past the round); by default rollouts stop at `horizon`.
        A game whose tree reveals no chance and whose moves in the tree read no hidden fact
        may lend `redeal(position, view, rng)`: the position a tree node was reached at
        (under another iteration's deal) with the hidden facts `Game.resample(view, rng)`
        would deal, drawn alike, equal to the state that replaying the node's path on that
        deal gives; the search then keeps each node's position and applies only the last
        choice of an iteration's path."""
        ...

    #: points of lead that make a reward of about 0.73 (`rewards`)
    reward_scale: float

    def estimates(self, state: Any) -> Sequence[float]:
        """Each seat's expected final score at the position an iteration reached (exact
        once the game is over)."""
        ...


def leads(estimates: Sequence[float]) -> list[float]:
    """Each seat's expected final score minus the best other seat's: the best seat's lead is
    over the second best (the same score on a tie), every other seat's over the best."""
    values = [float(e) for e in estimates]
    top = max(range(len(values)), key=values.__getitem__)
    best = values[top]
    second = max(values[:top] + values[top + 1:])
    return [v - (second if i == top else best) for i, v in enumerate(values)]


def rewards(estimates: Sequence[float], scale: float) -> list[float]:
    """Each seat's reward in [0, 1]: how far ahead of the best other seat it stands."""
    return rewards_of_leads(leads(estimates), scale)


def rewards_of_leads(lead: Sequence[float], scale: float) -> list[float]:
    out = []
    for x in lead:
        margin = max(-50.0, min(50.0, x / scale))
        out.append(1.0 / (1.0 + math.exp(-margin)))
    return out


class SearchSpec(Protocol):
    """What a game lends the search: its levels and its heuristics. A spec may also lend
    `values`, the names of other evaluations at the horizon that `Settings.value` may ask its
    hooks for (`mcts:hard:value=learned`); a name it does not lend is refused."""

    @property
    def levels(self) -> Mapping[str, Settings]: ...

    def hooks(self, view: Any, seat: int, settings: Settings) -> SearchHooks: ...


class RandomHooks:
    """For games without heuristics: every legal action, random rollouts to the end, and each
    seat's share of the win as its "score" (a game's winner need not have the most points),
    so a lead is counted in wins, not points."""

    reward_scale = 0.25

    def __init__(self, game: Game, rng: random.Random) -> None:
        self.game = game
        self.rng = rng

    def options(self, state: Any, seat: int, settings: Settings) -> list[tuple[Any, float]]:
        return [(a, 0.0) for a in self.game.legal_actions(state, seat)]

    def rollout(self, state: Any) -> Any:
        legal = self.game.legal_actions(state, state.to_move()[0])
        return legal[self.rng.randrange(len(legal))]

    def horizon(self, state: Any) -> Hashable:
        return None

    def estimates(self, state: Any) -> Sequence[float]:
        winners = self.game.winners(state)
        share = 1.0 / len(winners) if winners else 0.0
        return [share if i in winners else 0.0 for i in range(len(self.game.scores(state)))]


def parse_settings(options: str, levels: Mapping[str, Settings] = DEFAULT_LEVELS) -> Settings:
    """`hard`, `iterations=2000`, `time=1.5`, or several joined by `:` (`hard:time=1`).

    A time limit given without an iteration count replaces the level's iteration budget.
    """
    settings = levels["medium"]
    iterations_given = False
    time_given: float | None = None
    for part in (options or "").split(":"):
        part = part.strip().lower()
        if not part:
            continue
        if part in levels:
            settings = levels[part]
            continue
        key, sep, value = part.partition("=")
        try:
            if not sep:
                raise ValueError
            if key in ("iterations", "n"):
                settings = settings.everywhere(iterations=_positive(int(value)))
                iterations_given = True
            elif key in ("time", "t"):
                time_given = _positive(float(value))
            elif key in ("c", "exploration"):
                settings = settings.everywhere(exploration=_positive(float(value)))
            elif key == "prior":
                settings = settings.everywhere(prior_weight=_non_negative(float(value)))
            elif key == "scale":
                settings = settings.everywhere(reward_scale=_positive(float(value)))
            elif key == "value":
                settings = settings.everywhere(value=_named(value))
            elif key == "anchor":
                settings = settings.everywhere(anchor=_non_negative(float(value)))
            elif key == "lookahead":
                settings = settings.everywhere(lookahead=_count(int(value)))
            elif key == "width":
                width = _positive(int(value))
                settings = settings.everywhere(width=width, joint_width=width)
            else:
                raise ValueError
        except ValueError:
            raise ValueError(f"bad mcts option {part!r}: use a level ({', '.join(levels)}), "
                             "iterations=N, time=SECONDS, c=EXPLORATION, width=N, "
                             "lookahead=ROUNDS, anchor=POINTS, prior=WEIGHT, "
                             "scale=POINTS or value=NAME") from None
    if time_given is not None:
        settings = settings.everywhere(time_limit=time_given)
        if not iterations_given:
            settings = settings.everywhere(iterations=None)
    return settings


N = TypeVar("N", int, float)  # a count or an amount, read from a bot spec's option


def _positive(x: N) -> N:
    if not x > 0:
        raise ValueError
    return x


def _count(x: int) -> int:
    if x < 0:
        raise ValueError
    return x


def _named(x: str) -> str:
    if not x.isidentifier():
        raise ValueError
    return x


def _non_negative(x: float) -> float:
    if not x >= 0:
        raise ValueError
    return x


# -- the tree ---------------------------------------------------------------------------------


@dataclass(eq=False, slots=True)
class _Arm:
    """Statistics of one option at a node, for the seat who chooses it."""

    action: Any
    prior: float
    visits: int = 0
    total: float = 0.0  # rewards summed over the visits
    lead: float = 0.0  # expected leads over the best other seat, in points, summed


@dataclass(eq=False, slots=True)
class _Node:
    """A point of the search: the seats to move there and each one's options."""

    movers: tuple[int, ...]
    arms: list[list[_Arm]]  # per mover, options best prior first
    visits: int = 0
    children: dict[Hashable, _Node] = field(default_factory=dict)
    #: the state here under the deal of the iteration that made the node, kept for games whose
    #: hooks continue an iteration from it (`redeal`), the root's included
    position: Any = None


@dataclass(frozen=True)
class MoveValue:
    """One option as the search saw it: how often it was tried, its mean reward in [0, 1],
    and the lead over the best other seat it leads to, in expected final points."""

    action: Any
    visits: int
    reward: float
    lead: float
    #: the seat's own choices that complete the move it opens, as the search would go on
    #: (games whose moves take several steps: `Game.opens_move`)
    then: tuple[Any, ...] = ()


def _add_arm(node: _Node, seat: int, action: Any) -> None:
    """Make sure the seat's `action` is one of the node's options (tried first: no visits)."""
    arms = node.arms[node.movers.index(seat)]
    if all(arm.action != action for arm in arms):
        arms.append(_Arm(action, 0.0))


def _chosen(arms: list[_Arm], anchor: float) -> _Arm:
    """The most visited option, unless it leads by less than `anchor` points over the
    heuristic's favourite (the first option): a search whose estimates are noisier than its
    heuristic's judgement should overrule it only when it finds a clear gain."""
    best = max(arms, key=lambda a: (a.visits, a.total))
    favourite = arms[0]
    if anchor and best is not favourite and favourite.visits:
        gain = best.lead / best.visits - favourite.lead / favourite.visits
        if gain < anchor:
            return favourite
    return best


def _normalised(values: Sequence[float]) -> list[float]:
    lo, hi = min(values), max(values)
    span = hi - lo
    return [((v - lo) / span if span > 0 else 1.0) for v in values]


class MCTSBot:
    """ISMCTS as a bot: `decide(view, legal_actions)` like every other."""

    def __init__(self, game: Game, seed: int | None = None, settings: Settings | None = None,
                 label: str = "mcts", search: SearchSpec | None = None) -> None:
        self.game = game
        self.rng = random.Random(seed)
        spec = self.search = search or game.search  # another spec: a tuner's candidate weights
        self.settings = settings or (spec.levels if spec else DEFAULT_LEVELS)["medium"]
        self.name = label
        self.last_iterations = 0  # of the last decision, for benchmarks and reports
        self._now = self.settings  # the settings at the current decision's number of players

    def decide(self, view: Any, legal_actions: Sequence[Any]) -> Any:
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        me = view.viewer
        if me is None:
            raise ValueError("a bot decides for a seat; a spectator's view was given")
        seed = self.rng.getrandbits(64)
        if len(legal_actions) == 1:
            self.last_iterations = 0
            return legal_actions[0]
        rng = random.Random(seed)
        spec = self.search
        settings = self.settings.at(len(self.game.scores(view)))
        hooks = spec.hooks(view, me, settings) if spec else RandomHooks(self.game, rng)
        root = self._search(view, hooks, rng, settings)
        arms = root.arms[root.movers.index(me)]
        return _chosen(arms, settings.anchor).action

    def analyse(self, view: Any, legal_actions: Sequence[Any],
                include: Any = None) -> list[MoveValue]:
        """What the search thinks of the viewer's options now, the move it would make first;
        one option alone is searched too, for its expected lead. `include` (a legal action)
        is searched even if the game's heuristics would not consider it: a review values the
        move a player actually made."""
        if not legal_actions:
            raise ValueError("no legal action to analyse")
        me = view.viewer
        if me is None:
            raise ValueError("an analysis is for a seat; a spectator's view was given")
        rng = random.Random(self.rng.getrandbits(64))
        spec = self.search
        settings = self.settings.at(len(self.game.scores(view)))
        hooks = spec.hooks(view, me, settings) if spec else RandomHooks(self.game, rng)
        root = self._search(view, hooks, rng, settings, (me, include))
        mine = root.arms[root.movers.index(me)]
        arms = sorted(mine, key=lambda a: (a.visits, a.total), reverse=True)
        return [MoveValue(a.action, a.visits, a.total / a.visits, a.lead / a.visits,
                          self._then(root, me, mine.index(a)))
                for a in arms if a.visits]

    def _then(self, node: _Node, me: int, index: int) -> tuple[Any, ...]:
        """The steps after option `index` that complete the seat's move: in the tree, while
        the seat alone moves, no chance is revealed and the game says the move goes on
        (`opens_move`), its most tried option. Games without `opens_move` move in one step."""
        opens_move = registry.move_words(self.game.info.name).opens_move
        line: list[Any] = []
        while opens_move is not None and node.movers == (me,):
            child = node.children.get((index,))
            if child is None or child.movers != (me,):
                break
            tried = [a for a in child.arms[0] if a.visits]
            if not tried:
                break
            step = max(tried, key=lambda a: (a.visits, a.total))
            if opens_move(step.action):
                break
            line.append(step.action)
            node, index = child, child.arms[0].index(step)
        return tuple(line)

    def _search(self, view: Any, hooks: SearchHooks, rng: random.Random, settings: Settings,
                include: tuple[int, Any] | None = None) -> _Node:
        self._now = settings
        with spaced():
            return self._search_on(view, hooks, rng, include)

    def _search_on(self, view: Any, hooks: SearchHooks, rng: random.Random,
                   include: tuple[int, Any] | None) -> _Node:
        s = self._now
        budget = s.iterations
        deadline = time.perf_counter() + s.time_limit if s.time_limit else None
        root: _Node | None = None
        done = 0
        while True:
            if budget is not None and done >= budget:
                break
            if deadline is not None and done > 0 and time.perf_counter() >= deadline:
                break
            if root is None:
                state = self.game.resample(view, rng)
                root = self._new_node(state, hooks)
                if hasattr(hooks, "redeal"):
                    root.position = self.game.clone(state)
                if include is not None and include[1] is not None:
                    _add_arm(root, *include)
                self._iterate(root, state, hooks, view, rng)
            else:
                self._iterate(root, None, hooks, view, rng)
            done += 1
        self.last_iterations = done
        assert root is not None
        return root

    def _iterate(self, root: _Node, state: Any, hooks: SearchHooks, view: Any,
                 rng: random.Random) -> None:
        """One iteration: the deal `state` (None: this iteration deals its own)."""
        game = self.game
        rollout_horizon = getattr(hooks, "rollout_horizon", hooks.horizon)
        redeal = getattr(hooks, "redeal", None)
        if redeal is None:
            state = game.resample(view, rng) if state is None else state
            rollout_start = rollout_horizon(state)
            path = self._replay(root, state, hooks, hooks.horizon(state))
        else:  # horizons are public: the root's under any deal
            rollout_start = rollout_horizon(root.position)
            path, state = self._continue(root, state, hooks, hooks.horizon(root.position),
                                         redeal, view, rng)
        while not state.is_over and rollout_horizon(state) == rollout_start:
            game.apply_in_place(state, hooks.rollout(state))
        lead = leads(hooks.estimates(state))
        reward = rewards_of_leads(lead, self._now.reward_scale or hooks.reward_scale)
        for node, choice in path:
            node.visits += 1
            for k, index in enumerate(choice):
                arm = node.arms[k][index]
                arm.visits += 1
                arm.total += reward[node.movers[k]]
                arm.lead += lead[node.movers[k]]

    def _replay(self, root: _Node, state: Any, hooks: SearchHooks, start: Hashable
                ) -> list[tuple[_Node, tuple[int, ...]]]:
        """Walk the tree from the root, applying each choice to this iteration's deal."""
        game = self.game
        path: list[tuple[_Node, tuple[int, ...]]] = []
        node: _Node | None = root
        while node is not None:
            choice = self._select(node)
            path.append((node, choice))
            seen = len(game.chance_events(state))
            for arms, index in zip(node.arms, choice, strict=True):
                game.apply_in_place(state, arms[index].action)
            if state.is_over or hooks.horizon(state) != start:
                break
            revealed = tuple(game.chance_events(state)[seen:])
            key = (choice, revealed) if revealed else choice
            child = node.children.get(key)
            if child is None:
                node.children[key] = self._new_node(state, hooks)
                break
            node = child
        return path

    def _continue(self, root: _Node, deal: Any, hooks: SearchHooks, start: Hashable,
                  redeal: Any, view: Any, rng: random.Random
                  ) -> tuple[list[tuple[_Node, tuple[int, ...]]], Any]:
        """`_replay` for games whose tree reveals no chance and whose hidden facts no move in
        the tree reads (`redeal`): the choices are selected down to the last node first, and
        that node's kept position, given this iteration's hidden facts, is the state
        replaying the path would reach there; only the last choice is applied."""
        path: list[tuple[_Node, tuple[int, ...]]] = []
        node = root
        while True:
            choice = self._select(node)
            path.append((node, choice))
            child = node.children.get(choice)
            if child is None:
                break
            node = child
        if node is not root:
            state = redeal(node.position, view, rng)
        else:
            state = self.game.resample(view, rng) if deal is None else deal
        for arms, index in zip(node.arms, choice, strict=True):
            self.game.apply_in_place(state, arms[index].action)
        if not state.is_over and hooks.horizon(state) == start:
            child = node.children[choice] = self._new_node(state, hooks)
            child.position = self.game.clone(state)
        return path, state

    def _select(self, node: _Node) -> tuple[int, ...]:
        s = self._now
        exploration, prior_weight, sqrt = s.exploration, s.prior_weight, math.sqrt
        log_n = math.log(node.visits + 1)
        choice = []
        for arms in node.arms:
            best_i, best_v = 0, -math.inf
            for i, arm in enumerate(arms):
                visits = arm.visits
                if visits == 0:
                    value = 1e9 + arm.prior  # try every option once, favourites first
                else:
                    value = (arm.total / visits
                             + exploration * sqrt(log_n / visits)
                             + prior_weight * arm.prior / (visits + 1))
                if value > best_v:
                    best_i, best_v = i, value
            choice.append(best_i)
        return tuple(choice)

    def _new_node(self, state: Any, hooks: SearchHooks) -> _Node:
        movers = tuple(state.to_move())
        arms = []
        for seat in movers:
            ranked = hooks.options(state, seat, self._now)
            priors = _normalised([v for _, v in ranked])
            arms.append([_Arm(a, p) for (a, _), p in zip(ranked, priors, strict=True)])
        return _Node(movers, arms)


def make_mcts(game: Game, seed: int | None, options: str = "") -> MCTSBot:
    """The search bot from the options of its spec (`mcts:hard`, `mcts:iterations=500`)."""
    levels = game.search.levels if game.search else DEFAULT_LEVELS
    label = "mcts" + (f":{options}" if options else "")
    settings = parse_settings(options, levels)
    lent = getattr(game.search, "values", ())
    if settings.value and settings.value not in lent:
        raise ValueError(f"bad mcts option value={settings.value}: {game.info.title} lends "
                         + (", ".join(lent) if lent else "no other evaluation"))
    return MCTSBot(game, seed, settings, label=label)
