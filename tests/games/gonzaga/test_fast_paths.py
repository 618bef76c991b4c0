"""The engine's fast paths agree with plain computations of the same rules.

A placement read from its table row, the placements listed by reading a row's hexes as one
word, the Weddings listed by masking a card's precomputed
pairs, the groups of pieces found by a walk and the search's estimate of final scores are
each checked against a direct reading of the rule, over every table row and over many
random positions; the search's tables of move values against the planner's own
valuation, and its estimates shared between deals against the plain ones. The engine's
shortcuts for random play (placements listed from the fief owners' bytes, a fief checked
from its table row, groups joined side by side, counts read from the few hexes that matter)
against the longer computations they replace.
"""

from __future__ import annotations

import math
import random
from dataclasses import astuple
from functools import cache

import numpy as np
import pytest
from gonzaga_helpers import BOARDS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tavola.compiling import is_compiled
from tavola.games.gonzaga.actions import IllegalAction, PlaceFief
from tavola.games.gonzaga.bots.evaluation import (
    DEFAULT_WEIGHTS,
    Weights,
    final_estimates,
    rounds_left,
)
from tavola.games.gonzaga.bots.mcts import GonzagaHooks, MoveTables
from tavola.games.gonzaga.bots.planner import ranked_turns, turn_values
from tavola.games.gonzaga.engine import (
    _castles,
    _checked_fief_hexes,
    _covered_counts,
    _fief_move,
    _find_groups,
    _league_context,
    _move_leagues,
    _new_leagues,
    _walk_groups,
    _wedding_pairs,
    apply_in_place,
    castle_hexes,
    covered_places,
    free_placements,
    group_labels,
    legal_actions,
    new_game,
    open_seas,
    placement_events,
    placement_points,
    placement_rows,
    player_groups,
    redeal,
    resample,
    uncovered_count,
    view,
    wedding_points,
)
from tavola.games.gonzaga.placement import (
    Candidates,
    action_allows,
    cells_of,
    free_rows,
    placement_tables,
)
from tavola.games.gonzaga.state import (
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
    of the hidden cards (and the fiefs it puts in hand in the next round); each estimate is
    still `final_estimates` of the position reached, to the end of the game, where the
    objectives are scored."""
    board = BOARDS[min(board_no, len(BOARDS) - 1)]
    state = new_game(players, seed, board=board)
    rng = random.Random(seed)
    while not state.is_over:
        last_round = state.final_round is not None or not state.players[0].deck
        if last_round or rng.random() < 0.1:
            seat = state.to_move()[0]
            hooks = GonzagaHooks(seat)
            lines = set()
            for deal in range(6):
                reached = resample(view(state, seat), random.Random(deal))
                moves = random.Random(deal % 2)  # two lines of play, each met thrice
                while True:
                    assert hooks.estimates(reached) == final_estimates(reached).tolist()
                    if not reached.is_over:
                        lines.add(tuple(reached.history))
                    if reached.is_over or reached.round > state.round + 1:
                        break
                    legal = legal_actions(reached, reached.to_move()[0])
                    apply_in_place(reached, legal[moves.randrange(len(legal))])
            # counted once per line of play, whatever fiefs the deals put in hand
            assert len(hooks._prospects) == len(lines)
        legal = legal_actions(state, state.to_move()[0])
        apply_in_place(state, legal[rng.randrange(len(legal))])


def same_state(a: GameState, b: GameState) -> None:
    """Every field of two states equal, the owner arrays compared as arrays."""
    for name in GameState.__dataclass_fields__:
        x, y = getattr(a, name), getattr(b, name)
        if isinstance(x, np.ndarray):
            assert x.dtype == y.dtype and np.array_equal(x, y), name
        elif name == "players":  # players compare by identity
            assert [astuple(p) for p in x] == [astuple(p) for p in y]
        else:
            assert x == y, name


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 4), seed=st.integers(0, 10**6), board_no=st.integers(0, 1))
def test_a_redealt_position_is_the_position_replayed_on_the_deal(players, seed, board_no):
    """The search keeps the position at each node of its tree under the deal that made it,
    and continues later iterations from it with their own hidden cards (`engine.redeal`,
    drawn as `resample` draws them): that is the state the same moves reach from the later
    deal, to the end of the round."""
    board = BOARDS[min(board_no, len(BOARDS) - 1)]
    state = new_game(players, seed, board=board)
    rng = random.Random(seed)
    while not state.is_over:
        if rng.random() < 0.15:
            seat = state.to_move()[0]
            seen = view(state, seat)
            for deal in range(3):
                kept = resample(seen, random.Random(deal))
                replayed = resample(seen, random.Random(deal + 100))
                moves = random.Random(deal)
                while not kept.is_over and kept.round == state.round:
                    legal = legal_actions(kept, kept.to_move()[0])
                    action = legal[moves.randrange(len(legal))]
                    apply_in_place(kept, action)
                    apply_in_place(replayed, action)
                    if not kept.is_over and kept.round == state.round:
                        assert kept.setup != replayed.setup  # two deals, told apart
                        drawn, dealt = random.Random(deal + 100), random.Random(deal + 100)
                        same_state(redeal(kept, seen, drawn), replayed)
                        resample(seen, dealt)
                        assert drawn.getstate() == dealt.getstate()  # the same draws
        legal = legal_actions(state, state.to_move()[0])
        apply_in_place(state, legal[rng.randrange(len(legal))])


# -- the engine's shortcuts for play ----------------------------------------------------------


@cache
def positions() -> list[GameState]:
    """Positions of random games on every test board: one in three while placing, and the
    end."""
    out = []
    for board in BOARDS:
        for seed in range(4):
            state = new_game(2 + seed % 3, seed, board=board)
            rng = random.Random(seed)
            step = 0
            while not state.is_over:
                if state.phase is Phase.PLACING:
                    step += 1
                    if step % 3 == 0:
                        out.append(state.clone())
                legal = legal_actions(state, state.to_move()[0])
                apply_in_place(state, legal[rng.randrange(len(legal))])
            out.append(state)
    return out


def test_placements_listed_from_the_owner_bytes_are_the_whole_map_mask_rows():
    """Every plan's candidate rows tested by one gather of the fief owners (the player's
    rings marked in a copy) against the whole-map mask, and through the path for owner
    arrays of another integer type."""
    rings_met = 0
    for state in positions():
        rules = state.rules
        for player, p in enumerate(state.players):
            if p.fief is None:
                continue
            rings_met += bool((state.ring_owner == player).any())
            blocked = (state.fief_owner >= 0) | (state.ring_owner == player)
            wide = state.fief_owner.astype(np.int64), state.ring_owner.astype(np.int64)
            for card in rules.region_cards:
                for action in ("harbors", "cities", "alliance"):
                    found = rules.candidate_set(p.fief, card, action)
                    plain = found.rows[free_rows(blocked, found.cells)].tolist()
                    assert found.free(state.fief_owner, state.ring_owner,
                                      player).tolist() == plain
                    assert found.free(*wide, player).tolist() == plain
    assert rings_met > 10  # the marked copy has work to do


def test_placements_of_wide_fiefs_are_read_as_several_words():
    """Rows wider than four hexes are read as two or more 64-bit words each."""
    rng = np.random.default_rng(3)
    hexes = 300
    for size in (5, 8, 9, 13):
        cells = rng.integers(0, hexes, size=(200, size))
        width = -(-size // 8) * 8
        padded = np.concatenate([cells, np.repeat(cells[:, :1], width - size, axis=1)],
                                axis=1).astype(np.intp)
        rows = np.arange(200, dtype=np.int32)
        found = Candidates.of(rows, padded)
        assert found.words == width // 8
        fiefs = np.where(rng.random(hexes) < 0.02, 1, -1).astype(np.int8)
        rings = np.where(rng.random(hexes) < 0.02, 2, -1).astype(np.int8)
        blocked = (fiefs >= 0) | (rings == 2)
        plain = rows[free_rows(blocked, padded)].tolist()
        assert 0 < len(plain) < 200
        assert found.free(fiefs, rings, 2).tolist() == plain


def fief_outcome(state: GameState, action: PlaceFief, fast: bool) -> object:
    """A fief placement checked, or the rule it breaks."""
    try:
        if fast:
            hexes, events, castles = _fief_move(state, action)
        else:
            hexes = _checked_fief_hexes(state, action)
            events, castles = placement_events(state, action.player, hexes), _castles(
                state.rules, action)
    except IllegalAction as error:
        return error.rule
    except TypeError:  # an anchor given as a list passes the checks but has no castles
        return "TypeError"
    return list(hexes), events, list(castles)


def test_a_fief_checked_from_its_row_is_checked_as_the_long_way_does():
    """Legal placements, placements of another fief, off the map, turned too far, read from
    a shared row by another (anchor, rotation), or on taken hexes: the row's static facts
    give what the long check gives, or the same broken rule."""
    rng = random.Random(5)
    legal_seen, broken = 0, set()
    for state in positions():
        if state.phase is not Phase.PLACING:
            continue
        player = state.current_player
        p = state.players[player]
        legal = legal_actions(state, player)
        tries = [legal.placement(i) for i in rng.sample(range(legal.placement_count),
                                                        min(3, legal.placement_count))]
        table = state.rules.fief_placements(p.fief)
        coords = state.board.coords
        for _ in range(6):
            anchor = rng.choice(coords)
            tries.append(PlaceFief(player, p.fief, anchor, rng.randrange(6)))
        shared = [key for key, row in table.lookup.items()
                  if key != int(table.anchors[row]) * 6 + int(table.rotations[row])]
        if shared:
            anchor, rotation = divmod(rng.choice(shared), 6)
            tries.append(PlaceFief(player, p.fief, coords[anchor], rotation))
        tries += [PlaceFief(player, p.fief + 1, coords[0], 0),
                  PlaceFief(player, p.fief, (-5, -5), 0),
                  PlaceFief(player, p.fief, coords[0], 6)]
        if not is_compiled(PlaceFief.__module__):  # compiled, it is refused as it is made
            tries.append(PlaceFief(player, p.fief, [*coords[0]], 0))
        for action in tries:
            fast = fief_outcome(state, action, True)
            assert fast == fief_outcome(state, action, False), action
            if isinstance(fast, str):
                broken.add(fast)
            else:
                legal_seen += 1
    assert legal_seen > 50
    assert {"placing-2", "take-your-fief", "rotation"} <= broken


def grouped(board, pieces: tuple[tuple[int, ...], ...], walk: bool) -> tuple:
    """A player's groups, joined side by side or by the walk, as plain tuples."""
    if walk:
        piece_at = {h: i for i, hexes in enumerate(pieces) for h in hexes}
        groups = _walk_groups(board.neighbours, pieces, piece_at)
    else:
        groups = _find_groups(board, pieces)
    return groups.hexes, groups.labels, groups.sizes


