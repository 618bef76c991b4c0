"""What an action would do, before it is taken: the action applied to a copy and the mover's
board compared, so a menu can show the VP, florins and meeples each choice gains or costs.

Only the action itself is applied (not the questions that follow, nor the end of the phase it
may bring), so passing does not seem to score the initiative VP everyone scores anyway. A
view hides the alliance stack, so a view is first completed with `engine.resample`; where the
action rolls dice (offspring), `chance` says that the dice decide.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from . import engine
from .actions import Action
from .state import Position, SignorieState


@dataclass(frozen=True)
class Gain:
    """Changes to one seat's board (negative: spent), and the question asked next."""

    vp: int = 0
    florins: int = 0
    male: int = 0  # in the available supply
    female: int = 0
    initiative: int = 0  # slots up the Initiative track
    career: int = 0  # meeples on the career tracks
    tiles: int = 0  # face-up alliance tiles in the plan rows
    face_down: int = 0
    helpers: int = 0
    brides: int = 0
    tile: int = -1  # the face-up alliance tile it takes, if any
    chance: bool = False  # dice were rolled: the meeples gained are not known before
    then: list | None = None  # the mover's next question (a frame) within this turn or reward


def _board(s: Position, seat: int) -> tuple[int, ...]:
    return (s.vp[seat], s.florins[seat], s.avail[seat][0], s.avail[seat][1], s.init_pos[seat],
            sum(map(sum, s.career[seat])), sum(map(len, s.rows[seat])), sum(s.down[seat]),
            sum(s.helpers[seat]), s.brides[seat])


def full_state(position: Position, seed: int = 0) -> SignorieState:
    """A state to try actions on: a copy of a state, or a view completed at random."""
    if isinstance(position, SignorieState):
        return position.clone()
    return engine.resample(position, random.Random(seed))  # type: ignore[arg-type]


def preview(position: Position, action: Action, base: SignorieState | None = None) -> Gain:
    """What `action` changes on its seat's board. `base` (from `full_state`) saves completing
    the view again for each action of one menu."""
    s = (base or full_state(position)).clone()
    seat = action.seat
    before, chance, round_ = _board(s, seat), len(s.chance), s.round
    base_rows = [row[:] for row in s.rows[seat]]
    engine.HANDLERS[type(action)](s, action)
    diff = [b - a for a, b in zip(before, _board(s, seat), strict=True)]
    had = {x for row in base_rows for x in row}
    taken = [x for row in s.rows[seat] for x in row if x not in had]
    rolled = len(s.chance) > chance
    engine.settle(s)
    top = s.stack[-1] if s.stack else None
    goes_on = top is not None and top[0] != "turn" and top[1] == seat and s.round == round_
    then = top if goes_on else None
    if rolled:
        diff[2] = diff[3] = 0
    return Gain(*diff, tile=taken[0] if taken else -1, chance=rolled, then=then)
