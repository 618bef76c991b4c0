"""The schema of Gonzaga's view messages (`tavola.kit.GameKit.view_schema`): the fields its
`wire.view_json` adds to every message, by type; the conformance suite validates each message
the server sends against it. Nested parts are checked as far as their kind (a list of pieces,
the legal moves as one object); their own fields are `wire.py`'s."""

from __future__ import annotations

from typing import Any

from tavola.web.site import ViewMessage


class GonzagaView(ViewMessage):
    round: int
    phase: str
    order: list[int]
    turn: int
    current: int | None
    final_round: int | None
    last_turn_check: int | None
    last_turn_holder: int
    scenario: dict[str, Any]
    variants: list[str]
    pieces: list[dict[str, Any]]
    church: list[dict[str, Any]]
    legal: dict[str, Any] | None
    final: dict[str, Any] | None
