"""Hints name a whole move in words a person can follow, ranked as their numbers say."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.signorie.actions import ChooseAction, TakeDie
from tabletop import games
from tabletop.hints import hints
from tabletop.search import Settings

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
