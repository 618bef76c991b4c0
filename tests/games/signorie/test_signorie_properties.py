"""Properties of random games for 2, 3 and 4 players, checked after every decision."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from signorie_helpers import NAMES, T, facts

from tavola.game import IllegalAction
from tavola.games.signorie import engine
from tavola.games.signorie.actions import Pass, TakeDie, action_from_json, action_to_json
from tavola.games.signorie.state import SignorieState, SignorieView
from tavola.games.signorie.tables import FEMALE, MALE

HIDDEN = {"rng", "seed", "deck", "removed", "down_tiles"}
games = st.tuples(st.integers(2, 4), st.integers(0, 2**32 - 1))
FEW = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def public(p) -> dict:
    return {k: v for k, v in facts(p).items() if k not in HIDDEN | {"viewer", "deck_size",
                                                                   "removed_count"}}


def whole(s: SignorieState) -> dict:
    d = {k: v for k, v in facts(s).items() if k != "rng"}
    d["rng"] = s.rng.getstate()
    return d


def check_invariants(s: SignorieState) -> None:
    n = s.n
    assert all(f >= 0 for f in s.florins)
    for p in range(n):
        in_cities = [0, 0]
        for c in range(len(T.city_names)):
            for seat, sex in s.city_meeples[c]:
                if seat == p:
                    in_cities[sex] += 1
        males = (s.avail[p][MALE] + s.stock[p][MALE] + sum(map(sum, s.career[p]))
                 + in_cities[MALE] + s.threshold[p][MALE])
        females = s.avail[p][FEMALE] + s.stock[p][FEMALE] + in_cities[FEMALE] + s.threshold[p][
            FEMALE]
        assert (males, females) == (12, 11)
        assert sum(1 for v in s.taken[p] if v) <= T.max_dice
        for row in range(4):
            for h in range(6):
                have = sum(1 for x in s.rows[p][row] if T.tile_house[x] == h)
                assert have <= T.plan[p][row][h]
            assert s.down[p][row] == len(s.down_tiles[p][row])
        assert s.vp[p] == sum(e[1] for e in s.events if e[0] == p)
        assert s.vp[p] == sum(e.data["points"] for e in s.log if e.kind == "score" and e.seat == p)
    tiles = (s.deck + s.removed + [x for c in s.city_tiles for x in c if x >= 0]
             + [x for rows in s.rows for r in rows for x in r]
             + [x for rows in s.down_tiles for r in rows for x in r])
    assert sorted(tiles) == list(range(54))


def random_game(n: int, seed: int, each=None) -> tuple[SignorieState, list[dict]]:
    rng = random.Random(seed)
    s = engine.new_game(NAMES[:n], seed)
    actions = []
    while not s.is_over:
        seat = s.to_move()[0]
        legal = engine.legal_actions(s, seat)
        assert legal and all(engine.legal_actions(s, other) == [] for other in range(n)
                             if other != seat)
        a = legal[rng.randrange(len(legal))]
        if each:
            each(s, a, rng)
        actions.append(action_to_json(a))
        engine.apply_in_place(s, a)
        check_invariants(s)
    return s, actions


@FEW
@given(games)
def test_invariants_and_replay_from_seed_and_actions(game):
    n, seed = game
    s, actions = random_game(n, seed)
    again = engine.new_game(NAMES[:n], seed)
    for a in actions:
        engine.apply_in_place(again, action_from_json(a))
    assert whole(again) == whole(s)
    assert s.is_over and len(engine.winners(s)) == 1
    assert sum(sum(b.values()) for b in engine.score_breakdown(s)) == sum(s.vp)


def _views_and_resample(s: SignorieState, a, rng: random.Random) -> None:
    if rng.random() > 0.1:
        return
    views = [engine.view(s, seat) for seat in (None, *range(s.n))]
    assert all(not (HIDDEN & set(facts(v))) for v in views)
    assert all(public(v) == public(views[0]) for v in views)
    other = s.clone()  # the same public position, other secrets
    pool = other.deck + [x for rows in other.down_tiles for r in rows for x in r]
    rng.shuffle(pool)
    for rows in other.down_tiles:
        for r in rows:
            r[:] = [pool.pop() for _ in r]
    other.deck = pool
    other.rng = random.Random(rng.random())
    assert public(engine.view(other, 0)) == public(views[1])
    fake = engine.resample(views[1], rng)
    assert isinstance(fake, SignorieState) and isinstance(views[1], SignorieView)
    assert public(engine.view(fake, 0)) == public(views[1])
    check_invariants(fake)
    removed = [T.tile_house[x] for x in fake.removed]
    assert sorted(removed) == sorted(T.tile_house[x] for x in s.removed)
    seat = fake.to_move()[0]
    engine.apply_in_place(fake, engine.legal_actions(fake, seat)[0])  # the copy plays on


@FEW
@given(games)
def test_views_never_leak_and_resample_is_consistent(game):
    random_game(*game, each=_views_and_resample)


def _pure_and_refusals(s: SignorieState, a, rng: random.Random) -> None:
    if rng.random() > 0.15:
        return
    before = whole(s)
    out = engine.apply(s, a)
    assert whole(s) == before, "apply changed its argument"
    inplace = s.clone()
    engine.apply_in_place(inplace, a)
    assert whole(inplace) == whole(out)
    seat = s.to_move()[0]
    legal = engine.legal_actions(s, seat)
    wrong = [Pass((seat + 1) % s.n), TakeDie(seat, "grey", 7), "pass", None,
             *(TakeDie(seat, c, v) for c in T.colours for v in range(1, 7))]
    for bad in wrong:
        if bad in legal:
            continue
        try:
            engine.apply_in_place(s, bad)
        except IllegalAction as err:
            assert err.rule and err.message
        else:
            raise AssertionError(f"{bad} was accepted")
        assert whole(s) == before


@FEW
@given(games)
def test_apply_is_pure_matches_in_place_and_illegal_actions_change_nothing(game):
    random_game(*game, each=_pure_and_refusals)