def test_groups_joined_side_by_side_are_the_walk_groups():
    """Every player's pieces at many positions, and pieces laid over one another (a
    position written by hand), grouped as the walk over touching pieces groups them."""
    joined = 0
    for state in positions():
        for player in range(len(state.players)):
            pieces = tuple(p.hexes for p in state.pieces if p.owner == player)
            found = grouped(state.board, pieces, walk=False)
            assert found == grouped(state.board, pieces, walk=True)
            joined += len(found[2]) < len(pieces)
            if pieces:
                doubled = (*pieces, pieces[0])
                assert grouped(state.board, doubled, walk=False) == grouped(
                    state.board, doubled, walk=True)
    assert joined > 10  # groups of several pieces were met


def test_counts_read_from_few_hexes_are_the_whole_map_counts():
    """The Last Turn count, the cities and harbors each player covers and the sea leagues a
    move scores, each against its whole-map form (and the Last Turn count also for owner
    arrays of another integer type)."""
    leagues_met = 0
    for state in positions():
        free = (state.fief_owner < 0) & (state.ring_owner < 0)
        counted = int(np.count_nonzero(free & state.rules.counted_at_last_turn))
        assert uncovered_count(state) == counted
        wide = state.clone()
        wide.fief_owner = wide.fief_owner.astype(np.int64)
        wide.ring_owner = wide.ring_owner.astype(np.int64)
        assert uncovered_count(wide) == counted
        assert _covered_counts(state) == [covered_places(state, i)
                                          for i in range(len(state.players))]
        if state.phase is not Phase.PLACING:
            continue
        player = state.current_player
        arrays = legal_actions(state, player).placement_arrays()
        if arrays is None:
            continue
        plain = _new_leagues(state.board, _league_context(state, player), arrays.cells)
        for cells, row in zip(arrays.cells.tolist(), plain.tolist(), strict=True):
            formed = _move_leagues(state, player, cells)
            assert formed == {sea for sea, new in enumerate(row) if new}
            leagues_met += bool(formed)
    assert leagues_met > 0


