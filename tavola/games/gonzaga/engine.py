"""The rules of Gonzaga as pure state transitions.

`new_game` deals a game, `legal_actions` lists what a player may do, `apply` returns the state
after an action (the given state is never changed), `view` strips what a player may not know and
`resample` deals the hidden parts of a view anew for search. Each rule cites the rulebook section
or the NOTES.md item it implements; docs/rules.md states them all.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import chain
from typing import overload

import numpy as np

from tavola.chance import shuffle

from .actions import (
    ACTION_CARDS,
    ACTION_COVERAGE,
    ACTION_ORDER,
    ALLIANCE,
    INACTIVE,
    PRIVILEGE,
    WEDDING_CARD,
    Action,
    Donate,
    Hex,
    IllegalAction,
    PlaceFief,
    Plan,
    Wedding,
)
from .board import Board, load_board
from .placement import action_allows, cells_of, static_problem
from .state import (
    COLOURS,
    LAST_TURN_THRESHOLD,
    LEAGUE_SIZE,
    MAX_PLAYERS,
    MAX_ROUNDS,
    MIN_PLAYERS,
    OBJECTIVE_POINTS,
    POINTS_DONATION,
    POINTS_GONZAGA_TILE,
    POINTS_SEA_LEAGUE,
    RINGS,
    VARIANT_ONE_LEAGUE_PER_SEA,
    VARIANTS,
    Entry,
    GameEnded,
    GameState,
    LastTurnChecked,
    Phase,
    Piece,
    PlansRevealed,
    PlayerState,
    Position,
    Reason,
    RoundStarted,
    Rules,
    ScoreEvent,
    Setup,
    TurnPlayed,
    card_number,
    current_player,
    detail,
    journal_events,
    rules_for,
    to_move,
)

# ---------------------------------------------------------------------------------------------
# Setting up


def deal(board: Board, players: int | Sequence[str], seed: int | None = None,
         scenario: str | None = None, *, oldest: int = 0,
         rng: random.Random | None = None) -> Setup:
    """Preparation: a scenario for the player count, shuffled fief decks and one objective each.

    A seed makes the deal reproducible (simulations, tests, records); a server dealing to
    strangers passes `rng=secrets.SystemRandom()` instead, since any seed small enough to be
    searched would let a spectator derive the hidden cards from the public ones."""
    names = _names(players)
    n = len(names)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise ValueError(f"Gonzaga is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {n}")
    if not 0 <= oldest < n:
        raise ValueError(f"oldest player must be a seat from 0 to {n - 1}, not {oldest}")
    rng = rng or random.Random(seed)
    choices = board.scenarios_for(n)
    if not choices:
        raise ValueError(f"the board has no scenario for {n} players")
    drawn = rng.choice(choices).name  # drawn even when chosen, so a seed always deals the same
    chosen = drawn if scenario is None else _scenario_name(board, scenario, n)
    fiefs = sorted(board.fiefs)
    decks = []
    for _ in range(n):
        deck = list(fiefs)
        shuffle(deck, rng)
        decks.append(tuple(deck))
    objectives = tuple(rng.sample(sorted(board.objectives), n))
    return Setup(chosen, tuple(names), COLOURS[:n], tuple(decks), objectives, oldest)


def _names(players: int | Sequence[str]) -> list[str]:
    if isinstance(players, (bool, str)):
        raise ValueError("players must be a number or a list of names")
    if isinstance(players, int):
        return [c.title() for c in COLOURS[:players]] if players <= len(COLOURS) else [
            "?"] * players
    return [str(p) for p in players]


def _scenario_name(board: Board, scenario: str, n: int) -> str:
    match = {s.lower(): s for s in board.scenarios}.get(scenario.lower())
    if match is None:
        names = ", ".join(s.name for s in board.scenarios_for(n))
        raise ValueError(f"unknown scenario {scenario!r}; for {n} players: {names}")
    if board.scenarios[match].players != n:
        raise ValueError(f"scenario {match} is for {board.scenarios[match].players} players, "
                         f"not {n}")
    return match


def new_game(players: int | Sequence[str] | None = None, seed: int | None = None,
             scenario: str | None = None, *, board: Board | None = None,
             variants: Sequence[str] = (), setup: Setup | None = None) -> GameState:
    """A game at the start of round 1 (fiefs drawn, everyone to plan).

    `setup` replays an exact deal (then `players`, `seed` and `scenario` are not needed).
    """
    board = board or load_board()
    if setup is None and players is None:
        raise ValueError("new_game needs the players (a count or names) or a setup")
    unknown = [v for v in variants if v not in VARIANTS]
    if unknown:
        raise ValueError(f"unknown rule variants {unknown}; known: {', '.join(VARIANTS)}")
    if setup is None:
        assert players is not None
        setup = deal(board, players, seed, scenario)
    _check_setup(board, setup)
    rules = rules_for(board, board.scenarios[setup.scenario], frozenset(variants))
    state = GameState(
        rules=rules,
        setup=setup,
        players=[PlayerState(name, colour, objective, list(deck), fiefs_left=len(deck))
                 for name, colour, deck, objective in zip(setup.names, setup.colours, setup.decks,
                                                          setup.objectives, strict=True)],
        fief_owner=rules.empty_map.copy(),
        ring_owner=rules.empty_map.copy(),
    )
    _start_round(state)
    return state


def _check_setup(board: Board, setup: Setup) -> None:
    n = len(setup.names)
    problems = []
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        problems.append(f"Gonzaga is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {n}")
    if setup.scenario not in board.scenarios:
        problems.append(f"unknown scenario {setup.scenario!r}")
    elif board.scenarios[setup.scenario].players != n:
        problems.append(f"scenario {setup.scenario} is not for {n} players")
    if len(setup.colours) != n or len(set(setup.colours)) != n or not set(setup.colours) <= set(
            COLOURS):
        problems.append(f"colours must be {n} different of {', '.join(COLOURS)}")
    if len(setup.decks) != n or any(sorted(d) != sorted(board.fiefs) for d in setup.decks):
        problems.append("each fief deck must hold every fief of the board exactly once")
    if len(setup.objectives) != n or len(set(setup.objectives)) != n or not set(
            setup.objectives) <= set(board.objectives):
        problems.append(f"each player needs a different objective card of {len(board.objectives)}")
    if not 0 <= setup.oldest < max(n, 1):
        problems.append("the Last Turn holder must be one of the players")
    if problems:
        raise ValueError("invalid setup: " + "; ".join(problems))


def _start_round(state: GameState) -> None:
    """Phase 1, Take your fief: everyone turns over the top fief card."""
    state.round += 1
    state.phase = Phase.PLANNING
    state.order = ()
    state.turn = 0
    fiefs = []
    for p in state.players:
        p.fief = fief = p.deck.pop(0)
        p.plan = None
        fiefs.append(fief or 0)
    state.journal.append(RoundStarted(state.round, tuple(fiefs)))


# ---------------------------------------------------------------------------------------------
# Legal actions


@dataclass(frozen=True, eq=False)
class PlacementArrays:
    """Placements of one fief as parallel arrays, with the points each would score now.

    The supported way for bots and interfaces to look at thousands of placements at once;
    entry i of a `LegalActions`' arrays is its `placement(i)`. Anchors and rotations are
    looked up when asked for (bots value cells and points only)."""

    fief: int
    rows: np.ndarray  # (K,) rows of the fief's placement table (`Rules.fief_placements`)
    cells: np.ndarray  # (K, size) hex indices covered
    points: np.ndarray  # (K,) points now: cities, harbors, new sea leagues
    rules: Rules = field(repr=False)

    def __len__(self) -> int:
        return len(self.rows)

    @property
    def anchors(self) -> np.ndarray:
        """(K, 2) anchor hex as [column, row] (looked up at each reading: a screen reads
        them once)."""
        table = self.rules.fief_placements(self.fief)
        found: np.ndarray = self.rules.board.coord_array[table.anchors[self.rows]]
        return found

    @property
    def rotations(self) -> np.ndarray:
        """(K,) sixths of a turn clockwise."""
        found: np.ndarray = self.rules.fief_placements(self.fief).rotations[self.rows]
        return found


def placement_arrays(state: Position, player: int, fief: int, card: str,
                     action: str) -> PlacementArrays:
    """Every placement of `fief` legal now under a region card and an action card."""
    return _arrays(state, player, fief, placement_rows(state, player, fief, card, action))


def _arrays(state: Position, player: int, fief: int, rows: np.ndarray) -> PlacementArrays:
    return _arrays_from(state.rules, _league_context(state, player), fief, rows)


def _arrays_from(rules: Rules, leagues: LeagueContext, fief: int, rows: np.ndarray
                 ) -> PlacementArrays:
    cells = rules.fief_placements(fief).cells[rows]
    points = (_points(rules, leagues, fief, rows) if len(rows)
              else np.zeros(0, dtype=np.int32))
    return PlacementArrays(fief, rows, cells, points, rules)


_INT8 = np.dtype(np.int8)

#: The placements and Weddings of a list without any (read-only: every such list shares them).
_NO_ROWS = np.zeros(0, dtype=np.int32)
_NO_WEDDINGS = np.zeros((0, 2), dtype=np.int32)
_NO_ROWS.setflags(write=False)
_NO_WEDDINGS.setflags(write=False)


class LegalActions(Sequence[Action]):
    """The legal actions of one player, built on demand (placements can number thousands).

    In order: the donation, the placements of this round's fief, then the Weddings. Besides
    the sequence, `placement_arrays()` and `wedding_pairs` give the placements and Weddings
    as arrays for vectorised valuation."""

    def __init__(self, fixed: Sequence[Action], player: int = -1, fief: int | None = None,
                 state: Position | None = None, rows: np.ndarray | None = None,
                 weddings: np.ndarray | None = None) -> None:
        self._fixed = fixed if type(fixed) is tuple else tuple(fixed)
        self.player = player
        self.fief = fief
        if rows is None:
            rows = _NO_ROWS
        if weddings is None:
            weddings = _NO_WEDDINGS
        self._rows, self._weddings = rows, weddings
        # sizes kept: a random game asks for its length and one entry at every step
        self._n_fixed = n_fixed = len(self._fixed)
        self._n_rows = n_rows = len(rows)
        self._len = n_fixed + n_rows + len(weddings)
        self._arrays: PlacementArrays | None = None
        self._lazy: LeagueFacts | None = None
        if state is not None:
            self._coords = state.rules.board.coords
            self._table = state.rules.tables.fiefs[fief] if fief is not None and n_rows else None
            if fief is not None and n_rows:
                # the arrays are made when asked for, from what scoring needs taken now: the
                # list keeps no reference to the position (a bot is handed it)
                self._lazy = _league_facts(state, player)

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, i: int) -> Action: ...
    @overload
    def __getitem__(self, i: slice) -> list[Action]: ...

    def __getitem__(self, i: int | slice) -> Action | list[Action]:
        if type(i) is not int:
            if isinstance(i, slice):
                return [self[j] for j in range(*i.indices(len(self)))]
            i = operator.index(i)
        n = self._len
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(i)
        if i < self._n_fixed:
            return self._fixed[i]
        i -= self._n_fixed
        if i < self._n_rows:
            table = self._table
            assert self.fief is not None and table is not None
            code = table.codes[self._rows.item(i)]
            return PlaceFief(self.player, self.fief, self._coords[code // 6], code % 6)
        i -= self._n_rows
        second: int = self._weddings.item(i, 1)
        return Wedding(self.player, self._coords[self._weddings.item(i, 0)],
                       self._coords[second] if second >= 0 else None)

    def __iter__(self) -> Iterator[Action]:
        for i in range(len(self)):
            yield self[i]

    @property
    def fixed(self) -> tuple[Action, ...]:
        """The actions listed before the placements (the donation while placing)."""
        return self._fixed

    @property
    def placement_rows(self) -> np.ndarray:
        """(K,) rows of the fief's placement table (`Rules.fief_placements`); entry i is
        `placement(i)`."""
        return self._rows

    @property
    def placement_count(self) -> int:
        return len(self._rows)

    def placement_arrays(self) -> PlacementArrays | None:
        """The legal placements as arrays with their points now (None when there are none)."""
        if self._arrays is None and self._lazy is not None:
            assert self.fief is not None
            self._arrays = _arrays_from(self._lazy[0], _context_of(*self._lazy), self.fief,
                                        self._rows)
        return self._arrays

    @property
    def wedding_pairs(self) -> np.ndarray:
        """(W, 2) hex indices of each legal Wedding's rings, the second -1 for a single ring;
        entry j is `wedding(j)`. Pairs are listed once."""
        return self._weddings

    def placement(self, i: int) -> PlaceFief:
        """The i-th placement (entry i of `placement_arrays()`)."""
        action = self[len(self._fixed) + i]
        assert isinstance(action, PlaceFief)
        return action

    def wedding(self, j: int) -> Wedding:
        """The Wedding of `wedding_pairs[j]`."""
        action = self[len(self._fixed) + len(self._rows) + j]
        assert isinstance(action, Wedding)
        return action

    def second_rings(self, first: Hex) -> list[Hex]:
        """Hexes a second ring may take beside a first ring on `first` (pairs are listed once,
        so both columns are searched)."""
        out = []
        for a, b in self._weddings.tolist():
            if b < 0:
                continue
            if self._coords[a] == first:
                out.append(self._coords[b])
            elif self._coords[b] == first:
                out.append(self._coords[a])
        return sorted(set(out))


def legal_actions(state: Position, player: int | None = None) -> LegalActions:
    """Everything `player` may do now (the player to move while placing, by default).

    Works on a `GameState` and on a `PlayerView` of the same player.
    """
    if player is None:
        movers = state.to_move()
        if not movers:
            return LegalActions(())
        player = movers[0]
    if not 0 <= player < len(state.players):
        raise ValueError(f"no player {player} in a {len(state.players)}-player game")
    p = state.players[player]
    phase = state.phase
    if phase is Phase.PLANNING:
        if p.has_planned:
            return LegalActions(())
        return _legal_plans(state, player)
    if phase is not Phase.PLACING or state.order[state.turn] != player:
        return LegalActions(())
    plan = p.plan
    assert plan is not None and p.fief is not None
    rows = placement_rows(state, player, p.fief, plan.region, plan.action)
    weddings = None
    if plan.action == ALLIANCE and p.rings > 0:
        # The Wedding is the alternative of the Alliance card; both sub-options are legal.
        weddings = _wedding_pairs(state, player, plan.region)
    return LegalActions(_DONATIONS[player], player, p.fief, state, rows, weddings)


#: The donation of each seat, as the start of its list of turns (actions are frozen values).
_DONATIONS = tuple((Donate(seat),) for seat in range(MAX_PLAYERS))


def _legal_plans(state: Position, player: int) -> LegalActions:
    p = state.players[player]
    privilege = PRIVILEGE not in p.resting and p.rings > 0
    key = (player, p.resting, privilege)
    plans = state.rules.plan_lists.get(key)
    if plans is None:  # plans are frozen: one list serves every game on these rules
        regions = [c for c in state.rules.region_cards if c not in p.resting]
        actions = [c for c in ACTION_CARDS if c not in p.resting]
        made = LegalActions(tuple(Plan(player, r, a, privileged)
                                  for privileged in (False, True)[:1 + privilege]
                                  for r in regions for a in actions))
        state.rules.plan_lists[key] = made
        return made
    return plans


def placement_rows(state: Position, player: int, fief: int, card: str,
                   action: str) -> np.ndarray:
    """Rows of the fief's placement table legal now under a region card and an action card."""
    found = state.rules.candidate_set(fief, card, action)
    if not len(found.rows):
        return found.rows
    return found.free(state.fief_owner, state.ring_owner, player)


