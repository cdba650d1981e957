"""Plunder: who holds which island, marker and trap, from the yes/no answers.

Implements docs/plunder.md ("The game", "The record format", rule decision 8) for
seed ``seeds/003_cfc377110defcf34.txt``: codes, clues, answers, the game record
and its JSON format, crew cards and the scoring.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any

from isles.models.errors import InvalidInput, not_whole
from isles.models.jsonio import (
    load_json,
    parse_json,
    read_bool,
    read_int,
    read_list,
    read_object,
    read_str,
)
from isles.models.status import Status

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
    "CrewCard",
    "GameScore",
    "Me",
    "Names",
    "Observation",
    "Record",
    "answer",
    "check_deal",
    "code_from_json",
    "code_from_text",
    "consistent_with",
    "dig_points",
    "example_record",
    "score_game",
    "score_range",
    "treasure_left",
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


def _is_int(value: object) -> bool:
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
        if not _is_int(index) or not 0 <= index < CODES:
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


@dataclass(frozen=True)
class Observation:
    """One turn: the active player, the clue shown and the others' answers.

    Parameters
    ----------
    active : int
        The active player (who shows the clue and does not answer).
    clue : Code
        The combination on the table after any flip.
    answers : mapping of int to bool
        Every other player's yes (``True``) or no (``False``). Completeness
        and the range of the player indices are checked by :class:`Record`,
        which knows the number of players.

    Raises
    ------
    InvalidInput
        ``active`` or an answering player that is not an integer, a ``clue``
        that is not a :class:`Code`, or an answer that is not a ``bool``
        (``"no"``, ``0`` and ``1`` are refused, never guessed).

    Examples
    --------
    >>> Observation(0, Code(1, 2, 3), {2: False, 1: True}).answers
    mappingproxy({1: True, 2: False})
    >>> Observation(0, Code(1, 2, 3), {1: "no", 2: False})
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: observation.answers.1: 'no' is invalid; expected True or False
    """

    active: int
    clue: Code
    answers: Mapping[int, bool]

    def __post_init__(self) -> None:
        if not _is_int(self.active) or self.active < 0:
            raise InvalidInput(
                "observation.active", self.active, "a player index (an integer >= 0)"
            )
        if not isinstance(self.clue, Code):
            raise InvalidInput("observation.clue", self.clue, "a Code")
        if not isinstance(self.answers, Mapping):
            raise InvalidInput(
                "observation.answers", self.answers, "a mapping of player index to True/False"
            )
        for p, a in self.answers.items():
            if not _is_int(p):
                raise InvalidInput("observation.answers", p, "player indices (integers) as keys")
            if not isinstance(a, bool):
                raise InvalidInput(f"observation.answers.{p}", a, "True or False")
        object.__setattr__(self, "answers", MappingProxyType(dict(sorted(self.answers.items()))))

    def __hash__(self) -> int:
        return hash((self.active, self.clue, tuple(self.answers.items())))


@dataclass(frozen=True)
class Me:
    """The player the record is written by, and their own code.

    Parameters
    ----------
    player : int
        My player index (its range is checked by :class:`Record`).
    code : Code
        My own code.

    Raises
    ------
    InvalidInput
        A player that is not an integer or a code that is not a :class:`Code`.

    Examples
    --------
    >>> Me(0, Code(3, 2, 2)).code.values
    (3, 2, 2)
    """

    player: int
    code: Code

    def __post_init__(self) -> None:
        if not _is_int(self.player):
            raise InvalidInput("me.player", self.player, "a player index (an integer)")
        if not isinstance(self.code, Code):
            raise InvalidInput("me.code", self.code, "a Code")


_NO_SEEN: tuple[tuple[int, ...], ...] = ((0,) * VALUES,) * 3


@dataclass(frozen=True)
class Record:
    """What a player at the table has seen: the deduction puzzle.

    Parameters
    ----------
    players : int
        Number of players, 2..6.
    observations : sequence of Observation
        The turns, in order.
    me : Me or None
        My player index and my code, when known.
    names : Names or None
        Display names of the values.
    seen : three sequences of six ints
        Per category (island, marker, trap), how many cards of each value have
        already left the clue deck (0..3); used for flip advice only.

    Raises
    ------
    InvalidInput
        A field of the wrong type, a player index out of range, the active
        player answering, a missing answer, or ``me`` contradicting its own
        answers; the message names the field (``record.observations[i]...``).

    See Also
    --------
    Record.from_dict, Record.load : read the JSON record format (docs/plunder.md).

    Examples
    --------
    >>> r = Record(3, (Observation(0, Code(1, 2, 3), {1: True, 2: False}),))
    >>> r.observations[0].answers[1]
    True
    >>> Record(3, (Observation(0, Code(1, 2, 3), {1: True}),))
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: record.observations[0].answers: ... from player 2
    """

    players: int
    observations: tuple[Observation, ...] = ()
    me: Me | None = None
    names: Names | None = None
    seen: tuple[tuple[int, ...], ...] = field(default=_NO_SEEN)

    def __post_init__(self) -> None:
        n = self.players
        if not _is_int(n) or not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise InvalidInput(
                "record.players",
                n,
                f"an integer in {MIN_PLAYERS}..{MAX_PLAYERS}",
                problem=not_whole(n),
            )
        if isinstance(self.observations, str | bytes | Mapping) or not isinstance(
            self.observations, Iterable
        ):
            raise InvalidInput(
                "record.observations", self.observations, "a sequence of Observation"
            )
        object.__setattr__(self, "observations", tuple(self.observations))
        if self.me is not None and not isinstance(self.me, Me):
            raise InvalidInput("record.me", self.me, "a Me or None")
        if self.names is not None and not isinstance(self.names, Names):
            raise InvalidInput("record.names", self.names, "a Names or None")
        if self.me is not None and not 0 <= self.me.player < n:
            raise InvalidInput("record.me.player", self.me.player, f"a player index in 0..{n - 1}")
        for i, obs in enumerate(self.observations):
            self._check_observation(f"record.observations[{i}]", obs)
        object.__setattr__(self, "seen", _check_seen(self.seen))

    def _check_observation(self, where: str, obs: object) -> None:
        n = self.players
        if not isinstance(obs, Observation):
            raise InvalidInput(where, obs, "an Observation")
        if not 0 <= obs.active < n:
            raise InvalidInput(f"{where}.active", obs.active, f"a player index in 0..{n - 1}")
        for p in obs.answers:
            if not 0 <= p < n:
                raise InvalidInput(f"{where}.answers", p, f"a player index in 0..{n - 1}")
        if obs.active in obs.answers:
            raise InvalidInput(f"{where}.answers", obs.active, "no answer from the active player")
        missing = [p for p in range(n) if p != obs.active and p not in obs.answers]
        if missing:
            raise InvalidInput(
                f"{where}.answers", dict(obs.answers), f"an answer from player {missing[0]}"
            )
        if self.me is not None and self.me.player in obs.answers:
            mine = answer(self.me.code, obs.clue)
            if obs.answers[self.me.player] != mine:
                raise InvalidInput(
                    f"{where}.answers.{self.me.player}",
                    obs.answers[self.me.player],
                    f"{mine} (my own code {self.me.code.values} answers {mine})",
                )

    def value_name(self, category: Category, value: int) -> str:
        """The display name of a value (its index when no names are given).

        >>> example_record().value_name(Category.TRAP, 5), Record(2).value_name(Category.TRAP, 5)
        ('Powder', '5')
        """
        return self.names.of(category)[value] if self.names else str(value)

    def code_text(self, code: Code) -> str:
        """A code by display names, ``island/marker/trap``.

        >>> example_record().code_text(Code(3, 2, 2))
        'Volcano/Compass/Boulder'
        """
        return "/".join(self.value_name(c, code.value(c)) for c in CATEGORIES)

    # -- JSON ---------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The JSON record format of docs/plunder.md (values as indices).

        Optional keys are left out when they hold their default, so that
        ``Record.from_dict(r.to_dict()) == r``.

        Returns
        -------
        dict

        Examples
        --------
        >>> Record(2, (Observation(0, Code(1, 2, 3), {1: True}),)).to_dict()
        {'players': 2, 'observations': [{'active': 0, 'clue': {'island': 1, 'marker': 2, \
'trap': 3}, 'answers': {'1': True}}]}
        """
        out: dict[str, Any] = {"players": self.players}
        if self.names is not None:
            out["names"] = {c.value: list(self.names.of(c)) for c in CATEGORIES}
        if self.me is not None:
            out["me"] = {"player": self.me.player, "code": self.me.code.to_dict()}
        out["observations"] = [
            {
                "active": o.active,
                "clue": o.clue.to_dict(),
                "answers": {str(p): a for p, a in o.answers.items()},
            }
            for o in self.observations
        ]
        if any(any(row) for row in self.seen):
            out["seen"] = {
                c.value: [v for v in range(VALUES) for _ in range(row[v])]
                for c, row in zip(CATEGORIES, self.seen, strict=True)
            }
        return out

    @classmethod
    def from_dict(cls, data: object) -> Record:
        """Build a record from the JSON record format of docs/plunder.md.

        Parameters
        ----------
        data : object
            The parsed JSON value: an object with the required key ``players``
            and the optional keys ``names``, ``me``, ``observations`` and
            ``seen`` (``null`` or absent: no names, no code known, no turns,
            no card seen).

        Returns
        -------
        Record

        Raises
        ------
        InvalidInput
            Any structural or rule error, naming the field
            (``record.observations[3].answers.2``): unknown or missing keys,
            a yes/no that is not ``true``/``false``, an integer that is a
            bool or a float, a player key that is not a player index written
            in decimal (``"01"`` is refused: each answer is given once,
            whatever the spelling).

        Examples
        --------
        >>> obs = {"active": 0, "clue": {"island": 1, "marker": 2, "trap": 3},
        ...        "answers": {"1": True, "01": False}}
        >>> Record.from_dict({"players": 2, "observations": [obs]})
        Traceback (most recent call last):
        ...
        isles.models.errors.InvalidInput: record.observations[0].answers: '01' is invalid; ...
        """
        obj = read_object(data, "record", ["players"], ["names", "me", "observations", "seen"])
        players = read_int(obj["players"], "record.players", MIN_PLAYERS, MAX_PLAYERS)
        names = None if obj.get("names") is None else _names_from_json(obj["names"])
        me: Me | None = None
        if obj.get("me") is not None:
            m = read_object(obj["me"], "record.me", ["player", "code"])
            me = Me(
                read_int(m["player"], "record.me.player", 0, players - 1),
                code_from_json("record.me.code", m["code"], names),
            )
        raw_obs = [] if obj.get("observations") is None else obj["observations"]
        observations = [
            _observation_from_json(f"record.observations[{i}]", o, players, names)
            for i, o in enumerate(read_list(raw_obs, "record.observations"))
        ]
        seen = _seen_from_json(obj.get("seen"), names)
        return cls(players, tuple(observations), me, names, seen)

    @classmethod
    def from_json(cls, text: str, source: str = "record") -> Record:
        """Parse JSON text in the record format (errors as :meth:`from_dict`).

        Parameters
        ----------
        text : str
            The JSON text.
        source : str
            What the text is, for JSON syntax errors (a file name).

        Returns
        -------
        Record

        Raises
        ------
        InvalidInput
            Invalid JSON (naming ``source``, the line and the column) or any
            error of :meth:`from_dict`.

        Examples
        --------
        >>> Record.from_json('{"players": 3}').players
        3
        """
        return cls.from_dict(parse_json(text, source))

    @classmethod
    def load(cls, path: str | Path) -> Record:
        """Read a record file; ``"-"`` reads standard input.

        Parameters
        ----------
        path : str or Path
            The JSON file, or ``"-"`` for standard input.

        Returns
        -------
        Record

        Raises
        ------
        InvalidInput
            An unreadable file (naming the file), invalid JSON, or any error
            of :meth:`from_dict`.

        Examples
        --------
        >>> Record.load("/nonexistent.json")
        Traceback (most recent call last):
        ...
        isles.models.errors.InvalidInput: record file: '/nonexistent.json' is invalid; ...
        """
        return cls.from_dict(load_json(path, "record file"))


