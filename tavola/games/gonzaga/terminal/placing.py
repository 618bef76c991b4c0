"""Phase 4 at the terminal: placing the fief from a ranked list or by position, previewing it
on the map, donating it, or arranging a Wedding."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from .. import text as words
from ..actions import WEDDING_CARD, Action, Donate, IllegalAction, PlaceFief, Wedding
from ..board import Board
from ..engine import (
    LegalActions,
    PlayerView,
    action_events,
    castle_hexes,
    covered_hexes,
    group_labels,
)
from ..state import POINTS_DONATION, POINTS_GONZAGA_TILE
from .hexmap import CITY_INK, HARBOR_INK, PLACE_BG, Glyphs, Highlight, objective_hexes
from .input import BACK, Retry, find_place, parse_position
from .layout import lines_needed, pack
from .planning import region_card_hexes
from .render import wedding_text

if TYPE_CHECKING:
    from .input import Prompts

say = words.say
#: Lines the map (with the status above it) keeps at least when a menu is long.
MAP_MIN_LINES = 12
#: The help under the list of placements, by what each line offers.
HELP_PLACE = ("number", "position", "covering", "page", "all", "donate", "wedding", "map",
              "size", "hint", "quit")
NEXT, PREVIOUS, ALL = ("n", "next", "+"), ("p", "prev", "previous", "-"), ("all", "*")
DONATE, WEDDING, NONE = ("d", "donate"), ("w", "wedding"), ("0", "none", "n")


@dataclass
class RankedPlacements:
    """This round's legal placements, best first: points now, then cities of your objective,
    then contact with your own pieces (which grows your group towards the Gonzaga tile).

    `distinct` keeps the best position for each set of cities and harbors covered (and
    contact), so the list shows real alternatives rather than the same city eight times.
    """

    points: np.ndarray
    goals: np.ndarray
    joins: np.ndarray
    order: np.ndarray
    distinct: np.ndarray
    ways: dict[int, int]

    @classmethod
    def of(cls, v: PlayerView, me: int, legal: LegalActions) -> RankedPlacements:
        board = v.board
        arrays = legal.placement_arrays()
        if arrays is None:
            empty = np.zeros(0, dtype=np.int64)
            return cls(empty, empty, empty, empty, empty, {})
        cells, points = arrays.cells, arrays.points
        goal = np.zeros(board.hex_count, dtype=np.int32)
        for h in objective_hexes(v, me):
            if v.fief_owner[h] != me and v.ring_owner[h] != me:
                goal[h] = 1
        goals = goal[cells].sum(axis=1)
        own = (v.fief_owner == me) | (v.ring_owner == me)
        near = np.zeros(board.hex_count, dtype=bool)
        nb = v.rules.neighbour_table[np.flatnonzero(own)]
        near[nb[nb >= 0]] = True
        joins = near[cells].any(axis=1).astype(np.int32)
        order = np.lexsort((np.arange(len(arrays)), -joins, -goals, -points))
        distinct, ways = _distinct(board, cells, joins, order)
        return cls(points, goals, joins, order, distinct, ways)


def _distinct(board: Board, cells: np.ndarray, joins: np.ndarray,
              order: np.ndarray) -> tuple[np.ndarray, dict[int, int]]:
    """The first placement (in `order`) for each set of places covered and contact, and how
    many placements each of them stands for."""
    special = board.is_city | board.is_harbor
    first: dict[tuple[Any, ...], int] = {}
    ways: dict[int, int] = {}
    for i in order:
        key = (tuple(sorted(int(h) for h in cells[i] if special[h])), int(joins[i]))
        if key in first:
            ways[first[key]] += 1
        else:
            first[key] = int(i)
            ways[int(i)] = 1
    return np.array(list(first.values()), dtype=np.int64), ways


def own_groups(v: PlayerView, me: int) -> tuple[dict[int, int], dict[int, int]]:
    """The player's connected groups of pieces: hex -> group id, and group id -> pieces."""
    label, sizes = group_labels(v, me)
    return ({int(h): int(label[h]) for h in np.flatnonzero(label >= 0)},
            dict(enumerate(sizes.tolist())))


