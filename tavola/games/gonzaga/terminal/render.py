"""The table around the map: status, player boards, score track, log, fiefs, objective cards,
the whole screen fitted to the terminal, and the end of the game.

Every function is pure: it takes a view and returns rich renderables, so the screen can never
show what the view hides, and tests can look at it without a terminal.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from .. import text as words
from ..actions import Donate, PlaceFief, Wedding
from ..board import Board, FiefShape
from ..engine import PlayerView, uncovered_count
from ..state import (
    COLOUR_DIGIT,
    LAST_TURN_THRESHOLD,
    MAX_ROUNDS,
    RINGS,
    GameEnded,
    LastTurnChecked,
    Phase,
    PlansRevealed,
    Reason,
    RoundStarted,
    TurnPlayed,
)
from .hexmap import (
    ANCHOR,
    CASTLE,
    CITY_INK,
    HEX_WIDTHS,
    PLACE_BG,
    PLAYER_BG,
    PLAYER_FG,
    PLAYER_INK,
    Glyphs,
    Highlight,
    hexes_text,
    map_width,
    objective_hexes,
    player_name,
    render_legend,
    render_map,
    swatch,
)
from .layout import lines_needed, pack, section, titled, window

SIDE_MIN = 38  # narrowest side panel beside the map
LOG_LINES = 12  # the log's length when the side panel has no height to fill
RECENT_LINES = 3  # log lines above the map of a terminal too narrow for the side panel
NARROW_MAP_ROWS = 6  # rows of the map those lines never take

card_name = words.card_name
say = words.say


# -- status, player boards, score track ------------------------------------------------------


def _turn_order(v: PlayerView) -> Text:
    """The order of this round's turns: who has played (dim) and who is to play (reversed)."""
    out = Text()
    for k, seat in enumerate(v.order):
        if k:
            out.append(" › ")
        name = player_name(v, seat)
        if k == v.turn:
            name.stylize("reverse")
        elif k < v.turn:
            name.stylize("dim")
        out.append_text(name)
    return out


def _last_turn(v: PlayerView) -> Text:
    """Where the end of the game stands: the last round fixed, or the next Last Turn check."""
    out = Text()
    if v.final_round is not None:
        if v.round >= v.final_round and v.phase is not Phase.OVER:
            out.append(say("status.last-round"), style="bold red")
        else:
            out.append(say("status.final-round", round=v.final_round), style="bold yellow")
    elif v.last_turn_check is not None and v.phase is not Phase.OVER:
        if v.last_turn_holder == v.viewer:  # "You counts" is no sentence: said to the holder
            out.append(say("status.last-turn-yours", round=v.last_turn_check))
        else:
            out.append(say("status.last-turn", who=v.players[v.last_turn_holder].name,
                           round=v.last_turn_check))
        out.append(say("status.uncovered", n=uncovered_count(v)), style="bold")
        out.append(say("status.threshold", threshold=LAST_TURN_THRESHOLD), style="dim")
    return out


def render_status(v: PlayerView) -> Text:
    """Round, turn order and the state of the Last Turn card."""
    out = Text()
    out.append(say("status.round", round=v.round), style="bold")
    out.append(say("status.detail", rounds=MAX_ROUNDS, phase=words.phase_name(v.phase),
                   scenario=v.rules.scenario.name))
    if v.phase is Phase.PLACING and v.order:
        out.append("\n" + say("status.order"))
        out.append_text(_turn_order(v))
    out.append("\n")
    out.append_text(_last_turn(v))
    if v.church:
        donations = ", ".join(say("status.donation", who=v.players[p].name, fief=f)
                              for p, f in v.church)
        out.append("\n" + say("status.church", donations=donations), style="dim")
    return out


