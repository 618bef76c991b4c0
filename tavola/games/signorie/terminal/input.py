"""Talking to the people at the terminal: what they type and what it means.

Every answer is read by `read_choice`: a number picks a menu line, a word is a command (`help`,
`board`, `log`, `hint`, `quit`), anything else is explained and asked again; nothing typed can
end the game but `quit` confirmed (or the end of the input).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .. import text as words

say = words.say

#: What people type, by meaning.
HELP, BOARD, LOG = ("help", "h", "?"), ("board", "b"), ("log", "l")
HINT = ("hint", "!")
QUIT, YES = ("quit", "q", "exit"), ("y", "yes")


class GameAbandoned(Exception):
    """The players left: `quit` confirmed, the end of the input or Ctrl-C."""


class Retry(Exception):
    """Typing that is not a choice; the message says why, then the question is asked again."""


@dataclass(frozen=True)
class Command:
    """A command typed in place of a choice: `help`, `board`, `log` or `hint`."""

    name: str


def parse_choice(answer: str, count: int) -> int | Command:
    """The menu line (0-based) or command an answer names; `Retry` explains anything else.

    `quit` is a command too; the caller asks for the confirmation.
    """
    low = answer.strip().lower()
    if not low:
        raise Retry(say("retry.empty", last=count))
    for name, spellings in (("help", HELP), ("board", BOARD), ("log", LOG), ("hint", HINT),
                            ("quit", QUIT)):
        if low in spellings:
            return Command(name)
    if low.rstrip(")").isdigit():
        n = int(low.rstrip(")"))
        if 1 <= n <= count:
            return n - 1
        raise Retry(say("retry.range", answer=answer.strip(), last=count))
    raise Retry(say("retry.word", answer=answer.strip()[:40], last=count))


def read_line(input_fn: Callable[[str], str], prompt: str) -> str:
    """One line as typed; the end of the input (or Ctrl-C) leaves the game."""
    try:
        answer = input_fn(prompt)
    except (EOFError, KeyboardInterrupt):
        raise GameAbandoned from None
    if answer is None:
        raise GameAbandoned
    return str(answer)


def confirm_quit(input_fn: Callable[[str], str]) -> bool:
    return read_line(input_fn, say("ask.quit")).strip().lower() in YES
