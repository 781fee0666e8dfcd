"""``forewarn explain``: what the PreToolUse hook would do for one tool call, and why.

:func:`explain` decides with the hook's own code path (index, candidate
buckets, relevance, top_k, budget; :mod:`forewarn.inject`) without the
per-session dedupe and without writing the trace, and also scores *every*
active item with every term computed, so a person can see why an item did
not fire.  An item that scores eligible but that the hook's bucket lookup
does not reach is named as such (an index bug, never expected).
:func:`format_text` renders the result for a terminal; ``--format json``
prints the dict.  :func:`recorded` and :func:`format_recorded` read what the
hook actually decided in past calls from the trace (``explain --last N``).
"""

import json
import time

from . import config, index, relevance, render
from .conversation import recent_text
from .inject import disabled, heading
from .keywords import fold_text
from .toolcall import ToolCall

PRIORITIES = ("CRITICAL", "HIGH", "MEDIUM", "LOW")


def hook_input(root, tool, file=None, command=None, content=None, transcript=None, cwd=None):
    """A PreToolUse hook input assembled from CLI flags (relative paths are taken from ``cwd``, else ``root``)."""
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
        conversation_text = []

        def conversation():
            if not conversation_text:
                conversation_text.append(fold_text(recent_text(data.get("transcript_path"), settings["context_bytes"])))
            return conversation_text[0]

        off = _off_reason(call)
        hook_eligible = [v for v in relevance.evaluate(idx, call, threshold, conversation) if v.eligible]
        picked = [] if off else hook_eligible[: settings["top_k"]]
        texts = [idx.text(v.record) for v in picked]
        context = render.fence(heading(call, len(picked)), texts, settings["max_chars"]) if picked else ""
        shown = {v.record[index.R_ID] for v, t in zip(picked, texts) if t.split("\n", 1)[0] in context}
        reachable = {v.record[index.R_ID] for v in hook_eligible}
        picked_ids = {v.record[index.R_ID] for v in picked}
        rows = []
        for v in relevance.evaluate(idx, call, threshold, conversation, everything=True, always_context=True):
            item_id = v.record[index.R_ID]
            rows.append(
                {
                    "id": item_id,
                    "label": v.record[index.R_LABEL],
                    "priority": PRIORITIES[v.record[index.R_RANK]],
                    "score": v.score,
                    "terms": v.terms(),
                    "injected": item_id in shown,
                    "reason": _reason(v, off, item_id in shown, item_id in picked_ids, item_id in reachable, settings),
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
            "hook_buckets": relevance.candidate_keys(call, threshold, idx.header.get("keyword_words"), idx.header.get("tool_prefixes", ())),
            "items": rows,
            "additionalContext": context,
            "skipped_nodes": idx.header.get("problem_count", 0),
        }
    finally:
        idx.close()


def _off_reason(call):
    """Why the hook injects nothing at all for this call, or None."""
    if disabled():
        return "DISABLE_EXPERIENCE_INJECTION is set: the hook injects nothing"
    if not call.tool:
        return "no tool name: the hook injects nothing"
    if call.read_only:
        return "read-only tool: the hook injects nothing"
    return None


def _reason(verdict, off, shown, picked, reachable, settings):
    if off:
        return off
    if shown:
        return "injected"
    if verdict.gate:
        return verdict.gate
    if picked:
        return "cut: the %d-character budget is spent" % settings["max_chars"]
    if reachable:
        return "eligible, but below the top %d" % settings["top_k"]
    return "eligible, but the hook's index lookup does not reach it (an index bug: please report it)"


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
                    "sec" if terms.get("secret") else "yes" if terms["file"] else "-",  # a secret written stood in
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