def free_placements(state: Position, player: int, fief: int) -> np.ndarray:
    """Rows of the fief's placement table that fit the current map under any plan."""
    return state.rules.tables.every_row(fief).free(state.fief_owner, state.ring_owner, player)


#: 0-d arrays to compare owner arrays with: numpy compares with a 0-d array of the array's
#: own type at half the cost of a Python number.
_NONE8 = np.array(0, dtype=np.int8)
_SEAT8 = tuple(np.array(seat, dtype=np.int8) for seat in range(MAX_PLAYERS))


def _ring_allowed(state: Position, player: int) -> np.ndarray:
    """Hexes where `player` may put a ring: no ring yet and not the player's own fief (NOTES 3)."""
    fiefs, rings = state.fief_owner, state.ring_owner
    allowed: np.ndarray
    if fiefs.dtype is _INT8 and rings.dtype is _INT8 and 0 <= player < MAX_PLAYERS:
        allowed = (rings < _NONE8) & (fiefs != _SEAT8[player])
    else:
        allowed = (rings < 0) & (fiefs != player)
    return allowed


def _wedding_pairs(state: Position, player: int, card: str) -> np.ndarray:
    """(first, second) ring hexes; second -1 for a single ring. Pairs are listed once."""
    frame = state.rules.wedding_frame(card)
    allowed = _ring_allowed(state, player)
    pairs: np.ndarray
    if state.players[player].rings < 2:
        pairs = frame.single_pairs[allowed[frame.firsts]].view(np.int32).reshape(-1, 2)
        return pairs
    ok = allowed[frame.every_first]
    ok &= allowed[frame.every_second]
    ok &= frame.every_listed
    pairs = frame.every_pair[ok].view(np.int32).reshape(-1, 2)
    return pairs


