"""Languages: every text a player reads, in English, German or Italian, from gettext catalogs.

Each package has one domain (`tavola`, and the one each game's kit names) and keeps its
catalogs in `<package>/locale/<lang>/LC_MESSAGES/<domain>.po`; the message id is the English
text exactly as the text layer writes it, so English needs no catalog and a missing
translation falls back to English. The language of the moment lives in a context variable:
set once per web request, per WebSocket connection or per terminal run, and every text
layer's `say()` reads it, so no caller passes a language around. Catalogs are read with Babel's
`pofile` when first asked for (no compile step, nothing generated to keep in step with the
sources).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import re
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

from babel.dates import format_date as _babel_date
from babel.dates import format_datetime as _babel_datetime
from babel.numbers import format_decimal as _babel_decimal

from . import registry

#: The languages players may choose, by code, each named in its own language.
LANGUAGES: dict[str, str] = {"en": "English", "de": "Deutsch", "it": "Italiano"}
DEFAULT = "en"
#: The cookie (and localStorage key) that remembers a chosen language.
COOKIE = "lang"


@dataclass(frozen=True)
class Domain:
    """A package's messages: where its catalogs live and which files hold its words.

    Paths are relative to the package's folder: `python` text layers (their public dicts and
    tuples of strings, and `_("…")` calls), `scripts` (`t("…")` calls), `pages` (HTML: the
    text of its elements and their title, aria-label and placeholder); `words` names a
    function ("module:function") giving the words that live in data rather than in code (the
    board's names of regions, seas, cities, fiefs)."""

    name: str
    package: str
    python: tuple[str, ...] = ()
    scripts: tuple[str, ...] = ()
    pages: tuple[str, ...] = ()
    words: str | None = None

    @property
    def folder(self) -> Path:
        return Path(str(resources.files(self.package)))

    def po_path(self, lang: str) -> Path:
        return self.folder / "locale" / lang / "LC_MESSAGES" / f"{self.name}.po"

    def pot_path(self) -> Path:
        return self.folder / "locale" / f"{self.name}.pot"


def _domains() -> dict[str, Domain]:
    """The platform's domain and the one each game's kit declares (`GameKit.text_domain`: its
    catalogs in its package's `locale/`, its sentences in `text.py` and its
    `text_sources`, its page's in `web/static/`;
    the kits are read without importing the games: their text layers import this module).
    A game's names kept in data come from the function its kit names (`GameKit.words`)."""
    found = [Domain("tavola", "tavola", python=("text.py", "web/pages.py"),
                    scripts=("web/static/*.js",),
                    pages=("web/static/*.html",))]
    for kit in registry.kits().values():
        if kit.text_domain is not None:
            found.append(Domain(kit.text_domain, kit.package,
                                python=("text.py", *kit.text_sources),
                                scripts=("web/static/*.js",), pages=("web/static/*.html",),
                                words=kit.words.path if kit.words else None))
    return {d.name: d for d in found}


DOMAINS: dict[str, Domain] = _domains()

_current: ContextVar[str] = ContextVar("language", default=DEFAULT)


# -- the language of the moment ------------------------------------------------------------------


def current() -> str:
    """The language of this request, connection or terminal run."""
    return _current.get()


def set_language(lang: str | None) -> str:
    """Make `lang` (or English, for anything not offered) the language from here on."""
    lang = language(lang)
    _current.set(lang)
    return lang


@contextlib.contextmanager
def use(lang: str | None) -> Iterator[str]:
    """Speak `lang` inside the block, then whatever was spoken before."""
    code = language(lang)
    token = _current.set(code)
    try:
        yield code
    finally:
        _current.reset(token)


def language(value: object) -> str:
    """A language code offered here from what a client sent ("de", "de-AT", "it_IT"), else
    the default: a language code is hostile input like any other."""
    if isinstance(value, str) and len(value) <= 35:
        code = value.strip().replace("_", "-").split("-")[0].lower()
        if code in LANGUAGES:
            return code
    return DEFAULT


_RANGE = re.compile(r"^\s*([A-Za-z]{1,8}(?:[-_][A-Za-z0-9]{1,8})*|\*)\s*(?:;\s*q\s*=\s*([0-9.]+))?")


def negotiate(accept_language: str | None) -> str:
    """The best offered language for an Accept-Language header (q-values honoured)."""
    best, best_q = DEFAULT, 0.0
    for i, part in enumerate((accept_language or "")[:500].split(",")[:20]):
        m = _RANGE.match(part)
        if not m or m.group(1) == "*":
            continue
        try:
            q = float(m.group(2)) if m.group(2) else 1.0
        except ValueError:
            continue
        q -= i * 1e-6  # earlier wins a tie
        code = language(m.group(1))
        if q > best_q and (code != DEFAULT or m.group(1).lower().startswith(DEFAULT)):
            best, best_q = code, q
    return best


# -- catalogs ------------------------------------------------------------------------------------


@cache
def catalog(domain: str, lang: str) -> dict[str, str]:
    """The translations of `domain` into `lang` (English: none); fuzzy or empty entries are
    left out, so they show in English until someone checks them."""
    from babel.messages.pofile import read_po

    if lang == DEFAULT or domain not in DOMAINS or lang not in LANGUAGES:
        return {}
    path = DOMAINS[domain].po_path(lang)
    if not path.is_file():
        return {}
    with path.open("rb") as f:
        cat = read_po(f, locale=lang, domain=domain)
    return {m.id: m.string for m in cat
            if m.id and isinstance(m.id, str) and isinstance(m.string, str) and m.string
            and not m.fuzzy}


def reload() -> None:
    """Read the catalogs again (after `tavola i18n extract` or an edit)."""
    catalog.cache_clear()


def gettext(domain: str, message: str, lang: str | None = None) -> str:
    """`message` (English) in the current language, or in English when it has no translation."""
    lang = lang or _current.get()
    if lang == DEFAULT:
        return message
    return catalog(domain, lang).get(message, message)


def translator(domain: str) -> Callable[[str], str]:
    """`_` for a module: `_("English text")` in the current language."""
    def _(message: str) -> str:
        return gettext(domain, message)
    return _


# -- numbers and dates ---------------------------------------------------------------------------


def format_number(value: float | int, lang: str | None = None) -> str:
    """1,234.5 / 1.234,5 as the language writes numbers."""
    return _babel_decimal(value, locale=lang or _current.get())


def format_date(value: dt.date | dt.datetime, lang: str | None = None,
                form: str = "medium") -> str:
    """A date (with its time, for a datetime) as the language writes it."""
    lang = lang or _current.get()
    if isinstance(value, dt.datetime):
        return _babel_datetime(value, form, locale=lang)
    return _babel_date(value, form, locale=lang)
