"""Phase 2: taking dice, the three actions, helpers, and the rulebook's examples."""

from __future__ import annotations

import pytest
from signorie_helpers import T, ask, col, facts, game, tile_of, track, turn

from tavola.game import IllegalAction
from tavola.games.signorie import engine
from tavola.games.signorie.actions import (
    Activate,
    Advance,
    ChooseAction,
    FaceDown,
    Hire,
    Marry,
    Mission,
    Pass,
    TakeDie,
)
from tavola.games.signorie.game import GAME
from tavola.games.signorie.tables import FEMALE, MALE, SEXES

YELLOW, RED = 0, 1  # seats, by board colour


def refused(s, action, rule):
    """The rules refuse `action` and change nothing; the game names the rule it breaks."""
    before = s.clone()
    with pytest.raises(IllegalAction) as err:
        engine.apply_in_place(s, action)
    assert (facts(s) == facts(before) or _same(s, before)) and err.value.rule == "not possible"
    with pytest.raises(IllegalAction) as err:
        GAME.apply_in_place(s, action)
    assert err.value.rule == rule, err.value
    assert facts(s) == facts(before) or _same(s, before)


def _same(a, b) -> bool:
    keys = set(facts(a)) - {"rng"}
    same_rng = a.rng.getstate() == b.rng.getstate()
    return all(getattr(a, k) == getattr(b, k) for k in keys) and same_rng


def put_tile(s, slot, name):
    """Lay the named assignment tile on `slot` (swapping it with the tile there)."""
    tile = T.tile_name.index(name)
    other = s.assignment.index(tile)
    s.assignment[other] = s.assignment[slot]
    s.assignment[slot] = tile


def take(s, seat, colour, value):
    s.dice[col(colour)] = sorted([*s.dice[col(colour)], value])
    engine.settle(s)
    engine.apply_in_place(s, TakeDie(seat, colour, value))


# -- taking a die -------------------------------------------------------------------------------


def test_rulebook_turquoise_die_of_1_on_cost_5_pays_4():
    s = game()
    turn(s, RED)
    s.florins[RED] = 10
    take(s, RED, "turquoise", 1)
    assert s.florins[RED] == 6
    assert s.taken[RED][col("turquoise")] == 1


def test_die_above_the_cost_is_free_and_florins_must_suffice():
    s = game()
    turn(s, RED)
    s.florins[RED] = 0
    s.dice[col("turquoise")] = [1, 6]
    engine.settle(s)
    legal = engine.legal_actions(s, RED)
    assert TakeDie(RED, "turquoise", 6) in legal and TakeDie(RED, "turquoise", 1) not in legal
    refused(s, TakeDie(RED, "turquoise", 1), "florins")


def test_one_die_per_colour_and_at_most_four():
    s = game()
    turn(s, RED)
    s.florins[RED] = 30
    s.taken[RED][col("yellow")] = 3
    s.dice[col("yellow")] = [2]
    engine.settle(s)
    refused(s, TakeDie(RED, "yellow", 2), "one die per colour")
    s.taken[RED] = [3, 3, 3, 3, 0]
    engine.settle(s)
    assert s.passed[RED], "a player with 4 dice must pass"
    assert s.log[-1].kind == "pass" and s.log[-1].data["forced"]


def test_only_a_die_whose_action_can_be_performed_completely():
    s = game()
    turn(s, RED)
    s.florins[RED] = 20
    s.avail[RED] = [0, 0]  # no meeples: no assignment, no mission, no marriage
    s.helpers[RED] = [True] * 12  # no helper slot left
    s.init_pos[RED] = T.top_initiative
    engine.settle(s)
    colours = {a.colour for a in engine.legal_actions(s, RED) if isinstance(a, TakeDie)}
    assert colours == {"yellow", "violet"}  # Florins and Offspring can always be performed
    refused(s, TakeDie(RED, "grey", s.dice[col("grey")][0]), "perform completely")


