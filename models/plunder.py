"""Plunder: who holds which island, marker and trap, from the yes/no answers.

Implements RULES.md section 3 (seed 003_cfc377110defcf34.txt): codes, clues,
answers, the game record and its JSON format, crew cards and the scoring.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any

from isles.models.errors import InvalidInput
from isles.models.jsonio import load_json, parse_json

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
    "consistent_with",
    "dig_points",
    "example_record",
    "score_game",
    "treasure_left",
]

VALUES = 6
"""Values per category (indices 0..5)."""
COPIES = 3
"""Copies of each value in a clue deck (18 cards per deck, 54 in all)."""
MIN_PLAYERS = 2
MAX_PLAYERS = 6
CODES = VALUES**3
"""Number of distinct codes (216)."""


class Category(StrEnum):
    """The three card categories, in the order of a code."""

    ISLAND = "island"
    MARKER = "marker"
    TRAP = "trap"


CATEGORIES: tuple[Category, ...] = (Category.ISLAND, Category.MARKER, Category.TRAP)


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
        Value indices in 0..5.

    Raises
    ------
    InvalidInput
        A value outside 0..5.

    Examples
    --------
    >>> Code(2, 5, 0).index
    102
    >>> Code.from_index(102)
    Code(island=2, marker=5, trap=0)
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
        """Inverse of :attr:`index`."""
        if not 0 <= index < CODES:
            raise InvalidInput("code index", index, f"an integer in 0..{CODES - 1}")
        return cls(index // (VALUES * VALUES), index // VALUES % VALUES, index % VALUES)

    def value(self, category: Category) -> int:
        """The value of one category."""
        return int(getattr(self, category.value))

    def replace(self, category: Category, value: int) -> Code:
        """This combination with one category's card replaced (a flip)."""
        vals = dict(zip(CATEGORIES, self.values, strict=True))
        vals[category] = value
        return Code(*(vals[c] for c in CATEGORIES))


Clue = Code
"""A clue is a combination of one card per category, the same shape as a code."""


