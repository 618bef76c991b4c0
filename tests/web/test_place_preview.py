"""The placing view carries every legal move as the browser previews it (hexes, castles, points
and scoring words), made by the engine once per view, so hovering the map asks nothing of the
server: for random positions, what the view gives equals what the engine says of each move."""

from __future__ import annotations

import random
from typing import Any

import orjson
import pytest

from tavola.games.gonzaga.actions import PlaceFief, Wedding
from tavola.games.gonzaga.board import Board, load_board
from tavola.games.gonzaga.engine import (
    action_events,
    apply_in_place,
    castle_hexes,
    clone,
    covered_hexes,
    legal_actions,
    new_game,
    view,
)
from tavola.games.gonzaga.state import GameState, Phase
from tavola.games.gonzaga.web import wire


def placing_positions(seed: int, players: int) -> list[GameState]:
    """Positions of one random game where a player is about to place, copied as they were."""
    state, rng = new_game(players, seed), random.Random(seed)
    out = []
    while not state.is_over:
        if state.phase is Phase.PLACING:
            out.append(clone(state))
        seat = state.to_move()[0]
        apply_in_place(state, rng.choice(list(legal_actions(state, seat))))
    return out


def shown_events(legal: dict[str, Any], hexes: list[int], leagues: list[list[Any]],
                 i: int) -> list[str]:
    """The words the page shows for move i: its cities and harbors, then its leagues."""
    places = legal["places"]
    return [places[str(h)] for h in hexes if str(h) in places] + [
        words for j, words in leagues if j == i]


def shown_placements(legal: dict[str, Any], board: Board) -> dict[tuple[Any, ...], Any]:
    """Each placement of the view as the page reads it, by every (anchor, rotation) it answers
    to (the fief's symmetries turn one placement several ways)."""
    p = legal["placements"]
    fief = next(f for f in wire.board_json(board)["fiefs"] if f["number"] == legal["fief"])
    size = len(board.fiefs[legal["fief"]].hexes)
    out = {}
    for i, (rotation, points) in enumerate(zip(p["rotations"], p["points"], strict=True)):
        hexes = p["hexes"][i * size:(i + 1) * size]
        shown = (tuple(hexes), frozenset(hexes[j] for j in fief["castle_cells"]), points,
                 tuple(shown_events(legal, hexes, p["leagues"], i)))
        out[hexes[0], rotation] = shown
        for j, k in fief["same"]:
            out[hexes[j], (rotation + k) % 6] = shown
    return out


@pytest.mark.parametrize(("seed", "players"), [(1, 2), (2, 3), (3, 4), (4, 2)])
def test_the_views_placements_are_the_engines_legal_placements(seed, players):
    board = load_board()
    checked = 0
    for state in placing_positions(seed, players)[::3]:
        me = state.to_move()[0]
        v = view(state, me)
        legal = wire.legal_json(v)
        assert legal is not None and legal["kind"] == "place"
        shown = shown_placements(legal, board)
        engine = {}
        table = state.rules.fief_placements(legal["fief"])
        for action in legal_actions(state, me):
            if not isinstance(action, PlaceFief):
                continue
            hexes = covered_hexes(v, action)
            events = action_events(v, action)
            expected = (tuple(hexes), frozenset(castle_hexes(board, action)),
                        sum(e.points for e in events),
                        tuple(wire.event_words(e) for e in events))
            anchor = board.index_of[action.anchor]
            row = table.row_of(anchor, action.rotation)
            # every way of laying it: the engine's own table of equal (anchor, rotation)s
            for key, same_row in table.lookup.items():
                if same_row == row:
                    engine[key // 6, key % 6] = expected
            checked += 1
        assert shown == engine
    assert checked > 50


@pytest.mark.parametrize("seed", [5, 6, 7, 8, 9, 10])
def test_the_views_weddings_score_as_the_engine_says(seed):
    checked = 0
    for state in placing_positions(seed, 3):
        me = state.to_move()[0]
        v = view(state, me)
        legal = wire.legal_json(v)
        weddings = [a for a in legal_actions(state, me) if isinstance(a, Wedding)]
        assert [[list(w.first), None if w.second is None else list(w.second)]
                for w in weddings] == wire.wedding_list(legal["weddings"], v.board)
        scores = legal["wedding_scores"]
        for i, w in enumerate(weddings):
            events = action_events(v, w)
            hexes = covered_hexes(v, w)
            assert scores["points"][i] == sum(e.points for e in events)
            assert shown_events(legal, hexes, scores["leagues"], i) == [
                wire.event_words(e) for e in events]
            checked += 1
    assert checked > 0


def test_the_views_weddings_are_hex_indices_two_by_two():
    """Each Wedding is written as its rings' hex indices, two by two in one flat list (-1 for
    no second ring), which read back as the rings' [column, row]."""
    rings = one_ring = 0
    for seed in range(5, 11):
        for state in placing_positions(seed, 2 + seed % 3):
            me = state.to_move()[0]
            v = view(state, me)
            pairs = legal_actions(v, me).wedding_pairs
            plain = [[list(v.board.coords[a]), None if b < 0 else list(v.board.coords[b])]
                     for a, b in pairs.tolist()]
            shown = orjson.loads(orjson.dumps(wire.weddings_json(v, pairs)))
            assert len(shown) == 2 * len(plain) and all(isinstance(i, int) for i in shown)
            assert all(0 <= i < len(v.board.coords) for i in shown[0::2])
            assert all(-1 <= i < len(v.board.coords) for i in shown[1::2])
            assert wire.wedding_list(shown, v.board) == plain
            rings += len(plain)
            one_ring += sum(b is None for _, b in plain)
    assert rings > 1000 and one_ring > 0


def test_every_view_shares_one_object_a_piece_and_shows_each_piece_as_laid():
    """A piece's part of the view is made once and shared by both seats' views and the
    views after later moves; each view still shows exactly the pieces on the map then."""
    state, rng = new_game(2, 3), random.Random(3)
    before: dict[Any, dict[str, Any]] = {}
    laid = 0
    while not state.is_over:
        views = [wire.view_json(view(state, seat), game_id="g", seq=0, seats=[{}, {}], log=[])
                 for seat in (0, 1)]
        coords = state.rules.board.coords
        plain = [{"owner": pc.owner, "kind": pc.kind, "fief": pc.fief, "round": pc.round,
                  "hexes": [list(coords[h]) for h in pc.hexes],
                  "castles": [list(coords[h]) for h in pc.castles]} for pc in state.pieces]
        for msg in views:
            assert msg["pieces"] == plain
        for pc, one, other in zip(state.pieces, *(msg["pieces"] for msg in views),
                                  strict=True):
            assert one is other
            assert before.setdefault(pc, one) is one
        laid = len(state.pieces)
        apply_in_place(state, rng.choice(list(legal_actions(state, state.to_move()[0]))))
    assert laid > 10
