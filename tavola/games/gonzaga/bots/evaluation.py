"""What a position is worth beyond the points already scored.

Shared by the planner bot (to value one move) and the MCTS bot (to value the end of a round).
Points on the score track are certain; the rest of the final score comes from the objective card,
the Gonzaga tile and sea leagues still to form, and from rings still in hand. Each of those is
estimated here from the map, scaled by how many rounds are left to make it happen.

Everything works on a `GameState` or a `PlayerView`; a player whose objective is unknown (an
opponent in a view) simply gets no objective terms.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from ..board import Board
from ..engine import (
    Groups,
    PlacementArrays,
    closed_seas,
    group_labels,
    largest_group,
    new_leagues,
    open_seas,
    piece_groups,
    placement_points,
    uncovered_count,
)
from ..state import (
    LAST_TURN_FIRST_CHECK,
    LAST_TURN_THRESHOLD,
    LEAGUE_SIZE,
    MAX_ROUNDS,
    OBJECTIVE_POINTS,
    POINTS_GONZAGA_TILE,
    POINTS_SEA_LEAGUE,
    Phase,
    Position,
)


@dataclass(frozen=True)
class Weights:
    """Tunable worth of each long-term asset, in points."""

    ring: float = 2.0  # a ring in hand: a future King's Privilege or Wedding
    group_step: float = 2.5  # one more piece in the largest group (towards the Gonzaga tile)
    league_two: float = 4.0  # a second harbor in a sea (the third scores 10)
    league_one: float = 0.8  # a first harbor in a sea
    objective_chance: float = 0.6  # share of the next objective step expected from open cities
    tile_sharpness: float = 1.5  # how firmly the largest group holds the tile with rounds left


DEFAULT_WEIGHTS = Weights()

def objective_masks(board: Board) -> np.ndarray:
    """(max objective + 1, hexes) bool: the cities of each objective card."""
    return board.objective_masks


def rounds_left(state: Position) -> int:
    """Rounds still to be placed, the current one included when its placing is not over.

    Before the Last Turn check has fired, the end is estimated from how fast the open cities
    and harbors are being covered (about one per player per round).
    """
    current = 1 if state.phase is not Phase.OVER else 0
    if state.phase is Phase.OVER:
        return 0
    if state.final_round is not None:
        return state.final_round - state.round + current
    open_places = uncovered_count(state)
    per_round = max(1.0, 0.9 * len(state.players))
    end = state.round + math.ceil(max(0, open_places - LAST_TURN_THRESHOLD) / per_round)
    end = min(MAX_ROUNDS, max(LAST_TURN_FIRST_CHECK + 1, end + 1))
    return max(current, end - state.round + current)


def own_mask(state: Position, player: int) -> np.ndarray:
    mine: np.ndarray = (state.fief_owner == player) | (state.ring_owner == player)
    return mine


def _group_reach(label: np.ndarray, sizes: np.ndarray,
                 neighbour_table: np.ndarray) -> np.ndarray | None:
    """Per hex, a bit for each group the hex lies in or touches; None past 16 groups."""
    groups = len(sizes)
    if groups == 0 or groups > 16:
        return None
    owned = np.flatnonzero(label >= 0)
    bits = np.left_shift(1, label[owned]).astype(np.int32)
    reach = np.zeros(len(label) + 1, dtype=np.int32)  # the extra slot takes index -1
    reach[owned] = bits
    np.bitwise_or.at(reach, neighbour_table[owned].ravel(), np.repeat(bits, 6))
    reach[-1] = 0
    return reach[:-1]


def _joined_sizes(label: np.ndarray, sizes: np.ndarray, reach: np.ndarray | None,
                  cells: np.ndarray, neighbour_table: np.ndarray) -> np.ndarray:
    """Size of the group each candidate piece (rows of hexes) would belong to once placed."""
    if not len(sizes):
        return np.ones(len(cells), dtype=np.int32)
    if reach is None:  # many small groups: count them one by one
        joined = np.ones(len(cells), dtype=np.int32)
        for g, size in enumerate(sizes):
            near = np.append(label == g, False)  # index -1 (off the map) reads False
            near[:-1] |= near[neighbour_table].any(axis=1)
            joined += size * near[cells].any(axis=1)
        return joined
    touched = np.bitwise_or.reduce(reach[cells], axis=1)
    table = _subset_sums(sizes)
    return 1 + table[touched]


def _subset_sums(sizes: np.ndarray) -> np.ndarray:
    """Sum of sizes for every subset of groups, indexed by the subset's bits."""
    table = np.zeros(1 << len(sizes), dtype=np.int32)
    for g, size in enumerate(sizes):
        step = 1 << g
        table[step: 2 * step] = table[:step] + size
    return table


