"""Pesca's rules: cards 1 to 9, one dealt face down to each seat; for two rounds each seat in
turn keeps its card or, while the deck lasts, throws it away face up and draws the next; then
the highest card wins.
A seat sees its own card only, until the end; nobody sees the deck."""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from tavola.game import GameInfo, IllegalAction, LogEntry
from tavola.records import SeededRecords

from .text import say

ROUNDS = 2
CARDS = tuple(range(1, 10))  # the deck the box holds; an edition may hold another


@dataclass(frozen=True)
class Act:
    seat: int
    draw: bool  # throw the card away and draw, or keep it


@dataclass
class Pesca:
    """A state (`viewer` unset, every card known) or a seat's view (others' cards None)."""

    names: tuple[str, ...]
    seed: int
    hands: list[int | None]
    deck: list[int | None]
    history: list[Act] = field(default_factory=list)
    log: list[LogEntry] = field(default_factory=list)
    viewer: int | None = None
    cards: tuple[int, ...] = CARDS  # the deck it is dealt from (public: the edition's)

    @property
    def is_over(self) -> bool:
        return len(self.history) == ROUNDS * len(self.names)

    def to_move(self) -> tuple[int, ...]:
        return () if self.is_over else (len(self.history) % len(self.names),)


class PescaGame:
    info = GameInfo(name="pesca", title="Pesca", min_players=2, max_players=4,
                    default_players=3, simultaneous=False, hidden_information=True,
                    chance=True, record_format="pesca-record", score_sources=("card",),
                    seat_colours=("red", "blue", "green", "yellow"))
    bots: Mapping[str, Any] = {}
    search = None

    def new_game(self, names: Sequence[str], seed: int | None = None,
                 options: Mapping[str, Any] | None = None) -> Pesca:
        self.info.check_players(len(names))
        seed = secrets.randbits(63) if seed is None else seed
        deck = tuple((options or {}).get("cards") or CARDS)
        cards: list[int | None] = list(deck)
        random.Random(seed).shuffle(cards)
        return Pesca(tuple(names), seed, cards[:len(names)], cards[len(names):], cards=deck)

    def legal_actions(self, position: Pesca, seat: int) -> list[Act]:
        if seat not in position.to_move():
            return []
        return [Act(seat, False), Act(seat, True)] if position.deck else [Act(seat, False)]

    def apply_in_place(self, state: Pesca, action: Act) -> None:
        if action not in self.legal_actions(state, getattr(action, "seat", -1)):
            raise IllegalAction("not your move", f"{action!r} cannot be played now")
        seat, card = action.seat, state.hands[action.seat]
        if action.draw:
            state.hands[seat] = state.deck.pop(0)
        state.log.append(LogEntry("draw", seat, {"card": card}) if action.draw
                         else LogEntry("keep", seat, {}))
        state.history.append(action)
        if state.is_over:
            state.log += [LogEntry("reveal", s, {"card": c}) for s, c in enumerate(state.hands)]

    def apply(self, state: Pesca, action: Act) -> Pesca:
        new = self.clone(state)
        self.apply_in_place(new, action)
        return new

    def clone(self, state: Pesca) -> Pesca:
        return replace(state, hands=list(state.hands), deck=list(state.deck),
                       history=list(state.history), log=list(state.log))

    def view(self, state: Pesca, seat: int | None) -> Pesca:
        hands = [c if s == seat or state.is_over else None for s, c in enumerate(state.hands)]
        return replace(self.clone(state), seed=0, hands=hands, deck=[None] * len(state.deck),
                       viewer=seat)  # the seed would tell every card

    def resample(self, view: Pesca, rng: random.Random) -> Pesca:
        unseen = list(view.cards)
        for c in [*view.hands, *(e.data["card"] for e in view.log if e.kind == "draw")]:
            if c in unseen:
                unseen.remove(c)
        rng.shuffle(unseen)
        hands = [c if c is not None else unseen.pop() for c in view.hands]
        return replace(self.clone(view), hands=hands, deck=unseen, viewer=None)

    def scores(self, position: Pesca) -> tuple[int, ...]:
        return tuple(c or 0 for c in position.hands) if position.is_over else (0,) * len(
            position.names)

    def score_breakdown(self, position: Pesca) -> tuple[dict[str, int], ...]:
        return tuple({"card": s} for s in self.scores(position))

    def ranks(self, state: Pesca) -> tuple[int, ...]:
        scores = self.scores(state)
        return tuple(1 + sum(o > s for o in scores) for s in scores)

    def winners(self, state: Pesca) -> tuple[int, ...]:
        return tuple(s for s, r in enumerate(self.ranks(state)) if r == 1)

    def round(self, position: Pesca) -> int:
        return min(len(position.history) // len(position.names) + 1, ROUNDS)

    def setup_label(self, state: Pesca) -> str:
        return say("setup")

    def setup_of(self, state: Pesca) -> dict[str, Any]:
        deck = {} if state.cards == CARDS else {"cards": list(state.cards)}
        return {"names": list(state.names), "seed": state.seed, **deck}

    def renamed(self, setup: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
        return {**setup, "names": list(names)}

    def from_setup(self, setup: Mapping[str, Any]) -> Pesca:
        return self.new_game(list(setup["names"]), int(setup["seed"]),
                             {"cards": setup["cards"]} if "cards" in setup else None)

    def decision_key(self, position: Pesca) -> int:
        return len(position.history)

    def describe_options(self, options: Mapping[str, Any]) -> str:
        return self.info.title

    def record(self, state: Pesca, **given: Any) -> dict[str, Any]:
        return SeededRecords(self).record(state, **given)

    def verify_record(self, data: Any, options: Mapping[str, Any] | None = None) -> Pesca:
        return SeededRecords(self).verify(data, options)

    def summarize_record(self, data: Any) -> str:
        return SeededRecords(self).summarize(data)

    def log(self, position: Pesca) -> Sequence[LogEntry]:
        return tuple(position.log)

    def chance_events(self, position: Pesca) -> Sequence[int]:
        return ()

    def action_to_json(self, action: Act) -> dict[str, Any]:
        return {"type": "draw" if action.draw else "keep", "seat": action.seat}

    def action_from_json(self, data: Any) -> Act:
        kind, seat = (data.get("type"), data.get("seat")) if isinstance(data, dict) else (0, 0)
        if kind not in ("keep", "draw") or type(seat) is not int:
            raise ValueError(f"a Pesca action is {{type: keep or draw, seat}}, not {data!r}")
        return Act(seat, kind == "draw")

    def describe_action(self, position: Pesca, action: Act) -> str:
        return say("action.draw" if action.draw else "action.keep")

    def describe_log(self, position: Pesca, entry: LogEntry) -> str:
        return say(entry.kind, name=position.names[entry.seat], **entry.data)


GAME = PescaGame()