def test_a_player_who_cannot_take_a_die_passes():
    s = game()
    s.florins[RED] = 0
    s.dice = [[] for _ in T.colours]
    turn(s, RED)
    passes = [e for e in s.log if e.kind == "pass" and e.seat == RED]
    assert passes and passes[0].data["forced"]


def test_passing_ends_the_players_phase():
    s = game()
    turn(s, RED)
    engine.apply_in_place(s, Pass(RED))
    assert s.passed[RED] and s.to_move() != (RED,)


def test_wrong_player_or_step_is_refused():
    s = game()
    turn(s, RED)
    refused(s, Pass(YELLOW), "turn order")
    refused(s, ChooseAction(RED, "signoria"), "sequence")


# -- the three actions ---------------------------------------------------------------------------


def test_signoria_florins_gives_three():
    s = game()
    turn(s, RED)
    take(s, RED, "yellow", 6)
    before = s.florins[RED]
    engine.apply_in_place(s, ChooseAction(RED, "signoria"))
    assert s.florins[RED] == before + 3


def test_hire_a_helper_red_die_hires_into_a_yellow_slot_middle_costs_3():
    s = game()
    turn(s, RED)
    s.florins[RED] = 10
    take(s, RED, "red", 6)
    hires = [a.helper for a in engine.legal_actions(s, RED) if a.kind == "helper"]
    assert hires and all(T.helper_column[h] == col("yellow") for h in hires)
    middle = T.column_helpers[col("yellow")][1]
    engine.apply_in_place(s, ChooseAction(RED, "helper", helper=middle))
    assert s.helpers[RED][middle] and s.florins[RED] == 7


def test_helpers_act_after_the_action_optional_once_each_in_printed_order():
    s = game()
    turn(s, RED)
    first, _, third = T.column_helpers[col("yellow")]
    s.helpers[RED][first] = s.helpers[RED][third] = True
    take(s, RED, "yellow", 6)
    engine.apply_in_place(s, ChooseAction(RED, "signoria"))
    assert engine.legal_actions(s, RED) == [Activate(RED, first, True), Activate(RED, first, False)]
    engine.apply_in_place(s, Activate(RED, first, False))
    assert engine.legal_actions(s, RED)[0] == Activate(RED, third, True)
    engine.apply_in_place(s, Activate(RED, third, True))  # advance up to its points
    points = T.helper_effect[third][1]
    for _ in range(points):
        assert isinstance(engine.legal_actions(s, RED)[0], Advance)
        engine.apply_in_place(s, Advance(RED, "initiative"))
    assert s.to_move() != (RED,), "each helper acts at most once"


def test_assignment_sex_follows_the_slot_and_meeples_go_to_the_general_stock():
    s = game()
    turn(s, RED)
    c = col("yellow")
    put_tile(s, T.colour_assignment_slots[c][0], "Treasury")
    take(s, RED, "yellow", 6)
    options = [a for a in engine.legal_actions(s, RED) if a.kind == "assignment"]
    males = {(a.sex, a.meeples) for a in options if a.sex == "male"}
    assert males == {("male", k) for k in (1, 2, 3)}
    florins = s.florins[RED]
    engine.apply_in_place(s, ChooseAction(RED, "assignment", "male", 2))
    assert s.avail[RED][MALE] == 2 and s.stock[RED][MALE] == 10
    assert s.florins[RED] == florins + 4


def test_rulebook_violet_male_assignment_three_meeples_six_initiative_steps():
    s = game()
    turn(s, RED)
    put_tile(s, T.colour_assignment_slots[col("violet")][0], "Initiative")  # the male slot
    take(s, RED, "violet", 6)
    engine.apply_in_place(s, ChooseAction(RED, "assignment", "male", 3))
    assert s.init_pos[RED] == 6


