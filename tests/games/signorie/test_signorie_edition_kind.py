"""Signorie's EditionKind: the default edition checks clean, and every problem of a component
file (malformed, wrong-typed, oversized, nonsensical) is a finding at its place, never a crash."""

from __future__ import annotations

import copy
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from tavola import i18n
from tavola import text as tavola_text
from tavola.editions import Finding, content_hash
from tavola.games.signorie import text
from tavola.games.signorie.components import (
    CROSS_CHECKS,
    VALUE_CHECKS,
    count_statuses,
    parse,
)
from tavola.games.signorie.edition import EDITION, locate, pointer
from tavola.games.signorie.kit import KIT
from tavola.games.signorie.places import place_words
from tavola.games.signorie.tables import default_data
from tavola.i18n_tools import extract, table_strings


def resolve(data: Any, where: str) -> Any:
    """The value a JSON Pointer names."""
    node = data
    for part in where.split("/")[1:]:
        part = part.replace("~1", "/").replace("~0", "~")
        node = node[int(part)] if isinstance(node, list) else node[part]
    return node


def changed(change: Any) -> dict[str, Any]:
    data = copy.deepcopy(default_data())
    change(data)
    return data


def test_the_kit_declares_the_edition_and_its_default_checks_clean() -> None:
    assert KIT.editions is not None and KIT.editions.load() is EDITION
    assert EDITION.format == "signorie-components/1"
    data = EDITION.default()
    assert data == default_data() and data is not default_data()
    assert EDITION.check(data) == []
    assert EDITION.options(data) == {"components": data}
    assert "5 cities" in EDITION.describe(data) and "provisional" in EDITION.describe(data)
    assert EDITION.schema()["title"] == "Components"


def test_a_wrong_type_is_found_at_its_field() -> None:
    data = changed(lambda d: d["action_slots"][1]["cost"].update(value="two"))
    [finding] = EDITION.check(data)
    assert finding.where == "/action_slots/1/cost/value"
    assert finding.message == "Red die slot: cost: a whole number is needed here."


def test_a_missing_source_is_found_at_its_wrapper() -> None:
    data = changed(lambda d: d["rules"]["rounds"].update(status="known", source=None))
    [finding] = EDITION.check(data)
    assert finding.where == "/rules/rounds" and "source" in finding.message


@pytest.mark.parametrize(("change", "where", "words"), [
    (lambda d: d["action_slots"][2]["cost"].update(value=7), "/action_slots/2/cost",
     "not between 0 and 6"),
    (lambda d: d["cities"][1]["slots"].update(value=[4, 1]), "/cities/1/slots",
     "lowest first"),
    (lambda d: d["helper_slots"]["value"][3].update(column="gold"),
     "/helper_slots/value/3/column", "not a die colour"),
    (lambda d: d["player_boards"][2]["plan"]["value"].update(military=["x", "x", "y", "z"]),
     "/player_boards/2/plan/value/military", "unknown house"),
    (lambda d: d["rules"]["rounds"].update(value=6), "/rules", "must equal rounds"),
    (lambda d: d["career_tracks"]["slots"]["value"][3].update(vp=0),
     "/career_tracks/slots/value/3", "VP rise"),
])
def test_nonsense_is_found_where_it_is(change: Any, where: str, words: str) -> None:
    data = changed(change)
    findings = EDITION.check(data)
    assert any(f.where == where and words in f.message for f in findings), findings
    for f in findings:
        resolve(data, f.where)  # every pointer names a place of the data


@pytest.mark.parametrize("data", [None, 3, "text", [], [1, 2], {}, {"format": "other"},
                                  {"x": float("nan")}, {"x": {1, 2}}])
def test_malformed_data_is_findings(data: Any) -> None:
    findings = EDITION.check(data)
    assert findings and all(isinstance(f, Finding) and f.message for f in findings)


def test_oversized_data_is_one_finding() -> None:
    data = changed(lambda d: d.update(about="x" * EDITION.max_bytes))
    [finding] = EDITION.check(data)
    assert "bytes" in finding.message and finding.where == ""


def test_deeply_nested_data_is_a_finding() -> None:
    deep: Any = []
    for _ in range(100_000):
        deep = [deep]
    assert EDITION.check({"about": deep})


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**20, 10**20) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=4),
    max_leaves=30)


@settings(max_examples=60, deadline=None)
@given(path=st.lists(st.integers(0, 30), min_size=1, max_size=6), value=json_values)
def test_any_value_anywhere_is_checked_without_raising(path: list[int], value: Any) -> None:
    """Replace one value of the shipped data, at a path found by walking it, with any JSON."""
    data = copy.deepcopy(default_data())
    node: Any = data
    for step in path[:-1]:
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        nxt = node[keys[step % len(keys)]] if keys else None
        if not isinstance(nxt, dict | list) or not nxt:
            break
        node = nxt
    keys = list(node) if isinstance(node, dict) else list(range(len(node)))
    if keys:
        node[keys[path[-1] % len(keys)]] = value
    for finding in EDITION.check(data):
        resolve(data, finding.where)


def test_data_that_checks_clean_plays() -> None:
    from tavola.games.signorie.game import GAME

    data = changed(lambda d: d["action_slots"][0]["cost"].update(value=2))
    assert EDITION.check(data) == []
    state = GAME.new_game(["A", "B", "C"], 1, EDITION.options(data))
    assert state.t.edition == content_hash(data)


