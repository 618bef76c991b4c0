"""Bots: what they may see, that they decide deterministically, and that they choose well."""

from __future__ import annotations

import dataclasses
import enum
import random
from typing import Any

import numpy as np
import pytest
from boards import tiny_board
from gonzaga_helpers import attributes, game, plan_all, put

from tavola.games.gonzaga.actions import Donate, PlaceFief, Plan, Wedding
from tavola.games.gonzaga.bots import BOTS
from tavola.games.gonzaga.bots.evaluation import (
    MoveContext,
    final_estimates,
    objective_masks,
    rounds_left,
)
from tavola.games.gonzaga.bots.mcts import LEVELS, MCTSBot, parse_settings
from tavola.games.gonzaga.engine import (
    apply_in_place,
    group_labels,
    legal_actions,
    new_game,
    placement_points,
    view,
)
from tavola.games.gonzaga.game import make_bot
from tavola.games.gonzaga.match import play_game
from tavola.games.gonzaga.placement import FiefPlacements
from tavola.games.gonzaga.state import OBJECTIVE_POINTS, GameState, Phase, PlayerState, Rules, Setup
from tavola.search import leads, rewards

BOARD = tiny_board()
SEARCH = "mcts:iterations=40"


def advance(state: GameState, steps: int, seed: int = 0) -> GameState:
    """Play `steps` actions with greedy bots (each seat sees only its view)."""
    bots = [make_bot("greedy", seed + i) for i in range(state.num_players)]
    for _ in range(steps):
        if state.is_over:
            break
        seat = state.to_move()[0]
        apply_in_place(state, bots[seat].decide(view(state, seat), legal_actions(state, seat)))
    return state


# -- what a bot is given ------------------------------------------------------------------------


class Forbidden(AssertionError):
    pass


def dump(obj: Any, rules: Rules, path: str = "view") -> Any:
    """Everything reachable from what a bot is handed, as plain data.

    Reaching the full state, a player's secret record or the deal is a leak in itself. The
    static rules (board, scenario, placement tables) are shared by everyone and compared by
    identity.
    """
    if isinstance(obj, GameState | PlayerState | Setup):
        raise Forbidden(f"{path} reaches a {type(obj).__name__}")
    if obj is rules:
        return "<rules>"
    if isinstance(obj, Rules):
        raise Forbidden(f"{path} holds rules of another game")
    if isinstance(obj, FiefPlacements):
        for fief, table in rules.tables.fiefs.items():
            if obj is table:
                return f"<placements of fief {fief}>"
        raise Forbidden(f"{path} holds placements of another board")
    if isinstance(obj, enum.Enum):
        return obj.value
    if obj is None or isinstance(obj, bool | int | float | str):
        return obj
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    if isinstance(obj, bytes):
        return list(obj)
    if isinstance(obj, np.generic):
        return obj.item()
    if dataclasses.is_dataclass(obj):
        return (type(obj).__name__, {f.name: dump(getattr(obj, f.name), rules, f"{path}.{f.name}")
                                     for f in dataclasses.fields(obj)})
    if isinstance(obj, tuple | list):
        return [dump(x, rules, f"{path}[{i}]") for i, x in enumerate(obj)]
    if isinstance(obj, frozenset | set):
        return sorted(dump(x, rules, path) for x in obj)
    if isinstance(obj, dict):
        return {repr(k): dump(v, rules, f"{path}[{k!r}]") for k, v in obj.items()}
    if hasattr(obj, "__dict__") or hasattr(type(obj), "__mypyc_attrs__"):  # LegalActions
        return (type(obj).__name__, {k: dump(v, rules, f"{path}.{k}")
                                     for k, v in attributes(obj).items()})
    raise Forbidden(f"{path}: cannot inspect a {type(obj).__name__}")


