"""The isles exception family: every error the library raises on bad input.

Messages name the field, the value given and what would be valid, so that the
command line can print them as one line.
"""

from __future__ import annotations

__all__ = ["InvalidInput", "IslesError"]


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

    Examples
    --------
    >>> str(InvalidInput("hexes[0].number", 7, "a number token in 2..12 other than 7"))
    'hexes[0].number: 7 is invalid; expected a number token in 2..12 other than 7'
    """

    def __init__(self, field: str, value: object, expected: str) -> None:
        self.field = field
        self.value = value
        self.expected = expected
        super().__init__(f"{field}: {value!r} is invalid; expected {expected}")
