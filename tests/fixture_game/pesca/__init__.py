"""Pesca: each seat holds one hidden card and may throw it away for the next of the deck."""