def twin(state: GameState, me: int, seed: int) -> GameState:
    """The same game as `me` knows it, with every secret of the others changed.

    Other objectives come from the cards nobody holds, every deck is reordered (the player's
    own too: nobody knows their deck's order), and the plans not yet revealed are replaced.
    """
    rng = random.Random(seed)
    other = state.clone()
    held = {p.objective for p in state.players}
    unseen = [o for o in state.board.objectives if o not in held]
    rng.shuffle(unseen)
    for i, p in enumerate(other.players):
        if len(p.deck) > 1:
            while p.deck == state.players[i].deck:
                rng.shuffle(p.deck)
        if i == me:
            continue
        p.objective = unseen.pop()
        if state.phase is Phase.PLANNING and p.plan is not None:
            plans = [Plan(i, r, a) for r in state.rules.region_cards for a in
                     ("harbors", "cities", "alliance") if r not in p.resting and a not in p.resting]
            p.plan = next(x for x in plans if x != p.plan)
    other.setup = dataclasses.replace(
        other.setup, decks=tuple(tuple(p.deck) for p in other.players),
        objectives=tuple(p.objective or 0 for p in other.players))
    return other


POSITIONS = [(2, 0), (2, 5), (3, 2), (4, 9), (4, 14)]  # (players, greedy actions played)


@pytest.mark.parametrize(("players", "steps"), POSITIONS)
def test_a_bot_that_digs_through_its_view_finds_no_secret(players, steps):
    state = advance(new_game(players, seed=7, board=BOARD), steps)
    for me in range(players):
        if me not in state.to_move():
            continue
        secret = twin(state, me, seed=steps)
        assert [p.objective for p in secret.players] != [p.objective for p in state.players]
        seen = dump((view(state, me), legal_actions(state, me)), state.rules)
        seen_twin = dump((view(secret, me), legal_actions(secret, me)), secret.rules)
        # The two games differ in every secret yet look identical from this seat.
        assert seen == seen_twin


def test_the_dump_would_catch_a_leak():
    """The digging above is able to fail: a view holding a secret is told apart."""
    state = new_game(2, seed=3, board=BOARD)
    leaky = view(state, 0)
    leaky_players = list(leaky.players)
    leaky_players[1] = dataclasses.replace(leaky_players[1],
                                           objective=state.players[1].objective)
    leaky.players = tuple(leaky_players)
    secret = twin(state, 0, seed=1)
    assert dump(leaky, state.rules) != dump(view(secret, 0), secret.rules)
    with pytest.raises(Forbidden):
        dump({"oops": state}, state.rules)


@pytest.mark.parametrize("spec", ["random", "greedy", "planner", SEARCH])
@pytest.mark.parametrize(("players", "steps"), POSITIONS)
def test_decisions_do_not_depend_on_secrets(spec, players, steps):
    state = advance(new_game(players, seed=11, board=BOARD), steps, seed=steps)
    for me in state.to_move():
        secret = twin(state, me, seed=me + 1)
        a = make_bot(spec, seed=5).decide(view(state, me), legal_actions(state, me))
        b = make_bot(spec, seed=5).decide(view(secret, me), legal_actions(secret, me))
        assert a == b


def test_match_hands_bots_views_only():
    seen: list[str] = []

    class Spy:
        name = "spy"

        def decide(self, v, legal):
            seen.append(type(v).__name__)
            dump((v, legal), v.rules)
            return legal[0]

    play_game([Spy(), make_bot("greedy", 1)], seed=4, board=BOARD)
    assert seen and set(seen) == {"PlayerView"}


# -- specs and determinism ----------------------------------------------------------------------


def test_specs():
    assert set(BOTS) >= {"random", "greedy", "planner", "mcts"}
    assert isinstance(make_bot("mcts:hard"), MCTSBot)
    assert make_bot("mcts:hard").settings == LEVELS["hard"]
    assert make_bot("MCTS:Easy").settings == LEVELS["easy"]
    assert make_bot("mcts").settings == LEVELS["medium"]
    s = parse_settings("iterations=2000")
    assert s.iterations == 2000 and s.time_limit is None
    s = parse_settings("time=1.5")
    assert s.time_limit == 1.5 and s.iterations is None
    s = parse_settings("hard:time=1:iterations=50")
    assert (s.iterations, s.time_limit) == (50, 1.0)
    assert make_bot("mcts:iterations=20").name == "mcts:iterations=20"


@pytest.mark.parametrize("spec", ["mcts:iterations=0", "mcts:time=-1", "mcts:brutal",
                                  "mcts:iterations=many", "mcts:depth=3", "greedy:hard",
                                  "alphazero"])
