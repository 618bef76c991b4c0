"""Hidden information: what a seat is shown depends only on what it may know.

For a position and a seat (or a spectator), `Game.resample` of the seat's view gives a second
state that differs from the first only in what that seat may not know: hidden cards dealt
anew, future chance drawn anew. Everything the seat is shown must be the same in both: its
view, its legal actions, the public log and its sentences, what chance revealed, and the web
side's messages and lobby line. A secret that reaches any of them differs between the two
states, and the check names where it showed.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from .. import registry
from ..game import Game
from ..hints import hints
from ..kit import GameKit
from ..search import Settings
from .compare import difference
from .play import Step, fail, game_of, player_counts, sampled

#: A hint's search, short and without a time limit, so that it depends on its inputs only.
HINT_SEARCH = Settings(iterations=24)
#: Redrawing a seat's unknowns more than once catches a secret that one redraw left alike.
REDRAWS = 2


def twin(game: Game, state: Any, seat: int | None, rng: random.Random) -> Any:
    """A state differing from `state` only in what `seat` may not know (see the module).

    A resampled state may leave the secret choices of a simultaneous phase unmade, so a
    search never peeks at them (Gonzaga's plans): those seats choose again here, at random,
    until the same seats are to move as in `state`."""
    other = game.resample(game.view(state, seat), rng)
    movers = set(state.to_move())
    for _ in range(len(state.names) + 1):
        extra = [s for s in other.to_move() if s not in movers]
        if not extra:
            break
        legal = game.legal_actions(other, extra[0])
        game.apply_in_place(other, legal[rng.randrange(len(legal))])
    return other


def shown(game: Game, state: Any, seat: int | None, site: Any) -> Iterator[tuple[str, Any]]:
    """Everything `seat` is shown of `state`, by name."""
    view = game.view(state, seat)
    yield "its view", view
    if seat is not None and seat in state.to_move():
        legal = list(game.legal_actions(state, seat))
        yield "its legal actions", legal
        yield "its legal actions in words", [game.describe_action(state, a) for a in legal]
        yield "the number its bots are seeded by", game.decision_key(state)
        if game.info.name in registry.available():  # hints name moves by the registry's words
            yield "its hints", [(h.action, h.words, h.why, h.lead, h.then) for h in hints(
                game, view, legal, settings=HINT_SEARCH, seed=1)]
    yield "the public log", [(e.kind, e.seat, dict(e.data)) for e in game.log(state)]
    yield "the log's sentences", [game.describe_log(state, e) for e in game.log(state)]
    yield "the chance revealed", list(game.chance_events(state))
    if site is not None:
        yield from _shown_on_the_web(site, state, view, seat)


def _shown_on_the_web(site: Any, state: Any, view: Any, seat: int | None
                      ) -> Iterator[tuple[str, Any]]:
    seats = [{"kind": "person", "bot": None, "connected": True, "claimed": True,
              "replaced": False, "rating": None, "hints": 0} for _ in state.names]
    yield "its web message", site.view_json(view, game_id="g", seq=0, seats=seats, log=[])
    yield "its web log", site.log_json(view, 0)
    if seat is None:
        yield "the lobby's line", site.summary(state)
    elif seat not in state.to_move():
        yield "why it may not move", site.not_your_turn(state, seat)


def check_secrets_stay_hidden(kit: GameKit, seed: int = 0, samples: int = 8) -> None:
    """Each seat and a spectator are shown the same of two states that differ only in what
    they may not know; the seat's view of a resampled state is its view (`resample` agrees);
    and a seat's secrets are secret from the other seats (`check_secrets_are_kept`)."""
    game = game_of(kit)
    site = kit.site.load()() if kit.site is not None else None
    rng = random.Random(seed)
    for players in player_counts(game):
        kept = Kept(kit, players)
        for step in sampled(kit, players, seed, samples):
            for seat in (None, *range(players)):
                for _ in range(REDRAWS):
                    other = _compare(kit, step, players, seat, site, rng)
                    kept.note(step.state, seat, other)
        kept.check()


class Kept:
    """Which seats' secrets another seat's redraws ever changed, over a game.

    A view that shows a seat another's secret makes `resample` keep it, so redrawing from
    that view never changes what the other seat sees of itself. A seat has a secret where a
    redraw from the spectator's view changes its own view; the suite takes it that seats share
    no secret a spectator lacks."""

    def __init__(self, kit: GameKit, players: int) -> None:
        self.kit, self.players = kit, players
        self.secret: set[int] = set()  # seats that had a secret at some position
        self.changed: set[tuple[int, int]] = set()  # (seat redrawn from, seat whose view changed)

    def note(self, state: Any, seat: int | None, other: Any) -> None:
        game = game_of(self.kit)
        for owner in range(self.players):
            if owner != seat and difference(game.view(state, owner), game.view(other, owner)):
                if seat is None:
                    self.secret.add(owner)
                else:
                    self.changed.add((seat, owner))

    def check(self) -> None:
        for owner in sorted(self.secret):
            for seat in range(self.players):
                if seat != owner and (seat, owner) not in self.changed:
                    raise fail(self.kit, f"seat {seat} knows every secret of seat {owner} in "
                                         f"a {self.players}-player game: redrawing what seat "
                                         f"{seat} may not know never changed what seat "
                                         f"{owner} sees, though a spectator's redraw did")


def _compare(kit: GameKit, step: Step, players: int, seat: int | None, site: Any,
             rng: random.Random) -> Any:
    """The twin of `step.state` for `seat`, once everything it is shown is the same in both."""
    game = game_of(kit)
    other = twin(game, step.state, seat, rng)
    who = "a spectator" if seat is None else f"seat {seat}"
    for (what, mine), (_, theirs) in zip(shown(game, step.state, seat, site),
                                         shown(game, other, seat, site), strict=True):
        unlike = difference(mine, theirs, what)
        if unlike:
            raise fail(kit, f"{who} is shown a secret {step.where(players)}: {what} differs "
                            f"between two states that differ only in what {who} may not "
                            f"know ({unlike})")
    return other