def group_after(v: PlayerView, me: int, hexes: list[int], pieces: int) -> tuple[int, bool]:
    """The size of the player's group that `pieces` new pieces on `hexes` would make, and
    whether they touch one of the player's groups at all."""
    board = v.board
    group_of, sizes = own_groups(v, me)
    touched = {group_of[n] for h in hexes for n in board.neighbours[h] if n in group_of}
    return pieces + sum(sizes[g] for g in touched), bool(touched)


def _covers(v: PlayerView, hexes: list[int], goals: set[int], pts: int) -> Text:
    """The cities and harbors a placement covers (★ those of your objective) and a league."""
    board = v.board
    glyphs = Glyphs.of(board)
    covers = Text()
    for h in hexes:
        g = glyphs.at(board, h)
        if g is None:
            continue
        place = board.city_at.get(h) or board.harbor_at.get(h)
        if covers:
            covers.append(" · ")
        covers.append(g, style=(CITY_INK if h in board.city_at else HARBOR_INK) + " " + PLACE_BG)
        covers.append(f" {place.name if place else ''}")
        if h in goals:
            covers.append("★", style="bold yellow")
    hexes_pts = int(v.rules.hex_points[hexes].sum())
    if pts > hexes_pts:
        covers.append(say("placements.league", points=pts - hexes_pts), style="bold green")
    if not covers:
        covers.append(say("placements.empty"), style="dim")
    return covers


def render_placement_list(v: PlayerView, me: int, legal: LegalActions, ranked: RankedPlacements,
                          order: np.ndarray, start: int, count: int, title: str, *,
                          ways: bool = True) -> RenderableType:
    """A page of legal placements with their points, the cities and harbors each covers and
    the size of your group of connected pieces it would make (the Gonzaga tile)."""
    goals = set(objective_hexes(v, me))
    arrays = legal.placement_arrays()
    assert arrays is not None
    table = Table(box=None, padding=(0, 1))
    table.add_column("#", justify="right", style="bold cyan")
    table.add_column(say("placements.pts"), justify="right", style="bold")
    table.add_column(say("placements.position"))
    table.add_column(say("placements.group"), justify="right")
    table.add_column(say("placements.covers"))
    for k in range(start, min(start + count, len(order))):
        i = int(order[k])
        action = legal.placement(i)
        hexes = [int(h) for h in arrays.cells[i]]
        pts = int(ranked.points[i])
        covers = _covers(v, hexes, goals, pts)
        if ways and ranked.ways.get(i, 1) > 1:
            covers.append(say("placements.ways", n=ranked.ways[i]), style="dim")
        group, touched = group_after(v, me, hexes, 1)
        table.add_row(str(k + 1), str(pts),
                      say("position", column=action.anchor[0], row=action.anchor[1],
                          rotation=action.rotation),
                      Text(str(group), style="bold" if touched else "dim"), covers)
    return Group(Text(title, style="bold"), table)


# -- the placing turn ------------------------------------------------------------------------


@dataclass
class _Listing:
    """Where the player is in the list of placements: which are shown (all, or those covering
    the hex `label`), from where, how many a page."""

    shown: np.ndarray
    start: int = 0
    label: str = ""
    count: int = 0


def _help(has_wedding: bool, filtered: bool, width: int) -> Text:
    keys = [k for k in HELP_PLACE if (has_wedding or k != "wedding")
            and (filtered or k != "all")]
    lines = [Text(say(f"help.{k}", points=POINTS_DONATION)) for k in keys]
    return Text.assemble(pack(lines, width, sep=" · "), "\n",
                         say("help.group", points=POINTS_GONZAGA_TILE), style="dim")


