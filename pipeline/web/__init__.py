"""``fiderate serve``: the calculators, a whole event and the history in the browser, on the same
job functions as the CLI (docs/web.md). Starlette (ASGI) with Jinja2 templates, served by uvicorn.
"""

from __future__ import annotations

from pathlib import Path


def serve(host: str = "127.0.0.1", port: int = 8000, history: Path | None = None) -> None:
    """Run the server until it is stopped (Ctrl+C)."""
    import uvicorn

    from pipeline.web.app import create_app

    uvicorn.run(create_app(history), host=host, port=port, log_level="info", access_log=False)


__all__ = ["serve"]
