"""Every page of the site from one template.

The head (title, icon, styles, the catalogs' script) and the header (the site's or game's name,
the status line, the account's links) are written once here; each page's file in a `static/`
folder holds only its body, its `<main>`s. The page's scripts are ES modules, loaded in order
after the classic `/i18n.js` that sets their catalog. The words stay in English in the HTML and
the browser translates them from the server's catalogs (`translatePage` in common.js); the
header's own words are marked `N_` so that `tavola i18n extract` finds them here.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from pathlib import Path
from string import Template

from fastapi.responses import HTMLResponse

STATIC = Path(__file__).parent / "static"
_NO_CACHE = {"Cache-Control": "no-cache"}


def N_(text: str) -> str:
    """Marks a word of the header for the catalogs; the browser translates it."""
    return text


PAGE = Template("""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
$referrer<title>$title</title>
<link rel="icon" href="$favicon" type="image/svg+xml">
$styles
</head>
<body$name>
<header id="top">
  <a href="/" class="brand" id="brand"$brand_title>$brand</a>
$header
</header>
$body<div id="toast" role="alert" hidden></div>
<script src="/i18n.js?domains=$domains"></script>
$scripts
</body>
</html>
""")

# the header's words (outside the f-strings, where the extractor finds no call)
LANGUAGE, LOBBY_WORD, RULES_WORD, TO_THE_LOBBY = \
    N_("Language"), N_("Lobby"), N_("Rules"), N_("To the lobby")
ACCOUNT_NAV = '  <nav id="account-nav" class="account-nav"></nav>'
#: The rules offer their languages as links (rules.js fills them), not as the selector.
RULES_NAV = f'  <nav id="rules-langs" aria-label="{LANGUAGE}" data-languages></nav>'
LIVE_STATUS = '  <span id="status" aria-live="polite"></span>'


def tavola(name: str) -> str:
    """The address of one of the platform's own files."""
    return f"/static/tavola/{name}"


@dataclass(frozen=True)
class Page:
    """One page: the file of its body and what its head and header say."""

    body: Path
    title: str
    styles: tuple[str, ...]
    scripts: tuple[str, ...]  # its modules, in the order they run
    name: str | None = None  # the body's data-page, which the shared scripts read
    header: str = ""  # what follows the name in the header
    brand: str = "Tavola"
    brand_title: str | None = None
    favicon: str = tavola("favicon.svg")
    domains: tuple[str, ...] = ("tavola",)
    private: bool = False  # its address holds a secret: sent to no other site as a referrer

    def render(self) -> str:
        e = html.escape
        return PAGE.substitute(
            referrer='<meta name="referrer" content="no-referrer">\n' if self.private else "",
            title=e(self.title), favicon=self.favicon,
            styles="\n".join(f'<link rel="stylesheet" href="{s}">' for s in self.styles),
            name="" if self.name is None else f' data-page="{e(self.name)}"',
            brand_title="" if self.brand_title is None else f' title="{e(self.brand_title)}"',
            brand=e(self.brand), header=self.header,
            body=self.body.read_text(encoding="utf-8"), domains=",".join(self.domains),
            scripts="\n".join(f'<script type="module" src="{s}"></script>'
                              for s in self.scripts))

    def response(self, status_code: int = 200) -> HTMLResponse:
        return HTMLResponse(self.render(), status_code=status_code, headers=_NO_CACHE)


def account_page(name: str, title: str, *scripts: str, private: bool = False) -> Page:
    """A page of the account's part of the site: its title in the header, the account's links."""
    return Page(STATIC / f"{name}.html", title, (tavola("base.css"), tavola("account.css")),
                (tavola("common.js"), tavola("account.js"), *map(tavola, scripts)), name=name,
                header=f'  <span id="status">{html.escape(title)}</span>\n{ACCOUNT_NAV}',
                private=private)


ACCOUNT_PAGES = {page.name: page for page in (
    account_page("account", N_("Sign in"), "account-pages.js", "notices.js"),
    account_page("friends", N_("Friends"), "account-pages.js"),
    account_page("leaderboard", N_("Leaderboard"), "account-pages.js"),
    account_page("me", N_("My games"), "account-pages.js"),
    account_page("your-move", N_("Your move"), "account-pages.js"),
    account_page("profile", N_("Player"), "report.js", "account-pages.js"),
    account_page("moderation", N_("Moderation"), "moderation.js"),
    account_page("moderation-denied", N_("Moderation")),
    account_page("privacy", N_("Privacy")),
    account_page("review", N_("Game review"), "review.js"),
    account_page("editions", N_("Editions"), "editions-page.js"),
    account_page("edition", N_("Edition editor"), "editions.js"),
    account_page("reset-password", N_("Choose a new password"), "notices.js", private=True),
    account_page("unsubscribe", N_("No more e-mails"), "notices.js", private=True),
    account_page("verify-email", N_("Confirm your e-mail address"), "notices.js", private=True),
)}

LOBBY = Page(STATIC / "lobby.html", "Tavola",
             tuple(map(tavola, ("base.css", "lobby.css", "account.css", "learn.css"))),
             tuple(map(tavola, ("common.js", "account.js", "rules.js", "lobby.js"))),
             header=f"{LIVE_STATUS}\n{ACCOUNT_NAV}")

RULES = Page(STATIC / "rules.html", RULES_WORD, (tavola("base.css"), tavola("learn.css")),
             (tavola("common.js"), tavola("rules.js")), brand_title=TO_THE_LOBBY,
             header=f"{LIVE_STATUS}\n{RULES_NAV}")

# what every game's table loads of the platform's scripts, before the game's own (private:
# the extractor reads public tuples of strings as sentences)
_TABLE_SCRIPTS = ("common.js", "table.js", "signals.js", "leave.js", "report.js", "chat.js",
                 "hint.js", "tutorial.js", "help.js")


@dataclass(frozen=True)
class TablePage:
    """What a game's table page brings of its own (in its `static_dir()`; the body in
    `index.html`): its title, styles and scripts, and whether its header links the lobby."""

    title: str
    styles: tuple[str, ...]
    scripts: tuple[str, ...]
    lobby_link: bool = False

    def page(self, game: str, folder: Path) -> Page:
        """The table page of `game`, whose files are served under /static/`game`/."""
        own = f"/static/{game}/"
        lobby = f'  <a href="/" class="lobby-link" id="lobby-link">{LOBBY_WORD}</a>\n' \
            if self.lobby_link else ""
        rules = (f'  <a href="/rules/{game}" class="rules-link" id="rules-link" '
                 f'target="_blank" rel="noopener">{RULES_WORD}</a>')
        return Page(folder / "index.html", self.title,
                    (tavola("base.css"), tavola("learn.css"), *(own + s for s in self.styles)),
                    (*map(tavola, _TABLE_SCRIPTS), *(own + s for s in self.scripts)),
                    header=f'{lobby}{LIVE_STATUS}\n{rules}\n  <span id="conn" class="conn"></span>',
                    brand=self.title, brand_title=TO_THE_LOBBY,
                    favicon=own + "favicon.svg", domains=("tavola", game))
