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

from isles.models.contract import Question, param_extra
from isles.models.errors import InvalidInput
from isles.models.hexgrid import Edge, Hex, parse_edge, parse_hex
from isles.models.jsonio import load_json
from isles.models.text import parse_integer, parse_number

__all__ = ["NAMED_READERS", "TEXT_READERS", "add_question", "read_question"]

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
            raise InvalidInput(option, key, "each resource at most once")
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


def read_words(text: str, option: str) -> list[str]:
    """``boat,red`` as ``["boat", "red"]`` (each word stripped).

    >>> read_words("boat, red", "--roll")
    ['boat', 'red']
    """
    return [word.strip() for word in text.split(",")]


def read_json_file(text: str, option: str) -> object:
    """The JSON of the file named (``-``: standard input), for a field that takes JSON."""
    return load_json(text, f"{option} file")


#: Readers a declaration names with ``param(text=...)``; a game's command may add its
#: own (``isles.commands.lighthouse``: a kit name or file).
NAMED_READERS: dict[str, Callable[[str, str], Any]] = {
    "pairs": read_pairs,
    "counts": read_counts,
    "integer": parse_integer,
    "word": lambda text, option: text,
    "words": read_words,
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
    default = info.default
    if (
        info.is_required()
        or default is None
        or default is ...
        or (isinstance(default, list | dict | tuple) and not default)
    ):
        return ""
    if isinstance(default, bool):
        return ""
    if isinstance(default, Enum):
        default = default.value
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
        base = _base(info.annotation)
        help_text = (info.description or "") + _default_text(info)
        kwargs: dict[str, Any] = {"dest": name, "default": argparse.SUPPRESS, "help": help_text}
        if base is bool:
            parser.add_argument(option, action="store_true", **kwargs)
            continue
        choices = _choices(_item(info.annotation))
        if choices is not None:
            kwargs["choices"] = choices
        if extra.get("metavar"):
            kwargs["metavar"] = extra["metavar"]
        if extra.get("repeat"):
            kwargs["action"] = "append"
        parser.add_argument(option, **kwargs)


def _reader(question: type[Question], name: str, info: FieldInfo) -> Callable[[str, str], Any]:
    named = param_extra(info).get("text")
    if isinstance(named, str):
        return NAMED_READERS[named]
    item = _item(info.annotation)
    if isinstance(item, type) and issubclass(item, Enum):
        return lambda text, option: item(text)
    if get_origin(item) is Literal:  # argparse checked the choice
        return lambda text, option: text
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
    question: type[Q], args: argparse.Namespace, extra: Mapping[str, Any] | None = None
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

    Returns
    -------
    Question

    Raises
    ------
    InvalidInput
        Naming the option as typed, the text typed and what is valid.
    """
    data: dict[str, Any] = dict(extra or {})
    typed: dict[str, str] = {}
    for name, info in question.model_fields.items():
        if not hasattr(args, name) or name in data:
            continue
        text = getattr(args, name)
        if isinstance(text, bool):
            data[name] = text
            continue
        data[name] = _read_text(question, name, info, text, typed)
    # The command's errors after this (the library's checks on the board) are
    # spelt from the same declaration (isles.cli).
    args._question, args._typed = question, typed
    return question.read(data, spelling="option", typed=typed)


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
        value = read(text, option)
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
                    raise InvalidInput(option, key, "each resource at most once")
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