def _check_seen(raw: object) -> tuple[tuple[int, ...], ...]:
    """``seen`` as three rows of six counts in 0..COPIES, or InvalidInput."""
    shape = f"three rows (island, marker, trap) of six counts in 0..{COPIES}"
    if isinstance(raw, str | bytes) or not isinstance(raw, Sequence) or len(raw) != 3:
        raise InvalidInput("record.seen", raw, shape)
    rows = []
    for cat, row in zip(CATEGORIES, raw, strict=True):
        if isinstance(row, str | bytes) or not isinstance(row, Sequence) or len(row) != VALUES:
            raise InvalidInput(f"record.seen.{cat.value}", row, shape)
        for v, k in enumerate(row):
            if not _is_int(k) or not 0 <= k <= COPIES:
                raise InvalidInput(f"record.seen.{cat.value}[{v}]", k, f"a count in 0..{COPIES}")
        rows.append(tuple(row))
    return tuple(rows)


def _observation_from_json(
    where: str, raw: object, players: int, names: Names | None
) -> Observation:
    o = read_object(raw, where, ["active", "clue", "answers"])
    active = read_int(o["active"], f"{where}.active", 0, players - 1)
    clue = code_from_json(f"{where}.clue", o["clue"], names)
    keys = [str(p) for p in range(players)]
    raw_answers = o["answers"]
    if not isinstance(raw_answers, dict):
        raise InvalidInput(f"{where}.answers", raw_answers, 'an object {"<player>": true/false}')
    answers: dict[int, bool] = {}
    for key, val in raw_answers.items():
        # Only the canonical spelling: "1" and "01" would otherwise both be player 1.
        if key not in keys:
            raise InvalidInput(
                f"{where}.answers",
                key,
                "player indices written in decimal without leading zeros: " + ", ".join(keys),
            )
        answers[int(key)] = read_bool(val, f"{where}.answers.{key}")
    return Observation(active, clue, answers)


