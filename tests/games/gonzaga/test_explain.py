"""Hints say why a Gonzaga move is worth playing now: its points at once, the objective cities
it covers, and for a plan the most the fief can score under its cards."""

from __future__ import annotations

import random

from tavola.games.gonzaga import text
from tavola.games.gonzaga.actions import Donate, PlaceFief, Plan
from tavola.games.gonzaga.engine import (
    action_events,
    apply_in_place,
    covered_hexes,
    legal_actions,
    new_game,
    objective_cities,
    view,
)
from tavola.games.gonzaga.explain import explain_action
from tavola.games.gonzaga.terminal.planning import best_points


def _placing(seed: int):
    """A real-board position where a seat is to place a fief, and its legal placements."""
    state = new_game(2, seed)
    rng = random.Random(seed)
    while True:
        seat = state.to_move()[0]
        legal = legal_actions(state, seat)
        fiefs = [a for a in legal if isinstance(a, PlaceFief)]
        if fiefs:
            return state, seat, fiefs
        apply_in_place(state, legal[rng.randrange(len(legal))])


def test_a_placement_says_its_points_and_the_objective_cities_it_covers():
    found_objective = False
    for seed in range(6):
        state, seat, fiefs = _placing(seed)
        v = view(state, seat)
        objective = {c.hex: text.word(c.name)
                     for c in v.board.objective_cities(v.players[seat].objective)}
        have = {c.hex for c in v.board.objective_cities(v.players[seat].objective)
                if c.id in objective_cities(v, seat)}
        for action in fiefs[:300]:
            words = explain_action(v, action)
            for e in action_events(v, action):
                assert f"+{e.points} {text.detail_text(e)}" in words
            gained = [objective[h] for h in covered_hexes(v, action)
                      if h in objective and h not in have]
            for city in gained:
                assert text.say("why.objective", city=city) in words
                found_objective = True
    assert found_objective  # some placement covered an objective city


def test_a_plan_says_the_most_its_cards_can_score_and_a_donation_its_points():
    state = new_game(2, 3)
    seat = state.to_move()[0]
    v = view(state, seat)
    for plan in [a for a in legal_actions(state, seat) if isinstance(a, Plan)]:
        best = best_points(v, seat, v.players[seat].fief, plan.region, plan.action)
        words = explain_action(v, plan)
        if best is None:  # a Wedding where the Alliance card allows one
            assert words in (text.say("why.plan-nowhere"), text.say("why.plan-wedding"))
        else:  # the most it can score, and where ("…, on Bristol–Plymouth")
            assert words.startswith(text.say("why.plan", points=best))
    state, seat, _ = _placing(1)
    words = explain_action(view(state, seat), Donate(seat))
    assert words.startswith("+") and words.split()[0][1:].isdigit()
