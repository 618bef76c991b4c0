"""What goes over the wire: the table's fixed facts and a seat's view, as plain JSON.

Every message is built from `GAME.view(state, seat)` (the public view for spectators), which
holds the alliance stack and the face-down tiles only as counts, so no message can carry them.
The names, values, costs and limits come from the component tables and every sentence from
`tavola.games.signorie.text`: the page draws what it is sent and writes no rule of its own.
"""

from __future__ import annotations

import functools
import random
from typing import Any

from tavola import i18n

from .. import engine as e
from .. import text
from ..actions import Activate, ChooseAction, Pass, TakeDie, action_to_json
from ..components import ALWAYS_WANTED
from ..places import printed_place
from ..preview import full_state
from ..refusals import effect_refusal, explain
from ..state import REWARDS, SCORE_SOURCES, Position, SignorieState, SignorieView
from ..tables import ROW_NAMES, SEXES, Tables, tables

#: Each seat colour as the page paints it, with the second cue that does not need the colour:
#: a letter and a meeple shape (Okabe-Ito hues, told apart by most colour-blind players too).
PLAYER_LOOKS: dict[str, dict[str, str]] = {
    "yellow": {"fill": "#f0e442", "ink": "#3b2a1a", "letter": "Y", "shape": "circle"},
    "red": {"fill": "#d55e00", "ink": "#ffffff", "letter": "R", "shape": "square"},
    "purple": {"fill": "#9b5fc0", "ink": "#ffffff", "letter": "P", "shape": "triangle"},
    "blue": {"fill": "#0072b2", "ink": "#ffffff", "letter": "B", "shape": "diamond"},
}
#: The die colours as painted (the dice also carry their colour's name).
DIE_LOOKS: dict[str, dict[str, str]] = {
    "yellow": {"fill": "#f3d34a", "ink": "#3b2a1a"},
    "red": {"fill": "#c0392b", "ink": "#ffffff"},
    "violet": {"fill": "#7d4fa0", "ink": "#ffffff"},
    "grey": {"fill": "#8a8f94", "ink": "#ffffff"},
    "turquoise": {"fill": "#2aa39a", "ink": "#ffffff"},
}
#: The shapes a board colour without a look of its own is drawn in (an edition's colour).
OTHER_SHAPES = ("circle", "square", "triangle", "diamond")


def player_look(colour: str) -> dict[str, str]:
    """A seat colour's look; a colour an edition names that has none: grey, its initial and a
    shape of its own among the four."""
    found = PLAYER_LOOKS.get(colour)
    if found is not None:
        return found
    shape = OTHER_SHAPES[sum(map(ord, colour)) % len(OTHER_SHAPES)]
    return {"fill": "#8a8f94", "ink": "#ffffff", "letter": (colour[:1] or "?").upper(),
            "shape": shape}


HOUSE_LOOKS = ("#c7473b", "#3a7cc2", "#e0b12f", "#3e9a5b", "#8e4fa8", "#d07a2a")


# -- the fixed table -----------------------------------------------------------------------------


def effect_json(eff: tuple[str, int, str] | None) -> dict[str, Any] | None:
    if eff is None:
        return None
    return {"kind": eff[0], "amount": eff[1], "text": text.effect_text(eff)}


