"""A table whose server process restarts (SIGTERM, then started again) reconnects by itself
without a page reload: it says the server is restarting, comes back to the same seat with the
game as stored, and plays on."""

from __future__ import annotations

from pathlib import Path

from browsers import shot
from web_server import launch

from tabletop.web.loadbench import http_json

#: The status line's texts, as the page showed them (a restart passes quickly).
WATCH_CONN = """() => {
  window.connTexts = [];
  const conn = document.querySelector('#conn');
  new MutationObserver(() => window.connTexts.push(conn.textContent))
    .observe(conn, { childList: true, characterData: true, subtree: true });
  window.notReloaded = true;
}"""


def _plan(page, action: str) -> None:
    page.click("#region-cards button:not([disabled])")
    page.click(f"#action-cards [data-card='{action}']")
    page.click("#plan-go")


def test_a_table_reconnects_without_a_reload_when_its_server_restarts(
        tmp_path: Path, browser) -> None:
    srv = launch(tmp_path / "games.db")
    port = int(srv.base.rsplit(":", 1)[1])
    try:
        game = http_json(f"{srv.base}/api/games", {"game": "gonzaga", "seats": [
            {"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bo"}]})
        links = [s["link"] for s in game["seats"]]
        ann = browser.new_context(viewport={"width": 1280, "height": 860}).new_page()
        ann.goto(f"{srv.base}{links[0]}")
        ann.wait_for_selector("#plan-go")
        _plan(ann, "harbors")
        ann.wait_for_selector("#waiting")  # stored and shown: Ann's plan waits for Bo's
        ann.evaluate(WATCH_CONN)

        srv.stop()  # SIGTERM: the server tells its clients and exits
        srv = launch(tmp_path / "games.db", port=port)
        ann.wait_for_function("Number(document.body.dataset.resyncs) >= 1", timeout=60_000)
        ann.wait_for_function("document.querySelector('#conn').textContent === 'online'",
                              timeout=60_000)
        assert ann.evaluate("window.notReloaded") is True  # the same page, not a reload
        texts = ann.evaluate("window.connTexts")
        assert any("restarting" in text for text in texts), texts
        assert "Harbors" in ann.inner_text("#waiting")  # the same seat, its plan as stored

        bo = browser.new_context(viewport={"width": 1280, "height": 860}).new_page()
        bo.goto(f"{srv.base}{links[1]}")
        bo.wait_for_selector("#plan-go")
        _plan(bo, "cities")
        # Ann's table, on its new connection, hears Bo's move: the reveal
        ann.wait_for_function("document.body.dataset.phase === 'placing'", timeout=30_000)
        shot(ann, "restarted-table")
        ann.context.close()
        bo.context.close()
    finally:
        srv.stop()
