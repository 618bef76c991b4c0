"""Everything a player reads about Signorie: actions, log lines, effects, in the game's words.

Every sentence is an English template in `MESSAGES` (and every name in one of the `Words`
tables below), filled by `say`; the English text is the message id of the `signorie` gettext
catalog, so the sentences a player reads come out in the language of the moment (`tr`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from tavola import i18n
from tavola.game import LogEntry

from .actions import (
    Activate,
    Advance,
    BuyVp,
    ChooseAction,
    FaceDown,
    Hire,
    Marry,
    Mission,
    Pass,
    Reward,
    TakeDie,
    Wedding,
)
from .components import CROSS_CHECKS, VALUE_CHECKS
from .engine import VP_TILE, advance_left, die_cost
from .state import Position
from .tables import SEXES, Tables

#: The catalog's message domain.
DOMAIN = "signorie"


def tr(msgid: str) -> str:
    """`msgid` (English) in the language of the moment (`tavola.i18n`)."""
    return i18n.gettext(DOMAIN, msgid)


class Words(Mapping[str, str]):
    """A table of names read in the language of the moment: `SOURCES[s]` is the translated
    name; the English table beside it (`SOURCES_EN`) holds the catalogs' message ids."""

    def __init__(self, english: dict[str, str]) -> None:
        self.english = english

    def __getitem__(self, key: str) -> str:
        return tr(self.english[key])

    def __iter__(self) -> Iterator[str]:
        return iter(self.english)

    def __len__(self) -> int:
        return len(self.english)


CRITERIA_EN: dict[str, str] = {
    "helper": "hired helper", "city": "city holding one of his meeples",
    "career_meeple": "meeple on a career track", "scoring_row": "plan row of 3 or more tiles",
    "married_man": "married man", "face_up_tile": "face-up alliance tile",
}
CRITERIA = Words(CRITERIA_EN)
SOURCES_EN: dict[str, str] = {
    "missions": "Diplomatic Missions", "marriages": "Marriages", "initiative": "Initiative track",
    "rewards": "Reward tiles", "helpers": "Helpers", "assignments": "Assignments",
    "weddings": "Weddings", "careers": "Career tracks (end)", "alliances": "Alliance rows (end)",
}
SOURCES = Words(SOURCES_EN)
#: The five cities by their names in the component data (the English rulebook's: Milano).
CITIES_EN: dict[str, str] = {
    "Milano": "Milano", "Venezia": "Venezia", "Firenze": "Firenze", "Roma": "Roma",
    "Napoli": "Napoli",
}
CITIES = Words(CITIES_EN)
#: Die colours and seat colours, as a word in a sentence ("the yellow die").
COLOURS_EN: dict[str, str] = {
    "yellow": "yellow", "red": "red", "violet": "violet", "grey": "grey", "turquoise": "turquoise",
    "purple": "purple", "blue": "blue",
}
COLOURS = Words(COLOURS_EN)
#: The career tracks, as a noun with its article left to the sentence ("the political track").
TRACKS_EN: dict[str, str] = {
    "political": "political track", "clerical": "clerical track", "military": "military track",
}
TRACKS = Words(TRACKS_EN)
#: The career tracks' short names, for headings.
TRACK_TITLES_EN: dict[str, str] = {
    "political": "Political", "clerical": "Clerical", "military": "Military",
}
TRACK_TITLES = Words(TRACK_TITLES_EN)
#: The plan rows of a player board, as a noun ("the marriage row").
ROWS_EN: dict[str, str] = {
    "political": "political row", "clerical": "clerical row", "military": "military row",
    "marriage": "marriage row",
}
ROWS = Words(ROWS_EN)
#: The plan rows' short names, for headings.
ROW_TITLES_EN: dict[str, str] = {
    "political": "Political", "clerical": "Clerical", "military": "Military",
    "marriage": "Marriage",
}
ROW_TITLES = Words(ROW_TITLES_EN)
#: The Signoria actions by their printed names.
SIGNORIA_EN: dict[str, str] = {
    "Florins": "Florins", "Marriage": "Marriage", "Offspring": "Offspring", "Tracks": "Tracks",
    "Diplomatic Mission": "Diplomatic Mission",
}
SIGNORIA = Words(SIGNORIA_EN)
#: The assignment tiles by their names.
TILES_EN: dict[str, str] = {
    "Initiative": "Initiative", "Threshold": "Threshold", "Hidden alliance": "Hidden alliance",
    "Treasury": "Treasury", "Tutors": "Tutors", "Patronage": "Patronage", "Embassy": "Embassy",
    "Matchmaker": "Matchmaker", "Heirs": "Heirs", "Steward": "Steward",
}
TILES = Words(TILES_EN)
#: The signs of the two kinds of meeple, as the terminal draws them.
SEX_SIGNS = ("♂", "♀")
ORDINALS_EN: dict[str, str] = {
    "1": "1st", "2": "2nd", "3": "3rd", "4": "4th", "5": "5th", "6": "6th", "7": "7th",
    "8": "8th",
}
ORDINALS = Words(ORDINALS_EN)


def ordinal(n: int) -> str:
    """`1st`, `2nd`... in the language of the moment."""
    return ORDINALS[str(n)]


def city_name(city: str) -> str:
    return CITIES.get(city, city)


def colour_name(colour: str) -> str:
    return COLOURS.get(colour, colour)


def track_name(track: str) -> str:
    return TRACKS.get(track, track)


def row_name(row: str) -> str:
    return ROWS.get(row, row)


def tile_name(t: Tables, tile: int) -> str:
    return TILES.get(t.tile_name[tile], t.tile_name[tile])


def signoria_name(t: Tables, c: int) -> str:
    return SIGNORIA.get(t.signoria_name[c], t.signoria_name[c])


def _n(key: str, n: int, **fields: Any) -> str:
    """The sentence `key.one` for one, `key.many` for any other count `n`."""
    return say(f"{key}.{'one' if n == 1 else 'many'}", n=n, **fields)


plural = _n


def _meeples(n: int, sex: str) -> str:
    """`2 male meeples`, as said after "with"."""
    return _n(f"meeples.{sex if sex in SEXES else 'male'}", n)


def effect_text(eff: tuple[str, int, str], times: int = 1) -> str:
    """An effect as printed on a tile or helper, e.g. `2 initiative steps`."""
    kind, amount, criterion = eff
    n = amount * times
    if kind == "advance" and amount == 1:  # one point per execution: every point is used
        return _n("effect.advance-each", n)
    if kind in ("florins", "initiative", "advance", "threshold"):
        return _n(f"effect.{kind}", n)
    if kind == "vp":
        return say("effect.vp", n=n)
    if kind in ("mission", "marriage", "face_down_tile", "helper"):
        return say(f"effect.{kind}")
    if kind == "offspring":
        return _n("effect.offspring", n) if amount else say("effect.offspring-roll")
    if kind == "vp_per":
        return say("effect.vp-per", n=amount, criterion=CRITERIA[criterion])
    return kind


def effect_now(eff: tuple[str, int, str], brides: int, times: int = 1) -> str:
    """An effect as it would act for a seat with `brides` married men: the Offspring roll
    says how many dice it rolls."""
    if eff[0] == "offspring" and not eff[1]:
        return _n("effect.offspring-now", brides)
    return effect_text(eff, times)


def helper_effect_text(t: Tables, h: int, die: int | None = None) -> str:
    """A helper's effect as printed: `1 initiative step per 2 pips of the die` when it grows
    with the die its column is used with; with that die known, what it gives for it: `2
    initiative steps with a 5`."""
    per = t.helper_per_pips[h]
    if per and die is not None:
        return say("effect.with-die", effect=effect_text(t.helper_effect[h],
                                                         t.helper_times(h, die)), die=die)
    effect = effect_text(t.helper_effect[h])
    return _n("effect.per-pips", per, effect=effect) if per else effect


