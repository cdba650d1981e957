"""What every request of ``isles serve`` passes first: its Host, its size, the answer's headers.

Part of docs/serve.md ("Safety"): a Host header the server does not serve is
refused (DNS rebinding), a body over the cap is refused, every answer carries the
security headers, and a crash answers JSON, never a stack trace.
"""

from __future__ import annotations

import ipaddress
import logging
import re
from collections.abc import Sequence

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["SECURITY_HEADERS", "Guard", "error_response", "host_name"]

# Pages and scripts come from this server only; nothing inline, nothing framed.
SECURITY_HEADERS = {
    "content-security-policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'"
    ),
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
    "cache-control": "no-store",
}

_log = logging.getLogger("isles.web")


def error_response(status: int, message: str, field: str | None = None) -> JSONResponse:
    """An error as every endpoint answers it: ``{"error": {"field", "message"}}``."""
    return JSONResponse({"error": {"field": field, "message": message}}, status_code=status)


_NAME = re.compile(
    r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?"
)
_PORT = re.compile(r"[0-9]{1,5}")


def host_name(host: bytes) -> str | None:
    """The host of a Host header without its port, or None when the header is malformed.

    A name (letters, digits, hyphens, dots), an IPv4 address, or an IPv6 address in
    brackets, then at most a port ``:1``..``:65535``; nothing else.

    Examples
    --------
    >>> host_name(b"[::1]:8000"), host_name(b"LocalHost"), host_name(b"127.0.0.1:80")
    ('[::1]', 'localhost', '127.0.0.1')
    >>> host_name(b"[::1]evil.com"), host_name(b"localhost:abc"), host_name(b"")
    (None, None, None)
    """
    text = host.decode("latin-1").lower()
    if text.startswith("["):
        close = text.find("]")
        name, rest = text[: close + 1], text[close + 1 :]
        try:
            ipaddress.IPv6Address(name[1:-1])
        except ValueError:
            return None
    else:
        name, colon, port = text.partition(":")
        rest = colon + port
        if _NAME.fullmatch(name) is None or len(name) > 253:
            return None
    if rest:
        port = rest[1:]
        if not rest.startswith(":") or _PORT.fullmatch(port) is None or not 0 < int(port) < 65536:
            return None
    return name


class _TooLarge(Exception):
    pass


class Guard:
    """Caps request bodies, adds the security headers, turns any crash into JSON."""

    def __init__(self, app: ASGIApp, max_body: int, hosts: Sequence[str] | None) -> None:
        self.app = app
        self.max_body = max_body
        self.hosts = None if hosts is None else {h.lower() for h in hosts}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers", []))
        name = host_name(headers.get(b"host", b""))
        if name is None or (self.hosts is not None and name not in self.hosts):
            # A page of another site cannot reach this server through a name of its own
            # (DNS rebinding): only the loopback names are answered, and a malformed
            # Host header is never read as one of them.
            await error_response(400, "request: unknown Host header")(scope, receive, send)
            return
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            await error_response(413, f"request: larger than {self.max_body} bytes")(
                scope, receive, send
            )
            return
        seen = 0
        started = False

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body:
                    raise _TooLarge
            return message

        async def secured(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                extra = [(k.encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        try:
            await self.app(scope, counted, secured)
        except _TooLarge:
            if not started:
                response = error_response(413, f"request: larger than {self.max_body} bytes")
                await response(scope, receive, secured)
        except Exception:
            _log.exception("request %s %s failed", scope.get("method"), scope.get("path"))
            if not started:
                response = error_response(500, "internal error (see the server's log)")
                await response(scope, receive, secured)
