"""Plunder's codes: the three categories, a code or clue, a player's answer, display names.

Implements docs/plunder.md ("The game", "The record format") for seed
``seeds/003_cfc377110defcf34.txt``: the values and their categories, codes and
their JSON and text forms, the truthful answer to a clue, and a legal deal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from isles.models.errors import InvalidInput
from isles.models.jsonio import read_int, read_object

__all__ = [
    "CATEGORIES",
    "CODES",
    "COPIES",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "VALUES",
    "Category",
    "Clue",
    "Code",
    "Names",
    "answer",
    "check_deal",
    "code_from_json",
    "code_from_text",
    "is_int",
    "value_from_json",
]

VALUES = 6
"""Values per category (indices 0..5)."""
COPIES = 3
"""Copies of each value in a clue deck (18 cards per deck, 54 in all)."""
MIN_PLAYERS = 2
"""Fewest players at the table."""
MAX_PLAYERS = 6
"""Most players at the table."""
CODES = VALUES**3
"""Number of distinct codes (216)."""


class Category(StrEnum):
    """The three card categories, in the order of a code.

    Examples
    --------
    >>> [c.value for c in CATEGORIES]
    ['island', 'marker', 'trap']
    """

    ISLAND = "island"
    MARKER = "marker"
    TRAP = "trap"


CATEGORIES: tuple[Category, ...] = (Category.ISLAND, Category.MARKER, Category.TRAP)
"""The categories in code order: island, marker, trap."""


def is_int(value: object) -> bool:
    """An int that is not a bool (``True`` is an int in Python, never a player or value)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _check_value(where: str, v: object) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < VALUES:
        raise InvalidInput(where, v, f"a value index in 0..{VALUES - 1}")
    return v