def _player_board(v: PlayerView, seat: int) -> Text:
    """One player's board: name, points, rings, fief card, resting cards, leagues, plan."""
    board = v.board
    p = v.players[seat]
    out = Text.assemble(swatch(p.colour, 1), " ", player_name(v, seat))
    if seat == v.viewer:
        out.append(say("players.you"), style="dim")
    if seat in v.winners and v.phase is Phase.OVER:
        out.append(" ♛", style="bold yellow")
    out.append(" " + say("players.points", points=p.score) + " ", style="bold")
    out.append("●" * p.rings, style=PLAYER_FG[p.colour])
    out.append("○" * max(0, RINGS - p.rings), style="dim")
    if v.phase is Phase.PLANNING:
        out.append(say("players.planned" if p.has_planned else "players.planning"),
                   style="green" if p.has_planned else "dim")
    out.append("\n  ")
    if p.fief is not None:
        out.append(say("players.fief", fief=p.fief, card=p.fief + COLOUR_DIGIT[p.colour]))
    else:
        out.append(say("players.placed" if v.phase is Phase.PLACING else "players.no-fief"),
                   style="dim")
    if p.resting and not (v.phase is Phase.PLACING and p.played):
        out.append(say("players.rests"), style="dim")
        out.append(", ".join(card_name(board, c) for c in p.resting), style="dim")
    if p.leagues:
        out.append(say("players.leagues"), style="dim")
        out.append(", ".join(board.seas[s].name.split()[-1] for s in sorted(p.leagues)))
    if v.phase is Phase.PLACING and p.played:
        out.append(say("players.plan"), style="dim")
        out.append(" + ".join(card_name(board, c) for c in p.played), style="bold")
    return out


def render_players(v: PlayerView) -> Text:
    """Each player's board: colour, score, rings, this round's fief card, resting cards, sea
    leagues and, once revealed, the plan."""
    return Text("\n").join(_player_board(v, seat) for seat in range(len(v.players)))


def render_score_track(v: PlayerView, *, width: int = 30) -> Text:
    """The scoring track as bars, highest first."""
    top = max([p.score for p in v.players] + [1])
    out = Text()
    ranked = sorted(range(len(v.players)), key=lambda i: -v.players[i].score)
    name_width = max(len(p.name) for p in v.players)
    for k, seat in enumerate(ranked):
        p = v.players[seat]
        if k:
            out.append("\n")
        out.append(f"{p.name:<{name_width}} ", style=PLAYER_FG[p.colour])
        n = round(width * p.score / top)
        out.append("█" * n, style=PLAYER_FG[p.colour])
        out.append(f" {p.score}", style="bold")
    return out


# -- the log ---------------------------------------------------------------------------------


def wedding_text(board: Board, hexes: Sequence[int]) -> str:
    """Wedding: rings at 3,4 + 4,4."""
    key = "entry.wedding-two" if len(hexes) > 1 else "entry.wedding"
    return say(key, hexes=hexes_text(board, hexes))


def names_text(v: PlayerView, seats: Iterable[int]) -> Text:
    return Text(", ").join(player_name(v, seat) for seat in seats)


def _turn_line(v: PlayerView, entry: TurnPlayed) -> Text:
    board = v.board
    out = Text()
    out.append_text(player_name(v, entry.player))
    action = entry.action
    if isinstance(action, PlaceFief):
        out.append(say("entry.fief", fief=action.fief, column=action.anchor[0],
                       row=action.anchor[1], rotation=action.rotation))
    elif isinstance(action, Wedding):
        out.append(" " + say("entry.wedding-two" if action.second else "entry.wedding",
                             hexes=hexes_text(board, entry.hexes)))
    else:
        out.append(say("entry.donated"))
    total = sum(e.points for e in entry.events)
    out.append(f" +{total}", style="bold green" if total else "dim")
    if entry.events and not isinstance(action, Donate):
        out.append(" (" + ", ".join(words.event_short(board, e) for e in entry.events) + ")",
                   style="dim")
    return out


def _end_line(v: PlayerView, entry: GameEnded) -> Text:
    out = Text()
    out.append(say("entry.over", round=entry.round), style="bold")
    for e in entry.events:
        if e.reason is Reason.GONZAGA_TILE:
            out.append_text(player_name(v, e.player))
            out.append(say("entry.tile", points=e.points))
    out.append(say("entry.winner" if len(entry.winners) == 1 else "entry.shared"))
    out.append_text(names_text(v, entry.winners))
    return out


def describe_entry(v: PlayerView, entry: Any) -> Text:
    """One journal entry as a log line with the points it scored."""
    out = Text()
    if isinstance(entry, RoundStarted):
        out.append(say("entry.round", round=entry.round), style="bold")
        for seat, fief in enumerate(entry.fiefs):
            colour = v.players[seat].colour
            out.append(f"{fief + COLOUR_DIGIT[colour]} ", style=PLAYER_FG[colour])
    elif isinstance(entry, PlansRevealed):
        out.append(say("entry.plans"), style="bold")
        out.append_text(Text(", ").join(
            Text.assemble(player_name(v, plan.player), f" {words.plan_cards(v.board, plan)}")
            for plan in entry.plans))
    elif isinstance(entry, TurnPlayed):
        out = _turn_line(v, entry)
    elif isinstance(entry, LastTurnChecked):
        out.append(say("entry.last-turn"), style="bold")
        out.append(say("entry.uncovered", n=entry.uncovered))
        if entry.last_round_next:
            out.append(say("entry.last-next", round=entry.round + 1), style="bold red")
        else:
            out.append(say("entry.play-on"))
    elif isinstance(entry, GameEnded):
        out = _end_line(v, entry)
    return out


