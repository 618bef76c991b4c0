"""Languages: the catalogs hold every message in every language, the language of the moment is
per context, and what the server sends follows each client's language."""

from __future__ import annotations

import asyncio
import contextvars
import datetime as dt
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from typer.testing import CliRunner

from tavola import i18n, i18n_tools, registry
from tavola.cli import app as cli
from tavola.games.gonzaga import text
from tavola.games.gonzaga.state import Reason, ScoreEvent, detail
from tavola.testing import every_game, game_names
from tavola.web.room import GameParams, Room, Seat
from tavola.web.site import load_site

CHECKED = [d for d in i18n.DOMAINS.values() if (d.folder / "locale").is_dir()]


@pytest.mark.parametrize("domain", CHECKED, ids=lambda d: d.name)
def test_every_message_is_translated_in_every_language(domain):
    """The same check as `tavola i18n check`: extracted afresh from the sources, so a message
    added without its translations fails here."""
    assert i18n_tools.check(domain) == []


def test_the_platform_and_gonzaga_have_catalogs():
    assert {"tavola", "gonzaga"} <= {d.name for d in CHECKED}


def test_every_say_key_of_gonzaga_is_in_the_catalog():
    """Every message with words (" → " needs no translation)."""
    worded = {k: v for k, v in text.MESSAGES.items() if i18n_tools._LETTER.search(v)}
    assert len(worded) == len(text.MESSAGES) - 1
    ids = {m.id for m in i18n_tools.extract(i18n.DOMAINS["gonzaga"]) if m.id}
    assert [key for key, english in worded.items() if english not in ids] == []
    for lang in ("de", "it"):
        catalog = i18n.catalog("gonzaga", lang)
        assert [k for k, english in worded.items() if english not in catalog] == []


def test_the_check_finds_missing_fuzzy_and_placeholder_problems(tmp_path: Path, monkeypatch):
    cat = Catalog(locale="de")
    cat.add("{who} places the {fief}", "{wer} setzt {fief}")
    cat.add("the game is over", "das Spiel ist vorbei", flags=["fuzzy"])
    found = {m.id: m for m in cat if m.id}
    assert i18n_tools._message_problems(found["{who} places the {fief}"],
                                        "{who} places the {fief}")[0].startswith("placeholders")
    assert i18n_tools._message_problems(found["the game is over"], "the game is over") == [
        "fuzzy 'the game is over'"]
    assert i18n_tools._message_problems(None, "Lobby") == ["missing 'Lobby'"]
    assert i18n_tools.fields("{who!r} has {n:+d} {who}") == ["n", "who", "who"]


def test_the_check_command_fails_on_a_missing_catalog(monkeypatch, tmp_path: Path):
    domain = i18n.Domain("tavola", "tavola", python=("text.py",))
    monkeypatch.setattr(i18n.Domain, "po_path", lambda self, lang: tmp_path / f"{lang}.po")
    problems = i18n_tools.check(domain)
    assert len(problems) == 2 and all("no catalog" in p for p in problems)
    monkeypatch.setitem(i18n.DOMAINS, "tavola", domain)
    result = CliRunner().invoke(cli, ["i18n", "check", "--domain", "tavola"])
    assert result.exit_code == 1 and "no catalog" in result.output


def test_page_text_and_script_calls_are_extracted():
    ids = {m.id for m in i18n_tools.extract(i18n.DOMAINS["tavola"])}
    assert "Create game" in ids  # lobby.html
    assert "{low} to {high} players" in ids  # t("…", {fields}) in lobby.js
    assert "the server failed on this message" in ids  # tavola/text.py


def test_a_language_is_chosen_from_what_clients_send():
    assert i18n.negotiate("de-DE,de;q=0.9,en;q=0.8") == "de"
    assert i18n.negotiate("fr-FR, it;q=0.5, de;q=0.4") == "it"
    assert i18n.negotiate("en-GB, de;q=0.9") == "en"
    assert i18n.negotiate("fr, *;q=0.1") == "en"
    assert i18n.negotiate("x" * 10_000) == "en"
    assert i18n.negotiate(None) == "en"
    assert [i18n.language(v) for v in ("it_IT", "DE", "xx", 3, None, "de" * 40)] == [
        "it", "de", "en", "en", "en", "en"]


def test_the_language_of_the_moment_is_per_context():
    assert text.say("phase.over") == "game over"
    with i18n.use("de"):
        assert text.say("phase.over") == "Spiel vorbei"
        assert text.word("Venezia") == "Venedig"
        other = contextvars.copy_context()
        with i18n.use("it"):
            assert text.word("Venezia") == "Venezia" and text.word("Wien") == "Vienna"
        assert other.run(i18n.current) == "de"
    assert i18n.current() == "en" and text.word("Venezia") == "Venezia"


def test_numbers_and_dates_follow_the_language():
    assert i18n.format_number(1234.5, "en") == "1,234.5"
    assert i18n.format_number(1234.5, "de") == "1.234,5"
    assert i18n.format_number(1234.5, "it") == "1.234,5"
    day = dt.date(2026, 3, 1)
    assert "März" in i18n.format_date(day, "de", "long")
    assert "marzo" in i18n.format_date(day, "it", "long")