def test_bad_specs_are_named(spec):
    with pytest.raises(ValueError) as err:
        make_bot(spec)
    assert spec.split(":")[-1] in str(err.value) or spec in str(err.value)


@pytest.mark.parametrize("spec", ["planner", SEARCH])
def test_same_seed_same_game(spec):
    def once():
        bots = [make_bot(spec, seed=3), make_bot("greedy", seed=4), make_bot(spec, seed=5)]
        return play_game(bots, seed=21, board=BOARD).history

    assert once() == once()


def test_time_budget_stops_the_search(monkeypatch):
    """A clock that moves a quarter second per reading: a 1 s budget leaves time for the
    iterations that start at 0.25, 0.5 and 0.75 s."""
    ticks = iter(range(10**6))
    monkeypatch.setattr("tavola.search.time.perf_counter", lambda: next(ticks) * 0.25)
    bot = make_bot("mcts:time=1", seed=1)
    state = new_game(2, seed=1, board=BOARD)
    bot.decide(view(state, 0), legal_actions(state, 0))
    assert bot.last_iterations == 4


def test_a_single_legal_action_needs_no_search():
    state = game(BOARD, 2, tops=[[120], [10]])
    state = plan_all(state, {0: ("hispania", "harbors"), 1: ("francia", "cities")})
    state.fief_owner[:] = 1  # the map is full: only the donation is left for red
    bot = make_bot("mcts:hard", seed=1)
    assert bot.decide(view(state, 0), legal_actions(state, 0)) == Donate(0)
    assert bot.last_iterations == 0


# -- choosing well ------------------------------------------------------------------------------


def harbors_of(state: GameState, sea_hexes: list[tuple[int, int]]) -> None:
    for h in sea_hexes:
        put(state, 0, [h], kind="ring")


@pytest.mark.parametrize("spec", ["planner", "mcts:iterations=150"])
def test_bots_complete_a_sea_league(spec):
    """Red holds two harbors of Hispania's sea; a third there is worth 13 at once."""
    state = game(BOARD, 2, tops=[[30], [20]])  # fief 30 fits on Hispania's coast
    harbors_of(state, [(0, 7), (1, 7)])
    state = plan_all(state, {0: ("hispania", "harbors"), 1: ("francia", "cities")})
    while state.current_player != 0:
        apply_in_place(state, Donate(state.current_player))
    action = make_bot(spec, seed=2).decide(view(state, 0), legal_actions(state, 0))
    assert isinstance(action, PlaceFief)
    fp = state.rules.fief_placements(30)
    row = fp.row_of(state.board.index_of[action.anchor], action.rotation)
    assert placement_points(state, 0, 30, np.array([row]))[0] >= 13


def test_an_objective_city_is_worth_its_step_on_the_table():
    """Among placements covering one flourishing city and nothing else, those on a city of the
    objective card are worth exactly the table's first step (0 -> 2 points) more."""
    state = game(BOARD, 2, tops=[[10], [20]], objectives=[1, 2])
    fp = state.rules.fief_placements(10)
    rows = np.flatnonzero((fp.cities == 1) & (fp.harbors == 0))
    rows = rows[placement_points(state, 0, 10, rows) == 3]
    values = MoveContext(state, 0, 1).placement_values(10, rows)
    on_card = objective_masks(state.board)[1][fp.cells[rows]].any(axis=1)
    assert on_card.any() and (~on_card).any()
    step = OBJECTIVE_POINTS[1] - OBJECTIVE_POINTS[0]
    assert np.allclose(values[on_card], values[~on_card].max() + step)
    assert np.allclose(values[~on_card], values[~on_card].max())
    # Without knowing the objective (an opponent's), no city is preferred.
    blind = MoveContext(state, 0, None).placement_values(10, rows)
    assert np.allclose(blind, blind.max())


def test_final_estimates_are_exact_at_the_end():
    state = play_game([make_bot("greedy", 1), make_bot("greedy", 2)], seed=9, board=BOARD)
    assert state.is_over
    assert final_estimates(state).tolist() == [p.score for p in state.players]
    assert rounds_left(state) == 0


