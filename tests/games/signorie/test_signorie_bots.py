"""Signorie's bots: they see only views, always answer legally, and rank as they should."""

from __future__ import annotations

import random

import pytest

from tavola.bots import make_bot
from tavola.games.signorie import engine
from tavola.games.signorie.bots.search import SEARCH, SignorieHooks
from tavola.games.signorie.bots.values import GREEDY, estimate, final_estimates, ranked
from tavola.games.signorie.game import GAME
from tavola.games.signorie.state import SignorieState, SignorieView
from tavola.match import play_game
from tavola.search import MCTSBot, Settings

SPECS = ("random", "greedy", "planner", "mcts:iterations=15")


def random_position(players: int, seed: int, steps: int) -> SignorieState:
    """A position reached by `steps` random legal actions from a seeded start."""
    rng = random.Random(seed)
    state = GAME.new_game([f"P{i}" for i in range(players)], seed)
    for _ in range(steps):
        if state.is_over:
            break
        seat = state.to_move()[0]
        legal = GAME.legal_actions(state, seat)
        GAME.apply_in_place(state, legal[rng.randrange(len(legal))])
    return state


def head_to_head(a: str, b: str, games: int, seed: int = 0) -> float:
    """Wins of `a` against `b` in 2-player games, seats alternating."""
    wins = 0
    for g in range(games):
        specs = [a, b] if g % 2 == 0 else [b, a]
        bots = [make_bot(GAME, spec, seed=seed + 10 * g + i) for i, spec in enumerate(specs)]
        state = play_game(GAME, bots, seed=seed + g)
        wins += specs[GAME.winners(state)[0]] == a
    return wins


class ViewOnly:
    """Hands a bot its view and checks that it is a view of the right seat, never the state."""

    def __init__(self, bot: object, seat: int) -> None:
        self.bot, self.seat = bot, seat
        self.name = bot.name  # type: ignore[attr-defined]
        self.calls = 0

    def decide(self, view, legal):  # type: ignore[no-untyped-def]
        assert isinstance(view, SignorieView) and not isinstance(view, SignorieState)
        assert view.viewer == self.seat
        assert not hasattr(view, "deck") and not hasattr(view, "rng")
        self.calls += 1
        return self.bot.decide(view, legal)  # type: ignore[attr-defined]


def test_the_game_declares_its_bots_and_search() -> None:
    assert {"greedy", "planner"} <= set(GAME.bots)
    assert GAME.search is SEARCH
    assert set(SEARCH.levels) == {"easy", "medium", "hard"}
    assert isinstance(make_bot(GAME, "mcts:hard"), MCTSBot)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_bots_are_only_handed_views(players: int) -> None:
    specs = ["greedy", "planner", "mcts:iterations=5", "greedy"][:players]
    bots = [ViewOnly(make_bot(GAME, s, seed=i), i) for i, s in enumerate(specs)]
    state = play_game(GAME, bots, seed=players)
    assert state.is_over
    assert all(b.calls > 20 for b in bots)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_bot_answers_legally_in_random_positions(players: int) -> None:
    for k in range(6):
        state = random_position(players, seed=100 * players + k, steps=25 * k + 3)
        if state.is_over:
            continue
        seat = state.to_move()[0]
        legal = GAME.legal_actions(state, seat)
        for spec in SPECS:
            bot = make_bot(GAME, spec, seed=k)
            assert bot.decide(GAME.view(state, seat), legal) in legal, (spec, k)


def test_greedy_beats_random_clearly() -> None:
    assert head_to_head("greedy", "random", 24) >= 22


def test_planner_beats_greedy_more_often_than_not() -> None:
    assert head_to_head("planner", "greedy", 40, seed=1) > 20


def test_mcts_with_a_small_budget_is_legal_and_deterministic() -> None:
    state = random_position(3, seed=5, steps=40)
    for _ in range(8):
        seat = state.to_move()[0]
        legal = GAME.legal_actions(state, seat)
        view = GAME.view(state, seat)
        first = make_bot(GAME, "mcts:iterations=30", seed=9).decide(view, legal)
        again = make_bot(GAME, "mcts:iterations=30", seed=9).decide(view, legal)
        assert first in legal and first == again
        GAME.apply_in_place(state, first)


def hidden_twin(state: SignorieState, seed: int) -> SignorieState:
    """The same public position with every hidden fact dealt anew (the alliance stack, the
    tiles put back in the box, the fronts of face-down tiles, future dice)."""
    twin = GAME.resample(GAME.view(state, None), random.Random(seed))
    assert twin.deck != state.deck or twin.down_tiles != state.down_tiles
    return twin


