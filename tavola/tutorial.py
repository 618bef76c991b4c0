"""Tutorials: a fixed deal against a bot, where the learner's moves follow a script.

A game declares its tutorial in `tavola/games/NAME/tutorial.py` as `TUTORIAL`. Each `Step` is one
move of the learner: the fields the move must have (`expect`, matched against the action's
JSON), what to do and why, where to click (CSS selectors of the game's page, in the order
they are clicked) and the kind words said when another move is tried. The step open is the
number of moves the learner has made, so a tutorial resumes from its log like any game; once
the steps are done the learner plays on freely (or goes back to the lobby). A step may bring
`Page`s to read once its move is made (how a part of the table makes points): the page turns
them with Next, and they count as steps.

Nothing here knows a game: the words are the game's (its text layer, asked through its
tutorial module each time they are shown, so each learner reads them in their language), the
actions its `action_to_json`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from . import registry
from .game import Game

#: Words of a tutorial: a sentence, or a function giving it in the language of the moment.
Words = str | Callable[[], str]


def words(w: Words) -> str:
    return w() if callable(w) else w


@dataclass(frozen=True)
class Page:
    """Something to read once a move is made, before the next step: how a part of the table
    makes points, that part outlined. The learner turns it with Next; no move is asked."""

    title: Words
    say: Words
    look: tuple[str, ...] = ()  # the parts of the page outlined while it is read

    def to_json(self) -> dict[str, Any]:
        return {"title": words(self.title), "say": words(self.say), "look": list(self.look)}


@dataclass(frozen=True)
class Step:
    """One move of the learner: which move, in words, and where to click for it."""

    expect: Mapping[str, Any]  # fields the move's JSON must have, e.g. {"type": "plan"}
    title: Words  # what to do, in a few words
    say: Words  # what to do and why, in a sentence or two
    refuse: Words  # the kind explanation when another move is tried
    #: where to click, in order (selectors of the game's page), or a function of the state
    #: giving them (where the page names a choice by its place in a list)
    highlight: tuple[str, ...] | Callable[[Any], tuple[str, ...]] = ()
    #: made with the step before it by one Confirm (a die and its action): the learner counts
    #: the two as one step
    joined: bool = False
    #: read once this step's move is made, before the next step (each counted as a step)
    pages: tuple[Page, ...] = ()

    def targets(self, state: Any) -> list[str]:
        return list(self.highlight(state) if callable(self.highlight) else self.highlight)


@dataclass(frozen=True)
class Tutorial:
    """A game's tutorial: the deal, the opponent, the words around the steps."""

    game: str
    seed: int  # fixes the deal and the bot's choices: every learner sees the same game
    names: tuple[Words, ...]  # the seats' names; `seat` is the learner's, the others bots
    bot: str  # the opponents' bot spec
    steps: tuple[Step, ...]
    intro: Words  # shown above the first step
    waiting: Words  # while the bot moves
    done: Words  # once the steps are done: play on, or leave
    options: Mapping[str, Any] = field(default_factory=dict)
    seat: int = 0

    def __post_init__(self) -> None:
        if not 0 <= self.seat < len(self.names):
            raise ValueError(f"{self.game} tutorial: the learner's seat {self.seat} is not "
                             f"one of the {len(self.names)} seats")
        if not self.steps:
            raise ValueError(f"{self.game} tutorial: a tutorial has at least one step")
        if self.steps[0].joined:
            raise ValueError(f"{self.game} tutorial: the first step has no step to join")
        for before, step in zip(self.steps, self.steps[1:], strict=False):
            if step.joined and before.pages:
                raise ValueError(f"{self.game} tutorial: a step made by the same Confirm as "
                                 "the one before it cannot wait for pages read between them")

    def counted_before(self, moves: int) -> int:
        """How many steps the learner has counted once `moves` moves are made and their pages
        read: steps made with the one before them by the same Confirm are not counted apart,
        each page is, so the count goes 1, 2, 3..."""
        return sum((not s.joined) + len(s.pages) for s in self.steps[:moves])

    def counted(self, moves: int) -> int:
        """The number of the step open after `moves` moves (and their pages)."""
        joined = moves < len(self.steps) and self.steps[moves].joined
        return self.counted_before(moves) + (0 if joined else 1)

    @property
    def count(self) -> int:
        """How many steps the learner counts."""
        return self.counted_before(len(self.steps))