def test_threshold_assignment_meeples_wait_on_the_threshold_space():
    s = game()
    turn(s, RED)
    put_tile(s, T.colour_assignment_slots[col("grey")][1], "Threshold")  # the female slot
    s.florins[RED] = 10
    take(s, RED, "grey", 6)
    engine.apply_in_place(s, ChooseAction(RED, "assignment", "female", 3))
    assert s.threshold[RED] == [0, 3] and s.stock[RED][FEMALE] == 8
    assert engine.threshold_of(s, RED) == 22


def test_one_meeple_assignment_takes_exactly_one():
    s = game()
    turn(s, RED)
    put_tile(s, T.colour_assignment_slots[col("yellow")][0], "Hidden alliance")
    take(s, RED, "yellow", 6)
    refused(s, ChooseAction(RED, "assignment", "male", 2), "assignment meeples")
    engine.apply_in_place(s, ChooseAction(RED, "assignment", "male", 1))
    engine.apply_in_place(s, FaceDown(RED, "military"))
    assert s.down[RED][2] == 1 and len(s.down_tiles[RED][2]) == 1


# -- Tracks and initiative -----------------------------------------------------------------------


def test_rulebook_red_uses_four_advancement_points():
    s = game()
    s.career[RED][track("political")][0] = 1
    ask(s, ["advance", RED, 4, 0, 0])
    engine.apply_in_place(s, Advance(RED, "initiative"))
    engine.apply_in_place(s, Advance(RED, "up", "political", 0))
    engine.apply_in_place(s, Advance(RED, "up", "political", 1))
    engine.apply_in_place(s, Advance(RED, "new", "military"))
    assert s.init_pos[RED] == 1
    assert s.career[RED][track("political")][2] == 1
    assert s.career[RED][track("military")][0] == 1 and s.avail[RED][MALE] == 3
    assert s.to_move() != (RED,) or s.stack[-1][0] != "advance"


def test_tracks_must_use_at_least_one_point_then_may_stop():
    s = game()
    ask(s, ["advance", RED, 4, 0, 0])
    assert Advance(RED, "stop") not in engine.legal_actions(s, RED)
    refused(s, Advance(RED, "stop"), "advancement")
    engine.apply_in_place(s, Advance(RED, "initiative"))
    engine.apply_in_place(s, Advance(RED, "stop"))
    assert s.init_pos[RED] == 1 and not (s.stack and s.stack[-1][0] == "advance")


def test_fourth_slot_pays_two_florins_sixth_slot_one_initiative_step():
    s = game()
    s.career[RED][track("clerical")][2] = 1
    florins = s.florins[RED]
    ask(s, ["advance", RED, 3, 0, 0])
    engine.apply_in_place(s, Advance(RED, "up", "clerical", 2))
    assert s.florins[RED] == florins + 2
    engine.apply_in_place(s, Advance(RED, "up", "clerical", 3))
    engine.apply_in_place(s, Advance(RED, "up", "clerical", 4))
    assert s.init_pos[RED] == 1


def test_initiative_stacking_and_new_turn_order():
    s = game()
    order = s.order[:]
    a, b = order[2], order[3]
    s.init_pos[a] = 2
    ask(s, ["advance", b, 2, 0, 0])
    engine.apply_in_place(s, Advance(b, "initiative"))
    engine.apply_in_place(s, Advance(b, "initiative"))
    assert s.init_pos[b] == s.init_pos[a] == 2 and s.init_stamp[b] > s.init_stamp[a]
    from signorie_helpers import end_of_actions

    end_of_actions(s)
    assert s.order[:2] == [b, a] and s.order[2:] == [order[0], order[1]]
    assert all(p == 0 for p in s.init_pos)
    assert [s.init_stamp[x] for x in s.order] == sorted(s.init_stamp, reverse=True)


def test_initiative_stops_at_the_top():
    s = game()
    s.init_pos[RED] = T.top_initiative - 1
    engine._initiative(s, RED, 5)
    assert s.init_pos[RED] == T.top_initiative


# -- Diplomatic Mission -------------------------------------------------------------------------


