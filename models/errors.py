"""The isles exception family: every error the library raises on bad input.

Messages name the field, the value given and what would be valid, so that the
command line can print them as one line.
"""

from __future__ import annotations

import json
import math
from decimal import Decimal
from enum import Enum

__all__ = ["SEED_MAX", "InvalidInput", "IslesError", "expect", "json_text", "not_whole"]

#: Random seeds are integers in 0..SEED_MAX everywhere in isles (library and command
#: line; CP-SAT and NumPy both accept them).
SEED_MAX = 2**31 - 1


class IslesError(Exception):
    """Base class of every error isles raises on purpose."""


class InvalidInput(IslesError, ValueError):
    """Input that breaks the rules or the file format.

    Parameters
    ----------
    field : str
        Where the bad value sits, e.g. ``"hexes[3].number"`` or ``"--start"``.
    value : object
        The value as the user gave it (repr'd in the message).
    expected : str
        What would have been valid.
    problem : str, optional
        What is wrong, when "<value> is invalid" says it badly (``"missing"``,
        ``"unknown key 'Boat'"``).
    shown : str, optional
        The value as the front end spells it (:func:`json_text` on the web);
        default its Python ``repr`` (the text typed, quoted, on the command line).

    Examples
    --------
    >>> str(InvalidInput("hexes[0].number", 7, "a number token in 2..12 other than 7"))
    'hexes[0].number: 7 is invalid; expected a number token in 2..12 other than 7'
    >>> str(InvalidInput("position.boat", None, "an integer in 0..8", problem="missing"))
    'position.boat: missing; expected an integer in 0..8'
    >>> str(InvalidInput("players", True, "an integer in 2..4").in_json())
    'players: true is invalid; expected an integer in 2..4'
    >>> str(InvalidInput("hand.brick", 1.0, "a whole number of cards >= 0").in_json())
    'hand.brick: 1.0 is invalid; expected a whole number of cards >= 0'
    """

    def __init__(
        self,
        field: str,
        value: object,
        expected: str,
        problem: str | None = None,
        *,
        shown: str | None = None,
    ) -> None:
        self.field = field
        self.value = value
        self.expected = expected
        self.problem = problem
        self.shown = shown
        said = f"{value!r}" if shown is None else shown
        said = f"{said} is invalid" if problem is None else problem
        super().__init__(f"{field}: {said}; expected {expected}")

    def in_json(self) -> InvalidInput:
        """The same error, its value spelt as JSON (:func:`json_text`): the web app's words.

        A request's values are JSON, so the web shows ``true``, ``null`` and
        ``1e+23`` where Python would write ``True``, ``None`` and ``1e+23``; a
        value already spelt (the text typed) stays as it is.
        """
        if self.shown is not None or self.problem is not None:
            return self
        value = self.value
        if isinstance(value, float) and value.is_integer() and abs(value) < 1e16:
            # JSON's 1.0 was a float: shown so (4.0), not as the integer 4 it equals
            return InvalidInput(self.field, value, self.expected, shown=repr(value))
        return InvalidInput(self.field, value, self.expected, shown=json_text(value))


def _js_number(x: float) -> str:
    """A float as JavaScript writes it (``Number.prototype.toString``, ECMA-262 6.1.6.1.20)."""
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "0"
    if x < 0:
        return "-" + _js_number(-x)
    # repr is the shortest decimal that reads back as x, as in ECMAScript
    _, digit_tuple, exponent = Decimal(repr(x)).normalize().as_tuple()
    digits = "".join(map(str, digit_tuple))
    k = len(digits)
    n = int(exponent) + k  # x = 0.digits * 10**n
    if k <= n <= 21:
        return digits + "0" * (n - k)
    if 0 < n <= 21:
        return digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return "0." + "0" * -n + digits
    power = f"e{'+' if n - 1 >= 0 else '-'}{abs(n - 1)}"
    return (digits if k == 1 else digits[0] + "." + digits[1:]) + power


def json_text(value: object) -> str:
    """A value spelt as the web pages' JSON writes it (``JSON.stringify``).

    ``true``, ``false``, ``null``, numbers as JavaScript writes them, strings in
    double quotes; lists and objects likewise. ``Infinity`` and ``NaN`` (which
    JSON cannot hold) keep their JavaScript names; a value JSON has no form for
    is shown as Python shows it.

    Parameters
    ----------
    value : object
        A value read from a request.

    Returns
    -------
    str

    Examples
    --------
    >>> json_text(True), json_text(None), json_text(1e23), json_text(2147483647)
    ('true', 'null', '1e+23', '2147483647')
    >>> json_text(float("inf")), json_text(1e21), json_text(1e20), json_text(1e-7)
    ('Infinity', '1e+21', '100000000000000000000', '1e-7')
    >>> json_text({"ore": [1, 2.5, "x"]}), json_text({2: True})
    ('{"ore":[1,2.5,"x"]}', '{"2":true}')
    """
    if value is None or isinstance(value, bool):
        return {None: "null", True: "true", False: "false"}[value]
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return _js_number(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, Enum):
        return json_text(value.value)
    if isinstance(value, list | tuple):
        return "[" + ",".join(json_text(v) for v in value) + "]"
    if isinstance(value, dict) and all(isinstance(k, str | int) for k in value):
        # JSON's keys are strings: an answer by player 2 is {"2":true}
        items = (f"{json_text(str(k))}:{json_text(v)}" for k, v in value.items())
        return "{" + ",".join(items) + "}"
    return repr(value)


def not_whole(value: object) -> str | None:
    """Why a float given where an integer belongs is not one, said of the float.

    JSON reads ``4.0`` and ``4`` alike once parsed, so a float where an integer
    belongs is said to be one (with the integer to write), never shown as the
    integer it equals. None for anything but a finite float.

    Parameters
    ----------
    value : object
        The value given.

    Returns
    -------
    str or None
        The problem, for :class:`InvalidInput`'s ``problem``.

    Examples
    --------
    >>> not_whole(4.0), not_whole(4.5), not_whole(4)
    ('4.0 is a float, not a whole number (write 4)', '4.5 is not a whole number', None)
    """
    if not isinstance(value, float) or not math.isfinite(value):
        return None
    if not value.is_integer():
        return f"{value!r} is not a whole number"
    hint = f" (write {int(value)})" if abs(value) < 1e16 else ""
    return f"{value!r} is a float, not a whole number{hint}"


def expect(value: object, kind: type | tuple[type, ...], field: str, what: str) -> None:
    """Refuse an argument of the wrong type with an :class:`InvalidInput`, not a crash.

    The public entry points call it on the objects they are given, so that a
    path where a record belongs, or None where a board belongs, is named as such.
    A bool is never taken for an int.

    Parameters
    ----------
    value : object
        What the caller passed.
    kind : type or tuple of types
        What is accepted.
    field : str
        The parameter's name, for the message.
    what : str
        What is valid, for the message.

    Raises
    ------
    InvalidInput
        When ``value`` is not an instance of ``kind``.

    Examples
    --------
    >>> expect("game.json", dict, "record", "a Record (Record.load reads a file)")
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: record: 'game.json' is invalid; expected a Record ...
    """
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        shown = value if isinstance(value, str | int | float | type(None)) else type(value).__name__
        raise InvalidInput(field, shown, what)
