"""Your own rules, from a rules file: ``{"rules": [{"kind": ..., ...}, ...]}``.

Implements docs/layout.md ("Your own rules"; seed seeds/004_644cf972d8964df4.txt,
"MISE EN PLACE"): each entry is read into a rule of its kind
(:data:`~isles.models.layout.board_rules.RULE_KINDS`) with that kind's own
declaration, every error naming the entry.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from isles.models.errors import InvalidInput
from isles.models.jsonio import load_json
from isles.models.layout.board_rule import BoardRule
from isles.models.layout.board_rules import RULE_KINDS

__all__ = ["load_rules", "read_rules"]


def read_rules(data: object, field: str = "rules") -> tuple[BoardRule, ...]:
    """The rules of a rules file's JSON: ``{"rules": [{"kind": ..., ...}, ...]}``.

    Parameters
    ----------
    data : object
        The parsed JSON.
    field : str
        How errors name the file (its path, or ``rules``).

    Returns
    -------
    tuple of BoardRule

    Raises
    ------
    InvalidInput
        Naming the entry (``rules[1].distance``): an unknown kind, an unknown
        or missing key, a value of the wrong type or out of range, the same
        rule twice.

    Examples
    --------
    >>> read_rules({"rules": [{"kind": "numbers-apart", "numbers": [6, 8], "distance": 3}]})
    (NumbersApart(numbers=[6, 8], distance=3),)
    >>> read_rules({"rules": [{"kind": "numbers-apart", "numbers": [6, 7]}]})
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: rules[0].numbers[1]: 7 is invalid; expected one of 2, ...
    >>> read_rules({"rules": [{"kind": "vertex-pips", "most": 11}]})
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: rules[0].most: unknown key 'most'; expected only kind, at_most
    """
    if not isinstance(data, Mapping) or set(data) != {"rules"}:
        shown = sorted(data) if isinstance(data, Mapping) else data
        raise InvalidInput(field, shown, 'an object with the one key "rules"')
    entries = data["rules"]
    if not isinstance(entries, list):
        raise InvalidInput(f"{field}.rules", entries, "a list of rules")
    out: list[BoardRule] = []
    for i, entry in enumerate(entries):
        rule = _read_rule(entry, f"rules[{i}]")
        if any(rule.label() == seen.label() for seen in out):
            raise InvalidInput(f"rules[{i}]", rule.label(), "each rule once")
        out.append(rule)
    return tuple(out)


def _read_rule(entry: object, where: str) -> BoardRule:
    kinds = ", ".join(RULE_KINDS)
    if not isinstance(entry, Mapping):
        raise InvalidInput(
            where, entry, f'an object {{"kind": ..., ...}} with a kind among {kinds}'
        )
    if "kind" not in entry:
        raise InvalidInput(f"{where}.kind", None, f"a kind among {kinds}", problem="missing")
    kind = entry["kind"]
    if not isinstance(kind, str) or kind not in RULE_KINDS:
        raise InvalidInput(f"{where}.kind", kind, f"a kind among {kinds}")
    cls = RULE_KINDS[kind]
    params = {k: v for k, v in entry.items() if k != "kind"}
    for key in params:
        if key not in cls.model_fields:
            names = ", ".join(["kind", *cls.model_fields])
            raise InvalidInput(
                f"{where}.{key}", key, f"only {names}", problem=f"unknown key {key!r}"
            )
    try:
        return cls.read(params, spelling="key")
    except InvalidInput as exc:
        raise InvalidInput(
            f"{where}.{exc.field}", exc.value, exc.expected, problem=exc.problem
        ) from None


def load_rules(path: str | Path) -> tuple[BoardRule, ...]:
    """The rules of a rules file (docs/layout.md, "Your own rules").

    Raises
    ------
    InvalidInput
        The file cannot be read or is not JSON (naming the file), or as
        :func:`read_rules`.
    """
    return read_rules(load_json(path, "rules file"))