def _fill(s, name, k):
    s.city_meeples[city_index(s, name)] = [(YELLOW, FEMALE)] * k


def city_index(s, name):
    c = T.city_names.index(name)
    if c not in s.cities:
        s.cities = sorted([*s.cities, c])
    return c


def leaving(name, empty):
    """How many meeples a city holds when exactly the slots valued `empty` are left."""
    slots = T.city_slots[T.city_names.index(name)]
    k = len(slots) - len(empty)
    assert k >= 0 and slots[k:] == empty, f"{name} {slots} cannot leave {empty} empty"
    return k


def test_rulebook_milano_mission_slot_3_needs_rank_3_meeple_from_13_scores_13():
    s = game()
    _fill(s, "Milano", leaving("Milano", (3, 4, 4)))  # empty: one 3, two 4s
    milano = city_index(s, "Milano")
    assert engine._lowest_empty(s, milano) == 3
    military = track("military")
    s.career[RED][military][7] = 1  # the 13 slot
    s.career[RED][track("clerical")][3] = 1  # rank 2: not enough for Milano
    needed = T.houses[T.plan_shields[RED][2][0]]
    s.city_tiles[milano][1] = tile_of(s, needed)
    ask(s, ["mission", RED])
    legal = engine.legal_actions(s, RED)
    assert Mission(RED, "clerical", 3, "Milano") not in legal
    refused(s, Mission(RED, "clerical", 3, "Milano"), "mission rank")
    vp = s.vp[RED]
    engine.apply_in_place(s, Mission(RED, "military", 7, "Milano"))
    assert s.vp[RED] == vp + 13
    assert len(s.rows[RED][2]) == 1 and s.city_tiles[milano][1] == -1
    assert s.city_meeples[milano][-1] == (RED, MALE) and s.career[RED][military][7] == 0


def test_rulebook_milano_mission_on_a_4_slot_from_the_9_slot_without_tile():
    s = game()
    _fill(s, "Milano", leaving("Milano", (4, 4)))
    milano = city_index(s, "Milano")
    s.city_tiles[milano][1] = -1
    s.career[RED][track("political")][5] = 1  # the 9 slot, rank 4
    ask(s, ["mission", RED])
    vp = s.vp[RED]
    engine.apply_in_place(s, Mission(RED, "political", 5, "Milano"))
    assert s.vp[RED] == vp + 9 and s.rows[RED][0] == []


def test_mission_tile_stays_when_the_plan_does_not_need_it():
    s = game()
    rome = city_index(s, "Roma")
    row = T.plan[RED][0]
    unneeded = next(T.houses[h] for h in range(6) if row[h] == 0)
    tile = tile_of(s, unneeded)
    s.city_tiles[rome][1] = tile
    s.career[RED][track("political")][0] = 1
    ask(s, ["mission", RED])
    engine.apply_in_place(s, Mission(RED, "political", 0, "Roma"))
    assert s.city_tiles[rome][1] == tile and s.rows[RED][0] == []


def test_plan_allows_only_the_exact_number_of_a_house():
    s = game()
    doubled = T.plan_shields[RED][2][0]  # twice on the military row
    s.rows[RED][2] = [tile_of(s, T.houses[doubled]), tile_of(s, T.houses[doubled])]
    assert not engine.plan_needs(s, RED, 2, tile_of(s, T.houses[doubled]))
    single = T.plan_shields[RED][2][2]
    assert engine.plan_needs(s, RED, 2, tile_of(s, T.houses[single]))


def test_full_city_takes_no_more_meeples():
    s = game()
    milano = city_index(s, "Milano")
    _fill(s, "Milano", len(T.city_slots[milano]))
    s.career[RED][track("political")][7] = 1
    ask(s, ["mission", RED])
    assert all(a.city != "Milano" for a in engine.legal_actions(s, RED))


# -- Marriage ------------------------------------------------------------------------------------


