"""The recent conversation, for context keywords: the transcript's tail only.

Contract: :func:`recent_text` reads at most ``max_bytes`` from the end of the
transcript JSONL (never the whole file), drops the first, possibly partial
line, and returns the text of user and assistant messages (strings, text
blocks, tool inputs) joined; any problem (missing file, bad lines) yields
what could be read, possibly "".  Hot-path safe: :mod:`forewarn.fastjson`.
"""

import os

from . import fastjson


def _texts(content, out):
    if isinstance(content, str):
        out.append(content)
    elif isinstance(content, list):
        for block in content:
            if not isinstance(block, dict):
                continue
            kind = block.get("type")
            if kind == "text" and isinstance(block.get("text"), str):
                out.append(block["text"])
            elif kind == "tool_use" and isinstance(block.get("input"), dict):
                for value in block["input"].values():
                    if isinstance(value, str):
                        out.append(value[:2000])


def recent_text(transcript_path, max_bytes):
    """Text of the last messages within ``max_bytes`` of the transcript's end."""
    if not isinstance(transcript_path, str) or not transcript_path or max_bytes <= 0:
        return ""
    try:
        with open(transcript_path, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            start = max(0, size - max_bytes)
            handle.seek(start)
            raw = handle.read(max_bytes)
    except OSError:
        return ""
    lines = raw.split(b"\n")
    if start > 0:
        lines = lines[1:]
    out = []
    for line in lines:
        if not line.strip():
            continue
        try:
            record = fastjson.loads(line.decode("utf-8", "replace"))
        except ValueError:
            continue
        if not isinstance(record, dict) or record.get("type") not in ("user", "assistant"):
            continue
        message = record.get("message")
        if isinstance(message, dict):
            _texts(message.get("content"), out)
    return "\n".join(out)
