"""The web server of every game: storage, rooms, bot workers, connections, input limits.

Nothing in a game's rules imports this package; it drives them like any other client.
"""

from __future__ import annotations

from .storage import GameStore, SqliteStore, StoreError, open_store

__all__ = ["GameStore", "SqliteStore", "StoreError", "open_store", "serve"]


def serve(host: str = "127.0.0.1", port: int = 8000, db: str = "sqlite:///gonzaga.db",
          *, games: list[str] | None = None, bot_delay: float = 0.35, log_level: str = "warning",
          limits: dict[str, float] | None = None) -> None:
    """Run the web app of `games` (default: every game with a web side) with uvicorn until
    interrupted; `limits` overrides fields of `app.Limits` (rates of 0: no limit)."""
    import uvicorn

    from .app import Limits, create_app

    app = create_app(db, games=games, bot_delay=bot_delay, limits=Limits(**(limits or {})))
    # no WebSocket message is near 64 KiB (the server refuses over 16 KiB with a clear error)
    uvicorn.run(app, host=host, port=port, log_level=log_level, ws_max_size=1 << 16,
                ws_per_message_deflate=False)
