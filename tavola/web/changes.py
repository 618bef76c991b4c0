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
    out: Change = {"set": {}, "drop": [k for k in old if k not in new], "edit": {}}
    for k, v in new.items():
        if k not in old:
            out["set"][k] = v
        elif old[k] is not v and old[k] != v:
            inside = _inside(old[k], v)
            if inside is None:
                out["set"][k] = v
            else:
                out["edit"][k] = inside
    return {k: v for k, v in out.items() if v}


def _list_change(old: list[Any], new: list[Any]) -> Change:
    keep, edit = 0, {}
    for a, b in zip(old, new, strict=False):
        if a is not b and a != b:
            inside = _inside(a, b)
            if inside is None:
                break
            edit[str(keep)] = inside
        keep += 1
    out: Change = {"keep": keep, "add": new[keep:], "edit": edit}
    return {k: v for k, v in out.items() if v or k == "keep"}


def _inside(old: Any, new: Any) -> Change | None:
    """The change inside a value, if both are objects or both lists and it is shorter than
    the new value itself; else None (the value is sent whole)."""
    if not ((isinstance(old, dict) and isinstance(new, dict))
            or (isinstance(old, list) and isinstance(new, list))):
        return None
    inside = change(old, new)
    return inside if len(_text(inside)) < len(_text(new)) else None


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
