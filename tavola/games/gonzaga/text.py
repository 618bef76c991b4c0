"""Everything a player of Gonzaga reads, in one place: names, journal lines, descriptions.

Every sentence is a template with named fields in `MESSAGES`, filled by `say`; nothing else in
the game builds English by concatenation. `say` reads the template in the language of the
moment from the `gonzaga` message catalog (`tavola.i18n`: the English text is the message id),
and so do the names below and the board's names of places, regions, seas and fiefs (`word`).
Numbers (limits, points) come from the rules, never written here.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from functools import cache
from typing import Any

from tavola import i18n

from .actions import (
    ACTION_CARDS,
    ACTION_COVERAGE,
    ALLIANCE,
    CITIES,
    HARBORS,
    INACTIVE,
    PRIVILEGE,
    WEDDING_CARD,
    Action,
    Donate,
    IllegalAction,
    PlaceFief,
    Plan,
    Wedding,
)
from .board import LOADING, Board, Spoken
from .state import (
    DETAILS,
    OBJECTIVE_POINTS,
    POINTS_GONZAGA_TILE,
    Entry,
    GameEnded,
    LastTurnChecked,
    Phase,
    PlansRevealed,
    Position,
    Reason,
    RoundStarted,
    ScoreEvent,
    TurnPlayed,
)

#: What the terminal game says: its screens, menus, questions and explanations of bad typing.
TERMINAL: dict[str, str] = {
    # the seats and the start and end of a game at the terminal
    "seat.you": "You", "seat.player": "Player {n}", "seat.bot": "{title} {n}",
    "intro.title": "Gonzaga",
    "intro.scenario": " — scenario {scenario}: {regions} flourish. Seats: ",
    "game.abandoned": "Game abandoned in round {round}. Goodbye!",
    "record.no-module": "Cannot write the game record ({error}).",
    "record.failed": "Cannot write the game record to {path}: {error}",
    "record.written": "Game record written to {path}",
    "pass.device": "Pass the device to {name} — nobody else should look now.",
    "pass.ready": "{name}, press Enter when ready",
    # questions and the typing they accept
    "ask.prompt": "{question} › ", "ask.yes-no": "{question} (y/n)",
    "ask.menu": "{question} [{hint}]", "ask.quit": "Quit the game? (y/n)",
    "hint.range": "1-{last}", "hint.back": "{keys}, b = back",
    "what.range": "a number from {first} to {last}", "what.number": "a number {keys}",
    "what.one-of": "one of {keys}",
    "retry.yes-no": "Please answer y (yes) or n (no).",
    "retry.type": "Type {what}.", "retry.unavailable": "{reason}: type {what}.",
    "retry.not-listed": "{answer} is not on the list: type {what}.",
    "retry.not-option": "{answer!r} is not an option: type {what}.",
    "retry.rotation": "Rotation r{rotation} does not exist: r0 to r5, in sixths of a turn "
                      "clockwise.",
    # the whole map, a page at a time
    "map.rows": "Map rows {first}-{last} of 0-{end}: ", "map.south": "Enter: further south · ",
    "map.north": "p: north · ", "map.back": "b: back to the game",
    # the map's legend: marks
    "legend.castle": "castle", "legend.ring": "ring", "legend.preview": "preview",
    "legend.barrier": "barrier", "legend.objective": "your objective",
    "legend.flourishing": "flourishing {points} pts a place",
    "legend.inactive": "inactive {points} pt",
    # the side panel and the status bar
    "side.status": "Gonzaga", "side.players": "Players", "side.score": "Score track",
    "side.objective": "Your objective", "side.legend": "Legend", "side.log": "Log",
    "status.round": "Round {round}", "status.detail": " (≤{rounds}) · {phase} · {scenario}",
    "status.order": "Order: ", "status.last-round": "This is the LAST ROUND",
    "status.final-round": "Round {round} is the last",
    "status.last-turn": "Last Turn: {who} counts after round {round}; ",
    "status.last-turn-yours": "Last Turn: you count after round {round}; ",
    "status.uncovered": "{n} places uncovered", "status.threshold": " (≤{threshold} ends)",
    "status.church": "Church: {donations}", "status.donation": "{who} {fief}",
    "bar.round": "Round {round} of at most {rounds}", "bar.last-round": "this is the LAST ROUND",
    "bar.final-round": "round {round} is the last",
    "bar.last-turn": "Last Turn check after round {round}: {n} places uncovered, {threshold} "
                     "or fewer end the game",
    "players.you": " (you)", "players.points": "{points} pts", "players.planned": " ✓ planned",
    "players.planning": " planning", "players.fief": "fief {fief} · card {card}",
    "players.placed": "fief placed", "players.no-fief": "no fief", "players.rests": " · rests ",
    "players.leagues": " · leagues ", "players.plan": "\n  plan ",
    # the log
    "entry.round": "── Round {round}: fief cards ", "entry.plans": "Plans: ",
    "entry.fief": " fief {fief} at {column},{row} r{rotation}",
    "entry.wedding": "Wedding: ring at {hexes}", "entry.wedding-two": "Wedding: rings at {hexes}",
    "entry.donated": " donated to the church", "entry.last-turn": "Last Turn check: ",
    "entry.uncovered": "{n} uncovered → ", "entry.last-next": "round {round} is the last!",
    "entry.play-on": "play on", "entry.over": "Game over after round {round}. ",
    "entry.tile": " takes the Gonzaga tile +{points}. ", "entry.winner": "Winner: ",
    "entry.shared": "Shared victory: ", "log.empty": "(nothing yet)",
    # fiefs and objective cards
    "fief.title": "Fief {fief}", "fief.card": "Fief {fief} · card {card}",
    "fief.marks": "   {castle} castle  {anchor} anchor (the hex you type)",
    "objective.hidden": "objective hidden", "objective.card": "Objective card {card}: ",
    "objective.city": " {city} ({region}) {at}", "objective.city-region": " {city} ({region})",
    "objective.taken": " {whose} fief (a ring may still go there)",
    "objective.end": "\n  {total} at the end", "whose.you": "your", "whose.other": "{name}'s",
    # the end of the game
    "final.title": "Final scores", "final.player": "player", "final.score": "score",
    "final.places": "cities+harbors", "final.group": "largest group",
    "final.tile": "Gonzaga tile: ", "final.no-tile": "nobody (no pieces on the map)",
    "final.objectives": "Objectives revealed:", "final.winner": "Winner: ",
    "final.shared": "Shared victory: ",
    "final.tied": " (tied on points and on cities and harbors covered)",
    # planning
    "hints.title": "Region cards · best points for fief {fief} now",
    "hints.region": "region card", "hints.rests": "rests",
    "hints.inactive": "{card}: {regions} ({points} pt a place)",
    "hints.privilege-rests": "the {card} rests", "hints.no-ring": "no ring left for the {card}",
    "hints.donate": "donating the fief: {points} pts", "hints.wedding": "{card}: or a Wedding",
    "planning.rests": "{card} rests this round (you played it last round)",
    "planning.region": "Region card: where will your fief go?",
    "planning.none-now": "no placement now", "planning.best-now": "best {points} pts now",
    "planning.option": "{card}: {limits} ({hint})", "planning.chosen": "Region card: ",
    "planning.now-action": " · now the action card, how your fief goes there:",
    "planning.action": "Action card with {region}", "planning.yours": "Your plan: ",
    "planning.plan": "{region} + {action}. ",
    "planning.privilege": "The {card} lets you place first this round.",
    "planning.use-privilege": "Use the {card} (spend 1 of your {rings} rings to place first)?",
    "planning.not-allowed": "That plan is not allowed; choose again.",
    # placing: the list of placements and its help
    "placements.pts": "pts", "placements.position": "position", "placements.group": "group",
    "placements.covers": "covers", "placements.league": "  + sea league {points}",
    "placements.empty": "empty hexes", "placements.ways": "  ({n} ways)",
    "position": "{column},{row} r{rotation}",
    "help.number": "number: preview", "help.position": "12,7 r3: place there",
    "help.covering": "12,7 or a name: placements covering it", "help.page": "n/p: page",
    "help.all": "all: the whole list", "help.donate": "d: donate ({points} pts)",
    "help.wedding": "w: Wedding", "help.map": "v: whole map", "help.size": "m: map size",
    "help.quit": "q: quit", "help.hint": "?: hint",
    "help.group": "group: your connected pieces after placing (the largest group wins the "
                  "Gonzaga tile, {points} pts) · ★ your objective city",
    "placing.none": "{plan}: no legal placement for this fief; donate it (d).",
    "placing.none-wedding": "{plan}: no legal placement for this fief; donate it (d) or "
                            "arrange a Wedding (w).",
    "placing.page": "{first}-{last} of {total}",
    "placing.covering": "{plan}: placements covering {label}, {page}",
    "placing.best": "{plan}: best placements {page} ({count} positions)",
    "placing.question": "Your move",
    "placing.empty": "Type a number from the list, a position like 12,7 r3, or d.",
    "placing.last-page": "That is the last page (p goes back).",
    "placing.first-page": "That is the first page.",
    "placing.donating": "Donating gives up fief {fief}: it goes to the church and scores "
                        "{points} points.",
    "placing.donate": "Donate fief {fief} to the church for {points} points?",
    "placing.no-wedding": "A Wedding needs the {card} card and a ring left.",
    "placing.not-listed": "{k} is not on the list (1 to {n}).",
    "placing.nothing": "There is nothing to pick: d donates.",
    "placing.off-map": "{column},{row} is not a hex of the map.",
    "placing.not-covered": "No legal placement covers {label} with your plan.",
    "placing.not-there": "Not there: {reason}.",
    "placing.unknown": "I did not understand {answer!r}. Try a number from the list, a position "
                       "like 12,7 r3, or d to donate.",
    # the preview and the Wedding
    "preview.label": "Preview (* on the map): ", "preview.points": "{points} points",
    "preview.group": " · your group: {pieces}", "preview.question": "Place it here?",
    "wedding.points": "{points} pts", "wedding.group": "  group {size}",
    "wedding.first-heading": "Wedding ({rings} left): the first ring goes on a land hex of "
                             "your planned region. Best hexes (points for this ring alone):",
    "wedding.second-heading": "A second ring may go next to the first (land or sea, even "
                              "across a barrier); points for both rings:",
    "wedding.first": "First ring", "wedding.second": "Second ring",
    "wedding.ask-first": "{question} [number, col,row, b = back]",
    "wedding.ask-second": "{question} [number, col,row, 0 = none]",
    "wedding.not-legal": "{column},{row} is not a legal ring hex here.",
    "wedding.retry-first": "Type a number from the list or a hex as col,row, or b to go back.",
    "wedding.retry-second": "Type a number from the list or a hex as col,row, or 0 for no "
                            "second ring.",
    "pick.option": "{move}: {points} pts",
    "why.event": "+{points} {detail}",
    "why.objective": "covers {city} for your objective",
    "why.plan": "your fief can score up to {points} points with these cards now",
    "why.plan-where": "your fief can score up to {points} points with these cards now, "
                      "{where}",
    "why.plan-nowhere": "your fief fits nowhere with these cards now",
    "why.plan-wedding": "arrange a Wedding with these cards (your rings go where your fief "
                        "cannot)",
    "why.nothing": "no points now",
    "why.near": "near {place}",
    "hint.title": "Hint: the search's three best moves (its expected final lead over the best "
                  "other player)",
    "hint.line": "{rank}. {move}: {lead} points at the end ({share}% of the search)",
    "hint.line-why": "{rank}. {move} ({why}): {lead} points at the end "
                     "({share}% of the search)",
}

#: What the web table says besides the journal.
WEB: dict[str, str] = {
    "page.title": "Gonzaga",  # the table page's title and header (translated by the browser)
    "wait.planned": "you have planned already; waiting for the others",
    "preview.event": "+{points} {detail}",
}

#: Every player-facing sentence, by key; `{fields}` are filled by `say`.
MESSAGES: dict[str, str] = {
    # counts ("no harbor", "1 city", "2 cities")
    "count.city": "{n} city", "count.cities": "{n} cities", "count.no-city": "no city",
    "count.harbor": "{n} harbor", "count.harbors": "{n} harbors", "count.no-harbor": "no harbor",
    "count.ring": "{n} ring", "count.rings": "{n} rings", "count.no-ring": "no rings",
    "count.piece": "{n} piece", "count.pieces": "{n} pieces",
    # lists
    "list.or": "{first} or {last}", "list.and": "{first} and {last}",
    "list.comma": "{first}, {rest}", "list.comma-or": "{first}, or {last}",
    "list.comma-and": "{first}, and {last}",
    "list.or-sep": " or ",
    "range.or": "{low} or {high}", "range.to": "{low} to {high}",
    # what an action card lets a fief cover
    "limit.only": "{counts} and {none}", "limit.pair": "{cities} and {harbors}",
    "limit.empty": "only empty hexes", "limit.with-empty": "{limits}, or {empty}",
    "limit.wedding": "{limits} (or a Wedding)", "limit.empty-card": "{card} (empty hexes only)",
    "privilege.help": "move first this round, for a ring",
    # plans and moves
    "plan": "{region} / {action}", "plan.privilege": "{region} / {privilege} + {action}",
    "plan.cards": "{region} + {action}",
    "plan.cards-privilege": "{region} + {action} + {privilege}",
    "plan.short-privilege": "{region} / {action} + KP", "plan.short-note": "KP: {privilege}",
    "move.plan": "{who}: {plan}",
    "move.fief": "{who} places the {fief}",
    "move.fief-where": "{who} places the {fief} {where}",
    "move.wedding-one": "{who} arranges a Wedding: a ring {first}",
    "move.wedding-two": "{who} arranges a Wedding: rings {first} and {second}",
    "where.on": "on {places}",
    "where.in": "in {regions}",
    "where.hex": "{where} ({at})",
    "where.at": "at {at}",
    "move.wedding": "{who} arranges a Wedding ({rings})",
    "move.donate": "{who} donates the fief to the church",
    "move.fief-at": "fief {fief} at {column},{row} rotation {rotation}",
    "move.wedding-at": "wedding: ring at {first}",
    "move.wedding-at-two": "wedding: ring at {first} and {second}",
    "move.donate-short": "donation to the church",
    "hex": "{column},{row}",
    # the journal
    "log.round": "Round {round}. Fiefs drawn: {drawn}",
    "log.drawn": "{who} the {fief}",
    "log.reveal": "Plans revealed: {plans}. Turn order: {order}",
    "log.order-sep": " → ",
    "log.last-turn": "Last Turn check by {who}: {uncovered} cities and harbors uncovered; "
                     "{verdict}",
    "log.last-next": "the next round is the last", "log.play-on": "play goes on",
    "log.end": "Final scoring. Winner: {winners}",
    "log.event": "{who} +{points}: {detail}",
    # score event details: the rules' data (`state.DETAILS`), stored in records in English
    **DETAILS,
    # short event texts in the terminal log
    "event.league": "sea league {sea} {points}", "event.church": "church {points}",
    "event.tile": "Gonzaga tile ({detail}) {points}", "event.objective": "objective: {detail} "
                                                                         "{points}",
    "event.place": "{detail} {points}",
    # the end of a game
    "final.note": "Gonzaga tile: {tile} points for the largest group of connected fiefs and "
                  "rings (group size in brackets). Objectives: the cities of the card's two "
                  "symbols covered, 0 to {cities}, for {table} points.",
    "objective.progress": "covered {covered} of {cities}",
    "objective.total": "{covered} of {cities} covered → {points} pts",
    "objective.fraction": "{covered}/{cities} → {points}",
    # the terminal map's legend
    "legend.cities": "Cities", "legend.harbors": "Harbors", "legend.marks": "Marks",
    # phases
    "phase.planning": "planning", "phase.placing": "placing fiefs", "phase.over": "game over",
    # moves refused by the rules (IllegalAction messages; the rule ids stay in the engine)
    "illegal.game-over": "the game is over",
    "illegal.unknown-action": "not an action: {action!r}",
    "illegal.unknown-player": "no player {player!r} in a {players}-player game",
    "illegal.placing-phase": "the plans are made; now the fiefs are being placed",
    "illegal.planning-phase": "fiefs are placed after everyone has planned",
    "illegal.planned-already": "{who} has already planned this round",
    "illegal.region-card": "{card!r} is not a region card of this game (its region cards: "
                           "{known})",
    "illegal.action-card": "{card!r} is not an action card ({cards}; the {privilege} goes with "
                           "one of them)",
    "illegal.resting-card": "the {card} card was played last round and rests this round",
    "illegal.privilege-ring": "the {privilege} costs a ring, and {who} has none left",
    "illegal.turn-order": "it is {who}'s turn to place",
    "illegal.off-map": "part of the fief is not on the map; every hex of a fief must lie on the "
                       "map",
    "illegal.castle-at-sea": "every castle must stand on land, not at sea",
    "illegal.barrier": "a fief may not lie across a barrier (the mountains drawn as thick lines)",
    "illegal.take-your-fief": "this round {who} places the fief drawn, the {fief}",
    "illegal.rotation": "a fief turns in sixths of a turn, 0 to 5, not {rotation!r}",
    "illegal.fief-taken": "{place} already holds a fief; a fief cannot go on top of another",
    "illegal.own-ring": "{place} holds {who}'s own ring; a fief may cover only other players' "
                        "rings",
    "illegal.fief-region": "the fief must cover at least one land hex of {regions}, the planned "
                           "region",
    "illegal.fief-action": "the {card} card does not allow covering {covered}: {limits}",
    "illegal.wedding-card": "a Wedding needs the {card} card",
    "illegal.wedding-rings": "{who} has {rings} left and cannot place {needed}",
    "illegal.ring-off-map": "a ring must go on the map",
    "illegal.wedding-region": "the first ring must go on a land hex of {regions}, the planned "
                              "region",
    "illegal.wedding-adjacent": "the second ring must go on a hex next to the first",
    "illegal.ring-taken": "{place} already holds a ring; a hex holds at most one ring",
    "illegal.ring-own-fief": "{place} is {who}'s own fief; a ring may not go on its owner's "
                             "fief",
    "illegal.that-hex": "that hex",
    "error.players": "Gonzaga is for {low} to {high} players, not {n}",
    "lobby.tagline": "Fiefs, rings and sea leagues on a map of Europe: plan your turns in "
                     "secret, then place your fiefs.",
    "lobby.scenario": "Scenario",
    "lobby.random-scenario": "Random",
    "lobby.flourish": "{scenario}: {regions} flourish",
    "lobby.variants": "Rule variants",
    "lobby.variant": "Rule variant “{id}”: {text}",
    "error.no-pause": "Gonzaga's terminal game has no --pause: its bots move at once, and "
                      "the log beside the map shows what they did",
    **TERMINAL,
    **WEB,
    # the tutorial (tavola/games/gonzaga/tutorial.py)
    "tutorial.you": "You",
    "tutorial.bot": "Greedy bot",
    "tutorial.intro": "Welcome to Gonzaga! You play Red against one bot. Each round you plan in "
                      "secret where your fief goes and how, then everyone places in turn. Follow "
                      "the glowing outline.",
    "tutorial.waiting": "The bot is thinking. Watch the map and the log: its plan and its fief "
                        "appear when it has played.",
    "tutorial.done": "That is the heart of Gonzaga: plan, then place. Play on against the bot to "
                     "the end, or go back to the lobby and start a game of your own.",
    "tutorial.plan.title": "Plan {region} with the {action} card",
    "tutorial.plan.say": "Choose the {region} region card, then the {action} card, then press "
                         "Plan. With {action} your fief may cover {limits}. Cities score points, "
                         "and the number under each card shows the best you could score with it "
                         "now.",
    "tutorial.plan.refuse": "In this lesson, plan the {region} region card with the {action} card."
                            " You will choose freely once the lesson is over.",
    "tutorial.place.title": "Place your fief",
    "tutorial.place.say": "Click the first of the best placements (it shows the fief on the map), "
                          "then press Place fief. A fief scores every city and harbor it covers; "
                          "you may also turn it with the ⟲ ⟳ buttons and click the map to try "
                          "other spots.",
    "tutorial.place.refuse": "In this lesson, place your fief on the map: donating it to the "
                             "church or a Wedding can wait for a game of your own.",
    "tutorial.plan2.say": "The cards you played last round rest this round, so {resting} are "
                          "greyed out. Choose {region}, then the {action} card, then press Plan. "
                          "With {action} your fief may cover {limits}: harbors score, and three of"
                          " one sea make a sea league.",
    # the board check (`boardcheck.check_board`): `board check` prints them in English, the
    # map editor in its reader's language; the values are the board file's own names
    "check.no-hex": "the board has no playable hex",
    "check.not-connected": "the grid is not connected: {count} hexes cannot be reached from "
                           "{start}, e.g. {lost}",
    "check.region-no-land": "region {region} has no land hex",
    "check.sea-no-water": "sea {sea} has no sea hex",
    "check.regions": "there must be 6 regions, found {count}",
    "check.seas": "there must be 6 seas, found {count}",
    "check.region-cities": "region {region} must have 4 cities, has {count}",
    "check.region-harbors": "region {region} must have 4 harbors, has {count}",
    "check.sea-harbors": "sea {sea} must have 4 harbors, has {count}",
    "check.share-hex": "{place} and {other} share hex {at}",
    "check.off-region": "{place} at {at} is not on a land hex of {region}",
    "check.harbor-dry": "harbor {harbor} at {at} does not touch {sea}",
    "check.germanicum": "Mare Germanicum (sea mare-germanicum) must have 2 harbors in "
                        "Britannia and 2 in Germania, has {split}",
    "check.symbols": "there must be 8 city symbols, found {count}",
    "check.symbol-cities": "symbol {symbol} must be on 3 cities, is on {count}",
    "check.groups": "regions must split into two objective groups of 3, found {found}",
    "check.group-symbols": "objective group {group} must have 4 symbols, has {count}",
    "check.region-symbols": "the cities of {region} must carry each symbol of group {group} "
                            "once ({symbols}), carry {have}",
    "check.objectives": "the 16 objective cards must be exactly the 4 x 4 pairs of a "
                        "group-1 and a group-2 symbol",
    "check.barrier-apart": "barrier {edge} ({name}) does not join neighbouring hexes",
    "check.barrier-water": "barrier {edge} ({name}) must join two land hexes",
    "check.barrier-inside": "barrier {edge} ({name}) must lie on a border between two regions",
    "check.fief-numbers": "fiefs must be numbered 10, 20, ... 120, found {found}",
    "check.fief-size": "fief {fief} must have 3 or 4 distinct hexes",
    "check.fief-anchor": "fief {fief}: its first hex (the anchor) must be [0, 0]",
    "check.fief-apart": "fief {fief} is not one connected piece",
    "check.fief-castles": "fief {fief} needs two or more castles on distinct hexes of its own",
    "check.fief-twins": "fiefs {other} and {fief} cannot be told apart",
    "check.shapes-3": "all three 3-hex shapes must occur, found {count}",
    "check.shapes-4": "all seven 4-hex shapes must occur, found {count}",
    "check.scenarios": "there must be 16 scenario tiles, found {count}",
    "check.scenario-players": "scenario {scenario} is for {players} players (2 to 4 allowed)",
    "check.scenario-inactive": "scenario {scenario} must leave 1 to 3 regions inactive, "
                               "leaves {count}",
    "check.scenario-twice": "scenario {scenario} repeats another tile for {players} players",
    "check.no-scenario": "no scenario for {players} players",
    "check.colombo": "scenario Colombo must make Hispania, Francia, Britannia and Italia "
                     "flourish",
    "check.fief-no-fit": "fief {fief} has no legal placement with the {card} card",
    "check.region-no-fit": "no fief can be placed in {region} with the {card} card",
    # reading the board file (`board.board_from_dict`): the loader's own table, since
    # the loader cannot import the text layer, which imports it
    **LOADING,
    # the board file as an edition (`edition.GonzagaEditions.check`)
    "size.side": "The board may have at most {most} {what}, this one has {count}.",
    "size.entries": "A board may have at most {most} {what}, this one has {count}.",
    "size.edges": "A board may have at most {most} barrier edges, this one has {count}.",
    "size.fief-hexes": "A fief may have at most {most} hexes, this one has {count}.",
    "size.deep": "The board file is nested deeper than its format allows.",
    "size.text": "This text has {count} characters; at most {most} are allowed.",
    "edition.too-deep": "The board file is nested too deeply to be read.",
    "edition.unchecked": "the board file could not be checked: {error}",
    "edition.not-json": "The board file holds something that is not plain JSON (a number that "
                        "is not finite, say).",
    "edition.too-large": "The board file has {size} bytes; at most {most} are allowed.",
    "edition.not-object": "The board file must be a JSON object.",
    "edition.describe": "{hexes} hexes, {cities} cities, {harbors} harbors, {fiefs} fiefs",
}

#: The printed names of the cards that are not region cards (a region card bears its region's
#: name, from the board).
CARD_NAMES = {INACTIVE: "Inactive Regions", HARBORS: "Harbors", CITIES: "Cities",
              ALLIANCE: "Alliance", PRIVILEGE: "King's Privilege"}

#: Each source of points as players call it, in the order the end screens list them.
REASON_NAMES = {
    Reason.CITY: "Cities", Reason.HARBOR: "Harbors", Reason.SEA_LEAGUE: "Sea leagues",
    Reason.DONATION: "Church (donations)", Reason.GONZAGA_TILE: "Gonzaga tile",
    Reason.OBJECTIVE: "Objective",
}

#: A source of points inside a sentence ("for city Sevilla", "for the Gonzaga tile: ...").
REASON_WORDS = {
    Reason.CITY: "city", Reason.HARBOR: "harbor", Reason.SEA_LEAGUE: "sea league",
    Reason.DONATION: "donation:", Reason.GONZAGA_TILE: "the Gonzaga tile:",
    Reason.OBJECTIVE: "objective",
}

COLOUR_NAMES = {"red": "Red", "yellow": "Yellow", "green": "Green", "blue": "Blue"}


DOMAIN = "gonzaga"


def say(key: str, **fields: Any) -> str:
    """The message `key` in the language of the moment, with its fields filled in."""
    return i18n.gettext(DOMAIN, MESSAGES[key]).format(**fields)


def word(name: str) -> str:
    """A name from the board data or a table here (Venezia, King's Privilege) as the language
    of the moment prints it."""
    return i18n.gettext(DOMAIN, name)


def count(n: int, thing: str) -> str:
    """`n` things in words: "no city", "1 city", "3 cities" (`thing`: city, harbor, ring...)."""
    if n == 0 and f"count.no-{thing}" in MESSAGES:
        return say(f"count.no-{thing}")
    return say(f"count.{thing}" if n == 1 else f"count.{_PLURALS[thing]}", n=n)


_PLURALS = {"city": "cities", "harbor": "harbors", "ring": "rings", "piece": "pieces"}


def join(items: Sequence[str], word: str = "and", *, serial: bool = False) -> str:
    """"a", "a and b", "a, b and c" (`word`: and / or); `serial`: "a, b, or c"."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    head = items[0]
    for item in items[1:-1]:
        head = say("list.comma", first=head, rest=item)
    if serial and len(items) > 2:
        return say(f"list.comma-{word}", first=head, last=items[-1])
    return say(f"list.{word}", first=head, last=items[-1])


# -- names ---------------------------------------------------------------------------------------


def card_name(board: Board | None, card: str) -> str:
    """A planning card as printed: its region's name, or Harbors, Cities, King's Privilege..."""
    if board is not None and card in board.regions:
        return word(board.regions[card].name)
    return word(CARD_NAMES.get(card, card.replace("-", " ").title()))


def fief_name(board: Board, fief: int) -> str:
    """A fief by the name players know it by (its shape), in the language of the moment."""
    return word(board.fief_name(fief))


def reason_name(reason: Reason | str) -> str:
    return word(REASON_NAMES[Reason(reason)])


def reason_words(reason: Reason | str) -> str:
    if reason not in set(Reason):
        return str(reason)
    return word(REASON_WORDS.get(Reason(reason), str(reason)))


def colour_name(colour: str) -> str:
    return word(COLOUR_NAMES.get(colour, colour.title()))


def phase_name(phase: Phase) -> str:
    return say(f"phase.{phase}")


def hex_text(at: Sequence[int]) -> str:
    return say("hex", column=at[0], row=at[1])


# -- refusals --------------------------------------------------------------------------------


def refusal(board: Board, refused: IllegalAction) -> str:
    """Why the rules refused an action, in the language of the moment: the engine names the
    sentence and gives its facts as data (`IllegalAction.key` and `fields`), this words them."""
    data = dict(refused.fields)
    fields = {"privilege": card_name(None, PRIVILEGE),
              "cards": join([card_name(None, c) for c in ACTION_CARDS], "or")}
    if "card_id" in data:
        card = data.pop("card_id")
        fields["card"] = card_name(board, card)
        fields["limits"] = action_limits(card) if card in ACTION_COVERAGE else ""
    if "hexes" in data:
        fields["place"] = _there(board, data.pop("hexes"))
    if "region_names" in data:
        fields["regions"] = say("list.or-sep").join(data.pop("region_names"))
    if "ring_count" in data:
        fields["rings"] = count(data.pop("ring_count"), "ring")
    if "cities" in data:
        covered = ((data.pop("cities"), "city"), (data.pop("harbors"), "harbor"))
        fields["covered"] = join([count(n, thing) for n, thing in covered if n]) or say(
            "limit.empty")
    return say(refused.key, **data, **fields)


def worded(board: Board, refused: IllegalAction) -> IllegalAction:
    """The same refusal with its `message` in words, for the platform to show."""
    return IllegalAction(refused.rule, refused.key, refused.fields, refusal(board, refused))


def _there(board: Board, hexes: Sequence[int]) -> str:
    """Where on the map, in players' words: the place on one of the hexes, else no name."""
    places = [n for n in (board.place_name(h) for h in hexes) if n]
    return places[0] if places else say("illegal.that-hex")


# -- action cards ----------------------------------------------------------------------------


def action_limits(card: str) -> str:
    """What a fief placed under an action card may cover, from the rules' `ACTION_COVERAGE`:
    "1 or 2 harbors and no city", "1 to 3 cities and no harbor, or only empty hexes"..."""
    allowed = ACTION_COVERAGE[card]
    some = sorted(pair for pair in allowed if pair != (0, 0))
    text = _coverage(some)
    if (0, 0) in allowed:
        text = say("limit.with-empty", limits=text, empty=say("limit.empty"))
    if card == WEDDING_CARD:
        text = say("limit.wedding", limits=text)
    return text


def _coverage(pairs: list[tuple[int, int]]) -> str:
    cities = {c for c, _ in pairs}
    harbors = {h for _, h in pairs}
    if cities == {0}:
        return say("limit.only", counts=_span(sorted(harbors), "harbor"), none=count(0, "city"))
    if harbors == {0}:
        return say("limit.only", counts=_span(sorted(cities), "city"), none=count(0, "harbor"))
    return join([say("limit.pair", cities=count(c, "city"), harbors=count(h, "harbor"))
                 for c, h in sorted(pairs, key=lambda p: (p[0] + p[1], p[1]))], "or",
                serial=True)


def _span(values: list[int], thing: str) -> str:
    """1 or 2 harbors; 1 to 3 cities (a run of counts)."""
    low, high = values[0], values[-1]
    if low == high:
        return count(low, thing)
    key = "range.or" if len(values) == 2 else "range.to"
    return count(high, thing).replace(str(high), say(key, low=low, high=high), 1)


def card_help(card: str) -> str:
    """The one line under a card's name on the planning screens."""
    return say("privilege.help") if card == PRIVILEGE else action_limits(card)


def fit_cards() -> dict[str, frozenset[tuple[int, int]]]:
    """The action cards as the board check tests them, by name (`Spoken`: English, worded in
    the reader's language in a finding): a card that also allows empty hexes is tested with
    places and with empty hexes only."""
    out: dict[str, frozenset[tuple[int, int]]] = {}
    for card in ACTION_CARDS:
        allowed = ACTION_COVERAGE[card]
        out[Spoken(functools.partial(card_name, None, card))] = frozenset(allowed - {(0, 0)})
        if (0, 0) in allowed:
            out[Spoken(functools.partial(_empty_only, card))] = frozenset({(0, 0)})
    return out


def _empty_only(card: str) -> str:
    return say("limit.empty-card", card=card_name(None, card))


# -- plans and moves -------------------------------------------------------------------------


def plan_text(board: Board | None, plan: Plan) -> str:
    """Hispania / King's Privilege + Cities."""
    return _plan(board, plan, "plan", "plan.privilege")


def plan_cards(board: Board | None, plan: Plan) -> str:
    """Hispania + Cities + King's Privilege (the cards as they lie on the table)."""
    return _plan(board, plan, "plan.cards", "plan.cards-privilege")


def _plan(board: Board | None, plan: Plan, key: str, privileged: str) -> str:
    region, action = card_name(board, plan.region), card_name(board, plan.action)
    if plan.privilege:
        return say(privileged, region=region, action=action,
                   privilege=card_name(board, PRIVILEGE))
    return say(key, region=region, action=action)


def plan_short(board: Board | None, plan: Plan) -> str:
    """Hispania / Cities + KP, for narrow tables (with `plan_short_note` under them)."""
    region, action = card_name(board, plan.region), card_name(board, plan.action)
    return say("plan.short-privilege" if plan.privilege else "plan", region=region, action=action)


def plan_short_note() -> str:
    return say("plan.short-note", privilege=card_name(None, PRIVILEGE))


def describe_action(board: Board, names: Sequence[str], action: Action) -> str:
    """A move as a sentence: "Ann places the long bar", "Bob: Francia / Harbors"."""
    who = names[action.player]
    if isinstance(action, Plan):
        return say("move.plan", who=who, plan=plan_text(board, action))
    if isinstance(action, PlaceFief):
        return say("move.fief", who=who, fief=fief_name(board, action.fief))
    if isinstance(action, Wedding):
        return say("move.wedding", who=who, rings=count(1 if action.second is None else 2,
                                                        "ring"))
    return say("move.donate", who=who)


def where_text(board: Board, hexes: Sequence[int]) -> str:
    """Where a piece goes, in names on the map: the cities and harbors it covers
    ("Mantova–Bologna"), else the regions ("in Lombardia"), with the hex's coordinates when it
    is one hex (a Wedding's ring), so that two places never read the same."""
    places = list(dict.fromkeys(n for n in map(board.place_name, hexes) if n))
    if places:
        where = say("where.on", places="–".join(word(n) for n in places))
    else:
        regions = dict.fromkeys(board.region_of[h] for h in hexes if board.region_of[h])
        names = [word(board.regions[r].name) for r in regions if r in board.regions]
        where = say("where.in", regions="–".join(names)) if names else ""
    if len(hexes) == 1:
        at = hex_text(board.coords[hexes[0]])
        return say("where.hex", where=where, at=at) if where else say("where.at", at=at)
    return where


def describe_move(board: Board, names: Sequence[str], action: Action,
                  hexes: Sequence[int] = (), exact: bool = False) -> str:
    """A move named with where it goes (`hexes`, the ones it covers), for hints and reviews:
    "Ann places the hook on Mantova–Bologna", "Ann arranges a Wedding: rings on Genova
    (3,4) and in Lombardia (5,6)"; `exact` adds every hex a fief covers, to tell two
    placements on the same places apart."""
    who = names[action.player]
    if isinstance(action, PlaceFief) and hexes:
        where = where_text(board, hexes)
        if exact:
            where = say("where.hex", where=where,
                        at=" ".join(hex_text(board.coords[h]) for h in sorted(hexes)))
        return say("move.fief-where", who=who, fief=fief_name(board, action.fief),
                   where=where)
    if isinstance(action, Wedding) and hexes:
        rings = [where_text(board, [h]) for h in hexes]
        if len(rings) == 1:
            return say("move.wedding-one", who=who, first=rings[0])
        return say("move.wedding-two", who=who, first=rings[0], second=rings[1])
    return describe_action(board, names, action)


def move_text(action: PlaceFief | Wedding | Donate) -> str:
    """A turn by position, for tables and lists: "fief 50 at 3,4 rotation 2"."""
    if isinstance(action, PlaceFief):
        return say("move.fief-at", fief=action.fief, column=action.anchor[0],
                   row=action.anchor[1], rotation=action.rotation)
    if isinstance(action, Wedding):
        if action.second is None:
            return say("move.wedding-at", first=hex_text(action.first))
        return say("move.wedding-at-two", first=hex_text(action.first),
                   second=hex_text(action.second))
    return say("move.donate-short")


# -- scoring ---------------------------------------------------------------------------------


def event_text(e: ScoreEvent, names: Sequence[str]) -> str:
    """Ann +3: Sevilla."""
    return say("log.event", who=names[e.player], points=e.points, detail=detail_text(e))


def detail_text(e: ScoreEvent) -> str:
    """What a scoring event was for, in the language of the moment (events keep it in English,
    as records store it: `state.detail`)."""
    if e.reason in (Reason.CITY, Reason.HARBOR):
        return word(e.detail)
    for key in DETAILS:
        found = _template(key).fullmatch(e.detail)
        if found:
            return say(key, **{k: word(v) for k, v in found.groupdict().items()})
    return e.detail


@cache
def _template(key: str) -> re.Pattern[str]:
    """The English message `key` as a pattern that reads its fields back."""
    parts = re.split(r"\{(\w+)[^}]*\}", MESSAGES[key])
    return re.compile("".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>.+?)"
                              for i, p in enumerate(parts)))


