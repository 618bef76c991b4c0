"""The view messages a server builds after every move are made of parts kept between views
(plans, objectives, pieces, the words of places, what a decision offers): every message is the
one made afresh, for every seat and the spectators, in every language and whatever was kept
before, in both games; and the parts Gonzaga keeps are what the plain reading of its view gives.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

import numpy as np
import orjson
import pytest

from tavola import i18n, registry
from tavola.games.gonzaga.engine import apply_in_place, legal_actions, new_game, view
from tavola.games.gonzaga.state import Phase, ScoreEvent
from tavola.games.gonzaga.web import wire
from tavola.games.signorie.web import wire as signorie_wire
from tavola.web.site import load_site

LANGUAGES = ("en", "de", "it")


def forget_kept() -> None:
    """Empty every part the games' wires keep between views."""
    wire.forget_kept()
    signorie_wire.forget_kept()


def digest(msg: dict[str, Any]) -> str:
    return hashlib.sha256(orjson.dumps(msg, option=orjson.OPT_SORT_KEYS
                                       | orjson.OPT_NON_STR_KEYS)).hexdigest()


def positions(name: str, players: int, seed: int) -> list[Any]:
    """Every position of a seeded random game of `name`."""
    game = registry.get(name)
    rng = random.Random(seed)
    state = game.new_game([f"Player {i + 1}" for i in range(players)], seed)
    out = [game.clone(state)]
    while not state.is_over:
        legal = game.legal_actions(state, state.to_move()[0])
        game.apply_in_place(state, legal[rng.randrange(len(legal))])
        out.append(game.clone(state))
    return out


def messages(name: str, players: int, states: list[Any], languages: tuple[str, ...]
             ) -> dict[Any, str]:
    """Every view message of every position, seat and language, as a digest (without the
    log, which a server converts once an entry and shares)."""
    game, site = registry.get(name), load_site(name)
    out = {}
    for n, state in states:
        seats = [{"kind": "person", "connected": True} for _ in range(players)]
        for lang in languages:
            with i18n.use(lang):
                for seat in (*range(players), None):
                    v = game.view(state, seat)
                    msg = site.view_json(v, game_id="g", seq=len(state.history), seats=seats,
                                         log=[])
                    out[(n, lang, seat)] = digest(msg)
    return out


@pytest.mark.parametrize(("name", "players", "seed"),
                         [("gonzaga", 2, 5), ("gonzaga", 3, 6), ("gonzaga", 4, 7),
                          ("signorie", 2, 5), ("signorie", 3, 6)])
def test_messages_made_from_kept_parts_are_the_messages_made_afresh(name, players, seed):
    """The messages of a whole game built in order, languages in turn, as a server builds
    them; then again from nothing kept, backwards and the languages the other way round."""
    states = list(enumerate(positions(name, players, seed)))
    forget_kept()
    kept = messages(name, players, states, LANGUAGES)
    forget_kept()
    afresh = messages(name, players, states[::-1], LANGUAGES[::-1])
    assert len(kept) == len(states) * len(LANGUAGES) * (players + 1)
    assert kept == afresh


def plain_places(v, me, arrays, pairs) -> dict[str, str]:
    """The words of each city and harbor a legal move may cover, event by event."""
    covered = set(pairs[pairs >= 0].tolist())
    if arrays is not None:
        covered.update(np.unique(arrays.cells).tolist())
    places = v.rules.scoring_places
    return {str(h): wire.event_words(ScoreEvent(v.round, me, *places[h]))
            for h in sorted(covered) if h in places}


def test_gonzaga_places_and_weddings_are_read_plainly():
    """The words of the places a move may cover and the hexes of each Wedding, from the
    words and [column, row] kept per rules and board, are those of each event and hex."""
    checked = weddings = 0
    for players, seed in ((2, 11), (3, 12), (4, 13)):
        state = new_game(players, seed)
        rng = random.Random(seed)
        while not state.is_over:
            seat = state.to_move()[0]
            if state.phase is Phase.PLACING:
                v = view(state, seat)
                legal = legal_actions(v, seat)
                arrays, pairs = legal.placement_arrays(), legal.wedding_pairs
                for lang in LANGUAGES:
                    with i18n.use(lang):
                        assert wire.places_json(v, seat, arrays, pairs) \
                            == plain_places(v, seat, arrays, pairs)
                coords = v.board.coords
                assert wire.wedding_list(wire.weddings_json(v, pairs), v.board) == [
                    [list(coords[a]), list(coords[b]) if b >= 0 else None]
                    for a, b in pairs.tolist()]
                checked += 1
                weddings += len(pairs) > 0
            legal = legal_actions(state, seat)
            apply_in_place(state, legal[rng.randrange(len(legal))])
    assert checked > 50 and weddings > 5
