"""The Catan board: hex -> tile, its harbours, buildings and roads, and the board file format.

Implements docs/boards.md ("Board files", "The beginner board"; seeds
002_8684547a41c0941c.txt and 004_644cf972d8964df4.txt): any shape of board, checked
as it is made or read (every error names the entry), written back in board order.
The pieces on it are :mod:`isles.models.catan`'s.
"""

from __future__ import annotations

import itertools
import json
import operator
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from isles.models.catan import (
    VALID_TILES,
    Building,
    BuildingKind,
    HarbourKind,
    Terrain,
    Tile,
    check_tile,
)
from isles.models.errors import InvalidInput
from isles.models.hexgrid import (
    MAX_COORDINATE,
    Edge,
    Hex,
    Vertex,
    as_hex,
    edge,
    neighbours,
    ring,
    vertex,
)
from isles.models.jsonio import (
    STDIN,
    corner_json,
    edge_json,
    hex_json,
    load_json,
    parse_json,
    read_corner,
    read_edge,
    read_hex,
    read_list,
    read_object,
    read_str,
)
from isles.models.text import check_name

__all__ = ["Board", "beginner_board"]

_VALID_TILE_SET = frozenset(VALID_TILES.values())


def _checked_tiles(items: Iterable[tuple[object, object]]) -> dict[Hex, Tile]:
    """The tiles of a board by hex, each checked, in the order given."""
    frozen: dict[Hex, Tile] = {}
    limit = MAX_COORDINATE
    valid = _VALID_TILE_SET
    for h, tile in items:
        # The common case in bulk (a Hex of small ints, a valid Tile), else the full checks.
        if type(h) is Hex and type(tile) is Tile:
            q, r = h
            if (
                type(q) is int
                and type(r) is int
                and -limit <= q <= limit
                and -limit <= r <= limit
                and (tile.number is None or type(tile.number) is int)
                and type(tile.terrain) is Terrain  # "forest" == Terrain.FOREST, yet no Terrain
                and tile in valid
                and h not in frozen
            ):
                frozen[h] = tile
                continue
        key = as_hex(h, f"hex {h!r}")
        if not isinstance(tile, Tile):
            raise InvalidInput(f"hex {key}", tile, "a Tile")
        check_tile(f"hex {key}", tile)
        if key in frozen:
            raise InvalidInput(f"hex {key}", str(key), "each hex at most once")
        frozen[key] = tile
    return frozen


def _board_order(item: tuple[Hex, Tile]) -> tuple[int, int]:
    """Board order: by ``r``, then ``q`` (top row first)."""
    h = item[0]
    return h[1], h[0]


def _read_tiles_in_bulk(entries: list[object]) -> dict[Hex, Tile] | None:
    """The tiles of well-formed board-file entries, read at once; None at the first entry
    that is not plainly valid, for the entry-by-entry reader to name what is wrong."""
    out: dict[Hex, Tile] = {}
    limit = MAX_COORDINATE
    valid = VALID_TILES
    for entry in entries:
        if type(entry) is not dict:
            return None
        h = entry.get("hex")
        terrain = entry.get("terrain")
        number = entry.get("number")
        size = len(entry)
        if not (size == 2 or (size == 3 and "number" in entry)):
            return None
        if type(h) is not list or len(h) != 2 or type(terrain) is not str:
            return None
        q, r = h
        if not (
            type(q) is int
            and type(r) is int
            and -limit <= q <= limit
            and -limit <= r <= limit
            and (number is None or type(number) is int)
        ):
            return None
        tile = valid.get((terrain, number))
        if tile is None:
            return None
        out[Hex(q, r)] = tile
    return out if len(out) == len(entries) else None  # a hex given twice


def _check_player(field: str, player: object) -> str:
    if not isinstance(player, str) or not player.strip() or len(player) > 40:
        raise InvalidInput(field, player, "a player name (1 to 40 characters)")
    return check_name(player, field)


