"""The games of the platform: each subpackage is one game and declares itself in its `game.py`."""