def test_rulebook_firenze_marriage_paying_4_scores_8_tile_already_held():
    s = game()
    firenze = city_index(s, "Firenze")
    s.city_meeples[firenze] = []
    house = T.houses[0]
    s.rows[RED][3] = [tile_of(s, house)]
    s.city_tiles[firenze][0] = kept = tile_of(s, house)
    s.florins[RED] = 6
    ask(s, ["marriage", RED])
    dowries = {a.dowry for a in engine.legal_actions(s, RED) if a.city == "Firenze"}
    assert dowries == {1, 2, 3, 4}
    vp = s.vp[RED]
    engine.apply_in_place(s, Marry(RED, "Firenze", 4))
    assert s.vp[RED] == vp + 8 and s.florins[RED] == 2
    assert s.city_tiles[firenze][0] == kept and len(s.rows[RED][3]) == 1


def test_marriage_takes_a_needed_tile_and_dowry_bounds():
    s = game()
    roma = city_index(s, "Roma")
    _fill(s, "Roma", leaving("Roma", (3, 3, 4, 4)))
    s.city_tiles[roma][0] = tile = tile_of(s, T.houses[2])
    s.florins[RED] = 3
    ask(s, ["marriage", RED])
    assert {a.dowry for a in engine.legal_actions(s, RED) if a.city == "Roma"} == {3}
    refused(s, Marry(RED, "Roma", 2), "dowry")
    engine.apply_in_place(s, Marry(RED, "Roma", 3))
    assert s.rows[RED][3] == [tile] and s.avail[RED][FEMALE] == 2 and s.florins[RED] == 0


# -- Offspring, face-down tiles, effects ---------------------------------------------------------


def test_offspring_one_die_per_married_man_daughters_on_1_to_3():
    s = game()
    s.brides[RED] = 3
    s.stock[RED] = [8, 0]  # no daughters left in the General Stock
    engine._offspring(s, RED, s.brides[RED])
    rolls = s.chance[-1][2]
    sons = sum(1 for r in rolls if r >= 4)
    assert len(rolls) == 3
    assert s.avail[RED] == [4 + sons, 3] and s.stock[RED] == [8 - sons, 0]


@pytest.mark.parametrize(("kind", "amount", "check"), [
    ("florins", 2, lambda s: s.florins[RED] == 7 + 2),
    ("vp", 3, lambda s: s.vp[RED] == 3 and s.events[-1][2] == "helpers"),
    ("initiative", 2, lambda s: s.init_pos[RED] == 2),
    ("advance", 2, lambda s: s.stack[-1] == ["advance", RED, 2, 0, 0]),
    ("mission", 0, lambda s: s.stack[-1] == ["mission", RED]),
    ("marriage", 0, lambda s: s.stack[-1] == ["marriage", RED]),
    ("face_down_tile", 0, lambda s: s.stack[-1] == ["face_down", RED]),
    ("helper", 0, lambda s: s.stack[-1] == ["hire", RED]),
    ("offspring", 2, lambda s: len(s.chance[-1][2]) == 2),
    ("vp_per", 2, lambda s: s.vp[RED] == 2 * 1),  # 1 married man: the head
])
def test_each_effect_kind(kind, amount, check):
    s = game()
    s.florins[RED] = 7
    s.stack = []
    engine._resolve(s, RED, (kind, amount, "married_man" if kind == "vp_per" else ""), 1,
                    "helpers")
    assert check(s)


# -- a repeated assignment: once per meeple spent --------------------------------------------------


def tutors_turn(s, sex="female", colour="grey"):
    """RED's turn with the Tutors tile (1 advancement point, `..3`) on the `sex` slot of
    `colour`, a die of that colour taken."""
    turn(s, RED)
    c = col(colour)
    slot = next(i for i in T.colour_assignment_slots[c]
                if T.assignment_slots[i][1] == SEXES.index(sex))
    put_tile(s, slot, "Tutors")
    s.florins[RED] = 10
    take(s, RED, colour, 6)


