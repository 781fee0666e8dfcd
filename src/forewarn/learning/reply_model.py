"""Does a reply to what the assistant just did correct it?  A small logistic model over the reply's words.

The patterns of :mod:`forewarn.learning.corrections` know the shapes people
use to correct ("you forgot…", "we don't…", "this breaks…"); written by
people they have never seen, most corrections come in other words.  This
model reads a reply as a whole: its words and word pairs, how it opens,
how long it is, whether it asks, how much of it repeats what was just done
(files, commands, the assistant's words) and which tools were used.

Contract: :func:`probability` takes the person's prompt, the tool calls
``[(name, input)]`` of the turn it answers and that turn's assistant texts,
and returns a probability in [0, 1]; :func:`says_correction` compares it
with the trained threshold, :func:`says_request` with :data:`REQUEST`.
Only the capture calls it, and only for a prompt right after a turn that
changed files or ran commands.  The weights
are data, ``reply_model.json``, written by
``tests/learning/train_reply_model.py`` from the labelled corpus (the
replies after an action, and the corpus's session-opening requests put
after an edit as replies that correct nothing); a test retrains and checks
the file is current.  Missing or unreadable weights: no reply is read as a
correction by the model (the patterns still are).  Standard library only;
the file is read once per process, on first use, from its marshal copy in
the data folder once one was made (:mod:`forewarn.marshal_cache`).
"""

import json
import math
import os

from .. import marshal_cache
from .corrections import CORRECTION
from .lazy_regex import lazy
from .text import LOG_LINE, LONG_MESSAGE, own_sentences

WEIGHTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "reply_model.json")
TOKEN = lazy(r"[\w']+|\?\?|[?!]")  # \w: "mínimo" and "põe" are words too
CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"  # kana and CJK ideographs
CJK_RUN = lazy("[%s]+" % CJK)
CJK_SPLIT = lazy("([%s]+)" % CJK)
FILE_NAME = lazy(r"(?<![\w-])[\w-]{1,80}\.[a-z]{1,5}\b")  # from a word's start: no backtracking through "aaaa…"
QUOTING = ("\n", "`", "~~~", '"', "\u201c", "\u2018", " '", ">")  # a prompt holding none quotes or pastes nothing
MAX_TOKENS = 80  # the opening of a reply says what it is about; a long paste adds nothing
CONTENT_WORD = 4  # characters: shorter words say nothing about what was done
LAST_TEXTS = 2  # assistant texts of the answered turn that count as "what was just done"
LAST_CALLS = 10  # and tool calls
DONE_CHARS = 1000  # of each: a written file's content says less about the reply than its path
KNOWN_WORDS = 0.5  # share of a reply's words the model must have weights for before it may call the reply a request
REQUEST = 0.1  # under this probability a reply the patterns read as pushback is a request (measured: docs/process-knowledge.md)

_model = None
UNAVAILABLE = (0.0, {}, 2.0)  # no weights: nothing reaches a threshold above 1, and nothing is taken for a request


def tokens(text):
    """Lower-case words, ``??``, ``?`` and ``!`` of ``text``, in order.  Japanese and Chinese, written without
    spaces, give a run of their characters as its overlapping pairs ("不要直接" -> "不要", "要直", "直接"): a whole
    run is a clause no other reply repeats."""
    found = TOKEN.findall(text.lower().replace("\u2019", "'"))
    if text.isascii():
        return found
    out = []
    for token in found:
        if not CJK_RUN.search(token):
            out.append(token)
            continue
        for part in CJK_SPLIT.split(token):
            if len(part) > 1 and CJK_RUN.fullmatch(part):
                out.extend(part[i:i + 2] for i in range(len(part) - 1))
            elif part:
                out.append(part)
    return out


def _own_text(prompt):
    """The person's own words of ``prompt``: one line with nothing quoted, fenced or pasted is all theirs, as it is
    (most replies: no sentence splitting needed); anything else goes through :func:`own_sentences`."""
    if len(prompt) < LONG_MESSAGE and not any(mark in prompt for mark in QUOTING) and not LOG_LINE.match(prompt):
        return prompt.strip()
    return " ".join(own_sentences(prompt, phrases=CORRECTION))


