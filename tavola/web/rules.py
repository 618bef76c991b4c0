"""A game's rules page: its rule documents (`tavola/games/NAME/rules/LANG.md`) as safe HTML.

The documents are the game's own words for a newcomer, one file per language. They are written
in a small part of Markdown (headings, paragraphs, lists, bold, italics) with two additions:
`{field}` stands for a fact of the rules (a limit, a number of points) that the game's
`rules.fields()` gives (asked in the document's language, so a fact may be words too), so no
number is written twice; and a line `::: picture NAME caption`
leaves room for a picture the browser draws from the game's data. Everything is escaped
before any markup is added, so a document can hold no HTML of its own.
"""

from __future__ import annotations

import html
import re
from functools import cache
from importlib import resources
from typing import Any

from .. import i18n, registry

LANGUAGES = ("en", "de", "it")  # the languages a rule document may be written in
DEFAULT_LANGUAGE = "en"
_PICTURE = re.compile(r"^::: picture ([a-z][a-z0-9-]*)(?: (.*))?$")
_FIELD = re.compile(r"\{([a-z][a-z0-9_.-]*)\}")
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_ITALIC = re.compile(r"(?<![*\w])\*(?!\s)(.+?)(?<!\s)\*(?![*\w])")


def _inline(text: str) -> str:
    """One line's text as HTML: escaped, then bold and italics."""
    out = html.escape(text, quote=True)
    out = _BOLD.sub(r"<strong>\1</strong>", out)
    return _ITALIC.sub(r"<em>\1</em>", out)


def fill(text: str, fields: dict[str, Any]) -> str:
    """The document with each `{field}` replaced by its fact; an unknown field is an error,
    so a document never shows a placeholder to a player."""
    def one(m: re.Match[str]) -> str:
        if m.group(1) not in fields:
            raise ValueError(f"the rules name an unknown fact {{{m.group(1)}}}")
        return str(fields[m.group(1)])
    return _FIELD.sub(one, text)


def to_html(text: str) -> str:
    """The small Markdown of rule documents as HTML (see the module's docstring)."""
    out: list[str] = []
    para: list[str] = []
    items: list[str] = []

    def flush() -> None:
        if para:
            out.append(f"<p>{_inline(' '.join(para))}</p>")
            para.clear()
        if items:
            out.append("<ul>" + "".join(f"<li>{_inline(i)}</li>" for i in items) + "</ul>")
            items.clear()

    for raw in text.splitlines():
        line = raw.strip()
        heading = re.match(r"^(#{1,3}) (.+)$", line)
        picture = _PICTURE.match(line)
        if not line:
            flush()
        elif heading:
            flush()
            level = len(heading.group(1))
            out.append(f"<h{level}>{_inline(heading.group(2))}</h{level}>")
        elif picture:
            flush()
            caption = picture.group(2) or ""
            out.append(f'<figure class="rules-picture" data-picture="{picture.group(1)}">'
                       f"<figcaption>{_inline(caption)}</figcaption></figure>")
        elif line.startswith("- "):
            if para:
                flush()
            items.append(line[2:])
        elif items and raw.startswith("  "):
            items[-1] += " " + line  # a list item's next line
        else:
            if items:
                flush()
            para.append(line)
    flush()
    return "\n".join(out)


def pick_language(asked: str | None, cookie: str | None, accept: str | None) -> str:
    """The page's language: asked for (`?lang=`), remembered (cookie), the browser's
    (Accept-Language, in its order), else English."""
    for choice in (asked, cookie):
        if choice and choice.lower()[:2] in LANGUAGES:
            return choice.lower()[:2]
    for part in (accept or "")[:200].split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGUAGES:
            return code
    return DEFAULT_LANGUAGE


def rules_module(game: str) -> Any:
    """The game's rules package (its documents and `fields()`/`facts()`), as its kit declares
    it (`GameKit.rules`); ValueError for a game without one."""
    part = registry.kit(game).rules
    if part is None:
        raise ValueError(f"{game} has no rules page")
    return part.load()


def has_rules(game: str) -> bool:
    return registry.kit(game).rules is not None


@cache
def document(game: str, lang: str) -> str:
    """The rules of `game` in `lang` as HTML, its facts filled in."""
    if lang not in LANGUAGES:
        raise ValueError(f"no rules in {lang!r}; the languages are {', '.join(LANGUAGES)}")
    module = rules_module(game)
    text = (resources.files(module) / f"{lang}.md").read_text(
        encoding="utf-8")
    with i18n.use(lang):  # a fact in words (a colour's name) is in the document's language
        fields = module.fields()
    return to_html(fill(text, fields))
