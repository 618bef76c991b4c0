"""One test (or more) per rule, on the synthetic board of boards.py (beside this file).

Tiny board reminders: region k covers columns 4k..4k+3 of rows 0-7 (Hispania, Francia,
Britannia, Italia, Germania, Orientalis); cities on row 6, harbors on row 7, sea below.
Barriers between Hispania and Francia on rows 0-3. Fief 10 is a straight line of three
(castles at both ends), fief 30 a triangle, fief 40 a line of four, fief 70 a 2x2 rhombus.
"""

from __future__ import annotations

import numpy as np
import pytest
from gonzaga_helpers import attributes, game, plan_all, put

from tavola.compiling import is_compiled
from tavola.games.gonzaga.actions import Donate, IllegalAction, PlaceFief, Plan, Wedding
from tavola.games.gonzaga.engine import (
    apply,
    largest_group,
    legal_actions,
    objective_cities,
    resample,
    uncovered_count,
    view,
)
from tavola.games.gonzaga.state import Phase, Reason


def placing(board, fief=10, region="hispania", action="cities", kp=False, n=2, **kw):
    """A game in phase 4 where red (seat 0) places `fief` with the given plan, first."""
    state = game(board, n, tops=[[fief], [120]], **kw)
    others = {seat: ("francia", "alliance") for seat in range(1, n)}
    state = plan_all(state, {**others, 0: (region, action, kp)})
    if state.current_player != 0:
        pytest.skip("red is not first in this set-up")
    return state


def pts(state, seat=0):
    return state.players[seat].score


@pytest.fixture(params=[(), ("one-league-per-sea",)], ids=["standard", "one-league-per-sea"])
def variants(request):
    """The rule sets a rule holds in alike: the standard game and each variant."""
    return request.param


def league_elsewhere(state, sea="s0"):
    """Blue has formed the league of `sea`: under one-league-per-sea red can no longer."""
    state.players[1].leagues = frozenset({sea})
    state.leagues_formed = frozenset({sea})


# -- set-up ---------------------------------------------------------------------------------------


def test_setup_gives_each_player_everything(board):
    state = game(board, 3)
    assert state.round == 1 and state.phase is Phase.PLANNING
    for p in state.players:
        assert p.rings == 6 and p.score == 0
        assert p.fief is not None and len(p.deck) == 11
        assert sorted([p.fief, *p.deck]) == list(range(10, 130, 10))
    assert len({p.objective for p in state.players}) == 3
    assert state.last_turn_check == 6  # Last Turn card under the 6th fief card


def test_colombo_example_region_cards(board):
    """Rulebook example: in Colombo the cards are the four flourishing regions + Inactive."""
    state = game(board, 4, scenario="Colombo")
    assert state.rules.region_cards == ("hispania", "francia", "britannia", "italia", "inactive")
    assert state.rules.inactive_regions == ("germania", "orientalis")
    plans = legal_actions(state, 0)
    assert {p.region for p in plans} == set(state.rules.region_cards)
    with pytest.raises(IllegalAction) as exc:
        apply(state, Plan(0, "germania", "cities"))
    assert exc.value.rule == "region-card"


def test_seeded_deal_is_deterministic(board):
    from tavola.games.gonzaga.engine import new_game

    a = new_game(3, seed=5, board=board)
    b = new_game(3, seed=5, board=board)
    assert a.setup == b.setup
    assert new_game(3, seed=6, board=board).setup != a.setup


# -- planning ---------------------------------------------------------------------------------