def test_rewards_follow_the_lead():
    r = rewards([50.0, 40.0, 30.0], 8.0)
    assert r[0] > 0.5 > r[1] > r[2]
    assert all(0 < x < 1 for x in r)
    assert leads([50.0, 40.0, 30.0]) == [10.0, -10.0, -20.0]
    assert rewards([40.0, 40.0], 8.0) == [0.5, 0.5]
    far = rewards([1e6, 0.0], 1.0)  # a huge lead saturates without overflow
    assert far[0] == pytest.approx(1.0) and 0 < far[1] < 1e-20


def test_rounds_left_counts_down():
    state = new_game(2, seed=1, board=BOARD)
    assert rounds_left(state) >= 7
    state.final_round = state.round + 1
    assert rounds_left(state) == 2


@pytest.mark.parametrize("spec", ["planner", "mcts:iterations=25"])
@pytest.mark.parametrize("players", [2, 4])
def test_bots_only_play_legal_actions_to_the_end(spec, players):
    bots = [make_bot(spec, seed=i) if i % 2 == 0 else make_bot("random", seed=i)
            for i in range(players)]
    state = play_game(bots, seed=players * 13, board=BOARD)
    assert state.is_over and 7 <= state.round <= 12
    assert any(isinstance(a, PlaceFief | Wedding) for a in state.history)


@pytest.mark.parametrize("many_groups", [False, True])
def test_group_growth_matches_placing_the_piece(many_groups, monkeypatch):
    """The size of the group a candidate fief would join equals what placing it produces."""
    import tavola.games.gonzaga.bots.evaluation as ev

    if many_groups:  # the slower path used past 16 groups
        monkeypatch.setattr(ev, "_group_reach", lambda *a: None)
    state = advance(new_game(2, seed=5, board=BOARD), 17, seed=2)
    while state.phase is not Phase.PLACING:
        state = advance(state, 1)
    me = state.current_player
    legal = legal_actions(state, me)
    assert legal.placement_count > 5
    ctx = MoveContext(state, me, None)
    cells = legal.placement_arrays().cells
    predicted = ev._joined_sizes(ctx.label, ctx.sizes, ctx.reach, cells,
                                 state.rules.neighbour_table)
    assert predicted.max() > 1  # some placements do join a group
    for i in range(legal.placement_count):
        after = state.clone()
        apply_in_place(after, legal.placement(i))
        label, sizes = group_labels(after, me)
        assert sizes[label[cells[i][0]]] == predicted[i]


class Wrapped:
    """A decision's hooks with some of their methods replaced (`hooks.GonzagaHooks` may be
    compiled, and a compiled class cannot be extended by a Python one)."""

    def __init__(self, hooks):
        self.hooks = hooks

    def __getattr__(self, name):
        return getattr(self.hooks, name)


def test_a_search_without_any_budget_is_refused():
    from tavola.games.gonzaga.bots.mcts import Settings

    with pytest.raises(ValueError, match="budget"):
        Settings(iterations=None, time_limit=None)


@pytest.mark.parametrize("lookahead", [0, 1])
def test_a_look_past_the_round_plays_rollouts_into_the_next_round(lookahead):
    """The evaluation is reached `lookahead` rounds after the end of the current round (or at
    the end of the game), while the tree stays in the round."""
    from tavola.games.gonzaga.bots.mcts import GonzagaSearch
    from tavola.games.gonzaga.game import GAME

    reached: list[int] = []

    class Recording(Wrapped):
        def estimates(self, state):
            reached.append(-1 if state.is_over else state.round)
            return self.hooks.estimates(state)

    class Search(GonzagaSearch):
        def hooks(self, view_, seat, settings):
            return Recording(super().hooks(view_, seat, settings))

    state = new_game(2, seed=4, board=BOARD)
    settings = parse_settings(f"iterations=30:lookahead={lookahead}")
    bot = MCTSBot(GAME, 1, settings, search=Search())
    action = bot.decide(view(state, 0), legal_actions(state, 0))
    assert action in legal_actions(state, 0)
    assert set(reached) <= {state.round + 1 + lookahead, -1}
    assert state.round + 1 + lookahead in reached