def render_log(v: PlayerView, *, lines: int = 12, width: int | None = None) -> Text:
    """The most recent public events, newest last, in at most `lines` lines at `width`."""
    picked: list[Text] = []
    used = 0
    for entry in reversed(v.journal):
        text = describe_entry(v, entry)
        need = lines_needed(text, width) if width else 1
        if used + need > lines:
            break
        picked.append(text)
        used += need
    if not picked:
        return Text(say("log.empty"), style="dim")
    return Text("\n").join(reversed(picked))


# -- fiefs and objectives --------------------------------------------------------------------


def render_fief_shape(shape: FiefShape, rotation: int = 0, colour: str = "red") -> Text:
    """A small drawing of a fief: its hexes in the owner's colour, castles ▲, the anchor ◆.

    The anchor is the hex you name when typing a position such as `12,7 r3`.
    """
    cells, castle_flags = shape.rotated(rotation)
    xs = [4 * q + 2 * r for q, r in cells]
    rs = [r for _, r in cells]
    x0, r0 = min(xs), min(rs)
    grid = [[(" ", "")] * (max(xs) - x0 + 3) for _ in range(max(rs) - r0 + 1)]
    style = f"bold {PLAYER_INK.get(colour, 'white')} on {PLAYER_BG.get(colour, colour)}"
    for k, (x, r, castle) in enumerate(zip(xs, rs, castle_flags, strict=True)):
        line = grid[r - r0]
        line[x - x0] = (ANCHOR if k == 0 else " ", style)
        line[x - x0 + 1] = (CASTLE if castle else " ", style)
        line[x - x0 + 2] = (" ", style)
    return Text("\n").join(Text.assemble(*line) for line in grid)


def render_fief_rotations(shape: FiefShape, colour: str, card: int | None = None, *,
                          per_row: int = 3) -> Table:
    """The fief in all six rotations, labelled r0..r5, to help type a position."""
    title = Text(say("fief.title", fief=shape.number) if card is None else
                 say("fief.card", fief=shape.number, card=card), style="bold")
    title.append(say("fief.marks", castle=CASTLE, anchor=ANCHOR), style="dim")
    table = Table.grid(padding=(0, 2))
    for _ in range(per_row):
        table.add_column(no_wrap=True, min_width=12)
    for start in range(0, 6, per_row):
        table.add_row(*[Text(f"r{k}", style="dim") for k in range(start, start + per_row)])
        table.add_row(*[render_fief_shape(shape, k, colour)
                        for k in range(start, start + per_row)])
    return titled(title, table)


def _whose(name: str) -> str:
    return say("whose.you") if name == say("seat.you") else say("whose.other", name=name)


def _objective_city(v: PlayerView, seat: int, city: Any, *, compact: bool, over: bool,
                    name_width: int) -> Text:
    """One city of an objective card: covered or not, where it is or who holds it."""
    board = v.board
    mine = v.fief_owner[city.hex] == seat or v.ring_owner[city.hex] == seat
    other = int(v.fief_owner[city.hex])
    out = Text.assemble(("✓" if mine else "·", "bold green" if mine else "dim"),
                        (Glyphs.of(board).symbol[city.symbol], f"{CITY_INK} {PLACE_BG}"))
    if compact:
        where = words.hex_text(city.at)
        out.append(f" {words.word(city.name):<{name_width}} {where:<5}",
                   style="dim" if not mine and other >= 0 else "")
    elif over:
        out.append(say("objective.city-region", city=words.word(city.name),
                       region=card_name(board, city.region)))
        if not mine and other >= 0:
            out.append(f" {v.players[other].name}", style="dim")
    else:
        out.append(say("objective.city", city=words.word(city.name),
                       region=card_name(board, city.region),
                       at=words.hex_text(city.at)))
        if not mine and other >= 0:
            out.append(say("objective.taken", whose=_whose(v.players[other].name)),
                       style="dim")
    return out


