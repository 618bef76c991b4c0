"""Everything a player reads from the platform itself (not from a game): the web server's
errors and the lobby's words, each a template with named fields filled by `say`, in the
language of the moment (`tavola.i18n`, domain `tavola`; the English text is the message id).
"""

from __future__ import annotations

from typing import Any

from . import i18n

DOMAIN = "tavola"

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
    "error.restarting": "the server is restarting and did not play this move; it is sent "
                        "again once you are reconnected",
    "restarting": "the server is restarting: reconnecting you now",
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
    # the review of a finished game (`tavola review`)
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
    "privacy.confirm": "type your password to delete your account (your user name, if "
                       "the account has no password)",
    "privacy.former-player": "Former player {n}",
    "seat.bot-plays": "a bot plays this seat now: its link cannot move for it",
    "limit.deletions": "attempts to delete your account",
    "limit.exports": "downloads of your data",
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
    "limit.waiting": "requests for your waiting games",
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
    "rated.edition": "a rated game is played on the shipped reconstruction, the edition the "
                     "ratings are measured on",
    "board.players": "the player count is a whole number from {low} to {high}",
    "notice.choice-subject": "{title}: a player ran out of time; your choice",
    "notice.choice": "{name} ran out of time for good in your game of {title}: choose whether a "
                     "bot plays the seat to the end or the game ends now.",
    "notice.you-won": "You won",
    "notice.winners": "Won by {names}",
    "notice.open-seat": "Open your seat",
    "notice.turn-subject": "{title}: it is your turn",
    "notice.turn": "It is your turn in your game of {title} with {others}.",
    "notice.clock-subject": "{title}: your time is running out",
    "notice.clock": "Only {left} remain for your move in your game of {title} with {others}; then "
                    "a bot plays for you.",
    "notice.nudge-subject": "{title}: your opponents are waiting",
    "notice.nudge": "{by} reminds you that your game of {title} with {others} waits for your move.",
    "notice.invite-subject": "{by} invites you to play {title}",
    "notice.invite": "{by} invites you to a game of {title}. Accept or decline the invitation on "
                     "the site.",
    "notice.open-invite": "Answer the invitation",
    "notice.finished-subject": "{title}: the game is over",
    "notice.finished": "Your game of {title} with {others} is over.",
    "notice.open-review": "See the review of your moves",
    "notice.digest.one": "{n} game waits for your move:",
    "notice.digest.many": "{n} games wait for your move:",
    "notice.digest-subject.one": "{n} game waits for your move",
    "notice.digest-subject.many": "{n} games wait for your move",
    "notice.open-games": "All your games",
    "notice.verify-subject": "Confirm your e-mail address",
    "notice.verify": "Open the link below to confirm this address for the account {name}. If you "
                     "did not ask for it, ignore this message: nothing will be sent to you.",
    "notice.open-verify": "Confirm the address",
    "notice.reset-subject": "Choose a new password",
    "notice.reset": "Someone asked to reset the password of the account {name}. The link below "
                    "works once, for an hour; using it signs the account out everywhere else. If "
                    "it was not you, ignore this message.",
    "notice.open-reset": "Choose a new password",
    "notice.footer": "You get this message because you asked for it on your account page: "
                     "{account}",
    "notice.unsubscribe": "No more e-mails (one click)",
    "notice.bad-email": "this is not an e-mail address",
    "notice.nudge-live": "a reminder is for turn-based games; in a live game your opponents are at"
                         " the table",
    "notice.nudge-not-asked": "this seat is not the one the game waits for",
    "notice.nudged": "this player was reminded less than a day ago",
    "notice.nudge-players": "only the players of a game can remind each other",
    "notice.bad-events": "the events are a list of: turn, invite, finished, clock, nudge",
    "notice.bad-mode": "choose when to be told of your turn: now, after some minutes away, or once"
                       " a day",
    "notice.bad-after": "the minutes away are a whole number from {low} to {high}",
    "notice.bad-hour": "the hour of the daily message is a whole number from {low} to {high}",
    "notice.bad-format": "the webhook's form is automatic, Discord, Slack or JSON",
    "notice.bad-webhook": "this webhook cannot be used: {why}",
    "notice.email-off": "this server sends no e-mail (it was started without an e-mail relay)",
    "notice.bad-verify": "this confirmation link is not valid: it was used, replaced by a newer "
                         "one, or is older than two days",
    "notice.bad-unsubscribe": "this unsubscribe link is not valid",
    "notice.unsubscribed": "You will get no more e-mails from this site. You can switch them on "
                           "again on your account page.",
    "notice.reset-sent": "If this account has a confirmed e-mail address, a link to choose a new "
                         "password is on its way.",
    "notice.bad-reset": "this link is not valid: it was used, or is older than an hour; ask for a "
                        "new one",
    "notice.minutes.one": "{n} minute",
    "notice.minutes.many": "{n} minutes",
    "notice.hours.one": "{n} hour",
    "notice.hours.many": "{n} hours",
    "limit.verify-emails": "addresses to confirm from your account",
    "limit.resets": "password reset links",
    # friends, blocks, invitations (tavola.web.friends)
    "friends.name-type": "send a JSON object with the player's user 'name'",
    "friends.self": "you cannot add yourself as a friend",
    "friends.blocked": "you cannot add {name}: one of you blocked the other",
    "friends.too-many": "a friend list holds at most {most} players",
    "friends.block-self": "you cannot block yourself",
    "limit.friend-changes": "changes to your friends and blocks",
    "limit.invitations": "invitations",
    "invite.sign-in": "sign in to invite friends",
    "invite.seat": "seat {seat}: only a person seat other than your own can be kept for a "
                   "friend",
    "invite.not-friend": "{name} is not on your friend list: add them first",
    "invite.blocked": "you cannot invite {name}",
    "invite.twice": "{name} is invited to one seat only",
    "invite.not-found": "no such invitation",
    "invite.answered": "this invitation was answered already",
    "invite.still-waiting": "{name} may still answer: the seat can be given to someone else "
                            "once they decline or the time to answer has passed",
    "invite.how": "give the seat with 'invite' (a friend's name), 'bot' (a level) or 'open'",
    "invite.bad-bot": "no such bot; the levels are {levels}",
    "invite.reserved": "this seat is kept for an invited player",
    "seat.blocked": "you cannot take a seat in this game",
    "chat.blocked": "nobody at this table can read your messages",
    "vacation.days": "a vacation is a whole number of days, from 1 to the {left} you have "
                     "left this year",
    "vacation.none-left": "you have used this year's {days} vacation days",
    "vacation.not-on": "you are not on vacation",
    "leave.ended": "{name} left; the others ended the game: {name} is last, the others are "
                   "placed by their scores.",
    "leave.bot-plays": "The others chose to let a bot play {name}'s seat to the end.",
    "leave.no-choice": "there is no choice open about that seat",
    "leave.not-yours": "only the other players at the table choose",
    "moderation.words": "a report's words are text of at most {most} characters",
    "moderation.why": "every action needs a reason: text of 1 to {most} characters",
    "moderation.muted": "a moderator muted your chat until {until}",
    "moderation.suspended": "this account is suspended until {until}",
    "moderation.suspended-for-good": "this account is suspended for good",
    "moderation.only": "this page is for the site's moderators",
    "moderation.reason": "a report's reason is one of {reasons}",
    "moderation.already": "you have already reported this; a moderator will look at it",
    "moderation.received": "Thank you: your report was received. A moderator will look at it.",
    "moderation.yourself": "you cannot report yourself",
    "moderation.no-line": "there is no such chat line",
    "moderation.no-report": "there is no such open report",
    "moderation.action": "the action is hide, mute, suspend or dismiss",
    "moderation.admin": "a moderator cannot act on an admin",
    "moderation.not-a-line": "only a reported chat line can be hidden",
    "moderation.guest": "a guest wrote this line: hide it, or dismiss the report",
    "moderation.period": "how long is an hour, a day, a week or a month (a suspension may be "
                         "for good)",
    "moderation.seat-bot": "{name}'s account is suspended: a bot plays the seat from now on.",
    "limit.reports": "reports from your account",
    "admin.granted": "{name} is now {role}.",
    "admin.revoked": "{name} is no longer {role}.",
    "admin.not-role": "{name} is not {role}.",
    "admin.no-user": "There is no account named {name}.",
    "admin.bad-role": "The roles are moderator and admin.",
    "admin.nobody": "Nobody has a role.",
    "leave.bad-choice": "the choice is 'bot' (a bot plays the seat) or 'end' (the game ends "
                        "now)",
    # a game's plain web side (`tavola.web.plainsite`)
    "site.to-move": "{names} to move",
    # editions (`tavola.web.editions`)
    "edition.name-type": "An edition's name is text.",
    "edition.name-length": "An edition's name has 1 to {most} characters.",
    "edition.name-control": "An edition's name cannot hold control characters.",
    "edition.visibility": "An edition is private, shared by link or public.",
    "edition.no-game": "This game has no editions.",
    "edition.not-json": "The edition's data is not JSON (NaN and Infinity are not allowed).",
    "edition.too-large": "The edition's data is {size} bytes; at most {most} are accepted.",
    "edition.check-failed": "The game could not check this data: it is not in the edition "
                            "format.",
    "edition.default-name": "Shipped reconstruction",
    "edition.not-found": "There is no such edition, or it is not shared with you.",
    "edition.no-version": "The edition has no such version.",
    "edition.too-many": "An account keeps at most {most} editions: delete one first.",
    "edition.unplayable": "The edition {name} still has problems: fix them and save it before "
                          "playing on it.",
    "edition.sign-in": "Sign in to save editions.",
    "edition.body": "Send a JSON object with the edition's game, name, data and visibility.",
    "limit.edition-checks": "edition checks from your address",
    # an edition's data against its format (`tavola.editions.schema_sentence`), the field
    # named in the game's words
    "schema.missing": "{field}: this entry is missing",
    "schema.extra": "{field}: this entry is not part of the format",
    "schema.text": "{field}: text is needed here",
    "schema.whole-number": "{field}: a whole number is needed here",
    "schema.number": "{field}: a number is needed here",
    "schema.finite": "{field}: a finite number is needed here",
    "schema.true-false": "{field}: true or false is needed here",
    "schema.list": "{field}: a list is needed here",
    "schema.object": "{field}: a group of named entries is needed here",
    "schema.empty": "{field}: this cannot be empty",
    "schema.text-short": "{field}: at least {min_length} characters are needed",
    "schema.text-long": "{field}: at most {max_length} characters are allowed",
    "schema.few": "{field}: at least {min_length} entries are needed",
    "schema.many": "{field}: at most {max_length} entries are allowed",
    "schema.above": "{field}: a value above {gt} is needed",
    "schema.at-least": "{field}: a value of at least {ge} is needed",
    "schema.below": "{field}: a value below {lt} is needed",
    "schema.at-most": "{field}: a value of at most {le} is allowed",
    "schema.one-of": "{field}: one of {expected} is needed here",
    "schema.invalid": "{field}: this value is not valid here",
    "schema.whole-file": "the file",
    "limit.edition-saves": "edition saves from your account",
}


def say(key: str, **fields: Any) -> str:
    """The platform's message `key` in the language of the moment, its fields filled in."""
    return i18n.gettext(DOMAIN, MESSAGES[key]).format(**fields)
