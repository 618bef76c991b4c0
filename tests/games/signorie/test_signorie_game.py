"""Signorie through the platform's interface: discovery, JSON actions, texts, replays."""

from __future__ import annotations

import json
import random
import secrets

import pytest
from signorie_helpers import facts

from tavola import registry as games
from tavola.game import Game, IllegalAction, Position
from tavola.games.signorie.game import GAME


def test_declared_and_discovered():
    assert "signorie" in games.available()
    assert games.get("signorie") is GAME
    assert games.for_record_format("signorie-record/1") is GAME
    info = GAME.info
    assert (info.min_players, info.max_players, info.default_players) == (2, 4, 4)
    assert info.hidden_information and info.chance and not info.simultaneous
    wanted = [name for name, value in vars(Game).items() if callable(value)
              and not name.startswith("_")]
    assert wanted and all(callable(getattr(GAME, name, None)) for name in wanted)


def play(n=4, seed=11, each=None):
    rng = random.Random(seed)
    s = GAME.new_game([f"P{i}" for i in range(n)], seed)
    assert isinstance(s, Position)
    record = []
    while not s.is_over:
        seat = s.to_move()[0]
        legal = GAME.legal_actions(s, seat)
        a = legal[rng.randrange(len(legal))]
        if each:
            each(s, a, legal)
        record.append(json.loads(json.dumps(GAME.action_to_json(a))))
        GAME.apply_in_place(s, a)
    return s, record


def test_a_record_of_seed_and_json_actions_replays_the_game():
    s, record = play(3, seed=4)
    again = GAME.new_game([f"P{i}" for i in range(3)], 4)
    for data in record:
        again = GAME.apply(again, GAME.action_from_json(data))
    assert GAME.scores(again) == GAME.scores(s) and GAME.winners(again) == GAME.winners(s)
    assert GAME.log(again) == GAME.log(s) and GAME.chance_events(again) == GAME.chance_events(s)


def _round_trip_and_texts(s, a, legal):
    for x in legal:
        assert GAME.action_from_json(json.loads(json.dumps(GAME.action_to_json(x)))) == x
        hash(x)
    sentence = GAME.describe_action(s, a)
    assert sentence.endswith(".") and "{" not in sentence and "_" not in sentence


def test_every_legal_action_round_trips_and_reads_as_a_sentence():
    s, _ = play(4, seed=2, each=_round_trip_and_texts)
    for entry in GAME.log(s):
        line = GAME.describe_log(s, entry)
        assert line and "{" not in line and "_" not in line, (entry, line)
    breakdown = GAME.score_breakdown(s)
    assert [sum(b.values()) for b in breakdown] == list(GAME.scores(s))


@pytest.mark.parametrize(("data", "words"), [
    ([], "JSON object"),
    ({"type": "fly", "seat": 0}, "unknown action type"),
    ({"type": "pass"}, "missing field 'seat'"),
    ({"type": "pass", "seat": "0"}, "integer"),
    ({"type": "pass", "seat": 9}, "from 0 to 3"),
    ({"type": "pass", "seat": True}, "integer"),
    ({"type": "take_die", "seat": 0, "colour": "p" * 61, "value": 3}, "at most 60"),
    ({"type": "take_die", "seat": 0, "colour": 3, "value": 3}, "colour must be a string"),
    ({"type": "take_die", "seat": 0, "colour": "red", "value": 7}, "value"),
    ({"type": "marry", "seat": 0, "city": "Roma", "dowry": 0}, "dowry"),
    ({"type": "wedding", "seat": 0, "accept": 1}, "true or false"),
    ({"type": "pass", "seat": 0, "extra": 1}, "unexpected field"),
    ({"type": "advance", "seat": 0, "move": "jump"}, "move"),
])
def test_hostile_json_is_refused_naming_the_problem(data, words):
    with pytest.raises(ValueError, match=words):
        GAME.action_from_json(data)


