"""What a board rule is: its parameters, its check, its CP-SAT encoding, its relaxation.

Implements docs/layout.md ("How a rule is written", "Your own rules"; seed
seeds/004_644cf972d8964df4.txt, "MISE EN PLACE"): the base class of every rule
kind (:mod:`isles.models.layout.board_rules` holds the kinds) and what a rule is
handed: the request (:class:`Requested`), the CP-SAT model's variables
(:class:`Encoding`) or a relaxation's (:class:`Relaxation`). It never imports a
solver nor the request itself.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Literal, Protocol

from isles.models.board import Board
from isles.models.catan import HarbourKind, Resource, Terrain
from isles.models.contract import Question
from isles.models.hexgrid import Edge, Hex

__all__ = ["ALL_RELABELS", "BoardRule", "Encoding", "Relabel", "Relaxation", "Requested"]

#: Re-labellings of a board that keep pips, colourfulness and the built-in rules:
#: land terrains of equal counts swapped, twin tokens (6/8, 5/9, ...) swapped, sea
#: numbers permuted, harbours dealt anew. A rule says which of them keep it.
Relabel = Literal["terrains", "twins", "sea numbers", "harbours"]
ALL_RELABELS: frozenset[Relabel] = frozenset({"terrains", "twins", "sea numbers", "harbours"})


class Requested(Protocol):
    """What a rule reads of the request (:class:`~isles.models.layout.request.SetupRequest`).

    The frame (the rules concern the positions), the sea numbers, the land
    tiles, the harbour places, and the limits of the switched rules.
    """

    @property
    def frame(self) -> tuple[Hex, ...]: ...
    @property
    def sea_numbers(self) -> tuple[int, ...]: ...
    @property
    def inventory(self) -> Mapping[Terrain, int]: ...
    @property
    def harbour_places(self) -> tuple[Edge, ...]: ...
    @property
    def max_pips(self) -> int: ...
    @property
    def max_group(self) -> int: ...
    @property
    def min_corner_pips(self) -> int: ...


class Encoding(Protocol):
    """The CP-SAT model's variables a rule's encoding uses (isles.solvers.layout.model builds them).

    Each mapping holds a CP-SAT Boolean literal (``pip`` a linear expression);
    ``cp`` is the ``CpModel``.
    """

    @property
    def cp(self) -> Any: ...
    @property
    def request(self) -> Requested: ...
    @property
    def pos(self) -> list[Hex]: ...
    @property
    def edges(self) -> list[Edge]: ...
    @property
    def land_kinds(self) -> list[Terrain]: ...
    @property
    def land(self) -> Mapping[Hex, Any]: ...
    @property
    def terrain(self) -> Mapping[tuple[Hex, Terrain], Any]: ...
    @property
    def land_token(self) -> Mapping[tuple[Hex, int], Any]: ...
    @property
    def sea_token(self) -> Mapping[tuple[Hex, int], Any]: ...
    @property
    def pip(self) -> Mapping[Hex, Any]: ...
    @property
    def harbour(self) -> Mapping[tuple[Edge, HarbourKind], Any]: ...


class Relaxation(Protocol):
    """The variables of a relaxation: land alone, or land and pips (fixed shape).

    ``pv[h, k]`` is "hex h carries a token of k pips" (k in 1..5) and ``pip[h]``
    its pips; both, and ``desert``, are None in the land-only relaxation (the
    colourfulness bound), where a rule can say only what land alone implies.
    """

    @property
    def cp(self) -> Any: ...
    @property
    def request(self) -> Requested: ...
    @property
    def pos(self) -> Sequence[Hex]: ...
    @property
    def land(self) -> Mapping[Hex, Any]: ...
    @property
    def desert(self) -> Mapping[Hex, Any] | None: ...
    @property
    def pv(self) -> Mapping[tuple[Hex, int], Any] | None: ...
    @property
    def pip(self) -> Mapping[Hex, Any] | None: ...


class BoardRule(Question):
    """One board rule of a kind: its parameters, its check, its encoding, its relaxation.

    Subclasses set ``kind`` (its name in rules files, conflicts and
    ``--rule``), declare their parameters as fields (:func:`param`) and
    implement the three encodings.
    :func:`~isles.models.layout.board_rules.rule_kind` registers them.
    """

    kind: ClassVar[str]
    #: The rule in players' words, for the pages and tables (``kind`` is its name in files).
    title: ClassVar[str]

    @classmethod
    def switched(cls, request: Requested) -> BoardRule:
        """The rule as ``--rule NAME=on`` switches it, its parameters from ``request``."""
        return cls()

    @abstractmethod
    def violations(self, request: Requested, board: Board) -> list[str]:
        """Every breach of the rule on the positions of a finished ``board``, in words."""

    @abstractmethod
    def encode(self, model: Encoding, lit: Any) -> None:
        """Add the rule to the CP-SAT model, every constraint enforced only if ``lit``."""

    @abstractmethod
    def relax(self, model: Relaxation) -> bool:
        """Add what the relaxation keeps of the rule; False when it keeps nothing.

        The relaxation must stay implied by the rule (every legal board obeys
        it), so that an infeasible relaxation proves the request infeasible.
        """

    def relabels(self) -> frozenset[Relabel]:
        """The re-labellings of a board that keep this rule (:data:`Relabel`)."""
        return ALL_RELABELS

    def keeps(self, move: Callable[[Hex], Hex]) -> bool:
        """Whether a rotation or reflection of the board keeps the rule (symmetry breaking)."""
        return True

    def label(self) -> str:
        """The rule's name in conflicts: its kind and its parameters as given.

        >>> from isles.models.layout.board_rules import NumbersApart
        >>> NumbersApart(numbers=[6, 8], distance=3).label()
        'numbers-apart(numbers=[6, 8], distance=3)'
        """
        given = [f"{name}={_shown(getattr(self, name))}" for name in self.model_fields_set]
        order = list(type(self).model_fields)
        given.sort(key=lambda text: order.index(text.partition("=")[0]))
        return f"{self.kind}({', '.join(given)})" if given else self.kind


def _shown(value: object) -> str:
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_shown(v) for v in value) + "]"
    if isinstance(value, Terrain | Resource):
        return value.value
    return str(value)
