"""A game shared with the other phones at the table: a page's state in a room with a short code.

Implements docs/serve.md ("Share with the table"). A room holds exactly one
page's state (the JSON the page's undo store keeps, ``history.js``) and a
version; the phones in it poll it and take a newer version (newest wins), each
as one undo step of their own. Rooms are opt-in (``isles serve --share``, or a
server started for the network with ``--host``), live in the server's memory
only, and are bounded in size (:data:`MAX_ROOM_BYTES`) and count
(:data:`MAX_ROOMS`, the least recently changed room goes first).
"""

from __future__ import annotations

import json
import secrets
import time
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from isles.models.errors import InvalidInput, IslesError

__all__ = [
    "CODE_ALPHABET",
    "CODE_LENGTH",
    "MAX_ROOMS",
    "MAX_ROOM_BYTES",
    "Room",
    "Rooms",
    "UnknownRoom",
]

#: Rooms kept at once; a new one past this replaces the least recently changed.
MAX_ROOMS = 16
#: The largest state a room holds, in bytes of its JSON (a Plunder record of a long game
#: is a few kilobytes; a laid board a few dozen).
MAX_ROOM_BYTES = 256 * 1024
#: Letters and digits of a room's code: no 0/O, 1/I/L, said and typed without doubt.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
#: Characters of a room's code (31**6, about 887 million codes).
CODE_LENGTH = 6


class UnknownRoom(IslesError):
    """No room has this code (never opened, or replaced by newer rooms)."""


@dataclass
class Room:
    """One shared game: the page it is a state of, the state, its version."""

    code: str
    page: str
    state: Any
    version: int
    changed: float

    def to_dict(self, since: int | None = None) -> dict[str, Any]:
        """``{"room", "page", "version", "state"}``; no ``state`` unless newer than ``since``."""
        out: dict[str, Any] = {"room": self.code, "page": self.page, "version": self.version}
        if since is None or self.version > since:
            out["state"] = self.state
        return out


class Rooms:
    """The rooms of one server (in memory): open, read and change them by code.

    Parameters
    ----------
    pages : collection of str
        The pages whose state a room may hold (``plunder``, ``lighthouse``, ...).
    max_rooms : int
        Rooms kept at once (:data:`MAX_ROOMS`).
    max_bytes : int
        The largest state, in bytes of its JSON (:data:`MAX_ROOM_BYTES`).

    Examples
    --------
    >>> rooms = Rooms(["plunder"])
    >>> room = rooms.open({"page": "plunder", "state": {"record": {"players": 3}}})
    >>> rooms.change(room["room"], {"state": {"record": {"players": 4}}})["version"]
    2
    >>> rooms.get(room["room"], since=2)["version"], "state" in rooms.get(room["room"], since=2)
    (2, False)
    """

    def __init__(
        self, pages: Iterable[str], max_rooms: int = MAX_ROOMS, max_bytes: int = MAX_ROOM_BYTES
    ) -> None:
        self.pages = tuple(pages)
        self.max_rooms = max_rooms
        self.max_bytes = max_bytes
        self._rooms: OrderedDict[str, Room] = OrderedDict()

    def _state(self, body: Mapping[str, Any]) -> Any:
        if "state" not in body:
            raise InvalidInput("state", None, "the page's state (JSON)", problem="missing")
        state = body["state"]
        size = len(json.dumps(state, separators=(",", ":"), ensure_ascii=False).encode())
        if size > self.max_bytes:
            raise InvalidInput(
                "state",
                None,
                f"a page's state of at most {self.max_bytes} bytes of JSON",
                problem=f"{size} bytes",
            )
        return state

    @staticmethod
    def _keys(body: object, keys: tuple[str, ...]) -> Mapping[str, Any]:
        if not isinstance(body, Mapping):
            raise InvalidInput("request", body, "an object with the keys " + ", ".join(keys))
        for key in body:
            if key not in keys:
                raise InvalidInput(
                    str(key), key, "only the keys " + ", ".join(keys), problem="unknown key"
                )
        return body

    def open(self, body: object) -> dict[str, Any]:
        """A new room for ``{"page", "state"}``: its code and version 1.

        Raises
        ------
        InvalidInput
            An unknown page, a state larger than ``max_bytes``, a key other than these.
        """
        asked = self._keys(body, ("page", "state"))
        page = asked.get("page")
        if page not in self.pages:
            raise InvalidInput("page", page, "one of " + ", ".join(self.pages))
        state = self._state(asked)
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        while code in self._rooms:  # pragma: no cover - one chance in millions
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        self._rooms[code] = Room(code, str(page), state, 1, time.monotonic())
        while len(self._rooms) > self.max_rooms:
            self._rooms.popitem(last=False)  # the least recently changed
        return self._rooms[code].to_dict()

    def _room(self, code: str) -> Room:
        room = self._rooms.get(code.upper())
        if room is None:
            raise UnknownRoom(
                f"room {code[:12]!r}: no such table (a code of {CODE_LENGTH} letters and "
                "digits; the server forgets its rooms when it stops)"
            )
        return room

    def get(self, code: str, since: int | None = None) -> dict[str, Any]:
        """The room: its state only when its version is newer than ``since``."""
        return self._room(code).to_dict(since)

    def change(self, code: str, body: object) -> dict[str, Any]:
        """Make ``{"state"}`` the room's state (newest wins): its new version, without the state."""
        room = self._room(code)
        room.state = self._state(self._keys(body, ("state",)))
        room.version += 1
        room.changed = time.monotonic()
        self._rooms.move_to_end(room.code)
        return room.to_dict(since=room.version)
