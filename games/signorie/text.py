"""Everything a player reads about Signorie: actions, log lines, effects, in the game's words."""

from __future__ import annotations

from typing import Any

from tabletop import i18n
from tabletop.game import LogEntry

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
from .engine import VP_TILE, die_cost
from .state import Position
from .tables import SEXES, Tables

CRITERIA = {
    "helper": "hired helper", "city": "city holding one of his meeples",
    "career_meeple": "meeple on a Career track", "scoring_row": "plan row of 3 or more tiles",
    "married_man": "married man", "face_up_tile": "face-up alliance tile",
}
SOURCES = {
    "missions": "Diplomatic Missions", "marriages": "Marriages", "initiative": "Initiative track",
    "rewards": "Reward tiles", "helpers": "Helpers", "assignments": "Assignments",
    "weddings": "Weddings", "careers": "Career tracks (end)", "alliances": "Alliance rows (end)",
}
#: The signs of the two kinds of meeple, as the terminal draws them.
SEX_SIGNS = ("♂", "♀")
ORDINALS = ("1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th")


def effect_text(eff: tuple[str, int, str], times: int = 1) -> str:
    """An effect as printed on a tile or helper, e.g. `2 initiative steps`."""
    kind, amount, criterion = eff
    n = amount * times
    if kind == "florins":
        return f"{n} florins"
    if kind == "vp":
        return f"{n} VP"
    if kind == "initiative":
        return f"{n} initiative step{'s' if n != 1 else ''}"
    if kind == "advance":
        return f"up to {n} advancement point{'s' if n != 1 else ''}"
    if kind == "mission":
        return "a Diplomatic Mission"
    if kind == "marriage":
        return "a Marriage"
    if kind == "face_down_tile":
        return "a face-down alliance tile"
    if kind == "threshold":
        return f"the threshold raised by {n}"
    if kind == "offspring":
        return f"{n} offspring dice" if amount else "an Offspring roll (a die per married man)"
    if kind == "helper":
        return "a free helper"
    if kind == "vp_per":
        return f"{amount} VP per {CRITERIA[criterion]}"
    return kind


def helper_text(t: Tables, h: int) -> str:
    return (f"the {ORDINALS[t.helper_order[h] - 1]} {t.colours[t.helper_column[h]]} helper "
            f"({effect_text(t.helper_effect[h])})")


def tile_text(t: Tables, tile: int) -> str:
    return f"{t.houses[t.tile_house[tile]]} {t.tile_vp[tile]}"


def reward_text(t: Tables, reward: int) -> str:
    if reward >= VP_TILE:
        return effect_text(t.vp_tiles[reward - VP_TILE])
    return effect_text(t.bonus_tiles[reward])


def _slot(t: Tables, slot: int) -> str:
    return f"slot {slot + 1} ({t.career_vp[slot]} VP, rank {t.career_rank[slot]})"


def describe_action(p: Position, a: Any) -> str:
    t = p.t
    who = p.names[a.seat] if 0 <= getattr(a, "seat", -1) < p.n else f"Seat {a.seat}"
    if isinstance(a, TakeDie):
        c = t.colours.index(a.colour) if a.colour in t.colours else -1
        cost = die_cost(p, c, a.value) if c >= 0 else 0
        paid = f", paying {cost} florin{'s' if cost != 1 else ''}" if cost else ", for free"
        return f"{who} takes a {a.colour} die showing {a.value}{paid}."
    if isinstance(a, Pass):
        return f"{who} passes."
    if isinstance(a, ChooseAction):
        return who + " " + _choose_text(p, a)
    if isinstance(a, Advance):
        return who + " " + _advance_text(t, a)
    if isinstance(a, Mission):
        return (f"{who} sends the male meeple on {_slot(t, a.slot)} of the {a.track} track on a "
                f"Diplomatic Mission to {a.city}.")
    if isinstance(a, Marry):
        return (f"{who} arranges a Marriage in {a.city} with a dowry of {a.dowry} florins "
                f"({a.dowry * t.vp_per_dowry} VP).")
    if isinstance(a, FaceDown):
        return f"{who} places a face-down alliance tile next to the {a.row} row."
    if isinstance(a, Hire):
        return f"{who} takes a free helper: {helper_text(t, a.helper)}."
    if isinstance(a, Activate):
        verb = "activates" if a.use else "does not activate"
        return f"{who} {verb} {helper_text(t, a.helper)}."
    if isinstance(a, Reward):
        if a.choice == "florins":
            return f"{who} takes {t.reward_florins} florins as the reward."
        return f"{who} takes the reward: {reward_text(t, p.rewards[p.round - 1])}."
    if isinstance(a, Wedding):
        return f"{who} {'arranges' if a.accept else 'does not arrange'} a wedding for a son."
    if isinstance(a, BuyVp):
        verb = "pays" if a.accept else "does not pay"
        return f"{who} {verb} {t.buy_florins} florins for {t.buy_vp} VP."
    return repr(a)


