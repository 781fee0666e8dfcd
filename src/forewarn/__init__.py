"""forewarn: procedural memory for Claude Code.

Importing this package is free of side effects and imports nothing beyond
the standard library, so the hooks can import it on every tool call.
"""

__version__ = "0.1.0"
