"""Game state: the rules context of one game, the players, the pieces on the board and a journal.

The state is plain data. Transitions live in `gonzaga.engine`; what a player may see of a state
is a `PlayerView` (see `gonzaga.engine.view`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from .actions import INACTIVE, Action, Plan, Value
from .board import Board, Scenario
from .placement import (
    Candidates,
    FiefPlacements,
    PlacementTables,
    placement_tables,
)

if TYPE_CHECKING:  # the engine's lists of legal actions, kept here for every game's planning
    from .engine import LegalActions

COLOURS = ("red", "yellow", "green", "blue")
MIN_PLAYERS, MAX_PLAYERS = 2, len(COLOURS)  # a colour of pieces for each player
#: Units digit of a fief card per colour (NOTES 8): card 12 is yellow's fief 10.
COLOUR_DIGIT = {"red": 1, "yellow": 2, "green": 3, "blue": 4}
RINGS = 6
LAST_TURN_FIRST_CHECK = 6  # the Last Turn card lies under the 6th fief card
LAST_TURN_THRESHOLD = 3  # "three or fewer" uncovered cities and harbors end the game
MAX_ROUNDS = 12
POINTS_FLOURISHING, POINTS_INACTIVE = 3, 1
POINTS_DONATION = 3
POINTS_SEA_LEAGUE = 10
LEAGUE_SIZE = 3
POINTS_GONZAGA_TILE = 15
OBJECTIVE_POINTS = (0, 2, 5, 10, 15, 25, 35)

#: Named rule variants (NOTES: another reasonable reading, off by default).
VARIANT_ONE_LEAGUE_PER_SEA = "one-league-per-sea"
VARIANTS = {
    VARIANT_ONE_LEAGUE_PER_SEA: "German reading of the sea league: only the first player to "
                                "cover three harbors of a sea scores its league.",
}


class Phase(StrEnum):
    PLANNING = "planning"
    PLACING = "placing"
    OVER = "over"


class Reason(StrEnum):
    CITY = "city"
    HARBOR = "harbor"
    SEA_LEAGUE = "sea-league"
    DONATION = "donation"
    GONZAGA_TILE = "gonzaga-tile"
    OBJECTIVE = "objective"




#: What a scoring event was for (`ScoreEvent.detail`), in English: records store these
#: sentences, and the text layer reads their fields back to say them in the language of the
#: moment (`text.detail_text`; they are among its `MESSAGES`).
DETAILS: dict[str, str] = {
    "detail.donation": "donation to the church",
    "detail.donated-fief": "the {fief} given to the church",
    "detail.tile": "{size} connected fiefs",
    "detail.objective": "objective: {covered} of {total} cities",
    "detail.league": "sea league of {sea}",
}


def detail(key: str, **fields: Any) -> str:
    """The English detail `key` of a scoring event, its fields filled in."""
    return DETAILS[key].format(**fields)


@dataclass(frozen=True, slots=True)
class ScoreEvent(Value):
    round: int
    player: int
    points: int
    reason: Reason
    detail: str
    sea: str | None = None  # the sea of a sea league

    def __init__(self, round: int, player: int, points: int, reason: Reason, detail: str,
                 sea: str | None = None) -> None:
        object.__setattr__(self, "round", round)
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "points", points)
        object.__setattr__(self, "reason", reason)
        object.__setattr__(self, "detail", detail)
        object.__setattr__(self, "sea", sea)


@dataclass(frozen=True, slots=True)
class Piece(Value):
    """A fief or a ring on the map; a ring counts as a one-hex fief for every purpose."""

    owner: int
    kind: str  # "fief" | "ring"
    hexes: tuple[int, ...]
    fief: int | None
    round: int
    castles: tuple[int, ...] = ()  # hexes under the fief's castles

    def __init__(self, owner: int, kind: str, hexes: tuple[int, ...], fief: int | None, round: int,
                 castles: tuple[int, ...] = ()) -> None:
        object.__setattr__(self, "owner", owner)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "hexes", hexes)
        object.__setattr__(self, "fief", fief)
        object.__setattr__(self, "round", round)
        object.__setattr__(self, "castles", castles)


# -- journal entries: everything public that happened, in order ---------------------------------


@dataclass(frozen=True, slots=True)
class RoundStarted(Value):
    round: int
    fiefs: tuple[int, ...]  # fief drawn by each player (face up)

    def __init__(self, round: int, fiefs: tuple[int, ...]) -> None:
        object.__setattr__(self, "round", round)
        object.__setattr__(self, "fiefs", fiefs)


@dataclass(frozen=True, slots=True)
class PlansRevealed(Value):
    round: int
    plans: tuple[Plan, ...]
    order: tuple[int, ...]

    def __init__(self, round: int, plans: tuple[Plan, ...], order: tuple[int, ...]) -> None:
        object.__setattr__(self, "round", round)
        object.__setattr__(self, "plans", plans)
        object.__setattr__(self, "order", order)


@dataclass(frozen=True, slots=True)
class TurnPlayed(Value):
    round: int
    player: int
    action: Action
    hexes: tuple[int, ...]  # hexes covered by the fief or rings (empty for a donation)
    events: tuple[ScoreEvent, ...]

    def __init__(self, round: int, player: int, action: Action, hexes: tuple[int, ...],
                 events: tuple[ScoreEvent, ...]) -> None:
        object.__setattr__(self, "round", round)
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "action", action)
        object.__setattr__(self, "hexes", hexes)
        object.__setattr__(self, "events", events)


@dataclass(frozen=True, slots=True)
class LastTurnChecked(Value):
    round: int
    holder: int
    uncovered: int
    last_round_next: bool

    def __init__(self, round: int, holder: int, uncovered: int, last_round_next: bool) -> None:
        object.__setattr__(self, "round", round)
        object.__setattr__(self, "holder", holder)
        object.__setattr__(self, "uncovered", uncovered)
        object.__setattr__(self, "last_round_next", last_round_next)


@dataclass(frozen=True, slots=True)
class GameEnded(Value):
    round: int
    events: tuple[ScoreEvent, ...]
    winners: tuple[int, ...]

    def __init__(self, round: int, events: tuple[ScoreEvent, ...],
                 winners: tuple[int, ...]) -> None:
        object.__setattr__(self, "round", round)
        object.__setattr__(self, "events", events)
        object.__setattr__(self, "winners", winners)


Entry = RoundStarted | PlansRevealed | TurnPlayed | LastTurnChecked | GameEnded


def journal_events(journal: Iterable[Entry]) -> list[ScoreEvent]:
    """Every scoring event of a journal, in order: a score is always the sum of its events."""
    events: list[ScoreEvent] = []
    for entry in journal:
        if isinstance(entry, TurnPlayed | GameEnded):
            events.extend(entry.events)
    return events


@dataclass(frozen=True)
class Setup(Value):
    """Everything chance decides before play; a game is fully determined by it and the actions."""

    scenario: str
    names: tuple[str, ...]
    colours: tuple[str, ...]
    decks: tuple[tuple[int, ...], ...]  # fief numbers, top card first
    objectives: tuple[int, ...]
    oldest: int = 0  # holder of the Last Turn card

    def __init__(self, scenario: str, names: tuple[str, ...], colours: tuple[str, ...],
                 decks: tuple[tuple[int, ...], ...], objectives: tuple[int, ...],
                 oldest: int = 0) -> None:
        object.__setattr__(self, "scenario", scenario)
        object.__setattr__(self, "names", names)
        object.__setattr__(self, "colours", colours)
        object.__setattr__(self, "decks", decks)
        object.__setattr__(self, "objectives", objectives)
        object.__setattr__(self, "oldest", oldest)


@dataclass(eq=False)
class Rules:
    """Static context of a game: board, scenario, variants and the placement tables.

    Its facts are worked out once, as it is made (`rules_for` keeps one per board, scenario
    and variants), into plain fields: a class compiled by mypyc does not keep a
    `cached_property`, and a field is the fastest read either way."""

    board: Board
    scenario: Scenario
    variants: frozenset[str]
    tables: PlacementTables = field(init=False, repr=False)
    inactive_regions: tuple[str, ...] = field(init=False, repr=False)
    #: cards in every hand: the flourishing regions and the Inactive Regions card
    region_cards: tuple[str, ...] = field(init=False, repr=False)
    flourishing_hex: np.ndarray = field(init=False, repr=False)  # land of flourishing regions
    #: points for covering each hex: 3 for a flourishing city or harbor, 1 inactive, else 0
    hex_points: np.ndarray = field(init=False, repr=False)
    hex_point_list: list[int] = field(init=False, repr=False)  # the same, as Python ints
    #: the hexes worth points when covered: points, reason and the place's name, as a
    #: move's scoring events give them
    scoring_places: dict[int, tuple[int, Reason, str]] = field(init=False, repr=False)
    #: per region card, its regions as bits (`FiefPlacements.region_bits`)
    card_region_bits: dict[str, int] = field(init=False, repr=False)
    #: cities and harbors of flourishing regions, counted by the Last Turn check
    counted_at_last_turn: np.ndarray = field(init=False, repr=False)
    counted_hexes: np.ndarray = field(init=False, repr=False)  # the same hexes, in order
    card_land: dict[str, np.ndarray] = field(init=False, repr=False)  # a card's land (NOTES 2)
    card_land_hexes: dict[str, np.ndarray] = field(init=False, repr=False)
    neighbour_table: np.ndarray = field(init=False, repr=False)  # (hexes, 6), -1 off the map
    #: an owner array with no owner (-1 on every hex), read-only: a new game's maps are its
    #: copies (numpy's `full` is Python, and runs twice a game)
    empty_map: np.ndarray = field(init=False, repr=False)
    #: a player's legal plans (the engine's list of them) by the cards that rest and whether
    #: the Privilege may be played: every planning decision asks, and a few lists answer
    #: them all (the engine fills it)
    plan_lists: dict[tuple[int, tuple[str, ...], bool], LegalActions] = field(
        init=False, repr=False)
    #: a player's groups of pieces by the hexes of those pieces (the engine fills it)
    group_memo: dict[tuple[tuple[int, ...], ...], Any] = field(init=False, repr=False)
    _candidates: dict[tuple[int, str, str], Candidates] = field(init=False, repr=False)
    _wedding_frames: dict[str, WeddingFrame] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        board, scenario = self.board, self.scenario
        self.tables = placement_tables(board)
        self.inactive_regions = board.inactive_regions(scenario)
        self.region_cards = (*[r for r in board.regions if r in scenario.flourishing], INACTIVE)
        self.flourishing_hex = np.isin(board.region_number,
                                       [board.region_index[r] for r in scenario.flourishing])
        special = board.is_city | board.is_harbor
        points = np.where(self.flourishing_hex, POINTS_FLOURISHING, POINTS_INACTIVE)
        self.hex_points = np.where(special, points, 0).astype(np.int16)
        self.hex_point_list = self.hex_points.tolist()
        self.scoring_places = _scoring_places(board, self.hex_point_list)
        self.card_region_bits = {
            card: sum(1 << board.region_index[r] for r in self.card_regions(card))
            for card in self.region_cards}
        self.counted_at_last_turn = special & self.flourishing_hex
        self.counted_hexes = np.flatnonzero(self.counted_at_last_turn)
        self.card_land = {card: np.isin(board.region_number,
                                        [board.region_index[r] for r in self.card_regions(card)])
                          for card in self.region_cards}
        self.card_land_hexes = {card: np.flatnonzero(mask).astype(np.int32)
                                for card, mask in self.card_land.items()}
        self.neighbour_table = np.full((board.hex_count, 6), -1, dtype=np.int32)
        for i, near in enumerate(board.neighbours):
            self.neighbour_table[i, : len(near)] = near
        self.empty_map = np.full(board.hex_count, -1, dtype=np.int8)
        self.empty_map.setflags(write=False)
        self.plan_lists, self.group_memo = {}, {}
        self._candidates, self._wedding_frames = {}, {}

    def __copy__(self) -> Rules:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Rules:
        """The same rules: every state of a game shares them (their memos included)."""
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as what they are made from; unpickled, made again (memos start empty)."""
        return rules_for, (self.board, self.scenario, self.variants)

    def card_regions(self, card: str) -> tuple[str, ...]:
        return self.inactive_regions if card == INACTIVE else (card,)

    def fief_placements(self, fief: int) -> FiefPlacements:
        return self.tables[fief]

    def candidates(self, fief: int, card: str, action: str) -> np.ndarray:
        """Rows of the fief's placement table allowed by a region card and an action card."""
        return self.candidate_set(fief, card, action).rows

    def candidate_cells(self, fief: int, card: str, action: str) -> np.ndarray:
        """The `padded_cells` of the `candidates` rows, kept with them."""
        return self.candidate_set(fief, card, action).cells

    def candidate_set(self, fief: int, card: str, action: str) -> Candidates:
        """The `candidates` rows as `Candidates`, to list the free ones on every turn."""
        key = (fief, card, action)
        found = self._candidates.get(key)
        if found is None:
            regions = tuple(self.board.region_index[r] for r in self.card_regions(card))
            found = self._candidates[key] = self.tables.candidates(fief, regions, action)
        return found

    def wedding_frame(self, card: str) -> WeddingFrame:
        """The Weddings a region card could ever allow (`WeddingFrame`), made once per card."""
        frame = self._wedding_frames.get(card)
        if frame is None:
            frame = self._wedding_frames[card] = WeddingFrame.of(self, card)
        return frame


