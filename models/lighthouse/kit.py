"""Lighthouses: the kit on the table (islands, dice, sea cards), the default kit and the named kits.

Implements docs/lighthouse.md ("The game", "Default kit", "Named kits", "Formats";
seed 000_aeb701e368f40145.txt): the kit file format, the box's default kit and the
registry of built-in kits, the real game as the box deals it to 2, 3 or 4 players.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from isles.models.errors import InvalidInput
from isles.models.jsonio import load_json, read_int, read_list, read_object, read_str

__all__ = [
    "BOAT",
    "DEFAULT_COLOURS",
    "DEFAULT_ISLANDS",
    "DEFAULT_KIT",
    "DISCS_PER_LIGHTHOUSE",
    "KITS",
    "MAX_DEFAULT_ISLANDS",
    "MAX_FACES",
    "MAX_ISLANDS",
    "MAX_SEA_CARDS",
    "PLAYER_ISLANDS",
    "Kit",
    "NamedKit",
    "default_kit",
    "islands_in_play",
    "named_kit",
    "players_kit",
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
