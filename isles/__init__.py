"""isles: exact solvers for four island board games.

A small catalogue, one module per game; each lists its entry points in ``__all__``,
one function per question (the full reference is in each function's docstring,
the rule decisions in ``docs/``, the rules themselves in ``seeds/``):

``isles.rally``
    The Catan car rally (seed 002): the cheapest, fastest or affordable route
    of a car on any Catan board (``plan_route``, ``cost_field``), the best car
    of each start group (``choose_start``), the rally as it is played
    (``plan_income``) and races (``race_cars``). docs/rally.md, docs/boards.md.
``isles.plunder``
    Plunder (seed 003): what a record of yes/no answers proves, in one call
    (``analyse``): consistency or a smallest conflict, the exact odds of every
    card, forced values with their smallest proofs, flip and guess advice;
    whole games between policies and tournaments. docs/plunder.md.
``isles.layout``
    Catan boards (seeds 002 and 004): the base game's island and the 5-6
    player extension's with their harbours, fairest in pips, the ships
    scenario's most colourful legal board, all proven optimal with CP-SAT;
    completion of a board on the table, the next move, named conflicts.
    docs/layout.md.
``isles.lighthouse``
    The cooperative lighthouse game (seed 000): the odds of a kit in one call,
    the best move for a roll, the difficulty table, the competitive variant.
    docs/lighthouse.md.
``isles.ships``
    Ships under winds (seed 004): a ship's voyage, a fleet's, collision and
    pirate risk, a ship becoming a settlement, the cargo on the way, a log
    book replayed. docs/ships.md.

Shared names at the top level: :func:`answer` (any question of any game, read
or built, answered: what the command line and the web app call); the Catan
board the rally, the boards and the ships are played on (:class:`Board` of
:class:`Tile` on :class:`Hex`, with :class:`Terrain`, :class:`Resource`,
harbours (:class:`HarbourKind`), buildings (:class:`Building`,
:class:`BuildingKind`), roads and ships on an :class:`Edge`, buildings on a
:class:`Vertex`); :class:`Status` (what a result is); :class:`IslesError`
(every error isles raises on purpose) and :class:`InvalidInput`; the user's
cache (:func:`cache_dir`, :func:`cache_entries`, :func:`clear_cache`,
:class:`CacheEntry`). Every result type has ``to_dict()`` in the dialect of
docs/json.md; the ``isles`` command line prints exactly that with ``--json``.

Examples
--------
>>> import isles
>>> route = isles.rally.plan_route(isles.rally.beginner_board(), (0, -3))
>>> str(route.status), route.total_cards
('optimal', 24)
>>> trip = isles.rally.Trip.read({"board": isles.rally.beginner_board(), "start": [0, -3]})
>>> isles.answer(trip).to_dict()["total_cards"]  # a Route, as plan_route answers
24
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, overload

if TYPE_CHECKING:
    from isles import layout, lighthouse, plunder, rally, ships
    from isles.models.board import Board
    from isles.models.catan import Building, BuildingKind, HarbourKind, Resource, Terrain, Tile
    from isles.models.contract import Question
    from isles.models.errors import InvalidInput, IslesError
    from isles.models.hexgrid import Edge, Hex, Vertex
    from isles.models.status import Answer, Status
    from isles.solvers.usercache import CacheEntry, cache_dir, cache_entries, clear_cache
    from isles.solvers.work import Progress

__version__ = "0.1.0"

__all__ = [
    "Board",
    "Building",
    "BuildingKind",
    "CacheEntry",
    "Edge",
    "HarbourKind",
    "Hex",
    "InvalidInput",
    "IslesError",
    "Resource",
    "Status",
    "Terrain",
    "Tile",
    "Vertex",
    "__version__",
    "answer",
    "cache_dir",
    "cache_entries",
    "clear_cache",
    "layout",
    "lighthouse",
    "plunder",
    "rally",
    "ships",
]

_GAMES = ("layout", "lighthouse", "plunder", "rally", "ships")
_SHARED = {
    "Board": "isles.models.board",
    "Building": "isles.models.catan",
    "BuildingKind": "isles.models.catan",
    "HarbourKind": "isles.models.catan",
    "Resource": "isles.models.catan",
    "Terrain": "isles.models.catan",
    "Tile": "isles.models.catan",
    "Edge": "isles.models.hexgrid",
    "Hex": "isles.models.hexgrid",
    "Vertex": "isles.models.hexgrid",
    "InvalidInput": "isles.models.errors",
    "IslesError": "isles.models.errors",
    "Status": "isles.models.status",
    "CacheEntry": "isles.solvers.usercache",
    "cache_dir": "isles.solvers.usercache",
    "cache_entries": "isles.solvers.usercache",
    "clear_cache": "isles.solvers.usercache",
}


@overload
def answer(
    question: rally.Trip, *, progress: Progress = None
) -> rally.Route | rally.StartChoice: ...
@overload
def answer(question: rally.Drive, *, progress: Progress = None) -> rally.IncomePlan: ...
@overload
def answer(question: rally.Race, *, progress: Progress = None) -> rally.RaceResult: ...
@overload
def answer(question: plunder.RecordAnalysis, *, progress: Progress = None) -> plunder.Analysis: ...
@overload
def answer(question: plunder.DigQuestion, *, progress: Progress = None) -> plunder.DigAdvice: ...
@overload
def answer(
    question: plunder.TournamentQuestion, *, progress: Progress = None
) -> plunder.Tournament: ...
@overload
def answer(
    question: layout.Layout, *, progress: Progress = None
) -> layout.LayoutResult | layout.LayoutSeries | layout.NextMove: ...
@overload
def answer(
    question: lighthouse.LighthouseOdds, *, progress: Progress = None
) -> lighthouse.Odds: ...
@overload
def answer(
    question: lighthouse.LighthouseAdvice, *, progress: Progress = None
) -> lighthouse.Advice: ...
@overload
def answer(
    question: lighthouse.LighthouseTable, *, progress: Progress = None
) -> lighthouse.DifficultyTable: ...
@overload
def answer(
    question: lighthouse.LighthouseContest, *, progress: Progress = None
) -> lighthouse.CompetitiveSolution | lighthouse.CompetitiveSimulation: ...
@overload
def answer(question: ships.Sail, *, progress: Progress = None) -> ships.Voyage: ...
@overload
def answer(question: ships.Fleet, *, progress: Progress = None) -> ships.FleetVoyage: ...
@overload
def answer(question: ships.Risk, *, progress: Progress = None) -> ships.RiskReport: ...
@overload
def answer(question: ships.Convert, *, progress: Progress = None) -> ships.Conversion: ...
@overload
def answer(question: ships.Harvest, *, progress: Progress = None) -> ships.HarvestOutlook: ...
@overload
def answer(question: ships.LogCheck, *, progress: Progress = None) -> ships.LogReplay: ...
def answer(question: Question, *, progress: Progress = None) -> Answer:
    """The answer to any question of isles: what the command line and the web app call.

    A question is a class of a game's catalogue (``isles.rally.Trip``,
    ``isles.plunder.RecordAnalysis``, ...; docs/json.md, "Questions"), built
    with its ``read`` (a request's JSON, a mapping) or its ``ask`` (keyword
    arguments), which validate every field. The game's solver answers it, as
    the catalogue's function for that question does (``isles.rally.plan_route``
    builds a ``Trip`` and answers it so).

    Parameters
    ----------
    question : Question
        A validated question of one of the five games.
    progress : bool, None or callable
        ``True`` a progress bar on stderr, ``False`` none, ``None`` a bar when
        stderr is a terminal and the work takes over a second; a callable is
        told the fraction of the work done (0..1) where the solver can say it.

    Returns
    -------
    Answer
        The game's result type for that question: its ``status`` and ``to_dict()``.

    Raises
    ------
    InvalidInput
        ``question`` is no question of isles, or what the solve checks on the
        board or the record (named by the question's field).

    Examples
    --------
    >>> import isles
    >>> odds = isles.answer(isles.lighthouse.LighthouseOdds.read({"islands": 1, "sea_cards": 2}))
    >>> odds.status, odds.method
    (<Status.OPTIMAL: 'optimal'>, 'dp')
    >>> isles.answer("odds")
    Traceback (most recent call last):
    ...
    isles.models.errors.InvalidInput: question: 'odds' is invalid; expected a question of ...
    """
    # Loaded here, not with isles: the command line starts with nothing imported (see below).
    from isles.models.contract import Question
    from isles.models.errors import InvalidInput
    from isles.models.questions import game_of

    if not isinstance(question, Question):
        raise InvalidInput(
            "question", question, "a question of a game's catalogue (isles.rally.Trip, ...)"
        )
    from isles.solvers.work import check_progress

    check_progress(progress)
    solvers = importlib.import_module(f"isles.solvers.{game_of(type(question))}")
    answering = solvers.ANSWERS.get(type(question))
    if answering is None:  # a part of a question (a kit, a position) asks nothing alone
        asked = ", ".join(sorted(q.__name__ for q in solvers.ANSWERS))
        raise InvalidInput("question", type(question).__name__, f"one of {asked}")
    return answering(question, progress=progress)  # type: ignore[no-any-return]


def __getattr__(name: str) -> object:
    # Everything loads on first use: the game modules bring their solver
    # libraries (Z3, OR-Tools, SciPy), and the command line starts with nothing
    # imported, so that Ctrl-C is handled from its very first instruction.
    if name in _GAMES:
        return importlib.import_module(f"isles.{name}")
    if name in _SHARED:
        return getattr(importlib.import_module(_SHARED[name]), name)
    raise AttributeError(f"module 'isles' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(__all__)
