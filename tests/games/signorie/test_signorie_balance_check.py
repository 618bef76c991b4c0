"""The component editor's balance check: bot games on an edition in a worker process, one at a
time per owner, bounded on the server, its report the balance report's tables."""

from __future__ import annotations

import asyncio
import copy
import re
from typing import Any

import pytest

from tavola import i18n
from tavola.games.signorie import text
from tavola.games.signorie.balance import play_run
from tavola.games.signorie.balance_report import VERDICT_NAMES, unused, verdict
from tavola.games.signorie.tables import default_data
from tavola.games.signorie.web.editor import (
    BALANCE_BURST,
    BALANCE_RUNNING,
    BalanceChecks,
    edition_table,
)
from tavola.games.signorie.web.site import _edition_of
from tavola.web.errors import ClientError


def edited(cost: int) -> dict[str, Any]:
    data = copy.deepcopy(default_data())
    data["action_slots"][0]["cost"]["value"] = cost
    return data


def test_a_check_plays_on_the_edition_in_a_worker_and_reports_the_balance_tables() -> None:
    async def scenario() -> dict[str, Any]:
        checks = BalanceChecks()
        try:
            check = checks.start("account:1", {"data": edited(3), "games": 3, "players": 2})
            with pytest.raises(ClientError, match="still running"):
                checks.start("account:1", {"data": edited(3), "games": 3})
            with pytest.raises(ClientError, match="no such balance check"):
                checks.get("account:2", check.id)
            await asyncio.gather(*checks._tasks)
            return checks.get("account:1", check.id).as_json()
        finally:
            checks.close()

    done = asyncio.run(scenario())
    assert done["finished"] and done["done"] == 3 and done["error"] is None
    report = done["report"]
    assert "## Who wins" in report and "| Yellow: Florins |" in report
    assert "Helper slots: hired, then activated" in report


def test_a_check_refuses_bad_requests_and_is_bounded() -> None:
    async def scenario() -> None:
        checks = BalanceChecks()
        broken = edited(3)
        broken["cities"] = []
        with pytest.raises(ClientError, match="problems of the data"):
            checks.start("a", {"data": broken})
        with pytest.raises(ClientError, match="1 to 1000 games"):
            checks.start("a", {"data": edited(3), "games": 10_000})
        with pytest.raises(ClientError, match="2, 3 or 4"):
            checks.start("a", {"data": edited(3), "players": 5})
        with pytest.raises(ClientError, match="as \"data\""):
            checks.start("a", [])
        # the games are never played: the owners' checks are refused before any worker starts
        checks.pool = lambda: (_ for _ in ()).throw(RuntimeError("no worker"))  # type: ignore
        for owner in range(BALANCE_RUNNING):
            checks.start(f"o{owner}", {"data": edited(2), "games": 1})
        with pytest.raises(ClientError, match="other balance checks"):
            checks.start("late", {"data": edited(2), "games": 1})
        await asyncio.gather(*checks._tasks)
        assert all(c.error for c in checks.checks.values())  # the worker failing is reported
        for _ in range(BALANCE_BURST - 1):
            checks.start("o0", {"data": edited(2), "games": 1})
            await asyncio.gather(*checks._tasks)
        with pytest.raises(ClientError, match="too many"):
            checks.start("o0", {"data": edited(2), "games": 1})

    asyncio.run(scenario())


def test_the_editor_s_picture_is_the_table_of_the_data_or_its_findings() -> None:
    drawn = edition_table(edited(4))
    assert drawn["findings"] == [] and drawn["table"]["colours"][0]["cost"] == 4
    assert drawn["table"]["components"]
    wrong = edited(9)
    found = edition_table(wrong)
    assert found["table"] is None
    assert [f["where"] for f in found["findings"]] == ["/action_slots/0/cost"]


def checked_report(lang: str, edition: tuple[str, int] | None) -> str:
    """The report of a check of 3 games of 2 players started in `lang` (the language of the
    request that starts it)."""
    async def scenario() -> str:
        checks = BalanceChecks()
        try:
            with i18n.use(lang):
                check = checks.start("account:1", {"data": edited(3), "games": 3,
                                                   "players": 2}, edition)
            await asyncio.gather(*checks._tasks)
            report = checks.get("account:1", check.id).report
            assert report is not None, check.error
            return report
        finally:
            checks.close()

    return asyncio.run(scenario())


def test_the_report_is_for_the_player_who_ran_it() -> None:
    """It names the edition and its version, the games and players, says in one line what
    looks off, and names no file and no command."""
    report = checked_report("en", ("Tuscan copy", 3))
    lines = report.splitlines()
    assert lines[0] == "# Balance check: Tuscan copy, version 3"
    assert "3 games of 2 players between the bots Greedy and Planner" in lines[2]
    assert lines[4].startswith(("**What looks off: ", "**Nothing looks"))
    for table in ("Who wins", "The bots", "Wins by the die colour a player took most",
                  "Dice taken, by colour", "Signoria actions", "Assignment tiles",
                  "Reward tiles", "Mean points per player by source"):
        assert f"# {table}" in report
    for developers in ("Re-run", "```", ".json", "tavola", "docs/", "--games", "worker"):
        assert developers not in report
    assert checked_report("en", None).splitlines()[0] == \
        "# Balance check: components not saved as an edition"


def english_fragments(templates: dict[str, str], lang: str) -> set[str]:
    """The literal words of English templates (between their fields: a few words, not a
    single name) that their translation into `lang` does not share, to find in a text that
    should have been translated."""
    return {part.strip(" :,.()%") for template in templates.values()
            for part in re.split(r"\{[^}]*\}", template) if " " in part.strip(" :,.()%")
            and part.strip(" :,.()%") not in i18n.gettext("signorie", template, lang)}


@pytest.mark.parametrize(("lang", "title"), [
    ("de", "# Balance-Prüfung: Toskana, Version 3"),
    ("it", "# Verifica dell'equilibrio: Toskana, versione 3"),
])
def test_the_report_is_in_the_language_of_the_request_that_started_it(lang: str,
                                                                       title: str) -> None:
    report = checked_report(lang, ("Toskana", 3))
    assert report.splitlines()[0] == title
    report_words = {k: v for k, v in text.MESSAGES.items() if k.startswith("report.")}
    fragments = english_fragments(report_words, lang) | \
        english_fragments(dict(text.SOURCES_EN), lang)
    assert len(fragments) > 40
    assert not [w for w in fragments if re.search(rf"\b{re.escape(w)}\b", report)]
    assert len(report.splitlines()) == len(checked_report("en", ("Toskana", 3)).splitlines())
    assert re.search(r"\d,\d", report) and not re.search(r"\d\.\d", report)  # 47,5 %


def test_the_shipped_data_is_named_as_the_shipped_reconstruction() -> None:
    assert _edition_of(None, None, default_data()) == ("Shipped reconstruction", 0)  # type: ignore[arg-type]
    assert _edition_of(None, None, edited(3)) is None  # type: ignore[arg-type]


def test_the_verdict_names_a_few_unused_components_and_counts_the_rest() -> None:
    run = play_run("greedy and planner", 2, 2, ("greedy", "planner"), None, 0, 1)
    missing = unused(run)
    assert len(missing) > VERDICT_NAMES  # two games leave many components unused
    line = verdict(run)
    assert line.startswith("What looks off: never used: " + ", ".join(missing[:3]))
    assert line.endswith(f", {len(missing) - VERDICT_NAMES + 1} more.")
