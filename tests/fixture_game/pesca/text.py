"""Every sentence of Pesca, in English; the catalogs in `locale/` translate them."""

from typing import Any

from tavola import i18n

DOMAIN = "pesca"

MESSAGES = {
    "keep": "{name} keeps the card",
    "draw": "{name} throws away the {card} and draws",
    "reveal": "{name} shows the {card}",
    "action.keep": "keep your card",
    "action.draw": "throw away your card and draw the next",
    "setup": "nine cards",
    "tagline": "One hidden card each: keep it or fish for a better one.",
}
LEVEL_WORDS = ("Random", "very easy", "keeps or draws at random")


def tr(english: str) -> str:
    return i18n.gettext(DOMAIN, english)


def say(key: str, **fields: Any) -> str:
    return tr(MESSAGES[key]).format(**fields)
