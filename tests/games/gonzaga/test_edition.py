"""Gonzaga's edition kind: the board file's checks as findings located in the file and on the
map, for malformed, oversized and nonsensical boards; it never raises."""

from __future__ import annotations

import asyncio
import copy
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from boards import tiny_board_dict

from tavola import i18n
from tavola import text as tavola_text
from tavola.editions import EditionKind, Finding, content_hash
from tavola.games.gonzaga import boardcheck, text
from tavola.games.gonzaga.board import LOADING, BoardError, board_from_dict, load_board
from tavola.games.gonzaga.boardcheck import check_board
from tavola.games.gonzaga.boarddata import MAX_NAME
from tavola.games.gonzaga.edition import EDITIONS
from tavola.games.gonzaga.game import GAME
from tavola.games.gonzaga.kit import KIT
from tavola.i18n_tools import extract, table_strings


def shipped() -> dict[str, Any]:
    return EDITIONS.default()


def only(findings: list[Finding], text: str) -> Finding:
    found = [f for f in findings if text in f.message]
    assert len(found) == 1, findings
    return found[0]


def test_the_kit_declares_the_edition_kind() -> None:
    assert KIT.editions is not None
    kind: EditionKind = KIT.editions.load()
    assert kind is EDITIONS and kind.format == "gonzaga-board/1"
    assert kind.default() == load_board().raw and kind.default() is not load_board().raw
    assert kind.schema()["title"] == "Gonzaga board file"
    assert kind.check(kind.default()) == []
    hexes = load_board().hex_count
    assert kind.describe(kind.default()) == f"{hexes} hexes, 24 cities, 24 harbors, 12 fiefs"


def test_the_options_play_a_game_on_the_data() -> None:
    data = shipped()
    data["name"] = "My copy"
    state = GAME.new_game(["Ann", "Bea"], 1, EDITIONS.options(data))
    assert state.board.name == "My copy" and state.board.content_hash == content_hash(data)


def test_a_broken_rule_is_located_in_the_file_and_on_the_map() -> None:
    data = shipped()
    data["cities"][5]["at"] = list(data["harbors"][0]["at"])  # onto a harbor's hex
    findings = EDITIONS.check(data)
    share = only(findings, "share hex")
    assert share.where in ("/cities/5/at", "/harbors/0/at")
    c, r = data["harbors"][0]["at"]
    assert f"hex:{c},{r}" in share.marks
    assert share.message[0].isupper() and share.message.endswith(".")


def test_a_barrier_off_a_border_marks_its_two_hexes() -> None:
    data = shipped()  # the barrier is moved inside one region: two hexes of a row of Hispania
    hexes = [(c, r) for r, line in enumerate(data["terrain"]) for c, ch in enumerate(line)
             if ch == "H"]
    (c, r) = next(h for h in hexes if (h[0] + 1, h[1]) in hexes)
    data["barriers"][0]["edges"][0] = [[c, r], [c + 1, r]]
    finding = only(EDITIONS.check(data), "must lie on a border between two regions")
    assert finding.where == "/barriers/0/edges/0"
    assert set(finding.marks) == {f"hex:{c},{r}", f"hex:{c + 1},{r}"}


def test_schema_errors_say_where_they_are() -> None:
    data = shipped()
    data["cities"][2]["symbol"] = 7
    data["fiefs"][1]["hexes"] = "three"
    findings = EDITIONS.check(data)
    assert {f.where for f in findings} >= {"/cities/2/symbol", "/fiefs/1/hexes"}
    data = shipped()
    del data["terrain"]
    assert [f.message for f in EDITIONS.check(data)] == ["Missing keys: terrain."]


def test_the_board_check_command_says_the_same_as_before() -> None:
    data = tiny_board_dict()  # breaks the Mare Germanicum rule, with its old words
    from tavola.games.gonzaga.board import board_from_dict

    problems = check_board(board_from_dict(data))
    assert problems and all(isinstance(p, str) and hasattr(p, "where") for p in problems)
    assert "Mare Germanicum (sea mare-germanicum) must have 2 harbors in Britannia and 2 in " \
           "Germania, has {}" in problems
    located = only(EDITIONS.check(data), "Mare Germanicum")
    assert located.where == "/harbors"