def answer(code: Code, clue: Code) -> bool:
    """The truthful answer of a player holding ``code`` to ``clue``.

    Yes when at least one of the three shown cards is one of the player's own
    three (same category, same value); RULES.md section 3.

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
    """Display names of the six values of each category (optional)."""

    island: tuple[str, ...]
    marker: tuple[str, ...]
    trap: tuple[str, ...]

    def __post_init__(self) -> None:
        for cat in CATEGORIES:
            names = self.of(cat)
            if len(names) != VALUES or len(set(names)) != VALUES:
                raise InvalidInput(f"names.{cat.value}", list(names), "six distinct names")

    def of(self, category: Category) -> tuple[str, ...]:
        """The six names of one category."""
        names: tuple[str, ...] = getattr(self, category.value)
        return names


@dataclass(frozen=True)
class Observation:
    """One turn: the active player, the clue shown and the others' answers.

    ``answers`` maps every player except the active one to their yes (True) /
    no (False); completeness is checked by :class:`Record`.
    """

    active: int
    clue: Code
    answers: Mapping[int, bool]

    def __post_init__(self) -> None:
        object.__setattr__(self, "answers", MappingProxyType(dict(sorted(self.answers.items()))))

    def __hash__(self) -> int:
        return hash((self.active, self.clue, tuple(self.answers.items())))


@dataclass(frozen=True)
class Me:
    """The player the record is written by, and their own code."""

    player: int
    code: Code


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
    seen : tuple of three tuples of six ints
        Per category (island, marker, trap), how many cards of each value have
        already left the clue deck (0..3); used for flip advice only.

    Raises
    ------
    InvalidInput
        A player index out of range, the active player answering, a missing
        answer, or "me" contradicting its own answers; the message names the
        observation (``observations[i]...``).

    Examples
    --------
    >>> r = Record(3, (Observation(0, Code(1, 2, 3), {1: True, 2: False}),))
    >>> r.observations[0].answers[1]
    True
    """

    players: int
    observations: tuple[Observation, ...] = ()
    me: Me | None = None
    names: Names | None = None
    seen: tuple[tuple[int, ...], ...] = field(default=((0,) * VALUES,) * 3)

    def __post_init__(self) -> None:
        n = self.players
        if isinstance(n, bool) or not isinstance(n, int) or not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise InvalidInput("players", n, f"an integer in {MIN_PLAYERS}..{MAX_PLAYERS}")
        object.__setattr__(self, "observations", tuple(self.observations))
        if self.me is not None and not 0 <= self.me.player < n:
            raise InvalidInput("me.player", self.me.player, f"a player index in 0..{n - 1}")
        for i, obs in enumerate(self.observations):
            where = f"observations[{i}]"
            if not 0 <= obs.active < n:
                raise InvalidInput(f"{where}.active", obs.active, f"a player index in 0..{n - 1}")
            for p in obs.answers:
                if not 0 <= p < n:
                    raise InvalidInput(f"{where}.answers", p, f"a player index in 0..{n - 1}")
            if obs.active in obs.answers:
                raise InvalidInput(
                    f"{where}.answers", obs.active, "no answer from the active player"
                )
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
        seen = tuple(tuple(row) for row in self.seen)
        if len(seen) != len(CATEGORIES) or any(len(row) != VALUES for row in seen):
            raise InvalidInput("seen", seen, "three rows of six counts")
        for cat, row in zip(CATEGORIES, seen, strict=True):
            for v, k in enumerate(row):
                if not 0 <= k <= COPIES:
                    raise InvalidInput(f"seen.{cat.value}[{v}]", k, f"a count in 0..{COPIES}")
        object.__setattr__(self, "seen", seen)

    # -- JSON ---------------------------------------------------------------

    def value_name(self, category: Category, value: int) -> str:
        """The display name of a value (its index when no names are given)."""
        return self.names.of(category)[value] if self.names else str(value)

    def to_dict(self) -> dict[str, Any]:
        """The JSON record format (values as indices)."""
        out: dict[str, Any] = {"players": self.players}
        if self.names is not None:
            out["names"] = {c.value: list(self.names.of(c)) for c in CATEGORIES}
        if self.me is not None:
            out["me"] = {"player": self.me.player, "code": _code_dict(self.me.code)}
        out["observations"] = [
            {
                "active": o.active,
                "clue": _code_dict(o.clue),
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
    def from_dict(cls, data: object, source: str = "record") -> Record:
        """Build a record from the JSON format of docs/plunder.md.

        Raises
        ------
        InvalidInput
            Any structural or rule error, naming the field.
        """
        if not isinstance(data, dict):
            raise InvalidInput(source, type(data).__name__, 'an object {"players", ...}')
        unknown = set(data) - {"players", "me", "observations", "names", "seen"}
        if unknown:
            raise InvalidInput(
                source, sorted(unknown)[0], "keys players, me, observations, names, seen"
            )
        names = _parse_names(data.get("names"))
        if "players" not in data:
            raise InvalidInput(f"{source}.players", None, "an integer in 2..6")
        players = data["players"]
        me: Me | None = None
        if data.get("me") is not None:
            m = data["me"]
            if not isinstance(m, dict) or set(m) != {"player", "code"}:
                raise InvalidInput("me", m, 'an object {"player": int, "code": {...}}')
            me = Me(
                _parse_int("me.player", m["player"]), code_from_json("me.code", m["code"], names)
            )
        raw_obs = data.get("observations", [])
        if not isinstance(raw_obs, list):
            raise InvalidInput("observations", raw_obs, "a list")
        observations = []
        for i, o in enumerate(raw_obs):
            where = f"observations[{i}]"
            if not isinstance(o, dict) or set(o) != {"active", "clue", "answers"}:
                raise InvalidInput(where, o, 'an object {"active", "clue", "answers"}')
            answers_raw = o["answers"]
            if not isinstance(answers_raw, dict):
                raise InvalidInput(f"{where}.answers", answers_raw, 'an object {"<player>": bool}')
            answers: dict[int, bool] = {}
            for key, val in answers_raw.items():
                try:
                    p = int(key)
                except ValueError:
                    raise InvalidInput(f"{where}.answers", key, "a player index") from None
                if not isinstance(val, bool):
                    raise InvalidInput(f"{where}.answers.{key}", val, "true or false")
                answers[p] = val
            observations.append(
                Observation(
                    _parse_int(f"{where}.active", o["active"]),
                    code_from_json(f"{where}.clue", o["clue"], names),
                    answers,
                )
            )
        seen = _parse_seen(data.get("seen"), names)
        return cls(players, tuple(observations), me, names, seen)

    @classmethod
    def from_json(cls, text: str, source: str = "record") -> Record:
        """Parse a JSON string (errors as :meth:`from_dict`)."""
        return cls.from_dict(parse_json(text, source), source)

    @classmethod
    def load(cls, path: str | Path) -> Record:
        """Read a record JSON file; unreadable files raise InvalidInput too."""
        return cls.from_dict(load_json(path, "record file"), str(path))


def _code_dict(code: Code) -> dict[str, int]:
    return {"island": code.island, "marker": code.marker, "trap": code.trap}


def _parse_int(where: str, v: object) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise InvalidInput(where, v, "an integer")
    return v


def _parse_value(where: str, v: object, names: Names | None, cat: Category) -> int:
    if isinstance(v, str):
        if names is None:
            raise InvalidInput(where, v, 'a value index 0..5 (names need a "names" map)')
        if v not in names.of(cat):
            raise InvalidInput(where, v, f"one of {', '.join(names.of(cat))}")
        return names.of(cat).index(v)
    return _check_value(where, v)


def code_from_json(where: str, c: object, names: Names | None = None) -> Code:
    """A code from its JSON object ``{"island", "marker", "trap"}`` (indices or names).

    Raises
    ------
    InvalidInput
        A missing key, a value outside 0..5, or an unknown name (named by ``where``).

    Examples
    --------
    >>> code_from_json("clue", {"island": 1, "marker": 2, "trap": 3})
    Code(island=1, marker=2, trap=3)
    """
    if not isinstance(c, dict) or set(c) != {"island", "marker", "trap"}:
        raise InvalidInput(where, c, 'an object {"island", "marker", "trap"}')
    return Code(
        *(_parse_value(f"{where}.{cat.value}", c[cat.value], names, cat) for cat in CATEGORIES)
    )


def _parse_names(raw: object) -> Names | None:
    if raw is None:
        return None
    if not isinstance(raw, dict) or set(raw) != {"island", "marker", "trap"}:
        raise InvalidInput("names", raw, 'an object {"island": [6 names], "marker", "trap"}')
    rows: list[tuple[str, ...]] = []
    for cat in CATEGORIES:
        row = raw[cat.value]
        if not isinstance(row, list) or not all(isinstance(s, str) for s in row):
            raise InvalidInput(f"names.{cat.value}", row, "a list of six strings")
        rows.append(tuple(row))
    return Names(*rows)


def _parse_seen(raw: object, names: Names | None) -> tuple[tuple[int, ...], ...]:
    counts = [[0] * VALUES for _ in CATEGORIES]
    if raw is None:
        return tuple(tuple(r) for r in counts)
    if not isinstance(raw, dict) or not set(raw) <= {c.value for c in CATEGORIES}:
        raise InvalidInput("seen", raw, 'an object {"island": [values], "marker", "trap"}')
    for k, cat in enumerate(CATEGORIES):
        vals = raw.get(cat.value, [])
        if not isinstance(vals, list):
            raise InvalidInput(f"seen.{cat.value}", vals, "a list of values")
        for j, v in enumerate(vals):
            counts[k][_parse_value(f"seen.{cat.value}[{j}]", v, names, cat)] += 1
    return tuple(tuple(r) for r in counts)


def example_record() -> Record:
    """The embedded example: 4 players, my code known, 7 turns (models/data).

    Examples
    --------
    >>> example_record().players
    4
    """
    text = resources.files("isles.models").joinpath("data/plunder_example.json").read_text("utf-8")
    return Record.from_json(text, source="plunder_example.json")


# -- deals --------------------------------------------------------------------


def check_deal(players: int, codes: Sequence[Code]) -> None:
    """Raise InvalidInput unless ``codes`` is a legal deal (distinct per category).

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

    Examples
    --------
    >>> [dig_points(k) for k in range(5)]
    [3, 2, 1, 0, 0]
    """
    return _DIG_POINTS[earlier_digs] if earlier_digs < len(_DIG_POINTS) else 0


def treasure_left(digs: int) -> int:
    """What a treasure is worth to its owner after ``digs`` correct digs (6, 3, 1, 0).

    Examples
    --------
    >>> [treasure_left(k) for k in range(5)]
    [6, 3, 1, 0, 0]
    """
    return _TREASURE[min(digs, len(_TREASURE) - 1)]


@dataclass(frozen=True)
class CrewCard:
    """A crew card in the chest: ``proposer`` guesses that ``target`` holds ``code``."""

    proposer: int
    target: int
    code: Code


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
    """

    treasure: tuple[int, ...]
    dug: tuple[int, ...]
    total: tuple[int, ...]
    counted: tuple[bool, ...]
    first_dig: tuple[int | None, ...]
    winners: tuple[int, ...]


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
    RULES.md section 3: only a player's first crew card on a target counts; a
    correct guess is worth 3, 2, 1, then 0 points by order of correct digs; the
    treasure falls 6 -> 3 -> 1 -> 0. Ties go to the first digger.

    Examples
    --------
    >>> deal = [Code(0, 0, 0), Code(1, 1, 1), Code(2, 2, 2)]
    >>> s = score_game(deal, [CrewCard(0, 1, Code(1, 1, 1)), CrewCard(2, 1, Code(1, 1, 1))])
    >>> s.total, s.winners
    ((9, 1, 8), (0,))
    """
    n = len(codes)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise InvalidInput("codes", n, f"one code per player, {MIN_PLAYERS}..{MAX_PLAYERS}")
    check_deal(n, codes)
    digs = [0] * n
    dug = [0] * n
    used = [0] * n
    first_dig: list[int | None] = [None] * n
    played: set[tuple[int, int]] = set()
    counted: list[bool] = []
    for k, card in enumerate(chest):
        where = f"chest[{k}]"
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
