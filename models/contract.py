"""Questions declared once: each field's type, range, default, help and spellings.

Implements docs/json.md ("Questions"). A question (the parameters of one
library call: a route, the odds of a kit, a tournament, ...) is a pydantic
model (strict, frozen, unknown keys refused) whose fields carry everything the
front ends need:

- the library validates a call with :meth:`Question.read`;
- the command line adds one option per field and reads them back
  (``isles.cli_questions``), spelling each field as its option (``--time-limit``);
- the web app reads a request body with the same :meth:`Question.read`, each
  field spelt as its JSON key (``time_limit``).

An error is an :class:`~isles.models.errors.InvalidInput` naming a *field of the
question* (``values.ore``); each front end spells it its own way from the
declaration (:meth:`Question.spell`), so no front end renames fields or cuts
messages apart. Which fields go together is declared too (:class:`OnlyWith`,
:class:`NotWith`, :class:`Requires`; conditions :class:`Given`, :class:`Missing`,
:class:`Is`, :class:`AtLeast`), once, and checked by :meth:`Question.read`.

References
----------
.. [1] pydantic v2, "Strict mode" and "Models" (docs.pydantic.dev): the
   validation library isles declares its questions with.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from enum import Enum
from typing import Annotated, Any, ClassVar, Literal, Self, get_args, get_origin

import annotated_types as at
from pydantic import BaseModel, ConfigDict, Field, PlainValidator, ValidationError
from pydantic.fields import FieldInfo

from isles.models.errors import InvalidInput, json_text, not_whole
from isles.models.hexgrid import Edge, Hex
from isles.models.jsonio import read_edge, read_hex

__all__ = [
    "AnyOf",
    "AtLeast",
    "EdgeValue",
    "Given",
    "HexValue",
    "Is",
    "Missing",
    "NotWith",
    "OnlyWith",
    "Question",
    "Requires",
    "Spelling",
    "param",
    "param_extra",
]

#: How a front end spells a question's field: ``"python"`` (the parameter's
#: name), ``"option"`` (the command line's ``--time-limit``) or ``"key"`` (the
#: web request's JSON key).
Spelling = Literal["python", "option", "key"]

_REQUIRED: Any = ...

#: Whether :meth:`Question.read` is validating (it spells and checks a question itself).
_READING: ContextVar[bool] = ContextVar("isles_question_read", default=False)

#: The field a path starts with (``goals`` of ``goals[1]``, ``values`` of ``values.ore``).
_HEAD = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")


def _hex(value: object) -> Hex:
    return value if isinstance(value, Hex) else read_hex(value, "")


def _edge(value: object) -> Edge:
    if isinstance(value, Edge):
        return value
    return read_edge(list(value) if isinstance(value, tuple) else value, "")


#: A hex field: a :class:`Hex`, or ``(q, r)`` / ``[q, r]`` of integers.
HexValue = Annotated[Hex, PlainValidator(_hex)]
#: An edge field: an :class:`Edge`, or two adjacent hexes.
EdgeValue = Annotated[Edge, PlainValidator(_edge)]


def param(
    default: Any = _REQUIRED,
    *,
    help: str,
    option: str | None = None,
    key: str | None = None,
    metavar: str | None = None,
    expected: str | None = None,
    ge: float | None = None,
    le: float | None = None,
    gt: float | None = None,
    lt: float | None = None,
    repeat: bool = False,
    cli: bool = True,
    text: str | None = None,
    finite: bool = False,
    item: str | None = None,
) -> Any:
    """Declare a question's field: its default, range, help and spellings.

    Parameters
    ----------
    default : object, optional
        The default; omitted, the field is required.
    help : str
        One line for ``--help`` and the web app's forms.
    option : str, optional
        The command line's spelling (default ``--`` and the name with dashes).
    key : str, optional
        The JSON key (default the name).
    metavar : str, optional
        The placeholder in ``--help`` (``Q,R``, ``SEC``).
    expected : str, optional
        What is valid, for errors (default: written from the type and range).
    ge, le, gt, lt : float, optional
        The range.
    repeat : bool
        On the command line, the option is given once per item (a list).
    cli : bool
        Whether the command line has this field as an option (a board read
        from ``--board FILE`` is read by the command itself).
    finite : bool
        A number field refuses ``inf`` and ``nan``.
    item : str, optional
        What is valid for each item the command line reads (each number of
        ``ore=2,wool=1``), for its errors.
    text : str, optional
        The name of the command line's reader of the text typed (``"pairs"``
        for ``ore=2,wool=1``; ``isles.options.NAMED_READERS``); default: by the
        field's type.

    Returns
    -------
    pydantic.fields.FieldInfo
        The field, with isles' spellings in its ``json_schema_extra``.

    Examples
    --------
    >>> from isles.models.contract import Question, param
    >>> class Odds(Question):
    ...     games: int = param(1000, help="games to simulate", ge=1, le=10**6)
    >>> Odds.read({"games": 0})
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: games: 0 is invalid; expected an integer in 1..1000000
    >>> Odds.read({"games": 0}, spelling="option")
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: --games: 0 is invalid; expected an integer in 1..1000000
    """
    extra: dict[str, str | bool | None] = {
        "option": option,
        "key": key,
        "metavar": metavar,
        "expected": expected,
        "repeat": repeat,
        "cli": cli,
        "text": text,
        "item": item,
    }
    info: Any = Field(
        default,
        description=help,
        ge=ge,
        le=le,
        gt=gt,
        lt=lt,
        allow_inf_nan=False if finite else None,
        json_schema_extra={k: v for k, v in extra.items() if v is not None},
    )
    return info


def param_extra(info: FieldInfo) -> dict[str, Any]:
    """What :func:`param` declared beyond pydantic's own: spellings, placeholder, reader."""
    extra = info.json_schema_extra
    return extra if isinstance(extra, dict) else {}