def _scoring_places(board: Board, points: list[int]) -> dict[int, tuple[int, Reason, str]]:
    out = {}
    for h, pts in enumerate(points):
        if pts:
            place = board.city_at.get(h) or board.harbor_at.get(h)
            assert place is not None
            reason = Reason.CITY if h in board.city_at else Reason.HARBOR
            out[h] = (pts, reason, place.name)
    return out


@dataclass(frozen=True, eq=False)
class WeddingFrame:
    """Every ring pair a region card allows on an empty map: a first ring on the card's land,
    a second beside it. A pair of two hexes that could both be first is kept once, with the
    lower hex first. Only which hexes are free changes during a game, so a listing of
    Weddings is a mask over these arrays."""

    firsts: np.ndarray  # (F,) hexes of the card's land
    singles: np.ndarray  # (F, 2) each as a single ring: (first, -1)
    pairs: np.ndarray  # (F, 6, 2) each with each neighbour: (first, second), -1 off the map
    second_safe: np.ndarray  # (F, 6) the second hexes with 0 for -1, to index with
    pair_ok: np.ndarray  # (F, 6) the pair is on the map and listed from this first hex
    # The singles, then the pairs, flat (F * 7 entries), for one pass of masking: each
    # entry's hexes (a single's twice), whether it is listed, and its two int32 hexes read
    # as one int64, so the Weddings left are cut from a flat array and read back as pairs.
    every_first: np.ndarray
    every_second: np.ndarray
    every_listed: np.ndarray
    every_pair: np.ndarray
    single_pairs: np.ndarray  # (F,) the singles alone, as one int64 each

    @classmethod
    def of(cls, rules: Rules, card: str) -> WeddingFrame:
        firsts = rules.card_land_hexes[card]
        second = rules.neighbour_table[firsts]
        on_map = second >= 0
        safe = np.where(on_map, second, 0)
        first_rep = np.repeat(firsts, 6).reshape(-1, 6)
        listed_from_other = rules.card_land[card][safe] & (second < first_rep)
        singles = np.stack([firsts, np.full(len(firsts), -1)], axis=1).astype(np.int32)
        pairs = np.stack([first_rep, second], axis=2).astype(np.int32)
        pair_ok = on_map & ~listed_from_other
        every = np.ascontiguousarray(np.concatenate([singles, pairs.reshape(-1, 2)]))
        flat = cls(firsts, singles, pairs, safe, pair_ok,
                   np.concatenate([firsts, first_rep.ravel()]).astype(np.intp),
                   np.concatenate([firsts, safe.ravel()]).astype(np.intp),
                   np.concatenate([np.ones(len(firsts), dtype=bool), pair_ok.ravel()]),
                   every.view(np.int64).ravel(),
                   np.ascontiguousarray(singles).view(np.int64).ravel())
        for array in (flat.every_first, flat.every_second, flat.every_listed, flat.every_pair,
                      flat.single_pairs):
            array.setflags(write=False)
        return flat


