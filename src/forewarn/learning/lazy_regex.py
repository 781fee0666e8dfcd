r"""Regular expressions compiled on first use.

The Stop hook is a new process at the end of every turn, and compiling the
lesson detectors' patterns used to be the largest part of its start.  Most
turns never need the patterns that confirm, reject or describe a candidate
lesson, only the few gate patterns (compiled at import, with ``re.compile``).
:class:`lazy` takes what ``re.compile`` takes and behaves like the compiled
pattern (``search``, ``match``, ``sub``, ``finditer``, …), compiling it the
first time one of those is used; ``pattern`` and ``flags`` are known without
compiling.

The detectors' large patterns are long alternations of phrases that each
start at a word boundary (``\bdon'?t\s+forget\b|\bremember\s+to\b|…``).
Written so, the engine tries every alternative at every position;
:func:`shared_boundary` compiles consecutive such alternatives as one group
behind a single ``\b`` (``\b(?:don'?t\s+forget\b|remember\s+to\b|…)``),
which matches exactly the same strings with the same spans and groups, and
is three to seven times faster on the lesson corpus.  Compiled patterns
are kept from one process to the next (:mod:`forewarn.regex_cache`).
"""

import re

from .. import regex_cache

# The pieces of a pattern that matter for finding its top-level alternatives: an escape, a character class (which
# may hold "|", "(" or an escaped "]"), a parenthesis, a bar, and runs of anything else.
_PIECE = re.compile(r"\\.|\[\^?\]?(?:\\.|[^\]\\])*\]|[()|]|[^\\\[()|]+", re.S)


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
            self._compiled = regex_cache.compile(self.pattern, self._flags, rewrite=shared_boundary)
        return self._compiled

    def __getattr__(self, name):  # search, match, sub, finditer, …: only reached for what __slots__ lacks
        return getattr(self.compiled(), name)

    def __repr__(self):
        return "lazy(%r)" % (self.pattern,)


def top_level_alternatives(pattern):
    """The alternatives of ``pattern`` split at its top-level ``|`` (not inside a group or a character class)."""
    alternatives, current, depth = [], [], 0
    for piece in _PIECE.findall(pattern):
        if piece == "(":
            depth += 1
        elif piece == ")":
            depth -= 1
        elif piece == "|" and depth == 0:
            alternatives.append("".join(current))
            current = []
            continue
        current.append(piece)
    alternatives.append("".join(current))
    return alternatives


def shared_boundary(pattern):
    """``pattern`` with each run of consecutive top-level alternatives that start with ``\\b`` written as one
    ``\\b(?:…|…)`` group: the same matches, spans and groups (order is kept), found faster."""
    out, run = [], []
    for alternative in top_level_alternatives(pattern) + [None]:
        if alternative is not None and alternative.startswith("\\b"):
            run.append(alternative[2:])
            continue
        if len(run) > 1:
            out.append("\\b(?:" + "|".join(run) + ")")
        elif run:
            out.append("\\b" + run[0])
        run = []
        if alternative is not None:
            out.append(alternative)
    return "|".join(out)
