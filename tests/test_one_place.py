"""Each fact of the game lives in one place, and the interfaces ask for it.

The rules state the action cards' limits, the points and the objective cards once; the text
layer words them; the web page shows what the server sent. These tests fail when a copy
reappears: a hand-written limit or card name in the browser's script, a second computation
of sea leagues or objective cities, or a client reaching into the legal actions' internals.
"""

from __future__ import annotations

import ast
import itertools
import re
from pathlib import Path

import numpy as np
import pytest
from rich.errors import StyleSyntaxError
from rich.style import Style

from tavola.games.gonzaga import text
from tavola.games.gonzaga.actions import (
    ACTION_CARDS,
    ACTION_COVERAGE,
    ALLIANCE,
    CITIES,
    HARBORS,
    IllegalAction,
)
from tavola.games.gonzaga.board import load_board
from tavola.games.gonzaga.placement import action_allows, action_allows_array
from tavola.games.gonzaga.state import OBJECTIVE_POINTS, POINTS_GONZAGA_TILE

PACKAGE = Path(__file__).parent.parent / "tavola" / "games" / "gonzaga"
APP_JS = PACKAGE / "web" / "static" / "app.js"
TERMINAL = PACKAGE / "terminal"


def sources(*, skip: tuple[str, ...] = ()) -> dict[str, str]:
    """The game's Python files by path relative to the package, except `skip`."""
    return {str(p.relative_to(PACKAGE)): p.read_text(encoding="utf-8")
            for p in PACKAGE.rglob("*.py") if str(p.relative_to(PACKAGE)) not in skip}


def test_action_card_limits_are_worded_from_the_rules():
    """The rulebook's wording, produced from the one table of allowed counts."""
    assert text.action_limits(HARBORS) == "1 or 2 harbors and no city"
    assert text.action_limits(CITIES) == "1 to 3 cities and no harbor, or only empty hexes"
    assert text.action_limits(ALLIANCE) == ("1 city and 1 harbor, 2 cities and 1 harbor, or 1 "
                                            "city and 2 harbors (or a Wedding)")


def test_scalar_and_vectorised_limits_are_the_table():
    counts = np.array(list(itertools.product(range(6), range(6))))
    for card in ACTION_CARDS:
        vector = action_allows_array(card, counts[:, 0], counts[:, 1])
        for (c, h), ok in zip(counts.tolist(), vector.tolist(), strict=True):
            assert ok == action_allows(card, c, h) == ((c, h) in ACTION_COVERAGE[card])


def strings(source: str) -> list[str]:
    """The string constants of a module, docstrings left out (they may name cards)."""
    tree = ast.parse(source)
    docs = {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef)
            and node.body and isinstance(node.body[0], ast.Expr)}
    return [node.value for node in ast.walk(tree) if isinstance(node, ast.Constant)
            and isinstance(node.value, str) and id(node) not in docs]


def test_no_copy_of_the_limits_or_card_names_in_python():
    """Card names and limit wording are written only in text.py."""
    phrases = ["King's Privilege", "Inactive Regions", "1 or 2 harbors", "1 to 3 cities",
               "of 6 cities", "KP"]
    for path, source in sources(skip=("text.py",)).items():
        for s in strings(source):
            assert s.strip() not in text.CARD_NAMES.values(), (path, s)
            assert not any(words in s for words in phrases), (path, s)


def test_sea_leagues_and_objective_cities_are_computed_in_one_place():
    for path, source in sources(skip=("engine.py",)).items():
        assert ">= LEAGUE_SIZE" not in source, path  # a league forms: engine.new_leagues
    for path, source in sources(skip=("board.py", "boardcheck.py")).items():
        assert not re.search(r"\.symbol (not )?in ", source), path  # Board.objective_cities


def test_clients_use_the_public_placement_api():
    """Bots, the web and the terminal never read LegalActions' internals."""
    for path, source in sources(skip=("engine.py",)).items():
        assert not re.search(r"legal\._|\.placements\.(anchors|rotations)|legal\.rows\b", source), \
            path


def test_objective_cards_come_from_the_board():
    board = load_board()
    for number, card in board.objectives.items():
        cities = board.objective_cities(number)
        assert len(cities) == len(OBJECTIVE_POINTS) - 1
        assert {c.symbol for c in cities} == set(card.symbols)
        assert set(np.flatnonzero(board.objective_masks[number])) == {c.hex for c in cities}


# -- the terminal ------------------------------------------------------------------------------

#: Said to programmers, not players: a drawing function called with a wrong argument.
FOR_PROGRAMMERS = {"hex width must be one of "}
KEY = re.compile(r"[a-z]+(?:-[a-z]+)*(?:\.[a-z]+(?:-[a-z]+)*)+")


def is_style(s: str) -> bool:
    """A rich style or a piece of one ("bold cyan", "bold black on ")."""
    def parses(word: str) -> bool:
        try:
            Style.parse(word)
        except StyleSyntaxError:
            return False
        return True
    return bool(s.strip()) and all(w == "on" or parses(w) for w in s.split())


#: Words with no space between them (`human,planner,mcts:medium`): specs for programs, not prose.
SPECS = re.compile(r"[\w:=.,-]+")


