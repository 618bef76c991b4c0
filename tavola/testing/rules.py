"""The rules interface of every game: random games end, `apply` is pure, `clone` is
independent, actions and records round-trip through JSON and replay."""

from __future__ import annotations

import copy
import json
import pickle
from typing import Any

from .. import records, registry
from ..kit import GameKit
from ..records import RecordError
from .compare import difference
from .play import fail, finished, game_of, names, player_counts, sampled, steps


def check_random_games_end(kit: GameKit, seed: int = 0, games: int = 20) -> None:
    """For each player count `games` games of random legal actions end, with scores that add
    up, winners ranked first with the best score, and a sentence for every log entry."""
    for number in range(games):
        _check_a_random_game(kit, seed + number)


def _check_a_random_game(kit: GameKit, seed: int) -> None:
    game = game_of(kit)
    for players in player_counts(game):
        state = finished(kit, players, seed)
        where = f"a finished {players}-player game"
        if not state.is_over or tuple(state.to_move()):
            raise fail(kit, f"{where} says it is not over or has seats to move")
        scores = tuple(game.scores(state))
        sums = tuple(sum(b.values()) for b in game.score_breakdown(state))
        if sums != scores:
            raise fail(kit, f"{where}: the score breakdown sums to {sums}, the scores are {scores}")
        sources = set().union(*game.score_breakdown(state)) - set(game.info.score_sources)
        if sources:
            raise fail(kit, f"{where}: points from undeclared sources {sorted(sources)}")
        _check_winners(kit, where, scores, tuple(game.winners(state)), tuple(game.ranks(state)))
        if len(game.info.seat_colours) < players:
            raise fail(kit, f"{len(game.info.seat_colours)} seat colours for {players} seats")
        for entry in game.log(state):
            said = game.describe_log(state, entry)
            if not isinstance(said, str) or not said.strip():
                raise fail(kit, f"{where}: the log entry {entry.kind} has no sentence")


def _check_winners(kit: GameKit, where: str, scores: tuple[int, ...],
                   winners: tuple[int, ...], ranks: tuple[int, ...]) -> None:
    if not winners or len(ranks) != len(scores):
        raise fail(kit, f"{where}: winners {winners}, ranks {ranks} for {len(scores)} seats")
    first = {seat for seat, rank in enumerate(ranks) if rank == 1}
    if not set(winners) <= first or any(scores[w] != max(scores) for w in winners):
        raise fail(kit, f"{where}: winners {winners} with scores {scores} and ranks {ranks}")


def check_apply_is_pure(kit: GameKit, seed: int = 0, samples: int = 6) -> None:
    """`apply` leaves its argument as it was and gives what `apply_in_place` makes of a clone."""
    game = game_of(kit)
    for players in player_counts(game):
        for step in sampled(kit, players, seed, samples):
            before = copy.deepcopy(step.state)
            after = game.apply(step.state, step.action)
            changed = difference(step.state, before, "state")
            if changed:
                raise fail(kit, f"apply changed its argument {step.where(players)}: {changed}")
            in_place = game.clone(step.state)
            game.apply_in_place(in_place, step.action)
            other = difference(after, in_place, "state")
            if other:
                raise fail(kit, f"apply and apply_in_place disagree {step.where(players)}: "
                                f"{other}")


def check_clone_is_independent(kit: GameKit, seed: int = 0, samples: int = 6) -> None:
    """A clone is equal to its original, and changing either leaves the other as it was."""
    game = game_of(kit)
    for players in player_counts(game):
        kept: list[tuple[Any, Any, str]] = []  # clones, as they were, where they were made
        for step in sampled(kit, players, seed, samples):
            _check_kept(kit, kept)
            twin = game.clone(step.state)
            unlike = difference(twin, step.state, "state")
            if unlike:
                raise fail(kit, f"a clone differs from its original {step.where(players)}: "
                                f"{unlike}")
            before = copy.deepcopy(step.state)
            game.apply_in_place(game.clone(step.state), step.action)
            changed = difference(step.state, before, "state")
            if changed:
                raise fail(kit, f"playing on a clone changed its original "
                                f"{step.where(players)}: {changed}")
            kept.append((twin, copy.deepcopy(twin), step.where(players)))
        _check_kept(kit, kept)


def _check_kept(kit: GameKit, kept: list[tuple[Any, Any, str]]) -> None:
    """The clones made earlier are unchanged by the original's later moves."""
    for twin, snapshot, where in kept:
        changed = difference(twin, snapshot, "clone")
        if changed:
            raise fail(kit, f"playing on the original changed its clone made {where}: "
                            f"{changed}")


