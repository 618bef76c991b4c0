"""Actions, journal entries, pieces and the setup write their own `__init__` (`actions.Value`:
the one `dataclasses` writes runs as Python even where the class is compiled). These tests
hold each hand-written constructor to the class's fields: made from the fields of a value
met in play, by position or by name, it gives the same value, and a field left out takes
its declared default."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

import pytest

from tavola.games.gonzaga import actions, state
from tavola.games.gonzaga.actions import Value
from tavola.games.gonzaga.engine import apply_in_place, legal_actions, new_game
from tavola.games.gonzaga.state import GameState

VALUE_CLASSES = sorted({c for module in (actions, state) for c in vars(module).values()
                        if isinstance(c, type) and issubclass(c, Value) and c is not Value
                        and dataclasses.is_dataclass(c)}, key=lambda c: c.__name__)


def _values(game: GameState) -> Iterator[Value]:
    yield game.setup
    yield from game.pieces
    for entry in game.journal:
        yield entry
        for name in ("events", "plans", "action"):
            found = getattr(entry, name, ())
            yield from found if isinstance(found, tuple) else (found,)


def _met_in_play() -> dict[type, list[Value]]:
    """Values of every kind from seeded random games of 2 to 4 players, with their legal
    actions along the way."""
    met: dict[type, list[Value]] = {}
    for players, seed in ((2, 1), (3, 2), (4, 3)):
        rng = random.Random(seed)
        game = new_game([f"P{i}" for i in range(players)], seed=seed)
        while not game.is_over:
            legal = legal_actions(game, game.to_move()[0])
            for action in list(legal)[:5]:
                met.setdefault(type(action), []).append(action)
            apply_in_place(game, legal[rng.randrange(len(legal))])
        for value in _values(game):
            met.setdefault(type(value), []).append(value)
    return met


MET = _met_in_play()


@pytest.mark.parametrize("cls", VALUE_CLASSES, ids=lambda c: c.__name__)
def test_a_value_is_made_from_its_fields_by_position_and_by_name(cls: type) -> None:
    assert MET.get(cls), f"no {cls.__name__} met in the games played"
    for value in MET[cls][:50]:
        fields = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
        assert cls(*fields.values()) == value == cls(**fields)
        assert [getattr(cls(**fields), name) for name in fields] == list(fields.values())


@pytest.mark.parametrize("cls", VALUE_CLASSES, ids=lambda c: c.__name__)
def test_a_field_left_out_takes_its_declared_default(cls: type) -> None:
    value = MET[cls][0]
    given = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)
             if f.default is dataclasses.MISSING}
    made = cls(**given)
    for f in dataclasses.fields(value):
        if f.default is not dataclasses.MISSING:
            assert getattr(made, f.name) == f.default, f.name


@pytest.mark.parametrize("cls", VALUE_CLASSES, ids=lambda c: c.__name__)
def test_a_value_stays_frozen(cls: type) -> None:
    value = MET[cls][0]
    name = dataclasses.fields(value)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(value, name, getattr(value, name))
