"""The precomputed placement tables agree with the placing rules checked one by one."""

from __future__ import annotations

import numpy as np

from tavola.games.gonzaga.placement import (
    action_allows,
    action_allows_array,
    cells_of,
    placement_tables,
    static_problem,
)


def test_tables_match_the_scalar_rules(board):
    tables = placement_tables(board)
    for number, fief in board.fiefs.items():
        fp = tables[number]
        for anchor in range(board.hex_count):
            for rotation in range(6):
                row = fp.row_of(anchor, rotation)
                problem = static_problem(board, fief, anchor, rotation)
                assert (row is None) == (problem is not None), (number, anchor, rotation)
                if row is not None:
                    cells = sorted(cells_of(board, fief, anchor, rotation))
                    assert sorted(fp.cells[row].tolist()) == cells


def test_symmetric_fief_placements_are_listed_once(board):
    """Fief 40 (a line of four, castles at both ends) looks the same turned half round."""
    fp = placement_tables(board)[40]
    cover = [frozenset(c) for c in fp.cells.tolist()]
    assert len(cover) == len(set(cover))
    anchor = board.index_of[(0, 3)]
    twin = board.index_of[(3, 3)]  # the far end of the same line, turned by three sixths
    assert fp.row_of(anchor, 0) is not None
    assert fp.row_of(anchor, 0) == fp.row_of(twin, 3)


def test_action_limits_vectorised_agree():
    c, h = np.meshgrid(np.arange(5), np.arange(5))
    for action in ("harbors", "cities", "alliance"):
        arr = action_allows_array(action, c.ravel(), h.ravel())
        scalar = [action_allows(action, int(x), int(y)) for x, y in zip(c.ravel(), h.ravel(),
                                                                          strict=True)]
        assert arr.tolist() == scalar


def test_coverage_limits_by_card():
    assert action_allows("harbors", 0, 1) and action_allows("harbors", 0, 2)
    assert not action_allows("harbors", 0, 3) and not action_allows("harbors", 1, 1)
    assert action_allows("cities", 3, 0) and action_allows("cities", 0, 0)
    assert not action_allows("cities", 4, 0) and not action_allows("cities", 1, 1)
    for ok in ((1, 1), (2, 1), (1, 2)):
        assert action_allows("alliance", *ok)
    for bad in ((2, 2), (1, 0), (0, 1), (0, 0), (3, 1)):
        assert not action_allows("alliance", *bad)


def test_the_sea_league_rule_counts_one_move_as_it_counts_thousands():
    """The league rule has a vectorised path (bots, previews) and a direct one (the move being
    played); on every placement of random positions they agree."""
    import random

    import numpy as np

    from tavola.games.gonzaga.engine import (
        apply_in_place,
        legal_actions,
        new_game,
        new_leagues,
    )
    from tavola.games.gonzaga.state import Phase

    checked = formed = 0
    for seed in range(6):
        rng = random.Random(seed)
        state = new_game(4, seed)
        while not state.is_over:
            seat = state.to_move()[0]
            legal = legal_actions(state, seat)
            arrays = legal.placement_arrays() if state.phase is Phase.PLACING else None
            if arrays is not None:
                cells = arrays.cells
                many = new_leagues(state, seat, cells, valid=np.ones(cells.shape, bool))
                for i in range(len(cells)):
                    one = new_leagues(state, seat, cells[i:i + 1])
                    assert (one[0] == many[i]).all()
                checked += len(cells)
                formed += int(many.any(axis=1).sum())
            apply_in_place(state, legal[rng.randrange(len(legal))])
    assert checked > 1000 and formed > 0
