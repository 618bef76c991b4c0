"""The engine's fast paths agree with plain computations of the same rules.

A placement read from its table row, the placements listed by reading a row's hexes as one
word, the Weddings listed by masking a card's precomputed
pairs, the groups of pieces found by a walk and the search's estimate of final scores are
each checked against a direct reading of the rule, over every table row and over many
random positions; the search's tables of move values against the planner's own
valuation, and its estimates shared between deals against the plain ones.
"""

from __future__ import annotations

import math
import random

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_properties import BOARDS

from games.gonzaga.actions import PlaceFief
from games.gonzaga.bots.evaluation import (
    DEFAULT_WEIGHTS,
    Weights,
    final_estimates,
    rounds_left,
)
from games.gonzaga.bots.mcts import GonzagaHooks, MoveTables
from games.gonzaga.bots.planner import ranked_turns, turn_values
from games.gonzaga.engine import (
    _wedding_pairs,
    apply_in_place,
    castle_hexes,
    free_placements,
    group_labels,
    legal_actions,
    new_game,
    open_seas,
    placement_rows,
    player_groups,
    resample,
    view,
)
from games.gonzaga.placement import action_allows, cells_of, placement_tables
from games.gonzaga.state import (
    OBJECTIVE_POINTS,
    POINTS_GONZAGA_TILE,
    POINTS_SEA_LEAGUE,
    GameState,
    Phase,
)


def test_every_table_row_covers_what_its_placement_covers():
    for board in BOARDS:
        for number, table in placement_tables(board).fiefs.items():
            shape = board.fiefs[number]
            for row in range(len(table)):
                anchor, rotation = int(table.anchors[row]), int(table.rotations[row])
                assert table.canonical_row(anchor, rotation) == row
                assert list(table.cell_tuples[row]) == cells_of(board, shape, anchor, rotation)
                action = PlaceFief(0, number, board.coords[anchor], rotation)
                assert list(table.castles(row)) == castle_hexes(board, action)


def test_an_equivalent_placement_is_not_read_from_another_row():
    """Two (anchor, rotation) pairs covering the same hexes share a row, but list the hexes in
    another order: only the row's own pair may be read from it."""
    board = BOARDS[-1]
    shared = 0
    for table in placement_tables(board).fiefs.values():
        for key, row in table.lookup.items():
            anchor, rotation = divmod(key, 6)
            own = (int(table.anchors[row]), int(table.rotations[row])) == (anchor, rotation)
            assert (table.canonical_row(anchor, rotation) == row) is own
            shared += not own
    assert shared > 0  # symmetric fiefs make such pairs; the check above has work to do


def reference_weddings(state: GameState, player: int, card: str) -> list[tuple[int, int]]:
    """Weddings read straight from the rule: a free first ring on the card's land, maybe a
    free second beside it; a pair whose hexes could both come first is listed once, lower
    hex first."""
    rules = state.rules
    land = rules.card_land[card]

    def free(h: int) -> bool:
        return state.ring_owner[h] < 0 and state.fief_owner[h] != player

    firsts = [int(h) for h in np.flatnonzero(land) if free(h)]
    out = [(h, -1) for h in firsts]
    if state.players[player].rings >= 2:
        out += [(h, n) for h in firsts for n in state.board.neighbours[h]
                if free(n) and not (land[n] and n < h)]
    return out


def reference_groups(state: GameState, player: int) -> tuple[list[int], list[int]]:
    """Groups by merging every two touching pieces, numbered by their first piece."""
    pieces = [p for p in state.pieces if p.owner == player]
    group = list(range(len(pieces)))
    for i, a in enumerate(pieces):
        for j, b in enumerate(pieces[:i]):
            if any(n in b.hexes for h in a.hexes for n in state.board.neighbours[h]):
                old, new = group[i], group[j]
                group = [new if g == old else g for g in group]
    ids = {g: k for k, g in enumerate(dict.fromkeys(group))}
    label = [-1] * state.board.hex_count
    sizes = [0] * len(ids)
    for piece, g in zip(pieces, group, strict=True):
        sizes[ids[g]] += 1
        for h in piece.hexes:
            label[h] = ids[g]
    return label, sizes