def asked_advance(s) -> bool:
    return bool(s.stack) and s.stack[-1][0] == "advance" and s.to_move() == (RED,)


@pytest.mark.parametrize("k", [1, 2, 3])
def test_tutors_with_k_meeples_spends_k_points_each_one_a_point(k):
    """Rulebook, Performing an Assignment action: the bonus `a number of times equal to the
    meeples spent`; each time is one point that must move something, so no stop."""
    s = game()
    tutors_turn(s)
    engine.apply_in_place(s, ChooseAction(RED, "assignment", "female", k))
    for point in range(k):
        assert asked_advance(s), f"point {point + 1} of {k} is asked"
        assert Advance(RED, "stop") not in engine.legal_actions(s, RED)
        engine.apply_in_place(s, Advance(RED, "initiative"))
    assert s.init_pos[RED] == k
    assert not asked_advance(s), "no point beyond the meeples spent"


def test_tutors_refuses_a_stop_before_every_meeple_has_its_point():
    s = game()
    tutors_turn(s)
    engine.apply_in_place(s, ChooseAction(RED, "assignment", "female", 3))
    engine.apply_in_place(s, Advance(RED, "initiative"))
    refused(s, Advance(RED, "stop"), "advancement")


def _few_points(s, points: int) -> None:
    """RED can spend exactly `points` advancement points: no male in the supply, the disc at
    the top, one meeple `points` slots below the top of the political track."""
    top = len(T.career_vp) - 1
    s.avail[RED][MALE] = 0
    s.init_pos[RED] = T.top_initiative
    s.career[RED][track("political")][top - points] = 1


@pytest.mark.parametrize("points", [1, 2])
def test_tutors_offers_only_as_many_meeples_as_points_can_be_spent(points):
    """Taking a Die: `can only choose an action that he is actually able to perform
    completely`: k meeples only when k points can be spent one after another."""
    s = game()
    _few_points(s, points)
    tutors_turn(s)
    offered = {a.meeples for a in engine.legal_actions(s, RED) if a.kind == "assignment"
               and a.sex == "female"}
    assert offered == set(range(1, points + 1))
    refused(s, ChooseAction(RED, "assignment", "female", points + 1), "perform completely")
    engine.apply_in_place(s, ChooseAction(RED, "assignment", "female", points))
    for _ in range(points):
        slot = next(i for i, n in enumerate(s.career[RED][track("political")]) if n)
        engine.apply_in_place(s, Advance(RED, "up", "political", slot))
    assert s.career[RED][track("political")][-1] == 1


def test_a_male_tutors_tile_counts_the_males_it_spends():
    """The meeples leave the supply before the bonus: males spent cannot enter a track."""
    s = game()
    s.init_pos[RED] = T.top_initiative
    s.avail[RED][MALE] = 3
    tutors_turn(s, "male")
    offered = {a.meeples for a in engine.legal_actions(s, RED) if a.kind == "assignment"
               and a.sex == "male"}
    assert offered == {1, 2}, "3 males spent leave nothing to move"


def test_a_point_that_would_strand_the_points_owed_is_refused():
    """With a career bonus of initiative on the 7th slot, a meeple climbing there takes the
    disc's last step: while points are owed, only moves after which they can all be spent."""
    from dataclasses import replace

    s = game()
    bonus = list(T.career_bonus)
    bonus[6] = ("initiative", 1, "")
    s.t = replace(T, career_bonus=tuple(bonus))
    s.avail[RED][MALE] = 0
    s.init_pos[RED] = T.top_initiative - 1
    s.career[RED][track("political")][5] = 1  # 2 points to the top, 1 for the disc: 3
    tutors_turn(s)
    engine.apply_in_place(s, ChooseAction(RED, "assignment", "female", 3))
    assert engine.legal_actions(s, RED) == [Advance(RED, "initiative")]
    refused(s, Advance(RED, "up", "political", 5), "advancement")
    engine.apply_in_place(s, Advance(RED, "initiative"))
    engine.apply_in_place(s, Advance(RED, "up", "political", 5))
    engine.apply_in_place(s, Advance(RED, "up", "political", 6))
    assert s.career[RED][track("political")][7] == 1 and not asked_advance(s)