def _choose_text(p: Position, a: ChooseAction) -> str:
    t = p.t
    if a.kind == "signoria":
        f = p.stack[-1] if p.stack and p.stack[-1][0] == "choose" else None
        name = t.signoria_name[f[2]] if f else "the Signoria action"
        return f"performs the Signoria action: {name}."
    if a.kind == "helper":
        return f"hires {helper_text(t, a.helper)} for {t.helper_cost[a.helper]} florins."
    tile_name, what = "", ""
    if p.stack and p.stack[-1][0] == "choose" and a.sex in SEXES:
        c = p.stack[-1][2]
        slot = next(i for i in t.colour_assignment_slots[c]
                    if t.assignment_slots[i][1] == SEXES.index(a.sex))
        tile = p.assignment[slot]
        tile_name = f" '{t.tile_name[tile]}'"
        what = f" ({effect_text(t.tile_effect[tile], a.meeples if t.tile_repeat[tile] else 1)})"
    plural = "s" if a.meeples != 1 else ""
    return f"performs the assignment{tile_name} with {a.meeples} {a.sex} meeple{plural}{what}."


def _advance_text(t: Tables, a: Advance) -> str:
    if a.move == "new":
        return f"places a male meeple from his supply on the {a.track} track."
    if a.move == "up":
        return f"moves a meeple up the {a.track} track from slot {a.slot + 1}."
    if a.move == "initiative":
        return "moves his disc up the Initiative track."
    return "stops using advancement points."


def describe_log(p: Position, entry: LogEntry) -> str:
    t, d = p.t, entry.data
    who = p.names[entry.seat] if entry.seat is not None else ""
    k = entry.kind
    if k == "setup":
        order = ", ".join(p.names[s] for s in d["order"])
        return (f"Setup: turn order {order}; cities {', '.join(d['cities'])}; reward tiles "
                + "; ".join(reward_text(t, r) for r in d["rewards"]) + ".")
    if k == "round":
        dice = "; ".join(f"{c} {' '.join(map(str, v))}" for c, v in d["dice"].items())
        return f"Round {d['round']} begins. Dice: {dice}."
    if k == "take_die":
        unit = "florin" if d["cost"] == 1 else "florins"
        paid = f", paying {d['cost']} {unit}" if d["cost"] else ""
        return f"{who} takes a {d['colour']} die showing {d['value']}{paid}."
    if k == "pass":
        return f"{who} {'must pass' if d['forced'] else 'passes'}."
    if k == "signoria":
        return f"{who} performs the {d['colour']} Signoria action: {d['name']}."
    if k == "assignment":
        return (f"{who} performs the {d['colour']} assignment '{t.tile_name[d['tile']]}' with "
                f"{d['meeples']} {d['sex']} meeple{'s' if d['meeples'] != 1 else ''}.")
    if k == "hire":
        cost = f" for {d['cost']} florins" if d["cost"] else " for free"
        return f"{who} hires {helper_text(t, d['helper'])}{cost}."
    if k == "helper":
        verb = "activates" if d["use"] else "does not activate"
        return f"{who} {verb} {helper_text(t, d['helper'])}."
    return _describe_more(p, entry, who)


def _describe_more(p: Position, entry: LogEntry, who: str) -> str:
    t, d, k = p.t, entry.data, entry.kind
    if k == "florins":
        return f"{who} receives {d['florins']} florins."
    if k == "score":
        return f"{who} scores {d['points']} VP ({SOURCES.get(d['source'], d['source'])})."
    if k == "initiative":
        return f"{who}'s disc reaches slot {d['slot']} of the Initiative track."
    if k == "advance":
        how = "places a new meeple on" if d["new"] else "moves a meeple up"
        return f"{who} {how} the {d['track']} track (slot {d['slot'] + 1})."
    if k == "mission":
        tile = f" and takes the alliance tile {tile_text(t, d['tile'])}" if d["tile"] >= 0 else ""
        return (f"{who} sends a meeple from the {d['track']} track on a Diplomatic Mission to "
                f"{d['city']} (slot valued {d['value']}){tile}.")
    if k == "marriage":
        tile = f" and takes the alliance tile {tile_text(t, d['tile'])}" if d["tile"] >= 0 else ""
        return f"{who} arranges a Marriage in {d['city']} with a dowry of {d['dowry']}{tile}."
    if k == "face_down":
        return f"{who} places a face-down alliance tile next to the {d['row']} row."
    if k == "offspring":
        rolls = " ".join(map(str, d["rolls"]))
        return (f"{who} rolls the offspring dice: {rolls or 'none'}; {d['male']} son(s) and "
                f"{d['female']} daughter(s) join the supply.")
    if k == "rewards":
        order = ", ".join(p.names[s] for s in d["order"])
        won = ", ".join(p.names[s] for s in d["qualified"]) or "nobody"
        return f"Rewards: the new turn order is {order}; the reward goes to {won}."
    if k == "reward":
        if d["choice"] == "florins":
            return f"{who} takes {t.reward_florins} florins as the reward."
        return f"{who} receives the reward: {reward_text(t, d['tile'])}."
    if k == "wedding":
        extra = f" and receives {d['florins']} florins" if d["florins"] else ""
        return f"{who} arranges a wedding for a son{extra}."
    if k == "buy_vp":
        return f"{who} pays {d['florins']} florins for {t.buy_vp} VP."
    if k == "game_over":
        scores = ", ".join(f"{p.names[s]} {d['scores'][s]}" for s in d["order"])
        won = " and ".join(p.names[s] for s in d["winners"])
        return f"The game is over: {scores}. {won} wins."
    return f"{k}: {dict(d)}"