def features(prompt, tool_calls=(), texts=()):
    """The set of feature names of a reply (its own words only: quotes, code and pastes are left out)."""
    own = _own_text(prompt or "")
    words = tokens(own)[:MAX_TOKENS]
    found = {"w:" + w for w in words}
    found.update("b:%s_%s" % pair for pair in zip(words, words[1:]))
    if words:
        found.add("first:" + words[0])
    if len(words) > 1:
        found.add("first2:%s_%s" % (words[0], words[1]))
    found.add("len:%d" % min(6, int(math.log2(len(words) + 1))))
    if own.rstrip().endswith("?"):
        found.add("asks")
    done = (" ".join(_strings(tool_input, DONE_CHARS) for _name, tool_input in tool_calls[-LAST_CALLS:]) + " " + " ".join(
        text[:DONE_CHARS] for text in texts[-LAST_TEXTS:])).lower()
    content = [w for w in words if len(w) >= CONTENT_WORD]
    if content:  # substring tests, not a tokenisation of what was done: a reply is short, a tool input is not
        found.add("repeats:%d" % int(4 * sum(w in done for w in content) / len(content)))
    if any(name.lower() in done for name in FILE_NAME.findall(own)):
        found.add("names_a_file_just_changed")
    found.update("tool:" + name for name, _input in tool_calls[-3:])
    return found


def _strings(value, budget):
    """The strings inside a tool input, each cut, up to ``budget`` characters in all: a 20 MB Write costs nothing."""
    found, stack = [], [value]
    while stack and budget > 0:
        item = stack.pop()
        if isinstance(item, str):
            found.append(item[:budget])
            budget -= len(found[-1]) + 1
        elif isinstance(item, dict):
            stack.extend(reversed(list(item.values())))
        elif isinstance(item, (list, tuple)):
            stack.extend(reversed(item))
    return " ".join(found)


def logistic(z):
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def _read_weights(path):
    """``(bias, {feature: weight}, threshold)`` from the weights file."""
    with open(path, encoding="utf-8") as handle:
        data = json.load(handle)
    return float(data["bias"]), {str(f): float(w) for f, w in data["weights"].items()}, float(data["threshold"])


def _load():
    global _model
    if _model is None:
        try:
            _model = marshal_cache.load(WEIGHTS, "reply_model", _read_weights)
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            _model = UNAVAILABLE
    return _model


def use(model):
    """Replace the loaded weights (``{"bias", "weights", "threshold"}``; None: read the file again)."""
    global _model
    _model = None if model is None else (float(model["bias"]), dict(model["weights"]), float(model["threshold"]))


def probability(prompt, tool_calls=(), texts=()):
    bias, weights, _threshold = _load()
    return logistic(bias + sum(weights.get(f, 0.0) for f in features(prompt, tool_calls, texts)))


def says_request(prompt, tool_calls=(), texts=()):
    """True when the model is nearly sure ``prompt`` corrects nothing (probability under :data:`REQUEST`): a
    request that describes what is broken ("tflint is failing on modules/sqs-fifo, get the pipeline green").
    Only a reply most of whose words the model has weights for: in a language it was never trained on ("bakit
    mo ginalaw yung migration?") its bias alone would overrule the patterns."""
    model = _load()
    if model is UNAVAILABLE:
        return False
    words = tokens(_own_text(prompt or ""))[:MAX_TOKENS]
    if not words or sum("w:" + w in model[1] for w in words) < KNOWN_WORDS * len(words):
        return False
    return probability(prompt, tool_calls, texts) < REQUEST


def says_correction(prompt, tool_calls=(), texts=()):
    """True when the model reads ``prompt``, a reply to the turn of ``tool_calls`` and ``texts``, as a correction."""
    return probability(prompt, tool_calls, texts) >= _load()[2]
