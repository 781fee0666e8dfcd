"""forewarn's optional environment: status, the detached bootstrap, and bin/forewarn using it."""

import json
import os
import subprocess
import sys

import pytest

from forewarn import environment

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture
def data(tmp_path, monkeypatch):
    monkeypatch.setenv("FOREWARN_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("FOREWARN_NO_BOOTSTRAP", raising=False)
    return tmp_path / "data"


def test_status_states(data):
    assert environment.status() == {"state": "missing"}
    data.mkdir()
    (data / "venv-status.json").write_text(json.dumps({"state": "failed", "error": "no network"}))
    assert environment.status()["error"] == "no network"
    (data / "venv-status.json").write_text(json.dumps({"state": "ready"}))
    assert environment.status()["state"] == "missing"  # ready, but the interpreter is gone
    (data / "venv-status.json").write_text("{not json")
    assert environment.status() == {"state": "missing"}


def test_opt_out_starts_nothing(data, monkeypatch):
    monkeypatch.setenv("FOREWARN_NO_BOOTSTRAP", "1")
    assert environment.start_background_bootstrap() is False
    assert not data.exists()


def test_real_bootstrap_then_cli_uses_it(data, tmp_path):
    """Creates the virtual environment for real (pip reaches PyPI here); the slowest test of the suite."""
    assert environment.bootstrap() == "ready", environment.status()
    python = environment.venv_python()
    assert subprocess.run([python, "-c", "import pydantic"]).returncode == 0
    project = tmp_path / "proj"
    (project / ".claude" / "graphs").mkdir(parents=True)
    run = subprocess.run([sys.executable, "-S", os.path.join(REPO, "bin", "forewarn"), "--project", str(project), "validate"],
                         capture_output=True, text=True, env=dict(os.environ))
    assert run.returncode == 0, run.stderr
    assert "not installed" not in run.stdout  # re-executed with the environment's interpreter
    assert environment.bootstrap() == "ready"  # idempotent
