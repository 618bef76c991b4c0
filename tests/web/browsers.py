"""Debian's Chromium driven by Playwright, for every browser test: where it is, how it starts,
screenshots, and waiting for the next view. Without Chromium a browser test skips locally and
fails in CI (CI=true), where .ci/run installs it."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from web_server import ARTIFACTS

CHROMIUM = shutil.which("chromium")  # Debian's package
#: The screenshots of README and docs/ are taken again with UPDATE_SCREENSHOTS=1; otherwise
#: they go to test-artifacts/ like every other screenshot, and the docs stay as they are.
DOCS = Path(__file__).resolve().parents[2] / "docs" if os.environ.get("UPDATE_SCREENSHOTS") \
    else ARTIFACTS
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]

try:
    from playwright import sync_api
except ImportError:  # pragma: no cover - the dev extra installs it
    sync_api = None

MISSING = ("Chromium is not installed (apt-get install chromium)" if CHROMIUM is None
           else "Playwright for Python is not installed (pip install -e '.[dev]')"
           if sync_api is None else None)


def require_browser() -> None:
    """Skip (fail in CI, where a browser test never silently skips) without a browser."""
    if MISSING:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{MISSING}; .ci/run installs it", pytrace=False)
        pytest.skip(f"{MISSING}: browser tests skipped")


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def docs_shot(page: Any, name: str) -> None:
    """A screenshot the README or docs/ shows (`name`.png): into docs/ with
    UPDATE_SCREENSHOTS=1, else into test-artifacts/."""
    DOCS.mkdir(exist_ok=True)
    page.screenshot(path=str(DOCS / f"{name}.png"))


def wait_new_view(page: Any, seq: int) -> None:
    page.wait_for_function(f"Number(document.body.dataset.seq) > {seq}", timeout=15000)


def wait_taken(page: Any, seq: int, control: str) -> None:
    """After a move: a newer view that no longer offers `control`, the decision just taken
    (or the game's end). Another seat's move can arrive before ours (plans are simultaneous);
    its view still offers the decision, and acting on it again would race our own move."""
    page.wait_for_function(f"Number(document.body.dataset.seq) > {seq} "
                           f"&& (!document.querySelector({control!r}) "
                           f"|| document.body.dataset.phase === 'over')", timeout=15000)


def click(page: Any, selector: str, errors: list[str] | None = None,
          timeout: float = 15000) -> None:
    """Click `selector`; if it never becomes clickable, fail with what the page showed (the
    view's number, the status line, the actions box and the page's script `errors` so far)
    and a screenshot, not a bare timeout."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.click(selector, timeout=timeout)
    except PlaywrightTimeout:
        shot(page, "stuck")
        seen = page.evaluate(
            "[document.body.dataset.seq, (document.querySelector('#status') || {}).innerText,"
            " (document.querySelector('#actions') || {}).innerText,"
            " (document.querySelector('#toast') || {}).innerText,"
            " (document.querySelector('#conn') || {}).innerText]")
        raise AssertionError(f"{selector} never became clickable; the page showed {seen}; "
                             f"script errors: {errors}") from None


#: What the page's modules hold, by the names the tests read: the modules share nothing through
#: globals, so a test imports them again (the same instances the page runs) to look inside.
PAGE_MODULES = {"Table": "/static/tavola/table.js", "Hint": "/static/tavola/hint.js",
                **{name: "/static/tavola/common.js" for name in (
                    "api", "chooseLanguage", "placeToast", "saveInvites", "toast", "when")}}
#: The game's own: `ui`, the state of its table, and Gonzaga's keys of hexes and legal moves,
#: in the modules beside the game's app.js.
GAME_MODULES = {"ui": "app.js", "hexKey": "hexes.js", "legalKey": "legal.js"}
# a name, not a property (`x.ui`) nor a word in a selector or a string ('#toast'); `...ui` is one
_NAMED = re.compile(r"(?<![\w$#'\"-])(?:(?<=\.\.\.)|(?<!\.))("
                    + "|".join([*PAGE_MODULES, *GAME_MODULES]) + r")(?![\w$])")


def in_page(js: str) -> str:
    """A function for `page.evaluate` or `wait_for_function` that runs `js` (an expression, or a
    function taking the evaluation's argument) with the page's modules it names in scope:
    those of `PAGE_MODULES` and, on a table, of `GAME_MODULES`."""
    named = sorted(set(_NAMED.findall(js)))
    lines = [f"const {{ {n} }} = await import({PAGE_MODULES[n]!r});"
             for n in named if n in PAGE_MODULES]
    game = [n for n in named if n in GAME_MODULES]
    if game:
        lines.append("const app = document.querySelector('script[src$=\"/app.js\"]').src;")
        lines += [f"const {{ {n} }} = await import(new URL({GAME_MODULES[n]!r}, app));"
                  for n in game]
    return (f"async (arg) => {{ {' '.join(lines)} const got = ({js}); "
            "return typeof got === 'function' ? got(arg) : got; }")


def wait_in_page(page: Any, js: str, timeout: float = 30000) -> Any:
    """`wait_for_function` for an expression of `in_page` (whose imports make it a promise,
    which Playwright's own takes for a true value at once): polled in the page until true."""
    check = in_page(f"""async () => {{
      const until = Date.now() + {timeout};
      for (;;) {{
        const got = ({js});
        if (got) return got;
        if (Date.now() > until) throw new Error("not true within {timeout} ms: " + {js!r});
        await new Promise((resolve) => setTimeout(resolve, 50));
      }} }}""")
    return page.evaluate(check)
