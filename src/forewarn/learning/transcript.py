"""Reading Claude Code's transcript JSONL incrementally, and telling who said what.

Contract: :func:`read_new_records` returns the records of the complete
lines that start at or after ``offset`` and the offset just past the last
complete line, so a half-written last line is read next time; a missing or
unreadable file gives ``([], offset)``; an ``offset`` beyond the end of the
file (the file was replaced or truncated) restarts at 0.  Lines that are not
JSON objects are skipped.  Nothing here raises for odd records: every
accessor returns an empty value for a shape it does not know.
"""

import json
import os

MARKERS = ("<command-", "<local-command-", "[Request interrupted", "Stop hook feedback:", "<system-reminder>",
           "Caveat: The messages below")


def read_new_records(path, offset, max_bytes):
    """``(records, new_offset)`` for the complete lines after ``offset`` (at most ``max_bytes`` read)."""
    if not path or not isinstance(path, str):
        return [], offset
    try:
        with open(path, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            if offset > size:
                offset = 0
            handle.seek(offset)
            raw = handle.read(max_bytes)
    except OSError:
        return [], offset
    end = raw.rfind(b"\n")
    if end < 0:
        return [], offset
    records = []
    for line in raw[: end + 1].split(b"\n"):
        if not line.strip():
            continue
        try:
            record = json.loads(line.decode("utf-8", "replace"))
        except ValueError:
            continue
        if isinstance(record, dict):
            records.append(record)
    return records, offset + end + 1


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


def is_human_prompt(record):
    """True for what a person typed: a user message that is not a tool result, meta, summary or command echo."""
    if role(record) != "user" or record.get("isMeta") or record.get("isCompactSummary") or record.get("isVisibleInTranscriptOnly"):
        return False
    content = _content(record)
    if isinstance(content, list):
        if not content or not all(isinstance(b, dict) and b.get("type") in ("text", "image") for b in content):
            return False
    elif not isinstance(content, str):
        return False
    text = text_of(record).lstrip()
    return bool(text) and not text.startswith(MARKERS)


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
