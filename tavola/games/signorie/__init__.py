"""Signorie (What's Your Game, 2015): rules engine and component data.

    >>> from tavola.games.signorie.game import GAME
    >>> state = GAME.new_game(["Ann", "Bob"], seed=7)
    >>> seat = state.to_move()[0]
    >>> state = GAME.apply(state, GAME.legal_actions(state, seat)[0])
"""

from tavola.compiling import prefer_source

prefer_source(__name__, __path__[0])  # not a module compiled from another source
