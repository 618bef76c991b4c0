"""Gonzaga in the browser: its page (`static/`), its views as JSON (`wire.py`) and what the
platform's web server needs of it (`site.py`); the server itself is `tavola.web`."""
