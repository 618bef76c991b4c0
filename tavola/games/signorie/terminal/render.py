"""Drawing a Signorie position with rich: the shared board, the player boards, menus with
previews, the reward step and the final scoring. Pure functions of a position (a view), so
tests read what they draw without a terminal.

Each seat has its board's colour and, for those who cannot tell colours apart, the colour's
initial in brackets (`[Y]`) wherever its pieces appear.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from typing import Any

from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from .. import text as words
from ..actions import TakeDie
from ..engine import VP_TILE, die_cost, threshold_of
from ..preview import Gain
from ..state import ACTIONS, OVER, Position
from ..tables import FEMALE, MALE, ROW_NAMES

say = words.say
M, F = words.SEX_SIGNS

#: Rich styles of the board colours and the die colours (names as the component data has them).
PLAYER_STYLE = {"yellow": "bold yellow", "red": "bold red", "purple": "bold magenta",
                "blue": "bold dodger_blue1"}
DIE_STYLE = {"yellow": "yellow", "red": "red", "violet": "magenta", "grey": "grey70",
             "turquoise": "cyan"}


def player_style(p: Position, seat: int) -> str:
    return PLAYER_STYLE.get(p.colour_of(seat), "bold")


def letter(p: Position, seat: int) -> str:
    """The second cue of a seat's colour: its initial, `Y` for yellow."""
    return p.colour_of(seat)[0].upper()


def mark(p: Position, seat: int, suffix: str = "") -> Text:
    """A seat's piece on the board: its letter in its colour (`Y`, `R2`, `B♀`)."""
    return Text(letter(p, seat) + suffix, style=player_style(p, seat))


def tag(p: Position, seat: int) -> Text:
    """`[Y] Name`, in the seat's colour."""
    return Text(f"[{letter(p, seat)}] {p.names[seat]}", style=player_style(p, seat))


def die_colour(colour: str) -> Text:
    return Text(words.colour_name(colour), style=DIE_STYLE.get(colour, ""))


def _joined(parts: Sequence[Text], sep: str = " ") -> Text:
    return Text(sep).join(parts) if parts else Text("·", style="dim")


# -- the shared board ---------------------------------------------------------------------------


def render_title(p: Position) -> Text:
    """Round, phase and the turn order, the seat to move and the seats that passed."""
    phase = {ACTIONS: "phase.actions", OVER: "phase.over"}.get(p.phase, "phase.rewards")
    out = Text(say("title", round=p.round, rounds=p.t.rounds, phase=say(phase)), style="bold")
    out.append("\n" + say("order"))
    moving = p.to_move()
    for i, seat in enumerate(p.order):
        if i:
            out.append(", ")
        if seat in moving:
            out.append(say("order.moves"), style="bold")
        out.append_text(tag(p, seat))
        if p.passed[seat] and p.phase == ACTIONS:
            out.append(say("order.passed"), style="dim")
    return out


def _assignment(p: Position, slot: int) -> str:
    t = p.t
    tile = p.assignment[slot]
    many = t.tile_repeat[tile]
    effect = words.effect_text(t.tile_effect[tile]) + (say("tile.each") if many else "")
    return say("tile.assignment", name=words.tile_name(t, tile), effect=effect,
               sign=words.SEX_SIGNS[t.assignment_slots[slot][1]],
               meeples=say("tile.meeples.many" if many else "tile.meeples.one"))


def _assignment_short(p: Position, slot: int) -> str:
    """An assignment in a turn's menu: its sex, how many meeples, what it does (♂1-3: ...)."""
    t = p.t
    tile = p.assignment[slot]
    many = t.tile_repeat[tile]
    effect = words.effect_text(t.tile_effect[tile]) + (say("tile.each") if many else "")
    meeples = say("tile.meeples.many" if many else "tile.meeples.one")
    return f"{words.SEX_SIGNS[t.assignment_slots[slot][1]]}{meeples}: {effect}"


