"""A finished game reviewed by the search, for the people who played it.

For each decision of the reviewed seats (one with a choice), the search analyses the seat's
own view at that moment with the move actually made among its options: the move it prefers,
and how many expected final points the chosen move gave up (its `cost`, 0 when the search
agrees). The biggest costs are the game's mistakes. Beside them, each player's expected final
score after every action, from the game's own evaluation of the full position (the game is
over: nothing is secret any more), draws the game's course as a graph.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from . import registry
from .game import Game
from .hints import move_words
from .search import DEFAULT_LEVELS, MCTSBot, MoveValue, Settings
from .text import say

BIGGEST = 3  # mistakes a review highlights
WORTH = 0.5  # points of cost below which a decision is not called a mistake (they read "0.0")
TRIED = 4 * BIGGEST  # the costliest decisions played out to find them (two playouts each)


@dataclass(frozen=True)
class Reviewed:
    """One decision: what was played, what the search prefers, and the difference."""

    number: int  # the action's place in the game, from 1
    seat: int
    round: int
    chosen: Any
    best: Any
    cost: float  # expected final points given up, >= 0
    chosen_words: str
    best_words: str
    #: where the better move gains, by source of points (`info.score_sources`): the seat's
    #: points at the end of a playout after it less those after the move played (mistakes)
    gains: tuple[tuple[str, int], ...] = ()
    confirmed: bool = True  # False: the playouts do not bear the cost out
    hinted: int = 0  # the rank the hint gave the move played, 0 when no hint named it
    chosen_then: tuple[Any, ...] = ()  # the further steps of each move (`MoveValue.then`)
    best_then: tuple[Any, ...] = ()


@dataclass(frozen=True)
class Review:
    names: tuple[str, ...]
    decisions: tuple[Reviewed, ...]
    course: tuple[tuple[float, ...], ...]  # each player's expected final score, per action

    def mistakes(self, k: int = BIGGEST) -> list[Reviewed]:
        """The `k` costliest decisions, costliest first (only those that cost at least
        `WORTH` and that playouts of the rest of the game bear out)."""
        costly = [d for d in self.decisions if d.cost >= WORTH and d.confirmed]
        return sorted(costly, key=lambda d: (-d.cost, d.number))[:k]


def review_settings(game: Game, level: str = "medium") -> Settings:
    levels = game.search.levels if game.search else DEFAULT_LEVELS
    if level not in levels:
        raise ValueError(f"unknown level {level!r}; choose from {', '.join(levels)}")
    return levels[level]


def review_game(game: Game, final: Any, seats: Sequence[int], settings: Settings, *,
                seed: int = 0, progress: Callable[[int, int], None] | None = None,
                hinted: Mapping[int, Sequence[Any]] | None = None) -> Review:
    """Replay `final`'s actions from its deal, analysing every decision of `seats`; then the
    costliest get their reasons (`_bear_out`). `hinted` (for one reviewed seat) maps the
    number of actions played when a hint was given to its moves, best first: the seat's next
    action is the one it was about."""
    history = list(final.history)
    state = game.from_setup(game.setup_of(final))
    decisions, course = [], [_estimates(game, state, settings)]
    pending: Sequence[Any] = ()
    for i, action in enumerate(history):
        pending = (hinted or {}).get(i, pending)
        seat = _mover(game, state, action)
        if seat in seats:
            rank, pending = _hint_rank(pending, action), ()
            legal = game.legal_actions(state, seat)
            if len(legal) > 1:
                decisions.append(replace(
                    _review_one(game, state, seat, history[i:], legal, i, settings, seed),
                    hinted=rank))
        game.apply_in_place(state, action)
        course.append(_estimates(game, state, settings))
        if progress is not None:
            progress(i + 1, len(history))
    decided = _bear_out(game, final, decisions, settings)
    return Review(tuple(final.names), tuple(decided), tuple(course))


def _hint_rank(moves: Sequence[Any], action: Any) -> int:
    return next((rank for rank, m in enumerate(moves, 1) if m == action), 0)


def _mover(game: Game, state: Any, action: Any) -> int:
    """Who made `action`: the one seat to move, or, while several are, the one it is legal for
    (the platform's actions need not name their seat)."""
    movers: tuple[int, ...] = state.to_move()
    if len(movers) == 1:
        return movers[0]
    return next(s for s in movers if action in game.legal_actions(state, s))


def _review_one(game: Game, state: Any, seat: int, played: Sequence[Any], legal: Sequence[Any],
                number: int, settings: Settings, seed: int) -> Reviewed:
    """`played` is the rest of the game from this decision: its first action the one made,
    and its next ones those that completed the move (`Game.opens_move`)."""
    chosen = played[0]
    view = game.view(state, seat)
    analysed = MCTSBot(game, seed * 100_003 + number, settings).analyse(view, legal, chosen)
    best = max(analysed, key=lambda m: m.lead)
    mine = next((m for m in analysed if m.action == chosen), None)
    cost = 0.0 if mine is None else max(0.0, best.lead - mine.lead)
    mine = MoveValue(chosen, 0, 0.0, 0.0, _rest_of_move(game, state, seat, played))
    words = _words(game, view, mine), _words(game, view, best)
    if words[0] == words[1] and (mine.action, mine.then) != (best.action, best.then):
        words = _words(game, view, mine, exact=True), _words(game, view, best, exact=True)
    return Reviewed(number + 1, seat, game.round(state), chosen, best.action, cost, *words,
                    chosen_then=mine.then, best_then=best.then)


def _rest_of_move(game: Game, state: Any, seat: int, played: Sequence[Any]) -> tuple[Any, ...]:
    """The steps after `played[0]` that completed the seat's move, as the game went on."""
    opens_move = registry.move_words(game.info.name).opens_move
    if opens_move is None:
        return ()
    rest, replay = [], game.clone(state)
    game.apply_in_place(replay, played[0])
    for action in played[1:]:
        if replay.is_over or replay.to_move() != (seat,) or opens_move(action):
            break
        rest.append(action)
        game.apply_in_place(replay, action)
    return tuple(rest)


def _words(game: Game, view: Any, move: MoveValue, exact: bool = False) -> str:
    """A move as a phrase to sit inside a longer line, named whole (`hints.move_words`), with
    what it gains now where the game says; `exact` tells it from a move of the same words."""
    words = move_words(game, view, move, exact)
    explain = registry.move_words(game.info.name).explain_action
    why = explain(view, move.action) if explain else ""
    return f"{words} ({why})" if why else words


def _bear_out(game: Game, final: Any, decisions: list[Reviewed], settings: Settings
              ) -> list[Reviewed]:
    """The costliest decisions (at most `TRIED`), until `BIGGEST` are borne out, with where
    the better move gains (`_gains`); one whose playouts put the move played ahead is not a
    mistake to show (the search's estimate, not the game, said it cost), nor one left
    unplayed when `TRIED` ran out."""
    found, out = 0, {d.number: d for d in decisions}
    costly = sorted((d for d in decisions if d.cost >= WORTH), key=lambda d: (-d.cost, d.number))
    for k, d in enumerate(costly):
        if found >= BIGGEST:
            break
        if k >= TRIED:
            out[d.number] = replace(d, confirmed=False)
            continue
        gains = _gains(game, final, d, settings)
        confirmed = sum(p for _, p in gains) > 0
        out[d.number] = replace(d, gains=gains, confirmed=confirmed)
        found += confirmed
    return [out[d.number] for d in decisions]


def _gains(game: Game, final: Any, d: Reviewed, settings: Settings) -> tuple[tuple[str, int], ...]:
    """By source, the seat's points at the end after the better move less after the move
    played, each followed by the same playouts of the rest of the game (the search's rollout
    policy for every seat, the same hidden cards and dice: those the game really had)."""
    totals = [dict.fromkeys(game.info.score_sources, 0) for _ in range(2)]
    for k, move in enumerate(((d.best, *d.best_then), (d.chosen, *d.chosen_then))):
        state = game.from_setup(game.setup_of(final))
        for action in final.history[:d.number - 1]:
            game.apply_in_place(state, action)
        hooks = game.search.hooks(game.view(state, d.seat), d.seat, settings) \
            if game.search else None
        for action in move:
            game.apply_in_place(state, action)
        while not state.is_over:
            mover = state.to_move()[0]
            step = hooks.rollout(state) if hooks else game.legal_actions(state, mover)[0]
            game.apply_in_place(state, step)
        for source, points in game.score_breakdown(state)[d.seat].items():
            totals[k][source] = totals[k].get(source, 0) + points
    diff = {s: totals[0][s] - totals[1].get(s, 0) for s in totals[0]}
    return tuple(sorted(((s, p) for s, p in diff.items() if p),
                        key=lambda sp: (-sp[1], sp[0])))


def reasons(game: Game, d: Reviewed) -> str:
    """Why a decision is a mistake, in words: where the better move gains by the game's
    sources of points, and, when the player followed a hint, that this is another search."""
    name = registry.move_words(game.info.name).source_name
    parts = []
    if d.gains:
        gains = ", ".join(say("review.gain", source=name(s), points=p) for s, p in d.gains)
        parts.append(say("review.why", gains=gains))
    if d.hinted:
        parts.append(say("review.hinted", rank=d.hinted))
    return "; ".join(parts)


def result_words(game: Game, final: Any, seat: int) -> str:
    """How the game ended for `seat`, beside its review's mistakes."""
    scores, ranks = game.scores(final), game.ranks(final)
    winner = final.names[ranks.index(1)]
    return say("review.result", name=final.names[seat], place=ranks[seat],
               players=len(scores), points=scores[seat], winner=winner)


def _estimates(game: Game, state: Any, settings: Settings) -> tuple[float, ...]:
    """Each player's expected final score now, by the game's evaluation (its scores when the
    game lends the search none)."""
    if game.search is None or state.is_over:
        return tuple(float(x) for x in game.scores(state))
    seat = 0
    hooks = game.search.hooks(game.view(state, seat), seat, settings)
    return tuple(float(x) for x in hooks.estimates(state))


def draw_course(review: Review, path: Any, *, title: str = "",
                axis: tuple[str, str] = ("", "")) -> None:
    """The graph of each player's expected final score over the game as a PNG (or SVG, by
    the file's suffix), the reviewed seats' biggest mistakes marked where they happened.
    Players differ by a colour-blind-safe palette and by line style, named in the legend."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    palette = plt.style.library["tableau-colorblind10"]["axes.prop_cycle"].by_key()["color"]
    fig, ax = plt.subplots(figsize=(9, 4.5), dpi=120)
    steps = range(len(review.course))
    for seat, name in enumerate(review.names):
        ax.plot(steps, [c[seat] for c in review.course], label=name,
                color=palette[seat % len(palette)], linestyle=("-", "--", "-.", ":")[seat % 4],
                linewidth=1.8)
    for rank, d in enumerate(review.mistakes(), 1):
        y = review.course[d.number - 1][d.seat]
        ax.annotate(f"{rank}: -{d.cost:.1f}", (d.number - 1, y), textcoords="offset points",
                    xytext=(0, 12), ha="center", fontsize=8,
                    arrowprops={"arrowstyle": "->", "lw": 0.8})
    ax.set_title(title)
    ax.set_xlabel(axis[0])
    ax.set_ylabel(axis[1])
    ax.grid(alpha=0.3)
    ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
