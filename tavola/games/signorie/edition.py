"""Signorie's editions (`tavola.editions.EditionKind`): component files a person edits and plays.

The data is a component file (`data/components.json`'s format). Its checks are the command
line's (`tavola components check`): the pydantic model's types and ranges, then `cross_check`,
each problem turned into a `Finding` located by a JSON Pointer into the data, so the editor can
show it at its field. Nothing here raises on hostile data: a malformed file is findings too.
"""

from __future__ import annotations

import copy
import re
from collections import Counter
from typing import Any

from pydantic import ValidationError

from tavola import i18n
from tavola.editions import Finding, canonical, field_name, schema_sentence

from .components import (
    FORMAT,
    VALUE_CHECKS,
    Components,
    Said,
    count_statuses,
    cross_check,
    json_schema,
)
from .places import place_words
from .tables import default_data
from .text import say, tr

#: The largest component file accepted: the shipped one is under 30 kB.
MAX_BYTES = 256 * 1024
#: The most findings reported at once: a person fixes the first ones first.
MAX_FINDINGS = 200
#: A place as `cross_check` names it: `helper_slots[3].cost`, `cities[Milano].slots`...
_TOKEN = re.compile(r"([A-Za-z_][A-Za-z_0-9]*)|\[([^\]]*)\]")


class SignorieEdition:
    """Signorie's component files as editions."""

    format = FORMAT
    max_bytes = MAX_BYTES

    def default(self) -> dict[str, Any]:
        return copy.deepcopy(default_data())

    def schema(self) -> dict[str, Any]:
        return json_schema()

    def check(self, data: Any) -> list[Finding]:
        try:
            size = len(canonical(data))
        except (TypeError, ValueError, RecursionError):
            return [Finding(say("file.not-json"))]
        if size > self.max_bytes:
            return [Finding(say("file.too-large", size=size, most=self.max_bytes))]
        if not isinstance(data, dict):
            return [Finding(say("file.not-object", found=type(data).__name__))]
        try:
            model = Components.model_validate(data, context={"types_only": True})
        except ValidationError as exc:
            return [_type_finding(data, e) for e in exc.errors()[:MAX_FINDINGS]]
        except (RecursionError, ValueError, TypeError):
            return [Finding(say("file.too-deep"))]
        return _cross_findings(model, data) or _playable(data)

    def options(self, data: dict[str, Any]) -> dict[str, Any]:
        return {"components": data}

    def describe(self, data: dict[str, Any]) -> str:
        counts: Counter[str] = Counter()
        count_statuses(data, counts)
        cities = len(data.get("cities") or [])
        helpers = len((data.get("helper_slots") or {}).get("value") or [])
        return say("edition.describe", cities=cities, helpers=helpers, known=counts["known"],
                   provisional=counts["provisional"])


EDITION = SignorieEdition()


def _type_finding(data: Any, error: Any) -> Finding:
    """A pydantic error at its place (its `loc` is the data's own path, no aliases), said by
    the text layer with the place named in the game's words, as the editor labels it."""
    loc = [p for p in error.get("loc", ()) if not (isinstance(p, str) and "[" in p)]
    field = place_words(data, pointer(loc)) if loc else field_name(loc, _field_word)
    kind = str(error.get("type"))
    if kind in VALUE_CHECKS:  # the file's own validators: the game's sentences
        text = f"{field}: " + say(kind, **(error.get("ctx") or {}))
    else:
        text = schema_sentence(error, field)
    at = loc[:-1] if kind == "missing" else loc  # the object that lacks it
    return Finding(_sentence(text), pointer(at))


def _field_word(key: str) -> str:
    """A key of the file as the editor labels it, in the reader's language; a sourced value's
    own `value` goes without saying."""
    return "" if key == "value" else tr(label(key))


def _cross_findings(model: Components, data: dict[str, Any]) -> list[Finding]:
    try:
        problems = cross_check(model)
    except Exception as exc:  # a check that cannot read the data is a finding, not a crash
        return [Finding(say("file.unchecked", error=type(exc).__name__))]
    return [_cross_finding(data, p) for p in problems[:MAX_FINDINGS]]


def _cross_finding(data: dict[str, Any], problem: str) -> Finding:
    """A `cross_check` problem at its place, both in the reader's words."""
    where = locate(data, problem.split(":", 1)[0])
    if not isinstance(problem, Said):
        return Finding(_sentence(problem), where)
    said = i18n.gettext("signorie", problem.template).format(**problem.fields)
    return Finding(_sentence(f"{place_words(data, where)}: {said}" if where else problem.worded()),
                   where)


def _playable(data: dict[str, Any]) -> list[Finding]:
    """Set a game up at every player count: what the checks let through must play."""
    from .engine import new_game

    for players in (2, 3, 4):
        try:
            new_game(["A", "B", "C", "D"][:players], 0, {"components": data})
        except Exception as exc:
            return [Finding(say("file.unplayable", players=players, error=exc))]
    return []


def _sentence(text: str) -> str:
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")


def pointer(parts: Any) -> str:
    """A JSON Pointer (RFC 6901) from path parts."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def locate(data: Any, place: str) -> str:
    """The JSON Pointer of a place as `cross_check` names it: a list's item by index or by its
    name or colour, a status wrapper's value entered when the place goes on past it; as deep
    as the data has the place."""
    node: Any = data
    parts: list[str] = []
    for name, index in _TOKEN.findall(place.split(" (")[0]):
        key = name or index
        if isinstance(node, dict) and key not in node and "value" in node and "status" in node:
            node, parts = node["value"], [*parts, "value"]
        step = _step(node, key)
        if step is None:
            break
        node, parts = (node[step] if isinstance(node, dict) else node[int(step)]), [*parts, step]
    return pointer(parts)


def _step(node: Any, key: str) -> str | None:
    if isinstance(node, dict):
        return key if key in node else None
    if not isinstance(node, list):
        return None
    if key.isdigit():
        return key if int(key) < len(node) else None
    for i, item in enumerate(node):  # `cities[Milano]`, `player_boards[red]`: by name/colour
        if isinstance(item, dict) and key in (_plain(item.get("name")), _plain(item.get("colour"))):
            return str(i)
    return None


def _plain(value: Any) -> Any:
    return value.get("value") if isinstance(value, dict) else value



def field_words() -> list[str]:
    """The editor's labels of the file's fields and choices, as it shows them (a name with its
    underscores as spaces), each once: for the message catalogs."""
    words: dict[str, None] = {}

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key in node.get("properties") or {}:
                words[label(key)] = None
            for value in node.get("enum") or []:
                if isinstance(value, str) and any(c.isalpha() for c in value):
                    words[label(value)] = None
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(json_schema())
    return list(words)


def label(name: str) -> str:
    """A field's or choice's name as the editor shows it (editor.js does the same)."""
    return name.replace("_", " ")
