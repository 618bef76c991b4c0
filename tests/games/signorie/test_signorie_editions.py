"""Games on any component data (an edition): the state's own tables are the rules' one source,
the shipped data stays the default, and records carry the data they were played on."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tavola.bots import make_bot
from tavola.editions import content_hash
from tavola.games.signorie import engine
from tavola.games.signorie.actions import TakeDie
from tavola.games.signorie.game import GAME
from tavola.games.signorie.tables import default_data, tables
from tavola.match import play_game
from tavola.records import RecordError


def edited(**changes: Any) -> dict[str, Any]:
    """The shipped data with die-slot costs changed: `changes` maps a colour to its cost."""
    data = copy.deepcopy(default_data())
    for slot in data["action_slots"]:
        if slot["colour"]["value"] in changes:
            slot["cost"]["value"] = changes[slot["colour"]["value"]]
    return data


def first_die(state: Any, colour: str) -> TakeDie | None:
    seat = state.to_move()[0]
    return next((a for a in GAME.legal_actions(state, seat)
                 if isinstance(a, TakeDie) and a.colour == colour), None)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10_000), cost=st.integers(0, 6))
def test_a_changed_die_slot_cost_is_what_a_die_is_charged(seed: int, cost: int) -> None:
    state = GAME.new_game(["A", "B"], seed, {"components": edited(yellow=cost)})
    assert state.t.cost[state.t.colours.index("yellow")] == cost
    die = first_die(state, "yellow")
    if die is None:  # not enough florins for any yellow action: the cost made it illegal
        assert cost > 0
        return
    seat, before = die.seat, state.florins[die.seat]
    GAME.apply_in_place(state, die)
    assert before - state.florins[seat] == max(0, cost - die.value)


def turquoise_dice(state: Any) -> set[int]:
    seat = state.to_move()[0]
    return {a.value for a in GAME.legal_actions(state, seat)
            if isinstance(a, TakeDie) and a.colour == "turquoise"}


def test_a_dear_slot_takes_dice_off_what_is_legal() -> None:
    """With no florins, a turquoise slot of cost 6 leaves only a 6 legal, where the shipped
    game offers lower turquoise dice too."""
    poor = edited(turquoise=6)
    poor["rules"]["starting_florins"]["value"] = 0
    poor["rules"]["extra_florins"]["value"] = [0, 0, 0, 0]
    seeds = range(20)
    edition = set().union(*(turquoise_dice(GAME.new_game(["A", "B"], s, {"components": poor}))
                            for s in seeds))
    shipped = set().union(*(turquoise_dice(GAME.new_game(["A", "B"], s)) for s in seeds))
    assert edition <= {6} and shipped - {6}


def test_the_shipped_data_given_as_an_option_is_the_default_game() -> None:
    a = GAME.new_game(["A", "B", "C"], 5)
    b = GAME.new_game(["A", "B", "C"], 5, {"components": copy.deepcopy(default_data())})
    assert b.t is tables() and b.options == {} and a.log == b.log


def test_an_edited_game_keeps_its_data_and_hash_and_plays_to_the_end() -> None:
    data = edited(yellow=3, red=1)
    bots = [make_bot(GAME, "greedy", seed=i) for i in range(3)]
    state = play_game(GAME, bots, seed=7, options={"components": data})
    assert state.is_over and state.t.edition == content_hash(data)
    assert state.options == {"components": data, "components_hash": content_hash(data)}
    view = GAME.view(state, 0)
    assert view.t is state.t and GAME.encoding(view).t is state.t


def test_unplayable_data_and_unknown_options_are_refused_with_words() -> None:
    bad = edited()
    bad["cities"] = bad["cities"][:2]
    with pytest.raises(ValueError, match="5 different cities"):
        GAME.new_game(["A", "B"], 1, {"components": bad})
    with pytest.raises(ValueError, match="no option board"):
        GAME.new_game(["A", "B"], 1, {"board": "x"})
    with pytest.raises(ValueError, match="not JSON"):
        GAME.new_game(["A", "B"], 1, {"components": {"x": float("nan")}})


def test_names_of_an_edition_are_the_game_s_own() -> None:
    """A colour renamed in the data is a colour of that game's actions, and the shipped name
    is refused there by the rules (the action's JSON is read the same for every edition)."""
    data = edited()
    for slot in data["action_slots"]:
        if slot["ring"]["value"] == "grey":
            slot["ring"]["value"] = "silver"
        if slot["colour"]["value"] == "grey":
            slot["colour"]["value"] = "silver"
    for helper in data["helper_slots"]["value"]:
        if helper["column"] == "grey":
            helper["column"] = "silver"
    for slot in data["assignment_slots"]["value"]:
        if slot["colour"] == "grey":
            slot["colour"] = "silver"
    state = GAME.new_game(["A", "B"], 3, {"components": data})
    seat = state.to_move()[0]
    silver = [a for a in GAME.legal_actions(state, seat)
              if isinstance(a, TakeDie) and a.colour == "silver"]
    assert silver
    again = GAME.action_from_json(GAME.action_to_json(silver[0]))
    GAME.apply_in_place(state, again)
    assert state.taken[seat][state.t.colours.index("silver")] == silver[0].value


# -- records ------------------------------------------------------------------------------------


def finished_record(data: dict[str, Any] | None, seed: int = 11) -> dict[str, Any]:
    bots = [make_bot(GAME, "random", seed=i) for i in range(2)]
    options = {"components": data} if data is not None else None
    state = play_game(GAME, bots, seed=seed, options=options)
    return GAME.record(state)


def test_a_record_embeds_edited_data_and_replays_anywhere() -> None:
    data = edited(grey=2)
    record = finished_record(data)
    assert record["options"]["components"] == data
    assert record["options"]["components_hash"] == content_hash(data)
    replayed = GAME.verify_record(record)
    assert replayed.t.edition == content_hash(data)
    assert replayed.t.cost[replayed.t.colours.index("grey")] == 2
    assert list(replayed.vp) == record["scores"]


def test_a_record_on_the_shipped_data_embeds_nothing() -> None:
    assert finished_record(None)["options"] == {}


def test_a_record_whose_data_does_not_match_its_hash_is_refused_with_words() -> None:
    record = finished_record(edited(grey=2))
    record["options"]["components"]["action_slots"][0]["cost"]["value"] = 0
    with pytest.raises(RecordError, match="does not match its hash"):
        GAME.verify_record(record)


def test_a_record_replayed_on_other_data_is_refused() -> None:
    record = finished_record(edited(turquoise=1), seed=random.Random(4).randrange(1000))
    del record["options"]["components"]
    with pytest.raises(RecordError, match="without the components"):
        GAME.verify_record(record)


def test_setup_rebuilds_a_game_on_its_edition() -> None:
    state = engine.new_game(["A", "B"], 9, {"components": edited(yellow=4)})
    again = GAME.from_setup(GAME.setup_of(state))
    assert again.t is state.t and again.log == state.log


# -- the web side -------------------------------------------------------------------------------


def test_the_page_is_told_the_edition_and_gets_its_table() -> None:
    from tavola.games.signorie.web.site import make_site

    site = make_site()
    data = edited(yellow=4)
    state = site.deal(["A", "B"], 2, {"components": data})
    assert site.table_payload(content_hash(data)) is None  # no game viewed on it yet
    message = site.view_json(GAME.view(state, 0), game_id="g", seq=1, seats=[{}, {}], log=[])
    assert message["components"] == content_hash(data)
    table = json.loads(site.table_payload(message["components"]) or "")
    assert table["components"] == message["components"]
    assert {c["id"]: c["cost"] for c in table["colours"]}["yellow"] == 4
    shipped = json.loads(site.table_payload() or "")
    assert shipped["components"] == "" and {c["id"]: c["cost"] for c in shipped["colours"]}[
        "yellow"] == tables().cost[0]


def test_replay_verify_replays_a_game_on_an_edition_and_refuses_altered_data(tmp_path) -> None:
    from typer.testing import CliRunner

    from tavola.cli import app
    from tavola.records import dumps_record

    record = finished_record(edited(red=0), seed=21)
    path = tmp_path / "edition.json"
    path.write_text(dumps_record(record), encoding="utf-8")
    runner = CliRunner()
    verified = runner.invoke(app, ["replay", "--verify", str(path)])
    assert verified.exit_code == 0 and "replay exactly" in verified.output
    record["options"]["components"]["rules"]["rounds"]["value"] = 6
    path.write_text(dumps_record(record), encoding="utf-8")
    refused = runner.invoke(app, ["replay", "--verify", str(path)])
    assert refused.exit_code == 1 and "does not match its hash" in " ".join(refused.output.split())


def test_a_board_colour_an_edition_names_is_drawn_with_a_look_of_its_own() -> None:
    from tavola.games.signorie.web.wire import table_json

    data = edited()
    data["player_boards"][0]["colour"]["value"] = "green"
    state = GAME.new_game(["A", "B"], 1, {"components": data})
    look = table_json(state.t)["looks"]["green"]
    assert look["letter"] == "G" and look["fill"] and look["shape"]
    assert state.colour_of(0) == "green"


@settings(max_examples=8, deadline=None)
@given(costs=st.lists(st.integers(0, 6), min_size=5, max_size=5),
       helper_cost=st.integers(0, 9), florins=st.integers(0, 10), threshold=st.integers(5, 20),
       seed=st.integers(0, 1000))
def test_any_checked_edition_plays_to_the_end_and_its_record_replays(
        costs: list[int], helper_cost: int, florins: int, threshold: int, seed: int) -> None:
    from tavola.games.signorie.edition import EDITION

    data = edited(**dict(zip(tables().colours, costs, strict=True)))
    data["helper_slots"]["value"][seed % 12]["cost"]["value"] = helper_cost
    data["rules"]["starting_florins"]["value"] = florins
    data["rules"]["threshold"]["value"]["base"] = threshold
    assert EDITION.check(data) == []
    bots = [make_bot(GAME, "random", seed=seed + i) for i in range(3)]
    state = play_game(GAME, bots, seed=seed, options=EDITION.options(data))
    assert state.is_over and state.t.threshold_base == threshold
    assert all(f >= 0 for f in state.florins)
    assert GAME.verify_record(GAME.record(state)).vp == state.vp
