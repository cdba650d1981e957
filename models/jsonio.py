"""Reading the JSON files users give isles (boards, records, kits, positions).

Every failure becomes :class:`~isles.models.errors.InvalidInput` naming the file:
missing or unreadable, too large, not UTF-8, not JSON, nested too deeply.
"""

from __future__ import annotations

import json
from pathlib import Path

from isles.models.errors import InvalidInput

__all__ = ["MAX_BYTES", "load_json", "parse_json"]

#: Largest file isles reads (a 271k-hex board is about 15 MB).
MAX_BYTES = 256 * 2**20


class _DuplicateKey(Exception):
    pass


def _no_duplicate_keys(pairs: list[tuple[str, object]]) -> dict[str, object]:
    """Refuse an object that names a key twice (JSON would keep only the last)."""
    out: dict[str, object] = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKey(key)
        out[key] = value
    return out


def parse_json(text: str, source: str) -> object:
    """Parse JSON text; errors name ``source`` and the line and column.

    An object that repeats a key is refused (plain JSON would keep the last
    value silently).

    >>> parse_json('{"a": [1]}', "x.json")
    {'a': [1]}
    """
    try:
        return json.loads(text, object_pairs_hook=_no_duplicate_keys)
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno} column {exc.colno}"
        raise InvalidInput(source, where, f"valid JSON ({exc.msg})") from None
    except _DuplicateKey as exc:
        raise InvalidInput(
            source, f"key {exc.args[0]!r} twice", "each key once per object"
        ) from None
    except RecursionError:
        raise InvalidInput(source, "nesting too deep", "valid JSON of reasonable depth") from None


def load_json(path: str | Path, what: str = "file") -> object:
    """Read and parse a UTF-8 JSON file (a byte-order mark is allowed).

    Parameters
    ----------
    path : str or Path
        The file.
    what : str
        What the file is, for messages (``"board file"``, ``"record file"``).

    Raises
    ------
    InvalidInput
        Naming the file: unreadable (missing, a directory, no permission),
        larger than :data:`MAX_BYTES`, not UTF-8, or not JSON.
    """
    p = Path(path)
    try:
        with p.open("rb") as handle:
            raw = handle.read(MAX_BYTES + 1)
    except OSError as exc:
        reason = exc.strerror or exc.__class__.__name__
        raise InvalidInput(what, str(path), f"a readable JSON file ({reason})") from None
    if len(raw) > MAX_BYTES:
        raise InvalidInput(what, str(path), f"a JSON file of at most {MAX_BYTES // 2**20} MiB")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InvalidInput(what, str(path), "a UTF-8 text file") from None
    return parse_json(text, str(path))