def _group_arrays(state: Position, player: int) -> tuple[np.ndarray, np.ndarray]:
    """`group_labels`, read-only and made once per set of pieces: search values many moves
    from positions where a player's pieces are the same."""
    groups = piece_groups(state, player)
    arrays = _GROUP_ARRAYS.get(groups)
    if arrays is None:
        if len(_GROUP_ARRAYS) >= GROUP_ARRAYS_KEPT:
            _GROUP_ARRAYS.clear()
        arrays = group_labels(state, player)
        for array in arrays:
            array.setflags(write=False)
        _GROUP_ARRAYS[groups] = arrays
    return arrays


_GROUP_ARRAYS: dict[Groups, tuple[np.ndarray, np.ndarray]] = {}
GROUP_ARRAYS_KEPT = 256  # a label array per hex of the map each: a few kilobytes


class MoveContext:
    """What valuing one player's candidate moves needs, computed once per position."""

    def __init__(self, state: Position, player: int, objective: int | None,
                 weights: Weights = DEFAULT_WEIGHTS) -> None:
        board = state.board
        self.state = state
        self.player = player
        self.objective = objective
        self.weights = weights
        self.left = rounds_left(state)
        self.mine = own_mask(state, player)
        self.label, self.sizes = _group_arrays(state, player)
        self.reach = _group_reach(self.label, self.sizes, state.rules.neighbour_table)
        self.largest = int(self.sizes.max()) if len(self.sizes) else 0
        self.open_seas = open_seas(state, player)
        self.have_sea = np.bincount(board.harbor_sea_number[self.mine & board.is_harbor],
                                    minlength=len(board.sea_index))
        self.objective_mask = (objective_masks(board)[objective] if objective is not None
                               else None)
        self.objective_have = (int(np.count_nonzero(self.objective_mask & self.mine))
                               if self.objective_mask is not None else 0)
        self.ring_worth = weights.ring * min(1.0, self.left / 4)

    def cover_values(self, cells: np.ndarray, valid: np.ndarray | None = None) -> np.ndarray:
        """Long-term worth of covering each row of hexes as one piece (beyond the points
        scored now); `valid` masks out padding cells (a single Wedding ring)."""
        state, w, mine = self.state, self.weights, self.mine
        board = state.board
        value = np.zeros(len(cells), dtype=np.float64)
        fresh = ~mine[cells] if valid is None else ~mine[cells] & valid
        if self.objective_mask is not None:
            new = (self.objective_mask[cells] & fresh).sum(axis=1)
            table = _OBJECTIVE_TABLE
            value += table[np.minimum(self.objective_have + new, 6)] - table[self.objective_have]
        joined = _joined_sizes(self.label, self.sizes, self.reach, cells,
                               state.rules.neighbour_table)
        value += w.group_step * np.maximum(0, joined - self.largest) * min(1.0, self.left / 3)
        harbors = board.is_harbor[cells] & fresh
        if harbors.any():
            sea_of = board.harbor_sea_number
            seas = len(board.sea_index)
            r, k = np.nonzero(harbors)
            adds = np.bincount(r * seas + sea_of[cells[r, k]],
                               minlength=len(cells) * seas).reshape(len(cells), seas)
            total = self.have_sea + adds
            grows = (adds > 0) & self.open_seas & (total < LEAGUE_SIZE)
            soon = min(1.0, self.left / 3)
            value += soon * (w.league_two * (grows & (total == 2)).sum(axis=1)
                             + w.league_one * (grows & (total == 1)).sum(axis=1))
        return value

    def placement_values(self, fief: int, rows: np.ndarray) -> np.ndarray:
        """Points now plus long-term worth, for each row of the fief's placement table."""
        if not len(rows):
            return np.zeros(0, dtype=np.float64)
        state = self.state
        cells = state.rules.fief_placements(fief).cells[rows]
        values: np.ndarray = placement_points(state, self.player, fief, rows).astype(np.float64)
        values += self.cover_values(cells)
        return values

    def arrays_values(self, arrays: PlacementArrays) -> np.ndarray:
        """`placement_values` of placements listed as arrays (with their points already)."""
        if not len(arrays):
            return np.zeros(0, dtype=np.float64)
        values: np.ndarray = arrays.points.astype(np.float64)
        values += self.cover_values(arrays.cells)
        return values

    def wedding_values(self, pairs: np.ndarray) -> np.ndarray:
        """Worth of each (first, second) Wedding: points, long-term worth, less the rings."""
        if not len(pairs):
            return np.zeros(0, dtype=np.float64)
        rules = self.state.rules
        first, second = pairs[:, 0], pairs[:, 1]
        has_second = second >= 0
        second_hex = np.where(has_second, second, first)
        cells = np.stack([first, second_hex], axis=1)
        pts = rules.hex_points.astype(np.float64)
        value: np.ndarray = pts[first] + np.where(has_second, pts[second_hex], 0.0)
        # A pair of rings is one group; a single ring's padding cell counts for nothing.
        valid = np.stack([np.ones(len(pairs), dtype=bool), has_second], axis=1)
        value += self.cover_values(cells, valid)
        value += self._league_points(cells, has_second)
        value -= self.ring_worth * np.where(has_second, 2, 1)
        return value

    def _league_points(self, cells: np.ndarray, has_second: np.ndarray) -> np.ndarray:
        # a single ring's padding cell repeats the first; it adds no harbor
        valid = np.stack([np.ones(len(cells), dtype=bool),
                          has_second & (cells[:, 1] != cells[:, 0])], axis=1)
        formed = new_leagues(self.state, self.player, cells, valid)
        points: np.ndarray = POINTS_SEA_LEAGUE * formed.sum(axis=1).astype(np.float64)
        return points