def event_short(board: Board, e: ScoreEvent) -> str:
    """A scoring event in a few words, for the terminal log."""
    if e.reason is Reason.SEA_LEAGUE:
        sea = e.sea
        name = word(board.seas[sea].name) if sea in board.seas else e.detail
        return say("event.league", sea=name, points=e.points)
    if e.reason is Reason.DONATION:
        return say("event.church", points=e.points)
    if e.reason is Reason.GONZAGA_TILE:
        return say("event.tile", detail=detail_text(e), points=e.points)
    if e.reason is Reason.OBJECTIVE:
        return say("event.objective", detail=detail_text(e).split(": ", 1)[-1], points=e.points)
    return say("event.place", detail=detail_text(e), points=e.points)


def final_note() -> str:
    """How the final scoring works, with the rules' own numbers."""
    table = join([str(p) for p in OBJECTIVE_POINTS], "or")
    return say("final.note", tile=POINTS_GONZAGA_TILE, cities=len(OBJECTIVE_POINTS) - 1,
               table=table)


def objective_progress(covered: int) -> str:
    return say("objective.progress", covered=covered, cities=len(OBJECTIVE_POINTS) - 1)


def objective_total(covered: int) -> str:
    return say("objective.total", covered=covered, cities=len(OBJECTIVE_POINTS) - 1,
               points=OBJECTIVE_POINTS[covered])