def _parse_value(where: str, v: object, names: Names | None, cat: Category) -> int:
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
        *(_parse_value(f"{where}.{cat.value}", obj[cat.value], names, cat) for cat in CATEGORIES)
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


def _names_from_json(raw: object) -> Names:
    obj = read_object(raw, "record.names", [cat.value for cat in CATEGORIES])
    rows: list[tuple[str, ...]] = []
    for cat in CATEGORIES:
        where = f"record.names.{cat.value}"
        row = tuple(
            read_str(s, f"{where}[{i}]") for i, s in enumerate(read_list(obj[cat.value], where))
        )
        if len(row) != VALUES or len(set(row)) != VALUES:
            raise InvalidInput(where, list(row), "six distinct names")
        rows.append(row)
    return Names(*rows)


def _seen_from_json(raw: object, names: Names | None) -> tuple[tuple[int, ...], ...]:
    counts = [[0] * VALUES for _ in CATEGORIES]
    if raw is None:
        return tuple(tuple(r) for r in counts)
    obj = read_object(raw, "record.seen", [], [cat.value for cat in CATEGORIES])
    for k, cat in enumerate(CATEGORIES):
        where = f"record.seen.{cat.value}"
        for j, v in enumerate(read_list(obj.get(cat.value, []), where)):
            value = _parse_value(f"{where}[{j}]", v, names, cat)
            counts[k][value] += 1
            if counts[k][value] > COPIES:
                raise InvalidInput(
                    f"{where}[{j}]",
                    v,
                    f"each value at most {COPIES} times (the deck holds {COPIES} copies)",
                    problem=f"{v!r} seen {counts[k][value]} times",
                )
    return tuple(tuple(r) for r in counts)


