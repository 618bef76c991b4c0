"""User names: what a name may hold, and when two names are one.

A name is stored as chosen (NFC). Two names are one when they are equal casefolded (`name_key`,
the key accounts are found by) or when they look alike (`look_keys`): their UTS #39 confusable
skeletons agree after compatibility normalization (NFKC: fullwidth and mathematical letters are
their letters) and case folding, small capitals read as capitals and '.', '-', '_' left out. A
name is also refused when it holds an invisible character (any Default_Ignorable_Code_Point, such
as the Hangul fillers), mixes scripts, or does not begin and end with a letter or a digit.

The confusables and the script of each character come from Unicode's own tables as the
`confusable_homoglyphs` package ships them; Default_Ignorable_Code_Point from `regex`.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections import deque
from typing import Any

import confusable_homoglyphs
import regex
from confusable_homoglyphs import categories
from confusable_homoglyphs.utils import load

from ..text import say
from .errors import ClientError

NAME_LENGTH = (2, 24)
_NAME = re.compile(r"[\w.-]+")
_EDGE = re.compile(r"[^\W_]")  # a letter or a digit
_INVISIBLE = regex.compile(r"\p{Default_Ignorable_Code_Point}")
_SEPARATORS = str.maketrans("", "", ".-_")
_MARKS = str.maketrans("", "", "\u200e\u200f")  # direction marks around RTL text in the table
_SMALL_CAPITAL = re.compile(r"(\w+) LETTER SMALL CAPITAL (.+)")
# scripts written together in one language (UTS #39's Japanese, Korean and Chinese sets)
_SCRIPT_SETS = ({"HAN", "HIRAGANA", "KATAKANA"}, {"HAN", "HANGUL"}, {"HAN", "BOPOMOFO"})
_ANY_SCRIPT = {"COMMON", "INHERITED"}
#: changes when what `look_keys` returns changes (new tables or rules): stored keys are redone
LOOK_FORM = f"{unicodedata.unidata_version}/{confusable_homoglyphs.__version__}/1"


def name_key(name: str) -> str:
    """The form in which names are unique and found: case and composition folded."""
    return unicodedata.normalize("NFC", name.casefold())


def check_name(value: Any) -> str:
    """A user name as chosen (NFC), or a `ClientError` naming the rule it breaks."""
    name = check_length(value)
    invisible = _INVISIBLE.search(name)
    if invisible:
        raise ClientError("bad-name", say("account.name-invisible",
                                          code=f"U+{ord(invisible.group()):04X}"))
    if not _NAME.fullmatch(name):
        raise ClientError("bad-name", say("account.name-chars"))
    if not (_EDGE.match(name[0]) and _EDGE.match(name[-1])):
        raise ClientError("bad-name", say("account.name-ends"))
    scripts = {categories.alias(c) for c in name} - _ANY_SCRIPT
    if len(scripts) > 1 and not any(scripts <= s for s in _SCRIPT_SETS):
        raise ClientError("bad-name", say("account.name-scripts", scripts=", ".join(
            sorted(s.title() for s in scripts))))
    return name


def check_length(value: Any) -> str:
    """A name as text (NFC) of an allowed length, before its characters are checked."""
    if not isinstance(value, str):
        raise ClientError("bad-name", say("account.name-type"))
    name = unicodedata.normalize("NFC", value)
    low, high = NAME_LENGTH
    if not low <= len(name) <= high:
        raise ClientError("bad-name", say("account.name-length", low=low, high=high))
    return name


def look_keys(name: str) -> set[str]:
    """The forms in which no two accounts' names may agree: the name as it shows (a capital I
    looks like an l) and with its case folded first (so `ᴀʟɪᴄᴇ` is `alice`)."""
    shown = unicodedata.normalize("NFKC", name)
    return {_settle(shown, fold=False), _settle(shown, fold=True)}


def _settle(text: str, *, fold: bool) -> str:
    """Skeleton, small capitals as capitals, (case folded), until nothing changes."""
    for _ in range(4):
        step = text.casefold() if fold else text
        step = unicodedata.normalize("NFKC", _small_capitals(skeleton(step)))
        step = step.casefold() if fold else step
        if step == text:
            break
        text = step
    return text.translate(_SEPARATORS)


def skeleton(text: str) -> str:
    """UTS #39's skeleton: NFD, default-ignorable characters removed, each character replaced
    by its confusable prototype, NFD again."""
    text = _INVISIBLE.sub("", unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", "".join(_prototype(c) for c in text))


def _small_capitals(text: str) -> str:
    return "".join(_capital(c) for c in text)


@functools.lru_cache(maxsize=4096)
def _capital(c: str) -> str:
    """A small capital letter as its capital (`ᴀ` as `A`); any other character as itself."""
    found = _SMALL_CAPITAL.fullmatch(unicodedata.name(c, ""))
    if found is None:
        return c
    try:
        return unicodedata.lookup(f"{found[1]} CAPITAL LETTER {found[2]}")
    except KeyError:
        return c


@functools.lru_cache(maxsize=4096)
def _prototype(c: str) -> str:
    """The prototype of `c`'s confusables: the table maps each character to its prototype
    and back, so a character's group is its neighbours' neighbours; the prototype is the one
    with several (or a sequence); in a pair, the lower code point (by convention)."""
    table = _confusables()
    if c not in table:
        return c
    group = {c}
    todo = deque([c])
    while todo:
        for other in table.get(todo.popleft(), ()):
            if other not in group:
                group.add(other)
                todo.append(other)
    sequences = [g for g in group if len(g) > 1]
    if sequences:
        return min(sequences)
    hubs = [g for g in group if len(table.get(g, ())) > 1]
    return min(hubs or group)


@functools.cache
def _confusables() -> dict[str, list[str]]:
    return {k.translate(_MARKS): [e["c"].translate(_MARKS) for e in v]
            for k, v in load("confusables.json").items()}
