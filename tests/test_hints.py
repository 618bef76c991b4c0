"""Hints name a whole move in words a person can follow, ranked as their numbers say."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tavola import registry as games
from tavola.games.signorie.actions import ChooseAction, TakeDie
from tavola.hints import hints
from tavola.search import Settings

QUICK = Settings(iterations=150, width=4, joint_width=4)


def _positions(name: str, count: int, seed: int = 0) -> list[tuple[Any, Any, int]]:
    """Positions of random play, one seat to move in each."""
    game, rng, out = games.get(name), random.Random(seed), []
    state = game.new_game(["Ann", "Bea", "Cy"], seed=seed)
    while len(out) < count and not state.is_over:
        seat = state.to_move()[0]
        legal = game.legal_actions(state, seat)
        if len(legal) > 2 and rng.random() < 0.3:
            out.append((game, game.clone(state), seat))
        game.apply_in_place(state, rng.choice(legal))
    return out


def test_a_signorie_hint_names_the_die_the_action_and_its_choices():
    named = 0
    for game, state, seat in _positions("signorie", 6):
        view, legal = game.view(state, seat), game.legal_actions(state, seat)
        for h in hints(game, view, legal, settings=QUICK, seed=1):
            if not isinstance(h.action, TakeDie):
                continue
            named += 1
            assert h.then and isinstance(h.then[0], ChooseAction)
            replay = game.clone(state)
            for step in (h.action, *h.then):  # every step legal where it is taken
                assert step in game.legal_actions(replay, seat)
                game.apply_in_place(replay, step)
            assert h.action.colour in h.words  # the die...
            assert ", then: " in h.words  # ...and what it is used for, in one phrase
    assert named >= 6


@pytest.mark.parametrize("name", ["gonzaga", "signorie"])
def test_the_first_hint_shows_the_greatest_lead(name):
    for game, state, seat in _positions(name, 8, seed=2):
        shown = hints(game, game.view(state, seat), game.legal_actions(state, seat),
                      settings=QUICK, seed=3)
        leads = [h.lead for h in shown]
        assert leads == sorted(leads, reverse=True)


def _gonzaga_positions(seeds: range) -> Any:
    """Every position of random 3-player Gonzaga games, with its seat to move."""
    from tavola.games.gonzaga.engine import apply_in_place, legal_actions, new_game

    for seed in seeds:
        state, rng = new_game(3, seed), random.Random(seed)
        while not state.is_over:
            seat = state.to_move()[0]
            legal = list(legal_actions(state, seat))
            yield state, seat, legal
            apply_in_place(state, rng.choice(legal))


def test_a_gonzaga_wedding_is_named_by_both_its_rings_and_a_fief_by_its_places():
    from tavola.games.gonzaga.actions import PlaceFief, Wedding
    from tavola.games.gonzaga.engine import view
    from tavola.games.gonzaga.game import GAME
    from tavola.games.gonzaga.text import hex_text

    weddings = fiefs = 0
    for state, seat, legal in _gonzaga_positions(range(2)):
        v = view(state, seat)
        for a in legal:
            if isinstance(a, Wedding) and a.second is not None and weddings < 50:
                words = GAME.describe_move(v, [a])
                assert hex_text(a.first) in words and hex_text(a.second) in words, words
                weddings += 1
            elif isinstance(a, PlaceFief) and fiefs < 50:
                words = GAME.describe_move(v, [a])
                assert " on " in words or " in " in words, words  # where it goes
                fiefs += 1
    assert weddings == 50 and fiefs == 50


def test_a_plan_whose_fief_fits_nowhere_but_allows_a_wedding_says_arrange_a_wedding():
    from tavola.games.gonzaga.actions import ALLIANCE, Plan
    from tavola.games.gonzaga.engine import placement_rows, view, wedding_pairs
    from tavola.games.gonzaga.explain import explain_action

    said = 0
    for state, seat, legal in _gonzaga_positions(range(3)):
        for a in legal:
            if not isinstance(a, Plan) or a.action != ALLIANCE:
                continue
            v = view(state, seat)
            if len(placement_rows(v, seat, v.players[seat].fief, a.region, a.action)):
                continue
            why = explain_action(v, a)
            if len(wedding_pairs(v, seat, a.region)):
                assert why.startswith("arrange a Wedding"), why
                said += 1
            else:
                assert "fits nowhere" in why
    assert said > 10


def test_a_plan_hint_names_where_its_best_placement_is_and_placing_offers_it():
    from tavola.games.gonzaga.actions import PlaceFief, Plan
    from tavola.games.gonzaga.engine import (
        apply_in_place,
        covered_hexes,
        legal_actions,
        new_game,
        view,
    )
    from tavola.games.gonzaga.explain import explain_action
    from tavola.games.gonzaga.state import Phase
    from tavola.games.gonzaga.text import say, where_text
    from tavola.games.gonzaga.web import wire

    checked = 0
    for seed in range(12):
        state, rng = new_game(2, seed), random.Random(seed)
        promised = {}
        for seat in state.to_move():  # the first round's plans, on an empty map
            plans = [a for a in legal_actions(state, seat) if isinstance(a, Plan)]
            plan = rng.choice(plans)
            promised[seat] = explain_action(view(state, seat), plan)
            apply_in_place(state, plan)
        assert state.phase is Phase.PLACING
        first = state.to_move()[0]  # places on the map as it was planned on
        v = view(state, first)
        legal = wire.legal_json(v)
        offered = set()
        for c, r, rot, pts in wire.placement_list(legal["placements"], v.board):
            fief = PlaceFief(first, legal["fief"], (c, r), rot)
            offered.add(say("why.plan-where", points=pts,
                            where=where_text(v.board, covered_hexes(v, fief))))
        if offered:
            assert promised[first] in offered, (promised[first], sorted(offered)[:5])
            checked += 1
    assert checked >= 6
