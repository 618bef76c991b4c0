"""What the one-step heuristic bots share: a decision is either a plan or a turn."""

from __future__ import annotations

from collections.abc import Sequence

from ..actions import Action, Plan
from ..engine import PlayerView


class PlanOrPlaceBot:
    """Splits `decide` into `plan` (phase 2) and `place` (phase 4) for the bot's own seat."""

    name = "bot"

    def decide(self, view: PlayerView, legal_actions: Sequence[Action]) -> Action:
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        me = view.viewer
        if me is None:
            raise ValueError("a bot decides for a seat; a spectator's view was given")
        if isinstance(legal_actions[0], Plan):
            return self.plan(view, me, [a for a in legal_actions if isinstance(a, Plan)])
        return self.place(view, me, legal_actions)

    def plan(self, view: PlayerView, me: int, plans: list[Plan]) -> Plan:
        raise NotImplementedError

    def place(self, view: PlayerView, me: int, legal: Sequence[Action]) -> Action:
        raise NotImplementedError