def helper_text(t: Tables, h: int, die: int | None = None) -> str:
    """A helper slot by its place: `1st yellow helper (1 initiative step)`, no article; with
    the `die` it acts after, its effect for that die."""
    return say("helper", ordinal=ordinal(t.helper_order[h]),
               colour=colour_name(t.colours[t.helper_column[h]]),
               effect=helper_effect_text(t, h, die))


def acting_helper_text(p: Position, a: Activate) -> str:
    """The helper an activation asks about, with what it gives for the die of its column."""
    t = p.t
    return helper_text(t, a.helper, p.taken[a.seat][t.helper_column[a.helper]])


def tile_text(t: Tables, tile: int) -> str:
    return say("alliance-tile", house=t.houses[t.tile_house[tile]], vp=t.tile_vp[tile])


def reward_text(t: Tables, reward: int) -> str:
    if reward >= VP_TILE:
        return effect_text(t.vp_tiles[reward - VP_TILE])
    return effect_text(t.bonus_tiles[reward])


def _slot(t: Tables, slot: int) -> str:
    return say("career-slot", n=slot + 1, vp=t.career_vp[slot], rank=t.career_rank[slot])


def _who(p: Position, a: Any) -> str:
    seat = getattr(a, "seat", -1)
    return p.names[seat] if 0 <= seat < p.n else say("seat.unknown", seat=seat)


def describe_action(p: Position, a: Any) -> str:
    t = p.t
    who = _who(p, a)
    if isinstance(a, TakeDie):
        c = t.colours.index(a.colour) if a.colour in t.colours else -1
        cost = die_cost(p, c, a.value) if c >= 0 else 0
        fields = {"who": who, "colour": colour_name(a.colour), "value": a.value}
        if not cost:
            return say("act.take-die.free", **fields)
        return _n("act.take-die", cost, **fields)
    if isinstance(a, ChooseAction):
        return _choose_text(p, a, who)
    if isinstance(a, Advance):
        return _advance_text(a, who)
    return _describe_answer(p, a, who)


def move_text(first: str, steps: list[str]) -> str:
    """A whole move: its first step's sentence, then its further choices (`option_text`)."""
    if not steps:
        return first
    return say("act.move", first=first.rstrip().rstrip("."),
               steps=say("list.semicolon").join(steps))


def _describe_answer(p: Position, a: Any, who: str) -> str:
    t = p.t
    if isinstance(a, Pass):
        return say("act.pass", who=who)
    if isinstance(a, Mission):
        return say("act.mission", who=who, slot=_slot(t, a.slot), track=track_name(a.track),
                   city=city_name(a.city))
    if isinstance(a, Marry):
        return say("act.marry", who=who, city=city_name(a.city), dowry=a.dowry,
                   vp=a.dowry * t.vp_per_dowry)
    if isinstance(a, FaceDown):
        return say("act.face-down", who=who, row=row_name(a.row))
    if isinstance(a, Hire):
        return say("act.hire-free", who=who, helper=helper_text(t, a.helper))
    if isinstance(a, Activate):
        return say("act.activate" if a.use else "act.not-activate", who=who,
                   helper=acting_helper_text(p, a))
    if isinstance(a, Reward):
        if a.choice == "florins":
            return say("act.reward-florins", who=who, n=t.reward_florins)
        return say("act.reward", who=who, reward=reward_text(t, p.rewards[p.round - 1]))
    if isinstance(a, Wedding):
        return say("act.wedding" if a.accept else "act.no-wedding", who=who)
    if isinstance(a, BuyVp):
        return say("act.buy" if a.accept else "act.no-buy", who=who, florins=t.buy_florins,
                   vp=t.buy_vp)
    return repr(a)


def _choose_text(p: Position, a: ChooseAction, who: str) -> str:
    t = p.t
    if a.kind == "signoria":
        f = p.stack[-1] if p.stack and p.stack[-1][0] == "choose" else None
        if f is None:
            return say("act.signoria-any", who=who)
        return say("act.signoria", who=who, name=signoria_name(t, f[2]))
    if a.kind == "helper":
        return say("act.hire", who=who, helper=helper_text(t, a.helper),
                   n=t.helper_cost[a.helper])
    meeples = _meeples(a.meeples, a.sex)
    if p.stack and p.stack[-1][0] == "choose" and a.sex in SEXES:
        c = p.stack[-1][2]
        slot = next(i for i in t.colour_assignment_slots[c]
                    if t.assignment_slots[i][1] == SEXES.index(a.sex))
        tile = p.assignment[slot]
        effect = effect_text(t.tile_effect[tile], a.meeples if t.tile_repeat[tile] else 1)
        return say("act.assignment", who=who, name=tile_name(t, tile), meeples=meeples,
                   effect=effect)
    return say("act.assignment-any", who=who, meeples=meeples)


def _advance_text(a: Advance, who: str) -> str:
    track = track_name(a.track)
    if a.move == "new":
        return say("act.advance-new", who=who, track=track)
    if a.move == "up":
        return say("act.advance-up", who=who, track=track, n=a.slot + 1)
    if a.move == "initiative":
        return say("act.advance-initiative", who=who)
    return say("act.advance-stop", who=who)


def _names(p: Position, seats: Any) -> str:
    return say("list.comma").join(p.names[s] for s in seats)


def describe_log(p: Position, entry: LogEntry) -> str:
    t, d = p.t, entry.data
    who = p.names[entry.seat] if entry.seat is not None else ""
    k = entry.kind
    if k == "setup":
        sep = say("list.semicolon")
        return say("log.setup", order=_names(p, d["order"]),
                   cities=say("list.comma").join(city_name(c) for c in d["cities"]),
                   rewards=sep.join(reward_text(t, r) for r in d["rewards"]))
    if k == "round":
        dice = say("list.semicolon").join(
            say("log.dice", colour=colour_name(c), values=" ".join(map(str, v)))
            for c, v in d["dice"].items())
        return say("log.round", round=d["round"], dice=dice)
    if k == "take_die":
        fields = {"who": who, "colour": colour_name(d["colour"]), "value": d["value"]}
        if not d["cost"]:
            return say("log.take-die.free", **fields)
        return _n("act.take-die", d["cost"], **fields)
    if k == "pass":
        return say("log.must-pass" if d["forced"] else "act.pass", who=who)
    if k == "signoria":
        return say("log.signoria", who=who, colour=colour_name(d["colour"]),
                   name=SIGNORIA.get(d["name"], d["name"]))
    if k == "assignment":
        return say("log.assignment", who=who, colour=colour_name(d["colour"]),
                   name=tile_name(t, d["tile"]), meeples=_meeples(d["meeples"], d["sex"]))
    if k == "hire":
        helper = helper_text(t, d["helper"])
        if not d["cost"]:
            return say("log.hire-free", who=who, helper=helper)
        return say("act.hire", who=who, helper=helper, n=d["cost"])
    if k == "helper":
        return say("act.activate" if d["use"] else "act.not-activate", who=who,
                   helper=helper_text(t, d["helper"]))
    return _describe_more(p, entry, who)