@dataclass(frozen=True)
class Board:
    """An immutable Catan board: hex -> :class:`Tile`, in axial coordinates.

    Parameters
    ----------
    tiles : mapping of (q, r) to Tile, or iterable of ((q, r), Tile) pairs
        Any shape of board: hexagons, islands with holes, several islands.

    Attributes
    ----------
    tiles : mapping of Hex to Tile
        Read-only, in board order (by ``r``, then ``q``: top row first).

    Raises
    ------
    InvalidInput
        Naming the hex: a value that is not a Tile, a bad number token (see
        :class:`Tile`), a hex given twice, coordinates that are not two
        integers within ``±MAX_COORDINATE``.

    See Also
    --------
    beginner_board : the embedded default board.
    Board.from_dict, Board.load : the JSON board format (docs/boards.md, "Board files").

    Notes
    -----
    The JSON format, one object per hex::

        {"hexes": [{"hex": [0, -2], "terrain": "mountains", "number": 10}, ...]}

    ``number`` is absent or null for desert and (optionally) sea. Boards
    compare and hash by their tiles.

    Examples
    --------
    >>> board = Board({Hex(0, 0): Tile(Terrain.DESERT), Hex(1, 0): Tile(Terrain.FOREST, 3)})
    >>> board, board.number((1, 0)), (0, 0) in board
    (Board(2 hexes, 2 land), 3, True)
    >>> Board({Hex(0, 0): Tile(Terrain.FOREST)})
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: hex 0,0.number: None is invalid; expected a number token ...
    """

    tiles: Mapping[Hex, Tile]
    harbours: Mapping[Edge, HarbourKind]
    buildings: Mapping[Vertex, Building]
    roads: Mapping[Edge, str]

    def __init__(
        self,
        tiles: Mapping[Hex, Tile]
        | Mapping[tuple[int, int], Tile]
        | Iterable[tuple[tuple[int, int], Tile]],
        *,
        harbours: Mapping[Edge, HarbourKind] | None = None,
        buildings: Mapping[Vertex, Building] | None = None,
        roads: Mapping[Edge, str] | None = None,
    ) -> None:
        items = tiles.items() if isinstance(tiles, Mapping) else tiles
        self._set_tiles(_checked_tiles(items))
        self._set_parts(harbours, buildings, roads)

    def _set_tiles(self, checked: dict[Hex, Tile]) -> None:
        """Store checked tiles in board order."""
        rows = [(h[1], h[0]) for h in checked]
        # Files written by isles are in board order already: check, sort only if not.
        in_order = all(map(operator.lt, rows, itertools.islice(rows, 1, None)))
        ordered = checked if in_order else dict(sorted(checked.items(), key=_board_order))
        object.__setattr__(self, "tiles", MappingProxyType(ordered))

    def _set_parts(
        self,
        harbours: Mapping[Edge, HarbourKind] | None,
        buildings: Mapping[Vertex, Building] | None,
        roads: Mapping[Edge, str] | None,
    ) -> None:
        """Check and store the harbours, buildings and roads (the tiles already stored)."""
        object.__setattr__(self, "harbours", MappingProxyType(self._harbours(harbours or {})))
        object.__setattr__(self, "buildings", MappingProxyType(self._buildings(buildings or {})))
        object.__setattr__(self, "roads", MappingProxyType(self._roads(roads or {})))

    def _harbours(self, harbours: Mapping[Edge, HarbourKind]) -> dict[Edge, HarbourKind]:
        """Check each harbour lies on a side between a sea hex and a land hex of the board."""
        out: dict[Edge, HarbourKind] = {}
        for raw, kind in harbours.items():
            e = edge(*raw)
            field = f"harbour {e}"
            if not isinstance(kind, HarbourKind):
                raise InvalidInput(field, kind, "a HarbourKind")
            if not all(h in self.tiles for h in e):
                raise InvalidInput(field, str(e), "a side between two hexes of the board")
            if sorted(self.tiles[h].terrain.is_land for h in e) != [False, True]:
                raise InvalidInput(field, str(e), "a side between a sea hex and a land hex")
            if e in out:
                raise InvalidInput(field, str(e), "one harbour per side")
            out[e] = kind
        return dict(sorted(out.items()))

    def _buildings(self, buildings: Mapping[Vertex, Building]) -> dict[Vertex, Building]:
        """Check each building stands on a corner of the board touching land, two apart."""
        out: dict[Vertex, Building] = {}
        for raw, building in buildings.items():
            v = vertex(*raw)
            field = f"building {':'.join(str(h) for h in v)}"
            if not isinstance(building, Building):
                raise InvalidInput(field, building, "a Building")
            _check_player(f"{field}.player", building.player)
            if not isinstance(building.kind, BuildingKind):
                raise InvalidInput(f"{field}.kind", building.kind, "settlement or city")
            if not all(h in self.tiles for h in v):
                raise InvalidInput(field, "off the board", "a corner of three hexes of the board")
            if not any(self.tiles[h].terrain.is_land for h in v):
                raise InvalidInput(field, "at sea", "a corner touching land")
            out[v] = building
        # The distance rule: no two buildings on corners joined by one side.
        for v in out:
            for w in out:
                if v < w and len(set(v) & set(w)) == 2:
                    raise InvalidInput(
                        f"building {':'.join(str(h) for h in w)}",
                        "next to another building",
                        "corners at least two sides apart (the distance rule)",
                    )
        return dict(sorted(out.items()))

    def _roads(self, roads: Mapping[Edge, str]) -> dict[Edge, str]:
        """Check each road lies on a side of the board touching land."""
        out: dict[Edge, str] = {}
        for raw, player in roads.items():
            e = edge(*raw)
            field = f"road {e}"
            _check_player(f"{field}.player", player)
            if not all(h in self.tiles for h in e):
                raise InvalidInput(field, str(e), "a side between two hexes of the board")
            if not any(self.tiles[h].terrain.is_land for h in e):
                raise InvalidInput(field, str(e), "a side touching land (not between two seas)")
            out[e] = player
        return dict(sorted(out.items()))

    def replace(
        self,
        *,
        tiles: Mapping[Hex, Tile] | None = None,
        harbours: Mapping[Edge, HarbourKind] | None = None,
        buildings: Mapping[Vertex, Building] | None = None,
        roads: Mapping[Edge, str] | None = None,
    ) -> Board:
        """A copy with some parts replaced (each checked again).

        Examples
        --------
        >>> b = beginner_board().replace(roads={edge((0, -2), (0, -1)): "red"})
        >>> dict(b.roads)
        {Edge(a=Hex(q=0, r=-2), b=Hex(q=0, r=-1)): 'red'}
        """
        parts = (
            self.harbours if harbours is None else harbours,
            self.buildings if buildings is None else buildings,
            self.roads if roads is None else roads,
        )
        if tiles is not None:
            return Board(tiles, harbours=parts[0], buildings=parts[1], roads=parts[2])
        board = Board.__new__(Board)  # the tiles are checked already: keep them
        object.__setattr__(board, "tiles", self.tiles)
        board._set_parts(*parts)
        return board

    # -- container protocol -------------------------------------------------
    def __contains__(self, h: object) -> bool:
        return h in self.tiles

    def __iter__(self) -> Iterator[Hex]:
        return iter(self.tiles)

    def __len__(self) -> int:
        return len(self.tiles)

    def __getitem__(self, h: tuple[int, int]) -> Tile:
        return self.tiles[Hex(*h)]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def _key(self) -> tuple[tuple[Any, ...], ...]:
        return (
            tuple(self.tiles.items()),
            tuple(self.harbours.items()),
            tuple(self.buildings.items()),
            tuple(self.roads.items()),
        )

    def __repr__(self) -> str:
        return f"Board({len(self.tiles)} hexes, {len(self.land())} land)"

    # -- queries --------------------------------------------------------------
    def terrain(self, h: tuple[int, int]) -> Terrain:
        """The terrain of hex ``h``.

        Parameters
        ----------
        h : (q, r)
            A hex on the board (``KeyError`` otherwise).

        Returns
        -------
        Terrain

        Examples
        --------
        >>> beginner_board().terrain((0, 0))
        <Terrain.DESERT: 'desert'>
        """
        return self[h].terrain

    def number(self, h: tuple[int, int]) -> int | None:
        """The number token of hex ``h``.

        Parameters
        ----------
        h : (q, r)
            A hex on the board (``KeyError`` otherwise).

        Returns
        -------
        int or None
            None for a desert and a sea hex without a token.

        Examples
        --------
        >>> beginner_board().number((1, 0))
        3
        """
        return self[h].number

    def land(self) -> list[Hex]:
        """Land hexes (everything but sea).

        Returns
        -------
        list of Hex
            In board order (by ``r``, then ``q``).

        Examples
        --------
        >>> len(beginner_board().land())
        19
        """
        return [h for h, t in self.tiles.items() if t.terrain.is_land]

    def sea(self) -> list[Hex]:
        """Sea hexes.

        Returns
        -------
        list of Hex
            In board order.

        Examples
        --------
        >>> len(beginner_board().sea())
        18
        """
        return [h for h, t in self.tiles.items() if not t.terrain.is_land]

    def players(self) -> list[str]:
        """The players the board names: the owners of its roads and buildings, sorted.

        Examples
        --------
        >>> beginner_board().players()
        []
        """
        return sorted({*self.roads.values(), *(b.player for b in self.buildings.values())})

    def check_player(self, player: object, field: str = "player") -> str:
        """``player`` if the board names it (:meth:`players`), exactly as the file spells it.

        The one check of a player option against a board (``isles rally
        --player``, ``isles ships harvest --player``).

        Parameters
        ----------
        player : str
            A player's name.
        field : str
            The name reported in the error (the option the user typed, say).

        Returns
        -------
        str

        Raises
        ------
        InvalidInput
            Naming ``field``, the value and the players the board names (or
            that it names none).

        Examples
        --------
        >>> from isles.models.hexgrid import edge
        >>> board = beginner_board().replace(roads={edge((0, -2), (0, -1)): "red"})
        >>> board.check_player("red")
        'red'
        >>> board.check_player("Red", "--player")
        Traceback (most recent call last):
        ...
        isles.models.errors.InvalidInput: --player: 'Red' is invalid; expected a player of ...: red
        """
        players = self.players()
        if player not in players:
            none = "none (this board has no roads or buildings; a board file gives them)"
            named = ", ".join(players) if players else none
            raise InvalidInput(field, player, f"a player of the board: {named}")
        assert isinstance(player, str)  # one of the board's names
        return player

    def neighbours(self, h: tuple[int, int]) -> list[Hex]:
        """The neighbours of ``h`` that are on the board.

        Parameters
        ----------
        h : (q, r)
            Any hex (on the board or not).

        Returns
        -------
        list of Hex
            In :data:`~isles.models.hexgrid.DIRECTIONS` order.

        Examples
        --------
        >>> beginner_board().neighbours((0, -3))
        [Hex(q=1, r=-3), Hex(q=-1, r=-2), Hex(q=0, r=-2)]
        """
        return [n for n in neighbours(h) if n in self.tiles]

    def rim(self) -> list[Hex]:
        """The board's edge: hexes with fewer than six neighbours on the board.

        Returns
        -------
        list of Hex
            In board order.

        Examples
        --------
        >>> len(beginner_board().rim())
        18
        """
        return [h for h in self.tiles if len(self.neighbours(h)) < 6]

    # -- JSON -----------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The JSON board format as plain data (docs/boards.md, "Board files").

        Returns
        -------
        dict
            ``{"hexes": [{"hex": [q, r], "terrain": ..., "number": ...}, ...]}``,
            hexes in board order, ``number`` None where there is none.

        See Also
        --------
        Board.from_dict : the inverse.

        Examples
        --------
        >>> Board({(0, 0): Tile(Terrain.DESERT)}).to_dict()
        {'hexes': [{'hex': [0, 0], 'terrain': 'desert', 'number': None}]}
        """
        out: dict[str, Any] = {
            "hexes": [
                {"hex": hex_json(h), "terrain": t.terrain.value, "number": t.number}
                for h, t in self.tiles.items()
            ]
        }
        # The optional parts appear only when present: a plain board stays a plain file.
        if self.harbours:
            out["harbours"] = [
                {"edge": edge_json(e), "kind": kind.value} for e, kind in self.harbours.items()
            ]
        if self.buildings:
            out["buildings"] = [
                {"corner": corner_json(v), "player": b.player, "kind": b.kind.value}
                for v, b in self.buildings.items()
            ]
        if self.roads:
            out["roads"] = [
                {"edge": edge_json(e), "player": player} for e, player in self.roads.items()
            ]
        return out

    def to_json(self, indent: int | None = None) -> str:
        """The board as JSON text in the board format.

        Parameters
        ----------
        indent : int, optional
            As in :func:`json.dumps` (None: one line).

        Returns
        -------
        str
            :meth:`to_dict` as JSON.

        Examples
        --------
        >>> Board({(0, 0): Tile(Terrain.SEA)}).to_json()
        '{"hexes": [{"hex": [0, 0], "terrain": "sea", "number": null}]}'
        """
        return json.dumps(self.to_dict(), indent=indent)

    @classmethod
    def from_dict(cls, data: object, source: str = "board") -> Board:
        """Read the JSON board format (already parsed); see the class docstring.

        Parameters
        ----------
        data : object
            The parsed JSON value.
        source : str
            What it is (a file name), for messages.

        Returns
        -------
        Board

        Raises
        ------
        InvalidInput
            Naming the entry (``board.hexes[i]``) and field: an unknown or a
            missing key, an unknown terrain, a token of 7 or outside 2..12, a
            number on a desert, a producing hex without one, a hex given twice,
            a hex that is not ``[q, r]`` with integers within ``±MAX_COORDINATE``.
            An empty list is a board with no tiles yet (a table before set-up).

        See Also
        --------
        Board.to_dict : the inverse.

        Examples
        --------
        >>> Board.from_dict({"hexes": [{"hex": [0, 0], "terrain": "desert"}]})
        Board(1 hexes, 1 land)
        >>> Board.from_dict({"hexes": [{"q": 0, "r": 0, "terrain": "desert"}]})
        Traceback (most recent call last):
        ...
        isles.models.errors.InvalidInput: board.hexes[0]: unknown key 'q'; expected ...
        """
        top = read_object(data, source, ["hexes"], ["harbours", "buildings", "roads"])
        entries = read_list(top["hexes"], f"{source}.hexes")
        in_bulk = _read_tiles_in_bulk(entries) if entries else None
        if in_bulk is not None:
            board = cls.__new__(cls)
            board._set_tiles(in_bulk)
            board._set_parts(None, None, None)
        else:
            board = cls._read_tiles_one_by_one(entries, source)
        return cls._with_parts(board, top, source)

    @classmethod
    def _read_tiles_one_by_one(cls, entries: list[object], source: str) -> Board:
        """The board's tiles, each entry checked in turn: errors name the first bad one."""
        seen: dict[Hex, int] = {}
        tiles: list[tuple[Hex, Tile]] = []
        for i, entry in enumerate(entries):
            field = f"{source}.hexes[{i}]"
            item = read_object(entry, field, ["hex", "terrain"], ["number"])
            h = read_hex(item["hex"], f"{field}.hex")
            terrain = read_str(item["terrain"], f"{field}.terrain", [t.value for t in Terrain])
            tile = Tile(Terrain(terrain), item.get("number"))  # type: ignore[arg-type]
            check_tile(f"{field} ({h})", tile)
            if h in seen:
                raise InvalidInput(
                    f"{field}.hex", hex_json(h), f"a hex not already given at hexes[{seen[h]}]"
                )
            seen[h] = i
            tiles.append((h, tile))
        return cls(tiles)

    @classmethod
    def _with_parts(cls, board: Board, top: dict[str, object], source: str) -> Board:
        """``board`` with the harbours, buildings and roads of the file's top object."""
        harbours: dict[Edge, HarbourKind] = {}
        for i, entry in enumerate(read_list(top.get("harbours", []), f"{source}.harbours")):
            field = f"{source}.harbours[{i}]"
            item = read_object(entry, field, ["edge", "kind"])
            e = read_edge(item["edge"], f"{field}.edge")
            kind = read_str(item["kind"], f"{field}.kind", [k.value for k in HarbourKind])
            if e in harbours:
                raise InvalidInput(f"{field}.edge", edge_json(e), "one harbour per side")
            harbours[e] = HarbourKind(kind)
        buildings: dict[Vertex, Building] = {}
        for i, entry in enumerate(read_list(top.get("buildings", []), f"{source}.buildings")):
            field = f"{source}.buildings[{i}]"
            item = read_object(entry, field, ["corner", "player"], ["kind"])
            v = read_corner(item["corner"], f"{field}.corner")
            player = _check_player(f"{field}.player", item["player"])
            kind = read_str(
                item.get("kind", "settlement"), f"{field}.kind", [k.value for k in BuildingKind]
            )
            if v in buildings:
                raise InvalidInput(f"{field}.corner", corner_json(v), "one building per corner")
            buildings[v] = Building(player, BuildingKind(kind))
        roads: dict[Edge, str] = {}
        for i, entry in enumerate(read_list(top.get("roads", []), f"{source}.roads")):
            field = f"{source}.roads[{i}]"
            item = read_object(entry, field, ["edge", "player"])
            e = read_edge(item["edge"], f"{field}.edge")
            if e in roads:
                raise InvalidInput(f"{field}.edge", edge_json(e), "one road per side")
            roads[e] = _check_player(f"{field}.player", item["player"])
        if not (harbours or buildings or roads):
            return board
        try:
            return board.replace(harbours=harbours, buildings=buildings, roads=roads)
        except InvalidInput as exc:
            raise InvalidInput(f"{source}: {exc.field}", exc.value, exc.expected) from None

    @classmethod
    def from_json(cls, text: str, source: str = "board") -> Board:
        """Parse JSON text in the board format.

        Parameters
        ----------
        text : str
            The JSON text.
        source : str
            What it is, for messages.

        Returns
        -------
        Board

        Raises
        ------
        InvalidInput
            Text that is not JSON (a repeated key, ``NaN``), or any error of
            :meth:`from_dict`.

        Examples
        --------
        >>> Board.from_json('{"hexes": [{"hex": [0, 0], "terrain": "sea"}]}')
        Board(1 hexes, 0 land)
        """
        return cls.from_dict(parse_json(text, source), source)

    @classmethod
    def load(cls, path: str | Path) -> Board:
        """Read a board JSON file, or standard input when ``path`` is ``"-"``.

        Parameters
        ----------
        path : str or Path
            The file (UTF-8 JSON, docs/json.md "Input files"), or ``"-"``.

        Returns
        -------
        Board

        Raises
        ------
        InvalidInput
            An unreadable file (missing, a folder, too large, not UTF-8), text
            that is not JSON, or any error of :meth:`from_dict`; messages name
            the file (``standard input`` for ``"-"``).

        Examples
        --------
        >>> Board.load("/nonexistent/board.json")
        Traceback (most recent call last):
        ...
        isles.models.errors.InvalidInput: board file: '/nonexistent/board.json' is invalid; ...
        """
        source = "standard input" if str(path) == STDIN else str(path)
        return cls.from_dict(load_json(path, "board file"), source)

    def save(self, path: str | Path) -> None:
        """Write the board to ``path`` in the JSON board format (one hex per line).

        Parameters
        ----------
        path : str or Path
            The file to write (replaced if it exists).

        Raises
        ------
        OSError
            If the file cannot be written.

        Examples
        --------
        >>> import tempfile, pathlib
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "board.json"
        >>> beginner_board().save(path)
        >>> Board.load(path) == beginner_board()
        True
        """
        Path(path).write_text(self.to_json(indent=1) + "\n", encoding="utf-8")