def load(game: str) -> Tutorial | None:
    """The tutorial of `game` (`GameKit.tutorial`), None for a game without one."""
    part = registry.kit(game).tutorial
    return part.load() if part else None


def matches(expect: Mapping[str, Any], action_json: Mapping[str, Any]) -> bool:
    """Whether a move has every field the step expects (other fields are free)."""
    return all(action_json.get(k) == v for k, v in expect.items())


class Guide:
    """A tutorial running on one game: which step is open, and whether a move follows it."""

    def __init__(self, tutorial: Tutorial, game: Game, owner_field: str) -> None:
        self.tutorial = tutorial
        self.game = game
        self.owner = owner_field

    def step_index(self, state: Any) -> int:
        """How many moves the learner has made: the number of the step now open."""
        seat = self.tutorial.seat
        return sum(getattr(a, self.owner) == seat for a in state.history)

    def step(self, state: Any) -> Step | None:
        """The step open now; None once the script is done (free play)."""
        i = self.step_index(state)
        return self.tutorial.steps[i] if i < len(self.tutorial.steps) else None

    def refusal(self, state: Any, seat: int, action: Any) -> str | None:
        """Why the learner may not make this move now (the step's words), or None."""
        step = self.step(state)
        if seat != self.tutorial.seat or step is None:
            return None
        if matches(step.expect, self.game.action_to_json(action)):
            return None
        return words(step.refuse)

    def example(self, state: Any) -> Any:
        """A legal move that follows the open step (the script played by tests)."""
        step = self.step(state)
        legal = self.game.legal_actions(state, self.tutorial.seat)
        if step is None:
            return legal[0] if legal else None
        for action in legal:
            if matches(step.expect, self.game.action_to_json(action)):
                return action
        return None

    def to_json(self, state: Any, seat: int | None) -> dict[str, Any] | None:
        """What the learner's page shows of the tutorial now (nothing for other seats)."""
        t = self.tutorial
        if seat != t.seat:
            return None
        i = self.step_index(state)
        step = self.step(state)
        mine = seat in state.to_move() and not state.is_over
        out: dict[str, Any] = {"step": min(t.counted(i), t.count), "steps": t.count,
                               "intro": words(t.intro), "done": step is None, "your_move": mine}
        pages = t.steps[i - 1].pages if i else ()
        # the pages of the move just made, read before what comes next; `after` names them,
        # so the page keeps count of those read while other views arrive
        out.update(after=i, pages=[p.to_json() for p in pages],
                   page_from=t.counted_before(i) - len(pages) + 1)
        if step is None:
            out.update(title=words(t.done), say=words(t.done), highlight=[])
        elif not mine:
            out.update(title=words(t.waiting), say=words(t.waiting), highlight=[])
        else:
            out.update(title=words(step.title), say=words(step.say),
                       highlight=step.targets(state))
        return out


def guide_for(name: str | None, game: Game, owner_field: str) -> Guide | None:
    """The guide of a game started as a tutorial (`name` is its game's name), else None."""
    if not name:
        return None
    tutorial = load(name)
    if tutorial is None:
        raise ValueError(f"no tutorial for {name!r}")
    return Guide(tutorial, game, owner_field)


def play_script(guide: Guide, state: Any, bot_move: Any) -> list[Any]:
    """Play the script from `state` (changed in place): the learner's example moves, the
    bots' by `bot_move(state, seat)`; returns the learner's moves. Tests use it to check
    that a tutorial still fits its deal."""
    tutorial, game = guide.tutorial, guide.game
    moves = []
    while guide.step(state) is not None and not state.is_over:
        seats = state.to_move()
        if tutorial.seat in seats:
            action = guide.example(state)
            if action is None:
                raise ValueError(f"{tutorial.game} tutorial: step {guide.step_index(state) + 1}"
                                 " has no legal move")
            moves.append(action)
        else:
            action = bot_move(state, seats[0])
        game.apply_in_place(state, action)
    return moves