def _describe_more(p: Position, entry: LogEntry, who: str) -> str:
    d, k = entry.data, entry.kind
    if k == "florins":
        return _n("log.florins", d["florins"], who=who)
    if k == "score":
        if d["source"] == "alliances" and d.get("detail") in ROWS_EN:
            return say("log.score-row", who=who, n=d["points"], row=row_name(d["detail"]))
        if d["source"] == "careers" and d.get("detail") in TRACKS_EN:
            return say("log.score-track", who=who, n=d["points"], track=track_name(d["detail"]))
        return say("log.score", who=who, n=d["points"],
                   source=SOURCES.get(d["source"], d["source"]))
    if k == "initiative":
        return say("log.initiative", who=who, n=d["slot"])
    if k == "advance":
        return say("log.advance-new" if d["new"] else "log.advance-up", who=who,
                   track=track_name(d["track"]), n=d["slot"] + 1)
    if k in ("mission", "marriage"):
        return _city_log(p, entry, who)
    if k == "face_down":
        return say("act.face-down", who=who, row=row_name(d["row"]))
    if k == "offspring":
        return say("log.offspring", who=who,
                   rolls=" ".join(map(str, d["rolls"])) or say("log.offspring.none"),
                   sons=_n("offspring.sons", d["male"]),
                   daughters=_n("offspring.daughters", d["female"]))
    return _describe_end(p, entry, who)


def _city_log(p: Position, entry: LogEntry, who: str) -> str:
    """A Diplomatic Mission or a Marriage, with the alliance tile it took along, if any."""
    t, d, k = p.t, entry.data, entry.kind
    fields: dict[str, Any] = {"who": who, "city": city_name(d["city"])}
    if k == "mission":
        fields.update(track=track_name(d["track"]), value=d["value"])
    else:
        fields.update(dowry=d["dowry"])
    if d["tile"] >= 0:
        return say(f"log.{k}-tile", tile=tile_text(t, d["tile"]), **fields)
    return say(f"log.{k}", **fields)


def _describe_end(p: Position, entry: LogEntry, who: str) -> str:
    t, d, k = p.t, entry.data, entry.kind
    if k == "rewards":
        won = _names(p, d["qualified"]) or say("log.nobody")
        return say("log.rewards", order=_names(p, d["order"]), won=won)
    if k == "reward":
        if d["choice"] == "florins":
            return say("act.reward-florins", who=who, n=t.reward_florins)
        return say("log.reward", who=who, reward=reward_text(t, d["tile"]))
    if k == "wedding":
        if d["florins"]:
            return say("log.wedding-florins", who=who, n=d["florins"])
        return say("act.wedding", who=who)
    if k == "buy_vp":
        return say("act.buy", who=who, florins=d["florins"], vp=t.buy_vp)
    if k == "game_over":
        scores = say("list.comma").join(
            say("log.score-of", name=p.names[s], vp=d["scores"][s]) for s in d["order"])
        winners = [p.names[s] for s in d["winners"]]
        if len(winners) == 1:
            return say("log.game-over", scores=scores, name=winners[0])
        return say("log.game-over-tie", scores=scores, names=say("list.and").join(winners))
    return f"{k}: {dict(d)}"


def score_lines(p: Position, breakdown: list[dict[str, int]]) -> list[str]:
    """The end-of-game breakdown, one line per seat."""
    out = []
    for seat, parts in enumerate(breakdown):
        items = say("list.comma").join(say("score.item", source=SOURCES[src], n=pts)
                                       for src, pts in parts.items())
        out.append(say("score.line", name=p.names[seat], vp=p.vp[seat],
                       items=items or say("score.nothing")))
    return out


# -- the browser's words ------------------------------------------------------------------------

PHASE_NAMES_EN: dict[str, str] = {
    "actions": "Actions", "rewards": "Rewards", "over": "Game over",
}
PHASE_NAMES = Words(PHASE_NAMES_EN)
KIND_NAMES_EN: dict[str, str] = {
    "signoria": "Signoria action", "assignment": "Assignment", "helper": "Helper",
}
KIND_NAMES = Words(KIND_NAMES_EN)


def description() -> str:
    """The lobby's line about the game, in the language of the moment."""
    return say("description")


def colour_title(colour: str) -> str:
    """A colour as a name on the page: `yellow` -> `Yellow`."""
    name = colour_name(colour)
    return name[:1].upper() + name[1:]


def track_title(track: str) -> str:
    return TRACK_TITLES.get(track, track)


def row_title(row: str) -> str:
    return ROW_TITLES.get(row, row)


def choice_text(p: Position, a: Any) -> str:
    """A choice as a button says it, to the player who makes it (no name, imperative)."""
    t = p.t
    if isinstance(a, Pass):
        return say("choice.pass")
    if isinstance(a, Advance):
        return _advance_choice(t, a)
    if isinstance(a, Mission):
        return say("choice.mission", track=track_name(a.track), slot=_slot(t, a.slot),
                   city=city_name(a.city))
    if isinstance(a, Marry):
        return _n("choice.marry", a.dowry, city=city_name(a.city), dowry=a.dowry,
                  vp=a.dowry * t.vp_per_dowry)
    if isinstance(a, FaceDown):
        return say("choice.face-down", row=row_name(a.row))
    if isinstance(a, Hire):
        return say("choice.hire", helper=helper_text(t, a.helper))
    if isinstance(a, Activate):
        return say("choice.activate" if a.use else "choice.not-activate",
                   helper=acting_helper_text(p, a))
    if isinstance(a, Reward):
        if a.choice == "florins":
            return say("choice.reward-florins", n=t.reward_florins)
        tile = p.rewards[p.round - 1]
        if tile < VP_TILE and t.bonus_tiles[tile][0] == "initiative":
            return say("choice.reward-initiative", reward=reward_text(t, tile))
        return say("choice.reward", reward=reward_text(t, tile))
    if isinstance(a, Wedding):
        return say("choice.wedding" if a.accept else "choice.no-wedding")
    if isinstance(a, BuyVp):
        return say("choice.buy" if a.accept else "choice.no-buy", florins=t.buy_florins,
                   vp=t.buy_vp)
    return describe_action(p, a)


def _advance_choice(t: Tables, a: Advance) -> str:
    if a.move == "new":
        return say("choice.advance-new", track=track_name(a.track))
    if a.move == "up":
        return say("choice.advance-up", track=track_name(a.track), slot=_slot(t, a.slot + 1))
    if a.move == "initiative":
        return say("choice.advance-initiative")
    return say("choice.advance-stop")


def wedding_text(t: Tables, brides: int, round_: int) -> str:
    """What the next wedding brings a seat with `brides` married men."""
    vp = t.bride_vp[brides] if brides < len(t.bride_vp) else 0
    florins = t.wedding_florins if round_ in t.wedding_rounds else 0
    if florins:
        return say("wedding.gain-florins", vp=vp, n=florins)
    return say("wedding.gain", vp=vp)


def reward_step_text(p: Position, seat: int, total: int, threshold: int) -> str:
    """The threshold check of the reward step, for one seat."""
    key = "reward-step.yes" if total <= threshold else "reward-step.no"
    return say(key, name=p.names[seat], total=total, threshold=threshold)


def final_note(t: Tables) -> str:
    """How the end scoring counts, from the rules' numbers."""
    return say("final.note", divisor=t.career_divisor, row_min=t.row_min, back=t.back_vp)


def question(kind: str, name: str) -> str:
    """The question the frame `kind` asks, as the others read it: `Anna is asked to...`."""
    return say(f"asked.{kind}", name=name)


def not_in_supply(n: int, sex: str) -> str:
    """Why an assignment with `n` meeples of `sex` is closed."""
    return _n(f"why.supply.{sex if sex in SEXES else 'male'}", n)


def preview_hidden() -> str:
    return say("preview.hidden")


