"""The balance check's report for the person who runs it in the component editor: their
edition by name and version, the games played, a one-line verdict on what looks off, and the
tables of `docs/signorie-balance.md` in the game's words, in the language of the moment.

The command line's report (`balance.markdown`) is the developers' own: it names the data file and
the command that re-runs it; this one names neither. Both count the same games with the same
row functions of `balance`; only the words differ. The page draws it as headings, paragraphs
and tables (`markdownTables` in the editor's script).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from babel.numbers import get_decimal_symbol

from tavola import i18n

from . import text
from .balance import (
    PAR_TOLERANCE,
    Run,
    bot_rows,
    seat_rows,
    source_rows,
    strategy_rows,
    usage_rows,
)
from .bots.levels import level_name
from .engine import VP_TILE
from .tables import Tables
from .text import say

#: The unused components the verdict names before "N more": it stays one line.
VERDICT_NAMES = 4


def report(run: Run, edition: str) -> str:
    """The report of one check's games (`run`) on `edition` (its name, and version if saved)."""
    t = run.t
    lines = [f"# {say('report.title', edition=_cell(edition))}", "",
             say("report.played", games=len(run.facts), players=run.players,
                 bots=_bots(run), seconds=round(run.seconds)), "",
             f"**{verdict(run)}**", ""]
    lines += _seats(run)
    lines += [f"## {say('report.bots')}", ""]
    lines += _table([say("report.col-bot"), say("report.col-seats"), say("report.col-win"),
                     say("report.col-par"), say("report.col-mean"), say("report.col-best")],
                    [[level_name(r[1]), *r[2:]]
                     for r in bot_rows([run])])
    lines += [f"## {say('report.strategy')}", ""]
    lines += _table([say("report.col-die"), say("report.col-share"), say("report.col-win"),
                     say("report.col-mean")],
                    [[_colour(r[0]) if r[0] != "none" else say("report.no-die"), *r[1:]]
                     for r in strategy_rows(run)])
    lines += _usage(run, t)
    means = source_rows([run])[0][1:]
    lines += [f"## {say('report.sources')}", ""]
    lines += _table([*(text.SOURCES[k] for k in text.SOURCES), say("report.col-total")],
                    [means])
    return "\n".join(lines)


def verdict(run: Run) -> str:
    """One line on what looks off: unused components, seats that win clearly more or less than
    their share; else that nothing does, or that the games were too few to tell."""
    off, unsure = [], False
    missing = unused(run)
    if missing:  # the tables below name them all
        shown = missing if len(missing) <= VERDICT_NAMES else \
            [*missing[:VERDICT_NAMES - 1], say("report.more", n=len(missing) - VERDICT_NAMES + 1)]
        off.append(say("report.off-unused", parts=", ".join(shown)))
    for key, what in (("start", "report.off-start"), ("colour", "report.off-colour")):
        _, worst, outside = seat_rows(run, key)
        if worst > PAR_TOLERANCE and outside:
            off.append(say(what, gap=_decimals(f"{100 * worst:.1f}")))
        unsure = unsure or worst > PAR_TOLERANCE
    if off:
        return say("report.verdict-off", what="; ".join(off))
    return say("report.verdict-unsure" if unsure else "report.verdict-fine")


def unused(run: Run) -> list[str]:
    """The components no game used, by their names on the table."""
    t = run.t
    c: Counter[str] = Counter()
    for f in run.facts:
        c.update(f.counts)
    out = [text.signoria_name(t, i) for i in range(len(t.colours))
           if not c[f"signoria:{t.colours[i]}"]]
    out += [_helper(t, h) for h in range(len(t.helper_cost))
            if not c[f"hire:{h}"] or not c[f"helper:{h}"]]
    out += [text.tile_name(t, i) for i in range(len(t.tile_effect)) if not c[f"tile:{i}"]]
    out += [say("report.bonus-tile", effect=text.effect_text(e))
            for i, e in enumerate(t.bonus_tiles) if not c[f"reward:bonus:{i}"]]
    out += [say("report.vp-tile", effect=text.effect_text(e))
            for i, e in enumerate(t.vp_tiles) if not c[f"reward:vp:{VP_TILE + i}"]]
    return [_cell(name) for name in out]


