"""Plunder's record: what a player at the table has seen, checked, and its JSON format.

Implements docs/plunder.md ("The game", "The record format") for seed
``seeds/003_cfc377110defcf34.txt``: one turn's clue and answers, my own code,
the record and its JSON file, the embedded example, and which deals agree with it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
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
from isles.models.plunder.codes import (
    CATEGORIES,
    COPIES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    VALUES,
    Category,
    Code,
    Names,
    answer,
    code_from_json,
    is_int,
    value_from_json,
)

__all__ = ["Me", "Observation", "Record", "check_player", "consistent_with", "example_record"]


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
        if not is_int(self.active) or self.active < 0:
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
            if not is_int(p):
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
        if not is_int(self.player):
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
        if not is_int(n) or not MIN_PLAYERS <= n <= MAX_PLAYERS:
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
            if not is_int(k) or not 0 <= k <= COPIES:
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
            value = value_from_json(f"{where}[{j}]", v, names, cat)
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


def check_player(record: Record, value: object, where: str = "active") -> int:
    """``value`` as a player index of ``record``, or InvalidInput naming ``where``.

    Examples
    --------
    >>> check_player(Record(3), 2)
    2
    >>> check_player(Record(3), 3, "earlier_digs")
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: earlier_digs: 3 is invalid; expected a player index in 0..2
    """
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < record.players:
        raise InvalidInput(where, value, f"a player index in 0..{record.players - 1}")
    return value
