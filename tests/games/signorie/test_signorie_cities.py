"""The city slots (two rows of four slots numbered 1 to 4, shared by brides and diplomats)
against every example of the rulebook that places a meeple in a city."""

from __future__ import annotations

from signorie_helpers import T, ask, game, track

from tavola.games.signorie import engine
from tavola.games.signorie.actions import Marry, Mission, Reward, Wedding
from tavola.games.signorie.tables import FEMALE, MALE

YELLOW, RED, PURPLE, BLUE = 0, 1, 2, 3
TOP = len(T.career_vp) - 1  # the 13 slot
NINE = T.career_vp.index(9)


def in_play(s, name: str) -> int:
    c = T.city_names.index(name)
    if c not in s.cities:
        s.cities = sorted([*s.cities, c])
    return c


def marry(s, seat: int, name: str) -> int:
    """A Marriage in the city at its lowest dowry, through the engine; the slot's value."""
    s.avail[seat][FEMALE] += 1
    s.florins[seat] += 4
    ask(s, ["marriage", seat])
    low = engine._lowest_empty(s, T.city_names.index(name))
    engine.apply_in_place(s, Marry(seat, name, low))
    return placed(s)


def mission(s, seat: int, name: str, slot: int = TOP) -> int:
    """A Diplomatic Mission into the city from a career slot, through the engine; the slot's
    value."""
    s.career[seat][track("political")][slot] += 1
    ask(s, ["mission", seat])
    engine.apply_in_place(s, Mission(seat, "political", slot, name))
    return placed(s)


def placed(s) -> int:
    """The value of the city slot of the last Marriage or Diplomatic Mission."""
    return next(e.data["value"] for e in reversed(s.log) if e.kind in ("marriage", "mission"))


def milano_before_the_examples():
    """Milano after five meeples, brides and diplomats of every player, one after another."""
    s = game()
    milano = in_play(s, "Milano")
    s.city_tiles[milano] = [-1, -1]
    values = [marry(s, YELLOW, "Milano"), mission(s, PURPLE, "Milano"),
              marry(s, BLUE, "Milano"), marry(s, PURPLE, "Milano"),
              mission(s, YELLOW, "Milano")]
    return s, milano, values


def test_brides_and_diplomats_share_the_slots_lowest_first():
    s, milano, values = milano_before_the_examples()
    assert values == [1, 1, 2, 2, 3]
    assert [sex for _, sex in s.city_meeples[milano]] == [FEMALE, MALE, FEMALE, FEMALE, MALE]


def test_rulebook_milano_mission_example_one_empty_3_and_two_empty_4s():
    """Red must place on the 3 with a meeple of rank 3 or more; from the 13 slot she scores 13."""
    s, milano, _ = milano_before_the_examples()
    assert T.city_slots[milano][len(s.city_meeples[milano]):] == (3, 4, 4)
    s.career[RED][track("military")][T.career_rank.index(2)] = 1  # rank 2: not enough
    s.career[RED][track("military")][TOP] = 1
    ask(s, ["mission", RED])
    froms = {(a.track, a.slot) for a in engine.legal_actions(s, RED) if a.city == "Milano"}
    assert froms == {("military", TOP)}
    vp = s.vp[RED]
    engine.apply_in_place(s, Mission(RED, "military", TOP, "Milano"))
    assert s.vp[RED] == vp + 13 and placed(s) == 3


def test_rulebook_milano_mission_example_two_empty_4s():
    """After Red's mission two 4s are left: Blue needs rank 4; from the 9 slot he scores 9."""
    s, milano, _ = milano_before_the_examples()
    assert mission(s, RED, "Milano") == 3
    assert T.city_slots[milano][len(s.city_meeples[milano]):] == (4, 4)
    s.career[BLUE][track("clerical")][T.career_rank.index(3)] = 1  # rank 3: not enough
    s.career[BLUE][track("political")][NINE] = 1
    assert T.career_rank[NINE] == 4
    ask(s, ["mission", BLUE])
    froms = {(a.track, a.slot) for a in engine.legal_actions(s, BLUE) if a.city == "Milano"}
    assert froms == {("political", NINE)}
    vp = s.vp[BLUE]
    engine.apply_in_place(s, Mission(BLUE, "political", NINE, "Milano"))
    assert s.vp[BLUE] == vp + 9 and placed(s) == 4


def test_rulebook_firenze_marriage_example_lowest_empty_slot_valued_1():
    """The lowest empty slot in Firenze is valued 1 (empty, or one bride in): a dowry of 1 to 4;
    4 florins score 8."""
    for before in (0, 1):
        s = game()
        firenze = in_play(s, "Firenze")
        for _ in range(before):
            marry(s, YELLOW, "Firenze")
        assert engine._lowest_empty(s, firenze) == 1
        s.florins[RED] = 6
        ask(s, ["marriage", RED])
        assert {a.dowry for a in engine.legal_actions(s, RED) if a.city == "Firenze"} == {
            1, 2, 3, 4}
        vp = s.vp[RED]
        engine.apply_in_place(s, Marry(RED, "Firenze", 4))
        assert s.vp[RED] == vp + 8 and s.florins[RED] == 2


def test_rulebook_round_1_mission_bonus_example_a_new_career_meeple_is_enough():
    """Round 1, the bonus "1 Mission": Blue performs it and Yellow takes 3 florins, both wed.
    A meeple just placed on a career track (rank 1) may go to any city in play, to a 1."""
    s = game()
    assert s.round == 1
    s.career[BLUE][track("military")][0] = 1
    s.career[YELLOW][track("military")][0] = 1  # could take the Mission too
    s.rewards[0] = 0  # the bonus tile "1 Mission"
    for seat in range(s.n):
        s.taken[seat] = [5, 0, 0, 0, 0] if seat in (BLUE, YELLOW) else [30, 0, 0, 0, 0]
    s.phase, s.stack, s.queue, s.passed = engine.ACTIONS, [], [], [True] * s.n
    engine.settle(s)
    for seat in [p for p in s.order if p in (BLUE, YELLOW)]:
        engine.apply_in_place(s, Reward(seat, "bonus" if seat == BLUE else "florins"))
        if seat == BLUE:
            cities = {a.city for a in engine.legal_actions(s, BLUE)}
            assert cities == {T.city_names[c] for c in s.cities}
            engine.apply_in_place(s, Mission(BLUE, "military", 0, T.city_names[s.cities[0]]))
            assert placed(s) == 1
        engine.apply_in_place(s, Wedding(seat, True))
    assert s.brides[BLUE] == s.brides[YELLOW] == 2


def test_a_two_player_game_has_the_slots_of_three_cities():
    s = game(2)
    assert len(s.cities) == 3
    assert sum(len(T.city_slots[c]) for c in s.cities) == 3 * 8
