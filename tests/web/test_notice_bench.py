"""The notification benchmark's verdict on a small run: your-turn events of turn-based games
delivered to a real SMTP server and webhook receiver on loopback while the server process is
killed with SIGKILL several times; none may be lost (the figures of the full run, 10,000
events from 2,000 games and 20 kills, are in the notes of docs/web.md)."""

from __future__ import annotations

from tavola.web.noticebench import run_notice_bench


def test_no_notice_is_lost_when_the_server_process_is_killed_again_and_again():
    figures = run_notice_bench(games=60, events=400, kills=4, seed=7, kill_after=(0.5, 1.5))
    assert figures["kills"] == 4  # each kill landed while the process was at work
    assert figures["events"] >= 400
    assert figures["events_delivered"] == figures["events"]
    assert figures["deliveries"] == 2 * figures["events"]  # e-mail and webhook each
    assert figures["lost"] == 0 and figures["unknown_received"] == 0
    assert figures["received"] == figures["deliveries"]
    assert figures["verdict"] == "ok"