def wedding_pairs(state: Position, player: int, card: str) -> np.ndarray:
    """Every Wedding open to `player` under a region card, as (first, second) hex indices
    (second -1 for a single ring); used by bots to value a Wedding before planning it."""
    if state.players[player].rings < 1:
        return np.zeros((0, 2), dtype=np.int32)
    return _wedding_pairs(state, player, card)


# ---------------------------------------------------------------------------------------------
# Applying actions


def apply(state: GameState, action: object) -> GameState:
    """The state after `action`; raises `IllegalAction` (and changes nothing) if it is illegal.
    Anything may be passed as `action`, compiled or not: what is no action is refused alike."""
    new = state.clone()
    apply_in_place(new, action)
    return new


def apply_in_place(state: GameState, action: object) -> None:
    """Like `apply` but mutating `state`; for search code that owns its state.

    Every check runs before the first change, so an illegal action leaves `state` as it was.
    """
    if state.phase is Phase.OVER:
        raise IllegalAction("game-over", "illegal.game-over")
    if not isinstance(action, _ACTION_TYPES):
        raise IllegalAction("unknown-action", "illegal.unknown-action", {"action": action})
    if not isinstance(action.player, int) or not 0 <= action.player < len(state.players):
        raise IllegalAction("unknown-player", "illegal.unknown-player",
                            {"player": action.player, "players": len(state.players)})
    if isinstance(action, Plan):
        _apply_plan(state, action)
    else:
        _apply_turn(state, action)


_ACTION_TYPES = (Plan, PlaceFief, Wedding, Donate)


def _apply_plan(state: GameState, plan: Plan) -> None:
    if state.phase is not Phase.PLANNING:
        raise IllegalAction("phase", "illegal.placing-phase")
    p = state.players[plan.player]
    who = p.name
    if p.plan is not None:
        raise IllegalAction("planned-already", "illegal.planned-already", {"who": who})
    rules = state.rules
    if plan.region not in rules.region_cards:
        known = ", ".join(rules.region_cards)
        raise IllegalAction("region-card", "illegal.region-card",
                            {"card": plan.region, "known": known})
    if plan.action not in ACTION_CARDS:
        raise IllegalAction("action-card", "illegal.action-card", {"card": plan.action})
    resting = p.resting
    if resting and (plan.region in resting or plan.action in resting
                    or (plan.privilege and PRIVILEGE in resting)):
        for card in plan.cards():
            if card in resting:
                raise IllegalAction("resting-card", "illegal.resting-card", {"card_id": card})
    if plan.privilege and p.rings < 1:
        raise IllegalAction("privilege-ring", "illegal.privilege-ring", {"who": who})
    p.plan = plan
    state.history.append(plan)
    for q in state.players:
        if q.plan is None:
            return
    _reveal(state)


def turn_order_key(state: Position, player: int) -> tuple[int, int, int]:
    """Phase 3: King's Privilege first, then Harbors, Cities, Alliance; ties by lower card."""
    p = state.players[player]
    assert p.plan is not None
    return (0 if p.plan.privilege else 1, ACTION_ORDER[p.plan.action], p.card_number())


def _reveal(state: GameState) -> None:
    """Phase 3: reveal, pay for each King's Privilege, return last round's cards, fix the order."""
    for p in state.players:
        assert p.plan is not None
        if p.plan.privilege:
            p.rings -= 1
        p.resting = ()
        p.played = p.plan.cards()
    order = tuple(sorted(range(len(state.players)), key=lambda i: turn_order_key(state, i)))
    state.order = order
    state.turn = 0
    state.phase = Phase.PLACING
    plans = tuple(p.plan for p in state.players if p.plan is not None)
    state.journal.append(PlansRevealed(state.round, plans, order))


def _apply_turn(state: GameState, action: PlaceFief | Wedding | Donate) -> None:
    if state.phase is not Phase.PLACING:
        raise IllegalAction("phase", "illegal.planning-phase")
    current = state.order[state.turn]
    if action.player != current:
        raise IllegalAction("turn-order", "illegal.turn-order",
                            {"who": state.players[current].name})
    p = state.players[action.player]
    assert p.fief is not None and p.plan is not None
    if isinstance(action, PlaceFief):
        hexes, events, castles = _fief_move(state, action)
        _put_fief(state, action.player, p.fief, hexes, castles)
    elif isinstance(action, Wedding):
        hexes, events = _check_wedding(state, action)
        for h in hexes:
            state.ring_owner[h] = action.player
            state.pieces.append(Piece(action.player, "ring", (h,), None, state.round))
        p.rings -= len(hexes)
    else:
        hexes = ()
        events = [ScoreEvent(state.round, action.player, POINTS_DONATION, Reason.DONATION,
                             detail("detail.donated-fief", fief=state.board.fief_name(p.fief)))]
        state.church.append((action.player, p.fief))
    _score(state, events)
    state.history.append(action)
    state.journal.append(TurnPlayed(state.round, action.player, action, tuple(hexes),
                                    tuple(events)))
    p.fief = None
    p.fiefs_left -= 1
    state.turn += 1
    if state.turn == len(state.order):
        _end_round(state)


