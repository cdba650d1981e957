"""Lighthouses: the kit, positions, roll outcomes, legal decisions and one turn of play.

Implements docs/lighthouse.md ("How we read the rules", "Formats"; seed
000_aeb701e368f40145.txt): turn order (boat first, loss at once), discs placed in
a chosen order, Maurice's walk and bonus disc, the state machine of one
lighthouse, and the kit and position files. The competitive variant's rules are
:mod:`isles.models.lighthouse.competitive`'s.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from itertools import product
from pathlib import Path
from typing import Any, Literal

from isles.models.errors import InvalidInput
from isles.models.jsonio import (
    load_json,
    probability_json,
    read_int,
    read_list,
    read_object,
    read_str,
)

__all__ = [
    "BOAT",
    "DEFAULT_COLOURS",
    "DEFAULT_GAMES",
    "DEFAULT_ISLANDS",
    "DEFAULT_KIT",
    "DISCS_PER_LIGHTHOUSE",
    "FINISHED_STATE",
    "KITS",
    "LIGHTHOUSE_STATES",
    "MAX_DEFAULT_ISLANDS",
    "MAX_EXACT_ISLANDS",
    "MAX_FACES",
    "MAX_FRACTION_ISLANDS",
    "MAX_GAMES",
    "MAX_ISLANDS",
    "MAX_SEA_CARDS",
    "MAX_TABLE_ISLANDS",
    "PLAYER_ISLANDS",
    "POLICIES",
    "SIMULATE_FROM_ISLANDS",
    "STATE_AFTER",
    "STATE_DISCS",
    "Decision",
    "Kit",
    "NamedKit",
    "Outcome",
    "Policy",
    "Position",
    "Roll",
    "TurnResult",
    "boat_lands",
    "bonus_options",
    "can_take",
    "default_kit",
    "islands_in_play",
    "legal_decisions",
    "lighthouse_state",
    "named_kit",
    "play_turn",
    "players_kit",
    "position_code",
    "roll_outcomes",
]

BOAT = "boat"
"""The die face that advances the boat."""

DISCS_PER_LIGHTHOUSE = 4
"""Discs of a finished lighthouse (the lamp on top adds nothing to the odds)."""

MAX_ISLANDS = 12
"""Most islands a kit may have in play (the box has 8; the exact DP takes at most 8)."""

MAX_SEA_CARDS = 30
"""Most sea cards a kit may have (the box has 8)."""

MAX_FACES = 20
"""Most faces a die may have (the box's dice have 6). The roll outcomes, and with them
the time of every solver, grow with the square of the faces (docs/lighthouse.md, "Caps")."""

# The policies and the caps of the solvers (solvers/lighthouse/) live here, beside the
# kit's caps, so that the command line states them without loading NumPy.

Policy = Literal["optimal", "greedy", "random"]
"""How the players choose: ``optimal``, ``greedy`` or ``random`` (docs/lighthouse.md)."""

POLICIES: tuple[Policy, ...] = ("optimal", "greedy", "random")
"""Every policy, in the order the documentation lists them."""

MAX_FRACTION_ISLANDS = 4
"""Largest kit solved in Fractions (object arrays: 4 islands take seconds to a minute)."""

MAX_EXACT_ISLANDS = 8
"""Largest kit the class DP solves in every position, under optimal and random play
(the real game, 8 islands: about 30 s and 2.5 GiB the first time, then a cached table)."""

MAX_TABLE_ISLANDS = 7
"""Largest kit whose greedy play is kept for every position (7 islands: a 1.1 GB table;
8 islands' greedy values are swept layer by layer for the start position only)."""

MAX_SWEEP_ISLANDS = 8
"""Largest kit whose start values are computed exactly, for every policy."""

SIMULATE_FROM_ISLANDS = 8
"""Monte Carlo estimates and certified bounds are offered from this many islands on
(smaller kits are exact in seconds)."""

MAX_GAMES = 1_000_000
"""Most games one simulation plays (cooperative and competitive): a 95% interval of
about +-0.001; greedy play of 8 islands takes about 30 s, random play 4 min, the
competitive variant 30 min."""

DEFAULT_GAMES = 20_000
"""Games simulated when the caller does not say (a 95% interval of about +-0.007)."""

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

DEFAULT_COLOURS: tuple[str, ...] = ("red", "blue", "green", "orange", "purple")
"""The five colours of the default kit (docs/lighthouse.md, "Default kit")."""

DEFAULT_ISLANDS: tuple[tuple[str, str], ...] = (
    ("red", "blue"),
    ("green", "orange"),
    ("purple", "red"),
    ("blue", "green"),
    ("orange", "purple"),
    ("red", "green"),
    ("blue", "orange"),
    ("purple", "green"),
)
"""The eight islands of the default kit, Maurice's island first (docs/lighthouse.md)."""


@dataclass(frozen=True)
class Kit:
    """What is on the table: islands in play, the two dice and the sea cards.

    The kit file format (docs/lighthouse.md, "Formats") is :meth:`to_dict`;
    :meth:`from_dict` and :meth:`load` read it.

    Parameters
    ----------
    islands : tuple of (str, str)
        The islands in play with their two colours, Maurice's island first
        (1 to :data:`MAX_ISLANDS`).
    dice : tuple of two tuples of str
        The faces of each die: ``"boat"`` or a colour (1 to :data:`MAX_FACES` each).
    sea_cards : int
        Number of sea cards between the boat's start and Maurice's island
        (1 to :data:`MAX_SEA_CARDS`).

    Raises
    ------
    InvalidInput
        No island or more than :data:`MAX_ISLANDS`, an island whose two colours
        are equal (or ``"boat"``), not exactly two dice, a die with no face or
        more than :data:`MAX_FACES`, sea cards outside 1..:data:`MAX_SEA_CARDS`,
        or an island colour that no die shows. A die colour that no island has
        is allowed (it is never usable).

    See Also
    --------
    default_kit : the kit in the box.

    Examples
    --------
    >>> kit = Kit((("red", "blue"),), (("boat", "red", "blue"), ("boat", "red", "blue")), 2)
    >>> kit.colours, kit.discs_needed
    (('red', 'blue'), 4)
    """

    islands: tuple[tuple[str, str], ...]
    dice: tuple[tuple[str, ...], tuple[str, ...]]
    sea_cards: int

    def __post_init__(self) -> None:
        if not 1 <= len(self.islands) <= MAX_ISLANDS:
            raise InvalidInput(
                "kit.islands", f"{len(self.islands)} islands", f"1..{MAX_ISLANDS} islands"
            )
        for k, island in enumerate(self.islands):
            if len(island) != 2 or not all(isinstance(c, str) and c for c in island):
                raise InvalidInput(f"kit.islands[{k}]", island, "two colour names")
            if island[0] == island[1] or BOAT in island:
                raise InvalidInput(
                    f"kit.islands[{k}]", list(island), "two different colours (not 'boat')"
                )
        if len(self.dice) != 2:
            raise InvalidInput("kit.dice", f"{len(self.dice)} dice", "exactly two dice")
        for k, die in enumerate(self.dice):
            if not 1 <= len(die) <= MAX_FACES:
                raise InvalidInput(
                    f"kit.dice[{k}]",
                    None,
                    f"1..{MAX_FACES} faces",
                    problem=f"{len(die)} faces",
                )
            if not all(isinstance(f, str) and f for f in die):
                raise InvalidInput(f"kit.dice[{k}]", die, "faces named by non-empty strings")
            for face in die:
                # "Boat" or "BOAT" is a misspelt boat, never a colour of its own.
                if face != BOAT and face.strip().lower() == BOAT:
                    raise InvalidInput(f"kit.dice[{k}]", face, f"the boat face written {BOAT!r}")
        faces = {f for die in self.dice for f in die}
        for k, island in enumerate(self.islands):
            for colour in island:
                if colour not in faces:
                    raise InvalidInput(
                        f"kit.islands[{k}]", colour, "a colour shown on at least one die face"
                    )
        if isinstance(self.sea_cards, bool) or not isinstance(self.sea_cards, int):
            raise InvalidInput("kit.sea_cards", self.sea_cards, f"an integer in 1..{MAX_SEA_CARDS}")
        if not 1 <= self.sea_cards <= MAX_SEA_CARDS:
            raise InvalidInput("kit.sea_cards", self.sea_cards, f"an integer in 1..{MAX_SEA_CARDS}")

    @property
    def colours(self) -> tuple[str, ...]:
        """The island colours, in order of first appearance."""
        seen: dict[str, None] = {}
        for island in self.islands:
            for colour in island:
                seen.setdefault(colour, None)
        return tuple(seen)

    @property
    def discs_needed(self) -> int:
        """Discs needed to finish every lighthouse (4 per island)."""
        return DISCS_PER_LIGHTHOUSE * len(self.islands)

    def with_sea_cards(self, sea_cards: int) -> Kit:
        """The same islands and dice with another number of sea cards.

        Examples
        --------
        >>> default_kit(2).with_sea_cards(3).sea_cards
        3
        """
        return Kit(self.islands, self.dice, sea_cards)

    def to_dict(self) -> dict[str, Any]:
        """The kit file format (docs/lighthouse.md, "Formats") as plain data.

        Examples
        --------
        >>> default_kit(1, 2).to_dict()["islands"]
        [['red', 'blue']]
        """
        return {
            "islands": [list(i) for i in self.islands],
            "dice": [list(d) for d in self.dice],
            "sea_cards": self.sea_cards,
        }

    @classmethod
    def from_dict(cls, raw: object) -> Kit:
        """Read the kit file format: the keys ``islands``, ``dice`` and ``sea_cards``, all required.

        Parameters
        ----------
        raw : object
            Parsed JSON.

        Returns
        -------
        Kit

        Raises
        ------
        InvalidInput
            A missing or unknown key, a value of the wrong type, or a kit that
            breaks a rule of :class:`Kit`; the message names the field
            (``kit.dice[1][3]``).

        Examples
        --------
        >>> Kit.from_dict({"islands": [["red", "blue"]], "dice": [["boat", "red", "blue"]] * 2,
        ...                "sea_cards": 3}).sea_cards
        3
        >>> Kit.from_dict({"islands": [["red", "blue"]], "dice": [["red", "blue"]] * 2,
        ...                "sea_cards": 3, "Boat": 1})
        Traceback (most recent call last):
        ...
        isles.models.errors.InvalidInput: kit: unknown key 'Boat'; expected only the keys ...
        """
        obj = read_object(raw, "kit", ("islands", "dice", "sea_cards"))
        islands_raw = read_list(obj["islands"], "kit.islands")
        if not 1 <= len(islands_raw) <= MAX_ISLANDS:
            raise InvalidInput(
                "kit.islands",
                None,
                f"1..{MAX_ISLANDS} islands",
                problem=f"{len(islands_raw)} islands",
            )
        islands: list[tuple[str, str]] = []
        for k, item in enumerate(islands_raw):
            pair = read_list(item, f"kit.islands[{k}]")
            if len(pair) != 2:
                raise InvalidInput(f"kit.islands[{k}]", pair, "two colour names [colour, colour]")
            islands.append(
                (
                    read_str(pair[0], f"kit.islands[{k}][0]"),
                    read_str(pair[1], f"kit.islands[{k}][1]"),
                )
            )
        dice_raw = read_list(obj["dice"], "kit.dice")
        if len(dice_raw) != 2:
            raise InvalidInput(
                "kit.dice", None, "exactly two dice", problem=f"{len(dice_raw)} dice"
            )
        dice: list[tuple[str, ...]] = []
        for k, item in enumerate(dice_raw):
            faces = read_list(item, f"kit.dice[{k}]")
            if not 1 <= len(faces) <= MAX_FACES:
                raise InvalidInput(
                    f"kit.dice[{k}]", None, f"1..{MAX_FACES} faces", problem=f"{len(faces)} faces"
                )
            dice.append(tuple(read_str(f, f"kit.dice[{k}][{j}]") for j, f in enumerate(faces)))
        sea_cards = read_int(obj["sea_cards"], "kit.sea_cards", 1, MAX_SEA_CARDS)
        return cls(tuple(islands), (dice[0], dice[1]), sea_cards)

    @classmethod
    def load(cls, path: str | Path) -> Kit:
        """Read a kit file; ``"-"`` reads standard input.

        Raises
        ------
        InvalidInput
            An unreadable file, invalid JSON, or a bad kit (see :meth:`from_dict`).
        """
        return cls.from_dict(load_json(path, "kit file"))


#: Islands the default kit has (:data:`DEFAULT_ISLANDS`): ``default_kit`` takes 1..this.
MAX_DEFAULT_ISLANDS = len(DEFAULT_ISLANDS)


def default_kit(islands: int = MAX_DEFAULT_ISLANDS, sea_cards: int = 8) -> Kit:
    """The default kit with the first ``islands`` islands (docs/lighthouse.md, "Default kit").

    Each die has one boat face and one face per colour (red, blue, green,
    orange, purple); the islands are :data:`DEFAULT_ISLANDS`, Maurice's first.

    Parameters
    ----------
    islands : int
        Islands in play, 1..:data:`MAX_DEFAULT_ISLANDS`.
    sea_cards : int
        Sea cards, 1..:data:`MAX_SEA_CARDS`.

    Returns
    -------
    Kit

    Raises
    ------
    InvalidInput
        ``islands`` outside 1..:data:`MAX_DEFAULT_ISLANDS` or ``sea_cards``
        outside 1..:data:`MAX_SEA_CARDS`.

    Examples
    --------
    >>> default_kit(6).islands[5]
    ('red', 'green')
    """
    if (
        isinstance(islands, bool)
        or not isinstance(islands, int)
        or not 1 <= islands <= MAX_DEFAULT_ISLANDS
    ):
        raise InvalidInput("islands", islands, f"an integer in 1..{MAX_DEFAULT_ISLANDS}")
    die = (BOAT, *DEFAULT_COLOURS)
    return Kit(DEFAULT_ISLANDS[:islands], (die, die), sea_cards)


@dataclass(frozen=True)
class NamedKit:
    """A built-in kit of :data:`KITS`: what it is, and how it is built.

    Parameters
    ----------
    help : str
        One line for ``isles lighthouse --help`` and the docs.
    islands : int
        The first ``islands`` islands of the default kit.
    sea_cards : int
        Its sea cards (a question's ``sea_cards`` may ask another number).
    players : int, optional
        The players the box deals this kit to (the real game), if any.
    """

    help: str
    islands: int
    sea_cards: int = 8
    players: int | None = None

    def build(self, sea_cards: int | None = None) -> Kit:
        """The kit, with its own sea cards or ``sea_cards``.

        Examples
        --------
        >>> len(KITS["game-3"].build().islands), KITS["game-3"].build(2).sea_cards
        (6, 2)
        """
        return default_kit(self.islands, self.sea_cards if sea_cards is None else sea_cards)


#: Every built-in kit by name (docs/lighthouse.md, "Named kits"): the real game as
#: the box deals it to 2, 3 or 4 players, the competitive variant's kits, and the
#: default kit's first N islands. Adding a kit is one entry here.
KITS: dict[str, NamedKit] = {
    "game-2": NamedKit("the real game for 2 players: 8 islands, 8 sea cards", 8, players=2),
    "game-3": NamedKit("the real game for 3 players: 6 islands, 8 sea cards", 6, players=3),
    "game-4": NamedKit("the real game for 4 players: 8 islands, 8 sea cards", 8, players=4),
    "competitive-2": NamedKit("the competitive variant, 2 seats: 6 islands, 3 sea cards", 6, 3),
    "competitive-3": NamedKit("the competitive variant, 3 seats: 6 islands, 3 sea cards", 6, 3),
    "competitive-4": NamedKit("the competitive variant, 4 seats: 8 islands, 3 sea cards", 8, 3),
    **{
        f"default-{n}": NamedKit(f"the default kit's first {n} islands, 8 sea cards", n)
        for n in range(1, MAX_DEFAULT_ISLANDS + 1)
    },
}

#: The kit a question plays when it chooses none: the real game for 2 players.
DEFAULT_KIT = "game-2"


def named_kit(name: str, sea_cards: int | None = None, field: str = "kit") -> Kit:
    """The built-in kit ``name`` of :data:`KITS` (its own sea cards, or ``sea_cards``).

    Raises
    ------
    InvalidInput
        ``name`` is not in :data:`KITS`.

    Examples
    --------
    >>> len(named_kit("game-3").islands)
    6
    >>> named_kit("game-5")
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: kit: 'game-5' is invalid; expected a kit name: game-2, ...
    """
    found = KITS.get(name) if isinstance(name, str) else None
    if found is None:
        raise InvalidInput(field, name, "a kit name: " + ", ".join(KITS))
    return found.build(sea_cards)


#: Islands in play by the number of players (docs/lighthouse.md, "The game"): 2 players
#: hold 4 island cards each, 3 or 4 players 2 each (the registry's ``game-N`` kits).
PLAYER_ISLANDS: dict[int, int] = {
    k.players: k.islands for k in KITS.values() if k.players is not None
}


def players_kit(players: int = 2, sea_cards: int = 8) -> Kit:
    """The default kit as the box deals it to ``players`` players: 8 islands for 2 or 4, 6 for 3.

    Parameters
    ----------
    players : int
        2, 3 or 4.
    sea_cards : int
        Sea cards (the box has 8).

    Returns
    -------
    Kit

    Raises
    ------
    InvalidInput
        ``players`` outside 2..4, or a bad number of sea cards.

    Examples
    --------
    >>> len(players_kit(3).islands), len(players_kit(4).islands)
    (6, 8)
    """
    return default_kit(islands_in_play(players), sea_cards)


def islands_in_play(players: int) -> int:
    """The islands in play for 2, 3 or 4 players (:data:`PLAYER_ISLANDS`).

    Raises
    ------
    InvalidInput
        ``players`` outside 2..4.

    Examples
    --------
    >>> [islands_in_play(p) for p in (2, 3, 4)]
    [8, 6, 8]
    """
    if isinstance(players, bool) or players not in PLAYER_ISLANDS:
        raise InvalidInput("players", players, "2, 3 or 4 players")
    return PLAYER_ISLANDS[players]


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
    >>> kit = default_kit(2)
    >>> position_code(kit, Position((("blue",), ()), 0, 0))
    2
    """
    return sum(
        lighthouse_state(isl, stack) * LIGHTHOUSE_STATES**i
        for i, (isl, stack) in enumerate(zip(kit.islands, position.discs, strict=True))
    )


@dataclass(frozen=True)
class Roll:
    """One outcome of rolling both dice, grouped by what it does.

    Parameters
    ----------
    boat : bool
        Whether at least one die shows the boat.
    colours : tuple of str
        The sorted colour faces (0, 1 or 2 of them).
    probability : Fraction
        The exact probability of this outcome.

    Examples
    --------
    >>> Roll.from_faces(default_kit(), ("boat", "red"))
    Roll(boat=True, colours=('red',), probability=Fraction(1, 18))
    """

    boat: bool
    colours: tuple[str, ...]
    probability: Fraction

    @classmethod
    def from_faces(cls, kit: Kit, faces: Sequence[str], field: str = "roll") -> Roll:
        """The roll outcome of two faces, one per die, with its exact probability.

        Parameters
        ----------
        kit : Kit
        faces : sequence of two str
            The face of die 1 and of die 2 (``"boat"`` or a colour).
        field : str
            How the caller names the roll, for messages (``"--roll"``).

        Returns
        -------
        Roll

        Raises
        ------
        InvalidInput
            Not two faces, or a face that its die does not have.

        Examples
        --------
        >>> Roll.from_faces(default_kit(), ["blue", "red"]).probability
        Fraction(1, 18)
        >>> Roll.from_faces(default_kit(), ["red", "black"])
        Traceback (most recent call last):
        ...
        isles.models.errors.InvalidInput: roll: 'black' is invalid; expected a face of die 2: ...
        """
        if len(faces) != 2:
            raise InvalidInput(field, list(faces), "two faces, one per die, e.g. boat,red")
        for k, (face, die) in enumerate(zip(faces, kit.dice, strict=True)):
            if face not in die:
                raise InvalidInput(field, face, f"a face of die {k + 1}: {', '.join(die)}")
        boat = BOAT in faces
        colours = tuple(sorted(f for f in faces if f != BOAT))
        probability = next(
            r.probability for r in roll_outcomes(kit) if (r.boat, r.colours) == (boat, colours)
        )
        return cls(boat, colours, probability)

    def to_dict(self) -> dict[str, Any]:
        """``{"boat": bool, "colours": [...], "probability": float, "probability_exact": "p/q"}``.

        Examples
        --------
        >>> Roll.from_faces(default_kit(), ("boat", "boat")).to_dict()["probability_exact"]
        '1/36'
        """
        return {
            "boat": self.boat,
            "colours": list(self.colours),
            **probability_json("probability", self.probability),
        }


def roll_outcomes(kit: Kit) -> tuple[Roll, ...]:
    """The distinct roll outcomes of the two dice with their exact probabilities.

    Parameters
    ----------
    kit : Kit

    Returns
    -------
    tuple of Roll
        Sorted by (boat, colours); the probabilities sum to 1.

    Examples
    --------
    >>> rolls = roll_outcomes(default_kit())
    >>> len(rolls), sum(r.probability for r in rolls)
    (21, Fraction(1, 1))
    >>> next(r.probability for r in rolls if r.colours == ())
    Fraction(1, 36)
    """
    weight = Fraction(1, len(kit.dice[0]) * len(kit.dice[1]))
    acc: dict[tuple[bool, tuple[str, ...]], Fraction] = {}
    for f1, f2 in product(*kit.dice):
        key = (BOAT in (f1, f2), tuple(sorted(f for f in (f1, f2) if f != BOAT)))
        acc[key] = acc.get(key, Fraction(0)) + weight
    return tuple(Roll(b, c, p) for (b, c), p in sorted(acc.items()))


@dataclass(frozen=True)
class Decision:
    """What the players choose after a roll.

    Parameters
    ----------
    placements : tuple of (str, int or None)
        The colour discs in the order they are handled, each with the index (in
        ``kit.islands``) of the lighthouse that takes it, or None when no
        lighthouse could take it (it goes back and Maurice walks).
    bonus : (str, int) or None
        The (colour, island index) of Maurice's bonus disc, or None when his
        walk earns none.

    Examples
    --------
    >>> Decision((("red", None), ("blue", 0)), ("red", 0)).returned
    1
    """

    placements: tuple[tuple[str, int | None], ...]
    bonus: tuple[str, int] | None = None

    @property
    def returned(self) -> int:
        """Discs that went back to the supply (Maurice's steps)."""
        return sum(1 for _, i in self.placements if i is None)

    def to_dict(self) -> dict[str, Any]:
        """``{"placements": [[colour, island or null], ...], "bonus": [colour, island] or null}``.

        Islands are indices in ``kit.islands`` (0 is Maurice's island).

        Examples
        --------
        >>> Decision((("red", None), ("blue", 0)), ("red", 0)).to_dict()
        {'placements': [['red', None], ['blue', 0]], 'bonus': ['red', 0]}
        """
        return {
            "placements": [[c, i] for c, i in self.placements],
            "bonus": None if self.bonus is None else list(self.bonus),
        }


def _orders(colours: tuple[str, ...]) -> list[tuple[str, ...]]:
    if len(colours) == 2 and colours[0] != colours[1]:
        return [colours, (colours[1], colours[0])]
    return [colours]


def _place_all(
    kit: Kit, stacks: tuple[tuple[str, ...], ...], order: tuple[str, ...]
) -> Iterator[tuple[tuple[tuple[str, int | None], ...], tuple[tuple[str, ...], ...]]]:
    if not order:
        yield (), stacks
        return
    colour, rest = order[0], order[1:]
    takers = [i for i, isl in enumerate(kit.islands) if can_take(isl, stacks[i], colour)]
    if not takers:
        for tail, final in _place_all(kit, stacks, rest):
            yield ((colour, None), *tail), final
        return
    for i in takers:
        placed = (*stacks[:i], (*stacks[i], colour), *stacks[i + 1 :])
        for tail, final in _place_all(kit, placed, rest):
            yield ((colour, i), *tail), final


def bonus_options(kit: Kit, stacks: Sequence[Sequence[str]]) -> list[tuple[str, int]]:
    """Every (colour, island) the bonus disc may go to, in island then colour order.

    Parameters
    ----------
    kit : Kit
    stacks : sequence of sequence of str
        The discs on each lighthouse.

    Returns
    -------
    list of (str, int)

    Examples
    --------
    >>> bonus_options(default_kit(2), [("red",), ("green", "orange", "green", "orange")])
    [('blue', 0)]
    """
    return [
        (colour, i)
        for i, isl in enumerate(kit.islands)
        for colour in isl
        if can_take(isl, stacks[i], colour)
    ]


def legal_decisions(kit: Kit, position: Position, roll: Roll) -> tuple[Decision, ...]:
    """Every legal decision for ``roll`` in ``position`` (docs/lighthouse.md, "Discs", "Maurice").

    Orders of two different discs are both listed; a disc no lighthouse can take
    at its turn is returned; when Maurice's walk reaches or passes his island and
    some lighthouse can take a disc, every (colour, island) bonus is listed (the
    analysis always takes the bonus). The boat does not change what is legal.

    Parameters
    ----------
    kit : Kit
    position : Position
    roll : Roll

    Returns
    -------
    tuple of Decision
        Without repeats, in the order the choices are made.

    Examples
    --------
    >>> kit = default_kit(2)
    >>> roll = Roll(False, ("blue", "red"), Fraction(1, 18))
    >>> len(legal_decisions(kit, Position.start(kit), roll))
    2
    """
    n = len(kit.islands)
    out: dict[Decision, None] = {}
    for order in _orders(roll.colours):
        for placements, stacks in _place_all(kit, position.discs, order):
            returned = sum(1 for _, i in placements if i is None)
            options = bonus_options(kit, stacks) if position.maurice + returned >= n else []
            if options:
                for bonus in options:
                    out.setdefault(Decision(placements, bonus), None)
            else:
                out.setdefault(Decision(placements, None), None)
    return tuple(out)


class Outcome(StrEnum):
    """How a turn ends: ``playing``, ``won`` or ``lost``.

    Examples
    --------
    >>> Outcome("won") is Outcome.WON
    True
    """

    PLAYING = "playing"
    WON = "won"
    LOST = "lost"


@dataclass(frozen=True)
class TurnResult:
    """The position after a turn and whether the game is over.

    Parameters
    ----------
    position : Position
        After the turn (the boat stays on the last card when the game is lost).
    outcome : Outcome

    Examples
    --------
    >>> kit = default_kit(1, 1)
    >>> res = play_turn(kit, Position.start(kit), Roll(True, (), Fraction(1, 36)), Decision(()))
    >>> res.outcome, res.position.boat
    (<Outcome.PLAYING: 'playing'>, 1)
    """

    position: Position
    outcome: Outcome


def boat_lands(kit: Kit, position: Position, roll: Roll) -> bool:
    """Whether ``roll`` lands the boat on Maurice's island: the game is lost at once.

    The boat is on the last sea card and a die shows the boat; the turn ends
    before any disc is laid, whatever the colour die would have given
    (docs/lighthouse.md, "How we read the rules": turn order).

    Parameters
    ----------
    kit : Kit
    position : Position
    roll : Roll

    Returns
    -------
    bool

    Examples
    --------
    >>> kit = default_kit(1, sea_cards=1)
    >>> boat_roll = Roll(True, ("blue",), Fraction(1, 18))
    >>> boat_lands(kit, Position(((),), boat=1), boat_roll)
    True
    >>> boat_lands(kit, Position(((),), boat=0), boat_roll)
    False
    """
    return roll.boat and position.boat >= kit.sea_cards


def play_turn(
    kit: Kit, position: Position, roll: Roll, decision: Decision, *, check: bool = True
) -> TurnResult:
    """Play one turn: boat first (loss at once), then discs, Maurice, the bonus, the win check.

    Implements docs/lighthouse.md, "How we read the rules".

    Parameters
    ----------
    kit : Kit
    position : Position
    roll : Roll
    decision : Decision
        One of ``legal_decisions(kit, position, roll)``.
    check : bool
        ``False`` skips the legality check (for callers that took ``decision``
        from :func:`legal_decisions` themselves).

    Returns
    -------
    TurnResult

    Raises
    ------
    InvalidInput
        ``decision`` is not among ``legal_decisions(kit, position, roll)``.

    Examples
    --------
    >>> kit = default_kit(1, sea_cards=1)
    >>> pos = Position((("red", "blue", "red"),), boat=1)
    >>> play_turn(kit, pos, Roll(True, ("blue",), Fraction(1, 18)),
    ...           Decision((("blue", 0),))).outcome
    <Outcome.LOST: 'lost'>
    """
    if check and decision not in legal_decisions(kit, position, roll):
        raise InvalidInput("decision", decision, "one of the legal decisions for this roll")
    if boat_lands(kit, position, roll):
        return TurnResult(Position(position.discs, kit.sea_cards, position.maurice), Outcome.LOST)
    boat = position.boat + (1 if roll.boat else 0)
    stacks = [list(s) for s in position.discs]
    for colour, i in decision.placements:
        if i is not None:
            stacks[i].append(colour)
    if decision.bonus is not None:
        stacks[decision.bonus[1]].append(decision.bonus[0])
    maurice = (position.maurice + decision.returned) % len(kit.islands)
    after = Position(tuple(tuple(s) for s in stacks), boat, maurice)
    return TurnResult(after, Outcome.WON if after.is_won() else Outcome.PLAYING)