_OBJECTIVE_TABLE = np.array(OBJECTIVE_POINTS, dtype=np.float64)


def worthwhile_weddings(state: Position, pairs: np.ndarray,
                        objective: int | None) -> np.ndarray:
    """Indices of the Weddings worth valuing: a ring on a city or harbor (or objective city).

    A Wedding on plain hexes only costs rings; leaving those out keeps thousands of pairs from
    being valued for nothing.
    """
    if not len(pairs):
        return np.zeros(0, dtype=np.int64)
    special = state.rules.hex_points > 0
    if objective is not None:
        special = special | objective_masks(state.board)[objective]
    first, second = pairs[:, 0], pairs[:, 1]
    keep = special[first] | ((second >= 0) & special[np.where(second >= 0, second, 0)])
    return np.flatnonzero(keep)


def placement_values(state: Position, player: int, fief: int, rows: np.ndarray,
                     objective: int | None, weights: Weights = DEFAULT_WEIGHTS) -> np.ndarray:
    """Points now plus long-term worth, for each row of the fief's placement table."""
    return MoveContext(state, player, objective, weights).placement_values(fief, rows)


def wedding_values(state: Position, player: int, pairs: np.ndarray, objective: int | None,
                   weights: Weights = DEFAULT_WEIGHTS) -> np.ndarray:
    """Worth of each (first, second) Wedding: points, long-term worth, less the rings spent."""
    return MoveContext(state, player, objective, weights).wedding_values(pairs)


def final_estimates(state: Position, weights: Weights = DEFAULT_WEIGHTS) -> np.ndarray:
    """Estimated final score of every player: exact once the game is over.

    Search values every position it reaches, and the board has a few dozen cities and
    harbors: they are counted one by one, in plain numbers, rather than by map arrays."""
    return estimates_with(state, public_prospects(state, weights), weights)


