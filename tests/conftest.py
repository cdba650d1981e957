"""Test settings: hypothesis runs derandomized (reproducible in CI) without deadlines;
isles's cache directory (lighthouse tables) is a fresh temporary one, never the user's.

Set ``ISLES_HYPOTHESIS=random`` to explore with fresh random examples.
"""

import atexit
import os
import shutil
import tempfile
import warnings
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings
from playwright.sync_api import expect

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # Starlette's note about httpx's successor
    from starlette.testclient import TestClient

settings.register_profile(
    "ci", derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("random", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("random" if os.environ.get("ISLES_HYPOTHESIS") == "random" else "ci")

# The browser tests wait for what the page shows; on two shared cores a page can take
# longer than Playwright's 5 s to answer, which is no wrong answer.
expect.set_options(timeout=20_000)

# Tables solved by the tests (and by the commands they run) are kept out of the user's cache.
# The suite runs on two pytest-xdist workers: the controller makes the folder and removes
# it at the end; its workers (started with its environment) share it, one solve per kit
# under the cache's lock.
if os.environ.get("PYTEST_XDIST_WORKER") and "ISLES_TEST_CACHE_DIR" in os.environ:
    os.environ["ISLES_CACHE_DIR"] = os.environ["ISLES_TEST_CACHE_DIR"]
else:
    os.environ["ISLES_TEST_CACHE_DIR"] = tempfile.mkdtemp(prefix="isles-test-cache-")
    os.environ["ISLES_CACHE_DIR"] = os.environ["ISLES_TEST_CACHE_DIR"]
    atexit.register(shutil.rmtree, os.environ["ISLES_CACHE_DIR"], ignore_errors=True)


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    """The HTTP tests' client of ``isles serve``'s app with its defaults, one per module."""
    from isles.web import create_app  # after ISLES_CACHE_DIR is set above

    with TestClient(create_app()) as test_client:
        yield test_client
