"""Gonzaga declared to the platform: `GAME` answers `tabletop.game.Game` from the engine."""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import asdict
from functools import cache
from pathlib import Path
from typing import Any

from tabletop.game import GameInfo, LogEntry

from . import engine
from .actions import Action, action_from_json, action_to_json
from .board import Board, load_board
from .state import (
    COLOURS,
    GameEnded,
    GameState,
    Phase,
    PlansRevealed,
    Reason,
    RoundStarted,
    Setup,
    TurnPlayed,
)

INFO = GameInfo(
    name="gonzaga", title="Gonzaga", min_players=2, max_players=4, default_players=4,
    simultaneous=True, hidden_information=True, chance=False, record_format="gonzaga-record",
    score_sources=tuple(str(r) for r in Reason), seat_colours=COLOURS,
    options={"scenario": "the scenario tile's name (default: one at random)",
             "variants": "rule variants by name (see docs/rules.md)",
             "board": "a board file (default: the shipped board)"})

Position = GameState | engine.PlayerView


@cache
def _board_at(path: str) -> Board:
    return load_board(Path(path))


def board_option(value: Any) -> Board | None:
    """The `board` option: a Board, a path to a board file, or None for the shipped board."""
    if value is None or isinstance(value, Board):
        return value
    return _board_at(str(value))


class Gonzaga:
    """The platform's handle on Gonzaga; every method delegates to the rules engine."""

    info = INFO

    @property
    def bots(self) -> Mapping[str, Any]:
        from .bots import GAME_BOTS  # the bots import the engine, not this module
        return GAME_BOTS

    @property
    def search(self) -> Any:
        from .bots.mcts import SEARCH
        return SEARCH

    def new_game(self, names: Sequence[str], seed: int | None = None,
                 options: Mapping[str, Any] | None = None) -> GameState:
        opts = dict(options or {})
        unknown = set(opts) - set(INFO.options)
        if unknown:
            raise ValueError(f"unknown Gonzaga option(s): {', '.join(sorted(unknown))}")
        return engine.new_game(list(names), seed, opts.get("scenario"),
                               board=board_option(opts.get("board")),
                               variants=tuple(opts.get("variants") or ()))

    def legal_actions(self, position: Position, seat: int) -> Sequence[Action]:
        return engine.legal_actions(position, seat)

    def apply(self, state: GameState, action: Action) -> GameState:
        return engine.apply(state, action)

    def apply_in_place(self, state: GameState, action: Action) -> None:
        engine.apply_in_place(state, action)

    def clone(self, state: GameState) -> GameState:
        return state.clone()

    def view(self, state: GameState, seat: int | None) -> engine.PlayerView:
        return engine.view(state, seat)

    def resample(self, view: engine.PlayerView, rng: random.Random) -> GameState:
        return engine.resample(view, rng)

    def scores(self, position: Position) -> tuple[int, ...]:
        return tuple(p.score for p in position.players)

    def winners(self, state: GameState) -> tuple[int, ...]:
        return tuple(state.winners)

    def ranks(self, state: GameState) -> tuple[int, ...]:
        keys = [(p.score, engine.covered_places(state, i)) for i, p in enumerate(state.players)]
        return tuple(1 + sum(1 for other in keys if other > k) for k in keys)

    def score_breakdown(self, position: Position) -> tuple[dict[str, int], ...]:
        points = [dict.fromkeys(INFO.score_sources, 0) for _ in position.players]
        for event in position.score_events():
            points[event.player][str(event.reason)] += event.points
        return tuple(points)

    def round(self, position: Position) -> int:
        return position.round

    def setup_label(self, state: GameState) -> str:
        return state.setup.scenario

    def setup_of(self, state: GameState) -> dict[str, Any]:
        return {"setup": asdict(state.setup), "variants": sorted(state.rules.variants)}

    def from_setup(self, setup: Mapping[str, Any]) -> GameState:
        deal = setup_from_json(setup["setup"])
        return engine.new_game(list(deal.names), setup=deal,
                               variants=tuple(setup.get("variants") or ()))

    def decision_key(self, position: Position) -> int:
        turn = position.turn if position.phase is Phase.PLACING else -1
        return position.round * 101 + turn + 1

    def prepare(self) -> None:
        """Build the shipped board's placement tables (a worker process does it once)."""
        from .placement import placement_tables
        placement_tables(load_board()).fiefs  # noqa: B018

    def describe_options(self, options: Mapping[str, Any]) -> str:
        board = board_option(options.get("board")) or load_board()
        return board.name

    def record(self, state: GameState, *, players: Sequence[str] | None = None,
               seed: int | None = None) -> dict[str, Any]:
        from .record import game_record
        return game_record(state, players=players, seed=seed)

    def verify_record(self, data: Any, options: Mapping[str, Any] | None = None) -> GameState:
        from .record import verify_record
        return verify_record(data, board=board_option((options or {}).get("board")))

    def summarize_record(self, data: Any) -> Any:
        from .record import summarize_record
        return summarize_record(data)

    def log(self, position: Position) -> Sequence[LogEntry]:
        return [_log_entry(entry) for entry in position.journal]

    def chance_events(self, position: Position) -> Sequence[Hashable]:
        return ()  # everything chance decides is dealt at setup

    def action_to_json(self, action: Action) -> dict[str, Any]:
        return action_to_json(action)

    def action_from_json(self, data: Any) -> Action:
        return action_from_json(data)

    def describe_action(self, position: Position, action: Action) -> str:
        from .web.wire import describe_action
        return describe_action(position.board, [p.name for p in position.players], action)

    def describe_log(self, position: Position, entry: LogEntry) -> str:
        names = [p.name for p in position.players]
        who = names[entry.seat] if entry.seat is not None else "The table"
        if entry.kind == "turn":
            return f"{who}: {entry.data['action']} ({entry.data['points']} points)"
        if entry.kind == "round":
            return f"Round {entry.data['round']} begins."
        if entry.kind == "reveal":
            order = ", ".join(names[i] for i in entry.data["order"])
            return f"Plans revealed; the turn order is {order}."
        if entry.kind == "end":
            return "The game is over; " + " and ".join(names[i] for i in entry.data["winners"]) \
                + " won."
        return f"{who}: {entry.kind}"


def setup_from_json(data: Mapping[str, Any]) -> Setup:
    """A deal from its JSON form (`dataclasses.asdict`)."""
    return Setup(str(data["scenario"]), tuple(data["names"]), tuple(data["colours"]),
                 tuple(tuple(int(f) for f in deck) for deck in data["decks"]),
                 tuple(int(o) for o in data["objectives"]), int(data.get("oldest", 0)))


def _log_entry(entry: Any) -> LogEntry:
    if isinstance(entry, TurnPlayed):
        return LogEntry("turn", entry.player, {
            "round": entry.round, "action": entry.action.describe(),
            "points": sum(e.points for e in entry.events)})
    if isinstance(entry, RoundStarted):
        return LogEntry("round", None, {"round": entry.round})
    if isinstance(entry, PlansRevealed):
        return LogEntry("reveal", None, {"round": entry.round, "order": list(entry.order)})
    if isinstance(entry, GameEnded):
        return LogEntry("end", None, {"round": entry.round, "winners": list(entry.winners)})
    return LogEntry("last-turn-check", entry.holder, {"round": entry.round,
                                                      "uncovered": entry.uncovered})


GAME = Gonzaga()