def _listing_renderable(v: PlayerView, me: int, legal: LegalActions, ranked: RankedPlacements,
                        at: _Listing, count: int, has_wedding: bool) -> RenderableType:
    plan = v.players[me].plan
    assert plan is not None
    planned = words.plan_cards(v.board, plan)
    if not legal.placement_count:
        key = "placing.none-wedding" if has_wedding else "placing.none"
        return Text(say(key, plan=planned), style="yellow")
    page = say("placing.page", first=at.start + 1, last=min(at.start + count, len(at.shown)),
               total=len(at.shown))
    if at.label:
        title = say("placing.covering", plan=planned, label=at.label, page=page)
    else:
        title = say("placing.best", plan=planned, page=page, count=legal.placement_count)
    return render_placement_list(v, me, legal, ranked, at.shown, at.start, count, title,
                                 ways=not at.label)


def _placing_panel(t: Prompts, v: PlayerView, me: int, legal: LegalActions,
                   ranked: RankedPlacements, at: _Listing,
                   notice: Text | None) -> tuple[RenderableType, list[int]]:
    """The page of placements with the help under it, as many lines as leave the map
    room (`at.count` is set to the page's size); also the hexes it covers (where the map
    looks)."""
    plan = v.players[me].plan
    assert plan is not None and legal.fief is not None
    has_wedding = len(legal.wedding_pairs) > 0
    width = t.console.width
    help_text = _help(has_wedding, bool(at.label), width)
    room = t.console.height - 1 - (lines_needed(notice, width) if notice else 0)
    room -= min(MAP_MIN_LINES, v.board.rows + 1)
    card = t.fief_card(v, me)
    count = t.top
    while True:
        listing = _listing_renderable(v, me, legal, ranked, at, count, has_wedding)
        panel = Group(t.beside(listing, card), help_text)
        if count <= 3 or lines_needed(panel, width) <= room:
            break
        count -= 1
    at.count = count
    cells = _cells(legal)
    focus = sorted({int(h) for i in at.shown[at.start:at.start + count] for h in cells[int(i)]})
    return panel, focus or region_card_hexes(v, plan.region)


def _cells(legal: LegalActions) -> np.ndarray:
    arrays = legal.placement_arrays()
    return arrays.cells if arrays is not None else np.zeros((0, 1), dtype=np.int32)


def _page(answer: str, at: _Listing, ranked: RankedPlacements) -> bool:
    """Paging through the list (n, p, all); True if the answer was one of those."""
    low = answer.lower()
    if low in NEXT:
        if at.start + at.count >= len(at.shown):
            raise Retry(say("placing.last-page"))
        at.start += at.count
    elif low in PREVIOUS:
        if at.start == 0:
            raise Retry(say("placing.first-page"))
        at.start = max(0, at.start - at.count)
    elif low in ALL:
        at.shown, at.start, at.label = ranked.distinct, 0, ""
    else:
        return False
    return True


def _filter(v: PlayerView, answer: str, target: tuple[int, int, int | None] | None,
            legal: LegalActions, ranked: RankedPlacements, at: _Listing) -> bool:
    """A hex or a place named: the list narrows to the placements covering it; True if the
    answer was one."""
    board = v.board
    hex_asked: int | None = None
    if target is not None and target[2] is None:
        hex_asked = board.index_of.get((target[0], target[1]))
        if hex_asked is None:
            raise Retry(say("placing.off-map", column=target[0], row=target[1]))
    elif target is None:
        hex_asked = find_place(board, answer)
    if hex_asked is None:
        return False
    covering = np.flatnonzero((_cells(legal) == hex_asked).any(axis=1))
    keep = np.isin(ranked.order, covering)
    label = board.hex_label(hex_asked)
    if not keep.any():
        raise Retry(say("placing.not-covered", label=label))
    at.shown, at.start, at.label = ranked.order[keep], 0, label
    return True


