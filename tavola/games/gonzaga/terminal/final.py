"""The end of the game at the terminal: the Gonzaga tile, the objective cards revealed, the
final scores (a table, or lines on a narrow terminal) and the winner."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from .. import text as words
from ..engine import PlayerView, covered_places, largest_group
from ..state import Reason
from .hexmap import PLAYER_FG, player_name
from .layout import columns_needed
from .render import names_text, render_objective

say = words.say


def points_by_source(v: PlayerView) -> dict[int, dict[Reason, int]]:
    totals: dict[int, dict[Reason, int]] = {i: dict.fromkeys(Reason, 0)
                                            for i in range(len(v.players))}
    for e in v.score_events():
        totals[e.player][e.reason] += e.points
    return totals


def _final_lines(v: PlayerView, ranked: list[int],
                 sources: dict[int, dict[Reason, int]]) -> Group:
    """The final scores as a few lines per player, for a terminal too narrow for the table."""
    rows = [Text(say("final.title"), style="bold")]
    for rank, seat in enumerate(ranked, 1):
        p = v.players[seat]
        line = Text.assemble(f"{rank}. ", player_name(v, seat),
                             (" ♛" if seat in v.winners else "", "bold yellow"),
                             (" " + say("players.points", points=p.score), "bold"))
        parts = [f"{words.reason_name(r)} {sources[seat][r]}" for r in Reason]
        parts += [f"{say('final.places')} {covered_places(v, seat)}",
                  f"{say('final.group')} {largest_group(v, seat)}"]
        line.append("\n   " + " · ".join(parts), style="dim")
        rows.append(line)
    return Group(*rows)


def _final_table(v: PlayerView, ranked: list[int],
                 sources: dict[int, dict[Reason, int]]) -> Table:
    table = Table(title=say("final.title"), title_style="bold")
    table.add_column("", justify="right")
    table.add_column(say("final.player"))
    table.add_column(say("final.score"), justify="right", style="bold")
    for reason in Reason:
        table.add_column(words.reason_name(reason), justify="right")
    table.add_column(say("final.places"), justify="right")
    table.add_column(say("final.group"), justify="right")
    for rank, seat in enumerate(ranked, 1):
        name = player_name(v, seat)
        if seat in v.winners:
            name.append(" ♛", style="bold yellow")
        table.add_row(str(rank), name, str(v.players[seat].score),
                      *[str(sources[seat][r]) for r in Reason],
                      str(covered_places(v, seat)), str(largest_group(v, seat)))
    return table


def _tile_line(v: PlayerView) -> Text:
    """Who took the Gonzaga tile, with the size of the group."""
    tile = Text(say("final.tile"), style="bold")
    holders = [e for e in v.score_events() if e.reason is Reason.GONZAGA_TILE]
    for k, e in enumerate(holders):
        if k:
            tile.append(", ")
        tile.append_text(player_name(v, e.player))
        tile.append(f" ({words.detail_text(e)}, +{e.points})")
    if not holders:
        tile.append(say("final.no-tile"))
    return tile


def _verdict(v: PlayerView) -> Text:
    if len(v.winners) == 1:
        return Text(say("final.winner"), style="bold") + player_name(v, v.winners[0])
    verdict = Text(say("final.shared"), style="bold")
    verdict.append_text(names_text(v, v.winners))
    verdict.append(say("final.tied"), style="dim")
    return verdict


def render_final(v: PlayerView, *, width: int | None = None) -> RenderableType:
    """End of the game: the Gonzaga tile, the revealed objectives, the table and the winner.

    On a terminal narrower than the score table (`width`), the scores come as lines."""
    sources = points_by_source(v)
    ranked = sorted(range(len(v.players)),
                    key=lambda i: (-v.players[i].score, -covered_places(v, i)))
    objectives = Table.grid(padding=(0, 1), expand=True)
    for _ in v.players:
        objectives.add_column(ratio=1)
    objectives.add_row(*[Panel(render_objective(v, i), title=player_name(v, i),
                               border_style=PLAYER_FG[v.players[i].colour])
                         for i in range(len(v.players))])
    colour = PLAYER_FG[v.players[v.winners[0]].colour] if v.winners else "white"
    scores: RenderableType = _final_table(v, ranked, sources)
    if width is not None and columns_needed(scores) > width:
        scores = _final_lines(v, ranked, sources)
    return Group(_tile_line(v), Text(say("final.objectives"), style="bold"), objectives, scores,
                 Panel(_verdict(v), border_style=colour, expand=False))

