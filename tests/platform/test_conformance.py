"""Every game the registry finds passes the conformance suite (`tavola.testing`)."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from tavola.game import LogEntry
from tavola.kit import GameKit, Part
from tavola.testing import (
    CHECKS,
    Check,
    ConformanceError,
    check_actions_round_trip,
    check_apply_is_pure,
    check_clone_is_independent,
    check_random_games_end,
    check_records_replay,
    check_secrets_stay_hidden,
    check_text_in_every_language,
    check_web_side,
    every_game,
)


@pytest.mark.parametrize("check", CHECKS.values(), ids=list(CHECKS))
@pytest.mark.parametrize("kit", every_game(), ids=lambda kit: kit.name)
def test_every_game_conforms(kit: GameKit, check: Check) -> None:
    check(kit)


# -- each check catches the fault it is for: Pesca (`fixture_game/`), broken one way each ------

FIXTURE = Path(__file__).parents[1] / "fixture_game"
sys.path.insert(0, str(FIXTURE))  # Pesca's rules, not installed: its kit is given here

from pesca.game import Act, Pesca, PescaGame  # noqa: E402
from pesca.kit import KIT as PESCA  # noqa: E402
from pesca.site import PescaSite, make_site  # noqa: E402


def broken(name: str, **parts: str) -> GameKit:
    """Pesca with the parts named replaced by this module's objects."""
    return replace(PESCA, **{part: Part(f"{__name__}:{attr}") for part, attr in parts.items()})


class SeesTheNextCard(PescaGame):
    """Each seat is shown the card of the seat after it."""

    def view(self, state: Pesca, seat: int | None) -> Pesca:
        view = super().view(state, seat)
        if seat is not None:
            after = (seat + 1) % len(state.names)
            view.hands[after] = state.hands[after]
        return view


class SaysTheNewCard(PescaGame):
    def describe_log(self, position: Pesca, entry: LogEntry) -> str:
        said = super().describe_log(position, entry)
        return f"{said}: {position.hands[entry.seat]}" if entry.kind == "draw" else said


class AppliesInPlace(PescaGame):
    def apply(self, state: Pesca, action: Act) -> Pesca:
        self.apply_in_place(state, action)
        return state


class SharesItsHands(PescaGame):
    def clone(self, state: Pesca) -> Pesca:
        return replace(super().clone(state), hands=state.hands)


class ForgetsTheSeat(PescaGame):
    def action_from_json(self, data: Any) -> Act:
        return replace(super().action_from_json(data), seat=0)


class DealsAnew(PescaGame):
    def from_setup(self, setup: Mapping[str, Any]) -> Pesca:
        return self.new_game(list(setup["names"]), int(setup["seed"]) + 1)


class DrawsFromAnEmptyDeck(PescaGame):
    def legal_actions(self, position: Pesca, seat: int) -> list[Act]:
        return [Act(seat, False), Act(seat, True)] if seat in position.to_move() else []


class NobodyWins(PescaGame):
    def winners(self, state: Pesca) -> tuple[int, ...]:
        return ()


class ListsTheHands(PescaSite):
    def summary(self, state: Any) -> dict[str, Any]:
        return {**super().summary(state), "hands": list(state.hands)}


class SendsNoLog(PescaSite):
    def log_json(self, view: Any, start: int) -> list[dict[str, Any]]:
        return [{**entry, "text": None} for entry in super().log_json(view, start)]


SEES_THE_NEXT_CARD, SAYS_THE_NEW_CARD, APPLIES_IN_PLACE = SeesTheNextCard(), SaysTheNewCard(), \
    AppliesInPlace()
SHARES_ITS_HANDS, FORGETS_THE_SEAT, DEALS_ANEW, NOBODY_WINS = SharesItsHands(), \
    ForgetsTheSeat(), DealsAnew(), NobodyWins()
DRAWS_FROM_AN_EMPTY_DECK = DrawsFromAnEmptyDeck()


class CountsTheDeckInWords(PescaSite):
    def position_json(self, view: Any) -> dict[str, Any]:
        return {**super().position_json(view), "deck": f"{len(view.deck)} cards"}


def counts_the_deck_in_words() -> PescaSite:
    site = make_site()
    site.__class__ = CountsTheDeckInWords
    return site


def lists_the_hands() -> PescaSite:
    site = make_site()
    site.__class__ = ListsTheHands
    return site


def sends_no_log() -> PescaSite:
    site = make_site()
    site.__class__ = SendsNoLog
    return site


@pytest.mark.parametrize("check", [c for n, c in CHECKS.items() if n != "text-in-every-language"],
                         ids=[n for n in CHECKS if n != "text-in-every-language"])
def test_pesca_conforms(check: Check) -> None:
    check(PESCA)


@pytest.mark.parametrize(("kit", "check", "said"), [
    (broken("pesca", game="SEES_THE_NEXT_CARD"), check_secrets_stay_hidden,
     "seat 1 knows every secret of seat 0 in a 2-player game"),
    (broken("pesca", game="SAYS_THE_NEW_CARD"), check_secrets_stay_hidden,
     "the log's sentences differs"),
    (broken("pesca", site="lists_the_hands"), check_secrets_stay_hidden,
     "a spectator is shown a secret .* the lobby's line differs"),
    (broken("pesca", game="APPLIES_IN_PLACE"), check_apply_is_pure,
     "apply changed its argument"),
    (broken("pesca", game="SHARES_ITS_HANDS"), check_clone_is_independent,
     "playing on a clone changed its original"),
    (broken("pesca", game="FORGETS_THE_SEAT"), check_actions_round_trip,
     r"comes back from .*seat.: 1. as Act\(seat=0"),
    (broken("pesca", game="DEALS_ANEW"), check_records_replay,
     "rebuilt from its setup"),
    (broken("pesca", game="NOBODY_WINS"), check_random_games_end, "winners ()"),
    (broken("pesca", game="DRAWS_FROM_AN_EMPTY_DECK"), check_random_games_end,
     r"the legal action Act\(seat=\d, draw=True\) in a 4-player game, before action \d \(seat "
     r"\d\) raised IndexError: pop from empty list"),
    (broken("pesca", site="sends_no_log"), check_web_side,
     "a view message does not meet the platform's schema: log.0.text: Input should be a "
     "valid string"),
    (broken("pesca", site="counts_the_deck_in_words"), check_web_side,
     "a view message does not meet its schema: deck: Input should be a valid integer"),
], ids=["view", "log", "lobby", "apply", "clone", "json", "setup", "winners", "crash", "web",
        "schema"])
def test_each_check_names_the_game_and_the_fault(kit: GameKit, check: Check, said: str) -> None:
    with pytest.raises(ConformanceError, match=f"^pesca: .*{said}"):
        check(kit)


def test_a_game_without_text_in_other_languages_is_caught() -> None:
    with pytest.raises(ConformanceError, match="pesca: its kit declares no text domain"):
        check_text_in_every_language(replace(PESCA, text_domain=None))


def test_the_web_game_protocol_declares_every_part_the_server_uses() -> None:
    """A game's web side is written against `WebGame`: whatever the server asks of a site is
    declared there (a function's body once swallowed most of the protocol's methods)."""
    import re

    from tavola.web.site import WebGame

    declared = {name for name in vars(WebGame) if not name.startswith("_")}
    declared |= set(WebGame.__annotations__)
    web = Path(__file__).parents[2] / "tavola" / "web"
    used = {name for path in web.glob("*.py") for name in re.findall(
        r"(?<![\w.'\"-])site\.([a-z_]+)\b(?!['\"-])", path.read_text(encoding="utf-8"))}
    assert used - declared == set()
