"""A game at the terminal: people and bots seated at one table, the hot-seat hand-over between
people, the game played to its end (or until the players quit) and its record written.

People at the terminal sit at the table like any bot: `match.play_game` hands each of them only
their own `PlayerView` and legal actions, so the screen can never show what the rules hide
(another player's objective card or plan).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from rich.console import Console
from rich.panel import Panel
from rich.text import Text

from tavola.bots import Bot
from tavola.hints import hints

from .. import text as words
from ..actions import Action, Plan
from ..board import Board
from ..bots import bot_title
from ..engine import LegalActions, PlayerView, action_events, new_game, view
from ..game import GAME, make_bot
from ..match import play_game
from ..state import MAX_PLAYERS, MIN_PLAYERS, GameState, Phase
from . import placing, planning
from .final import render_final
from .hexmap import PLAYER_FG, player_name
from .input import GameAbandoned, Prompts, menu
from .layout import styled
from .render import describe_entry, render_screen

HUMAN = "human"
say = words.say


@dataclass
class Terminal(Prompts):
    """The people at this terminal: each turn asked on the screen they share, with the device
    passed between them when several play (hot-seat)."""

    hints_used: dict[int, int] = field(default_factory=dict)  # seat -> hints asked

    def plan(self, v: PlayerView, me: int, plans: list[Plan]) -> Plan:
        return planning.plan(self, v, me, plans)

    def place(self, v: PlayerView, me: int, legal: LegalActions) -> Action:
        return placing.place(self, v, me, legal)

    def pass_device(self, v: PlayerView, seat: int) -> None:
        """Hot-seat: hide the last player's secrets and wait for the next player."""
        self.forget_screen()
        self.console.print(Panel(styled("pass.device", name=player_name(v, seat)),
                                 border_style=PLAYER_FG[v.players[seat].colour]))
        self.raw(say("ask.prompt", question=say("pass.ready", name=v.players[seat].name)))

    def decide(self, v: PlayerView, legal: Sequence[Action]) -> Action:
        me = v.viewer
        assert me is not None
        if self.humans > 1 and self.last_seat != me:
            self.pass_device(v, me)
        self.last_seat = me
        self.hinter = partial(self.hint, v, legal)
        try:
            return self._decide(v, me, legal)
        finally:
            self.hinter = None

    def hint(self, v: PlayerView, legal: Sequence[Action]) -> Text:
        """`?`: the search's three best moves for this turn, with what each gains now and the
        final lead each is expected to bring. Counted in the game's record."""
        me = v.viewer
        assert me is not None
        self.hints_used[me] = self.hints_used.get(me, 0) + 1
        shown = Text(say("hint.title") + "\n", style="bold")
        for rank, h in enumerate(hints(GAME, v, legal), 1):
            shown.append(say("hint.line-why" if h.why else "hint.line", rank=rank,
                             move=_move_words(v.board, h.action), why=h.why,
                             lead=f"{h.lead:+.1f}", share=round(100 * h.share)) + "\n")
        return shown

    def _decide(self, v: PlayerView, me: int, legal: Sequence[Action]) -> Action:
        if v.phase is Phase.PLANNING:
            action = self.plan(v, me, [a for a in legal if isinstance(a, Plan)])
        elif isinstance(legal, LegalActions):
            action = self.place(v, me, legal)
        else:
            action = self.pick_from_list(v, legal)
        if self.humans > 1:
            self.forget_screen()
        return action

    def pick_from_list(self, v: PlayerView, legal: Sequence[Action]) -> Action:
        """Fallback for a plain list of actions: a numbered menu of all of them."""
        options = [(a, say("pick.option", move=_move_words(v.board, a),
                           points=sum(e.points for e in action_events(v, a))))
                   for a in legal]
        self.screen(v, menu(options, [str(k) for k in range(1, len(options) + 1)]))
        choice = self.choose(say("placing.question"), options, listed=True)
        assert choice is not None
        return choice


def _move_words(board: Board, action: Action) -> str:
    return words.plan_text(board, action) if isinstance(action, Plan) else words.move_text(action)


