"""The position of a game: plain mutable lists and ints, cheap to copy.

`Position` holds everything public; `SignorieState` adds the secrets (the generator, the order
of the alliance stack, the tiles removed at setup, the fronts of face-down tiles) and
`SignorieView` what one seat may know in their place (only how many there are). Face-down
tiles are unknown even to their owner, so every seat's view is the same.
"""

from __future__ import annotations

import random
from typing import Any

from tavola.game import LogEntry

from .tables import Tables, tables

#: Frames of the decision stack: [kind, seat, ...]; the top (last) frame is asked next.
#: turn | choose colour | helpers colour next ready (those hired before the die) |
#: advance left used later (points owed by the executions below it) | mission | marriage |
#: face_down | hire | reward | wedding | buy
Frame = list[Any]
#: The kinds of frame, in the order above.
FRAME_KINDS = ("turn", "choose", "helpers", "advance", "mission", "marriage", "face_down",
               "hire", "reward", "wedding", "buy")

#: Where points come from, as score events name them (text.SOURCES names them for players).
SCORE_SOURCES = ("missions", "marriages", "initiative", "rewards", "helpers", "assignments",
                 "weddings", "careers", "alliances")

#: Phases of a round as the engine runs them.
ACTIONS, REWARDS, OVER = "actions", "rewards", "over"


class Position:
    """The public facts of a position, shared by states and views."""

    t: Tables
    #: the options the game was set up with: {} on the shipped components, else the edition's
    #: data ("components") and its content hash ("components_hash"), as records keep them
    options: dict[str, Any]
    names: tuple[str, ...]
    round: int
    phase: str
    order: list[int]  # turn order, first player first
    cursor: int  # index in `order` of the seat whose turn it is (or was last)
    passed: list[bool]
    dice: list[list[int]]  # per colour: values of the dice left on the board
    taken: list[list[int]]  # per seat, per colour: value of the die placed (0: none)
    florins: list[int]
    vp: list[int]
    avail: list[list[int]]  # per seat: [male, female] in the available supply
    stock: list[list[int]]  # per seat: [male, female] in the General Stock
    career: list[list[list[int]]]  # seat, track, slot -> meeples
    init_pos: list[int]  # per seat: slot on the Initiative track
    init_stamp: list[int]  # higher = higher up in a stack of discs
    stamp: int
    threshold: list[list[int]]  # per seat: [male, female] on the threshold space
    raised: list[int]  # per seat: how far the threshold is raised this round
    helpers: list[list[bool]]  # seat, helper slot -> hired
    brides: list[int]  # married men, the head included
    rows: list[list[list[int]]]  # seat, plan row -> face-up alliance tile ids
    down: list[list[int]]  # seat, plan row -> face-down tiles (fronts unknown)
    cities: list[int]  # cities in use (indices)
    city_meeples: list[list[tuple[int, int]]]  # city -> (seat, sex) from the lowest slot up
    city_tiles: list[list[int]]  # city -> [marriage tile, mission tile] (-1: empty)
    assignment: list[int]  # assignment slot -> tile
    rewards: list[int]  # per round: bonus tile index, or 100 + VP tile index
    stack: list[Frame]
    queue: list[int]  # seats still to take their reward this round
    legal: list[Any]  # what the seat on top of the stack may do now
    log: list[LogEntry]
    chance: list[tuple[Any, ...]]
    events: list[tuple[int, int, str, str]]  # (seat, points, source, detail)
    history: list[Any]  # every action applied, in order (all of them are public)

    @property
    def n(self) -> int:
        return len(self.names)

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def to_move(self) -> tuple[int, ...]:
        return (self.stack[-1][1],) if self.stack else ()

    def scores(self) -> tuple[int, ...]:
        return tuple(self.vp)

    def deck_left(self) -> int:
        raise NotImplementedError

    def removed_left(self) -> int:
        raise NotImplementedError

    def colour_of(self, seat: int) -> str:
        return self.t.board_colours[seat]