def render_objective(v: PlayerView, seat: int, *, compact: bool = False,
                     width: int = 41) -> Text:
    """An objective card: its two symbols and six cities, each marked covered or not.

    `compact` fits a side panel `width` wide: no region names, two cities a line when they fit
    whole. Once the game is over the card is shown as revealed: who holds each city instead of
    where it is.
    """
    board = v.board
    p = v.players[seat]
    if p.objective is None:
        return Text(say("objective.hidden"), style="dim")
    card = board.objectives[p.objective]
    cities = list(board.objective_cities(card.id))
    covered = sum(1 for c in cities if v.fief_owner[c.hex] == seat or v.ring_owner[c.hex] == seat)
    over = v.phase is Phase.OVER
    total = words.objective_total(covered)
    out = Text()
    if compact or over:
        out.append(" + ".join(words.word(board.symbols[s].name) for s in card.symbols),
                   style="bold")
        out.append(f"\n{total}" if over else f": {total}", style="bold" if over else "")
    else:
        glyphs = Glyphs.of(board)
        out.append(say("objective.card", card=card.id), style="bold")
        out.append(" + ".join(f"{words.word(board.symbols[s].name)} ({glyphs.symbol[s]})"
                              for s in card.symbols))
    name_width = max(len(words.word(c.name)) for c in cities)
    per_line = 2 if 2 * (name_width + 9) + 1 <= width else 1
    for k, city in enumerate(cities):
        if compact:
            out.append("\n" if k % per_line == 0 else " ")
        else:
            out.append("\n" if over else "\n  ")
        out.append_text(_objective_city(v, seat, city, compact=compact, over=over,
                                        name_width=name_width))
    if not compact and not over:
        out.append(say("objective.end", total=total), style="bold")
    return out


# -- whole screens ---------------------------------------------------------------------------


def auto_hex_width(board: Board, width: int) -> int:
    """The widest hexes that leave room for the side panel (or the narrowest if none do)."""
    for w in (4, 3, 2):
        if map_width(board, w) + 1 + SIDE_MIN <= width:
            return w
    for w in (4, 3, 2):
        if map_width(board, w) <= width:
            return w
    return 2


def _side_sections(v: PlayerView, width: int) -> dict[str, Group]:
    me = v.viewer
    track = min(30, max(4, width - max(len(p.name) for p in v.players) - 6))
    sections: dict[str, Group] = {
        "status": section(say("side.status"), render_status(v)),
        "players": section(say("side.players"), render_players(v)),
        "score": section(say("side.score"), render_score_track(v, width=track)),
    }
    if me is not None and v.players[me].objective is not None and v.phase is not Phase.OVER:
        sections["objective"] = section(say("side.objective"),
                                        render_objective(v, me, compact=True, width=width))
    sections["legend"] = section(say("side.legend"), render_legend(v, width=width))
    return sections


def render_side(v: PlayerView, *, width: int = 41, height: int | None = None,
                fill: int | None = None) -> Group:
    """The side of the table: status, player boards, score track, own objective, legend, log.

    The log gets the lines left to `fill` (at least three). With a `height` the side never
    takes more lines: sections that do not fit are left out (the log first, then the score
    track, the legend, the objective).
    """
    sections = _side_sections(v, width)
    keep = list(sections)
    if height is None and fill is None:
        lines = LOG_LINES
    else:
        heights = {k: lines_needed(s, width) for k, s in sections.items()}
        used = sum(heights.values())
        if height is not None:
            keep, used = [], 0
            for k in ("status", "players", "objective", "legend", "score"):
                if k in sections and (used + heights[k] <= height or not keep):
                    keep.append(k)
                    used += heights[k]
        lines = max(3, (fill or 0) - used - 1)  # - the log's title
        if height is not None:
            lines = min(lines, height - used - 1)
    shown = [s for k, s in sections.items() if k in keep]
    if lines >= 1:
        shown.append(section(say("side.log"), render_log(v, lines=lines, width=width)))
    return Group(*shown)



