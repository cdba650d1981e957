"""The ``isles serve`` web app: the pages and the JSON endpoints (docs/serve.md).

Starlette routes over the public catalogue (``isles.<game>``): quick answers
directly, solver calls as jobs (:mod:`isles.web.jobs`). Safe by default
(:mod:`isles.web.guard`): request bodies are capped, JSON only, every error is
the library's message and field (never a stack trace), and the pages build
their DOM from text, never from HTML. The server's state (its jobs, its rooms,
what it shares) is the app's ``state``, which every handler reads.
"""

from __future__ import annotations

import asyncio
import contextlib
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

import isles
from isles.models.errors import InvalidInput, IslesError
from isles.models.jsonio import parse_json
from isles.web.guard import Guard, error_response
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
    plunder_example,
    rally_beginner,
    rally_towns,
)
from isles.web.tasks.lighthouse_play import play_move
from isles.web.tasks.rally import rally_defaults, rally_goals

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

_log = logging.getLogger("isles.web")


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
            return error_response(404, str(exc), "job")
        except UnknownRoom as exc:
            return error_response(404, str(exc), "room")
        except Busy as exc:
            # Not bad input: the same request succeeds later (the page waits and asks again).
            response = error_response(503, str(exc))
            response.headers["retry-after"] = str(exc.retry_after)
            return response
        except IslesError as exc:
            sent = getattr(request.state, "body", None)
            return JSONResponse({"error": error_json(exc, sent)}, status_code=400)
        if isinstance(value, Response):
            return value
        return JSONResponse(value)

    return endpoint


# -- the endpoints: each reads the server's state from request.app.state -----------------


async def _health(request: Request) -> dict[str, Any]:
    state = request.app.state
    return {
        "ok": True,
        "version": isles.__version__,
        "jobs": sorted(TASKS),
        "share": state.share,
        "slots": state.runner.status(),
    }


def _shared(handler: Callable[[Request], Awaitable[Any]]) -> Handler:
    """A room endpoint: answered only when the server shares games (403 otherwise)."""

    async def sharing(request: Request) -> Any:
        if not request.app.state.share:
            return error_response(
                403,
                "sharing with the table is off: start isles serve with --share (or "
                "--host for the network)",
                "room",
            )
        return await handler(request)

    return _answers(sharing)


async def _open_room(request: Request) -> Response:
    return JSONResponse(request.app.state.rooms.open(await _body(request)), status_code=201)


async def _room_state(request: Request) -> dict[str, Any]:
    since = request.query_params.get("since")
    if since is not None and not re.fullmatch(r"[0-9]{1,15}", since):
        raise InvalidInput("since", since[:20], "a version: a whole number >= 0")
    rooms: Rooms = request.app.state.rooms
    return rooms.get(request.path_params["code"], None if since is None else int(since))


async def _change_room(request: Request) -> dict[str, Any]:
    rooms: Rooms = request.app.state.rooms
    return rooms.change(request.path_params["code"], await _body(request))


async def _start_job(request: Request) -> Response:
    state = request.app.state
    kind = request.path_params["kind"]
    task: Task | None = state.kinds.get(kind)
    if task is None:
        return error_response(
            404, f"job kind {kind[:40]!r} unknown; one of {', '.join(state.kinds)}"
        )
    body = await _body(request)
    args = task.read(body)  # read once: bad input answers at once, in the library's words
    own = None if TASKS.get(kind) is task else task
    job = state.runner.start(kind, body, args, state.limits[kind], task.resident is not None, own)
    return JSONResponse(job.to_dict(), status_code=202)


async def _job_state(request: Request) -> dict[str, Any]:
    runner: JobRunner = request.app.state.runner
    return runner.get(request.path_params["job_id"]).to_dict()


async def _cancel_job(request: Request) -> dict[str, Any]:
    runner: JobRunner = request.app.state.runner
    return runner.cancel(request.path_params["job_id"]).to_dict()


async def _board(request: Request) -> dict[str, Any]:
    return check_board(await _body(request))


async def _rally_defaults(request: Request) -> dict[str, Any]:
    return rally_defaults()


async def _goals(request: Request) -> dict[str, Any]:
    return rally_goals(await _body(request))


async def _record(request: Request) -> dict[str, Any]:
    return check_record(await _body(request))


