"""What players read comes in the game's words: an illegal move is a plain sentence (the rule's
id stays for programs), fiefs have names, never numbers, and each source of points its name."""

from __future__ import annotations

import random
import re

from tavola.games import gonzaga
from tavola.games.gonzaga.actions import IllegalAction, PlaceFief, Plan, Wedding
from tavola.games.gonzaga.board import SHAPE_NAMES, load_board, rotate_axial, shape_key
from tavola.games.gonzaga.game import GAME
from tavola.games.gonzaga.state import Phase, Reason
from tavola.games.gonzaga.text import CARD_NAMES, REASON_NAMES, card_name

# what must never reach a player: rulebook note and rule numbers, rule ids, raw hex coordinates
NOT_FOR_PLAYERS = re.compile(r"NOTES|rule \d|\[|\(\d+, ?\d+\)|\d+,\d+|placing-\d|phase \d")


def illegal_messages(seed: int, tries: int = 12) -> dict[str, set[str]]:
    """Play a random 3-player game; on the way, try many illegal moves. Rule id -> messages."""
    rng = random.Random(seed)
    state = gonzaga.new_game(["Ann", "Bo", "Cy"], seed=seed)
    board = state.board
    found: dict[str, set[str]] = {}

    def attempt(action: object) -> None:
        try:
            GAME.apply(state, action)  # type: ignore[arg-type]  # the platform's: in words
        except IllegalAction as exc:
            found.setdefault(exc.rule, set()).add(exc.message)

    while state.phase is not Phase.OVER:
        seat = state.to_move()[0]
        me = state.players[seat]
        if state.phase is Phase.PLANNING:
            for card in me.resting:
                attempt(Plan(seat, card if card in board.regions else "inactive",
                             card if card in ("harbors", "cities", "alliance") else "cities",
                             card == "privilege"))
            attempt(Plan(seat, "atlantis", "cities"))
        else:
            for _ in range(tries):
                at = board.coords[rng.randrange(board.hex_count)]
                attempt(PlaceFief(seat, me.fief, at, rng.randrange(6)))  # type: ignore[arg-type]
                attempt(Wedding(seat, at, board.coords[rng.randrange(board.hex_count)]))
            attempt(PlaceFief(seat, (me.fief or 10) % 120 + 10, board.coords[0], 0))
            attempt(PlaceFief(seat, me.fief, (-5, -5), 0))  # type: ignore[arg-type]
        attempt(Plan((seat + 1) % 3, "francia", "cities") if state.phase is Phase.PLACING
                else PlaceFief(seat, me.fief, board.coords[0], 0))  # type: ignore[arg-type]
        state = gonzaga.apply(state, rng.choice(list(gonzaga.legal_actions(state, seat))))
    return found


def test_an_illegal_move_is_explained_in_a_plain_sentence_and_keeps_its_rule_id():
    found: dict[str, set[str]] = {}
    for seed in (1, 2):
        for rule, messages in illegal_messages(seed).items():
            found.setdefault(rule, set()).update(messages)
    # many different rules were broken on the way
    assert {"placing-2", "placing-3", "region-card", "action-card", "take-your-fief", "phase",
            "resting-card"} <= set(found)
    for rule, messages in found.items():
        assert re.fullmatch(r"[a-z0-9-]+", rule)  # the id, for programs
        for message in messages:
            assert not NOT_FOR_PLAYERS.search(message), (rule, message)
            assert "fief 1" not in message and not re.search(r"fief \d", message)
    # names, not ids: regions and cards as printed
    text = " ".join(m for ms in found.values() for m in ms)
    assert not re.search(r"(?<!Europa )Orientalis|orientalis", text)


def test_every_fief_has_a_name_from_its_shape_never_a_number():
    board = load_board()
    names = board.fief_names
    assert sorted(names) == sorted(board.fiefs) and len(set(names.values())) == len(names)
    shapes = {name for _, name in SHAPE_NAMES}
    for number, name in names.items():
        assert str(number) not in name
        assert name.split(" (")[0] in shapes  # a shape name, and its castles if needed
    # a shape is the same in every position, turn and mirror image
    for cells, _ in SHAPE_NAMES:
        for turns in range(6):
            moved = [rotate_axial(q, r, turns) for q, r in cells]
            assert shape_key((q + 3, r - 2) for q, r in moved) == shape_key(cells)
            assert shape_key((r, q) for q, r in moved) == shape_key(cells)
    assert len({shape_key(cells) for cells, _ in SHAPE_NAMES}) == len(SHAPE_NAMES)


def test_cards_and_sources_of_points_have_their_printed_names():
    board = load_board()
    assert card_name(board, "orientalis") == board.regions["orientalis"].name == "Europa Orientalis"
    assert card_name(board, "privilege") == "King's Privilege" == CARD_NAMES["privilege"]
    assert set(REASON_NAMES) == set(Reason)


def test_a_placement_names_the_fief_in_quotes_where_the_grammar_needs_it():
    """German cannot put a fief's name ("kurzer Balken") after "das Lehen" as it stands ("setzt
    das Lehen kurzer Balken" was read in the trial): the name is quoted, as in Italian."""
    from tavola import i18n
    from tavola.games.gonzaga.text import describe_action

    board = load_board()
    fief = next(f for f in range(1, 200) if "bar" in gonzaga.text.fief_name(board, f))
    move = PlaceFief(0, fief, (3, 4), 0)
    with i18n.use("de"):
        german = describe_action(board, ["Ann"], move)
    with i18n.use("it"):
        italian = describe_action(board, ["Ann"], move)
    assert re.fullmatch(r"Ann setzt das Lehen „[^„“]+“", german), german
    assert re.fullmatch(r"Ann posa il feudo «[^«»]+»", italian), italian
