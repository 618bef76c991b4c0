"""Phase 3 (initiative VP, turn order, rewards, weddings) and the end of the game."""

from __future__ import annotations

import pytest
from signorie_helpers import T, end_of_actions, end_rewards, game, tile_of, track

from tavola.games.signorie import engine
from tavola.games.signorie.actions import BuyVp, Reward, Wedding
from tavola.games.signorie.tables import FEMALE, MALE

YELLOW, RED, PURPLE, BLUE = 0, 1, 2, 3


def rewards_round(s, rnd: int, tile: int, sums: dict[int, int]) -> None:
    """Phase 3 of round `rnd`, the reward tile `tile`, dice summing as given (others 30)."""
    s.round = rnd
    s.rewards[rnd - 1] = tile
    for seat in range(s.n):
        s.taken[seat] = [sums.get(seat, 30), 0, 0, 0, 0]
    end_of_actions(s)


def test_rulebook_initiative_vp_9_4_4_0():
    s = game()
    top = T.initiative_vp.index(9)
    four = T.initiative_vp.index(4)
    s.init_pos = [0, top, four, four]
    rewards_round(s, 1, 0, {})
    gained = {e[0]: e[1] for e in s.events if e[2] == "initiative"}
    assert gained == {RED: 9, PURPLE: 4, BLUE: 4}


def test_only_players_within_the_threshold_get_the_reward():
    s = game()
    rewards_round(s, 1, 6, {YELLOW: 13, RED: 14})  # bonus tile 6: 5 florins
    assert s.to_move() == (YELLOW,)
    assert engine.legal_actions(s, YELLOW) == [Reward(YELLOW, "bonus"), Reward(YELLOW, "florins")]
    assert RED not in s.queue


def test_raised_threshold_and_the_threshold_meeples_go_home():
    s = game()
    s.raised[RED] = 9
    s.threshold[RED] = [3, 0]
    s.avail[RED][MALE] = 1
    rewards_round(s, 1, 6, {RED: 22})
    assert s.to_move() == (RED,)
    engine.apply_in_place(s, Reward(RED, "florins"))
    engine.apply_in_place(s, Wedding(RED, False))
    assert s.round == 2 and s.threshold[RED] == [0, 0] and s.stock[RED][MALE] == 11


def test_rulebook_bonus_one_mission_or_three_florins():
    s = game()
    s.career[BLUE][track("political")][0] = 1
    s.career[YELLOW][track("political")][0] = 1
    rewards_round(s, 1, 0, {BLUE: 5, YELLOW: 6})  # bonus tile 0: 1 Mission
    order = [p for p in s.order if p in (BLUE, YELLOW)]
    florins = dict(enumerate(s.florins))
    for seat in order:
        choice = "bonus" if seat == BLUE else "florins"
        engine.apply_in_place(s, Reward(seat, choice))
        if seat == BLUE:
            assert s.stack[-1][0] == "mission"
            engine.apply_in_place(s, engine.legal_actions(s, BLUE)[0])
        engine.apply_in_place(s, Wedding(seat, True))
    assert s.florins[YELLOW] == florins[YELLOW] + 3
    assert s.brides[BLUE] == s.brides[YELLOW] == 2
    assert any(e[0] == BLUE and e[2] == "missions" for e in s.events)


def test_an_impossible_bonus_leaves_the_florins():
    s = game()
    rewards_round(s, 1, 0, {RED: 5})  # 1 Mission, but no meeple on a career track
    assert s.to_move() == (RED,) and s.stack[-1][0] == "wedding"
    assert any(e.kind == "reward" and e.data["choice"] == "florins" for e in s.log)


@pytest.mark.parametrize(("rnd", "florins"), [(1, 0), (2, 2), (5, 2)])
def test_wedding_top_empty_bride_slot_its_vp_and_florins_in_rounds_2_to_5(rnd, florins):
    s = game()
    s.brides[RED] = 3
    rewards_round(s, rnd, 6, {RED: 5})
    engine.apply_in_place(s, Reward(RED, "florins"))
    before = (s.florins[RED], s.vp[RED])
    engine.apply_in_place(s, Wedding(RED, True))
    assert s.brides[RED] == 4
    assert s.florins[RED] - before[0] == florins
    assert s.vp[RED] - before[1] == T.bride_vp[3]


