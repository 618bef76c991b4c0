"""Phase 2 at the terminal: choosing a region card, an action card and maybe the King's
Privilege, with the best points the fief could score under each pair of cards."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.console import Group
from rich.table import Table
from rich.text import Text

from .. import text as words
from ..actions import ALLIANCE, CITIES, HARBORS, INACTIVE, PRIVILEGE, WEDDING_CARD, Plan
from ..engine import PlayerView, placement_points, placement_rows
from ..state import POINTS_DONATION, POINTS_INACTIVE
from .input import menu

if TYPE_CHECKING:
    from .input import Prompts

say = words.say
card_name = words.card_name
Best = dict[tuple[str, str], int | None]

#: Keys of the action cards in the menus: their initials, the same all game long.
ACTION_KEYS = {HARBORS: "h", CITIES: "c", ALLIANCE: "a"}


def card_keys(v: PlayerView) -> dict[str, str]:
    """The key that picks each planning card in the menus: a region card by its place in the
    game's row of region cards, an action card by its initial. A card keeps its key all game
    long, whichever cards rest."""
    keys = {card: str(k) for k, card in enumerate(v.rules.region_cards, 1)}
    keys.update(ACTION_KEYS)
    return keys


def best_points(v: PlayerView, me: int, fief: int, region: str, action: str) -> int | None:
    """What the fief could score right now with these cards (None: nowhere to put it)."""
    rows = placement_rows(v, me, fief, region, action)
    if not len(rows):
        return None
    return int(placement_points(v, me, fief, rows).max())


def region_card_hexes(v: PlayerView, card: str) -> list[int]:
    """The hexes a region card lets a fief go on (Inactive Regions: all of those regions)."""
    board = v.board
    regions = v.rules.inactive_regions if card == INACTIVE else (card,)
    return [h for r in regions for h in board.region_hexes(r)]


def _hint_cells(v: PlayerView, me: int, region: str, allowed: set[tuple[str, str]],
                best: Best | None) -> list[str]:
    """A region card's row: the best points under each action card, — where none."""
    p = v.players[me]
    cells = []
    for a in ACTION_KEYS:
        if a in p.resting:
            cells.append(say("hints.rests"))
        elif (region, a) not in allowed:
            cells.append("—")
        else:
            if best is not None and (region, a) in best:
                pts = best[(region, a)]
            else:
                pts = best_points(v, me, p.fief, region, a) if p.fief is not None else None
            cells.append("—" if pts is None else str(pts))
    return cells


def _hint_notes(v: PlayerView, me: int, plans: Sequence[Plan]) -> Text:
    """Under the table: the inactive regions, the King's Privilege, donating, the Wedding."""
    board = v.board
    p = v.players[me]
    notes = []
    if INACTIVE in v.rules.region_cards:
        regions = ", ".join(card_name(board, x) for x in v.rules.inactive_regions)
        notes.append(say("hints.inactive", card=card_name(board, INACTIVE), regions=regions,
                         points=POINTS_INACTIVE))
    if PRIVILEGE in p.resting:
        notes.append(say("hints.privilege-rests", card=card_name(board, PRIVILEGE)))
    elif not any(pl.privilege for pl in plans):
        notes.append(say("hints.no-ring", card=card_name(board, PRIVILEGE)))
    notes.append(say("hints.donate", points=POINTS_DONATION))
    if p.rings:
        notes.append(say("hints.wedding", card=card_name(board, WEDDING_CARD)))
    return Text(" · ".join(notes), style="dim")


