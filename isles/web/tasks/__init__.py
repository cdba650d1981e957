"""What each page of ``isles serve`` asks the library: request JSON in, ``to_dict()`` out.

Implements docs/serve.md ("Endpoints"): one module per game, each with its
jobs (:data:`TASKS`) and the checks its page calls; every request is read
with the library's own readers (unknown and missing keys refused, errors
naming the field), every answer is exactly a catalogue result's ``to_dict()``
(docs/json.md).
"""

from isles.web.tasks import layout, lighthouse, plunder, rally
from isles.web.tasks.base import Task
from isles.web.tasks.layout import layout_rules
from isles.web.tasks.lighthouse import check_position, lighthouse_kit
from isles.web.tasks.plunder import DIG_SAMPLES, check_record, plunder_example
from isles.web.tasks.rally import BOARD_SOURCES, check_board, rally_beginner, rally_towns

__all__ = [
    "BOARD_SOURCES",
    "DIG_SAMPLES",
    "TASKS",
    "Task",
    "check_board",
    "check_position",
    "check_record",
    "layout_rules",
    "lighthouse_kit",
    "plunder_example",
    "rally_beginner",
    "rally_towns",
]

#: Every kind of job, by the name in its endpoint (``POST /api/solve/<name>``).
TASKS: dict[str, Task] = {
    **plunder.TASKS,
    **lighthouse.TASKS,
    **rally.TASKS,
    **layout.TASKS,
}
