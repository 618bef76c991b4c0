"""A game declared once: what the platform knows of every game and asks of it.

The platform (match runner, bots, search, simulation, tournaments, records, benchmarks, the
web server) never imports a game's internals; it holds a `Game` and calls the methods below.
A game package defines one in its `game.py` as `GAME` and names it in its kit (`tavola.kit`).

States are the game's own full states (every secret included); views are what one seat, or a
spectator, may know. Both satisfy `Position`, so code that only reads public facts (whose move,
is it over, the scores so far, the log) takes either. Actions are the game's own immutable,
hashable values; `action_to_json`/`action_from_json` carry them over the wire and into records.

Chance (dice, draws) comes from the state's own generator, seeded by `new_game`, so a game
replays exactly from its seed and actions. What chance revealed is public and listed by
`chance_events`, which lets a search tell the outcomes of one chance event apart.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, Protocol, runtime_checkable

if sys.version_info >= (3, 13):
    from typing import TypeVar
else:  # a type variable's default is new in 3.13
    from typing_extensions import TypeVar

if TYPE_CHECKING:
    from .bots import Bot
    from .search import SearchSpec

#: How an option's value is written: `text` one word, `names` a list of words (`a,b` on a
#: command line, or the option given again), `path` a file on this machine.
OPTION_KINDS = ("text", "names", "path")


@dataclass(frozen=True)
class GameOption:
    """An option a game declares: what it means and how its value is read, so every command
    and the web lobby read it alike (`read_options`)."""

    help: str
    kind: str = "text"  # one of OPTION_KINDS
    choices: tuple[str, ...] = ()  # the words a value may hold (empty: the game checks them)
    lobby: bool = True  # offered in the web lobby (a file on the server is not a player's)


@dataclass(frozen=True)
class GameInfo:
    """The facts of a game the platform needs before any state exists (OpenSpiel's GameType)."""

    name: str  # the game's identifier: `--game NAME`, records, the web's game list
    title: str  # as players read it
    min_players: int
    max_players: int
    default_players: int
    simultaneous: bool  # some phases are played by several seats at once, in secret
    hidden_information: bool  # a seat's view is less than the state
    chance: bool  # random events happen after the game has begun
    record_format: str  # the `format` of its records, without the version: `NAME-record`
    score_sources: tuple[str, ...] = ()  # the kinds of points, as `score_breakdown` keys them
    seat_colours: tuple[str, ...] = ()  # each seat's colour name, in seat order
    options: Mapping[str, GameOption] = field(default_factory=dict)  # by the name it is set by

    def check_players(self, n: int) -> None:
        """Raise ValueError naming the allowed counts when `n` seats are not allowed."""
        if not self.min_players <= n <= self.max_players:
            raise ValueError(f"{self.title} is for {self.min_players} to {self.max_players} "
                             f"players, not {n}")


def option_words(words: Sequence[str]) -> dict[str, list[str]]:
    """`NAME=VALUE` words (a command line's `--option`s), the values of each name in order."""
    given: dict[str, list[str]] = {}
    for word in words:
        key, sep, value = word.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"--option takes NAME=VALUE, not {word!r}")
        given.setdefault(key.strip(), []).append(value.strip())
    return given


def read_options(info: GameInfo, given: Mapping[str, Any]) -> dict[str, Any]:
    """The options of `info`'s game from `given`: a name's values as words (a command line,
    see `option_words`) or as JSON (the lobby), each read as the game declares it. ValueError
    names an option the game lacks or a value it cannot take."""
    out: dict[str, Any] = {}
    for name, value in given.items():
        spec = info.options.get(name)
        if spec is None:
            known = ", ".join(info.options) or "none"
            raise ValueError(f"{info.title} has no option {name} (its options: {known})")
        out[name] = _read_value(info, name, spec, value)
    return out


def _read_value(info: GameInfo, name: str, spec: GameOption, value: Any) -> Any:
    words = value if isinstance(value, list | tuple) else [value]
    if not all(isinstance(w, str) for w in words):
        raise ValueError(f"{info.title}'s option {name} takes words, not {value!r}")
    if spec.kind == "names":
        names = [part.strip() for w in words for part in w.split(",") if part.strip()]
        wrong = [n for n in names if spec.choices and n not in spec.choices]
        if wrong:
            raise ValueError(f"{info.title}'s option {name} has no {', '.join(wrong)} "
                             f"(it takes: {', '.join(spec.choices)})")
        return names
    if len(words) != 1:
        raise ValueError(f"{info.title}'s option {name} takes one value, not {len(words)}")
    word = words[0].strip()
    if spec.choices and word not in spec.choices:
        raise ValueError(f"{info.title}'s option {name} takes one of {', '.join(spec.choices)}, "
                         f"not {word!r}")
    return word


@runtime_checkable
class Position(Protocol):
    """What both a state and a view answer: the public facts of a position."""

    @property
    def names(self) -> Sequence[str]: ...

    @property
    def is_over(self) -> bool: ...

    def to_move(self) -> tuple[int, ...]:
        """Seats that may act now (several while a simultaneous phase waits on them)."""
        ...


# A `Game` without its types (`game: Game`) is any game, as the platform holds it: it never
# looks inside states, views or actions.
S = TypeVar("S", default=Any)  # a full state
V = TypeVar("V", default=Any)  # a seat's view
A = TypeVar("A", bound=Hashable, default=Any)  # an action


