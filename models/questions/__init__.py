"""Every question isles answers, declared once (docs/json.md, "Questions").

One module per game; :data:`QUESTIONS` finds each declaration by its name.
The library validates a call with the declaration, the command line derives
its options from it (``isles.options``) and the web app reads its requests
with it.
"""

from isles.models.contract import Question
from isles.models.questions.layout import Layout, Move, Search, Series, SetUp
from isles.models.questions.lighthouse import (
    LighthouseAdvice,
    LighthouseContest,
    LighthouseOdds,
    LighthouseTable,
)
from isles.models.questions.plunder import DigQuestion, RecordAnalysis, TournamentQuestion
from isles.models.questions.rally import Trip
from isles.models.questions.ships import Convert, Fleet, Harvest, LogCheck, Risk, Sail

__all__ = [
    "QUESTIONS",
    "Convert",
    "DigQuestion",
    "Fleet",
    "Harvest",
    "Layout",
    "LighthouseAdvice",
    "LighthouseContest",
    "LighthouseOdds",
    "LighthouseTable",
    "LogCheck",
    "Move",
    "RecordAnalysis",
    "Risk",
    "Sail",
    "Search",
    "Series",
    "SetUp",
    "TournamentQuestion",
    "Trip",
]

#: Each question's declaration, by name.
QUESTIONS: dict[str, type[Question]] = {
    "trip": Trip,
    "plunder_analysis": RecordAnalysis,
    "plunder_dig": DigQuestion,
    "plunder_tournament": TournamentQuestion,
    "sail": Sail,
    "fleet": Fleet,
    "risk": Risk,
    "convert": Convert,
    "harvest": Harvest,
    "log_check": LogCheck,
    "set-up": SetUp,
    "search": Search,
    "series": Series,
    "move": Move,
    "layout": Layout,
    "lighthouse_odds": LighthouseOdds,
    "lighthouse_advice": LighthouseAdvice,
    "lighthouse_table": LighthouseTable,
    "lighthouse_contest": LighthouseContest,
}
