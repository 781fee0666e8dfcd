"""Work that must not hold up a hook: a detached ``python -S -m forewarn.<module>`` process.

Contract: :func:`spawn` starts the module with this interpreter in a new
session (so Claude Code's end of the hook does not end it), with stdin,
stdout and stderr on /dev/null and forewarn's ``src`` first on
``PYTHONPATH``; it never waits and never raises (a failure is logged and
returned as False).  Used for index rebuilds of large knowledge bases and
for preparing the optional environment.
"""

import os
import sys


def spawn(module, *args):
    """Start ``python -S -m forewarn.<module> <args>`` detached; True if it started."""
    try:
        import subprocess

        src = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        env = dict(os.environ)
        env["PYTHONPATH"] = src + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        subprocess.Popen(
            [sys.executable, "-S", "-m", "forewarn." + module, *args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=env,
            start_new_session=True,
            close_fds=True,
        )
        return True
    except Exception as exc:
        from .log import log

        log(module, "could not start a detached process: %s" % exc)
        return False
