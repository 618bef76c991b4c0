"""Signorie's tutorial: the first three turns of a fixed two-player deal against the greedy bot.

Turn 1 takes a cheap die and performs an assignment whose reward is a free helper; turn 2 takes
a free die to hire a helper; turn 3 sends three meeples on an assignment for points. Then pages
to read say how points are made (careers and ranks, missions and city slots, marriages and
brides, the plan's rows, the threshold and the reward), before the first round ends; then the
learner plays on, or leaves. The deal (`SEED`) fixes the dice and the bot's replies;
`tests/web/test_learn_server.py` plays the script through the rules and fails if it no longer
fits. The words are the text layer's (`tutorial.*`), whole sentences with named fields, made
when shown so each learner reads them in their language; names and costs come from the game's
tables.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from tavola.tutorial import Page, Step, Tutorial

from . import text
from .actions import Hire
from .game import GAME
from .tables import tables

SEED = 3
FREE_HELPER = 9  # the helper the first assignment hires for free


def say(key: str, fields: Callable[[], dict[str, Any]] | None = None) -> Callable[[], str]:
    """The words `tutorial.KEY` of the text layer, made when shown: in the learner's language,
    with `fields` (names of cards, colours...) looked up in it too."""
    return lambda: text.say(f"tutorial.{key}", **(fields() if fields else {}))


def _die(colour: str, value: int) -> dict[str, Any]:
    t = tables()
    price = t.cost[t.colours.index(colour)]
    return {"colour": text.colour_title(colour), "value": value, "price": price,
            "cost": max(0, price - value)}


def _take(colour: str, value: int, key: str, then: str) -> Step:
    def names() -> dict[str, Any]:
        return _die(colour, value)

    return Step(expect={"type": "take_die", "colour": colour, "value": value},
                title=say(f"{key}.title", names), say=say(f"{key}.say", names),
                refuse=say("die.refuse", names),
                highlight=(f"#dice button[data-die='{colour}-{value}']", f"[data-choice='{then}']",
                           "#confirm"))


def _choose(expect: dict[str, Any], key: str, refuse: str, choice: str) -> Step:
    return Step(expect={"type": "choose", **expect}, title=say(f"{key}.title"),
                say=say(f"{key}.say"), refuse=say(f"{refuse}.refuse"),
                highlight=(f"[data-choice='{choice}']", "#confirm"), joined=True)


def _hire_option(state: Any) -> tuple[str, ...]:
    """The page lists the open choices in the order of the view's legal moves."""
    legal = list(GAME.view(state, 0).legal)
    wanted = Hire(0, FREE_HELPER)
    index = legal.index(wanted) if wanted in legal else 0
    return (f"#actions [data-option='{index}']", "#confirm")


def _numbers(values: tuple[int, ...]) -> str:
    """Values as the page writes them: 0, 0, 1, 2, 3."""
    return ", ".join(map(str, values))


def _scoring_facts() -> dict[str, Any]:
    """The numbers the scoring pages name, from the game's tables."""
    t = tables()
    tracks = next(c for c, e in enumerate(t.signoria) if e[0] == "advance")
    return {"tracks": text.signoria_name(t, tracks), "low": min(t.career_vp),
            "high": max(t.career_vp), "rank": max(t.career_rank),
            "slots": _numbers(tuple(sorted({v for c in t.city_slots for v in c}))),
            "dowry": t.dowry_max, "per_florin": t.vp_per_dowry, "brides": _numbers(t.bride_vp),
            "min": t.row_min, "threshold": t.threshold_base, "florins": t.reward_florins,
            "initiative": _numbers(t.initiative_vp)}


def _page(key: str, *look: str) -> Page:
    return Page(title=say(f"{key}.title"), say=say(f"{key}.say", _scoring_facts), look=look)


MINE = ".player.mine"
#: how points are made, read once the last die is used, before the first round ends
SCORING = (
    _page("careers", "#tracks-area"),
    _page("missions", "#cities-area"),
    _page("marriages", "#cities-area", f"{MINE} .brides"),
    _page("plan", f"{MINE} .plan"),
    _page("threshold", f"{MINE} .threshold", "#rewards-area"),
)

TUTORIAL = Tutorial(
    game="signorie", seed=SEED, names=(say("you"), say("bot")), bot="greedy",
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
        replace(_choose({"kind": "assignment", "sex": "male", "meeples": 3}, "points", "points",
                        "assignment-male-3"), pages=SCORING),
    ))