def render_plan_hints(v: PlayerView, me: int, plans: Sequence[Plan],
                      best: Best | None = None) -> Group:
    """Every region card with the key that picks it, and the best points this round's fief
    could score now under each action card (others may place first and take the spot).
    Cards resting this round keep their row and column, so no key ever changes."""
    board = v.board
    p = v.players[me]
    fl = set(v.rules.scenario.flourishing)
    keys = card_keys(v)
    allowed = {(pl.region, pl.action) for pl in plans}
    table = Table(box=None, padding=(0, 1), title_justify="left", title_style="bold",
                  title=say("hints.title", fief=p.fief))
    table.add_column("", justify="right", style="bold cyan")
    table.add_column(say("hints.region"))
    for a in ACTION_KEYS:
        table.add_column(card_name(board, a), justify="right",
                         style="dim" if a in p.resting else "")
    for r in v.rules.region_cards:
        label = Text(card_name(board, r) + (" ★" if r in fl else ""))
        if r in p.resting:
            label.append(" " + say("hints.rests"), style="dim")
            table.add_row(keys[r], label, *["" for _ in ACTION_KEYS], style="dim")
        else:
            table.add_row(keys[r], label, *_hint_cells(v, me, r, allowed, best))
    return Group(table, _hint_notes(v, me, plans))


def _action_options(v: PlayerView, region: str, actions: list[str],
                    best: Best) -> list[tuple[str, str]]:
    board = v.board
    options = []
    for a in actions:
        pts = best[(region, a)]
        hint = say("planning.none-now") if pts is None else say("planning.best-now", points=pts)
        options.append((a, say("planning.option", card=card_name(board, a),
                               limits=words.action_limits(a), hint=hint)))
    return options


def _ask_privilege(t: Prompts, v: PlayerView, me: int, region: str, action: str,
                   hexes: list[int]) -> bool:
    board = v.board
    fl = set(v.rules.scenario.flourishing)
    name = card_name(board, region) + (" ★" if region in fl else "")
    privilege = card_name(board, PRIVILEGE)
    t.screen(v, Text.assemble(
        (say("planning.yours"), "bold"),
        say("planning.plan", region=name, action=card_name(board, action)),
        (say("planning.privilege", card=privilege), "dim")), focus=hexes)
    return t.confirm(say("planning.use-privilege", card=privilege, rings=v.players[me].rings))


def plan(t: Prompts, v: PlayerView, me: int, plans: list[Plan]) -> Plan:
    """Choose a region card, an action card and maybe the King's Privilege."""
    board = v.board
    p = v.players[me]
    keys = card_keys(v)
    resting = {keys[c]: say("planning.rests", card=card_name(board, c))
               for c in p.resting if c in keys}
    regions = list(dict.fromkeys(pl.region for pl in plans))
    best = {(pl.region, pl.action): (best_points(v, me, p.fief, pl.region, pl.action)
                                     if p.fief is not None else None) for pl in plans}
    hints = render_plan_hints(v, me, plans, best)  # the table, then notes under it
    table = Group(t.beside(hints.renderables[0], t.fief_card(v, me)), *hints.renderables[1:])
    fl = set(v.rules.scenario.flourishing)
    while True:
        t.screen(v, table)
        region = t.choose(say("planning.region"), [(r, card_name(board, r)) for r in regions],
                          keys=[keys[r] for r in regions], unavailable=resting, listed=True)
        assert region is not None
        actions = list(dict.fromkeys(pl.action for pl in plans if pl.region == region))
        options = _action_options(v, region, actions, best)
        name = card_name(board, region) + (" ★" if region in fl else "")
        hexes = region_card_hexes(v, region)
        heading = Text.assemble((say("planning.chosen"), "bold"), name,
                                say("planning.now-action"))
        t.screen(v, Group(heading, menu(options, [keys[a] for a in actions])), focus=hexes)
        action = t.choose(say("planning.action", region=card_name(board, region)), options,
                          keys=[keys[a] for a in actions], back=True, unavailable=resting,
                          listed=True)
        if action is None:
            continue
        privilege = False
        if any(pl.privilege for pl in plans if pl.region == region and pl.action == action):
            privilege = _ask_privilege(t, v, me, region, action, hexes)
        chosen = Plan(me, region, action, privilege)
        if chosen in plans:
            return chosen
        t.say(say("planning.not-allowed"))  # pragma: no cover
