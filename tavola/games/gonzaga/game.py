"""Gonzaga as the platform sees it: `GAME`, a `tavola.game.Game` over the rules engine.

Everything here delegates: the rules are in `engine`, the words in `text`. The platform (match
runner, search, records, the server) holds `GAME` and never imports the rest of the package.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import asdict
from functools import cache
from pathlib import Path
from typing import Any

from tavola import bots as platform_bots
from tavola.bots import Bot
from tavola.game import GameInfo, GameOption, LogEntry
from tavola.kit import MoveWords

from . import engine, text
from .actions import Action, IllegalAction, PlaceFief, Wedding, action_from_json, action_to_json
from .board import Board, load_board
from .boarddata import board_of_data, board_setup, setup_board
from .bots import GAME_BOTS
from .bots.mcts import SEARCH
from .encoding import encoding_for
from .explain import explain_action
from .placement import placement_tables
from .record import game_record, summarize_record, verify_record
from .state import (
    COLOURS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    VARIANTS,
    Entry,
    GameEnded,
    GameState,
    LastTurnChecked,
    Phase,
    PlansRevealed,
    Position,
    Reason,
    RoundStarted,
    ScoreEvent,
    Setup,
    TurnPlayed,
)

INFO = GameInfo(
    name="gonzaga",
    title="Gonzaga",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    default_players=3,
    simultaneous=True,  # every player plans at once, in secret
    hidden_information=True,  # objectives, decks and plans before the reveal
    chance=False,  # the deal is the only chance: nothing random happens after it
    record_format="gonzaga-record",
    score_sources=tuple(str(r) for r in Reason),
    seat_colours=COLOURS,
    options={"scenario": GameOption("the scenario tile (default: drawn at random for the "
                                    "player count)"),
             "variants": GameOption("rule variants, a list of: " + ", ".join(VARIANTS),
                                    "names", tuple(VARIANTS)),
             "board": GameOption("a board file (default: the shipped board); a program may "
                                 "pass the file's data instead", "path", lobby=False)},
)


@cache
def _board_at(path: str) -> Board:
    return load_board(Path(path))


def board_option(value: Any) -> Board | None:
    """The `board` option: a Board, a board file's data (a dict: an edition's, see
    `board_of_data`), a path to a board file (the command line only), or None for the shipped
    board."""
    if value is None or isinstance(value, Board):
        return value
    if isinstance(value, dict):
        return board_of_data(value)
    return _board_at(str(value))


class Gonzaga:
    """The rules engine behind the platform's one interface."""

    info = INFO

    def __init__(self, board: Board | None = None) -> None:
        self.board = board

    @property
    def bots(self) -> Mapping[str, Any]:
        return GAME_BOTS

    @property
    def search(self) -> Any:
        return SEARCH

    def encoding(self, position: Position) -> Any:
        return encoding_for(position.board)

    def new_game(self, names: Sequence[str], seed: int | None = None,
                 options: Mapping[str, Any] | None = None) -> GameState:
        options = dict(options or {})
        unknown = sorted(set(options) - set(INFO.options))
        if unknown:
            raise ValueError(f"unknown options {unknown}; known: {', '.join(INFO.options)}")
        self.info.check_players(len(names))
        scenario = options.get("scenario")
        if scenario is not None and not isinstance(scenario, str):
            raise ValueError(f"the scenario must be a name, not {scenario!r}")
        variants = options.get("variants", ())
        if isinstance(variants, str) or not all(isinstance(v, str) for v in variants):
            raise ValueError(f"variants must be a list of names, not {variants!r}")
        board = board_option(options.get("board")) or self.board
        return engine.new_game(list(names), seed, scenario, board=board,
                               variants=tuple(variants))

    def legal_actions(self, position: Position, seat: int) -> Sequence[Action]:
        return engine.legal_actions(position, seat)

    def apply(self, state: GameState, action: Action) -> GameState:
        try:
            return engine.apply(state, action)
        except IllegalAction as refused:  # the rules give its facts; here it gets its words
            raise text.worded(state.board, refused) from None

    def apply_in_place(self, state: GameState, action: Action) -> None:
        try:
            engine.apply_in_place(state, action)
        except IllegalAction as refused:
            raise text.worded(state.board, refused) from None

    def clone(self, state: GameState) -> GameState:
        return state.clone()

    def view(self, state: GameState, seat: int | None) -> engine.PlayerView:
        return engine.view(state, seat)

    def resample(self, view: engine.PlayerView, rng: random.Random) -> GameState:
        return engine.resample(view, rng)

    def scores(self, position: Position) -> tuple[int, ...]:
        return tuple(p.score for p in position.players)

    def winners(self, state: GameState) -> tuple[int, ...]:
        if not state.is_over:
            raise ValueError("the game is not over")
        return state.winners

    def ranks(self, state: GameState) -> tuple[int, ...]:
        """Most points; tie: most cities and harbors covered (the rules' tie-break)."""
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

    def describe_options(self, options: Mapping[str, Any]) -> str:
        board = board_option(options.get("board")) or self.board or load_board()
        return board.name

    def setup_of(self, state: GameState) -> dict[str, Any]:
        """The deal and variants, and the board's data when it is not the shipped board (an
        edition's): whoever rebuilds the game (a bot worker, a restart) needs nothing else."""
        return {"setup": asdict(state.setup), "variants": sorted(state.rules.variants),
                **board_setup(state.board)}

    def renamed(self, setup: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
        return {**setup, "setup": {**setup["setup"], "names": list(names)}}

    def from_setup(self, setup: Mapping[str, Any]) -> GameState:
        deal = setup_from_json(setup["setup"])
        board = setup_board(setup) or self.board
        return engine.new_game(list(deal.names), setup=deal, board=board,
                               variants=tuple(setup.get("variants") or ()))

    def decision_key(self, position: Position) -> int:
        turn = position.turn if position.phase is Phase.PLACING else -1
        return position.round * 101 + turn + 1

    def prepare(self) -> None:
        """Build the shipped board's placement tables (a worker process does it once)."""
        placement_tables(self.board or load_board()).fiefs  # noqa: B018

    def record(self, state: GameState, *, players: Sequence[str] | None = None,
               seed: int | None = None, hints: Mapping[int, int] | None = None
               ) -> dict[str, Any]:
        return game_record(state, players=players, seed=seed, hints=hints)

    def verify_record(self, data: Any, options: Mapping[str, Any] | None = None) -> GameState:
        board = board_option((options or {}).get("board")) or self.board
        return verify_record(data, board=board)

    def summarize_record(self, data: Any) -> Any:
        return summarize_record(data)

    def log(self, position: Position) -> Sequence[LogEntry]:
        return [log_entry(position, i, e) for i, e in enumerate(position.journal)]

    def chance_events(self, position: Position) -> Sequence[Hashable]:
        return ()  # no chance after the deal

    def action_to_json(self, action: Action) -> dict[str, Any]:
        return action_to_json(action)

    def action_from_json(self, data: Any) -> Action:
        return action_from_json(data)

    def describe_action(self, position: Position, action: Action) -> str:
        return text.describe_action(position.board, position.names, action)

    def source_name(self, source: str) -> str:
        """A source of points (`info.score_sources`) as the end screen names it."""
        return text.reason_name(source)

    def describe_move(self, position: Position, actions: Sequence[Action],
                      exact: bool = False) -> str:
        """A move named with where it goes on the map, for hints and reviews (a Gonzaga move
        is one action); `exact`: with every hex it covers."""
        action = actions[0]
        hexes = engine.covered_hexes(position, action) \
            if isinstance(action, PlaceFief | Wedding) else ()
        return text.describe_move(position.board, position.names, action, hexes, exact)

    def explain_action(self, position: engine.PlayerView, action: Action) -> str:
        """Why a move is worth playing now, for hints (`explain.explain_action`)."""
        return explain_action(position, action)

    def describe_log(self, position: Position, entry: LogEntry) -> str:
        index = entry.data.get("index")
        journal = position.journal
        if not isinstance(index, int) or not 0 <= index < len(journal) \
                or log_entry(position, index, journal[index]) != entry:
            raise ValueError(f"not an entry of this game's log: {entry!r}")
        return text.journal_line(position, journal[index])


def setup_from_json(data: Mapping[str, Any]) -> Setup:
    """A deal from its JSON form (`dataclasses.asdict`)."""
    return Setup(str(data["scenario"]), tuple(data["names"]), tuple(data["colours"]),
                 tuple(tuple(int(f) for f in deck) for deck in data["decks"]),
                 tuple(int(o) for o in data["objectives"]), int(data.get("oldest", 0)))


def _events(events: Sequence[ScoreEvent]) -> list[dict[str, Any]]:
    return [{"player": e.player, "points": e.points, "reason": str(e.reason),
             "detail": e.detail} for e in events]


def log_entry(position: Position, index: int, entry: Entry) -> LogEntry:
    """A journal entry as platform data (`index`: its place in the journal)."""
    coords = position.board.coords
    base: dict[str, Any] = {"index": index, "round": entry.round}
    if isinstance(entry, RoundStarted):
        return LogEntry("round", None, {**base, "fiefs": list(entry.fiefs)})
    if isinstance(entry, PlansRevealed):
        return LogEntry("reveal", None, {**base, "order": list(entry.order),
                                         "plans": [action_to_json(p) for p in entry.plans]})
    if isinstance(entry, TurnPlayed):
        return LogEntry("turn", entry.player, {
            **base, "action": action_to_json(entry.action),
            "hexes": [list(coords[h]) for h in entry.hexes], "events": _events(entry.events)})
    if isinstance(entry, LastTurnChecked):
        return LogEntry("last-turn", entry.holder, {
            **base, "uncovered": entry.uncovered, "last_round_next": entry.last_round_next})
    if isinstance(entry, GameEnded):
        return LogEntry("end", None, {**base, "winners": list(entry.winners),
                                      "events": _events(entry.events)})
    raise TypeError(f"not a journal entry: {entry!r}")


GAME = Gonzaga()


def make_bot(spec: str, seed: int | None = None) -> Bot:
    """A Gonzaga bot from a spec such as `greedy`, `mcts:hard` or `mcts:iterations=2000`.

    An unknown name or a bad option raises ValueError naming it.
    """
    return platform_bots.make_bot(GAME, spec, seed)


#: How hints and reviews speak of its moves (`tavola.kit.GameKit.moves`).
MOVES = MoveWords(describe_move=GAME.describe_move, explain_action=GAME.explain_action,
                  source_name=GAME.source_name)
