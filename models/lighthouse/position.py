"""Lighthouses: a position between turns, and the states of one lighthouse.

Implements docs/lighthouse.md ("Discs", "The dynamic programme", "Formats"; seed
000_aeb701e368f40145.txt): the position file format, the rule of which disc a
lighthouse takes, the eight states of a lighthouse and a position's code.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from isles.models.errors import InvalidInput
from isles.models.jsonio import load_json, read_int, read_list, read_object, read_str
from isles.models.lighthouse.kit import DISCS_PER_LIGHTHOUSE, Kit

__all__ = [
    "FINISHED_STATE",
    "LIGHTHOUSE_STATES",
    "STATE_AFTER",
    "STATE_DISCS",
    "Position",
    "can_take",
    "lighthouse_state",
    "position_code",
]

LIGHTHOUSE_STATES = 8
"""States of one lighthouse (docs/lighthouse.md, "The dynamic programme"): 0 empty;
``2c - 1`` / ``2c``: ``c`` discs (1..3), the island's first / second colour on top;
7 finished."""

FINISHED_STATE = 7
"""The state of a lighthouse with 4 discs."""

STATE_DISCS: tuple[int, ...] = (0, 1, 1, 2, 2, 3, 3, 4)
"""Discs on a lighthouse in each state."""

STATE_AFTER: tuple[tuple[int, int], ...] = (
    (1, 2),
    (-1, 4),
    (3, -1),
    (-1, 6),
    (5, -1),
    (-1, 7),
    (7, -1),
    (-1, -1),
)
"""``STATE_AFTER[state][side]``: the state after a disc of the island's first (side 0)
or second (side 1) colour, -1 when the lighthouse cannot take it (the rule of
:func:`can_take`: an empty lighthouse takes either colour, a started one the colour
alternating with its top disc, a finished one none)."""


@dataclass(frozen=True)
class Position:
    """A position between turns.

    The position file format (docs/lighthouse.md, "Formats") is :meth:`to_dict`;
    :meth:`from_dict` and :meth:`load` read and check it against a kit.

    Parameters
    ----------
    discs : tuple of tuple of str
        Discs on each lighthouse, bottom to top (one tuple per island in play).
    boat : int
        0 before the first sea card, ``k`` on the k-th card (``0..sea_cards``).
    maurice : int
        Islands Maurice has walked past his own, modulo the islands in play.

    Examples
    --------
    >>> from isles.models.lighthouse.kit import default_kit
    >>> kit = default_kit(2)
    >>> Position.start(kit)
    Position(discs=((), ()), boat=0, maurice=0)
    """

    discs: tuple[tuple[str, ...], ...]
    boat: int = 0
    maurice: int = 0

    def __post_init__(self) -> None:
        # What needs no kit is checked at once; the rest by check(kit).
        for name in ("boat", "maurice"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise InvalidInput(f"position.{name}", value, "an integer >= 0")
        if not isinstance(self.discs, tuple | list) or not all(
            isinstance(stack, tuple | list) and all(isinstance(c, str) for c in stack)
            for stack in self.discs
        ):
            raise InvalidInput("position.discs", self.discs, "one tuple of colours per lighthouse")

    @staticmethod
    def start(kit: Kit) -> Position:
        """Empty lighthouses, boat before the first card, Maurice on his island."""
        return Position(tuple(() for _ in kit.islands), 0, 0)

    def check(self, kit: Kit) -> Position:
        """Return self if it is a legal position of ``kit``, else raise InvalidInput.

        Parameters
        ----------
        kit : Kit

        Returns
        -------
        Position
            ``self``.

        Raises
        ------
        InvalidInput
            Not one lighthouse per island, more than 4 discs, a disc not of its
            island's colours, two equal colours in a row, the boat outside
            ``0..sea_cards`` or Maurice outside ``0..islands-1``.

        Examples
        --------
        >>> from isles.models.lighthouse.kit import default_kit
        >>> kit = default_kit(2)
        >>> Position((("red", "blue"), ()), 1, 0).check(kit).boat
        1
        >>> Position((("red", "red"), ()), 1, 0).check(kit)
        Traceback (most recent call last):
        ...
        isles.models.errors.InvalidInput: position.discs[0]: ['red', 'red'] is invalid; ...
        """
        n = len(kit.islands)
        if len(self.discs) != n:
            raise InvalidInput(
                "position.discs",
                None,
                f"{n} lighthouses (one per island)",
                problem=f"{len(self.discs)} lighthouses",
            )
        for k, (stack, island) in enumerate(zip(self.discs, kit.islands, strict=True)):
            if len(stack) > DISCS_PER_LIGHTHOUSE:
                raise InvalidInput(f"position.discs[{k}]", list(stack), "at most 4 discs")
            for j, colour in enumerate(stack):
                if colour not in island:
                    raise InvalidInput(
                        f"position.discs[{k}][{j}]", colour, f"one of {list(island)}"
                    )
                if j and stack[j - 1] == colour:
                    raise InvalidInput(f"position.discs[{k}]", list(stack), "alternating colours")
        if isinstance(self.boat, bool) or not isinstance(self.boat, int):
            raise InvalidInput("position.boat", self.boat, f"an integer in 0..{kit.sea_cards}")
        if not 0 <= self.boat <= kit.sea_cards:
            raise InvalidInput(
                "position.boat", self.boat, f"a sea card position in 0..{kit.sea_cards}"
            )
        if isinstance(self.maurice, bool) or not isinstance(self.maurice, int):
            raise InvalidInput("position.maurice", self.maurice, f"an integer in 0..{n - 1}")
        if not 0 <= self.maurice < n:
            raise InvalidInput("position.maurice", self.maurice, f"an island offset in 0..{n - 1}")
        return self

    @property
    def discs_laid(self) -> int:
        """Total discs on all lighthouses."""
        return sum(len(s) for s in self.discs)

    def is_won(self) -> bool:
        """Every lighthouse has 4 discs."""
        return all(len(s) == DISCS_PER_LIGHTHOUSE for s in self.discs)

    def to_dict(self) -> dict[str, Any]:
        """The position file format (docs/lighthouse.md, "Formats") as plain data.

        Examples
        --------
        >>> Position((("red",), ()), 2, 1).to_dict()
        {'discs': [['red'], []], 'boat': 2, 'maurice': 1}
        """
        return {"discs": [list(s) for s in self.discs], "boat": self.boat, "maurice": self.maurice}

    @classmethod
    def from_dict(cls, raw: object, kit: Kit) -> Position:
        """Read and check a position file: ``discs``, ``boat`` and ``maurice``, all required.

        Parameters
        ----------
        raw : object
            Parsed JSON.
        kit : Kit
            The kit the position belongs to.

        Returns
        -------
        Position

        Raises
        ------
        InvalidInput
            A missing or unknown key (a misspelt ``"Boat"`` is never ignored), a
            value of the wrong type, or a position that does not fit ``kit``
            (see :meth:`check`).

        Examples
        --------
        >>> from isles.models.lighthouse.kit import default_kit
        >>> Position.from_dict({"discs": [[], []], "Boat": 3, "maurice": 0}, default_kit(2))
        Traceback (most recent call last):
        ...
        isles.models.errors.InvalidInput: position: unknown key 'Boat'; expected only the keys ...
        """
        obj = read_object(raw, "position", ("discs", "boat", "maurice"))
        stacks = read_list(obj["discs"], "position.discs")
        discs = tuple(
            tuple(
                read_str(colour, f"position.discs[{k}][{j}]")
                for j, colour in enumerate(read_list(stack, f"position.discs[{k}]"))
            )
            for k, stack in enumerate(stacks)
        )
        n = len(kit.islands)
        boat = read_int(obj["boat"], "position.boat", 0, kit.sea_cards)
        maurice = read_int(obj["maurice"], "position.maurice", 0, n - 1)
        return cls(discs, boat, maurice).check(kit)

    @classmethod
    def load(cls, path: str | Path, kit: Kit) -> Position:
        """Read a position file of ``kit``; ``"-"`` reads standard input.

        Raises
        ------
        InvalidInput
            An unreadable file, invalid JSON, or a bad position (see :meth:`from_dict`).
        """
        return cls.from_dict(load_json(path, "position file"), kit)


def can_take(island: tuple[str, str], stack: Sequence[str], colour: str) -> bool:
    """Whether a lighthouse can take a disc of ``colour`` now (docs/lighthouse.md, "Discs").

    An empty lighthouse takes either of its island's colours; a started one only
    the colour alternating with its top disc; a finished one (4 discs) none.

    Parameters
    ----------
    island : (str, str)
        The island's two colours.
    stack : sequence of str
        Its discs, bottom to top.
    colour : str
        The disc's colour.

    Returns
    -------
    bool

    Examples
    --------
    >>> can_take(("red", "blue"), (), "blue"), can_take(("red", "blue"), ("red",), "red")
    (True, False)
    """
    if len(stack) >= DISCS_PER_LIGHTHOUSE or colour not in island:
        return False
    return not stack or stack[-1] != colour


def lighthouse_state(island: tuple[str, str], stack: Sequence[str]) -> int:
    """The state (:data:`LIGHTHOUSE_STATES`) of a lighthouse with discs ``stack``.

    Parameters
    ----------
    island : (str, str)
        The island's two colours.
    stack : sequence of str
        Its discs, bottom to top (alternating colours of the island).

    Returns
    -------
    int
        0 empty; ``2c - 1`` (``2c``) with ``c`` discs, the first (second) colour
        on top, ``c = 1..3``; :data:`FINISHED_STATE` with 4 discs.

    Examples
    --------
    >>> lighthouse_state(("red", "blue"), ("red", "blue"))
    4
    >>> STATE_AFTER[4][0]  # red on a red-blue lighthouse with blue on top: three discs
    5
    """
    if len(stack) == 0:
        return 0
    if len(stack) >= DISCS_PER_LIGHTHOUSE:
        return FINISHED_STATE
    return 2 * len(stack) - (1 if stack[-1] == island[0] else 0)


def position_code(kit: Kit, position: Position) -> int:
    """The integer code of a position's lighthouses: ``sum(state_i * 8**i)``.

    Parameters
    ----------
    kit : Kit
    position : Position

    Returns
    -------
    int
        In ``0 .. 8**n - 1``; each lighthouse's state is :func:`lighthouse_state`.

    Examples
    --------
    >>> from isles.models.lighthouse.kit import default_kit
    >>> kit = default_kit(2)
    >>> position_code(kit, Position((("blue",), ()), 0, 0))
    2
    """
    return sum(
        lighthouse_state(isl, stack) * LIGHTHOUSE_STATES**i
        for i, (isl, stack) in enumerate(zip(kit.islands, position.discs, strict=True))
    )