def test_planning_cards_rest_one_round(board):
    state = game(board, 2)
    state = plan_all(state, {0: ("hispania", "harbors")})
    while state.round == 1:
        state = apply(state, Donate(state.current_player))
    assert state.players[0].resting == ("hispania", "harbors")
    plans = legal_actions(state, 0)
    assert all(p.region != "hispania" and p.action != "harbors" for p in plans)
    with pytest.raises(IllegalAction) as exc:
        apply(state, Plan(0, "hispania", "cities"))
    assert exc.value.rule == "resting-card"
    state = plan_all(state, {0: ("francia", "cities")})
    assert state.players[0].resting == ()  # cards came back at the reveal of round 2
    while state.round == 2:
        state = apply(state, Donate(state.current_player))
    assert {p.region for p in legal_actions(state, 0)} >= {"hispania"}


def test_kings_privilege_costs_a_ring_and_rests(board):
    state = game(board, 2)
    state = plan_all(state, {1: ("francia", "alliance", True)})
    assert state.players[1].rings == 5
    assert state.order[0] == 1
    while state.round == 1:
        state = apply(state, Donate(state.current_player))
    assert "privilege" in state.players[1].resting
    assert not any(p.privilege for p in legal_actions(state, 1))


def test_kings_privilege_needs_a_ring(board):
    state = game(board, 2)
    state.players[0].rings = 0
    assert not any(p.privilege for p in legal_actions(state, 0))
    with pytest.raises(IllegalAction) as exc:
        apply(state, Plan(0, "hispania", "cities", True))
    assert exc.value.rule == "privilege-ring"


def test_turn_order_rulebook_example(board):
    """Catherine KP+Alliance, Günter Harbors, José and Piotr Cities with cards 12 and 83."""
    # seats: 0 Catherine red, 1 José yellow (fief 10 = card 12), 2 Piotr green (80 = card 83),
    # 3 Günter blue
    state = game(board, 4, tops=[[120], [10], [80], [110]])
    assert state.players[1].card_number() == 12 and state.players[2].card_number() == 83
    state = plan_all(state, {0: ("hispania", "alliance", True), 1: ("francia", "cities"),
                             2: ("britannia", "cities"), 3: ("italia", "harbors")})
    assert state.order == (0, 3, 1, 2)


def test_turn_order_privilege_ties(board):
    state = game(board, 3, tops=[[50], [20], [30]])
    state = plan_all(state, {0: ("hispania", "harbors", True), 1: ("francia", "cities", True),
                             2: ("britannia", "harbors", True)})
    # all privileged: harbors before cities; red 51 and green 33 both harbors -> green first
    assert state.order == (2, 0, 1)


def test_plans_are_secret_until_everyone_planned(board):
    state = game(board, 3)
    state = apply(state, Plan(0, "hispania", "cities", True))
    other = view(state, 1)
    assert other.players[0].has_planned and other.players[0].plan is None
    assert state.players[0].rings == 6  # the privilege ring is paid at the reveal
    with pytest.raises(IllegalAction) as exc:
        apply(state, Plan(0, "francia", "cities"))
    assert exc.value.rule == "planned-already"


# -- placing a fief ---------------------------------------------------------------------------


def test_cities_card_scores_three_per_flourishing_city(board):
    state = placing(board, 10, "hispania", "cities")
    state = apply(state, PlaceFief(0, 10, (0, 6), 0))
    assert pts(state) == 9
    events = state.score_events()
    assert [e.reason for e in events] == [Reason.CITY] * 3


def test_inactive_region_scores_one(board):
    state = placing(board, 10, "inactive", "cities")  # Duo: Italia, Germania, Orientalis
    state = apply(state, PlaceFief(0, 10, (12, 6), 0))
    assert pts(state) == 3


def test_cities_card_limits(board):
    state = placing(board, 40, "hispania", "cities")
    with pytest.raises(IllegalAction) as exc:  # four cities
        apply(state, PlaceFief(0, 40, (0, 6), 0))
    assert exc.value.rule == "action-card"
    apply(state, PlaceFief(0, 40, (0, 3), 0))  # only empty hexes is the other option


