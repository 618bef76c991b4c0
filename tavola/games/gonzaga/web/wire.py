"""What goes over the wire: the board's geometry and a player's view, as plain JSON.

Everything here is built from `engine.view(state, seat)` (or the public view for spectators), so
a message can only carry what that seat may know: no other objective before the end, no deck
order, no plan before the reveal. The legal placements of the player to move, with the points
each would score, are added so the browser can highlight them and show points before a commit.
"""

from __future__ import annotations

import functools
import math
import random
from collections import OrderedDict
from typing import Any

import numpy as np

from tavola import i18n

from .. import text
from ..actions import ACTION_CARDS, INACTIVE, PRIVILEGE, WEDDING_CARD, Plan, action_to_json
from ..board import Board, FiefShape, axial_to_offset, hex_centre, load_board
from ..engine import (
    PlacementArrays,
    PlayerView,
    free_placements,
    legal_actions,
    objective_cities,
    placement_events,
    placement_points,
    player_groups,
    wedding_points,
)
from ..render import PLAYER_COLOURS, SEA_COLOURS, icon_path, region_colour, sea_routes
from ..state import (
    POINTS_DONATION,
    GameEnded,
    LastTurnChecked,
    Phase,
    Piece,
    PlansRevealed,
    Reason,
    RoundStarted,
    Rules,
    ScoreEvent,
    TurnPlayed,
)


def icon_svg(name: str) -> str:
    """A symbol as an SVG path in [-1, 1] (y down), from the same shapes as `gonzaga.render`,
    so the browser needs no font that happens to have the glyph."""
    parts: list[str] = []
    for verts, code in icon_path(name).iter_segments():
        pts = [f"{verts[i]:.3f},{-verts[i + 1]:.3f}" for i in range(0, len(verts), 2)]
        if code == 1:
            parts.append("M" + pts[0])
        elif code == 2:
            parts.append("L" + pts[0])
        elif code == 3:
            parts.append("Q" + " ".join(pts))
        elif code == 4:
            parts.append("C" + " ".join(pts))
        elif code == 79:
            parts.append("Z")
    return "".join(parts)


# How each player's pieces look besides their colour, so that nobody needs to tell the colours
# apart: a pattern over the fill (SVG path data in a square tile of the board's units, stroked or
# filled with the ink), named in the map key.
PLAYER_PATTERNS: dict[str, dict[str, Any]] = {
    "red": {"name": "upright stripes", "tile": 0.5, "paint": "stroke", "width": 0.13,
            "d": "M0.25,0V0.5"},
    "yellow": {"name": "checks", "tile": 0.6, "paint": "stroke", "width": 0.08,
               "d": "M0.3,0V0.6M0,0.3H0.6"},
    "green": {"name": "dots", "tile": 0.5, "paint": "fill", "width": 0,
              "d": "M0.13,0.25a0.12,0.12 0 1,0 0.24,0a0.12,0.12 0 1,0 -0.24,0"},
    "blue": {"name": "horizontal stripes", "tile": 0.5, "paint": "stroke", "width": 0.12,
             "d": "M0,0.25H0.5"},
}
# the pattern's ink: light on the dark colours, dark on the light one
PATTERN_INK = {"red": "#ffffff", "yellow": "#3b2a1a", "green": "#ffffff", "blue": "#ffffff"}


def player_looks() -> dict[str, dict[str, Any]]:
    """Colour, its name as the players read it, and pattern of every player colour."""
    return {colour: {"name": text.colour_name(colour), "fill": fill, "ink": PATTERN_INK[colour],
                     "pattern": {**PLAYER_PATTERNS[colour],
                                 "name": text.word(PLAYER_PATTERNS[colour]["name"])}}
            for colour, fill in PLAYER_COLOURS.items()}


