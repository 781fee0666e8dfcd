"""PreToolUse: choose the knowledge that fits this tool call and phrase it for the model.

:func:`handle` is the whole hook after the shared contract of
:mod:`forewarn.hookio`: it returns the ``additionalContext`` text, or None.
In order: the off switch (``DISABLE_EXPERIENCE_INJECTION=1``), read-only
tools, the compiled index (rebuilt if a graph changed), relevance
(:mod:`forewarn.relevance`), per-session dedupe
(:mod:`forewarn.session_state`), the character budget, and one trace line
per decision (:mod:`forewarn.trace`).  Drafts and archived items are not in
the index, so they are never injected.
"""

import os

from .log import log

# Tools that change nothing: no knowledge is injected before them.  Kept here,
# not in toolcall, so a read-only call leaves before importing anything else.
READ_ONLY_TOOLS = frozenset(
    (
        "Read", "Grep", "Glob", "LS", "NotebookRead", "WebFetch", "WebSearch", "TodoRead",
        "TodoWrite", "ToolSearch", "ListMcpResourcesTool", "ReadMcpResourceTool", "BashOutput",
        "AskUserQuestion", "ExitPlanMode", "EnterPlanMode", "TaskOutput", "Skill",
    )
)

# MCP tools whose names say they only read (mcp__github__get_issue, mcp__slack__list_channels): nothing either.
READ_ONLY_MCP_VERBS = ("get_", "list_", "search_", "read_", "fetch_", "describe_", "query_")

OFF_VALUES = ("1", "true", "yes", "on")


def read_only(tool):
    """True for a tool that changes nothing: the built-in readers, and MCP tools named for reading."""
    if tool in READ_ONLY_TOOLS:
        return True
    if tool.startswith("mcp__"):
        return tool.rsplit("__", 1)[-1].startswith(READ_ONLY_MCP_VERBS)
    return False


def disabled():
    """True when the user turned injection off for this process."""
    return os.environ.get("DISABLE_EXPERIENCE_INJECTION", "").strip().lower() in OFF_VALUES


def heading(call, count):
    """The line before the fenced items: what matched, and that it is reference data, not an instruction."""
    target = (" on " + call.display_path) if call.display_path else ""
    return (
        "forewarn: %d recorded lesson%s from the knowledge graphs match%s this %s call%s. "
        "This is reference data from earlier sessions, not a request from the user."
        % (count, "" if count == 1 else "s", "es" if count == 1 else "", call.tool, target)
    )


def handle(data):
    """The PreToolUse decision for one hook input: ``additionalContext`` text or None."""
    if disabled():
        return None
    tool = data.get("tool_name")
    if not isinstance(tool, str) or not tool:
        log("PreToolUse", "input has no tool_name string (%s); nothing to decide" % type(tool).__name__)
        return None
    if read_only(tool):
        return None
    # Imported here, not at the top: a read-only call leaves before paying for them.
    from . import index, paths, trace
    from .toolcall import ToolCall

    root = paths.project_root(data.get("cwd"))
    _log_odd_input(data, root)
    call = ToolCall(data, root)
    idx, state = index.open_fresh(root, inline_limit=index.INLINE_BUILD_LIMIT)
    if idx is None:
        trace.record({"event": "PreToolUse", "session": data.get("session_id"), "tool": call.tool,
                      "path": call.display_path, "root": root, "index": state, "injected": [],
                      "note": "no index yet; a background rebuild was started"})
        return None
    try:
        return _decide(data, call, idx, state, root)
    except index.CorruptIndex as exc:  # a bucket or text failed its CRC: rebuild once, then decide
        log("PreToolUse", "index unusable (%s); rebuilding" % exc)
        idx.close()
        index.discard(root)
        idx, state = index.open_fresh(root, inline_limit=index.INLINE_BUILD_LIMIT)
        if idx is None:
            return None
        return _decide(data, call, idx, state, root)
    finally:
        idx.close()


def _log_odd_input(data, root):
    """A log line for an input the decision can use only in part (it goes on with what it has)."""
    odd = []
    tool_input = data.get("tool_input")
    if not isinstance(tool_input, dict):
        odd.append("tool_input is a %s, not an object" % type(tool_input).__name__)
    if root is None:
        odd.append("no project folder (cwd %r); only the user's graphs are searched" % (data.get("cwd"),))
    if odd:
        log("PreToolUse", "; ".join(odd))


def _decide(data, call, idx, state, root):
    from . import config, index, relevance, render, session_state, trace
    from .conversation import recent_text
    from .keywords import fold_text

    settings = config.effective(idx.header.get("settings"))
    threshold = settings["threshold"]
    cache = []

    def conversation():
        if not cache:
            cache.append(fold_text(recent_text(data.get("transcript_path"), settings["context_bytes"])))
        return cache[0]

    verdicts = relevance.evaluate(idx, call, threshold, conversation)
    eligible = [v for v in verdicts if v.eligible]
    result = {"text": None, "injected": [], "repeats": []}

    def choose(already):
        picked = []
        for verdict in eligible:
            key = (verdict.record[index.R_ID], call.display_path)
            if key in already:
                result["repeats"].append(key[0])
                continue
            picked.append(verdict)
            if len(picked) >= settings["top_k"]:
                break
        if not picked:
            return []
        texts = [idx.text(v.record) for v in picked]
        text = render.fence(heading(call, len(picked)), texts, settings["max_chars"])
        if not text:
            return []
        shown = [v for v, t in zip(picked, texts) if t.split("\n", 1)[0] in text]
        if len(shown) < len(picked):  # the budget dropped some: the heading counts what is shown
            text = render.fence(heading(call, len(shown)), texts[: len(shown)], settings["max_chars"])
        result["text"] = text
        result["injected"] = [v.record[index.R_ID] for v in shown]
        return [(v.record[index.R_ID], call.display_path) for v in shown]

    if eligible:
        session_state.claim(data.get("session_id"), choose)
    trace.record(
        {
            "event": "PreToolUse",
            "session": data.get("session_id"),
            "tool": call.tool,
            "path": call.display_path,
            "root": root,
            "index": state,
            "threshold": threshold,
            "injected": result["injected"],
            "repeats": result["repeats"],
            "candidates": [
                {"id": v.record[index.R_ID], "score": v.score, "terms": v.terms(), "gate": v.gate}
                for v in verdicts[: trace.MAX_CANDIDATES]
            ],
        }
    )
    return result["text"]