def test_harbors_card_limits(board):
    state = placing(board, 10, "hispania", "harbors")
    with pytest.raises(IllegalAction):  # three harbors
        apply(state, PlaceFief(0, 10, (0, 7), 0))
    with pytest.raises(IllegalAction):  # cities
        apply(state, PlaceFief(0, 10, (0, 6), 0))
    with pytest.raises(IllegalAction):  # nothing
        apply(state, PlaceFief(0, 10, (0, 3), 0))
    state = placing(board, 30, "hispania", "harbors")
    ok = apply(state, PlaceFief(0, 30, (2, 7), 0))  # harbors (2,7), (3,7) and a sea hex
    assert ok.players[0].score == 2 * 3


def test_alliance_card_needs_city_and_harbor(board):
    state = placing(board, 70, "hispania", "alliance")
    with pytest.raises(IllegalAction) as exc:  # 2 cities + 2 harbors is not allowed
        apply(state, PlaceFief(0, 70, (0, 6), 0))
    assert exc.value.rule == "action-card"
    state = placing(board, 30, "hispania", "alliance")
    done = apply(state, PlaceFief(0, 30, (0, 6), 0))  # 2 cities + 1 harbor
    assert done.players[0].score == 9


def test_region_card_needs_a_land_hex_of_the_region(board):
    state = placing(board, 10, "francia", "cities")
    with pytest.raises(IllegalAction) as exc:
        apply(state, PlaceFief(0, 10, (0, 3), 0))
    assert exc.value.rule == "region-card"
    apply(state, PlaceFief(0, 10, (2, 5), 0))  # one hex in Francia is enough


def test_static_placement_rules(board):
    state = placing(board, 10, "hispania", "cities")
    for anchor, rule in [((22, 0), "placing-2"), ((0, 9), "placing-3"), ((2, 1), "placing-4")]:
        with pytest.raises(IllegalAction) as exc:
            apply(state, PlaceFief(0, 10, anchor, 0))
        assert exc.value.rule == rule, anchor
    with pytest.raises(IllegalAction) as exc:
        apply(state, PlaceFief(0, 20, (0, 3), 0))  # not this round's fief
    assert exc.value.rule == "take-your-fief"
    with pytest.raises(IllegalAction):
        apply(state, PlaceFief(0, 10, (0, 3), 6))


def test_fief_may_cover_a_sea_hex_without_castle(board):
    state = placing(board, 30, "hispania", "harbors")
    done = apply(state, PlaceFief(0, 30, (0, 7), 0))  # castles on harbors, third hex at sea
    assert done.board.sea_of[done.board.index_of[(1, 8)]] == "s0"
    assert done.fief_owner[done.board.index_of[(1, 8)]] == 0


def test_no_fief_on_a_fief_but_on_other_rings(board):
    state = placing(board, 10, "hispania", "cities")
    put(state, 1, [(1, 3)])
    with pytest.raises(IllegalAction) as exc:
        apply(state, PlaceFief(0, 10, (0, 3), 0))
    assert exc.value.rule == "placing-2"
    state = placing(board, 10, "hispania", "cities")
    put(state, 1, [(1, 6)], kind="ring")
    done = apply(state, PlaceFief(0, 10, (0, 6), 0))
    assert pts(done) == 9  # the city under yellow's ring still scores
    state = placing(board, 10, "hispania", "cities")
    put(state, 0, [(1, 6)], kind="ring")
    with pytest.raises(IllegalAction) as exc:
        apply(state, PlaceFief(0, 10, (0, 6), 0))
    assert exc.value.rule == "rings-own"


def test_illegal_action_changes_nothing(board, variants):
    state = placing(board, 10, "hispania", "cities", variants=variants)
    before = (state.fief_owner.copy(), list(state.journal), [p.score for p in state.players],
              state.turn)
    with pytest.raises(IllegalAction):
        apply(state, PlaceFief(0, 10, (2, 1), 0))
    with pytest.raises(IllegalAction):
        apply(state, PlaceFief(1, 10, (0, 6), 0))  # out of turn
    assert np.array_equal(before[0], state.fief_owner)
    assert before[1] == state.journal and before[3] == state.turn
    assert before[2] == [p.score for p in state.players]


