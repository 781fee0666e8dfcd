"""The decision trace: one JSON line per PreToolUse decision.

Every decision (injected or not) is appended to ``<data>/trace.jsonl`` with
the call, the candidates' score terms and what was injected.  ``explain``
and later learning read it.  Parallel hooks never interleave lines, and the
file is rotated to ``trace.jsonl.1`` past 5 MiB (:mod:`forewarn.appendfile`).
Never raises.
"""

import os
import time

from . import appendfile, fastjson, paths

MAX_BYTES = 5 << 20
MAX_CANDIDATES = 8


def trace_file():
    return os.path.join(paths.data_dir(), "trace.jsonl")


def record(entry):
    """Append ``entry`` (plain data) with a timestamp; False if it could not be written."""
    entry = dict(entry)
    entry["ts"] = round(time.time(), 3)
    line = (fastjson.dumps(entry) + "\n").encode("ascii")
    try:
        appendfile.append(trace_file(), line, MAX_BYTES)
        return True
    except OSError:
        return False
