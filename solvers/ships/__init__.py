"""Ships under winds: the solvers (docs/ships.md; seed 004_644cf972d8964df4.txt).

:data:`ANSWERS` maps each question of :mod:`isles.models.ships.questions` to the
function that answers it (``isles.answer`` reads it); the catalogue
:mod:`isles.ships` lists what a user calls.
"""

from collections.abc import Callable, Mapping

from isles.models.contract import Question
from isles.models.ships.questions import Convert, Fleet, Harvest, LogCheck, Risk, Sail
from isles.models.status import Answer
from isles.solvers.ships.conversion import Conversion
from isles.solvers.ships.conversion import conversion as _conversion
from isles.solvers.ships.fleet import FleetVoyage, fleet_voyage
from isles.solvers.ships.harvest import HarvestOutlook, harvest_outlook
from isles.solvers.ships.logbook import LogReplay, log_replay
from isles.solvers.ships.sailing import RiskReport, Voyage, risk_report, sail_voyage
from isles.solvers.work import Progress

__all__ = ["ANSWERS"]


def _answer_sail(question: Sail, *, progress: Progress = None) -> Voyage:
    return sail_voyage(question, progress=progress is True)


def _answer_fleet(question: Fleet, *, progress: Progress = None) -> FleetVoyage:
    return fleet_voyage(question, progress=progress is True)


def _answer_risk(question: Risk, *, progress: Progress = None) -> RiskReport:
    return risk_report(question, progress=progress is True)


def _answer_convert(question: Convert, *, progress: Progress = None) -> Conversion:
    return _conversion(question, progress=progress is True)


def _answer_harvest(question: Harvest, *, progress: Progress = None) -> HarvestOutlook:
    return harvest_outlook(question, progress=progress is True)


def _answer_log_check(question: LogCheck, *, progress: Progress = None) -> LogReplay:
    return log_replay(question)


#: The function that answers each question of the ships.
ANSWERS: Mapping[type[Question], Callable[..., Answer]] = {
    Sail: _answer_sail,
    Fleet: _answer_fleet,
    Risk: _answer_risk,
    Convert: _answer_convert,
    Harvest: _answer_harvest,
    LogCheck: _answer_log_check,
}
