"""Pesca in the browser: the platform's plain web side, plus the seat's own card."""

from typing import Any

from tavola.bots import Level
from tavola.web.plainsite import PlainSite

from . import text
from .kit import KIT


class PescaSite(PlainSite):
    def position_json(self, view: Any) -> dict[str, Any]:
        return {"hands": list(view.hands), "deck": len(view.deck)}


def make_site() -> PescaSite:
    return PescaSite(KIT, levels={"random": Level(*text.LEVEL_WORDS)}, word=text.tr,
                     tagline=lambda: text.say("tagline"))
