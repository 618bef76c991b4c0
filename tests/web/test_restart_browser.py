"""A table whose server process restarts (SIGTERM, then started again) reconnects by itself
without a page reload: it says the server is restarting, comes back to the same seat with the
game as stored, and plays on."""

from __future__ import annotations

import json
from pathlib import Path

from browsers import shot
from web_server import launch

from tavola.web.loadbench import http_json

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


def test_a_move_the_restart_did_not_play_is_sent_again_by_the_page(
        tmp_path: Path, browser) -> None:
    """The server's side of a stop, played by a route between page and server: Ann's plan
    comes while the server stops, so it is refused (`restarting`), she is told and the socket
    closed with 1012. The page reconnects, finds the plan not in the game and sends it again."""
    srv = launch(tmp_path / "games.db")
    try:
        game = http_json(f"{srv.base}/api/games", {"game": "gonzaga", "seats": [
            {"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bo"}]})
        sent: list[str] = []
        refused: list[str] = []

        def route(ws) -> None:
            server = ws.connect_to_server()

            def from_page(message: str | bytes) -> None:
                if '"act"' in str(message) and not refused:
                    refused.append(str(message))
                    ws.send(json.dumps({"type": "error", "code": "restarting",
                                        "message": "the server is restarting"}))
                    ws.send(json.dumps({"type": "restarting", "message": "reconnecting you"}))
                    ws.close(code=1012)
                    return
                sent.append(str(message))
                server.send(message)

            ws.on_message(from_page)

        ann = browser.new_context(viewport={"width": 1280, "height": 860}).new_page()
        ann.route_web_socket("**/ws/**", route)
        ann.goto(f"{srv.base}{game['seats'][0]['link']}")
        ann.wait_for_selector("#plan-go")
        _plan(ann, "harbors")
        ann.wait_for_selector("#waiting", timeout=30_000)  # played on the new connection
        assert "Harbors" in ann.inner_text("#waiting")
        assert ann.evaluate("Number(document.body.dataset.resyncs)") == 1
        acts = [json.loads(m) for m in sent if '"act"' in m]
        assert len(refused) == 1 and len(acts) == 1
        assert acts[0] == json.loads(refused[0])  # the same move, on the same view
        ann.context.close()
    finally:
        srv.stop()
