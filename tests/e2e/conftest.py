"""Fixtures for the end-to-end tests: the pinned Claude Code binary (installed once per run) and a per-test sandbox.

Without node/npm (or when the npm install fails) the tests are skipped with
the reason, except under ``CI=true``, where they fail: CI must not go green
by skipping them.
"""

import os

import pytest

from claude_code import Sandbox, Unavailable, ensure_claude


def _in_ci():
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes", "on")


def pytest_collection_modifyitems(items):
    here = os.path.dirname(os.path.abspath(__file__))
    for item in items:
        if str(item.fspath).startswith(here + os.sep):
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def claude():
    """The path of the pinned ``claude`` binary (tests/e2e/install_claude_code.py)."""
    try:
        return ensure_claude()
    except Unavailable as exc:
        reason = str(exc)
    if _in_ci():
        pytest.fail("the end-to-end tests must run in CI (CI=true) but cannot: %s" % reason, pytrace=False)
    pytest.skip("Claude Code is not available: %s" % reason)


@pytest.fixture
def sandbox(claude, tmp_path):
    """A fresh HOME, git project and plugin data folder; every ``sandbox.run`` in one test shares them."""
    return Sandbox(claude, tmp_path)
