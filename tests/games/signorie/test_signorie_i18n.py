"""Signorie speaks German and Italian: every message is in both catalogs, and every sentence a
seeded game produces (the log, the choices, the menu lines, the questions) is translated."""

from __future__ import annotations

import pytest

from tavola import i18n, i18n_tools
from tavola.games.signorie import text
from tavola.games.signorie.game import GAME


def test_every_signorie_message_is_translated_with_its_placeholders():
    assert i18n_tools.check(i18n.DOMAINS["signorie"]) == []


def _sentences(seed: int) -> list[tuple[str, ...]]:
    """Every sentence of a random game, in English, German and Italian."""
    import random

    rng = random.Random(seed)
    state = GAME.new_game(["Ann", "Bea", "Cid"], seed)
    out = []
    while not state.is_over and len(out) < 3000:
        legal = GAME.legal_actions(state, state.to_move()[0])
        for a in legal[:6]:
            out.append(tuple(_in_each(lambda a=a, s=state: (text.choice_text(s, a),
                                                     text.option_text(s, a),
                                                     text.describe_action(s, a)))))
        out.append(tuple(_in_each(lambda s=state: (text.question_text(s, s.stack[-1]),))))
        state = GAME.apply(state, rng.choice(legal))
    for entry in state.log:
        out.append(tuple(_in_each(lambda e=entry: (text.describe_log(state, e),))))
    return out


def _in_each(make) -> list[tuple[str, ...]]:
    said = []
    for lang in ("en", "de", "it"):
        with i18n.use(lang):
            said.append(make())
    return list(zip(*said, strict=True))


@pytest.mark.parametrize("seed", [5, 11])
def test_a_whole_game_is_told_in_german_and_italian(seed):
    lines = [line for group in _sentences(seed) for line in group]
    assert len(lines) > 200
    for en, de, it in lines:
        assert de != en, f"untranslated in German: {en!r}"
        assert it != en, f"untranslated in Italian: {en!r}"


def test_the_colours_differ_in_their_first_two_letters_in_every_language():
    """An empty die slot on a player board shows its colour's first two letters (Giallo and
    Grigio, Gelb and Grau share the first)."""
    from tavola import i18n
    from tavola.games.signorie.tables import tables
    from tavola.games.signorie.text import colour_title

    for lang in ("en", "de", "it"):
        with i18n.use(lang):
            shorts = [colour_title(c)[:2] for c in tables().colours]
        assert len(set(shorts)) == len(shorts), (lang, shorts)


@pytest.mark.parametrize(("lang", "one", "many"), [
    ("en", "1 son and 2 daughters", "2 sons and 1 daughter"),
    ("de", "1 Sohn und 2 Töchter", "2 Söhne und 1 Tochter"),
    ("it", "1 figlio e 2 figlie", "2 figli e 1 figlia")])
def test_the_offspring_are_counted_in_words_of_one_and_many(lang, one, many):
    """"2 son(s)" is a sentence in no language: each count takes its own form."""
    from tavola.game import LogEntry

    state = GAME.new_game(["Ann", "Bea"], 3)

    def said(male: int, female: int) -> str:
        entry = LogEntry("offspring", 0, {"rolls": [1, 6, 2], "male": male, "female": female})
        with i18n.use(lang):
            return text.describe_log(state, entry)

    assert one in said(1, 2) and many in said(2, 1)
    assert "(s)" not in said(1, 2) and "/" not in said(2, 1)


@pytest.mark.parametrize("lang", ["en", "de", "it"])
def test_an_alliance_tiles_house_and_number_are_never_a_line_apart(lang):
    """"Missione Borgia 3" wrapped as "Borgia" over "3": a no-break space holds them."""
    from tavola.games.signorie.tables import tables

    t = tables()
    with i18n.use(lang):
        names = {text.tile_text(t, tile) for tile in range(len(t.tile_house))}
    assert names and all(" " not in n and n.count("\u00a0") == 1 for n in names), names