def plain_points(state, player, cells):
    """Points of each row of hexes covered as one move, hex by hex: the hexes' own points and
    the sea leagues the move would complete."""
    rules = state.rules
    own = rules.hex_points[cells].sum(axis=1)
    leagues = _new_leagues(rules.board, _league_context(state, player), cells)
    return (own + POINTS_SEA_LEAGUE * leagues.sum(axis=1)).tolist()


def test_points_of_table_rows_are_the_points_of_their_hexes():
    """`placement_points` scores only the rows that could complete a league hex by hex: every
    row of the fief's table (free or not, a player's own harbors under some) scores what its
    hexes and leagues give, and so does every Wedding, over random games."""
    leagues = 0
    for players, seed, board in ((2, 1, BOARDS[0]), (3, 2, BOARDS[0]), (4, 3, BOARDS[-1])):
        state = new_game(players, seed, board=board)
        rng = random.Random(seed)
        pairs = np.array([[h, -1] for h in range(board.hex_count)]
                         + [[h, h + 1] for h in range(board.hex_count - 1)])
        while not state.is_over:
            if rng.random() < 0.25:
                for player in range(players):
                    leagues += check_points(state, player, pairs)
            legal = legal_actions(state, state.to_move()[0])
            apply_in_place(state, legal[rng.randrange(len(legal))])
    assert leagues > 10  # positions where a move completes a league were checked


