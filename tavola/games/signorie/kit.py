"""Signorie declared to the platform (`tavola.kit`): where each of its parts lives.

Importing this imports nothing of the game; the platform loads a part when it uses it.
"""

from typing import TYPE_CHECKING

from tavola.kit import GameKit, Part

KIT = GameKit(
    name="signorie",
    package="tavola.games.signorie",
    game=Part("tavola.games.signorie.game:GAME"),
    record_format="signorie-record",
    levels=("random", "greedy", "planner", "mcts:easy", "mcts:medium", "mcts:hard"),
    text_domain="signorie",
    text_sources=("components.py",),
    words=Part("tavola.games.signorie.catalog:data_words"),
    moves=Part("tavola.games.signorie.game:MOVES"),
    site=Part("tavola.games.signorie.web.site:make_site"),
    view_schema=Part("tavola.games.signorie.web.schema:SignorieView"),
    terminal=Part("tavola.games.signorie.terminal"),
    tutorial=Part("tavola.games.signorie.tutorial:TUTORIAL"),
    rules=Part("tavola.games.signorie.rules"),
    tuning=Part("tavola.games.signorie.bots.tuning:tuning"),
    encoding=Part("tavola.games.signorie.game:GAME.encoding"),
    commands=Part("tavola.games.signorie.commands:register"),
    bench=Part("tavola.games.signorie.bench:figures"),
    bot_ratings="data/bot_ratings.json",
    editions=Part("tavola.games.signorie.edition:EDITION"),
    compiled=("state", "actions", "engine", "tables", "bots.values", "bots.hooks"),
)

if TYPE_CHECKING:  # mypy checks that the parts named above are what the platform takes
    from tavola.editions import EditionKind
    from tavola.game import BotFactory, Game
    from tavola.search import SearchSpec
    from tavola.web.site import WebGame

    from .actions import Action
    from .bots import GAME_BOTS
    from .bots.search import SignorieSearch
    from .edition import EDITION
    from .game import SignorieGame
    from .state import SignorieState, SignorieView
    from .web.site import make_site

    _GAME: Game[SignorieState, SignorieView, Action] = SignorieGame()
    _BOTS: dict[str, BotFactory] = GAME_BOTS
    _SEARCH: SearchSpec = SignorieSearch()
    _SITE: WebGame = make_site()
    _EDITION: EditionKind = EDITION
