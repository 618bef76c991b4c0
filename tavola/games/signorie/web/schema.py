"""The schema of Signorie's view messages (`tavola.kit.GameKit.view_schema`): the fields its
`wire.view_json` adds to every message, by type; the conformance suite validates each message
the server sends against it. Nested parts are checked as far as their kind (a list of dice,
the legal choices as one object); their own fields are `wire.py`'s."""

from __future__ import annotations

from typing import Any

from tavola.web.site import ViewMessage


class SignorieView(ViewMessage):
    components: str  # the component data's content hash ("" for the shipped components)
    round: int
    rounds: int
    phase: str
    phase_name: str
    order: list[int]
    mover: int | None
    question: str | None
    dice: list[dict[str, Any]]
    cities: list[dict[str, Any]]
    assignments: list[dict[str, Any]]
    rewards: list[dict[str, Any]]
    deck: int
    reward_step: dict[str, Any] | None
    round_summary: dict[str, Any] | None
    legal: dict[str, Any] | None
    final: dict[str, Any] | None