def check_points(state, player, pairs) -> int:
    """Check a player's points of every table row of their fief and of `pairs` as Weddings;
    the rows that complete a league."""
    board = state.board
    fief = state.players[player].fief or min(board.fiefs)
    table = state.rules.fief_placements(fief)
    plain = plain_points(state, player, table.cells)
    assert placement_points(state, player, fief, np.arange(len(table))).tolist() == plain
    singles = plain_points(state, player, pairs[:board.hex_count, :1])
    doubles = plain_points(state, player, pairs[board.hex_count:])
    assert wedding_points(state, player, pairs).tolist() == singles + doubles
    own = state.rules.hex_points[table.cells].sum(axis=1).tolist()
    return sum(p > h for p, h in zip(plain, own, strict=True))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_redeal_of_objectives_alone_keeps_the_decks_and_deals_what_is_hidden_evenly(players):
    """A search that stays in the round deals only the objectives anew (`redeal(...,
    decks=False)`): the position and its decks are kept, the viewer's own card stays, the
    others are the cards the viewer has not seen, all different, each as likely."""
    from collections import Counter

    state = new_game(players, seed=40 + players, board=BOARDS[0])
    rng = random.Random(players)
    for _ in range(9):
        legal = legal_actions(state, state.to_move()[0])
        apply_in_place(state, legal[rng.randrange(len(legal))])
    seat = state.to_move()[0]
    seen = view(state, seat)
    kept = resample(seen, random.Random(0))
    hidden = sorted(set(BOARDS[0].objectives) - {state.players[seat].objective})
    counts: Counter[int] = Counter()
    draws = 600
    for k in range(draws):
        dealt = redeal(kept, seen, random.Random(k), decks=False)
        objectives = [p.objective for p in dealt.players]
        assert objectives[seat] == state.players[seat].objective
        assert len(set(objectives)) == players and dealt.setup.objectives == tuple(objectives)
        assert [p.deck for p in dealt.players] == [p.deck for p in kept.players]
        assert dealt.setup.decks == kept.setup.decks
        assert np.array_equal(dealt.fief_owner, kept.fief_owner) and dealt.round == kept.round
        counts.update(o for i, o in enumerate(objectives) if i != seat)
    assert sorted(counts) == hidden
    expected = draws * (players - 1) / len(hidden)
    assert all(abs(n - expected) < 0.35 * expected for n in counts.values()), counts
    assert redeal(kept, seen, random.Random(3), decks=False).setup == \
        redeal(kept, seen, random.Random(3), decks=False).setup  # reproducible from its seed