def reference_placements(state: GameState, player: int, card: str | None = None,
                         action: str | None = None) -> list[int]:
    """Rows of the player's fief table that cover no fief and none of the player's rings,
    and (given a plan) touch the region card's land and obey the action card's limits."""
    fief = state.players[player].fief
    table = state.rules.fief_placements(fief)
    out = []
    for row, cells in enumerate(table.cells.tolist()):
        if any(state.fief_owner[h] >= 0 or state.ring_owner[h] == player for h in cells):
            continue
        if card is not None and not any(state.rules.card_land[card][h] for h in cells):
            continue
        if action is not None and not action_allows(action, sum(h in state.board.city_at
                                                                for h in cells),
                                                    sum(h in state.board.harbor_at
                                                        for h in cells)):
            continue
        out.append(row)
    return out


def check_placements(state: GameState) -> None:
    player = state.current_player
    plan = state.players[player].plan
    rows = placement_rows(state, player, state.players[player].fief, plan.region, plan.action)
    assert rows.tolist() == reference_placements(state, player, plan.region, plan.action)
    free = free_placements(state, player, state.players[player].fief)
    assert free.tolist() == reference_placements(state, player)


def check_position(state: GameState) -> None:
    if state.phase is Phase.PLACING:
        check_placements(state)
    for player in range(len(state.players)):
        label, sizes = group_labels(state, player)
        assert (label.tolist(), sizes.tolist()) == reference_groups(state, player)
        assert player_groups(state, player) == sorted(sizes.tolist(), reverse=True)
        for card in state.rules.region_cards:
            pairs = [tuple(p) for p in _wedding_pairs(state, player, card).tolist()]
            assert pairs == reference_weddings(state, player, card)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 4), seed=st.integers(0, 10**6), board_no=st.integers(0, 1))
def test_fast_paths_agree_with_the_rules_over_random_games(players, seed, board_no):
    board = BOARDS[min(board_no, len(BOARDS) - 1)]
    state = new_game(players, seed, board=board)
    rng = random.Random(seed)
    while not state.is_over:
        if state.phase is Phase.PLACING and rng.random() < 0.3:
            check_position(state)
        legal = legal_actions(state, state.to_move()[0])
        apply_in_place(state, legal[rng.randrange(len(legal))])
    check_position(state)


def reference_estimates(state, weights=DEFAULT_WEIGHTS) -> list[float]:
    """`final_estimates` by whole-map arrays, as the rule reads: objective cities held and
    open, sea leagues within reach, rings in hand, the Gonzaga tile shared by group size."""
    n = len(state.players)
    scores = np.array([p.score for p in state.players], dtype=np.float64)
    if state.phase is Phase.OVER:
        return scores.tolist()
    board = state.board
    left = rounds_left(state)
    free = (state.fief_owner < 0) & (state.ring_owner < 0)
    seas = len(board.sea_index)
    free_harbors = np.bincount(board.harbor_sea_number[free & board.is_harbor], minlength=seas)
    extra = np.zeros(n, dtype=np.float64)
    largest = np.zeros(n, dtype=np.float64)
    for i, p in enumerate(state.players):
        mine = (state.fief_owner == i) | (state.ring_owner == i)
        if p.objective is not None:
            mask = board.objective_masks[p.objective]
            have = int(np.count_nonzero(mask & mine))
            expected = min(int(np.count_nonzero(mask & free)), 0.35 * left) \
                * weights.objective_chance
            step = OBJECTIVE_POINTS[min(have + 1, 6)] - OBJECTIVE_POINTS[have]
            extra[i] += OBJECTIVE_POINTS[have] + step * expected
        largest[i] = max(group_labels(state, i)[1].tolist(), default=0)
        have_sea = np.bincount(board.harbor_sea_number[mine & board.is_harbor], minlength=seas)
        reachable = open_seas(state, i) & (free_harbors > 0)
        extra[i] += POINTS_SEA_LEAGUE * min(1.0, 0.35 * left) * (
            0.5 * np.count_nonzero(reachable & (have_sea == 2))
            + 0.12 * np.count_nonzero(reachable & (have_sea == 1)))
        extra[i] += p.rings * weights.ring * min(1.0, left / 4)
    if largest.max() > 0:
        share = np.exp(weights.tile_sharpness / math.sqrt(max(1, left))
                       * (largest - largest.max()))
        extra += POINTS_GONZAGA_TILE * share / share.sum()
    return (scores + extra).tolist()


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 4), seed=st.integers(0, 10**6), board_no=st.integers(0, 1),
       one_league=st.booleans(),
       weights=st.sampled_from([DEFAULT_WEIGHTS, Weights(ring=1.3, objective_chance=0.45,
                                                         tile_sharpness=1.1)]))
