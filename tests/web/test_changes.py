"""Views sent as changes (`tavola.web.changes`): a seat's changes, applied one after the other
to its first view, give each of its views exactly, for both games, through moves and undos;
a change holds only parts of its own seat's new view."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from web_leaks import contained

from tavola.testing import game_names
from tavola.web.changes import applied, change
from tavola.web.connection import Connection
from tavola.web.errors import ClientError
from tavola.web.room import Room, parse_params
from tavola.web.site import load_site

GAMES = game_names("site")
SEATS = (0, 1, None)  # both players and the spectators
CHANGES_JS = Path(__file__).parents[2] / "tavola" / "web" / "static" / "changes.js"


def new_room(game: str, seed: int) -> Room:
    site = load_site(game)
    # a person and a bot: a deal chosen by its seed (the bot's seat has views as well)
    params = parse_params({"seats": [{"kind": "person", "name": "Ann"},
                                      {"kind": "bot", "bot": "random"}], "seed": seed}, site)
    return Room("g1", params, site)


def play(room: Room, rng: random.Random, moves: int, undo: float) -> list[dict[str, Any]]:
    """Up to `moves` random moves (each followed by an undo with chance `undo`, where the
    rules allow one); each seat's view after each, as the wire carries them (JSON)."""
    views = [{seat: json.loads(room.message_text(seat)) for seat in SEATS}]
    for _ in range(moves):
        if room.is_over:
            break
        mover = room.state.to_move()[0]
        view = json.loads(room.message_text(mover))
        room.commit(*room.prepare(mover, room.site.bench_reply(view, rng)))
        if room.can_undo(mover) and rng.random() < undo:
            views.append({seat: json.loads(room.message_text(seat)) for seat in SEATS})
            room.commit_undo(room.prepare_undo(mover, room.seq))
        views.append({seat: json.loads(room.message_text(seat)) for seat in SEATS})
    return views


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1), moves=st.integers(1, 250),
       undo=st.sampled_from([0.0, 0.3, 1.0]))
def test_applying_a_seats_changes_to_its_first_view_gives_its_last(game, seed, moves, undo):
    views = play(new_room(game, seed), random.Random(seed), moves, undo)
    for seat in SEATS:
        have = views[0][seat]
        for before, after in itertools.pairwise(views):
            made = json.loads(json.dumps(change(before[seat], after[seat])))  # over the wire
            assert contained(made, after[seat]) == []
            have = applied(have, made)
            assert have == after[seat]
        assert have == views[-1][seat]


@pytest.mark.parametrize("game", GAMES)
def test_an_undo_takes_log_lines_back_in_the_change(game):
    """A move taken back: the change keeps fewer log lines than the view had."""
    room, rng = new_room(game, 7), random.Random(7)
    for _ in range(300):  # up to a move that wrote to the log and may be taken back
        mover = room.state.to_move()[0]
        lines = len(room.message_for(mover)["log"])
        room.commit(*room.prepare(mover, room.site.bench_reply(
            json.loads(room.message_text(mover)), rng)))
        if room.can_undo(mover) and len(room.message_for(mover)["log"]) > lines:
            break
    moved = room.message_for(mover)
    room.commit_undo(room.prepare_undo(mover, room.seq))
    back = room.message_for(mover)
    assert len(back["log"]) < len(moved["log"])
    made = change(moved, back)
    assert made["edit"]["log"]["keep"] <= len(back["log"]) and "add" not in made["edit"]["log"]
    assert applied(moved, made) == back


def test_a_change_that_does_not_fit_the_view_is_refused():
    """The client asks for the full view instead (`table.js` does it the same way)."""
    long = "a part long enough to be worth a change inside"
    old = {"log": [long] * 3, "a": {"b": 1, "c": long}}
    new = {"log": [long] * 3 + ["new"], "a": {"b": 2, "c": long}}
    made = change(old, new)
    assert made == {"edit": {"log": {"keep": 3, "add": ["new"]}, "a": {"set": {"b": 2}}}}
    assert applied(old, made) == new
    with pytest.raises(ValueError):
        applied({**old, "log": [long]}, made)  # keeps 3 lines of 1
    with pytest.raises(ValueError):
        applied({"log": [long] * 3}, made)  # edits a part the view lacks