@pytest.mark.parametrize("data", [
    None, 3, "a board", [], [1, 2], {}, {"format": "gonzaga-board/1"},
    {"format": "gonzaga-board/1", "name": "x", "columns": -1, "rows": 0, "terrain": [],
     "legend": {}, "regions": [], "seas": [], "symbols": [], "cities": [], "harbors": [],
     "barriers": [], "church": {"x": 0, "y": 0}, "fiefs": [], "scenarios": [],
     "objectives": []},
    {**tiny_board_dict(), "terrain": []},
    {**tiny_board_dict(), "legend": {"HH": {"region": "nowhere"}}},
    {**tiny_board_dict(), "fiefs": [{"number": 10, "hexes": [[10**18, -10**18]] * 3,
                                     "castles": []}]},
    {**tiny_board_dict(), "church": {"x": float("nan"), "y": 1}},
    {**tiny_board_dict(), "cities": [{"id": "c", "name": "C", "region": "x", "symbol": "y",
                                      "at": [999, 999]}]},
], ids=lambda d: type(d).__name__)
def test_nonsense_is_findings_never_an_error(data: Any) -> None:
    findings = EDITIONS.check(copy.deepcopy(data))
    assert findings and all(isinstance(f, Finding) and f.message for f in findings)
    EDITIONS.describe(data)  # never raises either


def test_oversized_boards_are_refused_before_they_are_read() -> None:
    data = shipped()
    data["description"] = "x" * (EDITIONS.max_bytes + 1)
    [finding] = EDITIONS.check(data)
    assert "at most 256000 are allowed" in finding.message
    data = shipped()
    data["columns"], data["rows"] = 5000, 5000
    assert {f.where for f in EDITIONS.check(data)} == {"/columns", "/rows"}
    data = shipped()
    data["cities"][0]["name"] = "N" * 500
    finding = only(EDITIONS.check(data), "500 characters")
    assert finding.where == "/cities/0/name"
    data = shipped()
    data["cities"] = data["cities"] * 20
    assert only(EDITIONS.check(data), "at most 400 cities").where == "/cities"
    deep: Any = []
    for _ in range(100_000):
        deep = [deep]
    data = shipped()
    data["meta"] = deep
    assert EDITIONS.check(data)  # a finding, not a RecursionError


