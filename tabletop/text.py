"""Everything a player reads from the platform itself (not from a game): the web server's
errors and the lobby's words, each a template with named fields filled by `say`, in the
language of the moment (`tabletop.i18n`, domain `tabletop`; the English text is the message id).
"""

from __future__ import annotations

from typing import Any

from . import i18n

DOMAIN = "tabletop"

#: Every platform sentence a player reads, by key; `{fields}` are filled by `say`.
MESSAGES: dict[str, str] = {
    "error.not-found": "no such game",
    "error.spectator-act": "spectators cannot act; open your seat's link to play",
    "error.spectator-undo": "spectators cannot take moves back",
    "error.spectator-rematch": "only the players can ask for a rematch",
    "error.game-over": "the game is over",
    "error.stale": "the game moved on before your move arrived; it was not played",
    "error.no-undo": "there is no move of yours to take back: another player has moved since, "
                     "or it revealed cards",
    "error.not-over": "a rematch is for a finished game",
    "error.record-not-over": "the record and the replay open when the game is over",
    "error.bad-token": "this link is not valid for this game",
    "error.full": "every seat of this game is taken",
    "error.invitation": "this game is played by invitation: ask for a seat's link",
    "error.storage": "the move could not be saved; try again",
    "error.server-full": "the server has as many games as it can hold; try again later",
    "error.too-many-games": "too many unfinished games were started from your address or your "
                            "account; finish one, or start another when one has had no move "
                            "for {minutes} minutes",
    "error.server-error": "the server failed on this message",
    "error.not-your-seat": "you hold seat {seat} and cannot act for seat {actor}",
    "error.address-connections": "your address has {most} game windows open already; close "
                                 "one to open another",
    "error.seat-connections": "this seat is open in {most} windows already; close one of "
                              "them to open it here",
    "seat.player": "Player {n}",
    # hints at the web table
    "hint.spectator": "spectators cannot ask for hints",
    "hint.off": "hints are not allowed in this game",
    "hint.not-your-turn": "a hint is for your own turn",
    "hint.busy": "your hint is being worked out",
    "hint.stale": "the game moved on before the hint was ready; ask again",
    "hint.failed": "no hint could be worked out this time; try again",
    "hint.server-busy": "the server is working out as many hints as it can; ask again in a "
                        "few seconds",
    "hint.what-address": "hints from your address",
    "hint.what-player": "hints for this player",
    # the review of a finished game (`gonzaga review`)
    "review.title": "Review of {names}: {decisions} decisions of {seats} analysed",
    "review.columns": "move|round|player|played|the search prefers|cost (points)",
    "review.mistakes": "Biggest mistakes",
    "review.mistake": "{rank}. move {number} (round {round}): {played}; better: {best} "
                      "(about {cost} points)",
    "review.progress": "reviewing",
    "review.bad-seat": "the seat is a number from 0 to {last}",
    "review.what": "reviews from your address",
    "review.failed": "the review could not be worked out; try again later",
    "review.none": "No decision cost anything by the search's reckoning.",
    "review.graph-title": "Expected final score over the game",
    "review.graph-x": "actions played",
    "review.graph-y": "expected final score",
    "review.written": "Graph written to {path}",
    "review.gain": "{source} {points:+d}",
    "review.why": "played out to the end, the better move scores: {gains}",
    "review.hinted": "the hint ranked this move {rank}; this review's search is another one "
                     "(its own level, its own sample of the cards and dice nobody could see "
                     "yet) and values the move anew",
    "review.result": "{name} finished in place {place} of {players} with {points} points "
                     "(the winner: {winner}).",
    "seat.bot": "{level} bot",
    "seat.bot-n": "{level} bot {n}",  # two bots of one level: "Greedy bot 1", "Greedy bot 2"
    # turn-based games: time per move
    "timing.live": "Live (no time limit)",
    "timing.seconds": "{n} seconds per move (testing)",
    "timing.hours": "{n} hours per move",
    "timing.hour": "1 hour per move",
    "timing.day": "1 day per move",
    "timing.days": "{n} days per move",
    "timing.misses": "{n} missed moves",
    "timing.miss": "1 missed move",
    "timing.move-label": "Time per move",
    "timing.misses-label": "A bot takes the seat for good after",
    "timing.covered": "{name} ran out of time; a bot moved for {name}.",
    "timing.replaced": "{name} missed {misses} moves; a bot plays the seat for the rest of "
                       "the game.",
    "timing.replaced-one": "{name} missed a move; a bot plays the seat for the rest of the "
                           "game.",
    "timing.seat-replaced": "a bot plays your seat for the rest of the game, after "
                            "{misses} missed moves",
    "timing.bad": "the time per move is one of the offered choices",
    "timing.bad-misses": "the missed moves before a bot takes the seat are a whole number "
                         "from 1 to {most}",
    # chat
    "chat.spectator": "spectators may read the chat but not write; open your seat's link to "
                      "write",
    "chat.empty": "a chat message holds some text",
    "chat.too-long": "a chat message has at most {most} characters",
    "chat.not-text": "a chat message is text",
    "chat.control": "a chat message cannot hold control characters",
    "chat.full": "this game's chat is full ({most} messages)",
    "chat.seat-full": "you have written your share of this game's chat ({most} messages)",
    "chat.rate": "chat messages",
    # accounts
    "account.name-type": "a user name is text",
    "account.name-length": "a user name has {low} to {high} characters",
    "account.name-chars": "a user name holds letters, digits, '.', '-' and '_' only, and "
                          "begins with a letter or a digit",
    "account.name-taken": "the user name {name} is taken",
    "account.name-like": "this name would be mistaken for {other}, who already has an account: "
                         "choose one that others can tell apart",
    "account.name-ends": "a user name begins and ends with a letter or a digit",
    "account.name-invisible": "a user name cannot hold invisible characters ({code})",
    "account.name-scripts": "a user name is written in one alphabet, not {scripts}",
    "account.password-type": "a password is text",
    "account.password-length": "a password has {low} to {high} characters",
    "account.bad-login": "the user name or the password is wrong",
    "account.body": "send a JSON object with 'name' and 'password'",
    "account.csrf": "this request lacks the page's security token: reload the page and try "
                    "again",
    "account.sign-in": "sign in first",
    "limit.logins-address": "sign-in attempts from your address",
    "limit.logins-name": "sign-in attempts for this user name",
    "limit.logins-name-address": "sign-in attempts for this user name from your address",
    "limit.logins-device": "sign-in attempts from this browser",
    "limit.sign-ups": "new accounts from your address",
    "limit.account-reads": "account requests from your address",
    "limit.replays": "replay and record requests from your address",
    # seats held by accounts
    "seat.other-account": "this seat belongs to another account",
    "seat.rated-sign-in": "this is a rated game: sign in to take its seat",
    "seat.rated-twice": "in a rated game an account holds one seat only",
    "profile.not-found": "no player of that name",
    # rated games
    "rated.type": "'rated' must be true or false",
    "rated.sign-in": "sign in to create a rated game",
    "rated.no-bot-rating": "{bot} has no measured rating at {players} players: a rated game "
                           "can seat {bots}",
    "rated.no-bots-measured": "no bot has a measured rating at {players} players",
    "rated.no-person": "a rated game has at least one person seat",
    "rated.seed": "a rated game is dealt at random: leave the seed empty",
    "board.players": "the player count is a whole number from {low} to {high}",
    "vacation.days": "a vacation is a whole number of days, from 1 to the {left} you have "
                     "left this year",
    "vacation.none-left": "you have used this year's {days} vacation days",
    "vacation.not-on": "you are not on vacation",
    "leave.ended": "{name} left; the others ended the game: {name} is last, the others are "
                   "placed by their scores.",
    "leave.bot-plays": "The others chose to let a bot play {name}'s seat to the end.",
    "leave.no-choice": "there is no choice open about that seat",
    "leave.not-yours": "only the other players at the table choose",
    "leave.bad-choice": "the choice is 'bot' (a bot plays the seat) or 'end' (the game ends "
                        "now)",
}


def say(key: str, **fields: Any) -> str:
    """The platform's message `key` in the language of the moment, its fields filled in."""
    return i18n.gettext(DOMAIN, MESSAGES[key]).format(**fields)
