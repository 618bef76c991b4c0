"""The platform's own words (accounts, ratings), apart from any game's: one place, one key each.

Server messages are phrases (the browser makes sentences of them); `say(key, **fields)` fills
in the named fields.
"""

from __future__ import annotations

from typing import Any

MESSAGES: dict[str, str] = {
    # accounts
    "account.name-type": "a user name is text",
    "account.name-length": "a user name has {low} to {high} characters",
    "account.name-chars": "a user name holds letters, digits, '.', '-' and '_' only, and "
                          "begins with a letter or a digit",
    "account.name-taken": "the user name {name} is taken",
    "account.password-type": "a password is text",
    "account.password-length": "a password has {low} to {high} characters",
    "account.bad-login": "the user name or the password is wrong",
    "account.body": "send a JSON object with 'name' and 'password'",
    "account.csrf": "this request lacks the page's security token: reload the page and try "
                    "again",
    "account.sign-in": "sign in first",
    "account.busy": "the server is busy checking passwords; try again in a moment",
    "limit.logins-address": "sign-in attempts from your address",
    "limit.logins-name": "sign-in attempts for this user name",
    "limit.sign-ups": "new accounts from your address",
    "limit.account-reads": "account requests from your address",
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
}


def say(key: str, **fields: Any) -> str:
    """The message `key` with its fields filled in."""
    return MESSAGES[key].format(**fields)
