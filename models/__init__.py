"""isles game models: immutable typed data and the rules as pure functions.

No module here imports a solver. Sources: the seed documents in ``seeds/`` and
the rule decisions documented in ``docs/`` (one file per game).
"""

import copyreg
from types import MappingProxyType
from typing import Any


def read_only(mapping: dict[Any, Any]) -> MappingProxyType[Any, Any]:
    """A read-only view of ``mapping`` (how the models keep their mappings)."""
    return MappingProxyType(mapping)


def _reduce_read_only(
    mapping: MappingProxyType[Any, Any],
) -> tuple[Any, tuple[dict[Any, Any]]]:
    return read_only, (dict(mapping),)


# The models keep their mappings read-only (MappingProxyType), which pickle cannot
# copy by itself: a read-only view of a copy lets a question read once by the web
# server travel to its job's process (docs/serve.md, "Jobs").
copyreg.pickle(MappingProxyType, _reduce_read_only)
