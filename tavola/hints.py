"""Hints for people: the search's favourite moves for a seat, in the game's words (and, where
the game lends `explain_action`, what each gains now).

A hint is the search bot's analysis of the seat's own view (`MCTSBot.analyse`), so it knows
no more than the player does. Each of the top moves comes with the lead over the best other
player it is expected to end with, in points. Seeds come from the operating system: a hint
is advice, not part of a game's replay.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from . import registry
from .game import Game
from .search import DEFAULT_LEVELS, MCTSBot, MoveValue, Settings, per_players

TOP = 3  # moves a hint shows
MIN_ITERATIONS = 50  # the least search a hint gets, however short of time the server is


@dataclass(frozen=True)
class Hint:
    """One suggested move: the action, the game's words for it, the expected final lead over
    the best other player (points), and how much of the search went to it (0 to 1)."""

    action: Any
    words: str
    lead: float
    share: float
    why: str = ""  # what the move gains now, when the game says (`explain_action`)
    then: tuple[Any, ...] = ()  # the further steps of the move (`MoveValue.then`)


def phrase(sentence: str) -> str:
    """A move's sentence as a phrase, to sit inside a longer line (no closing full stop)."""
    return sentence.rstrip().rstrip(".")


def hint_settings(game: Game, share: float = 1.0) -> Settings:
    """The strongest level the game's search declares (a hint is worth the best advice), its
    iterations and time cut to `share` (a server short of time for hints gives shorter ones)."""
    levels = game.search.levels if game.search else DEFAULT_LEVELS
    hard = levels["hard"]
    if share >= 1:
        return hard

    def cut(values: Mapping[str, Any]) -> dict[str, Any]:
        out = dict(values)
        if out.get("iterations") is not None:
            out["iterations"] = max(MIN_ITERATIONS, round(out["iterations"] * share))
        if out.get("time_limit") is not None:
            out["time_limit"] = out["time_limit"] * share
        return out

    counts = {n: cut(dict(values)) for n, values in hard.by_players}
    whole = cut({"iterations": hard.iterations, "time_limit": hard.time_limit})
    return replace(hard, **whole, by_players=per_players(counts))


def move_words(game: Game, view: Any, move: MoveValue, exact: bool = False) -> str:
    """A move named whole, where the game can (`describe_move`: where it goes, its further
    steps where a move takes several; `exact`: in every detail), else by its one action."""
    describe = registry.move_words(game.info.name).describe_move
    if describe is not None:
        return phrase(describe(view, (move.action, *move.then), exact=exact))
    return phrase(game.describe_action(view, move.action))


def hints(game: Game, view: Any, legal: Sequence[Any], *, top: int = TOP,
          settings: Settings | None = None, seed: int | None = None) -> list[Hint]:
    """The search's `top` moves for the viewer (the ones it tried most), ranked by the lead
    each is expected to bring: the first has the greatest, so a rank never contradicts the
    number shown beside it."""
    bot = MCTSBot(game, secrets.randbits(64) if seed is None else seed,
                  settings or hint_settings(game), label="hint")
    analysed = bot.analyse(view, legal)
    total = sum(move.visits for move in analysed) or 1
    explain = registry.move_words(game.info.name).explain_action  # why a move is good
    shown = sorted(analysed[:top], key=lambda move: -move.lead)
    return [Hint(move.action, move_words(game, view, move), move.lead, move.visits / total,
                 explain(view, move.action) if explain else "", move.then)
            for move in shown]
