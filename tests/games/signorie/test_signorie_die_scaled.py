"""Helpers that gain from high dice: the `per_pips` field of an effect, its checks, the engine
and what players read."""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from pathlib import Path

import pytest
from signorie_helpers import T, col, game, turn

from tavola import i18n
from tavola.games.signorie import engine, text
from tavola.games.signorie.actions import Activate, Advance, ChooseAction, TakeDie
from tavola.games.signorie.components import DATA, check_components, json_schema

RAW = json.loads(DATA.read_text(encoding="utf-8"))
RED = 1
YELLOW_HELPERS = T.column_helpers[col("yellow")]


def helper_index(column: str, order: int) -> int:
    return next(i for i, h in enumerate(RAW["helper_slots"]["value"])
                if h["column"] == column and h["order"] == order)


def problems_of(tmp_path: Path, change) -> list[str]:
    data = copy.deepcopy(RAW)
    change(data)
    path = tmp_path / "components.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return check_components(path)


# -- the field in the component file ----------------------------------------------------------


def _helper_effect(data, column="grey", order=2) -> dict:
    return data["helper_slots"]["value"][helper_index(column, order)]["effect"]["value"]


def test_the_shipped_file_scales_helpers_with_the_die_and_says_where_the_idea_comes_from():
    scaled = [h for h in RAW["helper_slots"]["value"] if h["effect"]["value"].get("per_pips")]
    assert scaled
    for h in scaled:
        assert h["effect"]["status"] == "provisional"
        assert "spieletreff-karlsfeld.de" in h["effect"]["reason"]


@pytest.mark.parametrize(("per_pips", "words"), [
    (0, "greater than or equal to 1"), (7, "less than or equal to 6"), ("two", "integer")])
def test_a_per_pips_outside_a_die_is_refused_naming_its_place(tmp_path, per_pips, words):
    where = f"helper_slots.value.{helper_index('grey', 2)}.effect.value.per_pips"
    problems = problems_of(tmp_path, lambda d: _helper_effect(d).__setitem__("per_pips",
                                                                            per_pips))
    assert any(p.startswith(where) and words in p for p in problems), problems


def test_per_pips_on_an_effect_without_an_amount_to_scale_is_refused(tmp_path):
    def change(d):
        _helper_effect(d, "grey", 3)["per_pips"] = 2  # the grey mission helper

    problems = problems_of(tmp_path, change)
    assert any("per_pips scales an amount that adds up" in p and "not a mission effect" in p
               for p in problems), problems


@pytest.mark.parametrize(("change", "place"), [
    (lambda d: d["assignment_tiles"][3]["value"]["effect"].__setitem__("per_pips", 2),
     "assignment_tiles[3] (Treasury)"),
    (lambda d: d["bonus_tiles"][6]["value"]["effect"].__setitem__("per_pips", 2),
     "bonus_tiles[6]"),
    (lambda d: d["action_slots"][0]["signoria"]["value"]["effect"].__setitem__("per_pips", 2),
     "action_slots[0].signoria"),
    (lambda d: d["rules"]["career_bonuses"]["value"][0]["effect"].__setitem__("per_pips", 2),
     "rules.career_bonuses[0]"),
])
def test_per_pips_is_for_helpers_only(tmp_path, change, place):
    problems = problems_of(tmp_path, change)
    assert any(place in p and "per_pips is for helpers only" in p
               for p in problems), problems


def test_the_json_schema_describes_per_pips():
    effect = json_schema()["$defs"]["Effect"]["properties"]["per_pips"]
    number = next(x for x in effect["anyOf"] if x.get("type") == "integer")
    assert (number["minimum"], number["maximum"]) == (1, 6)
    assert "pips" in effect["description"]


# -- the engine ---------------------------------------------------------------------------------


def with_helper(s, h: int, effect: tuple[str, int, str], per_pips: int) -> None:
    """The game's tables with helper `h` changed, the helper hired by Red."""
    effects, pips = list(T.helper_effect), list(T.helper_per_pips)
    effects[h], pips[h] = effect, per_pips
    s.t = replace(T, helper_effect=tuple(effects), helper_per_pips=tuple(pips))
    s.helpers[RED][h] = True


def yellow_die(s, value: int) -> None:
    """Red takes a yellow die of `value` and performs its Signoria action (3 florins)."""
    turn(s, RED)
    s.dice[col("yellow")] = sorted([*s.dice[col("yellow")], value])
    engine.settle(s)
    engine.apply_in_place(s, TakeDie(RED, "yellow", value))
    engine.apply_in_place(s, ChooseAction(RED, "signoria"))


