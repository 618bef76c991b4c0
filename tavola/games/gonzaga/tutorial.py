"""Gonzaga's tutorial: two rounds of a fixed two-player deal against the greedy bot.

Round 1 plans Italia with the Cities card and places the fief on cities; round 2 (Italia and
Cities rest after being played) plans Francia with the Harbors card and places on harbors.
Then the learner plays on, or leaves. The deal (`SEED`) is chosen so both plans score;
`tests/web/test_learn_server.py` plays the script through the rules and fails if it no
longer fits. The words are the text layer's (`tutorial.*`), whole sentences with named
fields, made when shown so each learner reads them in their language.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tavola.tutorial import Step, Tutorial

from . import text
from .actions import CITIES, HARBORS
from .board import load_board

SEED = 2
LEARN_REGION_1, LEARN_ACTION_1 = "italia", CITIES
LEARN_REGION_2, LEARN_ACTION_2 = "francia", HARBORS


def say(key: str, fields: Callable[[], dict[str, Any]] | None = None) -> Callable[[], str]:
    """The words `tutorial.KEY` of the text layer, made when shown: in the learner's language,
    with `fields` (names of cards, colours...) looked up in it too."""
    return lambda: text.say(f"tutorial.{key}", **(fields() if fields else {}))


def _names(region: str, action: str, resting: tuple[str, str] | None) -> dict[str, Any]:
    board = load_board()
    names = {"region": text.word(board.regions[region].name),
             "action": text.card_name(None, action), "limits": text.action_limits(action)}
    if resting:
        names["resting"] = text.join([text.word(board.regions[resting[0]].name),
                                      text.card_name(None, resting[1])])
    return names


def _plan_step(region: str, action: str, key: str,
               resting: tuple[str, str] | None = None) -> Step:
    def names() -> dict[str, Any]:
        return _names(region, action, resting)

    return Step(expect={"type": "plan", "region": region, "action": action},
                title=say("plan.title", names), say=say(key, names),
                refuse=say("plan.refuse", names),
                highlight=(f"#region-cards [data-card='{region}']",
                           f"#action-cards [data-card='{action}']", "#plan-go"))


def _place_step() -> Step:
    return Step(expect={"type": "fief"}, title=say("place.title"), say=say("place.say"),
                refuse=say("place.refuse"), highlight=("#best li:first-child a", "#confirm"))


TUTORIAL = Tutorial(
    game="gonzaga", seed=SEED, names=(say("you"), say("bot")), bot="greedy",
    options={"scenario": None, "variants": []},
    intro=say("intro"), waiting=say("waiting"), done=say("done"),
    steps=(_plan_step(LEARN_REGION_1, LEARN_ACTION_1, "plan.say"), _place_step(),
           _plan_step(LEARN_REGION_2, LEARN_ACTION_2, "plan2.say",
                      (LEARN_REGION_1, LEARN_ACTION_1)),
           _place_step()))
