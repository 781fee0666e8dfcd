"""Lesson statements: "lesson learned: …", "from now on …", said by the user or the assistant.

:func:`find_statements` returns the sentences of a message that state a
lesson for the future.  "important:" is common in ordinary summaries, so a
statement must also read as guidance (a normative or imperative verb), and
questions, quoted and pasted text are ignored as for corrections.
"""

import re

from .text import own_sentences

STATEMENT = re.compile(
    r"\blesson(?:s)?\s+learned\s*[:\-]|\bnote\s+(?:for|to)\s+(?:the\s+)?(?:future|self)\s*[:\-]|\bimportant\s*:|"
    r"\bgoing\s+forward\b|\bfrom\s+now\s+on\b|\bremember\s+that\b|\bin\s+(?:the\s+)?future\s*,|\bnext\s+time\b",
    re.I,
)
GUIDANCE = re.compile(
    r"\b(?:always|never|must|should|shouldn'?t|needs?|requires?|make\s+sure|don'?t|do\s+not|avoid|remember|"
    r"use|run|check|update|add|keep|bump|verify|ensure|before|after|instead)\b",
    re.I,
)


def find_statements(text):
    """The lesson-statement sentences of a message, in order."""
    found = []
    if not text or not STATEMENT.search(text):  # most messages hold no statement: one scan decides
        return found
    for sentence in own_sentences(text):
        s = sentence.strip()
        if s.endswith("?"):
            continue
        match = STATEMENT.search(s)
        if match and GUIDANCE.search(s[match.end():] or s):
            found.append(s)
    return found
