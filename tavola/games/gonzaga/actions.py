"""What a player can do: plan, place a fief, arrange a Wedding, or donate to the church.

Actions are small immutable values naming the acting player, so they can be logged, compared,
sent over a wire and replayed. Hexes are written `(column, row)` as in the board file.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from tavola.game import IllegalAction as PlatformIllegalAction

Hex = tuple[int, int]

#: Card ids. Region cards are the region ids plus INACTIVE; action cards below.
INACTIVE = "inactive"
HARBORS, CITIES, ALLIANCE, PRIVILEGE = "harbors", "cities", "alliance", "privilege"
#: The cards that say *how* a fief is placed, in turn order (the King's Privilege comes first).
ACTION_CARDS = (HARBORS, CITIES, ALLIANCE)
ACTION_ORDER = {HARBORS: 0, CITIES: 1, ALLIANCE: 2}
#: What each action card lets a fief cover, as the allowed (cities, harbors) counts (rulebook
#: "Plan your move", NOTES 1): the one statement of these limits; checks, bots, screens and
#: their wording all derive from it.
ACTION_COVERAGE: dict[str, frozenset[tuple[int, int]]] = {
    HARBORS: frozenset({(0, 1), (0, 2)}),
    CITIES: frozenset({(0, 0), (1, 0), (2, 0), (3, 0)}),
    ALLIANCE: frozenset({(1, 1), (2, 1), (1, 2)}),
}
#: The action card whose alternative is a Wedding.
WEDDING_CARD = ALLIANCE


class Value:
    """An immutable value of numbers and words (an action, a journal entry, a piece): a
    copy of it, deep or not, is itself, as for a tuple of them, and so it is whether it runs
    as Python or compiled (`tavola compile`: a compiled frozen class cannot be rebuilt field
    by field).

    Each value writes its own `__init__`, setting its fields as `dataclasses` would: the one
    `dataclasses` writes runs as Python even where the class is compiled, and making these
    values was a tenth of a compiled random game. `tests/games/gonzaga/test_values.py`
    holds each to its fields."""

    __slots__ = ()

    def __copy__(self) -> Value:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Value:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its class and its fields, rebuilt by the class itself (bot workers are
        other processes)."""
        return type(self), tuple(getattr(self, f.name) for f in fields(self))  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class Plan(Value):
    """Phase 2: a region card and an action card, optionally with the King's Privilege."""

    player: int
    region: str
    action: str
    privilege: bool = False

    def __init__(self, player: int, region: str, action: str, privilege: bool = False) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "region", region)
        object.__setattr__(self, "action", action)
        object.__setattr__(self, "privilege", privilege)

    def cards(self) -> tuple[str, ...]:
        return (self.region, self.action, PRIVILEGE) if self.privilege else (self.region,
                                                                             self.action)


@dataclass(frozen=True, slots=True)
class PlaceFief(Value):
    """Phase 4: lay this round's fief with its anchor hex and rotation (sixths clockwise)."""

    player: int
    fief: int
    anchor: Hex
    rotation: int

    def __init__(self, player: int, fief: int, anchor: Hex, rotation: int) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "fief", fief)
        object.__setattr__(self, "anchor", anchor)
        object.__setattr__(self, "rotation", rotation)


@dataclass(frozen=True, slots=True)
class Wedding(Value):
    """Phase 4 with the Alliance card: one ring in the planned region, maybe a second beside it."""

    player: int
    first: Hex
    second: Hex | None = None

    def __init__(self, player: int, first: Hex, second: Hex | None = None) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "first", first)
        object.__setattr__(self, "second", second)


@dataclass(frozen=True, slots=True)
class Donate(Value):
    """Phase 4: give this round's fief to the church for 3 points (always allowed)."""

    player: int

    def __init__(self, player: int) -> None:
        object.__setattr__(self, "player", player)


Action = Plan | PlaceFief | Wedding | Donate


class IllegalAction(PlatformIllegalAction):
    """An action the rules forbid; the state is left unchanged.

    `rule` is a short id of the rule broken, for programs and tests (docs/rules.md lists them).
    The rules speak no language: `key` names the sentence that explains the refusal and
    `fields` hold its facts as data (names, card ids, hexes, counts), which `text.refusal`
    words. `message` is that sentence once the game has worded it (`Gonzaga.apply` does, for
    the platform), the key until then. It is the platform's `tavola.game.IllegalAction`, so
    the platform catches one class for every game."""

    def __init__(self, rule: str, key: str, fields: Mapping[str, Any] | None = None,
                 message: str | None = None) -> None:
        super().__init__(rule, message or key)
        self.key = key
        self.fields: dict[str, Any] = dict(fields or {})
        self.args = (f"{self.message} [{rule}]",)

    def __str__(self) -> str:
        return f"{self.message} [{self.rule}]"


def action_to_json(action: Action) -> dict[str, Any]:
    if isinstance(action, Plan):
        return {"type": "plan", "player": action.player, "region": action.region,
                "action": action.action, "privilege": action.privilege}
    if isinstance(action, PlaceFief):
        return {"type": "fief", "player": action.player, "fief": action.fief,
                "anchor": list(action.anchor), "rotation": action.rotation}
    if isinstance(action, Wedding):
        return {"type": "wedding", "player": action.player, "first": list(action.first),
                "second": list(action.second) if action.second else None}
    if isinstance(action, Donate):
        return {"type": "donate", "player": action.player}
    raise TypeError(f"not an action: {action!r}")


def _hex(value: Any, what: str) -> Hex:
    if (not isinstance(value, list | tuple) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise ValueError(f"{what} must be [column, row] integers, found {value!r}")
    return int(value[0]), int(value[1])


def _int(data: dict[str, Any], key: str) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{key!r} must be an integer, found {value!r}")
    return value


def _str(data: dict[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise ValueError(f"{key!r} must be a string, found {value!r}")
    return value


def action_from_json(data: Any) -> Action:
    """Parse an action; a malformed one raises ValueError naming the problem."""
    if not isinstance(data, dict):
        raise ValueError(f"an action must be a JSON object, found {type(data).__name__}")
    kind = data.get("type")
    player = _int(data, "player")
    if kind == "plan":
        privilege = data.get("privilege", False)
        if not isinstance(privilege, bool):
            raise ValueError(f"'privilege' must be true or false, found {privilege!r}")
        return Plan(player, _str(data, "region"), _str(data, "action"), privilege)
    if kind == "fief":
        return PlaceFief(player, _int(data, "fief"), _hex(data.get("anchor"), "anchor"),
                         _int(data, "rotation"))
    if kind == "wedding":
        second = data.get("second")
        return Wedding(player, _hex(data.get("first"), "first"),
                       None if second is None else _hex(second, "second"))
    if kind == "donate":
        return Donate(player)
    raise ValueError(f"unknown action type {kind!r} (expected plan, fief, wedding or donate)")
