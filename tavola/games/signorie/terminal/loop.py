"""A game of Signorie at the terminal: people and bots at one table, what happens told as it
happens, each decision a numbered menu with previews, and the record written at the end.

People sit at the table like any bot: `tavola.match.play_game` hands each of them their own
view and legal actions. Nothing in Signorie is hidden from one player but shown to another
(face-down tiles are unknown to all), so with several people the hand-over between them only
names who plays next.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.rule import Rule
from rich.text import Text

from tavola.bots import bot_title, make_bot
from tavola.hints import hints
from tavola.match import play_game
from tavola.records import dumps_record

from .. import text as words
from ..actions import Action
from ..game import GAME
from ..preview import full_state, preview
from ..state import Position, SignorieState
from . import render
from .input import Command, GameAbandoned, Retry, confirm_quit, parse_choice, read_line

HUMAN = "human"
LOG_LINES = 20  # the `log` command shows this many of the last moves
say = words.say

RECENT = 8  # at most this many lines of what happened since the last question, on its screen
#: The parts of the table in the order a screen shows them.
PARTS = ("title", "summary", "recent", "dice", "cities", "tracks", "initiative", "rewards",
         "board")
#: Which parts of the table a question's screen holds first, when not all of them fit the
#: terminal (a turn's dice are in its menu); the `board` command shows the whole table.
FIRST: dict[str, tuple[str, ...]] = {
    "turn": ("title", "summary", "recent", "rewards", "board", "cities", "tracks",
             "initiative"),
    "choose": ("title", "summary", "recent", "dice", "board"),
    "advance": ("title", "tracks", "initiative", "summary", "recent", "board"),
    "mission": ("title", "tracks", "cities", "summary", "recent", "board"),
    "marriage": ("title", "cities", "summary", "recent", "board"),
}
OTHERWISE = ("title", "summary", "recent", "board", "rewards", "cities", "tracks", "initiative")


@dataclass
class Terminal:
    """The screen and keyboard the people at the table share."""

    console: Console
    input_fn: Callable[[str], str]
    humans: int = 1
    pause: float = 0.0
    sleep: Callable[[float], None] = time.sleep
    last_seat: int | None = None
    told: int = 0  # log entries already told
    human_seats: set[int] = field(default_factory=set)
    hints_used: dict[int, int] = field(default_factory=dict)  # seat -> hints asked
    recent: list[Text] = field(default_factory=list)  # told since the last question

    # -- a decision -----------------------------------------------------------------------

    def decide(self, v: Any, legal: Sequence[Action]) -> Action:
        seat = v.viewer
        if self.humans > 1 and self.last_seat != seat:
            self.hand_over(v, seat)
        self.last_seat = seat
        frame = v.stack[-1]
        base = full_state(v, seed=len(v.history))
        gains = [preview(v, a, base) for a in legal]
        question = words.question_text(v, frame)
        self.screen(v, seat, frame[0], legal, gains, question)
        choice = self.ask(v, seat, question, legal)
        return choice

    def ask(self, v: Any, seat: int, question: str, legal: Sequence[Action]) -> Action:
        """Ask until the answer is a line of the menu; commands are carried out meanwhile."""
        prompt = _prompt(v, seat, question, legal)
        while True:
            try:
                choice = parse_choice(read_line(self.input_fn, prompt), len(legal))
            except Retry as exc:
                self.console.print(Text(str(exc), style="yellow"))
                continue
            if isinstance(choice, int):
                return legal[choice]
            self.command(v, seat, choice, legal)

    def command(self, v: Any, seat: int, command: Command, legal: Sequence[Action]) -> None:
        if command.name == "quit":
            if confirm_quit(self.input_fn):
                raise GameAbandoned
            self.console.print(say("quit.kept"))
        elif command.name == "help":
            self.console.print(Panel(say("help"), border_style="cyan"))
        elif command.name == "board":
            self.console.print(render.render_table(v, self.console.width))
        elif command.name == "log":
            self.console.print(Rule(say("log.title"), style="dim"))
            for entry in v.log[-LOG_LINES:]:
                self.console.print(GAME.describe_log(v, entry), highlight=False)
        elif command.name == "hint":
            self.console.print(self.hint(v, seat, legal))
        if command.name != "quit":
            base = full_state(v, seed=len(v.history))
            self.console.print(render.render_menu(v, legal, [preview(v, a, base)
                                                             for a in legal]))

    def hint(self, v: Any, seat: int, legal: Sequence[Action]) -> Panel:
        """`hint`: the search's three best choices, by their line in the menu, with the final
        lead each is expected to bring. Counted in the game's record."""
        self.hints_used[seat] = self.hints_used.get(seat, 0) + 1
        lines = [say("hint.line" if h.lead >= 0 else "hint.line-behind", rank=rank,
                     line=legal.index(h.action) + 1, move=h.words, lead=f"{abs(h.lead):.1f}",
                     share=round(100 * h.share))
                 for rank, h in enumerate(hints(GAME, v, legal), 1)]
        return Panel(Text("\n".join(lines)), title=say("hint.title"), border_style="cyan")

    # -- screens --------------------------------------------------------------------------

    def screen(self, v: Any, seat: int, kind: str, legal: Sequence[Action],
               gains: Sequence[Any], question: str) -> None:
        """Clear the terminal and draw one screen: as much of the table as fits (the parts
        the question is about first), then the question and its whole menu, the prompt on
        the last line, so nothing the player needs has scrolled away (as Gonzaga's screen)."""
        width, height = self.console.width, self.console.height
        menu = (render.render_turn_menu(v, legal, gains) if kind == "turn"
                else render.render_menu(v, legal, gains))
        head = Text(question[0].upper() + question[1:], style="bold")
        typed = -(-len(_prompt(v, seat, question, legal)) // width)  # wrapped by the terminal
        room = height - render.lines_needed(menu, width) - render.lines_needed(head, width) - typed
        table = self.fit(self.parts(v, seat), FIRST.get(kind, OTHERWISE), room, width)
        self.recent = []
        self.console.clear()
        self.console.print(Group(*table, head, menu))

    def parts(self, v: Any, seat: int) -> dict[str, Callable[[], RenderableType]]:
        """The parts of the table a screen may hold, drawn when chosen."""
        width = self.console.width
        return {"title": lambda: render.render_title(v),
                "summary": lambda: render.render_summary(v),
                "recent": lambda: Text("\n").join(self.recent[-RECENT:]),
                "dice": lambda: render.render_dice(v), "cities": lambda: render.render_cities(v),
                "tracks": lambda: render.render_tracks(v),
                "initiative": lambda: render.render_initiative(v),
                "rewards": lambda: render.render_rewards(v),
                "board": lambda: render.render_boards(v, [seat], width)}

    def fit(self, parts: dict[str, Callable[[], RenderableType]], first: Sequence[str],
            room: int, width: int) -> list[RenderableType]:
        """The parts that fit in `room` lines, taken in the order `first`, shown in the
        table's order; what happened lately is cut to its last lines if need be."""
        chosen: dict[str, RenderableType] = {}
        for name in first:
            if name == "recent":
                while self.recent and render.lines_needed(parts[name](), width) > room:
                    self.recent = self.recent[1:]
                if not self.recent:
                    continue
            drawn = parts[name]()
            need = render.lines_needed(drawn, width)
            if need <= room:
                chosen[name] = drawn
                room -= need
        return [chosen[name] for name in PARTS if name in chosen]

    def hand_over(self, v: Any, seat: int) -> None:
        """Hot-seat: name the next player and wait until they are at the keyboard."""
        self.console.print(Panel(Text(say("pass.device", tag=f"[{render.letter(v, seat)}]",
                                          name=v.names[seat])),
                                 border_style=render.player_style(v, seat)))
        read_line(self.input_fn, say("ask.enter", name=v.names[seat]))

    # -- what happens ---------------------------------------------------------------------

    def tell(self, state: SignorieState, action: Action | None = None) -> None:
        """Tell the new lines of the public log; a bot's move is followed by the pause."""
        public = GAME.view(state, None)
        entries = public.log
        for i in range(self.told, len(entries)):
            self.tell_entry(public, i)
        self.told = len(entries)
        if action is not None and action.seat not in self.human_seats and self.pause:
            self.sleep(self.pause)

    def tell_entry(self, p: Position, i: int) -> None:
        entry = p.log[i]
        if entry.kind == "round":
            self.console.print(Rule(say("title", round=entry.data["round"], rounds=p.t.rounds,
                                        phase=say("phase.actions"))))
        if entry.kind == "rewards":
            self.console.print(render.render_reward_step(p, dict(entry.data),
                                                         _initiative_scored(p, i)))
        if entry.kind != "game_over":
            line = _styled_line(p, entry.seat, GAME.describe_log(p, entry))
            self.console.print(line)
            self.recent = [*self.recent, line][-RECENT:]


def _prompt(v: Any, seat: int, question: str, legal: Sequence[Action]) -> str:
    return say("ask.prompt", name=v.names[seat], question=question, last=len(legal))


def _styled_line(p: Position, seat: int | None, line: str) -> Text:
    out = Text("  ")
    if seat is not None:
        out.append_text(render.mark(p, seat, " "))
    out.append(line)
    return out


def _initiative_scored(p: Position, rewards_at: int) -> dict[int, int]:
    """The initiative VP each seat scored just before the reward step at `rewards_at`."""
    out: dict[int, int] = {}
    for entry in reversed(p.log[:rewards_at]):
        if entry.kind == "round":
            break
        if entry.kind == "score" and entry.seat is not None \
                and entry.data["source"] == "initiative":
            out[entry.seat] = out.get(entry.seat, 0) + entry.data["points"]
    return out


class HumanPlayer:
    """A seat played by a person at this terminal; like a bot, it sees only its own view."""

    def __init__(self, name: str, terminal: Terminal) -> None:
        self.name = name
        self.terminal = terminal

    def decide(self, view: Any, legal_actions: Sequence[Action]) -> Action:
        return self.terminal.decide(view, legal_actions)


def seat_names(specs: Sequence[str]) -> list[str]:
    """People by their board's colour (`Yellow (you)` when alone), bots by their titles."""
    colours = GAME.info.seat_colours
    humans = sum(1 for s in specs if s == HUMAN)
    names = []
    for seat, spec in enumerate(specs):
        if spec == HUMAN:
            names.append(say("seat.you" if humans == 1 else "seat.human",
                             colour=words.colour_title(colours[seat])))
        elif specs.count(spec) > 1:
            names.append(say("seat.bot", title=bot_title(spec), n=specs[:seat + 1].count(spec)))
        else:
            names.append(bot_title(spec))
    return names


def play_in_terminal(specs: Sequence[str], *, seed: int | None, record: Path | None,
                     console: Console, pause: float = 0.0,
                     input_fn: Callable[[str], str] | None = None,
                     sleep: Callable[[float], None] = time.sleep) -> SignorieState:
    """Play one game at this terminal: `human` seats are asked, the others are bots.

    Returns the final state, or the state reached when the players left (`quit`, the end of
    the input, Ctrl-C). Raises ValueError for a wrong seat count or an unknown bot.
    """
    seats = [s.strip().lower() for s in specs]
    GAME.info.check_players(len(seats))
    if input_fn is None:
        def input_fn(prompt: str) -> str:
            return console.input(Text(prompt, style="bold"))

    humans = {i for i, s in enumerate(seats) if s == HUMAN}
    terminal = Terminal(console, input_fn, humans=len(humans), pause=pause, sleep=sleep,
                        human_seats=humans)
    names = seat_names(seats)
    players = [HumanPlayer(names[i], terminal) if spec == HUMAN
               else make_bot(GAME, spec, seed=None if seed is None else seed * 101 + i)
               for i, spec in enumerate(seats)]
    state = GAME.new_game(names, seed)
    console.print(Text(say("intro", n=len(seats), names=", ".join(names)), style="bold"))
    terminal.tell(state)
    try:
        play_game(GAME, players, state=state, observe=terminal.tell)
    except (GameAbandoned, KeyboardInterrupt):
        console.print(Text(say("abandoned", round=state.round), style="bold"))
    else:
        final = GAME.view(state, None)
        console.print(render.render_table(final, console.width))
        console.print(render.render_final(final, GAME.score_breakdown(state),
                                          GAME.ranks(state)))
    if record is not None:
        write_record(state, record, seats, console, terminal.hints_used)
    return state


def write_record(state: SignorieState, path: Path, specs: list[str], console: Console,
                 hints_used: dict[int, int] | None = None) -> None:
    """The game record (`tavola replay --verify` re-plays it), with the hints each seat
    asked for; a failure is reported."""
    try:
        path.write_text(dumps_record(GAME.record(state, players=specs, hints=hints_used))
                        + "\n",
                        encoding="utf-8")
    except OSError as exc:
        console.print(Text(say("record.failed", path=path, error=exc), style="red"))
        return
    console.print(say("record.written", path=path))