_rules_cache: dict[tuple[str, str, frozenset[str]], Rules] = {}
RULES_KEPT = 256  # boards, scenarios and variants: the shipped board's, and editions' in play


def rules_for(board: Board, scenario: Scenario, variants: frozenset[str]) -> Rules:
    key = (board.content_hash, scenario.name, variants)
    rules = _rules_cache.get(key)
    if rules is None or rules.board is not board:
        rules = Rules(board, scenario, variants)
        while len(_rules_cache) >= RULES_KEPT:  # the oldest made go (dicts keep their order)
            del _rules_cache[next(iter(_rules_cache))]
        _rules_cache[key] = rules
    return rules


class Seat(Protocol):
    """What a player is at the table, as a full state and a view both hold it: the public
    facts of every seat (the view adds `remaining_fiefs`, the state the secret deck).

    A protocol of facts read, not a base class: the classes that hold them may be compiled
    (`tavola compile`), and a compiled class may neither inherit from a plain one nor narrow
    an attribute it inherits."""

    @property
    def name(self) -> str: ...
    @property
    def colour(self) -> str: ...
    @property
    def score(self) -> int: ...
    @property
    def rings(self) -> int: ...
    @property
    def fief(self) -> int | None: ...  # the fief drawn this round, face up
    @property
    def resting(self) -> tuple[str, ...]: ...  # cards played last round: not to plan with
    @property
    def played(self) -> tuple[str, ...]: ...  # cards revealed this round
    @property
    def leagues(self) -> frozenset[str]: ...  # seas whose league this player has scored
    @property
    def fiefs_left(self) -> int: ...  # fief cards still to draw or in hand (public)
    @property
    def objective(self) -> int | None: ...  # None where it is hidden
    @property
    def plan(self) -> Plan | None: ...  # None where it is hidden or not made
    @property
    def has_planned(self) -> bool: ...

    def card_number(self, fief: int | None = None) -> int: ...


