"""Signorie's table as a newcomer reads it, without a browser: the previews of a die and its
action, the end-of-round summary, the warnings and the wording addressed to the player."""

from __future__ import annotations

import json
import random

from tavola.games.signorie.actions import ChooseAction, TakeDie
from tavola.games.signorie.game import GAME
from tavola.games.signorie.text import describe_log
from tavola.games.signorie.web.wire import preview_json, round_summary_json, view_json

KEY = json.dumps


def _games(seeds: range, players: int = 2):
    """Every decision of some random games: (state, seat to move)."""
    for seed in seeds:
        rng = random.Random(seed)
        s = GAME.new_game([f"P{i}" for i in range(players)], seed)
        while not s.is_over:
            seat = s.to_move()[0]
            yield s, seat
            s = GAME.apply(s, rng.choice(GAME.legal_actions(s, seat)))


def test_a_die_preview_shows_what_the_die_and_each_action_bring_together():
    """The florins of a Florins action, a helper's price on top of the die's, the VP of an
    assignment: the preview of die + action is what taking both really changes."""
    tried = 0
    seen: set[str] = set()
    for s, seat in _games(range(3)):
        for a in GAME.legal_actions(s, seat):
            if not isinstance(a, TakeDie):
                continue
            new = GAME.apply(s, a)
            p = preview_json(s, a, new)
            offered = {KEY(x["action"], sort_keys=True): x for x in p["then"]}
            legal = GAME.legal_actions(new, seat)
            assert len(offered) == len(legal)
            for b in legal:
                after = GAME.apply(new, b)
                then = offered[KEY(GAME.action_to_json(b), sort_keys=True)]
                assert p["florins"] + then["florins"] == after.florins[seat] - s.florins[seat]
                assert p["points"] + then["points"] == after.vp[seat] - s.vp[seat]
                if b.kind == "helper":
                    price = s.t.helper_cost[b.helper] + (s.florins[seat] - new.florins[seat])
                    assert p["florins"] + then["florins"] == -price
                seen.add(b.kind)
                tried += 1
        if tried > 400 and len(seen) == 3:
            break
    assert tried > 400 and seen == {"signoria", "assignment", "helper"}


def test_a_die_preview_says_what_comes_next_and_never_shows_a_roll():
    nexts = rolls = 0
    for s, seat in _games(range(2)):
        for a in GAME.legal_actions(s, seat):
            if not isinstance(a, TakeDie):
                continue
            new = GAME.apply(s, a)
            for then in preview_json(s, a, new)["then"]:
                b = GAME.action_from_json(then["action"])
                assert isinstance(b, ChooseAction)
                after = GAME.apply(new, b)
                if len(after.chance) > len(new.chance):
                    rolls += 1
                    assert "decide" in then["events"][-1]
                    assert not any("rolls" in e for e in then["events"])
                top = after.stack[-1] if after.stack else None
                if top and top[1] == seat and top[0] in ("advance", "mission", "marriage"):
                    assert then["next"], then
                    nexts += 1
    assert nexts > 5 and rolls > 0


def test_the_round_summary_tells_each_seat_its_reward_or_why_not():
    """After every reward step: initiative VP, dice against threshold, the reward taken or the
    florins instead (chosen, or forced with the reason), and the new turn order."""
    summaries = forced = over = 0
    for seed in range(6):
        rng = random.Random(seed)
        s = GAME.new_game(["A", "B", "C"], seed)
        while not s.is_over:
            seat = s.to_move()[0]
            old_round = s.round
            s = GAME.apply(s, rng.choice(GAME.legal_actions(s, seat)))
            if s.round == old_round and not s.is_over:
                continue
            summary = round_summary_json(GAME.view(s, 0))
            assert summary and summary["done"] and summary["round"] == old_round
            entry = next(x for x in reversed(s.log) if x.kind == "rewards")
            assert summary["order"] == entry.data["order"]
            for row in summary["rows"]:
                p = row["seat"]
                assert (row["sum"], row["threshold"]) == (entry.data["sums"][p],
                                                          entry.data["thresholds"][p])
                assert row["qualified"] == (p in entry.data["qualified"])
                assert row["reward"]
                if not row["qualified"]:
                    over += 1
                    assert "threshold" in row["reward"]
                taken = [x for x in s.log if x.kind == "reward" and x.seat == p
                         and x.data.get("forced")]
                if taken and "instead of" in row["reward"] and "chosen" not in row["reward"]:
                    forced += 1
                    assert row["reward"].split(": ", 1)[1]  # the reason is said
            scored = sorted(r["initiative"] for r in summary["rows"] if r["initiative"])
            initiative = [x.data["points"] for x in s.log if x.kind == "score"
                          and x.data["source"] == "initiative"][-len(scored):] if scored else []
            assert scored == sorted(initiative)
            summaries += 1
    assert summaries == 6 * 7 and forced > 0 and over > 0