def _bar_items(v: PlayerView) -> list[Text]:
    items = [Text(say("bar.round", round=v.round, rounds=MAX_ROUNDS), style="bold"),
             Text(words.phase_name(v.phase)), Text(v.rules.scenario.name)]
    if v.final_round is not None and v.phase is not Phase.OVER:
        last = v.round >= v.final_round
        items.append(Text(say("bar.last-round") if last else
                          say("bar.final-round", round=v.final_round),
                          style="bold red" if last else "bold yellow"))
    elif v.last_turn_check is not None and v.phase is not Phase.OVER:
        items.append(Text(say("bar.last-turn", round=v.last_turn_check, n=uncovered_count(v),
                              threshold=LAST_TURN_THRESHOLD), style="dim"))
    return items


def render_bar(v: PlayerView, *, width: int) -> Text:
    """The state of the game in two or three lines, for a terminal too small for the side
    panel: round, phase, Last Turn, and each player's points and rings (in turn order)."""
    placing = v.phase is Phase.PLACING and bool(v.order)
    seats = list(v.order) if placing else range(len(v.players))
    chips = []
    for k, seat in enumerate(seats):
        p = v.players[seat]
        chip = Text.assemble(swatch(p.colour, 1), " ", player_name(v, seat),
                             (" " + say("players.points", points=p.score) + " ", "bold"),
                             ("●" * p.rings, PLAYER_FG[p.colour]))
        if placing and k == v.turn:
            chip.stylize("reverse", 2)
        elif v.phase is Phase.PLANNING:
            chip.append(" ✓" if p.has_planned else "", style="green")
        chips.append(chip)
    return Text.assemble(pack(_bar_items(v), width, sep=" · "), "\n",
                         pack(chips, width, sep=" › " if placing else " · "))


def render_screen(v: PlayerView, *, width: int = 160, height: int | None = None,
                  hex_width: int | None = None, highlight: Highlight | None = None,
                  focus: Iterable[int] = ()) -> RenderableType:
    """The table as one renderable: the map beside (or above) the boards, legend and log.

    With a `height` the screen takes at most that many lines: when the whole map does not
    fit, the part of it around `focus` (the hexes of interest; a preview's own hexes) is
    drawn, and on a narrow terminal the side panel gives way to a short status bar.
    """
    board = v.board
    hw = hex_width or auto_hex_width(board, width)
    goals = objective_hexes(v, v.viewer) if v.viewer is not None else []
    mw = map_width(board, hw)
    side_width = width - mw - 1
    beside = side_width >= SIDE_MIN
    full = board.rows + 1

    def draw(rows: range | None = None, cols: range | None = None) -> Text:
        return render_map(v, hex_width=hw, highlight=highlight, goal_hexes=goals, rows=rows,
                          cols=cols)

    def side_by_side(the_map: Text, lines: int, limit: int | None) -> Table:
        grid = Table.grid(padding=(0, 1))
        grid.add_column(width=mw, no_wrap=True)
        grid.add_column(width=side_width)
        grid.add_row(the_map, render_side(v, width=side_width, height=limit, fill=lines))
        return grid

    if beside and (height is None or full <= height):
        # The side may run past the map's foot when the terminal has the lines for it.
        return side_by_side(draw(), full, height)
    if not beside and height is None:
        return Group(draw(), render_side(v, width=width))
    assert height is not None
    spot = [*highlight.hexes] if highlight is not None else list(focus)
    rows_of = [board.coords[h][1] for h in spot]
    cols_of = [board.coords[h][0] for h in spot]
    if beside:
        rows = window(rows_of, max(1, height - 1), board.rows)
        return side_by_side(draw(rows), len(rows) + 1, len(rows) + 1)
    head = _narrow_head(v, width, height)
    rows = window(rows_of, max(1, height - lines_needed(head, width) - 1), board.rows)
    cols = window(cols_of, max(1, (width - 3 - hw // 2) // hw), board.columns)
    return Group(head, draw(rows, cols))


def _narrow_head(v: PlayerView, width: int, height: int) -> Text:
    """Above the map on a small terminal: the status bar and the newest lines of the log (what
    the others did since your move), as many as leave the map `NARROW_MAP_ROWS` rows."""
    bar = render_bar(v, width=width)
    room = min(RECENT_LINES, height - lines_needed(bar, width) - 1 - NARROW_MAP_ROWS)
    if room < 1 or not v.journal:
        return bar
    return Text("\n").join([bar, render_log(v, lines=room, width=width)])


def map_hex_width(board: Board, width: int, chosen: int | None) -> int:
    """The hex width for the whole map at this terminal width: the chosen one if it fits."""
    fitting = [w for w in HEX_WIDTHS if map_width(board, w) <= width]
    return min(chosen or max(fitting, default=2), max(fitting, default=2))