def position_with_face_down_tiles() -> SignorieState:
    bots = [make_bot(GAME, "greedy", seed=i) for i in range(2)]
    state = GAME.new_game(["A", "B"], 3)
    while not state.is_over and (sum(map(sum, state.down)) < 2 or state.round < 3):
        seat = state.to_move()[0]
        GAME.apply_in_place(state, bots[seat].decide(GAME.view(state, seat),
                                                     GAME.legal_actions(state, seat)))
    assert not state.is_over and sum(map(sum, state.down)) >= 2
    return state


def test_the_search_never_peeks_at_hidden_facts() -> None:
    state = position_with_face_down_tiles()
    twin = hidden_twin(state, 1)
    seat = state.to_move()[0]
    legal = GAME.legal_actions(state, seat)
    # the valuations read public facts only
    assert final_estimates(state) == final_estimates(twin)
    assert ranked(state, seat, legal) == ranked(twin, seat, legal)
    hooks, twin_hooks = SignorieHooks(state), SignorieHooks(twin)
    assert hooks.estimates(state) == twin_hooks.estimates(twin)
    # so a decision depends on the view alone: the same for both, seed for seed
    for seed in range(3):
        a = MCTSBot(GAME, seed, Settings(iterations=40)).decide(GAME.view(state, seat), legal)
        b = MCTSBot(GAME, seed, Settings(iterations=40)).decide(GAME.view(twin, seat), legal)
        assert a == b


def test_the_estimate_is_the_score_once_the_game_is_over() -> None:
    bots = [make_bot(GAME, "greedy", seed=i) for i in range(3)]
    state = play_game(GAME, bots, seed=11)
    assert [estimate(state, s, GREEDY) for s in range(3)] == [float(v) for v in state.vp]


def test_the_estimate_counts_the_reward_only_under_the_threshold() -> None:
    state = GAME.new_game(["A", "B"], 4)
    seat = state.to_move()[0]
    before = estimate(state, seat)
    state.taken[seat][0] = 14  # a dice sum over the threshold of 13 forfeits the reward
    assert estimate(state, seat) < before


def test_the_balance_report_counts_every_component() -> None:
    from tavola.games.signorie.balance import game_facts, markdown, run_balance, unused

    runs = run_balance(players=(2, 3), games=4, search=None, workers=1)
    assert [len(r.facts) for r in runs] == [4, 4]
    report = markdown(runs, "tavola balance", 1)
    for title in ("starting position", "Signoria actions", "Helper slots", "Assignment tiles",
                  "Reward tiles", "by source"):
        assert title in report
    assert isinstance(unused(runs), list)
    state = play_game(GAME, [make_bot(GAME, "greedy", seed=i) for i in range(2)], seed=2)
    facts = game_facts(state, ["greedy", "greedy"])
    taken = sum(1 for e in state.log if e.kind == "take_die")
    assert sum(v for k, v in facts.counts.items() if k.startswith("die:")) == taken
    assert facts.winner == GAME.winners(state)[0] and sorted(facts.start) == [0, 1]


def test_the_balance_report_gives_each_bots_best_score() -> None:
    """The best score of a bot, to compare with the best scores people report."""
    from tavola.games.signorie.balance import bot_rows, markdown, run_balance

    runs = run_balance(players=(2,), games=4, search=None, workers=1)
    rows = bot_rows(runs)
    for row in rows:
        scores = [f.scores[s] for f in runs[0].facts for s, spec in enumerate(f.specs)
                  if spec == row[1]]
        assert row[6] == str(max(scores))
    assert "| best score |" in markdown(runs, "tavola balance", 1)


def test_the_planners_estimate_values_a_career_rank_a_city_asks_for() -> None:
    """The search's evaluation agrees with the planner's decisions: a career meeple at a rank
    that some city's lowest empty slot asks for is worth more than its slot alone."""
    from dataclasses import replace

    from tavola.games.signorie.bots.values import PLANNER

    blind = replace(PLANNER, reach=0.0, plan_tile=0.0)
    state = GAME.new_game(["A", "B"], 4)
    seat, top = 0, len(state.t.career_rank) - 1
    state.career[seat][0][top] = 1
    rank = state.t.career_rank[top]
    gain = estimate(state, seat, PLANNER) - estimate(state, seat, blind)
    assert gain >= PLANNER.reach * rank / 4 > 0
    assert estimate(state, seat, GREEDY) == estimate(state, seat, replace(GREEDY, reach=0.0))

    low = GAME.new_game(["A", "B"], 4)
    for city in low.cities:  # each city's rank-1 slots taken: the lowest empty asks for more
        while low.t.city_slots[city][len(low.city_meeples[city])] <= low.t.career_rank[0]:
            low.city_meeples[city].append((1, 0))
    low.career[seat][0][0] = 1
    assert low.t.career_rank[0] < min(engine._lowest_empty(low, c) for c in low.cities)
    assert estimate(low, seat, PLANNER) == estimate(low, seat, blind)
