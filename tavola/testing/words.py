"""Every action and log entry has a sentence in every language the platform ships."""

from __future__ import annotations

import re
from typing import Any

from .. import i18n, i18n_tools
from ..kit import GameKit
from .play import fail, game_of, player_counts, sampled, steps

_PLACEHOLDER = re.compile(r"\{[a-z_][a-z0-9_]*(?:![rsa])?(?::[^}]*)?\}")


def check_text_in_every_language(kit: GameKit, seed: int = 0, samples: int = 10) -> None:
    """The game's catalogs hold every message in every language, and each action and log
    entry reads as a sentence in each language, translated where English has words to
    translate (at least one sentence of each kind differs from its English)."""
    if kit.text_domain is None:
        raise fail(kit, "its kit declares no text domain: it speaks English only")
    domain = i18n.DOMAINS.get(kit.text_domain)
    if domain is None:
        raise fail(kit, f"the text domain {kit.text_domain!r} is not one the platform reads")
    problems = i18n_tools.check(domain)
    if problems:
        raise fail(kit, f"{len(problems)} catalog problems, first {problems[0]}")
    english = _sentences(kit, seed, samples, i18n.DEFAULT)
    for lang in i18n.LANGUAGES:
        said = _sentences(kit, seed, samples, lang)
        for kind, sentences in said.items():
            if lang != i18n.DEFAULT and sentences == english[kind]:
                raise fail(kit, f"no {kind} reads otherwise in {lang} than in English: "
                                f"{english[kind][0]!r}")


def _sentences(kit: GameKit, seed: int, samples: int, lang: str) -> dict[str, list[str]]:
    """The sentences of sampled actions and of every log entry of random games, in `lang`."""
    game = game_of(kit)
    out: dict[str, list[str]] = {"action": [], "log entry": []}
    with i18n.use(lang):
        for players in player_counts(game):
            for step in sampled(kit, players, seed, samples):
                out["action"] += [_sentence(kit, lang, "action", game.describe_action(
                    step.state, a), a) for a in step.legal[:5]]
            state = _last(kit, players, seed)
            out["log entry"] += [_sentence(kit, lang, "log entry", game.describe_log(state, e),
                                           e) for e in game.log(state)]
    return out


def _last(kit: GameKit, players: int, seed: int) -> Any:
    state = None
    for step in steps(kit, players, seed):
        state = step.state
    return state


def _sentence(kit: GameKit, lang: str, kind: str, said: object, what: object) -> str:
    if not isinstance(said, str) or not said.strip() or _PLACEHOLDER.search(said):
        raise fail(kit, f"the {kind} {what!r} reads {said!r} in {lang}")
    return said
