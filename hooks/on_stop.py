#!/usr/bin/env python3
"""Stop hook: capture lessons from the session as draft knowledge (forewarn.stop_capture).

Never blocks, never makes Claude continue; always exits 0 (forewarn.hookio).
"""

import os
import sys

sys.dont_write_bytecode = False  # cache forewarn's bytecode even under PYTHONDONTWRITEBYTECODE
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src"))

from forewarn import hookio, stop_capture  # noqa: E402

if __name__ == "__main__":
    hookio.main("Stop", stop_capture.handle, deadline=20.0)