@pytest.mark.parametrize(("make", "typed"), [
    (lambda: PlaceFief(0, 10, "0,6", 0), True),  # type: ignore[arg-type]
    (lambda: PlaceFief(0, 10, (0,), 0), True),  # type: ignore[arg-type]
    (lambda: PlaceFief(0, 10, (0.5, 6), 0), True),  # type: ignore[arg-type]
    (lambda: PlaceFief(0, 10, (0, 6), "0"), True),  # type: ignore[arg-type]
    (lambda: PlaceFief(7, 10, (0, 6), 0), False),
    (lambda: Wedding(0, None), True),  # type: ignore[arg-type]
    (lambda: "donate", False),
])
def test_malformed_actions_are_refused_cleanly(board, make, typed):
    """Refused by the engine; an action whose fields have the wrong types is refused as it
    is made when the actions are compiled (`tavola compile`: they check their types)."""
    state = placing(board, 10, "hispania", "alliance")
    before = state.fief_owner.copy(), list(state.journal)
    if typed and is_compiled(Wedding.__module__):
        with pytest.raises(TypeError):
            make()
    else:
        with pytest.raises(IllegalAction):
            apply(state, make())  # type: ignore[arg-type]
    assert np.array_equal(before[0], state.fief_owner) and before[1] == state.journal


def test_legal_placements_are_exactly_the_applicable_ones(board, variants):
    state = placing(board, 30, "hispania", "alliance", variants=variants)
    league_elsewhere(state)
    put(state, 0, [(0, 7), (1, 7)], kind="ring")
    legal = legal_actions(state, 0)
    fiefs = [a for a in legal if isinstance(a, PlaceFief)]
    assert fiefs
    for a in fiefs:
        apply(state, a)
    # every other rotation/anchor touching Hispania is refused
    legal_set = {(a.anchor, a.rotation) for a in fiefs}
    fp = state.rules.fief_placements(30)
    for anchor in range(0, state.board.hex_count, 7):
        for rot in range(6):
            row = fp.row_of(anchor, rot)
            if row is None:
                continue
            canon = (state.board.coords[int(fp.anchors[row])], int(fp.rotations[row]))
            try:
                apply(state, PlaceFief(0, 30, state.board.coords[anchor], rot))
                assert canon in legal_set
            except IllegalAction:
                assert canon not in legal_set


# -- donation, Wedding ------------------------------------------------------------------------


def test_donation_is_always_allowed_and_scores_three(board):
    state = placing(board, 10, "hispania", "cities")
    assert Donate(0) in list(legal_actions(state, 0))
    done = apply(state, Donate(0))
    assert pts(done) == 3 and done.church == [(0, 10)]


def test_wedding_two_rings_across_a_barrier(board):
    state = placing(board, 10, "hispania", "alliance")
    done = apply(state, Wedding(0, (3, 1), (4, 1)))
    assert done.players[0].rings == 4
    assert done.church == [] and done.players[0].fief is None  # the fief is discarded
    assert [p.kind for p in done.pieces] == ["ring", "ring"]


def test_wedding_rules(board):
    state = placing(board, 10, "hispania", "cities")
    with pytest.raises(IllegalAction) as exc:
        apply(state, Wedding(0, (1, 1)))
    assert exc.value.rule == "wedding-card"
    state = placing(board, 10, "hispania", "alliance")
    with pytest.raises(IllegalAction) as exc:
        apply(state, Wedding(0, (5, 1)))  # first ring outside the planned region
    assert exc.value.rule == "wedding-region"
    with pytest.raises(IllegalAction) as exc:
        apply(state, Wedding(0, (1, 1), (3, 3)))
    assert exc.value.rule == "wedding-adjacent"
    done = apply(state, Wedding(0, (0, 7), (0, 8)))  # second ring at sea
    assert pts(done) == 3
    put(state, 1, [(1, 1)], kind="ring")
    with pytest.raises(IllegalAction) as exc:
        apply(state, Wedding(0, (1, 1)))
    assert exc.value.rule == "rings-one-per-hex"
    put(state, 0, [(2, 2)])
    with pytest.raises(IllegalAction) as exc:
        apply(state, Wedding(0, (2, 2)))
    assert exc.value.rule == "rings-own"
    put(state, 1, [(3, 6)])
    done = apply(state, Wedding(0, (3, 6)))  # on yellow's fief: scores the city
    assert pts(done) == 3


