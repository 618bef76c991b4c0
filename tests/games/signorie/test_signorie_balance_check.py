"""The component editor's balance check: bot games on an edition in a worker process, one at a
time per owner, bounded on the server, its report the balance report's tables."""

from __future__ import annotations

import asyncio
import copy
from typing import Any

import pytest

from tavola.games.signorie.tables import default_data
from tavola.games.signorie.web.editor import (
    BALANCE_BURST,
    BALANCE_RUNNING,
    BalanceChecks,
    edition_table,
)
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
    assert "Win rate per starting position" in report and "| yellow: Florins |" in report
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


def test_the_report_speaks_the_readers_language_and_the_command_lines_english() -> None:
    """The editor's report is written in its reader's language (the check runs in the
    request's); the command line's stays as it was, in English."""
    from tavola import i18n
    from tavola.games.signorie.balance import markdown, run_balance

    runs = run_balance(players=(2,), games=2, search=None, workers=1)
    english = markdown(runs, "tavola balance", 1)
    assert "## Win rate per starting position" in english and "| yellow: Florins |" in english
    for lang, heading, row in (("de", "## Siegquote nach Startposition", "| Gelb: Florin |"),
                               ("it", "## Percentuale di vittorie per posizione iniziale",
                                "| giallo: Fiorini |")):
        with i18n.use(lang):
            report = markdown(runs, "tavola balance", 1)
        assert heading in report and row in report, report
        assert "Win rate" not in report and "| yellow" not in report
