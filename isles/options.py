"""The command line's options, derived from the questions' declarations.

Implements docs/json.md ("Questions"): each field of a question
(:class:`isles.models.contract.Question`) is one option, spelt as the
declaration says (``--time-limit``), with its help, its placeholder, its
default in the help text, and its text read by one parser per type (``Q,R``
for a hex, ``ore=2,wool=1`` for cards). The options a user did not give stay
out of the question, so that "only with" rules see what was typed, and the
text typed is kept for errors (``'-1'``, not ``-1.0``).
"""

from __future__ import annotations

import argparse
import typing
from collections.abc import Callable, Mapping
from enum import Enum
from typing import Any, Literal, TypeVar, get_args, get_origin

from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

from isles.models.contract import Question, expected_text, param_extra
from isles.models.errors import InvalidInput
from isles.models.hexgrid import Edge, Hex, parse_edge, parse_hex
from isles.models.jsonio import load_json
from isles.models.text import parse_integer, parse_number

__all__ = [
    "NAMED_READERS",
    "TEXT_READERS",
    "add_question",
    "add_questions",
    "read_mode",
    "read_question",
]

Q = TypeVar("Q", bound=Question)

#: How the command line reads one value of a type from the text typed:
#: ``reader(text, option)`` (the option for the message).
TEXT_READERS: dict[object, Callable[[str, str], Any]] = {
    int: parse_integer,
    float: parse_number,
    str: lambda text, option: text,
    Hex: parse_hex,
    Edge: parse_edge,
}