def board_json(board: Board) -> dict[str, Any]:
    """Geometry for drawing the board in the browser (hex centres in the board's pixel frame:
    circumradius 1, see docs/board-format.md), with the colours of `gonzaga.render`."""
    hexes = []
    for i, (c, r) in enumerate(board.coords):
        x, y = hex_centre(c, r)
        hexes.append({"at": [c, r], "x": round(x, 4), "y": round(y, 4),
                      "region": board.region_of[i], "sea": board.sea_of[i]})
    scenery = [[round(v, 4) for v in hex_centre(c, r)] for c, r in board.scenery]
    routes = [[[round(x, 3), round(y, 3)] for x, y in pts] for pts in sea_routes(board)]
    return {
        "name": text.word(board.name),
        "hash": board.content_hash,
        "columns": board.columns,
        "rows": board.rows,
        "width": round(math.sqrt(3) * (board.columns + 0.5), 3),
        "height": round(1.5 * (board.rows - 1) + 2, 3),
        "hexes": hexes,
        "scenery": scenery,
        "regions": [{"id": r.id, "name": text.word(r.name),
                     "colour": region_colour({"id": r.id, "colour": r.colour}),
                     "seal": [r.seal[0], r.seal[1]]} for r in board.regions.values()],
        "seas": [{"id": s.id, "name": text.word(s.name), "symbol": s.symbol,
                  "colour": SEA_COLOURS.get(s.id, "#a8c8dd")} for s in board.seas.values()],
        "symbols": [{"id": s.id, "name": text.word(s.name), "meaning": text.word(s.meaning)}
                    for s in board.symbols.values()],
        "cities": [{"id": c.id, "name": text.word(c.name), "region": c.region,
                    "symbol": c.symbol,
                    "at": list(c.at)} for c in board.cities.values()],
        "harbors": [{"id": h.id, "name": text.word(h.name), "region": h.region, "sea": h.sea,
                     "at": list(h.at)} for h in board.harbors.values()],
        "barriers": [[list(board.coords[a]), list(board.coords[b])]
                     for _, a, b in board.barriers],
        "routes": routes,
        "church": [board.church[0], board.church[1]],
        "fiefs": [fief_json(board, f) for f in board.fiefs.values()],
        "cards": cards_json(),
        "objectives": {str(o.id): list(o.symbols) for o in board.objectives.values()},
        "player_colours": PLAYER_COLOURS,
        "player_looks": player_looks(),
        "icons": {name: icon_svg(name) for name in
                  sorted({*board.symbols, *(s.symbol for s in board.seas.values()), "church"})},
    }


def fief_json(board: Board, fief: FiefShape) -> dict[str, Any]:
    """A fief card as the browser draws it, with no hex geometry of its own: its hexes' centres
    at each rotation (`turns`, anchor at the origin), which of its hexes hold castles
    (`castle_cells`, in the order of a placement's hexes) and its symmetries (`same`)."""
    turns = []
    for turn in range(6):
        cells, _ = fief.rotated(turn)
        turns.append([[round(x, 3), round(y, 3)] for x, y in
                      (hex_centre(*axial_to_offset(q, r)) for q, r in cells)])
    _, castles = fief.rotated(0)
    return {"number": fief.number, "name": text.fief_name(board, fief.number),
            "hexes": [list(h) for h in fief.hexes], "castles": [list(h) for h in fief.castles],
            "turns": turns, "castle_cells": [i for i, k in enumerate(castles) if k],
            "same": fief_symmetries(fief)}


def fief_symmetries(fief: FiefShape) -> list[list[int]]:
    """[j, k] for each other way of laying the fief on the same hexes with the same castles:
    anchored on its j-th hex and turned k sixths further. The engine lists such a placement
    once; the browser finds it from either way the player turns and points at it."""
    out = []
    cells, castles = fief.rotated(0)
    shape = {cell: castle for cell, castle in zip(cells, castles, strict=True)}
    for k in range(1, 6):
        turned, flags = fief.rotated(k)
        for j, (q0, r0) in enumerate(cells):
            moved = {(q0 + q, r0 + r): castle for (q, r), castle in
                     zip(turned, flags, strict=True)}
            if moved == shape:
                out.append([j, k])
    return out


def cards_json() -> dict[str, dict[str, Any]]:
    """The planning cards that are not regions: printed name and, for the action cards and
    the King's Privilege, the line of help under it (what a fief may cover)."""
    out: dict[str, dict[str, Any]] = {
        card: {"name": text.card_name(None, card), "action": card in ACTION_CARDS}
        for card in (INACTIVE, *ACTION_CARDS, PRIVILEGE)}
    for card in (*ACTION_CARDS, PRIVILEGE):
        out[card]["help"] = text.card_help(card)
    out[WEDDING_CARD]["wedding"] = True
    return out


def plan_json(board: Board, plan: Plan) -> dict[str, Any]:
    """A plan as the wire shows it; every view while the plans are known shows every plan,
    so each is made once per board and language (and shared: views only read it)."""
    return _plan_json(board, plan, i18n.current())


