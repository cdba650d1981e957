"""The isles exception family: every error the library raises on bad input.

Messages name the field, the value given and what would be valid, so that the
command line can print them as one line.
"""

from __future__ import annotations

__all__ = ["SEED_MAX", "InvalidInput", "IslesError", "expect"]

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
        self.problem = problem
        said = f"{value!r} is invalid" if problem is None else problem
        super().__init__(f"{field}: {said}; expected {expected}")


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
