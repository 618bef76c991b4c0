"""Signorie (What's Your Game, 2015): rules engine and component data.

    >>> from tavola.games.signorie.game import GAME
    >>> state = GAME.new_game(["Ann", "Bob"], seed=7)
    >>> seat = state.to_move()[0]
    >>> state = GAME.apply(state, GAME.legal_actions(state, seat)[0])
"""
