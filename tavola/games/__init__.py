"""The games of the platform: each subpackage is one game and declares itself in its `kit.py`
(`tavola.kit.GameKit`, found by `tavola.registry`)."""
