"""Signorie declared to the platform (`tavola.kit`): where each of its parts lives.

Importing this imports nothing of the game; the platform loads a part when it uses it.
"""

from tavola.kit import GameKit, Part

KIT = GameKit(
    name="signorie",
    package="tavola.games.signorie",
    game=Part("tavola.games.signorie.game:GAME"),
    record_format="signorie-record",
    levels=("random", "greedy", "planner", "mcts:easy", "mcts:medium", "mcts:hard"),
    text_domain="signorie",
    words=Part("tavola.games.signorie.catalog:data_words"),
    moves=Part("tavola.games.signorie.game:MOVES"),
    site=Part("tavola.games.signorie.web.site:make_site"),
    terminal=Part("tavola.games.signorie.terminal"),
    tutorial=Part("tavola.games.signorie.tutorial:TUTORIAL"),
    rules=Part("tavola.games.signorie.rules"),
    tuning=Part("tavola.games.signorie.bots.tuning:tuning"),
    encoding=Part("tavola.games.signorie.game:GAME.encoding"),
    commands=Part("tavola.games.signorie.commands:register"),
    bench=Part("tavola.games.signorie.bench:figures"),
)