def test_wedding_needs_a_ring_left_after_the_privilege(board):
    state = game(board, 2, tops=[[10]])
    state.players[0].rings = 1
    state = plan_all(state, {0: ("hispania", "alliance", True)})
    assert state.players[0].rings == 0
    legal = legal_actions(state, 0)
    assert not any(isinstance(a, Wedding) for a in legal)
    with pytest.raises(IllegalAction) as exc:
        apply(state, Wedding(0, (1, 1)))
    assert exc.value.rule == "wedding-rings"


def test_wedding_listing_matches_rules(board, variants):
    state = placing(board, 10, "hispania", "alliance", variants=variants)
    league_elsewhere(state)
    put(state, 1, [(1, 1)], kind="ring")
    weddings = [a for a in legal_actions(state, 0) if isinstance(a, Wedding)]
    hexes = {(w.first, w.second) for w in weddings}
    assert ((0, 0), None) in hexes and ((1, 1), None) not in hexes
    assert ((3, 1), (4, 1)) in hexes
    assert len(hexes) == len(weddings)
    for w in weddings[::13]:
        apply(state, w)


# -- sea leagues ----------------------------------------------------------------------------


def test_sea_league_scores_once_at_the_third_harbor(board, variants):
    """The first league of a sea scores in every rule set."""
    state = placing(board, 10, "hispania", "alliance", variants=variants)
    put(state, 0, [(0, 7)])
    put(state, 0, [(1, 7)], kind="ring")
    done = apply(state, Wedding(0, (2, 7), (3, 7)))  # third and fourth harbor of s0
    reasons = [e.reason for e in done.score_events()]
    assert reasons.count(Reason.SEA_LEAGUE) == 1
    assert pts(done) == 3 + 3 + 10
    assert done.players[0].leagues == {"s0"}


def test_sea_league_not_twice(board, variants):
    state = placing(board, 10, "hispania", "alliance", variants=variants)
    put(state, 0, [(0, 7), (1, 7), (2, 7)])
    state.players[0].leagues = frozenset({"s0"})
    done = apply(state, Wedding(0, (3, 7)))
    assert pts(done) == 3


@pytest.mark.parametrize("variant, expected", [((), 13), (("one-league-per-sea",), 3)])
def test_league_variant(board, variant, expected):
    """Variant: only the first player to cover three harbors of a sea scores its league."""
    state = placing(board, 10, "hispania", "alliance", variants=variant)
    put(state, 1, [(0, 7), (1, 7), (2, 7)])
    state.players[1].leagues = frozenset({"s0"})
    state.leagues_formed = frozenset({"s0"})
    put(state, 0, [(0, 7)], kind="ring")
    put(state, 0, [(1, 7)], kind="ring")
    done = apply(state, Wedding(0, (3, 7)))  # red's third harbor of s0
    assert pts(done) == expected


# -- end of game ------------------------------------------------------------------------------


def donate_round(state):
    state = plan_all(state, {})
    r = state.round
    while state.round == r and not state.is_over:
        state = apply(state, Donate(state.current_player))
    return state


