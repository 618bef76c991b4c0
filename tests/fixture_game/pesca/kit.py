"""Pesca declared to the platform (`tavola.kit`); importing this imports nothing of the game."""

from tavola.kit import GameKit, Part

KIT = GameKit(name="pesca", package="pesca", game=Part("pesca.game:GAME"),
              record_format="pesca-record", levels=("random",), cover_bot="random",
              text_domain="pesca", site=Part("pesca.site:make_site"),
              view_schema=Part("pesca.site:PescaView"), editions=Part("pesca.edition:KIND"))
