"""The ``isles serve`` web app: the pages and the JSON endpoints (docs/serve.md).

Starlette routes over the public catalogue (``isles.<game>``): quick answers
directly, solver calls as jobs (:mod:`isles.web.jobs`). Safe by default: request
bodies are capped, JSON only, every error is the library's message and field
(never a stack trace), and the pages build their DOM from text, never from HTML.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from isles.models.errors import InvalidInput, IslesError
from isles.models.jsonio import parse_json
from isles.web.jobs import (
    LEASE,
    MAX_QUEUED,
    MAX_RUNNING,
    RESIDENT_IDLE,
    Busy,
    JobRunner,
    UnknownJob,
    error_json,
)
from isles.web.rooms import Rooms, UnknownRoom
from isles.web.tasks import (
    TASKS,
    Task,
    check_board,
    check_position,
    check_record,
    layout_rules,
    lighthouse_kit,
)

__all__ = ["MAX_BODY", "PAGES", "STATIC", "create_app"]

#: The largest request body accepted, in bytes (a board file of a few thousand hexes).
MAX_BODY = 2 * 1024 * 1024
#: The page files, shipped with the package.
STATIC = Path(__file__).parent / "static"
#: The pages: path -> file in :data:`STATIC`.
PAGES = {
    "/": "index.html",
    "/plunder": "plunder.html",
    "/lighthouse": "lighthouse.html",
    "/rally": "rally.html",
    "/setup": "setup.html",
}

# Pages and scripts come from this server only; nothing inline, nothing framed.
_SECURITY_HEADERS = {
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


def _error(status: int, message: str, field: str | None = None) -> JSONResponse:
    return JSONResponse({"error": {"field": field, "message": message}}, status_code=status)


_NAME = re.compile(
    r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?"
)
_PORT = re.compile(r"[0-9]{1,5}")


def _host_name(host: bytes) -> str | None:
    """The host of a Host header without its port, or None when the header is malformed.

    A name (letters, digits, hyphens, dots), an IPv4 address, or an IPv6 address in
    brackets, then at most a port ``:1``..``:65535``; nothing else.

    Examples
    --------
    >>> _host_name(b"[::1]:8000"), _host_name(b"LocalHost"), _host_name(b"127.0.0.1:80")
    ('[::1]', 'localhost', '127.0.0.1')
    >>> _host_name(b"[::1]evil.com"), _host_name(b"localhost:abc"), _host_name(b"")
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


class _Guard:
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
        name = _host_name(headers.get(b"host", b""))
        if name is None or (self.hosts is not None and name not in self.hosts):
            # A page of another site cannot reach this server through a name of its own
            # (DNS rebinding): only the loopback names are answered, and a malformed
            # Host header is never read as one of them.
            await _error(400, "request: unknown Host header")(scope, receive, send)
            return
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            await _error(413, f"request: larger than {self.max_body} bytes")(scope, receive, send)
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
                extra = [(k.encode(), v.encode()) for k, v in _SECURITY_HEADERS.items()]
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        try:
            await self.app(scope, counted, secured)
        except _TooLarge:
            if not started:
                response = _error(413, f"request: larger than {self.max_body} bytes")
                await response(scope, receive, secured)
        except Exception:
            _log.exception("request %s %s failed", scope.get("method"), scope.get("path"))
            if not started:
                response = _error(500, "internal error (see the server's log)")
                await response(scope, receive, secured)


async def _body(request: Request) -> object:
    """The request's JSON, read as the library reads files (docs/json.md, "Input files")."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        # Also what keeps other web sites' forms from posting here: a JSON
        # request from another origin needs a preflight this server never grants.
        raise InvalidInput("request", kind or "no content type", "application/json")
    raw = await request.body()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InvalidInput("request", "bytes that are not UTF-8", "UTF-8 JSON") from None
    body = parse_json(text, "request", within="")
    request.state.body = body  # for its errors: a value shown as this request sent it
    return body


Handler = Callable[[Request], Awaitable[Response]]


def _answers(handler: Callable[[Request], Awaitable[Any]]) -> Handler:
    """Wrap a handler: its value as JSON, the library's errors as JSON with status 400."""

    async def endpoint(request: Request) -> Response:
        try:
            value = await handler(request)
        except UnknownJob as exc:
            return _error(404, str(exc), "job")
        except UnknownRoom as exc:
            return _error(404, str(exc), "room")
        except Busy as exc:
            # Not bad input: the same request succeeds later (the page waits and asks again).
            response = _error(503, str(exc))
            response.headers["retry-after"] = str(exc.retry_after)
            return response
        except IslesError as exc:
            sent = getattr(request.state, "body", None)
            return JSONResponse({"error": error_json(exc, sent)}, status_code=400)
        if isinstance(value, Response):
            return value
        return JSONResponse(value)

    return endpoint


