"""A scanner for hidden information in a server message (used over every message of a game).

Hidden from seat `viewer` until the end: the other players' objectives, every deck's order
(what anyone draws next) and every plan not yet revealed. Unknown keys count as a leak too, so
a new field has to be added here on purpose, after checking that it is public.
"""

from __future__ import annotations

from typing import Any

from tavola.games.gonzaga.board import load_board
from tavola.games.gonzaga.state import Setup

KNOWN_KEYS = {
    "action", "actions", "alliance", "anchor", "before_final", "best", "bot", "card", "castles",
    "church", "cities", "claimed", "code", "colour", "connected", "current", "detail", "donate",
    "events", "fief", "fiefs_left", "final", "final_round", "first", "flourishing", "game",
    "gonzaga_tile", "harbors", "has_planned", "hexes", "inactive", "kind", "last", "last_player",
    "last_turn_check", "last_turn_holder", "leagues", "legal", "log", "message", "name",
    "objective", "objective_cities", "objective_points", "objective_symbols", "order", "owner",
    "person", "phase", "pieces", "placements", "plan", "plans", "played", "player", "players",
    "points", "privilege", "reason", "region", "region_cards", "regions", "resting", "rings",
    "rotation", "round", "rule", "scenario", "score", "seat", "second", "seq", "table", "text",
    "to_move", "turn", "type", "uncovered", "variants", "weddings", "winners", "you", "ok",
    "columns", "rows", "rotations", "largest_group", "can_undo", "rematch", "seats",
    "rating",  # a bot's fixed rating, measured by tournaments (public)
    # the donation's points; at the end, each player's points by source (all public)
    "donation_points", "by_source", "sources", "id", "city", "harbor", "sea-league", "donation",
    "gonzaga-tile",
    # a known objective card as players read it; how the final scoring works
    "objective_card", "symbols", "at", "covered", "objective_text", "note",
    # the platform's: chat, turn-based clocks, seats a bot took for good (all public)
    "chat", "max_chars", "may_write", "replaced", "timing", "lines", "history", "n", "move_seconds",
    "misses", "deadlines", "missed",
    # hints: whether a game allows them, each seat's count; the open decision's first view
    "hints", "decision",
    # the mover's legal moves as the page previews them: the scoring words of the cities and
    # harbors they cover (by hex number), each Wedding's points and leagues
    "places", "wedding_scores",
    # a seat out of time for good: the others' open choice, their votes; a game ended early
    "leave", "closes", "voters", "votes", "ended", "leaver", "ranks", "vacation",
    *load_board().regions,
}


def _walk(value: Any, path: str = ""):  # type: ignore[no-untyped-def]
    yield path, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _walk(v, f"{path}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _walk(v, f"{path}[{i}]")


def _runs(seq: list[int], k: int) -> set[tuple[int, ...]]:
    return {tuple(seq[i:i + k]) for i in range(len(seq) - k + 1)}


def find_leaks(msg: dict[str, Any], viewer: int | None, truth: Setup) -> list[str]:
    """Every piece of hidden information found in `msg` for `viewer` (None: a spectator)."""
    problems: list[str] = []
    over = msg.get("phase") == "over"
    round_ = msg.get("round") or 1
    n = len(truth.objectives)
    # future fiefs: any three or more fiefs in an unsorted list, in the order of a deck (the
    # legal moves' hexes, rotations and points are hex data, not fiefs)
    future = [list(deck[round_:]) for deck in truth.decks]
    for path, value in _walk(msg):
        if isinstance(value, dict):
            for key in value:
                if key not in KNOWN_KEYS and not (path.endswith(".legal.places") and key.isdigit()):
                    problems.append(f"unknown key {path}.{key}")
        if (isinstance(value, list) and len(value) >= 3 and ".legal.placements." not in path
                and ".legal.wedding_scores." not in path
                and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
                and value != sorted(value)):
            for deck in future:
                if tuple(value[:3]) in _runs(deck, 3):
                    problems.append(f"{path} holds a deck's order: {value}")
    if msg.get("type") != "state":
        return problems
    text = str(msg)
    for i, player in enumerate(msg["players"]):
        if i == viewer or over:
            continue
        if player.get("objective") is not None or player.get("objective_card") is not None:
            problems.append(f"players[{i}].objective shown to seat {viewer}")
        if f"objective {truth.objectives[i]}" in text:
            problems.append(f"objective {truth.objectives[i]} of seat {i} named")
        if msg["phase"] == "planning" and (player.get("plan") or player.get("played")):
            problems.append(f"players[{i}] plan visible before the reveal")
    if not over and any(p.get("objective") is not None for j, p in enumerate(msg["players"])
                        if j != viewer):
        problems.append("an objective of another seat")
    if msg["phase"] == "planning":
        for entry in msg["log"]:
            if entry["kind"] == "reveal" and entry["round"] == round_:
                problems.append("this round's plans in the log before the reveal")
    if viewer is None and msg.get("legal") is not None:
        problems.append("legal moves sent to a spectator")
    if viewer is not None and msg.get("legal") is not None and viewer not in msg["to_move"]:
        problems.append("legal moves sent to a seat that is not to move")
    if n and viewer is not None and not over:
        own = msg["players"][viewer].get("objective")
        if own is not None and own != truth.objectives[viewer]:
            problems.append("wrong own objective")
    return problems


def contained(made: dict[str, Any], view: Any) -> list[str]:
    """Where a change carries a value that is not the same in `view` (its seat's new view):
    a change holds nothing its seat's view does not."""
    wrong = []
    for k, v in made.get("set", {}).items():
        if not isinstance(view, dict) or view.get(k) != v:
            wrong.append(f"set {k}")
    for k, inside in made.get("edit", {}).items():
        wrong += [f"{k}.{w}" for w in contained(inside, view[int(k)] if isinstance(view, list)
                                                else view.get(k))]
    if "add" in made and view[made["keep"]:] != made["add"]:
        wrong.append("add")
    return wrong