def player_sentences(source: str) -> list[str]:
    """String constants of two words or more (pieces of f-strings too) that are neither a
    message key, a rich style, nor a docstring: English a player would read."""
    return [s for s in strings(source)
            if len(re.findall(r"[A-Za-z]{2,}", s)) >= 2 and not KEY.fullmatch(s)
            and not SPECS.fullmatch(s) and not is_style(s) and s not in FOR_PROGRAMMERS]


def test_the_sentence_check_finds_sentences():
    source = ('def f(n):\n    """Docstrings may say anything."""\n'
              '    return Text(f"Round {n} is the last", style="bold red")\n'
              'say("status.round", round=2)\nprint("Please answer y (yes) or n (no).")\n')
    assert sorted(player_sentences(source)) == [" is the last",
                                                "Please answer y (yes) or n (no)."]


def test_the_terminal_writes_no_sentence_of_its_own():
    """Prompts, menu labels, help lines and explanations are templates in text.py."""
    modules = sorted(TERMINAL.glob("*.py"))
    assert len(modules) > 3
    for path in modules:
        assert player_sentences(path.read_text(encoding="utf-8")) == [], path.name


def test_the_terminal_asks_for_messages_that_exist():
    for path in sorted(TERMINAL.glob("*.py")):
        for s in strings(path.read_text(encoding="utf-8")):
            if KEY.fullmatch(s):
                assert s in text.MESSAGES, (path.name, s)


def test_the_rules_name_their_refusals_by_a_key_of_the_text_layer():
    """Every IllegalAction the engine raises names its sentence by a key of `text.MESSAGES`
    and gives its facts as data: the rules speak no language, the text layer words them."""
    tree = ast.parse((PACKAGE / "engine.py").read_text(encoding="utf-8"))
    raised = [node for node in ast.walk(tree) if isinstance(node, ast.Call)
              and isinstance(node.func, ast.Name) and node.func.id == "IllegalAction"]
    assert len(raised) > 20
    for call in raised:
        key = call.args[1]
        if isinstance(key, ast.JoinedStr):  # illegal.{problem}: the static problems
            keys = [f"illegal.{p}" for p in ("off-map", "castle-at-sea", "barrier")]
        else:
            assert isinstance(key, ast.Constant), (key.lineno, ast.unparse(key))
            keys = [key.value]
        assert all(k in text.MESSAGES for k in keys), (key.lineno, keys)
        assert not any(isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                       and node.value.id == "text" for node in ast.walk(call)), key.lineno


#: A value of each kind of fact the engine gives with a refusal, by field name.
REFUSAL_FACTS = {"who": "Ann", "hexes": [0], "region_names": ("Hispania", "Francia"),
                 "card_id": "cities", "card": "atlantis", "ring_count": 1, "needed": 2,
                 "cities": 2, "harbors": 1, "rotation": 7, "action": "nothing", "player": 9,
                 "players": 3, "known": "hispania, francia", "fief": "Cross"}


def test_the_text_layer_words_every_refusal_the_engine_raises():
    """Each IllegalAction of the engine, with facts of the kinds its call gives, becomes a
    whole sentence: no field left unfilled, none missing."""
    board = load_board()
    tree = ast.parse((PACKAGE / "engine.py").read_text(encoding="utf-8"))
    worded = 0
    for call in ast.walk(tree):
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
                and call.func.id == "IllegalAction" and isinstance(call.args[1], ast.Constant)):
            continue
        names = [k.value for k in call.args[2].keys] if len(call.args) > 2 else []
        facts = {name: REFUSAL_FACTS[name] for name in names}
        sentence = text.refusal(board, IllegalAction(call.args[0].value, call.args[1].value,
                                                     facts))
        assert sentence and "{" not in sentence and "illegal." not in sentence, sentence
        worded += 1
    assert worded > 20


# -- the browser -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def script() -> str:
    return APP_JS.read_text(encoding="utf-8")


def test_the_script_names_no_card(script: str):
    """Card names reach the page from the server (`cards` of the board message)."""
    for name in text.CARD_NAMES.values():
        assert name not in script, name
    assert "KP" not in script


def test_the_script_holds_no_limit_or_point_value(script: str):
    """Limits and point values come in the messages (`help`, `note`, `*_text`)."""
    table = ", ".join(str(p) for p in OBJECTIVE_POINTS[:-1])
    assert table not in script
    assert not re.search(r"\bof 6\b|/6\b", script)
    assert f"{POINTS_GONZAGA_TILE} points" not in script
    for words in ("harbors and no city", "cities and no harbor", "1 city and"):
        assert words not in script


def test_the_server_sends_the_words_the_page_shows():
    from tavola.games.gonzaga.web.wire import board_json

    cards = board_json(load_board())["cards"]
    for card in ACTION_CARDS:
        assert cards[card]["name"] == text.card_name(None, card)
        assert cards[card]["help"] == text.action_limits(card)
    assert [c for c in cards if cards[c].get("wedding")] == [ALLIANCE]
    note = text.final_note()
    assert str(POINTS_GONZAGA_TILE) in note and ", ".join(map(str, OBJECTIVE_POINTS[:-1])) in note