def test_checking_many_editions_keeps_a_bounded_number_of_boards(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every check of a new playable board builds its placement tables; a process keeps only
    the most recent ones (here 2), so editions sent one after another cannot fill its memory."""
    from tavola.games.gonzaga import placement, state

    monkeypatch.setattr(placement, "TABLES_KEPT", 2, raising=False)
    monkeypatch.setattr(state, "RULES_KEPT", 2, raising=False)
    hashes = []
    for i in range(4):
        data = shipped()
        data["name"] = f"Copy {i}"
        assert EDITIONS.check(data) == []
        GAME.new_game(["Ann", "Bea"], i, EDITIONS.options(data))
        hashes.append(content_hash(data))
    assert len(placement._tables) <= 2 and hashes[-1] in placement._tables
    assert len(state._rules_cache) <= 2


@pytest.mark.parametrize(("lang", "words"), [
    ("de", "{place} und {other} liegen beide auf Feld {at}"),
    ("it", "{place} e {other} sono sullo stesso esagono {at}"),
])
def test_a_broken_board_is_checked_in_the_readers_language(lang: str, words: str) -> None:
    """The editor's findings come in the language of the moment; the data's own names (the
    cities') stay as written, and `board check`'s problems stay English."""
    data = shipped()
    data["cities"][5]["at"] = list(data["harbors"][0]["at"])
    city, harbor = data["cities"][5]["name"], data["harbors"][0]["name"]
    english = {f.message for f in EDITIONS.check(data)}
    with i18n.use(lang):
        findings = EDITIONS.check(data)
        problems = check_board(board_from_dict(data))
    c, r = data["harbors"][0]["at"]
    worded = words.format(place=harbor, other=city, at=(c, r))
    assert any(f.message == worded[0].upper() + worded[1:] + "." for f in findings), findings
    assert not {f.message for f in findings} & english
    assert f"{harbor} and {city} share hex {(c, r)}" in problems


def test_every_board_check_sentence_has_its_translations() -> None:
    keys = [key for key in text.MESSAGES if key.startswith(("check.", "load.", "edition."))]
    assert len(keys) > 30
    for lang in ("de", "it"):
        catalog = i18n.catalog("gonzaga", lang)
        assert [k for k in keys if not catalog.get(text.MESSAGES[k])] == []


@pytest.mark.parametrize(("lang", "words"), [
    ("de", "Stadt {city} nennt die unbekannte Region 'atlantis'."),
    ("it", "La città {city} nomina la regione sconosciuta 'atlantis'."),
])
def test_a_board_that_cannot_be_read_is_checked_in_the_readers_language(
        lang: str, words: str) -> None:
    data = shipped()
    data["cities"][0]["region"] = "atlantis"
    city = data["cities"][0]["id"]
    with i18n.use(lang):
        finding = next(f for f in EDITIONS.check(data) if f.where == "/cities/0/region")
    assert finding.message == words.format(city=city)
    with i18n.use(lang), pytest.raises(BoardError, match=f"city {city} names unknown region "
                                                         "'atlantis'"):
        board_from_dict(data)


def test_the_loaders_sentences_are_written_once_and_are_the_text_layers() -> None:
    """`board.LOADING` is taken into `text.MESSAGES`, not written again in the text layer's
    source, and the catalogs read it where it is written."""
    assert LOADING and {k: text.MESSAGES.get(k) for k in LOADING} == LOADING
    written = {sentence for _, sentence in table_strings(Path(text.__file__).read_text())}
    assert written & set(LOADING.values()) == set()
    ids = {m.id for m in extract(i18n.DOMAINS["gonzaga"]) if m.id}
    assert set(LOADING.values()) <= ids


def test_concurrent_checks_each_speak_their_requests_language() -> None:
    """The web server checks in a worker thread (`asyncio.to_thread`) inside each request's
    language (`tavola.web.i18n_web`): two requests at once get their own words."""
    data = shipped()
    data["fiefs"][0]["hexes"] = [[0, 0], [5, 5], [9, 9]]

    async def check(lang: str) -> set[str]:
        with i18n.use(lang):
            await asyncio.sleep(0)
            return {f.message for f in await asyncio.to_thread(EDITIONS.check, data)}

    async def both() -> list[set[str]]:
        return list(await asyncio.gather(check("de"), check("it"), check("en")))

    german, italian, english = asyncio.run(both())
    fief = data["fiefs"][0]["number"]
    assert f"Lehen {fief} ist kein zusammenhängendes Stück." in german
    assert f"Il feudo {fief} non è un pezzo unico connesso." in italian
    assert f"Fief {fief} is not one connected piece." in english


@pytest.mark.parametrize(("lang", "words"), [
    ("de", "Die Spielplandatei muss ein JSON-Objekt sein."),
    ("it", "Il file del tabellone deve essere un oggetto JSON."),
    ("en", "The board file must be a JSON object."),
])
def test_a_file_that_is_no_board_is_said_in_the_readers_language(lang: str, words: str) -> None:
    with i18n.use(lang):
        assert [f.message for f in EDITIONS.check([1, 2])] == [words]


@pytest.mark.parametrize(("lang", "words"), [
    ("de", "Stadt {city} auf ({c},{r}) liegt auf keinem bespielbaren Feld."),
    ("it", "La città {city} in ({c},{r}) non è su un esagono giocabile."),
    ("en", "City {city} at ({c},{r}) is not a playable hex."),
])
def test_a_city_off_the_map_is_said_in_the_readers_language(lang: str, words: str) -> None:
    data = shipped()
    legend = data["legend"]
    c, r = next((c, r) for r, line in enumerate(data["terrain"]) for c, ch in enumerate(line)
                if not (legend[ch].get("region") or legend[ch].get("sea")))  # scenery
    data["cities"][0]["at"] = [c, r]
    with i18n.use(lang):
        messages = [f.message for f in EDITIONS.check(data) if f.where == "/cities/0/at"]
    assert messages == [words.format(city=data["cities"][0]["id"], c=c, r=r)]


@pytest.mark.parametrize(("lang", "words"), [
    ("de", "Dieser Text hat 5000 Zeichen; erlaubt sind höchstens {most}."),
    ("it", "Questo testo ha 5000 caratteri; ne sono ammessi al massimo {most}."),
    ("en", "This text has 5000 characters; at most {most} are allowed."),
])
def test_a_board_past_a_limit_is_said_in_the_readers_language(lang: str, words: str) -> None:
    data = shipped()
    data["cities"][0]["name"] = "x" * 5000
    with i18n.use(lang):
        messages = [f.message for f in EDITIONS.check(data) if f.where == "/cities/0/name"]
    assert messages == [words.format(most=MAX_NAME)]


@pytest.mark.parametrize("lang", ["de", "it"])
def test_an_action_card_no_fief_fits_is_named_in_the_readers_language(
        lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The fit check names its action cards as the table prints them in the reader's language
    (Städte, Città), not the English names it was built with; `board check` stays English."""
    cities = next(card for card in boardcheck.FIT_CARDS if card == "Cities")
    monkeypatch.setitem(boardcheck.FIT_CARDS, cities,
                        lambda c, h: np.zeros(np.shape(c), dtype=bool))  # fits nowhere
    with i18n.use(lang):
        messages = [f.message for f in EDITIONS.check(shipped())]
        card = text.word("Cities")
        fief = text.say("check.fief-no-fit", fief=10, card=card)
    assert card != "Cities" and fief[0].upper() + fief[1:] + "." in messages
    assert messages and not [m for m in messages if "Cities" in m]
    assert "fief 10 has no legal placement with the Cities card" in \
        check_board(board_from_dict(shipped()))


@pytest.mark.parametrize(("lang", "words"), [
    ("de", "1543 Felder, 24 Städte, 24 Häfen, 12 Lehen"),
    ("it", "1543 esagoni, 24 città, 24 porti, 12 feudi"),
    ("en", "1543 hexes, 24 cities, 24 harbors, 12 fiefs"),
])
def test_the_editions_line_is_in_the_readers_language(lang: str, words: str) -> None:
    with i18n.use(lang):
        assert EDITIONS.describe(shipped()) == words


def english_fragments(*groups: dict[str, str]) -> set[str]:
    """The literal words of English templates (between their fields: a few words, not a
    single name or value as the file writes it), to find in a message that should have been
    translated."""
    return {part.strip(" :,.") for group in groups for template in group.values()
            for part in re.split(r"\{[^}]*\}", template) if " " in part.strip(" :,.")}


@pytest.mark.parametrize("lang", ["de", "it"])
def test_schema_errors_are_said_in_the_readers_language(lang: str) -> None:
    """A wrong type, a missing or unknown key, a bad hex pair: the text layer's sentences with
    the field named in the editor's words, the place apart; nothing of pydantic's English."""
    data = shipped()
    data["name"] = 5
    data["cities"][2]["symbol"] = 7
    data["cities"][0]["extra"] = 1
    data["cities"][3]["at"] = [1]
    del data["harbors"][0]["sea"]
    data["church"]["x"] = "a"
    english = EDITIONS.check(data)
    with i18n.use(lang):
        said = EDITIONS.check(data)
        city, harbor = data["cities"][2]["id"], data["harbors"][0]["id"]
        expected = {
            "/cities/2/symbol": tavola_text.say(
                "schema.text", field=f"{text.word('City')} {city}, {text.word('Symbol')}"),
            "/harbors/0/sea": tavola_text.say(
                "schema.missing", field=f"{text.word('Harbor')} {harbor}, {text.word('Sea')}")}
    assert [f.where for f in said] == [f.where for f in english] == [
        "/name", "/cities/0/extra", "/cities/2/symbol", "/cities/3/at", "/harbors/0/sea",
        "/church/x"]
    for f in said:
        if f.where in expected:
            assert f.message == expected[f.where] + "."
    fragments = english_fragments(tavola_text.MESSAGES, text.MESSAGES) | {"Input should"}
    for mine, theirs in zip(said, english, strict=True):
        assert mine.message != theirs.message
        assert not [w for w in fragments if w in mine.message], mine.message