_BEGINNER: tuple[tuple[int, int, Terrain, int | None], ...] = (
    (0, -2, Terrain.MOUNTAINS, 10),
    (1, -2, Terrain.PASTURE, 2),
    (2, -2, Terrain.FOREST, 9),
    (-1, -1, Terrain.FIELDS, 12),
    (0, -1, Terrain.HILLS, 6),
    (1, -1, Terrain.PASTURE, 4),
    (2, -1, Terrain.HILLS, 10),
    (-2, 0, Terrain.FIELDS, 9),
    (-1, 0, Terrain.FOREST, 11),
    (0, 0, Terrain.DESERT, None),
    (1, 0, Terrain.FOREST, 3),
    (2, 0, Terrain.MOUNTAINS, 8),
    (-2, 1, Terrain.FOREST, 8),
    (-1, 1, Terrain.MOUNTAINS, 3),
    (0, 1, Terrain.FIELDS, 4),
    (1, 1, Terrain.PASTURE, 5),
    (-2, 2, Terrain.HILLS, 5),
    (-1, 2, Terrain.FIELDS, 6),
    (0, 2, Terrain.PASTURE, 11),
)


def beginner_board() -> Board:
    """The official beginner board, the embedded default (docs/boards.md, "The beginner board").

    Returns
    -------
    Board
        19 land hexes (the base game's tiles and tokens), the desert at the
        centre ``(0, 0)``, and the 18 sea hexes of the ring at distance 3.

    Examples
    --------
    >>> b = beginner_board()
    >>> len(b), b[Hex(0, -2)]
    (37, Tile(terrain=<Terrain.MOUNTAINS: 'mountains'>, number=10))
    """
    tiles: dict[Hex, Tile] = {Hex(q, r): Tile(t, n) for q, r, t, n in _BEGINNER}
    for h in ring(3):
        tiles[h] = Tile(Terrain.SEA)
    return Board(tiles)
