"""Gonzaga for learning environments: one index for every action, one array per seat's view.

Actions, in index order: the donation; every plan (region card x action card x King's
Privilege); every fief placement of the board (each fief's rows of its placement table, fiefs
by number); every Wedding (a first ring's hex x (alone, or a second ring on one of its six
neighbours)). The observation is made from a `PlayerView`, seats listed from the viewer on.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from functools import cached_property, lru_cache

import numpy as np

from tavola.rl.encoding import Layout, check_index, one_hot, relative_seats

from .actions import ACTION_CARDS, INACTIVE, PRIVILEGE, Action, Donate, PlaceFief, Plan, Wedding
from .board import Board
from .engine import LegalActions, PlayerView
from .placement import PlacementTables, placement_tables
from .state import MAX_PLAYERS, MAX_ROUNDS, RINGS, Phase

PHASES = tuple(Phase)
DIRECTIONS = 6  # a second ring's place: one of the first ring's neighbours
SCORE_SCALE = 100  # points are given in hundreds


class GonzagaEncoding:
    """The spaces of Gonzaga games on one board, for up to `MAX_PLAYERS` seats."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.region_cards = (*board.regions, INACTIVE)
        self.cards = (*self.region_cards, *ACTION_CARDS, PRIVILEGE)
        self.fiefs = tuple(sorted(board.fiefs))
        self.objectives = tuple(sorted(board.objectives))
        self.seas = tuple(board.seas)
        self.plans = 2 * len(self.region_cards) * len(ACTION_CARDS)
        sizes = [len(self.tables[f]) for f in self.fiefs]
        self.fief_start = tuple(1 + self.plans + int(x) for x in np.cumsum([0, *sizes[:-1]]))
        self.wedding_start = 1 + self.plans + sum(sizes)
        self.action_count = self.wedding_start + board.hex_count * (1 + DIRECTIONS)
        self.layout = gonzaga_layout(self)

    @cached_property
    def tables(self) -> PlacementTables:
        return placement_tables(self.board)

    @cached_property
    def neighbours(self) -> np.ndarray:
        table = np.full((self.board.hex_count, DIRECTIONS), -1, dtype=np.int32)
        for i, near in enumerate(self.board.neighbours):
            table[i, : len(near)] = near
        return table

    # -- actions --------------------------------------------------------------------------

    def action_index(self, action: Action) -> int:
        if isinstance(action, Donate):
            return 0
        if isinstance(action, Plan):
            return self._plan_index(action)
        if isinstance(action, PlaceFief):
            return self._placement_index(action)
        if isinstance(action, Wedding):
            return self._wedding_index(action)
        raise ValueError(f"not a Gonzaga action: {action!r}")

    def _plan_index(self, plan: Plan) -> int:
        if plan.region not in self.region_cards or plan.action not in ACTION_CARDS:
            raise ValueError(f"no such plan: {plan!r}")
        pair = self.region_cards.index(plan.region) * len(ACTION_CARDS)
        return 1 + 2 * (pair + ACTION_CARDS.index(plan.action)) + int(plan.privilege)

    def _placement_index(self, action: PlaceFief) -> int:
        anchor = self.board.index_of.get(action.anchor)
        table = self.tables.fiefs.get(action.fief)
        row = None if anchor is None or table is None else table.row_of(anchor,
                                                                        action.rotation)
        if row is None:
            raise ValueError(f"no such placement on this board: {action!r}")
        return self.fief_start[self.fiefs.index(action.fief)] + row

    def _wedding_index(self, action: Wedding) -> int:
        first = self.board.index_of.get(action.first)
        if first is None:
            raise ValueError(f"no such hex: {action.first!r}")
        way = 0
        if action.second is not None:
            second = self.board.index_of.get(action.second)
            near = np.flatnonzero(self.neighbours[first] == second)
            if second is None or not len(near):
                raise ValueError(f"the rings of {action!r} are not neighbours")
            way = 1 + int(near[0])
        return self.wedding_start + first * (1 + DIRECTIONS) + way

    def action_at(self, seat: int, index: int) -> Action:
        check_index(index, self.action_count)
        if index == 0:
            return Donate(seat)
        if index < self.fief_start[0]:
            pair, privilege = divmod(index - 1, 2)
            region, action = divmod(pair, len(ACTION_CARDS))
            return Plan(seat, self.region_cards[region], ACTION_CARDS[action], bool(privilege))
        if index < self.wedding_start:
            k = bisect.bisect_right(self.fief_start, index) - 1
            fief = self.fiefs[k]
            table = self.tables[fief]
            row = index - self.fief_start[k]
            anchor = self.board.coords[int(table.anchors[row])]
            return PlaceFief(seat, fief, anchor, int(table.rotations[row]))
        return self._wedding_at(seat, index - self.wedding_start)

    def _wedding_at(self, seat: int, offset: int) -> Wedding:
        first, way = divmod(offset, 1 + DIRECTIONS)
        second = -1 if way == 0 else int(self.neighbours[first, way - 1])
        if way and second < 0:
            raise ValueError(f"action index {offset + self.wedding_start}: the map ends there")
        coords = self.board.coords
        return Wedding(seat, coords[first], coords[second] if second >= 0 else None)

    def action_mask(self, view: PlayerView, seat: int, legal: Sequence[Action]) -> np.ndarray:
        mask = np.zeros(self.action_count, dtype=np.int8)
        if not isinstance(legal, LegalActions):
            mask[[self.action_index(a) for a in legal]] = 1
            return mask
        mask[[self.action_index(a) for a in legal.fixed]] = 1
        if legal.fief is not None and legal.placement_count:
            start = self.fief_start[self.fiefs.index(legal.fief)]
            mask[start + legal.placement_rows] = 1
        pairs = legal.wedding_pairs
        if len(pairs):
            mask[self.wedding_start + pairs[:, 0] * (1 + DIRECTIONS) + self._ways(pairs)] = 1
        return mask

    def _ways(self, pairs: np.ndarray) -> np.ndarray:
        """0 for a single ring, else 1 + the second ring's place among the first's neighbours."""
        hit = self.neighbours[pairs[:, 0]] == pairs[:, 1:2]
        return np.where(pairs[:, 1] >= 0, 1 + hit.argmax(axis=1), 0)

    # -- observations ---------------------------------------------------------------------

    def observe(self, view: PlayerView, seat: int) -> np.ndarray:
        obs = self.layout.zeros()
        self._observe_table(obs, view)
        seats = relative_seats(seat, view.num_players)
        for k, s in enumerate(seats):
            self._observe_seat(obs, view, s, k)
        self._observe_map(obs, view, seats)
        return self.layout.clip(obs)

    def _observe_table(self, obs: np.ndarray, view: PlayerView) -> None:
        part = self.layout.part
        one_hot(part(obs, "round"), view.round - 1 if view.round else None)
        one_hot(part(obs, "phase"), PHASES.index(view.phase))
        part(obs, "final round")[0] = view.final_round is not None
        part(obs, "last turn check")[0] = (view.last_turn_check or 0) / MAX_ROUNDS
        flourishing = view.rules.scenario.flourishing
        part(obs, "flourishing")[:] = [r in flourishing for r in self.board.regions]
        part(obs, "leagues formed")[:] = [s in view.leagues_formed for s in self.seas]

    def _observe_seat(self, obs: np.ndarray, view: PlayerView, s: int, k: int) -> None:
        part, p = self.layout.part, view.players[s]
        part(obs, "present")[k] = 1
        part(obs, "to move")[k] = s in view.to_move()
        part(obs, "score")[k] = p.score / SCORE_SCALE
        part(obs, "rings")[k] = p.rings / RINGS
        one_hot(part(obs, "fief")[k], self._fief(p.fief))
        part(obs, "resting")[k] = [c in p.resting for c in self.cards]
        part(obs, "played")[k] = [c in p.played for c in self.cards]
        part(obs, "planned")[k] = p.has_planned
        part(obs, "fiefs left")[k] = p.fiefs_left / len(self.fiefs)
        part(obs, "fiefs to come")[k] = [f in p.remaining_fiefs for f in self.fiefs]
        part(obs, "sea leagues")[k] = [sea in p.leagues for sea in self.seas]
        if p.objective is not None:
            one_hot(part(obs, "objective")[k], self.objectives.index(p.objective))
        if p.plan is not None:
            part(obs, "plan")[k] = self._plan_cards(p.plan)
        if s in view.order:
            one_hot(part(obs, "turn order")[k], view.order.index(s))
        part(obs, "last turn card")[k] = s == view.last_turn_holder
        part(obs, "donations")[k] = sum(1 for who, _ in view.church if who == s) / len(
            self.fiefs)

    def _fief(self, fief: int | None) -> int | None:
        return None if fief is None else self.fiefs.index(fief)

    def _plan_cards(self, plan: Plan) -> list[bool]:
        return [c in plan.cards() for c in self.cards]

    def _observe_map(self, obs: np.ndarray, view: PlayerView, seats: list[int]) -> None:
        part, rules = self.layout.part, view.rules
        for k, s in enumerate(seats):
            part(obs, "fief owner")[:, k] = view.fief_owner == s
            part(obs, "ring owner")[:, k] = view.ring_owner == s
        hexes = part(obs, "hex")
        hexes[:, 0] = self.board.is_city
        hexes[:, 1] = self.board.is_harbor
        hexes[:, 2] = rules.flourishing_hex


