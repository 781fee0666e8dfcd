"""``forewarn explain``: what the PreToolUse hook would do for one tool call, and why.

:func:`explain` runs the hook's own code path (index, relevance, budget)
without the per-session dedupe and without writing the trace, and scores
*every* active item, not only the hook's candidates, so a person can see why
an item did not fire.  :func:`format_text` renders the result for a
terminal; ``--format json`` prints the dict.  :func:`recorded` and
:func:`format_recorded` read what the hook actually decided in past calls
from the trace (``explain --last N``).
"""

import json
import time

from . import config, index, relevance, render
from .conversation import recent_text
from .inject import heading
from .keywords import fold
from .toolcall import ToolCall


def hook_input(root, tool, file=None, command=None, content=None, transcript=None, cwd=None):
    """A PreToolUse hook input assembled from CLI flags."""
    tool_input = {}
    if file:
        tool_input["file_path"] = file
    if command:
        tool_input["command"] = command
    if content:
        tool_input["content"] = content
    data = {"hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": tool_input, "cwd": cwd or root}
    if transcript:
        data["transcript_path"] = transcript
    return data


def explain(root, data):
    """A dict describing the decision for hook input ``data`` in project ``root``."""
    call = ToolCall(data, root)
    idx, state = index.open_fresh(root)
    try:
        settings = config.effective(idx.header.get("settings"))
        threshold = settings["threshold"]
        conversation_text = fold(recent_text(data.get("transcript_path"), settings["context_bytes"]))
        verdicts = relevance.evaluate(idx, call, threshold, lambda: conversation_text, everything=True, always_context=True)
        candidates = relevance.candidate_keys(call, threshold)
        read_only = call.read_only
        chosen = [] if read_only else [v for v in verdicts if v.eligible][: settings["top_k"]]
        texts = [idx.text(v.record) for v in chosen]
        context = render.fence(heading(call, len(chosen)), texts, settings["max_chars"]) if chosen else ""
        rows = []
        for v in verdicts:
            rows.append(
                {
                    "id": v.record[index.R_ID],
                    "label": v.record[index.R_LABEL],
                    "priority": ("CRITICAL", "HIGH", "MEDIUM", "LOW")[v.record[index.R_RANK]],
                    "score": v.score,
                    "terms": v.terms(),
                    "injected": v in chosen and v.record[index.R_ID] in context,
                    "reason": _reason(v, chosen, read_only),
                    "source": v.record[index.R_SOURCE],
                }
            )
        return {
            "project": root,
            "tool": call.tool,
            "path": call.display_path,
            "index": state,
            "threshold": threshold,
            "top_k": settings["top_k"],
            "max_chars": settings["max_chars"],
            "hook_buckets": candidates,
            "items": rows,
            "additionalContext": context,
            "skipped_nodes": idx.header.get("problem_count", 0),
        }
    finally:
        idx.close()


def _reason(verdict, chosen, read_only):
    if read_only:
        return "read-only tool: the hook injects nothing"
    if verdict in chosen:
        return "injected"
    if verdict.gate:
        return verdict.gate
    return "eligible, but below the top %d" % len(chosen)


def format_text(result):
    """A terminal report: the call, every item with its terms, and the text the model would get."""
    lines = [
        "project:   %s" % result["project"],
        "tool call: %s %s" % (result["tool"], result["path"] or ""),
        "index:     %s; threshold %.2f, top %d, budget %d chars"
        % (result["index"], result["threshold"], result["top_k"], result["max_chars"]),
        "",
    ]
    if not result["items"]:
        lines.append("No active knowledge items.")
    else:
        lines.append("%-7s %-9s %-4s %-4s %-14s %-14s %s" % ("score", "priority", "tool", "file", "action", "context", "item → decision"))
        for row in result["items"]:
            terms = row["terms"]
            lines.append(
                "%-7.2f %-9s %-4s %-4s %-14s %-14s %s → %s"
                % (
                    row["score"],
                    row["priority"],
                    "yes" if terms["tool"] else "-",
                    "yes" if terms["file"] else "-",
                    (terms["action"] or "-")[:14],
                    (terms["context"] or "-")[:14],
                    row["id"],
                    row["reason"],
                )
            )
    if result["skipped_nodes"]:
        lines.append("")
        lines.append("%d invalid node(s) skipped; `forewarn validate` names them." % result["skipped_nodes"])
    lines.append("")
    if result["additionalContext"]:
        lines.append("additionalContext the model would receive (%d chars):" % len(result["additionalContext"]))
        lines.append(result["additionalContext"])
    else:
        lines.append("Nothing would be injected.")
    return "\n".join(lines)


def recorded(last, session=None):
    """The last ``last`` decisions of the PreToolUse hook from the trace (oldest first), optionally one session's."""
    from .trace import trace_file

    path = trace_file()
    lines = []
    for name in (path + ".1", path):
        try:
            with open(name, encoding="utf-8") as handle:
                lines.extend(handle.read().splitlines())
        except OSError:
            continue
    decisions = []
    for line in lines:
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if isinstance(entry, dict) and (session is None or entry.get("session") == session):
            decisions.append(entry)
    return decisions[-last:] if last > 0 else []


def format_recorded(decisions):
    """One block per recorded decision: when, the call, what was injected, and each candidate's terms or gate."""
    if not decisions:
        from .trace import trace_file

        return "No recorded decisions (the trace is %s)." % trace_file()
    out = []
    for entry in decisions:
        stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(entry.get("ts", 0)))
        injected = ", ".join(entry.get("injected") or []) or "nothing"
        out.append("%s  %s %s  session %s  → injected %s" % (stamp, entry.get("tool"), entry.get("path") or "", str(entry.get("session"))[:12], injected))
        for cand in entry.get("candidates") or []:
            terms = cand.get("terms") or {}
            out.append("    %.2f %-40s tool=%s file=%s action=%s context=%s%s" % (
                cand.get("score", 0), cand.get("id"), terms.get("tool"), terms.get("file"), terms.get("action") or "-",
                terms.get("context") or "-", "  [%s]" % cand["gate"] if cand.get("gate") else ""))
        if entry.get("repeats"):
            out.append("    already injected earlier in the session: %s" % ", ".join(entry["repeats"]))
        if entry.get("note"):
            out.append("    " + entry["note"])
    return "\n".join(out)
