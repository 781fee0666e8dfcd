"""Reading Claude Code's transcript JSONL incrementally, and telling who said what.

Contracts:

* :func:`read_new_records` returns the records of the complete lines that
  start at or after ``offset`` (those that can hold a person's or the
  assistant's words: other records and plain tool results are left
  unparsed) and the offset just past the last complete line, so a half-written last line is read next time and repeated calls
  never see a record twice.  A missing or unreadable file gives
  ``([], offset)``; an ``offset`` beyond the end of the file (the file was
  replaced or truncated) restarts at 0.  A single line longer than
  ``max_bytes`` (a huge tool result) is skipped, never waited on forever.
  Lines that are not JSON objects are skipped.
* :func:`read_turn_before` returns the records of the turn that ends at
  ``offset`` (from its human prompt on), for the triggers of a correction
  that arrives in the next read.  ``[]`` at offset 0.
* Nothing here raises for odd records: every accessor returns an empty
  value for a shape it does not know.
"""

import json
import os
import re

from .lazy_regex import lazy

# A user text that starts with one of these is Claude Code's, not typed by a person.
MARKERS = ("<command-", "<local-command-", "[Request interrupted", "Stop hook feedback:", "<system-reminder>",
           "Caveat: The messages below", "This session is being continued from a previous conversation",
           "<user-memory-input>", "<bash-input>", "<bash-stdout>", "<bash-stderr>", "<task-notification>")
# Context that Claude Code or an IDE puts into a person's prompt as whole text blocks or tagged spans.
CONTEXT_BLOCK = lazy(r"<(system-reminder|ide_[a-z_]+|user-prompt-submit-hook)\b[^>]*>.*?</\1>", re.S)
# The tool_result text when a person rejects a tool call and types why (Claude Code's wording).
REJECTED_WITH_REASON = "To tell you how to proceed, the user said:"
_REJECTED_WITH_REASON = REJECTED_WITH_REASON.encode()  # what the reader looks for in undecoded lines
MACHINE_REASONS = ("The user wants to clarify these questions", "The user has answered", "The agent proposed a plan")
SKIP_CHUNK = 1 << 20


def _skip_line(handle, position):
    """The offset just past the newline at or after ``position``, or None if there is none yet."""
    handle.seek(position)
    while True:
        chunk = handle.read(SKIP_CHUNK)
        if not chunk:
            return None
        at = chunk.find(b"\n")
        if at >= 0:
            return position + at + 1
        position += len(chunk)


_DECODE = json.JSONDecoder().decode


def _parse_lines(raw):
    """The JSON objects of the lines in ``raw`` (bytes) that can be user or assistant messages.

    Lines that cannot matter are not parsed, nor even copied, and they are
    most of a long transcript: a line without the JSON string ``"user"`` or
    ``"assistant"`` (progress, attachment and hook records: its ``type`` is
    neither), and a user line that carries a ``"tool_result"`` block but not
    the words of a rejection reason (such a record is never a human prompt,
    see :func:`is_human_prompt`, and matters only through
    :func:`rejection_reason`).  Invalid UTF-8 is read with replacement
    characters.
    """
    records = []
    find, start, size = raw.find, 0, len(raw)
    while start < size:  # the lines are searched where they lie: the skipped ones are never copied out
        end = find(b"\n", start)
        end = size if end < 0 else end
        if find(b'"assistant"', start, end) >= 0 or (find(b'"user"', start, end) >= 0 and (
                find(b'"tool_result"', start, end) < 0 or find(_REJECTED_WITH_REASON, start, end) >= 0)):
            try:
                record = _DECODE(raw[start:end].decode("utf-8", "replace"))
            except ValueError:
                record = None
            if isinstance(record, dict):
                records.append(record)
        start = end + 1
    return records