def summary_reward(p: Position, qualified: bool, entries: list[LogEntry]) -> str:
    """What a seat got of the round's reward, for the end-of-round summary: the bonus, the
    florins (chosen, or instead of a bonus it could not perform, and why) or nothing."""
    t = p.t
    if not qualified:
        return say("summary.over")
    got = next((x for x in entries if x.kind == "reward"), None)
    if got is None:
        return say("summary.waiting")
    d = got.data
    reward = reward_text(t, d["tile"])
    if d["choice"] != "florins":
        return say("summary.bonus", reward=reward)
    if not d.get("forced"):
        return _n("summary.florins", t.reward_florins, reward=reward)
    kind = t.bonus_tiles[d["tile"]][0]
    if d["need"] >= 0:
        why = _n("summary.why-florins", d["need"], had=d["had"])
    else:
        why = say(f"summary.why.{kind}") if f"summary.why.{kind}" in MESSAGES \
            else say("refuse.incomplete")
    return _n("summary.forced", t.reward_florins, reward=reward, why=why)


def summary_wedding(p: Position, entries: list[LogEntry]) -> str:
    """A seat's wedding and purchase of VP at the reward step, or nothing."""
    t = p.t
    out = []
    for x in entries:
        if x.kind == "wedding":
            vp = t.bride_vp[x.data["brides"] - 1]
            if x.data["florins"]:
                out.append(say("summary.wedding-florins", vp=vp, n=x.data["florins"]))
            else:
                out.append(say("summary.wedding", vp=vp))
        elif x.kind == "buy_vp":
            out.append(say("summary.buy", florins=x.data["florins"], vp=t.buy_vp))
    return say("list.semicolon").join(out)


def preview_next(p: Position, frame: list[Any]) -> str:
    """The question a choice leads to within the same turn, said in its preview."""
    return say("preview.next", question=question_text(p, frame))


# -- every sentence, filled by `say` ------------------------------------------------------------