@pytest.mark.parametrize(("die", "steps"), [(6, 3), (5, 2), (2, 1)])
def test_initiative_per_2_pips_is_rounded_down(die, steps):
    s = game()
    h = YELLOW_HELPERS[0]
    with_helper(s, h, ("initiative", 1, ""), 2)
    yellow_die(s, die)
    engine.apply_in_place(s, Activate(RED, h, True))
    assert s.init_pos[RED] == steps


@pytest.mark.parametrize(("die", "florins"), [(4, 2), (3, 1)])
def test_florins_per_2_pips(die, florins):
    s = game()
    h = YELLOW_HELPERS[0]
    with_helper(s, h, ("florins", 1, ""), 2)
    yellow_die(s, die)
    before = s.florins[RED]
    engine.apply_in_place(s, Activate(RED, h, True))
    assert s.florins[RED] - before == florins


def test_vp_per_3_pips_score_as_helpers():
    s = game()
    h = YELLOW_HELPERS[0]
    with_helper(s, h, ("vp", 2, ""), 3)
    yellow_die(s, 6)
    engine.apply_in_place(s, Activate(RED, h, True))
    assert s.vp[RED] == 4 and s.events[-1][1:3] == (4, "helpers")


def test_advancement_points_per_pip_are_spent_one_by_one():
    s = game()
    h = YELLOW_HELPERS[0]
    with_helper(s, h, ("advance", 1, ""), 1)
    yellow_die(s, 3)
    engine.apply_in_place(s, Activate(RED, h, True))
    # three points, one question each (as a repeated assignment's: all of them spent)
    assert [f[:3] for f in s.stack[-3:]] == [["advance", RED, 1]] * 3
    for _ in range(3):
        engine.apply_in_place(s, Advance(RED, "initiative"))
    assert s.init_pos[RED] == 3


def test_a_die_too_low_skips_the_helper():
    """A die of 1 gives nothing per 2 pips: the helper is not offered, the next one is."""
    s = game()
    first, _, third = YELLOW_HELPERS
    with_helper(s, first, ("initiative", 1, ""), 2)
    s.helpers[RED][third] = True
    yellow_die(s, 1)
    assert engine.legal_actions(s, RED) == [Activate(RED, third, True),
                                            Activate(RED, third, False)]


@pytest.mark.parametrize("die", [1, 6])
def test_a_helper_without_per_pips_ignores_the_die(die):
    s = game()
    h = YELLOW_HELPERS[0]
    with_helper(s, h, ("initiative", 2, ""), 0)
    yellow_die(s, die)
    engine.apply_in_place(s, Activate(RED, h, True))
    assert s.init_pos[RED] == 2


def test_the_bots_value_a_higher_die_more():
    from tavola.games.signorie.bots.values import PLANNER, Ctx, action_value

    values = []
    for die in (2, 6):
        s = game()
        h = YELLOW_HELPERS[0]
        with_helper(s, h, ("florins", 1, ""), 2)
        yellow_die(s, die)
        values.append(action_value(Ctx(s, RED, PLANNER, memo=False), Activate(RED, h, True)))
    assert values[1] == pytest.approx(3 * values[0]) and values[0] > 0


# -- what players read --------------------------------------------------------------------------


def test_the_helper_says_it_scales_with_the_die_in_every_language():
    h = next(i for i, per in enumerate(T.helper_per_pips) if per == 2)
    effect = text.effect_text(T.helper_effect[h])
    assert text.helper_effect_text(T, h) == f"{effect} per 2 pips of the die"
    assert "per 2 pips of the die" in text.helper_text(T, h)
    with i18n.use("de"):
        assert "je 2 Augen des Würfels" in text.helper_text(T, h)
    with i18n.use("it"):
        assert "ogni 2 punti del dado" in text.helper_text(T, h)


@pytest.mark.parametrize(("die", "words"), [
    (6, "activate the 1st yellow helper (3 florins with a 6)"),
    (5, "activate the 1st yellow helper (2 florins with a 5)"),
    (2, "activate the 1st yellow helper (1 florin with a 2)")])
def test_the_activation_offered_after_a_die_says_what_it_gives_for_that_die(die, words):
    """Not "per 2 pips of the die": the die is on the board, so the amount is known."""
    s = game()
    h = YELLOW_HELPERS[0]
    with_helper(s, h, ("florins", 1, ""), 2)
    yellow_die(s, die)
    offered = [text.option_text(s, a) for a in engine.legal_actions(s, RED)]
    assert offered[0] == words
    assert text.choice_text(s, Activate(RED, h, True)) == "A" + words[1:]
    with i18n.use("de"):
        assert f"bei einer {die})" in text.option_text(s, Activate(RED, h, True))
    with i18n.use("it"):
        assert f"con un {die})" in text.option_text(s, Activate(RED, h, True))