def _put_fief(state: GameState, player: int, fief: int, hexes: Sequence[int],
              castles: Sequence[int]) -> None:
    owner = state.fief_owner
    for h in hexes:
        owner[h] = player
    state.pieces.append(Piece(player, "fief", tuple(hexes), fief, state.round, tuple(castles)))


def _score(state: GameState, events: Sequence[ScoreEvent]) -> None:
    for e in events:
        q = state.players[e.player]
        q.score += e.points
        if e.sea is not None:
            q.leagues = q.leagues | {e.sea}
            state.leagues_formed = state.leagues_formed | {e.sea}


# -- fief placement ---------------------------------------------------------------------------

#: The rule each static problem of `placement.static_problem` breaks (its message: illegal.NAME).
_STATIC_RULES = {"off-map": "placing-2", "castle-at-sea": "placing-3", "barrier": "placing-4"}


def _region_names(state: Position, card: str) -> tuple[str, ...]:
    """The names of the regions a region card allows, as the board prints them."""
    return tuple(state.board.regions[r].name for r in state.rules.card_regions(card))


def _check_fief(state: Position, action: PlaceFief) -> tuple[list[int], list[ScoreEvent]]:
    hexes, events, _ = _fief_move(state, action)
    return list(hexes), events


def _fief_move(state: Position, action: PlaceFief
               ) -> tuple[Sequence[int], list[ScoreEvent], Sequence[int]]:
    """A fief placement checked: its hexes, its scoring events and its castles' hexes.

    A placement whose (anchor, rotation) is its table row's own is checked from the row's
    static facts (hexes, cities, harbors, regions touched, castles); only the owners of its
    hexes are read from the map. Anything else, or any broken rule, goes the long way, which
    names the rule."""
    p = state.players[action.player]
    plan = p.plan
    assert plan is not None and p.fief is not None
    rules = state.rules
    rotation, at = action.rotation, action.anchor
    if (action.fief == p.fief and type(rotation) is int and 0 <= rotation < 6
            and type(at) is tuple and len(at) == 2 and type(at[0]) is int
            and type(at[1]) is int):
        anchor = rules.board.index_of.get(at)
        table = rules.tables.fiefs[p.fief]
        row = None if anchor is None else table.canonical_row(anchor, rotation)
        if row is not None:
            hexes = table.cell_tuples[row]
            fiefs, rings, player = state.fief_owner, state.ring_owner, action.player
            free = True
            for h in hexes:
                if fiefs.item(h) >= 0 or rings.item(h) == player:
                    free = False
                    break
            harbors = table.harbor_counts[row]
            if (free and table.region_bits[row] & rules.card_region_bits[plan.region]
                    and (table.city_counts[row], harbors) in ACTION_COVERAGE[plan.action]):
                return (hexes, _events(state, player, hexes, harbors > 0),
                        table.castles(row))
    checked = _checked_fief_hexes(state, action)
    return checked, placement_events(state, action.player, checked), _castles(rules, action)


def _checked_fief_hexes(state: Position, action: PlaceFief) -> list[int]:
    """The hexes of a fief placement, every rule checked the long way (`IllegalAction`
    names the first rule broken)."""
    p = state.players[action.player]
    plan = p.plan
    assert plan is not None and p.fief is not None
    board = state.board
    if action.fief != p.fief:
        raise IllegalAction("take-your-fief", "illegal.take-your-fief",
                            {"who": p.name, "fief": board.fief_name(p.fief)})
    if not isinstance(action.rotation, int) or not 0 <= action.rotation < 6:
        raise IllegalAction("rotation", "illegal.rotation", {"rotation": action.rotation})
    anchor = _hex_index(board, action.anchor)
    if anchor is None:
        raise IllegalAction("placing-2", "illegal.off-map")
    hexes = _fief_hexes(state.rules, p.fief, anchor, action.rotation)
    fiefs, rings = state.fief_owner, state.ring_owner
    taken = [h for h in hexes if fiefs.item(h) >= 0]
    if taken:
        raise IllegalAction("placing-2", "illegal.fief-taken", {"hexes": taken})
    own_ring = [h for h in hexes if rings.item(h) == action.player]
    if own_ring:
        raise IllegalAction("rings-own", "illegal.own-ring", {"hexes": own_ring, "who": p.name})
    land = state.rules.card_land[plan.region]
    if not any(land.item(h) for h in hexes):
        raise IllegalAction("region-card", "illegal.fief-region",
                            {"region_names": _region_names(state, plan.region)})
    cities = sum(1 for h in hexes if h in board.city_at)
    harbors = sum(1 for h in hexes if h in board.harbor_at)
    if not action_allows(plan.action, cities, harbors):
        raise IllegalAction("action-card", "illegal.fief-action",
                            {"card_id": plan.action, "cities": cities, "harbors": harbors})
    return hexes


def _fief_hexes(rules: Rules, fief: int, anchor: int, rotation: int) -> list[int]:
    """Hexes a placement covers, in the fief's cell order; raises if it can never be legal.

    Every statically legal (anchor, rotation) is in the placement table: its own row gives the
    hexes at once, and only a miss needs the slower check that names the rule broken."""
    table = rules.fief_placements(fief)
    row = table.canonical_row(anchor, rotation)
    if row is not None:
        return list(table.cell_tuples[row])
    board = rules.board
    shape = board.fiefs[fief]
    if table.row_of(anchor, rotation) is None:
        problem = static_problem(board, shape, anchor, rotation)
        if problem is not None:
            raise IllegalAction(_STATIC_RULES[problem], f"illegal.{problem}")
    return [h for h in cells_of(board, shape, anchor, rotation) if h is not None]


def _hex_index(board: Board, value: object) -> int | None:
    """The index of a `(column, row)` hex, or None for anything else (off the map, malformed)."""
    if not isinstance(value, tuple | list) or len(value) != 2:
        return None
    col, row = value
    if not isinstance(col, int) or not isinstance(row, int):
        return None
    return board.index_of.get((col, row))


def placement_events(state: Position, player: int, hexes: Sequence[int]) -> list[ScoreEvent]:
    """Scoring while playing (NOTES 9): 3 or 1 per city and harbor, 10 for a new sea league."""
    harbor_at = state.board.harbor_at
    return _events(state, player, hexes, any(h in harbor_at for h in hexes))


def _events(state: Position, player: int, hexes: Sequence[int], harbor: bool
            ) -> list[ScoreEvent]:
    """`placement_events`, told whether any of the hexes is a harbor."""
    places = state.rules.scoring_places
    events = []
    for h in hexes:
        place = places.get(h)
        if place is not None:
            events.append(ScoreEvent(state.round, player, place[0], place[1], place[2]))
    if harbor:
        formed = _move_leagues(state, player, hexes)
        if formed:
            board = state.board
            for sea in sorted(s for s, i in board.sea_index.items() if i in formed):
                events.append(ScoreEvent(state.round, player, POINTS_SEA_LEAGUE,
                                         Reason.SEA_LEAGUE,
                                         detail("detail.league", sea=board.seas[sea].name), sea))
    return events


def open_seas(state: Position, player: int) -> np.ndarray:
    """Per sea, whether `player` may still score its league (`sea_open`)."""
    return _open_seas(state.board, state.rules.variants, state.players[player].leagues,
                      state.leagues_formed)


