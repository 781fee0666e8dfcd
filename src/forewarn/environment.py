"""forewarn's optional tools: a private virtual environment with pydantic.

The hooks need only the standard library.  The CLI's schema validation and
export need pydantic, which a machine with only Claude Code and python3 does
not have.  So the first SessionStart starts a detached bootstrap that
creates ``<data dir>/venv`` and installs pydantic there;
``bin/forewarn`` then re-executes itself with that interpreter.

Contract:

* :func:`status` is cheap (reads one small JSON file): ``{"state":
  "missing"|"building"|"ready"|"failed", "error": ..., "python": ...}``;
* :func:`start_background_bootstrap` never blocks and never raises; a lock
  makes sure only one bootstrap runs; it returns whether one was started;
* ``python -m forewarn.environment bootstrap`` is the bootstrap itself
  (also usable by hand), writing ``building`` then ``ready`` or
  ``failed`` with the error.
"""

import os
import sys

from . import fastjson, paths

PACKAGES = ("pydantic>=2.6,<3",)


def env_dir():
    return os.path.join(paths.data_dir(), "venv")


def _status_file():
    return os.path.join(paths.data_dir(), "venv-status.json")


def venv_python():
    """The virtual environment's interpreter (it may not exist yet)."""
    if os.name == "nt":  # pragma: no cover
        return os.path.join(env_dir(), "Scripts", "python.exe")
    return os.path.join(env_dir(), "bin", "python")


def status():
    """The bootstrap's state; ``missing`` when it never ran."""
    try:
        with open(_status_file(), "rb") as handle:
            state = fastjson.loads(handle.read().decode("utf-8"))
        if isinstance(state, dict) and state.get("state") in ("building", "ready", "failed"):
            if state["state"] == "ready" and not os.path.exists(venv_python()):
                return {"state": "missing", "error": "the environment was removed"}
            return state
    except (OSError, ValueError):
        pass
    return {"state": "missing"}


def _write_status(state, error=None):
    from . import storage

    body = {"state": state, "python": venv_python(), "packages": list(PACKAGES)}
    if error:
        body["error"] = str(error)[-2000:]
    storage.atomic_write_bytes(_status_file(), fastjson.dumps(body).encode("ascii"))


def start_background_bootstrap():
    """Start ``python -m forewarn.environment bootstrap`` detached; True if started."""
    if os.environ.get("FOREWARN_NO_BOOTSTRAP"):
        return False
    try:
        os.makedirs(paths.data_dir(), exist_ok=True)
    except OSError:
        return False
    from .detached import spawn

    return spawn("environment", "bootstrap")


def bootstrap():
    """Create the environment and install the packages; returns the final state."""
    import subprocess

    from . import storage

    try:
        with storage.locked(os.path.join(paths.data_dir(), "venv"), timeout=0):
            if status().get("state") == "ready":
                return "ready"
            _write_status("building")
            try:
                subprocess.run([sys.executable, "-m", "venv", env_dir()], check=True, capture_output=True, timeout=300)
                subprocess.run(
                    [venv_python(), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *PACKAGES],
                    check=True,
                    capture_output=True,
                    timeout=900,
                )
            except subprocess.CalledProcessError as exc:
                _write_status("failed", (exc.stderr or b"").decode("utf-8", "replace") or exc)
                return "failed"
            except (OSError, subprocess.TimeoutExpired) as exc:
                _write_status("failed", exc)
                return "failed"
            _write_status("ready")
            return "ready"
    except storage.LockTimeout:
        return "building"


if __name__ == "__main__":
    if sys.argv[1:] == ["bootstrap"]:
        print(bootstrap())
    else:
        print(fastjson.dumps(status()))
