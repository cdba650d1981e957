"""``isles serve``: the games at the table, in a browser (docs/serve.md).

Starts the web app (:func:`isles.web.create_app`) under uvicorn on the loopback
address unless another is asked for, and prints the address to open.
"""

from __future__ import annotations

import argparse
import errno
import ipaddress
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

from isles.models.errors import InvalidInput
from isles.models.text import parse_integer

ORDER = 80

__all__ = ["LOOPBACK_HOSTS", "ORDER", "PORT_MAX", "address", "demo", "read_port", "register"]

#: The Host names a loopback server answers (a page cannot reach it by another name).
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1", "[::1]")


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add ``isles serve [--host HOST] [--port PORT] [--share]``."""
    p = subparsers.add_parser(
        "serve",
        help="the web app: Plunder notepad, lighthouse advisor, rally planner, board set-up",
        description="Serve the web app (docs/serve.md) and print the address to open. It "
        "listens on this computer only (127.0.0.1) unless --host names another address; "
        "Ctrl-C stops it.",
    )
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default: %(default)s; 0.0.0.0 opens it to the network)",
    )
    p.add_argument(
        "--port",
        default="8000",
        help="port (default: %(default)s; 0 picks a free one)",
    )
    p.add_argument(
        "--share",
        action="store_true",
        help="let the pages share a game with the table (a room with a short code that the "
        "other phones follow); on by itself with a --host other than this computer's",
    )
    p.set_defaults(func=run)


def address(host: str, port: int) -> str:
    """The address to open in a browser.

    Examples
    --------
    >>> address("127.0.0.1", 8000)
    'http://127.0.0.1:8000/'
    >>> address("::1", 8000)
    'http://[::1]:8000/'
    """
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


#: The largest TCP port.
PORT_MAX = 65535


def read_port(text: str) -> int:
    """The ``--port`` typed: a whole number in 0..65535, refused as every option is.

    Examples
    --------
    >>> read_port("8000")
    8000
    >>> read_port("99999")
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: --port: '99999' is invalid; expected an integer in 0..65535
    """
    expected = f"an integer in 0..{PORT_MAX}"
    port = parse_integer(text, "--port", expected)
    if not 0 <= port <= PORT_MAX:
        raise InvalidInput("--port", text, expected)
    return port


def _bind(host: str, port: int) -> socket.socket:
    """The listening socket, bound before anything is printed (a busy port is bad input)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise InvalidInput(
            "--host", host, f"an address of this computer ({exc.strerror})"
        ) from None
    family, kind, proto, _, where = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(where)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRNOTAVAIL:  # the address is not this computer's
            raise InvalidInput(
                "--host", host, f"an address of this computer ({exc.strerror or exc})"
            ) from None
        raise InvalidInput(
            "--port", port, f"a free port on {host} ({exc.strerror or exc})"
        ) from None
    sock.listen(128)
    return sock


def run(args: argparse.Namespace) -> int:
    """Serve until Ctrl-C."""
    port = read_port(args.port)
    # uvicorn and Starlette load only for this command (the others start without them).
    import uvicorn

    from isles.web import create_app

    sock = _bind(args.host, port)
    port = sock.getsockname()[1]
    loopback = _is_loopback(args.host)
    share = bool(args.share) or not loopback
    app = create_app(
        allowed_hosts=LOOPBACK_HOSTS if loopback else None,
        share=share,
        console=lambda line: print(f"isles serve: {line}", flush=True),
    )
    print(f"isles serve: open {address(args.host, port)} (Ctrl-C stops)", flush=True)
    if not loopback:
        print(
            f"isles serve: listening on {args.host}: anyone who can reach this computer "
            "can use the app",
            flush=True,
        )
    if share:
        print(
            "isles serve: sharing with the table is on: a shared game is kept in this "
            "server's memory until it stops, and anyone who can reach it"
            + (" (this computer only, on this address)" if loopback else "")
            + " and has a table's code can see and change that game",
            flush=True,
        )
    config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=3)
    uvicorn.Server(config).run(sockets=[sock])
    return 0


def demo(out_dir: Path, echo: Callable[[str], None]) -> None:
    """One line: where the web app is."""
    echo(
        "== Web app: `isles serve` opens the Plunder notepad, the lighthouse advisor, the "
        "rally planner and the board set-up at http://127.0.0.1:8000/ (docs/serve.md) =="
    )