def table_json(t: Tables | None = None) -> dict[str, Any]:
    """Everything printed on the board and the player boards, for drawing the table once."""
    t = t or tables()
    colours = []
    for c, colour in enumerate(t.colours):
        colours.append({
            "id": colour, "name": text.colour_title(colour), "cost": t.cost[c],
            "signoria": {"name": text.signoria_name(t, c), **(effect_json(t.signoria[c]) or {})},
            "ring": t.colours[t.ring[c]],
            "helpers": [helper_json(t, h) for h in t.column_helpers[c]],
            "assignment_slots": list(t.colour_assignment_slots[c]),
            "look": DIE_LOOKS.get(colour, {"fill": "#999999", "ink": "#ffffff"}),
        })
    return {
        "title": "Signorie", "description": text.description(),
        "components": t.edition,
        "colours": colours,
        "assignment_slots": [{"colour": t.colours[c], "sex": SEXES[sex]}
                             for c, sex in t.assignment_slots],
        "tracks": [{"id": tr, "name": text.track_title(tr)} for tr in t.tracks],
        "career": [{"slot": i, "vp": vp, "rank": t.career_rank[i],
                    "bonus": effect_json(t.career_bonus[i])}
                   for i, vp in enumerate(t.career_vp)],
        "initiative": list(t.initiative_vp),
        "cities": [{"id": name, "name": text.city_name(name), "slots": list(t.city_slots[i]),
                    "places": [printed_place(t.city_slots[i], k)
                               for k in range(len(t.city_slots[i]))]}
                   for i, name in enumerate(t.city_names)],
        "assignment_tiles": [{"tile": i, "name": text.tile_name(t, i),
                              "effect": effect_json(t.tile_effect[i]),
                              "most": 3 if t.tile_repeat[i] else 1}
                             for i in range(len(t.tile_effect))],
        "bonus_tiles": [effect_json(e) for e in t.bonus_tiles],
        "vp_tiles": [effect_json(e) for e in t.vp_tiles],
        "alliance_tiles": [tile_json(t, i) for i in range(len(t.tile_house))],
        "brides": list(t.bride_vp),
        "houses": [{"name": h, "colour": HOUSE_LOOKS[i % len(HOUSE_LOOKS)]}
                   for i, h in enumerate(t.houses)],
        "rows": [{"id": r, "name": text.row_title(r)} for r in ROW_NAMES],
        "boards": {colour: [list(row) for row in t.plan_shields[i]]
                   for i, colour in enumerate(t.board_colours)},
        "looks": {colour: {**player_look(colour), "name": text.colour_title(colour)}
                  for colour in dict.fromkeys([*PLAYER_LOOKS, *t.board_colours])},
        "sources": [{"id": s, "name": text.SOURCES[s]} for s in SCORE_SOURCES],
        "phases": dict(text.PHASE_NAMES), "kinds": dict(text.KIND_NAMES),
        "rules": {"rounds": t.rounds, "max_dice": t.max_dice, "threshold": t.threshold_base,
                  "threshold_max": t.threshold_max, "dowry_max": t.dowry_max,
                  "vp_per_dowry": t.vp_per_dowry, "reward_florins": t.reward_florins,
                  "row_min": t.row_min, "offspring_female_max": t.offspring_female_max},
        "note": text.final_note(t),
    }


def helper_json(t: Tables, h: int) -> dict[str, Any]:
    return {"index": h, "colour": t.colours[t.helper_column[h]], "order": t.helper_order[h],
            "cost": t.helper_cost[h], "effect": {
                **(effect_json(t.helper_effect[h]) or {}), "per_pips": t.helper_per_pips[h],
                "text": text.helper_effect_text(t, h)},
            "text": text.helper_text(t, h)}


def tile_json(t: Tables, tile: int) -> dict[str, Any] | None:
    if tile < 0:
        return None
    parts = kept(t)
    found: dict[str, Any] | None = parts.get(("tile", tile))
    if found is None:
        found = parts[("tile", tile)] = {
            "id": tile, "house": t.houses[t.tile_house[tile]], "vp": t.tile_vp[tile],
            "text": text.tile_text(t, tile)}
    return found


# -- parts kept between views ----------------------------------------------------------------------

#: Parts of the views by what they show, per table of components and language: every seat's
#: view shows the same table (the views differ only in `you` and `legal`) and most of it is as
#: it was a move before, so a part is made once and shared by the views (which only read it).
_KEPT: dict[tuple[int, str], tuple[Tables, dict[Any, Any]]] = {}
KEPT_PARTS = 20_000


def kept(t: Tables) -> dict[Any, Any]:
    """The parts kept for `t` in the language of the moment (emptied when they grow past
    `KEPT_PARTS`)."""
    key = (id(t), i18n.current())
    found = _KEPT.get(key)
    if found is None or found[0] is not t:  # holding `t`: its id is not another's meanwhile
        found = _KEPT[key] = (t, {})
    if len(found[1]) > KEPT_PARTS:
        found[1].clear()
    return found[1]


def forget_kept() -> None:
    """Drop every kept part."""
    _KEPT.clear()


# -- the log ---------------------------------------------------------------------------------------


