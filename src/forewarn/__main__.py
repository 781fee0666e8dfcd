"""``python -m forewarn``: the CLI (forewarn.cli)."""

import sys

from .cli import main

sys.exit(main())