def test_the_containment_check_catches_another_seats_part():
    """The check above must be able to fail: a change carrying a part that the seat's view
    does not have."""
    view = {"players": [{"score": 1}, {"score": 2}]}
    made = {"edit": {"players": {"keep": 1, "edit": {"0": {"set": {"objective": 5}}}}}}
    assert contained(made, view) == ["players.0.set objective"]


def test_a_refused_move_changes_nothing_that_a_change_would_carry():
    """A refusal leaves the view as it was: no change to send (the connection sends none)."""
    room = new_room("gonzaga", 3)
    before = room.message_for(1)
    with pytest.raises(ClientError):
        room.prepare(1, {"nonsense": True})
    assert room.change_from(1, "en", before) == (before, "")


def wire(value: Any) -> bytes:
    """A value as the server writes it (UTF-8, no spaces)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()


def measured_change(old: Any, new: Any) -> dict[str, Any]:
    """The change as its rule says, measuring every part by encoding it: a part changed
    inside is sent as its change when that is shorter than the part, else whole."""
    def inside(a: Any, b: Any) -> Any:
        if not ((isinstance(a, dict) and isinstance(b, dict))
                or (isinstance(a, list) and isinstance(b, list))):
            return None
        made = measured_change(a, b)
        return made if len(wire(made)) < len(wire(b)) else None

    if isinstance(old, dict):
        out: dict[str, Any] = {"set": {}, "drop": [k for k in old if k not in new], "edit": {}}
        for k, v in new.items():
            part = None if k not in old or old[k] == v else inside(old[k], v)
            if k not in old or (old[k] != v and part is None):
                out["set"][k] = v
            elif part is not None:
                out["edit"][k] = part
        return {k: v for k, v in out.items() if v}
    keep, edit = 0, {}
    for a, b in zip(old, new, strict=False):
        if a != b:
            part = inside(a, b)
            if part is None:
                break
            edit[str(keep)] = part
        keep += 1
    return {k: v for k, v in {"keep": keep, "add": new[keep:], "edit": edit}.items()
            if v or k == "keep"}


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 99999) | st.text("aé\"", max_size=12),
    lambda inner: st.lists(inner, max_size=14) | st.dictionaries(
        st.text("abcdefgh", max_size=2), inner, max_size=8), max_leaves=60)


@st.composite
def edited(draw: Any, value: Any) -> Any:
    """`value` with a few parts replaced, added or taken away (the rest shared, as in the
    views of consecutive moves)."""
    if isinstance(value, list) and value and draw(st.booleans()):
        i = draw(st.integers(0, len(value) - 1))
        return [*value[:i], draw(edited(value[i])), *value[i + 1:]]
    if isinstance(value, list):
        return value[:draw(st.integers(0, len(value)))] + draw(st.lists(JSON_VALUES,
                                                                          max_size=3))
    if isinstance(value, dict) and value and draw(st.booleans()):
        k = draw(st.sampled_from(sorted(value)))
        return {**value, k: draw(edited(value[k]))}
    if isinstance(value, dict):
        gone = draw(st.sets(st.sampled_from(sorted(value)))) if value else set()
        return {**{k: v for k, v in value.items() if k not in gone},
                **draw(st.dictionaries(st.text("abcdefghij", max_size=2), JSON_VALUES,
                                       max_size=3))}
    return draw(JSON_VALUES)


@settings(max_examples=400, deadline=None)
@given(data=st.data(), old=st.dictionaries(st.text("abc", max_size=2), JSON_VALUES,
                                           max_size=6))
def test_a_change_sends_a_part_changed_inside_as_its_change_only_when_shorter(data, old):
    """The change skips measuring parts that are surely shorter as changes (a log that grew,
    an object of which enough keys stay): it is still the change its rule says."""
    new = old
    for _ in range(data.draw(st.integers(1, 4))):
        new = data.draw(edited(new))
    assert change(old, new) == measured_change(old, new)
    assert applied(old, change(old, new)) == new


@pytest.mark.parametrize("kept", range(13))
def test_a_change_of_a_short_part_is_measured(kept):
    """Parts just long enough for the change to be shorter, or not: short lists, and objects
    of a few one-letter keys that stay, beside keys that are set and edited."""
    items = [0] * kept
    cases = [(items, [*items, 1]), ([*items, 2], [*items, 1]), ([*items, 2, 3], items)]
    stay = {k: 0 for k in "abcdefgh"[:kept]}
    for edit in ([], [0] * 9, [0] * 12):
        cases += [({**stay, "s": 0}, {**stay, "s": 1}),
                  ({**stay, "s": 0, "e": edit}, {**stay, "s": 1, "e": [*edit, 1]}),
                  ({**stay, "e": edit}, {**stay, "e": [*edit, 1], "n": 1})]
    for old, new in cases:
        assert change({"p": old}, {"p": new}) == measured_change({"p": old}, {"p": new})


APPLY_IN_JS = """
import { readFileSync } from "node:fs";
import { applied } from "./changes.mjs";
const [first, changes] = JSON.parse(readFileSync(process.argv[2], "utf8"));
let view = first;
for (const change of changes) view = applied(view, change);
process.stdout.write(JSON.stringify(view));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js runs the page's script")
@pytest.mark.parametrize("game", GAMES)
def test_the_page_applies_changes_as_the_server_makes_them(game, tmp_path):
    """The page's `applied` (changes.js, the module table.js imports) gives the same views as
    `applied` here."""
    views = play(new_room(game, 11), random.Random(11), 120, 0.5)
    for seat in SEATS:
        changes = [change(a[seat], b[seat]) for a, b in itertools.pairwise(views)]
        (tmp_path / "changes.json").write_text(json.dumps([views[0][seat], changes]))
        (tmp_path / "apply.mjs").write_text(APPLY_IN_JS)
        shutil.copy(CHANGES_JS, tmp_path / "changes.mjs")  # an ES module to Node, as to a browser
        out = subprocess.run(["node", str(tmp_path / "apply.mjs"), str(tmp_path / "changes.json")],
                             capture_output=True, text=True, timeout=60, check=True)
        assert json.loads(out.stdout) == views[-1][seat]