#: Every sentence a player reads, by key; the English text is the catalog's message id.
MESSAGES: dict[str, str] = {
    # the table page's title and header (English in the page, translated by the browser)
    "page.title": "Signorie",
    # the game in one line, for the lobby's list of games
    "description": "Renaissance families: take dice, send sons on diplomatic missions, marry "
                   "daughters into the great cities, and plan alliances over seven rounds.",
    # lists
    "list.comma": ", ",
    "list.semicolon": "; ",
    "list.and": " and ",
    # names and pieces
    "seat.unknown": "Seat {seat}",
    "helper": "{ordinal} {colour} helper ({effect})",
    "alliance-tile": "{house}\u00a0{vp}",  # a tile's name and number never a line apart
    "career-slot": "slot {n} ({vp} VP, rank {rank})",
    "meeples.male.one": "{n} male meeple",
    "meeples.male.many": "{n} male meeples",
    "meeples.female.one": "{n} female meeple",
    "meeples.female.many": "{n} female meeples",
    # effects, as printed on tiles and helpers
    "effect.florins.one": "{n} florin",
    "effect.florins.many": "{n} florins",
    "effect.vp": "{n} VP",
    "effect.initiative.one": "{n} initiative step",
    "effect.initiative.many": "{n} initiative steps",
    "effect.advance.one": "up to {n} advancement point",
    "effect.advance.many": "up to {n} advancement points",
    "effect.advance-each.one": "{n} advancement point",
    "effect.advance-each.many": "{n} advancement points",
    "effect.mission": "a Diplomatic Mission",
    "effect.marriage": "a Marriage",
    "effect.face_down_tile": "a face-down alliance tile",
    "effect.threshold.one": "the threshold raised by {n}",
    "effect.threshold.many": "the threshold raised by {n}",
    "effect.offspring.one": "{n} offspring die",
    "effect.offspring.many": "{n} offspring dice",
    "effect.offspring-roll": "an Offspring roll (a die per married man)",
    "effect.offspring-now.one": "an Offspring roll: {n} die now, one per married man",
    "effect.offspring-now.many": "an Offspring roll: {n} dice now, one per married man",
    "effect.helper": "a free helper",
    "effect.vp-per": "{n} VP per {criterion}",
    "effect.per-pips.one": "{effect} per pip of the die",
    "effect.per-pips.many": "{effect} per {n} pips of the die",
    "effect.with-die": "{effect} with a {die}",
    # what a player did (the log and the descriptions of actions)
    "act.take-die.free": "{who} takes a {colour} die showing {value}, for free.",
    "act.take-die.one": "{who} takes a {colour} die showing {value}, paying {n} florin.",
    "act.take-die.many": "{who} takes a {colour} die showing {value}, paying {n} florins.",
    "act.pass": "{who} passes.",
    "act.signoria": "{who} performs the Signoria action: {name}.",
    "act.signoria-any": "{who} performs the Signoria action.",
    "act.hire": "{who} hires the {helper} for {n} florins.",
    "act.assignment": "{who} performs the assignment '{name}' with {meeples} ({effect}).",
    "act.assignment-any": "{who} performs an assignment with {meeples}.",
    "act.advance-new": "{who} places a male meeple from his supply on the {track}.",
    "act.advance-up": "{who} moves a meeple up the {track} from slot {n}.",
    "act.advance-initiative": "{who} moves his disc up the Initiative track.",
    "act.advance-stop": "{who} stops using advancement points.",
    "act.mission": "{who} sends the male meeple on {slot} of the {track} on a Diplomatic "
                   "Mission to {city}.",
    "act.marry": "{who} arranges a Marriage in {city} with a dowry of {dowry} florins "
                 "({vp} VP).",
    "act.face-down": "{who} places a face-down alliance tile next to the {row}.",
    "act.hire-free": "{who} takes a free helper: the {helper}.",
    "act.activate": "{who} activates the {helper}.",
    "act.not-activate": "{who} does not activate the {helper}.",
    "act.reward-florins": "{who} takes {n} florins as the reward.",
    "act.reward": "{who} takes the reward: {reward}.",
    "act.wedding": "{who} arranges a wedding for a son.",
    "act.no-wedding": "{who} does not arrange a wedding for a son.",
    "act.buy": "{who} pays {florins} florins for {vp} VP.",
    "act.move": "{first}, then: {steps}.",
    "act.no-buy": "{who} does not pay {florins} florins for {vp} VP.",
    # the log's own lines
    "log.setup": "Setup: turn order {order}; cities {cities}; reward tiles {rewards}.",
    "log.dice": "{colour} {values}",
    "log.round": "Round {round} begins. Dice: {dice}.",
    "log.take-die.free": "{who} takes a {colour} die showing {value}.",
    "log.must-pass": "{who} must pass.",
    "log.signoria": "{who} performs the {colour} Signoria action: {name}.",
    "log.assignment": "{who} performs the {colour} assignment '{name}' with {meeples}.",
    "log.hire-free": "{who} hires the {helper} for free.",
    "log.florins.one": "{who} receives {n} florin.",
    "log.florins.many": "{who} receives {n} florins.",
    "log.score": "{who} scores {n} VP ({source}).",
    "log.score-row": "{who} scores {n} VP for the {row} (end of the game).",
    "log.score-track": "{who} scores {n} VP for the meeples on the {track} (end of the game).",
    "log.initiative": "{who}'s disc reaches slot {n} of the Initiative track.",
    "log.advance-new": "{who} places a new meeple on the {track} (slot {n}).",
    "log.advance-up": "{who} moves a meeple up the {track} (slot {n}).",
    "log.mission": "{who} sends a meeple from the {track} on a Diplomatic Mission to {city} "
                   "(slot valued {value}).",
    "log.mission-tile": "{who} sends a meeple from the {track} on a Diplomatic Mission to "
                        "{city} (slot valued {value}) and takes the alliance tile {tile}.",
    "log.marriage": "{who} arranges a Marriage in {city} with a dowry of {dowry}.",
    "log.marriage-tile": "{who} arranges a Marriage in {city} with a dowry of {dowry} and "
                         "takes the alliance tile {tile}.",
    "log.offspring": "{who} rolls the offspring dice: {rolls}; {sons} and {daughters} join "
                     "the supply.",
    "offspring.sons.one": "{n} son", "offspring.sons.many": "{n} sons",
    "offspring.daughters.one": "{n} daughter", "offspring.daughters.many": "{n} daughters",
    "log.offspring.none": "none",
    "log.nobody": "nobody",
    "log.rewards": "Rewards: the new turn order is {order}; the reward goes to {won}.",
    "log.reward": "{who} receives the reward: {reward}.",
    "log.wedding-florins": "{who} arranges a wedding for a son and receives {n} florins.",
    "log.score-of": "{name} {vp}",
    "log.game-over": "The game is over: {scores}. {name} wins.",
    "log.game-over-tie": "The game is over: {scores}. {names} win.",
    "score.item": "{source} {n}",
    "score.line": "{name}: {vp} VP ({items})",
    "score.nothing": "nothing",
    # the buttons of the browser's choices
    "choice.pass": "Pass: take no more dice this round",
    "choice.advance-new": "New meeple on the {track}",
    "choice.advance-up": "A meeple up the {track} to {slot}",
    "choice.advance-initiative": "Disc up the Initiative track",
    "choice.advance-stop": "Stop: keep the remaining advancement points unused",
    "choice.mission": "Meeple of the {track} on {slot} to {city}",
    "choice.marry.one": "{city}, dowry {dowry} florin ({vp} VP)",
    "choice.marry.many": "{city}, dowry {dowry} florins ({vp} VP)",
    "choice.face-down": "Next to the {row}",
    "choice.hire": "Hire the {helper}",
    "choice.activate": "Activate the {helper}",
    "choice.not-activate": "Do not activate the {helper}",
    "choice.reward-florins": "Take {n} florins",
    "choice.reward": "Take the bonus: {reward}",
    "choice.reward-initiative": "Take the bonus: {reward} (your disc starts the next round "
                                "that far up, for the next turn order)",
    "choice.wedding": "Arrange a wedding for a son",
    "choice.no-wedding": "No wedding",
    "choice.buy": "Pay {florins} florins for {vp} VP",
    "choice.no-buy": "Keep the florins",
    "wedding.gain": "a bride on the next bride slot: {vp} VP",
    "wedding.gain-florins": "a bride on the next bride slot: {vp} VP and {n} florins",
    "reward-step.yes": "{name}: dice {total}, threshold {threshold}: receives the reward",
    "reward-step.no": "{name}: dice {total}, threshold {threshold}: receives no reward",
    "final.note": "Career meeples score their slot's VP divided by {divisor} (rounded down); a "
                  "plan row of {row_min} or more tiles scores its face-up tiles' values and "
                  "{back} VP per face-down tile. Ties go to the higher place in the turn order.",
    "preview.hidden": "Then the dice decide: you see the roll once the move is made.",
    "preview.next": "Next: {question}",
    # the end-of-round summary
    "summary.over": "over the threshold: no reward",
    "summary.waiting": "still to take",
    "summary.bonus": "the bonus: {reward}",
    "summary.florins.one": "{n} florin, chosen instead of {reward}",
    "summary.florins.many": "{n} florins, chosen instead of {reward}",
    "summary.forced.one": "{n} florin instead of {reward}: {why}",
    "summary.forced.many": "{n} florins instead of {reward}: {why}",
    "summary.why-florins.one": "it needs {n} florin, there were {had}",
    "summary.why-florins.many": "it needs {n} florins, there were {had}",
    "summary.why.marriage": "no female meeple in the supply or no city slot to marry into",
    "summary.why.mission": "no male meeple on a career track holds the rank of an empty city "
                           "slot",
    "summary.why.advance": "no meeple, track or disc left to move",
    "summary.why.face_down_tile": "the alliance stack is empty",
    "summary.why.helper": "every helper slot is filled",
    "summary.wedding": "a bride: {vp} VP",
    "summary.wedding-florins": "a bride: {vp} VP and {n} florins",
    "summary.buy": "paid {florins} florins for {vp} VP",
    # what the others read while a player decides
    "asked.turn": "{name} is asked to take a die or pass.",
    "asked.choose": "{name} is asked to choose the action of the die just placed.",
    "asked.helpers": "{name} is asked whether to activate a helper.",
    "asked.advance": "{name} is asked to use an advancement point.",
    "asked.mission": "{name} is asked to choose a Diplomatic Mission.",
    "asked.marriage": "{name} is asked to arrange a Marriage.",
    "asked.face_down": "{name} is asked to choose the row of a face-down alliance tile.",
    "asked.hire": "{name} is asked to choose the helper slot of a free helper.",
    "asked.reward": "{name} is asked to choose the bonus or the florins.",
    "asked.wedding": "{name} is asked whether to arrange a wedding.",
    "asked.buy": "{name} is asked whether to buy VP for florins.",
    # why a choice is closed, and why an action is refused
    "why.supply.male.one": "you have no male meeple in your supply",
    "why.supply.male.many": "you have fewer than {n} male meeples in your supply",
    "why.supply.female.one": "you have no female meeple in your supply",
    "why.supply.female.many": "you have fewer than {n} female meeples in your supply",
    "why.helper-filled": "this helper slot is already filled",
    "why.mission-rank": "its lowest empty slot needs rank {rank}; your best career meeple has "
                        "rank {best}",
    "why.city-dowry.one": "its lowest dowry is {n} florin, you have {have}",
    "why.city-dowry.many": "its lowest dowry is {n} florins, you have {have}",
    "why.tile-stays": "the tile {tile} stays in the city: your {row} has no empty shield of "
                      "its house",
    "why.helper-cost.one": "hiring costs {n} florin; after paying for the die you have "
                           "{left}",
    "why.helper-cost.many": "hiring costs {n} florins; after paying for the die you have "
                            "{left}",
    "why.advance": "no meeple, track or disc left to move",
    "why.advance-points.one": "{n} advancement point cannot be used",
    "why.advance-points.many": "{n} advancement points cannot all be used, one after another",
    "why.mission": "no male meeple on a career track holds the rank of an empty city slot",
    "why.no-female": "no female meeple in the available supply",
    "why.no-city": "no city has an empty slot a dowry can pay for",
    "why.dowry.one": "the lowest dowry is {n} florin; after paying for the die you have {left}",
    "why.dowry.many": "the lowest dowry is {n} florins; after paying for the die you have "
                      "{left}",
    "why.face_down_tile": "the alliance stack is empty",
    "why.helper": "every helper slot is filled",
    "why.florins.one": "it needs {n} florin; after paying for the die you have {left}",
    "why.florins.many": "it needs {n} florins; after paying for the die you have {left}",
    "wait.nobody": "nobody moves now",
    "wait.mover": "it is {name}'s move",
    "refuse.over": "the game is over",
    "refuse.unknown": "{action} is not a Signorie action",
    "refuse.turn": "it is {name}'s move, not seat {seat}'s",
    "refuse.not-open": "this choice is not open now",
    "refuse.die-colour": "there are no {colour} dice",
    "refuse.four-dice": "at most {n} dice a round; now pass",
    "refuse.slot-full": "the {colour} action slot already holds a die this round",
    "refuse.no-die": "no {colour} die showing {value} is left",
    "refuse.die-cost.one": "the die costs {n} florin, you have {have}",
    "refuse.die-cost.many": "the die costs {n} florins, you have {have}",
    "refuse.die-useless": "no action of the {colour} slot could be performed completely after "
                          "paying for this die",
    "refuse.helper-ring": "the {colour} slot hires into a {ring} helper slot",
    "refuse.helper-cost": "the helper costs {n} florins",
    "refuse.sex": "choose the male or the female slot",
    "refuse.meeples-most": "this assignment takes 1 to {n} meeples",
    "refuse.meeples-one": "this assignment takes 1 meeple",
    "refuse.incomplete": "that action could not be performed completely",
    "refuse.mission-unknown": "unknown career track or city",
    "refuse.city-absent": "{city} is not in this game",
    "refuse.mission-meeple": "no male meeple on that slot of the {track}",
    "refuse.city-full": "{city} has no empty slot",
    "refuse.mission-rank": "the lowest empty slot of {city} needs rank {rank}, that meeple has "
                           "rank {has}",
    "refuse.dowry": "the dowry in {city} is {low} to {high} florins",
    "refuse.florins.one": "you have {n} florin",
    "refuse.florins.many": "you have {n} florins",
    "refuse.advance-stop": "at least one advancement point must be used",
    "refuse.advance-nothing": "that advancement point moves nothing",
    "refuse.advance-owed.one": "that move would leave the {n} point still owed with nothing to "
                               "move",
    "refuse.advance-owed.many": "that move would leave the {n} points still owed with nothing "
                                "to move",
    # the terminal game: menus, questions, the table's labels
    "seat.human": "{colour}",
    "seat.you": "{colour} (you)",
    "seat.bot": "{title} {n}",
    "error.option": "Signorie has no {option} (it is played without scenarios or variants)",
    "error.edition-unknown": "no game here is played on that edition",
    "edition.too-large": "the component data is larger than {limit} bytes",
    "edition.not-json": "the component data is not JSON",
    "edition.checks": "checks of component data",
    "balance.one-at-a-time": "your balance check is still running: wait for its report",
    "balance.busy": "the server is running other balance checks: try again in a few minutes",
    "balance.findings": "fix the problems of the data first ({n} found)",
    "balance.what": "balance checks",
    "balance.not-found": "no such balance check of yours",
    "balance.failed": "the balance check stopped ({error})",
    "balance.no-data": "send the component data to check as \"data\"",
    "balance.games": "a balance check plays 1 to {most} games",
    "balance.players": "a balance check is played by 2, 3 or 4 players",
    "intro": "Signorie, {n} players: {names}.",
    "title": "Signorie · round {round} of {rounds} · {phase}",
    "phase.actions": "Perform Actions",
    "phase.rewards": "Rewards",
    "phase.over": "the game is over",
    "order": "Turn order: ",
    "order.passed": " (passed)",
    "order.moves": "▶ ",
    "dice.title": "Dice areas and assignments",
    "dice.colour": "colour",
    "dice.cost": "cost",
    "dice.dice": "dice (florins to pay)",
    "dice.none": "none left",
    "dice.signoria": "Signoria action",
    "dice.assignment": "{sex} assignment",
    "dice.hires": "hires into",
    "dice.signoria-effect": "{name}: {effect}",
    "summary.line": ": {vp} VP, {florins} florins; {dice}",
    "tile.assignment": "{name} ({meeples} {sign}): {effect}",
    "tile.meeples.one": "1",
    "tile.meeples.many": "1-3",
    "tile.each": " each",
    "cities.title": "Cities",
    "cities.city": "city",
    "cities.slots": "slots: value and meeple (· empty)",
    "cities.marriage": "Marriage tile",
    "cities.mission": "Mission tile",
    "cities.empty": "none",
    "tracks.title": "Career tracks and the Initiative track",
    "tracks.track": "track",
    "tracks.slot": "{n}: {vp} VP\nrank {rank}",
    "tracks.initiative": "Initiative",
    "tracks.init-slot": "{n}\n{vp} VP",
    "rewards.title": "Reward tiles",
    "rewards.round": "{mark}{round}: {tile}",
    "board.title": "{tag} {name}: {vp} VP, {florins} florins",
    "board.meeples": "Meeples",
    "board.meeple-counts": "supply {male}{m} {female}{f} · stock {smale}{m} {sfemale}{f}"
                           " · threshold space {tmale}{m} {tfemale}{f}",
    "board.dice": "Dice",
    "board.die": "{colour} {value}",
    "board.threshold": "sum {sum}, threshold {threshold}: {verdict}",
    "board.threshold.ok": "within it",
    "board.threshold.over": "over it, no reward",
    "board.helpers": "Helpers ({hired})",
    "board.plan": "Plan rows",
    "board.face-down": "{n} face-down",
    "board.brides": "Brides",
    "board.brides.count": "{filled} of {total} slots filled (next {vp} VP)",
    "board.brides.full": "all {total} slots filled",
    "menu.choice": "choice",
    "menu.florins": "florins",
    "menu.gains": "what it does",
    "menu.nothing": "–",
    "gain.vp": "{n:+d} VP",
    "gain.male": "{n:+d}{m} in supply",
    "gain.female": "{n:+d}{f} in supply",
    "gain.initiative": "initiative {n:+d}",
    "gain.career": "career meeples {n:+d}",
    "gain.tile": "takes the alliance tile {tile}",
    "gain.face-down": "{n:+d} face-down tile",
    "gain.helpers": "{n:+d} helper",
    "gain.brides": "{n:+d} bride",
    "gain.dice": "the dice decide",
    "gain.then": "then: {question}",
    "menu.pay": "pay {n}",
    "ask.prompt": "{name}, {question} [1-{last}, or help]: ",
    "ask.quit": "Quit this game? [y/n]: ",
    "ask.enter": "{name}, press Enter when ready: ",
    "retry.empty": "Type the number of a choice, from 1 to {last} (or help).",
    "retry.range": "There is no choice {answer}: type a number from 1 to {last}.",
    "retry.word": "'{answer}' is not a choice: type a number from 1 to {last}, or help, "
                  "board, log or quit.",
    "quit.kept": "The game goes on.",
    "help": "Type the number of a choice and press Enter. Each line shows what it costs in "
            "florins and what it does (VP, florins, meeples), and what is asked next.\n"
            "Commands: board (the whole table again), log (the last moves), hint (the "
            "search's three best choices), help (this), quit (leave the game, after a "
            "confirmation).",
    "hint.title": "Hint: the search's three best choices",
    "hint.line": "{rank}. line {line}: {move}; at the end {lead} VP ahead of the best other "
                 "player ({share}% of the search)",
    "hint.line-behind": "{rank}. line {line}: {move}; at the end {lead} VP behind the best "
                        "other player ({share}% of the search)",
    "log.title": "The last moves",
    "pass.device": "Pass the device to {tag} {name}. Nothing in Signorie is hidden from the "
                   "other players, so the table stays on the screen.",
    "abandoned": "The game was left in round {round}.",
    "record.written": "The game record is in {path}.",
    "record.failed": "Cannot write the game record to {path}: {error}",
    "rewards.step": "Rewards of round {round}",
    "rewards.seat": "player",
    "rewards.initiative": "initiative VP",
    "rewards.sum": "dice sum",
    "rewards.threshold": "threshold",
    "rewards.reward": "reward",
    "rewards.yes": "✓ receives it",
    "rewards.no": "✗ over the threshold",
    "final.title": "Final scoring",
    "final.source": "points from",
    "final.total": "Total",
    "final.rank": "Place",
    "final.winner": "{name} wins with {vp} VP.",
    "question.turn": "take a die or pass",
    "question.choose": "choose the action of your {colour} die",
    "question.helpers": "activate this helper?",
    "question.advance": "use an advancement point ({left} left)",
    "question.mission": "which meeple goes on a Diplomatic Mission, and where?",
    "question.marriage": "which city, and what dowry?",
    "question.face_down": "which plan row takes the face-down alliance tile?",
    "question.hire": "which helper slot takes the free helper?",
    "question.reward": "the bonus of the reward tile, or the florins?",
    "question.wedding": "arrange a wedding for a son?",
    "question.buy": "pay {florins} florins for {vp} VP?",
    # the terminal's menu lines: what the player does, without naming them
    "option.take-die": "take the {colour} die showing {value}",
    "option.pass": "pass: take no more dice this round",
    "option.mission": "the meeple on slot {n} of the {track} (rank {rank}) to {city}, slot "
                      "valued {value}",
    "option.marry.one": "{city}, a dowry of {n} florin ({vp} VP)",
    "option.marry.many": "{city}, a dowry of {n} florins ({vp} VP)",
    "option.face-down": "the {row}",
    "option.hire-free": "take the {helper} for free",
    "option.activate": "activate the {helper}",
    "option.not-activate": "do not activate it",
    "option.reward-florins": "take {n} florins",
    "option.reward": "take the bonus: {reward}",
    "option.buy": "pay {florins} florins for {vp} VP",
    "option.no-buy": "keep the florins",
    "option.signoria-any": "the Signoria action",
    "option.signoria": "Signoria action {name}: {effect}",
    "option.hire": "hire the {helper}",
    "option.assignment-any": "an assignment with {meeples}",
    "option.assignment": "assignment '{name}' with {meeples}: {effect}",
    "option.advance-new": "a new male meeple on the {track}",
    "option.advance-up": "a meeple up the {track}, slot {n} to {to} ({vp} VP, rank {rank})",
    "option.advance-initiative": "your disc up the Initiative track",
    "option.advance-stop": "stop here",
    "option.no-wedding": "no wedding",
    "option.wedding": "a bride on slot {n}: {vp} VP",
    "option.wedding-florins": "a bride on slot {n}: {vp} VP and {florins} florins",
    # the rules page (tavola/games/signorie/rules)
    "rules.ring": "a {colour} die hires into the {column} column",
    # the tutorial (tavola/games/signorie/tutorial.py)
    # the learner's seat has a name of its own: the log's sentences are in the third person
    "tutorial.you": "Lorenzo",
    "tutorial.bot": "Greedy bot",
    "tutorial.intro": "Welcome to Signorie! You lead a family against one bot. On your turn you "
                      "take a die and use it for one action of its colour. Follow the glowing "
                      "outline.",
    "tutorial.waiting": "The bot is taking its turn. Watch the dice board and the log.",
    "tutorial.done": "You have taken dice, paid for them, sent meeples on assignments and hired "
                     "helpers: the heart of Signorie. Play on to the rewards at the round's end, "
                     "or go back to the lobby and start a game of your own.",
    "tutorial.die.title": "Take the {colour} {value}",
    "tutorial.die.say": "A die costs its colour's price ({price}) minus its value, so the {colour}"
                        " {value} costs {cost} florins. Pick it, then the male assignment with 1 "
                        "meeple, then Confirm: the assignment sends a son to work and hires a "
                        "helper for free.",
    "tutorial.die.refuse": "In this lesson, take the {colour} {value} and use it as shown. You "
                           "will choose freely once the lesson is over.",
    "tutorial.assign.title": "Send one son on the assignment",
    "tutorial.assign.say": "Choose the male assignment with 1 meeple and confirm.",
    "tutorial.assign.refuse": "In this lesson, use the die for the male assignment with 1 meeple.",
    "tutorial.hire.title": "Hire your free helper",
    "tutorial.hire.say": "The assignment's reward is a free helper. Choose the one outlined and "
                         "confirm: helpers act again each time you later take a die of their "
                         "column.",
    "tutorial.hire.refuse": "In this lesson, hire the helper outlined.",
    "tutorial.helper-die.title": "Take the {colour} {value} to hire a helper",
    "tutorial.helper-die.say": "This die is free: its value is at least its colour's price. Pick "
                               "it, then hire the helper outlined, then Confirm.",
    "tutorial.helper.title": "Hire the helper",
    "tutorial.helper.say": "Choose the helper outlined and confirm: you pay its cost in florins.",
    "tutorial.helper.refuse": "In this lesson, hire the helper outlined.",
    "tutorial.points-die.title": "Take the {colour} {value} for points",
    "tutorial.points-die.say": "Pick the die, then its male assignment with 3 meeples, then "
                               "Confirm: each meeple sent earns the reward again.",
    "tutorial.points.title": "Send three sons on the assignment",
    "tutorial.points.say": "Choose the male assignment with 3 meeples and confirm.",
    "tutorial.points.refuse": "In this lesson, use the die for the male assignment with 3 meeples.",
    # how points are made: pages read after the last step, before the first round ends
    "tutorial.careers.title": "Careers: points and ranks",
    "tutorial.careers.say": "Sons go up the Career tracks (with the {tracks} Signoria action "
                            "and other advancement points). Each slot is worth {low} to {high} "
                            "VP and has a rank from 1 to {rank}; some slots pay a bonus when "
                            "reached. A son "
                            "still on a track at the end of the game scores half his slot's VP.",
    "tutorial.missions.title": "Missions: the city slots",
    "tutorial.missions.say": "A Diplomatic Mission moves a son from a track into a city: his "
                             "rank must reach the value of the city's lowest empty slot ({slots})."
                             " He scores his slot's full VP, and the city's mission tile may go "
                             "to your plan.",
    "tutorial.marriages.title": "Marriages and brides",
    "tutorial.marriages.say": "A Marriage sends a daughter into a city: the dowry (at most "
                              "{dowry} florins) must reach the value of the city's lowest empty "
                              "slot, and each florin scores {per_florin} VP. A wedding at a "
                              "round's end brings a bride for a son: your bride slots score "
                              "{brides} VP, one after the other.",
    "tutorial.plan.title": "Your secret plan",
    "tutorial.plan.say": "The alliance tiles of missions and marriages go to the rows of your "
                         "plan, on the shields of their houses. At the end of the game a row of "
                         "at least {min} tiles scores all its tiles.",
    "tutorial.threshold.title": "The threshold and the reward",
    "tutorial.threshold.say": "When everyone has passed, the Initiative track scores ({initiative}"
                              " VP by slot). Then whoever's dice add up to no more than their "
                              "threshold ({threshold} at first) takes the round's reward: the "
                              "tile's bonus or {florins} florins. Cheap, low dice keep you under "
                              "it.",
    # the places of a component file, as the editor names them (`places.py`)
    "place.die-slot": "{colour} die slot",
    "place.board": "{colour} board",
    "place.helper": "{colour} column, helper {n}",
    "place.assignment-slot.male": "{colour} area, male slot",
    "place.assignment-slot.female": "{colour} area, female slot",
    "place.slot": "slot {n}",
    "place.city-slot": "row {row}, slot {n}",
    "place.bride-slot": "bride slot {n}",
    "place.house": "house {n}",
    "place.bonus-tile": "bonus tile {n}",
    "place.vp-tile": "VP tile {n}",
    "place.track": "track {n}",
    "place.position": "starting position {n}",
    "place.bonus": "bonus {n}",
    "place.assignment-tile": "assignment tile {n}",
    "place.shield": "shield {n}",
    "place.tile": "tile {n}",
    "place.entry": "entry {n}",
    "place.players": "{n} players",
    # a file that is no component file (`edition.SignorieEdition.check`)
    "file.not-json": "The file is not JSON data (numbers, text, lists and objects only).",
    "file.too-large": "The file is {size} bytes; at most {most} are accepted.",
    "file.not-object": "The file must be a JSON object (a component file), not {found}.",
    "file.too-deep": "The file is nested too deeply to be a component file.",
    "file.unchecked": "The file could not be checked ({error}).",
    "file.unplayable": "A game of {players} cannot be set up on this data: {error}",
    # the file's own validators, written in `components.VALUE_CHECKS` (which cannot import
    # the text layer)
    **VALUE_CHECKS,
    # the balance check's report in the component editor (`balance_report`)
    "report.title": "Balance check: {edition}",
    "report.edition": "{name}, version {version}",
    "report.unsaved": "components not saved as an edition",
    "report.played": "{games} games of {players} players between the bots {bots}, played in "
                     "{seconds} seconds.",
    "report.and": "{first} and {last}",
    "report.verdict-fine": "Nothing looks off: every component was used and no seat or colour "
                           "wins clearly more or less than its share.",
    "report.verdict-unsure": "Nothing looks clearly off, but the games were too few to tell "
                             "whether every seat and colour wins its share: play more games.",
    "report.verdict-off": "What looks off: {what}.",
    "report.off-unused": "never used: {parts}",
    "report.more": "{n} more",
    "report.off-start": "the starting positions win unevenly (up to {gap} points from their "
                        "share)",
    "report.off-colour": "the board colours win unevenly (up to {gap} points from their share)",
    "report.seats": "Who wins",
    "report.par": "With {players} players each seat should win about {par}% of the games; a "
                  "seat within {tolerance} points of that is balanced. The range after each "
                  "win rate is where the true rate lies, 19 times in 20.",
    "report.by-start": "By starting position (the first round's turn order)",
    "report.by-colour": "By board colour",
    "report.seat": "{ordinal} player",
    "report.bots": "The bots",
    "report.strategy": "Wins by the die colour a player took most",
    "report.no-die": "no die",
    "report.usage": "How often each component was used",
    "report.usage-note": "Per game (all players together), and in all the games.",
    "report.dice": "Dice taken, by colour",
    "report.signoria": "Signoria actions",
    "report.helpers": "Helper slots: hired, then activated",
    "report.helper": "{colour} {order}: {effect} ({cost} florins)",
    "report.tiles": "Assignment tiles",
    "report.tile": "{name}: {effect}",
    "report.tile-each": "{name}: {effect} per meeple",
    "report.rewards": "Reward tiles",
    "report.rewards-note": "Laid out: the games in which the tile was among the seven. A bonus "
                           "tile may be refused for 3 florins.",
    "report.bonus-tile": "bonus tile: {effect}",
    "report.vp-tile": "VP tile: {effect}",
    "report.sources": "Mean points per player by source",
    "report.col-seat": "seat",
    "report.col-games": "games",
    "report.col-win": "win % (range)",
    "report.col-gap": "points from the share",
    "report.col-mean": "mean score",
    "report.col-best": "best score",
    "report.col-bot": "bot",
    "report.col-seats": "seats",
    "report.col-par": "share %",
    "report.col-die": "die taken most",
    "report.col-share": "share of players %",
    "report.col-colour": "colour",
    "report.col-action": "action",
    "report.col-helper": "helper",
    "report.col-hired": "hired per game",
    "report.col-hired-total": "hired in all",
    "report.col-used": "activated per game",
    "report.col-used-total": "activated in all",
    "report.col-tile": "tile",
    "report.col-per-game": "per game",
    "report.col-total": "in all",
    "report.col-meeples": "meeples per use",
    "report.col-laid": "laid out",
    "report.col-taken": "taken",
    "report.col-florins": "3 florins instead",
    "report.col-taken-share": "taken %",
    # an edition's line in the editions list (`edition.SignorieEdition.describe`)
    "edition.describe": "{cities} cities, {helpers} helper slots; {known} values known, "
                        "{provisional} provisional",
    # `components.cross_check`'s own table (the components module cannot import the text
    # layer, which imports it): `components check` prints them in English, the editor
    # in its reader's language
    **CROSS_CHECKS,
}