@functools.lru_cache(maxsize=4096)
def _plan_json(board: Board, plan: Plan, lang: str) -> dict[str, Any]:
    return {"region": plan.region, "action": plan.action, "privilege": plan.privilege,
            "text": text.plan_text(board, plan)}


def objective_json(v: PlayerView, seat: int) -> dict[str, Any] | None:
    """A known objective card: its symbols, its cities (covered or not) and the progress as
    players read it; None while it is hidden from this view."""
    objective = v.players[seat].objective
    if objective is None:
        return None
    return _objective_json(v.board, objective, frozenset(objective_cities(v, seat)),
                           i18n.current())


@functools.lru_cache(maxsize=4096)
def _objective_json(board: Board, objective: int, covered: frozenset[str], lang: str
                    ) -> dict[str, Any]:
    """`objective_json` by what it shows, made once (and shared: views only read it)."""
    cities = [{"name": text.word(c.name), "at": list(c.at), "covered": c.id in covered}
              for c in board.objective_cities(objective)]
    return {"symbols": list(board.objectives[objective].symbols), "cities": cities,
            "text": text.objective_progress(len(covered))}


def _event(e: ScoreEvent, names: list[str]) -> dict[str, Any]:
    return {"player": e.player, "points": e.points, "reason": str(e.reason),
            "detail": text.detail_text(e), "text": text.event_text(e, names)}


def log_json(v: PlayerView, start: int = 0) -> list[dict[str, Any]]:
    """The public journal from entry `start` on, as readable entries with their points.

    The journal is the same for every seat and only grows, so a server converts each entry
    once (`start`) and shares the list between all the views of a move."""
    board = v.board
    names = [p.name for p in v.players]
    coords = board.coords
    out: list[dict[str, Any]] = []
    for entry in v.journal[start:]:
        if isinstance(entry, RoundStarted):
            out.append({"kind": "round", "round": entry.round,
                        "text": text.journal_line(v, entry), "events": []})
        elif isinstance(entry, PlansRevealed):
            plans = [{"player": p.player, "region": p.region, "action": p.action,
                      "privilege": p.privilege} for p in entry.plans]
            out.append({"kind": "reveal", "round": entry.round, "plans": plans,
                        "order": list(entry.order), "text": text.journal_line(v, entry),
                        "events": []})
        elif isinstance(entry, TurnPlayed):
            out.append({"kind": "turn", "round": entry.round, "player": entry.player,
                        "action": action_to_json(entry.action),
                        "hexes": [list(coords[h]) for h in entry.hexes],
                        "points": sum(e.points for e in entry.events),
                        "text": text.journal_line(v, entry),
                        "events": [_event(e, names) for e in entry.events]})
        elif isinstance(entry, LastTurnChecked):
            out.append({"kind": "last-turn", "round": entry.round,
                        "text": text.journal_line(v, entry),
                        "uncovered": entry.uncovered, "last": entry.last_round_next,
                        "events": []})
        elif isinstance(entry, GameEnded):
            out.append({"kind": "end", "round": entry.round, "winners": list(entry.winners),
                        "text": text.journal_line(v, entry),
                        "events": [_event(e, names) for e in entry.events]})
    return out