def test_a_connection_numbers_its_views_and_queues_a_repeated_whole_view_once():
    """Whole views asked again and again wait in the outbox once; a change is queued only
    when the view differs from the last one queued, numbered one more."""
    class Stuck:
        """A socket whose sends never finish: everything stays in the outbox."""

        async def send_text(self, text: str) -> None:
            await asyncio.Event().wait()

    now = {"view": {"type": "state", "seq": 0, "log": ["a"]}}

    def changes(conn: Any, base: Any) -> tuple[Any, str | None]:
        if base is None:
            return now["view"], None
        return now["view"], "" if base is now["view"] else json.dumps(change(base,
                                                                              now["view"]))

    async def main() -> list[dict[str, Any]]:
        reader = asyncio.create_task(asyncio.Event().wait())
        conn = Connection(Stuck(), lambda c: json.dumps(now["view"]), handler=reader,  # type: ignore[arg-type]
                          changes=changes)
        conn.wants_changes = True
        for _ in range(100):
            conn.send_view(full=True)
        conn.send_view()  # nothing changed: nothing queued
        now["view"] = {"type": "state", "seq": 1, "log": ["a", "b"]}
        conn.send_view()
        conn.send_view()
        queued = [json.loads(text) for text in conn._outbox]
        await conn.close()
        reader.cancel()
        return queued

    queued = asyncio.run(main())
    assert [(m["type"], m["n"]) for m in queued] == [("state", 1), ("change", 2)]
    assert applied(queued[0], queued[1]) == {**now["view"], "n": 1}
