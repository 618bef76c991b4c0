"""Comparing a game's states and views field by field, whatever the game's own `==` says.

States and views are the games' own objects (dataclasses, classes with slots, numpy arrays,
generators); most do not define `==`, or define it by identity. `difference` walks them and
names the first field that differs, so a failed check says where.
"""

from __future__ import annotations

import enum
import random
from dataclasses import fields, is_dataclass
from typing import Any

import numpy as np

_PLAIN = (str, bytes, int, float, complex, bool, type(None), enum.Enum)


def difference(a: Any, b: Any, path: str = "") -> str | None:
    """Where `a` and `b` first differ (`.players[1].plan`), or None when they are alike."""
    if a is b:
        return None
    if type(a) is not type(b):
        return f"{path or 'the value'}: {type(a).__name__} and {type(b).__name__}"
    if isinstance(a, _PLAIN):
        return None if a == b else f"{path or 'the value'}: {a!r} and {b!r}"
    if isinstance(a, np.ndarray):
        same = a.shape == b.shape and np.array_equal(a, b)
        return None if same else f"{path or 'the array'}: the arrays differ"
    if isinstance(a, random.Random):
        return None if a.getstate() == b.getstate() else f"{path}: generators in other states"
    if isinstance(a, list | tuple):
        return _sequence(a, b, path)
    if isinstance(a, dict):
        return _mapping(a, b, path)
    if isinstance(a, set | frozenset):
        return None if a == b else f"{path or 'the set'}: {sorted(map(repr, a ^ b))[:5]}"
    return _object(a, b, path)


def _sequence(a: list[Any] | tuple[Any, ...], b: list[Any] | tuple[Any, ...],
              path: str) -> str | None:
    if len(a) != len(b):
        return f"{path or 'the sequence'}: {len(a)} and {len(b)} items"
    for i, (x, y) in enumerate(zip(a, b, strict=True)):
        found = difference(x, y, f"{path}[{i}]")
        if found:
            return found
    return None


def _mapping(a: dict[Any, Any], b: dict[Any, Any], path: str) -> str | None:
    if a.keys() != b.keys():
        return f"{path or 'the mapping'}: keys {sorted(map(repr, a.keys() ^ b.keys()))[:5]}"
    for key in a:
        found = difference(a[key], b[key], f"{path}[{key!r}]")
        if found:
            return found
    return None


def _object(a: Any, b: Any, path: str) -> str | None:
    names = _field_names(a)
    if names is None:
        return None if a == b else f"{path or 'the value'}: {a!r} and {b!r}"
    for name in names:
        found = difference(getattr(a, name, None), getattr(b, name, None), f"{path}.{name}")
        if found:
            return found
    return None


def _field_names(obj: Any) -> list[str] | None:
    """The fields of a dataclass, or an object's attributes (slots included); None for a
    value compared by its own `==`."""
    if is_dataclass(obj):
        return [f.name for f in fields(obj)]
    names = list(getattr(obj, "__dict__", {}))
    # a compiled class (`tavola compile`) lists its attributes; it has no `__dict__`
    names += [n for n in getattr(type(obj), "__mypyc_attrs__", ()) if hasattr(obj, n)]
    for cls in type(obj).__mro__:
        slots = cls.__dict__.get("__slots__", ())
        names += [slots] if isinstance(slots, str) else [s for s in slots if s != "__dict__"]
    return names or None
