"""Gonzaga declared to the platform (`tavola.kit`): where each of its parts lives.

Importing this imports nothing of the game; the platform loads a part when it uses it.
"""

from typing import TYPE_CHECKING

from tavola.kit import GameKit, Part

KIT = GameKit(
    name="gonzaga",
    package="tavola.games.gonzaga",
    game=Part("tavola.games.gonzaga.game:GAME"),
    record_format="gonzaga-record",
    levels=("random", "greedy", "planner", "mcts:easy", "mcts:medium", "mcts:hard"),
    text_domain="gonzaga",
    text_sources=("board.py",),
    words=Part("tavola.games.gonzaga.catalog:data_words"),
    moves=Part("tavola.games.gonzaga.game:MOVES"),
    site=Part("tavola.games.gonzaga.web.site:make_site"),
    view_schema=Part("tavola.games.gonzaga.web.schema:GonzagaView"),
    terminal=Part("tavola.games.gonzaga.terminal"),
    tutorial=Part("tavola.games.gonzaga.tutorial:TUTORIAL"),
    rules=Part("tavola.games.gonzaga.rules"),
    tuning=Part("tavola.games.gonzaga.bots.tuning:tuning"),
    encoding=Part("tavola.games.gonzaga.game:GAME.encoding"),
    commands=Part("tavola.games.gonzaga.commands:register"),
    bench=Part("tavola.games.gonzaga.bench:figures"),
    bot_ratings="data/bot_ratings.json",
    prepare=Part("tavola.games.gonzaga.game:GAME.prepare"),
    editions=Part("tavola.games.gonzaga.edition:EDITIONS"),
    compiled=("engine", "actions", "state", "placement", "bots.evaluation", "bots.hooks"),
    owns_unnamed_games=True,  # the web server hosted Gonzaga alone at first
)

if TYPE_CHECKING:  # mypy checks that the parts named above are what the platform takes
    from tavola.editions import EditionKind
    from tavola.game import BotFactory, Game
    from tavola.search import SearchSpec
    from tavola.web.site import WebGame

    from .actions import Action
    from .bots import GAME_BOTS
    from .bots.mcts import GonzagaSearch
    from .edition import EDITIONS
    from .engine import PlayerView
    from .game import Gonzaga
    from .state import GameState
    from .web.site import make_site

    _GAME: Game[GameState, PlayerView, Action] = Gonzaga()
    _BOTS: dict[str, BotFactory] = GAME_BOTS
    _SEARCH: SearchSpec = GonzagaSearch()
    _SITE: WebGame = make_site()
    _EDITIONS: EditionKind = EDITIONS