def test_game_lasts_twelve_rounds_when_the_map_stays_open(board):
    state = game(board, 2)
    while not state.is_over:
        state = donate_round(state)
    assert state.round == 12
    checks = [e for e in state.journal if type(e).__name__ == "LastTurnChecked"]
    assert [c.round for c in checks] == [6, 7, 8, 9, 10, 11]
    assert all(p.score == 36 for p in state.players)
    assert state.winners == (0, 1)  # shared victory


@pytest.mark.parametrize("left, rounds", [(3, 7), (4, 8)])
def test_last_turn_check(board, left, rounds):
    state = game(board, 2)
    for _ in range(5):
        state = donate_round(state)
    special = np.flatnonzero(state.rules.counted_at_last_turn)
    for h in special[: len(special) - left]:
        state.fief_owner[h] = 1
    assert uncovered_count(state) == left
    state = donate_round(state)  # round 6, then the check
    if left == 4:
        state.fief_owner[special[-1]] = 1  # now three are left at the check after round 7
    while not state.is_over:
        state = donate_round(state)
    assert state.round == rounds


def test_gonzaga_tile_counts_rings_and_ignores_barriers(board):
    state = game(board, 2)
    put(state, 0, [(2, 1), (3, 1)])
    put(state, 0, [(4, 1), (5, 1)])  # across the barrier: still connected
    put(state, 0, [(6, 1)], kind="ring")
    put(state, 1, [(0, 4), (1, 4)])
    assert largest_group(state, 0) == 3 and largest_group(state, 1) == 1


def test_final_scoring_tile_objective_and_tie_break(board):
    state = game(board, 2, objectives=[1, 2])  # 1: crown+tower, 2: crown+bell
    for _ in range(11):
        state = donate_round(state)
    # red covers crown cities of Hispania and Francia and tower of Italia: 3 cities
    put(state, 0, [(0, 6)])
    put(state, 0, [(4, 6)])
    put(state, 0, [(12, 6)], kind="ring")
    put(state, 1, [(1, 6), (2, 6)])
    put(state, 1, [(3, 6)])  # adjacent to yellow's other fief: a group of 2
    assert objective_cities(state, 0) == ["c00", "c10", "c30"]
    state = donate_round(state)
    assert state.is_over
    final = {(e.player, e.reason): e.points for e in state.journal[-1].events}
    assert final[(0, Reason.OBJECTIVE)] == 10
    assert final[(1, Reason.GONZAGA_TILE)] == 15 and (0, Reason.GONZAGA_TILE) not in final
    assert final[(1, Reason.OBJECTIVE)] == 0


def test_tied_scores_go_to_most_covered_places(board):
    from tavola.games.gonzaga.engine import winners

    state = game(board, 3)
    put(state, 0, [(0, 6)])
    put(state, 1, [(1, 6), (2, 6)])
    for p in state.players:
        p.score = 20
    assert winners(state) == (1,)
    state.players[2].score = 21
    assert winners(state) == (2,)


# -- views ----------------------------------------------------------------------------------


def test_view_hides_secrets(board):
    state = game(board, 3)
    state = apply(state, Plan(0, "hispania", "cities"))
    v = view(state, 1)
    assert v.players[1].objective == state.players[1].objective
    assert v.players[0].objective is None and v.players[2].objective is None
    assert v.players[0].plan is None and v.players[0].has_planned
    assert v.players[1].remaining_fiefs == tuple(sorted(state.players[1].deck))
    text = repr(attributes(v))
    assert "objective" in text and "deck" not in text


def test_resample_is_consistent_with_the_view(board):
    import random

    state = game(board, 3)
    state = apply(state, Plan(1, "hispania", "cities"))
    v = view(state, 0)
    for i in range(5):
        s = resample(v, random.Random(i))
        assert s.players[0].objective == state.players[0].objective
        assert len({p.objective for p in s.players}) == 3
        assert s.players[1].plan is None  # the secret plan is not carried over
        for a, b in zip(s.players, state.players, strict=True):
            assert sorted(a.deck) == sorted(b.deck) and a.fief == b.fief
        assert np.array_equal(s.fief_owner, state.fief_owner)
        s = apply(s, Plan(1, "francia", "harbors"))  # a resampled state is playable