def _signoria(p: Position, c: int) -> str:
    """The Signoria action's name, and its amount where it has one (Florins: 3 florins)."""
    t = p.t
    name, effect = words.signoria_name(t, c), t.signoria[c]
    return say("dice.signoria-effect", name=name, effect=words.effect_text(effect)) \
        if effect[1] else name


#: Below this width the dice areas are told colour by colour, each fact on its own line, and
#: the career bonuses go under their table.
WIDE = 110


class ByWidth:
    """A table drawn one way on a wide terminal and another on a narrow one, chosen when it is
    printed (the console's width is known then)."""

    def __init__(self, wide: Callable[[], RenderableType],
                 narrow: Callable[[], RenderableType]) -> None:
        self.wide, self.narrow = wide, narrow

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.wide() if options.max_width >= WIDE else self.narrow()


def render_dice(p: Position) -> ByWidth:
    """Per colour: the slot's cost, the dice left (with what each costs), the Signoria action,
    the two assignment tiles of this round and the helper column the slot hires into."""
    return ByWidth(lambda: _dice_table(p), lambda: _dice_by_colour(p))


def _dice_table(p: Position) -> Table:
    t = p.t
    table = Table(title=say("dice.title"), title_justify="left", box=box.SIMPLE_HEAD,
                  padding=(0, 1))
    for key in ("dice.colour", "dice.cost", "dice.dice"):
        table.add_column(say(key), no_wrap=True)
    table.add_column(say("dice.signoria"))
    table.add_column(say("dice.assignment", sex=M))
    table.add_column(say("dice.assignment", sex=F))
    table.add_column(say("dice.hires"))
    for c, colour in enumerate(t.colours):
        dice = [f"{v} ({die_cost(p, c, v)})" for v in p.dice[c]]
        slots = t.colour_assignment_slots[c]
        by_sex = {t.assignment_slots[s][1]: _assignment(p, s) for s in slots}
        table.add_row(die_colour(colour), str(t.cost[c]),
                      " ".join(dice) or Text(say("dice.none"), style="dim"),
                      _signoria(p, c),
                      by_sex.get(MALE, ""), by_sex.get(FEMALE, ""),
                      die_colour(t.colours[t.ring[c]]))
    return table


def _dice_by_colour(p: Position) -> Table:
    """The dice areas on a narrow terminal: a colour and its cost, then its facts, one a line."""
    t = p.t
    table = Table(title=say("dice.title"), title_justify="left", box=box.SIMPLE_HEAD,
                  padding=(0, 1))
    table.add_column(say("dice.colour"), no_wrap=True)
    table.add_column(say("dice.cost"), no_wrap=True)
    table.add_column("")
    for c, colour in enumerate(t.colours):
        dice = " ".join(f"{v} ({die_cost(p, c, v)})" for v in p.dice[c]) or say("dice.none")
        slots = t.colour_assignment_slots[c]
        by_sex = {t.assignment_slots[s][1]: _assignment(p, s) for s in slots}
        facts = Text()
        for label, value in ((say("dice.dice"), Text(dice)),
                             (say("dice.signoria"), Text(_signoria(p, c))),
                             (say("dice.assignment", sex=M), Text(by_sex.get(MALE, ""))),
                             (say("dice.assignment", sex=F), Text(by_sex.get(FEMALE, ""))),
                             (say("dice.hires"), die_colour(t.colours[t.ring[c]]))):
            facts.append(f"{label}: ", style="dim")
            facts.append_text(value)
            facts.append("\n")
        facts.rstrip()
        table.add_row(die_colour(colour), str(t.cost[c]), facts)
    return table


def _tile(p: Position, tile: int) -> Text:
    if tile < 0:
        return Text(say("cities.empty"), style="dim")
    return Text(words.tile_text(p.t, tile))


