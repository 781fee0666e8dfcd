"""The decision trace: one JSON line per PreToolUse decision.

Every decision (injected or not) is appended to ``<data>/trace.jsonl`` with
the call, the candidates' score terms and what was injected.  ``explain``
and later learning read it.  Appends are single ``write`` calls on an
``O_APPEND`` descriptor, so parallel hooks do not interleave lines; the file
is rotated to ``trace.jsonl.1`` past 5 MiB.  Never raises.
"""

import os
import time

from . import fastjson, paths

MAX_BYTES = 5 << 20
MAX_CANDIDATES = 8


def trace_file():
    return os.path.join(paths.data_dir(), "trace.jsonl")


def record(entry):
    """Append ``entry`` (plain data) with a timestamp; False if it could not be written."""
    entry = dict(entry)
    entry["ts"] = round(time.time(), 3)
    line = (fastjson.dumps(entry) + "\n").encode("ascii")
    path = trace_file()
    try:
        try:
            if os.stat(path).st_size > MAX_BYTES:
                os.replace(path, path + ".1")
        except OSError:
            pass
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    except OSError:
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        except OSError:
            return False
    try:
        os.write(fd, line)
        return True
    except OSError:
        return False
    finally:
        os.close(fd)
