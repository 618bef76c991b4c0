"""What a player decides, one small step at a time.

A turn is `TakeDie` then `ChooseAction`; an action that needs more choices asks for them in
follow-up steps (`Advance` per advancement point, `Mission`, `Marry`, `FaceDown`, `Hire`), and
then each hired helper of the die's column is offered (`Activate`). Phase 3 asks `Reward`,
`Wedding` and `BuyVp`. Actions are frozen, slotted and hashable; the JSON form names every field.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, fields
from typing import Any

from .tables import ROW_NAMES as ROWS
from .tables import SEXES


class Value:
    """An action is a value of numbers and words: a copy of it, deep or not, is itself (as
    for a tuple of them), and so it is whether it runs as Python or compiled (`tavola compile`:
    a compiled frozen class cannot be rebuilt field by field)."""

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
class TakeDie(Value):
    """Take a die of this colour and value from the board (pays the slot's cost minus it)."""

    seat: int
    colour: str
    value: int


@dataclass(frozen=True, slots=True)
class Pass(Value):
    """Take no more dice this round."""

    seat: int


@dataclass(frozen=True, slots=True)
class ChooseAction(Value):
    """The action of the die just placed: `signoria`, `assignment` (the tile on the `sex` slot
    of the die's colour, with `meeples` meeples) or `helper` (hire into helper slot `helper`)."""

    seat: int
    kind: str
    sex: str = ""
    meeples: int = 0
    helper: int = -1


@dataclass(frozen=True, slots=True)
class Advance(Value):
    """One advancement point: `new` meeple on `track`, `up` from `slot` of `track`,
    `initiative`, or `stop` (after at least one point)."""

    seat: int
    move: str
    track: str = ""
    slot: int = -1


@dataclass(frozen=True, slots=True)
class Mission(Value):
    """Send the male meeple on `slot` (0 = bottom) of `track` to `city`."""

    seat: int
    track: str
    slot: int
    city: str


@dataclass(frozen=True, slots=True)
class Marry(Value):
    """Place a female meeple in `city`, paying `dowry` florins."""

    seat: int
    city: str
    dowry: int


@dataclass(frozen=True, slots=True)
class FaceDown(Value):
    """Put the alliance tile drawn face down next to `row` of the plan."""

    seat: int
    row: str


@dataclass(frozen=True, slots=True)
class Hire(Value):
    """A free helper (from a bonus): into helper slot `helper`, of any column."""

    seat: int
    helper: int


@dataclass(frozen=True, slots=True)
class Activate(Value):
    """Use (or not) the hired helper `helper` of the column just used."""

    seat: int
    helper: int
    use: bool


@dataclass(frozen=True, slots=True)
class Reward(Value):
    """Rounds 1-5: `bonus` (the current reward tile) or `florins`."""

    seat: int
    choice: str


@dataclass(frozen=True, slots=True)
class Wedding(Value):
    """Rounds 1-5, with the reward: marry (or not) a son to a bride."""

    seat: int
    accept: bool


@dataclass(frozen=True, slots=True)
class BuyVp(Value):
    """Rounds 6-7, with the reward: pay exactly 5 florins for 5 VP (or not)."""

    seat: int
    accept: bool


Action = (TakeDie | Pass | ChooseAction | Advance | Mission | Marry | FaceDown | Hire | Activate
          | Reward | Wedding | BuyVp)

TYPES: dict[str, type] = {
    "take_die": TakeDie, "pass": Pass, "choose": ChooseAction, "advance": Advance,
    "mission": Mission, "marry": Marry, "face_down": FaceDown, "hire": Hire,
    "activate": Activate, "reward": Reward, "wedding": Wedding, "buy_vp": BuyVp,
}
TYPE_NAMES = {cls: name for name, cls in TYPES.items()}
CHOICES = {
    ("choose", "kind"): ("signoria", "assignment", "helper"),
    ("choose", "sex"): ("", *SEXES),
    ("advance", "move"): ("new", "up", "initiative", "stop"),
    ("reward", "choice"): ("bonus", "florins"),
}


def action_to_json(action: Action) -> dict[str, Any]:
    name = TYPE_NAMES.get(type(action))
    if name is None:
        raise TypeError(f"not a Signorie action: {action!r}")
    out: dict[str, Any] = {"type": name}
    for f in fields(action):
        out[f.name] = getattr(action, f.name)
    return out


def _allowed(name: str, key: str) -> tuple[Any, ...] | None:
    """The words a field may hold whatever the components; names of colours, cities and
    tracks come from the game's component data, so the rules refuse those they lack."""
    if (name, key) in CHOICES:
        return CHOICES[(name, key)]
    return {"row": ROWS}.get(key)


#: The longest name of a colour, city or track an action may carry.
NAME_MAX = 60
#: Bounds of the numbers an action carries, wide enough for any component data (the rules
#: refuse what a game's components have not).
_BOUNDS = {"seat": range(4), "value": range(1, 7), "meeples": range(4), "helper": range(-1, 64),
           "slot": range(-1, 64), "dowry": range(1, 64)}


def _ranges(key: str) -> range | None:
    return _BOUNDS.get(key)


def action_from_json(data: Any) -> Action:
    """The action a JSON object describes; anything malformed raises ValueError naming it."""
    if not isinstance(data, dict):
        raise ValueError(f"an action must be a JSON object, found {type(data).__name__}")
    name = data.get("type")
    cls = TYPES.get(name) if isinstance(name, str) else None
    if cls is None or not isinstance(name, str):
        raise ValueError(f"unknown action type {name!r} (expected one of {', '.join(TYPES)})")
    known = {f.name: f for f in fields(cls)}
    extra = sorted(set(data) - set(known) - {"type"})
    if extra:
        raise ValueError(f"{name}: unexpected field(s) {', '.join(map(str, extra))}")
    values = {}
    for key, f in known.items():
        if key not in data:
            if f.default is MISSING:
                raise ValueError(f"{name}: missing field {key!r}")
            continue
        values[key] = _field(name, key, data[key], f.type)
    return cls(**values)


def _field(name: str, key: str, value: Any, type_name: Any) -> Any:
    kind = getattr(type_name, "__name__", str(type_name))  # a name, or the type itself (compiled)
    if kind == "bool":
        if not isinstance(value, bool):
            raise ValueError(f"{name}.{key} must be true or false, found {value!r}")
        return value
    if kind == "int":
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"{name}.{key} must be an integer, found {value!r}")
        allowed = _ranges(key)
        if allowed is not None and value not in allowed:
            raise ValueError(f"{name}.{key} must be from {allowed.start} to "
                             f"{allowed.stop - 1}, found {value}")
        return value
    if not isinstance(value, str) or len(value) > NAME_MAX:
        raise ValueError(f"{name}.{key} must be a string of at most {NAME_MAX} characters, "
                         f"found {value!r}"[:200])
    options = _allowed(name, key)
    if options is not None and value not in options:
        shown = ", ".join(repr(o) for o in options)
        raise ValueError(f"{name}.{key} must be one of {shown}, found {value!r}")
    return value