def test_placed_fief_remembers_its_castles(board):
    state = placing(board, 10, "hispania", "cities")
    done = apply(state, PlaceFief(0, 10, (0, 6), 0))
    piece = done.pieces[-1]
    coords = [done.board.coords[h] for h in piece.castles]
    assert coords == [(0, 6), (2, 6)]


def test_legal_actions_helpers(board):
    state = placing(board, 10, "hispania", "alliance")
    legal = legal_actions(state, 0)
    assert isinstance(legal.placement(0), PlaceFief)
    assert legal.placement(0) == legal[len(legal.fixed)]
    assert isinstance(legal.wedding(0), Wedding)
    seconds = legal.second_rings((3, 1))
    assert (4, 1) in seconds and (2, 1) in seconds and len(seconds) == 6


def test_placement_arrays_are_the_placements_with_their_points(board, variants):
    """The vectorised API lists exactly the placement actions, in order, with their points."""
    from tavola.games.gonzaga.engine import action_events

    state = placing(board, 10, "hispania", "alliance", variants=variants)
    league_elsewhere(state)
    put(state, 0, [(0, 7), (1, 7)], kind="ring")  # a fief on (2, 7) forms s0 where it may
    legal = legal_actions(state, 0)
    arrays = legal.placement_arrays()
    assert arrays is not None and len(arrays) == legal.placement_count > 0
    for i in range(len(arrays)):
        action = legal.placement(i)
        assert action.anchor == tuple(arrays.anchors[i].tolist())
        assert action.rotation == arrays.rotations[i]
        assert arrays.points[i] == sum(e.points for e in action_events(state, action))
    for j, (first, second) in enumerate(legal.wedding_pairs.tolist()):
        wedding = legal.wedding(j)
        assert wedding.first == board.coords[first]
        assert wedding.second == (board.coords[second] if second >= 0 else None)


def test_a_state_and_a_view_are_one_kind_of_position(board):
    from tavola.games.gonzaga.state import Position, Seat

    def members(protocol: type) -> list[str]:
        # (compiled, a protocol's properties are the class's own descriptors)
        return [name for name in vars(protocol) if not name.startswith("_")]

    assert len(members(Position)) >= 20 and len(members(Seat)) >= 10
    state = placing(board, 10, "hispania", "cities")
    for position in (state, view(state, 1), view(state, None)):
        assert [m for m in members(Position) if not hasattr(position, m)] == []
        assert [m for p in position.players for m in members(Seat) if not hasattr(p, m)] == []
        assert position.names == ("Red", "Yellow")
        assert position.to_move() == (position.current_player,) == (0,)
        assert position.board is board and position.num_players == 2 and not position.is_over


def test_fief_card_numbers_rulebook_examples(board):
    """'Fief 50 matches card 52. Fief 120 matches card 124'; card 12 is yellow's, 83 green's."""
    state = game(board, 4)
    red, yellow, green, blue = state.players
    assert yellow.card_number(50) == 52 and blue.card_number(120) == 124
    assert yellow.card_number(10) == 12 and green.card_number(80) == 83
    assert red.card_number(10) == 11
    numbers = {p.card_number(f) for p in state.players for f in range(10, 130, 10)}
    assert len(numbers) == 48  # card numbers never tie across players


def test_spectator_view_hides_every_objective(board):
    state = game(board, 3)
    v = view(state, None)
    assert all(p.objective is None for p in v.players)
    assert legal_actions(v, 0) is not None


def test_objectives_are_revealed_at_the_end(board):
    state = game(board, 2)
    while not state.is_over:
        state = donate_round(state)
    v = view(state, 0)
    assert [p.objective for p in v.players] == [p.objective for p in state.players]