def copy_public(src: Position, dst: Position) -> None:
    """Copy every public field (lists copied, so the copies change independently)."""
    dst.t, dst.options, dst.names, dst.round = src.t, src.options, src.names, src.round
    dst.phase, dst.cursor, dst.stamp = src.phase, src.cursor, src.stamp
    dst.order, dst.passed, dst.florins = src.order[:], src.passed[:], src.florins[:]
    dst.vp, dst.init_pos, dst.init_stamp = src.vp[:], src.init_pos[:], src.init_stamp[:]
    dst.brides, dst.raised, dst.cities = src.brides[:], src.raised[:], src.cities[:]
    dst.assignment, dst.rewards, dst.queue = src.assignment[:], src.rewards[:], src.queue[:]
    dst.legal, dst.log, dst.chance = src.legal[:], src.log[:], src.chance[:]
    dst.events, dst.history = src.events[:], src.history[:]
    dst.dice = [x[:] for x in src.dice]
    dst.taken = [x[:] for x in src.taken]
    dst.avail = [x[:] for x in src.avail]
    dst.stock = [x[:] for x in src.stock]
    dst.threshold = [x[:] for x in src.threshold]
    dst.helpers = [x[:] for x in src.helpers]
    dst.down = [x[:] for x in src.down]
    dst.city_meeples = [x[:] for x in src.city_meeples]
    dst.city_tiles = [x[:] for x in src.city_tiles]
    dst.career = [[s[:] for s in tracks] for tracks in src.career]
    dst.rows = [[r[:] for r in rows] for rows in src.rows]
    dst.stack = [f[:] for f in src.stack]


class SignorieState(Position):
    """The whole truth of a game, secrets included."""

    seed: int | None  # what new_game was seeded with (None for a resampled state)
    rng: random.Random
    deck: list[int]  # the alliance stack, drawn from the end
    removed: list[int]  # tiles put back in the box at setup (2-3 players)
    down_tiles: list[list[list[int]]]  # seat, row -> face-down tile ids

    def deck_left(self) -> int:
        return len(self.deck)

    def removed_left(self) -> int:
        return len(self.removed)

    def clone(self) -> SignorieState:
        s = SignorieState.__new__(SignorieState)
        copy_public(self, s)
        s.seed = self.seed
        s.rng = random.Random()
        s.rng.setstate(self.rng.getstate())
        s.deck = self.deck[:]
        s.removed = self.removed[:]
        s.down_tiles = [[r[:] for r in rows] for rows in self.down_tiles]
        return s


class SignorieView(Position):
    """What `viewer` may know (None: a spectator): counts in place of hidden tiles."""

    viewer: int | None
    deck_size: int
    removed_count: int

    def deck_left(self) -> int:
        return self.deck_size

    def removed_left(self) -> int:
        return self.removed_count

    def shallow_copy(self) -> SignorieView:
        """A view sharing every value with this one, for a caller that replaces the values it
        changes (`web.wire`'s look past a die): a plain object's attributes, or a compiled
        one's (`tavola compile`: its class lists them, it has no `__dict__`)."""
        w = SignorieView.__new__(SignorieView)
        names: Any = getattr(type(self), "__mypyc_attrs__", None) or list(vars(self))
        for name in names:
            if hasattr(self, name):
                setattr(w, name, getattr(self, name))
        return w


def empty_state(names: tuple[str, ...], t: Tables | None = None) -> SignorieState:
    """A state with every field at its setup value, before chance is drawn, on the tables `t`
    (the shipped components by default)."""
    t = t or tables()
    n = len(names)
    s = SignorieState.__new__(SignorieState)
    s.options = {}
    s.t, s.names, s.round, s.phase, s.cursor, s.stamp = t, names, 0, ACTIONS, -1, 0
    s.order, s.passed = list(range(n)), [False] * n
    s.dice = [[] for _ in t.colours]
    s.taken = [[0] * len(t.colours) for _ in range(n)]
    s.florins, s.vp = [t.starting_florins] * n, [0] * n
    s.avail = [list(t.available) for _ in range(n)]
    s.stock = [list(t.stock) for _ in range(n)]
    s.career = [[[0] * len(t.career_vp) for _ in t.tracks] for _ in range(n)]
    s.init_pos, s.init_stamp = [0] * n, [0] * n
    s.threshold = [[0, 0] for _ in range(n)]
    s.raised = [0] * n
    s.helpers = [[False] * len(t.helper_cost) for _ in range(n)]
    s.brides = [1] * n
    s.rows = [[[] for _ in range(4)] for _ in range(n)]
    s.down = [[0] * 4 for _ in range(n)]
    s.down_tiles = [[[] for _ in range(4)] for _ in range(n)]
    s.cities = []
    s.city_meeples = [[] for _ in t.city_names]
    s.city_tiles = [[-1, -1] for _ in t.city_names]
    s.assignment = list(range(len(t.tile_effect)))
    s.rewards, s.stack, s.queue, s.legal = [], [], [], []
    s.log, s.chance, s.events, s.history = [], [], [], []
    s.deck, s.removed = [], []
    s.seed = None
    return s