def gonzaga_layout(e: GonzagaEncoding) -> Layout:
    """Every slot of a Gonzaga observation; per-seat rows list the viewer first."""
    m, cards, hexes = MAX_PLAYERS, len(e.cards), e.board.hex_count
    layout = Layout()
    add = layout.add
    add("round", MAX_ROUNDS, "the round being played, one-hot")
    add("phase", len(PHASES), "planning, placing, over: one-hot")
    add("final round", 1, "1 once the Last Turn check has made this the last round")
    add("last turn check", 1, f"the round after which the Last Turn check is made / "
                              f"{MAX_ROUNDS}")
    add("flourishing", len(e.board.regions), "the scenario's flourishing regions")
    add("leagues formed", len(e.seas), "seas whose league someone has scored")
    add("present", 1, "1 for a seat in the game", repeat=m)
    add("to move", 1, "1 while the seat is to act", repeat=m)
    add("score", 1, f"points / {SCORE_SCALE}", repeat=m, high=10.0)
    add("rings", 1, f"rings left / {RINGS}", repeat=m)
    add("fief", len(e.fiefs), "the fief drawn this round, one-hot by fief number", repeat=m)
    add("resting", cards, "cards resting (played last round): the region cards (the "
                          "board's regions, then inactive), the action cards, the privilege",
        repeat=m)
    add("played", cards, "cards revealed this round, as `resting`", repeat=m)
    add("planned", 1, "1 once the seat has planned this round", repeat=m)
    add("fiefs left", 1, f"fief cards still to draw or in hand / {len(e.fiefs)}", repeat=m)
    add("fiefs to come", len(e.fiefs), "fiefs not yet drawn (public)", repeat=m)
    add("sea leagues", len(e.seas), "seas whose league the seat has scored", repeat=m)
    add("objective", len(e.objectives), "the objective card: the viewer's own, everyone's "
                                        "once the game is over; else zeros", repeat=m)
    add("plan", cards, "the plan's cards: the viewer's own, everyone's after the reveal; "
                       "else zeros", repeat=m)
    add("turn order", m, "place in this round's turn order while placing", repeat=m)
    add("last turn card", 1, "1 for the holder of the Last Turn card", repeat=m)
    add("donations", 1, f"fiefs given to the church / {len(e.fiefs)}", repeat=m)
    add("fief owner", m, "per hex: whose fief covers it, by the seat rows' order",
        repeat=hexes)
    add("ring owner", m, "per hex: whose ring is on it, by the seat rows' order", repeat=hexes)
    add("hex", 3, "per hex: city, harbor, land of a flourishing region", repeat=hexes)
    return layout


@lru_cache(maxsize=32)  # editions' boards come and go
def _encoding(board_hash: str, board: Board) -> GonzagaEncoding:
    return GonzagaEncoding(board)


def encoding_for(board: Board) -> GonzagaEncoding:
    """The encoding of games on `board`, made once per board content."""
    return _encoding(board.content_hash, board)
