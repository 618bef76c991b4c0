"""Learning to play, on the server: tutorials follow their script and refuse other moves in
their own words; rules pages are in three languages with every fact filled in."""

from __future__ import annotations

import json
import re
import urllib.request
from typing import Any

import pytest
from websockets.sync.client import connect

from tavola import i18n
from tavola import registry as games
from tavola import tutorial as tutorials
from tavola.testing import game_names
from tavola.tutorial import words
from tavola.web.botpool import Decision, decide
from tavola.web.errors import ClientError
from tavola.web.learn import tutorial_params
from tavola.web.loadbench import http_json
from tavola.web.room import Room
from tavola.web.rules import LANGUAGES, document, fill, pick_language, to_html
from tavola.web.site import load_site

WITH_TUTORIAL = [n for n in games.available() if tutorials.load(n) is not None]


def tutorial_room(name: str) -> Room:
    site = load_site(name)
    tutorial = tutorials.load(name)
    assert tutorial is not None
    return Room("t-" + name, tutorial_params(site, tutorial), site, claimed={tutorial.seat})


def bot_mover(room: Room) -> Any:
    """The bots' moves exactly as the server's bot workers decide them."""
    setup = room.game.setup_of(room.initial_state())

    def move(state: Any, seat: int) -> Any:
        return decide(Decision(room.game.info.name, room.bots[seat], room.params.bot_seed,
                               setup, tuple(state.history), seat))
    return move


def play_bots(room: Room) -> None:
    move = bot_mover(room)
    while room.bots_to_move() and room.guide.tutorial.seat not in room.state.to_move():
        seat = room.bots_to_move()[0]
        room.commit(*room.prepare(seat, room.game.action_to_json(move(room.state, seat))))


def test_every_game_with_a_web_side_has_a_tutorial():
    assert game_names("site") == WITH_TUTORIAL
    assert "gonzaga" in WITH_TUTORIAL


@pytest.mark.parametrize("name", WITH_TUTORIAL)
def test_the_script_replays_through_the_rules(name):
    """Every step has a legal move on the fixed deal, with the bot's own moves between."""
    room = tutorial_room(name)
    guide = room.guide
    state = room.initial_state()
    moves = tutorials.play_script(guide, state, bot_mover(room))
    steps = guide.tutorial.steps
    assert len(moves) == len(steps)
    for move, step in zip(moves, steps, strict=True):
        assert tutorials.matches(step.expect, room.game.action_to_json(move))
    assert guide.step(state) is None
    assert guide.to_json(state, guide.tutorial.seat)["done"] is True


@pytest.mark.parametrize("name", WITH_TUTORIAL)
def test_other_moves_are_refused_with_the_steps_words(name):
    """At each step, every legal move off the script is refused with the step's sentence and
    changes nothing; the scripted one is played."""
    room = tutorial_room(name)
    guide = room.guide
    seat = guide.tutorial.seat
    refused = 0
    for step in guide.tutorial.steps:
        play_bots(room)
        assert guide.step(room.state) is step
        before = room.seq
        off = [a for a in room.game.legal_actions(room.state, seat)
               if not tutorials.matches(step.expect, room.game.action_to_json(a))]
        for action in off[:5]:
            with pytest.raises(ClientError) as err:
                room.prepare(seat, room.game.action_to_json(action))
            assert err.value.code == "tutorial" and err.value.message == words(step.refuse)
            refused += 1
        assert room.seq == before
        room.commit(*room.prepare(seat, room.game.action_to_json(guide.example(room.state))))
    assert refused > 0
    play_bots(room)
    free = room.game.legal_actions(room.state, seat)
    if free:  # once the script is done the learner plays freely
        room.prepare(seat, room.game.action_to_json(free[-1]))


