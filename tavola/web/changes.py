"""What changed between two views of one seat: the message that turns the one into the other.

A client that asked for changes (`"changes": true` in its hello) gets one full view, then for
each change a `change` message. A change of an object says which keys take a new value
(`set`), which are gone (`drop`) and which are changed inside (`edit`, a change of their
own); a change of a list keeps its first `keep` items (those numbered in `edit` changed
inside) and puts `add` after them. A move adds a line or two to a log of hundreds and changes
a score or a piece or two, so a change is a small fraction of the view. Both views are the
same seat's, so a change holds nothing that seat's new view does not.
"""

from __future__ import annotations

from typing import Any

import orjson

Change = dict[str, Any]


def change(old: Any, new: Any) -> Change:
    """The change from `old` to `new` (objects, or lists): `applied(old, change)` equals
    `new`."""
    if isinstance(old, dict) and isinstance(new, dict):
        return _object_change(old, new)
    if isinstance(old, list) and isinstance(new, list):
        return _list_change(old, new)
    raise TypeError("a change is between two objects or two lists")


def _object_change(old: dict[str, Any], new: dict[str, Any]) -> Change:
    out: Change = {}
    put: dict[str, Any] = {}
    edit: dict[str, Any] = {}
    added = 0  # keys that `old` lacks
    for k, v in new.items():
        was = old.get(k, _NONE)
        if was is v:
            continue
        if was is _NONE:
            put[k] = v
            added += 1
        elif was != v:
            inside = _inside(was, v)
            if inside is None:
                put[k] = v
            else:
                edit[k] = inside
    if put:
        out["set"] = put
    if len(old) > len(new) - added:  # some of its keys are gone
        out["drop"] = [k for k in old if k not in new]
    if edit:
        out["edit"] = edit
    return out


def _list_change(old: list[Any], new: list[Any]) -> Change:
    size = len(old)
    if len(new) >= size and new[:size] == old:  # in C: a log that only grew
        return {"keep": size, "add": new[size:]} if len(new) > size else {"keep": size}
    keep, edit = 0, {}
    for a, b in zip(old, new, strict=False):
        if a is not b and a != b:
            inside = _inside(a, b)
            if inside is None:
                break
            edit[str(keep)] = inside
        keep += 1
    out: Change = {"keep": keep}
    if len(new) > keep:
        out["add"] = new[keep:]
    if edit:
        out["edit"] = edit
    return out


def _inside(old: Any, new: Any) -> Change | None:
    """The change inside a value, if both are objects or both lists and it is shorter than
    the new value itself; else None (the value is sent whole)."""
    kind = type(new)
    if kind is dict and type(old) is dict:
        inside = _object_change(old, new)
        if "drop" not in inside and len(new) - len(inside.get("set", ())) \
                - len(inside.get("edit", ())) >= _SURELY_SHORTER_OBJECT:
            return inside  # enough keys left as they were: surely shorter (below)
    elif kind is list and type(old) is list:
        inside = _list_change(old, new)
        if "edit" not in inside and inside["keep"] >= _SURELY_SHORTER:
            return inside  # items kept and added: surely shorter than the list (below)
    elif (isinstance(old, dict) and isinstance(new, dict)) \
            or (isinstance(old, list) and isinstance(new, list)):
        inside = change(old, new)
    else:
        return None
    return inside if len(_text(inside)) < len(_text(new)) else None


_NONE = object()  # no value under a key
#: A change that keeps a list's first `keep` items and adds the rest is shorter than the new
#: list once it keeps this many: written whole, each kept item takes at least two characters
#: (itself and a comma), `keep` times, while the change writes the number `keep` and its
#: keys, '{"keep":' ',"add":' '}', 16 characters more than the items added (or 10 and no
#: items added); this saves encoding a long log each move only to measure it.
_SURELY_SHORTER = 10
#: Likewise a change of an object that drops no key, once this many of its keys are left as
#: they were: each such key takes at least five characters of the object ('"":0,' at the
#: least), which the change leaves out, while its own keys and brackets ('{"set":{}',
#: ',"edit":{}}') and a comma for each key it sets come to at most 17 characters more than
#: the object's brackets and commas (each key it edits saves one: its change is shorter).
_SURELY_SHORTER_OBJECT = 4


def _text(value: Any) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)


def applied(old: Any, change: Change) -> Any:
    """`old` after `change`, as a new value (`old` stays as it was), as the page does it; a
    change that does not fit `old` raises ValueError."""
    if isinstance(old, dict):
        new = {k: v for k, v in old.items() if k not in change.get("drop", ())}
        new.update(change.get("set", {}))
        for k, inside in change.get("edit", {}).items():
            if k not in old:
                raise ValueError(f"a change edits {k!r}, which the view does not have")
            new[k] = applied(old[k], inside)
        return new
    if isinstance(old, list) and isinstance(change.get("keep"), int):
        keep = change["keep"]
        if keep > len(old):
            raise ValueError(f"a change keeps {keep} items of {len(old)}")
        items = old[:keep]
        for i, inside in change.get("edit", {}).items():
            items[int(i)] = applied(items[int(i)], inside)
        return items + change.get("add", [])
    raise ValueError("a change that does not fit the view")