@dataclass(frozen=True, slots=True, eq=False)
class Prospects:
    """The public part of `final_estimates`: everything but the objective cards, so a search
    that meets one public position under many deals of the hidden cards counts it once."""

    scores: np.ndarray  # points on the score track
    over: bool
    left: int  # `rounds_left`
    leagues: tuple[float, ...]  # per player, sea leagues within reach
    rings: tuple[float, ...]  # per player, rings in hand
    tile: np.ndarray | None  # per player, the share of the Gonzaga tile (None: no pieces yet)
    #: what each part is worth, in `PARTS` order: all 1 for the hand-made estimate, else the
    #: learned value's for this number of players and rounds left (`value.ValueModel`)
    coefficients: tuple[float, ...] = (1.0,) * 5
    #: (player, objective card) -> what the player may still add, as deals meet it
    extras: dict[tuple[int, int | None], float] = field(default_factory=dict)
    #: per player, the worth of the hexes their pieces cover (`map_value.MapValue`; None:
    #: no value over the map)
    hexes: np.ndarray | None = None


def public_prospects(state: Position, weights: Weights = DEFAULT_WEIGHTS,
                     value: LearnedValue | None = None, contested: bool = False) -> Prospects:
    """With `contested`, sea leagues within reach are counted by `contested_leagues`."""
    scores = np.array([p.score for p in state.players], dtype=np.float64)
    if state.phase is Phase.OVER:
        return Prospects(scores, True, 0, (), (), None)
    left = rounds_left(state)
    free_harbors, have_seas = _harbor_counts(state)
    players = range(len(state.players))
    if contested:
        leagues = contested_leagues(state, left, free_harbors, have_seas)
    else:
        leagues = tuple(_league_prospect(state, i, left, free_harbors, have_seas[i])
                        for i in players)
    ring = weights.ring * min(1.0, left / 4)
    rings = tuple(state.players[i].rings * ring for i in players)
    largest = np.array([largest_group(state, i) for i in players], dtype=np.float64)
    tile = None
    if largest.max() > 0:
        sharp = weights.tile_sharpness / math.sqrt(max(1, left))
        share = np.exp(sharp * (largest - largest.max()))
        tile = POINTS_GONZAGA_TILE * share / share.sum()
    if value is None:
        return Prospects(scores, False, left, leagues, rings, tile)
    coefficients = value.coefficients(len(state.players), left)
    map_term = getattr(value, "map_term", None)
    hexes = None if map_term is None else map_term(state)
    return Prospects(scores, False, left, leagues, rings, tile, coefficients, hexes=hexes)


def estimates_with(state: Position, prospects: Prospects, weights: Weights = DEFAULT_WEIGHTS
                   ) -> np.ndarray:
    """`final_estimates` from the position's `public_prospects` and the objective cards."""
    if prospects.over:
        return prospects.scores.copy()
    extras = prospects.extras
    values = []
    for i, p in enumerate(state.players):
        value = extras.get((i, p.objective))
        if value is None:
            value = extras[i, p.objective] = _player_extra(state, i, prospects, weights)
        values.append(value)
    extra = np.array(values, dtype=np.float64)
    c = prospects.coefficients
    if prospects.hexes is not None:
        extra += prospects.hexes
    if c == UNWEIGHTED:  # the hand-made estimate: no arrays made for nothing
        if prospects.tile is not None:
            extra += prospects.tile
        return prospects.scores + extra
    if prospects.tile is not None:
        extra += c[4] * prospects.tile
    return c[0] * prospects.scores + extra


def _player_extra(state: Position, i: int, prospects: Prospects, weights: Weights) -> float:
    """What player `i` may still add: objective, sea leagues within reach, rings in hand."""
    objective, leagues, rings = _player_parts(state, i, prospects, weights)
    c = prospects.coefficients
    return c[1] * objective + c[2] * leagues + c[3] * rings


def _player_parts(state: Position, i: int, prospects: Prospects, weights: Weights
                  ) -> tuple[float, float, float]:
    objective = state.players[i].objective
    value = 0.0
    if objective is not None:
        value = _objective_prospect(state, i, objective, prospects.left, weights)
    return value, prospects.leagues[i], prospects.rings[i]


#: the parts of the estimate, in the order of `Prospects.coefficients`
PARTS = ("score", "objective", "sea_leagues", "rings", "gonzaga_tile")
UNWEIGHTED = (1.0,) * len(PARTS)