def _open_seas(board: Board, variants: frozenset[str], leagues: frozenset[str],
               formed: frozenset[str]) -> np.ndarray:
    closed = closed_seas(variants, leagues, formed)
    if not closed:
        return np.ones(len(board.sea_ids), dtype=bool)
    return np.array([sea not in closed for sea in board.sea_ids], dtype=bool)


def sea_open(variants: frozenset[str], leagues: frozenset[str], formed: frozenset[str],
             sea: str) -> bool:
    """Whether a player who scored `leagues` may still score the league of `sea`."""
    return sea not in closed_seas(variants, leagues, formed)


def closed_seas(variants: frozenset[str], leagues: frozenset[str],
                formed: frozenset[str]) -> frozenset[str]:
    """The seas whose league a player who scored `leagues` may no longer score: those, and
    under the one-league-per-sea variant every sea with a league by anyone (`formed`)."""
    if VARIANT_ONE_LEAGUE_PER_SEA in variants:
        return leagues | formed
    return leagues


def new_leagues(state: Position, player: int, cells: np.ndarray,
                valid: np.ndarray | None = None) -> np.ndarray:
    """(rows, seas) bool: the sea leagues each row of hexes, covered as one move, would score
    for `player` now (NOTES 9): a sea the move adds a harbor of, where the player then holds
    `LEAGUE_SIZE` harbors, and whose league is open to them. `valid` masks padding cells."""
    if len(cells) == 1 and valid is None:
        return _new_leagues_of_move(state, player, cells[0])
    return _new_leagues(state.board, _league_context(state, player), cells, valid)


#: What scoring a sea league needs of a position for one player: the harbors they hold, and
#: per sea whether its league is still open to them (public facts, taken at one moment).
LeagueContext = tuple[np.ndarray, np.ndarray]


#: What scoring a sea league needs of a position for one player, copied at one moment (two
#: small arrays, or their bytes; the rest is immutable), so a list of legal actions can score
#: its placements later without keeping the position: rules, player, fief owners, ring
#: owners, the player's leagues, the leagues formed by anyone.
LeagueFacts = tuple[Rules, int, np.ndarray | bytes, np.ndarray | bytes, frozenset[str],
                    frozenset[str]]


def _league_facts(state: Position, player: int) -> LeagueFacts:
    """The facts now; the owner arrays kept as byte strings when they are one byte a hex (a
    copy at half an array's cost: this runs on every placing turn, used or not)."""
    fiefs, rings = state.fief_owner, state.ring_owner
    if fiefs.dtype is _INT8 and rings.dtype is _INT8:
        return (state.rules, player, fiefs.tobytes(), rings.tobytes(),
                state.players[player].leagues, state.leagues_formed)
    return (state.rules, player, fiefs.copy(), rings.copy(), state.players[player].leagues,
            state.leagues_formed)


def _context_of(rules: Rules, player: int, fiefs: np.ndarray | bytes,
                rings: np.ndarray | bytes, leagues: frozenset[str], formed: frozenset[str]
                ) -> LeagueContext:
    board = rules.board
    if isinstance(fiefs, bytes):
        fiefs = np.frombuffer(fiefs, dtype=np.int8)
    if isinstance(rings, bytes):
        rings = np.frombuffer(rings, dtype=np.int8)
    mine = ((fiefs == player) | (rings == player)) & board.is_harbor
    return mine, _open_seas(board, rules.variants, leagues, formed)


def _league_context(state: Position, player: int) -> LeagueContext:
    """The context now, read straight from the position (nothing kept, nothing to copy)."""
    return _context_of(state.rules, player, state.fief_owner, state.ring_owner,
                       state.players[player].leagues, state.leagues_formed)


def _new_leagues(board: Board, leagues: LeagueContext, cells: np.ndarray,
                 valid: np.ndarray | None = None) -> np.ndarray:
    mine, open_ = leagues
    seas = len(board.sea_index)
    harbors = board.is_harbor[cells] & ~mine[cells]
    if valid is not None:
        harbors &= valid
    r, k = np.nonzero(harbors)
    if not len(r):  # no new harbor in any row: no league
        return np.zeros((len(cells), seas), dtype=bool)
    # harbors added per (row, sea), counted in one pass
    flat = r * seas + board.harbor_sea_number[cells[r, k]]
    adds = np.bincount(flat, minlength=len(cells) * seas).reshape(len(cells), seas)
    have = np.bincount(board.harbor_sea_number[mine], minlength=seas)
    return (adds > 0) & (have + adds >= LEAGUE_SIZE) & open_


def _new_leagues_of_move(state: Position, player: int, cells: np.ndarray) -> np.ndarray:
    """`new_leagues` of the one move being played, as a row of the (rows, seas) answer."""
    out = np.zeros((1, len(state.board.sea_index)), dtype=bool)
    out[0, list(_move_leagues(state, player, cells.tolist()))] = True
    return out


def _move_leagues(state: Position, player: int, hexes: Sequence[int]) -> set[int]:
    """The sea numbers whose league one move covering `hexes` scores, counted directly: a
    handful of hexes, where setting up arrays would cost more than the count (this runs on
    every placement)."""
    board = state.board
    sea_of = board.harbor_seas
    fiefs, rings = state.fief_owner, state.ring_owner
    added: dict[int, int] = {}
    for h in hexes:
        sea = sea_of[h]
        if sea >= 0 and fiefs.item(h) != player and rings.item(h) != player:
            added[sea] = added.get(sea, 0) + 1
    if not added:
        return set()
    closed = closed_seas(state.rules.variants, state.players[player].leagues,
                         state.leagues_formed)
    formed = set()
    for sea, add in added.items():
        if board.sea_ids[sea] in closed:
            continue
        have = add
        for h in board.sea_harbor_list[sea]:
            if fiefs.item(h) == player or rings.item(h) == player:
                have += 1
                if have >= LEAGUE_SIZE:
                    formed.add(sea)
                    break
        else:
            if have >= LEAGUE_SIZE:
                formed.add(sea)
    return formed


def placement_points(state: Position, player: int, fief: int, rows: np.ndarray) -> np.ndarray:
    """Points each placement row would score now (cities, harbors, new sea leagues), vectorised.

    Works on a state or a view; bots and the placement preview use it.
    """
    return _points(state.rules, _league_context(state, player), fief, rows)


def wedding_points(state: Position, player: int, pairs: np.ndarray) -> np.ndarray:
    """Points each Wedding would score now, vectorised as `placement_points`: `pairs` as
    `LegalActions.wedding_pairs` gives them (the second ring -1 for one ring)."""
    rules, leagues = state.rules, _league_context(state, player)
    points = np.zeros(len(pairs), dtype=np.int32)
    single = pairs[:, 1] < 0
    for rows, rings in ((single, 1), (~single, 2)):
        if rows.any():
            points[rows] = _cell_points(rules, leagues, pairs[rows][:, :rings])
    return points


def _points(rules: Rules, leagues: LeagueContext, fief: int, rows: np.ndarray) -> np.ndarray:
    """`_cell_points` of the fief's table rows, from each row's points and harbors per sea
    worked out once: only rows whose harbors could complete a league open to the player are
    scored hex by hex (a planning hint scores thousands of rows, most of them far from any
    league)."""
    scores = _row_scores(rules, fief)
    points: np.ndarray = scores.points[rows]
    mine, open_ = leagues
    board = rules.board
    have = np.bincount(board.harbor_sea_number[mine], minlength=len(board.sea_index))
    reach = open_ & (have + scores.most >= LEAGUE_SIZE)
    if not reach.any():
        return points
    adds = scores.harbors[rows][:, reach]  # at most: a harbor the player holds adds none
    maybe = np.flatnonzero(((adds > 0) & (have[reach] + adds >= LEAGUE_SIZE)).any(axis=1))
    if len(maybe):
        cells = rules.fief_placements(fief).cells[rows[maybe]]
        formed = _new_leagues(board, leagues, cells)
        points[maybe] += POINTS_SEA_LEAGUE * formed.sum(axis=1).astype(np.int32)
    return points