def render_cities(p: Position) -> Table:
    """The cities in use: each slot's value and the meeple on it, and the two alliance tiles."""
    t = p.t
    table = Table(title=say("cities.title"), title_justify="left", box=box.SIMPLE_HEAD,
                  padding=(0, 1))
    for key in ("cities.city", "cities.slots", "cities.marriage", "cities.mission"):
        table.add_column(say(key))
    for city in p.cities:
        placed = p.city_meeples[city]
        slots = []
        for i, value in enumerate(t.city_slots[city]):
            cell = Text(f"{value}:")
            if i < len(placed):
                seat, sex = placed[i]
                cell.append_text(mark(p, seat, words.SEX_SIGNS[sex]))
            else:
                cell.append("·", style="dim")
            slots.append(cell)
        table.add_row(words.city_name(t.city_names[city]), _joined(slots, "  "),
                      _tile(p, p.city_tiles[city][0]), _tile(p, p.city_tiles[city][1]))
    return table


def render_tracks(p: Position) -> ByWidth:
    """The three career tracks (each seat's meeples per slot) and the Initiative track (the
    discs per slot, the one on top of a stack first). A slot's bonus is under its heading, or
    on a narrow terminal under the table."""
    return ByWidth(lambda: _tracks(p, narrow=False), lambda: _tracks(p, narrow=True))


def _tracks(p: Position, narrow: bool) -> Table:
    t = p.t
    bonuses = [f"{slot + 1}: +{words.effect_text(bonus)}"
               for slot, bonus in enumerate(t.career_bonus) if bonus is not None]
    table = Table(title=say("tracks.title"), title_justify="left", box=box.SIMPLE_HEAD,
                  padding=(0, 1), show_edge=False,
                  caption=" · ".join(bonuses) if narrow else None, caption_justify="left")
    table.add_column(say("tracks.track"), no_wrap=True)
    for slot, vp in enumerate(t.career_vp):
        head = say("tracks.slot", n=slot + 1, vp=vp, rank=t.career_rank[slot])
        bonus = t.career_bonus[slot]
        if bonus is not None:
            head += "\n*" if narrow else "\n+" + words.effect_text(bonus)
        table.add_column(head)
    for i, track in enumerate(t.tracks):
        cells = []
        for slot in range(len(t.career_vp)):
            here = [mark(p, seat, str(n) if n > 1 else "")
                    for seat in range(p.n) if (n := p.career[seat][i][slot])]
            cells.append(_joined(here))
        table.add_row(words.track_title(track), *cells)
    return table


def render_initiative(p: Position) -> Table:
    t = p.t
    table = Table(box=box.SIMPLE_HEAD, padding=(0, 1))
    table.add_column(say("tracks.track"), no_wrap=True)
    for slot, vp in enumerate(t.initiative_vp):
        table.add_column(say("tracks.init-slot", n=slot, vp=vp))
    cells = []
    for slot in range(len(t.initiative_vp)):
        discs = sorted((s for s in range(p.n) if p.init_pos[s] == slot),
                       key=lambda s: -p.init_stamp[s])
        cells.append(_joined([mark(p, s) for s in discs]))
    table.add_row(say("tracks.initiative"), *cells)
    return table


def render_rewards(p: Position) -> Text:
    """The reward tile of every round, the current one marked."""
    out = Text(say("rewards.title") + ": ", style="bold")
    for i, tile in enumerate(p.rewards):
        r = i + 1
        name = (words.effect_text(p.t.vp_tiles[tile - VP_TILE]) if tile >= VP_TILE
                else words.effect_text(p.t.bonus_tiles[tile]))
        style = "bold reverse" if r == p.round else ("dim" if r < p.round else "")
        if i:
            out.append(" · ")
        out.append(say("rewards.round", mark="▶" if r == p.round else "", round=r, tile=name),
                   style=style)
    return out


# -- the player boards --------------------------------------------------------------------------


