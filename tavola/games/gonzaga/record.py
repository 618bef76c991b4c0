"""Game records: a versioned JSON account of one game that the engine can re-play and check.

A record holds the deal (`Setup`) and every public event of the journal, so anyone can read a
game round by round, and `verify_record` can prove that the rules engine still produces exactly
the recorded turn orders, covered hexes, points, Last Turn checks and winners. The schema is
described in docs/records.md.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    ValidationError,
)

from tavola.editions import content_hash
from tavola.records import RecordError, dumps_record, read_json, version_of_package

from . import text
from .actions import (
    Action,
    Donate,
    IllegalAction,
    PlaceFief,
    Plan,
    Wedding,
    action_from_json,
    action_to_json,
)
from .board import Board, BoardError, load_board
from .boarddata import board_of_data, board_setup
from .engine import apply_in_place, new_game
from .state import (
    COLOURS,
    GameEnded,
    GameState,
    LastTurnChecked,
    Phase,
    PlansRevealed,
    Reason,
    RoundStarted,
    ScoreEvent,
    Setup,
    TurnPlayed,
)

FORMAT_NAME = "gonzaga-record"
VERSION = 1
FORMAT = f"{FORMAT_NAME}/{VERSION}"
SUPPORTED_VERSIONS = (VERSION,)




# ---------------------------------------------------------------------------------------------
# Writing


def game_record(state: GameState, *, players: Sequence[str] | None = None,
                seed: int | None = None, hints: Mapping[int, int] | None = None
                ) -> dict[str, Any]:
    """The record of a game so far, built from its journal and deal.

    `players` gives each seat's spec (`"greedy"`, `"human"`, ...) and `seed` the seed of the
    deal; both are informational (the deal itself is stored in full). `hints` counts the
    hints each seat asked for; a record without it says nothing of hints.
    """
    setup = state.setup
    n = len(setup.names)
    if players is not None and len(players) != n:
        raise ValueError(f"{len(players)} seat specs for a {n}-player game")
    coords = state.board.coords
    rounds: list[dict[str, Any]] = []
    final: list[dict[str, Any]] | None = None
    for entry in state.journal:
        if isinstance(entry, RoundStarted):
            rounds.append({"round": entry.round, "fiefs": list(entry.fiefs), "plans": None,
                           "order": None, "turns": [], "last_turn_check": None})
        elif isinstance(entry, PlansRevealed):
            rounds[-1]["plans"] = [action_to_json(p) for p in entry.plans]
            rounds[-1]["order"] = list(entry.order)
        elif isinstance(entry, TurnPlayed):
            rounds[-1]["turns"].append({
                "action": action_to_json(entry.action),
                "hexes": [list(coords[h]) for h in entry.hexes],
                "events": [_event_json(e) for e in entry.events],
            })
        elif isinstance(entry, LastTurnChecked):
            rounds[-1]["last_turn_check"] = {"holder": entry.holder,
                                             "uncovered": entry.uncovered,
                                             "last_round_next": entry.last_round_next}
        elif isinstance(entry, GameEnded):
            final = [_event_json(e) for e in entry.events]
    seats = []
    for i in range(n):
        spec = players[i] if players is not None else None
        seats.append({
            "name": setup.names[i],
            "colour": setup.colours[i],
            "kind": None if spec is None else ("human" if spec.lower() == "human" else "bot"),
            "spec": spec,
            "objective": setup.objectives[i],
            "deck": list(setup.decks[i]),
            **({"hints": hints.get(i, 0)} if hints is not None else {}),
        })
    return {
        "format": FORMAT,
        "board": {"name": state.board.name, "content_hash": state.board.content_hash,
                  **({"data": state.board.raw} if board_setup(state.board) else {})},
        "seed": seed,
        "scenario": setup.scenario,
        "variants": sorted(state.rules.variants),
        "last_turn_holder": setup.oldest,
        "players": seats,
        "rounds": rounds,
        "finished": state.phase is Phase.OVER,
        "final_scoring": final,
        "scores": [p.score for p in state.players],
        "winners": list(state.winners),
        "meta": {"written_by": f"tavola {version_of_package()}"},
    }


def write_record(state: GameState, path: str | Path, *, players: Sequence[str] | None = None,
                 seed: int | None = None, hints: Mapping[int, int] | None = None) -> None:
    """Write `game_record(state)` as JSON that stays readable: short lists on one line."""
    data = game_record(state, players=players, seed=seed, hints=hints)
    Path(path).write_text(dumps_record(data) + "\n", encoding="utf-8")


def _event_json(e: ScoreEvent) -> dict[str, Any]:
    return {"player": e.player, "points": e.points, "reason": str(e.reason), "detail": e.detail}


# ---------------------------------------------------------------------------------------------
# Schema (pydantic v2): structure and types only; the rules are checked by `verify_record`


def _plan_action(value: Any) -> Action:
    action = action_from_json(value)
    if not isinstance(action, Plan):
        raise ValueError(f"a plan must have type 'plan', found {value.get('type')!r}")
    return action


def _turn_action(value: Any) -> Action:
    action = action_from_json(value)
    if isinstance(action, Plan):
        raise ValueError("a turn must be a fief, wedding or donate action, not a plan")
    return action


Seat = Annotated[StrictInt, Field(ge=0, le=3)]
HexPair = Annotated[list[StrictInt], Field(min_length=2, max_length=2)]
PlanAction = Annotated[Any, AfterValidator(_plan_action)]
TurnAction = Annotated[Any, AfterValidator(_turn_action)]
ReasonName = Literal["city", "harbor", "sea-league", "donation", "gonzaga-tile", "objective"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class BoardRef(_Model):
    name: StrictStr
    content_hash: Annotated[StrictStr, Field(pattern=r"^[0-9a-f]{64}$")]
    #: the board file's data, when the game was not played on the shipped board
    data: dict[str, Any] | None = None


class PlayerRecord(_Model):
    name: StrictStr
    colour: Literal["red", "yellow", "green", "blue"]
    kind: Literal["bot", "human"] | None = None
    spec: StrictStr | None = None
    objective: StrictInt
    deck: list[StrictInt]
    hints: Annotated[StrictInt, Field(ge=0)] | None = None  # hints asked for, when counted


class EventRecord(_Model):
    player: Seat
    points: StrictInt
    reason: ReasonName
    detail: StrictStr


class TurnRecord(_Model):
    action: TurnAction
    hexes: list[HexPair]
    events: list[EventRecord]


class LastTurnRecord(_Model):
    holder: Seat
    uncovered: Annotated[StrictInt, Field(ge=0)]
    last_round_next: StrictBool


class RoundRecord(_Model):
    round: Annotated[StrictInt, Field(ge=1)]
    fiefs: list[StrictInt]
    plans: list[PlanAction] | None
    order: list[Seat] | None
    turns: list[TurnRecord]
    last_turn_check: LastTurnRecord | None = None


class GameRecord(_Model):
    format: Literal["gonzaga-record/1"]
    board: BoardRef
    seed: StrictInt | None = None
    scenario: StrictStr
    variants: list[StrictStr] = []
    last_turn_holder: Seat
    players: Annotated[list[PlayerRecord], Field(min_length=2, max_length=4)]
    rounds: list[RoundRecord]
    finished: StrictBool
    final_scoring: list[EventRecord] | None
    scores: list[StrictInt]
    winners: list[Seat]
    meta: dict[str, Any] = {}


def _path(loc: Sequence[int | str]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


def _describe_error(err: Any) -> str:
    loc = tuple(err["loc"])
    kind = err["type"]
    if kind == "missing":
        where = _path(loc[:-1])
        return f"missing key {loc[-1]!r} at {where}" if loc[:-1] else f"missing key {loc[-1]!r}"
    if kind == "extra_forbidden":
        return f"unknown key {loc[-1]!r} at {_path(loc[:-1])}" if loc[:-1] else \
            f"unknown key {loc[-1]!r}"
    msg = str(err["msg"]).removeprefix("Value error, ")
    found = json.dumps(err.get("input"), ensure_ascii=False, default=str)
    if len(found) > 60:
        found = found[:57] + "..."
    return f"{_path(loc)}: {msg} (found {found})"


def _check_format(data: Any) -> None:
    if not isinstance(data, dict):
        raise RecordError(f"a game record must be a JSON object, found {_json_type(data)}")
    fmt = data.get("format")
    if fmt is None:
        raise RecordError(f"missing key 'format' (expected {FORMAT!r}): not a game record?")
    if not isinstance(fmt, str) or "/" not in fmt:
        raise RecordError(f"format: expected {FORMAT!r}, found {fmt!r}")
    name, _, version = fmt.partition("/")
    if name != FORMAT_NAME:
        raise RecordError(f"format: {fmt!r} is not a Gonzaga game record (expected {FORMAT!r})")
    if not version.isdigit() or int(version) not in SUPPORTED_VERSIONS:
        raise RecordError(f"format: record version {version!r} is not supported; this "
                          f"version of Gonzaga reads {FORMAT!r}")


def _json_type(value: Any) -> str:
    names = {dict: "an object", list: "an array", str: "a string", bool: "true/false",
             int: "a number", float: "a number", type(None): "null"}
    return names.get(type(value), type(value).__name__)


def parse_record(data: Any) -> GameRecord:
    """Validate the structure of a record (types, keys, seat numbers, round numbering)."""
    _check_format(data)
    try:
        rec = GameRecord.model_validate(data)
    except ValidationError as exc:
        errors = exc.errors()
        more = f" (and {len(errors) - 1} more problem(s))" if len(errors) > 1 else ""
        raise RecordError(_describe_error(errors[0]) + more) from None
    _check_structure(rec)
    return rec


def _check_structure(rec: GameRecord) -> None:
    """Cross-field consistency that a schema cannot say: counts, seat ranges, round numbering."""
    n = len(rec.players)
    seats = set(range(n))

    def fail(path: str, message: str) -> None:
        raise RecordError(f"{path}: {message}")

    if rec.last_turn_holder not in seats:
        fail("last_turn_holder", f"seat {rec.last_turn_holder} is not one of the {n} players")
    colours = [p.colour for p in rec.players]
    if len(set(colours)) != n:
        fail("players", f"two players share a colour ({', '.join(colours)})")
    if len(rec.scores) != n:
        fail("scores", f"expected {n} values (one per player), found {len(rec.scores)}")
    for i, w in enumerate(rec.winners):
        if w not in seats:
            fail(f"winners[{i}]", f"seat {w} is not one of the {n} players")
    last = len(rec.rounds) - 1
    for r, rnd in enumerate(rec.rounds):
        at = f"rounds[{r}]"
        if rnd.round != r + 1:
            fail(f"{at}.round", f"expected round {r + 1}, found {rnd.round}")
        if len(rnd.fiefs) != n:
            fail(f"{at}.fiefs", f"expected {n} fiefs (one per player), found {len(rnd.fiefs)}")
        if (rnd.plans is None) != (rnd.order is None):
            fail(at, "'plans' and 'order' must both be given, or both null before the reveal")
        if rnd.plans is None:
            if rnd.turns:
                fail(f"{at}.turns", "turns recorded before the plans were revealed")
        else:
            assert rnd.order is not None
            if len(rnd.plans) != n:
                fail(f"{at}.plans", f"expected {n} plans (one per player, in seat order), "
                                    f"found {len(rnd.plans)}")
            for i, plan in enumerate(rnd.plans):
                if plan.player != i:
                    fail(f"{at}.plans[{i}].player", f"plans are listed in seat order: expected "
                                                    f"seat {i}, found {plan.player}")
            if sorted(rnd.order) != list(range(n)):
                fail(f"{at}.order", f"must list each of the {n} seats once, found {rnd.order}")
            if len(rnd.turns) > n:
                fail(f"{at}.turns", f"at most {n} turns in a round, found {len(rnd.turns)}")
        for t, turn in enumerate(rnd.turns):
            if turn.action.player not in seats:
                fail(f"{at}.turns[{t}].action.player",
                     f"seat {turn.action.player} is not one of the {n} players")
            for e, event in enumerate(turn.events):
                if event.player not in seats:
                    fail(f"{at}.turns[{t}].events[{e}].player",
                         f"seat {event.player} is not one of the {n} players")
        complete = rnd.plans is not None and len(rnd.turns) == n
        if r < last and not complete:
            fail(at, f"round {rnd.round} is incomplete but later rounds follow")
    if rec.finished:
        if rec.final_scoring is None:
            fail("final_scoring", "a finished game needs its final scoring events")
        if not rec.winners:
            fail("winners", "a finished game has at least one winner")
        if rec.rounds and not (rec.rounds[-1].plans is not None and
                               len(rec.rounds[-1].turns) == n):
            fail(f"rounds[{last}]", "the game is marked finished but its last round is "
                                    "incomplete")
    elif rec.final_scoring is not None or rec.winners:
        fail("finished", "an unfinished game has no final scoring and no winners")
    for i, event in enumerate(rec.final_scoring or ()):
        if event.player not in seats:
            fail(f"final_scoring[{i}].player",
                 f"seat {event.player} is not one of the {n} players")


def _events_of(rnd: RoundRecord) -> list[EventRecord]:
    return [e for t in rnd.turns for e in t.events]


# ---------------------------------------------------------------------------------------------
# Reading


def load_record(path: str | Path) -> dict[str, Any]:
    """Read a record file and check its structure; every problem is a `RecordError`."""
    data: dict[str, Any] = read_json(path)
    parse_record(data)
    return data


# ---------------------------------------------------------------------------------------------
# Verifying


def verify_record(data: Any, *, board: Board | None = None) -> GameState:
    """Re-play a record through the engine, checking every recorded fact on the way.

    `board` defaults to the shipped board; it must be the board the game was played on. Returns
    the replayed state; raises `RecordError` naming the first disagreement.
    """
    rec = parse_record(data)
    board = _resolve_board(rec, board)
    setup = Setup(rec.scenario, tuple(p.name for p in rec.players),
                  tuple(p.colour for p in rec.players), tuple(tuple(p.deck) for p in rec.players),
                  tuple(p.objective for p in rec.players), rec.last_turn_holder)
    try:
        state = new_game(list(setup.names), board=board, variants=rec.variants, setup=setup)
    except ValueError as exc:
        raise RecordError(f"cannot set the game up: {exc}") from None
    return _Replay(rec, state).run()


def _resolve_board(rec: GameRecord, board: Board | None) -> Board:
    if board is None and rec.board.data is not None:
        return _embedded_board(rec.board)
    if board is None:
        try:
            board = load_board()
        except BoardError as exc:
            raise RecordError(f"cannot load the shipped board to verify against: {exc}") from None
    want = rec.board
    if want.content_hash != board.content_hash:
        if want.name == board.name:
            raise RecordError(
                f"board mismatch: the record was played on {want.name!r} with content hash "
                f"{want.content_hash[:12]}…, but this copy of the board has hash "
                f"{board.content_hash[:12]}… (the board file has changed since)")
        raise RecordError(
            f"board mismatch: the record was played on {want.name!r} (hash "
            f"{want.content_hash[:12]}…), not on {board.name!r} (hash {board.content_hash[:12]}…)")
    if want.name != board.name:
        raise RecordError(f"board mismatch: the record names the board {want.name!r}, but the "
                          f"board with its content hash is called {board.name!r}")
    return board


def _embedded_board(ref: BoardRef) -> Board:
    """The board a record carries, once its data is shown to be the board the record names."""
    data = ref.data
    try:
        digest = content_hash(data)
    except ValueError:
        digest = ""
    if digest != ref.content_hash:
        raise RecordError(f"the board data in the record is not the board it was played on: "
                          f"the record names content hash {ref.content_hash[:12]}…, its board "
                          f"data has {digest[:12] or 'none'}… (the record was changed)")
    try:
        board = board_of_data(data)
    except BoardError as exc:
        raise RecordError(f"the board in the record cannot be played on: {exc}") from None
    if board.name != ref.name:
        raise RecordError(f"board mismatch: the record names the board {ref.name!r}, but the "
                          f"board data it holds is called {board.name!r}")
    return board


@dataclass
class _Replay:
    rec: GameRecord
    state: GameState

    def who(self, seat: int) -> str:
        return self.state.players[seat].colour

    def apply(self, where: str, action: Action) -> list[object]:
        """Apply an action and return the journal entries it produced."""
        before = len(self.state.journal)
        try:
            apply_in_place(self.state, action)
        except IllegalAction as exc:
            raise RecordError(f"{where}: illegal action: {text.refusal(self.state.board, exc)} "
                              f"[{exc.rule}]") from None
        return list(self.state.journal[before:])

    def run(self) -> GameState:
        state = self.state
        n = state.num_players
        for rnd in self.rec.rounds:
            r = rnd.round
            if state.is_over:
                raise RecordError(f"round {r}: the game already ended after round "
                                  f"{state.round}")
            started = state.journal[-1]
            assert isinstance(started, RoundStarted) and started.round == r
            if list(started.fiefs) != rnd.fiefs:
                raise RecordError(f"round {r}: recorded fiefs drawn {_ints(rnd.fiefs)}, but the "
                                  f"decks deal {_ints(started.fiefs)}")
            if rnd.plans is None:
                break  # the record ends during planning
            new: list[object] = []
            for plan in rnd.plans:
                new = self.apply(f"round {r}, plan ({self.who(plan.player)})", plan)
            revealed = next(e for e in new if isinstance(e, PlansRevealed))
            if list(revealed.order) != rnd.order:
                raise RecordError(
                    f"round {r}: recorded turn order {self.colours(rnd.order or [])}, the "
                    f"engine's is {self.colours(revealed.order)}")
            for t, turn in enumerate(rnd.turns):
                new = self.turn(r, t, turn)
            if len(rnd.turns) == n:
                self.round_end(r, rnd, new)
        self.finish()
        return state

    def colours(self, seats: Sequence[int]) -> str:
        return ", ".join(self.who(s) for s in seats)

    def turn(self, r: int, t: int, turn: TurnRecord) -> list[object]:
        state = self.state
        expected = state.order[state.turn]
        actor = turn.action.player
        where = f"round {r}, turn {t + 1} ({self.who(actor)})"
        if actor != expected:
            raise RecordError(f"{where}: recorded a turn by {self.who(actor)}, but the turn "
                              f"order ({self.colours(state.order)}) gives this turn to "
                              f"{self.who(expected)}")
        new = self.apply(where, turn.action)
        played = next(e for e in new if isinstance(e, TurnPlayed))
        coords = state.board.coords
        engine_hexes = sorted(coords[h] for h in played.hexes)
        recorded = sorted((c, row) for c, row in turn.hexes)
        if recorded != engine_hexes:
            raise RecordError(f"{where}: recorded covered hexes {_hexes(recorded)}, the engine "
                              f"covers {_hexes(engine_hexes)}")
        self.events(where, turn.events, played.events)
        return new

    def round_end(self, r: int, rnd: RoundRecord, new: list[object]) -> None:
        check = next((e for e in new if isinstance(e, LastTurnChecked)), None)
        rec = rnd.last_turn_check
        where = f"round {r}, Last Turn check"
        if check is None and rec is not None:
            raise RecordError(f"{where}: recorded a check, but the engine makes none after "
                              f"round {r}")
        if check is not None and rec is None:
            raise RecordError(f"{where}: the record has none, but the engine's holder "
                              f"({self.who(check.holder)}) counts {check.uncovered} uncovered "
                              "cities and harbors")
        if check is not None and rec is not None:
            mine = (check.holder, check.uncovered, check.last_round_next)
            theirs = (rec.holder, rec.uncovered, rec.last_round_next)
            if mine != theirs:
                raise RecordError(
                    f"{where}: recorded {self.who(rec.holder)} counting {rec.uncovered} "
                    f"uncovered (last round next: {rec.last_round_next}), the engine has "
                    f"{self.who(check.holder)} counting {check.uncovered} (last round next: "
                    f"{check.last_round_next})")

    def events(self, where: str, recorded: Sequence[EventRecord],
               engine: Sequence[ScoreEvent]) -> None:
        for rec, ev in zip(recorded, engine, strict=False):
            if rec.player != ev.player or rec.reason != str(ev.reason):
                raise RecordError(
                    f"{where}: recorded {rec.points} points to {self.who(rec.player)} for "
                    f"{_reason(rec.reason)} {rec.detail}, the engine scores {ev.points} to "
                    f"{self.who(ev.player)} for {_reason(ev.reason)} {ev.detail}")
            if rec.points != ev.points:
                raise RecordError(f"{where}: recorded {rec.points} points for "
                                  f"{_reason(rec.reason)} {rec.detail}, engine scores "
                                  f"{ev.points}")
        if len(recorded) < len(engine):
            ev = engine[len(recorded)]
            raise RecordError(f"{where}: the record misses a scoring event: the engine scores "
                              f"{ev.points} to {self.who(ev.player)} for {_reason(ev.reason)} "
                              f"{ev.detail}")
        if len(recorded) > len(engine):
            rec = recorded[len(engine)]
            raise RecordError(f"{where}: recorded {rec.points} points to {self.who(rec.player)} "
                              f"for {_reason(rec.reason)} {rec.detail}, the engine scores "
                              "nothing for it")

    def finish(self) -> None:
        state, rec = self.state, self.rec
        if rec.finished and not state.is_over:
            raise RecordError(f"the record is marked finished after round {state.round}, but "
                              "the game goes on")
        if not rec.finished and state.is_over:
            raise RecordError(f"the record is marked unfinished, but the game ended after "
                              f"round {state.round}")
        if state.is_over:
            ended = state.journal[-1]
            assert isinstance(ended, GameEnded)
            self.events("final scoring", rec.final_scoring or [], ended.events)
        scores = [p.score for p in state.players]
        if scores != rec.scores:
            raise RecordError(f"scores: recorded {_ints(rec.scores)}, the replay gives "
                              f"{_ints(scores)}")
        if list(state.winners) != rec.winners:
            raise RecordError(f"winners: recorded {self.colours(rec.winners) or 'none'}, the "
                              f"replay gives {self.colours(state.winners) or 'none'}")


def _ints(values: Sequence[int]) -> str:
    return ", ".join(str(v) for v in values)


def _hexes(values: Sequence[tuple[int, int]]) -> str:
    return " ".join(f"[{c},{r}]" for c, r in values) or "none"


def _reason(reason: str) -> str:
    return text.reason_words(reason)


# ---------------------------------------------------------------------------------------------
# Summary for `tavola replay FILE`


def summarize_record(data: Any) -> Any:
    """A rich renderable: the deal, a round-by-round table of turns and the final result."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    rec = parse_record(data)
    players = rec.players

    def who(seat: int) -> Text:
        return Text(players[seat].colour, style=_STYLE.get(players[seat].colour, ""))

    head = Table.grid(padding=(0, 2))
    head.add_column(style="bold")
    head.add_column()
    head.add_row("board", f"{rec.board.name} ({rec.board.content_hash[:12]})")
    head.add_row("scenario", rec.scenario + (f"  variants: {', '.join(rec.variants)}"
                                             if rec.variants else ""))
    head.add_row("seed", "unknown" if rec.seed is None else str(rec.seed))
    for i, p in enumerate(players):
        spec = f" [{p.spec}]" if p.spec else ""
        holder = "  (Last Turn card)" if i == rec.last_turn_holder else ""
        head.add_row(f"seat {i + 1}", Text.assemble(who(i), f"  {p.name}{spec}, objective "
                                                            f"{p.objective}{holder}"))

    board = _board_of(rec)
    table = Table(title="Rounds", caption=text.plan_short_note())
    for column in ("round", "player", "fief", "plan", "turn", "covered", "points"):
        table.add_column(column, justify="right" if column in ("round", "points", "fief")
                         else "left")
    for rnd in rec.rounds:
        plans = {p.player: p for p in rnd.plans or []}
        order = rnd.order or list(range(len(players)))
        turns = {t.action.player: t for t in rnd.turns}
        for k, seat in enumerate(order):
            plan = plans.get(seat)
            turn = turns.get(seat)
            points = sum(e.points for e in turn.events) if turn else None
            table.add_row(
                str(rnd.round) if k == 0 else "", who(seat), str(rnd.fiefs[seat]),
                _describe_plan(plan, board) if isinstance(plan, Plan) else "(not revealed)",
                _describe_turn(turn.action) if turn else "-",
                " ".join(f"{c},{r}" for c, r in turn.hexes) if turn else "",
                "" if points is None else str(points),
                end_section=k == len(order) - 1 and rnd.last_turn_check is None,
            )
        check = rnd.last_turn_check
        if check is not None:
            verdict = "next round is the last" if check.last_round_next else "play goes on"
            table.add_row("", "", "", Text("Last Turn check", style="italic"),
                          Text(f"{players[check.holder].colour}: {check.uncovered} uncovered, "
                               f"{verdict}", style="italic"), end_section=True)

    result = Table(title="Result" if rec.finished else "Scores so far (game unfinished)")
    result.add_column("player")
    reasons = [str(r) for r in Reason]
    for reason in reasons:
        result.add_column(reason, justify="right")
    result.add_column("total", justify="right", style="bold")
    totals = {(i, r): 0 for i in range(len(players)) for r in reasons}
    for rnd in rec.rounds:
        for e in _events_of(rnd):
            totals[(e.player, e.reason)] += e.points
    for e in rec.final_scoring or []:
        totals[(e.player, e.reason)] += e.points
    for i, p in enumerate(players):
        mark = " ★" if i in rec.winners else ""
        result.add_row(Text.assemble(who(i), f" {p.name}{mark}"),
                       *[str(totals[(i, r)]) for r in reasons], str(rec.scores[i]))
    parts: list[Any] = [head, table, result]
    if rec.finished:
        names = " and ".join(players[w].colour for w in rec.winners)
        shared = " (shared victory)" if len(rec.winners) > 1 else ""
        parts.append(Text(f"Winner: {names}{shared} after {len(rec.rounds)} rounds.",
                          style="bold"))
    return Group(*parts)


_STYLE = {colour: f"bold {colour}" for colour in COLOURS}


def _describe_plan(plan: Plan, board: Board | None) -> str:
    return text.plan_short(board, plan)


def _describe_turn(action: Action) -> str:
    if isinstance(action, PlaceFief | Wedding | Donate):
        return text.move_text(action)
    return str(action)


def _board_of(rec: GameRecord) -> Board | None:
    """The board a record was played on, if it is the shipped one or the record holds it (for
    region names)."""
    try:
        return _resolve_board(rec, None)
    except RecordError:
        return None


__all__ = [
    "FORMAT",
    "GameRecord",
    "RecordError",
    "dumps_record",
    "game_record",
    "load_record",
    "parse_record",
    "summarize_record",
    "verify_record",
    "write_record",
]
