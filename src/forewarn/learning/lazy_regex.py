"""Regular expressions compiled on first use.

The Stop hook is a new process at the end of every turn, and compiling the
lesson detectors' patterns used to be the largest part of its start.  Most
turns never need the patterns that confirm, reject or describe a candidate
lesson, only the few gate patterns (compiled at import, with ``re.compile``).
:class:`lazy` takes what ``re.compile`` takes and behaves like the compiled
pattern (``search``, ``match``, ``sub``, ``finditer``, …), compiling it the
first time one of those is used; ``pattern`` and ``flags`` are known without
compiling.
"""

import re


class lazy:
    __slots__ = ("pattern", "_flags", "_compiled")

    def __init__(self, pattern, flags=0):
        self.pattern = pattern
        self._flags = flags
        self._compiled = None

    @property
    def flags(self):
        return self.compiled().flags

    def compiled(self):
        """The ``re.Pattern``, compiled now if it was not yet."""
        if self._compiled is None:
            self._compiled = re.compile(self.pattern, self._flags)
        return self._compiled

    def __getattr__(self, name):  # search, match, sub, finditer, …: only reached for what __slots__ lacks
        return getattr(self.compiled(), name)

    def __repr__(self):
        return "lazy(%r)" % (self.pattern,)
