"""Test settings: hypothesis runs derandomized (reproducible in CI) without deadlines;
isles's cache directory (lighthouse tables) is a fresh temporary one, never the user's.

Set ``ISLES_HYPOTHESIS=random`` to explore with fresh random examples.
"""

import atexit
import os
import shutil
import tempfile

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("random", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("random" if os.environ.get("ISLES_HYPOTHESIS") == "random" else "ci")

# Tables solved by the tests (and by the commands they run) are kept out of the user's cache.
os.environ["ISLES_CACHE_DIR"] = tempfile.mkdtemp(prefix="isles-test-cache-")
atexit.register(shutil.rmtree, os.environ["ISLES_CACHE_DIR"], ignore_errors=True)
