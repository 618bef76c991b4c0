"""Each game's view schema (`GameKit.view_schema`) types its messages down to their nested
parts: real messages of a game meet it, and the same messages with one nested field of the
wrong type, or one field too many, do not."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from tavola import registry
from tavola.testing import game_names
from tavola.web import leaving, timing
from tavola.web.room import PERSON, GameParams, Room, Seat

NAMES = ["Ann", "Bea", "Cem"]
Message = dict[str, Any]


def schema(game: str) -> type[BaseModel]:
    part = registry.kit(game).view_schema
    assert part is not None
    found: type[BaseModel] = part.load()
    return found


def new_room(game: str, seed: int) -> Room:
    """A 3-player game of people, as the server holds it."""
    site = registry.kit(game).site.load()()  # type: ignore[union-attr]
    setup = site.game.setup_of(site.deal(NAMES, seed, {}))
    return Room("schemas", GameParams([Seat(PERSON, n) for n in NAMES], seed, {}, setup=setup,
                                      game=game), site)


def messages_until(game: str, wanted: Callable[[Message], bool], seed: int = 3) -> Message:
    """Play a 3-player game from what the browser is sent until a seat's message (as sent:
    JSON text) is `wanted`; that message."""
    room = new_room(game, seed)
    site, rng = room.site, random.Random(seed)
    for _ in range(2000):
        for seat in (None, 0, 1, 2):
            message = json.loads(room.message_text(seat))
            if wanted(message):
                return message
        seat = rng.choice(list(room.state.to_move()))
        action, new = room.prepare(seat, site.bench_reply(room.message_for(seat), rng))
        room.commit(action, new)
    raise AssertionError(f"no {game} message wanted in 2000 moves")


def changed(message: Message, path: tuple[Any, ...], value: Any) -> Message:
    """The message with the field at `path` set to `value` (a new key where there was none)."""
    out = copy.deepcopy(message)
    where = out
    for step in path[:-1]:
        where = where[step]
    where[path[-1]] = value
    return out


def resolved(message: Message, path: tuple[Any, ...]) -> tuple[Any, ...]:
    """`path` with each step that is a function replaced by what it finds in the part so far
    (`first("turn")`: the index of the log's first turn)."""
    steps, where = [], message
    for step in path:
        step = step(where) if callable(step) else step
        steps.append(step)
        where = where[step] if isinstance(where, list) or step in where else {}
    return tuple(steps)


def first(kind: str, field: str = "kind") -> Callable[[list[Message]], int]:
    return lambda entries: next(i for i, e in enumerate(entries) if e.get(field) == kind)


GONZAGA_WRONG = [  # (what, path, wrong value)
    ("a seat's score in words", ("players", 0, "score"), "7"),
    ("a seat's connection as a number", ("players", 1, "connected"), 1),
    ("a seat's field of no one's", ("players", 0, "mood"), "calm"),
    ("a piece's hex of one number", ("pieces", 0, "hexes", 0), [3]),
    ("a piece's owner in words", ("pieces", 0, "owner"), "0"),
    ("the scenario's name as a number", ("scenario", "name"), 3),
    ("a placement's points in words", ("legal", "placements", "points", 0), "4"),
    ("a plan's privilege as a number", ("legal", "plan", "privilege"), 0),
    ("a legal move of an unknown kind", ("legal", "kind"), "teleport"),
    ("a log line's sentence as a number", ("log", 0, "text"), 12),
    ("a logged fief's anchor in words", ("log", first("turn"), "action", "anchor"), ["1", 2]),
    ("a scoring event's points as a fraction", ("log", first("turn"), "events"),
     [{"player": 0, "points": 1.5, "reason": "city", "detail": "", "text": ""}]),
]

SIGNORIE_WRONG = [
    ("a seat's florins in words", ("players", 0, "florins"), "5"),
    ("a seat's supply as a fraction", ("players", 0, "supply", "male"), 1.5),
    ("a seat's hired helper as a number", ("players", 0, "helpers", 0), 0),
    ("a die's value in words", ("dice", 0, "values", 0), "4"),
    ("a city's slot with half a meeple", ("cities", 0, "slots", 0, "meeple"), [0]),
    ("an assignment of a field of no one's", ("assignments", 0, "extra"), True),
    ("a reward of an unknown kind", ("rewards", 0, "kind"), "gold"),
    ("an option's action with the seat in words", ("legal", "options", 0, "action", "seat"),
     "0"),
    ("an option's action of an unknown type", ("legal", "options", 0, "action", "type"),
     "steal"),
    ("a die choice's ok in words", ("legal", "dice", 0, "ok"), "yes"),
    ("a log line of an unknown kind", ("log", 0, "kind"), "gossip"),
    ("a log line's round in words", ("log", 0, "round"), "1"),
]


#: Per game: which message to take (one with the nested parts the wrong values go in), and
#: the wrong values; a game with no cases here is checked by the tests below only.
CASES: dict[str, tuple[Callable[[Message], bool], list[tuple[str, tuple[Any, ...], Any]]]] = {
    "gonzaga": (lambda m: bool(m["legal"]) and m["legal"]["kind"] == "place"
                and m["pieces"] and any(e["kind"] == "turn" for e in m["log"]), GONZAGA_WRONG),
    "signorie": (lambda m: bool(m["legal"]) and m["legal"]["kind"] == "turn"
                 and any(m["legal"]["options"]) and any(d["ok"] for d in m["legal"]["dice"]),
                 SIGNORIE_WRONG),
}
GAMES = game_names("site", "view_schema")


@pytest.mark.parametrize("game", GAMES)
def test_a_message_with_a_nested_field_of_the_wrong_type_fails_the_schema(game: str):
    if game not in CASES:
        pytest.skip(f"no wrong values written for {game}")
    wanted, wrong = CASES[game]
    model = schema(game)
    message = messages_until(game, wanted)
    model.model_validate(message)  # the real message meets it
    passed = []
    for what, path, value in wrong:
        with _refused(passed, what):
            model.model_validate(changed(message, resolved(message, path), value))
    assert passed == [], f"{game}'s schema lets these through: {passed}"


class _refused:
    """Notes `what` when the schema did not refuse the message (instead of stopping at the
    first, so one run names every field the schema lets through)."""

    def __init__(self, passed: list[str], what: str) -> None:
        self.passed, self.what = passed, what

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: Any, exc: Any, tb: Any) -> bool:
        if kind is None:
            self.passed.append(self.what)
            return False
        return issubclass(kind, ValidationError)


@pytest.mark.parametrize("game", GAMES)
def test_a_finished_games_messages_meet_the_schema(game: str):
    """The end: the final table, the winners, every line of the log."""
    model = schema(game)
    message = messages_until(game, lambda m: m["final"] is not None)
    model.model_validate(message)
    with pytest.raises(ValidationError):
        model.model_validate(changed(message, ("final", "winners"), ["0"]))


@pytest.mark.parametrize("game", GAMES)
def test_the_platforms_own_log_lines_meet_every_games_schema(game: str):
    """A turn missed, a seat given to a bot for good, a leaver's choice decided: lines the
    platform puts into any game's log."""
    room = new_room(game, 5)
    lines = [*timing.notice(room, 0, True, 2), leaving.notice(room, 1, "end"),
             leaving.notice(room, 2, "bot")]
    room.notices.extend((0, line) for line in lines)
    room.touch()
    message = json.loads(room.message_text(None))
    assert [e["kind"] for e in message["log"][:4]] == ["timeout", "replaced", "left", "bot-plays"]
    schema(game).model_validate(message)
    with pytest.raises(ValidationError):
        schema(game).model_validate(changed(message, ("log", 0, "seat"), None))
