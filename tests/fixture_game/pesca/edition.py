"""Pesca's edition: the values of its deck's cards, so that a box with other cards is played
as printed (and the platform's editions are proven on a game it does not know)."""

from __future__ import annotations

from typing import Any

from tavola.editions import Finding

from .game import CARDS

FORMAT = "pesca-deck/1"
MOST_CARDS = 30  # a deck no larger than a hand of cards
LEAST_CARDS = 5  # four hands and one card to draw


class PescaEdition:
    format = FORMAT
    max_bytes = 4096

    def default(self) -> dict[str, Any]:
        return {"format": FORMAT, "cards": list(CARDS)}

    def schema(self) -> dict[str, Any]:
        return {"type": "object", "required": ["format", "cards"],
                "properties": {"format": {"const": FORMAT},
                               "cards": {"type": "array", "minItems": LEAST_CARDS,
                                         "maxItems": MOST_CARDS,
                                         "items": {"type": "integer", "minimum": 1,
                                                   "maximum": 99}}}}

    def check(self, data: Any) -> list[Finding]:
        if not isinstance(data, dict):
            return [Finding("The file is not a Pesca deck: it is not a JSON object.")]
        if data.get("format") != FORMAT:
            return [Finding(f"The file's format is not {FORMAT}.", "/format")]
        cards = data.get("cards")
        if not isinstance(cards, list):
            return [Finding("The deck's cards are a list of numbers.", "/cards")]
        found = [Finding(f"Card {i + 1} is not a whole number from 1 to 99.", f"/cards/{i}",
                         (f"card:{i}",))
                 for i, c in enumerate(cards[:MOST_CARDS + 1])
                 if not isinstance(c, int) or isinstance(c, bool) or not 1 <= c <= 99]
        if not LEAST_CARDS <= len(cards) <= MOST_CARDS:
            found.append(Finding(f"A deck has {LEAST_CARDS} to {MOST_CARDS} cards, not "
                                 f"{len(cards)}.", "/cards"))
        seen: set[Any] = set()
        for i, c in enumerate(cards[:MOST_CARDS + 1]):
            if isinstance(c, int) and c in seen:
                found.append(Finding(f"Card {i + 1} ({c}) is in the deck twice.", f"/cards/{i}",
                                     (f"card:{i}",)))
            seen.add(c if isinstance(c, int) else None)
        return found

    def options(self, data: dict[str, Any]) -> dict[str, Any]:
        return {"cards": list(data["cards"])}

    def describe(self, data: dict[str, Any]) -> str:
        cards = data["cards"]
        return f"{len(cards)} cards, {min(cards)} to {max(cards)}"


KIND = PescaEdition()