def objective_fraction(covered: int, points: int) -> str:
    return say("objective.fraction", covered=covered, cities=len(OBJECTIVE_POINTS) - 1,
               points=points)


# -- the journal -----------------------------------------------------------------------------


def journal_line(position: Position, entry: Entry) -> str:
    """One journal entry as a sentence."""
    board = position.board
    names = position.names
    if isinstance(entry, RoundStarted):
        drawn = ", ".join(say("log.drawn", who=names[i], fief=fief_name(board, f))
                          for i, f in enumerate(entry.fiefs))
        return say("log.round", round=entry.round, drawn=drawn)
    if isinstance(entry, PlansRevealed):
        plans = "; ".join(describe_action(board, names, p) for p in entry.plans)
        order = say("log.order-sep").join(names[i] for i in entry.order)
        return say("log.reveal", plans=plans, order=order)
    if isinstance(entry, TurnPlayed):
        return describe_action(board, names, entry.action)
    if isinstance(entry, LastTurnChecked):
        verdict = say("log.last-next" if entry.last_round_next else "log.play-on")
        return say("log.last-turn", who=names[entry.holder], uncovered=entry.uncovered,
                   verdict=verdict)
    if isinstance(entry, GameEnded):
        return say("log.end", winners=join([names[i] for i in entry.winners]))
    raise TypeError(f"not a journal entry: {entry!r}")
