"""Finding every message and every missing translation: `tavola i18n extract` and `check`.

Extraction uses Babel's extractors: `t("…")` calls in the page scripts (its JavaScript
extractor), `_("…")` calls in Python (its Python extractor), plus the text layers' tables of
sentences (public module-level dicts, tuples and lists of string literals, read from the
source's syntax tree) and the words a domain keeps in data (`Domain.words`). The result is a
`.pot` per domain; `update` merges it into every language's `.po`, `check` lists what is missing,
fuzzy or has other placeholders than the English text.
"""

from __future__ import annotations

import ast
import io
import json
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_javascript, extract_python
from babel.messages.pofile import read_po, write_po

from .i18n import DEFAULT, DOMAINS, LANGUAGES, Domain, reload
from .kit import Part

JS_KEYWORDS = {"t": None}
_LETTER = re.compile(r"[^\W\d_]")
_FIELD = re.compile(r"\{(\w*)(?:![rsa])?(?::[^{}]*)?\}")


# -- extraction ----------------------------------------------------------------------------------


def table_strings(source: str) -> Iterator[tuple[int, str]]:
    """(line, text) of every string in the module's public tables of sentences: module-level
    dicts (their values), tuples and lists made only of string literals."""
    tree = ast.parse(source)
    for node in tree.body:
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        else:
            continue
        if not all(isinstance(t, ast.Name) and not t.id.startswith("_") for t in targets):
            continue
        if isinstance(value, ast.Dict):
            items = [v for k, v in zip(value.keys, value.values, strict=True) if k is not None]
        elif isinstance(value, ast.Tuple | ast.List):
            items = list(value.elts)
        else:
            continue
        if items and all(isinstance(v, ast.Constant) and isinstance(v.value, str)
                         for v in items):
            for v in items:
                assert isinstance(v, ast.Constant)
                yield v.lineno, v.value


def _python(path: Path) -> Iterator[tuple[str, int]]:
    source = path.read_text(encoding="utf-8")
    for line, text in table_strings(source):
        yield text, line
    with io.BytesIO(source.encode()) as f:
        for line, _func, message, _comments in extract_python(
                f, ["_", "gettext", "N_"], [], {}):
            if _first(message):
                yield _first(message), line


def _script(path: Path) -> Iterator[tuple[str, int]]:
    with path.open("rb") as f:
        for line, _func, message, _comments in extract_javascript(
                f, list(JS_KEYWORDS), [], {"encoding": "utf-8"}):
            if _first(message):
                yield _first(message), line
    yield from _nested_calls(path.read_text(encoding="utf-8"))


#: `t("…")` with a plain string: Babel's extractor skips a call inside another call's fields
#: (`t("order: {order}", { order: … t("you") … })`), which then showed in English
_CALL = re.compile(r'\bt\(\s*"((?:[^"\\\n]|\\.)*)"')


def _nested_calls(source: str) -> Iterator[tuple[str, int]]:
    for found in _CALL.finditer(source):
        text = found.group(1)
        if "\\" in text:
            text = json.loads(f'"{text}"')
        yield text, source.count("\n", 0, found.start()) + 1


def _first(message: Any) -> str:
    """The message id of an extracted call (a call with more arguments than the text, such as
    `t("…", {fields})`, comes as a tuple)."""
    if isinstance(message, tuple):
        message = message[0]
    return message if isinstance(message, str) else ""


class _PageText(HTMLParser):
    """The words of an HTML page as `translatePage` in common.js finds them: each text node,
    its whitespace collapsed, and the title, aria-label and placeholder attributes."""

    ATTRS = ("title", "aria-label", "placeholder")

    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, int]] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._skip += 1
        for name, value in attrs:
            if name in self.ATTRS and value:
                self.found.append((" ".join(value.split()), self.getpos()[0]))

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._skip = max(0, self._skip - 1)

    def handle_data(self, data: str) -> None:
        text = " ".join(data.split())
        if text and not self._skip:
            self.found.append((text, self.getpos()[0]))


def _page(path: Path) -> Iterator[tuple[str, int]]:
    parser = _PageText()
    parser.feed(path.read_text(encoding="utf-8"))
    yield from parser.found