def test_the_summary_waits_during_the_reward_step():
    s = GAME.new_game(["A", "B"], 1)
    rng = random.Random(1)
    while s.phase != "rewards":
        s = GAME.apply(s, rng.choice(GAME.legal_actions(s, s.to_move()[0])))
    summary = round_summary_json(GAME.view(s, None))
    assert summary is not None and not summary["done"]


def _first(pred, seeds=range(8), players=2):
    """The first decision of some random games for which `pred(state, seat, view)` holds."""
    for s, seat in _games(seeds, players):
        v = view_json(GAME.view(s, seat), game_id="g", seq=0, seats=[{}] * players)
        if pred(s, seat, v):
            return s, seat, v
    raise AssertionError("no such decision")


def test_refusals_speak_to_the_player_with_the_right_number():
    s, seat, v = _first(lambda s, seat, v: v["legal"]["kind"] == "turn" and any(
        not d["ok"] and d["cost"] > s.florins[seat] for d in v["legal"]["dice"]))
    die = next(d for d in v["legal"]["dice"] if not d["ok"] and d["cost"] > s.florins[seat])
    assert f"you have {s.florins[seat]}" in die["why"] and s.names[seat] not in die["why"]
    one = "florin," if die["cost"] == 1 else "florins,"
    assert f"costs {die['cost']} {one}" in die["why"]
    helper = [c["why"] for _, _, v in [_first(lambda s, seat, v: any(
        c["kind"] == "helper" and "hiring costs" in c["why"]
        for d in (v["legal"] or {}).get("dice", []) if d["ok"] for c in d["choices"]))]
        for d in v["legal"]["dice"] if d["ok"] for c in d["choices"]
        if c["kind"] == "helper" and c["why"]]
    assert any("after paying for the die you have" in w for w in helper)
    assert not any("1 florins" in w for w in helper)


def test_a_die_over_the_threshold_is_flagged_before_it_is_taken():
    _s, seat, v = _first(lambda s, seat, v: v["legal"]["kind"] == "turn" and any(
        d["over"] for d in v["legal"]["dice"]))
    me = v["players"][seat]
    for d in v["legal"]["dice"]:
        assert d["over"] == (me["dice_sum"] + d["value"] > me["threshold"])


def test_closed_cities_are_shown_with_their_reason_and_the_tiles_that_stay():
    def closed(s, seat, v):
        return v["legal"] and v["legal"]["kind"] in ("marriage", "mission") \
            and v["legal"]["closed"]
    s, _seat, v = _first(closed, range(30), 3)
    open_ = {o["action"]["city"] for o in v["legal"]["options"]}
    for c in v["legal"]["closed"]:
        assert c["why"] and c["city"] not in open_
    assert len(open_) + len(v["legal"]["closed"]) == len(s.cities)


def test_choices_name_where_a_meeple_lands_and_end_scoring_names_the_row():
    _s, _seat, v = _first(lambda s, seat, v: v["legal"]["kind"] == "advance" and any(
        o["action"]["move"] == "up" for o in v["legal"]["options"]), range(10))
    up = next(o for o in v["legal"]["options"] if o["action"]["move"] == "up")
    assert f"to slot {up['action']['slot'] + 2}" in up["text"]
    end = []
    for seed in range(4):
        rng = random.Random(seed)
        g = GAME.new_game(["A", "B", "C"], seed)
        while not g.is_over:
            g = GAME.apply(g, rng.choice(GAME.legal_actions(g, g.to_move()[0])))
        end += [describe_log(g, x) for x in g.log if x.kind == "score"
                and x.data["source"] in ("alliances", "careers")]
    assert end and all(" row " in x or " track " in x for x in end), end


def test_a_helper_never_worth_refusing_comes_with_its_activation_and_no_other_does():
    """The page's "always activate helpers" setting sends `legal.always` without asking: the
    game names it (from its own effect kinds), and it is one of the legal answers."""
    from tavola.games.signorie.actions import Activate, action_to_json
    from tavola.games.signorie.components import ALWAYS_WANTED
    from tavola.games.signorie.web.wire import legal_json

    always, asked = set(), set()
    for s, seat in _games(range(6)):
        if s.stack[-1][0] != "helpers":
            continue
        v = GAME.view(s, seat)
        legal = legal_json(v)
        yes = next(a for a in v.legal if isinstance(a, Activate) and a.use)
        kind = s.t.helper_effect[yes.helper][0]
        if kind in ALWAYS_WANTED:
            assert legal["always"] == action_to_json(yes)
            assert legal["always"] in [o["action"] for o in legal["options"]]
            always.add(kind)
        else:
            assert legal["always"] is None
            asked.add(kind)
    assert always == {"florins", "initiative", "vp"} and {"advance", "face_down_tile"} <= asked