def test_a_die_and_its_action_count_as_one_step():
    """The die and the action it is taken for are sent by one Confirm: the learner reads one
    step for both, and the count goes up by one at each Confirm (not 1, 3, 4, 6...) and at
    each page read between moves."""
    room = tutorial_room("signorie")
    guide = room.guide
    seat = guide.tutorial.seat
    shown: list[tuple[str, int]] = []

    def pages() -> None:
        msg = room.message_for(seat)["tutorial"]
        shown.extend(("page", msg["page_from"] + k) for k in range(len(msg["pages"])))

    while guide.step(room.state) is not None:
        play_bots(room)
        pages()
        step = guide.step(room.state)
        shown.append((step.expect["type"], room.message_for(seat)["tutorial"]["step"]))
        room.commit(*room.prepare(seat, room.game.action_to_json(guide.example(room.state))))
    pages()
    for (kind, number), (before, number_before) in zip(shown[1:], shown, strict=False):
        if kind == "choose" and before == "take_die":
            assert number == number_before
    numbers = [n for _, n in shown]
    assert sorted(set(numbers)) == list(range(1, guide.tutorial.count + 1)) == \
        list(dict.fromkeys(numbers))
    assert room.message_for(seat)["tutorial"]["steps"] == guide.tutorial.count


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_signorie_learner_has_a_name_the_log_can_say(lang):
    """The log speaks of every seat in the third person ("{name} takes", "{name}'s disc"):
    the learner's seat has a name, not the word "You" ("You takes", "Du nimmt")."""
    from tavola.games.signorie.text import tr

    with i18n.use(lang):
        room = tutorial_room("signorie")
        guide = room.guide
        learner = room.params.seats[guide.tutorial.seat].name
        assert learner.lower() not in {tr("You").lower(), tr("you").lower()}
        while guide.step(room.state) is not None:
            play_bots(room)
            seat = guide.tutorial.seat
            room.commit(*room.prepare(seat, room.game.action_to_json(guide.example(room.state))))
        lines = [e["text"] for e in room.message_for(seat, lang)["log"] if e["seat"] == seat]
    assert lines and all(learner in line for line in lines)
    if lang == "en":
        assert not [x for x in lines if re.search(r"\bYou(?:'s| [a-z]+s\b)", x)]


@pytest.mark.parametrize("name", WITH_TUTORIAL)
def test_only_the_learner_is_shown_the_steps(name):
    room = tutorial_room(name)
    learner = room.guide.tutorial.seat
    msg = room.message_for(learner)["tutorial"]
    step = room.guide.tutorial.steps[0]
    assert msg["step"] == 1 and msg["steps"] == room.guide.tutorial.count
    assert msg["say"] in (words(step.say), words(room.guide.tutorial.waiting))
    others = [s for s in range(len(room.params.seats)) if s != learner] + [None]
    for seat in others:
        assert room.message_for(seat)["tutorial"] is None


@pytest.mark.parametrize("name", WITH_TUTORIAL)
def test_a_tutorial_is_stored_and_resumed_as_one(name):
    """A restarted server rebuilds the tutorial from its stored parameters, script and all."""
    room = tutorial_room(name)
    site = room.site
    data = json.loads(json.dumps(room.params.to_json(site)))
    assert data["tutorial"] == name
    again = Room("again", type(room.params).from_json(data, site), site)
    assert again.guide is not None and again.guide.tutorial is room.guide.tutorial
    plain = {k: v for k, v in data.items() if k != "tutorial"}
    assert Room("plain", type(room.params).from_json(plain, site), site).guide is None


# -- rules documents ---------------------------------------------------------------------------


def test_rule_documents_escape_everything_they_hold():
    out = to_html("# A <b>title</b>\n\nSome **bold** & *soft* text <script>x</script>\n\n"
                  "- one\n- two\n\n::: picture fief The <fief>")
    assert "<script>" not in out and "<b>" not in out and "<fief>" not in out
    assert "&lt;script&gt;" in out and "<strong>bold</strong>" in out and "<em>soft</em>" in out
    assert "<ul><li>one</li><li>two</li></ul>" in out
    assert '<figure class="rules-picture" data-picture="fief">' in out


def test_an_unknown_fact_in_a_document_is_an_error():
    assert fill("{a} and {b}", {"a": 1, "b": "two"}) == "1 and two"
    with pytest.raises(ValueError, match="unknown fact"):
        fill("{nope}", {})


def test_the_language_is_asked_remembered_or_the_browsers():
    assert pick_language("de", "it", "en") == "de"
    assert pick_language(None, "it", "de") == "it"
    assert pick_language(None, None, "fr-FR,fr;q=0.9,it;q=0.8,de;q=0.5") == "it"
    assert pick_language("xx", None, None) == "en"