def test_lookahead_is_an_option_of_the_search():
    assert parse_settings("hard:lookahead=1").lookahead == 1
    assert parse_settings("hard").lookahead == 0
    with pytest.raises(ValueError, match="lookahead"):
        parse_settings("lookahead=-1")


def test_the_hard_level_spends_more_iterations_where_a_game_has_fewer_players():
    hard = parse_settings("hard", LEVELS)
    assert hard.budget(2) > hard.budget(3) > hard.budget(4)
    assert parse_settings("hard:iterations=50", LEVELS).budget(2) == 50  # an explicit budget
    assert parse_settings("hard:time=1", LEVELS).budget(2) is None  # or a time alone wins


@pytest.mark.parametrize("players", [2, 3])
def test_a_budget_by_players_is_what_the_search_spends(players):
    from tavola.games.gonzaga.bots.mcts import Settings
    from tavola.games.gonzaga.game import GAME
    from tavola.search import per_players

    settings = Settings(iterations=5, by_players=per_players({2: {"iterations": 9}}))
    state = new_game(players, seed=4, board=BOARD)
    bot = MCTSBot(GAME, 1, settings)
    bot.decide(view(state, 0), legal_actions(state, 0))
    assert bot.last_iterations == {2: 9, 3: 5}[players]


@pytest.mark.parametrize("module", ["tavola.games.gonzaga.bots.levels",
                                    "tavola.games.signorie.bots.levels"])
@pytest.mark.parametrize("lang", ["en", "de", "it"])
def test_every_search_level_says_which_search_it_is(module, lang):
    """A bot seat is called "{level} bot": a search level named plain "Search" read as a search
    bot with no level, beside "Quick search" and "Deep search"."""
    from importlib import import_module

    from tavola import i18n

    with i18n.use(lang):
        levels = import_module(module).level_options()
    names = [level["name"] for level in levels if level["id"].startswith("mcts")]
    assert len(names) == len(set(names)) == 3
    assert all(len(name.split()) >= 2 for name in names), names


@pytest.mark.parametrize(("players", "seed", "steps", "lookahead"),
                         [(2, 3, 0, 0), (3, 5, 7, 0), (4, 8, 13, 1), (4, 2, 30, 0)])
def test_a_search_continuing_from_kept_positions_applies_less_and_decides_the_same(
        players, seed, steps, lookahead):
    """The search keeps each node's position and continues from it under each iteration's
    deal (`GonzagaHooks.redeal`) instead of replaying the path from the root: every
    option's visits, rewards and leads are those of the replaying search, and fewer
    actions are applied."""
    from tavola.games.gonzaga.bots.mcts import GonzagaSearch
    from tavola.games.gonzaga.engine import redeal
    from tavola.games.gonzaga.game import GAME

    class Counting(type(GAME)):
        applied = 0

        def apply_in_place(self, state, action):
            Counting.applied += 1
            return super().apply_in_place(state, action)

    class Replaying(Wrapped):
        redeal = None  # the search replays each path, each iteration's deal by `resample`

    class Continuing(Wrapped):
        def redeal(self, position, view_, rng):  # deals as `resample` does, decks too
            return redeal(position, view_, rng, decks=True)

    class Search(GonzagaSearch):
        def __init__(self, hooks):
            super().__init__()
            self.kind = hooks

        def hooks(self, view_, seat, settings):
            return self.kind(super().hooks(view_, seat, settings))

    state = new_game(players, seed=seed, board=BOARD)
    rng = random.Random(seed)
    for _ in range(steps):
        legal = legal_actions(state, state.to_move()[0])
        apply_in_place(state, legal[rng.randrange(len(legal))])
    seat = state.to_move()[0]
    settings = parse_settings(f"iterations=300:lookahead={lookahead}")
    analyses, applied = [], []
    for hooks in (Replaying, Continuing):
        Counting.applied = 0
        bot = MCTSBot(Counting(), 7, settings, search=Search(hooks))
        analyses.append(bot.analyse(view(state, seat), legal_actions(state, seat)))
        applied.append(Counting.applied)
    assert analyses[0] == analyses[1]
    assert applied[1] < applied[0]
