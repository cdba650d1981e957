"""The one JSON dialect of isles: reading every input file, writing every answer.

Implements docs/json.md: a hex is ``[q, r]``, an edge ``[[q, r], [q, r]]``, a
corner ``[[q, r], [q, r], [q, r]]``; a probability of the rules is a float with
its exact ``"p/q"`` beside it; an absent value is ``null``. Reading refuses
unknown and missing keys, repeated keys, deep nesting and files too large, each
failure an :class:`~isles.models.errors.InvalidInput` naming the field.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Collection, Mapping
from fractions import Fraction
from pathlib import Path

from isles.models.errors import InvalidInput, not_whole
from isles.models.hexgrid import Edge, Hex, Vertex, as_hex, distance, edge, vertex
from isles.models.text import check_name

__all__ = [
    "MAX_BYTES",
    "STDIN",
    "UNREADABLE",
    "corner_json",
    "edge_json",
    "exact_text",
    "float_or_none",
    "hex_json",
    "load_json",
    "parse_json",
    "probability_json",
    "read_bool",
    "read_corner",
    "read_edge",
    "read_hex",
    "read_int",
    "read_list",
    "read_object",
    "read_str",
]

#: Largest input isles reads (a 271k-hex board is about 15 MB).
MAX_BYTES = 256 * 2**20

#: The file name that means standard input.
STDIN = "-"
#: What :func:`load_json` expects of a file it cannot open (its reason follows).
UNREADABLE = "a readable JSON file"


class _Refused:
    """What the parser keeps in place of a value it refuses, so that the error can name
    where the value is (an object that repeats a key, a number too large for a float)."""

    __slots__ = ("key", "text")

    def __init__(self, *, key: str | None = None, text: str | None = None) -> None:
        self.key = key
        self.text = text


def _first_refused(value: object) -> tuple[str, _Refused] | None:
    """The first refused value in document order, and its path (``.hand.brick``, ``[0]``)."""
    stack: list[tuple[str, object]] = [("", value)]
    while stack:
        path, item = stack.pop()
        if isinstance(item, _Refused):
            return path, item
        if isinstance(item, dict):
            stack.extend((f"{path}.{k}", v) for k, v in reversed(item.items()))
        elif isinstance(item, list):
            stack.extend((f"{path}[{i}]", v) for i, v in reversed(list(enumerate(item))))
    return None


def _no_constant(name: str) -> object:
    raise ValueError(name)


def parse_json(text: str, source: str, *, within: str | None = None) -> object:
    """Parse JSON text; errors name ``source`` and the line and column.

    An object that repeats a key is refused (plain JSON would keep the last
    value silently), and so are ``NaN`` and ``Infinity``, which are not JSON,
    and a number too large for a float (``1e400``, which Python reads as inf);
    these two errors name where the key or number is (``x.json[0]``, ``hand.brick``).

    Parameters
    ----------
    text : str
        The JSON text.
    source : str
        What the text is (a file name), for messages.
    within : str, optional
        What the fields of the text are named under in messages: default
        ``source`` (``x.json.hexes[0]``); ``""`` names them by their keys alone
        (a request's ``hand.brick``), and the text as a whole as ``source``.

    Returns
    -------
    object
        The parsed value: dicts, lists, str, int, float, bool or None.

    Raises
    ------
    InvalidInput
        Invalid JSON, a repeated key, a non-finite number or nesting too deep.

    Examples
    --------
    >>> parse_json('{"a": [1]}', "x.json")
    {'a': [1]}
    >>> parse_json('[1e400]', "x.json")
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: x.json[0]: 1e400 is invalid; expected a number of at most ...
    >>> parse_json('{"a": 1, "a": 2}', "x.json")
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: x.json: the key "a" is given twice; expected each key ...
    >>> parse_json('{"hand": {"brick": 1e400}}', "request", within="")
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: hand.brick: 1e400 is invalid; expected a number of at ...
    """
    refused = False

    def pairs_hook(pairs: list[tuple[str, object]]) -> object:
        nonlocal refused
        out = dict(pairs)  # in C: big files read as fast as plain json.loads
        if len(out) != len(pairs):
            seen: set[str] = set()
            for key, _ in pairs:
                if key in seen:
                    refused = True
                    return _Refused(key=key)
                seen.add(key)
        return out

    def finite(number: str) -> object:
        nonlocal refused
        value = float(number)
        if math.isinf(value):
            refused = True
            return _Refused(text=number)
        return value

    try:
        data = json.loads(
            text, object_pairs_hook=pairs_hook, parse_constant=_no_constant, parse_float=finite
        )
        found = _first_refused(data) if refused else None
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno} column {exc.colno}"
        raise InvalidInput(source, where, f"valid JSON ({exc.msg})") from None
    except ValueError as exc:
        if "digits" in str(exc):  # Python's limit on the digits of an integer
            raise InvalidInput(
                source, "an integer of over 4300 digits", "JSON numbers of at most 4300 digits"
            ) from None
        raise InvalidInput(
            source, str(exc), "JSON numbers (NaN and Infinity are not JSON)"
        ) from None
    except RecursionError:
        raise InvalidInput(source, "nesting too deep", "valid JSON of reasonable depth") from None
    if found is None:
        return data
    path, bad = found
    field = (source if within is None else within) + path
    field = field.removeprefix(".") or source
    if bad.key is not None:
        raise InvalidInput(
            field,
            bad.key,
            "each key once per object",
            problem=f"the key {json.dumps(bad.key, ensure_ascii=False)} is given twice",
        )
    raise InvalidInput(
        field,
        bad.text,
        "a number of at most 1.7976931348623157e+308 (the largest a float holds)",
        shown=bad.text,
    )


def load_json(path: str | Path, what: str = "file") -> object:
    """Read and parse a UTF-8 JSON file, or standard input when ``path`` is ``"-"``.

    A byte-order mark is allowed.

    Parameters
    ----------
    path : str or Path
        The file, or :data:`STDIN` (``"-"``).
    what : str
        What the file is, for messages (``"board file"``, ``"record file"``).

    Returns
    -------
    object
        The parsed JSON value.

    Raises
    ------
    InvalidInput
        Naming the file: unreadable (missing, a directory, no permission),
        larger than :data:`MAX_BYTES`, not UTF-8, or not JSON.

    Examples
    --------
    >>> load_json("/nonexistent.json", "board file")
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: board file: '/nonexistent.json' is invalid; expected ...
    """
    if not isinstance(path, str | Path) or not str(path).strip():
        raise InvalidInput(what, path, "a file name (or - for standard input)")
    name = "standard input" if str(path) == STDIN else str(path)
    try:
        if str(path) == STDIN:
            raw = sys.stdin.buffer.read(MAX_BYTES + 1)
        else:
            with Path(path).open("rb") as handle:
                raw = handle.read(MAX_BYTES + 1)
    except OSError as exc:
        reason = exc.strerror or exc.__class__.__name__
        raise InvalidInput(what, str(path), f"{UNREADABLE} ({reason})") from None
    if len(raw) > MAX_BYTES:
        raise InvalidInput(what, name, f"a JSON file of at most {MAX_BYTES // 2**20} MiB")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InvalidInput(what, name, "a UTF-8 text file") from None
    return parse_json(text, name)


# -- reading ------------------------------------------------------------------------


def read_object(
    value: object,
    field: str,
    required: Collection[str],
    optional: Collection[str] = (),
) -> dict[str, object]:
    """Check that ``value`` is an object with every required key and no other.

    Parameters
    ----------
    value : object
        The parsed JSON value.
    field : str
        Where it sits, for messages (``"board.hexes[3]"``).
    required, optional : collection of str
        The keys that must and may appear.

    Returns
    -------
    dict
        ``value`` itself.

    Raises
    ------
    InvalidInput
        Not an object, a key missing, or a key that is neither required nor optional
        (a misspelt key is never ignored).

    Examples
    --------
    >>> read_object({"boat": 1}, "position", ["boat", "maurice"])
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: position: key 'maurice' missing; expected the keys ...
    >>> read_object({"Boat": 1, "boat": 1, "maurice": 0}, "position", ["boat", "maurice"])
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: position: unknown key 'Boat'; expected only the keys ...
    """
    keys = [*required, *optional]
    if not isinstance(value, dict):
        shown = "{" + ", ".join(f'"{k}"' for k in keys) + "}"
        raise InvalidInput(field, _kind(value), f"an object {shown}")
    for key in value:
        if key not in keys:
            raise InvalidInput(
                field, key, "only the keys " + ", ".join(keys), problem=f"unknown key {key!r}"
            )
    for key in required:
        if key not in value:
            raise InvalidInput(
                field, key, "the keys " + ", ".join(keys), problem=f"key {key!r} missing"
            )
    return value


def _kind(value: object) -> str:
    """A short name of a JSON value's type for messages."""
    return {
        dict: "an object",
        list: "a list",
        str: "a string",
        bool: "a boolean",
        int: "an integer",
        float: "a number",
        type(None): "null",
    }.get(type(value), type(value).__name__)


def read_int(value: object, field: str, low: int | None = None, high: int | None = None) -> int:
    """An integer (not a bool, not a float) within ``low..high``.

    Examples
    --------
    >>> read_int(3, "players", 2, 6)
    3
    >>> read_int(True, "players", 2, 6)
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: players: True is invalid; expected an integer in 2..6
    """
    span = (
        f" in {low}..{high}"
        if low is not None and high is not None
        else f" >= {low}"
        if low is not None
        else f" <= {high}"
        if high is not None
        else ""
    )
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(field, value, f"an integer{span}", problem=not_whole(value))
    if (low is not None and value < low) or (high is not None and value > high):
        raise InvalidInput(field, value, f"an integer{span}")
    return value


def read_bool(value: object, field: str) -> bool:
    """``true`` or ``false``; ``"no"``, ``0`` and ``"yes"`` are refused, never guessed.

    Examples
    --------
    >>> read_bool("no", "answers.2")
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: answers.2: 'no' is invalid; expected true or false
    """
    if not isinstance(value, bool):
        raise InvalidInput(field, value, "true or false")
    return value


def read_str(value: object, field: str, choices: Collection[str] | None = None) -> str:
    """A non-empty string, one of ``choices`` when given."""
    if not isinstance(value, str) or not value:
        raise InvalidInput(field, value, "a non-empty string")
    if choices is not None and value not in choices:
        raise InvalidInput(field, value, "one of " + ", ".join(choices))
    return check_name(value, field)


def read_list(value: object, field: str) -> list[object]:
    """A JSON list."""
    if not isinstance(value, list):
        raise InvalidInput(field, value if not isinstance(value, dict) else "an object", "a list")
    return value


def read_hex(value: object, field: str) -> Hex:
    """A hex written ``[q, r]``.

    Examples
    --------
    >>> read_hex([0, -3], "start")
    Hex(q=0, r=-3)
    """
    return as_hex(value, field)


def read_edge(value: object, field: str) -> Edge:
    """An edge written ``[[q, r], [q, r]]``: two adjacent hexes, in any order.

    Examples
    --------
    >>> read_edge([[1, 0], [0, 0]], "to")
    Edge(a=Hex(q=0, r=0), b=Hex(q=1, r=0))
    """
    if not isinstance(value, list) or len(value) != 2:
        raise InvalidInput(field, value, "an edge [[q, r], [q, r]] of two adjacent hexes")
    a, b = (as_hex(h, field) for h in value)
    if distance(a, b) != 1:
        raise InvalidInput(field, value, "an edge [[q, r], [q, r]] of two adjacent hexes")
    return edge(a, b)


def read_corner(value: object, field: str) -> Vertex:
    """A corner written ``[[q, r], [q, r], [q, r]]``: three pairwise adjacent hexes."""
    if not isinstance(value, list) or len(value) != 3:
        raise InvalidInput(field, value, "a corner [[q, r], [q, r], [q, r]]")
    hexes = [as_hex(h, field) for h in value]
    if any(distance(x, y) != 1 for i, x in enumerate(hexes) for y in hexes[i + 1 :]):
        raise InvalidInput(field, value, "a corner of three pairwise adjacent hexes")
    return vertex(*hexes)


# -- writing ------------------------------------------------------------------------


def hex_json(h: tuple[int, int]) -> list[int]:
    """``[q, r]``.

    >>> hex_json(Hex(0, -3))
    [0, -3]
    """
    return [h[0], h[1]]


def edge_json(e: tuple[tuple[int, int], tuple[int, int]]) -> list[list[int]]:
    """``[[q, r], [q, r]]``, the two hexes in canonical (sorted) order.

    >>> edge_json(edge((1, 0), (0, 0)))
    [[0, 0], [1, 0]]
    """
    a, b = sorted((Hex(*e[0]), Hex(*e[1])))
    return [hex_json(a), hex_json(b)]


def corner_json(v: tuple[tuple[int, int], ...]) -> list[list[int]]:
    """``[[q, r], [q, r], [q, r]]``, sorted.

    >>> corner_json(((0, 1), (0, 0), (1, 0)))
    [[0, 0], [0, 1], [1, 0]]
    """
    return [hex_json(h) for h in sorted(Hex(*h) for h in v)]


def exact_text(x: Fraction | None) -> str | None:
    """The exact ``"p/q"`` text of a Fraction (``"1/1"`` for one, ``"0/1"`` for zero).

    >>> exact_text(Fraction(3, 6)), exact_text(None)
    ('1/2', None)
    """
    return None if x is None else f"{x.numerator}/{x.denominator}"


def float_or_none(x: float | Fraction | None) -> float | None:
    """A finite float, or ``None`` for an absent or infinite value (JSON has no infinity).

    >>> float_or_none(Fraction(1, 4)), float_or_none(float("inf"))
    (0.25, None)
    """
    if x is None:
        return None
    value = float(x)
    return value if math.isfinite(value) else None


def probability_json(name: str, p: Fraction | float | None) -> Mapping[str, float | str | None]:
    """The two members of a probability: ``name`` (a float) and ``name_exact`` (``"p/q"``).

    ``name_exact`` is ``None`` when the library holds a float, not a Fraction.

    Examples
    --------
    >>> probability_json("p", Fraction(1, 3))
    {'p': 0.3333333333333333, 'p_exact': '1/3'}
    >>> probability_json("win_probability", 0.57)
    {'win_probability': 0.57, 'win_probability_exact': None}
    """
    exact = p if isinstance(p, Fraction) else None
    return {name: float_or_none(p), f"{name}_exact": exact_text(exact)}