def _limits(info: FieldInfo) -> dict[str, Any]:
    """The field's range: ``{"ge": 1, "le": 10}`` (annotated_types metadata), and
    ``"finite": True`` for a number that refuses infinity and NaN (``param(finite=True)``)."""
    found: dict[str, Any] = {}
    for item in info.metadata:
        for name in ("ge", "le", "gt", "lt"):
            if isinstance(item, getattr(at, name.capitalize())):
                found[name] = getattr(item, name)
        if getattr(item, "allow_inf_nan", None) is False:
            found["finite"] = True
    return found


def _number(x: float) -> str:
    """A bound as every front end reads it back: plain digits (``2147483647``, never
    ``2_147_483_647``, which neither JSON nor the command line takes)."""
    return json_text(x)


def _base(annotation: Any) -> tuple[Any, bool]:
    """The annotation without ``None`` and its validators' wrapping, and whether None is allowed."""
    optional = False
    while True:
        if get_origin(annotation) is Annotated:
            annotation = get_args(annotation)[0]
            continue
        args = get_args(annotation)
        if args and type(None) in args:
            rest = tuple(a for a in args if a is not type(None))
            if len(rest) == 1:
                annotation, optional = rest[0], True
                continue
            return annotation, True
        return annotation, optional


def expected_text(info: FieldInfo) -> str:
    """What is valid for a field, written from its type and range.

    Examples
    --------
    >>> class Kit(Question):
    ...     islands: int = param(8, help="islands", ge=1, le=8)
    >>> expected_text(Kit.model_fields["islands"])
    'an integer in 1..8'
    """
    extra = param_extra(info)
    if extra.get("expected"):
        return str(extra["expected"])
    base, _ = _base(info.annotation)
    text = _type_text(base, _limits(info))
    if text is None:  # a value a validator reads (a board, a kit): its help says what
        return info.description or "a valid value"
    return text


def _type_text(base: Any, limits: Mapping[str, Any]) -> str | None:
    origin = get_origin(base)
    if base is bool:
        return "true or false"
    if base is int:
        if "ge" in limits and "le" in limits:
            return f"an integer in {_number(limits['ge'])}..{_number(limits['le'])}"
        if "ge" in limits:
            return f"an integer >= {_number(limits['ge'])}"
        return "an integer"
    if base is float:
        parts = [f"{op} {_number(limits[k])}" for k, op in _OPS if k in limits]
        kind = "a finite number" if limits.get("finite") else "a number"
        return kind + (" " + " and ".join(parts) if parts else "")
    if origin is Literal:
        return "one of " + ", ".join(str(a) for a in get_args(base))
    if isinstance(base, type) and issubclass(base, Enum):
        return "one of " + ", ".join(str(m.value) for m in base)
    if base is str:
        return "a name" if not limits else "a text"
    return None