def _typed_position(t: Prompts, v: PlayerView, me: int, fief: int,
                    target: tuple[int, int, int | None]) -> Action | None:
    """A position typed with its rotation: checked by the rules, then previewed."""
    col, row, rotation = target
    assert rotation is not None
    action = PlaceFief(me, fief, (col, row), rotation)
    try:
        action_events(v, action)
    except IllegalAction as exc:
        raise Retry(say("placing.not-there", reason=words.refusal(v.board, exc))) from None
    return action if preview(t, v, me, action) else None


def _answer(t: Prompts, v: PlayerView, me: int, legal: LegalActions, ranked: RankedPlacements,
            at: _Listing, answer: str, focus: list[int]) -> Action | None:
    """What one answer to "Your move" does: an action chosen, or None to ask again."""
    fief = legal.fief
    assert fief is not None
    low = answer.lower()
    if not answer:
        raise Retry(say("placing.empty"))
    if _page(answer, at, ranked):
        return None
    if low == "m":
        t.cycle_width(v.board)
        return None
    if low in DONATE:
        t.screen(v, Text(say("placing.donating", fief=fief, points=POINTS_DONATION),
                         style="bold"), focus=focus)
        return Donate(me) if t.confirm(say("placing.donate", fief=fief,
                                           points=POINTS_DONATION)) else None
    if low in WEDDING:
        if not len(legal.wedding_pairs):
            raise Retry(say("placing.no-wedding", card=words.card_name(v.board, WEDDING_CARD)))
        return wedding(t, v, me, legal)
    if answer.isdigit():
        k = int(answer)
        if not 1 <= k <= len(at.shown):
            raise Retry(say("placing.not-listed", k=k, n=len(at.shown)) if len(at.shown)
                        else say("placing.nothing"))
        action = legal.placement(int(at.shown[k - 1]))
        return action if preview(t, v, me, action) else None
    target = parse_position(answer)
    if _filter(v, answer, target, legal, ranked, at):
        return None
    if target is not None:
        return _typed_position(t, v, me, fief, target)
    raise Retry(say("placing.unknown", answer=answer))


def place(t: Prompts, v: PlayerView, me: int, legal: LegalActions) -> Action:
    """Pick a placement from the best-scoring list or by position, donate, or wed."""
    assert legal.fief is not None and v.players[me].plan is not None
    ranked = RankedPlacements.of(v, me, legal)
    at = _Listing(ranked.distinct)
    notice: Text | None = None
    while True:
        panel, focus = _placing_panel(t, v, me, legal, ranked, at, notice)
        t.screen(v, panel, focus=focus, notice=notice)
        notice = None
        answer = t.ask(say("placing.question"))
        try:
            action = _answer(t, v, me, legal, ranked, at, answer, focus)
        except Retry as exc:
            notice = Text(str(exc), style="yellow")
            continue
        if action is not None:
            return action


# -- the preview and the Wedding -------------------------------------------------------------


def preview(t: Prompts, v: PlayerView, me: int, action: PlaceFief | Wedding) -> bool:
    """Show an action on the map with what it scores; True if the player confirms it."""
    board = v.board
    colour = v.players[me].colour
    events = action_events(v, action)
    hexes = covered_hexes(v, action)
    if isinstance(action, PlaceFief):
        highlight = Highlight(tuple(hexes), frozenset(castle_hexes(board, action)), colour)
        what = words.move_text(action)
    else:
        highlight = Highlight(tuple(hexes), frozenset(), colour, rings=True)
        what = wedding_text(board, hexes)
    total = sum(e.points for e in events)
    line = Text.assemble((say("preview.label"), "bold"), what, " — ",
                         (say("preview.points", points=total), "bold green"))
    if events:
        line.append(": " + ", ".join(words.event_short(board, e) for e in events))
    pieces = len(hexes) if isinstance(action, Wedding) else 1
    group, _ = group_after(v, me, list(hexes), pieces)
    line.append(say("preview.group", pieces=words.count(group, "piece")), style="dim")
    t.screen(v, line, highlight=highlight)
    return t.confirm(say("preview.question"))


