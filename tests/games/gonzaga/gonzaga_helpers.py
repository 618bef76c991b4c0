"""Gonzaga's test helpers: deals with chosen cards, plans for everyone, pieces laid by hand, and
the boards the property tests play on. A plain module with a name of its own, imported by
name, so it never meets another folder's helpers or conftest."""

from __future__ import annotations

from collections.abc import Sequence

from boards import tiny_board

from tavola.games.gonzaga.actions import Plan
from tavola.games.gonzaga.board import Board, default_board_path, load_board
from tavola.games.gonzaga.engine import apply, new_game
from tavola.games.gonzaga.state import COLOURS, GameState, Piece, Setup

FIEFS = list(range(10, 130, 10))


def attributes(obj: object) -> dict[str, object]:
    """An object's attributes, whether it runs as Python or compiled (`tavola compile`): a
    compiled object lists them in its class's `__mypyc_attrs__` and may have no `__dict__`."""
    names = [n for n in getattr(type(obj), "__mypyc_attrs__", ()) if n != "__dict__"]
    found = {n: getattr(obj, n) for n in names if hasattr(obj, n)}
    found.update(getattr(obj, "__dict__", {}))
    return found

HAVE_REAL_BOARD = default_board_path().exists()


def _boards() -> list[Board]:
    """The tiny test board, and the shipped one once it is built (the last is the largest)."""
    return [tiny_board(), load_board()] if HAVE_REAL_BOARD else [tiny_board()]


#: the boards the property tests play on
BOARDS = _boards()


def make_setup(n: int, tops: Sequence[Sequence[int]] = (), scenario: str | None = None,
               objectives: Sequence[int] | None = None, oldest: int = 0) -> Setup:
    """A deal with chosen top fief cards per player; the rest of each deck in number order."""
    decks = []
    for i in range(n):
        top = list(tops[i]) if i < len(tops) else []
        decks.append(tuple(top + [f for f in FIEFS if f not in top]))
    scenario = scenario or {2: "Duo", 3: "Trio", 4: "Colombo"}[n]
    return Setup(scenario, tuple(c.title() for c in COLOURS[:n]), COLOURS[:n], tuple(decks),
                 tuple(objectives or range(1, n + 1)), oldest)


def game(board, n: int = 2, tops: Sequence[Sequence[int]] = (), **kw) -> GameState:
    variants = kw.pop("variants", ())
    return new_game(n, board=board, setup=make_setup(n, tops, **kw), variants=variants)


def plan_all(state: GameState, plans: dict[int, tuple]) -> GameState:
    """Everyone plans; players not named plan Hispania + Cities (or whatever is free)."""
    for seat in range(state.num_players):
        if seat in plans:
            region, action, *kp = plans[seat]
            state = apply(state, Plan(seat, region, action, bool(kp and kp[0])))
        else:
            p = state.players[seat]
            region = next(r for r in state.rules.region_cards if r not in p.resting)
            action = next(a for a in ("cities", "harbors", "alliance") if a not in p.resting)
            state = apply(state, Plan(seat, region, action))
    return state


def put(state: GameState, player: int, hexes: Sequence[tuple[int, int]], kind: str = "fief",
        fief: int | None = 10) -> None:
    """Lay a piece straight on the board (a position set up for a test, no scoring)."""
    idx = tuple(state.board.index_of[h] for h in hexes)
    for h in idx:
        if kind == "fief":
            state.fief_owner[h] = player
        else:
            state.ring_owner[h] = player
    state.pieces.append(Piece(player, kind, idx, fief if kind == "fief" else None, state.round))


def midgame(seed: int = 3, players: int = 2, actions: int = 30) -> GameState:
    """A default-board game after `actions` moves of greedy bots: pieces on the map."""
    from tavola.bench import seats
    from tavola.bots import make_bot
    from tavola.games.gonzaga.game import GAME

    state = GAME.new_game(seats(GAME, players), seed, {})
    bots = [make_bot(GAME, "greedy", seed + i) for i in range(players)]
    for _ in range(actions):
        seat = state.to_move()[0]
        GAME.apply_in_place(state, bots[seat].decide(GAME.view(state, seat),
                                                     GAME.legal_actions(state, seat)))
    return state