def _helpers(p: Position, seat: int, col: int) -> Text:
    """The helper slots of one column: hired (■) or empty (□, with its cost)."""
    t = p.t
    line = Text()
    for k, h in enumerate(t.column_helpers[col]):
        hired = p.helpers[seat][h]
        if k:
            line.append(" · ")
        label = f"{'■' if hired else '□'} {words.helper_effect_text(t, h)}"
        line.append(label if hired else f"{label} ({t.helper_cost[h]})",
                    style="bold" if hired else "dim")
    return line


def _plan_row(p: Position, seat: int, row: int) -> Text:
    """A plan row: each shield with the tile on it (house and VP) or empty, then face-down
    tiles."""
    t = p.t
    tiles = list(p.rows[seat][row])
    parts = []
    for house in t.plan_shields[seat][row]:
        match = next((x for x in tiles if t.tile_house[x] == house), None)
        if match is None:
            parts.append(Text(t.houses[house], style="dim"))
        else:
            tiles.remove(match)
            parts.append(Text(f"✓{words.tile_text(t, match)}", style="bold green"))
    out = _joined(parts, " · ")
    if p.down[seat][row]:
        out.append(" + " + say("board.face-down", n=p.down[seat][row]))
    return out


def _dice_taken(p: Position, seat: int) -> Text:
    t = p.t
    parts = [Text(say("board.die", colour=words.colour_name(colour), value=v),
                  style=DIE_STYLE.get(colour, ""))
             for colour, v in zip(t.colours, p.taken[seat], strict=True) if v]
    out = _joined(parts, " · ")
    total, limit = sum(p.taken[seat]), threshold_of(p, seat)
    verdict = say("board.threshold.ok" if total <= limit else "board.threshold.over")
    out.append("\n" + say("board.threshold", sum=total, threshold=limit, verdict=verdict))
    return out


def render_player(p: Position, seat: int) -> Panel:
    """One player's board: florins and VP (title), meeples, dice taken against the threshold,
    helpers, plan rows, bride slots."""
    t = p.t
    a, s, th = p.avail[seat], p.stock[seat], p.threshold[seat]
    grid = Table.grid(padding=(0, 1))
    grid.add_column(no_wrap=True, style="bold")
    grid.add_column()
    grid.add_row(say("board.meeples"), say("board.meeple-counts", male=a[MALE], female=a[FEMALE],
                                           smale=s[MALE], sfemale=s[FEMALE], tmale=th[MALE],
                                           tfemale=th[FEMALE], m=M, f=F))
    grid.add_row(say("board.dice"), _dice_taken(p, seat))
    grid.add_row(say("board.helpers", hired=sum(p.helpers[seat])), "")
    for col, colour in enumerate(t.colours):
        grid.add_row(Text("  ").append_text(die_colour(colour)), _helpers(p, seat, col))
    grid.add_row(say("board.plan"), "")
    for row, name in enumerate(ROW_NAMES):
        grid.add_row(f"  {words.row_title(name)}", _plan_row(p, seat, row))
    wed = p.brides[seat]
    grid.add_row(say("board.brides"),
                 say("board.brides.count", filled=wed, total=len(t.bride_vp), vp=t.bride_vp[wed])
                 if wed < len(t.bride_vp) else say("board.brides.full", total=len(t.bride_vp)))
    title = Text(say("board.title", tag=f"[{letter(p, seat)}]", name=p.names[seat],
                     vp=p.vp[seat], florins=p.florins[seat]), style=player_style(p, seat))
    return Panel(grid, title=title, title_align="left",
                 border_style=player_style(p, seat).replace("bold ", ""))


def render_boards(p: Position, seats: Sequence[int], width: int) -> RenderableType:
    """Player boards, two side by side when the terminal is wide enough."""
    panels = [render_player(p, s) for s in seats]
    if width < 110 or len(panels) < 2:
        return Group(*panels)
    grid = Table.grid(expand=True, padding=(0, 1))
    grid.add_column(ratio=1)
    grid.add_column(ratio=1)
    for i in range(0, len(panels), 2):
        grid.add_row(*panels[i:i + 2], *([""] * (2 - len(panels[i:i + 2]))))
    return grid