def _named_numbers(text: str, option: str, number: Callable[[str, str], Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for part in text.split(","):
        name, sep, value = part.partition("=")
        key = name.strip()
        if not sep or not key:
            raise InvalidInput(option, part, "resource=number, e.g. ore=2")
        if key in out:
            raise InvalidInput(
                option, key, "each resource at most once", problem=f"{key!r} given twice"
            )
        out[key] = number(value, f"{option} {key}")
    return out


def read_pairs(text: str, option: str) -> dict[str, float]:
    """``ore=2,wool=0.5`` as ``{"ore": 2.0, "wool": 0.5}`` (each name once).

    >>> read_pairs("ore=2, wool=0.5", "--value")
    {'ore': 2.0, 'wool': 0.5}
    """
    return _named_numbers(text, option, parse_number)


def read_counts(text: str, option: str) -> dict[str, int]:
    """``lumber=3,ore=2`` as ``{"lumber": 3, "ore": 2}`` (whole numbers, each name once).

    >>> read_counts("lumber=3,ore=2", "--budget")
    {'lumber': 3, 'ore': 2}
    """
    return _named_numbers(text, option, parse_integer)


def read_switch(text: str, option: str) -> tuple[str, bool]:
    """``NAME=on`` or ``NAME=off`` as ``(NAME, True)`` / ``(NAME, False)``.

    >>> read_switch("sea-apart=off", "--rule")
    ('sea-apart', False)
    """
    name, sep, switch = text.partition("=")
    if not sep or switch.strip() not in ("on", "off"):
        raise InvalidInput(
            option, text, f"{name.strip() or 'NAME'}=on or {name.strip() or 'NAME'}=off"
        )
    return name.strip(), switch.strip() == "on"


def read_names(text: str, option: str) -> list[str]:
    """``forest,sea`` as ``["forest", "sea"]`` (the declaration checks the names).

    >>> read_names("forest, sea", "--hold")
    ['forest', 'sea']
    """
    return [part.strip() for part in text.split(",")]


def read_json_file(text: str, option: str) -> object:
    """The JSON of the file named (``-``: standard input), for a field that takes JSON."""
    return load_json(text, f"{option} file")


#: Readers a declaration names with ``param(text=...)``; a game's command may add its
#: own (``isles.commands.lighthouse``: a kit name or file; ``isles.commands.sail``: a
#: corner).
NAMED_READERS: dict[str, Callable[[str, str], Any]] = {
    "name": lambda text, option: text,  # a name the library looks up (a Plunder policy)
    "pairs": read_pairs,
    "counts": read_counts,
    "switch": read_switch,
    "names": read_names,
    "integer": parse_integer,
    "json": read_json_file,
}


def _base(annotation: Any) -> Any:
    """The type without ``None`` and without ``Annotated`` metadata."""
    while True:
        if get_origin(annotation) is typing.Annotated:
            annotation = get_args(annotation)[0]
            continue
        args = get_args(annotation)
        rest = [a for a in args if a is not type(None)]
        if args and len(rest) == 1 and len(args) == 2:
            annotation = rest[0]
            continue
        return annotation


def _item(annotation: Any) -> Any:
    """The item type of a list or tuple field (``list[Hex]`` -> ``Hex``)."""
    base = _base(annotation)
    if get_origin(base) in (list, tuple, frozenset, set):
        return _base(get_args(base)[0])
    return base


def _choices(base: Any) -> list[str] | None:
    if get_origin(base) is Literal:
        return [str(a) for a in get_args(base)]
    if isinstance(base, type) and issubclass(base, Enum):
        return [str(m.value) for m in base]
    return None


def _default_text(info: FieldInfo) -> str:
    if info.is_required():
        return ""
    default = info.default
    if isinstance(default, list | tuple) and default:
        return " (default " + ", ".join(str(x) for x in default) + ")"
    if (
        default is None
        or default is ...
        or default is PydanticUndefined  # a required field
        or (isinstance(default, list | dict | tuple) and not default)
    ):
        return ""
    if isinstance(default, bool):
        return ""
    if isinstance(default, Enum):
        default = default.value
    if isinstance(default, list | tuple):  # a repeated option's items: --within 10
        default = " ".join(map(str, default))
    return f" (default {default:g})" if isinstance(default, float) else f" (default {default})"


def add_question(
    parser: argparse.ArgumentParser,
    question: type[Question],
    *,
    exclude: tuple[str, ...] = (),
) -> None:
    """Add one option per field of ``question`` to ``parser``.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The command's parser.
    question : type of Question
        The declaration.
    exclude : tuple of str
        Fields the command reads itself (a board from ``--board FILE``).

    Examples
    --------
    >>> from isles.models.contract import Question, param
    >>> class Odds(Question):
    ...     games: int = param(1000, help="games to simulate", ge=1, le=10**6)
    >>> p = argparse.ArgumentParser(prog="odds")
    >>> add_question(p, Odds)
    >>> read_question(Odds, p.parse_args(["--games", "20"])).games
    20
    """
    for name, info in question.model_fields.items():
        extra = param_extra(info)
        if name in exclude or not extra.get("cli", True):
            continue
        option = question.spelt(name, "option")
        help_text = (info.description or "") + _default_text(info)
        _add_option(parser, option, name, info, help_text, bool(extra.get("repeat")))


def _add_option(
    parser: argparse.ArgumentParser,
    option: str,
    dest: str,
    info: FieldInfo,
    help_text: str,
    repeat: bool,
    shown: list[str] | None = None,
) -> None:
    """One option of a field: a flag for a bool (one on by default is turned off by its
    declared option, ``--no-cache``), the choices of a Literal or an Enum (``shown``:
    those of every mode sharing it), the declared placeholder, repeated for a list;
    absent when not given."""
    kwargs: dict[str, Any] = {"dest": dest, "default": argparse.SUPPRESS, "help": help_text}
    if _base(info.annotation) is bool:
        if info.default is True and not param_extra(info).get("option"):
            raise TypeError(f"{dest}: a flag on by default declares the option that turns it off")
        action = "store_false" if info.default is True else "store_true"
        parser.add_argument(option, action=action, **kwargs)
        return
    # a named reader reads the whole text (``forest,sea``): no choices of its items
    extra = param_extra(info)
    choices = None if extra.get("text") else _choices(_item(info.annotation))
    if choices is not None:  # shown in --help; refused by the field's reader, as isles words it
        kwargs["metavar"] = "{" + ",".join(shown or choices) + "}"
    metavar = extra.get("metavar")
    if metavar:
        kwargs["metavar"] = metavar
    if repeat:
        kwargs["action"] = "append"
    parser.add_argument(option, **kwargs)


def _reader(question: type[Question], name: str, info: FieldInfo) -> Callable[[str, str], Any]:
    named = param_extra(info).get("text")
    if isinstance(named, str):
        return NAMED_READERS[named]
    item = _item(info.annotation)
    choices = _choices(item)
    if choices is not None:

        def choice(text: str, option: str) -> Any:
            if text not in choices:
                raise InvalidInput(option, text, "one of " + ", ".join(choices))
            return item(text) if isinstance(item, type) and issubclass(item, Enum) else text

        return choice
    found = TEXT_READERS.get(item)
    if found is None:
        raise TypeError(f"{question.__name__}.{name}: no text reader for {item!r}")
    return found


#: What the text readers say is valid when they know nothing more.
_PLAIN = ("a number", "a whole number")


def _checked(read: Callable[[str, str], Any], item: str | None) -> Callable[[str, str], Any]:
    """``read``, its refusals saying what the declaration says is valid for an item."""
    if item is None:
        return read

    def reading(text: str, option: str) -> Any:
        try:
            return read(text, option)
        except InvalidInput as exc:
            if exc.field == option or exc.expected not in _PLAIN:
                raise  # the item's syntax (ore=2), or a reason of the reader's own
            raise InvalidInput(exc.field, exc.value, item, problem=exc.problem) from None

    return reading


def read_question(
    question: type[Q],
    args: argparse.Namespace,
    extra: Mapping[str, Any] | None = None,
    typed: Mapping[str, str] | None = None,
    *,
    files: Mapping[str, Callable[[], Any]] | None = None,
    beside: Mapping[type[Question], str] | None = None,
) -> Q:
    """The question the options typed ask (only those given), validated.

    Parameters
    ----------
    question : type of Question
        The declaration the options were added from (:func:`add_question`).
    args : argparse.Namespace
        The parsed command line.
    extra : mapping, optional
        Fields the command read itself (a board from a file), by name.
    typed : mapping, optional
        The text typed for fields of ``extra`` (a clue read with the record's
        names), so that errors show it.
    files : mapping, optional
        Fields the command reads from a file, by name: each is read (called)
        only after the rules decided by which options were given passed
        (:meth:`Question.check_given`), so that ``--board`` where it does not
        belong is refused as such, not as a file that cannot be read.
    beside : mapping, optional
        The command's other questions, each with what asks it instead of
        ``question`` (``"with two or three --from (a fleet)"``): an option of
        theirs that ``question`` has not is refused, naming what asks it.

    Returns
    -------
    Question

    Raises
    ------
    InvalidInput
        Naming the option as typed, the text typed and what is valid.
    """
    data: dict[str, Any] = dict(extra or {})
    typed = dict(typed or {})
    for other, asked in (beside or {}).items():
        _refuse_others(question, other, asked, args)
    for name, info in question.model_fields.items():
        cli = param_extra(info).get("cli", True)
        if not hasattr(args, name) or name in data or not cli:
            continue
        text = getattr(args, name)
        if isinstance(text, bool):
            data[name] = text
            continue
        data[name] = _read_text(question, name, info, text, typed)
    if files:
        question.check_given([*data, *files], "option", typed)
        for name in files:  # a file's errors name it as typed: --board: 'empty.json'
            if isinstance(getattr(args, name, None), str):
                typed.setdefault(name, getattr(args, name))
        data.update({name: read() for name, read in files.items()})
    # The command's errors after this (the library's checks on the board) are
    # spelt from the same declaration (isles.cli).
    args._question, args._typed = question, typed
    return question.read(data, spelling="option", typed=typed)


def _refuse_others(
    question: type[Question], other: type[Question], asked: str, args: argparse.Namespace
) -> None:
    """Refuse an option given that ``other`` asks and ``question`` does not."""
    for name, info in other.model_fields.items():
        own = question.model_fields.get(name)
        if own is not None and param_extra(own).get("cli", True):
            continue  # this question's own option too
        if not param_extra(info).get("cli", True):
            continue
        option = other.spelt(name, "option")
        options = {
            question.spelt(n, "option")
            for n, i in question.model_fields.items()
            if param_extra(i).get("cli", True)
        }
        if option in options:
            continue  # the same option, read as this question's own field
        if hasattr(args, name):
            text = getattr(args, name)
            value: Any = True  # a flag: "given"
            if not isinstance(text, bool):
                _read_text(other, name, info, text, {})  # a bad value is said as such first
                value = text[0] if isinstance(text, list) and len(text) == 1 else text
            raise InvalidInput(
                option,
                value,
                f"{option} only {asked}",
                problem="given" if isinstance(value, bool | list | dict) else None,
            )


def _read_text(
    question: type[Question],
    name: str,
    info: FieldInfo,
    text: str | list[str],
    typed: dict[str, str],
) -> Any:
    """One option's value from its text (each item of a repeated one), the text kept."""
    option = question.spelt(name, "option")
    read = _checked(_reader(question, name, info), param_extra(info).get("item"))
    if isinstance(text, str):
        typed[name] = text
        try:
            value = read(text, option)
        except InvalidInput as exc:  # "4.0" for --players: say the range, as the web does
            if exc.field != option or exc.expected not in _PLAIN:
                raise
            raise InvalidInput(option, exc.value, expected_text(info), exc.problem) from None
        if isinstance(value, dict):
            typed.update(_pair_texts(name, text))
        return value
    items = [read(t, option) for t in text]
    for i, t in enumerate(text):
        typed[f"{name}[{i}]"] = t
    if len(text) == 1:
        typed[name] = text[0]
    if items and all(isinstance(v, dict) for v in items):  # --value ore=2 --value wool=1
        merged: dict[str, Any] = {}
        for item in items:
            for key, v in item.items():
                if key in merged:
                    raise InvalidInput(
                        option, key, "each resource at most once", problem=f"{key!r} given twice"
                    )
                merged[key] = v
        typed.update(_pair_texts(name, text))
        return merged
    return items


def _pair_texts(name: str, text: str | list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in [text] if isinstance(text, str) else text:
        for part in item.split(","):
            key, _, number = part.partition("=")
            out[f"{name}.{key.strip()}"] = number.strip()
    return out


def _dest(option: str) -> str:
    return option.lstrip("-").replace("-", "_")


def _mode_fields(
    modes: Mapping[str, type[Question]], exclude: tuple[str, ...]
) -> dict[str, list[tuple[str, type[Question], str, FieldInfo]]]:
    """Each option of the modes, in declaration order: (mode, question, field, info)."""
    options: dict[str, list[tuple[str, type[Question], str, FieldInfo]]] = {}
    for mode, question in modes.items():
        for name, info in question.model_fields.items():
            if name in exclude or not param_extra(info).get("cli", True):
                continue
            options.setdefault(question.spelt(name, "option"), []).append(
                (mode, question, name, info)
            )
    return options


def add_questions(
    parser: argparse.ArgumentParser,
    modes: Mapping[str, type[Question]],
    *,
    exclude: tuple[str, ...] = (),
) -> None:
    """The options of a command that asks one of several questions (its modes).

    Each option is added once, from the first declaration that has it; an
    option two modes share (``--time-limit``) says in its help what it is in
    each mode, when they differ. A mode's label (the key of ``modes``, as the
    user chooses it: ``--dig-advice``) is how errors name it
    (:func:`read_mode`).

    Examples
    --------
    >>> from isles.models.contract import Question, param
    >>> class Odds(Question):
    ...     games: int = param(1000, help="games to simulate", ge=1)
    >>> class Kit(Question):
    ...     islands: int = param(8, help="islands", ge=1)
    >>> p = argparse.ArgumentParser(prog="odds")
    >>> add_questions(p, {"--odds": Odds, "--kit": Kit})
    >>> read_mode({"--odds": Odds, "--kit": Kit}, "--kit", p.parse_args(["--games", "2"]))
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: --games: '2' is invalid; expected --games only with --odds
    """
    for option, fields in _mode_fields(modes, exclude).items():
        info = fields[0][3]
        helps = {m: (i.description or "") + _default_text(i) for m, _, _, i in fields}
        if len(set(helps.values())) > 1:
            help_text = "; ".join(f"{m}: {h}" for m, h in helps.items())
        elif len(helps) < len(modes):  # the modes that take it
            help_text = ", ".join(helps) + ": " + next(iter(helps.values()))
        else:
            help_text = next(iter(helps.values()))
        repeat = any(param_extra(i).get("repeat") for _, _, _, i in fields)
        shown = [
            c for _, _, _, i in fields for c in _choices(_item(i.annotation)) or () if c
        ]  # a shared option (``--method``) shows the choices of every mode
        _add_option(
            parser, option, _dest(option), info, help_text, repeat, list(dict.fromkeys(shown))
        )


def _only_in(option: str, having: list[str], modes: Mapping[str, type[Question]]) -> str:
    """Which modes take ``option``, said plainly: the flags it needs, or those it cannot have.

    A command's default mode is no flag (``a route (without --income or --race)``):
    an option it takes is said not to go with the flags of the modes that lack it.

    Examples
    --------
    >>> modes = dict.fromkeys(["a route (without --race)", "--income", "--race"], Question)
    >>> _only_in("--car", ["--race"], modes)
    '--car only with --race'
    >>> _only_in("--start", ["a route (without --race)", "--income"], modes)
    '--start not with --race'
    """
    lacking = [m for m in modes if m not in having]
    if all(m.startswith("--") for m in having) or not all(m.startswith("--") for m in lacking):
        return f"{option} only with " + " or ".join(having)
    return f"{option} not with " + " or ".join(lacking)


def read_mode(
    modes: Mapping[str, type[Question]],
    mode: str,
    args: argparse.Namespace,
    extra: Mapping[str, Any] | None = None,
    typed: Mapping[str, str] | None = None,
    *,
    exclude: tuple[str, ...] = (),
) -> Question:
    """The question of ``mode``, read from the options added by :func:`add_questions`.

    An option given that only other modes have is refused, naming the modes
    that have it (``--waits only with --dig-advice``); an option that ``mode``
    takes once but another repeats (``--policy``) is refused when given twice.

    Raises
    ------
    InvalidInput
        Naming the option as typed, the text typed and what is valid.
    """
    options = _mode_fields(modes, exclude)
    ours: dict[str, tuple[str, FieldInfo]] = {}
    for option, fields in options.items():
        given = getattr(args, _dest(option), None)
        mine = [(name, info) for m, _, name, info in fields if m == mode]
        if given is None:
            continue
        if not mine:
            shown = given[0] if isinstance(given, list) and len(given) == 1 else given
            problem = None if isinstance(shown, str) else "given"
            needs = _only_in(option, list(dict.fromkeys(m for m, _, _, _ in fields)), modes)
            raise InvalidInput(option, shown, needs, problem=problem)
        ours[option] = mine[0]
    question = modes[mode]
    picked = argparse.Namespace()
    for option, (name, info) in ours.items():
        value = getattr(args, _dest(option))
        if isinstance(value, list) and not param_extra(info).get("repeat"):
            if len(value) > 1:
                expected = f"one {option} with {mode}"
                raise InvalidInput(option, value, expected, problem="given twice")
            value = value[0]
        setattr(picked, name, value)
    found = read_question(question, picked, extra, typed)
    args._question, args._typed = picked._question, picked._typed
    return found
