"""Gonzaga declared to the platform (`tavola.kit`): where each of its parts lives.

Importing this imports nothing of the game; the platform loads a part when it uses it.
"""

from tavola.kit import GameKit, Part

KIT = GameKit(
    name="gonzaga",
    package="tavola.games.gonzaga",
    game=Part("tavola.games.gonzaga.game:GAME"),
    record_format="gonzaga-record",
    levels=("random", "greedy", "planner", "mcts:easy", "mcts:medium", "mcts:hard"),
    text_domain="gonzaga",
    words=Part("tavola.games.gonzaga.catalog:data_words"),
    moves=Part("tavola.games.gonzaga.game:MOVES"),
    site=Part("tavola.games.gonzaga.web.site:make_site"),
    terminal=Part("tavola.games.gonzaga.terminal"),
    tutorial=Part("tavola.games.gonzaga.tutorial:TUTORIAL"),
    rules=Part("tavola.games.gonzaga.rules"),
    tuning=Part("tavola.games.gonzaga.bots.tuning:tuning"),
    encoding=Part("tavola.games.gonzaga.game:GAME.encoding"),
    commands=Part("tavola.games.gonzaga.commands:register"),
    bench=Part("tavola.games.gonzaga.bench:figures"),
    prepare=Part("tavola.games.gonzaga.game:GAME.prepare"),
)