def test_final_estimates_agree_with_whole_map_counts(players, seed, board_no, one_league,
                                                     weights):
    board = BOARDS[min(board_no, len(BOARDS) - 1)]
    variants = ("one-league-per-sea",) if one_league else ()
    state = new_game(players, seed, board=board, variants=variants)
    rng = random.Random(seed)
    while True:
        for position in (state, view(state, rng.randrange(players))):
            assert final_estimates(position, weights).tolist() == reference_estimates(position,
                                                                                      weights)
        if state.is_over:
            break
        legal = legal_actions(state, state.to_move()[0])
        apply_in_place(state, legal[rng.randrange(len(legal))])


def check_move_tables(tables: MoveTables, state, player: int, objective: int | None,
                      weights: Weights) -> None:
    legal = legal_actions(state, player)
    plain = turn_values(state, player, legal, objective, weights)
    read = tables.turn_values(state, player, legal, objective)
    assert read.placements.tolist() == plain.placements.tolist()
    assert read.weddings.tolist() == plain.weddings.tolist()
    assert read.wedding_values.tolist() == plain.wedding_values.tolist()
    for limit, weddings in ((1, 1), (4, 2), (8, 2)):
        assert read.ranked(limit, weddings) == ranked_turns(state, player, legal, objective,
                                                            weights, limit, weddings)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 4), seed=st.integers(0, 10**6), board_no=st.integers(0, 1),
       one_league=st.booleans(),
       weights=st.sampled_from([DEFAULT_WEIGHTS, Weights(ring=1.3, group_step=3.1,
                                                         league_two=4.4, league_one=0.7)]))
def test_search_move_tables_value_moves_as_the_planner_does(players, seed, board_no,
                                                             one_league, weights):
    """Values read from a search's per-context tables, kept over a whole game, are the
    planner's values to the last bit, and rank the same turns."""
    board = BOARDS[min(board_no, len(BOARDS) - 1)]
    variants = ("one-league-per-sea",) if one_league else ()
    state = new_game(players, seed, board=board, variants=variants)
    tables = MoveTables(weights)
    rng = random.Random(seed)
    while not state.is_over:
        if state.phase is Phase.PLACING:
            player = state.current_player
            for position in (state, view(state, player)):
                for objective in (state.players[player].objective, None):
                    check_move_tables(tables, position, player, objective, weights)
        legal = legal_actions(state, state.to_move()[0])
        apply_in_place(state, legal[rng.randrange(len(legal))])


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 4), seed=st.integers(0, 10**6), board_no=st.integers(0, 1))
def test_search_estimates_shared_between_deals_are_the_plain_estimates(players, seed,
                                                                        board_no):
    """The search counts the public part of an estimate once per position, whatever the deal
    of the hidden cards; each estimate is still `final_estimates` of the position reached,
    to the end of the game, where the objectives are scored."""
    board = BOARDS[min(board_no, len(BOARDS) - 1)]
    state = new_game(players, seed, board=board)
    rng = random.Random(seed)
    while not state.is_over:
        last_round = state.final_round is not None or not state.players[0].deck
        if last_round or rng.random() < 0.1:
            seat = state.to_move()[0]
            hooks = GonzagaHooks(seat)
            for deal in range(6):
                reached = resample(view(state, seat), random.Random(deal))
                moves = random.Random(deal % 2)  # two lines of play, each met thrice
                while True:
                    assert hooks.estimates(reached) == final_estimates(reached).tolist()
                    if reached.is_over or reached.round != state.round:
                        break
                    legal = legal_actions(reached, reached.to_move()[0])
                    apply_in_place(reached, legal[moves.randrange(len(legal))])
        legal = legal_actions(state, state.to_move()[0])
        apply_in_place(state, legal[rng.randrange(len(legal))])
