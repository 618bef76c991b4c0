"""Signorie's tutorial: the first three turns of a fixed two-player deal against the greedy bot.

Turn 1 takes a cheap die and performs an assignment whose reward is a free helper; turn 2 takes
a free die to hire a helper; turn 3 sends three meeples on an assignment for points. Then the
learner plays on, or leaves. The deal (`SEED`) fixes the dice and the bot's replies;
`tests/web/test_learn_server.py` plays the script through the rules and fails if it no longer
fits. The words are here, whole sentences with named fields; names and costs come from the
game's tables.
"""

from __future__ import annotations

from typing import Any

from tabletop.tutorial import Step, Tutorial

from .actions import Hire
from .game import GAME
from .tables import tables
from .text import colour_title

SEED = 3
FREE_HELPER = 9  # the helper the first assignment hires for free

MESSAGES: dict[str, str] = {
    "intro": "Welcome to Signorie! You lead a family against one bot. On your turn you take a "
             "die and use it for one action of its colour. Follow the glowing outline.",
    "waiting": "The bot is taking its turn. Watch the dice board and the log.",
    "done": "You have taken dice, paid for them, sent meeples on assignments and hired "
            "helpers: the heart of Signorie. Play on to the rewards at the round's end, or go "
            "back to the lobby and start a game of your own.",
    "die.title": "Take the {colour} {value}",
    "die.say": "A die costs its colour's price ({price}) minus its value, so the {colour} {value} "
               "costs {cost} florins. Pick it, then the male assignment with 1 meeple, then "
               "Confirm: the assignment sends a son to work and hires a helper for free.",
    "die.refuse": "In this lesson, take the {colour} {value} and use it as shown. You will "
                  "choose freely once the lesson is over.",
    "assign.title": "Send one son on the assignment",
    "assign.say": "Choose the male assignment with 1 meeple and confirm.",
    "assign.refuse": "In this lesson, use the die for the male assignment with 1 meeple.",
    "hire.title": "Hire your free helper",
    "hire.say": "The assignment's reward is a free helper. Choose the one outlined and confirm: "
                "helpers act again each time you later take a die of their column.",
    "hire.refuse": "In this lesson, hire the helper outlined.",
    "helper-die.title": "Take the {colour} {value} to hire a helper",
    "helper-die.say": "This die is free: its value is at least its colour's price. Pick it, "
                      "then hire the helper outlined, then Confirm.",
    "helper.title": "Hire the helper",
    "helper.say": "Choose the helper outlined and confirm: you pay its cost in florins.",
    "helper.refuse": "In this lesson, hire the helper outlined.",
    "points-die.title": "Take the {colour} {value} for points",
    "points-die.say": "Pick the die, then its male assignment with 3 meeples, then Confirm: "
                      "each meeple sent earns the reward again.",
    "points.title": "Send three sons on the assignment",
    "points.say": "Choose the male assignment with 3 meeples and confirm.",
    "points.refuse": "In this lesson, use the die for the male assignment with 3 meeples.",
}


def say(key: str, **fields: Any) -> str:
    return MESSAGES[key].format(**fields)


def _die(colour: str, value: int) -> dict[str, Any]:
    t = tables()
    price = t.cost[t.colours.index(colour)]
    return {"colour": colour_title(colour), "value": value, "price": price,
            "cost": max(0, price - value)}


def _take(colour: str, value: int, key: str, then: str) -> Step:
    names = _die(colour, value)
    return Step(expect={"type": "take_die", "colour": colour, "value": value},
                title=say(f"{key}.title", **names), say=say(f"{key}.say", **names),
                refuse=say("die.refuse", **names),
                highlight=(f"#dice button[data-die='{colour}-{value}']", f"[data-choice='{then}']",
                           "#confirm"))


def _choose(expect: dict[str, Any], key: str, refuse: str, choice: str) -> Step:
    return Step(expect={"type": "choose", **expect}, title=say(f"{key}.title"),
                say=say(f"{key}.say"), refuse=say(f"{refuse}.refuse"),
                highlight=(f"[data-choice='{choice}']", "#confirm"))


def _hire_option(state: Any) -> tuple[str, ...]:
    """The page lists the open choices in the order of the view's legal moves."""
    legal = list(GAME.view(state, 0).legal)
    wanted = Hire(0, FREE_HELPER)
    index = legal.index(wanted) if wanted in legal else 0
    return (f"#actions [data-option='{index}']", "#confirm")


TUTORIAL = Tutorial(
    game="signorie", seed=SEED, names=("You", "Greedy bot"), bot="greedy",
    intro=say("intro"), waiting=say("waiting"), done=say("done"),
    steps=(
        _take("turquoise", 1, "die", "assignment-male-1"),
        _choose({"kind": "assignment", "sex": "male", "meeples": 1}, "assign", "assign",
                "assignment-male-1"),
        Step(expect={"type": "hire", "helper": FREE_HELPER}, title=say("hire.title"),
             say=say("hire.say"), refuse=say("hire.refuse"), highlight=_hire_option),
        _take("grey", 4, "helper-die", "helper-5"),
        _choose({"kind": "helper", "helper": 5}, "helper", "helper", "helper-5"),
        _take("red", 4, "points-die", "assignment-male-3"),
        _choose({"kind": "assignment", "sex": "male", "meeples": 3}, "points", "points",
                "assignment-male-3"),
    ))
