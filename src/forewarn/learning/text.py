"""Sentence-level views of a message that keep quoted and pasted material out of the detectors.

:func:`own_sentences` drops fenced code, indented code, ``>`` quotes and
text in double quotes or backticks, keeps at most the first
``head_chars`` of a long message (where the person's own framing is; pasted
logs follow it), and splits the rest into sentences with their end
punctuation.
"""

import re

FENCE = re.compile(r"```.*?(?:```|\Z)|~~~.*?(?:~~~|\Z)", re.S)
INLINE = re.compile(r"`[^`\n]*`|\"[^\"\n]{0,300}\"|“[^”\n]{0,300}”")
SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s+|\n+")
LONG_MESSAGE = 1500


def own_sentences(text, head_chars=600):
    """The author's own sentences in ``text`` (stripped, with their final punctuation)."""
    if not text:
        return []
    text = FENCE.sub(" ", text)
    lines = [ln for ln in text.splitlines() if not ln.lstrip().startswith(">") and not ln.startswith("    ") and not ln.startswith("\t")]
    text = "\n".join(lines)
    if len(text) > LONG_MESSAGE:
        text = text[:head_chars]
    text = INLINE.sub(" ", text)
    return [s.strip() for s in SENTENCE_BREAK.split(text) if len(s.strip()) > 3]
