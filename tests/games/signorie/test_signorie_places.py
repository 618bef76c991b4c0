"""The component editor names every place of a component file in the game's own words (in the
reader's language) and shows lists in the order the printed material reads them."""

from __future__ import annotations

import copy
import re

import pytest

from tavola import i18n
from tavola.games.signorie.edition import EDITION
from tavola.games.signorie.places import place_names, place_words, reading_order
from tavola.games.signorie.tables import default_data
from tavola.games.signorie.web.editor import edition_table
from tavola.games.signorie.web.wire import table_json

PATHLIKE = re.compile(r"[_\[\]/]|\b(value|action slots|cities)\b")


@pytest.mark.parametrize(("lang", "where", "words"), [
    ("en", "/cities/2/slots/value/1", "Firenze, row 2, slot 1"),
    ("de", "/cities/2/slots/value/1", "Florenz, Reihe 2, Feld 1"),
    ("it", "/cities/2/slots/value/1", "Firenze, fila 2, spazio 1"),
    ("en", "/action_slots/0/cost/value", "Yellow die slot: cost"),
    ("de", "/action_slots/0/cost/value", "Würfelfeld Gelb: Kosten"),
    ("en", "/initiative_track/value/3", "Initiative track, slot 4"),
    ("en", "/career_tracks/slots/value/2/vp", "Career tracks, slot 3: vp"),
    ("en", "/player_boards/1/plan/value/political/2", "Red board: Political, shield 3"),
    ("en", "/helper_slots/value/4/cost", "Red column, helper 2: cost"),
    ("en", "/alliance_tiles/value/Medici/3", "Alliance tiles: Medici, tile 4"),
])
def test_a_place_is_named_as_the_printed_material_names_it(lang: str, where: str,
                                                           words: str) -> None:
    with i18n.use(lang):
        assert place_words(default_data(), where) == words


def test_no_label_of_a_field_is_a_data_path() -> None:
    names = place_names(default_data())
    assert len(names) > 300
    assert [n for n in names.values() if "_" in n or "[" in n] == []
    assert names["/cities/2"] == "Firenze" and names["/cities/2/slots/value/1"] == "row 2, slot 1"
    assert names["/rules/dice_per_colour/value/2"] == "2 players"
    assert "/action_slots/0/cost" not in names  # "cost": the editor words a field's name


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "Yellow die slot: cost: 9 is not between 0 and 6."),
    ("de", "Würfelfeld Gelb: Kosten: 9 liegt nicht zwischen 0 und 6."),
])
def test_a_finding_names_its_place_in_the_games_words(lang: str, words: str) -> None:
    data = copy.deepcopy(default_data())
    data["action_slots"][0]["cost"]["value"] = 9
    with i18n.use(lang):
        [finding] = EDITION.check(data)
    assert finding.message == words and finding.where == "/action_slots/0/cost"
    assert not PATHLIKE.search(finding.message.split(":")[0])


def test_a_wrong_type_names_its_place_and_says_what_is_needed_in_the_readers_language() -> None:
    data = copy.deepcopy(default_data())
    data["helper_slots"]["value"][4]["cost"]["value"] = "two"
    with i18n.use("it"):
        [finding] = EDITION.check(data)
    assert finding.message == "Colonna Rosso, aiutante 2: costo: qui serve un numero intero."


def test_the_tracks_read_from_their_top_and_the_cities_row_by_row_as_printed() -> None:
    data = default_data()
    order = reading_order(data)
    assert order["/initiative_track/value"] == list(range(8, -1, -1))
    assert order["/career_tracks/slots/value"] == list(range(7, -1, -1))
    milano = order["/cities/0/slots/value"]
    assert [data["cities"][0]["slots"]["value"][k] for k in milano] == [1, 2, 3, 4, 1, 2, 3, 4]
    # the table page draws the cities from the same fact
    places = table_json()["cities"][0]["places"]
    assert sorted(range(8), key=lambda k: (places[k]["row"], places[k]["column"])) == milano
    assert "/action_slots" not in order  # printed in the file's order (the board's)


def test_the_editor_is_sent_names_and_orders_even_for_data_with_findings() -> None:
    data = copy.deepcopy(default_data())
    data["action_slots"][0]["cost"]["value"] = 9
    answer = edition_table(data)
    assert answer["findings"] and answer["names"]["/action_slots/0"] == "Yellow die slot"
    assert answer["order"]["/initiative_track/value"][0] == 8
    assert edition_table([[[]]])["names"] == {"/0": "entry 1", "/0/0": "entry 1"}
    assert edition_table({"a": {"b": 1}})["names"] == {}