_OPS = (("gt", ">"), ("ge", ">="), ("lt", "<"), ("le", "<="))


@dataclass(frozen=True)
class Given:
    """The condition "``name`` was given"."""

    name: str

    def holds(self, question: Question) -> bool:
        """Whether it holds for ``question``."""
        return self.name in question.model_fields_set

    def said(self, spelling: Spelling, spell: Callable[[str], str]) -> str:
        """``with --budget``."""
        return f"with {spell(self.name)}"


@dataclass(frozen=True)
class Missing:
    """The condition "``name`` was not given"."""

    name: str

    def holds(self, question: Question) -> bool:
        """Whether it holds for ``question``."""
        return self.name not in question.model_fields_set

    def said(self, spelling: Spelling, spell: Callable[[str], str]) -> str:
        """``without --start``."""
        return f"without {spell(self.name)}"


@dataclass(frozen=True)
class Is:
    """The condition "``name`` is one of ``values``"."""

    name: str
    values: tuple[Any, ...]

    def holds(self, question: Question) -> bool:
        """Whether it holds for ``question``."""
        return getattr(question, self.name) in self.values

    def said(self, spelling: Spelling, spell: Callable[[str], str]) -> str:
        """``with --objective weighted`` or ``with objective = 'weighted'``; a flag
        (``Is("advise", (True,))``) reads ``with --advise`` on the command line."""
        if spelling == "option" and self.values == (True,):
            return f"with {spell(self.name)}"
        if spelling == "option":
            return f"with {spell(self.name)} " + " or ".join(str(v) for v in self.values)
        shown = json_text if spelling == "key" else repr
        return f"with {spell(self.name)} = " + " or ".join(shown(v) for v in self.values)


@dataclass(frozen=True)
class AtLeast:
    """The condition "``name`` was given, at least ``least``".

    Examples
    --------
    >>> AtLeast("count", 2).said("option", lambda f: "--" + f)
    'with --count of 2 or more'
    """

    name: str
    least: int

    def holds(self, question: Question) -> bool:
        """Whether it holds for ``question``."""
        value = getattr(question, self.name)
        return self.name in question.model_fields_set and value is not None and value >= self.least

    def said(self, spelling: Spelling, spell: Callable[[str], str]) -> str:
        """``with --count of 2 or more`` or ``with count >= 2``."""
        if spelling == "option":
            return f"with {spell(self.name)} of {self.least} or more"
        return f"with {spell(self.name)} >= {self.least}"


Condition = Given | Missing | Is | AtLeast


@dataclass(frozen=True)
class OnlyWith:
    """``field`` may be given only when one of ``conditions`` holds.

    Examples
    --------
    >>> rule = OnlyWith("time_limit", Given("budget"), Missing("start"))
    >>> rule.needs("option", lambda f: "--" + f.replace("_", "-"))
    '--time-limit only with --budget or without --start'
    """

    field: str
    conditions: tuple[Condition, ...]

    def __init__(self, field: str, *conditions: Condition) -> None:
        object.__setattr__(self, "field", field)
        object.__setattr__(self, "conditions", conditions)

    def needs(self, spelling: Spelling, spell: Callable[[str], str]) -> str:
        """What is valid, spelt."""
        said = " or ".join(c.said(spelling, spell) for c in self.conditions)
        return f"{spell(self.field)} only {said}"

    def holds(self, question: Question) -> bool:
        """Whether one of the conditions holds for ``question``."""
        return any(c.holds(question) for c in self.conditions)


@dataclass(frozen=True)
class NotWith:
    """``field`` and ``other`` are not given together."""

    field: str
    other: str


@dataclass(frozen=True)
class Requires:
    """``field`` must be given when ``condition`` holds: ``Requires("goals", Missing("group"))``."""

    field: str
    condition: Condition


@dataclass(frozen=True)
class AnyOf:
    """At least one of ``fields`` must be given: ``AnyOf("targets", "near")``.

    Examples
    --------
    >>> AnyOf("targets", "near", "ports").needs(lambda f: "--" + f)
    'at least one of --targets, --near or --ports'
    """

    fields: tuple[str, ...]

    def __init__(self, *fields: str) -> None:
        object.__setattr__(self, "fields", fields)

    def needs(self, spell: Callable[[str], str]) -> str:
        """What is valid, spelt."""
        names = [spell(f) for f in self.fields]
        return "at least one of " + ", ".join(names[:-1]) + " or " + names[-1]


