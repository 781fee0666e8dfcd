"""Fixtures for the end-to-end tests: the pinned Claude Code binary and a per-test sandbox."""

import os

import pytest

from claude_code import Sandbox, Unavailable, ensure_claude


@pytest.fixture(scope="session")
def claude():
    try:
        return ensure_claude()
    except Unavailable as exc:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail("end-to-end tests must run in CI: %s" % exc)
        pytest.skip(str(exc))


@pytest.fixture
def sandbox(claude, tmp_path):
    return Sandbox(claude, tmp_path)