def _data_words(domain: Domain) -> list[str]:
    if not domain.words:
        return []
    return list(Part(domain.words).load()())


def extract(domain: Domain) -> Catalog:
    """Every message of a domain, with where it was found (the English catalog)."""
    cat = Catalog(domain=domain.name, project=domain.name, charset="utf-8",
                  fuzzy=False, locale=None)
    root = domain.folder
    for pattern, read in [(p, _python) for p in domain.python] + \
                         [(p, _script) for p in domain.scripts] + \
                         [(p, _page) for p in domain.pages]:
        for path in sorted(root.glob(pattern)):
            rel = f"{domain.package.replace('.', '/')}/{path.relative_to(root)}"
            for text, line in read(path):
                if _LETTER.search(text):
                    cat.add(text, locations=[(rel, line)])
    for text in _data_words(domain):
        if _LETTER.search(text):
            cat.add(text, locations=[(domain.words or "", 0)])
    return cat


def _read(path: Path, lang: str | None = None) -> Catalog | None:
    if not path.is_file():
        return None
    with path.open("rb") as f:
        return read_po(f, locale=lang)


def _write(cat: Catalog, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        write_po(f, cat, width=100, omit_header=False, sort_output=False, ignore_obsolete=True,
                 include_previous=False)


def update(domain: Domain, languages: list[str] | None = None) -> dict[str, int]:
    """Write the domain's `.pot` and merge it into each language's `.po` (created if missing;
    messages whose English changed become fuzzy); returns how many messages each lacks."""
    template = extract(domain)
    _write(template, domain.pot_path())
    missing = {}
    for lang in languages or [code for code in LANGUAGES if code != DEFAULT]:
        path = domain.po_path(lang)
        cat = _read(path, lang) or Catalog(locale=lang, domain=domain.name, project=domain.name,
                                           fuzzy=False)
        cat.update(template, no_fuzzy_matching=False)
        _write(cat, path)
        missing[lang] = sum(1 for m in cat if m.id and (not m.string or m.fuzzy))
    reload()
    return missing


# -- the check -----------------------------------------------------------------------------------


def fields(text: str) -> list[str]:
    """The named placeholders of a message, sorted ("{who} has {n}" -> n, who)."""
    return sorted(m.group(1) for m in _FIELD.finditer(text))


def check(domain: Domain, languages: list[str] | None = None) -> list[str]:
    """Every problem of the domain's catalogs against its sources as they are now: a message
    missing, untranslated or fuzzy in a language, a translation with other placeholders."""
    problems: list[str] = []
    template = extract(domain)
    for lang in languages or [code for code in LANGUAGES if code != DEFAULT]:
        path = domain.po_path(lang)
        cat = _read(path, lang)
        where = f"{domain.name}/{lang}"
        if cat is None:
            problems.append(f"{where}: no catalog {domain.package}/locale/{lang}/LC_MESSAGES/"
                            f"{domain.name}.po (run tavola i18n extract)")
            continue
        for msg in template:
            if not msg.id:
                continue
            problems.extend(f"{where}: {p}" for p in _message_problems(cat.get(msg.id), msg.id))
    return problems


def _message_problems(found: Any, msgid: str) -> list[str]:
    if found is None:
        return [f"missing {msgid!r}"]
    if found.fuzzy:
        return [f"fuzzy {msgid!r}"]
    if not found.string:
        return [f"untranslated {msgid!r}"]
    if fields(found.string) != fields(msgid):
        return [f"placeholders {fields(found.string)} instead of {fields(msgid)} in "
                f"{found.string!r} for {msgid!r}"]
    return []


def domains(names: list[str] | None = None) -> list[Domain]:
    """The domains named (all when none); ValueError names an unknown one."""
    if not names:
        return list(DOMAINS.values())
    unknown = [n for n in names if n not in DOMAINS]
    if unknown:
        raise ValueError(f"no message domain {', '.join(unknown)}; the domains are "
                         f"{', '.join(DOMAINS)}")
    return [DOMAINS[n] for n in names]
