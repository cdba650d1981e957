"""The lighthouse advisor's jobs and checks (docs/serve.md, "Endpoints"; docs/lighthouse.md)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from isles import lighthouse
from isles.models.errors import InvalidInput
from isles.solvers.usercache import writable_cache_dir
from isles.web.tasks.base import Task

__all__ = ["SOLVE_WHOLE_ISLANDS", "TASKS", "LighthouseTables", "check_position", "lighthouse_kit"]


def lighthouse_kit(body: object) -> dict[str, Any]:
    """The kit a lighthouse request names, in the kit format (docs/lighthouse.md, "Formats").

    Read with the library's declaration :class:`~isles.lighthouse.KitChoice`.

    Parameters
    ----------
    body : object
        ``{"players": 2..4}``, ``{"islands": 1..8}`` or ``{"kit": KIT}`` (a kit's
        JSON, or a name of ``isles.lighthouse.KITS``), each with an optional
        ``sea_cards``; ``{}`` is the real game for 2 players.

    Returns
    -------
    dict
        ``Kit.to_dict()``.

    Raises
    ------
    InvalidInput
        Naming the field.

    Examples
    --------
    >>> lighthouse_kit({"islands": 2, "sea_cards": 3})["islands"]
    [['red', 'blue'], ['green', 'orange']]
    >>> len(lighthouse_kit({})["islands"]), len(lighthouse_kit({"kit": "game-3"})["islands"])
    (8, 6)
    """
    return lighthouse.KitChoice.read(body, spelling="key").chosen_kit().to_dict()


def check_position(body: object) -> dict[str, Any]:
    """An uploaded lighthouse position, checked against its kit (docs/lighthouse.md, "Formats").

    Parameters
    ----------
    body : object
        The kit as for :func:`lighthouse_kit`, and ``position``.

    Returns
    -------
    dict
        ``Position.to_dict()``.

    Raises
    ------
    InvalidInput
        Naming the field (``position.boat``).

    Examples
    --------
    >>> check_position({"islands": 1, "position": {"discs": [[]], "boat": 0, "maurice": 0}})
    {'discs': [[]], 'boat': 0, 'maurice': 0}
    """
    question = lighthouse.LighthousePosition.read(body, spelling="key")
    return question.chosen_position(question.chosen_kit()).to_dict()


def _read_lighthouse(body: object) -> dict[str, Any]:
    """The advice request, read with the library's declaration, its position and roll
    checked against the kit before any job starts."""
    question = lighthouse.LighthouseAdvice.read(body, spelling="key")
    kit = question.chosen_kit()
    position, roll = question.chosen_position(kit), question.chosen_roll(kit)
    return {"advice": question.model_copy(update={"kit": kit, "position": position, "roll": roll})}


def _run_lighthouse(
    args: dict[str, Any], report: Callable[[int, int], None] | None = None
) -> dict[str, Any]:
    """The advice; never a progress bar (it would print on the server's console)."""
    return lighthouse.answer_advice(args["advice"], progress=False, on_progress=report).to_dict()


class LighthouseTables:
    """Lighthouse advice that keeps the last kit's optimal table between requests.

    The table of a kit comes from the user's cache when it is there
    (:func:`isles.lighthouse.load_table`); otherwise the first request solves
    the whole table and saves it (:func:`isles.lighthouse.solve_cached`: the
    real game's 8 islands in about 12 to 17 s on 2 idle cores, 11 s once numba has
    compiled, its values streamed to the
    cache's file), and every later roll reads it (milliseconds). The table is
    the cache's file, memory-mapped, so every process that answers the same
    kit shares one copy in the page cache; a second process asking while the
    first solves waits for it and reads its file. Where the cache cannot be
    written, each roll is answered by :func:`isles.lighthouse.best_move` from
    the positions that can follow. Every answer is the one ``best_move`` gives.

    Parameters
    ----------
    report : callable, optional
        Called with the fraction of the table's solve done so far (0..1:
        compiling, building the classes, valuing them)
        while a table is solved: the job's progress (no progress bar is ever
        printed on the server's console).

    Examples
    --------
    >>> tables = LighthouseTables()
    >>> body = {"islands": 1, "sea_cards": 2, "roll": ["red", "red"],
    ...         "position": {"discs": [[]], "boat": 0, "maurice": 0}}
    >>> kit = lighthouse.default_kit(1, 2)
    >>> roll = lighthouse.Roll.from_faces(kit, ("red", "red"))
    >>> same = lighthouse.best_move(kit, lighthouse.Position(((),), boat=0, maurice=0), roll)
    >>> asked = _read_lighthouse(body)
    >>> tables(asked) == same.to_dict() and tables(asked) == same.to_dict()
    True
    """

    def __init__(self, report: Callable[[float], None] | None = None) -> None:
        self._kit: lighthouse.Kit | None = None
        self._solution: lighthouse.LighthouseSolution | None = None
        self._report = report

    def _progress(self, done: int, total: int) -> None:
        if self._report is not None and total > 0:
            self._report(done / total)

    def __call__(self, args: dict[str, Any]) -> dict[str, Any]:
        question = args["advice"]
        if question.exact:  # Fractions are never cached: the library answers (or refuses)
            return _run_lighthouse(args)
        kit = question.chosen_kit()
        if self._solution is None or kit != self._kit:
            self._solution = None  # the old table goes before the new one is read
            self._kit = kit
            self._solution = lighthouse.load_table(kit)
            if self._solution is None and len(kit.islands) <= SOLVE_WHOLE_ISLANDS:
                try:
                    writable_cache_dir()
                except InvalidInput:  # nowhere to keep it: each roll on its own
                    return _run_lighthouse(args, self._progress)
                self._solution = lighthouse.solve_cached(
                    kit, progress=False, on_progress=self._progress
                )
        if self._solution is None:
            return _run_lighthouse(args, self._progress)
        return lighthouse.advise(self._solution, question.position, question.roll).to_dict()


#: Kits of at most this many islands (every kit: the real game's 8 too) are solved
#: whole on their first request and kept in the user's cache.
SOLVE_WHOLE_ISLANDS = 8


TASKS = {"lighthouse": Task(_read_lighthouse, _run_lighthouse, 300.0, LighthouseTables)}