def test_places_are_located_by_index_name_and_colour() -> None:
    data = default_data()
    milano = next(i for i, c in enumerate(data["cities"]) if c["name"]["value"] == "Milano")
    assert locate(data, "cities[Milano].slots") == f"/cities/{milano}/slots"
    assert locate(data, "helper_slots[2].cost") == "/helper_slots/value/2/cost"
    assert locate(data, "assignment_tiles[4] (Envoy)") == "/assignment_tiles/4"
    assert locate(data, "rules.wedding_florins.rounds") == "/rules/wedding_florins/value/rounds"
    assert locate(data, "nowhere[9]") == ""
    assert pointer(["a/b", "c~d", 3]) == "/a~1b/c~0d/3"


@pytest.mark.parametrize(("lang", "words"), [
    ("de", "Venedig: Felder: die Werte aufsteigend angeben."),
    ("it", "Venezia: spazi: elencare i valori dal più basso."),
    ("en", "Venezia: slots: list the values lowest first."),
])
def test_broken_components_are_checked_in_the_readers_language(lang: str, words: str) -> None:
    """The editor's findings come in the language of the moment, their places in the game's
    words (the city by its name); `components check` (`cross_check`) stays English, with the
    file's paths."""
    data = changed(lambda d: d["cities"][1]["slots"].update(value=[4, 1]))
    city = data["cities"][1]["name"]["value"]
    with i18n.use(lang):
        findings = EDITION.check(data)
        with pytest.raises(ValidationError) as refused:
            parse(data)
    assert [f.message for f in findings if f.where == "/cities/1/slots"] == [words]
    assert f"cities[{city}].slots: list the values lowest first" in str(refused.value)


def test_every_cross_check_sentence_is_written_once_the_text_layers_and_translated() -> None:
    """`components.CROSS_CHECKS` is taken into `text.MESSAGES`, not written again in the text
    layer's source, and the catalogs read it where it is written."""
    assert CROSS_CHECKS and {k: text.MESSAGES.get(k) for k in CROSS_CHECKS} == CROSS_CHECKS
    written = {sentence for _, sentence in table_strings(Path(text.__file__).read_text())}
    assert written & set(CROSS_CHECKS.values()) == set()
    ids = {m.id for m in extract(i18n.DOMAINS["signorie"]) if m.id}
    assert set(CROSS_CHECKS.values()) <= ids
    for lang in ("de", "it"):
        catalog = i18n.catalog("signorie", lang)
        assert [k for k, english in CROSS_CHECKS.items() if not catalog.get(english)] == []


@pytest.mark.parametrize(("lang", "words"), [
    ("de", "Die Datei muss ein JSON-Objekt sein (eine Komponentendatei), nicht list."),
    ("it", "Il file deve essere un oggetto JSON (un file dei componenti), non list."),
    ("en", "The file must be a JSON object (a component file), not list."),
])
def test_a_file_that_is_no_component_file_is_said_in_the_readers_language(
        lang: str, words: str) -> None:
    with i18n.use(lang):
        assert [f.message for f in EDITION.check([1, 2])] == [words]


@pytest.mark.parametrize(("lang", "words"), [
    ("de", "5 Städte, 12 Helferfelder; {known} Werte bekannt, {provisional} vorläufig"),
    ("it", "5 città, 12 spazi aiutante; {known} valori noti, {provisional} provvisori"),
    ("en", "5 cities, 12 helper slots; {known} values known, {provisional} provisional"),
])
def test_the_editions_line_is_in_the_readers_language(lang: str, words: str) -> None:
    data = EDITION.default()
    with i18n.use(lang):
        line = EDITION.describe(data)
    counts: Counter[str] = Counter()
    count_statuses(data, counts)
    assert line == words.format(known=counts["known"], provisional=counts["provisional"])


def english_fragments(*groups: dict[str, str]) -> set[str]:
    """The literal words of English templates (between their fields: a few words, not a
    single name or value as the file writes it), to find in a message that should have been
    translated."""
    return {part.strip(" :,.'") for group in groups for template in group.values()
            for part in re.split(r"\{[^}]*\}", template) if " " in part.strip(" :,.'")}


@pytest.mark.parametrize("lang", ["de", "it"])
def test_type_errors_are_said_in_the_readers_language(lang: str) -> None:
    """Wrong types, missing and unknown keys, bounds, choices and the file's own validators:
    the text layer's sentences, the field named as the editor labels it, the place apart."""
    def change(d: dict[str, Any]) -> None:
        d["action_slots"][1]["cost"]["value"] = "two"
        d["action_slots"][0]["cost"]["status"] = "maybe"
        d["rules"]["rounds"].update(status="known", source=None)
        d["cities"][0]["bogus"] = 1
        del d["cities"][1]["slots"]
        d["assignment_tiles"][0]["value"]["name"] = ""
        d["bonus_tiles"][0]["value"]["effect"]["amount"] = 99

    data = changed(change)
    english = EDITION.check(data)
    with i18n.use(lang):
        said = EDITION.check(data)
        cost = place_words(data, "/action_slots/1/cost/value")
        whole = i18n.gettext("tavola", tavola_text.MESSAGES["schema.whole-number"])
    assert [f.where for f in said] == [f.where for f in english] == [
        "/rules/rounds", "/action_slots/0/cost/status", "/action_slots/1/cost/value",
        "/assignment_tiles/0/value/name", "/bonus_tiles/0/value/effect/amount",
        "/cities/0/bogus", "/cities/1"]
    [message] = [f.message for f in said if f.where == "/action_slots/1/cost/value"]
    assert message == whole.format(field=cost[0].upper() + cost[1:]) + "."
    fragments = english_fragments(tavola_text.MESSAGES, text.MESSAGES) | {"Input should"}
    for mine, theirs in zip(said, english, strict=True):
        assert mine.message != theirs.message
        assert not [w for w in fragments if w in mine.message], mine.message


def test_the_file_validators_sentences_are_the_text_layers() -> None:
    assert VALUE_CHECKS and {k: text.MESSAGES.get(k) for k in VALUE_CHECKS} == VALUE_CHECKS
