"""Sentence-level views of a message that keep quoted and pasted material out of the detectors.

:func:`own_sentences` drops fenced code, indented code, ``>`` quotes,
lines that look like pasted log or traceback output, template lines
(``- [ ] …`` checkboxes, ``## headings``), a letter the author pastes
after their own words (from a salutation like "Hi team," on) and what follows
a line that introduces a paste ("ticket below, …", "pasting the error:"), keeps at most the
first ``head_chars`` of a long message (where the person's own framing is;
pasted material follows it), and splits the rest into sentences with their
end punctuation.  Inline spans in backticks or quotes are someone else's
words when they hold a detector phrase ("the error says `you forgot to call
init()`") and are removed; otherwise they are names the author uses ("use
`httpx` instead of `requests`") and only lose their quote marks.
"""

import re

from .lazy_regex import lazy

FENCE = lazy(r"```.*?(?:```|\Z)|~~~.*?(?:~~~|\Z)", re.S)
INLINE = lazy(
    r"`([^`\n]*)`|\"([^\"\n]{0,300})\"|“([^”\n]{0,300})”|‘([^’\n]{0,300})’|(?<![\w'])'([^'\n]{2,300}?)'(?![\w'])"
)
LOG_LINE = lazy(
    r"^\s*(?:Traceback \(most recent call last\)|File \"[^\"]+\", line \d+|at [\w$.<>]+\(|"
    r"[\w.]*(?:Error|Exception|Warning|Failure|Fault):|"
    r"(?:E|F|ERROR|WARN|WARNING|INFO|DEBUG|FATAL|CRITICAL|TRACE)\b[:\] ]|"
    r"\[(?:ERROR|WARN|WARNING|INFO|DEBUG|FATAL|CRITICAL|TRACE|error|warn|info|debug)\]|"
    r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d|\d\d:\d\d:\d\d[.,]\d|\$ |>>> |npm ERR!|make(?:\[\d+\])?: \*\*\*)"
)
TEMPLATE_LINE = lazy(r"^\s*(?:[-*+]\s+\[[ xX]\]|#{1,6}\s)")  # "- [ ] task" checkboxes, "## Heading": pasted templates
SALUTATION = lazy(r"^\s*(?:hi|hello|hey|dear|greetings|good\s+(?:morning|afternoon))\b[^,:!.?]{0,40}[,:!]", re.I)
# "ticket below, do the ansible part pls" / "pasting the error:": what follows the line is someone else's text.
PASTE_INTRO = lazy(r"\b(?:(?:ticket|email|e-mail|mail|message|log|logs|output|error|issue|thread|spec|diff|report)\s+(?:is\s+)?below|"
                   r"(?:pasting|pasted|forwarding|copied)\s+(?:the|this|it|below|here|an?)\b|below\s*[:.]|"
                   r"(?:mail|email|ticket|log),?\s+(?:pls|please)\s+(?:look|check|read)|forwarded\s+message|"
                   r"^\s*next\s+(?:one|ticket|task)\W*$|"
                   r"\bhere\s+(?:is|are)\s+(?:the|today'?s|this|a|my|our)\s+(?:[\w-]+\s+)?(?:ticket|email|mail|log|logs|error|issue|message|spec|report)|"
                   r"\bthe\s+following\s+(?:ticket|email|mail|log|logs|error|issue|message|spec|report|review\s+comments))",
                   re.I)
# An emoji ends a chat sentence; Japanese and Chinese full stops (。！？) need no space after them.
SENTENCE_BREAK = lazy(r"(?<=[.!?])\s+|\n+|(?<=[\U0001F300-\U0001FAFF\u2600-\u27BF])\s+|(?<=[\u3002\uff01\uff1f])\s*")
LONG_MESSAGE = 1500


def _inline(phrases):
    def replace(match):
        inner = next((g for g in match.groups() if g is not None), "")
        if phrases is None or phrases.search(inner):
            return " "
        return inner

    return replace


def own_sentences(text, head_chars=600, phrases=None):
    """The author's own sentences in ``text`` (stripped, with their final punctuation).

    ``phrases``: a compiled pattern; a quoted or backticked span that matches
    it is removed, any other keeps its words.  Without it every span is
    removed.
    """
    if not text:
        return []
    if "```" in text or "~~~" in text:
        text = FENCE.sub(" ", text)
    lines = []
    for line in text.splitlines():
        stripped = line.lstrip()
        if lines and SALUTATION.match(line):
            break  # "Hi team, …" after the author's own words starts a forwarded or pasted letter
        if stripped.startswith(">") or line.startswith("    ") or line.startswith("\t") or LOG_LINE.match(line) or TEMPLATE_LINE.match(line):
            continue
        lines.append(line)
        if len(lines) <= 3 and PASTE_INTRO.search(line):
            break  # the rest is the pasted ticket, email or log
    text = "\n".join(lines)
    if len(text) > LONG_MESSAGE:
        text = text[:head_chars]
    text = INLINE.sub(_inline(phrases), text)
    return [s.strip() for s in SENTENCE_BREAK.split(text) if sum(c.isalpha() for c in s) >= 2]  # "No." is one


def word_count(text):
    """Words of ``text``, counting two characters of Japanese or Chinese (written without spaces) as one."""
    cjk = sum(1 for c in text if "\u3040" <= c <= "\u30ff" or "\u4e00" <= c <= "\u9fff") if not text.isascii() else 0
    return len(text.split()) + cjk // 2