def say(key: str, **fields: Any) -> str:
    """The sentence `key` in the language of the moment, with its fields filled in."""
    return tr(MESSAGES[key]).format(**fields)


def question_text(p: Position, frame: list[Any]) -> str:
    """The question the decision `frame` asks, for the player who answers it."""
    t, kind = p.t, frame[0]
    if kind == "choose":
        return say("question.choose", colour=colour_name(t.colours[frame[2]]))
    if kind == "advance":
        return say("question.advance", left=advance_left(frame))
    if kind == "buy":
        return say("question.buy", florins=t.buy_florins, vp=t.buy_vp)
    return say(f"question.{kind}")


def option_text(p: Position, a: Any) -> str:
    """A legal action as a menu line: what the player does, without naming them."""
    t = p.t
    if isinstance(a, TakeDie):
        return say("option.take-die", colour=colour_name(a.colour), value=a.value)
    if isinstance(a, Pass):
        return say("option.pass")
    if isinstance(a, ChooseAction):
        return _choose_option(p, a)
    if isinstance(a, Advance):
        return _advance_option(t, a)
    if isinstance(a, Mission):
        city = t.city_names.index(a.city)
        value = t.city_slots[city][len(p.city_meeples[city])]
        return say("option.mission", n=a.slot + 1, track=track_name(a.track),
                   rank=t.career_rank[a.slot], city=city_name(a.city), value=value)
    if isinstance(a, Marry):
        return _n("option.marry", a.dowry, city=city_name(a.city), vp=a.dowry * t.vp_per_dowry)
    return _answer_option(p, a)


