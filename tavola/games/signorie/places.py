"""Every place of a component file in the game's own words, and the order its lists are printed in.

The editor labels each field, and each finding names its place, as the printed material does
("Firenze, row 2, slot 1", "Yellow die slot: cost"), in the reader's language; the file's path
(a JSON Pointer) stays beside it for whoever wants it. Lists whose printed reading differs from the
file's order (a track read from its top down, a city's two rows of slots) are shown in the
printed order; the file keeps its own. Nothing here raises on malformed data: a place it cannot
name is named by its key.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .tables import SEXES
from .text import ROW_TITLES, city_name, colour_title, say, tr

#: The lists whose items are named "KIND n", by the key that holds them (after status wrappers).
ITEM_KINDS: dict[str, str] = {
    "slots": "place.slot", "city-slots": "place.slot", "initiative_track": "place.slot",
    "bride_slots": "place.bride-slot",
    "houses": "place.house", "bonus_tiles": "place.bonus-tile", "vp_tiles": "place.vp-tile",
    "tracks": "place.track", "extra_florins": "place.position", "career_bonuses": "place.bonus",
    "assignment_tiles": "place.assignment-tile", "political": "place.shield",
    "clerical": "place.shield", "military": "place.shield", "marriage": "place.shield",
}
#: Lists printed from their last entry to their first: tracks whose top slot is printed first
#: (a meeple or disc starts on the bottom slot and moves up; the file lists them bottom first).
TOP_FIRST = (("initiative_track", "value"), ("career_tracks", "slots", "value"))
#: Lists whose items name what they are ("Firenze", "bride slot 2"): the list's own name is left
#: out before them. The others keep it ("Initiative track, slot 3", "Political, shield 2").
SELF_NAMED = frozenset({"action_slots", "player_boards", "cities", "helper_slots",
                        "assignment_slots", "slots", "city-slots", "bride_slots", "houses",
                        "bonus_tiles", "vp_tiles", "tracks", "assignment_tiles", "career_bonuses"})
#: Keys left out of a place's words when something inside them is named (a board's plan rows).
UNSAID = frozenset({"plan"})
#: The keys of a value with its status: entered, not named.
WRAPPER = "value"


def pointer(parts: list[str]) -> str:
    """A JSON Pointer (RFC 6901) from path parts."""
    return "".join("/" + p.replace("~", "~0").replace("/", "~1") for p in parts)


def parts_of(where: str) -> list[str]:
    return [p.replace("~1", "/").replace("~0", "~") for p in where.split("/")[1:]]


def _plain(value: Any) -> Any:
    return value.get(WRAPPER) if isinstance(value, dict) and "status" in value else value


def _list_key(parts: list[str]) -> str:
    """The key that holds a list, past its status wrapper ("city-slots" for a city's slots)."""
    keys = [p for p in parts if p != WRAPPER]
    if len(keys) == 3 and keys[0] == "cities" and keys[2] == "slots":
        return "city-slots"
    return keys[-1] if keys else ""


def item_name(list_key: str, index: int, item: Any, siblings: Any = None) -> str:
    """A list's item as the printed material names it (a city's slot by its printed row and
    place in the row, when `siblings`, the whole list, are the slots' values)."""
    item = _plain(item)
    if list_key == "city-slots" and isinstance(siblings, list) and \
            all(isinstance(v, int) for v in siblings):
        place = printed_place(siblings, index)
        return say("place.city-slot", row=place["row"] + 1, n=place["column"] + 1)
    fields = item if isinstance(item, dict) else {}
    colour = _plain(fields.get("colour"))
    if list_key == "action_slots" and isinstance(colour, str):
        return say("place.die-slot", colour=colour_title(colour))
    if list_key == "player_boards" and isinstance(colour, str):
        return say("place.board", colour=colour_title(colour))
    if list_key == "cities" and isinstance(_plain(fields.get("name")), str):
        return city_name(_plain(fields["name"]))
    if list_key == "helper_slots" and isinstance(fields.get("column"), str):
        return say("place.helper", colour=colour_title(fields["column"]),
                   n=fields.get("order", index + 1))
    if list_key == "assignment_slots" and isinstance(colour, str) and fields.get("sex") in SEXES:
        return say(f"place.assignment-slot.{fields['sex']}", colour=colour_title(colour))
    if isinstance(item, int) and list_key not in ITEM_KINDS and list_key[:1].isupper():
        return say("place.tile", n=index + 1)  # an alliance tile: listed by its house's name
    return say(ITEM_KINDS.get(list_key, "place.entry"), n=index + 1)


def key_name(parent: list[str], key: str) -> str:
    """A key of an object: the name of what it holds (a house, a plan row, a player count)."""
    holder = _list_key(parent)
    if holder == "plan":
        return ROW_TITLES.get(key, key)
    if holder in ("dice_per_colour", "cities_used", "alliance_removed_per_house"):
        return say("place.players", n=key)
    if holder == "alliance_tiles":
        return key
    return tr(key.replace("_", " "))


def _walk(node: Any, parts: list[str]) -> Iterator[tuple[list[str], Any]]:
    yield parts, node
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _walk(value, [*parts, str(key)])
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _walk(value, [*parts, str(i)])


def place_names(data: Any) -> dict[str, str]:
    """The places of the data (by JSON Pointer) with their own labels: a list's item by its name
    ("Firenze", "row 1, slot 2"), a key a map names by what it stands for ("2 players",
    "Political"); a field whose label is its name in words ("cost") is left to the editor,
    which words it so."""
    names: dict[str, str] = {}
    for parts, node in _walk(data, []):
        if not parts:
            continue
        parent = _at(data, parts[:-1])
        key = parts[-1]
        if isinstance(parent, list):
            names[pointer(parts)] = item_name(_list_key(parts[:-1]), int(key), node, parent)
        elif (name := key_name(parts[:-1], key)) != tr(key.replace("_", " ")):
            names[pointer(parts)] = name
    return names


def place_words(data: Any, where: str) -> str:
    """The place a JSON Pointer names, in words: its items joined by commas, its fields after a
    colon ("Firenze, row 2, slot 1", "Yellow die slot: cost"); the list that holds a named item
    and a status wrapper are left out."""
    parts = parts_of(where) if where else []
    said: list[tuple[str, bool]] = []
    for depth, key in enumerate(parts):
        parent = _at(data, parts[:depth])
        if isinstance(parent, list):
            held = _list_key(parts[:depth])
            if said and not said[-1][1] and held in SELF_NAMED:
                said.pop()  # "cities" before "Firenze"
            said.append((item_name(held, int(key), parent[int(key)], parent), True))
        elif key in UNSAID and depth < len(parts) - 2:
            continue
        elif key != WRAPPER or not (isinstance(parent, dict) and "status" in parent):
            said.append((key_name(parts[:depth], key), False))
    text = ""
    for word, item in said:
        text += word if not text else (", " if item else ": ") + word
    return text[:1].upper() + text[1:]


def _at(data: Any, parts: list[str]) -> Any:
    node = data
    for key in parts:
        if isinstance(node, dict):
            node = node.get(key)
        elif isinstance(node, list) and key.isdigit() and int(key) < len(node):
            node = node[int(key)]
        else:
            return None
    return node


def reading_order(data: Any) -> dict[str, list[int]]:
    """The lists the printed material reads in another order than the file's, by JSON Pointer,
    each with its items' indices in the printed order: the tracks from their top slot down, a
    city's slots row by row as printed (1 2 3 4 over 1 2 3 4)."""
    order: dict[str, list[int]] = {}
    for path in TOP_FIRST:
        found = _at(data, list(path))
        if isinstance(found, list):
            order[pointer(list(path))] = list(reversed(range(len(found))))
    cities = data.get("cities") if isinstance(data, dict) else None
    for c, city in enumerate(cities if isinstance(cities, list) else []):
        values = _plain(city.get("slots")) if isinstance(city, dict) else None
        if isinstance(values, list) and all(isinstance(v, int) for v in values):
            places = [printed_place(values, k) for k in range(len(values))]
            order[pointer(["cities", str(c), "slots", "value"])] = sorted(
                range(len(values)), key=lambda k: (places[k]["row"], places[k]["column"]))
    return order


def printed_place(values: list[int] | tuple[int, ...], i: int) -> dict[str, int]:
    """Where slot `i` of a city is printed: its value's column (lowest value first), and the
    row of its repeat (the first slot of each value in the top row), so slots valued 1, 1, 2,
    2, 3, 3, 4, 4 show as the board prints them: 1 2 3 4 over 1 2 3 4."""
    return {"column": sorted(set(values)).index(values[i]),
            "row": list(values[:i]).count(values[i])}