Together = OnlyWith | NotWith | Requires | AnyOf


def _by_names(condition: Condition) -> bool:
    """Whether the condition is decided by which fields were given, not their values."""
    return isinstance(condition, Given | Missing)


def _holds_for(condition: Condition, given: frozenset[str]) -> bool:
    return (condition.name in given) == isinstance(condition, Given)


class Question(BaseModel):
    """Base of every question: strict, frozen, unknown keys refused; see the module.

    Subclasses declare fields with :func:`param` and which go together in
    ``together``. :meth:`read` is the one validation every front end calls; a
    question built field by field (``Trip(board=b, start=(0, -3))``) is checked
    the same way, its errors an :class:`~isles.models.errors.InvalidInput`
    naming the field.

    Examples
    --------
    >>> class Q(Question):
    ...     pirate: int | None = param(None, help="the pirate")
    ...     rolls: int = param(10, help="rolls", ge=1)
    ...     together = (OnlyWith("rolls", Given("pirate")),)
    >>> Q(pirate=2, rolls=5).rolls
    5
    >>> Q(rolls=5)
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: rolls: 5 is invalid; expected rolls only with pirate
    >>> Q(pirate=2, rolls=0)
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: rolls: 0 is invalid; expected an integer >= 1
    """

    model_config = ConfigDict(
        strict=True,
        extra="forbid",
        frozen=True,
        defer_build=True,
        arbitrary_types_allowed=True,
        validate_default=False,
    )

    together: ClassVar[tuple[Together, ...]] = ()

    def __init__(self, /, **data: Any) -> None:
        # A question built field by field in Python is held to read()'s checks, with its
        # errors. read() itself comes through here too (pydantic calls an __init__ of
        # the model's own), and spells and checks the whole question after.
        if _READING.get():
            super().__init__(**data)
            return
        try:
            super().__init__(**data)
        except ValidationError as exc:
            raise type(self)._invalid(exc, "python", {}) from None
        self._check_together("python", {})

    @classmethod
    def check_given(
        cls,
        given: Iterable[str],
        spelling: Spelling = "python",
        typed: Mapping[str, str] | None = None,
    ) -> None:
        """Check the rules decided by which fields were given, before any value is read.

        A front end calls it before reading what a field names (a board file), so
        that ``--board`` without ``--pirate`` is refused as such, not as a missing
        file. :meth:`read` checks every rule again on the values.

        Examples
        --------
        >>> class Q(Question):
        ...     pirate: int | None = param(None, help="the pirate")
        ...     rolls: int = param(10, help="rolls")
        ...     together = (OnlyWith("rolls", Given("pirate")),)
        >>> Q.check_given(["rolls"], "option", {"rolls": "5"})
        Traceback (most recent call last):
        ...
        isles.models.errors.InvalidInput: --rolls: '5' is invalid; expected --rolls only ...
        """
        try:
            cls._check_names(frozenset(given), spelling, typed or {})
        except InvalidInput as exc:
            raise _spelt(exc, spelling) from None

    @classmethod
    def _check_names(
        cls, names: frozenset[str], spelling: Spelling, shown: Mapping[str, str]
    ) -> None:
        def spell(name: str) -> str:
            return cls.spelt(name, spelling)

        def value(name: str) -> object:
            return shown.get(name, True)  # no text typed (a flag, a file): "given"

        for rule in cls.together:
            if isinstance(rule, OnlyWith) and all(map(_by_names, rule.conditions)):
                if rule.field in names and not any(_holds_for(c, names) for c in rule.conditions):
                    v = value(rule.field)
                    raise InvalidInput(
                        spell(rule.field), v, rule.needs(spelling, spell), problem=_given(v)
                    )
            elif isinstance(rule, NotWith) and {rule.field, rule.other} <= names:
                v = value(rule.field)
                raise InvalidInput(
                    spell(rule.field),
                    v,
                    f"{spell(rule.field)} or {spell(rule.other)}, not both",
                    problem=_given(v),
                )
            elif isinstance(rule, Requires) and _by_names(rule.condition):
                if _holds_for(rule.condition, names) and rule.field not in names:
                    raise InvalidInput(
                        spell(rule.field),
                        None,
                        f"{spell(rule.field)} {rule.condition.said(spelling, spell)}",
                        problem="required",
                    )
            elif isinstance(rule, AnyOf) and not names & set(rule.fields):
                raise InvalidInput(
                    spell(rule.fields[0]), None, rule.needs(spell), problem="missing"
                )

    # -- spellings ------------------------------------------------------------------

    @classmethod
    def spelt(cls, name: str, spelling: Spelling) -> str:
        """One field's spelling: ``time_limit``, ``--time-limit`` or the JSON key.

        Examples
        --------
        >>> class Q(Question):
        ...     time_limit: float = param(1.0, help="seconds", gt=0)
        >>> Q.spelt("time_limit", "option"), Q.spelt("time_limit", "key")
        ('--time-limit', 'time_limit')
        """
        info = cls.model_fields.get(name)
        extra = param_extra(info) if info is not None else {}
        if spelling == "option":
            return str(extra.get("option") or "--" + name.replace("_", "-"))
        if spelling == "key":
            return str(extra.get("key") or name)
        return name

    @classmethod
    def spell(cls, path: str, spelling: Spelling) -> str:
        """A field path spelt: ``values.ore`` is ``--value ore`` on the command line.

        Examples
        --------
        >>> class Q(Question):
        ...     values: dict[str, float] = param({}, help="card values", option="--value")
        >>> Q.spell("values.ore", "option"), Q.spell("values.ore", "key")
        ('--value ore', 'values.ore')
        >>> Q.spell("values[2]", "option"), Q.spell("values[2]", "key")
        ('--value', 'values[2]')
        """
        found = _HEAD.match(path)
        head = found.group(0) if found else ""
        if head not in cls.model_fields:
            return path
        first = cls.spelt(head, spelling)
        rest = path[len(head) :]
        if not rest:
            return first
        if spelling == "option":  # the value shown names the item: --road, not --road [0]
            rest = re.sub(r"^\[\d+\]", "", rest).removeprefix(".")
            return f"{first} {rest}" if rest else first
        return first + rest

    @classmethod
    def respell(
        cls,
        exc: InvalidInput,
        spelling: Spelling,
        typed: Mapping[str, str] | None = None,
    ) -> InvalidInput:
        """A library error about this question, its field spelt for a front end.

        The library checks what needs the board or the record (a start on the
        board, a goal on land) after :meth:`read`; its errors name the
        question's fields in Python, and each front end spells them here, with
        the text typed where there is one.

        Examples
        --------
        >>> class Q(Question):
        ...     time_limit: float = param(1.0, help="seconds", gt=0)
        >>> str(Q.respell(InvalidInput("time_limit", 0.5, "more"), "option", {"time_limit": ".5"}))
        "--time-limit: '.5' is invalid; expected more"
        """
        field = cls.spell(exc.field, spelling)
        value = (typed or {}).get(exc.field, exc.value)
        if field == exc.field and value is exc.value:
            return _spelt(exc, spelling)
        return _spelt(InvalidInput(field, value, exc.expected, problem=exc.problem), spelling)

    # -- validation -----------------------------------------------------------------

    @classmethod
    def ask(cls, **given: Any) -> Self:
        """The question a Python call asks, validated: its arguments, by name.

        An argument left at nothing (None, False, an empty list where the field's
        default is empty) counts as not given, so that "only with" rules see what
        the caller asked; any other iterable given for a list field is read as a
        list (a tuple, a generator).

        Examples
        --------
        >>> class Q(Question):
        ...     pirate: int | None = param(None, help="the pirate")
        ...     rolls: list[int] = param([], help="rolls")
        ...     together = (OnlyWith("rolls", Given("pirate")),)
        >>> sorted(Q.ask(pirate=None, rolls=()).model_fields_set)
        []
        >>> Q.ask(pirate=1, rolls=(2, 3)).rolls
        [2, 3]
        """
        data: dict[str, Any] = {}
        for name, value in given.items():
            info = cls.model_fields.get(name)
            listed = info is not None and _is_list(info.annotation)
            if listed and isinstance(value, Iterable) and not isinstance(value, str | Mapping):
                value = list(value)
            default = info.default if info is not None else None
            if value is None or (value is False and default is False):
                continue
            if value == [] and isinstance(default, list | tuple) and not default:
                continue
            data[name] = value
        return cls.read(data)

    @classmethod
    def read(
        cls,
        data: object,
        *,
        spelling: Spelling = "python",
        typed: Mapping[str, str] | None = None,
    ) -> Self:
        """Validate ``data`` into the question; the one check of every front end.

        Parameters
        ----------
        data : mapping
            Field values by name (Python, the command line), or by JSON key (the
            web app, ``spelling="key"``).
        spelling : {"python", "option", "key"}
            How errors spell the fields.
        typed : mapping, optional
            The text the user typed for a field (the command line), so that an
            error shows ``'-1'`` rather than the number it was read as.

        Returns
        -------
        Question

        Raises
        ------
        InvalidInput
            The first problem: a value of the wrong type or out of range, an
            unknown or missing key, or fields that do not go together. With
            ``spelling="key"`` its value is spelt as JSON (``true``, ``null``,
            ``1e+23``): a request's values are JSON.

        Examples
        --------
        >>> class Q(Question):
        ...     players: int = param(2, help="players", ge=2, le=4)
        >>> Q.read({"players": True}, spelling="key")
        Traceback (most recent call last):
        ...
        isles.models.errors.InvalidInput: players: true is invalid; expected an integer in 2..4
        """
        try:
            return cls._read(data, spelling, typed or {})
        except InvalidInput as exc:
            raise _spelt(exc, spelling) from None

    @classmethod
    def _read(cls, data: object, spelling: Spelling, typed: Mapping[str, str]) -> Self:
        if spelling not in get_args(Spelling):  # a caller's typo would spell errors silently
            raise InvalidInput("spelling", spelling, "python, option or key")
        if not isinstance(data, Mapping):
            raise InvalidInput(
                "request", data, "an object with the keys " + ", ".join(cls._keys(spelling))
            )
        if spelling == "key":
            data = cls._by_name(data)
        cls._check_apart(data, spelling, typed)
        reading = _READING.set(True)
        try:
            question = cls.model_validate(dict(data))
        except ValidationError as exc:
            raise cls._invalid(exc, spelling, typed) from None
        finally:
            _READING.reset(reading)
        question._check_together(spelling, typed)
        return question

    @classmethod
    def _keys(cls, spelling: Spelling) -> list[str]:
        return [cls.spelt(n, spelling) for n in cls.model_fields]

    @classmethod
    def _by_name(cls, data: Mapping[str, Any]) -> dict[str, Any]:
        names = {cls.spelt(n, "key"): n for n in cls.model_fields}
        out: dict[str, Any] = {}
        for key, value in data.items():
            if key not in names:
                raise InvalidInput(
                    str(key),
                    key,
                    "only the keys " + ", ".join(names),
                    problem=f"unknown key {json_text(key)}",
                )
            out[names[key]] = value
        return out

    @classmethod
    def _invalid(
        cls, exc: ValidationError, spelling: Spelling, typed: Mapping[str, str]
    ) -> InvalidInput:
        error = exc.errors(include_url=False)[0]
        loc = [str(p) for p in error["loc"]]
        kind = error["type"]
        name = loc[0] if loc else ""
        info = cls.model_fields.get(name)
        path = "".join(
            f"[{p}]" if isinstance(p, int) else (f".{p}" if i else str(p))
            for i, p in enumerate(error["loc"])
        )
        field = cls.spell(path, spelling)
        cause = (error.get("ctx") or {}).get("error")
        if isinstance(cause, InvalidInput):  # a reader inside a validator (a board file)
            inner = cause.field
            if inner in ("", name):
                full = path
            elif not path:  # a check of the whole question (a model validator)
                full = inner
            elif inner.startswith((f"{name}.", f"{name}[")):  # a reader naming its own root
                full = path + inner[len(name) :]
            elif inner.startswith((".", "[")):
                full = path + inner
            else:
                full = f"{path}.{inner}"
            value = typed.get(full, cause.value)
            problem = cause.problem
            if problem is None or problem == f"{cause.value!r} is invalid":
                problem = None
            return InvalidInput(cls.spell(full, spelling), value, cause.expected, problem=problem)
        if kind == "extra_forbidden":
            return InvalidInput(
                field,
                name,
                "only " + ", ".join(cls._keys(spelling)),
                problem=f"unknown option {name!r}"
                if spelling == "option"
                else f"unknown key {json_text(name) if spelling == 'key' else repr(name)}",
            )
        expected = expected_text(info) if info is not None and len(loc) == 1 else _inner(error)
        if kind == "missing":
            return InvalidInput(field, None, expected, problem="missing")
        value = typed.get(path, error["input"])
        return InvalidInput(field, value, expected, problem=_not_whole(kind, path, value, typed))

    @classmethod
    def _check_apart(
        cls, data: Mapping[str, Any], spelling: Spelling, typed: Mapping[str, str]
    ) -> None:
        """The :class:`NotWith` rules, on the fields given, before any value is read.

        Two fields that cannot go together are refused before either is validated,
        so that a kit file is not read for an option that cannot go with another.
        """
        for rule in cls.together:
            if isinstance(rule, NotWith) and rule.field in data and rule.other in data:
                value = typed.get(rule.field, data[rule.field])
                raise InvalidInput(
                    cls.spelt(rule.field, spelling),
                    value,
                    f"{cls.spelt(rule.field, spelling)} or {cls.spelt(rule.other, spelling)}, "
                    "not both",
                    problem=_given(value),
                )

    def _check_together(self, spelling: Spelling, typed: Mapping[str, str]) -> None:
        given = self.model_fields_set
        cls = type(self)

        def spell(name: str) -> str:
            return cls.spelt(name, spelling)

        def shown(name: str) -> object:
            return typed.get(name, getattr(self, name))

        for rule in self.together:
            if isinstance(rule, OnlyWith):
                if rule.field in given and not rule.holds(self):
                    raise InvalidInput(
                        spell(rule.field),
                        shown(rule.field),
                        rule.needs(spelling, spell),
                        problem=_given(shown(rule.field)),
                    )
            elif isinstance(rule, NotWith):
                if rule.field in given and rule.other in given:
                    raise InvalidInput(
                        spell(rule.field),
                        shown(rule.field),
                        f"{spell(rule.field)} or {spell(rule.other)}, not both",
                        problem=_given(shown(rule.field)),
                    )
            elif isinstance(rule, AnyOf):
                if not given & set(rule.fields):
                    raise InvalidInput(
                        spell(rule.fields[0]), None, rule.needs(spell), problem="missing"
                    )
            elif rule.condition.holds(self) and rule.field not in given:
                raise InvalidInput(
                    spell(rule.field),
                    None,
                    f"{spell(rule.field)} {rule.condition.said(spelling, spell)}",
                    problem="required",
                )