def _answer_option(p: Position, a: Any) -> str:
    t = p.t
    if isinstance(a, FaceDown):
        return say("option.face-down", row=row_name(a.row))
    if isinstance(a, Hire):
        return say("option.hire-free", helper=helper_text(t, a.helper))
    if isinstance(a, Activate):
        if a.use:
            return say("option.activate", helper=acting_helper_text(p, a))
        return say("option.not-activate")
    if isinstance(a, Reward):
        if a.choice == "florins":
            return say("option.reward-florins", n=t.reward_florins)
        return say("option.reward", reward=reward_text(t, p.rewards[p.round - 1]))
    if isinstance(a, Wedding):
        return _wedding_option(p, a)
    if isinstance(a, BuyVp):
        if a.accept:
            return say("option.buy", florins=t.buy_florins, vp=t.buy_vp)
        return say("option.no-buy")
    return repr(a)


def _choose_option(p: Position, a: ChooseAction) -> str:
    t = p.t
    c = p.stack[-1][2] if p.stack and p.stack[-1][0] == "choose" else -1
    if a.kind == "signoria":
        if c < 0:
            return say("option.signoria-any")
        return say("option.signoria", name=signoria_name(t, c),
                   effect=effect_text(t.signoria[c]))
    if a.kind == "helper":
        return say("option.hire", helper=helper_text(t, a.helper))
    meeples = _meeples(a.meeples, a.sex)
    if c < 0:
        return say("option.assignment-any", meeples=meeples)
    slot = next(i for i in t.colour_assignment_slots[c]
                if t.assignment_slots[i][1] == SEXES.index(a.sex))
    tile = p.assignment[slot]
    effect = effect_text(t.tile_effect[tile], a.meeples if t.tile_repeat[tile] else 1)
    return say("option.assignment", name=tile_name(t, tile), meeples=meeples, effect=effect)


def _advance_option(t: Tables, a: Advance) -> str:
    if a.move == "new":
        return say("option.advance-new", track=track_name(a.track))
    if a.move == "up":
        return say("option.advance-up", track=track_name(a.track), n=a.slot + 1,
                   to=a.slot + 2, vp=t.career_vp[a.slot + 1], rank=t.career_rank[a.slot + 1])
    if a.move == "initiative":
        return say("option.advance-initiative")
    return say("option.advance-stop")


def _wedding_option(p: Position, a: Wedding) -> str:
    t = p.t
    if not a.accept:
        return say("option.no-wedding")
    seat = a.seat if 0 <= a.seat < p.n else 0
    florins = t.wedding_florins if p.round in t.wedding_rounds else 0
    fields = {"n": p.brides[seat] + 1, "vp": t.bride_vp[p.brides[seat]]}
    if florins:
        return say("option.wedding-florins", florins=florins, **fields)
    return say("option.wedding", **fields)
