"""forewarn's optional environment: status, the detached bootstrap, its lock, and bin/forewarn using it.

One test creates the environment for real (python -m venv, pip install
from the package index pip is configured with): it runs in CI like every
other test.  The others use a pip with no index (so the real bootstrap
fails fast, offline) or a stand-in environment whose interpreter is this
one.
"""

import json
import os
import subprocess
import sys
import time

import pytest

from forewarn import environment, storage

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(REPO, "bin", "forewarn")


def pip_without_packages():
    """This environment with a pip that has nowhere to get packages from: no index, no links, no config files."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
    env.update(PIP_CONFIG_FILE=os.devnull, PIP_NO_INDEX="1")
    return env


@pytest.fixture
def data(tmp_path, monkeypatch):
    monkeypatch.setenv("FOREWARN_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("FOREWARN_NO_BOOTSTRAP", raising=False)
    monkeypatch.delenv("CLAUDE_PLUGIN_DATA", raising=False)
    return tmp_path / "data"


def write_status(data, **body):
    data.mkdir(exist_ok=True)
    (data / "venv-status.json").write_text(json.dumps(body))


def wait_for(predicate, seconds=120):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return False


def test_status_states(data):
    assert environment.status() == {"state": "missing"}
    write_status(data, state="failed", error="no network", finished_at=time.time())
    assert environment.status()["state"] == "failed" and environment.status()["error"] == "no network"
    write_status(data, state="ready")
    assert environment.status() == {"state": "missing", "error": "the environment was removed"}
    (data / "venv-status.json").write_text("{not json")
    assert environment.status() == {"state": "missing"}
    write_status(data, state="unheard-of")
    assert environment.status() == {"state": "missing"}


def age(data, seconds):
    then = time.time() - seconds
    os.utime(data / "venv-status.json", (then, then))


def test_a_failure_is_retried_after_a_day(data):
    write_status(data, state="failed", error="no network")
    age(data, 3600)
    assert environment.status()["state"] == "failed"
    age(data, environment.RETRY_AFTER + 60)
    later = environment.status()
    assert later["state"] == "missing" and "no network" in later["error"]


def test_a_bootstrap_that_died_is_retried(data):
    write_status(data, state="building")
    assert environment.status()["state"] == "building"  # recent: it may still be starting
    age(data, environment.STALE_AFTER + 60)
    with storage.locked(environment.env_dir()):
        assert environment.status()["state"] == "building"  # old, but its process still holds the lock
        assert environment.start_background_bootstrap() is False  # one bootstrap at a time
    assert environment.status() == {"state": "missing", "error": "an earlier bootstrap stopped before it finished"}


def test_bootstrap_leaves_the_work_to_the_one_holding_the_lock(data):
    write_status(data, state="building", pid=1)
    with storage.locked(environment.env_dir()):
        started = time.monotonic()
        assert environment.bootstrap() == "building"
        assert time.monotonic() - started < environment.LOCK_WAIT + 1
    assert json.loads((data / "venv-status.json").read_text())["pid"] == 1  # untouched


def test_opt_out_starts_nothing(data, monkeypatch):
    monkeypatch.setenv("FOREWARN_NO_BOOTSTRAP", "1")
    assert environment.start_background_bootstrap() is False
    assert not data.exists()


def test_session_start_path_is_cheap_and_detached_and_a_failure_is_recorded(data):
    """What SessionStart does (status, then start) under python -S: no venv or pip import, no waiting.

    The detached bootstrap then really runs: it creates the environment,
    fails at pip, which has no index, and records pip's error.
    """
    probe = (
        "import sys, time; sys.path.insert(0, %r)\n"
        "started = time.perf_counter()\n"
        "from forewarn import environment\n"
        "state = environment.status()['state']\n"
        "spawned = environment.start_background_bootstrap()\n"
        "print(state, spawned, round(time.perf_counter() - started, 3), sorted(m for m in ('venv', 'pip', 'ensurepip') if m in sys.modules))\n"
    ) % os.path.join(REPO, "src")
    env = pip_without_packages()
    run = subprocess.run([sys.executable, "-S", "-c", probe], capture_output=True, text=True, env=env, timeout=30)
    state, spawned, seconds, heavy = run.stdout.split(" ", 3)
    assert (state, spawned, heavy.strip()) == ("missing", "True", "[]"), run.stdout + run.stderr
    assert float(seconds) < 0.5
    assert wait_for(lambda: environment.status()["state"] != "missing", 30)
    assert wait_for(lambda: environment.status()["state"] == "failed", 300), environment.status()
    failed = environment.status()
    assert "pip install" in failed["error"] and "pydantic" in failed["error"] and failed["finished_at"] >= failed["started_at"]


def test_bin_forewarn_uses_a_ready_environment(data, tmp_path):
    """A stand-in environment whose python is this interpreter (with pydantic): bin/forewarn under -S re-executes into it."""
    project = tmp_path / "proj"
    (project / ".claude" / "graphs").mkdir(parents=True)
    env = dict(os.environ, FOREWARN_USER_GRAPHS=str(tmp_path / "user-graphs"))
    env.pop("FOREWARN_REEXEC", None)
    command = [sys.executable, "-S", BIN, "--project", str(project), "validate"]
    assert "pydantic is not installed here" in subprocess.run(command, capture_output=True, text=True, env=env).stdout
    python = environment.venv_python()
    os.makedirs(os.path.dirname(python))
    os.symlink(sys.executable, python)
    write_status(data, state="ready", pydantic="stand-in")
    run = subprocess.run(command, capture_output=True, text=True, env=env)
    assert run.returncode == 0 and "not installed" not in run.stdout, run.stdout + run.stderr
    env_cmd = subprocess.run([sys.executable, "-S", BIN, "env"], capture_output=True, text=True, env=env)
    assert "optional environment: ready" in env_cmd.stdout and "pydantic: stand-in" in env_cmd.stdout


def test_real_bootstrap_then_cli_uses_it(data, tmp_path):
    """Creates the virtual environment for real (pip reaches PyPI); the slowest test of the suite, run in CI too."""
    assert environment.bootstrap() == "ready", environment.status()
    state = environment.status()
    assert state["pydantic"].startswith("2.")
    python = environment.venv_python()
    assert subprocess.run([python, "-c", "import pydantic"]).returncode == 0
    project = tmp_path / "proj"
    (project / ".claude" / "graphs").mkdir(parents=True)
    (project / ".claude" / "graphs" / "g.json").write_text(json.dumps({"nodes": [
        {"id": "bad", "type": "Concept", "label": "x", "process_type": "checklist", "checklist": {"items": [{"item": "a", "required": "yes"}]}}]}))
    run = subprocess.run([sys.executable, "-S", BIN, "--project", str(project), "validate"],
                         capture_output=True, text=True, env=dict(os.environ, FOREWARN_USER_GRAPHS=str(tmp_path / "ug")))
    # pydantic's finding (the built-in rules do not check 'required'): the environment's interpreter ran it
    assert run.returncode == 1 and "node bad: checklist.items.0.required: Input should be a valid boolean" in run.stdout, run.stdout + run.stderr
    assert environment.bootstrap() == "ready"  # idempotent
