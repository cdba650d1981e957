"""The car rally's solvers (docs/rally.md; seed 002_8684547a41c0941c.txt).

:data:`ANSWERS` maps each question of :mod:`isles.models.rally.questions` to the
function that answers it (``isles.answer`` reads it); the catalogue
:mod:`isles.rally` lists what a user calls.
"""

from collections.abc import Callable, Mapping

from isles.models.contract import Question
from isles.models.rally.questions import Drive, Race, Trip
from isles.models.status import Answer
from isles.solvers.rally.income import IncomePlan, plan_drive
from isles.solvers.rally.race import RaceResult, plan_race
from isles.solvers.rally.route import Route, StartChoice, choose_trip, plan_trip
from isles.solvers.work import Progress

__all__ = ["ANSWERS"]


def _shown(progress: Progress) -> bool | None:
    return progress if progress is None or isinstance(progress, bool) else False


def _answer_trip(trip: Trip, *, progress: Progress = None) -> Route | StartChoice:
    if trip.start is not None:
        return plan_trip(trip, progress=_shown(progress))
    return choose_trip(trip, progress=bool(_shown(progress)))


def _answer_drive(drive: Drive, *, progress: Progress = None) -> IncomePlan:
    return plan_drive(drive)


def _answer_race(race: Race, *, progress: Progress = None) -> RaceResult:
    return plan_race(race, progress=_shown(progress))


#: The function that answers each question of the rally.
ANSWERS: Mapping[type[Question], Callable[..., Answer]] = {
    Trip: _answer_trip,
    Drive: _answer_drive,
    Race: _answer_race,
}
