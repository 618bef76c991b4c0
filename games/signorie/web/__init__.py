"""Signorie in the browser."""