def card_number(seat: Seat, fief: int | None = None) -> int:
    """The printed number of a fief card: fief number plus the colour digit (NOTES 8)."""
    number = seat.fief if fief is None else fief
    if number is None:
        raise ValueError("no fief card")
    return number + COLOUR_DIGIT[seat.colour]


@dataclass(eq=False, slots=True)
class PlayerState:
    name: str
    colour: str
    objective: int | None
    deck: list[int]  # fief numbers still to draw, top first (secret, even to the player)
    fief: int | None = None
    rings: int = RINGS
    score: int = 0
    resting: tuple[str, ...] = ()
    played: tuple[str, ...] = ()
    plan: Plan | None = None
    leagues: frozenset[str] = frozenset()
    fiefs_left: int = 12

    @property
    def has_planned(self) -> bool:
        return self.plan is not None

    def card_number(self, fief: int | None = None) -> int:
        return card_number(self, fief)

    def copy(self) -> PlayerState:
        return PlayerState(self.name, self.colour, self.objective, list(self.deck), self.fief,
                           self.rings, self.score, self.resting, self.played, self.plan,
                           self.leagues, self.fiefs_left)


class Position(Protocol):
    """The public facts of a position, which a full `GameState` and a `PlayerView` both answer:
    code that reads only those (rules checks, scoring previews, bots, screens) takes either.
    A protocol for the reason `Seat` is one: each class spells out the derived facts, in a
    line that asks the functions below (`current_player`, `to_move`), where the rules are."""

    @property
    def rules(self) -> Rules: ...
    @property
    def round(self) -> int: ...
    @property
    def phase(self) -> Phase: ...
    @property
    def order(self) -> tuple[int, ...]: ...  # turn order while placing
    @property
    def turn(self) -> int: ...  # index into `order`
    @property
    def final_round(self) -> int | None: ...  # set once the Last Turn check ends the game
    @property
    def last_turn_check(self) -> int | None: ...  # round after which the holder checks
    @property
    def last_turn_holder(self) -> int: ...
    @property
    def fief_owner(self) -> np.ndarray: ...  # per hex: whose fief covers it, -1 none
    @property
    def ring_owner(self) -> np.ndarray: ...  # per hex: whose ring is on it, -1 none
    @property
    def pieces(self) -> Sequence[Piece]: ...
    @property
    def church(self) -> Sequence[tuple[int, int]]: ...  # (player, fief) donations
    @property
    def journal(self) -> Sequence[Entry]: ...
    @property
    def players(self) -> Sequence[Seat]: ...
    @property
    def leagues_formed(self) -> frozenset[str]: ...  # seas with a league by anyone (variant)
    @property
    def winners(self) -> tuple[int, ...]: ...
    @property
    def board(self) -> Board: ...
    @property
    def num_players(self) -> int: ...
    @property
    def names(self) -> tuple[str, ...]: ...
    @property
    def current_player(self) -> int | None: ...
    @property
    def is_over(self) -> bool: ...
    def to_move(self) -> tuple[int, ...]: ...
    def score_events(self) -> list[ScoreEvent]: ...