def view_json(v: PlayerView, *, game_id: str, seq: int, seats: list[dict[str, Any]],
              log: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The whole message a seat (or a spectator) receives after every change; `log`, if
    given, is `log_json(v)` made already."""
    board = v.board
    me = v.viewer
    players = []
    for i, p in enumerate(v.players):
        players.append({
            "seat": i, "name": p.name, "colour": p.colour, "score": p.score, "rings": p.rings,
            "fief": p.fief, "card": p.card_number() if p.fief is not None else None,
            "resting": list(p.resting), "played": list(p.played),
            "has_planned": p.has_planned, "fiefs_left": p.fiefs_left,
            "leagues": sorted(p.leagues), "objective": p.objective,
            "plan": None if p.plan is None else plan_json(board, p.plan),
            "objective_card": objective_json(v, i),
            **seats[i],
        })
    pieces = [piece_json(board, pc) for pc in v.pieces]
    scenario = v.rules.scenario
    msg: dict[str, Any] = {
        "type": "state", "game": game_id, "seq": seq, "you": me,
        "round": v.round, "phase": str(v.phase), "order": list(v.order), "turn": v.turn,
        "current": v.current_player, "to_move": list(v.to_move()),
        "final_round": v.final_round, "last_turn_check": v.last_turn_check,
        "last_turn_holder": v.last_turn_holder,
        "scenario": {"name": scenario.name, "person": text.word(scenario.person),
                     "flourishing": list(scenario.flourishing),
                     "inactive": list(v.rules.inactive_regions)},
        "variants": sorted(v.rules.variants),
        "players": players, "pieces": pieces,
        "church": [{"player": pl, "fief": f} for pl, f in v.church],
        "log": log_json(v) if log is None else log, "winners": list(v.winners),
        "legal": legal_json(v) if me is not None else None,
        "final": final_json(v) if v.phase is Phase.OVER else None,
    }
    return msg


#: Pieces as the wire shows them, by board and piece: a piece never changes once laid, so every
#: view of every seat shares one object for it (made once, and a change sees it unchanged at
#: a glance); the views only read these, never write them.
_PIECES: OrderedDict[tuple[str, Piece], dict[str, Any]] = OrderedDict()
PIECES_KEPT = 20_000


def piece_json(board: Board, pc: Piece) -> dict[str, Any]:
    """A piece on the map: its owner, kind, fief card, round, and its hexes and castles as
    [column, row]."""
    mine = _BY_ID.get(id(pc))  # the same piece object: no need to hash it
    if mine is not None and mine[0] is pc and mine[1] is board:
        return mine[2]
    key = (board.content_hash, pc)
    found = _PIECES.get(key)
    if found is None:
        coords = board.coords
        found = _PIECES[key] = {
            "owner": pc.owner, "kind": pc.kind, "fief": pc.fief, "round": pc.round,
            "hexes": [list(coords[h]) for h in pc.hexes],
            "castles": [list(coords[h]) for h in pc.castles]}
        while len(_PIECES) > PIECES_KEPT:
            _PIECES.popitem(last=False)
    _BY_ID[id(pc)] = (pc, board, found)  # holds the piece: its id is not reused meanwhile
    while len(_BY_ID) > PIECES_KEPT:
        _BY_ID.popitem(last=False)
    return found


#: `_PIECES` by the piece object's id (with the piece, so that id stays its own).
_BY_ID: OrderedDict[int, tuple[Piece, Board, dict[str, Any]]] = OrderedDict()


#: Planning hints by what they depend on; the board does not change while players plan, so
#: a seat's hints are worked out once a round, not for every view built meanwhile.
_PLAN_HINTS: OrderedDict[tuple[Any, ...], dict[str, dict[str, int | None]]] = OrderedDict()
PLAN_HINTS_KEPT = 512


def plan_hints(v: PlayerView, me: int, fief: int) -> dict[str, dict[str, int | None]]:
    """The most the fief can score now under each pair of planning cards (None: nowhere)."""
    key = (v.rules, me, fief, v.fief_owner.tobytes(), v.ring_owner.tobytes(),
           frozenset(v.players[me].leagues), v.leagues_formed)
    found = _PLAN_HINTS.get(key)
    if found is None:
        found = _PLAN_HINTS[key] = _plan_hints(v, me, fief)
        while len(_PLAN_HINTS) > PLAN_HINTS_KEPT:
            _PLAN_HINTS.popitem(last=False)
    return found


def _plan_hints(v: PlayerView, me: int, fief: int) -> dict[str, dict[str, int | None]]:
    rules = v.rules
    # points of every placement that fits the map now, computed once; each card pair then
    # only takes the best of its rows, all pairs in one pass
    free = free_placements(v, me, fief)
    points = np.full(len(rules.fief_placements(fief)), -1, dtype=np.int32)
    if len(free):
        points[free] = placement_points(v, me, fief, free)
    pairs, rows, starts = _hint_rows(rules, fief)
    best = np.full(len(pairs), -1, dtype=np.int32)
    some = starts < len(rows)  # pairs with at least one row (the others start at the end)
    if len(rows):
        best[some] = np.maximum.reduceat(points[rows], starts[some])
    hints: dict[str, dict[str, int | None]] = {card: {} for card in rules.region_cards}
    for (card, action), pts in zip(pairs, best.tolist(), strict=True):
        hints[card][action] = pts if pts >= 0 else None
    return hints


@functools.lru_cache(maxsize=256)
def _hint_rows(rules: Rules, fief: int) -> tuple[list[tuple[str, str]], np.ndarray, np.ndarray]:
    """Every (region card, action card) pair, the fief's table rows each allows laid end to
    end, and where each pair's rows start (the end, for a pair that allows none): the same
    for every position, so made once per rules and fief."""
    pairs = [(card, action) for card in rules.region_cards for action in ACTION_CARDS]
    parts = [rules.candidates(fief, card, action) for card, action in pairs]
    lengths = np.array([len(part) for part in parts], dtype=np.int64)
    starts = np.concatenate(([0], np.cumsum(lengths)[:-1])) if len(parts) else lengths
    rows = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
    starts[lengths == 0] = len(rows)
    return pairs, rows, starts


def legal_json(v: PlayerView) -> dict[str, Any] | None:
    """What the viewer may do now, with points, or None when it is not their move."""
    me = v.viewer
    assert me is not None
    if me not in v.to_move():
        return None
    p = v.players[me]
    rules = v.rules
    if v.phase is Phase.PLANNING:
        regions = [c for c in rules.region_cards if c not in p.resting]
        actions = [c for c in ACTION_CARDS if c not in p.resting]
        hints = {} if p.fief is None else plan_hints(v, me, p.fief)
        return {"kind": "plan", "regions": regions, "actions": actions,
                "privilege": PRIVILEGE not in p.resting and p.rings > 0,
                "region_cards": list(rules.region_cards), "best": hints}
    legal = legal_actions(v, me)
    arrays = legal.placement_arrays()
    pairs = legal.wedding_pairs
    assert p.plan is not None
    return {"kind": "place", "fief": legal.fief, "plan": plan_json(v.board, p.plan),
            "placements": placements_json(v, me, arrays), "weddings": weddings_json(v, pairs),
            "wedding_scores": wedding_scores(v, me, pairs),
            "places": places_json(v, me, arrays, pairs), "donate": True,
            "donation_points": POINTS_DONATION}


def forget_kept() -> None:
    """Drop every part kept between views (pieces, plans, objectives, hints, words)."""
    _PIECES.clear()
    _BY_ID.clear()
    _PLAN_HINTS.clear()
    for kept in (_plan_json, _objective_json, _place_words):
        kept.cache_clear()


def event_words(e: ScoreEvent) -> str:
    """One scoring event of a move as its preview names it: "+3 Mantova"."""
    return text.say("preview.event", points=e.points, detail=text.detail_text(e))


def placements_json(v: PlayerView, me: int, arrays: PlacementArrays | None) -> dict[str, Any]:
    """Every legal placement of the fief, so the browser previews one without asking: the
    hexes it covers (indices into the board's `hexes`, in the fief's order, so the first is
    the anchor), its rotation, its points, and the words of the sea leagues it would form
    (`leagues`: [placement, words]; its cities and harbors are the view's `places`)."""
    if arrays is None:
        return {"hexes": [], "rotations": [], "points": [], "leagues": []}
    return {"hexes": arrays.cells.ravel().tolist(), "rotations": arrays.rotations.tolist(),
            "points": arrays.points.tolist(),
            "leagues": _leagues(v, me, arrays.cells, arrays.points)}


def weddings_json(v: PlayerView, pairs: np.ndarray) -> list[int]:
    """Every legal Wedding as its rings' hexes, indices into the board's `hexes` (as a
    placement's), two by two in one flat list, -1 for no second ring.

    A Wedding may be legal on thousands of pairs: one flat list of numbers is made in C and
    compared in C by the next view's change, where a list a pair cost a tenth of a server's
    time per move (the browser makes the pairs, `legal.js`)."""
    return pairs.ravel().tolist()


def wedding_list(weddings: list[int], board: Board) -> list[list[Any]]:
    """The Weddings of a view message as [first, second] rings, each [column, row] (the
    second None for one ring)."""
    at = board.coords
    return [[list(at[weddings[i]]), list(at[weddings[i + 1]]) if weddings[i + 1] >= 0 else None]
            for i in range(0, len(weddings), 2)]


def wedding_scores(v: PlayerView, me: int, pairs: np.ndarray) -> dict[str, Any]:
    """The points and sea leagues of each legal Wedding, as `placements_json` gives them."""
    if not len(pairs):
        return {"points": [], "leagues": []}
    points = wedding_points(v, me, pairs)
    return {"points": points.tolist(), "leagues": _leagues(v, me, pairs, points)}


def _leagues(v: PlayerView, me: int, cells: np.ndarray, points: np.ndarray) -> list[list[Any]]:
    """[i, words] of each sea league the i-th move of `cells` (hexes, -1 for none) would form:
    the moves that score more than their hexes' own points, with the engine's events."""
    own = np.where(cells >= 0, v.rules.hex_points[np.maximum(cells, 0)], 0).sum(axis=1)
    out: list[list[Any]] = []
    for i in np.flatnonzero(points > own).tolist():
        hexes = [h for h in cells[i].tolist() if h >= 0]
        out += [[i, event_words(e)] for e in placement_events(v, me, hexes)
                if e.reason is Reason.SEA_LEAGUE]
    return out


def places_json(v: PlayerView, me: int, arrays: PlacementArrays | None, pairs: np.ndarray
                ) -> dict[str, str]:
    """The words of the scoring event of each city and harbor a legal move may cover, by
    hex index: a move's events are these, in the order of its hexes, then its leagues."""
    rules = v.rules
    covered = np.zeros(len(rules.hex_points), dtype=bool)
    covered[pairs[pairs >= 0]] = True
    if arrays is not None:
        covered[arrays.cells] = True
    words = _place_words(rules, i18n.current())
    return {str(h): words[h] for h in np.flatnonzero(covered & (rules.hex_points != 0)).tolist()}


@functools.lru_cache(maxsize=64)
def _place_words(rules: Rules, lang: str) -> dict[int, str]:
    """`places_json`'s words of every scoring place, by hex, made once per rules and language
    (`lang`, the language of the moment: an event's words name its points and place only)."""
    places = rules.scoring_places
    return {h: event_words(ScoreEvent(0, 0, *place)) for h, place in places.items()}


def placement_list(placements: dict[str, list[int]], board: Board) -> list[list[int]]:
    """The legal placements of a view message as `[column, row, rotation, points]` rows."""
    rotations = placements["rotations"]
    size = len(placements["hexes"]) // len(rotations) if rotations else 0
    return [[*board.coords[placements["hexes"][i * size]], rot, pts]
            for i, (rot, pts) in enumerate(zip(rotations, placements["points"], strict=True))]


def final_json(v: PlayerView) -> dict[str, Any]:
    """The end of the game: the Gonzaga tile, each revealed objective, the final table, and
    every player's points by source, summed from the engine's score events (as the terminal
    game does), never computed again."""
    board = v.board
    by_source = {i: dict.fromkeys(Reason, 0) for i in range(len(v.players))}
    for e in v.score_events():
        by_source[e.player][e.reason] += e.points
    ended = next((e for e in reversed(v.journal) if isinstance(e, GameEnded)), None)
    rows = []
    for i, p in enumerate(v.players):
        events = [e for e in ended.events if e.player == i] if ended else []
        tile = sum(e.points for e in events if str(e.reason) == "gonzaga-tile")
        groups = player_groups(v, i)
        objective = sum(e.points for e in events if str(e.reason) == "objective")
        symbols = list(board.objectives[p.objective].symbols) if p.objective else []
        cities = objective_cities(v, i)
        rows.append({"seat": i, "name": p.name, "colour": p.colour, "score": p.score,
                     "gonzaga_tile": tile, "largest_group": groups[0] if groups else 0,
                     "objective": p.objective,
                     "objective_symbols": symbols,
                     "objective_cities": [text.word(board.cities[c].name) for c in cities],
                     "objective_points": objective, "before_final": p.score - tile - objective,
                     "objective_text": text.objective_fraction(len(cities), objective),
                     "by_source": {str(r): pts for r, pts in by_source[i].items()}})
    return {"winners": list(v.winners), "table": rows,
            "sources": [{"id": str(r), "name": text.reason_name(r)} for r in Reason],
            "note": text.final_note()}


def choose(msg: dict[str, Any], rng: random.Random, board: Board | None = None
           ) -> dict[str, Any]:
    """A move from the legal options the server sent: what a simple client-side bot plays
    (load benchmarks and tests): a random plan, the best-scoring placement listed (on
    `board`, the shipped one by default)."""
    legal = msg["legal"]
    if legal["kind"] == "plan":
        return {"type": "plan", "region": rng.choice(legal["regions"]),
                "action": rng.choice(legal["actions"]),
                "privilege": legal["privilege"] and rng.random() < 0.2}
    placements = placement_list(legal["placements"], board or load_board())
    if placements:
        c, r, rot, _ = max(placements, key=lambda p: (p[3], rng.random()))
        return {"type": "fief", "fief": legal["fief"], "anchor": [c, r], "rotation": rot}
    if legal["weddings"]:
        first, second = rng.choice(wedding_list(legal["weddings"], board or load_board()))
        return {"type": "wedding", "first": first, "second": second}
    return {"type": "donate"}
