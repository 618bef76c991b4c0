"""Game records for every game: versioned JSON that names its game and replays exactly.

A record's `format` is `<game>-record/<version>`, so `replay --verify` finds the game that
wrote it (`tavola.registry.for_record_format`) and hands the record to that game's
`verify_record`. Games whose setup and chance all come from a seed (Signorie) use
`SeededRecords`: the record keeps the names, seed, options and every action, with the public
log and the scores, and verifying re-plays the actions and compares every logged fact.
Gonzaga keeps its own, richer format (`gonzaga-record/1`), unchanged.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, ValidationError

from . import registry as games
from .game import Game, IllegalAction

VERSION = 1


class RecordError(ValueError):
    """A record that cannot be read or does not replay; the message names the first problem."""


def dumps_record(data: Any) -> str:
    """JSON text with small values inline, so a record reads like a score sheet."""
    return _format(data, 0)


def _format(value: Any, level: int) -> str:
    compact = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    if len(compact) + 2 * level <= 98 or _is_leaf(value):
        return compact
    pad, end = "  " * (level + 1), "  " * level
    if isinstance(value, dict):
        items = [f"{pad}{json.dumps(k, ensure_ascii=False)}: {_format(v, level + 1)}"
                 for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + end + "}"
    return "[\n" + ",\n".join(pad + _format(v, level + 1) for v in value) + "\n" + end + "]"


def _is_leaf(value: Any) -> bool:
    """Scalars, and objects of scalars and short lists (an action, an event): one line each."""
    if isinstance(value, dict):
        return all(not isinstance(v, dict | list) or (isinstance(v, list) and len(v) <= 4 and all(
            not isinstance(x, dict | list) for x in v)) for v in value.values())
    return not isinstance(value, list) or not value


def read_json(path: str | Path) -> Any:
    """A record file's JSON; every problem reading it is a `RecordError` that names it."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecordError(f"cannot read {p}: no such file") from None
    except IsADirectoryError:
        raise RecordError(f"cannot read {p}: it is a directory") from None
    except UnicodeDecodeError:
        raise RecordError(f"cannot read {p}: not UTF-8 text") from None
    except OSError as exc:
        raise RecordError(f"cannot read {p}: {exc.strerror or exc}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{p.name} is not valid JSON (line {exc.lineno}, column {exc.colno}: "
                          f"{exc.msg}); was the file cut short?") from None


def game_of(data: Any) -> Game:
    """The game that wrote a record, from its `format`."""
    fmt = data.get("format") if isinstance(data, dict) else None
    if not isinstance(fmt, str):
        raise RecordError("not a game record: no \"format\" field")
    try:
        return games.for_record_format(fmt)
    except ValueError as exc:
        raise RecordError(str(exc)) from None


def version_of_package() -> str:
    try:
        from importlib.metadata import version

        return version("tavola")
    except Exception:  # not installed: a source checkout
        return "dev"


# ---------------------------------------------------------------------------------------------
# Records of seeded games


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class SeatRecord(_Model):
    name: StrictStr
    spec: StrictStr | None = None
    hints: Annotated[StrictInt, Field(ge=0)] | None = None  # hints asked for, when counted


class LogRecord(_Model):
    kind: StrictStr
    seat: StrictInt | None
    data: dict[str, Any]


class SeededRecord(_Model):
    format: StrictStr
    players: list[SeatRecord] = Field(min_length=1, max_length=8)
    seed: StrictInt
    options: dict[str, Any] = Field(default_factory=dict)
    actions: list[dict[str, Any]]
    log: list[LogRecord]
    scores: list[StrictInt]
    winners: list[StrictInt]
    finished: bool
    meta: dict[str, Any] = Field(default_factory=dict)


