"""forewarn's optional tools: a private virtual environment with pydantic.

The hooks need only the standard library.  The CLI's schema validation and
export need pydantic, which a machine with only Claude Code and python3 does
not have.  So SessionStart starts a detached bootstrap that creates
``<data dir>/venv`` and installs :data:`PACKAGES` there; ``bin/forewarn``
then re-executes itself with that interpreter.  (orjson and pathspec are
not installed: measured, neither would be used; docs/benchmarks.md.)

Contract:

* :func:`status` is cheap (one small file read and stat; a non-blocking
  lock probe for an old ``building``) and never raises: ``{"state":
  "missing"|"building"|"ready"|"failed", ...}`` with ``error`` for
  ``failed``.  A bootstrap that died mid-way (``building`` for longer than
  :data:`STALE_AFTER` seconds, its lock free) and a failure older than
  :data:`RETRY_AFTER` seconds read as ``missing``, so a later SessionStart
  tries again;
* :func:`start_background_bootstrap` never blocks and never raises; it
  imports neither pip nor venv, starts nothing while a bootstrap holds the
  lock or when ``FOREWARN_NO_BOOTSTRAP`` is set, and returns whether it
  started one;
* :func:`bootstrap` (``python -m forewarn.environment bootstrap``, also
  ``forewarn env --bootstrap``) does the work under the lock, writing
  ``building`` then ``ready`` (with the installed pydantic version) or
  ``failed`` with the error.
"""

import os
import sys
import time

from . import fastjson, paths

PACKAGES = ("pydantic>=2.6,<3",)
RETRY_AFTER = 24 * 3600  # seconds before a failed bootstrap is tried again
STALE_AFTER = 1800  # seconds after which an unlocked "building" is a bootstrap that died (its own time limits add up to 22 min)
LOCK_WAIT = 2.0  # a second bootstrap waits this long for the lock, then leaves the work to the first


def env_dir():
    return os.path.join(paths.data_dir(), "venv")


def _status_file():
    return os.path.join(paths.data_dir(), "venv-status.json")


def _lock_base():
    return env_dir()  # storage.locked(env_dir()) holds <data dir>/venv.lock


def venv_python():
    """The virtual environment's interpreter (it may not exist yet)."""
    if os.name == "nt":  # pragma: no cover
        return os.path.join(env_dir(), "Scripts", "python.exe")
    return os.path.join(env_dir(), "bin", "python")


def _bootstrap_running():
    """True while a bootstrap holds the lock (probed without waiting)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: trust the status file
        return True
    try:
        fd = os.open(_lock_base() + ".lock", os.O_RDWR)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return True
    else:
        fcntl.flock(fd, fcntl.LOCK_UN)
        return False
    finally:
        os.close(fd)


def _read_status():
    """The status file's content and age in seconds, or ``(None, None)``."""
    try:
        with open(_status_file(), "rb") as handle:
            age = time.time() - os.fstat(handle.fileno()).st_mtime
            state = fastjson.loads(handle.read().decode("utf-8"))
    except (OSError, ValueError):
        return None, None
    if isinstance(state, dict) and state.get("state") in ("building", "ready", "failed"):
        return state, age
    return None, None


def status():
    """The bootstrap's state; ``missing`` when it never ran, was removed, died, or failed long ago."""
    state, age = _read_status()
    if state is None:
        return {"state": "missing"}
    if state["state"] == "ready" and not os.path.exists(venv_python()):
        return {"state": "missing", "error": "the environment was removed"}
    if state["state"] == "building" and age > STALE_AFTER and not _bootstrap_running():
        return {"state": "missing", "error": "an earlier bootstrap stopped before it finished"}
    if state["state"] == "failed" and age > RETRY_AFTER:
        return {"state": "missing", "error": "retrying after: " + " ".join(str(state.get("error", "")).split())[:200]}
    return state


def _write_status(state, **fields):
    from . import storage

    body = {"state": state, "python": venv_python(), "packages": list(PACKAGES), "pid": os.getpid()}
    body.update(fields)
    if "error" in body:
        body["error"] = str(body["error"])[-2000:]
    storage.atomic_write_bytes(_status_file(), fastjson.dumps(body).encode("ascii"))


def start_background_bootstrap():
    """Start ``python -m forewarn.environment bootstrap`` detached; True if started."""
    if os.environ.get("FOREWARN_NO_BOOTSTRAP"):
        return False
    try:
        os.makedirs(paths.data_dir(), exist_ok=True)
    except OSError:
        return False
    if _bootstrap_running():
        return False
    from .detached import spawn

    return spawn("environment", "bootstrap")


def _run(command, timeout):
    import subprocess

    proc = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout)
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout or b"").decode("utf-8", "replace").strip()
        raise RuntimeError("%s exited with %d: %s" % (" ".join(command[:4]), proc.returncode, tail))
    return proc.stdout.decode("utf-8", "replace").strip()


def bootstrap():
    """Create the environment and install the packages; returns the final state.

    Returns ``"building"`` without doing anything when another bootstrap
    holds the lock, and ``"ready"`` at once when the environment is ready.
    """
    import subprocess

    from . import storage

    try:
        with storage.locked(_lock_base(), timeout=LOCK_WAIT):
            if status().get("state") == "ready":
                return "ready"
            started = time.time()
            _write_status("building", started_at=started)
            try:
                _run([sys.executable, "-m", "venv", env_dir()], timeout=300)
                _run([venv_python(), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *PACKAGES], timeout=900)
                version = _run([venv_python(), "-c", "import pydantic; print(pydantic.VERSION)"], timeout=120)
            except (OSError, RuntimeError, subprocess.SubprocessError) as exc:
                _write_status("failed", error=exc, started_at=started, finished_at=time.time())
                return "failed"
            _write_status("ready", pydantic=version, started_at=started, finished_at=time.time())
            return "ready"
    except storage.LockTimeout:
        return "building"


if __name__ == "__main__":
    if sys.argv[1:] == ["bootstrap"]:
        print(bootstrap())
    else:
        print(fastjson.dumps(status()))