class HumanPlayer:
    """A seat played by a person at this terminal; like a bot, it sees only its own view."""

    def __init__(self, name: str, terminal: Terminal) -> None:
        self.name = name
        self.terminal = terminal

    def decide(self, view: PlayerView, legal_actions: Sequence[Action]) -> Action:
        return self.terminal.decide(view, legal_actions)


def seat_names(specs: Sequence[str]) -> list[str]:
    """You (or Player 1, Player 2... when several people play) and the bots by their titles."""
    humans = sum(1 for s in specs if s == HUMAN)
    names: list[str] = []
    counts: dict[str, int] = {}
    for spec in specs:
        counts[spec] = counts.get(spec, 0) + 1
        if spec == HUMAN:
            names.append(say("seat.you") if humans == 1 else say("seat.player", n=counts[spec]))
        elif sum(1 for s in specs if s == spec) > 1:
            names.append(say("seat.bot", title=bot_title(spec), n=counts[spec]))
        else:
            names.append(bot_title(spec))
    return names


def _intro(state: GameState, names: list[str]) -> Text:
    """The scenario and the seats, as the game starts."""
    intro = view(state, None)
    regions = ", ".join(words.word(state.board.regions[r].name)
                        for r in state.rules.scenario.flourishing)
    out = Text.assemble((say("intro.title"), "bold"),
                        say("intro.scenario", scenario=state.setup.scenario, regions=regions))
    for seat in range(len(names)):
        out.append_text(player_name(intro, seat))
        out.append(" ")
    return out


def _narrator(console: Console) -> Callable[[GameState, Action], None]:
    """With no human at the table, narrate the public journal as it grows."""
    seen = [0]

    def observe(st: GameState, action: Action) -> None:
        spectator = view(st, None)
        for entry in st.journal[seen[0]:]:
            console.print(describe_entry(spectator, entry))
        seen[0] = len(st.journal)

    return observe


def play_in_terminal(specs: list[str], *, seed: int | None, scenario: str | None,
                     record: Path | None, variants: list[str], console: Console,
                     board: Board | None = None,
                     input_fn: Callable[[str], str] | None = None) -> GameState:
    """Play one game at this terminal: `human` seats are asked, the others are bots.

    Returns the final state, or the state reached when the players quit (end of input, Ctrl-C
    or `q`), which is then not over. Raises ValueError for a wrong seat count, an unknown bot,
    scenario or variant.
    """
    seats = [s.strip().lower() for s in specs]
    if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
        raise ValueError(say("error.players", low=MIN_PLAYERS, high=MAX_PLAYERS, n=len(seats)))
    humans = sum(1 for s in seats if s == HUMAN)
    if input_fn is None:
        def input_fn(prompt: str) -> str:
            return console.input(Text(prompt, style="bold"))

    terminal = Terminal(console, input_fn, humans=humans)
    names = seat_names(seats)
    players: list[Bot] = [
        HumanPlayer(names[seat], terminal) if spec == HUMAN
        else make_bot(spec, seed=None if seed is None else seed * 101 + seat)
        for seat, spec in enumerate(seats)]
    state = new_game(names, seed, scenario, board=board, variants=variants)
    console.print(_intro(state, names))
    try:
        play_game(players, state=state, observe=None if humans else _narrator(console))
    except (GameAbandoned, KeyboardInterrupt):
        console.print(Text("\n" + say("game.abandoned", round=state.round), style="bold"))
        return state
    final = view(state, None)
    console.clear()
    console.print(render_screen(final, width=console.width, hex_width=terminal.hex_width))
    console.print(render_final(final, width=console.width))
    if record is not None:
        _write_record(state, record, seats, seed, console, terminal.hints_used)
    return state


def _write_record(state: GameState, path: Path, specs: list[str], seed: int | None,
                  console: Console, hints_used: dict[int, int] | None = None) -> None:
    """Write the game record; a missing records module or an unwritable path is reported."""
    try:  # pydantic, which checks records, loads only when a game is recorded
        from ..record import write_record
    except ImportError as exc:
        console.print(Text(say("record.no-module", error=exc), style="red"))
        return
    try:
        write_record(state, path, players=specs, seed=seed, hints=hints_used)
    except OSError as exc:
        console.print(Text(say("record.failed", path=path, error=exc), style="red"))
        return
    console.print(say("record.written", path=path))