@dataclass(frozen=True)
class RowScores:
    """What each row of a fief's placement table scores whatever the position: the points of
    its hexes, its harbors per sea, and the most harbors of each sea any row covers."""

    points: np.ndarray  # (K,) int32
    harbors: np.ndarray  # (K, seas) int8
    most: np.ndarray  # (seas,)


@lru_cache(maxsize=1024)
def _row_scores(rules: Rules, fief: int) -> RowScores:
    """`RowScores` of a fief, made once per rules (shared by every game of a scenario)."""
    cells = rules.fief_placements(fief).cells
    board = rules.board
    seas = len(board.sea_index)
    points = rules.hex_points[cells].sum(axis=1).astype(np.int32)
    sea = board.harbor_sea_number[cells]
    r, k = np.nonzero(sea >= 0)
    harbors = np.bincount(r * seas + sea[r, k], minlength=len(cells) * seas)
    harbors = harbors.reshape(len(cells), seas).astype(np.int8)
    most = harbors.max(axis=0) if len(cells) else np.zeros(seas, dtype=np.int8)
    for array in (points, harbors, most):
        array.setflags(write=False)
    return RowScores(points, harbors, most)


def _cell_points(rules: Rules, leagues: LeagueContext, cells: np.ndarray) -> np.ndarray:
    points: np.ndarray = rules.hex_points[cells].sum(axis=1).astype(np.int32)
    board = rules.board
    mine, open_ = leagues
    have = np.bincount(board.harbor_sea_number[mine], minlength=len(board.sea_index))
    if not (open_ & (have + cells.shape[1] >= LEAGUE_SIZE)).any():
        return points  # no row holds enough hexes to complete a league open to the player
    if not board.is_harbor[cells].any():
        return points
    formed = _new_leagues(board, leagues, cells)
    found: np.ndarray = points + POINTS_SEA_LEAGUE * formed.sum(axis=1).astype(np.int32)
    return found


def action_events(state: Position, action: Action) -> list[ScoreEvent]:
    """The scoring events an action would produce now, without applying it."""
    if isinstance(action, Donate):
        return [ScoreEvent(state.round, action.player, POINTS_DONATION, Reason.DONATION,
                           detail("detail.donation"))]
    if isinstance(action, PlaceFief):
        return _check_fief(state, action)[1]
    if isinstance(action, Wedding):
        return _check_wedding(state, action)[1]
    return []


def castle_hexes(board: Board, action: PlaceFief) -> list[int]:
    """Hex indices under the castles of a fief placement."""
    anchor = _hex_index(board, action.anchor)
    if anchor is None:
        raise ValueError(f"hex {action.anchor!r} is not on the map")
    fief = board.fiefs[action.fief]
    cells = cells_of(board, fief, anchor, action.rotation)
    _, castles = fief.rotated(action.rotation)
    return [c for c, k in zip(cells, castles, strict=True) if k and c is not None]


def _castles(rules: Rules, action: PlaceFief) -> Sequence[int]:
    """`castle_hexes` of a placement already checked, read from its table row when it has one."""
    table = rules.fief_placements(action.fief)
    row = table.canonical_row(rules.board.index_of[action.anchor], action.rotation)
    return table.castles(row) if row is not None else castle_hexes(rules.board, action)


def covered_hexes(state: Position, action: PlaceFief | Wedding) -> list[int]:
    """Hex indices the action would cover (no legality check beyond the map)."""
    board = state.board
    if isinstance(action, Wedding):
        return [board.index_of[h] for h in (action.first, action.second) if h is not None]
    anchor = _hex_index(board, action.anchor)
    if anchor is None:
        raise ValueError(f"hex {action.anchor!r} is not on the map")
    cells = cells_of(board, board.fiefs[action.fief], anchor, action.rotation)
    return [c for c in cells if c is not None]


# -- the Wedding --------------------------------------------------------------------------------


def _check_wedding(state: Position, action: Wedding) -> tuple[list[int], list[ScoreEvent]]:
    p = state.players[action.player]
    plan = p.plan
    assert plan is not None
    board = state.board
    who = p.name
    if plan.action != ALLIANCE:
        raise IllegalAction("wedding-card", "illegal.wedding-card", {"card_id": WEDDING_CARD})
    needed = 1 if action.second is None else 2
    if p.rings < needed:
        raise IllegalAction("wedding-rings", "illegal.wedding-rings",
                            {"who": who, "ring_count": p.rings, "needed": needed})
    first = _hex_index(board, action.first)
    if first is None:
        raise IllegalAction("placing-2", "illegal.ring-off-map")
    if not state.rules.card_land[plan.region].item(first):
        raise IllegalAction("wedding-region", "illegal.wedding-region",
                            {"region_names": _region_names(state, plan.region)})
    hexes = [first]
    if action.second is not None:
        second = _hex_index(board, action.second)
        if second is None:
            raise IllegalAction("placing-2", "illegal.ring-off-map")
        if second not in board.neighbours[first]:
            raise IllegalAction("wedding-adjacent", "illegal.wedding-adjacent")
        hexes.append(second)
    for h in hexes:
        if state.ring_owner.item(h) >= 0:
            raise IllegalAction("rings-one-per-hex", "illegal.ring-taken", {"hexes": [h]})
        if state.fief_owner.item(h) == action.player:
            raise IllegalAction("rings-own", "illegal.ring-own-fief", {"hexes": [h], "who": who})
    return hexes, placement_events(state, action.player, hexes)


# -- end of round and of game -----------------------------------------------------------------


def uncovered_count(state: Position) -> int:
    """Cities and harbors of flourishing regions with neither a fief nor a ring (NOTES 10)."""
    fiefs, rings = state.fief_owner, state.ring_owner
    if fiefs.dtype is _INT8 and rings.dtype is _INT8:
        # both negative exactly where the sign bit survives their bitwise and
        hexes = state.rules.counted_hexes
        return int(np.count_nonzero((fiefs[hexes] & rings[hexes]) < _NONE8))
    free = (fiefs < 0) & (rings < 0)
    return int(np.count_nonzero(free & state.rules.counted_at_last_turn))


def _end_round(state: GameState) -> None:
    for p in state.players:
        p.resting = p.played  # played cards rest through the next round's planning (NOTES 6)
        p.played = ()
        p.plan = None
    if state.final_round == state.round or state.round >= MAX_ROUNDS or not state.players[0].deck:
        _end_game(state)
        return
    if state.last_turn_check == state.round:
        left = uncovered_count(state)
        last = left <= LAST_TURN_THRESHOLD
        state.journal.append(LastTurnChecked(state.round, state.last_turn_holder, left, last))
        if last:
            state.final_round = state.round + 1
            state.last_turn_check = None
        else:
            state.last_turn_check = state.round + 1
    _start_round(state)


