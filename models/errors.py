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
    problem : str, optional
        What is wrong, when "<value> is invalid" says it badly (``"missing"``,
        ``"unknown key 'Boat'"``).

    Examples
    --------
    >>> str(InvalidInput("hexes[0].number", 7, "a number token in 2..12 other than 7"))
    'hexes[0].number: 7 is invalid; expected a number token in 2..12 other than 7'
    >>> str(InvalidInput("position.boat", None, "an integer in 0..8", problem="missing"))
    'position.boat: missing; expected an integer in 0..8'
    """

    def __init__(
        self, field: str, value: object, expected: str, problem: str | None = None
    ) -> None:
        self.field = field
        self.value = value
        self.expected = expected
        said = f"{value!r} is invalid" if problem is None else problem
        super().__init__(f"{field}: {said}; expected {expected}")