def check_actions_round_trip(kit: GameKit, seed: int = 0) -> None:
    """Every legal action comes back equal from its JSON text, and malformed JSON is refused
    with ValueError."""
    game = game_of(kit)
    for players in player_counts(game):
        for step in steps(kit, players, seed):
            for action in step.legal:
                text = json.dumps(game.action_to_json(action))
                back = game.action_from_json(json.loads(text))
                if back != action or hash(back) != hash(action):
                    raise fail(kit, f"{action!r} comes back from {text} as {back!r} "
                                    f"{step.where(players)}")
    _check_nonsense_refused(kit)


def check_pickling_round_trip(kit: GameKit, seed: int = 0, samples: int = 4) -> None:
    """Actions come back equal from `pickle`, and a state comes back a state that plays on
    alike (the same seats to move, legal actions and scores): the server's bot workers are
    other processes, sent a game's actions and sending one back (a compiled frozen class
    must say how it is rebuilt)."""
    game = game_of(kit)
    for players in player_counts(game):
        for step in sampled(kit, players, seed, samples):
            for action in step.legal[:50]:
                back = pickle.loads(pickle.dumps(action))
                if back != action or hash(back) != hash(action):
                    raise fail(kit, f"{action!r} comes back from pickle as {back!r} "
                                    f"{step.where(players)}")
            state = pickle.loads(pickle.dumps(step.state))
            if (tuple(state.to_move()) != tuple(step.state.to_move())
                    or list(game.legal_actions(state, step.seat)) != step.legal
                    or tuple(game.scores(state)) != tuple(game.scores(step.state))):
                raise fail(kit, f"a state comes back from pickle playing otherwise "
                                f"{step.where(players)}")


#: JSON no game takes for an action.
NONSENSE: tuple[Any, ...] = (None, 3, "move", [], {}, {"type": "no such action"})


def _check_nonsense_refused(kit: GameKit) -> None:
    game = game_of(kit)
    for nonsense in NONSENSE:
        try:
            game.action_from_json(nonsense)
        except ValueError:
            continue
        except Exception as exc:  # the check names what else was raised
            raise fail(kit, f"action_from_json({nonsense!r}) raised {type(exc).__name__}, "
                            "not ValueError") from exc
        raise fail(kit, f"action_from_json({nonsense!r}) accepted it")


def check_records_replay(kit: GameKit, seed: int = 0) -> None:
    """A finished game's record goes through JSON, names its format and replays to the same
    scores and log; its setup and actions rebuild the same game."""
    game = game_of(kit)
    for players in player_counts(game):
        state = finished(kit, players, seed)
        data = json.loads(json.dumps(game.record(state, players=["random"] * players,
                                                 seed=seed)))
        if not str(data.get("format", "")).startswith(game.info.record_format + "/"):
            raise fail(kit, f"a record's format is {data.get('format')!r}, not "
                            f"{game.info.record_format}/VERSION")
        if kit.name in registry.available() and records.game_of(data) is not game:
            raise fail(kit, f"a record of format {data['format']} is taken for another game's")
        try:
            replayed = game.verify_record(data)
        except RecordError as exc:
            raise fail(kit, f"a {players}-player record does not verify: {exc}") from exc
        _same_game(kit, state, replayed, f"a replayed {players}-player record")
        rebuilt = game.from_setup(json.loads(json.dumps(game.setup_of(
            game.new_game(names(players), seed)))))
        for action in state.history:
            game.apply_in_place(rebuilt, game.action_from_json(game.action_to_json(action)))
        _same_game(kit, state, rebuilt, f"a {players}-player game rebuilt from its setup")


def _same_game(kit: GameKit, state: Any, again: Any, what: str) -> None:
    game = game_of(kit)
    if tuple(game.scores(again)) != tuple(game.scores(state)):
        raise fail(kit, f"{what} scores {game.scores(again)}, not {game.scores(state)}")
    unlike = difference([(e.kind, e.seat, dict(e.data)) for e in game.log(again)],
                        [(e.kind, e.seat, dict(e.data)) for e in game.log(state)], "log")
    if unlike:
        raise fail(kit, f"{what} has another log: {unlike}")
    unlike = difference(game.view(again, None), game.view(state, None), "view")
    if unlike:
        raise fail(kit, f"{what} shows spectators another position: {unlike}")
