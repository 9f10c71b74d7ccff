"""What every request to ``fiderate serve`` passes before a page sees it: the Host it names, the
Origin of anything that changes state (a POST), and the headers every answer carries.

Why: a page the user opens elsewhere can make the browser talk to this server. Two ways:

- **DNS rebinding.** ``evil.example`` first resolves to the attacker's server, then to
  127.0.0.1; the attacker's page then reads our pages as its own origin. Its requests still say
  ``Host: evil.example``, so only the names this server is reached by are answered
  (:class:`AllowedHosts`); an address literal (``192.168.1.5``) cannot be rebound, a name can.
- **Cross-site POST.** Any page can submit a form to ``http://127.0.0.1:8000/rate``. Browsers
  say where such a request comes from (``Origin``; ``Referer`` without it), so a POST is
  answered only when that is this server itself. A request naming neither is not a browser's
  (every browser sends ``Origin`` with a POST) and cannot be driven by a page.

The answer headers keep our pages from being framed (clickjacking), sniffed as another type, or
running any script but our own files (a Content-Security-Policy with no inline script), and
keep page addresses (tokens, ids) from leaking to other sites. ``Referrer-Policy: same-origin``
rather than ``no-referrer``: with ``no-referrer`` a browser sends ``Origin: null`` on our own
form's POST, which the check above would refuse.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]
# (status, title, message) -> an ASGI app answering with that page
Refusal = Callable[[int, str, str], ASGIApp]

LOCAL_NAMES = ("127.0.0.1", "localhost", "::1")
WILDCARDS = ("0.0.0.0", "::", "")  # "listen on every address": names are not known in advance
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
DEFAULT_PORTS = {"http": 80, "https": 443}

SECURITY_HEADERS = (
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
        b"object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    ),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
)


@dataclass(frozen=True)
class AllowedHosts:
    """The names a ``Host`` header may give: ``names`` (lower case, no port), and, when the
    server listens on every address, ``any_address`` (an IP literal of any of them)."""

    names: frozenset[str]
    any_address: bool = False

    @classmethod
    def served(cls, host: str, extra: Iterable[str] = ()) -> AllowedHosts:
        """The names of a server listening on ``host`` (``--host``), plus ``extra``
        (``--allow-host``: the name a reverse proxy passes on)."""
        names = {*LOCAL_NAMES, *(_bare(name) for name in extra)}
        wildcard = _bare(host) in WILDCARDS
        if wildcard:
            names.add(socket.gethostname().lower())
        else:
            names.add(_bare(host))
        return cls(frozenset(names), any_address=wildcard)

    def allows(self, host_header: str) -> bool:
        found = host_and_port(host_header)
        if found is None:
            return False
        name = found[0]
        return name in self.names or (self.any_address and _is_address(name))


def host_and_port(netloc: str, scheme: str = "http") -> tuple[str, int] | None:
    """``("example.org", 8000)`` from ``"Example.org:8000"`` (the scheme's port when none is
    given); None when it is not a host at all (empty, a bad port, a user part, a path)."""
    if not netloc or any(c in netloc for c in "/?#@\\ "):
        return None
    try:
        parts = urlsplit(f"//{netloc}")
        port = parts.port
    except ValueError:
        return None
    if not parts.hostname:
        return None
    return parts.hostname.rstrip("."), port if port is not None else DEFAULT_PORTS.get(scheme, 0)


def _bare(name: str) -> str:
    return name.strip().strip("[]").rstrip(".").lower()


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def same_origin(origin: str, host_header: str) -> bool:
    """Whether ``origin`` (an ``Origin`` header, or a ``Referer`` address) is the server the
    request was sent to (its ``Host``). The scheme is not compared: behind a proxy that ends TLS
    the page is https while this server speaks http."""
    parts = urlsplit(origin)
    if parts.scheme not in DEFAULT_PORTS:
        return False  # "null" (a sandboxed frame, a file:// page) or no address at all
    sent = host_and_port(parts.netloc, parts.scheme)
    return sent is not None and sent == host_and_port(host_header, parts.scheme)


class Guard:
    """ASGI middleware: refuses a Host not in ``hosts`` (400) and a POST from another origin
    (403), and adds :data:`SECURITY_HEADERS` to every answer (refusals too)."""

    def __init__(self, app: ASGIApp, hosts: AllowedHosts, refuse: Refusal) -> None:
        self.app, self.hosts, self.refuse = app, hosts, refuse

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        send = _with_headers(send)
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        host = headers.get("host", "")
        if not self.hosts.allows(host):
            refusal = self.refuse(
                400,
                "Unknown host",
                f"this server does not answer to the host {host[:100]!r}. Open it by the address "
                "it was started on; behind a reverse proxy, start it with "
                "`fiderate serve --allow-host NAME` (the name the proxy passes on).",
            )
            await refusal(scope, receive, send)
            return
        if scope["method"] not in SAFE_METHODS:
            sender = headers.get("origin") or headers.get("referer")
            if sender is not None and not same_origin(sender, host):
                refusal = self.refuse(
                    403,
                    "Sent from another site",
                    f"this form was sent from {sender[:100]!r}, not from this server's own "
                    "pages; nothing was done. Open the page from this server and send it again.",
                )
                await refusal(scope, receive, send)
                return
        await self.app(scope, receive, send)


def _with_headers(send: Send) -> Send:
    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            present = {name.lower() for name, _ in message.get("headers", [])}
            extra = [(n, v) for n, v in SECURITY_HEADERS if n not in present]
            message["headers"] = [*message.get("headers", []), *extra]
        await send(message)

    return sending