@pytest.mark.parametrize("data", [
    {"type": "take_die", "colour": "pink", "value": 3},
    {"type": "marry", "city": "Paris", "dowry": 2},
    {"type": "marry", "city": "Roma", "dowry": 5},
])
def test_names_and_amounts_the_components_lack_are_refused_by_the_rules(data):
    """Colours, cities and the dowry's limit come from a game's component data (an edition may
    have others), so reading an action takes them and the game's rules refuse them."""
    s = GAME.new_game(["A", "B"], 1)
    before = GAME.view(s, None)
    with pytest.raises(IllegalAction):
        GAME.apply_in_place(s, GAME.action_from_json({**data, "seat": s.to_move()[0]}))
    assert facts(GAME.view(s, None)) == facts(before)


def test_illegal_actions_name_the_rule_and_change_nothing():
    s = GAME.new_game(["A", "B"], 1)
    seat = s.to_move()[0]
    before = GAME.view(s, None)
    with pytest.raises(IllegalAction) as err:
        GAME.apply_in_place(s, GAME.action_from_json({"type": "pass", "seat": 1 - seat}))
    assert err.value.rule == "turn order"
    assert facts(GAME.view(s, None)) == facts(before)
    with pytest.raises(IllegalAction, match="unknown action"):
        GAME.apply(s, object())


def test_an_unseeded_game_keeps_its_seed_secret_and_replayable():
    s = GAME.new_game(["A", "B"])
    assert isinstance(s.seed, int) and not hasattr(GAME.view(s, 0), "seed")
    again = GAME.new_game(["A", "B"], s.seed)
    assert again.deck == s.deck and again.dice == s.dice


def test_an_unseeded_game_is_drawn_from_256_bits_of_the_operating_system(monkeypatch):
    """Its deal and every later roll follow from one seed: 63 bits could be searched from the
    first round's public draws."""
    drawn: list[int] = []

    def randbits(k: int) -> int:
        drawn.append(k)
        return random.SystemRandom().getrandbits(k)

    monkeypatch.setattr(secrets, "randbits", randbits)
    first, second = GAME.new_game(["A", "B"]), GAME.new_game(["A", "B"])
    seeds = [GAME.setup_of(s)["seed"] for s in (first, second)]
    assert max(seed.bit_length() for seed in seeds) > 128
    assert drawn == [256, 256] and seeds[0] != seeds[1]
    assert first.deck != second.deck  # 40 tiles in the stack: equal only by accident
    # the stored setup replays the whole game, the dice of every round included
    rng = random.Random(3)
    again = GAME.from_setup(GAME.setup_of(first))
    while not first.is_over and first.round < 3:
        action = rng.choice(GAME.legal_actions(first, first.to_move()[0]))
        GAME.apply_in_place(first, action)
        GAME.apply_in_place(again, action)
    assert first.round == 3 and again.chance == first.chance and again.deck == first.deck


def test_a_chosen_seed_deals_and_rolls_the_same_game():
    games_of_seven = [GAME.new_game(["A", "B", "C"], 7) for _ in range(2)]
    assert games_of_seven[0].seed == 7
    assert games_of_seven[0].chance == games_of_seven[1].chance
    assert games_of_seven[0].deck == games_of_seven[1].deck


def test_views_and_spectators():
    s = GAME.new_game(["A", "B", "C"], 5)
    v = GAME.view(s, None)
    assert GAME.legal_actions(v, s.to_move()[0]) == GAME.legal_actions(s, s.to_move()[0])
    assert v.deck_left() == len(s.deck) and not hasattr(v, "deck")
    with pytest.raises(ValueError):
        GAME.view(s, 7)
    fake = GAME.resample(v, random.Random(1))
    assert GAME.scores(fake) == GAME.scores(s)


def test_a_moves_words_stop_at_a_step_the_position_refuses():
    """A hint's or review's move comes with the search's further steps, found in its sampled
    worlds: one the real position refuses ends the words there (a review of a 2-player game
    failed on such a step, "that advancement point moves nothing")."""
    from tavola.games.signorie.actions import Pass
    from tavola.games.signorie.game import GAME as SIGNORIE

    state = SIGNORIE.new_game(["Ann", "Bea"], 3)
    seat = state.to_move()[0]
    first = SIGNORIE.legal_actions(state, seat)[0]
    refused = Pass(1 - seat)  # not that seat's move after the first step
    assert SIGNORIE.describe_move(state, [first, refused]) == \
        SIGNORIE.describe_move(state, [first])