GAINS = {  # what each `..3` tile without a question gives RED, by what it changes
    "Treasury": lambda s: s.florins[RED],
    "Patronage": lambda s: s.vp[RED],
    "Initiative": lambda s: s.init_pos[RED],
    "Threshold": lambda s: engine.threshold_of(s, RED),
}


@pytest.mark.parametrize("k", [1, 2, 3])
@pytest.mark.parametrize("name", sorted(GAINS))
def test_every_other_repeated_tile_is_performed_once_per_meeple(name, k):
    tile = T.tile_name.index(name)
    assert T.tile_repeat[tile] and T.tile_effect[tile][0] != "advance"
    s = game()
    turn(s, RED)
    put_tile(s, T.colour_assignment_slots[col("grey")][1], name)
    s.florins[RED] = 10
    take(s, RED, "grey", 6)
    before = GAINS[name](s)
    engine.apply_in_place(s, ChooseAction(RED, "assignment", "female", k))
    assert GAINS[name](s) - before == k * T.tile_effect[tile][1]


def test_tutors_is_the_only_repeated_tile_that_asks_a_question():
    """Every other `..3` tile is a sum with no choice; a repeated tile with a question would
    need the per-execution frames Tutors has."""
    asking = {T.tile_name[i] for i, eff in enumerate(T.tile_effect)
              if T.tile_repeat[i] and eff[0] not in ("florins", "vp", "initiative", "threshold",
                                                      "offspring")}
    assert asking == {"Tutors"}
    assert set(GAINS) | {"Tutors"} == {T.tile_name[i] for i in range(len(T.tile_effect))
                                       if T.tile_repeat[i]}


# -- a free helper ------------------------------------------------------------------------------


def test_a_free_helper_in_the_dies_column_first_acts_on_a_later_turn():
    """Hiring a Helper: it `has no immediate effect, but will change the resolution of future
    actions`; a free helper (here the Steward assignment) hired into the column of the die
    that hired it does not act for that die, and acts for the next die of the column."""
    s = game()
    red = col("red")
    florins_helper, later_helper = T.column_helpers[red][:2]
    assert T.helper_effect[florins_helper][0] == "florins"
    put_tile(s, T.colour_assignment_slots[red][0], "Steward")
    turn(s, RED)
    take(s, RED, "red", 6)
    engine.apply_in_place(s, ChooseAction(RED, "assignment", "male", 1))
    engine.apply_in_place(s, Hire(RED, florins_helper))
    assert s.helpers[RED][florins_helper]
    assert not any(isinstance(a, Activate) for a in engine.legal_actions(s, RED))
    assert s.to_move() != (RED,) or s.stack[-1][0] == "turn"
    s.taken[RED] = [0] * len(T.colours)  # a later turn, another red die
    turn(s, RED)
    take(s, RED, "red", 6)
    engine.apply_in_place(s, ChooseAction(RED, "assignment", "male", 1))
    engine.apply_in_place(s, Hire(RED, later_helper))
    assert engine.legal_actions(s, RED) == [Activate(RED, florins_helper, True),
                                            Activate(RED, florins_helper, False)]
    engine.apply_in_place(s, Activate(RED, florins_helper, True))
    assert not any(isinstance(a, Activate) for a in engine.legal_actions(s, RED)), \
        "the helper hired by this die waits for the next one"


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "has no immediate effect: it first acts for a later die"),
    ("de", "wirkt nicht sofort: er wirkt erst bei einem späteren Würfel"),
    ("it", "non ha effetto immediato: agisce per la prima volta con un dado successivo"),
])
def test_the_rules_page_says_a_helper_hired_now_first_acts_for_a_later_die(lang, words):
    from tavola.web.rules import document

    assert words in document("signorie", lang)