def example_record() -> Record:
    """The embedded example: 4 players, my code known, 7 turns.

    The file is ``isles/models/data/plunder_example.json`` (the record format
    of docs/plunder.md), with display names.

    Returns
    -------
    Record

    Examples
    --------
    >>> r = example_record()
    >>> r.players, len(r.observations), r.me.player
    (4, 7, 0)
    """
    text = resources.files("isles.models").joinpath("data/plunder_example.json").read_text("utf-8")
    return Record.from_json(text, source="plunder_example.json")


# -- deals --------------------------------------------------------------------


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


def consistent_with(record: Record, codes: Sequence[Code]) -> bool:
    """Whether a legal deal agrees with my code and every answer of the record.

    This is the definition the solvers count; tests enumerate deals with it.

    Parameters
    ----------
    record : Record
        The record.
    codes : sequence of Code
        A legal deal (see :func:`check_deal`), one code per player.

    Returns
    -------
    bool

    Examples
    --------
    >>> r = Record(2, (Observation(0, Code(1, 2, 3), {1: True}),))
    >>> consistent_with(r, [Code(0, 0, 0), Code(1, 1, 1)])
    True
    >>> consistent_with(r, [Code(0, 0, 0), Code(4, 4, 4)])
    False
    """
    if record.me is not None and codes[record.me.player] != record.me.code:
        return False
    return all(
        answer(codes[p], obs.clue) == a
        for obs in record.observations
        for p, a in obs.answers.items()
    )