class SeededRecords:
    """Records of a game whose state holds `names`, `seed` and `history` (and `options` if
    it has any)."""

    def __init__(self, game: Game) -> None:
        self.game = game

    @property
    def format(self) -> str:
        return f"{self.game.info.record_format}/{VERSION}"

    def record(self, state: Any, *, players: Sequence[str] | None = None,
               seed: int | None = None, hints: Mapping[int, int] | None = None
               ) -> dict[str, Any]:
        """`hints` counts the hints each seat asked for; without it the record says
        nothing of hints."""
        game = self.game
        names = list(state.names)
        if players is not None and len(players) != len(names):
            raise ValueError(f"{len(players)} seat specs for a {len(names)}-player game")
        return {
            "format": self.format,
            "players": [{"name": n, "spec": players[i] if players else None,
                         **({"hints": hints.get(i, 0)} if hints is not None else {})}
                        for i, n in enumerate(names)],
            "seed": state.seed,
            "options": dict(getattr(state, "options", None) or {}),
            "actions": [game.action_to_json(a) for a in state.history],
            "log": [_log_json(e) for e in game.log(state)],
            "scores": list(game.scores(state)),
            "winners": list(game.winners(state)) if state.is_over else [],
            "finished": bool(state.is_over),
            "meta": {"written_by": f"tavola {version_of_package()}"},
        }

    def parse(self, data: Any) -> SeededRecord:
        if not isinstance(data, dict) or data.get("format") != self.format:
            found = data.get("format") if isinstance(data, dict) else type(data).__name__
            raise RecordError(f"not a {self.game.info.title} record of format {self.format} "
                              f"(found {found!r})")
        try:
            return SeededRecord.model_validate(data)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(x) for x in first["loc"]) or "the record"
            raise RecordError(f"{where}: {first['msg']}") from None

    def verify(self, data: Any, options: Mapping[str, Any] | None = None) -> Any:
        """Re-play the record's actions from its seed, checking the log and the scores."""
        rec = self.parse(data)
        game = self.game
        try:
            state = game.new_game([p.name for p in rec.players], rec.seed,
                                  {**rec.options, **(options or {})})
        except ValueError as exc:
            raise RecordError(f"cannot set the game up: {exc}") from None
        for i, raw in enumerate(rec.actions):
            try:
                game.apply_in_place(state, game.action_from_json(raw))
            except (IllegalAction, ValueError) as exc:
                raise RecordError(f"action {i + 1} ({raw}) does not replay: {exc}") from None
        self._compare(rec, state)
        return state

    def _compare(self, rec: SeededRecord, state: Any) -> None:
        game = self.game
        log = [_log_json(e) for e in game.log(state)]
        for i, (want, got) in enumerate(zip([e.model_dump() for e in rec.log], log,
                                            strict=False)):
            if want != got:
                raise RecordError(f"log entry {i + 1} differs: the record says {want}, the "
                                  f"rules give {got}")
        if len(log) != len(rec.log):
            raise RecordError(f"the record has {len(rec.log)} log entries, the rules give "
                              f"{len(log)}")
        if list(game.scores(state)) != rec.scores:
            raise RecordError(f"scores differ: the record says {rec.scores}, the rules give "
                              f"{list(game.scores(state))}")
        if bool(state.is_over) != rec.finished:
            raise RecordError("the record and the rules disagree on whether the game is over")
        if state.is_over and list(game.winners(state)) != rec.winners:
            raise RecordError(f"winners differ: the record says {rec.winners}, the rules give "
                              f"{list(game.winners(state))}")

    def summarize(self, data: Any) -> str:
        """The record as text: seats, every log line in the game's words, the result."""
        state = self.verify(data)
        game = self.game
        lines = [f"{game.info.title}, seed {state.seed}"]
        lines += [game.describe_log(state, e) for e in game.log(state)]
        return "\n".join(lines)


def _log_json(entry: Any) -> dict[str, Any]:
    return {"kind": entry.kind, "seat": entry.seat, "data": json.loads(json.dumps(entry.data))}