def _is_list(annotation: Any) -> bool:
    """Whether a field holds a list (``list[Edge]``, ``list[int] | None``)."""
    base, _ = _base(annotation)
    while get_origin(base) is Annotated:
        base = get_args(base)[0]
    return get_origin(base) is list


def _spelt(exc: InvalidInput, spelling: Spelling) -> InvalidInput:
    """The error in the front end's words: a web request's values spelt as JSON."""
    return exc.in_json() if spelling == "key" else exc


def _given(value: object) -> str | None:
    """How a value that should not have been given is shown: its text, or "given"."""
    if isinstance(value, str | int | float) and not isinstance(value, bool):
        return None
    return "given"


def _not_whole(kind: str, path: str, value: object, typed: Mapping[str, str]) -> str | None:
    """Why a number is not an integer, its value spelt as a float (``4.0``, not ``4``).

    JSON writes ``4.0`` and ``4`` alike once read, so a float where an integer
    belongs is said to be one rather than shown as the integer it equals.

    Examples
    --------
    >>> _not_whole("int_type", "players", 4.0, {}), _not_whole("int_type", "players", 4.5, {})
    ('4.0 is a float, not a whole number (write 4)', '4.5 is not a whole number')
    """
    if not kind.startswith("int") or path in typed:
        return None
    return not_whole(value)


def _inner(error: Mapping[str, Any]) -> str:
    """What is valid for an item inside a field (a list entry, a dict value)."""
    ctx = error.get("ctx") or {}
    kind = str(error["type"])
    if "ge" in ctx and "le" in ctx:
        return f"a number in {ctx['ge']}..{ctx['le']}"
    for key, op in _OPS:
        if key in ctx:
            return f"a number {op} {ctx[key]}"
    if kind.startswith("int"):
        return "an integer"
    if kind.startswith("float"):
        return "a number"
    if kind.startswith("bool"):
        return "true or false"
    if kind.startswith("literal"):
        return f"one of {ctx.get('expected', '')}".strip()
    return str(error.get("msg", "a valid value")).lower()