def group_labels(state: Position, player: int) -> tuple[np.ndarray, np.ndarray]:
    """The player's groups of pieces connected through hex sides (NOTES 11; barriers do not
    cut them): per hex the id of the group covering it (-1: none), and each group's size in
    pieces (each fief and each ring counts one). Groups are numbered by their first piece."""
    label = np.full(state.board.hex_count, -1, dtype=np.int32)
    groups = piece_groups(state, player)
    if groups.hexes:
        label[list(groups.hexes)] = groups.labels
    return label, np.array(groups.sizes, dtype=np.int32)


@dataclass(frozen=True, slots=True, eq=False)
class Groups:
    """A player's groups of pieces: the hexes they cover, the group of each of those hexes,
    and each group's size in pieces (groups numbered by their first piece). One object per
    set of pieces while it is remembered, so what is derived from it may be kept by it."""

    hexes: tuple[int, ...]
    labels: tuple[int, ...]
    sizes: tuple[int, ...]


#: Distinct piece sets remembered per rules (a few kilobytes each): a search decision meets
#: the same few hundred again and again.
GROUP_MEMO_SIZE = 1024


def piece_groups(state: Position, player: int) -> Groups:
    """The player's `Groups`, found once per set of pieces (in the order laid)."""
    return _groups(state.rules, tuple(p.hexes for p in state.pieces if p.owner == player))


def _groups(rules: Rules, pieces: tuple[tuple[int, ...], ...]) -> Groups:
    memo = rules.group_memo
    groups = memo.get(pieces)
    if groups is None:
        if len(memo) >= GROUP_MEMO_SIZE:
            memo.clear()
        groups = memo[pieces] = _find_groups(rules.board, pieces)
    return groups


def _find_groups(board: Board, pieces: tuple[tuple[int, ...], ...]) -> Groups:
    """Pieces joined along every side two of their hexes share, each side looked at once
    (from its lower hex); groups numbered by their first piece. Which piece covers a hex is
    read from a list over the map (its number + 1, `_slots`): compiled, a list is read
    without making an object, where a dict look-up boxes every hex number. Pieces that share
    a hex (a position written by hand) take the walk `_walk_groups`, as each hex then has two
    pieces."""
    hexes = tuple(chain.from_iterable(pieces))
    slot = _slots.pop(board.hex_count, None) or [0] * board.hex_count
    try:
        return _joined(board, pieces, hexes, slot)
    finally:
        for h in hexes:
            slot[h] = 0
        _slots[board.hex_count] = slot


#: A list over the map per map size, all zero between uses: made and dropped each time, its
#: 1,500 entries cost as much as the grouping. Taken out while in use, so that two threads
#: never share one.
_slots: dict[int, list[int]] = {}


def _joined(board: Board, pieces: tuple[tuple[int, ...], ...], hexes: tuple[int, ...],
            slot: list[int]) -> Groups:
    count = len(pieces)
    piece_of: list[int] = []
    for i in range(count):
        for h in pieces[i]:
            if slot[h]:
                return _walk_groups(board.neighbours, pieces,
                                    {h: i for i, cells in enumerate(pieces) for h in cells})
            slot[h] = i + 1
            piece_of.append(i)
    parent = list(range(count))
    later = board.later_neighbours
    for k in range(len(hexes)):
        i = piece_of[k]
        for n in later[hexes[k]]:
            j = slot[n] - 1
            if j >= 0 and j != i:
                while parent[i] != i:
                    i = parent[i]
                while parent[j] != j:
                    j = parent[j]
                if i < j:
                    parent[j] = i
                elif j < i:
                    parent[i] = j
    group_of: list[int] = []
    sizes: list[int] = []
    for i in range(count):
        root = i
        while parent[root] != root:
            root = parent[root]
        if root == i:  # a group's first piece: the lowest of its pieces is its root
            group_of.append(len(sizes))
            sizes.append(1)
        else:
            group = group_of[root]
            group_of.append(group)
            sizes[group] += 1
    return Groups(hexes, tuple([group_of[i] for i in piece_of]), tuple(sizes))


def _walk_groups(neighbours: Sequence[Sequence[int]], pieces: tuple[tuple[int, ...], ...],
                 piece_at: dict[int, int]) -> Groups:
    """A walk over touching pieces from each piece not yet in a group, in the order laid."""
    group_of = [-1] * len(pieces)
    sizes: list[int] = []
    for start in range(len(pieces)):
        if group_of[start] >= 0:
            continue
        group = len(sizes)
        group_of[start] = group
        size, todo = 1, [start]
        while todo:
            for h in pieces[todo.pop()]:
                for n in neighbours[h]:
                    j = piece_at.get(n)
                    if j is not None and group_of[j] < 0:
                        group_of[j] = group
                        size += 1
                        todo.append(j)
        sizes.append(size)
    return Groups(tuple(piece_at), tuple(group_of[i] for i in piece_at.values()), tuple(sizes))


def player_groups(state: Position, player: int) -> list[int]:
    """Sizes of the player's groups of pieces, largest first (NOTES 11)."""
    return sorted(piece_groups(state, player).sizes, reverse=True)


def largest_group(state: Position, player: int) -> int:
    groups = player_groups(state, player)
    return groups[0] if groups else 0


def covered_places(state: Position, player: int) -> int:
    """Cities and harbors covered by the player's fiefs or rings (the first tie-break)."""
    mine = (state.fief_owner == player) | (state.ring_owner == player)
    return int(np.count_nonzero(mine & (state.board.is_city | state.board.is_harbor)))


def _covered_counts(state: Position) -> list[int]:
    """`covered_places` of every player in one pass over the cities and harbors."""
    n = len(state.players)
    places = state.board.place_hexes
    counts = [0] * n
    for fief, ring in zip(state.fief_owner[places].tolist(), state.ring_owner[places].tolist(),
                          strict=True):
        if 0 <= fief < n:
            counts[fief] += 1
        if 0 <= ring < n and ring != fief:
            counts[ring] += 1
    return counts


def objective_cities(state: Position, player: int) -> list[str]:
    """City ids of the player's objective card that the player covers (none if hidden)."""
    p = state.players[player]
    if p.objective is None:
        return []
    fiefs, rings = state.fief_owner, state.ring_owner
    return [c.id for c in state.board.objective_cities(p.objective)
            if fiefs.item(c.hex) == player or rings.item(c.hex) == player]


def _end_game(state: GameState) -> None:
    """Final scoring (NOTES 11): the Gonzaga tile, then every hidden objective."""
    n = len(state.players)
    events: list[ScoreEvent] = []
    laid: list[list[tuple[int, ...]]] = [[] for _ in range(n)]
    for piece in state.pieces:  # each player's pieces in the order laid (`piece_groups`)
        if 0 <= piece.owner < n:
            laid[piece.owner].append(piece.hexes)
    groups = [max(_groups(state.rules, tuple(hexes)).sizes, default=0) for hexes in laid]
    best = max(groups)
    if best > 0:
        for i in range(n):
            if groups[i] == best:
                events.append(ScoreEvent(state.round, i, POINTS_GONZAGA_TILE, Reason.GONZAGA_TILE,
                                         detail("detail.tile", size=best)))
    for i in range(n):
        covered = len(objective_cities(state, i))
        pts = OBJECTIVE_POINTS[covered]
        events.append(ScoreEvent(state.round, i, pts, Reason.OBJECTIVE,
                                 detail("detail.objective", covered=covered,
                                        total=len(OBJECTIVE_POINTS) - 1)))
    _score(state, events)
    state.winners = winners(state)
    state.phase = Phase.OVER
    state.order = ()
    state.journal.append(GameEnded(state.round, tuple(events), state.winners))


