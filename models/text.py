"""The text forms users type: whole numbers and numbers in plain ASCII digits.

Implements docs/json.md ("Places on the board", command-line text): ``3``,
``-2``, ``0.5``, ``1e3``; never ``٣``, ``１``, ``1_0`` or `` 3 `` with inner spaces,
which Python's ``int`` and ``float`` would quietly accept.
"""

from __future__ import annotations

import math
import re
import unicodedata

from isles.models.errors import InvalidInput

__all__ = ["check_name", "parse_integer", "parse_number", "terminal_safe"]

_INTEGER = re.compile(r"[+-]?[0-9]+")
_NUMBER = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")

#: Digits in a whole number typed by a user (Python's own limit is 4300).
MAX_DIGITS = 100


def parse_integer(text: str, field: str, expected: str = "a whole number") -> int:
    """A whole number written in ASCII digits, an optional sign, spaces around allowed.

    Parameters
    ----------
    text : str
        What the user typed.
    field : str
        The option or field, for the message.
    expected : str
        What is valid, for the message.

    Returns
    -------
    int

    Raises
    ------
    InvalidInput
        Anything else (other digits, underscores, a decimal point, too many digits).

    Examples
    --------
    >>> parse_integer(" -3", "--start")
    -3
    >>> parse_integer("١", "--islands")
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: --islands: '١' is invalid; expected a whole number
    """
    stripped = text.strip()
    if not _INTEGER.fullmatch(stripped) or len(stripped) > MAX_DIGITS:
        raise InvalidInput(field, text, expected)
    return int(stripped)


def parse_number(text: str, field: str, expected: str = "a number") -> float:
    """A finite decimal number in ASCII (``2``, ``0.5``, ``1e-3``).

    Examples
    --------
    >>> parse_number("0.5", "--value ore")
    0.5
    >>> parse_number("1_0", "--value ore")
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: --value ore: '1_0' is invalid; expected a number
    >>> parse_number("1e-400", "--value ore")
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: --value ore: '1e-400' is invalid; expected a number, not ...
    """
    stripped = text.strip()
    if not _NUMBER.fullmatch(stripped) or len(stripped) > MAX_DIGITS:
        raise InvalidInput(field, text, expected)
    value = float(stripped)
    if not math.isfinite(value):
        raise InvalidInput(field, text, expected)
    if value == 0 and any(c in "123456789" for c in stripped.split("e")[0].split("E")[0]):
        raise InvalidInput(field, text, f"{expected}, not so small that it reads as 0 (write 0)")
    return value


#: Categories a terminal acts on rather than shows: controls (escape sequences),
#: formats (the right-to-left override), separators of lines, surrogates, unassigned.
_UNSAFE = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def terminal_safe(text: str, *, lines: bool = True) -> str:
    """``text`` with every character a terminal would act on written as its escape.

    Names come from files users are given (a board, a record): a control
    character or a right-to-left override in a player's name must show as
    what it is, not move the cursor or reverse the line. New lines and tabs
    are kept.

    Parameters
    ----------
    text : str
        Text about to be printed.
    lines : bool
        Keep new lines and tabs (a table); False escapes them too (an error,
        which is one line whatever a name in it holds).

    Returns
    -------
    str
        The same text, with each unsafe character written as ``\\xNN``,
        ``\\uNNNN`` or ``\\UNNNNNNNN``.

    Examples
    --------
    >>> terminal_safe("Red")
    'Red'
    >>> print(terminal_safe("Re\\u202ed\\x1b[2J"))
    Re\\u202ed\\x1b[2J
    >>> terminal_safe("line 1\\n\\tline 2") == "line 1\\n\\tline 2"
    True
    """
    kept = "\n\t" if lines else ""
    if text.isprintable() or all(c in kept or c.isprintable() for c in text):
        return text
    return "".join(
        c.encode("unicode_escape").decode("ascii")
        if c not in kept and unicodedata.category(c) in _UNSAFE
        else c
        for c in text
    )


def check_name(value: str, field: str) -> str:
    """A name from a file (a player, a card): no character a terminal acts on.

    Parameters
    ----------
    value : str
        The name as given.
    field : str
        Where it sits, for the message.

    Returns
    -------
    str
        ``value``, unchanged.

    Raises
    ------
    InvalidInput
        A control character (a new line, a tab, an escape), a format character
        (a right-to-left override) or a line separator in the name.

    Examples
    --------
    >>> check_name("Red", "player")
    'Red'
    >>> check_name("Re\\nd", "player")
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: player: 'Re\\nd' is invalid; expected a name without ...
    """
    if not value.isprintable() and any(unicodedata.category(c) in _UNSAFE for c in value):
        raise InvalidInput(
            field, value, "a name without control characters (new lines, tabs, escapes)"
        )
    return value