def _seats(run: Run) -> list[str]:
    lines = [f"## {say('report.seats')}", "",
             say("report.par", par=_decimals(f"{100 / run.players:.1f}"), players=run.players,
                 tolerance=round(PAR_TOLERANCE * 100)), ""]
    heads = [say("report.col-seat"), say("report.col-games"), say("report.col-win"),
             say("report.col-gap"), say("report.col-mean")]
    for key, title in (("start", "report.by-start"), ("colour", "report.by-colour")):
        rows, _, _ = seat_rows(run, key)
        names = [say("report.seat", ordinal=text.ordinal(s + 1)) if key == "start"
                 else _colour(run.t.board_colours[s]) for s in range(run.players)]
        lines += [f"### {say(title)}", ""]
        lines += _table(heads, [[name, *row[1:]] for name, row in zip(names, rows, strict=True)])
    return lines


def _usage(run: Run, t: Tables) -> list[str]:
    use = usage_rows([run])
    per, total = say("report.col-per-game"), say("report.col-total")
    colours = range(len(t.colours))
    lines = [f"## {say('report.usage')}", "", say("report.usage-note"), "",
             f"### {say('report.dice')}", ""]
    lines += _table([say("report.col-colour"), per, total],
                    [[_colour(t.colours[i]), *r[1:]] for i, r in zip(colours, use["dice"],
                                                                      strict=True)])
    lines += [f"### {say('report.signoria')}", ""]
    lines += _table([say("report.col-action"), per, total],
                    [[f"{_colour(t.colours[i])}: {_cell(text.signoria_name(t, i))}", *r[1:]]
                     for i, r in zip(colours, use["signoria"], strict=True)])
    lines += [f"### {say('report.helpers')}", ""]
    lines += _table([say("report.col-helper"), say("report.col-hired"),
                     say("report.col-hired-total"), say("report.col-used"),
                     say("report.col-used-total")],
                    [[_helper(t, h), *r[1:]] for h, r in enumerate(use["helpers"])])
    lines += [f"### {say('report.tiles')}", ""]
    lines += _table([say("report.col-tile"), per, total, say("report.col-meeples")],
                    [[_tile(t, i), *r[1:]] for i, r in enumerate(use["tiles"])])
    rewards = [say("report.bonus-tile", effect=text.effect_text(e)) for e in t.bonus_tiles]
    rewards += [say("report.vp-tile", effect=text.effect_text(e)) for e in t.vp_tiles]
    lines += [f"### {say('report.rewards')}", "", say("report.rewards-note"), ""]
    lines += _table([say("report.col-tile"), say("report.col-laid"), say("report.col-taken"),
                     say("report.col-florins"), say("report.col-taken-share")],
                    [[_cell(name), *r[1:]] for name, r in zip(rewards, use["rewards"],
                                                              strict=True)])
    return lines


def _bots(run: Run) -> str:
    specs = sorted({spec for f in run.facts for spec in f.specs})
    return say("report.and", first=", ".join(level_name(s) for s in specs[:-1]),
               last=level_name(specs[-1])) if len(specs) > 1 else \
        "".join(level_name(s) for s in specs)


def _colour(colour: str) -> str:
    return _cell(text.colour_title(colour))


def _helper(t: Tables, h: int) -> str:
    return _cell(say("report.helper", colour=text.colour_title(t.colours[t.helper_column[h]]),
                     order=t.helper_order[h], effect=text.helper_effect_text(t, h),
                     cost=t.helper_cost[h]))


def _tile(t: Tables, i: int) -> str:
    effect = text.effect_text(t.tile_effect[i])
    key = "report.tile-each" if t.tile_repeat[i] else "report.tile"
    return _cell(say(key, name=text.tile_name(t, i), effect=effect))


def _cell(words: str) -> str:
    """Words from the data kept in one table cell and one line."""
    return " ".join(words.replace("|", "/").split())


def _decimals(figures: str) -> str:
    """Figures with the decimal sign of the language of the moment (47.5 / 47,5)."""
    return _POINT.sub(get_decimal_symbol(i18n.current()), figures)


_POINT = re.compile(r"(?<=\d)\.(?=\d)")


def _table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    out = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    out += ["| " + " | ".join(_decimals(str(x)) for x in row) + " |" for row in rows]
    return [*out, ""]