class IllegalAction(ValueError):
    """An action the rules refuse. `rule` names the rule in a word or two; nothing changed."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message


class LogEntry(NamedTuple):
    """One line of a game's public log: what happened, in data, for records and replays.

    `kind` names the event (`turn`, `reward`, ...), `seat` whose it is (None for the table),
    `data` the JSON-ready details; `Game.describe_log` makes it a sentence for players.
    A named tuple rather than a frozen dataclass: as immutable, and made in half the time
    (an engine may log every step of every random game and search rollout).
    """

    kind: str
    seat: int | None
    data: Mapping[str, Any]


BotFactory = Callable[[int | None, str], "Bot"]  # (seed, options after the first colon) -> bot


class Game(Protocol, Generic[S, V, A]):
    """The one interface between the platform and a game's rules."""

    # read-only (properties): a game may compute them, and the platform never sets them

    @property
    def info(self) -> GameInfo: ...

    @property
    def bots(self) -> Mapping[str, BotFactory]:
        """The game's own bots by spec name (`greedy`, `planner`); `random` and `mcts` are the
        platform's and need nothing from the game but `search` (see `tavola.search`)."""
        ...

    @property
    def search(self) -> SearchSpec | None:
        """The game's heuristics for the platform's search, or None for plain random rollouts."""
        ...

    def new_game(self, names: Sequence[str], seed: int | None = None,
                 options: Mapping[str, Any] | None = None) -> S:
        """A game at its start; `seed` fixes the setup and every later chance event."""
        ...

    def legal_actions(self, position: S | V, seat: int) -> Sequence[A]:
        """The actions `seat` may take now (empty when it is not that seat's move)."""
        ...

    def apply(self, state: S, action: A) -> S:
        """The state after `action`; `state` is unchanged. Raises IllegalAction."""
        ...

    def apply_in_place(self, state: S, action: A) -> None:
        """As `apply`, changing `state` (for search code that owns it)."""
        ...

    def clone(self, state: S) -> S: ...

    def view(self, state: S, seat: int | None) -> V:
        """What `seat` may know (None: a spectator); secrets of others are stripped."""
        ...

    def resample(self, view: V, rng: random.Random) -> S:
        """A full state consistent with `view`: hidden facts and future chance drawn anew."""
        ...

    def scores(self, position: S | V) -> tuple[int, ...]:
        """Points per seat so far (final once the game is over)."""
        ...

    def winners(self, state: S) -> tuple[int, ...]:
        """The winning seats of a finished game, after the game's tie-breaks."""
        ...

    def ranks(self, state: S) -> tuple[int, ...]:
        """Each seat's place in a finished game (1 = first), after the tie-breaks; seats still
        tied share a place (competition ranking: 1, 2, 2, 4)."""
        ...

    def score_breakdown(self, position: S | V) -> tuple[dict[str, int], ...]:
        """Each seat's points so far by source (`info.score_sources`); they sum to `scores`."""
        ...

    def round(self, position: S | V) -> int:
        """The round being played (the last one once the game is over)."""
        ...

    def setup_label(self, state: S) -> str:
        """What chance or the players chose at setup, in a few words (a scenario, the cities)."""
        ...

    def setup_of(self, state: S) -> dict[str, Any]:
        """Everything chance and the options decided at setup, as JSON: with the actions it
        rebuilds the game exactly (`from_setup`). It holds secrets: keep it on the server."""
        ...

    def renamed(self, setup: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
        """The same setup with other names for the seats (a signed-in player taking a seat):
        names are labels, so the game replays the same with them."""
        ...

    def from_setup(self, setup: Mapping[str, Any]) -> S:
        """The game at its start, from `setup_of`; ValueError names what is wrong."""
        ...

    def decision_key(self, position: S | V) -> int:
        """A number for the decision now open, the same whatever order the seats of one
        simultaneous decision answer in (bots are seeded by it)."""
        ...

    def describe_options(self, options: Mapping[str, Any]) -> str:
        """What games with these options are played on, in a few words (a board's name)."""
        ...

    def record(self, state: S, *, players: Sequence[str] | None = None,
               seed: int | None = None, hints: Mapping[int, int] | None = None
               ) -> dict[str, Any]:
        """The game's record (JSON-ready), its `format` being `info.record_format`/version;
        `hints` (seat -> hints asked for) is written when given."""
        ...

    def verify_record(self, data: Any, options: Mapping[str, Any] | None = None) -> S:
        """Re-play a record through the rules; `tavola.records.RecordError` names the first
        disagreement. Returns the replayed state."""
        ...

    def summarize_record(self, data: Any) -> Any:
        """A record for people to read (text or a rich renderable)."""
        ...

    def log(self, position: S | V) -> Sequence[LogEntry]:
        """The public log so far."""
        ...

    def chance_events(self, position: S | V) -> Sequence[Hashable]:
        """The outcomes chance has revealed so far, oldest first (empty for games without)."""
        ...

    def action_to_json(self, action: A) -> dict[str, Any]: ...

    def action_from_json(self, data: Any) -> A:
        """The action a JSON value describes; anything malformed raises ValueError naming it."""
        ...

    def describe_action(self, position: S | V, action: A) -> str:
        """The action as a sentence for players, in the game's own words."""
        ...

    def describe_log(self, position: S | V, entry: LogEntry) -> str:
        """A log entry as a sentence for players."""
        ...
