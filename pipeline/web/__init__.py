"""``fiderate serve``: the calculators, a whole event and the history in the browser, on the same
job functions as the CLI (docs/web.md). Starlette (ASGI) with Jinja2 templates, served by uvicorn.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    history: Path | None = None,
    allow_hosts: Iterable[str] = (),
) -> None:
    """Run the server until it is stopped (Ctrl+C). It answers requests naming this computer
    (127.0.0.1, localhost), ``host`` and ``allow_hosts`` only (pipeline/web/guard.py)."""
    import uvicorn

    from pipeline.web.app import create_app
    from pipeline.web.guard import AllowedHosts

    app = create_app(history, hosts=AllowedHosts.served(host, allow_hosts))
    uvicorn.run(app, host=host, port=port, log_level="info", access_log=False)


__all__ = ["serve"]