Worth = tuple[int, int, int]  # points, objective cities, the group it makes


def _ring_worth(v: PlayerView, me: int, hexes: list[int]) -> Worth:
    board = v.board
    action = Wedding(me, board.coords[hexes[0]],
                     board.coords[hexes[1]] if len(hexes) > 1 else None)
    try:
        pts = sum(e.points for e in action_events(v, action))
    except IllegalAction:  # pragma: no cover - only legal hexes are offered
        pts = 0
    group, _ = group_after(v, me, hexes, len(hexes))
    return pts, len(set(objective_hexes(v, me)).intersection(hexes)), group


def _ring_line(board: Board, k: int, h: int, value: Worth) -> Text:
    pts, goal, group = value
    out = Text.assemble((f"  {k}) ", "bold cyan"), f"{board.hex_label(h)}: ",
                        (say("wedding.points", points=pts), "bold"))
    if goal:
        out.append(" ★", style="bold yellow")
    out.append(say("wedding.group", size=group), style="bold" if group > 1 else "dim")
    return out


def wedding(t: Prompts, v: PlayerView, me: int, legal: LegalActions) -> Wedding | None:
    """A Wedding: the first ring among the legal hexes, then maybe a second beside it."""
    board = v.board
    pairs = legal.wedding_pairs
    rings = v.players[me].rings
    firsts = {int(f): _ring_worth(v, me, [int(f)]) for f in set(pairs[:, 0].tolist())}
    ranked = sorted(firsts, key=lambda h: (-firsts[h][0], -firsts[h][1], -firsts[h][2], h))
    options = ranked[: t.top]
    heading = Text(say("wedding.first-heading", rings=words.count(rings, "ring")), style="bold")
    t.screen(v, Group(heading, *[_ring_line(board, k, h, firsts[h]) for k, h in
                                 enumerate(options, 1)]), focus=options)
    first = _hex_choice(t, say("wedding.first"), options, set(firsts), board)
    if first is None:
        return None
    partners = {int(s) for f, s in pairs.tolist() if f == first and s >= 0}
    partners |= {int(f) for f, s in pairs.tolist() if s == first}
    second: int | None = None
    if partners:
        values = {h: _ring_worth(v, me, [first, h]) for h in partners}
        ranked = sorted(partners, key=lambda h: (-values[h][0], -values[h][1], h))
        heading = Text(say("wedding.second-heading"), style="bold")
        t.screen(v, Group(heading, *[_ring_line(board, k, h, values[h]) for k, h in
                                     enumerate(ranked, 1)]),
                 highlight=Highlight((first,), colour=v.players[me].colour, rings=True))
        second = _hex_choice(t, say("wedding.second"), ranked, partners, board, none_ok=True)
    action = Wedding(me, board.coords[first],
                     board.coords[second] if second is not None else None)
    return action if preview(t, v, me, action) else None


def _hex_choice(t: Prompts, prompt: str, options: list[int], allowed: set[int], board: Board,
                none_ok: bool = False) -> int | None:
    """A ring's hex: by its number on the list or as col,row (or none, or back)."""
    while True:
        answer = t.ask(say("wedding.ask-second" if none_ok else "wedding.ask-first",
                           question=prompt))
        low = answer.lower()
        if (low in NONE) if none_ok else (low in BACK):
            return None
        if answer.isdigit() and 1 <= int(answer) <= len(options):
            return options[int(answer) - 1]
        try:
            pos = parse_position(answer)
        except Retry:
            pos = None
        if pos is not None and pos[2] is None:
            h = board.index_of.get((pos[0], pos[1]))
            if h is not None and h in allowed:
                return h
            t.say(say("wedding.not-legal", column=pos[0], row=pos[1]))
            continue
        t.say(say("wedding.retry-second" if none_ok else "wedding.retry-first"))