# -- crew cards and scoring ----------------------------------------------------

_DIG_POINTS = (3, 2, 1)
_TREASURE = (6, 3, 1, 0)


def dig_points(earlier_digs: int) -> int:
    """Points for a correct dig after ``earlier_digs`` correct digs on that treasure.

    Parameters
    ----------
    earlier_digs : int
        Correct digs by others on that treasure before this one.

    Returns
    -------
    int
        3, 2, 1, then 0 (docs/plunder.md, "The game").

    Examples
    --------
    >>> [dig_points(k) for k in range(5)]
    [3, 2, 1, 0, 0]
    """
    return _DIG_POINTS[earlier_digs] if earlier_digs < len(_DIG_POINTS) else 0


def treasure_left(digs: int) -> int:
    """What a treasure is worth to its owner after ``digs`` correct digs (6, 3, 1, 0).

    Parameters
    ----------
    digs : int
        Correct digs on the treasure.

    Returns
    -------
    int

    Examples
    --------
    >>> [treasure_left(k) for k in range(5)]
    [6, 3, 1, 0, 0]
    """
    return _TREASURE[min(digs, len(_TREASURE) - 1)]


def score_range(players: int) -> tuple[int, int]:
    """The lowest and highest total one player can score in a game of ``players``.

    Parameters
    ----------
    players : int
        2..6.

    Returns
    -------
    (int, int)
        Lowest: the treasure after every other player dug it
        (``treasure_left(players - 1)``, nothing dug); highest: the whole
        treasure kept and the first correct dig on every other treasure
        (``treasure_left(0) + (players - 1) * dig_points(0)``).

    Raises
    ------
    InvalidInput
        ``players`` not an integer in MIN_PLAYERS..MAX_PLAYERS.

    Notes
    -----
    docs/plunder.md, "The game" (seed ``seeds/003_cfc377110defcf34.txt``): the
    bounds follow from :func:`treasure_left` and :func:`dig_points`; both are
    reached (a player whose treasure all others dig and who digs nothing; a
    player nobody digs who digs every other treasure first).

    Examples
    --------
    >>> [score_range(n) for n in range(2, 7)]
    [(3, 9), (1, 12), (0, 15), (0, 18), (0, 21)]
    """
    if not _is_int(players) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InvalidInput("players", players, f"an integer in {MIN_PLAYERS}..{MAX_PLAYERS}")
    return treasure_left(players - 1), treasure_left(0) + (players - 1) * dig_points(0)


@dataclass(frozen=True)
class CrewCard:
    """A crew card in the chest: ``proposer`` guesses that ``target`` holds ``code``.

    Parameters
    ----------
    proposer, target : int
        Player indices (their range is checked by :func:`score_game`).
    code : Code
        The guessed code.

    Raises
    ------
    InvalidInput
        A player that is not an integer, or a code that is not a :class:`Code`.

    Examples
    --------
    >>> CrewCard(0, 1, Code(1, 1, 1)).target
    1
    """

    proposer: int
    target: int
    code: Code

    def __post_init__(self) -> None:
        for name in ("proposer", "target"):
            if not _is_int(getattr(self, name)):
                raise InvalidInput(f"crew card.{name}", getattr(self, name), "a player index")
        if not isinstance(self.code, Code):
            raise InvalidInput("crew card.code", self.code, "a Code")