@pytest.mark.parametrize("name", WITH_TUTORIAL)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_has_the_same_pictures_and_headings(name, lang):
    english = document(name, "en")
    text = document(name, lang)
    pictures = re.findall(r'data-picture="([a-z-]+)"', english)
    assert pictures and re.findall(r'data-picture="([a-z-]+)"', text) == pictures
    assert text.count("<h2>") == english.count("<h2>") >= 3
    assert "{" not in text  # every fact filled in


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_signorie_rules_say_what_a_newcomer_looked_for(lang):
    """A newcomer could not find: that a die hires into another colour's column, that the
    assignments change every round, which offspring dice bring sons or daughters, and that
    the starting florins depend on the place (he had 7, the page said 5). Every fact from the
    game's tables, in the page's language."""
    from tavola.games.signorie import text as words_of
    from tavola.games.signorie.tables import tables

    t = tables()
    html = document("signorie", lang)
    lines = [re.sub(r"<[^>]+>", "", x) for x in re.split(r"</li>|</p>", html)]
    page = "\n".join(lines)
    with i18n.use(lang):
        names = [words_of.colour_title(c) for c in t.colours]
    for i, name in enumerate(names):  # each colour with the other colour it hires into
        other = names[t.ring[i]]
        assert other != name
        assert any(name in line and other in line and line.index(name) < line.index(other)
                   for line in lines), (name, other)
    places = [str(t.starting_florins + extra) for extra in t.extra_florins]
    start = page.index(str(t.starting_florins))
    assert all(n in page[start:start + 400] for n in places)
    offspring = page[page.index(f"1 {'to' if lang == 'en' else 'bis' if lang == 'de' else 'a'} "
                                f"{t.offspring_female_max}"):]
    assert f"{t.offspring_female_max + 1} " in offspring[:200]
    assert str(len(t.tile_name)) in page and str(len(t.assignment_slots)) in page


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_signorie_tutorial_says_how_points_are_made_before_the_round_ends(lang):
    """After the last move, pages on careers and ranks, missions and the city slots,
    marriages and the brides, the plan's rows, the threshold and the reward: each with the
    game's numbers, in the learner's language, shown while round 1 is still on."""
    from tavola.games.signorie.tables import tables

    t = tables()
    with i18n.use(lang):
        room = tutorial_room("signorie")
        guide = room.guide
        tutorials.play_script(guide, room.state, bot_mover(room))
        msg = room.message_for(guide.tutorial.seat, lang)["tutorial"]
        english = room.message_for(guide.tutorial.seat, "en")["tutorial"]
    assert room.state.round == 1
    said = [p["say"] for p in msg["pages"]]
    looks = [p["look"] for p in msg["pages"]]
    assert len(said) == 5 and msg["page_from"] + len(said) - 1 == msg["steps"]
    careers, missions, marriages, plan, threshold = said
    assert f"{min(t.career_vp)} " in careers and f"{max(t.career_vp)} " in careers
    assert str(max(t.career_rank)) in careers and "#tracks-area" in looks[0]
    assert str(max(v for c in t.city_slots for v in c)) in missions and "#cities-area" in looks[1]
    assert ", ".join(map(str, t.bride_vp)) in marriages and str(t.dowry_max) in marriages
    assert any(".brides" in x for x in looks[2])
    assert str(t.row_min) in plan and any(".plan" in x for x in looks[3])
    assert str(t.threshold_base) in threshold and str(t.reward_florins) in threshold
    assert any(".threshold" in x for x in looks[4])
    if lang != "en":
        assert [p["say"] for p in english["pages"]] != said


# -- over HTTP and WebSocket ---------------------------------------------------------------------


def get_json(url: str, headers: dict[str, str] | None = None) -> Any:
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {})) as r:
        return json.loads(r.read())


def test_the_rules_api_answers_in_the_pages_language(server):
    en = get_json(f"{server.base}/api/rules/gonzaga")
    de = get_json(f"{server.base}/api/rules/gonzaga?lang=de")
    it = get_json(f"{server.base}/api/rules/gonzaga", {"Accept-Language": "it-IT,it;q=0.9"})
    assert (en["lang"], de["lang"], it["lang"]) == ("en", "de", "it")
    assert en["html"] != de["html"] != it["html"]
    # the pictures' words (the action cards' names) are the page's language too
    names = {lang: [c["name"] for c in page["facts"]["action_cards"]]
             for lang, page in (("en", en), ("de", de), ("it", it))}
    assert "Harbors" in names["en"] and "Häfen" in names["de"] and "Porti" in names["it"], names
    with urllib.request.urlopen(f"{server.base}/rules/gonzaga") as r:
        assert b"rules.js" in r.read()


def test_a_tutorial_starts_from_the_lobby_and_refuses_off_script_moves(server):
    started = http_json(f"{server.base}/api/tutorials/gonzaga", {})
    game_id, token = started["link"].removeprefix("/game/").split("#")
    step = tutorials.load("gonzaga").steps[0]
    with connect(f"{server.ws}/ws/{game_id}") as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        view = next_of(ws, "state")
        assert view["tutorial"]["title"] == words(step.title)
        assert view["tutorial"]["highlight"] == step.targets(None)
        wrong = {"type": "plan", "region": "inactive", "action": "harbors", "privilege": False}
        ws.send(json.dumps({"type": "act", "seq": view["seq"], "action": wrong}))
        error = next_of(ws, "error")
        assert error["code"] == "tutorial" and error["message"] == words(step.refuse)
        right = {"type": "plan", "privilege": False, **step.expect}
        ws.send(json.dumps({"type": "act", "seq": view["seq"], "action": right}))
        while True:
            view = next_of(ws, "state")
            if view["tutorial"]["step"] == 2:
                break


def next_of(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        msg = json.loads(ws.recv(timeout=15))
        if msg["type"] == kind:
            return msg
