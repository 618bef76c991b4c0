"""Gonzaga's tutorial: two rounds of a fixed two-player deal against the greedy bot.

Round 1 plans Italia with the Cities card and places the fief on cities; round 2 (Italia and
Cities rest after being played) plans Francia with the Harbors card and places on harbors.
Then the learner plays on, or leaves. The deal (`SEED`) is chosen so both plans score;
`tests/web/test_learn_server.py` plays the script through the rules and fails if it no
longer fits. The words are here, whole sentences with named fields, the names of cards and
regions from the text layer and the board.
"""

from __future__ import annotations

from tabletop.tutorial import Step, Tutorial

from .actions import CITIES, HARBORS
from .board import load_board
from .text import action_limits, card_name, join

SEED = 2
LEARN_REGION_1, LEARN_ACTION_1 = "italia", CITIES
LEARN_REGION_2, LEARN_ACTION_2 = "francia", HARBORS

MESSAGES: dict[str, str] = {
    "intro": "Welcome to Gonzaga! You play Red against one bot. Each round you plan in secret "
             "where your fief goes and how, then everyone places in turn. Follow the glowing "
             "outline.",
    "waiting": "The bot is thinking. Watch the map and the log: its plan and its fief appear "
               "when it has played.",
    "done": "That is the heart of Gonzaga: plan, then place. Play on against the bot to the "
            "end, or go back to the lobby and start a game of your own.",
    "plan.title": "Plan {region} with the {action} card",
    "plan.say": "Choose the {region} region card, then the {action} card, then press Plan. "
                "With {action} your fief may cover {limits}. Cities score points, and the "
                "number under each card shows the best you could score with it now.",
    "plan.refuse": "In this lesson, plan the {region} region card with the {action} card. "
                   "You will choose freely once the lesson is over.",
    "place.title": "Place your fief",
    "place.say": "Click the first of the best placements (it shows the fief on the map), then "
                 "press Place fief. A fief scores every city and harbor it covers; you may "
                 "also turn it with the ⟲ ⟳ buttons and click the map to try other spots.",
    "place.refuse": "In this lesson, place your fief on the map: donating it to the church or "
                    "a Wedding can wait for a game of your own.",
    "plan2.say": "The cards you played last round rest this round, so {resting} are greyed "
                 "out. Choose {region}, then the {action} card, then press Plan. With {action} "
                 "your fief may cover {limits}: harbors score, and three of one sea make a "
                 "sea league.",
}


def say(key: str, **fields: str) -> str:
    return MESSAGES[key].format(**fields)


def _plan_step(region: str, action: str, key: str, resting: str = "") -> Step:
    names = {"region": load_board().regions[region].name,
             "action": card_name(None, action), "limits": action_limits(action),
             "resting": resting}
    return Step(expect={"type": "plan", "region": region, "action": action},
                title=say("plan.title", **names), say=say(key, **names),
                refuse=say("plan.refuse", **names),
                highlight=(f"#region-cards [data-card='{region}']",
                           f"#action-cards [data-card='{action}']", "#plan-go"))


def _place_step() -> Step:
    return Step(expect={"type": "fief"}, title=say("place.title"), say=say("place.say"),
                refuse=say("place.refuse"), highlight=("#best li:first-child a", "#confirm"))


def _tutorial() -> Tutorial:
    board = load_board()
    rested = join([board.regions[LEARN_REGION_1].name, card_name(None, LEARN_ACTION_1)])
    return Tutorial(
        game="gonzaga", seed=SEED, names=("You", "Greedy bot"), bot="greedy",
        options={"scenario": None, "variants": []},
        intro=say("intro"), waiting=say("waiting"), done=say("done"),
        steps=(_plan_step(LEARN_REGION_1, LEARN_ACTION_1, "plan.say"), _place_step(),
               _plan_step(LEARN_REGION_2, LEARN_ACTION_2, "plan2.say", rested),
               _place_step()))


TUTORIAL = _tutorial()
