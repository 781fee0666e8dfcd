"""User corrections: what a person typed to say the assistant did something wrong or left it out.

:func:`find_corrections` takes the text of one human-typed prompt and
returns the correction sentences in it.  A sentence counts when it carries
one of the correction phrases (:data:`CORRECTION`) and none of the
false-positive signs: it is a question, a polite request ("could you…"),
about the speaker rather than the assistant ("I forgot"), hypothetical
("if you forgot"), or inside quoted, fenced or pasted text (see
:mod:`forewarn.learning.text`).
"""

import re

from .text import own_sentences

CORRECTION = re.compile(
    r"\byou\s+(?:forgot|missed|didn'?t|did\s+not|never|skipped|overlooked|neglected|should\s+have|shouldn'?t\s+have)\b|"
    r"\bbut\s+you\s+(?:also\s+)?need\b|\byou\s+also\s+need(?:ed)?\s+to\b|"
    r"\bdon'?t\s+forget\b|\bremember\s+to\b|\bmake\s+sure\s+(?:you|to)\b|"
    r"\bthat'?s\s+(?:wrong|incorrect|not\s+right)\b|\bthis\s+is\s+wrong\b|\bwrong\s+(?:file|command|version|place)\b|"
    r"\bi\s+(?:told|asked)\s+you\b|\bnot\s+what\s+i\s+asked\b|"
    r"\buse\s+[\w.\-/]+(?:\s+[\w.\-/]+){0,2}\s+(?:not|instead\s+of|rather\s+than)\s+[\w.\-/]+",
    re.I,
)
QUESTION_START = re.compile(r"^(?:could|can|would|will|should|did|do|does|is|are|have|has|why|what|how|when|where|which)\b", re.I)
POLITE = re.compile(r"^(?:(?:please|pls|kindly)[,\s]+)?(?:could|can|would|will)\s+you\b|^would\s+it\s+be\b|^if\s+you\s+(?:could|can|have\s+time)\b", re.I)
SELF = re.compile(r"\b(?:i|we)\s+(?:forgot|missed|didn'?t)\b", re.I)
HYPOTHETICAL = re.compile(r"\b(?:if|in\s+case|whether|unless)\s+you\s+(?:forgot|missed|didn'?t)\b", re.I)
PRAISE = re.compile(r"\byou\s+didn'?t\s+(?:break|miss)\s+anything\b|\bnothing\s+(?:you\s+)?(?:forgot|missed)\b", re.I)


def is_false_positive(sentence):
    """True when a sentence with a correction phrase is not a correction."""
    s = sentence.strip()
    if s.endswith("?") or QUESTION_START.match(s):
        return True
    if POLITE.match(s):
        return True
    if SELF.search(s) and not re.search(r"\byou\b", s, re.I):
        return True
    return bool(HYPOTHETICAL.search(s) or PRAISE.search(s))


SHORT = 5  # words: "Wrong file." says little without the sentence after it


def find_corrections(prompt_text):
    """The correction sentences of one human prompt, in order.

    A very short correction ("Wrong file.") is joined with the sentence that
    follows it, which usually says what is right.
    """
    found = []
    if not prompt_text or not CORRECTION.search(prompt_text):  # one scan decides for most prompts
        return found
    sentences = own_sentences(prompt_text)
    for i, sentence in enumerate(sentences):
        if CORRECTION.search(sentence) and not is_false_positive(sentence):
            if len(sentence.split()) < SHORT and i + 1 < len(sentences):
                sentence = sentence + " " + sentences[i + 1]
            found.append(sentence)
    return found