def test_no_wedding_without_an_empty_bride_slot():
    s = game()
    s.brides[RED] = len(T.bride_vp)
    rewards_round(s, 2, 6, {RED: 5})
    engine.apply_in_place(s, Reward(RED, "florins"))
    assert s.round == 3, "no wedding question once every bride slot is filled"


def test_rounds_6_and_7_score_the_vp_tile_and_may_buy_5_vp():
    s = game()
    s.helpers[RED][:3] = [True, True, True]
    helper_tile = engine.VP_TILE + [e[2] for e in T.vp_tiles].index("helper")
    s.florins[RED] = 6
    rewards_round(s, 6, helper_tile, {RED: 5})
    assert s.vp[RED] == 3 * T.vp_tiles[helper_tile - engine.VP_TILE][1]
    assert engine.legal_actions(s, RED) == [BuyVp(RED, True), BuyVp(RED, False)]
    engine.apply_in_place(s, BuyVp(RED, True))
    assert s.florins[RED] == 1 and s.vp[RED] == 3 + 5


def test_buying_needs_5_florins():
    s = game()
    s.florins[RED] = 4
    rewards_round(s, 6, engine.VP_TILE, {RED: 5})
    assert s.round == 7, "no question without 5 florins"


def test_rulebook_yellow_end_scoring_9_9_4_4_6():
    s = game()
    careers = s.career[YELLOW]
    careers[track("political")][T.career_vp.index(9)] = 1
    careers[track("clerical")][T.career_vp.index(6)] = 1
    careers[track("clerical")][T.career_vp.index(2)] = 1
    careers[track("military")][T.career_vp.index(13)] = 1
    plan = T.plan_shields[YELLOW]
    s.rows[YELLOW][0] = [tile_of(s, T.houses[plan[0][i]], v) for i, v in ((0, 2), (2, 3),
                                                                          (3, 4))]
    s.rows[YELLOW][1] = [tile_of(s, T.houses[plan[1][i]], v) for i, v in ((0, 3), (1, 3),
                                                                          (2, 3))]
    s.rows[YELLOW][2] = [tile_of(s, T.houses[plan[2][0]], 5)]
    s.down[YELLOW][2] = 1
    s.down_tiles[YELLOW][2] = [s.deck.pop()]
    s.rows[YELLOW][3] = [tile_of(s, T.houses[plan[3][0]], 5), tile_of(s, T.houses[plan[3][1]])]
    s.round = 7
    end_rewards(s)
    assert s.is_over
    mine = [(e[1], e[2], e[3]) for e in s.events if e[0] == YELLOW]
    assert sorted(mine) == sorted([(9, "alliances", "political"), (9, "alliances", "clerical"),
                                   (4, "careers", "political"), (4, "careers", "clerical"),
                                   (6, "careers", "military")])


def test_rulebook_red_military_row_two_face_up_one_face_down():
    s = game()
    plan = T.plan_shields[RED][2]  # doubled house twice, then two singles
    s.rows[RED][2] = [tile_of(s, T.houses[plan[0]], 4), tile_of(s, T.houses[plan[1]], 5)]
    s.down[RED][2] = 1
    s.down_tiles[RED][2] = [s.deck.pop()]
    assert not engine.plan_needs(s, RED, 2, tile_of(s, T.houses[plan[0]]))
    assert engine.plan_needs(s, RED, 2, tile_of(s, T.houses[plan[2]]))
    s.round = 7
    end_rewards(s)
    assert (RED, 4 + 5 + 1, "alliances", "military") in s.events


def test_final_tie_is_won_by_the_topmost_disc_of_the_last_turn_order():
    s = game()
    s.round = 7
    end_rewards(s)
    s.vp = [10, 10, 10, 10]
    assert engine.winners(s) == (s.order[0],)
    s.vp[s.order[2]] = 11
    assert engine.winners(s) == (s.order[2],)


def test_the_game_lasts_seven_rounds():
    s = game(2, seed=3)
    from signorie_helpers import play

    play(s)
    rounds = [e.data["round"] for e in s.log if e.kind == "round"]
    assert rounds == list(range(1, 8)) and s.is_over
    assert s.log[-1].kind == "game_over"


def test_female_meeples_never_go_to_the_career_tracks():
    s = game()
    s.avail[RED] = [0, 3]
    from signorie_helpers import ask

    ask(s, ["advance", RED, 1, 0, 0])
    assert all(a.move != "new" for a in engine.legal_actions(s, RED))
    assert s.avail[RED][FEMALE] == 3
