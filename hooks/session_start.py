#!/usr/bin/env python3
"""SessionStart hook: brief the model on critical knowledge and pending drafts (forewarn.briefing).

Always exits 0 (forewarn.hookio).
"""

import os
import sys

sys.dont_write_bytecode = False  # cache forewarn's bytecode even under PYTHONDONTWRITEBYTECODE: it halves the import cost
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src"))

from forewarn import briefing, hookio  # noqa: E402

if __name__ == "__main__":
    hookio.main("SessionStart", briefing.handle, deadline=5.0)
