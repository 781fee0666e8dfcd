#!/usr/bin/env python3
"""PreToolUse hook: inject the knowledge that fits this tool call (forewarn.inject).

Run as ``python3 -S`` by hooks/hooks.json: the standard library and
forewarn's own modules are all it needs, and skipping ``site`` halves the
interpreter's start.  Always exits 0 (forewarn.hookio).
"""

import gc

gc.disable()  # a short-lived process: cyclic collections over the index's records would only cost time

import os  # noqa: E402
import sys  # noqa: E402

sys.dont_write_bytecode = False  # cache forewarn's bytecode even under PYTHONDONTWRITEBYTECODE: it halves the import cost
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src"))

from forewarn import hookio, inject  # noqa: E402

if __name__ == "__main__":
    hookio.main("PreToolUse", inject.handle)
