"""Every question isles answers, declared once (docs/json.md, "Questions").

One module per game; :data:`QUESTIONS` finds each declaration by its name.
The library validates a call with the declaration, the command line derives
its options from it (``isles.options``) and the web app reads its requests
with it.
"""

from isles.models.contract import Question
from isles.models.questions.lighthouse import (
    LighthouseAdvice,
    LighthouseContest,
    LighthouseOdds,
    LighthouseTable,
)
from isles.models.questions.rally import Trip

__all__ = [
    "QUESTIONS",
    "LighthouseAdvice",
    "LighthouseContest",
    "LighthouseOdds",
    "LighthouseTable",
    "Trip",
]

#: Each question's declaration, by name.
QUESTIONS: dict[str, type[Question]] = {
    "trip": Trip,
    "lighthouse_odds": LighthouseOdds,
    "lighthouse_advice": LighthouseAdvice,
    "lighthouse_table": LighthouseTable,
    "lighthouse_contest": LighthouseContest,
}
