"""A finished game reviewed by the search, for the people who played it.

For each decision of the reviewed seats (one with a choice), the search analyses the seat's
own view at that moment with the move actually made among its options: the move it prefers,
and how many expected final points the chosen move gave up (its `cost`, 0 when the search
agrees). The biggest costs are the game's mistakes. Beside them, each player's expected final
score after every action, from the game's own evaluation of the full position (the game is
over: nothing is secret any more), draws the game's course as a graph.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .game import Game
from .hints import phrase
from .search import DEFAULT_LEVELS, MCTSBot, Settings

BIGGEST = 3  # mistakes a review highlights


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


@dataclass(frozen=True)
class Review:
    names: tuple[str, ...]
    decisions: tuple[Reviewed, ...]
    course: tuple[tuple[float, ...], ...]  # each player's expected final score, per action

    def mistakes(self, k: int = BIGGEST) -> list[Reviewed]:
        """The `k` costliest decisions, costliest first (only those that cost anything)."""
        costly = [d for d in self.decisions if d.cost > 0]
        return sorted(costly, key=lambda d: (-d.cost, d.number))[:k]


def review_settings(game: Game, level: str = "medium") -> Settings:
    levels = game.search.levels if game.search else DEFAULT_LEVELS
    if level not in levels:
        raise ValueError(f"unknown level {level!r}; choose from {', '.join(levels)}")
    return levels[level]


def review_game(game: Game, final: Any, seats: Sequence[int], settings: Settings, *,
                seed: int = 0, progress: Callable[[int, int], None] | None = None) -> Review:
    """Replay `final`'s actions from its deal, analysing every decision of `seats`."""
    history = list(final.history)
    state = game.from_setup(game.setup_of(final))
    decisions, course = [], [_estimates(game, state, settings)]
    for i, action in enumerate(history):
        seat = _mover(game, state, action)
        if seat in seats:
            legal = game.legal_actions(state, seat)
            if len(legal) > 1:
                decisions.append(_review_one(game, state, seat, action, legal, i, settings,
                                             seed))
        game.apply_in_place(state, action)
        course.append(_estimates(game, state, settings))
        if progress is not None:
            progress(i + 1, len(history))
    return Review(tuple(final.names), tuple(decisions), tuple(course))


def _mover(game: Game, state: Any, action: Any) -> int:
    """Who made `action`: the one seat to move, or, while several are, the one it is legal for
    (the platform's actions need not name their seat)."""
    movers = state.to_move()
    if len(movers) == 1:
        return movers[0]
    return next(s for s in movers if action in game.legal_actions(state, s))


def _review_one(game: Game, state: Any, seat: int, chosen: Any, legal: Sequence[Any],
                number: int, settings: Settings, seed: int) -> Reviewed:
    view = game.view(state, seat)
    analysed = MCTSBot(game, seed * 100_003 + number, settings).analyse(view, legal, chosen)
    best = max(analysed, key=lambda m: m.lead)
    mine = next((m for m in analysed if m.action == chosen), None)
    cost = 0.0 if mine is None else max(0.0, best.lead - mine.lead)
    return Reviewed(number + 1, seat, game.round(state), chosen, best.action, cost,
                    _words(game, view, chosen), _words(game, view, best.action))


def _words(game: Game, view: Any, action: Any) -> str:
    """A move as a phrase to sit inside a longer line, with what it gains where the game
    says (two placements of one fief differ there)."""
    words = phrase(game.describe_action(view, action))
    explain = getattr(game, "explain_action", None)
    why = explain(view, action) if explain else ""
    return f"{words} ({why})" if why else words


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