def render_table(p: Position, width: int, boards: Sequence[int] | None = None) -> Group:
    """The whole table: title and turn order, dice areas, cities, tracks, reward tiles, then
    the player boards of `boards` (every seat when None)."""
    seats = range(p.n) if boards is None else boards
    return Group(render_title(p), render_dice(p), render_cities(p), render_tracks(p),
                 render_initiative(p), render_rewards(p), render_boards(p, seats, width))


# -- menus, the reward step, the final scoring --------------------------------------------------


def gain_text(p: Position, g: Gain) -> str:
    """What a preview shows: VP, meeples, tiles... gained or spent, and the question next."""
    parts = [say(f"gain.{key}", n=n, m=M, f=F) for key, n in (
        ("vp", g.vp), ("male", g.male), ("female", g.female), ("initiative", g.initiative),
        ("career", g.career), ("face-down", g.face_down), ("helpers", g.helpers),
        ("brides", g.brides)) if n]
    if g.tile >= 0:
        parts.append(say("gain.tile", tile=words.tile_text(p.t, g.tile)))
    if g.chance:
        parts.append(say("gain.dice"))
    if g.then is not None:
        parts.append(say("gain.then", question=words.question_text(p, g.then)))
    return "; ".join(parts) or say("menu.nothing")


def render_menu(p: Position, legal: Sequence[Any], gains: Sequence[Gain]) -> ByWidth:
    """The legal actions, numbered, with the florins each costs or brings and what it does:
    a table on a wide terminal, a line or two per action on a narrow one."""
    return ByWidth(lambda: _menu_table(p, legal, gains), lambda: _menu_lines(p, legal, gains))


def _menu_lines(p: Position, legal: Sequence[Any], gains: Sequence[Gain]) -> Table:
    """The menu on a narrow terminal: each action on its line, the next lines indented."""
    table = Table.grid(padding=(0, 1))
    table.add_column(justify="right", style="bold cyan", no_wrap=True)
    table.add_column()
    for i, (action, gain) in enumerate(zip(legal, gains, strict=True), start=1):
        line = Text(words.option_text(p, action))
        if gain.florins:
            line.append(f" · {gain.florins:+d}", style="red" if gain.florins < 0 else "green")
        line.append(" · " + gain_text(p, gain), style="dim")
        table.add_row(f"{i})", line)
    return table


def _menu_table(p: Position, legal: Sequence[Any], gains: Sequence[Gain]) -> Table:
    table = Table(box=box.SIMPLE, padding=(0, 1), show_edge=False)
    table.add_column("", justify="right", style="bold cyan")
    table.add_column(say("menu.choice"), ratio=3)
    table.add_column(say("menu.florins"), justify="right")
    table.add_column(say("menu.gains"), ratio=2)
    for i, (action, gain) in enumerate(zip(legal, gains, strict=True), start=1):
        florins = f"{gain.florins:+d}" if gain.florins else say("menu.nothing")
        table.add_row(f"{i})", words.option_text(p, action),
                      Text(florins, style="red" if gain.florins < 0 else "green"),
                      gain_text(p, gain))
    return table