def score_lines(p: Position, breakdown: list[dict[str, int]]) -> list[str]:
    """The end-of-game breakdown, one line per seat."""
    out = []
    for seat, parts in enumerate(breakdown):
        items = ", ".join(f"{SOURCES[src]} {pts}" for src, pts in parts.items())
        out.append(f"{p.names[seat]}: {p.vp[seat]} VP ({items or 'nothing'})")
    return out


# -- the browser's words ------------------------------------------------------------------------

#: The game in one line, for the lobby's list of games.
DESCRIPTION = ("Renaissance families: take dice, send sons on diplomatic missions, marry "
               "daughters into the great cities, and plan alliances over seven rounds.")
PHASE_NAMES = {"actions": "Actions", "rewards": "Rewards", "over": "Game over"}
KIND_NAMES = {"signoria": "Signoria action", "assignment": "Assignment", "helper": "Helper"}
SEX_NAMES = {"male": "male", "female": "female"}


def colour_title(colour: str) -> str:
    """A colour as a name on the page: `yellow` -> `Yellow`."""
    return colour.capitalize()


def choice_text(p: Position, a: Any) -> str:
    """A choice as a button says it, to the player who makes it (no name, imperative)."""
    t = p.t
    if isinstance(a, Pass):
        return "Pass: take no more dice this round"
    if isinstance(a, Advance):
        if a.move == "new":
            return f"New meeple on the {a.track} track"
        if a.move == "up":
            return f"{a.track.capitalize()} track: up from {_slot(t, a.slot)}"
        if a.move == "initiative":
            return "Disc up the Initiative track"
        return "Stop: keep the remaining advancement points unused"
    if isinstance(a, Mission):
        return f"{a.track.capitalize()} meeple of {_slot(t, a.slot)} to {a.city}"
    if isinstance(a, Marry):
        return f"{a.city}, dowry {a.dowry} florins ({a.dowry * t.vp_per_dowry} VP)"
    if isinstance(a, FaceDown):
        return f"Next to the {a.row} row"
    if isinstance(a, Hire):
        return f"Hire {helper_text(t, a.helper)}"
    if isinstance(a, Activate):
        return f"{'Activate' if a.use else 'Do not activate'} {helper_text(t, a.helper)}"
    if isinstance(a, Reward):
        if a.choice == "florins":
            return f"Take {t.reward_florins} florins"
        return f"Take the bonus: {reward_text(t, p.rewards[p.round - 1])}"
    if isinstance(a, Wedding):
        return "Arrange a wedding for a son" if a.accept else "No wedding"
    if isinstance(a, BuyVp):
        return (f"Pay {t.buy_florins} florins for {t.buy_vp} VP" if a.accept
                else "Keep the florins")
    return describe_action(p, a)


def wedding_text(t: Tables, brides: int, round_: int) -> str:
    """What the next wedding brings a seat with `brides` married men."""
    vp = t.bride_vp[brides] if brides < len(t.bride_vp) else 0
    florins = t.wedding_florins if round_ in t.wedding_rounds else 0
    extra = f" and {florins} florins" if florins else ""
    return f"a bride on the next bride slot: {vp} VP{extra}"


def reward_step_text(p: Position, seat: int, total: int, threshold: int) -> str:
    """The threshold check of the reward step, for one seat."""
    verdict = "receives the reward" if total <= threshold else "receives no reward"
    return f"{p.names[seat]}: dice {total}, threshold {threshold}: {verdict}"


def final_note(t: Tables) -> str:
    """How the end scoring counts, from the rules' numbers."""
    return (f"Career meeples score their slot's VP divided by {t.career_divisor} (rounded "
            f"down); a plan row of {t.row_min} or more tiles scores its face-up tiles' values "
            f"and {t.back_vp} VP per face-down tile. Ties go to the higher place in the turn "
            "order.")