@dataclass(frozen=True)
class GameScore:
    """The scores of a finished game.

    Attributes
    ----------
    treasure : tuple of int
        What remains of each player's own treasure.
    dug : tuple of int
        Points each player dug from others.
    total : tuple of int
        ``treasure + dug`` per player.
    counted : tuple of bool
        Per crew card in chest order: whether it counts (the proposer's first
        card on that target) and was correct.
    first_dig : tuple of int or None
        Per player, the chest position of their first correct dig.
    winners : tuple of int
        The player(s) with the highest total after the tie-break (ties go to
        whoever dug a treasure first; tied players who never dug stay tied).

    Examples
    --------
    >>> s = score_game([Code(0, 0, 0), Code(1, 1, 1)], [CrewCard(0, 1, Code(1, 1, 1))])
    >>> s.treasure, s.dug, s.winners
    ((6, 3), (3, 0), (0,))
    """

    treasure: tuple[int, ...]
    dug: tuple[int, ...]
    total: tuple[int, ...]
    counted: tuple[bool, ...]
    first_dig: tuple[int | None, ...]
    winners: tuple[int, ...]

    @property
    def status(self) -> Status:
        """Always ``exact``: the scores follow from the deal and the chest."""
        return Status.EXACT

    def to_dict(self) -> dict[str, Any]:
        """The scores as JSON (docs/json.md): lists indexed by player, ``null`` for no dig.

        >>> score_game([Code(0, 0, 0), Code(1, 1, 1)], []).to_dict()["total"]
        [6, 6]
        """
        return {
            "status": str(self.status),
            "treasure": list(self.treasure),
            "dug": list(self.dug),
            "total": list(self.total),
            "counted": list(self.counted),
            "first_dig": list(self.first_dig),
            "winners": list(self.winners),
        }


def score_game(codes: Sequence[Code], chest: Iterable[CrewCard]) -> GameScore:
    """Score a finished game from the true codes and the chest, read in order.

    Parameters
    ----------
    codes : sequence of Code
        The true deal, one code per player (2..6 players, distinct per category).
    chest : iterable of CrewCard
        The crew cards in the order they went in.

    Returns
    -------
    GameScore

    Raises
    ------
    InvalidInput
        An illegal deal, a crew card naming a player out of range or its own
        proposer, or a player using more crew cards than there are players.

    Notes
    -----
    docs/plunder.md, "The game" and rule decision 8: only a player's first
    crew card on a target counts; a correct guess is worth 3, 2, 1, then 0
    points by order of correct digs; the treasure falls 6 -> 3 -> 1 -> 0.
    Ties go to the first digger.

    Examples
    --------
    >>> deal = [Code(0, 0, 0), Code(1, 1, 1), Code(2, 2, 2)]
    >>> s = score_game(deal, [CrewCard(0, 1, Code(1, 1, 1)), CrewCard(2, 1, Code(1, 1, 1))])
    >>> s.total, s.winners
    ((9, 1, 8), (0,))
    """
    codes = list(codes)
    n = len(codes)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise InvalidInput("codes", n, f"one code per player, {MIN_PLAYERS}..{MAX_PLAYERS}")
    for p, code in enumerate(codes):
        if not isinstance(code, Code):
            raise InvalidInput(f"codes[{p}]", code, "a Code")
    check_deal(n, codes)
    digs = [0] * n
    dug = [0] * n
    used = [0] * n
    first_dig: list[int | None] = [None] * n
    played: set[tuple[int, int]] = set()
    counted: list[bool] = []
    for k, card in enumerate(chest):
        where = f"chest[{k}]"
        if not isinstance(card, CrewCard):
            raise InvalidInput(where, card, "a CrewCard")
        if not 0 <= card.proposer < n:
            raise InvalidInput(f"{where}.proposer", card.proposer, f"a player in 0..{n - 1}")
        if not 0 <= card.target < n or card.target == card.proposer:
            raise InvalidInput(f"{where}.target", card.target, "another player's index")
        used[card.proposer] += 1
        if used[card.proposer] > n:
            raise InvalidInput(where, card.proposer, f"at most {n} crew cards per player")
        key = (card.proposer, card.target)
        ok = key not in played and codes[card.target] == card.code
        played.add(key)
        counted.append(ok)
        if ok:
            dug[card.proposer] += dig_points(digs[card.target])
            digs[card.target] += 1
            if first_dig[card.proposer] is None:
                first_dig[card.proposer] = k
    treasure = [treasure_left(d) for d in digs]
    total = [t + d for t, d in zip(treasure, dug, strict=True)]
    best = max(total)
    tied = [p for p in range(n) if total[p] == best]
    diggers = [p for p in tied if first_dig[p] is not None]
    winners: tuple[int, ...] = tuple(tied)
    if len(tied) > 1 and diggers:
        winners = (min(diggers, key=lambda p: first_dig[p] or 0),)
    return GameScore(
        tuple(treasure), tuple(dug), tuple(total), tuple(counted), tuple(first_dig), winners
    )