def winners(state: GameState) -> tuple[int, ...]:
    """Most points; tie: most cities and harbors covered; still tied: a shared victory."""
    covered = _covered_counts(state)
    keys = [(p.score, covered[i]) for i, p in enumerate(state.players)]
    best = max(keys)
    return tuple(i for i, k in enumerate(keys) if k == best)


# ---------------------------------------------------------------------------------------------
# Views and resampling


@dataclass(eq=False, slots=True)
class PublicPlayer:
    """What everyone knows of a player; `objective` and `plan` only for the viewer's own seat."""

    name: str
    colour: str
    score: int
    rings: int
    fief: int | None
    resting: tuple[str, ...]
    played: tuple[str, ...]
    has_planned: bool
    fiefs_left: int
    remaining_fiefs: tuple[int, ...]  # fiefs not yet drawn (public: every set is the same)
    leagues: frozenset[str]
    objective: int | None = None
    plan: Plan | None = None

    def card_number(self, fief: int | None = None) -> int:
        return card_number(self, fief)


@dataclass(eq=False)
class PlayerView:
    """A player's information state: everything they may know, nothing they may not."""

    rules: Rules
    viewer: int | None  # None: a spectator
    round: int
    phase: Phase
    order: tuple[int, ...]
    turn: int
    final_round: int | None
    last_turn_check: int | None
    last_turn_holder: int
    fief_owner: np.ndarray
    ring_owner: np.ndarray
    pieces: tuple[Piece, ...]
    church: tuple[tuple[int, int], ...]
    journal: tuple[Entry, ...]
    players: tuple[PublicPlayer, ...]
    leagues_formed: frozenset[str]
    winners: tuple[int, ...]

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


def view(state: GameState, player: int | None) -> PlayerView:
    """What `player` may know (a spectator for None): never another player's objective, anyone's
    future fief cards, or a plan not yet revealed. At the end, objectives are revealed."""
    over = state.phase is Phase.OVER
    players = []
    for i, p in enumerate(state.players):
        own = i == player
        remaining = tuple(sorted(p.deck))
        players.append(PublicPlayer(
            name=p.name, colour=p.colour, score=p.score, rings=p.rings, fief=p.fief,
            resting=p.resting, played=p.played, has_planned=p.plan is not None,
            fiefs_left=p.fiefs_left, remaining_fiefs=remaining, leagues=p.leagues,
            objective=p.objective if (own or over) else None,
            plan=p.plan if (own or state.phase is Phase.PLACING) else None,
        ))
    return PlayerView(
        rules=state.rules, viewer=player, round=state.round, phase=state.phase,
        order=state.order, turn=state.turn, final_round=state.final_round,
        last_turn_check=state.last_turn_check, last_turn_holder=state.last_turn_holder,
        fief_owner=state.fief_owner.copy(), ring_owner=state.ring_owner.copy(),
        pieces=tuple(state.pieces), church=tuple(state.church), journal=tuple(state.journal),
        players=tuple(players), leagues_formed=state.leagues_formed, winners=state.winners,
    )


def resample(v: PlayerView, rng: random.Random) -> GameState:
    """A full state consistent with a view: hidden objectives and fief decks dealt anew.

    Plans that the viewer cannot see yet are dropped (those players are to plan again), so a
    search over the result never peeks at a secret plan.
    """
    me = v.viewer
    objectives, decks, setup = _deal(v, rng)
    players = [PlayerState(p.name, p.colour, objective, deck, p.fief, p.rings, p.score,
                           p.resting, p.played, p.plan, p.leagues, p.fiefs_left)
               for p, objective, deck in zip(v.players, objectives, decks, strict=True)]
    state = GameState(
        rules=v.rules, setup=setup, players=players, round=v.round, phase=v.phase,
        order=v.order, turn=v.turn, final_round=v.final_round,
        last_turn_check=v.last_turn_check, fief_owner=v.fief_owner.copy(),
        ring_owner=v.ring_owner.copy(), pieces=list(v.pieces), church=list(v.church),
        journal=list(v.journal), history=[], leagues_formed=v.leagues_formed,
        winners=v.winners,
    )
    if v.phase is Phase.PLANNING:
        for i, p in enumerate(state.players):
            if i != me:
                p.plan = None
    return state


def _deal(v: PlayerView, rng: random.Random) -> tuple[list[int], list[list[int]], Setup]:
    """The hidden cards of a resampled state: each player's objective and fief deck, and the
    setup they make, drawn from `rng` in one fixed order."""
    known = {p.objective for p in v.players if p.objective is not None}
    pool = [o for o in sorted(v.board.objectives) if o not in known]
    shuffle(pool, rng)
    objectives, decks = [], []
    for p in v.players:
        deck = list(p.remaining_fiefs)
        shuffle(deck, rng)
        decks.append(deck)
        objectives.append(p.objective if p.objective is not None else pool.pop())
    setup = Setup(v.rules.scenario.name, tuple(p.name for p in v.players),
                  tuple(p.colour for p in v.players), tuple(tuple(d) for d in decks),
                  tuple(o or 0 for o in objectives), v.last_turn_holder)
    return objectives, decks, setup


def redeal(position: GameState, v: PlayerView, rng: random.Random, decks: bool = True
           ) -> GameState:
    """A copy of `position` with the hidden cards `resample(v, rng)` would deal (the same
    draws from `rng`).

    For a search whose positions were reached from a resampled `v` by moves within the
    round: those moves read neither the objectives nor the decks (fiefs are drawn when a
    round starts), so the copy is the state the same moves reach from `resample(v, rng)`.

    With `decks=False` only the objectives are dealt anew (other draws from `rng`, the same
    odds) and the decks stay `position`'s, themselves a deal of the view's remaining fiefs:
    for a search that never plays past the round, which draws no fief, the shuffles of
    every deck at every iteration were the largest cost of a deal.
    """
    if not decks:
        return _redeal_objectives(position, v, rng)
    objectives, dealt, setup = _deal(v, rng)
    state = position.clone()
    state.setup = setup
    for p, objective, deck in zip(state.players, objectives, dealt, strict=True):
        p.objective = objective
        p.deck = deck
    return state


def _redeal_objectives(position: GameState, v: PlayerView, rng: random.Random) -> GameState:
    """`position` with the objectives the viewer cannot see drawn anew from those left."""
    known = {p.objective for p in v.players if p.objective is not None}
    pool = [o for o in sorted(v.board.objectives) if o not in known]
    state = position.clone()
    objectives = []
    for seen, p in zip(v.players, state.players, strict=True):
        if seen.objective is None:
            p.objective = pool.pop(int(rng.random() * len(pool)))
        objectives.append(p.objective or 0)
    was = state.setup  # made directly: `dataclasses.replace` reads the fields each time
    state.setup = Setup(was.scenario, was.names, was.colours, was.decks, tuple(objectives),
                        was.oldest)
    return state


def clone(state: GameState) -> GameState:
    return state.clone()


__all__ = [
    "INACTIVE",
    "RINGS",
    "LegalActions",
    "PlacementArrays",
    "PlayerView",
    "Position",
    "PublicPlayer",
    "action_events",
    "apply",
    "apply_in_place",
    "castle_hexes",
    "clone",
    "covered_hexes",
    "deal",
    "free_placements",
    "group_labels",
    "legal_actions",
    "new_game",
    "new_leagues",
    "open_seas",
    "piece_groups",
    "placement_arrays",
    "placement_events",
    "placement_points",
    "placement_rows",
    "redeal",
    "resample",
    "turn_order_key",
    "uncovered_count",
    "view",
    "wedding_pairs",
    "winners",
]