def create_app(
    *,
    max_body: int = MAX_BODY,
    allowed_hosts: Sequence[str] | None = None,
    time_limits: Mapping[str, float] | None = None,
    max_running: int = MAX_RUNNING,
    max_queued: int = MAX_QUEUED,
    lease: float = LEASE,
    tasks: Mapping[str, Task] | None = None,
    share: bool = False,
    resident_idle: float = RESIDENT_IDLE,
    console: Callable[[str], None] | None = None,
) -> Starlette:
    """The web app of ``isles serve``.

    Parameters
    ----------
    max_body : int
        The largest request body, in bytes (:data:`MAX_BODY`).
    allowed_hosts : sequence of str, optional
        The ``Host`` names served (``isles serve`` gives the loopback names when it
        binds the loopback address, so a web page cannot reach it by a renamed
        host); None serves any.
    time_limits : mapping job kind -> seconds, optional
        Overrides of the jobs' time limits (``TASKS[kind].seconds``).
    max_running : int
        Solver processes at once (:data:`~isles.web.jobs.MAX_RUNNING`): the
        running jobs' and the lighthouse's resident one; more jobs wait in a
        queue.
    max_queued : int
        Jobs waiting (:data:`~isles.web.jobs.MAX_QUEUED`); one more is refused
        with status 503 and a ``Retry-After`` header (busy, not bad input).
    lease : float
        Seconds a job lives without a poll (:data:`~isles.web.jobs.LEASE`): the
        job of a closed page is then cancelled and its process ended.
    tasks : mapping name -> Task, optional
        More kinds of job than :data:`~isles.web.tasks.TASKS` (tests add a slow
        one); their functions must be importable by the jobs' processes.
    share : bool
        Whether the pages may share a game with the table (``/api/rooms``,
        :mod:`isles.web.rooms`): ``isles serve`` turns it on for ``--share`` or a
        network address (``--host``); off, those endpoints answer 403.
    resident_idle : float
        Seconds the lighthouse's resident process (its kit's table) lives
        without a job (:data:`~isles.web.jobs.RESIDENT_IDLE`).
    console : callable, optional
        Told in a line when that process starts and ends, and the memory it
        held (``isles serve`` prints it); default the ``isles.web`` log.

    Returns
    -------
    Starlette
        An ASGI app; ``uvicorn.run(create_app())`` serves it.

    Notes
    -----
    Solver calls run in processes of a multiprocessing fork server
    (:mod:`isles.web.jobs`); as with any use of multiprocessing, a script that
    serves the app starts it under ``if __name__ == "__main__":``.

    Examples
    --------
    >>> from starlette.testclient import TestClient
    >>> with TestClient(create_app()) as client:
    ...     client.get("/api/health").json()["ok"]
    True
    """
    kinds = {**TASKS, **(tasks or {})}
    for kind, seconds in (time_limits or {}).items():
        if kind not in kinds or not seconds > 0:
            raise InvalidInput("time_limits", {kind: seconds}, "job kinds and seconds > 0")
    limits = {kind: task.seconds for kind, task in kinds.items()} | dict(time_limits or {})
    runner = JobRunner(max_running, max_queued, lease, resident_idle, console)
    rooms = Rooms(name.strip("/") for name in PAGES if name != "/")

    async def reap() -> None:
        # Ends the jobs nobody polls any more, and those past their time limit,
        # and starts waiting ones, when no request comes to do it.
        while True:
            await asyncio.sleep(min(1.0, lease / 4))
            try:
                runner.poll_all()
            except Exception:  # a bug: logged, and the reaper goes on
                _log.exception("polling the jobs failed")

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        reaper = asyncio.create_task(reap())
        try:
            yield
        finally:
            reaper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reaper
            runner.shutdown()

    async def health(request: Request) -> dict[str, Any]:
        import isles

        return {
            "ok": True,
            "version": isles.__version__,
            "jobs": sorted(TASKS),
            "share": share,
            "slots": runner.status(),
        }

    def shared(handler: Callable[[Request], Awaitable[Any]]) -> Handler:
        async def sharing(request: Request) -> Any:
            if not share:
                return _error(
                    403,
                    "sharing with the table is off: start isles serve with --share (or "
                    "--host for the network)",
                    "room",
                )
            return await handler(request)

        return _answers(sharing)

    async def open_room(request: Request) -> Response:
        return JSONResponse(rooms.open(await _body(request)), status_code=201)

    async def room_state(request: Request) -> dict[str, Any]:
        since = request.query_params.get("since")
        if since is not None and not re.fullmatch(r"[0-9]{1,15}", since):
            raise InvalidInput("since", since[:20], "a version: a whole number >= 0")
        return rooms.get(request.path_params["code"], None if since is None else int(since))

    async def change_room(request: Request) -> dict[str, Any]:
        return rooms.change(request.path_params["code"], await _body(request))

    async def start_job(request: Request) -> Response:
        kind = request.path_params["kind"]
        task = kinds.get(kind)
        if task is None:
            return _error(404, f"job kind {kind[:40]!r} unknown; one of {', '.join(kinds)}")
        body = await _body(request)
        args = task.read(body)  # read once: bad input answers at once, in the library's words
        own = None if TASKS.get(kind) is task else task
        job = runner.start(kind, body, args, limits[kind], task.resident is not None, own)
        return JSONResponse(job.to_dict(), status_code=202)

    async def job_state(request: Request) -> dict[str, Any]:
        return runner.get(request.path_params["job_id"]).to_dict()

    async def cancel_job(request: Request) -> dict[str, Any]:
        return runner.cancel(request.path_params["job_id"]).to_dict()

    async def board(request: Request) -> dict[str, Any]:
        return check_board(await _body(request))

    async def rally_table(request: Request) -> dict[str, Any]:
        from isles.web.tasks.rally import rally_defaults

        return rally_defaults()

    async def goals(request: Request) -> dict[str, Any]:
        from isles.web.tasks.rally import rally_goals

        return rally_goals(await _body(request))

    async def record(request: Request) -> dict[str, Any]:
        return check_record(await _body(request))

    async def position(request: Request) -> dict[str, Any]:
        return check_position(await _body(request))

    async def kit(request: Request) -> dict[str, Any]:
        return lighthouse_kit(await _body(request))

    async def play(request: Request) -> dict[str, Any]:
        from isles.web.tasks.lighthouse_play import play_move

        return play_move(await _body(request))

    async def rules(request: Request) -> dict[str, Any]:
        return layout_rules()

    async def example(request: Request) -> dict[str, Any]:
        from isles.web.tasks import plunder_example, rally_beginner, rally_towns

        name = request.path_params["name"]
        if name == "plunder":
            return plunder_example()
        if name == "beginner":
            return rally_beginner()
        if name == "beginner-towns":
            return rally_towns()
        raise InvalidInput("example", name[:40], "plunder, beginner or beginner-towns")

    def page(file: str) -> Handler:
        async def serve_page(request: Request) -> Response:
            return FileResponse(STATIC / file, media_type="text/html; charset=utf-8")

        return serve_page

    async def not_found(request: Request, exc: Exception) -> Response:
        status = exc.status_code if isinstance(exc, HTTPException) else 500
        messages = {404: "no such page or endpoint", 405: "method not allowed here"}
        return _error(status, f"{request.url.path[:80]}: {messages.get(status, 'refused')}")

    routes = [
        *(Route(path, page(file)) for path, file in PAGES.items()),
        Route("/api/health", _answers(health)),
        Route("/api/solve/{kind}", _answers(start_job), methods=["POST"]),
        Route("/api/jobs/{job_id}", _answers(job_state), methods=["GET"]),
        Route("/api/jobs/{job_id}/cancel", _answers(cancel_job), methods=["POST"]),
        Route("/api/board", _answers(board), methods=["POST"]),
        Route("/api/rally/goals", _answers(goals), methods=["POST"]),
        Route("/api/rally/defaults", _answers(rally_table), methods=["GET"]),
        Route("/api/plunder/record", _answers(record), methods=["POST"]),
        Route("/api/lighthouse/kit", _answers(kit), methods=["POST"]),
        Route("/api/lighthouse/position", _answers(position), methods=["POST"]),
        Route("/api/lighthouse/play", _answers(play), methods=["POST"]),
        Route("/api/layout/rules", _answers(rules), methods=["GET"]),
        Route("/api/examples/{name}", _answers(example), methods=["GET"]),
        Route("/api/rooms", shared(open_room), methods=["POST"]),
        Route("/api/rooms/{code}", shared(room_state), methods=["GET"]),
        Route("/api/rooms/{code}", shared(change_room), methods=["PUT"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    middleware = [Middleware(_Guard, max_body=max_body, hosts=allowed_hosts)]
    return Starlette(
        routes=routes,
        middleware=middleware,
        exception_handlers={HTTPException: not_found},
        lifespan=lifespan,
    )