@dataclass(frozen=True, order=True)
class Code:
    """One value per category: a player's secret code, or a clue on the table.

    Parameters
    ----------
    island, marker, trap : int
        Value indices in 0..5 (``int``, not ``bool``).

    Raises
    ------
    InvalidInput
        A value that is not an integer in 0..5, naming the category.

    See Also
    --------
    code_from_json, code_from_text : read a code from a record or an option.

    Examples
    --------
    >>> Code(2, 5, 0).index
    102
    >>> Code.from_index(102)
    Code(island=2, marker=5, trap=0)
    >>> Code(True, 0, 0)
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: island: True is invalid; expected a value index in 0..5
    """

    island: int
    marker: int
    trap: int

    def __post_init__(self) -> None:
        for cat in CATEGORIES:
            _check_value(cat.value, getattr(self, cat.value))

    @property
    def values(self) -> tuple[int, int, int]:
        """The values as ``(island, marker, trap)``."""
        return (self.island, self.marker, self.trap)

    @property
    def index(self) -> int:
        """``island * 36 + marker * 6 + trap``, in 0..215."""
        return (self.island * VALUES + self.marker) * VALUES + self.trap

    @classmethod
    def from_index(cls, index: int) -> Code:
        """Inverse of :attr:`index`.

        Raises
        ------
        InvalidInput
            An index outside 0..215.
        """
        if not is_int(index) or not 0 <= index < CODES:
            raise InvalidInput("code index", index, f"an integer in 0..{CODES - 1}")
        return cls(index // (VALUES * VALUES), index // VALUES % VALUES, index % VALUES)

    def value(self, category: Category) -> int:
        """The value of one category.

        >>> Code(2, 5, 0).value(Category.MARKER)
        5
        """
        return int(getattr(self, category.value))

    def replace(self, category: Category, value: int) -> Code:
        """This combination with one category's card replaced (a flip).

        >>> Code(2, 5, 0).replace(Category.TRAP, 4)
        Code(island=2, marker=5, trap=4)
        """
        vals = dict(zip(CATEGORIES, self.values, strict=True))
        vals[category] = value
        return Code(*(vals[c] for c in CATEGORIES))

    def to_dict(self) -> dict[str, int]:
        """The JSON object of a code: ``{"island": i, "marker": m, "trap": t}`` (indices).

        >>> Code(2, 5, 0).to_dict()
        {'island': 2, 'marker': 5, 'trap': 0}
        """
        return {"island": self.island, "marker": self.marker, "trap": self.trap}


Clue = Code
"""A clue is a combination of one card per category, the same shape as a code."""


def answer(code: Code, clue: Code) -> bool:
    """The truthful answer of a player holding ``code`` to ``clue``.

    Yes when at least one of the three shown cards is one of the player's own
    three, same category and same value (docs/plunder.md, "The game"; an
    island never matches a marker of the same index).

    Parameters
    ----------
    code : Code
        The answering player's code.
    clue : Code
        The combination on the table.

    Returns
    -------
    bool

    Examples
    --------
    >>> answer(Code(0, 1, 2), Code(3, 1, 4))
    True
    >>> answer(Code(0, 1, 2), Code(2, 0, 1))
    False
    """
    return code.island == clue.island or code.marker == clue.marker or code.trap == clue.trap


@dataclass(frozen=True)
class Names:
    """Display names of the six values of each category (optional in a record).

    Parameters
    ----------
    island, marker, trap : sequence of str
        Six distinct non-empty names each, in value order.

    Raises
    ------
    InvalidInput
        Not six distinct non-empty strings, naming the category.

    Examples
    --------
    >>> names = Names(tuple("ABCDEF"), tuple("GHIJKL"), tuple("MNOPQR"))
    >>> names.of(Category.MARKER)[1]
    'H'
    """

    island: tuple[str, ...]
    marker: tuple[str, ...]
    trap: tuple[str, ...]

    def __post_init__(self) -> None:
        for cat in CATEGORIES:
            raw = getattr(self, cat.value)
            if isinstance(raw, str) or not isinstance(raw, Sequence):
                raise InvalidInput(f"names.{cat.value}", raw, "six distinct names")
            names = tuple(raw)
            if (
                len(names) != VALUES
                or not all(isinstance(s, str) and s for s in names)
                or len(set(names)) != VALUES
            ):
                raise InvalidInput(f"names.{cat.value}", list(names), "six distinct names")
            for name in names:
                # "--clue 0,1,a" reads digits as value indices: a name of digits is ambiguous.
                if name.strip().lstrip("-").isdigit():
                    raise InvalidInput(
                        f"names.{cat.value}", name, "names that are not numbers (indices are)"
                    )
            object.__setattr__(self, cat.value, names)

    def of(self, category: Category) -> tuple[str, ...]:
        """The six names of one category."""
        names: tuple[str, ...] = getattr(self, category.value)
        return names


def value_from_json(where: str, v: object, names: Names | None, cat: Category) -> int:
    """One value of ``cat`` from JSON: an index 0..5, or a display name of ``names``.

    >>> value_from_json("clue.trap", 5, None, Category.TRAP)
    5
    """
    if isinstance(v, str):
        if names is None:
            raise InvalidInput(where, v, 'a value index 0..5 (names need a "names" map)')
        if v not in names.of(cat):
            raise InvalidInput(where, v, f"a value index 0..5 or one of {', '.join(names.of(cat))}")
        return names.of(cat).index(v)
    return read_int(v, where, 0, VALUES - 1)


def code_from_json(where: str, c: object, names: Names | None = None) -> Code:
    """A code from its JSON object ``{"island", "marker", "trap"}`` (indices or names).

    Parameters
    ----------
    where : str
        The field, for messages (``"record.me.code"``).
    c : object
        The parsed JSON value.
    names : Names, optional
        Display names; with them a value may be written by name.

    Returns
    -------
    Code

    Raises
    ------
    InvalidInput
        Not an object of exactly those three keys, a value outside 0..5, or an
        unknown name (named by ``where``).

    Examples
    --------
    >>> code_from_json("clue", {"island": 1, "marker": 2, "trap": 3})
    Code(island=1, marker=2, trap=3)
    """
    obj = read_object(c, where, [cat.value for cat in CATEGORIES])
    return Code(
        *(value_from_json(f"{where}.{cat.value}", obj[cat.value], names, cat) for cat in CATEGORIES)
    )


def code_from_text(text: str, names: Names | None = None, where: str = "--clue") -> Code:
    """A code written ``island,marker,trap``, each value an index 0..5 or a display name.

    Parameters
    ----------
    text : str
        The text, e.g. ``"0,Star,5"``. A part made of digits is an index.
    names : Names, optional
        Display names (a record's ``names``).
    where : str
        The option or field, for messages.

    Returns
    -------
    Code

    Raises
    ------
    InvalidInput
        Not three comma-separated values, an index outside 0..5 or an unknown name.

    Examples
    --------
    >>> from isles.models.plunder.record import example_record
    >>> code_from_text("0,Star,5", example_record().names)
    Code(island=0, marker=3, trap=5)
    >>> code_from_text("1,2")
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: --clue: '1,2' is invalid; expected three values ...
    """
    if not isinstance(text, str):
        raise InvalidInput(where, text, "a code written island,marker,trap")
    parts = [s.strip() for s in text.split(",")]
    if len(parts) != len(CATEGORIES) or not all(parts):
        raise InvalidInput(where, text, "three values 'island,marker,trap' (indices or names)")
    raw = {
        cat.value: int(s) if s.isascii() and s.isdigit() and len(s) <= 3 else s
        for cat, s in zip(CATEGORIES, parts, strict=True)
    }
    return code_from_json(where, raw, names)


def check_deal(players: int, codes: Sequence[Code]) -> None:
    """Raise InvalidInput unless ``codes`` is a legal deal (distinct per category).

    Parameters
    ----------
    players : int
        The number of players.
    codes : sequence of Code
        One code per player.

    Raises
    ------
    InvalidInput
        Not one code per player, or two players holding the same card.

    Examples
    --------
    >>> check_deal(2, [Code(0, 0, 0), Code(1, 1, 1)])
    >>> check_deal(2, [Code(0, 0, 0), Code(1, 0, 1)])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: deal.marker: [0, 0] is invalid; ...
    """
    if len(codes) != players:
        raise InvalidInput("deal", len(codes), f"one code per player ({players})")
    for cat in CATEGORIES:
        vals = [c.value(cat) for c in codes]
        if len(set(vals)) != len(vals):
            raise InvalidInput(f"deal.{cat.value}", vals, "distinct values per category")