def test_scoring_details_are_stored_in_english_and_shown_in_the_language():
    e = ScoreEvent(1, 0, 3, Reason.SEA_LEAGUE, detail("detail.league", sea="Mare Balticum"),
                   "mare-balticum")
    with i18n.use("de"):
        assert detail("detail.league", sea="X") == "sea league of X"
        assert text.detail_text(e) == "See-Bündnis Mare Balticum"
        assert text.detail_text(ScoreEvent(1, 0, 3, Reason.CITY, "Venezia")) == "Venedig"
    with i18n.use("it"):
        tile = ScoreEvent(1, 0, 15, Reason.GONZAGA_TILE, detail("detail.tile", size=7))
        assert text.detail_text(tile) == "7 feudi collegati"


def test_a_room_builds_each_seat_s_view_in_each_language():
    site = load_site("gonzaga")
    params = GameParams([Seat("person", "Ann"), Seat("bot", "Bo", "random")], seed=5)
    params.setup = site.game.setup_of(site.deal(["Ann", "Bo"], 5, {}))
    room = Room("g1", params, site)
    en, de, it = (room.message_for(0, lang) for lang in ("en", "de", "it"))
    assert en["log"][0]["text"].startswith("Round 1.")
    assert de["log"][0]["text"].startswith("Runde 1.")
    assert it["log"][0]["text"].startswith("Turno 1.")
    assert room.message_text(0, "de") != room.message_text(0, "en")
    assert room.message_for(0, "de") is de  # built once per change, seat and language


def test_play_takes_a_language():
    result = CliRunner().invoke(cli, ["play", "--lang", "fr"])
    assert result.exit_code == 2 and "no language 'fr'" in result.output


def test_asyncio_tasks_keep_their_own_language():
    async def speak(lang: str) -> str:
        i18n.set_language(lang)
        await asyncio.sleep(0)
        return text.say("phase.over")

    async def both() -> list[str]:
        return list(await asyncio.gather(speak("de"), speak("it")))

    assert asyncio.run(both()) == ["Spiel vorbei", "partita finita"]


def test_the_terminal_game_speaks_german():
    """Two bots play a whole game at the terminal with --lang de (in a context of its own: the
    language is set for the rest of the run)."""
    result = contextvars.copy_context().run(
        CliRunner().invoke, cli, ["play", "--lang", "de", "--players", "greedy,random",
                                  "--seed", "3"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Endstand" in out and "Gewinner" in out and "Geheime Aufgaben aufgedeckt" in out
    assert "Final scores" not in out and "Winner" not in out
    assert i18n.current() == "en"


def test_every_games_bot_levels_read_in_the_lobbys_language():
    """The bot levels of every game come to the lobby in its language, not in English."""
    from tavola.web.site import load_sites

    for name, site in load_sites().items():
        english = site.lobby_json()["bot_levels"]
        for lang in ("de", "it"):
            with i18n.use(lang):
                said = site.lobby_json()["bot_levels"]
            assert [level["id"] for level in said] == [level["id"] for level in english]
            for mine, theirs in zip(said, english, strict=True):
                assert mine["help"] != theirs["help"], (name, lang, mine["id"])


@pytest.mark.parametrize("game", game_names("site"))
def test_every_games_table_title_is_extracted_and_translated(game: str):
    """The table page's title (its `<title>` and the header's name, English in the page and
    translated by the browser) is among its game's messages, found where it is declared, and
    every language has it."""
    domain = i18n.DOMAINS[registry.kit(game).text_domain or "tavola"]
    title = load_site(game).table_page.title
    found = i18n_tools.extract(domain).get(title)
    assert found is not None, f"{title!r} is not extracted from {domain.name}'s sources"
    assert [where for where, _ in found.locations if where.endswith("/text.py")]
    for lang in ("de", "it"):
        assert i18n.catalog(domain.name, lang).get(title), (game, lang)


def test_a_call_inside_another_calls_fields_is_extracted_too():
    """`t("order: {order}", { order: … t("you") … })`: Babel's extractor skips the inner call,
    whose word then showed in English in German and Italian ("→ you")."""
    from tavola.i18n_tools import _nested_calls

    source = 'el("p", { text: t("Turn order: {order}", { order: a ? t("you") : b }) });\n' \
             'x = t("say \\"hi\\"");'
    assert [m for m, _ in _nested_calls(source)] == ["Turn order: {order}", "you", 'say "hi"']
    assert [line for _, line in _nested_calls(source)] == [1, 1, 2]


def test_every_game_in_italian_says_turno_for_a_round():
    """Italian players read one word for a round in every game (Gonzaga's "Turno"), never the
    English "round": in the platform's and every game's catalogs, and in the rules pages."""
    import re

    from tavola.web.rules import document

    domains = ["tavola", *(kit.text_domain for kit in every_game() if kit.text_domain)]
    said = {name: i18n.catalog(name, "it") for name in domains}
    assert said["gonzaga"]["Round {round}"].split()[0] == "Turno"
    for name, catalog in said.items():
        rounds = {english: it for english, it in catalog.items() if english.startswith("Round")}
        assert all(re.search(r"\bturno\b", it, re.IGNORECASE) for it in rounds.values()), \
            (name, rounds)
    english = re.compile(r"\bround", re.IGNORECASE)
    for name, catalog in said.items():
        found = [v for v in catalog.values() if english.search(re.sub(r"\{[^}]*\}", "", v))]
        assert found == [], (name, found)
    for kit in every_game():
        if kit.rules is not None:
            rules = re.sub(r"<[^>]*>", "", document(kit.name, "it"))
            assert not english.search(rules), (kit.name, english.findall(rules))