def render_turn_menu(p: Position, legal: Sequence[Any], gains: Sequence[Gain]) -> Table:
    """A turn's menu as the dice areas themselves: per colour its cost and its dice, each die
    that may be taken numbered with the florins it costs, then what the colour's die does
    this round (Signoria action, assignments, the column it hires into); then the other
    choices (pass). Numbered like `render_menu`, in the order of `legal`."""
    t = p.t
    number = {(a.colour, a.value): i for i, a in enumerate(legal, 1) if isinstance(a, TakeDie)}
    table = Table.grid(padding=(0, 1))
    table.add_column(no_wrap=True)
    table.add_column()
    for c, colour in enumerate(t.colours):
        dice = Text()
        for value in sorted(set(p.dice[c])):
            i = number.get((colour, value))
            if i is None:
                dice.append(f"{value}  ", style="dim")
            else:
                dice.append(f"{i})", style="bold cyan")
                dice.append(f" {value} ")
                dice.append(say("menu.pay", n=-gains[i - 1].florins) + "  ", style="dim")
        if not p.dice[c]:
            dice.append(say("dice.none"), style="dim")
        slots = t.colour_assignment_slots[c]
        does = [_signoria(p, c), *(_assignment_short(p, s) for s in slots)]
        dice.append("\n" + " · ".join(does) + f" · {say('dice.hires')} ", style="dim")
        dice.append_text(die_colour(t.colours[t.ring[c]]))
        head = die_colour(colour)
        head.append(f"\n{say('dice.cost')} {t.cost[c]}", style="dim")
        table.add_row(head, dice)
    for i, action in enumerate(legal, 1):
        if not isinstance(action, TakeDie):
            table.add_row(Text(f"{i})", style="bold cyan"), words.option_text(p, action))
    return table


def lines_needed(renderable: RenderableType, width: int) -> int:
    """Lines a renderable takes at this width (measured on a throw-away console)."""
    console = Console(width=width, file=io.StringIO(), force_terminal=False)
    return len(console.render_lines(renderable, console.options.update(width=width),
                                    pad=False))


def render_summary(p: Position) -> Text:
    """One line per seat: VP, florins, dice taken, passed (when whole boards are not shown)."""
    lines = []
    for seat in p.order:
        line = tag(p, seat)
        dice = " ".join(say("board.die", colour=words.colour_name(p.t.colours[c]), value=v)
                        for c, v in enumerate(p.taken[seat]) if v)
        line.append(say("summary.line", vp=p.vp[seat], florins=p.florins[seat],
                        dice=dice or "–"))
        if p.passed[seat] and p.phase == ACTIONS:
            line.append(say("order.passed"), style="dim")
        lines.append(line)
    return Text("\n").join(lines)


def render_reward_step(p: Position, data: dict[str, Any], initiative: dict[int, int]) -> Table:
    """Phase 3 of a round, from its log entry: initiative VP, each seat's dice against their
    threshold, who receives the reward, in the new turn order."""
    table = Table(title=say("rewards.step", round=p.round), title_justify="left",
                  box=box.SIMPLE_HEAD)
    for key in ("rewards.seat", "rewards.initiative", "rewards.sum", "rewards.threshold",
                "rewards.reward"):
        table.add_column(say(key))
    for seat in data["order"]:
        won = seat in data["qualified"]
        table.add_row(tag(p, seat), str(initiative.get(seat, 0)), str(data["sums"][seat]),
                      str(data["thresholds"][seat]),
                      Text(say("rewards.yes" if won else "rewards.no"),
                           style="green" if won else "dim"))
    return table


def render_final(p: Position, breakdown: Sequence[dict[str, int]],
                 ranks: Sequence[int]) -> Group:
    """The final scoring, one row per source of points, a column per seat; the winner."""
    table = Table(title=say("final.title"), title_justify="left", box=box.SIMPLE_HEAD)
    table.add_column(say("final.source"))
    seats = sorted(range(p.n), key=lambda s: ranks[s])
    for seat in seats:
        table.add_column(tag(p, seat), justify="right")
    for source, name in words.SOURCES.items():
        table.add_row(name, *(str(breakdown[s].get(source, 0)) for s in seats))
    table.add_row(Text(say("final.total"), style="bold"),
                  *(Text(str(p.vp[s]), style="bold") for s in seats))
    table.add_row(say("final.rank"), *(str(ranks[s]) for s in seats))
    best = seats[0]
    return Group(table, Text(say("final.winner", name=p.names[best], vp=p.vp[best]),
                             style=player_style(p, best)))