async def _position(request: Request) -> dict[str, Any]:
    return check_position(await _body(request))


async def _kit(request: Request) -> dict[str, Any]:
    return lighthouse_kit(await _body(request))


async def _play(request: Request) -> dict[str, Any]:
    return play_move(await _body(request))


async def _rules(request: Request) -> dict[str, Any]:
    return layout_rules()


#: The examples a page loads: name -> the call that makes it.
EXAMPLES: dict[str, Callable[[], dict[str, Any]]] = {
    "plunder": plunder_example,
    "beginner": rally_beginner,
    "beginner-towns": rally_towns,
}


async def _example(request: Request) -> dict[str, Any]:
    name = request.path_params["name"]
    if name not in EXAMPLES:
        raise InvalidInput("example", name[:40], "plunder, beginner or beginner-towns")
    return EXAMPLES[name]()


def _page(file: str) -> Handler:
    async def serve_page(request: Request) -> Response:
        return FileResponse(STATIC / file, media_type="text/html; charset=utf-8")

    return serve_page


async def _not_found(request: Request, exc: Exception) -> Response:
    status = exc.status_code if isinstance(exc, HTTPException) else 500
    messages = {404: "no such page or endpoint", 405: "method not allowed here"}
    return error_response(status, f"{request.url.path[:80]}: {messages.get(status, 'refused')}")


ROUTES = [
    *(Route(path, _page(file)) for path, file in PAGES.items()),
    Route("/api/health", _answers(_health)),
    Route("/api/solve/{kind}", _answers(_start_job), methods=["POST"]),
    Route("/api/jobs/{job_id}", _answers(_job_state), methods=["GET"]),
    Route("/api/jobs/{job_id}/cancel", _answers(_cancel_job), methods=["POST"]),
    Route("/api/board", _answers(_board), methods=["POST"]),
    Route("/api/rally/goals", _answers(_goals), methods=["POST"]),
    Route("/api/rally/defaults", _answers(_rally_defaults), methods=["GET"]),
    Route("/api/plunder/record", _answers(_record), methods=["POST"]),
    Route("/api/lighthouse/kit", _answers(_kit), methods=["POST"]),
    Route("/api/lighthouse/position", _answers(_position), methods=["POST"]),
    Route("/api/lighthouse/play", _answers(_play), methods=["POST"]),
    Route("/api/layout/rules", _answers(_rules), methods=["GET"]),
    Route("/api/examples/{name}", _answers(_example), methods=["GET"]),
    Route("/api/rooms", _shared(_open_room), methods=["POST"]),
    Route("/api/rooms/{code}", _shared(_room_state), methods=["GET"]),
    Route("/api/rooms/{code}", _shared(_change_room), methods=["PUT"]),
    Mount("/static", StaticFiles(directory=STATIC), name="static"),
]
"""Every page and endpoint of the app (docs/serve.md, "Endpoints")."""


@contextlib.asynccontextmanager
async def _lifespan(app: Starlette) -> AsyncIterator[None]:
    """While the server runs, a reaper polls the jobs; at its end, every job stops."""
    runner: JobRunner = app.state.runner
    period = min(1.0, runner.lease / 4)

    async def reap() -> None:
        # Ends the jobs nobody polls any more, and those past their time limit,
        # and starts waiting ones, when no request comes to do it.
        while True:
            await asyncio.sleep(period)
            try:
                runner.poll_all()
            except Exception:  # a bug: logged, and the reaper goes on
                _log.exception("polling the jobs failed")

    reaper = asyncio.create_task(reap())
    try:
        yield
    finally:
        reaper.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await reaper
        runner.shutdown()


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
    app = Starlette(
        routes=ROUTES,
        middleware=[Middleware(Guard, max_body=max_body, hosts=allowed_hosts)],
        exception_handlers={HTTPException: _not_found},
        lifespan=_lifespan,
    )
    app.state.kinds = kinds
    app.state.limits = {kind: task.seconds for kind, task in kinds.items()} | dict(
        time_limits or {}
    )
    app.state.runner = JobRunner(max_running, max_queued, lease, resident_idle, console)
    app.state.rooms = Rooms(name.strip("/") for name in PAGES if name != "/")
    app.state.share = share
    return app
