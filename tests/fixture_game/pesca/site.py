"""Pesca in the browser: the platform's plain web side, plus the cards the seat may see."""

from typing import Any

from pydantic import ConfigDict

from tavola.bots import Level
from tavola.web.plainsite import PlainSite, PlainView

from . import text
from .kit import KIT


class PescaView(PlainView):
    """What a Pesca table is sent: a plain site's view, each seat's card as far as it may be
    seen (None: face down), the deck's size."""

    model_config = ConfigDict(extra="forbid")
    hands: list[int | None]
    deck: int


class PescaSite(PlainSite):
    def position_json(self, view: Any) -> dict[str, Any]:
        return {"hands": list(view.hands), "deck": len(view.deck)}


def make_site() -> PescaSite:
    return PescaSite(KIT, levels={"random": Level(*text.LEVEL_WORDS)}, word=text.tr,
                     tagline=lambda: text.say("tagline"))