def read_new_records(path, offset, max_bytes):
    """``(records, new_offset)`` for the complete lines after ``offset``, reading at most about ``max_bytes``."""
    if not path or not isinstance(path, str):
        return [], offset
    if not isinstance(offset, int) or offset < 0:
        offset = 0
    max_bytes = max(int(max_bytes), 1)
    try:
        with open(path, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            if offset > size:
                offset = 0
            handle.seek(offset)
            raw = handle.read(max_bytes)
            end = raw.rfind(b"\n")
            if end < 0:
                if len(raw) < max_bytes:
                    return [], offset  # a line still being written
                after = _skip_line(handle, offset + len(raw))  # one line longer than max_bytes: skip it
                return [], offset if after is None else after
    except OSError:
        return [], offset
    return _parse_lines(raw[: end + 1]), offset + end + 1


def read_turn_before(path, offset, max_bytes=1 << 20):
    """The records of the last turn before ``offset``: from its human prompt (included) to ``offset``.

    Reads at most ``max_bytes`` back; a turn longer than that yields its
    tail.  ``[]`` at offset 0, for a missing file or an offset past the end.
    """
    if not path or not isinstance(path, str) or not isinstance(offset, int) or offset <= 0:
        return []
    start = max(0, offset - max(int(max_bytes), 1))
    try:
        with open(path, "rb") as handle:
            if offset > os.fstat(handle.fileno()).st_size:
                return []
            handle.seek(start)
            raw = handle.read(offset - start)
    except OSError:
        return []
    if start > 0:
        raw = raw[raw.find(b"\n") + 1 :] if b"\n" in raw else b""
    records = _parse_lines(raw)
    for i in range(len(records) - 1, -1, -1):
        if is_human_prompt(records[i]):
            return records[i:]
    return records


def role(record):
    """``"user"``, ``"assistant"`` or None for every other record type."""
    kind = record.get("type")
    return kind if kind in ("user", "assistant") else None


def _content(record):
    message = record.get("message")
    return message.get("content") if isinstance(message, dict) else None


def text_of(record):
    """The text blocks of a user or assistant message, joined (tool results and inputs excluded)."""
    content = _content(record)
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    return "\n".join(b["text"] for b in content if isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str))


def typed_text(record):
    """A user message's text without the context blocks Claude Code or an IDE added to it."""
    text = text_of(record)
    if "<" in text:
        text = CONTEXT_BLOCK.sub("", text)
    return text.strip()


def is_human_prompt(record):
    """True for what a person typed.

    Not: tool results, ``isMeta``, compaction summaries, subagent
    (sidechain) prompts, command echoes, interrupt markers, Stop hook
    feedback, or a message that holds nothing but IDE/system context.
    """
    if role(record) != "user" or record.get("isMeta") or record.get("isCompactSummary") or record.get("isVisibleInTranscriptOnly"):
        return False
    if record.get("isSidechain") is True:
        return False
    origin = record.get("origin")
    if isinstance(origin, dict) and origin.get("kind") not in (None, "human"):
        return False
    content = _content(record)
    if isinstance(content, list):
        if not content or not all(isinstance(b, dict) and b.get("type") in ("text", "image") for b in content):
            return False
    elif not isinstance(content, str):
        return False
    text = typed_text(record)
    return bool(text) and not text.startswith(MARKERS)


def rejection_reason(record):
    """What a person typed when rejecting a tool call ("" if this record is not such a rejection)."""
    if role(record) != "user" or record.get("isSidechain") is True:
        return ""
    content = _content(record)
    if not isinstance(content, list):
        return ""
    for block in content:
        if not isinstance(block, dict) or block.get("type") != "tool_result":
            continue
        body = block.get("content")
        if isinstance(body, list):
            body = "\n".join(b.get("text", "") for b in body if isinstance(b, dict) and isinstance(b.get("text"), str))
        if not isinstance(body, str) or REJECTED_WITH_REASON not in body:
            continue
        reason = body.split(REJECTED_WITH_REASON, 1)[1].strip()
        if reason and not reason.startswith(MACHINE_REASONS):
            return reason
    return ""


def human_text(record):
    """The text a person typed in this record: a prompt's own text, or the reason given with a tool rejection ("" otherwise)."""
    if is_human_prompt(record):
        return typed_text(record)
    return rejection_reason(record)


def tool_uses(record):
    """``[(tool name, input dict), ...]`` of an assistant message."""
    if role(record) != "assistant":
        return []
    content = _content(record)
    if not isinstance(content, list):
        return []
    return [
        (b.get("name"), b.get("input") if isinstance(b.get("input"), dict) else {})
        for b in content
        if isinstance(b, dict) and b.get("type") == "tool_use" and isinstance(b.get("name"), str)
    ]
