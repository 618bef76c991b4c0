"""What a player can do: plan, place a fief, arrange a Wedding, or donate to the church.

Actions are small immutable values naming the acting player, so they can be logged, compared,
sent over a wire and replayed. Hexes are written `(column, row)` as in the board file.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tabletop.game import IllegalAction as PlatformIllegalAction

Hex = tuple[int, int]

#: Card ids. Region cards are the region ids plus INACTIVE; action cards below.
INACTIVE = "inactive"
HARBORS, CITIES, ALLIANCE, PRIVILEGE = "harbors", "cities", "alliance", "privilege"
#: The cards that say *how* a fief is placed, in turn order (the King's Privilege comes first).
ACTION_CARDS = (HARBORS, CITIES, ALLIANCE)
ACTION_ORDER = {HARBORS: 0, CITIES: 1, ALLIANCE: 2}
#: The printed names of the cards that are not region cards (region cards bear their region's
#: name, from the board).
CARD_NAMES = {INACTIVE: "Inactive Regions", HARBORS: "Harbors", CITIES: "Cities",
              ALLIANCE: "Alliance", PRIVILEGE: "King's Privilege"}


@dataclass(frozen=True, slots=True)
class Plan:
    """Phase 2: a region card and an action card, optionally with the King's Privilege."""

    player: int
    region: str
    action: str
    privilege: bool = False

    def cards(self) -> tuple[str, ...]:
        return (self.region, self.action, PRIVILEGE) if self.privilege else (self.region,
                                                                             self.action)

    def describe(self) -> str:
        kp = "King's Privilege + " if self.privilege else ""
        return f"{self.region.title()} / {kp}{self.action.title()}"


@dataclass(frozen=True, slots=True)
class PlaceFief:
    """Phase 4: lay this round's fief with its anchor hex and rotation (sixths clockwise)."""

    player: int
    fief: int
    anchor: Hex
    rotation: int

    def describe(self) -> str:
        return f"fief {self.fief} at {self.anchor[0]},{self.anchor[1]} rotation {self.rotation}"


@dataclass(frozen=True, slots=True)
class Wedding:
    """Phase 4 with the Alliance card: one ring in the planned region, maybe a second beside it."""

    player: int
    first: Hex
    second: Hex | None = None

    def describe(self) -> str:
        tail = f" and {self.second[0]},{self.second[1]}" if self.second else ""
        return f"wedding: ring at {self.first[0]},{self.first[1]}{tail}"


@dataclass(frozen=True, slots=True)
class Donate:
    """Phase 4: give this round's fief to the church for 3 points (always allowed)."""

    player: int

    def describe(self) -> str:
        return "donation to the church"


Action = Plan | PlaceFief | Wedding | Donate


class IllegalAction(PlatformIllegalAction):
    """An action the rules forbid; the state is left unchanged.

    `rule` is a short id of the rule broken, for programs and tests (docs/rules.md lists them);
    `message` is a plain sentence for players, in the game's words only."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(rule, message)
        self.args = (f"{message} [{rule}]",)


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