# -- the terminal game: menus, questions, the table's labels ------------------------------------

#: Every sentence of the terminal game, filled by `say`.
MESSAGES: dict[str, str] = {
    "seat.human": "{colour}",
    "seat.you": "{colour} (you)",
    "seat.bot": "{title} {n}",
    "error.option": "Signorie has no {option} (it is played without scenarios or variants)",
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
            "Commands: board (the whole table again), log (the last moves), help (this), "
            "quit (leave the game, after a confirmation).",
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
}


def say(key: str, **fields: Any) -> str:
    """The terminal's sentence `key` in the language of the moment (`tabletop.i18n`, domain
    `signorie`), with its fields filled in."""
    return i18n.gettext("signorie", MESSAGES[key]).format(**fields)


def question_text(p: Position, frame: list) -> str:
    """The question the decision `frame` asks, for the player who answers it."""
    t, kind = p.t, frame[0]
    if kind == "choose":
        return say("question.choose", colour=t.colours[frame[2]])
    if kind == "advance":
        return say("question.advance", left=frame[2])
    if kind == "buy":
        return say("question.buy", florins=t.buy_florins, vp=t.buy_vp)
    return say(f"question.{kind}")


def option_text(p: Position, a: Any) -> str:
    """A legal action as a menu line: what the player does, without naming them."""
    t = p.t
    if isinstance(a, TakeDie):
        return f"take the {a.colour} die showing {a.value}"
    if isinstance(a, Pass):
        return "pass: take no more dice this round"
    if isinstance(a, ChooseAction):
        return _choose_option(p, a)
    if isinstance(a, Advance):
        return _advance_option(t, a)
    if isinstance(a, Mission):
        city = t.city_names.index(a.city)
        value = t.city_slots[city][len(p.city_meeples[city])]
        return (f"the meeple on slot {a.slot + 1} of the {a.track} track (rank "
                f"{t.career_rank[a.slot]}) to {a.city}, slot valued {value}")
    if isinstance(a, Marry):
        unit = "florin" if a.dowry == 1 else "florins"
        return f"{a.city}, a dowry of {a.dowry} {unit} ({a.dowry * t.vp_per_dowry} VP)"
    if isinstance(a, FaceDown):
        return f"the {a.row} row"
    if isinstance(a, Hire):
        return f"take {helper_text(t, a.helper)} for free"
    if isinstance(a, Activate):
        return f"activate {helper_text(t, a.helper)}" if a.use else "do not activate it"
    if isinstance(a, Reward):
        if a.choice == "florins":
            return f"take {t.reward_florins} florins"
        return f"take the bonus: {reward_text(t, p.rewards[p.round - 1])}"
    if isinstance(a, Wedding):
        return _wedding_option(p, a)
    if isinstance(a, BuyVp):
        return f"pay {t.buy_florins} florins for {t.buy_vp} VP" if a.accept else \
            "keep the florins"
    return repr(a)


def _choose_option(p: Position, a: ChooseAction) -> str:
    t = p.t
    c = p.stack[-1][2] if p.stack and p.stack[-1][0] == "choose" else -1
    if a.kind == "signoria":
        if c < 0:
            return "the Signoria action"
        return f"Signoria action {t.signoria_name[c]}: {effect_text(t.signoria[c])}"
    if a.kind == "helper":
        return f"hire {helper_text(t, a.helper)}"
    plural = "s" if a.meeples != 1 else ""
    if c < 0:
        return f"an assignment with {a.meeples} {a.sex} meeple{plural}"
    slot = next(i for i in t.colour_assignment_slots[c]
                if t.assignment_slots[i][1] == SEXES.index(a.sex))
    tile = p.assignment[slot]
    effect = effect_text(t.tile_effect[tile], a.meeples if t.tile_repeat[tile] else 1)
    return f"assignment '{t.tile_name[tile]}' with {a.meeples} {a.sex} meeple{plural}: {effect}"


def _advance_option(t: Tables, a: Advance) -> str:
    if a.move == "new":
        return f"a new male meeple on the {a.track} track"
    if a.move == "up":
        return (f"a meeple up the {a.track} track, slot {a.slot + 1} to {a.slot + 2} "
                f"({t.career_vp[a.slot + 1]} VP, rank {t.career_rank[a.slot + 1]})")
    if a.move == "initiative":
        return "your disc up the Initiative track"
    return "stop here"


def _wedding_option(p: Position, a: Wedding) -> str:
    t = p.t
    if not a.accept:
        return "no wedding"
    seat = a.seat if 0 <= a.seat < p.n else 0
    florins = t.wedding_florins if p.round in t.wedding_rounds else 0
    extra = f" and {florins} florins" if florins else ""
    return (f"a bride on slot {p.brides[seat] + 1}: {t.bride_vp[p.brides[seat]]} VP"
            f"{extra}")