def estimate_parts(state: Position, weights: Weights = DEFAULT_WEIGHTS
                   ) -> tuple[int, np.ndarray]:
    """Rounds left and each player's `PARTS` (players × 5), unweighted: what the learned
    value is fitted on. The estimate is their sum (with all coefficients 1)."""
    prospects = public_prospects(state, weights)
    if prospects.over:
        raise ValueError("the game is over: its scores are exact")
    rows = []
    for i in range(len(state.players)):
        tile = 0.0 if prospects.tile is None else float(prospects.tile[i])
        rows.append((float(prospects.scores[i]),
                     *_player_parts(state, i, prospects, weights), tile))
    return prospects.left, np.array(rows, dtype=np.float64)


class LearnedValue(Protocol):
    """What the estimate asks of a learned value (`value.ValueModel`; `map_value.MapValue`
    also lends `map_term`, the worth of each player's hexes)."""

    def coefficients(self, players: int, left: int) -> tuple[float, ...]: ...


def _objective_prospect(state: Position, i: int, objective: int, left: int,
                        weights: Weights) -> float:
    """The objective's points now and the next step's, by the share of open cities."""
    fiefs, rings = state.fief_owner, state.ring_owner
    have = open_cities = 0
    for h in state.board.objective_hexes[objective]:
        f, r = fiefs.item(h), rings.item(h)
        if f == i or r == i:
            have += 1
        elif f < 0 and r < 0:
            open_cities += 1
    expected = min(open_cities, 0.35 * left) * weights.objective_chance
    table = OBJECTIVE_POINTS
    step = table[min(have + 1, 6)] - table[have]
    return table[have] + step * expected


def _league_prospect(state: Position, i: int, left: int, free_harbors: list[int],
                     have_sea: list[int]) -> float:
    """Sea leagues within reach: seas still open to the player with a harbor free."""
    board = state.board
    closed = closed_seas(state.rules.variants, state.players[i].leagues, state.leagues_formed)
    reachable = [have for sea, have in enumerate(have_sea)
                 if free_harbors[sea] > 0 and board.sea_ids[sea] not in closed]
    chance = min(1.0, 0.35 * left)
    return POINTS_SEA_LEAGUE * chance * (0.5 * reachable.count(2) + 0.12 * reachable.count(1))


def contested_leagues(state: Position, left: int, free_harbors: list[int],
                      have_seas: list[list[int]]) -> tuple[float, ...]:
    """Sea leagues within reach, per player, when players race for the same harbors: a sea
    where several players hold two harbors gives each a share of its free harbors (one free
    harbor and two such players: half the chance each), and a sea where the player holds one
    counts only while two harbors are free. The plain count gives every player the whole
    chance, so a move that leaves the last free harbor to an opponent looked as good as one
    that takes it. The rule (docs/rules.md, "Scoring while playing"): the third harbor of one
    sea covered by a player's fiefs and rings scores 10 points, once per player and sea."""
    board = state.board
    closed = [closed_seas(state.rules.variants, p.leagues, state.leagues_formed)
              for p in state.players]
    contenders = [0] * len(free_harbors)
    for i, have_sea in enumerate(have_seas):
        for sea, have in enumerate(have_sea):
            if have == 2 and board.sea_ids[sea] not in closed[i]:
                contenders[sea] += 1
    chance = min(1.0, 0.35 * left)
    leagues = []
    for i, have_sea in enumerate(have_seas):
        total = 0.0
        for sea, have in enumerate(have_sea):
            free = free_harbors[sea]
            if free == 0 or board.sea_ids[sea] in closed[i]:
                continue
            if have == 2:
                total += 0.5 * min(1.0, free / contenders[sea])
            elif have == 1 and free >= 2:
                total += 0.12
        leagues.append(POINTS_SEA_LEAGUE * chance * total)
    return tuple(leagues)


def _harbor_counts(state: Position) -> tuple[list[int], list[list[int]]]:
    """Per sea, its harbors with neither fief nor ring; per player and sea, the harbors the
    player covers with a fief or a ring."""
    board = state.board
    free = [0] * len(board.sea_ids)
    have = [[0] * len(board.sea_ids) for _ in state.players]
    hexes = board.harbor_hexes
    for sea, fief, ring in zip(board.harbor_hex_seas, state.fief_owner[hexes].tolist(),
                               state.ring_owner[hexes].tolist(), strict=True):
        if fief < 0 and ring < 0:
            free[sea] += 1
        if fief >= 0:
            have[fief][sea] += 1
        if ring >= 0 and ring != fief:
            have[ring][sea] += 1
    return free, have