def current_player(position: Position) -> int | None:
    """Whose turn it is while placing; None while planning (simultaneous) or when over."""
    if position.phase is Phase.PLACING:
        return position.order[position.turn]
    return None


def to_move(position: Position) -> tuple[int, ...]:
    """Players who may act now: everyone who has not planned yet, or the player to place."""
    phase = position.phase
    if phase is Phase.PLANNING:
        return tuple([i for i, p in enumerate(position.players) if not p.has_planned])
    if phase is Phase.PLACING:
        return (position.order[position.turn],)
    return ()


@dataclass(eq=False)
class GameState:
    """The full state of a game: every secret included (decks, objectives, unrevealed plans)."""

    rules: Rules
    setup: Setup
    players: list[PlayerState]
    round: int = 0
    phase: Phase = Phase.PLANNING
    order: tuple[int, ...] = ()
    turn: int = 0
    final_round: int | None = None
    last_turn_check: int | None = LAST_TURN_FIRST_CHECK
    fief_owner: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int8))
    ring_owner: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int8))
    pieces: list[Piece] = field(default_factory=list)
    church: list[tuple[int, int]] = field(default_factory=list)
    journal: list[Entry] = field(default_factory=list)
    history: list[Action] = field(default_factory=list)  # every action applied, in order
    leagues_formed: frozenset[str] = frozenset()
    winners: tuple[int, ...] = ()

    @property
    def last_turn_holder(self) -> int:
        return self.setup.oldest

    @property
    def board(self) -> Board:
        return self.rules.board

    @property
    def num_players(self) -> int:
        return len(self.players)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)

    @property
    def current_player(self) -> int | None:
        return current_player(self)

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    def to_move(self) -> tuple[int, ...]:
        return to_move(self)

    def score_events(self) -> list[ScoreEvent]:
        """Every scoring event so far: a score is always the sum of its events."""
        return journal_events(self.journal)

    def clone(self) -> GameState:
        return GameState(
            rules=self.rules, setup=self.setup, players=[p.copy() for p in self.players],
            round=self.round, phase=self.phase, order=self.order, turn=self.turn,
            final_round=self.final_round, last_turn_check=self.last_turn_check,
            fief_owner=self.fief_owner.copy(), ring_owner=self.ring_owner.copy(),
            pieces=list(self.pieces), church=list(self.church), journal=list(self.journal),
            history=list(self.history), leagues_formed=self.leagues_formed,
            winners=self.winners,
        )
