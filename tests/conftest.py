"""Test settings: hypothesis runs derandomized (reproducible in CI) without deadlines.

Set ``ISLES_HYPOTHESIS=random`` to explore with fresh random examples.
"""

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("random", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("random" if os.environ.get("ISLES_HYPOTHESIS") == "random" else "ci")