def log_json(v: Position, start: int = 0) -> list[dict[str, Any]]:
    """The public log from entry `start` on, each entry with its sentence; the log only grows,
    so a server converts each entry once and shares it between the views of a move."""
    out = []
    rnd = 0
    for entry in v.log[:start]:
        if entry.kind == "round":
            rnd = entry.data["round"]
    for entry in v.log[start:]:
        if entry.kind == "round":
            rnd = entry.data["round"]
        item: dict[str, Any] = {"kind": entry.kind, "seat": entry.seat, "round": rnd,
                                "text": text.describe_log(v, entry)}
        if entry.kind == "score":
            item["points"] = entry.data["points"]
            item["source"] = entry.data["source"]
        out.append(item)
    return out


# -- a seat's view -------------------------------------------------------------------------------


def view_json(v: SignorieView, *, game_id: str, seq: int, seats: list[dict[str, Any]],
              log: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The whole message a seat (or a spectator) receives after every change."""
    t = v.t
    mover = v.to_move()[0] if v.to_move() else None
    return {
        "type": "state", "game": game_id, "seq": seq, "you": v.viewer,
        # the table to draw (/api/signorie/table?edition=), "" for the shipped components
        "components": t.edition,
        "round": v.round, "rounds": t.rounds, "phase": v.phase,
        "phase_name": text.PHASE_NAMES[v.phase], "order": list(v.order),
        "to_move": list(v.to_move()), "mover": mover,
        "question": _question(v) if mover is not None else None,
        "dice": [{"colour": colour, "values": list(v.dice[c]),
                  "placed": [[seat, v.taken[seat][c]] for seat in range(v.n)
                             if v.taken[seat][c]]}
                 for c, colour in enumerate(t.colours)],
        "cities": [city_json(v, c) for c in v.cities],
        "assignments": assignments_json(v),
        "rewards": rewards_json(v),
        "deck": v.deck_left(),
        "players": [{**player_json(v, seat), **seats[seat]} for seat in range(v.n)],
        "reward_step": reward_step_json(v),
        "round_summary": round_summary_json(v),
        "log": log_json(v) if log is None else log,
        "legal": legal_json(v) if v.viewer is not None and v.viewer == mover else None,
        "winners": list(e.winners(v)),
        "final": final_json(v) if v.is_over else None,
    }


def _question(v: Position) -> str:
    f = v.stack[-1]
    return text.question(f[0], v.names[f[1]])


def city_json(v: Position, c: int) -> dict[str, Any]:
    """A city of the game: its slots with their meeples, and its two tiles (kept)."""
    placed, tiles = v.city_meeples[c], v.city_tiles[c]
    key = ("city", c, tuple(placed), tuple(tiles))
    parts = kept(v.t)
    found: dict[str, Any] | None = parts.get(key)
    if found is None:
        found = parts[key] = _city_json(v, c)
    return found


def _city_json(v: Position, c: int) -> dict[str, Any]:
    t = v.t
    placed = v.city_meeples[c]
    values = t.city_slots[c]
    slots = [{"value": value, "meeple": list(placed[i]) if i < len(placed) else None,
              **printed_place(values, i)}
             for i, value in enumerate(values)]
    marriage, mission = v.city_tiles[c]
    return {"index": c, "id": t.city_names[c], "name": text.city_name(t.city_names[c]),
            "slots": slots,
            "marriage": tile_json(t, marriage), "mission": tile_json(t, mission)}


def assignments_json(v: Position) -> list[dict[str, Any]]:
    """Every assignment slot with its tile (kept: the tiles change a few times a game)."""
    t = v.t
    key = ("assignments", tuple(v.assignment))
    parts = kept(t)
    found: list[dict[str, Any]] | None = parts.get(key)
    if found is None:
        found = parts[key] = [assignment_json(t, v, slot)
                              for slot in range(len(t.assignment_slots))]
    return found


def rewards_json(v: Position) -> list[dict[str, Any]]:
    """The reward of every round, which is the current one and which are done (kept)."""
    key = ("rewards", tuple(v.rewards), v.round, v.is_over)
    parts = kept(v.t)
    found: list[dict[str, Any]] | None = parts.get(key)
    if found is None:
        found = parts[key] = [reward_json(v, r) for r in range(len(v.rewards))]
    return found


def assignment_json(t: Tables, v: Position, slot: int) -> dict[str, Any]:
    c, sex = t.assignment_slots[slot]
    tile = v.assignment[slot]
    return {"slot": slot, "colour": t.colours[c], "sex": SEXES[sex], "tile": tile,
            "name": text.tile_name(t, tile), "effect": effect_json(t.tile_effect[tile]),
            "most": 3 if t.tile_repeat[tile] else 1}


def reward_json(v: Position, r: int) -> dict[str, Any]:
    tile = v.rewards[r]
    return {"round": r + 1, "kind": "vp" if tile >= e.VP_TILE else "bonus",
            "text": text.reward_text(v.t, tile), "current": r + 1 == v.round,
            "done": r + 1 < v.round or v.is_over}


def player_json(v: Position, seat: int) -> dict[str, Any]:
    t = v.t
    total = sum(v.taken[seat])
    return {
        "seat": seat, "name": v.names[seat], "colour": v.colour_of(seat), "vp": v.vp[seat],
        "florins": v.florins[seat], "passed": v.passed[seat],
        "place": v.order.index(seat) + 1,
        "supply": {"male": v.avail[seat][0], "female": v.avail[seat][1]},
        "stock": {"male": v.stock[seat][0], "female": v.stock[seat][1]},
        "career": [list(track) for track in v.career[seat]],
        "initiative": v.init_pos[seat], "initiative_stack": v.init_stamp[seat],
        "taken": list(v.taken[seat]), "dice_sum": total,
        "threshold": e.threshold_of(v, seat),
        "threshold_meeples": {"male": v.threshold[seat][0], "female": v.threshold[seat][1]},
        "helpers": list(v.helpers[seat]), "brides": v.brides[seat],
        "rows": [{"row": row, "tiles": [tile_json(t, x) for x in v.rows[seat][i]],
                  "down": v.down[seat][i], "count": e.row_tiles(v, seat, i)}
                 for i, row in enumerate(ROW_NAMES)],
    }


def reward_step_json(v: Position) -> dict[str, Any] | None:
    """The threshold check of the round's reward step, once it has been made."""
    if v.phase != REWARDS and not v.is_over:
        return None
    entry = next((x for x in reversed(v.log) if x.kind == "rewards"), None)
    if entry is None:
        return None
    d = entry.data
    tile = v.rewards[v.round - 1]
    return {"round": v.round, "reward": text.reward_text(v.t, tile),
            "order": list(d["order"]), "qualified": list(d["qualified"]),
            "lines": [text.reward_step_text(v, s, d["sums"][s], d["thresholds"][s])
                      for s in d["order"]],
            "waiting": list(v.queue)}


def round_summary_json(v: Position) -> dict[str, Any] | None:
    """The last round's end as one table, from its log: each seat's initiative VP, dice sum
    against threshold, the reward (or the florins instead, and why), the wedding; the new turn
    order. `done` once the reward step is over: the page shows it until dismissed."""
    log = v.log
    at = next((i for i in range(len(log) - 1, -1, -1) if log[i].kind == "rewards"), None)
    if at is None:
        return None
    after = []
    for x in log[at + 1:]:
        if x.kind == "round":
            break
        after.append(x)
    done = v.is_over or len(after) < len(log) - at - 1
    # every view of the round shows the same table: kept by the very log entries it reads
    # (held, so that no other entry takes their ids), the entries before them being fixed
    entries = (log[at], *after)
    key = ("summary", id(log[at]), len(after), done, v.names)
    parts = kept(v.t)
    found = parts.get(key)
    if found is None or any(a is not b for a, b in zip(found[0], entries, strict=True)):
        found = parts[key] = (entries, _round_summary(v, at, after, done))
    summary: dict[str, Any] = found[1]
    return summary


def _round_summary(v: Position, at: int, after: list[Any], done: bool) -> dict[str, Any]:
    log = v.log
    d = log[at].data
    rnd = next((x.data["round"] for x in reversed(log[:at]) if x.kind == "round"), 1)
    initiative = [0] * v.n
    for x in reversed(log[:at]):
        if x.kind != "score" or x.data["source"] != "initiative":
            break
        initiative[x.seat] += x.data["points"]
    rows = []
    for seat in d["order"]:
        mine = [x for x in after if x.seat == seat]
        rows.append({
            "seat": seat, "initiative": initiative[seat], "sum": d["sums"][seat],
            "threshold": d["thresholds"][seat], "qualified": seat in d["qualified"],
            "reward": text.summary_reward(v, seat in d["qualified"], mine),
            "wedding": text.summary_wedding(v, mine),
            "points": sum(x.data["points"] for x in mine
                          if x.kind == "score" and x.data["source"] in ("rewards", "weddings")),
        })
    return {"round": rnd, "done": done, "order": list(d["order"]), "rows": rows}


# -- what the seat to move may do ----------------------------------------------------------------


def option(v: Position, a: Any, **more: Any) -> dict[str, Any]:
    return {"action": _action_json(a), "text": text.choice_text(v, a), **more}


def legal_json(v: SignorieView) -> dict[str, Any]:
    """The question now open and every answer, with what it costs and what it brings; for a
    turn, every die with the actions it would allow and why a closed one is closed."""
    f = v.stack[-1]
    kind, seat = f[0], f[1]
    out: dict[str, Any] = {"kind": kind, "question": text.question_text(v, f),
                           "options": [option(v, a) for a in v.legal]}
    if kind == "turn":
        out["dice"] = dice_choices(v, seat)
        out["can_pass"] = any(isinstance(a, Pass) for a in v.legal)
    elif kind == "choose":
        out["colour"] = v.t.colours[f[2]]
        out["choices"] = action_choices(v, seat, f[2])
    elif kind == "helpers":
        out["always"] = always_activate(v)
    elif kind == "advance":
        out["points"] = e.advance_left(f)
    elif kind == "mission":
        out["options"] = [option(v, a, vp=v.t.career_vp[a.slot],
                                 **_city_gain(v, seat, a.city, v.t.tracks.index(a.track)))
                          for a in v.legal]
        out["closed"] = _closed_cities(v, seat, {a.city for a in v.legal}, mission=True)
    elif kind == "marriage":
        out["options"] = [option(v, a, **_city_gain(v, seat, a.city, e.MARRIAGE_ROW))
                          for a in v.legal]
        out["closed"] = _closed_cities(v, seat, {a.city for a in v.legal}, mission=False)
    elif kind == "wedding":
        out["gain"] = text.wedding_text(v.t, v.brides[seat], v.round)
    return out


def always_activate(v: SignorieView) -> dict[str, Any] | None:
    """The activation a player's "always activate helpers" setting sends without asking: only
    for a helper whose effect is never worth refusing (`ALWAYS_WANTED`), and only as one of
    the legal answers, so the rules still decide."""
    yes = next((a for a in v.legal if isinstance(a, Activate) and a.use), None)
    if yes is None or v.t.helper_effect[yes.helper][0] not in ALWAYS_WANTED:
        return None
    return action_to_json(yes)


def _closed_cities(v: Position, seat: int, open_: set[str], *, mission: bool
                   ) -> list[dict[str, str]]:
    """The cities of the game a Diplomatic Mission or a Marriage cannot go to now, and why:
    shown greyed, not left out."""
    t = v.t
    best = e._best_rank(v, seat)
    out = []
    for c in v.cities:
        name = t.city_names[c]
        if name in open_:
            continue
        low = e._lowest_empty(v, c)
        city = text.city_name(name)
        if low >= e.INF:
            why = text.say("refuse.city-full", city=city)
        elif mission:
            why = text.say("why.mission-rank", rank=low, best=best)
        else:
            why = text.plural("why.city-dowry", low, have=v.florins[seat])
        out.append({"city": city, "why": why})
    return out


def _city_gain(v: Position, seat: int, city_name: str, row: int) -> dict[str, Any]:
    """The alliance tile a mission (to the track's row) or a marriage (to the marriage row)
    would take along: only when that plan row still shows its house's empty shield."""
    c = v.t.city_names.index(city_name)
    tile = v.city_tiles[c][e.MARRIAGE_SLOT if row == e.MARRIAGE_ROW else e.MISSION_SLOT]
    takes = tile >= 0 and e.plan_needs(v, seat, row, tile)
    row_name = text.row_name(ROW_NAMES[row])
    note = text.say("why.tile-stays", tile=text.tile_text(v.t, tile), row=row_name) \
        if tile >= 0 and not takes else ""
    return {"tile": tile_json(v.t, tile) if takes else None, "row": row_name, "tile_note": note}


def dice_choices(v: SignorieView, seat: int) -> list[dict[str, Any]]:
    """Every die left on the board: open or not (and why), its cost, and the actions of its
    colour as they would stand once it is paid for."""
    t = v.t
    legal = set(v.legal)
    # a die that pushes the dice sum over the threshold costs the round's reward
    total, threshold = sum(v.taken[seat]), e.threshold_of(v, seat)
    out = []
    for c, values in enumerate(v.dice):
        for value in sorted(set(values)):
            a = TakeDie(seat, t.colours[c], value)
            cost = e.die_cost(v, c, value)
            item: dict[str, Any] = {"colour": t.colours[c], "value": value, "cost": cost,
                                    "action": _action_json(a), "ok": a in legal,
                                    "over": total + value > threshold}
            if a in legal:
                item["choices"] = action_choices(_after_die(v, seat, c, value), seat, c)
            else:
                item["why"] = explain(v, a).message  # type: ignore[arg-type]
            out.append(item)
    return out


def _after_die(v: SignorieView, seat: int, c: int, value: int) -> SignorieView:
    """The view as it would be once `seat` has taken and paid for the die (nothing random):
    the lists the die changes are copied, the others shared with `v` (read, never written, by
    what asks about the actions of the die's colour)."""
    w = v.shallow_copy()
    w.dice = [values[:] if i == c else values for i, values in enumerate(v.dice)]
    w.taken = [taken[:] if i == seat else taken for i, taken in enumerate(v.taken)]
    w.florins = v.florins[:]
    w.dice[c].remove(value)
    w.taken[seat][c] = value
    w.florins[seat] -= e.die_cost(v, c, value)
    return w


def action_choices(v: Position, seat: int, c: int) -> list[dict[str, Any]]:
    """The three actions of colour `c` on the seat's board: the Signoria action, its two
    assignments (with how many meeples) and the helpers it may hire, each open or not."""
    t = v.t
    florins = v.florins[seat]
    legal = {a for a in e._choose_options(v, seat, c)}
    out = []
    words = _choice_words(t, c, v.brides[seat])
    sig = ChooseAction(seat, "signoria")
    out.append({"kind": "signoria", "name": words["signoria"], "effect": words["effect"],
                "cost": 0, "ok": sig in legal, "action": _action_json(sig),
                "why": "" if sig in legal else effect_refusal(v, seat, t.signoria[c])})
    for slot in t.colour_assignment_slots[c]:
        sex = t.assignment_slots[slot][1]
        tile = v.assignment[slot]
        most = 3 if t.tile_repeat[tile] else 1
        tile_words = _tile_words(t, tile)
        counts = []
        for k in range(1, most + 1):
            a = ChooseAction(seat, "assignment", SEXES[sex], k)
            why = ""
            if v.avail[seat][sex] < k:
                why = text.not_in_supply(k, SEXES[sex])
            elif a not in legal:
                why = effect_refusal(v, seat, t.tile_effect[tile], sex, k, times=k)
            counts.append({"meeples": k, "ok": a in legal, "action": _action_json(a),
                           "effect": tile_words[k], "why": why})
        out.append({"kind": "assignment", "sex": SEXES[sex], "name": tile_words["name"],
                    "effect": tile_words["effect"], "cost": 0,
                    "ok": any(x["ok"] for x in counts), "counts": counts,
                    "why": "" if any(x["ok"] for x in counts) else counts[0]["why"]})
    for h in t.column_helpers[t.ring[c]]:
        a = ChooseAction(seat, "helper", "", 0, h)
        why = ""
        if v.helpers[seat][h]:
            why = text.say("why.helper-filled")
        elif t.helper_cost[h] > florins:
            why = text.plural("why.helper-cost", t.helper_cost[h], left=florins)
        out.append({"kind": "helper", "helper": h, "name": words[h]["name"],
                    "effect": words[h]["effect"], "cost": t.helper_cost[h],
                    "ok": a in legal, "action": _action_json(a), "why": why})
    return out


def _choice_words(t: Tables, c: int, brides: int) -> dict[Any, Any]:
    """The words of a colour's actions that no position changes: its Signoria action (with
    its effect for `brides`) and the helpers of its ring (kept)."""
    key = ("choices", c, brides)
    parts = kept(t)
    found: dict[Any, Any] | None = parts.get(key)
    if found is None:
        found = parts[key] = {
            "signoria": text.signoria_name(t, c), "effect": text.effect_now(t.signoria[c], brides),
            **{h: {"name": text.helper_text(t, h), "effect": text.helper_effect_text(t, h)}
               for h in t.column_helpers[t.ring[c]]}}
    return found


def _tile_words(t: Tables, tile: int) -> dict[Any, str]:
    """An assignment tile's name and effect, and its effect done k times by key k (kept)."""
    parts = kept(t)
    found: dict[Any, str] | None = parts.get(("tile words", tile))
    if found is None:
        effect = t.tile_effect[tile]
        found = parts[("tile words", tile)] = {
            "name": text.tile_name(t, tile), "effect": text.effect_text(effect),
            **{k: text.effect_text(effect, k) for k in range(1, 4)}}
    return found


#: An action as JSON, made once per action (shared: read, never written).
_action_json = functools.lru_cache(maxsize=8192)(action_to_json)


# -- the end ---------------------------------------------------------------------------------------


def final_json(v: Position) -> dict[str, Any]:
    """The final scoring row by row (each source of points), from the engine's own score
    events, never computed again; with the end-of-game sentences and the places."""
    breakdown = e.score_breakdown(v)
    rows = [{"source": s, "name": text.SOURCES[s], "points": [b[s] for b in breakdown]}
            for s in SCORE_SOURCES]
    end = [text.describe_log(v, x) for x in _final_entries(v)]
    keys = [(v.vp[p], -v.order.index(p)) for p in range(v.n)]
    places = [1 + sum(1 for other in keys if other > k) for k in keys]
    return {"rows": rows, "totals": list(v.vp), "winners": list(e.winners(v)),
            "places": places, "end": end, "lines": text.score_lines(v, breakdown),
            "note": text.final_note(v.t)}


def _final_entries(v: Position) -> list[Any]:
    """The score entries of the end scoring (careers, alliance rows)."""
    out = []
    for x in reversed(v.log):
        if x.kind == "score" and x.data["source"] in ("careers", "alliances"):
            out.append(x)
        elif x.kind not in ("score", "game_over"):
            break
    return out[::-1]


def preview_json(old: Position, action: Any, new: Position) -> dict[str, Any]:
    """What a choice would bring the seat making it, for the check before it is made; it
    stops before anything chance decides (a roll, a new round), which only the move reveals.
    A die's check also previews each action the die allows (`then`): a die and its action are
    one choice for the player, so its preview shows what both bring together."""
    out = _gain_json(old, action, new)
    if isinstance(action, TakeDie) and isinstance(new, SignorieState):
        out["then"] = _then_json(new, action.seat)
    return out


def _gain_json(old: Position, action: Any, new: Position) -> dict[str, Any]:
    seat = action.seat
    events: list[str] = []
    hidden = False
    for entry in new.log[len(old.log):]:
        if entry.kind in ("offspring", "round", "setup"):
            hidden = True
            break
        events.append(text.describe_log(new, entry))
    # points and florins never hang on a roll or a draw, so they are shown whole
    gain = {"vp": new.vp[seat] - old.vp[seat], "florins": new.florins[seat] - old.florins[seat]}
    if hidden:
        events.append(text.preview_hidden())
    top = new.stack[-1] if new.stack and not hidden else None
    asks = top is not None and top[1] == seat and top[0] not in ("turn", "choose") \
        and new.round == old.round
    return {"points": gain["vp"], "florins": gain["florins"], "events": events,
            "next": text.preview_next(new, top) if asks else "",
            "text": text.choice_text(old, action)}


def _then_json(new: SignorieState, seat: int) -> list[dict[str, Any]]:
    """Each action of the die just taken, tried on the seat's own view completed at random
    (`preview.full_state`), so that no roll and no hidden tile of the real game can show."""
    if not new.stack or new.stack[-1][0] != "choose" or new.stack[-1][1] != seat:
        return []
    base = full_state(e.view(new, seat), random.randrange(1 << 30))
    out = []
    for a in e.legal_actions(base, seat):
        after = base.clone()
        e.apply_in_place(after, a)
        out.append({"action": action_to_json(a), **_gain_json(base, a, after)})
    return out
